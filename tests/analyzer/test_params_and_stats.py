"""Count parsing and the statistics behind every interval."""

from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.cli.parse import parse_count
from analyzer.run.stats import Z95, estimates, mean_estimate, wilson_interval
from sims.spec import Outcomes


@pytest.mark.parametrize(
    "text,value",
    [
        ("1000000", 10**6),
        ("1e6", 10**6),
        ("2_000_000", 2 * 10**6),
        ("5M", 5 * 10**6),
        ("2.5k", 2500),
        ("1,000", 1000),
        ("3E2", 300),
    ],
)
def test_parse_count_accepts(text, value):
    assert parse_count(text) == value


@pytest.mark.parametrize("text", ["1e", "", "abc", "-5", "0", "1.5", "1e20", "5MM", "e6"])
def test_parse_count_rejects(text):
    with pytest.raises(ValueError):
        parse_count(text)


def test_wilson_interval_known_values():
    low, high = wilson_interval(50, 100)
    assert math.isclose(low, 0.40383, abs_tol=1e-5) and math.isclose(high, 0.59617, abs_tol=1e-5)
    assert wilson_interval(0, 1000)[0] == 0.0 and 0.0037 < wilson_interval(0, 1000)[1] < 0.0039
    assert wilson_interval(1000, 1000)[1] == 1.0


def test_mean_estimate_uses_the_sample_variance_and_scale():
    values = np.array([1.0, 2.0, 3.0, 4.0])
    mean, se = mean_estimate(values.sum(), (values**2).sum(), 4)
    assert mean == 2.5 and math.isclose(se, values.std(ddof=1) / 2)
    mean12, se12 = mean_estimate(12 * values.sum(), (144 * values**2).sum(), 4, scale=12)
    assert math.isclose(mean12, 2.5) and math.isclose(se12, se)


def test_estimates_label_seats_and_table():
    outcomes = Outcomes(
        seat=("win", "net", "net_sq"), table=("rounds", "rounds_sq"), scale={"net": 2, "net_sq": 4}, signed=("net",)
    )
    sums = np.array([[3, 4, 8], [1, -4, 8], [20, 110, 0]])
    found = {(e.seat, e.outcome): e for e in estimates(sums, outcomes, 4)}
    assert set(found) == {(0, "win"), (0, "net"), (1, "win"), (1, "net"), ("table", "rounds")}
    assert found[(0, "win")].mean == 0.75 and found[(1, "net")].mean == -0.5
    assert found[("table", "rounds")].mean == 5.0


def test_a_quantity_that_cannot_be_negative_never_gets_a_negative_bound():
    from analyzer.run.stats import nonnegative_interval

    outcomes = Outcomes(seat=("win",), table=("carried", "carried_sq", "net", "net_sq"), signed=("net",))
    # 1,000 games, one of which carried 3 chips (so mean 0.003, se about 0.003); net: a signed quantity
    sums = np.array([[0, 0, 0, 0], [3, 9, 3, 9]])
    found = {e.outcome: e for e in estimates(sums, outcomes, 1000) if e.seat == "table"}
    carried, net = found["carried"], found["net"]
    assert carried.mean == net.mean == 0.003 and carried.se == net.se
    assert net.ci_low < 0 < carried.ci_low < carried.mean < carried.ci_high
    assert math.isclose(carried.ci_low * carried.ci_high, carried.mean**2)  # symmetric on the log scale
    assert math.isclose(math.log(carried.ci_high / carried.mean), Z95 * carried.se / carried.mean)
    # never seen in 1,000: the rule of three, in stored units then scaled
    assert nonnegative_interval(0.0, 0.0, 1000) == (0.0, pytest.approx(2.9957e-3, rel=1e-4))
    assert nonnegative_interval(0.0, 0.0, 1000, scale=12)[1] == pytest.approx(2.9957e-3 / 12, rel=1e-4)
    assert nonnegative_interval(5.0, 0.0, 10) == (5.0, 5.0)
    with pytest.raises(ValueError):
        nonnegative_interval(-0.1, 0.01, 100)


@pytest.mark.parametrize(
    "text,value",
    [
        ("1000000", 10**6),
        ("1e6", 10**6),
        ("2_000_000", 2 * 10**6),
        ("2,000,000", 2 * 10**6),
        ("5M", 5 * 10**6),
        ("2.5k", 2500),
        ("1e+3", 1000),
        ("12,345", 12345),
    ],
)
def test_counts_in_every_spelling(text, value):
    assert parse_count(text, "--hands") == value


def test_a_ratio_over_games_gets_the_delta_method_error():
    """Chips per deal over games of several deals: R = sum y / sum c, and the error of
    the ratio, not of independent deals."""
    from analyzer.run.stats import ratio_estimate

    games = [(3, 2), (-1, 1), (5, 4), (0, 3), (2, 2)]  # (chips won, deals) per game
    y = np.array([g[0] for g in games], float)
    c = np.array([g[1] for g in games], float)
    ratio = y.sum() / c.sum()
    expected = math.sqrt(((y - ratio * c) ** 2).sum() * 5 / 4) / c.sum()
    mean, se = ratio_estimate(y.sum(), (y * y).sum(), c.sum(), (c * c).sum(), (y * c).sum(), 5)
    assert mean == pytest.approx(ratio) and se == pytest.approx(expected)
    outcomes = Outcomes(
        seat=("deal_net", "deal_net_sq", "deal_net_count", "deal_net_count_sq", "deal_net_cross"),
        table=(),
        signed=("deal_net",),
    )
    sums = np.array([[y.sum(), (y * y).sum(), c.sum(), (c * c).sum(), (y * c).sum()], [0, 0, 0, 0, 0]])
    found = estimates(sums, outcomes, 5)
    assert [e.outcome for e in found] == ["deal_net"]
    assert found[0].mean == pytest.approx(ratio) and found[0].se == pytest.approx(expected)
    assert found[0].ci_low == pytest.approx(ratio - Z95 * expected)
    # one game: the ratio, with no error to give; no game with a denominator (no pool
    # taken): no number at all, and no exception
    assert ratio_estimate(6.0, 36.0, 3.0, 9.0, 18.0, 1) == (2.0, pytest.approx(float("nan"), nan_ok=True))
    empty = estimates(np.array([[0.0, 0.0, 0.0, 0.0, 0.0], [0, 0, 0, 0, 0]]), outcomes, 5)
    assert all(math.isnan(v) for v in (empty[0].mean, empty[0].se, empty[0].ci_low, empty[0].ci_high))
