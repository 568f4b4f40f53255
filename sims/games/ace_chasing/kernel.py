"""Ace Chasing: the Numba kernels.  They play the rules contract in the package docstring
(sims/games/ace_chasing/__init__.py)."""

from __future__ import annotations

import numpy as np

from sims.core.deck import N_CARDS, deal_prefix_nb
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.table import block_offset, solve_stats_width
from sims.core.table_nb import record_visit_nb, table_action_nb
from sims.core.tricks import count_cards_nb
from sims.games.ace_chasing.rules import (
    ACE_RANK,
    ACE_SWAP,
    BACK_MAX_RANK,
    BET_BETTOR_CHOOSES,
    BET_CAP,
    BET_MIN_RANK,
    BET_SIZE,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    KING_RANK,
    LENGTH_BUCKET_LOW,
    LENGTH_LABELS,
    MATADOR_RIGHT_THRESHOLD,
    NEXT_LEFT,
    POLICY_FIELDS,
    THRESHOLD,
    Rules,
)
from sims.games.ace_chasing.table import GAVE_NONE, MATADOR_RIGHT_DECISION, N_CELLS, N_RANKS, SWAP, TABLES
from sims.spec import indices

HAND_WIDTH = HAND_OUTCOMES.width  # plain ints: the kernels cannot read Outcomes
GAME_WIDTH = GAME_OUTCOMES.width
R_NEXT, R_KING_BLOCK, R_BETTING, R_BET_DIRECTION = indices(
    Rules, "next_matador", "king_block", "betting", "bet_direction"
)
G_LENGTH = GAME_OUTCOMES.table.index("length_" + LENGTH_LABELS[0])  # the length buckets follow in order
UNIT_BET_FIRST = 3  # table column of unit_bet_A; each face has (sum, sum of squares, count)

SLOTS = 52  # entries of each per-position and per-seat array: 52 players at most
N_POLICY_FIELDS = len(POLICY_FIELDS)
# Strategy tables (sims.games.ace_chasing.table): where each decision's block starts in a
# policy row, and the solve kernel's entries per (seat, cell).
TABLE_OFFSET = block_offset(N_POLICY_FIELDS, TABLES, TABLES[0].name)
BLOCK_WIDTH = TABLES[0].block_width  # both decisions have the same cells and actions
N_ACTIONS = TABLES[0].n_actions
STATS = solve_stats_width(N_ACTIONS)
N_GAVE = N_RANKS + 1  # the ranks a seat may have given its right-hand neighbour, and GAVE_NONE
NO_TABLES, PURE_TABLES, MIXED_TABLES = range(3)  # values of TABLE's has_tables

# A block's scratch is one record of this type (see sims.core.deck for the pattern), made
# once per block by new_table_nb.  Per-position arrays are indexed by position this round
# (0 = the matador's left .. k-1 = the matador), per-seat arrays by seat.
TABLE = np.dtype(
    [
        ("pack", np.int64, N_CARDS),  # the pack being shuffled (sims.core.deck.deal_prefix_nb)
        ("dealt", np.int64, SLOTS),  # per position: the card dealt to it
        ("seat_of", np.int64, SLOTS),  # per position: its seat this round
        ("held", np.int64, SLOTS),  # per position: its final card
        ("swapped", np.int64, SLOTS),  # per position: 1 if its swap was carried out
        ("bet", np.int64, SLOTS),  # per position: its agreed bet, +b against the matador, -b for it
        ("policy", np.int64, (N_POLICY_FIELDS, SLOTS)),  # [field, seat]: the policy, whole numbers
        ("swaps_on", np.uint64, SLOTS),  # per seat: the mask of cards it passes on ...
        ("right_swaps_on", np.uint64, SLOTS),  # ... and passes on as the matador's right
        # [(seat * 2 + decision) * N_GAVE + rank given or GAVE_NONE] (table_row_nb): the
        # cards a seat asks to swap under its table, or its policy where it plays none or
        # the table leaves the cell out ...
        ("table_swaps_on", np.uint64, SLOTS * 2 * N_GAVE),
        # ... and the cards whose cell the table mixes (a draw decides)
        ("table_mixed", np.uint64, SLOTS * 2 * N_GAVE),
        # PURE_TABLES when some seat plays a table, MIXED_TABLES when one of them mixes a
        # cell: rounds then take the table path (play_round_table_nb)
        ("has_tables", np.int64),
        ("knocked_out", np.int64),  # the last round's: 1 if the matador was knocked out
        ("exposed", np.uint64),  # the last round's mask of the exposed players' cards
        ("exposed_sum", np.int64, SLOTS),  # hand mode, per position: exposures
        ("swap_sum", np.int64, SLOTS),  # hand mode, per position: swaps
        ("dealt_sum", np.int64, (2, N_CARDS)),  # hand mode, [knocked out?, card]: non-matadors dealt it
    ]
)

_ONE = np.uint64(1)
_ACES = np.uint64(sum(1 << (13 * suit + ACE_RANK) for suit in range(4)))
_KINGS = np.uint64(sum(1 << (13 * suit + KING_RANK) for suit in range(4)))
_SUIT = np.uint64(0x1FFF)  # the 13 bits of a suit: ace << 13 * suit times this is that suit
# card -> the mask of every card of lower rank (what the matador holding it exposes)
LOWER_THAN = np.array(
    [sum(1 << other for other in range(52) if other % 13 < card % 13) for card in range(52)], dtype=np.uint64
)


@njit(cache=True)
def new_table_nb(policy):
    """A one-record ``TABLE`` array holding the policy as whole numbers and each seat's
    masks of the cards it passes on, every other array zero.  Kernels work on its record,
    ``tables[0]``."""
    n = policy.shape[0]
    tables = np.zeros(1, dtype=TABLE)
    table = tables[0]
    for seat in range(n):
        for field in range(N_POLICY_FIELDS):
            table.policy[field, seat] = np.int64(policy[seat, field])
        ace_swap = table.policy[ACE_SWAP, seat] != 0
        for passes_on, field in ((table.swaps_on, THRESHOLD), (table.right_swaps_on, MATADOR_RIGHT_THRESHOLD)):
            threshold = table.policy[field, seat]
            mask = 0
            for card in range(52):
                face = card % 13
                if face + 1 <= threshold or (ace_swap and face == ACE_RANK):
                    mask |= 1 << card
            passes_on[seat] = mask
    _table_masks_nb(table, policy, n)
    return tables


@njit(cache=True)
def _table_masks_nb(table, policy, n):
    """Each seat's ``table_swaps_on`` and ``table_mixed`` masks: a cell of its table
    with an action of probability 1 sets (swap) or clears (keep) its cards' bits, a cell
    left out (or no table) takes the policy's, a mixed cell marks its cards mixed."""
    for seat in range(n):
        for decision in range(2):
            offset = TABLE_OFFSET + decision * BLOCK_WIDTH
            plays = policy.shape[1] > offset and policy[seat, offset] >= 0.5
            passes_on = table.right_swaps_on[seat] if decision == MATADOR_RIGHT_DECISION else table.swaps_on[seat]
            if plays:
                table.has_tables = max(table.has_tables, PURE_TABLES)
            for gave in range(N_GAVE):
                swaps = passes_on
                mixed = np.uint64(0)
                if plays:
                    for card in range(52):
                        at = offset + 1 + table_cell_nb(card % 13, gave) * N_ACTIONS
                        bit = _ONE << np.uint64(card)
                        if policy[seat, at] < 0.0:
                            continue  # left out: the policy's bit stays
                        swaps &= ~bit
                        if policy[seat, at + SWAP] >= 1.0:
                            swaps |= bit
                        elif policy[seat, at + 1 - SWAP] < 1.0:
                            mixed |= bit
                            table.has_tables = MIXED_TABLES
                row = (seat * 2 + decision) * N_GAVE + gave
                table.table_swaps_on[row] = swaps
                table.table_mixed[row] = mixed
    _fold_rank_tables_nb(table, n)


@njit(cache=True)
def _fold_rank_tables_nb(table, n):
    """When no table mixes a cell or looks at the rank given (a policy written as a table
    does neither), the tables are masks of the rank held like the policy's: they are
    folded into ``swaps_on`` and ``right_swaps_on`` and played by today's path
    (``has_tables`` back to NO_TABLES), at its speed."""
    if table.has_tables != PURE_TABLES:
        return
    for seat in range(n):
        for decision in range(2):
            row = (seat * 2 + decision) * N_GAVE
            for gave in range(N_RANKS):
                if table.table_swaps_on[row + gave] != table.table_swaps_on[row + GAVE_NONE]:
                    return
    for seat in range(n):
        table.swaps_on[seat] = table.table_swaps_on[seat * 2 * N_GAVE + GAVE_NONE]
        table.right_swaps_on[seat] = table.table_swaps_on[(seat * 2 + 1) * N_GAVE + GAVE_NONE]
    table.has_tables = NO_TABLES


@njit(cache=True, inline="always")
def table_cell_nb(held, gave):
    """The cell of a seat holding rank ``held`` at its turn, having given rank ``gave``
    (``GAVE_NONE``: nobody swapped with it); :func:`sims.games.ace_chasing.table.cell_of`."""
    held = np.int64(held)
    gave = np.int64(gave)
    return held if gave == GAVE_NONE else N_RANKS + N_RANKS * gave + held


@njit(cache=True, inline="always")
def rule_codes_nb(rules):
    """The rule values a round reads, as one tuple read once per block:
    ``(king_block, betting, bet_direction)``."""
    return rules[R_KING_BLOCK], rules[R_BETTING], rules[R_BET_DIRECTION]


@njit(cache=True, inline="always")
def place_bets_nb(table, k, bet_direction):
    """Betting (with betting on): each non-matador's agreed bet on its DEALT card into
    ``table.bet``, +b against the matador, -b for it, 0 none."""
    matador = k - 1
    policy = table.policy
    cap = policy[BET_CAP, table.seat_of[matador]]
    for p in range(matador):
        seat = table.seat_of[p]
        rank1 = table.dealt[p] % 13 + 1
        amount = min(policy[BET_SIZE, seat], cap)
        bet = 0
        if rank1 >= policy[BET_MIN_RANK, seat]:
            bet = amount
        elif bet_direction == BET_BETTOR_CHOOSES and rank1 <= policy[BACK_MAX_RANK, seat]:
            bet = -amount
        table.bet[p] = bet


@njit(cache=True, inline="always")
def asks_swap_nb(table, p, k, moving):
    """1 (uint64) if position ``p`` of ``k``, holding the card ``moving``, asks to swap
    under its seat's policy, else 0."""
    seat = table.seat_of[p]
    passes_on = table.right_swaps_on[seat] if p == k - 2 else table.swaps_on[seat]
    return (passes_on >> np.uint64(moving)) & _ONE


@njit(cache=True, inline="always")
def swap_step_nb(table, p, king_block, moving, swap):
    """Position ``p``, holding the card ``moving``, asks to swap with ``p + 1`` (``swap``
    1, uint64) or keeps (0); with king_block a target holding a king refuses.  Writes
    ``held[p]`` and ``swapped[p]``; returns ``(the card p + 1 now holds, p's final card)``.
    ``p + 1``'s card is its dealt one until this step."""
    target = table.dealt[p + 1]
    if king_block:  # the target shows a king and refuses
        swap &= ~(_KINGS >> np.uint64(target))
    final = target if swap else moving
    table.held[p] = final
    table.swapped[p] = swap
    return (moving if swap else target), final


@njit(cache=True, inline="always")
def swap_chain_nb(table, k, king_block, first, moving, held):
    """The swap chain of positions ``first .. k-2`` under their policies, position
    ``first`` holding ``moving``; ``held`` is the mask of the final cards of the
    positions before ``first``.  Returns ``(the matador's final card, the mask of every
    non-matador's final card)``."""
    for p in range(first, k - 1):
        moving, final = swap_step_nb(table, p, king_block, moving, asks_swap_nb(table, p, k, moving))
        held |= _ONE << np.uint64(final)
    return moving, held


@njit(cache=True, inline="always")
def table_row_nb(table, p, k, gave):
    """The index of position ``p``'s masks (``table_swaps_on``, ``table_mixed``) when it
    gave rank ``gave`` (uint64, ``GAVE_NONE`` none); unsigned, so Numba adds no check for
    a negative index."""
    decision = np.uint64(p == k - 2)  # MATADOR_RIGHT_DECISION at the matador's right
    return (np.uint64(table.seat_of[p]) * np.uint64(2) + decision) * np.uint64(N_GAVE) + gave


@njit(cache=True)
def _mixed_action_nb(table, policy, p, k, moving, gave, state):
    """The draw of a mixed cell (sims.core.table_nb.table_action_nb): ``(1 or 0 as
    uint64, state)``, 1 when it swaps.  Compiled apart, out of the chain's loop."""
    seat = table.seat_of[p]
    offset = TABLE_OFFSET + BLOCK_WIDTH * np.int64(p == k - 2)
    cell = table_cell_nb(moving % 13, gave)
    action, state = table_action_nb(policy, seat, offset, N_ACTIONS, cell, state)
    return np.uint64(action == SWAP), state


@njit(cache=True, inline="always")
def decide_table_nb(table, policy, p, k, moving, gave, state):
    """``(1 or 0 as uint64, state)``: whether position ``p`` of ``k``, holding the card
    ``moving`` after giving rank ``gave`` (uint64) to its right-hand neighbour's swap,
    asks to swap under its seat's table (its policy where it plays none or the table
    leaves the cell out).  A mixed cell draws from ``state``."""
    row = table_row_nb(table, p, k, gave)
    bit = np.uint64(moving)
    if (table.table_mixed[row] >> bit) & _ONE:
        return _mixed_action_nb(table, policy, p, k, moving, gave, state)
    return (table.table_swaps_on[row] >> bit) & _ONE, state


@njit(cache=True, inline="always")
def gave_of_nb(target, final):
    """The rank (uint64) the left-hand neighbour gave to a swap with ``target``, its dealt
    card, when the swap was carried out (the position's ``final`` card is ``target``),
    else ``GAVE_NONE``."""
    return np.uint64(target) % np.uint64(13) if final == target else np.uint64(GAVE_NONE)


@njit(cache=True, inline="always")
def gave_after_nb(table, p):
    """The rank position ``p + 1`` gave to ``p``'s swap, ``GAVE_NONE`` when ``p`` did not
    swap with it (uint64)."""
    return gave_of_nb(table.dealt[p + 1], table.held[p])


@njit(cache=True, inline="always")
def swap_chain_table_nb(table, policy, k, king_block, first, moving, held, gave, state):
    """:func:`swap_chain_nb` with every seat's decision from its table
    (:func:`decide_table_nb`): ``gave`` is what position ``first`` gave to its right-hand
    neighbour's swap.  Returns ``(the matador's final card, the mask of every
    non-matador's final card, state)``.  With no mixed cell anywhere nothing is drawn.

    A position that was swapped with gave its dealt card, so both masks it may read (no
    swap from the right, or one that took its dealt card) are loaded before the swap
    before it is known: only a select waits for it."""
    mixed = table.has_tables == MIXED_TABLES
    swapped_in = gave != GAVE_NONE
    none = np.uint64(GAVE_NONE)
    for p in range(first, k - 1):
        row = table_row_nb(table, p, k, np.uint64(0))
        if_given = row + np.uint64(table.dealt[p]) % np.uint64(13)
        bit = np.uint64(moving)
        given_on = table.table_swaps_on[if_given]  # both loads first: no branch waits on the swap before
        none_on = table.table_swaps_on[row + none]
        swaps_on = given_on if swapped_in else none_on
        swap = (swaps_on >> bit) & _ONE
        if mixed:
            gave = np.uint64(table.dealt[p]) % np.uint64(13) if swapped_in else none
            if (table.table_mixed[row + gave] >> bit) & _ONE:
                swap, state = _mixed_action_nb(table, policy, p, k, moving, gave, state)
        target = table.dealt[p + 1]
        moving, final = swap_step_nb(table, p, king_block, moving, swap)
        swapped_in = final == target
        held |= _ONE << np.uint64(final)
    return moving, held, state


@njit(cache=True, inline="always")
def reveal_nb(held, m_card):
    """The reveal of the non-matadors' final cards ``held`` (a mask) against the
    matador's ``m_card``: lower cards, then the suits of face-up aces (one pass is final;
    the aces sit 13 bits apart, so multiplying by a suit's 13 bits spreads each to its
    suit).  Returns ``(knocked_out, the mask of the exposed players' cards)``."""
    lower = held & LOWER_THAN[np.uint64(m_card)]
    up_suits = ((lower | (_ONE << np.uint64(m_card))) & _ACES) * _SUIT
    exposed = held & (lower | up_suits)
    return exposed == 0, exposed


@njit(cache=True, inline="always")
def play_round_nb(table, k, codes):
    """Play one round among ``k`` positions (0 = the matador's left, ``k-1`` = matador)
    under the rule values ``codes`` (:func:`rule_codes_nb`).

    Reads the deal from ``table.dealt`` and the seats from ``table.seat_of``; writes the
    final cards and the swaps to ``held`` and ``swapped`` and, with betting on, the agreed
    bets to ``bet`` (never written otherwise, so it stays 0).  Returns ``(knocked_out,
    exposed)``: ``exposed`` is the mask of the exposed players' cards.
    """
    king_block, betting, bet_direction = codes
    if betting:
        place_bets_nb(table, k, bet_direction)
    # The swap chain: the card moving on is the one the next position holds at its turn
    # (the dealt card of p + 1 is untouched until then).
    moving, held = swap_chain_nb(table, k, king_block, 0, table.dealt[0], np.uint64(0))
    table.held[k - 1] = moving
    return reveal_nb(held, moving)


@njit(cache=True, inline="always")
def play_round_table_nb(table, policy, k, codes, state):
    """:func:`play_round_nb` when some seat plays a table (``table.has_tables``): the
    decisions from the tables in ``policy`` (the matrix ``table`` was made from), mixed
    cells drawing from ``state``.  Returns ``(knocked_out, exposed, state)``."""
    king_block, betting, bet_direction = codes
    if betting:
        place_bets_nb(table, k, bet_direction)
    moving, held, state = swap_chain_table_nb(
        table, policy, k, king_block, 0, table.dealt[0], np.uint64(0), np.uint64(GAVE_NONE), state
    )
    table.held[k - 1] = moving
    knocked_out, exposed = reveal_nb(held, moving)
    return knocked_out, exposed, state


@njit(cache=True, inline="always")
def play_any_round_nb(table, policy, k, codes, state):
    """One round by the table path or, when no seat plays a table, today's (which draws
    nothing).  Returns ``(knocked_out, exposed, state)``."""
    if table.has_tables:
        return play_round_table_nb(table, policy, k, codes, state)
    knocked_out, exposed = play_round_nb(table, k, codes)
    return knocked_out, exposed, state


@njit(cache=True, inline="always")
def hand_table_nb(rules, policy, n):
    """The scratch :func:`play_hand_nb` plays on: a one-record ``TABLE`` array (its record,
    ``tables[0]``, is the table), each position played by the seat of that number."""
    tables = new_table_nb(policy)
    table = tables[0]
    for seat in range(n):
        table.seat_of[seat] = seat
    return tables


@njit(cache=True, inline="always")
def hand_codes_nb(rules, policy, table, n):
    """What :func:`play_hand_nb` reads besides the table, once per block: the rule values
    (:func:`rule_codes_nb`), whether any seat plays a table, and the policy matrix whose
    table blocks those seats read."""
    return rule_codes_nb(rules), table.has_tables != 0, policy


@njit(cache=True, inline="always")
def play_hand_nb(table, n, dealer, shuffle, state, codes):
    """The game's per-hand entry point (the contract every game's kernel shares): one round
    at ``n`` positions on the record ``table``, from the round's stream ``state`` (which
    only mixed table cells draw from after the deal); the positions run from the matador's
    left, so ``dealer`` (the matador) is always ``n - 1`` (which seat sits at each position
    is ``table.seat_of``).  With ``shuffle`` the cards are dealt from the stream into
    ``table.dealt``; without, they are the ones stacked there.  ``codes`` is
    :func:`hand_codes_nb`'s.  The final cards, swaps and bets are left in ``held``,
    ``swapped`` and ``bet``, the outcome in ``knocked_out`` and ``exposed``; returns the
    advanced stream."""
    rule_codes, tables_on, policy = codes
    if shuffle:
        state = deal_prefix_nb(table.pack, table.dealt, n, state)
    if tables_on:
        knocked_out, exposed, state = play_round_table_nb(table, policy, n, rule_codes, state)
    else:
        knocked_out, exposed = play_round_nb(table, n, rule_codes)
    table.knocked_out = knocked_out
    table.exposed = exposed
    return state


@njit(cache=True, inline="always")
def _bet_result(bet, knocked_out):
    """Units a bettor wins on an agreed bet (+b against the matador, -b for it)."""
    if bet > 0:
        return bet if knocked_out else -bet
    return -bet if not knocked_out else bet


@njit(cache=True, inline="always")
def _is_exposed(exposed, card):
    return np.int64((exposed >> np.uint64(card)) & _ONE)


@njit(cache=True, nogil=True, _nrt=False)
def _hand_sums_nb(rules, policy, tables, out, n, seed, first, count):
    """Hand mode's loop: the sums of hands ``first .. first+count-1`` into ``out``.  It
    allocates nothing and is compiled without NRT: with it, binding the scratch arrays to
    the inlined round's arguments cost atomic incref/decref pairs in every hand."""
    table = tables[0]
    codes = hand_codes_nb(rules, policy, table, n)
    betting = codes[0][1]
    matador = n - 1
    seed_key = seed_key_nb(seed)
    for hand in range(first, first + count):
        play_hand_nb(table, n, matador, True, stream_nb(seed_key, hand), codes)
        knocked_out = table.knocked_out
        exposed = table.exposed
        exposures = count_cards_nb(exposed)
        for p in range(matador):
            table.exposed_sum[p] += _is_exposed(exposed, table.held[p])
            table.swap_sum[p] += table.swapped[p]
            # Unsigned: the index is a loaded card, which Numba would otherwise check
            # for a negative value.
            table.dealt_sum[np.uint64(knocked_out), np.uint64(table.dealt[p])] += 1
        if betting:
            matador_net = 0
            for p in range(matador):
                bet = table.bet[p]
                net = _bet_result(bet, knocked_out)
                matador_net -= net
                out[p, 2] += bet != 0
                out[p, 3] += net
                out[p, 4] += net * net
            out[matador, 3] += matador_net
            out[matador, 4] += matador_net * matador_net
        out[n, 0] += knocked_out
        out[n, 1] += exposures
        out[n, 2] += exposures * exposures
    for p in range(matador):
        out[p, 0] = table.exposed_sum[p]
        out[p, 1] = table.swap_sum[p]
    for face in range(13):  # a unit bet wins +1 in knock-outs and -1 otherwise; its square is 1
        dealt = 0
        dealt_knocked_out = 0
        for suit in range(4):
            dealt += table.dealt_sum[0, 13 * suit + face]
            dealt_knocked_out += table.dealt_sum[1, 13 * suit + face]
        dealt += dealt_knocked_out
        column = UNIT_BET_FIRST + 3 * face
        out[n, column] = 2 * dealt_knocked_out - dealt
        out[n, column + 1] = dealt
        out[n, column + 2] = dealt


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over hands ``first .. first+count-1`` of ``seed``, the
    matador in seat ``n-1``.  Returns int64 ``[n + 1, width]`` (see ``HAND_OUTCOMES``)."""
    out = np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)
    _hand_sums_nb(rules, policy, hand_table_nb(rules, policy, n), out, n, seed, first, count)
    return out


@njit(cache=True, inline="always")
def eliminate_nb(table, alive, place2, k, left, knocked_out, exposed):
    """After a round among ``k`` positions (seats in ``table.seat_of``, final cards in
    ``table.held``): the matador (knocked out) or every exposed player is out, sharing
    the places ``r+1 .. r+j`` (``place2`` in halves).  Returns the players left, ``r``."""
    out_now = 1 if knocked_out else count_cards_nb(exposed)
    survivors = left - out_now
    for p in range(k):
        if (knocked_out and p == k - 1) or (p < k - 1 and _is_exposed(exposed, table.held[p])):
            seat = table.seat_of[p]
            alive[seat] = 0
            place2[seat] = 2 * survivors + out_now + 1
    return survivors


@njit(cache=True, inline="always")
def next_matador_nb(alive, matador, step, n, left):
    """The nearest alive seat from ``matador`` in the direction ``step`` (-1 right, +1 left)."""
    seat = (matador + step) % n
    while not alive[seat] and left > 0:
        seat = (seat + step) % n
    return seat


@njit(cache=True, inline="always")
def play_on_nb(table, policy, alive, bet_net, matador_net, place2, n, left, matador, rounds, step, codes, state):
    """The rest of a game from where it stands: ``alive`` per seat, ``left`` of them, the
    ``matador`` of the next round; rounds until one seat is left.  ``bet_net``,
    ``matador_net`` and ``place2`` are added to per seat; ``policy`` is the matrix
    ``table`` was made from (its tables).  Returns ``(rounds, state)``."""
    while left > 1:
        k = 0
        for offset in range(1, n + 1):
            seat = (matador + offset) % n
            if alive[seat]:
                table.seat_of[k] = seat
                k += 1
        state = deal_prefix_nb(table.pack, table.dealt, k, state)
        knocked_out, exposed, state = play_any_round_nb(table, policy, k, codes, state)
        rounds += 1
        for p in range(k - 1):
            net = _bet_result(table.bet[p], knocked_out)
            bet_net[table.seat_of[p]] += net
            bet_net[matador] -= net
            matador_net[matador] -= net
        left = eliminate_nb(table, alive, place2, k, left, knocked_out, exposed)
        matador = next_matador_nb(alive, matador, step, n, left)
    return rounds, state


@njit(cache=True, nogil=True, _nrt=False)
def _game_sums_nb(rules, policy, tables, out, alive, place2, bet_net, matador_net, n, seed, first, count):
    """Game mode's loop (allocating nothing, compiled without NRT like
    :func:`_hand_sums_nb`): the sums of games ``first .. first+count-1`` into ``out``;
    ``alive``, ``place2`` (finishing place, in halves), ``bet_net`` and ``matador_net``
    are per-seat scratch."""
    table = tables[0]
    step = 1 if rules[R_NEXT] == NEXT_LEFT else -1
    codes = rule_codes_nb(rules)
    seed_key = seed_key_nb(seed)
    for game in range(first, first + count):
        state = stream_nb(seed_key, game)
        for seat in range(n):
            alive[seat] = 1
            place2[seat] = 0
            bet_net[seat] = 0
            matador_net[seat] = 0
        rounds, state = play_on_nb(
            table, policy, alive, bet_net, matador_net, place2, n, n, n - 1, 0, step, codes, state
        )
        for seat in range(n):
            if alive[seat]:
                place2[seat] = 2
                out[seat, 0] += 1
            out[seat, 1] += place2[seat]
            out[seat, 2] += place2[seat] * place2[seat]
            out[seat, 3] += bet_net[seat]
            out[seat, 4] += bet_net[seat] * bet_net[seat]
            out[seat, 5] += matador_net[seat]
            out[seat, 6] += matador_net[seat] * matador_net[seat]
        out[n, 0] += rounds
        out[n, 1] += rounds * rounds
        bucket = 0
        while bucket + 1 < len(LENGTH_BUCKET_LOW) and rounds >= LENGTH_BUCKET_LOW[bucket + 1]:
            bucket += 1
        out[n, G_LENGTH + bucket] += 1


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over games ``first .. first+count-1`` of ``seed``, the first
    matador in seat ``n-1``.  Returns int64 ``[n + 1, width]`` (see ``GAME_OUTCOMES``)."""
    out = np.zeros((n + 1, GAME_WIDTH), dtype=np.int64)
    _game_sums_nb(
        rules,
        policy,
        new_table_nb(policy),
        out,
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        n,
        seed,
        first,
        count,
    )
    return out


# ----------------------------------------------------------------------------------------
# The solve kernel (sims.core.table_nb): hand mode's deals, every visit to the decision
# solved replayed with the other action.
#
# The swap chain is replayed from the visit rather than from the deal's start: everything
# before the visit (the deal, the earlier decisions and their draws) is the base play's,
# so the saved situation at the visit (card held, rank given, the earlier final cards, the
# stream's state after the visit's own draw) is where a replay from the start would be.

V_MOVING, V_GAVE, V_ACTION, V_EXPOSED = range(4)  # columns of the solve's per-position scratch
V_HELD = 4  # the uint64 scratch: the stream's state (four words), then the mask of earlier final cards


@njit(cache=True, inline="always")
def _base_play_nb(table, policy, n, king_block, lo, hi, visit, words, state):
    """The deal in ``table.dealt`` played by the profile, saving in ``visit`` and
    ``words`` the situation of every position ``lo .. hi-1`` at its turn (the card held,
    the rank given, the action taken, then the seat's exposure; the stream's state after
    its draw and the mask of the final cards before it)."""
    moving = table.dealt[0]
    held = np.uint64(0)
    gave = np.uint64(GAVE_NONE)
    for p in range(n - 1):
        swap, state = decide_table_nb(table, policy, p, n, moving, gave, state)
        if lo <= p < hi:
            visit[p, V_MOVING] = moving
            visit[p, V_GAVE] = gave
            visit[p, V_ACTION] = SWAP if swap else 1 - SWAP
            for w in range(4):
                words[p, w] = state[w]
            words[p, V_HELD] = held
        target = table.dealt[p + 1]
        moving, final = swap_step_nb(table, p, king_block, moving, swap)
        gave = gave_of_nb(target, final)
        held |= _ONE << np.uint64(final)
    table.held[n - 1] = moving
    _, exposed = reveal_nb(held, moving)
    for p in range(lo, hi):
        visit[p, V_EXPOSED] = _is_exposed(exposed, table.held[p])


@njit(cache=True, inline="always")
def _replay_nb(table, policy, n, king_block, p, swap, visit, words):
    """Position ``p``'s exposure when its visit takes ``swap`` (1 or 0) and the rest of
    the chain plays the profile from the saved situation."""
    state = (words[p, 0], words[p, 1], words[p, 2], words[p, 3])
    moving, final = swap_step_nb(table, p, king_block, visit[p, V_MOVING], np.uint64(swap))
    held = words[p, V_HELD] | (_ONE << np.uint64(final))
    m_card, held, state = swap_chain_table_nb(
        table, policy, n, king_block, p + 1, moving, held, gave_after_nb(table, p), state
    )
    _, exposed = reveal_nb(held, m_card)
    return _is_exposed(exposed, final)


@njit(cache=True, nogil=True)
def _solve_deals_nb(rules, policy, tables, out, visit, words, values, n, seed, first, count, decision):
    """The deals of :func:`solve_nb` (the caller holds ``tables``, see sims.core.deck)."""
    table = tables[0]
    king_block = rules[R_KING_BLOCK]
    lo, hi = (n - 2, n - 1) if decision == MATADOR_RIGHT_DECISION else (0, n - 2)
    seed_key = seed_key_nb(seed)
    for seat in range(n):
        table.seat_of[seat] = seat
    for hand in range(first, first + count):
        state = stream_nb(seed_key, hand)
        state = deal_prefix_nb(table.pack, table.dealt, n, state)
        _base_play_nb(table, policy, n, king_block, lo, hi, visit, words, state)
        for p in range(lo, hi):
            taken = visit[p, V_ACTION]
            values[taken] = visit[p, V_EXPOSED]
            values[1 - taken] = _replay_nb(table, policy, n, king_block, p, (1 - taken) == SWAP, visit, words)
            cell = table_cell_nb(visit[p, V_MOVING] % 13, visit[p, V_GAVE])
            record_visit_nb(out, p, cell, N_CELLS, values, 3)


@njit(cache=True, nogil=True)
def solve_nb(rules, policy, n, seed, first, count, decision):
    """The solve sums (sims.core.table_nb) of hands ``first .. first+count-1`` of ``seed``
    for the decision ``decision`` (0 swap: positions 0 .. n-3; 1 matador_right: position
    n-2): per (seat, cell) the visits and the seat's exposure under each action.  Betting
    moves no card, so it is not played.  Returns int64 ``[n * N_CELLS * STATS]``."""
    out = np.zeros(n * N_CELLS * STATS, dtype=np.int64)
    visit = np.zeros((SLOTS, 4), dtype=np.int64)
    words = np.zeros((SLOTS, 5), dtype=np.uint64)
    values = np.zeros(N_ACTIONS, dtype=np.int64)
    _solve_deals_nb(rules, policy, new_table_nb(policy), out, visit, words, values, n, seed, first, count, decision)
    return out
