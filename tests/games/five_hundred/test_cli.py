"""analyze five-hundred through the generic command line: the hand table with contracts
as small tables, game mode, presets, replay, bench, optimize, bad input."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from analyzer.cli.main import app

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
    for name in (
        "contractor (95% CI)",
        "made (95% CI)",
        "score (95% CI)",
        "probability all four pass",
        "probability each contract is the final bid",
        "probability the contract is made, when it is bid",
    ):
        assert name in text, name
    summary = json.loads(invoke("five-hundred", "--hands", "20000", "--json").stdout)
    records = records_of(summary)
    assert records[(0, "score")]["mean"] == records[(2, "score")]["mean"]
    bids = sum(
        records[("table", f"bid_{label}")]["mean"]
        for label in [f"{k}{d}" for k in range(6, 11) for d in ("s", "c", "d", "h", "nt")] + ["mis", "om"]
    )
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
    for word in (
        "deck",
        "all_pass",
        "misere_rank",
        "misere_needs_7",
        "open_misere_rank",
        "open_misere_anytime",
        "allow_misere",
        "first_lead",
        "nt_joker",
        "om_expose",
        "misere_opp_score",
        "win_by_contract_only",
        "opp_cap",
        "bid_offset",
        "misere_max",
        "seed-literal",
        "us",
    ):
        assert word in listing, word
    replay = invoke("replay", "five-hundred", "--seed", "0", "--hand", "3")
    assert replay.exit_code == 0, replay.output
    assert "call: seat 0" in replay.stdout and "kitty:" in replay.stdout
    bench = invoke(
        "bench",
        "--game",
        "five-hundred",
        "--hands",
        "2000",
        "--twin-hands",
        "5",
        "--repeats",
        "1",
        "--advice-deals",
        "100",
    )
    rows = [line.split()[1] for line in bench.stdout.splitlines() if line.startswith("five-hundred")]
    assert rows == ["4", "bid", "discard"]  # the hand row, then advice at each decision


def test_optimize_answers_how_aggressively_to_bid():
    result = invoke("optimize", "five-hundred", "--games", "200", "--rounds", "1")
    assert result.exit_code == 0, result.output
    assert "the best bid_offset for each seat by win" in result.stdout


def test_bad_inputs_exit_2_with_one_sentence():
    for args, message in (
        (["five-hundred", "--players", "3"], "4 players"),
        (["five-hundred", "--rule", "deck=52"], "43 | 45 | 46"),
        (["five-hundred", "--rule", "opp_cap=500"], "0..490"),
        (["five-hundred", "--rule", "nt_joker=wild"], "contractor-may-nominate"),
        (["five-hundred", "--policy", "bid_offset=4"], "-3..3"),
        (["five-hundred", "--seat", "4:bid_offset=1"], "seat 4"),
        (["five-hundred", "--variant", "hoyle"], "seed-literal"),
        (["five-hundred", "--hands", "1e"], "not a number"),
    ):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output and "Traceback" not in result.output, (args, result.output)
        assert len([line for line in result.output.splitlines() if line.strip()]) == 1, (args, result.output)


def test_opp_cap_below_100_caps_the_replayed_points_and_the_hand_outcome_alike():
    """Hand 0 of seed 42: 6H by seat 0 fails and the defence takes 8 tricks, 80 for tricks.
    Under opp_cap=30 (win_by_contract_only) the defence reaches 30 from 0-0: the replay's
    points line, its totals line and the hand's outcome row (score, defence_score) all say
    30; the contracting side's -100 (score, value_6h) is never capped."""
    result = invoke(
        "replay", "five-hundred", "--players", "4", "--hand", "0", "--seed", "42", "--rule", "opp_cap=30", "--json"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    steps = data["steps"]
    assert "trick 10: seat 3 8d, seat 0 Ks, seat 1 Js, seat 2 Jc; seat 3 wins with 8d (sides 2-8)" in steps
    assert "points: side 0 -100, side 1 +30 (side 1 80 for tricks, held to opp_cap 30)" in steps
    assert "totals: side 0 -100, side 1 30" in steps
    outcome = data["outcome"]
    assert [outcome[str(seat)]["score"] for seat in range(4)] == [-100, 30, -100, 30]
    assert outcome["table"]["defence_score"] == 30 and outcome["table"]["declarer_score"] == -100
    assert outcome["table"]["value_6h"] == -100
    # the default cap (490) leaves the 80 alone
    steps = json.loads(invoke("replay", "five-hundred", "--hand", "0", "--seed", "42", "--json").stdout)["steps"]
    assert "points: side 0 -100, side 1 +80" in steps and "totals: side 0 -100, side 1 80" in steps


def test_opp_cap_acts_in_hand_mode_without_a_games_only_note():
    capped = json.loads(invoke("five-hundred", "--hands", "4000", "--rule", "opp_cap=30", "--json").stdout)
    free = json.loads(invoke("five-hundred", "--hands", "4000", "--json").stdout)
    assert not any("opp_cap" in note for note in capped.get("notes", []))
    capped, free = records_of(capped), records_of(free)
    assert 0 < capped[("table", "defence_score")]["mean"] < free[("table", "defence_score")]["mean"]
    assert capped[("table", "defence_score")]["mean"] <= 30
    assert capped[("table", "declarer_score")]["mean"] == free[("table", "declarer_score")]["mean"]
    for seat in range(4):
        assert capped[(seat, "score")]["mean"] < free[(seat, "score")]["mean"]
