"""The compiled side of strategy tables (:mod:`sims.core.table`): looking a cell's action
up in a seat's policy row, and adding one visit to a solve kernel's sums.

A solve kernel (``solve_nb`` of a game's ``table.py``) plays deals ``first .. first +
count - 1`` of ``seed`` (deal ``i`` from the stream ``(seed, i)``, as hand ``i`` of hand
mode) under the profile in the policy matrix.  At every visit of a seat to a cell of the
decision solved, the deal is played again from its start with that visit forced to each
legal action (every other visit, and every other seat, as the profile says; a forced visit
consumes the draws the profile would have made there, so the rest of the deal meets the
same random numbers), and the seat's outcome of each action is added to the sums of
``(seat, cell)`` (:func:`record_visit_nb`).  The sums are one flat int64 array,
``[seat, cell, stat]`` with ``stat`` laid out as :func:`sims.core.table.solve_stats_width`
says; an action not legal in a cell records 0.
"""

from __future__ import annotations

import numpy as np

from sims.core.jit import njit
from sims.core.rng import uniform_nb

NO_TABLE = -1  # table_action_nb: the seat's policy fields decide


@njit(cache=True, inline="always")
def table_action_nb(policy, seat, offset, n_actions, cell, state):
    """``(action, state)``: the action seat ``seat``'s table takes in ``cell`` of the
    decision whose block starts at column ``offset`` of the policy row, or ``(NO_TABLE,
    state)`` when the seat plays no table for it or the table leaves the cell out.  A
    mixed cell draws one uniform from ``state`` (see :mod:`sims.core.table`)."""
    if policy.shape[1] <= offset or policy[seat, offset] < 0.5:
        return NO_TABLE, state
    at = offset + 1 + cell * n_actions
    if policy[seat, at] < 0.0:
        return NO_TABLE, state
    for a in range(n_actions):
        if policy[seat, at + a] >= 1.0:
            return a, state
    u, state = uniform_nb(state)
    total = 0.0
    for a in range(n_actions - 1):
        total += policy[seat, at + a]
        if u < total:
            return a, state
    return n_actions - 1, state


@njit(cache=True, inline="always")
def plays_table_nb(policy, seat, offset):
    """True when seat ``seat`` plays the decision whose block starts at ``offset`` from a table."""
    return policy.shape[1] > offset and policy[seat, offset] >= 0.5


@njit(cache=True, inline="always")
def record_visit_nb(out, seat, cell, n_cells, values, legal_mask):
    """Add one visit of ``seat`` to ``cell`` to a solve kernel's flat sums ``out``:
    ``values[a]`` is the seat's outcome (an integer) when the visit takes action ``a``
    (actions outside ``legal_mask`` record 0)."""
    n_actions = values.shape[0]
    width = 1 + 2 * n_actions + n_actions * n_actions
    at = (seat * n_cells + cell) * width
    out[at] += 1
    for a in range(n_actions):
        v = values[a] if (legal_mask >> a) & 1 else 0
        out[at + 1 + 2 * a] += v
        out[at + 2 + 2 * a] += v * v
    cross = at + 1 + 2 * n_actions
    for a in range(n_actions):
        va = values[a] if (legal_mask >> a) & 1 else 0
        for b in range(n_actions):
            vb = values[b] if (legal_mask >> b) & 1 else 0
            out[cross + a * n_actions + b] += va * vb


def record_visit(out, seat, cell, n_cells, values, legal_mask) -> None:
    """Plain-Python :func:`record_visit_nb` (``out`` a list of ints)."""
    n_actions = len(values)
    width = 1 + 2 * n_actions + n_actions * n_actions
    at = (seat * n_cells + cell) * width
    kept = [int(v) if (legal_mask >> a) & 1 else 0 for a, v in enumerate(values)]
    out[at] += 1
    for a, v in enumerate(kept):
        out[at + 1 + 2 * a] += v
        out[at + 2 + 2 * a] += v * v
    cross = at + 1 + 2 * n_actions
    for a, va in enumerate(kept):
        for b, vb in enumerate(kept):
            out[cross + a * n_actions + b] += va * vb


def table_action(policy_row, offset, n_actions, cell, stream):
    """Plain-Python :func:`table_action_nb` for one seat's policy row; ``stream`` a
    :class:`sims.core.rng.Stream` (advanced in place).  Returns the action or NO_TABLE."""
    if len(policy_row) <= offset or policy_row[offset] < 0.5:
        return NO_TABLE
    at = offset + 1 + cell * n_actions
    if policy_row[at] < 0.0:
        return NO_TABLE
    for a in range(n_actions):
        if policy_row[at + a] >= 1.0:
            return a
    u = stream.uniform()
    total = 0.0
    for a in range(n_actions - 1):
        total += float(policy_row[at + a])
        if u < total:
            return a
    return n_actions - 1


__all__ = ["NO_TABLE", "table_action_nb", "plays_table_nb", "record_visit_nb", "record_visit", "table_action", "np"]
