"""The text and JSON of the strategy commands made of many runs: ``optimize`` (best
responses, the matrix game, the equilibrium) and ``compare`` (paired differences per arm);
the single-run views are in ``analyzer.present.views``."""

from __future__ import annotations

import math

from analyzer.present.text import (
    best_text,
    estimate_text,
    mix_text,
    number_text,
    with_se,
)

# ------------------------------------------------------------------------------ a game's run
from analyzer.present.views import better_text, games_only_note, policy_json, policy_lines, rules_json, table_lines
from sims.spec import MODE_NAMES, GameSpec

# ------------------------------------------------------------------------------ optimize


def _values_text(values, state) -> str:
    return " ".join(values.value_text(v) for v in state)


def best_response_records(spec: GameSpec, mode: int, values, responses) -> list[dict]:
    """JSON records of best responses (gains are positive when better for the seat)."""
    return [
        {
            "seat": r.seat,
            "best": r.values[r.best],
            "tied": [r.values[i] for i in r.tied],
            "tie": r.is_tie,
            "no_effect": r.no_effect,
            "value": r.means[r.best],
            "se": r.ses[r.best],
            "current": r.values[r.current],
            "current_value": r.means[r.current],
            "gain": r.gain,
            "gain_se": r.gain_se,
            "confirmed_gain": r.confirmed_gain,
            "confirmed_gain_se": r.confirmed_gain_se,
            "confirmed_on": r.confirmed_count,
            "runner_up": None if r.runner_up is None else r.values[r.runner_up],
            "margin": r.runner_up_gap,
            "margin_se": r.runner_up_se,
        }
        for r in responses
    ]


def render_best_responses(spec: GameSpec, mode: int, values, responses) -> list[str]:
    headline = spec.headline[mode]
    key = values.field.key
    rows = []
    for r in responses:
        runner = (
            "-"
            if r.runner_up is None
            else f"{values.value_text(r.values[r.runner_up])} by {with_se(r.runner_up_gap, r.runner_up_se)}"
        )
        rows.append(
            [
                str(r.seat),
                best_text(values, r),
                estimate_text(r.points[r.best]),
                values.value_text(r.values[r.current]),
                estimate_text(r.points[r.current]),
                "0" if r.current == r.best else with_se(r.confirmed_gain, r.confirmed_gain_se, signed=True),
                runner,
            ]
        )
    headers = [
        "seat",
        f"best {key}",
        f"{headline} at best (95% CI)",
        "current",
        f"{headline} at current (95% CI)",
        "gain on fresh hands (± se)",
        "runner-up, behind by (± se)",
    ]
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(headers)]
    lines = ["  ".join(f"{h:<{w}}" for h, w in zip(headers, widths)).rstrip()]
    lines += ["  ".join(f"{cell:<{w}}" for cell, w in zip(row, widths)).rstrip() for row in rows]
    return lines


def render_matrix_game(spec: GameSpec, mode: int, values, game) -> list[str]:
    headline = spec.headline[mode]
    key = values.field.key
    if not game.constant_sum:
        return [
            f"The two seats' {headline} is not constant-sum over these policies, so there is no matrix-game "
            f"solution; see the iterated best response below."
        ]

    def mix(seat: int) -> str:
        return mix_text([(f"{key}={values.value_text(v)}", p, e) for v, p, e in game.support(seat)])

    return [
        f"Matrix game over {key} = {values.value_text(values.values[0])}..{values.value_text(values.values[-1])} "
        f"(the {headline} of the two seats is constant-sum), {game.count:,} {MODE_NAMES[mode]} per cell, solved "
        f"by linear programming (errors: bootstrap over batches of deals):",
        f"  seat 0 {mix(0)}",
        f"  seat 1 {mix(1)}",
        f"  value: seat 0's {headline} = {with_se(game.value, game.value_se)}; replayed on "
        f"{game.count:,} fresh {MODE_NAMES[mode]}: {with_se(game.confirmed_value, game.confirmed_value_se)}",
    ]


def render_equilibrium(spec: GameSpec, mode: int, values, equilibrium, evaluation) -> list[str]:
    key = values.field.key
    lines = [f"Iterated best response (each seat in turn moves to its best {key}, staying put while tied):"]
    for number, state in enumerate(equilibrium.rounds, start=1):
        lines.append(f"  round {number}: {key} = {_values_text(values, state)}")
    if equilibrium.converged:
        kind = "symmetric" if equilibrium.symmetric else "per-seat"
        lines.append(
            f"  converged: a {kind} equilibrium, {key} = {_values_text(values, equilibrium.values)} "
            f"(each seat's value is a best response, within two standard errors, to the others')"
        )
    elif equilibrium.cycled:
        lines.append("  no equilibrium among these values: the best responses cycle")
    else:
        lines.append(f"  not settled after {len(equilibrium.rounds)} rounds")
    if evaluation:
        headline = spec.headline[mode]
        lines.append(
            f"  at the final policy, replayed on fresh hands, per seat: {headline} (± se) and its change "
            f"from the starting policy (paired ± se):"
        )
        for d in evaluation:
            lines.append(
                f"    seat {d.seat}: {with_se(d.other, d.other_se)}  {with_se(d.difference, d.se, signed=True)}"
            )
    return lines


def optimize_object(spec, table, mode, seed, values, count, found) -> dict:
    """The --json object of ``optimize``."""
    summary = {
        "game": spec.name,
        "mode": MODE_NAMES[mode],
        "players": table.players,
        "seed": seed,
        MODE_NAMES[mode]: count,
        "rules": rules_json(spec, table.rules),
        "field": values.field.key,
        "values": list(values.values),
        "headline": spec.headline[mode],
        "lower_is_better": spec.lower_is_better(mode, spec.headline[mode]),
        "best_responses": best_response_records(spec, mode, values, found.responses),
    }
    if found.matrix is not None:
        game = found.matrix
        summary["matrix_game"] = {
            "constant_sum": game.constant_sum,
            "row_mix": game.row_mix,
            "row_mix_se": game.row_mix_se,
            "column_mix": game.column_mix,
            "column_mix_se": game.column_mix_se,
            "value": game.value,
            "value_se": game.value_se,
            "means": game.means.tolist(),
        }
    if found.equilibrium is not None:
        equilibrium = found.equilibrium
        summary["equilibrium"] = {
            "values": list(equilibrium.values),
            "rounds": [list(r) for r in equilibrium.rounds],
            "converged": equilibrium.converged,
            "cycled": equilibrium.cycled,
            "symmetric": equilibrium.symmetric,
            "per_seat": [d.as_record() for d in found.evaluation],
        }
    return summary


def render_optimize(spec, table, mode, seed, values, count, found) -> str:
    unit = MODE_NAMES[mode]
    lines = [
        f"{spec.title}: {table.players} players, the best {values.field.key} for each seat by {better_text(spec, mode)}",
        f"{count:,} {unit} per policy tried, every policy on the same {unit} (seed {seed}); "
        f"{values.field.key} tried: {values.value_text(values.values[0])}..{values.value_text(values.values[-1])}",
    ]
    lines += table_lines(spec, table)
    lines += [
        "",
        "Best response of each seat to the others' policy above (a tie when the best does not beat the "
        "runner-up by two standard errors of their paired difference):",
    ]
    lines += render_best_responses(spec, mode, values, found.responses)
    if found.matrix is not None:
        lines += [""] + render_matrix_game(spec, mode, values, found.matrix)
    if found.equilibrium is not None:
        lines += [""] + render_equilibrium(spec, mode, values, found.equilibrium, found.evaluation)
    return "\n".join(lines)


# ------------------------------------------------------------------------------ compare


def render_compare(spec: GameSpec, table, run, labels: list[str], changed: list[str], asked: int | None = None) -> str:
    from analyzer.strategy.comparisons import paired_differences

    unit = MODE_NAMES[run.mode]
    lines = [
        f"{spec.title}: {table.players} players, {' vs '.join(labels)}: {run.count:,} {unit} each, on the same "
        f"{unit} (seed {run.seed})"
    ]
    if asked is not None and run.interrupted:
        lines.append(
            f"PARTIAL: interrupted after {run.count:,} of {asked:,} {unit} per arm; the table is for "
            f"the {unit} every arm finished"
        )
    lines += [f"warning: {message}" for message in spec.warnings(spec.rules_type(*run.configs[0].rules), table.players)]
    lines += changed + policy_lines(spec, table.policy, table.strategy, getattr(table, "tables", ()))
    for other in range(1, len(run.configs)):
        lines += ["", f"{labels[other]} minus {labels[0]}:"]
        differences = paired_differences(run, 0, other)
        rows = []
        for d in differences:
            identical = d.se == 0 and d.difference == 0  # the same on every hand
            reduction = d.variance_reduction
            rows.append(
                [
                    str(d.seat),
                    d.outcome,
                    number_text(d.base, d.base_se),
                    number_text(d.other, d.other_se),
                    "0 (the same in every batch)" if identical else with_se(d.difference, d.se, signed=True),
                    f"{d.se_independent:.2g}",
                    "-" if identical else "n/a" if math.isnan(reduction) else f"{reduction:.1f}x",
                ]
            )
        headers = [
            "seat",
            "outcome",
            labels[0],
            labels[other],
            "difference (± paired se)",
            "independent se",
            "variance reduction",
        ]
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
        lines.append("  ".join(f"{h:<{w}}" for h, w in zip(headers, widths)).rstrip())
        lines += ["  ".join(f"{c:<{w}}" for c, w in zip(r, widths)).rstrip() for r in rows]
    lines += [
        "",
        "The paired standard error comes from batches of the same deals; the independent one is "
        "what two separate runs of this length would give; variance reduction = (independent / paired)^2.",
    ]
    return "\n".join(lines)


def compare_object(
    spec: GameSpec, table, run, labels: list[str], changed: list[str], asked: int, arms, played=()
) -> dict:
    """The --json object of ``compare`` (and the JSON file of its --out); ``played``: per
    arm, the table files its seats play (``PlayedTable``), to name them."""
    played = list(played) or [()] * len(arms)
    from analyzer.strategy.comparisons import paired_differences

    return {
        "game": spec.name,
        "mode": MODE_NAMES[run.mode],
        "players": table.players,
        "seed": run.seed,
        MODE_NAMES[run.mode]: run.count,
        "partial": run.interrupted,
        "requested": asked,
        "labels": labels,
        "rules": {label: rules_json(spec, rules) for label, rules, _ in arms},
        "policies": {label: policy_json(spec, policy, named) for (label, _, policy), named in zip(arms, played)},
        "changed": changed,
        "notes": games_only_note(spec, [rules for _, rules, _ in arms], run.mode),
        "differences": {
            labels[o]: [d.as_record() for d in paired_differences(run, 0, o)] for o in range(1, len(run.configs))
        },
    }
