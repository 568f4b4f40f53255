"""All-Fours game mode's distribution of game length in deals (the group "length"): each
game in the bucket of its deals, to 11, 7 and 15 points, and where the standard game's
lengths fall (one bucket per game, adding up, equal to the twin's at the default table:
tests/games/test_conformance_distributions.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sims.engine import simulate
from sims.games import all_fours as af
from sims.games.all_fours import twin
from sims.games.all_fours.rules import LENGTH_BUCKET_LOW, LENGTH_LABELS
from sims.registry import GAMES
from sims.spec import Mode

SPEC = GAMES["all-fours"]
TABLE = {name: i for i, name in enumerate(af.GAME_OUTCOMES.table)}
LENGTH = [TABLE[f"length_{label}"] for label in LENGTH_LABELS]


def test_the_length_group_is_drawn_as_a_distribution():
    assert af.GAME_OUTCOMES.groups["length"] == ("game length in deals", LENGTH_LABELS)
    assert len(LENGTH_LABELS) == len(LENGTH_BUCKET_LOW) and list(LENGTH_BUCKET_LOW) == sorted(set(LENGTH_BUCKET_LOW))


def bucket(deals: int) -> int:
    return max(i for i, low in enumerate(LENGTH_BUCKET_LOW) if deals >= low)


@pytest.mark.parametrize(
    "rules",
    [af.Rules(), af.Rules(target=7), af.Rules(target=15, gift_then=af.GIFT_THEN_REDEAL)],
    ids=["standard", "seven-up", "to-15-redeal"],
)
def test_one_bucket_per_game_and_the_kernel_equals_the_twin(rules):
    n = 1_000
    policy = SPEC.default_policy(2, "default")
    sums = simulate(SPEC, rules, policy, 2, Mode.GAMES, 17, 0, n, threads=1)
    lengths = sums[2, LENGTH]
    games = [twin.play_game(rules, policy, 2, 17, i) for i in range(n)]
    expected = np.zeros(len(LENGTH_LABELS), dtype=np.int64)
    for _, row in games:
        flags = [row[i] for i in LENGTH]
        assert sum(flags) == 1 and flags[bucket(row[TABLE["deals"]])] == 1
        expected += flags
    assert np.array_equal(lengths, expected)
    assert sums[2, TABLE["deals"]] == sum(row[TABLE["deals"]] for _, row in games)


def test_the_standard_game_spreads_over_the_middle_buckets():
    n = 2_000
    sums = simulate(SPEC, af.Rules(), SPEC.default_policy(2, "default"), 2, Mode.GAMES, 3, 0, n, threads=1)
    share = dict(zip(LENGTH_LABELS, sums[2, LENGTH] / n))
    assert share["1_2"] == 0  # 11 points in two deals needs two turned jacks and every point: never seen
    assert all(share[label] > 0.02 for label in ("4", "5", "6", "7"))
    assert share["4"] + share["5"] + share["6"] > 0.8
