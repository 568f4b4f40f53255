"""Strategy table files (:mod:`sims.core.table` says what a table is).

Files (read by ``--table FILE``, ``--seat S:table=FILE`` and ``Table.load``): CSV, one row
per cell: ``game, decision, seat, <cell fields>, action, description`` (``seat`` a number
or ``all``; an empty cell field is none; ``action`` one action, or a mix
``swap:0.25 keep:0.75``); or JSON ``{"game", "decision", "players", "seats": [{"seat",
"table": [{"cell": {...}, "action": "swap" | {"swap": 0.25, "keep": 0.75}}]}]}``, which is
also the shape ``analyze solve --json`` writes (extra keys are ignored).
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from sims.core.table import ALL, TableDecision, action_json, action_text, left_out


@dataclass
class Table:
    """A table as a file gives it: one decision of one game, rows for every seat
    (``seats[ALL]``) and for single seats (``seats[s]``), each mapping a cell (its field
    values) to action probabilities by name.  :meth:`load` reads a file's syntax;
    :meth:`check` reads its cells and actions against the game's declaration."""

    game: str
    decision: str
    seats: dict[Any, dict[tuple, dict[str, float]]]
    players: int | None = None
    source: str = "the table"

    @classmethod
    def load(cls, path: str | Path) -> "Table":
        """Read a CSV or JSON table file and check it against its game (``ValueError``
        with one sentence for a missing, malformed or wrong file)."""
        path = Path(path)
        name = path.name
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as problem:
            raise ValueError(f"cannot read the table file {name}: {problem.strerror or problem}.") from None
        table = cls.parse(text, name, json_format=path.suffix.lower() == ".json" or text.lstrip().startswith("{"))
        table.check()
        return table

    @classmethod
    def parse(cls, text: str, source: str = "the table", json_format: bool = False) -> "Table":
        return _parse_json(text, source) if json_format else _parse_csv(text, source)

    def declaration(self):
        """``(spec, TableDecision)`` of this table's game and decision."""
        from sims.registry import GAMES

        if self.game not in GAMES:
            raise ValueError(f"{self.source}: unknown game '{self.game}'; the games are: {', '.join(GAMES)}.")
        spec = GAMES[self.game]
        decisions = spec.table_decisions()
        for decision in decisions:
            if decision.name == self.decision:
                return spec, decision
        names = ", ".join(d.name for d in decisions) or "none"
        raise ValueError(
            f"{self.source}: {self.game} has no table decision '{self.decision}'; its decisions are: {names}."
        )

    def check(self) -> None:
        """Every cell known, every action legal in its cell, probabilities summing to 1."""
        _, decision = self.declaration()
        self.probabilities(decision)

    def probabilities(self, decision: TableDecision, seat: int | None = None) -> np.ndarray:
        """The ``[cells, actions]`` array for ``seat``: its own rows over the rows for
        every seat (``seat`` None: the rows for every seat only)."""
        index = decision.cell_index()
        out = left_out(decision)
        layers = [self.seats.get(ALL, {})] + ([self.seats.get(seat, {})] if seat is not None else [])
        for rows in layers:
            for cell, mix in rows.items():
                if cell not in index:
                    shown = " ".join(f"{k}={'-' if v is None else v}" for k, v in zip(decision.fields, cell))
                    raise ValueError(f"{self.source}: no cell {shown} in {self.game} {decision.name}.")
                code = index[cell]
                row = np.zeros(decision.n_actions)
                for action, p in mix.items():
                    a = decision.action_of(action) if isinstance(action, str) else int(action)
                    if a not in decision.legal_actions(code):
                        raise ValueError(
                            f"{self.source}: {decision.actions[a]} is not allowed in cell {decision.cell_text(code)}."
                        )
                    row[a] += p
                if not math.isclose(row.sum(), 1.0, abs_tol=1e-9) or (row < 0).any():
                    raise ValueError(
                        f"{self.source}: the probabilities of cell {decision.cell_text(code)} must be >= 0 and sum to 1."
                    )
                out[code] = row
        return out

    def seats_named(self) -> list[int]:
        return sorted(seat for seat in self.seats if seat != ALL)

    def for_seat(self, seat: int) -> np.ndarray:
        _, decision = self.declaration()
        return self.probabilities(decision, seat)


def _cell_key(source: str, fields: Sequence[str], cell: Mapping[str, Any], where: str) -> tuple:
    if not isinstance(cell, Mapping):
        raise ValueError(f"{source}: {where}: a cell is an object of {', '.join(fields)}.")
    unknown = [key for key in cell if key not in fields]
    if unknown:
        raise ValueError(f"{source}: {where}: unknown cell field '{unknown[0]}'; the fields are: {', '.join(fields)}.")
    return tuple(None if cell.get(key) in (None, "", "-") else str(cell.get(key)) for key in fields)


def _mix(source: str, value: Any, where: str) -> dict[str, float]:
    """An action (``"swap"``), a mix as text (``"swap:0.25 keep:0.75"``) or as a mapping."""
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, str) and value.strip():
        parts = value.replace(",", " ").split()
        if len(parts) == 1 and ":" not in parts[0]:
            return {parts[0]: 1.0}
        items = []
        for part in parts:
            action, _, p = part.partition(":")
            items.append((action, p))
    else:
        raise ValueError(f"{source}: {where}: no action.")
    mix: dict[str, float] = {}
    for action, p in items:
        try:
            number = float(p)
        except (TypeError, ValueError):
            raise ValueError(f"{source}: {where}: '{p}' is no probability for {action}.") from None
        if not math.isfinite(number):
            raise ValueError(f"{source}: {where}: '{p}' is no probability for {action}.")
        mix[str(action)] = mix.get(str(action), 0.0) + number
    return mix


def _seat(source: str, value: Any, where: str):
    text = str(value).strip().lower() if value is not None else ALL
    if text in ("", ALL, "*"):
        return ALL
    try:
        seat = int(text)
    except ValueError:
        raise ValueError(f"{source}: {where}: seat is a number or 'all', not '{value}'.") from None
    if seat < 0:
        raise ValueError(f"{source}: {where}: seat is a number or 'all', not '{value}'.")
    return seat


def _decision_fields(source: str, game: str, decision: str) -> tuple[str, ...]:
    table = Table(game, decision, {}, source=source)
    return table.declaration()[1].fields


def _parse_json(text: str, source: str) -> Table:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as problem:
        raise ValueError(f"{source} is not valid JSON (line {problem.lineno}: {problem.msg}).") from None
    if not isinstance(data, dict) or "game" not in data or "decision" not in data or "seats" not in data:
        raise ValueError(f'{source}: a JSON table is an object with "game", "decision" and "seats".')
    game, decision = str(data["game"]), str(data["decision"])
    fields = _decision_fields(source, game, decision)
    seats: dict[Any, dict[tuple, dict[str, float]]] = {}
    if not isinstance(data["seats"], list):
        raise ValueError(f'{source}: "seats" is a list of {{"seat", "table"}}.')
    for i, entry in enumerate(data["seats"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("table"), list):
            raise ValueError(f'{source}: seats[{i}] is an object with "seat" and a "table" list.')
        seat = _seat(source, entry.get("seat"), f"seats[{i}]")
        rows = seats.setdefault(seat, {})
        for j, row in enumerate(entry["table"]):
            where = f"seats[{i}].table[{j}]"
            if not isinstance(row, dict) or "cell" not in row or "action" not in row:
                raise ValueError(f'{source}: {where} is an object with "cell" and "action".')
            key = _cell_key(source, fields, row["cell"], where)
            if key in rows:
                raise ValueError(f"{source}: {where} repeats a cell.")
            rows[key] = _mix(source, row["action"], where)
    players = data.get("players")
    return Table(game, decision, seats, int(players) if isinstance(players, int) else None, source)


def _parse_csv(text: str, source: str) -> Table:
    reader = csv.DictReader(io.StringIO(text))
    header = [name.strip() for name in (reader.fieldnames or [])]
    needed = ("game", "decision", "action")
    if any(name not in header for name in needed):
        raise ValueError(f"{source}: a CSV table needs the columns game, decision, seat, the cell's fields and action.")
    game = decision = None
    fields: tuple[str, ...] = ()
    seats: dict[Any, dict[tuple, dict[str, float]]] = {}
    for line, row in enumerate(reader, start=2):
        row = {(k or "").strip(): (v or "").strip() for k, v in row.items() if k is not None}
        if not any(row.values()):
            continue
        where = f"line {line}"
        if game is None:
            game, decision = row["game"], row["decision"]
            fields = _decision_fields(source, game, decision)
            missing = [name for name in fields if name not in header]
            if missing:
                raise ValueError(f"{source}: no column {missing[0]} (the cell fields are: {', '.join(fields)}).")
        elif (row["game"], row["decision"]) != (game, decision):
            raise ValueError(f"{source}: {where} is for {row['game']} {row['decision']}, not {game} {decision}.")
        extra = [name for name in header if name not in (*needed, "seat", "description", *fields)]
        if extra:
            raise ValueError(f"{source}: unknown column {extra[0]}; the cell fields are: {', '.join(fields)}.")
        seat = _seat(source, row.get("seat"), where)
        key = _cell_key(source, fields, {name: row.get(name) for name in fields}, where)
        rows = seats.setdefault(seat, {})
        if key in rows:
            raise ValueError(f"{source}: {where} repeats a cell.")
        rows[key] = _mix(source, row["action"], where)
    if game is None:
        raise ValueError(f"{source} has no rows.")
    return Table(game, str(decision), seats, None, source)


def write_csv(game: str, decision: TableDecision, tables: Mapping[Any, np.ndarray]) -> str:
    """CSV text of tables by seat (``ALL`` or a number), cells left out skipped."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["game", "decision", "seat", *decision.fields, "action", "description"])
    for seat, probabilities in tables.items():
        for cell in range(decision.n_cells):
            if probabilities[cell][0] < 0:
                continue
            values = ["" if v is None else v for v in decision.cells[cell]]
            writer.writerow(
                [
                    game,
                    decision.name,
                    seat,
                    *values,
                    action_text(decision, probabilities[cell]),
                    decision.describe(decision.cells[cell]),
                ]
            )
    return out.getvalue()


def write_json(
    game: str, decision: TableDecision, tables: Mapping[Any, np.ndarray], players: int | None = None
) -> dict:
    """The JSON object of tables by seat (the shape :meth:`Table.load` reads)."""
    seats = []
    for seat, probabilities in tables.items():
        rows = [
            {"cell": decision.cell_json(cell), "action": action_json(decision, probabilities[cell])}
            for cell in range(decision.n_cells)
            if probabilities[cell][0] >= 0
        ]
        seats.append({"seat": seat, "table": rows})
    return {"game": game, "decision": decision.name, "players": players, "seats": seats}
