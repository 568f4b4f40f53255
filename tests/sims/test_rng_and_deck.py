"""Counter-keyed streams and dealing: the Numba and plain-Python versions agree bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from sims.core.cards import card_code, card_name, format_cards, parse_cards
from sims.core.deck import deal_prefix, deal_prefix_nb, draw_nb, new_pack_nb
from sims.core.rng import (
    Stream,
    below_nb,
    next_u64_nb,
    seed_key_nb,
    stream_nb,
    stream_state,
    uniform_below_nb,
    uniform_bound_nb,
    uniform_nb,
)


@njit(cache=True)
def _draws_nb(seed, index, n_words, bound):
    state = stream_nb(seed_key_nb(seed), index)
    words = np.zeros(n_words, dtype=np.uint64)
    for i in range(n_words):
        words[i], state = next_u64_nb(state)
    k, state = below_nb(state, bound)
    u, state = uniform_nb(state)
    return words, k, u


@njit(cache=True)
def _float_and_integer_draws_nb(p, n):
    """``n`` decisions ``uniform() < p`` made both ways from the same streams, and the
    number of words each way drew (the states must stay equal)."""
    by_float = np.zeros(n, dtype=np.bool_)
    by_integer = np.zeros(n, dtype=np.bool_)
    bound = uniform_bound_nb(p)
    same_state = True
    for i in range(n):
        state = stream_nb(seed_key_nb(np.uint64(7)), i)
        u, after_float = uniform_nb(state)
        by_float[i] = u < p
        by_integer[i], after_integer = uniform_below_nb(state, bound)
        same_state &= after_float == after_integer
    return by_float, by_integer, same_state


@njit(cache=True)
def _deal_nb(seed, index, m):
    pack = new_pack_nb()
    dealt = np.zeros(52, dtype=np.int64)
    state = stream_nb(seed_key_nb(seed), index)
    deal_prefix_nb(pack, dealt, m, state)
    return dealt[:m].copy(), pack


def test_numba_and_python_streams_agree_bit_for_bit():
    for seed, index in ((0, 0), (1, 2), (2**64 - 1, 12345678901), (42, 2**40)):
        words, k, u = _draws_nb(np.uint64(seed), np.uint64(index), 5, 52)
        stream = Stream(seed, index)
        assert [int(w) for w in words] == [stream.next_u64() for _ in range(5)]
        assert k == stream.below(52)
        assert u == stream.uniform()


def test_streams_of_neighbouring_hands_differ():
    firsts = {Stream(7, index).next_u64() for index in range(1000)}
    assert len(firsts) == 1000


def test_below_is_uniform():
    stream = Stream(3, 0)
    counts = np.bincount([stream.below(13) for _ in range(26000)], minlength=13)
    chi2 = float(((counts - 2000) ** 2 / 2000).sum())
    assert chi2 < 40.0  # 12 degrees of freedom: P(chi2 > 40) < 1e-4


@pytest.mark.slow
def test_deal_prefix_matches_python_and_keeps_a_whole_pack():
    for index in range(20):
        dealt, deck = _deal_nb(np.uint64(5), np.uint64(index), 20)
        assert dealt.tolist() == deal_prefix(Stream(5, index), 20)
        assert len(set(dealt.tolist())) == 20
        assert sorted(deck.tolist()) == list(range(52))


def test_deal_prefix_is_a_prefix_of_the_full_shuffle():
    full = deal_prefix(Stream(9, 4), 52)
    assert sorted(full) == list(range(52))
    assert deal_prefix(Stream(9, 4), 9) == full[:9]


def test_card_notation_round_trips():
    assert parse_cards("Ah 10d Ks") == [2 * 13 + 0, 1 * 13 + 9, 3 * 13 + 12]
    assert card_code("Td") == card_code("10d")
    assert format_cards(parse_cards("Ac 2c Qh")) == "Ac 2c Qh"
    assert card_name(51) == "Ks"


@njit(cache=True)
def _one_at_a_time_nb(seed, index, m, shuffle):
    """The first ``m`` cards drawn one at a time with draw_nb from a pack in code order."""
    pack = new_pack_nb()
    state = stream_nb(seed_key_nb(seed), index)
    drawn = np.zeros(m, dtype=np.int64)
    top = 0
    for k in range(m):
        drawn[k], top, state = draw_nb(pack, top, 52, shuffle, state)
    return drawn


def test_drawing_one_card_at_a_time_is_the_deal_prefix_or_the_stacked_order():
    for index in range(10):
        assert _one_at_a_time_nb(np.uint64(3), np.int64(index), 30, True).tolist() == deal_prefix(Stream(3, index), 30)
    assert _one_at_a_time_nb(np.uint64(3), np.int64(0), 52, False).tolist() == list(range(52))


@njit(cache=True)
def _first_words_nb(state, k):
    words = np.zeros(k, dtype=np.uint64)
    for i in range(k):
        words[i], state = next_u64_nb(state)
    return words


def test_a_stream_state_built_in_python_drives_a_kernel_exactly():
    for seed, index in ((0, 0), (2**64 - 1, 7)):
        stream = Stream(seed, index)
        assert [int(w) for w in _first_words_nb(stream_state(seed, index), 4)] == [stream.next_u64() for _ in range(4)]


def test_an_integer_bound_decides_uniform_below_p_exactly_as_the_float_does():
    """Kernels compare ``next >> 11`` with ``uniform_bound_nb(p)`` instead of ``uniform() < p``:
    the same decision for every draw, including p a multiple of 2**-53 and p just off one."""
    for p in (1e-300, 2.0**-53, 0.25, 0.4, 0.5, 1 / 3, 0.5 + 2.0**-53, 0.5 - 2.0**-54, 0.999999, 1.0):
        by_float, by_integer, same_state = _float_and_integer_draws_nb(p, 20_000)
        assert np.array_equal(by_float, by_integer), p
        assert same_state
    # at the edge: the word whose uniform() equals p exactly is not below p
    for j in (1, 12345, 2**52, 2**53 - 1):
        assert uniform_bound_nb(j * 2.0**-53) == j
        assert uniform_bound_nb(np.nextafter(j * 2.0**-53, 1.0)) == j + 1
