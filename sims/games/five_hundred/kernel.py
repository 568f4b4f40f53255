"""Five Hundred: the Numba kernels (one hand, hand mode, game mode).

They play the rules contract in the package docstring (sims/games/five_hundred/__init__.py).

A hand of cards is a 64-bit mask over card codes (0..51 and the jokers 52, 53).  When the
contract is known, two 54-entry rows give every card its effective suit (0..3, or 4 for a
suitless joker) and its order (higher wins within a suit): plain A 14, K 13, Q 12, J 11,
10 .. 4 as numbered; the left bower 15, the right bower 16, a joker 17, the black joker
18 (as trumps, or suitless, or nominated to a suit); the auction and the discard use
them.  The play of the cards works on masks in the "play layout" (see there), where the
bit order within an effective suit is its order.

State: a table's scratch is one record of the ``TABLE`` dtype (below): the seats' cards,
the hand's record (``HAND``: contract, contractor, points, winner ...), the seats' record
(``SEATS``: passed, high cards, tricks, voids shown), the auction's calls and estimates,
the contract's suit and order rows, the pack row and its draws, the trick log and the
play record (``PLAY``: the play layout of the contract and the cards played so far).
A hand is played in phases, each a function over the record that states the rule it
implements: deal_nb, auction_nb (bid_nb per call), kitty_nb, layout_nb, tricks_nb
(trick_nb per trick, card_nb per card), settle_nb; play_hand_nb (the per-hand entry point
every game shares) deals, and play_dealt_hand_nb runs the rest in order.

The functions a hand calls without inlining them are compiled without NRT (``_nrt=False``):
they allocate nothing, and with NRT every call paid an atomic incref/decref pair for each
array argument.  A record argument carries no reference count at all; the record is only
used while its caller holds the one-record array it lives in (``new_tables_nb``).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from sims.core.jit import njit
from sims.core.rng import below_nb, seed_key_nb, stream_nb
from sims.core.table_nb import NO_TABLE, table_action_nb
from sims.core.tricks import count_cards_nb, lowest_bit_nb
from sims.games.five_hundred.rules import (
    ALL_PASS_NO_TRUMPS,
    BLACK_JOKER,
    EXPOSE_AFTER_FIRST_LEAD,
    EXPOSE_AFTER_FIRST_TRICK,
    EXPOSE_BEFORE_LEAD,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    KITTY_SIZE,
    LEAD_CONTRACTOR,
    LENGTH_BUCKETS,
    LENGTH_LABELS,
    MISERE,
    MISERE_OPP_PER_CONTRACTOR_TRICK,
    MISERE_OPP_PER_TRICK_WON,
    N_CONTRACTS,
    N_TRICK_BIDS,
    NO_TRUMPS,
    NT_JOKER_ANY_TIME,
    NT_JOKER_FIRST_ROUND_FREE,
    NT_JOKER_LEAD_LAST_ONLY,
    NT_JOKER_MAY_NOMINATE,
    OPEN_MISERE,
    PACK_SIZE,
    PLAYERS,
    POLICY_FIELDS,
    RED_JOKER,
    TARGET,
    TRICKS,
    Rules,
    contract_value,
    ladder_position,
)
from sims.games.five_hundred.rules import (
    DENOMINATION_SUIT as DENOMINATION_SUIT_CODES,
)
from sims.games.five_hundred.table import (
    A_BID,
    A_MISERE,
    A_NO_MISERE,
    A_OPEN_MISERE,
    A_PASS,
    ALLOWED_BOTH,
    ALLOWED_MISERE,
    ALLOWED_OPEN_MISERE,
    BID_BLOCK,
    CALL_OPEN,
    CALL_OPPONENT,
    CALL_PARTNER,
    MAX_HIGH,
    N_ACTIONS,
    N_HIGH,
    N_OVER,
    OVER_HI,
    OVER_LO,
    TRICK_BASE,
)
from sims.spec import indices

(
    R_DECK,
    R_ALL_PASS,
    R_MISERE_RANK,
    R_MISERE_NEEDS_7,
    R_OPEN_MISERE_RANK,
    R_OPEN_MISERE_ANYTIME,
    R_ALLOW_MISERE,
    R_FIRST_LEAD,
    R_NT_JOKER,
    R_OM_EXPOSE,
    R_MISERE_STOP_EARLY,
    R_MISERE_OPP_SCORE,
    R_WIN_BY_CONTRACT_ONLY,
    R_OPP_CAP,
    R_MAX_HANDS,
) = indices(
    Rules,
    "deck",
    "all_pass",
    "misere_rank",
    "misere_needs_7",
    "open_misere_rank",
    "open_misere_anytime",
    "allow_misere",
    "first_lead",
    "nt_joker",
    "om_expose",
    "misere_stop_early",
    "misere_opp_score",
    "win_by_contract_only",
    "opp_cap",
    "max_hands",
)
P_BID_OFFSET, P_MISERE_MAX, P_OPEN_MISERE_MAX, P_PARTNER_MARGIN, P_NOMINATE = indices(
    POLICY_FIELDS, "bid_offset", "misere_max", "open_misere_max", "partner_margin", "nominate"
)

SUITLESS = 4
N_CODES = 54
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
DENOMINATION_SUIT = np.array(DENOMINATION_SUIT_CODES, dtype=np.int64)
SAME_COLOUR = np.array([3, 2, 1, 0], dtype=np.int64)  # clubs <-> spades, diamonds <-> hearts


def _pack_codes(deck: int) -> np.ndarray:
    """The pack of a deck value in code order."""
    codes = [
        13 * suit + face
        for suit in range(4)
        for face in range(13)
        if face == 0 or face >= 4 or (face == 3 and (suit in (1, 2) or deck >= 1))
    ]
    codes.append(RED_JOKER)
    if deck == 2:
        codes.append(BLACK_JOKER)
    return np.array(codes + [0] * (N_CODES - len(codes)), dtype=np.int64)


PACKS = np.stack([_pack_codes(deck) for deck in range(3)])  # [deck, position] (padded)
PACK_SIZES = np.array(PACK_SIZE, dtype=np.int64)
KITTY_SIZES = np.array(KITTY_SIZE, dtype=np.int64)
PLAIN_ORDER = np.array([14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], dtype=np.int64)  # by face

# The ladder: position of each contract under (misere_rank, open_misere_rank), and values.
LADDER = np.array(
    [[[ladder_position(c, m, o) for c in range(N_CONTRACTS)] for o in range(2)] for m in range(2)], dtype=np.int64
)
VALUE = np.array([contract_value(c) for c in range(N_CONTRACTS)], dtype=np.int64)

# ------------------------------------------------------------------- the table's scratch
ENDED_NONE, ENDED_CONTRACT, ENDED_MINUS_500, ENDED_ANY_POINTS = range(4)  # how a game ended (HAND.ended)
MAX_CALLS = 64
S_SEAT, S_GIVEN, S_FORCED, S_SEEN, S_LATER, S_CALLS = range(6)  # an advice script (auction_nb)
LOG_STRIDE = 4 + 4  # per trick: leader, winner, named suit, (unused), the card of each seat (-1: sat out)

# One hand's scalars: what the auction, the kitty and the settlement decide.
HAND = np.dtype(
    [
        ("contract", np.int64),  # contract id, -1 after four passes
        ("contractor", np.int64),  # its seat, -1 after four passes
        ("n_calls", np.int64),  # calls made in the auction (rows of TABLE.calls)
        ("made", np.int64),  # 1 made, 0 failed, -1 no contractor
        ("points", np.int64, 2),  # per side: what the hand adds to its total (trick points capped)
        ("winner", np.int64),  # the side that has won the game after this hand, -1 none
        ("ended", np.int64),  # how it was won (ENDED_*)
        ("tricks_played", np.int64),
        ("joker_in_kitty", np.int64),  # the joker 52 was dealt to the kitty
        ("all_pass", np.int64),  # four passes
        ("nominated", np.int64, 2),  # per joker (52, 53): the suit it is nominated to, -1 none
        ("discards", np.uint64),  # the contractor's discards (card codes)
    ]
)

# Per-seat state, one entry per seat.
SEATS = np.dtype(
    [
        ("passed", np.int64, PLAYERS),  # the seat has passed in this auction
        ("high", np.int64, PLAYERS),  # its high cards (jokers, A, K, Q, J) as dealt
        ("tricks", np.int64, PLAYERS),  # tricks it has won in this hand
        ("voids", np.int64, PLAYERS),  # bit s: it has shown void in effective suit s
    ]
)

# The play layout of the contract (set by layout_nb) and the cards played so far.
PLAY = np.dtype(
    [
        ("suit_masks", np.uint64, 5),  # each effective suit's bits, SUITLESS last
        ("trump", np.int64),  # the trump suit's card suit, 4 at no trumps and misere
        ("left", np.uint64),  # the left bower's code bit (0 with no trump suit)
        ("right", np.uint64),  # the right bower's code bit
        ("trumps", np.uint64),  # the trump suit's bits (0 with none)
        ("suitless", np.uint64),  # the suitless jokers' bits
        ("special_suits", np.int64),  # the effective suits of bits 52 .. 55, 4 bits each
        ("pack", np.uint64),  # every card of the pack
        ("discards", np.uint64),  # the contractor's discards
        ("partner_out", np.int64),  # a misere contractor's partner, sitting out; -1 none
        ("out_of_play", np.uint64),  # its hand
        ("exposed", np.bool_),  # the open misere hand is face up
        ("played", np.uint64),  # every card played so far
        ("led_before", np.int64),  # bit s: effective suit s has been led
    ]
)

# A table's scratch.  Its fields keep the order of the scratch tuple it replaced, so that
# a record unpacks in Python as that tuple did (hands first, the pack row and the dealt
# codes 8th and 9th).
TABLE = np.dtype(
    [
        ("hands", np.uint64, PLAYERS),  # per seat its cards: code masks, then the play layout
        ("hand", HAND),
        ("seats", SEATS),
        ("calls", np.int64, (MAX_CALLS, 2)),  # per call: (seat, contract or -1 for a pass)
        ("estimate", np.int64, (PLAYERS, 5)),  # per seat its trick estimate in each denomination
        ("suit_of", np.int64, N_CODES),  # per card code its effective suit in the contract
        ("order_of", np.int64, N_CODES),  # per card code its order in the contract
        ("pack", np.int64, N_CODES),  # the pack row being drawn from (sims.core.deck.draw_nb)
        ("dealt", np.int64, N_CODES),  # the codes in draw order
        ("log", np.int64, (TRICKS, LOG_STRIDE)),  # per trick (play_hand_nb with record)
        ("play", PLAY),
    ]
)


@njit(cache=True, inline="always")
def _bit(code):
    return _ONE << np.uint64(code)


@njit(cache=True, inline="always")
def _next_code(mask):
    """The lowest card code in a non-empty mask."""
    return np.int64(lowest_bit_nb(mask))


@njit(cache=True, _nrt=False)
def _suitcount_cards_nb(hand, suit_of, suit):
    n = 0
    m = hand
    while m:
        if suit_of[_next_code(m)] == suit:
            n += 1
        m &= m - _ONE
    return n


def _contract_view(trump: int) -> tuple[list[int], list[int]]:
    """The suit and order rows for a suit contract in card suit ``trump`` (0..3), or no
    trumps / misere (``trump`` = 4: jokers suitless, jacks in their place)."""
    suit_of = [code // 13 for code in range(52)] + [SUITLESS, SUITLESS]
    order_of = [int(PLAIN_ORDER[code % 13]) for code in range(52)] + [17, 18]
    if trump < 4:
        suit_of[RED_JOKER] = suit_of[BLACK_JOKER] = trump
        left = 13 * int(SAME_COLOUR[trump]) + 10
        suit_of[left] = trump
        order_of[left] = 15
        order_of[13 * trump + 10] = 16
    return suit_of, order_of


# [trump, code]: the rows of each contract, computed once (copying a row is cheaper than
# building it in every hand)
VIEW_SUIT = np.array([_contract_view(trump)[0] for trump in range(5)], dtype=np.int64)
VIEW_ORDER = np.array([_contract_view(trump)[1] for trump in range(5)], dtype=np.int64)


@njit(cache=True, inline="always")
def set_contract_view_nb(trump, suit_of, order_of):
    """Fill the suit and order rows for a suit contract in card suit ``trump`` (0..3), or
    no trumps / misere (``trump`` = 4: jokers suitless, jacks in their place)."""
    for code in range(N_CODES):
        suit_of[code] = VIEW_SUIT[trump, code]
        order_of[code] = VIEW_ORDER[trump, code]


SUIT_CODES = np.array([((1 << 13) - 1) << (13 * suit) for suit in range(4)], dtype=np.uint64)
JOKERS = np.uint64((1 << RED_JOKER) | (1 << BLACK_JOKER))
HIGH_CARDS = np.uint64(
    sum(1 << (13 * suit + face) for suit in range(4) for face in (0, 10, 11, 12))
    | (1 << RED_JOKER)
    | (1 << BLACK_JOKER)
)


def _strength_masks() -> tuple[np.ndarray, ...]:
    """Per trump denomination d (0..3), the code masks the hand strength counts: the trumps,
    the cards worth 2 half tricks (right and left bower, A of trumps), the K of trumps, and
    for each of the three other suits (in card suit order) its cards, its A and its K (the
    left bower is not a card of its printed suit)."""
    trumps = np.zeros(4, dtype=np.uint64)
    doubles = np.zeros(4, dtype=np.uint64)
    king = np.zeros(4, dtype=np.uint64)
    others = np.zeros((4, 3, 3), dtype=np.uint64)  # [d, k, (cards, ace, king)]
    for d in range(4):
        trump = int(DENOMINATION_SUIT[d])
        left = 1 << (13 * int(SAME_COLOUR[trump]) + 10)
        trumps[d] = int(SUIT_CODES[trump]) | left | int(JOKERS)
        doubles[d] = (1 << (13 * trump + 10)) | left | (1 << (13 * trump))
        king[d] = 1 << (13 * trump + 12)
        for k, suit in enumerate(s for s in range(4) if s != trump):
            others[d, k] = (int(SUIT_CODES[suit]) & ~left, 1 << (13 * suit), 1 << (13 * suit + 12))
    return trumps, doubles, king, others


TRUMP_CARDS, TRUMP_DOUBLES, TRUMP_KING, OTHER_SUITS = _strength_masks()


@njit(cache=True, _nrt=False)
def estimates_nb(hand, out):
    """out[d] = the seat's trick estimate in denomination d (package docstring, Hand
    strength); returns the number of high cards."""
    # Every "if held" is a 0/1 added, so the counts compile to straight-line code.
    jokers = count_cards_nb(hand & JOKERS)
    for d in range(4):
        n_trumps = count_cards_nb(hand & TRUMP_CARDS[d])
        half = 2 * jokers + 2 * count_cards_nb(hand & TRUMP_DOUBLES[d]) + count_cards_nb(hand & TRUMP_KING[d])
        half += 2 * max(n_trumps - 4, 0)
        for k in range(3):
            n = count_cards_nb(hand & OTHER_SUITS[d, k, 0])
            half += 2 * count_cards_nb(hand & OTHER_SUITS[d, k, 1])
            half += np.int64((hand & OTHER_SUITS[d, k, 2]) != _ZERO and n >= 2)
            half += np.int64(n == 0 and n_trumps >= 3)
        out[d] = half // 2 + 2
    half = 2 * jokers
    for suit in range(4):
        cards = hand & SUIT_CODES[suit]
        n = count_cards_nb(cards)
        ace = np.int64((cards & _bit(13 * suit)) != _ZERO)
        half += 2 * ace
        half += np.int64((cards & _bit(13 * suit + 12)) != _ZERO and n >= 2)
        half += np.int64((cards & _bit(13 * suit + 11)) != _ZERO and n >= 3)
        half += 2 * ace * max(n - 4, 0)
    out[NO_TRUMPS] = half // 2 + 2
    return count_cards_nb(hand & HIGH_CARDS)


# ------------------------------------------------------------------- the auction
# The bid table's cells (sims.games.five_hundred.table; package docstring, Strategy tables).
OVER_LO_NB = np.array(OVER_LO, dtype=np.int64)
N_OVER_NB = np.array(N_OVER, dtype=np.int64)
TRICK_BASE_NB = np.array(TRICK_BASE, dtype=np.int64)
# A solve's visit record (sims.games.five_hundred.solve): the visits so far, the visit to
# force (-1 none) and its action, then (seat, cell, action) per visit, MAX_VISITS at most.
V_COUNT, V_FORCED, V_ACTION, V_LOG = range(4)
MAX_VISITS = 2 * MAX_CALLS


@njit(cache=True, inline="always")
def misere_cell_nb(call, om_ok, mis_ok, high):
    """The misere step's cell (table.misere_cell)."""
    allowed = ALLOWED_BOTH if om_ok and mis_ok else (ALLOWED_OPEN_MISERE if om_ok else ALLOWED_MISERE)
    return 33 * call + N_HIGH * allowed + min(high, MAX_HIGH)


@njit(cache=True, inline="always")
def trick_cell_nb(call, level, over):
    """The trick step's cell (table.trick_cell)."""
    lo = OVER_LO_NB[call]
    return TRICK_BASE_NB[call] + N_OVER_NB[call] * (level - 6) + min(max(over, lo), OVER_HI) - lo


@njit(cache=True, inline="always")
def visit_nb(policy, seat, cell, action, tabled, state, visits):
    """A visit of ``seat`` to ``cell`` of the bid table (sims.games.five_hundred.table):
    ``action`` is what its policy fields take there; a seat playing a table takes its
    table's action instead (a cell left out keeps ``action``).  In a solve (``visits``, see
    sims.games.five_hundred.solve) the visit is counted and logged, and the forced visit
    takes the forced action, after the draws the profile makes there.  (action, state)."""
    if tabled:
        chosen, state = table_action_nb(policy, seat, BID_BLOCK, N_ACTIONS, cell, state)
        if chosen != NO_TABLE:
            action = chosen
    if visits is not None:
        v = visits[V_COUNT]
        visits[V_COUNT] = v + 1
        if v == visits[V_FORCED]:
            action = visits[V_ACTION]
        if v < MAX_VISITS:
            visits[V_LOG + 3 * v] = seat
            visits[V_LOG + 3 * v + 1] = cell
            visits[V_LOG + 3 * v + 2] = action
    return action, state


@njit(cache=True, inline="always")
def bid_nb(rules, policy, table, seat, current, holder, seven, eight, tabled, state, visits):
    """A seat's call (package docstring, Bidding), as (contract or -1 for a pass, state):
    open misere, then misere, when it may be bid and the seat holds few enough high cards;
    else the cheapest trick bid in its best denomination (ties to the higher one) that
    outranks ``current`` (-1 none), when the tricks, plus partner_margin over its
    partner's bid ``holder``, are at most its estimate plus bid_offset; else a pass.
    ``seven`` / ``eight``: a 7 / 8-level bid was made.  A seat playing a table
    (``tabled``) decides the misere step and the trick step by its cells (package
    docstring, Strategy tables); ``visits`` (None but in a solve): visit_nb."""
    mis_rank = rules[R_MISERE_RANK]
    om_rank = rules[R_OPEN_MISERE_RANK]
    position = LADDER[mis_rank, om_rank, current] if current >= 0 else -1
    high = table.seats.high[seat]
    allow = rules[R_ALLOW_MISERE] != 0
    om_ok = allow and LADDER[mis_rank, om_rank, OPEN_MISERE] > position and (rules[R_OPEN_MISERE_ANYTIME] != 0 or eight)
    mis_ok = allow and LADDER[mis_rank, om_rank, MISERE] > position and (rules[R_MISERE_NEEDS_7] == 0 or seven)
    call = CALL_OPEN if holder < 0 else (CALL_PARTNER if holder % 2 == seat % 2 else CALL_OPPONENT)
    if om_ok or mis_ok:
        if om_ok and high <= policy[seat, P_OPEN_MISERE_MAX]:
            action = A_OPEN_MISERE
        elif mis_ok and high <= policy[seat, P_MISERE_MAX]:
            action = A_MISERE
        else:
            action = A_NO_MISERE
        if visits is not None or tabled:
            cell = misere_cell_nb(call, om_ok, mis_ok, high)
            action, state = visit_nb(policy, seat, cell, action, tabled, state, visits)
        if action == A_OPEN_MISERE:
            return OPEN_MISERE, state
        if action == A_MISERE:
            return MISERE, state
    mine = table.estimate[seat]
    best = 0  # ties to the higher denomination, no trumps highest
    for d in range(5):
        if mine[d] >= mine[best]:
            best = d
    want = min(10, mine[best] + np.int64(policy[seat, P_BID_OFFSET]))
    for k in range(6, 11):
        c = 5 * (k - 6) + best
        if LADDER[mis_rank, om_rank, c] > position:
            margin = np.int64(policy[seat, P_PARTNER_MARGIN]) if call == CALL_PARTNER else 0
            action = A_BID if k + margin <= want else A_PASS
            if visits is not None or tabled:
                cell = trick_cell_nb(call, k, k - mine[best])
                action, state = visit_nb(policy, seat, cell, action, tabled, state, visits)
            return (c if action == A_BID else -1), state
    return -1, state


@njit(cache=True, _nrt=False)
def auction_nb(rules, policy, table, dealer, script, state, visits):
    """The auction (package docstring, The auction): from the eldest hand clockwise, each
    seat that has not passed calls (bid_nb); it ends when three have passed after a bid,
    when all four have passed, or at once on a bid nothing can outrank.  Writes the calls
    (``table.calls``, ``hand.n_calls``), ``hand.contract`` and ``hand.contractor`` (-1 and
    -1 after four passes), and each seat's estimates and high cards.
    ``script`` is None in hand and game mode (the branch it guards is then compiled
    away); advice passes [seat, k, forced, seen, later, call 0, ..., call k-1]
    (``S_*``): the first k calls are those given: the seat's own are forced to them;
    another seat's are forced too when ``seen`` is 1 (the history as seen), else its
    policy must make it (calling otherwise ends the auction at once with ``hand.n_calls``
    -1, a deal the advice rejects); call k, the seat's, is forced to ``forced``.  After
    it the seat passes at every later turn when ``later`` is 0 (it stands by its call),
    or calls by its policy when ``later`` is 1.
    ``state``: the hand's stream, drawn from by mixed table cells; returned.  ``visits``:
    None but in a solve (visit_nb)."""
    mis_rank = rules[R_MISERE_RANK]
    om_rank = rules[R_OPEN_MISERE_RANK]
    # the highest bid that may ever be made: bidding it closes the auction (trick bids rise
    # with their id, so 10NT is the highest of them)
    top = LADDER[mis_rank, om_rank, N_TRICK_BIDS - 1]
    if rules[R_ALLOW_MISERE] != 0:
        top = max(top, LADDER[mis_rank, om_rank, MISERE], LADDER[mis_rank, om_rank, OPEN_MISERE])
    seats = table.seats
    has_tables = policy.shape[1] > BID_BLOCK
    for s in range(4):
        seats.passed[s] = 0
        seats.high[s] = estimates_nb(table.hands[s], table.estimate[s])
    current = -1
    holder = -1
    seven = False
    eight = False
    passes = 0
    n_calls = 0
    seat = (dealer + 1) % 4
    while True:
        if seats.passed[seat] == 0:
            if passes == 3 and holder == seat:
                break
            tabled = has_tables and policy[seat, BID_BLOCK] >= 0.5
            bid, state = bid_nb(rules, policy, table, seat, current, holder, seven, eight, tabled, state, visits)
            if script is not None:
                if n_calls <= script[S_GIVEN]:
                    given = script[S_FORCED] if n_calls == script[S_GIVEN] else script[S_CALLS + n_calls]
                    if seat == script[S_SEAT] or script[S_SEEN] != 0:
                        bid = given
                    elif bid != given:
                        table.hand.n_calls = -1
                        return state
                elif seat == script[S_SEAT] and script[S_LATER] == 0:
                    bid = -1  # the seat stands by its advised call
            table.calls[n_calls, 0] = seat
            table.calls[n_calls, 1] = bid
            n_calls += 1
            if bid < 0:
                seats.passed[seat] = 1
                passes += 1
                if passes == 4 or (passes == 3 and holder >= 0):
                    break
            else:
                current = bid
                holder = seat
                if bid < N_TRICK_BIDS:  # the bidding has reached the 7 (8) level
                    seven = seven or bid // 5 >= 1
                    eight = eight or bid // 5 >= 2
                if LADDER[mis_rank, om_rank, bid] == top or passes == 3:
                    break
        seat = (seat + 1) % 4
    table.hand.contract = current
    table.hand.contractor = holder
    table.hand.n_calls = n_calls
    return state


# ------------------------------------------------------------------- the play layout
# During the play of a hand a set of cards is a mask in the "play layout", built once the
# contract is known so that within every effective suit a higher bit is a higher order:
#   bit 13 * suit + (order - 2) for every card in its printed suit (A at 12, K 11, ..., 4
#   at 2; bits 0 and 1, the 2 and 3, are never cards), its jack included except the two
#   bowers of a suit contract;
#   bit 52 the left bower, 53 the right bower (suit contracts), 54 the joker, 55 the black
#   joker (orders 15 .. 18, above every card in a printed suit's place).
# The effective suits are masks over it (the trump suit: its 13 bits and 52 .. 55; at no
# trumps a joker's bit belongs to the suit it is nominated to, else to SUITLESS), so "the
# lowest trump" or "the highest unseen card of a suit" are single bit scans with no
# per-card table lookups.
PLAY_SUIT = np.uint64((1 << 13) - 1)  # suit s of the play layout: PLAY_SUIT << 13 * s
PLAY_COLUMN = np.uint64(sum(1 << (13 * suit) for suit in range(4)))  # one order in each suit's place
PLAY_PRINTED = np.uint64((1 << 52) - 1)  # the four printed suits' places
LEFT_BIT, RIGHT_BIT, JOKER_BIT = 52, 53, 54  # JOKER_BIT + j: the joker RED_JOKER + j
PLAY_BOWERS_AND_JOKERS = np.uint64(15 << LEFT_BIT)
PLAY_JOKERS = np.uint64(3 << JOKER_BIT)
CODE_ACES = np.uint64(sum(1 << (13 * suit) for suit in range(4)))
CODE_OTHERS = np.uint64((1 << 52) - 1) & ~CODE_ACES
_63 = np.uint64(63)


@njit(cache=True, inline="always")
def _low(mask):
    """The lowest bit of a non-empty mask."""
    return np.int64(trailing_zeros(mask))


@njit(cache=True, inline="always")
def _high(mask):
    """The highest bit of a non-empty mask."""
    return np.int64(_63 - np.uint64(leading_zeros(mask)))


@njit(cache=True, inline="always")
def _above(bit):
    """The mask of every bit above ``bit``."""
    return ~(((_ONE << np.uint64(bit)) << _ONE) - _ONE)


@njit(cache=True, inline="always")
def play_mask_nb(cards, left, right):
    """A mask of card codes in the play layout; ``left`` and ``right`` are the bowers' code
    bits (0 at no trumps and misere)."""
    printed = cards & ~(left | right)
    placed = ((printed & CODE_OTHERS) >> _ONE) | ((printed & CODE_ACES) << np.uint64(12))
    placed |= ((cards >> np.uint64(RED_JOKER)) & np.uint64(3)) << np.uint64(JOKER_BIT)
    placed |= np.uint64((cards & left) != _ZERO) << np.uint64(LEFT_BIT)
    placed |= np.uint64((cards & right) != _ZERO) << np.uint64(RIGHT_BIT)
    return placed


@njit(cache=True, _nrt=False)
def card_code_nb(bit, left, right):
    """The card code of a play-layout bit (the inverse of play_mask_nb)."""
    if bit >= JOKER_BIT:
        return RED_JOKER + bit - JOKER_BIT
    if bit == LEFT_BIT:
        return _next_code(left)
    if bit == RIGHT_BIT:
        return _next_code(right)
    face = bit % 13 + 1
    return 13 * (bit // 13) + (0 if face == 13 else face)


@njit(cache=True, inline="always")
def _suit_at(bit, special_suits):
    """The effective suit of a play-layout bit; ``special_suits`` holds the suits of bits
    52 .. 55, 4 bits each."""
    if bit < LEFT_BIT:
        return bit // 13
    return (special_suits >> (4 * (bit - LEFT_BIT))) & 15


@njit(cache=True, inline="always")
def _lowest_card(mask):
    """The card of a non-empty mask with the lowest order, ties to the lower suit code
    (a bower or joker, orders 15 .. 18, only when there is nothing else)."""
    printed = mask & PLAY_PRINTED
    if printed == _ZERO:
        return _low(mask)
    orders = (
        printed | (printed >> np.uint64(13)) | (printed >> np.uint64(26)) | (printed >> np.uint64(39))
    ) & PLAY_SUIT
    return _low(printed & (PLAY_COLUMN << np.uint64(_low(orders))))


@njit(cache=True, inline="always")
def _highest_card(mask):
    """The card of a non-empty mask with the highest order, ties to the lower suit code."""
    if mask & ~PLAY_PRINTED:
        return _high(mask)
    orders = (mask | (mask >> np.uint64(13)) | (mask >> np.uint64(26)) | (mask >> np.uint64(39))) & PLAY_SUIT
    return _low(mask & (PLAY_COLUMN << np.uint64(_high(orders))))


@njit(cache=True, inline="always")
def _lowest_nb(mask, suitless):
    """The lowest-ordered card (ties to the lower suit code), a suitless joker last."""
    others = mask & ~suitless
    return _lowest_card(others) if others else _low(mask)


@njit(cache=True, inline="always")
def cheapest_nb(mask, trumps, suitless):
    """Its lowest-ordered plain card (ties to the lower suit code), else its lowest trump,
    else its lowest suitless joker."""
    plain = mask & ~(trumps | suitless)
    if plain:
        return _lowest_card(plain)
    if mask & trumps:
        return _low(mask & trumps)
    return _low(mask)


@njit(cache=True, inline="always")
def beaters_nb(best, led_cards, trumps, suitless):
    """Every card that beats ``best``, the card now winning a trick led in the suit whose
    cards are ``led_cards``: a higher trump over a trump, a higher suitless joker over a
    suitless joker, else a higher card of the suit led, any trump or any suitless joker."""
    card = _bit(best)
    above = _above(best)
    if card & trumps:
        return trumps & above
    if card & suitless:
        return suitless & above
    return (led_cards & above) | trumps | suitless


@njit(cache=True, inline="always")
def lowest_beater_nb(beaters, led_cards, trumps):
    """The lowest card of a non-empty ``beaters``: of the suit led first, then trumps, then
    jokers."""
    of_led = beaters & led_cards
    if of_led:
        return _low(of_led)
    if beaters & trumps:
        return _low(beaters & trumps)
    return _low(beaters)


@njit(cache=True, inline="always")
def sure_winners_nb(hand, unseen, trumps, suitless, suit_masks):
    """The cards of ``hand`` no unseen card could beat: a trump (suitless joker) above every
    unseen one; a card of another suit above every unseen card of its suit, when no trump or
    suitless joker is unseen."""
    unbeaten = _ZERO
    for suit in range(5):
        cards = suit_masks[suit]
        # Bits 0 and 1 are never cards, so `| 1` stands for "nothing unseen" without a branch.
        unbeaten |= hand & cards & _above(_high((unseen & cards) | _ONE))
    ruffers = trumps | suitless
    if unseen & ruffers:
        return unbeaten & ruffers
    return unbeaten


@njit(cache=True, inline="always")
def _shed(cards, forcing):
    """The card a defender of an exposed open misere sheds from a non-empty set: its
    highest spare card (not forcing, not a joker), else its highest card that is not a
    joker, else its highest card (ties to the lower suit code)."""
    spare = cards & ~(forcing | PLAY_JOKERS)
    if spare:
        return _highest_card(spare)
    plain = cards & ~PLAY_JOKERS
    return _highest_card(plain if plain else cards)


@njit(cache=True, inline="always")
def exposed_defence_nb(hand, legal, exposed, best, contractor_winning, contractor_played, led_cards):
    """A misere defender's card once the open misere hand ``exposed`` (the contractor's
    cards not yet played) is face up (package docstring, The defence against an exposed
    open misere).  Play layout at misere: no trumps, no joker nominated (the suits are the
    four printed suits' places, the jokers suitless); ``best`` < 0 when it leads."""
    forcing = _ZERO  # its cards below the contractor's lowest card of their suit
    for suit in range(4):
        cards = PLAY_SUIT << np.uint64(13 * suit)
        theirs = exposed & cards
        if theirs:
            forcing |= hand & cards & ((theirs & (~theirs + _ONE)) - _ONE)
    forcing &= legal
    if best < 0:
        if forcing:
            chosen = 0
            room = -1
            for suit in range(4):  # the suit in which the contractor's lowest card is highest
                cards = PLAY_SUIT << np.uint64(13 * suit)
                if forcing & cards:
                    low = _low(exposed & cards) - 13 * suit
                    if low > room:
                        room = low
                        chosen = suit
            return _low(forcing & (PLAY_SUIT << np.uint64(13 * chosen)))
        wanted = _ZERO
        for suit in range(4):
            cards = PLAY_SUIT << np.uint64(13 * suit)
            if exposed & cards:
                wanted |= cards
        wanted &= legal
        return _lowest_card(wanted) if wanted else _lowest_nb(legal, PLAY_JOKERS)
    if contractor_winning:
        safe = legal & ~beaters_nb(best, led_cards, _ZERO, PLAY_JOKERS)
        return _shed(safe if safe else legal, forcing)
    if not contractor_played and exposed & led_cards and legal & led_cards:
        return _lowest_nb(legal, PLAY_JOKERS)
    return _shed(legal, forcing)


@njit(cache=True, _nrt=False)
def discard_nb(hand, n_discards, contract, trump, suit_of, order_of):
    """The contractor's discards (a mask) from its hand with the kitty (package docstring,
    Kitty discard)."""
    misere = contract >= 25
    counts = 0  # cards held in each effective suit, 6 bits each
    m = hand
    while m:
        code = _next_code(m)
        m &= m - _ONE
        counts += 1 << (6 * suit_of[code])
    chosen = _ZERO
    for _ in range(n_discards):
        found = -1
        best = 0
        m = hand & ~chosen
        while m:
            code = _next_code(m)
            m &= m - _ONE
            s = suit_of[code]
            if misere:
                key = -(order_of[code] * 8 + s)  # highest first, ties to the higher suit code
            elif s == SUITLESS:
                key = 1 << 40
            elif trump < 4 and s == trump:
                key = (1 << 30) + order_of[code] * 8 + s
            else:
                ace = 1 if code < 52 and code % 13 == 0 else 0
                key = ace * (1 << 20) + ((counts >> (6 * s)) & 63) * 1024 + order_of[code] * 8 + s
            if found < 0 or key < best:
                found = code
                best = key
        chosen |= _bit(found)
    return chosen


# ------------------------------------------------------------------- the kitty
@njit(cache=True, inline="always")
def nominate_nb(table, contractor):
    """Joker nomination (package docstring, Joker nomination): each joker the contractor
    holds goes to the suit in which it holds the most cards (ties to the higher suit code);
    its effective suit becomes that suit, and ``hand.nominated`` records it."""
    hand = table.hands[contractor]
    for j in range(2):
        joker = RED_JOKER + j
        if hand & _bit(joker):
            best = 0
            most = -1
            for suit in range(4):
                n = _suitcount_cards_nb(hand & ~JOKERS, table.suit_of, suit)
                if n >= most:
                    most = n
                    best = suit
            table.suit_of[joker] = best
            table.hand.nominated[j] = best


@njit(cache=True, _nrt=False)
def kitty_nb(rules, policy, table, kitty, forced):
    """The contract's trumps and the kitty (package docstring, Trumps, The kitty): the suit
    and order rows of the contract (``play.trump`` its trump suit, 4 for none); the
    contractor takes the kitty and discards as many cards (discard_nb, into
    ``hand.discards``); at no trumps under contractor-may-nominate, with policy nominate,
    it nominates its jokers (nominate_nb).  ``forced`` is None in hand and game mode (the
    branch it guards is compiled away); advice passes the discards to make (a mask)."""
    contract = table.hand.contract
    contractor = table.hand.contractor
    trump = 4
    if 0 <= contract < N_TRICK_BIDS and contract % 5 != NO_TRUMPS:
        trump = DENOMINATION_SUIT[contract % 5]
    table.play.trump = trump
    set_contract_view_nb(trump, table.suit_of, table.order_of)
    if contractor < 0:
        return
    full = table.hands[contractor] | kitty
    if forced is None:
        discards = discard_nb(full, count_cards_nb(kitty), contract, trump, table.suit_of, table.order_of)
    else:
        discards = forced & full
    table.hands[contractor] = full & ~discards
    table.hand.discards = discards
    if (
        trump == 4
        and contract < N_TRICK_BIDS
        and rules[R_NT_JOKER] == NT_JOKER_MAY_NOMINATE
        and policy[contractor, P_NOMINATE] != 0
    ):
        nominate_nb(table, contractor)


@njit(cache=True, _nrt=False)
def layout_nb(rules, table, kitty):
    """Every set of cards into the play layout once the contract and the nominations are
    known (the ``play`` record): the effective suits' masks (the trump suit with its bowers
    and jokers; at no trumps a joker in the suit it is nominated to, else suitless), the
    suits of bits 52 .. 55, the whole pack, each seat's hand, the contractor's discards; a
    misere contractor's partner sits out with its hand; an open misere exposed before the
    lead (om_expose before-lead) is face up from the start."""
    play = table.play
    trump = play.trump
    left = _ZERO
    right = _ZERO
    if trump < 4:
        left = _bit(13 * SAME_COLOUR[trump] + 10)
        right = _bit(13 * trump + 10)
    suit_masks = play.suit_masks
    for k in range(4):
        suit_masks[k] = PLAY_SUIT << np.uint64(13 * k)
    if trump < 4:
        suit_masks[trump] |= PLAY_BOWERS_AND_JOKERS
        suit_masks[SUITLESS] = _ZERO
        special_suits = trump * 0x1111
    else:
        suit_masks[SUITLESS] = PLAY_JOKERS
        special_suits = SUITLESS * 0x1111
        for j in range(2):
            nominated = table.hand.nominated[j]
            if nominated >= 0:
                joker = _bit(JOKER_BIT + j)
                suit_masks[SUITLESS] &= ~joker
                suit_masks[nominated] |= joker
                special_suits += (nominated - SUITLESS) << (4 * (JOKER_BIT + j - LEFT_BIT))
    play.left = left
    play.right = right
    play.special_suits = special_suits
    play.trumps = suit_masks[trump] if trump < 4 else _ZERO
    play.suitless = suit_masks[SUITLESS]
    hands = table.hands
    pack = play_mask_nb(kitty | table.hand.discards, left, right)
    for s in range(4):
        hands[s] = play_mask_nb(hands[s], left, right)
        pack |= hands[s]
    play.pack = pack
    play.discards = play_mask_nb(table.hand.discards, left, right)
    contract = table.hand.contract
    partner_out = (table.hand.contractor + 2) % 4 if contract >= N_TRICK_BIDS else -1
    play.partner_out = partner_out
    play.out_of_play = hands[partner_out] if partner_out >= 0 else _ZERO
    play.exposed = contract == OPEN_MISERE and rules[R_OM_EXPOSE] == EXPOSE_BEFORE_LEAD
    play.played = _ZERO
    play.led_before = 0


# ------------------------------------------------------------------- the play
@njit(cache=True, inline="always")
def legal_nb(hand, best, led_cards, trick, first_round, nt_joker, trump, suitless):
    """A seat's legal cards (package docstring, Play; The joker at no trumps): a leader
    (``best`` < 0) any card, a suitless joker only to the last trick under lead-last-only
    unless it holds nothing else; a follower a card of the suit led (``led_cards``) if it
    holds one, else any card; a suitless joker is one more legal card at no trumps under
    any-time, and under first-round-free to the first round of the suit led."""
    if best < 0:
        if nt_joker == NT_JOKER_LEAD_LAST_ONLY and trick < TRICKS - 1 and hand & ~suitless:
            return hand & ~suitless
        return hand
    follow = hand & led_cards
    if not follow:
        return hand
    if trump == 4 and (nt_joker == NT_JOKER_ANY_TIME or (nt_joker == NT_JOKER_FIRST_ROUND_FREE and first_round)):
        return follow | (hand & suitless)
    return follow


@njit(cache=True, inline="always")
def unseen_nb(table, seat, hand):
    """The cards ``seat`` cannot see (package docstring, Card play: unseen cards): the pack
    minus its hand, the cards played, a misere partner's hand, its own discards (the
    contractor) or the exposed open misere hand (the others, once face up)."""
    play = table.play
    contractor = table.hand.contractor
    known = hand | play.played | play.out_of_play
    if seat == contractor:
        known |= play.discards
    elif play.exposed:
        known |= table.hands[contractor]
    return play.pack & ~known


@njit(cache=True, inline="always")
def lead_nb(table, seat, hand, legal):
    """A lead in a trick contract or after four passes played out (package docstring,
    Declarer side or defence): the contracting side's highest trump while a trump is unseen
    to it; else its highest sure winner (a joker or trump first); else the lowest card of
    its longest non-trump suit (ties to the lower suit code); else its cheapest card."""
    play = table.play
    trump = play.trump
    trumps = play.trumps
    suitless = play.suitless
    contractor = table.hand.contractor
    unseen = unseen_nb(table, seat, hand)
    if trump < 4 and contractor >= 0 and seat % 2 == contractor % 2 and legal & trumps and unseen & trumps:
        return _high(legal & trumps)
    sure = sure_winners_nb(legal, unseen, trumps, suitless, play.suit_masks)
    if sure:
        top = sure & (trumps | suitless)
        return _high(top) if top else _highest_card(sure)
    longest = -1
    most = 0
    for suit in range(4):
        if suit == trump:
            continue
        n = count_cards_nb(legal & play.suit_masks[suit])
        if n > most:
            most = n
            longest = suit
    if longest >= 0:
        return _low(legal & play.suit_masks[longest])
    return cheapest_nb(legal, trumps, suitless)


@njit(cache=True, inline="always")
def follow_nb(legal, best, partner_winning, led_cards, trumps, suitless):
    """A follow in a trick contract or after four passes played out (package docstring,
    Declarer side or defence): the cheapest legal card when its partner is winning the
    trick; else the lowest legal card that beats the card winning it, if any; else the
    cheapest legal card."""
    if partner_winning:
        return cheapest_nb(legal, trumps, suitless)
    beaters = legal & beaters_nb(best, led_cards, trumps, suitless)
    if beaters:
        return lowest_beater_nb(beaters, led_cards, trumps)
    return cheapest_nb(legal, trumps, suitless)


@njit(cache=True, inline="always")
def misere_defence_nb(table, hand, legal, best, best_seat, led_cards, contractor_played):
    """A misere defender's card (package docstring, The misere defence; against an exposed
    open misere exposed_defence_nb): leading, the lowest card of a suit in which the
    contractor has not shown void, else its lowest card; following, when the contractor is
    winning the highest card that does not beat it, when the contractor has yet to play
    the lowest card, when it has played and is not winning the highest card (a suitless
    joker only when nothing else is legal)."""
    play = table.play
    contractor = table.hand.contractor
    suitless = play.suitless
    if play.exposed:
        return exposed_defence_nb(
            hand, legal, table.hands[contractor], best, best_seat == contractor, contractor_played, led_cards
        )
    if best < 0:
        wanted = _ZERO
        voids = table.seats.voids[contractor]
        for suit in range(4):
            if not (voids >> suit) & 1:
                wanted |= play.suit_masks[suit]
        wanted &= legal
        return _lowest_card(wanted) if wanted else _lowest_nb(legal, suitless)
    if not contractor_played:
        return _lowest_nb(legal, suitless)
    if best_seat == contractor:
        safe = legal & ~beaters_nb(best, led_cards, play.trumps, suitless)
        return _highest_card(safe) if safe else _lowest_nb(legal, suitless)
    plain = legal & ~suitless
    return _highest_card(plain if plain else legal)


@njit(cache=True, inline="always")
def card_nb(table, seat, hand, legal, best, best_seat, led_cards, contractor_played):
    """The card ``seat`` plays from its ``legal`` cards (package docstring, Card play): a
    misere contractor leads its lowest card and follows with its highest card that does
    not win the trick, else its lowest; a misere defender as misere_defence_nb; in a trick
    contract (or four passes played out) as lead_nb and follow_nb.  ``best`` is the card
    winning the trick (-1 when it leads), played by ``best_seat``."""
    play = table.play
    if table.hand.contract >= N_TRICK_BIDS:
        if seat != table.hand.contractor:
            return misere_defence_nb(table, hand, legal, best, best_seat, led_cards, contractor_played)
        if best < 0:
            return _lowest_nb(legal, play.suitless)
        safe = legal & ~beaters_nb(best, led_cards, play.trumps, play.suitless)
        return _highest_card(safe) if safe else _lowest_nb(legal, play.suitless)
    if best < 0:
        return lead_nb(table, seat, hand, legal)
    return follow_nb(legal, best, best_seat == (seat + 2) % 4, led_cards, play.trumps, play.suitless)


@njit(cache=True, inline="always")
def trick_nb(rules, table, trick, leader, record):
    """One trick (package docstring, Play): from ``leader`` clockwise, a misere partner
    sitting out, each seat plays a legal card (legal_nb) of its choice (card_nb).  The
    first card sets the suit led (for a suitless joker the suit its leader names,
    named_suit_nb); a later card not of that suit shows its player void in it.  The
    highest trump wins, else the highest suitless joker, else the highest card of the suit
    led.  Under om_expose after-first-lead the open misere hand is face up once the first
    card is led.  With ``record`` the trick goes to ``table.log``.  Returns the winner."""
    play = table.play
    hands = table.hands
    contractor = table.hand.contractor
    trumps = play.trumps
    suitless = play.suitless
    nt_joker = rules[R_NT_JOKER]
    expose = trick == 0 and table.hand.contract == OPEN_MISERE and rules[R_OM_EXPOSE] == EXPOSE_AFTER_FIRST_LEAD
    led = -1
    led_cards = _ZERO
    best = -1
    best_seat = -1
    named = -1
    contractor_played = False
    first_round = False
    seat = leader
    for _ in range(4):
        if seat == play.partner_out:
            seat = (seat + 1) % 4
            continue
        hand = hands[seat]
        legal = legal_nb(hand, best, led_cards, trick, first_round, nt_joker, play.trump, suitless)
        card = card_nb(table, seat, hand, legal, best, best_seat, led_cards, contractor_played)
        suit = _suit_at(card, play.special_suits)
        if best < 0:
            if suit == SUITLESS:
                named = _named_suit_nb(hand & ~_bit(card), table.seats.voids[seat], play.suit_masks)
                led = named
            else:
                led = suit
            led_cards = play.suit_masks[led]
            first_round = not (play.led_before >> led) & 1
            play.led_before |= 1 << led
            best = card
            best_seat = seat
        else:
            if suit != led:  # it has shown void in the suit led, as the others see it
                table.seats.voids[seat] |= 1 << led
            if beaters_nb(best, led_cards, trumps, suitless) & _bit(card):
                best = card
                best_seat = seat
        if seat == contractor:
            contractor_played = True
        hands[seat] = hand & ~_bit(card)
        play.played |= _bit(card)
        if record:
            table.log[trick, 4 + seat] = card_code_nb(card, play.left, play.right)
        if expose:
            play.exposed = True  # from the first card of trick 1 on
        seat = (seat + 1) % 4
    if record:
        table.log[trick, 0] = leader
        table.log[trick, 1] = best_seat
        table.log[trick, 2] = named
    return best_seat


@njit(cache=True, _nrt=False)
def tricks_nb(rules, table, dealer, record):
    """The play of the cards (package docstring, Play; Misere): the contractor leads the
    first trick (first_lead contractor), else the eldest hand, or the seat after it when it
    sits out a misere; each trick's winner (trick_nb) leads the next.  All 10 tricks are
    played, except that a misere stops as soon as the contractor wins a trick under
    misere_stop_early (not with misere_opp_score per-trick-won).  Under om_expose
    after-first-trick the open misere hand is face up from trick 2.  Counts each seat's
    tricks and ``hand.tricks_played``."""
    contract = table.hand.contract
    contractor = table.hand.contractor
    misere = contract >= N_TRICK_BIDS
    if contractor >= 0 and rules[R_FIRST_LEAD] == LEAD_CONTRACTOR:
        leader = contractor
    else:
        leader = (dealer + 1) % 4
    if leader == table.play.partner_out:  # the eldest sits out a misere: the next seat leads (reading)
        leader = (leader + 1) % 4
    stop_early = misere and rules[R_MISERE_STOP_EARLY] != 0 and rules[R_MISERE_OPP_SCORE] != MISERE_OPP_PER_TRICK_WON
    expose = contract == OPEN_MISERE and rules[R_OM_EXPOSE] == EXPOSE_AFTER_FIRST_TRICK
    tricks_played = 0
    for trick in range(TRICKS):
        winner = trick_nb(rules, table, trick, leader, record)
        table.seats.tricks[winner] += 1
        leader = winner
        tricks_played = trick + 1
        if expose and trick == 0:
            table.play.exposed = True
        if stop_early and winner == contractor:
            break
    table.hand.tricks_played = tricks_played


@njit(cache=True, _nrt=False)
def _named_suit_nb(rest, voids, suit_masks):
    """The suit a leader names for a suitless joker: of the suits it has not shown void
    in, the one it holds most cards of (ties to the lower suit code)."""
    named = -1
    most = -1
    if voids & 15 == 15:  # shown void everywhere: any suit may be named
        voids = 0
    for suit in range(4):
        if (voids >> suit) & 1:
            continue
        n = count_cards_nb(rest & suit_masks[suit])
        if n > most:
            most = n
            named = suit
    return named if named >= 0 else 0


# ------------------------------------------------------------------- the score
@njit(cache=True, inline="always")
def hand_points_nb(rules, table):
    """The hand's points before the cap (package docstring, Scoring one hand) into
    ``hand.points`` and whether the contract was made into ``hand.made``: a trick contract
    made scores its value (250 for a slam below 250), failed loses it, the defence 10 a
    trick; a misere +/- its value, the defence as misere_opp_score; after four passes
    played out each side 10 a trick."""
    seats = table.seats
    contract = table.hand.contract
    contractor = table.hand.contractor
    tricks0 = seats.tricks[0] + seats.tricks[2]
    tricks1 = seats.tricks[1] + seats.tricks[3]
    made = -1
    if contractor < 0:
        points0 = 10 * tricks0
        points1 = 10 * tricks1
    else:
        us = contractor % 2
        ours = tricks0 if us == 0 else tricks1
        theirs = tricks1 if us == 0 else tricks0
        value = VALUE[contract]
        if contract >= N_TRICK_BIDS:
            won = seats.tricks[contractor]
            made = 1 if won == 0 else 0
            mine = value if made else -value
            other = 0
            opp = rules[R_MISERE_OPP_SCORE]
            if opp == MISERE_OPP_PER_CONTRACTOR_TRICK:
                other = 10 * won
            elif opp == MISERE_OPP_PER_TRICK_WON:
                other = 10 * (table.hand.tricks_played - won)
        else:
            made = 1 if ours >= 6 + contract // 5 else 0
            if made:
                mine = 250 if ours == TRICKS and value < 250 else value
            else:
                mine = -value
            other = 10 * theirs
        points0 = mine if us == 0 else other
        points1 = other if us == 0 else mine
    table.hand.made = made
    table.hand.points[0] = points0
    table.hand.points[1] = points1


@njit(cache=True, inline="always")
def game_end_nb(table, dealer, scores, us, cap_on):
    """Whether a side has won after the hand (package docstring, Scoring: game mode), into
    ``hand.winner`` (-1 none) and ``hand.ended``: the contracting side ``us`` made its
    contract and reached 500; else a side at -500 or below loses; else, without the cap,
    a side at 500 or more wins (both: the higher total, equal totals the eldest's side)."""
    winner = -1
    how = ENDED_NONE
    if us >= 0 and table.hand.made == 1 and scores[us] >= TARGET:
        winner = us
        how = ENDED_CONTRACT
    else:
        for side in range(2):
            if scores[side] <= -TARGET:
                winner = 1 - side
                how = ENDED_MINUS_500
        if winner < 0 and not cap_on:
            over0 = scores[0] >= TARGET
            over1 = scores[1] >= TARGET
            if over0 and over1:  # only after four passes played out: no contracting side
                if scores[0] != scores[1]:
                    winner = 0 if scores[0] > scores[1] else 1
                else:
                    winner = (dealer + 1) % 2
                how = ENDED_ANY_POINTS
            elif over0 or over1:
                winner = 0 if over0 else 1
                how = ENDED_ANY_POINTS
    table.hand.winner = winner
    table.hand.ended = how


@njit(cache=True, _nrt=False)
def settle_nb(rules, table, dealer, scores):
    """Settle the hand (package docstring, Scoring one hand): its points (hand_points_nb);
    under win_by_contract_only the points for tricks (never negative) of a side other than
    the contracting one stop at opp_cap, so ``hand.points`` are what the hand adds to each
    side's total; the totals ``scores`` are updated and the end of the game decided
    (game_end_nb)."""
    hand_points_nb(rules, table)
    contractor = table.hand.contractor
    us = contractor % 2 if contractor >= 0 else -1
    points = table.hand.points
    cap_on = rules[R_WIN_BY_CONTRACT_ONLY] != 0
    if cap_on:
        cap = rules[R_OPP_CAP]
        if us != 0:
            points[0] = min(points[0], max(cap - scores[0], 0))
        if us != 1:
            points[1] = min(points[1], max(cap - scores[1], 0))
    scores[0] += points[0]
    scores[1] += points[1]
    game_end_nb(table, dealer, scores, us, cap_on)


# ------------------------------------------------------------------- one hand
@njit(cache=True, inline="always")
def new_hand_nb(table, kitty):
    """Clear the hand's record and the seats' tricks and voids for a new deal."""
    hand = table.hand
    hand.made = 0
    hand.points[0] = 0
    hand.points[1] = 0
    hand.winner = -1
    hand.ended = ENDED_NONE
    hand.tricks_played = 0
    hand.joker_in_kitty = (kitty & _bit(RED_JOKER)) != _ZERO
    hand.all_pass = 0
    hand.nominated[0] = -1
    hand.nominated[1] = -1
    hand.discards = _ZERO
    for s in range(4):
        table.seats.tricks[s] = 0
        table.seats.voids[s] = 0


@njit(cache=True, _nrt=False)
def play_dealt_hand_nb(rules, policy, table, kitty, dealer, scores, record, state):
    """Play one dealt hand (package docstring): the auction; after four passes the hand is
    thrown in (all_pass redeal) or played at no trumps with no contractor; else the
    kitty; then the play and the settlement.  The results are ``table.hand`` and the seats'
    tricks ``table.seats.tricks``; ``scores`` (the sides' totals) are updated as the game's
    end rules say; with ``record`` the tricks go to ``table.log``.  ``table.hands`` is
    consumed: from the play on it holds the cards not yet played, in the play layout.
    ``state``: the hand's stream after the deal (mixed table cells draw from it); returns
    it as the auction leaves it."""
    new_hand_nb(table, kitty)
    state = auction_nb(rules, policy, table, dealer, None, state, None)
    if table.hand.contract < 0:
        table.hand.all_pass = 1
        table.hand.made = -1
        if rules[R_ALL_PASS] != ALL_PASS_NO_TRUMPS:
            return state
    play_out_nb(rules, policy, table, kitty, dealer, scores, record)
    return state


@njit(cache=True, inline="always")
def play_out_nb(rules, policy, table, kitty, dealer, scores, record):
    """The hand after its auction (a contract, or four passes played out): the kitty, the
    play and the settlement."""
    kitty_nb(rules, policy, table, kitty, None)
    layout_nb(rules, table, kitty)
    tricks_nb(rules, table, dealer, record)
    settle_nb(rules, table, dealer, scores)


@njit(cache=True, inline="always")
def _draw_nb(pack_row, t, size, shuffle, state, dealt):
    """The draw at position ``t`` (package docstring, The deal): (card, state)."""
    if shuffle:
        k, state = below_nb(state, size - t)
        j = t + k
        card = pack_row[j]
        pack_row[j] = pack_row[t]
        pack_row[t] = card
    card = pack_row[t]
    dealt[t] = card
    return card, state


@njit(cache=True, _nrt=False)
def deal_nb(rules, pack_row, dealer, shuffle, state, hands, dealt):
    """Deal a hand (package docstring, The deal): the pack row holds the pack (code order
    for a random deal, the stacked order otherwise); ``dealt`` receives the codes in draw
    order.  Returns (kitty mask, state)."""
    size = PACK_SIZES[rules[R_DECK]]
    t = 0
    for i in range(4):  # 10 cards to each seat from the eldest hand on
        held = _ZERO
        for _ in range(10):
            card, state = _draw_nb(pack_row, t, size, shuffle, state, dealt)
            held |= _bit(card)
            t += 1
        hands[(dealer + 1 + i) % 4] = held
    kitty = _ZERO
    while t < size:
        card, state = _draw_nb(pack_row, t, size, shuffle, state, dealt)
        kitty |= _bit(card)
        t += 1
    return kitty, state


@njit(cache=True, inline="always")
def new_deal_nb(rules, table, dealer, state):
    """A random deal (package docstring, The deal) from the pack in code order.  Returns
    (kitty mask, state)."""
    deck = rules[R_DECK]
    for k in range(N_CODES):
        table.pack[k] = PACKS[deck, k]
    return deal_nb(rules, table.pack, dealer, True, state, table.hands, table.dealt)


@njit(cache=True)
def new_tables_nb():
    """A table's scratch: a one-record ``TABLE`` array, zeroed.  Kernels work on its record
    ``tables[0]`` while they hold the array."""
    return np.zeros(1, dtype=TABLE)


def new_table_nb():
    """A table's scratch for Python callers (stacked deals, tests): the record of a new
    ``new_tables_nb`` array (which it keeps alive), with attribute access; it unpacks
    into its fields in ``TABLE`` order."""
    return new_tables_nb().view(np.recarray)[0]


@njit(cache=True, inline="always")
def hand_table_nb(rules, policy, n):
    """The scratch :func:`play_hand_nb` plays on: a one-record ``TABLE`` array (its record,
    ``tables[0]``, is the table; ``n`` is always 4)."""
    return new_tables_nb()


@njit(cache=True, inline="always")
def hand_codes_nb(rules, policy, table, n):
    """What :func:`play_hand_nb` reads besides the table: the rules and the policy matrix
    (the hand reads them as arrays), and the sides' scores before the hand (from 0-0; the
    hand updates them, and game mode carries them from hand to hand)."""
    return rules, policy, np.zeros(2, dtype=np.int64)


@njit(cache=True, _nrt=False)
def play_hand_nb(table, n, dealer, shuffle, state, codes):
    """The game's per-hand entry point (the contract every game's kernel shares): one hand
    dealt by ``dealer`` (``n`` is 4) on the record ``table``, from the hand's stream
    ``state``; ``codes`` is :func:`hand_codes_nb`'s ``(rules, policy, scores)``.  With
    ``shuffle`` the pack is dealt from the stream (package docstring, The deal); without,
    ``table.pack`` holds the stacked pack, drawn without swaps, and the tricks are logged
    in ``table.log``.  The deal is left in ``table.dealt`` (draw order), the hand in
    ``table.hand`` (:func:`play_dealt_hand_nb`); returns the advanced stream.  Compiled
    once and called: the hand is long, and every kernel plays it."""
    rules, policy, scores = codes
    if shuffle:
        deck = rules[R_DECK]
        for k in range(N_CODES):
            table.pack[k] = PACKS[deck, k]
    kitty, state = deal_nb(rules, table.pack, dealer, shuffle, state, table.hands, table.dealt)
    return play_dealt_hand_nb(rules, policy, table, kitty, dealer, scores, not shuffle, state)


# ------------------------------------------------------------------- the sums
HAND_WIDTH = HAND_OUTCOMES.kernel_width
GAME_WIDTH = GAME_OUTCOMES.kernel_width
HS_CONTRACTOR, HS_MADE, HS_MADE_COUNT, HS_SCORE, HS_SCORE_SQ, HS_TRICKS, HS_TRICKS_SQ = indices(
    HAND_OUTCOMES.seat, "contractor", "made", "made_count", "score", "score_sq", "tricks", "tricks_sq"
)
(
    HT_ALL_PASS,
    HT_MISERE,
    HT_MISERE_MADE,
    HT_MISERE_MADE_COUNT,
    HT_OPEN_MISERE,
    HT_OPEN_MISERE_MADE,
    HT_OPEN_MISERE_MADE_COUNT,
    HT_JOKER_IN_KITTY,
    HT_DECLARER,
    HT_DECLARER_SQ,
    HT_DECLARER_COUNT,
    HT_DEFENCE,
    HT_DEFENCE_SQ,
    HT_DEFENCE_COUNT,
) = indices(
    HAND_OUTCOMES.table,
    "all_pass",
    "misere",
    "misere_made",
    "misere_made_count",
    "open_misere",
    "open_misere_made",
    "open_misere_made_count",
    "joker_in_kitty",
    "declarer_score",
    "declarer_score_sq",
    "declarer_score_count",
    "defence_score",
    "defence_score_sq",
    "defence_score_count",
)
# Per contract c (id order): bid_c at HT_BID + c, make_c and make_c_count at HT_MAKE + 2 c,
# value_c, value_c_sq and value_c_count at HT_VALUE + 3 c.
HT_BID, HT_BID_NEXT, HT_MAKE, HT_MAKE_NEXT, HT_VALUE, HT_VALUE_NEXT = indices(
    HAND_OUTCOMES.table, "bid_6s", "bid_6c", "make_6s", "make_6c", "value_6s", "value_6c"
)
assert (HT_BID_NEXT - HT_BID, HT_MAKE_NEXT - HT_MAKE, HT_VALUE_NEXT - HT_VALUE) == (1, 2, 3)
GS_WIN, GS_SCORE, GS_SCORE_SQ = indices(GAME_OUTCOMES.seat, "win", "score", "score_sq")
GT_HANDS, GT_HANDS_SQ, GT_END_CONTRACT, GT_END_MINUS_500, GT_END_ANY_POINTS, GT_TRUNCATED, GT_LENGTH = indices(
    GAME_OUTCOMES.table,
    "hands",
    "hands_sq",
    "end_contract",
    "end_minus_500",
    "end_any_points",
    "truncated",
    "length_" + LENGTH_LABELS[0],
)
BUCKET_HI = np.array([hi for _, hi in LENGTH_BUCKETS], dtype=np.int64)


@njit(cache=True, inline="always")
def add_hand_nb(out, n, table):
    """Hand mode: add a hand's outcomes (package docstring, Hand mode) to the sums."""
    hand = table.hand
    contract = hand.contract
    contractor = hand.contractor
    made = hand.made
    for seat in range(4):
        points = hand.points[seat % 2]
        tricks = table.seats.tricks[seat]
        out[seat, HS_CONTRACTOR] += seat == contractor
        if seat == contractor:
            out[seat, HS_MADE] += made
            out[seat, HS_MADE_COUNT] += 1
        out[seat, HS_SCORE] += points
        out[seat, HS_SCORE_SQ] += points * points
        out[seat, HS_TRICKS] += tricks
        out[seat, HS_TRICKS_SQ] += tricks * tricks
    out[n, HT_ALL_PASS] += hand.all_pass
    out[n, HT_JOKER_IN_KITTY] += hand.joker_in_kitty
    if contractor < 0:
        return
    ours = hand.points[contractor % 2]
    theirs = hand.points[1 - contractor % 2]
    out[n, HT_DECLARER] += ours
    out[n, HT_DECLARER_SQ] += ours * ours
    out[n, HT_DECLARER_COUNT] += 1
    out[n, HT_DEFENCE] += theirs
    out[n, HT_DEFENCE_SQ] += theirs * theirs
    out[n, HT_DEFENCE_COUNT] += 1
    if contract == MISERE:
        out[n, HT_MISERE] += 1
        out[n, HT_MISERE_MADE] += made
        out[n, HT_MISERE_MADE_COUNT] += 1
    elif contract == OPEN_MISERE:
        out[n, HT_OPEN_MISERE] += 1
        out[n, HT_OPEN_MISERE_MADE] += made
        out[n, HT_OPEN_MISERE_MADE_COUNT] += 1
    out[n, HT_BID + contract] += 1
    out[n, HT_MAKE + 2 * contract] += made
    out[n, HT_MAKE + 2 * contract + 1] += 1
    out[n, HT_VALUE + 3 * contract] += ours
    out[n, HT_VALUE + 3 * contract + 1] += ours * ours
    out[n, HT_VALUE + 3 * contract + 2] += 1


@njit(cache=True, _nrt=False)
def hand_sums_nb(rules, policy, tables, scores, out, n, seed, first, count):
    """Hand mode's loop over hands ``first .. first+count-1`` of ``seed`` (hand i from the
    stream (seed, i)), the dealer in seat 3, scores from 0, into ``out``."""
    table = tables[0]
    seed_key = seed_key_nb(seed)
    dealer = 3
    codes = (rules, policy, scores)
    for i in range(first, first + count):
        scores[0] = 0
        scores[1] = 0
        play_hand_nb(table, n, dealer, True, stream_nb(seed_key, i), codes)
        add_hand_nb(out, n, table)


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over hands ``first .. first+count-1`` of ``seed``, the dealer
    in seat 3, scores from 0.  Returns int64 ``[5, width]`` (HAND_OUTCOMES)."""
    out = np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)
    hand_sums_nb(rules, policy, new_tables_nb(), np.zeros(2, dtype=np.int64), out, n, seed, first, count)
    return out


@njit(cache=True, inline="always")
def add_game_nb(out, n, scores, played, winner, ended):
    """Game mode: add a game's outcomes (package docstring, Game mode) to the sums."""
    for seat in range(4):
        out[seat, GS_WIN] += seat % 2 == winner
        final = scores[seat % 2]
        out[seat, GS_SCORE] += final
        out[seat, GS_SCORE_SQ] += final * final
    out[n, GT_HANDS] += played
    out[n, GT_HANDS_SQ] += played * played
    out[n, GT_END_CONTRACT] += ended == ENDED_CONTRACT
    out[n, GT_END_MINUS_500] += ended == ENDED_MINUS_500
    out[n, GT_END_ANY_POINTS] += ended == ENDED_ANY_POINTS
    out[n, GT_TRUNCATED] += winner < 0
    for b in range(len(BUCKET_HI)):
        if played <= BUCKET_HI[b]:
            out[n, GT_LENGTH + b] += 1
            break


@njit(cache=True, _nrt=False)
def play_on_nb(rules, policy, table, scores, dealer, state, played):
    """Game mode from a game in progress: the sides' totals ``scores`` (updated), ``dealer``
    to deal next, ``played`` hands already played; hands dealt from ``state`` one after
    another (the deal passing left after every hand, thrown-in hands included) until a
    side wins or max_hands hands have been played in all.  Returns (the winning side or
    -1 when max_hands came first, how the game ended, the hands played in all).  Game
    mode plays every game with it from 0-0; advice plays the rest of a game after the
    advised hand with it."""
    max_hands = rules[R_MAX_HANDS]
    while played < max_hands:
        state = play_hand_nb(table, PLAYERS, dealer, True, state, (rules, policy, scores))
        played += 1
        dealer = (dealer + 1) % 4
        if table.hand.winner >= 0:
            return table.hand.winner, table.hand.ended, played
    return -1, ENDED_NONE, played


@njit(cache=True, _nrt=False)
def game_sums_nb(rules, policy, tables, scores, out, n, seed, first, count):
    """Game mode's loop over games ``first .. first+count-1`` of ``seed`` (all hands of game
    i from the stream (seed, i)): seat 3 deals first, the deal passing left after every
    hand, until a side wins or max_hands hands, into ``out``."""
    table = tables[0]
    seed_key = seed_key_nb(seed)
    for game in range(first, first + count):
        scores[0] = 0
        scores[1] = 0
        winner, ended, played = play_on_nb(rules, policy, table, scores, 3, stream_nb(seed_key, game), 0)
        add_game_nb(out, n, scores, played, winner, ended)


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over games ``first .. first+count-1`` of ``seed``: seat 3
    deals first, the deal passing left, until a side wins or max_hands.  Returns int64
    ``[5, width]`` (GAME_OUTCOMES)."""
    out = np.zeros((n + 1, GAME_WIDTH), dtype=np.int64)
    game_sums_nb(rules, policy, new_tables_nb(), np.zeros(2, dtype=np.int64), out, n, seed, first, count)
    return out
