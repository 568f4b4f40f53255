"""The result store: stored answers are reused bit for bit, extended, resumed after a kill,
shared by concurrent writers, keyed by everything that decides them, and a file that is
not a store is refused without being altered."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from analyzer.run import store as store_module
from analyzer.run.context import open_context
from analyzer.run.params import resolve_table
from analyzer.run.runner import Config, run, run_paired
from analyzer.run.store import ResultStore
from sims import engine
from sims.registry import get_game
from sims.spec import Mode


def table(game: str, players: int, rules=(), policy=()):
    return resolve_table(
        get_game(game),
        players,
        None,
        dict(text.split("=") for text in rules),
        None,
        dict(text.split("=") for text in policy),
        {},
    )


def plain(game, tab, mode, seed, count):
    with open_context(store=False) as context:
        return run(get_game(game), tab, mode, seed, count, context)


@pytest.fixture
def counted(monkeypatch):
    """Counts the items the engine is asked to play (0 when the store answers everything)."""
    asked = []
    real = engine.play_jobs

    def play_jobs(spec, jobs, *args, **kwargs):
        asked.extend(int(job[3]) for job in jobs)
        return real(spec, jobs, *args, **kwargs)

    monkeypatch.setattr(engine, "play_jobs", play_jobs)
    return asked


@pytest.mark.parametrize(
    "game, mode, players, count",
    [
        ("chase-ace", Mode.HANDS, 6, 40_000),
        ("all-fours", Mode.GAMES, 2, 1_500),
        ("spoil-five", Mode.GAMES, 4, 900),
        ("fight-for-the-lead", Mode.GAMES, 4, 300),
    ],
)  # wide sums, maxima
def test_a_run_extended_equals_one_run_bit_for_bit(tmp_path, counted, game, mode, players, count):
    spec = get_game(game)
    tab = table(game, players)
    whole = plain(game, tab, mode, 11, 2 * count)
    counted.clear()
    path = tmp_path / "store.sqlite"
    with open_context(store=path) as context:
        half = run(spec, tab, mode, 11, count, context)
    assert sum(counted) == count
    with open_context(store=path) as context:
        extended = run(spec, tab, mode, 11, 2 * count, context)
    assert sum(counted) == 2 * count  # only the new hands were played
    assert extended.count == 2 * count
    assert np.array_equal(extended.sums, whole.sums)
    assert np.array_equal(half.sums, plain(game, tab, mode, 11, count).sums)


def test_a_stored_answer_is_reused_without_a_kernel_call(tmp_path, monkeypatch):
    spec = get_game("chase-ace")
    tab = table("chase-ace", 8)
    path = tmp_path / "store.sqlite"
    with open_context(store=path) as context:
        first = run(spec, tab, Mode.HANDS, 3, 50_000, context)

    def no_kernel(*args, **kwargs):
        raise AssertionError("the kernel was called")

    monkeypatch.setattr(engine, "play_jobs", no_kernel)
    monkeypatch.setattr(engine, "ready_kernel", no_kernel)
    with open_context(store=path) as context:
        again = run(spec, tab, Mode.HANDS, 3, 50_000, context)
    assert np.array_equal(again.sums, first.sums) and again.count == 50_000
    assert again.load_s == 0.0


@pytest.mark.parametrize("change", ["rule", "policy", "seed", "players", "mode", "kernel"])
def test_a_changed_key_is_not_answered_from_the_store(tmp_path, counted, monkeypatch, change):
    spec = get_game("chase-ace")
    path = tmp_path / "store.sqlite"
    with open_context(store=path) as context:
        run(spec, table("chase-ace", 5), Mode.HANDS, 3, 20_000, context)
    counted.clear()
    tab, mode, seed = table("chase-ace", 5), Mode.HANDS, 3
    if change == "rule":
        tab = table("chase-ace", 5, rules=["kings=none"])
    elif change == "policy":
        tab = table("chase-ace", 5, policy=["threshold=6"])
    elif change == "seed":
        seed = 4
    elif change == "players":
        tab = table("chase-ace", 6)
    elif change == "mode":
        mode = Mode.GAMES
    else:  # a newer kernel: its sources hash differently
        monkeypatch.setitem(engine._KERNEL_HASHES, spec.name, "0" * 16)
    with open_context(store=path) as context:
        found = run(spec, tab, mode, seed, 20_000 if mode == Mode.HANDS else 300, context)
    assert sum(counted) == found.count  # every hand played again
    assert np.array_equal(found.sums, plain("chase-ace", tab, mode, seed, found.count).sums)


def test_paired_runs_reuse_their_batches(tmp_path, counted):
    spec = get_game("chase-ace")
    rules = spec.default_rules()
    configs = [Config(rules, spec.default_policy(5)), Config(rules._replace(kings=1), spec.default_policy(5))]
    with open_context(store=False) as context:
        expected = run_paired(spec, 5, Mode.HANDS, 9, configs, 20_000, context)
    path = tmp_path / "store.sqlite"
    with open_context(store=path) as context:
        run_paired(spec, 5, Mode.HANDS, 9, configs[:1], 20_000, context)
    counted.clear()
    with open_context(store=path) as context:  # the first arm is stored: only the second is played
        found = run_paired(spec, 5, Mode.HANDS, 9, configs, 20_000, context)
    assert sum(counted) == 20_000
    assert all(
        np.array_equal(a, b)
        for arm_a, arm_b in zip(found.batch_sums, expected.batch_sums)
        for a, b in zip(arm_a, arm_b)
    )
    assert found.sizes == expected.sizes


def _stored(path) -> int:
    """Hands held by the store's blocks (0 while it has none, or none yet)."""
    try:
        probe = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            return probe.execute("SELECT coalesce(sum(count), 0) FROM blocks").fetchone()[0]
        finally:
            probe.close()
    except sqlite3.Error:
        return 0


@pytest.mark.slow
def test_a_killed_run_resumes_and_ends_equal_to_an_uninterrupted_run(tmp_path):
    """A real subprocess killed with SIGKILL part-way keeps its finished blocks; the same
    command then plays only the rest and prints what an uninterrupted run prints."""
    path = tmp_path / "store.sqlite"
    command = [
        sys.executable,
        "-m",
        "analyzer",
        "chase-ace",
        "--players",
        "8",
        "--hands",
        "1e8",  # about 4 s on one thread in lanes: 3e7 could finish before the kill
        "--seed",
        "5",
        "--threads",
        "1",
        "--json",
    ]
    env = {**os.environ, "CARD_ANALYZER_STORE": str(path)}
    killed = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    while _stored(path) < 2_000_000 and killed.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert killed.poll() is None, "the run ended before it could be killed"
    killed.send_signal(signal.SIGKILL)
    killed.wait(timeout=60)
    assert _stored(path) >= 2_000_000
    opened = ResultStore(path)
    try:
        stored = sum(
            segment.count
            for segment in opened.cover(
                get_game("chase-ace"),
                Mode.HANDS,
                8,
                5,
                [(get_game("chase-ace").default_rules(), get_game("chase-ace").default_policy(8), 0, 100_000_000)],
            )[0]
            if segment.sums is not None
        )
    finally:
        opened.close()
    assert 0 < stored < 100_000_000
    resumed = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["from_store"] == stored  # only the rest was played
    uninterrupted = subprocess.run(
        command, env={**os.environ, "CARD_ANALYZER_STORE": "off"}, capture_output=True, text=True, timeout=600
    )
    assert json.loads(resumed.stdout)["results"] == json.loads(uninterrupted.stdout)["results"]


WRITER = """
import sys
from analyzer.run.context import open_context
from analyzer.run.params import resolve_table
from analyzer.run.runner import run
from sims.registry import get_game
from sims.spec import Mode
spec = get_game("chase-ace")
with open_context(store=sys.argv[1]) as context:
    for seed in range(int(sys.argv[2]), int(sys.argv[2]) + 4):
        run(spec, resolve_table(spec, 4, None, {}, None, {}, {}), Mode.HANDS, seed, 200_000, context)
"""


@pytest.mark.slow
def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    path = tmp_path / "store.sqlite"
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(first)], stderr=subprocess.PIPE)
        for first in (0, 100)
    ]
    for writer in writers:
        assert writer.wait(timeout=600) == 0, writer.stderr.read().decode()
    spec = get_game("chase-ace")
    opened = ResultStore(path)
    try:
        entries = opened.entries()
        assert sorted(e.seed for e in entries) == [0, 1, 2, 3, 100, 101, 102, 103]
        assert all(e.hands == 200_000 for e in entries)
        for seed in (2, 101):
            segments = opened.cover(
                spec, Mode.HANDS, 4, seed, [(spec.default_rules(), spec.default_policy(4), 0, 200_000)]
            )[0]
            assert len(segments) == 1 and segments[0].sums is not None
            assert np.array_equal(
                segments[0].sums, plain("chase-ace", table("chase-ace", 4), Mode.HANDS, seed, 200_000).sums
            )
    finally:
        opened.close()


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("kind", ["text", "foreign database", "foreign WAL database", "damaged database", "folder"])
def test_a_file_that_is_not_a_store_is_refused_and_left_alone(tmp_path, kind):
    path = tmp_path / "given"
    if kind == "text":
        path.write_text("game,seat\nchase-ace,1\n")
    elif kind.startswith("foreign"):
        other = sqlite3.connect(path)
        if "WAL" in kind:
            other.execute("PRAGMA journal_mode = WAL")
        other.execute("CREATE TABLE notes (text TEXT)")
        other.execute("INSERT INTO notes VALUES ('mine')")
        other.commit()
        other.close()
    elif kind == "damaged database":
        path.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 20)
    else:
        path.mkdir()
    before = _digest(path) if path.is_file() else None
    with pytest.raises(ValueError) as refused:
        with open_context(store=path):
            pass
    sentence = str(refused.value)
    assert sentence.startswith(f"--store {path} is ") and sentence.endswith(".") and "\n" not in sentence
    if before is not None:
        assert _digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["given"]  # no journal or WAL file left beside it


def test_store_command_lists_and_removes(tmp_path, cli):
    path = tmp_path / "store.sqlite"
    spec = get_game("chase-ace")
    with open_context(store=path) as context:
        run(spec, table("chase-ace", 4), Mode.HANDS, 1, 5_000, context)
        run(spec, table("chase-ace", 4, rules=["kings=none"]), Mode.HANDS, 1, 7_000, context)
        run(get_game("all-fours"), table("all-fours", 2), Mode.GAMES, 2, 100, context)
    listed = cli("store", "--store", str(path))
    assert listed.exit_code == 0
    assert "chase-ace  hands  4        1     5,000" in listed.stdout
    assert "kings=none" in listed.stdout and "all-fours" in listed.stdout
    entries = json.loads(cli("store", "--store", str(path), "--json").stdout)["entries"]
    assert [(e["game"], e["mode"], e.get("hands", e.get("games"))) for e in entries] == [
        ("chase-ace", "hands", 5_000),
        ("chase-ace", "hands", 7_000),
        ("all-fours", "games", 100),
    ]
    removed = cli("store", "--store", str(path), "--remove", str(entries[1]["id"]))
    assert removed.exit_code == 0 and "removed 1 entry" in removed.stdout
    assert cli("store", "--store", str(path), "--remove", "999").exit_code == 2
    assert cli("store", "--store", str(path), "--prune").stdout.startswith("removed 0 entries")
    assert cli("store", "--store", str(path), "--game", "all-fours", "--clear").stdout.startswith("removed 1 entry")
    left = json.loads(cli("store", "--store", str(path), "--json").stdout)["entries"]
    assert [e["game"] for e in left] == ["chase-ace"]
    foreign = tmp_path / "notes.txt"
    foreign.write_text("hello")
    refused = cli("store", "--store", str(foreign))
    assert (
        refused.exit_code == 2
        and refused.stderr.count("\n") == 1
        and "not a card-analyzer result store" in refused.stderr
    )


def test_an_old_kernels_entries_are_pruned(tmp_path, cli, monkeypatch):
    path = tmp_path / "store.sqlite"
    spec = get_game("chase-ace")
    monkeypatch.setitem(engine._KERNEL_HASHES, spec.name, "f" * 16)  # as an older kernel wrote it
    with open_context(store=path) as context:
        run(spec, table("chase-ace", 4), Mode.HANDS, 1, 3_000, context)
    monkeypatch.delitem(engine._KERNEL_HASHES, spec.name)
    listed = cli("store", "--store", str(path))
    assert " old " in listed.stdout and "--prune" in listed.stdout
    assert cli("store", "--store", str(path), "--prune").stdout.startswith("removed 1 entry")


def test_an_unusable_default_store_is_a_warning_and_the_run_goes_on(tmp_path, monkeypatch, caplog):
    foreign = tmp_path / "results.sqlite"
    foreign.write_text("not a database")
    monkeypatch.setenv("CARD_ANALYZER_STORE", str(foreign))
    monkeypatch.setattr(logging.getLogger("card_analyzer"), "propagate", True)  # the CLI turns it off
    spec = get_game("chase-ace")
    with open_context() as context:
        assert context.store is None
        found = run(spec, table("chase-ace", 4), Mode.HANDS, 1, 2_000, context)
    assert np.array_equal(found.sums, plain("chase-ace", table("chase-ace", 4), Mode.HANDS, 1, 2_000).sums)
    assert {record.getMessage() for record in caplog.records} == {
        f"the result store {foreign} is not a card-analyzer result store (it is not an SQLite database); running "
        f"without it (CARD_ANALYZER_STORE=PATH picks another file)"
    }
    assert foreign.read_text() == "not a database"


def test_the_command_line_reuses_extends_and_skips_the_store(tmp_path, cli, counted):
    path = str(tmp_path / "store.sqlite")
    base = ["chase-ace", "--players", "6", "--seed", "4", "--threads", "1", "--json"]
    first = json.loads(cli(*base, "--hands", "30000", "--store", path).stdout)
    assert sum(counted) == 30_000
    again = json.loads(cli(*base, "--hands", "30000", "--store", path).stdout)
    assert sum(counted) == 30_000 and again["results"] == first["results"] and again["kernel_load_s"] == 0
    extended = json.loads(cli(*base, "--hands", "60000", "--store", path).stdout)
    assert sum(counted) == 60_000
    assert extended["results"] == json.loads(cli(*base, "--hands", "60000", "--no-store").stdout)["results"]
    assert sum(counted) == 120_000  # --no-store plays every hand
    both = cli(*base, "--hands", "100", "--store", path, "--no-store")
    assert both.exit_code == 2 and both.stderr == "error: give either --store or --no-store, not both.\n"
    swept = ["sweep", "chase-ace", "--param", "threshold=6:8", "--hands", "3000", "--json", "--store", path]
    assert json.loads(cli(*swept).stdout) == json.loads(cli(*swept).stdout)
    assert sum(counted) == 120_000 + 3 * 3_000  # the second sweep was answered from the store


def test_a_damaged_store_of_ours_is_one_sentence(tmp_path):
    path = tmp_path / "store.sqlite"
    spec = get_game("chase-ace")
    with open_context(store=path) as context:
        run(spec, table("chase-ace", 4), Mode.HANDS, 1, 20_000, context)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 2 * page
    data[page:] = bytes(range(256)) * ((len(data) - page) // 256) + bytes((len(data) - page) % 256)
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError) as refused:
        with open_context(store=path) as context:
            run(spec, table("chase-ace", 4), Mode.HANDS, 1, 20_000, context)
    assert str(refused.value).startswith(f"--store {path} is not a card-analyzer result store (it could not be read: ")
    assert "\n" not in str(refused.value)


def test_processes_creating_one_store_at_once_all_open_it(tmp_path):
    """A new store appears whole (built aside, then linked into place): nobody sees a
    half-made file and calls it another program's database."""
    import threading

    for attempt in range(10):
        path = tmp_path / f"store{attempt}.sqlite"
        gate = threading.Barrier(4)
        problems = []

        def open_it():
            gate.wait()
            try:
                ResultStore(path).close()
            except ValueError as problem:
                problems.append(str(problem))

        openers = [threading.Thread(target=open_it) for _ in range(4)]
        for opener in openers:
            opener.start()
        for opener in openers:
            opener.join()
        assert problems == []
    # nothing left but the stores (and SQLite's own -wal/-shm files beside them)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [
        f"store{k}.sqlite" for k in range(10)
    ]


class _FullDisk:
    """An SQLite connection on a disk that fills up: every write fails as SQLite says."""

    def __init__(self, real):
        self.real = real

    def execute(self, sql, *args):
        if sql.lstrip().upper().startswith(("INSERT", "DELETE", "UPDATE")):
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(sql, *args)

    def executemany(self, sql, *args):
        raise sqlite3.OperationalError("database or disk is full")

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_a_failed_write_is_one_warning_and_the_run_goes_on(tmp_path, monkeypatch, caplog):
    real_connect = ResultStore._connect

    def connect_full(self):
        real_connect(self)
        self.db = _FullDisk(self.db)

    monkeypatch.setattr(ResultStore, "_connect", connect_full)
    monkeypatch.setattr(logging.getLogger("card_analyzer"), "propagate", True)
    spec = get_game("chase-ace")
    path = tmp_path / "store.sqlite"
    with open_context(store=path) as context:
        found = run(spec, table("chase-ace", 4), Mode.HANDS, 1, 30_000, context)
    assert np.array_equal(found.sums, plain("chase-ace", table("chase-ace", 4), Mode.HANDS, 1, 30_000).sums)
    assert {record.getMessage() for record in caplog.records} == {
        f"the result store {path} could not be written (database or disk is full); the run goes on without storing"
    }
    assert len({id(record) for record in caplog.records}) == 1  # one warning (caplog may hold it twice)


def test_the_kernel_hash_follows_the_game_and_core_sources(tmp_path, monkeypatch):
    import shutil

    import sims

    copy = tmp_path / "sims"
    shutil.copytree(Path(sims.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    spec = get_game("spoil-five")
    real = engine.kernel_hash(spec)
    monkeypatch.setattr(engine, "__file__", str(copy / "engine.py"))

    def fresh() -> str:
        engine._KERNEL_HASHES.clear()
        return engine.kernel_hash(spec)

    assert fresh() == real
    for twin in (copy / "games" / "spoil_five" / "twin.py", copy / "core" / "twins.py"):
        twin.write_text("# a twin does not decide the kernel's sums\n")
        assert fresh() == real, twin
    for edited in (copy / "core" / "deck.py", copy / "games" / "spoil_five" / "kernel.py", copy / "spec.py"):
        original = edited.read_text()
        edited.write_text(original + "\n# edited\n")
        assert fresh() != real, edited
        edited.write_text(original)
    assert fresh() == real
    engine._KERNEL_HASHES.clear()


@pytest.mark.parametrize("stored_first, expected_from_store", [(20_000, 0), (0, 20_000)])
def test_a_stopped_run_counts_only_the_stored_hands_of_its_finished_prefix(tmp_path, stored_first, expected_from_store):
    """Stored hands after the first unfinished gap are not part of a stopped run's result,
    so they are not counted as read from the store either."""
    from analyzer.run import execution

    spec, tab = get_game("chase-ace"), table("chase-ace", 4)
    job = (tab.rules, tab.policy)
    with open_context(store=tmp_path / "store.sqlite") as context:
        execution.play_jobs(spec, [(*job, stored_first, 20_000)], 4, Mode.HANDS, 5, context)
        with pytest.raises(engine.Stopped) as caught:
            execution.play_jobs(spec, [(*job, 0, 40_000)], 4, Mode.HANDS, 5, context, stop=lambda: True)
    stopped = caught.value
    assert stopped.from_store == [expected_from_store]
    assert stopped.played[0] < 40_000
    assert stopped.from_store[0] <= stopped.played[0]


# ------------------------------------------------------------------------------ issue 25: cost and faults


def _rows(path) -> list[tuple]:
    probe = sqlite3.connect(path)
    try:
        return probe.execute(
            "SELECT config_id, first, count, parts, complete FROM blocks ORDER BY config_id, first"
        ).fetchall()
    finally:
        probe.close()


def test_commits_are_grouped_about_once_a_second(tmp_path, monkeypatch):
    """A paired run of many small pieces commits once a flush interval and at the end, not
    once a piece (each commit pays an fsync: 41,766 of them made optimize 4.8x slower).
    The interval is shortened to a tenth of a second here to keep the test short."""
    commits, ticks = [], []
    real_commit, real_tick = ResultStore.commit, ResultStore.tick

    def counted_commit(self):
        before = self.db.total_changes
        done = real_commit(self)
        if self.db.total_changes != before:
            commits.append(time.monotonic())
        return done

    def counted_tick(self):
        ticks.append(1)
        real_tick(self)

    monkeypatch.setattr(ResultStore, "commit", counted_commit)
    monkeypatch.setattr(ResultStore, "tick", counted_tick)
    monkeypatch.setattr(ResultStore, "flush_seconds", 0.1)
    monkeypatch.setattr(engine, "PIECE_SECONDS", 0.001)  # many small pieces, as optimize and report make
    spec = get_game("chase-ace")
    rules = spec.default_rules()
    configs = [
        Config(rules, spec.default_policy(6)),
        Config(rules._replace(kings=1), spec.default_policy(6)),
        Config(rules._replace(ace_high=True), spec.default_policy(6)),
    ]
    path = tmp_path / "store.sqlite"
    start = time.monotonic()
    with open_context(store=path) as context:
        stored = run_paired(spec, 6, Mode.HANDS, 3, configs, 2_000_000, context)
    took = time.monotonic() - start
    assert len(ticks) > 300  # pieces finished
    assert 2 <= len(commits) <= took / 0.1 + 3 and len(commits) < len(ticks) / 10, (len(commits), len(ticks), took)
    with open_context(store=False) as context:
        expected = run_paired(spec, 6, Mode.HANDS, 3, configs, 2_000_000, context)
    assert all(
        np.array_equal(a, b)
        for arm_a, arm_b in zip(stored.batch_sums, expected.batch_sums)
        for a, b in zip(arm_a, arm_b)
    )
    # whole batches of each arm, one block per arm and round of 32 batches (not one per piece)
    rows = _rows(path)
    assert all(complete for *_, complete in rows)
    assert len(rows) == 3 * 4 and all(parts.count(",") == 31 for *_, parts, _ in rows)


def test_the_same_runs_again_do_not_grow_the_store_and_an_extension_replaces_its_prefix(tmp_path, cli):
    path = str(tmp_path / "store.sqlite")
    base = ["chase-ace", "--players", "5", "--seed", "8", "--threads", "1", "--json", "--store", path]
    swept = ["sweep", "chase-ace", "--param", "threshold=5:7", "--hands", "6400", "--json", "--store", path]
    first = json.loads(cli(*base, "--hands", "40000").stdout)
    json.loads(cli(*swept).stdout)
    rows, size = _rows(path), Path(path).stat().st_size
    assert json.loads(cli(*base, "--hands", "40000").stdout)["results"] == first["results"]
    json.loads(cli(*swept).stdout)
    assert _rows(path) == rows and Path(path).stat().st_size == size
    extended = json.loads(cli(*base, "--hands", "80000").stdout)
    assert extended["from_store"] == 40_000
    plain_rows = [row for row in _rows(path) if row[2] in (40_000, 80_000)]
    assert plain_rows == [(1, 0, 80_000, "[40000, 40000]", 1)]  # the 40,000-hand block is inside it: removed


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/null", "device"])
def test_a_file_that_is_not_a_regular_file_is_refused_and_left_alone(tmp_path, cli, kind):
    given = tmp_path / "given"
    if kind == "fifo":
        os.mkfifo(given)
    elif kind == "link to /dev/null":
        given.symlink_to("/dev/null")
    else:
        try:
            os.mknod(given, 0o666 | __import__("stat").S_IFCHR, os.makedev(1, 3))  # another /dev/null
        except PermissionError:
            pytest.skip("making a device node needs root")
    before = os.lstat(given)
    refused = cli("chase-ace", "--players", "4", "--hands", "1000", "--store", str(given))
    assert refused.exit_code == 2
    assert refused.stderr == f"error: --store {given} is not a regular file; give the path of a store file.\n"
    after = os.lstat(given)
    assert (after.st_mode, after.st_ino, after.st_rdev) == (before.st_mode, before.st_ino, before.st_rdev)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["given"]
    assert __import__("stat").S_ISCHR(os.stat("/dev/null").st_mode)


def _edit_block(path, sql: str, *values) -> None:
    edit = sqlite3.connect(path)
    edit.execute(sql, values)
    edit.commit()
    edit.close()


@pytest.mark.parametrize("edit", ["sums [[1]]", "sums [[1e400]]", "one byte", "count", "parts", "moved"])
def test_an_edited_or_damaged_block_is_named_dropped_and_played_again(tmp_path, counted, monkeypatch, caplog, edit):
    monkeypatch.setattr(logging.getLogger("card_analyzer"), "propagate", True)
    spec, tab = get_game("chase-ace"), table("chase-ace", 4)
    path = tmp_path / "store.sqlite"
    with open_context(store=path) as context:
        run(spec, tab, Mode.HANDS, 1, 30_000, context)
        run(spec, table("chase-ace", 4, rules=["kings=none"]), Mode.HANDS, 1, 30_000, context)  # entry 2
    if edit.startswith("sums"):
        _edit_block(path, "UPDATE blocks SET sums = ? WHERE config_id = 1", edit.split()[1])
    elif edit == "one byte":
        blob = bytearray(sqlite3.connect(path).execute("SELECT sums FROM blocks WHERE config_id = 1").fetchone()[0])
        blob[5] ^= 1
        _edit_block(path, "UPDATE blocks SET sums = ? WHERE config_id = 1", bytes(blob))
    elif edit == "count":
        _edit_block(path, "UPDATE blocks SET count = 20000, parts = '[20000]' WHERE config_id = 1")
    elif edit == "parts":
        _edit_block(path, "UPDATE blocks SET parts = '[10000, 20000]' WHERE config_id = 1")
    else:  # entry 2's block given to entry 1
        _edit_block(path, "DELETE FROM blocks WHERE config_id = 1")
        _edit_block(path, "UPDATE blocks SET config_id = 1 WHERE config_id = 2")
    counted.clear()
    with open_context(store=path) as context:
        found = run(spec, tab, Mode.HANDS, 1, 30_000, context)
    assert sum(counted) == 30_000 and found.stored == 0  # played again
    assert np.array_equal(found.sums, plain("chase-ace", tab, Mode.HANDS, 1, 30_000).sums)
    messages = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert set(messages) == {
        f"the result store {path} had 1 damaged block (entry 1, hands 0 to "
        f"{20_000 - 1 if edit == 'count' else 30_000 - 1:,}) that failed its checksum; it was "
        f"removed and its hands played again"
    }
    caplog.clear()
    counted.clear()
    with open_context(store=path) as context:  # the replayed hands were stored in its place
        again = run(spec, tab, Mode.HANDS, 1, 30_000, context)
    assert sum(counted) == 0 and np.array_equal(again.sums, found.sums)
    assert not [record for record in caplog.records if record.levelno == logging.WARNING]


def test_an_existing_store_that_cannot_be_written_is_read_with_one_warning(tmp_path, monkeypatch, caplog, counted):
    """Opening for writing fails as on a full disk (SQLite cannot make its lock files):
    the stored hands are still read, nothing is written, one warning."""
    monkeypatch.setattr(logging.getLogger("card_analyzer"), "propagate", True)
    spec, tab = get_game("chase-ace"), table("chase-ace", 4)
    path = tmp_path / "store.sqlite"
    with open_context(store=path) as context:
        first = run(spec, tab, Mode.HANDS, 2, 20_000, context)

    def full_disk(self):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(ResultStore, "_connect", full_disk)
    counted.clear()
    with open_context(store=path) as context:
        again = run(spec, tab, Mode.HANDS, 2, 40_000, context)
    assert again.stored == 20_000 and sum(counted) == 20_000
    counted.clear()
    assert np.array_equal(again.sums, plain("chase-ace", tab, Mode.HANDS, 2, 40_000).sums)
    assert np.array_equal(first.sums, plain("chase-ace", tab, Mode.HANDS, 2, 20_000).sums)
    assert {record.getMessage() for record in caplog.records} == {
        f"the result store {path} cannot be written (disk I/O error); the run reads what it holds and stores "
        f"nothing new"
    }
    assert len(_rows(path)) == 1


def test_a_new_store_that_cannot_be_made_is_one_warning(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(logging.getLogger("card_analyzer"), "propagate", True)

    def no_space(path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store_module, "create_store", no_space)
    spec, tab = get_game("chase-ace"), table("chase-ace", 4)
    path = tmp_path / "store.sqlite"
    with open_context(store=path) as context:
        assert context.store is None
        found = run(spec, tab, Mode.HANDS, 2, 5_000, context)
    assert np.array_equal(found.sums, plain("chase-ace", tab, Mode.HANDS, 2, 5_000).sums)
    assert {record.getMessage() for record in caplog.records} == {
        f"the result store {path} could not be made (No space left on device); the run goes on without storing"
    }


def _mounted_full_disk(folder: Path) -> bool:
    """A 1 MB tmpfs at ``folder`` (root only, where mounting is allowed)."""
    folder.mkdir()
    return (
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True).returncode
        == 0
    )


@pytest.mark.slow
def test_on_a_real_full_disk_every_run_goes_on_with_one_warning(tmp_path):
    disk = tmp_path / "disk"
    if not _mounted_full_disk(disk):
        pytest.skip("cannot mount a small file system here")
    try:
        command = [
            sys.executable,
            "-m",
            "analyzer",
            "chase-ace",
            "--players",
            "4",
            "--hands",
            "20000",
            "--json",
            "--store",
        ]
        first = subprocess.run(command + [str(disk / "store.sqlite")], capture_output=True, text=True, timeout=300)
        assert first.returncode == 0, first.stderr
        with open(disk / "filler", "wb") as filler:  # fill the disk
            try:
                while True:
                    filler.write(b"\0" * 65536)
                    filler.flush()
            except OSError:
                pass
        again = subprocess.run(command + [str(disk / "store.sqlite")], capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout)["from_store"] == 20_000
        assert json.loads(again.stdout)["results"] == json.loads(first.stdout)["results"]
        assert again.stderr.count("\n") == 1 and "cannot be written" in again.stderr
        new = subprocess.run(command + [str(disk / "new.sqlite")], capture_output=True, text=True, timeout=300)
        assert new.returncode == 0, new.stderr
        assert json.loads(new.stdout)["results"] == json.loads(first.stdout)["results"]
        assert new.stderr.count("\n") == 1 and "could not be made" in new.stderr
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


@pytest.mark.slow
def test_a_run_is_not_held_up_by_another_process_holding_the_lock(tmp_path):
    """Another process holds the store's write lock for 4 s: the run plays on, commits once
    the lock is free, and the same run again reads every hand."""
    path = tmp_path / "store.sqlite"
    spec, tab = get_game("chase-ace"), table("chase-ace", 4)
    with open_context(store=path) as context:
        run(spec, tab, Mode.HANDS, 1, 1_000, context)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    import threading

    threading.Timer(4.0, lambda: holder.execute("COMMIT")).start()
    start = time.monotonic()
    with open_context(store=path) as context:
        found = run(spec, tab, Mode.HANDS, 2, 200_000, context)
        played = time.monotonic() - start
    assert played < 3.0  # the hands take a fraction of a second: no waiting for the lock while playing
    assert time.monotonic() - start >= 3.5  # but the end waited for it, to keep what was played
    holder.close()
    with open_context(store=path) as context:
        again = run(spec, tab, Mode.HANDS, 2, 200_000, context)
    assert again.stored == 200_000 and np.array_equal(again.sums, found.sums)


def test_a_commit_stopped_midway_is_rolled_back_and_a_later_one_stores_it(tmp_path):
    """A signal that lands inside a commit's transaction (the forced second Ctrl-C, or a
    KeyboardInterrupt in a notebook) rolls it back; closing then stores what was recorded
    (it used to fail 'cannot start a transaction within a transaction' and store nothing)."""
    spec, tab = get_game("chase-ace"), table("chase-ace", 4)
    path = tmp_path / "store.sqlite"
    truth = plain("chase-ace", tab, Mode.HANDS, 1, 5_000)

    class InterruptedOnce:
        """The store's connection, with a KeyboardInterrupt at its first COMMIT."""

        def __init__(self, real):
            self.real, self.interrupted = real, False

        def execute(self, sql, *args):
            if sql == "COMMIT" and not self.interrupted:
                self.interrupted = True
                raise KeyboardInterrupt
            return self.real.execute(sql, *args)

        def __getattr__(self, name):
            return getattr(self.real, name)

    opened = ResultStore(path)
    opened.db = InterruptedOnce(opened.db)
    opened.record(
        "job list",
        spec,
        Mode.HANDS,
        4,
        1,
        tab.rules,
        tab.policy,
        [store_module.Run((0, 5_000), (np.asarray(truth.sums),))],
        True,
        5_000,
    )
    with pytest.raises(KeyboardInterrupt):
        opened.commit()
    assert not opened.db.in_transaction and _rows(path) == []
    opened.close()
    assert _rows(path) == [(1, 0, 5_000, "[5000]", 1)]
    with open_context(store=path) as context:
        again = run(spec, tab, Mode.HANDS, 1, 5_000, context)
    assert again.stored == 5_000 and np.array_equal(again.sums, truth.sums)


def test_another_processs_removal_never_costs_a_block_it_did_not_remove(tmp_path):
    """While a run holds an interim block (the highest id), another process removes that
    run's entry and stores a block of its own, which SQLite gives the freed id.  The run's
    next commit deletes its old block by id and checksum, so the other block stays, and
    it stores its own under a configuration that exists (it used to delete the other
    process's block by id and write its own under the removed entry, where nothing finds
    it)."""
    spec = get_game("chase-ace")
    ours, theirs = table("chase-ace", 4), table("chase-ace", 4, rules=["kings=none"])
    path = tmp_path / "store.sqlite"
    half, whole = plain("chase-ace", ours, Mode.HANDS, 1, 1_000), plain("chase-ace", ours, Mode.HANDS, 1, 2_000)
    other = plain("chase-ace", theirs, Mode.HANDS, 1, 1_000)
    running = ResultStore(path)
    running.record(
        "job list",
        spec,
        Mode.HANDS,
        4,
        1,
        ours.rules,
        ours.policy,
        [store_module.Run((0, 1_000), (np.asarray(half.sums),))],
        False,
        1_000,
    )
    assert running.commit()
    interim = sqlite3.connect(path).execute("SELECT id FROM blocks").fetchall()
    remover = ResultStore(path)
    assert remover.remove([1]) == 1
    remover.record(
        "theirs",
        spec,
        Mode.HANDS,
        4,
        1,
        theirs.rules,
        theirs.policy,
        [store_module.Run((0, 1_000), (np.asarray(other.sums),))],
        True,
        1_000,
    )
    remover.close()
    assert sqlite3.connect(path).execute("SELECT id FROM blocks").fetchall() == interim  # the freed id, reused
    running.record(
        "job list",
        spec,
        Mode.HANDS,
        4,
        1,
        ours.rules,
        ours.policy,
        [store_module.Run((0, 2_000), (np.asarray(whole.sums),))],
        True,
        2_000,
    )
    running.close()
    with open_context(store=path) as context:
        found_theirs = run(spec, theirs, Mode.HANDS, 1, 1_000, context)
        found_ours = run(spec, ours, Mode.HANDS, 1, 2_000, context)
    assert found_theirs.stored == 1_000 and np.array_equal(found_theirs.sums, other.sums)
    assert found_ours.stored == 2_000 and np.array_equal(found_ours.sums, whole.sums)


@pytest.mark.slow
def test_a_store_locked_for_a_moment_is_opened_when_the_lock_goes(tmp_path, monkeypatch, caplog):
    """Another connection holds the whole file (as SQLite may while it checkpoints or
    recovers a killed writer's log) for a second: the run waits and uses the store as
    usual, with no warning (it used to give up after a tenth of a second and store
    nothing)."""
    monkeypatch.setattr(logging.getLogger("card_analyzer"), "propagate", True)
    spec, tab = get_game("chase-ace"), table("chase-ace", 4)
    path = tmp_path / "store.sqlite"
    with open_context(store=path) as context:
        first = run(spec, tab, Mode.HANDS, 1, 2_000, context)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    import threading

    threading.Timer(1.0, lambda: (holder.execute("COMMIT"), holder.close())).start()
    start = time.monotonic()
    with open_context(store=path) as context:
        assert context.store is not None and context.store.writable
        again = run(spec, tab, Mode.HANDS, 1, 4_000, context)
    assert time.monotonic() - start >= 0.9
    assert again.stored == 2_000 and np.array_equal(again.sums, plain("chase-ace", tab, Mode.HANDS, 1, 4_000).sums)
    assert np.array_equal(first.sums, plain("chase-ace", tab, Mode.HANDS, 1, 2_000).sums)
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]
    with open_context(store=path) as context:
        assert run(spec, tab, Mode.HANDS, 1, 4_000, context).stored == 4_000


_V1_BLOCKS = """
CREATE TABLE blocks (
    config_id INTEGER NOT NULL REFERENCES configs(id) ON DELETE CASCADE,
    first INTEGER NOT NULL,
    count INTEGER NOT NULL,
    sums TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (config_id, first, count)
)"""


def test_a_version_1_store_is_upgraded_and_its_damaged_blocks_are_left_out(tmp_path, counted):
    """A store as version 1 wrote it (one JSON row per piece), with a sound block and
    damaged ones (ragged rows, an integer past 64 bits, text, an unknown mode): opened,
    it is upgraded in place; the sound block is read, the damaged ones played again."""
    spec = get_game("chase-ace")
    tabs = [table("chase-ace", 4, rules=rules) for rules in ([], ["kings=none"], ["lives=5"], ["lives=4"], ["lives=2"])]
    path = tmp_path / "store.sqlite"
    with open_context(store=path) as context:
        for tab in tabs:
            run(spec, tab, Mode.HANDS, 3, 3_000, context)
    sound = plain("chase-ace", tabs[0], Mode.HANDS, 3, 3_000)
    old = sqlite3.connect(path, isolation_level=None)
    old.execute("DROP TABLE blocks")
    old.execute(_V1_BLOCKS)
    for config, text in [
        (1, json.dumps(np.asarray(sound.sums).tolist())),
        (2, "[[1], [1, 2]]"),
        (3, "[[99999999999999999999999]]"),
        (4, '"text"'),
        (5, "[[1]]"),
    ]:
        old.execute("INSERT INTO blocks VALUES (?, 0, 3000, ?, 0)", (config, text))
    old.execute("UPDATE configs SET mode = 'rounds' WHERE id = 5")
    old.execute("PRAGMA user_version = 1")
    old.close()
    counted.clear()
    with open_context(store=path) as context:
        found = [run(spec, tab, Mode.HANDS, 3, 3_000, context) for tab in tabs]
    assert [result.stored for result in found] == [3_000, 0, 0, 0, 0] and sum(counted) == 4 * 3_000
    for tab, result in zip(tabs, found):
        assert np.array_equal(result.sums, plain("chase-ace", tab, Mode.HANDS, 3, 3_000).sums)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == store_module.SCHEMA_VERSION


def test_the_store_command_on_a_store_that_cannot_be_made_is_one_sentence(tmp_path, cli, monkeypatch):
    def no_space(path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store_module, "create_store", no_space)
    path = tmp_path / "store.sqlite"
    path.touch()  # an empty file: a store to be made
    ran = cli("store", "--store", str(path))
    assert ran.exit_code == 2
    assert ran.stderr == f"error: the result store {path} could not be made (No space left on device).\n"
