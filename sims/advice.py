"""Advice runs through the engine: a game's advice (``sims/games/<game>/advice.py``, see
:mod:`sims.core.advice`) played as the engine's ``ADVICE`` mode, so that threads,
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
import importlib
from typing import Any, Mapping

import numpy as np

from sims.core.advice import INFER, Decision, Situation, advice_width
from sims.spec import ADVICE, GameSpec, Outcomes

HEADER = 3  # entries after the game's rules: candidates, outcomes, known entries


def advice_module(spec: GameSpec):
    """The game's advice module (imported on demand); ``ValueError`` for a game without one."""
    if not spec.advice:
        raise ValueError(f"{spec.name} has no advice yet.")
    return importlib.import_module(spec.advice)


def decisions(spec: GameSpec) -> tuple[Decision, ...]:
    """The decisions ``analyze advise`` answers for this game."""
    return tuple(advice_module(spec).DECISIONS) if spec.advice else ()


def terms(spec: GameSpec) -> dict[str, str]:
    """The terms a user meets in this game's advice and policies (every advice outcome's
    name, a policy's scale such as All-Fours' trump strength) with their definitions:
    ``TERMS`` of the game's advice module (``analyze rules`` shows them)."""
    return dict(getattr(advice_module(spec), "TERMS", {})) if spec.advice else {}


def situation(
    spec: GameSpec,
    rules,
    n_seats: int,
    position: int,
    holding,
    context: Mapping[str, str] | None = None,
    infer: str = "policy",
) -> Situation:
    """The decision of seat ``position`` holding ``holding`` (card codes) after what
    ``context`` says it has seen, its history read as ``infer`` says
    (:data:`sims.core.advice.INFER`): the game decides which decision that is and its
    candidates.  ``ValueError`` with one sentence for an impossible or malformed one."""
    if infer not in INFER:
        raise ValueError(f"--infer takes {' or '.join(INFER)}, not '{infer}'.")
    if not spec.min_players <= n_seats <= spec.max_players:
        raise ValueError(f"{spec.name} takes {spec.min_players} to {spec.max_players} players, not {n_seats}.")
    if not 0 <= int(position) < n_seats:
        raise ValueError(f"--position takes a seat 0..{n_seats - 1} at a table of {n_seats}, not {position}.")
    holding = tuple(int(card) for card in holding)
    if len(set(holding)) != len(holding):
        raise ValueError("the holding names a card twice.")
    return advice_module(spec).situation(rules, int(n_seats), int(position), holding, dict(context or {}), infer)


def guides(spec: GameSpec) -> tuple:
    """The game's decision guides (:mod:`sims.core.guide`): ``GUIDES`` of the
    ``guide.py`` beside its advice module, or none."""
    if not spec.advice:
        return ()
    package = spec.advice.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(package + ".guide")
    except ModuleNotFoundError as problem:
        if problem.name != package + ".guide":
            raise
        return ()
    return tuple(module.GUIDES)


def guide_situation(spec: GameSpec, guide, cell) -> tuple[Any, int, Situation]:
    """``(rules, players, situation)`` of one cell of a guide: the standard rules, the
    guide's table size, the cell's position, holding and context."""
    rules = spec.default_rules()
    players = guide.players or spec.default_players
    holding = parse_holding(spec, cell.holding)
    return rules, players, situation(spec, rules, players, cell.position, holding, dict(cell.context))


def parse_holding(spec: GameSpec, text: str) -> tuple[int, ...]:
    """The cards of a holding in the notation ``replay`` prints; a game whose pack has
    other cards (jokers) reads them with its advice module's ``holding_cards``.
    ``ValueError`` with one sentence otherwise."""
    module = advice_module(spec)
    if hasattr(module, "holding_cards"):
        return tuple(module.holding_cards(text))
    from sims.core.cards import parse_cards

    return tuple(parse_cards(text))


def cards_text(spec: GameSpec, cards) -> str:
    """Card codes in the game's notation (its advice module's ``card_text`` where it has one)."""
    module = advice_module(spec)
    if hasattr(module, "card_text"):
        return " ".join(module.card_text(int(card)) for card in cards)
    from sims.core.cards import format_cards

    return format_cards(cards)


def example_arguments(example: str) -> dict:
    """The options of a decision's example command line (``analyze advise GAME ...``) as
    text: ``game``, ``position``, ``holding``, and ``players`` (or None), ``context`` and
    ``rules`` (dicts of KEY=VALUE)."""
    import shlex

    words = shlex.split(example)[2:]
    options: dict[str, list[str]] = {}
    for flag, value in zip(words[1::2], words[2::2]):
        options.setdefault(flag, []).append(value)

    def pairs(flag: str) -> dict[str, str]:
        return dict(item.split("=", 1) for item in options.get(flag, []))

    return {
        "game": words[0],
        "players": options["--players"][0] if "--players" in options else None,
        "position": options["--position"][0],
        "holding": options["--holding"][0],
        "context": pairs("--context"),
        "rules": pairs("--rule"),
    }


def example_situation(spec: GameSpec, example: str):
    """``(rules, players, situation)`` of a decision's example command line."""
    found = example_arguments(example)
    fields = {field.key: field for field in spec.rules}
    values = {}
    for key, text in found["rules"].items():
        field = fields[key]
        values[key] = (
            field.choices.index(text)
            if field.kind == "choice"
            else int(text in ("true", "1"))
            if field.kind == "bool"
            else int(text)
        )
    rules = spec.default_rules()._replace(**values)
    players = int(found["players"]) if found["players"] is not None else spec.default_players
    holding = parse_holding(spec, found["holding"])
    return rules, players, situation(spec, rules, players, int(found["position"]), holding, found["context"])


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
    """The game's spec with the ``ADVICE`` mode of this many candidates and outcomes: its
    outcome layout (the padded flat sums) and its kernel around the game's ``advise_nb``."""
    _, k_count, o_count, _ = _split(spec, rules_ext)
    key = (spec.name, k_count, o_count, int(n_seats))
    if key not in _SPECS:
        width = _width(k_count, o_count, n_seats)
        columns = tuple(f"sum{k}" for k in range(width))
        outcomes = Outcomes(seat=columns, table=columns)
        kernel = advice_module(spec).advise_nb

        def advise_kernel(rules_ext, policy, n, seed, first, count):
            rules, k_count, o_count, known = _split(spec, rules_ext)
            flat = kernel(rules, policy, n, seed, first, count, known, np.int64(k_count), np.int64(o_count))
            out = np.zeros((int(n) + 1) * width, dtype=np.int64)
            out[: flat.size] = flat
            return out.reshape(int(n) + 1, width)

        advise_kernel.parts = (kernel,)  # type: ignore[attr-defined]  # for the kernel cache checks
        _SPECS[key] = dataclasses.replace(
            spec,
            outcomes={**spec.outcomes, ADVICE: outcomes},
            kernels={**spec.kernels, ADVICE: advise_kernel},
            headline={**spec.headline, ADVICE: columns[0]},
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
    sums = engine.simulate(advice_spec, rules_ext, policy, n_seats, ADVICE, seed, first, count, threads=threads)
    return flat_sums(sums, found)


def twin_advice(spec: GameSpec, rules, policy, n_seats: int, found: Situation, seed: int, first: int, count: int):
    """The flat sums the game's plain-Python twin gives for the same deals."""
    from sims.engine import twin_module

    known = np.asarray(found.known, dtype=np.int64).ravel()
    return list(
        twin_module(spec).advise(
            spec.rules_array(rules),
            np.asarray(policy, dtype=np.float64),
            n_seats,
            seed,
            first,
            count,
            known,
            len(found.candidates),
            len(found.outcomes),
        )
    )
