"""Chase the Ace: the solve kernel of the swap decision (sims.core.table_nb's docstring
defines what a solve kernel sums; sims.games.chase_ace.table declares the cells)."""

from __future__ import annotations

import numpy as np

from sims.core.deck import deal_prefix_nb
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.table_nb import record_visit_nb
from sims.games.chase_ace.kernel import (
    SLOTS,
    SOLVE_FORCED,
    SOLVE_FORCED_SWAP,
    SOLVE_VISITS,
    new_hand_table_nb,
    play_round_nb,
    rule_codes_nb,
)
from sims.games.chase_ace.table import KEEP, N_CELLS, SWAP

N_ACTIONS = 2
WIDTH = 1 + 2 * N_ACTIONS + N_ACTIONS * N_ACTIONS  # sims.core.table.solve_stats_width(2)
BOTH = 3  # legal mask: swap and keep are legal in every cell


@njit(cache=True, nogil=True)
def solve_nb(rules, policy, n, seed, first, count, decision_index):
    """The solve sums of deals ``first .. first+count-1`` of ``seed`` (hand mode: seat k is
    position k, the dealer seat n-1) under the profile ``policy``: int64, flat ``[seat,
    cell, stat]`` (sims.core.table_nb).  ``decision_index`` is 0 (the swap decision, the
    game's only one).  Per deal the round is played as hand mode plays it, noting every
    visit (a seat's decision that no rule forces: not holding the top card, no king seen at
    the deal in the way, its turn not lost, exchanging not ended); then for each visit the
    deal is played again with that visit forced to the other action (the rest, draws
    included, as the profile plays it), and the seat's lose_life under each action is
    recorded in its cell.  No allocation per deal."""
    tables, _ = new_hand_table_nb(rules, policy, n)
    out = np.zeros(n * N_CELLS * WIDTH, dtype=np.int64)
    scratch = np.zeros((5, SLOTS), dtype=np.int64)
    _solve_deals_nb(rules, tables, out, scratch, n, seed, first, count)
    return out


@njit(cache=True, nogil=True)
def _solve_deals_nb(rules, tables, out, scratch, n, seed, first, count):
    """:func:`solve_nb`'s loop; ``scratch`` holds the base play's visits (position, cell,
    swap), its losers per position and the two actions' values."""
    table = tables[0]
    codes = rule_codes_nb(rules)
    seed_key = seed_key_nb(seed)
    tables_on = table.has_tables != 0
    positions, cells, swaps, base_lose, values = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4]
    for deal in range(first, first + count):
        state = stream_nb(seed_key, deal)
        state = deal_prefix_nb(table.pack, table.dealt, n + 1, state)
        table.solve[SOLVE_FORCED] = -1
        visits = position = taken = 0
        v = -1  # the round as the profile plays it, then once per visit with its other action forced
        while v < visits:
            if v >= 0:
                position = positions[v]
                taken = SWAP if swaps[v] else KEEP
                values[taken] = base_lose[position]
                table.solve[SOLVE_FORCED] = position
                table.solve[SOLVE_FORCED_SWAP] = 1 - swaps[v]
            play_round_nb(table, n, state, codes, tables_on, -1, False, True)  # one call site: compiled once
            if v >= 0:
                values[1 - taken] = table.lose[position]
                record_visit_nb(out, position, cells[v], N_CELLS, values[:N_ACTIONS], BOTH)
            else:
                visits = table.solve[SOLVE_VISITS]
                for w in range(visits):
                    positions[w] = table.visit_position[w]
                    cells[w] = table.visit_cell[w]
                    swaps[w] = table.visit_swap[w]
                for k in range(n):
                    base_lose[k] = table.lose[k]
            v += 1
