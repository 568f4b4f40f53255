"""GAMES: the explicit list of registered game modules' specs, by CLI name.

Adding a game is one import and one entry here (plus its module and tests).
"""

from __future__ import annotations

from sims.games import ace_chasing, all_fours, chase_ace, fan_tan, fight_for_the_lead, five_hundred, spoil_five
from sims.spec import GameSpec

GAMES: dict[str, GameSpec] = {
    spec.name: spec for spec in (chase_ace.SPEC, ace_chasing.SPEC, fight_for_the_lead.SPEC, all_fours.SPEC,
                                 spoil_five.SPEC, five_hundred.SPEC, fan_tan.SPEC)
}


def get_game(name: str) -> GameSpec:
    """The spec of a game by CLI name; ``KeyError`` with a readable message otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game '{name}'; the games are: {', '.join(GAMES)}.") from None
