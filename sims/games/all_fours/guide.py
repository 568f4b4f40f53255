"""All-Fours decision guides (sims.core.guide): the elder's stand or beg and the dealer's
give or run, by trump holding (columns) and side cards (rows).

Every cell is a literal six-card hand with the turn-up 9h (hearts proposed as trump):
the column's hearts, then the row's side cards, cut from the right to make six cards.
The rank of a plain turn-up hardly matters (turn-up 3h and 9h give the same answers
within their errors); a turned-up jack scores the dealer a point first and is left out.
"""

from __future__ import annotations

from sims.core.guide import Cell, Guide

TURNUP = "9h"

# Trump holdings (hearts), weak to strong by the elder's stand value: (label, cards).
_BEG_TRUMPS = (
    ("none", ""),
    ("4", "4h"),
    ("2", "2h"),
    ("Q", "Qh"),
    ("10", "10h"),
    ("K", "Kh"),
    ("A", "Ah"),
    ("J", "Jh"),
    ("3+6", "3h 6h"),
    ("K+4", "Kh 4h"),
)
# For the dealer, ordered by the give value: the lone king and ace run where the ten gives.
_GIVE_TRUMPS = (
    ("none", ""),
    ("4", "4h"),
    ("2", "2h"),
    ("K", "Kh"),
    ("A", "Ah"),
    ("Q", "Qh"),
    ("10", "10h"),
    ("J", "Jh"),
    ("3+6", "3h 6h"),
    ("K+4", "Kh 4h"),
)
# At 10-10 High decides, so the order is by the highest trump held.
_LAST_POINT_TRUMPS = (
    ("none", ""),
    ("4", "4h"),
    ("2", "2h"),
    ("3+6", "3h 6h"),
    ("10", "10h"),
    ("J", "Jh"),
    ("Q", "Qh"),
    ("K", "Kh"),
    ("K+4", "Kh 4h"),
    ("A", "Ah"),
)
# Side cards, the most valuable first (a hand with trumps drops the last ones).
_SIDES = (
    ("weak sides: 9 8 6 5 3 2", "9c 8d 6s 5c 3d 2s"),
    ("middling: K Q 9 7 5 4", "Kc Qd 9s 7c 5d 4s"),
    ("strong: A A 10 10 K Q", "Ac As 10d 10s Kc Qd"),
)


def _hand(trumps: str, sides: str) -> str:
    held = trumps.split()
    return " ".join(held + sides.split()[: 6 - len(held)])


def _rows(position: int, trumps, context) -> tuple:
    return tuple(
        (label, tuple(Cell(position, _hand(cards, sides), dict(context)) for _, cards in trumps))
        for label, sides in _SIDES
    )


_COMMON = (
    "Two players, the standard rules (game to 11, a gift is played with the turned-up trump, the dealer "
    "may not give the game), the turn-up 9h, so hearts are the proposed trump; what the others do is the "
    "default policy (the elder begs below trump strength 3, the dealer gives at 4 or more, both play "
    "greedy cards). A column is the hearts held (none, one card, two cards), a row the side cards that "
    "fill the hand: weak (9c 8d 6s 5c 3d 2s, no counting card), middling (Kc Qd 9s 7c 5d 4s, a king and a "
    "queen) or strong (Ac As 10d 10s Kc Qd, two aces and two tens), a hand with one trump keeping the "
    "first five of its row and one with two trumps the first four; a lone 4 stands for any lone trump "
    "from 3 to 8, and a player finds the row by the counting cards (A K Q J 10) among the side cards. "
)

GUIDES = (
    Guide(
        name="beg",
        title="Stand or beg (the elder, 0-0): by trumps held and side cards",
        text=(
            "Each cell is the elder's decision at 0-0, holding six cards and having seen the turn-up: the "
            "better of stand and beg by net points (the elder's points in the deal minus the dealer's), and "
            "by how much it beats the other (the paired difference ± its standard error, both played on "
            "the same deals of the unseen cards; after a beg the dealer gives or runs by the default "
            "policy). "
            + _COMMON
            + "A lone low trump begs and two trumps or the lone jack stand whatever the sides; the lone "
            "deuce (a sure Low) stands only with weak sides; a lone queen, ten, king or ace stands with "
            "weak or middling sides but begs with strong ones, where a run that turns up one of the side "
            "suits is worth more."
        ),
        row_title="side cards",
        column_title="hearts held (turn-up 9h)",
        columns=tuple(label for label, _ in _BEG_TRUMPS),
        rows=_rows(0, _BEG_TRUMPS, {"turnup": TURNUP}),
        players=2,
        deals=750_000,
        verdict="The elder at 0-0 with middling side cards (turn-up 9h)",
        lead_row=1,
    ),
    Guide(
        name="give",
        title="Give or run (the dealer after a beg, 0-0): by trumps held and side cards",
        text=(
            "Each cell is the dealer's decision at 0-0 after the elder begged, holding six cards and "
            "having seen the turn-up: the better of give and run by net points (the dealer's points in the "
            "deal minus the elder's, the gift included), and by how much it beats the other (paired "
            "difference ± standard error). The beg is public, so only deals where the elder's default "
            "policy begs are played: the elder holds no heart, one heart below the king, or two hearts "
            "below the ten. "
            + _COMMON
            + "The dealer runs with no trump, a lone low trump, and a lone queen, king or ace (High or a "
            "new trump serves it better than a gift); it gives with the lone jack and with two trumps; the "
            "lone ten gives with weak sides, only just with middling ones, and runs with strong ones, "
            "where every lone honour but the jack runs."
        ),
        row_title="side cards",
        column_title="hearts held (turn-up 9h)",
        columns=tuple(label for label, _ in _GIVE_TRUMPS),
        rows=_rows(1, _GIVE_TRUMPS, {"turnup": TURNUP}),
        players=2,
        deals=750_000,
        verdict="The dealer at 0-0 with middling side cards after a beg (turn-up 9h)",
        lead_row=1,
    ),
    Guide(
        name="beg-10-10",
        title="Stand or beg at 10-10, the next point wins (the elder): by trumps held and side cards",
        text=(
            "Each cell is the elder's decision at 10-10 in a game to 11, where the first point scored wins: "
            "a beg cannot be given (the dealer may not give the game), so the dealer runs the cards and "
            "wins on a turned-up jack. The scores given, the advice ranks by the chance of winning the game: "
            "the better action is the one that wins more often, its margin ± standard error in that chance "
            "(net points are about 2 x (win probability) - 1, void deals, about 1 run in 3,000, aside); "
            "each cell also shows the best action's win probability. "
            + _COMMON
            + "Points score in the order High, Low, Jack, Game, so when a trump is in play High wins the "
            "game: the lone ace (a sure win), king or queen stands whatever the sides; a lone low trump "
            "begs, and so do two low ones unless the sides are weak; the lone jack stands unless the "
            "sides are strong, the lone ten only with weak sides."
        ),
        row_title="side cards",
        column_title="hearts held (turn-up 9h)",
        columns=tuple(label for label, _ in _LAST_POINT_TRUMPS),
        rows=_rows(0, _LAST_POINT_TRUMPS, {"turnup": TURNUP, "score": "10", "opponent_score": "10"}),
        players=2,
        deals=750_000,
        verdict="The elder at 10-10 with middling side cards (turn-up 9h)",
        lead_row=1,
        also="win",
    ),
)
