"""What the slow twins share: each game folder's ``twin.py`` (a plain-Python player, equal
to the kernel on the same streams) and ``exact.py`` (an exact enumerator for small tables)
sum their outcome rows and draw their packs with these helpers.  Plain Python: no kernel
uses this module, so it is left out of the kernel hash (``sims.engine.kernel_hash``)."""

from __future__ import annotations

import numpy as np


def sum_outcome_rows(play, outcomes, rules, policy, n_seats: int, seed: int, first: int, count: int) -> np.ndarray:
    """Sum ``play(rules, policy, n_seats, seed, index) -> (seat_rows, table_row)`` over
    indices ``first .. first+count-1`` into the kernels' int64 layout: rows 0..n-1 the
    per-seat sums, row n the table sums, ``max(len(seat), len(table))`` columns (exact
    Python integers when the outcomes have wide columns, and maxima where declared)."""
    out = outcomes.zeros(n_seats)
    for index in range(first, first + count):
        seat_rows, table_row = play(rules, policy, n_seats, seed, index)
        one = outcomes.zeros(n_seats)
        one[:n_seats, : len(outcomes.seat)] = np.asarray(seat_rows, dtype=one.dtype)
        one[n_seats, : len(outcomes.table)] = np.asarray(table_row, dtype=one.dtype)
        out = outcomes.combine(out, one) if index > first else one
    return out


class Pack:
    """A pack drawn from the top; with a stream every draw is one lazy Fisher-Yates step
    (the twins' counterpart of ``sims.core.deck.draw_nb``)."""

    __slots__ = ("cards", "t", "stream")

    def __init__(self, cards, stream=None):
        self.cards = list(cards)
        self.t = 0
        self.stream = stream

    def left(self) -> int:
        return len(self.cards) - self.t

    def draw(self) -> int:
        t, cards = self.t, self.cards
        if t >= len(cards):
            raise RuntimeError("drew from an empty pack")  # the deal logic never does
        if self.stream is not None:
            j = t + self.stream.below(len(cards) - t)
            cards[t], cards[j] = cards[j], cards[t]
        self.t = t + 1
        return cards[t]

    def renew(self, pile) -> None:
        """The pile, in pile order, becomes the new pack (drawing goes on at t = 0)."""
        self.cards = list(pile)
        self.t = 0
