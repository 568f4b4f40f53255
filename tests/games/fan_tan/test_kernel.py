"""The Fan Tan kernel against its plain-Python twin (sums and single stacked deals), the
property that every deal ends with chips conserved, determinism, and game-mode facts."""

from __future__ import annotations

import numpy as np
import pytest

from sims.engine import simulate
from sims.games import fan_tan as ft
from sims.games.fan_tan import stacked, twin
from sims.registry import GAMES
from sims.spec import Mode

SPEC = GAMES["fan-tan"]
FIELDS = [f.key for f in SPEC.policy_fields]
SEAT = {name: i for i, name in enumerate(ft.HAND_OUTCOMES.seat)}
TABLE = {name: i for i, name in enumerate(ft.HAND_OUTCOMES.table)}
GAME_SEAT = {name: i for i, name in enumerate(ft.GAME_OUTCOMES.seat)}


def random_table(rng):
    """Random players (2-8), rules (every switch) and a random policy row per seat."""
    n = int(rng.integers(2, 9))
    rules = ft.Rules(
        ante=int(rng.choice([0, 1, 2, 5])),
        uneven_ante=int(rng.integers(0, 3)),
        start=int(rng.integers(0, 3)),
        settle=int(rng.integers(0, 3)),
        may_pass_when_able=bool(rng.integers(0, 2)),
        eight_before_six=bool(rng.integers(0, 2)),
        pass_fee=int(rng.integers(0, 3)),
        card_fee=int(rng.integers(0, 3)),
    )
    matrix = np.column_stack([rng.integers(0, 5, n), rng.integers(0, 2, n)]).astype(float)
    return n, rules, matrix


@pytest.mark.slow
@pytest.mark.parametrize("mode,count", [(Mode.HANDS, 120), (Mode.GAMES, 12)], ids=["hands", "games"])
def test_kernel_matches_plain_python_twin_exactly(mode, count):
    """Random tables (2-8 players, every switch, mixed styles): identical integer sums, so
    the kernel and the twin play every deal the same way, random choices included."""
    rng = np.random.default_rng(31 + mode)
    for trial in range(20):
        n, rules, matrix = random_table(rng)
        kernel_sums = simulate(SPEC, rules, matrix, n, mode, trial, 7, count, threads=2)
        assert np.array_equal(kernel_sums, twin.simulate(rules, matrix, n, mode, trial, 7, count)), (
            n,
            rules,
            matrix.tolist(),
        )


@pytest.mark.slow
def test_single_stacked_deals_agree_turn_by_turn():
    """Random stacked packs and dealers: every field of the two play_dealt dicts is equal,
    the whole sequence of plays and passes included."""
    rng = np.random.default_rng(3)
    for trial in range(200):
        n, rules, matrix = random_table(rng)
        dealer = int(rng.integers(0, n))
        cards = [int(c) for c in rng.permutation(52)]
        expected = twin.play_dealt(rules, matrix, n, cards, dealer=dealer)
        assert stacked.play_dealt(rules, matrix, n, cards, dealer=dealer) == expected, (trial, n, rules)


def test_every_deal_ends_with_chips_conserved_and_a_legal_sequence():
    """Property: on random tables every deal ends with exactly one empty hand; chips are
    conserved (all zero under card-count-score); each play adds a legal card; passes in
    a row stay within n-1 forced, 2n-2 with voluntary ones."""
    rng = np.random.default_rng(8)
    for trial in range(300):
        n, rules, matrix = random_table(rng)
        res = stacked.play_dealt(rules, matrix, n, [int(c) for c in rng.permutation(52)])
        assert res["cards_left"][res["winner"]] == 0 and sum(left == 0 for left in res["cards_left"]) == 1
        if rules.settle == ft.SETTLE_CARD_COUNT:
            assert res["paid"] == [0] * n and res["received"] == [0] * n and res["pot"] == 0
        else:
            assert sum(res["net"]) == 0 and res["received"][res["winner"]] >= res["pot"]
        layout: set[int] = set()
        run = longest = 0
        for seat, card in res["plays"]:
            if card < 0:
                run += 1
                longest = max(longest, run)
                continue
            run = 0
            suit, face = divmod(card, 13)
            row = {c % 13 for c in layout if c // 13 == suit}
            assert face == 6 or face + 1 in row or face - 1 in row, (trial, res["plays"])
            if rules.eight_before_six and face < 6:
                assert 7 in row
            layout.add(card)
        assert len(layout) + sum(res["cards_left"]) == 52
        assert longest <= (2 * n - 2 if rules.may_pass_when_able else n - 1)
        assert res["turns"] == len(res["plays"]) == len(layout) + sum(res["passes"])


@pytest.mark.parametrize("mode,count", [(Mode.HANDS, 20_000), (Mode.GAMES, 2_000)], ids=["hands", "games"])
def test_same_sums_for_any_thread_count_and_chunking(mode, count):
    rules = ft.Rules(may_pass_when_able=True, uneven_ante=ft.FEWER_CARDS_PAY_EXTRA)
    matrix = SPEC.default_policy(5, "random")
    matrix[:, FIELDS.index("pass_with_sevens")] = 1
    one = simulate(SPEC, rules, matrix, 5, mode, 4, 50, count, threads=1, n_blocks=1)
    assert np.array_equal(one, simulate(SPEC, rules, matrix, 5, mode, 4, 50, count, threads=2, n_blocks=9))


def test_hand_mode_sums_conserve_chips_and_count_every_turn():
    n, count = 6, 30_000
    sums = simulate(SPEC, ft.Rules(), SPEC.default_policy(n, "blocker-vs-first"), n, Mode.HANDS, 1, 0, count)
    assert sums[:n, SEAT["win"]].sum() == count
    assert sums[:n, SEAT["net"]].sum() == 0
    # Every chip paid ends in the winner's pot (no penalties without voluntary passes).
    assert sums[:n, SEAT["paid"]].sum() == sums[n, TABLE["pot"]]
    # Turns = the 52 - cards left plays plus the passes.
    assert sums[n, TABLE["turns"]] == 52 * count - sums[:n, SEAT["cards_left"]].sum() + sums[:n, SEAT["passes"]].sum()


def test_game_mode_is_a_rotation_every_seat_deals_once():
    """A rotation of n deals: n wins shared out, nets summing to zero, and with every seat
    playing the same style the seats' nets are equal within error (each deals once)."""
    n, count = 4, 20_000
    sums = simulate(SPEC, ft.Rules(), SPEC.default_policy(n), n, Mode.GAMES, 2, 0, count, threads=2)
    assert sums[:n, GAME_SEAT["wins"]].sum() == n * count
    assert sums[:n, GAME_SEAT["net"]].sum() == 0
    assert sums[:n, GAME_SEAT["best_score"]].sum() >= count
    means = sums[:n, GAME_SEAT["net"]].astype(float) / count  # net_sq is wide: exact Python integers
    variances = sums[:n, GAME_SEAT["net_sq"]].astype(float) / count - means**2
    se = np.sqrt(variances / count)
    assert np.all(np.abs(means) < 4.5 * se + 1e-9), (means, se)


def test_hand_mode_the_dealer_seat_matters_but_a_rotation_evens_it_out():
    """In one deal the eldest hand moves first, so seat results differ: with everyone
    playing `first`, the dealer (last to move) has the best net; see the game test."""
    n, count = 4, 100_000
    sums = simulate(SPEC, ft.Rules(), SPEC.default_policy(n), n, Mode.HANDS, 5, 0, count, threads=2)
    means = sums[:n, SEAT["net"]] / count
    se = np.sqrt(sums[:n, SEAT["net"] + 1] / count - means**2) / np.sqrt(count)
    assert means[n - 1] - means[0] > 6 * np.hypot(se[n - 1], se[0])


@pytest.mark.parametrize("implementation", [stacked.play_dealt, twin.play_dealt], ids=["kernel", "twin"])
@pytest.mark.parametrize(
    "change",
    [
        {"rules": ft.Rules(start=3)},
        {"rules": ft.Rules(ante=21)},
        {"n": 9},
        {"n": 1},
        {"policy": "style=5"},
        {"policy": "pass_with_sevens=0.5"},
        {"dealer": 4},
        {"cards": list(range(51))},
        {"cards": [0] + list(range(1, 51)) + [0]},
    ],
    ids=lambda change: str(change),
)
def test_play_dealt_refuses_values_outside_the_contract(implementation, change):
    n = change.get("n", 4)
    matrix = SPEC.default_policy(max(1, n))
    if "policy" in change:
        key, value = change["policy"].split("=")
        matrix[0, FIELDS.index(key)] = float(value)
    with pytest.raises(ValueError):
        implementation(
            change.get("rules", ft.Rules()),
            matrix,
            n,
            change.get("cards", list(range(52))),
            dealer=change.get("dealer"),
        )


@pytest.mark.parametrize("implementation", [stacked.play_dealt, twin.play_dealt], ids=["kernel", "twin"])
def test_the_first_seats_may_all_hold_their_sevens_back_and_the_next_must_open(implementation):
    """Cards dealt in code order to 4 seats (dealer 3): seat 0 holds 7h, seat 1 7s, seat 2
    7c, seat 3 7d; only sevens are legal at first.  With voluntary passes and
    pass_with_sevens, seats 0, 1 and 2 pass (fewer than n-1 passes precede each), and seat
    3, after 3 passes in a row, must open with 7d.  Each voluntary pass pays 3 chips and 5
    to each other holder of its seven's 6 and 8: seat 0 (7h; 6h seat 3, 8h seat 1) pays
    13, seat 1 (7s; 6s seat 0, 8s seat 2) 13, seat 2 (7c; 6c seat 1, 8c seat 3) 13."""
    matrix = SPEC.default_policy(4)
    matrix[:, FIELDS.index("pass_with_sevens")] = 1
    res = implementation(ft.Rules(may_pass_when_able=True), matrix, 4, list(range(52)))
    assert res["plays"][:4] == [(0, -1), (1, -1), (2, -1), (3, 19)]
    assert res["voluntary"][:3] == [0, 1, 2]
    first_penalties = [13, 13, 13, 0]
    assert all(paid >= 2 + penalty for paid, penalty in zip(res["paid"], first_penalties))
    assert sum(res["net"]) == 0


@pytest.mark.parametrize("dealer", [1.5, True, "1"])
def test_kernel_play_dealt_refuses_a_dealer_that_is_not_a_whole_number(dealer):
    with pytest.raises(ValueError):
        stacked.play_dealt(ft.Rules(), SPEC.default_policy(4), 4, list(range(52)), dealer=dealer)
    with pytest.raises(ValueError):
        stacked.play_dealt(ft.Rules(), SPEC.default_policy(4), 4, [0.5] + list(range(1, 52)))
