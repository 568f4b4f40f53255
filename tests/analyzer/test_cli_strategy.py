"""analyze sweep, optimize, compare and report through the command line, bad input included,
and a quick report for every registered game."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from analyzer.cli.main import app
from sims.registry import GAMES

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def ok(*args):
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_sweep_of_one_seat_prints_every_outcome_with_paired_differences(tmp_path):
    text = ok("sweep", "chase-ace", "--param", "threshold=5:9:2", "--seat", "0", "--hands", "40000", "--out", tmp_path)
    assert "sweep of threshold for seat 0, 40,000 hands per value, every value on the same hands" in text
    assert "lose_life (95% CI)" in text and "exchange (95% CI)" in text and "lose_life vs 7 (± se)" in text
    assert "lose_life seat 7" in text and "losers" in text
    rows = [line.split() for line in text.splitlines() if re.match(r"\s+[579]\s+0\.", line)]
    assert [row[0] for row in rows[:3]] == ["5", "7", "9"]
    assert "(reference)" in rows[1]
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["chase-ace-8p-sweep-threshold-seat0.csv", "chase-ace-8p-sweep-threshold-seat0.png"]
    assert all((tmp_path / name).stat().st_size > 500 for name in files)


def test_sweep_json_of_every_seat_together_and_choice_fields():
    summary = json.loads(ok("sweep", "fan-tan", "--param", "style", "--hands", "3000", "--json"))
    assert summary["seat"] is None and summary["values"] == [0, 1, 2, 3, 4]
    texts = {r["value_text"] for r in summary["results"]}
    assert texts == {"first", "random", "hold-sevens", "block", "greedy-unlock"}
    for value in range(5):  # chips are conserved at every point
        nets = [r["mean"] for r in summary["results"] if r["value"] == value and r["outcome"] == "net"]
        assert len(nets) == 4 and abs(sum(nets)) < 1e-9


def test_sweep_target_se_stops_before_the_cap():
    summary = json.loads(
        ok(
            "sweep",
            "chase-ace",
            "--players",
            "4",
            "--param",
            "threshold=5:7",
            "--seat",
            "1",
            "--hands",
            "20M",
            "--target-se",
            "0.005",
            "--json",
        )
    )
    assert summary["hands"] < 20_000_000
    assert max(r["se"] for r in summary["results"]) < 0.005


@pytest.mark.slow
def test_optimize_reports_best_responses_and_an_equilibrium():
    text = ok("optimize", "chase-ace", "--players", "4", "--field", "threshold=3:8", "--hands", "50000")
    assert "the best threshold for each seat by lose_life (lower is better)" in text
    assert "Best response of each seat" in text and "gain on fresh hands (± se)" in text and "runner-up" in text
    assert "Iterated best response" in text and "round 1: threshold =" in text
    summary = json.loads(
        ok("optimize", "chase-ace", "--players", "4", "--field", "threshold=3:8", "--hands", "50000", "--json")
    )
    assert [r["seat"] for r in summary["best_responses"]] == [0, 1, 2, 3]
    for record in summary["best_responses"]:
        assert record["best"] in record["tied"] and record["current"] == 7
        assert record["tie"] == (len(record["tied"]) > 1)
    equilibrium = summary["equilibrium"]
    states = [[7, 7, 7, 7]] + equilibrium["rounds"]  # the start, then the state after each round
    if equilibrium["converged"]:
        assert states[-1] == states[-2] == equilibrium["values"]  # the last round moved nobody
    elif equilibrium["cycled"]:
        assert states[-1] in states[:-2]
    else:
        assert len(equilibrium["rounds"]) == 6
    per_seat = equilibrium["per_seat"]
    assert [d["seat"] for d in per_seat] == [0, 1, 2, 3]
    for record in per_seat:
        assert abs(record["difference"] - (record["other"] - record["base"])) < 1e-12 and record["se"] > 0


def test_optimize_two_player_constant_sum_game_gives_mixed_strategies():
    text = ok("optimize", "chase-ace", "--variant", "le-her", "--field", "threshold=5:9", "--hands", "300k")
    assert "Matrix game over threshold = 5..9" in text and "constant-sum" in text
    assert "seat 0 plays threshold=6 with" in text and "seat 1 plays threshold=7 with" in text
    assert "Iterated best response" not in text


def test_optimize_defaults_to_the_games_strategy_mode():
    summary = json.loads(ok("optimize", "all-fours", "--field", "beg_below=1:3", "--games", "1000", "--json"))
    assert summary["mode"] == "games" and summary["headline"] == "win"
    assert summary["matrix_game"]["constant_sum"] is True


def test_compare_two_variants_and_a_rule_set():
    text = ok(
        "compare",
        "chase-ace",
        "--variant",
        "standard",
        "--variant",
        "seed-house",
        "--players",
        "4",
        "--hands",
        "100000",
    )
    assert "standard vs seed-house: 100,000 hands each, on the same hands" in text
    assert "rule tie: all-lowest-lose | cancel-matches" in text
    assert "variance reduction" in text and "independent se" in text
    summary = json.loads(
        ok("compare", "chase-ace", "--rule", "tie=cancel-matches", "--players", "4", "--hands", "100000", "--json")
    )
    assert summary["labels"] == ["standard", "tie=cancel-matches"]
    records = summary["differences"]["tie=cancel-matches"]
    lose = [r for r in records if r["outcome"] == "lose_life"]
    assert len(lose) == 4 and all(r["se"] < r["se_independent"] for r in lose)
    assert all(abs(r["difference"] - (r["other"] - r["base"])) < 1e-12 for r in records)


def strict_json(text: str):
    def refuse(constant):
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_compare_a_rule_set_on_top_of_a_variant_in_strict_json():
    summary = strict_json(
        ok(
            "compare",
            "chase-ace",
            "--variant",
            "ethier",
            "--rule",
            "lives=5",
            "--players",
            "4",
            "--hands",
            "2000",
            "--json",
        )
    )
    assert summary["labels"] == ["ethier", "ethier + lives=5"] and summary["changed"] == ["rule lives: 3 | 5"]
    records = summary["differences"]["ethier + lives=5"]
    assert all(r["difference"] == 0 and r["se"] == 0 and r["variance_reduction"] is None for r in records)


def test_compare_target_se_and_a_variant_against_the_standard_rules():
    summary = json.loads(
        ok("compare", "fan-tan", "--variant", "pot-only", "--hands", "5M", "--target-se", "0.1", "--json")
    )
    assert summary["labels"] == ["standard", "pot-only"] and summary["hands"] < 5_000_000
    assert max(r["se"] for r in summary["differences"]["pot-only"]) < 0.1


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_quick_report_for_every_game(tmp_path, name):
    text = ok("report", name, "--hands", "1500", "--out", tmp_path)
    report = tmp_path / name / "README.md"
    assert f"wrote {report}" in text
    body = report.read_text()
    for heading in (
        "## Verdicts",
        "## The value of every decision",
        "## Rules and policies used",
        "## One hand at a time (hand mode)",
        "## Whole games (game mode)",
        "## Strategy: ",
        "### Equilibrium of ",
        "## House rules",
    ):
        assert heading in body, heading
    assert "Generated by `analyze report" in body and "seed 0" in body and "kernel version" in body
    assert "## Contents" in body and "- [Verdicts](#verdicts)" in body
    assert body.index("## Verdicts") < body.index("## One hand at a time")
    assert 5 <= len(body.split("## Verdicts")[1].split("\n## ")[0].strip().splitlines()) <= 10
    assert ("## Decision guide" in body) is bool(GAMES[name].guides())
    # reads as sentences: no nan, no raw bin labels (1_16, 23_up, length_9_up), every guide's field stated
    assert re.findall(r"\bnan\b|\b\d+_(?:\d+|up)\b|\bunder_\d+\b|\blength_", body) == []
    assert body.count("Assumed in every cell: ") == len(GAMES[name].guides())
    for line in body.split("## Verdicts")[1].split("\n## ")[0].splitlines():  # a switch named with its meaning
        assert not re.search(r"`\w+=[\w-]+` (has|moves)", line), line
    if name == "chase-ace":  # the hand-mode table holds the same numbers as a plain run
        from analyzer.present.text import estimate_text
        from analyzer.run.stats import estimates
        from sims.engine import simulate

        spec = GAMES[name]
        sums = simulate(spec, spec.default_rules(), spec.default_policy(8), 8, 0, 0, 0, 1500)
        seat0 = {e.outcome: e for e in estimates(sums, spec.outcomes[0], 1500) if e.seat == 0}
        assert f"| 0 | {estimate_text(seat0['lose_life'])} | {estimate_text(seat0['exchange'])} |" in body
    pictures = re.findall(r"\]\(([^)]+\.png)\)", body)
    assert len(pictures) >= 4
    for picture in pictures:
        assert (tmp_path / name / picture).stat().st_size > 1000


@pytest.mark.slow
def test_html_report_is_one_self_contained_file(tmp_path):
    ok("report", "fan-tan", "--hands", "1500", "--format", "html", "--out", tmp_path)
    files = list((tmp_path / "fan-tan").iterdir())
    assert [f.name for f in files] == ["report.html"]
    page = files[0].read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count("data:image/png;base64,") >= 4
    assert "<table>" in page and 'src="http' not in page
    assert "<ul><li>" in page and "<p>- " not in page  # the summary is a real list
    assert "<nav>" in page and 'href="#verdicts"' in page and '<h2 id="contents">' not in page


@pytest.mark.parametrize(
    "args, words",
    [
        (["sweep", "chase-ace", "--param", "thresh=1:3"], "unknown policy field 'thresh'"),
        (["sweep", "chase-ace", "--param", "threshold=9:3"], "LO <= HI"),
        (["sweep", "chase-ace", "--param", "threshold=0:20"], "0..13"),
        (["sweep", "chase-ace", "--param", "threshold=1:3", "--seat", "8"], "seat 8 does not exist with 8 players"),
        (["sweep", "chase-ace", "--param", "threshold=1:3", "--seat", "x"], "seat number"),
        (["sweep", "chase-ace", "--param", "threshold=1:3", "--hands", "1e"], "not a number"),
        (["sweep", "chase-ace", "--param", "threshold=1:3", "--target-se", "-1"], "positive"),
        (["sweep", "no-such-game", "--param", "threshold=1:3"], "unknown game"),
        (["optimize", "chase-ace", "--field", "colour"], "unknown policy field 'colour'"),
        (["optimize", "chase-ace", "--players", "1"], "2 to 51"),
        (["optimize", "chase-ace", "--hands", "1", "--games", "1"], "not both"),
        (["compare", "chase-ace"], "give what to compare"),
        (["compare", "chase-ace", "--variant", "nope"], "unknown variant 'nope'"),
        (["compare", "chase-ace", "--rule", "tie=sometimes"], "all-lowest-lose"),
        (["compare", "chase-ace", "--rule", "tie=ties-to-dealer"], "two-player Le Her rule"),
        (["sweep", "chase-ace", "--param", "threshold=1:3", "--hands", "50"], "at least 100"),
        (["compare", "chase-ace", "--variant", "ethier", "--variant", "ethier"], "once"),
        (
            ["compare", "chase-ace", "--variant", "ethier", "--variant", "seed-house", "--rule", "lives=2"],
            "at most one --variant",
        ),
        (["report", "chase-ace", "--format", "pdf"], "md or html"),
        (["report", "no-such-game"], "unknown game"),
    ],
)
def test_bad_strategy_input_exits_2_with_one_sentence(args, words):
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
