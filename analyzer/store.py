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

import bisect
import contextlib
import errno
import hashlib
import json
import os
import sqlite3
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

from sims.engine import LOG, kernel_hash
from sims.registry import GAMES
from sims.spec import MODE_NAMES, GameSpec

APPLICATION_ID = 0x43414E41  # "CANA": marks a card-analyzer store (SQLite's application_id)
SCHEMA_VERSION = 2  # 1: one JSON row per piece, no parts and no checksum (upgraded in place)
FLUSH_SECONDS = 1.0  # finished work is committed at most about this often (and at the end)
LOCK_WAIT_S = 0.1  # a commit during a run waits this long for another process's, then retries later
READ_WAIT_S = 10.0  # opening and reading wait this long for a moment's lock (a checkpoint, a recovery)
CLOSE_WAIT_S = 60.0  # at the end of a command: how long to wait for another process's lock
INTERRUPTED_WAIT_S = 1.0  # the same once the user asked to stop

_CONFIGS = """
CREATE TABLE IF NOT EXISTS configs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: a removed entry's id names nothing again
    game TEXT NOT NULL,
    kernel_hash TEXT NOT NULL,
    mode TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed TEXT NOT NULL,            -- up to 2^64 - 1, more than SQLite's signed integers
    rules TEXT NOT NULL,           -- JSON list of rule codes in field order
    policy TEXT NOT NULL,          -- JSON list of per-seat lists of policy values
    created REAL NOT NULL,
    UNIQUE (game, kernel_hash, mode, players, seed, rules, policy)
)"""
_BLOCKS = """
CREATE TABLE IF NOT EXISTS blocks (
    id INTEGER PRIMARY KEY,
    config_id INTEGER NOT NULL REFERENCES configs(id) ON DELETE CASCADE,
    first INTEGER NOT NULL,
    count INTEGER NOT NULL,
    parts TEXT NOT NULL,           -- JSON list of the parts' sizes, in order; they add up to count
    complete INTEGER NOT NULL,     -- 1: whole jobs; 0: the prefix of a job still running (or killed)
    format TEXT NOT NULL,          -- '<i1', '<i2', '<i4', '<i8': little-endian integers; 'json': exact integers
    sums BLOB NOT NULL,            -- [part][n_seats + 1][width]
    checksum TEXT NOT NULL,        -- of the configuration's key, first, count, parts, format and sums
    created REAL NOT NULL
)"""
_BLOCKS_INDEX = "CREATE INDEX IF NOT EXISTS blocks_of_config ON blocks (config_id, first)"
_WHERE = "game=? AND kernel_hash=? AND mode=? AND players=? AND seed=? AND rules=? AND policy=?"


def default_store_path() -> Path | None:
    """The store a command uses without ``--store``: ``$CARD_ANALYZER_STORE`` (``off``:
    none), else ``$XDG_DATA_HOME/card-analyzer/results.sqlite``, else
    ``~/.local/share/card-analyzer/results.sqlite``."""
    chosen = os.environ.get("CARD_ANALYZER_STORE")
    if chosen:
        return None if chosen.lower() in ("off", "0", "none") else Path(chosen).expanduser()
    data = os.environ.get("XDG_DATA_HOME")
    return (Path(data) if data else Path.home() / ".local" / "share") / "card-analyzer" / "results.sqlite"


class StoreUnwritable(ValueError):
    """A new store could not be made where it was asked for (a full disk, a read-only
    folder): for a run a warning, after which it goes on without a store; for ``analyze
    store`` (a ``ValueError``) one sentence."""


def _not_a_store(path: Path, why: str) -> ValueError:
    return ValueError(f"--store {path} is not a card-analyzer result store ({why}); give another file, or --no-store.")


def _check_existing(path: Path) -> int:
    """The schema version of the store at ``path`` (0: absent or an empty file, to be
    created); ``ValueError`` for anything else.  Judged from the file's type and header
    bytes (SQLite keeps the application id at offset 68 and the format at 60), so a
    foreign file is never opened by SQLite and nothing is written beside it."""
    try:
        found = path.stat()
    except FileNotFoundError:
        return 0
    except OSError as problem:
        raise ValueError(f"--store {path} cannot be used: {problem.strerror or problem}.") from None
    if stat.S_ISDIR(found.st_mode):
        raise ValueError(f"--store {path} is a folder; give the path of a store file.")
    if not stat.S_ISREG(found.st_mode):  # a device, a FIFO, a socket: never opened, never replaced
        raise ValueError(f"--store {path} is not a regular file; give the path of a store file.")
    if found.st_size == 0:
        return 0
    with open(path, "rb") as stream:
        header = stream.read(100)
    if len(header) < 100 or header[:16] != b"SQLite format 3\x00":
        raise _not_a_store(path, "it is not an SQLite database")
    if int.from_bytes(header[68:72], "big") != APPLICATION_ID:
        raise _not_a_store(path, "it is another program's database")
    version = int.from_bytes(header[60:64], "big")
    if version > SCHEMA_VERSION:
        raise ValueError(f"--store {path} was written by a newer card-analyzer (format {version}); update, or give "
                         f"another file.")
    return version


def _create(path: Path) -> None:
    """Make an empty store at ``path`` atomically: built whole under a temporary name in the
    same folder, then linked into place, so no process ever sees a half-made store.  If
    another process made one first, theirs is kept."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}.new")
    try:
        built = sqlite3.connect(temporary, isolation_level=None)
        try:
            built.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            built.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            for statement in (_CONFIGS, _BLOCKS, _BLOCKS_INDEX):
                built.execute(statement)
            built.execute("PRAGMA journal_mode = WAL")
        finally:
            built.close()
        if path.is_file() and path.stat().st_size == 0:  # an empty regular file given as the store
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)
            except FileExistsError:
                pass  # made by another process meanwhile
            except OSError as problem:  # a file system without hard links: a rename, unless one appeared
                if problem.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                    raise
                if not path.exists():
                    os.replace(temporary, path)
    finally:
        for leftover in (temporary, temporary.with_name(temporary.name + "-wal"),
                         temporary.with_name(temporary.name + "-shm")):
            try:
                leftover.unlink()
            except OSError:
                pass


def _is_damage(problem: sqlite3.Error) -> bool:
    """Whether SQLite found the file itself damaged (rather than the disk full, the file
    read-only or locked)."""
    name = getattr(problem, "sqlite_errorname", "")
    text = str(problem).lower()
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in text or "not a database" in text


def _is_busy(problem: sqlite3.Error) -> bool:
    name = getattr(problem, "sqlite_errorname", "")
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in str(problem).lower()


def _reason(problem: BaseException) -> str:
    text = problem.strerror if isinstance(problem, OSError) and problem.strerror else str(problem)
    return " ".join(text.split()).rstrip(".") or type(problem).__name__


def _span(first, count, unit: str) -> str:
    """A block's range as words ("hands 0 to 29,999"), whatever an edit left in it."""
    try:
        return f"{unit} {int(first):,} to {int(first) + int(count) - 1:,}"
    except (TypeError, ValueError):
        return f"{unit} {first!r} (count {count!r})"


# ------------------------------------------------------------------------------ blocks


class Segment(NamedTuple):
    """A stretch of a job's hands: stored (``sums`` set) or still to play (``sums`` None).
    (A tuple: a report makes one per batch of every configuration.)"""

    first: int
    count: int
    sums: np.ndarray | None = None


@dataclass(frozen=True)
class Run:
    """Consecutive parts of one configuration's hands: part ``k`` is hands
    ``bounds[k] .. bounds[k + 1] - 1`` and its sums are ``sums[k]``."""

    bounds: tuple[int, ...]
    sums: tuple[np.ndarray, ...]

    @property
    def first(self) -> int:
        return self.bounds[0]

    @property
    def count(self) -> int:
        return self.bounds[-1] - self.bounds[0]

    @property
    def parts(self) -> list[int]:
        return [b - a for a, b in zip(self.bounds, self.bounds[1:])]


def runs_of(parts) -> list[Run]:
    """``(first, count, sums)`` parts (in any order, none overlapping) as runs of
    neighbouring parts."""
    runs: list[Run] = []
    bounds: list[int] = []
    sums: list[np.ndarray] = []
    for first, count, part in sorted(parts, key=lambda item: item[0]):
        if count <= 0:
            continue
        if bounds and first != bounds[-1]:
            runs.append(Run(tuple(bounds), tuple(sums)))
            bounds, sums = [], []
        if not bounds:
            bounds.append(first)
        bounds.append(first + count)
        sums.append(part)
    if bounds:
        runs.append(Run(tuple(bounds), tuple(sums)))
    return runs


def configurations(jobs) -> tuple[list[int], list[tuple]]:
    """Which configuration each job ``(rules, policy, first, count)`` plays (an index) and
    each configuration's ``(rules, policy)``.  Jobs of a paired run share their rules and
    policy objects, so each distinct pair of objects is compared by value only once."""
    by_objects: dict[tuple[int, int], int] = {}
    by_value: dict[tuple, int] = {}
    which: list[int] = []
    found: list[tuple] = []
    for rules, policy, _, _ in jobs:
        objects = (id(rules), id(policy))  # the jobs hold both, so ids are not reused meanwhile
        if objects not in by_objects:
            value = (tuple(int(v) for v in rules), np.asarray(policy, dtype=np.float64).tobytes())
            if value not in by_value:
                by_value[value] = len(found)
                found.append((rules, policy))
            by_objects[objects] = by_value[value]
        which.append(by_objects[objects])
    return which, found


def _key(spec: GameSpec, mode: int, players: int, seed: int, rules, policy) -> tuple:
    rules_text = json.dumps([int(v) for v in rules])
    policy_text = json.dumps(np.asarray(policy, dtype=np.float64).tolist())
    return (spec.name, kernel_hash(spec), MODE_NAMES[mode], int(players), str(int(seed)), rules_text, policy_text)


_NARROW = ("<i1", "<i2", "<i4", "<i8")  # the integer widths a block's sums may be kept in


def _encode(run: Run, wide: bool) -> tuple[str, bytes]:
    """A run's sums as (format, bytes): little-endian integers of the narrowest width that
    holds them all (counts of a few thousand hands fit 2 bytes), or JSON for the exact
    integers of wide outcomes."""
    if not wide:
        stack = np.array(run.sums, dtype=np.int64)
        largest = max(int(stack.max()), -int(stack.min()) - 1) if stack.size else 0
        form = next(form for form in _NARROW if largest < 1 << (8 * int(form[-1]) - 1))
        return form, stack.astype(form).tobytes()
    return "json", json.dumps([[[int(v) for v in row] for row in part] for part in run.sums],
                              separators=(",", ":")).encode()


_KEY_DIGESTS: dict[tuple, bytes] = {}


def _checksum(key: tuple, first: int, count: int, parts_text: str, form: str, blob: bytes) -> str:
    """A block's checksum: of its configuration's key, its range, parts, format and sums."""
    if key not in _KEY_DIGESTS:  # a key is long (the policy matrix): digested once
        _KEY_DIGESTS[key] = hashlib.blake2b(json.dumps(list(key)).encode(), digest_size=16).digest()
    digest = hashlib.blake2b(_KEY_DIGESTS[key], digest_size=16)
    digest.update(f"{int(first)} {int(count)} {parts_text} {form} ".encode())
    digest.update(bytes(blob))
    return digest.hexdigest()


def _decode(row, key: tuple, shape: tuple[int, int], wide: bool) -> Run | None:
    """A stored block as a :class:`Run`, or None when it fails its checksum or its sums
    do not have the outcomes' shape (edited or damaged)."""
    _, first, count, parts_text, form, blob, checksum = row
    try:
        if not isinstance(blob, bytes) or checksum != _checksum(key, first, count, parts_text, form, blob):
            return None
        parts = json.loads(parts_text)
        if (not isinstance(parts, list) or not parts or any(type(p) is not int or p <= 0 for p in parts)
                or sum(parts) != count):
            return None
        if form in _NARROW and not wide:
            flat = np.frombuffer(blob, dtype=form)
            if flat.size != len(parts) * shape[0] * shape[1]:
                return None
            sums = tuple(flat.astype(np.int64).reshape(len(parts), *shape))
        elif form == "json" and wide:
            values = json.loads(blob)
            if (len(values) != len(parts) or any(len(part) != shape[0] for part in values)
                    or any(len(row) != shape[1] or any(type(v) is not int for v in row) for part in values
                           for row in part)):
                return None
            sums = tuple(np.array(part, dtype=object).reshape(shape) for part in values)
        else:
            return None
    except (ValueError, TypeError, RecursionError):
        return None
    bounds = [int(first)]
    for size in parts:
        bounds.append(bounds[-1] + size)
    return Run(tuple(bounds), sums)


@dataclass
class _Slot:
    """What one job list of one configuration has finished (see :class:`ResultStore`):
    its runs, whether they are whole jobs, the rows that hold its last commit, and
    whether it changed since."""

    key: tuple
    wide: bool
    runs: list[Run] = field(default_factory=list)
    complete: bool = False
    rows: list[tuple[int, str]] = field(default_factory=list)  # (id, checksum) of its last commit's blocks
    dirty: bool = False
    played: int = 0  # of the runs' hands, those played by this process (not read from the store)


@dataclass(frozen=True)
class Entry:
    """One stored configuration, as ``analyze store`` lists it."""

    id: int
    game: str
    kernel_hash: str
    mode: str
    players: int
    seed: int
    rules: tuple[int, ...]
    policy: tuple[tuple[float, ...], ...]
    blocks: int
    hands: int  # distinct hands (or games) covered by its blocks
    created: float


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
        self.db = None
        self._slots: dict[tuple, _Slot] = {}
        self._publishers: list = []  # callables that record what runs in flight have finished, before a commit
        self._configs: dict[tuple, int] = {}  # key -> configuration id, as found or made
        self._keys: dict[tuple, tuple] = {}  # see _key
        self._doomed: dict[tuple[int, str], str] = {}  # damaged block (id, checksum) -> its description
        self._last_commit = time.monotonic()
        version = _check_existing(self.path)
        try:
            if version == 0:
                _create(self.path)
                version = _check_existing(self.path)
            self._connect()
            if version < SCHEMA_VERSION:
                self._upgrade(version)
        except ValueError:
            self._close_db()
            raise
        except (OSError, sqlite3.Error) as problem:
            self._close_db()
            if isinstance(problem, sqlite3.Error) and _is_damage(problem):
                raise _not_a_store(self.path, f"it could not be read: {_reason(problem)}") from None
            if version == 0 or not self.path.is_file():
                raise StoreUnwritable(f"the result store {self.path} could not be made "
                                      f"({_reason(problem)})") from None
            self._open_read_only(problem)

    # -------------------------------------------------------------- opening and closing

    def _connect(self) -> None:
        self.db = sqlite3.connect(self.path, timeout=READ_WAIT_S, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA synchronous = FULL")  # a commit survives a power cut
        self.db.execute("SELECT count(*) FROM configs").fetchone()  # opens the WAL: a full disk shows here

    def _open_read_only(self, problem: BaseException) -> None:
        """Read what the store holds without writing to it (a full disk, a read-only file
        or folder): one warning.  Read-only, SQLite still reads the write-ahead log (the
        last commits of a writer that was killed); where it cannot even make its
        shared-memory index beside the file, the file is read as it is (``immutable``),
        without what the log holds."""
        failed: sqlite3.Error | None = None
        for mode in ("mode=ro", "immutable=1"):
            try:
                self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?{mode}", uri=True, timeout=READ_WAIT_S,
                                          isolation_level=None, check_same_thread=False)
                self.db.execute("SELECT count(*) FROM blocks").fetchone()
                if self.db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                    raise sqlite3.OperationalError("it needs an upgrade to this version's format")
                failed = None
                break
            except sqlite3.Error as problem_reading:
                self._close_db()
                failed = problem_reading
        if failed is not None:
            raise StoreUnwritable(f"the result store {self.path} could not be opened ({_reason(problem)}; reading "
                                  f"it: {_reason(failed)})") from None
        self.writable = False
        LOG.warning(f"the result store {self.path} cannot be written ({_reason(problem)}); the run reads what it "
                    f"holds and stores nothing new")

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
                old = self.db.execute("SELECT c.game, c.kernel_hash, c.mode, c.players, c.seed, c.rules, c.policy, "
                                      "b.config_id, b.first, b.count, b.sums, b.created FROM blocks b JOIN configs c "
                                      "ON c.id = b.config_id").fetchall()
                self.db.execute("DROP TABLE blocks")
                self.db.execute(_BLOCKS)
                self.db.execute(_BLOCKS_INDEX)
                modes = {name: mode for mode, name in MODE_NAMES.items()}
                for *key, config, first, count, text, created in old:
                    try:
                        values = json.loads(text)
                        width = len(values[0])
                        if (not values or any(type(row) is not list or len(row) != width for row in values)
                                or not all(type(v) is int for row in values for v in row)):
                            continue
                        spec = GAMES.get(key[0])
                        wide = spec is None or bool(spec.outcomes[modes[key[2]]].limbs)
                        if not wide and any(not -(1 << 63) <= v < 1 << 63 for row in values for v in row):
                            continue
                    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
                        continue  # a damaged block: not carried over, its hands are played again when asked for
                    form = "json" if wide else "<i8"
                    blob = (json.dumps([values], separators=(",", ":")).encode() if wide
                            else np.asarray([values], dtype=form).tobytes())
                    parts_text = json.dumps([int(count)])
                    self.db.execute("INSERT INTO blocks (config_id, first, count, parts, complete, format, sums, "
                                    "checksum, created) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)",
                                    (config, first, count, parts_text, form, blob,
                                     _checksum(tuple(key), first, count, parts_text, form, blob), created))
                self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self, hurry: bool = False) -> None:
        """Commit what is left and close.  Waits for another process's lock up to
        :data:`CLOSE_WAIT_S` (saying so after two seconds), or :data:`INTERRUPTED_WAIT_S`
        with ``hurry`` or once a signal asks to stop, then says in one warning what was
        not stored.  A signal that only ended this wait is forgotten: the command's work
        is done, and it finishes as usual."""
        from analyzer import interrupts

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
                        LOG.warning(f"the result store {self.path} was locked by another process for {waited:.0f} s; "
                                    f"the last {self._unstored()} played were not stored")
                        break
                    if not stopping and not told and waited >= 2:
                        LOG.warning(f"the result store {self.path} is locked by another process; waiting up to "
                                    f"{CLOSE_WAIT_S:.0f} s to store the last {self._unstored()} played (Ctrl-C stops "
                                    f"waiting)")
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
            if _is_busy(problem):
                raise ValueError(f"the result store {self.path} was kept locked by another process for "
                                 f"{READ_WAIT_S:.0f} s while this one read it; try again, or give --no-store.") from None
            raise _not_a_store(self.path, f"it could not be read: {_reason(problem)}") from None

    def _key(self, spec: GameSpec, mode: int, players: int, seed: int, rules, policy) -> tuple:
        """:func:`_key`, remembered (a report asks for the same configurations many times)."""
        memo = (spec.name, mode, players, seed, tuple(int(v) for v in rules),
                np.asarray(policy, dtype=np.float64).tobytes())
        if memo not in self._keys:
            self._keys[memo] = _key(spec, mode, players, seed, rules, policy)
        return self._keys[memo]

    def _config_id(self, key: tuple, make: bool = False) -> int | None:
        if key not in self._configs:
            found = self.db.execute(f"SELECT id FROM configs WHERE {_WHERE}", key).fetchone()
            if found is None and make:
                self.db.execute("INSERT OR IGNORE INTO configs (game, kernel_hash, mode, players, seed, rules, policy, "
                                "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", key + (time.time(),))
                found = self.db.execute(f"SELECT id FROM configs WHERE {_WHERE}", key).fetchone()
            if found is None:
                return None
            self._configs[key] = found[0]
        return self._configs[key]

    def cover(self, spec: GameSpec, mode: int, players: int, seed: int, jobs,
              grouped: tuple[list[int], list[tuple]] | None = None) -> list[list[Segment]]:
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
                rows = self._reading(lambda: self.db.execute(
                    "SELECT id, first, count, parts, format, sums, checksum FROM blocks WHERE config_id=? AND "
                    "first<? AND first+count>?", (config, hi, lo)).fetchall())
                for row in rows:
                    block = (row[0], row[-1])
                    if block in self._doomed:
                        continue
                    run = _decode(row, key, shape, wide)
                    if run is None:
                        self._doomed[block] = f"entry {config}, {_span(row[1], row[2], MODE_NAMES[mode])}"
                        damaged.append(self._doomed[block])
                    else:
                        runs.append(run)
            if not runs:  # nothing stored: every job is one gap
                for index in indices:
                    covered[index] = [Segment(int(jobs[index][2]), int(jobs[index][3]))] if jobs[index][3] else []
                continue
            exact = {(start, end): sums for run in runs  # the usual reuse: a stored part is exactly a job
                     for start, end, sums in zip(run.bounds, run.bounds[1:], run.sums)}
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
                covered[index] = _segments(first, count, starts, order, outcomes)
        if damaged:
            many = len(damaged) > 1
            named = "; ".join(damaged[:3]) + (" ..." if len(damaged) > 3 else "")
            fate = "removed" if self.writable else "left alone (the store cannot be written)"
            LOG.warning(f"the result store {self.path} had {len(damaged)} damaged block{'s' if many else ''} ({named}) "
                        f"that failed {'their checksums; they were' if many else 'its checksum; it was'} {fate} and "
                        f"{'their' if many else 'its'} hands played again")
        return covered

    # -------------------------------------------------------------- writing

    def record(self, slot: tuple, spec: GameSpec, mode: int, players: int, seed: int, rules, policy,
               runs: list[Run], complete: bool, played: int) -> None:
        """What the job list ``slot`` (any hashable name, one per job list and
        configuration) has finished of this configuration: its runs, ``complete`` once
        they are whole jobs, of which ``played`` hands were played (not read from the
        store).  Replaces what the slot recorded before; committed by the next
        :meth:`tick` that is due, or by :meth:`close`."""
        if not self.writable:
            return
        found = self._slots.get(slot)
        if found is None:
            found = self._slots[slot] = _Slot(self._key(spec, mode, players, seed, rules, policy),
                                              bool(spec.outcomes[mode].limbs))
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
        encoded = [(slot, [self._encoded(slot, run) for run in slot.runs]) for slot in changed]
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
            if _is_busy(problem):
                return False
            self.writable = False
            LOG.warning(f"the result store {self.path} could not be written ({_reason(problem)}); the run goes on "
                        f"without storing")
            return True
        self._doomed.clear()
        for slot, rows in written:
            slot.rows, slot.dirty = rows, False
        for name in [name for name, slot in self._slots.items() if slot.complete and not slot.dirty]:
            del self._slots[name]  # committed whole: the store answers for it now
        return True

    @staticmethod
    def _encoded(slot: _Slot, run: Run) -> tuple:
        """A run as the values of its block's row: (run, parts, format, sums, checksum)."""
        form, blob = _encode(run, slot.wide)
        parts_text = json.dumps(run.parts)
        return run, parts_text, form, blob, _checksum(slot.key, run.first, run.count, parts_text, form, blob)

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
            new = [(self.db.execute("INSERT INTO blocks (config_id, first, count, parts, complete, format, sums, "
                                    "checksum, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                    (config, run.first, run.count, parts_text, int(slot.complete), form, blob,
                                     checksum, time.time())).lastrowid, checksum)
                   for run, parts_text, form, blob, checksum in rows]
            doomed = list(slot.rows)
            if slot.complete:
                doomed += self._redundant(config, [row[0] for row in rows], {block for block, _ in new})
            self.db.executemany("DELETE FROM blocks WHERE id = ? AND checksum = ?", doomed)
            written.append((slot, new))
        self.db.executemany("DELETE FROM blocks WHERE id = ? AND checksum = ?", list(self._doomed))
        return written

    def _redundant(self, config: int, runs: list[Run], keep: set[int]) -> list[tuple[int, str]]:
        """Blocks (id, checksum) that the complete ``runs`` make redundant: inside one of
        them and cut only at its boundaries, or left incomplete by an earlier run.  (The
        checksum leaves ``complete`` out: whatever it says, such a block lies inside
        what was just written, so removing it loses nothing.)"""
        doomed = []
        for run in runs:
            bounds = set(run.bounds)
            for row, first, parts_text, complete, checksum in self.db.execute(
                    "SELECT id, first, parts, complete, checksum FROM blocks WHERE config_id=? AND first>=? AND "
                    "first+count<=?", (config, run.first, run.first + run.count)):
                if row in keep:
                    continue
                try:
                    cuts = [int(first)]
                    for size in json.loads(parts_text):
                        cuts.append(cuts[-1] + int(size))
                except (ValueError, TypeError):
                    continue  # damaged: found and named when read
                if not complete or bounds.issuperset(cuts):
                    doomed.append((row, checksum))
        return doomed

    # -------------------------------------------------------------- the store command

    def size(self) -> int:
        """Bytes on disk: the database and its write-ahead log."""
        return sum(path.stat().st_size for path in (self.path, self.path.with_name(self.path.name + "-wal"))
                   if path.exists())

    def entries(self, game: str | None = None) -> list[Entry]:
        """Every stored configuration (of ``game``), oldest first."""
        query = ("SELECT c.id, c.game, c.kernel_hash, c.mode, c.players, c.seed, c.rules, c.policy, c.created, "
                 "b.first, b.count FROM configs c LEFT JOIN blocks b ON b.config_id = c.id"
                 + (" WHERE c.game = ?" if game else "") + " ORDER BY c.id, b.first")
        found: dict[int, dict] = {}
        rows = self._reading(lambda: self.db.execute(query, (game,) if game else ()).fetchall())
        for row in rows:
            entry = found.setdefault(row[0], {"row": row, "ranges": []})
            if row[9] is not None:
                entry["ranges"].append((row[9], row[9] + row[10]))
        entries = []
        for config, item in found.items():
            row = item["row"]
            covered, reach = 0, None
            for lo, hi in sorted(item["ranges"]):
                if reach is None or lo >= reach:
                    covered += hi - lo
                    reach = hi
                elif hi > reach:
                    covered += hi - reach
                    reach = hi
            entries.append(Entry(config, row[1], row[2], row[3], row[4], int(row[5]), tuple(json.loads(row[6])),
                                 tuple(tuple(seat) for seat in json.loads(row[7])), len(item["ranges"]), covered,
                                 row[8]))
        return entries

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


def _segments(first: int, count: int, starts: dict, order: list[int], outcomes) -> list[Segment]:
    """Hands ``first .. first + count - 1`` as stored stretches (see
    :meth:`ResultStore.cover`) and gaps."""
    end = first + count
    segments: list[Segment] = []
    position = first
    while position < end:
        best = None  # (reach, run, first part, last part + 1)
        for run, part in starts.get(position, ()):
            last = part
            while last < len(run.bounds) - 1 and run.bounds[last + 1] <= end:
                last += 1
            if last > part and (best is None or run.bounds[last] > best[0]):
                best = (run.bounds[last], run, part, last)
        if best is None:
            following = bisect.bisect_right(order, position)
            stop = min(order[following], end) if following < len(order) else end
            segments.append(Segment(position, stop - position))
            position = stop
            continue
        reach, run, part, last = best
        total = run.sums[part]
        for k in range(part + 1, last):
            total = outcomes.combine(total, run.sums[k])
        segments.append(Segment(position, reach - position, total))
        position = reach
    return segments
