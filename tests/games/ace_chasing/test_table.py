"""Ace Chasing's strategy tables (sims.games.ace_chasing.table): stacked deals where a table
decides (kernel and twin), the cells as a player reads them, the kernel's tables against
the twin in every mode, and what a solve sweep from the default profile finds."""

from __future__ import annotations

import numpy as np
import pytest

import sims.games.ace_chasing.twin as twin
from sims import advice as shared
from sims import situations, solve
from sims.core.cards import FACES, parse_cards
from sims.core.rng import Stream
from sims.core.table import left_out, pure, with_tables
from sims.engine import simulate
from sims.games.ace_chasing import Rules, stacked
from sims.games.ace_chasing.kernel import table_cell_nb
from sims.games.ace_chasing.table import GAVE_NONE, KEEP, N_CELLS, SWAP, TABLES, cell_of, policy_table
from sims.registry import GAMES
from sims.spec import Mode
from tests.games.advice_twin import twin_advice

SPEC = GAMES["ace-chasing"]
N_FIELDS = len(SPEC.policy_fields)
IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
play_dealt = twin.play_dealt  # rebound per test by the `implementation` fixture (conftest.py)
SWAP_TABLE, RIGHT_TABLE = TABLES
NEVER = [0, 0, 0, 14, 1, 1000, 0]  # the never-swap policy row, no bets
R = Rules()


def cell(decision, held, gave=None):
    return decision.cell_index()[(held, gave)]


def only(decision, cells: dict) -> np.ndarray:
    """A table of ``decision`` holding the given cells (``{(held, gave): action or mix}``), the rest left out."""
    table = left_out(decision)
    for (held, gave), action in cells.items():
        table[cell(decision, held, gave)] = np.eye(2)[action] if isinstance(action, int) else action
    return table


def matrix(k, tables: dict, row=NEVER) -> np.ndarray:
    """``k`` rows of ``row`` with ``tables[seat][decision name]``."""
    return with_tables(np.array([row] * k, dtype=float), N_FIELDS, TABLES, tables)


def play(policy, text, stream=None):
    return play_dealt(R, policy, parse_cards(text), stream=stream)


# ---------------------------------------------------------------------------------------
# Stacked deals: the table decides, on the kernel and on the twin


@pytest.mark.usefixtures("implementation")
def test_a_table_cell_overrides_the_policy():
    # Seat 0 never swaps by its policy, but its table swaps a dealt 7: it takes seat 1's 9c.
    policy = matrix(4, {0: {"swap": only(SWAP_TABLE, {("7", None): SWAP})}})
    res = play(policy, "7h 9c 2d Qs")
    assert res["swap"] == [1, 0, 0, 0]
    assert res["final"] == parse_cards("9c 7h 2d Qs")
    assert res["exposed"] == [1, 1, 1, 0]  # all lower than the queen


@pytest.mark.usefixtures("implementation")
def test_a_left_out_cell_falls_back_to_the_policy():
    # Seat 0's table holds only the cell of a dealt 9 (swap); in every other cell its
    # policy (threshold 5) decides: a 3 is swapped, a 7 kept.
    row = [5, 0, 1, 14, 1, 1000, 0]
    policy = matrix(4, {0: {"swap": only(SWAP_TABLE, {("9", None): SWAP})}}, row)
    assert play(policy, "9h 3c 2d Qs")["swap"][0] == 1
    assert play(policy, "3h 9c 2d Qs")["swap"][0] == 1
    assert play(policy, "7h 9c 2d Qs")["swap"][0] == 0
    assert play(matrix(4, {}, row), "9h 3c 2d Qs")["swap"][0] == 0


@pytest.mark.usefixtures("implementation")
def test_the_rank_given_is_part_of_the_cell():
    # Seat 1 swaps a 7 only after giving a 9 to its right-hand neighbour's swap.
    tables = {
        0: {"swap": only(SWAP_TABLE, {("7", None): SWAP})},
        1: {"swap": only(SWAP_TABLE, {("7", "9"): SWAP})},
    }
    res = play(matrix(5, tables), "7h 9c 2d 5s Qs")
    assert res["swap"] == [1, 1, 0, 0, 0]
    assert res["final"] == parse_cards("9c 2d 7h 5s Qs")
    # The same 7 received after giving a 10: another cell, left out, the policy keeps.
    res = play(matrix(5, tables), "7h 10c 2d 5s Qs")
    assert res["swap"] == [1, 0, 0, 0, 0]
    # A dealt 7 (nobody swapped with seat 1): the cell (7, none), left out.
    assert play(matrix(5, tables), "9h 7c 2d 5s Qs")["swap"] == [0, 0, 0, 0, 0]


@pytest.mark.usefixtures("implementation")
def test_the_matador_right_plays_its_own_table():
    # Seat 2 of 4 is on the matador's right: its swap table does not apply, its
    # matador_right table hands the matador the 2d.
    tables = {2: {"swap": only(SWAP_TABLE, {("2", None): KEEP}), "matador_right": only(RIGHT_TABLE, {("2", None): 0})}}
    res = play(matrix(4, tables), "9h Jc 2d 8s")
    assert res["swap"] == [0, 0, 1, 0]
    assert res["final"] == parse_cards("9h Jc 8s 2d")
    assert res["exposed"] == [0, 0, 0, 0] and res["knocked_out"] == 1
    # The swap table alone leaves seat 2 to its policy (never swap).
    tables[2].pop("matador_right")
    assert play(matrix(4, tables), "9h Jc 2d 8s")["swap"] == [0, 0, 0, 0]


def _streams_by_first_draw():
    """Two streams, the first drawing u < 0.5 and the second u >= 0.5."""
    below = next(i for i in range(100) if Stream(5, i).uniform() < 0.5)
    above = next(i for i in range(100) if Stream(5, i).uniform() >= 0.5)
    return Stream(5, below), Stream(5, above)


@pytest.mark.usefixtures("implementation")
def test_a_mixed_cell_draws_one_uniform_from_the_stream():
    policy = matrix(4, {0: {"swap": only(SWAP_TABLE, {("7", None): [0.5, 0.5]})}})
    for stream, swaps in zip(_streams_by_first_draw(), (1, 0)):
        after = Stream(0, 0)
        after.s = list(stream.s)
        after.uniform()  # the one draw the mixed cell makes
        assert play(policy, "7h 9c 2d Qs", stream)["swap"][0] == swaps
        assert stream.s == after.s
    # A pure cell draws nothing.
    stream = Stream(5, 0)
    start = list(stream.s)
    assert play(policy, "3h 9c 2d Qs", stream)["swap"] == [0, 0, 0, 0]
    assert stream.s == start


# ---------------------------------------------------------------------------------------
# Cells


def test_cells_are_the_rank_held_and_the_rank_given():
    assert SWAP_TABLE.cells[:13] == tuple((face, None) for face in "A 2 3 4 5 6 7 8 9 10 J Q K".split())
    assert SWAP_TABLE.cells[cell_of(4, GAVE_NONE)] == ("5", None)
    assert SWAP_TABLE.cells[cell_of(2, 8)] == ("3", "9")
    assert SWAP_TABLE.n_cells == N_CELLS == 182 and RIGHT_TABLE.cells == SWAP_TABLE.cells
    for held in range(13):
        for gave in range(14):
            assert table_cell_nb(held, gave) == cell_of(held, gave)
    assert "took your 9" in SWAP_TABLE.describe(("3", "9"))


def test_the_twin_classifies_literal_deals():
    # Seat 0 (threshold 7) swaps its 5h for seat 1's Jc; seat 1 holds the 5h after giving
    # the J and swaps it on; seat 2, the matador's right, holds the 5h after giving its 9d
    # and keeps (matador_right_threshold 0).
    row = [7, 0, 1, 14, 1, 1000, 0]
    res = twin.play_dealt(R, np.array([row] * 4, dtype=float), parse_cards("5h Jc 9d Ks"))
    assert [SWAP_TABLE.cells[c] for c in res["cell"][:3]] == [("5", None), ("5", "J"), ("5", "9")]
    assert res["swap"] == [1, 1, 0, 0]


def test_the_policy_as_a_table():
    default = policy_table(R, SPEC.default_policy(4)[0], 0, 4, "swap")
    swaps = {SWAP_TABLE.cells[c] for c in range(N_CELLS) if default[c, SWAP] == 1.0}
    assert {held for held, _ in swaps} == set("A 2 3 4 5 6 7".split())
    assert len(swaps) == 7 * 14 and (default.sum(axis=1) == 1).all()
    aces_only = policy_table(R, np.array([0, 0, 1, 14, 1, 1000, 0]), 0, 4, "matador_right")
    assert {RIGHT_TABLE.cells[c][0] for c in range(N_CELLS) if aces_only[c, SWAP] == 1.0} == {"A"}


# ---------------------------------------------------------------------------------------
# Kernel against twin, every mode


def _mixed_tables(rng, n):
    tables = {}
    for seat in range(n):
        chosen = {}
        for decision in TABLES:
            probabilities = rng.choice([0.0, 1.0, 0.3, 0.7], size=(N_CELLS, 1))
            table = np.hstack([probabilities, 1.0 - probabilities])
            table[rng.random(N_CELLS) < 0.2] = -1.0  # some cells left out
            chosen[decision.name] = table
        tables[seat] = chosen
    return tables


@pytest.mark.parametrize("mode,count", [(Mode.HANDS, 400), (Mode.GAMES, 40)], ids=["hands", "games"])
def test_mixed_tables_kernel_equals_twin(mode, count):
    rng = np.random.default_rng(8)
    for trial, rules in enumerate((R, Rules(king_block=True, betting=1), Rules(next_matador=1))):
        n = 5 + 2 * trial
        policy = with_tables(SPEC.default_policy(n), N_FIELDS, TABLES, _mixed_tables(rng, n))
        got = simulate(SPEC, rules, policy, n, mode, trial, 3, count, threads=2)
        assert np.array_equal(got, twin.simulate(rules, policy, n, mode, trial, 3, count))
        assert not np.array_equal(got, simulate(SPEC, rules, SPEC.default_policy(n), n, mode, trial, 3, count))


def test_a_table_of_the_rank_held_plays_as_the_policy_it_spells():
    # "swap a 6 or lower" as a table is the policy threshold 6, and the kernel plays it by
    # the policy's own path (folded into the masks).
    n = 8
    threshold6 = SPEC.default_policy(n)
    threshold6[:, 0] = 6
    table = pure(SWAP_TABLE, [SWAP if FACES.index(held) <= 5 else KEEP for held, _ in SWAP_TABLE.cells])
    widened = with_tables(SPEC.default_policy(n), N_FIELDS, TABLES, {s: {"swap": table} for s in range(n)})
    assert np.array_equal(
        simulate(SPEC, R, widened, n, Mode.HANDS, 2, 0, 3000), simulate(SPEC, R, threshold6, n, Mode.HANDS, 2, 0, 3000)
    )


ADVICE_CASES = {
    "policy": ("policy", 6, 2, "5h", {"earlier": "ks", "gave": "9c"}, 600),
    "seen": ("seen", 6, 3, "3c", {"earlier": "k?s", "gave": "Jd"}, 3000),
    "game": ("policy", 5, 1, "9s", {"game": "yes"}, 600),
}


@pytest.mark.parametrize("name", sorted(ADVICE_CASES))
def test_advice_with_tables_kernel_equals_twin(name):
    infer, n, position, holding, context, deals = ADVICE_CASES[name]
    found = situations.situation(SPEC, R, n, position, parse_cards(holding), context, infer=infer)
    policy = with_tables(SPEC.default_policy(n), N_FIELDS, TABLES, _mixed_tables(np.random.default_rng(4), n))
    got = shared.simulate_advice(SPEC, R, policy, n, found, 11, 5, deals)
    assert got == twin_advice(SPEC, R, policy, n, found, 11, 5, deals)
    assert got != shared.simulate_advice(SPEC, R, SPEC.default_policy(n), n, found, 11, 5, deals)


# ---------------------------------------------------------------------------------------
# Solve


def _margin(sums, seat, code):
    """Mean exposure of swap minus keep in a cell, and its paired standard error."""
    visits = sums[seat, code, 0]
    swap, keep = sums[seat, code, 1] / visits, sums[seat, code, 3] / visits
    cross = 1 + 2 * 2 + SWAP * 2 + KEEP  # the products of the two actions' outcomes
    second = (sums[seat, code, 2] - 2 * sums[seat, code, cross] + sums[seat, code, 4]) / visits
    return swap - keep, np.sqrt((second - (swap - keep) ** 2) / visits)


def test_a_sweep_from_the_default_profile():
    """From the default field (swap on 7 or lower) at 8 players, one sweep of 20,000 deals:
    seat 0 holding its dealt ace is much better off passing it on (an ace is exposed
    unless the matador ends with an ace), and holding a 7 much better off keeping it (the
    default's threshold is too high: a 7 is more often above the matador's card than the
    card it would receive); holding a king, swapping only hands it to the next seat."""
    n = 8
    profile = with_tables(
        SPEC.default_policy(n),
        N_FIELDS,
        TABLES,
        {s: {"swap": t} for s, t in solve.policy_tables(SPEC, R, SPEC.default_policy(n), n, "swap").items()},
    )
    sums = solve.simulate_solve(SPEC, R, profile, n, "swap", 0, 0, 20000)
    assert sums.shape == (n, N_CELLS, 9)
    assert sums[n - 2 :, :, 0].sum() == 0  # the matador's right and the matador: no swap visit
    for held, better in (("A", "swap"), ("7", "keep"), ("K", "keep")):
        margin, se = _margin(sums, 0, cell(SWAP_TABLE, held))
        assert (margin < -3 * se) if better == "swap" else (margin > 3 * se), (held, margin, se)
