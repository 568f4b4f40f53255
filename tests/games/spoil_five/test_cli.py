"""analyze spoil-five through the generic command line: hand and game tables with chips
conserved, ratio outcomes with intervals, presets, replay, bench, optimize, bad input."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from analyzer.cli.main import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def records_of(summary):
    return {(r["seat"], r["outcome"]): r for r in summary["results"]}


def test_hand_mode_conserves_chips_and_every_hand_is_won_or_spoiled():
    result = invoke("spoil-five", "--players", "5", "--hands", "20000")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith("Spoil Five: 5 players, 20,000 hands")
    for name in (
        "win (95% CI)",
        "spoiler (95% CI)",
        "jinx_called (95% CI)",
        "robbed (95% CI)",
        "net (95% CI)",
        "probability the hand is spoiled",
        "probability someone robs the turn-up",
    ):
        assert name in text
    summary = json.loads(invoke("spoil-five", "--players", "5", "--hands", "20000", "--json").stdout)
    records = records_of(summary)
    carried = records[("table", "carried")]["mean"]
    assert abs(sum(records[(seat, "net")]["mean"] for seat in range(5)) + carried) < 1e-9
    wins = sum(records[(seat, "win")]["mean"] for seat in range(5))
    assert abs(wins + records[("table", "spoil")]["mean"] - 1) < 1e-9
    assert (
        abs(sum(records[(seat, "spoiler")]["mean"] for seat in range(5)) - records[("table", "spoil")]["mean"]) < 1e-9
    )
    assert carried == 10 * records[("table", "spoil")]["mean"]  # a new pool of 5 antes of 2
    assert 0.50 < records[("table", "spoil")]["mean"] < 0.56  # about 0.53 with 5 players (1e6 hands)


def test_game_mode_ratios_carry_intervals_and_chips_are_conserved():
    summary = json.loads(invoke("spoil-five", "--players", "4", "--games", "3000", "--json").stdout)
    records = records_of(summary)
    assert abs(sum(records[(seat, "net")]["mean"] for seat in range(4)) + records[("table", "left")]["mean"]) < 1e-9
    pools = sum(records[(seat, "pools_won")]["mean"] for seat in range(4))  # pools per game, none stopped
    pool_deals = records[("table", "pool_deals")]
    assert abs(pool_deals["mean"] - records[("table", "deals")]["mean"] / pools) < 1e-9
    assert abs(records[("table", "deals")]["mean"] - (pools + records[("table", "spoils")]["mean"])) < 1e-9
    assert 0 < pool_deals["se"] < 0.05 and pool_deals["ci_low"] < pool_deals["mean"] < pool_deals["ci_high"]
    deal_net = records[(0, "deal_net")]
    assert abs(deal_net["mean"] - records[(0, "net")]["mean"] / records[("table", "deals")]["mean"]) < 1e-9
    assert deal_net["se"] > 0
    text = invoke("spoil-five", "--players", "4", "--games", "1000").stdout
    assert "deals per pool (until it is taken)" in text and "chips in the pool when it is taken" in text


def test_game_mode_passes_the_deal_left_after_a_spoiled_hand():
    """The referee's reproduction: 4 deals and seat 2 +3 before the fix (seat 1 dealt twice
    running); now the deal goes 2, 0, 1 and the game ends after that whole round."""
    summary = json.loads(
        invoke(
            "spoil-five",
            "--players",
            "3",
            "--games",
            "1",
            "--seed",
            "2",
            "--rule",
            "ante=0",
            "--rule",
            "topup_amount=0",
            "--rule",
            "dealer_extra=1",
            "--rule",
            "dealer_extra_every_deal=true",
            "--json",
        ).stdout
    )
    records = records_of(summary)
    assert [records[(seat, "net")]["mean"] for seat in range(3)] == [-1, -1, 2]
    assert records[("table", "deals")]["mean"] == 3 and records[("table", "spoils")]["mean"] == 1
    assert summary["kernel_version"] == 2


def test_peel_preset_charges_a_deal_stake_on_every_deal():
    summary = json.loads(invoke("spoil-five", "--games", "2000", "--variant", "peel", "--json").stdout)
    assert summary["rules"]["dealer_extra"] == 1 and summary["rules"]["dealer_extra_every_deal"] is True
    assert summary["rules"]["rob"] == "obligatory-or-forfeit" and summary["rules"]["spoil_topup"] == "everyone"
    records = records_of(summary)
    # a pool taken after d deals holds 5*2 antes + d deal stakes + 5 chips per spoil: 10 + d + 5(d - 1)
    pool_deals, pool_size = records[("table", "pool_deals")]["mean"], records[("table", "pool_size")]["mean"]
    assert abs(pool_size - (10 + pool_deals + 5 * (pool_deals - 1))) < 0.3


def test_a_games_only_rule_in_hand_mode_gets_a_note():
    result = invoke("compare", "spoil-five", "--rule", "dealer_extra_every_deal=true", "--hands", "2000")
    assert result.exit_code == 0, result.output
    assert "note:" in result.output and "dealer_extra_every_deal" in result.output and "--games" in result.output


def test_rules_replay_and_bench_work_for_spoil_five():
    listing = invoke("rules", "spoil-five").stdout
    for word in (
        "plain_lead",
        "follow-or-trump",
        "must-follow",
        "obligatory-or-forfeit",
        "unrobbed_ace_low",
        "ante",
        "dealer_extra",
        "dealer_extra_every_deal",
        "spoil_topup",
        "dealer-only",
        "topup_amount",
        "jinx_bonus",
        "double-ante",
        "max_deals",
        "jinx_min",
        "renege",
        "seed-literal",
        "britannica",
        "peel",
        "dealer-only-topup",
        "ace-low",
        "no-jinx",
        "bold-jinx",
        "no-spoil",
        "no-renege",
    ):
        assert word in listing, word
    replay = invoke("replay", "spoil-five", "--seed", "0", "--hand", "3")
    assert replay.exit_code == 0, replay.output
    assert "turn-up: 5h: hearts are trumps" in replay.stdout and "trick 1: seat 0 6c" in replay.stdout
    assert "result: spoiled by seat 1; the pool of 10 is carried forward" in replay.stdout
    steps = json.loads(invoke("replay", "spoil-five", "--seed", "0", "--hand", "3", "--json").stdout)
    assert steps["outcome"]["table"]["spoil"] == 1 and steps["outcome"]["1"]["spoiler"] == 1
    bench = invoke(
        "bench",
        "--game",
        "spoil-five",
        "--hands",
        "3000",
        "--twin-hands",
        "20",
        "--repeats",
        "1",
        "--advice-deals",
        "200",
    )
    rows = [line.split()[1] for line in bench.stdout.splitlines() if line.startswith("spoil-five")]
    assert rows == ["3", "5", "8", "rob", "jinx", "play"]  # hand rows, then advice at each decision


def test_optimize_answers_when_to_jinx():
    result = invoke("optimize", "spoil-five", "--players", "3", "--games", "400", "--rounds", "2")
    assert result.exit_code == 0, result.output
    assert "the best jinx_min for each seat by deal_net" in result.stdout and "jinx_min tried: 0..3" in result.stdout
    spoil = invoke("optimize", "spoil-five", "--players", "3", "--games", "400", "--rounds", "1", "--field", "spoil")
    assert spoil.exit_code == 0 and "the best spoil for each seat" in spoil.stdout


def test_bad_inputs_exit_2_with_one_sentence():
    for args, message in (
        (["spoil-five", "--players", "1"], "2 to 10"),
        (["spoil-five", "--players", "11"], "2 to 10"),
        (["spoil-five", "--rule", "plain_lead=x"], "follow-or-trump | free | must-follow"),
        (["spoil-five", "--rule", "ante=21"], "0..20"),
        (["spoil-five", "--rule", "max_deals=0"], "1..1000"),
        (["spoil-five", "--rule", "jinx_bonus=triple"], "double-ante"),
        (["spoil-five", "--policy", "jinx_min=4"], "0..3"),
        (["spoil-five", "--policy", "spoil=0.5"], "spoil"),
        (["spoil-five", "--seat", "7:spoil=0"], "seat 7"),
        (["spoil-five", "--variant", "hoyle"], "peel"),
        (["spoil-five", "--hands", "1e"], "not a number"),
    ):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output and "Traceback" not in result.output, (args, result.output)
        assert len([line for line in result.output.splitlines() if line.strip()]) == 1, (args, result.output)
