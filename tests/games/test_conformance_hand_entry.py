"""Every game's kernel has one per-hand entry point, with one name and signature (README,
"Adding a game"):

- ``hand_table_nb(rules, policy, n)``: the scratch a hand is played on (a one-record
  ``TABLE`` array, whose record is the table, or a tuple of flat arrays);
- ``hand_codes_nb(rules, policy, table, n)``: what a hand reads besides the table;
- ``play_hand_nb(table, n, dealer, shuffle, state, codes)``: one hand dealt by
  ``dealer`` from the hand's stream ``state`` (``shuffle`` False: the pack stacked in the
  table), its outcome left in the table; returns the advanced stream.

The hand loops play through it (all but Chase the Ace's lanes, its standard rules' hands
256 at a time; the golden digests hold their sums), and so do the game modes of Fan Tan,
Fight for the Lead, All-Fours, Five Hundred and Spoil Five and every stacked-deal harness
(``stacked.py``).  Here, for every game: the signatures, and
that a hand depends on its stream alone: played on a fresh table or after another hand,
it consumes the same draws and leaves the same outcome, and two hands' deals differ.
"""

from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest

from sims.core.rng import stream_state
from sims.registry import GAMES

SIGNATURES = {
    "hand_table_nb": ["rules", "policy", "n"],
    "hand_codes_nb": ["rules", "policy", "table", "n"],
    "play_hand_nb": ["table", "n", "dealer", "shuffle", "state", "codes"],
}


def _kernel(spec):
    return importlib.import_module(spec.twin.rsplit(".", 1)[0] + ".kernel")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_entry_point_has_one_name_and_signature(name):
    kernel = _kernel(GAMES[name])
    for function, parameters in SIGNATURES.items():
        assert list(inspect.signature(getattr(kernel, function).py_func).parameters) == parameters, function


def _play(spec, index, before=None):
    """Hand ``index`` of seed 5 at the default table through the entry point (after hand
    ``before`` on the same table, when given): the stream it returns and the table."""
    kernel = _kernel(spec)
    n = spec.default_players
    rules = spec.rules_array(spec.default_rules())
    policy = spec.default_policy(n)
    scratch = kernel.hand_table_nb(rules, policy, np.int64(n))
    table = scratch.view(np.recarray)[0] if isinstance(scratch, np.ndarray) else scratch
    for hand in ([before] if before is not None else []) + [index]:
        codes = kernel.hand_codes_nb(rules, policy, table, np.int64(n))  # Five Hundred's scores from 0-0 each time
        state = kernel.play_hand_nb(table, np.int64(n), np.int64(n - 1), True, stream_state(5, hand), codes)
    return tuple(int(word) for word in state), scratch


def _fields(scratch) -> dict[str, bytes]:
    """The table, field by field (the flat games: array by array), as bytes; a record's
    sums, which the hand loops add to, are left out."""
    if not isinstance(scratch, np.ndarray):  # (work, masks): the masks hold the hands dealt, held and seen
        return {"work": np.asarray(scratch[0]).tobytes(), "masks": np.asarray(scratch[1]).tobytes()}
    sums = {"sums", "lose_sum", "exchange_sum", "exposed_sum", "swap_sum", "dealt_sum"}
    return {field: np.asarray(scratch[0][field]).tobytes() for field in scratch.dtype.names if field not in sums}


# Fields that hold one hand's deal or outcome, written by every hand.
OUTCOME_FIELDS = ("masks",) + (
    "dealt",
    "held",
    "lose",
    "exchanged",
    "knocked_out",
    "exposed",
    "bet",
    "swapped",
    "winner",
)
OUTCOME_FIELDS += ("net", "paid", "received", "passes", "cards_left", "turns", "pot", "pot_next", "hand", "hands")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_hand_depends_on_its_stream_alone(name):
    spec = GAMES[name]
    alone, fresh = _play(spec, 7)
    again, twin = _play(spec, 7)
    after, reused = _play(spec, 7, before=3)
    assert alone == again == after  # the same draws, on a fresh table or after another hand
    assert alone != tuple(int(word) for word in stream_state(5, 7))  # the deal drew from the stream
    assert _fields(fresh) == _fields(twin)  # the same table from the same stream
    other = _fields(_play(spec, 8)[1])
    assert _fields(fresh) != other  # another hand's stream deals otherwise
    fresh_fields, reused_fields = _fields(fresh), _fields(reused)  # the outcome does not remember the hand before
    checked = [field for field in OUTCOME_FIELDS if field in fresh_fields]
    assert checked
    for field in checked:
        assert fresh_fields[field] == reused_fields[field], field
