"""Compiling a command's kernels ahead, in processes of their own (sims/precompile.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sims import kernel_cache_dir
from sims.precompile import OFF_VARIABLE, compiled_ahead, compiling_ahead, kernel_steps
from sims.registry import get_game
from tests.sims.test_kernel_cache import HOLD_THE_LOCK

TRY_THE_LOCK = """
from sims import engine
engine.SKIP_BUSY_KERNELS = True
try:
    with engine.compiling_alone("some-kernel"):
        print("held")
except engine.KernelBusy:
    print("busy")
"""


def test_a_process_compiling_ahead_skips_a_kernel_another_is_compiling(tmp_path):
    """A process compiling ahead never waits: where another holds the kernel's lock it
    hears KernelBusy at once and moves on; once the lock is free it takes it."""
    env = {**os.environ, "CARD_ANALYZER_CACHE": str(tmp_path)}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_THE_LOCK, "some-kernel", "60"], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        float(holder.stdout.readline())  # it holds the lock from then on
        started = time.monotonic()
        tried = subprocess.run(
            [sys.executable, "-c", TRY_THE_LOCK], env=env, capture_output=True, text=True, timeout=50
        )
        assert tried.stdout.strip() == "busy", tried.stderr
        assert time.monotonic() - started < 50
    finally:
        holder.kill()
        holder.wait()
    again = subprocess.run([sys.executable, "-c", TRY_THE_LOCK], env=env, capture_output=True, text=True, timeout=60)
    assert again.stdout.strip() == "held", again.stderr


def test_every_kernel_of_a_game_compiles_ahead_once_then_is_marked(monkeypatch):
    """Two processes compile (or load) every kernel of a game into the session's cache and
    mark it; a later command starts none for it, nor on one core, nor when turned off."""
    monkeypatch.delenv(OFF_VARIABLE, raising=False)
    spec = get_game("chase-ace")
    cache = kernel_cache_dir()
    assert cache is not None
    for mark in (cache / "ahead").glob("chase-ace*"):
        mark.unlink()
    assert not compiled_ahead("chase-ace")
    with compiling_ahead([spec], jobs=1) as ahead:
        assert (ahead.games, ahead.processes) == ([], [])
    with compiling_ahead([spec], jobs=2) as ahead:
        assert ahead.games == ["chase-ace"]
        assert len(ahead.processes) == 2
        ahead.wait()
    assert [process.returncode for process in ahead.processes] == [0, 0]
    assert compiled_ahead("chase-ace")
    kinds = {kind for _, kind, _ in kernel_steps(spec)}
    assert {"hands", "games", "advise swap"} <= kinds
    marked = {path.name.removeprefix("chase-ace.") for path in (cache / "ahead").glob("chase-ace.*")}
    assert marked and marked <= {kind.replace(" ", "_") for kind in kinds}
    with compiling_ahead([spec], jobs=2) as ahead:
        assert (ahead.games, ahead.processes) == ([], [])
    (cache / "ahead" / "chase-ace").unlink()
    monkeypatch.setenv(OFF_VARIABLE, "0")
    with compiling_ahead([spec], jobs=2) as ahead:
        assert (ahead.games, ahead.processes) == ([], [])
    monkeypatch.delenv(OFF_VARIABLE)
    (cache / "ahead" / "chase-ace").touch()


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


@pytest.mark.skipif(not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(), reason="Linux /proc")
def test_an_interrupted_report_stops_the_processes_compiling_ahead(tmp_path):
    """Ctrl-C during a report's first run (empty kernel cache): one line, exit code 130,
    and the processes compiling ahead are gone, with nothing marked."""
    env = {**os.environ, "CARD_ANALYZER_CACHE": str(tmp_path / "cache"), OFF_VARIABLE: "1"}
    command = [sys.executable, "-m", "analyzer", "report", "fight-for-the-lead", "--hands", "1e4", "--no-store"]
    report = subprocess.Popen(
        [*command, "--out", str(tmp_path / "out")], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 60
    while len(children := _children(report.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(children) == 2
    time.sleep(1)
    report.send_signal(signal.SIGINT)
    out, err = report.communicate(timeout=60)
    assert report.returncode == 130, err
    assert err.strip().splitlines()[-1].startswith("interrupted (Ctrl-C)")
    assert "Traceback" not in err and "warning" not in err.lower()
    for child in children:
        assert not Path(f"/proc/{child}").exists()  # killed and reaped
    assert not list(tmp_path.glob("cache/numba-*/ahead/fight-for-the-lead"))
