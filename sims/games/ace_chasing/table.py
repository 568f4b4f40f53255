"""Ace Chasing's strategy tables (sims.core.table): the swap chain's two decisions.

* ``swap``: a seat before the matador's right keeps its card or swaps it with its
  left-hand neighbour;
* ``matador_right``: the seat on the matador's right keeps its card or swaps it with the
  matador.

Both share one set of cells: the rank the seat holds at its turn, and, when its
right-hand neighbour swapped with it, the rank it gave (its dealt card).  The package
docstring ("Strategy tables") says why that is enough.  Actions, in draw order: ``swap``,
``keep`` (a file may also write ``pass`` for swap).  Every action is legal in every cell
(with king_block a swap is a request a king may refuse, as the policy's is).
"""

from __future__ import annotations

import numpy as np

from sims.core.cards import FACES
from sims.core.table import TableDecision
from sims.games.ace_chasing.rules import ACE_RANK, ACE_SWAP, MATADOR_RIGHT_THRESHOLD, THRESHOLD

N_RANKS = 13
GAVE_NONE = N_RANKS  # the gave index of "nobody swapped with the seat"
N_CELLS = N_RANKS + N_RANKS * N_RANKS
SWAP, KEEP = 0, 1  # action codes, in draw order
ACTIONS = ("swap", "keep")
SWAP_DECISION, MATADOR_RIGHT_DECISION = 0, 1  # indices in TABLES


def cell_of(held: int, gave: int) -> int:
    """The cell of a seat holding rank ``held`` (0 = A .. 12 = K) at its turn, having
    given rank ``gave`` to its right-hand neighbour's swap (``GAVE_NONE``: nobody swapped
    with it).  The cells without a swap from the right come first, in rank order; then
    one block of 13 per rank given."""
    return held if gave == GAVE_NONE else N_RANKS + N_RANKS * gave + held


CELLS = tuple((FACES[held], None) for held in range(N_RANKS)) + tuple(
    (FACES[held], FACES[gave]) for gave in range(N_RANKS) for held in range(N_RANKS)
)


def _describe(whose: str):
    def describe(cell: tuple) -> str:
        held, gave = cell
        if gave is None:
            return f"{whose} holding your dealt {held} (nobody swapped with you)"
        return f"{whose} holding a {held} from your right-hand neighbour, who took your {gave}"

    return describe


TABLES = (
    TableDecision(
        name="swap",
        help="a seat before the matador's right: keep your card or swap it with your left-hand neighbour",
        fields=("held", "gave"),
        cells=CELLS,
        actions=ACTIONS,
        describe=_describe("before the matador's right,"),
        aliases={"pass": "swap"},
        grid=(("held",), ("gave",)),
    ),
    TableDecision(
        name="matador_right",
        help="the seat on the matador's right: keep your card or swap it with the matador's",
        fields=("held", "gave"),
        cells=CELLS,
        actions=ACTIONS,
        describe=_describe("on the matador's right,"),
        aliases={"pass": "swap"},
        grid=(("held",), ("gave",)),
    ),
)

SOLVE_OUTCOME = "exposed"  # hand mode's headline: the seat is exposed (eliminated) this round
SOLVE_LOWER_IS_BETTER = True
SOLVE_SCALE = 1


def policy_swaps(policy_row, decision: int, held: int) -> bool:
    """Whether the policy fields of ``policy_row`` swap a card of rank ``held`` at the
    decision ``decision`` (the package docstring, step 2)."""
    field = MATADOR_RIGHT_THRESHOLD if decision == MATADOR_RIGHT_DECISION else THRESHOLD
    return (policy_row[ACE_SWAP] != 0 and held == ACE_RANK) or held + 1 <= policy_row[field]


def policy_table(rules, policy_row, seat: int, n_seats: int, decision_name: str) -> np.ndarray:
    """The seat's policy fields as a table of ``decision_name``: the policy looks at the
    rank held only, so every cell of a rank holds the same action."""
    decision = [d.name for d in TABLES].index(decision_name)
    table = np.zeros((N_CELLS, len(ACTIONS)))
    for gave in range(N_RANKS + 1):
        for held in range(N_RANKS):
            table[cell_of(held, gave), SWAP if policy_swaps(policy_row, decision, held) else KEEP] = 1.0
    return table
