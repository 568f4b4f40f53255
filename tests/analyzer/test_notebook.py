"""What a notebook user meets: the catalogue (``ca.games()``, ``ca.rules(game)``), tidy
tables (numeric seats, table-wide outcomes apart, paired differences in every strategy
table), charts drawn into the user's axes, head-to-head comparisons of policies, one run
context per call (two calls in two threads keep their own stores and seeds), the loading
spinner, and a command that ends quietly when its reader closes the pipe."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
import threading

import numpy as np
import pytest

import analyzer as ca
from analyzer.run import progress as progress_module
from sims.registry import GAMES


def test_games_lists_every_game_with_its_players_and_modes():
    table = ca.games()
    assert list(table["game"]) == list(GAMES)
    assert list(table.columns) == ["game", "title", "summary", "min_players", "max_players", "default_players", "modes"]
    chase = table.set_index("game").loc["chase-ace"]
    assert (chase.title, chase.min_players, chase.max_players, chase.default_players) == ("Chase the Ace", 2, 51, 8)
    assert chase.modes == "hands, games"


def test_rules_lists_switches_policy_fields_presets_and_outcomes_with_their_meanings():
    table = ca.rules("chase-ace")
    assert list(table.columns) == ["kind", "key", "default", "allowed", "values", "mode", "meaning", "decision"]
    listed = {"rule", "policy", "variant", "strategy", "outcome", "decision", "context"}
    assert listed <= set(table["kind"]) <= listed | {"term"}  # terms: as the game's advice module defines
    rows = table.set_index(["kind", "key"])
    assert rows.loc[("rule", "ace_high"), "default"] is False
    assert rows.loc[("rule", "ace_high"), "values"] == (False, True)
    assert rows.loc[("rule", "lives"), "values"] == (1, 10)
    assert rows.loc[("policy", "threshold"), "values"] == (0, 13)
    assert rows.loc[("strategy", "never-swap"), "meaning"]
    assert rows.loc[("outcome", "lose_life"), "mode"] == "hands"
    assert (table["meaning"].str.len() > 0).all()


def test_a_simulation_table_has_numeric_seats_and_the_table_wide_outcomes_apart():
    result = ca.simulate("chase-ace", players=4, hands=3000, store=False)
    table = result.table()
    assert str(table["seat"].dtype) == "Int64"
    seats = table[table["scope"] == "seat"]
    assert sorted(set(seats["seat"])) == [0, 1, 2, 3]
    wide = table[table["scope"] == "table"]
    assert len(wide) > 0 and wide["seat"].isna().all()
    by_seat = {(r["seat"], r["outcome"]): r["mean"] for r in result.summary()["results"]}
    for row in seats.itertuples():
        assert row.mean == by_seat[(row.seat, row.outcome)]


def test_a_sweep_table_and_json_carry_the_paired_difference_the_text_shows():
    result = ca.sweep("chase-ace", "threshold=4:6", seat=0, players=4, hands=20_000, store=False)
    table = result.table()
    reference = result.reference
    assert table.loc[table["value"] == result.sweep.values.values[reference], "diff"].eq(0).all()
    headline = table[(table["scope"] == "seat") & (table["seat"] == 0) & (table["outcome"] == "lose_life")]
    from analyzer.strategy.comparisons import paired_differences

    for point, value in enumerate(result.sweep.values.values):
        row = headline[headline["value"] == value].iloc[0]
        if point == reference:
            assert (row["diff"], row["diff_se"]) == (0.0, 0.0)
            continue
        d = next(
            d
            for d in paired_differences(result.sweep.run, reference, point)
            if d.seat == 0 and d.outcome == "lose_life"
        )
        assert (row["diff"], row["diff_se"]) == (d.difference, d.se)
        assert 0 < row["diff_se"] < math.hypot(row["se"], headline.iloc[reference]["se"])  # paired beats unpaired
    assert {"diff", "diff_se"} <= set(result.summary()["results"][0])


def test_plot_draws_the_chosen_outcome_into_the_users_axes():
    from matplotlib.figure import Figure

    figure = Figure()
    ax = figure.subplots()
    result = ca.simulate("chase-ace", players=4, hands=2000, store=False)
    assert result.plot(outcome="exchange", ax=ax) is ax
    assert ax.get_title().startswith("Chase the Ace, 4 players: exchange by seat")
    assert len(ax.patches) == 4  # a bar per seat
    swept = ca.sweep("chase-ace", "threshold=4:6", players=4, hands=2000, store=False)
    other = Figure().subplots()
    swept.plot(outcome="lose_life", ax=other)
    assert other.lines and "every seat sweeps threshold" in other.get_title()


def _sums(result, arm: int) -> np.ndarray:
    return np.asarray(result.run.sums(arm))


def test_compare_plays_two_policies_head_to_head_on_the_same_deals(cli):
    """--strategy A --against B: each arm's sums are a plain run of that policy on the
    same seed (the same deals), and the difference has the paired error."""
    result = ca.compare(
        "chase-ace", players=4, hands=20_000, seed=3, strategy="never-swap", against="always-swap", store=False
    )
    assert result.labels == ["never-swap", "always-swap"]
    assert "policy threshold: 0 | 12" in result.changed
    for arm, strategy in enumerate(("never-swap", "always-swap")):
        alone = ca.simulate("chase-ace", players=4, hands=20_000, seed=3, strategy=strategy, store=False)
        assert np.array_equal(_sums(result, arm), np.asarray(alone.run.sums))
    summary = result.summary()
    assert set(summary["policies"]) == {"never-swap", "always-swap"}
    shown = cli(
        "compare",
        "chase-ace",
        "--players",
        "4",
        "--hands",
        "20000",
        "--seed",
        "3",
        "--strategy",
        "never-swap",
        "--against",
        "always-swap",
        "--no-store",
        "--json",
    )
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["differences"] == json.loads(json.dumps(summary))["differences"]


def test_compare_plays_one_seats_policy_against_the_table(cli):
    result = ca.compare("chase-ace", players=4, hands=20_000, against_seats={0: {"threshold": 0}}, store=False)
    assert result.labels == ["default", "default + seat 0: threshold=0"]
    assert result.changed == ["seat 0 policy threshold: 7 | 0"]
    differences = {(row.seat, row.outcome): row for row in result.table().itertuples() if row.scope == "seat"}
    assert abs(differences[(0, "lose_life")].difference) > 4 * differences[(0, "lose_life")].se  # it matters
    shown = cli(
        "compare",
        "chase-ace",
        "--players",
        "4",
        "--hands",
        "20000",
        "--against-seat",
        "0:threshold=0",
        "--no-store",
        "--json",
    )
    assert json.loads(shown.stdout)["labels"] == result.labels


def test_without_against_the_changes_are_layered_on_the_tables_own_policy():
    result = ca.compare(
        "ace-chasing",
        variant="with-bets",
        players=5,
        hands=3000,
        policy={"threshold": 5},
        against_policy={"bet_size": 2},
        store=False,
    )
    assert result.labels == ["bettors + threshold=5", "bettors + threshold=5 + bet_size=2"]
    assert result.changed == ["policy bet_size: 1 | 2"]  # threshold stays 5 in both arms
    assert (
        result.summary()["rules"]["bettors + threshold=5"]
        == result.summary()["rules"]["bettors + threshold=5 + bet_size=2"]
    )


@pytest.mark.parametrize(
    "given", [dict(against_seats={0: {}}), dict(against="default"), dict(strategy="never-swap", against="never-swap")]
)
def test_a_policy_against_itself_is_one_sentence(given):
    with pytest.raises(
        ValueError,
        match=r"^the policy given --against is the table's own: there is nothing to "
        r"compare\.$",
    ):
        ca.compare("chase-ace", players=4, hands=1000, store=False, **given)


def test_two_calls_in_two_threads_keep_their_own_stores_and_seeds(tmp_path):
    """Each call runs in its own context: the stores and seeds do not mix."""
    found: dict = {}

    def call(name: str, seed: int) -> None:
        found[name] = ca.simulate(
            "chase-ace", players=5, hands=60_000, seed=seed, store=tmp_path / f"{name}.sqlite", threads=1
        )

    threads = [threading.Thread(target=call, args=(name, seed)) for name, seed in (("a", 1), ("b", 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for name, seed in (("a", 1), ("b", 2)):
        alone = ca.simulate("chase-ace", players=5, hands=60_000, seed=seed, store=False)
        assert np.array_equal(np.asarray(found[name].run.sums), np.asarray(alone.run.sums))
        again = ca.simulate("chase-ace", players=5, hands=60_000, seed=seed, store=tmp_path / f"{name}.sqlite")
        assert again.run.stored == 60_000  # each store holds its own call's hands
        other = "b" if name == "a" else "a"
        assert (
            ca.simulate("chase-ace", players=5, hands=60_000, seed=seed, store=tmp_path / f"{other}.sqlite").run.stored
            == 0
        )


def test_a_slow_load_shows_a_spinner_line_and_clears_it(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(progress_module, "SPIN_AFTER_S", 0.05)
    with progress_module.Spinner("loading the chase-ace kernels", True):
        threading.Event().wait(0.4)
    text = err.getvalue()
    assert "loading the chase-ace kernels" in text and text.endswith("\r")
    quiet = io.StringIO()
    monkeypatch.setattr(sys, "stderr", quiet)
    with progress_module.Spinner("loading", False):
        threading.Event().wait(0.2)
    assert quiet.getvalue() == ""


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [["store", "--store", "STORE"], ["rules", "chase-ace"], ["chase-ace", "--hands", "2000", "--store", "STORE"]],
)
def test_a_closed_pipe_ends_the_command_quietly(tmp_path, command):
    """The reader went away before anything was written (as ``| head`` does once it has
    its lines): no message, no traceback, exit code 141 as SIGPIPE would give."""
    import os

    reader, writer = os.pipe()
    os.close(reader)
    try:
        ended = subprocess.run(
            [
                sys.executable,
                "-m",
                "analyzer",
                *[str(tmp_path / "store.sqlite") if word == "STORE" else word for word in command],
            ],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(writer)
    assert (ended.stderr, ended.returncode) == ("", 141)
