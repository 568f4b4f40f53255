"""GAMES: the registered games' specs by CLI name, each game imported only when asked for.

A game is a folder ``sims/games/<folder>/`` whose package defines ``SPEC`` (see
README.md, "Adding a game"); registering it is one line in ``GAME_FOLDERS``.  Its CLI name
is the folder's name with hyphens (``chase_ace`` -> ``chase-ace``).

Importing every game module (and so defining every kernel) costs about a quarter of a
second, which a command about one game should not pay.  ``GAMES`` is a read-only mapping
whose keys are known at once and whose values (``GameSpec``) import their package on first
use.  The command line's help needs each game's title and one-line summary without that
import: ``ENTRIES`` reads the literal ``TITLE`` and ``SUMMARY`` that the package's
``SPEC`` is built from, out of its source, so the text is written once.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import NamedTuple

from sims.spec import GameSpec

GAME_FOLDERS = (
    "chase_ace",
    "ace_chasing",
    "fight_for_the_lead",
    "all_fours",
    "spoil_five",
    "five_hundred",
    "fan_tan",
)
GAMES_DIR = Path(__file__).parent / "games"
NAMES = tuple(folder.replace("_", "-") for folder in GAME_FOLDERS)  # the CLI names


class Entry(NamedTuple):
    module: str  # the game's package, which defines SPEC
    title: str
    summary: str


def _literal(source: str, name: str, folder: str) -> str:
    """The string assigned to ``name`` at the top level of a game package's source."""
    found = re.search(rf'^{name} = (\(\n.*?\n\)|".*?")\n', source, re.M | re.S)
    if found is None:
        raise RuntimeError(f'sims/games/{folder}/__init__.py has no literal {name} = "...".')
    return ast.literal_eval(found.group(1))


@cache
def _entries() -> dict[str, Entry]:
    entries = {}
    for folder in GAME_FOLDERS:
        source = (GAMES_DIR / folder / "__init__.py").read_text(encoding="utf-8")
        entries[folder.replace("_", "-")] = Entry(
            f"sims.games.{folder}", _literal(source, "TITLE", folder), _literal(source, "SUMMARY", folder)
        )
    return entries


class _Entries(Mapping):
    """CLI name -> ``Entry`` (package, title, summary), read from the game folders once."""

    def __getitem__(self, name: str) -> Entry:
        return _entries()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(NAMES)

    def __len__(self) -> int:
        return len(GAME_FOLDERS)


ENTRIES: Mapping[str, Entry] = _Entries()


class _Games(Mapping):
    """Game name -> ``GameSpec``, importing a game's module on first use."""

    def __getitem__(self, name: str) -> GameSpec:
        return importlib.import_module(ENTRIES[name].module).SPEC

    def __iter__(self) -> Iterator[str]:
        return iter(ENTRIES)

    def __len__(self) -> int:
        return len(ENTRIES)

    def __contains__(self, name: object) -> bool:
        return name in NAMES


GAMES: Mapping[str, GameSpec] = _Games()


def get_game(name: str) -> GameSpec:
    """The spec of a game by CLI name; ``KeyError`` with a readable message otherwise."""
    if name not in GAMES:
        raise KeyError(f"unknown game '{name}'; the games are: {', '.join(GAMES)}.")
    return GAMES[name]
