"""Fan Tan's strategy tables: the decision "play" (package docstring, Strategy tables).

Reading this module stays quick (no Numba): the solve kernel (``table_kernel.py``) is
imported by ``SPEC.solve_kernel()`` when a solve needs it.
"""

from __future__ import annotations

import numpy as np

from sims.core.table import TableDecision, pure
from sims.games.fan_tan.rules import (
    N_PLAY_CELLS,
    PASS_WITH_SEVENS,
    PLAY_ACTIONS,
    PLAY_CELL_FIELDS,
    PLAY_CELL_MAY_PASS,
    PLAY_CELLS,
    STYLE,
    policy_play_action,
)

SOLVE_OUTCOME = "net"  # the hand-mode headline: chips won per deal
SOLVE_LOWER_IS_BETTER = False
SOLVE_SCALE = 1

_STYLES_MASK = (1 << (len(PLAY_ACTIONS) - 1)) - 1
_SEVENS_WORDS = {"none": "no seven among them", "some": "some of them sevens", "all": "all of them sevens"}


def describe_play_cell(cell: tuple) -> str:
    """A play cell in words (files and grids)."""
    may_pass, legal, sevens, cards, fewest = cell
    count = "one legal card" if legal == "1" else f"{legal} legal cards"
    seven = ("a seven" if sevens == "all" else "no seven") if legal == "1" else _SEVENS_WORDS[sevens]
    passing = "a pass allowed" if may_pass == "yes" else "no pass allowed"
    return f"{count} ({seven}), {cards} cards in hand, the shortest other hand {fewest} cards, {passing}"


PLAY = TableDecision(
    name="play",
    help="which legal card to play at the seat's turn: a style of choosing it (first, random, hold-sevens, "
    "block, greedy-unlock), or with may_pass_when_able a voluntary pass, by the legal cards, the seat's "
    "cards left and the shortest other hand",
    fields=PLAY_CELL_FIELDS,
    cells=PLAY_CELLS,
    actions=PLAY_ACTIONS,
    describe=describe_play_cell,
    legal=tuple(_STYLES_MASK | (1 << (len(PLAY_ACTIONS) - 1)) if may else _STYLES_MASK for may in PLAY_CELL_MAY_PASS),
    aliases={"hold": "pass", "hold_sevens": "hold-sevens", "greedy": "greedy-unlock", "greedy_unlock": "greedy-unlock"},
    grid=(("may_pass", "legal", "sevens"), ("cards", "fewest_other")),
)
TABLES = (PLAY,)


def policy_table(rules, policy_row, seat: int, n_seats: int, decision_name: str) -> np.ndarray:
    """The seat's policy fields written as a play table (``[cells, actions]``): in every
    cell its style, or the pass where pass_with_sevens passes (a pass allowed and every
    legal card a seven).  Playing it gives the policy's sums bit for bit."""
    if decision_name != PLAY.name:
        raise ValueError(f"fan-tan has no table decision '{decision_name}'; its decision is: play.")
    style, holds = int(policy_row[STYLE]), int(policy_row[PASS_WITH_SEVENS])
    return pure(PLAY, [policy_play_action(style, holds, cell) for cell in range(N_PLAY_CELLS)])
