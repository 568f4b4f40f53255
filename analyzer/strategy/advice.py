"""Advice as a paired comparison: every candidate action of one decision played on the
same deals (``sims.advice``), in batches through a run context until enough deals are
accepted, the differences are precise enough, or the cap on deals tried is reached; and
the estimates of each candidate and of its paired difference to the best one.

Batch sizes follow from the counts alone (never from timing), so the same command gives
the same numbers on any machine, thread count or cluster.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Mapping

from sims.spec import Mode

if TYPE_CHECKING:
    from analyzer.run.context import RunContext
    from analyzer.run.params import Table
    from sims.core.advice import Situation
    from sims.spec import GameSpec, Mode

FIRST_TRIES = 20_000  # deals tried in the first batch (at most; fewer when fewer are asked)
TRIES_PER_DEAL = 2_000  # the cap: deals tried per deal asked for
NONE_ACCEPTED_AFTER = 2_000_000  # tried deals after which a context that accepted none is given up
RARE_ACCEPTANCE = 0.001  # below one deal in a thousand, a history is too rare to read under the policy
LEAST_FOR_TARGET = 1_000  # accepted deals before --target-se may stop a run


@dataclass(frozen=True)
class Option:
    """One candidate's estimates: ``mean``, ``se`` and the 95% interval of each outcome
    (``outcomes``: name -> (mean, se)), and the paired difference of the outcome ranked by
    to the best candidate's (``diff``, ``diff_se``)."""

    action: str
    outcomes: Mapping[str, tuple[float, float]]
    diff: float
    diff_se: float


def estimates(flat: list[int], found: Situation, rank: int | None = None) -> tuple[list[Option], str]:
    """The options and the best action from the flat sums of an advice run, ranked by
    outcome ``rank`` (the situation's ``rank_by`` unless given): ``diff`` and ``diff_se``
    are that outcome's paired differences to the best candidate."""
    from sims.core.advice import ACCEPTED, FIRST_SUM, cross_start

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
    r = found.rank_by if rank is None else rank
    sign = 1 if lower_is_better(found, r) else -1
    best = min(range(k_count), key=lambda c: (sign * means[c][r], c))
    cross = cross_start(k_count, o_count, r)
    options = []
    for c in range(k_count):
        diff = means[c][r] - means[best][r]
        if accepted > 1 and c != best:
            square = flat[cross + c * k_count + c] + flat[cross + best * k_count + best]
            square -= 2 * flat[cross + c * k_count + best]
            raw_diff = diff * found.scale[r]
            variance = max(0.0, square / accepted - raw_diff * raw_diff) * accepted / (accepted - 1)
            diff_se = math.sqrt(variance / accepted) / found.scale[r]
        else:
            diff_se = 0.0 if c == best else math.nan
        outcomes = {name: (means[c][o], ses[c][o]) for o, name in enumerate(found.outcomes)}
        options.append(Option(found.candidates[c], outcomes, diff, diff_se))
    return options, found.candidates[best]


def lower_is_better(found: Situation, rank: int) -> bool:
    """Whether a player wants outcome ``rank`` small (the situation's ``smaller``)."""
    return found.outcomes[rank] in found.smaller


def ranked(options: list[Option], found: Situation, rank: int | None = None) -> list[Option]:
    """The options from best to worst by outcome ``rank`` (the situation's ``rank_by``)."""
    r = found.rank_by if rank is None else rank
    sign = 1 if lower_is_better(found, r) else -1
    return sorted(options, key=lambda option: sign * option.outcomes[found.outcomes[r]][0])


def _mean_se(total: int, squares: int, count: int) -> tuple[float, float]:
    if count == 0:
        return math.nan, math.nan
    mean = total / count
    if count < 2:
        return mean, math.nan
    variance = max(0.0, squares / count - mean * mean) * count / (count - 1)
    return mean, math.sqrt(variance / count)


def largest_diff_se(options: list[Option], best: str) -> float:
    return max((option.diff_se for option in options if option.action != best), default=0.0)


def next_batch(tried: int, accepted: int, wanted: int, cap: int) -> int:
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


def largest_batch(found: Situation) -> int:
    """The most deals one batch may play: ``2**62 // largest**2`` (``Situation.largest``
    bounds one deal's outcome), so that a batch's int64 sums of squares and cross
    products cannot overflow, whatever the stake; batches then add as Python integers."""
    return max(1, (1 << 62) // max(1, int(found.largest)) ** 2)


def cap_of(count: int) -> int:
    """The cap on deals tried for ``count`` deals asked for."""
    return max(count * TRIES_PER_DEAL, NONE_ACCEPTED_AFTER)


def too_rare(tried: int, accepted: int) -> bool:
    """Whether the probe (the first :data:`FIRST_TRIES` deals, whatever the count asked
    for) says the history is impossible or too rare to read under the field's policy:
    nothing accepted, or fewer than :data:`RARE_ACCEPTANCE` of the deals tried.  From
    the counts of a fixed probe alone, so the same question is read the same way at any
    ``--hands`` (an acceptance at which the cap on deals tried, at least 2,000 tries a
    deal, would come first is below this too)."""
    return accepted == 0 or accepted < RARE_ACCEPTANCE * tried


def _add(flat: list[int], part: list[int]) -> None:
    for k, value in enumerate(part):
        flat[k] += value


def _less(flat: list[int], part: list[int]) -> list[int]:
    return [value - other for value, other in zip(flat, part)]


@dataclass
class AdviceRun:
    """What :func:`run_advice` played: the flat sums, the deals tried that were read
    from the store (not played), why it stopped (``stop``: ``"count"`` the deals asked
    for were accepted, ``"target"`` every difference reached the target error, ``"cap"``
    the cap on deals tried came first, ``"none"`` no deal was accepted in
    :data:`NONE_ACCEPTED_AFTER` tries, ``"rare"`` the acceptance said the history is too
    rare (only when asked to give up early, ``give_up_when_rare``))."""

    flat: list[int]
    from_store: int = 0
    stop: str = "count"
    cap: int = 0


def play_advice(
    spec: GameSpec,
    table: Table,
    found: Situation,
    seed: int,
    count: int,
    target_se: float | None,
    context: RunContext,
    partial: Callable[[list[int]], object],
) -> list[int]:
    """The flat sums (``sims.core.advice``) of deals played in ``context`` until ``count``
    are accepted, or every difference to the best candidate has a standard error below
    ``target_se``, or the cap on deals tried is reached (see :func:`run_advice`)."""
    return run_advice(spec, table, found, seed, count, target_se, context, partial).flat


def run_advice(
    spec: GameSpec,
    table: Table,
    found: Situation,
    seed: int,
    count: int,
    target_se: float | None,
    context: RunContext,
    partial: Callable[[list[int]], object],
    give_up_when_rare: bool = False,
    rank: int | None = None,
    into: AdviceRun | None = None,
) -> AdviceRun:
    """Deals played in ``context`` until ``count`` are accepted, or every difference to
    the best candidate (by outcome ``rank``) has a standard error below ``target_se``,
    or the cap on deals tried is reached; with ``give_up_when_rare``, the first
    :data:`FIRST_TRIES` deals are a probe, played whatever the count, and the run stops
    there when :func:`too_rare` says so.  An interrupt raises ``Interrupted`` carrying
    ``partial(flat)`` of the deals finished.

    Exactly ``count`` deals are accepted when the count is what stops the run: the last
    batch usually overshoots, so its range of deals is replayed in halves (the accepted
    deals of a range add up over its halves) down to the deal that was the ``count``-th
    accepted, and the sums are those of the deals up to it (from counts alone,
    deterministic).  No batch plays more than :func:`largest_batch` deals.  ``into``, when
    given, is the :class:`AdviceRun` filled in as the run goes (what an interrupt's
    ``partial`` may read: the deals read from the store so far)."""
    from analyzer.run import interrupts
    from analyzer.run.execution import play_jobs
    from analyzer.run.progress import ProgressBar
    from sims.advice import advice_rules, flat_sums, spec_for_rules
    from sims.core.advice import ACCEPTED, TRIED
    from sims.engine import Stopped

    rules_ext = advice_rules(spec, table.rules, found)
    advice_spec = spec_for_rules(spec, rules_ext, table.players)
    flat = [0] * found.width
    cap = cap_of(count)
    most = largest_batch(found)
    bar = ProgressBar(count, "deals", context.progress, context.tally)
    done = into if into is not None else AdviceRun(flat)
    done.flat, done.cap, done.from_store, done.stop = flat, cap, 0, "count"
    stored_now = [0]

    def stored(items: int) -> None:
        stored_now[0] += items

    def played(first: int, size: int, base: list[int], replay: bool = False) -> list[int]:
        """The flat sums of deals ``first .. first + size - 1`` (``base``: the sums an
        interrupt's partial result is made of, with what a stopped batch finished; a
        stopped ``replay`` of deals already in ``base`` adds nothing)."""
        stored_now[0] = 0
        job = [(rules_ext, table.policy, first, size)]
        try:
            sums = play_jobs(
                advice_spec, job, table.players, Mode.ADVICE, seed, context, stop=interrupts.requested, stored=stored
            )[0]
        except Stopped as stopped:
            finished = list(base)
            if stopped.played[0] and not replay:
                _add(finished, flat_sums(stopped.sums[0], found))
                done.from_store += min(stopped.from_store[0], stopped.played[0])
            raise interrupts.stopping(partial(finished)) from None
        if not replay:  # a replay reads back what the batch just kept
            done.from_store += stored_now[0]
        return flat_sums(sums, found)

    try:
        with interrupts.deferred():
            while flat[ACCEPTED] < count and flat[TRIED] < cap:
                interrupts.check(partial(flat))
                probing = give_up_when_rare and flat[TRIED] < FIRST_TRIES
                size = FIRST_TRIES - flat[TRIED] if probing else next_batch(flat[TRIED], flat[ACCEPTED], count, cap)
                size = min(size, most)
                before = list(flat)
                part = played(flat[TRIED], size, flat)
                _add(flat, part)
                if probing and flat[TRIED] == FIRST_TRIES and too_rare(flat[TRIED], flat[ACCEPTED]):
                    done.stop = "rare"  # decided on the probe alone, before any trim to the count
                    break
                if flat[ACCEPTED] > count:  # the last batch overshot: keep the deals up to the count-th accepted
                    flat[:] = _exact(played, before, part, flat[TRIED] - size, size, count)
                bar.add(flat[ACCEPTED] - before[ACCEPTED])
                if flat[ACCEPTED] >= count:
                    done.stop = "count"
                    break
                if flat[ACCEPTED] == 0 and flat[TRIED] >= NONE_ACCEPTED_AFTER:
                    done.stop = "none"
                    break
                if target_se is not None and flat[ACCEPTED] >= LEAST_FOR_TARGET:
                    options, best = estimates(flat, found, rank)
                    if largest_diff_se(options, best) < target_se:
                        done.stop = "target"
                        break
            else:
                done.stop = "count" if flat[ACCEPTED] >= count else "cap"
    finally:
        bar.close()
    done.from_store = min(done.from_store, flat[TRIED])
    return done


def _exact(played, before: list[int], part: list[int], first: int, size: int, count: int) -> list[int]:
    """The sums of the deals before ``first`` (``before``) and of deals ``first ..`` up
    to the one accepted as the ``count``-th, found by playing halves of the range
    ``first .. first + size - 1`` whose sums are ``part``: each step plays the first half;
    the deal is in it when it accepted enough, else in the second half, whose sums are
    ``part`` less the first half's.  About ``size`` deals are replayed in all (the store
    keeps them).  An interrupt carries the whole batch as the partial result."""
    from sims.core.advice import ACCEPTED

    base = list(before)
    need = count - base[ACCEPTED]
    whole = list(before)
    _add(whole, part)
    while size > 1:
        half = size // 2
        left = played(first, half, whole, replay=True)
        if left[ACCEPTED] >= need:
            part, size = left, half
        else:
            _add(base, left)
            need -= left[ACCEPTED]
            part, first, size = _less(part, left), first + half, size - half
    _add(base, part)
    return base
