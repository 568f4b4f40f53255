"""A decision guide: the table a player would pin on the wall, built on advice.

A game's ``guide.py`` (``sims/games/<game>/guide.py``) declares ``GUIDES``, a tuple of
:class:`Guide`.  A guide is a grid of situations, rows by columns; every cell is one
seat's position, holding and context exactly as ``analyze advise`` takes them (the
``--position``, ``--holding`` and ``--context`` options).  A strategy report plays every
cell with all its candidate actions on the same deals of the unseen cards, under the
game's standard rules and default policy at the guide's table size, and shows in each
cell the best action and by how much it beats the runner-up (the paired difference
± its standard error), or a tie.

Modules named ``guide.py`` hold declarations only: no kernel reads them, so the hash that
keys the kernel cache (:func:`sims.source_hash`) leaves them out, and editing a guide
never recompiles a kernel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping


@dataclass(frozen=True)
class Cell:
    """One situation of a guide, as ``analyze advise`` takes it: ``--position``,
    ``--holding`` (cards text such as ``"6h"`` or ``"Ac 5d 10h"``) and ``--context``
    (KEY=VALUE pairs)."""

    position: int
    holding: str
    context: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Guide:
    """A grid of situations of one decision.

    ``name``: a short file-safe id (``"swap-8"``), used for the chart's file name.
    ``title``: the section heading ("Swap or keep, 8 players: by seat and card held").
    ``text``: one paragraph saying what the rows and columns are and what every cell
    has in common (what the player has seen, what the others play).
    ``row_title`` / ``column_title``: what the row and column labels are.
    ``columns``: the column labels; ``rows``: ``(label, cells)`` with one :class:`Cell`
    (or ``None``: nothing to ask there) per column.
    ``players``: the table size (``None``: the game's default).
    ``deals``: accepted deals per cell in a report made with ``--hands 1e6`` (a report
    scales it with ``--hands``); pick it so the whole guide plays in about a minute on
    2 cores.
    ``verdict``: how the report's one-sentence verdict opens ("From seat 0 with 8
    players"); the sentence then lists, along the row ``lead_row``, which action is best
    for which columns, and the closest call with its number and error.
    ``actions``: optional shorter names of actions for the cells (action text -> name).
    ``also``: optional name of another of the decision's outcomes whose value for the
    best action each cell shows too (Five Hundred's make rate of the best bid).
    """

    name: str
    title: str
    text: str
    row_title: str
    column_title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[Cell | None, ...]], ...]
    players: int | None = None
    deals: int = 20_000
    verdict: str = ""
    lead_row: int = 0
    actions: Mapping[str, str] = field(default_factory=dict)
    also: str = ""

    def __post_init__(self):
        for label, cells in self.rows:
            if len(cells) != len(self.columns):
                raise ValueError(
                    f"guide {self.name}: row {label} has {len(cells)} cells for {len(self.columns)} columns."
                )
        if not 0 <= self.lead_row < len(self.rows):
            raise ValueError(f"guide {self.name}: lead_row {self.lead_row} is not a row.")

    def cells(self):
        """Every ``(row, column, cell)`` that asks something."""
        for r, (_, cells) in enumerate(self.rows):
            for c, cell in enumerate(cells):
                if cell is not None:
                    yield r, c, cell

    def short(self, action: str) -> str:
        return self.actions.get(action, action)
