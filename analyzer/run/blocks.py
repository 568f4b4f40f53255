"""The blocks of the result store (``analyzer.run.store``) as values: a configuration's
key, a :class:`Run` of consecutive parts and their exact sums, the encoding of a block's
sums (the narrowest integer width, or JSON for wide outcomes) and its checksum, and the
cover of a job by stored parts and gaps (:func:`segments_of`)."""

from __future__ import annotations

import bisect
import hashlib
import json
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from sims.engine import kernel_hash
from sims.spec import MODE_NAMES, GameSpec


def span_text(first, count, unit: str) -> str:
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
    count: int  # type: ignore[assignment]  # the hands it holds (a NamedTuple field over tuple.count)
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


def configuration_key(spec: GameSpec, mode: int, players: int, seed: int, rules, policy) -> tuple:
    rules_text = json.dumps([int(v) for v in rules])
    policy_text = json.dumps(np.asarray(policy, dtype=np.float64).tolist())
    return (spec.name, kernel_hash(spec), MODE_NAMES[mode], int(players), str(int(seed)), rules_text, policy_text)


NARROW = ("<i1", "<i2", "<i4", "<i8")  # the integer widths a block's sums may be kept in


def encode_sums(run: Run, wide: bool) -> tuple[str, bytes]:
    """A run's sums as (format, bytes): little-endian integers of the narrowest width that
    holds them all (counts of a few thousand hands fit 2 bytes), or JSON for the exact
    integers of wide outcomes."""
    if not wide:
        stack = np.array(run.sums, dtype=np.int64)
        largest = max(int(stack.max()), -int(stack.min()) - 1) if stack.size else 0
        form = next(form for form in NARROW if largest < 1 << (8 * int(form[-1]) - 1))
        return form, stack.astype(form).tobytes()
    return "json", json.dumps(
        [[[int(v) for v in row] for row in part] for part in run.sums], separators=(",", ":")
    ).encode()


_KEY_DIGESTS: dict[tuple, bytes] = {}


def block_checksum(key: tuple, first: int, count: int, parts_text: str, form: str, blob: bytes) -> str:
    """A block's checksum: of its configuration's key, its range, parts, format and sums."""
    if key not in _KEY_DIGESTS:  # a key is long (the policy matrix): digested once
        _KEY_DIGESTS[key] = hashlib.blake2b(json.dumps(list(key)).encode(), digest_size=16).digest()
    digest = hashlib.blake2b(_KEY_DIGESTS[key], digest_size=16)
    digest.update(f"{int(first)} {int(count)} {parts_text} {form} ".encode())
    digest.update(bytes(blob))
    return digest.hexdigest()


def decode_block(row, key: tuple, shape: tuple[int, int], wide: bool) -> Run | None:
    """A stored block as a :class:`Run`, or None when it fails its checksum or its sums
    do not have the outcomes' shape (edited or damaged)."""
    _, first, count, parts_text, form, blob, checksum = row
    try:
        if not isinstance(blob, bytes) or checksum != block_checksum(key, first, count, parts_text, form, blob):
            return None
        parts = json.loads(parts_text)
        if (
            not isinstance(parts, list)
            or not parts
            or any(type(p) is not int or p <= 0 for p in parts)
            or sum(parts) != count
        ):
            return None
        if form in NARROW and not wide:
            flat = np.frombuffer(blob, dtype=form)
            if flat.size != len(parts) * shape[0] * shape[1]:
                return None
            sums = tuple(flat.astype(np.int64).reshape(len(parts), *shape))
        elif form == "json" and wide:
            values = json.loads(blob)
            if (
                len(values) != len(parts)
                or any(len(part) != shape[0] for part in values)
                or any(len(row) != shape[1] or any(type(v) is not int for v in row) for part in values for row in part)
            ):
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


def segments_of(first: int, count: int, starts: dict, order: list[int], outcomes) -> list[Segment]:
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


@dataclass
class Slot:
    """What one job list of one configuration has finished (see ``ResultStore``):
    its runs, whether they are whole jobs, the rows that hold its last commit, and
    whether it changed since."""

    key: tuple
    wide: bool
    runs: list[Run] = field(default_factory=list)
    complete: bool = False
    rows: list[tuple[int, str]] = field(default_factory=list)  # (id, checksum) of its last commit's blocks
    dirty: bool = False
    played: int = 0  # of the runs' hands, those played by this process (not read from the store)


def encoded_row(slot: Slot, run: Run) -> tuple:
    """A run as the values of its block's row: (run, parts, format, sums, checksum)."""
    form, blob = encode_sums(run, slot.wide)
    parts_text = json.dumps(run.parts)
    return run, parts_text, form, blob, block_checksum(slot.key, run.first, run.count, parts_text, form, blob)


def redundant_blocks(db, config: int, runs: list[Run], keep: set[int]) -> list[tuple[int, str]]:
    """Blocks (id, checksum) that the complete ``runs`` make redundant: inside one of
    them and cut only at its boundaries, or left incomplete by an earlier run.  (The
    checksum leaves ``complete`` out: whatever it says, such a block lies inside
    what was just written, so removing it loses nothing.)"""
    doomed = []
    for run in runs:
        bounds = set(run.bounds)
        for row, first, parts_text, complete, checksum in db.execute(
            "SELECT id, first, parts, complete, checksum FROM blocks WHERE config_id=? AND first>=? AND first+count<=?",
            (config, run.first, run.first + run.count),
        ):
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
