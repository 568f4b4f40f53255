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

import contextlib
import hashlib
import importlib
import logging
import os
import queue
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from sims.spec import MODE_NAMES, GameSpec

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


LOG = logging.getLogger("card_analyzer")
_READY: set[tuple] = set()  # (game, mode, kernel) of the kernels this process has compiled or loaded


def ready_kernel(spec: GameSpec, mode: int, rules_array: np.ndarray, policy_matrix: np.ndarray, n_seats: int):
    """The mode's kernel for these rules (:meth:`GameSpec.kernel_for`), compiled or loaded
    from the cache on its first use here.

    A kernel that fails to load because a cache file is damaged gets a warning on the
    ``card_analyzer`` logger (one line on stderr unless the caller routes it), the
    damaged files removed (:func:`sims.repair_kernel_cache`) and a fresh compile;
    any other failure is raised as it is.  The arguments are those of the real calls,
    so the first call compiles the one signature every later call uses.  Processes on
    one machine that first need the same kernel at once compile it once
    (:func:`compiling_alone`).
    """
    kernel = spec.kernel_for(mode, rules_array)
    if (spec.name, mode, kernel) in _READY:
        return kernel
    with compiling_alone(_kernel_lock_name(spec, mode, kernel, rules_array)):
        _ready_kernel(spec, mode, kernel, rules_array, policy_matrix, n_seats)
    _READY.add((spec.name, mode, kernel))
    return kernel


def _kernel_lock_name(spec: GameSpec, mode: int, kernel, rules_array) -> str:
    """A name for one kernel that every process gives it: the game, the mode, the
    kernel's function and, for a fixed-rules kernel, the rules it is compiled for."""
    name = f"{spec.name}-{MODE_NAMES.get(mode, mode)}-{getattr(kernel, '__qualname__', type(kernel).__name__)}"
    if kernel is not spec.kernels.get(mode):
        name += "-" + hashlib.sha256(np.asarray(rules_array, dtype=np.int64).tobytes()).hexdigest()[:12]
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)


SKIP_BUSY_KERNELS = False  # True in a process compiling ahead (sims.precompile): it never waits


class KernelBusy(Exception):
    """Another process is compiling this kernel (raised only with :data:`SKIP_BUSY_KERNELS`)."""


@contextlib.contextmanager
def compiling_alone(name: str):
    """Hold the kernel cache's lock file ``locks/<name>`` while a kernel loads or compiles,
    so that two processes on this machine (two commands, a cluster's local workers, the
    test session's workers) that first need the same kernel at once compile it once: the
    second waits, then loads what the first wrote to the cache (a process compiling ahead
    raises :class:`KernelBusy` instead, and moves on).  Without a cache folder, or where
    locking files is not possible, nothing is held."""
    from sims import kernel_cache_dir

    try:
        import fcntl
    except ImportError:  # pragma: no cover - not a POSIX system
        yield
        return
    directory = kernel_cache_dir()
    try:
        if directory is None:
            raise OSError("no kernel cache")
        (directory / "locks").mkdir(parents=True, exist_ok=True)
        handle = open(directory / "locks" / (name + ".lock"), "a")
    except OSError:  # a read-only cache: compile without the lock
        yield
        return
    with handle:
        if SKIP_BUSY_KERNELS:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise KernelBusy(name) from None
        else:
            fcntl.flock(handle, fcntl.LOCK_EX)  # a signal while waiting raises, as it would compiling
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _ready_kernel(spec: GameSpec, mode: int, kernel, rules_array: np.ndarray, policy_matrix: np.ndarray, n_seats: int):
    from sims import discard_compiled, loaded_wrong, repair_kernel_cache

    arguments = (rules_array, policy_matrix, np.int64(n_seats), np.uint64(0), np.int64(0), np.int64(0))
    shape = (n_seats + 1, spec.outcomes[mode].kernel_width)
    try:
        wrong = loaded_wrong(kernel, kernel(*arguments), shape)
    except Exception:
        damaged = repair_kernel_cache()
        if not damaged:
            raise
        names = ", ".join(path.name for path in damaged[:3]) + (" ..." if len(damaged) > 3 else "")
        LOG.warning(
            f"the kernel cache had {len(damaged)} damaged file{'s' if len(damaged) > 1 else ''} ({names}); "
            f"removed {'them' if len(damaged) > 1 else 'it'} and compiled the kernels again"
        )
        wrong = loaded_wrong(kernel, kernel(*arguments), shape)
    if wrong is not None:  # a sound cache file of another kernel
        LOG.warning(
            f"the kernel cache held a {spec.name} {MODE_NAMES[mode]} kernel that {wrong}; discarded it "
            f"and compiled the kernel again"
        )
        discard_compiled(kernel)
        wrong = loaded_wrong(kernel, kernel(*arguments), shape)
        if wrong is not None:
            raise RuntimeError(f"the {spec.name} {MODE_NAMES[mode]} kernel {wrong}, even freshly compiled")


def simulate(
    spec: GameSpec,
    rules,
    policy,
    n_seats: int,
    mode: int,
    seed: int,
    first: int,
    count: int,
    threads: int = 1,
    n_blocks: int | None = None,
) -> np.ndarray:
    """Integer outcome sums of hands/games ``first .. first+count-1`` of ``seed``.

    Returns ``[n_seats + 1, width]`` sums: one row per seat with the mode's seat outcome
    columns, then one table row with its table columns; int64, or exact Python integers
    when the mode has wide columns.  ``threads`` and ``n_blocks`` (default: 4 per thread)
    never change the result.
    """
    outcomes = spec.outcomes[mode]
    rules_array = spec.rules_array(rules)
    policy_matrix = np.ascontiguousarray(policy, dtype=np.float64)
    widths = {len(spec.policy_fields), spec.policy_width()}  # the fields alone, or with the table blocks
    if policy_matrix.ndim != 2 or policy_matrix.shape[0] != n_seats or policy_matrix.shape[1] not in widths:
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
GROWTH = 8  # a piece is at most this many times the size of the one before it
QUEUED_PER_THREAD = 4  # pieces of work waiting per thread, so no thread idles between them
QUEUED_PER_SLOT = 2  # the same for a cluster
CLUSTER_STOP_SECONDS = 1.0  # on a stop, how long to wait for the cluster's running pieces
_SECONDS_PER_ITEM: dict[tuple, float] = {}  # measured speed per table (and per game, mode and seats)


class Stopped(Exception):
    """:func:`play_jobs` was asked to stop before the end.  Every piece it started on
    this process's threads has finished (a cluster's pieces get at most
    ``CLUSTER_STOP_SECONDS``; those still running then are left behind).  ``sums[j]``
    holds the sums of job ``j``'s finished prefix of items (``None``
    when nothing of it was played) and ``played[j]`` how many items they are.  (A piece
    that finished after a gap in its job is left out of the prefix.)
    ``from_store[j]`` is how many of those items were read from a result store rather than
    played (always 0 here; ``analyzer.run.execution`` fills it in)."""

    def __init__(self, sums: list, played: list[int], from_store: list[int] | None = None):
        super().__init__("stopped")
        self.sums = sums
        self.played = played
        self.from_store = from_store if from_store is not None else [0] * len(played)


_KERNEL_HASHES: dict[str, str] = {}


TWIN_FILES = ("twin.py", "exact.py", "twins.py")  # plain Python beside the kernels: they decide no sum


def kernel_hash(spec: GameSpec) -> str:
    """A hash of the sources that decide a game's sums: its folder under ``sims/games``
    (less its slow twin and exact enumerator), the shared core ``sims/core`` (less the
    twins' helpers), the outcome layout ``sims/spec.py`` and the spec's ``kernel_version``.
    Any edit to them gives a new hash, so results kept
    from an older kernel (the result store) are never taken for a newer one's."""
    if spec.name in _KERNEL_HASHES:
        return _KERNEL_HASHES[spec.name]
    root = Path(__file__).resolve().parent
    kernel = spec.kernels[min(spec.kernels)]
    parts = getattr(kernel, "py_func", kernel).__module__.split(".")  # sims.games.<game>.kernel
    game_path = root.joinpath(*parts[1:3])
    files = sorted(game_path.rglob("*.py")) + sorted((root / "core").rglob("*.py")) + [root / "spec.py"]
    files = [path for path in files if path.name not in TWIN_FILES]
    digest = hashlib.sha256(f"{spec.name} {spec.kernel_version}".encode())
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    _KERNEL_HASHES[spec.name] = digest.hexdigest()[:16]
    return _KERNEL_HASHES[spec.name]


class KernelMismatch(Exception):
    """A cluster worker runs other kernel sources than the process that sent it work."""


def play_piece(
    game: str,
    mode: int,
    rules_array: np.ndarray,
    policy_matrix: np.ndarray,
    n_seats: int,
    seed: int,
    first: int,
    count: int,
    expected_hash: str | None = None,
    derived_by: str | None = None,
) -> tuple[np.ndarray, float]:
    """The decoded sums of items ``first .. first + count - 1`` and the seconds the kernel
    took: the unit of work a cluster worker runs (it loads the game's kernel on first use).
    With ``expected_hash`` (the sender's :func:`kernel_hash`) a worker whose sources differ
    refuses the work: its sums could differ, and would be stored under the wrong kernel.
    ``derived_by`` is the sender's :attr:`GameSpec.derived_by` (advice and solve specs)."""
    from sims.registry import get_game

    spec = get_game(game)
    if derived_by is not None:  # an advice or solve spec, rebuilt from what is inside the rules
        module, _, function = derived_by.partition(":")
        spec = getattr(importlib.import_module(module), function)(spec, rules_array, n_seats)
    if expected_hash is not None and kernel_hash(spec) != expected_hash:
        import socket

        raise KernelMismatch(
            f"the cluster worker on {socket.gethostname()} has other {spec.name} kernel sources "
            f"than this machine (install the same card-analyzer version on every worker)"
        )
    kernel = ready_kernel(spec, mode, rules_array, policy_matrix, n_seats)
    start = time.perf_counter()
    raw = kernel(rules_array, policy_matrix, np.int64(n_seats), np.uint64(seed), np.int64(first), np.int64(count))
    return spec.outcomes[mode].decode(raw), time.perf_counter() - start


def play_jobs(
    spec: GameSpec,
    jobs,
    n_seats: int,
    mode: int,
    seed: int,
    threads: int = 1,
    stop=None,
    progress=None,
    piece_seconds: float = PIECE_SECONDS,
    on_prefix=None,
    executor=None,
    loading=contextlib.nullcontext,
) -> list[np.ndarray]:
    """The sums of several runs of the same seed, each given as ``(rules, policy, first,
    count)``: the same results as calling :func:`simulate` on each job.

    Each job is played in pieces sized from the measured speed of its table so that a
    piece takes about ``piece_seconds`` (smaller near the end, so that the threads finish
    together); pieces start in job order, a few waiting per thread, and sums are exact
    integers, so neither the cut nor the thread count changes a result.  ``stop`` (a
    callable) is asked between pieces; when it answers true and items remain, the pieces
    not started are dropped, the ones running finish, and :class:`Stopped` is raised with
    each job's finished prefix (all the work done, the sums are returned as usual).
    ``progress(items)`` is called as pieces finish, ``on_prefix(job, played, sums)`` each
    time a job's finished prefix grows, with its length and sums.

    ``executor`` plays the pieces elsewhere instead of on this process's threads: an
    object with ``submit(play_piece, *arguments)`` returning a future (``done()``,
    ``result()``, ``add_done_callback``) and ``slots``, the number of pieces it runs at
    once (a Dask cluster, see ``analyzer.run.execution``).  Pieces may then finish out of
    order; they are folded in as they come, which gives the same integer sums.  On a stop,
    the cluster's pieces not yet started are cancelled and those running are waited for
    at most :data:`CLUSTER_STOP_SECONDS` (a worker may be compiling its kernel).

    ``loading()`` is a context manager around loading (or compiling) the kernels, which
    cannot stop between pieces: the command line makes a signal abandon it at once.
    """
    outcomes = spec.outcomes[mode]
    prepared = {}

    def arguments(rules, policy):
        key = (tuple(int(v) for v in rules), np.asarray(policy, dtype=np.float64).tobytes())
        if key not in prepared:
            matrix = np.ascontiguousarray(policy, dtype=np.float64)
            if (
                matrix.ndim != 2
                or matrix.shape[0] != n_seats
                or matrix.shape[1] not in (len(spec.policy_fields), spec.policy_width())
            ):
                raise ValueError(f"policy must have shape ({n_seats}, {len(spec.policy_fields)}), not {matrix.shape}.")
            prepared[key] = (spec.rules_array(rules), matrix, (spec.name, mode, n_seats) + key)
        return prepared[key]

    calls = [(*arguments(rules, policy), int(first), int(count)) for rules, policy, first, count in jobs]
    kernels = [spec.kernel_for(mode, call[0]) for call in calls]
    first_call: dict = {}  # each distinct kernel not yet ready, once (fixed rules have their own)
    for kernel, call in zip(kernels, calls):
        if (spec.name, mode, kernel) not in _READY and call[4]:
            first_call.setdefault(kernel, call)
    if first_call and executor is None:
        with loading():  # the caller times it (a run's context keeps loading apart from playing)
            for call in first_call.values():
                ready_kernel(spec, mode, call[0], call[1], n_seats)
    slots = executor.slots if executor is not None else threads
    game_key = (spec.name, mode, n_seats)
    sums: list = [None] * len(calls)
    played = [0] * len(calls)  # items of each job's finished prefix
    waiting: list[dict] = [{} for _ in calls]  # finished pieces after a gap: first -> (count, sums)
    offered = [0] * len(calls)  # items of each job handed out as pieces so far
    left = [sum(call[4] for call in calls)]  # items of every job not yet handed out
    last_size: dict = {}  # the size of the last piece of each table, to cap the growth

    cursor = [0]  # the first job with items not handed out (jobs are handed out in order)

    def next_piece():
        """The next piece in job order, sized for ``piece_seconds`` at the measured speed
        of its table (else of the game), and smaller near the end."""
        while cursor[0] < len(calls) and offered[cursor[0]] >= calls[cursor[0]][4]:
            cursor[0] += 1
        if cursor[0] == len(calls):
            return None
        job = cursor[0]
        _, _, table_key, first, count = calls[job]
        per_item = _SECONDS_PER_ITEM.get(table_key, _SECONDS_PER_ITEM.get(game_key))
        size = FIRST_PIECE if per_item is None else int(piece_seconds / max(per_item, 1e-12))
        size = min(size, GROWTH * last_size.get(table_key, FIRST_PIECE))
        if slots > 1:
            size = min(size, max(LAST_PIECES, -(-left[0] // (2 * slots))))
        size = max(1, min(size, MAX_BLOCK, count - offered[job]))
        last_size[table_key] = size
        piece = (job, first + offered[job], size)
        offered[job] += size
        left[0] -= size
        return piece

    def play(job: int, lo: int, size: int):
        rules_array, matrix = calls[job][:2]
        start = time.perf_counter()
        raw = kernels[job](rules_array, matrix, np.int64(n_seats), np.uint64(seed), np.int64(lo), np.int64(size))
        return job, lo, size, outcomes.decode(raw), time.perf_counter() - start

    def finish(job: int, lo: int, size: int, part, seconds: float) -> None:
        waiting[job][lo] = (size, part)
        grown = played[job]
        while calls[job][3] + played[job] in waiting[job]:  # fold in the finished prefix
            size_done, part_done = waiting[job].pop(calls[job][3] + played[job])
            sums[job] = part_done if sums[job] is None else outcomes.combine(sums[job], part_done)
            played[job] += size_done
        if on_prefix is not None and played[job] > grown:
            on_prefix(job, played[job], sums[job])
        measured = seconds / size
        for key in (calls[job][2], game_key):
            known = _SECONDS_PER_ITEM.get(key)
            _SECONDS_PER_ITEM[key] = measured if known is None else 0.5 * known + 0.5 * measured
        if progress is not None:
            progress(size)

    if executor is None and threads <= 1:
        while left[0] > 0:
            if stop is not None and stop():
                raise Stopped(sums, played)
            finish(*play(*next_piece()))
    else:
        finished: queue.SimpleQueue = queue.SimpleQueue()  # the futures of pieces as they finish
        started: deque = deque()  # the pieces handed out, in order (done ones dropped from the front)
        out = [0]  # pieces handed out and not yet taken from `finished`

        if executor is None:
            pool = _pool(threads)

            def submit(job: int, lo: int, size: int):
                return pool.submit(play, job, lo, size)
        else:

            def submit(job: int, lo: int, size: int):
                rules_array, matrix = calls[job][:2]
                return executor.submit(
                    play_piece,
                    spec.name,
                    mode,
                    rules_array,
                    matrix,
                    n_seats,
                    seed,
                    lo,
                    size,
                    kernel_hash(spec),
                    spec.derived_by,
                )

        def take(timeout: float | None = None) -> None:
            """Fold in one finished piece: waiting for it (at most ``timeout`` seconds,
            else ``queue.Empty``), or only one already there (``timeout=0``)."""
            future, piece = finished.get_nowait() if timeout == 0 else finished.get(timeout=timeout)
            out[0] -= 1
            if future.cancelled():
                return
            if executor is None:
                finish(*future.result())
            else:
                finish(*piece, *future.result())

        try:
            while left[0] > 0 or out[0]:
                if stop is not None and stop():
                    # drop what has not started (local threads: from the back, so that what
                    # ran is a prefix of every job); wait for the pieces running, a cluster's
                    # only for a while (a worker may be compiling)
                    if executor is None:
                        for future in reversed(started):
                            future.cancel()
                    deadline = time.monotonic() + CLUSTER_STOP_SECONDS
                    try:
                        while out[0]:
                            take(None if executor is None else max(0.0, deadline - time.monotonic()))
                    except queue.Empty:  # the cluster's pieces still running are left behind
                        raise Stopped(sums, played) from None
                    started.clear()
                    if any(played[job] < call[4] for job, call in enumerate(calls)):
                        raise Stopped(sums, played)
                    break  # the pieces dropped were none: every item was played
                while left[0] > 0 and out[0] < (QUEUED_PER_THREAD if executor is None else QUEUED_PER_SLOT) * slots:
                    piece = next_piece()
                    future = submit(*piece)
                    out[0] += 1
                    started.append(future)
                    future.add_done_callback(lambda done, piece=piece: finished.put((done, piece)))
                try:  # wake now and then to ask `stop`, and fold in whatever has finished
                    take(timeout=0.05)
                    while True:
                        take(timeout=0)
                except queue.Empty:
                    pass
                while started and started[0].done():
                    started.popleft()
        finally:  # an exception on the way out: drop what has not started
            for future in reversed(started):
                future.cancel()
    for job in range(len(calls)):
        if sums[job] is None:  # an empty job
            sums[job] = outcomes.zeros(n_seats)
    return sums
