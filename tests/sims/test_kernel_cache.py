"""A damaged kernel cache (a truncated or garbage data file, an empty or truncated index)
is found, its files removed, the kernels compiled again and the answer still right, with
one line on stderr."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys

import pytest
from numba.core.caching import _CacheLocator

from sims import KERNEL_CACHE_DIR, repair_kernel_cache
from sims.engine import simulate
from sims.games import chase_ace
from sims.registry import get_game
from sims.spec import Mode

pytestmark = pytest.mark.slow  # subprocesses compiling kernels


def _index(path, overloads: dict) -> None:
    with open(path, "wb") as stream:
        pickle.dump("0.0", stream)
        stream.write(pickle.dumps(("stamp", overloads)))


def test_repair_removes_exactly_the_unreadable_files(tmp_path):
    folder = tmp_path / "games_abc"
    folder.mkdir()
    _index(folder / "good.f-1.py311.nbi", {"key": "good.f-1.py311.1.nbc"})
    (folder / "good.f-1.py311.1.nbc").write_bytes(pickle.dumps(("data", b"\x00" * 100)))
    data = pickle.dumps(("data", b"\x01" * 100))
    _index(folder / "cut.g-2.py311.nbi", {"key": "cut.g-2.py311.1.nbc"})
    (folder / "cut.g-2.py311.1.nbc").write_bytes(data[: len(data) // 2])  # truncated
    _index(folder / "junk.h-3.py311.nbi", {})
    (folder / "junk.h-3.py311.1.nbc").write_bytes(b"not a pickle at all")  # garbage
    (folder / "empty.k-4.py311.nbi").write_bytes(b"")  # an empty index and the data it listed
    (folder / "empty.k-4.py311.1.nbc").write_bytes(pickle.dumps(("data", b"")))
    # sound, though it names a module this process cannot import (another program's kernel):
    # the check walks the pickle without running it
    _index(folder / "other.m-5.py311.nbi", {"key": "other.m-5.py311.1.nbc"})
    (folder / "other.m-5.py311.1.nbc").write_bytes(b"cno_such_module\nthing\n.")
    damaged = repair_kernel_cache(tmp_path)
    assert sorted(p.name for p in damaged) == ["cut.g-2.py311.1.nbc", "empty.k-4.py311.nbi", "junk.h-3.py311.1.nbc"]
    assert sorted(p.name for p in folder.iterdir()) == [
        "cut.g-2.py311.nbi",
        "good.f-1.py311.1.nbc",
        "good.f-1.py311.nbi",
        "junk.h-3.py311.nbi",
        "other.m-5.py311.1.nbc",
        "other.m-5.py311.nbi",
    ]
    assert repair_kernel_cache(tmp_path) == []  # nothing left to repair


def _first(folder, pattern: str):
    found = sorted(folder.rglob(pattern))
    assert found, f"no cache file {pattern}"
    return found[0]


def test_a_damaged_cache_is_repaired_and_the_answer_is_right(tmp_path):
    """A copy of the real cache with three kinds of damage: the hand kernels' data files (generic and fixed-rules,
    their compiled loops included) truncated, the game kernel's index emptied and a helper's data file overwritten."""
    spec = get_game("chase-ace")
    policy = spec.default_policy(4)
    expected = {
        mode: simulate(spec, spec.default_rules(), policy, 4, mode, 3, 0, 2000) for mode in (Mode.HANDS, Mode.GAMES)
    }
    copy = tmp_path / "cache" / KERNEL_CACHE_DIR.name
    shutil.copytree(KERNEL_CACHE_DIR, copy)
    # The cache holds one folder per source location (a checkout and an installed copy of
    # the same sources share the cache key): damage the one the subprocess will read.
    folder = copy / _CacheLocator.get_suitable_cache_subpath(chase_ace.__file__)
    # The hand kernels: the compiled wrappers and the loops they call (hand_sums).
    hand_data = [p for p in folder.glob("kernel.*-*.nbc") if "simulate_hands" in p.name or "hand_sums" in p.name]
    assert any("lane_hand_sums" in p.name for p in hand_data)  # the fixed-rules kernel's loop at this policy
    for path in hand_data:
        path.write_bytes(path.read_bytes()[:1000])
    damaged = len(hand_data) + 2
    _first(folder, "kernel.simulate_games_nb-*.nbi").write_bytes(b"")
    helpers = sorted(p for p in folder.glob("*.nbc") if "simulate" not in p.name and p not in hand_data)
    helpers[0].write_bytes(b"garbage" * 100)
    env = {**os.environ, "CARD_ANALYZER_CACHE": str(tmp_path / "cache")}
    for mode, flag in ((Mode.HANDS, "--hands"), (Mode.GAMES, "--games")):
        done = subprocess.run(
            [sys.executable, "-m", "analyzer", "chase-ace", "--players", "4", flag, "2000", "--seed", "3", "--json"],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        warnings = [line for line in done.stderr.splitlines() if line.strip()]
        if mode == Mode.HANDS:  # every damaged file is found at the first failure
            assert len(warnings) == 1 and warnings[0].startswith(
                f"warning: the kernel cache had {damaged} damaged files"
            )
        else:
            assert warnings == []
        from analyzer.run.stats import estimates

        means = [e.mean for e in estimates(expected[mode], spec.outcomes[mode], 2000)]
        assert [r["mean"] for r in json.loads(done.stdout)["results"]] == means
    assert repair_kernel_cache(copy) == []


def test_a_cache_file_of_another_kernel_is_discarded_and_compiled_again(tmp_path):
    """One kernel's sound cache file copied over another's loads without error but gives
    sums of another shape: it is treated as damaged (one warning, compiled again), the
    answer is right, and the next run loads the repaired cache without a word."""
    spec = get_game("chase-ace")
    policy = spec.default_policy(4)
    rules = spec.default_rules()._replace(kings=1)  # kings=none: the generic hand kernel, loaded as it is
    simulate(spec, rules, policy, 4, Mode.GAMES, 3, 0, 10)  # both kernels in the cache
    expected = simulate(spec, rules, policy, 4, Mode.HANDS, 3, 0, 2000)
    copy = tmp_path / "cache" / KERNEL_CACHE_DIR.name
    shutil.copytree(KERNEL_CACHE_DIR, copy)
    folder = copy / _CacheLocator.get_suitable_cache_subpath(chase_ace.__file__)
    hands = _first(folder, "kernel.simulate_hands_nb-*.nbc")
    hands.write_bytes(_first(folder, "kernel.simulate_games_nb-*.nbc").read_bytes())
    env = {**os.environ, "CARD_ANALYZER_CACHE": str(tmp_path / "cache")}
    command = [
        sys.executable,
        "-m",
        "analyzer",
        "chase-ace",
        "--players",
        "4",
        "--hands",
        "2000",
        "--seed",
        "3",
        "--rule",
        "kings=none",
        "--json",
    ]
    from analyzer.run.stats import estimates

    means = [e.mean for e in estimates(expected, spec.outcomes[Mode.HANDS], 2000)]
    for attempt in ("repaired", "clean"):
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr
        warnings = [line for line in done.stderr.splitlines() if line.strip()]
        if attempt == "repaired":
            games_width = spec.outcomes[Mode.GAMES].kernel_width  # the games kernel's sums, in its place
            assert warnings == [
                "warning: the kernel cache held a chase-ace hands kernel that gave sums of shape "
                f"({4 + 1}, {games_width}) int64, not (5, 3) int64; discarded it and compiled the kernel again"
            ]
        else:
            assert warnings == []
        assert [r["mean"] for r in json.loads(done.stdout)["results"]] == means


HOLD_THE_LOCK = """
import sys, time
from sims.engine import compiling_alone
with compiling_alone(sys.argv[1]):
    print(time.monotonic(), flush=True)
    time.sleep(float(sys.argv[2]))
"""


def test_a_process_waits_while_another_compiles_the_same_kernel(tmp_path):
    """Two processes that first need one kernel at once compile it once: the second holds
    off until the first lets the lock go (then loads what the first cached)."""
    env = {**os.environ, "CARD_ANALYZER_CACHE": str(tmp_path)}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_THE_LOCK, "some-kernel", "2"], env=env, stdout=subprocess.PIPE, text=True
    )
    held_at = float(holder.stdout.readline())
    waiter, other = (
        subprocess.Popen([sys.executable, "-c", HOLD_THE_LOCK, name, "0"], env=env, stdout=subprocess.PIPE, text=True)
        for name in ("some-kernel", "another-kernel")
    )
    waited_until, other_at = (float(process.communicate(timeout=60)[0]) for process in (waiter, other))
    holder.wait(timeout=60)
    assert waited_until >= held_at + 2  # it waited for the whole hold
    assert other_at < held_at + 2  # another kernel's lock is its own
    assert {path.name for path in tmp_path.glob("numba-*/locks/*")} == {"some-kernel.lock", "another-kernel.lock"}


def test_each_kernel_has_a_lock_of_its_own():
    """The lock's name says the game, the mode and the kernel, and a fixed-rules kernel's
    rules: two kernels never share one, the same kernel always has the same one."""
    from sims.engine import _kernel_lock_name

    spec = get_game("chase-ace")
    standard = spec.rules_array(spec.default_rules())
    variant = standard.copy()
    variant[0] += 1
    names = {
        _kernel_lock_name(spec, mode, spec.kernel_for(mode, rules), rules)
        for mode in (Mode.HANDS, Mode.GAMES)
        for rules in (standard, variant)
    }
    assert len(names) == 3  # the games kernel is one for any rules; the hands: fixed and any
    assert _kernel_lock_name(spec, Mode.HANDS, spec.kernel_for(Mode.HANDS, standard), standard).startswith(
        "chase-ace-hands-fixed_hands_kernel"
    )
