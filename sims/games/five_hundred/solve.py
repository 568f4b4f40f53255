"""Five Hundred: the solve kernel of the bid table (sims.core.table_nb's module docstring
defines it; sims.games.five_hundred.table the cells).

Deal ``i`` of ``seed`` is hand ``i`` of hand mode (the stream ``(seed, i)``, seat 3 deals,
scores from 0).  The base auction runs under the profile and logs every visit of every
seat to a cell of the bid table (kernel.visit_nb: the misere step and the trick step of
each call, whether the seat plays a table or its policy fields); then, for each visit and
each legal action other than the one taken, the auction is run again from its first call
on the same dealt cards and the same stream state, that visit forced to the action (after
the draws the profile makes there), and the seat's outcome ``score`` (its side's points in
the hand) of every action is added to the sums of (seat, cell).

Nothing after the auction draws from the stream or reads the calls, so a hand's points are
a function of its deal and of (contract, contractor): the play is cached per deal under
that key, and an auction that ends in a contract already played costs no play.
"""

from __future__ import annotations

import numpy as np

from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.table import solve_stats_width
from sims.core.table_nb import record_visit_nb
from sims.games.five_hundred.kernel import (
    ALL_PASS_NO_TRUMPS,
    MAX_VISITS,
    N_CONTRACTS,
    R_ALL_PASS,
    V_ACTION,
    V_COUNT,
    V_FORCED,
    V_LOG,
    auction_nb,
    new_deal_nb,
    new_hand_nb,
    new_tables_nb,
    play_out_nb,
)
from sims.games.five_hundred.table import N_ACTIONS, N_CELLS, TABLES

LEGAL = np.array(TABLES[0].legal, dtype=np.int64)
WIDTH = solve_stats_width(N_ACTIONS)
N_KEYS = (N_CONTRACTS + 1) * 5  # (contract + 1, contractor + 1)
DEALER = 3


@njit(cache=True, _nrt=False)
def _points_nb(rules, policy, table, kitty, held, state, visits, forced, action, scores, cache, deal):
    """The hand of the deal in ``table`` (its dealt cards ``held``) with visit ``forced``
    (-1 none) taking ``action``: the side's points (cached per (contract, contractor) for
    deal ``deal``); the key's row of ``cache`` holds (deal, points of side 0, of side 1)."""
    for s in range(4):
        table.hands[s] = held[s]
    new_hand_nb(table, kitty)
    visits[V_COUNT] = 0
    visits[V_FORCED] = forced
    visits[V_ACTION] = action
    auction_nb(rules, policy, table, DEALER, None, state, visits)
    hand = table.hand
    key = (hand.contract + 1) * 5 + hand.contractor + 1
    if cache[key, 0] != deal:
        if hand.contract < 0:
            hand.all_pass = 1
            hand.made = -1
        if hand.contract >= 0 or rules[R_ALL_PASS] == ALL_PASS_NO_TRUMPS:
            scores[0] = 0
            scores[1] = 0
            play_out_nb(rules, policy, table, kitty, DEALER, scores, False)
        cache[key, 0] = deal
        cache[key, 1] = hand.points[0]
        cache[key, 2] = hand.points[1]
    return key


@njit(cache=True, _nrt=False)
def _deals_nb(rules, policy, tables, out, visits, base, held, values, scores, cache, seed, first, count, solved):
    """The loop over deals of solve_nb, on its scratch (allocating nothing)."""
    table = tables[0]
    seed_key = seed_key_nb(seed)
    for i in range(first, first + count):
        kitty, state = new_deal_nb(rules, table, DEALER, stream_nb(seed_key, i))
        for s in range(4):
            held[s] = table.hands[s]
        key = _points_nb(rules, policy, table, kitty, held, state, visits, -1, 0, scores, cache, i)
        base_points = (cache[key, 1], cache[key, 2])
        n_visits = min(visits[V_COUNT], MAX_VISITS)
        for k in range(3 * n_visits):
            base[k] = visits[V_LOG + k]
        if not solved:
            continue
        for v in range(n_visits):
            seat, cell, taken = base[3 * v], base[3 * v + 1], base[3 * v + 2]
            legal = LEGAL[cell]
            for a in range(N_ACTIONS):
                values[a] = 0
                if (legal >> a) & 1 == 0:
                    continue
                if a == taken:
                    values[a] = base_points[seat % 2]
                else:
                    key = _points_nb(rules, policy, table, kitty, held, state, visits, v, a, scores, cache, i)
                    values[a] = cache[key, 1 + seat % 2]
            record_visit_nb(out, seat, cell, N_CELLS, values, legal)


@njit(cache=True, nogil=True)
def solve_nb(rules, policy, n_seats, seed, first, count, decision_index):
    """The solve sums of the bid decision (decision 0) over deals ``first .. first+count-1``
    of ``seed`` under the profile ``policy``: int64 ``n_seats * cells * width`` (module
    docstring; sims.core.table_nb)."""
    out = np.zeros(n_seats * N_CELLS * WIDTH, dtype=np.int64)
    visits = np.zeros(V_LOG + 3 * MAX_VISITS, dtype=np.int64)
    base = np.zeros(3 * MAX_VISITS, dtype=np.int64)
    held = np.zeros(4, dtype=np.uint64)
    values = np.zeros(N_ACTIONS, dtype=np.int64)
    scores = np.zeros(2, dtype=np.int64)
    cache = np.full((N_KEYS, 3), -1, dtype=np.int64)
    cache[:, 0] = -1
    solved = decision_index == 0
    _deals_nb(
        rules, policy, new_tables_nb(), out, visits, base, held, values, scores, cache, seed, first, count, solved
    )
    return out
