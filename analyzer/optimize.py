"""Policy sweeps, best responses and equilibrium search, worked out from a game's spec alone.

Nothing here knows a game.  A strategy question is asked of one policy field (a column of
the per-seat policy matrix) and answered by the game's headline outcome of a mode (a lost
life, chips, a won game), which a seat wants large unless the outcomes say it is
``lower_is_better``.

* A **sweep** plays one seat (or every seat together) at each value of the field, all
  points on the same hands of the same seed (common random numbers), so two points differ
  only by the policy and their difference has a small, honest error (batch errors, see
  ``analyzer.runner.run_paired``).
* A seat's **best response** is the swept value with the best headline for that seat.  It
  is a winner only when it beats the runner-up by at least two standard errors of their
  paired difference; otherwise every value within two standard errors of the best is
  reported, as a tie.  Picking the best on the same hands that measure it flatters it, so
  its gain over the seat's current value is measured again on fresh hands (the next
  hands of the same seed).
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
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from analyzer import interrupts
from analyzer.runner import TALLY, Config, PairedRun, run_paired
from analyzer.stats import batch_se
from sims.spec import GameSpec, PolicyField

TIE_SES = 2.0  # a best response must beat the runner-up by this many standard errors
MAX_SWEEP_POINTS = 41
BOOTSTRAP_SAMPLES = 60


# ------------------------------------------------------------------------------ parameters


@dataclass(frozen=True)
class FieldRange:
    """A policy field and the values a sweep tries, in increasing order."""

    field: PolicyField
    column: int
    values: tuple[float, ...]

    def value_text(self, value: float) -> str:
        return self.field.value_text(value)


def _default_values(field: PolicyField) -> tuple[float, ...]:
    if field.integer and field.hi - field.lo + 1 <= MAX_SWEEP_POINTS:
        return tuple(float(v) for v in range(int(field.lo), int(field.hi) + 1))
    if field.integer:
        return tuple(sorted({float(round(v)) for v in np.linspace(field.lo, field.hi, 11)}))
    return tuple(round(float(v), 12) for v in np.linspace(field.lo, field.hi, 11))


def field_range(spec: GameSpec, text: str) -> FieldRange:
    """``FIELD``, ``FIELD=LO:HI`` or ``FIELD=LO:HI:STEP`` (choice names allowed for LO and
    HI) as a :class:`FieldRange`; the whole field's range when no bounds are given."""
    key, _, bounds = text.partition("=")
    key = key.strip().replace("-", "_")
    field = spec.policy_field(key)
    column = [f.key for f in spec.policy_fields].index(key)
    if not bounds.strip():
        return FieldRange(field, column, _default_values(field))
    parts = bounds.split(":")
    if len(parts) not in (2, 3):
        raise ValueError(f"--param '{text}' must look like FIELD=LO:HI or FIELD=LO:HI:STEP.")

    def number(part: str) -> float:
        name = part.strip().lower().replace("_", "-")
        if field.choices and name in field.choices:
            return float(field.choices.index(name))
        try:
            value = float(part)
        except ValueError:
            raise ValueError(f"'{part}' in --param '{text}' is not a number.") from None
        if not math.isfinite(value):
            raise ValueError(f"'{part}' in --param '{text}' is not a number.")
        return value

    lo, hi = number(parts[0]), number(parts[1])
    step = number(parts[2]) if len(parts) == 3 else (1.0 if field.integer else (hi - lo) / 10 or 1.0)
    if step <= 0:
        raise ValueError(f"the step in --param '{text}' must be positive.")
    if lo > hi:
        raise ValueError(f"--param '{text}' runs from {lo:g} down to {hi:g}; give LO:HI with LO <= HI.")
    if lo < field.lo or hi > field.hi:
        raise ValueError(f"policy field {key} of {spec.name} must be in {field.allowed_text()}, not {lo:g}..{hi:g}.")
    count = int(math.floor((hi - lo) / step + 1e-9)) + 1
    if count > MAX_SWEEP_POINTS:
        raise ValueError(f"--param '{text}' has {count} points; a sweep takes at most {MAX_SWEEP_POINTS}.")
    values = tuple(round(lo + i * step, 12) for i in range(count))
    if field.integer and any(v != int(v) for v in values):
        raise ValueError(f"policy field {key} of {spec.name} takes whole numbers; use a whole step.")
    return FieldRange(field, column, values)


def with_value(policy: np.ndarray, column: int, seat: int | None, value: float) -> np.ndarray:
    """A copy of ``policy`` with one seat's (or every seat's, ``seat=None``) field set."""
    changed = np.array(policy, dtype=np.float64, copy=True)
    if seat is None:
        changed[:, column] = value
    else:
        changed[seat, column] = value
    return changed


# ------------------------------------------------------------------------------ sweeps


@dataclass(frozen=True)
class Sweep:
    """A policy field swept for one seat (``seat``) or every seat together (``None``)."""

    spec: GameSpec
    values: FieldRange
    seat: int | None
    base_policy: np.ndarray
    run: PairedRun  # configuration i plays values.values[i]

    @property
    def mode(self) -> int:
        return self.run.mode

    @property
    def headline(self) -> str:
        return self.spec.headline[self.mode]

    def estimates(self, point: int) -> list:
        return self.run.estimates(point)

    def records(self) -> list[dict]:
        """Tidy records: one per (value, seat, outcome), fair odds left out."""
        found = []
        for point, value in enumerate(self.values.values):
            for estimate in self.estimates(point):
                if not estimate.outcome.endswith("_fair_odds"):
                    found.append({**estimate.as_record(), "field": self.values.field.key, "value": value,
                                  "value_text": self.values.value_text(value)})
        return found


def sweep(spec: GameSpec, players: int, rules: tuple, policy: np.ndarray, mode: int, seed: int,
          values: FieldRange, seat: int | None, count: int, threads: int | None = None,
          target_se: float | None = None, largest_se_of=None, progress: bool | None = None) -> Sweep:
    """Play every value of the field on the same hands; the other seats keep ``policy``
    (``target_se`` and ``largest_se_of`` as in ``analyzer.runner.run_paired``)."""
    if seat is not None and not 0 <= seat < players:
        raise ValueError(f"seat {seat} does not exist with {players} players (seats are 0 to {players - 1}).")
    configs = []
    for value in values.values:
        changed = with_value(policy, values.column, seat, value)
        spec.check(spec.rules_type(*rules), changed, players)
        configs.append(Config(tuple(rules), changed, f"{values.field.key}={values.value_text(value)}"))
    run = run_paired(spec, players, mode, seed, configs, count, threads, target_se, largest_se_of, progress)
    return Sweep(spec, values, seat, np.array(policy, copy=True), run)


# ------------------------------------------------------------------------------ best responses


def headline_column(spec: GameSpec, mode: int) -> tuple[int, float]:
    """The seat column of the mode's headline and the sign that makes larger better."""
    headline = spec.headline[mode]
    return spec.outcomes[mode].seat.index(headline), (-1.0 if spec.lower_is_better(mode, headline) else 1.0)


def _paired_se(shares_a: np.ndarray, shares_b: np.ndarray) -> float:
    """Standard error of a difference from two runs' batch shares on the same batches."""
    return float(batch_se(shares_a - shares_b))


@dataclass(frozen=True)
class BestResponse:
    """One seat's best value of a field against the others, from a sweep of that seat.

    ``gain`` is signed so that positive is better for the seat (a lower loss rate is a
    gain).  The sweep picks the best on its own hands, which flatters the winner; the
    ``confirmed_`` figures replay the best and the current value on fresh hands of the
    same seed (the next ``count`` hands), free of that selection bias.
    """

    seat: int
    values: tuple[float, ...]
    points: tuple  # the seat's headline Estimate at each value
    best: int  # index into values
    tied: tuple[int, ...]  # indices within TIE_SES paired standard errors of the best (best first)
    runner_up: int | None
    runner_up_gap: float  # how much better the best is than the runner-up (>= 0, headline units)
    runner_up_se: float
    current: int  # index of the seat's own value before the sweep
    gain: float
    gain_se: float
    confirmed_gain: float = math.nan
    confirmed_gain_se: float = math.nan
    confirmed_count: int = 0

    @property
    def means(self) -> tuple[float, ...]:
        return tuple(p.mean for p in self.points)

    @property
    def ses(self) -> tuple[float, ...]:
        return tuple(p.se for p in self.points)

    @property
    def is_tie(self) -> bool:
        return len(self.tied) > 1

    @property
    def no_effect(self) -> bool:
        """Every value is tied: the field makes no measurable difference to this seat."""
        return len(self.tied) == len(self.values) > 1


def best_response(sweep_result: Sweep, seat: int, current_value: float) -> BestResponse:
    """The best value for ``seat`` in a sweep of that seat, with its tie set: every value
    whose paired difference from the best is under ``TIE_SES`` standard errors (or whose
    error is unknown)."""
    run = sweep_result.run
    column, sign = headline_column(sweep_result.spec, run.mode)
    parts = [run.linearized(i) for i in range(len(run.configs))]
    scores = sign * np.array([p[0][seat, column] for p in parts])
    shares = [p[1][:, seat, column] for p in parts]
    best = int(np.nanargmax(scores))
    order = [int(i) for i in np.argsort(-scores, kind="stable") if i != best]
    runner_up = order[0] if order else None
    tied = [best] + [i for i in order if not scores[best] - scores[i] >= TIE_SES * _paired_se(shares[best], shares[i])
                     or scores[best] == scores[i]]
    values = sweep_result.values.values
    current = min(range(len(values)), key=lambda i: abs(values[i] - current_value))
    points = tuple({(e.seat, e.outcome): e for e in run.estimates(i)}[(seat, sweep_result.headline)]
                   for i in range(len(values)))
    return BestResponse(
        seat, values, points, best, tuple(tied), runner_up,
        float(scores[best] - scores[runner_up]) if runner_up is not None else math.nan,
        _paired_se(shares[best], shares[runner_up]) if runner_up is not None else math.nan,
        current, float(scores[best] - scores[current]), _paired_se(shares[best], shares[current]))


def confirm(spec: GameSpec, players: int, rules: tuple, policy: np.ndarray, mode: int, seed: int,
            values: FieldRange, response: BestResponse, count: int, threads: int | None = None,
            progress: bool | None = None) -> BestResponse:
    """The response with its gain over the current value replayed on fresh hands (hands
    ``count .. 2 count - 1`` of the seed)."""
    if response.best == response.current:
        return replace(response, confirmed_gain=0.0, confirmed_gain_se=0.0, confirmed_count=count)
    column, sign = headline_column(spec, mode)
    configs = [Config(tuple(rules), with_value(policy, values.column, response.seat, response.values[i]))
               for i in (response.current, response.best)]
    run = run_paired(spec, players, mode, seed, configs, count, threads, progress=progress, first=count)
    (current, current_shares), (best, best_shares) = run.linearized(0), run.linearized(1)
    seat = response.seat
    return replace(response, confirmed_gain=float(sign * (best[seat, column] - current[seat, column])),
                   confirmed_gain_se=_paired_se(best_shares[:, seat, column], current_shares[:, seat, column]),
                   confirmed_count=run.count)


def best_responses(spec: GameSpec, players: int, rules: tuple, policy: np.ndarray, mode: int, seed: int,
                   values: FieldRange, count: int, threads: int | None = None, progress: bool | None = None,
                   seats=None, confirmed: bool = True) -> list[BestResponse]:
    """Each seat's best response to ``policy`` for the others (one sweep per seat, the
    seat's current value always among the values tried), confirmed on fresh hands."""
    found = []
    for seat in (range(players) if seats is None else seats):
        interrupts.check()  # a new stage: where a pending Ctrl-C stops
        TALLY.stage = f"the best response of seat {seat} of {players} ({values.field.key})"
        current = float(policy[seat, values.column])
        tried = _with_current(values, current)
        result = sweep(spec, players, rules, policy, mode, seed, tried, seat, count, threads, progress=progress)
        response = best_response(result, seat, current)
        if confirmed:
            response = confirm(spec, players, rules, policy, mode, seed, tried, response, count, threads, progress)
        found.append(response)
    return found


def _with_current(values: FieldRange, current: float) -> FieldRange:
    """The range, with the seat's current value added when the range misses it (so the
    gain over the current policy is always measured on the same hands)."""
    if any(abs(v - current) < 1e-12 for v in values.values):
        return values
    return FieldRange(values.field, values.column, tuple(sorted(values.values + (current,))))


# ------------------------------------------------------------------------------ equilibria


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


def iterate_best_response(spec: GameSpec, players: int, rules: tuple, policy: np.ndarray, mode: int, seed: int,
                          values: FieldRange, count: int, threads: int | None = None, max_rounds: int = 6,
                          progress: bool | None = None) -> Equilibrium:
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
            TALLY.stage = f"round {number} of iterated best response, seat {seat} of {players}"
            response = best_responses(spec, players, rules, current, mode, seed, values, count, threads, progress,
                                      seats=[seat], confirmed=False)[0]
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
        return [(v, p, e) for v, p, e in zip(self.values, mix, ses) if p > 1e-9]


def _is_constant_sum(run: PairedRun, column: int) -> bool:
    """Whether the two seats' headline totals add up to the same amount per hand in every
    batch of every configuration (exactly one loser, chips that only change hands...)."""
    if len(run.configs) < 2 or run.count < MIN_CONSTANT_SUM_COUNT:
        return False
    rates = {Fraction(int(sums[0, column]) + int(sums[1, column]), size)
             for parts in run.batch_sums for sums, size in zip(parts, run.sizes)}
    return len(rates) == 1


def matrix_game(spec: GameSpec, rules: tuple, policy: np.ndarray, mode: int, seed: int, values: FieldRange,
                count: int, threads: int | None = None, progress: bool | None = None) -> MatrixGame:
    """Play every pair of pure values for the two seats on the same hands; when the
    headline is constant-sum, solve the matrix game by linear programming, with bootstrap
    errors (resampling whole batches, so every cell keeps its pairing) and the value of
    the solution replayed on fresh hands."""
    from analyzer.matrix_game import solve_zero_sum

    interrupts.check()  # a new stage: where a pending Ctrl-C stops
    TALLY.stage = f"the matrix game over {values.field.key}"
    column, sign = headline_column(spec, mode)
    points = values.values
    configs = []
    for row_value in points:
        for column_value in points:
            changed = with_value(with_value(policy, values.column, 0, row_value), values.column, 1, column_value)
            spec.check(spec.rules_type(*rules), changed, 2)
            configs.append(Config(tuple(rules), changed))
    if len(configs) > 1 and count >= MIN_CONSTANT_SUM_COUNT:
        # a short pilot on two cells spares playing the whole matrix of a game that is not constant-sum
        pilot = run_paired(spec, 2, mode, seed, configs[:2], MIN_CONSTANT_SUM_COUNT, threads, progress=False)
        if not _is_constant_sum(pilot, column):
            return MatrixGame(points, np.zeros((0, 0, 2)), False, 0)
    run = run_paired(spec, 2, mode, seed, configs, count, threads, progress=progress)
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
    fresh = run_paired(spec, 2, mode, seed, [configs[i * size + j] for i, j in support], count, threads,
                       progress=progress, first=count)
    weights = [row_mix[i] * column_mix[j] for i, j in support]
    fresh_parts = [fresh.linearized(k) for k in range(len(support))]
    confirmed = sum(w * p[0][0, column] for w, p in zip(weights, fresh_parts))
    confirmed_shares = sum(w * p[1][:, 0, column] for w, p in zip(weights, fresh_parts))
    confirmed_se = float(batch_se(confirmed_shares))
    return MatrixGame(points, means, True, run.count, tuple(float(v) for v in row_mix),
                      tuple(float(v) for v in column_mix), value, float(np.std([s[2] for s in samples], ddof=1)),
                      spread(0), spread(1), float(confirmed), confirmed_se)


def _stacked_batches(run: PairedRun, column: int) -> np.ndarray:
    """Seat 0's headline numerator (scaled) and denominator per configuration and batch."""
    from analyzer.stats import ratio_parts

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


def optimize_all(spec: GameSpec, players: int, rules: tuple, policy: np.ndarray, mode: int, seed: int,
                 values: FieldRange, count: int, threads: int | None = None, progress: bool | None = None,
                 max_rounds: int = 6, responses=None) -> Optimum:
    """Best responses to ``policy`` (unless given), then the matrix game (two seats,
    constant-sum headline) or else iterated best response and its final policy against
    ``policy`` on fresh hands."""
    from analyzer.compare import paired_differences

    if responses is None:
        responses = best_responses(spec, players, rules, policy, mode, seed, values, count, threads, progress)
    responses = tuple(responses)
    matrix = None
    if players == 2:
        matrix = matrix_game(spec, rules, policy, mode, seed, values, count, threads, progress)
        if matrix.constant_sum:
            return Optimum(responses, matrix)
    equilibrium = iterate_best_response(spec, players, rules, policy, mode, seed, values, count, threads, max_rounds,
                                        progress)
    final = np.array(policy, dtype=np.float64, copy=True)
    final[:, values.column] = equilibrium.values
    interrupts.check()  # a new stage: where a pending Ctrl-C stops
    TALLY.stage = "the replay of the final policy on fresh hands"
    run = run_paired(spec, players, mode, seed, [Config(tuple(rules), policy), Config(tuple(rules), final)], count,
                     threads, progress=progress, first=count)
    headline = spec.headline[mode]
    evaluation = tuple(d for d in paired_differences(run, 0, 1) if d.outcome == headline and d.seat != "table")
    return Optimum(responses, matrix, equilibrium, evaluation)
