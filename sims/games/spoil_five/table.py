"""Spoil Five: the strategy-table decisions ``rob`` and ``jinx`` (sims.core.table), each
seat's policy written as a table, and the solve kernel (see the package docstring's
"Strategy tables").

``rob``: actions ``rob``, ``keep`` (draw order: the bold action first in both decisions,
as Chase the Ace's ``swap``, ``keep``).  Cells (codes as declared):
  0 .. 5          ``("A", trumps, "dealer")``: the turn-up is an ace, the dealer decides;
                  ``trumps`` 0..5 trumps among its five cards.
  6 + 3 * (5 * k + t - 1) + r
                  ``(turnup, trumps, role)``: the seat was dealt the ace of trumps (the
                  turn-up is not an ace); ``k`` the turn-up's class (5, J, KQ, mid, low),
                  ``t`` 1..5 trumps among its five cards (the ace of trumps included),
                  ``r`` its role (eldest, other, dealer).
``jinx``: actions ``jinx``, ``claim``.  Cells:
  4 * s + k       ``(sure, other)``: ``s`` 0..1 sure winners among the two cards left;
                  ``k`` the weakest card that is not a sure winner: a plain card
                  (plain), else the lowest such trump by the unseen trumps above it,
                  1, 2 or 3+ (trump1, trump2, trump3+).
  8               ``("2", None)``: both cards are sure winners.
"""

from __future__ import annotations

import numpy as np

from sims.core.table import TableDecision, block_offset
from sims.games.spoil_five.rules import ACE, FIVE, JACK, JINX_MIN, ORDER, POLICY_FIELDS, ROB

N_FIELDS = len(POLICY_FIELDS)  # the first table block starts here in a widened policy row
ACTIVE = 0  # the bold action of both decisions: rob, jinx
ROB_ACTION, KEEP = 0, 1  # rob actions (draw order)
JINX, CLAIM = 0, 1  # jinx actions (draw order)
TURNUP_CLASSES = ("5", "J", "KQ", "mid", "low")
ROLES = ("eldest", "other", "dealer")
ROLE_ELDEST, ROLE_OTHER, ROLE_DEALER = range(3)
N_ACE_CELLS = 6  # the dealer of a turned ace, 0..5 trumps
OTHER_CLASSES = ("trump1", "trump2", "trump3+", "plain")
OTHER_PLAIN = 3
JINX_BOTH_SURE = 8

SOLVE_OUTCOME = "net"
SOLVE_LOWER_IS_BETTER = False
SOLVE_SCALE = 1
SOLVE_TEST_DEALS = 400  # the conformance test's solve deals: a jinx is reached in about 1 deal in 100 (5 players)


def turnup_class(code: int) -> int:
    """The class (index into TURNUP_CLASSES) of a turn-up that is not an ace: its face
    for the 5, the jack, the king and queen; else its trump order (mid: 6..8, the 8, 9,
    10 of red trumps and the 4, 3, 2 of black; low: 1..5, the rest)."""
    face = code % 13
    if face == FIVE:
        return 0
    if face == JACK:
        return 1
    if face >= 11:
        return 2
    return 3 if ORDER[code // 13, code] >= 6 else 4


# The class of every card as a turn-up (-1 for an ace: the dealer's cells), for the kernel.
TURNUP_CLASS = np.array([-1 if code % 13 == ACE else turnup_class(code) for code in range(52)], dtype=np.int64)


def rob_cell(ace_turned: bool, trumps: int, turnup_code: int = 0, role: int = ROLE_DEALER) -> int:
    """The code of the rob cell: the dealer of a turned ace holding ``trumps`` trumps, or
    the holder of the ace of trumps (``role``) holding ``trumps`` with the turn-up
    ``turnup_code``."""
    if ace_turned:
        return trumps
    return N_ACE_CELLS + 3 * (5 * int(TURNUP_CLASS[turnup_code]) + trumps - 1) + role


def jinx_cell(sure: int, other: int) -> int:
    """The code of the jinx cell: ``sure`` sure winners of the two cards, ``other`` the
    class (OTHER_CLASSES) of the weakest card that is not one."""
    return JINX_BOTH_SURE if sure >= 2 else 4 * sure + other


def _rob_cells() -> tuple[tuple, ...]:
    ace = tuple(("A", str(t), "dealer") for t in range(6))
    held = tuple((k, str(t), r) for k in TURNUP_CLASSES for t in range(1, 6) for r in ROLES)
    return ace + held


def _jinx_cells() -> tuple[tuple, ...]:
    return tuple((str(s), k) for s in range(2) for k in OTHER_CLASSES) + (("2", None),)


_TURNUP_WORDS = {
    "5": "the 5 of trumps",
    "J": "the jack of trumps",
    "KQ": "the king or queen of trumps",
    "mid": "a middle trump (8, 9, 10 of red trumps; 4, 3, 2 of black)",
    "low": "a low trump (2, 3, 4, 6, 7 of red trumps; 10, 9, 8, 7, 6 of black)",
}
_ROLE_WORDS = {
    "eldest": "as the eldest hand (leading trick 1)",
    "other": "neither eldest nor dealer",
    "dealer": "as the dealer",
}


def _describe_rob(cell: tuple) -> str:
    turnup, trumps, role = cell
    if turnup == "A":
        return f"the dealer, an ace turned up, {trumps} trumps in hand (Ah counts)"
    return (
        f"dealt the ace of trumps with {trumps} trumps in all (the ace included), the turn-up "
        f"{_TURNUP_WORDS[turnup]}, {_ROLE_WORDS[role]}"
    )


_OTHER_WORDS = {
    "trump1": "a trump with one unseen trump above it",
    "trump2": "a trump with two unseen trumps above it",
    "trump3+": "a trump with three or more unseen trumps above it",
    "plain": "a plain card",
}


def _describe_jinx(cell: tuple) -> str:
    sure, other = cell
    if other is None:
        return "won tricks 1-3; both cards left are sure winners"
    return f"won tricks 1-3; {sure} of the two cards left sure, the weakest other {_OTHER_WORDS[other]}"


TABLES = (
    TableDecision(
        name="rob",
        help="the dealer of a turned ace, or the holder of the ace of trumps at its first turn: rob the turn-up "
        "(discarding the cheapest card) or keep",
        fields=("turnup", "trumps", "role"),
        cells=_rob_cells(),
        actions=("rob", "keep"),
        describe=_describe_rob,
        grid=(("turnup", "role"), ("trumps",)),
    ),
    TableDecision(
        name="jinx",
        help="a player who won tricks 1, 2 and 3: claim the pool now, or jinx (play on for all five)",
        fields=("sure", "other"),
        cells=_jinx_cells(),
        actions=("jinx", "claim"),
        describe=_describe_jinx,
        grid=(("sure",), ("other",)),
    ),
)
ROB_DECISION, JINX_DECISION = 0, 1  # indices in TABLES (a solve's decision index)
ROB_OFFSET = block_offset(N_FIELDS, TABLES, "rob")  # the blocks' flags in a widened policy row
JINX_OFFSET = block_offset(N_FIELDS, TABLES, "jinx")
N_ROB_CELLS = TABLES[0].n_cells
N_JINX_CELLS = TABLES[1].n_cells


def policy_table(rules, policy_row, seat: int, n_seats: int, decision_name: str = "rob") -> np.ndarray:
    """Seat ``seat``'s policy fields as a table: ``rob`` robs in every cell when the
    policy's rob is 1 (keeps when 0); ``jinx`` jinxes in a cell when its sure winners
    reach the policy's jinx_min.  Playing it gives the policy's sums bit for bit (the
    fields are integers: no cell is mixed, nothing is drawn)."""
    row = np.asarray(policy_row, dtype=np.float64)
    if decision_name == "rob":
        out = np.zeros((N_ROB_CELLS, 2))
        out[:, ROB_ACTION if int(row[ROB]) == 1 else KEEP] = 1.0
        return out
    if decision_name == "jinx":
        out = np.zeros((N_JINX_CELLS, 2))
        for code, (sure, _) in enumerate(TABLES[1].cells):
            out[code, JINX if int(sure) >= int(row[JINX_MIN]) else CLAIM] = 1.0
        return out
    raise ValueError(f"spoil-five has no table decision '{decision_name}'; its decisions are: rob, jinx.")
