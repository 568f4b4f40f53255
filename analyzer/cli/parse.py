"""The command line's text as the API's typed values: counts (``1e6``, ``2_000_000``,
``5M``), whole and positive numbers, a seat, ``KEY=VALUE`` rule and policy assignments
and ``SEAT:KEY=VALUE`` per-seat ones.  Every problem raises ``ValueError`` with one
sentence naming the option."""

from __future__ import annotations

import math
import re
from typing import Any

_SUFFIXES = {"k": 10**3, "m": 10**6, "b": 10**9, "g": 10**9}
_MAX_COUNT = 10**13
# digits grouped by single underscores (2_000_000) or by commas in threes (2,000,000)
_DIGITS = r"[0-9]+(?:_[0-9]+)*|[0-9]{1,3}(?:,[0-9]{3})+"
_NUMBER = re.compile(rf"(?:{_DIGITS})(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?")


def parse_count(text: str, what: str = "count") -> int:
    """A positive whole count: ``1000000``, ``1e6``, ``2_000_000``, ``2,000,000``, ``5M``,
    ``2.5k``.  Anything else (``1,,000``, ``1e``, ``-5``, ``nan``) is refused with a sentence."""
    raw = str(text).strip()
    body = raw
    multiplier = 1
    if body and body[-1].lower() in _SUFFIXES:
        multiplier = _SUFFIXES[body[-1].lower()]
        body = body[:-1]
    if body.startswith("-") and _NUMBER.fullmatch(body[1:]):
        raise ValueError(f"{what} must be positive, not {raw}.")
    if not _NUMBER.fullmatch(body):
        raise ValueError(f"{what} '{raw}' is not a number; write it like 1000000, 1e6, 2_000_000 or 5M.")
    value = float(body.replace("_", "").replace(",", "")) * multiplier
    if value > _MAX_COUNT:
        raise ValueError(f"{what} {raw} is too large (at most 1e13).")
    if value != int(value):
        raise ValueError(f"{what} '{raw}' is not a whole number.")
    if value < 1:
        raise ValueError(f"{what} must be positive, not {raw}.")
    return int(value)


def parse_whole(text: str | None, what: str, lo: int | None = None, hi: int | None = None) -> int | None:
    """A whole number option (``--players``, ``--seed``, ``--hand`` ...) checked against
    its range; ``None`` stays ``None``."""
    if text is None:
        return None
    raw = str(text).strip()
    if not re.fullmatch(r"[+-]?[0-9]+", raw):
        raise ValueError(f"{what} takes a whole number, not '{text}'.")
    from analyzer.api.checks import whole

    return whole(int(raw), what, what, lo, hi)


def parse_positive(text: str | None, what: str) -> float | None:
    """A positive finite number option (``--target-se``); ``None`` stays ``None``."""
    if text is None:
        return None
    try:
        value = float(str(text).strip())
    except ValueError:
        raise ValueError(f"{what} takes a positive number, not '{text}'.") from None
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{what} must be a positive number, not {str(text).strip()}.")
    return value


def _split_assignment(text: str, flag: str) -> tuple[str, str]:
    if "=" not in text:
        raise ValueError(f"{flag} '{text}' must look like KEY=VALUE.")
    key, value = text.split("=", 1)
    return key.strip().replace("-", "_"), value


def parse_assignments(texts: list[str] | None, flag: str, once: bool = False) -> dict[str, str]:
    """``KEY=VALUE`` options (``--rule``, ``--policy``) as a dict of the values' text, in
    order; a key given again takes the later value, or with ``once`` (``--context``: two
    values of one thing seen cannot both be true) is refused in one sentence."""
    found: dict[str, str] = {}
    for text in texts or []:
        key, value = _split_assignment(text, flag)
        if once and key in found:
            raise ValueError(f"{flag} {key} is given twice ({found[key]!r} and {value!r}); give each key once.")
        found.pop(key, None)
        found[key] = value
    return found


def parse_seat_assignments(texts: list[str] | None, flag: str = "--seat") -> dict[int, dict]:
    """``SEAT:KEY=VALUE`` options as ``{seat: {key: value text}}``; ``SEAT:table=FILE``
    (repeatable, one file per decision) as ``{seat: {"table": [FILE, ...]}}``."""
    found: dict[int, dict[str, Any]] = {}
    for text in texts or []:
        seat_text, _, assignment = text.partition(":")
        if not assignment or not re.fullmatch(r"\s*-?\d+\s*", seat_text):
            raise ValueError(f"{flag} '{text}' must look like SEAT:KEY=VALUE, e.g. 0:threshold=6.")
        key, value = _split_assignment(assignment, flag)
        seat = found.setdefault(int(seat_text), {})
        if key == "table":
            if not value.strip():
                raise ValueError(f"{flag} '{text}' names no file: SEAT:table=FILE, e.g. 0:table=mine.csv.")
            seat.setdefault("table", []).append(value.strip())
            continue
        seat.pop(key, None)
        seat[key] = value
    return found
