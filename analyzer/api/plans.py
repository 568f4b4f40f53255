"""What every API function shares: the types of its table arguments, the parameters'
documentation, the arguments as given (:class:`TableArgs`, :class:`RunArgs`: what the
``plan_*`` functions take by keyword), and a *plan*, a call checked before any hand is
played, whose ``run()`` opens the call's context (``analyzer.run.context``) and plays it."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

from analyzer.api.checks import UserError, cluster_of, store_of, table_of, threads_of
from analyzer.run.context import Tally, open_context
from analyzer.run.params import PolicyValue, RuleValue, Table
from sims.spec import GameSpec

Rules = Mapping[str, RuleValue]
Policy = Mapping[str, PolicyValue]
Seats = Mapping[int, Any]  # a seat's policy values ({"threshold": 6}), or its table(s) (ca.Table.load(path))
Tables = Any  # a table (ca.Table.load(path)), a table file's path, or a list of them
Store = Union[str, os.PathLike, bool, None]
Folder = Union[str, os.PathLike, None]

_TABLE_PARAMETERS = """
    players: seats at the table (default: the variant's or the game's).
    variant: a named rule preset (``ca.rules(game)`` lists them).
    rules: rule values over the preset, ``{"ace_high": True, "lives": 5}``.
    strategy: a named policy preset for every seat.
    policy: policy values for every seat, ``{"threshold": 5}``.
    seats: policy values for single seats, ``{2: {"threshold": 6}}``; or a seat's strategy
      table(s), ``{0: ca.Table.load("mine.csv")}`` (a list for several decisions; a path also
      does, and so does a ``"table"`` key among a seat's values).
    tables: strategy tables every seat plays (``ca.Table.load(path)`` or a path; a list of
      them, one per decision); a seat's own table in ``seats`` replaces it for that seat."""
_RUN_PARAMETERS = """
    seed: the random seed, 0 to 2**64 - 1; the same seed plays the same deals.
    threads: kernel threads (default: every core).
    store: the result store: None the default, False none, or a file's path.
    cluster: None (this machine's threads), "local:N" or a Dask scheduler's address."""


@dataclass(frozen=True)
class TableArgs:
    """The table of a call as the caller gave it, not yet checked: each ``plan_*``
    function checks every value once (``analyzer.api.checks``), in the command line's
    order.  The fields are :func:`simulate`'s table parameters (``variant`` may also be a
    list of presets for ``compare``)."""

    players: int | None = None
    variant: Any = None
    rules: Rules | None = None
    strategy: str | None = None
    policy: Policy | None = None
    seats: Seats | None = None
    tables: Tables | None = None

    def checked(self, spec: GameSpec) -> Table:
        """The table to play, checked by the game."""
        return table_of(
            spec, self.players, self.variant, self.rules, self.strategy, self.policy, self.seats, self.tables
        )


@dataclass(frozen=True)
class RunArgs:
    """How much a call plays and where, as the caller gave it, not yet checked: the hands
    (or whole games), the seed, the threads, the target standard error, the store and the
    cluster (:func:`simulate`'s parameters of the same names)."""

    hands: int | None = None
    games: int | None = None
    seed: int = 0
    threads: int | None = None
    target_se: float | None = None
    store: Store = None
    cluster: str | None = None


def refuse_unused(given: TableArgs | RunArgs, fields: tuple[str, ...], what: str, why: str) -> None:
    """``UserError`` when ``given`` sets one of ``fields``, which ``what`` does not take
    (a value other than the field's default would otherwise be dropped unsaid)."""
    default = type(given)()
    for name in fields:
        if getattr(given, name) != getattr(default, name):
            raise UserError(f"{what} takes no {name} ({why}); given {getattr(given, name)!r}.")


def documented(function):
    """Fill ``{table}`` and ``{run}`` in a function's docstring with the parameters the
    functions share."""
    if function.__doc__:  # None under python -OO
        function.__doc__ = function.__doc__.format(table=_TABLE_PARAMETERS, run=_RUN_PARAMETERS)
    return function


@dataclass(frozen=True)
class Plan:
    """Where the hands of a plan are kept and played, and how many threads play them."""

    store: Any
    cluster: str | None
    threads: int | None

    def context(
        self, progress: bool | None = None, on_stage: Callable[[str], None] | None = None, tally: Tally | None = None
    ):
        """The run's context (``analyzer.run.context.open_context``); ``tally``: the
        caller's, to say what was played after the context closed."""
        return open_context(self.store, self.cluster, self.threads, progress, on_stage, tally)


@dataclass(frozen=True)
class TablePlan(Plan):
    """A plan for one table: its game, players, rules and policy, the mode, the seed, the
    hands (or games) per run and the target standard error (or None)."""

    spec: GameSpec
    table: Table
    mode: int
    seed: int
    count: int
    target_se: float | None


def play(plan, out):
    """Play a plan; with ``out``, write the result's files there too."""
    result = plan.run()
    if out is not None:
        result.write(out)
    return result


def where(run: RunArgs) -> tuple[Any, str | None, int | None]:
    """Where hands are kept and played, checked: (store, cluster, threads)."""
    from analyzer.run.execution import check_threads

    count = threads_of(run.threads)
    check_threads(count)
    return store_of(run.store), cluster_of(run.cluster), count
