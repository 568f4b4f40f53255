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

from analyzer.api.checks import UserError, check_out, count_of, game_spec, positive, seed_of, table_of, whole
from analyzer.api.plans import Folder, Policy, Rules, Seats, Store, TablePlan, documented, play, where
from analyzer.api.results import _Result, _written
from analyzer.run.context import Tally
from sims.core.advice import INFER
from sims.spec import ADVICE

if TYPE_CHECKING:
    from analyzer.run.params import Table
    from analyzer.strategy.advice import Option
    from sims.core.advice import Situation
    from sims.spec import GameSpec

DEFAULT_DEALS = 100_000  # accepted deals per candidate when --hands is not given
Z95 = 1.959963984540054


@dataclass(repr=False)
class AdviceResult(_Result):
    """The advice on one decision: ``options`` (one :class:`Option` per candidate, in the
    game's order), ``best`` (the best candidate's action, by outcome ``rank``) and the
    counts behind them; ``table`` is the table played (rules, every seat's policy),
    ``situation.infer`` how the history was read (``switched``: the history was too rare
    under the field's policy, so it was read as seen), ``stop`` why the run ended
    (:class:`analyzer.strategy.advice.AdviceRun`)."""

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
    table_played: Table | None = None
    rank: int | None = None
    asked: int = 0
    target_se: float | None = None
    from_store: int = 0
    stop: str = "count"
    switched: tuple[int, int] | None = None  # (tried, accepted) under the field's policy before reading as seen

    @property
    def holding_text(self) -> str:
        from sims.advice import cards_text

        return cards_text(self.spec, self.holding)

    @property
    def count(self) -> int:
        """Deals accepted (what a partial result is made of)."""
        return self.accepted

    @property
    def ranked_by(self) -> str:
        """The outcome the options are ranked by."""
        return self.situation.outcomes[self.rank_index]

    @property
    def rank_index(self) -> int:
        return self.situation.rank_by if self.rank is None else self.rank

    @property
    def headline(self) -> str:
        """The outcome the options are ranked by (``--rank-by``; the situation's ``rank_by``)."""
        return self.ranked_by

    @property
    def acceptance(self) -> float:
        return self.accepted / self.tried if self.tried else 0.0

    @property
    def too_few(self) -> bool:
        """Too few deals to rank: fewer than 2 accepted, or an undefined estimate."""
        if self.accepted < MIN_TO_RANK:
            return True
        values = [o.outcomes[self.headline][0] for o in self.options] + [
            o.diff_se for o in self.options if o.action != self.best
        ]
        return not all(math.isfinite(value) for value in values)

    def ranked(self) -> list[Option]:
        """The options from best to worst by the outcome ranked by."""
        from analyzer.strategy.advice import ranked

        return ranked(self.options, self.situation, self.rank_index)

    # ------------------------------------------------------------------ assumptions

    def _table(self) -> Table:
        if self.table_played is not None:
            return self.table_played
        from analyzer.run.params import Table

        return Table(
            self.players, tuple(self.spec.default_rules()), self.spec.default_policy(self.players), None, "default"
        )

    def rules_object(self) -> dict:
        """The rules played, each by name (a choice by its name)."""
        from analyzer.present.views import rules_json

        return rules_json(self.spec, self._table().rules)

    def rules_text(self) -> str:
        """The rules as ``name=value`` words; "standard rules" when they are the game's defaults."""
        changed = _changed_rules(self.spec, self._table().rules)
        return "standard rules" if not changed else "rules " + ", ".join(changed) + " (the others standard)"

    def policy_object(self) -> list[dict]:
        """Every seat's policy: ``seat``, ``policy`` (name -> value, a choice by its name),
        ``text`` (name=value words), ``default`` (the game's default policy for that seat)
        and ``advised`` (the seat advised: its own later decisions follow it)."""
        return [
            {"seat": seat, "policy": values, "text": text, "default": default, "advised": seat == self.position}
            for seat, (values, text, default) in enumerate(_seat_policies(self.spec, self._table()))
        ]

    def field_text(self) -> str:
        """What the other seats (the field) were assumed to play, in words."""
        return field_words(self.spec, self._table(), self.position)

    def assumed(self) -> dict[str, str]:
        """Each context key left out with what was assumed in its place."""
        return dict(self.situation.assumed)

    def infer_text(self) -> str:
        """How the history given was read, in words (with the switch to seen, when made)."""
        if self.switched is not None:
            tried, accepted = self.switched
            return (
                f"read as seen: under the field's policy {accepted:,} of {tried:,} deals tried reproduced "
                "the history given (impossible or too rare to advise on), so the actions given are played as "
                "given and the hidden cards dealt among the deals consistent with what was visible "
                "(--infer policy insists on the policy)"
            )
        if self.situation.infer == "seen":
            return "read as seen: the actions given are played as given (--infer seen)"
        return "read under the field's policy: deals are kept where the other seats' policies reproduce it"

    def notes(self) -> list[str]:
        """The closing notes: the cap on deals tried came first, or the target error was missed."""
        found: list[str] = []
        if self.interrupted:
            return found
        if self.stop in ("cap", "none") and self.accepted < self.asked:
            from analyzer.strategy.advice import NONE_ACCEPTED_AFTER, TRIES_PER_DEAL

            why = (
                f"no deal was accepted in {NONE_ACCEPTED_AFTER:,} tried"
                if self.stop == "none"
                else f"the cap is {TRIES_PER_DEAL:,} deals tried per deal asked, at least {NONE_ACCEPTED_AFTER:,}"
            )
            found.append(
                f"note: the cap on deals tried came first: {_deals(self.accepted)} accepted of {self.asked:,} asked, "
                f"after {self.tried:,} tried (acceptance {_percent(self.acceptance)}; {why}): this history is that "
                "rare at this table"
                + (
                    " under the field's policy (--infer seen reads it as seen)"
                    if self.situation.infer == "policy"
                    else ""
                )
            )
        if self.target_se is not None and self.target_reached() is False:
            largest = self._largest_diff_se()
            shown = "undefined" if largest is None else f"{largest:.2g}"
            found.append(
                f"note: the cap came first: the largest standard error of a difference is {shown}, above "
                f"--target-se {self.target_se:g}, after {self.accepted:,} deals; raise --hands to go further"
            )
        return found

    def _largest_diff_se(self) -> float | None:
        from analyzer.strategy.advice import largest_diff_se

        largest = largest_diff_se(self.options, self.best)
        return largest if math.isfinite(largest) and self.accepted >= MIN_TO_RANK else None

    def target_reached(self) -> bool | None:
        """Whether every difference reached ``target_se`` (None without a target)."""
        if self.target_se is None:
            return None
        largest = self._largest_diff_se()
        return largest is not None and largest < self.target_se

    # ------------------------------------------------------------------ outputs

    def verdict(self) -> str:
        """One line: against which field, the best action, the others' values and by how
        much it is better, a tie, or too few deals to rank."""
        against = f"against {self.field_text()}: "
        if self.too_few:
            return (
                f"{against}too few deals to rank ({self.accepted:,} accepted; a verdict needs at least "
                f"{MIN_TO_RANK} and a standard error for every difference)."
            )
        ranked = self.ranked()
        best = ranked[0]
        name = self.headline
        if len(ranked) == 1:
            return f"{against}{best.action}: the only action allowed ({name} {best.outcomes[name][0]:.3f})."
        second = ranked[1]
        gap, gap_se = abs(second.diff), second.diff_se
        p = _places(gap_se)
        values = ", ".join(f"{option.action} {option.outcomes[name][0]:.{p}f}" for option in ranked[1:4])
        head = f"{against}{best.action}: {name} {best.outcomes[name][0]:.{p}f}, {values}"
        if gap <= 2 * gap_se:
            return f"{head}; {best.action} and {second.action} tie (they differ by {gap:.{p}f} ± {gap_se:.{p}f})."
        return f"{head}; {best.action} is better by {gap:.{p}f} ± {gap_se:.{p}f}."

    def summary(self) -> dict:
        """The ``--json`` object (undefined numbers are null)."""
        from analyzer.present.text import finite

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
        table = self._table()
        return finite(
            {
                "game": self.spec.name,
                "decision": self.situation.decision,
                "position": self.position,
                "players": self.players,
                "holding": self.holding_text,
                "context": dict(self.situation.described),
                "context_given": dict(self.context),
                "assumed": self.assumed(),
                "infer": self.situation.infer,
                "infer_switched": self.switched is not None,
                "infer_note": "history " + self.infer_text() if self.switched is not None else None,
                "rank_by": self.headline,
                "rank_lower_is_better": self.headline in self.situation.smaller,
                "variant": table.variant or "standard",
                "strategy": table.strategy,
                "rules": self.rules_object(),
                "policy": self.policy_object(),
                "field": self.field_text(),
                "seed": self.seed,
                "deals": self.accepted,
                "asked": self.asked,
                "tried": self.tried,
                "from_store": self.from_store,
                "acceptance": self.acceptance,
                "stopped_by": self.stop,
                "target_se": self.target_se,
                "target_se_reached": self.target_reached(),
                "notes": self.notes(),
                "lower_is_better": self.situation.lower_is_better,
                "options": options,
                "best": None if self.too_few else self.best,
                "verdict": self.verdict(),
                "partial": self.interrupted,
            }
        )

    def heading(self) -> list[str]:
        """The lines above the table: the question, and every assumption behind the answer."""
        given = ", ".join(f"{key}={_escaped(value)}" for key, value in self.context.items()) or "none given"
        assumed = "; ".join(f"{key}: {what}" for key, what in self.situation.assumed.items())
        table = self._table()
        lines = [
            f"{self.spec.title}: advice for seat {self.position} of {self.players} holding "
            f"{_escaped(self.holding_text)} ({self.situation.decision})",
            f"  rules    {'; '.join(_rule_words(self.spec, table.rules))}"
            + (f" (variant {table.variant})" if table.variant else ""),
            f"  field    {self.field_text()}",
            f"  context  {given}" + (f"; assumed where left out: {assumed}" if assumed else ""),
            f"  history  {self.infer_text()}",
            f"  ranked   by {self.headline}"
            + (" (smaller is better)" if self.headline in self.situation.smaller else " (larger is better)"),
        ]
        return lines

    def text(self) -> str:
        lines = self.heading() + [
            f"{_deals(self.accepted)} accepted of {self.tried:,} tried (acceptance {_percent(self.acceptance)}), "
            f"seed {self.seed}, every action on the same deals"
            + (f"; {self.from_store:,} of the deals tried read from the store" if self.from_store else "")
            + (" (interrupted: a partial result)" if self.interrupted else ""),
            "",
        ]
        names = [self.headline] + [name for name in self.situation.outcomes if name != self.headline]

        header = ["action", f"{names[0]} [95% interval]", "vs best ± se"] + names[1:]
        rows = []
        for option in self.ranked():
            mean, se = option.outcomes[names[0]]
            p, q = _places(se), _places(option.diff_se)
            diff = "best" if option.action == self.best else f"{option.diff:+.{q}f} ± {option.diff_se:.{q}f}"
            interval = f"[{mean - Z95 * se:.{p}f}, {mean + Z95 * se:.{p}f}]" if math.isfinite(se) else "(no interval)"
            if option.action != self.best and not math.isfinite(option.diff_se):
                diff = f"{option.diff:+.{q}f} ± –"
            rows.append(
                [option.action, f"{mean:.{p}f} {interval}", diff]
                + [_with_se(*option.outcomes[name]) for name in names[1:]]
            )
        widths = [max(len(str(row[k])) for row in [header] + rows) for k in range(len(header))]
        for row in [header] + rows:
            lines.append("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())
        lines += ["", self.verdict()] + self.notes()
        return "\n".join(lines)

    def table(self):
        """One row per candidate and outcome: ``action``, ``outcome``, ``mean``, ``se``,
        ``ci_low``, ``ci_high``, and for the outcome ranked by ``diff`` and ``diff_se`` to the best."""
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

    def csv_table(self):
        """:meth:`table` with the question and its assumptions in leading columns (the same
        on every row, so any reader of CSV keeps them): game, players, position, holding,
        rules, field, context, assumed, infer, rank_by."""
        frame = self.table()
        leading = {
            "game": self.spec.name,
            "players": self.players,
            "position": self.position,
            "holding": self.holding_text,
            "rules": "; ".join(_rule_words(self.spec, self._table().rules)),
            "field": self.field_text(),
            "context": "; ".join(f"{key}={value}" for key, value in self.situation.described.items()),
            "assumed": "; ".join(f"{key}: {what}" for key, what in self.situation.assumed.items()),
            "infer": self.situation.infer,
            "rank_by": self.headline,
        }
        for k, (name, value) in enumerate(leading.items()):
            frame.insert(k, name, value)
        return frame

    def plot(self, ax=None):
        """The outcome ranked by of every candidate with its 95% interval, the best in green;
        the title names the question, the rules and the field."""
        from analyzer.present.charts import advice_chart, shown_in_jupyter

        figure = advice_chart(
            [option.action for option in self.options],
            [option.outcomes[self.headline][0] for option in self.options],
            [Z95 * option.outcomes[self.headline][1] for option in self.options],
            self.best,
            self.headline.replace("_", " "),
            f"{self.spec.title}, seat {self.position} of {self.players} holding {self.holding_text}: "
            f"{self.accepted:,} deals, 95% intervals; {self.rules_text()}; against {self.field_text()}",
            ax,
        )
        return shown_in_jupyter(figure, ax)

    def file_stem(self) -> str:
        """The name of this answer's files: ``advice-GAME-seatNofP-HOLDING`` (seat N at a
        table of P), and a short digest of the rest of the question (context, rules,
        policy, how it was read and ranked) when any of it was given, so a second answer
        does not overwrite the first."""
        import hashlib
        import re

        holding = re.sub(r"[^A-Za-z0-9]+", "-", self.holding_text).strip("-") or "none"
        stem = f"advice-{self.spec.name}-seat{self.position}of{self.players}-{holding}"
        table = self._table()
        rest = {
            "context": dict(self.context),
            "rules": _changed_rules(self.spec, table.rules),
            "policy": [text for _, text, default in _seat_policies(self.spec, table) if not default],
            "infer": self.situation.infer,
            "rank": self.headline if self.rank is not None else None,
        }
        plain = not rest["context"] and not rest["rules"] and not rest["policy"] and rest["rank"] is None
        if plain and self.situation.infer == "policy":
            return stem
        digest = hashlib.sha256(json.dumps(rest, sort_keys=True).encode()).hexdigest()[:8]
        return f"{stem}-{digest}"

    def write(self, out) -> list[Path]:
        """Write ``<stem>.csv``, ``<stem>.json`` and ``<stem>.png`` (:meth:`file_stem`) into the folder ``out``."""

        def write(folder: Path):
            from analyzer.present.files import png_bytes, write_files

            stem = self.file_stem()
            return write_files(
                {
                    folder / f"{stem}.csv": self.csv_table().to_csv(index=False),
                    folder / f"{stem}.json": json.dumps(self.summary(), indent=2, allow_nan=False) + "\n",
                    folder / f"{stem}.png": png_bytes(self.plot()),
                }
            )

        return _written(self, out, write)


MIN_TO_RANK = 2  # accepted deals a verdict needs (a standard error needs two)


def _deals(count: int) -> str:
    return f"{count:,} deal{'s' if count != 1 else ''}"


def _percent(share: float) -> str:
    """A share as a percentage that shows a small one's digits (0.00005%, 37.9%)."""
    if share == 0 or share >= 0.001:
        return f"{share:.1%}"
    return f"{100 * share:.2g}%"


def _escaped(text: str) -> str:
    """``text`` with control characters written as escapes (a holding echoed back)."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in str(text))


def _rule_words(spec: GameSpec, rules) -> list[str]:
    return [f"{f.key}={f.value_text(code)}" for f, code in zip(spec.rules, rules)] or ["none"]


def _changed_rules(spec: GameSpec, rules) -> list[str]:
    default = spec.default_rules()
    return [f"{f.key}={f.value_text(code)}" for f, code, d in zip(spec.rules, rules, default) if int(code) != int(d)]


def _seat_policies(spec: GameSpec, table: Table) -> list[tuple[dict, str, bool]]:
    """Per seat: its policy (name -> JSON value), as ``name=value`` words, and whether it
    is the game's default policy for that seat."""
    import numpy as np

    default = spec.default_policy(table.players)
    found = []
    for seat, row in enumerate(np.asarray(table.policy)):
        values = {f.key: f.value_json(v) for f, v in zip(spec.policy_fields, row)}
        text = ", ".join(f"{f.key}={f.value_text(v)}" for f, v in zip(spec.policy_fields, row))
        found.append((values, text, bool(np.array_equal(row, default[seat]))))
    return found


def field_words(spec: GameSpec, table: Table, position: int) -> str:
    """The other seats' policies in words: "a field playing the default policy
    (threshold=7, informed=1)", or seat by seat where they differ."""
    seats = [(seat, text, default) for seat, (_, text, default) in enumerate(_seat_policies(spec, table))]
    others = [item for item in seats if item[0] != position]
    if not others:
        return "no other seat"

    def words(text: str, default: bool) -> str:
        if not text:
            return "the game's only policy"
        return f"the default policy ({text})" if default else f"a policy other than the default ({text})"

    if len({(text, default) for _, text, default in others}) == 1:
        _, text, default = others[0]
        return f"a field playing {words(text, default)}"
    return "a field of " + "; ".join(f"seat {seat} playing {words(text, default)}" for seat, text, default in others)


def _places(error: float) -> int:
    """Decimals that show two significant digits of a standard error (0 to 4; 3 for none)."""
    if not error > 0 or not math.isfinite(error):
        return 3
    return max(0, min(4, 1 - math.floor(math.log10(error))))


def _with_se(mean: float, se: float) -> str:
    places = _places(se)
    return f"{mean:.{places}f} ± {se:.{places}f}" if math.isfinite(se) else f"{mean:.{places}f} ± –"


def rank_of(found: Situation, rank_by: str | None) -> int | None:
    """The index of outcome ``rank_by`` of the situation (None: its ``rank_by``); one
    sentence naming the outcomes otherwise."""
    if rank_by is None:
        return None
    if not isinstance(rank_by, str) or rank_by not in found.outcomes:
        raise UserError(
            f"--rank-by takes an outcome of this decision, one of {', '.join(found.outcomes)}; not {rank_by!r}."
        )
    return found.outcomes.index(rank_by)


@dataclass(frozen=True)
class AdvicePlan(TablePlan):
    """A checked ``advise``: the table, the situation, the deals wanted.  ``infer`` is
    how the history was asked to be read (None: under the field's policy, switching to
    seen when that is too rare; ``seen_situation`` is the situation read as seen, None
    where it is the same); ``rank_by`` the outcome asked to rank by (None: the situation's)."""

    situation: Situation
    position: int
    holding: tuple[int, ...]
    seen: Mapping[str, str]  # the context given
    infer: str | None = None
    rank_by: str | None = None
    seen_situation: Situation | None = None

    def result_of(self, found: AdviceResult) -> AdviceResult:
        """The result of a run of this plan (a partial one from an interrupt is already one)."""
        return found

    def run(self, progress: bool | None = None, tally: Tally | None = None) -> AdviceResult:
        """Play it (``progress``: the bar on a terminal or in Jupyter by default, False never)."""
        from analyzer.strategy.advice import AdviceRun, estimates, run_advice
        from sims.core.advice import ACCEPTED, TRIED

        start = time.perf_counter()
        playing: list[Situation] = [self.situation]  # the reading being played
        switched: list[tuple[int, int]] = []  # (tried, accepted) under the policy, once switched to seen
        progress_of = AdviceRun([])

        def result(flat: list[int], interrupted: bool = False) -> AdviceResult:
            found = playing[-1]
            rank = rank_of(found, self.rank_by)
            options, best = estimates(flat, found, rank)
            return AdviceResult(
                self.spec,
                found,
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
                table_played=self.table,
                rank=rank,
                asked=self.count,
                target_se=self.target_se,
                from_store=min(progress_of.from_store, flat[TRIED]),
                stop=progress_of.stop,
                switched=switched[0] if switched else None,
            )

        def play(found: Situation, give_up: bool):
            playing.append(found)
            return run_advice(
                self.spec,
                self.table,
                found,
                self.seed,
                self.count,
                self.target_se,
                context,
                lambda flat: result(flat, interrupted=True),
                give_up_when_rare=give_up,
                rank=rank_of(found, self.rank_by),
                into=progress_of,
            )

        with self.context(progress, tally=tally) as context:
            done = play(self.situation, self.infer is None and self.seen_situation is not None)
            if done.stop == "rare" and self.seen_situation is not None:
                switched.append((done.flat[TRIED], done.flat[ACCEPTED]))
                done = play(self.seen_situation, False)
        flat = done.flat
        if flat[ACCEPTED] == 0:
            raise UserError(
                f"no deal of {flat[TRIED]:,} tried matched this context: it is impossible, or too rare "
                f"to advise on at this table" + (" even read as seen." if switched else ".")
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
        raise UserError(f"--holding: {_escaped(str(problem)).rstrip('.')}.") from None


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
    infer: str | None = None,
    rank_by: str | None = None,
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
    count = DEFAULT_DEALS if hands is None else count_of(hands, "hands")
    most = positive(target_se, "target_se", "--target-se")
    seed_number = seed_of(seed)
    kept = where(store, cluster, threads)
    table = table_of(spec, players, variant, rules, strategy, policy, seats)
    seat = whole(position, "position", "--position")
    if infer is not None and infer not in INFER:
        raise UserError(f"--infer takes {' or '.join(INFER)}, not {_escaped(repr(infer))}.")
    rules_played = spec.rules_type(*table.rules)
    try:
        found = advice.situation(spec, rules_played, table.players, seat, cards, seen, infer or "policy")
    except ValueError as problem:
        raise UserError(str(problem)) from None
    rank_of(found, rank_by)
    seen_found = None
    if infer is None:  # read under the policy, as seen where that is too rare: only where seen differs
        try:
            seen_found = advice.situation(spec, rules_played, table.players, seat, cards, seen, "seen")
        except ValueError:
            seen_found = None
        if seen_found is not None and _same_play(found, seen_found):
            seen_found = None
        if seen_found is not None:
            rank_of(seen_found, rank_by)
    check_out(out)
    return AdvicePlan(
        *kept, spec, table, ADVICE, seed_number, count, most, found, seat, cards, seen, infer, rank_by, seen_found
    )


def _same_play(one: Situation, other: Situation) -> bool:
    """Whether two readings of a history play the same deals (the same kernel input)."""
    import numpy as np

    return (
        one.candidates == other.candidates
        and one.outcomes == other.outcomes
        and np.array_equal(np.asarray(one.known).ravel(), np.asarray(other.known).ravel())
    )


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
    infer: str | None = None,
    rank_by: str | None = None,
) -> AdviceResult:
    """Advice on one seat's next decision (``analyze advise``): every legal action played
    on the same deals of the unseen cards, conditioned on what the seat has seen.

    game: the game's name, e.g. "chase-ace".
    position: the seat to advise (0 the dealer's left, the dealer the last seat).
    holding: its cards, "6h" or "Ac 5d 10h".
    context: what it has seen, a dict such as gave="9c" (``ca.rules(game)`` lists the keys).
    hands: deals to accept per action (default 100,000).{table}
    target_se: stop once every difference to the best action has a standard error below this.{run}
    out: a folder to write the answer's .csv, .json and .png into, named after the question
        (advice-GAME-seatNofP-HOLDING, e.g. advice-chase-ace-seat2of6-5h.csv).
    infer: how the history in ``context`` is read: "policy" (the deals where the other seats'
        policies reproduce it), "seen" (the actions given played as given); None: "policy",
        switching to "seen" (and saying so) where the history is impossible or too rare under it.
    rank_by: the outcome to rank the actions by (default: the decision's, e.g. the chance of
        winning the game where the context gives the score).
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
        infer,
        rank_by,
    )
    return play(plan, out)
