"""Strategy tables in every command and API function that takes a policy: ``--table FILE``
(every seat) and ``--seat S:table=FILE`` (one seat), ``tables=[...]`` and ``seats={0:
table}``; a bad file is one sentence and exit 2 before any hand; the outputs name the
seats that play a table.  A table equal to the default policy gives the default's numbers
exactly; a table that changes play changes them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sims import solve
from sims.core.table import ALL, pure
from sims.registry import GAMES
from sims.table_files import Table, write_csv, write_json

CHASE = GAMES["chase-ace"]
pytestmark = pytest.mark.skipif(not CHASE.tables, reason="Chase the Ace's strategy tables are not on this branch")
HANDS = "3000"


def _swap_decision():
    return CHASE.table_decisions()[0]


@pytest.fixture
def default_file(tmp_path):
    """The default policy of 4 players written as tables, every seat its own (JSON)."""
    decision = _swap_decision()
    tables = solve.policy_tables(CHASE, CHASE.default_rules(), CHASE.default_policy(4), 4, decision.name)
    path = tmp_path / "default.json"
    path.write_text(json.dumps(write_json(CHASE.name, decision, tables, 4)))
    return path


@pytest.fixture
def always_swap(tmp_path):
    """Every seat swaps (cuts) in every cell held alone; after a swap from the right its
    policy decides (cells left out)."""
    decision = _swap_decision()
    actions = [0 if gave is None else -1 for _, gave in decision.cells]
    path = tmp_path / "always-swap.csv"
    path.write_text(write_csv(CHASE.name, decision, {ALL: pure(decision, actions)}))
    return path


def _results(ran) -> dict:
    assert ran.exit_code == 0, ran.output
    found = json.loads(ran.stdout)
    return {(r["seat"], r["outcome"]): (r["mean"], r["se"]) for r in found["results"]}


def test_a_table_equal_to_the_default_gives_the_default_numbers(cli, default_file, always_swap):
    base = ["chase-ace", "--players", "4", "--hands", HANDS, "--no-store", "--json"]
    plain = _results(cli(*base))
    assert _results(cli(*base, "--table", str(default_file))) == plain
    changed = _results(cli(*base, "--table", str(always_swap)))
    assert changed != plain
    assert changed[(0, "lose_life")] != plain[(0, "lose_life")]


def test_one_seat_plays_its_table_and_the_outputs_say_so(cli, always_swap):
    base = ["chase-ace", "--players", "4", "--hands", HANDS, "--no-store"]
    ran = cli(*base, "--json", "--seat", f"2:table={always_swap}", "--seat", "3:threshold=5")
    assert ran.exit_code == 0, ran.output
    policy = json.loads(ran.stdout)["policy"]
    assert [("tables" in row) for row in policy] == [False, False, True, False]
    assert policy[2]["tables"] == [{"table": "always-swap.csv", "decision": "swap", "cells": 13, "of": 182}]
    assert policy[3]["threshold"] == 5
    text = cli(*base, "--seat", f"2:table={always_swap}").stdout
    assert "tables  seat 2 plays swap from always-swap.csv (13 of 182 cells; the policy decides the rest)" in text
    every = cli(*base, "--table", str(always_swap)).stdout
    assert "tables  every seat plays swap from always-swap.csv" in every


def test_the_api_takes_tables_and_seats(always_swap, default_file):
    import analyzer as ca

    table = ca.Table.load(always_swap)
    base = dict(players=4, hands=3000, store=False)
    plain = ca.simulate("chase-ace", **base).summary()["results"]
    assert ca.simulate("chase-ace", tables=[ca.Table.load(default_file)], **base).summary()["results"] == plain
    by_seat = ca.simulate("chase-ace", seats={1: table}, **base).summary()
    from_path = ca.simulate("chase-ace", seats={1: {"table": str(always_swap)}}, **base).summary()
    assert by_seat["results"] == from_path["results"] != plain
    assert [("tables" in row) for row in by_seat["policy"]] == [False, True, False, False]
    everyone = ca.simulate("chase-ace", tables=str(always_swap), **base).summary()
    assert all("tables" in row for row in everyone["policy"])
    with pytest.raises(ValueError, match="tables is a table"):
        ca.simulate("chase-ace", tables=3, **base)
    with pytest.raises(ValueError, match="two tables for swap of seat 0"):
        ca.simulate("chase-ace", tables=[table, table], **base)


def test_compare_plays_a_table_head_to_head(cli, always_swap):
    ran = cli(
        "compare",
        "chase-ace",
        "--players",
        "4",
        "--hands",
        HANDS,
        "--no-store",
        "--json",
        "--against-seat",
        f"0:table={always_swap}",
    )
    assert ran.exit_code == 0, ran.output
    found = json.loads(ran.stdout)
    assert found["labels"] == ["default", "default + seat 0: table=always-swap.csv"]
    assert found["changed"] == ["seat 0 swap played from: its policy | always-swap.csv"]
    assert "tables" in list(found["policies"].values())[1][0]


def test_sweep_optimize_and_advise_take_tables(cli, always_swap):
    common = ["--players", "3", "--no-store", "--table", str(always_swap)]
    swept = cli("sweep", "chase-ace", "--param", "threshold=3:4", "--hands", "2000", *common)
    assert swept.exit_code == 0, swept.output and "tables  every seat plays swap" in swept.stdout
    best = cli("optimize", "chase-ace", "--field", "threshold=3:4", "--hands", "2000", "--rounds", "1", *common)
    assert best.exit_code == 0, best.output
    advice = cli(
        "advise",
        "chase-ace",
        "--position",
        "0",
        "--holding",
        "5h",
        "--hands",
        "2000",
        "--no-store",
        "--players",
        "3",
        "--seat",
        f"1:table={always_swap}",
    )
    assert advice.exit_code == 0, advice.output
    assert (
        "seat 1 playing the default policy (threshold=7, threshold_mix=0, informed=1) with its swap played from the table always-swap.csv"
        in advice.stdout
    )


def _bad_files(tmp_path) -> list[tuple[str, str]]:
    """(file, what the sentence says) for each way a file can be wrong."""
    cases = {
        "unknown-cell.csv": ("game,decision,seat,held,gave,action\nchase-ace,swap,all,Z,,swap\n", "no cell held=Z"),
        "illegal.csv": ("game,decision,seat,held,gave,action\nchase-ace,swap,all,5,,fold\n", "'fold' is no action"),
        "decision.csv": ("game,decision,seat,held,gave,action\nchase-ace,bid,all,5,,swap\n", "no table decision 'bid'"),
        "malformed.json": ('{"game": "chase-ace", "decision": ', "is not valid JSON"),
        "columns.csv": ("held,action\n5,swap\n", "a CSV table needs the columns"),
        "sum.csv": ("game,decision,seat,held,gave,action\nchase-ace,swap,all,5,,swap:0.5 keep:0.2\n", "sum to 1"),
        "seat.csv": ("game,decision,seat,held,gave,action\nchase-ace,swap,7,5,,swap\n", "rows for seat 7"),
        "game.csv": ("game,decision,seat,held,gave,action\nno-game,swap,all,5,,swap\n", "unknown game 'no-game'"),
        "empty.csv": ("", "a CSV table needs the columns"),
    }
    found = []
    for name, (text, said) in cases.items():
        (tmp_path / name).write_text(text)
        found.append((str(tmp_path / name), said))
    found.append((str(tmp_path / "missing.csv"), "cannot read the table file missing.csv"))
    return found


@pytest.mark.parametrize("command", ["game", "compare", "sweep", "solve", "advise"])
def test_a_bad_file_is_one_sentence_and_exit_2_before_any_hand(cli, tmp_path, command):
    prefix = {
        "game": ["chase-ace"],
        "compare": ["compare", "chase-ace", "--rule", "ace_high=true"],
        "sweep": ["sweep", "chase-ace", "--param", "threshold"],
        "solve": ["solve", "chase-ace"],
        "advise": ["advise", "chase-ace", "--position", "0", "--holding", "5h"],
    }[command]
    cases = _bad_files(tmp_path)
    for path, said in cases if command == "game" else cases[:1] + cases[-1:]:
        for flag in (["--table", path], ["--seat", f"0:table={path}"]):
            if command == "sweep" and flag[0] == "--seat":
                continue
            ran = cli(*prefix, "--players", "4", "--hands", "1e9", "--no-store", *flag)  # 1e9: no work before
            assert ran.exit_code == 2, (path, ran.output)
            assert ran.stdout == "" and ran.stderr.startswith("error: ") and said in ran.stderr, (path, ran.stderr)
            assert len(ran.stderr.strip().splitlines()) == 1


def test_a_file_for_another_game_or_seat_is_refused(tmp_path, always_swap):
    from analyzer.run.params import table_blocks

    other = Table("fan-tan", "swap", {ALL: {("5", None): {"swap": 1.0}}}, source="other.csv")
    with pytest.raises(ValueError, match="other.csv is a table of fan-tan, not of chase-ace"):
        table_blocks(CHASE, 4, [other], {})
    mine = Table.load(always_swap)
    with pytest.raises(ValueError, match="seat 4 does not exist with 4 players"):
        table_blocks(CHASE, 4, [], {4: [mine]})
    only_seat_two = Table("chase-ace", "swap", {2: {("5", None): {"swap": 1.0}}}, source="two.csv")
    with pytest.raises(ValueError, match="two.csv has no row for seat 1"):
        table_blocks(CHASE, 4, [], {1: [only_seat_two]})
    chosen, played = table_blocks(CHASE, 4, [mine], {2: [only_seat_two]})
    assert [(p.seat, p.source, p.cells) for p in played] == [
        (0, "always-swap.csv", 13),
        (1, "always-swap.csv", 13),
        (2, "two.csv", 1),
        (3, "always-swap.csv", 13),
    ]
    assert np.array_equal(chosen[2]["swap"][4], [1.0, 0.0]) and (chosen[2]["swap"][0] < 0).all()


def test_seat_options_parse_tables_beside_fields():
    from analyzer.cli.parse import parse_seat_assignments

    assert parse_seat_assignments(["0:table=a.csv", "0:threshold=5", "0:table=b.json", "2:table=c.csv"]) == {
        0: {"table": ["a.csv", "b.json"], "threshold": "5"},
        2: {"table": ["c.csv"]},
    }
    with pytest.raises(ValueError, match="names no file"):
        parse_seat_assignments(["0:table="])
