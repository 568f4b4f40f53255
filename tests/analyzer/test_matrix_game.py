"""Tests of analyzer.strategy.matrix_game.solve_zero_sum (two-player zero-sum matrix games).

Every solution is checked against the optimality conditions of a matrix game (helper
``check_optimal``): for the returned mixes x, y and value v,
min_j (x^T A)_j == v == max_i (A y)_i, exactly for Fraction input, to 1e-9 for floats.
The named games also pin the known mixes and value.  The key test is Le Her (1713),
built from the exact Chase the Ace enumerator and compared with the published
equilibrium (Bellhouse & Fillion 2015).
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction as F

import numpy as np
import pytest

from analyzer.strategy.matrix_game import MatrixSolution, solve_zero_sum

TOL = 1e-9


def check_optimal(payoff, sol: MatrixSolution, exact: bool | None = None) -> None:
    """Assert that sol is an optimal solution of the game with row-player payoff ``payoff``.

    exact=True demands Fractions and exact equalities; exact=False compares to TOL; None
    picks exact when every entry is an int or a Fraction.
    """
    a = [list(row) for row in (payoff.tolist() if isinstance(payoff, np.ndarray) else payoff)]
    m, n = len(a), len(a[0])
    if exact is None:
        exact = all(isinstance(v, (int, F)) for row in a for v in row)
    x, y, v = sol.row_mix, sol.column_mix, sol.value
    assert isinstance(x, tuple) and isinstance(y, tuple)
    assert len(x) == m and len(y) == n
    if exact:
        assert all(type(p) is F for p in x + y) and type(v) is F
        assert all(p >= 0 for p in x + y)
        assert sum(x) == 1 and sum(y) == 1
        guaranteed = min(sum(x[i] * a[i][j] for i in range(m)) for j in range(n))
        conceded = max(sum(a[i][j] * y[j] for j in range(n)) for i in range(m))
        assert guaranteed == v == conceded
    else:
        assert all(isinstance(p, float) for p in x + y) and isinstance(v, float)
        assert all(p >= -TOL for p in x + y)
        assert math.isclose(sum(x), 1, abs_tol=TOL) and math.isclose(sum(y), 1, abs_tol=TOL)
        guaranteed = min(sum(x[i] * a[i][j] for i in range(m)) for j in range(n))
        conceded = max(sum(a[i][j] * y[j] for j in range(n)) for i in range(m))
        assert guaranteed == pytest.approx(v, abs=TOL)
        assert conceded == pytest.approx(v, abs=TOL)


def fr(rows):
    """The matrix with every entry as a Fraction."""
    return [[F(v) for v in row] for row in rows]


def test_matching_pennies_exact():
    a = fr([[1, -1], [-1, 1]])
    sol = solve_zero_sum(a)
    check_optimal(a, sol, exact=True)
    assert sol.value == 0
    assert sol.row_mix == (F(1, 2), F(1, 2))
    assert sol.column_mix == (F(1, 2), F(1, 2))


def test_rock_paper_scissors_exact():
    a = fr([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    sol = solve_zero_sum(a)
    check_optimal(a, sol, exact=True)
    assert sol.value == 0
    assert sol.row_mix == (F(1, 3),) * 3
    assert sol.column_mix == (F(1, 3),) * 3


def test_saddle_point_gives_pure_strategies():
    # Row minima 1, -1, 2 (maximin 2 at row 3); column maxima 5, 2, 6 (minimax 2 at column 2).
    a = [[3, 1, 4], [2, 0, -1], [5, 2, 6]]
    sol = solve_zero_sum(a)
    check_optimal(a, sol, exact=True)  # int input is solved exactly too
    assert sol.value == 2
    assert sol.row_mix == (0, 0, 1)
    assert sol.column_mix == (0, 1, 0)


def test_strictly_dominated_row():
    # Row 3 is strictly dominated by row 1; on the remaining 2x2 block [[4, 0], [1, 3]]
    # the row player mixes (1/3, 2/3), the column player (1/2, 1/2), value 2; column 3
    # then costs the column player 3 > 2, so it is not played.
    a = fr([[4, 0, 3], [1, 3, 3], [0, -1, 2]])
    sol = solve_zero_sum(a)
    check_optimal(a, sol, exact=True)
    assert sol.value == 2
    assert sol.row_mix == (F(1, 3), F(2, 3), F(0))
    assert sol.column_mix == (F(1, 2), F(1, 2), F(0))


def test_rectangular_2x4_graphical_solution():
    # Graphical method, row mix (p, 1 - p): the columns pay 4 - 2p, 1 + 2p, 6 - 5p, 5p.
    # The lower envelope peaks where 1 + 2p = 6 - 5p: p = 5/7, value 17/7.  The column
    # player mixes columns 2 and 3 with q*3 + (1-q)*1 = q*1 + (1-q)*6: q = 5/7.
    a = [[2, 3, 1, 5], [4, 1, 6, 0]]
    sol = solve_zero_sum(fr(a))
    check_optimal(a, sol, exact=True)
    assert sol.value == F(17, 7)
    assert sol.row_mix == (F(5, 7), F(2, 7))
    assert sol.column_mix == (F(0), F(5, 7), F(2, 7), F(0))
    # The transposed game (4x2, players swapped, signs flipped) has the mirrored solution.
    t = [[-a[i][j] for i in range(2)] for j in range(4)]
    sol_t = solve_zero_sum(t)
    check_optimal(t, sol_t, exact=True)
    assert sol_t.value == F(-17, 7)
    assert sol_t.row_mix == sol.column_mix and sol_t.column_mix == sol.row_mix


def test_float_input_gives_floats():
    a = [[1.0, -1.0], [-1.0, 1.0]]
    sol = solve_zero_sum(np.array(a))
    check_optimal(a, sol, exact=False)
    assert sol.row_mix == pytest.approx((0.5, 0.5), abs=TOL)
    assert sol.column_mix == pytest.approx((0.5, 0.5), abs=TOL)
    assert sol.value == pytest.approx(0.0, abs=TOL)
    with pytest.raises(dataclasses.FrozenInstanceError):
        sol.value = 1.0  # type: ignore[misc]


@pytest.mark.parametrize(
    "a",
    [
        [[5, 5], [5, 5]],  # all equal
        [[F(7, 3)]],  # 1x1
        [[0, 1, 1], [1, 0, 1], [1, 1, 0], [0, 1, 1]],  # duplicate rows
        [[1, 1, 0, 2], [0, 0, 1, 2], [1, 1, 0, 2]],  # duplicate rows and columns
        [[0, 0, 0], [0, 0, 0], [1, 0, -1]],  # many ties, degenerate pivots
        [[3, 3, 3], [3, 3, 3], [3, 3, 3]],
    ],
)
def test_degenerate_games_terminate(a):
    sol = solve_zero_sum(a)
    check_optimal(a, sol, exact=True)
    sol_f = solve_zero_sum([[float(v) for v in row] for row in a])
    check_optimal(a, sol_f, exact=False)
    assert sol_f.value == pytest.approx(float(sol.value), abs=TOL)


def test_all_equal_value():
    assert solve_zero_sum([[5, 5], [5, 5]]).value == 5
    assert solve_zero_sum([[2.5, 2.5, 2.5]]).value == pytest.approx(2.5, abs=TOL)


def test_random_float_matrices():
    rng = np.random.default_rng(20240611)
    for _ in range(50):
        m, n = rng.integers(1, 9, size=2)
        a = rng.normal(scale=rng.choice([0.01, 1.0, 100.0]), size=(m, n))
        check_optimal(a, solve_zero_sum(a), exact=False)


def test_random_integer_matrices_exact():
    rng = np.random.default_rng(7)
    for k in range(12):
        m, n = rng.integers(1, 7, size=2)
        hi = 2 if k % 2 else 9  # small ranges give many ties (degenerate pivots)
        a = rng.integers(-hi, hi + 1, size=(m, n)).tolist()
        sol = solve_zero_sum(a)
        check_optimal(a, sol, exact=True)
        sol_f = solve_zero_sum(np.array(a, dtype=float))
        check_optimal(a, sol_f, exact=False)
        assert sol_f.value == pytest.approx(float(sol.value), abs=TOL)


@pytest.mark.parametrize(
    "bad",
    [
        [],
        [[]],
        [[1, 2], [3]],
        [[1.0, float("nan")]],
        [[float("inf"), 0.0]],
        np.zeros((0, 3)),
        np.array([1.0, 2.0]),
        [["a", 1]],
        5,
    ],
)
def test_invalid_matrices_raise(bad):
    with pytest.raises(ValueError):
        solve_zero_sum(bad)


# ---------------------------------------------------------------------------- Le Her


@pytest.fixture(scope="module")
def le_her_matrix():
    """P(Paul, the non-dealer, wins) for pure thresholds i (Paul) x j (Pierre), 0..13."""
    from sims.games.chase_ace import SPEC
    from sims.games.chase_ace.exact import exact_hand

    rules = SPEC.rules_type(**{k: int(v) for k, v in SPEC.variants["le-her"].rules.items()})
    policy = SPEC.default_policy(2, "le-her")
    th = [f.key for f in SPEC.policy_fields].index("threshold")
    matrix = []
    for i in range(14):
        row = []
        for j in range(14):
            p = policy.copy()
            p[0, th], p[1, th] = i, j
            lose = exact_hand(rules, p, 2, exact=True)["lose_life"]
            assert all(type(v) is F for v in lose)
            assert lose[0] + lose[1] == 1  # ties go to the dealer: exactly one loses
            row.append(1 - lose[0])
        matrix.append(row)
    return matrix


def test_le_her_equilibrium_exact(le_her_matrix):
    sol = solve_zero_sum(le_her_matrix)
    check_optimal(le_her_matrix, sol, exact=True)
    assert sol.value == F(11327, 22100)
    # Paul swaps on 6 or lower, and on a 7 with probability 3/8.
    assert sol.row_mix == tuple(F(5, 8) if i == 6 else F(3, 8) if i == 7 else F(0) for i in range(14))
    # Pierre draws on 7 or lower, and on an 8 with probability 5/8.
    assert sol.column_mix == tuple(F(3, 8) if j == 7 else F(5, 8) if j == 8 else F(0) for j in range(14))


def test_le_her_equilibrium_floats(le_her_matrix):
    a = [[float(v) for v in row] for row in le_her_matrix]
    sol = solve_zero_sum(a)
    check_optimal(a, sol, exact=False)
    assert sol.value == pytest.approx(11327 / 22100, abs=TOL)
    expected_rows = [0.0] * 14
    expected_rows[6], expected_rows[7] = 5 / 8, 3 / 8
    expected_cols = [0.0] * 14
    expected_cols[7], expected_cols[8] = 3 / 8, 5 / 8
    assert sol.row_mix == pytest.approx(expected_rows, abs=TOL)
    assert sol.column_mix == pytest.approx(expected_cols, abs=TOL)
