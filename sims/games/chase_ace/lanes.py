"""Chase the Ace: hand mode under the standard rules, hands played side by side in lanes.

Under the standard rules (all-lowest-lose, kings block, no queen or jack rule) a round
needs only the ranks of the m + 1 cards dealt, and a policy that never draws (no mixed
threshold) decides each turn from three ranks: the card the player holds, the card it was
dealt (what it gave, if its right-hand neighbour swapped with it) and its left-hand
neighbour's card.  So a block of hands can be played as a few hundred hands at a time,
each step of the round one loop over the hands (the "lanes"), branch-free, which the
compiler turns into vector instructions (32 lanes of bytes at a time with AVX2): 8 players
cost 144 instructions per hand against 797 one hand at a time (and 398 in the tuned C loop
of ../shared/reference/chase_ace_tuned.c, which deals from one stream without resetting
its pack), with no branch to mispredict.  The numbers are exactly those of the
hand-at-a-time kernel, draw for draw:

* the streams are sims.core.rng's: lane h of a batch starting at hand ``first`` plays hand
  ``first + h`` from the stream ``(seed, first + h)``, its xoshiro256** state seeded with the
  same splitmix64 words (:func:`sims.core.rng.mix64_lanes_nb`, the same function written
  so that it vectorizes) and its draws made by the same Lemire step;
* the deal is sims.core.deck's Fisher-Yates prefix of the pack in code order.  A lane does
  not move cards in a pack: the card at position ``p`` when card ``k`` is drawn is the card
  placed there by the latest earlier draw that took position ``p``, else the card of code
  ``p`` (never moved), so each draw compares its position with the earlier ones;
* a draw whose Lemire product falls in the range that may reject (probability about
  52 / 2**32 per draw) marks its lane, and that hand is dealt again from its stream by
  :func:`sims.core.deck.deal_prefix_nb` (which rejects exactly as the stream prescribes).

The turn of a non-dealer holding rank ``c``, dealt rank ``g`` (the rank it gave when it
received a card; when it did not, it holds the card it was dealt and ``c == g``), whose
left-hand neighbour holds ``x``: it swaps when ``c < t`` (``t`` its threshold in ranks), and,
if informed, ``c <= g`` (rule a: keep a higher rank received), and the exchange happens
when ``x`` is not the top card (kings block).  The dealer cuts when, informed and having
received a card from the last non-dealer, ``c < g``, else when ``c < t``; it takes the cut
card unless that is the top card and ``dealer_king_block`` holds.  Every seat holding the
lowest final rank loses a life.

Counts are kept per lane in bytes (a lane adds at most one per batch) and added to the
per-seat sums every ``FLUSH_BATCHES`` batches.  The layout: every per-card and per-seat row
is ``WIDTH`` lanes wide, row ``k`` of a field at ``k * WIDTH``.
"""

from __future__ import annotations

import numpy as np

from sims.core.deck import N_CARDS
from sims.core.jit import njit
from sims.core.rng import GOLDEN, mix64_lanes_nb, next_u64_nb

WIDTH = 256  # lanes of a batch row (hands side by side)
ROWS = 24  # rows of the per-card and per-seat fields: the lanes play up to ROWS - 1 players
FLUSH_BATCHES = 255  # batches between flushes of the byte counters (each adds at most 1)
TOP_RANK = 12  # the top card's rank (kernel.TOP_RANK; this module is imported by the kernel)

U8 = np.uint8
U64 = np.uint64
_LOW32 = np.uint64(0xFFFFFFFF)

LANES = np.dtype(
    [
        # the four xoshiro256** words of each lane's stream
        ("s0", np.uint64, WIDTH),
        ("s1", np.uint64, WIDTH),
        ("s2", np.uint64, WIDTH),
        ("s3", np.uint64, WIDTH),
        ("redeal", np.uint64, WIDTH),  # nonzero: a draw of this lane may reject (dealt again, one hand at a time)
        ("draw", np.uint8, ROWS * WIDTH),  # row k: below(52 - k) of card k's draw
        ("position", np.uint8, ROWS * WIDTH),  # row k: the position card k is taken from (k + draw)
        ("placed", np.uint8, ROWS * WIDTH),  # row k: the rank put at that position (the card at position k)
        ("rank", np.uint8, ROWS * WIDTH),  # row k: the rank of card k (position k's card, then the cut card)
        ("held", np.uint8, ROWS * WIDTH),  # row k: position k's final rank
        ("exchanged", np.uint8, ROWS * WIDTH),  # row k: 1 when position k completed an exchange on its turn
        ("lose_count", np.uint8, ROWS * WIDTH),  # row k: lives position k lost since the last flush
        ("exchange_count", np.uint8, ROWS * WIDTH),  # row k: its exchanges since the last flush
        ("found", np.uint8, WIDTH),  # per lane: the rank at the drawn position (scratch of the deal)
        ("moved", np.uint8, WIDTH),  # per lane: the rank that moves there (scratch of the deal)
        ("travelling", np.uint8, WIDTH),  # per lane: the card passed along the chain of swaps
        ("lowest", np.uint8, WIDTH),  # per lane: the lowest final rank
        ("losers", np.uint8, WIDTH),  # per lane: the hand's losers
        ("losers_count", np.uint32, WIDTH),  # per lane since the last flush: losers, their squares, hands without
        ("losers_sq_count", np.uint32, WIDTH),
        ("no_loser_count", np.uint32, WIDTH),
        ("threshold", np.uint8, ROWS + 8),  # per position: swap (cut) below this rank
        ("informed", np.uint8, ROWS + 8),  # per position: 1 when informed
    ]
)


@njit(cache=True)
def new_lanes_nb():
    """A one-record ``LANES`` array, zeroed."""
    return np.zeros(1, dtype=LANES)


@njit(cache=True, nogil=True, _nrt=False)
def draw_lanes_nb(lanes, seed_key, first, width, cards):
    """Seed the streams of hands ``first .. first+width-1`` and make the ``cards`` draws of
    their deals: ``draw`` row k holds below(52 - k), ``redeal`` marks the lanes whose
    draws may reject."""
    for h in range(width):
        key = mix64_lanes_nb(seed_key ^ U64(first + h))
        lanes.s0[h] = mix64_lanes_nb(key + GOLDEN)
        lanes.s1[h] = mix64_lanes_nb(key + GOLDEN * U64(2))
        lanes.s2[h] = mix64_lanes_nb(key + GOLDEN * U64(3))
        lanes.s3[h] = mix64_lanes_nb(key + GOLDEN * U64(4))
        lanes.redeal[h] = 0
    k = 0
    while k + 3 <= cards:  # three draws at a time: the state stays in registers
        bound0 = np.uint32(N_CARDS - k)
        bound1 = np.uint32(N_CARDS - k - 1)
        bound2 = np.uint32(N_CARDS - k - 2)
        for h in range(width):
            state = (lanes.s0[h], lanes.s1[h], lanes.s2[h], lanes.s3[h])
            word0, state = next_u64_nb(state)
            word1, state = next_u64_nb(state)
            word2, (s0, s1, s2, s3) = next_u64_nb(state)
            lanes.s0[h] = s0
            lanes.s1[h] = s1
            lanes.s2[h] = s2
            lanes.s3[h] = s3
            product0 = _first_step_nb(word0, bound0)
            product1 = _first_step_nb(word1, bound1)
            product2 = _first_step_nb(word2, bound2)
            lanes.redeal[h] |= _may_reject_nb(product0, bound0) | _may_reject_nb(product1, bound1)
            lanes.redeal[h] |= _may_reject_nb(product2, bound2)
            lanes.draw[U64(k * WIDTH + h)] = U8(product0 >> U64(32))
            lanes.draw[U64((k + 1) * WIDTH + h)] = U8(product1 >> U64(32))
            lanes.draw[U64((k + 2) * WIDTH + h)] = U8(product2 >> U64(32))
        k += 3
    while k < cards:
        bound = np.uint32(N_CARDS - k)
        for h in range(width):
            word, (s0, s1, s2, s3) = next_u64_nb((lanes.s0[h], lanes.s1[h], lanes.s2[h], lanes.s3[h]))
            lanes.s0[h] = s0
            lanes.s1[h] = s1
            lanes.s2[h] = s2
            lanes.s3[h] = s3
            product = _first_step_nb(word, bound)
            lanes.redeal[h] |= _may_reject_nb(product, bound)
            lanes.draw[U64(k * WIDTH + h)] = U8(product >> U64(32))
        k += 1


@njit(cache=True, inline="always")
def _first_step_nb(word, bound):
    """sims.core.rng.below_nb's first step: the top 32 bits of ``word`` times ``bound``
    (a 32x32-bit product, which vectorizes); its top half is the draw unless it rejects."""
    return U64(np.uint32(word >> U64(32))) * U64(bound)


@njit(cache=True, inline="always")
def _may_reject_nb(product, bound):
    """1 when the low half of ``product`` is below ``bound``, where below_nb may reject."""
    return U64(np.int64(product & _LOW32) < np.int64(bound))


@njit(cache=True, inline="always")
def _min_nb(a, b):
    return a if a < b else b


@njit(cache=True, inline="always")
def _rank_of_code_nb(code, ace_high):
    """The rank of card ``code`` (0..51, a byte): its face (code % 13) or with ``ace_high``
    (0 or 1) the face one lower, the ace top.  In bytes throughout, with wrapping
    subtractions: ``min(x, x - 13)`` is ``x - 13`` when ``x >= 13``, else ``x`` (the
    subtraction wraps above 242), so the compiler keeps 32 lanes in a vector."""
    face = _min_nb(code, U8(code - U8(13)))
    face = _min_nb(face, U8(face - U8(13)))
    face = _min_nb(face, U8(face - U8(13)))
    return _min_nb(U8(face + U8(12) * ace_high), U8(face - ace_high))


@njit(cache=True, nogil=True, _nrt=False)
def deal_lanes_nb(lanes, width, cards, ace_high):
    """The ranks of the first ``cards`` cards of each lane's Fisher-Yates deal into ``rank``
    (from ``draw``).  Card k is the card at position ``p = k + draw``: the one the latest
    earlier draw placed there, else code ``p``; the card at position k moves to ``p``."""
    for k in range(cards):
        own = _rank_of_code_nb(U8(k), ace_high)  # position k's card if no draw took position k
        for h in range(width):
            p = U8(U8(k) + lanes.draw[U64(k * WIDTH + h)])
            lanes.position[U64(k * WIDTH + h)] = p
            lanes.found[h] = _rank_of_code_nb(p, ace_high)
            lanes.moved[h] = own
        for i in range(k):
            for h in range(width):
                taken = lanes.position[U64(i * WIDTH + h)]
                placed = lanes.placed[U64(i * WIDTH + h)]
                p = lanes.position[U64(k * WIDTH + h)]
                found = lanes.found[h]
                moved = lanes.moved[h]
                lanes.found[h] = placed if taken == p else found
                lanes.moved[h] = placed if taken == U8(k) else moved
        for h in range(width):
            lanes.rank[U64(k * WIDTH + h)] = lanes.found[h]
            lanes.placed[U64(k * WIDTH + h)] = lanes.moved[h]


@njit(cache=True, nogil=True, _nrt=False)
def play_lanes_nb(lanes, width, m, dealer_king_block):
    """The round of each lane among ``m`` positions from the dealt ``rank`` rows: the final
    ranks into ``held``, the exchanges into ``exchanged``, the lowest rank into ``lowest``.
    Every step is a select, so the compiler vectorizes each loop over the lanes."""
    top = U8(TOP_RANK)
    for h in range(width):
        lanes.travelling[h] = lanes.rank[U64(h)]
        lanes.lowest[h] = top
    for k in range(m - 1):
        threshold = lanes.threshold[k]
        uninformed = U8(1) - lanes.informed[k]
        for h in range(width):
            card = lanes.travelling[h]  # position k holds it when its turn comes
            target = lanes.rank[U64((k + 1) * WIDTH + h)]
            dealt = lanes.rank[U64(k * WIDTH + h)]  # position k's own card: what it gave if it received `card`
            lowest = lanes.lowest[h]
            swap = U8(card < threshold) & (U8(card <= dealt) | uninformed) & U8(target != top)
            kept = target if swap != 0 else card
            lanes.travelling[h] = card if swap != 0 else target
            lanes.held[U64(k * WIDTH + h)] = kept
            lanes.exchanged[U64(k * WIDTH + h)] = swap
            lanes.lowest[h] = kept if kept < lowest else lowest
    dealer = m - 1
    threshold = lanes.threshold[dealer]
    informed = lanes.informed[dealer]
    block = U8(1 if dealer_king_block else 0)
    for h in range(width):
        card = lanes.travelling[h]
        dealt = lanes.rank[U64(dealer * WIDTH + h)]
        cut_card = lanes.rank[U64(m * WIDTH + h)]
        lowest = lanes.lowest[h]
        received = lanes.exchanged[U64((dealer - 1) * WIDTH + h)] & informed
        by_rule_a = U8(card < dealt)
        by_threshold = U8(card < threshold)
        cut = by_rule_a if received != 0 else by_threshold
        take = cut & (U8(cut_card != top) | (U8(1) - block))
        kept = cut_card if take != 0 else card
        lanes.held[U64(dealer * WIDTH + h)] = kept
        lanes.exchanged[U64(dealer * WIDTH + h)] = take
        lanes.lowest[h] = kept if kept < lowest else lowest


@njit(cache=True, nogil=True, _nrt=False)
def count_lanes_nb(lanes, width, m):
    """Add each lane's losers and exchanges to its byte counters."""
    for h in range(width):
        lanes.losers[h] = 0
    for k in range(m):
        for h in range(width):
            lose = U8(lanes.held[U64(k * WIDTH + h)] == lanes.lowest[h])
            lanes.losers[h] += lose
            lanes.lose_count[U64(k * WIDTH + h)] += lose
            lanes.exchange_count[U64(k * WIDTH + h)] += lanes.exchanged[U64(k * WIDTH + h)]
    for h in range(width):
        losers = np.uint32(lanes.losers[h])
        lanes.losers_count[h] += losers
        lanes.losers_sq_count[h] += losers * losers
        lanes.no_loser_count[h] += np.uint32(losers == 0)


@njit(cache=True, nogil=True, _nrt=False)
def flush_lanes_nb(lanes, m, lose_sum, exchange_sum):
    """Add the byte counters to ``lose_sum`` and ``exchange_sum`` (per position) and zero
    them; return the sums of the losers, their squares and the hands without one."""
    for k in range(m):
        lost = 0
        exchanges = 0
        for h in range(WIDTH):
            lost += lanes.lose_count[U64(k * WIDTH + h)]
            exchanges += lanes.exchange_count[U64(k * WIDTH + h)]
            lanes.lose_count[U64(k * WIDTH + h)] = 0
            lanes.exchange_count[U64(k * WIDTH + h)] = 0
        lose_sum[k] += lost
        exchange_sum[k] += exchanges
    losers = losers_sq = no_loser = 0
    for h in range(WIDTH):
        losers += lanes.losers_count[h]
        losers_sq += lanes.losers_sq_count[h]
        no_loser += lanes.no_loser_count[h]
        lanes.losers_count[h] = 0
        lanes.losers_sq_count[h] = 0
        lanes.no_loser_count[h] = 0
    return losers, losers_sq, no_loser
