"""Policy sweeps and best responses, worked out from a game's spec alone (equilibria:
``analyzer.strategy.equilibria``).

Nothing here knows a game.  A strategy question is asked of one policy field (a column of
the per-seat policy matrix) and answered by the game's headline outcome of a mode (a lost
life, chips, a won game), which a seat wants large unless the outcomes say it is
``lower_is_better``.

* A **sweep** plays one seat (or every seat together) at each value of the field, all
  points on the same hands of the same seed (common random numbers), so two points differ
  only by the policy and their difference has a small, honest error (batch errors, see
  ``analyzer.run.runner.run_paired``).
* A seat's **best response** is the swept value with the best headline for that seat.  It
  is a winner only when it beats the runner-up by at least two standard errors of their
  paired difference; otherwise every value within two standard errors of the best is
  reported, as a tie.  Picking the best on the same hands that measure it flatters it, so
  its gain over the seat's current value is measured again on fresh hands (the next
  hands of the same seed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from analyzer.run import interrupts
from analyzer.run.context import RunContext
from analyzer.run.runner import Config, PairedRun, run_paired
from analyzer.run.stats import batch_se
from sims.spec import GameSpec, PolicyField

TIE_SES = 2.0  # a best response must beat the runner-up by this many standard errors
MAX_SWEEP_POINTS = 41


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


def field_range(spec: GameSpec, text: str, flag: str = "--param") -> FieldRange:
    """``FIELD``, ``FIELD=LO:HI`` or ``FIELD=LO:HI:STEP`` (choice names allowed for LO and
    HI) as a :class:`FieldRange`; the whole field's range when no bounds are given.
    ``flag`` names the option in the sentences (``--param``, ``--field``)."""
    key, _, bounds = text.partition("=")
    key = key.strip().replace("-", "_")
    field = spec.policy_field(key)
    column = [f.key for f in spec.policy_fields].index(key)
    if not bounds.strip():
        return FieldRange(field, column, _default_values(field))
    parts = bounds.split(":")
    if len(parts) not in (2, 3):
        raise ValueError(f"{flag} '{text}' must look like FIELD=LO:HI or FIELD=LO:HI:STEP.")

    def number(part: str) -> float:
        name = part.strip().lower().replace("_", "-")
        if field.choices and name in field.choices:
            return float(field.choices.index(name))
        try:
            value = float(part)
        except ValueError:
            raise ValueError(f"'{part}' in {flag} '{text}' is not a number.") from None
        if not math.isfinite(value):
            raise ValueError(f"'{part}' in {flag} '{text}' is not a number.")
        return value

    lo, hi = number(parts[0]), number(parts[1])
    step = number(parts[2]) if len(parts) == 3 else (1.0 if field.integer else (hi - lo) / 10 or 1.0)
    if step <= 0:
        raise ValueError(f"the step in {flag} '{text}' must be positive.")
    if lo > hi:
        raise ValueError(f"{flag} '{text}' runs from {lo:g} down to {hi:g}; give LO:HI with LO <= HI.")
    if lo < field.lo or hi > field.hi:
        raise ValueError(f"policy field {key} of {spec.name} must be in {field.allowed_text()}, not {lo:g}..{hi:g}.")
    count = int(math.floor((hi - lo) / step + 1e-9)) + 1
    if count > MAX_SWEEP_POINTS:
        raise ValueError(f"{flag} '{text}' has {count} points; a sweep takes at most {MAX_SWEEP_POINTS}.")
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

    def records(self, reference: int | None = None) -> list[dict]:
        """Tidy records: one per (value, seat, outcome), fair odds left out; with
        ``reference`` (a value's index), each with its paired difference to that value on
        the same deals, ``diff`` and ``diff_se`` (0 and 0 at the reference itself)."""
        from analyzer.strategy.comparisons import paired_differences

        found = []
        for point, value in enumerate(self.values.values):
            differences = (
                {}
                if reference is None or point == reference
                else {(d.seat, d.outcome): d for d in paired_differences(self.run, reference, point)}
            )
            for estimate in self.estimates(point):
                if estimate.outcome.endswith("_fair_odds"):
                    continue
                record = {
                    **estimate.as_record(),
                    "field": self.values.field.key,
                    "value": value,
                    "value_text": self.values.value_text(value),
                }
                if reference is not None:
                    d = differences.get((estimate.seat, estimate.outcome))
                    record["diff"], record["diff_se"] = (0.0, 0.0) if d is None else (d.difference, d.se)
                found.append(record)
        return found


def sweep(
    spec: GameSpec,
    players: int,
    rules: tuple,
    policy: np.ndarray,
    mode: int,
    seed: int,
    values: FieldRange,
    seat: int | None,
    count: int,
    context: RunContext,
    target_se: float | None = None,
    largest_se_of=None,
) -> Sweep:
    """Play every value of the field on the same hands; the other seats keep ``policy``
    (``target_se`` and ``largest_se_of`` as in ``analyzer.run.runner.run_paired``)."""
    if seat is not None and not 0 <= seat < players:
        raise ValueError(f"seat {seat} does not exist with {players} players (seats are 0 to {players - 1}).")
    configs = []
    for value in values.values:
        changed = with_value(policy, values.column, seat, value)
        spec.check_table(spec.rules_type(*rules), changed, players)
        configs.append(Config(tuple(rules), changed, f"{values.field.key}={values.value_text(value)}"))
    run = run_paired(spec, players, mode, seed, configs, count, context, target_se, largest_se_of)
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
    # what each value costs against the best (>= 0, headline units, larger is worse) and
    # the standard error of that paired difference (0 and 0 for the best itself)
    costs: tuple[float, ...] = ()
    cost_ses: tuple[float, ...] = ()

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
    tied = [best] + [
        i
        for i in order
        if not scores[best] - scores[i] >= TIE_SES * _paired_se(shares[best], shares[i]) or scores[best] == scores[i]
    ]
    values = sweep_result.values.values
    current = min(range(len(values)), key=lambda i: abs(values[i] - current_value))
    points = tuple(
        {(e.seat, e.outcome): e for e in run.estimates(i)}[(seat, sweep_result.headline)] for i in range(len(values))
    )
    return BestResponse(
        seat,
        values,
        points,
        best,
        tuple(tied),
        runner_up,
        float(scores[best] - scores[runner_up]) if runner_up is not None else math.nan,
        _paired_se(shares[best], shares[runner_up]) if runner_up is not None else math.nan,
        current,
        float(scores[best] - scores[current]),
        _paired_se(shares[best], shares[current]),
        costs=tuple(float(scores[best] - scores[i]) for i in range(len(values))),
        cost_ses=tuple(_paired_se(shares[best], shares[i]) for i in range(len(values))),
    )


def confirm(
    spec: GameSpec,
    players: int,
    rules: tuple,
    policy: np.ndarray,
    mode: int,
    seed: int,
    values: FieldRange,
    response: BestResponse,
    count: int,
    context: RunContext,
) -> BestResponse:
    """The response with its gain over the current value replayed on fresh hands (hands
    ``count .. 2 count - 1`` of the seed)."""
    if response.best == response.current:
        return replace(response, confirmed_gain=0.0, confirmed_gain_se=0.0, confirmed_count=count)
    column, sign = headline_column(spec, mode)
    configs = [
        Config(tuple(rules), with_value(policy, values.column, response.seat, response.values[i]))
        for i in (response.current, response.best)
    ]
    run = run_paired(spec, players, mode, seed, configs, count, context, first=count)
    (current, current_shares), (best, best_shares) = run.linearized(0), run.linearized(1)
    seat = response.seat
    return replace(
        response,
        confirmed_gain=float(sign * (best[seat, column] - current[seat, column])),
        confirmed_gain_se=_paired_se(best_shares[:, seat, column], current_shares[:, seat, column]),
        confirmed_count=run.count,
    )


def best_responses(
    spec: GameSpec,
    players: int,
    rules: tuple,
    policy: np.ndarray,
    mode: int,
    seed: int,
    values: FieldRange,
    count: int,
    context: RunContext,
    seats=None,
    confirmed: bool = True,
) -> list[BestResponse]:
    """Each seat's best response to ``policy`` for the others (one sweep per seat, the
    seat's current value always among the values tried), confirmed on fresh hands."""
    found = []
    for seat in range(players) if seats is None else seats:
        interrupts.check()  # a new stage: where a pending Ctrl-C stops
        context.stage(f"the best response of seat {seat} of {players} ({values.field.key})")
        current = float(policy[seat, values.column])
        tried = _with_current(values, current)
        result = sweep(spec, players, rules, policy, mode, seed, tried, seat, count, context)
        response = best_response(result, seat, current)
        if confirmed:
            response = confirm(spec, players, rules, policy, mode, seed, tried, response, count, context)
        found.append(response)
    return found


def _with_current(values: FieldRange, current: float) -> FieldRange:
    """The range, with the seat's current value added when the range misses it (so the
    gain over the current policy is always measured on the same hands)."""
    if any(abs(v - current) < 1e-12 for v in values.values):
        return values
    return FieldRange(values.field, values.column, tuple(sorted(values.values + (current,))))
