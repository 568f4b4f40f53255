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
from numba import njit

from sims.core.rng import below_nb

N_CARDS = 52
N_FACES = 13
ACE, JACK, QUEEN, KING = 0, 10, 11, 12


# Every kernel keeps its per-hand scratch in one flat int64 workspace made of 52-entry
# rows: the rows below, then the game's own.  A row is named by the offset where it
# starts, so ``work[HELD_ROW + k]`` is entry ``k`` of that row.  A Numba call that is not
# inlined costs about 10 ns per array argument, and indexing a 2-D array multiplies by a
# stride read at run time, so hot code takes one flat array with constant offsets.
ROW = N_CARDS
DECK_ROW = 0 * ROW  # the pack being shuffled
DEAL_ROW = 1 * ROW  # the cards dealt: deal_prefix_nb's output
FIRST_GAME_ROW = 2 * ROW


@njit(cache=True)
def new_workspace_nb(game_rows):
    """A workspace with the shared rows (pack in identity order) and ``game_rows`` more."""
    work = np.zeros(FIRST_GAME_ROW + game_rows * ROW, dtype=np.int64)
    for card in range(N_CARDS):
        work[DECK_ROW + card] = card
    return work


@njit(cache=True, inline="always")
def deal_prefix_nb(work, m, state):
    """Deal the first ``m`` cards of a Fisher-Yates shuffle drawn from ``state`` into the
    deal row (``work[DEAL_ROW + k]``, ``k < m``); return the advanced state.

    The pack row is first reset to identity order (52 stores that the compiler turns into
    a few vector stores, cheaper than logging and undoing the exchanges).
    """
    for card in range(N_CARDS):
        work[DECK_ROW + card] = card
    for k in range(m):
        j, state = below_nb(state, N_CARDS - k)
        j += k
        card = work[DECK_ROW + j]
        work[DECK_ROW + j] = work[DECK_ROW + k]
        work[DECK_ROW + k] = card
        work[DEAL_ROW + k] = card
    return state


@njit(cache=True, inline="always")
def reset_pack_nb(work, order_row):
    """Put the pack row back in "code order": the 52 entries of the row at ``order_row``
    (a game's cards in code order, in whatever encoding it deals)."""
    for k in range(N_CARDS):
        work[DECK_ROW + k] = work[order_row + k]


@njit(cache=True, inline="always")
def draw_nb(work, top, size, shuffle, state):
    """Draw the card at pack position ``top`` of a pack of ``size`` in the pack row: first
    swap it with position ``top + below(size - top)`` (one lazy Fisher-Yates step, so the
    first draws from a full pack are :func:`deal_prefix_nb`'s), or with nothing when
    ``shuffle`` is false (a stacked pack).  Returns ``(card, top + 1, state)``."""
    # Unsigned positions spare Numba's negative-index checks.  Position `top` is never
    # read again (draws only look above it), so the drawn card is not stored back.
    here = np.uint64(DECK_ROW + top)
    there = here
    if shuffle:
        k, state = below_nb(state, size - top)
        there = here + np.uint64(k)
    card = work[there]
    work[there] = work[here]
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
