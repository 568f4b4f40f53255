"""Spoil Five's strategy tables (sims.games.spoil_five.table; the package docstring's
"Strategy tables"): stacked deals where a rob or jinx table decides, on the kernel and the
twin; the cells hand-derived from the cards; the solve's sanity from the default profile.

Deals and trick notation as tests/games/spoil_five/test_rules.py (its helpers are reused):
``deal(hands, up)`` stacks each seat's five cards (the dealer is seat n-1, seat 0 leads).
"""

from __future__ import annotations

import numpy as np
import pytest

import sims.games.spoil_five.twin as twin
from sims import solve
from sims.core.rng import Stream
from sims.core.table import LEFT_OUT, left_out, pure, with_tables
from sims.engine import simulate
from sims.games.spoil_five import stacked
from sims.games.spoil_five.table import (
    CLAIM,
    JINX,
    KEEP,
    ROB_ACTION,
    ROLE_DEALER,
    ROLE_ELDEST,
    ROLE_OTHER,
    TABLES,
    jinx_cell,
    policy_table,
    rob_cell,
)
from sims.registry import GAMES
from sims.spec import Mode
from tests.games.spoil_five.test_rules import JX4, JX4_JINX, JX4_T123, R, deal, expect, first_trick, pol, trick

IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
play_dealt = twin.play_dealt  # rebound per test by the `implementation` fixture (conftest.py)

SPEC = GAMES["spoil-five"]
ROB, JINX_DECISION = TABLES
N_FIELDS = 4


def card(text: str) -> int:
    from sims.core.cards import parse_cards

    return parse_cards(text)[0]


def cell_of(decision, *fields) -> int:
    return decision.cells.index(tuple(fields))


def tabled(policy, rob=None, jinx=None, seats=None) -> np.ndarray:
    """``policy`` widened with a rob and / or jinx table (``[cells, 2]`` arrays) for ``seats``
    (default: every seat)."""
    seats = range(len(policy)) if seats is None else seats
    chosen = {"rob": rob, "jinx": jinx}
    tables = {s: {name: t for name, t in chosen.items() if t is not None} for s in seats}
    return with_tables(np.asarray(policy, dtype=np.float64), N_FIELDS, TABLES, tables)


def only(decision, cell: int, action: int) -> np.ndarray:
    """A table with ``action`` in ``cell`` and every other cell left out."""
    actions = [-1] * decision.n_cells
    actions[cell] = action
    return pure(decision, actions)


def all_but(decision, cell: int, action: int, elsewhere: int) -> np.ndarray:
    actions = [elsewhere] * decision.n_cells
    actions[cell] = action
    return pure(decision, actions)


def play(policy, cards, rules=R):
    return play_dealt(rules, policy, cards)


# ----------------------------------------------------------------------------------------
# The cells, hand-derived


def test_declared_cells_and_their_codes():
    assert ROB.n_cells == 6 + 5 * 5 * 3 and JINX_DECISION.n_cells == 9
    assert ROB.actions == ("rob", "keep") and JINX_DECISION.actions == ("jinx", "claim")
    # the dealer of a turned ace by its trumps; the holder by turn-up class, trumps, role
    assert rob_cell(True, 0) == cell_of(ROB, "A", "0", "dealer")
    assert rob_cell(True, 5) == cell_of(ROB, "A", "5", "dealer")
    # 7s: black trump order 4 (10 9 8 7): low; 2s: order 8: mid; 10d: red order 8: mid; 7d: order 5: low
    assert rob_cell(False, 1, card("7s"), ROLE_OTHER) == cell_of(ROB, "low", "1", "other")
    assert rob_cell(False, 3, card("2s"), ROLE_ELDEST) == cell_of(ROB, "mid", "3", "eldest")
    assert rob_cell(False, 2, card("10d"), ROLE_DEALER) == cell_of(ROB, "mid", "2", "dealer")
    assert rob_cell(False, 2, card("7d"), ROLE_DEALER) == cell_of(ROB, "low", "2", "dealer")
    assert rob_cell(False, 5, card("5h"), ROLE_ELDEST) == cell_of(ROB, "5", "5", "eldest")
    assert rob_cell(False, 4, card("Jc"), ROLE_OTHER) == cell_of(ROB, "J", "4", "other")
    assert rob_cell(False, 1, card("Qd"), ROLE_OTHER) == cell_of(ROB, "KQ", "1", "other")
    assert jinx_cell(2, 0) == cell_of(JINX_DECISION, "2", None)
    assert jinx_cell(0, 0) == cell_of(JINX_DECISION, "0", "trump1")
    assert jinx_cell(1, 3) == cell_of(JINX_DECISION, "1", "plain")
    assert "ace of trumps" in ROB.describe(ROB.cells[10]) and "sure" in JINX_DECISION.describe(("1", "trump2"))


def test_policy_tables_write_the_policy_fields():
    rob_all = policy_table(R, [1, 2, 1, 1], 0, 5, "rob")
    assert (rob_all[:, ROB_ACTION] == 1).all() and (rob_all[:, KEEP] == 0).all()
    assert (policy_table(R, [0, 2, 1, 1], 0, 5, "rob")[:, KEEP] == 1).all()
    jinx = policy_table(R, [1, 1, 1, 1], 0, 5, "jinx")  # jinx_min 1: jinx with 1 or 2 sure winners
    assert [int(a) for a in jinx.argmax(axis=1)] == [CLAIM] * 4 + [JINX] * 5
    assert (policy_table(R, [1, 0, 1, 1], 0, 5, "jinx")[:, JINX] == 1).all()
    assert (policy_table(R, [1, 3, 1, 1], 0, 5, "jinx")[:, CLAIM] == 1).all()
    with pytest.raises(ValueError, match="no table decision 'cut'"):
        policy_table(R, [1, 2, 1, 1], 0, 5, "cut")


# RH (test_rules): turn-up 7s; H = "As 2h Jd Qd Kd" holds the ace of trumps (1 trump).
RH_H, RH_C, RH_V = "As 2h Jd Qd Kd", "10c 9c 8c 7c 6c", "3h 4h 6h 7h 8h"
RH1 = deal([RH_C, RH_H, RH_V], "7s")  # the holder is seat 1 (neither eldest nor dealer)
RA = deal(["10c 9c 8c 7c 6c", "Kd Qd Jd 10d 9d", "2h 3h 4h 6h 7h"], "As")  # the dealer may rob As


@pytest.mark.parametrize(
    "hands, up, holder, cell",
    [
        ([RH_C, RH_H, RH_V], "7s", 1, ("low", "1", "other")),
        ([RH_H, RH_C, RH_V], "7s", 0, ("low", "1", "eldest")),
        ([RH_C, RH_V, RH_H], "7s", 2, ("low", "1", "dealer")),
        ([RH_C, "As Ah 9s Qd Kd", RH_V], "5s", 1, ("5", "3", "other")),  # Ah is a trump
        ([RH_C, "As Ah 9s Qd Kd", RH_V], "Js", 1, ("J", "3", "other")),
        ([RH_C, "As Ah 9s 8s Kd", RH_V], "Ks", 1, ("KQ", "4", "other")),
        ([RH_C, "As Ah 9s 8s 10s", RH_V], "4s", 1, ("mid", "5", "other")),  # 4s: black order 6
        ([RH_C, "As 2h Jd Qd Kd", RH_V], "6s", 1, ("low", "1", "other")),  # 6s: black order 5
        (["10c 9c 8c 7c 6c", "Ad 2h Js Qs Ks", "3h 4h 6h 7h 8h"], "10d", 1, ("mid", "1", "other")),
        (["10c 9c 8c 7c 6c", "2h 3h 4h 6h 7h", "2d 3d 4d 5d 6d"], "Ad", 2, ("A", "5", "dealer")),
        (["10c 9c 8c 7c 6c", "Kd Qd Jd 10d 9d", "2h 3h 4h 6h Ah"], "Ad", 2, ("A", "1", "dealer")),
    ],
)
@pytest.mark.usefixtures("implementation")
def test_the_rob_is_decided_in_exactly_the_hand_derived_cell(hands, up, holder, cell):
    # keep in that cell alone (the policy robs elsewhere): no rob; keep everywhere but there: a rob
    code = cell_of(ROB, *cell)
    cards = deal(hands, up)
    assert play(tabled(pol(3), rob=only(ROB, code, KEEP)), cards)["robbed_by"] == -1
    assert play(tabled(pol(3, rob=0), rob=all_but(ROB, code, ROB_ACTION, KEEP)), cards)["robbed_by"] == holder
    assert play(tabled(pol(3, rob=0), rob=all_but(ROB, code, KEEP, ROB_ACTION)), cards)["robbed_by"] == -1


# ----------------------------------------------------------------------------------------
# A table decides: a cell's action over the policy, a left-out cell, a mixed cell


@pytest.mark.usefixtures("implementation")
def test_a_rob_table_keeps_where_the_policy_robs():
    # The holder (seat 1, cell low/1/other) keeps: void in clubs it trumps 10c with As (as
    # test_holder_with_rob_0_keeps_its_hand); seat 0's table is irrelevant, its policy robs.
    res = play(tabled(pol(3), rob=only(ROB, cell_of(ROB, "low", "1", "other"), KEEP), seats=[1]), RH1)
    expect(res, robbed_by=-1, discard=-1, held=[RH_C, RH_H, RH_V])
    first_trick(res, trick(0, "0:10c 1:As 2:3h", 1))


@pytest.mark.usefixtures("implementation")
def test_a_rob_table_robs_where_the_policy_keeps():
    # rob 0 in the policy, rob in the table: seat 1 discards 2h, takes 7s and trumps with it.
    res = play(tabled(pol(3, rob=0), rob=only(ROB, cell_of(ROB, "low", "1", "other"), ROB_ACTION)), RH1)
    expect(res, robbed_by=1, discard="2h", held=[RH_C, "As 7s Jd Qd Kd", RH_V])
    first_trick(res, trick(0, "0:10c 1:7s 2:3h", 1))


@pytest.mark.usefixtures("implementation")
def test_the_dealer_of_a_turned_ace_keeps_by_its_table_and_a_left_out_cell_falls_back():
    # RA: the dealer holds no trump (cell A/0/dealer).  Keep there: the ace stays out, 10c wins.
    res = play(tabled(pol(3), rob=only(ROB, cell_of(ROB, "A", "0", "dealer"), KEEP)), RA)
    expect(res, robbed_by=-1, held=["10c 9c 8c 7c 6c", "Kd Qd Jd 10d 9d", "2h 3h 4h 6h 7h"])
    first_trick(res, trick(0, "0:10c 1:9d 2:2h", 0))
    # the same cell left out (keep everywhere else): the policy's rob 1 decides, the dealer robs
    res = play(tabled(pol(3), rob=all_but(ROB, cell_of(ROB, "A", "0", "dealer"), -1, KEEP)), RA)
    expect(res, robbed_by=2, discard="2h")
    first_trick(res, trick(0, "0:10c 1:9d 2:As", 2))


# JX4 (test_rules): E (seat 0) wins tricks 1-3 with 5s Js Ah and keeps Ks Qs; As is in the
# stock, so neither is sure; the weaker, Qs, has one unseen trump above it (As): cell 0/trump1.
JX4_CELL = ("0", "trump1")


@pytest.mark.usefixtures("implementation")
def test_a_jinx_table_jinxes_where_the_policy_claims():
    res = play(tabled(pol(4), jinx=only(JINX_DECISION, cell_of(JINX_DECISION, *JX4_CELL), JINX)), JX4)
    expect(res, tricks=JX4_JINX, jinx_by=0, jinx_made=1, claimed=0, winner=0, net=[12, -4, -4, -4])


@pytest.mark.usefixtures("implementation")
def test_a_jinx_table_claims_where_the_policy_jinxes_and_a_left_out_cell_falls_back():
    code = cell_of(JINX_DECISION, *JX4_CELL)
    res = play(tabled(pol(4, jinx_min=0), jinx=only(JINX_DECISION, code, CLAIM)), JX4)
    expect(res, tricks=JX4_T123, jinx_by=-1, claimed=1, winner=0, net=[6, -2, -2, -2])
    # left out there (claim everywhere else): the policy's jinx_min 0 jinxes
    res = play(tabled(pol(4, jinx_min=0), jinx=all_but(JINX_DECISION, code, -1, CLAIM)), JX4)
    expect(res, tricks=JX4_JINX, jinx_by=0, jinx_made=1)


@pytest.mark.parametrize("margin, jinxes", [(1e-9, True), (-1e-9, False)], ids=["just-above", "just-below"])
@pytest.mark.usefixtures("implementation")
def test_a_mixed_jinx_cell_draws_one_uniform_from_the_deal_stream(margin, jinxes):
    # A stacked deal draws from Stream(0, 0); nothing else draws in JX4 (As is in the stock:
    # no rob), so the jinx cell's uniform is the stream's first: jinx when u < p(jinx).
    u = Stream(0, 0).uniform()
    p = u + margin
    table = left_out(JINX_DECISION)
    table[cell_of(JINX_DECISION, *JX4_CELL)] = [p, 1.0 - p]
    res = play(tabled(pol(4), jinx=table), JX4)
    assert res["jinx_by"] == (0 if jinxes else -1)


@pytest.mark.parametrize(
    "hands, up, policy, cell",
    [
        (JX4, None, pol(4), ("0", "trump1")),
        # E keeps Ks 9s: 9s (black order 2) has 8s 6s 4s 3s 2s Qs As unseen above it
        (["5s Js Ah Ks 9s", "10c 9c 8c Qc Kc", "Ad 2d 3d 4d 5d", "2h 3h 4h 6h 7h"], "7s", pol(4), ("0", "trump3+")),
        # E keeps Jc 2c (JF4): plain cards
        (["5s Js Ah Jc 2c", "10c 9c 8c Qc Kc", "Ad 2d 3d 4d 5d", "2h 3h 4h 6h 7h"], "7s", pol(4), ("0", "plain")),
        # E (rob 0) keeps As Qs: As is sure, Qs has Ks above it
        (
            ["5s Js Ah As Qs", "10c 9c 8c Qc Kc", "Ad 2d 3d 4d 5d", "2h 3h 4h 6h 7h"],
            "7s",
            pol(4, rob=0),
            ("1", "trump1"),
        ),
        # E keeps As Kd: As sure, Kd a plain card
        (
            ["5s Js Ah As Kd", "10c 9c 8c Qc Kc", "Ad 2d 3d 4d 5d", "2h 3h 4h 6h 7h"],
            "7s",
            pol(4, rob=0),
            ("1", "plain"),
        ),
        # JX4 with As turned up, the dealer not robbing: Ks Qs are both sure
        (JX4[:20], "As", pol(4, rob=0), ("2", None)),
    ],
    ids=["trump1", "trump3+", "plain", "sure1-trump1", "sure1-plain", "both-sure"],
)
@pytest.mark.usefixtures("implementation")
def test_the_jinx_is_decided_in_exactly_the_hand_derived_cell(hands, up, policy, cell):
    cards = hands if up is None else (deal(hands, up) if isinstance(hands[0], str) else list(hands) + [card(up)])
    code = cell_of(JINX_DECISION, *cell)
    never = policy.copy()
    never[:, 1] = 3  # jinx_min 3: the policy never jinxes
    assert play(tabled(never, jinx=only(JINX_DECISION, code, JINX)), cards)["jinx_by"] == 0
    assert play(tabled(never, jinx=all_but(JINX_DECISION, code, CLAIM, JINX)), cards)["jinx_by"] == -1
    assert play(tabled(never, jinx=all_but(JINX_DECISION, code, JINX, CLAIM)), cards)["jinx_by"] == 0


# ----------------------------------------------------------------------------------------
# Every mode: mixed tables agree kernel and twin (hands, games)


def mixed_profile(n: int) -> np.ndarray:
    rng = np.random.default_rng(5)
    rob = rng.uniform(size=(ROB.n_cells, 1))
    jinx = rng.uniform(size=(JINX_DECISION.n_cells, 1))
    rob_t, jinx_t = np.hstack([rob, 1 - rob]), np.hstack([jinx, 1 - jinx])
    rob_t[::7] = LEFT_OUT  # some cells left out
    return tabled(SPEC.default_policy(n), rob=rob_t, jinx=jinx_t, seats=range(0, n, 2))


@pytest.mark.parametrize("mode, count", [(Mode.HANDS, 300), (Mode.GAMES, 20)], ids=["hands", "games"])
def test_mixed_tables_play_the_same_on_kernel_and_twin(mode, count):
    n = 5
    policy = mixed_profile(n)
    got = simulate(SPEC, R, policy, n, mode, 6, 0, count)
    assert np.array_equal(got, twin.simulate(R, policy, n, mode, 6, 0, count))
    assert not np.array_equal(got, simulate(SPEC, R, SPEC.default_policy(n), n, mode, 6, 0, count))


# ----------------------------------------------------------------------------------------
# The solve from the default profile: what a per-cell best response says


def best_response(sums: np.ndarray) -> np.ndarray:
    """Per (seat, cell): mean net of each action and the visits."""
    visits = sums[:, :, 0]
    means = sums[:, :, [1, 3]] / np.maximum(visits, 1)[:, :, None]
    return means, visits


@pytest.mark.slow
def test_a_solve_from_the_default_jinxes_with_two_sure_winners_and_claims_with_none():
    n = 5
    policy = SPEC.default_policy(n)
    sums = solve.simulate_solve(SPEC, R, policy, n, "jinx", 1, 0, 100_000).sum(axis=0, keepdims=True)
    means, visits = best_response(sums)
    both = cell_of(JINX_DECISION, "2", None)
    plain = cell_of(JINX_DECISION, "0", "plain")
    assert visits[0, both] > 5 and visits[0, plain] > 100  # about 13 in 100,000 deals (seed 1)
    # both sure: a jinx is always made, the bonus on top of the pool (4 others x ante 2 = 8)
    assert means[0, both, JINX] - means[0, both, CLAIM] == pytest.approx(8.0)
    assert means[0, plain, CLAIM] > means[0, plain, JINX]
