"""The API's result classes: ``table()`` (a tidy DataFrame), ``plot()``, ``summary()``
(the ``--json`` object), ``text()`` and the HTML Jupyter shows."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.api.checks import UserError, check_out
from analyzer.present import strategy_views, views
from analyzer.present.text import finite, target_note
from analyzer.run.params import Table
from sims.spec import MODE_NAMES, GameSpec

if TYPE_CHECKING:
    from analyzer.run.runner import RunResult
    from analyzer.strategy.equilibria import Optimum
    from analyzer.strategy.sweeps import FieldRange, Sweep


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


def _cluster_line(cluster: dict | None) -> str:
    """The line a strategy command's text ends with when a Dask cluster played its hands."""
    if not cluster:
        return ""
    from analyzer.present.views import cluster_text

    return f"\nplayed on {cluster_text(cluster)}"


def _outcome(spec: GameSpec, mode: int, outcome: object) -> str:
    """An outcome's name checked against the game's outcomes in ``mode``."""
    outcomes = spec.outcomes[mode]
    names = [name for name in outcomes.seat + outcomes.table if not name.endswith("_fair_odds")]
    if not isinstance(outcome, str) or outcome not in names:
        raise UserError(f"outcome is one of {', '.join(names)}, not {outcome!r}.")
    return outcome


def _seat_outcome(spec: GameSpec, mode: int, outcome: object) -> str:
    """A seat outcome to chart: the headline when None."""
    if outcome is None:
        return spec.headline[mode]
    if outcome not in spec.outcomes[mode].seat:
        raise UserError(
            f"outcome is one of the seats' outcomes, {', '.join(spec.outcomes[mode].seat)}, not {outcome!r}."
        )
    return outcome


def _written(result, out, write) -> list[Path]:
    """Check ``out``, write the result's files there with ``write(folder)``, keep their paths."""
    check_out(out)
    result.files = list(write(Path(out)))
    return result.files


@dataclass(repr=False)
class SimulationResult(_Result):
    """A game simulated: ``run`` (``analyzer.run.runner.RunResult``: the integer sums, the count,
    the seed, timings) and ``resolved`` (``analyzer.run.params.Table``: players, rules, policy).

    ``table()`` columns: ``scope`` (``"seat"``, or ``"table"`` for the outcomes of the table
    as a whole), ``seat`` (the seat's number, an ``Int64``; missing for the table's),
    ``outcome``, ``mean``, ``se``, ``ci_low``, ``ci_high`` (the 95% interval) and ``hands``
    or ``games`` (how many were played).
    """

    run: RunResult
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
        from analyzer.run.stats import estimates, largest_se

        return largest_se(estimates(self.run.sums, self.spec.outcomes[self.run.mode], self.run.count))

    def _object(self) -> dict:
        summary = views.summary_object(self.spec, self.run)
        largest = self._largest_se()  # None without a target, or for a partial run
        summary["target_se"] = self.target_se
        summary["target_se_reached"] = None if largest is None or self.target_se is None else largest < self.target_se
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
        from analyzer.present.tables import estimates_frame

        unit = MODE_NAMES[self.run.mode]
        return estimates_frame(views.summary_object(self.spec, self.run)["results"], self.run.count, unit)

    def _chart_labels(self, outcome: str | None = None) -> tuple[str, str, str]:
        """The chart's outcome (the headline unless given), title and axis label."""
        from analyzer.present.text import outcome_labels

        mode = self.run.mode
        shown = _seat_outcome(self.spec, mode, outcome)
        title = (
            f"{self.spec.title}, {self.resolved.players} players: {shown.replace('_', ' ')} by seat "
            f"({MODE_NAMES[mode]} mode)"
        )
        return shown, title, outcome_labels(self.spec, mode)[shown]

    def plot(self, outcome: str | None = None, ax=None):
        """One seat outcome per seat with 95% intervals (the headline unless ``outcome``
        names another), as a matplotlib Figure that shows inline in Jupyter; with ``ax``,
        drawn into those axes."""
        from analyzer.present.charts import seat_outcome_chart, shown_in_jupyter

        return shown_in_jupyter(seat_outcome_chart(self.table(), *self._chart_labels(outcome), ax=ax), ax)

    def write(self, out) -> list[Path]:
        """Write what ``--out`` writes into the folder ``out`` (CSV, JSON, PNG); their paths."""
        from analyzer.present.files import write_run_outputs

        stem = f"{self.spec.name}-{self.resolved.players}p-{MODE_NAMES[self.run.mode]}-seed{self.run.seed}"
        return _written(
            self,
            out,
            lambda folder: write_run_outputs(
                folder, stem, views.summary_object(self.spec, self.run), *self._chart_labels()
            ),
        )


def _sweep_largest_se(run, reference: int, headline: str) -> float:
    """Every standard error a sweep shows: each value's estimates and the paired
    differences of the headline against the reference value."""
    from analyzer.strategy.comparisons import paired_differences

    shown = [e.se for i in range(len(run.configs)) for e in run.estimates(i) if not e.outcome.endswith("_fair_odds")]
    shown += [
        d.se
        for i in range(len(run.configs))
        if i != reference
        for d in paired_differences(run, reference, i)
        if d.outcome == headline and d.seat != "table"
    ]
    return max((se for se in shown if not math.isnan(se)), default=math.inf)


@dataclass(repr=False)
class SweepResult(_Result):
    """A policy field swept: ``sweep`` (``analyzer.strategy.sweeps.Sweep``; its ``run`` is the
    paired run, value ``i`` played as configuration ``i``), ``resolved`` (the table the
    other fields and seats keep), ``reference`` (the index of the value differences are
    shown against) and ``requested`` (hands or games asked for per value).

    ``table()`` columns: ``field``, ``value``, ``value_text``, ``scope``, ``seat`` (as in
    :class:`SimulationResult`), ``outcome``, ``mean``, ``se``, ``ci_low``, ``ci_high``, and
    ``diff``, ``diff_se``: the paired difference to the reference value on the same deals
    and its standard error (0 and 0 at the reference): one row per value, seat and outcome.
    """

    sweep: Sweep
    resolved: Table
    reference: int
    requested: int
    target_se: float | None = None
    files: list = field(default_factory=list)
    cluster: dict | None = None  # the Dask cluster that played it (see RunContext.cluster), or None

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
        return finite(
            {
                **views.sweep_object(self.spec, self.resolved, self.sweep, self.reference, self.requested, reached),
                "cluster": self.cluster,
            }
        )

    def text(self) -> str:
        """The table ``analyze sweep`` prints."""
        missed = self._missed()
        return (
            views.render_sweep(self.spec, self.resolved, self.sweep, self.reference, self.requested)
            + ("\n" + missed if missed else "")
            + _cluster_line(self.cluster)
        )

    def table(self):
        """One row per value, seat and outcome; columns in the class docstring."""
        from analyzer.present.tables import sweep_frame

        return sweep_frame(self.sweep.records(self.reference))

    def plot(self, outcome: str | None = None, ax=None):
        """Each outcome of the swept seat (or every seat's headline) against the value, as a
        matplotlib Figure that shows inline in Jupyter; ``outcome``: that one only; with
        ``ax`` (and one outcome), drawn into those axes."""
        from analyzer.present.charts import shown_in_jupyter
        from analyzer.present.files import sweep_figure

        shown = None if outcome is None else _outcome(self.spec, self.sweep.mode, outcome)
        return shown_in_jupyter(
            sweep_figure(
                self.sweep.records(), self.spec, self.sweep.mode, self.sweep.seat, self.resolved.players, shown, ax
            ),
            ax,
        )

    def write(self, out) -> list[Path]:
        """Write what ``--out`` writes into the folder ``out`` (CSV, PNG); their paths."""
        from analyzer.present.files import write_sweep_outputs

        seat = self.sweep.seat
        who = f"seat{seat}" if seat is not None else "all"
        stem = f"{self.spec.name}-{self.resolved.players}p-sweep-{self.sweep.values.field.key}-{who}"
        return _written(
            self,
            out,
            lambda folder: write_sweep_outputs(
                folder,
                stem,
                self.sweep.records(self.reference),
                self.spec,
                self.sweep.mode,
                seat,
                self.resolved.players,
            ),
        )


@dataclass(repr=False)
class OptimizeResult(_Result):
    """Best responses and the equilibrium of one policy field: ``optimum``
    (``analyzer.strategy.equilibria.Optimum``: ``responses``, ``matrix``, ``equilibrium``,
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

    optimum: Optimum
    resolved: Table
    values: FieldRange
    mode: int
    seed: int
    count: int
    spec: GameSpec
    cluster: dict | None = None  # the Dask cluster that played it, or None

    def summary(self) -> dict:
        """The ``--json`` object: best responses, and the matrix game or the equilibrium."""
        return finite(
            {
                **strategy_views.optimize_object(
                    self.spec, self.resolved, self.mode, self.seed, self.values, self.count, self.optimum
                ),
                "cluster": self.cluster,
            }
        )

    def text(self) -> str:
        """What ``analyze optimize`` prints."""
        return strategy_views.render_optimize(
            self.spec, self.resolved, self.mode, self.seed, self.values, self.count, self.optimum
        ) + _cluster_line(self.cluster)

    def table(self):
        """One row per seat; columns in the class docstring."""
        from analyzer.present.tables import best_responses_frame

        found = self.optimum
        records = strategy_views.best_response_records(self.spec, self.mode, self.values, found.responses)
        evaluation = {d.seat: d for d in found.evaluation}
        rows = []
        for record in records:
            seat = record["seat"]
            row = {
                "field": self.values.field.key,
                **record,
                "equilibrium": None,
                "equilibrium_value": None,
                "equilibrium_value_se": None,
                "equilibrium_change": None,
                "equilibrium_change_se": None,
                "mix": None,
            }
            if found.equilibrium is not None:
                row["equilibrium"] = found.equilibrium.values[seat]
            if seat in evaluation:
                d = evaluation[seat]
                row.update(
                    equilibrium_value=d.other,
                    equilibrium_value_se=d.other_se,
                    equilibrium_change=d.difference,
                    equilibrium_change_se=d.se,
                )
            if found.matrix is not None and found.matrix.constant_sum:
                row["mix"] = {value: p for value, p, _ in found.matrix.support(seat)}
            rows.append(row)
        return best_responses_frame(rows)

    def plot(self, outcome: str | None = None, ax=None):
        """Each seat's headline (or ``outcome``) against its own value of the field, the
        others as they started (the sweeps behind the best responses), with 95% intervals;
        inline in Jupyter, or drawn into ``ax``."""
        from analyzer.present.charts import shown_in_jupyter, sweep_chart
        from analyzer.present.tables import sweep_frame
        from analyzer.present.text import field_label, outcome_labels

        key = self.values.field.key
        headline = _seat_outcome(self.spec, self.mode, outcome)
        records = [
            {**point.as_record(), "field": key, "value": value, "value_text": self.values.value_text(value)}
            for response in self.optimum.responses
            for value, point in zip(response.values, response.points)
        ]
        title = (
            f"{self.spec.title}, {self.resolved.players} players: each seat's {headline.replace('_', ' ')} "
            f"against its own {key}, the others as they started"
        )
        return shown_in_jupyter(
            sweep_chart(
                sweep_frame(records),
                [headline],
                title,
                key,
                labels=outcome_labels(self.spec, self.mode),
                choices=bool(self.values.field.choices),
                field_label=field_label(self.values.field),
                ax=ax,
            ),
            ax,
        )


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
        from analyzer.present.tables import paths_frame

        return paths_frame(self.paths)
