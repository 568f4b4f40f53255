"""Spoil Five's decision guides (sims.games.spoil_five.guide): every cell is a rob
decision with a choice, the tables are rectangular, and a few clear cells give their best
action through analyzer.advise."""

from __future__ import annotations

import pytest

from sims.games.spoil_five.guide import GUIDES
from sims.registry import GAMES
from sims.situations import guide_situation
from tests.games.guide_cells import assert_clear_cell

SPEC = GAMES["spoil-five"]


def test_guides_are_found():
    assert SPEC.guides() == GUIDES
    assert len(GUIDES) >= 1


# guide name -> (its decision, its candidates' count)
DECISION = {"rob-5": ("rob", 6), "jinx-3": ("jinx", 2)}


def test_guide_names():
    assert sorted(g.name for g in GUIDES) == sorted(DECISION)


@pytest.mark.parametrize("guide", GUIDES, ids=lambda g: g.name)
def test_every_cell_is_the_guides_decision_with_a_choice(guide):
    decision, count = DECISION[guide.name]
    assert guide.rows and guide.columns
    asked = 0
    for _, _, cell in guide.cells():
        _, players, found = guide_situation(SPEC, guide, cell)
        assert players == guide.players
        assert found.decision == decision
        assert len(found.candidates) == count  # rob: no rob, and a rob throwing each of the 5 cards
        if decision == "rob":
            assert found.candidates[0] == "no rob"
            for action in found.candidates:
                assert guide.short(action) != action or action == "no rob"
        else:
            assert found.candidates == ("claim", "jinx")
        asked += 1
    assert asked >= len(guide.rows) * len(guide.columns) - len(guide.rows)


# (row, column, best action, its least margin in net chips); at 20,000 deals the margins
# below are about 0.76 ± 0.04, 0.63 ± 0.03 and 0.12 ± 0.009.
# The jinx cell: two kings left with a new pool, jinx by about 1.46 ± 0.03 at 20,000 deals.
CLEAR = [
    ("rob-5", "the 5 turned", "a king", "rob:discard 9s", 0.5),
    ("rob-5", "ace turned (dealer)", "jack of trumps", "rob:discard 9s", 0.45),
    ("rob-5", "king turned", "two kings", "rob:discard 2h", 0.07),
    ("jinx-3", "new pool (6)", "two kings", "jinx", 1.0),
]


@pytest.mark.parametrize("name, row, column, best, margin", CLEAR)
def test_clear_cells(name, row, column, best, margin):
    guide = next(g for g in GUIDES if g.name == name)
    cell = dict(guide.rows)[row][guide.columns.index(column)]
    assert_clear_cell("spoil-five", guide, cell, best, margin, hands=20_000, sigmas=6)
