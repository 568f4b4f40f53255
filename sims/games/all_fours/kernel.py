"""All-Fours: the Numba kernels (one deal, hand mode, game mode).

They play the rules contract in the package docstring (sims/games/all_fours/__init__.py).

Cards are ranked bits (sims.core.tricks, ACE_HIGH_BIT): bit = 16 * suit + order, the 2 =
order 0 ... the ace = 12, so a hand is a 64-bit mask and bit order is rank order inside
a suit.  The pack holds bits too, so a drawn card needs no translation.  The pack, the
per-seat results and the hand-mode sums live in one flat int64 workspace of 52-entry
rows (see sims.core.deck); the hands live in a small uint64 array.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.deck import FIRST_GAME_ROW, N_CARDS, ROW, draw_nb, reset_pack_nb
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.tricks import (
    ACE_HIGH_BIT,
    ACE_HIGH_CARDS,
    RANK_COLUMN,
    above_nb,
    count_cards_nb,
    highest_bit_nb,
    highest_card_nb,
    lowest_bit_nb,
    lowest_card_nb,
    ranked_beats_nb,
    suit_of_bit_nb,
    tops_of_suits_nb,
)
from sims.games.all_fours.rules import (
    BEG_BELOW,
    BUNCH_BELOW,
    DISCARD_TO_SIX,
    FOSTER_CLUB,
    GAME_OUTCOMES,
    GIFT_THEN_REDEAL,
    GIVE_AT_LEAST,
    HAND_OUTCOMES,
    LOW_TO_TRICK_WINNER,
    MAX_ROUNDS,
    PLAY_STYLE,
    STYLE_HIGH,
    TIE_NOBODY,
    Rules,
)

HAND_WIDTH = HAND_OUTCOMES.kernel_width  # plain ints: the kernels cannot read Outcomes
GAME_WIDTH = GAME_OUTCOMES.kernel_width
# Column of each outcome (hand mode: H_*, the table row's HT_*; game mode: G_*, GT_*).
H_POINTS, H_HIGH, H_LOW, H_JACK, H_GAME, H_GIFT, H_TURNED_JACKS, H_GAME_POINTS = (
    HAND_OUTCOMES.seat.index(name)
    for name in ("points", "high", "low", "jack", "game", "gift", "turned_jacks", "game_points")
)
(
    HT_BEGGED,
    HT_GAVE,
    HT_RAN,
    HT_VOID,
    HT_THROWN_IN,
    HT_BUNCHED,
    HT_PLAYED,
    HT_NO_TRUMP,
    HT_ONE_TRUMP,
    HT_JACK_IN_PLAY,
    HT_GAME_TIE,
    HT_RUNS,
    HT_PLAYED_COUNTS,
    HT_RUNS_COUNTS,
) = (
    HAND_OUTCOMES.table.index(name)
    for name in (
        "begged",
        "gave",
        "ran",
        "void",
        "thrown_in",
        "bunched",
        "played",
        "no_trump",
        "one_trump",
        "jack_in_play",
        "game_tie",
        "runs_1",
        "no_trump_count",
        "runs_1_count",
    )
)
assert HAND_OUTCOMES.squares_follow() and GAME_OUTCOMES.squares_follow()  # the kernels write X_sq at X + 1
G_WIN, G_SCORE, G_BEGGED, G_GAVE = (GAME_OUTCOMES.seat.index(name) for name in ("win", "score", "begged", "gave"))
GT_DEALS, GT_PLAYED, GT_VOID, GT_THROWN_IN, GT_BUNCHED, GT_BEFORE_PLAY = (
    GAME_OUTCOMES.table.index(name) for name in ("deals", "played", "void", "thrown_in", "bunched", "before_play")
)
N_RULES = len(Rules._fields)
(
    R_TARGET,
    R_GIFT_THEN,
    R_GIFT_SAME_DEALER,
    R_GIFT_CANNOT_WIN,
    R_AFTER_RUN,
    R_LOW_TO,
    R_GAME_TIE,
    R_EXHAUST_KEEPS_JACKS,
    R_BUNCH,
) = range(N_RULES)

DECK_ROW = 0  # the pack (bits): positions below `top` are drawn
RULES_ROW = FIRST_GAME_ROW + 0 * ROW
POLICY_ROW = FIRST_GAME_ROW + 1 * ROW  # policy field f of seat s at POLICY_ROW + 2 * f + s
INFO_ROW = FIRST_GAME_ROW + 2 * ROW  # the deal's scalar results, I_* below
SEAT_ROW = FIRST_GAME_ROW + 3 * ROW  # per-seat results: SEAT_ROW + S_* + seat
TURNUP_ROW = FIRST_GAME_ROW + 4 * ROW  # the turned-up cards (bits)
PLAYED_ROW = FIRST_GAME_ROW + 5 * ROW  # 2 * trick + place: card played (bits; stacked deals only)
TRICK_ROW = FIRST_GAME_ROW + 6 * ROW  # 2 * trick: its leader, 2 * trick + 1: its winner (stacked deals only)
ACC_ROW = FIRST_GAME_ROW + 7 * ROW  # hand-mode sums: seat 0, seat 1, table, ACC_STRIDE each
ACC_STRIDE = 32
assert HAND_WIDTH <= ACC_STRIDE
N_WORK_ROWS = 7 + 3 * ACC_STRIDE // ROW + 1
(
    I_BEGGED,
    I_GAVE,
    I_RAN,
    I_ROUNDS,
    I_VOID,
    I_THROWN_IN,
    I_BUNCHED,
    I_PLAYED,
    I_TRUMP,
    I_TRUMPS_IN_PLAY,
    I_JACK_IN_PLAY,
    I_GAME_TIE,
    I_HIGH,
    I_LOW,
    I_JACK,
    I_GAME,
    I_WINNER,
    I_NEXT_DEALER,
    I_TURNUPS,
    I_TRICKS,
) = range(20)
S_POINTS, S_SCORE, S_GAME_POINTS, S_TURNED_JACKS, S_GIFT = 0, 2, 4, 6, 8
# The uint64 mask array: each seat's hand (emptied by play), dealt cards, discards.
M_HAND, M_DEALT, M_DISCARDED = 0, 2, 4

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_SUIT_BITS = np.uint64(0x1FFF)  # the 13 orders of one suit
TEN, JACK, QUEEN, KING, ACE = 8, 9, 10, 11, 12  # orders
_LOW_ORDERS = np.uint64(0xFF) * RANK_COLUMN  # the 2 .. 9 of every suit: worth 0
# Counting-card points by order (10 = 10, J 1, Q 2, K 3, A 4).
COUNT_OF_ORDER = np.array([0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4, 0, 0, 0], dtype=np.int64)
_HONOURS = np.uint64((1 << TEN) | (1 << JACK) | (1 << QUEEN) | (1 << KING) | (1 << ACE))
_ACE_KING = np.uint64((1 << KING) | (1 << ACE))
_ACE = np.uint64(1 << ACE)


@njit(cache=True, inline="always")
def strength_nb(hand, suit):
    """Trump-strength score of ``hand`` in ``suit``: per card of the suit A 4, K 3, Q/J/10 2,
    others 1 (the number held, plus 1 per honour 10..A, plus 1 for A or K, plus 1 for A)."""
    held = (hand >> np.uint64(16 * suit)) & _SUIT_BITS
    return (
        count_cards_nb(held)
        + count_cards_nb(held & _HONOURS)
        + count_cards_nb(held & _ACE_KING)
        + count_cards_nb(held & _ACE)
    )


@njit(cache=True, inline="always")
def cheapest_nb(cards, trump):
    """The cheapest card of a non-empty set: the lowest worth (a ten 10, A 4, K 3, Q 2, J 1,
    others 0; the jack of trumps 20), then non-trumps first, the lowest rank, the lower suit."""
    low = cards & _LOW_ORDERS
    if low:
        plain = low & ~trump
        return lowest_card_nb(plain) if plain else lowest_bit_nb(low)
    jacks = cards & ~trump & (RANK_COLUMN << np.uint64(JACK))
    if jacks:
        return lowest_bit_nb(jacks)
    for order in (QUEEN, KING, ACE, TEN):
        column = cards & (RANK_COLUMN << np.uint64(order))
        if column:
            plain = column & ~trump
            return lowest_bit_nb(plain if plain else column)
    return lowest_bit_nb(cards)  # only the jack of trumps is left


@njit(cache=True, inline="always")
def strongest_card_nb(cards, trump):
    """The highest trump of a non-empty set if it holds one, else its highest card (ties
    to the lower suit)."""
    trumps = cards & trump
    if trumps:
        return highest_bit_nb(trumps)
    return highest_card_nb(cards)


@njit(cache=True, inline="always")
def lead_card_nb(hand, seen, trump, style):
    """The card a seat leads (play_style, package docstring): ``seen`` = its dead cards."""
    if style == STYLE_HIGH:
        return strongest_card_nb(hand, trump)
    unknown = ACE_HIGH_CARDS & ~(hand | seen)
    unknown_trumps = unknown & trump
    sure_trumps = hand & trump
    if unknown_trumps:
        sure_trumps &= above_nb(highest_bit_nb(unknown_trumps))
    if sure_trumps:
        jack = sure_trumps & (RANK_COLUMN << np.uint64(JACK))
        if jack:
            return lowest_bit_nb(jack)
        return highest_bit_nb(sure_trumps)
    if not unknown_trumps:
        # With no trump out, a plain card above every unknown card of its suit is sure.
        sure = tops_of_suits_nb(hand & ~trump, unknown)
        if sure:
            return highest_card_nb(sure)
    return cheapest_nb(hand, trump)


@njit(cache=True, inline="always")
def follow_card_nb(hand, led_card, trump, style):
    """The card a seat plays to the card ``led_card`` (play_style, package docstring)."""
    led = suit_of_bit_nb(led_card)
    # legal_cards_nb's FOLLOW_OR_TRUMP with a trump suit and nothing held back, written as
    # one select: a seat holding the suit led plays that suit or a trump, else any card.
    legal = hand & (led | trump) if hand & led else hand
    if style == STYLE_HIGH:
        return strongest_card_nb(legal, trump)
    higher = above_nb(led_card)
    if led & trump:
        winning_trumps = legal & trump & higher
    else:
        winning_in_suit = legal & led & higher
        if winning_in_suit:
            return lowest_bit_nb(winning_in_suit)
        winning_trumps = legal & trump
    if winning_trumps and (led_card & np.uint64(15)) >= TEN:  # the led card has worth
        return lowest_bit_nb(winning_trumps)
    return cheapest_nb(legal, trump)


@njit(cache=True, inline="always")
def keep_six_nb(hand, trump):
    """The six cards a seat keeps when it discards down to six: its trumps from the
    highest down, then its other cards from the highest rank down, ties to the lower suit."""
    kept = _ZERO
    rest = hand & trump
    for k in range(6):
        if rest:
            card = highest_bit_nb(rest)
        else:
            card = highest_card_nb(hand & ~trump & ~kept)
        kept |= _ONE << card
        rest &= ~(_ONE << card)
    return kept


@njit(cache=True)
def new_table_nb(rules, policy):
    """The workspace and masks of a table: rules and policy filled in."""
    work = np.zeros(FIRST_GAME_ROW + N_WORK_ROWS * ROW, dtype=np.int64)
    masks = np.zeros(6, dtype=np.uint64)
    for r in range(rules.shape[0]):
        work[RULES_ROW + r] = rules[r]
    for seat in range(2):
        for field in range(policy.shape[1]):
            work[POLICY_ROW + 2 * field + seat] = np.int64(policy[seat, field])
    return work, masks


@njit(cache=True, inline="always")
def _deal_round_nb(work, masks, elder, dealer, top, shuffle, state):
    """Three cards to E, then three to D: ``(top, state)``."""
    for k in range(3):
        card, top, state = draw_nb(work, top, N_CARDS, shuffle, state)
        masks[np.uint64(M_HAND + elder)] |= _ONE << np.uint64(card)
    for k in range(3):
        card, top, state = draw_nb(work, top, N_CARDS, shuffle, state)
        masks[np.uint64(M_HAND + dealer)] |= _ONE << np.uint64(card)
    return top, state


@njit(cache=True, inline="always")
def _score_nb(work, seat, target):
    """One point to ``seat``: True when it reaches the target."""
    work[SEAT_ROW + S_POINTS + seat] += 1
    work[SEAT_ROW + S_SCORE + seat] += 1
    return work[SEAT_ROW + S_SCORE + seat] >= target


@njit(cache=True, inline="always")
def play_deal_nb(work, masks, dealer, score_elder, score_dealer, shuffle, state):
    """Play one deal (package docstring, steps 1-8) and return the advanced stream state.
    Inlined into the kernels' loops (a call cost about 6% of a hand's instructions).

    The pack row must hold the pack (code order for a random deal, the stacked order
    otherwise); ``shuffle`` = 0 draws it without swaps.  Results go to the INFO row (I_*),
    the SEAT row (S_*), the turn-up row and the masks.
    """
    elder = 1 - dealer
    target = work[RULES_ROW + R_TARGET]
    for i in range(I_TRICKS + 1):
        work[INFO_ROW + i] = 0
    for i in (I_TRUMP, I_HIGH, I_LOW, I_JACK, I_GAME, I_WINNER):
        work[INFO_ROW + i] = -1
    for seat in range(2):
        for field in (S_POINTS, S_GAME_POINTS, S_TURNED_JACKS, S_GIFT):
            work[SEAT_ROW + field + seat] = 0
        masks[M_HAND + seat] = _ZERO
        masks[M_DISCARDED + seat] = _ZERO
    work[SEAT_ROW + S_SCORE + elder] = score_elder
    work[SEAT_ROW + S_SCORE + dealer] = score_dealer
    winner = -1
    next_dealer = elder

    # 1. The deal and the turn-up.
    top = 0
    top, state = _deal_round_nb(work, masks, elder, dealer, top, shuffle, state)
    top, state = _deal_round_nb(work, masks, elder, dealer, top, shuffle, state)
    turnup, top, state = draw_nb(work, top, N_CARDS, shuffle, state)
    turnup = np.uint64(turnup)
    work[TURNUP_ROW] = np.int64(turnup)
    turnups = 1
    seen = _ONE << turnup  # the public dead cards: turn-ups, then cards played
    trump_suit = np.int64(turnup >> np.uint64(4))
    if (turnup & np.uint64(15)) == JACK:
        work[SEAT_ROW + S_TURNED_JACKS + dealer] += 1
        if _score_nb(work, dealer, target):
            winner = dealer

    # 2-5. Stand or beg; give or run.
    rounds = 0
    ended = winner >= 0
    if not ended and strength_nb(masks[M_HAND + elder], trump_suit) < work[POLICY_ROW + 2 * BEG_BELOW + elder]:
        work[INFO_ROW + I_BEGGED] = 1
        must_run = work[RULES_ROW + R_GIFT_CANNOT_WIN] != 0 and score_elder + 1 >= target
        if (
            not must_run
            and strength_nb(masks[M_HAND + dealer], trump_suit) >= work[POLICY_ROW + 2 * GIVE_AT_LEAST + dealer]
        ):
            work[INFO_ROW + I_GAVE] = 1
            work[SEAT_ROW + S_GIFT + elder] = 1
            if _score_nb(work, elder, target):
                winner = elder
                ended = True
            elif work[RULES_ROW + R_GIFT_THEN] == GIFT_THEN_REDEAL:
                work[INFO_ROW + I_THROWN_IN] = 1
                ended = True
                if work[RULES_ROW + R_GIFT_SAME_DEALER]:
                    next_dealer = dealer
        else:
            work[INFO_ROW + I_RAN] = 1
            rejected = trump_suit
            while True:
                if N_CARDS - top < 7:  # the next round cannot be dealt: a void deal
                    work[INFO_ROW + I_VOID] = 1
                    ended = True
                    next_dealer = dealer
                    trump_suit = -1
                    if not work[RULES_ROW + R_EXHAUST_KEEPS_JACKS]:
                        jacks = work[SEAT_ROW + S_TURNED_JACKS + dealer]
                        work[SEAT_ROW + S_TURNED_JACKS + dealer] = 0
                        work[SEAT_ROW + S_POINTS + dealer] -= jacks
                        work[SEAT_ROW + S_SCORE + dealer] -= jacks
                    break
                rounds += 1
                top, state = _deal_round_nb(work, masks, elder, dealer, top, shuffle, state)
                turnup, top, state = draw_nb(work, top, N_CARDS, shuffle, state)
                turnup = np.uint64(turnup)
                work[TURNUP_ROW + turnups] = np.int64(turnup)
                turnups += 1
                seen |= _ONE << turnup
                suit = np.int64(turnup >> np.uint64(4))
                if suit != rejected:
                    trump_suit = suit
                    if (turnup & np.uint64(15)) == JACK:
                        work[SEAT_ROW + S_TURNED_JACKS + dealer] += 1
                        if _score_nb(work, dealer, target):
                            winner = dealer
                            ended = True
                    break
    work[INFO_ROW + I_ROUNDS] = rounds
    work[INFO_ROW + I_TURNUPS] = turnups
    work[INFO_ROW + I_TRUMP] = trump_suit
    masks[M_DEALT] = masks[M_HAND]
    masks[M_DEALT + 1] = masks[M_HAND + 1]
    if (
        not ended
        and rounds
        and work[RULES_ROW + R_BUNCH]
        and strength_nb(masks[M_HAND + elder], trump_suit) < work[POLICY_ROW + 2 * BUNCH_BELOW + elder]
        and strength_nb(masks[M_HAND + dealer], trump_suit) < work[POLICY_ROW + 2 * BUNCH_BELOW + dealer]
    ):
        work[INFO_ROW + I_BUNCHED] = 1
        ended = True
        next_dealer = dealer
    work[INFO_ROW + I_WINNER] = winner
    work[INFO_ROW + I_NEXT_DEALER] = next_dealer
    if ended:
        return state

    # Hand size after a run.
    trump = _SUIT_BITS << np.uint64(16 * trump_suit)
    after_run = work[RULES_ROW + R_AFTER_RUN]
    if rounds and (after_run == DISCARD_TO_SIX or (after_run == FOSTER_CLUB and rounds >= 2)):
        for seat in range(2):
            hand = masks[M_HAND + seat]
            kept = keep_six_nb(hand, trump)
            masks[M_HAND + seat] = kept
            masks[M_DISCARDED + seat] = hand & ~kept

    # 6. Play.
    work[INFO_ROW + I_PLAYED] = 1
    held_elder = masks[M_HAND + elder]
    trumps_in_play = (held_elder | masks[M_HAND + dealer]) & trump
    low_card = lowest_bit_nb(trumps_in_play) if trumps_in_play else np.uint64(63)
    jack_card = np.uint64(16 * trump_suit + JACK)
    low_winner = -1
    jack_winner = -1
    tricks = count_cards_nb(held_elder)
    leader = elder
    for trick in range(tricks):
        # Unsigned seat indices spare Numba's negative-index checks in this hot loop.
        lead_seat = np.uint64(leader)
        follow_seat = np.uint64(1 - leader)
        follower = 1 - leader
        card = lead_card_nb(
            masks[np.uint64(M_HAND) + lead_seat],
            seen | masks[np.uint64(M_DISCARDED) + lead_seat],
            trump,
            work[np.uint64(POLICY_ROW + 2 * PLAY_STYLE) + lead_seat],
        )
        answer = follow_card_nb(
            masks[np.uint64(M_HAND) + follow_seat],
            card,
            trump,
            work[np.uint64(POLICY_ROW + 2 * PLAY_STYLE) + follow_seat],
        )
        masks[np.uint64(M_HAND) + lead_seat] &= ~(_ONE << card)
        masks[np.uint64(M_HAND) + follow_seat] &= ~(_ONE << answer)
        both = (_ONE << card) | (_ONE << answer)
        seen |= both
        winner_seat = follower if ranked_beats_nb(answer, card, suit_of_bit_nb(card), trump) else leader
        work[SEAT_ROW + S_GAME_POINTS + winner_seat] += (
            COUNT_OF_ORDER[card & np.uint64(15)] + COUNT_OF_ORDER[answer & np.uint64(15)]
        )
        if both & (_ONE << low_card):
            low_winner = winner_seat
        if both & (_ONE << jack_card):
            jack_winner = winner_seat
        if not shuffle:  # a stacked deal keeps the log that play_dealt returns
            work[PLAYED_ROW + 2 * trick] = np.int64(card)
            work[PLAYED_ROW + 2 * trick + 1] = np.int64(answer)
            work[TRICK_ROW + 2 * trick] = leader
            work[TRICK_ROW + 2 * trick + 1] = winner_seat
        leader = winner_seat
    work[INFO_ROW + I_TRICKS] = tricks

    # 7. High, Low, Jack, Game, each while nobody has reached the target.
    work[INFO_ROW + I_TRUMPS_IN_PLAY] = count_cards_nb(trumps_in_play)
    jack_in_play = (trumps_in_play & (_ONE << jack_card)) != _ZERO
    work[INFO_ROW + I_JACK_IN_PLAY] = jack_in_play
    elder_points = work[SEAT_ROW + S_GAME_POINTS + elder]
    dealer_points = work[SEAT_ROW + S_GAME_POINTS + dealer]
    game_tie = elder_points == dealer_points
    work[INFO_ROW + I_GAME_TIE] = game_tie
    if trumps_in_play:
        high = elder if held_elder & (_ONE << highest_bit_nb(trumps_in_play)) else dealer
        work[INFO_ROW + I_HIGH] = high
        if _score_nb(work, high, target):
            work[INFO_ROW + I_WINNER] = high
            return state
        if work[RULES_ROW + R_LOW_TO] == LOW_TO_TRICK_WINNER:
            low = low_winner
        else:
            low = elder if held_elder & (_ONE << low_card) else dealer
        work[INFO_ROW + I_LOW] = low
        if _score_nb(work, low, target):
            work[INFO_ROW + I_WINNER] = low
            return state
        if jack_in_play:
            work[INFO_ROW + I_JACK] = jack_winner
            if _score_nb(work, jack_winner, target):
                work[INFO_ROW + I_WINNER] = jack_winner
                return state
    if game_tie:
        game = elder if work[RULES_ROW + R_GAME_TIE] != TIE_NOBODY else -1
    else:
        game = elder if elder_points > dealer_points else dealer
    if game >= 0:
        work[INFO_ROW + I_GAME] = game
        if _score_nb(work, game, target):
            work[INFO_ROW + I_WINNER] = game
    return state


@njit(cache=True, nogil=True, _nrt=False)
def _hand_sums_nb(work, masks, seed, first, count):
    """Hand mode's loop: the sums of deals ``first .. first+count-1`` into the workspace's
    ACC rows.  Compiled without NRT (it allocates nothing): Numba binds the arrays handed
    to the inlined deal to new names, and with NRT each hand paid two atomic
    incref/decref pairs for them (4% of its instructions, more of its time)."""
    table = ACC_ROW + 2 * ACC_STRIDE  # the sums live in the flat workspace until the end
    seed_key = seed_key_nb(seed)
    for hand in range(first, first + count):
        state = stream_nb(seed_key, hand)
        reset_pack_nb(work, ACE_HIGH_BIT)
        state = play_deal_nb(work, masks, 1, 0, 0, True, state)
        for seat in range(2):
            acc = np.uint64(ACC_ROW + seat * ACC_STRIDE)  # unsigned: no negative-index checks
            points = work[SEAT_ROW + S_POINTS + seat]
            jacks = work[SEAT_ROW + S_TURNED_JACKS + seat]
            counted = work[SEAT_ROW + S_GAME_POINTS + seat]
            work[acc + np.uint64(H_POINTS)] += points
            work[acc + np.uint64(H_POINTS + 1)] += points * points
            work[acc + np.uint64(H_HIGH)] += work[INFO_ROW + I_HIGH] == seat
            work[acc + np.uint64(H_LOW)] += work[INFO_ROW + I_LOW] == seat
            work[acc + np.uint64(H_JACK)] += work[INFO_ROW + I_JACK] == seat
            work[acc + np.uint64(H_GAME)] += work[INFO_ROW + I_GAME] == seat
            work[acc + np.uint64(H_GIFT)] += work[SEAT_ROW + S_GIFT + seat]
            work[acc + np.uint64(H_TURNED_JACKS)] += jacks
            work[acc + np.uint64(H_TURNED_JACKS + 1)] += jacks * jacks
            work[acc + np.uint64(H_GAME_POINTS)] += counted
            work[acc + np.uint64(H_GAME_POINTS + 1)] += counted * counted
        trumps = work[INFO_ROW + I_TRUMPS_IN_PLAY]
        played = work[INFO_ROW + I_PLAYED]
        work[table + HT_BEGGED] += work[INFO_ROW + I_BEGGED]
        work[table + HT_GAVE] += work[INFO_ROW + I_GAVE]
        work[table + HT_RAN] += work[INFO_ROW + I_RAN]
        work[table + HT_VOID] += work[INFO_ROW + I_VOID]
        work[table + HT_THROWN_IN] += work[INFO_ROW + I_THROWN_IN]
        work[table + HT_BUNCHED] += work[INFO_ROW + I_BUNCHED]
        work[table + HT_PLAYED] += played
        work[table + HT_NO_TRUMP] += (played == 1) & (trumps == 0)
        work[table + HT_ONE_TRUMP] += trumps == 1
        work[table + HT_JACK_IN_PLAY] += work[INFO_ROW + I_JACK_IN_PLAY]
        work[table + HT_GAME_TIE] += work[INFO_ROW + I_GAME_TIE]
        if work[INFO_ROW + I_RAN]:
            work[table + HT_RUNS - 1 + work[INFO_ROW + I_ROUNDS]] += 1


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over deals ``first .. first+count-1`` of ``seed``, E in seat
    0, D in seat 1, scores 0-0.  Returns int64 ``[3, width]`` (see ``HAND_OUTCOMES``)."""
    work, masks = new_table_nb(rules, policy)
    _hand_sums_nb(work, masks, seed, first, count)
    out = np.zeros((3, HAND_WIDTH), dtype=np.int64)
    for row in range(3):
        for column in range(HAND_WIDTH):
            out[row, column] = work[ACC_ROW + row * ACC_STRIDE + column]
    for k in range(HT_RUNS - HT_NO_TRUMP):  # the played-deal columns count over played deals
        out[2, HT_PLAYED_COUNTS + k] = out[2, HT_PLAYED]
    for k in range(MAX_ROUNDS):  # the run distribution counts over the deals where D ran
        out[2, HT_RUNS_COUNTS + k] = out[2, HT_RAN]
    return out


@njit(cache=True, nogil=True, _nrt=False)
def _game_sums_nb(work, masks, out, scores, begged, gave, seed, first, count):
    """Game mode's loop: the sums of games ``first .. first+count-1`` into ``out``.
    Compiled without NRT, as :func:`_hand_sums_nb` is."""
    seed_key = seed_key_nb(seed)
    for game in range(first, first + count):
        state = stream_nb(seed_key, game)
        dealer = 1
        deals = 0
        played = 0
        voids = 0
        thrown_in = 0
        bunched = 0
        for seat in range(2):
            scores[seat] = 0
            begged[seat] = 0
            gave[seat] = 0
        while True:
            elder = 1 - dealer
            reset_pack_nb(work, ACE_HIGH_BIT)
            state = play_deal_nb(work, masks, dealer, scores[elder], scores[dealer], True, state)
            deals += 1
            played += work[INFO_ROW + I_PLAYED]
            voids += work[INFO_ROW + I_VOID]
            thrown_in += work[INFO_ROW + I_THROWN_IN]
            bunched += work[INFO_ROW + I_BUNCHED]
            begged[elder] += work[INFO_ROW + I_BEGGED]
            gave[dealer] += work[INFO_ROW + I_GAVE]
            for seat in range(2):
                scores[seat] = work[SEAT_ROW + S_SCORE + seat]
            winner = work[INFO_ROW + I_WINNER]
            if winner >= 0:
                break
            dealer = work[INFO_ROW + I_NEXT_DEALER]
        for seat in range(2):
            out[seat, G_WIN] += seat == winner
            out[seat, G_SCORE] += scores[seat]
            out[seat, G_SCORE + 1] += scores[seat] * scores[seat]
            out[seat, G_BEGGED] += begged[seat]
            out[seat, G_BEGGED + 1] += begged[seat] * begged[seat]
            out[seat, G_GAVE] += gave[seat]
            out[seat, G_GAVE + 1] += gave[seat] * gave[seat]
        out[2, GT_DEALS] += deals
        out[2, GT_DEALS + 1] += deals * deals
        out[2, GT_PLAYED] += played
        out[2, GT_PLAYED + 1] += played * played
        out[2, GT_VOID] += voids
        out[2, GT_VOID + 1] += voids * voids
        out[2, GT_THROWN_IN] += thrown_in
        out[2, GT_THROWN_IN + 1] += thrown_in * thrown_in
        out[2, GT_BUNCHED] += bunched
        out[2, GT_BUNCHED + 1] += bunched * bunched
        out[2, GT_BEFORE_PLAY] += 1 - work[INFO_ROW + I_PLAYED]


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over games ``first .. first+count-1`` of ``seed``, seat 1
    dealing first.  Returns int64 ``[3, width]`` (see ``GAME_OUTCOMES``)."""
    out = np.zeros((3, GAME_WIDTH), dtype=np.int64)
    work, masks = new_table_nb(rules, policy)
    scores = np.zeros(2, dtype=np.int64)
    begged = np.zeros(2, dtype=np.int64)
    gave = np.zeros(2, dtype=np.int64)
    _game_sums_nb(work, masks, out, scores, begged, gave, seed, first, count)
    return out
