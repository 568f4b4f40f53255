"""The answer of ``ca.advise`` (``analyze advise``): every candidate's estimates, the
verdict, and the question's assumptions (rules, the field's policies, the context as
read), as text, JSON, CSV and a chart."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

from analyzer.api.results import _Result, _written
from analyzer.present.advice_words import (
    _changed_rules,
    _deals,
    _percent,
    _places,
    _seat_policies,
    field_words,
)

if TYPE_CHECKING:
    from analyzer.run.params import Table
    from analyzer.strategy.advice import Option
    from sims.core.advice import Situation
    from sims.spec import GameSpec

MIN_TO_RANK = 30  # accepted deals a verdict needs: fewer give no standard error to trust (two equal deals give 0)


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
        from sims.situations import cards_text

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
        """Too few deals to rank: fewer than :data:`MIN_TO_RANK` accepted, or an undefined estimate."""
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
        """Whether every difference reached ``target_se`` (None without a target, or for
        an interrupted run, which never stopped on it)."""
        if self.target_se is None or self.interrupted:
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
        from analyzer.present.advice_views import advice_summary

        return advice_summary(self)

    def heading(self) -> list[str]:
        """The lines above the table: the question, and every assumption behind the answer."""
        from analyzer.present.advice_views import advice_heading

        return advice_heading(self)

    def text(self) -> str:
        from analyzer.present.advice_views import advice_text

        return advice_text(self)

    def table(self):
        """One row per candidate and outcome: ``action``, ``outcome``, ``mean``, ``se``,
        ``ci_low``, ``ci_high``, and for the outcome ranked by ``diff`` and ``diff_se`` to the best."""
        from analyzer.present.advice_views import advice_table

        return advice_table(self)

    def csv_table(self):
        """:meth:`table` with the question and its assumptions in leading columns (the same
        on every row, so any reader of CSV keeps them)."""
        from analyzer.present.advice_views import advice_csv_table

        return advice_csv_table(self)

    def plot(self, ax=None):
        """The outcome ranked by of every candidate with its 95% interval, the best in green."""
        from analyzer.present.advice_views import advice_plot

        return advice_plot(self, ax)

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
