"""Fight for the Lead: decision guides (sims.core.guide), stay or drop by hand strength.

Declarations only (no kernel reads this module).
"""

from __future__ import annotations

from sims.core.guide import Cell, Guide

PLAYERS = 4  # the game's default table
SEAT = 0  # the advised seat: the eldest hand (the dealer's left), first to trade
FIGHT = "2c 2d 2h 2s"  # every seat laid a two (seat 0 the 2c .. seat 3 the 2s): its lowest card, as the default policy does

# The hand classes (columns), weak to strong: the four cards held after the replacement,
# literal (no two: the twos are the fight cards; no eight: the eights are the turned cards).
HANDS = (
    ("J high", "Jh 9d 6c 4s"),
    ("bare K", "Kh 9d 6c 4s"),
    ("guarded K", "Kh 6h 9d 4c"),
    ("K Q", "Kh Qd 6c 4s"),
    ("2 guarded Ks", "Kh 6h Kd 5d"),
    ("A", "Ah 9d 6c 4s"),
    ("A, guarded K", "Ah Kd 6d 4c"),
    ("2 As", "Ah Ad 6c 4s"),
)

# Who won the lead (rows), as seen from seat 0: label, the one card turned in the fight
# (its suit is the suit of that seat's fight card).
LEADS = (
    ("you won the lead", "8c"),
    ("lead to your left", "8d"),
    ("lead across", "8h"),
    ("lead to your right (dealer)", "8s"),
)


def _stay_rows() -> tuple:
    return tuple(
        (label, tuple(Cell(SEAT, hand, {"fight": FIGHT, "turned": turned}) for _, hand in HANDS))
        for label, turned in LEADS
    )


GUIDES = (
    Guide(
        name="stay-4",
        title="Stay or drop, 4 players: by who won the lead and hand strength",
        text=(
            "Each cell is the stay-or-drop decision of a later hand (players may drop) at a table of 4, "
            "pot 4 chips (a trick pays 1, a player who plays and takes no trick pays 4 into the next pot). "
            "The advised seat is seat 0, the eldest hand (the dealer's left, first to trade); it has seen "
            "every fight card, all four of them twos (2c 2d 2h 2s, each seat's lowest card), and the one "
            "card turned, an eight whose suit gave the lead to the row's seat. The candidates are stay and "
            "drop (drop wins and pays nothing); every other seat plays the default policy (it stays with "
            "the lead or with an ace or a guarded king, trades away everything below a queen, and plays "
            "greedily), and so does the advised seat after it stays. The cell shows the action with the "
            "higher net chips for the hand and by how much it beats the other (the paired difference on "
            "the same deals \u00b1 its standard error), or a tie. The columns are the four cards held after "
            "the replacement, weak to strong: nothing above a jack (Jh 9d 6c 4s), a bare king (Kh 9d 6c "
            "4s), a king guarded by a low card of its suit (Kh 6h 9d 4c), a king and a queen of different "
            "suits (Kh Qd 6c 4s), two guarded kings (Kh 6h Kd 5d), one ace with low cards (Ah 9d 6c 4s), an "
            "ace and a guarded king (Ah Kd 6d 4c), two aces (Ah Ad 6c 4s); find the column whose aces and "
            "kings match yours (the low cards are traded away). The seat itself changes the stay's value "
            "by about 0.1 chip at most."
        ),
        row_title="who won the lead (you are seat 0)",
        column_title="hand after the replacement",
        columns=tuple(label for label, _ in HANDS),
        rows=_stay_rows(),
        players=PLAYERS,
        deals=300_000,
        verdict="From seat 0 with 4 players, the lead won by the player on your left",
        lead_row=1,
    ),
)
