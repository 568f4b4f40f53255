"""One check shared by every game's ``test_guide.py``: a clear cell of a decision guide,
played through ``analyzer.advise`` exactly as a report plays it, gives its best action by
a margin that cannot flake."""

from __future__ import annotations

import analyzer


def assert_clear_cell(game: str, guide, cell, best: str, margin: float, hands: int, sigmas: float) -> None:
    """``cell`` of ``guide`` advises ``best``, ahead of the runner-up by more than ``margin``
    and by more than ``sigmas`` paired standard errors, on ``hands`` accepted deals (seed 0)."""
    result = analyzer.advise(
        game,
        position=cell.position,
        holding=cell.holding,
        context=dict(cell.context),
        players=guide.players,
        hands=hands,
        store=False,
        threads=1,
    )
    ranked = result.ranked()
    assert result.best == best == ranked[0].action, [(option.action, option.diff) for option in ranked]
    gap, gap_se = abs(ranked[1].diff), ranked[1].diff_se
    assert gap > margin, (gap, margin)
    assert gap > sigmas * gap_se, (gap, gap_se)
