"""Spoil Five's game-length distribution (game mode's group "length"): the bucket of each
length in rounds of the deal, and the deals played bounding the buckets' lows at 5 and 8
players (one bucket per game, adding up, equal to the twin's at the default table:
tests/games/test_conformance_distributions.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sims.engine import simulate
from sims.games.spoil_five import twin
from sims.games.spoil_five.rules import GAME_OUTCOMES, LENGTH_BUCKET_LOW, LENGTH_LABELS, length_bucket
from sims.registry import GAMES
from sims.spec import Mode

SPEC = GAMES["spoil-five"]
TABLE = {name: i for i, name in enumerate(GAME_OUTCOMES.table)}
LENGTH = [TABLE[f"length_{label}"] for label in LENGTH_LABELS]


def test_layout():
    assert GAME_OUTCOMES.groups["length"][1] == LENGTH_LABELS
    assert LENGTH == list(range(LENGTH[0], LENGTH[0] + len(LENGTH_LABELS)))  # the kernel writes them in a run
    assert len(LENGTH_BUCKET_LOW) == len(LENGTH_LABELS) and LENGTH_BUCKET_LOW[0] == 1
    rounds = (1, 2, 3, 4, 5, 6, 7, 10, 11, 20, 21, 500)
    assert [length_bucket(r) for r in rounds] == [0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7]


@pytest.mark.parametrize("n, games", [(5, 1000), (8, 150)])
def test_buckets_count_every_game_and_match_the_twin(n, games):
    rules, pol = SPEC.default_rules(), SPEC.default_policy(n, "default")
    kernel = np.asarray(simulate(SPEC, rules, pol, n, Mode.GAMES, 71, 0, games))
    table = kernel[n]
    # each game is at least the first length of its bucket: deals / n summed bounds the buckets' lows
    assert table[TABLE["deals"]] >= n * sum(low * table[i] for low, i in zip(LENGTH_BUCKET_LOW, LENGTH))
    assert table[LENGTH[0]] > 0 and table[LENGTH[1]] > 0  # the buckets are spread
    mirror = np.asarray(twin.simulate(rules, pol, n, Mode.GAMES, 71, 0, games))
    assert (mirror[n][LENGTH] == table[LENGTH]).all()
    assert (mirror == kernel).all()
