"""Fan Tan: the Numba kernels (one deal, hand mode, game mode).

They play the rules contract in the package docstring (sims/games/fan_tan/__init__.py).

Cards are bits 16 * suit + face (face 0 = A ... 12 = K), so a hand and the layout are
64-bit masks, bit order is code order, and the cards that may be added to the layout are
the neighbours of the played cards inside their suit plus the unplayed sevens: a few
shifts and masks per turn.  The pack, the per-seat results and the hand-mode sums live
in one flat int64 workspace of 52-entry rows (see sims.core.deck).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.deck import FIRST_GAME_ROW, N_CARDS, ROW, draw_nb, reset_pack_nb
from sims.core.rng import below_nb, seed_key_nb, stream_nb
from sims.core.tricks import RANK_COLUMN, count_cards_nb, lowest_bit_nb
from sims.games.fan_tan.rules import (
    FEWER_CARDS_PAY_EXTRA,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    HOYLE_HOLDER_PENALTY,
    HOYLE_PASS_PENALTY,
    MAX_PLAYERS,
    MORE_CARDS_PAY_EXTRA,
    PASS_WITH_SEVENS,
    SETTLE_CARD_COUNT,
    SETTLE_POT_PLUS_CARDS,
    START_ELDEST,
    START_HOLDER_7D,
    STYLE,
    STYLE_BLOCK,
    STYLE_FIRST,
    STYLE_HOLD_SEVENS,
    STYLE_RANDOM,
    UNEVEN_NONE,
    Rules,
)

HAND_WIDTH = HAND_OUTCOMES.kernel_width  # plain ints: the kernels cannot read Outcomes
GAME_WIDTH = GAME_OUTCOMES.kernel_width
H_WIN, H_NET, H_PASSES, H_PAID, H_CARDS_LEFT = (
    HAND_OUTCOMES.seat.index(name) for name in ("win", "net", "passes", "paid", "cards_left"))
HT_TURNS, HT_POT = (HAND_OUTCOMES.table.index(name) for name in ("turns", "pot"))
G_NET, G_WINS, G_CARDS_LEFT, G_BEST_SCORE = (
    GAME_OUTCOMES.seat.index(name) for name in ("net", "wins", "cards_left", "best_score"))
GT_TURNS = GAME_OUTCOMES.table.index("turns")
assert HAND_OUTCOMES.squares_follow() and GAME_OUTCOMES.squares_follow()  # the kernels write X_sq at X + 1

N_RULES = len(Rules._fields)
R_ANTE, R_UNEVEN_ANTE, R_START, R_SETTLE, R_MAY_PASS, R_EIGHT_BEFORE_SIX, R_PASS_FEE, R_CARD_FEE = range(N_RULES)

DECK_ROW = 0  # the pack (bits)
BIT_ROW = FIRST_GAME_ROW + 0 * ROW  # card code -> bit: the pack in code order
RULES_ROW = FIRST_GAME_ROW + 1 * ROW
POLICY_ROW = FIRST_GAME_ROW + 2 * ROW  # policy field f of seat s at POLICY_ROW + f * MAX_PLAYERS + s
SEAT_ROW = FIRST_GAME_ROW + 3 * ROW  # per-seat results: SEAT_ROW + S_* * MAX_PLAYERS + seat
INFO_ROW = FIRST_GAME_ROW + 4 * ROW  # the deal's scalar results, I_* below
ACC_ROW = FIRST_GAME_ROW + 5 * ROW  # hand-mode sums, ACC_STRIDE per seat and one for the table
ACC_STRIDE = 16
LOG_ROW = ACC_ROW + 3 * ROW  # stacked deals only: turn t's seat at LOG_ROW + 2t, its card (bit) at 2t + 1
MAX_TURNS = 52 * (2 * MAX_PLAYERS - 1)  # at most 2n - 2 passes (voluntary ones included) before each play
N_WORK_ROWS = (LOG_ROW - FIRST_GAME_ROW) // ROW + 2 * MAX_TURNS // ROW + 1
assert HAND_WIDTH <= ACC_STRIDE and (MAX_PLAYERS + 1) * ACC_STRIDE <= LOG_ROW - ACC_ROW
S_PAID, S_RECEIVED, S_PASSES, S_CARDS_LEFT = range(4)
I_WINNER, I_TURNS, I_POT = range(3)
PASS, VOLUNTARY_PASS = -1, -2  # the log's card of a pass

BIT_OF_CODE = np.array([16 * (code // 13) + code % 13 for code in range(N_CARDS)], dtype=np.int64)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
ALL_CARDS = np.uint64(0x1FFF) * RANK_COLUMN
SIXES, SEVENS, EIGHTS = (RANK_COLUMN << np.uint64(face) for face in (5, 6, 7))


@njit(cache=True, inline="always")
def legal_cards_nb(layout, eight_before_six):
    """The cards that may be added to ``layout`` (package docstring): the unplayed sevens
    and the cards next to a started row, a 6 only after its 8 with eight_before_six."""
    legal = ((((layout << _ONE) | (layout >> _ONE)) & ALL_CARDS) | SEVENS) & ~layout
    if eight_before_six:
        legal &= ~SIXES | ((layout & EIGHTS) >> np.uint64(2))
    return legal


@njit(cache=True, inline="always")
def unlocked_nb(hand, card, layout, legal, eight_before_six):
    """The cards of ``hand`` that playing ``card`` makes legal (and that were not)."""
    return legal_cards_nb(layout | (_ONE << card), eight_before_six) & ~legal & hand


@njit(cache=True, inline="always")
def choose_card_nb(style, hand, playable, layout, legal, eight_before_six, state):
    """The card a seat plays (policy style, package docstring): ``(card, state)``."""
    if style == STYLE_FIRST:
        return lowest_bit_nb(playable), state
    if style == STYLE_RANDOM:
        k = count_cards_nb(playable)
        if k > 1:
            i, state = below_nb(state, k)
            for skip in range(i):
                playable &= playable - _ONE
        return lowest_bit_nb(playable), state
    if style == STYLE_HOLD_SEVENS:
        others = playable & ~SEVENS
        return lowest_bit_nb(others if others else playable), state
    if style == STYLE_BLOCK:
        candidates = playable & ~(SIXES | EIGHTS)
        if not candidates:
            candidates = playable
        rest = candidates
        while rest:
            card = lowest_bit_nb(rest)
            if unlocked_nb(hand, card, layout, legal, eight_before_six):
                return card, state
            rest &= rest - _ONE
        return lowest_bit_nb(candidates), state
    # STYLE_GREEDY_UNLOCK
    best = lowest_bit_nb(playable)
    most = -1
    rest = playable
    while rest:
        card = lowest_bit_nb(rest)
        unlocked = count_cards_nb(unlocked_nb(hand, card, layout, legal, eight_before_six))
        if unlocked > most:
            most = unlocked
            best = card
        rest &= rest - _ONE
    return best, state


@njit(cache=True)
def new_table_nb(rules, policy, n):
    """The workspace and hand masks of a table: rules, policy and the code -> bit row filled in."""
    work = np.zeros(FIRST_GAME_ROW + N_WORK_ROWS * ROW, dtype=np.int64)
    hands = np.zeros(MAX_PLAYERS, dtype=np.uint64)
    for code in range(N_CARDS):
        work[BIT_ROW + code] = BIT_OF_CODE[code]
    for r in range(rules.shape[0]):
        work[RULES_ROW + r] = rules[r]
    for seat in range(n):
        for field in range(policy.shape[1]):
            work[POLICY_ROW + field * MAX_PLAYERS + seat] = np.int64(policy[seat, field])
    return work, hands


@njit(cache=True, inline="always")
def _pay_nb(work, seat, chips):
    work[np.uint64(SEAT_ROW + S_PAID * MAX_PLAYERS + seat)] += chips
    return chips


PATH_RULE_FIELDS = (R_UNEVEN_ANTE, R_START, R_SETTLE, R_MAY_PASS, R_EIGHT_BEFORE_SIX)  # rules that choose code


@njit(cache=True, inline="always")
def rule_codes_nb(rules):
    """The values of ``PATH_RULE_FIELDS`` (the rules that choose code paths) as one tuple.
    The kernels read them once per block (or take them as compile-time constants), so no
    deal loads them from memory."""
    return (rules[R_UNEVEN_ANTE], rules[R_START], rules[R_SETTLE], rules[R_MAY_PASS], rules[R_EIGHT_BEFORE_SIX])


@njit(cache=True, inline="always")
def rule_amounts_nb(rules):
    """The chip amounts of the rules, ``(ante, pass_fee, card_fee)``, read once per block."""
    return rules[R_ANTE], rules[R_PASS_FEE], rules[R_CARD_FEE]


@njit(cache=True, inline="always")
def plays_first_cards_nb(work, n, codes):
    """Whether every seat plays its first playable card (style first) and never passes
    voluntarily (no may_pass_when_able, or no seat with pass_with_sevens): then
    :func:`play_deal_nb`'s turns take the branch-free path."""
    may_pass = codes[3] != 0  # may_pass_when_able
    for seat in range(n):
        if work[POLICY_ROW + STYLE * MAX_PLAYERS + seat] != STYLE_FIRST:
            return False
        if may_pass and work[POLICY_ROW + PASS_WITH_SEVENS * MAX_PLAYERS + seat]:
            return False
    return True


@njit(cache=True, inline="always")
def _play_deal_nb(work, hands, n, dealer, shuffle, state, codes, amounts, first_cards):
    """Play one deal (package docstring, steps 1-4) and return the advanced stream state.

    The pack row must hold the pack (code order for a random deal, the stacked order
    otherwise); ``shuffle`` = 0 draws it without swaps and logs every turn.  ``codes`` is
    :func:`rule_codes_nb`'s tuple, ``amounts`` :func:`rule_amounts_nb`'s; ``first_cards`` is :func:`plays_first_cards_nb` (taken
    only with ``shuffle``: that path keeps no log).  Results go to the SEAT rows (S_*), the
    INFO row (I_*) and ``hands`` (the cards left).
    """
    uneven, start, settle, may_pass, eight_before_six = codes
    ante, pass_fee, card_fee = amounts
    chips = settle != SETTLE_CARD_COUNT
    eight_before_six = eight_before_six != 0
    may_pass = may_pass != 0
    for seat in range(n):
        hands[np.uint64(seat)] = _ZERO
        for field in range(4):
            work[np.uint64(SEAT_ROW + field * MAX_PLAYERS + seat)] = 0

    # 1. The deal and the antes.
    seat = dealer
    top = 0
    for k in range(N_CARDS):
        seat = seat + 1 if seat + 1 < n else 0
        card, top, state = draw_nb(work, top, N_CARDS, shuffle, state)
        hands[np.uint64(seat)] |= _ONE << np.uint64(card)
    pot = 0
    if chips:
        # Only an uneven_ante rule needs the hand sizes (two divisions, slow to wait for).
        uneven_sizes = uneven != UNEVEN_NONE and N_CARDS % n != 0
        short = N_CARDS // n if uneven_sizes else 0  # the size of the smaller hands
        for seat in range(n):
            seat_ante = ante
            if uneven_sizes:
                fewer = count_cards_nb(hands[seat]) == short
                if (uneven == FEWER_CARDS_PAY_EXTRA and fewer) or (uneven == MORE_CARDS_PAY_EXTRA and not fewer):
                    seat_ante += 1
            pot += _pay_nb(work, seat, seat_ante)

    # 2. The opening.
    layout = _ZERO
    turns = 0
    seat = dealer + 1 if dealer + 1 < n else 0
    if start != START_ELDEST:
        opening = _ONE << np.uint64(16 * (1 if start == START_HOLDER_7D else 2) + 6)
        while not hands[seat] & opening:
            seat = seat + 1 if seat + 1 < n else 0
        hands[seat] &= ~opening
        layout = opening
        if not shuffle:
            work[LOG_ROW] = seat
            work[LOG_ROW + 1] = np.int64(16 * (1 if start == START_HOLDER_7D else 2) + 6)
        turns = 1
        seat = seat + 1 if seat + 1 < n else 0
    legal = legal_cards_nb(layout, eight_before_six)

    # 3. Turns until a hand is empty.
    first_cards = first_cards and shuffle
    if first_cards:
        # Every seat plays its lowest playable card or passes when it has none.  Whether a
        # seat can play is a coin flip for the branch predictor, so the turn is masks only:
        # the card is the lowest bit of the playable cards, none for a pass; the pass fees
        # are paid at the settlement (passes times pass_fee).
        while True:
            hand = hands[np.uint64(seat)]  # unsigned: no negative-index check
            playable = hand & legal
            played = playable & (_ZERO - playable)
            hand ^= played
            hands[np.uint64(seat)] = hand
            layout |= played
            legal = legal_cards_nb(layout, eight_before_six)
            work[np.uint64(SEAT_ROW + S_PASSES * MAX_PLAYERS + seat)] += played == _ZERO
            turns += 1
            if not hand:
                break
            seat = seat + 1 if seat + 1 < n else 0
    else:
        passes_in_a_row = 0
        while True:
            hand = hands[np.uint64(seat)]
            playable = hand & legal
            logged = PASS
            if playable and not (may_pass and passes_in_a_row < n - 1 and not (playable & ~SEVENS)
                                 and work[POLICY_ROW + PASS_WITH_SEVENS * MAX_PLAYERS + seat]):
                card, state = choose_card_nb(work[np.uint64(POLICY_ROW + STYLE * MAX_PLAYERS + seat)], hand, playable,
                                             layout, legal, eight_before_six, state)
                hand &= ~(_ONE << card)
                hands[np.uint64(seat)] = hand
                layout |= _ONE << card
                legal = legal_cards_nb(layout, eight_before_six)
                passes_in_a_row = 0
                logged = np.int64(card)
            else:
                work[np.uint64(SEAT_ROW + S_PASSES * MAX_PLAYERS + seat)] += 1
                passes_in_a_row += 1
                if not playable:
                    if chips:
                        pot += _pay_nb(work, seat, pass_fee)
                else:  # a voluntary pass, holding back sevens: Hoyle's penalties
                    logged = VOLUNTARY_PASS
                    if chips:
                        pot += _pay_nb(work, seat, HOYLE_PASS_PENALTY)
                        held = hand & SEVENS
                        while held:
                            seven = lowest_bit_nb(held)
                            held &= held - _ONE
                            for neighbour in (seven - _ONE, seven + _ONE):
                                for other in range(n):
                                    if other != seat and hands[other] & (_ONE << neighbour):
                                        _pay_nb(work, seat, HOYLE_HOLDER_PENALTY)
                                        work[SEAT_ROW + S_RECEIVED * MAX_PLAYERS + other] += HOYLE_HOLDER_PENALTY
            if not shuffle:
                work[LOG_ROW + 2 * turns] = seat
                work[LOG_ROW + 2 * turns + 1] = logged
            turns += 1
            if not hand:
                break
            seat = seat + 1 if seat + 1 < n else 0

    # 4. Settlement.
    winner = seat
    for other in range(n):
        left = count_cards_nb(hands[other])
        work[SEAT_ROW + S_CARDS_LEFT * MAX_PLAYERS + other] = left
        if chips and first_cards:
            pot += _pay_nb(work, other, work[SEAT_ROW + S_PASSES * MAX_PLAYERS + other] * pass_fee)
        if chips and settle == SETTLE_POT_PLUS_CARDS:
            pot += _pay_nb(work, other, left * card_fee)
    if chips:
        work[SEAT_ROW + S_RECEIVED * MAX_PLAYERS + winner] += pot
    work[INFO_ROW + I_WINNER] = winner
    work[INFO_ROW + I_TURNS] = turns
    work[INFO_ROW + I_POT] = pot
    return state


@njit(cache=True)
def play_deal_nb(work, hands, n, dealer, shuffle, state):
    """:func:`_play_deal_nb` with the rules of the workspace's rules row (a stacked deal's
    call from Python)."""
    rules = work[RULES_ROW:RULES_ROW + N_RULES]
    codes = rule_codes_nb(rules)
    return _play_deal_nb(work, hands, n, dealer, shuffle, state, codes, rule_amounts_nb(rules),
                         plays_first_cards_nb(work, n, codes))


@njit(cache=True, inline="always")
def _seat_value_nb(work, field, seat):
    """A per-seat result (S_*), read with an unsigned index (no negative-index check)."""
    return work[np.uint64(SEAT_ROW + field * MAX_PLAYERS + seat)]


@njit(cache=True, inline="always")
def _net_nb(work, seat):
    return _seat_value_nb(work, S_RECEIVED, seat) - _seat_value_nb(work, S_PAID, seat)


@njit(cache=True, inline="always")
def _play_hands_nb(rules, policy, n, seed, first, count, codes):
    """Hand mode's loop, for both hand kernels: ``codes`` are the values of
    :func:`rule_codes_nb`, read from ``rules`` or fixed at compile time."""
    work, hands = new_table_nb(rules, policy, n)
    amounts = rule_amounts_nb(rules)
    first_cards = plays_first_cards_nb(work, n, codes)
    table = ACC_ROW + n * ACC_STRIDE  # the sums live in the flat workspace until the end
    seed_key = seed_key_nb(seed)
    for deal in range(first, first + count):
        state = stream_nb(seed_key, deal)
        reset_pack_nb(work, work[BIT_ROW:BIT_ROW + N_CARDS])
        state = _play_deal_nb(work, hands, n, n - 1, True, state, codes, amounts, first_cards)
        for seat in range(n):
            acc = np.uint64(ACC_ROW + seat * ACC_STRIDE)  # unsigned: no negative-index checks
            net = _net_nb(work, seat)
            passes = _seat_value_nb(work, S_PASSES, seat)
            paid = _seat_value_nb(work, S_PAID, seat)
            left = _seat_value_nb(work, S_CARDS_LEFT, seat)
            work[acc + np.uint64(H_NET)] += net
            work[acc + np.uint64(H_NET + 1)] += net * net
            work[acc + np.uint64(H_PASSES)] += passes
            work[acc + np.uint64(H_PASSES + 1)] += passes * passes
            work[acc + np.uint64(H_PAID)] += paid
            work[acc + np.uint64(H_PAID + 1)] += paid * paid
            work[acc + np.uint64(H_CARDS_LEFT)] += left
            work[acc + np.uint64(H_CARDS_LEFT + 1)] += left * left
        work[ACC_ROW + work[INFO_ROW + I_WINNER] * ACC_STRIDE + H_WIN] += 1
        turns = work[INFO_ROW + I_TURNS]
        pot = work[INFO_ROW + I_POT]
        work[table + HT_TURNS] += turns
        work[table + HT_TURNS + 1] += turns * turns
        work[table + HT_POT] += pot
        work[table + HT_POT + 1] += pot * pot
    out = np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)
    for row in range(n + 1):
        for column in range(HAND_WIDTH):
            out[row, column] = work[ACC_ROW + row * ACC_STRIDE + column]
    return out


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over deals ``first .. first+count-1`` of ``seed``, dealer in
    seat ``n-1``.  Returns int64 ``[n + 1, width]`` (see ``HAND_OUTCOMES``).  Any rules
    (see :func:`fixed_hands_kernel`)."""
    return _play_hands_nb(rules, policy, n, seed, first, count, rule_codes_nb(rules))


def fixed_hands_kernel(codes: tuple):
    """:func:`simulate_hands_nb` compiled for one tuple of :func:`rule_codes_nb`: the rule
    tests fold away at compile time (about 10% fewer instructions per hand under the
    standard rules, most of them in the turn loop: no eight_before_six gate, no chips
    test).  Each tuple is a cold compile of about as long as the generic kernel's (several
    seconds) and a cache file of about 85 KB, so ``SPEC`` uses it for the standard rules
    only (``fixed_kernels``; any ante and fees).  Same sums as the generic kernel for rules
    with these codes."""
    codes = tuple(int(code) for code in codes)

    @njit(cache=True, nogil=True)
    def simulate_hands_fixed_nb(rules, policy, n, seed, first, count):
        return _play_hands_nb(rules, policy, n, seed, first, count, codes)

    return simulate_hands_fixed_nb


def hand_rule_codes(rules) -> tuple:
    """:func:`rule_codes_nb` in Python (the key of a fixed-rules kernel)."""
    return tuple(int(rules[field]) for field in PATH_RULE_FIELDS)


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over rotations ``first .. first+count-1`` of ``seed``: n
    deals, dealt by seats n-1, 0, 1, ..., n-2.  Returns int64 ``[n + 1, width]``."""
    out = np.zeros((n + 1, GAME_WIDTH), dtype=np.int64)
    work, hands = new_table_nb(rules, policy, n)
    codes = rule_codes_nb(rules)
    amounts = rule_amounts_nb(rules)
    first_cards = plays_first_cards_nb(work, n, codes)
    net = np.zeros(n, dtype=np.int64)
    wins = np.zeros(n, dtype=np.int64)
    left = np.zeros(n, dtype=np.int64)
    seed_key = seed_key_nb(seed)
    for game in range(first, first + count):
        state = stream_nb(seed_key, game)
        turns = 0
        for seat in range(n):
            net[seat] = 0
            wins[seat] = 0
            left[seat] = 0
        for deal in range(n):
            reset_pack_nb(work, work[BIT_ROW:BIT_ROW + N_CARDS])
            state = _play_deal_nb(work, hands, n, (n - 1 + deal) % n, True, state, codes, amounts, first_cards)
            turns += work[INFO_ROW + I_TURNS]
            wins[work[INFO_ROW + I_WINNER]] += 1
            for seat in range(n):
                net[seat] += _net_nb(work, seat)
                left[seat] += work[SEAT_ROW + S_CARDS_LEFT * MAX_PLAYERS + seat]
        lowest = left[0]
        for seat in range(n):
            lowest = min(lowest, left[seat])
        for seat in range(n):
            out[seat, G_NET] += net[seat]
            out[seat, G_NET + 1] += net[seat] * net[seat]
            out[seat, G_WINS] += wins[seat]
            out[seat, G_WINS + 1] += wins[seat] * wins[seat]
            out[seat, G_CARDS_LEFT] += left[seat]
            out[seat, G_CARDS_LEFT + 1] += left[seat] * left[seat]
            out[seat, G_BEST_SCORE] += left[seat] == lowest
        out[n, GT_TURNS] += turns
        out[n, GT_TURNS + 1] += turns * turns
    return out
