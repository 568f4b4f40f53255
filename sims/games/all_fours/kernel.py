"""All-Fours: the Numba kernels (one deal, hand mode, game mode).

They play the rules contract in the package docstring (sims/games/all_fours/__init__.py).

Cards are ranked bits (sims.core.tricks, ACE_HIGH_BIT): bit = 16 * suit + order, the 2 =
order 0 ... the ace = 12, so a hand is a 64-bit mask and bit order is rank order inside
a suit.  The pack holds bits too, so a drawn card needs no translation.

Scratch.  A table's state lives in two arrays made by :func:`new_table_nb`: ``work``, a
flat int64 workspace of 52-entry rows (see sims.core.deck; its first row is the pack, so
the deck functions take it), and ``masks``, a small uint64 array of card sets.  Every
entry is named: a row holds the fields of one list below (``INFO_FIELDS``: the deal's
scalar results; ``SEAT_FIELDS``: per-seat results, two entries each; ``MASK_FIELDS``:
per-seat card sets), and kernels read and write them only through the inline accessors
(``info_nb(work, I_TRUMP)``, ``add_seat_nb(work, S_POINTS, seat, 1)``,
``mask_nb(masks, M_HAND, seat)`` ...).  A NumPy record cost this kernel 2-3% more
instructions per hand (LLVM keeps more addresses live in the trick loop; see
sims.core.deck), hence the flat arrays.  The accessors index with unsigned integers,
which spares Numba's negative-index checks.

One deal is played by :func:`play_deal_nb` in the phases of the rules (deal and turn-up,
beg, give or run, bunch, discard, tricks, scoring), each a small inlined function that
keeps its results in the scratch.
"""

from __future__ import annotations

import numpy as np

from sims.core.deck import FIRST_GAME_ROW, N_CARDS, ROW, draw_nb, reset_pack_nb
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.table_nb import NO_TABLE, table_action_nb
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
    DISCARD_TO_SIX,
    FOSTER_CLUB,
    GAME_OUTCOMES,
    GIFT_THEN_REDEAL,
    HAND_OUTCOMES,
    LENGTH_BUCKET_LOW,
    LOW_TO_TRICK_WINNER,
    MAX_ROUNDS,
    N_PLAYERS,
    POLICY_FIELDS,
    STYLE_HIGH,
    TIE_NOBODY,
    Rules,
)
from sims.games.all_fours.table import JACK_SHIFT, N_ACTIONS, OFFSETS
from sims.spec import indices

# Rules (the rules array's order) and policy columns, by name.
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
) = indices(
    Rules,
    "target",
    "gift_then",
    "gift_redeal_same_dealer",
    "gift_cannot_win",
    "after_run",
    "low_to",
    "game_tie",
    "exhaust_keeps_jack_points",
    "bunch",
)
N_RULES = len(Rules._fields)
N_FIELDS = len(POLICY_FIELDS)
P_BEG_BELOW, P_GIVE_AT_LEAST, P_BUNCH_BELOW, P_PLAY_STYLE = indices(
    POLICY_FIELDS, "beg_below", "give_at_least", "bunch_below", "play_style"
)

# Outcome columns (hand mode: H_* per seat, HT_* the table row; game mode: G_*, GT_*).
HAND_WIDTH = HAND_OUTCOMES.kernel_width  # plain ints: the kernels cannot read Outcomes
GAME_WIDTH = GAME_OUTCOMES.kernel_width
assert HAND_OUTCOMES.squares_follow() and GAME_OUTCOMES.squares_follow()  # the kernels write X_sq at X + 1
H_POINTS, H_HIGH, H_LOW, H_JACK, H_GAME, H_GIFT, H_TURNED_JACKS, H_GAME_POINTS = indices(
    HAND_OUTCOMES.seat, "points", "high", "low", "jack", "game", "gift", "turned_jacks", "game_points"
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
) = indices(
    HAND_OUTCOMES.table,
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
G_WIN, G_SCORE, G_BEGGED, G_GAVE = indices(GAME_OUTCOMES.seat, "win", "score", "begged", "gave")
GT_DEALS, GT_PLAYED, GT_VOID, GT_THROWN_IN, GT_BUNCHED, GT_BEFORE_PLAY, GT_LENGTH = indices(
    GAME_OUTCOMES.table,
    "deals",
    "played",
    "void",
    "thrown_in",
    "bunched",
    "before_play",
    "length_1_2",  # the first of the length buckets, which follow in LENGTH_BUCKET_LOW's order
)

# The scratch's fields.  The deal's scalar results (the INFO row; -1 = nobody / none):
INFO_FIELDS = (
    "begged",  # 1 if E begged
    "gave",  # 1 if D gave a point
    "ran",  # 1 if D ran the cards
    "rounds",  # three-card rounds dealt in the run
    "void",  # 1 if the pack ran out in the run
    "thrown_in",  # 1 if the cards were thrown in after a gift
    "bunched",  # 1 if both seats agreed to a redeal
    "played",  # 1 if the hand was played
    "trump",  # the trump suit (the last turn-up's suit that was not rejected); -1 for a void deal
    "trumps_in_play",  # trumps held at the start of play
    "jack_in_play",  # 1 if the jack of trumps was in play
    "game_tie",  # 1 if the seats' counting-card points tied
    "high",  # the seat that scored High (-1: nobody)
    "low",  # ... Low
    "jack",  # ... Jack
    "game",  # ... Game
    "winner",  # the seat that reached the target in this deal (-1: nobody)
    "next_dealer",  # the seat that deals next
    "turnups",  # turned-up cards (entries of the TURNUP row)
    "tricks",  # tricks played (entries of the PLAYED and TRICK rows, stacked deals)
    "beg_cell",  # with tables on (TABLE row): 1 + the cell of E's stand/beg, 0 when not visited
    "give_cell",  # ... 1 + the cell of D's give/run (visited only when D may give)
)
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
    I_BEG_CELL,
    I_GIVE_CELL,
) = indices(INFO_FIELDS, *INFO_FIELDS)
N_INFO = len(INFO_FIELDS)
# Per-seat results (the SEAT row, field f of seat s at entry 2 * f + s):
SEAT_FIELDS = (
    "points",  # points scored in this deal (after a void deal's cancelled jacks)
    "score",  # the score (before the deal, then after each point)
    "game_points",  # counting-card points in the seat's tricks
    "turned_jacks",  # points for turned-up jacks
    "gift",  # 1 if given a point
)
S_POINTS, S_SCORE, S_GAME_POINTS, S_TURNED_JACKS, S_GIFT = indices(SEAT_FIELDS, *SEAT_FIELDS)
# Card sets (the masks array, field f of seat s at 2 * f + s; "seen" uses seat 0's entry):
MASK_FIELDS = (
    "hand",  # the seat's cards (emptied by play)
    "dealt",  # every card dealt to it
    "discarded",  # its discards
    "seen",  # the public dead cards: the turn-ups, then the cards played
)
M_HAND, M_DEALT, M_DISCARDED, M_SEEN = indices(MASK_FIELDS, *MASK_FIELDS)

# The rows of ``work``.
DECK_ROW = 0  # the pack (bits): positions below `top` are drawn
RULES_ROW = FIRST_GAME_ROW + 0 * ROW  # the rules array
POLICY_ROW = FIRST_GAME_ROW + 1 * ROW  # policy field f of seat s at 2 * f + s
INFO_ROW = FIRST_GAME_ROW + 2 * ROW  # INFO_FIELDS
SEAT_ROW = FIRST_GAME_ROW + 3 * ROW  # SEAT_FIELDS
TURNUP_ROW = FIRST_GAME_ROW + 4 * ROW  # the turned-up cards (bits), in order
PLAYED_ROW = FIRST_GAME_ROW + 5 * ROW  # 2 * trick + place: card played (bits; stacked deals only)
TRICK_ROW = FIRST_GAME_ROW + 6 * ROW  # 2 * trick: its leader, 2 * trick + 1: its winner (stacked deals only)
# Strategy tables: T_ON is 1 when some seat's policy row carries table blocks (or a solve
# records its visits); T_FORCE + d is 1 + the action forced at decision d's visit (0: none).
TABLE_ROW = FIRST_GAME_ROW + 7 * ROW
T_ON = TABLE_ROW
T_FORCE = TABLE_ROW + 1
SUM_ROW = FIRST_GAME_ROW + 8 * ROW  # hand-mode sums: seat 0, seat 1, table, SUM_STRIDE each
SUM_STRIDE = 32
N_WORK_ROWS = 8 + 3 * SUM_STRIDE // ROW + 1
assert N_RULES <= ROW and N_PLAYERS * len(POLICY_FIELDS) <= ROW and N_INFO <= ROW
assert N_PLAYERS * len(SEAT_FIELDS) <= ROW and HAND_WIDTH <= SUM_STRIDE and MAX_ROUNDS + 1 <= ROW

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


# ---- Accessors: the only code that knows where a field lives. ----


@njit(cache=True, inline="always")
def rule_nb(work, rule):
    """The value of rule ``rule`` (R_*)."""
    return work[np.uint64(RULES_ROW + rule)]


@njit(cache=True, inline="always")
def policy_nb(work, field, seat):
    """Seat ``seat``'s value of policy field ``field`` (P_*), as an integer."""
    return work[np.uint64(POLICY_ROW + 2 * field) + np.uint64(seat)]


@njit(cache=True, inline="always")
def info_nb(work, field):
    """The deal's result ``field`` (I_*)."""
    return work[np.uint64(INFO_ROW + field)]


@njit(cache=True, inline="always")
def set_info_nb(work, field, value):
    """Set the deal's result ``field`` (I_*)."""
    work[np.uint64(INFO_ROW + field)] = value


@njit(cache=True, inline="always")
def seat_nb(work, field, seat):
    """Seat ``seat``'s result ``field`` (S_*)."""
    return work[np.uint64(SEAT_ROW + 2 * field) + np.uint64(seat)]


@njit(cache=True, inline="always")
def set_seat_nb(work, field, seat, value):
    """Set seat ``seat``'s result ``field`` (S_*)."""
    work[np.uint64(SEAT_ROW + 2 * field) + np.uint64(seat)] = value


@njit(cache=True, inline="always")
def add_seat_nb(work, field, seat, value):
    """Add ``value`` to seat ``seat``'s result ``field`` (S_*)."""
    work[np.uint64(SEAT_ROW + 2 * field) + np.uint64(seat)] += value


@njit(cache=True, inline="always")
def mask_nb(masks, field, seat):
    """Seat ``seat``'s card set ``field`` (M_*)."""
    return masks[np.uint64(2 * field) + np.uint64(seat)]


@njit(cache=True, inline="always")
def set_mask_nb(masks, field, seat, value):
    """Set seat ``seat``'s card set ``field`` (M_*)."""
    masks[np.uint64(2 * field) + np.uint64(seat)] = value


@njit(cache=True, inline="always")
def set_turnup_nb(work, k, card):
    """Record ``card`` (a bit) as the ``k``-th turned-up card (k from 0)."""
    work[np.uint64(TURNUP_ROW) + np.uint64(k)] = np.int64(card)


@njit(cache=True, inline="always")
def set_pack_nb(work, bits):
    """Put a pack (``N_CARDS`` card bits in draw order) in the pack row, to be drawn as it
    lies or shuffled on from there."""
    for k in range(N_CARDS):
        work[DECK_ROW + k] = bits[k]


@njit(cache=True, inline="always")
def log_trick_nb(work, trick, leader, card, answer, winner):
    """Record trick ``trick`` (stacked deals): its leader, the led card and the answer (bits), its winner."""
    work[PLAYED_ROW + 2 * trick] = np.int64(card)
    work[PLAYED_ROW + 2 * trick + 1] = np.int64(answer)
    work[TRICK_ROW + 2 * trick] = leader
    work[TRICK_ROW + 2 * trick + 1] = winner


@njit(cache=True, inline="always")
def sum_nb(work, row, column):
    """Hand mode's sum in ``row`` (seat 0, seat 1, 2 = table) and ``column``."""
    return work[np.uint64(SUM_ROW + row * SUM_STRIDE) + np.uint64(column)]


@njit(cache=True, inline="always")
def add_sum_nb(work, row, column, value):
    """Add ``value`` to hand mode's sum in ``row`` (seat 0, seat 1, 2 = table) and ``column``."""
    work[np.uint64(SUM_ROW + row * SUM_STRIDE) + np.uint64(column)] += value


# ---- Card play and the trump-strength score (package docstring). ----


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


# ---- The table and one deal. ----


@njit(cache=True)
def new_table_nb(rules, policy):
    """The scratch of a table, ``(work, masks)``: the rules and each seat's policy fields
    (as integers) filled in, tables on when the policy rows carry table blocks (the
    kernels read those from the policy matrix itself), everything else zero."""
    work = np.zeros(FIRST_GAME_ROW + N_WORK_ROWS * ROW, dtype=np.int64)
    masks = np.zeros(2 * len(MASK_FIELDS), dtype=np.uint64)
    for rule in range(rules.shape[0]):
        work[RULES_ROW + rule] = rules[rule]
    for seat in range(N_PLAYERS):
        for field in range(N_FIELDS):
            work[POLICY_ROW + 2 * field + seat] = np.int64(policy[seat, field])
    work[T_ON] = policy.shape[1] > N_FIELDS
    return work, masks


@njit(cache=True, inline="always")
def start_deal_nb(work, masks, elder, dealer, score_elder, score_dealer):
    """Clear the deal's results and card sets; the seats' scores before the deal; the
    next dealer is E unless the deal says otherwise (step 8)."""
    for field in range(N_INFO):
        set_info_nb(work, field, 0)
    for field in (I_TRUMP, I_HIGH, I_LOW, I_JACK, I_GAME, I_WINNER):
        set_info_nb(work, field, -1)
    for seat in range(N_PLAYERS):
        for field in (S_POINTS, S_GAME_POINTS, S_TURNED_JACKS, S_GIFT):
            set_seat_nb(work, field, seat, 0)
        set_mask_nb(masks, M_HAND, seat, _ZERO)
        set_mask_nb(masks, M_DISCARDED, seat, _ZERO)
    set_mask_nb(masks, M_SEEN, 0, _ZERO)
    set_seat_nb(work, S_SCORE, elder, score_elder)
    set_seat_nb(work, S_SCORE, dealer, score_dealer)
    set_info_nb(work, I_NEXT_DEALER, elder)


@njit(cache=True, inline="always")
def score_point_nb(work, seat, target):
    """One point to ``seat``; when its score reaches the target it has won (the deal's
    winner).  Returns True then."""
    add_seat_nb(work, S_POINTS, seat, 1)
    add_seat_nb(work, S_SCORE, seat, 1)
    if seat_nb(work, S_SCORE, seat) >= target:
        set_info_nb(work, I_WINNER, seat)
        return True
    return False


@njit(cache=True, inline="always")
def deal_round_nb(work, masks, elder, dealer, top, shuffle, state):
    """Three cards to E, then three to D: ``(top, state)``."""
    for k in range(3):
        card, top, state = draw_nb(work, top, N_CARDS, shuffle, state)
        set_mask_nb(masks, M_HAND, elder, mask_nb(masks, M_HAND, elder) | _ONE << np.uint64(card))
    for k in range(3):
        card, top, state = draw_nb(work, top, N_CARDS, shuffle, state)
        set_mask_nb(masks, M_HAND, dealer, mask_nb(masks, M_HAND, dealer) | _ONE << np.uint64(card))
    return top, state


@njit(cache=True, inline="always")
def turn_up_nb(work, masks, top, shuffle, state):
    """Draw the next card face up: recorded as a turn-up and a seen card.  Returns
    ``(suit, is_jack, top, state)``; the caller decides whether it makes trump."""
    card, top, state = draw_nb(work, top, N_CARDS, shuffle, state)
    turnup = np.uint64(card)
    turnups = info_nb(work, I_TURNUPS)
    set_turnup_nb(work, turnups, turnup)
    set_info_nb(work, I_TURNUPS, turnups + 1)
    set_mask_nb(masks, M_SEEN, 0, mask_nb(masks, M_SEEN, 0) | _ONE << turnup)
    return np.int64(turnup >> np.uint64(4)), (turnup & np.uint64(15)) == JACK, top, state


@njit(cache=True, inline="always")
def turned_jack_nb(work, dealer, target):
    """A turned-up jack that makes trump: 1 to D.  True when it wins the game."""
    add_seat_nb(work, S_TURNED_JACKS, dealer, 1)
    return score_point_nb(work, dealer, target)


@njit(cache=True, inline="always")
def deal_nb(work, masks, elder, dealer, target, shuffle, state):
    """Step 1: six cards each (3 to E, 3 to D, twice) and the turn-up, whose suit is the
    proposed trump; a turned jack scores 1 to D.  Returns ``(top, state)``."""
    top = 0
    top, state = deal_round_nb(work, masks, elder, dealer, top, shuffle, state)
    top, state = deal_round_nb(work, masks, elder, dealer, top, shuffle, state)
    suit, is_jack, top, state = turn_up_nb(work, masks, top, shuffle, state)
    set_info_nb(work, I_TRUMP, suit)
    if is_jack:
        turned_jack_nb(work, dealer, target)
    return top, state


@njit(cache=True, inline="always")
def give_nb(work, elder, dealer, target):
    """Step 4, D gives: 1 to E (the gift).  With gift_then=redeal (and E not at the
    target) the cards are thrown in; the same dealer deals again when
    gift_redeal_same_dealer.  Returns True when the deal ends here."""
    set_info_nb(work, I_GAVE, 1)
    set_seat_nb(work, S_GIFT, elder, 1)
    if score_point_nb(work, elder, target):
        return True
    if rule_nb(work, R_GIFT_THEN) == GIFT_THEN_REDEAL:
        set_info_nb(work, I_THROWN_IN, 1)
        if rule_nb(work, R_GIFT_SAME_DEALER):
            set_info_nb(work, I_NEXT_DEALER, dealer)
        return True
    return False


@njit(cache=True, inline="always")
def void_deal_nb(work, dealer):
    """Step 5, the pack cannot deal another round: the deal is void, no trump, the same
    dealer deals again, and D's turned-jack points are taken back unless
    exhaust_keeps_jack_points."""
    set_info_nb(work, I_VOID, 1)
    set_info_nb(work, I_NEXT_DEALER, dealer)
    set_info_nb(work, I_TRUMP, -1)
    if not rule_nb(work, R_EXHAUST_KEEPS_JACKS):
        jacks = seat_nb(work, S_TURNED_JACKS, dealer)
        set_seat_nb(work, S_TURNED_JACKS, dealer, 0)
        add_seat_nb(work, S_POINTS, dealer, -jacks)
        add_seat_nb(work, S_SCORE, dealer, -jacks)


@njit(cache=True, inline="always")
def run_nb(work, masks, elder, dealer, target, top, shuffle, state):
    """Step 5, D runs the cards: rounds of 3 to E, 3 to D and a new turn-up until a
    turn-up's suit is not the rejected one (it is trump; a jack of it scores 1 to D), or
    until the pack cannot deal a round (a void deal).  Returns ``(ended, state)``."""
    rejected = info_nb(work, I_TRUMP)
    rounds = 0
    while True:
        if N_CARDS - top < 7:  # the next round cannot be dealt: a void deal
            void_deal_nb(work, dealer)
            return True, state
        rounds += 1
        set_info_nb(work, I_ROUNDS, rounds)
        top, state = deal_round_nb(work, masks, elder, dealer, top, shuffle, state)
        suit, is_jack, top, state = turn_up_nb(work, masks, top, shuffle, state)
        if suit != rejected:
            set_info_nb(work, I_TRUMP, suit)
            return is_jack and turned_jack_nb(work, dealer, target), state


@njit(cache=True, inline="always")
def table_cell_nb(hand, suit):
    """The cell of the beg and give tables (sims.games.all_fours.table): the hand's
    trump-strength score in ``suit``, shifted by JACK_SHIFT when it holds the suit's jack."""
    cell = strength_nb(hand, suit)
    if (hand >> np.uint64(16 * suit + JACK)) & _ONE:
        cell += JACK_SHIFT
    return cell


@njit(cache=True, inline="always")
def table_choice_nb(work, policy, seat, decision, hand, suit, state):
    """``(action, state)`` of seat ``seat``'s table at decision ``decision`` (0 beg, 1
    give) holding ``hand`` with the turn-up suit ``suit``, or ``(NO_TABLE, state)`` when
    its policy fields decide.  Notes 1 + the cell in the INFO row; a forced action (a
    solve's replay, T_FORCE) replaces the table's, after the table's own draw."""
    cell = table_cell_nb(hand, suit)
    set_info_nb(work, I_BEG_CELL + decision, cell + 1)
    action, state = table_action_nb(policy, seat, OFFSETS[decision], N_ACTIONS, cell, state)
    forced = work[np.uint64(T_FORCE + decision)]
    if forced:
        action = forced - 1
    return action, state


@njit(cache=True, inline="always")
def elder_begs_nb(work, masks, policy, elder, state):
    """Step 2: ``(E begs, state)``: by E's beg table when it plays one for this cell,
    else when its strength in the turn-up suit is below beg_below."""
    hand = mask_nb(masks, M_HAND, elder)
    suit = info_nb(work, I_TRUMP)
    if work[T_ON]:
        action, state = table_choice_nb(work, policy, elder, 0, hand, suit, state)
        if action != NO_TABLE:
            return action == 1, state
    return strength_nb(hand, suit) < policy_nb(work, P_BEG_BELOW, elder), state


@njit(cache=True, inline="always")
def dealer_gives_nb(work, masks, policy, dealer, state):
    """Step 3 when D may give: ``(D gives, state)``: by D's give table when it plays one
    for this cell, else when its strength in the turn-up suit is at least give_at_least."""
    hand = mask_nb(masks, M_HAND, dealer)
    suit = info_nb(work, I_TRUMP)
    if work[T_ON]:
        action, state = table_choice_nb(work, policy, dealer, 1, hand, suit, state)
        if action != NO_TABLE:
            return action == 0, state
    return strength_nb(hand, suit) >= policy_nb(work, P_GIVE_AT_LEAST, dealer), state


@njit(cache=True, inline="always")
def beg_nb(work, masks, policy, elder, dealer, score_elder, target, top, shuffle, state):
    """Steps 3-5 after E begged: D gives or runs (:func:`dealer_gives_nb`); D must run
    when gift_cannot_win is on and the gift would take E to the target (no table is
    consulted then).  Returns ``(ended, state)``."""
    set_info_nb(work, I_BEGGED, 1)
    must_run = rule_nb(work, R_GIFT_CANNOT_WIN) != 0 and score_elder + 1 >= target
    if not must_run:
        gives, state = dealer_gives_nb(work, masks, policy, dealer, state)
        if gives:
            return give_nb(work, elder, dealer, target), state
    set_info_nb(work, I_RAN, 1)
    return run_nb(work, masks, elder, dealer, target, top, shuffle, state)


@njit(cache=True, inline="always")
def bunch_nb(work, masks, elder, dealer):
    """Step 5, Foster's bunch (after a run found a new trump): when the rule is on and
    both seats' strength in the new trump is below their bunch_below, the deal is
    bunched and the same dealer deals again.  Returns True then."""
    trump_suit = info_nb(work, I_TRUMP)
    if (
        rule_nb(work, R_BUNCH)
        and strength_nb(mask_nb(masks, M_HAND, elder), trump_suit) < policy_nb(work, P_BUNCH_BELOW, elder)
        and strength_nb(mask_nb(masks, M_HAND, dealer), trump_suit) < policy_nb(work, P_BUNCH_BELOW, dealer)
    ):
        set_info_nb(work, I_BUNCHED, 1)
        set_info_nb(work, I_NEXT_DEALER, dealer)
        return True
    return False


@njit(cache=True, inline="always")
def discard_nb(work, masks, trump):
    """Hand size after a run: with discard-to-six (or foster-club after two or more
    rounds) each seat keeps its six most valuable cards; the rest are its discards."""
    rounds = info_nb(work, I_ROUNDS)
    after_run = rule_nb(work, R_AFTER_RUN)
    if rounds and (after_run == DISCARD_TO_SIX or (after_run == FOSTER_CLUB and rounds >= 2)):
        for seat in range(N_PLAYERS):
            hand = mask_nb(masks, M_HAND, seat)
            kept = keep_six_nb(hand, trump)
            set_mask_nb(masks, M_HAND, seat, kept)
            set_mask_nb(masks, M_DISCARDED, seat, hand & ~kept)


@njit(cache=True, inline="always")
def tricks_nb(work, masks, elder, trump, low_card, jack_card, shuffle):
    """Step 6: E leads the first trick, the winner of each leads the next, until the
    hands are empty (each seat's card from its play_style); each trick's counting-card
    points go to its winner.  Returns ``(low_winner, jack_winner)``: the seats winning
    the tricks that hold ``low_card`` and ``jack_card`` (-1 if none does)."""
    seen = mask_nb(masks, M_SEEN, 0)
    low_winner = -1
    jack_winner = -1
    tricks = count_cards_nb(mask_nb(masks, M_HAND, elder))
    leader = elder
    for trick in range(tricks):
        # Unsigned seat indices spare Numba's negative-index checks in this hot loop.
        lead_seat = np.uint64(leader)
        follow_seat = np.uint64(1 - leader)
        follower = 1 - leader
        card = lead_card_nb(
            mask_nb(masks, M_HAND, lead_seat),
            seen | mask_nb(masks, M_DISCARDED, lead_seat),
            trump,
            policy_nb(work, P_PLAY_STYLE, lead_seat),
        )
        answer = follow_card_nb(
            mask_nb(masks, M_HAND, follow_seat), card, trump, policy_nb(work, P_PLAY_STYLE, follow_seat)
        )
        set_mask_nb(masks, M_HAND, lead_seat, mask_nb(masks, M_HAND, lead_seat) & ~(_ONE << card))
        set_mask_nb(masks, M_HAND, follow_seat, mask_nb(masks, M_HAND, follow_seat) & ~(_ONE << answer))
        both = (_ONE << card) | (_ONE << answer)
        seen |= both
        winner_seat = follower if ranked_beats_nb(answer, card, suit_of_bit_nb(card), trump) else leader
        add_seat_nb(
            work,
            S_GAME_POINTS,
            winner_seat,
            COUNT_OF_ORDER[card & np.uint64(15)] + COUNT_OF_ORDER[answer & np.uint64(15)],
        )
        if both & (_ONE << low_card):
            low_winner = winner_seat
        if both & (_ONE << jack_card):
            jack_winner = winner_seat
        if not shuffle:  # a stacked deal keeps the log that play_dealt returns
            log_trick_nb(work, trick, leader, card, answer, winner_seat)
        leader = winner_seat
    set_info_nb(work, I_TRICKS, tricks)
    return low_winner, jack_winner


@njit(cache=True, inline="always")
def score_hand_nb(
    work, elder, dealer, target, trumps_in_play, held_elder, low_card, jack_card, low_winner, jack_winner
):
    """Step 7: High, Low, Jack and Game, in this order, each while nobody has reached the
    target (``held_elder``: E's cards at the start of play).  With no trump in play only
    Game is scored."""
    jack_in_play = (trumps_in_play & (_ONE << jack_card)) != _ZERO
    set_info_nb(work, I_TRUMPS_IN_PLAY, count_cards_nb(trumps_in_play))
    set_info_nb(work, I_JACK_IN_PLAY, jack_in_play)
    elder_points = seat_nb(work, S_GAME_POINTS, elder)
    dealer_points = seat_nb(work, S_GAME_POINTS, dealer)
    game_tie = elder_points == dealer_points
    set_info_nb(work, I_GAME_TIE, game_tie)
    if trumps_in_play:
        high = elder if held_elder & (_ONE << highest_bit_nb(trumps_in_play)) else dealer
        set_info_nb(work, I_HIGH, high)
        if score_point_nb(work, high, target):
            return
        if rule_nb(work, R_LOW_TO) == LOW_TO_TRICK_WINNER:
            low = low_winner
        else:
            low = elder if held_elder & (_ONE << low_card) else dealer
        set_info_nb(work, I_LOW, low)
        if score_point_nb(work, low, target):
            return
        if jack_in_play:
            set_info_nb(work, I_JACK, jack_winner)
            if score_point_nb(work, jack_winner, target):
                return
    if game_tie:
        game = elder if rule_nb(work, R_GAME_TIE) != TIE_NOBODY else -1
    else:
        game = elder if elder_points > dealer_points else dealer
    if game >= 0:
        set_info_nb(work, I_GAME, game)
        score_point_nb(work, game, target)


@njit(cache=True, inline="always")
def play_tricks_nb(work, masks, elder, dealer, target, shuffle):
    """Steps 5 (hand size) to 7 of a deal that is played, with the trump found."""
    trump = _SUIT_BITS << np.uint64(16 * info_nb(work, I_TRUMP))
    discard_nb(work, masks, trump)
    set_info_nb(work, I_PLAYED, 1)
    held_elder = mask_nb(masks, M_HAND, elder)
    trumps_in_play = (held_elder | mask_nb(masks, M_HAND, dealer)) & trump
    low_card = lowest_bit_nb(trumps_in_play) if trumps_in_play else np.uint64(63)
    jack_card = np.uint64(16 * info_nb(work, I_TRUMP) + JACK)
    low_winner, jack_winner = tricks_nb(work, masks, elder, trump, low_card, jack_card, shuffle)
    score_hand_nb(work, elder, dealer, target, trumps_in_play, held_elder, low_card, jack_card, low_winner, jack_winner)


@njit(cache=True, inline="always")
def play_deal_nb(work, masks, policy, dealer, score_elder, score_dealer, shuffle, state):
    """Play one deal (package docstring, steps 1-8) and return the advanced stream state.
    Inlined into the kernels' loops (a call cost about 6% of a hand's instructions).

    The pack row must hold the pack (code order for a random deal, the stacked order
    otherwise); ``shuffle`` = 0 draws it without swaps.  ``policy`` is the policy matrix
    (its table blocks are read when the scratch says tables are on).  Results go to the scratch: the
    INFO fields, the SEAT fields, the turn-up row and the masks.
    """
    elder = 1 - dealer
    target = rule_nb(work, R_TARGET)
    start_deal_nb(work, masks, elder, dealer, score_elder, score_dealer)
    top, state = deal_nb(work, masks, elder, dealer, target, shuffle, state)
    ended = info_nb(work, I_WINNER) >= 0
    if not ended:  # step 2: E stands or begs
        begs, state = elder_begs_nb(work, masks, policy, elder, state)
        if begs:
            ended, state = beg_nb(work, masks, policy, elder, dealer, score_elder, target, top, shuffle, state)
    for seat in range(N_PLAYERS):
        set_mask_nb(masks, M_DEALT, seat, mask_nb(masks, M_HAND, seat))
    if not ended and info_nb(work, I_ROUNDS):
        ended = bunch_nb(work, masks, elder, dealer)
    if not ended:
        play_tricks_nb(work, masks, elder, dealer, target, shuffle)
    return state


@njit(cache=True, inline="always")
def hand_table_nb(rules, policy, n):
    """The scratch :func:`play_hand_nb` plays on: ``(work, masks)`` (:func:`new_table_nb`;
    ``n`` is always 2)."""
    return new_table_nb(rules, policy)


@njit(cache=True, inline="always")
def hand_codes_nb(rules, policy, table, n):
    """What :func:`play_hand_nb` reads besides the table, as hand mode plays it: the policy
    matrix (its table blocks are read when tables are on) and the scores before the deal,
    the elder's and the dealer's (0-0; game mode builds the tuple for each deal)."""
    return policy, 0, 0


@njit(cache=True, inline="always")
def play_hand_nb(table, n, dealer, shuffle, state, codes):
    """The game's per-hand entry point (the contract every game's kernel shares): one deal
    (:func:`play_deal_nb`) dealt by ``dealer`` (0 or 1; ``n`` is 2) on the scratch
    ``table`` (:func:`hand_table_nb`), from the deal's stream ``state``; ``codes`` is
    :func:`hand_codes_nb`'s ``(policy, elder's score, dealer's score)``.  With ``shuffle``
    the pack is dealt from the stream; without, the pack row holds the stacked pack, drawn
    without swaps.  Results stay in the scratch; returns the advanced stream."""
    work, masks = table
    policy, score_elder, score_dealer = codes
    if shuffle:
        reset_pack_nb(work, ACE_HIGH_BIT)
    return play_deal_nb(work, masks, policy, dealer, score_elder, score_dealer, shuffle, state)


# ---- Hand mode and game mode. ----


@njit(cache=True, inline="always")
def add_hand_sums_nb(work):
    """Add the deal just played (E = seat 0, D = seat 1) to hand mode's sums."""
    for seat in range(N_PLAYERS):
        points = seat_nb(work, S_POINTS, seat)
        jacks = seat_nb(work, S_TURNED_JACKS, seat)
        counted = seat_nb(work, S_GAME_POINTS, seat)
        add_sum_nb(work, seat, H_POINTS, points)
        add_sum_nb(work, seat, H_POINTS + 1, points * points)
        add_sum_nb(work, seat, H_HIGH, info_nb(work, I_HIGH) == seat)
        add_sum_nb(work, seat, H_LOW, info_nb(work, I_LOW) == seat)
        add_sum_nb(work, seat, H_JACK, info_nb(work, I_JACK) == seat)
        add_sum_nb(work, seat, H_GAME, info_nb(work, I_GAME) == seat)
        add_sum_nb(work, seat, H_GIFT, seat_nb(work, S_GIFT, seat))
        add_sum_nb(work, seat, H_TURNED_JACKS, jacks)
        add_sum_nb(work, seat, H_TURNED_JACKS + 1, jacks * jacks)
        add_sum_nb(work, seat, H_GAME_POINTS, counted)
        add_sum_nb(work, seat, H_GAME_POINTS + 1, counted * counted)
    table = N_PLAYERS
    trumps = info_nb(work, I_TRUMPS_IN_PLAY)
    played = info_nb(work, I_PLAYED)
    add_sum_nb(work, table, HT_BEGGED, info_nb(work, I_BEGGED))
    add_sum_nb(work, table, HT_GAVE, info_nb(work, I_GAVE))
    add_sum_nb(work, table, HT_RAN, info_nb(work, I_RAN))
    add_sum_nb(work, table, HT_VOID, info_nb(work, I_VOID))
    add_sum_nb(work, table, HT_THROWN_IN, info_nb(work, I_THROWN_IN))
    add_sum_nb(work, table, HT_BUNCHED, info_nb(work, I_BUNCHED))
    add_sum_nb(work, table, HT_PLAYED, played)
    add_sum_nb(work, table, HT_NO_TRUMP, (played == 1) & (trumps == 0))
    add_sum_nb(work, table, HT_ONE_TRUMP, trumps == 1)
    add_sum_nb(work, table, HT_JACK_IN_PLAY, info_nb(work, I_JACK_IN_PLAY))
    add_sum_nb(work, table, HT_GAME_TIE, info_nb(work, I_GAME_TIE))
    if info_nb(work, I_RAN):
        add_sum_nb(work, table, HT_RUNS - 1 + info_nb(work, I_ROUNDS), 1)


@njit(cache=True, nogil=True, _nrt=False)
def _hand_sums_nb(work, masks, policy, seed, first, count):
    """Hand mode's loop: the sums of deals ``first .. first+count-1`` into the scratch's
    sums.  Compiled without NRT (it allocates nothing): Numba binds the arrays handed
    to the inlined deal to new names, and with NRT each hand paid two atomic
    incref/decref pairs for them (4% of its instructions, more of its time)."""
    seed_key = seed_key_nb(seed)
    for hand in range(first, first + count):
        state = stream_nb(seed_key, hand)
        play_hand_nb((work, masks), N_PLAYERS, 1, True, state, (policy, 0, 0))
        add_hand_sums_nb(work)


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over deals ``first .. first+count-1`` of ``seed``, E in seat
    0, D in seat 1, scores 0-0.  Returns int64 ``[3, width]`` (see ``HAND_OUTCOMES``)."""
    work, masks = new_table_nb(rules, policy)
    _hand_sums_nb(work, masks, policy, seed, first, count)
    out = np.zeros((3, HAND_WIDTH), dtype=np.int64)
    for row in range(3):
        for column in range(HAND_WIDTH):
            out[row, column] = sum_nb(work, row, column)
    for k in range(HT_RUNS - HT_NO_TRUMP):  # the played-deal columns count over played deals
        out[2, HT_PLAYED_COUNTS + k] = out[2, HT_PLAYED]
    for k in range(MAX_ROUNDS):  # the run distribution counts over the deals where D ran
        out[2, HT_RUNS_COUNTS + k] = out[2, HT_RAN]
    return out


@njit(cache=True, nogil=True, _nrt=False)
def _game_sums_nb(work, masks, policy, out, scores, begged, gave, seed, first, count):
    """Game mode's loop: the sums of games ``first .. first+count-1`` into ``out`` (seat
    rows, then the table row); ``scores``, ``begged`` and ``gave`` are per-seat scratch.
    Compiled without NRT, as :func:`_hand_sums_nb` is."""
    seed_key = seed_key_nb(seed)
    table = N_PLAYERS
    for game in range(first, first + count):
        state = stream_nb(seed_key, game)
        dealer = 1
        deals = 0
        played = 0
        voids = 0
        thrown_in = 0
        bunched = 0
        for seat in range(N_PLAYERS):
            scores[seat] = 0
            begged[seat] = 0
            gave[seat] = 0
        while True:
            elder = 1 - dealer
            state = play_hand_nb((work, masks), N_PLAYERS, dealer, True, state, (policy, scores[elder], scores[dealer]))
            deals += 1
            played += info_nb(work, I_PLAYED)
            voids += info_nb(work, I_VOID)
            thrown_in += info_nb(work, I_THROWN_IN)
            bunched += info_nb(work, I_BUNCHED)
            begged[elder] += info_nb(work, I_BEGGED)
            gave[dealer] += info_nb(work, I_GAVE)
            for seat in range(N_PLAYERS):
                scores[seat] = seat_nb(work, S_SCORE, seat)
            winner = info_nb(work, I_WINNER)
            if winner >= 0:
                break
            dealer = info_nb(work, I_NEXT_DEALER)
        for seat in range(N_PLAYERS):
            out[seat, G_WIN] += seat == winner
            out[seat, G_SCORE] += scores[seat]
            out[seat, G_SCORE + 1] += scores[seat] * scores[seat]
            out[seat, G_BEGGED] += begged[seat]
            out[seat, G_BEGGED + 1] += begged[seat] * begged[seat]
            out[seat, G_GAVE] += gave[seat]
            out[seat, G_GAVE + 1] += gave[seat] * gave[seat]
        out[table, GT_DEALS] += deals
        out[table, GT_DEALS + 1] += deals * deals
        out[table, GT_PLAYED] += played
        out[table, GT_PLAYED + 1] += played * played
        out[table, GT_VOID] += voids
        out[table, GT_VOID + 1] += voids * voids
        out[table, GT_THROWN_IN] += thrown_in
        out[table, GT_THROWN_IN + 1] += thrown_in * thrown_in
        out[table, GT_BUNCHED] += bunched
        out[table, GT_BUNCHED + 1] += bunched * bunched
        out[table, GT_BEFORE_PLAY] += 1 - info_nb(work, I_PLAYED)
        bucket = 0
        while bucket + 1 < len(LENGTH_BUCKET_LOW) and deals >= LENGTH_BUCKET_LOW[bucket + 1]:
            bucket += 1
        out[table, GT_LENGTH + bucket] += 1


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over games ``first .. first+count-1`` of ``seed``, seat 1
    dealing first.  Returns int64 ``[3, width]`` (see ``GAME_OUTCOMES``)."""
    out = np.zeros((3, GAME_WIDTH), dtype=np.int64)
    work, masks = new_table_nb(rules, policy)
    scores = np.zeros(N_PLAYERS, dtype=np.int64)
    begged = np.zeros(N_PLAYERS, dtype=np.int64)
    gave = np.zeros(N_PLAYERS, dtype=np.int64)
    _game_sums_nb(work, masks, policy, out, scores, begged, gave, seed, first, count)
    return out


# ---- Plain Python: the scratch by name (play_dealt reads a stacked deal through these). ----


def stack_pack(work: np.ndarray, bits) -> None:
    """Put a stacked pack (52 card bits in draw order) in the scratch's pack row."""
    work[DECK_ROW : DECK_ROW + N_CARDS] = bits


def deal_record(work: np.ndarray, masks: np.ndarray) -> dict:
    """The scratch of the deal just played, by name: every INFO field (an int); every SEAT
    field and the masks hand, dealt, discarded as ``[seat 0, seat 1]``; ``turnups``: the
    turned-up bits in order; ``tricks``: ``(leader, led bit, answer bit, winner)`` per
    trick (stacked deals only)."""
    record = {name: int(work[INFO_ROW + i]) for i, name in enumerate(INFO_FIELDS)}
    for i, name in enumerate(SEAT_FIELDS):
        record[name + "_by_seat"] = [int(work[SEAT_ROW + 2 * i + seat]) for seat in range(N_PLAYERS)]
    for i, name in enumerate(MASK_FIELDS[:3]):
        record[name + "_by_seat"] = [int(masks[2 * i + seat]) for seat in range(N_PLAYERS)]
    record["turnup_bits"] = [int(b) for b in work[TURNUP_ROW : TURNUP_ROW + record["turnups"]]]
    record["trick_log"] = [
        (
            int(work[TRICK_ROW + 2 * t]),
            int(work[PLAYED_ROW + 2 * t]),
            int(work[PLAYED_ROW + 2 * t + 1]),
            int(work[TRICK_ROW + 2 * t + 1]),
        )
        for t in range(record["tricks"])
    ]
    return record
