"""Fight for the Lead's decision guides (sims.games.fight_for_the_lead.guide): every cell
is a decision of the guide's kind with a choice, the tables are rectangular, and a few
clear cells give their best action through analyzer.advise."""

from __future__ import annotations

import pytest

from sims.games.fight_for_the_lead.guide import GUIDES
from sims.registry import GAMES
from sims.situations import guide_situation
from tests.games.guide_cells import assert_clear_cell

SPEC = GAMES["fight-for-the-lead"]
DECISION = {"stay-4": ("stay or drop", ("stay", "drop")), "fight-4": ("fight card", None), "trade-4": ("trade", None)}


def test_guides_are_found():
    assert SPEC.guides() == GUIDES
    assert {guide.name for guide in GUIDES} == set(DECISION)


@pytest.mark.parametrize("guide", GUIDES, ids=lambda g: g.name)
def test_every_cell_is_the_guides_decision_with_a_choice(guide):
    decision, candidates = DECISION[guide.name]
    assert guide.rows and guide.columns
    asked = 0
    for _, _, cell in guide.cells():
        _, players, found = guide_situation(SPEC, guide, cell)
        assert players == guide.players == 4
        assert found.decision == decision
        assert not guide.also or guide.also in found.outcomes
        if candidates is not None:
            assert found.candidates == candidates
        elif decision == "fight card":  # each of the four cards dealt
            assert sorted(found.candidates) == sorted(f"fight {card}" for card in cell.holding.split())
        else:  # every set of cards to throw away, named by the cards (all of them shortened)
            assert len(found.candidates) == 16
            assert found.candidates[0] == "keep all"
            for action in found.candidates[1:]:
                assert guide.short(action) == action.removeprefix("trade ")
        for action in found.candidates:
            assert len(guide.short(action)) <= 12
        assert len(found.candidates) > 1
        asked += 1
    assert asked == len(guide.rows) * len(guide.columns)


# (guide, row, column, best action, its least margin in net chips); at 20,000 deals the
# margins below are about 3.33 ± 0.006, 1.05 ± 0.02, 2.12 ± 0.02 (at 300,000: se 0.002 to 0.005),
# then 1.00 ± 0.02 and 0.13 ± 0.01 (at 400,000: ± 0.004 and ± 0.002), then 0.43 ± 0.006 and
# 0.27 ± 0.02 (at 150,000: ± 0.002 and ± 0.008).
CLEAR = [
    ("stay-4", "you won the lead", "2 As", "stay", 3.0),
    ("stay-4", "lead to your left", "J high", "drop", 0.9),
    ("stay-4", "lead to your left", "2 As", "stay", 1.8),
    ("fight-4", "first hand (all play)", "3 As", "fight 4c", 0.8),
    ("fight-4", "later hand (may drop)", "K Q, one suit", "fight Kh", 0.09),
    ("trade-4", "you won the lead", "2 As", "trade 6c 4s", 0.35),
    ("trade-4", "you won the lead", "guarded K", "trade 4c 9d 6h", 0.15),
]


@pytest.mark.parametrize("name, row, column, best, margin", CLEAR)
def test_clear_cells(name, row, column, best, margin):
    guide = next(guide for guide in GUIDES if guide.name == name)
    cell = dict(guide.rows)[row][guide.columns.index(column)]
    assert_clear_cell("fight-for-the-lead", guide, cell, best, margin, hands=20_000, sigmas=6)
