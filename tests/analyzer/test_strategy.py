"""Sweeps, best responses, equilibria and paired comparisons (analyzer.strategy.sweeps,
analyzer.strategy.comparisons, analyzer.run.runner.run_paired), tied to exact values where they exist."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import analyzer.run.runner as runner_module
from analyzer.run.context import RunContext
from analyzer.run.runner import Config, run_paired
from analyzer.run.stats import batch_se, linearized
from analyzer.strategy.comparisons import paired_differences, single_switch_rules
from analyzer.strategy.equilibria import iterate_best_response, matrix_game
from analyzer.strategy.sweeps import (
    best_response,
    best_responses,
    field_range,
    sweep,
    with_value,
)
from sims.engine import simulate
from sims.games.chase_ace.exact import exact_hand
from sims.registry import get_game
from sims.spec import Mode

CHASE = get_game("chase-ace")
THRESHOLD = [f.key for f in CHASE.policy_fields].index("threshold")


def le_her_rules():
    return tuple(CHASE.rules_type(**{k: int(v) for k, v in CHASE.variants["le-her"].rules.items()}))


# ------------------------------------------------------------------------------ common random numbers


def test_every_sweep_point_plays_the_same_hand_indices(monkeypatch):
    calls = []
    real = runner_module.play_jobs

    def recording(spec, jobs, n_seats, mode, seed, threads=1, **options):
        calls.extend((seed, policy[0, THRESHOLD], first, count) for _, policy, first, count in jobs)
        return real(spec, jobs, n_seats, mode, seed, threads, **options)

    monkeypatch.setattr(runner_module, "play_jobs", recording)
    values = field_range(CHASE, "threshold=2:6:2")
    sweep(
        CHASE,
        4,
        tuple(CHASE.default_rules()),
        CHASE.default_policy(4),
        Mode.HANDS,
        11,
        values,
        0,
        5000,
        context=RunContext(threads=2),
    )
    by_point = {}
    for seed, value, first, count in calls:
        by_point.setdefault(value, []).append((seed, first, count))
    assert sorted(by_point) == [2.0, 4.0, 6.0]
    ranges = [sorted(ranges) for ranges in by_point.values()]
    assert ranges[0] == ranges[1] == ranges[2]
    covered = sorted((first, count) for _, first, count in ranges[0])
    assert covered[0][0] == 0 and sum(c for _, c in covered) == 5000
    assert all(a[0] + a[1] == b[0] for a, b in zip(covered, covered[1:]))  # hands 0..4999, each once
    assert {seed for seed, _, _ in ranges[0]} == {11}


def test_an_inert_policy_field_gives_identical_sums_at_every_point():
    """Ace Chasing's bet size does nothing with betting off: identical deals give
    bit-identical sums, which different deals would not."""
    spec = get_game("ace-chasing")
    result = sweep(
        spec,
        5,
        tuple(spec.default_rules()),
        spec.default_policy(5),
        Mode.HANDS,
        3,
        field_range(spec, "bet_size=1:4"),
        None,
        3000,
        RunContext(),
    )
    first = result.run.sums(0)
    for point in range(1, 4):
        assert np.array_equal(result.run.sums(point), first)
    differences = paired_differences(result.run, 0, 2)
    assert all(d.difference == 0 and d.se == 0 for d in differences)


def test_a_sweep_point_equals_a_plain_run_of_that_policy():
    policy = with_value(CHASE.default_policy(5), THRESHOLD, 2, 4)
    result = sweep(
        CHASE,
        5,
        tuple(CHASE.default_rules()),
        CHASE.default_policy(5),
        Mode.HANDS,
        8,
        field_range(CHASE, "threshold=3:5"),
        2,
        7000,
        RunContext(),
    )
    assert np.array_equal(result.run.sums(1), simulate(CHASE, CHASE.default_rules(), policy, 5, Mode.HANDS, 8, 0, 7000))


def test_field_ranges_parse_names_steps_and_refuse_bad_ones():
    assert field_range(CHASE, "threshold").values == tuple(float(v) for v in range(14))
    assert field_range(CHASE, "threshold=2:8:3").values == (2.0, 5.0, 8.0)
    assert field_range(CHASE, "threshold_mix=0:1:0.25").values == (0.0, 0.25, 0.5, 0.75, 1.0)
    fan = get_game("fan-tan")
    assert field_range(fan, "style=first:hold-sevens").values == (0.0, 1.0, 2.0)
    for text, words in (
        ("thresh", "unknown policy field"),
        ("threshold=5:3", "LO <= HI"),
        ("threshold=0:14", "0..13"),
        ("threshold=1:5:0.5", "whole"),
        ("threshold=1", "LO:HI"),
        ("threshold=a:3", "not a number"),
        ("threshold=1:5:0", "positive"),
    ):
        with pytest.raises((ValueError, KeyError), match=words):
            field_range(CHASE, text)


# ------------------------------------------------------------------------------ best responses


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_chase_ace_best_response_agrees_with_the_exact_enumerator(players):
    """Against a field all on threshold 7, each seat's Monte Carlo best threshold (or its
    tie set) holds the exact best, and every swept value agrees with the exact value."""
    rules = CHASE.default_rules()
    policy = CHASE.default_policy(players)
    values = field_range(CHASE, "threshold=2:9")
    responses = best_responses(
        CHASE, players, tuple(rules), policy, Mode.HANDS, 5, values, 300_000, context=RunContext(threads=2)
    )
    for response in responses:
        exact = []
        for value in values.values:
            exact.append(
                exact_hand(rules, with_value(policy, THRESHOLD, response.seat, value), players, exact=False)[
                    "lose_life"
                ][response.seat]
            )
        exact_best = int(np.argmin(exact))
        assert exact_best in response.tied, (response.seat, exact, response)
        if not response.is_tie:
            assert response.best == exact_best
        for mean, se, truth in zip(response.means, response.ses, exact):
            assert abs(mean - truth) < 4.5 * se
        truth_gain = exact[response.current] - exact[response.best]
        assert abs(response.gain - truth_gain) < 4.5 * response.gain_se + 1e-12
        assert abs(response.confirmed_gain - truth_gain) < 4.5 * response.confirmed_gain_se + 1e-12
        assert response.values[response.current] == 7


def test_a_tie_is_reported_when_the_runner_up_is_within_two_standard_errors():
    """With very few hands nothing is separated: the best response is a tie."""
    result = sweep(
        CHASE,
        4,
        tuple(CHASE.default_rules()),
        CHASE.default_policy(4),
        Mode.HANDS,
        2,
        field_range(CHASE, "threshold=4:6"),
        0,
        400,
        RunContext(),
    )
    response = best_response(result, 0, 7.0)
    assert response.is_tie and response.runner_up_gap < 2 * response.runner_up_se
    clear = sweep(
        CHASE,
        4,
        tuple(CHASE.default_rules()),
        CHASE.default_policy(4),
        Mode.HANDS,
        2,
        field_range(CHASE, "threshold=0:13:13"),
        0,
        50_000,
        RunContext(),
    )  # never swap vs always swap
    assert not best_response(clear, 0, 7.0).is_tie


def test_iterated_best_response_settles_and_every_seat_is_then_a_best_response():
    players = 4
    values = field_range(CHASE, "threshold=3:8")
    equilibrium = iterate_best_response(
        CHASE,
        players,
        tuple(CHASE.default_rules()),
        CHASE.default_policy(players),
        Mode.HANDS,
        1,
        values,
        100_000,
        context=RunContext(threads=2),
    )
    assert equilibrium.converged and not equilibrium.cycled
    assert equilibrium.rounds[-1] == equilibrium.values
    for response in equilibrium.last_round:  # the final round moved nobody
        assert response.current in response.tied
        assert response.values[response.current] == equilibrium.values[response.seat]


# ------------------------------------------------------------------------------ matrix games


@pytest.mark.slow
def test_le_her_equilibrium_is_recovered_within_error():
    """Le Her (Bellhouse & Fillion 2015): Paul swaps a 7 with probability 3/8, Pierre draws
    on an 8 with probability 5/8, and Paul wins 11327/22100."""
    values = field_range(CHASE, "threshold=5:9")
    game = matrix_game(
        CHASE,
        le_her_rules(),
        CHASE.default_policy(2, "le-her"),
        Mode.HANDS,
        0,
        values,
        2_000_000,
        context=RunContext(threads=2),
    )
    assert game.constant_sum
    at = {v: i for i, v in enumerate(values.values)}
    swap_seven, draw_eight = game.row_mix[at[7.0]], game.column_mix[at[8.0]]
    assert abs(swap_seven - 3 / 8) < max(4 * game.row_mix_se[at[7.0]], 0.02) and game.row_mix_se[at[7.0]] < 0.06
    assert abs(game.row_mix[at[6.0]] - 5 / 8) < max(4 * game.row_mix_se[at[6.0]], 0.02)
    assert abs(draw_eight - 5 / 8) < max(4 * game.column_mix_se[at[8.0]], 0.02) and game.column_mix_se[at[8.0]] < 0.1
    assert sum(game.row_mix[i] for i in (at[5.0], at[8.0], at[9.0])) < 1e-9
    paul_loses = 1 - Fraction(11327, 22100)
    assert abs(game.value - float(paul_loses)) < 4 * game.value_se and game.value_se < 0.001


def test_a_game_whose_headline_is_not_constant_sum_is_not_solved_as_a_matrix_game():
    """With the standard tie rule both players lose on a tie, so losses do not add to one."""
    game = matrix_game(
        CHASE,
        tuple(CHASE.default_rules()),
        CHASE.default_policy(2),
        Mode.HANDS,
        0,
        field_range(CHASE, "threshold=6:7"),
        2000,
        RunContext(),
    )
    assert not game.constant_sum and game.row_mix is None


def test_two_player_win_probability_in_game_mode_is_constant_sum():
    spec = get_game("all-fours")
    game = matrix_game(
        spec,
        tuple(spec.default_rules()),
        spec.default_policy(2),
        Mode.GAMES,
        0,
        field_range(spec, "beg_below=1:3"),
        1000,
        RunContext(),
    )
    assert game.constant_sum
    assert math.isclose(sum(game.row_mix), 1.0) and math.isclose(sum(game.column_mix), 1.0)
    assert np.allclose(game.means[:, :, 0] + game.means[:, :, 1], 1.0)


# ------------------------------------------------------------------------------ paired comparisons


def _compare(seed: int, count: int):
    configs = [
        Config(tuple(CHASE.default_rules()), CHASE.default_policy(4)),
        Config(tuple(CHASE.rules_type(tie=1)), CHASE.default_policy(4)),
    ]  # cancel-matches
    return run_paired(CHASE, 4, Mode.HANDS, seed, configs, count, RunContext())


def test_paired_standard_errors_are_smaller_than_independent_ones():
    """The tie rule only changes hands with a tie for the lowest card, so the same deals
    under both rules are strongly correlated."""
    run = _compare(0, 100_000)
    for d in paired_differences(run, 0, 1):
        if d.outcome == "lose_life":
            assert 0 < d.se < d.se_independent / 1.5 and d.variance_reduction > 2.25
    exchange = [d for d in paired_differences(run, 0, 1) if d.outcome == "exchange"]
    assert all(d.difference == 0 and d.se == 0 for d in exchange)  # the tie rule never changes a swap


def test_paired_standard_error_matches_the_spread_over_seeds():
    """The batch standard error of a difference agrees with the spread of that difference
    over 24 independent seeds (within sampling error of a standard deviation)."""
    differences, ses = [], []
    for seed in range(24):
        found = {(d.seat, d.outcome): d for d in paired_differences(_compare(100 + seed, 8000), 0, 1)}
        differences.append(found[(3, "lose_life")].difference)
        ses.append(found[(3, "lose_life")].se)
    spread = float(np.std(differences, ddof=1))
    assert 0.65 < spread / float(np.mean(ses)) < 1.5


def test_batch_errors_of_one_run_match_the_per_hand_formula():
    run = _compare(4, 64_000)
    values, shares = run.linearized(0)
    se = batch_se(shares)
    for estimate in run.estimates(0):
        if estimate.outcome in ("lose_life", "losers"):
            row = run.players if estimate.seat == "table" else estimate.seat
            column = (
                CHASE.outcomes[Mode.HANDS].table if estimate.seat == "table" else CHASE.outcomes[Mode.HANDS].seat
            ).index(estimate.outcome)
            assert math.isclose(values[row, column], estimate.mean, rel_tol=1e-12)
            assert 0.7 < se[row, column] / estimate.se < 1.3


def test_conditional_means_use_their_own_counts_in_batches():
    """A column X with X_count is a ratio; its linearised estimate is the ratio of totals."""
    spec = get_game("fight-for-the-lead")
    run = run_paired(
        spec, 3, Mode.GAMES, 0, [Config(tuple(spec.default_rules()), spec.default_policy(3))], 3000, RunContext()
    )
    values, _ = run.linearized(0)
    estimate = {(e.seat, e.outcome): e for e in run.estimates(0)}[(1, "finished_net")]
    assert math.isclose(values[1, spec.outcomes[Mode.GAMES].seat.index("finished_net")], estimate.mean, rel_tol=1e-12)
    direct = linearized(list(run.batch_sums[0]), list(run.sizes), spec.outcomes[Mode.GAMES])[0]
    assert np.array_equal(direct, values, equal_nan=True)


def test_target_se_stops_a_paired_run_early_with_every_error_below_it():
    configs = [
        Config(tuple(CHASE.default_rules()), with_value(CHASE.default_policy(4), THRESHOLD, 0, v)) for v in (5, 7)
    ]
    run = run_paired(CHASE, 4, Mode.HANDS, 0, configs, 10_000_000, RunContext(), target_se=0.004)
    assert run.count < 10_000_000
    assert max(e.se for c in range(2) for e in run.estimates(c)) < 0.004
    assert len(run.sizes) >= 32 and run.starts[0] == 0


def test_single_switch_rules_cover_every_switch():
    labels = [label for label, _ in single_switch_rules(CHASE, tuple(CHASE.default_rules()))]
    for field in CHASE.rules:
        assert any(label.startswith(field.key + "=") for label in labels)
    assert "tie=cancel-matches" in labels and "dealer_king_block=false" in labels
    assert "lives=1" in labels and "lives=10" in labels and "lives=3" not in labels


def test_paired_runs_merge_batches_and_agree_for_any_thread_count():
    """A run that stops on --target-se after merging batches plays hands 0..n-1 once each,
    in contiguous batches, and gives the same batches on 1 and 2 threads."""
    configs = [Config(le_her_rules(), CHASE.default_policy(2, "le-her"))]
    runs = [
        run_paired(CHASE, 2, Mode.HANDS, 9, configs, 2_000_000, context=RunContext(threads=t), target_se=0.0009)
        for t in (1, 2)
    ]
    one, two = runs
    assert one.sizes == two.sizes and one.starts == two.starts
    assert all(np.array_equal(a, b) for a, b in zip(one.batch_sums[0], two.batch_sums[0]))
    assert len(one.sizes) >= 64 and set(one.sizes) == {4 * runner_module.FIRST_BATCH}  # merged twice
    assert one.starts[0] == 0 and all(s + n == t for s, n, t in zip(one.starts, one.sizes, one.starts[1:]))
    assert np.array_equal(
        one.sums(0), simulate(CHASE, le_her_rules(), configs[0].policy, 2, Mode.HANDS, 9, 0, one.count)
    )
    assert one.count < 2_000_000 and max(e.se for e in one.estimates(0)) < 0.0009


def test_fresh_hands_follow_the_searched_ones():
    configs = [Config(tuple(CHASE.default_rules()), CHASE.default_policy(3))]
    later = run_paired(CHASE, 3, Mode.HANDS, 2, configs, 5000, RunContext(), first=5000)
    assert later.starts[0] == 5000
    assert np.array_equal(
        later.sums(0), simulate(CHASE, CHASE.default_rules(), configs[0].policy, 3, Mode.HANDS, 2, 5000, 5000)
    )
    with pytest.raises(ValueError, match="at least 2 hands"):
        run_paired(CHASE, 3, Mode.HANDS, 2, configs, 1, RunContext())


def test_a_default_value_off_the_grid_is_still_what_the_gain_is_measured_against():
    policy = CHASE.default_policy(3)  # threshold 7
    response = best_responses(
        CHASE,
        3,
        tuple(CHASE.default_rules()),
        policy,
        Mode.HANDS,
        0,
        field_range(CHASE, "threshold=2:10:4"),
        20_000,
        RunContext(),
    )[0]
    assert response.values == (2.0, 6.0, 7.0, 10.0) and response.values[response.current] == 7.0
    assert response.confirmed_count == 20_000 and response.confirmed_gain_se > 0


def test_constant_sum_needs_two_values_and_enough_hands():
    policy = CHASE.default_policy(2)
    single = matrix_game(
        CHASE,
        tuple(CHASE.default_rules()),
        policy,
        Mode.HANDS,
        0,
        field_range(CHASE, "threshold=7:7"),
        5000,
        RunContext(),
    )
    few = matrix_game(
        CHASE,
        le_her_rules(),
        CHASE.default_policy(2, "le-her"),
        Mode.HANDS,
        0,
        field_range(CHASE, "threshold=6:8"),
        300,
        RunContext(),
    )
    assert not single.constant_sum and not few.constant_sum
