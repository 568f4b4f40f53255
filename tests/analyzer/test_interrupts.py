"""Ctrl-C and SIGTERM on real ``analyze`` processes: every command stops within about a
second with one line saying what was finished, exit code 130 (143 for SIGTERM), no
traceback, a partial table where one is honest, and no file written for an unfinished run.

Each test starts the command through the console entry (``python -m analyzer``), waits
until it is playing hands (its progress bar, forced on with CARD_ANALYZER_PROGRESS=1, has
appeared), sends the signal and times the exit.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from analyzer.run import interrupts
from analyzer.run.context import RunContext
from analyzer.run.stats import estimates
from analyzer.run.store import INTERRUPTED_WAIT_S
from sims.engine import simulate
from sims.registry import get_game
from sims.spec import Mode

pytestmark = pytest.mark.slow  # signals sent to subprocesses

STOP_WITHIN_S = 2.0  # "about a second", with room for a loaded test machine


RUNNING: list = []  # every process started, killed at the end of its test whatever happened


@pytest.fixture(autouse=True)
def no_process_left_behind():
    yield
    while RUNNING:
        process = RUNNING.pop()
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)


class Running:
    """A command in a subprocess, its output read as it comes."""

    def __init__(self, args: list[str], cwd):
        env = {**os.environ, "CARD_ANALYZER_PROGRESS": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "analyzer", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd
        )
        RUNNING.append(self.process)
        self.out, self.err = bytearray(), bytearray()
        self.readers = [
            threading.Thread(target=self._read, args=(stream, buffer), daemon=True)
            for stream, buffer in ((self.process.stdout, self.out), (self.process.stderr, self.err))
        ]
        for reader in self.readers:
            reader.start()

    @staticmethod
    def _read(stream, buffer: bytearray) -> None:
        while chunk := stream.read1(4096):
            buffer.extend(chunk)

    def wait_until_playing(self, timeout: float = 180.0) -> None:
        """Until the progress bar shows (after a second of playing; compiling may come first)."""
        end = time.monotonic() + timeout
        while b"%" not in self.err:
            assert self.process.poll() is None, f"ended early: {bytes(self.err).decode()}"
            assert time.monotonic() < end, "no progress bar"
            time.sleep(0.05)

    def stop(self, signum: int) -> float:
        """Send ``signum``; the seconds until the process exits."""
        start = time.monotonic()
        self.process.send_signal(signum)
        self.process.wait(timeout=30)
        took = time.monotonic() - start
        for reader in self.readers:
            reader.join(timeout=10)
        return took

    @property
    def stdout(self) -> str:
        return bytes(self.out).decode()

    @property
    def last_line(self) -> str:
        """The last line on stderr, past the progress display's carriage returns and
        terminal control sequences (Rich draws it as on a terminal when it is forced on)."""
        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", bytes(self.err).decode())
        assert "Traceback" not in text, text
        lines = [line.strip() for line in re.split(r"[\r\n]", text) if line.strip()]
        return lines[-1]


def interrupted(args, cwd, signum=signal.SIGINT, within_s: float = STOP_WITHIN_S) -> Running:
    running = Running(args, cwd)
    running.wait_until_playing()
    took = running.stop(signum)
    assert took < within_s, f"took {took:.2f} s to stop"
    assert running.process.returncode == 128 + signum
    return running


def test_ctrl_c_stops_a_long_run_with_a_partial_table_and_no_out_files(tmp_path):
    out = tmp_path / "out"
    running = interrupted(["chase-ace", "--players", "4", "--hands", "1e11", "--out", str(out)], tmp_path)
    match = re.fullmatch(
        r"interrupted \(Ctrl-C\) after ([\d,]+) of 100,000,000,000 hands; the table above is for "
        r"those hands, marked partial; nothing was written to --out",
        running.last_line,
    )
    assert match, running.last_line
    played = match.group(1)
    assert f"Chase the Ace: 4 players, {played} hands" in running.stdout
    assert f"PARTIAL: interrupted after {played} of 100,000,000,000 hands" in running.stdout
    assert not out.exists() or not any(out.iterdir())


def test_sigterm_gives_143_and_the_partial_numbers_are_those_of_a_whole_prefix_of_hands(tmp_path):
    running = interrupted(
        ["chase-ace", "--players", "4", "--hands", "1e11", "--seed", "5", "--json"], tmp_path, signal.SIGTERM
    )
    assert running.last_line.startswith("interrupted (SIGTERM) after ")
    summary = json.loads(running.stdout)
    assert summary["partial"] is True and summary["requested"] == 10**11
    played = summary["hands"]
    assert 0 < played < 10**11
    spec = get_game("chase-ace")
    sums = simulate(spec, spec.default_rules(), spec.default_policy(4), 4, Mode.HANDS, 5, 0, played, threads=2)
    expected = [e.mean for e in estimates(sums, spec.outcomes[Mode.HANDS], played)]
    assert np.allclose([r["mean"] for r in summary["results"]], expected, rtol=1e-12, atol=0)


def test_ctrl_c_stops_a_sweep_with_a_partial_table_of_whole_batches(tmp_path):
    running = interrupted(
        [
            "sweep",
            "chase-ace",
            "--players",
            "4",
            "--param",
            "threshold=3:5",
            "--seat",
            "0",
            "--hands",
            "2e8",
            "--seed",
            "2",
            "--json",
            "--out",
            str(tmp_path / "out"),
        ],
        tmp_path,
    )
    match = re.fullmatch(
        r"interrupted \(Ctrl-C\) after ([\d,]+) of 200,000,000 hands per value; the table above "
        r"is for those hands, marked partial; nothing was written to --out",
        running.last_line,
    )
    assert match, running.last_line
    assert not (tmp_path / "out").exists()
    summary = json.loads(running.stdout)
    played = summary["hands"]
    assert summary["partial"] is True and f"{played:,}" == match.group(1)
    spec = get_game("chase-ace")
    for value in (3, 5):  # every value played the same whole prefix of hands
        policy = spec.default_policy(4)
        policy[0, 0] = value
        sums = simulate(spec, spec.default_rules(), policy, 4, Mode.HANDS, 2, 0, played, threads=2)
        expected = {(e.seat, e.outcome): e.mean for e in estimates(sums, spec.outcomes[Mode.HANDS], played)}
        found = {(r["seat"], r["outcome"]): r["mean"] for r in summary["results"] if r["value"] == value}
        assert found == pytest.approx(expected, rel=1e-12, abs=0)


def test_sigterm_stops_a_comparison_with_a_partial_table(tmp_path):
    running = interrupted(
        ["compare", "chase-ace", "--players", "3", "--variant", "ethier", "--hands", "2e8"], tmp_path, signal.SIGTERM
    )
    match = re.fullmatch(
        r"interrupted \(SIGTERM\) after ([\d,]+) of 200,000,000 hands per arm; the table "
        r"above is for those hands, marked partial",
        running.last_line,
    )
    assert match, running.last_line
    assert f"PARTIAL: interrupted after {match.group(1)} of 200,000,000 hands per arm" in running.stdout
    assert "ethier minus standard:" in running.stdout


def test_a_second_ctrl_c_stops_at_once_without_a_traceback(tmp_path):
    running = Running(["chase-ace", "--players", "4", "--hands", "1e11"], tmp_path)
    running.wait_until_playing()
    start = time.monotonic()
    running.process.send_signal(signal.SIGINT)
    time.sleep(interrupts.SAME_WITHIN_S + 0.05)  # within the window it would be the same interrupt
    running.process.send_signal(signal.SIGINT)
    running.process.wait(timeout=30)
    assert time.monotonic() - start < STOP_WITHIN_S + 1 and running.process.returncode == 130
    for reader in running.readers:
        reader.join(timeout=10)
    assert running.last_line.startswith("interrupted (Ctrl-C) ")  # no traceback (checked there)


def test_sigterm_to_the_process_and_its_group_keeps_the_partial_advice_table(tmp_path):
    """``timeout 3 analyze advise ...`` sends SIGTERM to the process, then to its group,
    milliseconds apart: one interrupt, the partial table and its line, never "again"."""
    running = Running(
        ["advise", "chase-ace", "--players", "6", "--position", "2", "--holding", "5h", "--hands", "1e9"], tmp_path
    )
    running.wait_until_playing()
    start = time.monotonic()
    os.kill(running.process.pid, signal.SIGTERM)
    time.sleep(0.003)
    os.kill(running.process.pid, signal.SIGTERM)
    running.process.wait(timeout=30)
    assert time.monotonic() - start < STOP_WITHIN_S and running.process.returncode == 143
    for reader in running.readers:
        reader.join(timeout=10)
    assert running.last_line.startswith("interrupted (SIGTERM) after ") and "again" not in running.last_line
    assert "(interrupted: a partial result)" in running.stdout


def test_ctrl_c_stops_optimize_and_says_where_it_was(tmp_path):
    running = interrupted(["optimize", "chase-ace", "--players", "4", "--hands", "1e9"], tmp_path)
    assert re.fullmatch(
        r"interrupted \(Ctrl-C\) during the best response of seat 0 of 4 \(threshold\) after "
        r"[\d,]+ hands played; an unfinished search shows nothing",
        running.last_line,
    ), running.last_line
    assert running.stdout == ""


def test_ctrl_c_stops_a_report_and_writes_nothing(tmp_path):
    running = interrupted(["report", "chase-ace", "--hands", "1e9", "--out", str(tmp_path / "reports")], tmp_path)
    assert re.fullmatch(
        r"interrupted \(Ctrl-C\) during 'chase-ace: hands mode' after [\d,]+ hands played; "
        r"the unfinished report was not written",
        running.last_line,
    ), running.last_line
    assert not (tmp_path / "reports" / "chase-ace").exists()


def test_ctrl_c_stops_bench(tmp_path):
    """bench draws no progress bar: the kernel is compiled here first, so that after a few
    seconds the command is surely timing it."""
    spec = get_game("chase-ace")
    simulate(spec, spec.default_rules(), spec.default_policy(4), 4, Mode.HANDS, 0, 0, 10)
    running = Running(["bench", "--game", "chase-ace", "--hands", "1e10"], tmp_path)
    time.sleep(5)
    took = running.stop(signal.SIGINT)
    assert took < STOP_WITHIN_S and running.process.returncode == 130
    assert running.last_line == "interrupted (Ctrl-C) before the first table was measured"


def _handlers_installed(pid: int) -> bool:
    """Whether the process has installed its handlers, read off its caught-signals mask:
    Python catches SIGINT from the start, so the sign is SIGTERM, installed after it."""
    with open(f"/proc/{pid}/status") as status:
        caught = next(line for line in status if line.startswith("SigCgt:")).split()[1]
    return bool(int(caught, 16) & (1 << (signal.SIGTERM - 1)))


def test_ctrl_c_while_starting_is_one_line_too(tmp_path):
    running = Running(["chase-ace", "--hands", "1e9"], tmp_path)
    if os.path.exists(f"/proc/{running.process.pid}/status"):
        while not _handlers_installed(running.process.pid):  # the handler goes in before the heavy imports
            time.sleep(0.005)
    else:  # pragma: no cover - not Linux
        time.sleep(0.3)
    running.stop(signal.SIGINT)
    assert running.process.returncode == 130
    assert running.last_line.startswith("interrupted (Ctrl-C)")
    assert len([line for line in bytes(running.err).decode().splitlines() if line.strip()]) == 1


def test_an_exact_enumeration_stops_at_once(tmp_path):
    """exact runs plain Python (about 5 s for 5 players): the signal stops it where it is."""
    running = Running(["exact", "chase-ace", "--players", "5"], tmp_path)
    time.sleep(1.5)
    if running.process.poll() is not None:
        pytest.skip("finished before the signal")
    took = running.stop(signal.SIGINT)
    assert took < STOP_WITHIN_S and running.process.returncode == 130
    assert running.last_line.startswith("interrupted (Ctrl-C)")


# ------------------------------------------------------------------------------ in process: the runners' logic


@pytest.fixture
def signal_after_call(monkeypatch):
    """Make the n-th call of play_jobs return its full result with a SIGINT pending, as
    when the signal comes while its last piece is being played."""
    from analyzer.run import interrupts, runner

    real = runner.play_jobs
    calls = []

    def arm(n: int) -> None:
        def play(*args, **kwargs):
            calls.append(1)
            found = real(*args, **kwargs)
            if len(calls) == n:
                interrupts._state.requested = signal.SIGINT
            return found

        monkeypatch.setattr(runner, "play_jobs", play)

    yield arm
    interrupts.reset()


def _table():
    from analyzer.run.params import Table

    spec = get_game("chase-ace")
    return spec, Table(4, tuple(spec.default_rules()), spec.default_policy(4), None, "default")


def test_a_signal_during_the_last_piece_keeps_the_complete_run(signal_after_call):
    from analyzer.run.runner import run

    spec, table = _table()
    signal_after_call(1)
    result = run(spec, table, Mode.HANDS, 0, 30_000, context=RunContext(threads=2))
    assert result.count == 30_000 and not result.partial


def test_a_signal_between_checkpoints_gives_the_run_up_to_the_checkpoint(signal_after_call):
    from analyzer.run.interrupts import Interrupted
    from analyzer.run.runner import run

    spec, table = _table()
    signal_after_call(2)  # during the second segment, 10,000 to 12,000
    with pytest.raises(Interrupted) as stop:
        run(spec, table, Mode.HANDS, 0, 10**6, context=RunContext(threads=2), target_se=1e-9)
    partial = stop.value.partial
    assert partial.partial and partial.count == 12_000 and partial.requested == 10**6
    assert np.array_equal(partial.sums, simulate(spec, spec.default_rules(), table.policy, 4, Mode.HANDS, 0, 0, 12_000))


def test_a_signal_between_rounds_of_batches_gives_the_whole_rounds(signal_after_call):
    from analyzer.run import interrupts
    from analyzer.run.interrupts import Interrupted
    from analyzer.run.runner import Config, run_paired

    spec, table = _table()
    configs = [Config(table.rules, table.policy), Config(table.rules, table.policy + 0.0)]
    signal_after_call(1)
    with pytest.raises(Interrupted) as stop:
        run_paired(spec, 4, Mode.HANDS, 0, configs, 10**6, context=RunContext(threads=2))
    partial = stop.value.partial
    from analyzer.run.runner import first_batch

    assert partial.interrupted and len(partial.sizes) == 32 and partial.count == 32 * first_batch(10**6, False)
    interrupts.reset()
    for index in range(2):  # every configuration played the same whole prefix of hands
        assert np.array_equal(
            partial.sums(index), simulate(spec, spec.default_rules(), table.policy, 4, Mode.HANDS, 0, 0, partial.count)
        )
    signal_after_call(1)
    complete = run_paired(
        spec, 4, Mode.HANDS, 0, configs, 20_000, context=RunContext(threads=2)
    )  # one round: all of it was played
    assert not complete.interrupted and complete.count == 20_000


def _frame_of(name: str, filename: str):
    """A real frame of a function called ``name`` defined in ``filename``."""
    scope: dict = {"sys": sys}
    exec(compile(f"def {name}():\n    return sys._getframe()\n", filename, "exec"), scope)
    return scope[name]()


def test_a_signal_where_its_exception_would_be_dropped_comes_again():
    """In a finaliser or in llvmlite's ctypes callbacks (LLVM calls back into Python while
    compiling) an exception is printed and dropped, which left a compile running for 17 s or
    broke it with a traceback: there the handler raises nothing and the signal comes again
    a moment later, where it stops the program."""
    assert interrupts._swallowed_here(_frame_of("__del__", "objects.py"))
    assert interrupts._swallowed_here(_frame_of("_raw_object_cache_notify", "/x/llvmlite/binding/executionengine.py"))
    assert not interrupts._swallowed_here(_frame_of("compile", "/x/numba/core/compiler.py"))
    assert not interrupts._swallowed_here(sys._getframe())

    saved = {signum: signal.getsignal(signum) for signum in interrupts.SIGNAL_NAMES}
    interrupts.install()
    try:
        with pytest.raises(interrupts.Interrupted) as stop:
            interrupts._handler(signal.SIGINT, _frame_of("_raw_object_cache_notify", "/x/llvmlite/binding/ee.py"))
            assert not interrupts.requested()  # nothing raised and nothing recorded: not handled yet
            time.sleep(2.0)  # the signal comes again within RESEND_S and raises here
        assert stop.value.signum == signal.SIGINT and not stop.value.forced
    finally:
        interrupts.reset()
        for signum, handler in saved.items():
            signal.signal(signum, handler)


def test_ctrl_c_during_a_first_compile_abandons_it_at_once(tmp_path):
    """Compiling a kernel takes seconds and cannot stop between pieces: the first signal
    abandons it (it used to finish first, 5 to 13 s), and the next run compiles again."""
    env = {**os.environ, "CARD_ANALYZER_CACHE": str(tmp_path / "cache")}
    process = subprocess.Popen(
        [sys.executable, "-m", "analyzer", "chase-ace", "--hands", "1e6"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    RUNNING.append(process)
    time.sleep(3.0)  # imported, compiling (a compile takes about 10 s)
    assert process.poll() is None
    start = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert time.monotonic() - start < STOP_WITHIN_S
    assert process.returncode == 130
    assert err == (
        "interrupted (Ctrl-C) while compiling or loading the kernels, which was abandoned (the next run "
        "does it again); before any of the hands finished\n"
    )


def test_ctrl_c_to_the_process_group_stops_a_local_cluster_run_in_one_line(tmp_path):
    """A terminal's Ctrl-C reaches the whole process group: the cluster's workers ignore
    it, the command stops its run, closes the cluster and says one line (it used to hang
    until a second signal while the workers printed 60-80 lines of tracebacks)."""
    env = {**os.environ, "CARD_ANALYZER_PROGRESS": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "analyzer", "chase-ace", "--hands", "1e10", "--cluster", "local:2"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    RUNNING.append(process)
    err = bytearray()
    reader = threading.Thread(
        target=lambda: [err.extend(chunk) for chunk in iter(lambda: process.stderr.read1(4096), b"")], daemon=True
    )
    reader.start()
    end = time.monotonic() + 240
    while b"%" not in err:  # playing on the workers
        assert process.poll() is None, bytes(err).decode()
        assert time.monotonic() < end, "no progress bar"
        time.sleep(0.1)
    start = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)

    def group() -> list[str]:
        return subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True, text=True).stdout.split()

    try:
        process.wait(timeout=30)
        took = time.monotonic() - start
        end = time.monotonic() + 10  # the workers and the resource tracker leave as their pipes close
        while group() and time.monotonic() < end:
            time.sleep(0.1)
    finally:
        group_left = [" ".join(open(f"/proc/{pid}/cmdline").read().split("\0")) for pid in group()]
        for pid in group():
            os.kill(int(pid), signal.SIGKILL)
    reader.join(timeout=10)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", bytes(err).decode())
    lines = [line.strip() for line in re.split(r"[\r\n]", text) if line.strip() and "%" not in line]
    assert process.returncode == 130, text
    assert took < 5.0, f"took {took:.1f} s"  # the run stops within a second; closing the cluster takes the rest
    assert len(lines) == 1 and lines[0].startswith("interrupted (Ctrl-C) after "), text
    assert group_left == [], f"outlived the command: {group_left}"


def test_ctrl_c_while_another_process_holds_the_store_lock(tmp_path):
    """The run never waits for the lock while playing, and the first signal is not held up
    by it either (it used to wait 26-36 s): what could not be stored is said in one warning."""
    import sqlite3

    path = tmp_path / "store.sqlite"
    subprocess.run(
        [sys.executable, "-m", "analyzer", "chase-ace", "--hands", "1000", "--store", str(path)],
        check=True,
        capture_output=True,
    )
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:  # the stop waits INTERRUPTED_WAIT_S for the lock, on top of the usual stop
        running = interrupted(
            ["chase-ace", "--hands", "1e10", "--store", str(path)],
            tmp_path,
            within_s=STOP_WITHIN_S + INTERRUPTED_WAIT_S,
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert running.last_line.startswith("interrupted (Ctrl-C) after ")
    text = bytes(running.err).decode()
    assert re.search(
        r"warning: the result store .* was locked by another process for [0-9] s; the last "
        r"[0-9,]+ hands played were not stored",
        text,
    ), text
