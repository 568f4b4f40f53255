"""The plain-Python twin's advice sums, for the tests that tie each game's advice kernel
to its twin (the kernel's: :func:`sims.advice.simulate_advice`)."""

from __future__ import annotations

import numpy as np

from sims.core.advice import Situation
from sims.spec import GameSpec


def twin_advice(spec: GameSpec, rules, policy, n_seats: int, found: Situation, seed: int, first: int, count: int):
    """The flat sums the game's plain-Python twin gives for the same deals."""
    known = np.asarray(found.known, dtype=np.int64).ravel()
    return list(
        spec.twin_module().advise(
            spec.rules_array(rules),
            np.asarray(policy, dtype=np.float64),
            n_seats,
            seed,
            first,
            count,
            known,
            len(found.candidates),
            len(found.outcomes),
        )
    )
