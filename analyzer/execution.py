"""Where a run's hands are played and kept: the result store and the cluster.

Every command that plays hands (a game's simulation, sweep, optimize, compare, report)
runs inside :func:`using`, which says

- ``store``: ``None`` for the default result store (``$CARD_ANALYZER_STORE``, else
  ``$XDG_DATA_HOME/card-analyzer/results.sqlite``, else
  ``~/.local/share/card-analyzer/results.sqlite``; ``CARD_ANALYZER_STORE=off`` turns it
  off), ``False`` for none, or the path of a store file (see ``analyzer.store``);
- ``cluster``: ``None`` to play on this process's threads, ``"local:N"`` for a Dask
  ``LocalCluster`` of N worker processes on this machine, or the address of a running
  Dask scheduler (``tcp://host:8786``).

The runners call :func:`play_jobs` here instead of ``sims.engine.play_jobs``: it answers
what the store holds, plays only the gaps (on the threads or the cluster) and keeps every
finished piece.  Sums are exact integers, so stored, extended, resumed and cluster runs
give the numbers of one local run of the same seed, bit for bit.  Outside :func:`using`
nothing is stored and the hands are played on this process's threads.

A bad store file or cluster address raises ``ValueError`` with one sentence.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass

from sims import engine
from sims.engine import Stopped

CLUSTER_PIECE_SECONDS = 0.5  # a cluster's pieces are longer: each costs a round trip to the scheduler


class ClusterError(Exception):
    """The cluster failed to play the work (a worker with other kernel sources, workers
    lost more often than Dask retries, a worker that cannot import the project): one
    sentence, exit code 1."""


@dataclass
class Execution:
    store: object | None = None  # an open analyzer.store.ResultStore
    executor: object | None = None  # a DaskExecutor
    active: bool = False


CURRENT = Execution()


class DaskExecutor:
    """The pieces of a run sent to a Dask distributed cluster: ``submit`` as
    ``sims.engine.play_jobs`` asks, ``slots`` the worker threads of the cluster."""

    def __init__(self, client, local_cluster=None):
        self.client = client
        self.local_cluster = local_cluster

    @property
    def slots(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def submit(self, function, *arguments):
        # pure=False: every piece is its own task, rerun elsewhere if its worker is lost
        return _ClusterPiece(self.client.submit(function, *arguments, pure=False))

    def close(self) -> None:
        self.client.close()
        if self.local_cluster is not None:
            self.local_cluster.close()


class _ClusterPiece:
    """A Dask future whose failure (what a worker raised, or Dask giving up on a piece)
    comes out of ``result()`` as one :class:`ClusterError` sentence, the cause kept."""

    def __init__(self, future):
        self.future = future

    def done(self) -> bool:
        return self.future.done()

    def cancelled(self) -> bool:
        return self.future.cancelled()

    def cancel(self) -> None:
        self.future.cancel()

    def add_done_callback(self, callback) -> None:
        self.future.add_done_callback(lambda _: callback(self))

    def result(self):
        try:
            return self.future.result()
        except Exception as problem:  # noqa: BLE001 - whatever a worker raised, said in one sentence
            reason = " ".join(str(problem).split()).rstrip(".") or type(problem).__name__
            raise ClusterError(f"the cluster could not play the hands: {reason}.") from problem


def connect_cluster(address: str) -> DaskExecutor:
    """A client of the Dask scheduler at ``address``, or of a new ``LocalCluster`` of N
    single-threaded worker processes for ``local:N``."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ValueError("--cluster needs Dask: pip install 'card-analyzer[cluster]' (or '.[cluster]' in the "
                         "project folder).") from None
    local = re.fullmatch(r"local:([0-9]+)", address.strip())
    if (address.strip().startswith("local") and not local) or not address.strip():
        raise ValueError(f"--cluster takes local:N (N worker processes) or a scheduler address like "
                         f"tcp://host:8786, not '{address}'.")
    if local:
        workers = int(local.group(1))
        if not 1 <= workers <= 256:
            raise ValueError(f"--cluster local:N takes 1 to 256 workers, not {workers}.")
        import logging

        logging.getLogger("distributed").setLevel(logging.ERROR)
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                               silence_logs=logging.ERROR)
        return DaskExecutor(Client(cluster), cluster)
    try:
        return DaskExecutor(Client(address.strip(), timeout="5s"))
    except (OSError, TimeoutError, ValueError) as problem:
        reason = " ".join(str(problem).split()) or type(problem).__name__
        raise ValueError(f"could not reach the Dask scheduler at {address}: {reason.rstrip('.')}.") from None


@contextlib.contextmanager
def using(store=None, cluster: str | None = None):
    """Play and keep the hands of the code inside as ``store`` and ``cluster`` say.

    Inside another ``using`` it changes nothing (a report's runs keep the report's store
    and cluster)."""
    if CURRENT.active:
        yield CURRENT
        return
    from analyzer.store import ResultStore, default_store_path

    chosen = store not in (None, True, False)
    path = store if chosen else default_store_path() if store is not False else None
    try:
        opened = ResultStore(path) if path is not None else None
    except ValueError as problem:
        if chosen:
            raise
        # the default store cannot be used (a read-only home, a damaged file): say so, run without it
        reason = str(problem).split(";")[0].rstrip(".").replace("--store ", "the result store ", 1)
        engine.LOG.warning(f"{reason}; running without it (CARD_ANALYZER_STORE=PATH picks another file)")
        opened = None
    try:
        executor = connect_cluster(cluster) if cluster is not None else None
    except BaseException:
        if opened is not None:
            opened.close()
        raise
    CURRENT.store, CURRENT.executor, CURRENT.active = opened, executor, True
    try:
        yield CURRENT
    finally:
        CURRENT.store, CURRENT.executor, CURRENT.active = None, None, False
        if executor is not None:
            executor.close()
        if opened is not None:
            opened.close()


def slots(threads: int) -> int:
    """How many pieces run at once: the cluster's worker threads, else ``threads``."""
    return CURRENT.executor.slots if CURRENT.executor is not None else threads


def play_jobs(spec, jobs, n_seats: int, mode: int, seed: int, threads: int = 1, stop=None, progress=None,
              stored=None):
    """``sims.engine.play_jobs`` with the store and the cluster of :func:`using`: the same
    arguments, results and :class:`Stopped`, but hands the store holds are not played
    (``stored(items)`` is told how many, at once; of a stopped run, ``Stopped.from_store``
    says how many of each finished prefix) and every piece played is stored as it
    finishes."""
    store, executor = CURRENT.store, CURRENT.executor
    piece_seconds = CLUSTER_PIECE_SECONDS if executor is not None else engine.PIECE_SECONDS
    if store is None:
        return engine.play_jobs(spec, jobs, n_seats, mode, seed, threads, stop, progress, piece_seconds,
                                executor=executor)
    outcomes = spec.outcomes[mode]
    plans = []  # per job: its segments, stored or to play
    gaps = []  # (job, segment index) of each segment to play, in job order
    for index, (rules, policy, first, count) in enumerate(jobs):
        segments = store.cover(spec, mode, n_seats, seed, rules, policy, int(first), int(count))
        plans.append(segments)
        gaps += [(index, k) for k, segment in enumerate(segments) if segment.sums is None]
    found = sum(segment.count for segments in plans for segment in segments if segment.sums is not None)
    if stored is not None and found:
        stored(found)
    gap_jobs = [(jobs[job][0], jobs[job][1], plans[job][k].first, plans[job][k].count) for job, k in gaps]

    def keep(gap: int, first: int, count: int, sums) -> None:
        rules, policy = jobs[gaps[gap][0]][:2]
        store.save(spec, mode, n_seats, seed, rules, policy, first, count, sums)

    def assembled(gap_sums: list, gap_played: list[int]) -> tuple[list, list[int], list[int]]:
        """Each job's sums over its finished prefix of segments, that prefix's length, and
        how much of it came from the store."""
        found = {gap: (gap_sums[i], gap_played[i]) for i, gap in enumerate(gaps)}
        sums, played, from_store = [], [], []
        for job, segments in enumerate(plans):
            total, done, kept = None, 0, 0
            for k, segment in enumerate(segments):
                part, size = (segment.sums, segment.count) if segment.sums is not None else found[(job, k)]
                if size and part is not None:
                    total = part if total is None else outcomes.combine(total, part)
                    done += size
                    kept += size if segment.sums is not None else 0
                if size < segment.count:
                    break
            sums.append(total)
            played.append(done)
            from_store.append(kept)
        return sums, played, from_store

    try:
        played = engine.play_jobs(spec, gap_jobs, n_seats, mode, seed, threads, stop, progress, piece_seconds,
                                  on_piece=keep, executor=executor) if gap_jobs else []
    except Stopped as stopped:
        raise Stopped(*assembled(stopped.sums, stopped.played)) from None
    sums = assembled(played, [segment.count for job, k in gaps for segment in [plans[job][k]]])[0]
    for job, (rules, policy, first, count) in enumerate(jobs):
        if len(plans[job]) > 1 or (plans[job] and plans[job][0].sums is None and count > 0):
            # the whole job as one block too, so that the same run again reads one row
            store.save(spec, mode, n_seats, seed, rules, policy, int(first), int(count), sums[job])
        if sums[job] is None:
            sums[job] = outcomes.zeros(n_seats)
    return sums
