"""All-Fours: the solve kernel of the beg and give tables (sims.core.table_nb's docstring
defines a solve; sims.games.all_fours.table the cells).

Deal ``i`` is hand ``i`` of hand mode (stream ``(seed, i)``, E = seat 0, D = seat 1,
scores 0-0) played under the profile.  A deal visits each decision at most once: the beg
whenever the deal goes past its turn-up (always, from 0-0), the give when E begged and D
may give.  When the decision solved is visited, the deal is played again from its start
with that visit forced to the other action (the visit still makes the draw its table would
have made there), and the visiting seat's outcome of each action is recorded: its points
in the deal minus the other seat's (SOLVE_OUTCOME, net_points).
"""

from __future__ import annotations

import numpy as np

from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.table_nb import record_visit_nb
from sims.games.all_fours.kernel import (
    I_BEG_CELL,
    I_BEGGED,
    I_GAVE,
    N_PLAYERS,
    S_POINTS,
    T_FORCE,
    T_ON,
    info_nb,
    new_table_nb,
    play_hand_nb,
    seat_nb,
)
from sims.games.all_fours.table import N_ACTIONS, N_CELLS

_BOTH = (1 << N_ACTIONS) - 1  # every cell allows both actions
_WIDTH = 1 + 2 * N_ACTIONS + N_ACTIONS * N_ACTIONS


@njit(cache=True, inline="always")
def _net_nb(work, seat):
    """The seat's points in the deal just played minus the other seat's."""
    return seat_nb(work, S_POINTS, seat) - seat_nb(work, S_POINTS, 1 - seat)


@njit(cache=True, nogil=True, _nrt=False)
def _solve_sums_nb(work, masks, policy, out, values, seed, first, count, decision):
    """The solve's loop over deals ``first .. first+count-1`` (module docstring)."""
    seed_key = seed_key_nb(seed)
    seat = decision  # hand mode: the beg (decision 0) is seat 0's, the give (1) seat 1's
    for hand in range(first, first + count):
        start = stream_nb(seed_key, hand)
        work[T_FORCE + decision] = 0
        taken = visit = 0
        for replay in range(2):  # the deal as the profile plays it, then with the other action forced
            play_hand_nb((work, masks), N_PLAYERS, 1, True, start, (policy, 0, 0))  # one call site: compiled once
            if replay == 1:
                values[1 - taken] = _net_nb(work, seat)
                record_visit_nb(out, seat, visit - 1, N_CELLS, values, _BOTH)
                break
            visit = info_nb(work, I_BEG_CELL + decision)
            if visit == 0:
                break
            # the action the profile took: the beg's "beg" (1) when E begged; the give's "give" (0) when D gave
            taken = info_nb(work, I_BEGGED) if decision == 0 else 1 - info_nb(work, I_GAVE)
            values[taken] = _net_nb(work, seat)
            work[T_FORCE + decision] = 1 - taken + 1
    work[T_FORCE + decision] = 0


@njit(cache=True, nogil=True)
def solve_nb(rules, policy, n_seats, seed, first, count, decision):
    """The flat int64 sums ``[seat, cell, stat]`` of deals ``first .. first+count-1`` of
    ``seed`` for decision ``decision`` (0 beg, 1 give) under the profile ``policy``."""
    out = np.zeros(n_seats * N_CELLS * _WIDTH, dtype=np.int64)
    values = np.zeros(N_ACTIONS, dtype=np.int64)
    work, masks = new_table_nb(rules, policy)
    work[T_ON] = 1  # note every visit's cell, tables or not
    _solve_sums_nb(work, masks, policy, out, values, seed, first, count, decision)
    return out
