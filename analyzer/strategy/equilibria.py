"""Equilibria of a policy field: iterated best response, the matrix game of a two-player
constant-sum game, and :func:`optimize_all`, which runs what fits the table (see
``analyzer.strategy.sweeps`` for the sweeps and best responses they are built on).

* **Iterated best response** moves one seat at a time to a best response to the others
  (keeping its value while that is tied with the best) until a whole round changes
  nothing: a per-seat equilibrium among the swept values, symmetric when every seat ends
  on the same value.  A state seen before ends the search as a cycle.
* A two-player game whose headline is **constant-sum** on the swept policies (the two
  seats' integer totals add up to the same amount per hand in every batch of every pair of
  values, as with exactly one loser or chips that only change hands; at least two values
  and 1,000 hands per pair) is solved as a matrix game over the swept pure values: each
  seat's optimal mix and the value, with bootstrap errors from resampling the batches, and
  the value of that mix replayed on fresh hands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.run import interrupts
from analyzer.run.context import RunContext
from analyzer.run.runner import Config, PairedRun, run_paired
from analyzer.run.stats import batch_se
from analyzer.strategy.matrix_game import solve_zero_sum
from analyzer.strategy.sweeps import (
    BestResponse,
    FieldRange,
    best_responses,
    headline_column,
    with_value,
)
from sims.spec import GameSpec

BOOTSTRAP_SAMPLES = 60


@dataclass(frozen=True)
class Equilibrium:
    """Where iterated best response ended."""

    values: tuple[float, ...]  # each seat's final value
    rounds: tuple[tuple[float, ...], ...]  # each seat's value after every round
    converged: bool  # a whole round changed nothing
    cycled: bool  # a state repeated without converging
    last_round: tuple[BestResponse, ...]  # the best responses of the final round

    @property
    def symmetric(self) -> bool:
        return self.converged and len(set(self.values)) == 1


def iterate_best_response(
    spec: GameSpec,
    players: int,
    rules: tuple,
    policy: np.ndarray,
    mode: int,
    seed: int,
    values: FieldRange,
    count: int,
    context: RunContext,
    max_rounds: int = 6,
) -> Equilibrium:
    """Seats take turns moving to a best response (staying put while tied with the best)
    until a round changes nothing, a state repeats, or ``max_rounds`` rounds are played."""
    current = np.array(policy, dtype=np.float64, copy=True)
    seen = {tuple(current[:, values.column])}
    rounds = []
    converged = cycled = False
    last: list[BestResponse] = []
    for number in range(1, max_rounds + 1):
        changed = False
        last = []
        for seat in range(players):
            interrupts.check()  # a new stage: where a pending Ctrl-C stops
            context.stage(f"round {number} of iterated best response, seat {seat} of {players}")
            response = best_responses(
                spec, players, rules, current, mode, seed, values, count, context, seats=[seat], confirmed=False
            )[0]
            last.append(response)
            if response.current not in response.tied:
                current[seat, values.column] = response.values[response.best]
                changed = True
        state = tuple(float(v) for v in current[:, values.column])
        rounds.append(state)
        if not changed:
            converged = True
            break
        if state in seen:
            cycled = True
            break
        seen.add(state)
    return Equilibrium(rounds[-1], tuple(rounds), converged, cycled, tuple(last))


MIN_CONSTANT_SUM_COUNT = 1000  # fewer hands per cell are too few to call a game constant-sum


@dataclass(frozen=True)
class MatrixGame:
    """A two-player game over the swept pure values of one field (rows: seat 0).

    ``value`` is seat 0's headline at the equilibrium as the matrix estimates it (slightly
    flattered by solving on the same hands); ``confirmed_value`` plays the equilibrium's
    support on fresh hands and weights the cells by the two mixes.
    """

    values: tuple[float, ...]
    means: np.ndarray  # [row value, column value, seat] headline
    constant_sum: bool
    count: int
    row_mix: tuple[float, ...] | None = None
    column_mix: tuple[float, ...] | None = None
    value: float = math.nan
    value_se: float = math.nan
    row_mix_se: tuple[float, ...] | None = None
    column_mix_se: tuple[float, ...] | None = None
    confirmed_value: float = math.nan
    confirmed_value_se: float = math.nan

    def support(self, seat: int) -> list[tuple[float, float, float]]:
        """``(value, probability, standard error)`` of each value seat 0 (rows) or seat 1
        (columns) plays with positive probability at the equilibrium."""
        mix, ses = (self.row_mix, self.row_mix_se) if seat == 0 else (self.column_mix, self.column_mix_se)
        if mix is None or ses is None:  # not solved: the game is not constant-sum
            return []
        return [(v, p, e) for v, p, e in zip(self.values, mix, ses) if p > 1e-9]


def _is_constant_sum(run: PairedRun, column: int) -> bool:
    """Whether the two seats' headline totals add up to the same amount per hand in every
    batch of every configuration (exactly one loser, chips that only change hands...)."""
    if len(run.configs) < 2 or run.count < MIN_CONSTANT_SUM_COUNT:
        return False
    rates = {
        Fraction(int(sums[0, column]) + int(sums[1, column]), size)
        for parts in run.batch_sums
        for sums, size in zip(parts, run.sizes)
    }
    return len(rates) == 1


def matrix_game(
    spec: GameSpec,
    rules: tuple,
    policy: np.ndarray,
    mode: int,
    seed: int,
    values: FieldRange,
    count: int,
    context: RunContext,
) -> MatrixGame:
    """Play every pair of pure values for the two seats on the same hands; when the
    headline is constant-sum, solve the matrix game by linear programming, with bootstrap
    errors (resampling whole batches, so every cell keeps its pairing) and the value of
    the solution replayed on fresh hands."""

    interrupts.check()  # a new stage: where a pending Ctrl-C stops
    context.stage(f"the matrix game over {values.field.key}")
    column, sign = headline_column(spec, mode)
    points = values.values
    configs = []
    for row_value in points:
        for column_value in points:
            changed = with_value(with_value(policy, values.column, 0, row_value), values.column, 1, column_value)
            spec.check_table(spec.rules_type(*rules), changed, 2)
            configs.append(Config(tuple(rules), changed))
    if len(configs) > 1 and count >= MIN_CONSTANT_SUM_COUNT:
        # a short pilot on two cells spares playing the whole matrix of a game that is not constant-sum
        pilot = run_paired(spec, 2, mode, seed, configs[:2], MIN_CONSTANT_SUM_COUNT, context.quiet())
        if not _is_constant_sum(pilot, column):
            return MatrixGame(points, np.zeros((0, 0, 2)), False, 0)
    run = run_paired(spec, 2, mode, seed, configs, count, context)
    size = len(points)
    parts = [run.linearized(i) for i in range(len(configs))]
    means = np.array([p[0][:2, column] for p in parts]).reshape(size, size, 2)
    if not _is_constant_sum(run, column):
        return MatrixGame(points, means, False, run.count)

    def solve(seat_zero: np.ndarray):
        solution = solve_zero_sum((sign * seat_zero).tolist())
        return np.array(solution.row_mix, float), np.array(solution.column_mix, float), sign * float(solution.value)

    row_mix, column_mix, value = solve(means[:, :, 0])
    stacked = _stacked_batches(run, column)  # [configs, batches, (numerator, denominator)] of seat 0
    generator = np.random.default_rng(seed)
    samples = []
    batches = stacked.shape[1]
    for _ in range(BOOTSTRAP_SAMPLES):
        chosen = stacked[:, generator.integers(0, batches, batches)].sum(axis=1)
        samples.append(solve((chosen[:, 0] / chosen[:, 1]).reshape(size, size)))

    def spread(index: int) -> tuple[float, ...]:
        return tuple(float(v) for v in np.std([s[index] for s in samples], axis=0, ddof=1))

    support = [(i, j) for i in range(size) for j in range(size) if row_mix[i] > 1e-9 and column_mix[j] > 1e-9]
    fresh = run_paired(spec, 2, mode, seed, [configs[i * size + j] for i, j in support], count, context, first=count)
    weights = [row_mix[i] * column_mix[j] for i, j in support]
    fresh_parts = [fresh.linearized(k) for k in range(len(support))]
    confirmed = sum(w * p[0][0, column] for w, p in zip(weights, fresh_parts))
    confirmed_shares = sum(w * p[1][:, 0, column] for w, p in zip(weights, fresh_parts))
    confirmed_se = float(batch_se(confirmed_shares))
    return MatrixGame(
        points,
        means,
        True,
        run.count,
        tuple(float(v) for v in row_mix),
        tuple(float(v) for v in column_mix),
        value,
        float(np.std([s[2] for s in samples], ddof=1)),
        spread(0),
        spread(1),
        float(confirmed),
        confirmed_se,
    )


def _stacked_batches(run: PairedRun, column: int) -> np.ndarray:
    """Seat 0's headline numerator (scaled) and denominator per configuration and batch."""
    from analyzer.run.stats import ratio_parts

    outcomes = run.spec.outcomes[run.mode]
    scale = float(outcomes.scale.get(outcomes.seat[column], 1))
    found = np.zeros((len(run.configs), len(run.sizes), 2))
    for c in range(len(run.configs)):
        for b, (sums, size) in enumerate(zip(run.batch_sums[c], run.sizes)):
            numerators, denominators = ratio_parts(sums, outcomes, size)
            found[c, b] = numerators[0, column] / scale, denominators[0, column]
    return found


@dataclass(frozen=True)
class Optimum:
    """Everything ``optimize`` finds for one field: best responses to the starting policy,
    the matrix game (two seats), and iterated best response with its final policy's
    headline per seat against the starting one on fresh hands (``evaluation``, paired
    differences)."""

    responses: tuple[BestResponse, ...]
    matrix: MatrixGame | None = None
    equilibrium: Equilibrium | None = None
    evaluation: tuple = ()


def optimize_all(
    spec: GameSpec,
    players: int,
    rules: tuple,
    policy: np.ndarray,
    mode: int,
    seed: int,
    values: FieldRange,
    count: int,
    context: RunContext,
    max_rounds: int = 6,
    responses=None,
) -> Optimum:
    """Best responses to ``policy`` (unless given), then the matrix game (two seats,
    constant-sum headline) or else iterated best response and its final policy against
    ``policy`` on fresh hands."""
    from analyzer.strategy.comparisons import paired_differences

    if responses is None:
        responses = best_responses(spec, players, rules, policy, mode, seed, values, count, context)
    responses = tuple(responses)
    matrix = None
    if players == 2:
        matrix = matrix_game(spec, rules, policy, mode, seed, values, count, context)
        if matrix.constant_sum:
            return Optimum(responses, matrix)
    equilibrium = iterate_best_response(spec, players, rules, policy, mode, seed, values, count, context, max_rounds)
    final = np.array(policy, dtype=np.float64, copy=True)
    final[:, values.column] = equilibrium.values
    interrupts.check()  # a new stage: where a pending Ctrl-C stops
    context.stage("the replay of the final policy on fresh hands")
    run = run_paired(
        spec,
        players,
        mode,
        seed,
        [Config(tuple(rules), policy), Config(tuple(rules), final)],
        count,
        context,
        first=count,
    )
    headline = spec.headline[mode]
    evaluation = tuple(d for d in paired_differences(run, 0, 1) if d.outcome == headline and d.seat != "table")
    return Optimum(responses, matrix, equilibrium, evaluation)
