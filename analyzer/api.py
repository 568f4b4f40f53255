"""The Python API: ``import analyzer as ca``, then ``ca.simulate``, ``ca.sweep``,
``ca.optimize``, ``ca.compare`` and ``ca.report``.

Each function takes the options of the ``analyze`` command of the same name, under Python
names (``rules=``, ``policy=``, ``seats=``, ``param=``, ``seat=``, ``report_format=`` ...),
as Python values or as the command line's strings: counts as ``2000`` or ``"1e6"``, rules
and policies as dicts (``rules={"ace_high": True}``, ``policy={"threshold": 5}``),
per-seat policies as ``seats={2: {"threshold": 6}}`` (or the command line's
``"KEY=VALUE"`` / ``"SEAT:KEY=VALUE"`` strings).  The values are turned into the command
line's text and parsed by ``analyzer.params``, so every check is the command line's, and
a bad argument raises ``ValueError`` whose message is the sentence ``analyze`` prints after
``error:``.  ``store`` and ``cluster`` say where hands are kept and played (see
``analyzer.execution.using``: ``store=None`` the default store, ``False`` none, or a file;
``cluster=None``, ``"local:N"`` or a Dask scheduler address).  An interrupt (Ctrl-C)
raises ``analyzer.interrupts.Interrupted``, whose ``partial`` is the finished part.

Each returns a result object: ``.table()`` the tidy DataFrame that ``--out`` writes as CSV,
``.plot()`` the matplotlib Figure it writes as PNG, ``.summary()`` (or ``.to_dict()``) the
``--json`` object, ``str(result)`` (or ``.text()``) the command's text output, and the
table as HTML in Jupyter.

The command line is a thin layer over the same code: each ``plan_*`` function checks
every argument (before any hand is played) and returns a plan whose ``run()`` plays it.
"""

from __future__ import annotations

import html
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analyzer import views
from analyzer.execution import using
from analyzer.params import MAX_SEED, Table, parse_count, parse_positive, parse_seat, parse_whole, resolve_table
from analyzer.text import finite, target_note
from sims.spec import GAMES as GAME_MODE
from sims.spec import HANDS, MODE_NAMES, GameSpec

MIN_COUNT = 100  # hands (or games) per value of the strategy commands: their errors come from batches

__all__ = ["simulate", "sweep", "optimize", "compare", "report", "UserError", "SimulationResult", "SweepResult",
           "OptimizeResult", "ComparisonResult", "ReportResult"]


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


def _out_path(out) -> Path:
    """``out`` as a path (one sentence when it is not one)."""
    if not isinstance(out, (str, os.PathLike)):
        raise UserError(f"out is the path of a folder, not {out!r}.")
    if not os.fspath(out).strip():
        raise UserError("--out needs the name of a folder, not an empty string.")
    return Path(out)


def _check_out(out) -> None:
    if out is not None:
        from analyzer.report import check_out_dir

        check_out_dir(_out_path(out))


def _mode_and_count(spec: GameSpec, hands, games, default_mode: int, default_counts: dict[int, str],
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


# ------------------------------------------------------------------------------ results


class _Result:
    """What every result offers beside ``table()``: its text, its JSON object, its HTML."""

    def text(self) -> str:
        raise NotImplementedError

    def summary(self) -> dict:
        raise NotImplementedError

    def table(self):
        raise NotImplementedError

    def to_dict(self) -> dict:
        """The command's ``--json`` object (the same as ``summary()``)."""
        return self.summary()

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.text().splitlines()[0]}>"

    def _repr_html_(self) -> str:
        """The first line of the text as a heading, then the table (for Jupyter)."""
        return f"<p><b>{html.escape(self.text().splitlines()[0])}</b></p>\n" + self.table().to_html()


def _written(result, out, write) -> list[Path]:
    """Check ``out``, write the result's files there with ``write(folder)``, keep their paths."""
    _check_out(out)
    result.files = list(write(Path(out)))
    return result.files


@dataclass(repr=False)
class SimulationResult(_Result):
    """A game simulated: ``run`` (``analyzer.runner.RunResult``: the integer sums, the count,
    the seed, timings) and ``resolved`` (``analyzer.params.Table``: players, rules, policy).

    ``table()`` columns: ``seat`` (a seat number, or ``"table"`` for the table's
    outcomes), ``outcome``, ``mean``, ``se``, ``ci_low``, ``ci_high`` (the 95% interval)
    and ``hands`` or ``games`` (how many were played).
    """

    run: object
    target_se: float | None = None
    files: list = field(default_factory=list)  # what write() wrote

    @property
    def spec(self) -> GameSpec:
        return self.run.spec

    @property
    def resolved(self) -> Table:
        return self.run.table

    @property
    def partial(self) -> bool:
        return self.run.partial

    def _largest_se(self) -> float | None:
        """The largest standard error shown, when a target was given and the run is whole."""
        if self.target_se is None or self.run.partial:
            return None
        from analyzer.stats import estimates, largest_se

        return largest_se(estimates(self.run.sums, self.spec.outcomes[self.run.mode], self.run.count))

    def _object(self) -> dict:
        summary = views.summary_object(self.spec, self.run)
        largest = self._largest_se()
        if largest is not None:
            summary["target_se_reached"] = largest < self.target_se
        return summary

    def summary(self) -> dict:
        """The ``--json`` object: game, rules, policy, counts and every estimate."""
        return finite(self._object())

    def text(self) -> str:
        """The table ``analyze GAME`` prints."""
        largest = self._largest_se()
        missed = target_note(self.target_se, largest) if largest is not None else ""
        return views.render_text(self.spec, self._object()) + ("\n" + missed if missed else "")

    def table(self):
        """One row per seat (and ``"table"``) and outcome; columns in the class docstring."""
        from analyzer.tables import estimates_frame

        unit = MODE_NAMES[self.run.mode]
        return estimates_frame(views.summary_object(self.spec, self.run)["results"], self.run.count, unit)

    def _chart_labels(self) -> tuple[str, str, str]:
        """The chart's outcome (the headline), title and axis label."""
        from analyzer.report import outcome_labels

        mode = self.run.mode
        headline = self.spec.headline[mode]
        title = (f"{self.spec.title}, {self.resolved.players} players: {headline.replace('_', ' ')} by seat "
                 f"({MODE_NAMES[mode]} mode)")
        return headline, title, outcome_labels(self.spec, mode)[headline]

    def plot(self):
        """The headline outcome per seat with 95% intervals (a matplotlib Figure)."""
        from analyzer.charts import seat_outcome_chart

        return seat_outcome_chart(self.table(), *self._chart_labels())

    def write(self, out) -> list[Path]:
        """Write what ``--out`` writes into the folder ``out`` (CSV, JSON, PNG); their paths."""
        from analyzer.report import write_run_outputs

        stem = f"{self.spec.name}-{self.resolved.players}p-{MODE_NAMES[self.run.mode]}-seed{self.run.seed}"
        return _written(self, out, lambda folder: write_run_outputs(
            folder, stem, views.summary_object(self.spec, self.run), *self._chart_labels()))


def _sweep_largest_se(run, reference: int, headline: str) -> float:
    """Every standard error a sweep shows: each value's estimates and the paired
    differences of the headline against the reference value."""
    from analyzer.compare import paired_differences

    shown = [e.se for i in range(len(run.configs)) for e in run.estimates(i) if not e.outcome.endswith("_fair_odds")]
    shown += [d.se for i in range(len(run.configs)) if i != reference
              for d in paired_differences(run, reference, i) if d.outcome == headline and d.seat != "table"]
    return max((se for se in shown if not math.isnan(se)), default=math.inf)


@dataclass(repr=False)
class SweepResult(_Result):
    """A policy field swept: ``sweep`` (``analyzer.optimize.Sweep``; its ``run`` is the
    paired run, value ``i`` played as configuration ``i``), ``resolved`` (the table the
    other fields and seats keep), ``reference`` (the index of the value differences are
    shown against) and ``requested`` (hands or games asked for per value).

    ``table()`` columns: ``field``, ``value``, ``value_text``, ``seat`` (or ``"table"``),
    ``outcome``, ``mean``, ``se``, ``ci_low``, ``ci_high``: one row per value, seat and
    outcome.
    """

    sweep: object
    resolved: Table
    reference: int
    requested: int
    target_se: float | None = None
    files: list = field(default_factory=list)

    @property
    def spec(self) -> GameSpec:
        return self.sweep.spec

    @property
    def partial(self) -> bool:
        return self.sweep.run.interrupted

    def _missed(self) -> str:
        """The note when --target-se was not reached ("" when it was, or none was given)."""
        if not self.target_se:
            return ""
        return target_note(self.target_se, _sweep_largest_se(self.sweep.run, self.reference, self.sweep.headline))

    def summary(self) -> dict:
        """The ``--json`` object: the field, its values and every estimate at each."""
        reached = not self._missed() if self.target_se else None
        return finite(views.sweep_object(self.spec, self.resolved, self.sweep, self.reference, self.requested,
                                         reached))

    def text(self) -> str:
        """The table ``analyze sweep`` prints."""
        missed = self._missed()
        return (views.render_sweep(self.spec, self.resolved, self.sweep, self.reference, self.requested)
                + ("\n" + missed if missed else ""))

    def table(self):
        """One row per value, seat and outcome; columns in the class docstring."""
        from analyzer.tables import sweep_frame

        return sweep_frame(self.sweep.records())

    def plot(self):
        """Each outcome of the swept seat (or every seat's headline) against the value."""
        from analyzer.report import sweep_figure

        return sweep_figure(self.sweep.records(), self.spec, self.sweep.mode, self.sweep.seat, self.resolved.players)

    def write(self, out) -> list[Path]:
        """Write what ``--out`` writes into the folder ``out`` (CSV, PNG); their paths."""
        from analyzer.report import write_sweep_outputs

        seat = self.sweep.seat
        who = f"seat{seat}" if seat is not None else "all"
        stem = f"{self.spec.name}-{self.resolved.players}p-sweep-{self.sweep.values.field.key}-{who}"
        return _written(self, out, lambda folder: write_sweep_outputs(
            folder, stem, self.sweep.records(), self.spec, self.sweep.mode, seat, self.resolved.players))


@dataclass(repr=False)
class OptimizeResult(_Result):
    """Best responses and the equilibrium of one policy field: ``optimum``
    (``analyzer.optimize.Optimum``: ``responses``, ``matrix``, ``equilibrium``,
    ``evaluation``), ``resolved`` (the starting table), ``values`` (the field and the
    values tried), ``mode``, ``seed`` and ``count`` (hands or games per policy tried).

    ``table()`` columns, one row per seat: ``field``, ``seat``, then its best response to
    the others' starting policy as in ``--json`` (``best``, ``tied``, ``tie``,
    ``no_effect``, ``value``, ``se``, ``current``, ``current_value``, ``gain``,
    ``gain_se``, ``confirmed_gain``, ``confirmed_gain_se``, ``confirmed_on``,
    ``runner_up``, ``margin``, ``margin_se``), then the equilibrium: ``equilibrium`` (the
    seat's value where iterated best response ended), ``equilibrium_value`` and
    ``equilibrium_value_se`` (its headline there, on fresh hands), ``equilibrium_change``
    and ``equilibrium_change_se`` (the paired change from the starting policy), and
    ``mix`` (a two-player matrix game's mixed strategy, ``{value: probability}``); None
    where the search gave no such figure.
    """

    optimum: object
    resolved: Table
    values: object
    mode: int
    seed: int
    count: int
    spec: GameSpec

    def summary(self) -> dict:
        """The ``--json`` object: best responses, and the matrix game or the equilibrium."""
        return finite(views.optimize_object(self.spec, self.resolved, self.mode, self.seed, self.values, self.count,
                                            self.optimum))

    def text(self) -> str:
        """What ``analyze optimize`` prints."""
        return views.render_optimize(self.spec, self.resolved, self.mode, self.seed, self.values, self.count,
                                     self.optimum)

    def table(self):
        """One row per seat; columns in the class docstring."""
        from analyzer.tables import best_responses_frame

        found = self.optimum
        records = views.best_response_records(self.spec, self.mode, self.values, found.responses)
        evaluation = {d.seat: d for d in found.evaluation}
        rows = []
        for record in records:
            seat = record["seat"]
            row = {"field": self.values.field.key, **record, "equilibrium": None, "equilibrium_value": None,
                   "equilibrium_value_se": None, "equilibrium_change": None, "equilibrium_change_se": None,
                   "mix": None}
            if found.equilibrium is not None:
                row["equilibrium"] = found.equilibrium.values[seat]
            if seat in evaluation:
                d = evaluation[seat]
                row.update(equilibrium_value=d.other, equilibrium_value_se=d.other_se, equilibrium_change=d.difference,
                           equilibrium_change_se=d.se)
            if found.matrix is not None and found.matrix.constant_sum:
                row["mix"] = {value: p for value, p, _ in found.matrix.support(seat)}
            rows.append(row)
        return best_responses_frame(rows)

    def plot(self):
        """Each seat's headline against its own value of the field, the others as they
        started (the sweeps behind the best responses), with 95% intervals."""
        from analyzer.charts import sweep_chart
        from analyzer.report import field_label, outcome_labels
        from analyzer.tables import sweep_frame

        key = self.values.field.key
        headline = self.spec.headline[self.mode]
        records = [{**point.as_record(), "field": key, "value": value, "value_text": self.values.value_text(value)}
                   for response in self.optimum.responses for value, point in zip(response.values, response.points)]
        title = (f"{self.spec.title}, {self.resolved.players} players: each seat's {headline.replace('_', ' ')} "
                 f"against its own {key}, the others as they started")
        return sweep_chart(sweep_frame(records), [headline], title, key, labels=outcome_labels(self.spec, self.mode),
                           choices=bool(self.values.field.choices), field_label=field_label(self.values.field))


@dataclass(repr=False)
class ComparisonResult(_Result):
    """Rule sets compared on the same deals: ``run`` (``analyzer.runner.PairedRun``, one
    configuration per rule set, the first the base), ``resolved`` (the table: players and
    policy), ``labels`` (one per rule set), ``changed`` (a line per rule that differs),
    ``arms`` (``(label, rules)`` pairs) and ``requested`` (hands or games asked for).

    ``table()`` columns: ``compared`` (the rule set compared with the first), ``seat``,
    ``outcome``, ``base``, ``base_se``, ``other``, ``other_se``, ``difference``, ``se``
    (paired), ``se_independent``, ``variance_reduction``.
    """

    run: object
    resolved: Table
    labels: list
    changed: list
    arms: list
    requested: int
    target_se: float | None = None
    files: list = field(default_factory=list)

    @property
    def spec(self) -> GameSpec:
        return self.run.spec

    @property
    def partial(self) -> bool:
        return self.run.interrupted

    def _missed(self) -> str:
        if not self.target_se:
            return ""
        from analyzer.compare import largest_paired_se

        return target_note(self.target_se, largest_paired_se(self.run))

    def _object(self) -> dict:
        summary = views.compare_object(self.spec, self.resolved, self.run, self.labels, self.changed, self.requested,
                                       self.arms)
        summary["target_se_reached"] = not self._missed() if self.target_se else None
        return summary

    def summary(self) -> dict:
        """The ``--json`` object: every outcome's paired difference per rule set and seat."""
        return finite(self._object())

    def text(self) -> str:
        """What ``analyze compare`` prints."""
        notes = "".join(f"\nnote: {note}" for note in views.games_only_note(
            self.spec, [rules for _, rules in self.arms], self.run.mode))
        missed = self._missed()
        return (views.render_compare(self.spec, self.resolved, self.run, self.labels,
                                     self.changed or ["(the rule sets are the same)"], self.requested)
                + notes + ("\n" + missed if missed else ""))

    def table(self):
        """One row per compared rule set, seat and outcome; columns in the class docstring."""
        from analyzer.tables import differences_frame

        return differences_frame(self._object()["differences"])

    def plot(self):
        """The headline's paired difference for each compared rule set and seat, as a heat map."""
        from analyzer.charts import difference_heatmap
        from analyzer.compare import paired_differences
        from analyzer.report import outcome_labels

        spec, run, labels = self.spec, self.run, self.labels
        headline = spec.headline[run.mode]
        rows, errors = [], []
        for other in range(1, len(run.configs)):
            by_seat = {d.seat: d for d in paired_differences(run, 0, other) if d.outcome == headline}
            rows.append([by_seat[s].difference for s in range(run.players)])
            errors.append([by_seat[s].se for s in range(run.players)])
        return difference_heatmap([f"{labels[o]} minus {labels[0]}" for o in range(1, len(run.configs))],
                                  list(range(run.players)), rows, errors,
                                  f"{spec.title}: change in {headline} by seat ({run.count:,} {MODE_NAMES[run.mode]}, "
                                  f"paired)", f"change in {outcome_labels(spec, run.mode)[headline]}",
                                  spec.lower_is_better(run.mode, headline))

    def write(self, out) -> list[Path]:
        """Write what ``--out`` writes into the folder ``out`` (CSV, JSON, PNG); their paths."""
        from analyzer.report import write_compare_outputs

        stem = f"{self.spec.name}-{self.resolved.players}p-compare-{MODE_NAMES[self.run.mode]}-seed{self.run.seed}"
        return _written(self, out, lambda folder: write_compare_outputs(folder, stem, self._object(), self.plot()))


@dataclass(repr=False)
class ReportResult(_Result):
    """Reports written: ``paths`` (``(game, path)`` pairs; for ``"all"`` the index page
    last, as game ``"all"``).

    ``table()`` columns: ``game``, ``path``.
    """

    paths: list

    def summary(self) -> dict:
        return {"reports": [{"game": game, "path": str(path)} for game, path in self.paths]}

    def text(self) -> str:
        """What ``analyze report`` prints."""
        return "\n".join(f"wrote {path}" for _, path in self.paths)

    def table(self):
        """One row per file written; columns in the class docstring."""
        from analyzer.tables import paths_frame

        return paths_frame(self.paths)


# ------------------------------------------------------------------------------ plans


@dataclass(frozen=True)
class _Plan:
    """Where the hands of a plan are kept and played (see ``analyzer.execution.using``)."""

    store: object
    cluster: object

    def using(self):
        return using(store=self.store, cluster=self.cluster)


@dataclass(frozen=True)
class _TablePlan(_Plan):
    """A plan for one table: its game, players, rules and policy, the mode, the seed, the
    hands (or games) per run, the threads and the target standard error (or None)."""

    spec: GameSpec
    table: Table
    mode: int
    seed: int
    count: int
    threads: int | None
    target_se: float | None


def _play(plan, out):
    """Play a plan; with ``out``, write the result's files there too."""
    result = plan.run()
    if out is not None:
        result.write(out)
    return result


@dataclass(frozen=True)
class SimulationPlan(_TablePlan):
    """A checked ``simulate``, ready to play."""

    def run(self, progress: bool | None = None) -> SimulationResult:
        """Play it (``progress``: the bar on a terminal by default, False never)."""
        from analyzer.runner import run

        with self.using():
            found = run(self.spec, self.table, self.mode, self.seed, self.count, self.threads, self.target_se,
                        progress=progress)
        return self.result_of(found)

    def result_of(self, run) -> SimulationResult:
        """The result of a run of this plan (a partial one from an interrupt too)."""
        return SimulationResult(run, self.target_se)


def plan_simulation(game, players=None, hands=None, games=None, seed=0, variant=None, rules=None, strategy=None,
                    policy=None, seats=None, threads=None, target_se=None, store=None, cluster=None,
                    out=None) -> SimulationPlan:
    """Check the arguments of :func:`simulate` (and ``out``) in the command line's order."""
    spec = game_spec(game)
    mode, count = _mode_and_count(spec, hands, games, HANDS, {HANDS: "1e6"})
    most = target(target_se)
    seated, seed_number, thread_count = numbers(players, seed, threads)
    table = resolve(spec, seated, variant, rules, strategy, policy, seats)
    _check_out(out)
    return SimulationPlan(store, cluster, spec, table, mode, seed_number, count, thread_count, most)


def simulate(game, players=None, hands=None, games=None, seed=0, variant=None, rules=None, strategy=None,
             policy=None, seats=None, threads=None, target_se=None, store=None, cluster=None,
             out=None) -> SimulationResult:
    """Simulate ``hands`` independent hands (default 1e6) or ``games`` whole games of a
    game (``analyze GAME``); with ``target_se``, stop once every standard error is below
    it.  ``out``: also write the CSV, JSON and PNG of ``--out`` into that folder."""
    return _play(plan_simulation(game, players, hands, games, seed, variant, rules, strategy, policy, seats, threads,
                                 target_se, store, cluster, out), out)


@dataclass(frozen=True)
class SweepPlan(_TablePlan):
    """A checked ``sweep``, ready to play."""

    values: object
    seat: int | None
    reference: int

    def run(self, progress: bool | None = None) -> SweepResult:
        from analyzer.optimize import sweep

        headline = self.spec.headline[self.mode]
        with self.using():
            found = sweep(self.spec, self.table.players, self.table.rules, self.table.policy, self.mode, self.seed,
                          self.values, self.seat, self.count, self.threads, self.target_se,
                          lambda run: _sweep_largest_se(run, self.reference, headline), progress=progress)
        return SweepResult(found, self.table, self.reference, self.count, self.target_se)

    def result_of(self, run) -> SweepResult:
        """The (partial) result of an interrupted sweep's paired run."""
        from analyzer.optimize import Sweep

        return SweepResult(Sweep(self.spec, self.values, self.seat, self.table.policy, run), self.table,
                           self.reference, self.count)


def plan_sweep(game, param, seat=None, players=None, hands=None, games=None, seed=0, variant=None, rules=None,
               strategy=None, policy=None, threads=None, target_se=None, store=None, cluster=None,
               out=None) -> SweepPlan:
    """Check the arguments of :func:`sweep` (and ``out``) in the command line's order."""
    from analyzer.optimize import field_range
    from analyzer.runner import check_threads

    spec = game_spec(game)
    mode, count = _mode_and_count(spec, hands, games, HANDS, {HANDS: "1e6", GAME_MODE: "1e5"}, MIN_COUNT)
    most = target(target_se)
    seated, seed_number, thread_count = numbers(players, seed, threads)
    table = resolve(spec, seated, variant, rules, strategy, policy, None)
    swept_seat = parse_seat(_text(seat), table.players)
    try:
        values = field_range(spec, str(param))
    except KeyError as problem:  # an unknown field
        raise UserError(problem.args[0]) from None
    check_threads(thread_count)
    _check_out(out)
    current = float(table.policy[swept_seat if swept_seat is not None else 0, values.column])
    reference = min(range(len(values.values)), key=lambda i: abs(values.values[i] - current))
    return SweepPlan(store, cluster, spec, table, mode, seed_number, count, thread_count, most, values, swept_seat,
                     reference)


def sweep(game, param, seat=None, players=None, hands=None, games=None, seed=0, variant=None, rules=None,
          strategy=None, policy=None, threads=None, target_se=None, store=None, cluster=None,
          out=None) -> SweepResult:
    """Every outcome against one policy field, every value on the same deals (``analyze
    sweep``): ``param`` is ``"FIELD=LO:HI[:STEP]"`` or ``"FIELD"`` for its whole range;
    ``seat`` the seat that varies (default: every seat together).  Differences are shown
    against the seat's current value, or the swept value nearest it."""
    return _play(plan_sweep(game, param, seat, players, hands, games, seed, variant, rules, strategy, policy, threads,
                            target_se, store, cluster, out), out)


@dataclass(frozen=True)
class OptimizePlan(_TablePlan):
    """A checked ``optimize``, ready to play (``target_se`` is None)."""

    values: object
    rounds: int

    def run(self, progress: bool | None = None) -> OptimizeResult:
        from analyzer.optimize import optimize_all

        with self.using():
            found = optimize_all(self.spec, self.table.players, self.table.rules, self.table.policy, self.mode,
                                 self.seed, self.values, self.count, self.threads, progress, self.rounds)
        return OptimizeResult(found, self.table, self.values, self.mode, self.seed, self.count, self.spec)


def plan_optimize(game, players=None, field=None, hands=None, games=None, seed=0, variant=None, rules=None,
                  strategy=None, policy=None, seats=None, rounds=6, threads=None, store=None,
                  cluster=None) -> OptimizePlan:
    """Check the arguments of :func:`optimize` in the command line's order."""
    from analyzer.optimize import field_range
    from analyzer.runner import check_threads

    spec = game_spec(game)
    mode, count = _mode_and_count(spec, hands, games, spec.strategy_mode, {HANDS: "200k", GAME_MODE: "20k"},
                                  MIN_COUNT)
    seated, seed_number, thread_count = numbers(players, seed, threads)
    most_rounds = parse_whole(str(rounds), "--rounds", 1, 50)
    table = resolve(spec, seated, variant, rules, strategy, policy, seats)
    check_threads(thread_count)
    if field is not None:
        key = str(field)
    else:
        key = spec.strategy_fields[0] if spec.strategy_fields else spec.policy_fields[0].key
    try:
        values = field_range(spec, key)
    except KeyError as problem:  # an unknown field
        raise UserError(problem.args[0]) from None
    return OptimizePlan(store, cluster, spec, table, mode, seed_number, count, thread_count, None, values,
                        most_rounds)


def optimize(game, players=None, field=None, hands=None, games=None, seed=0, variant=None, rules=None,
             strategy=None, policy=None, seats=None, rounds=6, threads=None, store=None,
             cluster=None) -> OptimizeResult:
    """Each seat's best response to the others in one policy field (``field``: ``"FIELD"``
    or ``"FIELD=LO:HI[:STEP]"``, default the game's main strategy field), confirmed on
    fresh hands; then the matrix game (two players, constant-sum headline) or iterated
    best response for at most ``rounds`` rounds (``analyze optimize``)."""
    return plan_optimize(game, players, field, hands, games, seed, variant, rules, strategy, policy, seats, rounds,
                         threads, store, cluster).run()


@dataclass(frozen=True)
class ComparisonPlan(_TablePlan):
    """A checked ``compare``, ready to play."""

    arms: list
    changed: list

    def run(self, progress: bool | None = None) -> ComparisonResult:
        from analyzer.compare import largest_paired_se
        from analyzer.runner import Config, run_paired

        configs = [Config(tuple(rules), self.table.policy, label) for label, rules in self.arms]
        with self.using():
            found = run_paired(self.spec, self.table.players, self.mode, self.seed, configs, self.count, self.threads,
                               self.target_se, largest_paired_se if self.target_se else None, progress=progress)
        return self.result_of(found, self.target_se)

    def result_of(self, run, target_se: float | None = None) -> ComparisonResult:
        """The result of this plan's paired run (a partial one from an interrupt too)."""
        return ComparisonResult(run, self.table, [label for label, _ in self.arms], self.changed, self.arms,
                                self.count, target_se)


def plan_compare(game, variant=None, rules=None, players=None, hands=None, games=None, seed=0, strategy=None,
                 policy=None, seats=None, threads=None, target_se=None, store=None, cluster=None,
                 out=None) -> ComparisonPlan:
    """Check the arguments of :func:`compare` (and ``out``) in the command line's order."""
    from analyzer.params import build_rules
    from analyzer.runner import check_threads

    spec = game_spec(game)
    variants = [variant] if isinstance(variant, str) else list(variant or [])
    rules_given = assignments(rules)
    if len(set(variants)) < len(variants):
        raise UserError("each --variant may be given once.")
    if rules_given and len(variants) > 1:
        raise UserError("give --rule with at most one --variant: the rules are compared with that variant.")
    base = variants[0] if variants else None
    arms = [(name, build_rules(spec, name, [])) for name in variants]
    if rules_given:
        label = " ".join(rules_given) if base is None else f"{base} + {' '.join(rules_given)}"
        arms.append((label, build_rules(spec, base, rules_given)))
    if not arms:
        raise UserError("give what to compare: --variant A --variant B, or --variant A, or --rule KEY=VALUE ...")
    if len(arms) == 1:
        arms.insert(0, ("standard", spec.default_rules()))
    mode, count = _mode_and_count(spec, hands, games, HANDS, {HANDS: "1e6", GAME_MODE: "1e5"}, MIN_COUNT)
    most = target(target_se)
    seated, seed_number, thread_count = numbers(players, seed, threads)
    check_threads(thread_count)
    table = resolve(spec, seated, base, None, strategy, policy, seats)
    for _, arm_rules in arms:
        spec.check(arm_rules, table.policy, table.players)
    _check_out(out)
    changed = []
    for index, rule in enumerate(spec.rules):
        texts = [rule.value_text(int(r[index])) for _, r in arms]
        if len(set(texts)) > 1:
            changed.append(f"rule {rule.key}: " + " | ".join(texts))
    return ComparisonPlan(store, cluster, spec, table, mode, seed_number, count, thread_count, most, arms, changed)


def compare(game, variant=None, rules=None, players=None, hands=None, games=None, seed=0, strategy=None,
            policy=None, seats=None, threads=None, target_se=None, store=None, cluster=None,
            out=None) -> ComparisonResult:
    """Paired differences of every outcome between rule sets on the same deals (``analyze
    compare``): ``variant`` a name or a list of names (one is compared with the standard
    rules); ``rules`` a rule set compared with the standard rules (or with the one
    variant given)."""
    return _play(plan_compare(game, variant, rules, players, hands, games, seed, strategy, policy, seats, threads,
                              target_se, store, cluster, out), out)


@dataclass(frozen=True)
class ReportPlan(_Plan):
    """A checked ``report``, ready to write."""

    specs: list
    every_game: bool  # "all": an index page too
    out: Path
    count: int
    seed: int
    threads: int | None
    report_format: str

    def run(self, progress=None, wrote=None) -> ReportResult:
        """Write every game's report; ``progress(text)`` hears each stage, ``wrote(game,
        path)`` each file as it is written."""
        from analyzer.report import write_index, write_report

        paths = []

        def keep(game: str, path: Path) -> None:
            paths.append((game, path))
            if wrote is not None:
                wrote(game, path)

        with self.using():
            for spec in self.specs:
                keep(spec.name, write_report(spec, self.out / spec.name, self.count, self.seed, self.report_format,
                                             self.threads, progress=progress))
        if self.every_game:
            keep("all", write_index(self.out, self.specs, self.count, self.seed, self.report_format))
        return ReportResult(paths)


def plan_report(game, out="reports", hands=None, report_format="md", seed=0, threads=None, store=None,
                cluster=None) -> ReportPlan:
    """Check the arguments of :func:`report` in the command line's order."""
    from analyzer.report import check_out_dir
    from sims.registry import GAMES

    specs = list(GAMES.values()) if game == "all" else [game_spec(game)]
    if report_format not in ("md", "html"):
        raise UserError(f"--format takes md or html, not '{report_format}'.")
    count = parse_count(_text(hands if hands is not None else "1e6"), "--hands")
    if count < MIN_COUNT:
        raise UserError(f"--hands must be at least {MIN_COUNT} for a report, not {count}: its standard errors "
                        f"come from batches of hands.")
    _, seed_number, thread_count = numbers(None, seed, threads)
    from analyzer.runner import check_threads

    check_threads(thread_count)
    out = check_out_dir(_out_path(out))
    for spec in specs:  # each game's own folder too: a file there would only show at the end
        check_out_dir(out / spec.name)
    return ReportPlan(store, cluster, specs, game == "all", out, count, seed_number, thread_count, report_format)


def report(game, out="reports", hands=None, report_format="md", seed=0, threads=None, store=None,
           cluster=None) -> ReportResult:
    """Write the strategy report of ``game`` (or of every game, ``"all"``, with an index
    page) into ``out/<game>/`` (``analyze report``): Markdown with PNG charts
    (``report_format="md"``) or one self-contained HTML file (``"html"``); ``hands`` per run
    (default 1e6, strategy runs a fraction)."""
    return plan_report(game, out, hands, report_format, seed, threads, store, cluster).run()
