"""Every registered game's decision guides (``sims/games/<game>/guide.py``) meet the
contract of :mod:`sims.core.guide` without playing a deal: every game has one, names are
unique and file-safe, every cell is a decision with a real choice, the verdict's row is a
row, and a report at ``--hands 1e6`` plays a sane number of deals a cell."""

from __future__ import annotations

import re

import pytest

from sims.registry import GAMES
from sims.situations import guide_situation


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_guide_cell_is_a_decision_with_a_choice(name):
    spec = GAMES[name]
    found = spec.guides()
    assert found, f"{name} has no decision guide"
    assert len({guide.name for guide in found}) == len(found)
    for guide in found:
        assert re.fullmatch(r"[a-z0-9-]+", guide.name), guide.name
        assert guide.title and guide.text.endswith(".") and guide.verdict
        assert 1_000 <= guide.deals <= 2_000_000
        assert len(set(guide.columns)) == len(guide.columns) and len({label for label, _ in guide.rows}) == len(
            guide.rows
        )
        lead = guide.rows[guide.lead_row][1]
        assert sum(cell is not None for cell in lead) >= 2  # the verdict has something to say
        decisions = set()
        for row, column, cell in guide.cells():
            _, players, situation = guide_situation(spec, guide, cell)
            assert players == (guide.players or spec.default_players)
            assert len(situation.candidates) > 1, (guide.name, row, column)
            if guide.also:
                assert guide.also in situation.outcomes
            decisions.add(situation.decision)
        assert decisions <= {decision.name for decision in spec.decisions()}, (guide.name, decisions)
