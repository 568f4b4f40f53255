"""The per-cell best response of analyzer.strategy.solve on hand-made cell sums: the
paired standard error, the tie rule, and the exploitability's batch sums."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.strategy.solve import LEAST_VISITS, _contrast, _gain, best_response
from sims.core.table import TableDecision
from sims.core.table_nb import record_visit


def cell_stats(rows: list[tuple[int, ...]]) -> np.ndarray:
    """The solve sums of one cell from the per-visit outcomes of each action."""
    n_actions = len(rows[0])
    out = [0] * (1 + 2 * n_actions + n_actions * n_actions)
    for values in rows:
        record_visit(out, 0, 0, 1, values, (1 << n_actions) - 1)
    return np.asarray(out, dtype=np.int64)


def test_contrast_is_the_paired_mean_and_standard_error():
    rows = [(1, 0), (1, 1), (0, 0), (1, 0)]  # differences 1, 0, 0, 1
    mean, se = _contrast(cell_stats(rows), np.array([1.0, -1.0]), 2)
    assert mean == pytest.approx(0.5)
    assert se == pytest.approx(np.std([1, 0, 0, 1], ddof=1) / 2)


def test_a_clearly_better_action_replaces_the_current_one():
    rows = [(1, 0)] * 40 + [(0, 0)] * 10  # action 0 loses a life 80%, action 1 never
    choice = best_response(cell_stats(rows), np.array([1.0, 0.0]), (0, 1), sign=-1.0)
    assert np.array_equal(choice.row, [0.0, 1.0]) and choice.best == 1 and not choice.tie


def test_actions_within_two_standard_errors_tie_and_the_cell_keeps_its_action():
    rows = [(1, 0), (0, 1)] * 20 + [(1, 1)]  # equal means, large paired noise
    current = np.array([1.0, 0.0])
    choice = best_response(cell_stats(rows), current, (0, 1), sign=-1.0)
    assert choice.tie and np.array_equal(choice.row, current)


def test_a_rarely_visited_cell_keeps_its_action():
    rows = [(1, 0)] * (LEAST_VISITS - 1)
    current = np.array([1.0, 0.0])
    choice = best_response(cell_stats(rows), current, (0, 1), sign=-1.0)
    assert choice.best == -1 and np.array_equal(choice.row, current)


def test_an_illegal_action_is_never_chosen():
    rows = [(5, 0, 9)] * 50  # action 2 looks best by far but is not legal
    choice = best_response(cell_stats(rows), np.array([0.0, 1.0, 0.0]), (0, 1), sign=1.0)
    assert np.array_equal(choice.row, [1.0, 0.0, 0.0])


def test_exploitability_sums_the_response_gain_over_seats_and_visits():
    decision = TableDecision("d", "a test decision", ("x",), (("a",), ("b",)), ("up", "down"), lambda cell: "cell")
    cells = np.zeros((2, 2, 9), dtype=np.int64)  # two seats, two cells
    for seat, cell, values in ((0, 0, (3, 5)), (0, 0, (3, 5)), (1, 1, (2, 1))):
        out = list(cells.ravel())
        record_visit(out, seat, cell, 2, values, 3)
        cells = np.asarray(out, dtype=np.int64).reshape(2, 2, 9)
    profile = {0: np.array([[1.0, 0.0], [1.0, 0.0]]), 1: np.array([[1.0, 0.0], [0.5, 0.5]])}
    response = {0: np.array([[0.0, 1.0], [1.0, 0.0]]), 1: np.array([[1.0, 0.0], [1.0, 0.0]])}
    # seat 0 gains 5 - 3 twice; seat 1 gains 2 - (2 + 1) / 2 once
    assert _gain([cells], profile, response, decision, 1.0, 1) == pytest.approx([4.5])
    assert _gain([cells], profile, response, decision, -1.0, 2) == pytest.approx([-2.25])
