"""Ace Chasing's game length in rounds (game mode's ``length_<label>`` columns, drawn as a
histogram): each game in the bucket of its rounds, under the default and a king-block,
pass-left table (one bucket per game, adding up, equal to the twin's at the default
table: tests/games/test_conformance_distributions.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sims.engine import simulate
from sims.games import ace_chasing as ac
from sims.games.ace_chasing import twin
from sims.registry import GAMES
from sims.spec import Mode

SPEC = GAMES["ace-chasing"]
TABLE = list(ac.GAME_OUTCOMES.table)
LENGTH = [TABLE.index(f"length_{label}") for label in ac.LENGTH_LABELS]


def test_the_buckets():
    assert ac.LENGTH_LABELS == ("1-2", "3", "4", "5", "6", "7", "8-10", "11+")
    assert ac.GAME_OUTCOMES.groups["length"] == ("game length in rounds", ac.LENGTH_LABELS)
    assert LENGTH == list(range(TABLE.index("rounds_sq") + 1, len(TABLE)))


@pytest.mark.parametrize(
    "rules, n, count",
    [(ac.Rules(), 8, 2000), (ac.Rules(next_matador=ac.NEXT_LEFT, king_block=True), 20, 400), (ac.Rules(), 4, 1000)],
    ids=["default-8", "left-king-block-20", "default-4"],
)
def test_buckets_sum_to_the_games_and_agree_with_the_twin(rules, n, count):
    policy = SPEC.default_policy(n, "default")
    kernel = simulate(SPEC, rules, policy, n, Mode.GAMES, 5, 0, count, threads=1)
    slow = twin.simulate(rules, policy, n, Mode.GAMES, 5, 0, count)
    buckets = kernel[n, LENGTH]
    assert np.array_equal(buckets, slow[n, LENGTH])
    rounds = [twin.play_game(rules, policy, n, 5, i)[1][0] for i in range(count)]
    expected = [sum(low <= r <= high for r in rounds) for low, high in _ranges()]
    assert buckets.tolist() == expected
    assert kernel[n, TABLE.index("rounds")] == sum(rounds)
    assert (kernel[:n, len(ac.GAME_OUTCOMES.seat) :] == 0).all()  # seat rows have no length columns


def _ranges():
    lows = ac.LENGTH_BUCKET_LOW
    return [(low, (lows[i + 1] - 1) if i + 1 < len(lows) else 10**9) for i, low in enumerate(lows)]
