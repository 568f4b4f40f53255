"""simulate(): run a game kernel over a range of hand (or game) indices, numpy in and out.

The index range is cut into blocks that run on a pool of threads; the kernels are
``nogil`` Numba functions, so the threads run in parallel.  Every hand draws from its own
stream and the sums are integers (wide ones carried in limbs, see
:class:`sims.spec.Outcomes`), so the result is the same for any number of blocks or
threads.  (A Python thread pool rather than Numba's ``parallel=True`` halves the cold
compile time and the start-up of a warm run, with the same scaling.)

Parameter types are coerced here, once, so every call reaches a kernel with the same
Numba signature and it compiles (or loads from cache) exactly once.
"""

from __future__ import annotations

import importlib
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from sims.spec import GameSpec

_POOLS: dict[int, ThreadPoolExecutor] = {}
MAX_BLOCK = 1 << 31  # items per kernel call: sums of 32-bit limbs stay inside int64


def available_threads() -> int:
    """The number of CPU cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _pool(threads: int) -> ThreadPoolExecutor:
    if threads not in _POOLS:
        _POOLS[threads] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="kernel")
    return _POOLS[threads]


def simulate(spec: GameSpec, rules, policy, n_seats: int, mode: int, seed: int,
             first: int, count: int, threads: int = 1, n_blocks: int | None = None) -> np.ndarray:
    """Integer outcome sums of hands/games ``first .. first+count-1`` of ``seed``.

    Returns ``[n_seats + 1, width]`` sums: one row per seat with the mode's seat outcome
    columns, then one table row with its table columns; int64, or exact Python integers
    when the mode has wide columns.  ``threads`` and ``n_blocks`` (default: 4 per thread)
    never change the result.
    """
    kernel = spec.kernels[mode]
    outcomes = spec.outcomes[mode]
    rules_array = spec.rules_array(rules)
    policy_matrix = np.ascontiguousarray(policy, dtype=np.float64)
    if policy_matrix.shape != (n_seats, len(spec.policy_fields)):
        raise ValueError(f"policy must have shape ({n_seats}, {len(spec.policy_fields)}), not {policy_matrix.shape}.")
    blocks = max(1, min(int(n_blocks if n_blocks else 4 * threads), int(count)))
    blocks = max(blocks, -(-int(count) // MAX_BLOCK))
    bounds = [first + count * b // blocks for b in range(blocks + 1)]

    def play(block: int) -> np.ndarray:
        lo, hi = bounds[block], bounds[block + 1]
        return kernel(rules_array, policy_matrix, np.int64(n_seats), np.uint64(seed), np.int64(lo), np.int64(hi - lo))

    if threads <= 1 or blocks == 1:
        parts = [play(block) for block in range(blocks)]
    else:
        parts = list(_pool(threads).map(play, range(blocks)))
    total = outcomes.decode(parts[0])
    for part in parts[1:]:
        total = outcomes.combine(total, outcomes.decode(part))
    return total


def simulate_jobs(spec: GameSpec, jobs, n_seats: int, mode: int, seed: int, threads: int = 1) -> list[np.ndarray]:
    """The sums of several runs of the same seed, each given as ``(rules, policy, first,
    count)``, spread over ``threads`` one whole job at a time (for many small runs, such as
    the batches of a paired comparison, this keeps every thread busy without cutting each
    job into blocks).  The same results as calling :func:`simulate` on each job."""
    kernel = spec.kernels[mode]
    outcomes = spec.outcomes[mode]
    prepared = {}

    def arguments(rules, policy):
        key = (tuple(int(v) for v in rules), np.asarray(policy, dtype=np.float64).tobytes())
        if key not in prepared:
            matrix = np.ascontiguousarray(policy, dtype=np.float64)
            if matrix.shape != (n_seats, len(spec.policy_fields)):
                raise ValueError(f"policy must have shape ({n_seats}, {len(spec.policy_fields)}), not {matrix.shape}.")
            prepared[key] = (spec.rules_array(rules), matrix)
        return prepared[key]

    calls = [(*arguments(rules, policy), int(first), int(count)) for rules, policy, first, count in jobs]

    def play(call) -> np.ndarray:
        rules_array, matrix, first, count = call
        total = None
        for lo in range(first, first + count, MAX_BLOCK):
            part = outcomes.decode(kernel(rules_array, matrix, np.int64(n_seats), np.uint64(seed), np.int64(lo),
                                          np.int64(min(MAX_BLOCK, first + count - lo))))
            total = part if total is None else outcomes.combine(total, part)
        return total

    if threads <= 1 or len(calls) == 1:
        return [play(call) for call in calls]
    return list(_pool(threads).map(play, calls))


def twin_module(spec: GameSpec):
    """The plain-Python slow twin of a game (imported on demand)."""
    return importlib.import_module(spec.twin) if spec.twin else None


def exact_module(spec: GameSpec):
    """The exact enumerator of a game, where it has one (imported on demand)."""
    return importlib.import_module(spec.exact) if spec.exact else None
