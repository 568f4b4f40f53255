"""analyze all-fours through the generic command line: hand and game tables, the run
distribution, variants and policies by name, bad input."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from analyzer.cli.main import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def records_of(summary):
    return {(r["seat"], r["outcome"]): r for r in summary["results"]}


def test_hand_mode_shows_points_by_seat_and_the_run_distribution():
    result = invoke("all-fours", "--hands", "40000")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "All-Fours: 2 players, 40,000 hands" in text
    assert "beg_below=3 give_at_least=4 bunch_below=2 play_style=greedy (every seat)" in text
    for name in ("points (95% CI)", "high (95% CI)", "low (95% CI)", "jack (95% CI)", "game (95% CI)"):
        assert name in text
    assert "three-card rounds dealt when the dealer runs" in text
    assert "probability the elder begs:" in text and "probability the pack runs out (void deal):" in text


def test_hand_mode_json_points_add_up_and_the_run_distribution_is_conditional():
    summary = json.loads(invoke("all-fours", "--hands", "30000", "--json").stdout)
    records = records_of(summary)
    played = records[("table", "played")]["mean"]
    no_trump = records[("table", "no_trump")]["mean"]  # given that the deal is played
    # High goes to one seat in every played deal with a trump in play, Game in every played deal.
    assert abs(records[(0, "high")]["mean"] + records[(1, "high")]["mean"] - played * (1 - no_trump)) < 1e-9
    assert abs(records[(0, "game")]["mean"] + records[(1, "game")]["mean"] - played) < 1e-9
    runs = sum(records[("table", f"runs_{k}")]["mean"] for k in range(1, 6))
    assert abs(runs - 1) < 1e-9  # a distribution over the deals where the dealer ran
    assert records[(1, "gift")]["mean"] == 0 and records[(0, "turned_jacks")]["mean"] == 0


def test_game_mode_reports_win_probability_of_first_elder_and_dealer():
    result = invoke("all-fours", "--games", "4000", "--variant", "seven-up", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["rules"]["target"] == 7 and summary["variant"] == "seven-up"
    records = records_of(summary)
    assert abs(records[(0, "win")]["mean"] + records[(1, "win")]["mean"] - 1) < 1e-9
    assert records[("table", "deals")]["mean"] >= 2  # 5 points at most in a deal
    text = invoke("all-fours", "--games", "2000", "--seat", "0:beg_below=0").stdout
    assert "seat 0: beg_below=0" in text and "seat 1: beg_below=3" in text
    assert "probability of winning the game" not in text  # help texts are for 'rules'; the table names columns
    assert "win (95% CI)" in text and "deals per game" in text


def test_rules_replay_and_bench_work_for_all_fours():
    rules = invoke("rules", "all-fours")
    for word in (
        "target",
        "gift_then",
        "gift_redeal_same_dealer",
        "gift_cannot_win",
        "after_run",
        "low_to",
        "game_tie",
        "exhaust_keeps_jack_points",
        "bunch",
        "beg_below",
        "give_at_least",
        "bunch_below",
        "play_style",
        "seed-literal",
        "seven-up",
        "foster-club",
        "trick-winner",
        "elder-scores",
    ):
        assert word in rules.stdout
    replay = invoke("replay", "all-fours", "--seed", "3", "--hand", "2")
    assert replay.exit_code == 0, replay.output
    assert "trump" in replay.stdout.lower()
    bench = invoke(
        "bench",
        "--game",
        "all-fours",
        "--hands",
        "5000",
        "--twin-hands",
        "100",
        "--repeats",
        "1",
        "--advice-deals",
        "300",
    )
    rows = [line.split()[1] for line in bench.stdout.splitlines() if line.startswith("all-fours")]
    assert rows == ["2", "beg", "give", "lead"]  # the hand row, then advice at each decision


def test_bad_inputs_exit_2_with_one_sentence():
    for args, message in (
        (["all-fours", "--players", "3"], "takes exactly 2 players"),
        (["all-fours", "--rule", "target=6"], "7..15"),
        (["all-fours", "--rule", "target=16"], "7..15"),
        (["all-fours", "--rule", "after_run=discard"], "keep-all"),
        (["all-fours", "--rule", "gift_then=sometimes"], "play | redeal"),
        (["all-fours", "--policy", "beg_below=16"], "0..15"),
        (["all-fours", "--policy", "play_style=low"], "greedy"),
        (["all-fours", "--variant", "nine-up"], "seven-up"),
        (["all-fours", "--hands", "1e"], "not a number"),
    ):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output and "Traceback" not in result.output, (args, result.output)
