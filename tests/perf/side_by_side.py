"""Old kernel against new, side by side: ``python tests/perf/side_by_side.py GAME hands|games
COUNT REPEATS OLD_CHECKOUT NEW_CHECKOUT``.

CPU seconds per hand (or game) of GAME's kernel at its default table, one thread, the two
checkouts (say a ``git worktree`` of the old commit and your working tree) alternated in
fresh processes, each warming its kernels first; prints the medians and the new/old ratio.
Choose a COUNT that gives a second or more per run: this machine is shared and noisy."""

import os
import statistics
import subprocess
import sys

game, mode = sys.argv[1], sys.argv[2]
count, repeats = int(float(sys.argv[3])), int(sys.argv[4])
old, new = sys.argv[5], sys.argv[6]
CODE = r"""
import sys, time
from sims import engine
from sims.registry import GAMES
from sims.spec import Mode
spec = GAMES[sys.argv[1]]; mode = Mode.HANDS if sys.argv[2] == "hands" else Mode.GAMES; count = int(sys.argv[3])
n = spec.default_players; rules = spec.default_rules(); policy = spec.default_policy(n)
engine.simulate(spec, rules, policy, n, mode, 1, 0, 200, threads=1, n_blocks=1)
t = time.process_time()
engine.simulate(spec, rules, policy, n, mode, 2, 0, count, threads=1, n_blocks=1)
print(time.process_time() - t)
"""
times = {old: [], new: []}
for r in range(repeats):
    for repo in (old, new) if r % 2 == 0 else (new, old):
        out = subprocess.run(
            [sys.executable, "-c", CODE, game, mode, str(count)],
            cwd=repo,  # python -c puts the working folder first on the path, before PYTHONPATH
            env={**os.environ, "PYTHONPATH": repo},
            capture_output=True,
            text=True,
            check=True,
        )
        times[repo].append(float(out.stdout.strip().splitlines()[-1]))
for label, repo in (("old", old), ("new", new)):
    m = statistics.median(times[repo])
    print(
        f"{label} {repo}: median {m / count * 1e9:.1f} ns per {mode[:-1]}, {count / m / 1e6:.3f} M/s  runs {[round(x, 3) for x in times[repo]]}"
    )
print(f"new/old CPU time ratio: {statistics.median(times[new]) / statistics.median(times[old]):.4f}")
