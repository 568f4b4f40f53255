"""Every kernel gives the sums it gave when its golden file was written.

``tests/games/<game>/golden.json`` holds, for each mode, the digest of the integer sums of
every variant, every policy preset and eight random legal tables (rules, player count and
a per-seat policy drawn at random), each on its own seed.  A change to a kernel that is
meant to play the same game (a refactoring, a speed-up) must leave every digest as it
is; a change of the rules as played raises the game's ``kernel_version`` and writes the
file again with ``python tests/games/golden.py GAME``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sims import engine
from sims.registry import GAMES
from sims.spec import MODE_NAMES
from tests.games.golden import digest

HERE = Path(__file__).parent
MODES = {name: mode for mode, name in MODE_NAMES.items()}
FILES = sorted(HERE.glob("*/golden.json"))


def _cases():
    for path in FILES:
        recorded = json.loads(path.read_text())
        for index, case in enumerate(recorded["cases"]):
            yield pytest.param(
                recorded["game"],
                recorded["kernel_version"],
                case,
                id=f"{recorded['game']}-{index}-{case['mode']}-{case['label']}",
            )


def test_every_registered_game_has_a_golden_file():
    assert sorted(json.loads(path.read_text())["game"] for path in FILES) == sorted(GAMES)


@pytest.mark.parametrize("game,kernel_version,case", list(_cases()))
def test_the_kernel_gives_its_golden_sums(game, kernel_version, case):
    spec = GAMES[game]
    assert spec.kernel_version == kernel_version, "the rules as played changed: write the golden file again"
    rules = spec.rules_type(**case["rules"])
    policy = spec.policy_matrix([dict(zip([f.key for f in spec.policy_fields], row)) for row in case["policy"]])
    mode = MODES[case["mode"]]
    sums = engine.simulate(spec, rules, policy, case["players"], mode, case["seed"], 0, case["count"])
    assert digest(sums) == case["digest"], case["label"]
