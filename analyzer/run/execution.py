"""Where a run's hands are played and kept: the cluster (Dask) and the result store.

The runners call :func:`play_jobs` here instead of ``sims.engine.play_jobs``, with the
run's context (``analyzer.run.context.RunContext``): it answers what the context's store
holds, plays only the gaps (on the threads or the context's cluster) and records what it
plays (:class:`_Recorder`; the store commits it about once a second).  Sums are exact
integers, so stored, extended, resumed and cluster runs give the numbers of one local run
of the same seed, bit for bit.

A bad cluster address raises ``ValueError`` with one sentence.  Loading (or compiling) a
kernel runs in the context's :meth:`~analyzer.run.context.RunContext.loading`, where a
signal abandons it at once.
"""

from __future__ import annotations

import itertools
import re
import signal
import threading
import time

from analyzer.run.blocks import configurations, runs_of
from sims import engine
from sims.engine import Stopped, available_threads

CLUSTER_PIECE_SECONDS = 0.5  # a cluster's pieces are longer: each costs a round trip to the scheduler


class ClusterError(Exception):
    """The cluster failed to play the work (a worker with other kernel sources, workers
    lost more often than Dask retries, a worker that cannot import the project): one
    sentence, exit code 1."""


class DaskExecutor:
    """The pieces of a run sent to a Dask distributed cluster: ``submit`` as
    ``sims.engine.play_jobs`` asks, ``slots`` the worker threads of the cluster."""

    def __init__(self, client, local_cluster=None):
        self.client = client
        self.local_cluster = local_cluster

    @property
    def slots(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def describe(self) -> dict:
        """What the run line and JSON say of the cluster: its workers, their threads, the
        scheduler's address and its dashboard (None when Dask serves none)."""
        workers = self.client.nthreads()
        try:
            dashboard = self.client.dashboard_link
        except Exception:  # noqa: BLE001 - no dashboard (bokeh missing, or none served)
            dashboard = None
        return {
            "workers": len(workers),
            "threads": max(1, sum(workers.values())),
            "scheduler": self.client.scheduler.address,
            "dashboard": dashboard or None,
        }

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


def _hold_signals():
    """Hold SIGINT and SIGTERM while a local cluster starts: the worker processes it
    spawns inherit them ignored, so a Ctrl-C sent to the whole process group (as a
    terminal does) reaches only this process, which stops the run and closes the
    cluster, instead of killing the workers midway.  Blocked, a signal that comes
    meanwhile stays pending (Linux never discards a blocked signal) until
    :func:`_release_signals`."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        return None
    held = (signal.SIGINT, signal.SIGTERM)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    return mask, {signum: signal.signal(signum, signal.SIG_IGN) for signum in held}


def _release_signals(held) -> None:
    """Undo :func:`_hold_signals`; a signal held meanwhile is handled now."""
    if held is not None:
        mask, handlers = held
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def connect_cluster(address: str) -> DaskExecutor:
    """A client of the Dask scheduler at ``address``, or of a new ``LocalCluster`` of N
    single-threaded worker processes for ``local:N``."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ValueError(
            "--cluster needs Dask: pip install 'card-analyzer[cluster]' (or '.[cluster]' in the project folder)."
        ) from None
    local = re.fullmatch(r"local:([0-9]+)", address.strip())
    remote = re.fullmatch(r"(?:(?:tcp|tls)://)?(?:\[[0-9a-fA-F:.]+\]|[^\s/:\[\]]+):([0-9]{1,5})", address.strip())
    if not local and not (remote and 1 <= int(remote.group(1)) <= 65535):
        raise ValueError(
            f"--cluster takes local:N (N worker processes) or a scheduler address like "
            f"tcp://host:8786 (tcp:// or tls://), not '{address}'."
        )
    if local:
        workers = int(local.group(1))
        if not 1 <= workers <= 256:
            raise ValueError(f"--cluster local:N takes 1 to 256 workers, not {workers}.")
        import logging

        logging.getLogger("distributed").setLevel(logging.ERROR)
        held = _hold_signals()
        try:
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            )
            # not Dask's default client: its exit hook would close a default client and can
            # wait for ever on a loop already stopped; the executor closes its own client
            executor = DaskExecutor(Client(cluster, set_as_default=False), cluster)
        finally:
            try:
                _release_signals(held)
            except BaseException:  # a signal that came while it started
                if "executor" in locals():
                    executor.close()
                raise
        return executor
    return DaskExecutor(_connect_scheduler(Client, address.strip()))


CONNECT_SECONDS = 5  # how long to wait for a scheduler to answer (Dask's timeout, then as long again)


def _connect_scheduler(client_class, address: str):
    """A client of the scheduler at ``address``, or ``ValueError`` with one sentence
    within :data:`CONNECT_SECONDS`: for an address where nothing listens, where something
    else answers (a banner, garbage), where a port accepts and never answers, or a
    protocol this machine cannot speak (``tls://`` without certificates)."""
    found: dict = {}
    given_up = threading.Event()

    def connect() -> None:
        try:
            client = client_class(address, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
        except BaseException as problem:  # noqa: BLE001 - said in one sentence below
            found["problem"] = problem
            return
        if given_up.is_set():  # answered too late: nobody will use it
            client.close()
        found["client"] = client

    # Dask's own timeout does not cover every stage of its handshake: wait here
    connecting = threading.Thread(target=connect, name="dask-connect", daemon=True)
    connecting.start()
    connecting.join(2 * CONNECT_SECONDS)
    if "client" in found:
        return found["client"]
    given_up.set()
    problem = found.get("problem")
    if problem is None:
        reason = f"it accepted the connection but did not answer within {2 * CONNECT_SECONDS} s"
    elif address.startswith("tls://") and isinstance(problem, TypeError):
        reason = "tls:// needs a certificate and key in Dask's configuration (distributed.comm.tls)"
    elif isinstance(problem, (OSError, TimeoutError)):
        reason = " ".join(str(problem).split()).rstrip(".") or type(problem).__name__
    else:  # something answered that does not speak Dask's protocol
        detail = " ".join(str(problem).split()).rstrip(".")[:120]
        reason = f"what answers there is not a Dask scheduler ({type(problem).__name__}: {detail})"
    raise ValueError(f"could not reach the Dask scheduler at {address}: {reason}.")


def check_threads(threads: int | None) -> int:
    """The number of kernel threads to use: all cores by default."""
    most = available_threads()
    if threads is None:
        return most
    if not 1 <= threads <= most:
        raise ValueError(f"--threads must be between 1 and {most} on this machine, not {threads}.")
    return threads


def play_jobs(spec, jobs, n_seats: int, mode: int, seed: int, context, stop=None, progress=None, stored=None):
    """``sims.engine.play_jobs`` on the threads or cluster of ``context`` (a
    ``RunContext``), with its store: the same results and :class:`Stopped`, but hands the
    store holds are not played
    (``stored(items)`` is told how many, at once; of a stopped run, ``Stopped.from_store``
    says how many of each finished prefix) and what is played is kept (see
    :class:`_Recorder`)."""
    store, executor, threads = context.store, context.executor, context.threads

    def loading():
        return context.loading(spec.name)

    piece_seconds = CLUSTER_PIECE_SECONDS if executor is not None else engine.PIECE_SECONDS
    if store is None:
        return engine.play_jobs(
            spec, jobs, n_seats, mode, seed, threads, stop, progress, piece_seconds, executor=executor, loading=loading
        )
    outcomes = spec.outcomes[mode]
    grouped = configurations(jobs)
    plans = store.cover(spec, mode, n_seats, seed, jobs, grouped)  # per job: its segments, stored or to play
    gaps = [
        (job, k) for job, segments in enumerate(plans) for k, segment in enumerate(segments) if segment.sums is None
    ]  # in job order
    found = sum(segment.count for segments in plans for segment in segments if segment.sums is not None)
    if stored is not None and found:
        stored(found)
    gap_jobs = [(jobs[job][0], jobs[job][1], plans[job][k].first, plans[job][k].count) for job, k in gaps]

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

    recorder = _Recorder(store, spec, mode, n_seats, seed, grouped, plans, gaps)
    store.publisher(recorder.publish)
    try:
        played = (
            engine.play_jobs(
                spec,
                gap_jobs,
                n_seats,
                mode,
                seed,
                threads,
                stop,
                progress,
                piece_seconds,
                on_prefix=recorder.grew,
                executor=executor,
                loading=loading,
            )
            if gap_jobs
            else []
        )
    except BaseException as problem:
        recorder.publish(stopped=True)  # what a stopped run finished is kept for the same command to resume
        if isinstance(problem, Stopped):
            raise Stopped(*assembled(problem.sums, problem.played)) from None
        raise
    finally:
        store.unpublish(recorder.publish)
    recorder.finished(played)
    store.tick()
    if len(gaps) == len(jobs) and all(len(segments) == 1 for segments in plans):  # nothing came from the store
        return [outcomes.zeros(n_seats) if total is None else total for total in played]
    sums = assembled(played, [segment.count for job, k in gaps for segment in [plans[job][k]]])[0]
    return [outcomes.zeros(n_seats) if total is None else total for total in sums]


_RECORDERS = itertools.count()  # names the store's slots: one per job list and configuration


class _Recorder:
    """Keeps in the store what one job list plays, per configuration (rules and policy).

    While the jobs run, each played gap's finished prefix is recorded as incomplete runs,
    read before every commit (about once a second), so a killed run loses at most the
    last second.  When they are done, each configuration's jobs are recorded whole, as
    runs of parts at the boundaries of the stretches they were made of (stored and
    played), so the same jobs again read one block per configuration, and the store
    drops the blocks this one makes redundant."""

    def __init__(self, store, spec, mode: int, players: int, seed: int, grouped, plans, gaps):
        self.store, self.spec, self.mode, self.players, self.seed = store, spec, mode, players, seed
        self.name = next(_RECORDERS)
        self.started = time.monotonic()
        self.plans, self.gaps = plans, gaps
        self.config_of_job, self.configs = grouped  # see analyzer.run.store.configurations
        self.gaps_of: dict[int, list[int]] = {}  # configuration -> its gaps (indices into ``gaps``)
        for gap, (job, _) in enumerate(gaps):
            self.gaps_of.setdefault(self.config_of_job[job], []).append(gap)
        self.prefix: dict[int, tuple] = {}  # gap -> (items finished, their sums)
        self.changed: set[int] = set()

    def grew(self, gap: int, played: int, sums) -> None:
        """``engine.play_jobs``'s ``on_prefix``."""
        self.prefix[gap] = (played, sums)
        self.changed.add(self.config_of_job[self.gaps[gap][0]])
        self.store.tick()

    def _record(self, config: int, parts, complete: bool, played: int) -> None:
        rules, policy = self.configs[config]
        self.store.record(
            (self.name, config),
            self.spec,
            self.mode,
            self.players,
            self.seed,
            rules,
            policy,
            runs_of(parts),
            complete,
            played,
        )

    def publish(self, stopped: bool = False) -> None:
        """Record each changed configuration's finished prefixes: before a commit, once
        the jobs have run for a second (what finished sooner is within the last second
        a kill may lose), and when they stop."""
        if not stopped and time.monotonic() - self.started < self.store.flush_seconds:
            return
        for config in self.changed:
            parts = [
                (self.plans[self.gaps[gap][0]][self.gaps[gap][1]].first, *self.prefix[gap])
                for gap in self.gaps_of[config]
                if gap in self.prefix
            ]
            self._record(config, parts, False, sum(part[1] for part in parts))
        self.changed.clear()

    def finished(self, gap_sums: list) -> None:
        played = dict(zip(self.gaps, gap_sums))
        parts: dict[int, list] = {config: [] for config in self.gaps_of}
        new = dict.fromkeys(self.gaps_of, 0)  # hands played, per configuration
        for job, segments in enumerate(self.plans):
            config = self.config_of_job[job]
            if config in parts:
                for k, segment in enumerate(segments):
                    if segment.sums is None:
                        parts[config].append((segment.first, segment.count, played[(job, k)]))
                        new[config] += segment.count
                    else:
                        parts[config].append((segment.first, segment.count, segment.sums))
        for config, found in parts.items():
            self._record(config, found, True, new[config])
