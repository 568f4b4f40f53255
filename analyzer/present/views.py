"""What a result shows: the ``--json`` objects and the text tables of a game's run, a sweep,
``optimize`` and a comparison.  Shared by the Python API (``analyzer.api.functions``: a result's
``summary()`` and ``text()``) and the command line, which prints them; builds no DataFrame
and plays no hand.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.present.text import (
    estimate_text,
    grid_lines,
    number_text,
    with_se,
)
from sims.spec import MODE_NAMES, GameSpec, Mode

# ------------------------------------------------------------------------------ a game's run


def _policy_text(spec: GameSpec, policy) -> list[str]:
    def row_text(row) -> str:
        return " ".join(f"{field.key}={field.value_text(value)}" for field, value in zip(spec.policy_fields, row))

    first = row_text(policy[0])
    if all(row_text(row) == first for row in policy):
        return [f"{first} (every seat)"]
    return [f"seat {seat}: {row_text(row)}" for seat, row in enumerate(policy)]


def policy_lines(spec: GameSpec, policy, strategy: str, played=()) -> list[str]:
    """The ``policy  NAME: ...`` lines of a run's heading (one per seat when seats differ),
    then a ``tables`` line per table played (``played``: the resolved table's
    :class:`analyzer.run.params.PlayedTable`, naming the files)."""
    return [
        ("policy  " + strategy + ": " if i == 0 else "        ") + text
        for i, text in enumerate(_policy_text(spec, policy))
    ] + tables_lines(seat_tables(spec, policy, played))


def seat_tables(spec: GameSpec, policy, played=()) -> list[list[dict]]:
    """Per seat, the tables it plays: ``{"table": file name, "decision", "cells": cells the
    table gives, "of": the decision's cells}`` (read from the policy matrix's table blocks;
    the names from ``played``, "a table" where none is given)."""
    policy = np.asarray(policy)
    found: list[list[dict]] = [[] for _ in range(policy.shape[0])]
    if policy.ndim != 2 or policy.shape[1] <= len(spec.policy_fields):
        return found
    from sims.core.table import tables_of

    decisions = spec.table_decisions()
    names = {(p.seat, p.decision): p.source for p in played}
    for seat, chosen in tables_of(policy, len(spec.policy_fields), decisions).items():
        for decision in decisions:
            if decision.name in chosen:
                cells = int((chosen[decision.name][:, 0] >= 0).sum())
                found[seat].append(
                    {
                        "table": names.get((seat, decision.name), "a table"),
                        "decision": decision.name,
                        "cells": cells,
                        "of": decision.n_cells,
                    }
                )
    return found


def tables_lines(by_seat: list[list[dict]]) -> list[str]:
    """``tables`` lines of a heading from :func:`seat_tables`' records: one for a table
    every seat plays, else one per seat and table."""
    lines = []
    shown = set()
    for seat, records in enumerate(by_seat):
        for record in records:
            key = (record["table"], record["decision"], record["cells"])
            every = all(any((r["table"], r["decision"], r["cells"]) == key for r in other) for other in by_seat)
            if every and key in shown:
                continue
            shown.add(key)
            cells = (
                f"all {record['of']} cells"
                if record["cells"] == record["of"]
                else f"{record['cells']} of {record['of']} cells; the policy decides the rest"
            )
            who = "every seat" if every and len(by_seat) > 1 else f"seat {seat}"
            lines.append(f"tables  {who} plays {record['decision']} from {record['table']} ({cells})")
    return lines


def rules_json(spec: GameSpec, rules) -> dict:
    """A rule set as JSON: each key with its value in its real type (3, true, "block")."""
    return {field.key: field.value_json(code) for field, code in zip(spec.rules, rules)}


def policy_json(spec: GameSpec, policy, played=()) -> list[dict]:
    """A policy matrix as JSON: one object per seat, choices by name; a seat that plays
    tables has ``"tables"``, a list of ``{"table", "decision", "cells", "of"}``
    (:func:`seat_tables`)."""
    tables = seat_tables(spec, policy, played)
    found = []
    for row, records in zip(policy, tables):
        values: dict[str, Any] = {field.key: field.value_json(value) for field, value in zip(spec.policy_fields, row)}
        if records:
            values["tables"] = records
        found.append(values)
    return found


def games_only_note(spec: GameSpec, rule_sets, mode: int) -> list[str]:
    """A note for a hand-mode run in which rules that act only across the deals of a
    whole game differ (from the standard, or between the rule sets compared)."""
    if mode != Mode.HANDS:
        return []
    keys = [
        f"`{field.key}`"
        for index, field in enumerate(spec.rules)
        if field.games_only and len({int(rules[index]) for rules in rule_sets}) > 1
    ]
    if not keys:
        return []
    one = len(keys) == 1
    return [
        f"{', '.join(keys)} act{'s' if one else ''} only across the deals of a whole game, so one hand plays the "
        f"same with any value; use --games to see {'its' if one else 'their'} effect"
    ]


def cluster_text(cluster: dict) -> str:
    """Where a Dask cluster played the hands, as the run line says it."""
    return (
        f"a Dask cluster of {cluster['workers']} worker{'s' if cluster['workers'] != 1 else ''}, "
        f"{cluster['threads']} thread{'s' if cluster['threads'] != 1 else ''}"
        + (f"; dashboard {cluster['dashboard']}" if cluster.get("dashboard") else "")
    )


def summary_object(spec: GameSpec, result) -> dict:
    """The --json object of a run."""
    from analyzer.run.stats import estimates, observed_maxima

    outcomes = spec.outcomes[result.mode]
    unit = MODE_NAMES[result.mode]
    return {
        "game": spec.name,
        "kernel_version": spec.kernel_version,
        "mode": unit,
        "players": result.table.players,
        "seed": result.seed,
        unit: result.count,
        "variant": result.table.variant or "standard",
        "strategy": result.table.strategy,
        "rules": rules_json(spec, result.table.rules),
        "rule_codes": [int(code) for code in result.table.rules],
        "policy": policy_json(spec, result.table.policy, result.table.tables),
        "elapsed_s": round(result.elapsed_s, 4),
        "kernel_load_s": round(result.load_s, 4),
        "threads": result.threads,
        "cluster": result.cluster,
        "results": [e.as_record() for e in estimates(result.sums, outcomes, result.count)],
        "largest_seen": observed_maxima(result.sums, outcomes),
        "warnings": spec.warnings(spec.rules_type(*result.table.rules), result.table.players),
        "notes": games_only_note(spec, [result.table.rules, spec.default_rules()], result.mode),
        "partial": result.partial,
        "requested": result.requested,
        "from_store": result.stored,
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
    outcomes = spec.outcomes[Mode.HANDS if unit == "hands" else Mode.GAMES]
    lines = []
    role = spec.last_seat_role
    if unit == "hands":
        setting = f"one hand each, the {role} in seat {players - 1}"
    else:
        setting = f"whole games, seat {players - 1} is the first {role}"
    lines.append(f"{spec.title}: {players} players, {n:,} {unit} ({setting}), seed {summary['seed']}")
    if summary.get("partial"):
        lines.append(
            f"PARTIAL: interrupted after {n:,} of {summary['requested']:,} {unit}; the table is for the {unit} finished"
        )
    lines += [f"warning: {message}" for message in summary.get("warnings", [])]
    lines += [f"note: {message}" for message in summary.get("notes", [])]
    rules_text = " ".join(
        f"{field.key}={field.value_text(code)}" for field, code in zip(spec.rules, summary["rule_codes"])
    )
    lines.append(f"rules   {summary['variant']}: {rules_text}")
    policy = np.array(
        [
            [f.choices.index(row[f.key]) if isinstance(row[f.key], str) else row[f.key] for f in spec.policy_fields]
            for row in summary["policy"]
        ]
    )
    lines += policy_lines(spec, policy, summary["strategy"])
    lines += tables_lines([row.get("tables", []) for row in summary["policy"]])
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
        if outcomes.companion(name) or name in grouped:
            continue
        label = outcomes.help.get(name, name)
        if name in outcomes.maxima:
            lines.append(f"{label}: {summary['largest_seen'][name]:,} (the largest in {n:,} {unit})")
            continue
        record = by_seat["table"][name]
        if record["mean"] != record["mean"]:  # a conditional mean over no hand (an open misere never bid)
            lines.append(f"{label}: – (no hand of the {n:,} to average over)")
            continue
        lines.append(f"{label}: {estimate_text(record)}  (se {record['se']:.2g})")
        if name in outcomes.odds:
            odds = by_seat["table"][name + "_fair_odds"]
            lines.append(
                f"{outcomes.odds[name]}: {number_text(odds['mean'], odds['se'])} to 1 against "
                f"[{number_text(odds['ci_low'], odds['se'])}, {number_text(odds['ci_high'], odds['se'])}]"
            )
    for prefix, (title, labels) in outcomes.groups.items():
        if prefix in outcomes.grids:
            lines += ["", f"{title} (mean ± se; –: never seen):"]
            lines += grid_lines(outcomes, prefix, lambda name: by_seat["table"][name])
            continue
        lines += ["", f"{title} (mean and 95% CI):"]
        label_width = max(3, *(len(label) for label in labels))
        for label in labels:
            record = by_seat["table"][f"{prefix}_{label}"]
            lines.append(f"  {label:>{label_width}}  {estimate_text(record)}")
    stored = summary.get("from_store", 0)
    played = n - stored
    rate = played / summary["elapsed_s"] if summary["elapsed_s"] > 0 else float("inf")
    cluster = summary.get("cluster")
    where = cluster_text(cluster) if cluster else f"{summary['threads']} thread{'s' if summary['threads'] != 1 else ''}"
    speed = f"in {summary['elapsed_s']:.2f} s ({rate / 1e6:.2f}M {unit}/s on {where})"
    if stored == 0:
        done = f"{n:,} {unit} {speed}"
    elif played == 0:
        done = f"{n:,} {unit}, all from the result store (none played)"
    else:
        done = f"{n:,} {unit}: {stored:,} from the result store, {played:,} played {speed}"
    lines.append("")
    lines.append(f"{done}; intervals are 95%: Wilson for probabilities, log-scale for counts, normal for net results")
    if summary["kernel_load_s"] > 2:
        lines.append(f"(the kernel was compiled in {summary['kernel_load_s']:.1f} s and cached for later runs)")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ strategy commands


def table_lines(spec: GameSpec, table) -> list[str]:
    """A heading's warnings, rules and policy lines for a resolved table."""
    text = " ".join(f"{field.key}={field.value_text(code)}" for field, code in zip(spec.rules, table.rules))
    return (
        [f"warning: {message}" for message in spec.warnings(spec.rules_type(*table.rules), table.players)]
        + [f"rules   {table.variant or 'standard'}: {text}"]
        + policy_lines(spec, table.policy, table.strategy, getattr(table, "tables", ()))
    )


def better_text(spec: GameSpec, mode: int) -> str:
    headline = spec.headline[mode]
    return f"{headline} ({'lower' if spec.lower_is_better(mode, headline) else 'higher'} is better)"


def _grid(row_labels: list[str], first_header: str, columns: list[tuple[str, list[str]]]) -> list[str]:
    """A text table wrapped into blocks of columns that fit the line width."""
    label_width = max(len(first_header), *(len(label) for label in row_labels))
    widths = [max(len(header), *(len(cell) for cell in cells)) for header, cells in columns]
    lines = []
    for block in _column_blocks(widths):
        lines.append(
            f"{first_header:>{label_width}}  " + "  ".join(f"{columns[i][0]:<{widths[i]}}" for i in block).rstrip()
        )
        for r, label in enumerate(row_labels):
            lines.append(
                f"{label:>{label_width}}  " + "  ".join(f"{columns[i][1][r]:<{widths[i]}}" for i in block).rstrip()
            )
        lines.append("")
    return lines


# ------------------------------------------------------------------------------ sweep


def render_sweep(spec: GameSpec, table, result, reference: int, asked: int | None = None) -> str:
    from analyzer.strategy.comparisons import paired_differences

    mode = result.mode
    unit = MODE_NAMES[mode]
    outcomes = spec.outcomes[mode]
    field = result.values.field.key
    who = f"seat {result.seat}" if result.seat is not None else "every seat together"
    lines = [
        f"{spec.title}: {table.players} players, sweep of {field} for {who}, {result.run.count:,} {unit} per "
        f"value, every value on the same {unit} (seed {result.run.seed})"
    ]
    if asked is not None and result.run.interrupted:
        lines.append(
            f"PARTIAL: interrupted after {result.run.count:,} of {asked:,} {unit} per value; the table is for "
            f"the {unit} every value finished"
        )
    lines += table_lines(spec, table)
    lines.append("")
    by_point = [
        {(e.seat, e.outcome): e.as_record() for e in result.estimates(p)} for p in range(len(result.values.values))
    ]
    headline = spec.headline[mode]
    seats = [result.seat] if result.seat is not None else list(range(table.players))
    columns = []
    for seat in seats:
        for name in outcomes.estimated(outcomes.seat):
            header = f"{name} (95% CI)" if result.seat is not None else f"{name} seat {seat}"
            columns.append((header, [estimate_text(point[(seat, name)]) for point in by_point]))
    values = result.values.values
    against = [
        {(d.seat, d.outcome): d for d in paired_differences(result.run, reference, point)}
        for point in range(len(values))
    ]
    for seat in seats:
        differences = []
        for point in range(len(values)):
            found = against[point][(seat, headline)]
            differences.append(
                "0 (reference)" if point == reference else with_se(found.difference, found.se, signed=True)
            )
        label = f"{headline} vs {result.values.value_text(values[reference])} (± se)"
        columns.append((label if result.seat is not None else f"{label} seat {seat}", differences))
    if result.seat is not None:
        for seat in range(table.players):
            if seat != result.seat:
                columns.append(
                    (f"{headline} seat {seat}", [estimate_text(point[(seat, headline)]) for point in by_point])
                )
    for name in outcomes.estimated(outcomes.table):
        columns.append((name, [estimate_text(point[("table", name)]) for point in by_point]))
    lines += _grid([result.values.value_text(v) for v in values], field, columns)
    lines.append(
        f"95% intervals; differences are paired (the same {unit}) with their standard errors; "
        f"{result.run.count * len(values):,} {unit} in {result.run.elapsed_s:.1f} s"
    )
    return "\n".join(lines)


def sweep_object(spec: GameSpec, table, result, reference: int, asked: int, target_reached: bool | None) -> dict:
    """The --json object of ``sweep`` (``result``: an ``analyzer.strategy.sweeps.Sweep``)."""
    mode = result.mode
    return {
        "game": spec.name,
        "mode": MODE_NAMES[mode],
        "players": table.players,
        "seed": result.run.seed,
        MODE_NAMES[mode]: result.run.count,
        "partial": result.run.interrupted,
        "requested": asked,
        "rules": rules_json(spec, table.rules),
        "field": result.values.field.key,
        "seat": result.seat,
        "values": list(result.values.values),
        "reference": reference,
        "target_se_reached": target_reached,
        "results": result.records(reference),
    }
