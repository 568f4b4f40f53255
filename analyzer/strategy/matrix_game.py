"""Optimal mixed strategies and value of a two-player zero-sum matrix game.

What it computes
----------------
``solve_zero_sum(payoff)`` takes the row player's payoff matrix A (the row player
maximises, the column player minimises) and returns a ``MatrixSolution``: an optimal
mix x over the rows, an optimal mix y over the columns and the game value v, so that
min_j (x^T A)_j = v = max_i (A y)_i (von Neumann's minimax theorem).

How
---
The matrix is shifted and scaled to B = (A - min A) / (max A - min A) + 1, so every
entry lies in [1, 2] and the value of B is positive.  The column player's problem is then
the linear program

    maximise sum(u)  subject to  B u <= 1,  u >= 0,

solved with a dense tableau simplex started from the all-slack basis (feasible because
the right-hand side is 1).  Bland's rule (lowest-index entering column, lowest-index
leaving basic variable among tied ratios) prevents cycling on degenerate games.  At the
optimum y = u / sum(u), the value of B is 1 / sum(u), and the dual solution w (read off
the final tableau's objective row under the slack columns) gives x = w / sum(w); the
value of A is recovered by undoing the shift and scale.

Arithmetic: when every entry is an int or ``fractions.Fraction`` the whole computation
runs on Fractions (no floats anywhere) and the result holds Fractions; otherwise it
runs on Python floats with a small tolerance and the result holds floats.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["MatrixSolution", "solve_zero_sum"]

_FLOAT_TOL = 1e-12


@dataclass(frozen=True)
class MatrixSolution:
    """An optimal solution: row_mix and column_mix are probability tuples (each sums to 1)
    and value is the game value to the row player."""

    row_mix: tuple
    column_mix: tuple
    value: Fraction | float  # exact (a Fraction) for an exact matrix


def _validated(payoff) -> tuple[list[list], bool]:
    """Return (matrix as a list of row lists, exact?) or raise ValueError for an empty,
    ragged, non-numeric or non-finite matrix."""
    if isinstance(payoff, np.ndarray):
        if payoff.ndim != 2:
            raise ValueError(f"payoff must be a 2-D matrix, got a {payoff.ndim}-D array.")
        payoff = payoff.tolist()
    try:
        rows = [list(row) for row in payoff]
    except TypeError:
        raise ValueError("payoff must be a sequence of rows of numbers.") from None
    if not rows or not rows[0]:
        raise ValueError("payoff must have at least one row and one column.")
    if any(len(row) != len(rows[0]) for row in rows):
        raise ValueError("payoff rows must all have the same length (the matrix is ragged).")
    exact = True
    for row in rows:
        for k, a in enumerate(row):
            if isinstance(a, np.generic):
                a = row[k] = a.item()
            if not isinstance(a, numbers.Real):
                raise ValueError(f"payoff entries must be real numbers, got {a!r}.")
            if not isinstance(a, (int, Fraction)):
                exact = False
                if not math.isfinite(a):
                    raise ValueError(f"payoff entries must be finite, got {a!r}.")
    if exact:
        rows = [[Fraction(a) for a in row] for row in rows]
    else:
        rows = [[float(a) for a in row] for row in rows]
    return rows, exact


def _pivot(tab: list[list], r: int, c: int) -> None:
    """Pivot the tableau in place on row r, column c (the last row is the objective)."""
    piv = tab[r][c]
    tab[r] = [t / piv for t in tab[r]]
    prow = tab[r]
    for i, row in enumerate(tab):
        f = row[c]
        if i != r and f != 0:
            tab[i] = [a - f * b for a, b in zip(row, prow)]


def _simplex(b_mat: list[list], tol) -> tuple[list, list]:
    """Maximise sum(u) s.t. b_mat u <= 1, u >= 0 (b_mat > 0) by a dense tableau simplex
    with Bland's rule.  Return (u, w): the primal optimum and the dual optimum."""
    m, n = len(b_mat), len(b_mat[0])
    one, zero = b_mat[0][0] * 0 + 1, b_mat[0][0] * 0
    # Columns: n structural, m slack, then the right-hand side.  The objective row holds the
    # reduced costs c_j - c_B B^-1 a_j and, in its last entry, minus the objective value.
    tab = [list(b_mat[i]) + [one if k == i else zero for k in range(m)] + [one] for i in range(m)]
    tab.append([one] * n + [zero] * (m + 1))
    basis = list(range(n, n + m))
    while True:
        obj = tab[-1]
        enter = next((j for j in range(n + m) if obj[j] > tol), None)
        if enter is None:
            break
        best = None  # (ratio, basic variable index, row)
        for i in range(m):
            a = tab[i][enter]
            if a > tol:
                ratio = tab[i][-1] / a
                if best is None or ratio < best[0] - tol or (ratio <= best[0] + tol and basis[i] < best[1]):
                    best = (ratio, basis[i], i)
        # B > 0 keeps the feasible region bounded, so an entering column always has a row.
        if best is None:  # pragma: no cover - cannot happen for a positive matrix
            raise RuntimeError("simplex found an unbounded direction; this is a bug.")
        _pivot(tab, best[2], enter)
        basis[best[2]] = enter
    u = [zero] * n
    for i, var in enumerate(basis):
        if var < n:
            u[var] = tab[i][-1] if tab[i][-1] > 0 else zero
    w = [-tab[-1][n + i] if tab[-1][n + i] < 0 else zero for i in range(m)]
    return u, w


def solve_zero_sum(payoff) -> MatrixSolution:
    """Solve the zero-sum game with row-player payoff matrix ``payoff``.

    ``payoff`` is a rectangular sequence of rows (or a 2-D numpy array) of real numbers;
    the row player maximises.  All-int/Fraction input is solved exactly and gives
    Fractions; any float entry switches to float arithmetic.  Returns a MatrixSolution
    (row_mix, column_mix, value).  Raises ValueError for an empty, ragged, non-numeric or
    non-finite matrix.
    """
    a, exact = _validated(payoff)
    lo = min(min(row) for row in a)
    hi = max(max(row) for row in a)
    scale = hi - lo
    if not scale > (0 if exact else _FLOAT_TOL * max(1.0, abs(lo), abs(hi))):
        scale = Fraction(1) if exact else 1.0  # (nearly) constant matrix: any scale works
    tol = Fraction(0) if exact else _FLOAT_TOL
    one = Fraction(1) if exact else 1.0
    b_mat = [[(x - lo) / scale + one for x in row] for row in a]
    u, w = _simplex(b_mat, tol)
    su, sw = sum(u), sum(w)
    column_mix = tuple(x / su for x in u)
    row_mix = tuple(x / sw for x in w)
    if exact:
        value = (one / su - one) * scale + lo
    else:
        # Report x^T A y: identical to the LP value up to rounding, and on the input scale.
        value = sum(row_mix[i] * sum(a[i][j] * column_mix[j] for j in range(len(u))) for i in range(len(w)))
    return MatrixSolution(row_mix=row_mix, column_mix=column_mix, value=value)
