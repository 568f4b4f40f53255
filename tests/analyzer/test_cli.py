"""The analyze command line through Typer's CliRunner: happy paths and every bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from analyzer.cli.main import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def run_json(*args):
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_headline_table_shows_every_seat_with_intervals():
    result = invoke("chase-ace", "--players", "8", "--hands", "2e4")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Chase the Ace: 8 players, 20,000 hands" in text
    assert "lose_life (95% CI)" in text
    for seat in range(8):
        assert f"\n{seat:>3}" in text
    assert "7*" in text and "players losing a life per round" in text


def test_json_object_has_the_documented_fields():
    summary = run_json("chase-ace", "--players", "4", "--hands", "200_000", "--strategy", "never-swap", "--seed", "3")
    for key in ("game", "mode", "players", "seed", "hands", "rules", "policy", "elapsed_s", "results"):
        assert key in summary
    assert (summary["game"], summary["mode"], summary["players"], summary["hands"]) == ("chase-ace", "hands", 4, 200000)
    assert summary["rules"]["tie"] == "all-lowest-lose" and summary["policy"][0]["threshold"] == 0
    lose = [r for r in summary["results"] if r["outcome"] == "lose_life"]
    assert [r["seat"] for r in lose] == [0, 1, 2, 3]
    for record in lose:  # no swaps, 4 players: 0.28029 exactly (rules 1.10)
        assert abs(record["mean"] - 0.28029) < 4.5 * record["se"]
        assert record["ci_low"] < record["mean"] < record["ci_high"]


def test_counts_accept_all_spellings():
    for text, expected in (("1e4", 10000), ("12_000", 12000), ("5k", 5000)):
        assert run_json("chase-ace", "--hands", text)["hands"] == expected


def test_games_mode_reports_wins_net_and_rounds():
    summary = run_json("chase-ace", "--players", "5", "--games", "3000", "--rule", "lives=2")
    assert summary["mode"] == "games" and summary["games"] == 3000
    by = {(r["seat"], r["outcome"]): r for r in summary["results"]}
    total_win = sum(by[(s, "win")]["mean"] for s in range(5))
    assert 0.95 < total_win + by[("table", "final_tie")]["mean"] <= 1.0 + 1e-9
    assert abs(sum(by[(s, "net_chips")]["mean"] for s in range(5))) < 1e-9
    assert by[("table", "rounds")]["mean"] > 5


def test_variant_sets_players_and_policy():
    summary = run_json("chase-ace", "--variant", "le-her", "--hands", "100000")
    assert summary["players"] == 2 and summary["rules"]["tie"] == "ties-to-dealer"
    assert [row["threshold"] for row in summary["policy"]] == [7, 8]
    record = next(r for r in summary["results"] if r["seat"] == 0 and r["outcome"] == "lose_life")
    assert abs(1 - record["mean"] - 2828 / 5525) < 4.5 * record["se"]


def test_rule_policy_and_seat_overrides_reach_the_kernel():
    summary = run_json(
        "chase-ace",
        "--players",
        "3",
        "--hands",
        "1000",
        "--rule",
        "kings=stop-all-on-attempt",
        "--rule",
        "ace_high=true",
        "--policy",
        "threshold=5",
        "--seat",
        "2:informed=0",
    )
    assert summary["rules"]["kings"] == "stop-all-on-attempt" and summary["rules"]["ace_high"] is True
    assert [row["threshold"] for row in summary["policy"]] == [5, 5, 5]
    assert [row["informed"] for row in summary["policy"]] == [1, 1, 0]


def test_out_writes_csv_json_and_chart(tmp_path):
    result = invoke("chase-ace", "--players", "4", "--hands", "5000", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["chase-ace-4p-hands-seed0.csv", "chase-ace-4p-hands-seed0.json", "chase-ace-4p-hands-seed0.png"]
    assert all((tmp_path / name).stat().st_size > 100 for name in files)
    assert (tmp_path / files[0]).read_text().startswith("scope,seat,outcome,mean,se,ci_low,ci_high,hands\nseat,0,")


def test_same_seed_same_numbers_and_threads_do_not_matter():
    one = run_json("chase-ace", "--hands", "30000", "--seed", "7", "--threads", "1")["results"]
    two = run_json("chase-ace", "--hands", "30000", "--seed", "7", "--threads", "2")["results"]
    assert one == two


def test_target_se_stops_early():
    summary = run_json("chase-ace", "--hands", "5M", "--target-se", "0.01")
    assert summary["hands"] < 5_000_000
    assert max(r["se"] for r in summary["results"] if r["se"] is not None) < 0.01


def test_rules_lists_every_key_field_and_preset():
    result = invoke("rules", "chase-ace")
    assert result.exit_code == 0
    for word in (
        "lives",
        "tie",
        "kings",
        "king_reveal",
        "dealer_king_block",
        "queens",
        "jacks",
        "final_tie",
        "ace_high",
        "cancel-matches",
        "skip-to-next",
        "carry-no-stake",
        "threshold",
        "threshold_mix",
        "informed",
        "seed-house",
        "ethier",
        "le-her",
        "never-swap",
    ):
        assert word in result.stdout


def test_replay_shows_the_hand_in_card_notation():
    result = invoke("replay", "chase-ace", "--seed", "4", "--hand", "17", "--players", "5")
    assert result.exit_code == 0, result.output
    assert "seed 4" in result.stdout and "17" in result.stdout
    assert any(suit in result.stdout for suit in ("c ", "d ", "h ", "s "))
    assert "lose" in result.stdout.lower()


def test_exact_prints_fractions():
    result = invoke("exact", "chase-ace", "--variant", "le-her", "--fractions")
    assert result.exit_code == 0, result.output
    assert "2697/5525" in result.stdout  # the non-dealer loses with 1 - 2828/5525


@pytest.mark.slow
def test_bench_prints_rates_for_kernel_and_twin():
    # one game: every game's tests/games/<game>/test_cli.py benches its own tables and decisions
    result = invoke("bench", "--game", "chase-ace", "--hands", "20000", "--twin-hands", "300", "--advice-deals", "300")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line.startswith("chase-ace")]
    assert [line.split()[1] for line in lines] == ["4", "8", "20", "swap", "cut"]  # hands, then advice


@pytest.mark.slow
def test_bench_times_kernels_against_c_and_another_checkout():
    """--c-reference builds the C program and its sums agree (needs gcc); --against times
    this checkout against a checkout (itself here): rates and a ratio for each table."""
    import shutil
    from pathlib import Path

    import sims

    if shutil.which("gcc") is not None:
        result = invoke("bench", "--c-reference", "--game", "ace-chasing", "--hands", "2000", "--repeats", "1")
        assert result.exit_code == 0, result.output
        rows = [line.split() for line in result.stdout.splitlines() if line.startswith("ace-chasing")]
        assert [row[1] for row in rows] == ["4", "8", "20"] and all(row[-1].endswith("x") for row in rows)
        assert "the sums agree" in result.stdout
    root = str(Path(sims.__file__).resolve().parent.parent)
    result = invoke("bench", "--against", root, "--game", "ace-chasing", "--hands", "2000", "--repeats", "1")
    assert result.exit_code == 0, result.output
    (row,) = [line.split() for line in result.stdout.splitlines() if line.startswith("ace-chasing")]
    assert row[1].endswith("ns") and row[2].endswith("ns") and row[3].endswith("x")


BAD_INPUTS = [
    (["no-such-game"], "unknown game or command 'no-such-game'"),
    (["chase_ace"], "did you mean chase-ace?"),
    (["rules", "no-such-game"], "unknown game"),
    (["rules", "chase-ace", "extra"], "unexpected extra argument"),
    (["chase-ace", "--bogus"], "no such option: --bogus"),
    (["chase-ace", "--hands"], "requires an argument"),
    (["sweep", "chase-ace"], "missing option '--param'"),
    (["chase-ace", "--players", "1"], "2 to 51 players"),
    (["chase-ace", "--players", "52"], "2 to 51 players"),
    (["chase-ace", "--players", "abc"], "--players takes a whole number, not 'abc'"),
    (["chase-ace", "--players", "３"], "--players takes a whole number"),
    (["chase-ace", "--seed", "-1"], "--seed must be a whole number from 0 to 18446744073709551615, not -1"),
    (["chase-ace", "--seed", str(2**64)], "--seed must be a whole number from 0 to"),
    (["chase-ace", "--seed", "1e3"], "--seed takes a whole number"),
    (["chase-ace", "--hands", "0"], "--hands must be positive, not 0"),
    (["chase-ace", "--hands", "-5"], "--hands must be positive, not -5"),
    (["chase-ace", "--hands", "-1e3"], "must be positive"),
    (["chase-ace", "--hands", "1e"], "not a number"),
    (["chase-ace", "--hands", "1,,000"], "not a number"),
    (["chase-ace", "--hands", "10,00"], "not a number"),
    (["chase-ace", "--hands", "1__000"], "not a number"),
    (["chase-ace", "--hands", "１０００"], "not a number"),
    (["chase-ace", "--hands", "nan"], "not a number"),
    (["chase-ace", "--hands", "5MM"], "not a number"),
    (["chase-ace", "--hands", "2.5"], "whole number"),
    (["chase-ace", "--hands", "1e30"], "too large"),
    (["chase-ace", "--hands", "10", "--games", "10"], "not both"),
    (["chase-ace", "--rule", "colour=red"], "unknown rule 'colour'"),
    (["chase-ace", "--rule", "tie=coin-flip"], "tie of chase-ace takes"),
    (["chase-ace", "--rule", "lives=0"], "lives of chase-ace must be in 1..10"),
    (["chase-ace", "--rule", "ace_high=maybe"], "true or false"),
    (["chase-ace", "--rule", "lives"], "KEY=VALUE"),
    (["chase-ace", "--policy", "bluff=1"], "unknown policy field 'bluff'"),
    (["chase-ace", "--policy", "threshold=14"], "must be in 0..13"),
    (["chase-ace", "--policy", "threshold_mix=1.5"], "must be in 0..1"),
    (["chase-ace", "--policy", "threshold=6.5"], "whole number"),
    (["chase-ace", "--seat", "8:threshold=3"], "seat 8 does not exist"),
    (["chase-ace", "--seat", "threshold=3"], "SEAT:KEY=VALUE"),
    (["chase-ace", "--strategy", "psychic"], "unknown strategy"),
    (["chase-ace", "--strategy", ""], "unknown strategy ''"),
    (["chase-ace", "--variant", "vegas"], "unknown variant"),
    (["chase-ace", "--variant", ""], "unknown variant ''"),
    (["chase-ace", "--rule", "tie=ties-to-dealer"], "two-player"),
    (["chase-ace", "--threads", "0"], "--threads"),
    (["chase-ace", "--threads", "abc"], "--threads takes a whole number"),
    (["chase-ace", "--target-se", "0"], "--target-se must be a positive number, not 0"),
    (["chase-ace", "--target-se", "nan"], "--target-se must be a positive number"),
    (["chase-ace", "--target-se", "abc"], "--target-se takes a positive number"),
    (["exact", "chase-ace", "--players", "8"], "at most"),
    (["exact", "chase-ace", "--players", "abc"], "--players takes a whole number"),
    (["replay", "chase-ace", "--hand", str(2**64)], "--hand must be a whole number from 0 to 18446744073709551615"),
    (["replay", "chase-ace", "--hand", "-1"], "--hand must be a whole number from 0"),
    (["replay", "chase-ace", "--hand", ""], "--hand takes a whole number"),
    (["bench", "--game", ""], "unknown game ''"),
    (["bench", "--repeats", "21"], "--repeats must be a whole number from 1 to 20"),
    (["optimize", "chase-ace", "--rounds", "0"], "--rounds must be a whole number from 1 to 50"),
    (["optimize", "chase-ace", "--field", ""], "unknown policy field ''"),
    (["sweep", "chase-ace", "--param", "threshold", "--seat", ""], "--seat takes a seat number"),
    (["report", "chase-ace", "--format", "pdf"], "--format takes md or html"),
    (["report", "chase-ace", "--hands", "1"], "--hands must be at least 100 for a report, not 1"),
    (["chase-ace", "--players", "x", "--seed", "y"], "--players takes a whole number, not 'x'"),  # the first named
    (["bench", "--c-reference", "--against", "."], "give either --c-reference or --against, not both"),
    (["bench", "--against", ".", "--tables"], "leave out --tables/--table"),
    (["bench", "--against", "/no/such/folder"], "is not a checkout of card-analyzer"),
    (["bench", "--c-reference", "--game", "fan-tan"], "Fan Tan has no C reference"),
]


@pytest.mark.parametrize("args,message", BAD_INPUTS, ids=[" ".join(a) for a, _ in BAD_INPUTS])
def test_bad_input_is_one_sentence_and_exit_code_2(args, message, cli):
    """What the console entry prints: one line on stderr, nothing on stdout, exit code 2,
    the usage errors of the command-line library included."""
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and lines[0].endswith("."), lines
