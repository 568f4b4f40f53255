"""simulate(): run a game kernel over a range of hand (or game) indices, numpy in and out.

Parameter types are coerced here, once, so every call reaches the kernel with the same
Numba signature and the kernel compiles (or loads from cache) exactly once.
"""

from __future__ import annotations

import importlib

import numpy as np

from sims.spec import GameSpec


def simulate(spec: GameSpec, rules, policy, n_seats: int, mode: int, seed: int,
             first: int, count: int, n_blocks: int = 1) -> np.ndarray:
    """Integer outcome sums of hands/games ``first .. first+count-1`` of ``seed``.

    Returns int64 ``[n_seats + 1, width]``: one row per seat with the mode's seat
    outcome columns, then one table row with its table columns.  ``n_blocks`` parallel
    blocks never change the result.
    """
    outcomes = spec.outcomes[mode]
    rules_array = spec.rules_array(rules)
    policy_matrix = np.ascontiguousarray(policy, dtype=np.float64)
    if policy_matrix.shape != (n_seats, len(spec.policy_fields)):
        raise ValueError(f"policy must have shape ({n_seats}, {len(spec.policy_fields)}), not {policy_matrix.shape}.")
    blocks = max(1, min(int(n_blocks), int(count)))
    sums = spec.simulate_nb(rules_array, policy_matrix, np.int64(n_seats), np.int64(mode),
                            np.uint64(seed), np.int64(first), np.int64(count), np.int64(blocks))
    return sums[:, : outcomes.width]


def twin_module(spec: GameSpec):
    """The plain-Python slow twin of a game (imported on demand)."""
    return importlib.import_module(spec.twin) if spec.twin else None


def exact_module(spec: GameSpec):
    """The exact enumerator of a game, where it has one (imported on demand)."""
    return importlib.import_module(spec.exact) if spec.exact else None
