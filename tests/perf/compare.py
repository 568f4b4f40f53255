"""Time a hand-mode Numba kernel against its same-algorithm C reference.

    python tests/perf/compare.py [--game chase-ace|ace-chasing] [--players 8] [--hands 2e7] [--seed 1]

Compiles the game's C reference (``chase_ace.c`` or ``ace_chasing.c`` next to this file)
with ``gcc -O2 -march=native`` into a temporary folder, runs the kernel
(``SPEC.kernel_for(Mode.HANDS, rules)``, the kernel the engine runs: for Chase the Ace's
standard rules the fixed-rules kernel; default rules and policy, one thread, after a warm-up call) and
the C program, best of ``--repeats`` each, checks that both return the same integer sums
and prints both speeds in hands per second.  Exits 1 when the sums differ, 0 without gcc
(nothing to compare with).  See README.md in this folder.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("CARD_ANALYZER_STORE", "off")
os.environ["NUMBA_NUM_THREADS"] = "1"  # the hand kernels are serial; keep Numba's pool out of it

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="chase-ace")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--hands", type=float, default=2e7, help="hands per timed run (2e7 is fine)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="index of the first hand")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each; the best counts")
    args = parser.parse_args(argv)
    count = int(args.hands)
    if count < 1 or args.repeats < 1:
        parser.error("--hands and --repeats must be at least 1")

    cc = shutil.which("gcc")
    if cc is None:
        print("gcc not found: the C reference cannot be built, nothing to compare (install gcc to run this).")
        return 0

    spec = game_spec(args.game)
    spec.check(spec.rules_type(), spec.default_policy(args.players), args.players)

    with tempfile.TemporaryDirectory(prefix="card-analyzer-perf-") as folder:
        try:
            exe = compile_c(args.game, folder, cc)
        except subprocess.CalledProcessError as error:
            print(f"gcc failed to build {GAMES[args.game][1]}:\n{error.stderr}", file=sys.stderr)
            return 1

        # One warm-up call of the kernel (loads or compiles it), then the timed runs, the
        # kernel and the C program in turn, so that both see the same load on the machine.
        run_kernel(args.game, args.players, args.seed, args.first, min(count, 1000))
        kernel_times, c_times = [], []
        kernel_sums = None
        for _ in range(args.repeats):
            start = time.perf_counter()
            sums = run_kernel(args.game, args.players, args.seed, args.first, count)
            kernel_times.append(time.perf_counter() - start)
            if kernel_sums is not None and not np.array_equal(sums, kernel_sums):
                print("the kernel returned different sums on two identical runs", file=sys.stderr)
                return 1
            kernel_sums = sums
            c_sums, seconds = run_c(exe, args.players, args.seed, args.first, count)
            c_times.append(seconds)
            if not np.array_equal(c_sums, kernel_sums):
                print(
                    f"MISMATCH ({args.game}, {args.players} players, seed {args.seed}, hands "
                    f"{args.first}..{args.first + count - 1}): {first_difference(kernel_sums, c_sums)}",
                    file=sys.stderr,
                )
                return 1
        gcc_version = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout.splitlines()[0]

    kernel_best, c_best = min(kernel_times), min(c_times)
    kernel_rate, c_rate = count / kernel_best, count / c_best
    print(
        f"{spec.title} ({args.game}), hand mode, default rules and policy: {args.players} players, "
        f"{count:,} hands from {args.first}, seed {args.seed}, 1 thread, best of {args.repeats}"
    )
    print(f"sums identical: yes ({kernel_sums.shape[0]} rows x {kernel_sums.shape[1]} columns)")
    print(f"machine: {platform.processor() or platform.machine()}, {gcc_version}")
    print()
    print(f"{'':30} {'seconds':>9} {'hands/s':>14} {'ns/hand':>9}")
    print(f"{'Numba kernel':30} {kernel_best:9.3f} {kernel_rate:14,.0f} {1e9 / kernel_rate:9.1f}")
    print(f"{'C, gcc ' + ' '.join(CFLAGS):30} {c_best:9.3f} {c_rate:14,.0f} {1e9 / c_rate:9.1f}")
    print(
        f"all runs (s): kernel {' '.join(f'{t:.3f}' for t in kernel_times)}; C {' '.join(f'{t:.3f}' for t in c_times)}"
    )
    print()
    print(
        f"kernel speed / C speed = {kernel_rate / c_rate:.3f}"
        f"  (the C reference is {c_rate / kernel_rate:.2f}x the kernel's speed)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
