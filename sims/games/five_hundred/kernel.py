"""Five Hundred: the Numba kernels (one hand, hand mode, game mode).

They play the rules contract in the package docstring (sims/games/five_hundred/__init__.py).

A hand of cards is a 64-bit mask over card codes (0..51 and the jokers 52, 53).  When the
contract is known, two 54-entry rows give every card its effective suit (0..3, or 4 for a
suitless joker) and its order (higher wins within a suit): plain A 14, K 13, Q 12, J 11,
10 .. 4 as numbered; the left bower 15, the right bower 16, a joker 17, the black joker
18 (as trumps, or suitless, or nominated to a suit); the auction and the discard use
them.  The play of the cards works on masks in the "play layout" (see there), where the
bit order within an effective suit is its order.  The hand's scalars live in a small
int64 array (H_* slots), the per-seat state in a [4, S_*] array.

The functions a hand calls without inlining them are compiled without NRT (``_nrt=False``):
they allocate nothing, and with NRT every call paid an atomic incref/decref pair for each
array argument (46 atomic operations per hand, about 6% of its time).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from sims.core.rng import below_nb, seed_key_nb, stream_nb
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

N_RULES = len(Rules._fields)
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
) = range(N_RULES)
P_BID_OFFSET, P_MISERE_MAX, P_OPEN_MISERE_MAX, P_PARTNER_MARGIN, P_NOMINATE = range(5)

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

# Hand slots
(
    H_CONTRACT,
    H_CONTRACTOR,
    H_MADE,
    H_POINTS0,
    H_POINTS1,
    H_WINNER,
    H_ENDED,
    H_TRICKS_PLAYED,
    H_JOKER_IN_KITTY,
    H_ALL_PASS,
    H_NOMINATED0,
    H_NOMINATED1,
    H_N_CALLS,
    H_DISCARDS,
) = range(14)
N_H = 16
ENDED_NONE, ENDED_CONTRACT, ENDED_MINUS_500, ENDED_ANY_POINTS = range(4)
# Seat slots
S_PASSED, S_TRICKS, S_VOIDS, S_HIGH = range(4)
N_S = 4
MAX_CALLS = 64
LOG_STRIDE = 4 + 4  # per trick: leader, winner, named suit, (unused), the card of each seat (-1: sat out)


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


@njit(cache=True, _nrt=False)
def auction_nb(rules, policy, hands, dealer, seats, calls, estimate):
    """Run the auction; return (contract, contractor, number of calls); calls[k] = (seat,
    contract or -1).  ``seats[s, S_PASSED]`` is reset here."""
    mis_rank = rules[R_MISERE_RANK]
    om_rank = rules[R_OPEN_MISERE_RANK]
    # the highest bid that may ever be made: bidding it closes the auction (trick bids rise
    # with their id, so 10NT is the highest of them)
    top = LADDER[mis_rank, om_rank, N_TRICK_BIDS - 1]
    if rules[R_ALLOW_MISERE] != 0:
        top = max(top, LADDER[mis_rank, om_rank, MISERE], LADDER[mis_rank, om_rank, OPEN_MISERE])
    for s in range(4):
        seats[s, S_PASSED] = 0
        seats[s, S_HIGH] = estimates_nb(hands[s], estimate[s])
    current = -1
    holder = -1
    seven = False
    eight = False
    passes = 0
    n_calls = 0
    seat = (dealer + 1) % 4
    while True:
        if seats[seat, S_PASSED] == 0:
            if passes == 3 and holder == seat:
                break
            position = LADDER[mis_rank, om_rank, current] if current >= 0 else -1
            high = seats[seat, S_HIGH]
            mine = estimate[seat]
            bid = -1
            allow = rules[R_ALLOW_MISERE] != 0
            if (
                allow
                and LADDER[mis_rank, om_rank, OPEN_MISERE] > position
                and (rules[R_OPEN_MISERE_ANYTIME] != 0 or eight)
                and high <= policy[seat, P_OPEN_MISERE_MAX]
            ):
                bid = OPEN_MISERE
            elif (
                allow
                and LADDER[mis_rank, om_rank, MISERE] > position
                and (rules[R_MISERE_NEEDS_7] == 0 or seven)
                and high <= policy[seat, P_MISERE_MAX]
            ):
                bid = MISERE
            else:
                best = 0  # ties to the higher denomination, no trumps highest
                for d in range(5):
                    if mine[d] >= mine[best]:
                        best = d
                want = min(10, mine[best] + np.int64(policy[seat, P_BID_OFFSET]))
                for k in range(6, 11):
                    c = 5 * (k - 6) + best
                    if LADDER[mis_rank, om_rank, c] > position:
                        margin = (
                            np.int64(policy[seat, P_PARTNER_MARGIN]) if holder >= 0 and holder % 2 == seat % 2 else 0
                        )
                        if k + margin <= want:
                            bid = c
                        break
            calls[n_calls, 0] = seat
            calls[n_calls, 1] = bid
            n_calls += 1
            if bid < 0:
                seats[seat, S_PASSED] = 1
                passes += 1
                if passes == 4:
                    break
                if passes == 3 and holder >= 0:
                    break
            else:
                current = bid
                holder = seat
                if bid < 25:  # the bidding has reached the 7 (8) level
                    if bid // 5 >= 1:
                        seven = True
                    if bid // 5 >= 2:
                        eight = True
                if LADDER[mis_rank, om_rank, bid] == top or passes == 3:
                    break
        seat = (seat + 1) % 4
    return current, holder, n_calls


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


@njit(cache=True, _nrt=False)
def play_hand_nb(
    rules, policy, hands, kitty, dealer, scores, h, seats, calls, estimate, suit_of, order_of, log, record, suit_masks
):
    """Play one dealt hand (auction, kitty, play, score) into the slots ``h``; the seats'
    tricks in ``seats[:, S_TRICKS]``; ``scores`` (the sides' totals) are updated as the
    game's end rules say; with ``record`` the tricks go to ``log``.  ``hands`` is consumed:
    from the play on it holds the cards not yet played, in the play layout."""
    for i in range(N_H):
        h[i] = 0
    h[H_WINNER] = -1
    h[H_NOMINATED0] = -1
    h[H_NOMINATED1] = -1
    h[H_JOKER_IN_KITTY] = (kitty & _bit(RED_JOKER)) != _ZERO
    for s in range(4):
        seats[s, S_TRICKS] = 0
        seats[s, S_VOIDS] = 0
    contract, contractor, n_calls = auction_nb(rules, policy, hands, dealer, seats, calls, estimate)
    h[H_CONTRACT] = contract
    h[H_CONTRACTOR] = contractor
    h[H_N_CALLS] = n_calls
    eldest = (dealer + 1) % 4
    if contract < 0:
        h[H_ALL_PASS] = 1
        h[H_MADE] = -1
        if rules[R_ALL_PASS] != ALL_PASS_NO_TRUMPS:
            return 0
    misere = contract >= 25
    trump = 4
    if 0 <= contract < 25 and contract % 5 != NO_TRUMPS:
        trump = DENOMINATION_SUIT[contract % 5]
    set_contract_view_nb(trump, suit_of, order_of)
    discards = _ZERO
    if contractor >= 0:
        full = hands[contractor] | kitty
        discards = discard_nb(full, count_cards_nb(kitty), contract, trump, suit_of, order_of)
        hands[contractor] = full & ~discards
        h[H_DISCARDS] = np.int64(discards)
        if (
            trump == 4
            and not misere
            and rules[R_NT_JOKER] == NT_JOKER_MAY_NOMINATE
            and policy[contractor, P_NOMINATE] != 0
        ):
            for j in range(2):
                joker = RED_JOKER + j
                if hands[contractor] & _bit(joker):
                    best = 0
                    most = -1
                    for suit in range(4):
                        n = _suitcount_cards_nb(hands[contractor] & ~JOKERS, suit_of, suit)
                        if n >= most:
                            most = n
                            best = suit
                    suit_of[joker] = best
                    h[H_NOMINATED0 + j] = best
    partner_out = (contractor + 2) % 4 if misere else -1
    # From here on every set of cards is in the play layout (helpers above).
    left = _ZERO
    right = _ZERO
    if trump < 4:
        left = _bit(13 * SAME_COLOUR[trump] + 10)
        right = _bit(13 * trump + 10)
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
            if h[H_NOMINATED0 + j] >= 0:
                joker = _bit(JOKER_BIT + j)
                suit_masks[SUITLESS] &= ~joker
                suit_masks[h[H_NOMINATED0 + j]] |= joker
                special_suits += (h[H_NOMINATED0 + j] - SUITLESS) << (4 * (JOKER_BIT + j - LEFT_BIT))
    trumps = suit_masks[trump] if trump < 4 else _ZERO
    suitless = suit_masks[SUITLESS]
    pack = play_mask_nb(kitty | discards, left, right)
    for s in range(4):
        hands[s] = play_mask_nb(hands[s], left, right)
        pack |= hands[s]
    discards = play_mask_nb(discards, left, right)
    out_of_play = hands[partner_out] if misere else _ZERO
    nt_joker = rules[R_NT_JOKER]
    om_expose = rules[R_OM_EXPOSE]
    exposed = contract == OPEN_MISERE and om_expose == EXPOSE_BEFORE_LEAD
    if contractor >= 0 and rules[R_FIRST_LEAD] == LEAD_CONTRACTOR:
        leader = contractor
    else:
        leader = eldest
    if leader == partner_out:  # the eldest sits out a misere: the next seat leads (reading)
        leader = (leader + 1) % 4
    played = _ZERO
    led_before = 0
    stop_early = misere and rules[R_MISERE_STOP_EARLY] != 0 and rules[R_MISERE_OPP_SCORE] != MISERE_OPP_PER_TRICK_WON
    tricks_played = 0
    for trick in range(TRICKS):
        led = -1
        led_cards = _ZERO
        best = -1
        best_seat = -1
        named = -1
        contractor_played = False
        first_round = False
        seat = leader
        for i in range(4):
            if seat == partner_out:
                seat = (seat + 1) % 4
                continue
            hand = hands[seat]
            if i == 0 or best < 0:
                legal = hand
                if nt_joker == NT_JOKER_LEAD_LAST_ONLY and trick < TRICKS - 1 and legal & ~suitless:
                    legal &= ~suitless
            else:
                follow = hand & led_cards
                if follow:
                    legal = follow
                    if trump == 4 and (
                        nt_joker == NT_JOKER_ANY_TIME or (nt_joker == NT_JOKER_FIRST_ROUND_FREE and first_round)
                    ):
                        legal |= hand & suitless
                else:
                    legal = hand
            # what this seat cannot see
            known = hand | played | out_of_play
            if seat == contractor:
                known |= discards
            elif exposed:
                known |= hands[contractor]
            unseen = pack & ~known
            partner = (seat + 2) % 4
            if misere and seat == contractor:
                if best < 0:
                    card = _lowest_nb(legal, suitless)
                else:
                    safe = legal & ~beaters_nb(best, led_cards, trumps, suitless)
                    card = _highest_card(safe) if safe else _lowest_nb(legal, suitless)
            elif misere:
                if exposed:
                    card = exposed_defence_nb(
                        hand, legal, hands[contractor], best, best_seat == contractor, contractor_played, led_cards
                    )
                elif best < 0:
                    wanted = _ZERO
                    for suit in range(4):
                        if not (seats[contractor, S_VOIDS] >> suit) & 1:
                            wanted |= suit_masks[suit]
                    wanted &= legal
                    card = _lowest_card(wanted) if wanted else _lowest_nb(legal, suitless)
                elif contractor_played:
                    if best_seat == contractor:
                        safe = legal & ~beaters_nb(best, led_cards, trumps, suitless)
                        card = _highest_card(safe) if safe else _lowest_nb(legal, suitless)
                    else:
                        plain = legal & ~suitless
                        card = _highest_card(plain if plain else legal)
                else:
                    card = _lowest_nb(legal, suitless)
            elif best < 0:
                card = -1
                if trump < 4 and contractor >= 0 and seat % 2 == contractor % 2 and legal & trumps and unseen & trumps:
                    card = _high(legal & trumps)
                if card < 0:
                    sure = sure_winners_nb(legal, unseen, trumps, suitless, suit_masks)
                    if sure:
                        top = sure & (trumps | suitless)
                        card = _high(top) if top else _highest_card(sure)
                if card < 0:
                    longest = -1
                    most = 0
                    for suit in range(4):
                        if suit == trump:
                            continue
                        n = count_cards_nb(legal & suit_masks[suit])
                        if n > most:
                            most = n
                            longest = suit
                    if longest >= 0:
                        card = _low(legal & suit_masks[longest])
                    else:
                        card = cheapest_nb(legal, trumps, suitless)
            else:
                if best_seat == partner:
                    card = cheapest_nb(legal, trumps, suitless)
                else:
                    beaters = legal & beaters_nb(best, led_cards, trumps, suitless)
                    if beaters:
                        card = lowest_beater_nb(beaters, led_cards, trumps)
                    else:
                        card = cheapest_nb(legal, trumps, suitless)
            suit = _suit_at(card, special_suits)
            if best < 0:
                if suit == SUITLESS:
                    named = _named_suit_nb(hand & ~_bit(card), seats[seat, S_VOIDS], suit_masks)
                    led = named
                else:
                    led = suit
                led_cards = suit_masks[led]
                first_round = not (led_before >> led) & 1
                led_before |= 1 << led
                best = card
                best_seat = seat
            else:
                if suit != led:  # it has shown void in the suit led, as the others see it
                    seats[seat, S_VOIDS] |= 1 << led
                if beaters_nb(best, led_cards, trumps, suitless) & _bit(card):
                    best = card
                    best_seat = seat
            if seat == contractor:
                contractor_played = True
            hands[seat] = hand & ~_bit(card)
            played |= _bit(card)
            if record:
                log[trick, 4 + seat] = card_code_nb(card, left, right)
            if contract == OPEN_MISERE and om_expose == EXPOSE_AFTER_FIRST_LEAD and trick == 0:
                exposed = True  # from the first card of trick 1 on
            seat = (seat + 1) % 4
        if record:
            log[trick, 0] = leader
            log[trick, 1] = best_seat
            log[trick, 2] = named
        seats[best_seat, S_TRICKS] += 1
        leader = best_seat
        tricks_played = trick + 1
        if contract == OPEN_MISERE and om_expose == EXPOSE_AFTER_FIRST_TRICK and trick == 0:
            exposed = True
        if stop_early and best_seat == contractor:
            break
    h[H_TRICKS_PLAYED] = tricks_played
    _score_nb(rules, contract, contractor, dealer, seats, scores, h, tricks_played)
    return 0


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


@njit(cache=True, _nrt=False)
def _score_nb(rules, contract, contractor, dealer, seats, scores, h, tricks_played):
    """Points of the hand (H_POINTS*: what it adds to each side's total, points for tricks
    held to opp_cap under win_by_contract_only), whether the contract was made, and the
    sides' new totals under the rules of the end of a game: H_WINNER the side that has won
    (-1 none), H_ENDED how (ENDED_*)."""
    tricks0 = seats[0, S_TRICKS] + seats[2, S_TRICKS]
    tricks1 = seats[1, S_TRICKS] + seats[3, S_TRICKS]
    made = -1
    us = -1
    if contractor < 0:
        points0 = 10 * tricks0
        points1 = 10 * tricks1
    else:
        us = contractor % 2
        ours = tricks0 if us == 0 else tricks1
        theirs = tricks1 if us == 0 else tricks0
        value = VALUE[contract]
        if contract >= 25:
            won = seats[contractor, S_TRICKS]
            made = 1 if won == 0 else 0
            mine = value if made else -value
            other = 0
            opp = rules[R_MISERE_OPP_SCORE]
            if opp == MISERE_OPP_PER_CONTRACTOR_TRICK:
                other = 10 * won
            elif opp == MISERE_OPP_PER_TRICK_WON:
                other = 10 * (tricks_played - won)
        else:
            made = 1 if ours >= 6 + contract // 5 else 0
            if made:
                mine = 250 if ours == TRICKS and value < 250 else value
            else:
                mine = -value
            other = 10 * theirs
        points0 = mine if us == 0 else other
        points1 = other if us == 0 else mine
    cap_on = rules[R_WIN_BY_CONTRACT_ONLY] != 0
    if cap_on:  # points for tricks (never negative) stop at the cap: the hand's points are what it adds
        cap = rules[R_OPP_CAP]
        if us != 0:
            points0 = min(points0, max(cap - scores[0], 0))
        if us != 1:
            points1 = min(points1, max(cap - scores[1], 0))
    h[H_MADE] = made
    h[H_POINTS0] = points0
    h[H_POINTS1] = points1
    scores[0] += points0
    scores[1] += points1
    winner = -1
    how = ENDED_NONE
    if us >= 0 and made == 1 and scores[us] >= TARGET:
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
    h[H_WINNER] = winner
    h[H_ENDED] = how


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


@njit(cache=True)
def new_table_nb():
    """Scratch arrays of one table: hands, hand slots, seats, calls, estimates, the
    suit and order rows, the pack row, the dealt codes, the trick log, the suit masks."""
    return (
        np.zeros(4, dtype=np.uint64),
        np.zeros(N_H, dtype=np.int64),
        np.zeros((4, N_S), dtype=np.int64),
        np.zeros((MAX_CALLS, 2), dtype=np.int64),
        np.zeros((4, 5), dtype=np.int64),
        np.zeros(N_CODES, dtype=np.int64),
        np.zeros(N_CODES, dtype=np.int64),
        np.zeros(N_CODES, dtype=np.int64),
        np.zeros(N_CODES, dtype=np.int64),
        np.zeros((TRICKS, LOG_STRIDE), dtype=np.int64),
        np.zeros(5, dtype=np.uint64),
    )


HAND_WIDTH = HAND_OUTCOMES.kernel_width
GAME_WIDTH = GAME_OUTCOMES.kernel_width
_SEAT_H = {name: i for i, name in enumerate(HAND_OUTCOMES.seat)}
_TABLE_H = {name: i for i, name in enumerate(HAND_OUTCOMES.table)}
HS_CONTRACTOR, HS_MADE, HS_SCORE, HS_TRICKS = (_SEAT_H[k] for k in ("contractor", "made", "score", "tricks"))
(
    HT_ALL_PASS,
    HT_MISERE,
    HT_MISERE_MADE,
    HT_OPEN_MISERE,
    HT_OPEN_MISERE_MADE,
    HT_JOKER_IN_KITTY,
    HT_DECLARER,
    HT_DEFENCE,
    HT_BID,
    HT_MAKE,
    HT_VALUE,
) = (
    _TABLE_H[k]
    for k in (
        "all_pass",
        "misere",
        "misere_made",
        "open_misere",
        "open_misere_made",
        "joker_in_kitty",
        "declarer_score",
        "defence_score",
        "bid_6s",
        "make_6s",
        "value_6s",
    )
)
_SEAT_G = {name: i for i, name in enumerate(GAME_OUTCOMES.seat)}
_TABLE_G = {name: i for i, name in enumerate(GAME_OUTCOMES.table)}
GS_WIN, GS_SCORE = _SEAT_G["win"], _SEAT_G["score"]
GT_HANDS, GT_END_CONTRACT, GT_END_MINUS_500, GT_END_ANY_POINTS, GT_TRUNCATED, GT_LENGTH = (
    _TABLE_G[k] for k in ("hands", "end_contract", "end_minus_500", "end_any_points", "truncated", "length_" + "1_5")
)
BUCKET_HI = np.array([hi for _, hi in LENGTH_BUCKETS], dtype=np.int64)


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over hands ``first .. first+count-1`` of ``seed``, the dealer
    in seat 3, scores from 0.  Returns int64 ``[5, width]`` (HAND_OUTCOMES)."""
    out = np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)
    hands, h, seats, calls, estimate, suit_of, order_of, pack_row, dealt, log, suit_masks = new_table_nb()
    scores = np.zeros(2, dtype=np.int64)
    seed_key = seed_key_nb(seed)
    deck = rules[R_DECK]
    dealer = 3
    for hand in range(first, first + count):
        state = stream_nb(seed_key, hand)
        for k in range(N_CODES):
            pack_row[k] = PACKS[deck, k]
        kitty, state = deal_nb(rules, pack_row, dealer, True, state, hands, dealt)
        scores[0] = 0
        scores[1] = 0
        play_hand_nb(
            rules,
            policy,
            hands,
            kitty,
            dealer,
            scores,
            h,
            seats,
            calls,
            estimate,
            suit_of,
            order_of,
            log,
            False,
            suit_masks,
        )
        contract = h[H_CONTRACT]
        contractor = h[H_CONTRACTOR]
        made = h[H_MADE]
        for seat in range(4):
            points = h[H_POINTS0 + seat % 2]
            tricks = seats[seat, S_TRICKS]
            out[seat, HS_CONTRACTOR] += seat == contractor
            if seat == contractor:
                out[seat, HS_MADE] += made
                out[seat, HS_MADE + 1] += 1
            out[seat, HS_SCORE] += points
            out[seat, HS_SCORE + 1] += points * points
            out[seat, HS_TRICKS] += tricks
            out[seat, HS_TRICKS + 1] += tricks * tricks
        out[n, HT_ALL_PASS] += h[H_ALL_PASS]
        out[n, HT_JOKER_IN_KITTY] += h[H_JOKER_IN_KITTY]
        if contractor >= 0:
            ours = h[H_POINTS0 + contractor % 2]
            theirs = h[H_POINTS0 + 1 - contractor % 2]
            out[n, HT_DECLARER] += ours
            out[n, HT_DECLARER + 1] += ours * ours
            out[n, HT_DECLARER + 2] += 1
            out[n, HT_DEFENCE] += theirs
            out[n, HT_DEFENCE + 1] += theirs * theirs
            out[n, HT_DEFENCE + 2] += 1
            if contract == MISERE:
                out[n, HT_MISERE] += 1
                out[n, HT_MISERE_MADE] += made
                out[n, HT_MISERE_MADE + 1] += 1
            elif contract == OPEN_MISERE:
                out[n, HT_OPEN_MISERE] += 1
                out[n, HT_OPEN_MISERE_MADE] += made
                out[n, HT_OPEN_MISERE_MADE + 1] += 1
            out[n, HT_BID + contract] += 1
            out[n, HT_MAKE + 2 * contract] += made
            out[n, HT_MAKE + 2 * contract + 1] += 1
            out[n, HT_VALUE + 3 * contract] += ours
            out[n, HT_VALUE + 3 * contract + 1] += ours * ours
            out[n, HT_VALUE + 3 * contract + 2] += 1
    return out


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over games ``first .. first+count-1`` of ``seed``: seat 3
    deals first, the deal passing left, until a side wins or max_hands.  Returns int64
    ``[5, width]`` (GAME_OUTCOMES)."""
    out = np.zeros((n + 1, GAME_WIDTH), dtype=np.int64)
    hands, h, seats, calls, estimate, suit_of, order_of, pack_row, dealt, log, suit_masks = new_table_nb()
    scores = np.zeros(2, dtype=np.int64)
    seed_key = seed_key_nb(seed)
    deck = rules[R_DECK]
    max_hands = rules[R_MAX_HANDS]
    for game in range(first, first + count):
        state = stream_nb(seed_key, game)
        scores[0] = 0
        scores[1] = 0
        dealer = 3
        played = 0
        winner = -1
        ended = ENDED_NONE
        while played < max_hands:
            for k in range(N_CODES):
                pack_row[k] = PACKS[deck, k]
            kitty, state = deal_nb(rules, pack_row, dealer, True, state, hands, dealt)
            play_hand_nb(
                rules,
                policy,
                hands,
                kitty,
                dealer,
                scores,
                h,
                seats,
                calls,
                estimate,
                suit_of,
                order_of,
                log,
                False,
                suit_masks,
            )
            played += 1
            dealer = (dealer + 1) % 4
            if h[H_WINNER] >= 0:
                winner = h[H_WINNER]
                ended = h[H_ENDED]
                break
        for seat in range(4):
            out[seat, GS_WIN] += seat % 2 == winner
            final = scores[seat % 2]
            out[seat, GS_SCORE] += final
            out[seat, GS_SCORE + 1] += final * final
        out[n, GT_HANDS] += played
        out[n, GT_HANDS + 1] += played * played
        out[n, GT_END_CONTRACT] += ended == ENDED_CONTRACT
        out[n, GT_END_MINUS_500] += ended == ENDED_MINUS_500
        out[n, GT_END_ANY_POINTS] += ended == ENDED_ANY_POINTS
        out[n, GT_TRUNCATED] += winner < 0
        for b in range(len(BUCKET_HI)):
            if played <= BUCKET_HI[b]:
                out[n, GT_LENGTH + b] += 1
                break
    return out
