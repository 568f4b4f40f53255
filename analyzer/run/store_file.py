"""The result store's file (``analyzer.run.store``): its SQLite schema, where it lives by
default, how a path is judged before SQLite opens it (a regular file of ours, or nothing
there yet) and how a new one is made atomically; and the sentences its errors become."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import stat
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer.run.blocks import block_checksum
from sims.registry import GAMES
from sims.spec import MODE_NAMES

APPLICATION_ID = 0x43414E41  # "CANA": marks a card-analyzer store (SQLite's application_id)
SCHEMA_VERSION = 2  # 1: one JSON row per piece, no parts and no checksum (upgraded in place)

CONFIGS_TABLE = """
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
BLOCKS_TABLE = """
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
BLOCKS_INDEX = "CREATE INDEX IF NOT EXISTS blocks_of_config ON blocks (config_id, first)"
WHERE_KEY = "game=? AND kernel_hash=? AND mode=? AND players=? AND seed=? AND rules=? AND policy=?"


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


def not_a_store(path: Path, why: str) -> ValueError:
    return ValueError(f"--store {path} is not a card-analyzer result store ({why}); give another file, or --no-store.")


def check_existing(path: Path) -> int:
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
        raise not_a_store(path, "it is not an SQLite database")
    if int.from_bytes(header[68:72], "big") != APPLICATION_ID:
        raise not_a_store(path, "it is another program's database")
    version = int.from_bytes(header[60:64], "big")
    if version > SCHEMA_VERSION:
        raise ValueError(
            f"--store {path} was written by a newer card-analyzer (format {version}); update, or give another file."
        )
    return version


def create_store(path: Path) -> None:
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
            for statement in (CONFIGS_TABLE, BLOCKS_TABLE, BLOCKS_INDEX):
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
        for leftover in (
            temporary,
            temporary.with_name(temporary.name + "-wal"),
            temporary.with_name(temporary.name + "-shm"),
        ):
            try:
                leftover.unlink()
            except OSError:
                pass


def is_damage(problem: sqlite3.Error) -> bool:
    """Whether SQLite found the file itself damaged (rather than the disk full, the file
    read-only or locked)."""
    name = getattr(problem, "sqlite_errorname", "")
    text = str(problem).lower()
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in text or "not a database" in text


def is_busy(problem: sqlite3.Error) -> bool:
    name = getattr(problem, "sqlite_errorname", "")
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in str(problem).lower()


def reason_text(problem: BaseException) -> str:
    text = problem.strerror if isinstance(problem, OSError) and problem.strerror else str(problem)
    return " ".join(text.split()).rstrip(".") or type(problem).__name__


def upgrade_blocks(db: sqlite3.Connection) -> None:
    """Inside a transaction: the blocks of a version-1 store (one JSON row per piece) in
    this version's table, each checksummed; a damaged one (not a rectangle of integers,
    past 64 bits where the outcomes are narrow, of an unknown mode) is not carried over,
    and its hands are played again when asked for."""
    old = db.execute(
        "SELECT c.game, c.kernel_hash, c.mode, c.players, c.seed, c.rules, c.policy, "
        "b.config_id, b.first, b.count, b.sums, b.created FROM blocks b JOIN configs c "
        "ON c.id = b.config_id"
    ).fetchall()
    db.execute("DROP TABLE blocks")
    db.execute(BLOCKS_TABLE)
    db.execute(BLOCKS_INDEX)
    modes = {name: mode for mode, name in MODE_NAMES.items()}
    for *key, config, first, count, text, created in old:
        try:
            values = json.loads(text)
            width = len(values[0])
            if (
                not values
                or any(type(row) is not list or len(row) != width for row in values)
                or not all(type(v) is int for row in values for v in row)
            ):
                continue
            spec = GAMES.get(key[0])
            wide = spec is None or bool(spec.outcomes[modes[key[2]]].limbs)
            if not wide and any(not -(1 << 63) <= v < 1 << 63 for row in values for v in row):
                continue
        except (ValueError, TypeError, KeyError, IndexError, RecursionError):
            continue  # a damaged block: not carried over, its hands are played again when asked for
        form = "json" if wide else "<i8"
        blob = (
            json.dumps([values], separators=(",", ":")).encode() if wide else np.asarray([values], dtype=form).tobytes()
        )
        parts_text = json.dumps([int(count)])
        db.execute(
            "INSERT INTO blocks (config_id, first, count, parts, complete, format, sums, "
            "checksum, created) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)",
            (
                config,
                first,
                count,
                parts_text,
                form,
                blob,
                block_checksum(tuple(key), first, count, parts_text, form, blob),
                created,
            ),
        )


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


def list_entries(db: sqlite3.Connection, game: str | None) -> list[Entry]:
    """Every stored configuration (of ``game``), oldest first, with its blocks and the
    distinct hands they cover."""
    query = (
        "SELECT c.id, c.game, c.kernel_hash, c.mode, c.players, c.seed, c.rules, c.policy, c.created, "
        "b.first, b.count FROM configs c LEFT JOIN blocks b ON b.config_id = c.id"
        + (" WHERE c.game = ?" if game else "")
        + " ORDER BY c.id, b.first"
    )
    found: dict[int, dict] = {}
    rows = db.execute(query, (game,) if game else ()).fetchall()
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
        entries.append(
            Entry(
                config,
                row[1],
                row[2],
                row[3],
                row[4],
                int(row[5]),
                tuple(json.loads(row[6])),
                tuple(tuple(seat) for seat in json.loads(row[7])),
                len(item["ranges"]),
                covered,
                row[8],
            )
        )
    return entries


def open_read_only(path: Path, problem: BaseException, wait_s: float) -> sqlite3.Connection:
    """A connection that reads the store at ``path`` without writing to it (a full disk, a
    read-only file or folder, which is ``problem``).  Read-only, SQLite still reads the
    write-ahead log (the last commits of a writer that was killed); where it cannot even
    make its shared-memory index beside the file, the file is read as it is
    (``immutable``), without what the log holds.  ``StoreUnwritable`` when neither works."""
    failed: sqlite3.Error = sqlite3.OperationalError("not opened")
    for mode in ("mode=ro", "immutable=1"):
        db = None
        try:
            db = sqlite3.connect(
                f"{path.resolve().as_uri()}?{mode}",
                uri=True,
                timeout=wait_s,
                isolation_level=None,
                check_same_thread=False,
            )
            db.execute("SELECT count(*) FROM blocks").fetchone()
            if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                raise sqlite3.OperationalError("it needs an upgrade to this version's format")
            return db
        except sqlite3.Error as problem_reading:
            if db is not None:
                db.close()
            failed = problem_reading
    raise StoreUnwritable(
        f"the result store {path} could not be opened ({reason_text(problem)}; reading it: {reason_text(failed)})"
    ) from None
