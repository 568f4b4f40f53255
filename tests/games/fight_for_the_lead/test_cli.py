"""analyze fight-for-the-lead through the generic command line: per-seat tables, games with
exact wide chip sums and the largest pot, policy choices by name, bad input."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from analyzer.cli.main import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def records_of(summary):
    return {(r["seat"], r["outcome"]): r for r in summary["results"]}


def test_hand_mode_table_fits_the_screen_and_names_policy_choices():
    result = invoke(
        "fight-for-the-lead", "--players", "4", "--hands", "30000", "--policy", "fight_card=highest-non-ace"
    )
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Fight for the Lead: 4 players, 30,000 hands" in text
    assert "fight_card=highest-non-ace" in text and "play_style=greedy" in text
    for name in ("dropped (95% CI)", "lead (95% CI)", "took_0 (95% CI)", "took_4 (95% CI)", "net (95% CI)"):
        assert name in text
    assert max(len(line) for line in text.splitlines() if line.startswith(("seat", "  0"))) <= 120
    assert "players who pay the pot per hand" in text


def test_hand_mode_json_probabilities_add_up_per_seat():
    summary = json.loads(invoke("fight-for-the-lead", "--players", "5", "--hands", "20000", "--json").stdout)
    records = records_of(summary)
    for seat in range(5):
        total = records[(seat, "dropped")]["mean"] + sum(records[(seat, f"took_{k}")]["mean"] for k in range(5))
        assert abs(total - 1) < 1e-9
        assert records[(seat, "net")]["se"] > 0
    assert abs(sum(records[(seat, "lead")]["mean"] for seat in range(5)) - 1) < 1e-9


def test_games_mode_reports_net_length_truncation_and_the_largest_pot():
    result = invoke("fight-for-the-lead", "--players", "6", "--games", "5000", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    records = records_of(summary)
    # Chips are conserved in every game, so the seats' mean nets add up to zero.
    assert abs(sum(records[(seat, "net")]["mean"] for seat in range(6))) < 1e-9
    assert summary["largest_seen"]["largest_pot"] >= 6 * 2  # at least the first pot (ante 2 each)
    assert ("table", "largest_pot") not in records
    lengths = sum(
        records[("table", f"length_{label}")]["mean"] for label in ("1", "2", "3", "4", "5-8", "9-16", "17-32", "33+")
    )
    assert abs(lengths - 1) < 1e-9
    text = invoke("fight-for-the-lead", "--players", "6", "--games", "3000", "--rule", "max_hands=2").stdout
    assert "largest pot seen:" in text and "game length in hands" in text
    assert "probability a game is stopped (max_hands or overflow):" in text
    stopped = json.loads(
        invoke("fight-for-the-lead", "--players", "6", "--games", "3000", "--rule", "max_hands=1", "--json").stdout
    )
    assert records_of(stopped)[("table", "truncated")]["mean"] > 0.5


def test_rules_replay_and_bench_work_for_fight_for_the_lead():
    rules = invoke("rules", "fight-for-the-lead")
    for word in (
        "ante",
        "dealer_rotates",
        "trade_in_first_hand",
        "trade_order",
        "trade_exhaust",
        "all_drop",
        "fight_exhaust",
        "max_hands",
        "sample_hand",
        "fight_card",
        "stay_min_strength",
        "keep_min_rank",
        "play_style",
        "lowest-of-longest-suit",
        "cap-equal",
        "refund-split",
    ):
        assert word in rules.stdout
    replay = invoke("replay", "fight-for-the-lead", "--seed", "3", "--hand", "2", "--players", "4")
    assert replay.exit_code == 0, replay.output
    assert "lead" in replay.stdout.lower()
    bench = invoke(
        "bench",
        "--game",
        "fight-for-the-lead",
        "--hands",
        "5000",
        "--twin-hands",
        "100",
        "--repeats",
        "1",
        "--advice-deals",
        "200",
    )
    rows = [line.split()[1] for line in bench.stdout.splitlines() if line.startswith("fight-for-the-lead")]
    assert rows[:3] == ["4", "6", "8"] and len(rows) == 6  # hand rows, then advice at each decision


def test_bad_inputs_exit_2_with_one_sentence():
    for args, message in (
        (["fight-for-the-lead", "--players", "1"], "2 to 10"),
        (["fight-for-the-lead", "--players", "11"], "2 to 10"),
        (["fight-for-the-lead", "--players", "10", "--rule", "trade_exhaust=cap-equal"], "reshuffle-discards"),
        (["fight-for-the-lead", "--players", "3", "--rule", "ante=2"], "divisible by 4"),
        (["fight-for-the-lead", "--rule", "max_hands=0"], "1..1000"),
        (["fight-for-the-lead", "--rule", "all_drop=sometimes"], "forced-replay"),
        (["fight-for-the-lead", "--policy", "fight_card=middle"], "lowest"),
        (["fight-for-the-lead", "--policy", "keep_min_rank=16"], "2..15"),
        (["exact", "fight-for-the-lead"], "exact"),
    ):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output and "Traceback" not in result.output, (args, result.output)
