"""Advice conformance over every game (sims/games/<game>/advice.py): each declares its
decisions with a working example, the kernel equals the twin on the same streams at every
example, and the sums obey the layout of sims.core.advice whatever the threads."""

from __future__ import annotations

import numpy as np
import pytest

from sims import advice, situations
from sims.core.advice import ACCEPTED, FIRST_SUM, TRIED, Decision, cross_start
from sims.registry import GAMES
from sims.spec import Mode
from tests.games.advice_twin import twin_advice

SPECS = list(GAMES.values())


def example_situation(spec, example: str):
    """The table and situation of a decision's example command line."""
    return situations.example_situation(spec, example)


EXAMPLES = [
    pytest.param(spec, decision, id=f"{spec.name}-{decision.name}") for spec in SPECS for decision in spec.decisions()
]


@pytest.mark.parametrize("spec", SPECS, ids=[spec.name for spec in SPECS])
def test_every_game_declares_its_decisions(spec):
    found = spec.decisions()
    assert found, f"{spec.name} has no advice"
    names = [decision.name for decision in found]
    assert len(set(names)) == len(names)
    for decision in found:
        assert isinstance(decision, Decision) and decision.help and decision.example
        assert decision.example.startswith(f"analyze advise {spec.name} ")
        assert all(key == key.lower() and " " not in key and text for key, text in decision.context.items())


@pytest.mark.parametrize("spec, decision", EXAMPLES)
def test_example_kernel_equals_twin_and_the_sums_are_consistent(spec, decision):
    rules, players, found = example_situation(spec, decision.example)
    assert found.decision == decision.name
    assert len(found.scale) == len(found.outcomes) >= 1 and len(found.candidates) >= 2
    assert len(set(found.candidates)) == len(found.candidates)
    policy = spec.default_policy(players)
    kernel = advice.simulate_advice(spec, rules, policy, players, found, 9, 1000, 120)
    twin = twin_advice(spec, rules, policy, players, found, 9, 1000, 120)
    assert kernel == twin
    assert kernel[TRIED] == 120 and 0 < kernel[ACCEPTED] <= 120
    k_count, o_count = len(found.candidates), len(found.outcomes)
    cross = cross_start(k_count, o_count)
    for c in range(k_count):  # the cross product of a candidate with itself is its sum of squares
        assert kernel[cross + c * k_count + c] == kernel[FIRST_SUM + 2 * c * o_count + 1]
        for d in range(k_count):
            assert kernel[cross + c * k_count + d] == kernel[cross + d * k_count + c]
    assert advice.simulate_advice(spec, rules, policy, players, found, 0, 0, 0) == [0] * found.width


@pytest.mark.parametrize("spec, decision", EXAMPLES)
def test_example_sums_are_the_same_for_any_threads_and_blocks(spec, decision):
    rules, players, found = example_situation(spec, decision.example)
    policy = spec.default_policy(players)
    one = advice.simulate_advice(spec, rules, policy, players, found, 21, 0, 1500, threads=1)
    two = advice.simulate_advice(spec, rules, policy, players, found, 21, 0, 1500, threads=2)
    split = [
        a + b
        for a, b in zip(
            advice.simulate_advice(spec, rules, policy, players, found, 21, 0, 700),
            advice.simulate_advice(spec, rules, policy, players, found, 21, 700, 800),
        )
    ]
    assert one == two == split
    rules_ext = advice.advice_rules(spec, rules, found)
    assert advice.spec_for_rules(spec, rules_ext, players).outcomes[Mode.ADVICE].width * (players + 1) >= found.width
    assert np.asarray(found.known).dtype == np.int64
