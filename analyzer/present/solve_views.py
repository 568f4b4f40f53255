"""What a solve shows (``analyze solve``, ``ca.solve``): the ``--json`` object, the solved
tables as text grids (one per seat, like the decision guides' grids), the tidy rows of
``--out``'s CSV and the grid chart of a seat.  Reads a solve's result
(``analyzer.strategy.solve.Solved``) and its head-to-head records; plays no hand.

A grid's rows and columns are the decision's ``grid`` fields (default: the first field as
rows, the rest as columns); each entry is the action the cell plays (``=`` after it: a tie,
the best two actions within two standard errors, so the cell kept its action; ``mix``: a
mixed cell, listed under the grid; ``.``: a cell no deal reached; blank: no such cell).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from analyzer.present.text import with_se
from analyzer.present.views import policy_json, policy_lines, rules_json

if TYPE_CHECKING:
    from sims.core.table import TableDecision

UNREACHED = "."
TIE = "="


def _value(value: Any) -> str:
    return "none" if value is None else str(value)


def grid_axes(decision: TableDecision) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The fields (by index) drawn as rows and as columns."""
    names = decision.fields
    if decision.grid:
        rows, columns = decision.grid
        return tuple(names.index(name) for name in rows), tuple(names.index(name) for name in columns)
    return (0,), tuple(range(1, len(names)))


def grid_layout(decision: TableDecision) -> tuple[list[tuple], list[tuple], dict[tuple[int, int], int]]:
    """Row keys, column keys (field values, in the order the cells list them) and the cell
    at each (row, column)."""
    row_fields, column_fields = grid_axes(decision)
    rows: list[tuple] = []
    columns: list[tuple] = []
    at: dict[tuple[int, int], int] = {}
    for code, cell in enumerate(decision.cells):
        row = tuple(cell[i] for i in row_fields)
        column = tuple(cell[i] for i in column_fields)
        if row not in rows:
            rows.append(row)
        if column not in columns:
            columns.append(column)
        at[rows.index(row), columns.index(column)] = code
    return rows, columns, at


def key_text(key: tuple) -> str:
    return " ".join(_value(v) for v in key) if key else "-"


def axis_title(decision: TableDecision, fields: tuple[int, ...]) -> str:
    return " ".join(decision.fields[i] for i in fields) or "-"


def short_names(decision: TableDecision) -> list[str]:
    """Each action as a grid writes it: its name when every name is short, else the
    shortest distinct prefix (at least three letters)."""
    names = list(decision.actions)
    if max(len(name) for name in names) <= 6:
        return names
    for length in range(3, max(len(name) for name in names) + 1):
        cut = [name[:length] for name in names]
        if len(set(cut)) == len(cut):
            return cut
    return names


def entry_text(decision: TableDecision, verdict, row: np.ndarray, shorts: list[str]) -> str:
    """A cell of a grid: its action (``=`` for a tie, ``mix`` for a mix, ``.`` unreached)."""
    if verdict is not None and not verdict.visits:
        return UNREACHED
    chosen = [a for a, p in enumerate(row) if p > 0]
    if not chosen or row[0] < 0:
        return UNREACHED
    if len(chosen) > 1:
        return "mix"
    return shorts[chosen[0]] + (TIE if verdict is not None and verdict.tie else "")


def seat_grid(decision: TableDecision, seat) -> list[str]:
    """The text grid of one seat's solved table (``seat``: a ``SeatSolved``)."""
    rows, columns, at = grid_layout(decision)
    row_fields, column_fields = grid_axes(decision)
    shorts = short_names(decision)
    verdicts = {verdict.cell: verdict for verdict in seat.cells}
    texts = [
        [
            entry_text(decision, verdicts.get(at[r, c]), seat.table[at[r, c]], shorts) if (r, c) in at else ""
            for c in range(len(columns))
        ]
        for r in range(len(rows))
    ]
    row_labels = [key_text(row) for row in rows]
    column_labels = [key_text(column) for column in columns]
    corner = f"{axis_title(decision, row_fields)} \\ {axis_title(decision, column_fields)}"
    first = max(len(corner), *(len(label) for label in row_labels))
    widths = [max(len(label), *(len(texts[r][c]) for r in range(len(rows)))) for c, label in enumerate(column_labels)]
    lines = [f"  {corner:<{first}}  " + " ".join(f"{label:>{w}}" for label, w in zip(column_labels, widths))]
    for r, label in enumerate(row_labels):
        lines.append(f"  {label:<{first}}  " + " ".join(f"{texts[r][c]:>{w}}" for c, w in enumerate(widths)))
    mixed = [
        f"    {decision.cell_text(code)}: "
        + ", ".join(f"{decision.actions[a]} {p:.2f}" for a, p in enumerate(seat.table[code]) if p > 0)
        for code in range(decision.n_cells)
        if seat.table[code][0] >= 0 and (seat.table[code] > 0).sum() > 1
    ]
    if mixed:
        lines += ["  mixed cells:"] + mixed
    return [line.rstrip() for line in lines]


def _number(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


def cell_record(decision: TableDecision, cell: int, verdict, row: np.ndarray) -> dict:
    """A cell of a seat's table as the JSON contract has it (``verdict`` None: not
    measured, an interrupted solve's)."""
    from sims.core.table import action_json

    if verdict is None:
        measured: dict = dict.fromkeys(("margin", "margin_se", "reach", "visits", "tie", "means"))
    else:
        measured = {
            "margin": _number(verdict.margin),
            "margin_se": _number(verdict.margin_se),
            "reach": _number(verdict.reach),
            "visits": int(verdict.visits),
            "tie": bool(verdict.tie),
            "means": {
                decision.actions[a]: _number(float(m)) for a, m in enumerate(np.asarray(verdict.means, dtype=float))
            },
        }
    return {"cell": decision.cell_json(cell), "action": action_json(decision, row), **measured}


def solve_object(spec, table, solved, head_to_head, seed: int, asked: int, partial: bool, elapsed: float) -> dict:
    """The ``--json`` object of a solve (the issue's contract, then what else the text
    shows); its ``game``, ``decision``, ``players`` and ``seats[].table[].cell/action`` are
    also a table file: ``--table`` reads it back (each seat its own table)."""
    decision = solved.decision
    seats = []
    for seat in solved.seats:
        verdicts = {verdict.cell: verdict for verdict in seat.cells}
        rows = [
            cell_record(decision, cell, verdicts.get(cell), seat.table[cell])
            for cell in range(decision.n_cells)
            if seat.table[cell][0] >= 0  # a cell left out: the seat's policy decides there
        ]
        seats.append(
            {
                "seat": seat.seat,
                "value": _number(seat.value),
                "se": _number(seat.se),
                "start_value": _number(seat.start_value),
                "start_se": _number(seat.start_se),
                "table": rows,
            }
        )
    return {
        "game": spec.name,
        "decision": decision.name,
        "players": solved.players,
        "converged": bool(solved.converged),
        "cycle": solved.cycle,
        "sweeps": solved.sweeps,
        "deals": solved.deals,
        "seats": seats,
        "exploitability": _number(solved.exploitability),
        "exploitability_se": _number(solved.exploitability_se),
        "start": {
            "policy": solved.start_policy,
            "exploitability": _number(solved.start_exploitability),
            "exploitability_se": _number(solved.start_exploitability_se),
        },
        "head_to_head": head_to_head,
        "outcome": solved.outcome,
        "lower_is_better": bool(solved.lower_is_better),
        "stopped": solved.stopped,
        "changes": list(solved.changes),
        "measured": solved.measured,
        "seed": seed,
        "hands": asked,
        "rules": rules_json(spec, table.rules),
        "start_policy": policy_json(spec, table.policy, table.tables),
        "partial": partial,
        "elapsed_s": round(elapsed, 3),
    }


def stop_text(solved) -> str:
    """Why the sweeps ended, in words."""
    changes = ", ".join(str(n) for n in solved.changes)
    per = f" (cells changed per sweep: {changes})" if changes else ""
    sweeps = f"{solved.sweeps} sweep{'s' if solved.sweeps != 1 else ''}"
    if solved.stopped == "fixed point":
        return f"a fixed point after {sweeps}: no cell changed, a pure equilibrium in tables{per}"
    if solved.stopped == "cycle":
        return (
            f"a cycle of {solved.cycle} profiles after {sweeps}; the tables are its average by fictitious "
            f"play (mixed cells){per}"
        )
    if solved.stopped == "interrupted":
        return f"interrupted after {sweeps}; the tables are the last sweep's{per}"
    return f"the most sweeps ({sweeps}) without a fixed point or a cycle; the tables are the last sweep's{per}"


def render_solve(spec, table, solved, head_to_head, seed: int, partial: bool, elapsed: float) -> str:
    """What ``analyze solve`` prints."""
    decision = solved.decision
    better = "lower" if solved.lower_is_better else "higher"
    lines = [
        f"{spec.title}: {decision.name} solved by iterated best response over its cells, {solved.players} players; "
        f"{solved.deals:,} deals per sweep (seed {seed})",
        f"decision: {decision.help}",
    ]
    if partial:
        lines.append("PARTIAL: interrupted; the tables below are those of the sweeps finished, not measured")
    lines += [f"warning: {message}" for message in spec.warnings(spec.rules_type(*table.rules), table.players)]
    lines.append(
        "rules   "
        + (table.variant or "standard")
        + ": "
        + " ".join(f"{f.key}={f.value_text(code)}" for f, code in zip(spec.rules, table.rules))
    )
    lines += [
        "start   " + line[8:] if line.startswith("policy  ") else line
        for line in policy_lines(spec, table.policy, table.strategy, table.tables)
    ]
    lines += [f"stopped at {stop_text(solved)}", ""]
    lines.append(
        f"{solved.outcome} per deal ({better} is better), measured on {solved.measured:,} fresh deals; "
        "a grid entry is the action the seat plays in that cell (=: a tie, kept; .: never reached):"
    )
    by_seat = {record["seat"]: record for record in head_to_head or []}
    for seat in solved.seats:
        lines += ["", f"seat {seat.seat}: {_seat_line(seat, by_seat.get(seat.seat))}"]
        lines += seat_grid(decision, seat)
    lines += [
        "",
        "exploitability (what a per-cell best response of every seat gains against the profile, per deal, summed "
        "over seats; the response is the one the last sweep found, scored on the fresh deals, so near zero means "
        "no deviation worth more than the noise):",
        f"  solved profile: {with_se(solved.exploitability, solved.exploitability_se)}",
        f"  start profile ({solved.start_policy}): "
        f"{with_se(solved.start_exploitability, solved.start_exploitability_se)}",
    ]
    if head_to_head:
        lines.append(
            "head to head: each seat playing its solved table instead of its start policy, the others at the "
            f"start profile, on the same {head_to_head[0]['hands']:,} fresh deals (paired)"
        )
    lines.append(f"solved in {elapsed:.1f} s")
    return "\n".join(lines)


def _seat_line(seat, duel: dict | None) -> str:
    text = f"value {with_se(seat.value, seat.se)} (start {with_se(seat.start_value, seat.start_se)})"
    if duel is not None:
        text += (
            f"; its solved table less its start policy, head to head: "
            f"{with_se(duel['difference'], duel['se'], signed=True)}"
        )
    return text


def solve_rows(spec, solved) -> list[dict]:
    """One row per seat and cell: the tidy rows of the CSV (``seat``, each cell field,
    ``cell``, ``action``, ``margin``, ``margin_se``, ``reach``, ``visits``, ``tie``, then
    ``mean_<action>`` per action)."""
    from sims.core.table import action_text

    decision = solved.decision
    nan = float("nan")
    rows = []
    for seat in solved.seats:
        verdicts = {verdict.cell: verdict for verdict in seat.cells}
        for cell in range(decision.n_cells):
            verdict = verdicts.get(cell)
            row = {"seat": seat.seat}
            row.update({name: value for name, value in zip(decision.fields, decision.cells[cell])})
            row.update(
                {
                    "cell": decision.cell_text(cell),
                    "action": action_text(decision, seat.table[cell]),
                    "margin": nan if verdict is None else verdict.margin,
                    "margin_se": nan if verdict is None else verdict.margin_se,
                    "reach": nan if verdict is None else verdict.reach,
                    "visits": 0 if verdict is None else int(verdict.visits),
                    "tie": False if verdict is None else bool(verdict.tie),
                }
            )
            means = np.full(decision.n_actions, nan) if verdict is None else np.asarray(verdict.means, float)
            row.update({f"mean_{a}": float(m) for a, m in zip(decision.actions, means)})
            rows.append(row)
    return rows


def grid_chart(spec, solved, seat_number: int, ax=None):
    """A seat's solved table as a grid chart: each cell coloured by its action (grey a
    tie), labelled with its margin."""
    from analyzer.present.charts import guide_chart

    decision = solved.decision
    seat = next(s for s in solved.seats if s.seat == seat_number)
    rows, columns, at = grid_layout(decision)
    row_fields, column_fields = grid_axes(decision)
    verdicts = {verdict.cell: verdict for verdict in seat.cells}
    best: list[list] = []
    texts: list[list[str]] = []
    for r in range(len(rows)):
        best.append([])
        texts.append([])
        for c in range(len(columns)):
            code = at.get((r, c))
            verdict = verdicts.get(code) if code is not None else None
            row = seat.table[code] if code is not None else None
            if code is None or row is None or row[0] < 0 or verdict is None or not verdict.visits:
                best[r].append(None)
                texts[r].append("")
                continue
            chosen = [a for a, p in enumerate(row) if p > 0]
            best[r].append("tie" if verdict.tie or len(chosen) > 1 else decision.actions[chosen[0]])
            texts[r].append("mix" if len(chosen) > 1 else _margin_text(verdict.margin))
    title = (
        f"{spec.title}, {solved.players} players: seat {seat_number}'s solved {decision.name} table "
        f"(cell text: the margin over the next best action, in {solved.outcome})"
    )
    return guide_chart(
        [key_text(row) for row in rows],
        [key_text(column) for column in columns],
        best,
        texts,
        title,
        axis_title(decision, row_fields),
        axis_title(decision, column_fields),
        ax,
    )


def _margin_text(margin: float) -> str:
    return "" if not math.isfinite(margin) else f"{margin:.2g}"
