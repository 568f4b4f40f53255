"""The ``analyze`` command line: parses, delegates, prints.  No game logic lives here.

Every game in ``sims.registry.GAMES`` gets a subcommand built from its spec.  Bad input
prints one sentence on stderr and exits with code 2.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import List, Optional

import numpy as np
import typer

from analyzer.text import estimate_text, number_text, target_note
from sims.registry import GAMES, get_game
from sims.spec import GAMES as GAME_MODE
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


class UserError(Exception):
    """Bad input: shown as one sentence, exit code 2."""


def fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code=2)


def guarded(body):
    """Run a command body, turning ``ValueError``/``KeyError`` into one sentence + exit 2."""
    try:
        return body()
    except (ValueError, KeyError, UserError) as problem:
        message = problem.args[0] if problem.args else str(problem)
        fail(str(message))


# ------------------------------------------------------------------------------ options

PLAYERS = typer.Option(None, "--players", "-n", help="number of players (seats)")
SEED = typer.Option(0, "--seed", help="random seed; the same seed plays the same deals", min=0, max=2**64 - 1)
VARIANT = typer.Option(None, "--variant", help="named rule preset (see 'analyze rules GAME')")
RULE = typer.Option(None, "--rule", help="rule override KEY=VALUE (repeatable)")
STRATEGY = typer.Option(None, "--strategy", help="named policy preset for every seat")
POLICY = typer.Option(None, "--policy", help="policy field KEY=VALUE for every seat (repeatable)")
SEAT = typer.Option(None, "--seat", help="policy field for one seat, SEAT:KEY=VALUE (repeatable)")
THREADS = typer.Option(None, "--threads", help="kernel threads (default: all cores)")
TARGET_SE = typer.Option(None, "--target-se", help="stop once every reported standard error is below this "
                                                   "(--hands/--games is then the cap)")
AS_JSON = typer.Option(False, "--json", help="print one JSON object instead of the tables")


def check_target_se(target_se: float | None) -> None:
    if target_se is not None and not target_se > 0:
        raise UserError(f"--target-se must be positive, not {target_se}.")


def _table(spec: GameSpec, players, variant, rule, strategy, policy, seat):
    from analyzer.params import resolve_table

    return resolve_table(spec, players, variant, list(rule or []), strategy, list(policy or []), list(seat or []))


# ------------------------------------------------------------------------------ formatting


def _policy_text(spec: GameSpec, policy) -> list[str]:
    def row_text(row) -> str:
        return " ".join(f"{field.key}={field.value_text(value)}" for field, value in zip(spec.policy_fields, row))

    first = row_text(policy[0])
    if all(row_text(row) == first for row in policy):
        return [f"{first} (every seat)"]
    return [f"seat {seat}: {row_text(row)}" for seat, row in enumerate(policy)]


def policy_lines(spec: GameSpec, policy, strategy: str) -> list[str]:
    """The ``policy  NAME: ...`` lines of a run's heading (one per seat when seats differ)."""
    return [("policy  " + strategy + ": " if i == 0 else "        ") + text
            for i, text in enumerate(_policy_text(spec, policy))]


def summary_object(spec: GameSpec, result) -> dict:
    """The --json object of a run."""
    from analyzer.stats import estimates, observed_maxima

    outcomes = spec.outcomes[result.mode]
    unit = MODE_NAMES[result.mode]
    fields = spec.rules
    return {
        "game": spec.name,
        "kernel_version": spec.kernel_version,
        "mode": unit,
        "players": result.table.players,
        "seed": result.seed,
        unit: result.count,
        "variant": result.table.variant or "standard",
        "strategy": result.table.strategy,
        "rules": {field.key: field.value_text(code) for field, code in zip(fields, result.table.rules)},
        "rule_codes": [int(code) for code in result.table.rules],
        "policy": [{field.key: float(value) for field, value in zip(spec.policy_fields, row)}
                   for row in result.table.policy],
        "elapsed_s": round(result.elapsed_s, 4),
        "kernel_load_s": round(result.load_s, 4),
        "threads": result.threads,
        "results": [e.as_record() for e in estimates(result.sums, outcomes, result.count)],
        "largest_seen": observed_maxima(result.sums, outcomes),
        "warnings": spec.warnings(spec.rules_type(*result.table.rules), result.table.players),
    }


LINE_WIDTH = 120


def _column_blocks(widths: list[int]) -> list[list[int]]:
    """Split table columns into consecutive blocks that fit in LINE_WIDTH characters."""
    blocks: list[list[int]] = [[]]
    used = 6
    for i, width in enumerate(widths):
        if blocks[-1] and used + width + 2 > LINE_WIDTH:
            blocks.append([])
            used = 6
        blocks[-1].append(i)
        used += width + 2
    return blocks


def render_text(spec: GameSpec, summary: dict) -> str:
    """The human-readable table of a run."""
    unit = summary["mode"]
    n = summary[unit]
    players = summary["players"]
    outcomes = spec.outcomes[HANDS if unit == "hands" else GAME_MODE]
    lines = []
    role = spec.last_seat_role
    if unit == "hands":
        setting = f"one hand each, the {role} in seat {players - 1}"
    else:
        setting = f"whole games, seat {players - 1} is the first {role}"
    lines.append(f"{spec.title}: {players} players, {n:,} {unit} ({setting}), seed {summary['seed']}")
    lines += [f"warning: {message}" for message in summary.get("warnings", [])]
    rules_text = " ".join(f"{key}={value}" for key, value in summary["rules"].items())
    lines.append(f"rules   {summary['variant']}: {rules_text}")
    policy = np.array([[row[f.key] for f in spec.policy_fields] for row in summary["policy"]])
    lines += policy_lines(spec, policy, summary["strategy"])
    lines.append("")
    by_seat: dict = {}
    for record in summary["results"]:
        by_seat.setdefault(record["seat"], {})[record["outcome"]] = record
    shown = outcomes.estimated(outcomes.seat)
    cells = {seat: [estimate_text(by_seat[seat][name]) for name in shown] for seat in range(players)}
    widths = [max(len(name) + 9, *(len(cells[s][i]) for s in range(players))) for i, name in enumerate(shown)]
    for block in _column_blocks(widths):
        lines.append("seat  " + "  ".join(f"{shown[i] + ' (95% CI)':<{widths[i]}}" for i in block).rstrip())
        for seat in range(players):
            mark = "*" if unit == "hands" and seat == players - 1 else " "
            lines.append(f"{seat:>3}{mark}  " + "  ".join(f"{cells[seat][i]:<{widths[i]}}" for i in block).rstrip())
        lines.append("")
    if unit == "hands":
        lines[-1] = f"  (* {role})"
        lines.append("")
    grouped = {f"{prefix}_{label}" for prefix, (_, labels) in outcomes.groups.items() for label in labels}
    for name in outcomes.table:
        if name.endswith(("_sq", "_count")) or name in grouped:
            continue
        label = outcomes.help.get(name, name)
        if name in outcomes.maxima:
            lines.append(f"{label}: {summary['largest_seen'][name]:,} (the largest in {n:,} {unit})")
            continue
        record = by_seat["table"][name]
        lines.append(f"{label}: {estimate_text(record)}  (se {record['se']:.2g})")
        if name in outcomes.odds:
            odds = by_seat["table"][name + "_fair_odds"]
            lines.append(f"{outcomes.odds[name]}: {number_text(odds['mean'], odds['se'])} to 1 against "
                         f"[{number_text(odds['ci_low'], odds['se'])}, {number_text(odds['ci_high'], odds['se'])}]")
    for prefix, (title, labels) in outcomes.groups.items():
        lines += ["", f"{title} (mean and 95% CI):"]
        label_width = max(3, *(len(label) for label in labels))
        for label in labels:
            record = by_seat["table"][f"{prefix}_{label}"]
            lines.append(f"  {label:>{label_width}}  {estimate_text(record)}")
    rate = n / summary["elapsed_s"] if summary["elapsed_s"] > 0 else float("inf")
    lines.append("")
    lines.append(f"{n:,} {unit} in {summary['elapsed_s']:.2f} s ({rate / 1e6:.2f}M {unit}/s on "
                 f"{summary['threads']} thread{'s' if summary['threads'] != 1 else ''}); "
                 f"intervals are 95% (Wilson for probabilities)")
    if summary["kernel_load_s"] > 2:
        lines.append(f"(the kernel was compiled in {summary['kernel_load_s']:.1f} s and cached for later runs)")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ game commands


def _make_game_command(spec: GameSpec):
    def command(
        players: Optional[int] = PLAYERS,
        hands: Optional[str] = typer.Option(None, "--hands", help="independent hands to play (1e6, 2_000_000, 5M)"),
        games: Optional[str] = typer.Option(None, "--games", help="whole games to play instead of hands"),
        seed: int = SEED,
        variant: Optional[str] = VARIANT,
        rule: Optional[List[str]] = RULE,
        strategy: Optional[str] = STRATEGY,
        policy: Optional[List[str]] = POLICY,
        seat: Optional[List[str]] = SEAT,
        threads: Optional[int] = THREADS,
        target_se: Optional[float] = TARGET_SE,
        as_json: bool = AS_JSON,
        out: Optional[Path] = typer.Option(None, "--out", help="also write CSV, JSON and a PNG chart into this folder"),
    ):
        def body():
            from analyzer.params import parse_count
            from analyzer.runner import run

            if hands is not None and games is not None:
                raise UserError("give either --hands or --games, not both.")
            mode = GAME_MODE if games is not None else HANDS
            if mode not in spec.outcomes:
                raise UserError(f"{spec.title} has no {MODE_NAMES[mode]} mode.")
            count = parse_count(games if games is not None else (hands or "1e6"), "--games" if games else "--hands")
            check_target_se(target_se)
            table = _table(spec, players, variant, rule, strategy, policy, seat)
            result = run(spec, table, mode, seed, count, threads, target_se, progress=False if as_json else None)
            summary = summary_object(spec, result)
            if target_se is not None:
                from analyzer.stats import estimates, largest_se

                largest = largest_se(estimates(result.sums, spec.outcomes[mode], result.count))
                summary["target_se_reached"] = largest < target_se
            if as_json:
                typer.echo(json.dumps(summary))
            else:
                typer.echo(render_text(spec, summary))
                if target_se is not None and not summary["target_se_reached"]:
                    typer.echo(target_note(target_se, largest))
            if out is not None:
                from analyzer.report import write_run_outputs

                stem = f"{spec.name}-{table.players}p-{MODE_NAMES[mode]}-seed{seed}"
                headline = spec.headline[mode]
                title = f"{spec.title}, {table.players} players: {headline.replace('_', ' ')} by seat ({MODE_NAMES[mode]} mode)"
                paths = write_run_outputs(out, stem, summary, headline, title)
                if not as_json:
                    typer.echo("wrote " + ", ".join(str(p) for p in paths))

        guarded(body)

    command.__doc__ = f"{spec.title}: {spec.summary}  Simulate hands (--hands) or whole games (--games)."
    return command


for _spec in GAMES.values():
    app.command(_spec.name, help=_make_game_command(_spec).__doc__)(_make_game_command(_spec))


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
    seed: int = SEED,
    hand: int = typer.Option(0, "--hand", help="index of the hand in the run", min=0),
    players: Optional[int] = PLAYERS,
    variant: Optional[str] = VARIANT,
    rule: Optional[List[str]] = RULE,
    strategy: Optional[str] = STRATEGY,
    policy: Optional[List[str]] = POLICY,
    seat: Optional[List[str]] = SEAT,
):
    """Show one hand step by step in card notation: hand I of a run with seed S."""

    def body():
        from sims.engine import twin_module

        spec = get_game(game)
        table = _table(spec, players, variant, rule, strategy, policy, seat)
        twin = twin_module(spec)
        if twin is None:
            raise UserError(f"{spec.title} has no replay yet.")
        rules = spec.rules_type(*table.rules)
        warnings = [f"warning: {message}" for message in spec.warnings(rules, table.players)]
        typer.echo("\n".join(warnings + twin.replay_lines(rules, table.policy, table.players, seed, hand)))

    guarded(body)


@app.command("exact")
def exact_command(
    game: str = typer.Argument(..., help="game name"),
    players: Optional[int] = PLAYERS,
    variant: Optional[str] = VARIANT,
    rule: Optional[List[str]] = RULE,
    strategy: Optional[str] = STRATEGY,
    policy: Optional[List[str]] = POLICY,
    seat: Optional[List[str]] = SEAT,
    fractions: bool = typer.Option(True, "--fractions/--decimals", help="exact fractions with decimals, or decimals only"),
):
    """Exact hand-mode values by enumerating every deal, for small tables."""

    def body():
        from sims.engine import exact_module

        spec = get_game(game)
        enumerator = exact_module(spec)
        if enumerator is None:
            raise UserError(f"{spec.title} has no exact enumerator.")
        table = _table(spec, players, variant, rule, strategy, policy, seat)
        if table.players > enumerator.MAX_PLAYERS:
            raise UserError(f"exact enumeration of {spec.title} handles at most {enumerator.MAX_PLAYERS} players.")
        values = enumerator.exact_hand(spec.rules_type(*table.rules), table.policy, table.players, exact=fractions)
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

    guarded(body)


@app.command("bench")
def bench_command(
    hands: str = typer.Option("4M", "--hands", help="hands per kernel measurement"),
    twin_hands: str = typer.Option("20k", "--twin-hands", help="hands per plain-Python measurement"),
    game: Optional[str] = typer.Option(None, "--game", help="only this game"),
    repeats: int = typer.Option(3, "--repeats", help="timed runs per figure; the best is shown", min=1, max=20),
):
    """Hands per second of every kernel on 1 thread and on all threads, and of its
    plain-Python twin, on this machine (the best of --repeats runs each)."""

    def body():
        from analyzer.params import parse_count
        from sims.engine import available_threads, simulate, twin_module

        count = parse_count(hands, "--hands")
        twin_count = parse_count(twin_hands, "--twin-hands")
        specs = [get_game(game)] if game else list(GAMES.values())
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
                    for repeat in range(repeats):
                        start = time.perf_counter()
                        simulate(spec, rules, policy, players, HANDS, repeat, 0, count, threads)
                        best = min(best, time.perf_counter() - start)
                    rates.append(count / best)
                twin = twin_module(spec)
                start = time.perf_counter()
                twin.simulate(rules, policy, players, HANDS, 1, 0, twin_count)
                twin_rate = twin_count / (time.perf_counter() - start)
                typer.echo(f"{spec.name:<{width}}{players:>8}{rates[0] / 1e6:>12.2f}M/s{rates[1] / 1e6:>10.2f}M/s"
                           f"{rates[1] / rates[0]:>9.2f}x{twin_rate / 1e3:>11.1f}k/s{rates[0] / twin_rate:>12.0f}x")

    guarded(body)


from analyzer import strategy_cli  # noqa: E402,F401  (registers sweep, optimize, compare and report)


def main() -> None:
    """Console entry point."""
    app()


if __name__ == "__main__":
    sys.exit(main())
