"""Scheduling over hand indices: threads, progress bar, early stopping, interrupts.

A run of ``count`` hands is played by :func:`sims.engine.play_jobs` in pieces of about a
fifth of a second, spread over the threads.  Every hand draws from its own stream and
the sums are exact integers, so the result is the same for any piece sizes and thread
count.  ``--target-se`` is checked only at fixed hand counts (:func:`checkpoints`), never
at a point that depends on timing, so a run that stops early stops at the same count
with the same numbers on any machine.  A signal (see ``analyzer.run.interrupts``) stops a
run between pieces: the runner raises ``Interrupted`` carrying the hands finished so far,
always a whole prefix of hands (or of batches), which is an honest partial result.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from analyzer.run import interrupts
from analyzer.run.context import RunContext
from analyzer.run.execution import play_jobs
from analyzer.run.params import Table
from analyzer.run.progress import ProgressBar
from analyzer.run.stats import estimates, largest_se
from sims.engine import Stopped
from sims.spec import GameSpec, Mode

# --target-se is checked at these multiples of each power of ten (steps of at most a third)
CHECKPOINT_STEPS = (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8)
# hands / games: fewer give too rough an error
FIRST_CHECKPOINT: dict[int, int] = {Mode.HANDS: 10_000, Mode.GAMES: 1_000}


def checkpoints(count: int, mode: int) -> list[int]:
    """The hand (or game) counts at which ``--target-se`` may stop a run of at most
    ``count``: 10,000, 12,000, 15,000, 20,000, 25,000, 30,000, 40,000 ... (1,000 on for
    games), then ``count`` itself.  They depend on nothing but the cap and the mode."""
    found: list[int] = []
    power = 1
    while True:
        for step in CHECKPOINT_STEPS:
            point = int(step * power)
            if point >= count:
                return found + [count]
            if point >= FIRST_CHECKPOINT[mode] and (not found or point > found[-1]):
                found.append(point)
        power *= 10


@dataclass(frozen=True)
class RunResult:
    spec: GameSpec
    table: Table
    mode: int
    seed: int
    count: int  # hands or games actually played
    sums: np.ndarray
    elapsed_s: float  # playing time, without compiling or loading the kernel
    threads: int  # kernel threads, or a cluster's worker threads
    load_s: float  # compiling (first run) or loading the cached kernel
    requested: int = 0  # hands or games asked for (the cap with --target-se)
    interrupted: bool = False  # the hands finished before an interrupt: a partial result
    stored: int = 0  # of ``count``, hands (or games) taken from the result store, not played
    cluster: dict | None = None  # the Dask cluster that played them (see RunContext.cluster), or None

    @property
    def partial(self) -> bool:
        return self.interrupted


def run(
    spec: GameSpec, table: Table, mode: int, seed: int, count: int, context: RunContext, target_se: float | None = None
) -> RunResult:
    """Play ``count`` hands (or games) of ``seed`` in ``context``; with ``target_se``, stop
    at the first checkpoint where every standard error is below it.  An interrupt raises
    ``Interrupted`` whose ``partial`` is the ``RunResult`` of the hands finished."""
    outcomes = spec.outcomes[mode]
    cluster = context.cluster
    bar = ProgressBar(count, "hands" if mode == Mode.HANDS else "games", context.progress, context.tally)
    start = time.perf_counter()
    loaded_before = context.tally.load_seconds  # the kernel is loaded (or compiled) only if a hand must be played
    sums = outcomes.zeros(table.players)
    done = 0
    from_store = [0, 0]  # of ``done``, and of the checkpoint being played: hands read from the store

    def result(interrupted: bool = False) -> RunResult:
        load_s = context.tally.load_seconds - loaded_before
        return RunResult(
            spec,
            table,
            mode,
            seed,
            done,
            sums,
            time.perf_counter() - start - load_s,
            context.slots,
            load_s,
            count,
            interrupted,
            from_store[0],
            cluster,
        )

    def stored(items: int) -> None:
        from_store[1] = items
        bar.add_stored(items)

    stops = checkpoints(count, mode) if target_se is not None else [count]
    try:
        with interrupts.deferred():
            for stop_at in stops:
                interrupts.check(result(interrupted=True))  # a signal between checkpoints
                from_store[1] = 0
                try:
                    part = play_jobs(
                        spec,
                        [(table.rules, table.policy, done, stop_at - done)],
                        table.players,
                        mode,
                        seed,
                        context,
                        stop=interrupts.requested,
                        progress=bar.add,
                        stored=stored,
                    )[0]
                except Stopped as stopped:
                    if stopped.played[0]:
                        sums = outcomes.combine(sums, stopped.sums[0])
                        done += stopped.played[0]
                        from_store[0] += stopped.from_store[0]  # stored hands past the prefix are not in it
                    raise interrupts.stopping(result(interrupted=True)) from None
                sums = outcomes.combine(sums, part)
                from_store[0] += from_store[1]
                done = stop_at
                if target_se is not None and largest_se(estimates(sums, outcomes, done)) < target_se:
                    break
    finally:
        bar.close()
    return result()


# ------------------------------------------------------------------------------ paired runs

BATCHES = 64  # batches a paired run of a known length is cut into (enough for batch errors)
MAX_BATCHES = 128  # past this, neighbouring batches are merged in pairs
FIRST_BATCH = 1_000  # hands per batch at first (then doubled each time the batches are merged)


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
    interrupted: bool = False  # the batches finished before an interrupt: a partial result

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
        from analyzer.run.stats import linearized

        return linearized(list(self.batch_sums[config]), list(self.sizes), self.spec.outcomes[self.mode])


def _merged(parts: list, sizes: list[int], starts: list[int], combine) -> tuple[list, list[int], list[int]]:
    """Neighbouring batches merged in pairs (an odd last one stays alone)."""
    merged_parts = [[combine(p[i], p[i + 1]) if i + 1 < len(p) else p[i] for i in range(0, len(p), 2)] for p in parts]
    merged_sizes = [sum(sizes[i : i + 2]) for i in range(0, len(sizes), 2)]
    return merged_parts, merged_sizes, starts[::2]


def first_batch(count: int, target: bool) -> int:
    """Hands per batch at the start of a paired run: at most 1,000 when --target-se may stop
    it early; else a 128th of the count (at least 1,000), which ends at 128 batches with
    four rounds; never more than a 64th."""
    most = -(-count // BATCHES)
    return max(1, min(most, FIRST_BATCH if target else max(FIRST_BATCH, -(-count // MAX_BATCHES))))


def run_paired(
    spec: GameSpec,
    players: int,
    mode: int,
    seed: int,
    configs: list[Config],
    count: int,
    context: RunContext,
    target_se: float | None = None,
    largest_se_of=None,
    first: int = 0,
) -> PairedRun:
    """Play every configuration on the same ``count`` hands (or games) of ``seed`` in
    ``context``, hands ``first`` onwards (a later ``first`` gives fresh hands of the same
    seed).

    The hands are cut into batches, each played by every configuration, so differences
    between configurations get their standard errors from the batches (common random
    numbers).  Batches start at :func:`first_batch` hands and are played in rounds of 32; at 128 batches neighbours merge in pairs and new batches are twice as large, so
    a run ends with 32 to 128 batches.  With ``target_se`` the run stops after a round
    once ``largest_se_of(run)`` (default: the largest standard error of every estimate of
    every configuration, fair odds left out) is below it; ``count`` is then the cap.
    Rounds depend only on ``count``, so the stopping point depends only on the count, the
    target and the data.  An interrupt raises ``Interrupted`` whose ``partial`` is the
    ``PairedRun`` of the batches every configuration finished (``None`` when fewer than
    two).
    """
    outcomes = spec.outcomes[mode]
    if not configs:
        raise ValueError("a paired run needs at least one configuration.")
    if count < 2:
        raise ValueError("a paired run needs at least 2 hands: its errors come from batches of hands.")
    loaded_before = context.tally.load_seconds
    # small batches first, merged in pairs as they pile up: an interrupt early in a long run
    # still leaves whole batches to show, and --target-se stops in small steps; the batches
    # depend only on the count and whether a target is given
    size = first_batch(count, target_se is not None)
    parts: list[list] = [[] for _ in configs]
    sizes: list[int] = []
    starts: list[int] = []
    bar = ProgressBar(count * len(configs), "hands" if mode == Mode.HANDS else "games", context.progress, context.tally)
    start = time.perf_counter()

    def snapshot(interrupted: bool = False) -> PairedRun:
        return PairedRun(
            spec,
            players,
            mode,
            seed,
            tuple(configs),
            tuple(tuple(p) for p in parts),
            tuple(sizes),
            tuple(starts),
            time.perf_counter() - start - (context.tally.load_seconds - loaded_before),
            context.slots,
            interrupted,
        )

    def partial() -> PairedRun | None:
        return snapshot(interrupted=True) if len(sizes) >= 2 else None

    def keep(round_starts: list[int], round_sizes: list[int], played: list) -> None:
        """Add the round's batches (``played`` in batch-major job order) to the run."""
        for index in range(len(configs)):
            parts[index].extend(played[index :: len(configs)])
        starts.extend(round_starts)
        sizes.extend(round_sizes)

    done = 0
    try:
        with interrupts.deferred():
            while done < count:
                interrupts.check(partial())  # a signal between rounds
                round_starts: list[int] = []
                round_sizes: list[int] = []
                while done < count and len(round_starts) < BATCHES // 2:
                    round_starts.append(first + done)
                    round_sizes.append(min(size, count - done))
                    done += round_sizes[-1]
                # batch by batch, every configuration of a batch together: an interrupt
                # leaves whole batches
                jobs = [
                    (config.rules, config.policy, batch_start, batch_size)
                    for batch_start, batch_size in zip(round_starts, round_sizes)
                    for config in configs
                ]
                try:
                    played = play_jobs(
                        spec,
                        jobs,
                        players,
                        mode,
                        seed,
                        context,
                        stop=interrupts.requested,
                        progress=bar.add,
                        stored=bar.add_stored,
                    )
                except Stopped as stopped:
                    whole = 0
                    while whole < len(round_starts) and all(
                        stopped.played[whole * len(configs) + c] == round_sizes[whole] for c in range(len(configs))
                    ):
                        whole += 1
                    keep(round_starts[:whole], round_sizes[:whole], stopped.sums[: whole * len(configs)])
                    raise interrupts.stopping(partial()) from None
                keep(round_starts, round_sizes, played)
                if len(sizes) >= MAX_BATCHES:
                    parts, sizes, starts = _merged(parts, sizes, starts, outcomes.combine)
                    size *= 2
                if target_se is not None and len(sizes) >= BATCHES // 2:
                    found = snapshot()
                    largest = (
                        largest_se_of(found)
                        if largest_se_of
                        else max(largest_se(found.estimates(i)) for i in range(len(configs)))
                    )
                    if largest < target_se:
                        break
    finally:
        bar.close()
    return snapshot()
