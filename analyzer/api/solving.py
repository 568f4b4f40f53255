"""``ca.solve``: a decision's strategy tables solved by iterated best response over its
cells (``analyze solve``).

The sweeps, the stop (a fixed point, a cycle averaged by fictitious play, or the most
sweeps) and the measurement on fresh deals (each seat's value, the exploitability of the
solved and of the start profile) are :func:`analyzer.strategy.solve.solve_tables`'s; this
module checks the arguments, plays the solve through the call's run context (store,
cluster, threads, interrupts, like every job), then plays the head to head: each seat's
solved table against its start policy, the others at the start profile, on the fresh
deals of the measurement (a paired comparison, as ``compare`` plays).  An interrupt raises
``analyzer.run.interrupts.Interrupted`` whose ``partial`` is a :class:`SolveResult` of the
sweeps finished (``partial`` True).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analyzer.api.checks import UserError, check_out, count_of, game_spec, optional_text, seed_of, whole
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
from analyzer.api.results import _cluster_line, _Result, _written
from analyzer.present.text import finite
from analyzer.run.context import Tally
from analyzer.run.params import Table
from sims.spec import GameSpec, Mode

DEFAULT_DEALS = 200_000  # deals per sweep (and of the measurement) when --hands is not given
DEFAULT_SWEEPS = 12
MOST_SWEEPS = 200


@dataclass(repr=False)
class SolveResult(_Result):
    """A decision solved: ``solved`` (``analyzer.strategy.solve.Solved``: the tables per
    seat with each cell's verdict, the values and exploitabilities, why the sweeps
    stopped), ``resolved`` (the start table: players, rules, the start profile),
    ``head_to_head`` (per seat, its solved table against its start policy, paired; None
    when not played), ``seed``, ``requested`` (deals per sweep asked for), ``partial``.

    ``table()`` columns: ``seat``, the cell's fields, ``cell``, ``action`` (as a table file
    writes it), ``margin`` (the action's advantage over the best other action, in the
    outcome's units), ``margin_se``, ``reach`` (visits per deal), ``visits``, ``tie``, and
    ``mean_<action>`` per action."""

    spec: GameSpec
    solved: Any
    resolved: Table
    head_to_head: list | None
    seed: int
    requested: int
    partial: bool = False
    elapsed_s: float = 0.0
    cluster: dict | None = None
    files: list = field(default_factory=list)

    def summary(self) -> dict:
        """The ``--json`` object (the issue's contract; also a table file ``--table`` reads)."""
        from analyzer.present.solve_views import solve_object

        found = solve_object(
            self.spec,
            self.resolved,
            self.solved,
            self.head_to_head,
            self.seed,
            self.requested,
            self.partial,
            self.elapsed_s,
        )
        found["cluster"] = self.cluster
        return finite(found)

    def text(self) -> str:
        """What ``analyze solve`` prints: a grid per seat, values, exploitability, head to head."""
        from analyzer.present.solve_views import render_solve

        return render_solve(
            self.spec, self.resolved, self.solved, self.head_to_head, self.seed, self.partial, self.elapsed_s
        ) + _cluster_line(self.cluster)

    def table(self):
        """One row per seat and cell; columns in the class docstring."""
        import pandas as pd

        from analyzer.present.solve_views import solve_rows

        return pd.DataFrame(solve_rows(self.spec, self.solved))

    def plot(self, seat: int = 0, ax=None):
        """Seat ``seat``'s solved table as a grid chart (each cell coloured by its action,
        labelled with its margin); inline in Jupyter, or drawn into ``ax``."""
        from analyzer.present.charts import shown_in_jupyter
        from analyzer.present.solve_views import grid_chart

        seats = [s.seat for s in self.solved.seats]
        if isinstance(seat, bool) or seat not in seats:
            raise UserError(f"seat is one of the seats solved, 0 to {len(seats) - 1}, not {seat!r}.")
        return shown_in_jupyter(grid_chart(self.spec, self.solved, seat, ax), ax)

    def tables(self) -> dict[int, Any]:
        """Each seat's solved table as a ``[cells, actions]`` array of probabilities."""
        return {seat.seat: seat.table for seat in self.solved.seats}

    def stem(self) -> str:
        return (
            f"{self.spec.name}-{self.solved.players}p-solve-{self.solved.decision.name}-seed{self.seed}"
            f"-{self.requested}"
        )

    def write(self, out) -> list[Path]:
        """Write into ``out``: ``<stem>.csv`` (tidy), ``<stem>.json`` (the ``--json`` object,
        itself a table file of every seat), ``<stem>-seat<S>.csv`` (seat S's table as a file
        ``--table`` or ``--seat S:table=`` plays) and ``<stem>-seat<S>.png`` (its grid chart)."""
        import json

        from sims.core.table import ALL
        from sims.table_files import write_csv

        def write(folder: Path):
            from analyzer.present.files import png_bytes, write_files

            stem = self.stem()
            decision = self.solved.decision
            files = {
                folder / f"{stem}.csv": self.table().to_csv(index=False),
                folder / f"{stem}.json": json.dumps(self.summary(), indent=2, allow_nan=False) + "\n",
            }
            for seat in self.solved.seats:
                files[folder / f"{stem}-seat{seat.seat}.csv"] = write_csv(self.spec.name, decision, {ALL: seat.table})
                files[folder / f"{stem}-seat{seat.seat}.png"] = png_bytes(self.plot(seat.seat))
            return write_files(files)

        return _written(self, out, write)


def head_to_head(spec: GameSpec, table: Table, solved, count: int, seed: int, context) -> list[dict]:
    """Per seat: its outcome playing its solved table against playing its start policy,
    the others at the start profile, on the same ``count`` fresh deals (one paired run,
    the start profile and one arm per seat)."""
    from analyzer.run.runner import Config, run_paired
    from analyzer.strategy.comparisons import paired_differences
    from analyzer.strategy.solve import MEASURE_FIRST, policy_with

    configs = [Config(tuple(table.rules), table.policy, "start")]
    for seat in solved.seats:
        policy = policy_with(spec, table, solved.decision, {seat.seat: seat.table})
        configs.append(Config(tuple(table.rules), policy, f"seat {seat.seat}"))
    context.stage("the head to head")
    run = run_paired(spec, table.players, Mode.HANDS, seed, configs, count, context, first=MEASURE_FIRST)
    # an outcome hand mode does not sum (All-Fours' net points) is compared in the hand headline
    outcome = solved.outcome if solved.outcome in spec.outcomes[Mode.HANDS].seat else spec.headline[Mode.HANDS]
    found = []
    for arm, seat in enumerate(solved.seats, start=1):
        (duel,) = [d for d in paired_differences(run, 0, arm) if d.seat == seat.seat and d.outcome == outcome]
        found.append(
            {
                "seat": seat.seat,
                "outcome": outcome,
                "solved": duel.other,
                "solved_se": duel.other_se,
                "start": duel.base,
                "start_se": duel.base_se,
                "difference": duel.difference,
                "se": duel.se,
                "hands": run.count,
            }
        )
    return found


@dataclass(frozen=True)
class SolvePlan(TablePlan):
    """A checked ``solve``: the start table, the decision (None: the game's first), the
    deals per sweep (``count``) and the most sweeps."""

    decision: str | None = None
    max_sweeps: int = DEFAULT_SWEEPS

    def result_of(self, solved, duel=None, partial: bool = False, elapsed: float = 0.0, cluster=None) -> SolveResult:
        return SolveResult(self.spec, solved, self.table, duel, self.seed, self.count, partial, elapsed, cluster)

    def run(self, progress: bool | None = None, tally: Tally | None = None) -> SolveResult:
        """Solve, then play the head to head (``progress``: the bar on a terminal or in
        Jupyter by default, False never)."""
        from analyzer.run import interrupts
        from analyzer.strategy.solve import solve_tables

        start = time.perf_counter()
        with self.context(progress, tally=tally) as context:
            try:
                solved = solve_tables(
                    self.spec, self.table, self.decision, self.count, self.seed, context, self.max_sweeps
                )
            except interrupts.Interrupted as stop:
                if stop.partial is not None and not isinstance(stop.partial, SolveResult):
                    stop.partial = self.result_of(stop.partial, None, True, time.perf_counter() - start)
                raise
            try:
                duel = head_to_head(self.spec, self.table, solved, self.count, self.seed, context)
            except interrupts.Interrupted as stop:
                stop.partial = self.result_of(solved, None, True, time.perf_counter() - start)
                raise
            cluster = context.cluster
        return self.result_of(solved, duel, False, time.perf_counter() - start, cluster)


def plan_solve(
    game: str,
    decision: str | None = None,
    max_sweeps: int = DEFAULT_SWEEPS,
    *,
    table: TableArgs = TableArgs(),
    run: RunArgs = RunArgs(),
    out: Folder = None,
) -> SolvePlan:
    """Check the arguments of :func:`solve` (and ``out``) in the command line's order
    (``run.hands``: the deals per sweep; ``run.games`` and ``run.target_se`` are not
    taken)."""
    from sims.solve import decision_named

    spec = game_spec(game)
    refuse_unused(run, ("games", "target_se"), "solve", "each sweep plays its hands in full")
    name = optional_text(decision, "decision")
    try:
        found = decision_named(spec, name)[1]
    except ValueError as problem:
        raise UserError(str(problem)) from None
    count = DEFAULT_DEALS if run.hands is None else count_of(run.hands, "hands")
    if count < 100:
        raise UserError(f"--hands must be at least 100 here, not {count}: standard errors come from batches of deals.")
    sweeps = whole(max_sweeps, "max_sweeps", "--max-sweeps", 1, MOST_SWEEPS)
    seed_number = seed_of(run.seed)
    kept = where(run)
    played = table.checked(spec)
    check_out(out)
    return SolvePlan(*kept, spec, played, Mode.HANDS, seed_number, count, None, found.name, sweeps)


@documented
def solve(
    game: str,
    decision: str | None = None,
    players: int | None = None,
    rules: Rules | None = None,
    policy: Policy | None = None,
    seats: Seats | None = None,
    tables: Tables | None = None,
    hands: int | None = None,
    seed: int = 0,
    max_sweeps: int = DEFAULT_SWEEPS,
    store: Store = None,
    cluster: str | None = None,
    threads: int | None = None,
    out: Folder = None,
    variant: str | None = None,
    strategy: str | None = None,
) -> SolveResult:
    """Solve one decision's strategy tables by iterated best response over its cells
    (``analyze solve``): each sweep plays ``hands`` deals, replays every visited decision
    with each legal action on the same random numbers, and moves each seat to its per-cell
    best response (a cell whose best two actions are within two standard errors keeps its
    action: a tie); it stops at a fixed point, or at a repeated profile (a cycle, averaged
    by fictitious play into mixed cells), or after ``max_sweeps``.  Then, on fresh deals:
    each seat's value, the exploitability of the solved and of the start profile, and each
    seat's solved table head to head against its start policy.

    game: the game's name, e.g. "chase-ace".
    decision: the decision to solve (default: the game's first; ``analyze rules GAME``).
    hands: deals per sweep and for the measurement (default 200,000; at least 100).
    max_sweeps: the most sweeps (1 to 200, default 12).{table}{run}
    out: a folder to write the CSV, the JSON, a table file and a grid chart per seat into.

    Returns a :class:`SolveResult`; ``ValueError`` for a bad argument."""
    return play(
        plan_solve(
            game,
            decision,
            max_sweeps,
            table=TableArgs(players, variant, rules, strategy, policy, seats, tables),
            run=RunArgs(hands, None, seed, threads, None, store, cluster),
            out=out,
        ),
        out,
    )
