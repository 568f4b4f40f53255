"""Solve sweeps through the engine: a game's solve kernel (``solve_nb``, see
:mod:`sims.core.table_nb`) played as the engine's ``Mode.SOLVE`` mode, so that threads, pieces,
stopping, the result store and clusters treat its deals as they treat hands.

The engine's kernels take ``(rules, policy, n_seats, seed, first, count)``.  A sweep
passes the decision solved inside the rules: the game's rules array, then the index of the
decision among the game's ``TABLES`` (:func:`solve_rules`); the profile (each seat's
table) travels in the policy matrix (:mod:`sims.core.table`).  The flat sums
``[seat, cell, stat]`` travel as the ``[n_seats + 1, width]`` array the engine expects:
seat ``s``'s row holds its cells' statistics, the table row is zeros.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from sims.core.table import TableDecision, solve_stats_width
from sims.spec import GameSpec, Mode, Outcomes


def decision_named(spec: GameSpec, name: str | None) -> tuple[int, TableDecision]:
    """``(index, declaration)`` of the table decision ``name`` (None: the game's first)."""
    decisions = spec.table_decisions()
    if not decisions:
        raise ValueError(f"{spec.name} has no strategy tables yet.")
    if name is None:
        return 0, decisions[0]
    for index, decision in enumerate(decisions):
        if decision.name == name:
            return index, decision
    raise ValueError(
        f"{spec.name} has no table decision '{name}'; its decisions are: {', '.join(d.name for d in decisions)}."
    )


def solve_rules(spec: GameSpec, rules, decision: int) -> np.ndarray:
    """The rules array a sweep passes to the engine: the game's rules, then the decision."""
    return np.concatenate([spec.rules_array(rules), np.asarray([decision], dtype=np.int64)])


def _split(spec: GameSpec, rules_ext) -> tuple[np.ndarray, int]:
    rules_ext = np.asarray(rules_ext, dtype=np.int64)
    n_rules = len(spec.rules)
    return np.ascontiguousarray(rules_ext[:n_rules]), int(rules_ext[n_rules])


_SPECS: dict[tuple, GameSpec] = {}


def spec_for_solve(spec: GameSpec, rules_ext, n_seats: int) -> GameSpec:
    """The game's spec with the ``Mode.SOLVE`` mode of the decision inside ``rules_ext``: its
    outcome layout (one row of cell statistics per seat) and its kernel around the game's
    ``solve_nb``."""
    _, index = _split(spec, rules_ext)
    key = (spec.name, index, int(n_seats))
    if key not in _SPECS:
        decision = spec.table_decisions()[index]
        width = decision.n_cells * solve_stats_width(decision.n_actions)
        columns = tuple(f"sum{k}" for k in range(width))
        outcomes = Outcomes(seat=columns, table=columns)
        kernel = spec.solve_kernel()

        def solve_kernel(rules_ext, policy, n, seed, first, count):
            rules, index = _split(spec, rules_ext)
            flat = kernel(rules, policy, n, seed, first, count, np.int64(index))
            out = np.zeros((int(n) + 1) * width, dtype=np.int64)
            out[: flat.size] = flat
            return out.reshape(int(n) + 1, width)

        solve_kernel.parts = (kernel,)  # type: ignore[attr-defined]  # for the kernel cache checks
        _SPECS[key] = dataclasses.replace(
            spec,
            derived_by="sims.solve:spec_for_solve",
            outcomes={**spec.outcomes, Mode.SOLVE: outcomes},
            kernels={**spec.kernels, Mode.SOLVE: solve_kernel},
            headline={**spec.headline, Mode.SOLVE: columns[0]},
        )
    return _SPECS[key]


def cell_sums(sums: np.ndarray, decision: TableDecision, n_seats: int) -> np.ndarray:
    """The ``[seat, cell, stat]`` int64 sums of an engine result of a sweep."""
    width = solve_stats_width(decision.n_actions)
    rows = np.asarray(sums, dtype=np.int64)[:n_seats, : decision.n_cells * width]
    return rows.reshape(n_seats, decision.n_cells, width)


def simulate_solve(
    spec: GameSpec,
    rules,
    policy,
    n_seats: int,
    decision: str | None,
    seed: int,
    first: int,
    count: int,
    threads: int = 1,
) -> np.ndarray:
    """The ``[seat, cell, stat]`` sums of deals ``first .. first + count - 1`` of ``seed``
    under the profile ``policy`` (tests and the bench; the analyzer plays sweeps through its
    run context)."""
    from sims import engine

    index, found = decision_named(spec, decision)
    rules_ext = solve_rules(spec, rules, index)
    solve_spec = spec_for_solve(spec, rules_ext, n_seats)
    sums = engine.simulate(solve_spec, rules_ext, policy, n_seats, Mode.SOLVE, seed, first, count, threads=threads)
    return cell_sums(sums, found, n_seats)


def twin_solve(
    spec: GameSpec, rules, policy, n_seats: int, decision: str | None, seed: int, first: int, count: int
) -> Any:
    """The same sums from the game's plain-Python twin (``twin.solve``), as an array."""

    index, found = decision_named(spec, decision)
    flat = spec.twin_module().solve(
        spec.rules_array(rules), np.asarray(policy, dtype=np.float64), n_seats, seed, first, count, index
    )
    return np.asarray(flat, dtype=np.int64).reshape(n_seats, found.n_cells, solve_stats_width(found.n_actions))


def policy_tables(
    spec: GameSpec, rules, policy, n_seats: int, decision: str | None = None, hand_mode: bool = False
) -> dict[int, np.ndarray]:
    """Each seat's policy written as a table of ``decision`` (the game's
    ``policy_table``): playing these tables gives the same sums as the policy.

    A game whose policy acts on more than a cell shows in game mode (Chase the Ace's
    informed rule differs for a seat when it deals) leaves such cells out (-1: the policy
    decides); with ``hand_mode`` every cell holds the action the policy takes at that seat
    in hand mode (the game's ``hand_policy_table`` where it has one), a complete table that
    plays every hand as the policy does, as a solve starts from."""
    _, found = decision_named(spec, decision)
    module = spec.table_module()
    if hand_mode and hasattr(module, "hand_policy_table"):
        policy = np.asarray(policy, dtype=np.float64)
        return {
            seat: np.asarray(module.hand_policy_table(rules, policy[seat], seat, n_seats, found.name), dtype=np.float64)
            for seat in range(n_seats)
        }
    policy = np.asarray(policy, dtype=np.float64)
    return {
        seat: np.asarray(module.policy_table(rules, policy[seat], seat, n_seats, found.name), dtype=np.float64)
        for seat in range(n_seats)
    }
