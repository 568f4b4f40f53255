"""The strategy commands of ``analyze``: sweep, optimize, compare and report.

They parse and print; the work is done by ``analyzer.optimize`` (sweeps, best responses,
equilibria), ``analyzer.compare`` (paired differences) and ``analyzer.report`` (reports).
Imported by ``analyzer.cli``, which owns the Typer app.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import List, Optional

import typer

from analyzer import interrupts
from analyzer.cli import (AS_JSON, PLAYERS, POLICY, RULE, SEAT, SEED, STRATEGY, TARGET_SE, THREADS, VARIANT,
                          UserError, _column_blocks, _table, app, check_target_se, games_only_note, guarded, numbers,
                          policy_lines, rules_json)
from analyzer.text import best_text, estimate_text, finite, mix_text, number_text, target_note, with_se
from sims.registry import GAMES, get_game
from sims.spec import GAMES as GAME_MODE
from sims.spec import HANDS, MODE_NAMES, GameSpec

MIN_COUNT = 100  # hands (or games) per value: errors of differences come from batches of them


def _mode_and_count(spec: GameSpec, hands: str | None, games: str | None, default_mode: int,
                    default_counts: dict[int, str]) -> tuple[int, int]:
    from analyzer.params import parse_count

    if hands is not None and games is not None:
        raise UserError("give either --hands or --games, not both.")
    mode = GAME_MODE if games is not None else HANDS if hands is not None else default_mode
    if mode not in spec.outcomes:
        raise UserError(f"{spec.title} has no {MODE_NAMES[mode]} mode.")
    text = games if games is not None else hands if hands is not None else default_counts[mode]
    count = parse_count(text, f"--{MODE_NAMES[mode]}")
    if count < MIN_COUNT:
        raise UserError(f"--{MODE_NAMES[mode]} must be at least {MIN_COUNT} here, not {count}: standard errors of "
                        f"differences come from batches of {MODE_NAMES[mode]}.")
    return mode, count


def _table_lines(spec: GameSpec, table) -> list[str]:
    """A heading's warnings, rules and policy lines for a resolved table."""
    text = " ".join(f"{field.key}={field.value_text(code)}" for field, code in zip(spec.rules, table.rules))
    return ([f"warning: {message}" for message in spec.warnings(spec.rules_type(*table.rules), table.players)]
            + [f"rules   {table.variant or 'standard'}: {text}"] + policy_lines(spec, table.policy, table.strategy))


def _better(spec: GameSpec, mode: int) -> str:
    headline = spec.headline[mode]
    return f"{headline} ({'lower' if spec.lower_is_better(mode, headline) else 'higher'} is better)"


def _grid(row_labels: list[str], first_header: str, columns: list[tuple[str, list[str]]]) -> list[str]:
    """A text table wrapped into blocks of columns that fit the line width."""
    label_width = max(len(first_header), *(len(label) for label in row_labels))
    widths = [max(len(header), *(len(cell) for cell in cells)) for header, cells in columns]
    lines = []
    for block in _column_blocks(widths):
        lines.append(f"{first_header:>{label_width}}  " + "  ".join(f"{columns[i][0]:<{widths[i]}}" for i in block).rstrip())
        for r, label in enumerate(row_labels):
            lines.append(f"{label:>{label_width}}  " + "  ".join(f"{columns[i][1][r]:<{widths[i]}}" for i in block).rstrip())
        lines.append("")
    return lines


# ------------------------------------------------------------------------------ sweep


def sweep_reference(values: tuple[float, ...], current: float) -> int:
    """The swept value differences are shown against: the seat's current value, or the
    swept value nearest to it."""
    return min(range(len(values)), key=lambda i: abs(values[i] - current))


def render_sweep(spec: GameSpec, table, result, reference: int, asked: int | None = None) -> str:
    from analyzer.compare import paired_differences

    mode = result.mode
    unit = MODE_NAMES[mode]
    outcomes = spec.outcomes[mode]
    field = result.values.field.key
    who = f"seat {result.seat}" if result.seat is not None else "every seat together"
    lines = [f"{spec.title}: {table.players} players, sweep of {field} for {who}, {result.run.count:,} {unit} per "
             f"value, every value on the same {unit} (seed {result.run.seed})"]
    if asked is not None and result.run.interrupted:
        lines.append(f"PARTIAL: interrupted after {result.run.count:,} of {asked:,} {unit} per value; the table is for "
                     f"the {unit} every value finished")
    lines += _table_lines(spec, table)
    lines.append("")
    by_point = [{(e.seat, e.outcome): e.as_record() for e in result.estimates(p)} for p in range(len(result.values.values))]
    headline = spec.headline[mode]
    seats = [result.seat] if result.seat is not None else list(range(table.players))
    columns = []
    for seat in seats:
        for name in outcomes.estimated(outcomes.seat):
            header = f"{name} (95% CI)" if result.seat is not None else f"{name} seat {seat}"
            columns.append((header, [estimate_text(point[(seat, name)]) for point in by_point]))
    values = result.values.values
    against = [{(d.seat, d.outcome): d for d in paired_differences(result.run, reference, point)}
               for point in range(len(values))]
    for seat in seats:
        differences = []
        for point in range(len(values)):
            found = against[point][(seat, headline)]
            differences.append("0 (reference)" if point == reference else with_se(found.difference, found.se, signed=True))
        label = f"{headline} vs {result.values.value_text(values[reference])} (± se)"
        columns.append((label if result.seat is not None else f"{label} seat {seat}", differences))
    if result.seat is not None:
        for seat in range(table.players):
            if seat != result.seat:
                columns.append((f"{headline} seat {seat}", [estimate_text(point[(seat, headline)]) for point in by_point]))
    for name in outcomes.estimated(outcomes.table):
        columns.append((name, [estimate_text(point[("table", name)]) for point in by_point]))
    lines += _grid([result.values.value_text(v) for v in values], field, columns)
    lines.append(f"95% intervals; differences are paired (the same {unit}) with their standard errors; "
                 f"{result.run.count * len(values):,} {unit} in {result.run.elapsed_s:.1f} s")
    return "\n".join(lines)


@app.command("sweep")
def sweep_command(
    game: str = typer.Argument(..., help="game name, e.g. chase-ace"),
    param: str = typer.Option(..., "--param", help="the policy field and its values: FIELD=LO:HI[:STEP] (or FIELD)"),
    seat: Optional[str] = typer.Option(None, "--seat", help="the seat that varies (default: every seat together)"),
    players: Optional[str] = PLAYERS,
    hands: Optional[str] = typer.Option(None, "--hands", help="hands per value (default 1e6)"),
    games: Optional[str] = typer.Option(None, "--games", help="whole games per value instead of hands"),
    seed: str = SEED,
    variant: Optional[str] = VARIANT,
    rule: Optional[List[str]] = RULE,
    strategy: Optional[str] = STRATEGY,
    policy: Optional[List[str]] = POLICY,
    threads: Optional[str] = THREADS,
    target_se: Optional[str] = TARGET_SE,
    as_json: bool = AS_JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="also write a CSV and a PNG chart into this folder"),
):
    """Every outcome against one policy field, every value on the same deals."""

    def body():
        from analyzer.compare import paired_differences
        from analyzer.optimize import Sweep, field_range, sweep
        from analyzer.params import parse_seat
        from analyzer.runner import check_threads

        spec = get_game(game)
        mode, count = _mode_and_count(spec, hands, games, HANDS, {HANDS: "1e6", GAME_MODE: "1e5"})
        target = check_target_se(target_se)
        seats, seed_number, thread_count = numbers(players, seed, threads)
        table = _table(spec, seats, variant, rule, strategy, policy, [])
        swept_seat = parse_seat(seat, table.players)
        values = field_range(spec, param)
        check_threads(thread_count)
        if out is not None:
            from analyzer.report import check_out_dir

            check_out_dir(out)
        current = float(table.policy[swept_seat if swept_seat is not None else 0, values.column])
        reference = sweep_reference(values.values, current)
        headline = spec.headline[mode]

        def largest(run) -> float:
            """Every standard error the sweep shows: each value's estimates and the paired
            differences of the headline against the reference value."""
            shown = [e.se for i in range(len(run.configs)) for e in run.estimates(i)
                     if not e.outcome.endswith("_fair_odds")]
            shown += [d.se for i in range(len(run.configs)) if i != reference
                      for d in paired_differences(run, reference, i) if d.outcome == headline and d.seat != "table"]
            return max((se for se in shown if not math.isnan(se)), default=math.inf)

        def show(result, target: float | None) -> list[dict]:
            """Print the sweep (a partial one says so); its records."""
            records = result.records()
            missed = target_note(target, largest(result.run)) if target else ""
            if as_json:
                typer.echo(json.dumps(finite({"game": spec.name, "mode": MODE_NAMES[mode], "players": table.players,
                                              "seed": seed_number, MODE_NAMES[mode]: result.run.count,
                                              "partial": result.run.interrupted, "requested": count,
                                              "rules": rules_json(spec, table.rules), "field": values.field.key,
                                              "seat": swept_seat, "values": list(values.values),
                                              "reference": reference,
                                              "target_se_reached": not missed if target else None,
                                              "results": records})))
            else:
                typer.echo(render_sweep(spec, table, result, reference, count) + ("\n" + missed if missed else ""))
            return records

        asked.update(unit=MODE_NAMES[mode], count=count)
        try:
            result = sweep(spec, table.players, table.rules, table.policy, mode, seed_number, values, swept_seat, count,
                           thread_count, target, largest, progress=False if as_json else None)
        except interrupts.Interrupted as stop:
            if stop.partial is not None:
                show(Sweep(spec, values, swept_seat, table.policy, stop.partial), None)
            raise
        records = show(result, target)
        if out is not None:
            from analyzer.report import write_sweep_outputs

            who = f"seat{swept_seat}" if swept_seat is not None else "all"
            paths = write_sweep_outputs(out, f"{spec.name}-{table.players}p-sweep-{values.field.key}-{who}", records,
                                        spec, mode, swept_seat, table.players)
            if not as_json:
                typer.echo("wrote " + ", ".join(str(p) for p in paths))

    asked: dict = {"unit": "hands", "count": 0}  # what the run was asked to play, for the interrupt line
    guarded(body, lambda stop: _paired_interrupt_text(stop, asked["unit"], asked["count"], "per value", out))


def _paired_interrupt_text(stop, unit: str, asked: int, per: str, out) -> str:
    """The interrupt line of a command built on one paired run (sweep, compare)."""
    run = stop.partial
    if run is None:
        said = f"before two batches of {unit} finished; nothing is shown"
    else:
        said = (f"after {run.count:,} of {asked:,} {unit} {per}; the table above is for those {unit}, marked "
                f"partial")
    return said + ("; nothing was written to --out" if out is not None else "")


# ------------------------------------------------------------------------------ optimize


def _values_text(values, state) -> str:
    return " ".join(values.value_text(v) for v in state)


def best_response_records(spec: GameSpec, mode: int, values, responses) -> list[dict]:
    """JSON records of best responses (gains are positive when better for the seat)."""
    return [{"seat": r.seat, "best": r.values[r.best], "tied": [r.values[i] for i in r.tied], "tie": r.is_tie,
             "no_effect": r.no_effect, "value": r.means[r.best], "se": r.ses[r.best], "current": r.values[r.current],
             "current_value": r.means[r.current], "gain": r.gain, "gain_se": r.gain_se,
             "confirmed_gain": r.confirmed_gain, "confirmed_gain_se": r.confirmed_gain_se,
             "confirmed_on": r.confirmed_count,
             "runner_up": None if r.runner_up is None else r.values[r.runner_up], "margin": r.runner_up_gap,
             "margin_se": r.runner_up_se} for r in responses]


def render_best_responses(spec: GameSpec, mode: int, values, responses) -> list[str]:
    headline = spec.headline[mode]
    key = values.field.key
    rows = []
    for r in responses:
        runner = ("-" if r.runner_up is None else
                  f"{values.value_text(r.values[r.runner_up])} by {with_se(r.runner_up_gap, r.runner_up_se)}")
        rows.append([str(r.seat), best_text(values, r), estimate_text(r.points[r.best]),
                     values.value_text(r.values[r.current]), estimate_text(r.points[r.current]),
                     "0" if r.current == r.best else with_se(r.confirmed_gain, r.confirmed_gain_se, signed=True), runner])
    headers = ["seat", f"best {key}", f"{headline} at best (95% CI)", "current", f"{headline} at current (95% CI)",
               "gain on fresh hands (± se)", "runner-up, behind by (± se)"]
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(headers)]
    lines = ["  ".join(f"{h:<{w}}" for h, w in zip(headers, widths)).rstrip()]
    lines += ["  ".join(f"{cell:<{w}}" for cell, w in zip(row, widths)).rstrip() for row in rows]
    return lines


def render_matrix_game(spec: GameSpec, mode: int, values, game) -> list[str]:
    headline = spec.headline[mode]
    key = values.field.key
    if not game.constant_sum:
        return [f"The two seats' {headline} is not constant-sum over these policies, so there is no matrix-game "
                f"solution; see the iterated best response below."]

    def mix(seat: int) -> str:
        return mix_text([(f"{key}={values.value_text(v)}", p, e) for v, p, e in game.support(seat)])

    return [f"Matrix game over {key} = {values.value_text(values.values[0])}..{values.value_text(values.values[-1])} "
            f"(the {headline} of the two seats is constant-sum), {game.count:,} {MODE_NAMES[mode]} per cell, solved "
            f"by linear programming (errors: bootstrap over batches of deals):",
            f"  seat 0 {mix(0)}",
            f"  seat 1 {mix(1)}",
            f"  value: seat 0's {headline} = {with_se(game.value, game.value_se)}; replayed on "
            f"{game.count:,} fresh {MODE_NAMES[mode]}: {with_se(game.confirmed_value, game.confirmed_value_se)}"]


def render_equilibrium(spec: GameSpec, mode: int, values, equilibrium, evaluation) -> list[str]:
    key = values.field.key
    lines = [f"Iterated best response (each seat in turn moves to its best {key}, staying put while tied):"]
    for number, state in enumerate(equilibrium.rounds, start=1):
        lines.append(f"  round {number}: {key} = {_values_text(values, state)}")
    if equilibrium.converged:
        kind = "symmetric" if equilibrium.symmetric else "per-seat"
        lines.append(f"  converged: a {kind} equilibrium, {key} = {_values_text(values, equilibrium.values)} "
                     f"(each seat's value is a best response, within two standard errors, to the others')")
    elif equilibrium.cycled:
        lines.append("  no equilibrium among these values: the best responses cycle")
    else:
        lines.append(f"  not settled after {len(equilibrium.rounds)} rounds")
    if evaluation:
        headline = spec.headline[mode]
        lines.append(f"  at the final policy, replayed on fresh hands, per seat: {headline} (± se) and its change "
                     f"from the starting policy (paired ± se):")
        for d in evaluation:
            lines.append(f"    seat {d.seat}: {with_se(d.other, d.other_se)}  {with_se(d.difference, d.se, signed=True)}")
    return lines


@app.command("optimize")
def optimize_command(
    game: str = typer.Argument(..., help="game name, e.g. chase-ace"),
    players: Optional[str] = PLAYERS,
    field: Optional[str] = typer.Option(None, "--field", help="the policy field to optimise, FIELD or "
                                        "FIELD=LO:HI[:STEP] (default: the game's main strategy field)"),
    hands: Optional[str] = typer.Option(None, "--hands", help="hands per policy tried (default 200k)"),
    games: Optional[str] = typer.Option(None, "--games", help="whole games per policy tried instead of hands"),
    seed: str = SEED,
    variant: Optional[str] = VARIANT,
    rule: Optional[List[str]] = RULE,
    strategy: Optional[str] = STRATEGY,
    policy: Optional[List[str]] = POLICY,
    seat: Optional[List[str]] = SEAT,
    rounds: str = typer.Option("6", "--rounds", metavar="N", help="most rounds of iterated best response, 1 to 50"),
    threads: Optional[str] = THREADS,
    as_json: bool = AS_JSON,
):
    """Each seat's best response to the others, and the equilibrium: a matrix game for two
    players when the headline is constant-sum, else iterated best response."""

    def body():
        from analyzer.optimize import field_range, optimize_all
        from analyzer.params import parse_whole
        from analyzer.runner import check_threads

        spec = get_game(game)
        mode, count = _mode_and_count(spec, hands, games, spec.strategy_mode, {HANDS: "200k", GAME_MODE: "20k"})
        seats, seed_number, thread_count = numbers(players, seed, threads)
        most_rounds = parse_whole(rounds, "--rounds", 1, 50)
        table = _table(spec, seats, variant, rule, strategy, policy, seat)
        check_threads(thread_count)
        if field is not None:
            key = field
        else:
            key = spec.strategy_fields[0] if spec.strategy_fields else spec.policy_fields[0].key
        values = field_range(spec, key)
        found = optimize_all(spec, table.players, table.rules, table.policy, mode, seed_number, values, count,
                             thread_count, False if as_json else None, most_rounds)
        if as_json:
            typer.echo(json.dumps(finite(optimize_object(spec, table, mode, seed_number, values, count, found))))
        else:
            typer.echo(render_optimize(spec, table, mode, seed_number, values, count, found))

    guarded(body, lambda stop: _stage_interrupt_text("an unfinished search shows nothing"))


def _stage_interrupt_text(ending: str) -> str:
    """The interrupt line of a command of many runs (optimize, report): the stage it was
    in and the hands played."""
    from analyzer.runner import TALLY

    during = f"during {TALLY.stage} " if TALLY.stage else ""
    return f"{during}after {TALLY.played:,} {TALLY.unit} played; {ending}"


def optimize_object(spec, table, mode, seed, values, count, found) -> dict:
    """The --json object of ``optimize``."""
    summary = {"game": spec.name, "mode": MODE_NAMES[mode], "players": table.players, "seed": seed,
               MODE_NAMES[mode]: count, "rules": rules_json(spec, table.rules), "field": values.field.key, "values": list(values.values),
               "headline": spec.headline[mode], "lower_is_better": spec.lower_is_better(mode, spec.headline[mode]),
               "best_responses": best_response_records(spec, mode, values, found.responses)}
    if found.matrix is not None:
        game = found.matrix
        summary["matrix_game"] = {"constant_sum": game.constant_sum, "row_mix": game.row_mix,
                                  "row_mix_se": game.row_mix_se, "column_mix": game.column_mix,
                                  "column_mix_se": game.column_mix_se, "value": game.value, "value_se": game.value_se,
                                  "means": game.means.tolist()}
    if found.equilibrium is not None:
        equilibrium = found.equilibrium
        summary["equilibrium"] = {"values": list(equilibrium.values), "rounds": [list(r) for r in equilibrium.rounds],
                                  "converged": equilibrium.converged, "cycled": equilibrium.cycled,
                                  "symmetric": equilibrium.symmetric,
                                  "per_seat": [d.as_record() for d in found.evaluation]}
    return summary


def render_optimize(spec, table, mode, seed, values, count, found) -> str:
    unit = MODE_NAMES[mode]
    lines = [f"{spec.title}: {table.players} players, the best {values.field.key} for each seat by {_better(spec, mode)}",
             f"{count:,} {unit} per policy tried, every policy on the same {unit} (seed {seed}); "
             f"{values.field.key} tried: {values.value_text(values.values[0])}..{values.value_text(values.values[-1])}"]
    lines += _table_lines(spec, table)
    lines += ["", "Best response of each seat to the others' policy above (a tie when the best does not beat the "
                  "runner-up by two standard errors of their paired difference):"]
    lines += render_best_responses(spec, mode, values, found.responses)
    if found.matrix is not None:
        lines += [""] + render_matrix_game(spec, mode, values, found.matrix)
    if found.equilibrium is not None:
        lines += [""] + render_equilibrium(spec, mode, values, found.equilibrium, found.evaluation)
    return "\n".join(lines)


# ------------------------------------------------------------------------------ compare


def render_compare(spec: GameSpec, table, run, labels: list[str], changed: list[str], asked: int | None = None) -> str:
    from analyzer.compare import paired_differences

    unit = MODE_NAMES[run.mode]
    lines = [f"{spec.title}: {table.players} players, {' vs '.join(labels)}: {run.count:,} {unit} each, on the same "
             f"{unit} (seed {run.seed})"]
    if asked is not None and run.interrupted:
        lines.append(f"PARTIAL: interrupted after {run.count:,} of {asked:,} {unit} per rule set; the table is for "
                     f"the {unit} every rule set finished")
    lines += [f"warning: {message}" for message in spec.warnings(spec.rules_type(*run.configs[0].rules), table.players)]
    lines += changed + policy_lines(spec, table.policy, table.strategy)
    for other in range(1, len(run.configs)):
        lines += ["", f"{labels[other]} minus {labels[0]}:"]
        differences = paired_differences(run, 0, other)
        rows = []
        for d in differences:
            identical = d.se == 0 and d.difference == 0  # the same on every hand
            reduction = d.variance_reduction
            rows.append([str(d.seat), d.outcome, number_text(d.base, d.base_se), number_text(d.other, d.other_se),
                         "0 (the same in every batch)" if identical else with_se(d.difference, d.se, signed=True),
                         f"{d.se_independent:.2g}",
                         "-" if identical else "n/a" if math.isnan(reduction) else f"{reduction:.1f}x"])
        headers = ["seat", "outcome", labels[0], labels[other], "difference (± paired se)", "independent se",
                   "variance reduction"]
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
        lines.append("  ".join(f"{h:<{w}}" for h, w in zip(headers, widths)).rstrip())
        lines += ["  ".join(f"{c:<{w}}" for c, w in zip(r, widths)).rstrip() for r in rows]
    lines += ["", "The paired standard error comes from batches of the same deals; the independent one is "
                  "what two separate runs of this length would give; variance reduction = (independent / paired)^2."]
    return "\n".join(lines)


@app.command("compare")
def compare_command(
    game: str = typer.Argument(..., help="game name, e.g. chase-ace"),
    variant: Optional[List[str]] = typer.Option(None, "--variant", help="a named rule preset to compare (repeatable; "
                                                "with one, it is compared with the standard rules)"),
    rule: Optional[List[str]] = typer.Option(None, "--rule", help="KEY=VALUE: together they make one rule set "
                                             "compared with the standard rules (repeatable)"),
    players: Optional[str] = PLAYERS,
    hands: Optional[str] = typer.Option(None, "--hands", help="hands per rule set (default 1e6)"),
    games: Optional[str] = typer.Option(None, "--games", help="whole games per rule set instead of hands"),
    seed: str = SEED,
    strategy: Optional[str] = STRATEGY,
    policy: Optional[List[str]] = POLICY,
    seat: Optional[List[str]] = SEAT,
    threads: Optional[str] = THREADS,
    target_se: Optional[str] = TARGET_SE,
    as_json: bool = AS_JSON,
    out: Optional[Path] = typer.Option(None, "--out", help="also write the differences as CSV and JSON and a chart "
                                       "of the headline's differences into this folder"),
):
    """Paired differences of every outcome between rule sets, on the same deals."""

    def body():
        from analyzer.compare import largest_paired_se
        from analyzer.params import build_rules
        from analyzer.runner import Config, check_threads, run_paired

        spec = get_game(game)
        variants = list(variant or [])
        rules_given = list(rule or [])
        if len(set(variants)) < len(variants):
            raise UserError("each --variant may be given once.")
        if rules_given and len(variants) > 1:
            raise UserError("give --rule with at most one --variant: the rules are compared with that variant.")
        base = variants[0] if variants else None
        arms = [(name, build_rules(spec, name, [])) for name in variants]
        if rules_given:
            label = " ".join(rules_given) if base is None else f"{base} + {' '.join(rules_given)}"
            arms.append((label, build_rules(spec, base, rules_given)))
        if not arms:
            raise UserError("give what to compare: --variant A --variant B, or --variant A, or --rule KEY=VALUE ...")
        if len(arms) == 1:
            arms.insert(0, ("standard", spec.default_rules()))
        mode, count = _mode_and_count(spec, hands, games, HANDS, {HANDS: "1e6", GAME_MODE: "1e5"})
        target = check_target_se(target_se)
        seats, seed_number, thread_count = numbers(players, seed, threads)
        check_threads(thread_count)
        table = _table(spec, seats, base, [], strategy, policy, seat)
        for _, rules in arms:
            spec.check(rules, table.policy, table.players)
        if out is not None:
            from analyzer.report import check_out_dir

            check_out_dir(out)
        labels = [label for label, _ in arms]
        changed = []
        for index, field in enumerate(spec.rules):
            texts = [field.value_text(int(r[index])) for _, r in arms]
            if len(set(texts)) > 1:
                changed.append(f"rule {field.key}: " + " | ".join(texts))

        def show(run, target: float | None) -> dict:
            """Print the comparison (a partial one says so); its JSON object."""
            missed = target_note(target, largest_paired_se(run)) if target else ""
            summary = compare_object(spec, table, run, labels, changed, count, arms)
            summary["target_se_reached"] = not missed if target else None
            if as_json:
                typer.echo(json.dumps(finite(summary)))
            else:
                notes = "".join(f"\nnote: {note}" for note in summary["notes"])
                typer.echo(render_compare(spec, table, run, labels, changed or ["(the rule sets are the same)"], count)
                           + notes + ("\n" + missed if missed else ""))
            return summary

        asked.update(unit=MODE_NAMES[mode], count=count)
        try:
            run = run_paired(spec, table.players, mode, seed_number,
                             [Config(tuple(r), table.policy, label) for label, r in arms], count, thread_count, target,
                             largest_paired_se if target else None, progress=False if as_json else None)
        except interrupts.Interrupted as stop:
            if stop.partial is not None:
                show(stop.partial, None)
            raise
        summary = show(run, target)
        if out is not None:
            from analyzer.report import write_compare_outputs

            paths = write_compare_outputs(out, f"{spec.name}-{table.players}p-compare-{MODE_NAMES[mode]}-seed"
                                               f"{seed_number}", summary, compare_chart(spec, run, labels))
            if not as_json:
                typer.echo("wrote " + ", ".join(str(p) for p in paths))

    asked: dict = {"unit": "hands", "count": 0}
    guarded(body, lambda stop: _paired_interrupt_text(stop, asked["unit"], asked["count"], "per rule set", out))


def compare_object(spec: GameSpec, table, run, labels: list[str], changed: list[str], asked: int, arms) -> dict:
    """The --json object of ``compare`` (and the JSON file of its --out)."""
    from analyzer.compare import paired_differences

    return {"game": spec.name, "mode": MODE_NAMES[run.mode], "players": table.players, "seed": run.seed,
            MODE_NAMES[run.mode]: run.count, "partial": run.interrupted, "requested": asked, "labels": labels,
            "rules": {label: rules_json(spec, rules) for label, rules in arms}, "changed": changed,
            "notes": games_only_note(spec, [rules for _, rules in arms], run.mode),
            "differences": {labels[o]: [d.as_record() for d in paired_differences(run, 0, o)]
                            for o in range(1, len(run.configs))}}


def compare_chart(spec: GameSpec, run, labels: list[str]):
    """The headline's paired difference for each compared rule set and seat, as a heat map."""
    from analyzer.charts import difference_heatmap
    from analyzer.compare import paired_differences
    from analyzer.report import outcome_labels

    headline = spec.headline[run.mode]
    rows, errors = [], []
    for other in range(1, len(run.configs)):
        by_seat = {d.seat: d for d in paired_differences(run, 0, other) if d.outcome == headline}
        rows.append([by_seat[s].difference for s in range(run.players)])
        errors.append([by_seat[s].se for s in range(run.players)])
    return difference_heatmap([f"{labels[o]} minus {labels[0]}" for o in range(1, len(run.configs))],
                              list(range(run.players)), rows, errors,
                              f"{spec.title}: change in {headline} by seat ({run.count:,} {MODE_NAMES[run.mode]}, "
                              f"paired)", f"change in {outcome_labels(spec, run.mode)[headline]}",
                              spec.lower_is_better(run.mode, headline))


# ------------------------------------------------------------------------------ report


@app.command("report")
def report_command(
    game: str = typer.Argument(..., help="game name, or 'all' for every game"),
    out: Path = typer.Option(Path("reports"), "--out", help="folder to write into (one subfolder per game)"),
    hands: Optional[str] = typer.Option(None, "--hands", help="hands per run (default 1e6; strategy runs use a "
                                        "fraction, see the report)"),
    report_format: str = typer.Option("md", "--format", help="md (Markdown with PNG charts) or html (one "
                                      "self-contained file)"),
    seed: str = SEED,
    threads: Optional[str] = THREADS,
):
    """A strategy report per game: rules, tables, sweeps, best responses, equilibrium, house rules."""
    written: list[str] = []

    def body():
        from analyzer.params import parse_count
        from analyzer.report import check_out_dir, write_index, write_report
        from analyzer.runner import check_threads

        specs = list(GAMES.values()) if game == "all" else [get_game(game)]
        if report_format not in ("md", "html"):
            raise UserError(f"--format takes md or html, not '{report_format}'.")
        count = parse_count(hands or "1e6", "--hands")
        if count < MIN_COUNT:
            raise UserError(f"--hands must be at least {MIN_COUNT} for a report, not {count}: its standard errors "
                            f"come from batches of hands.")
        _, seed_number, thread_count = numbers(None, seed, threads)
        check_threads(thread_count)
        check_out_dir(out)
        for spec in specs:  # each game's own folder too: a file there would only show at the end
            check_out_dir(out / spec.name)
        for spec in specs:
            path = write_report(spec, out / spec.name, count, seed_number, report_format, thread_count,
                                progress=lambda text: typer.echo(text, err=True))
            written.append(spec.name)
            typer.echo(f"wrote {path}")
        if game == "all":
            typer.echo(f"wrote {write_index(out, specs, count, seed_number, report_format)}")

    def interrupted(stop) -> str:
        done = f" (finished: {', '.join(written)})" if written else ""
        return _stage_interrupt_text(f"the unfinished report was not written{done}")

    guarded(body, interrupted)
