"""sims/core/jit.py: Numba's inliner made linear, with the same compiled code."""

import numpy as np

from sims.core import jit
from sims.core.jit import njit


def test_both_changes_apply_to_the_installed_numba():
    # Fails when a Numba upgrade changes the inliner's source: the kernels still compile
    # and give the same sums, but three times slower; re-read the new source and adapt.
    assert jit.PATCHED == {"copy", "reuse"}


@njit(inline="always")
def _scaled(x, k):
    total = 0
    for i in range(x):
        if k > 1:  # folds away where k is a constant
            total += i * k
        else:
            total -= i
    return total


@njit(inline="always")
def _twice(x, k):
    return _scaled(x, k) + _scaled(x + 1, k)


@njit
def _calls(x):
    return np.array([_twice(x, 2), _twice(x, 1), _scaled(x, 3), _twice(x + 2, 2)])


def test_a_helper_inlined_at_several_sites_and_depths_keeps_each_sites_arguments():
    def scaled(x, k):
        return sum(i * k if k > 1 else -i for i in range(x))

    def twice(x, k):
        return scaled(x, k) + scaled(x + 1, k)

    assert _calls(5).tolist() == [twice(5, 2), twice(5, 1), scaled(5, 3), twice(7, 2)] == [50, -25, 30, 98]
