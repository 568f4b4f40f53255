"""Fan Tan's solve kernel for the table decision "play" (sims/games/fan_tan/table.py).

:func:`solve_nb` follows the definition in :mod:`sims.core.table_nb`: deal ``i`` is hand
``i`` of hand mode (stream ``(seed, i)``, dealer seat n-1), played under the profile (each
seat's table, its policy fields where it has none).  At every visit of a seat to a play
cell (package docstring, Strategy tables) the profile's action is taken as in any hand (a
mixed cell draws its uniform, the random style its card), and every other legal action is
tried from the same point: its card is the one the action chooses on the stream as the
profile's action meets it (after the mixed cell's draw), and the rest of the deal goes on
from the stream as the profile's own play of the visit leaves it, so every action meets
the same later random numbers.  The deal before the visit is the same for every action,
so the kernel plays it once and saves the seats' state at the visit instead of replaying
from the deal's start (the twin replays from the start: the same numbers).  An action
whose card is the profile's takes the base play's outcome; actions choosing the same card
share one play.  The seat's outcome is its ``net`` (SOLVE_OUTCOME) for the deal.
"""

from __future__ import annotations

import numpy as np

from sims.core.deck import reset_pack_nb
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.table import solve_stats_width
from sims.core.table_nb import record_visit_nb
from sims.games.fan_tan.kernel import (
    BIT_OF_CODE,
    MAX_PLAYERS,
    MAX_TURNS,
    PASS,
    _antes_nb,
    _deal_nb,
    _net_nb,
    _opening_nb,
    _policy_turns_nb,
    _settle_nb,
    _turn_nb,
    legal_cards_nb,
    new_table_nb,
    play_cell_nb,
    profile_action_nb,
    resolve_action_nb,
    rule_amounts_nb,
    rule_codes_nb,
)
from sims.games.fan_tan.rules import N_PLAY_ACTIONS, N_PLAY_CELLS, PLAY_CELL_MAY_PASS, SETTLE_CARD_COUNT

WIDTH = solve_stats_width(N_PLAY_ACTIONS)
ILLEGAL = -9  # the card of an action a cell does not allow
FULL_MASK = (1 << N_PLAY_ACTIONS) - 1  # every action: the styles and the pass
STYLES_MASK = FULL_MASK >> 1  # the styles only (the pass is the last action)
# A visit's columns: the seat, its cell, the legal actions (mask) and the profile's card.
V_SEAT, V_CELL, V_MASK, V_BASE = range(4)


@njit(cache=True, inline="always")
def _save_nb(table, n, saved, back):
    """Copy the per-seat state (hands, paid, received, passes) into ``saved`` (``back``
    false) or back from it."""
    for seat in range(n):
        if back:
            table.hands[seat] = np.uint64(saved[0, seat])
            table.paid[seat] = saved[1, seat]
            table.received[seat] = saved[2, seat]
            table.passes[seat] = saved[3, seat]
        else:
            saved[0, seat] = np.int64(table.hands[seat])
            saved[1, seat] = table.paid[seat]
            saved[2, seat] = table.received[seat]
            saved[3, seat] = table.passes[seat]


@njit(cache=True)  # a call, not inlined: compiling two copies of the turn loop took minutes
def _rest_of_deal_nb(table, n, seat, layout, legal, streak, pot, turns, card, codes, amounts, state):
    """``seat`` plays ``card`` (a bit, or PASS: a voluntary pass), everyone plays on under
    the profile, the deal is settled: ``seat``'s net.  The caller restores the state."""
    uneven, start, settle, may_pass, ebs = codes
    ante, pass_fee, card_fee = amounts
    chips = settle != SETTLE_CARD_COUNT
    hand, layout, legal, streak, pot, logged, state = _turn_nb(
        table, n, seat, layout, legal, streak, pot, may_pass != 0, ebs != 0, chips, pass_fee, state, card
    )
    turns += 1
    winner = seat
    if hand:
        nxt = seat + 1 if seat + 1 < n else 0
        winner, turns, pot, state = _policy_turns_nb(
            table, n, nxt, layout, turns, pot, True, may_pass != 0, ebs != 0, chips, pass_fee, state, streak
        )
    _settle_nb(table, n, winner, turns, pot, chips, False, settle, pass_fee, card_fee)
    return _net_nb(table, seat)


@njit(cache=True, inline="always")
def _visit_nb(table, n, seat, cell, hand, playable, layout, legal, streak, pot, turns, codes, amounts, state, scratch):
    """A visit of ``seat`` to ``cell``: the profile's action and card, every legal action's
    card, and the net of each other card (one play per card) into ``scratch``'s row.
    Returns ``(the profile's card, the stream after it)``."""
    visits, cards, nets, saved = scratch
    ebs = codes[4] != 0
    can_pass = PLAY_CELL_MAY_PASS[cell]
    action, state = profile_action_nb(table, seat, cell, playable, can_pass, state)
    base, after = resolve_action_nb(action, hand, playable, layout, legal, ebs, state)
    mask = FULL_MASK if can_pass else STYLES_MASK
    v = visits[visits.shape[0] - 1, 0]  # the row being filled: the caller keeps the count in the last row
    visits[v, V_SEAT] = seat
    visits[v, V_CELL] = cell
    visits[v, V_MASK] = mask
    visits[v, V_BASE] = base
    _save_nb(table, n, saved, False)
    for a in range(N_PLAY_ACTIONS):
        if not (mask >> a) & 1:
            cards[v, a] = ILLEGAL
            continue
        card, _ = resolve_action_nb(a, hand, playable, layout, legal, ebs, state)
        cards[v, a] = card
        if card == base:
            continue
        shared = -1
        for b in range(a):
            if cards[v, b] == card:
                shared = b
        if shared >= 0:
            nets[v, a] = nets[v, shared]
            continue
        nets[v, a] = _rest_of_deal_nb(table, n, seat, layout, legal, streak, pot, turns, card, codes, amounts, after)
        _save_nb(table, n, saved, True)
    return base, after


@njit(cache=True, inline="always")
def _record_deal_nb(table, out, n_visits, scratch, values):
    """Add every visit of the deal just played to ``out`` (the base play's net for the
    actions whose card is the profile's)."""
    visits, cards, nets, saved = scratch
    for v in range(n_visits):
        seat = visits[v, V_SEAT]
        base_net = _net_nb(table, seat)
        for a in range(N_PLAY_ACTIONS):
            values[a] = base_net if cards[v, a] == visits[v, V_BASE] else nets[v, a]
        record_visit_nb(out, seat, visits[v, V_CELL], N_PLAY_CELLS, values, visits[v, V_MASK])


@njit(cache=True, inline="always")
def _solve_deal_nb(table, n, state, codes, amounts, scratch):
    """Play one deal under the profile (dealer n-1), trying every action at every visit.
    Returns the number of visits (their rows in ``scratch``)."""
    visits = scratch[0]
    uneven, start, settle, may_pass, ebs = codes
    ante, pass_fee, card_fee = amounts
    chips = settle != SETTLE_CARD_COUNT
    state = _deal_nb(table, n, n - 1, True, state)
    pot = _antes_nb(table, n, uneven, ante, chips)
    seat, layout, turns = _opening_nb(table, n, n - 1, start, True)
    legal = legal_cards_nb(layout, ebs != 0)
    streak = 0
    count_row = visits.shape[0] - 1
    visits[count_row, 0] = 0
    while True:
        hand = table.hands[seat]
        playable = hand & legal
        forced = np.int64(-3)  # NOT_FORCED: the profile decides in _turn_nb
        if playable:
            cell = play_cell_nb(table, n, seat, hand, playable, may_pass != 0 and streak < n - 1)
            if cell >= 0:
                forced, state = _visit_nb(
                    table,
                    n,
                    seat,
                    cell,
                    hand,
                    playable,
                    layout,
                    legal,
                    streak,
                    pot,
                    turns,
                    codes,
                    amounts,
                    state,
                    scratch,
                )
                visits[count_row, 0] += 1
        hand, layout, legal, streak, pot, logged, state = _turn_nb(
            table, n, seat, layout, legal, streak, pot, may_pass != 0, ebs != 0, chips, pass_fee, state, forced
        )
        turns += 1
        if not hand:
            break
        seat = seat + 1 if seat + 1 < n else 0
    _settle_nb(table, n, seat, turns, pot, chips, False, settle, pass_fee, card_fee)
    return visits[count_row, 0]


@njit(cache=True, nogil=True)
def _solve_deals_nb(tables, out, scratch, values, n, seed, first, count):
    """The deals of :func:`solve_nb` into ``out``; ``tables[0]`` is used while the caller
    holds ``tables``."""
    table = tables[0]
    codes = rule_codes_nb(table.rules)
    amounts = rule_amounts_nb(table.rules)
    seed_key = seed_key_nb(seed)
    for deal in range(first, first + count):
        state = stream_nb(seed_key, deal)
        reset_pack_nb(table.pack, BIT_OF_CODE)
        n_visits = _solve_deal_nb(table, n, state, codes, amounts, scratch)
        _record_deal_nb(table, out, n_visits, scratch, values)


@njit(cache=True, nogil=True)
def solve_nb(rules, policy, n, seed, first, count, decision_index):
    """The solve sums (sims.core.table_nb) of the play decision (index 0, the only one)
    over deals ``first .. first+count-1`` of ``seed``: int64 ``[n, cells, stats]`` flat."""
    out = np.zeros(n * N_PLAY_CELLS * WIDTH, dtype=np.int64)
    tables = new_table_nb(rules, policy, n)
    visits = np.zeros((MAX_TURNS + 1, 4), dtype=np.int64)  # the last row holds the count
    cards = np.zeros((MAX_TURNS, N_PLAY_ACTIONS), dtype=np.int64)
    nets = np.zeros((MAX_TURNS, N_PLAY_ACTIONS), dtype=np.int64)
    saved = np.zeros((4, MAX_PLAYERS), dtype=np.int64)
    values = np.zeros(N_PLAY_ACTIONS, dtype=np.int64)
    _solve_deals_nb(tables, out, (visits, cards, nets, saved), values, n, seed, first, count)
    return out


__all__ = ["solve_nb", "PASS"]
