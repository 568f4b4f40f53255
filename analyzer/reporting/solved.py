"""A report's "Solved" section: every table decision of the game solved by iterated per-cell
best response (:mod:`analyzer.strategy.solve`) at each table size the decision guides use,
laid out as grids (the solved action in each cell, with its margin over the best other
action), each seat's value under the solved and the default profile, and the
exploitability of both.

The decisions are solved in the order the game declares them, each starting from the
tables solved before it (the field plays good play in every decision solved so far): the
profile at the end is the *solved field* the decision guides are also drawn against.
"""

from __future__ import annotations

import math

import numpy as np

from analyzer.present.text import with_se
from analyzer.reporting.words import listed, rules_text, sentence

SWEEP_SHARE = 10  # a sweep plays the report's --hands divided by this many deals
LEAST_SWEEP = 2_000
REPORT_SWEEPS = 8


def sweep_deals(count: int) -> int:
    """Deals per sweep (and for the measurement) in a report of ``count`` hands."""
    return max(LEAST_SWEEP, count // SWEEP_SHARE)


def solve_field(spec, players: int, count: int, seed: int, context) -> tuple[np.ndarray, list]:
    """The solved field at ``players`` seats (every table decision solved in turn, under
    the standard rules, from the default policy) and the :class:`Solved` of each decision."""
    from analyzer.run.params import Table
    from analyzer.strategy.solve import policy_with, solve_tables

    rules = tuple(spec.default_rules())
    policy = spec.default_policy(players)
    found = []
    for decision in spec.table_decisions():
        table = Table(players, rules, policy, None, "default")
        solved = solve_tables(spec, table, decision.name, sweep_deals(count), seed, context.quiet(), REPORT_SWEEPS)
        policy = policy_with(spec, table, decision, {seat.seat: seat.table for seat in solved.seats})
        found.append(solved)
    return policy, found


def entry_text(decision, verdict) -> str:
    """One cell of a solved grid: the action (a mix as ``swap .3``), ``≈`` before a tie,
    the margin over the best other action; ``·`` for a cell never reached."""
    if verdict.visits == 0:
        return "·"
    row = verdict.action
    chosen = [a for a in range(len(row)) if row[a] > 0]
    if len(chosen) > 1:
        return " / ".join(f"{decision.actions[a]} {row[a]:.2g}" for a in chosen)
    name = decision.actions[chosen[0]]
    if verdict.tie:
        return f"≈ {name}"
    margin = f" {verdict.margin:.2g}" if math.isfinite(verdict.margin) else ""
    return f"**{name}**{margin}"


def grid(decision, cells) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of a seat's solved table as a grid: the decision's grid fields
    (default: the first field as rows, the others as columns)."""
    rows_of, columns_of = decision.grid or (decision.fields[:1], decision.fields[1:])
    index = {name: k for k, name in enumerate(decision.fields)}

    def part(cell, names) -> str:
        values = [decision.cells[cell][index[name]] for name in names]
        return " ".join("-" if v is None else str(v) for v in values) or "·"

    row_labels: list[str] = []
    column_labels: list[str] = []
    for cell in range(decision.n_cells):
        for labels, names in ((row_labels, rows_of), (column_labels, columns_of)):
            label = part(cell, names)
            if label not in labels:
                labels.append(label)
    body = [[label] + [""] * len(column_labels) for label in row_labels]
    for verdict in cells:
        r = row_labels.index(part(verdict.cell, rows_of))
        c = column_labels.index(part(verdict.cell, columns_of))
        body[r][c + 1] = entry_text(decision, verdict)
    corner = f"{' '.join(rows_of)} \\ {' '.join(columns_of) or ''}".strip()
    return [corner] + column_labels, body


def _same_tables(solved) -> list[list[int]]:
    """Seats grouped by equal solved tables (in seat order)."""
    groups: list[list[int]] = []
    for seat in solved.seats:
        for group in groups:
            if np.array_equal(solved.seats[group[0]].table, seat.table):
                group.append(seat.seat)
                break
        else:
            groups.append([seat.seat])
    return groups


def _seats_text(seats: list[int], players: int) -> str:
    names = [("dealer" if s == players - 1 else f"seat {s}") for s in seats]
    return "every seat" if len(seats) == players else listed(names)


def _values_rows(solved) -> list[list[str]]:
    return [
        [
            str(seat.seat),
            with_se(seat.start_value, seat.start_se),
            with_se(seat.value, seat.se),
            with_se(seat.value - seat.start_value, math.hypot(seat.se, seat.start_se)),
        ]
        for seat in solved.seats
    ]


def _plays_otherwise(seat) -> bool:
    """True when a seat's solved table differs from its start in a cell the deals reach."""
    return any(v.visits and not np.array_equal(seat.table[v.cell], seat.start_table[v.cell]) for v in seat.cells)


def decision_section(spec, solved, document) -> str:
    """One solved decision: how the sweeps ended, the grids, the values and the
    exploitability; returns its verdict sentence."""
    decision = solved.decision
    players = solved.players
    direction = "lower" if solved.lower_is_better else "higher"
    ending = {
        "fixed point": f"a fixed point after {solved.sweeps} sweeps (no cell's best response changed)",
        "cycle": f"a cycle of {solved.cycle} profiles, averaged (fictitious play) into the mixed table shown",
        "max sweeps": f"no fixed point within {solved.sweeps} sweeps; the last profile is shown",
    }.get(solved.stopped, solved.stopped)
    document.heading(3, f"{decision.name} ({players} players)")
    document.paragraph(
        f"{decision.help}. Solved by iterated best response over cells: each sweep plays {solved.deals:,} deals, "
        f"every visit of a seat to a cell replayed with each legal action on the same deals, and each seat's "
        f"table is replaced by its best response cell by cell (an action within two standard errors of the best "
        f"keeps its place). The sweeps ended at {ending}. Outcome: `{solved.outcome}` ({direction} is better). "
        f"In the grids, bold is the solved action and the number its margin over the best other action, on "
        f"{solved.measured:,} fresh deals; ≈ marks a tie, · a cell no deal reached. Standard rules "
        f"({rules_text(spec, spec.rules_type(*solved.rules))})."
    )
    for seats in _same_tables(solved):
        headers, rows = grid(decision, solved.seats[seats[0]].cells)
        document.paragraph(f"**{_seats_text(seats, players).capitalize()}**:")
        document.table(headers, rows)
    document.table(
        ["seat", f"{solved.outcome}, default field", f"{solved.outcome}, solved field", "difference"],
        _values_rows(solved),
    )
    document.paragraph(
        f"Exploitability (what per-cell best responses gain against the profile, summed over the seats, per "
        f"deal, in `{solved.outcome}`): the default policy {with_se(solved.start_exploitability, solved.start_exploitability_se)}; "
        f"the solved profile {with_se(solved.exploitability, solved.exploitability_se)} ({solved.measured:,} deals)."
    )
    changed = sum(_plays_otherwise(seat) for seat in solved.seats)
    return sentence(
        f"against good play in {spec.title}'s {decision.name} ({players} players), a field playing the default "
        f"leaves {with_se(solved.start_exploitability, solved.start_exploitability_se)} `{solved.outcome}` a deal on "
        f"the table (what best responses gain against it), the solved tables "
        f"{with_se(solved.exploitability, solved.exploitability_se)}; {changed} of {players} seats play otherwise than "
        f"the default ({ending.split(' (')[0]})."
    )


def solved_section(spec, count: int, seed: int, context, document, findings, players_list) -> dict[int, np.ndarray]:
    """The section for every table size in ``players_list``; returns the solved field's
    policy matrix by table size."""
    if not spec.tables:
        return {}
    document.heading(2, "Solved")
    document.paragraph(
        "Good play, cell by cell: for each decision a seat may play from a strategy table (`analyze solve`), "
        "the table every seat ends with when each keeps replacing its table by its best response to the "
        "others'. The decision guides below are drawn against this solved field as well as against the "
        "default policy."
    )
    fields = {}
    for players in players_list:
        context.stage(f"{spec.name}: solving at {players} players")
        policy, found = solve_field(spec, players, count, seed, context)
        fields[players] = policy
        for solved in found:
            findings.append((0, decision_section(spec, solved, document)))
    return fields


__all__ = ["solved_section", "solve_field", "grid", "entry_text"]
