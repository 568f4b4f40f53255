"""Tests of the plain-Python twin of All-Fours (sims.games.all_fours.twin) alone.

The stacked deals below are checked card by card against results derived by hand from the
rules contract (the package docstring of sims/games/all_fours); the random hands and games
check the stream's draw order and the laws every deal must obey (cards, play, points).  No
Numba kernel is run.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import sims.games.all_fours.twin as twin
from sims.core.cards import card_name, parse_cards
from sims.core.deck import deal_prefix
from sims.core.rng import Stream
from sims.games.all_fours.rules import (
    DISCARD_TO_SIX,
    FOSTER_CLUB,
    GAME_OUTCOMES,
    GIFT_THEN_REDEAL,
    HAND_OUTCOMES,
    KEEP_ALL,
    LOW_TO_TRICK_WINNER,
    POLICY_FIELDS,
    STYLE_HIGH,
    TIE_NOBODY,
    Rules,
)
from sims.games.all_fours.twin import hand_result, play_dealt, play_game, play_hand, replay_lines, simulate

HANDS, GAMES = 0, 1
HS = {name: i for i, name in enumerate(HAND_OUTCOMES.seat)}
HT = {name: i for i, name in enumerate(HAND_OUTCOMES.table)}
GS = {name: i for i, name in enumerate(GAME_OUTCOMES.seat)}
GT = {name: i for i, name in enumerate(GAME_OUTCOMES.table)}
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
COUNT = {0: 4, 12: 3, 11: 2, 10: 1, 9: 10}  # face -> counting points (A K Q J 10)


def policy(**fields):
    """Both seats' rows; ``fields`` apply to both, ``e_``/``d_`` prefixes to seat 0/1 only."""
    rows = []
    for seat in range(2):
        row = {f.key: f.default for f in POLICY_FIELDS}
        for key, value in fields.items():
            if key.startswith(("e_", "d_")):
                if (key[0] == "e") == (seat == 0):
                    row[key[2:]] = value
            else:
                row[key] = value
        rows.append([row[f.key] for f in POLICY_FIELDS])
    return np.array(rows, dtype=np.float64)


def random_rules(rng):
    return Rules(
        target=rng.randint(7, 15),
        gift_then=rng.randint(0, 1),
        gift_redeal_same_dealer=rng.random() < 0.5,
        gift_cannot_win=rng.random() < 0.5,
        after_run=rng.randint(0, 2),
        low_to=rng.randint(0, 1),
        game_tie=rng.randint(0, 1),
        exhaust_keeps_jack_points=rng.random() < 0.5,
        bunch=rng.random() < 0.5,
    )


def random_policy(rng):
    return np.array([[rng.randint(int(f.lo), int(f.hi)) for f in POLICY_FIELDS] for _ in range(2)], dtype=np.float64)


def cards(text):
    return parse_cards(text)


def rank(code):
    return twin.rank_value(code)


def beats(card, led, trump):
    if card // 13 == trump:
        return led // 13 != trump or rank(card) > rank(led)
    return card // 13 == led // 13 and rank(card) > rank(led)


# ----------------------------------------------------------------------------------------
# The law every deal obeys


def check_deal(res, rules, dealer, scores):
    """Every fact a play_dealt result must satisfy, derived from the contract."""
    D, E = dealer, 1 - dealer
    r = res["rounds"]
    assert res["ran"] == (1 if r > 0 else 0)
    assert len(res["turnups"]) == 1 + r
    for s in range(2):
        assert len(res["dealt"][s]) == 6 + 3 * r and res["dealt"][s] == sorted(res["dealt"][s])
        assert res["held"][s] == sorted(set(res["dealt"][s]) - set(res["discarded"][s]))
        assert set(res["discarded"][s]) <= set(res["dealt"][s])
    everything = res["dealt"][0] + res["dealt"][1] + res["turnups"]
    assert len(set(everything)) == len(everything) == 13 + 7 * r
    first_suit = res["turnups"][0] // 13
    # runs: every turn-up but the last is of the rejected suit; the last is too only in a void deal
    assert all(c // 13 == first_suit for c in res["turnups"][:-1])
    if res["void"]:
        assert r == 5 and res["turnups"][-1] // 13 == first_suit and res["trump"] == -1
        assert res["next_dealer"] == D
    elif r:
        assert res["turnups"][-1] // 13 != first_suit and res["trump"] == res["turnups"][-1] // 13
    else:
        assert res["trump"] == first_suit
    assert res["begged"] >= res["gave"] + res["ran"] and res["gave"] + res["ran"] <= 1
    assert res["gift"] == ([1, 0] if E == 0 else [0, 1]) if res["gave"] else res["gift"] == [0, 0]
    assert sum(res[k] for k in ("void", "thrown_in", "bunched", "played")) <= 1
    assert res["thrown_in"] <= res["gave"] and res["bunched"] <= res["ran"]
    # discards only in a played hand after a run, down to six
    if any(res["discarded"]):
        assert res["played"] and r >= 1 and rules.after_run in (DISCARD_TO_SIX, FOSTER_CLUB)
        assert all(len(h) == 6 for h in res["held"])
        if rules.after_run == FOSTER_CLUB:
            assert r >= 2
    elif res["played"] and r and (rules.after_run == DISCARD_TO_SIX or (rules.after_run == FOSTER_CLUB and r >= 2)):
        raise AssertionError("a played hand after a run should have been cut to six")
    # points: every point is accounted for, at most 5 a seat, the scores add up
    assert res["turned_jacks"][E] == 0
    for s in range(2):
        named = sum(1 for k in ("high", "low", "jack", "game") if res[k] == s)
        assert res["points"][s] == named + res["gift"][s] + res["turned_jacks"][s]
        assert 0 <= res["points"][s] <= 5
        assert res["scores"][s] == scores[s] + res["points"][s]
    winners = [s for s in range(2) if res["scores"][s] >= rules.target]
    assert winners == ([res["winner"]] if res["winner"] >= 0 else [])
    if res["winner"] < 0:
        assert res["next_dealer"] == (
            D if res["void"] or res["bunched"] or (res["thrown_in"] and rules.gift_redeal_same_dealer) else E
        )
    if not res["played"]:
        assert res["tricks"] == [] and res["game_points"] == [0, 0] and res["trumps_in_play"] == 0
        assert res["jack_in_play"] == 0 and res["game_tie"] == 0
        assert res["high"] == res["low"] == res["jack"] == res["game"] == -1
        return
    # play: E leads first, the winner leads next, every held card is played once, the laws hold
    trump = res["trump"]
    hands = [set(h) for h in res["held"]]
    n_tricks = len(res["held"][0])
    assert len(res["held"][1]) == n_tricks == len(res["tricks"])
    leader = E
    taken = [[], []]
    trick_of = {}
    for trick_leader, plays, winner in res["tricks"]:
        assert trick_leader == leader and len(plays) == 2
        (s1, c1), (s2, c2) = plays
        assert s1 == leader and s2 == 1 - leader
        assert c1 in hands[s1] and c2 in hands[s2]
        if c1 // 13 == trump:
            if c2 // 13 != trump:
                assert not any(c // 13 == trump for c in hands[s2])
        elif c2 // 13 not in (c1 // 13, trump):
            assert not any(c // 13 == c1 // 13 for c in hands[s2])
        assert winner == (s2 if beats(c2, c1, trump) else s1)
        hands[s1].discard(c1)
        hands[s2].discard(c2)
        taken[winner] += [c1, c2]
        trick_of[c1] = trick_of[c2] = winner
        leader = winner
    assert hands == [set(), set()]
    in_play = res["held"][0] + res["held"][1]
    holder = {c: s for s in range(2) for c in res["held"][s]}
    trumps = [c for c in in_play if c // 13 == trump]
    assert res["trumps_in_play"] == len(trumps)
    gp = [sum(COUNT.get(c % 13, 0) for c in t) for t in taken]
    assert res["game_points"] == gp
    assert sum(gp) == sum(COUNT.get(c % 13, 0) for c in in_play)
    assert res["game_tie"] == (1 if gp[0] == gp[1] else 0)
    jack = trump * 13 + 10
    assert res["jack_in_play"] == (1 if jack in holder else 0)
    # the points in order, each while nobody has won
    expected = []
    if trumps:
        top = max(trumps, key=rank)
        bottom = min(trumps, key=rank)
        expected.append(("high", holder[top]))
        expected.append(("low", holder[bottom] if rules.low_to != LOW_TO_TRICK_WINNER else trick_of[bottom]))
        if jack in holder:
            expected.append(("jack", trick_of[jack]))
    if gp[0] != gp[1]:
        expected.append(("game", 0 if gp[0] > gp[1] else 1))
    elif rules.game_tie != TIE_NOBODY:
        expected.append(("game", E))
    running = list(scores)
    running[D] += res["turned_jacks"][D]
    running[E] += res["gift"][E]
    got = {k: -1 for k in ("high", "low", "jack", "game")}
    for key, seat in expected:
        if max(running) >= rules.target:
            break
        got[key] = seat
        running[seat] += 1
    assert {k: res[k] for k in got} == got
    assert running == res["scores"]


# ----------------------------------------------------------------------------------------
# The stream


@pytest.mark.parametrize("seed,index", [(0, 0), (1, 5), (12345, 99), (2**63 + 7, 3)])
def test_first_thirteen_draws_are_deal_prefix_in_deal_order(seed, index):
    res = hand_result(Rules(), policy(beg_below=0), seed, index)  # E always stands: 13 cards
    prefix = deal_prefix(Stream(seed, index), 13)
    assert res["dealt"][0] == sorted(prefix[0:3] + prefix[6:9])  # E = seat 0: cards 1-3, 7-9
    assert res["dealt"][1] == sorted(prefix[3:6] + prefix[9:12])  # D = seat 1: cards 4-6, 10-12
    assert res["turnups"] == [prefix[12]] and res["trump"] == prefix[12] // 13


def test_run_rounds_draw_the_next_seven_cards_each():
    rules = Rules()
    pol = policy(beg_below=15, give_at_least=15)  # always beg, always run
    seen_rounds = set()
    for index in range(40):
        res = hand_result(rules, pol, 3, index)
        r = res["rounds"]
        seen_rounds.add(r)
        prefix = deal_prefix(Stream(3, index), 13 + 7 * r)
        e = prefix[0:3] + prefix[6:9]
        d = prefix[3:6] + prefix[9:12]
        ups = [prefix[12]]
        for k in range(r):
            base = 13 + 7 * k
            e += prefix[base : base + 3]
            d += prefix[base + 3 : base + 6]
            ups.append(prefix[base + 6])
        assert res["dealt"] == [sorted(e), sorted(d)] and res["turnups"] == ups
    assert {1, 2} <= seen_rounds


def test_stream_hand_is_the_stacked_hand_of_the_shuffled_pack():
    rng = random.Random(11)
    for index in range(150):
        rules, pol = random_rules(rng), random_policy(rng)
        res = hand_result(rules, pol, 77, index)
        assert play_dealt(rules, pol, deal_prefix(Stream(77, index), 52)) == res
        check_deal(res, rules, 1, (0, 0))


def test_stacked_pack_follows_the_listed_cards_with_the_rest_in_code_order():
    # E always begs, D always runs: the round comes from the unlisted cards in code order
    listed = cards("2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As")
    res = play_dealt(Rules(), policy(beg_below=15, give_at_least=15), listed)
    assert res["dealt"][0] == sorted(cards("2s 3s 4s 8s 9s 10s Ac 2c 3c"))
    assert res["dealt"][1] == sorted(cards("5s 6s 7s Js Qs Ks 4c 5c 6c"))
    assert res["turnups"] == cards("As 7c") and res["trump"] == CLUBS and res["rounds"] == 1


# ----------------------------------------------------------------------------------------
# Literal stacked deals, derived by hand

# E (seat 0): Ah Jh 3h Kc 10c 4d; D (seat 1): Kh 9h 2s 10s Qd 7c; turn-up 5h.
DEAL_A = cards("Ah Jh 3h  Kh 9h 2s  Kc 10c 4d  10s Qd 7c  5h")


def tricks(*rows):
    """Tricks from (leader, 'card card', winner): the leader plays the first card."""
    return [
        (leader, [(leader, a), (1 - leader, b)], winner)
        for leader, (a, b), winner in ((ld, cards(text), w) for ld, text, w in rows)
    ]


def test_deal_a_stand_greedy_play():
    log = []
    res = play_dealt(Rules(), policy(), DEAL_A, log=log)
    # E's hearts: A 4 + J 2 + 3 1 = 7 >= 3: stands; hearts are trumps
    assert res["begged"] == 0 and res["trump"] == HEARTS and res["played"] == 1 and res["rounds"] == 0
    assert res["held"] == [sorted(cards("Ah Jh 3h Kc 10c 4d")), sorted(cards("Kh 9h 2s 10s Qd 7c"))]
    assert res["tricks"] == tricks(
        (0, "Ah 9h", 0),  # Ah the only sure winner; D must trump, cheapest 9h
        (0, "4d Qd", 1),  # nothing sure: cheapest 4d; D wins with the lowest diamond that beats it
        (1, "Kh 3h", 1),  # Kh sure (Ah played); E must trump, keeps Jh (worth 20), plays 3h
        (1, "2s Kc", 1),  # cheapest 2s; E void, 2s worth 0: cheapest Kc before 10c and Jh
        (1, "7c 10c", 0),  # E beats 7c with its lowest club
        (0, "Jh 10s", 0),
    )
    assert res["game_points"] == [25, 8] and res["trumps_in_play"] == 5 and res["jack_in_play"] == 1
    assert (res["high"], res["low"], res["jack"], res["game"]) == (0, 0, 0, 0)
    assert res["points"] == [4, 0] and res["scores"] == [4, 0] and res["winner"] == -1
    assert res["next_dealer"] == 0 and res["game_tie"] == 0 and res["turnups"] == cards("5h")
    assert res["discarded"] == [[], []] and res["turned_jacks"] == [0, 0] and res["gift"] == [0, 0]
    check_deal(res, Rules(), 1, (0, 0))
    assert any("trick 4: seat 1 2s, seat 0 Kc; seat 1 wins" == line for line in log)


def test_deal_a_high_style():
    res = play_dealt(Rules(), policy(play_style=STYLE_HIGH), DEAL_A)
    assert res["tricks"] == tricks(
        (0, "Ah Kh", 0),
        (0, "Jh 9h", 0),
        (0, "3h Qd", 0),  # D has no trump: its highest card
        (0, "Kc 7c", 0),  # D must follow clubs (it holds no trump)
        (0, "10c 10s", 0),
        (0, "4d 2s", 0),
    )
    assert res["game_points"] == [33, 0] and res["points"] == [4, 0]


def test_deal_a_gift_played_and_thrown_in():
    pol = policy(beg_below=15, give_at_least=0)  # E always begs, D always gives
    res = play_dealt(Rules(), pol, DEAL_A)
    assert (res["begged"], res["gave"], res["ran"], res["played"]) == (1, 1, 0, 1)
    assert res["gift"] == [1, 0] and res["points"] == [5, 0]  # the gift and all four points
    assert [t[1] for t in res["tricks"]] == [t[1] for t in play_dealt(Rules(), policy(), DEAL_A)["tricks"]]
    for same, next_dealer in ((False, 0), (True, 1)):
        rules = Rules(gift_then=GIFT_THEN_REDEAL, gift_redeal_same_dealer=same)
        res = play_dealt(rules, pol, DEAL_A)
        assert (res["gave"], res["thrown_in"], res["played"], res["tricks"]) == (1, 1, 0, [])
        assert res["points"] == [1, 0] and res["scores"] == [1, 0] and res["next_dealer"] == next_dealer
        assert res["trump"] == HEARTS and res["held"] == res["dealt"]
        check_deal(res, rules, 1, (0, 0))


def test_deal_a_gift_cannot_win_forces_a_run_and_high_ends_the_game():
    pol = policy(beg_below=15, give_at_least=0)
    log = []
    res = play_dealt(Rules(), pol, DEAL_A, scores=(10, 3), log=log)
    # forced run: the round is Ac 2c 3c to E, 4c 5c 6c to D and 8c turned: clubs trumps
    assert (res["begged"], res["gave"], res["ran"], res["rounds"]) == (1, 0, 1, 1)
    assert res["turnups"] == cards("5h 8c") and res["trump"] == CLUBS
    assert res["dealt"][0] == sorted(cards("Ah Jh 3h Kc 10c 4d Ac 2c 3c"))
    assert res["played"] == 1 and len(res["tricks"]) == 9
    # E was dealt Ac, the highest club: High takes E to 11 and nothing more is scored
    assert (res["high"], res["low"], res["jack"], res["game"]) == (0, -1, -1, -1)
    assert res["points"] == [1, 0] and res["scores"] == [11, 3] and res["winner"] == 0
    assert res["next_dealer"] == -1
    assert any("must run" in line for line in log)
    check_deal(res, Rules(), 1, (10, 3))
    # without the rule D gives and E wins on the gift, before play
    rules = Rules(gift_cannot_win=False)
    res = play_dealt(rules, pol, DEAL_A, scores=(10, 3))
    assert (res["gave"], res["played"], res["winner"], res["scores"]) == (1, 0, 0, [11, 3])
    check_deal(res, rules, 1, (10, 3))


# E: 2c 5c 9c Ah 4h 8h; D: 2s Kc Qc 6h 10h 3c; turn-up 7s.  Both weak in spades: E begs,
# D runs.  Round 1: E Ad 9d 4d, D Kd 6d 10d, 3s turned (spades again).  Round 2: E Qh 8d 3d,
# D Jh 5d 2d, Jd turned: diamonds are trumps and D scores the turned jack.
DEAL_B = cards("2c 5c 9c  2s Kc Qc  Ah 4h 8h  6h 10h 3c  7s  Ad 9d 4d  Kd 6d 10d  3s  Qh 8d 3d  Jh 5d 2d  Jd")


def test_deal_b_two_rounds_turned_jack_and_foster_club_discards():
    rules = Rules(after_run=FOSTER_CLUB)
    res = play_dealt(rules, policy(), DEAL_B)
    assert (res["begged"], res["gave"], res["ran"], res["rounds"]) == (1, 0, 1, 2)
    assert res["turnups"] == cards("7s 3s Jd") and res["trump"] == DIAMONDS
    assert res["turned_jacks"] == [0, 1]
    # keep the trumps from the top, then the highest other cards
    assert res["held"] == [sorted(cards("Ad 9d 8d 4d 3d Ah")), sorted(cards("Kd 10d 6d 5d 2d Kc"))]
    assert res["discarded"] == [sorted(cards("2c 5c 9c 4h 8h Qh")), sorted(cards("2s Qc 6h 10h 3c Jh"))]
    assert res["tricks"] == tricks(
        (0, "Ad 2d", 0),  # Ad sure; D must trump: its cheapest trump
        (0, "3d 5d", 1),  # nothing sure: E's cheapest is 3d (worth 0) before Ah (worth 4);
        #                    D's cheapest trump (5d before 6d, Kd worth 3 and 10d worth 10)
        (1, "Kd 4d", 1),  # Kd sure for D (Ad played); E cannot beat it: its cheapest trump
        (1, "6d 8d", 0),  # 10d is not sure (Qd is out): D's cheapest 6d; E's cheapest trump
        (0, "9d 10d", 1),  # 9d (worth 0) before Ah
        (1, "Kc Ah", 1),  # E must play its last card, Ah, to the club led
    )
    assert res["game_points"] == [4, 20] and res["trumps_in_play"] == 10 and res["jack_in_play"] == 0
    assert (res["high"], res["low"], res["jack"], res["game"]) == (0, 1, -1, 1)
    assert res["points"] == [1, 3] and res["scores"] == [1, 3] and res["next_dealer"] == 0
    check_deal(res, rules, 1, (0, 0))
    # Low to the trick winner: 2d fell in trick 1, won by E
    rules = rules._replace(low_to=LOW_TO_TRICK_WINNER)
    res = play_dealt(rules, policy(), DEAL_B)
    assert (res["high"], res["low"], res["game"]) == (0, 0, 1) and res["points"] == [2, 2]
    # keep-all plays twelve tricks; discard-to-six cuts after any run (same hands here)
    res = play_dealt(Rules(after_run=KEEP_ALL), policy(), DEAL_B)
    assert len(res["tricks"]) == 12 and res["discarded"] == [[], []] and res["held"] == res["dealt"]
    check_deal(res, Rules(after_run=KEEP_ALL), 1, (0, 0))
    res = play_dealt(Rules(after_run=DISCARD_TO_SIX), policy(), DEAL_B)
    assert res["held"][0] == sorted(cards("Ad 9d 8d 4d 3d Ah")) and len(res["tricks"]) == 6


def test_deal_b_turned_jack_wins_before_play():
    res = play_dealt(Rules(after_run=FOSTER_CLUB), policy(), DEAL_B, scores=(4, 10))
    assert res["winner"] == 1 and res["scores"] == [4, 11] and res["points"] == [0, 1]
    assert (res["ran"], res["rounds"], res["trump"], res["played"]) == (1, 2, DIAMONDS, 0)
    assert res["discarded"] == [[], []] and res["tricks"] == [] and res["next_dealer"] == -1


def test_deal_b_bunch():
    rules = Rules(bunch=True, after_run=FOSTER_CLUB)
    res = play_dealt(rules, policy(bunch_below=15), DEAL_B)  # both always want a redeal
    assert (res["bunched"], res["played"], res["next_dealer"]) == (1, 0, 1)
    assert res["points"] == [0, 1] and res["turned_jacks"] == [0, 1]  # the turned jack stands
    assert res["discarded"] == [[], []] and res["held"] == res["dealt"] and res["trump"] == DIAMONDS
    check_deal(res, rules, 1, (0, 0))
    # E's diamonds: A 4 + 9, 8, 4, 3 = 8; D's: K 3 + 10 2 + 6, 5, 2 = 8: 8 < 9 both want it
    assert play_dealt(rules, policy(bunch_below=9), DEAL_B)["bunched"] == 1
    assert play_dealt(rules, policy(bunch_below=8), DEAL_B)["bunched"] == 0
    res = play_dealt(rules, policy(e_bunch_below=15), DEAL_B)  # only E wants it
    assert res["bunched"] == 0 and res["played"] == 1
    assert res["tricks"] == play_dealt(Rules(after_run=FOSTER_CLUB), policy(), DEAL_B)["tricks"]


# E: Ah Kh Qh Jh 4d 4s; D: 9d 8d 7s 6s 7c 6c; turn-up 9c.  Neither is strong in clubs: E
# begs, D runs.  Round 1: E 2s 3d 7d, D 5c 3c 2c, 5h turned: hearts are trumps.
DEAL_C = cards("Ah Kh Qh  9d 8d 7s  Jh 4d 4s  6s 7c 6c  9c  2s 3d 7d  5c 3c 2c  5h")


def test_deal_c_discard_ties_jack_first_and_lowest_winning_follow():
    rules = Rules(after_run=DISCARD_TO_SIX)
    res = play_dealt(rules, policy(), DEAL_C)
    assert (res["ran"], res["rounds"], res["trump"], res["turnups"]) == (1, 1, HEARTS, cards("9c 5h"))
    # E keeps its four trumps, then 7d and, of the two fours, 4d (the lower suit)
    assert res["held"] == [sorted(cards("Ah Kh Qh Jh 7d 4d")), sorted(cards("9d 8d 7c 7s 6c 6s"))]
    assert res["discarded"] == [sorted(cards("4s 2s 3d")), sorted(cards("5c 3c 2c"))]
    assert res["tricks"] == tricks(
        (0, "Jh 6c", 0),  # every trump of E's is sure: the jack first; D sheds 6c before 6s
        (0, "Ah 6s", 0),  # then the highest sure trump
        (0, "Kh 7c", 0),
        (0, "Qh 7s", 0),
        (0, "4d 8d", 1),  # E's cheapest; D's lowest diamond that beats it, not 9d
        (1, "9d 7d", 1),
    )
    assert (res["high"], res["low"], res["jack"], res["game"]) == (0, 0, 0, 0)
    assert res["game_points"] == [10, 0] and res["points"] == [4, 0] and res["trumps_in_play"] == 4
    check_deal(res, rules, 1, (0, 0))


def test_plain_top_card_is_no_sure_winner_while_trumps_are_out():
    # E never begs; hearts (8h turned) are trumps and E holds none, so Ac is not sure
    pack = cards("Ac 2d 3d  2h 7d 8d  4d 5d 6d  2s 3s 4s  8h")
    res = play_dealt(Rules(), policy(beg_below=0), pack)
    assert res["tricks"] == tricks(
        (0, "2d 7d", 1),  # E's cheapest; D's lowest diamond that beats it
        (1, "2s 3d", 1),  # D's cheapest; E, void, throws its cheapest (Ac is worth 4)
        (1, "3s 4d", 1),
        (1, "4s 5d", 1),
        (1, "8d 6d", 1),  # E must follow diamonds
        (1, "2h Ac", 1),
    )
    # one trump in play: High and Low to its holder
    assert res["trumps_in_play"] == 1 and (res["high"], res["low"], res["jack"], res["game"]) == (1, 1, -1, 1)
    assert res["game_points"] == [0, 4] and res["points"] == [0, 3]


def test_the_jack_of_trumps_is_the_dearest_card():
    pack = cards("Ah 2c 3c  Jh Qh 7d  4c 5c 6c  8d 9d 10d  8h")
    res = play_dealt(Rules(), policy(beg_below=0), pack)
    assert res["tricks"] == tricks(
        (0, "Ah Qh", 0),  # D must trump and cannot win: Qh (worth 2) before Jh (worth 20)
        (0, "2c 7d", 0),  # 2c worth 0: D's cheapest, a plain card before a trump
        (0, "3c 8d", 0),
        (0, "4c 9d", 0),
        (0, "5c 10d", 0),  # 10d (worth 10) before the jack of trumps (worth 20)
        (0, "6c Jh", 1),
    )
    assert (res["high"], res["low"], res["jack"], res["game"]) == (0, 1, 1, 0)
    assert res["game_points"] == [16, 1] and res["points"] == [2, 2]


def test_following_may_trump_while_holding_the_suit_led():
    pack = cards("Kc Ad As  7c 2h 3h  10d 10s Ac  4h 5h 6h  8h")
    res = play_dealt(Rules(), policy(beg_below=0), pack)
    assert res["tricks"] == tricks(
        (0, "Kc 2h", 1),  # Kc (worth 3) is E's cheapest; D holds 7c but takes it with its lowest trump
        (1, "7c Ac", 0),
        (0, "Ad 3h", 1),  # Ad before As: same worth and rank, the lower suit
        (1, "4h As", 1),
        (1, "5h 10d", 1),  # 10d before 10s
        (1, "6h 10s", 1),
    )
    assert res["game_points"] == [4, 31] and (res["high"], res["low"], res["game"]) == (1, 1, 1)
    # the high player trumps too when it holds the suit led
    res = play_dealt(Rules(), policy(play_style=STYLE_HIGH), pack)
    assert res["begged"] == 1 and res["gave"] == 1  # E's hearts 0 < 3; D's 5 >= 4: gift, hearts trumps
    # E: the highest rank, ties to the lower suit (Ac of three aces); D holds 7c but plays its top trump
    assert res["tricks"][0] == tricks((0, "Ac 6h", 1))[0]


def test_a_worthless_trump_lead_is_not_overtaken():
    # E plays high (its top trump first), D greedy: 5h is worth 0, so D plays its cheapest trump
    pack = cards("5h 2c 3c  2h 9h 2d  4c 6c 7c  3d 4d 5d  8h")
    res = play_dealt(Rules(), policy(beg_below=0, e_play_style=STYLE_HIGH), pack)
    assert res["tricks"] == tricks(
        (0, "5h 2h", 0),
        (0, "7c 2d", 0),  # D void in clubs keeps 9h (a worthless card led) and throws 2d
        (0, "6c 3d", 0),
        (0, "4c 4d", 0),
        (0, "3c 5d", 0),
        (0, "2c 9h", 1),
    )
    assert (res["high"], res["low"], res["jack"], res["game"]) == (1, 1, -1, 0)
    assert res["game_tie"] == 1 and res["points"] == [1, 2]


def test_strength_and_decision_thresholds():
    assert twin.strength(cards("Ah Kh Qh Jh 10h 2h"), HEARTS) == 14
    assert twin.strength(cards("Ah Kh Qh Jh 10h 2h"), SPADES) == 0
    assert twin.strength(cards("10d 9d 2d Ad 10c"), DIAMONDS) == 8
    # DEAL_A: E's hearts A 4 + J 2 + 3 1 = 7, D's K 3 + 9 1 = 4
    for beg_below, begged in ((7, 0), (8, 1)):
        assert play_dealt(Rules(), policy(beg_below=beg_below), DEAL_A)["begged"] == begged
    for give_at_least, gave in ((4, 1), (5, 0)):
        res = play_dealt(Rules(), policy(beg_below=15, give_at_least=give_at_least), DEAL_A)
        assert (res["gave"], res["ran"]) == (gave, 1 - gave)


def void_pack():
    """E and D are dealt no spades; Js is turned, then five rounds each turn up a spade
    (the last round deals 7s 8s 9s: 42 cards other than the turn-ups need three spades)."""
    others = [c for c in range(52) if c // 13 != SPADES]
    order = others[:12] + cards("Js")
    rest = iter(others[12:] + cards("7s 8s 9s"))
    for up in cards("2s 3s 4s 5s 6s"):
        order += [next(rest) for _ in range(6)] + [up]
    return order


def test_void_deal_takes_back_the_turned_jack():
    pack = void_pack()
    rules = Rules()
    res = play_dealt(rules, policy(), pack, dealer=0, scores=(2, 5))
    assert (res["begged"], res["ran"], res["void"], res["rounds"], res["played"]) == (1, 1, 1, 5, 0)
    assert res["turnups"] == cards("Js 2s 3s 4s 5s 6s") and res["trump"] == -1
    assert res["turned_jacks"] == [0, 0] and res["points"] == [0, 0] and res["scores"] == [2, 5]
    assert res["next_dealer"] == 0 and all(len(h) == 21 for h in res["dealt"])
    check_deal(res, rules, 0, (2, 5))
    rules = Rules(exhaust_keeps_jack_points=True)
    res = play_dealt(rules, policy(), pack, dealer=0, scores=(2, 5))
    assert res["void"] == 1 and res["turned_jacks"] == [1, 0] and res["scores"] == [3, 5]
    check_deal(res, rules, 0, (2, 5))


def test_first_turned_jack_wins_at_once():
    pack = cards("2c 3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Jh")
    res = play_dealt(Rules(), policy(), pack, scores=(0, 10))
    assert res["winner"] == 1 and res["scores"] == [0, 11] and res["turned_jacks"] == [0, 1]
    assert (res["begged"], res["played"], res["trump"], res["turnups"]) == (0, 0, HEARTS, cards("Jh"))
    assert res["dealt"] == [sorted(cards("2c 3c 4c 8c 9c 10c")), sorted(cards("5c 6c 7c Jc Qc Kc"))]


def test_no_trump_in_play_scores_only_game_and_ties():
    # nobody holds a heart and no counting card: Game is tied 0-0
    pack = cards("2c 3c 4c  2d 3d 4d  5c 6c 7c  5d 6d 7d  8h")
    for tie, game in ((0, 0), (TIE_NOBODY, -1)):
        rules = Rules(game_tie=tie)
        res = play_dealt(rules, policy(beg_below=0), pack)
        assert res["trumps_in_play"] == 0 and res["played"] == 1 and res["trump"] == HEARTS
        # E leads its lowest club each time; D, void in clubs and trumps, throws its lowest diamond
        assert res["tricks"] == tricks(*[(0, f"{k}c {k}d", 0) for k in range(2, 8)])
        assert (res["high"], res["low"], res["jack"]) == (-1, -1, -1)
        assert res["game_points"] == [0, 0] and res["game_tie"] == 1 and res["game"] == game
        assert res["points"] == ([1, 0] if game == 0 else [0, 0])
        check_deal(res, rules, 1, (0, 0))


def test_a_tied_game_is_reported_even_when_high_ends_the_game():
    # E leads its clubs up; D sheds its diamonds and takes the last trick with 2h, its only trump
    pack = cards("2c 3c 4c  2d 3d 4d  5c 6c 7c  5d 6d 2h  8h")
    res = play_dealt(Rules(), policy(beg_below=0), pack)
    assert res["tricks"] == tricks(*[(0, f"{k}c {k}d", 0) for k in range(2, 7)], (0, "7c 2h", 1))
    assert (res["high"], res["low"], res["jack"], res["game"]) == (1, 1, -1, 0)
    assert res["game_tie"] == 1 and res["points"] == [1, 2]
    # (reading R2) when High takes D to the target, Game is not scored but the tie is still reported
    res = play_dealt(Rules(), policy(beg_below=0), pack, scores=(3, 10))
    assert (res["high"], res["low"], res["game"], res["winner"]) == (1, -1, -1, 1)
    assert res["game_tie"] == 1 and res["game_points"] == [0, 0] and res["next_dealer"] == -1


# ----------------------------------------------------------------------------------------
# Random hands: conservation and laws


def test_random_hands_obey_the_laws():
    rng = random.Random(2024)
    seen = {k: 0 for k in ("thrown_in", "bunched", "played", "ran", "gave", "discard", "win")}
    for index in range(500):
        rules, pol = random_rules(rng), random_policy(rng)
        if rng.random() < 0.2:
            pol[:, 0] = 15  # beg
            pol[:, 1] = 15  # run
        dealer = rng.randint(0, 1)
        scores = (rng.randrange(rules.target), rng.randrange(rules.target))
        pack = list(range(52))
        rng.shuffle(pack)
        res = play_dealt(rules, pol, pack, dealer=dealer, scores=scores)
        check_deal(res, rules, dealer, scores)
        for k in ("thrown_in", "bunched", "played", "ran", "gave"):
            seen[k] += res[k]
        seen["discard"] += bool(res["discarded"][0])
        seen["win"] += res["winner"] >= 0
    assert all(v > 0 for v in seen.values()), seen


def test_always_run_deals_rounds_until_a_new_suit():
    pol = policy(beg_below=15, give_at_least=15)
    rounds = [0] * 6
    for index in range(400):
        res = hand_result(Rules(), pol, 21, index)
        check_deal(res, Rules(), 1, (0, 0))
        assert (res["begged"], res["gave"], res["ran"]) == (1, 0, 1)
        rounds[res["rounds"]] += 1
    assert rounds[0] == 0 and sum(rounds) == 400
    # one round finds a new suit about three times in four (the rules text: 0.766 unconditioned)
    assert 0.6 < rounds[1] / 400 < 0.85 and rounds[2] > rounds[3]


@pytest.mark.slow
def test_deal_statistics_with_never_beg():
    # E always stands: the 12 dealt cards and the turn-up decide; reference values of the rules text
    pol = policy(beg_below=0)
    total = simulate(Rules(), pol, 2, HANDS, 9, 0, 3000)
    t = total[2]
    assert t[HT["played"]] == 3000 and t[HT["begged"]] == 0
    assert abs(t[HT["no_trump"]] / 3000 - 0.02463) < 0.012
    assert abs(t[HT["one_trump"]] / 3000 - 0.12669) < 0.025
    assert abs(t[HT["jack_in_play"]] / 3000 - 12 / 51) < 0.03
    assert abs(total[1, HS["turned_jacks"]] / 3000 - 1 / 13) < 0.02
    assert total[0, HS["turned_jacks"]] == 0


def test_hand_rows_match_the_hand():
    rng = random.Random(99)
    for index in range(200):
        rules, pol = random_rules(rng), random_policy(rng)
        seat_rows, table_row = play_hand(rules, pol, 2, 42, index)
        res = hand_result(rules, pol, 42, index)
        assert len(table_row) == len(HAND_OUTCOMES.table)
        for s, row in enumerate(seat_rows):
            assert len(row) == len(HAND_OUTCOMES.seat)
            assert row[HS["points"]] == res["points"][s] and row[HS["points_sq"]] == res["points"][s] ** 2
            for key in ("high", "low", "jack", "game"):
                assert row[HS[key]] == (1 if res[key] == s else 0)
            assert row[HS["gift"]] == res["gift"][s]
            assert row[HS["turned_jacks"]] == res["turned_jacks"][s]
            assert row[HS["turned_jacks_sq"]] == res["turned_jacks"][s] ** 2
            assert row[HS["game_points"]] == res["game_points"][s]
            assert row[HS["game_points_sq"]] == res["game_points"][s] ** 2
        for key in ("begged", "gave", "ran", "void", "thrown_in", "bunched", "played", "jack_in_play", "game_tie"):
            assert table_row[HT[key]] == res[key]
        assert table_row[HT["no_trump"]] == (1 if res["played"] and res["trumps_in_play"] == 0 else 0)
        assert table_row[HT["one_trump"]] == (1 if res["played"] and res["trumps_in_play"] == 1 else 0)
        for k in range(1, 6):
            assert table_row[HT[f"runs_{k}"]] == (1 if res["ran"] and res["rounds"] == k else 0)
            assert table_row[HT[f"runs_{k}_count"]] == res["ran"]
        assert sum(table_row[HT[f"runs_{k}"]] for k in range(1, 6)) == res["ran"]
        # hand mode starts 0-0 with a target of at least 7: nobody can win in one deal
        assert res["winner"] == -1 and all(p <= 5 for p in res["points"])


# ----------------------------------------------------------------------------------------
# Games


def split_deals(log):
    """The log of a game cut into its deals (lines after each '-- deal k')."""
    deals = []
    for line in log:
        if line.startswith("-- deal"):
            deals.append([])
        elif deals:
            deals[-1].append(line)
    return deals


def drawn_cards(lines):
    """The cards a deal's log shows drawn, in draw order."""
    out = []
    for line in lines:
        if line.startswith("deal: seat") and "gets" in line:
            e_part, d_part = line.split("; ")
            e = parse_cards(e_part.split("gets ")[1])
            d = parse_cards(d_part.split("gets ")[1])
            out += e[:3] + d[:3] + e[3:] + d[3:]
        elif line.startswith("turn-up:"):
            out.append(parse_cards(line.split()[1].rstrip(","))[0])
        elif line.startswith("round") and "turn-up" in line:
            e_part, d_part, up = line.split("; ")
            out += parse_cards(e_part.split("gets ")[1]) + parse_cards(d_part.split("gets ")[1])
            out.append(parse_cards(up.split()[1])[0])
    return out


def test_game_deals_reset_the_pack_and_continue_the_stream():
    rules = Rules(target=7)
    for index in range(6):
        log = []
        play_game(rules, policy(), 2, 19, index, log)
        stream = Stream(19, index)
        deals = split_deals(log)
        assert len(deals) >= 2
        for lines in deals:
            drawn = drawn_cards(lines)
            assert drawn == deal_prefix(stream, len(drawn))
        # the first deal is hand `index` of hand mode, log line for log line
        assert deals[0] == replay_lines(rules, policy(), 2, 19, index)[1:]


def test_random_games():
    rng = random.Random(314)
    before = 0
    for index in range(150):
        rules, pol = random_rules(rng), random_policy(rng)
        seat_rows, table_row = play_game(rules, pol, 2, 17, index)
        assert [len(r) for r in seat_rows] == [len(GAME_OUTCOMES.seat)] * 2
        assert len(table_row) == len(GAME_OUTCOMES.table)
        wins = [r[GS["win"]] for r in seat_rows]
        assert sorted(wins) == [0, 1]
        w = wins.index(1)
        assert seat_rows[w][GS["score"]] == rules.target
        assert 0 <= seat_rows[1 - w][GS["score"]] < rules.target
        for r in seat_rows:
            for key in ("score", "begged", "gave"):
                assert r[GS[f"{key}_sq"]] == r[GS[key]] ** 2
        deals, played, void = table_row[GT["deals"]], table_row[GT["played"]], table_row[GT["void"]]
        assert table_row[GT["deals_sq"]] == deals**2 and table_row[GT["played_sq"]] == played**2
        assert table_row[GT["void_sq"]] == void**2
        assert deals >= played + void and played + void >= 0 and deals >= 1
        assert sum(r[GS["begged"]] for r in seat_rows) <= deals
        assert sum(r[GS["gave"]] for r in seat_rows) <= sum(r[GS["begged"]] for r in seat_rows)
        # five points a deal at most: a game needs at least target / 5 deals
        assert deals * 5 >= rules.target
        assert table_row[GT["before_play"]] in (0, 1)
        if table_row[GT["before_play"]] == 0:
            assert played >= 1
        before += table_row[GT["before_play"]]
    assert before > 0


def dealers(log):
    return [int(line.split()[2]) for line in log if line.startswith("deal: seat") and line.split()[3] == "deals,"]


def test_game_log_ends_on_the_winner_and_the_deal_passes():
    for index in range(8):
        log = []
        rules = Rules(target=9, gift_then=index % 2)
        seat_rows, table_row = play_game(rules, policy(give_at_least=3), 2, 5, index, log)
        w = [r[GS["win"]] for r in seat_rows].index(1)
        assert log[-1].startswith(f"game over after {table_row[GT['deals']]} deals: seat {w} wins")
        assert sum(line.startswith("-- deal") for line in log) == table_row[GT["deals"]]
        assert sum(line.startswith("trick 1:") for line in log) == table_row[GT["played"]]
        # seat 1 deals first; the deal passes after every deal but a void one
        seq = dealers(log)
        deals = split_deals(log)
        assert seq[0] == 1 and len(seq) == len(deals) == table_row[GT["deals"]]
        for k in range(1, len(seq)):
            void = any(line.startswith("void:") for line in deals[k - 1])
            assert seq[k] == (seq[k - 1] if void else 1 - seq[k - 1])


def test_bunched_and_void_deals_keep_the_dealer_in_a_game():
    # E always begs, D always runs and both always bunch: no hand is ever played, seat 1
    # deals every deal and wins on turned jacks alone
    rules = Rules(bunch=True, target=7)
    pol = policy(beg_below=15, give_at_least=15, bunch_below=15)
    for index in range(3):
        log = []
        seat_rows, table_row = play_game(rules, pol, 2, 6, index, log)
        assert [r[GS["win"]] for r in seat_rows] == [0, 1]
        assert [r[GS["score"]] for r in seat_rows] == [0, 7]
        assert table_row[GT["played"]] == 0 and table_row[GT["before_play"]] == 1
        assert set(dealers(log)) == {1} and table_row[GT["deals"]] >= 7
        # E begs in every deal, except perhaps the last, won on the first turn-up's jack
        assert table_row[GT["deals"]] - 1 <= seat_rows[0][GS["begged"]] <= table_row[GT["deals"]]
        assert seat_rows[1][GS["begged"]] == 0 and seat_rows[1][GS["gave"]] == 0


# ----------------------------------------------------------------------------------------
# Batching and replay


def test_simulate_hands_is_the_sum_of_play_hand_and_split_invariant():
    rules = Rules(after_run=DISCARD_TO_SIX)
    pol = policy(beg_below=6)
    total = simulate(rules, pol, 2, HANDS, 55, 10, 80)
    assert total.dtype == np.int64 and total.shape == (3, HAND_OUTCOMES.width)
    manual = np.zeros_like(total)
    for index in range(10, 90):
        seat_rows, table_row = play_hand(rules, pol, 2, 55, index)
        manual[:2, : len(HAND_OUTCOMES.seat)] += np.array(seat_rows)
        manual[2, : len(HAND_OUTCOMES.table)] += np.array(table_row)
    assert (total == manual).all()
    pieces = HAND_OUTCOMES.combine(
        simulate(rules, pol, 2, HANDS, 55, 10, 30), simulate(rules, pol, 2, HANDS, 55, 40, 50)
    )
    assert (pieces == total).all()
    assert total[2, HT["played"]] + total[2, HT["void"]] == 80  # no gift redeal, no bunch here
    assert total[2, HT["ran"]] > 0


def test_simulate_games_is_the_sum_of_play_game():
    rules = Rules(target=7)
    pol = policy()
    total = simulate(rules, pol, 2, GAMES, 8, 0, 20)
    assert total.shape == (3, GAME_OUTCOMES.width)
    games = [play_game(rules, pol, 2, 8, i) for i in range(20)]
    assert total[0, GS["win"]] + total[1, GS["win"]] == 20
    assert total[2, GT["deals"]] == sum(t[GT["deals"]] for _, t in games)
    assert total[1, GS["score"]] == sum(s[1][GS["score"]] for s, _ in games)
    with pytest.raises(ValueError):
        simulate(rules, pol, 2, 2, 8, 0, 1)


def test_replay_lines_mention_the_cards_and_tricks():
    for hand in range(10):
        lines = replay_lines(Rules(), policy(), 2, 31, hand)
        assert lines[0].startswith(f"All-Fours: seed 31, hand {hand}")
        res = hand_result(Rules(), policy(), 31, hand)
        text = "\n".join(lines)
        for c in res["dealt"][0] + res["dealt"][1] + res["turnups"]:
            assert card_name(c) in text
        assert sum(line.startswith("trick ") for line in lines) == len(res["tricks"])
        for leader, ((s1, c1), (s2, c2)), winner in res["tricks"]:
            assert f"seat {s1} {card_name(c1)}, seat {s2} {card_name(c2)}; seat {winner} wins" in text


def test_log_does_not_change_the_result():
    rng = random.Random(8)
    for hand in range(40):
        rules, pol = random_rules(rng), random_policy(rng)
        pack = deal_prefix(Stream(4, hand), 52)
        log = []
        assert play_dealt(rules, pol, pack, log=log) == play_dealt(rules, pol, pack)
        assert log


# ----------------------------------------------------------------------------------------
# Input


@pytest.mark.parametrize(
    "kwargs",
    [
        {"cards": [0, 0, 1]},
        {"cards": [52]},
        {"cards": [-1]},
        {"dealer": 2},
        {"scores": (11, 0)},
        {"scores": (0, -1)},
        {"scores": (1, 2, 3)},
        {"policy": np.zeros((3, 4))},
        {"policy": np.zeros((2, 3))},
        {"policy": np.full((2, 4), 16.0)},
        {"rules": Rules(target=6)},
        {"rules": Rules(after_run=3)},
    ],
)
def test_play_dealt_refuses_bad_input(kwargs):
    args = {"rules": Rules(), "policy": policy(), "cards": DEAL_A, "dealer": 1, "scores": (0, 0)}
    args.update(kwargs)
    with pytest.raises(ValueError):
        play_dealt(args["rules"], args["policy"], args["cards"], dealer=args["dealer"], scores=args["scores"])


def test_hand_and_game_refuse_other_table_sizes():
    with pytest.raises(ValueError):
        play_hand(Rules(), policy(), 3, 1, 0)
    with pytest.raises(ValueError):
        play_game(Rules(), policy(), 4, 1, 0)
