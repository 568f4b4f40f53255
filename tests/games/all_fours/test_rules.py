"""Stacked-deck rule tests of All-Fours (two players), run against both the Numba kernel
(sims.games.all_fours.stacked.play_dealt) and the plain-Python twin (sims.games.all_fours.twin.play_dealt).

Every expected value below is derived by hand from the rules contract: the package
docstring of sims/games/all_fours and the docstring of its ``play_dealt``.  Conventions
used in the derivations:
  * ranks A (high) K Q J 10 9 ... 2 in every suit; "lower suit": c < d < h < s;
  * strength(cards, suit) = over the cards of that suit A 4, K 3, Q 2, J 2, 10 2, other 1;
  * counting cards (Game): A 4, K 3, Q 2, J 1, 10 10; worth (greedy play): jack of
    trumps 20, any 10 10, A 4, K 3, Q 2, other jack 1, others 0; "cheapest" = lowest
    worth, then non-trumps before trumps, then lowest rank, then lower suit;
  * sure winner: every higher trump held or dead (trump), or every higher card of the
    suit and every trump held or dead (plain card); dead = turn-ups, own discards and
    cards played (never the stock);
  * ``deal(e, d, up, *rounds)`` stacks the pack: E's first three, D's first three, E's
    last three, D's last three, the turn-up, then per run round (E's 3, D's 3, turn-up);
    unlisted cards follow in code order (no test relies on them);
  * the dealer is seat 1 (E = seat 0) unless a test says ``dealer=0`` (then E = seat 1);
    scores start 0-0 and the target is 11 unless a test says otherwise;
  * policy rows (POLICY_FIELDS order): beg_below, give_at_least, bunch_below, play_style;
    ``row()`` defaults to the contract's 3, 4, 2, greedy; ``pol(e, d, dealer)`` puts the
    elder's and the dealer's rows at their seats.
Trick notation: ``trick(0, "0:Ah 1:4h", 0)`` = (leader, [(seat, card), (seat, card)], winner).
"""

from __future__ import annotations

import numpy as np
import pytest

import sims.games.all_fours.twin as twin
from sims.core.cards import parse_cards
from sims.games.all_fours import (
    DISCARD_TO_SIX,
    FOSTER_CLUB,
    GIFT_THEN_REDEAL,
    LOW_TO_DEALT_HOLDER,
    LOW_TO_TRICK_WINNER,
    POLICY_FIELDS,
    STYLE_GREEDY,
    STYLE_HIGH,
    TIE_ELDER_SCORES,
    TIE_NOBODY,
    Rules,
    stacked,
)

IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
play_dealt = twin.play_dealt  # rebound per test by the `implementation` fixture (conftest.py)
pytestmark = pytest.mark.usefixtures("implementation")

R = Rules()
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
RESULT_KEYS = (
    "dealt",
    "discarded",
    "held",
    "turnups",
    "trump",
    "begged",
    "gave",
    "ran",
    "void",
    "thrown_in",
    "bunched",
    "played",
    "rounds",
    "tricks",
    "game_points",
    "trumps_in_play",
    "jack_in_play",
    "game_tie",
    "high",
    "low",
    "jack",
    "game",
    "turned_jacks",
    "gift",
    "points",
    "scores",
    "winner",
    "next_dealer",
)
COUNT = {0: 4, 12: 3, 11: 2, 10: 1, 9: 10}  # face -> counting-card points


# ----------------------------------------------------------------------------------------
# Helpers


def row(beg=3, give=4, bunch=2, style=STYLE_GREEDY):
    return [beg, give, bunch, style]


def pol(e=None, d=None, dealer=1):
    """The policy matrix: the elder's row at seat 1 - dealer, the dealer's at seat dealer."""
    rows = [None, None]
    rows[1 - dealer] = row() if e is None else e
    rows[dealer] = row() if d is None else d
    return np.array(rows, dtype=np.float64)


def deal(e, d, up, *rounds):
    """The stacked pack: E's and D's six cards (3 E, 3 D, 3 E, 3 D), the turn-up, then for
    each run round (E's three, D's three, the turn-up)."""
    e, d = parse_cards(e), parse_cards(d)
    assert len(e) == 6 and len(d) == 6
    out = e[:3] + d[:3] + e[3:] + d[3:] + parse_cards(up)
    for re_, rd, ru in rounds:
        a, b, c = parse_cards(re_), parse_cards(rd), parse_cards(ru)
        assert len(a) == 3 and len(b) == 3 and len(c) == 1
        out += a + b + c
    assert len(set(out)) == len(out), "a card is listed twice"
    return out


def play(rules, policy, cards, dealer=1, scores=(0, 0)):
    return play_dealt(rules, policy, cards, dealer=dealer, scores=scores)


def hand(text):
    return sorted(parse_cards(text))


def trick(leader, plays, winner):
    """trick(0, "0:Ah 1:4h", 0)"""
    out = []
    for item in plays.split():
        seat, card = item.split(":")
        out.append((int(seat), parse_cards(card)[0]))
    return (leader, out, winner)


def norm(key, value):
    if key == "tricks":
        return [(int(l), [(int(s), int(c)) for s, c in p], int(w)) for l, p, w in value]
    if key in ("dealt", "discarded", "held"):
        return [sorted(int(c) for c in h) for h in value]
    if key in ("turnups", "game_points", "turned_jacks", "gift", "points", "scores"):
        return [int(x) for x in value]
    return int(value)


def expect(res, **fields):
    """Compare the named result fields; card lists may be given as text ("Ah 3h", or one
    text per seat), tricks as trick(...) tuples."""
    got, want = {}, {}
    for key, value in fields.items():
        if key in ("dealt", "discarded", "held"):
            value = [hand(v) if isinstance(v, str) else sorted(v) for v in value]
        elif key == "turnups" and isinstance(value, str):
            value = parse_cards(value)
        got[key] = norm(key, res[key])
        want[key] = value
    assert got == want


def check_law(res, dealer=1):
    """The laws every played hand obeys (independent of style): E leads first, the winner
    leads next, every card comes from the seat's held cards, a trump lead is followed
    with a trump when one is held, a plain lead is followed by its suit or a trump when
    the suit is held, the highest trump (else the highest card of the suit led) wins,
    and game_points are the counting cards of each seat's tricks."""
    trump = int(res["trump"])
    hands = [set(h) for h in norm("held", res["held"])]
    assert len(hands[0]) == len(hands[1])
    tricks = norm("tricks", res["tricks"])
    assert len(tricks) == len(hands[0])
    to_lead = 1 - dealer
    points = [0, 0]

    def rank(c):
        return 14 if c % 13 == 0 else c % 13 + 1

    for leader, plays, winner in tricks:
        assert leader == to_lead
        (s0, c0), (s1, c1) = plays
        assert s0 == leader and s1 == 1 - leader
        assert c0 in hands[s0] and c1 in hands[s1]
        led = c0 // 13
        follower = hands[s1]
        if led == trump:
            if any(c // 13 == trump for c in follower):
                assert c1 // 13 == trump
        elif any(c // 13 == led for c in follower):
            assert c1 // 13 in (led, trump)
        hands[s0].discard(c0)
        hands[s1].discard(c1)
        if c1 // 13 == trump:
            second_wins = c0 // 13 != trump or rank(c1) > rank(c0)
        else:
            second_wins = c1 // 13 == led and led != trump and rank(c1) > rank(c0)
        assert winner == (s1 if second_wins else s0)
        points[winner] += COUNT.get(c0 % 13, 0) + COUNT.get(c1 % 13, 0)
        to_lead = winner
    assert hands == [set(), set()]
    assert norm("game_points", res["game_points"]) == points


NOT_PLAYED = dict(
    played=0,
    tricks=[],
    game_points=[0, 0],
    trumps_in_play=0,
    jack_in_play=0,
    game_tie=0,
    high=-1,
    low=-1,
    jack=-1,
    game=-1,
)


def test_policy_columns_are_in_contract_order():
    assert [f.key for f in POLICY_FIELDS] == ["beg_below", "give_at_least", "bunch_below", "play_style"]


# ----------------------------------------------------------------------------------------
# A standing hand, played out (the reference deal of several tests below)
#
# S1: turn-up 5h (hearts trump).  E: Ah Kh 3h 10c 2c 2d (strength 4+3+1 = 8 >= 3: stands).
#     D: Jh 4h 10d Qc 3s 4s.
S1 = deal("Ah Kh 3h 10c 2c 2d", "Jh 4h 10d Qc 3s 4s", "5h")


def test_stand_hand_greedy_full_result():
    # T1 E leads: Jh not held; Ah is a sure trump (nothing higher) -> Ah.  D must follow
    #    the trump lead with a trump (Jh 4h); nothing beats Ah -> cheapest: 4h (worth 0 <
    #    the jack's 20).  E wins (4).
    # T2 E: Kh is sure (Ah dead) -> Kh.  D's only trump Jh is forced.  E wins (3+1).
    # T3 E: 3h is not sure (Qh, 10h.. unseen); no plain card is sure (trumps unseen);
    #    cheapest: worth 0, non-trumps before 3h, rank 2 (2c/2d) -> lower suit 2c.  D holds clubs: lowest club
    #    beating 2c = Qc.  D wins (2).
    # T4 D: nothing sure; cheapest of 10d 3s 4s = 3s.  E void in spades, 3s worth 0 (no
    #    trumping) -> cheapest legal: 3h and 2d worth 0, non-trumps first -> 2d.  D wins.
    # T5 D: 4s (worth 0 before 10d).  E void, holds 3h 10c: lowest worth first -> ruffs
    #    with 3h (0) rather than throw 10c (10).  E wins.
    # T6 E: 10c, D void in clubs: 10d.  E wins (20).
    # Game points E 4+4+0+20 = 28, D 2+0 = 2.  Trumps in play Ah Kh 3h (E), Jh 4h (D):
    # High Ah -> E, Low 3h -> E, Jack Jh won by E in T2 -> E, Game -> E: 4-0.
    res = play(R, pol(), S1)
    assert set(RESULT_KEYS) <= set(res)
    expect(
        res,
        dealt=["Ah Kh 3h 10c 2c 2d", "Jh 4h 10d Qc 3s 4s"],
        discarded=["", ""],
        held=["Ah Kh 3h 10c 2c 2d", "Jh 4h 10d Qc 3s 4s"],
        turnups="5h",
        trump=HEARTS,
        begged=0,
        gave=0,
        ran=0,
        void=0,
        thrown_in=0,
        bunched=0,
        played=1,
        rounds=0,
        tricks=[
            trick(0, "0:Ah 1:4h", 0),
            trick(0, "0:Kh 1:Jh", 0),
            trick(0, "0:2c 1:Qc", 1),
            trick(1, "1:3s 0:2d", 1),
            trick(1, "1:4s 0:3h", 0),
            trick(0, "0:10c 1:10d", 0),
        ],
        game_points=[28, 2],
        trumps_in_play=5,
        jack_in_play=1,
        game_tie=0,
        high=0,
        low=0,
        jack=0,
        game=0,
        turned_jacks=[0, 0],
        gift=[0, 0],
        points=[4, 0],
        scores=[4, 0],
        winner=-1,
        next_dealer=0,
    )
    check_law(res)


def test_stand_hand_adds_to_the_scores_before_the_deal():
    # S1 from 3-5: E scores its 4 points -> 7-5; nobody reaches 11; D (seat 1) deals, so
    # seat 0 deals next.
    res = play(R, pol(), S1, scores=(3, 5))
    expect(res, points=[4, 0], scores=[7, 5], winner=-1, next_dealer=0)


def test_stand_hand_with_seat_0_dealing():
    # S1 with dealer=0: E (seat 1) gets E's cards; the same play with the seats swapped:
    # E scores 4.  The next dealer is the other seat, 1.
    res = play(R, pol(dealer=0), S1, dealer=0)
    expect(
        res,
        held=["Jh 4h 10d Qc 3s 4s", "Ah Kh 3h 10c 2c 2d"],
        tricks=[
            trick(1, "1:Ah 0:4h", 1),
            trick(1, "1:Kh 0:Jh", 1),
            trick(1, "1:2c 0:Qc", 0),
            trick(0, "0:3s 1:2d", 0),
            trick(0, "0:4s 1:3h", 1),
            trick(1, "1:10c 0:10d", 1),
        ],
        game_points=[2, 28],
        high=1,
        low=1,
        jack=1,
        game=1,
        points=[0, 4],
        scores=[0, 4],
        next_dealer=1,
    )
    check_law(res, dealer=0)


# ----------------------------------------------------------------------------------------
# Turned-up jacks

# J1: S1 with D's jack swapped for Qh and the jack turned up.
J1 = deal("Ah Kh 3h 10c 2c 2d", "Qh 4h 10d Qc 3s 4s", "Jh")


def test_turned_jack_scores_for_the_dealer_and_is_not_in_play():
    # Turn-up Jh: D scores 1.  E's strength 8 -> stands.  Play as S1 except T2: D's only
    # trump left is Qh (4h went under Ah: cheapest, worth 0 < 2).  E: Ah+4h 4, Kh+Qh 5,
    # 4s+3h 0, 10c+10d 20 = 29; D: 2c+Qc 2, 3s+2d 0 = 2.  High Ah E, Low 3h E, Jack:
    # the jack was turned up, not in play -> nobody; Game E.  Points E 3, D 1 (the turn-up).
    res = play(R, pol(), J1)
    expect(
        res,
        turnups="Jh",
        trump=HEARTS,
        begged=0,
        played=1,
        tricks=[
            trick(0, "0:Ah 1:4h", 0),
            trick(0, "0:Kh 1:Qh", 0),
            trick(0, "0:2c 1:Qc", 1),
            trick(1, "1:3s 0:2d", 1),
            trick(1, "1:4s 0:3h", 0),
            trick(0, "0:10c 1:10d", 0),
        ],
        game_points=[29, 2],
        trumps_in_play=5,
        jack_in_play=0,
        high=0,
        low=0,
        jack=-1,
        game=0,
        turned_jacks=[0, 1],
        points=[3, 1],
        scores=[3, 1],
        winner=-1,
    )
    check_law(res)


@pytest.mark.parametrize("dealer", [1, 0], ids=["dealer-1", "dealer-0"])
def test_turned_jack_reaching_the_target_ends_the_deal(dealer):
    # D at 10 of 11 turns up Jh: D reaches 11 at once; E never decides (begged 0 although E
    # would always beg), nothing is played.
    scores = (0, 10) if dealer == 1 else (10, 0)
    res = play(R, pol(e=row(beg=15), dealer=dealer), J1, dealer=dealer, scores=scores)
    pts = [0, 0]
    pts[dealer] = 1
    final = list(scores)
    final[dealer] = 11
    expect(
        res,
        begged=0,
        gave=0,
        ran=0,
        turnups="Jh",
        rounds=0,
        turned_jacks=pts,
        gift=[0, 0],
        points=pts,
        scores=final,
        winner=dealer,
        **NOT_PLAYED,
    )


# ----------------------------------------------------------------------------------------
# Stand or beg (E's policy) and give or run (D's policy)

BEG_D = "7c 8c 9c 2d 3d 4d"


@pytest.mark.parametrize(
    "e_cards, beg_below, begged",
    [
        ("Qh 2h 3c 4c 5c 6c", 3, 0),  # strength Qh 2 + 2h 1 = 3; 3 < 3 is false: stand
        ("Qh 2h 3c 4c 5c 6c", 4, 1),  # 3 < 4: beg
        ("Qh 2h 3c 4c 5c 6c", 0, 0),  # 0 never begs
        ("Ah Kh Qh Jh 10h 9h", 14, 0),  # strength 4+3+2+2+2+1 = 14; 14 < 14 false
        ("Ah Kh Qh Jh 10h 9h", 15, 1),  # 15 always begs
        ("As Ks Qs Js 10s 9s", 1, 1),  # strength counts the turn-up suit only: 0 < 1
    ],
    ids=["equal-stands", "one-below-begs", "zero-never", "fourteen-stands", "fifteen-begs", "other-suit"],
)
def test_stand_or_beg_by_beg_below(e_cards, beg_below, begged):
    # Turn-up 5h.  D always gives (give_at_least 0): a beg is answered by the gift.
    res = play(R, pol(e=row(beg=beg_below), d=row(give=0)), deal(e_cards, BEG_D, "5h"))
    expect(res, begged=begged, gave=begged, ran=0, gift=[begged, 0], trump=HEARTS, rounds=0, turnups="5h")


GIVE_E = "2c 3c 4c 2d 3d 4d"
GIVE_ROUND = ("9c 10c Jc", "5d 6d 7d", "Kd")


@pytest.mark.parametrize(
    "d_cards, give_at_least, gave",
    [
        ("Ah 2h 5c 6c 7c 8c", 5, 1),  # strength Ah 4 + 2h 1 = 5 >= 5: give
        ("Ah 2h 5c 6c 7c 8c", 6, 0),  # 5 < 6: run
        ("Jh 10h 2h 5c 6c 7c", 5, 1),  # J 2 + 10 2 + 2h 1 = 5 >= 5: give
        ("Jh 10h 2h 5c 6c 7c", 6, 0),
        ("Kh 5c 6c 7c 8c Qc", 0, 1),  # 0 always gives
        ("Kh 5c 6c 7c 8c Qc", 15, 0),  # 15 always runs
    ],
    ids=["equal-gives", "one-above-runs", "jack-ten-gives", "jack-ten-runs", "zero-always", "fifteen-never"],
)
def test_give_or_run_by_give_at_least(d_cards, give_at_least, gave):
    # E always begs.  Give: E scores the gift, the hand is played in hearts.  Run: one
    # round, its turn-up Kd is not a heart -> diamonds are trump.
    res = play(R, pol(e=row(beg=15), d=row(give=give_at_least)), deal(GIVE_E, d_cards, "5h", GIVE_ROUND))
    if gave:
        expect(res, begged=1, gave=1, ran=0, gift=[1, 0], trump=HEARTS, rounds=0, turnups="5h")
    else:
        expect(res, begged=1, gave=0, ran=1, gift=[0, 0], trump=DIAMONDS, rounds=1, turnups="5h Kd")


GP = deal(GIVE_E, "Ah 2h 5c 6c 7c 8c", "5h", GIVE_ROUND)


def test_gift_then_play_full_result():
    # E begs (strength 0 < 3), D gives (Ah 2h: 5 >= 4): E scores 1; hearts stay trump.
    # T1 E: no sure card; cheapest 2c (2c/2d tie -> clubs).  D: lowest club beating it: 5c.
    # T2 D: Ah sure -> Ah.  E has no trump: nothing wins -> cheapest 2d.  D (4).
    # T3 D: 2h not sure (3h 4h.. unseen); cheapest 6c.  E: no club beats it -> 3c.
    # T4 D 7c, E 4c.  T5 D 8c, E void in clubs -> 3d.  T6 D 2h, E 4d.  D wins all.
    # Game D 4-0.  High Ah D, Low 2h D, no Jack (Jh in the stock), Game D.  E 1 (gift), D 3.
    res = play(R, pol(), GP)
    expect(
        res,
        begged=1,
        gave=1,
        ran=0,
        gift=[1, 0],
        trump=HEARTS,
        played=1,
        tricks=[
            trick(0, "0:2c 1:5c", 1),
            trick(1, "1:Ah 0:2d", 1),
            trick(1, "1:6c 0:3c", 1),
            trick(1, "1:7c 0:4c", 1),
            trick(1, "1:8c 0:3d", 1),
            trick(1, "1:2h 0:4d", 1),
        ],
        game_points=[0, 4],
        trumps_in_play=2,
        jack_in_play=0,
        high=1,
        low=1,
        jack=-1,
        game=1,
        points=[1, 3],
        scores=[1, 3],
        winner=-1,
        next_dealer=0,
    )
    check_law(res)


@pytest.mark.parametrize(
    "target, s_e, gave",
    [
        (11, 10, 0),  # 10 + 1 >= 11: D must run although its policy gives
        (11, 9, 1),  # 9 + 1 < 11: the gift is allowed
        (7, 6, 0),
        (7, 5, 1),
    ],
    ids=["11-at-10-runs", "11-at-9-gives", "7-at-6-runs", "7-at-5-gives"],
)
def test_gift_cannot_win_forces_a_run(target, s_e, gave):
    # E always begs, D always gives (give_at_least 0) unless forced to run.  Given: the
    # GP hand is played (D takes High, Low and Game as above): E +1, D +3.  Run: one round,
    # Kd -> diamonds.
    rules = R._replace(target=target)
    res = play(rules, pol(e=row(beg=15), d=row(give=0)), GP, scores=(s_e, 0))
    if gave:
        expect(res, gave=1, ran=0, gift=[1, 0], trump=HEARTS, points=[1, 3], scores=[s_e + 1, 3], winner=-1)
    else:
        expect(res, gave=0, ran=1, gift=[0, 0], trump=DIAMONDS, rounds=1, played=1)


def test_gift_cannot_win_uses_the_elders_score_with_seat_0_dealing():
    # dealer=0: E is seat 1, at 10 of 11 -> D (seat 0) must run.
    res = play(R, pol(e=row(beg=15), d=row(give=0), dealer=0), GP, dealer=0, scores=(0, 10))
    expect(res, begged=1, gave=0, ran=1, gift=[0, 0], trump=DIAMONDS, rounds=1)


def test_gift_wins_the_game_without_gift_cannot_win():
    # gift_cannot_win off, E at 10: the gift takes E to 11 -> E wins; nothing is played.
    rules = R._replace(gift_cannot_win=False)
    res = play(rules, pol(e=row(beg=15), d=row(give=0)), GP, scores=(10, 0))
    expect(
        res,
        begged=1,
        gave=1,
        ran=0,
        gift=[1, 0],
        turned_jacks=[0, 0],
        points=[1, 0],
        scores=[11, 0],
        winner=0,
        rounds=0,
        trump=HEARTS,
        **NOT_PLAYED,
    )


@pytest.mark.parametrize(
    "dealer, same_dealer, next_dealer",
    [
        (1, False, 0),
        (1, True, 1),
        (0, False, 1),
        (0, True, 0),
    ],
    ids=["d1-passes", "d1-same", "d0-passes", "d0-same"],
)
def test_gift_then_redeal_throws_the_cards_in(dealer, same_dealer, next_dealer):
    # E begs, D gives: E (seat 1 - dealer) scores 1 and the cards are thrown in.
    rules = R._replace(gift_then=GIFT_THEN_REDEAL, gift_redeal_same_dealer=same_dealer)
    res = play(rules, pol(e=row(beg=15), d=row(give=0), dealer=dealer), GP, dealer=dealer)
    gift = [0, 0]
    gift[1 - dealer] = 1
    expect(
        res,
        begged=1,
        gave=1,
        ran=0,
        thrown_in=1,
        void=0,
        bunched=0,
        gift=gift,
        points=gift,
        scores=gift,
        winner=-1,
        next_dealer=next_dealer,
        rounds=0,
        turned_jacks=[0, 0],
        **NOT_PLAYED,
    )


def test_gift_then_redeal_keeps_a_turned_jack_point():
    # Turn-up Jh: D 1; E begs, D gives: E 1; thrown in.  Both points stand: 1-1.
    rules = R._replace(gift_then=GIFT_THEN_REDEAL)
    res = play(rules, pol(e=row(beg=15), d=row(give=0)), deal(GIVE_E, "Ah 2h 5c 6c 7c 8c", "Jh"))
    expect(
        res, thrown_in=1, gift=[1, 0], turned_jacks=[0, 1], points=[1, 1], scores=[1, 1], next_dealer=0, **NOT_PLAYED
    )


# ----------------------------------------------------------------------------------------
# Runs
#
# R1: turn-up 5h.  E: 2c 3c 4c 2d 3d 4d (hearts 0 < 3: begs).  D: Kh 5c 6c 5d 6d 7d (Kh 3
# < 4: runs).  Round 1: E As 10s 8c, D Ks 9d Qh, turn-up 3s -> spades are trump.
R1_E, R1_D = "2c 3c 4c 2d 3d 4d", "Kh 5c 6c 5d 6d 7d"
R1 = deal(R1_E, R1_D, "5h", ("As 10s 8c", "Ks 9d Qh", "3s"))
# Keep-all play of R1 (9 tricks each):
# T1 E: As sure -> As; D's only trump Ks is forced.  E (7).
# T2 E: 10s not sure (Qs Js unseen); no plain card sure; cheapest 2c.  D: lowest club
#    beating it 5c.  D.
# T3 D: cheapest 5d.  E holds diamonds and 10s: no diamond beats 5d, 5d worth 0 (no
#    trumping) -> cheapest legal 2d.  D.
# T4 D: 6c (6c/6d tie -> clubs).  E: lowest club beating it 8c.  E.
# T5 E: 3c (3c/3d tie).  D void in clubs: nothing wins, worth 0 -> cheapest 6d.  E.
# T6 E: 3d.  D: lowest diamond beating it 7d.  D.
# T7 D: 9d (worth 0 before Qh 2, Kh 3).  E: 4d (cannot beat, no trumping a 0).  D.
# T8 D: Qh (2 < Kh 3).  E void in hearts; worth 2 > 0 and 10s wins -> 10s.  E (12).
# T9 E: 4c, D: Kh.  E (3).
# Game E 7+12+3 = 22, D 0.  Trumps in play As 10s (E), Ks (D): High As E, Low 10s E; Js
# is in the stock: no Jack.  Game E.  3-0.
R1_TRICKS = [
    trick(0, "0:As 1:Ks", 0),
    trick(0, "0:2c 1:5c", 1),
    trick(1, "1:5d 0:2d", 1),
    trick(1, "1:6c 0:8c", 0),
    trick(0, "0:3c 1:6d", 0),
    trick(0, "0:3d 1:7d", 1),
    trick(1, "1:9d 0:4d", 1),
    trick(1, "1:Qh 0:10s", 0),
    trick(0, "0:4c 1:Kh", 0),
]
R1_HELD = ["2c 3c 4c 8c 2d 3d 4d As 10s", "5c 6c 5d 6d 7d 9d Kh Qh Ks"]


def test_run_finds_a_new_suit_in_one_round_keep_all():
    res = play(R, pol(), R1)
    expect(
        res,
        begged=1,
        gave=0,
        ran=1,
        void=0,
        rounds=1,
        turnups="5h 3s",
        trump=SPADES,
        played=1,
        dealt=R1_HELD,
        discarded=["", ""],
        held=R1_HELD,
        tricks=R1_TRICKS,
        game_points=[22, 0],
        trumps_in_play=3,
        jack_in_play=0,
        game_tie=0,
        high=0,
        low=0,
        jack=-1,
        game=0,
        turned_jacks=[0, 0],
        gift=[0, 0],
        points=[3, 0],
        scores=[3, 0],
        winner=-1,
        next_dealer=0,
    )
    check_law(res)


def test_foster_club_keeps_nine_after_one_round():
    # foster-club discards only after two or more rounds: R1 plays exactly as keep-all.
    res = play(R._replace(after_run=FOSTER_CLUB), pol(), R1)
    expect(res, rounds=1, discarded=["", ""], held=R1_HELD, tricks=R1_TRICKS, points=[3, 0])
    check_law(res)


# RJ: turn-up 5h; E 2c 3c 4c 2s 3s 4s, D 5c 6c 7c 5s 6s 7s (no hearts: beg, run).
# Round 1 turn-up Jh and round 2 turn-up 9h are hearts (set aside; the jack of the rejected
# suit scores nothing); round 3 turn-up 4d: diamonds are trump.
RJ = deal(
    "2c 3c 4c 2s 3s 4s",
    "5c 6c 7c 5s 6s 7s",
    "5h",
    ("8c 9c 10c", "8s 9s 10s", "Jh"),
    ("Jc Qc Kc", "Js Qs Ks", "9h"),
    ("Ac 2d 3d", "As 5d 6d", "4d"),
)


def test_run_through_rejected_turnups_including_their_jack():
    # Keep-all: 6 + 3*3 = 15 cards each, 15 tricks.  Trumps in play: 2d 3d (E), 5d 6d (D):
    # High (dealt holder) 6d -> D, Low 2d -> E; Jd is in the stock.  Nobody scored a
    # turned jack.
    res = play(R, pol(), RJ)
    both = ["2c 3c 4c 8c 9c 10c Jc Qc Kc Ac 2s 3s 4s 2d 3d", "5c 6c 7c 5s 6s 7s 8s 9s 10s Js Qs Ks As 5d 6d"]
    expect(
        res,
        begged=1,
        ran=1,
        void=0,
        rounds=3,
        turnups="5h Jh 9h 4d",
        trump=DIAMONDS,
        played=1,
        dealt=both,
        held=both,
        discarded=["", ""],
        trumps_in_play=4,
        jack_in_play=0,
        high=1,
        low=0,
        jack=-1,
        turned_jacks=[0, 0],
    )
    assert len(res["tricks"]) == 15
    check_law(res)


# NJ: R1 with the round's turn-up Js instead of 3s (3s stays in the stock).
NJ = deal(R1_E, R1_D, "5h", ("As 10s 8c", "Ks 9d Qh", "Js"))


def test_jack_turned_up_as_the_new_trump_scores_for_the_dealer():
    # Js turned as the new trump: D scores 1.  The play is R1's (Js dead instead of 3s
    # changes no choice: 10s still not sure, Qs unseen); Js is not in play -> no Jack.
    res = play(R, pol(), NJ)
    expect(
        res,
        ran=1,
        rounds=1,
        turnups="5h Js",
        trump=SPADES,
        played=1,
        tricks=R1_TRICKS,
        jack_in_play=0,
        high=0,
        low=0,
        jack=-1,
        game=0,
        turned_jacks=[0, 1],
        points=[3, 1],
        scores=[3, 1],
        winner=-1,
    )
    check_law(res)


def test_both_turned_jacks_score():
    # First turn-up Jh (D 1; E hearts 0 -> begs; D Kh 3 -> runs), then Js (D 1 more).
    res = play(R, pol(), deal(R1_E, R1_D, "Jh", ("As 10s 8c", "Ks 9d Qh", "Js")))
    expect(res, turnups="Jh Js", trump=SPADES, tricks=R1_TRICKS, turned_jacks=[0, 2], points=[3, 2], scores=[3, 2])


def test_new_trump_jack_reaching_the_target_ends_the_deal():
    # D at 10: the turned Js takes D to 11 at once; nothing is played.
    res = play(R, pol(), NJ, scores=(0, 10))
    expect(
        res,
        begged=1,
        ran=1,
        rounds=1,
        turnups="5h Js",
        trump=SPADES,
        turned_jacks=[0, 1],
        points=[0, 1],
        scores=[0, 11],
        winner=1,
        **NOT_PLAYED,
    )


# EX: turn-up Jh (D 1), E 2c 3c 4c 2d 3d 4d and D 5c 6c 7c 5d 6d 7d hold no hearts (beg,
# run); five rounds all turn up hearts (2h 3h 4h 5h 6h): 13 + 35 = 48 cards drawn, 4 left
# (< 7) -> void.
EX_ROUNDS = (
    ("8c 9c 10c", "8d 9d 10d", "2h"),
    ("Jc Qc Kc", "Jd Qd Kd", "3h"),
    ("Ac 2s 3s", "Ad 4s 5s", "4h"),
    ("6s 7s 8s", "9s 10s Js", "5h"),
)
EX = deal("2c 3c 4c 2d 3d 4d", "5c 6c 7c 5d 6d 7d", "Jh", *EX_ROUNDS, ("Qs Ks As", "7h 8h 9h", "6h"))


@pytest.mark.parametrize(
    "keeps, dealer",
    [(False, 1), (True, 1), (False, 0), (True, 0)],
    ids=["cancel-d1", "keep-d1", "cancel-d0", "keep-d0"],
)
def test_pack_exhaustion_is_a_void_deal(keeps, dealer):
    # Void: nothing played, trump -1, the same dealer deals again; D's turned-jack point
    # (from 3-5 -> D's score + 1) is taken back unless exhaust_keeps_jack_points.
    rules = R._replace(exhaust_keeps_jack_points=keeps)
    start = (3, 5)
    res = play(rules, pol(dealer=dealer), EX, dealer=dealer, scores=start)
    pts = [0, 0]
    pts[dealer] = int(keeps)
    expect(
        res,
        begged=1,
        gave=0,
        ran=1,
        void=1,
        rounds=5,
        trump=-1,
        turnups="Jh 2h 3h 4h 5h 6h",
        turned_jacks=pts,
        points=pts,
        scores=[start[0] + pts[0], start[1] + pts[1]],
        winner=-1,
        next_dealer=dealer,
        **NOT_PLAYED,
    )
    e_seat = 1 - dealer
    assert sorted(int(c) for c in res["dealt"][e_seat]) == hand(
        "2c 3c 4c 2d 3d 4d 8c 9c 10c Jc Qc Kc Ac 2s 3s 6s 7s 8s Qs Ks As"
    )
    assert sorted(int(c) for c in res["dealt"][dealer]) == hand(
        "5c 6c 7c 5d 6d 7d 8d 9d 10d Jd Qd Kd Ad 4s 5s 9s 10s Js 7h 8h 9h"
    )


# EX5: EX with a spade turned in the fifth round (41 cards drawn after round 4, 11 >= 7
# left, so round 5 is dealt): E Qs Ks 6h, D 7h 8h 9h, turn-up As -> spades, not void.
EX5 = deal("2c 3c 4c 2d 3d 4d", "5c 6c 7c 5d 6d 7d", "Jh", *EX_ROUNDS, ("Qs Ks 6h", "7h 8h 9h", "As"))


def test_fifth_round_new_suit_with_discard_to_six():
    # 21 cards each.  Keep six, trumps from the highest down:
    #   E spades Ks Qs 8s 7s 6s 3s 2s -> keeps Ks Qs 8s 7s 6s 3s, discards 2s and every
    #     other card;  D spades Js 10s 9s 5s 4s + the highest other card Ad.
    # T1 E: Js not held; Ks sure (As turned up), Qs sure too -> highest Ks.  D must trump;
    #    nothing beats Ks -> cheapest trump (Js 20, 10s 10, others 0, lowest rank) 4s.  E (3).
    # T2 E Qs (sure), D 5s.  E (2).
    # T3 E: 8s/7s/6s not sure (Js 10s 9s unseen by E) -> cheapest 3s.  D must trump; 3s
    #    worth 0 -> cheapest 9s.  D.
    # T4 D: Js sure (As turned, Ks Qs played) -> Js first.  E cheapest trump 6s.  D (1).
    # T5 D: 10s sure now -> 10s.  E 7s.  D (10).
    # T6 D Ad, E trumps with 8s.  E (4).
    # Game E 3+2+4 = 9, D 1+10 = 11 -> D.  High Ks E (As turned up), Low 3s E (2s
    # discarded), Jack Js won by D, Game D.  E 2, D 1 (Jh turned) + 2 = 3.
    res = play(R._replace(after_run=DISCARD_TO_SIX), pol(), EX5)
    expect(
        res,
        void=0,
        rounds=5,
        trump=SPADES,
        played=1,
        turnups="Jh 2h 3h 4h 5h As",
        discarded=["2c 3c 4c 8c 9c 10c Jc Qc Kc Ac 2d 3d 4d 2s 6h", "5c 6c 7c 5d 6d 7d 8d 9d 10d Jd Qd Kd 7h 8h 9h"],
        held=["Ks Qs 8s 7s 6s 3s", "Js 10s 9s 5s 4s Ad"],
        tricks=[
            trick(0, "0:Ks 1:4s", 0),
            trick(0, "0:Qs 1:5s", 0),
            trick(0, "0:3s 1:9s", 1),
            trick(1, "1:Js 0:6s", 1),
            trick(1, "1:10s 0:7s", 1),
            trick(1, "1:Ad 0:8s", 0),
        ],
        game_points=[9, 11],
        trumps_in_play=11,
        jack_in_play=1,
        high=0,
        low=0,
        jack=1,
        game=1,
        turned_jacks=[0, 1],
        points=[2, 3],
        scores=[2, 3],
        winner=-1,
        next_dealer=0,
    )
    check_law(res)


# ----------------------------------------------------------------------------------------
# Hand size after a run
#
# D2: turn-up 5h.  E 2s 4s 5s 6s 7s 2c (no hearts: begs), D Kh 3s 3c 4c 3d 4d (Kh 3 < 4:
# runs).  Round 1: E 9s 10s 10d, D Ah 10c 6d, turn-up 8s -> spades.
# E: 2c 10d 2s 4s 5s 6s 7s 9s 10s (seven trumps), D: 3c 4c 10c 3d 4d 6d Ah Kh 3s.
D2 = deal("2s 4s 5s 6s 7s 2c", "Kh 3s 3c 4c 3d 4d", "5h", ("9s 10s 10d", "Ah 10c 6d", "8s"))


def test_discard_to_six_keep_rule_and_discards_out_of_play():
    # E keeps its six highest trumps 10s 9s 7s 6s 5s 4s and discards 2s 2c 10d.
    # D keeps its trump 3s, then Ah Kh 10c 6d and 4c (4c/4d tie -> the lower suit, clubs);
    # discards 3c 3d 4d.
    # T1 E: no sure card (10s: Js..As unseen) -> cheapest 4s (10s is worth 10).  D must
    #    follow with its only trump 3s.  E.
    # T2 E 5s; D no trump, 5s worth 0 -> cheapest 4c.  T3 E 6s, D 6d.  T4 E 7s, D Kh (3 <
    #    Ah 4 < 10c 10).  T5 E 9s, D Ah.  T6 E 10s, D 10c.  E wins all: 3+4+20 = 27.
    # High 10s E; Low: the lowest trump in play is D's 3s (E's 2s was discarded); no Jack;
    # Game E (E's discarded 10d counts for nothing).  E 2, D 1.
    res = play(R._replace(after_run=DISCARD_TO_SIX), pol(), D2)
    expect(
        res,
        rounds=1,
        trump=SPADES,
        played=1,
        dealt=["2c 10d 2s 4s 5s 6s 7s 9s 10s", "3c 4c 10c 3d 4d 6d Ah Kh 3s"],
        discarded=["2s 2c 10d", "3c 3d 4d"],
        held=["10s 9s 7s 6s 5s 4s", "3s Ah Kh 10c 6d 4c"],
        tricks=[
            trick(0, "0:4s 1:3s", 0),
            trick(0, "0:5s 1:4c", 0),
            trick(0, "0:6s 1:6d", 0),
            trick(0, "0:7s 1:Kh", 0),
            trick(0, "0:9s 1:Ah", 0),
            trick(0, "0:10s 1:10c", 0),
        ],
        game_points=[27, 0],
        trumps_in_play=7,
        jack_in_play=0,
        high=0,
        low=1,
        jack=-1,
        game=0,
        points=[2, 1],
        scores=[2, 1],
    )
    check_law(res)


def test_keep_all_plays_every_card_of_the_same_deal():
    # The same D2 deal keeping all nine cards: E's 2s is in play and takes Low.
    # T1 E: nothing sure; cheapest: worth 0, non-trumps first -> 2c.  D: lowest club beating it 3c.  D.
    # T2 D: cheapest 3d (3c gone; 3d rank 3).  E: lowest diamond beating it 10d.  E (10).
    # T3 E: all trumps left; cheapest 2s.  D must trump: 3s beats it.  D.
    # T4 D: 4c (4c/4d tie).  E void in clubs, holds only trumps -> cheapest 4s.  E.
    # T5 E 5s, D (no trump) 4d.  T6 E 6s, D 6d.  T7 E 7s, D Kh.  T8 E 9s, D Ah.
    # T9 E 10s, D 10c.  Game E 10+3+4+20 = 37, D 0.  High 10s E, Low 2s E, no Jack, Game E.
    res = play(R, pol(), D2)
    expect(
        res,
        discarded=["", ""],
        held=["2c 10d 2s 4s 5s 6s 7s 9s 10s", "3c 4c 10c 3d 4d 6d Ah Kh 3s"],
        tricks=[
            trick(0, "0:2c 1:3c", 1),
            trick(1, "1:3d 0:10d", 0),
            trick(0, "0:2s 1:3s", 1),
            trick(1, "1:4c 0:4s", 0),
            trick(0, "0:5s 1:4d", 0),
            trick(0, "0:6s 1:6d", 0),
            trick(0, "0:7s 1:Kh", 0),
            trick(0, "0:9s 1:Ah", 0),
            trick(0, "0:10s 1:10c", 0),
        ],
        game_points=[37, 0],
        trumps_in_play=8,
        high=0,
        low=0,
        jack=-1,
        game=0,
        points=[3, 0],
    )
    check_law(res)


# F2: turn-up 5h; E 2c 3c 4c 2d 3d 4d, D 5c 6c 7c 5d 6d 7d (beg, run).  Round 1 turns 9h
# (rejected), round 2 turns 3s -> spades; twelve cards each.
F2 = deal(
    "2c 3c 4c 2d 3d 4d", "5c 6c 7c 5d 6d 7d", "5h", ("As Ks 8c", "Qs 8d 9d", "9h"), ("Jd 10c 2s", "Js 10s Ad", "3s")
)
F2_DEALT = ["2c 3c 4c 8c 10c 2d 3d 4d Jd As Ks 2s", "5c 6c 7c 5d 6d 7d 8d 9d Ad Qs Js 10s"]


@pytest.mark.parametrize("after_run", [DISCARD_TO_SIX, FOSTER_CLUB], ids=["discard-to-six", "foster-club"])
def test_two_rounds_discard_to_six(after_run):
    # E keeps As Ks 2s, then Jd 10c 8c; D keeps Qs Js 10s, then Ad 9d 8d.
    # T1 E: As sure -> As.  D must trump, nothing beats As -> cheapest Qs (2; 10s 10, Js 20).
    # T2 E: Ks sure -> Ks.  D: 10s (before the jack).  E (6 + 13).
    # T3 E: 2s not sure (Js unseen); no plain sure card -> cheapest: 2s and 8c worth 0,
    #    non-trumps first -> 8c.  D void in clubs, 8c worth 0 -> cheapest 8d (9d ranks higher).  E.
    # T4 E: cheapest 2s (worth 0 < Jd 1 < 10c 10).  D must follow with its trump Js.  D (1).
    # T5 D: Ad not sure (4s..9s unseen) -> cheapest 9d.  E: lowest diamond beating it Jd.  E (1).
    # T6 E 10c, D void -> Ad.  E (14).  Game E 6+13+1+14 = 34, D 1.  High As E, Low 2s E,
    # Jack Js D, Game E.
    res = play(R._replace(after_run=after_run), pol(), F2)
    expect(
        res,
        rounds=2,
        turnups="5h 9h 3s",
        trump=SPADES,
        dealt=F2_DEALT,
        discarded=["2c 3c 4c 2d 3d 4d", "5c 6c 7c 5d 6d 7d"],
        held=["As Ks 2s Jd 10c 8c", "Qs Js 10s Ad 9d 8d"],
        tricks=[
            trick(0, "0:As 1:Qs", 0),
            trick(0, "0:Ks 1:10s", 0),
            trick(0, "0:8c 1:8d", 0),
            trick(0, "0:2s 1:Js", 1),
            trick(1, "1:9d 0:Jd", 0),
            trick(0, "0:10c 1:Ad", 0),
        ],
        game_points=[34, 1],
        trumps_in_play=6,
        jack_in_play=1,
        high=0,
        low=0,
        jack=1,
        game=0,
        points=[3, 1],
        scores=[3, 1],
    )
    check_law(res)


def test_two_rounds_keep_all_twelve_tricks():
    # T1 As/Qs, T2 Ks/10s as above.  T3 E: 2s not sure -> cheapest 2c; D lowest club 5c.  D.
    # T4 D: Js sure -> Js; E 2s forced.  D (1).
    # T5 D: no trumps left, no sure plain (4s..9s in the stock) -> cheapest 5d.  E: lowest
    #    diamond beating it Jd.  E (1).
    # T6 E: 2d.  D: 6d.  D.  T7 D: 6c.  E: lowest club beating it 8c.  E.
    # T8 E: 3c (3c/3d tie).  D: 7c.  D.  T9 D 7d, E 3d.  T10 D 8d, E 4d.  T11 D 9d, E void
    # -> 4c (worth 0 before 10c).  T12 D Ad, E 10c.  D.
    # Game E 6+13+1 = 20, D 1+14 = 15.  High As E, Low 2s E, Jack D, Game E: 3-1.
    res = play(R, pol(), F2)
    expect(
        res,
        rounds=2,
        dealt=F2_DEALT,
        held=F2_DEALT,
        discarded=["", ""],
        tricks=[
            trick(0, "0:As 1:Qs", 0),
            trick(0, "0:Ks 1:10s", 0),
            trick(0, "0:2c 1:5c", 1),
            trick(1, "1:Js 0:2s", 1),
            trick(1, "1:5d 0:Jd", 0),
            trick(0, "0:2d 1:6d", 1),
            trick(1, "1:6c 0:8c", 0),
            trick(0, "0:3c 1:7c", 1),
            trick(1, "1:7d 0:3d", 1),
            trick(1, "1:8d 0:4d", 1),
            trick(1, "1:9d 0:4c", 1),
            trick(1, "1:Ad 0:10c", 1),
        ],
        game_points=[20, 15],
        high=0,
        low=0,
        jack=1,
        game=0,
        points=[3, 1],
    )
    check_law(res)


# ----------------------------------------------------------------------------------------
# The bunch (R1: strength in spades of the whole nine-card hand: E As 4 + 10s 2 = 6, D Ks 3)


@pytest.mark.parametrize(
    "e_below, d_below, bunched",
    [
        (7, 4, 1),  # 6 < 7 and 3 < 4: both want a redeal
        (6, 4, 0),  # E: 6 < 6 false
        (7, 3, 0),  # D: 3 < 3 false
        (0, 15, 0),  # only D wants it
        (15, 0, 0),  # only E wants it
    ],
    ids=["both", "e-boundary", "d-boundary", "only-dealer", "only-elder"],
)
def test_bunch_needs_both_seats(e_below, d_below, bunched):
    rules = R._replace(bunch=True)
    res = play(rules, pol(e=row(bunch=e_below), d=row(bunch=d_below)), R1)
    if bunched:
        expect(
            res,
            ran=1,
            rounds=1,
            trump=SPADES,
            bunched=1,
            void=0,
            points=[0, 0],
            scores=[0, 0],
            winner=-1,
            next_dealer=1,
            **NOT_PLAYED,
        )
    else:
        expect(res, bunched=0, played=1, tricks=R1_TRICKS, points=[3, 0], next_dealer=0)
        check_law(res)


def test_bunch_with_seat_0_dealing_keeps_the_dealer():
    rules = R._replace(bunch=True)
    res = play(rules, pol(e=row(bunch=15), d=row(bunch=15), dealer=0), R1, dealer=0)
    expect(res, bunched=1, next_dealer=0, **NOT_PLAYED)


def test_bunch_keeps_points_already_scored():
    # NJ: the turned Js gives D 1 before the bunch; the point stands.
    rules = R._replace(bunch=True)
    res = play(rules, pol(e=row(bunch=15), d=row(bunch=15)), NJ)
    expect(res, bunched=1, turned_jacks=[0, 1], points=[0, 1], scores=[0, 1], winner=-1, next_dealer=1, **NOT_PLAYED)


def test_no_bunch_when_the_turned_jack_ends_the_game():
    rules = R._replace(bunch=True)
    res = play(rules, pol(e=row(bunch=15), d=row(bunch=15)), NJ, scores=(0, 10))
    expect(res, bunched=0, winner=1, scores=[0, 11], **NOT_PLAYED)


def test_no_bunch_without_a_run_or_with_the_rule_off():
    # S1 (E stands) with bunch on and both seats wanting a redeal: no run, no bunch.
    res = play(R._replace(bunch=True), pol(e=row(bunch=15), d=row(bunch=15)), S1)
    expect(res, bunched=0, played=1, points=[4, 0])
    # R1 with the rule off: played.
    res = play(R, pol(e=row(bunch=15), d=row(bunch=15)), R1)
    expect(res, bunched=0, played=1, tricks=R1_TRICKS)


# ----------------------------------------------------------------------------------------
# Card play: legal plays and the two styles


def test_high_style_both_seats():
    # high: the highest trump whenever a trump is legal, else the highest rank (ties to
    # the lower suit).
    # T1 E Ah; D must trump: highest Jh.  T2 E Kh, D 4h.  T3 E 3h (a trump is legal);
    # D has no trump -> highest rank Qc.  T4 E no trump -> 10c (10 beats 2s); D void in
    # clubs -> 10d.  T5 E 2c/2d -> 2c; D 4s.  T6 E 2d, D 3s.  E wins every trick: 30-0.
    high = row(style=STYLE_HIGH)
    res = play(R, pol(e=high, d=high), S1)
    expect(
        res,
        tricks=[
            trick(0, "0:Ah 1:Jh", 0),
            trick(0, "0:Kh 1:4h", 0),
            trick(0, "0:3h 1:Qc", 0),
            trick(0, "0:10c 1:10d", 0),
            trick(0, "0:2c 1:4s", 0),
            trick(0, "0:2d 1:3s", 0),
        ],
        game_points=[30, 0],
        high=0,
        low=0,
        jack=0,
        game=0,
        points=[4, 0],
    )
    check_law(res)


def test_greedy_captures_a_ten_with_a_trump_while_holding_the_suit_led():
    # E greedy, D high.  T1 E Ah (sure), D highest trump Jh.  T2 E Kh (sure), D 4h.
    # T3 E cheapest 2c; D must follow clubs: Qc.  D.
    # T4 D: highest rank 10d.  E holds 2d (the suit led) and 3h: no diamond beats 10d; the
    #    ten is worth 10 > 0 and 3h wins -> 3h (trumping is allowed holding the suit).  E.
    # T5 E: 10c not sure (Ac Kc Jc unseen) -> cheapest 2d; D void -> highest rank 4s.  E.
    # T6 E 10c, D 3s.  E.  Game E 5+3+10+10 = 28, D 2.  E takes all four points.
    res = play(R, pol(d=row(style=STYLE_HIGH)), S1)
    expect(
        res,
        tricks=[
            trick(0, "0:Ah 1:Jh", 0),
            trick(0, "0:Kh 1:4h", 0),
            trick(0, "0:2c 1:Qc", 1),
            trick(1, "1:10d 0:3h", 0),
            trick(0, "0:2d 1:4s", 0),
            trick(0, "0:10c 1:3s", 0),
        ],
        game_points=[28, 2],
        high=0,
        low=0,
        jack=0,
        game=0,
        points=[4, 0],
    )
    check_law(res)


# P4: turn-up 9h.  E Jh Ah Kh Qh 2c 3c (strength 2+4+3+2 = 11: stands), D 10h 4h 5c 6c 7d 8d.
P4 = deal("Jh Ah Kh Qh 2c 3c", "10h 4h 5c 6c 7d 8d", "9h")
# T1 E: Jh is a sure winner (A K Q held) -> the jack first.  D must trump; nothing beats Jh
#    -> cheapest 4h (10h is worth 10).  E (1).
# T2 E: Ah sure -> Ah; D's 10h forced.  E (14).
# T3 E Kh; D no trump -> cheapest 5c.  E (3).  T4 E Qh, D 6c.  E (2).
# T5 E: 2c/3c not sure -> 2c; D void -> 7d.  T6 E 3c, D 8d.  E takes every trick: 20-0.
# High Ah E, Low 4h (dealt to D) D, Jack E, Game E.
P4_TRICKS = [
    trick(0, "0:Jh 1:4h", 0),
    trick(0, "0:Ah 1:10h", 0),
    trick(0, "0:Kh 1:5c", 0),
    trick(0, "0:Qh 1:6c", 0),
    trick(0, "0:2c 1:7d", 0),
    trick(0, "0:3c 1:8d", 0),
]


@pytest.mark.parametrize(
    "low_to, low, points",
    [(LOW_TO_DEALT_HOLDER, 1, [3, 1]), (LOW_TO_TRICK_WINNER, 0, [4, 0])],
    ids=["dealt-holder", "trick-winner"],
)
def test_greedy_leads_the_sure_jack_first(low_to, low, points):
    # With low_to=trick-winner, 4h fell in T1, won by E.
    res = play(R._replace(low_to=low_to), pol(), P4)
    expect(
        res,
        tricks=P4_TRICKS,
        game_points=[20, 0],
        trumps_in_play=6,
        jack_in_play=1,
        high=0,
        low=low,
        jack=0,
        game=0,
        points=points,
    )
    check_law(res)


# PS: turn-up 5h; E As Ks Qs Js 10s 9s (no hearts: begs), D 8s 7s 6s 5s Ac 2c (runs).
# Round 1: E Ah Ad 2h, D 4s 3s 3c, turn-up 2s -> spades: all thirteen spades are in the
# hands or turned up.
PS = deal("As Ks Qs Js 10s 9s", "8s 7s 6s 5s Ac 2c", "5h", ("Ah Ad 2h", "4s 3s 3c", "2s"))


def test_greedy_leads_sure_trumps_then_the_highest_sure_plain_card():
    # T1 E: Js sure (A K Q held) -> Js; D cheapest trump 3s.  T2 E: highest sure trump As;
    # D 4s.  T3 Ks/5s, T4 Qs/6s, T5 10s (sure: J Q K A dead)/7s, T6 9s/8s: E wins all.
    # T7: every spade is now dead.  E holds Ah Ad 2h: Ah and Ad are sure winners (no higher
    #    card of their suits, every trump dead), 2h is not (hearts unseen) -> the highest
    #    sure plain card, Ah/Ad tie -> lower suit Ad.  D void, Ad worth 4 but no trump ->
    #    cheapest 2c.  T8 E Ah (sure), D 3c.  T9 E 2h, D Ac.  E wins all: 32-0.
    # High As E, Low 3s D (2s turned up), Jack E, Game E.
    res = play(R, pol(), PS)
    expect(
        res,
        trump=SPADES,
        rounds=1,
        tricks=[
            trick(0, "0:Js 1:3s", 0),
            trick(0, "0:As 1:4s", 0),
            trick(0, "0:Ks 1:5s", 0),
            trick(0, "0:Qs 1:6s", 0),
            trick(0, "0:10s 1:7s", 0),
            trick(0, "0:9s 1:8s", 0),
            trick(0, "0:Ad 1:2c", 0),
            trick(0, "0:Ah 1:3c", 0),
            trick(0, "0:2h 1:Ac", 0),
        ],
        game_points=[32, 0],
        trumps_in_play=12,
        jack_in_play=1,
        high=0,
        low=1,
        jack=0,
        game=0,
        points=[3, 1],
    )
    check_law(res)


# L2: turn-up 5h; no heart is dealt.  E (high) Kc Qd 9s 8s 7s 6s, D (greedy) 10c 2d 3d 4d 2s 3s.
L2 = deal("Kc Qd 9s 8s 7s 6s", "10c 2d 3d 4d 2s 3s", "5h")


def test_must_follow_a_plain_suit_and_no_trump_in_play_scores_only_game():
    # E stands (beg_below 0).  T1 E (high): highest rank Kc.  D holds clubs: its only
    # legal card is 10c (2d would be cheaper but D is not void) -> E (13).
    # T2 E Qd; D: no diamond beats it, no trump -> cheapest 2d.  T3 E 9s, D 2s.  T4 E 8s,
    # D 3s.  T5 E 7s; D void in spades -> 3d.  T6 E 6s, D 4d.  E 15, D 0.
    # No trump in play: only Game, to E.
    res = play(R, pol(e=row(beg=0, style=STYLE_HIGH)), L2)
    expect(
        res,
        begged=0,
        trump=HEARTS,
        played=1,
        tricks=[
            trick(0, "0:Kc 1:10c", 0),
            trick(0, "0:Qd 1:2d", 0),
            trick(0, "0:9s 1:2s", 0),
            trick(0, "0:8s 1:3s", 0),
            trick(0, "0:7s 1:3d", 0),
            trick(0, "0:6s 1:4d", 0),
        ],
        game_points=[15, 0],
        trumps_in_play=0,
        jack_in_play=0,
        game_tie=0,
        high=-1,
        low=-1,
        jack=-1,
        game=0,
        points=[1, 0],
        scores=[1, 0],
    )
    check_law(res)


# ----------------------------------------------------------------------------------------
# High and Low

# H1: turn-up 5h; the only heart in play is D's Kh.  E Ac Ad 2c 3c 2d 3d (stands: beg 0),
# D Kh 4c 5c 4d 5d 6s.
H1 = deal("Ac Ad 2c 3c 2d 3d", "Kh 4c 5c 4d 5d 6s", "5h")


@pytest.mark.parametrize("low_to", [LOW_TO_DEALT_HOLDER, LOW_TO_TRICK_WINNER], ids=["dealt-holder", "trick-winner"])
def test_single_trump_is_high_and_low(low_to):
    # T1 E: nothing sure (Kh unseen) -> cheapest 2c; D lowest club beating it 4c.  D.
    # T2 D: cheapest 4d (worth 0, rank 4; Kh is worth 3).  E: lowest diamond beating it Ad.  E (4).
    # T3 E: Ac is not sure (trumps unseen) -> cheapest 2d; D 5d wins.  D.
    # T4 D: 5c.  E: lowest club beating it Ac.  E (4).
    # T5 E 3c; D void in clubs, worth 0 -> cheapest 6s (worth 0; Kh 3).  E.
    # T6 E 3d, D Kh (the single trump wins its trick).  D (3).  Game E 8, D 3.
    # Kh is High and Low: both to D under either low_to (it wins its own trick).  Game E.
    res = play(R._replace(low_to=low_to), pol(e=row(beg=0)), H1)
    expect(
        res,
        tricks=[
            trick(0, "0:2c 1:4c", 1),
            trick(1, "1:4d 0:Ad", 0),
            trick(0, "0:2d 1:5d", 1),
            trick(1, "1:5c 0:Ac", 0),
            trick(0, "0:3c 1:6s", 0),
            trick(0, "0:3d 1:Kh", 1),
        ],
        game_points=[8, 3],
        trumps_in_play=1,
        jack_in_play=0,
        high=1,
        low=1,
        jack=-1,
        game=0,
        points=[1, 2],
    )
    check_law(res)


# H2: turn-up 5h; two trumps in play: E's Ah, D's 2h.  E Ah 2c 3c 4c 2d 3d (strength 4:
# stands), D 2h 5c 6c 4d 5d 6d.
H2 = deal("Ah 2c 3c 4c 2d 3d", "2h 5c 6c 4d 5d 6d", "5h")


@pytest.mark.parametrize(
    "low_to, low, points",
    [(LOW_TO_DEALT_HOLDER, 1, [2, 1]), (LOW_TO_TRICK_WINNER, 0, [3, 0])],
    ids=["dealt-holder", "trick-winner"],
)
def test_low_to_dealt_holder_or_trick_winner(low_to, low, points):
    # T1 E Ah (sure); D must trump: 2h.  E (4).  T2 E cheapest 2c, D 5c.  D.
    # T3 D 4d, E 2d.  T4 D 5d, E 3d.  T5 D 6c (6c/6d tie), E 3c.  T6 D 6d, E void -> 4c.
    # Game E 4, D 0.  High Ah E; Low 2h: dealt to D, but it fell in T1, won by E.
    res = play(R._replace(low_to=low_to), pol(), H2)
    expect(
        res,
        tricks=[
            trick(0, "0:Ah 1:2h", 0),
            trick(0, "0:2c 1:5c", 1),
            trick(1, "1:4d 0:2d", 1),
            trick(1, "1:5d 0:3d", 1),
            trick(1, "1:6c 0:3c", 1),
            trick(1, "1:6d 0:4c", 1),
        ],
        game_points=[4, 0],
        trumps_in_play=2,
        high=0,
        low=low,
        jack=-1,
        game=0,
        points=points,
    )
    check_law(res)


# ----------------------------------------------------------------------------------------
# Game ties

# G1: turn-up 5h; no counting card dealt.  E 2h 3c 4c 5c 6c 7c (stands: beg 0), D 3h 2d
# 3d 4d 5d 6d.
G1 = deal("2h 3c 4c 5c 6c 7c", "3h 2d 3d 4d 5d 6d", "5h")
# T1..T5: E leads its clubs 3c..7c (cheapest: all worth 0, non-trumps before 2h); D is
# void in clubs and, the leads being worth 0, throws its cheapest diamond 2d..6d (before
# 3h); E wins.  T6 E 2h, D must trump: 3h.  D.  Game 0-0.  High 3h D, Low 2h E.
G1_TRICKS = [
    trick(0, "0:3c 1:2d", 0),
    trick(0, "0:4c 1:3d", 0),
    trick(0, "0:5c 1:4d", 0),
    trick(0, "0:6c 1:5d", 0),
    trick(0, "0:7c 1:6d", 0),
    trick(0, "0:2h 1:3h", 1),
]


@pytest.mark.parametrize(
    "game_tie, game, points", [(TIE_ELDER_SCORES, 0, [2, 1]), (TIE_NOBODY, -1, [1, 1])], ids=["elder-scores", "nobody"]
)
def test_game_tie_at_zero(game_tie, game, points):
    res = play(R._replace(game_tie=game_tie), pol(e=row(beg=0)), G1)
    expect(
        res,
        tricks=G1_TRICKS,
        game_points=[0, 0],
        game_tie=1,
        high=1,
        low=0,
        jack=-1,
        game=game,
        points=points,
        scores=points,
    )
    check_law(res)


@pytest.mark.parametrize(
    "game_tie, game, points", [(TIE_ELDER_SCORES, 1, [1, 2]), (TIE_NOBODY, -1, [1, 1])], ids=["elder-scores", "nobody"]
)
def test_game_tie_goes_to_the_elder_seat_1_when_seat_0_deals(game_tie, game, points):
    # G1 with dealer=0: E is seat 1; the same play with the seats swapped.  High 3h ->
    # seat 0 (D), Low 2h -> seat 1 (E), the tied Game -> seat 1 under elder-scores.
    res = play(R._replace(game_tie=game_tie), pol(e=row(beg=0), dealer=0), G1, dealer=0)
    expect(res, game_points=[0, 0], game_tie=1, high=0, low=1, game=game, points=points, next_dealer=1)
    check_law(res, dealer=0)


# G2: turn-up 5h.  E 2h 10d 2c 3c 4c 5c (stands: beg 0), D 3h 10c 6d 7d 8d 9d.
G2 = deal("2h 10d 2c 3c 4c 5c", "3h 10c 6d 7d 8d 9d", "5h")


@pytest.mark.parametrize(
    "game_tie, game, points", [(TIE_ELDER_SCORES, 0, [2, 1]), (TIE_NOBODY, -1, [1, 1])], ids=["elder-scores", "nobody"]
)
def test_game_tie_at_equal_nonzero_totals(game_tie, game, points):
    # T1 E cheapest 2c; D: lowest club beating it 10c.  D (10).
    # T2 D cheapest 6d; E: lowest diamond beating it 10d.  E (10).
    # T3..T5 E 3c 4c 5c; D void in clubs throws 7d 8d 9d.  E.  T6 E 2h, D 3h.  D.
    # Game 10-10.  High 3h D, Low 2h E.
    res = play(R._replace(game_tie=game_tie), pol(e=row(beg=0)), G2)
    expect(
        res,
        tricks=[
            trick(0, "0:2c 1:10c", 1),
            trick(1, "1:6d 0:10d", 0),
            trick(0, "0:3c 1:7d", 0),
            trick(0, "0:4c 1:8d", 0),
            trick(0, "0:5c 1:9d", 0),
            trick(0, "0:2h 1:3h", 1),
        ],
        game_points=[10, 10],
        game_tie=1,
        high=1,
        low=0,
        jack=-1,
        game=game,
        points=points,
    )
    check_law(res)


# ----------------------------------------------------------------------------------------
# The scoring order cuts off later points at the target (P4: High E, Low D, Jack E, Game E)


@pytest.mark.parametrize(
    "target, start, high, low, jack, game, points, scores, winner",
    [
        (11, (10, 0), 0, -1, -1, -1, [1, 0], [11, 0], 0),  # High ends it
        (11, (0, 10), 0, 1, -1, -1, [1, 1], [1, 11], 1),  # High E, then Low takes D to 11
        (11, (9, 0), 0, 1, 0, -1, [2, 1], [11, 1], 0),  # High 10, Low D, Jack 11
        (11, (8, 0), 0, 1, 0, 0, [3, 1], [11, 1], 0),  # Game is the 11th point
        (11, (7, 9), 0, 1, 0, 0, [3, 1], [10, 10], -1),  # nobody reaches 11
        (7, (6, 6), 0, -1, -1, -1, [1, 0], [7, 6], 0),  # target 7: High ends it
    ],
    ids=["high-ends", "low-ends", "jack-ends", "game-ends", "no-winner", "target-7"],
)
def test_scoring_order_stops_at_the_target(target, start, high, low, jack, game, points, scores, winner):
    res = play(R._replace(target=target), pol(), P4, scores=start)
    expect(
        res,
        played=1,
        tricks=P4_TRICKS,
        high=high,
        low=low,
        jack=jack,
        game=game,
        turned_jacks=[0, 0],
        gift=[0, 0],
        points=points,
        scores=scores,
        winner=winner,
    )
    if winner == -1:
        expect(res, next_dealer=0)
    check_law(res)
