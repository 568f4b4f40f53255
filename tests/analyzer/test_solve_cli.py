"""``analyze solve`` and ``ca.solve``: the command, the API, the JSON contract, the text
grids, the files of --out (each loadable by --table) and bad input; first on a solve's
result made by hand (tests/analyzer/solve_fakes.py: known tables and verdicts, the
algorithm left out), then end to end on Chase the Ace with few deals."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sims.registry import GAMES
from tests.analyzer.solve_fakes import fake_solved, threshold_actions

CHASE = GAMES["chase-ace"]
needs_tables = pytest.mark.skipif(not CHASE.tables, reason="Chase the Ace's strategy tables are not on this branch")
CONTRACT = {
    "game",
    "decision",
    "players",
    "converged",
    "cycle",
    "sweeps",
    "deals",
    "seats",
    "exploitability",
    "exploitability_se",
    "start",
}


@pytest.fixture
def faked(monkeypatch):
    """``solve_tables`` answering with :func:`fake_solved` (the head to head still plays)."""
    import analyzer.strategy.solve as solve_module

    monkeypatch.setattr(solve_module, "solve_tables", fake_solved)
    return fake_solved


@needs_tables
def test_the_json_is_the_issues_contract_and_a_table_file(cli, faked, tmp_path):
    ran = cli("solve", "chase-ace", "--players", "3", "--hands", "2000", "--no-store", "--json")
    assert ran.exit_code == 0, ran.output
    found = json.loads(ran.stdout)
    assert CONTRACT <= set(found)
    assert (found["game"], found["decision"], found["players"]) == ("chase-ace", "swap", 3)
    assert (found["converged"], found["cycle"], found["sweeps"], found["deals"]) == (True, None, 3, 2000)
    assert found["start"] == {"policy": "default", "exploitability": 0.05, "exploitability_se": 0.004}
    assert (found["exploitability"], found["exploitability_se"]) == (0.004, 0.002)
    assert [seat["seat"] for seat in found["seats"]] == [0, 1, 2]
    assert found["seats"][2]["value"] == pytest.approx(0.22)
    rows = found["seats"][0]["table"]
    assert len(rows) == 182 and {"cell", "action", "margin", "margin_se", "reach"} <= set(rows[0])
    assert rows[0]["cell"] == {"held": "A", "gave": None} and rows[0]["action"] == "swap"
    assert rows[4]["cell"] == {"held": "5", "gave": None} and rows[4]["action"] == "keep" and rows[4]["tie"]
    assert rows[13]["cell"] == {"held": "A", "gave": "A"} and rows[13]["margin"] is None  # unreached
    assert found["seats"][1]["table"][5]["action"] == {"swap": 0.25, "keep": 0.75}
    duel = found["head_to_head"]
    assert [d["seat"] for d in duel] == [0, 1, 2] and all(d["hands"] == 2000 for d in duel)
    assert all(abs(d["difference"] - (d["solved"] - d["start"])) < 1e-9 for d in duel)
    # the JSON itself is a table file: every seat its own table
    (tmp_path / "solved.json").write_text(ran.stdout)
    from sims.table_files import Table

    table = Table.load(tmp_path / "solved.json")
    decision = CHASE.table_decisions()[0]
    assert np.array_equal(table.for_seat(1)[5], [0.25, 0.75])
    assert np.array_equal(table.for_seat(0)[:13].argmax(axis=1), threshold_actions(decision, 4)[:13])


@needs_tables
def test_the_text_draws_a_grid_per_seat(cli, faked):
    ran = cli("solve", "chase-ace", "--players", "3", "--hands", "2000", "--no-store")
    assert ran.exit_code == 0, ran.output
    text = ran.stdout
    assert "stopped at a fixed point after 3 sweeps" in text and "40, 6, 0" in text
    for seat in range(3):
        assert f"seat {seat}: value " in text
    grid = text.split("seat 0: value")[1].split("seat 1: value")[0].splitlines()
    header = next(line for line in grid if "held \\ gave" in line)
    assert header.split()[3:6] == ["none", "A", "2"]
    row_of = {line.split()[0]: line.split()[1:] for line in grid[2:] if line.strip()}
    assert row_of["A"][0] == "swap" and row_of["5"][0] == "keep=" and row_of["6"][0] == "keep"
    assert row_of["K"][0] == "." and row_of["A"][1] == "."  # never reached
    assert "mix" in text.split("seat 1: value")[1] and "held=6 gave=-: swap 0.25, keep 0.75" in text
    assert (
        "exploitability" in text
        and "solved profile: 0.0040 ± 0.002" in text
        and "start profile (default): 0.0500 ± 0.004" in text
    )
    assert "head to head" in text


@needs_tables
def test_out_writes_csv_json_a_loadable_table_and_a_chart_per_seat(cli, faked, tmp_path):
    out = tmp_path / "solved"
    ran = cli("solve", "chase-ace", "--players", "3", "--hands", "2000", "--no-store", "--out", str(out))
    assert ran.exit_code == 0, ran.output
    names = sorted(path.name for path in out.iterdir())
    stem = "chase-ace-3p-solve-swap-seed0-2000"
    assert names == sorted(
        [f"{stem}.csv", f"{stem}.json"] + [f"{stem}-seat{s}.{ext}" for s in range(3) for ext in ("csv", "png")]
    )
    import pandas as pd

    tidy = pd.read_csv(out / f"{stem}.csv")
    assert len(tidy) == 3 * 182 and {"seat", "held", "gave", "action", "margin", "margin_se", "reach"} <= set(tidy)
    played = cli(
        "chase-ace",
        "--players",
        "3",
        "--hands",
        "3000",
        "--no-store",
        "--json",
        "--seat",
        f"1:table={out / f'{stem}-seat1.csv'}",
    )
    assert played.exit_code == 0, played.output
    policy = json.loads(played.stdout)["policy"]
    assert "tables" not in policy[0] and policy[1]["tables"] == [
        {"table": f"{stem}-seat1.csv", "decision": "swap", "cells": 182, "of": 182}
    ]


@needs_tables
def test_the_api_returns_a_result_like_the_others(faked, tmp_path):
    import analyzer as ca

    result = ca.solve("chase-ace", players=3, hands=2000, store=False, max_sweeps=4)
    assert result.summary()["sweeps"] == 3 and str(result).startswith("Chase the Ace: swap solved")
    frame = result.table()
    assert list(frame.columns[:3]) == ["seat", "held", "gave"] and len(frame) == 3 * 182
    assert result.plot(seat=2) is not None
    with pytest.raises(ValueError, match="seat is one of the seats solved"):
        result.plot(seat=5)


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", "chase-ace", "--decision", "bid"], "has no table decision 'bid'"),
        (["solve", "chase-ace", "--hands", "50"], "--hands must be at least 100"),
        (["solve", "chase-ace", "--hands", "lots"], "--hands 'lots' is not a number"),
        (["solve", "chase-ace", "--max-sweeps", "0"], "--max-sweeps must be a whole number from 1 to 200"),
        (["solve", "chase-ace", "--players", "1"], "players"),
        (["solve", "no-such-game"], "unknown game"),
        (["solve", "chase-ace", "--table", "missing.csv"], "cannot read the table file missing.csv"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(cli, args, message):
    if not CHASE.tables and "--decision" not in args and "no-such-game" not in args:
        pytest.skip("Chase the Ace's strategy tables are not on this branch")
    ran = cli(*args, "--no-store")
    assert ran.exit_code == 2, ran.output
    assert ran.stdout == "" and ran.stderr.startswith("error: ") and message in ran.stderr
    assert len(ran.stderr.strip().splitlines()) == 1


@needs_tables
def test_an_interrupt_prints_the_sweeps_so_far(cli, monkeypatch):
    import analyzer.strategy.solve as solve_module
    from analyzer.run import interrupts

    def interrupted(spec, table, decision, hands, seed, context, max_sweeps=12):
        partial = fake_solved(spec, table, decision, hands, seed, context, max_sweeps, stopped="interrupted")
        raise interrupts.Interrupted(2, partial)

    monkeypatch.setattr(solve_module, "solve_tables", interrupted)
    ran = cli("solve", "chase-ace", "--players", "3", "--hands", "2000", "--no-store")
    assert ran.exit_code == 130
    assert "PARTIAL" in ran.stdout and "interrupted after 3 sweeps" in ran.stdout
    assert "interrupted (Ctrl-C) after 3 sweeps" in ran.stderr


@needs_tables
def test_a_real_solve_end_to_end(cli, tmp_path):
    """Chase the Ace, 3 players, a few small sweeps: the whole path with the real algorithm."""
    store = tmp_path / "store.sqlite"
    args = ["solve", "chase-ace", "--players", "3", "--hands", "4000", "--max-sweeps", "3", "--json"]
    first = cli(*args, "--store", str(store))
    assert first.exit_code == 0, first.output
    found = json.loads(first.stdout)
    assert CONTRACT <= set(found) and 1 <= found["sweeps"] <= 4
    assert found["stopped"] in ("fixed point", "cycle", "max sweeps")
    assert all(np.isfinite(seat["value"]) for seat in found["seats"])
    again = cli(*args, "--store", str(store))  # from the store: the same numbers
    assert json.loads(again.stdout)["seats"] == found["seats"]
    unstored = cli(*args, "--no-store")
    assert json.loads(unstored.stdout)["seats"] == found["seats"]
