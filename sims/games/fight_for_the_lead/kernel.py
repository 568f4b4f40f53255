"""Fight for the Lead: the Numba kernels (one hand, hand mode, game mode).

They play the rules contract in the package docstring
(sims/games/fight_for_the_lead/__init__.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.deck import FIRST_GAME_ROW, N_CARDS, ROW, draw_nb, reset_pack_nb
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.tricks import (
    ACE_HIGH_BIT,
    ACE_HIGH_CARDS,
    FOLLOW_SUIT,
    RANK_COLUMN,
    above_nb,
    count_cards_nb,
    highest_bit_nb,
    highest_card_nb,
    legal_cards_nb,
    lowest_bit_nb,
    lowest_card_nb,
    ranked_beats_nb,
    suit_of_bit_nb,
    tops_of_suits_nb,
)
from sims.core.wide import add_wide_nb, add_wide_square_nb
from sims.games.fight_for_the_lead.rules import (
    CAP_EQUAL,
    FIGHT_HIGHEST,
    FIGHT_HIGHEST_NON_ACE,
    FIGHT_LOWEST,
    FIGHT_CARD,
    FORCED_REPLAY,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    HIGHEST_RANK_ANY_SUIT,
    KEEP_MIN_RANK,
    LENGTH_BUCKET_LOW,
    MAX_PLAYERS,
    PLAY_STYLE,
    POLICY_FIELDS,
    POT_LIMIT,
    REFUND_SPLIT,
    RESHUFFLE_DISCARDS,
    SAMPLE_FIRST,
    SMALLEST_ANTE,
    STAY_MIN_STRENGTH,
    STAY_WITH_LEAD,
    STYLE_HIGH,
    TRADE_FROM_LEAD_WINNER,
    Rules,
)

# ---------------------------------------------------------------------------------- Kernels
#
# Cards are ranked bits (sims.core.tricks): bit = 16 * suit + order, order 0 = the 2 ...
# 12 = the ace, so bit order is rank order inside a suit, and a hand is a 64-bit mask.
# The pack holds bits too (its "code order" is the bits of codes 0..51), so a drawn card
# needs no translation; play_dealt translates to card codes at the end.  The pack, the
# pile and every per-seat result live in one flat int64 workspace of 52-entry rows (see
# sims.core.deck), the hands in a small uint64 array: hot code calls no function that
# takes an array.

HAND_WIDTH = HAND_OUTCOMES.kernel_width  # plain ints: the kernels cannot read Outcomes
GAME_WIDTH = GAME_OUTCOMES.kernel_width
N_RULES = len(Rules._fields)
R_ANTE, R_ROTATES, R_TRADE_FIRST, R_TRADE_ORDER, R_TRADE_EXHAUST, R_ALL_DROP, R_FIGHT_EXHAUST, R_MAX_HANDS, \
    R_SAMPLE_HAND = range(N_RULES)

DECK_ROW = 0  # the pack (bits): positions below `top` are drawn
PILE_ROW = FIRST_GAME_ROW + 0 * ROW  # discards (bits), in pile order
BIT_ROW = FIRST_GAME_ROW + 1 * ROW  # card code -> ranked bit: the pack in code order
RULES_ROW = FIRST_GAME_ROW + 2 * ROW
FIGHT_ROW = FIRST_GAME_ROW + 3 * ROW  # each seat's fight card (bit)
PLAYING_ROW = FIRST_GAME_ROW + 4 * ROW
TRADED_ROW = FIRST_GAME_ROW + 5 * ROW
WON_ROW = FIRST_GAME_ROW + 6 * ROW  # tricks taken
NET_ROW = FIRST_GAME_ROW + 7 * ROW
ORDER_ROW = FIRST_GAME_ROW + 8 * ROW  # the playing seats, clockwise from the dealer's left
TURNED_ROW = FIRST_GAME_ROW + 9 * ROW  # cards turned in the fight (bits)
PLAYED_ROW = FIRST_GAME_ROW + 10 * ROW  # card played: trick * MAX_PLAYERS + place (bits; stacked hands only)
PLAYED_SEAT_ROW = FIRST_GAME_ROW + 11 * ROW  # ... and who played it
INFO_ROW = FIRST_GAME_ROW + 12 * ROW  # the hand's scalar results, I_* below
POLICY_ROW = FIRST_GAME_ROW + 13 * ROW  # policy field f of seat s at POLICY_ROW + f * ROW + s
ACC_ROW = POLICY_ROW + len(POLICY_FIELDS) * ROW  # hand-mode sums, ACC_STRIDE per seat
ACC_STRIDE = 16
N_WORK_ROWS = (ACC_ROW - FIRST_GAME_ROW) // ROW + (MAX_PLAYERS + 1) * ACC_STRIDE // ROW + 1
I_LEAD, I_LEADER, I_PLAYERS_IN, I_LOSERS, I_TURNED, I_STOCK_SHORT, I_RESHUFFLED, I_ALL_DROPPED, I_POT_NEXT, \
    I_TRICK_LEADERS, I_TRICK_WINNERS = 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 20
# The uint64 mask array: hands, then each seat's trade-away mask.
TRADE_AWAY = 16

BIT_OF_CODE = ACE_HIGH_BIT  # card code -> ranked bit (16 * suit + order, the 2 = 0 ... the ace = 12)

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_SUIT_BITS = np.uint64(0x1FFF)  # the 13 orders of one suit
ACES = RANK_COLUMN << np.uint64(12)
ACE_ORDER, KING_ORDER = 12, 11
_LANE_NONZERO = np.uint64(0x7FFF7FFF7FFF7FFF)


@njit(cache=True, inline="always")
def fight_card_nb(hand, choice):
    """The ranked bit a seat lays down in the fight (policy field fight_card)."""
    if choice == FIGHT_LOWEST:
        return lowest_card_nb(hand)
    if choice == FIGHT_HIGHEST:
        return highest_card_nb(hand)
    if choice == FIGHT_HIGHEST_NON_ACE:
        others = hand & ~ACES
        return highest_card_nb(others if others else hand)
    longest = _ZERO
    most = 0
    for suit in range(4):
        in_suit = hand & (_SUIT_BITS << np.uint64(16 * suit))
        count = count_cards_nb(in_suit)
        if count > most:
            most = count
            longest = in_suit
    return lowest_bit_nb(longest)


@njit(cache=True, inline="always")
def strength_nb(hand):
    """Strength score: 2 per ace + 1 per king with another card of its suit in hand."""
    kings = (hand >> np.uint64(KING_ORDER)) & RANK_COLUMN  # one flag per suit, in bit 0 of its 16
    others = hand & ~(RANK_COLUMN << np.uint64(KING_ORDER))
    # A suit's 16 bits hold less than 2**13 here, so adding 0x7FFF sets bit 15 exactly when
    # the suit holds another card, without carrying into the next suit.
    guarded = kings & ((others + _LANE_NONZERO) >> np.uint64(15))
    return 2 * count_cards_nb(hand & ACES) + count_cards_nb(guarded)


@njit(cache=True, inline="always")
def lead_card_nb(hand, dead, style):
    """The card a seat leads (play_style; see the module docstring)."""
    if style == STYLE_HIGH:
        return highest_card_nb(hand)
    # A sure winner lies above every card of its suit that may still be out.
    sure = tops_of_suits_nb(hand, ACE_HIGH_CARDS & ~(hand | dead))
    if sure:
        return highest_card_nb(sure)
    return lowest_card_nb(hand)


@njit(cache=True, inline="always")
def follow_card_nb(hand, led, winning, style):
    """The card a seat plays to a trick led in suit mask ``led`` that ``winning`` now wins."""
    legal = legal_cards_nb(hand, led, _ZERO, FOLLOW_SUIT, _ZERO)
    if not (legal & led):
        return lowest_card_nb(hand)
    if style == STYLE_HIGH:
        return highest_bit_nb(legal)
    beating = legal & above_nb(winning)
    return lowest_bit_nb(beating if beating else legal)


@njit(cache=True)
def new_table_nb(rules, policy, n):
    """The workspace and hand masks of a table: rules, policy and lookup rows filled in."""
    work = np.zeros(FIRST_GAME_ROW + N_WORK_ROWS * ROW, dtype=np.int64)
    masks = np.zeros(TRADE_AWAY + MAX_PLAYERS, dtype=np.uint64)
    for code in range(N_CARDS):
        work[BIT_ROW + code] = BIT_OF_CODE[code]
    for r in range(rules.shape[0]):
        work[RULES_ROW + r] = rules[r]
    for seat in range(n):
        for field in range(policy.shape[1]):
            work[POLICY_ROW + field * ROW + seat] = np.int64(policy[seat, field])
        below = work[POLICY_ROW + KEEP_MIN_RANK * ROW + seat] - 2  # orders traded away: 0 .. below-1
        masks[TRADE_AWAY + seat] = np.uint64((1 << below) - 1) * RANK_COLUMN
    return work, masks


@njit(cache=True)
def play_hand_nb(work, masks, n, dealer, pot, compulsory, shuffle, state):
    """Play one hand (module docstring, steps 1-9) and return the advanced stream state.

    The pack row must hold the pack (code order for a random hand, the stacked order
    otherwise); ``shuffle`` = 0 draws it without swaps.  Results go to the rows
    FIGHT..PLAYED_SEAT and INFO (I_*).
    """
    top = 0
    size = N_CARDS
    for i in (I_LOSERS, I_STOCK_SHORT, I_RESHUFFLED, I_ALL_DROPPED, I_POT_NEXT):
        work[INFO_ROW + i] = 0
    for seat in range(n):
        masks[seat] = _ZERO
        work[PLAYING_ROW + seat] = 0
        work[TRADED_ROW + seat] = 0
        work[WON_ROW + seat] = 0
        work[NET_ROW + seat] = 0

    # 1. The deal, one card at a time from the dealer's left.
    seat = dealer
    for k in range(4 * n):
        seat = seat + 1 if seat + 1 < n else 0
        card, top, state = draw_nb(work, top, size, shuffle, state)
        masks[seat] |= _ONE << np.uint64(card)

    # 2-3. Fight cards, chosen at once.
    fight_bits = _ZERO
    for seat in range(n):
        bit = fight_card_nb(masks[seat], work[POLICY_ROW + FIGHT_CARD * ROW + seat])
        masks[seat] &= ~(_ONE << bit)
        fight_bits |= _ONE << bit
        work[FIGHT_ROW + seat] = bit
    fight_suits = 0
    for suit in range(4):
        if fight_bits & (_SUIT_BITS << np.uint64(16 * suit)):
            fight_suits |= 1 << suit

    # 4. The fight: turn cards until one matches a fight card's suit.
    lead = -1
    turned = 0
    while top < size:
        card, top, state = draw_nb(work, top, size, shuffle, state)
        work[TURNED_ROW + turned] = card
        turned += 1
        suit = card >> 4
        if (fight_suits >> suit) & 1:
            best = highest_bit_nb(fight_bits & (_SUIT_BITS << np.uint64(16 * suit)))
            lead = 0
            while work[FIGHT_ROW + lead] != best:
                lead += 1
            break
    if lead < 0:  # the stock ran out with no match
        lead = dealer + 1 if dealer + 1 < n else 0
        if work[RULES_ROW + R_FIGHT_EXHAUST] == HIGHEST_RANK_ANY_SUIT:
            best_order = -1
            for offset in range(1, n + 1):
                seat = (dealer + offset) % n
                order = work[FIGHT_ROW + seat] & 15
                if order > best_order:
                    best_order = order
                    lead = seat
    work[INFO_ROW + I_LEAD] = lead
    work[INFO_ROW + I_TURNED] = turned

    # 5. Turned cards, then fight cards, to the pile; one replacement each.
    pile = 0
    for i in range(turned):
        work[PILE_ROW + pile] = work[TURNED_ROW + i]
        pile += 1
    seat = dealer
    for i in range(n):
        seat = seat + 1 if seat + 1 < n else 0
        work[PILE_ROW + pile] = work[FIGHT_ROW + seat]
        pile += 1
    dead = fight_bits
    for i in range(turned):
        dead |= _ONE << np.uint64(work[TURNED_ROW + i])
    seat = dealer
    for i in range(n):
        seat = seat + 1 if seat + 1 < n else 0
        if top == size:  # only after a fight that turned more than 52 - 5n cards
            size, top, pile, dead = _reshuffle_pile_nb(work, pile)
            work[INFO_ROW + I_RESHUFFLED] = 1
        card, top, state = draw_nb(work, top, size, shuffle, state)
        masks[seat] |= _ONE << np.uint64(card)

    # 6. Stay or drop, at once.
    playing = 0
    seat = dealer
    for i in range(n):
        seat = seat + 1 if seat + 1 < n else 0
        stays = compulsory or (work[POLICY_ROW + STAY_WITH_LEAD * ROW + seat] and seat == lead) \
            or strength_nb(masks[seat]) >= work[POLICY_ROW + STAY_MIN_STRENGTH * ROW + seat]
        if stays:
            work[PLAYING_ROW + seat] = 1
            work[ORDER_ROW + playing] = seat
            playing += 1
    work[INFO_ROW + I_PLAYERS_IN] = playing
    work[INFO_ROW + I_LEADER] = -1
    if playing == 0:
        work[INFO_ROW + I_ALL_DROPPED] = 1
        if work[RULES_ROW + R_ALL_DROP] == REFUND_SPLIT:
            for seat in range(n):
                work[NET_ROW + seat] = pot // n
        else:
            work[INFO_ROW + I_POT_NEXT] = pot
        return state
    if playing == 1:
        seat = work[ORDER_ROW]
        work[WON_ROW + seat] = 4
        work[NET_ROW + seat] = pot
        return state

    # The leader, and its place in the clockwise order of playing seats.
    leader = lead
    while not work[PLAYING_ROW + leader]:
        leader = leader + 1 if leader + 1 < n else 0
    leader_place = 0
    while work[ORDER_ROW + leader_place] != leader:
        leader_place += 1
    work[INFO_ROW + I_LEADER] = leader

    # 7. Trading.
    if not compulsory or work[RULES_ROW + R_TRADE_FIRST]:
        exhaust = work[RULES_ROW + R_TRADE_EXHAUST]
        cap = (size - top) // playing
        may_reshuffle = exhaust == RESHUFFLE_DISCARDS
        first = leader_place if work[RULES_ROW + R_TRADE_ORDER] == TRADE_FROM_LEAD_WINNER else 0
        for i in range(playing):
            place = first + i if first + i < playing else first + i - playing
            seat = work[ORDER_ROW + place]
            wanted = masks[seat] & masks[TRADE_AWAY + seat]
            if not wanted:
                continue
            want = count_cards_nb(wanted)
            allowed = size - top
            if may_reshuffle:
                allowed += pile
            elif exhaust == CAP_EQUAL:
                allowed = cap
            if allowed < want:
                work[INFO_ROW + I_STOCK_SHORT] = 1
                chosen = _ZERO
                for k in range(allowed):
                    low = lowest_card_nb(wanted & ~chosen)
                    chosen |= _ONE << low
                wanted = chosen
                want = allowed
            masks[seat] &= ~wanted
            work[TRADED_ROW + seat] = want
            for k in range(want):
                if top == size:
                    size, top, pile, dead = _reshuffle_pile_nb(work, pile)
                    work[INFO_ROW + I_RESHUFFLED] = 1
                    may_reshuffle = False
                card, top, state = draw_nb(work, top, size, shuffle, state)
                masks[seat] |= _ONE << np.uint64(card)
            while wanted:
                low = lowest_bit_nb(wanted)
                wanted &= wanted - _ONE
                work[PILE_ROW + pile] = low
                pile += 1

    # 8. Four tricks.
    place = leader_place
    for trick in range(4):
        work[INFO_ROW + I_TRICK_LEADERS + trick] = work[ORDER_ROW + place]
        led = _ZERO
        winning = _ZERO
        winner_place = place
        for k in range(playing):
            seat = work[ORDER_ROW + place]
            hand = masks[seat]
            style = work[POLICY_ROW + PLAY_STYLE * ROW + seat]
            if k == 0:
                bit = lead_card_nb(hand, dead, style)
                led = suit_of_bit_nb(bit)
                winning = bit
            else:
                bit = follow_card_nb(hand, led, winning, style)
                if ranked_beats_nb(bit, winning, led, _ZERO):
                    winning = bit
                    winner_place = place
            masks[seat] = hand & ~(_ONE << bit)
            dead |= _ONE << bit
            if not shuffle:  # a stacked hand keeps the log that play_dealt returns
                work[PLAYED_ROW + trick * MAX_PLAYERS + k] = bit
                work[PLAYED_SEAT_ROW + trick * MAX_PLAYERS + k] = seat
            place = place + 1 if place + 1 < playing else 0
        winner = work[ORDER_ROW + winner_place]
        work[WON_ROW + winner] += 1
        work[INFO_ROW + I_TRICK_WINNERS + trick] = winner
        place = winner_place

    # 9. Settlement.
    losers = 0
    for i in range(playing):
        seat = work[ORDER_ROW + i]
        won = work[WON_ROW + seat]
        if won:
            work[NET_ROW + seat] = won * (pot // 4)
        else:
            work[NET_ROW + seat] = -pot
            losers += 1
    work[INFO_ROW + I_LOSERS] = losers
    work[INFO_ROW + I_POT_NEXT] = losers * pot
    return state


@njit(cache=True)
def _reshuffle_pile_nb(work, pile):
    """Make the pile (in pile order) the new pack; returns (size, top, pile, dead)."""
    for i in range(pile):
        work[DECK_ROW + i] = work[PILE_ROW + i]
    return pile, 0, 0, _ZERO



@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over hands ``first .. first+count-1`` of ``seed``, dealer in
    seat ``n-1``, pot n * ante.  Returns int64 ``[n + 1, width]`` (see ``HAND_OUTCOMES``)."""
    work, masks = new_table_nb(rules, policy, n)
    ante = ante_nb(rules, n)
    pot = n * ante
    compulsory = rules[R_SAMPLE_HAND] == SAMPLE_FIRST
    table = ACC_ROW + n * ACC_STRIDE  # the sums live in the flat workspace until the end
    seed_key = seed_key_nb(seed)
    for hand in range(first, first + count):
        state = stream_nb(seed_key, hand)
        reset_pack_nb(work, BIT_ROW)
        state = play_hand_nb(work, masks, n, n - 1, pot, compulsory, True, state)
        for seat in range(n):
            acc = ACC_ROW + seat * ACC_STRIDE
            net = work[NET_ROW + seat]
            traded = work[TRADED_ROW + seat]
            if work[PLAYING_ROW + seat]:
                work[acc + 2 + work[WON_ROW + seat]] += 1
            else:
                work[acc] += 1
            work[acc + 7] += net
            work[acc + 8] += net * net
            work[acc + 9] += traded
            work[acc + 10] += traded * traded
        work[ACC_ROW + work[INFO_ROW + I_LEAD] * ACC_STRIDE + 1] += 1
        playing = work[INFO_ROW + I_PLAYERS_IN]
        losers = work[INFO_ROW + I_LOSERS]
        turned = work[INFO_ROW + I_TURNED]
        work[table] += work[INFO_ROW + I_ALL_DROPPED]
        work[table + 1] += playing
        work[table + 2] += playing * playing
        work[table + 3] += losers
        work[table + 4] += losers * losers
        work[table + 5] += turned
        work[table + 6] += turned * turned
        work[table + 7] += work[INFO_ROW + I_STOCK_SHORT]
        work[table + 8] += work[INFO_ROW + I_RESHUFFLED]
    out = np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)
    for row in range(n + 1):
        for column in range(HAND_WIDTH):
            out[row, column] = work[ACC_ROW + row * ACC_STRIDE + column]
    return out


@njit(cache=True, inline="always")
def ante_nb(rules, n):
    """The ante: the rule's, or the smallest making n * ante divisible by 4 (see ante_for)."""
    return rules[R_ANTE] if rules[R_ANTE] else SMALLEST_ANTE[n]


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over games ``first .. first+count-1`` of ``seed``, the first
    dealer in seat ``n-1``.  Returns int64 ``[n + 1, width]`` (see ``GAME_OUTCOMES``;
    net and net_sq in limbs, largest_pot a maximum)."""
    out = np.zeros((n + 1, GAME_WIDTH), dtype=np.int64)
    work, masks = new_table_nb(rules, policy, n)
    net = np.zeros(n, dtype=np.int64)
    ante = ante_nb(rules, n)
    all_drop = rules[R_ALL_DROP]
    max_hands = rules[R_MAX_HANDS]
    seed_key = seed_key_nb(seed)
    for game in range(first, first + count):
        state = stream_nb(seed_key, game)
        for seat in range(n):
            net[seat] = -ante
        pot = n * ante
        dealer = n - 1
        compulsory = True
        hands = 0
        largest_pot = 0
        truncated = 0
        overflow = 0
        while True:
            reset_pack_nb(work, BIT_ROW)
            state = play_hand_nb(work, masks, n, dealer, pot, compulsory, True, state)
            hands += 1
            largest_pot = max(largest_pot, pot)
            for seat in range(n):
                net[seat] += work[NET_ROW + seat]
            carried = work[INFO_ROW + I_POT_NEXT]
            compulsory = work[INFO_ROW + I_ALL_DROPPED] == 1 and all_drop == FORCED_REPLAY
            if carried == 0:
                break
            if carried > POT_LIMIT or hands >= max_hands:
                truncated = 1
                overflow = 1 if carried > POT_LIMIT else 0
                for seat in range(n):
                    net[seat] += carried // n
                break
            pot = carried
            if rules[R_ROTATES]:
                dealer = dealer + 1 if dealer + 1 < n else 0
        for seat in range(n):
            add_wide_nb(out, seat, 0, net[seat])
            add_wide_square_nb(out, seat, 2, net[seat])
            out[seat, 6] += net[seat] > 0
            if not truncated:
                add_wide_nb(out, seat, 7, net[seat])
                add_wide_square_nb(out, seat, 9, net[seat])
                out[seat, 13] += 1
        out[n, 0] += hands
        out[n, 1] += hands * hands
        out[n, 2] += truncated
        out[n, 3] += overflow
        out[n, 4] += truncated - overflow
        out[n, 5] = max(out[n, 5], largest_pot)
        bucket = 0
        while bucket + 1 < len(LENGTH_BUCKET_LOW) and hands >= LENGTH_BUCKET_LOW[bucket + 1]:
            bucket += 1
        out[n, 6 + bucket] += 1
    return out
