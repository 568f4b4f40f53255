"""Fan Tan's decision guide (sims/games/fan_tan/guide.py): every cell is a ``play``
decision between the two sevens, the table is rectangular, and clear cells give their
best card through advice."""

from __future__ import annotations

import pytest

from sims.games.fan_tan.guide import GUIDES
from sims.registry import get_game
from sims.situations import guide_situation
from tests.games.guide_cells import assert_clear_cell

SPEC = get_game("fan-tan")


def test_guides_are_found():
    assert SPEC.guides() == GUIDES
    assert 1 <= len(GUIDES) <= 3


@pytest.mark.parametrize("guide", GUIDES, ids=lambda g: g.name)
def test_rows_are_labelled_and_column_labels_short(guide):
    assert guide.rows and guide.columns
    assert all(label for label, _ in guide.rows)
    assert all(len(label) <= 24 for label in guide.columns)


@pytest.mark.parametrize("guide", GUIDES, ids=lambda g: g.name)
def test_every_cell_is_a_choice_of_seven(guide):
    for r, c, cell in guide.cells():
        _, players, found = guide_situation(SPEC, guide, cell)
        assert players == 4
        assert found.decision == "play", (r, c)
        assert found.candidates == ("play 7d", "play 7h"), (r, c, found.candidates)
        assert found.outcomes[0] == "net"
        assert guide.also in found.outcomes
        assert all(guide.short(action) != action for action in found.candidates)


# (row, column, best card, least margin in chips): at the guide's deals the margins are
# 5.23 +- 0.02, 8.16 +- 0.02 and 1.03 +- 0.01; at 20,000 deals the standard error is
# under 0.1, so each margin asserted is many errors away.
CLEAR = [(0, 0, "play 7d", 3.0), (5, 3, "play 7h", 5.0), (4, 0, "play 7h", 0.5)]


@pytest.mark.parametrize("row, column, best, least", CLEAR)
def test_clear_cells(row, column, best, least):
    guide = GUIDES[0]
    cell = guide.rows[row][1][column]
    assert_clear_cell("fan-tan", guide, cell, best, least, hands=20_000, sigmas=8)
