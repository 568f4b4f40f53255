"""The solve (analyzer.strategy.solve, Monte Carlo sweeps) against Chase the Ace's exact
iterated best response over cells (sims.games.chase_ace.exact.exact_solve): the same
equilibrium tables in every cell where the exact answer is clear, each seat's value within
the solve's error of its exact value, and no per-cell deviation from the solved tables worth
more than the noise."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.run.context import open_context
from analyzer.run.params import Table
from analyzer.strategy.solve import solve_tables
from sims.games.chase_ace import exact
from sims.registry import GAMES

SPEC = GAMES["chase-ace"]
CLEAR = 0.03  # an exact margin of at least this (lose_life per visit) is a clear cell
REACHED = 0.01  # and the cell is reached at least this often


def solved_and_exact(players: int, hands: int):
    rules = SPEC.default_rules()
    policy = SPEC.default_policy(players)
    with open_context(store=False, progress=False) as context:
        solved = solve_tables(SPEC, Table(players, tuple(rules), policy, None, "default"), None, hands, 3, context)
    profiles = exact.exact_solve(rules, players, exact.profile_of_policy(rules, policy, players))
    return rules, solved, profiles


def check_against_exact(players: int, hands: int) -> None:
    rules, solved, profiles = solved_and_exact(players, hands)
    assert np.array_equal(profiles[-1], profiles[-2]), "the exact sweeps end at a fixed point"
    assert solved.stopped == "fixed point" and solved.converged
    equilibrium = exact.exact_profile(rules, players, profiles[-1])
    clear = 0
    for seat in range(players):
        for cell in range(len(SPEC.table_decisions()[0].cells)):
            values = equilibrium["value"][seat][cell]
            if equilibrium["reach"][seat][cell] < REACHED or values is None or abs(values[0] - values[1]) < CLEAR:
                continue
            clear += 1
            assert solved.seats[seat].table[cell][0] == profiles[-1][seat][cell], (seat, cell)
    assert clear >= 10 * players
    mine = np.asarray([seat.table[:, 0] for seat in solved.seats])
    found = exact.exact_profile(rules, players, mine)  # the solved tables, evaluated exactly
    for seat in solved.seats:
        assert abs(seat.value - float(found["lose_life"][seat.seat])) < 4 * seat.se
    # what exact per-cell best responses gain against the solved tables: no more than the noise
    gain = 0.0
    for seat in range(players):
        for cell, values in enumerate(found["value"][seat]):
            if values is not None:
                current = mine[seat][cell] * values[0] + (1 - mine[seat][cell]) * values[1]
                gain += found["reach"][seat][cell] * max(0.0, current - min(values))
    assert gain < 0.002
    assert solved.exploitability < 4 * solved.exploitability_se + 0.002
    assert solved.start_exploitability > 10 * solved.start_exploitability_se


def test_solve_finds_the_exact_equilibrium_at_three_players():
    check_against_exact(3, 200_000)


@pytest.mark.slow
def test_solve_finds_the_exact_equilibrium_at_four_players():
    check_against_exact(4, 400_000)
