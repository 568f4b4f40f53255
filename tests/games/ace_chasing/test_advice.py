"""Ace Chasing advice (sims.games.ace_chasing.advice): the kernel against its twin, the exact
enumeration for seat 0, stacked situations whose better action is certain, and every refusal."""

from __future__ import annotations

import math
import shlex
from fractions import Fraction

import numpy as np
import pytest

from sims import advice as shared
from sims import situations
from sims.core.advice import ACCEPTED, FIRST_SUM, TRIED, cross_start
from sims.core.cards import card_code, parse_cards
from sims.games.ace_chasing import Rules, advice
from sims.games.ace_chasing.exact import exact_advice, exact_hand
from sims.registry import GAMES
from tests.games.advice_twin import twin_advice

SPEC = GAMES["ace-chasing"]
FIELDS = [f.key for f in SPEC.policy_fields]


def policy(n, preset="default", **fields):
    matrix = SPEC.default_policy(n, preset)
    for key, value in fields.items():
        matrix[:, FIELDS.index(key)] = value
    return matrix


def situation(rules, n, position, holding, **context):
    return situations.situation(SPEC, rules, n, position, parse_cards(holding), context)


def stats(sums, found):
    """Per candidate and outcome: (mean, standard error) of the accepted deals."""
    k_count, o_count = len(found.candidates), len(found.outcomes)
    accepted = sums[ACCEPTED]
    out = {}
    for c in range(k_count):
        for o in range(o_count):
            at = FIRST_SUM + 2 * (c * o_count + o)
            mean = sums[at] / accepted
            out[found.candidates[c], found.outcomes[o]] = (
                mean,
                math.sqrt((sums[at + 1] / accepted - mean**2) / accepted),
            )
    return out


def paired(sums, found, a, b):
    """Mean and standard error of headline(a) - headline(b) over the accepted deals."""
    k_count, o_count = len(found.candidates), len(found.outcomes)
    ia, ib = found.candidates.index(a), found.candidates.index(b)
    accepted = sums[ACCEPTED]
    first = [sums[FIRST_SUM + 2 * c * o_count] for c in (ia, ib)]
    square = [sums[FIRST_SUM + 2 * c * o_count + 1] for c in (ia, ib)]
    cross = sums[cross_start(k_count, o_count) + ia * k_count + ib]
    mean = (first[0] - first[1]) / accepted
    second = (square[0] - 2 * cross + square[1]) / accepted
    return mean, math.sqrt((second - mean**2) / accepted)


# ---------------------------------------------------------------------------------------
# Kernel and twin agree exactly

KING_BLOCK = Rules(king_block=True)
BETS = Rules(betting=1, bet_direction=1)
BETTORS = {"bet_min_rank": 8, "bet_size": 2, "back_max_rank": 3}

CASES = {
    # name: (rules, n, position, holding, context, policy fields, deals)
    "swap-history": (Rules(), 6, 2, "5h", {"earlier": "ks", "gave": "9c"}, {}, 400),
    "swap-no-context": (Rules(), 8, 3, "6h", {}, {}, 3000),
    "seat0": (Rules(), 5, 0, "Qd", {}, {"threshold": 10}, 300),
    "matador-right": (Rules(), 5, 3, "2d", {"earlier": "kkk"}, {}, 400),
    "unnoted": (Rules(), 6, 3, "3c", {"earlier": "k?s", "gave": "Jd"}, {}, 4000),
    "matador-right-gave": (Rules(), 5, 3, "Ah", {"gave": "10s"}, {"threshold": 5}, 1500),
    "king-block": (KING_BLOCK, 6, 3, "4c", {"earlier": "s Kd k"}, {"threshold": 9}, 800),
    "bets": (BETS, 5, 1, "9s", {"earlier": "keep", "bets": "2 2 0 -2"}, BETTORS, 1500),
    "bets-open": (BETS, 6, 2, "3s", {}, BETTORS, 2000),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_kernel_equals_twin(name):
    rules, n, position, holding, context, fields, deals = CASES[name]
    found = situation(rules, n, position, holding, **context)
    matrix = policy(n, **fields)
    kernel = shared.simulate_advice(SPEC, rules, matrix, n, found, 11, 5, deals)
    twin = twin_advice(SPEC, rules, matrix, n, found, 11, 5, deals)
    assert kernel == twin
    assert kernel[TRIED] == deals
    assert 0 < kernel[ACCEPTED] <= deals
    if context or position:  # rejection at work: a history or a received card to match
        assert kernel[ACCEPTED] < kernel[TRIED]
    else:  # seat 0 with no history: its dealt card is the holding, nothing to reject
        assert kernel[ACCEPTED] == kernel[TRIED]
    assert found.outcomes == ("exposed", "knocked_out") + (("bet_net",) if rules.betting else ())


def test_decisions_by_seat():
    assert situation(Rules(), 6, 0, "5h").decision == "swap"
    assert situation(Rules(), 6, 3, "5h").decision == "swap"
    assert situation(Rules(), 6, 4, "5h").decision == "matador_right"
    found = situation(Rules(), 6, 2, "5h", earlier="k, s", gave="9c")
    assert found.candidates == ("swap", "keep") and found.lower_is_better
    assert found.described == {"earlier": ["k", "s"], "gave": "9c", "game": None}
    fixed = found.known[advice.known_layout(6)[0] :][:6].tolist()
    assert fixed == [-1, card_code("5h"), card_code("9c"), -1, -1, -1]  # the holding came from seat 1


def test_kernel_with_no_deals():
    found = situation(Rules(), 4, 1, "7c")
    assert shared.simulate_advice(SPEC, Rules(), policy(4), 4, found, 0, 0, 0) == [0] * found.width


# ---------------------------------------------------------------------------------------
# Exact enumeration for seat 0 (no history)


def kernel_sums(rules, matrix, n, found, deals):
    """The kernel's sums directly (3 players is below the game's table but a valid round)."""
    rules_array = SPEC.rules_array(rules)
    return advice.advise_nb(
        rules_array, matrix, n, np.uint64(3), 0, deals, found.known, len(found.candidates), len(found.outcomes)
    ).tolist()


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize(
    "rules, holding, fields",
    [(Rules(), "6h", {}), (Rules(king_block=True, betting=1, bet_direction=1), "Jd", BETTORS)],
    ids=["default", "king-block-bets"],
)
def test_seat0_matches_exact_enumeration(n, rules, holding, fields):
    matrix = policy(n, **fields)
    found = advice.situation(rules, n, 0, tuple(parse_cards(holding)), {})
    sums = kernel_sums(rules, matrix, n, found, 200_000)
    assert sums[TRIED] == sums[ACCEPTED] == 200_000  # nothing to reject at seat 0
    exact = exact_advice(rules, matrix, n, card_code(holding))
    means = stats(sums, found)
    for candidate in found.candidates:
        for outcome in found.outcomes:
            mean, se = means[candidate, outcome]
            assert abs(mean - exact[candidate][outcome]) <= 4 * se + 1e-12, (candidate, outcome)
    diff, diff_se = paired(sums, found, "swap", "keep")
    exact_diff = exact["swap"]["exposed"] - exact["keep"]["exposed"]
    assert diff_se > 0 and abs(diff - exact_diff) <= 4 * diff_se


def test_exact_advice_averages_to_exact_hand():
    """Seat 0 following its policy: the candidate its policy picks, averaged over the 52
    cards, is hand mode's exact P(seat 0 exposed)."""
    rules, n = Rules(), 4
    matrix = policy(n)
    picks = [exact_advice(rules, matrix, n, card, exact=True) for card in range(0, 13)]  # suits are alike
    chosen = [p["swap" if face + 1 <= 7 or face == 0 else "keep"]["exposed"] for face, p in enumerate(picks)]
    assert sum(chosen, Fraction(0)) / 13 == exact_hand(rules, matrix, n, exact=True)["exposed"][0]
    assert picks[5]["keep"] == exact_advice(rules, matrix, n, card_code("6s"), exact=True)["keep"]


# ---------------------------------------------------------------------------------------
# Stacked situations


def test_ace_on_the_matadors_right_swaps():
    """Seat 2 of 4 holds the ace of spades after two keeps (default policy: seats 0 and 1
    hold 8..K, no ace).  Keeping, it is exposed unless the matador's card X is an ace
    (3 of the 49 unseen cards): 46/49.  Swapping hands the matador the ace, so only a
    spade is exposed: X is a spade with chance (12 - 2 * 6/24) / 49 = 23/98.  On every
    deal a swap exposed is a keep exposed too."""
    rules, n = Rules(), 4
    found = situation(rules, n, 2, "As", earlier="kk")
    assert found.decision == "matador_right"
    sums = shared.simulate_advice(SPEC, rules, policy(n), n, found, 5, 0, 40_000)
    means = stats(sums, found)
    keep, keep_se = means["keep", "exposed"]
    swap, swap_se = means["swap", "exposed"]
    assert abs(keep - 46 / 49) <= 4 * keep_se and abs(swap - 23 / 98) <= 4 * swap_se
    k_count, o_count = 2, 2
    cross = sums[cross_start(k_count, o_count) + 0 * k_count + 1]  # swap exposed * keep exposed
    assert cross == sums[FIRST_SUM]  # = the swap's exposures: dominated deal by deal
    # Keeping the ace never knocks the matador out unless it holds an ace itself.
    assert means["keep", "knocked_out"][0] <= means["keep", "exposed"][0] and means["keep", "knocked_out"][0] < 0.07
    diff, diff_se = paired(sums, found, "swap", "keep")
    assert diff < -0.6 and diff_se < 0.01


def test_king_refusal_fixes_the_shown_king():
    """With king_block, seat 1's refused swap pins Kd to seat 2; seat 2 (threshold 9) kept
    it, so seat 3 holds its dealt 4c; the twin agrees on every accepted deal."""
    rules = KING_BLOCK
    found = situation(rules, 6, 3, "4c", earlier="s Kd k")
    fixed = found.known[advice.known_layout(6)[0] :][:6].tolist()
    assert fixed == [-1, -1, card_code("Kd"), card_code("4c"), -1, -1]
    assert found.described["earlier"] == ["s", "Kd", "k"]


def test_bet_net_follows_the_knock_out():
    """The seat's own bet of 2 against the matador wins 2 when the matador is knocked out
    and loses 2 otherwise: bet_net = 2 * (2 KO - 1) on every deal, so its mean is fixed by
    the knock-out rate and its square is always 4."""
    rules = BETS
    found = situation(rules, 5, 1, "9s", earlier="k", bets="2 2 0 -2")
    sums = shared.simulate_advice(SPEC, rules, policy(5, **BETTORS), 5, found, 2, 0, 3000)
    accepted = sums[ACCEPTED]
    assert accepted > 0
    for c in range(2):
        ko, net, net_sq = sums[FIRST_SUM + 6 * c + 2], sums[FIRST_SUM + 6 * c + 4], sums[FIRST_SUM + 6 * c + 5]
        assert net == 2 * (2 * ko - accepted) and net_sq == 4 * accepted


def test_impossible_history_accepts_nothing():
    """Under the default policy (swap on 7 or lower) nobody passes a king on."""
    found = situation(Rules(), 6, 2, "Kh", earlier="ss", gave="3c")
    sums = shared.simulate_advice(SPEC, Rules(), policy(6), 6, found, 1, 0, 500)
    assert sums[TRIED] == 500 and sums[ACCEPTED] == 0
    assert sums == twin_advice(SPEC, Rules(), policy(6), 6, found, 1, 0, 500)


# ---------------------------------------------------------------------------------------
# Refusals


@pytest.mark.parametrize(
    "rules, n, position, holding, context, message",
    [
        (Rules(), 6, 5, "5h", {}, "the matador (seat 5) makes no decision"),
        (Rules(), 6, 1, "5h 6h", {}, "holds one card, not 2"),
        (Rules(), 6, 1, "5h", {"turn_up": "Ac"}, "unknown context 'turn_up'"),
        (Rules(), 6, 2, "5h", {"earlier": "k"}, "one action for each of the 2 seats before seat 2"),
        (Rules(), 6, 2, "5h", {"earlier": "keep maybe"}, "takes s, k, ? or a refusing king for each seat, not 'maybe'"),
        (KING_BLOCK, 6, 2, "5h", {"earlier": "k Qh"}, "only a king refuses a swap"),
        (Rules(), 6, 2, "5h", {"earlier": "k Kh"}, "king_block is off"),
        (KING_BLOCK, 6, 2, "5h", {"earlier": "k Kh"}, "contradicts itself or the holding"),
        (KING_BLOCK, 6, 3, "5h", {"earlier": "k Kh Kh"}, "contradicts itself or the holding"),
        (Rules(), 6, 2, "5h", {"gave": "Zz"}, "context gave"),
        (Rules(), 6, 2, "5h", {"gave": "9c 8c"}, "takes 1 card"),
        (Rules(), 6, 2, "5h", {"gave": "5h"}, "context gave names the card you hold"),
        (Rules(), 6, 0, "5h", {"gave": "9c"}, "seat 0 has no right-hand neighbour"),
        (Rules(), 6, 2, "5h", {"earlier": "sk", "gave": "9c"}, "earlier says it did not"),
        (Rules(), 6, 2, "5h", {"earlier": "ks"}, "give the card you gave as gave=CARD"),
        (KING_BLOCK, 6, 2, "5h", {"gave": "Kc"}, "a king is never given away"),
        (Rules(), 6, 2, "5h", {"bets": "0 0 0 0 0"}, "needs betting on"),
        (BETS, 6, 2, "5h", {"bets": "0 0 0"}, "one bet for each of the 5 non-matadors"),
        (BETS, 6, 2, "5h", {"bets": "0 0 x 0 0"}, "takes whole numbers, not 'x'"),
        (BETS, 6, 2, "5h", {"bets": "0 0 1001 0 0"}, "at most 1000 units"),
        (Rules(betting=1), 6, 2, "5h", {"bets": "0 -1 0 0 0"}, "needs bet_direction bettor-chooses"),
    ],
)
def test_refusals(rules, n, position, holding, context, message):
    with pytest.raises(ValueError) as problem:
        situation(rules, n, position, holding, **context)
    text = str(problem.value)
    assert message in text and text.endswith(".")


def test_refuses_a_code_outside_the_pack():
    with pytest.raises(ValueError, match="not a card of the 52-card pack"):
        advice.situation(Rules(), 6, 1, (52,), {})


# ---------------------------------------------------------------------------------------
# The examples


def parse_example(line):
    words = shlex.split(line)
    assert words[:3] == ["analyze", "advise", "ace-chasing"]
    options = {"--context": []}
    for flag, value in zip(words[3::2], words[4::2]):
        if flag == "--context":
            options[flag].append(value)
        else:
            options[flag] = value
    context = dict(item.split("=", 1) for item in options["--context"])
    return int(options["--players"]), int(options["--position"]), options["--holding"], context


@pytest.mark.parametrize("decision", advice.DECISIONS, ids=lambda d: d.name)
def test_examples_parse_and_play(decision):
    n, position, holding, context = parse_example(decision.example)
    assert set(context) <= set(decision.context)
    found = situation(Rules(), n, position, holding, **context)
    assert found.decision == decision.name
    sums = shared.simulate_advice(SPEC, Rules(), policy(n), n, found, 1, 0, 2000)
    assert sums[ACCEPTED] > 300  # quick: many deals are kept


# ---------------------------------------------------------------------------------------
# Issue 36: the history as seen, the whole game (win_game), the terms, what was assumed


def situation_as(rules, n, position, holding, infer, **context):
    return situations.situation(SPEC, rules, n, position, parse_cards(holding), context, infer)


def mean_of(sums, found, candidate, outcome):
    o_count = len(found.outcomes)
    return sums[FIRST_SUM + 2 * (candidate * o_count + found.outcomes.index(outcome))] / sums[ACCEPTED]


@pytest.mark.parametrize("text", ["", " "])
def test_an_empty_earlier_is_a_sentence_or_nothing_never_a_traceback(text):
    assert situation(Rules(), 6, 0, "4c", earlier=text).candidates == ("swap", "keep")
    assert situation_as(Rules(), 6, 0, "4c", "seen", earlier=text).infer == "seen"
    with pytest.raises(ValueError, match="one action for each of the 4 seats before seat 4"):
        situation(Rules(), 6, 4, "4c", earlier=text)


SEEN_CASES = {
    # name: (rules, n, position, holding, context, policy fields)
    "kskk": (Rules(), 6, 4, "4c", {"earlier": "kskk"}, {}),
    "history-game": (Rules(), 6, 2, "5h", {"earlier": "ks", "gave": "9c", "game": "yes"}, {}),
    "right-kept": (Rules(), 7, 3, "Jd", {"game": "yes"}, {"threshold": 9}),
    "king-block": (KING_BLOCK, 6, 3, "4c", {"earlier": "s Kd k", "game": "yes"}, {"threshold": 9}),
    "bets-seen": (BETS, 5, 1, "9s", {"earlier": "keep", "bets": "2 2 0 -2", "game": "yes"}, BETTORS),
    "left-rotation": (Rules(next_matador=1), 5, 2, "2h", {"earlier": "?s", "gave": "Qc", "game": "yes"}, {}),
}


@pytest.mark.parametrize("infer", ["seen", "policy"])
@pytest.mark.parametrize("name", sorted(SEEN_CASES))
def test_kernel_equals_twin_under_seen_and_with_the_game(name, infer):
    rules, n, position, holding, context, fields = SEEN_CASES[name]
    found = situation_as(rules, n, position, holding, infer, **context)
    matrix = policy(n, **fields)
    kernel = shared.simulate_advice(SPEC, rules, matrix, n, found, 13, 7, 900)
    twin = twin_advice(SPEC, rules, matrix, n, found, 13, 7, 900)
    assert kernel == twin
    assert kernel[TRIED] == 900
    if infer == "seen":
        assert kernel[ACCEPTED] > 0


def test_a_keep_the_policy_would_not_make_is_answered_under_seen():
    # issue 36: seat 2 kept the low card seat 1 passed it; the default policy passes it on
    by_policy = situation_as(Rules(), 6, 4, "4c", "policy", earlier="kskk")
    as_seen = situation_as(Rules(), 6, 4, "4c", "seen", earlier="kskk")
    refused = shared.simulate_advice(SPEC, Rules(), policy(6), 6, by_policy, 1, 0, 20_000)
    answered = shared.simulate_advice(SPEC, Rules(), policy(6), 6, as_seen, 1, 0, 20_000)
    assert refused[ACCEPTED] == 0
    # nothing visible can differ: every seat's action is forced, the 4c is seat 4's own card
    assert answered[ACCEPTED] == answered[TRIED] == 20_000
    # the matador's right holding a 4 is exposed by almost any matador's card if it keeps;
    # swapping hands the 4c to the matador, who then exposes only the aces and the 2s and 3s
    difference, se = paired(answered, as_seen, "swap", "keep")
    assert difference < -10 * se


def test_the_game_outcome_and_its_ranking():
    found = situation(Rules(), 6, 2, "5h", game="yes")
    assert found.outcomes == ("exposed", "knocked_out", "win_game") and found.rank_by == 2
    assert found.largest == 1 and found.smaller == ("exposed",)
    bets = situation(BETS, 5, 1, "9s", game="yes")
    assert bets.outcomes[-1] == "win_game" and bets.rank_by == 3 and bets.largest == 1000
    assert situation(Rules(), 6, 2, "5h", game="no").outcomes == ("exposed", "knocked_out")
    with pytest.raises(ValueError, match="context game takes yes or no"):
        situation(Rules(), 6, 2, "5h", game="maybe")


def test_an_exposed_seat_never_wins_and_the_table_shares_the_wins():
    # exposed means out: per deal win_game <= 1 - exposed; a seat's win chance over the
    # whole game, against five others under the same policy, is near 1/6
    found = situation(Rules(), 6, 2, "5h", game="yes")
    sums = shared.simulate_advice(SPEC, Rules(), policy(6), 6, found, 5, 0, 6_000)
    for candidate in (0, 1):
        assert mean_of(sums, found, candidate, "win_game") <= 1 - mean_of(sums, found, candidate, "exposed")
    # a seat that keeps the ace of spades at seat 0 is exposed unless the matador ends with
    # another ace (the default policy passes aces on towards it): its win chance is far below
    # a fair share
    ace = situation(Rules(), 6, 0, "As", game="yes")
    ace_sums = shared.simulate_advice(SPEC, Rules(), policy(6), 6, ace, 5, 0, 6_000)
    assert mean_of(ace_sums, ace, 1, "win_game") < 1 / 6 / 2
    assert 0.8 < mean_of(ace_sums, ace, 1, "exposed") < 0.95


def test_terms_absent_and_assumed():
    terms = SPEC.terms()
    for name in ("exposed", "knocked_out", "bet_net", "win_game", "threshold", "ace_swap", "infer", "matador"):
        assert terms[name].endswith(".") and len(terms[name]) > 20
    for decision in advice.DECISIONS:
        assert set(decision.absent) == set(decision.context) == {"gave", "earlier", "bets", "game"}
    plain = situation(Rules(), 6, 2, "5h")
    assert set(plain.assumed) == {"gave", "earlier", "game"}  # no bets at this table
    assert plain.assumed["gave"].startswith("nobody swapped with you")
    assert set(situation(Rules(), 6, 0, "5h").assumed) == {"game"}
    assert set(situation(BETS, 6, 2, "5h").assumed) == {"gave", "earlier", "bets", "game"}
    assert situation(Rules(), 6, 2, "5h", earlier="ks", gave="9c", game="yes").assumed == {}
