"""The C references (``sims/reference``) play exactly the hand kernels' hands.

Compiles ``chase_ace.c`` and ``ace_chasing.c`` and checks that their integer sums equal the
Numba hand kernels' for a few tables, seeds and hand ranges (default rules and policy, plus
a few other rule and policy values the C programs also implement).  Skipped without gcc.
Times nothing: ``analyze bench --c-reference`` does the timing.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from sims import reference

pytestmark = [pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed"), pytest.mark.slow]

COUNT = 20_000
SEEDS = (1, 7, 2**63 + 12345)
FIRSTS = (0, 987_654_321)


@pytest.fixture(scope="module")
def executables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("c_reference")
    return {game: reference.compile_c(game, folder) for game in reference.GAMES}


def _check(executables, game, players, seed, first, rules=None, policy_row=None):
    policy = None
    if policy_row is not None:
        policy = np.tile(np.asarray(policy_row, dtype=np.float64), (players, 1))
    expected = reference.run_kernel(game, players, seed, first, COUNT, rules=rules, policy=policy)
    got, _ = reference.run_c(executables[game], players, seed, first, COUNT, rules=rules, policy_row=policy_row)
    assert np.array_equal(got, expected), reference.first_difference(expected, got)


@pytest.mark.parametrize("first", FIRSTS)
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("players", (2, 5, 8))
def test_chase_ace_default(executables, players, seed, first):
    _check(executables, "chase-ace", players, seed, first)


@pytest.mark.parametrize("first", FIRSTS)
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("players", (4, 5, 8))
def test_ace_chasing_default(executables, players, seed, first):
    _check(executables, "ace-chasing", players, seed, first)


# Rules arrays in field order: lives, tie, kings, king_reveal, dealer_king_block, queens,
# jacks, final_tie, ace_high.  Policy rows: threshold, threshold_mix, informed.
CHASE_ACE_OTHER = [
    (6, (3, 1, 4, 0, 1, 1, 2, 0, 1), (6, 0.5, 1)),  # cancel-matches, skip-to-next, queens, jacks skip, ace high
    (8, (3, 2, 3, 1, 0, 0, 1, 0, 0), (8, 0.25, 0)),  # earliest, stop-all, at-deal, no dealer block, jacks
    (5, (3, 3, 2, 0, 1, 1, 0, 0, 0), (7, 1.0, 1)),  # latest, freeze-if-dealt, queens
    (2, (3, 4, 1, 0, 1, 0, 0, 0, 0), (7, 0.0, 1)),  # ties-to-dealer (two players), kings none
]


@pytest.mark.parametrize("players, rules, policy_row", CHASE_ACE_OTHER)
def test_chase_ace_other_rules(executables, players, rules, policy_row):
    _check(executables, "chase-ace", players, 3, 55, rules=rules, policy_row=policy_row)


# Rules: next_matador, king_block, betting, bet_direction.  Policy rows: threshold,
# matador_right_threshold, ace_swap, bet_min_rank, bet_size, bet_cap, back_max_rank.
ACE_CHASING_OTHER = [
    (6, (0, 1, 1, 1), (6, 8, 0, 9, 3, 2, 4)),
    (9, (1, 0, 1, 0), (7, 5, 1, 8, 1, 1000, 0)),
]


@pytest.mark.parametrize("players, rules, policy_row", ACE_CHASING_OTHER)
def test_ace_chasing_other_rules(executables, players, rules, policy_row):
    _check(executables, "ace-chasing", players, 3, 55, rules=rules, policy_row=policy_row)
