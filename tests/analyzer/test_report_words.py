"""A report reads as sentences: no ``nan`` (a conditional outcome never seen is "– (none
seen)"), a distribution's bins in words ("1 to 16", "23 or more"), a house rule switched
named with its meaning, and a list of quiet rules counted, not chained."""

from __future__ import annotations

import math
import re

from analyzer.reporting.content import _default_table
from analyzer.reporting.document import Document, render_markdown
from analyzer.reporting.house_rules import NONE_SEEN, _change_cell, _quiet_text, _value_cell, house_rules_section
from analyzer.reporting.words import bin_text, listed, switch_text, switches_legend
from analyzer.run.context import RunContext
from analyzer.run.stats import Estimate
from analyzer.strategy.comparisons import Difference
from sims.registry import get_game
from sims.spec import Mode

RAW = re.compile(r"\b\d+_(?:\d+|up)\b|\bunder_\d+\b|\blength_|\bnan\b")


def raw_labels(markdown: str) -> list[str]:
    """What a reader should never meet in a report: ``1_16``, ``23_up``, ``length_9_up``, ``nan``."""
    return RAW.findall(markdown)


def test_bins_read_in_words():
    assert [bin_text(label) for label in ("1_16", "23_up", "length_9_up", "under_50", "50_52", "1_2", "7")] == [
        "1 to 16",
        "23 or more",
        "9 or more",
        "under 50",
        "50 to 52",
        "1 or 2",
        "7",
    ]
    assert [bin_text(label) for label in ("5-8", "33+")] == ["5 to 8", "33 or more"]


def test_lists_read_as_a_sentence_and_a_label_with_a_comma_is_one_item():
    assert listed(["A"]) == "A" and listed(["A", "2"]) == "A and 2"
    assert listed(["weak side", "low trump, king", "the 5"]) == "weak side, “low trump, king” and the 5"


def test_a_switch_is_named_with_its_meaning_and_the_standard_it_replaces():
    spec = get_game("five-hundred")
    said = switch_text(spec, "opp_cap=0")
    assert said.startswith("`opp_cap=0` (with win_by_contract_only: the most a side can reach on points for tricks")
    assert said.endswith("; 0 instead of the standard 490)")
    legend = switches_legend(spec, ["opp_cap=0", "deck=45", "deck=46"])
    assert legend.startswith("What the switched rules mean: `opp_cap`: ") and legend.count("`deck`") == 1
    assert "(standard: 43)" in legend


def test_a_conditional_outcome_never_seen_is_none_seen_not_nan():
    never = Estimate("table", "open_misere_made", math.nan, math.nan, math.nan, math.nan)
    assert _value_cell(never) == NONE_SEEN == "– (none seen)"
    undefined = Difference("table", "open_misere_made", *[math.nan] * 7)
    assert _change_cell(undefined, never) == "– (none seen)"
    seen = Estimate("table", "open_misere_made", 0.42, 0.05, 0.32, 0.52)
    assert _change_cell(undefined, seen) == "0.420 ± 0.05 under the switch, none under the standard"


def test_many_quiet_rules_are_counted_few_are_named():
    assert _quiet_text(["`a=1`"], "games") == " `a=1` makes no measurable difference."
    assert _quiet_text(["`a=1`", "`b=2`"], "games") == " `a=1` and `b=2` make no measurable difference."
    said = _quiet_text([f"`r{k}=1`" for k in range(19)], "games")
    assert said.startswith(" 19 other switches make no measurable difference") and "`r0=1`" not in said


def test_five_hundred_house_rules_show_no_nan_and_say_what_each_switch_means():
    """Under the default policy nobody bids open misere, so the share of open misères made
    is a mean over none: "– (none seen)" in the standard row and in every switch's."""
    spec = get_game("five-hundred")
    document, findings = Document(), []
    house_rules_section(spec, _default_table(spec), Mode.HANDS, 400, 0, RunContext(), document, findings)
    markdown, _ = render_markdown(document)
    assert raw_labels(markdown) == [] and "nan" not in markdown
    header = next(
        line for line in markdown.splitlines() if "`open_misere_made`" in line and line.startswith("| switch")
    )
    column = header.split(" | ").index("`open_misere_made`")
    standard = next(line for line in markdown.splitlines() if line.startswith("| standard rules (value)"))
    assert standard.split(" | ")[column] == "– (none seen)"
    assert "What the switched rules mean: " in markdown and "`opp_cap`: with win_by_contract_only" in markdown
    for _, sentence in findings:
        assert not re.search(r"`\w+=[\w-]+` (has|moves)", sentence), sentence  # a switch named with its meaning


def test_the_report_defines_the_headline_names_its_verdicts_use():
    from analyzer.reporting.content import _headlines_text

    assert _headlines_text(get_game("chase-ace")) == (
        "The verdicts judge each seat by its headline outcome: `lose_life` (hands mode): probability the seat loses "
        "a life; `win` (games mode): probability the seat wins the game outright."
    )
    assert "`net` (hands and games modes): " in _headlines_text(get_game("fan-tan"))
