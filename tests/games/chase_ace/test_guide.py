"""Chase the Ace decision guides (sims/games/chase_ace/guide.py): every cell is a situation
of the guide's decision with a choice, the tables are rectangular, and a few clear cells
give their best action through advice."""

from __future__ import annotations

import pytest

from sims import situations
from sims.registry import get_game
from tests.games.guide_cells import assert_clear_cell

SPEC = get_game("chase-ace")
GUIDES = {guide.name: guide for guide in SPEC.guides()}
# the decision each guide asks, by the cell's position: the dealer (the last seat) cuts
DEALER_DECISION = "cut"


def test_guides_declared():
    assert set(GUIDES) == {"swap-8", "after-swap-8", "dealer-after-swap-8"}
    for guide in GUIDES.values():
        assert guide.players == SPEC.default_players == 8
        assert guide.deals > 0 and guide.verdict and guide.text
        assert 0 <= guide.lead_row < len(guide.rows)


@pytest.mark.parametrize("name", ["swap-8", "after-swap-8", "dealer-after-swap-8"])
def test_labels_differ_and_every_row_and_column_asks_something(name):
    guide = GUIDES[name]
    assert len(set(guide.columns)) == len(guide.columns)
    assert len({label for label, _ in guide.rows}) == len(guide.rows)
    # every row and every column asks something
    asked = {(r, c) for r, c, _ in guide.cells()}
    assert {r for r, _ in asked} == set(range(len(guide.rows)))
    assert {c for _, c in asked} == set(range(len(guide.columns)))


@pytest.mark.parametrize("name", ["swap-8", "after-swap-8", "dealer-after-swap-8"])
def test_every_cell_is_a_decision(name):
    guide = GUIDES[name]
    for r, c, cell in guide.cells():
        _, players, situation = situations.guide_situation(SPEC, guide, cell)
        dealer = cell.position == players - 1
        assert situation.decision == (DEALER_DECISION if dealer else "swap"), (r, c, cell)
        assert set(situation.candidates) == ({"cut", "keep"} if dealer else {"swap", "keep"})
        assert ("gave" in cell.context) == (name != "swap-8")
    if name == "swap-8":
        assert [cell.position for cell in guide.rows[-1][1]] == [7] * len(guide.columns)
    if name == "dealer-after-swap-8":
        assert all(cell.position == 7 for _, _, cell in guide.cells())


# (guide, row, column, best action, least margin): margins are tens of standard errors at
# 4,000 deals (seed 0), so the answer cannot flake
CLEAR = [
    ("swap-8", 0, 0, "swap", 0.7),  # seat 0 holding an ace: swap (0.82 less often loses)
    ("swap-8", 7, 11, "keep", 0.12),  # the dealer holding a queen: keep (cut 0.17 worse)
    ("after-swap-8", 7, 1, "swap", 0.4),  # seat 3 gave a high card and got a 2: swap (0.51)
    ("dealer-after-swap-8", 7, 2, "cut", 0.2),  # the dealer gave a high card and got a 3: cut (0.30)
]


@pytest.mark.parametrize("name,row,column,best,margin", CLEAR)
def test_clear_cells(name, row, column, best, margin):
    guide = GUIDES[name]
    cell = guide.rows[row][1][column]
    assert_clear_cell("chase-ace", guide, cell, best, margin, hands=4_000, sigmas=10)
