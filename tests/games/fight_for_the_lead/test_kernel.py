"""The Fight for the Lead kernel against its plain-Python twin, chip conservation in every
hand and game, overflow truncation, and the per-seat policy fields seen in the sums."""

from __future__ import annotations

import numpy as np
import pytest

from sims.engine import simulate
from sims.games import fight_for_the_lead as ffl
from sims.games.fight_for_the_lead import stacked, twin
from sims.registry import GAMES
from sims.spec import Mode

SPEC = GAMES["fight-for-the-lead"]
FIELDS = [f.key for f in SPEC.policy_fields]
HAND_COLUMN = {name: i for i, name in enumerate(ffl.HAND_OUTCOMES.seat)}
HAND_TABLE = {name: i for i, name in enumerate(ffl.HAND_OUTCOMES.table)}
GAME_COLUMN = {name: i for i, name in enumerate(ffl.GAME_OUTCOMES.seat)}
GAME_TABLE = {name: i for i, name in enumerate(ffl.GAME_OUTCOMES.table)}


def policy(n, preset="default", **fields):
    matrix = SPEC.default_policy(n, preset)
    for key, value in fields.items():
        matrix[:, FIELDS.index(key)] = value
    return matrix


def random_table(rng, n):
    """Random rules (a legal ante for n) and a random policy row per seat."""
    exhaust = int(rng.integers(0, 3)) if n < 10 else ffl.RESHUFFLE_DISCARDS
    ante = int(rng.choice([0, 4, 8])) if rng.integers(0, 3) else 0
    rules = ffl.Rules(
        ante=ante,
        dealer_rotates=bool(rng.integers(0, 2)),
        trade_in_first_hand=bool(rng.integers(0, 2)),
        trade_order=int(rng.integers(0, 2)),
        trade_exhaust=exhaust,
        all_drop=int(rng.integers(0, 3)),
        fight_exhaust=int(rng.integers(0, 2)),
        max_hands=int(rng.choice([1, 3, 200])),
        sample_hand=int(rng.integers(0, 2)),
    )
    matrix = np.column_stack(
        [
            rng.integers(0, 4, n),
            rng.integers(0, 10, n),
            rng.integers(0, 2, n),
            rng.integers(2, 16, n),
            rng.integers(0, 2, n),
        ]
    ).astype(float)
    return rules, matrix


@pytest.mark.slow
@pytest.mark.parametrize("mode,count", [(Mode.HANDS, 150), (Mode.GAMES, 25)], ids=["hands", "games"])
def test_kernel_matches_plain_python_twin_exactly(mode, count):
    """Thousands of hands on random tables (2-10 players, every switch, mixed policies):
    identical integer sums, so the kernel and the twin play every hand the same way."""
    rng = np.random.default_rng(2024 + mode)
    for trial in range(24):
        n = int(rng.integers(2, 11))
        rules, matrix = random_table(rng, n)
        kernel_sums = simulate(SPEC, rules, matrix, n, mode, trial, 5, count, threads=2)
        assert np.array_equal(kernel_sums, twin.simulate(rules, matrix, n, mode, trial, 5, count)), (
            rules,
            matrix.tolist(),
        )


def test_big_tables_exercise_reshuffles_and_short_trades_identically():
    """Nine and ten players trading everything: reshuffles and cut-short trades happen,
    and the kernel still matches the twin exactly."""
    for n, exhaust in (
        (9, ffl.RESHUFFLE_DISCARDS),
        (9, ffl.SERVE_UNTIL_EMPTY),
        (9, ffl.CAP_EQUAL),
        (10, ffl.RESHUFFLE_DISCARDS),
    ):
        rules = ffl.Rules(trade_exhaust=exhaust)
        matrix = policy(n, keep_min_rank=15, stay_min_strength=0)
        sums = simulate(SPEC, rules, matrix, n, Mode.HANDS, 3, 0, 400)
        assert np.array_equal(sums, twin.simulate(rules, matrix, n, Mode.HANDS, 3, 0, 400))
        assert sums[n, HAND_TABLE["stock_short"]] > 0
        assert (sums[n, HAND_TABLE["reshuffled"]] > 0) == (exhaust == ffl.RESHUFFLE_DISCARDS)


def test_kernel_hands_match_the_twin_one_by_one():
    """Hand by hand (one hand per call), so a difference could not cancel in a sum."""
    rng = np.random.default_rng(31)
    for hand in range(200):
        n = int(rng.integers(2, 11))
        rules, matrix = random_table(rng, n)
        assert np.array_equal(
            simulate(SPEC, rules, matrix, n, Mode.HANDS, 8, hand, 1),
            twin.simulate(rules, matrix, n, Mode.HANDS, 8, hand, 1),
        ), (hand, rules, matrix.tolist())


@pytest.mark.slow
def test_kernel_stacked_hands_obey_the_laws_of_play(ffl_hand_check):
    """The twin tests' full hand check (fight, leader, follow suit, trick winners, cards,
    chips) applied to the kernel's play_dealt on shuffled packs."""
    rng = np.random.default_rng(12)
    for trial in range(200):
        n = int(rng.integers(2, 11))
        rules, matrix = random_table(rng, n)
        pot = n * ffl.ante_for(rules, n) * int(rng.choice([1, 3]))
        compulsory = bool(rng.integers(0, 2))
        result = stacked.play_dealt(
            rules,
            matrix,
            n,
            rng.permutation(52).tolist(),
            dealer=int(rng.integers(0, n)),
            pot=pot,
            compulsory=compulsory,
        )
        ffl_hand_check(result, rules, n, pot, compulsory)


def test_play_dealt_refuses_what_the_kernel_cannot_play():
    matrix = policy(4)
    for kwargs, message in (({"dealer": 4}, "dealer"), ({"pot": 6}, "multiple of 4"), ({"pot": 0}, "multiple of 4")):
        with pytest.raises(ValueError, match=message):
            stacked.play_dealt(ffl.Rules(), matrix, 4, list(range(16)), **kwargs)
    with pytest.raises(ValueError, match="2 to 10"):
        stacked.play_dealt(ffl.Rules(), policy(11), 11, list(range(44)))


def test_every_hand_conserves_chips_and_cards():
    """Shuffled stacked packs through the kernel's play_dealt: the tricks pay out exactly
    the pot, the losers pay pot_next, and the 4n+ cards in play are all different."""
    rng = np.random.default_rng(5)
    for trial in range(300):
        n = int(rng.integers(2, 11))
        rules, matrix = random_table(rng, n)
        pot = n * ffl.ante_for(rules, n) * int(rng.choice([1, 2, 6]))
        result = stacked.play_dealt(
            rules,
            matrix,
            n,
            rng.permutation(52).tolist(),
            dealer=int(rng.integers(0, n)),
            pot=pot,
            compulsory=bool(rng.integers(0, 2)),
        )
        playing = sum(result["playing"])
        if playing >= 2:
            assert sum(result["won"]) == 4
            winnings = sum(net for net in result["net"] if net > 0)
            losers = [seat for seat in range(n) if result["playing"][seat] and result["won"][seat] == 0]
            assert winnings == pot and result["pot_next"] == len(losers) * pot
            assert sum(result["net"]) == pot - result["pot_next"]
        elif playing == 1:
            assert sorted(result["net"]) == [0] * (n - 1) + [pot] and result["pot_next"] == 0
        else:
            assert result["pot_next"] + sum(result["net"]) == pot
        held = [card for hand in result["held"] for card in hand]
        assert len(held) == 4 * n and len(set(held)) == 4 * n


def test_every_game_conserves_chips():
    """Game by game (one game per call), the seats' nets sum to zero: antes, pots,
    payments and the shares of stopped games all balance."""
    rng = np.random.default_rng(9)
    for game in range(60):
        n = int(rng.integers(2, 10))
        rules, matrix = random_table(rng, n)
        sums = simulate(SPEC, rules, matrix, n, Mode.GAMES, 1, game, 1)
        assert sum(sums[:n, GAME_COLUMN["net"]]) == 0
        assert sums[n, GAME_TABLE["hands"]] >= 1


def test_overflowing_pots_stop_the_game_with_exact_nets():
    """Nine players who never drop or trade: the pot multiplies by up to 8 every hand and
    passes 2**48, so games stop as overflow; the nets (far beyond int64 when squared)
    decode to the twin's exact integers and still sum to zero."""
    n = 9
    rules = ffl.Rules(max_hands=1000)
    matrix = policy(n, stay_min_strength=0, keep_min_rank=2)
    sums = simulate(SPEC, rules, matrix, n, Mode.GAMES, 7, 0, 40)
    assert sums[n, GAME_TABLE["overflow"]] > 0
    assert sums[n, GAME_TABLE["overflow"]] == sums[n, GAME_TABLE["truncated"]]
    assert sum(sums[:n, GAME_COLUMN["net"]]) == 0
    assert max(abs(int(v)) for v in sums[:n, GAME_COLUMN["net_sq"]]) > 2**63
    assert sums[n, GAME_TABLE["largest_pot"]] <= ffl.POT_LIMIT
    assert np.array_equal(sums, twin.simulate(rules, matrix, n, Mode.GAMES, 7, 0, 40))


def test_results_do_not_depend_on_threads_or_blocks_in_game_mode():
    """Wide limbs and the largest-pot maximum combine exactly across blocks and threads."""
    n = 6
    matrix = policy(n)
    reference = simulate(SPEC, ffl.Rules(), matrix, n, Mode.GAMES, 2, 0, 3000, threads=1, n_blocks=1)
    for threads, blocks in ((2, 7), (1, 13), (2, 2)):
        assert np.array_equal(
            simulate(SPEC, ffl.Rules(), matrix, n, Mode.GAMES, 2, 0, 3000, threads, blocks), reference
        )


def test_hand_mode_probabilities_add_up_and_the_lead_is_won_once():
    n = 5
    hands = 20_000
    sums = simulate(SPEC, ffl.Rules(), policy(n), n, Mode.HANDS, 1, 0, hands)
    for seat in range(n):
        outcomes = sums[seat, HAND_COLUMN["dropped"]] + sum(sums[seat, HAND_COLUMN[f"took_{k}"]] for k in range(5))
        assert outcomes == hands
    assert sum(sums[:n, HAND_COLUMN["lead"]]) == hands
    # Every played hand hands out 4 tricks: the tricks taken add up.
    tricks = sum(k * sums[seat, HAND_COLUMN[f"took_{k}"]] for seat in range(n) for k in range(5))
    assert tricks == 4 * (hands - sums[n, HAND_TABLE["all_dropped"]])


def test_first_hand_sample_is_compulsory():
    n = 4
    sums = simulate(
        SPEC,
        ffl.Rules(sample_hand=ffl.SAMPLE_FIRST),
        policy(n, stay_min_strength=9, stay_with_lead=0),
        n,
        Mode.HANDS,
        1,
        0,
        2000,
    )
    assert sums[:n, HAND_COLUMN["dropped"]].sum() == 0
    assert sums[n, HAND_TABLE["players_in"]] == 4 * 2000


def test_policy_fields_change_what_happens():
    """Each policy field has its intended effect on the sums (a seat that never stays on
    strength and never keeps the lead drops every later hand; one that trades all four
    trades four whenever it plays; fighting with the highest card wins the lead more)."""
    n = 4
    hands = 20_000
    quitter = policy(n)
    quitter[0, FIELDS.index("stay_min_strength")] = 9
    quitter[0, FIELDS.index("stay_with_lead")] = 0
    sums = simulate(SPEC, ffl.Rules(), quitter, n, Mode.HANDS, 4, 0, hands)
    assert sums[0, HAND_COLUMN["dropped"]] == hands and sums[0, HAND_COLUMN["net"]] == 0

    trader = policy(n, stay_min_strength=0)
    trader[1, FIELDS.index("keep_min_rank")] = 15
    sums = simulate(SPEC, ffl.Rules(), trader, n, Mode.HANDS, 4, 0, hands)
    assert sums[1, HAND_COLUMN["traded"]] == 4 * hands and sums[1, HAND_COLUMN["traded_sq"]] == 16 * hands

    fighter = policy(n)
    fighter[2, FIELDS.index("fight_card")] = ffl.FIGHT_HIGHEST
    sums = simulate(SPEC, ffl.Rules(), fighter, n, Mode.HANDS, 4, 0, hands)
    lead = sums[:n, HAND_COLUMN["lead"]] / hands
    assert lead[2] > max(lead[0], lead[1], lead[3]) + 0.05


def test_stopped_games_are_counted_by_cause_and_left_out_of_finished_net():
    """max_hands=2 stops long games: hit_max_hands + overflow = truncated, and
    finished_net sums exactly the games that ended by the rules."""
    n = 6
    rules = ffl.Rules(max_hands=2)
    sums = simulate(SPEC, rules, policy(n), n, Mode.GAMES, 3, 0, 3000)
    truncated = sums[n, GAME_TABLE["truncated"]]
    assert truncated > 0 and sums[n, GAME_TABLE["hit_max_hands"]] + sums[n, GAME_TABLE["overflow"]] == truncated
    assert all(sums[seat, GAME_COLUMN["finished_net_count"]] == 3000 - truncated for seat in range(n))
    assert sum(sums[:n, GAME_COLUMN["finished_net"]]) == 0  # finished games conserve chips on their own
    finished = 0
    for game in range(200):
        one = simulate(SPEC, rules, policy(n), n, Mode.GAMES, 3, game, 1)
        if not one[n, GAME_TABLE["truncated"]]:
            assert np.array_equal(one[:n, GAME_COLUMN["finished_net"]], one[:n, GAME_COLUMN["net"]])
            finished += 1
        else:
            assert not any(one[:n, GAME_COLUMN["finished_net"]])
    assert 0 < finished < 200


def test_dealer_rotates_between_hands_only_when_the_rule_says_so():
    """The twin's game log (which the kernel matches exactly, above) names each hand's dealer."""
    n = 4
    for rotates, expected in ((True, [3, 0, 1, 2, 3, 0]), (False, [3] * 6)):
        rules = ffl.Rules(dealer_rotates=rotates, max_hands=6)
        matrix = policy(n, stay_min_strength=0, keep_min_rank=2)
        for game in range(200):
            log = []
            twin.play_game(rules, matrix, n, 5, game, log=log)
            dealers = [
                int(line.split("dealer seat ")[1].split(",")[0]) for line in log if line.startswith("hand: dealer seat")
            ]
            if len(dealers) == 6:
                break
        assert dealers == expected


def test_play_style_and_stay_with_lead_change_the_sums():
    n = 4
    hands = 20_000
    base = simulate(SPEC, ffl.Rules(), policy(n), n, Mode.HANDS, 6, 0, hands)
    high = policy(n)
    high[0, FIELDS.index("play_style")] = ffl.STYLE_HIGH
    with_high = simulate(SPEC, ffl.Rules(), high, n, Mode.HANDS, 6, 0, hands)
    assert not np.array_equal(with_high[0], base[0])
    assert np.array_equal(with_high[:, HAND_COLUMN["lead"]], base[:, HAND_COLUMN["lead"]])  # same fights
    lead_only = policy(n, stay_min_strength=9, stay_with_lead=1)
    sums = simulate(SPEC, ffl.Rules(), lead_only, n, Mode.HANDS, 6, 0, hands)
    # Only the fight winner stays: a lone player, every hand.
    assert sums[n, HAND_TABLE["players_in"]] == hands
    assert all(sums[seat, HAND_COLUMN["took_4"]] == sums[seat, HAND_COLUMN["lead"]] for seat in range(n))
