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
    Store,
    documented,
    where,
)
from analyzer.api.results import (
    ReportResult,
)
from analyzer.run.context import Tally
from sims.spec import HANDS

if TYPE_CHECKING:
    pass

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

        with self.context(on_stage=progress, tally=tally) as context:
            for spec in self.specs:
                keep(
                    spec.name,
                    write_report(spec, self.out / spec.name, self.count, self.seed, self.report_format, context),
                )
        if self.every_game:
            keep("all", write_index(self.out, self.specs, self.count, self.seed, self.report_format))
        return ReportResult(paths)


def plan_report(
    game: str,
    out: Folder = "reports",
    hands: int | None = None,
    report_format: str = "md",
    seed: int = 0,
    threads: int | None = None,
    store: Store = None,
    cluster: str | None = None,
) -> ReportPlan:
    """Check the arguments of :func:`report` in the command line's order."""
    from analyzer.present.files import check_out_dir
    from sims.registry import GAMES

    specs = list(GAMES.values()) if game == "all" else [game_spec(game)]
    if report_format not in ("md", "html"):
        raise UserError(f"--format takes md or html, not '{report_format}'.")
    count = mode_and_count(specs[0], 10**6 if hands is None else hands, None, HANDS, {})[1]
    if count < MIN_COUNT:
        raise UserError(
            f"--hands must be at least {MIN_COUNT} for a report, not {count}: its standard errors "
            f"come from batches of hands."
        )
    seed_number = seed_of(seed)
    kept = where(store, cluster, threads)
    folder = check_out_dir(out_path(out))
    for spec in specs:  # each game's own folder too: a file there would only show at the end
        check_out_dir(folder / spec.name)
    return ReportPlan(*kept, specs, game == "all", folder, count, seed_number, report_format)


@documented
def report(
    game: str,
    out: Folder = "reports",
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
    out: the folder (default "reports").
    hands: hands per run (default 1,000,000; strategy runs use a fraction).
    report_format: "md" (Markdown with PNG charts) or "html" (one self-contained file).
    seed: the random seed.
    threads: kernel threads (default: every core).
    store: the result store: None the default, False none, or a file's path.
    cluster: None, "local:N" or a Dask scheduler's address.

    Returns a :class:`ReportResult`; ``ValueError`` for a bad argument."""
    return plan_report(game, out, hands, report_format, seed, threads, store, cluster).run()
