"""Chunk scheduling over hand indices: threads, progress bar, early stopping.

A run of ``count`` hands is played as consecutive chunks of hand indices, each chunk
spread over the threads by the kernel.  Every hand draws from its own stream, so the
sums are the same for any chunk sizes and thread count; chunks exist only to report
progress and to check ``--target-se`` between them.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import numpy as np

from analyzer.params import Table
from analyzer.stats import estimates, largest_se
from sims.engine import available_threads, simulate
from sims.spec import GameSpec

FIRST_CHUNK = 20_000
SECONDS_PER_CHUNK = 0.25


def check_threads(threads: int | None) -> int:
    """The number of kernel threads to use: all cores by default."""
    most = available_threads()
    if threads is None:
        return most
    if not 1 <= threads <= most:
        raise ValueError(f"--threads must be between 1 and {most} on this machine, not {threads}.")
    return threads


class ProgressBar:
    """A one-line progress bar on stderr, shown only for runs longer than about a second."""

    def __init__(self, total: int, unit: str, enabled: bool | None = None):
        self.total = total
        self.unit = unit
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.start = time.perf_counter()
        self.shown = False

    def update(self, done: int) -> None:
        elapsed = time.perf_counter() - self.start
        if not self.enabled or elapsed < 1.0:
            return
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self.total - done) / rate if rate > 0 else float("inf")
        filled = int(30 * done / self.total)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {100 * done / self.total:5.1f}%  "
                         f"{rate / 1e6:7.2f}M {self.unit}/s  {left:6.1f}s left ")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 78 + "\r")
            sys.stderr.flush()


@dataclass(frozen=True)
class RunResult:
    spec: GameSpec
    table: Table
    mode: int
    seed: int
    count: int  # hands or games actually played
    sums: np.ndarray
    elapsed_s: float  # playing time, without compiling or loading the kernel
    threads: int
    load_s: float  # compiling (first run) or loading the cached kernel


def run(spec: GameSpec, table: Table, mode: int, seed: int, count: int, threads: int | None = None,
        target_se: float | None = None, progress: bool | None = None) -> RunResult:
    """Play ``count`` hands (or games) of ``seed``; stop early once every standard error
    is below ``target_se`` when it is given."""
    threads = check_threads(threads)
    outcomes = spec.outcomes[mode]
    sums = outcomes.zeros(table.players)
    load_start = time.perf_counter()
    simulate(spec, table.rules, table.policy, table.players, mode, seed, 0, 1)  # compile or load
    load_s = time.perf_counter() - load_start
    bar = ProgressBar(count, "hands" if mode == 0 else "games", progress)
    start = time.perf_counter()
    done = 0
    chunk = min(count, FIRST_CHUNK)
    try:
        while done < count:
            chunk = min(chunk, count - done)
            chunk_start = time.perf_counter()
            sums = outcomes.combine(sums, simulate(spec, table.rules, table.policy, table.players, mode, seed, done,
                                                   chunk, threads))
            done += chunk
            bar.update(done)
            if target_se is not None and largest_se(estimates(sums, outcomes, done)) < target_se:
                break
            spent = time.perf_counter() - chunk_start
            chunk = int(min(max(chunk * 2, chunk * SECONDS_PER_CHUNK / max(spent, 1e-6)), 1 << 40))
    finally:
        bar.close()
    return RunResult(spec, table, mode, seed, done, sums, time.perf_counter() - start, threads, load_s)
