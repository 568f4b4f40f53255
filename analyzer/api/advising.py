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
from typing import TYPE_CHECKING, Mapping

from analyzer.api.checks import UserError, check_out, game_spec, positive, seed_of, table_of, whole
from analyzer.api.plans import Folder, Policy, Rules, Seats, Store, TablePlan, documented, play, where
from analyzer.api.results import _Result, _written
from analyzer.run.context import Tally
from sims.spec import ADVICE

if TYPE_CHECKING:
    from analyzer.strategy.advice import Option
    from sims.core.advice import Situation
    from sims.spec import GameSpec

DEFAULT_DEALS = 100_000  # accepted deals per candidate when --hands is not given
Z95 = 1.959963984540054


@dataclass(repr=False)
class AdviceResult(_Result):
    """The advice on one decision: ``options`` (one :class:`Option` per candidate, in the
    game's order), ``best`` (the best candidate's action) and the counts behind them."""

    spec: GameSpec
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
    def holding_text(self) -> str:
        from sims.advice import cards_text

        return cards_text(self.spec, self.holding)

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
        from analyzer.strategy.advice import ranked

        return ranked(self.options, self.situation)

    def verdict(self) -> str:
        """One line: the best action, the others' values and by how much it is better, or a tie."""
        ranked = self.ranked()
        best = ranked[0]
        if len(ranked) == 1:
            return f"{best.action}: the only action allowed ({self.headline} {best.outcomes[self.headline][0]:.3f})."
        second = ranked[1]
        gap, gap_se = abs(second.diff), second.diff_se
        p = _places(gap_se)
        values = ", ".join(f"{option.action} {option.outcomes[self.headline][0]:.{p}f}" for option in ranked[1:4])
        head = f"{best.action}: {self.headline} {best.outcomes[self.headline][0]:.{p}f}, {values}"
        if gap <= 2 * gap_se:
            return f"{head}; {best.action} and {second.action} tie (they differ by {gap:.{p}f} ± {gap_se:.{p}f})."
        return f"{head}; {best.action} is better by {gap:.{p}f} ± {gap_se:.{p}f}."

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
            "holding": self.holding_text,
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
            f"{self.holding_text} ({self.situation.decision}; context: {context})",
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
            p, q = _places(se), _places(option.diff_se)
            diff = "best" if option.action == self.best else f"{option.diff:+.{q}f} ± {option.diff_se:.{q}f}"
            rows.append(
                [option.action, f"{mean:.{p}f} [{mean - Z95 * se:.{p}f}, {mean + Z95 * se:.{p}f}]", diff]
                + [_with_se(*option.outcomes[name]) for name in names[1:]]
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
            f"{self.spec.title}, seat {self.position} holding {self.holding_text}: "
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


def _places(error: float) -> int:
    """Decimals that show two significant digits of a standard error (0 to 4; 3 for none)."""
    if not error > 0 or not math.isfinite(error):
        return 3
    return max(0, min(4, 1 - math.floor(math.log10(error))))


def _with_se(mean: float, se: float) -> str:
    places = _places(se)
    return f"{mean:.{places}f} ± {se:.{places}f}"


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
        from analyzer.strategy.advice import estimates, play_advice
        from sims.core.advice import ACCEPTED, TRIED

        start = time.perf_counter()

        def result(flat: list[int], interrupted: bool = False) -> AdviceResult:
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
            flat = play_advice(
                self.spec,
                self.table,
                self.situation,
                self.seed,
                self.count,
                self.target_se,
                context,
                lambda flat: result(flat, interrupted=True),
            )
        if flat[ACCEPTED] == 0:
            raise UserError(
                f"no deal of {flat[TRIED]:,} tried matched this context: it is impossible, or too rare "
                f"to advise on at this table."
            )
        return result(flat)


def holding_of(spec, holding: object) -> tuple[int, ...]:
    """The cards of ``--holding`` ("6h", "Ac 5d", or a list of cards), one sentence otherwise."""
    from sims.advice import parse_holding

    if isinstance(holding, (list, tuple)):
        holding = " ".join(str(card) for card in holding)
    if not isinstance(holding, str):
        raise UserError(f'holding is the cards held, like "Ac 5d 10h", not {holding!r}.')
    if not holding.replace(",", " ").split():
        raise UserError('--holding needs the cards the seat holds, like "6h" or "Ac 5d 10h".')
    try:
        return parse_holding(spec, holding)
    except (ValueError, KeyError, IndexError) as problem:
        raise UserError(f"--holding: {str(problem).rstrip('.')}.") from None


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
    cards = holding_of(spec, holding)
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
