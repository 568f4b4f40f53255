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
  reported, as a tie.
* **Iterated best response** moves one seat at a time to a best response to the others
  (keeping its value while that is tied with the best) until a whole round changes
  nothing: a per-seat equilibrium among the swept values, symmetric when every seat ends
  on the same value.  A state seen before ends the search as a cycle.
* A two-player game whose headline is **constant-sum** on the swept policies (the two
  seats' integer totals add up to the same number for every pair of values, as with
  exactly one loser or chips that only change hands) is solved as a matrix game over the
  swept pure values: each seat's optimal mix and the value, with bootstrap errors from
  resampling the batches.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from analyzer.runner import Config, PairedRun, run_paired
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
        field = self.field
        if field.choices and float(value).is_integer() and 0 <= value < len(field.choices):
            return field.choices[int(value)]
        return f"{value:g}"


def _default_values(field: PolicyField) -> tuple[float, ...]:
    if field.integer and field.hi - field.lo + 1 <= MAX_SWEEP_POINTS:
        return tuple(float(v) for v in range(int(field.lo), int(field.hi) + 1))
    if field.integer:
        return tuple(sorted({float(round(v)) for v in np.linspace(field.lo, field.hi, 11)}))
    return tuple(float(v) for v in np.linspace(field.lo, field.hi, 11))


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


@dataclass(frozen=True)
class BestResponse:
    """One seat's best value of a field against the others, from a sweep of that seat."""

    seat: int
    values: tuple[float, ...]
    means: tuple[float, ...]  # the seat's headline at each value
    ses: tuple[float, ...]
    best: int  # index into values
    tied: tuple[int, ...]  # indices within TIE_SES paired standard errors of the best (best first)
    runner_up: int | None
    runner_up_gap: float  # how much better the best is than the runner-up (>= 0, headline units)
    runner_up_se: float
    current: int  # index of the seat's own value before the sweep
    gain: float  # the best minus the current value's headline, signed so that positive is better
    gain_se: float

    @property
    def is_tie(self) -> bool:
        return len(self.tied) > 1


def best_response(sweep_result: Sweep, seat: int, current_value: float) -> BestResponse:
    """The best value for ``seat`` in a sweep of that seat, with its tie set."""
    run = sweep_result.run
    column, sign = headline_column(sweep_result.spec, run.mode)
    parts = [run.linearized(i) for i in range(len(run.configs))]
    means = np.array([p[0][seat, column] for p in parts])
    shares = np.stack([p[1][:, seat, column] for p in parts])  # [points, batches]
    k = shares.shape[1]
    scores = sign * means
    best = int(np.nanargmax(scores))

    def paired_se(i: int, j: int) -> float:
        return float(np.sqrt(k / (k - 1) * np.sum((shares[i] - shares[j]) ** 2))) if k > 1 else math.nan

    order = [int(i) for i in np.argsort(-scores, kind="stable") if i != best]
    runner_up = order[0] if order else None
    tied = [best] + [i for i in order if scores[best] - scores[i] < TIE_SES * paired_se(best, i)
                     or scores[best] == scores[i]]
    values = sweep_result.values.values
    current = min(range(len(values)), key=lambda i: abs(values[i] - current_value))
    ses = []
    for i in range(len(values)):
        found = {(e.seat, e.outcome): e for e in run.estimates(i)}
        ses.append(found[(seat, sweep_result.headline)].se)
    return BestResponse(
        seat, values, tuple(float(m) for m in means), tuple(ses), best, tuple(tied), runner_up,
        float(scores[best] - scores[runner_up]) if runner_up is not None else math.nan,
        paired_se(best, runner_up) if runner_up is not None else math.nan,
        current, float(scores[best] - scores[current]), paired_se(best, current))


def best_responses(spec: GameSpec, players: int, rules: tuple, policy: np.ndarray, mode: int, seed: int,
                   values: FieldRange, count: int, threads: int | None = None, progress: bool | None = None,
                   seats=None) -> list[BestResponse]:
    """Each seat's best response to ``policy`` for the others (one sweep per seat)."""
    found = []
    for seat in (range(players) if seats is None else seats):
        current = float(policy[seat, values.column])
        result = sweep(spec, players, rules, policy, mode, seed, _with_current(values, current), seat, count,
                       threads, progress=progress)
        found.append(best_response(result, seat, current))
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
    for _ in range(max_rounds):
        changed = False
        last = []
        for seat in range(players):
            response = best_responses(spec, players, rules, current, mode, seed, values, count, threads, progress,
                                      seats=[seat])[0]
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


@dataclass(frozen=True)
class MatrixGame:
    """A two-player game over the swept pure values of one field (rows: seat 0)."""

    values: tuple[float, ...]
    means: np.ndarray  # [row value, column value, seat] headline
    constant_sum: bool
    row_mix: tuple[float, ...] | None = None
    column_mix: tuple[float, ...] | None = None
    value: float = math.nan  # seat 0's headline at the equilibrium
    value_se: float = math.nan
    row_mix_se: tuple[float, ...] | None = None
    column_mix_se: tuple[float, ...] | None = None
    count: int = 0


def matrix_game(spec: GameSpec, rules: tuple, policy: np.ndarray, mode: int, seed: int, values: FieldRange,
                count: int, threads: int | None = None, progress: bool | None = None) -> MatrixGame:
    """Play every pair of pure values for the two seats on the same hands; when the
    headline is constant-sum, solve the matrix game with bootstrap errors."""
    from analyzer.matrix_game import solve_zero_sum

    players = 2
    column, sign = headline_column(spec, mode)
    points = values.values
    configs = []
    for row_value in points:
        for column_value in points:
            changed = with_value(with_value(policy, values.column, 0, row_value), values.column, 1, column_value)
            spec.check(spec.rules_type(*rules), changed, players)
            configs.append(Config(tuple(rules), changed))
    run = run_paired(spec, players, mode, seed, configs, count, threads, progress=progress)
    size = len(points)
    totals = [run.sums(i) for i in range(len(configs))]
    seat_totals = {int(t[0, column]) + int(t[1, column]) for t in totals}
    means = np.array([run.linearized(i)[0][:players, column] for i in range(len(configs))]).reshape(size, size, 2)
    if len(seat_totals) != 1:
        return MatrixGame(points, means, False, count=run.count)

    def solve(seat_zero: np.ndarray):
        solution = solve_zero_sum((sign * seat_zero).tolist())
        return np.array(solution.row_mix, float), np.array(solution.column_mix, float), sign * float(solution.value)

    row_mix, column_mix, value = solve(means[:, :, 0])
    stacked = _stacked_batches(run, column)  # [configs, batches, 2 (numerator, denominator)] for seat 0
    generator = np.random.default_rng(seed)
    samples = []
    batches = stacked.shape[1]
    for _ in range(BOOTSTRAP_SAMPLES):
        pick = generator.integers(0, batches, batches)
        chosen = stacked[:, pick].sum(axis=1)
        samples.append(solve((chosen[:, 0] / chosen[:, 1]).reshape(size, size)))
    spread = lambda index: tuple(float(v) for v in np.std([s[index] for s in samples], axis=0, ddof=1))  # noqa: E731
    return MatrixGame(points, means, True, tuple(float(v) for v in row_mix), tuple(float(v) for v in column_mix),
                      value, float(np.std([s[2] for s in samples], ddof=1)), spread(0), spread(1), run.count)


def _stacked_batches(run: PairedRun, column: int) -> np.ndarray:
    """Seat 0's headline numerator and denominator per configuration and batch, scaled."""
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
    headline per seat against the starting one (``evaluation``, paired differences)."""

    responses: tuple[BestResponse, ...]
    matrix: MatrixGame | None = None
    equilibrium: Equilibrium | None = None
    evaluation: tuple = ()


def optimize_all(spec: GameSpec, players: int, rules: tuple, policy: np.ndarray, mode: int, seed: int,
                 values: FieldRange, count: int, threads: int | None = None, progress: bool | None = None,
                 max_rounds: int = 6) -> Optimum:
    """Best responses to ``policy``, then the matrix game (two seats, constant-sum
    headline) or else iterated best response and its final policy against ``policy``."""
    from analyzer.compare import paired_differences

    responses = tuple(best_responses(spec, players, rules, policy, mode, seed, values, count, threads, progress))
    matrix = None
    if players == 2:
        matrix = matrix_game(spec, rules, policy, mode, seed, values, count, threads, progress)
        if matrix.constant_sum:
            return Optimum(responses, matrix)
    equilibrium = iterate_best_response(spec, players, rules, policy, mode, seed, values, count, threads, max_rounds,
                                        progress)
    final = np.array(policy, dtype=np.float64, copy=True)
    final[:, values.column] = equilibrium.values
    run = run_paired(spec, players, mode, seed, [Config(tuple(rules), policy), Config(tuple(rules), final)], count,
                     threads, progress=progress)
    headline = spec.headline[mode]
    evaluation = tuple(d for d in paired_differences(run, 0, 1) if d.outcome == headline and d.seat != "table")
    return Optimum(responses, matrix, equilibrium, evaluation)


def parse_seat(text: str | None, players: int) -> int | None:
    """A seat number from the command line (``None`` stays ``None``)."""
    if text is None:
        return None
    if not re.fullmatch(r"\s*\d+\s*", text):
        raise ValueError(f"--seat takes a seat number, not '{text}'.")
    seat = int(text)
    if seat >= players:
        raise ValueError(f"seat {seat} does not exist with {players} players (seats are 0 to {players - 1}).")
    return seat
