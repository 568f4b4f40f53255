"""The registry: names, titles and summaries agree with the specs, and a game's module is
imported only when that game is asked for."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sims.registry import ENTRIES, GAME_FOLDERS, GAMES, get_game


@pytest.mark.parametrize("name", list(ENTRIES))
def test_each_entry_agrees_with_its_spec(name):
    spec = GAMES[name]
    assert (spec.name, spec.title, spec.summary) == (name, ENTRIES[name].title, ENTRIES[name].summary)
    assert get_game(name) is spec


def test_an_unknown_game_is_a_readable_key_error():
    with pytest.raises(KeyError) as refused:
        get_game("chase_ace")
    assert refused.value.args[0] == f"unknown game 'chase_ace'; the games are: {', '.join(ENTRIES)}."
    assert "chase_ace" not in GAMES and len(GAMES) == len(ENTRIES) == 7


@pytest.mark.slow
def test_a_command_about_one_game_imports_only_that_game():
    script = (
        "import sys\nfrom analyzer.cli.main import run_app\n"
        "code = run_app(['rules', 'fan-tan'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('sims.games.') and m.count('.') == 2))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "['sims.games.fan_tan']"


def test_indices_follow_the_fields_of_rules_policies_and_outcomes():
    from sims.games.chase_ace import POLICY_FIELDS, Rules
    from sims.spec import indices

    assert indices(Rules, "lives", "tie") == (Rules._fields.index("lives"), Rules._fields.index("tie"))
    assert indices(POLICY_FIELDS, POLICY_FIELDS[1].key) == (1,)
    assert indices(("a", "b", "c"), "c", "a") == (2, 0)
    with pytest.raises(ValueError, match="no field nope among"):
        indices(Rules, "nope")


@pytest.mark.parametrize("folder", GAME_FOLDERS)
def test_each_game_is_one_folder_with_its_tests_beside_it(folder):
    """README.md, "Adding a game": the package (contract and SPEC), rules, kernel and twin in
    sims/games/<folder>/, an exact enumerator there if the game has one, and the game's
    tests in tests/games/<folder>/."""
    from pathlib import Path

    game = Path(__file__).parents[2] / "sims" / "games" / folder
    assert {"__init__.py", "rules.py", "kernel.py", "twin.py", "stacked.py"} <= {path.name for path in game.iterdir()}
    spec = GAMES[folder.replace("_", "-")]
    assert spec.twin == f"sims.games.{folder}.twin"
    assert spec.exact in (None, f"sims.games.{folder}.exact")
    assert (spec.exact is not None) == (game / "exact.py").exists()
    tests = Path(__file__).parents[1] / "games" / folder
    assert (tests / "golden.json").exists() and list(tests.glob("test_*.py"))
