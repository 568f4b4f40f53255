"""Strategy tables: a seat's decision played from a chart (situation -> action).

A game declares the decisions a seat may play from a table in its ``table.py``
(``TABLES``, a tuple of :class:`TableDecision`).  A decision's *cells* classify what the
seat knows at that moment (Chase the Ace: the rank held, and after a swap from the right
the rank given); the kernel computes the cell at the decision (its twin in Python the same)
and looks the action up.  The cells and the actions each cell allows are fixed by the
declaration: every cell's legal actions are the same wherever it is reached.

A table maps cells to an action, or to a mix of actions (probabilities); a cell the table
leaves out falls back to the seat's policy fields.  Tables travel inside the policy matrix,
so every kernel, the engine, the result store and clusters take them with no new argument:
a seat's row is its policy fields, then, when any seat plays a table, for each of the
game's table decisions in order a *block*: one flag (1.0 when the seat plays this decision
from its table) and ``cells x actions`` probabilities, row by cell (a cell left out holds
-1 in every entry).  A matrix of the policy fields alone (no table anywhere) is today's
policy, bit for bit.

Mixed cells draw one uniform ``u`` from the hand's own stream and take the first action,
in the declared order, whose cumulative probability exceeds ``u`` (a cell with an action of
probability 1 draws nothing): the rule today's mixed policy fields follow, so a policy
written as a table plays the same hands.

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

ALL = "all"  # the seat of rows that apply to every seat
LEFT_OUT = -1.0  # every entry of a cell the table leaves out (the seat's policy decides)


def solve_stats_width(n_actions: int) -> int:
    """Entries per (seat, cell) of a solve kernel's sums: visits, then per action the
    sum and the sum of squares of the seat's outcome, then the products of every two
    actions' outcomes (``a * n_actions + b``), summed over the visits."""
    return 1 + 2 * n_actions + n_actions * n_actions


@dataclass(frozen=True)
class TableDecision:
    """One decision a seat may play from a table.

    ``fields`` name what a cell holds (Chase the Ace: ``held``, ``gave``); ``cells`` list
    every cell as a tuple of field values (text, or None), the cell's code being its index;
    ``actions`` the action names in draw order; ``legal`` a bit mask per cell of the
    actions it allows (empty: all, everywhere); ``describe`` a sentence per cell (as a
    user reads it in a file or a grid); ``aliases`` other spellings of actions a file may
    use (``cut`` for ``swap``); ``grid`` the fields drawn as rows and as columns of a
    grid (default: the first field as rows, the rest as columns)."""

    name: str
    help: str
    fields: tuple[str, ...]
    cells: tuple[tuple, ...]
    actions: tuple[str, ...]
    describe: Callable[[tuple], str]
    legal: tuple[int, ...] = ()
    aliases: Mapping[str, str] = field(default_factory=dict)
    grid: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def __post_init__(self):
        if len(set(self.cells)) != len(self.cells):
            raise ValueError(f"table decision {self.name} lists a cell twice.")
        if self.legal and len(self.legal) != len(self.cells):
            raise ValueError(f"table decision {self.name}: one legal mask per cell.")

    @property
    def n_cells(self) -> int:
        return len(self.cells)

    @property
    def n_actions(self) -> int:
        return len(self.actions)

    @property
    def block_width(self) -> int:
        """Entries of this decision's block in a seat's policy row."""
        return 1 + self.n_cells * self.n_actions

    def legal_actions(self, cell: int) -> tuple[int, ...]:
        mask = self.legal[cell] if self.legal else (1 << self.n_actions) - 1
        return tuple(a for a in range(self.n_actions) if mask >> a & 1)

    def cell_index(self) -> dict[tuple, int]:
        return {cell: i for i, cell in enumerate(self.cells)}

    def cell_json(self, cell: int) -> dict[str, Any]:
        return dict(zip(self.fields, self.cells[cell]))

    def cell_text(self, cell: int) -> str:
        return " ".join(f"{key}={'-' if value is None else value}" for key, value in zip(self.fields, self.cells[cell]))

    def action_of(self, text: str) -> int:
        """The index of an action name (or alias); ``ValueError`` naming the actions otherwise."""
        name = self.aliases.get(text.strip().lower(), text.strip().lower())
        if name not in self.actions:
            raise ValueError(f"'{text}' is no action of {self.name}; the actions are: {', '.join(self.actions)}.")
        return self.actions.index(name)


def table_width(decisions: Sequence[TableDecision]) -> int:
    """Entries the table blocks add to a seat's policy row."""
    return sum(decision.block_width for decision in decisions)


def block_offset(n_fields: int, decisions: Sequence[TableDecision], name: str) -> int:
    """Where decision ``name``'s block starts in a seat's policy row (its flag)."""
    at = n_fields
    for decision in decisions:
        if decision.name == name:
            return at
        at += decision.block_width
    raise ValueError(f"no table decision {name}.")


def left_out(decision: TableDecision) -> np.ndarray:
    """A table of ``decision`` with every cell left out (``[cells, actions]`` of -1)."""
    return np.full((decision.n_cells, decision.n_actions), LEFT_OUT)


def with_tables(
    policy: np.ndarray,
    n_fields: int,
    decisions: Sequence[TableDecision],
    tables: Mapping[int, Mapping[str, np.ndarray]],
) -> np.ndarray:
    """The policy matrix widened with table blocks: ``tables[seat][decision]`` is a
    ``[cells, actions]`` array of probabilities (rows of -1 for cells left out).  Without
    any table the matrix is returned as it is (today's policy, bit for bit)."""
    policy = np.ascontiguousarray(np.asarray(policy, dtype=np.float64)[:, :n_fields])
    if not any(tables.values()):
        return policy
    blocks = np.zeros((policy.shape[0], table_width(decisions)))
    for seat, chosen in tables.items():
        at = 0
        for decision in decisions:
            probabilities = chosen.get(decision.name)
            if probabilities is not None:
                probabilities = np.asarray(probabilities, dtype=np.float64)
                if probabilities.shape != (decision.n_cells, decision.n_actions):
                    raise ValueError(
                        f"a {decision.name} table has {decision.n_cells} cells of {decision.n_actions} actions."
                    )
                blocks[seat, at] = 1.0
                blocks[seat, at + 1 : at + decision.block_width] = probabilities.ravel()
            at += decision.block_width
    return np.ascontiguousarray(np.hstack([policy, blocks]))


def tables_of(
    policy: np.ndarray, n_fields: int, decisions: Sequence[TableDecision]
) -> dict[int, dict[str, np.ndarray]]:
    """The tables a widened policy matrix carries, by seat and decision (the inverse of
    :func:`with_tables`)."""
    policy = np.asarray(policy, dtype=np.float64)
    found: dict[int, dict[str, np.ndarray]] = {}
    if policy.shape[1] == n_fields:
        return found
    for seat in range(policy.shape[0]):
        at = n_fields
        for decision in decisions:
            if policy[seat, at] > 0.5:
                block = policy[seat, at + 1 : at + decision.block_width]
                found.setdefault(seat, {})[decision.name] = block.reshape(decision.n_cells, decision.n_actions).copy()
            at += decision.block_width
    return found


def pure(decision: TableDecision, actions: Sequence[int]) -> np.ndarray:
    """A table playing action ``actions[c]`` in cell ``c`` (-1: left out)."""
    probabilities = left_out(decision)
    for cell, action in enumerate(actions):
        if action >= 0:
            probabilities[cell] = 0.0
            probabilities[cell, action] = 1.0
    return probabilities


# ---------------------------------------------------------------- files


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


def action_text(decision: TableDecision, probabilities: np.ndarray) -> str:
    """A cell's action as a file writes it: the action, or a mix ``swap:0.25 keep:0.75``."""
    probabilities = np.asarray(probabilities)
    if probabilities[0] < 0:
        return ""
    chosen = [(a, p) for a, p in enumerate(probabilities) if p > 0]
    if len(chosen) == 1:
        return decision.actions[chosen[0][0]]
    return " ".join(f"{decision.actions[a]}:{p:.6g}" for a, p in chosen)


def action_json(decision: TableDecision, probabilities: np.ndarray):
    chosen = [(a, float(p)) for a, p in enumerate(np.asarray(probabilities)) if p > 0]
    if len(chosen) == 1:
        return decision.actions[chosen[0][0]]
    return {decision.actions[a]: p for a, p in chosen}


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
