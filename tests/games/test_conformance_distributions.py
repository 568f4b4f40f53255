"""Every distribution a game declares (``Outcomes.distributions``: a group of indicator
columns drawn as a histogram, such as the game length) splits the hands or games into
bins: each item lands in exactly one bin (a conditional distribution, whose bins have
``_count`` companions: each item its condition holds for, such as All-Fours' deals where
the dealer runs), the bins add up to the items counted, the default table's items spread
over more than one bin, and the twin fills the same bins.
What each bin means (the rounds or deals it holds) is the game's own, tested beside its
kernel."""

from __future__ import annotations

import numpy as np
import pytest

from sims.engine import simulate
from sims.registry import GAMES
from sims.spec import MODE_NAMES

CASES = [
    (spec.name, mode, group)
    for spec in GAMES.values()
    for mode in spec.modes
    for group in spec.outcomes[mode].distributions
]
IDS = [f"{name}-{MODE_NAMES[mode]}-{group}" for name, mode, group in CASES]
ONE_BY_ONE = 30  # items played one at a time
TOGETHER = 300  # items played in one run


def _bins(name: str, mode: int, group: str) -> tuple[bool, list[int], int | None]:
    """Whether the group's columns are the table's (else each seat's), their indices, and
    for a conditional distribution the index of the count of items it covers."""
    outcomes = GAMES[name].outcomes[mode]
    _, labels = outcomes.groups[group]
    names = [f"{group}_{label}" for label in labels]
    on_table = all(column in outcomes.table for column in names)
    columns = outcomes.table if on_table else outcomes.seat
    assert all(column in columns for column in names), names
    indices = [columns.index(column) for column in names]
    assert indices == list(range(indices[0], indices[0] + len(indices)))  # one run of columns, as kernels write them
    counted = [column + "_count" in columns for column in names]
    assert len(set(counted)) == 1, names  # every bin has its count, or none has
    return on_table, indices, columns.index(names[0] + "_count") if counted[0] else None


def _covered(sums, row: int, count_column: int | None, items: int) -> int:
    """Items the distribution covers in ``row``: all of them, or those counted."""
    return items if count_column is None else int(sums[row, count_column])


def test_every_game_declares_a_distribution():
    assert {name for name, _, _ in CASES} == set(GAMES)


@pytest.mark.parametrize("name,mode,group", CASES, ids=IDS)
def test_each_item_lands_in_exactly_one_bin(name, mode, group):
    spec = GAMES[name]
    n = spec.default_players
    rules, policy = spec.default_rules(), spec.default_policy(n)
    on_table, bins, count_column = _bins(name, mode, group)
    rows = [n] if on_table else list(range(n))
    covered = 0
    for item in range(ONE_BY_ONE):
        sums = simulate(spec, rules, policy, n, mode, 13, item, 1, threads=1)
        for row in rows:
            inside = _covered(sums, row, count_column, 1)
            assert inside in (0, 1)
            assert sorted(sums[row, bins].tolist()) == [0] * (len(bins) - inside) + [1] * inside, (item, row)
            covered += inside
    assert covered > 0


@pytest.mark.parametrize("name,mode,group", CASES, ids=IDS)
def test_the_bins_add_up_spread_and_equal_the_twins(name, mode, group):
    spec = GAMES[name]
    n = spec.default_players
    rules, policy = spec.default_rules(), spec.default_policy(n)
    on_table, bins, count_column = _bins(name, mode, group)
    sums = simulate(spec, rules, policy, n, mode, 29, 0, TOGETHER, threads=1)
    for row in [n] if on_table else range(n):
        assert sums[row, bins].sum() == _covered(sums, row, count_column, TOGETHER) > 0
        assert (sums[row, bins] > 0).sum() >= 2
    count = TOGETHER // 10  # the twin is plain Python
    kernel = simulate(spec, rules, policy, n, mode, 29, 0, count, threads=1)
    twin = spec.twin_module().simulate(rules, policy, n, mode, 29, 0, count)
    assert np.array_equal(np.asarray(kernel)[:, bins], np.asarray(twin)[:, bins])
