"""Fight for the Lead's strategy tables (sims.core.table): stay or drop, and the fight card.

* ``stay`` (a later hand, after the replacement): cells (aces, guarded kings, whether the
  seat won the fight); actions ``stay``, ``drop``.
* ``fight_card`` (after the deal): cells (aces, kings, the longest suit's length) of the
  four cards dealt; actions the four ways the policy field fight_card names, resolved on
  the hand: ``lowest``, ``highest``, ``highest-non-ace``, ``lowest-of-longest-suit``.

The package docstring ("Strategy tables") says why these cells are enough and why the
fight card's actions are these four.  Every action is legal in every cell.
"""

from __future__ import annotations

import numpy as np

from sims.core.table import TableDecision
from sims.games.fight_for_the_lead.rules import (
    FIGHT_CARD,
    FIGHT_HIGHEST,
    FIGHT_HIGHEST_NON_ACE,
    FIGHT_LOWEST,
    FIGHT_LOWEST_OF_LONGEST,
    STAY_MIN_STRENGTH,
    STAY_WITH_LEAD,
)

STAY, DROP = 0, 1  # the stay decision's actions, in draw order
STAY_DECISION, FIGHT_DECISION = 0, 1  # indices in TABLES
# What four cards can hold (every 4-card hand enumerated; a test checks these lists):
# (aces, guarded kings) for stay, (aces, kings, the longest suit's length) for the fight.
STAY_SHAPES = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (4, 0))
FIGHT_SHAPES = (
    (0, 0, 1), (0, 0, 2), (0, 0, 3), (0, 0, 4), (0, 1, 1), (0, 1, 2), (0, 1, 3), (0, 1, 4), (0, 2, 1), (0, 2, 2),
    (0, 2, 3), (0, 3, 1), (0, 3, 2), (0, 4, 1), (1, 0, 1), (1, 0, 2), (1, 0, 3), (1, 0, 4), (1, 1, 1), (1, 1, 2),
    (1, 1, 3), (1, 1, 4), (1, 2, 1), (1, 2, 2), (1, 2, 3), (1, 3, 1), (1, 3, 2), (2, 0, 1), (2, 0, 2), (2, 0, 3),
    (2, 1, 1), (2, 1, 2), (2, 1, 3), (2, 2, 1), (2, 2, 2), (3, 0, 1), (3, 0, 2), (3, 1, 1), (3, 1, 2), (4, 0, 1),
)  # fmt: skip
STAY_CELLS = tuple((str(aces), str(guarded), lead) for aces, guarded in STAY_SHAPES for lead in ("no", "yes"))
FIGHT_CELLS = tuple((str(aces), str(kings), str(longest)) for aces, kings, longest in FIGHT_SHAPES)
FIGHT_ACTIONS = ("lowest", "highest", "highest-non-ace", "lowest-of-longest-suit")  # the fight_card codes
assert (FIGHT_LOWEST, FIGHT_HIGHEST, FIGHT_HIGHEST_NON_ACE, FIGHT_LOWEST_OF_LONGEST) == (0, 1, 2, 3)

# Cell codes by shape, for the kernel (-1: no hand has that shape):
# STAY_CELL_OF[aces * 3 + guarded kings] * 2 + won the fight, FIGHT_CELL_OF[(aces * 5 + kings) * 5 + longest].
STAY_CELL_OF = np.full(15, -1, dtype=np.int64)
for _code, (_aces, _guarded) in enumerate(STAY_SHAPES):
    STAY_CELL_OF[_aces * 3 + _guarded] = _code
FIGHT_CELL_OF = np.full(125, -1, dtype=np.int64)
for _code, (_aces, _kings, _longest) in enumerate(FIGHT_SHAPES):
    FIGHT_CELL_OF[(_aces * 5 + _kings) * 5 + _longest] = _code


def stay_cell(aces: int, guarded_kings: int, won_fight: bool) -> int:
    """The stay cell of a hand with ``aces`` aces and ``guarded_kings`` guarded kings."""
    return int(STAY_CELL_OF[aces * 3 + guarded_kings]) * 2 + int(bool(won_fight))


def fight_cell(aces: int, kings: int, longest: int) -> int:
    """The fight_card cell of four cards dealt: ``aces``, ``kings``, the longest suit's length."""
    return int(FIGHT_CELL_OF[(aces * 5 + kings) * 5 + longest])


def _plural(count: str, word: str) -> str:
    return f"{count} {word}" + ("" if count == "1" else "s")


def _describe_stay(cell: tuple) -> str:
    aces, guarded, lead = cell
    won = "you won the fight" if lead == "yes" else "another seat won the fight"
    return f"a later hand, holding {_plural(aces, 'ace')} and {_plural(guarded, 'guarded king')}; {won}"


def _describe_fight(cell: tuple) -> str:
    aces, kings, longest = cell
    return f"dealt {_plural(aces, 'ace')} and {_plural(kings, 'king')}, the longest suit {longest} long"


TABLES = (
    TableDecision(
        name="stay",
        help="a later hand, after the replacement: stay in and play, or drop",
        fields=("aces", "guarded_kings", "lead"),
        cells=STAY_CELLS,
        actions=("stay", "drop"),
        describe=_describe_stay,
        aliases={"play": "stay"},
        grid=(("aces", "guarded_kings"), ("lead",)),
    ),
    TableDecision(
        name="fight_card",
        help="after the deal: which card to lay down in the fight, as the policy field fight_card names it",
        fields=("aces", "kings", "longest"),
        cells=FIGHT_CELLS,
        actions=FIGHT_ACTIONS,
        describe=_describe_fight,
        aliases={"lowest-of-longest": "lowest-of-longest-suit"},
        grid=(("aces", "kings"), ("longest",)),
    ),
)

SOLVE_OUTCOME = "net"  # hand mode's headline: chips won from the pot minus chips paid
SOLVE_LOWER_IS_BETTER = False
SOLVE_SCALE = 1


def policy_table(rules, policy_row, seat: int, n_seats: int, decision_name: str) -> np.ndarray:
    """The seat's policy fields as a table of ``decision_name``: stay when the strength
    score (2 per ace + 1 per guarded king) reaches stay_min_strength or, with
    stay_with_lead, when the seat won the fight; the fight card's field in every cell."""
    if decision_name == "fight_card":
        table = np.zeros((len(FIGHT_CELLS), len(FIGHT_ACTIONS)))
        table[:, int(policy_row[FIGHT_CARD])] = 1.0
        return table
    table = np.zeros((len(STAY_CELLS), 2))
    for code, (aces, guarded, lead) in enumerate(STAY_CELLS):
        strong = 2 * int(aces) + int(guarded) >= policy_row[STAY_MIN_STRENGTH]
        stays = strong or (policy_row[STAY_WITH_LEAD] != 0 and lead == "yes")
        table[code, STAY if stays else DROP] = 1.0
    return table
