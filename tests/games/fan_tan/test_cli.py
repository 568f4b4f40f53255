"""analyze fan-tan through the generic command line: seat tables, rotations, the 2-player
warning, styles by name, bad input."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from analyzer.cli.main import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def records_of(summary):
    return {(r["seat"], r["outcome"]): r for r in summary["results"]}


def test_hand_mode_table_names_the_styles_and_conserves_chips():
    result = invoke("fan-tan", "--players", "5", "--hands", "20000", "--strategy", "blocker-vs-first")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Fan Tan: 5 players, 20,000 hands" in text and "warning" not in text
    assert "seat 0: style=block pass_with_sevens=0" in text and "seat 1: style=first" in text
    for name in ("win (95% CI)", "net (95% CI)", "passes (95% CI)", "paid (95% CI)", "cards_left (95% CI)"):
        assert name in text
    summary = json.loads(invoke("fan-tan", "--players", "5", "--hands", "20000", "--json").stdout)
    records = records_of(summary)
    assert abs(sum(records[(seat, "net")]["mean"] for seat in range(5))) < 1e-9
    assert abs(sum(records[(seat, "win")]["mean"] for seat in range(5)) - 1) < 1e-9
    assert summary["warnings"] == []


def test_two_players_run_with_a_warning_in_text_and_json():
    result = invoke("fan-tan", "--players", "2", "--hands", "2000")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].startswith("warning: the rules are for 3 to 8 players")
    summary = json.loads(invoke("fan-tan", "--players", "2", "--hands", "2000", "--json").stdout)
    assert len(summary["warnings"]) == 1 and "3 to 8" in summary["warnings"][0]
    replay = invoke("replay", "fan-tan", "--players", "2", "--hand", "1")
    assert replay.exit_code == 0 and replay.stdout.startswith("warning: the rules are for 3 to 8 players")
    assert "warning" not in invoke("replay", "fan-tan", "--players", "3", "--hand", "1").stdout
    listing = invoke("rules", "fan-tan").stdout
    assert "  with 2: the rules are for 3 to 8 players" in listing and "with 3:" not in listing


def test_game_mode_is_a_rotation_with_nets_summing_to_zero():
    summary = json.loads(invoke("fan-tan", "--players", "4", "--games", "3000", "--variant", "hoyle", "--json").stdout)
    assert summary["rules"]["ante"] == 1 and summary["rules"]["uneven_ante"] == "fewer-cards-pay-extra"
    records = records_of(summary)
    assert abs(sum(records[(seat, "net")]["mean"] for seat in range(4))) < 1e-9
    assert abs(sum(records[(seat, "wins")]["mean"] for seat in range(4)) - 4) < 1e-9  # one winner per deal
    text = invoke("fan-tan", "--players", "3", "--games", "1000", "--variant", "sevens-7d").stdout
    assert "seat 2 is the first dealer" in text and "settle=card-count-score" in text and "start=holder-7d" in text


def test_rules_replay_and_bench_work_for_fan_tan():
    rules = invoke("rules", "fan-tan")
    for word in (
        "ante",
        "uneven_ante",
        "start",
        "settle",
        "may_pass_when_able",
        "eight_before_six",
        "pass_fee",
        "card_fee",
        "style",
        "pass_with_sevens",
        "greedy-unlock",
        "hold-sevens",
        "holder-7h",
        "card-count-score",
        "deliberate-pass",
        "blocker-vs-first",
    ):
        assert word in rules.stdout
    replay = invoke("replay", "fan-tan", "--seed", "3", "--hand", "2", "--players", "4")
    assert replay.exit_code == 0, replay.output
    assert "7" in replay.stdout and "seat" in replay.stdout
    bench = invoke(
        "bench",
        "--game",
        "fan-tan",
        "--hands",
        "3000",
        "--twin-hands",
        "20",
        "--repeats",
        "1",
        "--advice-deals",
        "2000",
    )
    rows = [line.split() for line in bench.stdout.splitlines() if line.startswith("fan-tan")]
    assert [row[1] for row in rows] == ["4", "6", "8", "play"]  # the hands rows, then the advice of its example
    assert rows[-1][2] == "3"  # play 8c, 7d or 7h


def test_bad_inputs_exit_2_with_one_sentence():
    for args, message in (
        (["fan-tan", "--players", "1"], "2 to 8"),
        (["fan-tan", "--players", "9"], "2 to 8"),
        (["fan-tan", "--rule", "start=holder-7s"], "eldest"),
        (["fan-tan", "--rule", "ante=21"], "0..20"),
        (["fan-tan", "--rule", "settle=winner-takes-all"], "pot-plus-cards"),
        (["fan-tan", "--policy", "style=clever"], "greedy-unlock"),
        (["fan-tan", "--seat", "7:style=block"], "seat 7"),
        (["fan-tan", "--games", "1e"], "not a number"),
    ):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output and "Traceback" not in result.output, (args, result.output)
