"""The API's arguments checked once, on typed values, each bad one a ``UserError`` (a
``ValueError``) of one sentence: the game, counts, seeds, threads, the table (players,
rules, policy, seats), where hands are kept and played, and ``out``.

A value of the wrong type is named by its Python parameter ("players takes a whole
number (an int), not '8'"); a value out of range gets the sentence the command line
prints for its option ("--hands must be positive, not 0"), since the command line checks
its values here too.
"""

from __future__ import annotations

import math
import numbers
import operator
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from analyzer.run.params import MAX_SEED, PolicyValue, RuleValue, Table, resolve_table
from sims.spec import MODE_NAMES, GameSpec, Mode
from sims.table_files import Table as FileTable

MIN_COUNT = 100  # hands (or games) per value of the strategy commands: their errors come from batches
MAX_COUNT = 10**13


class UserError(ValueError):
    """Bad input: its message is one sentence (the command line prints it, exit code 2)."""


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def game_spec(game: object) -> GameSpec:
    """The spec of a registered game; ``UserError`` naming the games otherwise."""
    from sims.registry import get_game

    if not isinstance(game, str):
        raise UserError(f"game is the name of a game (a str such as 'chase-ace'), not {_shown(game)}.")
    try:
        return get_game(game)
    except KeyError as problem:
        raise UserError(problem.args[0]) from None


def whole(value: object, name: str, flag: str, lo: int | None = None, hi: int | None = None) -> int:
    """An int (not a bool) from ``lo`` to ``hi``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise UserError(f"{name} takes a whole number (an int), not {_shown(value)}.")
    number = int(value)
    if (lo is not None and number < lo) or (hi is not None and number > hi):
        span = (
            f"from {lo} to {hi}"
            if lo is not None and hi is not None
            else f"at least {lo}"
            if lo is not None
            else f"at most {hi}"
        )
        raise UserError(f"{flag} must be a whole number {span}, not {number}.")
    return number


def optional_whole(value: object, name: str, flag: str, lo: int | None = None, hi: int | None = None) -> int | None:
    return None if value is None else whole(value, name, flag, lo, hi)


def count_of(value: object, name: str) -> int:
    """A count of hands or games: an int, or a float with a whole value (``1e6``), from 1
    to 1e13."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, numbers.Real)):
        raise UserError(f"{name} takes a whole number (an int, or a float such as 1e6), not {_shown(value)}.")
    if isinstance(value, numbers.Integral):
        whole_count = operator.index(value)
        if whole_count > MAX_COUNT:
            raise UserError(f"--{name} {_shown(value)} is too large (at most 1e13).")
        if whole_count < 1:
            raise UserError(f"--{name} must be positive, not {whole_count}.")
        return whole_count
    real = float(value)
    if not math.isfinite(real) or real != int(real):
        raise UserError(f"--{name} '{value}' is not a whole number.")
    if real < 1:
        raise UserError(f"--{name} must be positive, not {real:g}.")
    if real > MAX_COUNT:
        raise UserError(f"--{name} {real:g} is too large (at most 1e13).")
    return int(real)


def positive(value: object, name: str, flag: str) -> float | None:
    """A positive finite number (None stays None)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise UserError(f"{name} takes a positive number (a float), not {_shown(value)}.")
    try:
        value = float(value)
    except OverflowError:  # an int past a float's range
        raise UserError(f"{flag} {_shown(value)} is too large.") from None
    if not (math.isfinite(value) and value > 0):
        raise UserError(f"{flag} must be a positive number, not {value:g}.")
    return float(value)


def optional_text(value: object, name: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise UserError(f"{name} takes a name (a str), not {_shown(value)}.")
    return value


def rule_values(rules: object, name: str = "rules") -> dict[str, RuleValue]:
    """``{rule: value}``: each value a bool, an int or a str."""
    if rules is None:
        return {}
    if not isinstance(rules, Mapping):
        raise UserError(f"{name} is a dict of rule values such as {{'ace_high': True}}, not {_shown(rules)}.")
    for key, value in rules.items():
        if not isinstance(key, str) or not isinstance(value, (bool, numbers.Integral, str)):
            raise UserError(
                f"{name} maps a rule's name to a bool, an int or a str, not {_shown(key)}: {_shown(value)}."
            )
    return dict(rules)


def policy_values(policy: object, name: str = "policy") -> dict[str, PolicyValue]:
    """``{field: value}``: each value a number, a bool or a str (a choice's name)."""
    if policy is None:
        return {}
    if not isinstance(policy, Mapping):
        raise UserError(f"{name} is a dict of policy values such as {{'threshold': 5}}, not {_shown(policy)}.")
    for key, value in policy.items():
        if not isinstance(key, str) or not isinstance(value, (bool, numbers.Real, str)):
            raise UserError(
                f"{name} maps a policy field's name to a number, a bool or a str, not {_shown(key)}: {_shown(value)}."
            )
    return dict(policy)


def _is_table(value: object) -> bool:
    return isinstance(value, (FileTable, str, os.PathLike))


def table_files(tables: object, name: str = "tables") -> list[FileTable]:
    """Table files: a :class:`sims.table_files.Table` (``ca.Table.load(path)``), a file's
    path, or a list of them; each read and checked against its game (one sentence for a
    missing, malformed or wrong file)."""
    if tables is None:
        return []
    given = [tables] if _is_table(tables) else tables
    if not isinstance(given, (list, tuple)) or not all(_is_table(item) for item in given):
        raise UserError(
            f"{name} is a table (ca.Table.load(path)), a table file's path or a list of them, not {_shown(tables)}."
        )
    found = []
    for item in given:
        try:
            if isinstance(item, FileTable):
                item.check()
                found.append(item)
            else:
                if not os.fspath(item).strip():
                    raise UserError(f"{name}: a table file's path is empty.")
                found.append(FileTable.load(item))
        except UserError:
            raise
        except ValueError as problem:
            raise UserError(str(problem)) from None
    return found


def seat_values(seats: object, name: str = "seats") -> dict[int, dict[str, PolicyValue]]:
    """``{seat: {field: value}}`` (a seat's tables, see :func:`seat_tables`, left out)."""
    return {seat: fields for seat, (fields, _) in _seat_entries(seats, name).items()}


def seat_tables(seats: object, name: str = "seats") -> dict[int, list[FileTable]]:
    """``{seat: [table file, ...]}`` of the seats that play tables."""
    return {seat: files for seat, (_, files) in _seat_entries(seats, name).items() if files}


def seat_entries(seats: object, name: str = "seats") -> dict[int, dict]:
    """``{seat: {field: value, ..., "table": [table file, ...]}}``: every seat's value as a
    dict, its tables (if any) read under ``"table"``."""
    found = {}
    for seat, (values, files) in _seat_entries(seats, name).items():
        found[seat] = {**values, "table": files} if files else values
    return found


def _seat_entries(seats: object, name: str) -> dict[int, tuple[dict[str, PolicyValue], list[FileTable]]]:
    """Each seat's policy values and table files: a seat's value is a dict of policy
    values (whose ``"table"`` key, if any, holds its table files), or tables alone (a
    table, a path, or a list of them)."""
    if seats is None:
        return {}
    if not isinstance(seats, Mapping):
        raise UserError(
            f"{name} is a dict of seats' policy values such as {{2: {{'threshold': 6}}}}, not {_shown(seats)}."
        )
    found: dict[int, Any] = {}
    for seat, fields in seats.items():
        if isinstance(seat, bool) or not isinstance(seat, numbers.Integral):
            raise UserError(
                f"{name} maps a seat number to a dict of policy values, not {_shown(seat)}: {_shown(fields)}."
            )
        if _is_table(fields) or (isinstance(fields, (list, tuple)) and fields and all(map(_is_table, fields))):
            found[int(seat)] = ({}, table_files(fields, f"{name}[{seat}]"))
            continue
        if not isinstance(fields, Mapping):
            raise UserError(
                f"{name} maps a seat number to a dict of policy values or a table, not {_shown(seat)}: "
                f"{_shown(fields)}."
            )
        values = {key: value for key, value in fields.items() if key != "table"}
        found[int(seat)] = (
            policy_values(values, f"{name}[{seat}]"),
            table_files(fields.get("table"), f"{name}[{seat}]"),
        )
    return found


def table_of(
    spec: GameSpec,
    players: object,
    variant: object,
    rules: object,
    strategy: object,
    policy: object,
    seats: object,
    tables: object = None,
) -> Table:
    """The table to play: players, rules and policy, checked by the game; ``tables`` (every
    seat) and the tables among ``seats`` read, checked and played over the policy."""
    return resolve_table(
        spec,
        optional_whole(players, "players", "--players"),
        optional_text(variant, "variant"),
        rule_values(rules),
        optional_text(strategy, "strategy"),
        policy_values(policy),
        seat_values(seats),
        table_files(tables),
        seat_tables(seats),
    )


def seed_of(seed: object) -> int:
    return whole(seed, "seed", "--seed", 0, MAX_SEED)


def threads_of(threads: object) -> int | None:
    """Kernel threads as asked (None: every core); the cores there are are checked when
    the run's context opens."""
    return optional_whole(threads, "threads", "--threads")


def store_of(store: object):
    """Where hands are kept: None or True (the default store), False (none), or a path."""
    if store is None or isinstance(store, bool) or isinstance(store, (str, os.PathLike)):
        if isinstance(store, (str, os.PathLike)) and not os.fspath(store).strip():
            raise UserError("--store needs the path of a store file, not an empty string.")
        return store
    raise UserError(
        f"store is the path of a store file, True for the default store or False for none, not {_shown(store)}."
    )


def cluster_of(cluster: object) -> str | None:
    if cluster is not None and not isinstance(cluster, str):
        raise UserError(f"cluster is 'local:N' or a Dask scheduler's address (a str), not {_shown(cluster)}.")
    return cluster


def out_path(out: object) -> Path:
    """``out`` as a path (one sentence when it is not one)."""
    if not isinstance(out, (str, os.PathLike)):
        raise UserError(f"out is the path of a folder, not {_shown(out)}.")
    if not os.fspath(out).strip():
        raise UserError("--out needs the name of a folder, not an empty string.")
    return Path(out)


def check_out(out: object) -> None:
    """A folder ``out`` (None: none) that can be written, checked before any hand."""
    if out is not None:
        from analyzer.present.files import check_out_dir

        check_out_dir(out_path(out))


def mode_and_count(
    spec: GameSpec, hands: object, games: object, default_mode: int, default_counts: dict[int, int], least: int = 1
) -> tuple[int, int]:
    """The mode (``games`` given: game mode) and the count of hands or games, at least ``least``."""
    if hands is not None and games is not None:
        raise UserError("give either --hands or --games, not both.")
    mode = Mode.GAMES if games is not None else Mode.HANDS if hands is not None else default_mode
    if mode not in spec.outcomes:
        raise UserError(f"{spec.title} has no {MODE_NAMES[mode]} mode.")
    given = games if games is not None else hands if hands is not None else default_counts[mode]
    count = count_of(given, MODE_NAMES[mode])
    if count < least:
        raise UserError(
            f"--{MODE_NAMES[mode]} must be at least {least} here, not {count}: standard errors of "
            f"differences come from batches of {MODE_NAMES[mode]}."
        )
    return mode, count
