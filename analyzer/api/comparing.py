"""``compare``: paired differences between rule sets, or between two policies head to
head, on the same deals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from analyzer.api.checks import (
    MIN_COUNT,
    UserError,
    check_out,
    game_spec,
    mode_and_count,
    optional_text,
    policy_values,
    positive,
    rule_values,
    seat_entries,
    seed_of,
    table_files,
    table_of,
)
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
from analyzer.api.results import _cluster_line, _Result, _seat_outcome, _written
from analyzer.present import strategy_views, views
from analyzer.present.text import finite, target_note
from analyzer.run.context import Tally
from analyzer.run.params import Table
from sims.spec import MODE_NAMES, GameSpec, Mode

if TYPE_CHECKING:
    from analyzer.run.runner import PairedRun


@dataclass(repr=False)
class ComparisonResult(_Result):
    """Rule sets, or two policies, compared on the same deals: ``run``
    (``analyzer.run.runner.PairedRun``, one configuration per arm, the first the base),
    ``resolved`` (the table: players and the first arm's policy), ``labels`` (one per
    arm), ``changed`` (a line per rule or policy field that differs), ``arms`` (``(label,
    rules, policy)``) and ``requested`` (hands or games asked for).

    ``table()`` columns: ``compared`` (the arm compared with the first), ``scope``, ``seat``,
    ``outcome``, ``base``, ``base_se``, ``other``, ``other_se``, ``difference``, ``se``
    (paired), ``se_independent``, ``variance_reduction``.
    """

    run: PairedRun
    resolved: Table
    labels: list
    changed: list
    arms: list
    requested: int
    target_se: float | None = None
    files: list = field(default_factory=list)
    cluster: dict | None = None  # the Dask cluster that played it, or None
    played: tuple = ()  # per arm, the table files its seats play (PlayedTable)

    @property
    def spec(self) -> GameSpec:
        return self.run.spec

    @property
    def partial(self) -> bool:
        return self.run.interrupted

    def _missed(self) -> str:
        if not self.target_se:
            return ""
        from analyzer.strategy.comparisons import largest_paired_se

        return target_note(self.target_se, largest_paired_se(self.run))

    def _object(self) -> dict:
        summary = strategy_views.compare_object(
            self.spec, self.resolved, self.run, self.labels, self.changed, self.requested, self.arms, self.played
        )
        summary["target_se_reached"] = not self._missed() if self.target_se else None
        summary["cluster"] = self.cluster
        return summary

    def summary(self) -> dict:
        """The ``--json`` object: every outcome's paired difference per arm and seat."""
        return finite(self._object())

    def text(self) -> str:
        """What ``analyze compare`` prints."""
        notes = "".join(
            f"\nnote: {note}"
            for note in views.games_only_note(self.spec, [rules for _, rules, _ in self.arms], self.run.mode)
        )
        missed = self._missed()
        return (
            strategy_views.render_compare(
                self.spec,
                self.resolved,
                self.run,
                self.labels,
                self.changed or ["(the rule sets are the same)"],
                self.requested,
            )
            + notes
            + ("\n" + missed if missed else "")
            + _cluster_line(self.cluster)
        )

    def table(self):
        """One row per compared rule set, seat and outcome; columns in the class docstring."""
        from analyzer.present.tables import differences_frame

        return differences_frame(self._object()["differences"])

    def plot(self, outcome: str | None = None, ax=None):
        """The headline's (or ``outcome``'s) paired difference for each compared arm and
        seat, as a heat map; inline in Jupyter, or drawn into ``ax``."""
        from analyzer.present.charts import difference_heatmap, shown_in_jupyter
        from analyzer.present.text import outcome_labels
        from analyzer.strategy.comparisons import paired_differences

        spec, run, labels = self.spec, self.run, self.labels
        headline = _seat_outcome(spec, run.mode, outcome)
        rows, errors = [], []
        for other in range(1, len(run.configs)):
            by_seat = {d.seat: d for d in paired_differences(run, 0, other) if d.outcome == headline}
            rows.append([by_seat[s].difference for s in range(run.players)])
            errors.append([by_seat[s].se for s in range(run.players)])
        return shown_in_jupyter(
            difference_heatmap(
                [f"{labels[o]} minus {labels[0]}" for o in range(1, len(run.configs))],
                list(range(run.players)),
                rows,
                errors,
                f"{spec.title}: change in {headline} by seat ({run.count:,} {MODE_NAMES[run.mode]}, paired)",
                f"change in {outcome_labels(spec, run.mode)[headline]}",
                spec.lower_is_better(run.mode, headline),
                ax,
            ),
            ax,
        )

    def write(self, out) -> list[Path]:
        """Write what ``--out`` writes into the folder ``out`` (CSV, JSON, PNG); their paths."""
        from analyzer.present.files import write_compare_outputs

        stem = f"{self.spec.name}-{self.resolved.players}p-compare-{MODE_NAMES[self.run.mode]}-seed{self.run.seed}"
        return _written(self, out, lambda folder: write_compare_outputs(folder, stem, self._object(), self.plot()))


@dataclass(frozen=True)
class ComparisonPlan(TablePlan):
    """A checked ``compare``, ready to play: ``arms`` are (label, rules, policy);
    ``played`` per arm the table files its seats play."""

    arms: list
    changed: list
    played: tuple = ()

    def run(self, progress: bool | None = None, tally: Tally | None = None) -> ComparisonResult:
        from analyzer.run.runner import Config, run_paired
        from analyzer.strategy.comparisons import largest_paired_se

        configs = [Config(tuple(rules), policy, label) for label, rules, policy in self.arms]
        with self.context(progress, tally=tally) as context:
            found = run_paired(
                self.spec,
                self.table.players,
                self.mode,
                self.seed,
                configs,
                self.count,
                context,
                self.target_se,
                largest_paired_se if self.target_se else None,
            )
            cluster = context.cluster
        return self.result_of(found, self.target_se, cluster)

    def result_of(self, run, target_se: float | None = None, cluster: dict | None = None) -> ComparisonResult:
        """The result of this plan's paired run (a partial one from an interrupt too)."""
        return ComparisonResult(
            run,
            self.table,
            [label for label, _, _ in self.arms],
            self.changed,
            self.arms,
            self.count,
            target_se,
            cluster=cluster,
            played=self.played,
        )


def _values_text(values: Mapping) -> str:
    """``key=value`` words; a seat's tables by their files' names (``table=mine.csv``)."""
    return " ".join(
        " ".join(f"table={file.source}" for file in value)
        if key == "table"
        else f"{key}={str(value).lower() if isinstance(value, bool) else value}"
        for key, value in values.items()
    )


def _policy_label(strategy: str | None, policy: Mapping, seats: Mapping, tables=()) -> str:
    """How a compared policy is named: its preset, then what is set over it."""
    parts = [strategy or "default"]
    if policy:
        parts.append(_values_text(policy))
    if tables:
        parts.append(_values_text({"table": tables}))
    parts += [f"seat {seat}: {_values_text(fields)}" for seat, fields in seats.items()]
    return " + ".join(parts)


def _rule_arms(spec: GameSpec, variants: list[str], rules: dict) -> list:
    """The rule sets compared: each variant, the rules over the (one) variant, and the
    standard rules when only one set is given."""
    from sims.rules_text import build_rules

    if len(set(variants)) < len(variants):
        raise UserError("each --variant may be given once.")
    if rules and len(variants) > 1:
        raise UserError("give --rule with at most one --variant: the rules are compared with that variant.")
    base = variants[0] if variants else None
    arms = [(name, build_rules(spec, name, {})) for name in variants]
    if rules:
        label = _values_text(rules) if base is None else f"{base} + {_values_text(rules)}"
        arms.append((label, build_rules(spec, base, rules)))
    if not arms:
        raise UserError(
            "give what to compare: --variant A --variant B, or --variant A, or --rule KEY=VALUE ..., "
            "or a policy --against another."
        )
    if len(arms) == 1:
        arms.insert(0, ("standard", spec.default_rules()))
    return arms


def plan_compare(
    game: str,
    *,
    table: TableArgs = TableArgs(),
    against: TableArgs = TableArgs(),
    run: RunArgs = RunArgs(),
    out: Folder = None,
) -> ComparisonPlan:
    """Check the arguments of :func:`compare` (and ``out``) in the command line's order:
    ``table.variant`` may be a list of presets; ``against`` is the policy played head to
    head (its ``strategy``, ``policy``, ``seats`` and ``tables``; :func:`compare`'s
    ``against``, ``against_policy``, ``against_seats`` and ``against_tables``)."""
    spec = game_spec(game)
    refuse_unused(
        against, ("players", "variant", "rules"), "against", "that policy plays at the table's seats and rules"
    )
    variant, rules, players, strategy, policy, seats, tables = (
        table.variant,
        table.rules,
        table.players,
        table.strategy,
        table.policy,
        table.seats,
        table.tables,
    )
    if variant is None or isinstance(variant, str):
        variants = [] if variant is None else [variant]
    elif isinstance(variant, Sequence) and all(isinstance(name, str) for name in variant):
        variants = list(variant)
    else:
        raise UserError(f"variant is a name or a list of names (str), not {variant!r}.")
    given_rules = rule_values(rules)
    other_strategy = optional_text(against.strategy, "against")
    other_policy, other_seats = (
        policy_values(against.policy, "against_policy"),
        seat_entries(against.seats, "against_seats"),
    )
    other_tables = table_files(against.tables, "against_tables")
    head_to_head = other_strategy is not None or bool(other_policy) or bool(other_seats) or bool(other_tables)
    if head_to_head and len(variants) > 1:
        raise UserError("a policy compared --against another plays under one rule set: give at most one --variant.")
    mode, count = mode_and_count(
        spec, run.hands, run.games, Mode.HANDS, {Mode.HANDS: 10**6, Mode.GAMES: 10**5}, MIN_COUNT
    )
    most = positive(run.target_se, "target_se", "--target-se")
    seed_number = seed_of(run.seed)
    kept = where(run)
    if head_to_head:
        played_table, rival, arms = _policy_arms(
            spec,
            players,
            variants[0] if variants else None,
            given_rules,
            strategy,
            policy_values(policy),
            seat_entries(seats),
            other_strategy,
            other_policy,
            other_seats,
            table_files(tables),
            other_tables,
        )
        played = (played_table.tables, rival.tables)
    else:
        played_table = table_of(spec, players, variants[0] if variants else None, None, strategy, policy, seats, tables)
        arms = [(label, arm_rules, played_table.policy) for label, arm_rules in _rule_arms(spec, variants, given_rules)]
        for _, arm_rules, matrix in arms:
            spec.check_table(arm_rules, matrix, played_table.players)
        played = tuple(played_table.tables for _ in arms)  # type: ignore[assignment]  # one per arm
    check_out(out)
    return ComparisonPlan(
        *kept, spec, played_table, mode, seed_number, count, most, arms, _changed(spec, arms, played), played
    )


def _policy_arms(
    spec: GameSpec,
    players,
    variant,
    rules: dict,
    strategy,
    policy: dict,
    seats: dict,
    against,
    against_policy: dict,
    against_seats: dict,
    tables: list,
    against_tables: list,
) -> tuple:
    """The table, the rival table and the two policies played head to head under the
    same rules: the table's (``strategy``, ``policy``, ``seats``, ``tables``) and the
    other, which is the ``against`` preset with ``against_policy``, ``against_seats`` and
    ``against_tables`` over it, or, without ``against``, the table's own policy with those
    changes (a table given for a decision replaces the table's for that decision)."""
    table = table_of(spec, players, variant, rules, strategy, policy, seats, tables)
    if against is None:
        other_seats = {seat: dict(fields) for seat, fields in seats.items()}
        for seat, fields in against_seats.items():
            mine = other_seats.setdefault(seat, {})
            files = _replaced(mine.get("table", []), fields.get("table", []))
            mine.update(fields)
            if files:
                mine["table"] = files
        other_tables = _replaced(tables, against_tables)
        rival = table_of(
            spec, table.players, variant, rules, strategy, {**policy, **against_policy}, other_seats, other_tables
        )
        changes = (
            ([_values_text(against_policy)] if against_policy else [])
            + ([_values_text({"table": against_tables})] if against_tables else [])
            + [f"seat {seat}: {_values_text(fields)}" for seat, fields in against_seats.items()]
        )
        first = _policy_label(table.strategy, policy, seats, tables)
        labels = [first, " + ".join([first] + changes)]
    else:
        rival = table_of(spec, table.players, variant, rules, against, against_policy, against_seats, against_tables)
        labels = [
            _policy_label(table.strategy, policy, seats, tables),
            _policy_label(against, against_policy, against_seats, against_tables),
        ]
    if np.array_equal(table.policy, rival.policy):
        raise UserError("the policy given --against is the table's own: there is nothing to compare.")
    if labels[0] == labels[1]:
        labels = [f"{labels[0]} (first)", f"{labels[1]} (against)"]
    return table, rival, [(labels[0], table.rules, table.policy), (labels[1], rival.rules, rival.policy)]


def _replaced(files: list, others: list) -> list:
    """``files`` with those of a decision ``others`` gives replaced by ``others``."""
    decisions = {file.decision for file in others}
    return [file for file in files if file.decision not in decisions] + list(others)


def _changed(spec: GameSpec, arms: list, played=()) -> list[str]:
    """A line per rule, per policy field of a seat, and per seat's table, that differs
    between the arms (``played``: per arm the table files, to name them)."""
    lines = []
    for index, rule in enumerate(spec.rules):
        texts = [rule.value_text(int(rules[index])) for _, rules, _ in arms]
        if len(set(texts)) > 1:
            lines.append(f"rule {rule.key}: " + " | ".join(texts))
    players = arms[0][2].shape[0]
    for column, policy_field in enumerate(spec.policy_fields):
        per_arm = [
            [policy_field.value_text(float(matrix[seat, column])) for seat in range(players)] for _, _, matrix in arms
        ]
        if all(row == per_arm[0] for row in per_arm):
            continue
        if all(len(set(row)) == 1 for row in per_arm):
            lines.append(f"policy {policy_field.key}: " + " | ".join(row[0] for row in per_arm))
        else:
            for seat in range(players):
                texts = [row[seat] for row in per_arm]
                if len(set(texts)) > 1:
                    lines.append(f"seat {seat} policy {policy_field.key}: " + " | ".join(texts))
    return lines + _tables_changed(spec, arms, played)


def _tables_changed(spec: GameSpec, arms: list, played) -> list[str]:
    """A line per decision (every seat) or seat and decision whose table differs."""
    from analyzer.present.views import seat_tables

    played = list(played) or [()] * len(arms)
    per_arm = [seat_tables(spec, matrix, named) for (_, _, matrix), named in zip(arms, played)]
    players = arms[0][2].shape[0]
    names = [d.name for d in spec.table_decisions()] if any(any(seats) for seats in per_arm) else []
    lines = []
    for decision in names:

        def text(records: list[dict]) -> str:
            found = [r for r in records if r["decision"] == decision]
            return found[0]["table"] if found else "its policy"

        per_seat = [[text(seats[seat]) for seat in range(players)] for seats in per_arm]
        if all(row == per_seat[0] for row in per_seat):
            continue
        if all(len(set(row)) == 1 for row in per_seat):
            lines.append(f"{decision} played from: " + " | ".join(row[0] for row in per_seat))
        else:
            for seat in range(players):
                texts = [row[seat] for row in per_seat]
                if len(set(texts)) > 1:
                    lines.append(f"seat {seat} {decision} played from: " + " | ".join(texts))
    return lines


@documented
def compare(
    game: str,
    variant: str | Sequence[str] | None = None,
    rules: Rules | None = None,
    players: int | None = None,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    strategy: str | None = None,
    policy: Policy | None = None,
    seats: Seats | None = None,
    threads: int | None = None,
    target_se: float | None = None,
    store: Store = None,
    cluster: str | None = None,
    out: Folder = None,
    against: str | None = None,
    against_policy: Policy | None = None,
    against_seats: Seats | None = None,
    tables: Tables | None = None,
    against_tables: Tables | None = None,
) -> ComparisonResult:
    """Paired differences of every outcome between rule sets, or between two policies, on
    the same deals (``analyze compare``).

    game: the game's name.
    variant: a rule preset or a list of them (one is compared with the standard rules).
    rules: a rule set compared with the standard rules (or with the one variant given).
    against: a policy preset played head to head against the table's policy (``strategy``,
      ``policy`` and ``seats``), on the same deals and rules; with
    against_policy: values over that preset for every seat, and
    against_seats: values (or tables) for single seats, and
    against_tables: tables every seat plays.  Without ``against``, these change the
      table's own policy: the table plays against itself with those changes.
    players: seats at the table.
    strategy, policy, seats: the table's policy (the first of a head-to-head pair).
    hands: hands per arm (default 1,000,000); or
    games: whole games per arm instead (default 100,000 where no hands are given).
    target_se: stop once every paired standard error is below this.{run}
    out: a folder to write the CSV, JSON and PNG into.

    Returns a :class:`ComparisonResult`; ``ValueError`` for a bad argument."""
    return play(
        plan_compare(
            game,
            table=TableArgs(players, variant, rules, strategy, policy, seats, tables),
            against=TableArgs(strategy=against, policy=against_policy, seats=against_seats, tables=against_tables),
            run=RunArgs(hands, games, seed, threads, target_se, store, cluster),
            out=out,
        ),
        out,
    )
