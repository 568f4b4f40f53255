"""The Python API: ``import analyzer as ca``, then ``ca.simulate``, ``ca.sweep``,
``ca.optimize``, ``ca.compare`` and ``ca.report`` (and ``ca.games()``, ``ca.rules(game)``).

Each function takes typed Python values: counts as ints (``hands=2000``, or a float with
a whole value such as ``1e6``), rules and policies as dicts (``rules={"ace_high": True}``,
``policy={"threshold": 5}``), per-seat policies as ``seats={2: {"threshold": 6}}``.  Every
argument is checked once, before any hand is played (``analyzer.api.checks``); a bad one
raises ``ValueError`` with one sentence.  The command line parses its text into these
values and calls the same ``plan_*`` functions, so it checks and plays the same way.

``store`` and ``cluster`` say where hands are kept and played (``store=None`` the default
store, ``False`` none, or a file; ``cluster=None``, ``"local:N"`` or a Dask scheduler's
address); each call plays in its own context (``analyzer.run.context``), so calls in
several threads keep their own store and cluster.  An interrupt (Ctrl-C) raises
``analyzer.run.interrupts.Interrupted``, whose ``partial`` is the finished part.

Each returns a result object: ``.table()`` the tidy DataFrame that ``out`` writes as CSV,
``.plot()`` the chart (inline in Jupyter), ``.summary()`` (or ``.to_dict()``) the
``--json`` object, ``str(result)`` (or ``.text()``) the command's text output, and the
table as HTML in Jupyter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.api.checks import (
    MIN_COUNT,
    UserError,
    check_out,
    game_spec,
    mode_and_count,
    optional_whole,
    positive,
    seed_of,
    whole,
)
from analyzer.api.comparing import ComparisonPlan, compare, plan_compare  # noqa: F401  (part of the API)
from analyzer.api.plans import (
    Folder,
    Policy,
    Rules,
    RunArgs,
    Seats,
    Store,
    TableArgs,
    TablePlan,
    Tables,
    documented,
    play,
    refuse_unused,
    where,
)
from analyzer.api.reports import ReportPlan, plan_report, report  # noqa: F401  (part of the API)
from analyzer.api.results import (
    OptimizeResult,
    SimulationResult,
    SweepResult,
    _sweep_largest_se,
)
from analyzer.run.context import Tally
from sims.spec import GameSpec, Mode

if TYPE_CHECKING:
    from analyzer.strategy.sweeps import FieldRange

# ------------------------------------------------------------------------------ simulate


@dataclass(frozen=True)
class SimulationPlan(TablePlan):
    """A checked ``simulate``, ready to play."""

    def run(self, progress: bool | None = None, tally: Tally | None = None) -> SimulationResult:
        """Play it (``progress``: the bar on a terminal or in Jupyter by default, False never)."""
        from analyzer.run.runner import run

        with self.context(progress, tally=tally) as context:
            found = run(self.spec, self.table, self.mode, self.seed, self.count, context, self.target_se)
        return self.result_of(found)

    def result_of(self, run) -> SimulationResult:
        """The result of a run of this plan (a partial one from an interrupt too)."""
        return SimulationResult(run, self.target_se)


def plan_simulation(
    game: str, *, table: TableArgs = TableArgs(), run: RunArgs = RunArgs(), out: Folder = None
) -> SimulationPlan:
    """Check the arguments of :func:`simulate` (and ``out``) in the command line's order."""
    spec = game_spec(game)
    mode, count = mode_and_count(spec, run.hands, run.games, Mode.HANDS, {Mode.HANDS: 10**6})
    most = positive(run.target_se, "target_se", "--target-se")
    seed_number = seed_of(run.seed)
    kept = where(run)
    played = table.checked(spec)
    check_out(out)
    return SimulationPlan(*kept, spec, played, mode, seed_number, count, most)


@documented
def simulate(
    game: str,
    players: int | None = None,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    variant: str | None = None,
    rules: Rules | None = None,
    strategy: str | None = None,
    policy: Policy | None = None,
    seats: Seats | None = None,
    threads: int | None = None,
    target_se: float | None = None,
    store: Store = None,
    cluster: str | None = None,
    out: Folder = None,
    tables: Tables | None = None,
) -> SimulationResult:
    """Simulate independent hands or whole games of a game (``analyze GAME``): every
    outcome per seat with its standard error and 95% interval.

    game: the game's name, e.g. "chase-ace" (``ca.games()`` lists them).
    hands: hands to play (default 1,000,000); or
    games: whole games to play instead.{table}
    target_se: stop once every standard error is below this (the count is then the cap).{run}
    out: a folder to write the CSV, JSON and PNG into.

    Returns a :class:`SimulationResult`; ``ValueError`` for a bad argument."""
    return play(
        plan_simulation(
            game,
            table=TableArgs(players, variant, rules, strategy, policy, seats, tables),
            run=RunArgs(hands, games, seed, threads, target_se, store, cluster),
            out=out,
        ),
        out,
    )


# ------------------------------------------------------------------------------ sweep


@dataclass(frozen=True)
class SweepPlan(TablePlan):
    """A checked ``sweep``, ready to play."""

    values: FieldRange
    seat: int | None
    reference: int

    def run(self, progress: bool | None = None, tally: Tally | None = None) -> SweepResult:
        from analyzer.strategy.sweeps import sweep

        headline = self.spec.headline[self.mode]
        with self.context(progress, tally=tally) as context:
            found = sweep(
                self.spec,
                self.table.players,
                self.table.rules,
                self.table.policy,
                self.mode,
                self.seed,
                self.values,
                self.seat,
                self.count,
                context,
                self.target_se,
                lambda run: _sweep_largest_se(run, self.reference, headline),
            )
            cluster = context.cluster
        return SweepResult(found, self.table, self.reference, self.count, self.target_se, cluster=cluster)

    def result_of(self, run) -> SweepResult:
        """The (partial) result of an interrupted sweep's paired run."""
        from analyzer.strategy.sweeps import Sweep

        return SweepResult(
            Sweep(self.spec, self.values, self.seat, self.table.policy, run), self.table, self.reference, self.count
        )


def _field_range(spec: GameSpec, text: object, name: str, flag: str):
    from analyzer.strategy.sweeps import field_range

    if not isinstance(text, str):
        raise UserError(f"{name} is a policy field, 'FIELD' or 'FIELD=LO:HI[:STEP]' (a str), not {text!r}.")
    try:
        return field_range(spec, text, flag)
    except KeyError as problem:  # an unknown field
        raise UserError(problem.args[0]) from None


def plan_sweep(
    game: str,
    param: str,
    seat: int | None = None,
    *,
    table: TableArgs = TableArgs(),
    run: RunArgs = RunArgs(),
    out: Folder = None,
) -> SweepPlan:
    """Check the arguments of :func:`sweep` (and ``out``) in the command line's order."""
    spec = game_spec(game)
    mode, count = mode_and_count(
        spec, run.hands, run.games, Mode.HANDS, {Mode.HANDS: 10**6, Mode.GAMES: 10**5}, MIN_COUNT
    )
    most = positive(run.target_se, "target_se", "--target-se")
    seed_number = seed_of(run.seed)
    kept = where(run)
    played = table.checked(spec)
    swept_seat = optional_whole(seat, "seat", "--seat", 0)
    if swept_seat is not None and swept_seat >= played.players:
        raise UserError(
            f"seat {swept_seat} does not exist with {played.players} players (seats are 0 to {played.players - 1})."
        )
    values = _field_range(spec, param, "param", "--param")
    check_out(out)
    current = float(played.policy[swept_seat if swept_seat is not None else 0, values.column])
    reference = min(range(len(values.values)), key=lambda i: abs(values.values[i] - current))
    return SweepPlan(*kept, spec, played, mode, seed_number, count, most, values, swept_seat, reference)


@documented
def sweep(
    game: str,
    param: str,
    seat: int | None = None,
    players: int | None = None,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    variant: str | None = None,
    rules: Rules | None = None,
    strategy: str | None = None,
    policy: Policy | None = None,
    threads: int | None = None,
    target_se: float | None = None,
    store: Store = None,
    cluster: str | None = None,
    out: Folder = None,
    tables: Tables | None = None,
) -> SweepResult:
    """Every outcome against one policy field, every value played on the same deals
    (``analyze sweep``); each value's paired difference to the reference value (the
    seat's current value, or the swept value nearest it) with its standard error.

    game: the game's name.
    param: the field and its values, "FIELD=LO:HI[:STEP]", or "FIELD" for its whole range.
    seat: the seat that varies (default: every seat together).
    hands: hands per value (default 1,000,000); or
    games: whole games per value instead (default 100,000 where no hands are given).{table}
    target_se: stop once every paired standard error is below this.{run}
    out: a folder to write the CSV, JSON and PNG into.

    Returns a :class:`SweepResult`; ``ValueError`` for a bad argument."""
    return play(
        plan_sweep(
            game,
            param,
            seat,
            table=TableArgs(players, variant, rules, strategy, policy, None, tables),
            run=RunArgs(hands, games, seed, threads, target_se, store, cluster),
            out=out,
        ),
        out,
    )


# ------------------------------------------------------------------------------ optimize


@dataclass(frozen=True)
class OptimizePlan(TablePlan):
    """A checked ``optimize``, ready to play (``target_se`` is None)."""

    values: FieldRange
    rounds: int

    def run(self, progress: bool | None = None, tally: Tally | None = None) -> OptimizeResult:
        from analyzer.strategy.equilibria import optimize_all

        with self.context(progress, tally=tally) as context:
            found = optimize_all(
                self.spec,
                self.table.players,
                self.table.rules,
                self.table.policy,
                self.mode,
                self.seed,
                self.values,
                self.count,
                context,
                self.rounds,
            )
            cluster = context.cluster
        return OptimizeResult(found, self.table, self.values, self.mode, self.seed, self.count, self.spec, cluster)


def plan_optimize(
    game: str,
    field: str | None = None,
    rounds: int = 6,
    *,
    table: TableArgs = TableArgs(),
    run: RunArgs = RunArgs(),
) -> OptimizePlan:
    """Check the arguments of :func:`optimize` in the command line's order (``run.target_se``
    is not taken: each stage plays its own count)."""
    spec = game_spec(game)
    refuse_unused(run, ("target_se",), "optimize", "each stage plays its count in full")
    mode, count = mode_and_count(
        spec, run.hands, run.games, spec.strategy_mode, {Mode.HANDS: 200_000, Mode.GAMES: 20_000}, MIN_COUNT
    )
    seed_number = seed_of(run.seed)
    kept = where(run)
    most_rounds = whole(rounds, "rounds", "--rounds", 1, 50)
    played = table.checked(spec)
    key = (
        field if field is not None else (spec.strategy_fields[0] if spec.strategy_fields else spec.policy_fields[0].key)
    )
    values = _field_range(spec, key, "field", "--field")
    return OptimizePlan(*kept, spec, played, mode, seed_number, count, None, values, most_rounds)


@documented
def optimize(
    game: str,
    players: int | None = None,
    field: str | None = None,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    variant: str | None = None,
    rules: Rules | None = None,
    strategy: str | None = None,
    policy: Policy | None = None,
    seats: Seats | None = None,
    rounds: int = 6,
    threads: int | None = None,
    store: Store = None,
    cluster: str | None = None,
    tables: Tables | None = None,
) -> OptimizeResult:
    """Each seat's best response to the others in one policy field, confirmed on fresh
    deals; then the matrix game (two players, constant-sum headline) or iterated best
    response (``analyze optimize``).

    game: the game's name.
    field: the policy field, "FIELD" or "FIELD=LO:HI[:STEP]" (default: the game's main one).
    hands: hands per value tried (default 200,000); or
    games: whole games per value instead (default 20,000 where no hands are given).{table}
    rounds: at most this many rounds of iterated best response (1 to 50).{run}

    Returns an :class:`OptimizeResult`; ``ValueError`` for a bad argument."""
    return plan_optimize(
        game,
        field,
        rounds,
        table=TableArgs(players, variant, rules, strategy, policy, seats, tables),
        run=RunArgs(hands, games, seed, threads, None, store, cluster),
    ).run()
