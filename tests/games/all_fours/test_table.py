"""All-Fours strategy tables (sims/games/all_fours/table.py): the cells, stacked deals where
a table decides the beg or the give (kernel and twin), mixed cells, the policy as a table,
tables in game mode and in advice (kernel == twin), and the solve kernel."""

from __future__ import annotations

import numpy as np
import pytest

import sims.games.all_fours.twin as twin
from sims import solve
from sims.advice import simulate_advice
from sims.core.advice import ACCEPTED, TRIED
from sims.core.cards import parse_cards
from sims.core.rng import Stream
from sims.core.table import left_out, pure, with_tables
from sims.core.tricks import ACE_HIGH_BIT
from sims.engine import simulate
from sims.games.all_fours import SPEC, Rules, stacked
from sims.games.all_fours.kernel import table_cell_nb
from sims.games.all_fours.table import BEG, GIVE, N_CELLS, RUN, STAND, TABLES, cell_code, policy_table
from sims.situations import situation as core_situation
from sims.spec import Mode
from tests.games.advice_twin import twin_advice

IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
play_dealt = twin.play_dealt  # rebound per test by the `implementation` fixture (conftest.py)

BEG_TABLE, GIVE_TABLE = TABLES
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
N_FIELDS = len(SPEC.policy_fields)


def deal(e, d, up, *rounds):
    """The stacked pack: E's and D's six cards (3 E, 3 D, 3 E, 3 D), the turn-up, then per
    run round (E's three, D's three, the turn-up)."""
    e, d = parse_cards(e), parse_cards(d)
    out = e[:3] + d[:3] + e[3:] + d[3:] + parse_cards(up)
    for re_, rd, ru in rounds:
        out += parse_cards(re_) + parse_cards(rd) + parse_cards(ru)
    assert len(set(out)) == len(out)
    return out


def cell(strength, jack):
    """The declared code of the cell (strength, jack)."""
    return BEG_TABLE.cell_index()[(str(strength), "yes" if jack else "no")]


def table(decision, cells):
    """A table of ``decision`` holding ``cells[code] = action or [probabilities]``, the rest left out."""
    out = left_out(decision)
    for code, action in cells.items():
        out[code] = np.eye(2)[action] if isinstance(action, int) else action
    return out


def tabled(tables, policy=None):
    """The default policy of both seats widened with ``tables`` ({seat: {decision: array}})."""
    policy = SPEC.default_policy(2) if policy is None else policy
    return with_tables(policy, N_FIELDS, TABLES, tables)


# The elder holds Ah Kh 5h (hearts strength 4 + 3 + 1 = 8, no jack); the turn-up is 4h; the
# dealer holds no heart (strength 0).  The default policy stands (8 >= beg_below 3), and
# after a beg runs (0 < give_at_least 4); the run turns up 8c (clubs are trump).
ELDER_HAND, DEALER_HAND, TURNUP = "Ah Kh 5h 9c 2d 7s", "Qc Jc 3d 8d Ts 6s", "4h"
PACK = deal(ELDER_HAND, DEALER_HAND, TURNUP, ("2c 3c 4c", "5c 6c 7c", "8c"))


# ---- Cells ----


@pytest.mark.parametrize(
    "cards, suit, strength, jack",
    [
        ("Ah Jh 3h 9c 2d Ks", HEARTS, 7, True),  # A 4 + J 2 + 3 1
        ("Ah Kh Qh Jh Th 2h", HEARTS, 14, True),  # the most: 4 + 3 + 2 + 2 + 2 + 1
        ("Ah Kh Qh Th 3h 2h", HEARTS, 13, False),  # the most without the jack
        ("Jd 2c 3c 4c 5c 6c", DIAMONDS, 2, True),  # the jack alone
        ("Jd 2c 3c 4c 5c 6c", CLUBS, 5, False),  # five small clubs; the jack of diamonds is no club
        ("Jd 2c 3c 4c 5c 6c", SPADES, 0, False),
        ("Qs Ts 9s 8h 7h 6h", SPADES, 5, False),  # Q 2 + 10 2 + 9 1; the hearts do not count
    ],
)
def test_a_hand_classifies_to_its_strength_and_jack(cards, suit, strength, jack):
    codes = parse_cards(cards)
    expected = cell(strength, jack)
    assert BEG_TABLE.cells[expected] == (str(strength), "yes" if jack else "no")
    assert cell_code(strength, jack) == expected
    assert twin.table_cell(codes, suit) == expected
    mask = np.uint64(sum(1 << int(ACE_HIGH_BIT[c]) for c in codes))
    assert table_cell_nb(mask, suit) == expected


def test_the_cells_are_every_reachable_strength_with_and_without_the_jack():
    assert N_CELLS == 27 and BEG_TABLE.cells == GIVE_TABLE.cells
    assert [c for c in BEG_TABLE.cells if c[1] == "no"] == [(str(s), "no") for s in range(14)]
    assert [c for c in BEG_TABLE.cells if c[1] == "yes"] == [(str(s), "yes") for s in range(2, 15)]
    assert BEG_TABLE.actions == ("stand", "beg") and GIVE_TABLE.actions == ("give", "run")
    assert "score 8" in BEG_TABLE.describe(("8", "no")) and "jack" in GIVE_TABLE.describe(("8", "yes"))


def test_the_policy_as_a_table_begs_below_and_gives_at_least_whatever_the_jack():
    row = SPEC.default_policy(2)[0]  # beg_below 3, give_at_least 4
    beg = policy_table(Rules(), row, 0, 2, "beg")
    give = policy_table(Rules(), row, 1, 2, "give")
    begging = {BEG_TABLE.cells[c] for c in range(N_CELLS) if beg[c, BEG] == 1.0}
    assert begging == {("0", "no"), ("1", "no"), ("2", "no"), ("2", "yes")}
    running = {GIVE_TABLE.cells[c] for c in range(N_CELLS) if give[c, RUN] == 1.0}
    assert running == {("0", "no"), ("1", "no"), ("2", "no"), ("3", "no"), ("2", "yes"), ("3", "yes")}
    assert np.array_equal(beg.sum(axis=1), np.ones(N_CELLS)) and np.array_equal(give.sum(axis=1), np.ones(N_CELLS))
    with pytest.raises(ValueError, match="no table decision 'lead'"):
        policy_table(Rules(), row, 0, 2, "lead")


# ---- Stacked deals: a table decides (kernel and twin) ----


@pytest.mark.usefixtures("implementation")
def test_without_tables_the_elder_stands_on_strength_eight():
    res = play_dealt(Rules(), SPEC.default_policy(2), PACK)
    assert (res["begged"], res["trump"]) == (0, HEARTS)


@pytest.mark.usefixtures("implementation")
def test_the_elder_s_table_begs_where_its_policy_stands_and_the_dealer_runs_by_its_policy():
    res = play_dealt(Rules(), tabled({0: {"beg": table(BEG_TABLE, {cell(8, False): BEG})}}), PACK)
    assert (res["begged"], res["gave"], res["ran"], res["rounds"], res["trump"]) == (1, 0, 1, 1, CLUBS)
    assert res["turnups"] == parse_cards("4h 8c")


@pytest.mark.usefixtures("implementation")
def test_the_dealer_s_table_gives_where_its_policy_runs():
    tables = {
        0: {"beg": table(BEG_TABLE, {cell(8, False): BEG})},
        1: {"give": table(GIVE_TABLE, {cell(0, False): GIVE})},
    }
    res = play_dealt(Rules(), tabled(tables), PACK)
    assert (res["begged"], res["gave"], res["ran"], res["trump"]) == (1, 1, 0, HEARTS)
    assert res["gift"] == [1, 0] and res["points"][0] >= 1


@pytest.mark.usefixtures("implementation")
def test_a_cell_the_table_leaves_out_falls_back_to_the_policy():
    # the elder's table speaks for strength 9 only; at 8 beg_below decides (stand), and
    # with beg_below 9 it begs (8 < 9)
    only_nine = {0: {"beg": table(BEG_TABLE, {cell(9, False): BEG, cell(8, True): BEG})}}
    assert play_dealt(Rules(), tabled(only_nine), PACK)["begged"] == 0
    policy = SPEC.default_policy(2)
    policy[0, 0] = 9
    assert play_dealt(Rules(), tabled(only_nine, policy), PACK)["begged"] == 1
    # a table of the other seat (seat 1 is the dealer here) does not play for the elder
    assert play_dealt(Rules(), tabled({1: {"beg": table(BEG_TABLE, {cell(8, False): BEG})}}), PACK)["begged"] == 0


@pytest.mark.usefixtures("implementation")
def test_a_forced_run_ignores_the_dealer_s_table():
    # the elder at 10 of 11: a gift would win it the game, so the dealer must run (gift_cannot_win)
    tables = {
        0: {"beg": table(BEG_TABLE, {cell(8, False): BEG})},
        1: {"give": table(GIVE_TABLE, {cell(0, False): GIVE})},
    }
    res = play_dealt(Rules(), tabled(tables), PACK, scores=(10, 0))
    assert (res["begged"], res["gave"], res["ran"]) == (1, 0, 1)


@pytest.mark.usefixtures("implementation")
def test_a_mixed_cell_draws_one_uniform_from_the_deal_s_stream():
    # a stacked deal draws from stream (0, 0): the first uniform there decides
    u = Stream(0, 0).uniform()
    assert 0.0 < u < 1.0
    for stand, begged in ((u + 1e-9, 0), (u - 1e-9, 1)):  # stand when u < P(stand)
        mix = {0: {"beg": table(BEG_TABLE, {cell(8, False): [stand, 1.0 - stand]})}}
        assert play_dealt(Rules(), tabled(mix), PACK)["begged"] == begged, (u, stand)
    # the elder plays its table in any seat: as seat 1 (seat 0 deals)
    mix = {1: {"beg": table(BEG_TABLE, {cell(8, False): [u - 1e-9, 1.0 - u + 1e-9]})}}
    assert play_dealt(Rules(), tabled(mix), PACK, dealer=0)["begged"] == 1


# ---- Random tables: kernel == twin in hands, games and advice ----


def random_tables(rng, mixed):
    out = {}
    for seat in range(2):
        out[seat] = {}
        for decision in TABLES:
            probabilities = left_out(decision)
            for c in range(N_CELLS):
                roll = rng.random()
                if roll < 0.2:
                    continue  # left out
                if mixed and roll < 0.5:
                    p = rng.random()
                    probabilities[c] = (p, 1.0 - p)
                else:
                    probabilities[c] = np.eye(2)[rng.integers(0, 2)]
            out[seat][decision.name] = probabilities
    return out


@pytest.mark.parametrize("mode, count", [(Mode.HANDS, 400), (Mode.GAMES, 25)], ids=["hands", "games"])
def test_mixed_tables_of_both_decisions_kernel_equals_twin(mode, count):
    rng = np.random.default_rng(5)
    for trial, rules in enumerate((Rules(), Rules(gift_then=1, after_run=2, bunch=True, target=7))):
        policy = tabled(random_tables(rng, mixed=True))
        sums = simulate(SPEC, rules, policy, 2, mode, trial, 0, count)
        assert np.array_equal(sums, twin.simulate(rules, policy, 2, mode, trial, 0, count))
        assert not np.array_equal(sums, simulate(SPEC, rules, SPEC.default_policy(2), 2, mode, trial, 0, count))


@pytest.mark.parametrize(
    "position, holding, context",
    [
        (1, "Kd 2d 8c Jc 3h 6s", {"turnup": "9d"}),  # the elder's (mixed) beg table is conditioned on
        (0, "Jh 10h 2h Ac 10c 5d", {"turnup": "3h", "elder": "given"}),  # the dealer's give table
        (0, "Ah 7h 3c 9d Qs 4s", {"turnup": "5h", "score": "4", "opponent_score": "6"}),  # the game after
    ],
)
def test_advice_field_seats_play_their_tables_kernel_equals_twin(position, holding, context):
    rules = Rules()
    found = core_situation(SPEC, rules, 2, position, parse_cards(holding), context)
    policy = tabled(random_tables(np.random.default_rng(9), mixed=True))
    flat = simulate_advice(SPEC, rules, policy, 2, found, 3, 0, 300)
    assert flat == twin_advice(SPEC, rules, policy, 2, found, 3, 0, 300)
    assert flat[ACCEPTED] > 0 and flat[TRIED] == 300
    assert flat != simulate_advice(SPEC, rules, SPEC.default_policy(2), 2, found, 3, 0, 300)


def test_the_give_advice_keeps_only_deals_where_the_elder_s_table_begs():
    found = core_situation(SPEC, Rules(), 2, 1, parse_cards("Kd 2d 8c Jc 3h 6s"), {"turnup": "9d"})
    never = tabled({0: {"beg": pure(BEG_TABLE, [STAND] * N_CELLS)}})
    assert simulate_advice(SPEC, Rules(), never, 2, found, 3, 0, 200)[ACCEPTED] == 0
    always = tabled({0: {"beg": pure(BEG_TABLE, [BEG] * N_CELLS)}})
    assert simulate_advice(SPEC, Rules(), always, 2, found, 3, 0, 200)[ACCEPTED] == 200


# ---- The solve kernel ----


def test_solve_records_both_actions_of_each_visit_as_net_points():
    """The beg is visited once every deal (by seat 0); each action's sum is hand mode's net
    points of the profile that always takes it (here every play is pure, so a forced
    replay is that profile's deal); against a dealer who always gives, a beg is the gift
    and then the same play as a stand: exactly one net point more in every deal."""
    rules = Rules()
    policy = SPEC.default_policy(2, "always-give")
    count = 200
    sums = solve.simulate_solve(SPEC, rules, policy, 2, "beg", 21, 0, count)
    assert sums[0, :, 0].sum() == count and sums[1].sum() == 0  # every deal visits seat 0's beg once
    # the profile's own action in each deal is hand mode's deal; check the totals
    begging = SPEC.default_policy(2, "always-give")
    begging[0, 0] = 15
    standing = SPEC.default_policy(2, "always-give")
    standing[0, 0] = 0
    for action, profile in ((STAND, standing), (BEG, begging)):
        hands = simulate(SPEC, rules, profile, 2, Mode.HANDS, 21, 0, count)
        net = hands[0, 0] - hands[1, 0]  # "points" is the first seat column
        assert sums[0, :, 1 + 2 * action].sum() == net
    # against a dealer who always gives, a beg is the gift plus the same play: exactly +1 net
    assert sums[0, :, 1 + 2 * BEG].sum() - sums[0, :, 1 + 2 * STAND].sum() == count


def test_solve_of_the_give_visits_only_deals_where_the_elder_begs():
    rules = Rules()
    policy = SPEC.default_policy(2)
    sums = solve.simulate_solve(SPEC, rules, policy, 2, "give", 4, 0, 500)
    hands = simulate(SPEC, rules, policy, 2, Mode.HANDS, 4, 0, 500)
    begged = hands[2, SPEC.outcomes[Mode.HANDS].table.index("begged")]
    assert sums[1, :, 0].sum() == begged > 0 and sums[0].sum() == 0
    assert np.array_equal(sums, solve.twin_solve(SPEC, rules, policy, 2, "give", 4, 0, 500))
