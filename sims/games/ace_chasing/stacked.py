"""Ace Chasing's stacked-deal harness for tests: literal cards played through the kernel
(:func:`play_dealt`), as the plain-Python twin's functions of the same
names play them.  No command uses it; the kernels are in ``kernel.py``."""

from __future__ import annotations

import numpy as np

from sims.core.rng import Stream
from sims.games.ace_chasing.kernel import (
    _bet_result,
    hand_codes_nb,
    hand_table_nb,
    play_hand_nb,
)
from sims.games.ace_chasing.rules import (
    Rules,
)


def play_dealt(rules: Rules, policy: np.ndarray, cards, log=None, stream=None) -> dict:
    """Play one round from literal cards through the kernel (for stacked-deck tests).

    ``cards`` lists the card codes of positions 0 (the matador's left) .. k-1 (the
    matador), k >= 2; ``policy`` has one row per position (with table blocks, see
    "Strategy tables").  ``stream`` (a :class:`sims.core.rng.Stream`, advanced in place)
    feeds the draws of mixed table cells; without it a mixed cell draws from stream
    (0, 0).  ``log`` is accepted for the plain-Python twin's signature and left
    untouched.  Returns per-position lists ``exposed``, ``swap``, ``bet`` (+b against
    the matador, -b for it), ``bet_net``, ``final``, and ``knocked_out``.
    """
    cards = [int(c) for c in cards]
    k = len(cards)
    if k < 2:
        raise ValueError("a round needs at least two players.")
    policy = np.ascontiguousarray(policy, dtype=np.float64)
    rules_array = np.asarray(rules, dtype=np.int64)
    table = hand_table_nb(rules_array, policy, np.int64(k)).view(np.recarray)[0]  # attribute access in Python too
    table.dealt[:k] = cards
    stream = Stream(0, 0) if stream is None else stream
    codes = hand_codes_nb(rules_array, policy, table, np.int64(k))
    state = play_hand_nb(table, np.int64(k), np.int64(k - 1), False, tuple(np.uint64(w) for w in stream.s), codes)
    stream.s = [int(w) for w in state]
    knocked_out, exposed = int(table.knocked_out), int(table.exposed)
    held = table.held[:k].tolist()
    bets = table.bet[:k].tolist()
    nets = [int(_bet_result(bet, knocked_out)) for bet in bets[:-1]]
    return {
        "exposed": [int(exposed) >> card & 1 for card in held[:-1]] + [0],
        "swap": table.swapped[:k].tolist(),
        "bet": bets,
        "bet_net": nets + [-sum(nets)],
        "knocked_out": int(knocked_out),
        "final": held,
    }
