"""Canonical card encoding and dealing, shared by every game kernel.

A card is an integer ``code = suit * 13 + face`` with suits clubs, diamonds, hearts,
spades (0..3) and faces ace, 2, ..., 10, jack, queen, king (0..12).  Each game maps faces
to its own rank order with a small table.

Dealing is a forward Fisher-Yates shuffle of the 52-card pack: position ``k`` receives
the card at ``k + below(52 - k)``.  The first ``m`` positions of a full
shuffle depend only on its first ``m`` draws, so :func:`deal_prefix_nb` draws just the
cards a hand needs (the deal and any cut or stock cards, always in that order).  The
result is the same as slicing a full shuffle, at a fraction of the cost.
"""

from __future__ import annotations

import numpy as np

from sims.core.jit import njit
from sims.core.rng import below_nb

N_CARDS = 52
N_FACES = 13
ACE, JACK, QUEEN, KING = 0, 10, 11, 12


# Kernels keep their scratch in named, typed arrays: a game's ``TABLE`` is a structured
# dtype (one field per quantity, laid out by NumPy), and a block's scratch is one record of
# it.  The rules of the pattern, found by measurement:
#   - A record costs nothing to pass around: Numba passes it as one pointer and keeps no
#     reference count for it, and each field's address and size are constants from it.
#   - For the same reason a record must come from an array that outlives its use: the
#     loops take the one-record array ``tables`` as an argument (their caller holds it),
#     are compiled without NRT, and work on ``table = tables[0]``.
#   - Field sizes are multiples of 4 entries: LLVM vectorizes short loops over several
#     fields only when their distance apart is a multiple of the vector width.
# The pack being shuffled is one of the fields, a 52-entry array that the functions below
# shuffle in place.  All-Fours and Spoil Five keep a flat int64 workspace of 52-entry rows
# instead (a record cost them 2-3% more instructions per hand: LLVM keeps more addresses
# live in their trick loops): its first row is the pack (so the same functions take it),
# the next the deal, then the game's rows: ``work[HELD_ROW + k]`` is entry ``k`` of the
# row at ``HELD_ROW``.
ROW = N_CARDS
DECK_ROW = 0 * ROW  # the pack being shuffled
DEAL_ROW = 1 * ROW  # the cards dealt
FIRST_GAME_ROW = 2 * ROW


@njit(cache=True)
def new_pack_nb():
    """The 52-card pack in code order (int64)."""
    return np.arange(N_CARDS, dtype=np.int64)


@njit(cache=True, inline="always")
def deal_prefix_nb(pack, dealt, m, state):
    """Deal the first ``m`` cards of a Fisher-Yates shuffle drawn from ``state`` into
    ``dealt[0 .. m-1]``, shuffling ``pack`` (52 entries) in place; return the advanced state.

    The pack is first reset to code order (52 stores that the compiler turns into a few
    vector stores, cheaper than logging and undoing the exchanges).
    """
    for card in range(N_CARDS):
        pack[card] = card
    for k in range(m):
        j, state = below_nb(state, N_CARDS - k)
        j += k
        card = pack[j]
        pack[j] = pack[k]
        pack[k] = card
        dealt[k] = card
    return state


@njit(cache=True, inline="always")
def reset_pack_nb(pack, order):
    """Put ``pack`` back in "code order": the 52 entries of ``order`` (a game's cards in
    code order, in whatever encoding it deals).  Pass a module-level array for ``order``:
    Numba freezes it into a constant, so the copy becomes a few vector stores of
    constants; from an array LLVM cannot tell apart from the pack it stays a scalar loop
    (about 50 more instructions per call)."""
    for k in range(N_CARDS):
        pack[k] = order[k]


@njit(cache=True, inline="always")
def draw_nb(pack, top, size, shuffle, state):
    """Draw the card at position ``top`` of a pack of ``size`` cards: first swap it with
    position ``top + below(size - top)`` (one lazy Fisher-Yates step, so the first draws
    from a full pack are :func:`deal_prefix_nb`'s), or with nothing when ``shuffle`` is
    false (a stacked pack).  Returns ``(card, top + 1, state)``."""
    # Unsigned positions spare Numba's negative-index checks.  Position `top` is never
    # read again (draws only look above it), so the drawn card is not stored back.
    here = np.uint64(top)
    there = here
    if shuffle:
        k, state = below_nb(state, size - top)
        there = here + np.uint64(k)
    card = pack[there]
    pack[there] = pack[here]
    return card, top + 1, state


def deal_prefix(stream, m: int) -> list[int]:
    """Plain-Python :func:`deal_prefix_nb` on a :class:`sims.core.rng.Stream`."""
    deck = list(range(N_CARDS))
    for k in range(m):
        j = k + stream.below(N_CARDS - k)
        deck[k], deck[j] = deck[j], deck[k]
    return deck[:m]


def stacked_pack(cards) -> list[int]:
    """A stacked pack for a test or a replay: ``cards`` on top in draw order, then every
    other card in code order.  Raises ``ValueError`` unless the cards are distinct codes
    0..51."""
    try:
        cards = [int(c) for c in cards]
    except (TypeError, ValueError):
        raise ValueError("the stacked cards must be distinct card codes 0..51.") from None
    if len(set(cards)) != len(cards) or any(not 0 <= c < N_CARDS for c in cards):
        raise ValueError("the stacked cards must be distinct card codes 0..51.")
    listed = set(cards)
    return cards + [c for c in range(N_CARDS) if c not in listed]
