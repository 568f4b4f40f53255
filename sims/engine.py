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
import dataclasses
import hashlib
import importlib
import logging
import os
import queue
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

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
    calls = _calls(spec, jobs, n_seats, mode)
    first_call: dict = {}  # each distinct kernel not yet ready, once (fixed rules have their own)
    for call in calls:
        if (spec.name, mode, call.kernel) not in _READY and call.count:
            first_call.setdefault(call.kernel, call)
    if first_call and executor is None:
        with loading():  # the caller times it (a run's context keeps loading apart from playing)
            for call in first_call.values():
                ready_kernel(spec, mode, call.rules_array, call.matrix, n_seats)
    slots = executor.slots if executor is not None else threads
    pieces = _Pieces(calls, spec.outcomes[mode], (spec.name, mode, n_seats), slots, piece_seconds, on_prefix, progress)
    outcomes = spec.outcomes[mode]

    def play(piece: Piece) -> tuple[Piece, np.ndarray, float]:
        call = calls[piece.job]
        start = time.perf_counter()
        raw = call.kernel(
            call.rules_array, call.matrix, np.int64(n_seats), np.uint64(seed), np.int64(piece.lo), np.int64(piece.size)
        )
        return piece, outcomes.decode(raw), time.perf_counter() - start

    if executor is None and threads <= 1:
        while pieces.left > 0:
            if stop is not None and stop():
                raise Stopped(pieces.sums, pieces.played)
            pieces.finish(*play(pieces.next()))
    else:
        if executor is None:
            pool = _pool(threads)

            def submit(piece: Piece):
                return pool.submit(play, piece)

            def result(piece: Piece, future) -> tuple[Piece, np.ndarray, float]:
                return future.result()
        else:

            def submit(piece: Piece):
                call = calls[piece.job]
                return executor.submit(
                    play_piece,
                    spec.name,
                    mode,
                    call.rules_array,
                    call.matrix,
                    n_seats,
                    seed,
                    piece.lo,
                    piece.size,
                    kernel_hash(spec),
                    spec.derived_by,
                )

            def result(piece: Piece, future) -> tuple[Piece, np.ndarray, float]:
                return (piece, *future.result())

        _play_at_once(pieces, submit, result, stop, local=executor is None, queued=_queued(executor, slots))
    return pieces.results(n_seats)


@dataclasses.dataclass(frozen=True)
class _Call:
    """One job of :func:`play_jobs`, ready for its kernel: the arrays it is called with,
    the key of its table (its speed is measured per table), and its items."""

    rules_array: np.ndarray
    matrix: np.ndarray
    table_key: tuple
    first: int
    count: int
    kernel: Any


def _calls(spec: GameSpec, jobs, n_seats: int, mode: int) -> list[_Call]:
    """The jobs ``(rules, policy, first, count)`` as calls, each table's arrays built once;
    ``ValueError`` for a policy matrix of the wrong shape."""
    prepared: dict = {}
    calls = []
    for rules, policy, first, count in jobs:
        key = (tuple(int(v) for v in rules), np.asarray(policy, dtype=np.float64).tobytes())
        if key not in prepared:
            matrix = np.ascontiguousarray(policy, dtype=np.float64)
            if (
                matrix.ndim != 2
                or matrix.shape[0] != n_seats
                or matrix.shape[1] not in (len(spec.policy_fields), spec.policy_width())
            ):
                raise ValueError(f"policy must have shape ({n_seats}, {len(spec.policy_fields)}), not {matrix.shape}.")
            rules_array = spec.rules_array(rules)
            prepared[key] = (rules_array, matrix, (spec.name, mode, n_seats) + key, spec.kernel_for(mode, rules_array))
        rules_array, matrix, table_key, kernel = prepared[key]
        calls.append(_Call(rules_array, matrix, table_key, int(first), int(count), kernel))
    return calls


@dataclasses.dataclass(frozen=True)
class Piece:
    """Items ``lo .. lo + size - 1`` of job ``job``: one kernel call."""

    job: int
    lo: int
    size: int


class _Pieces:
    """The pieces of :func:`play_jobs`' jobs: handed out in job order (:meth:`next`), each
    sized for ``piece_seconds`` at its table's measured speed, and folded in as they finish
    (:meth:`finish`) into each job's finished prefix (``sums``, ``played``)."""

    def __init__(
        self, calls: list[_Call], outcomes, game_key: tuple, slots: int, piece_seconds: float, on_prefix, progress
    ):
        self.calls = calls
        self.outcomes = outcomes
        self.game_key = game_key
        self.slots = slots
        self.piece_seconds = piece_seconds
        self.on_prefix = on_prefix
        self.progress = progress
        self.sums: list = [None] * len(calls)
        self.played = [0] * len(calls)  # items of each job's finished prefix
        self.waiting: list[dict] = [{} for _ in calls]  # finished pieces after a gap: lo -> (size, sums)
        self.offered = [0] * len(calls)  # items of each job handed out as pieces so far
        self.left = sum(call.count for call in calls)  # items of every job not yet handed out
        self.last_size: dict = {}  # the size of the last piece of each table, to cap the growth
        self.cursor = 0  # the first job with items not handed out (jobs are handed out in order)

    def next(self) -> Piece:
        """The next piece in job order, sized for ``piece_seconds`` at the measured speed
        of its table (else of the game), and smaller near the end."""
        while self.offered[self.cursor] >= self.calls[self.cursor].count:
            self.cursor += 1
        job = self.cursor
        call = self.calls[job]
        per_item = _SECONDS_PER_ITEM.get(call.table_key, _SECONDS_PER_ITEM.get(self.game_key))
        size = FIRST_PIECE if per_item is None else int(self.piece_seconds / max(per_item, 1e-12))
        size = min(size, GROWTH * self.last_size.get(call.table_key, FIRST_PIECE))
        if self.slots > 1:
            size = min(size, max(LAST_PIECES, -(-self.left // (2 * self.slots))))
        size = max(1, min(size, MAX_BLOCK, call.count - self.offered[job]))
        self.last_size[call.table_key] = size
        piece = Piece(job, call.first + self.offered[job], size)
        self.offered[job] += size
        self.left -= size
        return piece

    def finish(self, piece: Piece, part: np.ndarray, seconds: float) -> None:
        """Fold in a finished piece (after a gap in its job, it waits for the gap) and
        learn its table's speed from it."""
        job, call = piece.job, self.calls[piece.job]
        self.waiting[job][piece.lo] = (piece.size, part)
        grown = self.played[job]
        while call.first + self.played[job] in self.waiting[job]:
            size, done = self.waiting[job].pop(call.first + self.played[job])
            self.sums[job] = done if self.sums[job] is None else self.outcomes.combine(self.sums[job], done)
            self.played[job] += size
        if self.on_prefix is not None and self.played[job] > grown:
            self.on_prefix(job, self.played[job], self.sums[job])
        measured = seconds / piece.size
        for key in (call.table_key, self.game_key):
            known = _SECONDS_PER_ITEM.get(key)
            _SECONDS_PER_ITEM[key] = measured if known is None else 0.5 * known + 0.5 * measured
        if self.progress is not None:
            self.progress(piece.size)

    def unfinished(self) -> bool:
        return any(played < call.count for played, call in zip(self.played, self.calls))

    def results(self, n_seats: int) -> list[np.ndarray]:
        """Each job's sums (zeros for an empty job)."""
        return [self.outcomes.zeros(n_seats) if sums is None else sums for sums in self.sums]


def _queued(executor, slots: int) -> int:
    """Pieces handed out at once: a few per thread (or cluster slot), so none idles."""
    return (QUEUED_PER_THREAD if executor is None else QUEUED_PER_SLOT) * slots


def _play_at_once(pieces: _Pieces, submit, result, stop, local: bool, queued: int) -> None:
    """Play ``pieces`` with up to ``queued`` of them handed out at once (``submit(piece)``
    returns a future; ``result(piece, future)`` its ``(piece, sums, seconds)``), folding
    them in as they finish, and asking ``stop`` now and then.  On a stop, what has not
    started is dropped (``local``, this process's threads: from the back, so that what ran
    is a prefix of every job), the pieces running are waited for (a cluster's only for
    :data:`CLUSTER_STOP_SECONDS`: a worker may be compiling), and :class:`Stopped` is
    raised unless every item was played."""
    finished: queue.SimpleQueue = queue.SimpleQueue()  # (future, piece) as they finish
    started: deque = deque()  # the futures handed out, in order (done ones dropped from the front)
    out = 0  # pieces handed out and not yet taken from `finished`

    def take(timeout: float | None = None) -> None:
        """Fold in one finished piece: waiting for it (at most ``timeout`` seconds, else
        ``queue.Empty``), or only one already there (``timeout=0``)."""
        nonlocal out
        future, piece = finished.get_nowait() if timeout == 0 else finished.get(timeout=timeout)
        out -= 1
        if not future.cancelled():
            pieces.finish(*result(piece, future))

    try:
        while pieces.left > 0 or out:
            if stop is not None and stop():
                if local:
                    for future in reversed(started):
                        future.cancel()
                deadline = time.monotonic() + CLUSTER_STOP_SECONDS
                try:
                    while out:
                        take(None if local else max(0.0, deadline - time.monotonic()))
                except queue.Empty:  # the cluster's pieces still running are left behind
                    raise Stopped(pieces.sums, pieces.played) from None
                started.clear()
                if pieces.unfinished():
                    raise Stopped(pieces.sums, pieces.played)
                break  # the pieces dropped were none: every item was played
            while pieces.left > 0 and out < queued:
                piece = pieces.next()
                future = submit(piece)
                out += 1
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
