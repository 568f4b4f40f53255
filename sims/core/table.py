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

Their files are read and written by :mod:`sims.table_files`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
