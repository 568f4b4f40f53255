"""Chase the Ace: decision guides (sims.core.guide), swap or keep by seat and card.

swap-8               every seat of the default table of 8 (rows; the dealer's cut-or-keep
                     the last row) by the card held (columns A..Q), nobody having swapped
                     with it before its turn.
after-swap-8         seat 3 (a middle seat) right after its right-hand neighbour swapped
                     with it: rows by the card it gave, columns by the card it received.
dealer-after-swap-8  the same for the dealer's cut-or-keep after the last player swapped.

After a swap the rows are the card given and the columns the card received, so that a row
reads like the first guide's (low to high card held, the swap-or-keep boundary inside it),
and the columns stop at 7: under the default policy a neighbour asks to swap only holding
7 or lower.  The card given matters little once it is 8 or higher (within a thousandth), so
8 to Q share one row.  Declarations only (no kernel reads this module).
"""

from __future__ import annotations

from sims.core.guide import Cell, Guide

PLAYERS = 8  # the game's default table
DEALER = PLAYERS - 1
FACES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")  # no K: its holder must keep
LOW = FACES[:7]  # what a right-hand neighbour can pass you under the default policy (it swaps on 7 or lower)
HELD = "h"  # the suit of the card held (suits never matter)
GIVEN = "c"  # the suit of the card given, so that a tie in rank is a different card
MIDDLE = 3  # the seat of the guide after a swap from the right: a middle seat


def _seat_label(seat: int) -> str:
    if seat == 0:
        return "seat 0 (eldest)"
    if seat == DEALER:
        return f"seat {seat} (dealer: cut)"
    if seat == DEALER - 1:
        return f"seat {seat} (dealer's right)"
    return f"seat {seat}"


def _by_seat() -> tuple:
    return tuple((_seat_label(seat), tuple(Cell(seat, face + HELD) for face in FACES)) for seat in range(PLAYERS))


GIVEN_ROWS = LOW + ("8 to Q",)  # the card given; 8 to Q give the same answers, played with a 10
GIVEN_CARD = {label: label for label in LOW} | {"8 to Q": "10"}


def _after_swap(seat: int, certain_keep: bool) -> tuple:
    """Rows by the card given to the right-hand neighbour, columns by the card it passed
    back (A..7).  ``certain_keep``: leave out the cells where the card received is higher
    than the card given (the dealer then cannot lose by keeping)."""
    rows = []
    for label in GIVEN_ROWS:
        given = GIVEN_CARD[label]
        cells = tuple(
            None
            if certain_keep and FACES.index(held) > FACES.index(given)
            else Cell(seat, held + HELD, {"gave": given + GIVEN})
            for held in LOW
        )
        rows.append((f"gave {label}", cells))
    return tuple(rows)


GUIDES = (
    Guide(
        name="swap-8",
        title="Swap or keep, 8 players: by seat and card held (no swap from the right)",
        text=(
            "Each cell is one player's turn at a table of 8 (seat 0 is the dealer's left, seat 7 the dealer, "
            "who keeps or cuts the pack instead of swapping), holding the card of its column, when nobody "
            "exchanged with it before its turn (its right-hand neighbour kept; seat 0's is the dealer, who "
            "moves last); what the earlier players did is not used. Every other seat plays the default "
            "policy (swap on 7 or lower, keep after a favourable swap from the right; the dealer cuts on 7 or "
            "lower). The cell "
            "shows the action with the lower chance of losing a life and by how much it beats the other "
            "(the paired difference of the two actions on the same deals, \u00b1 its standard error), or a tie. "
            "Suits never matter; the king has no column because its holder must keep."
        ),
        row_title="seat (turn order)",
        column_title="card held",
        columns=FACES,
        rows=_by_seat(),
        players=PLAYERS,
        deals=150_000,
        verdict="From seat 0 with 8 players",
        lead_row=0,
    ),
    Guide(
        name="after-swap-8",
        title="Swap or keep after a swap from the right, 8 players: seat 3 by card given and card received",
        text=(
            "Each cell is seat 3's turn at a table of 8 right after its right-hand neighbour (seat 2) swapped "
            "with it: seat 3 gave the card of the row and now holds the card of the column, and knows seat 2 "
            "keeps that old card to the showdown (seat 2 cannot move again); seat 4 may still ask seat 3 for its "
            "card. The columns stop at 7 because under the default policy a neighbour only asks to swap holding "
            "7 or lower. The row 8 to Q is played with a 10 given (8, 9, J and Q give the same answers within "
            "a thousandth); a card given of the same rank as the one held is another suit (a tie with seat 2). "
            "Every other seat plays the default policy (swap on 7 or lower, keep after a favourable swap from "
            "the right; the dealer cuts on 7 or lower, or after a swap exactly when it got the worse card). The "
            "cell shows the action with the lower chance of losing a life and by how much it beats the other "
            "(paired difference on the same deals, \u00b1 its standard error), or a tie. Seat 3 stands for a middle "
            "seat, with four players still to move after it."
        ),
        row_title="card given to seat 2",
        column_title="card received",
        columns=LOW,
        rows=_after_swap(MIDDLE, certain_keep=False),
        players=PLAYERS,
        deals=60_000,
        verdict="From seat 3 of 8 after seat 2 swapped with it, taking an 8 to Q",
        lead_row=len(GIVEN_ROWS) - 1,
    ),
    Guide(
        name="dealer-after-swap-8",
        title="Cut or keep after a swap from the right, 8 players: the dealer by card given and card received",
        text=(
            "Each cell is the dealer's turn (seat 7) at a table of 8 right after seat 6 swapped with it: the "
            "dealer gave the card of the row and now holds the card of the column, and knows seat 6 holds the "
            "card given. Where the card received is higher than the card given the cell is empty: keeping "
            "cannot lose then (seat 6 holds a lower card and nobody moves after the dealer). The columns stop at "
            "7 because under the default policy seat 6 only asks to swap holding 7 or lower; the row 8 to Q is "
            "played with a 10 given (8, 9, J and Q give the same answers within a thousandth); a card given of "
            "the same rank as the one held is another suit. Every other "
            "seat plays the default policy (swap on 7 or lower, keep after a favourable swap from the right). "
            "The cell shows the action with the lower chance of losing a life and by how much it beats the "
            "other (paired difference on the same deals, \u00b1 its standard error), or a tie; a cut king is "
            "shown and the dealer keeps its card."
        ),
        row_title="card given to seat 6",
        column_title="card received",
        columns=LOW,
        rows=_after_swap(DEALER, certain_keep=True),
        players=PLAYERS,
        deals=50_000,
        verdict="The dealer with 8 players after seat 6 swapped with it, taking an 8 to Q",
        lead_row=len(GIVEN_ROWS) - 1,
    ),
)
