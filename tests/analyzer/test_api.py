"""The Python API (``import analyzer as ca``): the same numbers, JSON objects, text and
error sentences as the command line, tidy tables with the documented columns, figures,
HTML for Jupyter, and an ``import analyzer`` that stays light."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys

import pytest

import analyzer as ca
from analyzer.api.advising import plan_advice
from analyzer.api.comparing import plan_compare
from analyzer.api.plans import RunArgs, TableArgs
from analyzer.api.solving import plan_solve
from sims.registry import GAMES
from sims.spec import Mode

TIMINGS = ("elapsed_s", "kernel_load_s")
ESTIMATE_COLUMNS = ["scope", "seat", "outcome", "mean", "se", "ci_low", "ci_high"]
SWEEP_COLUMNS = [
    "field",
    "value",
    "value_text",
    "scope",
    "seat",
    "outcome",
    "mean",
    "se",
    "ci_low",
    "ci_high",
    "diff",
    "diff_se",
]
DIFFERENCE_COLUMNS = [
    "compared",
    "scope",
    "seat",
    "outcome",
    "base",
    "base_se",
    "other",
    "other_se",
    "difference",
    "se",
    "se_independent",
    "variance_reduction",
]
OPTIMIZE_COLUMNS = [
    "field",
    "seat",
    "best",
    "tied",
    "tie",
    "no_effect",
    "value",
    "se",
    "current",
    "current_value",
    "gain",
    "gain_se",
    "confirmed_gain",
    "confirmed_gain_se",
    "confirmed_on",
    "runner_up",
    "margin",
    "margin_se",
    "equilibrium",
    "equilibrium_value",
    "equilibrium_value_se",
    "equilibrium_change",
    "equilibrium_change_se",
    "mix",
]


def cli_json(cli, *args) -> dict:
    result = cli(*args, "--no-store", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def api_json(result) -> dict:
    """A result's JSON object as the command line prints it (through the JSON text)."""
    return json.loads(json.dumps(result.summary()))


def without_timings(summary: dict) -> dict:
    return {key: value for key, value in summary.items() if key not in TIMINGS}


def untimed_lines(text: str) -> list[str]:
    """The lines of a command's text, less those that say how long it took."""
    return [line for line in text.splitlines() if not re.search(r" in [0-9.]+ s\b|the kernel was compiled", line)]


def check_figure(figure) -> None:
    from matplotlib.figure import Figure

    assert isinstance(figure, Figure) and figure.axes


# ------------------------------------------------------------------------------ simulate


RUNS = [(name, mode) for name in sorted(GAMES) for mode in (Mode.HANDS, Mode.GAMES) if mode in GAMES[name].outcomes]


@pytest.mark.slow
@pytest.mark.parametrize(
    "name,mode", RUNS, ids=[f"{name}-{'hands' if mode == Mode.HANDS else 'games'}" for name, mode in RUNS]
)
def test_simulate_gives_the_numbers_of_the_command_line(cli, name, mode):
    unit, count = ("hands", 2000) if mode == Mode.HANDS else ("games", 200)
    result = ca.simulate(name, seed=3, store=False, **{unit: count})
    summary = api_json(result)
    assert without_timings(summary) == without_timings(cli_json(cli, name, "--seed", "3", f"--{unit}", str(count)))
    assert summary["mode"] == unit and summary[unit] == count and not result.partial
    table = result.table()
    assert list(table.columns) == ESTIMATE_COLUMNS + [unit]
    assert len(table) == len(summary["results"]) and set(table[unit]) == {count}
    assert [None if mean != mean else mean for mean in table["mean"]] == [r["mean"] for r in summary["results"]]
    assert result.resolved.players == summary["players"] and result.run.count == count
    if mode == Mode.HANDS:  # figures and HTML once per game
        check_figure(result.plot())
        page = result._repr_html_()
        assert "<table" in page and GAMES[name].title in page


def test_rules_policies_and_seats_as_python_values(cli):
    result = ca.simulate(
        "chase-ace",
        players=3,
        hands=1000,
        rules={"kings": "stop-all-on-attempt", "ace_high": True},
        policy={"threshold": 5},
        seats={2: {"informed": False}},
        store=False,
    )
    summary = api_json(result)
    assert summary["rules"]["kings"] == "stop-all-on-attempt" and summary["rules"]["ace_high"] is True
    assert [row["threshold"] for row in summary["policy"]] == [5, 5, 5]
    assert [row["informed"] for row in summary["policy"]] == [1, 1, 0]
    assert without_timings(summary) == without_timings(
        cli_json(
            cli,
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
    )


def test_typed_values_give_the_command_lines_numbers_and_text(cli):
    result = ca.simulate("fan-tan", hands=2e3, players=5, seed=7, store=False)
    assert result.run.count == 2000 and result.resolved.players == 5
    shown = cli("fan-tan", "--hands", "2k", "--players", "5", "--seed", "7", "--no-store")
    assert untimed_lines(str(result)) == untimed_lines(shown.stdout)
    assert result.text() == str(result) and result.to_dict() == result.summary()


def test_target_se_and_its_note_as_the_command_line(cli):
    result = ca.simulate("chase-ace", hands=20000, target_se=1e-4, store=False)
    assert result.summary()["target_se_reached"] is False
    assert "note: the cap came first" in result.text().splitlines()[-1]
    assert without_timings(api_json(result)) == without_timings(
        cli_json(cli, "chase-ace", "--hands", "20000", "--target-se", "1e-4")
    )


def test_out_writes_what_the_command_line_writes(tmp_path):
    result = ca.simulate("chase-ace", players=4, hands=1000, store=False, out=tmp_path)
    stem = "chase-ace-4p-hands-seed0"
    assert result.files == [tmp_path / f"{stem}.{ending}" for ending in ("csv", "json", "png")]
    assert (tmp_path / f"{stem}.csv").read_text() == result.table().to_csv(index=False)


def test_an_interrupt_goes_on_up_with_its_partial_result(monkeypatch):
    import analyzer.run.runner
    from analyzer.run.interrupts import Interrupted

    finished = object()

    def stopped(*args, **kwargs):
        raise Interrupted(signal.SIGINT, partial=finished)

    monkeypatch.setattr(analyzer.run.runner, "run", stopped)
    with pytest.raises(Interrupted) as caught:
        ca.simulate("chase-ace", hands=1000, store=False)
    assert caught.value.partial is finished


# ------------------------------------------------------------------------------ strategy functions


def test_sweep_gives_the_command_lines_json_table_and_chart(cli):
    result = ca.sweep("chase-ace", "threshold=5:7", seat=1, players=4, hands=2000, store=False)
    summary = api_json(result)
    assert summary == cli_json(
        cli, "sweep", "chase-ace", "--param", "threshold=5:7", "--seat", "1", "--players", "4", "--hands", "2000"
    )
    table = result.table()
    assert list(table.columns) == SWEEP_COLUMNS and len(table) == len(summary["results"])
    assert sorted(set(table["value"])) == [5, 6, 7]
    check_figure(result.plot())
    assert "<table" in result._repr_html_()
    shown = cli(
        "sweep",
        "chase-ace",
        "--param",
        "threshold=5:7",
        "--seat",
        "1",
        "--players",
        "4",
        "--hands",
        "2000",
        "--no-store",
    )
    assert untimed_lines(result.text()) == untimed_lines(shown.stdout)


def test_sweep_of_every_seat_with_a_choice_field(cli):
    result = ca.sweep("fan-tan", "style=first:block", hands=1000, store=False)
    assert api_json(result) == cli_json(cli, "sweep", "fan-tan", "--param", "style=first:block", "--hands", "1000")
    assert set(result.table()["value_text"]) == {"first", "random", "hold-sevens", "block"}
    check_figure(result.plot())


def test_compare_gives_the_command_lines_json_table_and_chart(cli):
    result = ca.compare("chase-ace", variant=["standard", "seed-house"], players=4, hands=2000, store=False)
    summary = api_json(result)
    assert summary == cli_json(
        cli,
        "compare",
        "chase-ace",
        "--variant",
        "standard",
        "--variant",
        "seed-house",
        "--players",
        "4",
        "--hands",
        "2000",
    )
    table = result.table()
    assert list(table.columns) == DIFFERENCE_COLUMNS and set(table["compared"]) == {"seed-house"}
    check_figure(result.plot())
    assert "<table" in result._repr_html_()


def test_compare_a_rule_set_given_as_a_dict(cli):
    result = ca.compare(
        "chase-ace", rules={"tie": "cancel-matches"}, policy={"threshold": 6}, players=4, hands=2000, store=False
    )
    assert result.labels == ["standard", "tie=cancel-matches"]
    assert api_json(result) == cli_json(
        cli,
        "compare",
        "chase-ace",
        "--rule",
        "tie=cancel-matches",
        "--policy",
        "threshold=6",
        "--players",
        "4",
        "--hands",
        "2000",
    )


def test_optimize_gives_the_command_lines_json_and_a_row_per_seat(cli):
    result = ca.optimize("chase-ace", players=3, field="threshold=6:7", hands=1000, rounds=2, store=False)
    summary = api_json(result)
    assert summary == cli_json(
        cli, "optimize", "chase-ace", "--players", "3", "--field", "threshold=6:7", "--hands", "1000", "--rounds", "2"
    )
    table = result.table()
    assert list(table.columns) == OPTIMIZE_COLUMNS and list(table["seat"]) == [0, 1, 2]
    assert list(table["best"]) == [record["best"] for record in summary["best_responses"]]
    assert list(table["equilibrium"]) == summary["equilibrium"]["values"]
    check_figure(result.plot())
    assert "<table" in result._repr_html_()


def test_report_writes_each_game_and_lists_the_files(tmp_path, monkeypatch):
    import analyzer.reporting.write

    def quick(spec, directory, count, seed, report_format, threads, progress=None):
        path = directory / analyzer.reporting.write.REPORT_FILES[report_format]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{spec.name} {count} {seed}")
        return path

    monkeypatch.setattr(analyzer.reporting.write, "write_report", quick)
    result = ca.report("fan-tan", out=tmp_path, hands=500, seed=2, store=False)
    assert result.paths == [("fan-tan", tmp_path / "fan-tan" / "README.md")]
    assert (tmp_path / "fan-tan" / "README.md").read_text() == "fan-tan 500 2"
    assert list(result.table().columns) == ["game", "path"] and str(result) == f"wrote {tmp_path}/fan-tan/README.md"
    every = ca.report("all", out=tmp_path / "all", hands=500, report_format="html", store=False)
    assert [game for game, _ in every.paths] == list(GAMES) + ["all"]
    assert every.paths[-1][1] == tmp_path / "all" / "index.html" and "<table" in every._repr_html_()


def test_the_package_offers_the_api_functions_with_their_own_help():
    """``ca.compare`` is the function (``help`` shows its parameters), ``dir(ca)`` lists the
    API and nothing of the machinery, and the subpackages never shadow a function."""
    import inspect
    import pydoc

    import analyzer.reporting.write  # noqa: F401  (a subpackage loaded first changes nothing)
    import analyzer.strategy.comparisons  # noqa: F401
    from analyzer.api import functions as api

    for name in ("simulate", "sweep", "optimize", "compare", "report"):
        assert getattr(ca, name) is getattr(api, name) and inspect.isfunction(getattr(ca, name))
    assert "players" in inspect.signature(ca.compare).parameters
    assert "Paired differences" in pydoc.render_doc(ca.compare)
    assert dir(ca) == sorted(ca.__all__) and not {"importlib", "sys", "types"} & set(dir(ca))
    with pytest.raises(ValueError, match=r"^--format takes md or html, not 'pdf'\.$"):
        ca.report("chase-ace", report_format="pdf")


# ------------------------------------------------------------------------------ bad arguments

BAD = [
    (dict(game="no-such-game"), ["sweep", "no-such-game", "--param", "threshold"], "unknown game 'no-such-game'"),
    (dict(rules={"colour": "red"}), ["--rule", "colour=red"], "unknown rule 'colour'"),
    (dict(rules={"lives": 0}), ["--rule", "lives=0"], "lives of chase-ace must be in 1..10"),
    (dict(rules={"ace_high": "maybe"}), ["--rule", "ace_high=maybe"], "true or false"),
    (dict(policy={"threshold": 14}), ["--policy", "threshold=14"], "must be in 0..13"),
    (dict(seats={8: {"threshold": 3}}), ["--seat", "8:threshold=3"], "seat 8 does not exist"),
    (dict(players=1), ["--players", "1"], "2 to 51 players"),
    (dict(hands=0), ["--hands", "0"], "--hands must be positive, not 0"),
    (dict(hands=10, games=10), ["--hands", "10", "--games", "10"], "not both"),
    (dict(variant="vegas"), ["--variant", "vegas"], "unknown variant"),
    (dict(strategy="psychic"), ["--strategy", "psychic"], "unknown strategy"),
    (dict(target_se=0), ["--target-se", "0"], "--target-se must be a positive number"),
    (dict(seed=-1), ["--seed", "-1"], "--seed must be a whole number from 0 to"),
]


def cli_sentence(cli, *args) -> str:
    result = cli(*args)
    assert result.exit_code == 2, result.output
    line = result.stderr.strip()
    assert line.startswith("error: ")
    return line[len("error: ") :]


@pytest.mark.parametrize("given,args,words", BAD, ids=[" ".join(args) for _, args, _ in BAD])
def test_bad_arguments_raise_the_command_lines_sentence(cli, given, args, words):
    given = {"game": "chase-ace", **given}
    cli_args = args if given["game"] != "chase-ace" else ["chase-ace", *args]
    with pytest.raises(ValueError) as caught:
        ca.simulate(store=False, **given)
    assert words in str(caught.value)
    assert str(caught.value) == cli_sentence(cli, *cli_args)


@pytest.mark.parametrize(
    "call,args",
    [
        (lambda: ca.sweep("chase-ace", "thresh=1:3"), ["sweep", "chase-ace", "--param", "thresh=1:3"]),
        (
            lambda: ca.sweep("chase-ace", "threshold=1:3", seat=8),
            ["sweep", "chase-ace", "--param", "threshold=1:3", "--seat", "8"],
        ),
        (
            lambda: ca.sweep("chase-ace", "threshold=1:3", hands=50),
            ["sweep", "chase-ace", "--param", "threshold=1:3", "--hands", "50"],
        ),
        (lambda: ca.optimize("chase-ace", field="colour"), ["optimize", "chase-ace", "--field", "colour"]),
        (lambda: ca.optimize("chase-ace", rounds=0), ["optimize", "chase-ace", "--rounds", "0"]),
        (lambda: ca.compare("chase-ace"), ["compare", "chase-ace"]),
        (
            lambda: ca.compare("chase-ace", variant=["ethier", "ethier"]),
            ["compare", "chase-ace", "--variant", "ethier", "--variant", "ethier"],
        ),
        (
            lambda: ca.compare("chase-ace", rules={"tie": "ties-to-dealer"}),
            ["compare", "chase-ace", "--rule", "tie=ties-to-dealer"],
        ),
        (lambda: ca.report("no-such-game"), ["report", "no-such-game"]),
        (lambda: ca.report("chase-ace", hands=1), ["report", "chase-ace", "--hands", "1"]),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_bad_strategy_arguments_raise_the_command_lines_sentence(cli, call, args):
    with pytest.raises(ValueError) as caught:
        call()
    assert str(caught.value) == cli_sentence(cli, *args)


HOSTILE = [
    (lambda: ca.simulate("chase-ace", seed=None), "seed takes a whole number (an int), not None."),
    (lambda: ca.simulate("chase-ace", seed=True), "seed takes a whole number (an int), not True."),
    (lambda: ca.optimize("chase-ace", rounds=None), "rounds takes a whole number (an int), not None."),
    (lambda: ca.simulate("chase-ace", players="8"), "players takes a whole number (an int), not '8'."),
    (
        lambda: ca.simulate("chase-ace", hands="1e6"),
        "hands takes a whole number (an int, or a float such as 1e6), not '1e6'.",
    ),
    (lambda: ca.simulate("chase-ace", hands=1.5), "--hands '1.5' is not a whole number."),
    (lambda: ca.simulate("chase-ace", hands=float("nan")), "--hands 'nan' is not a whole number."),
    (lambda: ca.simulate("chase-ace", policy=5), "policy is a dict of policy values such as {'threshold': 5}, not 5."),
    (
        lambda: ca.simulate("chase-ace", policy={"threshold": None}),
        "policy maps a policy field's name to a number, a bool or a str, not 'threshold': None.",
    ),
    (lambda: ca.compare("chase-ace", rules=7), "rules is a dict of rule values such as {'ace_high': True}, not 7."),
    (
        lambda: ca.simulate("chase-ace", rules={"lives": 2.5}),
        "rules maps a rule's name to a bool, an int or a str, not 'lives': 2.5.",
    ),
    (lambda: ca.simulate("chase-ace", rules={"ace_high": 3}), "rule ace_high of chase-ace takes true or false, not 3."),
    (
        lambda: ca.simulate("chase-ace", rules={"kings": 1}),
        "rule kings of chase-ace takes block | none | freeze-if-dealt | stop-all-on-attempt | skip-to-next, not 1.",
    ),
    (
        lambda: ca.simulate("chase-ace", seats={0: None}),
        "seats maps a seat number to a dict of policy values or a table, not 0: None.",
    ),
    (
        lambda: ca.simulate("chase-ace", seats={"0": {"threshold": 3}}),
        "seats maps a seat number to a dict of policy values, not '0': {'threshold': 3}.",
    ),
    (
        lambda: ca.simulate("chase-ace", seats=[1]),
        "seats is a dict of seats' policy values such as {2: {'threshold': 6}}, not [1].",
    ),
    (lambda: ca.simulate(["chase-ace"]), "game is the name of a game (a str such as 'chase-ace'), not ['chase-ace']."),
    (
        lambda: ca.simulate("chase-ace", store=123),
        "store is the path of a store file, True for the default store or False for none, not 123.",
    ),
    (
        lambda: ca.simulate("chase-ace", store=1),
        "store is the path of a store file, True for the default store or False for none, not 1.",
    ),
    (lambda: ca.simulate("chase-ace", cluster=5), "cluster is 'local:N' or a Dask scheduler's address (a str), not 5."),
    (lambda: ca.simulate("chase-ace", variant=5), "variant takes a name (a str), not 5."),
    (lambda: ca.simulate("chase-ace", strategy=["a"]), "strategy takes a name (a str), not ['a']."),
    (lambda: ca.simulate("chase-ace", threads="2"), "threads takes a whole number (an int), not '2'."),
    (lambda: ca.simulate("chase-ace", target_se="0.1"), "target_se takes a positive number (a float), not '0.1'."),
    (lambda: ca.sweep("chase-ace", 5), "param is a policy field, 'FIELD' or 'FIELD=LO:HI[:STEP]' (a str), not 5."),
    (lambda: ca.sweep("chase-ace", "threshold", seat="1"), "seat takes a whole number (an int), not '1'."),
    (lambda: ca.compare("chase-ace", variant=5), "variant is a name or a list of names (str), not 5."),
    (lambda: ca.compare("chase-ace", against=3), "against takes a name (a str), not 3."),
    (lambda: ca.simulate("chase-ace", out=3), "out is the path of a folder, not 3."),
    (lambda: ca.report("chase-ace", out=3), "out is the path of a folder, not 3."),
    (lambda: ca.rules(7), "game is the name of a game (a str such as 'chase-ace'), not 7."),
    # the plans take the arguments as given (TableArgs, RunArgs): one a call does not play is refused, not dropped
    (
        lambda: plan_advice("chase-ace", 3, "6h", run=RunArgs(games=5)),
        "advise takes no games (it plays deals, counted by hands); given 5.",
    ),
    (
        lambda: plan_solve("chase-ace", run=RunArgs(target_se=0.1)),
        "solve takes no target_se (each sweep plays its hands in full); given 0.1.",
    ),
    (
        lambda: plan_compare("chase-ace", against=TableArgs(players=3, strategy="never-swap")),
        "against takes no players (that policy plays at the table's seats and rules); given 3.",
    ),
    (
        lambda: ca.simulate("chase-ace", hands=2000, store=False).plot(outcome="nothing"),
        "outcome is one of the seats' outcomes, lose_life, exchange, not 'nothing'.",
    ),
]


@pytest.mark.parametrize("call, sentence", HOSTILE, ids=[str(i) for i in range(len(HOSTILE))])
def test_a_bad_value_or_type_is_one_sentence_never_a_type_error(call, sentence):
    """Every argument is checked once, on its Python type and value: a ValueError of one
    sentence, never a TypeError or AttributeError from deep inside, never quietly taken."""
    with pytest.raises(ValueError) as caught:
        call()
    assert str(caught.value) == sentence


def test_store_and_no_store_together_is_one_sentence(cli):
    for command in (
        ["chase-ace"],
        ["sweep", "chase-ace", "--param", "threshold"],
        ["optimize", "chase-ace"],
        ["compare", "chase-ace", "--variant", "ethier"],
        ["report", "chase-ace"],
    ):
        assert (
            cli_sentence(cli, *command, "--store", "x.sqlite", "--no-store")
            == "give either --store or --no-store, not both."
        )


# ------------------------------------------------------------------------------ import


def test_importing_the_package_stays_light():
    code = (
        "import sys, analyzer; "
        "heavy = [m for m in ('pandas', 'matplotlib', 'numba', 'sims.registry', 'analyzer.api.functions') if m in sys.modules]; "
        "print(heavy, sorted(analyzer.__all__))"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == (
        "[] ['AdviceResult', 'ComparisonResult', 'OptimizeResult', 'ReportResult', 'SimulationResult', "
        "'SolveResult', 'SweepResult', 'Table', 'UserError', 'advise', 'compare', 'games', 'optimize', "
        "'report', 'rules', 'simulate', 'solve', 'sweep']"
    )
