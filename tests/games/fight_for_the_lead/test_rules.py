"""Stacked-deck rule tests of Fight for the Lead, run against both the Numba kernel
(sims.games.fight_for_the_lead.stacked.play_dealt) and the plain-Python twin
(sims.games.fight_for_the_lead.twin.play_dealt).

Every expected value below is derived by hand from the rules contract: the package
docstring of sims/games/fight_for_the_lead and the docstring of its ``play_dealt``.
Conventions used in the derivations:
  * rank value 2..14 (J=11, Q=12, K=13, A=14); "lowest"/"highest" ties go to the lower
    suit (clubs < diamonds < hearts < spades);
  * the deal is one card at a time clockwise from the dealer's left (draw k goes to seat
    (dealer + 1 + k) mod n); ``deal()`` below interleaves each seat's four cards that way
    and appends the stock (turned cards, then replacements, then trade draws);
  * the default dealer is seat n-1 and the default pot n * ante, ante = 4 / gcd(n, 4)
    (n=2: P=4, n=3: P=12, n=4: P=4, n=6: P=12, n=9: P=36).
Policy columns (POLICY_FIELDS order): fight_card, stay_min_strength, stay_with_lead,
keep_min_rank, play_style.  ``row()`` defaults to: fight lowest, stay 1, stay with lead,
keep 2 (never trade), greedy.
"""

from __future__ import annotations

import numpy as np
import pytest

import sims.games.fight_for_the_lead.twin as twin
from sims.core.cards import parse_cards
from sims.games.fight_for_the_lead import (
    CAP_EQUAL,
    ELDEST_GETS_LEAD,
    FIGHT_HIGHEST,
    FIGHT_HIGHEST_NON_ACE,
    FIGHT_LOWEST,
    FIGHT_LOWEST_OF_LONGEST,
    FORCED_REPLAY,
    HIGHEST_RANK_ANY_SUIT,
    POLICY_FIELDS,
    REFUND_SPLIT,
    REPLAY_OPTIONAL,
    RESHUFFLE_DISCARDS,
    SERVE_UNTIL_EMPTY,
    STYLE_GREEDY,
    STYLE_HIGH,
    TRADE_FROM_DEALER_LEFT,
    TRADE_FROM_LEAD_WINNER,
    Rules,
    stacked,
)

IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
play_dealt = twin.play_dealt  # rebound per test by the `implementation` fixture (conftest.py)
pytestmark = pytest.mark.usefixtures("implementation")

R = Rules()


def row(fight=FIGHT_LOWEST, stay=1, lead=1, keep=2, style=STYLE_GREEDY):
    return [fight, stay, lead, keep, style]


def pol(*rows):
    return np.array(rows, dtype=np.float64)


def same(k, **kw):
    return pol(*([row(**kw)] * k))


def deal(seats, stock="", dealer=None):
    """The pack: each seat's four cards (indexed by seat) dealt one at a time clockwise
    from the dealer's left, then the stock cards in order."""
    n = len(seats)
    d = n - 1 if dealer is None else dealer
    hands = [parse_cards(s) for s in seats]
    assert all(len(h) == 4 for h in hands)
    cards = [None] * (4 * n)
    for s, hand in enumerate(hands):
        for j, c in enumerate(hand):
            cards[j * n + (s - d - 1) % n] = c
    cards += parse_cards(stock)
    assert len(set(cards)) == len(cards), "a card is listed twice"
    return cards


def play(rules, policy, seats, stock="", dealer=None, **kw):
    return play_dealt(rules, policy, len(seats), deal(seats, stock, dealer), dealer=dealer, **kw)


def ints(xs):
    return [int(x) for x in xs]


def cards(text):
    return parse_cards(text)


def held(res):
    return [sorted(int(c) for c in h) for h in res["held"]]


def hands(*texts):
    return [sorted(parse_cards(t)) for t in texts]


def trick(leader, plays, winner):
    """trick(0, "0:2h 1:9h 2:Qd", 1)"""
    out = []
    for item in plays.split():
        seat, card = item.split(":")
        out.append((int(seat), parse_cards(card)[0]))
    return (leader, out, winner)


def tricks(res):
    return [(int(l), [(int(s), int(c)) for s, c in plays], int(w)) for l, plays, w in res["tricks"]]


def settles(res, pot):
    # Every trick pays pot/4 (all of it is won when play happens); each loser pays pot.
    assert sum(ints(res["net"])) == pot - int(res["pot_next"])


def test_policy_columns_are_in_contract_order():
    assert [f.key for f in POLICY_FIELDS] == [
        "fight_card",
        "stay_min_strength",
        "stay_with_lead",
        "keep_min_rank",
        "play_style",
    ]


# ----------------------------------------------------------------------------------------
# The fight


def test_fight_first_turned_card_matching_a_fight_suit_decides():
    # Lowest fight cards: 2c, 3d, 4h, 5s.  The first turned card 7d is a diamond; the only
    # diamond fight card is seat 1's 3d: seat 1 wins the lead after one turn.
    seats = ["2c Kh Qd 9s", "3d As Ks Qs", "4h Ad Jc 10c", "5s Ac Kc Qc"]
    res = play(R, same(4), seats, "7d 8h 9h 10h Jh", compulsory=True)
    assert ints(res["fight"]) == cards("2c 3d 4h 5s")
    assert ints(res["turned"]) == cards("7d")
    assert res["lead"] == 1


def test_fight_turns_until_a_suit_matches_and_highest_card_of_that_suit_wins():
    # Fight cards (lowest): 3h, 9h, Kc, 5s.  Turned 2d, 8d: no diamond fight card; then Jh:
    # hearts match, 3h and 9h are hearts, 9h is higher -> seat 1.  Seat 2's Kc is the
    # highest fight card overall, but clubs never came up.
    seats = ["3h 8c Qs Kd", "9h 10s Jc Qh", "Kc Ac As Ah", "5s 6s 7s 8s"]
    res = play(R, same(4), seats, "2d 8d Jh 2c 3c 4c 5c", compulsory=True)
    assert ints(res["fight"]) == cards("3h 9h Kc 5s")
    assert ints(res["turned"]) == cards("2d 8d Jh")
    assert res["lead"] == 1


# Seat hands for the fight_card policies:
#   seat 0  Ks 3c Kd 7d: lowest 3c; highest Kd (Kd and Ks tie at 13, diamonds lower);
#           highest-non-ace Kd; longest suit diamonds (2) -> 7d.
#   seat 1  Ah 2s Qh 10s: lowest 2s; highest Ah; non-ace Qh; hearts and spades both hold
#           two, hearts is the lower suit -> lowest heart Qh.
#   seat 2  4c 5h 9h Qs: lowest 4c; highest Qs; non-ace Qs; hearts (2) -> 5h.
#   seat 3  Ac 8c Jd 6d: lowest 6d; highest Ac; non-ace Jd; clubs and diamonds tie at two,
#           clubs lower -> lowest club 8c (8 < A).
POLICY_SEATS = ["Ks 3c Kd 7d", "Ah 2s Qh 10s", "4c 5h 9h Qs", "Ac 8c Jd 6d"]


@pytest.mark.parametrize(
    "fight, expected",
    [
        (FIGHT_LOWEST, "3c 2s 4c 6d"),
        (FIGHT_HIGHEST, "Kd Ah Qs Ac"),
        (FIGHT_HIGHEST_NON_ACE, "Kd Qh Qs Jd"),
        (FIGHT_LOWEST_OF_LONGEST, "7d Qh 5h 8c"),
    ],
    ids=["lowest", "highest", "highest-non-ace", "lowest-of-longest-suit"],
)
def test_fight_card_policy(fight, expected):
    res = play(R, same(4, fight=fight), POLICY_SEATS, compulsory=True)
    assert ints(res["fight"]) == cards(expected)


def test_fight_card_policy_is_per_seat():
    # Seat 0 lowest (3c), seat 1 highest (Ah), seat 2 highest-non-ace (Qs),
    # seat 3 lowest-of-longest-suit (8c).
    policy = pol(
        row(fight=FIGHT_LOWEST),
        row(fight=FIGHT_HIGHEST),
        row(fight=FIGHT_HIGHEST_NON_ACE),
        row(fight=FIGHT_LOWEST_OF_LONGEST),
    )
    res = play(R, policy, POLICY_SEATS, compulsory=True)
    assert ints(res["fight"]) == cards("3c Ah Qs 8c")


@pytest.mark.parametrize(
    "fight",
    [FIGHT_LOWEST, FIGHT_HIGHEST, FIGHT_HIGHEST_NON_ACE, FIGHT_LOWEST_OF_LONGEST],
    ids=["lowest", "highest", "highest-non-ace", "lowest-of-longest-suit"],
)
def test_all_aces_hand_fights_with_the_club_ace(fight):
    # Four aces: all ranks tie at 14 -> lower suit -> Ac; highest-non-ace: a hand of four
    # aces gives its lowest-suit ace; longest suit: all tie at one card -> clubs -> Ac.
    seats = ["2c 3c 4c 5c", "Ac Ad Ah As", "2d 3d 4d 5d", "2h 3h 4h 5h"]
    res = play(R, same(4, fight=fight), seats, compulsory=True)
    assert int(res["fight"][1]) == cards("Ac")[0]


# Nine seats, dealer 4 (eldest = seat 5).  All 13 hearts and all 13 spades are dealt, with
# ten low clubs/diamonds; every seat fights with its highest card, which is a heart or a
# spade.  The 16 cards left (Ac 7c..Kc Ad 7d..Kd, in code order since unlisted) never
# match: the fight runs the pack dry.
EXHAUST_SEATS = [
    "Kh 2h 7h 2c",  # 0: Kh
    "Ks 2s 7s 3c",  # 1: Ks
    "Ah 3h 8h 4c",  # 2: Ah
    "Qh 4h 9h 5c",  # 3: Qh
    "Qs 3s 8s 6c",  # 4: Qs (the dealer)
    "Jh 5h 2d 3d",  # 5: Jh (eldest)
    "As 4s 9s 4d",  # 6: As
    "Js 5s 5d 6d",  # 7: Js
    "10h 10s 6h 6s",  # 8: 10h (10h and 10s tie, hearts lower)
]
EXHAUST_TURNED = "Ac 7c 8c 9c 10c Jc Qc Kc Ad 7d 8d 9d 10d Jd Qd Kd"


@pytest.mark.parametrize(
    "exhaust, lead",
    [(HIGHEST_RANK_ANY_SUIT, 6), (ELDEST_GETS_LEAD, 5)],
    ids=["highest-rank-any-suit", "eldest-gets-lead"],
)
def test_fight_exhaust(exhaust, lead):
    # highest-rank-any-suit: Ah (seat 2) and As (seat 6) tie at 14; clockwise from the
    # dealer's left the order is 5, 6, 7, 8, 0, 1, 2 -> seat 6 comes first.
    # eldest-gets-lead: seat D+1 = 5.
    rules = R._replace(fight_exhaust=exhaust)
    res = play(rules, same(9, fight=FIGHT_HIGHEST), EXHAUST_SEATS, dealer=4, compulsory=True)
    assert ints(res["fight"]) == cards("Kh Ks Ah Qh Qs Jh As Js 10h")
    assert ints(res["turned"]) == cards(EXHAUST_TURNED)
    assert res["lead"] == lead
    # The pack is empty at the replacement: the pile (turned cards in turn order, then the
    # fight cards from the dealer's left: Jh As Js 10h Kh Ks Ah Qh Qs) becomes the pack and
    # is drawn in pile order: seats 5, 6, 7, 8, 0, 1, 2, 3, 4 get Ac 7c 8c 9c 10c Jc Qc Kc Ad.
    assert res["reshuffled"] == 1
    assert held(res) == hands(
        "2h 7h 2c 10c",
        "2s 7s 3c Jc",
        "3h 8h 4c Qc",
        "4h 9h 5c Kc",
        "3s 8s 6c Ad",
        "5h 2d 3d Ac",
        "4s 9s 4d 7c",
        "5s 5d 6d 8c",
        "10s 6h 6s 9c",
    )


def test_nine_player_hand_after_fight_exhaust_plays_out():
    # The hand above under highest-rank-any-suit: seat 6 leads, no trading (keep 2), greedy.
    # The replacement reshuffle empties the dead set.  Hands:
    #   s0 2c 10c 2h 7h | s1 3c Jc 2s 7s | s2 4c Qc 3h 8h | s3 5c Kc 4h 9h | s4 6c Ad 3s 8s
    #   s5 Ac 2d 3d 5h  | s6 7c 4d 4s 9s | s7 8c 5d 6d 5s | s8 9c 6h 6s 10s
    # T1 s6: no sure winner -> lowest, 4d/4s tie -> 4d.  s7 5d (cheapest beating 4d);
    #    s8 void -> 6h (6h/6s tie); s0 2c; s1 2s; s2 3h; s3 4h; s4 Ad (beats 5d); s5 2d
    #    (cannot beat Ad -> lowest diamond).  s4 wins.
    # T2 s4: 6c 3s 8s -> 3s.  s5 void -> 3d; s6 4s; s7 5s; s8 6s; s0 void -> 2h; s1 7s;
    #    s2 void -> 4c; s3 void -> 5c.  s1 wins (7s).
    # T3 s1: 3c Jc -> 3c.  s2 Qc; s3 Kc; s4 6c (cannot beat); s5 Ac; s6 7c; s7 8c; s8 9c;
    #    s0 10c.  s5 wins.
    # T4 s5: 5h.  s6 9s; s7 6d; s8 10s; s0 7h; s1 Jc; s2 8h; s3 9h; s4 8s.  s3 wins (9h).
    # One trick each to s1, s3, s4, s5; five losers pay P = 36: pot_next = 180.
    res = play(R, same(9, fight=FIGHT_HIGHEST), EXHAUST_SEATS, dealer=4, compulsory=True)
    assert res["leader"] == 6
    assert tricks(res) == [
        trick(6, "6:4d 7:5d 8:6h 0:2c 1:2s 2:3h 3:4h 4:Ad 5:2d", 4),
        trick(4, "4:3s 5:3d 6:4s 7:5s 8:6s 0:2h 1:7s 2:4c 3:5c", 1),
        trick(1, "1:3c 2:Qc 3:Kc 4:6c 5:Ac 6:7c 7:8c 8:9c 0:10c", 5),
        trick(5, "5:5h 6:9s 7:6d 8:10s 0:7h 1:Jc 2:8h 3:9h 4:8s", 3),
    ]
    assert ints(res["won"]) == [0, 1, 0, 1, 1, 1, 0, 0, 0]
    assert ints(res["net"]) == [-36, 9, -36, 9, 9, 9, -36, -36, -36]
    assert res["pot_next"] == 180
    settles(res, 36)


# ----------------------------------------------------------------------------------------
# Replacement


REPLACE_SEATS = ["2c Ac Kc Qc", "3d Ad Kd Qd", "4h Ah Kh Qh", "5s As Ks Qs"]


@pytest.mark.parametrize(
    "dealer, expected",
    [
        (3, ["Ac Kc Qc Jc", "Ad Kd Qd Jd", "Ah Kh Qh Jh", "As Ks Qs Js"]),
        (1, ["Ac Kc Qc Jh", "Ad Kd Qd Js", "Ah Kh Qh Jc", "As Ks Qs Jd"]),
    ],
    ids=["dealer-3", "dealer-1"],
)
def test_replacement_goes_clockwise_from_the_dealers_left(dealer, expected):
    # Fight cards 2c 3d 4h 5s; turned 9c -> clubs -> seat 0.  Replacements Jc Jd Jh Js go
    # one each clockwise from the dealer's left: dealer 3 -> seats 0,1,2,3; dealer 1 ->
    # seats 2,3,0,1.  keep 2: no trading, so held = after replacement.
    res = play(R, same(4), REPLACE_SEATS, "9c Jc Jd Jh Js", dealer=dealer, compulsory=True)
    assert ints(res["fight"]) == cards("2c 3d 4h 5s")
    assert res["lead"] == 0
    assert held(res) == hands(*expected)
    assert ints(res["traded"]) == [0, 0, 0, 0]


# ----------------------------------------------------------------------------------------
# Stay or drop


# Dealt (fight card = lowest), turned Qh Qc (clubs: 2c -> seat 0 leads), replacements
# 3h 4d 6h 10s.  After replacement:
#   seat 0  Ac Ad Kh 3h: 2 + 2 + guarded Kh 1 = 5 (before the replacement Kh was bare: 4)
#   seat 1  Ah Ks 3c 4d: 2 + bare Ks 0 = 2
#   seat 2  Kc 5c Kd 6h: guarded Kc 1 + bare Kd 0 = 1
#   seat 3  7s 8s 9s 10s: 0
STAY_SEATS = ["Ac Ad Kh 2c", "Ah Ks 3c 2d", "Kc 5c Kd 2s", "7s 8s 9s 3s"]
STAY_STOCK = "Qh Qc 3h 4d 6h 10s"
STAY_HELD = ["Ac Ad Kh 3h", "Ah Ks 3c 4d", "Kc 5c Kd 6h", "7s 8s 9s 10s"]


def stay_policy(thresholds, leads=(0, 0, 0, 0), keep=2):
    return pol(*[row(stay=t, lead=l, keep=keep) for t, l in zip(thresholds, leads)])


@pytest.mark.parametrize(
    "thresholds, playing",
    [
        ((5, 3, 1, 0), [1, 0, 1, 1]),  # 5>=5, 2<3, 1>=1, 0>=0
        ((6, 2, 2, 1), [0, 1, 0, 0]),  # 5<6, 2>=2, 1<2, 0<1
        ((4, 0, 0, 0), [1, 1, 1, 1]),
    ],
)
def test_stay_min_strength_thresholds_on_the_hand_after_replacement(thresholds, playing):
    res = play(R, stay_policy(thresholds), STAY_SEATS, STAY_STOCK)
    assert res["lead"] == 0
    assert ints(res["turned"]) == cards("Qh Qc")
    assert ints(res["playing"]) == playing
    assert held(res) == hands(*STAY_HELD)


def test_four_bare_kings_score_zero():
    # n=2, dealer 1.  Seat 0: Kc Kd Kh 2s fights 2s, gets Ks -> four unguarded kings = 0;
    # seat 1: Ac 3c 4c 2d fights 2d, gets 5c -> 2.  Turned 3s -> spades -> seat 0 leads.
    # Seat 0 (no stay_with_lead) needs 1 and drops; seat 1 stays alone and takes the pot.
    seats = ["Kc Kd Kh 2s", "Ac 3c 4c 2d"]
    res = play(R, pol(row(stay=1, lead=0), row(stay=2, lead=0)), seats, "3s Ks 5c")
    assert res["lead"] == 0
    assert held(res) == hands("Kc Kd Kh Ks", "Ac 3c 4c 5c")
    assert ints(res["playing"]) == [0, 1]
    assert ints(res["net"]) == [0, 4]
    # With threshold 0 it stays.
    res = play(R, pol(row(stay=0, lead=0), row(stay=2, lead=0)), seats, "3s Ks 5c")
    assert ints(res["playing"]) == [1, 1]


@pytest.mark.parametrize(
    "lead_flags, playing",
    [
        ((1, 1, 1, 1), [1, 0, 0, 0]),  # only seat 0 won the fight
        ((0, 1, 1, 1), [0, 0, 0, 0]),  # seat 0 does not use its lead: everyone drops
    ],
)
def test_stay_with_lead(lead_flags, playing):
    # Thresholds 9: nobody stays on strength.
    res = play(R, stay_policy((9, 9, 9, 9), lead_flags), STAY_SEATS, STAY_STOCK)
    assert res["lead"] == 0
    assert ints(res["playing"]) == playing


def test_compulsory_hand_everyone_plays():
    # Same cards and policies that make everyone drop, but a first hand: all four play.
    res = play(R, stay_policy((9, 9, 9, 9)), STAY_SEATS, STAY_STOCK, compulsory=True)
    assert ints(res["playing"]) == [1, 1, 1, 1]
    assert res["all_dropped"] == 0
    assert res["leader"] == 0


def test_exactly_one_player_staying_takes_the_pot_without_trading_or_play():
    # Thresholds (6, 2, 2, 1): only seat 1 stays (see above).  It takes all four tricks and
    # the whole pot P = 4; no trading even with keep 15, no play, the game ends.
    res = play(R, stay_policy((6, 2, 2, 1), keep=15), STAY_SEATS, STAY_STOCK + " 2h 3d 4h 5d")
    assert ints(res["playing"]) == [0, 1, 0, 0]
    assert res["leader"] == -1
    assert tricks(res) == []
    assert ints(res["won"]) == [0, 4, 0, 0]
    assert ints(res["net"]) == [0, 4, 0, 0]
    assert res["pot_next"] == 0
    assert ints(res["traded"]) == [0, 0, 0, 0]
    assert held(res) == hands(*STAY_HELD)
    assert res["all_dropped"] == 0


@pytest.mark.parametrize(
    "all_drop, pot, net, pot_next",
    [
        (FORCED_REPLAY, None, [0, 0, 0, 0], 4),
        (REPLAY_OPTIONAL, None, [0, 0, 0, 0], 4),
        (REFUND_SPLIT, None, [1, 1, 1, 1], 0),  # P/n = 4/4
        (FORCED_REPLAY, 40, [0, 0, 0, 0], 40),
        (REFUND_SPLIT, 40, [10, 10, 10, 10], 0),  # 40/4
    ],
    ids=["forced-replay", "replay-optional", "refund-split", "forced-replay-pot40", "refund-split-pot40"],
)
def test_everyone_drops(all_drop, pot, net, pot_next):
    rules = R._replace(all_drop=all_drop)
    res = play(rules, stay_policy((9, 9, 9, 9), keep=15), STAY_SEATS, STAY_STOCK, pot=pot)
    assert ints(res["playing"]) == [0, 0, 0, 0]
    assert res["all_dropped"] == 1
    assert res["leader"] == -1
    assert tricks(res) == []
    assert ints(res["won"]) == [0, 0, 0, 0]
    assert ints(res["traded"]) == [0, 0, 0, 0]
    assert ints(res["net"]) == net
    assert res["pot_next"] == pot_next


# ----------------------------------------------------------------------------------------
# The fight winner drops: the leader is the next playing seat clockwise


# n=4, dealer 0 (deal and replacement order 1, 2, 3, 0).  Fight cards 2c 2d 3h 2s; turned
# 4h -> hearts -> seat 2.  Replacements Jd 8h Jc Js (to seats 1, 2, 3, 0).  After it:
#   seat 0 As Ks Qs Js (stay 0)     seat 1 Ah Kh Qh Jd (stay 0)
#   seat 2 5h 6h 7h 8h (0 < 9, no stay_with_lead: drops)   seat 3 8c 9c 10c Jc (drops)
# The leader: clockwise from seat 2, seat 3 dropped -> seat 0.  keep 13: seats 0 and 1
# each trade their Q and J; the stock is 2h 3c 4c 5c.
DROP_SEATS = ["2c As Ks Qs", "2d Ah Kh Qh", "3h 5h 6h 7h", "2s 8c 9c 10c"]
DROP_STOCK = "4h Jd 8h Jc Js 2h 3c 4c 5c"
DROP_POLICY = pol(
    row(stay=0, keep=13), row(stay=0, keep=13), row(stay=9, lead=0, keep=13), row(stay=9, lead=0, keep=13)
)


def test_fight_winner_drops_next_playing_seat_leads_and_dealer_left_trades_first():
    # from-dealer-left: the first playing seat at or after D+1 = 1 is seat 1, then seat 0.
    # Seat 1 draws 2h 3c; seat 0 draws 4c 5c.
    # Play (dead: 2c 2d 3h 2s 4h), leader 0 holding As Ks 4c 5c; seat 1 Ah Kh 2h 3c:
    #   T1 As (highest sure winner; Ks sure too) - seat 1 void: lowest 2h.
    #   T2 Ks - 3c.  T3 4c (no sure winner: lowest) - seat 1 void in clubs: Kh.
    #   T4 5c - Ah.  Seat 0 takes all four; seat 1 pays P = 4; dropped seats net 0.
    res = play(R, DROP_POLICY, DROP_SEATS, DROP_STOCK, dealer=0)
    assert res["lead"] == 2
    assert ints(res["playing"]) == [1, 1, 0, 0]
    assert res["leader"] == 0
    assert ints(res["traded"]) == [2, 2, 0, 0]
    assert held(res) == hands("As Ks 4c 5c", "Ah Kh 2h 3c", "5h 6h 7h 8h", "8c 9c 10c Jc")
    assert tricks(res) == [
        trick(0, "0:As 1:2h", 0),
        trick(0, "0:Ks 1:3c", 0),
        trick(0, "0:4c 1:Kh", 0),
        trick(0, "0:5c 1:Ah", 0),
    ]
    assert ints(res["won"]) == [4, 0, 0, 0]
    assert ints(res["net"]) == [4, -4, 0, 0]
    assert res["pot_next"] == 4
    settles(res, 4)


def test_fight_winner_drops_from_lead_winner_trading_starts_with_the_leader():
    # from-lead-winner: traders start with the leader (seat 0, not the dropped fight
    # winner): seat 0 draws 2h 3c, seat 1 draws 4c 5c.
    # Play: seat 0 As Ks 2h 3c, seat 1 Ah Kh 4c 5c.
    #   T1 As - seat 1 void: 4c.  T2 Ks - 5c.
    #   T3 seat 0: 3c is not sure (6c..Ac unseen) -> lowest 2h; seat 1 follows with the
    #      cheapest heart that beats it: Kh.  T4 seat 1 leads Ah - 3c.
    rules = R._replace(trade_order=TRADE_FROM_LEAD_WINNER)
    res = play(rules, DROP_POLICY, DROP_SEATS, DROP_STOCK, dealer=0)
    assert res["leader"] == 0
    assert held(res) == hands("As Ks 2h 3c", "Ah Kh 4c 5c", "5h 6h 7h 8h", "8c 9c 10c Jc")
    assert tricks(res) == [
        trick(0, "0:As 1:4c", 0),
        trick(0, "0:Ks 1:5c", 0),
        trick(0, "0:2h 1:Kh", 1),
        trick(1, "1:Ah 0:3c", 1),
    ]
    assert ints(res["won"]) == [2, 2, 0, 0]
    assert ints(res["net"]) == [2, 2, 0, 0]
    assert res["pot_next"] == 0


# ----------------------------------------------------------------------------------------
# Trading


# n=4, dealer 3.  Fight cards (lowest) 2h 2s 3h 3s; turned 4h -> hearts 2h, 3h -> seat 2.
# Replacements 2c 4d 6d Jd.  After it:
#   seat 0 As Ks 3c 2c   seat 1 Ah Kh Qh 4d   seat 2 Ac Kc 5d 6d   seat 3 Ad Kd Qd Jd
# keep 12 trades 3c 2c | 4d | 5d 6d | Jd  = 2, 1, 2, 1.
TRADE_SEATS = ["As Ks 3c 2h", "Ah Kh Qh 2s", "Ac Kc 5d 3h", "Ad Kd Qd 3s"]
TRADE_STOCK = "4h 2c 4d 6d Jd 7c 8c 9c 10c 7d 8d 9d 10d 5h 6h 7h 8h 9h 10h Jh 5s"
TRADE_HELD = ["As Ks 3c 2c", "Ah Kh Qh 4d", "Ac Kc 5d 6d", "Ad Kd Qd Jd"]


def test_trade_deal_fight_and_replacement():
    res = play(R, same(4), TRADE_SEATS, TRADE_STOCK, compulsory=True)
    assert ints(res["fight"]) == cards("2h 2s 3h 3s")
    assert res["lead"] == 2
    assert held(res) == hands(*TRADE_HELD)


def test_keep_min_rank_2_keeps_everything():
    res = play(R, same(4, keep=2), TRADE_SEATS, TRADE_STOCK, compulsory=True)
    assert ints(res["traded"]) == [0, 0, 0, 0]
    assert held(res) == hands(*TRADE_HELD)


def test_keep_min_rank_15_trades_all_four():
    # Trading from the dealer's left: seats 0, 1, 2, 3 draw four stock cards each in turn.
    res = play(R, same(4, keep=15), TRADE_SEATS, TRADE_STOCK, compulsory=True)
    assert ints(res["traded"]) == [4, 4, 4, 4]
    assert held(res) == hands("7c 8c 9c 10c", "7d 8d 9d 10d", "5h 6h 7h 8h", "9h 10h Jh 5s")
    assert res["stock_short"] == 0


@pytest.mark.parametrize(
    "order, expected",
    [
        # from the dealer's left: seat 0 7c 8c, seat 1 9c, seat 2 10c 7d, seat 3 8d
        (TRADE_FROM_DEALER_LEFT, ["As Ks 7c 8c", "Ah Kh Qh 9c", "Ac Kc 10c 7d", "Ad Kd Qd 8d"]),
        # from the lead winner (seat 2): seat 2 7c 8c, seat 3 9c, seat 0 10c 7d, seat 1 8d
        (TRADE_FROM_LEAD_WINNER, ["As Ks 10c 7d", "Ah Kh Qh 8d", "Ac Kc 7c 8c", "Ad Kd Qd 9c"]),
    ],
    ids=["from-dealer-left", "from-lead-winner"],
)
def test_trade_order_decides_who_draws_which_stock_cards(order, expected):
    rules = R._replace(trade_order=order)
    res = play(rules, same(4, keep=12), TRADE_SEATS, TRADE_STOCK, compulsory=True)
    assert ints(res["traded"]) == [2, 1, 2, 1]
    assert held(res) == hands(*expected)


def test_trade_order_from_dealer_left_follows_the_dealer():
    # Same seat hands, dealer 1: replacement order 2, 3, 0, 1 gives seat 2 2c, seat 3 4d,
    # seat 0 6d, seat 1 Jd.  After it: seat 0 As Ks 3c 6d (trades 3c 6d), seat 1 Ah Kh Qh Jd
    # (Jd), seat 2 Ac Kc 5d 2c (5d 2c), seat 3 Ad Kd Qd 4d (4d).  Fight: still 3h -> seat 2.
    # Trading from the dealer's left: 2, 3, 0, 1: seat 2 7c 8c, seat 3 9c, seat 0 10c 7d,
    # seat 1 8d.
    res = play(R, same(4, keep=12), TRADE_SEATS, TRADE_STOCK, dealer=1, compulsory=True)
    assert res["lead"] == 2
    assert ints(res["traded"]) == [2, 1, 2, 1]
    assert held(res) == hands("As Ks 10c 7d", "Ah Kh Qh 8d", "Ac Kc 7c 8c", "Ad Kd Qd 9c")


def test_no_trading_in_a_compulsory_hand_when_trade_in_first_hand_is_false():
    rules = R._replace(trade_in_first_hand=False)
    res = play(rules, same(4, keep=12), TRADE_SEATS, TRADE_STOCK, compulsory=True)
    assert ints(res["traded"]) == [0, 0, 0, 0]
    assert held(res) == hands(*TRADE_HELD)


def test_trade_in_first_hand_false_still_trades_in_a_later_hand():
    # Not compulsory; stay 0: everyone plays, and trades as in the from-dealer-left case.
    rules = R._replace(trade_in_first_hand=False)
    res = play(rules, same(4, stay=0, keep=12), TRADE_SEATS, TRADE_STOCK)
    assert ints(res["playing"]) == [1, 1, 1, 1]
    assert ints(res["traded"]) == [2, 1, 2, 1]
    assert held(res) == hands("As Ks 7c 8c", "Ah Kh Qh 9c", "Ac Kc 10c 7d", "Ad Kd Qd 8d")


# Stock exhaustion: nine seats, dealer 8, every card listed (52).  Fight cards (lowest)
# 2c 2d 2h 2s 3c 3d 3h 3s 4c (seats 0..8); turned 5h -> hearts 2h, 3h -> seat 6.
# Replacements 5c 5d 6d 7d 8d 4h 6h 7h 8h; the stock S = 6: 4d 4s 5s 6s 7s 8s.
# After the replacement:
#   s0 Ac Kc Qc 5c (keep 15: wants 4)      s1 Ad Kd Qd 5d (keep 14: wants Kd Qd 5d)
#   s2 Ah Kh Qh 6d (15: 4)   s3 As Ks Qs 7d (15: 4)   s4 Jc 10c 9c 8d (15: 4)
#   s5 Jd 10d 9d 4h (15: 4)  s6 Jh 10h 9h 6h (keep 12: wants 4)
#   s7 Js 10s 9s 7h, s8 8c 7c 6c 8h (keep 2: want none)
EX_SEATS = [
    "2c Ac Kc Qc",
    "2d Ad Kd Qd",
    "2h Ah Kh Qh",
    "2s As Ks Qs",
    "3c Jc 10c 9c",
    "3d Jd 10d 9d",
    "3h Jh 10h 9h",
    "3s Js 10s 9s",
    "4c 8c 7c 6c",
]
EX_STOCK = "5h 5c 5d 6d 7d 8d 4h 6h 7h 8h 4d 4s 5s 6s 7s 8s"
EX_POLICY = pol(*[row(keep=k) for k in (15, 14, 15, 15, 15, 15, 12, 2, 2)])
EX_AFTER_REPLACEMENT = [
    "Ac Kc Qc 5c",
    "Ad Kd Qd 5d",
    "Ah Kh Qh 6d",
    "As Ks Qs 7d",
    "Jc 10c 9c 8d",
    "Jd 10d 9d 4h",
    "Jh 10h 9h 6h",
    "Js 10s 9s 7h",
    "8c 7c 6c 8h",
]


def test_exhaust_deal_uses_the_whole_pack():
    assert len(deal(EX_SEATS, EX_STOCK)) == 52
    res = play(R._replace(trade_exhaust=SERVE_UNTIL_EMPTY), same(9), EX_SEATS, EX_STOCK, compulsory=True)
    assert res["lead"] == 6
    assert ints(res["turned"]) == cards("5h")
    assert held(res) == hands(*EX_AFTER_REPLACEMENT)


def test_reshuffle_discards_pile_order_and_at_most_one_reshuffle():
    # s0: allowed min(4, 6 + pile 10) = 4, draws 4d 4s 5s 6s; its discards join the pile
    #     in suit order, 2 up to A: 5c Qc Kc Ac.
    # s1: allowed min(3, 2 + 14) = 3: draws 7s 8s, the pack is empty, the pile (turned 5h;
    #     fight cards from the dealer's left 2c 2d 2h 2s 3c 3d 3h 3s 4c; s0's 5c Qc Kc Ac;
    #     NOT s1's own discards) becomes the pack (14 cards): draws 5h.  Pile = s1's discards.
    # s2 draws 2c 2d 2h 2s; s3 3c 3d 3h 3s; s4 4c 5c Qc Kc; one card left (Ac).
    # s5 wants 4, the pile was already reshuffled once: allowed min(4, 1) = 1, so it trades
    #     the lowest wanted card (4h) and draws Ac.  s6 wants 4, allowed 0.
    rules = R._replace(trade_exhaust=RESHUFFLE_DISCARDS)
    res = play(rules, EX_POLICY, EX_SEATS, EX_STOCK, compulsory=True)
    assert ints(res["traded"]) == [4, 3, 4, 4, 4, 1, 0, 0, 0]
    assert held(res) == hands(
        "4d 4s 5s 6s",
        "Ad 7s 8s 5h",
        "2c 2d 2h 2s",
        "3c 3d 3h 3s",
        "4c 5c Qc Kc",
        "Jd 10d 9d Ac",
        "Jh 10h 9h 6h",
        "Js 10s 9s 7h",
        "8c 7c 6c 8h",
    )
    assert res["reshuffled"] == 1
    assert res["stock_short"] == 1


def test_reshuffle_discards_without_running_short():
    # Only s0 (4), s1 (3) and s2 (4) trade: s1 draws 7s 8s then 5h from the reshuffled pile;
    # s2 draws 2c 2d 2h 2s.  Nobody is cut short.
    policy = pol(*[row(keep=k) for k in (15, 14, 15, 2, 2, 2, 2, 2, 2)])
    res = play(R, policy, EX_SEATS, EX_STOCK, compulsory=True)
    assert ints(res["traded"]) == [4, 3, 4, 0, 0, 0, 0, 0, 0]
    assert held(res)[:3] == hands("4d 4s 5s 6s", "Ad 7s 8s 5h", "2c 2d 2h 2s")
    assert res["reshuffled"] == 1
    assert res["stock_short"] == 0


def test_serve_until_empty_short_trader_keeps_its_higher_cards():
    # s0 draws 4d 4s 5s 6s (2 left).  s1 wants Kd Qd 5d, allowed 2: trades the lowest two
    # wanted (5d, Qd), keeps Ad Kd, draws 7s 8s.  Nobody after can trade.
    rules = R._replace(trade_exhaust=SERVE_UNTIL_EMPTY)
    res = play(rules, EX_POLICY, EX_SEATS, EX_STOCK, compulsory=True)
    assert ints(res["traded"]) == [4, 2, 0, 0, 0, 0, 0, 0, 0]
    expected = list(EX_AFTER_REPLACEMENT)
    expected[0], expected[1] = "4d 4s 5s 6s", "Ad Kd 7s 8s"
    assert held(res) == hands(*expected)
    assert res["stock_short"] == 1
    assert res["reshuffled"] == 0


def test_cap_equal_with_stock_smaller_than_the_table():
    # S = 6 cards, 9 playing: cap 6 // 9 = 0.  Nobody trades; those who wanted are short.
    rules = R._replace(trade_exhaust=CAP_EQUAL)
    res = play(rules, EX_POLICY, EX_SEATS, EX_STOCK, compulsory=True)
    assert ints(res["traded"]) == [0] * 9
    assert held(res) == hands(*EX_AFTER_REPLACEMENT)
    assert res["stock_short"] == 1
    assert res["reshuffled"] == 0


# Cap-equal on six seats, dealer 5.  Fight cards (lowest) 2c 2d 2h 2s 3c 3d; turned Qc ->
# clubs 2c, 3c -> seat 4.  Replacements 4c 4d 4h 4s 5c 5d.  S = 52 - 24 - 1 - 6 = 21.
#   s0 7c 8c Kc 4c (keep 15: wants 4)   s1 7d 8d Kd 4d (keep 9: wants 7d 8d 4d)
#   s2..s5 keep 2.  Stock: Js Qs Ks Jh Qh Kh Jd Qd.
CAP_SEATS = ["2c 7c 8c Kc", "2d 7d 8d Kd", "2h 7h 8h Ah", "2s 7s 8s As", "3c 9c 10c Ac", "3d 9d 10d Ad"]
CAP_STOCK = "Qc 4c 4d 4h 4s 5c 5d Js Qs Ks Jh Qh Kh Jd Qd"


def test_cap_equal_caps_each_trader_at_stock_over_players_in():
    # Six playing: cap 21 // 6 = 3.  s0 trades its lowest three wanted (4c 7c 8c), keeps Kc,
    # draws Js Qs Ks; s1 trades 3 (within the cap), draws Jh Qh Kh.
    rules = R._replace(trade_exhaust=CAP_EQUAL)
    policy = pol(row(keep=15), row(keep=9), row(), row(), row(), row())
    res = play(rules, policy, CAP_SEATS, CAP_STOCK, compulsory=True)
    assert res["lead"] == 4
    assert ints(res["traded"]) == [3, 3, 0, 0, 0, 0]
    assert held(res)[:2] == hands("Kc Js Qs Ks", "Kd Jh Qh Kh")
    assert res["stock_short"] == 1


def test_cap_equal_counts_only_the_players_in():
    # Not compulsory; seat 5 (Ad 9d 10d 5d: strength 2 < 9, did not win the fight) drops,
    # the rest stay (threshold 0).  Five playing: cap 21 // 5 = 4.  s0 trades 4: Js Qs Ks Jh;
    # s1 trades 3: Qh Kh Jd.
    rules = R._replace(trade_exhaust=CAP_EQUAL)
    policy = pol(row(stay=0, keep=15), row(stay=0, keep=9), row(stay=0), row(stay=0), row(stay=0), row(stay=9, lead=0))
    res = play(rules, policy, CAP_SEATS, CAP_STOCK)
    assert ints(res["playing"]) == [1, 1, 1, 1, 1, 0]
    assert ints(res["traded"]) == [4, 3, 0, 0, 0, 0]
    assert held(res)[:2] == hands("Js Qs Ks Jh", "Kd Qh Kh Jd")
    assert res["stock_short"] == 0


# ----------------------------------------------------------------------------------------
# Card play


# n=3, dealer 2, compulsory, no trading.  Seat 0 fights highest (Js), seat 1 highest (Ad),
# seat 2 lowest (3c).  Turned 8s -> spades -> seat 0 leads.  Replacements 7d 9s Qd.
#   seat 0 2h 5c 6c 7d      seat 1 9h Qs 10s 9s      seat 2 Kd Ks Kc Qd
# Dead from the start: Js Ad 3c 8s.  P = 12.
PLAY3_SEATS = ["2h 5c 6c Js", "Ad 9h Qs 10s", "Kd Ks Kc 3c"]
PLAY3_STOCK = "8s 7d 9s Qd"


def play3_policy(style):
    return pol(
        row(fight=FIGHT_HIGHEST, style=style),
        row(fight=FIGHT_HIGHEST, style=style),
        row(fight=FIGHT_LOWEST, style=style),
    )


def test_follow_suit_void_discard_and_winner_of_the_suit_led():
    # Greedy.
    # T1 seat 0 has no sure winner: lowest 2h.  Seat 1 follows with 9h.  Seat 2 is void in
    #    hearts: lowest card Qd, higher in rank than 9h but off-suit -> seat 1 wins.
    # T2 seat 1: Qs is not sure (Ks, As out) -> lowest 9s.  Seat 2 must follow: Ks (its
    #    lowest card overall would be Kc).  Seat 0 void: 5c.  Seat 2 wins.
    # T3 seat 2: Kd is a sure winner (Ad is a dead fight card), Kc is not (Ac unseen):
    #    leads Kd (with no sure winner it would lead Kc, the Kc/Kd tie going to clubs).
    #    Seat 0 must follow with 7d (not its lower 6c).  Seat 1 void: 10s.
    # T4 Kc - 6c - Qs.  Seat 2 wins.
    # Won 0, 1, 3: seat 0 pays P; seat 1 +3; seat 2 +9; pot_next 12.
    res = play(R, play3_policy(STYLE_GREEDY), PLAY3_SEATS, PLAY3_STOCK, compulsory=True)
    assert ints(res["fight"]) == cards("Js Ad 3c")
    assert res["lead"] == 0
    assert held(res) == hands("2h 5c 6c 7d", "9h Qs 10s 9s", "Kd Ks Kc Qd")
    assert tricks(res) == [
        trick(0, "0:2h 1:9h 2:Qd", 1),
        trick(1, "1:9s 2:Ks 0:5c", 2),
        trick(2, "2:Kd 0:7d 1:10s", 2),
        trick(2, "2:Kc 0:6c 1:Qs", 2),
    ]
    assert ints(res["won"]) == [0, 1, 3]
    assert ints(res["net"]) == [-12, 3, 9]
    assert res["pot_next"] == 12
    settles(res, 12)


def test_high_style_leads_and_follows_with_the_highest():
    # High.
    # T1 seat 0 leads its highest, 7d.  Seat 1 void in diamonds: lowest, 9h/9s tie -> 9h.
    #    Seat 2 follows with its highest diamond, Kd.  Seat 2 wins.
    # T2 seat 2 leads its highest: Kc/Ks tie -> Kc.  Seat 0 follows highest club 6c; seat 1
    #    void: lowest 9s.  T3 Ks - seat 0 void: 2h - seat 1 Qs.  T4 Qd - 5c - 10s.
    # Seat 2 takes all four; seats 0 and 1 pay 12 each: pot_next 24.
    res = play(R, play3_policy(STYLE_HIGH), PLAY3_SEATS, PLAY3_STOCK, compulsory=True)
    assert tricks(res) == [
        trick(0, "0:7d 1:9h 2:Kd", 2),
        trick(2, "2:Kc 0:6c 1:9s", 2),
        trick(2, "2:Ks 0:2h 1:Qs", 2),
        trick(2, "2:Qd 0:5c 1:10s", 2),
    ]
    assert ints(res["won"]) == [0, 0, 4]
    assert ints(res["net"]) == [-12, -12, 12]
    assert res["pot_next"] == 24
    settles(res, 12)


def test_greedy_follower_beats_the_card_now_winning_not_the_card_led():
    # n=3, dealer 2, all lowest, greedy.  Fight 3s 2c 2d; turned Ks -> spades -> seat 0.
    # Replacements 8c 4d 4s.  Seat 0 5h 6c 7c 8c, seat 1 9h Jh 3d 4d, seat 2 7h 10h Kh 4s.
    # T1 seat 0 lowest 5h; seat 1 cheapest heart beating 5h: 9h; seat 2 cheapest heart
    #    beating 9h (the card now winning): 10h, not 7h.  Seat 2 wins.
    # T2 seat 2: Kh not sure (Ah unseen): lowest 4s; seat 0 void: 6c; seat 1 void: 3d.
    # T3 seat 2: 7h; seat 0 void: 7c; seat 1 Jh beats it.  T4 seat 1 4d - Kh - 8c.
    seats = ["5h 6c 7c 3s", "9h Jh 3d 2c", "7h 10h Kh 2d"]
    res = play(R, same(3), seats, "Ks 8c 4d 4s", compulsory=True)
    assert res["lead"] == 0
    assert tricks(res) == [
        trick(0, "0:5h 1:9h 2:10h", 2),
        trick(2, "2:4s 0:6c 1:3d", 2),
        trick(2, "2:7h 0:7c 1:Jh", 1),
        trick(1, "1:4d 2:Kh 0:8c", 1),
    ]
    assert ints(res["won"]) == [0, 2, 2]
    assert ints(res["net"]) == [-12, 6, 6]
    assert res["pot_next"] == 12


# n=2, dealer 1 (deal and replacement order 0, 1).  Fight 2c / 2d; turned Jd -> seat 1.
# Replacements 9d, 2h.  Seat 0 Ah 3h 5c 9d, seat 1 Kh Qh 10c 2h.
TWO_SEATS = ["Ah 3h 5c 2c", "Kh Qh 10c 2d"]
TWO_STOCK = "Jd 9d 2h"


def test_two_players_greedy_cheapest_winner_and_lowest_loser():
    # T1 seat 1: Kh not sure (Ah held by seat 0, not dead): lowest 2h.  Seat 0 wins with its
    #    cheapest winning heart, 3h (not Ah).
    # T2 seat 0 leads its sure Ah; seat 1 cannot beat it: lowest heart Qh (not Kh).
    # T3 seat 0: no sure winner: 5c; seat 1 follows 10c and wins.  T4 seat 1 Kh - 9d.
    # Two tricks each, P = 4: +2 each, the game ends.
    res = play(R, same(2), TWO_SEATS, TWO_STOCK, compulsory=True)
    assert res["lead"] == 1
    assert held(res) == hands("Ah 3h 5c 9d", "Kh Qh 10c 2h")
    assert tricks(res) == [
        trick(1, "1:2h 0:3h", 0),
        trick(0, "0:Ah 1:Qh", 0),
        trick(0, "0:5c 1:10c", 1),
        trick(1, "1:Kh 0:9d", 1),
    ]
    assert ints(res["won"]) == [2, 2]
    assert ints(res["net"]) == [2, 2]
    assert res["pot_next"] == 0


def test_greedy_leads_sure_winners_highest_first():
    # n=2, dealer 1.  Seat 0 fights lowest (2s), seat 1 highest (Ad); turned Qs -> seat 0.
    # Replacements 2h, 6h.  Seat 0 As Ac Kd 2h, seat 1 3c 4s 5d 6h.
    # Sure winners of seat 0: Ac, As, Kd (Ad dead).  Highest first, Ac/As tie -> Ac.
    # T1 Ac - 3c; T2 As - 4s; T3 Kd - 5d; T4 2h - 6h (seat 1 wins).
    seats = ["As Ac Kd 2s", "Ad 3c 4s 5d"]
    res = play(R, pol(row(), row(fight=FIGHT_HIGHEST)), seats, "Qs 2h 6h", compulsory=True)
    assert ints(res["fight"]) == cards("2s Ad")
    assert res["lead"] == 0
    assert tricks(res) == [
        trick(0, "0:Ac 1:3c", 0),
        trick(0, "0:As 1:4s", 0),
        trick(0, "0:Kd 1:5d", 0),
        trick(0, "0:2h 1:6h", 1),
    ]
    assert ints(res["net"]) == [3, 1]
    assert res["pot_next"] == 0


def test_played_cards_are_dead_for_sure_winners():
    # n=2, dealer 1.  Fight 2s / 2c; turned Js -> seat 0.  Replacements 2h, 4s.
    # Seat 0 Ac 8d 9d 2h, seat 1 Kc 3c 10h 4s.
    # T1 seat 0 leads sure Ac; seat 1 follows its lowest club 3c.
    # T2 seat 0 lowest 2h; seat 1 wins with 10h.
    # T3 seat 1: Kc is now sure (Ac played): leads Kc, not its lowest 4s; seat 0 void: 8d.
    # T4 4s - 9d.
    seats = ["Ac 8d 9d 2s", "Kc 3c 10h 2c"]
    res = play(R, same(2), seats, "Js 2h 4s", compulsory=True)
    assert res["lead"] == 0
    assert tricks(res) == [
        trick(0, "0:Ac 1:3c", 0),
        trick(0, "0:2h 1:10h", 1),
        trick(1, "1:Kc 0:8d", 1),
        trick(1, "1:4s 0:9d", 1),
    ]
    assert ints(res["won"]) == [1, 3]
    assert ints(res["net"]) == [1, 3]


# ----------------------------------------------------------------------------------------
# Settlement


def test_settlement_with_an_explicit_pot():
    # The greedy three-player hand with P = 40: tricks pay 10; seat 0 took none and pays 40.
    res = play(R, play3_policy(STYLE_GREEDY), PLAY3_SEATS, PLAY3_STOCK, pot=40, compulsory=True)
    assert ints(res["won"]) == [0, 1, 3]
    assert ints(res["net"]) == [-40, 10, 30]
    assert res["pot_next"] == 40
    settles(res, 40)


def test_settlement_two_losers_multiply_the_pot():
    # The high-style hand with P = 100: seat 2 wins 100; seats 0 and 1 pay 100 each:
    # pot_next = L * P = 200; nets sum to P - pot_next = -100.
    res = play(R, play3_policy(STYLE_HIGH), PLAY3_SEATS, PLAY3_STOCK, pot=100, compulsory=True)
    assert ints(res["net"]) == [-100, -100, 100]
    assert res["pot_next"] == 200
    settles(res, 100)


def test_settlement_pot_from_the_ante_rule():
    # ante 6, n=2: P = 12; two tricks each at 3.
    res = play(R._replace(ante=6), same(2), TWO_SEATS, TWO_STOCK, compulsory=True)
    assert ints(res["net"]) == [6, 6]
    assert res["pot_next"] == 0


def test_settlement_default_three_player_pot_is_twelve():
    # ante 0 -> 4 / gcd(3, 4) = 4, P = 12: the greedy three-player hand pays 3 per trick.
    res = play(R, play3_policy(STYLE_GREEDY), PLAY3_SEATS, PLAY3_STOCK, compulsory=True)
    assert ints(res["net"]) == [-12, 3, 9]


# A reshuffle empties the dead set.  Nine seats, dealer 8, not compulsory; seats 0 and 1
# play (stay 0), seats 2..8 drop (stay 9, no stay_with_lead).  Every card is listed.
# Fight cards: 2c (s0), 2s (s1), 6c 10c 2d 5d 9d 2h (lowest), Ad (s8, highest).  Turned 9s:
# the only spade fight card is 2s -> seat 1 wins and leads.  Replacements (seat order)
# Qh 5h Kh Ah 10s Js Qs Ks As; stock S = 6: 3s 4s 5s 6s 7s 8s.
#   s0 3c 4c 5c Qh (keep 15: trades 4)    s1 Kd 3h 4h 5h (keep 13: wants 3h 4h 5h)
DEAD_SEATS = [
    "2c 3c 4c 5c",
    "Kd 3h 4h 2s",
    "6c 7c 8c 9c",
    "10c Jc Qc Kc",
    "Ac 2d 3d 4d",
    "5d 6d 7d 8d",
    "9d 10d Jd Qd",
    "2h 6h 7h 8h",
    "Ad 9h 10h Jh",
]
DEAD_STOCK = "9s Qh 5h Kh Ah 10s Js Qs Ks As 3s 4s 5s 6s 7s 8s"
DEAD_POLICY = pol(
    row(stay=0, keep=15), row(stay=0, keep=13), *[row(stay=9, lead=0)] * 6, row(fight=FIGHT_HIGHEST, stay=9, lead=0)
)


def test_reshuffle_puts_a_dead_ace_back_in_play():
    # reshuffle-discards: s0 draws 3s 4s 5s 6s; s1 draws 7s 8s, the pile (9s, the fight
    # cards with Ad, s0's discards) becomes the pack, s1 draws 9s.  The dead set is emptied:
    # Ad is back in the pack, so s1's Kd is no longer a sure winner.
    # s1 Kd 7s 8s 9s leads its lowest, 7s (s0 3s); then 8s (4s), 9s (5s), Kd (6s).
    # s1 takes all four, s0 pays P = 36.
    assert len(deal(DEAD_SEATS, DEAD_STOCK)) == 52
    res = play(R, DEAD_POLICY, DEAD_SEATS, DEAD_STOCK)
    assert ints(res["fight"]) == cards("2c 2s 6c 10c 2d 5d 9d 2h Ad")
    assert res["lead"] == 1
    assert ints(res["playing"]) == [1, 1, 0, 0, 0, 0, 0, 0, 0]
    assert ints(res["traded"])[:2] == [4, 3]
    assert held(res)[:2] == hands("3s 4s 5s 6s", "Kd 7s 8s 9s")
    assert res["reshuffled"] == 1
    assert tricks(res) == [
        trick(1, "1:7s 0:3s", 1),
        trick(1, "1:8s 0:4s", 1),
        trick(1, "1:9s 0:5s", 1),
        trick(1, "1:Kd 0:6s", 1),
    ]
    assert ints(res["net"]) == [-36, 36, 0, 0, 0, 0, 0, 0, 0]
    assert res["pot_next"] == 36


def test_without_reshuffle_a_king_whose_ace_was_a_fight_card_is_a_sure_winner():
    # serve-until-empty on the same deal: s1 is allowed 2, trades its lowest wanted 3h 4h,
    # keeps Kd 5h, draws 7s 8s.  Ad stays dead, so Kd is sure and is led first (s0 void: 3s).
    # Then 5h (no sure winner; s0 void: 4s), 7s (8s is not sure: 10s..As unseen; s0 5s),
    # 8s (6s).
    rules = R._replace(trade_exhaust=SERVE_UNTIL_EMPTY)
    res = play(rules, DEAD_POLICY, DEAD_SEATS, DEAD_STOCK)
    assert ints(res["traded"])[:2] == [4, 2]
    assert held(res)[:2] == hands("3s 4s 5s 6s", "Kd 5h 7s 8s")
    assert res["stock_short"] == 1
    assert res["reshuffled"] == 0
    assert tricks(res) == [
        trick(1, "1:Kd 0:3s", 1),
        trick(1, "1:5h 0:4s", 1),
        trick(1, "1:7s 0:5s", 1),
        trick(1, "1:8s 0:6s", 1),
    ]
    assert ints(res["net"]) == [-36, 36, 0, 0, 0, 0, 0, 0, 0]
