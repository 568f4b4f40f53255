"""A run's context: where its hands are kept and played, how it shows progress, and what
it has done so far, as one object handed from the API call down to the engine.

Nothing about a run lives in module-level state: two API calls in two threads, each with
its own context, use their own store, cluster, threads and tallies.  :func:`open_context`
opens the store and the cluster a call asks for and closes them at the end:

- ``store``: ``None`` (or ``True``) for the default result store (``$CARD_ANALYZER_STORE``,
  else ``$XDG_DATA_HOME/card-analyzer/results.sqlite``, else
  ``~/.local/share/card-analyzer/results.sqlite``; ``CARD_ANALYZER_STORE=off`` turns it
  off), ``False`` for none, or the path of a store file (see ``analyzer.run.store``);
- ``cluster``: ``None`` to play on this process's threads, ``"local:N"`` for a Dask
  ``LocalCluster`` of N worker processes on this machine, or the address of a running
  Dask scheduler (``tcp://host:8786``).

An interrupt that leaves the context carries the tally (``Interrupted.tally``), so the
command line can say how much was played and during which stage.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from analyzer.run import interrupts


@dataclass
class Tally:
    """What a run has done so far: hands (or games) played, in which unit, during which
    stage of a command made of many runs ("the best response of seat 2 of 8"), and the
    seconds spent compiling or loading kernels (not playing)."""

    played: int = 0
    unit: str = "hands"
    stage: str = ""
    load_seconds: float = 0.0


def _every_core() -> int:
    from sims.engine import available_threads

    return available_threads()


@dataclass(frozen=True)
class RunContext:
    """Everything a run needs beside what it plays.

    ``store``: an open ``ResultStore`` or None; ``executor``: a ``DaskExecutor`` or None
    (this process's threads); ``threads``: kernel threads (checked); ``progress``: the
    progress display (None: on a terminal or in Jupyter, False: never, True: always);
    ``tally``: shared by every run of the call; ``on_stage``: told what :meth:`say`
    says (a report's progress lines)."""

    store: Any = None  # an open ResultStore, or None
    executor: Any = None  # a DaskExecutor, or None
    threads: int = field(default_factory=lambda: _every_core())
    progress: bool | None = None
    tally: Tally = field(default_factory=Tally)
    on_stage: Callable[[str], None] | None = None

    @property
    def slots(self) -> int:
        """How many pieces run at once: the cluster's worker threads, else the threads."""
        return self.executor.slots if self.executor is not None else self.threads

    @property
    def cluster(self) -> dict | None:
        """The Dask cluster the hands are played on (workers, threads, scheduler,
        dashboard), or None on this process's threads."""
        return self.executor.describe() if self.executor is not None else None

    def quiet(self) -> RunContext:
        """The same context without a progress display (a command's inner runs)."""
        return replace(self, progress=False)

    def stage(self, text: str) -> None:
        """A command made of many runs enters a stage: kept for the interrupt line."""
        self.tally.stage = text

    def say(self, text: str) -> None:
        """A stage worth telling the user (a report's sections): told to ``on_stage``."""
        if self.on_stage is not None:
            self.on_stage(text)

    @contextlib.contextmanager
    def loading(self, game: str):
        """Loading (or compiling) ``game``'s kernels: a signal abandons it at once, a line
        with a spinner says so when it takes more than a moment, and its time is kept
        apart from playing time."""
        from analyzer.run.progress import Spinner

        start = time.perf_counter()
        spinner = Spinner(f"loading the {game} kernels (a first run compiles them, up to a minute)", self.progress)
        try:
            with interrupts.abandoning("compiling or loading the kernels"), spinner:
                yield
        finally:
            self.tally.load_seconds += time.perf_counter() - start


def _open_store(store):
    """The result store ``store`` asks for (see the module docstring), or None."""
    from analyzer.run.store import ResultStore
    from analyzer.run.store_file import StoreUnwritable, default_store_path
    from sims.engine import LOG

    chosen = store not in (None, True, False)
    path = store if chosen else default_store_path() if store is not False else None
    try:
        return ResultStore(path) if path is not None else None
    except StoreUnwritable as problem:  # a full disk, a read-only folder: the run goes on
        LOG.warning(f"{problem}; the run goes on without storing")
    except ValueError as problem:
        if chosen:
            raise
        # the default store cannot be used (a damaged file): say so, run without it
        reason = str(problem).split(";")[0].rstrip(".").replace("--store ", "the result store ", 1)
        LOG.warning(f"{reason}; running without it (CARD_ANALYZER_STORE=PATH picks another file)")
    return None


@contextlib.contextmanager
def open_context(
    store=None,
    cluster: str | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    on_stage: Callable[[str], None] | None = None,
    tally: Tally | None = None,
):
    """A :class:`RunContext` with the store and cluster asked for, closed at the end (the
    store commits what is left; after an interrupt it waits at most a second for a lock).
    ``threads``: kernel threads (default: every core; ``ValueError`` outside 1 to the
    cores there are); ``tally``: the caller's, to read after the context closed."""
    from analyzer.run.execution import check_threads, connect_cluster

    count = check_threads(threads)
    opened = _open_store(store)
    try:
        executor = connect_cluster(cluster) if cluster is not None else None
    except BaseException:
        if opened is not None:
            opened.close()
        raise
    context = RunContext(opened, executor, count, progress, tally if tally is not None else Tally(), on_stage)
    hurry = False
    try:
        yield context
    except interrupts.Interrupted as stop:
        hurry = True
        stop.tally = context.tally
        raise
    finally:
        if executor is not None:
            executor.close()
        if opened is not None:
            opened.close(hurry=hurry)
