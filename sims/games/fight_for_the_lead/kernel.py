"""Fight for the Lead: the Numba kernels (one hand, hand mode, game mode).

They play the rules contract in the package docstring
(sims/games/fight_for_the_lead/__init__.py).  One hand is played phase by phase, each
phase a small function named for the step of the contract it implements: the deal
(step 1), the fight cards (2-3), the fight (4), the replacement (5), stay or drop (6),
the leader, trading (7), the tricks (8) and the settlement (9).
"""

from __future__ import annotations

import numpy as np

from sims.core.deck import N_CARDS, draw_nb, reset_pack_nb
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.table import block_offset, solve_stats_width, table_width
from sims.core.table_nb import NO_TABLE, record_visit_nb, table_action_nb
from sims.core.tricks import (
    ACE_HIGH_BIT,
    ACE_HIGH_CARDS,
    RANK_COLUMN,
    count_cards_nb,
    highest_bit_nb,
    highest_card_nb,
    lowest_bit_nb,
    lowest_card_nb,
    suit_of_bit_nb,
    tops_of_suits_nb,
)
from sims.core.wide import add_wide_nb, add_wide_square_nb
from sims.games.fight_for_the_lead.rules import (
    CAP_EQUAL,
    FIGHT_CARD,
    FIGHT_HIGHEST,
    FIGHT_HIGHEST_NON_ACE,
    FIGHT_LOWEST,
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
from sims.games.fight_for_the_lead.table import (
    DROP,
    FIGHT_CELL_OF,
    FIGHT_DECISION,
    STAY,
    STAY_CELL_OF,
    STAY_DECISION,
    TABLES,
)
from sims.spec import indices

# ---------------------------------------------------------------------------------- Kernels
#
# Cards are ranked bits (sims.core.tricks): bit = 16 * suit + order, order 0 = the 2 ...
# 12 = the ace, so bit order is rank order inside a suit, and a hand is a 64-bit mask.
# The pack holds bits too (its "code order" is the bits of codes 0..51), so a drawn card
# needs no translation; play_dealt translates to card codes at the end.  The pack, the
# pile, the hands, the hand's scalar state and results, and every per-seat result live in
# one record (TABLE below): hot code calls no function that takes an array.

HAND_WIDTH = HAND_OUTCOMES.kernel_width  # plain ints: the kernels cannot read Outcomes
GAME_WIDTH = GAME_OUTCOMES.kernel_width
N_RULES = len(Rules._fields)
assert N_RULES <= 12  # the entries of TABLE's rules
(
    R_ANTE,
    R_ROTATES,
    R_TRADE_FIRST,
    R_TRADE_ORDER,
    R_TRADE_EXHAUST,
    R_ALL_DROP,
    R_FIGHT_EXHAUST,
    R_MAX_HANDS,
    R_SAMPLE_HAND,
) = indices(
    Rules,
    "ante",
    "dealer_rotates",
    "trade_in_first_hand",
    "trade_order",
    "trade_exhaust",
    "all_drop",
    "fight_exhaust",
    "max_hands",
    "sample_hand",
)

# Hand mode's columns: per seat (rows 0..n-1) and the table's (row n).
H_DROPPED, H_LEAD, H_TOOK_0, H_NET, H_NET_SQ, H_TRADED, H_TRADED_SQ = indices(
    HAND_OUTCOMES.seat, "dropped", "lead", "took_0", "net", "net_sq", "traded", "traded_sq"
)
assert indices(HAND_OUTCOMES.seat, "took_4") == (H_TOOK_0 + 4,)  # took_k is column H_TOOK_0 + k
(
    H_ALL_DROPPED,
    H_PLAYERS_IN,
    H_PLAYERS_IN_SQ,
    H_LOSERS,
    H_LOSERS_SQ,
    H_TURNED,
    H_TURNED_SQ,
    H_STOCK_SHORT,
    H_RESHUFFLED,
) = indices(
    HAND_OUTCOMES.table,
    "all_dropped",
    "players_in",
    "players_in_sq",
    "losers",
    "losers_sq",
    "turned",
    "turned_sq",
    "stock_short",
    "reshuffled",
)
# Game mode's columns (the kernel's: a wide column takes one per limb).
G_NET, G_NET_SQ, G_PROFIT, G_FINISHED_NET, G_FINISHED_NET_SQ, G_FINISHED_COUNT = indices(
    GAME_OUTCOMES.kernel_columns(GAME_OUTCOMES.seat),
    "net",
    "net_sq",
    "profit",
    "finished_net",
    "finished_net_sq",
    "finished_net_count",
)
G_HANDS, G_HANDS_SQ, G_TRUNCATED, G_OVERFLOW, G_HIT_MAX_HANDS, G_LARGEST_POT, G_LENGTH = indices(
    GAME_OUTCOMES.kernel_columns(GAME_OUTCOMES.table),
    "hands",
    "hands_sq",
    "truncated",
    "overflow",
    "hit_max_hands",
    "largest_pot",
    "length_1",  # the first of the length buckets, which follow in LENGTH_BUCKET_LOW's order
)

# Entries of each per-seat and per-place array: MAX_PLAYERS seats and the table's row of
# the hand-mode sums, rounded up to a multiple of 4 (see sims.core.deck).
SLOTS = (MAX_PLAYERS + 1 + 3) // 4 * 4
N_POLICY_FIELDS = len(POLICY_FIELDS)
N_BITS = 64  # entries of an array indexed by a ranked bit
ACC_STRIDE = 16  # hand-mode sums per row: the outcome columns, padded to a multiple of 4
assert HAND_WIDTH <= ACC_STRIDE
# Strategy tables (sims.games.fight_for_the_lead.table): the record keeps each seat's table
# blocks (the policy row's columns after the fields); where each decision's block starts
# there, its cells and actions.
TABLE_WIDTH = table_width(TABLES)
STAY_OFFSET = block_offset(0, TABLES, "stay")
FIGHT_OFFSET = block_offset(0, TABLES, "fight_card")
N_STAY_CELLS, N_STAY_ACTIONS = TABLES[STAY_DECISION].n_cells, TABLES[STAY_DECISION].n_actions
N_FIGHT_CELLS, N_FIGHT_ACTIONS = TABLES[FIGHT_DECISION].n_cells, TABLES[FIGHT_DECISION].n_actions
STAY_STATS, FIGHT_STATS = solve_stats_width(N_STAY_ACTIONS), solve_stats_width(N_FIGHT_ACTIONS)

# A block's scratch is one record of this type (see sims.core.deck for the pattern), made
# once per block by new_table_nb, which fills in the rules, the policy and each seat's
# trade-away mask.  Per-seat arrays are indexed by seat, per-place arrays by place in the
# clockwise order of this hand's playing seats.  The scalars at the end are the hand's
# state between phases (the pack's cursor and the dead cards) and its results; a phase
# loads the ones it works on into locals and stores them back when it ends.
TABLE = np.dtype(
    [
        ("pack", np.int64, N_CARDS),  # the pack (bits): positions below `top` are drawn
        ("pile", np.int64, N_CARDS),  # discards (bits), in pile order
        ("rules", np.int64, 12),  # the rules array, entries R_*
        ("hand", np.uint64, SLOTS),  # per seat: the cards held (mask of bits)
        ("trade_away", np.uint64, SLOTS),  # per seat: the mask of cards it trades away (keep_min_rank)
        ("fight", np.int64, SLOTS),  # per seat: its fight card (bit)
        ("playing", np.int64, SLOTS),  # per seat: 1 if it plays the hand
        ("traded", np.int64, SLOTS),  # per seat: cards traded
        ("won", np.int64, SLOTS),  # per seat: tricks taken
        ("net", np.int64, SLOTS),  # per seat: chips won from the pot minus chips paid
        ("order", np.int64, SLOTS),  # per place: the playing seats, clockwise from the dealer's left
        ("turned", np.int64, N_CARDS),  # cards turned in the fight (bits), in order (stacked hands only)
        ("played", np.int64, (4, SLOTS)),  # [trick, k]: the k-th card played to it (bits; stacked hands only)
        ("played_seat", np.int64, (4, SLOTS)),  # [trick, k]: ... and who played it
        ("trick_leader", np.int64, 4),  # per trick: the seat that led it (stacked hands only)
        ("trick_winner", np.int64, 4),  # per trick: the seat that won it (stacked hands only)
        ("policy", np.int64, (N_POLICY_FIELDS, SLOTS)),  # [field, seat]: the policy, whole numbers
        ("seat_of_bit", np.int64, N_BITS),  # per fight card (bit): its seat
        ("place_of_bit", np.int64, N_BITS),  # per card played to the trick now (bit): its player's place
        ("sums", np.int64, (SLOTS, ACC_STRIDE)),  # hand mode, [seat, column]: the sums; row n: the table's
        ("game_net", np.int64, SLOTS),  # game mode, per seat: chips this game
        # Strategy tables: per seat its table blocks (sims.core.table; a seat without a
        # table holds 0, so its flag is off) ...
        ("tables", np.float64, (SLOTS, TABLE_WIDTH)),
        # ... per seat the cell and the action of its last stay and fight-card decisions
        # (the solve kernel reads them) ...
        ("stay_cell", np.int64, SLOTS),
        ("stay_action", np.int64, SLOTS),
        ("fight_cell", np.int64, SLOTS),
        ("fight_action", np.int64, SLOTS),
        ("stay_tables", np.int64),  # ... 1: the stay decision takes the table path
        ("fight_tables", np.int64),  # 1: the fight card takes the table path
        ("forced_seat", np.int64),  # the solve kernel: this seat's decision forced_decision
        ("forced_decision", np.int64),  # ... takes forced_action (forced_seat -1: none)
        ("forced_action", np.int64),
        # The hand's state between phases.
        ("top", np.int64),  # the pack's cursor: cards drawn from it
        ("size", np.int64),  # cards in the pack (52, or the pile's size after a reshuffle)
        ("pile_size", np.int64),  # cards in the pile
        ("dead", np.uint64),  # public cards out of play (mask of bits; see the contract's step 8)
        ("fight_bits", np.uint64),  # the fight cards (mask of bits)
        ("in_seats", np.int64),  # the seats that play (bit s = seat s)
        ("leader_place", np.int64),  # the leader's place among the playing seats
        # The hand's results.
        ("lead", np.int64),  # the seat that won the fight
        ("leader", np.int64),  # the seat that leads the first trick (-1 when fewer than two play)
        ("players_in", np.int64),  # seats that play
        ("losers", np.int64),  # seats that played and took no trick
        ("n_turned", np.int64),  # cards turned in the fight
        ("stock_short", np.int64),  # 1 if some trader was allowed fewer cards than it wanted
        ("reshuffled", np.int64),  # 1 if the pile was made a new pack
        ("all_dropped", np.int64),  # 1 if nobody played
        ("pot_next", np.int64),  # the pot carried to the next hand (0: the game ends)
        # Game mode: the game's results.
        ("hands_played", np.int64),  # hands dealt
        ("largest_pot", np.int64),  # the largest pot at stake in any hand
        ("truncated", np.int64),  # 1 if stopped by max_hands or the pot limit
        ("overflow", np.int64),  # 1 if stopped by the pot limit
    ]
)

BIT_OF_CODE = ACE_HIGH_BIT  # card code -> ranked bit (16 * suit + order, the 2 = 0 ... the ace = 12)

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_SUIT_BITS = np.uint64(0x1FFF)  # the 13 orders of one suit
ACES = RANK_COLUMN << np.uint64(12)
KINGS = RANK_COLUMN << np.uint64(11)
ACE_ORDER, KING_ORDER = 12, 11
_LANE_NONZERO = np.uint64(0x7FFF7FFF7FFF7FFF)
_NO_CARD = np.uint64(1 << 63)  # above every card: makes a mask non-empty where its lowest bit is unused
_LOWEST_BIT = _ONE  # the 2 of clubs' bit: makes a mask non-empty where its highest bit is unused


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
    # A sure winner lies above every card of its suit that may still be out.  Both
    # candidates are computed and one selected: holding a sure winner is a coin flip.
    sure = tops_of_suits_nb(hand, ACE_HIGH_CARDS & ~(hand | dead))
    highest_sure = highest_card_nb(sure if sure else hand)
    lowest = lowest_card_nb(hand)
    return highest_sure if sure else lowest


@njit(cache=True, inline="always")
def follow_card_nb(hand, led, winning, style):
    """The card a seat plays to a trick led in suit mask ``led`` that ``winning`` now wins
    (a seat must follow suit, sims.core.tricks FOLLOW_SUIT; play_style says which card)."""
    # Every candidate is computed and one selected: void or not, able to beat or not,
    # are coin flips.
    follow = hand & led
    void = follow == _ZERO
    if style == STYLE_HIGH:
        chosen = highest_bit_nb(follow | _LOWEST_BIT)
    else:
        # The lowest card above the winning one, else the lowest of the suit: the first
        # bit of `follow` after `winning`, counting on cyclically past bit 63 (a rotation,
        # with no branch on whether some card beats).  `winning` lies in the suit led, so
        # the bits that wrap round are the suit's cards below it.
        after = winning + _ONE
        rotated = (follow >> after) | (follow << (np.uint64(64) - after))
        chosen = (lowest_bit_nb(rotated) + after) & np.uint64(63)
    lowest = lowest_card_nb(hand)
    return lowest if void else chosen


@njit(cache=True, inline="always")
def lowest_seat_nb(seats):
    """The lowest seat in a non-empty set of seats (bit s = seat s)."""
    return np.int64(lowest_bit_nb(np.uint64(seats)))


@njit(cache=True, inline="always")
def count_seats_nb(seats):
    """How many seats a set of seats (bit s = seat s) holds."""
    return count_cards_nb(np.uint64(seats))


@njit(cache=True)
def new_table_nb(rules, policy, n):
    """A one-record ``TABLE`` array: the rules, the policy and each seat's trade-away mask
    filled in, every other array zero.  Kernels work on its
    record, ``tables[0]``."""
    tables = np.zeros(1, dtype=TABLE)
    table = tables[0]
    for r in range(rules.shape[0]):
        table.rules[r] = rules[r]
    for seat in range(n):
        for field in range(N_POLICY_FIELDS):
            table.policy[field, seat] = np.int64(policy[seat, field])
        below = table.policy[KEEP_MIN_RANK, seat] - 2  # orders traded away: 0 .. below-1
        table.trade_away[seat] = np.uint64((1 << below) - 1) * RANK_COLUMN
        if policy.shape[1] > N_POLICY_FIELDS:
            for k in range(TABLE_WIDTH):
                table.tables[seat, k] = policy[seat, N_POLICY_FIELDS + k]
            if table.tables[seat, STAY_OFFSET] >= 0.5:
                table.stay_tables = 1
            if table.tables[seat, FIGHT_OFFSET] >= 0.5:
                table.fight_tables = 1
    _fold_fight_tables_nb(table, n)
    _fold_stay_tables_nb(table, n)
    table.forced_seat = -1
    return tables


@njit(cache=True)
def _pure_action_nb(table, seat, at, n_actions, policy_action):
    """The action of the cell whose probabilities start at ``tables[seat, at]``: the one of
    probability 1, ``policy_action`` when the cell is left out, -1 when it is mixed."""
    if table.tables[seat, at] < 0.0:
        return policy_action
    for a in range(n_actions):
        if table.tables[seat, at + a] >= 1.0:
            return a
    return -1


@njit(cache=True)
def _fold_fight_tables_nb(table, n):
    """When every fight-card table lays the same way in every cell (a policy written as a
    table does), the ways are written to the policy's fight_card and the table path is
    switched off: such tables play at the policy's speed."""
    if not table.fight_tables:
        return
    ways = np.empty(n, dtype=np.int64)
    for seat in range(n):
        ways[seat] = table.policy[FIGHT_CARD, seat]
        if table.tables[seat, FIGHT_OFFSET] < 0.5:
            continue
        for cell in range(N_FIGHT_CELLS):
            at = FIGHT_OFFSET + 1 + cell * N_FIGHT_ACTIONS
            way = _pure_action_nb(table, seat, at, N_FIGHT_ACTIONS, table.policy[FIGHT_CARD, seat])
            if way < 0 or (cell > 0 and way != ways[seat]):
                return
            ways[seat] = way
    for seat in range(n):
        table.policy[FIGHT_CARD, seat] = ways[seat]
    table.fight_tables = 0


@njit(cache=True)
def _fold_stay_tables_nb(table, n):
    """When every stay table is a policy's (stay when 2 * aces + guarded kings reaches some
    stay_min_strength 0..9, or, with stay_with_lead, on winning the fight), its fields are
    written to the policy and the table path is switched off."""
    if not table.stay_tables:
        return
    found = np.empty((n, 2), dtype=np.int64)
    for seat in range(n):
        found[seat, 0] = table.policy[STAY_MIN_STRENGTH, seat]
        found[seat, 1] = table.policy[STAY_WITH_LEAD, seat]
        if table.tables[seat, STAY_OFFSET] < 0.5:
            continue
        match = False
        for minimum in range(10):
            for with_lead in range(2):
                if not match and _stay_rule_matches_nb(table, seat, minimum, with_lead):
                    match = True
                    found[seat, 0] = minimum
                    found[seat, 1] = with_lead
        if not match:
            return
    for seat in range(n):
        table.policy[STAY_MIN_STRENGTH, seat] = found[seat, 0]
        table.policy[STAY_WITH_LEAD, seat] = found[seat, 1]
    table.stay_tables = 0


@njit(cache=True)
def _stay_rule_matches_nb(table, seat, minimum, with_lead):
    """Whether the seat's stay table (its left-out cells played by its policy) stays
    exactly where the policy (minimum, with_lead) would."""
    for aces in range(5):
        for guarded in range(3):
            shape = STAY_CELL_OF[aces * 3 + guarded]
            if shape < 0:
                continue
            strength = 2 * aces + guarded
            for lead in range(2):
                cell = shape * 2 + lead
                own = strength >= table.policy[STAY_MIN_STRENGTH, seat] or (
                    lead == 1 and table.policy[STAY_WITH_LEAD, seat] != 0
                )
                at = STAY_OFFSET + 1 + cell * N_STAY_ACTIONS
                action = _pure_action_nb(table, seat, at, N_STAY_ACTIONS, STAY if own else DROP)
                rule = strength >= minimum or (lead == 1 and with_lead != 0)
                if action < 0 or (action == STAY) != rule:
                    return False
    return True


@njit(cache=True, inline="always")
def rule_codes_nb(table):
    """The rule values one hand reads, from the record's rules, as a tuple:
    (trade_in_first_hand, trade_order, trade_exhaust, all_drop, fight_exhaust)."""
    rules = table.rules
    return (
        rules[R_TRADE_FIRST],
        rules[R_TRADE_ORDER],
        rules[R_TRADE_EXHAUST],
        rules[R_ALL_DROP],
        rules[R_FIGHT_EXHAUST],
    )


@njit(cache=True, inline="always")
def hand_table_nb(rules, policy, n):
    """The scratch :func:`play_hand_nb` plays on: a one-record ``TABLE`` array (its record,
    ``tables[0]``, is the table)."""
    return new_table_nb(rules, policy, n)


@njit(cache=True, inline="always")
def hand_codes_nb(rules, policy, table, n):
    """What :func:`play_hand_nb` reads besides the table, as hand mode plays it: the rule
    values (:func:`rule_codes_nb`, read once per block), the pot at stake (n antes) and
    whether the hand is compulsory (sample_hand=first).  Game mode builds the tuple for
    each hand: its pot and compulsion change from hand to hand."""
    return rule_codes_nb(table), n * ante_nb(rules, n), rules[R_SAMPLE_HAND] == SAMPLE_FIRST


@njit(cache=True, inline="always")
def play_hand_nb(table, n, dealer, shuffle, state, codes):
    """The game's per-hand entry point (the contract every game's kernel shares): one hand
    (module docstring, steps 1-9) dealt by ``dealer`` at ``n`` seats on the record
    ``table``, from the hand's stream ``state``; ``codes`` is :func:`hand_codes_nb`'s
    ``(rule codes, pot, compulsory)``.  With ``shuffle`` the pack is dealt from the stream;
    without, ``table.pack`` holds the stacked pack, drawn without swaps.  Results go to
    ``fight`` .. ``trick_winner`` and the hand's result scalars (``lead`` .. ``pot_next``),
    the playing seats to ``in_seats``; returns the advanced stream."""
    rule_codes, pot, compulsory = codes
    if shuffle:
        reset_pack_nb(table.pack, BIT_OF_CODE)
    return _play_hand_nb(table, n, dealer, pot, compulsory, shuffle, state, rule_codes)


@njit(cache=True, inline="always")
def _at(index):
    """An index as unsigned, so that Numba emits no negative-index wraparound for it."""
    return np.uint64(index)


@njit(cache=True, inline="always")
def _play_hand_nb(table, n, dealer, pot, compulsory, shuffle, state, codes):
    """:func:`play_hand_nb`'s hand, its inputs apart: the pot at stake, whether the hand is
    compulsory, and the rule values ``codes`` (:func:`rule_codes_nb`).

    Coin-flip decisions (stay or drop, the card to play, who wins a trick, who pays) are
    computed as masks and selects rather than branches; the random stream is drawn
    exactly as the rules say, in the same order.  Indices of seats, places and loaded
    values go through :func:`_at` (they are never negative).
    """
    trade_first, trade_order, trade_exhaust, all_drop, fight_exhaust = codes
    start_hand_nb(table, n)
    state = deal_nb(table, n, dealer, shuffle, state)
    state = lay_fight_cards_nb(table, n, state)
    state = fight_nb(table, n, dealer, fight_exhaust, shuffle, state)
    state = replace_nb(table, n, dealer, shuffle, state)
    state = stay_or_drop_nb(table, n, dealer, compulsory, state)
    playing = table.players_in
    if playing == 0:
        all_drop_nb(table, n, pot, all_drop)
    elif playing == 1:
        lone_player_nb(table, pot)
    else:
        choose_leader_nb(table, n, dealer)
        if not compulsory or trade_first:
            state = trade_nb(table, trade_order, trade_exhaust, shuffle, state)
        play_tricks_nb(table, shuffle)
        settle_nb(table, pot)
    return state


@njit(cache=True, inline="always")
def start_hand_nb(table, n):
    """Clear the per-seat results and the hand's flags before the deal."""
    table.losers = 0
    table.stock_short = 0
    table.reshuffled = 0
    table.all_dropped = 0
    for seat in range(n):
        table.hand[seat] = _ZERO
        table.playing[seat] = 0
        table.traded[seat] = 0
        table.won[seat] = 0
        table.net[seat] = 0


@njit(cache=True, inline="always")
def deal_nb(table, n, dealer, shuffle, state):
    """Step 1, the deal: four cards to each seat, one at a time clockwise from the dealer's
    left, from the top of the full pack.  Returns the advanced stream state."""
    top = 0
    seat = dealer
    for k in range(4 * n):
        seat = seat + 1 if seat + 1 < n else 0
        card, top, state = draw_nb(table.pack, top, N_CARDS, shuffle, state)
        table.hand[_at(seat)] |= _ONE << np.uint64(card)
    table.top = top
    return state


@njit(cache=True, inline="always")
def lay_fight_cards_nb(table, n, state):
    """Steps 2-3, the fight cards: every seat, at once, lays down one card by its
    fight_card policy, or its table (:func:`fight_table_choice_nb`, seats in order, a
    mixed cell drawing from ``state``); they are public.  ``seat_of_bit`` finds a fight
    card's seat in one load.  Returns the stream state."""
    fight_bits = _ZERO
    tables = table.fight_tables != 0
    for seat in range(n):
        hand = table.hand[seat]
        choice = table.policy[FIGHT_CARD, seat]
        if tables:
            choice, state = fight_table_choice_nb(table, seat, hand, choice, state)
        bit = fight_card_nb(hand, choice)
        table.hand[seat] = hand & ~(_ONE << bit)
        fight_bits |= _ONE << bit
        table.fight[seat] = bit
        table.seat_of_bit[bit] = seat
    table.fight_bits = fight_bits
    return state


@njit(cache=True, inline="always")
def fight_cell_nb(hand):
    """The fight_card cell of four cards dealt: (aces, kings, the longest suit's length)."""
    longest = 0
    for suit in range(4):
        longest = max(longest, count_cards_nb(hand & (_SUIT_BITS << np.uint64(16 * suit))))
    aces = count_cards_nb(hand & ACES)
    kings = count_cards_nb(hand & KINGS)
    return FIGHT_CELL_OF[_at((aces * 5 + kings) * 5 + longest)]


@njit(cache=True, inline="always")
def stay_cell_nb(hand, won_fight):
    """The stay cell of four cards: (aces, guarded kings, whether the seat won the fight)."""
    aces = count_cards_nb(hand & ACES)
    guarded = strength_nb(hand) - 2 * aces
    return STAY_CELL_OF[_at(aces * 3 + guarded)] * 2 + np.int64(won_fight)


@njit(cache=True, inline="always")
def decide_nb(table, seat, decision, offset, n_actions, cell, policy_action, state):
    """``(action, state)`` at a table decision: the seat's table's (a mixed cell drawing
    from ``state``), else its policy's ``policy_action``; the solve kernel's forced visit
    overrides both, after the draw.  The cell and action are kept for the solve kernel."""
    action, state = table_action_nb(table.tables, seat, offset, n_actions, cell, state)
    if action == NO_TABLE:
        action = policy_action
    if table.forced_seat == seat and table.forced_decision == decision:
        action = table.forced_action
    return action, state


@njit(cache=True, inline="always")
def fight_table_choice_nb(table, seat, hand, choice, state):
    """The fight_card choice (0..3) of ``seat`` holding ``hand``: :func:`decide_nb` in its
    cell, ``choice`` its policy's."""
    cell = fight_cell_nb(hand)
    choice, state = decide_nb(table, seat, FIGHT_DECISION, FIGHT_OFFSET, N_FIGHT_ACTIONS, cell, choice, state)
    table.fight_cell[seat] = cell
    table.fight_action[seat] = choice
    return choice, state


@njit(cache=True, inline="always")
def fight_nb(table, n, dealer, fight_exhaust, shuffle, state):
    """Step 4, the fight: turn cards until one has the suit of some fight card; the highest
    fight card of that suit wins the lead (:func:`exhausted_fight_lead_nb` when the pack
    runs out first).  The turned cards are the start of the pile (step 5), so they are
    written there directly; they and the fight cards are dead.  Returns the advanced
    stream state."""
    fight_bits = table.fight_bits
    top = table.top
    lead = -1
    turned = 0
    dead = fight_bits
    while top < N_CARDS:
        card, top, state = draw_nb(table.pack, top, N_CARDS, shuffle, state)
        table.pile[_at(turned)] = card
        if not shuffle:  # a stacked hand keeps the list that play_dealt returns
            table.turned[_at(turned)] = card
        turned += 1
        dead |= _ONE << np.uint64(card)
        matching = fight_bits & suit_of_bit_nb(np.uint64(card))
        if matching:
            lead = table.seat_of_bit[highest_bit_nb(matching)]
            break
    if lead < 0:  # the stock ran out with no match
        lead = exhausted_fight_lead_nb(table, n, dealer, fight_exhaust)
    table.lead = lead
    table.n_turned = turned
    table.top = top
    table.dead = dead
    return state


@njit(cache=True, inline="always")
def exhausted_fight_lead_nb(table, n, dealer, fight_exhaust):
    """Step 4 when the pack runs out with no match (fight_exhaust): highest-rank-any-suit
    gives the lead to the highest fight card of any suit, ties to the first such seat
    clockwise from the dealer's left; eldest-gets-lead gives it to seat D+1."""
    lead = dealer + 1 if dealer + 1 < n else 0
    if fight_exhaust == HIGHEST_RANK_ANY_SUIT:
        best_order = -1
        for offset in range(1, n + 1):
            seat = (dealer + offset) % n
            order = table.fight[seat] & 15
            if order > best_order:
                best_order = order
                lead = seat
    return lead


@njit(cache=True, inline="always")
def replace_nb(table, n, dealer, shuffle, state):
    """Step 5, the replacement: the fight cards join the turned cards in the pile (seat
    order from the dealer's left), then each seat, clockwise from the dealer's left, draws
    one card; an empty pack (only after a fight that turned more than 52 - 5n cards) makes
    the pile the new pack, whatever trade_exhaust says.  Returns the advanced stream
    state."""
    top = table.top
    size = N_CARDS
    dead = table.dead
    pile = table.n_turned
    seat = dealer
    for i in range(n):
        seat = seat + 1 if seat + 1 < n else 0
        table.pile[_at(pile)] = table.fight[_at(seat)]
        pile += 1
    seat = dealer
    for i in range(n):
        seat = seat + 1 if seat + 1 < n else 0
        if top == size:
            size, top, pile, dead = _reshuffle_pile_nb(table, pile)
            table.reshuffled = 1
        card, top, state = draw_nb(table.pack, top, size, shuffle, state)
        table.hand[_at(seat)] |= _ONE << np.uint64(card)
    table.top = top
    table.size = size
    table.pile_size = pile
    table.dead = dead
    return state


@njit(cache=True, inline="always")
def stay_or_drop_nb(table, n, dealer, compulsory, state):
    """Step 6, stay or drop, at once: a seat plays when the hand is compulsory, or it won
    the fight and stays with the lead, or its strength score reaches stay_min_strength.
    Writes ``playing``, the playing seats clockwise from the dealer's left to ``order``,
    ``in_seats`` (bit s set when seat s plays) and ``players_in``."""
    # The strong hands first (a plain loop over the seats), then the fight winner and a
    # compulsory hand as masks.
    lead = table.lead
    in_seats = 0
    for seat in range(n):
        strong = strength_nb(table.hand[seat]) >= table.policy[STAY_MIN_STRENGTH, seat]
        in_seats |= np.int64(strong) << seat
    in_seats |= np.int64(table.policy[STAY_WITH_LEAD, _at(lead)] != 0) << lead
    if table.stay_tables and not compulsory:
        in_seats, state = stay_tables_nb(table, n, in_seats, state)
    in_seats |= -np.int64(compulsory) & ((1 << n) - 1)
    playing = 0
    seat = dealer
    for i in range(n):
        seat = seat + 1 if seat + 1 < n else 0
        stays = (in_seats >> seat) & 1
        table.playing[_at(seat)] = stays
        table.order[_at(playing)] = seat  # overwritten by the next player when this seat drops
        playing += stays
    table.in_seats = in_seats
    table.players_in = playing
    table.leader = -1
    table.pot_next = 0
    return state


@njit(cache=True, inline="always")
def stay_tables_nb(table, n, in_seats, state):
    """Step 6 by the tables: each seat in order, its policy's stay or drop (its bit of
    ``in_seats``) replaced by :func:`decide_nb` in its cell.  Returns ``(in_seats, state)``."""
    lead = table.lead
    for seat in range(n):
        cell = stay_cell_nb(table.hand[seat], seat == lead)
        policy_action = DROP if (in_seats >> seat) & 1 == 0 else STAY
        action, state = decide_nb(table, seat, STAY_DECISION, STAY_OFFSET, N_STAY_ACTIONS, cell, policy_action, state)
        table.stay_cell[seat] = cell
        table.stay_action[seat] = action
        in_seats = (in_seats & ~(1 << seat)) | (np.int64(action == STAY) << seat)
    return in_seats, state


@njit(cache=True, inline="always")
def all_drop_nb(table, n, pot, all_drop):
    """Step 6 when nobody plays (all_drop): refund-split pays every seat P/n and ends the
    game; forced-replay and replay-optional carry the pot to the next hand, nobody paying."""
    table.all_dropped = 1
    if all_drop == REFUND_SPLIT:
        for seat in range(n):
            table.net[seat] = pot // n
    else:
        table.pot_next = pot


@njit(cache=True, inline="always")
def lone_player_nb(table, pot):
    """Step 6 when exactly one plays: it takes all four tricks and the whole pot, and the
    game ends (no trading, no play)."""
    seat = _at(table.order[0])
    table.won[seat] = 4
    table.net[seat] = pot


@njit(cache=True, inline="always")
def choose_leader_nb(table, n, dealer):
    """The leader (two or more playing): the fight winner if it plays, else the next
    playing seat clockwise from it.  Writes ``leader`` and ``leader_place``, its place in
    the clockwise order of playing seats from the dealer's left."""
    # From `in_seats` turned so that the dealer's left is bit 0: no loop whose length is
    # a coin flip.
    in_seats = table.in_seats
    lead = table.lead
    eldest = dealer + 1 if dealer + 1 < n else 0
    turned_seats = ((in_seats >> eldest) | (in_seats << (n - eldest))) & ((1 << n) - 1)
    lead_from_eldest = lead - eldest if lead >= eldest else lead - eldest + n
    from_lead = turned_seats & -(1 << lead_from_eldest)
    leader_from_eldest = lowest_seat_nb(from_lead if from_lead else turned_seats)
    table.leader_place = count_seats_nb(turned_seats & ((1 << leader_from_eldest) - 1))
    leader = eldest + leader_from_eldest
    table.leader = leader if leader < n else leader - n


@njit(cache=True, inline="always")
def trade_nb(table, trade_order, trade_exhaust, shuffle, state):
    """Step 7, trading: the playing seats in clockwise order, from the dealer's left or
    from the leader (trade_order), each discard the cards below keep_min_rank, as many as
    trade_exhaust allows (the lowest of them when cut short: ``stock_short``), and draw as
    many; under reshuffle-discards an empty pack makes the pile, without this trader's
    discards, the new pack (once per trading).  Then the discards join the pile, by suit
    and from 2 up to A.  Returns the advanced stream state."""
    playing = table.players_in
    top = table.top
    size = table.size
    pile = table.pile_size
    dead = table.dead
    cap = 0  # cap-equal's allowance, S // players: divided only under that rule
    if trade_exhaust == CAP_EQUAL:
        cap = (size - top) // playing
    may_reshuffle = trade_exhaust == RESHUFFLE_DISCARDS
    first = table.leader_place if trade_order == TRADE_FROM_LEAD_WINNER else 0
    for i in range(playing):
        place = first + i if first + i < playing else first + i - playing
        seat = _at(table.order[_at(place)])
        wanted = table.hand[seat] & table.trade_away[seat]
        want = count_cards_nb(wanted)
        allowed = size - top
        if may_reshuffle:
            allowed += pile
        elif trade_exhaust == CAP_EQUAL:
            allowed = cap
        if allowed < want:
            table.stock_short = 1
            chosen = _ZERO
            for k in range(allowed):
                low = lowest_card_nb(wanted & ~chosen)
                chosen |= _ONE << low
            wanted = chosen
            want = allowed
        table.hand[seat] &= ~wanted
        table.traded[seat] = want
        for k in range(want):
            if top == size:
                size, top, pile, dead = _reshuffle_pile_nb(table, pile)
                table.reshuffled = 1
                may_reshuffle = False
            card, top, state = draw_nb(table.pack, top, size, shuffle, state)
            table.hand[seat] |= _ONE << np.uint64(card)
        # The discards join the pile from 2 up to A, suit by suit.  A seat trades at most
        # four cards, so four stores (the extra ones past the pile's end are overwritten
        # later, and pile + 4 stays inside the pile because every hand holds four cards
        # the pile does not) replace a loop of coin-flip length.
        rest = wanted | _NO_CARD
        for k in range(4):
            table.pile[_at(pile + k)] = lowest_bit_nb(rest)
            rest &= rest - _ONE
        pile += want
    table.top = top
    table.size = size
    table.pile_size = pile
    table.dead = dead
    return state


@njit(cache=True, inline="always")
def play_tricks_nb(table, shuffle):
    """Step 8, card play: four tricks among the playing seats.  The leader leads the first
    (:func:`lead_card_nb`), the others follow clockwise (:func:`follow_card_nb`); the
    highest card of the suit led wins, and its player leads the next.  Counts ``won``;
    a stacked hand also logs every trick."""
    playing = table.players_in
    dead = table.dead
    place = table.leader_place
    for trick in range(4):
        seat = _at(table.order[_at(place)])
        hand = table.hand[seat]
        bit = lead_card_nb(hand, dead, table.policy[PLAY_STYLE, seat])
        table.hand[seat] = hand & ~(_ONE << bit)
        dead |= _ONE << bit
        if not shuffle:  # a stacked hand keeps the log that play_dealt returns
            table.trick_leader[trick] = seat
            table.played[trick, 0] = bit
            table.played_seat[trick, 0] = seat
        led = suit_of_bit_nb(bit)
        winning = bit
        table.place_of_bit[bit] = place
        for k in range(1, playing):
            place = place + 1 if place + 1 < playing else 0
            seat = _at(table.order[_at(place)])
            hand = table.hand[seat]
            bit = follow_card_nb(hand, led, winning, table.policy[PLAY_STYLE, seat])
            # Only a higher card of the suit led beats the card now winning, so the
            # winning card is the highest of the suit led played so far.  Who played it
            # is looked up by bit after the trick: no branch on whether a card beats.
            winning = highest_bit_nb((_ONE << winning) | ((_ONE << bit) & led))
            table.place_of_bit[bit] = place
            table.hand[seat] = hand & ~(_ONE << bit)
            dead |= _ONE << bit
            if not shuffle:
                table.played[trick, k] = bit
                table.played_seat[trick, k] = seat
        place = table.place_of_bit[winning]
        winner = table.order[_at(place)]
        table.won[_at(winner)] += 1
        if not shuffle:
            table.trick_winner[trick] = winner
    table.dead = dead


@njit(cache=True, inline="always")
def settle_nb(table, pot):
    """Step 9, settlement: each trick pays a quarter of the pot to its winner; every player
    who took no trick pays the pot into the next one, so the pot carried is losers * P."""
    playing = table.players_in
    losers = 0
    quarter = pot // 4
    for i in range(playing):
        seat = _at(table.order[_at(i)])
        won = table.won[seat]
        table.net[seat] = won * quarter if won else -pot
        losers += won == 0
    table.losers = losers
    table.pot_next = losers * pot


@njit(cache=True, _nrt=False)
def _reshuffle_pile_nb(table, pile):
    """Make the pile (in pile order) the new pack; returns (size, top, pile, dead)."""
    for i in range(pile):
        table.pack[i] = table.pile[i]
    return pile, 0, 0, _ZERO


@njit(cache=True, inline="always")
def add_hand_sums_nb(table, sums, n):
    """Hand mode: add the hand just played to the sums (``HAND_OUTCOMES``; row n: the
    table's)."""
    for seat in range(n):
        net = table.net[seat]
        traded = table.traded[seat]
        # A drop counts in column H_DROPPED, a player's tricks in H_TOOK_0 + won (a select,
        # not a branch).
        took = H_TOOK_0 + table.won[seat]
        sums[seat, _at(took if table.playing[seat] else H_DROPPED)] += 1
        sums[seat, H_NET] += net
        sums[seat, H_NET_SQ] += net * net
        sums[seat, H_TRADED] += traded
        sums[seat, H_TRADED_SQ] += traded * traded
    sums[_at(table.lead), H_LEAD] += 1
    playing = table.players_in
    losers = table.losers
    turned = table.n_turned
    sums[n, H_ALL_DROPPED] += table.all_dropped
    sums[n, H_PLAYERS_IN] += playing
    sums[n, H_PLAYERS_IN_SQ] += playing * playing
    sums[n, H_LOSERS] += losers
    sums[n, H_LOSERS_SQ] += losers * losers
    sums[n, H_TURNED] += turned
    sums[n, H_TURNED_SQ] += turned * turned
    sums[n, H_STOCK_SHORT] += table.stock_short
    sums[n, H_RESHUFFLED] += table.reshuffled


@njit(cache=True, nogil=True, _nrt=False)
def _hand_sums_nb(rules, tables, out, n, seed, first, count):
    """Hand mode's loop: the sums of hands ``first .. first+count-1`` into ``out``.  It
    allocates nothing and is compiled without NRT (``tables[0]`` is used while its caller
    holds ``tables``).  The sums live in ``table.sums`` until the end."""
    table = tables[0]
    codes = hand_codes_nb(rules, table.policy, table, n)
    sums = table.sums
    seed_key = seed_key_nb(seed)
    for hand in range(first, first + count):
        play_hand_nb(table, n, n - 1, True, stream_nb(seed_key, hand), codes)
        add_hand_sums_nb(table, sums, n)
    for row in range(n + 1):
        for column in range(HAND_WIDTH):
            out[row, column] = sums[row, column]


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over hands ``first .. first+count-1`` of ``seed``, dealer in
    seat ``n-1``, pot n * ante.  Returns int64 ``[n + 1, width]`` (see ``HAND_OUTCOMES``)."""
    out = np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)
    tables = new_table_nb(rules, policy, n)
    _hand_sums_nb(rules, tables, out, n, seed, first, count)
    return out


@njit(cache=True, inline="always")
def ante_nb(rules, n):
    """The ante: the rule's, or the smallest making n * ante divisible by 4 (see ante_for)."""
    return rules[R_ANTE] if rules[R_ANTE] else SMALLEST_ANTE[n]


@njit(cache=True, inline="always")
def play_game_nb(rules, table, n, ante, state, codes):
    """One game: each seat antes, seat n-1 deals the compulsory first hand, and hands go on
    while a pot is carried (the dealer passing left when dealer_rotates; the next hand
    compulsory after all dropped under forced-replay).  A game still carrying a pot after
    max_hands hands, or one above POT_LIMIT, is stopped and the pot split equally.  Writes
    ``game_net``, ``hands_played``, ``largest_pot``, ``truncated`` and ``overflow``."""
    net = table.game_net
    all_drop = rules[R_ALL_DROP]
    max_hands = rules[R_MAX_HANDS]
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
        state = play_hand_nb(table, n, dealer, True, state, (codes, pot, compulsory))
        hands += 1
        largest_pot = max(largest_pot, pot)
        for seat in range(n):
            net[seat] += table.net[seat]
        carried = table.pot_next
        compulsory = table.all_dropped == 1 and all_drop == FORCED_REPLAY
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
    table.hands_played = hands
    table.largest_pot = largest_pot
    table.truncated = truncated
    table.overflow = overflow


@njit(cache=True, inline="always")
def add_game_sums_nb(table, out, n):
    """Game mode: add the game just played to ``out`` (``GAME_OUTCOMES``: net and net_sq
    in limbs, largest_pot a maximum; row n: the table's)."""
    net = table.game_net
    hands = table.hands_played
    truncated = table.truncated
    overflow = table.overflow
    for seat in range(n):
        add_wide_nb(out, seat, G_NET, net[seat])
        add_wide_square_nb(out, seat, G_NET_SQ, net[seat])
        out[seat, G_PROFIT] += net[seat] > 0
        if not truncated:
            add_wide_nb(out, seat, G_FINISHED_NET, net[seat])
            add_wide_square_nb(out, seat, G_FINISHED_NET_SQ, net[seat])
            out[seat, G_FINISHED_COUNT] += 1
    out[n, G_HANDS] += hands
    out[n, G_HANDS_SQ] += hands * hands
    out[n, G_TRUNCATED] += truncated
    out[n, G_OVERFLOW] += overflow
    out[n, G_HIT_MAX_HANDS] += truncated - overflow
    out[n, G_LARGEST_POT] = max(out[n, G_LARGEST_POT], table.largest_pot)
    bucket = 0
    while bucket + 1 < len(LENGTH_BUCKET_LOW) and hands >= LENGTH_BUCKET_LOW[bucket + 1]:
        bucket += 1
    out[n, G_LENGTH + bucket] += 1


@njit(cache=True, nogil=True, _nrt=False)
def _game_sums_nb(rules, tables, out, n, seed, first, count):
    """Game mode's loop (allocating nothing, compiled without NRT like
    :func:`_hand_sums_nb`): the sums of games ``first .. first+count-1`` into ``out``."""
    table = tables[0]
    ante = ante_nb(rules, n)
    codes = rule_codes_nb(table)
    seed_key = seed_key_nb(seed)
    for game in range(first, first + count):
        play_game_nb(rules, table, n, ante, stream_nb(seed_key, game), codes)
        add_game_sums_nb(table, out, n)


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over games ``first .. first+count-1`` of ``seed``, the first
    dealer in seat ``n-1``.  Returns int64 ``[n + 1, width]`` (see ``GAME_OUTCOMES``;
    net and net_sq in limbs, largest_pot a maximum)."""
    out = np.zeros((n + 1, GAME_WIDTH), dtype=np.int64)
    tables = new_table_nb(rules, policy, n)
    _game_sums_nb(rules, tables, out, n, seed, first, count)
    return out


# ----------------------------------------------------------------------------------------
# The solve kernel (sims.core.table_nb): hand mode's hands, every visit to the decision
# solved replayed from the hand's start with that visit forced to each other action.


@njit(cache=True, nogil=True, _nrt=False)
def _solve_hands_nb(rules, tables, out, values, base, n, seed, first, count, decision):
    """The hands of :func:`solve_nb` (allocating nothing; the caller holds ``tables``):
    ``values`` per action, ``base`` per seat the base play's net, cell and action."""
    table = tables[0]
    pot = n * ante_nb(rules, n)
    compulsory = rules[R_SAMPLE_HAND] == SAMPLE_FIRST
    codes = rule_codes_nb(table)
    seed_key = seed_key_nb(seed)
    n_actions = values.shape[0]
    fight = decision == FIGHT_DECISION
    n_cells = N_FIGHT_CELLS if fight else N_STAY_CELLS
    if compulsory and not fight:
        return  # nobody decides to stay in a compulsory hand
    for hand in range(first, first + count):
        table.forced_seat = -1
        # step -1 is the base play; step seat * n_actions + action replays the hand with
        # that seat's visit forced to that action (one call site: the hand compiles once)
        for step in range(-1, n * n_actions):
            seat, action = max(step, 0) // n_actions, max(step, 0) % n_actions
            if step >= 0:
                values[action] = base[0, seat]
                table.forced_seat = seat
                table.forced_action = action
            if step < 0 or action != base[2, seat]:
                play_hand_nb(table, n, n - 1, True, stream_nb(seed_key, hand), (codes, pot, compulsory))
            if step < 0:
                for k in range(n):  # the base play's, before the replays overwrite them
                    base[0, k] = table.net[k]
                    base[1, k] = table.fight_cell[k] if fight else table.stay_cell[k]
                    base[2, k] = table.fight_action[k] if fight else table.stay_action[k]
                table.forced_decision = decision
                continue
            if action != base[2, seat]:
                values[action] = table.net[seat]
            if action == n_actions - 1:
                record_visit_nb(out, seat, base[1, seat], n_cells, values, (1 << n_actions) - 1)


@njit(cache=True, nogil=True)
def solve_nb(rules, policy, n, seed, first, count, decision):
    """The solve sums (sims.core.table_nb) of hands ``first .. first+count-1`` of ``seed``
    (hand mode's hands: dealer n-1, pot n * ante) for the decision ``decision`` (0 stay,
    visited only in a hand that is not compulsory; 1 fight_card): per (seat, cell) the
    visits and the seat's net under each action.  Every seat takes the table path, so
    that a forced visit is decided (and draws) where the profile decides.  Returns int64
    ``[n * cells * stats]``."""
    fight = decision == FIGHT_DECISION
    n_cells = N_FIGHT_CELLS if fight else N_STAY_CELLS
    n_actions = N_FIGHT_ACTIONS if fight else N_STAY_ACTIONS
    out = np.zeros(n * n_cells * (FIGHT_STATS if fight else STAY_STATS), dtype=np.int64)
    values = np.zeros(n_actions, dtype=np.int64)
    base = np.zeros((3, n), dtype=np.int64)
    tables = new_table_nb(rules, policy, n)
    tables[0].stay_tables = 1
    tables[0].fight_tables = 1
    _solve_hands_nb(rules, tables, out, values, base, n, seed, first, count, decision)
    return out
