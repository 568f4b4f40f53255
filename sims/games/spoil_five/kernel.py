"""Spoil Five: the Numba kernels (one deal, one pool, hand mode, game mode).

They play the rules contract in the package docstring (sims/games/spoil_five/__init__.py).

Cards are ranked bits (sims.core.tricks): bit = 16 * effective suit + order, with the
orders of the contract (rules.BIT), so a hand is a 64-bit mask and every choice a player
makes (legal cards, the cheapest, the strongest, the lowest card that wins, sure
winners) is a few mask operations.  The layout depends on the trump suit, so a deal draws
card codes and maps them once the turn-up is known.  Scalars of a deal live in one flat
int64 workspace of 52-entry rows (sims.core.deck); the hands in a uint64 array.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.deck import DEAL_ROW, FIRST_GAME_ROW, N_CARDS, ROW, draw_nb
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.tricks import (
    FOLLOW_OR_TRUMP as LAW_FOLLOW_OR_TRUMP,
    FOLLOW_SUIT as LAW_FOLLOW_SUIT,
    RANKED_SUIT,
    above_nb,
    count_cards_nb,
    highest_bit_nb,
    highest_card_nb,
    legal_cards_nb,
    lowest_bit_nb,
    lowest_card_nb,
    suit_of_bit_nb,
    tops_of_suits_nb,
)
from sims.games.spoil_five.rules import (
    ACE,
    ACE_OF_HEARTS,
    BIT,
    BONUS_DOUBLE_ANTE,
    BONUS_NONE,
    DEMOTED_ACE_ORDER,
    FIVE,
    FOLLOW_OR_TRUMP,
    FREE,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    HAND_SIZE,
    JACK,
    JINX_MIN,
    MAX_PLAYERS,
    RENEGE,
    ROB,
    ROB_OBLIGATORY,
    SPOIL,
    TOPUP_ALL_BUT_DEALER,
    TOPUP_DEALER_ONLY,
    TRICKS,
    Rules,
)

HAND_WIDTH = HAND_OUTCOMES.kernel_width  # plain ints: the kernels cannot read Outcomes
GAME_WIDTH = GAME_OUTCOMES.kernel_width
H_WIN, H_SPOILER, H_JINX_CALLED, H_JINX_MADE, H_ROBBED, H_TRICKS, H_NET = (
    HAND_OUTCOMES.seat.index(name) for name in ("win", "spoiler", "jinx_called", "jinx_made", "robbed", "tricks",
                                                "net"))
HT_SPOIL, HT_JINX, HT_ROB, HT_ACE_TURNED, HT_TRUMP_ACE_DEALT, HT_FORFEIT, HT_CARRIED = (
    HAND_OUTCOMES.table.index(name) for name in ("spoil", "jinx", "rob", "ace_turned", "trump_ace_dealt", "forfeit",
                                                 "carried"))
G_POOLS_WON, G_NET, G_DEAL_NET = (GAME_OUTCOMES.seat.index(name) for name in ("pools_won", "net", "deal_net"))
GT_DEALS, GT_POOL_DEALS, GT_POOL_SIZE, GT_SPOILS, GT_TRUNCATED, GT_LEFT = (
    GAME_OUTCOMES.table.index(name) for name in ("deals", "pool_deals", "pool_size", "spoils", "truncated", "left"))
assert HAND_OUTCOMES.squares_follow() and GAME_OUTCOMES.squares_follow()  # the kernels write X_sq at X + 1
N_RULES = len(Rules._fields)
R_PLAIN_LEAD, R_ROB, R_UNROBBED_ACE_LOW, R_ANTE, R_DEALER_EXTRA, R_DEALER_EXTRA_EVERY_DEAL, R_SPOIL_TOPUP, \
    R_TOPUP_AMOUNT, R_JINX, R_JINX_BONUS, R_MAX_DEALS = range(N_RULES)

RULES_ROW = FIRST_GAME_ROW + 0 * ROW
POLICY_ROW = FIRST_GAME_ROW + 1 * ROW  # policy field f of seat s at POLICY_ROW + MAX_PLAYERS * f + s
INFO_ROW = FIRST_GAME_ROW + 2 * ROW  # the deal's scalar results, I_* below
SEAT_ROW = FIRST_GAME_ROW + 3 * ROW  # per-seat results: SEAT_ROW + MAX_PLAYERS * field + seat, S_* below
LOG_ROW = FIRST_GAME_ROW + 4 * ROW  # stacked deals only: per trick leader, winner, the n cards (bits)
FLAG_ROW = INFO_ROW + 32  # per-seat 0/1 policy fields as bitmasks over the seats (F_*)
F_ROB, F_SPOIL, F_RENEGE = range(3)
LOG_STRIDE = 2 + MAX_PLAYERS
N_WORK_ROWS = 4 + -(-TRICKS * LOG_STRIDE // ROW)
N_INFO = 16  # INFO row slots (and their copy in a stacked deal's log record)
I_DEALER, I_TURNUP, I_TRUMP, I_ROBBED_BY, I_DISCARD, I_FORFEITED, I_WINNER, I_SPOILED, I_SPOILER, I_JINX_BY, \
    I_JINX_MADE, I_CLAIMED, I_TRICKS, I_ACE_TURNED, I_TRUMP_ACE_DEALT = range(15)
S_TRICKS, S_PAID, S_RECEIVED, S_POOLS_WON = range(4)
N_MASKS = MAX_PLAYERS  # the uint64 mask array: each seat's hand (emptied by play)

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
# The 52 cards' bits with each trump suit (before any ace is demoted).
EVERYONE = np.array([sum(1 << int(b) for b in BIT[t]) for t in range(4)], dtype=np.uint64)


@njit(cache=True)
def new_table_nb(rules, policy, n_seats):
    """The workspace (rules and policy copied in) and the mask array of a table."""
    work = np.zeros(FIRST_GAME_ROW + N_WORK_ROWS * ROW, dtype=np.int64)
    for i in range(N_RULES):
        work[RULES_ROW + i] = rules[i]
    for seat in range(n_seats):
        for field in range(4):
            work[POLICY_ROW + MAX_PLAYERS * field + seat] = np.int64(policy[seat, field])
        for flag, field in ((F_ROB, ROB), (F_SPOIL, SPOIL), (F_RENEGE, RENEGE)):
            if policy[seat, field]:
                work[FLAG_ROW + flag] |= 1 << seat
    return work, np.zeros(N_MASKS, dtype=np.uint64)


@njit(cache=True, inline="always")
def cheapest_nb(cards, trump):
    """The cheapest card of a non-empty set: its lowest plain card (ties to the lower
    suit), else its lowest trump."""
    plain = cards & ~trump
    return lowest_card_nb(plain) if plain else lowest_bit_nb(cards)


@njit(cache=True, inline="always")
def strongest_nb(cards, trump):
    """The strongest card of a non-empty set: its highest trump, else its highest plain
    card (ties to the lower suit)."""
    trumps = cards & trump
    return highest_bit_nb(trumps) if trumps else highest_card_nb(cards)


@njit(cache=True, inline="always")
def sure_winners_nb(hand, unseen, trump):
    """The cards of ``hand`` no unseen card can beat: trumps above every unseen trump, and
    (with no unseen trump at all) plain cards above every unseen card of their suit."""
    unseen_trumps = unseen & trump
    sure = hand & trump
    if unseen_trumps:
        return sure & above_nb(highest_bit_nb(unseen_trumps))
    return sure | tops_of_suits_nb(hand & ~trump, unseen & ~trump)


@njit(cache=True, inline="always")
def beaters_nb(cards, winning, led, trump):
    """(plain, trump) cards of ``cards`` that beat the card ``winning`` in a trick led in
    the suit with mask ``led``: plain ones only when the suit led is plain."""
    above = above_nb(winning)
    if (_ONE << winning) & trump:
        return _ZERO, cards & trump & above
    plain = cards & led & above if not (led & trump) else _ZERO
    return plain, cards & trump


@njit(cache=True, inline="always")
def legal_nb(hand, led_card, led, trump, law, privileged):
    """The legal cards to a trick led with ``led_card`` (suit mask ``led``), and whether
    that is a trump lead whose Must is empty (the renege case).  A trump lead follows
    sims.core.tricks' FOLLOW_OR_TRUMP with the privileged trumps above the led card as
    its renege set, whatever plain_lead says."""
    if led & trump:
        renegeable = hand & privileged & above_nb(led_card)
        return legal_cards_nb(hand, led, trump, LAW_FOLLOW_OR_TRUMP, renegeable), not hand & trump & ~renegeable
    if law == FREE:
        return hand, False
    return legal_cards_nb(hand, led, trump, LAW_FOLLOW_OR_TRUMP if law == FOLLOW_OR_TRUMP else LAW_FOLLOW_SUIT,
                          _ZERO), False


@njit(cache=True)
def play_deal_nb(work, masks, n, dealer, shuffle, state):
    """Play one deal (package docstring, steps 1-4) and return the advanced stream state.

    The pack row must hold the pack (code order for a random deal, the stacked order
    otherwise); ``shuffle`` = 0 draws it without swaps and logs the tricks.  Results go to
    the INFO row (I_*) and the SEAT row (S_TRICKS); the masks end as the hands left.
    """
    law = work[RULES_ROW + R_PLAIN_LEAD]
    obligatory = work[RULES_ROW + R_ROB] == ROB_OBLIGATORY
    ace_low = work[RULES_ROW + R_UNROBBED_ACE_LOW] != 0
    jinx_on = work[RULES_ROW + R_JINX] != 0

    # 1. The deal: 5 cards to each seat from the dealer's left, then the turn-up.
    top = 0
    for k in range(HAND_SIZE * n + 1):
        card, top, state = draw_nb(work, top, N_CARDS, shuffle, state)
        work[DEAL_ROW + k] = card
    turnup_code = work[DEAL_ROW + HAND_SIZE * n]
    trump_suit = turnup_code // 13
    trump = RANKED_SUIT << np.uint64(16 * trump_suit)
    ace_bit = np.uint64(BIT[trump_suit, 13 * trump_suit + ACE])
    privileged = (_ONE << np.uint64(BIT[trump_suit, 13 * trump_suit + FIVE])) \
        | (_ONE << np.uint64(BIT[trump_suit, 13 * trump_suit + JACK])) \
        | (_ONE << np.uint64(BIT[trump_suit, ACE_OF_HEARTS]))
    turnup = np.uint64(BIT[trump_suit, turnup_code])
    everyone = EVERYONE[trump_suit]  # the 52 cards in this deal's layout (a demoted ace at its usual place)
    holder = -1
    for k in range(n):
        seat = (dealer + 1 + k) % n
        hand = _ZERO
        for j in range(HAND_SIZE):
            hand |= _ONE << np.uint64(BIT[trump_suit, work[DEAL_ROW + HAND_SIZE * k + j]])
        masks[seat] = hand
        work[SEAT_ROW + MAX_PLAYERS * S_TRICKS + seat] = 0
        if hand & (_ONE << ace_bit):
            holder = seat

    # 2. Robbing (the turned-up ace now; the holder of the ace of trumps at its first turn).
    rob_seats = np.uint64(work[FLAG_ROW + F_ROB])
    spoil_seats = np.uint64(work[FLAG_ROW + F_SPOIL])
    renege_seats = np.uint64(work[FLAG_ROW + F_RENEGE])
    robbed_by = -1
    discard = np.uint64(63)
    forfeited = -1
    # What only one seat knows besides its hand: the robber its discard, the holder of a
    # demoted ace that ace's usual place (the others still count it as an unseen high trump).
    private_seat = -1
    private = np.uint64(63)
    demoted_bit = np.uint64(63)
    ace_turned = turnup_code % 13 == ACE
    dead = _ONE << turnup  # public dead cards: the turn-up while out of play, then the cards played
    if ace_turned and (rob_seats >> np.uint64(dealer)) & _ONE:
        discard = cheapest_nb(masks[np.uint64(dealer)], trump)
        masks[np.uint64(dealer)] = (masks[np.uint64(dealer)] & ~(_ONE << discard)) | (_ONE << turnup)
        robbed_by = dealer
        private_seat, private = dealer, discard
        dead &= ~(_ONE << turnup)

    # 3-4. Tricks.  Tricks won are kept in the SEAT row; `two` = the seats with two tricks,
    # `most` = the most tricks of a seat that is not forfeited (neither needs a loop).
    leader = (dealer + 1) % n
    played_tricks = 0
    winner = -1
    spoiled = 0
    spoiler = -1
    jinxer = -1
    jinx_made = 0
    claimed = 0
    two = _ZERO
    most = 0
    forfeit_bit = _ZERO  # the forfeited seat, as the others know it: once it has played the ace
    everybody = (_ONE << np.uint64(n)) - _ONE
    for trick in range(TRICKS):
        threat = two & ~forfeit_bit  # seats that can still take the pool
        if jinxer >= 0:
            threat |= _ONE << np.uint64(jinxer)
        led = _ZERO
        led_card = np.uint64(0)
        best = np.uint64(0)
        best_seat = leader
        to_play = everybody  # the seats still to play in this trick
        seat = leader
        for i in range(n):
            useat = np.uint64(seat)  # unsigned: no negative-index checks
            seat_bit = _ONE << useat
            to_play &= ~seat_bit
            if trick == 0 and seat == holder and robbed_by < 0:
                if (rob_seats >> useat) & _ONE:
                    discard = cheapest_nb(masks[useat], trump)
                    masks[useat] = (masks[useat] & ~(_ONE << discard)) | (_ONE << turnup)
                    robbed_by = seat
                    private_seat, private = seat, discard
                    dead &= ~(_ONE << turnup)  # the turn-up is live now: in the robber's hand
                else:
                    if obligatory:
                        forfeited = seat
                    if ace_low:  # the ace of trumps becomes the lowest trump, known to its holder only
                        demoted_bit = np.uint64(16 * trump_suit + DEMOTED_ACE_ORDER)
                        masks[useat] = (masks[useat] & ~(_ONE << ace_bit)) | (_ONE << demoted_bit)
                        private_seat, private = seat, ace_bit
            hand = masks[useat]
            threats = threat & ~seat_bit
            spoiling = (spoil_seats & seat_bit) != _ZERO and threats != _ZERO \
                and ((two & seat_bit) == _ZERO or seat == forfeited)
            if i == 0:
                if spoiling:
                    card = strongest_nb(hand, trump)
                else:
                    own = private if seat == private_seat else np.uint64(63)
                    unseen = everyone & ~(hand | dead | (_ONE << own))
                    sure = sure_winners_nb(hand, unseen, trump)
                    if sure & trump:
                        card = highest_bit_nb(sure & trump)
                    elif sure:
                        card = highest_card_nb(sure)
                    else:
                        card = cheapest_nb(hand, trump)
                led_card = card
                led = suit_of_bit_nb(card)
                best = card
            else:
                candidates, renege_case = legal_nb(hand, led_card, led, trump, law, privileged)
                if renege_case:
                    if renege_seats & seat_bit:
                        if hand & ~trump:
                            candidates = hand & ~trump
                    elif hand & trump:
                        candidates = hand & trump
                plain_win, trump_win = beaters_nb(candidates, best, led, trump)
                if spoiling and not threats & (_ONE << np.uint64(best_seat)):
                    if threats & to_play and (plain_win | trump_win):  # raise the bar for a threat still to play
                        card = highest_bit_nb(trump_win) if trump_win else highest_bit_nb(plain_win)
                    else:
                        card = cheapest_nb(candidates, trump)
                elif plain_win:
                    card = lowest_bit_nb(plain_win)
                elif trump_win:
                    card = lowest_bit_nb(trump_win)
                else:
                    card = cheapest_nb(candidates, trump)
                if (_ONE << card) & (plain_win | trump_win):
                    best = card
                    best_seat = seat
            masks[useat] = hand & ~(_ONE << card)
            dead |= _ONE << card
            if seat == forfeited or card == demoted_bit:
                if card == ace_bit or card == demoted_bit:  # the unrobbed ace is seen
                    dead |= _ONE << ace_bit
                    if seat == forfeited:
                        forfeit_bit = seat_bit
            if not shuffle:
                work[LOG_ROW + LOG_STRIDE * trick + 2 + i] = np.int64(card)
            seat += 1
            if seat == n:
                seat = 0
        if not shuffle:
            work[LOG_ROW + LOG_STRIDE * trick] = leader
            work[LOG_ROW + LOG_STRIDE * trick + 1] = best_seat
        slot = np.uint64(SEAT_ROW + MAX_PLAYERS * S_TRICKS + best_seat)
        won = work[slot] + 1
        work[slot] = won
        best_bit = _ONE << np.uint64(best_seat)
        if won == 2:
            two |= best_bit
        else:
            two &= ~best_bit
        if best_seat != forfeited and won > most:
            most = won
        played_tricks = trick + 1
        leader = best_seat
        # 4. Does the hand stop?
        if jinxer >= 0:
            if best_seat != jinxer:
                spoiled = 1
                spoiler = best_seat
                break
            if played_tricks == TRICKS:
                jinx_made = 1
                winner = jinxer
                break
            continue
        if won == 3:
            if best_seat == forfeited:
                spoiled = 1
                spoiler = best_seat
                break
            if jinx_on and played_tricks == 3:
                hand = masks[np.uint64(best_seat)]
                own = private if best_seat == private_seat else np.uint64(63)
                unseen = everyone & ~(hand | dead | (_ONE << own))
                if count_cards_nb(sure_winners_nb(hand, unseen, trump)) >= \
                        work[POLICY_ROW + MAX_PLAYERS * JINX_MIN + best_seat]:
                    jinxer = best_seat
                    continue
                claimed = 1
            winner = best_seat
            break
        if most + TRICKS - played_tricks < 3:  # no seat that is not forfeited can reach 3 tricks
            spoiled = 1
            spoiler = best_seat
            break

    work[INFO_ROW + I_DEALER] = dealer
    work[INFO_ROW + I_TURNUP] = turnup_code
    work[INFO_ROW + I_TRUMP] = trump_suit
    work[INFO_ROW + I_ROBBED_BY] = robbed_by
    work[INFO_ROW + I_DISCARD] = np.int64(discard) if robbed_by >= 0 else -1
    work[INFO_ROW + I_FORFEITED] = forfeited
    work[INFO_ROW + I_WINNER] = winner
    work[INFO_ROW + I_SPOILED] = spoiled
    work[INFO_ROW + I_SPOILER] = spoiler
    work[INFO_ROW + I_JINX_BY] = jinxer
    work[INFO_ROW + I_JINX_MADE] = jinx_made
    work[INFO_ROW + I_CLAIMED] = claimed
    work[INFO_ROW + I_TRICKS] = played_tricks
    work[INFO_ROW + I_ACE_TURNED] = ace_turned
    work[INFO_ROW + I_TRUMP_ACE_DEALT] = holder >= 0
    return state


@njit(cache=True, inline="always")
def jinx_bonus_nb(work):
    """What each other player pays a successful jinxer."""
    bonus = work[RULES_ROW + R_JINX_BONUS]
    ante = work[RULES_ROW + R_ANTE]
    if bonus == BONUS_NONE:
        return 0
    return 2 * ante if bonus == BONUS_DOUBLE_ANTE else ante


@njit(cache=True)
def play_pool_nb(work, masks, n, first_dealer, packs, n_packs, shuffle, state, log):
    """Play one pool from its start (package docstring, Chips) and return ``(state, deals,
    pool, taken_by, truncated, spoils)``: the deals played, the chips in the pool at the
    end, the seat that took it (-1 if none), 1 if max_deals stopped it, the spoiled
    deals.  Deal k is dealt by (first_dealer + k) mod n from a pack in code order
    (``shuffle``), or from ``packs[k]`` without swaps (stacked: at most ``n_packs`` deals,
    each logged in ``log[k]``, see _log_deal_nb).  Chips paid and received per seat go
    to the SEAT row (S_PAID, S_RECEIVED).
    """
    ante = work[RULES_ROW + R_ANTE]
    topup = work[RULES_ROW + R_TOPUP_AMOUNT]
    topup_rule = work[RULES_ROW + R_SPOIL_TOPUP]
    max_deals = work[RULES_ROW + R_MAX_DEALS]
    extra = work[RULES_ROW + R_DEALER_EXTRA]
    every_deal = work[RULES_ROW + R_DEALER_EXTRA_EVERY_DEAL] != 0
    for seat in range(n):
        work[SEAT_ROW + MAX_PLAYERS * S_PAID + seat] = ante
        work[SEAT_ROW + MAX_PLAYERS * S_RECEIVED + seat] = 0
    work[SEAT_ROW + MAX_PLAYERS * S_PAID + first_dealer] += extra
    pool = n * ante + extra
    dealer = first_dealer
    deals = 0
    spoils = 0
    taken_by = -1
    truncated = 0
    while True:
        if shuffle:
            for card in range(N_CARDS):
                work[card] = card
        else:
            if deals >= n_packs:
                break
            for card in range(N_CARDS):
                work[card] = packs[deals, card]
            log[deals, L_POOL] = pool
        state = play_deal_nb(work, masks, n, dealer, shuffle, state)
        if not shuffle:
            _log_deal_nb(work, masks, n, log, deals)
        deals += 1
        winner = work[INFO_ROW + I_WINNER]
        if winner >= 0:
            work[SEAT_ROW + MAX_PLAYERS * S_RECEIVED + winner] += pool
            if work[INFO_ROW + I_JINX_MADE]:
                bonus = jinx_bonus_nb(work)
                for seat in range(n):
                    if seat != winner:
                        work[SEAT_ROW + MAX_PLAYERS * S_PAID + seat] += bonus
                        work[SEAT_ROW + MAX_PLAYERS * S_RECEIVED + winner] += bonus
            taken_by = winner
            break
        spoils += 1
        if deals >= max_deals:
            truncated = 1
            break
        if not shuffle and deals >= n_packs:
            break  # no deal follows: no top-up
        if topup_rule == TOPUP_ALL_BUT_DEALER:
            for seat in range(n):
                if seat != dealer:
                    work[SEAT_ROW + MAX_PLAYERS * S_PAID + seat] += topup
                    pool += topup
        elif topup_rule == TOPUP_DEALER_ONLY:
            work[SEAT_ROW + MAX_PLAYERS * S_PAID + (dealer + 1) % n] += topup
            pool += topup
        else:
            for seat in range(n):
                work[SEAT_ROW + MAX_PLAYERS * S_PAID + seat] += topup
            pool += n * topup
        dealer = (dealer + 1) % n
        if every_deal:  # the new dealer's deal stake
            work[SEAT_ROW + MAX_PLAYERS * S_PAID + dealer] += extra
            pool += extra
    return state, deals, pool, taken_by, truncated, spoils


# A stacked deal's record in play_pool_nb's log: the pool at its start, the INFO row,
# tricks won per seat, the trick log (leader, winner, the cards in playing order, as
# bits) and the codes dealt.
L_POOL, L_INFO = 0, 1
L_TRICKS_WON = L_INFO + N_INFO
L_LOG = L_TRICKS_WON + MAX_PLAYERS
L_DEALT = L_LOG + TRICKS * LOG_STRIDE
LOG_WIDTH = L_DEALT + MAX_PLAYERS * HAND_SIZE


@njit(cache=True)
def _log_deal_nb(work, masks, n, log, k):
    """Copy a stacked deal's results into ``log[k]`` (after ``log[k, L_POOL]``)."""
    for i in range(N_INFO):
        log[k, L_INFO + i] = work[INFO_ROW + i]
    for seat in range(n):
        log[k, L_TRICKS_WON + seat] = work[SEAT_ROW + MAX_PLAYERS * S_TRICKS + seat]
    for i in range(TRICKS * LOG_STRIDE):
        log[k, L_LOG + i] = work[LOG_ROW + i]
    for i in range(HAND_SIZE * n):
        log[k, L_DEALT + i] = work[DEAL_ROW + i]


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over hands ``first .. first+count-1`` of ``seed``, the dealer
    in seat n-1, a new pool each hand.  Returns int64 ``[n + 1, width]`` (HAND_OUTCOMES)."""
    out = np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)
    work, masks = new_table_nb(rules, policy, n)
    seed_key = seed_key_nb(seed)
    dealer = n - 1
    ante = work[RULES_ROW + R_ANTE]
    extra = work[RULES_ROW + R_DEALER_EXTRA]
    pool = n * ante + extra
    bonus = jinx_bonus_nb(work)
    for hand in range(first, first + count):
        state = stream_nb(seed_key, hand)
        for card in range(N_CARDS):
            work[card] = card
        state = play_deal_nb(work, masks, n, dealer, True, state)
        winner = work[INFO_ROW + I_WINNER]
        jinx_made = work[INFO_ROW + I_JINX_MADE]
        jinxer = work[INFO_ROW + I_JINX_BY]
        spoiler = work[INFO_ROW + I_SPOILER]
        robbed_by = work[INFO_ROW + I_ROBBED_BY]
        for seat in range(n):
            net = -ante
            if seat == dealer:
                net -= extra
            if seat == winner:
                net += pool
                if jinx_made:
                    net += (n - 1) * bonus
            elif jinx_made:
                net -= bonus
            tricks = work[SEAT_ROW + MAX_PLAYERS * S_TRICKS + seat]
            out[seat, H_WIN] += seat == winner
            out[seat, H_SPOILER] += seat == spoiler
            out[seat, H_JINX_CALLED] += seat == jinxer
            out[seat, H_JINX_MADE] += (seat == jinxer) & (jinx_made == 1)
            out[seat, H_ROBBED] += seat == robbed_by
            out[seat, H_TRICKS] += tricks
            out[seat, H_TRICKS + 1] += tricks * tricks
            out[seat, H_NET] += net
            out[seat, H_NET + 1] += net * net
        spoiled = work[INFO_ROW + I_SPOILED]
        out[n, HT_SPOIL] += spoiled
        out[n, HT_JINX] += jinxer >= 0
        out[n, HT_ROB] += robbed_by >= 0
        out[n, HT_ACE_TURNED] += work[INFO_ROW + I_ACE_TURNED]
        out[n, HT_TRUMP_ACE_DEALT] += work[INFO_ROW + I_TRUMP_ACE_DEALT]
        out[n, HT_FORFEIT] += work[INFO_ROW + I_FORFEITED] >= 0
        if spoiled:
            out[n, HT_CARRIED] += pool
            out[n, HT_CARRIED + 1] += pool * pool
    return out


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over games ``first .. first+count-1`` of ``seed``, each a
    rotation of n pools.  Returns int64 ``[n + 1, width]`` (GAME_OUTCOMES)."""
    out = np.zeros((n + 1, GAME_WIDTH), dtype=np.int64)
    work, masks = new_table_nb(rules, policy, n)
    seed_key = seed_key_nb(seed)
    net = np.zeros(n, dtype=np.int64)
    won = np.zeros(n, dtype=np.int64)
    packs = np.zeros((1, N_CARDS), dtype=np.int64)
    log = np.zeros((1, 1), dtype=np.int64)
    for game in range(first, first + count):
        state = stream_nb(seed_key, game)
        for seat in range(n):
            net[seat] = 0
            won[seat] = 0
        deals = 0
        spoils = 0
        taken = 0
        taken_chips = 0
        truncated = 0
        left = 0
        for k in range(n):
            state, pool_deals, pool, taken_by, stopped, pool_spoils = play_pool_nb(
                work, masks, n, (n - 1 + k) % n, packs, 0, True, state, log)
            deals += pool_deals
            spoils += pool_spoils
            for seat in range(n):
                net[seat] += work[SEAT_ROW + MAX_PLAYERS * S_RECEIVED + seat] \
                    - work[SEAT_ROW + MAX_PLAYERS * S_PAID + seat]
            if taken_by >= 0:
                won[taken_by] += 1
                taken += 1
                taken_chips += pool
            else:
                truncated = 1
                left += pool
        for seat in range(n):
            out[seat, G_POOLS_WON] += won[seat]
            out[seat, G_POOLS_WON + 1] += won[seat] * won[seat]
            out[seat, G_NET] += net[seat]
            out[seat, G_NET + 1] += net[seat] * net[seat]
            out[seat, G_DEAL_NET] += net[seat]
            out[seat, G_DEAL_NET + 1] += net[seat] * net[seat]
            out[seat, G_DEAL_NET + 2] += deals
            out[seat, G_DEAL_NET + 3] += deals * deals
            out[seat, G_DEAL_NET + 4] += net[seat] * deals
        out[n, GT_DEALS] += deals
        out[n, GT_DEALS + 1] += deals * deals
        out[n, GT_POOL_DEALS] += deals
        out[n, GT_POOL_DEALS + 1] += deals * deals
        out[n, GT_POOL_DEALS + 2] += n
        out[n, GT_POOL_DEALS + 3] += n * n
        out[n, GT_POOL_DEALS + 4] += deals * n
        out[n, GT_POOL_SIZE] += taken_chips
        out[n, GT_POOL_SIZE + 1] += taken_chips * taken_chips
        out[n, GT_POOL_SIZE + 2] += taken
        out[n, GT_POOL_SIZE + 3] += taken * taken
        out[n, GT_POOL_SIZE + 4] += taken_chips * taken
        out[n, GT_SPOILS] += spoils
        out[n, GT_SPOILS + 1] += spoils * spoils
        out[n, GT_TRUNCATED] += truncated
        out[n, GT_LEFT] += left
        out[n, GT_LEFT + 1] += left * left
    return out
