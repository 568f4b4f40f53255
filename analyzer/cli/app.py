"""The ``analyze`` Typer app and what its commands share: the options, the guard that
turns bad input into one sentence (exit code 2) and an interrupt into one line, and the
printing of a result.  The commands live in the other modules of ``analyzer.cli``;
``analyzer.cli.main`` registers them all and runs the app.  No game logic lives here.
"""

from __future__ import annotations

import json

import typer

from analyzer.api.functions import UserError
from analyzer.run import interrupts
from analyzer.run.execution import ClusterError

app = typer.Typer(
    name="analyze",
    help="Monte Carlo strategy analyzer for traditional card games.  "
    "Run 'analyze GAME' to simulate, 'analyze rules GAME' to list its rules and policies.",
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    add_completion=False,
)


def fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code=2)


def guarded(body, interrupted=None):
    """Run a command body, turning ``ValueError``/``KeyError`` into one sentence + exit 2,
    a failed write into one sentence + exit 1, and an interrupt into one line on stderr
    + exit 130 (143 for SIGTERM).

    ``interrupted(stop)`` says what was finished (the body may have printed a partial
    table first); without it the line says how many hands were played.
    """
    from analyzer.run.runner import TALLY

    TALLY.reset()
    try:
        return body()
    except (ValueError, KeyError) as problem:  # UserError is a ValueError
        message = problem.args[0] if problem.args else str(problem)
        fail(str(message))
    except ClusterError as problem:
        typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(code=1)
    except OSError as problem:  # the checks passed, then writing failed (a full disk, a folder removed)
        where = f" {problem.filename}" if problem.filename else ""
        typer.echo(f"error: could not write{where}: {problem.strerror or problem}.", err=True)
        raise typer.Exit(code=1)
    except interrupts.Interrupted as stop:
        interrupts.ignore()
        if stop.forced:
            said = "again: stopped at once, without waiting for the work in progress; nothing more is shown"
        else:
            said = interrupted(stop) if interrupted else None
        if said is None:
            said = (f"after {TALLY.played:,} {TALLY.unit} played" if TALLY.played else
                    "before any hand was played")
        if stop.abandoned:
            said = f"while {stop.abandoned}, which was abandoned (the next run does it again); {said}"
        typer.echo(f"interrupted ({stop.signal_name}) {said}", err=True)
        interrupts.reset()
        raise typer.Exit(code=stop.exit_code)


# ------------------------------------------------------------------------------ options

PLAYERS = typer.Option(None, "--players", "-n", metavar="N", help="number of players (seats)")
SEED = typer.Option("0", "--seed", metavar="S", help="random seed, 0 to 2^64 - 1; the same seed plays the same deals")
VARIANT = typer.Option(None, "--variant", help="named rule preset (see 'analyze rules GAME')")
RULE = typer.Option(None, "--rule", help="rule override KEY=VALUE (repeatable)")
STRATEGY = typer.Option(None, "--strategy", help="named policy preset for every seat")
POLICY = typer.Option(None, "--policy", help="policy field KEY=VALUE for every seat (repeatable)")
SEAT = typer.Option(None, "--seat", help="policy field for one seat, SEAT:KEY=VALUE (repeatable)")
THREADS = typer.Option(None, "--threads", metavar="N", help="kernel threads (default: all cores)")
TARGET_SE = typer.Option(None, "--target-se", metavar="X", help="stop once every reported standard error is below this "
                                                   "(--hands/--games is then the cap)")
AS_JSON = typer.Option(False, "--json", help="print one JSON object instead of the tables")
STORE = typer.Option(None, "--store", metavar="PATH", help="result store file (default: the user's data folder)")
NO_STORE = typer.Option(False, "--no-store", help="play every hand, keep nothing")
CLUSTER = typer.Option(None, "--cluster", metavar="ADDRESS", help="a Dask scheduler address, or local:N")


def store_option(store: str | None, no_store: bool):
    """``--store PATH`` / ``--no-store`` as the API's ``store``: a path, False for none, or
    None for the default store."""
    if store is not None and no_store:
        raise UserError("give either --store or --no-store, not both.")
    return False if no_store else store


def show(result, as_json: bool) -> None:
    """Print a result's text, or its JSON object with --json (a partial one says so)."""
    typer.echo(json.dumps(result.summary()) if as_json else result.text())


def play_and_show(plan, as_json: bool, out) -> None:
    """Play a plan of the API and print its result, then write --out; an interrupt prints
    the partial result first (when anything finished) and goes on up."""
    try:
        result = plan.run(progress=False if as_json else None)
    except interrupts.Interrupted as stop:
        if stop.partial is not None and stop.partial.count > 0:
            show(plan.result_of(stop.partial), as_json)
        raise
    show(result, as_json)
    if out is not None:
        paths = result.write(out)
        if not as_json:
            typer.echo("wrote " + ", ".join(str(p) for p in paths))
