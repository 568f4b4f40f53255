"""analyze five-hundred through the generic command line: the hand table with contracts
as small tables, game mode, presets, replay, bench, optimize, bad input."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from analyzer.cli import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def records_of(summary):
    return {(r["seat"], r["outcome"]): r for r in summary["results"]}


def test_hand_mode_shows_contracts_and_scores_alike_for_partners():
    result = invoke("five-hundred", "--hands", "20000")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith("Five Hundred: 4 players, 20,000 hands")
    for name in ("contractor (95% CI)", "made (95% CI)", "score (95% CI)", "probability all four pass",
                 "probability each contract is the final bid", "probability the contract is made, when it is bid"):
        assert name in text, name
    summary = json.loads(invoke("five-hundred", "--hands", "20000", "--json").stdout)
    records = records_of(summary)
    assert records[(0, "score")]["mean"] == records[(2, "score")]["mean"]
    bids = sum(records[("table", f"bid_{label}")]["mean"] for label in
               [f"{k}{d}" for k in range(6, 11) for d in ("s", "c", "d", "h", "nt")] + ["mis", "om"])
    assert abs(bids + records[("table", "all_pass")]["mean"] - 1) < 1e-9
    assert abs(records[("table", "joker_in_kitty")]["mean"] - 3 / 43) < 4.5 * records[("table", "joker_in_kitty")]["se"]


def test_game_mode_gives_each_partnership_its_win_probability():
    summary = json.loads(invoke("five-hundred", "--games", "300", "--json").stdout)
    records = records_of(summary)
    wins = records[(0, "win")]["mean"] + records[(1, "win")]["mean"] + records[("table", "truncated")]["mean"]
    assert abs(wins - 1) < 1e-9 and records[(0, "win")]["mean"] == records[(2, "win")]["mean"]
    assert records[("table", "hands")]["mean"] > 3
    text = invoke("five-hundred", "--games", "300").stdout
    assert "game length in hands" in text


def test_presets_rules_replay_and_bench():
    summary = json.loads(invoke("five-hundred", "--hands", "2000", "--variant", "us", "--json").stdout)
    assert summary["rules"]["misere_rank"] == "by-value" and summary["rules"]["win_by_contract_only"] is False
    listing = invoke("rules", "five-hundred").stdout
    for word in ("deck", "all_pass", "misere_rank", "misere_needs_7", "open_misere_rank", "open_misere_anytime",
                 "allow_misere", "first_lead", "nt_joker", "om_expose", "misere_opp_score",
                 "win_by_contract_only", "opp_cap", "bid_offset", "misere_max", "seed-literal", "us"):
        assert word in listing, word
    replay = invoke("replay", "five-hundred", "--seed", "0", "--hand", "3")
    assert replay.exit_code == 0, replay.output
    assert "call: seat 0" in replay.stdout and "kitty:" in replay.stdout
    bench = invoke("bench", "--game", "five-hundred", "--hands", "2000", "--twin-hands", "5", "--repeats", "1")
    assert [line.split()[1] for line in bench.stdout.splitlines() if line.startswith("five-hundred")] == ["4"]


def test_optimize_answers_how_aggressively_to_bid():
    result = invoke("optimize", "five-hundred", "--games", "200", "--rounds", "1")
    assert result.exit_code == 0, result.output
    assert "the best bid_offset for each seat by win" in result.stdout


def test_bad_inputs_exit_2_with_one_sentence():
    for args, message in ((["five-hundred", "--players", "3"], "4 players"),
                          (["five-hundred", "--rule", "deck=52"], "43 | 45 | 46"),
                          (["five-hundred", "--rule", "opp_cap=500"], "0..490"),
                          (["five-hundred", "--rule", "nt_joker=wild"], "contractor-may-nominate"),
                          (["five-hundred", "--policy", "bid_offset=4"], "-3..3"),
                          (["five-hundred", "--seat", "4:bid_offset=1"], "seat 4"),
                          (["five-hundred", "--variant", "hoyle"], "seed-literal"),
                          (["five-hundred", "--hands", "1e"], "not a number")):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output and "Traceback" not in result.output, (args, result.output)
        assert len([line for line in result.output.splitlines() if line.strip()]) == 1, (args, result.output)
