"""A rule's value from text or a typed value, and a game's ``Rules`` from its default, a
variant and rule values: the one rule parser, used by the command line and the API
(``analyzer.run.params``) and by the decisions' example command lines
(:mod:`sims.situations`).  Every problem raises ``ValueError`` with one sentence."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Union

import numpy as np

from sims.spec import GameSpec, RuleField

RuleValue = Union[int, bool, str]  # a rule's value: a number, true/false, or text as the command line takes it


def parse_bool(text: str) -> int | None:
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on", "1"):
        return 1
    if lowered in ("false", "no", "off", "0"):
        return 0
    return None


def rule_code(field: RuleField, value: RuleValue, game: str) -> int:
    """The integer code of one rule's value: a bool for a true/false rule, an int for a
    number, a choice's name, or any of them as text (as the command line takes them)."""
    if isinstance(value, str):
        return parse_rule_value(field, value, game)
    if isinstance(value, (bool, np.bool_)):
        if field.kind != "bool":
            raise ValueError(f"rule {field.key} of {game} takes {field.allowed_text()}, not {bool(value)}.")
        return int(value)
    if isinstance(value, (int, np.integer)):
        if field.kind == "choice":
            raise ValueError(f"rule {field.key} of {game} takes {field.allowed_text()}, not {value}.")
        if field.kind == "bool":
            if value not in (0, 1):
                raise ValueError(f"rule {field.key} of {game} takes true or false, not {value}.")
            return int(value)
        return parse_rule_value(field, str(int(value)), game)
    raise ValueError(f"rule {field.key} of {game} takes {field.allowed_text()}, not {value!r}.")


def parse_rule_value(field: RuleField, text: str, game: str) -> int:
    """The integer code of ``text`` for one rule field."""
    value = text.strip()
    if field.kind == "choice":
        wanted = value.lower().replace("_", "-")
        if wanted in field.choices:
            return field.choices.index(wanted)
        raise ValueError(f"rule {field.key} of {game} takes {field.allowed_text()}, not '{text}'.")
    if field.kind == "bool":
        code = parse_bool(value)
        if code is None:
            raise ValueError(f"rule {field.key} of {game} takes true or false, not '{text}'.")
        return code
    if not re.fullmatch(r"[+-]?\d+", value):
        raise ValueError(f"rule {field.key} of {game} takes a whole number {field.allowed_text()}, not '{text}'.")
    number = int(value)
    if (field.lo is not None and number < field.lo) or (field.hi is not None and number > field.hi):
        raise ValueError(f"rule {field.key} of {game} must be in {field.allowed_text()}, not {number}.")
    return number


def named_key(key: object, what: str) -> str:
    """A rule or policy key as the game names it (``-`` read as ``_``)."""
    if not isinstance(key, str):
        raise ValueError(f"{what} are named by text, not {key!r}.")
    return key.strip().replace("-", "_")


def build_rules(spec: GameSpec, variant: str | None, rules: Mapping[str, RuleValue]):
    """The game's ``Rules``: its default, then a variant, then ``rules`` (key: value)."""
    values = {field.key: field.default for field in spec.rules}
    if variant is not None:
        if variant not in spec.variants:
            raise ValueError(
                f"unknown variant '{variant}' for {spec.name}; the variants are: {', '.join(spec.variants)}."
            )
        values.update({key: int(code) for key, code in spec.variants[variant].rules.items()})
    fields = {field.key: field for field in spec.rules}
    for given, value in rules.items():
        key = named_key(given, "rules")
        if key not in fields:
            raise ValueError(f"unknown rule '{key}' for {spec.name}; the rules are: {', '.join(fields)}.")
        values[key] = rule_code(fields[key], value, spec.name)
    return spec.rules_type(**values)
