"""A decision guide in a report: each cell's best action and its margin, ties named as
ties, and one verdict sentence along the lead row that carries its number and error.
Built from literal answers here, so the words are checked without playing a deal; the
reports of every game play their real guides (test_cli_strategy)."""

from __future__ import annotations

import pytest

from analyzer.reporting.document import Document, render_markdown
from analyzer.reporting.guides import CellAnswer, cell_text, guide_deals, guide_section, guide_verdict
from analyzer.strategy.advice import Option
from sims.core.guide import Cell, Guide
from sims.registry import get_game

COLUMNS = ("A", "2", "3", "4", "5", "6")


def answer(best: str, other: str, gap: float, se: float, lose: float = 0.2) -> CellAnswer:
    """Two candidates, lower is better: ``best`` loses ``lose``, ``other`` ``gap`` more."""
    return CellAnswer(
        [
            Option(best, {"lose_life": (lose, 0.001)}, 0.0, 0.0),
            Option(other, {"lose_life": (lose + gap, 0.001)}, gap, se),
        ],
        5_000,
        9_000,
    )


def guide() -> Guide:
    cells = tuple(Cell(0, card + "h") for card in COLUMNS)
    return Guide(
        "swap-test",
        "Swap or keep",
        "A test guide.",
        "seat",
        "card held",
        COLUMNS,
        (("seat 0", cells), ("seat 1", cells[:5] + (None,))),
        players=4,
        deals=40_000,
        verdict="From seat 0 with 4 players",
    )


def answers() -> dict:
    found = {
        (0, 0): answer("swap", "keep", 0.30, 0.002),
        (0, 1): answer("swap", "keep", 0.20, 0.002),
        (0, 2): answer("swap", "keep", 0.10, 0.002),
        (0, 3): answer("keep", "swap", 0.003, 0.002),  # within two standard errors: a tie
        (0, 4): answer("keep", "swap", 0.05, 0.002),
        (0, 5): answer("keep", "swap", 0.12, 0.002),
    }
    found.update({(1, c): found[(0, c)] for c in range(5)})
    return found


def test_a_cell_names_the_best_action_and_its_margin_or_a_tie():
    g = guide()
    assert cell_text(g, answer("swap", "keep", 0.30, 0.002)) == "**swap** 0.300 ± 0.002"
    assert cell_text(g, answer("keep", "swap", 0.003, 0.002)) == "keep ≈ swap 0.003 ± 0.002"
    assert cell_text(g, None) == ""
    assert cell_text(g, answer("swap", "keep", 0.3, 0.002), also="lose_life") == (
        "**swap** 0.300 ± 0.002; lose_life 0.200 ± 0.001"
    )


def test_the_verdict_follows_the_lead_row_in_runs_and_gives_the_closest_clear_call():
    said = guide_verdict(guide(), answers(), 40_000)
    assert said == (
        "From seat 0 with 4 players: swap with A to 3. Keep with 5 and 6. A tie with 4. The closest clear call, "
        "5, is keep by 0.0500 ± 0.002 (40,000 deals a cell, every action on the same deals)."
    )


def test_a_verdict_reads_as_short_sentences_with_labels_that_hold_commas_quoted_and_names_the_field():
    """Spoil Five's columns hold commas ("low trump, king"): quoted, so a list of them reads
    as one; each action is its own sentence, and the field the cells were played against
    closes the verdict."""
    columns = ("weak side", "a king", "two kings", "low trump", "low trump, king", "the 5 of trumps")
    cells = tuple(Cell(0, "Ad 10c 9s 4h 2h") for _ in columns)
    rob = Guide(
        "rob", "Rob", "t", "turn-up", "hand: Ad and", columns, (("king turned", cells),), verdict="With the king turned"
    )
    found = {
        (0, 0): answer("rob, throw 9s", "no rob", 0.3, 0.01),
        (0, 1): answer("rob, throw 9s", "no rob", 0.3, 0.01),
        (0, 2): answer("rob, throw 2h", "no rob", 0.3, 0.01),
        (0, 3): answer("rob, throw 10c", "no rob", 0.3, 0.01),
        (0, 4): answer("rob, throw 9s", "no rob", 0.02, 0.005),
        (0, 5): answer("rob, throw 9s", "no rob", 0.003, 0.002),
    }
    field = "a field playing the default policy: rob=1, jinx_min=2"
    assert guide_verdict(rob, found, 300_000, field) == (
        "With the king turned: rob, throw 9s with weak side, a king and “low trump, king”. Rob, throw 2h with two "
        "kings. Rob, throw 10c with low trump. A tie with the 5 of trumps. The closest clear call, “low trump, "
        "king”, is rob, throw 9s by 0.0200 ± 0.005 (300,000 deals a cell, every action on the same deals). Against "
        "a field playing the default policy: rob=1, jinx_min=2."
    )


def test_a_guide_section_has_its_table_and_chart_and_scales_its_deals_with_the_report():
    g = guide()
    assert guide_deals(g, 1_000_000) == 40_000 and guide_deals(g, 50_000) == 2_000 and guide_deals(g, 100) == 200
    document = Document()
    guide_section(get_game("chase-ace"), g, answers(), 40_000, document)
    text, images = render_markdown(document)
    assert "| seat \\ card held | A | 2 | 3 | 4 | 5 | 6 |" in text
    assert "| seat 1 | **swap** 0.300 ± 0.002 |" in text and text.count("| seat 1 |") == 1
    assert list(images) == ["guide-swap-test.png"]
    assert (
        "Assumed in every cell: 4 players; the standard rules (lives=3, tie=all-lowest-lose, kings=block, "
        "king_reveal=on-attempt, dealer_king_block=true, queens=off, jacks=off, final_tie=split, ace_high=false); "
        "every other seat plays the default policy, so each answer holds against a field playing the default "
        "policy: threshold=7, threshold_mix=0, informed=1."
    ) in text


def test_a_guide_refuses_a_ragged_row():
    with pytest.raises(ValueError, match="row seat 0 has 1 cells for 6 columns"):
        Guide("g", "t", "x", "seat", "card", COLUMNS, (("seat 0", (Cell(0, "Ah"),)),))
