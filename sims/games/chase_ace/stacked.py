"""Chase the Ace's stacked-deal harness for tests: literal cards played through the kernel
(:func:`play_dealt`), as the plain-Python twin's functions of the same
names play them.  No command uses it; the kernels are in ``kernel.py``."""

from __future__ import annotations

import numpy as np

from sims.games.chase_ace import SPEC
from sims.games.chase_ace.kernel import (
    SOLVE_FORCED,
    SOLVE_FORCED_SWAP,
    SOLVE_VISITS,
    hand_codes_nb,
    hand_table_nb,
    play_hand_nb,
    play_round_nb,
)
from sims.games.chase_ace.rules import (
    Rules,
)


def play_dealt(rules: Rules, policy: np.ndarray, cards, stream=None, log=None, *, visits=None, override=None) -> dict:
    """Play one round from literal cards through the kernel (for stacked-deck tests).

    ``cards`` lists the card codes of positions 0 (eldest) .. m-1 (dealer), then the cut
    card; ``policy`` has one row per position (and may carry tables, sims.core.table).
    Mixed decisions draw from ``stream`` (a :class:`sims.core.rng.Stream`, advanced in
    place), as the plain-Python twin's ``play_dealt`` does: without one, a round that
    needs a draw raises ``ValueError``.  ``log`` is accepted for the same signature and
    left untouched.  ``visits`` (a list) receives the solve kernel's visits ``(position,
    declared cell, swapped)``; ``override`` ``(position, swap)`` forces that position's
    visit after its own decision, as the solve kernel does.
    Returns ``{"lose", "exchange", "final"}`` lists per position.
    """
    cards = [int(c) for c in cards]
    m = len(cards) - 1
    SPEC.check(rules, policy, m)
    policy = np.asarray(policy, dtype=np.float64)
    rules_array = np.asarray(rules, dtype=np.int64)
    table = hand_table_nb(rules_array, policy, np.int64(m)).view(np.recarray)[0]  # attribute access in Python too
    table.dealt[: m + 1] = cards
    words = stream.s if stream is not None else [1, 2, 3, 4]
    state = tuple(np.uint64(word) for word in words)
    codes = hand_codes_nb(rules_array, policy, table, np.int64(m))
    if visits is None and override is None:
        state = play_hand_nb(table, np.int64(m), np.int64(m - 1), False, state, codes)
    else:  # the solve kernel's round, noting its visits
        table.solve[SOLVE_FORCED] = -1 if override is None else override[0]
        table.solve[SOLVE_FORCED_SWAP] = 0 if override is None else int(bool(override[1]))
        _, state = play_round_nb(table, m, state, codes[0], codes[1], -1, False, True)
        if visits is not None:
            for v in range(table.solve[SOLVE_VISITS]):
                visits.append((int(table.visit_position[v]), int(table.visit_cell[v]), bool(table.visit_swap[v])))
    if stream is not None:
        stream.s = [int(word) for word in state]
    elif [int(word) for word in state] != [1, 2, 3, 4]:
        raise ValueError("this round needs a mixed-strategy draw: pass a stream.")
    return {"lose": table.lose[:m].tolist(), "exchange": table.exchanged[:m].tolist(), "final": table.held[:m].tolist()}
