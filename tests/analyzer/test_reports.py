"""What a report looks like: the summary as a real list, a table of contents whose links
land on headings, an index page for `report all`, charts a reader can take in, a best
and worst seat named only when they really differ, and game-only rules only in game mode."""

from __future__ import annotations

import re

import numpy as np
import pytest

from analyzer.present.charts import (
    MAX_WIDTH,
    difference_heatmap,
    seat_outcome_chart,
    sweep_chart,
)
from analyzer.present.tables import estimates_frame, sweep_frame
from analyzer.present.text import outcome_labels
from analyzer.reporting.content import (
    _default_table,
    _mode_section,
)
from analyzer.reporting.document import (
    Document,
    anchor,
    render_html,
    render_markdown,
    with_contents,
)
from analyzer.reporting.house_rules import house_rules_section
from analyzer.reporting.write import write_index
from analyzer.run.context import RunContext
from sims.registry import GAMES, get_game
from sims.spec import Mode


def _long_document() -> Document:
    document = Document()
    document.heading(1, "Game: strategy report")
    document.paragraph("Opening words.")
    document.heading(2, "Summary")
    document.bullets(["first **finding** with `code`", "second finding"])
    for title in (
        "Rules and policies used",
        "Strategy: threshold",
        "Best `threshold` by table size",
        "House rules (hands mode)",
        "House rules (games mode)",
    ):
        document.heading(2, title)
        document.paragraph(f"About {title}.")
    return document


def test_html_summary_is_a_list_not_paragraphs_with_dashes():
    page = render_html(_long_document(), "t")
    assert "<ul><li>first <b>finding</b> with <code>code</code></li><li>second finding</li></ul>" in page
    assert "<p>- " not in page


def test_a_long_report_opens_with_contents_whose_links_land_on_headings():
    document = with_contents(_long_document())
    text, _ = render_markdown(document)
    assert text.index("## Contents") < text.index("## Summary")
    links = re.findall(r"\]\(#([^)]+)\)", text)
    taken: dict = {}
    headings = {anchor(h, taken) for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}
    assert links and set(links) <= headings
    assert "best-threshold-by-table-size" in links and "house-rules-hands-mode" in links
    page = render_html(document, "t")
    for link in links:  # the same anchors in the HTML page
        assert f'id="{link}"' in page and f'href="#{link}"' in page
    short = Document()
    short.heading(2, "Summary")
    assert with_contents(short).blocks == short.blocks


@pytest.mark.parametrize(
    "report_format,page,entry", [("md", "README.md", "README.md"), ("html", "index.html", "report.html")]
)
def test_the_index_page_links_every_game_report(tmp_path, report_format, page, entry):
    path = write_index(tmp_path, list(GAMES.values()), 1000, 0, report_format)
    assert path == tmp_path / page
    text = path.read_text()
    for name in GAMES:
        assert f"{name}/{entry}" in text
    assert "analyze report all --hands 1000 --seed 0" in text


def _finding(spec, table, mode, count) -> str:
    findings: list[tuple[int, str]] = []
    _mode_section(spec, table, mode, count, 0, RunContext(), Document(), findings)
    return findings[0][1]


def test_best_and_worst_seats_are_named_only_when_their_gap_is_measurable():
    chase = get_game("chase-ace")
    assert "seat 0 has the best lose_life" in _finding(chase, _default_table(chase), Mode.HANDS, 20_000)
    fan_tan = get_game("fan-tan")  # a rotation: every seat deals once, so no seat is favoured
    said = _finding(fan_tan, _default_table(fan_tan), Mode.GAMES, 400)
    assert "no seat's net measurably differs" in said and "has the best" not in said


def test_game_only_rules_are_compared_in_game_mode_only():
    spec = get_game("chase-ace")
    table = _default_table(spec, 4)
    for mode, shown in ((Mode.HANDS, False), (Mode.GAMES, True)):
        document = Document()
        house_rules_section(spec, table, mode, 400, 0, RunContext(), document, [])
        text, _ = render_markdown(document)
        assert ("`lives=1`" in text) is shown and ("`final_tie=replay`" in text) is shown
        assert "`tie=cancel-matches`" in text
        said = "Rules that act only across the deals of a whole game (`lives`, `final_tie`)"
        assert (said in text) is not shown


def _texts(figure):
    return [t for t in figure.findobj(lambda artist: hasattr(artist, "get_fontsize")) if t.get_text()]


def _readable(figure) -> None:
    assert figure.get_figwidth() <= MAX_WIDTH
    assert min(t.get_fontsize() for t in _texts(figure)) >= 7


def test_charts_label_their_axes_with_units_and_stay_readable():
    spec = get_game("chase-ace")
    labels = outcome_labels(spec, Mode.HANDS)
    assert labels["lose_life"] == "probability the seat loses a life"
    records = [
        {
            "seat": s,
            "outcome": "lose_life",
            "mean": 0.1 + s / 100,
            "se": 0.001,
            "ci_low": 0.09 + s / 100,
            "ci_high": 0.11 + s / 100,
        }
        for s in range(8)
    ]
    figure = seat_outcome_chart(estimates_frame(records, 1000, "hands"), "lose_life", "a title", labels["lose_life"])
    _readable(figure)
    assert figure.axes[0].get_ylabel().replace("\n", " ") == "probability the seat loses a life"
    fan_tan = get_game("fan-tan")
    style = fan_tan.policy_field("style")
    points = [
        {
            "field": "style",
            "value": float(v),
            "value_text": style.value_text(v),
            "seat": s,
            "outcome": "net",
            "mean": 0.1 * v - s,
            "se": 0.1,
            "ci_low": 0.1 * v - s - 0.2,
            "ci_high": 0.1 * v - s + 0.2,
        }
        for v in range(5)
        for s in range(4)
    ]
    chart = sweep_chart(
        sweep_frame(points), ["net"], "t", "style", labels=outcome_labels(fan_tan, Mode.HANDS), choices=True
    )
    _readable(chart)
    axes = chart.axes[0]
    assert axes.get_ylabel().replace("\n", " ") == "expected chips won per deal"
    assert all(line.get_linestyle() == "None" for line in axes.lines if len(line.get_xdata()) == 5)
    assert [t.get_text() for t in axes.get_xticklabels()] == list(style.choices)
    numeric = sweep_chart(sweep_frame([{**p, "field": "x"} for p in points]), ["net"], "t", "x")
    assert any(line.get_linestyle() == "-" for line in numeric.axes[0].lines)


def test_house_rule_chart_is_a_heat_map_with_the_error_in_every_cell():
    differences = [[0.02, -0.01, 0.0], [30.0, 31.0, 29.0]]
    errors = [[0.002, 0.02, 0.0], [2.0, 2.0, 2.0]]
    figure = difference_heatmap(
        ["queens=on", "ante=100"], [0, 1, 2], differences, errors, "t", "change in chips", lower_is_better=False
    )
    _readable(figure)
    cells = [t.get_text() for t in figure.axes[0].texts]
    assert cells == ["+0.0200\n±0.002", "-0.010\n±0.02", "0.0000", "+30.0\n±2", "+31.0\n±2", "+29.0\n±2"]
    images = figure.axes[0].get_images()
    shown = np.ma.filled(images[0].get_array(), np.nan)
    assert np.isnan(shown[0, 1]) and np.isnan(shown[0, 2]) and shown[0, 0] > 0  # grey when within 2 se
    assert [t.get_text() for t in figure.axes[0].get_yticklabels()] == ["queens=on", "ante=100"]


def test_house_rules_also_show_the_tables_own_outcomes():
    """Spoil Five's house rules move the spoil rate and the pool, which no seat's net shows
    in a rotation: the table outcomes get their own rows, exact changes without an error."""
    spec = get_game("spoil-five")
    document = Document()
    house_rules_section(spec, _default_table(spec, 4), Mode.GAMES, 400, 0, RunContext(), document, [])
    text, _ = render_markdown(document)
    header = "| switch | `deals` | `pool_deals` | `pool_size` | `spoils` | `truncated` | `left` |"
    rows = {
        line.split(" | ")[0][2:]: line.split(" | ")[1:]
        for line in text.split(header)[1].splitlines()
        if line.startswith("| ")
    }
    assert sum("±" in cell for cell in rows["standard rules (value)"]) >= 3
    assert rows["`ante=0`"][2] == "-8.0000"  # four antes of 2 fewer in every pool taken, exactly
    assert rows["`plain_lead=must-follow`"][3].startswith("+")  # strict following spoils more deals


@pytest.mark.slow
def test_a_report_says_its_sections_on_stderr_and_nothing_of_the_runs_inside_them(cli, tmp_path):
    """One line per section of the report; the stages inside a section (each seat's best
    response, each round of iterated best response) are kept for an interrupt's line only."""
    shown = cli("report", "fan-tan", "--hands", "1000", "--out", str(tmp_path), "--no-store")
    assert shown.exit_code == 0, shown.output
    lines = shown.stderr.splitlines()
    section = re.compile(
        r"fan-tan: (decision guide, [\w-]+|hands mode|games mode|sweeps of \w+|equilibrium of \w+|best responses with \d+ "
        r"players|house rules, (hands|games) mode)"
    )
    assert lines and [line for line in lines if not section.fullmatch(line)] == []
    lines = [line for line in lines if "decision guide" not in line]
    assert lines[:4] == [
        "fan-tan: hands mode",
        "fan-tan: games mode",
        "fan-tan: sweeps of style",
        "fan-tan: equilibrium of style",
    ]


def test_five_hundred_contracts_are_a_level_by_suit_grid_without_nan(cli):
    """`analyze five-hundred` prints each contract family as a grid (levels down, suits
    across, misere apart), a dash for a contract never bid; the report draws each as a
    heat map with the same table."""
    shown = cli("five-hundred", "--hands", "3000", "--no-store")
    assert shown.exit_code == 0, shown.output
    text = shown.stdout
    assert "nan" not in text
    grid = text.split("probability the contract is made, when it is bid")[1].splitlines()
    assert grid[1].split() == ["s", "c", "d", "h", "nt"]
    assert [line.split()[0] for line in grid[2:7]] == ["6", "7", "8", "9", "10"]
    assert grid[7].strip().startswith("mis: ") and "om: " in grid[7]
    assert "–" in text  # 3,000 hands never bid some ten-level contract
    spec = get_game("five-hundred")
    document = Document()
    _mode_section(spec, _default_table(spec), Mode.HANDS, 2000, 0, RunContext(), document, [])
    markdown, images = render_markdown(document)
    assert {"hands-bid-grid.png", "hands-make-grid.png", "hands-value-grid.png"} <= set(images)
    assert "|  | s | c | d | h | nt |" in markdown and "nan" not in markdown
    assert "bid_6s" not in markdown  # the 81 raw columns are gone from the table outcomes


def test_a_distribution_is_drawn_as_a_histogram_with_its_table():
    spec = get_game("fight-for-the-lead")
    document = Document()
    _mode_section(spec, _default_table(spec), Mode.GAMES, 300, 0, RunContext(), document, [])
    markdown, images = render_markdown(document)
    assert "games-length-distribution.png" in images
    assert "### Game length in hands" in markdown and "| 5 to 8 |" in markdown and "_up" not in markdown
    figure_texts = markdown.split("### Game length in hands")[1]
    assert "300 games" in figure_texts


def test_the_value_of_a_decision_names_the_best_value_and_what_the_worst_costs():
    from analyzer.reporting.values import value_table as _value_table
    from analyzer.run.stats import Estimate
    from analyzer.strategy.sweeps import BestResponse, field_range

    spec = get_game("spoil-five")
    values = field_range(spec, "rob")
    point = Estimate(0, "deal_net", 0.0, 0.01, -0.02, 0.02)

    def response(seat: int, cost: float) -> BestResponse:
        return BestResponse(
            seat,
            (0.0, 1.0),
            (point, point),
            1,
            (1,),
            0,
            cost,
            0.003,
            1,
            0.0,
            0.0,
            0.0,
            0.0,
            20_000,
            costs=(cost, 0.0),
            cost_ses=(0.003, 0.0),
        )

    document = Document()
    said = _value_table(spec, 1, "rob", values, [response(0, 0.30), response(1, 0.35)], 20_000, document)
    assert said == (
        "Play `rob` = 1 from every seat. Playing 0 instead costs up to 0.3500 ± 0.003 in deal_net (seat 1); the "
        "default, 1, is as good as the best within two standard errors for every seat (20,000 games per value, paired)."
    )
    text, _ = render_markdown(document)
    assert "| 0 | 0.3000 ± 0.003 | 0.3500 ± 0.003 |" in text and "| 1 (default) | **best** | **best** |" in text


def test_stake_rules_and_simulation_settings_are_shown_apart_from_the_rules_of_play():
    """Spoil Five: a bigger ante or dealer's extra moves every chip figure, and stopping a
    pool after one deal every game figure; neither is how the cards are played, so each
    has its own table and heat map and the verdict names the largest rule of play."""
    spec = get_game("spoil-five")
    document, findings = Document(), []
    house_rules_section(spec, _default_table(spec, 4), Mode.GAMES, 400, 0, RunContext(), document, findings)
    text, images = render_markdown(document)
    play = text.split("### Rules of play (games mode)")[1].split("###")[0]
    stakes = text.split("### Stake rules (games mode)")[1].split("###")[0]
    limits = text.split("### Settings of the simulation (games mode)")[1].split("###")[0]
    assert "`plain_lead=free`" in play and "`ante=" not in play and "`max_deals=1`" not in play
    assert "`ante=0`" in stakes and "`dealer_extra=20`" in stakes and "`plain_lead" not in stakes
    assert "`max_deals=1`" in limits
    assert {"house-rules-games-stakes.png", "house-rules-games-settings.png"} <= set(images)
    said = [text for _, text in findings]
    assert not any("max_deals" in sentence or "ante=" in sentence for sentence in said if "rules of play" in sentence)
    assert any(sentence.startswith("Stakes: ") for sentence in said)
