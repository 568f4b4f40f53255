"""``analyze advise`` and ``ca.advise``: the JSON contract, the verdict, bad input, and
every decision example of every game run from the command line."""

from __future__ import annotations

import json
import re
import shlex

import pytest
from typer.testing import CliRunner

import analyzer as ca
from analyzer.cli.main import app, run_app
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
    assert found["verdict"].startswith(
        "against a field playing the default policy (threshold=7, threshold_mix=0, informed=1): keep: lose_life"
    )
    assert "keep is better by" in found["verdict"]


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
    stem = result.file_stem()
    assert re.fullmatch(r"advice-chase-ace-seat3of4-7c-[0-9a-f]{8}", stem)  # the context is in the digest
    assert sorted(path.name for path in paths) == [f"{stem}.csv", f"{stem}.json", f"{stem}.png"]


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
            "--infer",
            "policy",
        ]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and "no deal of" in err and len(err.splitlines()) == 1


def test_a_history_the_field_never_plays_is_answered_as_seen_by_default(capsys):
    # the same history with no --infer: read as seen (the neighbour's exchange played as given), said in one line
    args = ["advise", "chase-ace", "--players", "3", "--position", "2", "--holding", "2c", "--context", "gave=Ac"]
    args += ["--rule", "tie=cancel-matches", "--hands", "200", "--no-store", "--policy", "threshold=0"]
    code = run_app(args)
    out = capsys.readouterr().out
    assert code == 0
    assert "200 deals accepted" in out
    assert "  history  read as seen: under the field's policy 0 of 20,000 deals tried reproduced" in out


EXAMPLES = [
    pytest.param(spec.name, decision.example, id=f"{spec.name}-{decision.name}")
    for spec in GAMES.values()
    for decision in spec.decisions()
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


# ------------------------------------------------------------------ issue 36: every answer states its assumptions

ASKED = dict(players=6, position=2, holding="5h", hands=2000, store=False, threads=1)


def test_the_answer_names_its_rules_field_context_reading_and_ranking():
    found = ca.advise("chase-ace", policy={"threshold": 5}, **ASKED)
    summary = found.summary()
    assert summary["rules"]["tie"] == "all-lowest-lose" and summary["rules"]["lives"] == 3  # choices by name
    seats = summary["policy"]
    assert [seat["seat"] for seat in seats] == list(range(6)) and seats[2]["advised"] is True
    assert all(seat["policy"]["threshold"] == 5 and seat["default"] is False for seat in seats)
    assert seats[0]["text"] == "threshold=5, threshold_mix=0, informed=1"
    assert summary["infer"] == "policy" and summary["infer_switched"] is False and summary["infer_note"] is None
    assert summary["rank_by"] == "lose_life" and summary["rank_lower_is_better"] is True
    assert isinstance(summary["assumed"], dict) and summary["context_given"] == {}
    field = "a field playing a policy other than the default (threshold=5, threshold_mix=0, informed=1)"
    assert summary["field"] == field and summary["verdict"].startswith(f"against {field}: ")
    text = found.text().splitlines()
    assert text[1].startswith("  rules    lives=3; tie=all-lowest-lose;") and text[2] == f"  field    {field}"
    assert text[3].startswith("  context  none given") and text[4].startswith("  history  read under the field")
    assert text[5] == "  ranked   by lose_life (smaller is better)"
    assert field in found.plot().axes[0].get_title().replace("\n", " ")

    default = ca.advise("chase-ace", **ASKED).summary()
    assert all(seat["default"] for seat in default["policy"])
    assert default["verdict"].startswith(
        "against a field playing the default policy (threshold=7, threshold_mix=0, informed=1): "
    )


def test_the_field_is_named_seat_by_seat_where_seats_differ():
    found = ca.advise("chase-ace", seats={0: {"threshold": 4}}, **ASKED)
    assert found.field_text() == (
        "a field of seat 0 playing a policy other than the default (threshold=4, threshold_mix=0, informed=1); "
        + "; ".join(
            f"seat {seat} playing the default policy (threshold=7, threshold_mix=0, informed=1)"
            for seat in (1, 3, 4, 5)
        )
    )


def test_the_csv_carries_the_question_and_its_assumptions_in_leading_columns(tmp_path):
    import pandas as pd

    found = ca.advise("chase-ace", policy={"threshold": 5}, **ASKED)
    paths = found.write(tmp_path)
    frame = pd.read_csv(next(path for path in paths if path.suffix == ".csv"))
    assert list(frame.columns[:10]) == [
        "game",
        "players",
        "position",
        "holding",
        "rules",
        "field",
        "context",
        "assumed",
        "infer",
        "rank_by",
    ]
    assert set(frame["field"]) == {found.field_text()} and set(frame["rank_by"]) == {"lose_life"}
    assert frame["rules"][0].startswith("lives=3; tie=all-lowest-lose")


# ------------------------------------------------------------------ --infer


def _situations(monkeypatch, seen_context):
    """sims.situations.situation recording each ``infer`` asked, reading a history as seen with
    ``seen_context`` in place of the context given (the games implement seen themselves)."""
    import sims.situations

    real = sims.situations.situation
    asked = []

    def situation(spec, rules, n_seats, position, holding, context=None, infer="policy"):
        asked.append(infer)
        if infer == "seen":
            import dataclasses

            return dataclasses.replace(real(spec, rules, n_seats, position, holding, seen_context), infer="seen")
        return real(spec, rules, n_seats, position, holding, context, infer)

    monkeypatch.setattr(sims.situations, "situation", situation)
    return asked


# the field never swaps (threshold=0), yet three earlier players were seen to swap: impossible under the policy
RARE = dict(players=6, position=4, holding="4c", context={"earlier": "sss?"}, policy={"threshold": 0}, seed=1)


def test_a_history_too_rare_under_the_policy_is_read_as_seen_and_says_so(monkeypatch):
    asked = _situations(monkeypatch, {"earlier": "????"})
    found = ca.advise("chase-ace", hands=500, store=False, threads=1, **RARE)
    assert asked == ["policy", "seen"]  # both readings are built; seen differs, so it may be switched to
    summary = found.summary()
    assert summary["infer"] == "seen" and summary["infer_switched"] is True
    assert re.match(r"history read as seen: under the field's policy 0 of [\d,]+ deals tried", summary["infer_note"])
    assert summary["deals"] == 500 and "read as seen" in found.text().splitlines()[4]
    again = ca.advise("chase-ace", hands=500, store=False, threads=1, **RARE).summary()
    assert again["options"] == summary["options"] and again["tried"] == summary["tried"]  # decided from counts


def test_infer_policy_insists_and_infer_seen_is_passed_to_the_game(monkeypatch, capsys):
    asked = _situations(monkeypatch, {"earlier": "????"})
    with pytest.raises(ca.UserError, match="no deal of"):
        ca.advise("chase-ace", hands=1, store=False, threads=1, infer="policy", **RARE)
    assert asked == ["policy"]
    found = ca.advise("chase-ace", hands=300, store=False, threads=1, infer="seen", **RARE).summary()
    assert asked[-1] == "seen" and found["infer"] == "seen" and found["infer_switched"] is False
    assert found["deals"] == 300


def test_a_common_history_stays_under_the_policy(monkeypatch):
    _situations(monkeypatch, {})
    found = ca.advise(
        "chase-ace", context={"earlier": "sk"}, players=6, position=2, holding="5h", hands=800, store=False
    )
    assert found.summary()["infer"] == "policy" and not found.summary()["infer_switched"]


def test_bad_infer_is_one_sentence(capsys):
    code = run_app(["advise", "chase-ace", "--position", "3", "--holding", "6h", "--infer", "maybe", "--no-store"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err == "error: --infer takes policy or seen, not 'maybe'."


# ------------------------------------------------------------------ --rank-by


def test_rank_by_any_outcome_and_an_unknown_one_lists_them(capsys):
    found = advise_json(
        "chase-ace", "--players", "6", "--position", "2", "--holding", "5h", "--hands", "1000", "--rank-by", "exchange"
    )
    assert found["rank_by"] == "exchange" and {option["outcome"] for option in found["options"]} == {"exchange"}
    assert found["best"] == "swap"  # a swap exchanges more often than a keep
    assert (
        "ranked   by exchange"
        in runner.invoke(
            app,
            ["advise", "chase-ace", "--position", "2", "--holding", "5h", "--hands", "500", "--rank-by", "exchange"],
        ).stdout
    )
    code = run_app(["advise", "chase-ace", "--position", "2", "--holding", "5h", "--rank-by", "wins", "--no-store"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err == (
        "error: --rank-by takes an outcome of this decision, one of lose_life, exchange; not 'wins'."
    )


# ------------------------------------------------------------------ batches, exact counts, rare results


def test_a_batch_never_plays_more_deals_than_its_int64_sums_hold(monkeypatch):
    import dataclasses

    import analyzer.run.execution
    import sims.situations
    from analyzer.strategy.advice import largest_batch

    assert largest_batch(dataclasses.replace(_chase_situation(), largest=1 << 20)) == 1 << 22
    assert largest_batch(dataclasses.replace(_chase_situation(), largest=1 << 29)) == 16
    plain = ca.advise("chase-ace", **{**ASKED, "hands": 300}).summary()
    real, sizes = sims.situations.situation, []
    monkeypatch.setattr(sims.situations, "situation", lambda *args: dataclasses.replace(real(*args), largest=1 << 29))
    jobs = analyzer.run.execution.play_jobs

    def play_jobs(spec, job, *args, **kwargs):
        sizes.append(job[0][3])
        return jobs(spec, job, *args, **kwargs)

    monkeypatch.setattr(analyzer.run.execution, "play_jobs", play_jobs)
    capped = ca.advise("chase-ace", **{**ASKED, "hands": 300}).summary()
    assert max(sizes) == 16 and len(sizes) > 40
    assert capped["options"] == plain["options"] and capped["tried"] == plain["tried"]  # the same deals, batched finer


def _chase_situation():
    from sims.core.cards import parse_cards
    from sims.registry import get_game
    from sims.situations import situation

    spec = get_game("chase-ace")
    return situation(spec, spec.default_rules(), 6, 2, tuple(parse_cards("5h")), {})


def test_hands_2000_accepts_exactly_2000_deals_up_to_the_last_one_accepted():
    from sims.advice import simulate_advice
    from sims.core.advice import ACCEPTED
    from sims.registry import get_game

    found = ca.advise("chase-ace", **ASKED)
    assert found.accepted == 2000  # not the 2,119 a whole last batch gave
    spec = get_game("chase-ace")
    policy = spec.default_policy(6)
    upto = simulate_advice(spec, spec.default_rules(), policy, 6, found.situation, 0, 0, found.tried)
    before = simulate_advice(spec, spec.default_rules(), policy, 6, found.situation, 0, 0, found.tried - 1)
    assert upto[ACCEPTED] == 2000 and before[ACCEPTED] == 1999  # the last deal tried is the 2,000th accepted
    from analyzer.strategy.advice import estimates

    options, _ = estimates(upto, found.situation)
    assert [o.outcomes for o in options] == [o.outcomes for o in found.options]


def test_too_few_deals_give_no_verdict_and_the_json_has_null_not_nan():
    from analyzer.api.advising import AdviceResult
    from analyzer.cli.app import json_text
    from analyzer.strategy.advice import estimates
    from sims.registry import get_game

    found = _chase_situation()
    flat = [0] * found.width
    flat[0], flat[1] = 400_000, 1  # one deal accepted, of 400,000 tried
    options, best = estimates(flat, found)
    result = AdviceResult(
        get_game("chase-ace"), found, 2, (3,), {}, 6, 0, 400_000, 1, options, best, 1.0, asked=200, stop="cap"
    )
    assert result.too_few and "too few deals to rank (1 accepted" in result.verdict()
    assert "better by" not in result.verdict() and "nan" not in result.text()
    assert result.notes()[0].startswith(
        "note: the cap on deals tried came first: 1 deal accepted of 200 asked, after 400,000 tried (acceptance"
    )
    text = json_text(result.summary())
    assert "NaN" not in text and json.loads(text)["best"] is None


def test_target_se_missed_says_so_in_one_line_and_the_json_says_whether_reached():
    found = ca.advise("chase-ace", **{**ASKED, "hands": 1000}, target_se=0.0005)
    notes = [line for line in found.text().splitlines() if line.startswith("note: the cap came first")]
    assert len(notes) == 1 and "above --target-se 0.0005, after 1,000 deals" in notes[0]
    assert found.summary()["target_se_reached"] is False and found.summary()["target_se"] == 0.0005
    assert ca.advise("chase-ace", **ASKED).summary()["target_se_reached"] is None
    reached = ca.advise("chase-ace", **{**ASKED, "hands": 10**6}, target_se=0.01).summary()
    assert reached["target_se_reached"] is True and reached["stopped_by"] == "target" and not reached["notes"]


# ------------------------------------------------------------------ small things


def test_a_repeated_context_key_is_one_sentence(capsys):
    code = run_app(
        ["advise", "chase-ace", "--position", "3", "--holding", "6h"]
        + ["--context", "earlier=kk", "--context", "earlier=ks", "--no-store"]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and err == "error: --context earlier is given twice ('kk' and 'ks'); give each key once."


def test_a_holding_with_a_control_character_is_echoed_escaped(capsys):
    code = run_app(["advise", "chase-ace", "--position", "3", "--holding", "6h\x1b[2J", "--no-store"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\x1b" not in err and "\\x1b" in err and len(err.splitlines()) == 1


def test_advise_json_says_how_many_deals_came_from_the_store(tmp_path):
    store = tmp_path / "s.sqlite"
    first = ca.advise("chase-ace", **{**ASKED, "store": store}).summary()
    again = ca.advise("chase-ace", **{**ASKED, "store": store}).summary()
    assert first["from_store"] == 0 and again["from_store"] == again["tried"] == first["tried"]
    assert again["options"] == first["options"]
    assert advise_json("chase-ace", "--position", "2", "--holding", "5h", "--hands", "300")["from_store"] == 0


def test_the_interrupt_line_does_not_count_stored_deals_as_played():
    from types import SimpleNamespace

    from analyzer.cli.advise import interrupted_line

    found = SimpleNamespace(count=1200, tried=3000, from_store=2000)
    assert interrupted_line(found, False) == (
        "after 1,200 accepted deals of 3,000 tried (1,000 played, 2,000 read from the store); "
        "the table above is for those deals, marked partial"
    )
    assert interrupted_line(SimpleNamespace(count=0), True) == (
        "before any deal was accepted; nothing was written to --out"
    )


def test_out_names_the_files_after_the_question(tmp_path):
    first = ca.advise("chase-ace", out=tmp_path, **ASKED)
    second = ca.advise("chase-ace", out=tmp_path, **{**ASKED, "holding": "9c"})
    third = ca.advise("chase-ace", out=tmp_path, context={"earlier": "sk"}, **ASKED)
    assert sorted(path.name for path in first.files) == [
        "advice-chase-ace-seat2of6-5h.csv",
        "advice-chase-ace-seat2of6-5h.json",
        "advice-chase-ace-seat2of6-5h.png",
    ]
    assert second.files[0].name == "advice-chase-ace-seat2of6-9c.csv"
    assert third.files[0].name.startswith("advice-chase-ace-seat2of6-5h-") and third.files[0] != first.files[0]
    assert len(list(tmp_path.iterdir())) == 9
    assert json.loads(first.files[1].read_text())["holding"] == "5h"


def test_many_long_actions_are_charted_without_overlapping_labels():
    from analyzer.present.charts import advice_chart

    actions = [f"rob:discard {card}" for card in ("2c", "3c", "4d", "5d", "6h", "7h", "8s", "9s", "10c", "Jd", "Qh")]
    actions += ["play 2c"]
    figure = advice_chart(actions, [0.1 * k for k in range(12)], [0.05] * 12, "rob:discard 2c", "net", "Spoil Five")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    axes = figure.axes[0]
    boxes = [label.get_window_extent(renderer) for label in axes.get_yticklabels() + axes.get_xticklabels()]
    boxes = [box for box in boxes if box.width > 0]
    assert len(boxes) >= 12
    for k, box in enumerate(boxes):
        for other in boxes[k + 1 :]:
            assert not box.overlaps(other)


def test_too_rare_reads_the_probe_alone():
    from analyzer.strategy.advice import FIRST_TRIES, too_rare

    assert too_rare(FIRST_TRIES, 0)  # nothing accepted in the probe
    assert too_rare(FIRST_TRIES, 19)  # one deal in 1,053: below one in a thousand
    assert not too_rare(FIRST_TRIES, 20)  # one in a thousand: enough
