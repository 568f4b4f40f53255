"""Chase the Ace advice (sims/games/chase_ace/advice.py): the kernel equals the twin on
the same streams, the first decision matches the exact enumeration, certain cases and
every refused situation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sims import advice
from sims.core.advice import ACCEPTED, FIRST_SUM, TRIED
from sims.core.cards import parse_cards
from sims.games.chase_ace.exact import exact_hand
from sims.games.chase_ace.rules import Rules
from sims.registry import get_game

SPEC = get_game("chase-ace")


def situation(rules, n, position, holding, **context):
    return advice.situation(SPEC, rules, n, position, parse_cards(holding), context)


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
    twin = advice.twin_advice(SPEC, rules, policy, n, found, 11, 100, 1500)
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
        advice.situation(SPEC, Rules(), n, position, parse_cards(holding), context)


def test_ace_high_makes_the_ace_the_top_card():
    with pytest.raises(ValueError, match="must keep"):
        situation(Rules(ace_high=True), 8, 3, "Ah")
    assert np.array_equal(situation(Rules(ace_high=True), 8, 3, "Kh").candidates, ("swap", "keep"))
