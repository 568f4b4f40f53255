"""Stacked-deck tests of Ace Chasing, run against both the Numba kernel
(sims.games.ace_chasing.stacked.play_dealt) and the plain-Python twin (sims.games.ace_chasing.twin).

Every expected result below is derived by hand from the module docstring of
sims/games/ace_chasing/__init__.py (the rules contract) and the seed's worked example.  Cards are
listed by position: position 0 the matador's left, ..., the matador last.
Policy columns: threshold, matador_right_threshold, ace_swap, bet_min_rank, bet_size,
bet_cap, back_max_rank.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import sims.games.ace_chasing.twin as twin
from sims.core.cards import parse_cards
from sims.core.deck import deal_prefix
from sims.core.rng import Stream
from sims.games.ace_chasing import (
    BET_BETTOR_CHOOSES,
    FACE_LABELS,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    NEXT_LEFT,
    NEXT_RIGHT,
    POLICY_FIELDS,
    Rules,
    stacked,
)
from sims.games.ace_chasing.twin import play_game, play_hand, replay_lines, simulate

IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
play_dealt = twin.play_dealt  # rebound per test by the `implementation` fixture (conftest.py)
pytestmark = pytest.mark.usefixtures("implementation")

R = Rules()  # right rotation, no king block, betting off, against-matador
BETS = R._replace(betting=1)
CHOOSE = BETS._replace(bet_direction=BET_BETTOR_CHOOSES)


def row(threshold=0, mrt=0, ace=0, bet_min=14, size=1, cap=1000, back=0):
    return [threshold, mrt, ace, bet_min, size, cap, back]


NEVER = row()  # the never-swap preset, no bets


def pol(*rows):
    return np.array(rows, dtype=np.float64)


def never(k):
    return pol(*([NEVER] * k))


def play(rules, policy, text, log=None):
    return play_dealt(rules, policy, parse_cards(text), log)


def check(res, exposed, swap, final, knocked_out=None):
    assert res["exposed"] == exposed
    assert res["swap"] == swap
    assert res["final"] == parse_cards(final)
    ko = int(sum(exposed) == 0) if knocked_out is None else knocked_out
    assert res["knocked_out"] == ko
    assert sum(res["bet_net"]) == 0


def test_policy_columns_are_in_contract_order():
    assert [f.key for f in POLICY_FIELDS] == [
        "threshold",
        "matador_right_threshold",
        "ace_swap",
        "bet_min_rank",
        "bet_size",
        "bet_cap",
        "back_max_rank",
    ]


# ----------------------------------------------------------------------------------------
# The seed's worked example: B 9c, C Ah, D 7h, matador A last


def test_worked_example_matador_ace_of_clubs_exposes_only_the_club():
    # Nobody is lower than an ace; the face-up Ac exposes B's 9c by suit. C's Ah is equal
    # in rank, stays hidden, so D's 7h is safe.
    res = play(R, never(4), "9c Ah 7h Ac")
    check(res, [1, 0, 0, 0], [0, 0, 0, 0], "9c Ah 7h Ac", knocked_out=0)


def test_worked_example_matador_two_of_clubs_exposes_ace_and_its_suit():
    # C's Ah is lower than the 2c; face up, it exposes D's 7h. B's 9c is higher.
    res = play(R, never(4), "9c Ah 7h 2c")
    check(res, [0, 1, 1, 0], [0, 0, 0, 0], "9c Ah 7h 2c", knocked_out=0)


def test_worked_example_matador_ace_of_diamonds_is_knocked_out():
    res = play(R, never(4), "9c Ah 7h Ad")
    check(res, [0, 0, 0, 0], [0, 0, 0, 0], "9c Ah 7h Ad", knocked_out=1)


# ----------------------------------------------------------------------------------------
# The swap chain


def test_swap_chain_moves_cards_along():
    # 3c swaps with 9d; the 3c moves on to swap with Kh; the matador's right holds 3c
    # with matador_right_threshold 0 and keeps. 5s: the 3c (rank 3 < 5) is exposed.
    policy = pol(row(7), row(7), row(7, 0), NEVER)
    res = play(R, policy, "3c 9d Kh 5s")
    check(res, [0, 0, 1, 0], [1, 1, 0, 0], "9d Kh 3c 5s")


def test_swap_chain_matador_right_hands_the_matador_a_card():
    policy = pol(NEVER, NEVER, row(0, 13), NEVER)
    res = play(R, policy, "5c 6d 7h 8s")
    # 7h goes to the matador, who now holds 7h: 5c and 6d are lower.
    check(res, [1, 1, 0, 0], [0, 0, 1, 0], "5c 6d 8s 7h")


def test_matador_right_threshold_used_only_by_the_matador_right():
    # Positions 0 and 1 have threshold 0 (their mrt 13 is ignored); position 2 has
    # threshold 13 but mrt 0: nobody swaps.
    policy = pol(row(0, 13), row(0, 13), row(13, 0), row(13, 13))
    res = play(R, policy, "5c 6d 7h 8s")
    check(res, [1, 1, 1, 0], [0, 0, 0, 0], "5c 6d 7h 8s")


def test_matador_makes_no_decision():
    policy = pol(NEVER, NEVER, NEVER, row(13, 13, 1))
    res = play(R, policy, "Kc Qd Jh As")
    check(res, [0, 0, 0, 0], [0, 0, 0, 0], "Kc Qd Jh As", knocked_out=1)


def test_ace_swap_passes_an_ace_on_regardless_of_threshold():
    # Ah is passed along (threshold and mrt 0) until the matador holds it; nobody holds
    # a heart or anything lower: the matador is knocked out.
    policy = pol(row(0, 0, 1), row(0, 0, 1), row(0, 0, 1), NEVER)
    res = play(R, policy, "Ah 9d 8c Ks")
    check(res, [0, 0, 0, 0], [1, 1, 1, 0], "9d 8c Ks Ah", knocked_out=1)


def test_ace_swap_off_threshold_zero_keeps_the_ace():
    # Nobody swaps; the matador's K is above everyone: all three are exposed.
    res = play(R, never(4), "Ah 9d 8c Ks")
    check(res, [1, 1, 1, 0], [0, 0, 0, 0], "Ah 9d 8c Ks", knocked_out=0)


def test_threshold_is_at_or_below_rank1():
    # 7c has rank1 7: threshold 7 swaps, threshold 6 keeps.
    check(play(R, pol(row(7), NEVER, NEVER), "7c 9d Ks"), [1, 1, 0], [1, 0, 0], "9d 7c Ks")
    check(play(R, pol(row(6), NEVER, NEVER), "7c 9d Ks"), [1, 1, 0], [0, 0, 0], "7c 9d Ks")


# ----------------------------------------------------------------------------------------
# King block


def test_king_block_off_king_changes_hands():
    policy = pol(row(7, 7), row(7, 7), row(7, 7), NEVER)
    res = play(R, policy, "5c Kd 9h 2s")
    # 5c<->Kd, 5c<->9h, 5c<->2s: the matador holds 5c, the 2s (rank 2) is exposed.
    check(res, [0, 0, 1, 0], [1, 1, 1, 0], "Kd 9h 2s 5c")


def test_king_block_on_king_refuses(implementation):
    policy = pol(row(7, 7), row(7, 7), row(7, 7), NEVER)
    log = []
    res = play(R._replace(king_block=True), policy, "5c Kd 9h 2s", log)
    # The Kd refuses the 5c; Kd and 9h are above the thresholds; the matador keeps the 2s
    # and nobody is lower: knocked out.
    check(res, [0, 0, 0, 0], [0, 0, 0, 0], "5c Kd 9h 2s", knocked_out=1)
    if implementation == "twin":  # the step log is the twin's (replay); the kernel keeps none
        assert any("king block" in line and "Kd" in line for line in log)


def test_king_block_matador_holding_a_king_refuses():
    policy = pol(row(7, 7), row(7, 7), row(7, 7), NEVER)
    res = play(R._replace(king_block=True), policy, "3c 9d 4h Ks")
    # 3c<->9d, 3c<->4h, then 3c meets the matador's Ks: refused. Everyone is below K.
    check(res, [1, 1, 1, 0], [1, 1, 0, 0], "9d 4h 3c Ks")


def test_king_block_off_matador_takes_the_low_card():
    policy = pol(row(7, 7), row(7, 7), row(7, 7), NEVER)
    res = play(R, policy, "3c 9d 4h Ks")
    # The matador ends with 3c: 9d, 4h, Ks are all higher: knocked out.
    check(res, [0, 0, 0, 0], [1, 1, 1, 0], "9d 4h Ks 3c", knocked_out=1)


def test_king_block_king_holder_may_still_swap_away():
    # Only the partner's king blocks: a king holder who asks to swap gives its king away.
    policy = pol(row(13), NEVER, NEVER)
    res = play(R._replace(king_block=True), policy, "Kc 5d 9h")
    check(res, [1, 0, 0], [1, 0, 0], "5d Kc 9h")


# ----------------------------------------------------------------------------------------
# Reveal cases


def test_equal_ranks_are_not_exposed():
    res = play(R, never(4), "7c 7d 9h 7s")
    check(res, [0, 0, 0, 0], [0, 0, 0, 0], "7c 7d 9h 7s", knocked_out=1)


def test_several_players_exposed_at_once_including_by_an_ace_suit():
    # 5s: Ah and 2h are lower; the face-up Ah exposes the Kh too; 9d is safe.
    res = play(R, never(5), "Ah 2h Kh 9d 5s")
    check(res, [1, 1, 1, 0, 0], [0, 0, 0, 0, 0], "Ah 2h Kh 9d 5s")


def test_matador_ace_other_aces_stay_hidden():
    # The matador's As: the Ac is equal in rank, so its clubs stay hidden; the 9s goes.
    res = play(R, never(4), "Ac 9c 9s As")
    check(res, [0, 0, 1, 0], [0, 0, 0, 0], "Ac 9c 9s As")


def test_everyone_but_the_matador_exposed():
    res = play(R, never(5), "2c 3d 4h 5s Qc")
    check(res, [1, 1, 1, 1, 0], [0, 0, 0, 0, 0], "2c 3d 4h 5s Qc", knocked_out=0)


def test_two_players_the_other_is_exposed():
    check(play(R, never(2), "3c 9d"), [1, 0], [0, 0], "3c 9d", knocked_out=0)


def test_two_players_the_matador_is_knocked_out():
    check(play(R, never(2), "9c 3d"), [0, 0], [0, 0], "9c 3d", knocked_out=1)


def test_two_players_the_only_other_uses_matador_right_threshold():
    # With k = 2, position 0 is position k-2, the matador's right.
    check(play(R, pol(row(13, 0), NEVER), "3c 9d"), [1, 0], [0, 0], "3c 9d")
    check(play(R, pol(row(0, 13), NEVER), "3c 9d"), [0, 0], [1, 0], "9d 3c", knocked_out=1)


# ----------------------------------------------------------------------------------------
# Betting


def bettors(k, bet_min=8, size=3, cap=2, back=0, threshold=0):
    """k-1 bettors, then a matador with bet_cap ``cap``."""
    rows = [row(threshold, 0, 0, bet_min, size, 1000, back) for _ in range(k - 1)]
    rows.append(row(0, 0, 0, 14, 1, cap, 0))
    return pol(*rows)


def test_betting_off_no_bets():
    res = play(R, bettors(4), "9c 8d Jh 7s")
    assert res["bet"] == [0, 0, 0, 0] and res["bet_net"] == [0, 0, 0, 0]
    assert res["knocked_out"] == 1


def test_betting_against_matador_survives_collects_capped_bets():
    # 9c (rank1 9) and Jh (11) reach bet_min_rank 8, 4d does not; bet_size 3 capped to 2.
    # The matador's 7s exposes the 4d: bets against it are lost.
    res = play(BETS, bettors(4), "9c 4d Jh 7s")
    check(res, [0, 1, 0, 0], [0, 0, 0, 0], "9c 4d Jh 7s")
    assert res["bet"] == [2, 0, 2, 0]
    assert res["bet_net"] == [-2, 0, -2, 4]


def test_betting_against_matador_knocked_out_pays_every_bet():
    res = play(BETS, bettors(4), "9c 8d Jh 7s")
    assert res["knocked_out"] == 1
    assert res["bet"] == [2, 2, 2, 0]
    assert res["bet_net"] == [2, 2, 2, -6]


def test_betting_uncapped_and_zero_cap():
    res = play(BETS, bettors(4, cap=1000), "9c 8d Jh 7s")
    assert res["bet"] == [3, 3, 3, 0] and res["bet_net"] == [3, 3, 3, -9]
    res = play(BETS, bettors(4, cap=0), "9c 8d Jh 7s")  # an amount of 0 is no bet
    assert res["bet"] == [0, 0, 0, 0] and res["bet_net"] == [0, 0, 0, 0]


def test_betting_bet_min_rank_14_never_bets():
    res = play(BETS, bettors(4, bet_min=14), "9c 8d Kh 7s")
    assert res["bet"] == [0, 0, 0, 0]


def test_betting_on_the_dealt_card_before_swaps():
    # Bets on 9c and Kh as dealt (bet_min 8); then 9c moves on to position 2 and 3d ends
    # at position 0, exposed by the matador's 7s: the bets are lost.
    policy = bettors(4, size=1, cap=1000, threshold=9)
    policy[2, 1] = 0  # the matador's right keeps
    res = play(BETS, policy, "9c 3d Kh 7s")
    check(res, [1, 0, 0, 0], [1, 1, 0, 0], "3d Kh 9c 7s")
    assert res["bet"] == [1, 0, 1, 0]
    assert res["bet_net"] == [-1, 0, -1, 2]


def test_bettor_chooses_back_the_matador_matador_survives():
    # bet_min 10, back_max 3: Qc (12) bets against, 2d (2) backs the matador, 5h none.
    # 9s exposes 2d and 5h: the against bet is lost, the for bet is won.
    policy = bettors(4, bet_min=10, size=5, cap=4, back=3)
    res = play(CHOOSE, policy, "Qc 2d 5h 9s")
    check(res, [0, 1, 1, 0], [0, 0, 0, 0], "Qc 2d 5h 9s")
    assert res["bet"] == [4, -4, 0, 0]
    assert res["bet_net"] == [-4, 4, 0, 0]


def test_bettor_chooses_back_the_matador_matador_knocked_out():
    policy = bettors(4, bet_min=10, size=5, cap=4, back=3)
    res = play(CHOOSE, policy, "Qc 2d Kh As")
    assert res["knocked_out"] == 1
    assert res["bet"] == [4, -4, 4, 0]
    assert res["bet_net"] == [4, -4, 4, -4]


def test_against_matador_direction_ignores_back_max_rank():
    policy = bettors(4, bet_min=10, size=5, cap=4, back=3)
    res = play(BETS, policy, "Qc 2d Kh As")
    assert res["bet"] == [4, 0, 4, 0]
    assert res["bet_net"] == [4, 0, 4, -8]


def test_bettor_chooses_against_takes_precedence():
    policy = bettors(3, bet_min=1, size=1, cap=1000, back=13)
    res = play(CHOOSE, policy, "Ac Kd 5s")
    assert res["bet"] == [1, 1, 0]


def test_bet_conservation_random_deals():
    rng = random.Random(5)
    for _ in range(400):
        k = rng.randint(2, 9)
        cards = rng.sample(range(52), k)
        rows = [
            row(
                rng.randint(0, 13),
                rng.randint(0, 13),
                rng.randint(0, 1),
                rng.randint(1, 14),
                rng.randint(0, 6),
                rng.randint(0, 6),
                rng.randint(0, 13),
            )
            for _ in range(k)
        ]
        rules = Rules(king_block=rng.random() < 0.5, betting=1, bet_direction=rng.randint(0, 1))
        res = play_dealt(rules, pol(*rows), cards)
        assert sum(res["bet_net"]) == 0
        assert res["exposed"][-1] == 0 and res["bet"][-1] == 0 and res["swap"][-1] == 0
        assert res["knocked_out"] == int(sum(res["exposed"]) == 0)
        assert sorted(res["final"]) == sorted(cards)
        ko = res["knocked_out"]
        assert res["bet_net"][:-1] == [b if ko else -b for b in res["bet"][:-1]]


# ----------------------------------------------------------------------------------------
# Logs, hand mode, simulate


def test_log_names_cards_reasons_and_result(implementation):
    if implementation == "kernel":
        pytest.skip("the step log is the twin's (replay); the kernel keeps none")
    log = []
    play(BETS, bettors(4, cap=1000), "9c Ah 7h 2c", log)
    text = "\n".join(log)
    for token in (
        "seat 3 (matador) gets 2c",
        "bets 3 against",
        "face-up aces: Ah",
        "Ah is lower than 2c",
        "7h is of hearts",
        "loses 3",
    ):
        assert token in text
    assert log[-1] == "result: exposed seat 1, seat 2; seat 3 (matador) survives"


def test_replay_lines_header_deal_and_result():
    policy = pol(*([row(7, 7, 1, 8)] * 6))
    lines = replay_lines(BETS, policy, 6, 123, 7)
    assert "seed 123" in lines[0] and "hand 7" in lines[0]
    deal = [line for line in lines if line.startswith("deal: seat")]
    assert len(deal) == 6 and deal[-1].startswith("deal: seat 5 (matador)")
    assert lines[-1].startswith("result: ")
    seat_rows, table = play_hand(BETS, policy, 6, 123, 7)
    assert ("knocked out" in lines[-1]) == bool(table[0])


def test_play_hand_uses_deal_prefix_of_seed_and_index():
    policy = pol(*([row(7, 7, 1, 8, 2, 3, 0)] * 6))
    seat_cols, table_cols = len(HAND_OUTCOMES.seat), len(HAND_OUTCOMES.table)
    assert table_cols == 3 + 3 * len(FACE_LABELS)
    for index in range(30):
        cards = deal_prefix(Stream(9, index), 6)
        res = play_dealt(BETS, policy, cards)
        seat_rows, table = play_hand(BETS, policy, 6, 9, index)
        assert all(len(r) == seat_cols for r in seat_rows) and len(table) == table_cols
        assert [r[0] for r in seat_rows] == res["exposed"]
        assert [r[1] for r in seat_rows] == res["swap"]
        assert [r[2] for r in seat_rows] == [int(b != 0) for b in res["bet"]]
        assert [r[3] for r in seat_rows] == res["bet_net"]
        assert all(r[4] == r[3] * r[3] for r in seat_rows)
        e = sum(res["exposed"])
        assert table[:3] == [res["knocked_out"], e, e * e]
        sign = 1 if res["knocked_out"] else -1
        for f in range(13):
            c = sum(1 for c_ in cards[:5] if c_ % 13 == f)
            assert table[3 + 3 * f : 6 + 3 * f] == [sign * c, c, c]


def test_simulate_hands_shape_and_sums():
    policy = pol(*([row(7, 7, 1, 8)] * 5))
    out = simulate(BETS, policy, 5, 0, 5, 10, 200)
    width = max(len(HAND_OUTCOMES.seat), len(HAND_OUTCOMES.table))
    assert out.shape == (6, width) and out.dtype == np.int64
    assert out[:5, 0].sum() == out[5, 1]  # exposures = sum of exposed
    assert out[:5, 3].sum() == 0  # bets conserve
    assert out[5, 5::3].sum() == 4 * 200  # unit-bet counts: four non-matadors a hand
    a = simulate(BETS, policy, 5, 0, 5, 10, 80)
    b = simulate(BETS, policy, 5, 0, 5, 90, 120)
    assert np.array_equal(a + b, out)


# ----------------------------------------------------------------------------------------
# Game mode


class StackedDeals:
    """Replaces deal_prefix in the twin: hands out literal deals in order."""

    def __init__(self, *deals):
        self.deals = [parse_cards(d) for d in deals]

    def __call__(self, stream, m):
        cards = self.deals.pop(0)
        assert len(cards) == m
        return cards


def _matadors(log):
    return [int(line.split("matador seat ")[1].split(";")[0]) for line in log if line.startswith("round ")]


def test_game_rotation_right(monkeypatch):
    monkeypatch.setattr(
        twin,
        "deal_prefix",
        StackedDeals(
            "9c 3d Jh Qs 5c",  # M=4, order 0 1 2 3 4: 3d < 5c, seat 1 out (place 5)
            "9c 8d Jh 2s",  # M=3 (right of 4), order 4 0 2 3: nobody lower, M=3 out (place 4)
            "Kc 3d 5h",  # M=2 (right of 3), order 4 0 2: seat 0 (3d) out (place 3)
            "3c 9h",  # M=4 (right of 2, skipping dead 1 and 0), order 2 4: seat 2 out
        ),
    )
    log = []
    seats, table = play_game(R, never(5), 5, 1, 0, log)
    assert _matadors(log) == [4, 3, 2, 4]
    assert [r[0] for r in seats] == [0, 0, 0, 0, 1]
    assert [r[1] for r in seats] == [6, 10, 4, 8, 2]
    assert [r[2] for r in seats] == [36, 100, 16, 64, 4]
    assert table == [4, 16, 0, 0, 1, 0, 0, 0, 0, 0]  # rounds, rounds_sq, length_1-2 .. length_11+


def test_game_rotation_left(monkeypatch):
    monkeypatch.setattr(
        twin,
        "deal_prefix",
        StackedDeals(
            "9c 3d Jh Qs 5c",  # M=4, order 0 1 2 3 4: seat 1 out (place 5)
            "9c 8d Jh 2s",  # M=0 (left of 4), order 2 3 4 0: M=0 out (place 4)
            "Kc 3d 5h",  # M=2 (left of 0, skipping dead 1), order 3 4 2: seat 4 out
            "3c 9h",  # M=3 (left of 2), order 2 3: seat 2 out, seat 3 wins
        ),
    )
    log = []
    seats, table = play_game(R._replace(next_matador=NEXT_LEFT), never(5), 5, 1, 0, log)
    assert _matadors(log) == [4, 0, 2, 3]
    assert [r[0] for r in seats] == [0, 0, 0, 1, 0]
    assert [r[1] for r in seats] == [8, 10, 4, 2, 6]
    assert table == [4, 16, 0, 0, 1, 0, 0, 0, 0, 0]  # rounds, rounds_sq, length_1-2 .. length_11+


@pytest.mark.parametrize("direction", [NEXT_RIGHT, NEXT_LEFT])
def test_game_shared_places_in_halves(monkeypatch, direction):
    # Round 1 is the worked example with the 2c: seats 1 and 2 share places 3 and 4
    # (3.5 = 7 halves). Seat 0 is the next matador either way; 5c loses to 9d.
    monkeypatch.setattr(twin, "deal_prefix", StackedDeals("9c Ah 7h 2c", "5c 9d"))
    log = []
    seats, table = play_game(R._replace(next_matador=direction), never(4), 4, 1, 0, log)
    assert _matadors(log) == [3, 0]
    assert [r[1] for r in seats] == [2, 7, 7, 4]
    assert [r[2] for r in seats] == [4, 49, 49, 16]
    assert [r[0] for r in seats] == [1, 0, 0, 0]


def test_game_bets_accumulate_over_the_game(monkeypatch):
    monkeypatch.setattr(
        twin,
        "deal_prefix",
        StackedDeals(
            "9c 8d Jh 7s",  # M=3 knocked out: bettors 0, 1, 2 win 1 each
            "Kc 3d 9h",  # M=2, order 0 1 2: bets by 0 (K) ; 3d exposed, seat 0 loses 1
            "2c 5d",  # M=0 (right of 2, 1 dead), order 2 0: seat 2 (2c, no bet) exposed
        ),
    )
    policy = bettors(4, size=1, cap=1000)
    policy[:, 5] = 1000
    seats, table = play_game(BETS, policy, 4, 1, 0)
    assert [r[3] for r in seats] == [1 - 1, 1, 1 + 1, -3]
    assert [r[4] for r in seats] == [0, 1, 4, 9]
    assert [r[0] for r in seats] == [1, 0, 0, 0]
    assert table == [3, 9, 0, 1, 0, 0, 0, 0, 0, 0]  # rounds, rounds_sq, length_1-2 .. length_11+


def _check_game(seats, table, n):
    assert sum(r[0] for r in seats) == 1
    places = [r[1] for r in seats]
    assert sum(places) == n * (n + 1)  # 1 + ... + n, in halves
    assert all(r[2] == r[1] * r[1] for r in seats)
    assert all(r[4] == r[3] * r[3] for r in seats)
    assert sum(r[3] for r in seats) == 0
    winner = [s for s in range(n) if seats[s][0]][0]
    assert places[winner] == 2 and sorted(places)[1] > 2
    # a valid shared ranking: a group of j tied at p halves holds places (p-j+1)/2 ..
    # (p+j-1)/2 exactly, and the groups tile 1..n
    covered = []
    for p in sorted(set(places)):
        j = places.count(p)
        lo = (p - j + 1) // 2
        assert (p - j + 1) % 2 == 0
        covered += list(range(lo, lo + j))
    assert covered == list(range(1, n + 1))
    assert 1 <= table[0] <= n - 1 and table[1] == table[0] ** 2
    lengths = table[2:]  # one indicator per bucket: 1-2, 3, 4, 5, 6, 7, 8-10, 11+
    bucket = (0, 0, 0, 1, 2, 3, 4, 5, 6, 6, 6)[table[0]] if table[0] <= 10 else 7
    assert sum(lengths) == 1 and lengths.index(1) == bucket


@pytest.mark.parametrize("direction", [NEXT_RIGHT, NEXT_LEFT])
def test_game_invariants_random_seeds(direction):
    rules = CHOOSE._replace(next_matador=direction, king_block=direction == NEXT_LEFT)
    n = 7
    policy = pol(*[row(7, 6 + s % 3, 1, 9, 1 + s, 2 + s, 2) for s in range(n)])
    for i in range(150):
        seats, table = play_game(rules, policy, n, 17, i)
        _check_game(seats, table, n)


def test_game_first_round_is_the_hand_mode_deal():
    policy = pol(*([row(7, 7, 1)] * 5))
    for i in range(40):
        h_seats, h_table = play_hand(R, policy, 5, 3, i)
        log = []
        play_game(R, policy, 5, 3, i, log)
        first = next(line for line in log if line.startswith("eliminated: "))
        out = [int(x.split()[1]) for x in first.split(": ", 1)[1].split(" (")[0].split(", ")]
        expected = [4] if h_table[0] else [s for s in range(5) if h_seats[s][0]]
        assert out == expected


def test_game_same_seed_identical_and_simulate_sums():
    policy = pol(*([row(7, 7, 1, 9, 1)] * 6))
    a = simulate(BETS, policy, 6, 1, 21, 0, 60)
    b = simulate(BETS, policy, 6, 1, 21, 0, 60)
    assert np.array_equal(a, b)
    width = max(len(GAME_OUTCOMES.seat), len(GAME_OUTCOMES.table))
    assert a.shape == (7, width) and a.dtype == np.int64
    assert a[:6, 0].sum() == 60  # one winner per game
    assert a[:6, 1].sum() == 60 * 6 * 7  # places sum to 1+...+6, in halves
    assert a[:6, 3].sum() == 0  # bets conserve
    games = [play_game(BETS, policy, 6, 21, i) for i in range(60)]
    assert a[6, 0] == sum(t[0] for _, t in games)
    assert play_game(BETS, policy, 6, 21, 5) == play_game(BETS, policy, 6, 21, 5)
    assert play_game(BETS, policy, 6, 21, 5) != play_game(BETS, policy, 6, 22, 5)
