"""One conformance test for every registered game and mode (in the manner of pgx's and
OpenSpiel's shared game tests): whatever a game is, its kernel must

- resume a stopped run exactly where it stopped (a finished prefix, then the rest);
- refuse rule and policy values outside what its fields allow;
- conserve what its outcomes declare conserved (chips: every hand's or game's nets sum to
  zero over the seats, or balance a pool that carries on);

and (in ``test_conformance.py``) give the same sums for any thread count and any cut of
the hands into blocks, pieces or jobs, equal its plain-Python twin on the same streams and
keep its unsigned quantities non-negative.

A new game registered in ``sims.registry`` is checked by this file without a line added."""

from __future__ import annotations

import numpy as np
import pytest

from sims import engine
from sims.registry import GAMES
from sims.spec import MODE_NAMES, Mode, check_policy_values, check_rule_values

CASES = [(name, mode) for name, spec in GAMES.items() for mode in spec.outcomes]
IDS = [f"{name}-{MODE_NAMES[mode]}" for name, mode in CASES]
COUNT = {Mode.HANDS: 600, Mode.GAMES: 24}  # small: the twin plays them too


def _table(name: str):
    spec = GAMES[name]
    players = spec.default_players
    return spec, spec.default_rules(), spec.default_policy(players), players


def _combined(spec, mode, parts):
    total = parts[0]
    for part in parts[1:]:
        total = spec.outcomes[mode].combine(total, part)
    return total


def _equal(a, b) -> bool:
    return np.array_equal(np.asarray(a, dtype=object), np.asarray(b, dtype=object))


@pytest.mark.parametrize("name,mode", CASES, ids=IDS)
def test_a_stopped_run_resumes_exactly(name, mode):
    """A stop after two pieces: the run raises Stopped with a finished prefix, and that
    prefix plus the rest played apart gives the whole run's sums."""
    spec, rules, policy, players = _table(name)
    count = 3 * engine.FIRST_PIECE  # more than two pieces, whatever speed is known
    whole = engine.simulate(spec, rules, policy, players, mode, 3, 0, count)
    asked = [0]

    def stop() -> bool:  # stop after the first pieces
        asked[0] += 1
        return asked[0] > 2

    with pytest.raises(engine.Stopped) as stopped:
        engine.play_jobs(spec, [(rules, policy, 0, count)], players, mode, 3, threads=1, stop=stop, piece_seconds=1e-6)
    prefix, played = stopped.value.sums[0], stopped.value.played[0]
    assert 0 < played < count
    rest = engine.simulate(spec, rules, policy, players, mode, 3, played, count - played)
    assert _equal(_combined(spec, mode, [prefix, rest]), whole)


@pytest.mark.parametrize("name", list(GAMES))
def test_rule_and_policy_values_outside_their_fields_are_refused(name):
    """The game's own checks (which guard every direct call of a kernel) refuse a rule code
    past its field and a policy value past its range; the defaults pass."""
    spec, rules, policy, players = _table(name)
    check_rule_values(rules)
    check_policy_values(spec.policy_fields, policy, players)
    for index, field in enumerate(spec.rules):
        bad = list(rules)
        bad[index] = len(field.choices) if field.kind == "choice" else 2 if field.kind == "bool" else field.hi + 1
        with pytest.raises(ValueError):
            check_rule_values(spec.rules_type(*bad))
    for column, field in enumerate(spec.policy_fields):
        bad_policy = np.array(policy, dtype=np.float64, copy=True)
        bad_policy[0, column] = field.hi + 1
        with pytest.raises(ValueError):
            check_policy_values(spec.policy_fields, bad_policy, players)


CONSERVING = [(name, mode) for name, mode in CASES if GAMES[name].outcomes[mode].conserved]


@pytest.mark.parametrize("name,mode", CONSERVING, ids=[f"{name}-{MODE_NAMES[mode]}" for name, mode in CONSERVING])
def test_conserved_quantities_balance_in_every_hand_and_game(name, mode):
    """Hand by hand (or game by game), under the standard rules and every variant."""
    spec = GAMES[name]
    outcomes = spec.outcomes[mode]
    moved = 0
    for variant in spec.variants.values():
        players = variant.players or spec.default_players
        rules = spec.default_rules()._replace(**variant.rules)
        policy = spec.default_policy(players, variant.policy or "default")
        for index in range(40 if mode == Mode.HANDS else 20):
            sums = outcomes.decode(engine.simulate(spec, rules, policy, players, mode, 9, index, 1))
            for column, balance in outcomes.conserved.items():
                seats = [int(value) for value in sums[:players, outcomes.seat.index(column)]]
                left = int(sums[players, outcomes.table.index(balance)]) if balance else 0
                assert sum(seats) + left == 0, (variant, index, column, seats, left)
                moved += any(seats)
    assert moved, "no hand moved a conserved quantity: the check would pass whatever the kernel does"
