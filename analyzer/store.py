"""The result store: an embedded SQLite database of finished blocks of hands.

A block is the exact integer sums of hands (or games) ``first .. first + count - 1`` of
one configuration, keyed by everything that decides them: the game, the hash of its
kernel's sources (:func:`kernel_hash`), the mode, the number of players, the seed, the
rule codes and the policy matrix.  Sums are exact integers, so sums of neighbouring
blocks add up to exactly what one run over both would give: a run asks the store to
cover its hands with stored blocks (:meth:`ResultStore.cover`) and plays only the gaps.
That makes a repeated command free, a raised ``--hands`` play only the new hands, and an
interrupted run resume where it stopped.

Durability: each block is written in a transaction of its own (SQLite's write-ahead log,
``synchronous=NORMAL``), so a block is either whole in the store or absent; a process
killed at any moment leaves every block it had finished.  Several processes may write at
once: SQLite serialises the writers (``busy_timeout``) and a block already stored is
ignored.  Blocks of a kernel whose sources changed are never read (their hash differs)
and ``analyze store --prune`` removes them.

A file given as a store that is not one (a text file, a damaged database, another
program's database) is refused with one sentence, and nothing is written to it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sims.engine import LOG, kernel_hash
from sims.spec import MODE_NAMES, GameSpec

APPLICATION_ID = 0x43414E41  # "CANA": marks a card-analyzer store (SQLite's application_id)
SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 60_000  # how long a writer waits for another process's transaction

_SCHEMA = """
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
);
CREATE TABLE IF NOT EXISTS blocks (
    config_id INTEGER NOT NULL REFERENCES configs(id) ON DELETE CASCADE,
    first INTEGER NOT NULL,
    count INTEGER NOT NULL,
    sums TEXT NOT NULL,            -- JSON [n_seats + 1][width] exact integers
    created REAL NOT NULL,
    PRIMARY KEY (config_id, first, count)
);
"""


def default_store_path() -> Path | None:
    """The store a command uses without ``--store``: ``$CARD_ANALYZER_STORE`` (``off``:
    none), else ``$XDG_DATA_HOME/card-analyzer/results.sqlite``, else
    ``~/.local/share/card-analyzer/results.sqlite``."""
    chosen = os.environ.get("CARD_ANALYZER_STORE")
    if chosen:
        return None if chosen.lower() in ("off", "0", "none") else Path(chosen).expanduser()
    data = os.environ.get("XDG_DATA_HOME")
    return (Path(data) if data else Path.home() / ".local" / "share") / "card-analyzer" / "results.sqlite"


def _not_a_store(path: Path, why: str) -> ValueError:
    return ValueError(f"--store {path} is not a card-analyzer result store ({why}); give another file, or --no-store.")


def _check_existing(path: Path) -> bool:
    """Whether ``path`` is already a store (False: absent or empty, to be created);
    ``ValueError`` for anything else.  Judged from the file's header bytes (SQLite keeps
    the application id at offset 68 and the format at 60), so a foreign file is never
    opened by SQLite and nothing is written beside it."""
    if path.is_dir():
        raise ValueError(f"--store {path} is a folder; give the path of a store file.")
    if not path.exists() or path.stat().st_size == 0:
        return False
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
    if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
        raise ValueError(f"--store {path} cannot be written (a read-only file or folder); give another file, or "
                         f"--no-store.")
    return True


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
            built.executescript(_SCHEMA)
            built.execute("PRAGMA journal_mode = WAL")
        finally:
            built.close()
        if path.exists() and path.stat().st_size == 0:
            os.replace(temporary, path)  # an empty file given as the store
        else:
            try:
                os.link(temporary, path)
            except FileExistsError:
                pass  # made by another process meanwhile
            except OSError:  # a file system without hard links: a rename, unless one appeared
                if not path.exists():
                    os.replace(temporary, path)
    finally:
        for leftover in (temporary, temporary.with_name(temporary.name + "-wal"),
                         temporary.with_name(temporary.name + "-shm")):
            leftover.unlink(missing_ok=True)


@dataclass(frozen=True)
class Segment:
    """A stretch of a job's hands: stored (``sums`` set) or still to play (``sums`` None)."""

    first: int
    count: int
    sums: np.ndarray | None = None


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

    Reading a damaged store raises ``ValueError`` with one sentence; a failure to write
    (a full disk, a lock held for over a minute) is one warning, after which the run goes
    on without storing."""

    def __init__(self, path: Path | str):
        self.path = Path(path).expanduser()
        try:
            if not _check_existing(self.path):
                _create(self.path)
                _check_existing(self.path)
            self.db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                      check_same_thread=False)
        except (OSError, sqlite3.Error) as problem:
            raise ValueError(f"--store {self.path} could not be opened: {problem}.") from None
        try:
            self.db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self.db.execute("PRAGMA synchronous = FULL")  # a committed block survives a power cut too
        except sqlite3.Error as problem:
            self.db.close()
            raise ValueError(f"--store {self.path} could not be opened: {problem}.") from None
        self.writable = True

    def close(self) -> None:
        self.db.close()

    @contextlib.contextmanager
    def _reading(self):
        """Turn a damaged database found while reading into one sentence."""
        try:
            yield
        except sqlite3.Error as problem:
            raise _not_a_store(self.path, f"it could not be read: {problem}") from None

    @contextlib.contextmanager
    def _transaction(self):
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    @staticmethod
    def _key(spec: GameSpec, mode: int, players: int, seed: int, rules, policy) -> tuple:
        rules_text = json.dumps([int(v) for v in rules])
        policy_text = json.dumps(np.asarray(policy, dtype=np.float64).tolist())
        return (spec.name, kernel_hash(spec), MODE_NAMES[mode], int(players), str(int(seed)), rules_text, policy_text)

    _WHERE = "game=? AND kernel_hash=? AND mode=? AND players=? AND seed=? AND rules=? AND policy=?"

    def cover(self, spec: GameSpec, mode: int, players: int, seed: int, rules, policy, first: int,
              count: int) -> list[Segment]:
        """Hands ``first .. first + count - 1`` as stored blocks and gaps, in order.

        From each position the longest stored block that starts there and fits is taken;
        where none starts, the gap runs to the next stored block that fits."""
        end = first + count
        with self._reading():
            found = self.db.execute(f"SELECT id FROM configs WHERE {self._WHERE}",
                                    self._key(spec, mode, players, seed, rules, policy)).fetchone()
            if found is None:
                return [Segment(first, count)]
            config = found[0]
            rows = self.db.execute("SELECT first, count FROM blocks WHERE config_id=? AND first>=? AND first+count<=? "
                                   "ORDER BY first, count DESC", (config, first, end)).fetchall()
        longest: dict[int, int] = {}
        for start, size in rows:
            longest.setdefault(start, size)
        starts = sorted(longest)
        segments: list[Segment] = []
        position = first
        index = 0
        while position < end:
            while index < len(starts) and starts[index] < position:
                index += 1
            if index < len(starts) and starts[index] == position:
                size = longest[position]
                segments.append(Segment(position, size, self._sums(spec, mode, config, position, size)))
                position += size
            else:
                stop = starts[index] if index < len(starts) else end
                segments.append(Segment(position, stop - position))
                position = stop
        return segments

    def _sums(self, spec: GameSpec, mode: int, config: int, first: int, count: int) -> np.ndarray:
        with self._reading():
            text = self.db.execute("SELECT sums FROM blocks WHERE config_id=? AND first=? AND count=?",
                                   (config, first, count)).fetchone()[0]
        wide = bool(spec.outcomes[mode].limbs)
        try:
            return np.array(json.loads(text), dtype=object if wide else np.int64)
        except (ValueError, TypeError) as problem:
            raise _not_a_store(self.path, f"a block could not be read: {problem}") from None

    def save(self, spec: GameSpec, mode: int, players: int, seed: int, rules, policy, first: int, count: int,
             sums: np.ndarray) -> None:
        """Keep one finished block: its configuration's row (made if missing) and the block,
        in one transaction (a block already there stays).  A failure to write is one
        warning, and nothing more is stored by this process."""
        if not self.writable:
            return
        key = self._key(spec, mode, players, seed, rules, policy)
        text = json.dumps([[int(v) for v in row] for row in sums])
        try:
            with self._transaction():
                self.db.execute("INSERT OR IGNORE INTO configs (game, kernel_hash, mode, players, seed, rules, policy, "
                                "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", key + (time.time(),))
                config = self.db.execute(f"SELECT id FROM configs WHERE {self._WHERE}", key).fetchone()[0]
                self.db.execute("INSERT OR IGNORE INTO blocks (config_id, first, count, sums, created) "
                                "VALUES (?, ?, ?, ?, ?)", (config, int(first), int(count), text, time.time()))
        except sqlite3.Error as problem:
            self.writable = False
            LOG.warning(f"the result store {self.path} could not be written ({problem}); the run goes on without "
                        f"storing")

    def entries(self, game: str | None = None) -> list[Entry]:
        """Every stored configuration (of ``game``), oldest first."""
        query = ("SELECT c.id, c.game, c.kernel_hash, c.mode, c.players, c.seed, c.rules, c.policy, c.created, "
                 "b.first, b.count FROM configs c LEFT JOIN blocks b ON b.config_id = c.id"
                 + (" WHERE c.game = ?" if game else "") + " ORDER BY c.id, b.first")
        found: dict[int, dict] = {}
        with self._reading():
            rows = self.db.execute(query, (game,) if game else ()).fetchall()
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
        """Remove configurations and their blocks; how many were removed."""
        with self._transaction():
            removed = 0
            for config in ids:
                self.db.execute("DELETE FROM blocks WHERE config_id = ?", (int(config),))
                removed += self.db.execute("DELETE FROM configs WHERE id = ?", (int(config),)).rowcount
        return removed
