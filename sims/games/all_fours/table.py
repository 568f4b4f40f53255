"""All-Fours: the strategy-table decisions ``beg`` and ``give`` (sims.core.table), each
seat's policy written as a table, and the solve kernel (the package docstring's "Strategy
tables" section is the contract).

Both decisions share one cell layout, what the seat holds in the turn-up suit at that
moment: its trump-strength score ``s`` (0..14, the score beg_below and give_at_least
compare) and whether it holds the jack of that suit.  Codes:
  0 .. 13     ``(s, "no")``: strength s without the jack (13 is the most without it);
  14 .. 26    ``(s, "yes")``: strength s holding the jack, code s + 12 (the jack alone is 2).
Actions in draw order: beg ``stand``, ``beg``; give ``give``, ``run``.  Every cell allows
both.

This module stays light (reading a table file imports it): the compiled pieces live in
the kernel and in sims.games.all_fours.solve, imported on demand.
"""

from __future__ import annotations

import numpy as np

from sims.core.table import TableDecision, table_width
from sims.games.all_fours.rules import BEG_BELOW, GIVE_AT_LEAST, POLICY_FIELDS, STRENGTH_MAX

STAND, BEG = 0, 1  # the beg decision's actions
GIVE, RUN = 0, 1  # the give decision's actions
DECISION_BEG, DECISION_GIVE = 0, 1  # their indices in TABLES
N_FIELDS = len(POLICY_FIELDS)
NO_JACK_MAX = STRENGTH_MAX - 1  # A K Q 10 and two small trumps: 13 (14 needs the jack)
JACK_MIN = 2  # the jack alone
JACK_SHIFT = NO_JACK_MAX + 1 - JACK_MIN  # a cell holding the jack: code strength + 12
N_CELLS = NO_JACK_MAX + 1 + STRENGTH_MAX - JACK_MIN + 1  # 14 + 13 = 27
N_ACTIONS = 2

# The hand-mode outcome a solve maximises: the seat's points minus the other seat's (the
# advice's headline, net_points), both from hand mode's per-seat "points".
SOLVE_OUTCOME = "net_points"
SOLVE_LOWER_IS_BETTER = False
SOLVE_SCALE = 1


def cell_code(strength: int, jack: bool) -> int:
    """The cell of a seat with trump-strength ``strength`` holding (or not) the jack of trumps."""
    return strength + JACK_SHIFT if jack else strength


def _cells() -> tuple[tuple, ...]:
    without = tuple((str(s), "no") for s in range(NO_JACK_MAX + 1))
    holding = tuple((str(s), "yes") for s in range(JACK_MIN, STRENGTH_MAX + 1))
    return without + holding


def _holding(cell: tuple) -> str:
    strength, jack = cell
    jack_text = "holding the jack of the turn-up suit" if jack == "yes" else "without its jack"
    return f"your six cards score {strength} in the turn-up suit (A 4, K 3, Q J 10 2, others 1), {jack_text}"


def _describe_beg(cell: tuple) -> str:
    return f"elder: {_holding(cell)}; stand or beg"


def _describe_give(cell: tuple) -> str:
    return f"dealer, the elder begged: {_holding(cell)}; give a point or run the cards"


TABLES = (
    TableDecision(
        name="beg",
        help="the elder stands (the turn-up suit is trump) or begs (the dealer gives a point or runs the cards)",
        fields=("strength", "jack"),
        cells=_cells(),
        actions=("stand", "beg"),
        describe=_describe_beg,
        grid=(("strength",), ("jack",)),
    ),
    TableDecision(
        name="give",
        help="the dealer, after the elder begged and when it may give: gives the elder a point (the turn-up "
        "suit stays trump) or runs the cards (a new trump)",
        fields=("strength", "jack"),
        cells=_cells(),
        actions=("give", "run"),
        describe=_describe_give,
        aliases={"take": "give", "take-one": "give"},
        grid=(("strength",), ("jack",)),
    ),
)
BEG_OFFSET = N_FIELDS  # the beg block's flag in a widened policy row
GIVE_OFFSET = N_FIELDS + TABLES[0].block_width
OFFSETS = (BEG_OFFSET, GIVE_OFFSET)
POLICY_WIDTH = N_FIELDS + table_width(TABLES)


def policy_table(rules, policy_row, seat: int, n_seats: int, decision_name: str) -> np.ndarray:
    """Seat ``seat``'s policy fields as a ``[cells, 2]`` table of ``decision_name``: beg
    when the cell's strength is below beg_below, give when it is at least give_at_least
    (the same in every role and mode, so playing it is the policy, bit for bit)."""
    row = np.asarray(policy_row, dtype=np.float64)
    out = np.zeros((N_CELLS, N_ACTIONS))
    for code, (strength, _) in enumerate(_cells()):
        s = int(strength)
        if decision_name == "beg":
            out[code, BEG if s < int(row[BEG_BELOW]) else STAND] = 1.0
        elif decision_name == "give":
            out[code, GIVE if s >= int(row[GIVE_AT_LEAST]) else RUN] = 1.0
        else:
            raise ValueError(f"all-fours has no table decision '{decision_name}'; its decisions are: beg, give.")
    return out


def seat_values(found, n_seats: int) -> list[tuple[float, float]]:
    """Each seat's ``net_points`` per hand and its standard error from hand mode's
    estimates (``found[(seat, outcome)]``): its points less the other seat's.  Hand mode
    sums no product of the two seats' points, so the error given is the sum of the two
    errors, an upper bound of the difference's (whatever their covariance)."""
    points = [found[(seat, "points")] for seat in range(n_seats)]
    return [
        (points[seat].mean - points[1 - seat].mean, points[seat].se + points[1 - seat].se) for seat in range(n_seats)
    ]
