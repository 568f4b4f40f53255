"""Every registered game keeps the game-module contract: a consistent spec, deterministic
kernels for any threads, blocks and chunks, and a plain-Python twin that plays the same
hands to the same integer sums."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from sims.engine import play_jobs, simulate
from sims.registry import GAMES
from sims.spec import Mode

SPECS = list(GAMES.values())
IDS = [spec.name for spec in SPECS]


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_spec_is_consistent(spec):
    fields = {field.key: field for field in spec.rules}
    for field in fields.values():
        if field.kind == "choice":
            assert 0 <= field.default < len(field.choices)
        elif field.kind == "int":
            assert field.lo <= field.default <= field.hi
    policy_keys = {field.key for field in spec.policy_fields}
    for field in spec.policy_fields:
        assert field.lo <= field.default <= field.hi, field.key
    assert "standard" in spec.variants and "default" in spec.policies
    for variant in spec.variants.values():
        assert set(variant.rules) <= set(fields)
        assert variant.policy is None or variant.policy in spec.policies
    for preset in spec.policies.values():
        assert set(preset.base) <= policy_keys
        assert all(set(values) <= policy_keys for values in preset.seats.values())
    assert spec.min_players <= spec.default_players <= spec.max_players
    for mode, outcomes in spec.outcomes.items():
        assert spec.headline[mode] in outcomes.seat
        assert mode in spec.kernels
        assert set(outcomes.lower_is_better) <= set(outcomes.seat + outcomes.table)
        assert set(outcomes.conserved) <= set(outcomes.seat) & set(outcomes.signed)
        assert set(outcomes.conserved.values()) - {None} <= set(outcomes.table)
    # strategy questions (analyze optimize/report) need a field to ask about and a mode to judge by
    assert spec.strategy_fields and set(spec.strategy_fields) <= policy_keys
    assert spec.strategy_mode in spec.outcomes
    assert all(spec.min_players <= n <= spec.max_players for n in spec.report_players)
    assert set(spec.bench_players) and all(spec.min_players <= n <= spec.max_players for n in spec.bench_players)
    assert spec.twin_module() is not None
    exact = spec.exact_module()
    assert exact is None or exact.MAX_PLAYERS >= spec.min_players


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@pytest.mark.parametrize("mode", [Mode.HANDS, Mode.GAMES], ids=["hands", "games"])
def test_same_numbers_for_any_threads_blocks_and_chunks(spec, mode):
    n = spec.default_players
    rules, policy = spec.default_rules(), spec.default_policy(n)
    count = 2000 if mode == Mode.HANDS else 200
    reference = simulate(spec, rules, policy, n, mode, 5, 0, count, threads=1, n_blocks=1)
    assert reference.shape == (n + 1, spec.outcomes[mode].width)
    for threads, blocks in ((1, 5), (2, 2), (2, 13), (3, 7)):
        assert np.array_equal(simulate(spec, rules, policy, n, mode, 5, 0, count, threads, blocks), reference)
    pieces = [
        simulate(spec, rules, policy, n, mode, 5, lo, hi - lo, 2)
        for lo, hi in ((0, 1), (1, count // 2), (count // 2, count))
    ]
    outcomes = spec.outcomes[mode]
    assert np.array_equal(outcomes.combine(outcomes.combine(pieces[0], pieces[1]), pieces[2]), reference)
    jobs = play_jobs(
        spec, [(rules, policy, 0, count // 3), (rules, policy, count // 3, count - count // 3)], n, mode, 5, 2
    )
    assert np.array_equal(outcomes.combine(*jobs), reference)
    assert not np.array_equal(simulate(spec, rules, policy, n, mode, 6, 0, count, 2), reference)


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@pytest.mark.parametrize("mode", [Mode.HANDS, Mode.GAMES], ids=["hands", "games"])
def test_kernel_matches_its_twin_on_default_tables(spec, mode):
    twin = spec.twin_module()
    for n in sorted({spec.min_players, spec.default_players}):
        rules, policy = spec.default_rules(), spec.default_policy(n)
        count = 300 if mode == Mode.HANDS else 30
        assert np.array_equal(
            simulate(spec, rules, policy, n, mode, 9, 3, count, 2), twin.simulate(rules, policy, n, mode, 9, 3, count)
        )


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_check_rejects_tables_outside_the_player_range(spec):
    for n in (spec.min_players - 1, spec.max_players + 1):
        with pytest.raises(ValueError):
            spec.check(spec.default_rules(), spec.default_policy(max(n, 1)), n)
    spec.check(spec.default_rules(), spec.default_policy(spec.default_players), spec.default_players)


def _tables(spec):
    """The default table and every named variant at its suggested size and policy."""
    yield spec.default_rules(), spec.default_policy(spec.default_players), spec.default_players
    for variant in spec.variants.values():
        n = variant.players or spec.default_players
        rules = spec.rules_type(**{**spec.default_rules()._asdict(), **variant.rules})
        yield rules, spec.default_policy(n, variant.policy or "default"), n


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@pytest.mark.parametrize("mode", [Mode.HANDS, Mode.GAMES], ids=["hands", "games"])
def test_quantities_not_declared_signed_are_never_negative(spec, mode):
    """Intervals of counts and totals are built never to go below zero (log scale); that
    is honest only if no single hand or game gives a negative value, which this checks
    hand by hand, with every column's square (a conditional mean's ``_sq`` sums the squares
    of several observations in a hand, so it is only checked to be no smaller than the
    value's square over their count)."""
    outcomes = spec.outcomes[mode]
    assert set(outcomes.signed) <= {
        name for name in outcomes.seat + outcomes.table if name + "_sq" in outcomes.seat + outcomes.table
    }
    for rules, policy, n in _tables(spec):
        for index in range(200 if mode == Mode.HANDS else 40):
            one = simulate(spec, rules, policy, n, mode, 9, index, 1)
            for row, columns in [(r, outcomes.seat) for r in range(n)] + [(n, outcomes.table)]:
                for k, name in enumerate(columns):
                    if name + "_sq" in columns:
                        value, square = one[row][k], one[row][columns.index(name + "_sq")]
                        observations = one[row][columns.index(name + "_count")] if name + "_count" in columns else 1
                        if name + "_count" not in columns:
                            assert square == value * value, name
                        else:
                            assert square * observations >= value * value, name
                        assert outcomes.nonnegative(name) is False or value >= 0, (name, row, index)


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_rules_marked_games_only_change_nothing_in_hand_mode(spec):
    n = spec.default_players
    policy = spec.default_policy(n)
    reference = simulate(spec, spec.default_rules(), policy, n, Mode.HANDS, 4, 0, 5000, threads=2)
    for index, field in enumerate(spec.rules):
        if not field.games_only:
            continue
        values = (
            range(len(field.choices))
            if field.kind == "choice"
            else (0, 1)
            if field.kind == "bool"
            else (field.lo, field.hi)
        )
        for value in values:
            rules = list(spec.default_rules())
            rules[index] = value
            changed = simulate(spec, spec.rules_type(*rules), policy, n, Mode.HANDS, 4, 0, 5000, threads=2)
            assert np.array_equal(changed, reference), (field.key, value)


KERNEL_FILES = sorted((Path(__file__).parents[2] / "sims" / "games").glob("*/kernel.py"))


@pytest.mark.parametrize("path", KERNEL_FILES, ids=[path.parent.name for path in KERNEL_FILES])
def test_no_kernel_function_runs_past_80_lines(path):
    """README.md, "Adding a game": one function per phase of the game, none past about 80
    lines (docstring included), so a kernel reads as its rules do."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lengths = {
        node.name: node.end_lineno - node.lineno + 1 for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
    }
    assert lengths and {name: n for name, n in lengths.items() if n > 80} == {}
