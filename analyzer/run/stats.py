"""Turn integer outcome sums into estimates with standard errors and 95% intervals.

A column ``X`` with a companion ``X_sq`` is a general per-hand quantity: its mean and the
standard error from the sample variance.  Its 95% interval is the normal one (mean ± 1.96
se) for a quantity that may be negative (the outcomes' ``signed``, such as net chips);
a quantity that cannot (a count or total per hand or game) gets the log-scale interval
mean × exp(±1.96 se / mean), which stays above zero and widens upwards as a skewed count
does, and [0, 3/n] when all n observations are zero (the 95% Poisson bound, the "rule
of three").  A column without one
is a 0/1 indicator: its proportion, the binomial standard error and a Wilson interval,
which stays inside [0, 1] and behaves for rare events.  A companion ``X_count`` makes
``X`` a conditional mean over that many observations instead of over all hands; with
``X_count_sq`` and ``X_cross`` too, the observations come in groups (games of several
deals) and the standard error is the ratio estimator's: for games g with numerator y_g
and denominator c_g, R = sum y / sum c and se^2 = G/(G-1) * sum (y_g - R c_g)^2 / (sum c)^2
(the delta method), from the sums of y^2, c^2 and y c.  Scales
turn stored integers into user units (e.g. chips stored in twelfths).  Fair odds against
an event of probability p are (1 - p) / p, with the interval carried over from p's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sims.spec import Outcomes

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    seat: int | str  # a seat number, or "table"
    outcome: str
    mean: float
    se: float
    ci_low: float
    ci_high: float

    def as_record(self) -> dict:
        return {
            "seat": self.seat,
            "outcome": self.outcome,
            "mean": self.mean,
            "se": self.se,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
        }


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def nonnegative_interval(mean: float, se: float, n: int, scale: float = 1.0, z: float = Z95) -> tuple[float, float]:
    """95% interval of the mean of a quantity that cannot be negative: log-scale (delta
    method) when the mean is positive, ``[0, 3/n]`` in stored units when every one of the
    ``n`` observations is zero."""
    if mean < 0:
        raise ValueError(f"a quantity that cannot be negative has a negative mean ({mean}).")
    if mean == 0:
        return 0.0, -math.log(0.05) / n / scale
    if not se > 0:  # the same value every time, or an unknown error
        return (mean, mean) if se == 0 else (math.nan, math.nan)
    spread = math.exp(z * se / mean)
    return mean / spread, mean * spread


def mean_estimate(total: float, total_sq: float, n: int, scale: float = 1.0) -> tuple[float, float]:
    """Mean and standard error of a quantity from its sum and sum of squares over ``n``."""
    mean = total / n
    if n < 2:
        return mean / scale, float("nan")
    variance = max(0.0, (total_sq / n - mean * mean) * n / (n - 1))
    return mean / scale, math.sqrt(variance / n) / scale


def ratio_estimate(
    total: float, total_sq: float, count: float, count_sq: float, cross: float, groups: int, scale: float = 1.0
) -> tuple[float, float]:
    """Ratio ``sum y / sum c`` over ``groups`` games and its delta-method standard error,
    from the sums of y, y^2, c, c^2 and y c."""
    ratio = total / count
    if groups < 2:
        return ratio / scale, float("nan")
    spread = max(0.0, total_sq - 2 * ratio * cross + ratio * ratio * count_sq)
    return ratio / scale, math.sqrt(spread * groups / (groups - 1)) / count / scale


def _estimates_for(values: np.ndarray, columns: tuple[str, ...], outcomes: Outcomes, n: int, seat) -> list[Estimate]:
    index = {name: i for i, name in enumerate(columns)}
    found = []
    for name, i in index.items():
        if outcomes.companion(name) or name in outcomes.maxima:
            continue
        scale = float(outcomes.scale.get(name, 1))
        count = int(values[index[name + "_count"]]) if name + "_count" in index else n
        if count == 0:
            found.append(Estimate(seat, name, math.nan, math.nan, math.nan, math.nan))
        elif name + "_sq" in index:
            total = float(values[i])
            total_sq = float(values[index[name + "_sq"]])
            if name + "_cross" in index:
                mean, se = ratio_estimate(
                    total,
                    total_sq,
                    count,
                    float(values[index[name + "_count_sq"]]),
                    float(values[index[name + "_cross"]]),
                    n,
                    scale,
                )
            else:
                mean, se = mean_estimate(total, total_sq, count, scale)
            if outcomes.nonnegative(name) and mean >= 0:  # (a negative mean: a spec that forgot `signed`)
                low, high = nonnegative_interval(mean, se, count, scale)
            else:
                low, high = mean - Z95 * se, mean + Z95 * se
            found.append(Estimate(seat, name, mean, se, low, high))
        else:
            successes = int(values[i])
            p = successes / count
            se = math.sqrt(p * (1 - p) / count)
            low, high = wilson_interval(successes, count)
            found.append(Estimate(seat, name, p, se, low, high))
        if name in outcomes.odds:
            found.append(fair_odds(found[-1]))
    return found


def fair_odds(probability: Estimate) -> Estimate:
    """Fair odds against an event, ``(1 - p) / p`` to 1, from its probability estimate."""

    def odds(p: float) -> float:
        return (1 - p) / p if p > 0 else math.inf

    p = probability.mean
    se = probability.se / (p * p) if p > 0 else math.inf  # delta method
    return Estimate(
        probability.seat,
        probability.outcome + "_fair_odds",
        odds(p),
        se,
        odds(probability.ci_high),
        odds(probability.ci_low),
    )


def estimates(sums: np.ndarray, outcomes: Outcomes, n: int) -> list[Estimate]:
    """Every seat outcome for every seat, then the table outcomes (seat ``"table"``)."""
    n_seats = sums.shape[0] - 1
    found = []
    for seat in range(n_seats):
        found.extend(_estimates_for(sums[seat], outcomes.seat, outcomes, n, seat))
    found.extend(_estimates_for(sums[n_seats], outcomes.table, outcomes, n, "table"))
    return found


def observed_maxima(sums: np.ndarray, outcomes: Outcomes) -> dict:
    """The largest values seen (``outcomes.maxima``): {outcome: value}, from the table row
    for table columns and as a per-seat list for seat columns."""
    found: dict[str, int | list[int]] = {}
    for name in outcomes.maxima:
        if name in outcomes.table:
            found[name] = int(sums[-1, outcomes.table.index(name)])
        else:
            found[name] = [int(v) for v in sums[:-1, outcomes.seat.index(name)]]
    return found


def largest_se(found: list[Estimate]) -> float:
    """The largest standard error among ``found`` (for --target-se); fair odds are left
    out: they are a transform of a probability whose error is already there."""
    return max(
        (e.se for e in found if not math.isnan(e.se) and not e.outcome.endswith("_fair_odds")), default=float("inf")
    )


# ------------------------------------------------------------------------------ paired runs


def ratio_parts(sums: np.ndarray, outcomes: Outcomes, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every estimate as a ratio ``numerator / denominator`` (before its scale).

    The numerator is the column's sum; the denominator is the number of hands, or the
    ``X_count`` column of a conditional mean.  Both come back as float arrays shaped like
    ``sums`` (the entries of ``_sq``/``_count`` columns are not estimates and are unused).
    """
    numerators = np.asarray(sums, dtype=np.float64)
    denominators = np.full(numerators.shape, float(n))
    n_seats = numerators.shape[0] - 1
    for rows, columns in ((slice(0, n_seats), outcomes.seat), (slice(n_seats, n_seats + 1), outcomes.table)):
        for i, name in enumerate(columns):
            if name + "_count" in columns:
                denominators[rows, i] = numerators[rows, columns.index(name + "_count")]
    return numerators, denominators


def scales(outcomes: Outcomes, n_seats: int) -> np.ndarray:
    """The unit scale of every column, shaped like the sums of ``n_seats`` seats."""
    found = np.ones((n_seats + 1, outcomes.width))
    for i, name in enumerate(outcomes.seat):
        found[:n_seats, i] = outcomes.scale.get(name, 1)
    for i, name in enumerate(outcomes.table):
        found[n_seats, i] = outcomes.scale.get(name, 1)
    return found


def linearized(
    batch_sums: list[np.ndarray], batch_sizes: list[int], outcomes: Outcomes
) -> tuple[np.ndarray, np.ndarray]:
    """Estimates of one run played in batches, and each batch's linearised share of their error.

    For a ratio estimate R = sum(Y_b) / sum(X_b) over batches b, the share of batch b is
    z_b = (Y_b - R X_b) / sum(X), and Var(R) ~ K/(K-1) * sum(z_b^2) for K batches.  Two
    runs over the same batches of the same hands (common random numbers) have a
    difference whose variance is K/(K-1) * sum((zA_b - zB_b)^2): the covariance between
    them comes in through the shared batches, so no per-hand cross products are needed.
    Returns ``(estimates, shares)`` shaped ``[rows, width]`` and ``[K, rows, width]``, in
    user units; an estimate with no observations is nan.
    """
    parts = [ratio_parts(sums, outcomes, size) for sums, size in zip(batch_sums, batch_sizes)]
    numerators = np.stack([p[0] for p in parts])
    denominators = np.stack([p[1] for p in parts])
    total_y, total_x = numerators.sum(axis=0), denominators.sum(axis=0)
    unit = scales(outcomes, numerators.shape[1] - 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = total_y / total_x
        shares = (numerators - ratio * denominators) / total_x
    return ratio / unit, np.nan_to_num(shares) / unit


def batch_se(shares: np.ndarray) -> np.ndarray:
    """Standard errors from linearised batch shares (``[K, ...]`` -> ``[...]``)."""
    k = shares.shape[0]
    if k < 2:
        return np.full(shares.shape[1:], np.nan)
    return np.sqrt(k / (k - 1) * (shares * shares).sum(axis=0))
