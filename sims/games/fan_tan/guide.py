"""Fan Tan's decision guide (sims/core/guide.py): which seven to open with, by the shape
of the two suits whose sevens the hand holds, from each seat of 4 at its first turn."""

from __future__ import annotations

from sims.core.guide import Cell, Guide

# The columns: each seat's first turn at 4 players when seat 0 opens with 7c and the
# next seats play on down in clubs (what the default policy, the first legal card in
# code order, plays when it holds those cards).
SEATS = (
    ("seat 0 (opens)", 0, ""),
    ("seat 1 (after 7c)", 1, "7c"),
    ("seat 2 (after 7c 6c)", 2, "7c 6c"),
    ("seat 3 (after 7c 6c 5c)", 3, "7c 6c 5c"),
)

# The rest of each hand, taken in this order up to 13 cards: no seven, and no club that
# is playable at any of the columns' turns (6c 8c 5c 9c 4c), so that the choice is only
# between the two sevens.
FILLER = ("2c", "Jc", "Kc", "3s", "Js", "Qs", "Ks", "10c", "2s")

# (row label, the diamonds and hearts of the hand)
SHAPES = (
    ("7d with 8d 9d 10d; 7h bare", "7d 8d 9d 10d 7h"),
    ("7d with 6d 8d; 7h bare", "7d 6d 8d 7h"),
    ("7d with Ad 2d Qd Kd; 7h bare", "7d Ad 2d Qd Kd 7h"),
    ("7d with 8d 9d 10d; 7h with 6h 8h", "7d 8d 9d 10d 7h 6h 8h"),
    ("7d with 6d 8d; 7h with Ah 2h Qh Kh", "7d 6d 8d 7h Ah 2h Qh Kh"),
    ("7d with 8d 9d 10d; 7h with Ah 2h Qh Kh", "7d 8d 9d 10d 7h Ah 2h Qh Kh"),
    ("7d with Ad 2d Qd Kd; 7h with 6h 8h", "7d Ad 2d Qd Kd 7h 6h 8h"),
)


def _hand(core: str) -> str:
    cards = core.split()
    return " ".join(cards + list(FILLER[: 13 - len(cards)]))


def _row(label: str, core: str):
    hand = _hand(core)
    return label, tuple(Cell(seat, hand, {"plays": plays} if plays else {}) for _, seat, plays in SEATS)


OPEN_SEVEN = Guide(
    name="open-seven-4",
    title="Which seven to play first, 4 players: by the shape of the two sevens' suits and by seat",
    text=(
        "Each cell is a seat's first turn at 4 players holding two sevens, 7d and 7h, each beside a shape of its "
        "own suit: bare (no other card of the suit), the cards that follow it up (8 9 10), the cards next to it "
        "(6 and 8), or the far ends (A 2 Q K); the cell shows the seven to play and by how much it beats the "
        "other in chips won over the whole hand (net, the paired difference on the same deals ± its standard "
        "error), and the chance of going out first with it. Seat 0 opens the hand; seats 1, 2 and 3 play after "
        "seat 0 opened with 7c and the next seats played 6c and 5c, the cards every seat plays under the default "
        "policy: all four seats, the advised one too after this card, play their first legal card in code order "
        "(clubs, then diamonds, hearts, spades, A to K), and the unseen cards are dealt at random consistent with "
        "the plays. Every hand is the two sevens' suits as the row says, filled up to 13 cards from 2c Jc Kc 3s "
        "Js Qs Ks 10c 2s in that order (no other seven, and no club playable at these turns); read 7d and 7h as "
        "any two sevens of yours, remembering that under the default policy the others play clubs and diamonds "
        "before hearts and spades."
    ),
    row_title="the two sevens' suits",
    column_title="seat and plays before its turn",
    columns=tuple(label for label, _, _ in SEATS),
    rows=tuple(_row(label, core) for label, core in SHAPES),
    players=4,
    deals=400_000,
    verdict="With 7d beside Ad 2d Qd Kd and 7h beside 6h 8h at 4 players, play first",
    lead_row=6,
    actions={"play 7d": "7d", "play 7h": "7h"},
    also="win",
)

GUIDES = (OPEN_SEVEN,)
