"""A table resolved against a game's spec: players, the rules (a variant, then rule
values) and the per-seat policy (a strategy preset, then values for every seat, then
per seat), from typed values (``analyzer.cli.parse`` turns the command line's text into
them).  Every problem raises ``ValueError`` with one sentence."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

import numpy as np

from sims.rules_text import RuleValue, build_rules, named_key
from sims.spec import GameSpec

if TYPE_CHECKING:
    from sims.table_files import Table as FileTable

MAX_SEED = 2**64 - 1


PolicyValue = Union[float, int, bool, str]  # a policy field's value: a number, or a choice's name


def policy_number(spec: GameSpec, key: str, value: PolicyValue) -> float:
    """The numeric value of one policy field, checked against its range: a number, a bool
    (1 or 0), a choice's name, or a number as text."""
    fields = {field.key: field for field in spec.policy_fields}
    if key not in fields:
        raise ValueError(f"unknown policy field '{key}' for {spec.name}; the fields are: {', '.join(fields)}.")
    field = fields[key]
    if isinstance(value, str):
        text = value.strip()
        if field.choices and text.lower().replace("_", "-") in field.choices:
            return float(field.choices.index(text.lower().replace("_", "-")))
        try:
            number = float(text)
        except ValueError:
            raise ValueError(
                f"policy field {key} of {spec.name} takes {field.allowed_text()}, not '{value}'."
            ) from None
    elif isinstance(value, (bool, np.bool_, int, float, np.integer, np.floating)):
        try:
            number, text = float(value), f"{float(value):g}"
        except OverflowError:  # an int past a float's range
            raise ValueError(
                f"policy field {key} of {spec.name} must be in {field.allowed_text()}, not {str(value)[:20]}..."
            ) from None
    else:
        raise ValueError(f"policy field {key} of {spec.name} takes {field.allowed_text()}, not {value!r}.")
    if not np.isfinite(number) or number < field.lo or number > field.hi:
        raise ValueError(f"policy field {key} of {spec.name} must be in {field.allowed_text()}, not {text}.")
    if field.integer and number != int(number):
        raise ValueError(f"policy field {key} of {spec.name} takes a whole number, not {text}.")
    return number


def build_policy(
    spec: GameSpec,
    n_seats: int,
    strategy: str | None,
    policy: Mapping[str, PolicyValue],
    seats: Mapping[int, Mapping[str, PolicyValue]],
) -> np.ndarray:
    """The ``[n_seats, n_fields]`` policy: a preset, then ``policy`` for every seat, then
    ``seats`` (seat: its fields)."""
    name = "default" if strategy is None else strategy
    if name not in spec.policies:
        raise ValueError(f"unknown strategy '{name}' for {spec.name}; the strategies are: {', '.join(spec.policies)}.")
    matrix = spec.default_policy(n_seats, name)
    columns = {field.key: i for i, field in enumerate(spec.policy_fields)}
    for given, value in policy.items():
        key = named_key(given, "policy fields")
        matrix[:, columns.get(key, 0)] = policy_number(spec, key, value)  # rejects unknown keys first
    for seat, fields in seats.items():
        if not 0 <= seat < n_seats:
            raise ValueError(f"seat {seat} does not exist with {n_seats} players (seats are 0 to {n_seats - 1}).")
        for given, value in fields.items():
            key = named_key(given, "policy fields")
            matrix[seat, columns.get(key, 0)] = policy_number(spec, key, value)
    return matrix


@dataclass(frozen=True)
class PlayedTable:
    """A seat playing one decision from a table file: the file's name (``source``), the
    decision and how many of its cells the file gives (the rest fall back to the policy)."""

    seat: int
    decision: str
    source: str
    cells: int
    of: int  # the decision's cells


@dataclass(frozen=True)
class Table:
    """A fully resolved table: what the kernel will play.  ``tables`` lists the seats that
    play a decision from a table file (their blocks are in ``policy``, see
    :mod:`sims.core.table`)."""

    players: int
    rules: tuple
    policy: np.ndarray
    variant: str | None
    strategy: str
    tables: tuple[PlayedTable, ...] = ()


def table_blocks(
    spec: GameSpec, players: int, every: Sequence[FileTable], by_seat: Mapping[int, Sequence[FileTable]]
) -> tuple[dict[int, dict[str, np.ndarray]], tuple[PlayedTable, ...]]:
    """The ``[cells, actions]`` table of each seat and decision (:func:`sims.core.table.with_tables`'s
    ``tables``) from table files played by every seat (``every``) and by single seats
    (``by_seat``, over ``every``): a seat gets a file's rows for it over its rows for every
    seat.  One sentence for a file of another game, a seat that does not exist, or two files
    for one decision of one seat."""
    decisions = {decision.name: decision for decision in spec.table_decisions()} if every or by_seat else {}
    chosen: dict[int, dict[str, np.ndarray]] = {}
    played: dict[tuple[int, str], PlayedTable] = {}

    def take(seat: int, file: FileTable, given: set, single: bool) -> None:
        """Seat ``seat`` plays ``file`` (once per decision among ``given``'s files)."""
        decision = decisions[file.decision]
        if (seat, decision.name) in given:
            raise ValueError(
                f"two tables for {decision.name} of seat {seat} ({played[seat, decision.name].source} and "
                f"{file.source}): give one file per decision."
            )
        given.add((seat, decision.name))
        probabilities = file.probabilities(decision, seat)
        if (probabilities[:, 0] < 0).all():  # no row for this seat: its policy plays on
            if single:
                raise ValueError(f"{file.source} has no row for seat {seat}.")
            return
        chosen.setdefault(seat, {})[decision.name] = probabilities
        cells = int((probabilities[:, 0] >= 0).sum())
        played[seat, decision.name] = PlayedTable(seat, decision.name, file.source, cells, decision.n_cells)

    for seat, files in [(None, every), *by_seat.items()]:
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat {seat} does not exist with {players} players (seats are 0 to {players - 1}).")
        for file in files:
            if file.game != spec.name:
                raise ValueError(f"{file.source} is a table of {file.game}, not of {spec.name}.")
            named = [number for number in file.seats_named() if number >= players]
            if named:
                raise ValueError(
                    f"{file.source} has rows for seat {named[0]}, which does not exist with {players} players "
                    f"(seats are 0 to {players - 1})."
                )
    from_every: set = set()
    for file in every:
        for seat in range(players):
            take(seat, file, from_every, False)
    from_seats: set = set()
    for seat, files in by_seat.items():
        for file in files:
            take(seat, file, from_seats, True)
    return chosen, tuple(played[key] for key in sorted(played))


def resolve_table(
    spec: GameSpec,
    players: int | None,
    variant: str | None,
    rules: Mapping[str, RuleValue],
    strategy: str | None,
    policy: Mapping[str, PolicyValue],
    seats: Mapping[int, Mapping[str, PolicyValue]],
    tables: Sequence[FileTable] = (),
    seat_tables: Mapping[int, Sequence[FileTable]] | None = None,
) -> Table:
    """Players, rules and policy, checked by the game (``players`` None: the variant's or
    the game's default); ``tables`` (every seat) and ``seat_tables`` (single seats) are
    table files whose blocks widen the policy matrix."""
    suggested = spec.variants[variant] if variant is not None and variant in spec.variants else None
    if players is None:
        players = suggested.players if suggested and suggested.players else spec.default_players
    spec.check_players(players)  # once, and before the variant's rules and policy are built for them
    built = build_rules(spec, variant, rules)
    if strategy is None and suggested and suggested.policy:
        strategy = suggested.policy
    matrix = build_policy(spec, players, strategy, policy, seats)
    spec.check_table(built, matrix, players)
    chosen, played = table_blocks(spec, players, tables, seat_tables or {})
    if chosen:
        from sims.core.table import with_tables

        matrix = with_tables(matrix, len(spec.policy_fields), spec.table_decisions(), chosen)
        spec.check_table(built, matrix, players)
    return Table(players, tuple(built), matrix, variant, strategy or "default", played)
