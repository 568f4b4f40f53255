"""Where compile time goes: ``python -m tests.compile_report [--jobs N] [--game G ...]``.

Compiles every kernel the product calls into a fresh, empty kernel cache and prints the
seconds each took (the CPU time of the compiling process, so a busy machine changes
them little; wall time beside it), per game and per kind, then the totals.  Each game
compiles in a process of its own, ``--jobs`` of them at once (default: the cores), so a
game's first kernel pays for the helpers its later kernels share, as a user's first
command does.  The kernels, in the order a user meets them:

- ``hands``: the hand mode at the default rules (the fixed-rules kernel where the game
  has one), ``games``: the game mode at the default rules;
- ``hands*``: the hand mode's any-rules kernel, under the first variant no fixed-rules
  kernel covers (a house rule's first run);
- ``solve <decision>``: the strategy tables' solve kernel, per table decision;
- ``advise <decision>``: the advice at each decision's example (``analyze advise``).

A kernel that loads what an earlier one compiled shows its load time.  ``--json`` prints
the rows as JSON.  Nothing is written outside the temporary cache folder.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _timed(rows: list, game: str, kind: str, action) -> None:
    cpu, wall = time.process_time(), time.perf_counter()
    error = ""
    try:
        action()
    except Exception as exc:  # noqa: BLE001 - reported in the row, the others still compile
        error = f"{type(exc).__name__}: {exc}"
    row = {"game": game, "kernel": kind, "cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall}
    if error:
        row["error"] = error
    print(json.dumps(row), flush=True)
    rows.append(row)


def compile_game(name: str) -> list[dict]:
    """Compile (or load) every kernel of one game in this process (the warmer's steps,
    :func:`sims.precompile.kernel_steps`, but the table-playing modes, which load the
    mode kernels); one JSON line per kernel."""
    start = time.process_time()
    from sims.precompile import kernel_steps
    from sims.registry import GAMES

    steps = kernel_steps(GAMES[name])
    print(json.dumps({"game": name, "kernel": "import", "cpu": time.process_time() - start, "wall": 0.0}), flush=True)
    rows: list[dict] = []
    for _, kind, compile_kernel in steps:
        if not kind.startswith("tables "):
            _timed(rows, name, kind, compile_kernel)
    return rows


def _run_game(name: str, cache: Path) -> list[dict]:
    env = {**os.environ, "CARD_ANALYZER_CACHE": str(cache), "CARD_ANALYZER_STORE": "off"}
    done = subprocess.run(
        [sys.executable, "-m", "tests.compile_report", "--worker", name],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode:
        rows.append({"game": name, "kernel": "crashed", "cpu": 0.0, "wall": 0.0, "error": done.stderr[-300:]})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        compile_game(args.worker)
        return 0
    from sims.registry import NAMES

    games = args.game or list(NAMES)
    unknown = sorted(set(games) - set(NAMES))
    if unknown:
        parser.error(f"unknown game {unknown[0]}; the games are {', '.join(NAMES)}.")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="compile-report-") as cache:
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            results = list(pool.map(lambda name: _run_game(name, Path(cache)), games))
    wall = time.perf_counter() - started
    rows = [row for game_rows in results for row in game_rows]
    if args.json:
        print(json.dumps({"rows": rows, "wall": wall, "jobs": args.jobs}, indent=1))
        return 0
    print(f"{'game':<20} {'kernel':<28} {'cpu s':>7} {'wall s':>7}")
    for row in rows:
        note = f"  {row['error'][:80]}" if "error" in row else ""
        print(f"{row['game']:<20} {row['kernel']:<28} {row['cpu']:7.1f} {row['wall']:7.1f}{note}")
    print()
    kinds: dict[str, float] = {}
    for row in rows:
        kind = row["kernel"].split(" ")[0]
        kinds[kind] = kinds.get(kind, 0.0) + row["cpu"]
    print("per kind (cpu s): " + ", ".join(f"{kind} {seconds:.0f}" for kind, seconds in kinds.items()))
    per_game = {game: sum(row["cpu"] for row in rows if row["game"] == game) for game in games}
    print("per game (cpu s): " + ", ".join(f"{game} {seconds:.0f}" for game, seconds in per_game.items()))
    print(f"all kernels: {sum(per_game.values()):.0f} cpu s, {wall:.0f} s wall with {args.jobs} jobs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
