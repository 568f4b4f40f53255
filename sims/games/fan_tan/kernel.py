"""Fan Tan: the Numba kernels (one deal, hand mode, game mode).

They play the rules contract in the package docstring (sims/games/fan_tan/__init__.py).

Cards are bits 16 * suit + face (face 0 = A ... 12 = K), so a hand and the layout are
64-bit masks, bit order is code order, and the cards that may be added to the layout are
the neighbours of the played cards inside their suit plus the unplayed sevens: a few
shifts and masks per turn.  The pack, the hands, the per-seat results and the hand-mode
sums are the named arrays of one record (``TABLE``).
"""

from __future__ import annotations

import numpy as np

from sims.core.deck import N_CARDS, draw_nb, reset_pack_nb
from sims.core.jit import njit
from sims.core.rng import below_nb, seed_key_nb, stream_nb
from sims.core.table_nb import NO_TABLE, table_action_nb
from sims.core.tricks import RANK_COLUMN, count_cards_nb, lowest_bit_nb
from sims.core.wide import add_wide_nb
from sims.games.fan_tan.rules import (
    ACTION_PASS,
    CARDS_UPPER,
    FEWER_CARDS_PAY_EXTRA,
    FEWEST_UPPER,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    HOYLE_HOLDER_PENALTY,
    HOYLE_PASS_PENALTY,
    LENGTH_BUCKET_LOW,
    LENGTH_LABELS,
    MAX_PLAYERS,
    MORE_CARDS_PAY_EXTRA,
    N_PLAY_ACTIONS,
    PLAY_BLOCK,
    PLAY_CELL_ALL_SEVENS,
    PLAY_CELL_MAY_PASS,
    PLAY_RAW_TO_CELL,
    POLICY_FIELDS,
    SETTLE_CARD_COUNT,
    SETTLE_POT_PLUS_CARDS,
    START_ELDEST,
    START_HOLDER_7D,
    STYLE_BLOCK,
    STYLE_FIRST,
    STYLE_HOLD_SEVENS,
    STYLE_RANDOM,
    UNEVEN_NONE,
    Rules,
)
from sims.spec import indices, kernel_around_loop

HAND_WIDTH = HAND_OUTCOMES.kernel_width  # plain ints: the kernels cannot read Outcomes
GAME_WIDTH = GAME_OUTCOMES.kernel_width
H_WIN, H_NET, H_PASSES, H_PAID, H_CARDS_LEFT = indices(HAND_OUTCOMES.seat, "win", "net", "passes", "paid", "cards_left")
HT_TURNS, HT_POT = indices(HAND_OUTCOMES.table, "turns", "pot")
# Game mode's columns are the kernel's: net_sq takes two (32-bit limbs, sims.core.wide).
G_NET, G_NET_SQ, G_WINS, G_CARDS_LEFT, G_BEST_SCORE = indices(
    GAME_OUTCOMES.kernel_columns(GAME_OUTCOMES.seat), "net", "net_sq", "wins", "cards_left", "best_score"
)
GT_TURNS, GT_LENGTH = indices(GAME_OUTCOMES.kernel_columns(GAME_OUTCOMES.table), "turns", "length_" + LENGTH_LABELS[0])
N_LENGTH = len(LENGTH_BUCKET_LOW)  # the length buckets follow GT_LENGTH in LENGTH_BUCKET_LOW's order
assert HAND_OUTCOMES.squares_follow() and GAME_OUTCOMES.squares_follow()  # the kernels write X_sq at X + 1

N_RULES = len(Rules._fields)
R_ANTE, R_UNEVEN_ANTE, R_START, R_SETTLE, R_MAY_PASS, R_EIGHT_BEFORE_SIX, R_PASS_FEE, R_CARD_FEE = indices(
    Rules, "ante", "uneven_ante", "start", "settle", "may_pass_when_able", "eight_before_six", "pass_fee", "card_fee"
)
P_STYLE, P_PASS_WITH_SEVENS = indices(POLICY_FIELDS, "style", "pass_with_sevens")
N_FIELDS = len(POLICY_FIELDS)

ACC_STRIDE = 16  # columns of a row of hand-mode sums
MAX_TURNS = 52 * (2 * MAX_PLAYERS - 1)  # at most 2n - 2 passes (voluntary ones included) before each play
assert HAND_WIDTH <= ACC_STRIDE and MAX_PLAYERS % 4 == 0

# A block's scratch is one record of this type (see sims.core.deck for the pattern), made
# once per block by new_table_nb.  Per-seat arrays are indexed by seat.
TABLE = np.dtype(
    [
        ("pack", np.int64, N_CARDS),  # the pack (bits), drawn by sims.core.deck.draw_nb
        ("rules", np.int64, N_RULES),  # the Rules values in field order
        ("policy", np.int64, (len(POLICY_FIELDS), MAX_PLAYERS)),  # [field, seat]: the policy, whole numbers
        ("hands", np.uint64, MAX_PLAYERS),  # per seat: the cards in hand (bits)
        ("paid", np.int64, MAX_PLAYERS),  # per seat, this deal: chips paid
        ("received", np.int64, MAX_PLAYERS),  # per seat, this deal: chips received
        ("passes", np.int64, MAX_PLAYERS),  # per seat, this deal: passes
        ("cards_left", np.int64, MAX_PLAYERS),  # per seat, this deal: cards left at the end
        ("winner", np.int64),  # this deal: the seat that went out
        ("turns", np.int64),  # this deal: turns taken (plays and passes)
        ("pot", np.int64),  # this deal: the chips the winner took
        ("sums", np.int64, (MAX_PLAYERS + 1, ACC_STRIDE)),  # hand mode: a row per seat, then the table row
        ("log", np.int64, (MAX_TURNS, 2)),  # stacked deals only: turn t's seat and its card (bit)
        # Strategy tables (sims/games/fan_tan/table.py): per seat, whether it plays the play
        # decision from its table, and the decision's block of its policy row (flag, then
        # cells x actions probabilities, sims.core.table).
        ("tabled", np.int64, MAX_PLAYERS),
        ("play_table", np.float64, (MAX_PLAYERS, PLAY_BLOCK)),
    ]
)
PASS, VOLUNTARY_PASS = -1, -2  # the log's card of a pass

BIT_OF_CODE = np.array([16 * (code // 13) + code % 13 for code in range(N_CARDS)], dtype=np.int64)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
ALL_CARDS = np.uint64(0x1FFF) * RANK_COLUMN
SEVEN_FACE = 6  # face 0 = A ... 6 = 7
SIXES, SEVENS, EIGHTS = (RANK_COLUMN << np.uint64(face) for face in (SEVEN_FACE - 1, SEVEN_FACE, SEVEN_FACE + 1))


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
    """A one-record ``TABLE`` array with the rules and the policy filled in, every other
    array zero.  Kernels work on its record, ``tables[0]``."""
    tables = np.zeros(1, dtype=TABLE)
    table = tables[0]
    for r in range(rules.shape[0]):
        table.rules[r] = rules[r]
    for seat in range(n):
        for field in range(N_FIELDS):
            table.policy[field, seat] = np.int64(policy[seat, field])
        if policy.shape[1] >= N_FIELDS + PLAY_BLOCK and policy[seat, N_FIELDS] >= 0.5:
            for column in range(PLAY_BLOCK):
                table.play_table[seat, column] = policy[seat, N_FIELDS + column]
            table.tabled[seat] = not _table_is_policy_nb(table, seat)
    return tables


@njit(cache=True)
def _table_is_policy_nb(table, seat):
    """Whether seat ``seat``'s play table takes, in every cell it does not leave out,
    the one action its policy fields take there (``policy_play_action``): then it plays
    as its policy fields do, draw for draw, and the kernels let the fields decide (the
    first-card path stays open to it)."""
    style = table.policy[P_STYLE, seat]
    holds = table.policy[P_PASS_WITH_SEVENS, seat] != 0
    for cell in range(PLAY_CELL_MAY_PASS.shape[0]):
        at = 1 + cell * N_PLAY_ACTIONS
        if table.play_table[seat, at] < 0.0:
            continue
        action = ACTION_PASS if holds and PLAY_CELL_MAY_PASS[cell] and PLAY_CELL_ALL_SEVENS[cell] else style
        if table.play_table[seat, at + action] < 1.0:
            return False
    return True


@njit(cache=True, inline="always")
def play_cell_nb(table, n, seat, hand, playable, can_pass):
    """The play cell of ``seat`` holding ``hand`` with the legal cards ``playable`` (not
    none), ``can_pass`` when a voluntary pass is allowed now (package docstring, Strategy
    tables), or -1 when there is no decision: a single legal card and no pass allowed."""
    k = count_cards_nb(playable)
    if k == 1 and not can_pass:
        return -1
    sevens = playable & SEVENS
    seven_class = 0 if sevens == _ZERO else (2 if sevens == playable else 1)
    own = count_cards_nb(hand)
    fewest = N_CARDS
    for other in range(n):
        if other != seat:
            fewest = min(fewest, count_cards_nb(table.hands[other]))
    own_class = 0 if own <= CARDS_UPPER[0] else (1 if own <= CARDS_UPPER[1] else 2)
    fewest_class = 0 if fewest <= FEWEST_UPPER[0] else (1 if fewest <= FEWEST_UPPER[1] else 2)
    raw = (((np.int64(can_pass) * 4 + min(k, 4) - 1) * 3 + seven_class) * 3 + own_class) * 3 + fewest_class
    return PLAY_RAW_TO_CELL[raw]


@njit(cache=True, inline="always")
def profile_action_nb(table, seat, cell, playable, can_pass, state):
    """The action (a style's code, or ACTION_PASS) seat ``seat`` takes in play cell
    ``cell``: its table's (a mixed cell drawing one uniform), else its policy fields' (a
    pass when ``can_pass``, pass_with_sevens and every legal card a seven; else its style).
    Returns ``(action, state)``."""
    if table.tabled[seat]:
        action, state = table_action_nb(table.play_table, seat, 0, N_PLAY_ACTIONS, cell, state)
        if action != NO_TABLE:
            return action, state
    if can_pass and not (playable & ~SEVENS) and table.policy[P_PASS_WITH_SEVENS, seat]:
        return ACTION_PASS, state
    return table.policy[P_STYLE, seat], state


@njit(cache=True, inline="always")
def resolve_action_nb(action, hand, playable, layout, legal, eight_before_six, state):
    """The card (bit) action ``action`` plays, as its style chooses it, or PASS for the
    pass action: ``(card, state)`` (the random style drawing as it does)."""
    if action == ACTION_PASS:
        return np.int64(PASS), state
    card, state = choose_card_nb(action, hand, playable, layout, legal, eight_before_six, state)
    return np.int64(card), state


@njit(cache=True, inline="always")
def _pay_nb(table, seat, chips):
    """``seat`` pays ``chips`` (ante, fee or penalty): adds them to its ``paid`` and returns them."""
    table.paid[np.uint64(seat)] += chips
    return chips


PATH_RULE_FIELDS = (R_UNEVEN_ANTE, R_START, R_SETTLE, R_MAY_PASS, R_EIGHT_BEFORE_SIX)  # rules that choose code
C_MAY_PASS = PATH_RULE_FIELDS.index(R_MAY_PASS)  # its place in rule_codes_nb's tuple


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
def plays_first_cards_nb(table, n, codes):
    """Whether every seat plays its first playable card (style first) and never passes
    voluntarily (no may_pass_when_able, or no seat with pass_with_sevens): then
    :func:`play_hand_nb`'s turns take the branch-free path."""
    may_pass = codes[C_MAY_PASS] != 0
    for seat in range(n):
        if table.tabled[seat]:
            return False
        if table.policy[P_STYLE, seat] != STYLE_FIRST:
            return False
        if may_pass and table.policy[P_PASS_WITH_SEVENS, seat]:
            return False
    return True


@njit(cache=True, inline="always")
def _deal_nb(table, n, dealer, shuffle, state):
    """Step 1, the deal: clear the seats' results of the last deal, then draw the 52 cards
    from ``table.pack`` (lazy Fisher-Yates with ``shuffle``, the stacked order without),
    draw k to seat (dealer + 1 + k) mod n.  Returns the advanced stream state."""
    hands = table.hands
    for seat in range(n):
        hands[np.uint64(seat)] = _ZERO
        table.paid[np.uint64(seat)] = 0
        table.received[np.uint64(seat)] = 0
        table.passes[np.uint64(seat)] = 0
        table.cards_left[np.uint64(seat)] = 0
    seat = dealer
    top = 0
    for k in range(N_CARDS):
        seat = seat + 1 if seat + 1 < n else 0
        card, top, state = draw_nb(table.pack, top, N_CARDS, shuffle, state)
        hands[np.uint64(seat)] |= _ONE << np.uint64(card)
    return state


@njit(cache=True, inline="always")
def _antes_nb(table, n, uneven, ante, chips):
    """Step 1, the antes: each seat pays ``ante`` into the pot, one chip more for the seats
    dealt the fewer (more) cards under uneven_ante fewer- (more-) cards-pay-extra when the
    hands are uneven; nothing under card-count-score (``chips`` false).  Returns the pot."""
    pot = 0
    if chips:
        # Only an uneven_ante rule needs the hand sizes (two divisions, slow to wait for).
        uneven_sizes = uneven != UNEVEN_NONE and N_CARDS % n != 0
        short = N_CARDS // n if uneven_sizes else 0  # the size of the smaller hands
        for seat in range(n):
            seat_ante = ante
            if uneven_sizes:
                fewer = count_cards_nb(table.hands[seat]) == short
                if (uneven == FEWER_CARDS_PAY_EXTRA and fewer) or (uneven == MORE_CARDS_PAY_EXTRA and not fewer):
                    seat_ante += 1
            pot += _pay_nb(table, seat, seat_ante)
    return pot


@njit(cache=True, inline="always")
def _opening_nb(table, n, dealer, start, shuffle):
    """Step 2, the opening: under start=eldest the eldest hand has the first turn; under
    holder-7d/7h the holder of that 7 plays it (one turn, logged on a stacked deal) and
    its left-hand neighbour has the next.  Returns ``(seat to play, layout, turns)``."""
    seat = dealer + 1 if dealer + 1 < n else 0
    if start == START_ELDEST:
        return seat, _ZERO, 0
    opening_bit = 16 * (1 if start == START_HOLDER_7D else 2) + SEVEN_FACE
    opening = _ONE << np.uint64(opening_bit)
    hands = table.hands
    while not hands[seat] & opening:
        seat = seat + 1 if seat + 1 < n else 0
    hands[seat] &= ~opening
    if not shuffle:
        table.log[0, 0] = seat
        table.log[0, 1] = np.int64(opening_bit)
    return seat + 1 if seat + 1 < n else 0, opening, 1


@njit(cache=True, inline="always")
def _first_card_turns_nb(table, n, seat, layout, turns, eight_before_six):
    """Step 3 when every seat plays style first and never passes voluntarily: on its turn a
    seat plays its lowest playable card (code order), or passes when it has none, until a
    hand is empty.  The pass fees are left to :func:`_settle_nb` (passes times pass_fee);
    no log.  Returns ``(the seat that went out, turns)``."""
    # Whether a seat can play is a coin flip for the branch predictor, so the turn is masks
    # only: the card is the lowest bit of the playable cards, none for a pass.
    hands = table.hands
    legal = legal_cards_nb(layout, eight_before_six)
    while True:
        hand = hands[np.uint64(seat)]  # unsigned: no negative-index check
        playable = hand & legal
        played = playable & (_ZERO - playable)
        hand ^= played
        hands[np.uint64(seat)] = hand
        layout |= played
        legal = legal_cards_nb(layout, eight_before_six)
        table.passes[np.uint64(seat)] += played == _ZERO
        turns += 1
        if not hand:
            return seat, turns
        seat = seat + 1 if seat + 1 < n else 0


@njit(cache=True, inline="always")
def _hoyle_penalties_nb(table, n, seat, hand):
    """A voluntary pass (holding back sevens) pays Hoyle's penalties: HOYLE_PASS_PENALTY
    chips into the pot, and for each 7 in ``hand`` HOYLE_HOLDER_PENALTY chips to the other
    seat holding that suit's 6 and to the one holding its 8.  Returns the chips into the pot."""
    pot = _pay_nb(table, seat, HOYLE_PASS_PENALTY)
    held = hand & SEVENS
    while held:
        seven = lowest_bit_nb(held)
        held &= held - _ONE
        for neighbour in (seven - _ONE, seven + _ONE):
            for other in range(n):
                if other != seat and table.hands[other] & (_ONE << neighbour):
                    _pay_nb(table, seat, HOYLE_HOLDER_PENALTY)
                    table.received[other] += HOYLE_HOLDER_PENALTY
    return pot


NOT_FORCED = -3  # _turn_nb's ``forced`` when the seat's policy decides (a constant in hand and game mode)


@njit(cache=True, inline="always")
def _turn_nb(
    table, n, seat, layout, legal, passes_in_a_row, pot, may_pass, eight_before_six, chips, pass_fee, state, forced
):
    """One turn of ``seat`` (step 3).  A seat with a playable card plays the one its style
    chooses, unless with may_pass_when_able and pass_with_sevens every playable card is a
    seven and the last n-1 turns were not all passes: then it passes voluntarily at
    Hoyle's penalties.  A seat playing a table at a play cell takes its table's action
    there (a style, or a voluntary pass) instead of its policy fields'.  A seat with no playable card passes and pays pass_fee (chips only).
    ``forced`` other than NOT_FORCED takes that action instead of the policy's (advice: a
    card's bit, or PASS: a pass, voluntary when the seat holds a playable card); the
    caller makes sure it is legal.  ``legal`` is the layout's legal cards.  Returns
    ``(hand, layout, legal, passes_in_a_row, pot, logged, state)``, ``logged`` being the
    card's bit, PASS or VOLUNTARY_PASS."""
    hands = table.hands
    hand = hands[np.uint64(seat)]
    playable = hand & legal
    logged = PASS
    style = NO_TABLE
    if forced == NOT_FORCED:
        plays = playable != _ZERO and not (
            may_pass and passes_in_a_row < n - 1 and not (playable & ~SEVENS) and table.policy[P_PASS_WITH_SEVENS, seat]
        )
        if table.tabled[np.uint64(seat)] and playable != _ZERO:
            can_pass = may_pass and passes_in_a_row < n - 1
            cell = play_cell_nb(table, n, seat, hand, playable, can_pass)
            if cell >= 0:
                style, state = profile_action_nb(table, seat, cell, playable, can_pass, state)
                plays = style != ACTION_PASS
    else:
        plays = forced >= 0
    if plays:
        if forced == NOT_FORCED:
            if style == NO_TABLE:
                style = table.policy[P_STYLE, np.uint64(seat)]
            card, state = choose_card_nb(style, hand, playable, layout, legal, eight_before_six, state)
        else:
            card = np.uint64(forced)
        hand &= ~(_ONE << card)
        hands[np.uint64(seat)] = hand
        layout |= _ONE << card
        legal = legal_cards_nb(layout, eight_before_six)
        passes_in_a_row = 0
        logged = np.int64(card)
    else:
        table.passes[np.uint64(seat)] += 1
        passes_in_a_row += 1
        if not playable:
            if chips:
                pot += _pay_nb(table, seat, pass_fee)
        else:
            logged = VOLUNTARY_PASS
            if chips:
                pot += _hoyle_penalties_nb(table, n, seat, hand)
    return hand, layout, legal, passes_in_a_row, pot, logged, state


@njit(cache=True, inline="always")
def _policy_turns_nb(
    table, n, seat, layout, turns, pot, shuffle, may_pass, eight_before_six, chips, pass_fee, state, passes_in_a_row
):
    """Step 3 under any policy: :func:`_turn_nb` clockwise from ``seat`` until a hand is
    empty, ``passes_in_a_row`` passes having been made just before (0 at the opening).  A
    stacked deal (no ``shuffle``) logs each turn.  Returns ``(the seat that went out,
    turns, pot, state)``."""
    legal = legal_cards_nb(layout, eight_before_six)
    while True:
        hand, layout, legal, passes_in_a_row, pot, logged, state = _turn_nb(
            table,
            n,
            seat,
            layout,
            legal,
            passes_in_a_row,
            pot,
            may_pass,
            eight_before_six,
            chips,
            pass_fee,
            state,
            NOT_FORCED,
        )
        if not shuffle:
            table.log[turns, 0] = seat
            table.log[turns, 1] = logged
        turns += 1
        if not hand:
            return seat, turns, pot, state
        seat = seat + 1 if seat + 1 < n else 0


@njit(cache=True, inline="always")
def _settle_nb(table, n, winner, turns, pot, chips, pass_fees_due, settle, pass_fee, card_fee):
    """Step 4, the settlement once ``winner`` has gone out: record each seat's cards left;
    with chips, the pass fees still due (``pass_fees_due``: the first-card turns leave them
    here) and, under pot-plus-cards, card_fee per card left go into the pot, and the winner
    takes the pot.  Records ``winner``, ``turns`` and ``pot``."""
    for other in range(n):
        left = count_cards_nb(table.hands[other])
        table.cards_left[other] = left
        if chips and pass_fees_due:
            pot += _pay_nb(table, other, table.passes[other] * pass_fee)
        if chips and settle == SETTLE_POT_PLUS_CARDS:
            pot += _pay_nb(table, other, left * card_fee)
    if chips:
        table.received[winner] += pot
    table.winner = winner
    table.turns = turns
    table.pot = pot


@njit(cache=True, inline="always")
def _play_deal_nb(table, n, dealer, shuffle, state, codes, amounts, first_cards):
    """Play one deal (package docstring, steps 1-4) and return the advanced stream state.

    ``table.pack`` must hold the pack (code order for a random deal, the stacked order
    otherwise); ``shuffle`` = 0 draws it without swaps and logs every turn.  ``codes`` is
    :func:`rule_codes_nb`'s tuple, ``amounts`` :func:`rule_amounts_nb`'s; ``first_cards`` is
    :func:`plays_first_cards_nb` (taken only with ``shuffle``: that path keeps no log).
    Results go to the per-seat arrays (``paid``, ``received``, ``passes``, ``cards_left``,
    ``hands``: the cards left) and ``winner``, ``turns``, ``pot``.
    """
    uneven, start, settle, may_pass, eight_before_six = codes
    ante, pass_fee, card_fee = amounts
    chips = settle != SETTLE_CARD_COUNT
    eight_before_six = eight_before_six != 0
    state = _deal_nb(table, n, dealer, shuffle, state)
    pot = _antes_nb(table, n, uneven, ante, chips)
    seat, layout, turns = _opening_nb(table, n, dealer, start, shuffle)
    first_cards = first_cards and shuffle
    if first_cards:
        seat, turns = _first_card_turns_nb(table, n, seat, layout, turns, eight_before_six)
    else:
        seat, turns, pot, state = _policy_turns_nb(
            table, n, seat, layout, turns, pot, shuffle, may_pass != 0, eight_before_six, chips, pass_fee, state, 0
        )
    _settle_nb(table, n, seat, turns, pot, chips, first_cards, settle, pass_fee, card_fee)
    return state


@njit(cache=True, inline="always")
def hand_table_nb(rules, policy, n):
    """The scratch :func:`play_hand_nb` plays on: a one-record ``TABLE`` array (its record,
    ``tables[0]``, is the table)."""
    return new_table_nb(rules, policy, n)


@njit(cache=True, inline="always")
def hand_codes_nb(rules, policy, table, n):
    """What :func:`play_hand_nb` reads once per block: :func:`rule_codes_nb`'s tuple (a
    fixed-rules kernel builds it from constants), :func:`rule_amounts_nb`'s and
    :func:`plays_first_cards_nb`."""
    codes = rule_codes_nb(rules)
    return codes, rule_amounts_nb(rules), plays_first_cards_nb(table, n, codes)


@njit(cache=True, inline="always")
def play_hand_nb(table, n, dealer, shuffle, state, codes):
    """The game's per-hand entry point (the contract every game's kernel shares): one deal
    dealt by ``dealer`` at ``n`` seats on the record ``table``,
    from the deal's stream ``state``; ``shuffle`` False plays the pack stacked in
    ``table.pack`` (in draw order, every turn logged); ``codes`` is
    :func:`hand_codes_nb`'s.  Results stay in the record (:func:`_play_deal_nb`); returns
    the advanced stream."""
    rule_codes, amounts, first_cards = codes
    if shuffle:
        reset_pack_nb(table.pack, BIT_OF_CODE)
    return _play_deal_nb(table, n, dealer, shuffle, state, rule_codes, amounts, first_cards)


@njit(cache=True, inline="always")
def _net_nb(table, seat):
    """A seat's chips received minus paid this deal (unsigned index: no negative-index check)."""
    return table.received[np.uint64(seat)] - table.paid[np.uint64(seat)]


@njit(cache=True)
def new_hand_table_nb(rules, policy, n):
    """The scratch and the zeroed sums of a hand-mode block: ``(tables, out)``."""
    return new_table_nb(rules, policy, n), np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)


@njit(cache=True, inline="always")
def _hand_sums_nb(tables, out, n, seed, first, count, codes):
    """Hand mode's loop, for both hand kernels: the sums of deals ``first .. first+count-1``
    into ``out``.  ``codes`` are the values of :func:`rule_codes_nb`, read from the rules
    or fixed at compile time.  Its callers are compiled without NRT (they allocate
    nothing), so the record ``tables[0]`` is used while their caller holds ``tables``."""
    table = tables[0]
    hand_codes = (codes, rule_amounts_nb(table.rules), plays_first_cards_nb(table, n, codes))
    sums = table.sums  # a row per seat, then the table row, until the end
    seed_key = seed_key_nb(seed)
    for deal in range(first, first + count):
        play_hand_nb(table, n, n - 1, True, stream_nb(seed_key, deal), hand_codes)
        for seat in range(n):
            row = np.uint64(seat)  # unsigned: no negative-index checks
            net = _net_nb(table, seat)
            passes = table.passes[row]
            paid = table.paid[row]
            left = table.cards_left[row]
            sums[row, H_NET] += net
            sums[row, H_NET + 1] += net * net
            sums[row, H_PASSES] += passes
            sums[row, H_PASSES + 1] += passes * passes
            sums[row, H_PAID] += paid
            sums[row, H_PAID + 1] += paid * paid
            sums[row, H_CARDS_LEFT] += left
            sums[row, H_CARDS_LEFT + 1] += left * left
        sums[np.uint64(table.winner), H_WIN] += 1
        turns = table.turns
        pot = table.pot
        sums[n, HT_TURNS] += turns
        sums[n, HT_TURNS + 1] += turns * turns
        sums[n, HT_POT] += pot
        sums[n, HT_POT + 1] += pot * pot
    for row in range(n + 1):
        for column in range(HAND_WIDTH):
            out[row, column] = sums[row, column]


@njit(cache=True, nogil=True, _nrt=False)
def _generic_hand_sums_nb(rules, tables, out, n, seed, first, count):
    """:func:`_hand_sums_nb` for any rules: the code-path rules read from ``rules``."""
    _hand_sums_nb(tables, out, n, seed, first, count, rule_codes_nb(rules))


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over deals ``first .. first+count-1`` of ``seed``, dealer in
    seat ``n-1``.  Returns int64 ``[n + 1, width]`` (see ``HAND_OUTCOMES``).  Any rules
    (see :func:`fixed_hands_kernel`)."""
    tables, out = new_hand_table_nb(rules, policy, n)
    _generic_hand_sums_nb(rules, tables, out, n, seed, first, count)
    return out


def fixed_hands_kernel(codes: tuple):
    """:func:`simulate_hands_nb` compiled for one tuple of :func:`rule_codes_nb`: the rule
    tests fold away at compile time (about 10% fewer instructions per hand under the
    standard rules, most of them in the turn loop: no eight_before_six gate, no chips
    test).  Each tuple is a cold compile of about as long as the generic kernel's (several
    seconds) and a cache file of about 85 KB, so ``SPEC`` uses it for the standard rules
    only (``fixed_kernels``; any ante and fees).  Same sums as the generic kernel for rules
    with these codes.  The kernel is a Python function around the compiled parts
    (:func:`sims.spec.kernel_around_loop`)."""
    codes = tuple(int(code) for code in codes)

    @njit(cache=True, nogil=True, _nrt=False)
    def fixed_hand_sums_nb(tables, out, n, seed, first, count):
        _hand_sums_nb(tables, out, n, seed, first, count, codes)

    return kernel_around_loop(new_hand_table_nb, fixed_hand_sums_nb)


def hand_rule_codes(rules) -> tuple:
    """:func:`rule_codes_nb` in Python (the key of a fixed-rules kernel)."""
    return tuple(int(rules[field]) for field in PATH_RULE_FIELDS)


@njit(cache=True, nogil=True, _nrt=False)
def _game_sums_nb(rules, tables, out, net, wins, left, n, seed, first, count):
    """Game mode's loop (allocating nothing, compiled without NRT like the hand loops): the
    sums of rotations ``first .. first+count-1`` into ``out``; ``net``, ``wins`` and
    ``left`` are per-seat scratch."""
    table = tables[0]
    codes = hand_codes_nb(rules, table.policy, table, n)
    seed_key = seed_key_nb(seed)
    for game in range(first, first + count):
        state = stream_nb(seed_key, game)
        turns = 0
        for seat in range(n):
            net[seat] = 0
            wins[seat] = 0
            left[seat] = 0
        for deal in range(n):
            state = play_hand_nb(table, n, (n - 1 + deal) % n, True, state, codes)
            turns += table.turns
            wins[table.winner] += 1
            for seat in range(n):
                net[seat] += _net_nb(table, seat)
                left[seat] += table.cards_left[seat]
        lowest = left[0]
        for seat in range(n):
            lowest = min(lowest, left[seat])
        for seat in range(n):
            out[seat, G_NET] += net[seat]
            add_wide_nb(out, seat, G_NET_SQ, net[seat] * net[seat])  # below 2**63: 8 deals of < 2**16 chips
            out[seat, G_WINS] += wins[seat]
            out[seat, G_WINS + 1] += wins[seat] * wins[seat]
            out[seat, G_CARDS_LEFT] += left[seat]
            out[seat, G_CARDS_LEFT + 1] += left[seat] * left[seat]
            out[seat, G_BEST_SCORE] += left[seat] == lowest
        out[n, GT_TURNS] += turns
        out[n, GT_TURNS + 1] += turns * turns
        bucket = 0  # the last bucket whose low end, in turns per deal, the rotation reaches
        while bucket + 1 < N_LENGTH and turns >= LENGTH_BUCKET_LOW[bucket + 1] * n:
            bucket += 1
        out[n, GT_LENGTH + bucket] += 1


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over rotations ``first .. first+count-1`` of ``seed``: n
    deals, dealt by seats n-1, 0, 1, ..., n-2.  Returns int64 ``[n + 1, width]``."""
    out = np.zeros((n + 1, GAME_WIDTH), dtype=np.int64)
    _game_sums_nb(
        rules,
        new_table_nb(rules, policy, n),
        out,
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        n,
        seed,
        first,
        count,
    )
    return out
