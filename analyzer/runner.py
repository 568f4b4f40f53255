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
from sims.engine import available_threads, simulate, simulate_jobs
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


# ------------------------------------------------------------------------------ paired runs

BATCHES = 64  # batches a paired run of a known length is cut into (enough for batch errors)
MAX_BATCHES = 128  # past this, neighbouring batches are merged in pairs
FIRST_BATCH = 1_000  # hands per batch at first when --target-se may stop the run early


@dataclass(frozen=True)
class Config:
    """One arm of a paired run: rules (a ``Rules`` tuple) and a policy matrix."""

    rules: tuple
    policy: np.ndarray
    label: str = ""


@dataclass(frozen=True)
class PairedRun:
    """Several configurations played on the same hands: batch ``b`` of every configuration
    is hands ``starts[b] .. starts[b] + sizes[b] - 1`` of ``seed``."""

    spec: GameSpec
    players: int
    mode: int
    seed: int
    configs: tuple[Config, ...]
    batch_sums: tuple[tuple[np.ndarray, ...], ...]  # [config][batch] decoded sums
    sizes: tuple[int, ...]
    starts: tuple[int, ...]
    elapsed_s: float
    threads: int

    @property
    def count(self) -> int:
        return sum(self.sizes)

    def sums(self, config: int) -> np.ndarray:
        """The whole-run sums of one configuration."""
        outcomes = self.spec.outcomes[self.mode]
        total = outcomes.zeros(self.players)
        for part in self.batch_sums[config]:
            total = outcomes.combine(total, part)
        return total

    def estimates(self, config: int) -> list:
        return estimates(self.sums(config), self.spec.outcomes[self.mode], self.count)

    def linearized(self, config: int) -> tuple[np.ndarray, np.ndarray]:
        """Estimates and batch error shares of one configuration (see ``stats.linearized``)."""
        from analyzer.stats import linearized

        return linearized(list(self.batch_sums[config]), list(self.sizes), self.spec.outcomes[self.mode])


def _merged(parts: list, sizes: list[int], starts: list[int], combine) -> tuple[list, list[int], list[int]]:
    """Neighbouring batches merged in pairs (an odd last one stays alone)."""
    merged_parts = [[combine(p[i], p[i + 1]) if i + 1 < len(p) else p[i] for i in range(0, len(p), 2)] for p in parts]
    merged_sizes = [sum(sizes[i:i + 2]) for i in range(0, len(sizes), 2)]
    return merged_parts, merged_sizes, starts[::2]


def run_paired(spec: GameSpec, players: int, mode: int, seed: int, configs: list[Config], count: int,
               threads: int | None = None, target_se: float | None = None, largest_se_of=None,
               progress: bool | None = None, first: int = 0) -> PairedRun:
    """Play every configuration on the same ``count`` hands (or games) of ``seed``, hands
    ``first`` onwards (a later ``first`` gives fresh hands of the same seed).

    The hands are cut into batches, each played by every configuration, so differences
    between configurations get their standard errors from the batches (common random
    numbers).  With ``target_se`` the run stops between rounds of batches once
    ``largest_se_of(run)`` (default: the largest standard error of every estimate of every
    configuration, fair odds left out) is below it; ``count`` is then the cap.
    """
    threads = check_threads(threads)
    outcomes = spec.outcomes[mode]
    if not configs:
        raise ValueError("a paired run needs at least one configuration.")
    if count < 2:
        raise ValueError("a paired run needs at least 2 hands: its errors come from batches of hands.")
    simulate(spec, configs[0].rules, configs[0].policy, players, mode, seed, 0, 1)  # compile or load first
    size = -(-count // BATCHES)
    if target_se is not None:
        size = max(1, min(size, FIRST_BATCH))
    parts: list[list] = [[] for _ in configs]
    sizes: list[int] = []
    starts: list[int] = []
    bar = ProgressBar(count * len(configs), "hands" if mode == 0 else "games", progress)
    start = time.perf_counter()

    def snapshot() -> PairedRun:
        return PairedRun(spec, players, mode, seed, tuple(configs), tuple(tuple(p) for p in parts), tuple(sizes),
                         tuple(starts), time.perf_counter() - start, threads)

    done = 0
    try:
        while done < count:
            round_starts, round_sizes = [], []
            while done < count and len(round_starts) < BATCHES // 2:
                round_starts.append(first + done)
                round_sizes.append(min(size, count - done))
                done += round_sizes[-1]
            jobs = [(config.rules, config.policy, first, batch)
                    for config in configs for first, batch in zip(round_starts, round_sizes)]
            played = simulate_jobs(spec, jobs, players, mode, seed, threads)
            for index in range(len(configs)):
                parts[index].extend(played[index * len(round_starts):(index + 1) * len(round_starts)])
            starts.extend(round_starts)
            sizes.extend(round_sizes)
            bar.update(done * len(configs))
            if len(sizes) >= MAX_BATCHES:
                parts, sizes, starts = _merged(parts, sizes, starts, outcomes.combine)
                size *= 2
            if target_se is not None and len(sizes) >= BATCHES // 2:
                found = snapshot()
                largest = largest_se_of(found) if largest_se_of else max(
                    largest_se(found.estimates(i)) for i in range(len(configs)))
                if largest < target_se:
                    break
    finally:
        bar.close()
    return snapshot()
