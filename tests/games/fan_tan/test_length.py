"""Fan Tan's game-length distribution (game mode): the turns per deal fall inside the
buckets' range at 3, 4 and 8 players, the default table's rotations spread over five
buckets, and the twin fills the same buckets under other policies (one bucket per
rotation, adding up, equal to the twin's at the default table:
tests/games/test_conformance_distributions.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sims.engine import simulate
from sims.games.fan_tan import twin
from sims.games.fan_tan.rules import GAME_OUTCOMES, LENGTH_BUCKET_LOW, LENGTH_LABELS, Rules
from sims.registry import get_game
from sims.spec import Mode

SPEC = get_game("fan-tan")
TABLE = {name: i for i, name in enumerate(GAME_OUTCOMES.table)}
BUCKETS = [TABLE[f"length_{label}"] for label in LENGTH_LABELS]


def test_the_length_group_is_a_distribution():
    assert GAME_OUTCOMES.groups["length"][1] == LENGTH_LABELS
    assert len(LENGTH_LABELS) == len(LENGTH_BUCKET_LOW) and 6 <= len(LENGTH_LABELS) <= 8
    assert list(LENGTH_BUCKET_LOW) == sorted(set(LENGTH_BUCKET_LOW)) and LENGTH_BUCKET_LOW[0] == 0


@pytest.mark.parametrize("n", [3, 4, 8])
def test_buckets_sum_to_the_games_played(n):
    count = 2000
    sums = simulate(SPEC, Rules(), SPEC.default_policy(n), n, Mode.GAMES, 11, 0, count, threads=1)
    table = sums[n]
    mean = table[TABLE["turns"]] / count / n  # turns per deal
    assert LENGTH_BUCKET_LOW[1] - 3 < mean < LENGTH_BUCKET_LOW[-1]
    if n == 4:  # the default table: no bucket holds most rotations, five hold 2% or more
        shares = [table[b] / count for b in BUCKETS]
        assert max(shares) < 0.4 and sum(share >= 0.02 for share in shares) >= 5


@pytest.mark.parametrize("n, policy", [(4, "default"), (5, "random"), (8, "block")])
def test_each_bucket_agrees_with_the_twin(n, policy):
    count = 300
    matrix = SPEC.default_policy(n, policy)
    kernel = simulate(SPEC, Rules(), matrix, n, Mode.GAMES, 23, 100, count, threads=1)
    plain = twin.simulate(Rules(), matrix, n, Mode.GAMES, 23, 100, count)
    assert [kernel[n, b] for b in BUCKETS] == [plain[n, b] for b in BUCKETS]
    assert np.array_equal(kernel, plain)
