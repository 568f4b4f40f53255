"""The API's arguments checked once, each bad one a ``UserError`` (a ``ValueError``) of one
sentence: the game, counts, seeds, the table (players, rules, policy) and ``out``."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

from analyzer.run.params import (
    MAX_SEED,
    Table,
    parse_count,
    parse_positive,
    parse_whole,
    resolve_table,
)
from sims.spec import GAMES as GAME_MODE
from sims.spec import HANDS, MODE_NAMES, GameSpec

MIN_COUNT = 100  # hands (or games) per value of the strategy commands: their errors come from batches


class UserError(ValueError):
    """Bad input: its message is one sentence (the command line prints it, exit code 2)."""


# ------------------------------------------------------------------------------ arguments


def game_spec(name: str) -> GameSpec:
    """The spec of a registered game; ``UserError`` naming the games otherwise."""
    from sims.registry import get_game

    try:
        return get_game(name)
    except KeyError as problem:
        raise UserError(problem.args[0]) from None


def _text(value) -> str | None:
    """A number or name as the command line would have it typed (None stays None)."""
    return None if value is None else str(value)


def _value_text(value, true: str, false: str) -> str:
    """One rule or policy value as typed on the command line (a bool as ``true``/``false``)."""
    if isinstance(value, (bool, np.bool_)):
        return true if value else false
    return str(value)


def assignments(given, true: str = "true", false: str = "false") -> list[str]:
    """``{"key": value}`` (or ``"KEY=VALUE"`` strings, one or a list) as ``KEY=VALUE`` strings."""
    if given is None:
        return []
    if isinstance(given, str):
        return [given]
    if isinstance(given, Mapping):
        return [f"{key}={_value_text(value, true, false)}" for key, value in given.items()]
    if not isinstance(given, Iterable):
        raise UserError(f"rules and policies are given as a dict, a 'KEY=VALUE' string or a list of them, "
                        f"not {given!r}.")
    return [str(item) for item in given]


def policy_assignments(given) -> list[str]:
    """A policy as ``KEY=VALUE`` strings (a bool as 1 or 0: policy fields are numbers)."""
    return assignments(given, "1", "0")


def seat_assignments(given) -> list[str]:
    """``{seat: {"key": value}}`` (or ``"SEAT:KEY=VALUE"`` strings) as ``SEAT:KEY=VALUE`` strings."""
    if given is None or isinstance(given, str) or not isinstance(given, Mapping):
        return assignments(given)
    return [f"{seat}:{text}" for seat, values in given.items() for text in policy_assignments(values)]


def numbers(players, seed, threads=None) -> tuple[int | None, int, int | None]:
    """The player count, seed and thread count as numbers (each checked, one sentence for a
    bad one); the player count is checked against the game later."""
    return (parse_whole(_text(players), "--players"), parse_whole(str(seed), "--seed", 0, MAX_SEED),
            parse_whole(_text(threads), "--threads"))


def target(target_se) -> float | None:
    """``target_se`` as a positive number (None stays None)."""
    return parse_positive(_text(target_se), "--target-se")


def resolve(spec: GameSpec, players: int | None, variant, rules, strategy, policy, seats) -> Table:
    """The table to play: players, rules and policy, checked by the game."""
    return resolve_table(spec, players, variant, assignments(rules), strategy, policy_assignments(policy),
                         seat_assignments(seats))


def out_path(out) -> Path:
    """``out`` as a path (one sentence when it is not one)."""
    if not isinstance(out, (str, os.PathLike)):
        raise UserError(f"out is the path of a folder, not {out!r}.")
    if not os.fspath(out).strip():
        raise UserError("--out needs the name of a folder, not an empty string.")
    return Path(out)


def check_out(out) -> None:
    if out is not None:
        from analyzer.present.files import check_out_dir

        check_out_dir(out_path(out))


def mode_and_count(spec: GameSpec, hands, games, default_mode: int, default_counts: dict[int, str],
                    least: int = 1) -> tuple[int, int]:
    """The mode (``games`` given: game mode) and the count of hands or games, at least ``least``."""
    if hands is not None and games is not None:
        raise UserError("give either --hands or --games, not both.")
    mode = GAME_MODE if games is not None else HANDS if hands is not None else default_mode
    if mode not in spec.outcomes:
        raise UserError(f"{spec.title} has no {MODE_NAMES[mode]} mode.")
    given = games if games is not None else hands if hands is not None else default_counts[mode]
    count = parse_count(_text(given), f"--{MODE_NAMES[mode]}")
    if count < least:
        raise UserError(f"--{MODE_NAMES[mode]} must be at least {least} here, not {count}: standard errors of "
                        f"differences come from batches of {MODE_NAMES[mode]}.")
    return mode, count
