"""Trick-taking helpers shared by the trick games (Fight for the Lead, All-Fours, Spoil
Five, Five Hundred).  Game-agnostic: a game describes one deal's context with masks and a
strength table, and these functions apply the laws of play.

Representation
  A set of cards is a 64-bit mask: bit ``code`` is set for each card code it holds (codes
  0..51 as in :mod:`sims.core.deck`; a game with jokers may use bits 52 and 53).  A game
  builds, for each deal, the mask of every *effective* suit (so a 500 left bower sits in
  the trump suit's mask and not in its printed suit's, and Spoil Five's ace of hearts sits
  in the trump mask) and a ``strength`` table: a higher number beats a lower one within a
  suit and among trumps.

Laws of play (``legal_cards_nb``)
  FOLLOW_SUIT: a player holding a card of the suit led must play one; otherwise any card.
  FOLLOW_OR_TRUMP: when a plain suit is led, a player holding a card of it must play a
    card of that suit or a trump (another plain suit only when void in the suit led);
    when trumps are led, a player holding a trump must play a trump (any trump), except
    that the cards in ``renege`` (privileged trumps that outrank the led card, as the game
    computes them) may be held back: if the only trumps held are such cards, any card
    may be played.  With no trump suit, this is the same as FOLLOW_SUIT.
  Whoever leads may play any card.

Winning a trick (``trick_winner_nb``)
  The highest-strength trump played wins; with no trump played, the highest-strength card
  of the suit led.  Cards of other suits never win.

Ranked layout (the fast path)
  A game may instead give each card a bit ``16 * effective_suit + order``, where
  ``order`` (0..15) increases with the card's strength inside its effective suit (Fight
  for the Lead: 2 = 0 ... A = 12).  Bit order is then strength order within a suit, so
  the helpers below answer "the lowest card", "the cheapest card that beats this one" or
  "who wins" with a few bit operations and no strength table.  ``RANK_COLUMN << order``
  is the mask of one order in every suit.  Functions taking a mask need it non-empty.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from sims.core.jit import njit

FOLLOW_SUIT, FOLLOW_OR_TRUMP = range(2)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
RANKED_SUIT = np.uint64(0xFFFF)  # suit s of the ranked layout: RANKED_SUIT << 16 * s
RANK_COLUMN = np.uint64(0x0001000100010001)
ACE_HIGH_CARDS = np.uint64(0x1FFF) * RANK_COLUMN  # the 52 bits of a 13-card-suit ranked layout
_S16, _S32, _S48, _63 = np.uint64(16), np.uint64(32), np.uint64(48), np.uint64(63)


@njit(cache=True)
def cards_mask_nb(codes, n):
    """The mask of the first ``n`` card codes in ``codes``."""
    mask = _ZERO
    for i in range(n):
        mask |= _ONE << np.uint64(codes[i])
    return mask


@intrinsic
def _popcount(typingctx, mask):
    """LLVM's ctpop: one instruction on CPUs that have it."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return mask(mask), codegen


@njit(cache=True, inline="always")
def count_cards_nb(mask):
    """How many cards a mask holds."""
    return np.int64(_popcount(mask))


@njit(cache=True)
def legal_cards_nb(hand, led, trump, law, renege):
    """The mask of the cards ``hand`` may play to a trick whose led suit has mask ``led``
    (0 when leading).  ``trump`` is the trump suit's mask (0 with no trumps); ``renege``
    the privileged trumps this player may hold back when trumps are led."""
    if led == _ZERO:
        return hand
    if law == FOLLOW_OR_TRUMP and trump != _ZERO:
        if led == trump:
            # Holding a trump that may not be held back forces a trump, any trump.
            return hand & trump if hand & trump & ~renege else hand
        if hand & led:
            return hand & (led | trump)
        return hand
    follow = hand & led
    return follow if follow != _ZERO else hand


@njit(cache=True)
def trick_winner_nb(played, n, led, trump, strength):
    """Index in ``played[:n]`` (card codes in playing order) of the card that wins: the
    strongest trump if any was played, else the strongest card of the led suit."""
    best = -1
    best_strength = -1
    best_is_trump = False
    for i in range(n):
        bit = _ONE << np.uint64(played[i])
        is_trump = (bit & trump) != _ZERO
        if not is_trump and (bit & led) == _ZERO:
            continue
        s = strength[played[i]]
        if (is_trump and not best_is_trump) or (is_trump == best_is_trump and s > best_strength):
            best, best_strength, best_is_trump = i, s, is_trump
    return best


@njit(cache=True)
def strongest_nb(mask, strength):
    """The card code in ``mask`` with the highest strength (ties: the lower code); -1 if empty."""
    best = -1
    best_strength = -(1 << 62)
    while mask:
        code = _lowest_code(mask)
        mask &= mask - _ONE
        if strength[code] > best_strength:
            best, best_strength = code, strength[code]
    return best


@njit(cache=True)
def weakest_nb(mask, strength):
    """The card code in ``mask`` with the lowest strength (ties: the lower code); -1 if empty."""
    best = -1
    best_strength = 1 << 62
    while mask:
        code = _lowest_code(mask)
        mask &= mask - _ONE
        if strength[code] < best_strength:
            best, best_strength = code, strength[code]
    return best


@njit(cache=True, inline="always")
def _lowest_code(mask):
    code = 0
    while not (mask >> np.uint64(code)) & _ONE:
        code += 1
    return code


# ------------------------------------------------------------------- ranked layout


@njit(cache=True, inline="always")
def lowest_bit_nb(mask):
    """The lowest set bit of a non-empty mask (in the ranked layout: the weakest card of
    the lowest suit present)."""
    return np.uint64(trailing_zeros(mask))


@njit(cache=True, inline="always")
def highest_bit_nb(mask):
    """The highest set bit of a non-empty mask."""
    return _63 - np.uint64(leading_zeros(mask))


@njit(cache=True, inline="always")
def orders_held_nb(mask):
    """Ranked layout: the 16-bit set of orders held in any suit."""
    return (mask | (mask >> _S16) | (mask >> _S32) | (mask >> _S48)) & RANKED_SUIT


@njit(cache=True, inline="always")
def lowest_card_nb(mask):
    """Ranked layout: the card of lowest order in a non-empty mask, ties to the lower suit."""
    return lowest_bit_nb(mask & (RANK_COLUMN << lowest_bit_nb(orders_held_nb(mask))))


@njit(cache=True, inline="always")
def highest_card_nb(mask):
    """Ranked layout: the card of highest order in a non-empty mask, ties to the lower suit."""
    return lowest_bit_nb(mask & (RANK_COLUMN << highest_bit_nb(orders_held_nb(mask))))


@njit(cache=True, inline="always")
def suit_of_bit_nb(bit):
    """Ranked layout: the mask of the whole suit of a bit."""
    return RANKED_SUIT << (bit & np.uint64(0x30))


_MOVES_1, _MOVES_2, _MOVES_4, _MOVES_8 = (~(np.uint64((1 << k) - 1) * RANK_COLUMN) for k in (1, 2, 4, 8))


@njit(cache=True, inline="always")
def tops_of_suits_nb(cards, others):
    """Ranked layout: the cards of ``cards`` that rank above every card of ``others`` of
    their own suit (with ``others`` the cards still unseen, the sure winners of a suit)."""
    # Smear each suit's `others` down to the suit's lowest order, and keep what lies above.
    # (A bit only moves when it stays inside its suit, hence the masks.)
    below = others
    below |= (below & _MOVES_1) >> np.uint64(1)
    below |= (below & _MOVES_2) >> np.uint64(2)
    below |= (below & _MOVES_4) >> np.uint64(4)
    below |= (below & _MOVES_8) >> np.uint64(8)
    return cards & ~below


@njit(cache=True, inline="always")
def above_nb(bit):
    """The mask of every bit above ``bit`` (in the ranked layout, within its suit when
    intersected with that suit's mask)."""
    return ~((_ONE << bit) | ((_ONE << bit) - _ONE))


@njit(cache=True, inline="always")
def ranked_beats_nb(card, best, led, trump):
    """Ranked layout: does ``card`` beat the card ``best`` now winning a trick whose led
    suit has mask ``led`` (trump suit mask ``trump``, 0 with no trumps)?"""
    card_bit = _ONE << card
    best_bit = _ONE << best
    if card_bit & trump:
        return not (best_bit & trump) or card > best
    return (card_bit & led) != _ZERO and not (best_bit & trump) and card > best


# Card code -> ranked bit for the games that rank A (high) K Q J 10 ... 2 in every suit
# (Fight for the Lead, All-Fours): bit = 16 * suit + order, the 2 = order 0 ... the ace = 12.
ACE_HIGH_BIT = np.array([16 * (code // 13) + (code % 13 + 12) % 13 for code in range(52)], dtype=np.int64)
ACE_HIGH_CODE = {int(bit): code for code, bit in enumerate(ACE_HIGH_BIT)}  # plain Python: bit -> card code


def suit_masks(suit_of) -> np.ndarray:
    """Plain Python: the four suit masks from a per-card effective suit table (-1 = none)."""
    masks = np.zeros(4, dtype=np.uint64)
    for code, suit in enumerate(suit_of):
        if suit >= 0:
            masks[suit] |= np.uint64(1 << code)
    return masks
