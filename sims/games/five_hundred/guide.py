"""Five Hundred's decision guides (:mod:`sims.core.guide`): the bid by hand class and
auction so far, with the make rate of the best bid."""

from __future__ import annotations

from sims.core.guide import Cell, Guide

# The literal hands of the bid guide, weakest first: hearts are the long suit (the trump
# suit they would bid) but for the no-trump hand; spades short, as an opponent's or the
# partner's 6S in two columns says spades sit elsewhere.
BID_HANDS = (
    ("no card above 8 (misere)", "4h 5h 7h 4d 6d 8d 5c 7c 5s 6s"),
    ("4 trumps, no bower", "Qh 9h 7h 5h As 8s 6s Kc 7c 9d"),
    ("4 trumps, right bower", "Jh Kh 9h 6h As 7s Ac 8c 10d 5d"),
    ("5 trumps, right bower, ace", "Jh Ah Qh 8h 5h As 7s Kc 9c 6d"),
    ("5 trumps, joker, right bower", "Jo Jh Ah 10h 7h Ks 8s Ac 9c 6d"),
    ("6 trumps, joker, both bowers", "Jo Jh Jd Ah 9h 6h As 8s Kc 7c"),
    ("no trumps: joker, 4 aces", "Jo As Ac Ad Ah Kd Qd 8s 7c 6h"),
)

# The auction so far: (column label, the seat to call, the calls from the eldest hand).
BID_AUCTIONS = (
    ("no call (seat 0)", 0, ""),
    ("pass (seat 1)", 1, "pass"),
    ("2 passes (seat 2)", 2, "pass pass"),
    ("3 passes (seat 3)", 3, "pass pass pass"),
    ("partner 6S (seat 2)", 2, "6S pass"),
    ("opp. 6S (seat 1)", 1, "6S"),
)


def _bid_cell(holding: str, seat: int, auction: str) -> Cell:
    return Cell(seat, holding, {"auction": auction} if auction else {})


def _opening_cell(label: str, holding: str, seat: int, auction: str) -> Cell | None:
    """A cell of the bid guide; the misere hand after three passes is left out (the other
    three all pass against it in about one deal in 2,000: too dear to ask)."""
    if label.startswith("no card above 8") and auction == "pass pass pass":
        return None
    return _bid_cell(holding, seat, auction)


BID_GUIDE = Guide(
    name="bid",
    title="The bid, by hand and auction so far (with the make rate of the best bid)",
    text=(
        "Each cell is the seat's next call with the hand of its row after the calls of its column "
        "(made by the others on their default policy, the hands dealt at random but for the seat's "
        "ten cards, deals where the others would not have called so rejected), every call it may make "
        "played on the same deals: the best call, by how much its side's points in the hand less the "
        "other side's (net, scored from 0-0) beat the runner-up's, paired ± se, and *made*, the share of deals on which the best call wins the auction and makes its "
        "contract (a pass: 0). After its call the seat stands by it: it passes if the auction comes round to "
        "it again. The dealer is "
        "seat 3, so seat 0 is the eldest hand; in the last two columns seat 0 has opened 6S. The rows "
        "stand for classes of hand, weakest first, by their top trumps, trump length and side aces: "
        "4h 5h 7h 4d 6d 8d 5c 7c 5s 6s (no card above an 8: a misere hand, whose best call, open misere, "
        "may be made at any point; not asked after three passes, which it rarely sees); "
        "Qh 9h 7h 5h As 8s 6s Kc 7c 9d (four trumps, no bower or joker); Jh Kh 9h 6h As 7s Ac 8c 10d 5d "
        "(four trumps with the right bower, two side aces); Jh Ah Qh 8h 5h As 7s Kc 9c 6d (five "
        "trumps with the right bower and ace); Jo Jh Ah 10h 7h Ks 8s Ac 9c 6d (five with the joker and "
        "the right bower); Jo Jh Jd Ah 9h 6h As 8s Kc 7c (six with the joker, both bowers and the ace); "
        "Jo As Ac Ad Ah Kd Qd 8s 7c 6h (a no-trump hand: the joker and four aces)."
    ),
    row_title="hand (hearts trumps)",
    column_title="auction so far",
    columns=tuple(label for label, _, _ in BID_AUCTIONS),
    rows=tuple(
        (label, tuple(_opening_cell(label, holding, seat, auction) for _, seat, auction in BID_AUCTIONS))
        for label, holding in BID_HANDS
    ),
    players=4,
    deals=20_000,
    verdict="With five trumps headed by the right bower and the ace (Jh Ah Qh 8h 5h As 7s Kc 9c 6d)",
    lead_row=3,
    also="made",
)

# Over an opponent's opening (seat 1 after the eldest's 6S, 6D or 6NT; seat 2 after its
# partner's 6S and the next seat's 6NT): the opening is always a 6 bid, as the default
# policy never jumps.  The no-trump hand's cells under a 6NT are left out: with the joker
# and four aces held, an opponent almost never opens 6NT (too few deals to advise on).
OVERCALL_AUCTIONS = (
    ("opp. 6S (seat 1)", 1, "6S"),
    ("opp. 6D (seat 1)", 1, "6D"),
    ("opp. 6NT (seat 1)", 1, "6NT"),
    ("6S, opp. 6NT (seat 2)", 2, "6S 6NT"),
)


def _overcall_cell(label: str, holding: str, seat: int, auction: str) -> Cell | None:
    if label.startswith("no trumps") and auction.endswith("6NT"):
        return None
    return _bid_cell(holding, seat, auction)


OVERCALL_GUIDE = Guide(
    name="overcall",
    title="Compete or pass over an opponent's opening, by hand (with the make rate of the best bid)",
    text=(
        "Each cell is the seat's call with the hand of its row after an opponent has opened (the column): "
        "over the eldest hand's 6S, 6D or 6NT from seat 1, or from seat 2 after its partner's 6S and the "
        "next opponent's 6NT. The opening is the default policy's call on the deal (deals where the "
        "others would have called otherwise are rejected), every call the seat may make is played on "
        "the same deals, and the seat stands by its call after it (it passes if the auction comes round "
        "to it again). A cell shows the best call, by how much its side's points in the hand less the "
        "other side's (net, scored from 0-0) beat the runner-up's, paired ± se, and *made*, the share of deals "
        "on which the best call wins the auction and makes its contract (a pass: 0). The rows are the "
        "literal hands of the bid guide above (hearts the long suit); the no-trump hand is not asked "
        "under a 6NT, which an opponent almost never opens against the joker and four aces."
    ),
    row_title="hand (hearts trumps)",
    column_title="the opening",
    columns=tuple(label for label, _, _ in OVERCALL_AUCTIONS),
    rows=tuple(
        (label, tuple(_overcall_cell(label, holding, seat, auction) for _, seat, auction in OVERCALL_AUCTIONS))
        for label, holding in BID_HANDS
    ),
    players=4,
    deals=20_000,
    verdict="Over an opponent's opening with five trumps headed by the right bower and the ace "
    "(Jh Ah Qh 8h 5h As 7s Kc 9c 6d)",
    lead_row=3,
    also="made",
)

GUIDES = (BID_GUIDE, OVERCALL_GUIDE)
