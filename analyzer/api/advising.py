"""``ca.advise``: every candidate action of one seat's next decision, played on the same
deals of the unseen cards (``analyze advise``).

The game decides which decision the position, holding and context describe and lists
its candidates (``sims.advice.situation``); the deals are played in batches through the
run context (threads, store, cluster, interrupts) until ``hands`` deals are accepted,
or every paired difference to the best candidate has a standard error below
``target_se``, or the cap on deals tried is reached.  Batch sizes follow from the counts
alone (never from timing), so the same command gives the same numbers anywhere.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from analyzer.api.checks import UserError, check_out, game_spec, positive, seed_of, table_of, whole
from analyzer.api.plans import Folder, Policy, Rules, Seats, Store, TablePlan, documented, play, where
from analyzer.api.results import _Result, _written
from analyzer.run.context import Tally
from sims.core.advice import ACCEPTED, FIRST_SUM, TRIED, Situation, cross_start
from sims.core.cards import card_code, format_cards
from sims.spec import ADVICE

DEFAULT_DEALS = 100_000  # accepted deals per candidate when --hands is not given
FIRST_TRIES = 20_000  # deals tried in the first batch (at most; fewer when fewer are asked)
TRIES_PER_DEAL = 2_000  # the cap: deals tried per deal asked for
NONE_ACCEPTED_AFTER = 2_000_000  # tried deals after which a context that accepted none is refused
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Option:
    """One candidate's estimates: ``mean``, ``se`` and the 95% interval of each outcome
    (``outcomes``: name -> (mean, se)), and the paired difference of the headline to the
    best candidate's (``diff``, ``diff_se``)."""

    action: str
    outcomes: Mapping[str, tuple[float, float]]
    diff: float
    diff_se: float


@dataclass(repr=False)
class AdviceResult(_Result):
    """The advice on one decision: ``options`` (one :class:`Option` per candidate, in the
    game's order), ``best`` (the best candidate's action) and the counts behind them."""

    spec: object
    situation: Situation
    position: int
    holding: tuple[int, ...]
    context: Mapping[str, str]
    players: int
    seed: int
    tried: int
    accepted: int
    options: list[Option]
    best: str
    elapsed_s: float
    interrupted: bool = False
    files: list = field(default_factory=list)

    @property
    def count(self) -> int:
        """Deals accepted (what a partial result is made of)."""
        return self.accepted

    @property
    def headline(self) -> str:
        return self.situation.outcomes[0]

    @property
    def acceptance(self) -> float:
        return self.accepted / self.tried if self.tried else 0.0

    def ranked(self) -> list[Option]:
        """The options from best to worst by the headline."""
        sign = 1 if self.situation.lower_is_better else -1
        return sorted(self.options, key=lambda option: sign * option.outcomes[self.headline][0])

    def verdict(self) -> str:
        """One line: the best action, the others' values and by how much it is better, or a tie."""
        ranked = self.ranked()
        best = ranked[0]
        if len(ranked) == 1:
            return f"{best.action}: the only action allowed ({self.headline} {best.outcomes[self.headline][0]:.3f})."
        second = ranked[1]
        values = ", ".join(f"{option.action} {option.outcomes[self.headline][0]:.3f}" for option in ranked[1:4])
        gap, gap_se = abs(second.diff), second.diff_se
        head = f"{best.action}: {self.headline} {best.outcomes[self.headline][0]:.3f}, {values}"
        if gap <= 2 * gap_se:
            return f"{head}; {best.action} and {second.action} tie (they differ by {gap:.3f} ± {gap_se:.3f})."
        return f"{head}; {best.action} is better by {gap:.3f} ± {gap_se:.3f}."

    def summary(self) -> dict:
        """The ``--json`` object."""
        options = []
        for option in self.options:
            mean, se = option.outcomes[self.headline]
            others = {name: {"mean": m, "se": s} for name, (m, s) in option.outcomes.items() if name != self.headline}
            options.append(
                {
                    "action": option.action,
                    "outcome": self.headline,
                    "mean": mean,
                    "se": se,
                    "ci_low": mean - Z95 * se,
                    "ci_high": mean + Z95 * se,
                    "diff": option.diff,
                    "diff_se": option.diff_se,
                    "others": others,
                }
            )
        return {
            "game": self.spec.name,
            "decision": self.situation.decision,
            "position": self.position,
            "players": self.players,
            "holding": format_cards(self.holding),
            "context": dict(self.situation.described),
            "seed": self.seed,
            "deals": self.accepted,
            "tried": self.tried,
            "acceptance": self.acceptance,
            "lower_is_better": self.situation.lower_is_better,
            "options": options,
            "best": self.best,
            "verdict": self.verdict(),
            "partial": self.interrupted,
        }

    def text(self) -> str:
        context = ", ".join(f"{key}={value}" for key, value in self.context.items()) or "none"
        lines = [
            f"{self.spec.title}: advice for seat {self.position} of {self.players} holding "
            f"{format_cards(self.holding)} ({self.situation.decision}; context: {context})",
            f"{self.accepted:,} deals accepted of {self.tried:,} tried (acceptance {self.acceptance:.1%}), "
            f"seed {self.seed}, every action on the same deals"
            + (" (interrupted: a partial result)" if self.interrupted else ""),
            "",
        ]
        names = list(self.situation.outcomes)
        header = ["action", f"{names[0]} [95% interval]", "vs best ± se"] + names[1:]
        rows = []
        for option in self.ranked():
            mean, se = option.outcomes[names[0]]
            diff = "best" if option.action == self.best else f"{option.diff:+.4f} ± {option.diff_se:.4f}"
            rows.append(
                [option.action, f"{mean:.4f} [{mean - Z95 * se:.4f}, {mean + Z95 * se:.4f}]", diff]
                + [f"{option.outcomes[name][0]:.4f} ± {option.outcomes[name][1]:.4f}" for name in names[1:]]
            )
        widths = [max(len(str(row[k])) for row in [header] + rows) for k in range(len(header))]
        for row in [header] + rows:
            lines.append("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())
        lines += ["", self.verdict()]
        return "\n".join(lines)

    def table(self):
        """One row per candidate and outcome: ``action``, ``outcome``, ``mean``, ``se``,
        ``ci_low``, ``ci_high``, and for the headline ``diff`` and ``diff_se`` to the best."""
        import pandas as pd

        rows = []
        for option in self.options:
            for name, (mean, se) in option.outcomes.items():
                headline = name == self.headline
                rows.append(
                    {
                        "action": option.action,
                        "outcome": name,
                        "mean": mean,
                        "se": se,
                        "ci_low": mean - Z95 * se,
                        "ci_high": mean + Z95 * se,
                        "diff": option.diff if headline else math.nan,
                        "diff_se": option.diff_se if headline else math.nan,
                        "deals": self.accepted,
                    }
                )
        return pd.DataFrame(rows)

    def plot(self, ax=None):
        """The headline of every candidate with its 95% interval, the best in green."""
        from analyzer.present.charts import advice_chart, shown_in_jupyter

        figure = advice_chart(
            [option.action for option in self.options],
            [option.outcomes[self.headline][0] for option in self.options],
            [Z95 * option.outcomes[self.headline][1] for option in self.options],
            self.best,
            self.headline.replace("_", " "),
            f"{self.spec.title}, seat {self.position} holding {format_cards(self.holding)}: "
            f"{self.accepted:,} deals, 95% intervals",
            ax,
        )
        return shown_in_jupyter(figure, ax)

    def write(self, out) -> list[Path]:
        """Write ``advice.csv``, ``advice.json`` and ``advice.png`` into the folder ``out``."""

        def write(folder: Path):
            from analyzer.present.files import png_bytes, write_files

            return write_files(
                {
                    folder / "advice.csv": self.table().to_csv(index=False),
                    folder / "advice.json": json.dumps(self.summary(), indent=2) + "\n",
                    folder / "advice.png": png_bytes(self.plot()),
                }
            )

        return _written(self, out, write)


def estimates(flat: list[int], found: Situation) -> tuple[list[Option], str]:
    """The options and the best action from the flat sums of an advice run."""
    k_count, o_count = len(found.candidates), len(found.outcomes)
    accepted = flat[ACCEPTED]
    means, ses = [], []
    for c in range(k_count):
        row_means, row_ses = [], []
        for o in range(o_count):
            at = FIRST_SUM + 2 * (c * o_count + o)
            mean, se = _mean_se(flat[at], flat[at + 1], accepted)
            row_means.append(mean / found.scale[o])
            row_ses.append(se / found.scale[o])
        means.append(row_means)
        ses.append(row_ses)
    sign = 1 if found.lower_is_better else -1
    best = min(range(k_count), key=lambda c: (sign * means[c][0], c))
    cross = cross_start(k_count, o_count)
    options = []
    for c in range(k_count):
        diff = means[c][0] - means[best][0]
        if accepted > 1 and c != best:
            square = flat[cross + c * k_count + c] + flat[cross + best * k_count + best]
            square -= 2 * flat[cross + c * k_count + best]
            raw_diff = diff * found.scale[0]
            variance = max(0.0, square / accepted - raw_diff * raw_diff) * accepted / (accepted - 1)
            diff_se = math.sqrt(variance / accepted) / found.scale[0]
        else:
            diff_se = 0.0 if c == best else math.nan
        outcomes = {name: (means[c][o], ses[c][o]) for o, name in enumerate(found.outcomes)}
        options.append(Option(found.candidates[c], outcomes, diff, diff_se))
    return options, found.candidates[best]


def _mean_se(total: int, squares: int, count: int) -> tuple[float, float]:
    if count == 0:
        return math.nan, math.nan
    mean = total / count
    if count < 2:
        return mean, math.nan
    variance = max(0.0, squares / count - mean * mean) * count / (count - 1)
    return mean, math.sqrt(variance / count)


def _largest_diff_se(options: list[Option], best: str) -> float:
    return max((option.diff_se for option in options if option.action != best), default=0.0)


@dataclass(frozen=True)
class AdvicePlan(TablePlan):
    """A checked ``advise``: the table, the situation, the deals wanted."""

    situation: Situation
    position: int
    holding: tuple[int, ...]
    seen: Mapping[str, str]  # the context given

    def result_of(self, found: AdviceResult) -> AdviceResult:
        """The result of a run of this plan (a partial one from an interrupt is already one)."""
        return found

    def run(self, progress: bool | None = None, tally: Tally | None = None) -> AdviceResult:
        """Play it (``progress``: the bar on a terminal or in Jupyter by default, False never)."""
        from analyzer.run import interrupts
        from analyzer.run.execution import play_jobs
        from analyzer.run.progress import ProgressBar
        from sims.advice import advice_rules, flat_sums, spec_for_rules
        from sims.engine import Stopped

        rules_ext = advice_rules(self.spec, self.table.rules, self.situation)
        spec = spec_for_rules(self.spec, rules_ext, self.table.players)
        flat = [0] * self.situation.width
        start = time.perf_counter()
        cap = max(self.count * TRIES_PER_DEAL, NONE_ACCEPTED_AFTER)

        def result(interrupted: bool = False) -> AdviceResult:
            options, best = estimates(flat, self.situation)
            return AdviceResult(
                self.spec,
                self.situation,
                self.position,
                self.holding,
                self.seen,
                self.table.players,
                self.seed,
                flat[TRIED],
                flat[ACCEPTED],
                options,
                best,
                time.perf_counter() - start,
                interrupted,
            )

        with self.context(progress, tally=tally) as context:
            bar = ProgressBar(self.count, "deals", context.progress, context.tally)
            try:
                with interrupts.deferred():
                    while flat[ACCEPTED] < self.count and flat[TRIED] < cap:
                        interrupts.check(result(interrupted=True))
                        size = _next_batch(flat[TRIED], flat[ACCEPTED], self.count, cap)
                        before = flat[ACCEPTED]
                        try:
                            sums = play_jobs(
                                spec,
                                [(rules_ext, self.table.policy, flat[TRIED], size)],
                                self.table.players,
                                ADVICE,
                                self.seed,
                                context,
                                stop=interrupts.requested,
                            )[0]
                        except Stopped as stopped:
                            if stopped.played[0]:
                                _add(flat, flat_sums(stopped.sums[0], self.situation))
                            raise interrupts.stopping(result(interrupted=True)) from None
                        _add(flat, flat_sums(sums, self.situation))
                        bar.add(flat[ACCEPTED] - before)
                        if flat[ACCEPTED] == 0 and flat[TRIED] >= NONE_ACCEPTED_AFTER:
                            break
                        if self.target_se is not None and flat[ACCEPTED] >= 1_000:
                            options, best = estimates(flat, self.situation)
                            if _largest_diff_se(options, best) < self.target_se:
                                break
            finally:
                bar.close()
        if flat[ACCEPTED] == 0:
            raise UserError(
                f"no deal of {flat[TRIED]:,} tried matched this context: it is impossible, or too rare "
                f"to advise on at this table."
            )
        return result()


def _next_batch(tried: int, accepted: int, wanted: int, cap: int) -> int:
    """Deals to try next: enough for the deals still wanted at the acceptance seen so far
    (with a margin), from counts alone."""
    if tried == 0:
        size = min(FIRST_TRIES, wanted)
    else:
        rate = max(accepted, 1) / tried
        size = int(1.1 * (wanted - accepted) / rate) + 100
        size = min(size, 8 * tried)  # grow step by step while the acceptance is uncertain
        if accepted == 0:
            size = min(size, NONE_ACCEPTED_AFTER - tried) if tried < NONE_ACCEPTED_AFTER else size
    return max(1, min(size, cap - tried))


def _add(flat: list[int], part: list[int]) -> None:
    for k, value in enumerate(part):
        flat[k] += value


def holding_of(holding: object) -> tuple[int, ...]:
    """The cards of ``--holding`` ("6h", "Ac 5d", or a list of cards), one sentence otherwise."""
    if isinstance(holding, str):
        tokens = holding.replace(",", " ").split()
    elif isinstance(holding, (list, tuple)):
        tokens = [str(card) for card in holding]
    else:
        raise UserError(f'holding is the cards held, like "Ac 5d 10h", not {holding!r}.')
    if not tokens:
        raise UserError('--holding needs the cards the seat holds, like "6h" or "Ac 5d 10h".')
    try:
        return tuple(card_code(token) for token in tokens)
    except ValueError as problem:
        raise UserError(f"--holding: {problem}") from None


def context_of(context: object) -> dict[str, str]:
    if context is None:
        return {}
    if not isinstance(context, Mapping) or not all(isinstance(key, str) for key in context):
        raise UserError(f"context is a dict of names to values, like {{'gave': '9c'}}, not {context!r}.")
    return {key: str(value) for key, value in context.items()}


def plan_advice(
    game: str,
    position: int | None = None,
    holding: object = None,
    context: Mapping[str, object] | None = None,
    players: int | None = None,
    hands: int | None = None,
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
) -> AdvicePlan:
    """Check the arguments of :func:`advise` in the command line's order."""
    from sims import advice

    spec = game_spec(game)
    if not spec.advice:
        raise UserError(f"{spec.title} has no advice yet.")
    if position is None:
        raise UserError("--position is needed: the seat to advise (0 is the dealer's left, the dealer the last).")
    if holding is None:
        raise UserError('--holding is needed: the cards the seat holds, like "6h" or "Ac 5d 10h".')
    cards = holding_of(holding)
    seen = context_of(context)
    count = DEFAULT_DEALS if hands is None else whole(hands, "hands", "--hands", 1)
    most = positive(target_se, "target_se", "--target-se")
    seed_number = seed_of(seed)
    kept = where(store, cluster, threads)
    table = table_of(spec, players, variant, rules, strategy, policy, seats)
    seat = whole(position, "position", "--position")
    try:
        found = advice.situation(spec, spec.rules_type(*table.rules), table.players, seat, cards, seen)
    except ValueError as problem:
        raise UserError(str(problem)) from None
    check_out(out)
    return AdvicePlan(*kept, spec, table, ADVICE, seed_number, count, most, found, seat, cards, seen)


@documented
def advise(
    game: str,
    position: int | None = None,
    holding: object = None,
    context: Mapping[str, object] | None = None,
    players: int | None = None,
    hands: int | None = None,
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
) -> AdviceResult:
    """Advice on one seat's next decision (``analyze advise``): every legal action played
    on the same deals of the unseen cards, conditioned on what the seat has seen.

    game: the game's name, e.g. "chase-ace".
    position: the seat to advise (0 the dealer's left, the dealer the last seat).
    holding: its cards, "6h" or "Ac 5d 10h".
    context: what it has seen, a dict such as gave="9c" (``ca.rules(game)`` lists the keys).
    hands: deals to accept per action (default 100,000).{table}
    target_se: stop once every difference to the best action has a standard error below this.{run}
    out: a folder to write advice.csv, advice.json and advice.png into.
    """
    plan = plan_advice(
        game,
        position,
        holding,
        context,
        players,
        hands,
        seed,
        variant,
        rules,
        strategy,
        policy,
        seats,
        threads,
        target_se,
        store,
        cluster,
        out,
    )
    return play(plan, out)
