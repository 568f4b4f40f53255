"""GAMES: the registered games' specs by CLI name, each game imported only when asked for.

Importing every game module (and so defining every kernel) costs about a quarter of a
second, which a command about one game should not pay.  ``GAMES`` is a read-only mapping
whose keys are known at once and whose values (``GameSpec``) import their module on first
use.  Each entry also carries the game's title and one-line summary, for the command
line's help without importing the game; ``tests/sims/test_engine.py`` checks them against
the specs.

Adding a game is one entry here (plus its module and tests).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import NamedTuple

from sims.spec import GameSpec


class Entry(NamedTuple):
    module: str  # defines SPEC
    title: str
    summary: str


ENTRIES: dict[str, Entry] = {
    "chase-ace": Entry(
        "sims.games.chase_ace",
        "Chase the Ace",
        "One card each; swap with your left-hand neighbour or keep; the lowest card loses a life.",
    ),
    "ace-chasing": Entry(
        "sims.games.ace_chasing",
        "Ace Chasing",
        "Everyone against the matador: lower cards and the suits of face-up aces are knocked out.",
    ),
    "fight-for-the-lead": Entry(
        "sims.games.fight_for_the_lead",
        "Fight for the Lead",
        "Four tricks, no trumps; win the fight for the lead, and anyone who plays and takes no trick matches the pot.",
    ),
    "all-fours": Entry(
        "sims.games.all_fours",
        "All-Fours",
        "Two players, trumps turned up; the elder may beg, the "
        "dealer gives a point or runs the cards; High, Low, Jack and Game score one each.",
    ),
    "spoil-five": Entry(
        "sims.games.spoil_five",
        "Spoil Five",
        "Five cards each, trumps turned up; three tricks take "
        "the pool, or the hand is spoiled and the pool grows; rob the turn-up, renege with the top "
        "trumps, jinx for all five.",
    ),
    "five-hundred": Entry(
        "sims.games.five_hundred",
        "Five Hundred",
        "Four players in partnerships, 43 cards with a "
        "joker and two bowers; bid tricks on the Avondale ladder (or misere), take the kitty, make "
        "the contract; first side to 500 on a contract wins.",
    ),
    "fan-tan": Entry(
        "sims.games.fan_tan",
        "Fan Tan",
        "Sevens: build each suit up and down from its seven; play when "
        "you can, pay when you cannot, and the first out takes the pot.",
    ),
}


class _Games(Mapping):
    """Game name -> ``GameSpec``, importing a game's module on first use."""

    def __getitem__(self, name: str) -> GameSpec:
        return importlib.import_module(ENTRIES[name].module).SPEC

    def __iter__(self) -> Iterator[str]:
        return iter(ENTRIES)

    def __len__(self) -> int:
        return len(ENTRIES)

    def __contains__(self, name: object) -> bool:
        return name in ENTRIES


GAMES: Mapping[str, GameSpec] = _Games()


def get_game(name: str) -> GameSpec:
    """The spec of a game by CLI name; ``KeyError`` with a readable message otherwise."""
    if name not in ENTRIES:
        raise KeyError(f"unknown game '{name}'; the games are: {', '.join(GAMES)}.")
    return GAMES[name]
