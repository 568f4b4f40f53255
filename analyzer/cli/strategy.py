"""The strategy commands of ``analyze``: sweep, optimize, compare and report.

They parse and print; the work is done by the Python API (``analyzer.api.functions``), which checks
the arguments and plays them through ``analyzer.strategy.sweeps`` (sweeps, best responses,
equilibria), ``analyzer.strategy.comparisons`` (paired differences) and ``analyzer.reporting.document`` (reports).
Registered by ``analyzer.cli.main``; the Typer app is ``analyzer.cli.app``'s.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Optional

import typer

from analyzer.api import functions as api
from analyzer.api.checks import UserError
from analyzer.api.plans import TableArgs
from analyzer.cli.app import (
    Given,
    app,
    guarded,
    play_and_show,
    show,
    tallied,
    with_options,
)
from analyzer.cli.parse import parse_assignments, parse_seat_assignments, parse_whole
from analyzer.run.context import Tally
from sims.spec import MODE_NAMES


def parse_seat_number(text: str | None) -> int | None:
    """``--seat N`` of a sweep: a seat number (whether it exists is the API's check)."""
    if text is None:
        return None
    if not re.fullmatch(r"\s*\d+\s*", text):
        raise UserError(f"--seat takes a seat number, not '{text}'.")
    return int(text)


def _paired_interrupt_text(stop, unit: str, asked: int, per: str, out) -> str:
    """The interrupt line of a command built on one paired run (sweep, compare)."""
    run = stop.partial
    if run is None:
        said = f"before two batches of {unit} finished; nothing is shown"
    else:
        said = f"after {run.count:,} of {asked:,} {unit} {per}; the table above is for those {unit}, marked partial"
    return said + ("; nothing was written to --out" if out is not None else "")


def _stage_interrupt_text(stop, ending: str) -> str:
    """The interrupt line of a command of many runs (optimize, report): the stage it was
    in and the hands played (the run's tally, carried by the interrupt)."""
    tally = getattr(stop, "tally", None)
    if tally is None:
        return f"before any hand was played; {ending}"
    during = f"during {tally.stage} " if tally.stage else ""
    return f"{during}after {tally.played:,} {tally.unit} played; {ending}"


@app.command("sweep")
@with_options(
    but=("seat",),  # a sweep's --seat is the seat that varies
    helps={
        "hands": "hands per value (default 1e6)",
        "games": "whole games per value instead of hands",
        "out": "also write a CSV and a PNG chart into this folder",
    },
)
def sweep_command(
    game: str = typer.Argument(..., help="game name, e.g. chase-ace"),
    param: str = typer.Option(..., "--param", help="the policy field and its values: FIELD=LO:HI[:STEP] (or FIELD)"),
    seat: Optional[str] = typer.Option(None, "--seat", help="the seat that varies (default: every seat together)"),
    given: Given = None,  # type: ignore[assignment]  # the shared options, from with_options
):
    """Every outcome against one policy field, every value on the same deals."""
    out = given.out

    def body():
        api.game_spec(game)
        table, run = given.args()
        plan = api.plan_sweep(game, param, parse_seat_number(seat), table=table, run=run, out=out)
        asked.update(unit=MODE_NAMES[plan.mode], count=plan.count)
        play_and_show(plan, given.as_json, out)

    asked: dict = {"unit": "hands", "count": 0}  # what the run was asked to play, for the interrupt line
    guarded(body, lambda stop: _paired_interrupt_text(stop, asked["unit"], asked["count"], "per value", out))


@app.command("optimize")
@with_options(
    but=("target_se", "out"),
    helps={"hands": "hands per policy tried (default 200k)", "games": "whole games per policy tried instead of hands"},
)
def optimize_command(
    game: str = typer.Argument(..., help="game name, e.g. chase-ace"),
    field: Optional[str] = typer.Option(
        None,
        "--field",
        help="the policy field to optimise, FIELD or FIELD=LO:HI[:STEP] (default: the game's main strategy field)",
    ),
    rounds: str = typer.Option("6", "--rounds", metavar="N", help="most rounds of iterated best response, 1 to 50"),
    given: Given = None,  # type: ignore[assignment]  # the shared options, from with_options
):
    """Each seat's best response to the others, and the equilibrium: a matrix game for two
    players when the headline is constant-sum, else iterated best response."""

    def body():
        api.game_spec(game)
        table, run = given.args()
        plan = api.plan_optimize(game, field, parse_whole(rounds, "--rounds", 1, 50), table=table, run=run)
        with tallied(Tally()) as tally:
            show(plan.run(progress=False if given.as_json else None, tally=tally), given.as_json)

    guarded(body, lambda stop: _stage_interrupt_text(stop, "an unfinished search shows nothing"))


@app.command("compare")
@with_options(
    kinds={"variant": Optional[List[str]]},
    helps={
        "variant": "a named rule preset to compare (repeatable; with one, it is compared with the standard rules)",
        "rule": "KEY=VALUE: together they make one rule set compared with the standard rules (repeatable)",
        "hands": "hands per arm: rule set or policy (default 1e6)",
        "games": "whole games per arm instead of hands",
        "out": "also write the differences as CSV and JSON and a chart of the headline's differences into this folder",
    },
)
def compare_command(
    game: str = typer.Argument(..., help="game name, e.g. chase-ace"),
    against: Optional[str] = typer.Option(
        None,
        "--against",
        help="a policy preset played head to head against the "
        "table's policy (--strategy, --policy, --seat) on the same deals",
    ),
    against_policy: Optional[List[str]] = typer.Option(
        None, "--against-policy", help="KEY=VALUE over the --against preset for every seat (repeatable)"
    ),
    against_seat: Optional[List[str]] = typer.Option(
        None,
        "--against-seat",
        help="SEAT:KEY=VALUE (or SEAT:table=FILE) over the --against preset for one seat (repeatable)",
    ),
    against_table: Optional[List[str]] = typer.Option(
        None,
        "--against-table",
        metavar="FILE",
        help="a strategy table every seat plays in the policy played --against (repeatable)",
    ),
    given: Given = None,  # type: ignore[assignment]  # the shared options, from with_options
):
    """Paired differences of every outcome between rule sets, or between two policies
    head to head (--against), on the same deals."""
    out = given.out

    def body():
        api.game_spec(game)
        table, run = given.args()
        rival = TableArgs(
            strategy=against,
            policy=parse_assignments(against_policy, "--against-policy"),
            seats=parse_seat_assignments(against_seat, "--against-seat"),
            tables=list(against_table or []),
        )
        plan = api.plan_compare(game, table=table, against=rival, run=run, out=out)  # --variant: None or a list
        asked.update(unit=MODE_NAMES[plan.mode], count=plan.count)
        play_and_show(plan, given.as_json, out)

    asked: dict = {"unit": "hands", "count": 0}
    guarded(body, lambda stop: _paired_interrupt_text(stop, asked["unit"], asked["count"], "per arm", out))


@app.command("report")
@with_options(
    "hands",
    "seed",
    "threads",
    "store",
    "no_store",
    "cluster",
    helps={"hands": "hands per run (default 1e6; strategy runs use a fraction, see the report)"},
)
def report_command(
    game: str = typer.Argument(..., help="game name, or 'all' for every game"),
    out: Optional[str] = typer.Option(
        None,
        "--out",
        help="folder to write into, one subfolder per game (default reports/; inside the card-analyzer project "
        "folder out/reports/, so the committed reports/ change only with --out reports)",
    ),
    report_format: str = typer.Option(
        "md", "--format", help="md (Markdown with PNG charts) or html (one self-contained file)"
    ),
    given: Given = None,  # type: ignore[assignment]  # the shared options, from with_options
):
    """A strategy report per game: rules, tables, sweeps, best responses, equilibrium, house rules."""
    written: list[str] = []

    def body():
        if game != "all":
            api.game_spec(game)
        if report_format not in ("md", "html"):
            raise UserError(f"--format takes md or html, not '{report_format}'.")
        run = given.args()[1]
        plan = api.plan_report(game, out=out, report_format=report_format, run=run)

        def wrote(name: str, path: Path) -> None:
            if name != "all":
                written.append(name)
            typer.echo(f"wrote {path}")

        with tallied(Tally()) as tally:
            plan.run(progress=lambda text: typer.echo(text, err=True), wrote=wrote, tally=tally)
        if plan.note:
            typer.echo(plan.note)

    def interrupted(stop) -> str:
        done = f" (finished: {', '.join(written)})" if written else ""
        return _stage_interrupt_text(stop, f"the unfinished report was not written{done}")

    guarded(body, interrupted)
