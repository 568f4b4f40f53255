"""The Python API: ``import analyzer as ca``, then ``ca.simulate``, ``ca.sweep``,
``ca.optimize``, ``ca.compare`` and ``ca.report``.

Each function takes the options of the ``analyze`` command of the same name, under Python
names (``rules=``, ``policy=``, ``seats=``, ``param=``, ``seat=``, ``report_format=`` ...),
as Python values or as the command line's strings: counts as ``2000`` or ``"1e6"``, rules
and policies as dicts (``rules={"ace_high": True}``, ``policy={"threshold": 5}``),
per-seat policies as ``seats={2: {"threshold": 6}}`` (or the command line's
``"KEY=VALUE"`` / ``"SEAT:KEY=VALUE"`` strings).  The values are turned into the command
line's text and parsed by ``analyzer.run.params``, so every check is the command line's, and
a bad argument raises ``ValueError`` whose message is the sentence ``analyze`` prints after
``error:``.  ``store`` and ``cluster`` say where hands are kept and played (see
``analyzer.run.execution.using``: ``store=None`` the default store, ``False`` none, or a file;
``cluster=None``, ``"local:N"`` or a Dask scheduler address).  An interrupt (Ctrl-C)
raises ``analyzer.run.interrupts.Interrupted``, whose ``partial`` is the finished part.

Each returns a result object: ``.table()`` the tidy DataFrame that ``--out`` writes as CSV,
``.plot()`` the matplotlib Figure it writes as PNG, ``.summary()`` (or ``.to_dict()``) the
``--json`` object, ``str(result)`` (or ``.text()``) the command's text output, and the
table as HTML in Jupyter.

The command line is a thin layer over the same code: each ``plan_*`` function checks
every argument (before any hand is played) and returns a plan whose ``run()`` plays it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from analyzer.api.checks import (
    MIN_COUNT,
    UserError,
    _text,
    assignments,
    check_out,
    game_spec,
    mode_and_count,
    numbers,
    out_path,
    resolve,
    target,
)
from analyzer.api.results import (
    ComparisonResult,
    OptimizeResult,
    ReportResult,
    SimulationResult,
    SweepResult,
    _sweep_largest_se,
)
from analyzer.run.execution import using
from analyzer.run.params import Table, parse_count, parse_seat, parse_whole
from sims.spec import GAMES as GAME_MODE
from sims.spec import HANDS, GameSpec


@dataclass(frozen=True)
class _Plan:
    """Where the hands of a plan are kept and played (see ``analyzer.run.execution.using``)."""

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
        from analyzer.run.runner import run

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
    mode, count = mode_and_count(spec, hands, games, HANDS, {HANDS: "1e6"})
    most = target(target_se)
    seated, seed_number, thread_count = numbers(players, seed, threads)
    table = resolve(spec, seated, variant, rules, strategy, policy, seats)
    check_out(out)
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
        from analyzer.strategy.sweeps import sweep

        headline = self.spec.headline[self.mode]
        with self.using():
            found = sweep(self.spec, self.table.players, self.table.rules, self.table.policy, self.mode, self.seed,
                          self.values, self.seat, self.count, self.threads, self.target_se,
                          lambda run: _sweep_largest_se(run, self.reference, headline), progress=progress)
        return SweepResult(found, self.table, self.reference, self.count, self.target_se)

    def result_of(self, run) -> SweepResult:
        """The (partial) result of an interrupted sweep's paired run."""
        from analyzer.strategy.sweeps import Sweep

        return SweepResult(Sweep(self.spec, self.values, self.seat, self.table.policy, run), self.table,
                           self.reference, self.count)


def plan_sweep(game, param, seat=None, players=None, hands=None, games=None, seed=0, variant=None, rules=None,
               strategy=None, policy=None, threads=None, target_se=None, store=None, cluster=None,
               out=None) -> SweepPlan:
    """Check the arguments of :func:`sweep` (and ``out``) in the command line's order."""
    from analyzer.run.runner import check_threads
    from analyzer.strategy.sweeps import field_range

    spec = game_spec(game)
    mode, count = mode_and_count(spec, hands, games, HANDS, {HANDS: "1e6", GAME_MODE: "1e5"}, MIN_COUNT)
    most = target(target_se)
    seated, seed_number, thread_count = numbers(players, seed, threads)
    table = resolve(spec, seated, variant, rules, strategy, policy, None)
    swept_seat = parse_seat(_text(seat), table.players)
    try:
        values = field_range(spec, str(param))
    except KeyError as problem:  # an unknown field
        raise UserError(problem.args[0]) from None
    check_threads(thread_count)
    check_out(out)
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
        from analyzer.strategy.equilibria import optimize_all

        with self.using():
            found = optimize_all(self.spec, self.table.players, self.table.rules, self.table.policy, self.mode,
                                 self.seed, self.values, self.count, self.threads, progress, self.rounds)
        return OptimizeResult(found, self.table, self.values, self.mode, self.seed, self.count, self.spec)


def plan_optimize(game, players=None, field=None, hands=None, games=None, seed=0, variant=None, rules=None,
                  strategy=None, policy=None, seats=None, rounds=6, threads=None, store=None,
                  cluster=None) -> OptimizePlan:
    """Check the arguments of :func:`optimize` in the command line's order."""
    from analyzer.run.runner import check_threads
    from analyzer.strategy.sweeps import field_range

    spec = game_spec(game)
    mode, count = mode_and_count(spec, hands, games, spec.strategy_mode, {HANDS: "200k", GAME_MODE: "20k"},
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
        from analyzer.run.runner import Config, run_paired
        from analyzer.strategy.comparisons import largest_paired_se

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
    from analyzer.run.params import build_rules
    from analyzer.run.runner import check_threads

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
    mode, count = mode_and_count(spec, hands, games, HANDS, {HANDS: "1e6", GAME_MODE: "1e5"}, MIN_COUNT)
    most = target(target_se)
    seated, seed_number, thread_count = numbers(players, seed, threads)
    check_threads(thread_count)
    table = resolve(spec, seated, base, None, strategy, policy, seats)
    for _, arm_rules in arms:
        spec.check(arm_rules, table.policy, table.players)
    check_out(out)
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
        from analyzer.reporting.write import write_index, write_report

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
    from analyzer.present.files import check_out_dir
    from sims.registry import GAMES

    specs = list(GAMES.values()) if game == "all" else [game_spec(game)]
    if report_format not in ("md", "html"):
        raise UserError(f"--format takes md or html, not '{report_format}'.")
    count = parse_count(_text(hands if hands is not None else "1e6"), "--hands")
    if count < MIN_COUNT:
        raise UserError(f"--hands must be at least {MIN_COUNT} for a report, not {count}: its standard errors "
                        f"come from batches of hands.")
    _, seed_number, thread_count = numbers(None, seed, threads)
    from analyzer.run.runner import check_threads

    check_threads(thread_count)
    out = check_out_dir(out_path(out))
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
