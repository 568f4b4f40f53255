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
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

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


_READY: set[tuple[str, int]] = set()  # kernels this process has compiled or loaded


def ready_kernel(spec: GameSpec, mode: int, rules_array: np.ndarray, policy_matrix: np.ndarray, n_seats: int):
    """The mode's kernel, compiled or loaded from the cache on its first use here.

    A kernel that fails to load because a cache file is damaged gets one line on stderr,
    the damaged files removed (:func:`sims.repair_kernel_cache`) and a fresh compile;
    any other failure is raised as it is.  The arguments are those of the real calls,
    so the first call compiles the one signature every later call uses.
    """
    kernel = spec.kernels[mode]
    if (spec.name, mode) in _READY:
        return kernel
    arguments = (rules_array, policy_matrix, np.int64(n_seats), np.uint64(0), np.int64(0), np.int64(0))
    try:
        kernel(*arguments)
    except Exception:
        from sims import repair_kernel_cache

        damaged = repair_kernel_cache()
        if not damaged:
            raise
        # the core presents nothing else; this line is what a user needs to know
        names = ", ".join(path.name for path in damaged[:3]) + (" ..." if len(damaged) > 3 else "")
        sys.stderr.write(f"warning: the kernel cache had {len(damaged)} damaged file{'s' if len(damaged) > 1 else ''} "
                         f"({names}); removed {'them' if len(damaged) > 1 else 'it'} and compiled the kernels again\n")
        kernel(*arguments)
    _READY.add((spec.name, mode))
    return kernel


def simulate(spec: GameSpec, rules, policy, n_seats: int, mode: int, seed: int,
             first: int, count: int, threads: int = 1, n_blocks: int | None = None) -> np.ndarray:
    """Integer outcome sums of hands/games ``first .. first+count-1`` of ``seed``.

    Returns ``[n_seats + 1, width]`` sums: one row per seat with the mode's seat outcome
    columns, then one table row with its table columns; int64, or exact Python integers
    when the mode has wide columns.  ``threads`` and ``n_blocks`` (default: 4 per thread)
    never change the result.
    """
    outcomes = spec.outcomes[mode]
    rules_array = spec.rules_array(rules)
    policy_matrix = np.ascontiguousarray(policy, dtype=np.float64)
    if policy_matrix.shape != (n_seats, len(spec.policy_fields)):
        raise ValueError(f"policy must have shape ({n_seats}, {len(spec.policy_fields)}), not {policy_matrix.shape}.")
    kernel = ready_kernel(spec, mode, rules_array, policy_matrix, n_seats)
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


PIECE_SECONDS = 0.2  # aim of one piece of work: how long a stop request can wait for it
FIRST_PIECE = 256  # items in the first pieces, before any speed is measured
LAST_PIECES = 64  # the smallest piece the end of a run is cut into
_SECONDS_PER_ITEM: dict[tuple, float] = {}  # measured speed per (game, mode, seats), kept for later runs


class Stopped(Exception):
    """:func:`play_jobs` was asked to stop.  Every piece it started has finished, so each
    job's finished part is a prefix of its items: ``sums[j]`` holds their sums (``None``
    when nothing of job ``j`` was played) and ``played[j]`` how many items they are."""

    def __init__(self, sums: list, played: list[int]):
        super().__init__("stopped")
        self.sums = sums
        self.played = played


def play_jobs(spec: GameSpec, jobs, n_seats: int, mode: int, seed: int, threads: int = 1, stop=None,
              progress=None, piece_seconds: float = PIECE_SECONDS) -> list[np.ndarray]:
    """The sums of several runs of the same seed, each given as ``(rules, policy, first,
    count)``: the same results as calling :func:`simulate` on each job.

    Each job is played in pieces, one thread per piece, sized from the measured speed so
    that a piece takes about ``piece_seconds``; jobs are started in the order given and
    sums are exact integers, so neither the cut nor the thread count changes a result.
    ``stop`` (a callable) is asked between pieces; when it answers true, the pieces not
    started are dropped, the ones running finish, and :class:`Stopped` is raised with
    each job's finished prefix.  ``progress(items)`` is called as pieces finish.
    """
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
    if calls:
        ready_kernel(spec, mode, calls[0][0], calls[0][1], n_seats)
    speed_key = (spec.name, mode, n_seats)
    sums: list = [None] * len(calls)
    played = [0] * len(calls)
    offered = [0] * len(calls)  # items of each job handed out as pieces so far
    left = [sum(call[3] for call in calls)]  # items of every job not yet handed out

    def play(job: int, lo: int, size: int):
        rules_array, matrix, _, _ = calls[job]
        start = time.perf_counter()
        raw = kernel(rules_array, matrix, np.int64(n_seats), np.uint64(seed), np.int64(lo), np.int64(size))
        return job, size, outcomes.decode(raw), time.perf_counter() - start

    def next_piece():
        """The next piece in job order, sized for ``piece_seconds`` at the measured speed,
        and smaller near the end, so that the threads finish together."""
        for job, (_, _, first, count) in enumerate(calls):
            if offered[job] < count:
                per_item = _SECONDS_PER_ITEM.get(speed_key)
                size = FIRST_PIECE if per_item is None else int(piece_seconds / max(per_item, 1e-12))
                if threads > 1:
                    size = min(size, max(LAST_PIECES, -(-left[0] // (2 * threads))))
                size = max(1, min(size, MAX_BLOCK, count - offered[job]))
                piece = (job, first + offered[job], size)
                offered[job] += size
                left[0] -= size
                return piece
        return None

    def finish(job: int, size: int, part, seconds: float) -> None:
        sums[job] = part if sums[job] is None else outcomes.combine(sums[job], part)
        played[job] += size
        if size >= 16:  # tiny pieces time the call, not the hands
            measured = seconds / size
            known = _SECONDS_PER_ITEM.get(speed_key)
            _SECONDS_PER_ITEM[speed_key] = measured if known is None else 0.5 * known + 0.5 * measured
        if progress is not None:
            progress(size)

    if threads <= 1:
        while (piece := next_piece()) is not None:
            if stop is not None and stop():
                raise Stopped(sums, played)
            finish(*play(*piece))
    else:
        pool = _pool(threads)
        running = set()
        try:
            while True:
                stopping = stop is not None and stop()
                while not stopping and len(running) < threads and (piece := next_piece()) is not None:
                    running.add(pool.submit(play, *piece))
                if not running:
                    break
                done, running = wait(running, timeout=0.05, return_when=FIRST_COMPLETED)
                for future in done:
                    finish(*future.result())
                if stopping:
                    for future in wait(running).done:
                        finish(*future.result())
                    raise Stopped(sums, played)
        finally:  # an exception on the way out: let the running pieces end on their own
            for future in running:
                future.cancel()
    for job, (_, _, _, count) in enumerate(calls):
        if sums[job] is None:  # an empty job
            sums[job] = outcomes.zeros(n_seats)
    return sums


def twin_module(spec: GameSpec):
    """The plain-Python slow twin of a game (imported on demand)."""
    return importlib.import_module(spec.twin) if spec.twin else None


def exact_module(spec: GameSpec):
    """The exact enumerator of a game, where it has one (imported on demand)."""
    return importlib.import_module(spec.exact) if spec.exact else None
