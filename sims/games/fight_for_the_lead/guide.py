"""Fight for the Lead: decision guides (sims.core.guide), stay or drop by hand strength.

Declarations only (no kernel reads this module).
"""

from __future__ import annotations

from sims.core.cards import format_cards, parse_cards
from sims.core.guide import Cell, Guide

PLAYERS = 4  # the game's default table
SEAT = 0  # the advised seat: the eldest hand (the dealer's left), first to trade
FIGHT = (
    "2c 2d 2h 2s"  # every seat laid a two (seat 0 the 2c .. seat 3 the 2s): its lowest card, as the default policy does
)

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


# The hands dealt (columns) for the fight card, weak to strong, literal: most hold the 9d
# and the 4c as their low cards, with two cards of the column's class.
DEALT = (
    ("J high", "Jh 6s 9d 4c"),
    ("bare K", "Kh 6s 9d 4c"),
    ("guarded K", "Kh 6h 9d 4c"),
    ("K Q, one suit", "Kh Qh 9d 4c"),
    ("A", "Ah 6s 9d 4c"),
    ("A K, one suit", "Ah Kh 9d 4c"),
    ("2 As", "Ah As 9d 4c"),
    ("3 As", "Ah Ad Ac 4c"),
)
HANDS_OF_GAME = (("first hand (all play)", "first"), ("later hand (may drop)", "later"))


def _fight_rows() -> tuple:
    return tuple(
        (label, tuple(Cell(SEAT, hand, {"hand": which}) for _, hand in DEALT)) for label, which in HANDS_OF_GAME
    )


def _fight_actions() -> dict:
    cards = {card for _, hand in DEALT for card in hand.split()}
    return {f"fight {card}": card for card in sorted(cards)}


# The hands held after the replacement (columns) for the trade, weak to strong, literal.
TRADED = (
    ("J high", "Jh 9d 6c 4s"),
    ("Q J, one suit", "Qh Jh 9d 4c"),
    ("bare K", "Kh 9d 6c 4s"),
    ("guarded K", "Kh 6h 9d 4c"),
    ("K Q, one suit", "Kh Qh 9d 4c"),
    ("A", "Ah 9d 6c 4s"),
    ("A, guarded K", "Ah Kd 6d 4c"),
    ("2 As", "Ah Ad 6c 4s"),
)
TRADE_LEADS = tuple(LEADS[k] for k in (0, 1, 3))  # you, the player on your left, the dealer on your right


def _trade_rows() -> tuple:
    context = {"hand": "first", "fight": FIGHT}
    return tuple(
        (label, tuple(Cell(SEAT, hand, {**context, "turned": turned}) for _, hand in TRADED))
        for label, turned in TRADE_LEADS
    )


def _trade_actions() -> dict:
    """ "trade 6c 9d 4s" -> "6c 9d 4s": the cards thrown away, in the advice's order (by
    suit clubs to spades, then rank, ace high); "keep all" stays."""
    names = {"keep all": "keep all"}
    for _, hand in TRADED:
        cards = sorted(parse_cards(hand), key=lambda code: (code // 13, 14 if code % 13 == 0 else code % 13 + 1))
        for subset in range(1, 16):
            thrown = format_cards([card for j, card in enumerate(cards) if subset >> j & 1])
            names[f"trade {thrown}"] = thrown
    return names


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
    Guide(
        name="fight-4",
        title="Which card to fight with, 4 players: by hand dealt",
        text=(
            "Each cell is the fight-card decision of seat 0 (the eldest hand, the dealer's left) at a table "
            "of 4, pot 4 chips (a trick pays 1, a player who plays and takes no trick pays 4 into the next "
            "pot), in the row's hand of a game: the compulsory first hand, where everyone plays, or a later "
            "hand, where players may drop after the fight. The seat has seen only the four cards dealt to it. "
            "The candidates are its four cards; every other seat lays down its lowest card and then plays the "
            "default policy (it stays with the lead or with an ace or a guarded king, trades away everything "
            "below a queen, and plays greedily), and so does the advised seat after its fight card. A fight "
            "card laid down is dead, so the card below it in its suit may become a sure winner. The cell shows "
            "the card with the highest net chips for the hand (won from the pot minus paid into the next) and "
            "by how much it beats the runner-up (the paired difference on the same deals \u00b1 its standard "
            "error), or a tie, and the chance that card wins the lead. The columns are literal hands, weak to "
            "strong: nothing above a jack (Jh 6s 9d 4c), a bare king (Kh 6s 9d 4c), a king guarded by a low "
            "card (Kh 6h 9d 4c), king and queen of one suit (Kh Qh 9d 4c), one ace (Ah 6s 9d 4c), ace and king "
            "of one suit (Ah Kh 9d 4c), two aces (Ah As 9d 4c), three aces (Ah Ad Ac 4c). In them the 9d stands "
            "for your highest card below the honours, the 6 for a middle card and the 4c for your lowest. "
            "From the dealer's seat the values differ by about 0.04 chip at most."
        ),
        row_title="hand of the game",
        column_title="hand dealt",
        columns=tuple(label for label, _ in DEALT),
        rows=_fight_rows(),
        players=PLAYERS,
        deals=400_000,
        verdict="From seat 0 with 4 players, in a later hand",
        lead_row=1,
        actions=_fight_actions(),
        also="lead",
    ),
    Guide(
        name="trade-4",
        title="What to throw away, 4 players, first hand: by who won the lead and hand held",
        text=(
            "Each cell is the trade of seat 0, the eldest hand and so the first to trade, in the compulsory "
            "first hand of a game (everyone plays) at a table of 4, pot 4 chips (a trick pays 1, a player "
            "who takes no trick pays 4 into the next pot). As in the stay-or-drop guide, every fight card "
            "was a two (2c 2d 2h 2s) and one eight was turned, whose suit gave the lead to the row's seat. "
            "The candidates are the 16 sets of cards to throw away (and draw again), from none (keep all) "
            "to all four; every other seat plays the default policy (it trades away everything below a "
            "queen and plays greedily), and so does the advised seat after its trade. The cell names the "
            "cards to throw away that give the highest net chips for the hand and by how much they beat the "
            "runner-up (the paired difference on the same deals \u00b1 its standard error), or a tie. The "
            "columns are literal hands held after the replacement, weak to strong: nothing above a jack (Jh "
            "9d 6c 4s), queen and jack of one suit (Qh Jh 9d 4c), a bare king (Kh 9d 6c 4s), a king guarded "
            "by a low card (Kh 6h 9d 4c), king and queen of one suit (Kh Qh 9d 4c), one ace (Ah 9d 6c 4s), "
            "an ace and a guarded king (Ah Kd 6d 4c), two aces (Ah Ad 6c 4s); the low cards stand for any "
            "cards below a jack."
        ),
        row_title="who won the lead (you are seat 0)",
        column_title="hand after the replacement",
        columns=tuple(label for label, _ in TRADED),
        rows=_trade_rows(),
        players=PLAYERS,
        deals=150_000,
        verdict="From seat 0 in a first hand with 4 players, the lead won by the player on your left",
        lead_row=1,
        actions=_trade_actions(),
    ),
)
