"""Chase the Ace game mode's length distribution (length_<label>, rules.LENGTH_BUCKETS):
each game in the bucket of its rounds, under rules whose games run short and long (one
bucket per game, adding up, equal to the twin's at the default table:
tests/games/test_conformance_distributions.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sims.engine import simulate
from sims.games.chase_ace import GAME_OUTCOMES, LENGTH_BUCKETS, LENGTH_LABELS, Rules, twin
from sims.registry import GAMES as REGISTRY
from sims.spec import Mode

SPEC = REGISTRY["chase-ace"]
LENGTH = [GAME_OUTCOMES.table.index(f"length_{label}") for label in LENGTH_LABELS]
ROUNDS = GAME_OUTCOMES.table.index("rounds")


def default_policy(n):
    return np.tile([7.0, 0.0, 1.0], (n, 1))


def test_length_is_a_distribution_of_game_mode():
    assert GAME_OUTCOMES.groups["length"] == ("game length in rounds", LENGTH_LABELS)
    assert LENGTH_LABELS == ("1_16", "17", "18", "19", "20", "21", "22", "23_up")
    assert LENGTH_BUCKETS[0][0] == 1
    for (_, hi), (lo, _) in zip(LENGTH_BUCKETS, LENGTH_BUCKETS[1:]):
        assert lo == hi + 1  # the buckets cover every round count once


# (players, rules, games): the default table, and tables whose games fall short and long
TABLES = [
    (8, Rules(), 1000),
    (4, Rules(lives=4), 300),
    (12, Rules(lives=2, final_tie=1), 300),
]


@pytest.mark.parametrize("n,rules,count", TABLES, ids=["default-8", "short-4", "long-12-replay"])
def test_every_game_in_one_bucket_and_kernel_equals_twin(n, rules, count):
    policy = default_policy(n)
    sums = simulate(SPEC, rules, policy, n, Mode.GAMES, 31, 0, count, threads=1)
    lengths = sums[n, LENGTH]
    twin_sums = twin.simulate(rules, policy, n, Mode.GAMES, 31, 0, count)
    assert np.array_equal(lengths, twin_sums[n, LENGTH])
    assert np.array_equal(sums, twin_sums)
    if n == 8:
        assert (lengths > 0).sum() == len(LENGTH_LABELS)  # the default table's games spread over every bucket
        assert lengths.max() < 0.3 * count


def test_each_game_counts_in_the_bucket_of_its_rounds():
    n, rules = 8, Rules()
    for game in range(60):
        row = simulate(SPEC, rules, default_policy(n), n, Mode.GAMES, 5, game, 1, threads=1)[n]
        rounds = int(row[ROUNDS])
        expected = [int(lo <= rounds <= hi) for lo, hi in LENGTH_BUCKETS]
        assert row[LENGTH].tolist() == expected, rounds
