"""``analyze advise`` and ``ca.advise``: the JSON contract, the verdict, bad input, and
every decision example of every game run from the command line."""

from __future__ import annotations

import json
import shlex

import pytest
from typer.testing import CliRunner

import analyzer as ca
from analyzer.cli.main import app, run_app
from sims.advice import decisions
from sims.registry import GAMES

runner = CliRunner()
KEYS = ("game", "position", "holding", "context", "deals", "acceptance", "options", "best")
OPTION_KEYS = ("action", "outcome", "mean", "se", "ci_low", "ci_high", "diff", "diff_se")


def advise_json(*args):
    result = runner.invoke(app, ["advise", *args, "--json", "--no-store"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_contract_and_verdict():
    found = advise_json("chase-ace", "--players", "8", "--position", "3", "--holding", "6h", "--hands", "20000")
    for key in KEYS:
        assert key in found
    assert (found["game"], found["position"], found["holding"]) == ("chase-ace", 3, "6h")
    assert found["deals"] >= 20000 and 0.25 < found["acceptance"] < 0.5
    actions = [option["action"] for option in found["options"]]
    assert actions == ["swap", "keep"]
    for option in found["options"]:
        for key in OPTION_KEYS:
            assert key in option
        assert option["outcome"] == "lose_life"
        assert option["ci_low"] < option["mean"] < option["ci_high"]
    best = next(option for option in found["options"] if option["action"] == found["best"])
    other = next(option for option in found["options"] if option["action"] != found["best"])
    assert found["best"] == "keep" and best["diff"] == 0 and best["diff_se"] == 0
    assert other["diff"] > 5 * other["diff_se"] > 0  # keeping a 6 in fourth seat is clearly better
    assert found["verdict"].startswith("keep: lose_life") and "keep is better by" in found["verdict"]


def test_text_output_names_counts_and_verdict():
    result = runner.invoke(
        app,
        [
            "advise",
            "chase-ace",
            "--players",
            "6",
            "--position",
            "2",
            "--holding",
            "5d",
            "--hands",
            "5000",
            "--no-store",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "advice for seat 2 of 6 holding 5d" in result.stdout
    assert "deals accepted of" in result.stdout and "95% interval" in result.stdout
    assert result.stdout.strip().splitlines()[-1].endswith(".")


def test_same_numbers_with_the_store_and_without_and_any_thread_count(tmp_path):
    asked = dict(players=8, position=3, holding="6h", hands=5000, seed=4)
    plain = ca.advise("chase-ace", store=False, threads=1, **asked).summary()
    stored = ca.advise("chase-ace", store=tmp_path / "s.sqlite", threads=2, **asked).summary()
    again = ca.advise("chase-ace", store=tmp_path / "s.sqlite", threads=1, **asked).summary()
    for found in (stored, again):
        assert found["options"] == plain["options"] and found["tried"] == plain["tried"]


def test_api_result_offers_table_plot_and_summary(tmp_path):
    result = ca.advise(
        "chase-ace", players=4, position=3, holding="7c", context={"earlier": "ksk"}, hands=3000, store=False
    )
    frame = result.table()
    assert set(frame["action"]) == {"cut", "keep"} and set(frame["outcome"]) == {"lose_life", "exchange"}
    assert result.summary()["context"]["earlier"] == "ksk"
    assert result.plot() is not None
    paths = result.write(tmp_path / "out")
    assert sorted(path.name for path in paths) == ["advice.csv", "advice.json", "advice.png"]


def test_target_se_stops_once_every_difference_is_precise():
    found = ca.advise("chase-ace", players=8, position=3, holding="6h", hands=10**7, target_se=0.004, store=False)
    assert found.accepted < 10**6
    assert max(option.diff_se for option in found.options if option.action != found.best) < 0.004


@pytest.mark.parametrize(
    "args, says",
    [
        (["chase-ace", "--position", "3"], "--holding is needed"),
        (["chase-ace", "--holding", "6h"], "--position is needed"),
        (["chase-ace", "--position", "3", "--holding", "6q"], "not a card"),
        (["chase-ace", "--position", "x", "--holding", "6h"], "--position"),
        (["chase-ace", "--position", "3", "--holding", "6h", "--context", "gave"], "KEY=VALUE"),
        (["chase-ace", "--position", "3", "--holding", "6h", "--context", "colour=red"], "unknown context"),
        (["chase-ace", "--position", "3", "--holding", "6h", "--hands", "1e"], "--hands"),
        (["chase-ace", "--position", "3", "--holding", "6h", "--players", "99"], "players"),
        (["chase-ace", "--position", "3", "--holding", "Kh"], "must keep"),
        (["chase-ace", "--position", "3", "--holding", "6h", "--rule", "kings=maybe"], "kings"),
        (["no-such-game", "--position", "3", "--holding", "6h"], "unknown game"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_code_2(capsys, args, says):
    assert run_app(["advise", *args, "--no-store"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and says in err and "Traceback" not in err


def test_an_impossible_context_is_refused_in_one_sentence(capsys):
    # seat 2 passed the 6h to seat 3 although seat 3 holds it: no deal matches
    code = run_app(
        [
            "advise",
            "chase-ace",
            "--players",
            "3",
            "--position",
            "2",
            "--holding",
            "2c",
            "--context",
            "gave=Ac",
            "--rule",
            "tie=cancel-matches",
            "--hands",
            "10",
            "--no-store",
            "--policy",
            "threshold=0",
        ]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and "no deal of" in err and len(err.splitlines()) == 1


EXAMPLES = [
    pytest.param(spec.name, decision.example, id=f"{spec.name}-{decision.name}")
    for spec in GAMES.values()
    for decision in decisions(spec)
]


@pytest.mark.parametrize("game, example", EXAMPLES)
def test_every_decision_example_runs(game, example):
    words = shlex.split(example)
    assert words[:3] == ["analyze", "advise", game]
    found = advise_json(*words[2:], "--hands", "300")
    assert found["game"] == game and found["deals"] >= 300
    assert found["best"] in [option["action"] for option in found["options"]]
    assert len(found["options"]) >= 2


@pytest.mark.slow
def test_a_local_cluster_gives_the_numbers_of_this_machine():
    asked = dict(players=8, position=3, holding="6h", hands=3000, seed=2, store=False)
    here = ca.advise("chase-ace", **asked).summary()
    there = ca.advise("chase-ace", cluster="local:1", **asked).summary()
    assert there["options"] == here["options"] and there["tried"] == here["tried"]
