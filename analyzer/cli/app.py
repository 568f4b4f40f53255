"""The ``analyze`` Typer app and what its commands share: the options, the guard that
turns bad input into one sentence (exit code 2) and an interrupt into one line, and the
printing of a result.  The commands live in the other modules of ``analyzer.cli``;
``analyzer.cli.main`` registers them all and runs the app.  No game logic lives here.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any, List, Optional

import typer

from analyzer.api.functions import UserError
from analyzer.api.plans import RunArgs, TableArgs
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


CLOSED_PIPE = 141  # 128 + SIGPIPE: what a command killed by a closed pipe exits with


def closed_pipe() -> int:
    """The reader went away: nothing more can be shown, so stdout is pointed at /dev/null
    (the interpreter's last flush must not complain) and the command ends quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    return CLOSED_PIPE


def guarded(body, interrupted=None):
    """Run a command body, turning ``ValueError``/``KeyError`` into one sentence + exit 2,
    a failed write into one sentence + exit 1, and an interrupt into one line on stderr
    + exit 130 (143 for SIGTERM).

    ``interrupted(stop)`` says what was finished (the body may have printed a partial
    table first); without it the line says how many hands were played (the run's tally,
    which the interrupt carries).
    """
    try:
        return body()
    except (ValueError, KeyError) as problem:  # UserError is a ValueError
        message = problem.args[0] if problem.args else str(problem)
        fail(str(message))
    except ClusterError as problem:
        typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(code=1)
    except BrokenPipeError:  # the reader of stdout went away (| head): nothing more to show, no complaint
        raise typer.Exit(code=closed_pipe())
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
            tally = getattr(stop, "tally", None)
            said = (
                f"after {tally.played:,} {tally.unit} played"
                if tally is not None and tally.played
                else "before any hand was played"
            )
        if stop.abandoned:
            said = f"while {stop.abandoned}, which was abandoned (the next run does it again); {said}"
        typer.echo(f"interrupted ({stop.signal_name}) {said}", err=True)
        interrupts.reset()
        raise typer.Exit(code=stop.exit_code)


# ------------------------------------------------------------------------------ options

PLAYERS = typer.Option(None, "--players", "-n", metavar="N", help="number of players (seats)")
HANDS = typer.Option(None, "--hands", help="independent hands to play (1e6, 2_000_000, 5M)")
GAMES = typer.Option(None, "--games", help="whole games to play instead of hands")
SEED = typer.Option("0", "--seed", metavar="S", help="random seed, 0 to 2^64 - 1; the same seed plays the same deals")
VARIANT = typer.Option(None, "--variant", help="named rule preset (see 'analyze rules GAME')")
RULE = typer.Option(None, "--rule", help="rule override KEY=VALUE (repeatable)")
STRATEGY = typer.Option(None, "--strategy", help="named policy preset for every seat")
POLICY = typer.Option(None, "--policy", help="policy field KEY=VALUE for every seat (repeatable)")
SEAT = typer.Option(
    None, "--seat", help="policy field for one seat, SEAT:KEY=VALUE, or its table, SEAT:table=FILE (repeatable)"
)
TABLE = typer.Option(
    None,
    "--table",
    metavar="FILE",
    help="a strategy table (CSV or JSON) every seat plays, one file per decision (repeatable)",
)
THREADS = typer.Option(None, "--threads", metavar="N", help="kernel threads (default: all cores)")
TARGET_SE = typer.Option(
    None,
    "--target-se",
    metavar="X",
    help="stop once every reported standard error is below this (--hands/--games is then the cap)",
)
AS_JSON = typer.Option(False, "--json", help="print one JSON object instead of the tables")
STORE = typer.Option(None, "--store", metavar="PATH", help="result store file (default: the user's data folder)")
NO_STORE = typer.Option(False, "--no-store", help="play every hand, keep nothing")
CLUSTER = typer.Option(None, "--cluster", metavar="ADDRESS", help="a Dask scheduler address, or local:N")
OUT = typer.Option(None, "--out", help="also write CSV, JSON and a PNG chart into this folder")

# The options several commands share, each declared once: its parameter's name, its type
# and its Typer option.  A command lists the ones it takes in ``with_options``.
SHARED_OPTIONS: dict[str, tuple[Any, Any]] = {
    "players": (Optional[str], PLAYERS),
    "hands": (Optional[str], HANDS),
    "games": (Optional[str], GAMES),
    "seed": (str, SEED),
    "variant": (Optional[str], VARIANT),
    "rule": (Optional[List[str]], RULE),
    "strategy": (Optional[str], STRATEGY),
    "policy": (Optional[List[str]], POLICY),
    "seat": (Optional[List[str]], SEAT),
    "table": (Optional[List[str]], TABLE),
    "threads": (Optional[str], THREADS),
    "target_se": (Optional[str], TARGET_SE),
    "store": (Optional[str], STORE),
    "no_store": (bool, NO_STORE),
    "cluster": (Optional[str], CLUSTER),
    "as_json": (bool, AS_JSON),
    "out": (Optional[str], OUT),
}
TABLE_OPTIONS = ("players", "variant", "rule", "strategy", "policy", "seat", "table")


class Given:
    """The shared options' text as the command line gave it, parsed into the API's
    arguments on request (one sentence for a malformed value, :meth:`args`); ``as_json``
    and ``out`` as given."""

    def __init__(self, values: dict[str, Any]):
        self.values = values

    @property
    def as_json(self) -> bool:
        return bool(self.values.get("as_json", False))

    @property
    def out(self) -> str | None:
        return self.values.get("out")

    def args(self) -> tuple[TableArgs, RunArgs]:
        """The table and the run, parsed in the command line's order (the first malformed
        value is the one named): ``--store``/``--no-store``, the counts (``--hands`` and
        ``--games`` both given: the API's sentence says so), ``--target-se``, ``--players``,
        ``--seed``, ``--threads``, ``--rule``, ``--policy``, ``--seat``; ``--variant`` (a
        list where the command repeats it), ``--strategy``, ``--table`` (the paths given:
        the API reads and checks the files) and ``--cluster`` as given."""
        from analyzer.cli.parse import (
            parse_assignments,
            parse_count,
            parse_positive,
            parse_seat_assignments,
            parse_whole,
        )
        from analyzer.run.params import MAX_SEED

        given = self.values
        store = store_option(given.get("store"), given.get("no_store", False))
        hands, games = given.get("hands"), given.get("games")
        hand_count: int | None = 1
        game_count: int | None = 1
        if hands is None or games is None:
            hand_count = None if hands is None else parse_count(hands, "--hands")
            game_count = None if games is None else parse_count(games, "--games")
        target_se = parse_positive(given.get("target_se"), "--target-se")
        players = parse_whole(given.get("players"), "--players")
        seed = parse_whole(given.get("seed", "0"), "--seed", 0, MAX_SEED) or 0
        threads = parse_whole(given.get("threads"), "--threads")
        table = TableArgs(
            players=players,
            variant=given.get("variant"),
            rules=parse_assignments(given.get("rule"), "--rule"),
            strategy=given.get("strategy"),
            policy=parse_assignments(given.get("policy"), "--policy"),
            seats=parse_seat_assignments(given.get("seat")) if "seat" in given else None,
            tables=list(given.get("table") or []),
        )
        run = RunArgs(hand_count, game_count, seed, threads, target_se, store, given.get("cluster"))
        return table, run


def with_options(
    *names: str, but: tuple[str, ...] = (), helps: dict[str, str] | None = None, kinds: dict[str, Any] | None = None
):
    """Give a command the shared options ``names`` (every one of ``SHARED_OPTIONS`` when
    none is named) but those in ``but``, after its own parameters and in
    ``SHARED_OPTIONS``' order (every command's help lists them alike); ``helps`` rewords an
    option's help for this command, ``kinds`` replaces its type (``--variant`` repeatable
    in ``compare``).  The command receives their text as one :class:`Given`, its
    parameter ``given``."""
    import copy
    import inspect
    import typing

    chosen = [name for name in (names or SHARED_OPTIONS) if name not in but]

    def decorate(command):
        hints = typing.get_type_hints(command)
        own = [
            parameter.replace(annotation=hints.get(parameter.name, parameter.annotation))
            for parameter in inspect.signature(command).parameters.values()
            if parameter.name != "given"
        ]
        shared = []
        for name in sorted(chosen, key=list(SHARED_OPTIONS).index):
            kind, option = SHARED_OPTIONS[name]
            if helps and name in helps:
                option = copy.copy(option)
                option.help = helps[name]
            kind = (kinds or {}).get(name, kind)
            shared.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind))

        def run(**values):
            given = Given({name: values.pop(name) for name in chosen})
            return command(**values, given=given)

        run.__name__, run.__qualname__, run.__doc__ = command.__name__, command.__qualname__, command.__doc__
        run.__module__ = command.__module__
        run.__signature__ = inspect.Signature(own + shared)  # read by Typer
        run.__annotations__ = {parameter.name: parameter.annotation for parameter in own + shared}
        return run

    return decorate


def store_option(store: str | None, no_store: bool):
    """``--store PATH`` / ``--no-store`` as the API's ``store``: a path, False for none, or
    None for the default store."""
    if store is not None and no_store:
        raise UserError("give either --store or --no-store, not both.")
    return False if no_store else store


def json_text(summary: dict, indent: int | None = None) -> str:
    """A ``--json`` object as text: an undefined or infinite number is ``null`` (JSON has
    no NaN), never a bare ``NaN``."""
    from analyzer.present.text import finite

    return json.dumps(finite(summary), indent=indent, allow_nan=False)


def show(result, as_json: bool) -> None:
    """Print a result's text, or its JSON object with --json (a partial one says so)."""
    typer.echo(json_text(result.summary()) if as_json else result.text())


@contextlib.contextmanager
def tallied(tally):
    """An interrupt from inside carries ``tally`` (what the command played), also once the
    run's context has closed (while the result is shown or written)."""
    try:
        yield tally
    except interrupts.Interrupted as stop:
        if stop.tally is None:
            stop.tally = tally
        raise


def play_and_show(plan, as_json: bool, out) -> None:
    """Play a plan of the API and print its result, then write --out; an interrupt prints
    the partial result first (when anything finished) and goes on up."""
    from analyzer.run.context import Tally

    with tallied(Tally()) as tally:
        try:
            result = plan.run(progress=False if as_json else None, tally=tally)
        except interrupts.Interrupted as stop:
            if stop.partial is not None and stop.partial.count > 0:
                show(plan.result_of(stop.partial), as_json)
            raise
        show(result, as_json)
        if out is not None:
            paths = result.write(out)
            if not as_json:
                typer.echo("wrote " + ", ".join(str(p) for p in paths))
