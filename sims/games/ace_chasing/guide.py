"""Ace Chasing: decision guides (sims.core.guide), swap or keep by seat and card held.

Declarations only (no kernel reads this module).
"""

from __future__ import annotations

from sims.core.guide import Cell, Guide

PLAYERS = 8  # the game's default table
MATADOR = PLAYERS - 1  # seat 7 makes no decision
RIGHT = MATADOR - 1  # seat 6, the matador's right: the decision matador_right
FACES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")  # low to high (A lowest)
LOW = FACES[:7]  # what a right-hand neighbour passes you under the default policy (it swaps on 7 or lower)
HELD = "h"  # the suit of the card held
GIVEN = "9c"  # the card given to the right-hand neighbour's swap: a middling card of another suit


def _seat_label(seat: int) -> str:
    if seat == 0:
        return "seat 0 (matador's left)"
    if seat == RIGHT:
        return f"seat {seat} (matador's right)"
    return f"seat {seat}"


def _kept(seat: int) -> tuple:
    """Every card held, nobody swapped with the seat (its dealt card)."""
    return tuple(Cell(seat, face + HELD) for face in FACES)


def _received(seat: int) -> tuple:
    """The cards a right-hand neighbour passes under the default policy (A to 7): seat 0
    was dealt it and every seat from 0 to seat-1 swapped, so it ran along the chain; the
    seat gave GIVEN."""
    return tuple(
        Cell(seat, face + HELD, {"gave": GIVEN, "earlier": "s" * seat}) if face in LOW else None for face in FACES
    )


_COMMON = (
    "Every other seat plays the default policy (swap on 7 or lower, always pass an ace on; no bets) under "
    "the standard rules, so a low card once passed runs on along the chain to the matador: every later seat "
    "passes it again. The outcome is the chance of being exposed (eliminated) this round. A cell shows the "
    "action with the lower chance and by how much it beats the other (the paired difference of the two "
    "actions on the same deals, \u00b1 its standard error), or a tie. The card held is a heart: suits matter "
    "only through aces (a face-up ace exposes every holder of its suit), so any other suit reads the same."
)

GUIDES = (
    Guide(
        name="swap-8",
        title="Swap or keep, 8 players: by seat and card held (nobody swapped with you)",
        text=(
            "Each cell is one non-matador's turn at a table of 8 (seat 0 is the matador's left, seat 7 the "
            "matador, who makes no decision; seat 6, the matador's right, has its own guide) holding the card "
            "of its column, its dealt card: nobody swapped with it (its right-hand neighbour kept, which under "
            "the default policy means every earlier seat was dealt 8 or higher and kept). Swap hands your card "
            "to your left-hand neighbour, who must accept, and takes theirs. " + _COMMON
        ),
        row_title="seat (turn order)",
        column_title="card held",
        columns=FACES,
        rows=tuple((_seat_label(seat), _kept(seat)) for seat in range(RIGHT)),
        players=PLAYERS,
        deals=250_000,
        verdict="From seat 0 with 8 players, nobody having swapped with you",
        lead_row=0,
    ),
    Guide(
        name="after-swap-8",
        title="Swap or keep after a swap from the right, 8 players: by seat and card received",
        text=(
            "Each cell is one non-matador's turn at a table of 8 right after its right-hand neighbour swapped "
            f"with it: the seat gave its dealt card ({GIVEN}) and now holds the card of its column, dealt to "
            "seat 0 and passed on by every seat since (the most common way a card reaches you). The columns "
            "stop at 7 because under the default policy a neighbour only swaps holding 7 or lower (an ace "
            "included); seat 0 has no row because its right-hand neighbour is the matador, and seat 6 (the "
            "matador's right) has its own guide. " + _COMMON
        ),
        row_title="seat (turn order)",
        column_title="card received",
        columns=LOW,
        rows=tuple((_seat_label(seat), _received(seat)[: len(LOW)]) for seat in range(1, RIGHT)),
        players=PLAYERS,
        deals=300_000,
        verdict="With 8 players, after a swap from the right, at seat 3",
        lead_row=2,
    ),
    Guide(
        name="matador-right-8",
        title="The matador's right, 8 players: keep or hand the matador your card, by card held",
        text=(
            "Each cell is the turn of seat 6 at a table of 8, the last non-matador: swapping hands your card to "
            "the matador and takes its dealt card, which you learn only after deciding. The first row holds its "
            "own dealt card (seat 5 kept, which under the default policy means every earlier seat was dealt 8 or "
            f"higher); the second the card seat 5 passed it after seat 6 gave {GIVEN}, dealt to seat 0 and "
            "passed on by every seat since (7 or lower under the default policy). " + _COMMON
        ),
        row_title="what came from the right",
        column_title="card held",
        columns=FACES,
        rows=(
            ("own dealt card (seat 5 kept)", _kept(RIGHT)),
            ("received from seat 5", _received(RIGHT)),
        ),
        players=PLAYERS,
        deals=40_000,
        verdict="From the matador's right with 8 players, holding your dealt card",
        lead_row=0,
    ),
)
