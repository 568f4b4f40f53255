"""Solving a decision: iterated per-cell best response over strategy tables.

A *profile* gives every seat a table of the decision solved (``[cells, actions]``
probabilities, :mod:`sims.core.table`); it starts as each seat's policy written as a table
(tables given with ``--table`` take their cells).  Each *sweep* plays ``hands`` fresh deals
(sweep ``k``: deals ``k * hands ..`` of the seed) through the game's solve kernel: at every
visit of a seat to a cell the deal is replayed with each legal action, the rest on the same
random numbers, so every deal informs every cell it reaches (:mod:`sims.core.table_nb`).
From the sums every seat's table is replaced by its per-cell best response: in each cell
the action with the best mean outcome, unless the action the table plays now is within two
standard errors of it (a paired difference), in which case the cell keeps its action; a
cell whose best two actions are within two standard errors is marked a tie.  A cell
visited fewer than :data:`LEAST_VISITS` times keeps its action.

The sweeps stop at a fixed point (no cell changes: a pure equilibrium in tables, up to
ties), at a profile seen before (a cycle: its profiles are averaged, fictitious play's
answer, and the mixed table is reported), or after ``max_sweeps``.

Then the profile is measured on fresh deals (``MEASURE_FIRST ..``, the same deals for the
start profile and the solved one): each seat's value (its outcome's mean per deal, from the
hand kernel), and the *exploitability*: the sum over seats of what the per-cell best
response to the profile gains against it, per deal.  The best response is the one the last
sweep found (argmax of the means, no tie rule), so it is chosen on other deals than those it
is scored on and the estimate is unbiased; its standard error comes from
:data:`BATCHES` batches of the measurement (batch means), which keeps the correlation
between seats and between the visits of one deal.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from sims.core.table import TableDecision, solve_stats_width, tables_of, with_tables
from sims.spec import Mode

LEAST_VISITS = 30  # a cell seen less often in a sweep keeps its action
TIE_SE = 2.0  # actions closer than this many standard errors tie
MEASURE_FIRST = 1 << 40  # the measurement's deals start here (no sweep reaches them)
BATCHES = 20  # batches of the measurement, for the exploitability's standard error
MAX_SWEEPS = 12


@dataclass(frozen=True)
class CellVerdict:
    """One cell of a seat's solved table, measured on the fresh deals."""

    cell: int
    action: np.ndarray  # probabilities per action (the solved row)
    margin: float  # the chosen action's advantage over the best other legal action (user units); nan unreached
    margin_se: float
    reach: float  # visits per deal
    visits: int
    tie: bool  # the last sweep found its best two actions within two standard errors
    means: np.ndarray  # mean outcome per action (user units; nan where unreached or illegal)


@dataclass(frozen=True)
class SeatSolved:
    seat: int
    value: float  # the seat's outcome per deal under the solved profile (fresh deals)
    se: float
    start_value: float  # the same under the start profile, on the same deals
    start_se: float
    table: np.ndarray  # [cells, actions]
    cells: tuple[CellVerdict, ...]
    start_table: np.ndarray  # [cells, actions]: the table the seat started from


@dataclass(frozen=True)
class Solved:
    game: str
    decision: TableDecision
    players: int
    rules: tuple
    outcome: str
    lower_is_better: bool
    scale: int
    converged: bool
    cycle: int | None
    sweeps: int
    deals: int  # per sweep
    measured: int  # deals of the final measurement
    seats: tuple[SeatSolved, ...]
    exploitability: float
    exploitability_se: float
    start_exploitability: float
    start_exploitability_se: float
    start_policy: str
    changes: tuple[int, ...]  # cells changed by each sweep
    stopped: str  # "fixed point", "cycle", "max sweeps" or "interrupted"


# ---------------------------------------------------------------- statistics of one cell


def _contrast(stats: np.ndarray, weights: np.ndarray, n_actions: int) -> tuple[float, float]:
    """Mean and standard error over a cell's visits of ``sum_a weights[a] * value_a``
    (paired: every visit recorded every action)."""
    visits = int(stats[0])
    if visits < 2:
        return float("nan"), float("nan")
    sums = stats[1 : 1 + 2 * n_actions : 2].astype(float)
    cross = stats[1 + 2 * n_actions :].reshape(n_actions, n_actions).astype(float)
    mean = float(weights @ sums) / visits
    second = float(weights @ cross @ weights) / visits
    variance = max(second - mean * mean, 0.0) * visits / (visits - 1)
    return mean, float(np.sqrt(variance / visits))


def _means(stats: np.ndarray, n_actions: int) -> np.ndarray:
    visits = int(stats[0])
    if visits == 0:
        return np.full(n_actions, np.nan)
    return stats[1 : 1 + 2 * n_actions : 2].astype(float) / visits


@dataclass(frozen=True)
class _Choice:
    row: np.ndarray  # the new row of the table
    tie: bool
    best: int  # the argmax of the means among legal actions (-1: too few visits)


def best_response(stats: np.ndarray, current: np.ndarray, legal: tuple[int, ...], sign: float) -> _Choice:
    """A cell's best response to the profile (see the module docstring).  ``sign`` is +1
    when a larger outcome is better, -1 when smaller is."""
    n_actions = current.shape[0]
    if int(stats[0]) < LEAST_VISITS or len(legal) < 2:
        return _Choice(current, False, -1)
    means = sign * _means(stats, n_actions)
    ordered = sorted(legal, key=lambda a: -means[a])
    best, second = ordered[0], ordered[1]
    unit = np.eye(n_actions)
    _, se_top = _contrast(stats, unit[best] - unit[second], n_actions)
    tie = bool(means[best] - means[second] <= TIE_SE * se_top)
    gain, se_gain = _contrast(stats, sign * (unit[best] - current), n_actions)
    if gain > TIE_SE * se_gain:
        return _Choice(unit[best].copy(), tie, best)
    return _Choice(current, tie, best)


# ---------------------------------------------------------------- the profile


def _profile_key(profile: dict[int, np.ndarray]) -> bytes:
    return b"".join(np.round(profile[seat], 9).tobytes() for seat in sorted(profile))


def start_profile(spec, table, decision: TableDecision) -> dict[int, np.ndarray]:
    """Each seat's start table: its policy written as a table, with the cells of any table
    it already plays for this decision."""
    from sims.solve import policy_tables

    n_fields = len(spec.policy_fields)
    given = tables_of(table.policy, n_fields, spec.table_decisions())
    rules = spec.rules_type(*table.rules)
    written = policy_tables(spec, rules, table.policy, table.players, decision.name, hand_mode=True)
    profile = {}
    for seat in range(table.players):
        row = written[seat].copy()
        own = given.get(seat, {}).get(decision.name)
        if own is not None:
            kept = own[:, 0] >= 0
            row[kept] = own[kept]
        if (row < 0).any():
            cell = int(np.nonzero(row[:, 0] < 0)[0][0])
            raise ValueError(
                f"{spec.name}'s policy leaves cell {decision.cell_text(cell)} of {decision.name} out of its table."
            )
        profile[seat] = row
    return profile


def policy_with(spec, table, decision: TableDecision, profile: dict[int, np.ndarray]) -> np.ndarray:
    """The table's policy matrix with every seat playing its profile table for ``decision``
    (other decisions' tables kept)."""
    n_fields = len(spec.policy_fields)
    tables = tables_of(table.policy, n_fields, spec.table_decisions())
    for seat, probabilities in profile.items():
        tables.setdefault(seat, {})[decision.name] = probabilities
    return with_tables(table.policy, n_fields, spec.table_decisions(), tables)


# ---------------------------------------------------------------- playing


class _Player:
    """Sweeps and measurements of one solve, through the run context (store, cluster,
    threads, interrupts)."""

    def __init__(self, spec, table, decision_index: int, decision: TableDecision, seed: int, context):
        from sims.solve import solve_rules, spec_for_solve

        self.spec, self.table, self.decision, self.seed, self.context = spec, table, decision, seed, context
        self.rules_ext = solve_rules(spec, spec.rules_type(*table.rules), decision_index)
        self.solve_spec = spec_for_solve(spec, self.rules_ext, table.players)

    def cells(self, policy: np.ndarray, first: int, count: int, batches: int = 1) -> list[np.ndarray]:
        """``[seat, cell, stat]`` sums of deals ``first .. first + count - 1``, cut in ``batches``."""
        from analyzer.run import interrupts
        from analyzer.run.execution import play_jobs
        from sims.solve import cell_sums

        bounds = [first + count * b // batches for b in range(batches + 1)]
        jobs = [(self.rules_ext, policy, lo, hi - lo) for lo, hi in zip(bounds, bounds[1:])]
        sums = play_jobs(
            self.solve_spec, jobs, self.table.players, Mode.SOLVE, self.seed, self.context, stop=interrupts.requested
        )
        return [cell_sums(part, self.decision, self.table.players) for part in sums]

    def values(self, policy: np.ndarray, first: int, count: int, outcome: str) -> list[tuple[float, float]]:
        """Each seat's mean of ``outcome`` per hand and its standard error (hand mode)."""
        from analyzer.run import interrupts
        from analyzer.run.execution import play_jobs
        from analyzer.run.stats import estimates

        outcomes = self.spec.outcomes[Mode.HANDS]
        sums = play_jobs(
            self.spec,
            [(self.table.rules, policy, first, count)],
            self.table.players,
            Mode.HANDS,
            self.seed,
            self.context,
            stop=interrupts.requested,
        )[0]
        found = {(e.seat, e.outcome): e for e in estimates(sums, outcomes, count)}
        if outcome not in outcomes.seat:  # an outcome hand mode does not sum (All-Fours' net points)
            return self.spec.table_module().seat_values(found, self.table.players)
        return [(found[(seat, outcome)].mean, found[(seat, outcome)].se) for seat in range(self.table.players)]


def _gain(batches: list[np.ndarray], profile, response, decision: TableDecision, sign: float, scale: int) -> np.ndarray:
    """Per batch, the response's outcome less the profile's, summed over seats and visits
    (user units, signed so that a gain is positive)."""
    n_actions = decision.n_actions
    totals = []
    for cells in batches:
        total = 0.0
        for seat in range(cells.shape[0]):
            sums = cells[seat, :, 1 : 1 + 2 * n_actions : 2].astype(float)  # [cell, action]
            total += float(np.sum(sums * (response[seat] - profile[seat])))
        totals.append(sign * total / scale)
    return np.asarray(totals)


def solve_tables(spec, table, decision: str | None, hands: int, seed: int, context, max_sweeps: int = MAX_SWEEPS):
    """Solve ``decision`` of ``spec`` at ``table`` (see the module docstring): the
    :class:`Solved` result.  An interrupt raises ``Interrupted`` whose ``partial`` is the
    :class:`Solved` of the sweeps so far."""
    from analyzer.run import interrupts
    from sims.solve import decision_named

    index, found = decision_named(spec, decision)
    module = spec.table_module()
    sign = -1.0 if module.SOLVE_LOWER_IS_BETTER else 1.0
    player = _Player(spec, table, index, found, seed, context)
    start = start_profile(spec, table, found)
    profile = {seat: row.copy() for seat, row in start.items()}
    seen = [_profile_key(profile)]
    history = [profile]
    changes: list[int] = []
    ties: dict[int, np.ndarray] = {}
    first_response: dict[int, np.ndarray] | None = None
    last_response: dict[int, np.ndarray] = profile
    converged, cycle, stopped = False, None, "max sweeps"
    state = {"sweeps": 0}

    def result(measured, **ending) -> Solved:  # the profile, ties and sweeps as they are now
        return _result(
            spec, table, found, module, profile, start, measured, state["sweeps"], hands, changes, ties, **ending
        )

    def partial() -> Solved:
        return result(None, converged=False, cycle=None, stopped="interrupted")

    with interrupts.deferred():
        for _ in range(max_sweeps):
            interrupts.check(partial())
            new, response, ties = _sweep(player, spec, table, found, profile, state, hands, sign, partial)
            if first_response is None:
                first_response = response
            last_response = response
            changes.append(int(sum(np.any(new[s] != profile[s], axis=1).sum() for s in profile)))
            key = _profile_key(new)
            if key == seen[-1]:
                converged, stopped = True, "fixed point"
                break
            if key in seen:
                cycle_profiles = history[seen.index(key) :]
                cycle, stopped = len(cycle_profiles), "cycle"
                profile = {s: np.mean([p[s] for p in cycle_profiles], axis=0) for s in profile}
                _, last_response, ties = _sweep(player, spec, table, found, profile, state, hands, sign, partial)
                break
            profile = new
            seen.append(key)
            history.append(profile)
        try:
            measured = _measure(
                player, spec, table, found, module, start, profile, first_response, last_response, hands, sign
            )
        except _stopped_types() as stopped_error:
            raise interrupts.stopping(partial()) from stopped_error
    return result(measured, converged=converged, cycle=cycle, stopped=stopped)


def _sweep(player, spec, table, found, profile, state, hands, sign, partial):
    """One sweep under ``profile`` on the next ``hands`` deals: ``(new profile, best
    response without the tie rule, ties)`` by seat."""
    from analyzer.run import interrupts

    sweep = state["sweeps"]
    try:
        cells = player.cells(policy_with(spec, table, found, profile), sweep * hands, hands)[0]
    except _stopped_types() as stopped_error:
        raise interrupts.stopping(partial()) from stopped_error
    state["sweeps"] = sweep + 1
    new, response, ties = {}, {}, {}
    unit = np.eye(found.n_actions)
    for seat in profile:
        chosen = [
            best_response(cells[seat, c], profile[seat][c], found.legal_actions(c), sign) for c in range(found.n_cells)
        ]
        new[seat] = np.asarray([choice.row for choice in chosen])
        response[seat] = np.asarray(
            [unit[ch.best] if ch.best >= 0 else profile[seat][c] for c, ch in enumerate(chosen)]
        )
        ties[seat] = np.asarray([choice.tie for choice in chosen])
    return new, response, ties


def _stopped_types():
    from sims.engine import Stopped

    return (Stopped,)


def _measure(player, spec, table, found, module, start, profile, first_response, last_response, hands, sign):
    """Values and exploitability of the solved and the start profile on the same fresh deals."""
    outcome, scale = module.SOLVE_OUTCOME, module.SOLVE_SCALE
    solved_policy = policy_with(spec, table, found, profile)
    start_policy = policy_with(spec, table, found, start)
    solved_cells = player.cells(solved_policy, MEASURE_FIRST, hands, BATCHES)
    start_cells = player.cells(start_policy, MEASURE_FIRST, hands, BATCHES)
    sizes = np.diff([hands * b // BATCHES for b in range(BATCHES + 1)]).astype(float)

    def exploit(batches, prof, response):
        gains = _gain(batches, prof, response, found, sign, scale) / sizes
        mean = float(np.average(gains, weights=sizes))
        return mean, float(np.std(gains, ddof=1) / np.sqrt(len(gains)))

    return {
        "cells": sum(solved_cells[1:], solved_cells[0]),
        "exploitability": exploit(solved_cells, profile, last_response),
        "start_exploitability": exploit(start_cells, start, first_response or start),
        "values": player.values(solved_policy, MEASURE_FIRST, hands, outcome),
        "start_values": player.values(start_policy, MEASURE_FIRST, hands, outcome),
    }


def _verdicts(cells: np.ndarray, table: np.ndarray, ties: np.ndarray, found: TableDecision, sign, scale, deals):
    n_actions = found.n_actions
    unit = np.eye(n_actions)
    out = []
    for c in range(found.n_cells):
        stats = cells[c]
        legal = found.legal_actions(c)
        means = _means(stats, n_actions) / scale
        means[[a for a in range(n_actions) if a not in legal]] = np.nan
        chosen = int(np.argmax(table[c]))
        others = [a for a in legal if a != chosen]
        margin = margin_se = float("nan")
        if others and int(stats[0]) >= 2:
            other = max(others, key=lambda a: sign * means[a])
            mean, se = _contrast(stats, sign * (unit[chosen] - unit[other]), n_actions)
            margin, margin_se = mean / scale, se / scale
        out.append(
            CellVerdict(
                c,
                table[c].copy(),
                margin,
                margin_se,
                int(stats[0]) / deals,
                int(stats[0]),
                bool(ties[c]) if ties is not None and len(ties) else False,
                means,
            )
        )
    return tuple(out)


def _result(
    spec, table, found, module, profile, start, measured, sweeps, hands, changes, ties, *, converged, cycle, stopped
) -> Solved:
    sign = -1.0 if module.SOLVE_LOWER_IS_BETTER else 1.0
    scale = module.SOLVE_SCALE
    nan = float("nan")
    seats = []
    for seat in range(table.players):
        if measured is not None:
            value, se = measured["values"][seat]
            start_value, start_se = measured["start_values"][seat]
            cells = _verdicts(measured["cells"][seat], profile[seat], ties.get(seat), found, sign, scale, hands)
        else:
            value = se = start_value = start_se = nan
            cells = ()
        seats.append(SeatSolved(seat, value, se, start_value, start_se, profile[seat], cells, start[seat]))
    exploit = measured["exploitability"] if measured else (nan, nan)
    start_exploit = measured["start_exploitability"] if measured else (nan, nan)
    return Solved(
        game=spec.name,
        decision=found,
        players=table.players,
        rules=tuple(table.rules),
        outcome=module.SOLVE_OUTCOME,
        lower_is_better=bool(module.SOLVE_LOWER_IS_BETTER),
        scale=scale,
        converged=converged,
        cycle=cycle,
        sweeps=sweeps,
        deals=hands,
        measured=hands if measured else 0,
        seats=tuple(seats),
        exploitability=exploit[0],
        exploitability_se=exploit[1],
        start_exploitability=start_exploit[0],
        start_exploitability_se=start_exploit[1],
        start_policy=getattr(table, "strategy", "default"),
        changes=tuple(changes),
        stopped=stopped,
    )


__all__ = [
    "Solved",
    "SeatSolved",
    "CellVerdict",
    "solve_tables",
    "best_response",
    "start_profile",
    "policy_with",
    "replace",
    "solve_stats_width",
]
