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
    RANKED_SUIT,
    above_nb,
    count_cards_nb,
    highest_bit_nb,
    highest_card_nb,
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
    HAND_OUTCOMES.seat.index(name) for name in ("win", "spoiler", "jinx_called", "jinx_made", "robbed", "tricks", "net")
)
HT_SPOIL, HT_JINX, HT_ROB, HT_ACE_TURNED, HT_TRUMP_ACE_DEALT, HT_FORFEIT, HT_CARRIED = (
    HAND_OUTCOMES.table.index(name)
    for name in ("spoil", "jinx", "rob", "ace_turned", "trump_ace_dealt", "forfeit", "carried")
)
G_POOLS_WON, G_NET, G_DEAL_NET = (GAME_OUTCOMES.seat.index(name) for name in ("pools_won", "net", "deal_net"))
GT_DEALS, GT_POOL_DEALS, GT_POOL_SIZE, GT_SPOILS, GT_TRUNCATED, GT_LEFT = (
    GAME_OUTCOMES.table.index(name) for name in ("deals", "pool_deals", "pool_size", "spoils", "truncated", "left")
)
assert HAND_OUTCOMES.squares_follow() and GAME_OUTCOMES.squares_follow()  # the kernels write X_sq at X + 1
N_RULES = len(Rules._fields)
(
    R_PLAIN_LEAD,
    R_ROB,
    R_UNROBBED_ACE_LOW,
    R_ANTE,
    R_DEALER_EXTRA,
    R_DEALER_EXTRA_EVERY_DEAL,
    R_SPOIL_TOPUP,
    R_TOPUP_AMOUNT,
    R_JINX,
    R_JINX_BONUS,
    R_MAX_DEALS,
) = range(N_RULES)

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
(
    I_DEALER,
    I_TURNUP,
    I_TRUMP,
    I_ROBBED_BY,
    I_DISCARD,
    I_FORFEITED,
    I_WINNER,
    I_SPOILED,
    I_SPOILER,
    I_JINX_BY,
    I_JINX_MADE,
    I_CLAIMED,
    I_TRICKS,
    I_ACE_TURNED,
    I_TRUMP_ACE_DEALT,
) = range(15)
S_TRICKS, S_PAID, S_RECEIVED, S_POOLS_WON = range(4)
# The uint64 mask array: each seat's hand (emptied by play), then the public dead cards at
# the end of the deal (M_DEAD).
M_DEAD = MAX_PLAYERS
N_MASKS = MAX_PLAYERS + 1

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_ALL = ~_ZERO
_NO_CARD = np.uint64(63)  # a bit no card uses (the layout's highest bit is 62)
# Per trump suit: the 52 cards' bits (before any ace is demoted), the ace of trumps' bit,
# the privileged trumps (5 and jack of trumps, Ah).  Indexed by an unsigned trump suit.
EVERYONE = np.array([sum(1 << int(b) for b in BIT[t]) for t in range(4)], dtype=np.uint64)
ACE_BIT = np.array([BIT[t, 13 * t + ACE] for t in range(4)], dtype=np.uint64)
PRIVILEGED = np.array(
    [
        (1 << int(BIT[t, 13 * t + FIVE])) | (1 << int(BIT[t, 13 * t + JACK])) | (1 << int(BIT[t, ACE_OF_HEARTS]))
        for t in range(4)
    ],
    dtype=np.uint64,
)
# BIT flattened and unsigned: the bit of code c with trumps t at 52 * t + c (an unsigned
# index spares Numba's negative-index checks, and the bit needs no conversion to shift by).
BIT_OF = BIT.reshape(-1).astype(np.uint64)


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


# The rule fields a deal reads, in the order of play_deal_nb's ``codes``.
DEAL_RULE_FIELDS = (R_PLAIN_LEAD, R_ROB, R_UNROBBED_ACE_LOW, R_JINX)


@njit(cache=True, inline="always")
def deal_rule_codes_nb(rules):
    """The values of ``DEAL_RULE_FIELDS`` as one tuple (from the rules array or the
    workspace's rules row), read once per block or pool rather than in every deal."""
    f = DEAL_RULE_FIELDS
    return (rules[f[0]], rules[f[1]], rules[f[2]], rules[f[3]])


@njit(cache=True, inline="always")
def seat_flags_nb(work):
    """The per-seat 0/1 policy fields as seat bitmasks: (rob, spoil, renege)."""
    return (
        np.uint64(work[FLAG_ROW + F_ROB]),
        np.uint64(work[FLAG_ROW + F_SPOIL]),
        np.uint64(work[FLAG_ROW + F_RENEGE]),
    )


@njit(cache=True, inline="always")
def cheapest_nb(cards, trump):
    """The cheapest card of a non-empty set: its lowest plain card (ties to the lower
    suit), else its lowest trump."""
    plain = cards & ~trump
    # Both computed and one selected: whether a hand has a plain card is a coin flip.
    low_plain = lowest_card_nb(plain)
    low_any = lowest_bit_nb(cards)
    return low_plain if plain else low_any


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
    trumps = hand & trump
    # Both cases computed and one selected (no branch to mispredict).  `| 1` keeps the
    # shift defined with no unseen trump; it changes no highest bit otherwise.
    above_unseen = trumps & above_nb(highest_bit_nb(unseen_trumps | _ONE))
    no_unseen_trump = trumps | tops_of_suits_nb(hand & ~trump, unseen & ~trump)
    return above_unseen if unseen_trumps else no_unseen_trump


@njit(cache=True, inline="always")
def greedy_lead_nb(hand, unseen, trump):
    """Greedy leading: the highest sure-winning trump, else the highest sure-winning plain
    card (ties to the lower suit), else the cheapest card."""
    sure = sure_winners_nb(hand, unseen, trump)
    sure_trumps = sure & trump
    # All three computed, one selected; a select of an empty set's garbage is discarded.
    top_trump = highest_bit_nb(sure_trumps)
    top_plain = highest_card_nb(sure)
    cheapest = cheapest_nb(hand, trump)
    return top_trump if sure_trumps else (top_plain if sure else cheapest)


@njit(cache=True, inline="always")
def _ace_seen_nb(ace_rules, card, seat, seat_bit, forfeited, ace_bit, demoted_bit, ace_mask, dead, forfeit_bit):
    """After ``seat`` plays ``card``: when the card is the unrobbed ace (``ace_bit`` from the
    seat that forfeited the rob, or the demoted ace), the ace is seen dead, and a forfeited
    seat that played it is known from then on (``forfeit_bit``).  Returns ``(dead,
    forfeit_bit)``.  Tested only under the rules that allow either (``ace_rules``)."""
    if ace_rules and (seat == forfeited or card == demoted_bit):
        if card == ace_bit or card == demoted_bit:
            dead |= ace_mask
            if seat == forfeited:
                forfeit_bit = seat_bit
    return dead, forfeit_bit


@njit(cache=True, inline="always")
def play_deal_nb(work, masks, n, dealer, shuffle, state, codes, seat_flags):
    """Play one deal (package docstring, steps 1-4) and return ``(state, turnup code,
    trump suit, robbed_by, discard bit, forfeited, winner, spoiled, spoiler, jinx_by,
    jinx_made, claimed, tricks played, ace_turned, trump_ace_dealt)``.

    The pack row must hold the pack (code order for a random deal, the stacked order
    otherwise); ``shuffle`` = 0 draws it without swaps and logs the tricks (LOG row).
    ``codes`` are deal_rule_codes_nb's rule values and ``seat_flags`` seat_flags_nb's, read
    once by the caller (or fixed at compile time).  Tricks won go to the SEAT row
    (S_TRICKS); the masks end as the hands left.

    The card choices are data-dependent coin flips for a branch predictor, so the usual
    paths compute them as masks and selects; branches remain where they are rare or
    predictable (robbing, spoiling play, a forfeited seat, the end of the deal).
    """
    law, rob_rule, ace_low_rule, jinx_rule = codes
    obligatory = rob_rule == ROB_OBLIGATORY
    ace_low = ace_low_rule != 0
    # Only these rules let a seat be forfeited or hold a demoted ace: without them the
    # tests below are skipped by one predictable test.
    ace_rules = obligatory or ace_low
    jinx_on = jinx_rule != 0
    rob_seats, spoil_seats, renege_seats = seat_flags

    # 1. The deal: 5 cards to each seat from the dealer's left, then the turn-up.
    top = 0
    for k in range(HAND_SIZE * n + 1):
        card, top, state = draw_nb(work, top, N_CARDS, shuffle, state)
        work[DEAL_ROW + k] = card
    turnup_code = work[DEAL_ROW + HAND_SIZE * n]
    suit = np.uint64(turnup_code) // np.uint64(13)
    trump_suit = np.int64(suit)
    layout = np.uint64(N_CARDS) * suit  # this trump suit's row of BIT_OF
    trump = RANKED_SUIT << (np.uint64(16) * suit)
    ace_bit = ACE_BIT[suit]
    ace_mask = _ONE << ace_bit
    privileged = PRIVILEGED[suit]
    turnup = BIT_OF[layout + np.uint64(turnup_code)]
    everyone = EVERYONE[suit]  # the 52 cards in this deal's layout (a demoted ace at its usual place)
    leader = dealer + 1 if dealer + 1 < n else 0  # the eldest hand leads trick 1
    holder = -1
    seat = leader
    for k in range(n):
        hand = _ZERO
        for j in range(HAND_SIZE):
            hand |= _ONE << BIT_OF[layout + np.uint64(work[DEAL_ROW + HAND_SIZE * k + j])]
        masks[np.uint64(seat)] = hand
        work[SEAT_ROW + MAX_PLAYERS * S_TRICKS + seat] = 0
        holder = seat if hand & ace_mask else holder
        seat = seat + 1 if seat + 1 < n else 0

    # 2. Robbing (the turned-up ace now; the holder of the ace of trumps at its first turn).
    robbed_by = -1
    discard = _NO_CARD
    forfeited = -1
    # What only one seat knows besides its hand: the robber its discard, the holder of a
    # demoted ace that ace's usual place (the others still count it as an unseen high trump).
    private_seat = -1
    private = _NO_CARD
    demoted_bit = _NO_CARD
    ace_turned = turnup_code - 13 * trump_suit == ACE
    dead = _ONE << turnup  # public dead cards: the turn-up while out of play, then the cards played
    udealer = np.uint64(dealer)
    if ace_turned and (rob_seats >> udealer) & _ONE:
        discard = cheapest_nb(masks[udealer], trump)
        masks[udealer] = (masks[udealer] & ~(_ONE << discard)) | (_ONE << turnup)
        robbed_by = dealer
        private_seat, private = dealer, discard
        dead &= ~(_ONE << turnup)
    # The holder decides at its first turn in trick 1, but nothing played before that turn
    # depends on its decision except the lead's view of the turn-up (dead or live), so the
    # decision is made here and the turn-up goes live just before the holder plays:
    # before the lead if the holder leads, else right after the lead (`goes_live`).
    goes_live = _ZERO
    if holder >= 0:
        uholder = np.uint64(holder)
        if (rob_seats >> uholder) & _ONE:
            discard = cheapest_nb(masks[uholder], trump)
            masks[uholder] = (masks[uholder] & ~(_ONE << discard)) | (_ONE << turnup)
            robbed_by = holder
            private_seat, private = holder, discard
            if holder == leader:
                dead &= ~(_ONE << turnup)  # the turn-up is live now: in the robber's hand
            else:
                goes_live = _ONE << turnup
        else:
            if obligatory:
                forfeited = holder
            if ace_low:  # the ace of trumps becomes the lowest trump, known to its holder only
                demoted_bit = np.uint64(16 * trump_suit + DEMOTED_ACE_ORDER)
                masks[uholder] = (masks[uholder] & ~ace_mask) | (_ONE << demoted_bit)
                private_seat, private = holder, ace_bit
    forfeited_bit = _ONE << np.uint64(forfeited) if forfeited >= 0 else _ZERO
    # The cards a follower of a plain lead must play from when it holds the suit led:
    # the suit led or a trump (follow-or-trump), the suit led (must-follow), any (free).
    follow_extra = trump if law == FOLLOW_OR_TRUMP else (_ALL if law == FREE else _ZERO)

    # 3-4. Tricks.  Tricks won are kept in the SEAT row; `two` = the seats with two tricks,
    # `most` = the most tricks of a seat that is not forfeited (neither needs a loop).
    played_tricks = 0
    winner = -1
    spoiled = 0
    spoiler = -1
    jinxer = -1
    jinx_bit = _ZERO
    jinx_made = 0
    claimed = 0
    two = _ZERO
    most = 0
    forfeit_bit = _ZERO  # the forfeited seat, as the others know it: once it has played the ace
    everybody = (_ONE << np.uint64(n)) - _ONE
    for trick in range(TRICKS):
        threat = (two & ~forfeit_bit) | jinx_bit  # seats that can still take the pool
        # Seats that play spoiling when threatened: spoil policy, and no pool for themselves.
        spoilers = spoil_seats & (~two | forfeited_bit)

        # The lead.
        seat = leader
        useat = np.uint64(seat)
        seat_bit = _ONE << useat
        hand = masks[useat]
        if (spoilers & seat_bit) and (threat & ~seat_bit):
            card = strongest_nb(hand, trump)
        else:
            own = private if seat == private_seat else _NO_CARD
            card = greedy_lead_nb(hand, everyone & ~(hand | dead | (_ONE << own)), trump)
        led = suit_of_bit_nb(card)
        led_trump = (led & trump) != _ZERO
        above_led = above_nb(card)
        best = card
        best_seat = seat
        masks[useat] = hand & ~(_ONE << card)
        dead = (dead | (_ONE << card)) & ~goes_live
        goes_live = _ZERO
        dead, forfeit_bit = _ace_seen_nb(
            ace_rules, card, seat, seat_bit, forfeited, ace_bit, demoted_bit, ace_mask, dead, forfeit_bit
        )
        if not shuffle:
            work[LOG_ROW + LOG_STRIDE * trick + 2] = np.int64(card)
        to_play = everybody & ~seat_bit  # the seats still to play in this trick
        follow = led | follow_extra

        # The others follow clockwise.
        for i in range(1, n):
            seat = seat + 1 if seat + 1 < n else 0
            useat = np.uint64(seat)  # unsigned: no negative-index checks
            seat_bit = _ONE << useat
            to_play &= ~seat_bit
            hand = masks[useat]
            trumps = hand & trump
            plain = hand & ~trump
            # Candidates to a trump lead: the trumps when one of them must be played (a
            # seat with renege 0 plays one whenever it holds one); else the plain cards
            # when there are any (it holds back its privileged trumps); else the hand.
            held_back = hand & privileged & above_led & (_ZERO - ((renege_seats >> useat) & _ONE))
            to_trump = trumps if trumps & ~held_back else (plain if plain else hand)
            # Candidates to a plain lead (the law of plain_lead).
            to_plain = hand & follow if hand & led else hand
            candidates = to_trump if led_trump else to_plain
            # The candidates that beat the best card so far: of the suit led when no trump
            # is winning, trumps above it when one is, any trump otherwise.
            above_best = above_nb(best)
            best_trump = _ZERO - ((trump >> best) & _ONE)  # all ones when a trump is winning
            plain_win = candidates & led & above_best & ~best_trump
            trump_win = candidates & trump & (above_best | ~best_trump)
            beaters = plain_win | trump_win
            cheapest = cheapest_nb(candidates, trump)
            if (spoilers & seat_bit) and (threat & ~seat_bit) and not threat & (_ONE << np.uint64(best_seat)):
                if threat & to_play and beaters:  # raise the bar for a threat still to play
                    card = highest_bit_nb(trump_win) if trump_win else highest_bit_nb(plain_win)
                else:
                    card = cheapest
            else:
                # Greedy: the lowest beater of the suit led, else the lowest trump beater,
                # else the cheapest candidate.
                lowest_winner = lowest_bit_nb(plain_win if plain_win else trump_win)
                card = lowest_winner if beaters else cheapest
            takes = (beaters >> card) & _ONE
            best = card if takes else best
            best_seat = seat if takes else best_seat
            masks[useat] = hand & ~(_ONE << card)
            dead |= _ONE << card
            dead, forfeit_bit = _ace_seen_nb(
                ace_rules, card, seat, seat_bit, forfeited, ace_bit, demoted_bit, ace_mask, dead, forfeit_bit
            )
            if not shuffle:
                work[LOG_ROW + LOG_STRIDE * trick + 2 + i] = np.int64(card)
        if not shuffle:
            work[LOG_ROW + LOG_STRIDE * trick] = leader
            work[LOG_ROW + LOG_STRIDE * trick + 1] = best_seat
        slot = np.uint64(SEAT_ROW + MAX_PLAYERS * S_TRICKS + best_seat)
        won = work[slot] + 1
        work[slot] = won
        best_bit = _ONE << np.uint64(best_seat)
        two = (two & ~best_bit) | (best_bit if won == 2 else _ZERO)
        most = won if best_seat != forfeited and won > most else most
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
                own = private if best_seat == private_seat else _NO_CARD
                unseen = everyone & ~(hand | dead | (_ONE << own))
                if (
                    count_cards_nb(sure_winners_nb(hand, unseen, trump))
                    >= work[POLICY_ROW + MAX_PLAYERS * JINX_MIN + best_seat]
                ):
                    jinxer = best_seat
                    jinx_bit = best_bit
                    continue
                claimed = 1
            winner = best_seat
            break
        if most + TRICKS - played_tricks < 3:  # no seat that is not forfeited can reach 3 tricks
            spoiled = 1
            spoiler = best_seat
            break
    # One exit whose last statements store to both arrays: Numba's reference-count pruning
    # then drops the incref/decref pairs that binding them to this inlined function's
    # arguments costs (two atomic pairs per deal otherwise).
    work[INFO_ROW + I_TRICKS] = played_tricks
    masks[M_DEAD] = dead
    return (
        state,
        turnup_code,
        trump_suit,
        robbed_by,
        np.int64(discard) if robbed_by >= 0 else -1,
        forfeited,
        winner,
        spoiled,
        spoiler,
        jinxer,
        jinx_made,
        claimed,
        played_tricks,
        ace_turned,
        holder >= 0,
    )


@njit(cache=True)
def play_logged_deal_nb(work, masks, n, dealer, shuffle, state):
    """play_deal_nb with the rules and flags read from the workspace, its results written
    to the INFO row (I_*); returns the advanced stream state (a pool's deals)."""
    (
        state,
        turnup_code,
        trump_suit,
        robbed_by,
        discard,
        forfeited,
        winner,
        spoiled,
        spoiler,
        jinxer,
        jinx_made,
        claimed,
        played_tricks,
        ace_turned,
        trump_ace_dealt,
    ) = play_deal_nb(work, masks, n, dealer, shuffle, state, deal_rule_codes_nb(work[RULES_ROW:]), seat_flags_nb(work))
    work[INFO_ROW + I_DEALER] = dealer
    work[INFO_ROW + I_TURNUP] = turnup_code
    work[INFO_ROW + I_TRUMP] = trump_suit
    work[INFO_ROW + I_ROBBED_BY] = robbed_by
    work[INFO_ROW + I_DISCARD] = discard
    work[INFO_ROW + I_FORFEITED] = forfeited
    work[INFO_ROW + I_WINNER] = winner
    work[INFO_ROW + I_SPOILED] = spoiled
    work[INFO_ROW + I_SPOILER] = spoiler
    work[INFO_ROW + I_JINX_BY] = jinxer
    work[INFO_ROW + I_JINX_MADE] = jinx_made
    work[INFO_ROW + I_CLAIMED] = claimed
    work[INFO_ROW + I_TRICKS] = played_tricks
    work[INFO_ROW + I_ACE_TURNED] = ace_turned
    work[INFO_ROW + I_TRUMP_ACE_DEALT] = trump_ace_dealt
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
        state = play_logged_deal_nb(work, masks, n, dealer, shuffle, state)
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


@njit(cache=True, inline="always")
def _play_hands_nb(rules, policy, n, seed, first, count, codes):
    """Hand mode's loop, for both hand kernels: ``codes`` are deal_rule_codes_nb's rule
    values, read from ``rules`` or fixed at compile time."""
    out = np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)
    work, masks = new_table_nb(rules, policy, n)
    seat_flags = seat_flags_nb(work)
    seed_key = seed_key_nb(seed)
    dealer = n - 1
    ante = work[RULES_ROW + R_ANTE]
    extra = work[RULES_ROW + R_DEALER_EXTRA]
    pool = n * ante + extra
    bonus = jinx_bonus_nb(work)
    table = np.uint64(n)
    for hand in range(first, first + count):
        state = stream_nb(seed_key, hand)
        for card in range(N_CARDS):
            work[card] = card
        (
            state,
            _,
            _,
            robbed_by,
            _,
            forfeited,
            winner,
            spoiled,
            spoiler,
            jinxer,
            jinx_made,
            _,
            _,
            ace_turned,
            trump_ace_dealt,
        ) = play_deal_nb(work, masks, n, dealer, True, state, codes, seat_flags)
        # A count that at most one seat gets is added to that seat's row, or 0 to the table
        # row when no seat gets it (no loop over the seats, no branch).
        out[np.uint64(winner) if winner >= 0 else table, H_WIN] += winner >= 0
        out[np.uint64(spoiler) if spoiler >= 0 else table, H_SPOILER] += spoiler >= 0
        out[np.uint64(jinxer) if jinxer >= 0 else table, H_JINX_CALLED] += jinxer >= 0
        out[np.uint64(jinxer) if jinxer >= 0 else table, H_JINX_MADE] += (jinxer >= 0) & (jinx_made == 1)
        out[np.uint64(robbed_by) if robbed_by >= 0 else table, H_ROBBED] += robbed_by >= 0
        paid = bonus if jinx_made else 0  # the jinx bonus each other seat pays the winner
        for seat in range(n):
            net = -ante - paid + (pool + n * paid if seat == winner else 0) - (extra if seat == dealer else 0)
            tricks = work[SEAT_ROW + MAX_PLAYERS * S_TRICKS + seat]
            out[seat, H_TRICKS] += tricks
            out[seat, H_TRICKS + 1] += tricks * tricks
            out[seat, H_NET] += net
            out[seat, H_NET + 1] += net * net
        out[n, HT_SPOIL] += spoiled
        out[n, HT_JINX] += jinxer >= 0
        out[n, HT_ROB] += robbed_by >= 0
        out[n, HT_ACE_TURNED] += ace_turned
        out[n, HT_TRUMP_ACE_DEALT] += trump_ace_dealt
        out[n, HT_FORFEIT] += forfeited >= 0
        carried = pool if spoiled else 0
        out[n, HT_CARRIED] += carried
        out[n, HT_CARRIED + 1] += carried * carried
    return out


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over hands ``first .. first+count-1`` of ``seed``, the dealer
    in seat n-1, a new pool each hand.  Returns int64 ``[n + 1, width]`` (HAND_OUTCOMES).
    Any rules (see fixed_hands_kernel)."""
    return _play_hands_nb(rules, policy, n, seed, first, count, deal_rule_codes_nb(rules))


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over games ``first .. first+count-1`` of ``seed``, each
    whole rounds of the deal (package docstring, Game mode): seat n-1 deals first, the
    deal passes one seat left after every deal, across pools too, and the game ends with
    the first pool that ends on a whole number of rounds.  Returns int64 ``[n + 1,
    width]`` (GAME_OUTCOMES)."""
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
        pools = 0
        spoils = 0
        taken = 0
        taken_chips = 0
        truncated = 0
        left = 0
        dealer = n - 1
        while True:
            state, pool_deals, pool, taken_by, stopped, pool_spoils = play_pool_nb(
                work, masks, n, dealer, packs, 0, True, state, log
            )
            pools += 1
            deals += pool_deals
            spoils += pool_spoils
            for seat in range(n):
                net[seat] += (
                    work[SEAT_ROW + MAX_PLAYERS * S_RECEIVED + seat] - work[SEAT_ROW + MAX_PLAYERS * S_PAID + seat]
                )
            if taken_by >= 0:
                won[taken_by] += 1
                taken += 1
                taken_chips += pool
            else:
                truncated = 1
                left += pool
            # The next pool's first dealer: the seat left of this pool's last dealer.
            dealer = (dealer + pool_deals) % n
            if dealer == n - 1:  # a whole number of rounds dealt, and no pool on the table
                break
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
        out[n, GT_POOL_DEALS + 2] += pools
        out[n, GT_POOL_DEALS + 3] += pools * pools
        out[n, GT_POOL_DEALS + 4] += deals * pools
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
