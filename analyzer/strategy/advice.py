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

from sims.spec import ADVICE

if TYPE_CHECKING:
    from analyzer.run.context import RunContext
    from analyzer.run.params import Table
    from sims.core.advice import Situation
    from sims.spec import GameSpec

FIRST_TRIES = 20_000  # deals tried in the first batch (at most; fewer when fewer are asked)
TRIES_PER_DEAL = 2_000  # the cap: deals tried per deal asked for
NONE_ACCEPTED_AFTER = 2_000_000  # tried deals after which a context that accepted none is given up
LEAST_FOR_TARGET = 1_000  # accepted deals before --target-se may stop a run


@dataclass(frozen=True)
class Option:
    """One candidate's estimates: ``mean``, ``se`` and the 95% interval of each outcome
    (``outcomes``: name -> (mean, se)), and the paired difference of the headline to the
    best candidate's (``diff``, ``diff_se``)."""

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


def _add(flat: list[int], part: list[int]) -> None:
    for k, value in enumerate(part):
        flat[k] += value


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
    ``target_se``, or the cap on deals tried is reached.  An interrupt raises
    ``Interrupted`` carrying ``partial(flat)`` of the deals finished."""
    from analyzer.run import interrupts
    from analyzer.run.execution import play_jobs
    from analyzer.run.progress import ProgressBar
    from sims.advice import advice_rules, flat_sums, spec_for_rules
    from sims.core.advice import ACCEPTED, TRIED
    from sims.engine import Stopped

    rules_ext = advice_rules(spec, table.rules, found)
    advice_spec = spec_for_rules(spec, rules_ext, table.players)
    flat = [0] * found.width
    cap = max(count * TRIES_PER_DEAL, NONE_ACCEPTED_AFTER)
    bar = ProgressBar(count, "deals", context.progress, context.tally)
    try:
        with interrupts.deferred():
            while flat[ACCEPTED] < count and flat[TRIED] < cap:
                interrupts.check(partial(flat))
                size = next_batch(flat[TRIED], flat[ACCEPTED], count, cap)
                before = flat[ACCEPTED]
                job = [(rules_ext, table.policy, flat[TRIED], size)]
                try:
                    sums = play_jobs(advice_spec, job, table.players, ADVICE, seed, context, stop=interrupts.requested)[
                        0
                    ]
                except Stopped as stopped:
                    if stopped.played[0]:
                        _add(flat, flat_sums(stopped.sums[0], found))
                    raise interrupts.stopping(partial(flat)) from None
                _add(flat, flat_sums(sums, found))
                bar.add(flat[ACCEPTED] - before)
                if flat[ACCEPTED] == 0 and flat[TRIED] >= NONE_ACCEPTED_AFTER:
                    break
                if target_se is not None and flat[ACCEPTED] >= LEAST_FOR_TARGET:
                    options, best = estimates(flat, found)
                    if largest_diff_se(options, best) < target_se:
                        break
    finally:
        bar.close()
    return flat
