"""Ace Chasing's decision guides (sims/games/ace_chasing/guide.py): every cell is a
situation of its guide's decision with both actions, the tables are rectangular, and a
few cells whose best action is clear give it through ``analyzer.advise``."""

from __future__ import annotations

import pytest

from sims.registry import GAMES
from sims.situations import guide_situation
from tests.games.guide_cells import assert_clear_cell

SPEC = GAMES["ace-chasing"]
GUIDES = {guide.name: guide for guide in SPEC.guides()}
DECISION = {"swap-8": "swap", "after-swap-8": "swap", "matador-right-8": "matador_right"}


def test_the_guides():
    assert set(GUIDES) == set(DECISION)
    for guide in GUIDES.values():
        assert guide.players == 8 and guide.deals > 0 and guide.verdict
        assert len(set(guide.columns)) == len(guide.columns)
        assert any(cell is not None for cell in guide.rows[guide.lead_row][1])


@pytest.mark.parametrize("name", sorted(DECISION))
def test_every_cell_is_a_choice_of_the_guides_decision(name):
    guide = GUIDES[name]
    count = 0
    for _, _, cell in guide.cells():
        _, players, found = guide_situation(SPEC, guide, cell)
        assert players == 8
        assert found.decision == DECISION[name], cell
        assert found.candidates == ("swap", "keep")
        assert found.outcomes[0] == "exposed" and found.lower_is_better
        count += 1
    assert count == {"swap-8": 6 * 13, "after-swap-8": 5 * 7, "matador-right-8": 13 + 7}[name]


# (guide, row, column, best action, least margin in exposure): margins at the guides' deals
# are 0.41 to 0.93 with standard errors near 0.002, so at 4,000 deals (se near 0.01) each
# asserted margin is more than ten standard errors away.
CLEAR = [
    ("swap-8", 0, "A", "swap", 0.55),
    ("swap-8", 0, "7", "keep", 0.30),
    ("after-swap-8", 2, "2", "swap", 0.50),
    ("matador-right-8", 0, "K", "keep", 0.85),
]


@pytest.mark.parametrize("name, row, column, best, margin", CLEAR)
def test_clear_cells(name, row, column, best, margin):
    guide = GUIDES[name]
    cell = guide.rows[row][1][guide.columns.index(column)]
    assert_clear_cell("ace-chasing", guide, cell, best, margin, hands=4_000, sigmas=10)
