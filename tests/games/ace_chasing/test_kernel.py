"""The Ace Chasing kernel against its exact enumerator, its plain-Python twin and the
bet-conservation rule."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sims.engine import simulate
from sims.games import ace_chasing as ac
from sims.games.ace_chasing import twin
from sims.games.ace_chasing.exact import exact_hand
from sims.registry import GAMES
from sims.spec import Mode

SPEC = GAMES["ace-chasing"]
NEVER_SWAP = {"threshold": 0, "matador_right_threshold": 0, "ace_swap": 0}


def policy(n, preset="default", **fields):
    matrix = SPEC.default_policy(n, preset)
    for key, value in fields.items():
        matrix[:, [f.key for f in SPEC.policy_fields].index(key)] = value
    return matrix


def random_table(rng, n):
    rules = ac.Rules(
        next_matador=int(rng.integers(0, 2)),
        king_block=bool(rng.integers(0, 2)),
        betting=int(rng.integers(0, 2)),
        bet_direction=int(rng.integers(0, 2)),
    )
    matrix = np.column_stack(
        [
            rng.integers(0, 14, n),
            rng.integers(0, 14, n),
            rng.integers(0, 2, n),
            rng.integers(1, 15, n),
            rng.integers(0, 6, n),
            rng.integers(0, 6, n),
            rng.integers(0, 14, n),
        ]
    ).astype(float)
    return rules, matrix


@pytest.mark.parametrize("mode,count", [(Mode.HANDS, 300), (Mode.GAMES, 30)], ids=["hands", "games"])
def test_kernel_matches_plain_python_twin_exactly(mode, count):
    rng = np.random.default_rng(77 + mode)
    for trial in range(30):
        n = int(rng.integers(4, 13))
        rules, matrix = random_table(rng, n)
        assert np.array_equal(
            simulate(SPEC, rules, matrix, n, mode, trial, 11, count, threads=2),
            twin.simulate(rules, matrix, n, mode, trial, 11, count),
        ), (rules, matrix.tolist())


EXACT_CASES = [
    ("4 players no swaps", ac.Rules(), 4, policy(4, "never-swap")),
    ("5 players swapping", ac.Rules(), 5, policy(5)),
    ("6 players no swaps", ac.Rules(), 6, policy(6, "never-swap")),
    ("6 players swapping, king block", ac.Rules(king_block=True), 6, policy(6, threshold=5, matador_right_threshold=9)),
    (
        "5 players with bets",
        ac.Rules(betting=1, bet_direction=ac.BET_BETTOR_CHOOSES),
        5,
        policy(5, bet_min_rank=9, bet_size=3, bet_cap=2, back_max_rank=3),
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("name,rules,n,matrix", EXACT_CASES, ids=[case[0] for case in EXACT_CASES])
def test_kernel_agrees_with_exact_enumerator(name, rules, n, matrix):
    hands = 300_000
    sums = simulate(SPEC, rules, matrix, n, Mode.HANDS, 21, 0, hands, threads=2)
    exact = exact_hand(rules, matrix, n)

    def close(total, expected, sd, count=hands):
        return abs(total / count - expected) < 4.5 * max(sd, 1e-9) / math.sqrt(count)

    p = float(exact["knocked_out"])
    assert close(sums[n, 0], p, math.sqrt(p * (1 - p)))
    for seat in range(n):
        for column, key in ((0, "exposed"), (1, "swap"), (2, "bet_placed")):
            q = float(exact[key][seat])
            assert close(sums[seat, column], q, math.sqrt(q * (1 - q))), (key, seat)
    sd_exposures = math.sqrt(float(exact["exposures_sq"]) - float(exact["exposures"]) ** 2)
    assert close(sums[n, 1], float(exact["exposures"]), sd_exposures)
    for face_index, face in enumerate(ac.FACE_LABELS):
        column = ac.UNIT_BET_FIRST + 3 * face_index
        count = sums[n, column + 2]
        mean = float(exact["unit_bet"][face])
        assert close(sums[n, column], mean, math.sqrt(max(1 - mean * mean, 0)), count), face


def test_bets_are_conserved_in_every_hand():
    """What the matador wins on bets is exactly what the bettors lose, hand by hand."""
    n = 7
    rules = ac.Rules(betting=1, bet_direction=ac.BET_BETTOR_CHOOSES)
    matrix = policy(n, bet_min_rank=8, bet_size=4, bet_cap=3, back_max_rank=4)
    placed = 0
    for hand in range(300):
        sums = simulate(SPEC, rules, matrix, n, Mode.HANDS, 3, hand, 1)
        assert sums[:n, 3].sum() == 0
        placed += sums[: n - 1, 2].sum()
    assert placed > 300  # bets were really made
    games = simulate(SPEC, rules, matrix, n, Mode.GAMES, 3, 0, 500, threads=2)
    assert games[:n, 3].sum() == 0


def test_game_mode_crowns_one_winner_and_shares_places():
    n, count = 9, 3000
    sums = simulate(SPEC, ac.Rules(), policy(n), n, Mode.GAMES, 4, 0, count, threads=2)
    assert sums[:n, 0].sum() == count
    assert sums[:n, 1].sum() == count * n * (n + 1)  # places in halves: 2 * (1 + ... + n)
    assert count <= sums[n, 0] <= count * (n - 1)  # every round eliminates someone


def test_rotation_direction_changes_who_wins():
    n, count = 6, 20000
    right = simulate(SPEC, ac.Rules(next_matador=ac.NEXT_RIGHT), policy(n), n, Mode.GAMES, 1, 0, count, threads=2)
    left = simulate(SPEC, ac.Rules(next_matador=ac.NEXT_LEFT), policy(n), n, Mode.GAMES, 1, 0, count, threads=2)
    # The first round is the same deal either way, so seat 5 (first matador) does not change
    # much; the seats the role travels to next do.
    assert not np.array_equal(right[:n, 0], left[:n, 0])
    assert abs(right[0, 0] - left[0, 0]) / count > 0.01 or abs(right[4, 0] - left[4, 0]) / count > 0.01
