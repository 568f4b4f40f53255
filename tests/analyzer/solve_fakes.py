"""A solve's result as ``analyzer.strategy.solve.solve_tables`` returns it, made by hand
(literal tables and verdicts), so the command, the API and every presentation of
``analyze solve`` are tested on known numbers, apart from the algorithm."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sims.core.table import pure


@dataclass(frozen=True)
class CellVerdict:
    cell: int
    action: np.ndarray
    margin: float
    margin_se: float
    reach: float
    visits: int
    tie: bool
    means: np.ndarray


@dataclass(frozen=True)
class SeatSolved:
    seat: int
    value: float
    se: float
    start_value: float
    start_se: float
    table: np.ndarray
    cells: tuple


@dataclass(frozen=True)
class Solved:
    game: str
    decision: object
    players: int
    rules: tuple
    outcome: str
    lower_is_better: bool
    scale: int
    converged: bool
    cycle: int | None
    sweeps: int
    deals: int
    measured: int
    seats: tuple
    exploitability: float
    exploitability_se: float
    start_exploitability: float
    start_exploitability_se: float
    start_policy: str
    changes: tuple
    stopped: str


def threshold_actions(decision, threshold: int) -> list[int]:
    """Swap (0) a face at most ``threshold`` held alone, else keep (1); keep after a swap."""
    faces = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    return [
        0 if gave is None and held != "K" and faces.index(held) + 1 <= threshold else 1 for held, gave in decision.cells
    ]


def fake_solved(spec, table, decision_name, hands, seed, context, max_sweeps=12, stopped="fixed point") -> Solved:
    """Every seat solved to threshold 4 (swap A to 4, keep the rest), seat 0's 5 a tie and
    seat 1 mixing on 6; cells with a swap from the right reached by seat 1 only."""
    decision = next(d for d in spec.table_decisions() if decision_name in (None, d.name))
    seats = []
    for seat in range(table.players):
        probabilities = pure(decision, threshold_actions(decision, 4))
        if seat == 1:
            probabilities[5] = [0.25, 0.75]  # held 6: a mix
        verdicts = []
        for cell in range(decision.n_cells):
            reached = cell < 13 and cell != 12 or (seat == 1 and cell >= 13)
            best = int(np.argmax(probabilities[cell]))
            verdicts.append(
                CellVerdict(
                    cell,
                    probabilities[cell],
                    0.05 + 0.01 * cell if reached else math.nan,
                    0.01 if reached else math.nan,
                    1 / 13 if reached else 0.0,
                    100 + cell if reached else 0,
                    seat == 0 and cell == 4,
                    np.array([0.3 if best == 0 else 0.4, 0.4 if best == 0 else 0.3])
                    if reached
                    else np.array([math.nan, math.nan]),
                )
            )
        seats.append(SeatSolved(seat, 0.2 + 0.01 * seat, 0.003, 0.25, 0.003, probabilities, tuple(verdicts)))
    return Solved(
        spec.name,
        decision,
        table.players,
        tuple(table.rules),
        "lose_life",
        True,
        1,
        stopped == "fixed point",
        2 if stopped == "cycle" else None,
        3,
        hands,
        hands,
        tuple(seats),
        0.004,
        0.002,
        0.05,
        0.004,
        "default",
        (40, 6, 0),
        stopped,
    )
