"""Wide outcome columns (32-bit limbs) and maximum columns: exact decoding and combining."""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.wide import add_wide_nb, add_wide_square_nb
from sims.spec import Outcomes

OUTCOMES = Outcomes(
    seat=("net", "net_sq", "profit"), table=("games", "largest"), limbs={"net": 2, "net_sq": 4}, maxima=("largest",)
)


@njit(cache=True)
def _accumulate(values):
    out = np.zeros((2, 7), dtype=np.int64)
    for value in values:
        add_wide_nb(out, 0, 0, value)
        add_wide_square_nb(out, 0, 2, value)
        out[0, 6] += value > 0
        out[1, 0] += 1
        out[1, 1] = max(out[1, 1], value)
    return out


def test_limbs_hold_exact_sums_of_values_and_squares_beyond_int64():
    rng = np.random.default_rng(1)
    values = [int(v) for v in rng.integers(-(2**62), 2**62, 500)] + [2**63 - 1, -(2**63 - 1), 0, -1, 2**32, -(2**32)]
    raw = _accumulate(np.array(values, dtype=np.int64))
    assert OUTCOMES.kernel_columns(OUTCOMES.seat) == (
        "net",
        "net_limb1",
        "net_sq",
        "net_sq_limb1",
        "net_sq_limb2",
        "net_sq_limb3",
        "profit",
    )
    assert OUTCOMES.kernel_width == 7 and OUTCOMES.width == 3
    sums = OUTCOMES.decode(raw)
    assert sums.dtype == object
    assert sums[0, 0] == sum(values) and sums[0, 1] == sum(v * v for v in values)
    assert sums[0, 1] > 2**127
    assert sums[0, 2] == sum(v > 0 for v in values)
    assert sums[1, 0] == len(values) and sums[1, 1] == max(values)


def test_combine_adds_sums_and_keeps_the_larger_maximum():
    a = OUTCOMES.decode(_accumulate(np.array([5, -3, 2**62], dtype=np.int64)))
    b = OUTCOMES.decode(_accumulate(np.array([7, 1], dtype=np.int64)))
    both = OUTCOMES.decode(_accumulate(np.array([5, -3, 2**62, 7, 1], dtype=np.int64)))
    assert np.array_equal(OUTCOMES.combine(a, b), both)
    assert OUTCOMES.combine(b, a)[1, 1] == 2**62


def test_outcomes_without_wide_columns_decode_to_the_same_array():
    plain = Outcomes(seat=("x", "x_sq"), table=("y",))
    raw = np.arange(6, dtype=np.int64).reshape(3, 2)
    assert plain.decode(raw) is raw and plain.zeros(2).dtype == np.int64
