"""The C references of the hand kernels: C programs that play exactly the hands of Chase
the Ace's and Ace Chasing's hand kernels, step for step, to measure the kernels against
(``analyze bench --c-reference``) and to check them by (``tests/perf/test_c_reference.py``).

:func:`compile_c` builds a game's program with ``gcc -O2 -march=native``; :func:`run_c`
runs it, :func:`run_kernel` runs the kernel the engine runs on the same hands, and
:func:`time_against_c` times both in turn and checks that their sums agree.  README.md in
this folder says what the programs implement.
"""

from __future__ import annotations

import platform
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

# game name -> (module holding SPEC, C source next to this file)
GAMES = {
    "chase-ace": ("sims.games.chase_ace", "chase_ace.c"),
    "ace-chasing": ("sims.games.ace_chasing", "ace_chasing.c"),
}
CFLAGS = ("-O2", "-march=native")


def game_spec(game: str):
    """The ``SPEC`` of ``game`` (imported on demand)."""
    import importlib

    return importlib.import_module(GAMES[game][0]).SPEC


def compile_c(game: str, folder: str | Path, cc: str = "gcc") -> Path:
    """Compile the C reference of ``game`` into ``folder``; return the executable's path.
    Raises ``subprocess.CalledProcessError`` (with gcc's message) when it does not build."""
    source = HERE / GAMES[game][1]
    exe = Path(folder) / source.stem
    subprocess.run([cc, *CFLAGS, "-o", str(exe), str(source)], check=True, capture_output=True, text=True)
    return exe


def run_c(
    exe: Path, players: int, seed: int, first: int, count: int, rules=None, policy_row=None
) -> tuple[np.ndarray, float]:
    """Run the C program: ``(sums as an int64 array, seconds spent in its hand loop)``.
    ``rules`` (the kernel's rules array) and ``policy_row`` (one policy row, used for every
    seat) are passed when given; the program's defaults are the game's defaults."""
    args = [str(exe), str(players), str(seed), str(first), str(count)]
    if rules is not None or policy_row is not None:
        if rules is None:
            raise ValueError("give rules with policy_row")
        args.append(",".join(str(int(v)) for v in rules))
        if policy_row is not None:
            args.append(",".join(repr(float(v)) for v in policy_row))
    done = subprocess.run(args, check=True, capture_output=True, text=True)
    rows = [[int(v) for v in line.split()] for line in done.stdout.splitlines() if line.strip()]
    seconds = None
    for line in done.stderr.splitlines():
        if line.startswith("hand_loop_seconds"):
            seconds = float(line.split()[1])
    if seconds is None:
        raise RuntimeError(f"{exe.name} did not report its time: {done.stderr!r}")
    return np.asarray(rows, dtype=np.int64), seconds


def run_kernel(game: str, players: int, seed: int, first: int, count: int, rules=None, policy=None) -> np.ndarray:
    """The hand kernel's raw sums (before ``Outcomes.decode``); default rules and policy
    unless given (``rules`` an int64 array, ``policy`` a float64 ``[players, fields]``)."""
    from sims.spec import Mode

    spec = game_spec(game)
    if rules is None:
        rules = spec.rules_array(spec.rules_type())
    if policy is None:
        policy = spec.default_policy(players)
    rules = np.asarray(rules, dtype=np.int64)
    kernel = spec.kernel_for(Mode.HANDS, rules)  # what the engine runs (a fixed-rules kernel where there is one)
    return kernel(
        rules,
        np.asarray(policy, dtype=np.float64),
        np.int64(players),
        np.uint64(seed),
        np.int64(first),
        np.int64(count),
    )


def first_difference(kernel_sums: np.ndarray, c_sums: np.ndarray) -> str:
    """A sentence naming where two sum arrays first differ."""
    if kernel_sums.shape != c_sums.shape:
        return f"shapes differ: kernel {kernel_sums.shape}, C {c_sums.shape}"
    row, column = (int(i) for i in np.argwhere(kernel_sums != c_sums)[0])
    return (
        f"first difference at row {row}, column {column}: kernel {kernel_sums[row, column]}, "
        f"C {c_sums[row, column]} ({int((kernel_sums != c_sums).sum())} entries differ)"
    )


@dataclass(frozen=True)
class AgainstC:
    """A kernel timed against its C reference: the best seconds of each over the runs,
    every run's seconds, and the machine and compiler."""

    game: str
    players: int
    count: int
    seed: int
    first: int
    kernel_seconds: tuple[float, ...]
    c_seconds: tuple[float, ...]
    rows: int
    columns: int
    machine: str

    @property
    def kernel_rate(self) -> float:
        return self.count / min(self.kernel_seconds)

    @property
    def c_rate(self) -> float:
        return self.count / min(self.c_seconds)


def time_against_c(game: str, players: int, count: int, seed: int = 1, first: int = 0, repeats: int = 3) -> AgainstC:
    """Compile the game's C program, then time the kernel (one thread, after a warm-up
    call) and the program in turn (kernel, C, kernel, C, ...: both see the same load), the
    program's own clock around its hand loop only.  ``RuntimeError`` with one sentence
    without gcc, when gcc fails, or when any run's sums differ from the kernel's."""
    cc = shutil.which("gcc")
    if cc is None:
        raise RuntimeError("gcc is not installed: the C reference cannot be built.")
    with tempfile.TemporaryDirectory(prefix="card-analyzer-c-") as folder:
        try:
            exe = compile_c(game, folder, cc)
        except subprocess.CalledProcessError as error:
            raise RuntimeError(f"gcc failed to build {GAMES[game][1]}: {error.stderr.strip()}") from None
        run_kernel(game, players, seed, first, min(count, 1000))
        kernel_times, c_times = [], []
        kernel_sums = None
        for _ in range(repeats):
            start = time.perf_counter()
            sums = run_kernel(game, players, seed, first, count)
            kernel_times.append(time.perf_counter() - start)
            if kernel_sums is not None and not np.array_equal(sums, kernel_sums):
                raise RuntimeError("the kernel returned different sums on two identical runs.")
            kernel_sums = sums
            try:
                c_sums, seconds = run_c(exe, players, seed, first, count)
            except subprocess.CalledProcessError as error:
                raise RuntimeError(f"the C reference of {game} failed: {error.stderr.strip()}") from None
            c_times.append(seconds)
            if not np.array_equal(c_sums, kernel_sums):
                raise RuntimeError(
                    f"the C reference of {game} differs from the kernel ({players} players, seed {seed}, hands "
                    f"{first} to {first + count - 1}): {first_difference(kernel_sums, c_sums)}."
                )
        version = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    assert kernel_sums is not None
    return AgainstC(
        game,
        players,
        count,
        seed,
        first,
        tuple(kernel_times),
        tuple(c_times),
        kernel_sums.shape[0],
        kernel_sums.shape[1],
        f"{platform.processor() or platform.machine()}, {version}",
    )
