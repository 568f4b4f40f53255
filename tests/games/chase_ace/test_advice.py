"""Chase the Ace advice (sims/games/chase_ace/advice.py): the kernel equals the twin on
the same streams, the first decision matches the exact enumeration, certain cases and
every refused situation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sims import advice, situations
from sims.core.advice import ACCEPTED, FIRST_SUM, TRIED
from sims.core.cards import parse_cards
from sims.games.chase_ace.exact import exact_hand
from sims.games.chase_ace.rules import Rules
from sims.registry import get_game
from tests.games.advice_twin import twin_advice

SPEC = get_game("chase-ace")


def situation(rules, n, position, holding, **context):
    return situations.situation(SPEC, rules, n, position, parse_cards(holding), context)


def headline(sums, candidate, n_outcomes=2):
    """Mean and standard error of candidate's lose_life."""
    accepted = sums[ACCEPTED]
    total, squares = sums[FIRST_SUM + 2 * candidate * n_outcomes], sums[FIRST_SUM + 2 * candidate * n_outcomes + 1]
    mean = total / accepted
    return mean, math.sqrt(max(squares / accepted - mean * mean, 1e-12) / accepted)


CASES = [
    (Rules(), 8, 3, "6h", {}),
    (Rules(), 8, 3, "6h", {"gave": "9c"}),
    (Rules(), 8, 3, "6h", {"earlier": "ks?"}),
    (Rules(), 8, 7, "7c", {}),
    (Rules(), 5, 4, "7c", {"gave": "Qd", "earlier": "k?ks"}),
    (Rules(), 4, 0, "2s", {}),
    (Rules(kings=1, ace_high=True), 6, 2, "5d", {"gave": "3c"}),
    (Rules(queens=1, jacks=2), 6, 3, "8h", {}),
    (Rules(kings=3, king_reveal=1, tie=1), 7, 4, "9s", {}),
    (Rules(kings=2), 5, 1, "4c", {}),
]


@pytest.mark.parametrize("rules, n, position, holding, context", CASES)
def test_kernel_equals_twin_on_the_same_streams(rules, n, position, holding, context):
    found = situation(rules, n, position, holding, **context)
    policy = SPEC.default_policy(n)
    policy[:, 1] = 0.5  # a mixed threshold: the policies draw from the stream
    kernel = advice.simulate_advice(SPEC, rules, policy, n, found, 11, 100, 1500)
    twin = twin_advice(SPEC, rules, policy, n, found, 11, 100, 1500)
    assert kernel == twin
    assert kernel[TRIED] == 1500 and kernel[ACCEPTED] > 0


def test_rejection_keeps_only_the_deals_the_player_could_have_seen():
    plain = situation(Rules(), 8, 3, "6h")
    given = situation(Rules(), 8, 3, "6h", gave="9c")
    policy = SPEC.default_policy(8)
    sums = advice.simulate_advice(SPEC, Rules(), policy, 8, plain, 1, 0, 20_000)
    rarer = advice.simulate_advice(SPEC, Rules(), policy, 8, given, 1, 0, 20_000)
    assert 0.25 < sums[ACCEPTED] / sums[TRIED] < 0.5  # the right-hand neighbour kept
    assert 0 < rarer[ACCEPTED] < sums[ACCEPTED] / 4  # the 6h had to travel to seat 2, which swapped it
    # the threads and the blocks never change a sum
    assert advice.simulate_advice(SPEC, Rules(), policy, 8, plain, 1, 0, 20_000, threads=2) == sums


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("holding, face", [("6h", 5), ("9d", 8), ("2c", 1)])
def test_first_decision_matches_the_exact_enumeration(n, holding, face):
    rules = Rules()
    policy = SPEC.default_policy(n)
    found = situation(rules, n, 0, holding)
    sums = advice.simulate_advice(SPEC, rules, policy, n, found, 5, 0, 200_000, threads=2)
    assert sums[ACCEPTED] == sums[TRIED] == 200_000  # nothing to reject before the first decision
    exact = [exact_hand(rules, policy, n, first_face=face, first_swap=swap)["lose_life"][0] for swap in (True, False)]
    for candidate in (0, 1):
        mean, se = headline(sums, candidate)
        assert abs(mean - exact[candidate]) < 4.5 * se, (candidate, mean, exact[candidate], se)


def test_an_ace_kept_by_the_eldest_of_two_always_loses():
    # ace low, all lowest lose: a kept ace is the lowest card whatever the dealer ends with
    found = situation(Rules(), 2, 0, "Ac")
    sums = advice.simulate_advice(SPEC, Rules(), SPEC.default_policy(2), 2, found, 3, 0, 5_000)
    keep_lose, swap_lose = sums[FIRST_SUM + 4], sums[FIRST_SUM]
    assert keep_lose == sums[ACCEPTED] == 5_000
    # swapping passes the ace to the dealer, who cuts it away: about an even chance left
    assert 0.4 * 5_000 < swap_lose < 0.65 * 5_000


def test_the_dealer_cuts_or_keeps():
    found = situation(Rules(), 5, 4, "7c", earlier="kssk")
    assert (found.decision, found.candidates) == ("cut", ("cut", "keep"))
    # header (position, holding, gave, seen, lives given), the 5 lives (not given), earlier
    assert list(found.known) == [4, parse_cards("7c")[0], -1, 0, 0] + [0] * 5 + [0, 1, 1, 0]


@pytest.mark.parametrize(
    "holding, context, n, position, says",
    [
        ("6h 7h", {}, 8, 3, "holds one card"),
        ("Kh", {}, 8, 3, "must keep"),
        ("Ah", {}, 8, 3, None),  # the ace is low by default: a decision
        ("6h", {"gave": "6h"}, 8, 3, "the card you hold"),
        ("6h", {"gave": "Kc"}, 8, 3, "top card"),
        ("6h", {"gave": "9c"}, 8, 0, "eldest hand"),
        ("6h", {"gave": "9c", "earlier": "kkk"}, 8, 3, "earlier says it did not"),
        ("6h", {"earlier": "ks"}, 8, 3, "one letter"),
        ("6h", {"earlier": "kks"}, 8, 3, "give the card you gave"),
        ("6h", {"earlier": "kxs"}, 8, 3, "one letter"),
        ("6h", {"gave": "9x"}, 8, 3, "not a card"),
        ("6h", {"seen": "x"}, 8, 3, "unknown context"),
        ("6h", {}, 8, 8, "--position"),
    ],
)
def test_refused_situations_say_why(holding, context, n, position, says):
    if says is None:
        assert situation(Rules(), n, position, holding, **context).candidates == ("swap", "keep")
        return
    with pytest.raises(ValueError, match=says):
        situation(Rules(), n, position, holding, **context)
    with pytest.raises(ValueError):  # (a second time through the spec's own entry)
        situations.situation(SPEC, Rules(), n, position, parse_cards(holding), context)


def test_ace_high_makes_the_ace_the_top_card():
    with pytest.raises(ValueError, match="must keep"):
        situation(Rules(ace_high=True), 8, 3, "Ah")
    assert np.array_equal(situation(Rules(ace_high=True), 8, 3, "Kh").candidates, ("swap", "keep"))


# ---------------------------------------------------------------------------------------
# Issue 36: the history as seen, the lives left (win_game), the terms, what was assumed

from sims.core.advice import cross_start  # noqa: E402
from sims.games.chase_ace import advice as game_advice  # noqa: E402
from sims.games.chase_ace.rules import FINAL_CUT_HIGH, TIE_EARLIEST  # noqa: E402


def seen_situation(rules, n, position, holding, infer="seen", **context):
    return situations.situation(SPEC, rules, n, position, parse_cards(holding), context, infer)


def mean_of(sums, found, candidate, outcome):
    o_count = len(found.outcomes)
    return sums[FIRST_SUM + 2 * (candidate * o_count + found.outcomes.index(outcome))] / sums[ACCEPTED]


def paired_difference(sums, found, outcome=0):
    """Mean and standard error of candidate 0's outcome minus candidate 1's."""
    k_count, o_count = len(found.candidates), len(found.outcomes)
    accepted = sums[ACCEPTED]
    first = [sums[FIRST_SUM + 2 * (c * o_count + outcome)] for c in (0, 1)]
    square = [sums[FIRST_SUM + 2 * (c * o_count + outcome) + 1] for c in (0, 1)]
    cross = sums[cross_start(k_count, o_count, outcome) + 1]
    mean = (first[0] - first[1]) / accepted
    variance = (square[0] - 2 * cross + square[1]) / accepted - mean * mean
    return mean, math.sqrt(variance / accepted)


@pytest.mark.parametrize("text", ["", " "])
def test_an_empty_earlier_is_a_sentence_or_nothing_never_a_traceback(text):
    # the eldest hand has nobody before it: an empty history is the whole history
    found = situation(Rules(), 6, 0, "5h", earlier=text)
    assert found.candidates == ("swap", "keep") and "earlier" not in found.assumed
    for infer in ("policy", "seen"):
        assert seen_situation(Rules(), 6, 0, "5h", infer=infer, earlier=text).known[game_advice.K_POSITION] == 0
    with pytest.raises(ValueError, match="one letter s, k or \\? for each of the 2 players"):
        situation(Rules(), 6, 2, "5h", earlier=text)
    with pytest.raises(ValueError, match="for each of the 0 players"):
        situation(Rules(), 6, 0, "5h", earlier="k")


SEEN_CASES = [
    (Rules(), 8, 3, "6h", {"earlier": "ks?"}),
    (Rules(), 8, 3, "6h", {"gave": "9c"}),
    (Rules(), 8, 3, "6h", {}),
    (Rules(), 5, 4, "7c", {"gave": "Qd", "earlier": "k?ks", "lives": "3 1 2 2 1"}),
    (Rules(queens=1, jacks=2), 6, 3, "8h", {"earlier": "ssk", "lives": "1 1 1 1 1 1"}),
    (Rules(kings=3, king_reveal=1, tie=1, final_tie=FINAL_CUT_HIGH), 5, 2, "6s", {"earlier": "ss", "gave": "4d"}),
    (Rules(final_tie=FINAL_CUT_HIGH, lives=2), 4, 2, "3c", {"earlier": "sk", "lives": "1 2 1 1"}),
    (Rules(final_tie=4), 3, 1, "2c", {"earlier": "k", "lives": "1 1 1"}),  # carry-no-stake continuation
]


@pytest.mark.parametrize("infer", ["seen", "policy"])
@pytest.mark.parametrize("rules, n, position, holding, context", SEEN_CASES)
def test_kernel_equals_twin_under_seen_and_with_lives(rules, n, position, holding, context, infer):
    found = seen_situation(rules, n, position, holding, infer=infer, **context)
    policy = SPEC.default_policy(n)
    policy[:, 1] = 0.5  # a mixed threshold: the policies draw from the stream
    kernel = advice.simulate_advice(SPEC, rules, policy, n, found, 17, 50, 1200)
    twin = twin_advice(SPEC, rules, policy, n, found, 17, 50, 1200)
    assert kernel == twin
    assert kernel[TRIED] == 1200 and kernel[ACCEPTED] > 0


def test_seen_plays_a_history_the_policies_never_produce():
    # a field that never swaps, yet the two players before you exchanged (the second with you)
    never = SPEC.default_policy(6)
    never[:, 0] = 0
    policy_reading = seen_situation(Rules(), 6, 2, "5h", infer="policy", earlier="ss", gave="9c")
    seen_reading = seen_situation(Rules(), 6, 2, "5h", infer="seen", earlier="ss", gave="9c")
    assert seen_reading.infer == "seen" and policy_reading.infer == "policy"
    refused = advice.simulate_advice(SPEC, Rules(), never, 6, policy_reading, 2, 0, 4_000)
    answered = advice.simulate_advice(SPEC, Rules(), never, 6, seen_reading, 2, 0, 4_000)
    assert refused[ACCEPTED] == 0
    # seen rejects only the deals where a visible fact differs: position 0's exchange was
    # blocked by a king at position 1, or the 9c the advised player gave did not come
    # back to it (position 1's card must be the 5h: 1 in 49 of the deals)
    assert 0 < answered[ACCEPTED] < 4_000 / 30
    # the keep candidate of an advised player holding the 5h after the exchange: its
    # right-hand neighbour holds its 9c now, so it can lose only with others below a 6
    assert mean_of(answered, seen_reading, 1, "lose_life") < 0.5


def test_noting_the_earlier_keeps_flips_the_answer_under_policy():
    # issue 36: --players 6 --position 2 --holding 5h keeps; with earlier=kk it swaps
    policy = SPEC.default_policy(6)
    plain = situation(Rules(), 6, 2, "5h")
    noted = situation(Rules(), 6, 2, "5h", earlier="kk")
    plain_sums = advice.simulate_advice(SPEC, Rules(), policy, 6, plain, 1, 0, 60_000, threads=2)
    noted_sums = advice.simulate_advice(SPEC, Rules(), policy, 6, noted, 1, 0, 60_000, threads=2)
    swap_minus_keep, se = paired_difference(plain_sums, plain)
    assert swap_minus_keep > 3 * se  # swapping loses a life more often: keep
    swap_minus_keep, se = paired_difference(noted_sums, noted)
    assert swap_minus_keep < -3 * se  # the two keeps say the low cards are after you: swap


def test_lives_are_validated_against_the_lives_rule():
    assert situation(Rules(), 4, 1, "5h", lives="3 1 2 2").known.tolist()[5:9] == [3, 1, 2, 2]
    for text, says in [
        ("3 1 2", "one number for each of the 4 players"),
        ("3 1 2 2 2", "one number for each of the 4 players"),
        ("3 0 2 2", "whole numbers 1..3"),
        ("3 4 2 2", "whole numbers 1..3"),
        ("3 x 2 2", "whole numbers 1..3, not 'x'"),
        ("", "one number for each"),
    ]:
        with pytest.raises(ValueError, match=says):
            situation(Rules(), 4, 1, "5h", lives=text)
    assert situation(Rules(lives=5), 4, 1, "5h", lives="5 5 1 4").known.tolist()[5:9] == [5, 5, 1, 4]


def test_lives_rank_by_the_chance_of_winning_the_game():
    found = situation(Rules(), 6, 2, "5h", lives="3 3 3 3 3 3")
    assert found.outcomes == ("lose_life", "exchange", "win_game") and found.rank_by == 2
    assert found.smaller == ("lose_life",) and found.largest == 1
    assert situation(Rules(), 6, 2, "5h").rank_by == 0


def test_one_life_against_three_wins_less_than_its_share():
    policy = SPEC.default_policy(6)
    weak = situation(Rules(), 6, 2, "5h", lives="3 3 1 3 3 3")
    strong = situation(Rules(), 6, 2, "5h", lives="1 1 3 1 1 1")
    weak_sums = advice.simulate_advice(SPEC, Rules(), policy, 6, weak, 4, 0, 4_000)
    strong_sums = advice.simulate_advice(SPEC, Rules(), policy, 6, strong, 4, 0, 4_000)
    for candidate in (0, 1):
        assert mean_of(weak_sums, weak, candidate, "win_game") < 1 / 6 / 3
        assert mean_of(strong_sums, strong, candidate, "win_game") > 1 / 6 * 2
    # the round itself is the same whatever the lives: lose_life and exchange agree
    plain = advice.simulate_advice(SPEC, Rules(), policy, 6, situation(Rules(), 6, 2, "5h"), 4, 0, 4_000)
    assert plain[FIRST_SUM : FIRST_SUM + 4] == weak_sums[FIRST_SUM : FIRST_SUM + 4]


def test_two_players_on_their_last_life_win_exactly_when_they_keep_their_life():
    # the earliest tied seat loses: one loser a round, so this round ends the game
    rules = Rules(tie=TIE_EARLIEST)
    found = situation(rules, 2, 0, "6h", lives="1 1")
    sums = advice.simulate_advice(SPEC, rules, SPEC.default_policy(2), 2, found, 9, 0, 3_000)
    for candidate in (0, 1):
        lose = mean_of(sums, found, candidate, "lose_life")
        assert mean_of(sums, found, candidate, "win_game") == pytest.approx(1 - lose, abs=1e-12)
    # with two lives each the game goes on: the win is no longer the round
    longer = situation(rules, 2, 0, "6h", lives="2 2")
    sums = advice.simulate_advice(SPEC, rules, SPEC.default_policy(2), 2, longer, 9, 0, 3_000)
    assert 0.3 < mean_of(sums, longer, 1, "win_game") < 0.7


def test_terms_define_every_outcome_and_policy_term_and_absent_every_key():
    terms = advice_terms()
    for name in ("lose_life", "exchange", "win_game", "threshold", "threshold_mix", "informed", "infer"):
        assert terms[name].endswith(".") and len(terms[name]) > 20
    for decision in game_advice.DECISIONS:
        assert set(decision.absent) == set(decision.context) == {"gave", "earlier", "lives"}
    assert "nobody exchanged with you" in game_advice.DECISIONS[0].absent["gave"]


def advice_terms():
    return SPEC.terms()


def test_assumed_names_every_key_left_out():
    found = situation(Rules(), 6, 2, "5h")
    assert set(found.assumed) == {"gave", "earlier", "lives"}
    assert found.assumed["gave"].startswith("nobody exchanged with you")
    assert found.described == {"gave": None, "earlier": None, "lives": None}
    noted = situation(Rules(), 6, 2, "5h", earlier="k s", gave="9c", lives="1 2 3 3 2 1")
    assert noted.assumed == {}
    assert noted.described == {"gave": "9c", "earlier": "ks", "lives": [1, 2, 3, 3, 2, 1]}
    eldest = situation(Rules(), 6, 0, "5h")
    assert set(eldest.assumed) == {"lives"}  # nobody moved before the eldest hand
