"""Spoil Five: the solve kernel of the strategy tables (sims.core.table_nb's docstring
defines it; the decisions and cells are sims.games.spoil_five.table's).

Deal ``i`` of ``seed`` is hand ``i`` of hand mode (the dealer in seat n-1, a new pool,
the stream ``(seed, i)``), played under the profile in the policy matrix with every
seat deciding the solved decision on the slow path (kernel.solve_decision_nb), which
notes the visit.  A deal visits each decision at most once (one seat may rob, one seat
may win the first three tricks), so the deal is played again from its start once, with
that visit forced to the other action: everything before the visit is the same play on
the same numbers, and a forced visit draws what the profile would have drawn there.  The
visiting seat's hand-mode ``net`` (SOLVE_OUTCOME) of both actions goes to its cell's sums.
"""

from __future__ import annotations

import numpy as np

from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.table import solve_stats_width
from sims.core.table_nb import record_visit_nb
from sims.games.spoil_five.kernel import (
    D_VISIT_ACTION,
    D_VISIT_CELL,
    D_VISIT_SEAT,
    DEAL_SLOTS,
    F_FORCE,
    F_JINX_SLOW,
    F_ROB_SLOW,
    F_SOLVING,
    FLAG_SLOTS,
    I_DEALER,
    I_JINX_MADE,
    I_WINNER,
    INFO_ROW,
    R_ANTE,
    R_DEALER_EXTRA,
    deal_rule_codes_nb,
    info_nb,
    jinx_bonus_nb,
    new_table_nb,
    play_hand_nb,
    rule_nb,
    seat_flags_nb,
)
from sims.games.spoil_five.table import N_JINX_CELLS, N_ROB_CELLS, ROB_DECISION

WIDTH = solve_stats_width(2)


@njit(cache=True, inline="always")
def seat_net_nb(work, n, seat, pool, ante, extra, bonus):
    """``seat``'s chips in the deal just played from a new pool (hand mode's net)."""
    paid = bonus if info_nb(work, I_JINX_MADE) else 0
    won = pool + n * paid if info_nb(work, I_WINNER) == seat else 0
    return -ante - paid + won - (extra if info_nb(work, I_DEALER) == seat else 0)


@njit(cache=True, nogil=True)
def solve_nb(rules, policy, n, seed, first, count, decision):
    """The flat sums ``[seat, cell, stat]`` (int64, n * cells * WIDTH) of deals ``first ..
    first + count - 1`` of ``seed`` for the decision ``decision`` (0 rob, 1 jinx), every
    visit recorded with both actions' net (module docstring)."""
    n_cells = N_ROB_CELLS if decision == ROB_DECISION else N_JINX_CELLS
    out = np.zeros(n * n_cells * WIDTH, dtype=np.int64)
    work, masks = new_table_nb(rules, policy, n)
    work[INFO_ROW + FLAG_SLOTS + F_SOLVING] = decision
    work[INFO_ROW + FLAG_SLOTS + (F_ROB_SLOW if decision == ROB_DECISION else F_JINX_SLOW)] = (1 << n) - 1
    seat_flags = seat_flags_nb(work)
    codes = deal_rule_codes_nb(rules)
    seed_key = seed_key_nb(seed)
    ante = rule_nb(work, R_ANTE)
    extra = rule_nb(work, R_DEALER_EXTRA)
    pool = n * ante + extra
    bonus = jinx_bonus_nb(work)
    values = np.zeros(2, dtype=np.int64)
    for hand in range(first, first + count):
        work[INFO_ROW + DEAL_SLOTS + D_VISIT_SEAT] = -1
        work[INFO_ROW + FLAG_SLOTS + F_FORCE] = -1
        seat = cell = taken = 0
        for replay in range(2):  # the deal as the profile plays it, then with the other action forced
            # one call site, so the deal is compiled once
            play_hand_nb((work, masks), n, n - 1, True, stream_nb(seed_key, hand), (codes, seat_flags, policy))
            if replay == 1:
                values[1 - taken] = seat_net_nb(work, n, seat, pool, ante, extra, bonus)
                record_visit_nb(out, seat, cell, n_cells, values, 3)
                break
            seat = work[INFO_ROW + DEAL_SLOTS + D_VISIT_SEAT]
            if seat < 0:
                break
            cell = work[INFO_ROW + DEAL_SLOTS + D_VISIT_CELL]
            taken = work[INFO_ROW + DEAL_SLOTS + D_VISIT_ACTION]
            values[taken] = seat_net_nb(work, n, seat, pool, ante, extra, bonus)
            work[INFO_ROW + FLAG_SLOTS + F_FORCE] = 1 - taken
    return out
