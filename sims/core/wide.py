"""Exact sums of values too wide for int64 sums: base-2**32 limbs.

A kernel that sums a quantity whose per-item values (or their squares) can approach
2**63 stores it in consecutive int64 columns, one per 32-bit limb: the value
``v = sum(limb_k * 2**(32 k))``.  Each item adds limbs below 2**32 (the top limb of a
signed value may be negative), so a column cannot overflow before 2**31 items, and
:meth:`sims.spec.Outcomes.decode` rebuilds the exact total as a Python integer.
"""

from __future__ import annotations

import numpy as np

from sims.core.jit import njit

_LOW32 = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)


@njit(cache=True, inline="always")
def add_wide_nb(out, row, column, value):
    """Add a signed int64 ``value`` to the 2-limb sum at ``out[row, column:column+2]``."""
    out[row, column] += value & 0xFFFFFFFF
    out[row, column + 1] += value >> 32


@njit(cache=True, inline="always")
def add_wide_square_nb(out, row, column, value):
    """Add ``value**2`` (|value| < 2**63) to the 4-limb sum at ``out[row, column:column+4]``."""
    v = np.uint64(value if value >= 0 else -value)
    high = v >> _32
    low = v & _LOW32
    low_low = low * low  # < 2**64
    cross = (high * low) << np.uint64(1)  # 2 * high * low < 2**64
    high_high = high * high  # < 2**62
    carry = (low_low >> _32) + (cross & _LOW32)
    out[row, column] += np.int64(low_low & _LOW32)
    out[row, column + 1] += np.int64(carry & _LOW32)
    carry = (carry >> _32) + (cross >> _32) + (high_high & _LOW32)
    out[row, column + 2] += np.int64(carry & _LOW32)
    out[row, column + 3] += np.int64((carry >> _32) + (high_high >> _32))
