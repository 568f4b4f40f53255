"""analyze ace-chasing through the generic command line: odds, grouped tables, games."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from analyzer.cli.main import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def test_hand_mode_shows_knockout_odds_and_the_table_by_dealt_card():
    result = invoke("ace-chasing", "--players", "6", "--hands", "50000", "--variant", "with-bets")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "the matador in seat 5" in text and "(* matador)" in text
    assert "probability the matador is knocked out" in text
    assert "fair odds for a bet against the matador" in text and "to 1 against" in text
    assert "by the bettor's dealt card" in text
    for face in ("A", "10", "K"):
        assert f"\n  {face:>3}  " in text


def test_json_has_odds_and_conditional_means():
    result = invoke("ace-chasing", "--players", "5", "--hands", "40000", "--json")
    summary = json.loads(result.stdout)
    records = {(r["seat"], r["outcome"]): r for r in summary["results"]}
    p = records[("table", "knocked_out")]["mean"]
    odds = records[("table", "knocked_out_fair_odds")]
    assert abs(odds["mean"] - (1 - p) / p) < 1e-9 and odds["ci_low"] < odds["mean"] < odds["ci_high"]
    ace = records[("table", "unit_bet_A")]
    assert -1 <= ace["mean"] <= 1 and ace["se"] > 0
    assert ("table", "unit_bet_A_count") not in records


def test_games_mode_places_and_wins():
    result = invoke("ace-chasing", "--players", "6", "--games", "5000", "--json")
    summary = json.loads(result.stdout)
    records = {(r["seat"], r["outcome"]): r for r in summary["results"]}
    assert abs(sum(records[(s, "win")]["mean"] for s in range(6)) - 1) < 1e-9
    assert abs(sum(records[(s, "place")]["mean"] for s in range(6)) - 21) < 1e-9


def test_exact_replay_rules_and_bench_work_for_ace_chasing():
    exact = invoke("exact", "ace-chasing", "--players", "4", "--strategy", "never-swap", "--fractions")
    assert exact.exit_code == 0, exact.output
    assert "knocked_out" in exact.stdout and "/" in exact.stdout
    replay = invoke("replay", "ace-chasing", "--seed", "2", "--hand", "5", "--players", "5")
    assert replay.exit_code == 0 and "matador" in replay.stdout
    rules = invoke("rules", "ace-chasing")
    for word in (
        "next_matador",
        "king_block",
        "betting",
        "bet_direction",
        "left-rotation",
        "with-bets",
        "bet_cap",
        "matador_right_threshold",
    ):
        assert word in rules.stdout
    bench = invoke("bench", "--game", "ace-chasing", "--hands", "20000", "--twin-hands", "200", "--repeats", "1")
    rows = [line.split()[1] for line in bench.stdout.splitlines() if line.startswith("ace-chasing")]
    assert rows == ["4", "8", "20", "swap", "matador_right"]  # the hands, then each advice decision


def test_bad_inputs_exit_2_with_one_sentence():
    for args, message in (
        (["ace-chasing", "--players", "3"], "4 to 52"),
        (["ace-chasing", "--players", "53"], "4 to 52"),
        (["ace-chasing", "--rule", "next_matador=up"], "right | left"),
        (["ace-chasing", "--policy", "bet_min_rank=15"], "1..14"),
        (["exact", "ace-chasing", "--players", "7"], "at most 6"),
    ):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output and "Traceback" not in result.output
