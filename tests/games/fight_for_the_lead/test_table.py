"""Fight for the Lead's strategy tables (sims.games.fight_for_the_lead.table): stacked hands
where a table decides (kernel and twin), the cells as a player reads them, the kernel's
tables against the twin in every mode, and what a solve sweep from the default profile
finds."""

from __future__ import annotations

import shlex
from itertools import combinations

import numpy as np
import pytest

import sims.games.fight_for_the_lead.twin as twin
from sims import advice as shared
from sims import situations, solve
from sims.core.advice import ACCEPTED
from sims.core.cards import parse_cards
from sims.core.rng import Stream
from sims.core.table import left_out, with_tables
from sims.core.tricks import ACE_HIGH_BIT
from sims.engine import simulate
from sims.games.fight_for_the_lead import Rules, stacked
from sims.games.fight_for_the_lead import advice as ffl_advice
from sims.games.fight_for_the_lead.kernel import fight_cell_nb, stay_cell_nb
from sims.games.fight_for_the_lead.table import (
    DROP,
    FIGHT_SHAPES,
    STAY,
    STAY_SHAPES,
    TABLES,
    fight_cell,
    policy_table,
    stay_cell,
)
from sims.registry import GAMES
from sims.spec import Mode
from tests.games.advice_twin import twin_advice

SPEC = GAMES["fight-for-the-lead"]
N_FIELDS = len(SPEC.policy_fields)
IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
play_dealt = twin.play_dealt  # rebound per test by the `implementation` fixture (conftest.py)
STAY_TABLE, FIGHT_TABLE = TABLES
LOWEST, HIGHEST, HIGHEST_NON_ACE, LONGEST = range(4)
R = Rules()


def only(decision, cells: dict) -> np.ndarray:
    """A table of ``decision`` holding the given cells (``{cell fields: action or mix}``), the rest left out."""
    table = left_out(decision)
    index = decision.cell_index()
    for fields, action in cells.items():
        row = np.zeros(decision.n_actions)
        if isinstance(action, int):
            row[action] = 1.0
        else:
            row[:] = action
        table[index[fields]] = row
    return table


def everywhere(decision, action) -> np.ndarray:
    table = np.zeros((decision.n_cells, decision.n_actions))
    table[:, action] = 1.0
    return table


def matrix(n, tables: dict, **fields) -> np.ndarray:
    policy = SPEC.default_policy(n)
    for key, value in fields.items():
        policy[:, [f.key for f in SPEC.policy_fields].index(key)] = value
    return with_tables(policy, N_FIELDS, TABLES, tables)


def deal(*hands, rest="") -> list[int]:
    """The stacked pack of a deal by dealer seat n-1: draw k goes to seat k mod n, so the
    hands are interleaved card by card; ``rest`` follows (the fight's turned cards, the
    replacements)."""
    cards = [parse_cards(hand) for hand in hands]
    return [cards[s][k] for k in range(4) for s in range(len(hands))] + parse_cards(rest)


# Seat 0 holds Ac Kc 5d 2h (aces 1, kings 1, longest 2); the fight turns 9s first, which
# only seat 1's spades match.
HANDS4 = deal("Ac Kc 5d 2h", "3s 4s 6s 7s", "8d 9d Td Jd", "2c 3c 4c 6c", rest="9s Qh Qd Qs Qc")


# ---------------------------------------------------------------------------------------
# Stacked hands: the table decides, on the kernel and on the twin


@pytest.mark.usefixtures("implementation")
def test_a_fight_table_cell_overrides_the_policy():
    # The policy lays the lowest card (2h); seat 0's table, in its cell, the highest (Ac).
    res = play_dealt(R, matrix(4, {}), 4, HANDS4)
    assert res["fight"][0] == parse_cards("2h")[0]
    tables = {0: {"fight_card": only(FIGHT_TABLE, {("1", "1", "2"): HIGHEST})}}
    res = play_dealt(R, matrix(4, tables), 4, HANDS4)
    assert res["fight"] == parse_cards("Ac 3s 8d 2c")
    assert res["lead"] == 1  # the 9s turned: seat 1's 3s is the only spade


@pytest.mark.usefixtures("implementation")
def test_a_left_out_cell_falls_back_to_the_policy():
    # The table holds a cell seat 0's hand is not in: its policy (highest-non-ace) lays the Kc.
    tables = {0: {"fight_card": only(FIGHT_TABLE, {("0", "0", "4"): HIGHEST})}}
    res = play_dealt(R, matrix(4, tables, fight_card=HIGHEST_NON_ACE), 4, HANDS4)
    assert res["fight"][0] == parse_cards("Kc")[0]


@pytest.mark.usefixtures("implementation")
def test_stay_tables_override_the_policy_in_a_later_hand():
    # Seat 1 (4s 6s 7s Qd after fighting with the 3s; won the fight) stays by its policy
    # (stay_with_lead); its table drops in every cell.  Seat 2 (9d Td Jd Qs: strength 0)
    # drops by its policy; its table stays with strength 0 and no lead.  Seat 3 plays a
    # table that leaves every cell out: its policy decides (strength 0: drop).  Seat 0
    # (Ac Kc 5d Qh: strength 3) stays.
    tables = {
        1: {"stay": everywhere(STAY_TABLE, DROP)},
        2: {"stay": only(STAY_TABLE, {("0", "0", "no"): STAY})},
        3: {"stay": left_out(STAY_TABLE)},
    }
    res = play_dealt(R, matrix(4, {}), 4, HANDS4)
    assert res["playing"] == [1, 1, 0, 0]
    res = play_dealt(R, matrix(4, tables), 4, HANDS4)
    assert res["playing"] == [1, 0, 1, 0]
    # In a compulsory hand nobody decides: everyone plays, whatever the tables say.
    assert play_dealt(R, matrix(4, tables), 4, HANDS4, compulsory=True)["playing"] == [1, 1, 1, 1]


def _streams_by_first_draw():
    """Two streams, the first drawing u < 0.5 and the second u >= 0.5."""
    below = next(i for i in range(100) if Stream(5, i).uniform() < 0.5)
    above = next(i for i in range(100) if Stream(5, i).uniform() >= 0.5)
    return Stream(5, below), Stream(5, above)


@pytest.mark.usefixtures("implementation")
def test_a_mixed_cell_draws_one_uniform_from_the_stream():
    tables = {0: {"fight_card": only(FIGHT_TABLE, {("1", "1", "2"): [0.5, 0.5, 0.0, 0.0]})}}
    for stream, card in zip(_streams_by_first_draw(), ("2h", "Ac")):  # lowest when u < 0.5, else highest
        after = Stream(0, 0)
        after.s = list(stream.s)
        after.uniform()  # the one draw of the mixed cell (a stacked pack draws nothing)
        assert play_dealt(R, matrix(4, tables), 4, HANDS4, stream=stream)["fight"][0] == parse_cards(card)[0]
        assert stream.s == after.s
    stays = {2: {"stay": only(STAY_TABLE, {("0", "0", "no"): [0.5, 0.5]})}}
    for stream, playing in zip(_streams_by_first_draw(), (1, 0)):
        assert play_dealt(R, matrix(4, stays), 4, HANDS4, stream=stream)["playing"][2] == playing


# ---------------------------------------------------------------------------------------
# Cells


def test_the_cells_list_every_shape_four_cards_can_have():
    stay, fight = set(), set()
    for hand in combinations(range(52), 4):
        aces = sum(c % 13 == 0 for c in hand)
        kings = sum(c % 13 == 12 for c in hand)
        guarded = sum(c % 13 == 12 and sum(d // 13 == c // 13 for d in hand) >= 2 for c in hand)
        stay.add((aces, guarded))
        fight.add((aces, kings, max(sum(c // 13 == s for c in hand) for s in range(4))))
    assert set(STAY_SHAPES) == stay and set(FIGHT_SHAPES) == fight
    assert STAY_TABLE.n_cells == 24 and FIGHT_TABLE.n_cells == 40


def test_cells_of_literal_hands_kernel_and_twin():
    cases = [
        ("Ah Kh 5c 9d", False, ("1", "1", "no"), ("1", "1", "2")),
        ("Ks 2c 3d 4h", True, ("0", "0", "yes"), ("0", "1", "1")),
        ("Ac Ad As Kc", False, ("3", "1", "no"), ("3", "1", "2")),
        ("5s 6s 7s 8s", True, ("0", "0", "yes"), ("0", "0", "4")),
    ]
    for hand, won, stay_fields, fight_fields in cases:
        cards = parse_cards(hand)
        bits = np.uint64(sum(1 << int(ACE_HIGH_BIT[c]) for c in cards))
        assert STAY_TABLE.cells[twin.stay_cell_of(cards, won)] == stay_fields
        assert FIGHT_TABLE.cells[twin.fight_cell_of(cards)] == fight_fields
        assert stay_cell_nb(bits, won) == twin.stay_cell_of(cards, won)
        assert fight_cell_nb(bits) == twin.fight_cell_of(cards)
    assert stay_cell(2, 1, True) == STAY_TABLE.cell_index()[("2", "1", "yes")]
    assert fight_cell(4, 0, 1) == FIGHT_TABLE.cell_index()[("4", "0", "1")]


def test_the_policy_as_a_table():
    default = policy_table(R, SPEC.default_policy(4)[0], 0, 4, "stay")  # stay on strength 1, or with the lead
    drops = [STAY_TABLE.cells[c] for c in range(STAY_TABLE.n_cells) if default[c, DROP] == 1.0]
    assert drops == [("0", "0", "no")]
    row = SPEC.default_policy(4)[0].copy()
    row[[f.key for f in SPEC.policy_fields].index("stay_min_strength")] = 3
    row[[f.key for f in SPEC.policy_fields].index("stay_with_lead")] = 0
    three = policy_table(R, row, 0, 4, "stay")
    stays = {(int(a), int(g)) for a, g, _ in (STAY_TABLE.cells[c] for c in range(24) if three[c, STAY] == 1.0)}
    assert stays == {(a, g) for a, g in STAY_SHAPES if 2 * a + g >= 3}
    fight = policy_table(R, SPEC.default_policy(4, "fight-high")[0], 0, 4, "fight_card")
    assert (fight[:, HIGHEST_NON_ACE] == 1.0).all() and fight.sum() == FIGHT_TABLE.n_cells


# ---------------------------------------------------------------------------------------
# Kernel against twin, every mode


def _mixed_tables(rng, n):
    tables = {}
    for seat in range(n):
        chosen = {}
        for decision in TABLES:
            table = rng.choice([0.0, 1.0, 0.5], size=(decision.n_cells, decision.n_actions))
            table[table.sum(axis=1) == 0, 0] = 1.0
            table /= table.sum(axis=1, keepdims=True)
            table[rng.random(decision.n_cells) < 0.2] = -1.0  # some cells left out
            chosen[decision.name] = table
        tables[seat] = chosen
    return tables


@pytest.mark.parametrize("mode,count", [(Mode.HANDS, 300), (Mode.GAMES, 30)], ids=["hands", "games"])
def test_mixed_tables_kernel_equals_twin(mode, count):
    rng = np.random.default_rng(8)
    for trial, rules in enumerate((R, Rules(trade_order=1, all_drop=1), Rules(sample_hand=1, max_hands=20))):
        n = 3 + trial
        policy = with_tables(SPEC.default_policy(n), N_FIELDS, TABLES, _mixed_tables(rng, n))
        got = simulate(SPEC, rules, policy, n, mode, trial, 3, count, threads=2)
        assert np.array_equal(got, twin.simulate(rules, policy, n, mode, trial, 3, count))
        assert not np.array_equal(got, simulate(SPEC, rules, SPEC.default_policy(n), n, mode, trial, 3, count))


def _example(decision):
    words = shlex.split(decision.example)
    options, context = {}, {}
    for flag, value in zip(words[3::2], words[4::2]):
        if flag == "--context":
            key, text = value.split("=", 1)
            context[key] = text
        else:
            options[flag] = value
    n = int(options["--players"])
    return n, situations.situation(SPEC, R, n, int(options["--position"]), parse_cards(options["--holding"]), context)


@pytest.mark.parametrize("decision", ffl_advice.DECISIONS, ids=[d.name for d in ffl_advice.DECISIONS])
def test_advice_with_tables_kernel_equals_twin(decision):
    n, situation = _example(decision)
    rng = np.random.default_rng(6)
    # Pure tables for the other seats' fight cards (their policy's, so the history's
    # rejection still keeps deals), mixed stay tables everywhere.
    tables = _mixed_tables(rng, n)
    for seat in range(n):
        tables[seat]["fight_card"] = everywhere(FIGHT_TABLE, LOWEST)
    policy = with_tables(SPEC.default_policy(n), N_FIELDS, TABLES, tables)
    got = shared.simulate_advice(SPEC, R, policy, n, situation, 11, 0, 300)
    assert got == twin_advice(SPEC, R, policy, n, situation, 11, 0, 300)
    assert got[ACCEPTED] > 0


# ---------------------------------------------------------------------------------------
# Solve


def _margin(sums, seat, code, a, b, n_actions):
    """Mean net of action a minus action b in a cell, and its paired standard error."""
    visits = sums[seat, code, 0]
    mean_a, mean_b = sums[seat, code, 1 + 2 * a] / visits, sums[seat, code, 1 + 2 * b] / visits
    cross = sums[seat, code, 1 + 2 * n_actions + a * n_actions + b]
    second = (sums[seat, code, 2 + 2 * a] - 2 * cross + sums[seat, code, 2 + 2 * b]) / visits
    return mean_a - mean_b, np.sqrt((second - (mean_a - mean_b) ** 2) / visits)


def test_a_stay_sweep_from_the_default_profile():
    """From the default field at 4 players (stay on strength 1, or with the lead), one
    sweep of 4,000 later hands: holding two aces, staying beats dropping by far (two sure
    tricks, half the pot); with nothing (no ace, no guarded king) and no lead, dropping
    beats staying (a player without a trick pays the whole pot)."""
    n = 4
    profile = with_tables(
        SPEC.default_policy(n),
        N_FIELDS,
        TABLES,
        {s: {"stay": t} for s, t in solve.policy_tables(SPEC, R, SPEC.default_policy(n), n, "stay").items()},
    )
    sums = solve.simulate_solve(SPEC, R, profile, n, "stay", 0, 0, 4000)
    index = STAY_TABLE.cell_index()
    margin, se = _margin(sums, 0, index[("2", "0", "no")], STAY, DROP, 2)
    assert margin > 3 * se, (margin, se)
    margin, se = _margin(sums, 0, index[("0", "0", "no")], DROP, STAY, 2)
    assert margin > 3 * se, (margin, se)
    assert sums[:, :, 0].sum() == n * 4000  # every seat decides in every later hand
