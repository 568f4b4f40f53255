"""A player's situation as the game's advice reads it: the seat, the holding in the game's
notation and what it has seen (:func:`situation`, checked), the cells of the decision
guides (:func:`guide_situation`) and the decisions' example command lines
(:func:`example_situation`, their rules read by the one rule parser,
:mod:`sims.rules_text`).  Every problem raises ``ValueError`` with one sentence."""

from __future__ import annotations

from typing import Any, Mapping

from sims.core.advice import INFER, Situation
from sims.rules_text import build_rules
from sims.spec import GameSpec


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
    spec.check_players(n_seats)
    if not 0 <= int(position) < n_seats:
        raise ValueError(f"--position takes a seat 0..{n_seats - 1} at a table of {n_seats}, not {position}.")
    holding = tuple(int(card) for card in holding)
    if len(set(holding)) != len(holding):
        raise ValueError("the holding names a card twice.")
    return spec.advice_module().situation(rules, int(n_seats), int(position), holding, dict(context or {}), infer)


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
    module = spec.advice_module()
    if hasattr(module, "holding_cards"):
        return tuple(module.holding_cards(text))
    from sims.core.cards import parse_cards

    return tuple(parse_cards(text))


def cards_text(spec: GameSpec, cards) -> str:
    """Card codes in the game's notation (its advice module's ``card_text`` where it has one)."""
    module = spec.advice_module()
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
    rules = build_rules(spec, None, found["rules"])
    players = int(found["players"]) if found["players"] is not None else spec.default_players
    holding = parse_holding(spec, found["holding"])
    return rules, players, situation(spec, rules, players, int(found["position"]), holding, found["context"])
