"""Parse what the user typed (counts, --variant, --rule, --strategy, --policy, --seat)
against a game's spec.  Every problem raises ``ValueError`` with one sentence."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from sims.spec import GameSpec, RuleField

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
    value = int(raw)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = (f"from {lo} to {hi}" if lo is not None and hi is not None
                else f"at least {lo}" if lo is not None else f"at most {hi}")
        raise ValueError(f"{what} must be a whole number {span}, not {raw}.")
    return value


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


MAX_SEED = 2**64 - 1


def _parse_bool(text: str) -> int | None:
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on", "1"):
        return 1
    if lowered in ("false", "no", "off", "0"):
        return 0
    return None


def parse_rule_value(field: RuleField, text: str, game: str) -> int:
    """The integer code of ``text`` for one rule field."""
    value = text.strip()
    if field.kind == "choice":
        wanted = value.lower().replace("_", "-")
        if wanted in field.choices:
            return field.choices.index(wanted)
        raise ValueError(f"rule {field.key} of {game} takes {field.allowed_text()}, not '{text}'.")
    if field.kind == "bool":
        code = _parse_bool(value)
        if code is None:
            raise ValueError(f"rule {field.key} of {game} takes true or false, not '{text}'.")
        return code
    if not re.fullmatch(r"[+-]?\d+", value):
        raise ValueError(f"rule {field.key} of {game} takes a whole number {field.allowed_text()}, not '{text}'.")
    number = int(value)
    if (field.lo is not None and number < field.lo) or (field.hi is not None and number > field.hi):
        raise ValueError(f"rule {field.key} of {game} must be in {field.allowed_text()}, not {number}.")
    return number


def _split_assignment(text: str, flag: str) -> tuple[str, str]:
    if "=" not in text:
        raise ValueError(f"{flag} '{text}' must look like KEY=VALUE.")
    key, value = text.split("=", 1)
    return key.strip().replace("-", "_"), value


def build_rules(spec: GameSpec, variant: str | None, assignments: list[str]):
    """The game's ``Rules``: its default, then a variant, then ``KEY=VALUE`` overrides."""
    values = {field.key: field.default for field in spec.rules}
    if variant is not None:
        if variant not in spec.variants:
            raise ValueError(f"unknown variant '{variant}' for {spec.name}; the variants are: {', '.join(spec.variants)}.")
        values.update({key: int(code) for key, code in spec.variants[variant].rules.items()})
    fields = {field.key: field for field in spec.rules}
    for text in assignments:
        key, value = _split_assignment(text, "--rule")
        if key not in fields:
            raise ValueError(f"unknown rule '{key}' for {spec.name}; the rules are: {', '.join(fields)}.")
        values[key] = parse_rule_value(fields[key], value, spec.name)
    return spec.rules_type(**values)


def parse_policy_value(spec: GameSpec, key: str, text: str) -> float:
    """The numeric value of one policy field, checked against its range."""
    fields = {field.key: field for field in spec.policy_fields}
    if key not in fields:
        raise ValueError(f"unknown policy field '{key}' for {spec.name}; the fields are: {', '.join(fields)}.")
    field = fields[key]
    value = text.strip()
    if field.choices and value.lower().replace("_", "-") in field.choices:
        return float(field.choices.index(value.lower().replace("_", "-")))
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"policy field {key} of {spec.name} takes {field.allowed_text()}, not '{text}'.") from None
    if not np.isfinite(number) or number < field.lo or number > field.hi:
        raise ValueError(f"policy field {key} of {spec.name} must be in {field.allowed_text()}, not {value}.")
    if field.integer and number != int(number):
        raise ValueError(f"policy field {key} of {spec.name} takes a whole number, not {value}.")
    return number


def build_policy(spec: GameSpec, n_seats: int, strategy: str | None, all_seats: list[str],
                 per_seat: list[str]) -> np.ndarray:
    """The ``[n_seats, n_fields]`` policy: a preset, then all-seat, then per-seat values."""
    name = "default" if strategy is None else strategy
    if name not in spec.policies:
        raise ValueError(f"unknown strategy '{name}' for {spec.name}; the strategies are: {', '.join(spec.policies)}.")
    policy = spec.default_policy(n_seats, name)
    columns = {field.key: i for i, field in enumerate(spec.policy_fields)}
    for text in all_seats:
        key, value = _split_assignment(text, "--policy")
        number = parse_policy_value(spec, key, value)  # rejects unknown keys first
        policy[:, columns[key]] = number
    for text in per_seat:
        seat_text, _, assignment = text.partition(":")
        if not assignment or not re.fullmatch(r"\s*-?\d+\s*", seat_text):
            raise ValueError(f"--seat '{text}' must look like SEAT:KEY=VALUE, e.g. 0:threshold=6.")
        seat = int(seat_text)
        if not 0 <= seat < n_seats:
            raise ValueError(f"seat {seat} does not exist with {n_seats} players (seats are 0 to {n_seats - 1}).")
        key, value = _split_assignment(assignment, "--seat")
        number = parse_policy_value(spec, key, value)
        policy[seat, columns[key]] = number
    return policy


@dataclass(frozen=True)
class Table:
    """A fully resolved table: what the kernel will play."""

    players: int
    rules: tuple
    policy: np.ndarray
    variant: str | None
    strategy: str


def resolve_table(spec: GameSpec, players: int | None, variant: str | None, rule_assignments: list[str],
                  strategy: str | None, policy_assignments: list[str], seat_assignments: list[str]) -> Table:
    """Players, rules and policy from the command line, checked by the game."""
    suggested = spec.variants[variant] if variant in spec.variants else None
    if players is None:
        players = suggested.players if suggested and suggested.players else spec.default_players
    if not spec.min_players <= players <= spec.max_players:
        allowed = (f"exactly {spec.min_players}" if spec.min_players == spec.max_players
                   else f"{spec.min_players} to {spec.max_players}")
        raise ValueError(f"{spec.title} takes {allowed} players, not {players}.")
    rules = build_rules(spec, variant, rule_assignments)
    if strategy is None and suggested and suggested.policy:
        strategy = suggested.policy
    policy = build_policy(spec, players, strategy, policy_assignments, seat_assignments)
    spec.check(rules, policy, players)
    return Table(players, tuple(rules), policy, variant, strategy or "default")


def parse_seat(text: str | None, players: int) -> int | None:
    """A seat number from the command line (``None`` stays ``None``)."""
    if text is None:
        return None
    if not re.fullmatch(r"\s*\d+\s*", text):
        raise ValueError(f"--seat takes a seat number, not '{text}'.")
    seat = int(text)
    if seat >= players:
        raise ValueError(f"seat {seat} does not exist with {players} players (seats are 0 to {players - 1}).")
    return seat
