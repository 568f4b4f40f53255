"""House-rule comparisons: paired differences of every outcome on the same hands.

Two configurations played on the same hands of the same seed (common random numbers)
differ only where the rule (or policy) changes what happens, so the standard error of
their difference is much smaller than that of two independent runs.  It is measured from
the batches of the paired run (``analyzer.run.stats.linearized``); the independent standard
error sqrt(se_a^2 + se_b^2) is what two separate runs of the same length would give, and
their squared ratio is the variance reduction: how many times more hands independent runs
would need for the same error.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.run.runner import PairedRun
from analyzer.run.stats import batch_se
from sims.spec import GameSpec, Mode


@dataclass(frozen=True)
class Difference:
    """``other - base`` for one seat (or ``"table"``) and outcome."""

    seat: int | str
    outcome: str
    base: float
    other: float
    base_se: float
    other_se: float
    difference: float
    se: float  # paired, from the batches
    se_independent: float  # what two independent runs would give

    @property
    def variance_reduction(self) -> float:
        """(independent / paired standard error)^2: infinite when the two runs agree on
        every hand, undefined when either error is unknown or both are zero."""
        if self.se > 0:
            return (self.se_independent / self.se) ** 2
        return math.inf if self.se == 0 and self.se_independent > 0 else math.nan

    def as_record(self) -> dict:
        return {
            "seat": self.seat,
            "outcome": self.outcome,
            "base": self.base,
            "base_se": self.base_se,
            "other": self.other,
            "other_se": self.other_se,
            "difference": self.difference,
            "se": self.se,
            "se_independent": self.se_independent,
            "variance_reduction": self.variance_reduction,
        }


def _position(run: PairedRun, seat, outcome: str) -> tuple[int, int]:
    outcomes = run.spec.outcomes[run.mode]
    if seat == "table":
        return run.players, outcomes.table.index(outcome)
    return int(seat), outcomes.seat.index(outcome)


def paired_differences(run: PairedRun, base: int, other: int) -> list[Difference]:
    """Every estimate of configuration ``other`` minus configuration ``base`` (fair odds
    left out: they are a transform of a probability already listed)."""
    base_estimates = {(e.seat, e.outcome): e for e in run.estimates(base)}
    other_estimates = run.estimates(other)
    base_values, base_shares = run.linearized(base)
    other_values, other_shares = run.linearized(other)
    found = []
    for estimate in other_estimates:
        if estimate.outcome.endswith("_fair_odds"):
            continue
        reference = base_estimates[(estimate.seat, estimate.outcome)]
        row, column = _position(run, estimate.seat, estimate.outcome)
        se = float(batch_se(other_shares[:, row, column] - base_shares[:, row, column]))
        found.append(
            Difference(
                estimate.seat,
                estimate.outcome,
                reference.mean,
                estimate.mean,
                reference.se,
                estimate.se,
                estimate.mean - reference.mean,
                se,
                math.sqrt(reference.se**2 + estimate.se**2),
            )
        )
    return found


def largest_paired_se(run: PairedRun) -> float:
    """The largest standard error of any difference against the first configuration
    (what ``--target-se`` watches in a comparison)."""
    ses = [
        d.se for other in range(1, len(run.configs)) for d in paired_differences(run, 0, other) if not math.isnan(d.se)
    ]
    return max(ses, default=math.inf)


def single_switch_rules(spec: GameSpec, base_rules, mode: int | None = None) -> list[tuple[str, tuple]]:
    """Every house-rule switch changed alone from ``base_rules``: each other choice of a
    choice field, the other value of a true/false field, and for a number its lowest and
    highest values and any value a named variant uses.  Returns ``(label, rules)`` pairs
    labelled ``key=value``.  For hand mode (``mode=Mode.HANDS``) the rules that act only in
    whole games are left out: hand mode plays the same with any value of them."""
    variant_values: dict[str, set[int]] = {}
    for variant in spec.variants.values():
        for key, code in variant.rules.items():
            variant_values.setdefault(key, set()).add(int(code))
    found = []
    for index, field in enumerate(spec.rules):
        if field.games_only and mode == Mode.HANDS:
            continue
        current = int(base_rules[index])
        codes: Sequence[int]
        if field.kind == "choice":
            codes = range(len(field.choices))
        elif field.kind == "bool":
            codes = (0, 1)
        else:
            bounds = {bound for bound in (field.lo, field.hi) if bound is not None}
            codes = sorted(bounds | variant_values.get(field.key, set()))
        for code in codes:
            if code != current:
                changed = list(base_rules)
                changed[index] = code
                found.append((f"{field.key}={field.value_text(code)}", tuple(changed)))
    return found
