"""The ``analyze`` command line: parses, delegates, prints.  No game logic lives here.

Every game in ``sims.registry.GAMES`` gets a subcommand built from its spec.  Bad input
prints one sentence on stderr and exits with code 2.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import List, Optional

import typer

from analyzer import api, interrupts
from analyzer.api import UserError, numbers
from analyzer.execution import ClusterError
from analyzer.views import policy_json, rules_json
from sims.registry import ENTRIES, GAMES, get_game
from sims.spec import HANDS, MODE_NAMES, GameSpec

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
    from analyzer.runner import TALLY

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


# ------------------------------------------------------------------------------ game commands


def _make_game_command(name: str):
    """The subcommand of one game (its module is imported only when the command runs)."""

    def command(
        players: Optional[str] = PLAYERS,
        hands: Optional[str] = typer.Option(None, "--hands", help="independent hands to play (1e6, 2_000_000, 5M)"),
        games: Optional[str] = typer.Option(None, "--games", help="whole games to play instead of hands"),
        seed: str = SEED,
        variant: Optional[str] = VARIANT,
        rule: Optional[List[str]] = RULE,
        strategy: Optional[str] = STRATEGY,
        policy: Optional[List[str]] = POLICY,
        seat: Optional[List[str]] = SEAT,
        threads: Optional[str] = THREADS,
        target_se: Optional[str] = TARGET_SE,
        store: Optional[str] = STORE,
        no_store: bool = NO_STORE,
        cluster: Optional[str] = CLUSTER,
        as_json: bool = AS_JSON,
        out: Optional[str] = typer.Option(None, "--out", help="also write CSV, JSON and a PNG chart into this folder"),
    ):
        def body():
            kept = store_option(store, no_store)
            play_and_show(api.plan_simulation(name, players, hands, games, seed, variant, rule, strategy, policy,
                                              seat, threads, target_se, kept, cluster, out), as_json, out)

        def interrupted(stop) -> str:
            found = stop.partial
            unit = MODE_NAMES[found.mode] if found is not None else "hands"
            if found is None or found.count == 0:
                said = f"before any of the {unit} finished"
            else:
                said = (f"after {found.count:,} of {found.requested:,} {unit}; the table above is for those {unit}, "
                        f"marked partial")
            return said + ("; nothing was written to --out" if out is not None else "")

        guarded(body, interrupted)

    entry = ENTRIES[name]
    command.__doc__ = f"{entry.title}: {entry.summary}  Simulate hands (--hands) or whole games (--games)."
    return command


for _name in ENTRIES:
    app.command(_name, help=_make_game_command(_name).__doc__)(_make_game_command(_name))


# ------------------------------------------------------------------------------ other commands


@app.command("rules")
def rules_command(game: str = typer.Argument(..., help="game name, e.g. chase-ace")):
    """Every rule switch, policy field, variant and strategy of a game, with defaults."""

    def body():
        spec = get_game(game)
        lines = [f"{spec.title} ({spec.name}): {spec.summary}",
                 f"players: {spec.min_players} to {spec.max_players} (default {spec.default_players})"]
        for players in range(spec.min_players, spec.max_players + 1):
            lines += [f"  with {players}: {message}" for message in spec.warnings(spec.default_rules(), players)]
        lines += ["", "rules (--rule KEY=VALUE):"]
        for field in spec.rules:
            lines.append(f"  {field.key:<20} default {field.value_text(field.default):<16} {field.allowed_text()}")
            lines.append(f"  {'':<20} {field.help}")
        lines += ["", "policy fields (--policy KEY=VALUE for all seats, --seat I:KEY=VALUE for one):"]
        for field in spec.policy_fields:
            lines.append(f"  {field.key:<20} default {field.default:<16g} {field.allowed_text()}")
            lines.append(f"  {'':<20} {field.help}")
        lines += ["", "variants (--variant NAME):"]
        for name, variant in spec.variants.items():
            lines.append(f"  {name:<20} {variant.help}")
        lines += ["", "strategies (--strategy NAME):"]
        for name, preset in spec.policies.items():
            lines.append(f"  {name:<20} {preset.help}")
        for mode, outcomes in spec.outcomes.items():
            lines += ["", f"outcomes in {MODE_NAMES[mode]} mode:"]
            for name in outcomes.seat + outcomes.table:
                if name in outcomes.help:
                    lines.append(f"  {name:<20} {outcomes.help[name]}")
        typer.echo("\n".join(lines))

    guarded(body)


@app.command("replay")
def replay_command(
    game: str = typer.Argument(..., help="game name"),
    seed: str = SEED,
    hand: str = typer.Option("0", "--hand", metavar="I", help="index of the hand in the run, 0 to 2^64 - 1"),
    players: Optional[str] = PLAYERS,
    variant: Optional[str] = VARIANT,
    rule: Optional[List[str]] = RULE,
    strategy: Optional[str] = STRATEGY,
    policy: Optional[List[str]] = POLICY,
    seat: Optional[List[str]] = SEAT,
    as_json: bool = AS_JSON,
):
    """Show one hand step by step in card notation: hand I of a run with seed S."""

    def body():
        from analyzer.params import MAX_SEED, parse_whole
        from sims.engine import twin_module

        spec = get_game(game)
        seats, seed_number, _ = numbers(players, seed)
        index = parse_whole(hand, "--hand", 0, MAX_SEED)
        table = api.resolve(spec, seats, variant, rule, strategy, policy, seat)
        twin = twin_module(spec)
        if twin is None:
            raise UserError(f"{spec.title} has no replay yet.")
        rules = spec.rules_type(*table.rules)
        warnings = spec.warnings(rules, table.players)
        steps = twin.replay_lines(rules, table.policy, table.players, seed_number, index)
        if not as_json:
            typer.echo("\n".join([f"warning: {message}" for message in warnings] + steps))
            return
        outcomes = spec.outcomes[HANDS]
        sums = twin.simulate(rules, table.policy, table.players, HANDS, seed_number, index, 1)
        result = {str(seat_index): {name: int(sums[seat_index][k]) for k, name in enumerate(outcomes.seat)
                                    if not outcomes.companion(name)} for seat_index in range(table.players)}
        result["table"] = {name: int(sums[table.players][k]) for k, name in enumerate(outcomes.table)
                           if not outcomes.companion(name)}
        typer.echo(json.dumps({"game": spec.name, "players": table.players, "seed": seed_number, "hand": index,
                               "rules": rules_json(spec, table.rules), "policy": policy_json(spec, table.policy),
                               "warnings": warnings, "steps": steps, "outcome": result,
                               "scale": dict(outcomes.scale)}))

    guarded(body)


def _exact_json(value):
    """An exact value as JSON: a fraction's text and its float, per seat or label too."""
    if isinstance(value, dict):
        return {str(label): _exact_json(v) for label, v in value.items()}
    if hasattr(value, "__len__"):
        return [_exact_json(v) for v in value]
    return {"fraction": str(value), "value": float(value)}


@app.command("exact")
def exact_command(
    game: str = typer.Argument(..., help="game name"),
    players: Optional[str] = PLAYERS,
    variant: Optional[str] = VARIANT,
    rule: Optional[List[str]] = RULE,
    strategy: Optional[str] = STRATEGY,
    policy: Optional[List[str]] = POLICY,
    seat: Optional[List[str]] = SEAT,
    fractions: bool = typer.Option(True, "--fractions/--decimals", help="exact fractions with decimals, or decimals only"),
    as_json: bool = AS_JSON,
):
    """Exact hand-mode values by enumerating every deal, for small tables."""

    def body():
        from sims.engine import exact_module

        spec = get_game(game)
        enumerator = exact_module(spec)
        if enumerator is None:
            raise UserError(f"{spec.title} has no exact enumerator.")
        seats, _, _ = numbers(players, "0")
        table = api.resolve(spec, seats, variant, rule, strategy, policy, seat)
        if table.players > enumerator.MAX_PLAYERS:
            raise UserError(f"exact enumeration of {spec.title} handles at most {enumerator.MAX_PLAYERS} players.")
        values = enumerator.exact_hand(spec.rules_type(*table.rules), table.policy, table.players,
                                       exact=fractions or as_json)
        if as_json:
            typer.echo(json.dumps({"game": spec.name, "players": table.players,
                                   "rules": rules_json(spec, table.rules),
                                   "policy": policy_json(spec, table.policy),
                                   "values": {name: _exact_json(value) for name, value in values.items()}}))
            return
        typer.echo(f"{spec.title}: exact values of one hand, {table.players} players, "
                   f"the {spec.last_seat_role} in seat {table.players - 1}")

        def shown(value) -> str:
            return f"{value}  ({float(value):.6f})" if fractions else f"{float(value):.6f}"

        for name, value in values.items():
            if isinstance(value, dict):  # a value per label, e.g. per card face
                for label, v in value.items():
                    typer.echo(f"  {name:<12} {label:>7}: {shown(v)}")
            elif hasattr(value, "__len__"):  # a value per seat
                for seat_index, v in enumerate(value):
                    typer.echo(f"  {name:<12} seat {seat_index:>2}: {shown(v)}")
            else:
                typer.echo(f"  {name:<12} {shown(value)}")

    guarded(body, lambda stop: "before the enumeration finished; nothing is shown")


@app.command("bench")
def bench_command(
    hands: str = typer.Option("4M", "--hands", help="hands per kernel measurement"),
    twin_hands: str = typer.Option("20k", "--twin-hands", help="hands per plain-Python measurement"),
    game: Optional[str] = typer.Option(None, "--game", help="only this game"),
    repeats: str = typer.Option("3", "--repeats", metavar="N", help="timed runs per figure, 1 to 20; the best is shown"),
):
    """Hands per second of every kernel on 1 thread and on all threads, and of its
    plain-Python twin, on this machine (the best of --repeats runs each)."""
    measured = []

    def body():
        from analyzer.params import parse_count, parse_whole
        from sims.engine import Stopped, available_threads, play_jobs, simulate, twin_module

        count = parse_count(hands, "--hands")
        twin_count = parse_count(twin_hands, "--twin-hands")
        runs = parse_whole(repeats, "--repeats", 1, 20)
        specs = [get_game(game)] if game is not None else list(GAMES.values())
        most = available_threads()
        width = max(len("game"), *(len(spec.name) for spec in specs)) + 2
        typer.echo(f"{'game':<{width}}{'players':>8}{'1 thread':>14}{f'{most} threads':>14}{'speed-up':>10}"
                   f"{'python twin':>14}{'kernel/twin':>13}")
        for spec in specs:
            for players in spec.bench_players:
                rules = spec.default_rules()
                policy = spec.default_policy(players)
                rates = []
                simulate(spec, rules, policy, players, HANDS, 0, 0, 1000)  # compile or load
                for threads in (1, most):
                    best = float("inf")
                    for repeat in range(runs):
                        start = time.perf_counter()
                        try:  # in pieces of a fifth of a second, so that Ctrl-C stops it at once
                            with interrupts.deferred():
                                play_jobs(spec, [(rules, policy, 0, count)], players, HANDS, repeat, threads,
                                          stop=interrupts.requested)
                        except Stopped:
                            interrupts.check()
                        best = min(best, time.perf_counter() - start)
                    rates.append(count / best)
                twin = twin_module(spec)
                interrupts.check()  # a Ctrl-C during the last kernel measurement
                start = time.perf_counter()
                twin.simulate(rules, policy, players, HANDS, 1, 0, twin_count)
                twin_rate = twin_count / (time.perf_counter() - start)
                typer.echo(f"{spec.name:<{width}}{players:>8}{rates[0] / 1e6:>12.2f}M/s{rates[1] / 1e6:>10.2f}M/s"
                           f"{rates[1] / rates[0]:>9.2f}x{twin_rate / 1e3:>11.1f}k/s{rates[0] / twin_rate:>12.0f}x")
                measured.append(spec.name)

    guarded(body, lambda stop: (f"after {len(measured)} table{'s' if len(measured) != 1 else ''} measured (the rows "
                                f"above)" if measured else "before the first table was measured"))


from analyzer import store_cli, strategy_cli  # noqa: E402,F401  (register store, sweep, optimize, compare, report)


def _usage_error_types() -> tuple[type, ...]:
    """The command-line library's usage-error classes (Typer vendors Click from 0.2x on)."""
    found = []
    try:
        from typer.exceptions import TyperException

        found.append(TyperException)
    except ImportError:  # pragma: no cover - an older Typer on an external Click
        pass
    try:
        from click.exceptions import ClickException

        found.append(ClickException)
    except ImportError:
        pass
    return tuple(found)


def usage_sentence(error) -> str:
    """The command-line library's complaint as one sentence (no usage block); an unknown
    game or command gets the list of both and the nearest names."""
    import difflib

    message = " ".join(str(error.format_message()).split())
    if message.startswith("No such command"):
        name = message.split("'")[1] if "'" in message else ""
        commands = [command.name for command in app.registered_commands if command.name not in GAMES]
        near = difflib.get_close_matches(name.lower().replace("_", "-"), list(GAMES) + commands, n=2, cutoff=0.6)
        hint = f" (did you mean {' or '.join(near)}?)" if near else ""
        return (f"unknown game or command '{name}'{hint}; the games are: {', '.join(GAMES)}; the commands are: "
                f"{', '.join(commands)}.")
    message = message[:1].lower() + message[1:]
    return message if message.endswith((".", "?")) else message + "."


class _WarningLine(logging.Handler):
    """The core's warnings (a damaged kernel cache repaired) as one ``warning:`` line."""

    def emit(self, record: logging.LogRecord) -> None:
        typer.echo(f"warning: {record.getMessage()}", err=True)


def run_app(args: list[str]) -> int:
    """Run ``analyze`` with ``args``; the exit code.  Usage errors of the command-line
    library become one sentence and exit code 2 like every other bad input."""
    log = logging.getLogger("card_analyzer")
    if not any(isinstance(handler, _WarningLine) for handler in log.handlers):
        log.addHandler(_WarningLine())
        log.propagate = False
    try:
        code = app(args=list(args) or ["--help"], prog_name="analyze", standalone_mode=False)
    except _usage_error_types() as error:
        if getattr(error, "exit_code", 1) != 2:
            raise
        typer.echo(f"error: {usage_sentence(error)}", err=True)
        return 2
    except typer.Abort:  # the library's answer to end of input
        typer.echo("error: the command was aborted (end of input).", err=True)
        return 1
    except interrupts.Interrupted as stop:  # between commands' own handling (parsing, start-up)
        interrupts.ignore()
        typer.echo(f"interrupted ({stop.signal_name}) before any hand was played", err=True)
        return stop.exit_code
    return code if isinstance(code, int) else 0
