"""Five Hundred: the strategy-table decision ``bid`` (sims.core.table), each seat's policy
written as a table, and the solve kernel's entry (see the package docstring's "Strategy
tables" for what the cells hold and why that is enough).

One decision, ``bid``: the seat's next call in the auction, decided in at most two steps,
each a visit to a cell:
  1. the misere step, only when misere or open misere may be bid: a cell of (who holds
     the bid, which of misere / open misere may be bid, the hand's high cards); actions
     ``misere``, ``open-misere`` (each where it may be bid) and ``no-misere`` (go on to
     step 2);
  2. the trick step, only when some trick bid in the hand's best denomination outranks
     the bid: a cell of (who holds the bid, the level of the cheapest such bid, the tricks
     it needs over the hand's estimate); actions ``pass`` and ``bid`` (that cheapest bid).
A call with neither step (no misere may be bid, no trick bid outranks) is a pass.

Cell codes (declared order):
  0 .. 98       misere step: 33 * call + 11 * allowed + high; call 0 open (no bid yet),
                1 an opponent holds the bid, 2 the partner holds it; allowed 0 misere
                only, 1 open misere only, 2 both; high 0 .. 10.
  99 .. 106     trick step, open: 99 + over + 3 (over clipped to -3 .. 4), level 6.
  107 .. 146    trick step, over an opponent: 107 + 8 * (level - 6) + over + 3 (over -3 .. 4).
  147 .. 201    trick step, over the partner: 147 + 11 * (level - 6) + over + 6 (over -6 .. 4).
``over`` is the cheapest bid's tricks less the hand's estimate in its best denomination;
the clipped ends read "<=-3" (or "<=-6") and ">=4".
"""

from __future__ import annotations

import numpy as np

from sims.core.table import TableDecision
from sims.games.five_hundred.rules import (
    BID_OFFSET,
    MISERE_MAX,
    OPEN_MISERE_MAX,
    PARTNER_MARGIN,
    POLICY_FIELDS,
)

SOLVE_OUTCOME = "score"  # the hand-mode headline: the points the seat's side scores in the hand
SOLVE_LOWER_IS_BETTER = False
SOLVE_SCALE = 1

N_FIELDS = len(POLICY_FIELDS)  # the bid decision's block starts here in a widened policy row
BID_BLOCK = N_FIELDS

# actions, in draw order
A_PASS, A_BID, A_MISERE, A_OPEN_MISERE, A_NO_MISERE = range(5)
ACTIONS = ("pass", "bid", "misere", "open-misere", "no-misere")
N_ACTIONS = len(ACTIONS)

CALL_OPEN, CALL_OPPONENT, CALL_PARTNER = range(3)
CALL_NAMES = ("open", "opponent", "partner")
ALLOWED_MISERE, ALLOWED_OPEN_MISERE, ALLOWED_BOTH = range(3)
ALLOWED_NAMES = ("misere", "open-misere", "both")
MAX_HIGH = 10  # a 10-card hand holds at most 10 high cards
N_HIGH = MAX_HIGH + 1
N_MISERE_CELLS = 3 * 3 * N_HIGH  # 99

# the trick step: per call, the clipped range of ``over`` and the levels it is reached at
OVER_LO = (-3, -3, -6)
OVER_HI = 4
N_OVER = tuple(OVER_HI - lo + 1 for lo in OVER_LO)  # 8, 8, 11
LEVELS = ((6,), (6, 7, 8, 9, 10), (6, 7, 8, 9, 10))
TRICK_BASE = (
    N_MISERE_CELLS,
    N_MISERE_CELLS + N_OVER[0] * len(LEVELS[0]),
    N_MISERE_CELLS + N_OVER[0] * len(LEVELS[0]) + N_OVER[1] * len(LEVELS[1]),
)
N_CELLS = TRICK_BASE[2] + N_OVER[2] * len(LEVELS[2])  # 202


def misere_cell(call: int, allowed: int, high: int) -> int:
    """The code of the misere step's cell."""
    return 33 * call + N_HIGH * allowed + min(high, MAX_HIGH)


def allowed_of(open_misere_ok: bool, misere_ok: bool) -> int:
    """Which of misere and open misere may be bid (at least one)."""
    if open_misere_ok and misere_ok:
        return ALLOWED_BOTH
    return ALLOWED_OPEN_MISERE if open_misere_ok else ALLOWED_MISERE


def trick_cell(call: int, level: int, over: int) -> int:
    """The code of the trick step's cell: the cheapest bid in the best denomination has
    ``level`` tricks, ``over`` more than the hand's estimate."""
    lo = OVER_LO[call]
    clipped = min(max(over, lo), OVER_HI)
    return TRICK_BASE[call] + N_OVER[call] * (level - 6) + clipped - lo


def _over_text(call: int, over: int) -> str:
    if over == OVER_LO[call]:
        return f"<={over}"
    if over == OVER_HI:
        return f">={over}"
    return str(over)


def _cells() -> tuple[tuple, ...]:
    cells: list[tuple] = []
    for call in range(3):
        for allowed in range(3):
            for high in range(N_HIGH):
                cells.append((CALL_NAMES[call], ALLOWED_NAMES[allowed], str(high), None, None))
    for call in range(3):
        for level in LEVELS[call]:
            for over in range(OVER_LO[call], OVER_HI + 1):
                cells.append((CALL_NAMES[call], None, None, str(level), _over_text(call, over)))
    assert len(cells) == N_CELLS
    return tuple(cells)


def _legal() -> tuple[int, ...]:
    masks = []
    for code in range(N_CELLS):
        if code >= N_MISERE_CELLS:
            masks.append(1 << A_PASS | 1 << A_BID)
            continue
        allowed = (code % 33) // N_HIGH
        mask = 1 << A_NO_MISERE
        if allowed != ALLOWED_OPEN_MISERE:
            mask |= 1 << A_MISERE
        if allowed != ALLOWED_MISERE:
            mask |= 1 << A_OPEN_MISERE
        masks.append(mask)
    return tuple(masks)


_HOLDER = {
    "open": "nobody has bid yet",
    "opponent": "an opponent holds the bid",
    "partner": "your partner holds the bid",
}
_ALLOWED = {
    "misere": "misere may be bid",
    "open-misere": "open misere may be bid",
    "both": "misere and open misere may be bid",
}


def _describe(cell: tuple) -> str:
    call, allowed, high, level, over = cell
    if allowed is not None:
        return f"{_HOLDER[call]}, {_ALLOWED[allowed]}; you hold {high} high card{'' if high == '1' else 's'}"
    if over.startswith("<="):
        need = f"{over[2:].lstrip('-')} or more tricks below your estimate"
    elif over.startswith(">="):
        need = f"{over[2:]} or more tricks above your estimate"
    elif over == "0":
        need = "exactly your estimate"
    elif over.startswith("-"):
        need = f"{over[1:]} trick{'' if over == '-1' else 's'} below your estimate"
    else:
        need = f"{over} trick{'' if over == '1' else 's'} above your estimate"
    return f"{_HOLDER[call]}; the cheapest bid in your best denomination is at {level} tricks, {need}"


TABLES = (
    TableDecision(
        name="bid",
        help=(
            "the seat's next call in the auction: first, where misere or open misere may be bid, whether to bid "
            "one (by the high cards held); then, where a trick bid in its best denomination outranks the bid, "
            "whether to make the cheapest one or pass (by how many tricks it needs over the hand's estimate)"
        ),
        fields=("call", "misere", "high", "level", "over"),
        cells=_cells(),
        actions=ACTIONS,
        describe=_describe,
        legal=_legal(),
        aliases={"open_misere": "open-misere", "om": "open-misere", "mis": "misere", "no_misere": "no-misere"},
        grid=(("call", "misere", "level"), ("high", "over")),
    ),
)


def policy_action(policy_row, code: int) -> int:
    """The action the policy fields take in cell ``code`` (package docstring, Bidding)."""
    row = [float(v) for v in policy_row[:N_FIELDS]]
    if code < N_MISERE_CELLS:
        allowed, high = (code % 33) // N_HIGH, code % N_HIGH
        if allowed != ALLOWED_MISERE and high <= row[OPEN_MISERE_MAX]:
            return A_OPEN_MISERE
        if allowed != ALLOWED_OPEN_MISERE and high <= row[MISERE_MAX]:
            return A_MISERE
        return A_NO_MISERE
    call = 2 if code >= TRICK_BASE[2] else (1 if code >= TRICK_BASE[1] else 0)
    level, at = divmod(code - TRICK_BASE[call], N_OVER[call])
    level += 6
    over = OVER_LO[call] + at  # the clipped ends stand for their whole range (docstring)
    estimate = level - over
    want = min(10, estimate + int(row[BID_OFFSET]))
    margin = int(row[PARTNER_MARGIN]) if call == CALL_PARTNER else 0
    return A_BID if level + margin <= want else A_PASS


def policy_table(rules, policy_row, seat: int, n_seats: int, decision_name: str = "bid") -> np.ndarray:
    """Seat ``seat``'s policy fields as a ``[cells, actions]`` table of the bid decision:
    every cell holds the action the policy takes there, so the table plays every hand and
    game as the policy does, bit for bit (the policy's call depends on nothing else)."""
    if decision_name != "bid":
        raise ValueError(f"five-hundred has no table decision '{decision_name}'; its decision is: bid.")
    out = np.zeros((N_CELLS, N_ACTIONS))
    for code in range(N_CELLS):
        out[code, policy_action(policy_row, code)] = 1.0
    return out
