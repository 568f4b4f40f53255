"""The result store: an embedded SQLite database of finished hands' exact sums.

What is kept.  A *configuration* is everything that decides a hand's outcome: the game,
the hash of its kernel's sources (:func:`kernel_hash`), the mode, the number of players,
the seed, the rule codes and the policy matrix.  A *block* of a configuration covers
hands (or games) ``first .. first + count - 1`` cut into consecutive *parts*, and holds
the exact integer sums of each part: one part for a plain run, one part per batch for
the batches of a paired run.  Sums are exact integers, so the sums of neighbouring
parts add up to exactly what one run over them gives: a run asks the store to cover its
hands (:meth:`ResultStore.cover`) with stored parts and plays only the gaps.  That makes
a repeated command free, a raised ``--hands`` play only the new hands, and an
interrupted run resume where it stopped.

Cost.  Blocks are written in groups: what finished is kept in memory and committed at
most about once a second (:data:`FLUSH_SECONDS`), when the command ends and when it is
interrupted, one transaction for the group (SQLite's write-ahead log,
``synchronous=FULL``, so a commit survives a power cut).  While a job is still running
its finished prefix is kept as a block marked incomplete, replaced at each commit; once
the job is done, one block holds the whole of it (parts at the boundaries it was asked
and played with), and the blocks it makes redundant (inside its range and cut only at
its boundaries, or left incomplete by an earlier run) are removed, so running the same
command again, extending it or resuming it does not grow the store by more than the new
hands.  A killed process (SIGKILL, a power cut) loses at most the hands finished since
the last commit, about a second of play, and never leaves a half-written block.

Several processes may share a store: SQLite serialises the writers.  A commit during a
run waits at most :data:`LOCK_WAIT_S` for another process's transaction and otherwise
tries again at the next commit (as long as the run lasts), so the run never waits for a
lock; only at the end of a command does it wait (up to :data:`CLOSE_WAIT_S`, or
:data:`INTERRUPTED_WAIT_S` once the user asked to stop) and then says what it could not
store.  A block is deleted only by its id and checksum together, so a block another
process wrote in the meantime is never taken for one of ours.

Integrity.  Each block carries a checksum of its configuration's key, its range, its
parts and its sums; a block that fails it (or whose sums do not have the shape of the
game's outcomes) is never used: it is named in one warning, removed, and its hands are
played again.  A file given as a store that is not one (a text file, a damaged
database, another program's database, a device or a FIFO) is refused with one sentence
and left untouched.  A store that cannot be written (a full disk, a read-only file) is
one warning: the run reads what the store holds and stores nothing new.

Blocks of a kernel whose sources changed are never read (their hash differs) and
``analyze store --prune`` removes them.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.run.blocks import (
    Run,
    Segment,
    Slot,
    configuration_key,
    configurations,
    decode_block,
    encoded_row,
    redundant_blocks,
    segments_of,
    span_text,
)
from analyzer.run.store_file import (
    SCHEMA_VERSION,
    WHERE_KEY,
    Entry,
    StoreUnwritable,
    check_existing,
    create_store,
    is_busy,
    is_damage,
    list_entries,
    not_a_store,
    open_read_only,
    reason_text,
    upgrade_blocks,
)
from sims.engine import LOG
from sims.spec import MODE_NAMES, GameSpec

FLUSH_SECONDS = 1.0  # finished work is committed at most about this often (and at the end)
LOCK_WAIT_S = 0.1  # a commit during a run waits this long for another process's, then retries later
READ_WAIT_S = 10.0  # opening and reading wait this long for a moment's lock (a checkpoint, a recovery)
CLOSE_WAIT_S = 60.0  # at the end of a command: how long to wait for another process's lock
INTERRUPTED_WAIT_S = 1.0  # the same once the user asked to stop


class ResultStore:
    """An open result store (see the module docstring).

    :meth:`cover` answers what is stored; :meth:`record` keeps what a job list has
    finished so far (``complete`` once it is done) and :meth:`tick` commits at most
    once a second; :meth:`close` commits the rest.  Reading a damaged store raises
    ``ValueError`` with one sentence; a store that cannot be written is one warning,
    after which the run goes on reading it and storing nothing."""

    flush_seconds = FLUSH_SECONDS

    def __init__(self, path: Path | str):
        self.path = Path(path).expanduser()
        self.writable = True
        self.db: Any = None  # the sqlite3 connection while open
        self._slots: dict[tuple, Slot] = {}
        self._publishers: list = []  # callables that record what runs in flight have finished, before a commit
        self._configs: dict[tuple, int] = {}  # key -> configuration id, as found or made
        self._keys: dict[tuple, tuple] = {}  # see _key
        self._doomed: dict[tuple[int, str], str] = {}  # damaged block (id, checksum) -> its description
        self._last_commit = time.monotonic()
        version = check_existing(self.path)
        try:
            if version == 0:
                create_store(self.path)
                version = check_existing(self.path)
            self._connect()
            if version < SCHEMA_VERSION:
                self._upgrade(version)
        except ValueError:
            self._close_db()
            raise
        except (OSError, sqlite3.Error) as problem:
            self._close_db()
            if isinstance(problem, sqlite3.Error) and is_damage(problem):
                raise not_a_store(self.path, f"it could not be read: {reason_text(problem)}") from None
            if version == 0 or not self.path.is_file():
                raise StoreUnwritable(
                    f"the result store {self.path} could not be made ({reason_text(problem)})"
                ) from None
            self._open_read_only(problem)

    # -------------------------------------------------------------- opening and closing

    def _connect(self) -> None:
        self.db = sqlite3.connect(self.path, timeout=READ_WAIT_S, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA synchronous = FULL")  # a commit survives a power cut
        self.db.execute("SELECT count(*) FROM configs").fetchone()  # opens the WAL: a full disk shows here

    def _open_read_only(self, problem: BaseException) -> None:
        """Read what the store holds without writing to it (see
        ``store_file.open_read_only``): one warning."""
        self.db = open_read_only(self.path, problem, READ_WAIT_S)
        self.writable = False
        LOG.warning(
            f"the result store {self.path} cannot be written ({reason_text(problem)}); the run reads what it "
            f"holds and stores nothing new"
        )

    def _close_db(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    @contextlib.contextmanager
    def _patient_transaction(self):
        """One write transaction that waits up to :data:`CLOSE_WAIT_S` for another
        process's lock (for the rare writes a user waits for: an upgrade, a removal)."""
        self.db.execute(f"PRAGMA busy_timeout = {int(CLOSE_WAIT_S * 1000)}")
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
        finally:
            self.db.execute(f"PRAGMA busy_timeout = {int(READ_WAIT_S * 1000)}")

    def _upgrade(self, version: int) -> None:
        """Bring a store of an older format to this one, in one transaction."""
        with self._patient_transaction():
            if self.db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:  # not done by another process
                upgrade_blocks(self.db)
                self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self, hurry: bool = False) -> None:
        """Commit what is left and close.  Waits for another process's lock up to
        :data:`CLOSE_WAIT_S` (saying so after two seconds), or :data:`INTERRUPTED_WAIT_S`
        with ``hurry`` or once a signal asks to stop, then says in one warning what was
        not stored.  A signal that only ended this wait is forgotten: the command's work
        is done, and it finishes as usual."""
        from analyzer.run import interrupts

        if self.db is None:
            return
        try:
            start = time.monotonic()
            asked_before = interrupts.requested()
            told = False
            with interrupts.deferred():  # a signal here ends the wait, not the command
                while not self.commit():
                    waited = time.monotonic() - start
                    stopping = hurry or interrupts.requested()
                    if waited >= (INTERRUPTED_WAIT_S if stopping else CLOSE_WAIT_S):
                        LOG.warning(
                            f"the result store {self.path} was locked by another process for {waited:.0f} s; "
                            f"the last {self._unstored()} played were not stored"
                        )
                        break
                    if not stopping and not told and waited >= 2:
                        LOG.warning(
                            f"the result store {self.path} is locked by another process; waiting up to "
                            f"{CLOSE_WAIT_S:.0f} s to store the last {self._unstored()} played (Ctrl-C stops "
                            f"waiting)"
                        )
                        told = True
            if not hurry and not asked_before and interrupts.requested():
                interrupts.reset()
        finally:
            self._close_db()

    def _unstored(self) -> str:
        """The hands (and games) recorded and not yet committed, as words."""
        counts: dict[str, int] = {}
        for slot in self._slots.values():
            if slot.dirty:
                counts[slot.key[2]] = counts.get(slot.key[2], 0) + slot.played
        return " and ".join(f"{count:,} {unit}" for unit, count in sorted(counts.items())) or "nothing"

    # -------------------------------------------------------------- reading

    def _reading(self, action):
        """``action()``, with a damaged database found while reading (or one that another
        process kept locked for :data:`READ_WAIT_S`) as one sentence."""
        try:
            return action()
        except sqlite3.Error as problem:
            if is_busy(problem):
                raise ValueError(
                    f"the result store {self.path} was kept locked by another process for "
                    f"{READ_WAIT_S:.0f} s while this one read it; try again, or give --no-store."
                ) from None
            raise not_a_store(self.path, f"it could not be read: {reason_text(problem)}") from None

    def _key(self, spec: GameSpec, mode: int, players: int, seed: int, rules, policy) -> tuple:
        """:func:`_key`, remembered (a report asks for the same configurations many times)."""
        memo = (
            spec.name,
            mode,
            players,
            seed,
            tuple(int(v) for v in rules),
            np.asarray(policy, dtype=np.float64).tobytes(),
        )
        if memo not in self._keys:
            self._keys[memo] = configuration_key(spec, mode, players, seed, rules, policy)
        return self._keys[memo]

    def _config_id(self, key: tuple, make: bool = False) -> int | None:
        if key not in self._configs:
            found = self.db.execute(f"SELECT id FROM configs WHERE {WHERE_KEY}", key).fetchone()
            if found is None and make:
                self.db.execute(
                    "INSERT OR IGNORE INTO configs (game, kernel_hash, mode, players, seed, rules, policy, "
                    "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    key + (time.time(),),
                )
                found = self.db.execute(f"SELECT id FROM configs WHERE {WHERE_KEY}", key).fetchone()
            if found is None:
                return None
            self._configs[key] = found[0]
        return self._configs[key]

    def cover(
        self,
        spec: GameSpec,
        mode: int,
        players: int,
        seed: int,
        jobs,
        grouped: tuple[list[int], list[tuple]] | None = None,
    ) -> list[list[Segment]]:
        """Each job ``(rules, policy, first, count)`` as stored stretches and gaps, in order
        (``grouped``: :func:`configurations` of the jobs, if the caller has it).

        From each position the stored parts that start there are followed as far as
        they go without passing the job's end, the longest taken; where no part starts,
        the gap runs to the next part that does.  Blocks that fail their checksum are
        named in one warning and removed at the next commit."""
        outcomes = spec.outcomes[mode]
        shape, wide = (players + 1, outcomes.width), bool(outcomes.limbs)
        which, configs = grouped or configurations(jobs)
        jobs_of: list[list[int]] = [[] for _ in configs]
        for index, config in enumerate(which):
            jobs_of[config].append(index)
        pending: dict[tuple, list[Run]] = {}  # what is recorded and not yet committed
        for slot in self._slots.values():
            pending.setdefault(slot.key, []).extend(slot.runs)
        damaged: list[str] = []
        covered: list[list[Segment]] = [[] for _ in jobs]
        for (rules, policy), indices in zip(configs, jobs_of):
            key = self._key(spec, mode, players, seed, rules, policy)
            lo = min(int(jobs[i][2]) for i in indices)
            hi = max(int(jobs[i][2]) + int(jobs[i][3]) for i in indices)
            runs = [run for run in pending.get(key, ()) if run.bounds[0] < hi and run.bounds[-1] > lo]
            config = self._reading(lambda: self._config_id(key))
            if config is not None:
                rows = self._reading(
                    lambda: self.db.execute(
                        "SELECT id, first, count, parts, format, sums, checksum FROM blocks WHERE config_id=? AND "
                        "first<? AND first+count>?",
                        (config, hi, lo),
                    ).fetchall()
                )
                for row in rows:
                    block = (row[0], row[-1])
                    if block in self._doomed:
                        continue
                    run = decode_block(row, key, shape, wide)
                    if run is None:
                        self._doomed[block] = f"entry {config}, {span_text(row[1], row[2], MODE_NAMES[mode])}"
                        damaged.append(self._doomed[block])
                    else:
                        runs.append(run)
            if not runs:  # nothing stored: every job is one gap
                for index in indices:
                    covered[index] = [Segment(int(jobs[index][2]), int(jobs[index][3]))] if jobs[index][3] else []
                continue
            exact = {
                (start, end): sums
                for run in runs  # the usual reuse: a stored part is exactly a job
                for start, end, sums in zip(run.bounds, run.bounds[1:], run.sums)
            }
            starts: dict[int, list[tuple[Run, int]]] = {}  # every part by where it starts (made if needed)
            for index in indices:
                first, count = int(jobs[index][2]), int(jobs[index][3])
                stored = exact.get((first, first + count))
                if stored is not None:
                    covered[index] = [Segment(first, count, stored)]
                    continue
                if not starts:
                    for run in runs:
                        for part, start in enumerate(run.bounds[:-1]):
                            starts.setdefault(start, []).append((run, part))
                    order = sorted(starts)
                covered[index] = segments_of(first, count, starts, order, outcomes)
        if damaged:
            many = len(damaged) > 1
            named = "; ".join(damaged[:3]) + (" ..." if len(damaged) > 3 else "")
            fate = "removed" if self.writable else "left alone (the store cannot be written)"
            LOG.warning(
                f"the result store {self.path} had {len(damaged)} damaged block{'s' if many else ''} ({named}) "
                f"that failed {'their checksums; they were' if many else 'its checksum; it was'} {fate} and "
                f"{'their' if many else 'its'} hands played again"
            )
        return covered

    # -------------------------------------------------------------- writing

    def record(
        self,
        slot: tuple,
        spec: GameSpec,
        mode: int,
        players: int,
        seed: int,
        rules,
        policy,
        runs: list[Run],
        complete: bool,
        played: int,
    ) -> None:
        """What the job list ``slot`` (any hashable name, one per job list and
        configuration) has finished of this configuration: its runs, ``complete`` once
        they are whole jobs, of which ``played`` hands were played (not read from the
        store).  Replaces what the slot recorded before; committed by the next
        :meth:`tick` that is due, or by :meth:`close`."""
        if not self.writable:
            return
        found = self._slots.get(slot)
        if found is None:
            found = self._slots[slot] = Slot(
                self._key(spec, mode, players, seed, rules, policy), bool(spec.outcomes[mode].limbs)
            )
        found.runs, found.complete, found.dirty, found.played = list(runs), complete, True, played

    def publisher(self, publish) -> None:
        """Have ``publish()`` called before each commit (it records what is in flight);
        :meth:`unpublish` ends that."""
        self._publishers.append(publish)

    def unpublish(self, publish) -> None:
        self._publishers.remove(publish)

    def tick(self) -> None:
        """Commit if the last commit was at least :attr:`flush_seconds` ago."""
        if self.writable and time.monotonic() - self._last_commit >= self.flush_seconds:
            self.commit()

    def commit(self) -> bool:
        """Write every slot changed since the last commit in one transaction; True when
        nothing is left to write.  Another process's lock held longer than
        :data:`LOCK_WAIT_S` leaves everything for the next try (False); any other
        failure is one warning, and nothing more is stored.  Whatever stops it midway
        (a signal included) rolls the transaction back, so a commit is whole or nothing."""
        for publish in list(self._publishers):
            publish()
        self._last_commit = time.monotonic()
        changed = [slot for slot in self._slots.values() if slot.dirty]
        if not self.writable or (not changed and not self._doomed):
            return True
        encoded = [(slot, [encoded_row(slot, run) for run in slot.runs]) for slot in changed]
        try:
            self.db.execute(f"PRAGMA busy_timeout = {int(LOCK_WAIT_S * 1000)}")
            try:
                self.db.execute("BEGIN IMMEDIATE")
                written = self._write(encoded)
                self.db.execute("COMMIT")
            finally:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                self.db.execute(f"PRAGMA busy_timeout = {int(READ_WAIT_S * 1000)}")
        except BaseException as problem:
            self._configs.clear()  # ids made in a transaction rolled back are gone
            if not isinstance(problem, sqlite3.Error):
                raise
            if is_busy(problem):
                return False
            self.writable = False
            LOG.warning(
                f"the result store {self.path} could not be written ({reason_text(problem)}); the run goes on "
                f"without storing"
            )
            return True
        self._doomed.clear()
        for slot, rows in written:
            slot.rows, slot.dirty = rows, False
        for name in [name for name, slot in self._slots.items() if slot.complete and not slot.dirty]:
            del self._slots[name]  # committed whole: the store answers for it now
        return True

    def _write(self, encoded: list) -> list:
        """Inside a commit's transaction: insert the slots' blocks and delete what they
        replace (each slot's last commit, and with a complete slot the blocks it makes
        redundant) and the damaged blocks found; each slot with its new rows' (id,
        checksum).  The configuration ids are looked up afresh, in case another process
        removed one."""
        self._configs.clear()
        written = []
        for slot, rows in encoded:
            config = self._config_id(slot.key, make=True)
            assert config is not None  # made in this transaction when missing
            new = [
                (
                    self.db.execute(
                        "INSERT INTO blocks (config_id, first, count, parts, complete, format, sums, "
                        "checksum, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            config,
                            run.first,
                            run.count,
                            parts_text,
                            int(slot.complete),
                            form,
                            blob,
                            checksum,
                            time.time(),
                        ),
                    ).lastrowid,
                    checksum,
                )
                for run, parts_text, form, blob, checksum in rows
            ]
            doomed = list(slot.rows)
            if slot.complete:
                doomed += redundant_blocks(self.db, config, [row[0] for row in rows], {block for block, _ in new})
            self.db.executemany("DELETE FROM blocks WHERE id = ? AND checksum = ?", doomed)
            written.append((slot, new))
        self.db.executemany("DELETE FROM blocks WHERE id = ? AND checksum = ?", list(self._doomed))
        return written

    def size(self) -> int:
        """Bytes on disk: the database and its write-ahead log."""
        return sum(
            path.stat().st_size for path in (self.path, self.path.with_name(self.path.name + "-wal")) if path.exists()
        )

    def entries(self, game: str | None = None) -> list[Entry]:
        """Every stored configuration (of ``game``), oldest first."""
        return self._reading(lambda: list_entries(self.db, game))

    def remove(self, ids: list[int]) -> int:
        """Remove configurations and their blocks (and blocks of no configuration), then
        give the space back to the file system; how many configurations were removed."""
        if not self.writable:
            raise ValueError(f"the result store {self.path} cannot be written; nothing was removed.")
        removed = 0
        with self._patient_transaction():
            for config in ids:
                self.db.execute("DELETE FROM blocks WHERE config_id = ?", (int(config),))
                removed += self.db.execute("DELETE FROM configs WHERE id = ?", (int(config),)).rowcount
            self.db.execute("DELETE FROM blocks WHERE config_id NOT IN (SELECT id FROM configs)")
        try:
            self.db.execute("VACUUM")
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass  # another process reading: the space is reused by later blocks instead
        return removed
