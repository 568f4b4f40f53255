"""The Spoil Five kernel: the rules file's reference values against exact probabilities,
chips conserved, one result per hand, game-mode bookkeeping, and exact agreement with the
plain-Python twin on every variant and policy preset, and on random tables."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from sims.engine import simulate
from sims.games import spoil_five as sf
from sims.games.spoil_five import stacked
from sims.registry import GAMES
from sims.spec import Mode

twin = pytest.importorskip("sims.games.spoil_five.twin")  # written apart from the kernel

SPEC = GAMES["spoil-five"]
FIELDS = [f.key for f in SPEC.policy_fields]
SEAT = {name: i for i, name in enumerate(sf.HAND_OUTCOMES.seat)}
TABLE = {name: i for i, name in enumerate(sf.HAND_OUTCOMES.table)}
GAME_SEAT = {name: i for i, name in enumerate(sf.GAME_OUTCOMES.seat)}
GAME_TABLE = {name: i for i, name in enumerate(sf.GAME_OUTCOMES.table)}


def policy(n, preset="default", **fields):
    matrix = SPEC.default_policy(n, preset)
    for key, value in fields.items():
        matrix[:, FIELDS.index(key)] = value
    return matrix


def rules(**changes):
    return sf.Rules(**changes)


def assert_within(estimate, count, exact, z=4.5):
    p = estimate / count
    se = max((float(exact) * (1 - float(exact)) / count) ** 0.5, 1e-12)
    assert abs(p - float(exact)) <= z * se, (p, float(exact), se)


# ------------------------------------------------------------------ reference values


@pytest.mark.parametrize("n", [2, 3, 5, 8, 10])
def test_deal_counts_agree_with_their_exact_probabilities(n):
    """Rules file 5.8: P(the turn-up is an ace) = 1/13; with everyone robbing, P(a rob) =
    1/13 + (12/13)(5n/51); P(the ace of trumps is dealt to a player) = (12/13)(5n/51)."""
    count = 200_000
    sums = simulate(SPEC, rules(), policy(n), n, Mode.HANDS, 21, 0, count, threads=2)
    dealt = Fraction(12, 13) * Fraction(5 * n, 51)
    assert_within(sums[n, TABLE["ace_turned"]], count, Fraction(1, 13))
    assert_within(sums[n, TABLE["trump_ace_dealt"]], count, dealt)
    assert_within(sums[n, TABLE["rob"]], count, Fraction(1, 13) + dealt)
    assert [0.258, 0.348, 0.439, 0.529, 0.620, 0.710, 0.801, 0.891, 0.982][n - 2] == round(
        float(Fraction(1, 13) + dealt), 3
    )  # the rules file's table


def test_nobody_robs_when_no_seat_will_and_every_holder_is_forfeited_under_the_obligatory_rule():
    n, count = 5, 20_000
    sums = simulate(SPEC, rules(rob=sf.ROB_OBLIGATORY), policy(n, rob=0), n, Mode.HANDS, 3, 0, count)
    assert sums[n, TABLE["rob"]] == 0 and sums[:n, SEAT["robbed"]].sum() == 0
    assert sums[n, TABLE["forfeit"]] == sums[n, TABLE["trump_ace_dealt"]] > 0
    optional = simulate(SPEC, rules(), policy(n, rob=0), n, Mode.HANDS, 3, 0, count)
    assert optional[n, TABLE["forfeit"]] == 0


# ------------------------------------------------------------------ hand-mode laws


@pytest.mark.parametrize("variant", sorted(sf.VARIANTS))
@pytest.mark.parametrize("n", [2, 4, 7, 10])
def test_every_hand_has_one_result_and_conserves_chips(variant, n):
    table = rules(**dict(sf.VARIANTS[variant].rules))
    count = 20_000
    sums = simulate(SPEC, table, policy(n), n, Mode.HANDS, 8, 0, count, threads=2)
    wins = int(sums[:n, SEAT["win"]].sum())
    spoils = int(sums[n, TABLE["spoil"]])
    assert wins + spoils == count  # the pool is taken, or the hand is spoiled
    assert int(sums[:n, SEAT["spoiler"]].sum()) == spoils
    assert int(sums[:n, SEAT["net"]].sum()) + int(sums[n, TABLE["carried"]]) == 0  # chips conserved
    pool = n * table.ante + table.dealer_extra
    assert int(sums[n, TABLE["carried"]]) == spoils * pool
    assert (
        int(sums[:n, SEAT["jinx_made"]].sum())
        <= int(sums[:n, SEAT["jinx_called"]].sum())
        == int(sums[n, TABLE["jinx"]])
    )
    if n == 2 and table.rob == sf.ROB_OPTIONAL:
        assert spoils == 0  # someone always takes three of the five tricks
    if not table.jinx:
        assert sums[n, TABLE["jinx"]] == 0


def test_the_jinx_is_called_more_often_by_bold_players_and_never_by_cautious_ones():
    n, count = 3, 50_000
    bold = simulate(SPEC, rules(), policy(n, jinx_min=0), n, Mode.HANDS, 4, 0, count, threads=2)
    sure = simulate(SPEC, rules(), policy(n), n, Mode.HANDS, 4, 0, count, threads=2)
    never = simulate(SPEC, rules(), policy(n, jinx_min=3), n, Mode.HANDS, 4, 0, count, threads=2)
    assert bold[n, TABLE["jinx"]] > sure[n, TABLE["jinx"]] > 0 == never[n, TABLE["jinx"]]
    # a jinx with two sure winners is always made
    assert sure[:n, SEAT["jinx_made"]].sum() == sure[:n, SEAT["jinx_called"]].sum()
    assert bold[:n, SEAT["jinx_made"]].sum() < bold[:n, SEAT["jinx_called"]].sum()


# ------------------------------------------------------------------ game mode


@pytest.mark.parametrize("variant", sorted(sf.VARIANTS))
def test_a_game_of_whole_rounds_conserves_chips_and_counts_its_deals(variant):
    n, count = 4, 3000
    table = rules(**dict(sf.VARIANTS[variant].rules))
    sums = simulate(SPEC, table, policy(n), n, Mode.GAMES, 5, 0, count, threads=2)
    assert int(sums[:n, GAME_SEAT["net"]].sum()) + int(sums[n, GAME_TABLE["left"]]) == 0
    taken = int(sums[:n, GAME_SEAT["pools_won"]].sum())
    assert taken == int(sums[n, GAME_TABLE["pool_size_count"]])
    deals = int(sums[n, GAME_TABLE["deals"]])
    assert deals == int(sums[n, GAME_TABLE["pool_deals"]]) == int(sums[0, GAME_SEAT["deal_net_count"]])
    assert deals - int(sums[n, GAME_TABLE["spoils"]]) == taken  # every pool ends with the deal that takes it
    assert int(sums[n, GAME_TABLE["pool_deals_count"]]) == taken  # no pool stopped: the pools are those taken
    # whole rounds: every game's deals are a multiple of n, at least one round each
    assert deals % n == 0 and int(sums[n, GAME_TABLE["deals_sq"]]) % (n * n) == 0 and deals >= n * count
    assert taken >= count  # at least the pool that ends the game
    assert all(sums[s, GAME_SEAT["deal_net"]] == sums[s, GAME_SEAT["net"]] for s in range(n))


def test_max_deals_stops_long_pools_and_leaves_their_chips():
    n, count = 6, 2000
    sums = simulate(SPEC, rules(max_deals=1), policy(n), n, Mode.GAMES, 7, 0, count)
    assert sums[n, GAME_TABLE["truncated"]] > 0 and sums[n, GAME_TABLE["left"]] > 0
    assert int(sums[:n, GAME_SEAT["net"]].sum()) + int(sums[n, GAME_TABLE["left"]]) == 0
    # one deal per pool, so every game is one round of n deals and n pools
    assert int(sums[n, GAME_TABLE["deals"]]) == int(sums[n, GAME_TABLE["pool_deals_count"]]) == n * count


def test_after_a_spoil_the_next_pool_is_dealt_by_the_next_seat_not_the_same_one():
    """The referee's game (analyze spoil-five --players 3 --games 1 --seed 2 --rule ante=0
    --rule topup_amount=0 --rule dealer_extra=1 --rule dealer_extra_every_deal=true): the
    dealer of every deal pays 1, nobody else pays anything.  Seat 2 deals deal 1 and takes
    its pool (net 0); seat 0 deals deal 2, which is spoiled; seat 1 deals deal 2 of that
    pool (paying 1 more) and seat 2 takes the pool of 2.  The deals are 3, a whole round,
    so the game ends: seat 2 nets +2, seats 0 and 1 -1 each.  Before the fix the third
    pool was dealt first by seat 1 again (seat 1 dealing twice running) and taken by seat 2
    for 4 deals and nets -1, -2, +3."""
    n = 3
    table = rules(ante=0, topup_amount=0, dealer_extra=1, dealer_extra_every_deal=True)
    log = []
    seat_rows, table_row = twin.play_game(table, policy(n), n, 2, 0, log)
    assert [int(line.split()[4]) for line in log if line.startswith("-- deal ")] == [2, 0, 1]
    expected = np.zeros((n + 1, sf.GAME_OUTCOMES.width), dtype=np.int64)
    expected[:n, : len(seat_rows[0])] = seat_rows
    expected[n, : len(table_row)] = table_row
    sums = simulate(SPEC, table, policy(n), n, Mode.GAMES, 2, 0, 1)
    assert np.array_equal(sums, expected)
    assert [int(v) for v in sums[:n, GAME_SEAT["net"]]] == [-1, -1, 2]
    assert [int(v) for v in sums[:n, GAME_SEAT["pools_won"]]] == [0, 0, 2]
    assert int(sums[n, GAME_TABLE["deals"]]) == 3 and int(sums[n, GAME_TABLE["spoils"]]) == 1
    assert int(sums[n, GAME_TABLE["pool_deals_count"]]) == 2


# ------------------------------------------------------------------ kernel == twin


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(sf.VARIANTS))
def test_kernel_matches_the_twin_on_every_variant(variant):
    table = rules(**dict(sf.VARIANTS[variant].rules))
    for n, mode, count in ((3, Mode.HANDS, 250), (6, Mode.HANDS, 150), (4, Mode.GAMES, 8)):
        assert np.array_equal(
            simulate(SPEC, table, policy(n), n, mode, 13, 40, count, 2),
            twin.simulate(table, policy(n), n, mode, 13, 40, count),
        )


@pytest.mark.parametrize("preset", sorted(sf.POLICIES))
def test_kernel_matches_the_twin_on_every_policy_preset(preset):
    for n, mode, count in ((5, Mode.HANDS, 250), (3, Mode.GAMES, 10)):
        matrix = policy(n, preset)
        assert np.array_equal(
            simulate(SPEC, rules(), matrix, n, mode, 2, 7, count, 2),
            twin.simulate(rules(), matrix, n, mode, 2, 7, count),
        )


@pytest.mark.slow
def test_kernel_matches_the_twin_on_random_tables():
    rng = np.random.default_rng(55)
    for trial in range(12):
        n = int(rng.integers(2, 11))
        table = sf.Rules(
            plain_lead=int(rng.integers(0, 3)),
            rob=int(rng.integers(0, 2)),
            unrobbed_ace_low=bool(rng.integers(0, 2)),
            ante=int(rng.integers(0, 4)),
            dealer_extra=int(rng.integers(0, 3)),
            spoil_topup=int(rng.integers(0, 3)),
            topup_amount=int(rng.integers(0, 3)),
            jinx=bool(rng.integers(0, 2)),
            jinx_bonus=int(rng.integers(0, 3)),
            max_deals=int(rng.integers(1, 6)),
            dealer_extra_every_deal=bool(rng.integers(0, 2)),
        )
        matrix = np.column_stack(
            [rng.integers(0, 2, n), rng.integers(0, 4, n), rng.integers(0, 2, n), rng.integers(0, 2, n)]
        ).astype(float)
        for mode, count in ((Mode.HANDS, 120), (Mode.GAMES, 4)):
            assert np.array_equal(
                simulate(SPEC, table, matrix, n, mode, trial, 0, count, 2),
                twin.simulate(table, matrix, n, mode, trial, 0, count),
            ), (trial, mode)


@pytest.mark.slow
def test_kernel_matches_the_twin_in_game_mode_over_many_seeds_with_spoils():
    """Game mode on every table size and many seeds, under rules whose chips depend on who
    deals (the dealer's extra on every deal, the top-ups): the same sums, and the games
    include spoiled pools carried to another dealer and pools after them."""
    rng = np.random.default_rng(91)
    spoils = crossed = 0
    for n in range(2, 11):
        for seed in range(4):
            table = sf.Rules(
                dealer_extra=int(rng.integers(0, 3)),
                dealer_extra_every_deal=bool(rng.integers(0, 2)),
                spoil_topup=int(rng.integers(0, 3)),
                topup_amount=int(rng.integers(0, 3)),
                ante=int(rng.integers(0, 3)),
                max_deals=int(rng.choice([2, 5, 1000])),
                rob=int(rng.integers(0, 2)),
                jinx_bonus=int(rng.integers(0, 3)),
            )
            matrix = policy(n)
            matrix[int(rng.integers(0, n))] = [0, int(rng.integers(0, 4)), int(rng.integers(0, 2)), 1]
            kernel = simulate(SPEC, table, matrix, n, Mode.GAMES, 1000 + seed, 5, 3)
            assert np.array_equal(kernel, twin.simulate(table, matrix, n, Mode.GAMES, 1000 + seed, 5, 3)), (n, seed)
            spoils += int(kernel[n, GAME_TABLE["spoils"]])
            crossed += int(kernel[n, GAME_TABLE["pool_deals_count"]]) > 3 and kernel[n, GAME_TABLE["spoils"]] > 0
    assert spoils > 50 and crossed > 10


@pytest.mark.slow
def test_stacked_deals_of_kernel_and_twin_agree_on_random_packs():
    """play_dealt on random full packs (every card listed): the whole result dict."""
    rng = np.random.default_rng(8)
    for trial in range(60):
        n = int(rng.integers(2, 11))
        table = sf.Rules(
            plain_lead=int(rng.integers(0, 3)),
            rob=int(rng.integers(0, 2)),
            unrobbed_ace_low=bool(rng.integers(0, 2)),
            jinx_bonus=int(rng.integers(0, 3)),
        )
        matrix = np.column_stack(
            [rng.integers(0, 2, n), rng.integers(0, 4, n), rng.integers(0, 2, n), rng.integers(0, 2, n)]
        ).astype(float)
        cards = [int(c) for c in rng.permutation(52)]
        dealer = int(rng.integers(0, n))
        assert stacked.play_dealt(table, matrix, cards, dealer) == twin.play_dealt(table, matrix, cards, dealer), trial
