"""``report``: the strategy reports of one game or of every game, written into a folder."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.api.checks import (
    MIN_COUNT,
    UserError,
    game_spec,
    mode_and_count,
    out_path,
    seed_of,
)
from analyzer.api.plans import (
    Folder,
    Plan,
    RunArgs,
    Store,
    documented,
    refuse_unused,
    where,
)
from analyzer.api.results import (
    ReportResult,
)
from analyzer.run.context import Tally
from sims.spec import Mode

if TYPE_CHECKING:
    pass

DEFAULT_OUT = "reports"
PROJECT_OUT = "out/reports"  # the default inside the project's own folder (/out/ is ignored by git)


def is_project_folder(folder: Path) -> bool:
    """Whether ``folder`` is a checkout of card-analyzer itself, whose ``reports/`` are the
    committed reports (its ``pyproject.toml`` names the project)."""
    import re

    try:
        text = (folder / "pyproject.toml").read_text(errors="replace")
    except OSError:
        return False
    return re.search(r'^name\s*=\s*"card-analyzer"\s*$', text, flags=re.M) is not None


def default_report_folder(cwd: Path | None = None) -> tuple[Path, str]:
    """Where a report goes when no folder is given, and the line that says why when it is
    not the usual one: ``reports/`` in the current folder, but ``out/reports/`` inside the
    card-analyzer project folder, whose committed ``reports/`` only ``--out reports``
    replaces."""
    if is_project_folder(Path.cwd() if cwd is None else cwd):
        return Path(PROJECT_OUT), (
            f"this is the card-analyzer project folder: the report went to {PROJECT_OUT}/, and the committed "
            f"{DEFAULT_OUT}/ are as they were (--out {DEFAULT_OUT} replaces them)"
        )
    return Path(DEFAULT_OUT), ""


# ------------------------------------------------------------------------------ simulate


@dataclass(frozen=True)
class ReportPlan(Plan):
    """A checked ``report``, ready to write."""

    specs: list
    every_game: bool  # "all": an index page too
    out: Path
    count: int
    seed: int
    report_format: str
    note: str = ""  # why the reports went where they did, when no folder was given

    def compiling_ahead(self):
        """On this machine, the reports' kernels compile in a process per core (or per
        ``--threads``) beside the runs (:mod:`sims.precompile`); a cluster's workers
        compile their own."""
        from contextlib import nullcontext

        from sims.precompile import compiling_ahead

        return compiling_ahead(self.specs, jobs=self.threads) if self.cluster is None else nullcontext()

    def run(
        self,
        progress: Callable[[str], None] | None = None,
        wrote: Callable[[str, Path], None] | None = None,
        tally: Tally | None = None,
    ) -> ReportResult:
        """Write every game's report; ``progress(text)`` hears each stage, ``wrote(game,
        path)`` each file as it is written."""
        from analyzer.reporting.write import write_index, write_report

        paths = []

        def keep(game: str, path: Path) -> None:
            paths.append((game, path))
            if wrote is not None:
                wrote(game, path)

        with self.context(on_stage=progress, tally=tally) as context, self.compiling_ahead():
            for spec in self.specs:
                keep(
                    spec.name,
                    write_report(spec, self.out / spec.name, self.count, self.seed, self.report_format, context),
                )
        if self.every_game:
            keep("all", write_index(self.out, self.specs, self.count, self.seed, self.report_format))
        return ReportResult(paths)


def plan_report(game: str, *, out: Folder = None, report_format: str = "md", run: RunArgs = RunArgs()) -> ReportPlan:
    """Check the arguments of :func:`report` in the command line's order (``run.hands``:
    hands per run; ``run.games`` and ``run.target_se`` are not taken)."""
    from analyzer.present.files import check_out_dir
    from sims.registry import GAMES

    specs = list(GAMES.values()) if game == "all" else [game_spec(game)]
    refuse_unused(run, ("games", "target_se"), "report", "its runs are counted by hands, in full")
    if report_format not in ("md", "html"):
        raise UserError(f"--format takes md or html, not '{report_format}'.")
    count = mode_and_count(specs[0], 10**6 if run.hands is None else run.hands, None, Mode.HANDS, {})[1]
    if count < MIN_COUNT:
        raise UserError(
            f"--hands must be at least {MIN_COUNT} for a report, not {count}: its standard errors "
            f"come from batches of hands."
        )
    seed_number = seed_of(run.seed)
    kept = where(run)
    folder, note = default_report_folder() if out is None else (out_path(out), "")
    folder = check_out_dir(folder)
    for spec in specs:  # each game's own folder too: a file there would only show at the end
        check_out_dir(folder / spec.name)
    return ReportPlan(*kept, specs, game == "all", folder, count, seed_number, report_format, note)


@documented
def report(
    game: str,
    out: Folder = None,
    hands: int | None = None,
    report_format: str = "md",
    seed: int = 0,
    threads: int | None = None,
    store: Store = None,
    cluster: str | None = None,
) -> ReportResult:
    """Write the strategy report of a game, or of every game with an index page
    (``analyze report``), into ``out/<game>/``.

    game: the game's name, or "all".
    out: the folder (default "reports", but "out/reports" inside the card-analyzer project
        folder itself, so that its committed reports/ change only when asked by name). Each
        game's folder is swapped in whole once its report is complete: README.md (or
        report.html) and the charts of the old report go, other files in it stay.
    hands: hands per run (default 1,000,000; strategy runs use a fraction).
    report_format: "md" (Markdown with PNG charts) or "html" (one self-contained file).
    seed: the random seed.
    threads: kernel threads (default: every core).
    store: the result store: None the default, False none, or a file's path.
    cluster: None, "local:N" or a Dask scheduler's address.

    Returns a :class:`ReportResult`; ``ValueError`` for a bad argument."""
    return plan_report(
        game, out=out, report_format=report_format, run=RunArgs(hands, None, seed, threads, None, store, cluster)
    ).run()
