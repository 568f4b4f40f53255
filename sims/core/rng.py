"""Counter-keyed random streams: hand ``i`` of seed ``s`` draws from its own stream.

The stream for the pair ``(seed, index)`` is defined exactly, so the plain-Python twins
(``sims/games/*/twin.py``) can reproduce it bit for bit:

* ``mix64`` is the splitmix64 finaliser.
* ``key = mix64(mix64(seed) ^ index)`` (all arithmetic modulo 2**64).
* The four words of the xoshiro256** state are the first four outputs of a splitmix64
  generator started at ``key``: ``key += GOLDEN; word = mix64(key)``.
* ``next_u64`` is xoshiro256** (Blackman and Vigna).
* ``below(n)`` returns an integer uniform on ``[0, n)`` with Lemire's multiply-shift on
  the top 32 bits of one output, rejecting the few biased values, so it is exactly uniform.
* ``uniform()`` returns ``(next_u64() >> 11) * 2**-53``, uniform on ``[0, 1)``.

Because a hand depends only on ``(seed, index)``, results are identical for any thread
count and chunking, a run can be extended or resumed, and two rule variants compared on
the same seed play the same deals.
"""

from __future__ import annotations

import math

import numpy as np

from sims.core.jit import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def mix64_nb(z):
    """The splitmix64 finaliser: a bijection on 64-bit words with full avalanche."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _times_nb(z, c):
    """``z * c`` modulo 2**64 for a constant ``c``, from 32-bit halves."""
    low = np.uint64(c & 0xFFFFFFFF)
    high = np.uint64(c >> 32)
    z_low = z & _LOW32
    return z_low * low + (((z >> np.uint64(32)) * low + z_low * high) << np.uint64(32))


@njit(cache=True, inline="always")
def mix64_lanes_nb(z):
    """:func:`mix64_nb`, the same bijection, with each 64-bit product written from 32-bit
    halves.  In a loop over many streams (one per lane) the compiler then vectorizes it
    with 32x32-bit vector multiplies; given 64-bit products it keeps the loop scalar."""
    z = _times_nb(z ^ (z >> np.uint64(30)), 0xBF58476D1CE4E5B9)
    z = _times_nb(z ^ (z >> np.uint64(27)), 0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


# The stream state is an immutable tuple of four uint64 words that every function takes
# and returns.  It lives in registers: an array state, inlined into the per-hand loop,
# made Numba emit reference-count calls around every draw and ran four times slower.


@njit(cache=True, inline="always")
def seed_key_nb(seed):
    """The part of a stream key that depends on the seed only (hoisted out of hand loops)."""
    return mix64_nb(np.uint64(seed))


@njit(cache=True, inline="always")
def stream_nb(seed_key, index):
    """The state of the stream ``(seed, index)``, given ``seed_key = seed_key_nb(seed)``."""
    key = mix64_nb(seed_key ^ np.uint64(index))
    key += GOLDEN
    s0 = mix64_nb(key)
    key += GOLDEN
    s1 = mix64_nb(key)
    key += GOLDEN
    s2 = mix64_nb(key)
    key += GOLDEN
    s3 = mix64_nb(key)
    return (s0, s1, s2, s3)


@njit(cache=True, inline="always")
def next_u64_nb(state):
    """xoshiro256**: ``(output, new_state)``."""
    s0, s1, s2, s3 = state
    x = s1 * np.uint64(5)
    result = ((x << np.uint64(7)) | (x >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    return result, (s0, s1, s2, s3)


@njit(cache=True, inline="always")
def below_nb(state, n):
    """``(k, new_state)`` with ``k`` uniform on ``[0, n)``, ``1 <= n < 2**32``, exactly."""
    bound = np.uint64(n)
    word, state = next_u64_nb(state)
    product = (word >> np.uint64(32)) * bound
    low = product & _LOW32
    if low < bound:
        threshold = (_TWO32 - bound) % bound
        while low < threshold:
            word, state = next_u64_nb(state)
            product = (word >> np.uint64(32)) * bound
            low = product & _LOW32
    return np.int64(product >> np.uint64(32)), state


@njit(cache=True, inline="always")
def uniform_nb(state):
    """``(u, new_state)`` with ``u`` uniform on ``[0, 1)`` (53 random bits)."""
    word, state = next_u64_nb(state)
    return np.float64(word >> np.uint64(11)) * _INV53, state


@njit(cache=True, inline="always")
def uniform_bound_nb(p):
    """The integer ``b`` with ``uniform() < p`` exactly when ``(next_u64() >> 11) < b``,
    for ``0 <= p <= 1``, so that kernels compare integers (:func:`uniform_below_nb`).
    (``uniform()`` is ``j * 2**-53`` for the integer ``j = next >> 11``, and ``p * 2**53``
    is exact, so ``u < p`` is ``j < ceil(p * 2**53)``.)"""
    return np.int64(math.ceil(p * 9007199254740992.0))


@njit(cache=True, inline="always")
def uniform_below_nb(state, bound):
    """``(uniform() < p, new_state)`` for ``bound = uniform_bound_nb(p)``: one draw."""
    word, state = next_u64_nb(state)
    return np.int64(word >> np.uint64(11)) < bound, state


# ----------------------------------------------------------------------------------------
# Plain-Python reference of the same streams, for the slow twins, replay and tests.

_M64 = (1 << 64) - 1


def mix64(z: int) -> int:
    z &= _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


class Stream:
    """The stream of ``(seed, index)`` in plain Python; draws match the kernels' exactly."""

    __slots__ = ("s",)

    def __init__(self, seed: int, index: int):
        key = mix64(mix64(seed) ^ (index & _M64))
        words = []
        for _ in range(4):
            key = (key + 0x9E3779B97F4A7C15) & _M64
            words.append(mix64(key))
        self.s = words

    def next_u64(self) -> int:
        s0, s1, s2, s3 = self.s
        x = (s1 * 5) & _M64
        result = ((((x << 7) | (x >> 57)) & _M64) * 9) & _M64
        t = (s1 << 17) & _M64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 45) | (s3 >> 19)) & _M64
        self.s = [s0, s1, s2, s3]
        return result

    def below(self, n: int) -> int:
        product = (self.next_u64() >> 32) * n
        low = product & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                product = (self.next_u64() >> 32) * n
                low = product & 0xFFFFFFFF
        return product >> 32

    def uniform(self) -> float:
        return (self.next_u64() >> 11) * (1.0 / 9007199254740992.0)


def stream_state(seed: int, index: int) -> tuple:
    """The kernels' state tuple of the stream ``(seed, index)``, for a kernel called from
    Python (a stacked deal's policy draws).  Built here because words passed through
    Python lose their uint64 type and would be read as other numbers."""
    return tuple(np.uint64(word) for word in Stream(seed, index).s)
