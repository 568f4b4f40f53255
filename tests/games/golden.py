"""Write the golden files of ``tests/games/test_golden.py``: ``python tests/games/golden.py [GAME ...]``.

For every mode of a game: each variant, each policy preset and eight random legal tables
(rules, players and a per-seat policy drawn by a generator seeded by the game's name), each
played on its own seed; the file keeps the inputs and a digest of the sums."""

import hashlib
import json
import sys
import time
import zlib
from pathlib import Path

import numpy as np

from sims import engine
from sims.registry import GAMES
from sims.spec import MODE_NAMES

COUNT = {0: 1500, 1: 60}


def digest(sums):
    return hashlib.blake2b(json.dumps(np.asarray(sums, dtype=object).tolist()).encode(), digest_size=12).hexdigest()


def cases(spec):
    rng = np.random.default_rng(zlib.crc32(spec.name.encode()))
    out = []
    fields = spec.rules
    for mode in spec.modes:
        for vname, variant in spec.variants.items():
            n = variant.players or spec.default_players
            rules = spec.default_rules()._replace(**variant.rules)
            pol = spec.default_policy(n, variant.policy or "default")
            out.append((mode, n, rules, pol, f"variant {vname}"))
        for pname in spec.policies:
            n = spec.default_players
            out.append((mode, n, spec.default_rules(), spec.default_policy(n, pname), f"policy {pname}"))
        sizes = sorted(
            {
                spec.min_players,
                spec.default_players,
                min(spec.max_players, spec.min_players + 5),
                spec.max_players if spec.max_players <= 12 else 12,
            }
        )
        made = 0
        tries = 0
        while made < 8 and tries < 400:
            tries += 1
            n = int(rng.choice(sizes))
            values = {}
            for f in fields:
                if f.kind == "bool":
                    values[f.key] = int(rng.integers(0, 2))
                elif f.kind == "choice":
                    values[f.key] = int(rng.integers(0, len(f.choices)))
                else:
                    hi = min(f.hi, f.lo + 40) if f.hi is not None else f.lo + 40
                    values[f.key] = int(rng.integers(f.lo, hi + 1))
            rules = spec.rules_type(**values)
            rows = []
            for s in range(n):
                row = {}
                for pf in spec.policy_fields:
                    if pf.integer or pf.choices:
                        row[pf.key] = float(rng.integers(int(pf.lo), int(pf.hi) + 1))
                    else:
                        row[pf.key] = round(float(rng.uniform(pf.lo, pf.hi)), 3)
                rows.append(row)
            pol = spec.policy_matrix(rows)
            try:
                spec.check(rules, pol, n)
            except ValueError:
                continue
            out.append((mode, n, rules, pol, "random"))
            made += 1
    return out


def main(names):
    for name in names:
        spec = GAMES[name]
        t = time.time()
        records = []
        for i, (mode, n, rules, pol, label) in enumerate(cases(spec)):
            count = COUNT[mode]
            sums = engine.simulate(spec, rules, pol, n, mode, 1000 + i, 0, count)
            records.append(
                {
                    "label": label,
                    "mode": MODE_NAMES[mode],
                    "players": n,
                    "seed": 1000 + i,
                    "count": count,
                    "rules": {f: int(v) for f, v in zip(spec.rules_type._fields, rules)},
                    "policy": pol.tolist(),
                    "digest": digest(sums),
                }
            )
        folder = Path(__file__).parent / name.replace("-", "_")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "golden.json").write_text(
            json.dumps({"game": name, "kernel_version": spec.kernel_version, "cases": records}, indent=1) + "\n"
        )
        print(name, len(records), f"{time.time() - t:.1f}s")


if __name__ == "__main__":
    main(sys.argv[1:] or list(GAMES))
