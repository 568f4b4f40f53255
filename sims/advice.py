"""Advice runs through the engine: a game's advice (``sims/games/<game>/advice.py``, see
:mod:`sims.core.advice`) played as the engine's ``Mode.ADVICE`` mode, so that threads,
pieces, stopping, the result store and clusters treat its deals as they treat hands.

The engine's kernels take ``(rules, policy, n_seats, seed, first, count)``.  An advice
run passes the situation inside the rules: the game's rules array, then the number of
candidates, of outcomes and of known entries, then the situation's ``known`` array
(:func:`advice_rules`).  Two runs of different situations are thus different
configurations everywhere (the store keys on the rules), and a cluster worker rebuilds
everything from the arguments it is sent (:func:`spec_for_rules`).  The flat sums of
:mod:`sims.core.advice` travel as the ``[n_seats + 1, width]`` array the engine expects,
padded with zeros (:func:`flat_sums` reads them back).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from sims.core.advice import Situation, advice_width
from sims.spec import GameSpec, Mode, Outcomes

HEADER = 3  # entries after the game's rules: candidates, outcomes, known entries


def advice_rules(spec: GameSpec, rules, found: Situation) -> np.ndarray:
    """The rules array an advice run passes to the engine: the game's rules, the sizes,
    then the situation's known entries."""
    known = np.asarray(found.known, dtype=np.int64).ravel()
    header = [len(found.candidates), len(found.outcomes), known.size]
    return np.concatenate([spec.rules_array(rules), np.asarray(header, dtype=np.int64), known])


def _split(spec: GameSpec, rules_ext) -> tuple[np.ndarray, int, int, np.ndarray]:
    rules_ext = np.asarray(rules_ext, dtype=np.int64)
    n_rules = len(spec.rules)
    k_count, o_count, n_known = (int(v) for v in rules_ext[n_rules : n_rules + HEADER])
    known = np.ascontiguousarray(rules_ext[n_rules + HEADER : n_rules + HEADER + n_known])
    return np.ascontiguousarray(rules_ext[:n_rules]), k_count, o_count, known


def _width(k_count: int, o_count: int, n_seats: int) -> int:
    return -(-int(advice_width(k_count, o_count)) // (n_seats + 1))


_SPECS: dict[tuple, GameSpec] = {}


def spec_for_rules(spec: GameSpec, rules_ext, n_seats: int) -> GameSpec:
    """The game's spec with the ``Mode.ADVICE`` mode of this many candidates and outcomes: its
    outcome layout (the padded flat sums) and its kernel around the game's ``advise_nb``."""
    _, k_count, o_count, _ = _split(spec, rules_ext)
    key = (spec.name, k_count, o_count, int(n_seats))
    if key not in _SPECS:
        width = _width(k_count, o_count, n_seats)
        columns = tuple(f"sum{k}" for k in range(width))
        outcomes = Outcomes(seat=columns, table=columns)
        kernel = spec.advice_module().advise_nb

        def advise_kernel(rules_ext, policy, n, seed, first, count):
            rules, k_count, o_count, known = _split(spec, rules_ext)
            flat = kernel(rules, policy, n, seed, first, count, known, np.int64(k_count), np.int64(o_count))
            out = np.zeros((int(n) + 1) * width, dtype=np.int64)
            out[: flat.size] = flat
            return out.reshape(int(n) + 1, width)

        advise_kernel.parts = (kernel,)  # type: ignore[attr-defined]  # for the kernel cache checks
        _SPECS[key] = dataclasses.replace(
            spec,
            derived_by="sims.advice:spec_for_rules",
            outcomes={**spec.outcomes, Mode.ADVICE: outcomes},
            kernels={**spec.kernels, Mode.ADVICE: advise_kernel},
            headline={**spec.headline, Mode.ADVICE: columns[0]},
        )
    return _SPECS[key]


def flat_sums(sums: np.ndarray, found: Situation) -> list[int]:
    """The flat sums (:mod:`sims.core.advice`) of an engine result of an advice run."""
    return [int(v) for v in np.asarray(sums).ravel()[: found.width]]


def simulate_advice(
    spec: GameSpec, rules, policy, n_seats: int, found: Situation, seed: int, first: int, count: int, threads: int = 1
) -> list[int]:
    """The flat sums of deals ``first .. first + count - 1`` of ``seed`` for ``found``
    (tests and the bench; the analyzer plays advice through its run context)."""
    from sims import engine

    rules_ext = advice_rules(spec, rules, found)
    advice_spec = spec_for_rules(spec, rules_ext, n_seats)
    sums = engine.simulate(advice_spec, rules_ext, policy, n_seats, Mode.ADVICE, seed, first, count, threads=threads)
    return flat_sums(sums, found)
