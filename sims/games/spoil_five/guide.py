"""Spoil Five: decision guides (sims.core.guide), when to rob and what to throw away.

Declarations only (no kernel reads this module).
"""

from __future__ import annotations

from sims.core.guide import Cell, Guide

PLAYERS = 5  # the game's default table
DEALER = PLAYERS - 1
ACE = "Ad"  # trumps are diamonds in every cell: the turn-up is a diamond
IN_PLACE_OF_ACE = "7h"  # the dealer of a turned ace holds this card where the others hold the ace

# The hand classes (columns), weak to strong: the trump ace and four other cards, literal.
HANDS = (
    ("weak side", "10c 9s 4h 2h"),
    ("a king", "Kc 9s 4h 2h"),
    ("two kings", "Kc Ks 4h 2h"),
    ("low trump", "3d 10c 9s 2h"),
    ("low trump, king", "3d Kc 9s 2h"),
    ("jack of trumps", "Jd Kc 9s 2h"),
    ("the 5 of trumps", "5d Kc 9s 2h"),
)

# The turn-ups (rows): label, card.
TURNUPS = (
    ("ace turned (dealer)", "Ad"),
    ("the 5 turned", "5d"),
    ("jack turned", "Jd"),
    ("king turned", "Kd"),
    ("low card turned (2)", "2d"),
)


def _cell(turnup: str, others: str) -> Cell | None:
    if turnup in others.split():
        return None  # the turn-up cannot be in the hand
    if turnup == ACE:  # only the dealer may rob a turned ace; it holds 7h where the others hold the ace
        return Cell(DEALER, f"{others} {IN_PLACE_OF_ACE}", {"turnup": turnup})
    return Cell(0, f"{ACE} {others}", {"turnup": turnup})


def _rob_rows() -> tuple:
    return tuple((label, tuple(_cell(card, others) for _, others in HANDS)) for label, card in TURNUPS)


def _rob_actions() -> dict:
    cards = {card for _, others in HANDS for card in others.split()} | {ACE, IN_PLACE_OF_ACE}
    return {"no rob": "no rob", **{f"rob:discard {card}": f"rob, throw {card}" for card in sorted(cards)}}


# The claim/jinx guide: 3 players, hearts trumps (9h turned), nobody robbed; seat 0 (the
# eldest hand) led the 5, the jack and the king of trumps and won the three tricks.
JINX_PLAYERS = 3
JINX_HISTORY = {"turnup": "9h", "trick1": "5h 2h 10c", "trick2": "Jh 3h 10s", "trick3": "Kh 4h 9s"}
# The two cards left (columns), weak to strong: label, cards.
LEFT = (
    ("two low", "9c 2d"),
    ("king, low", "Kc 2d"),
    ("Qh, low", "Qh 2d"),
    ("Ah, low", "Ah 2d"),
    ("two kings", "Kc Ks"),
    ("Qh, king", "Qh Kc"),
    ("Ah, king", "Ah Kc"),
    ("Ah, Qh", "Ah Qh"),
)
# The pools (rows): label, the pool context (None: a new pool, 6 chips, the antes paid).
POOLS = (
    ("new pool (6)", None),
    ("pool of 9", "9"),
    ("pool of 12", "12"),
    ("pool of 18", "18"),
    ("pool of 24", "24"),
)


def _jinx_rows() -> tuple:
    rows = []
    for label, pool in POOLS:
        context = dict(JINX_HISTORY) | ({"pool": pool} if pool else {})
        rows.append((label, tuple(Cell(0, cards, context) for _, cards in LEFT)))
    return tuple(rows)


GUIDES = (
    Guide(
        name="rob-5",
        title="Rob or not, and what to throw away, 5 players: by turn-up and hand",
        text=(
            "Each cell is a rob decision at a table of 5 with diamonds trumps: the row's card is turned up and "
            "the hand of the column is held, the ace of trumps (Ad) with the four cards the column names. "
            "Seat 0 (the eldest hand, first to play) decides before anything is played; in the first row the "
            "ace itself is turned up, and the dealer (seat 4), the only one who may rob it, holds the same four "
            "cards with the 7h in place of the ace. The candidates are no rob and robbing with each of the five "
            "cards thrown away; every other seat, and the advised seat after its decision, plays the default "
            "policy (rob, throw the cheapest card, jinx only with two sure winners, spoil, hold back the "
            "privileged trumps). The cell shows the action with the highest net chips for the hand (from a new "
            "pool of 10 chips, the advised seat's ante of 2 paid) and by how much it beats the runner-up (the "
            "paired difference on the same deals \u00b1 its standard error), or a tie. The hands stand for "
            "classes: side cards weak (10c 9s 4h 2h: low black cards, low hearts), one or two kings, a low trump "
            "(3d), the jack of trumps or the 5 of trumps as second trump; find the column whose trumps and kings "
            "match yours. A cell is empty where the turn-up is one of the column's cards."
        ),
        row_title="turn-up (diamonds trumps)",
        column_title="hand: Ad and",
        columns=tuple(label for label, _ in HANDS),
        rows=_rob_rows(),
        players=PLAYERS,
        deals=300_000,
        verdict="With the king turned and 5 players",
        lead_row=3,
        actions=_rob_actions(),
    ),
    Guide(
        name="jinx-3",
        title="Claim or jinx after three tricks, 3 players: by pool and the two cards left",
        text=(
            "Each cell is the claim-or-jinx decision of seat 0 (the eldest hand) at a table of 3, hearts "
            "trumps (the 9h turned up, nobody robbed), after it led the 5, the jack and the king of trumps and "
            "won all three tricks (seat 1 followed with 2h 3h 4h, the dealer, seat 2, threw 10c 10s 9s). The "
            "row is the pool in the middle (a new pool holds 6 chips, the seat's ante of 2 paid; a larger one "
            "was carried over from spoiled deals), the column the two cards it holds: low cards (9c 2d), a "
            "plain king (Kc), the queen or the ace of hearts (Qh, the best trump left below the ace; Ah, the "
            "best trump left), as the column names them (two kings: Kc Ks; Qh, king: Qh Kc; Ah, king: Ah Kc). "
            "Claiming takes the pool now; a jinx plays on and takes the pool and 2 chips from each other player "
            "if it wins tricks 4 and 5, else the hand is spoiled and the pool stays for the next deal (whose winner the cell does not count). Every other seat plays the "
            "default policy. The cell shows the action with the higher net chips for the hand and by how much "
            "it beats the other (the paired difference on the same deals ± its standard error), or a tie."
        ),
        row_title="pool",
        column_title="two cards left",
        columns=tuple(label for label, _ in LEFT),
        rows=_jinx_rows(),
        players=JINX_PLAYERS,
        deals=100_000,
        verdict="After winning the first three tricks with 3 players and a new pool",
        lead_row=0,
    ),
)
