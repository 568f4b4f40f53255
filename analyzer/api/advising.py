"""``ca.advise``: every candidate action of one seat's next decision, played on the same
deals of the unseen cards (``analyze advise``).

The game decides which decision the position, holding and context describe and lists
its candidates (``sims.situations.situation``); the deals are played in batches through the
run context (threads, store, cluster, interrupts) until ``hands`` deals are accepted,
or every paired difference to the best candidate has a standard error below
``target_se``, or the cap on deals tried is reached.  Batch sizes follow from the counts
alone (never from timing), so the same command gives the same numbers anywhere.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from analyzer.api.advice_result import MIN_TO_RANK, AdviceResult  # noqa: F401 - the API names them here
from analyzer.api.checks import UserError, check_out, count_of, game_spec, positive, seed_of, whole
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
from analyzer.present.advice_words import _escaped
from analyzer.run.context import Tally
from sims.spec import Mode

if TYPE_CHECKING:
    from sims.core.advice import Situation

DEFAULT_DEALS = 100_000  # accepted deals per candidate when --hands is not given


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
    from sims.situations import parse_holding

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
    *,
    infer: str | None = None,
    rank_by: str | None = None,
    table: TableArgs = TableArgs(),
    run: RunArgs = RunArgs(),
    out: Folder = None,
) -> AdvicePlan:
    """Check the arguments of :func:`advise` in the command line's order (``run.hands``:
    the deals to accept per action; ``run.games`` is not taken)."""
    from sims import situations

    spec = game_spec(game)
    refuse_unused(run, ("games",), "advise", "it plays deals, counted by hands")
    if not spec.advice:
        raise UserError(f"{spec.title} has no advice yet.")
    if position is None:
        raise UserError("--position is needed: the seat to advise (0 is the dealer's left, the dealer the last).")
    if holding is None:
        raise UserError('--holding is needed: the cards the seat holds, like "6h" or "Ac 5d 10h".')
    cards = holding_of(spec, holding)
    seen = context_of(context)
    count = DEFAULT_DEALS if run.hands is None else count_of(run.hands, "hands")
    most = positive(run.target_se, "target_se", "--target-se")
    seed_number = seed_of(run.seed)
    kept = where(run)
    played = table.checked(spec)
    seat = whole(position, "position", "--position")
    from sims.core.advice import INFER

    if infer is not None and infer not in INFER:
        raise UserError(f"--infer takes {' or '.join(INFER)}, not {_escaped(repr(infer))}.")
    rules_played = spec.rules_type(*played.rules)
    try:
        found = situations.situation(spec, rules_played, played.players, seat, cards, seen, infer or "policy")
    except ValueError as problem:
        raise UserError(str(problem)) from None
    rank_of(found, rank_by)
    seen_found = None
    if infer is None:  # read under the policy, as seen where that is too rare: only where seen differs
        try:
            seen_found = situations.situation(spec, rules_played, played.players, seat, cards, seen, "seen")
        except ValueError:
            seen_found = None
        if seen_found is not None and _same_play(found, seen_found):
            seen_found = None
        if seen_found is not None:
            rank_of(seen_found, rank_by)
    check_out(out)
    return AdvicePlan(
        *kept, spec, played, Mode.ADVICE, seed_number, count, most, found, seat, cards, seen, infer, rank_by, seen_found
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
    tables: Tables | None = None,
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
        infer=infer,
        rank_by=rank_by,
        table=TableArgs(players, variant, rules, strategy, policy, seats, tables),
        run=RunArgs(hands, None, seed, threads, target_se, store, cluster),
        out=out,
    )
    return play(plan, out)
