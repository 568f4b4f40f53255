"""Tests of the plain-Python twin of Fight for the Lead (sims.games.fight_for_the_lead.twin) alone.

These check the twin's own consistency on random hands and games (the pack, chip and card
conservation, the laws of play, the outcome rows, batching); the stacked-deck rule tests
that pin literal cards live in test_fight_for_the_lead_rules.py.  No Numba kernel is run.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import sims.games.fight_for_the_lead.twin as twin
from sims.core.cards import card_name
from sims.core.deck import deal_prefix
from sims.core.rng import Stream
from sims.games.fight_for_the_lead import (
    FORCED_REPLAY,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    LENGTH_BUCKET_LOW,
    POLICY_FIELDS,
    POT_LIMIT,
    REFUND_SPLIT,
    REPLAY_OPTIONAL,
    RESHUFFLE_DISCARDS,
    SAMPLE_FIRST,
    SAMPLE_LATER,
    SERVE_UNTIL_EMPTY,
    Rules,
    ante_for,
)
from sims.games.fight_for_the_lead.twin import play_dealt, play_game, play_hand, replay_lines, simulate
from sims.spec import Mode

HS = {name: i for i, name in enumerate(HAND_OUTCOMES.seat)}
HT = {name: i for i, name in enumerate(HAND_OUTCOMES.table)}
GS = {name: i for i, name in enumerate(GAME_OUTCOMES.seat)}
GT = {name: i for i, name in enumerate(GAME_OUTCOMES.table)}
DEFAULT_ROW = [f.default for f in POLICY_FIELDS]


def policy(n, **fields):
    row = dict(zip((f.key for f in POLICY_FIELDS), DEFAULT_ROW))
    row.update(fields)
    return np.array([[row[f.key] for f in POLICY_FIELDS]] * n, dtype=np.float64)


def random_policy(rng, n):
    return np.array([[rng.randint(int(f.lo), int(f.hi)) for f in POLICY_FIELDS] for _ in range(n)], dtype=np.float64)


def random_table(rng, max_hands=None):
    n = rng.randint(2, 10)
    exhaust = RESHUFFLE_DISCARDS if n == 10 else rng.randint(0, 2)
    ante = rng.choice([0, 0, 4, 8, 12]) if rng.random() < 0.8 else 0
    rules = Rules(
        ante=ante,
        dealer_rotates=rng.random() < 0.5,
        trade_in_first_hand=rng.random() < 0.5,
        trade_order=rng.randint(0, 1),
        trade_exhaust=exhaust,
        all_drop=rng.randint(0, 2),
        fight_exhaust=rng.randint(0, 1),
        max_hands=max_hands if max_hands is not None else rng.randint(1, 40),
        sample_hand=rng.randint(0, 1),
    )
    return rules, random_policy(rng, n), n


def hand_result(rules, pol, n, seed, index, dealer=None, pot=None, compulsory=None):
    """The full result dict of hand ``index`` of ``seed`` as hand mode plays it."""
    pack = twin.Pack(range(52), Stream(seed, index))
    if compulsory is None:
        compulsory = rules.sample_hand == SAMPLE_FIRST
    return twin._play(
        rules,
        twin._prepared(pol, n),
        n,
        pack,
        n - 1 if dealer is None else dealer,
        n * ante_for(rules, n) if pot is None else pot,
        compulsory,
        None,
    )


# ----------------------------------------------------------------------------------------
# The pack


@pytest.mark.parametrize("seed,index", [(0, 0), (1, 5), (12345, 99), (2**63 + 7, 3)])
def test_random_pack_first_draws_are_deal_prefix(seed, index):
    pack = twin.Pack(range(52), Stream(seed, index))
    drawn = [pack.draw() for _ in range(52)]
    assert drawn == deal_prefix(Stream(seed, index), 52)
    assert sorted(drawn) == list(range(52))
    assert pack.left() == 0


def test_renewed_pack_draws_lazy_fisher_yates_from_pile_order():
    stream = Stream(3, 4)
    pack = twin.Pack(range(52), stream)
    first = [pack.draw() for _ in range(45)]
    pile = [40, 3, 17, 22, 9, 50]
    pack.renew(pile)
    again = [pack.draw() for _ in range(len(pile))]
    # reproduce: the same stream continued, pack = the pile, swap t with t + below(m - t)
    ref = Stream(3, 4)
    assert deal_prefix(ref, 45) == first
    deck = list(pile)
    expected = []
    for t in range(len(deck)):
        j = t + ref.below(len(deck) - t)
        deck[t], deck[j] = deck[j], deck[t]
        expected.append(deck[t])
    assert again == expected
    assert sorted(again) == sorted(pile)


def test_hand_deal_is_deal_prefix_and_stacked_shuffle_replays_the_hand():
    rng = random.Random(11)
    compared = 0
    for index in range(150):
        rules, pol, n = random_table(rng)
        res = hand_result(rules, pol, n, 77, index)
        cards = deal_prefix(Stream(77, index), 52)
        # Without a reshuffle, the stream hand is the stacked hand of the shuffled order.
        if not res["reshuffled"]:
            stacked = play_dealt(rules, pol, n, cards, compulsory=rules.sample_hand == SAMPLE_FIRST)
            assert stacked == res
            compared += 1
        # the fight cards are dealt cards of the right seats; turned cards follow the deal
        for s in range(n):
            dealt = [cards[k] for k in range(4 * n) if (n - 1 + 1 + k) % n == s]
            assert res["fight"][s] in dealt
        assert res["turned"] == cards[4 * n : 4 * n + len(res["turned"])]
    assert compared > 100


def test_stacked_pack_puts_unlisted_cards_in_code_order():
    rules = Rules()
    n = 2
    pol = policy(n, fight_card=1)
    # seat 0 (dealer's left) gets the first, third, ... card; unlisted cards follow in code order
    listed = [51, 50, 49, 48, 47, 46, 45, 44]  # all spades: Ks Qs Js 10s 9s 8s 7s 6s
    res = play_dealt(rules, pol, n, listed, compulsory=True)
    assert res["fight"] == [51, 50]  # highest of each hand: Ks, Qs
    # clubs, diamonds and hearts (codes 0..38) are turned before the first spade, As (39)
    assert res["turned"] == list(range(40))
    assert card_name(res["turned"][-1]) == "As"
    assert res["lead"] == 0


# ----------------------------------------------------------------------------------------
# Conservation and laws of play over random hands (the hand check is conftest's ffl_hand_check)


def test_random_hands_conserve_chips_and_cards_and_follow_the_laws(ffl_hand_check):
    rng = random.Random(2024)
    seen = {"all_dropped": 0, "lone": 0, "stock_short": 0, "reshuffled": 0, "played": 0}
    for index in range(400):
        rules, pol, n = random_table(rng)
        compulsory = rng.random() < 0.25
        pot = n * ante_for(rules, n) * rng.choice([1, 1, 2, 5, 7])
        dealer = rng.randrange(n)
        res = hand_result(rules, pol, n, 5, index, dealer=dealer, pot=pot, compulsory=compulsory)
        ffl_hand_check(res, rules, n, pot, compulsory)
        seen["all_dropped"] += res["all_dropped"]
        seen["lone"] += sum(res["playing"]) == 1
        seen["stock_short"] += res["stock_short"]
        seen["reshuffled"] += res["reshuffled"]
        seen["played"] += sum(res["playing"]) >= 2
    # the random tables reach every branch
    assert all(v > 0 for v in seen.values()), seen


def test_stacked_random_orders_conserve_too(ffl_hand_check):
    rng = random.Random(7)
    for _ in range(150):
        rules, pol, n = random_table(rng)
        cards = list(range(52))
        rng.shuffle(cards)
        cards = cards[: rng.randint(0, 52)]
        compulsory = rng.random() < 0.3
        res = play_dealt(rules, pol, n, cards, compulsory=compulsory)
        ffl_hand_check(res, rules, n, n * ante_for(rules, n), compulsory)


def test_hand_rows_are_consistent_with_the_hand():
    rng = random.Random(99)
    for index in range(300):
        rules, pol, n = random_table(rng)
        seat_rows, table_row = play_hand(rules, pol, n, 42, index)
        res = hand_result(rules, pol, n, 42, index)
        assert len(seat_rows) == n and all(len(r) == len(HAND_OUTCOMES.seat) for r in seat_rows)
        assert len(table_row) == len(HAND_OUTCOMES.table)
        pot = n * ante_for(rules, n)
        for s, row in enumerate(seat_rows):
            took = [row[HS[f"took_{k}"]] for k in range(5)]
            assert sum(took) + row[HS["dropped"]] == 1
            assert row[HS["dropped"]] == 1 - res["playing"][s]
            if res["playing"][s]:
                assert took[res["won"][s]] == 1
            assert row[HS["lead"]] == (1 if res["lead"] == s else 0)
            assert row[HS["net"]] == res["net"][s] and row[HS["net_sq"]] == res["net"][s] ** 2
            assert row[HS["traded"]] == res["traded"][s] and row[HS["traded_sq"]] == res["traded"][s] ** 2
        assert sum(r[HS["lead"]] for r in seat_rows) == 1
        players_in = sum(res["playing"])
        losers = sum(r[HS["took_0"]] for r in seat_rows)
        assert table_row[HT["players_in"]] == players_in and table_row[HT["players_in_sq"]] == players_in**2
        assert table_row[HT["losers"]] == losers and table_row[HT["losers_sq"]] == losers**2
        assert table_row[HT["all_dropped"]] == (1 if players_in == 0 else 0)
        assert table_row[HT["turned"]] == len(res["turned"]) >= 1
        assert table_row[HT["turned_sq"]] == len(res["turned"]) ** 2
        total = sum(r[HS["net"]] for r in seat_rows)
        if players_in == 0:
            assert total == (pot if rules.all_drop == REFUND_SPLIT else 0)
        else:
            assert total == pot - losers * pot


def test_sample_hand_first_is_compulsory():
    rules = Rules(sample_hand=SAMPLE_FIRST)
    pol = policy(5, stay_min_strength=9, stay_with_lead=0)  # would always drop in a later hand
    for index in range(20):
        seat_rows, table_row = play_hand(rules, pol, 5, 8, index)
        assert table_row[HT["players_in"]] == 5
        assert table_row[HT["losers"]] >= 1  # five players, four tricks
        assert all(r[HS["dropped"]] == 0 for r in seat_rows)
    seat_rows, table_row = play_hand(rules._replace(sample_hand=SAMPLE_LATER), pol, 5, 8, 0)
    assert table_row[HT["all_dropped"]] == 1 and table_row[HT["players_in"]] == 0


def test_refund_split_hand_pays_every_seat_its_share():
    n = 6
    rules = Rules(all_drop=REFUND_SPLIT, ante=2)
    pol = policy(n, stay_min_strength=9, stay_with_lead=0)
    seat_rows, table_row = play_hand(rules, pol, n, 1, 0)
    assert table_row[HT["all_dropped"]] == 1
    assert [r[HS["net"]] for r in seat_rows] == [2] * n  # P = 12, P/n = 2
    assert all(r[HS["dropped"]] == 1 for r in seat_rows)


def test_replay_lines_mentions_the_fight_winner_and_the_tricks():
    rng = random.Random(5)
    for hand in range(10):
        rules, pol, n = random_table(rng)
        lines = replay_lines(rules, pol, n, 31, hand)
        seat_rows, _ = play_hand(rules, pol, n, 31, hand)
        lead = [s for s in range(n) if seat_rows[s][HS["lead"]]][0]
        assert any(f"seat {lead} wins the fight" in line for line in lines)
        res = hand_result(rules, pol, n, 31, hand)
        assert sum(line.startswith("trick ") for line in lines) == len(res["tricks"])
        deal = " ".join(line for line in lines if line.startswith("deal:"))
        for c in res["fight"]:
            assert card_name(c) in deal


def test_log_does_not_change_the_result():
    rng = random.Random(8)
    for hand in range(30):
        rules, pol, n = random_table(rng)
        cards = deal_prefix(Stream(4, hand), 52)
        log = []
        assert play_dealt(rules, pol, n, cards, log=log) == play_dealt(rules, pol, n, cards)
        assert log


def test_play_dealt_refuses_bad_input():
    pol = policy(3)
    with pytest.raises(ValueError):
        play_dealt(Rules(), pol, 3, [0, 0, 1])
    with pytest.raises(ValueError):
        play_dealt(Rules(), pol, 3, [52])
    with pytest.raises(ValueError):
        play_dealt(Rules(), pol, 3, [], pot=6)
    with pytest.raises(ValueError):
        play_dealt(Rules(trade_exhaust=SERVE_UNTIL_EMPTY), policy(10), 10, [])


# ----------------------------------------------------------------------------------------
# Games


def test_random_games_conserve_chips():
    rng = random.Random(314)
    stopped = ended = 0
    for index in range(250):
        rules, pol, n = random_table(rng, max_hands=rng.randint(1, 12))
        seat_rows, table_row = play_game(rules, pol, n, 17, index)
        assert len(seat_rows) == n and all(len(r) == len(GAME_OUTCOMES.seat) for r in seat_rows)
        assert len(table_row) == len(GAME_OUTCOMES.table)
        nets = [r[GS["net"]] for r in seat_rows]
        assert sum(nets) == 0
        assert all(type(v) is int for v in nets)
        for r in seat_rows:
            assert r[GS["net_sq"]] == r[GS["net"]] ** 2
            assert r[GS["profit"]] == (1 if r[GS["net"]] > 0 else 0)
        hands = table_row[GT["hands"]]
        assert 1 <= hands <= rules.max_hands and table_row[GT["hands_sq"]] == hands**2
        assert table_row[GT["largest_pot"]] >= n * ante_for(rules, n)
        assert table_row[GT["largest_pot"]] % (4 * n // np.gcd(4, n)) == 0
        lengths = table_row[GT["length_1"] :]
        assert sum(lengths) == 1
        bucket = lengths.index(1)
        assert LENGTH_BUCKET_LOW[bucket] <= hands
        assert bucket == len(LENGTH_BUCKET_LOW) - 1 or hands < LENGTH_BUCKET_LOW[bucket + 1]
        if table_row[GT["truncated"]]:
            stopped += 1
        else:
            ended += 1
        if hands < rules.max_hands and not table_row[GT["overflow"]]:
            assert table_row[GT["truncated"]] == 0
    assert stopped > 0 and ended > 0


def test_first_game_hand_matches_a_compulsory_hand_on_the_same_stream():
    rng = random.Random(21)
    for index in range(60):
        rules, pol, n = random_table(rng, max_hands=1)
        seat_rows, table_row = play_game(rules, pol, n, 9, index)
        res = hand_result(rules, pol, n, 9, index, compulsory=True)
        ante = ante_for(rules, n)
        assert table_row[GT["hands"]] == 1
        assert table_row[GT["truncated"]] == (1 if res["pot_next"] else 0)
        share = res["pot_next"] // n
        assert [r[GS["net"]] for r in seat_rows] == [res["net"][s] - ante + share for s in range(n)]


def test_refund_split_games_end_without_truncation():
    n = 5
    rules = Rules(all_drop=REFUND_SPLIT, max_hands=50)
    pol = policy(n, stay_min_strength=9, stay_with_lead=0)  # everyone drops after the first hand
    total = simulate(rules, pol, n, Mode.GAMES, 3, 0, 40)
    table = total[n]
    assert table[GT["truncated"]] == 0
    assert table[GT["length_2"]] == 40  # five players: the compulsory first hand always leaves a pot
    assert table[GT["hands"]] == 80
    assert sum(total[s][GS["net"]] for s in range(n)) == 0


def test_replay_optional_all_drop_is_truncated_by_max_hands():
    n = 5
    rules = Rules(all_drop=REPLAY_OPTIONAL, max_hands=7)
    pol = policy(n, stay_min_strength=9, stay_with_lead=0)
    for index in range(5):
        seat_rows, table_row = play_game(rules, pol, n, 6, index)
        assert table_row[GT["hands"]] == 7 and table_row[GT["truncated"]] == 1
        assert table_row[GT["overflow"]] == 0
        assert sum(r[GS["net"]] for r in seat_rows) == 0


def test_forced_replay_follows_an_all_drop_with_a_compulsory_hand():
    n = 5
    rules = Rules(all_drop=FORCED_REPLAY, max_hands=3)
    pol = policy(n, stay_min_strength=9, stay_with_lead=0)
    log = []
    seat_rows, table_row = play_game(rules, pol, n, 6, 0, log)
    # hand 1 compulsory (5 players: a pot is left), hand 2 all drop, hand 3 compulsory again
    assert table_row[GT["hands"]] == 3
    assert sum("compulsory" in line for line in log if line.startswith("hand:")) == 2
    assert any(line.startswith("all drop") for line in log)


def test_max_hands_one_truncates_every_big_table_game():
    n = 6  # six players in a compulsory hand: at least two take no trick
    rules = Rules(max_hands=1)
    total = simulate(rules, policy(n), n, Mode.GAMES, 12, 0, 30)
    table = total[n]
    assert table[GT["truncated"]] == 30 and table[GT["hands"]] == 30 and table[GT["length_1"]] == 30
    assert table[GT["overflow"]] == 0
    assert sum(total[s][GS["net"]] for s in range(n)) == 0


def test_pot_limit_stops_a_game_as_overflow():
    n = 9  # nine always-in players: at least five losers a hand, so the pot grows fivefold
    rules = Rules(ante=4, max_hands=1000, trade_exhaust=RESHUFFLE_DISCARDS)
    pol = policy(n, stay_min_strength=0)
    seat_rows, table_row = play_game(rules, pol, n, 2, 0)
    assert table_row[GT["truncated"]] == 1 and table_row[GT["overflow"]] == 1
    assert table_row[GT["largest_pot"]] <= POT_LIMIT
    assert table_row[GT["largest_pot"]] * 5 > POT_LIMIT
    assert 10 < table_row[GT["hands"]] < 40
    nets = [r[GS["net"]] for r in seat_rows]
    assert sum(nets) == 0 and max(abs(v) for v in nets) > 2**40


# ----------------------------------------------------------------------------------------
# Batching


def test_simulate_hands_is_the_sum_of_play_hand_and_split_invariant():
    rules = Rules(trade_order=1, trade_exhaust=SERVE_UNTIL_EMPTY)
    n = 7
    pol = random_policy(random.Random(4), n)
    total = simulate(rules, pol, n, Mode.HANDS, 55, 10, 60)
    assert total.dtype == np.int64 and total.shape == (n + 1, HAND_OUTCOMES.width)
    manual = np.zeros_like(total)
    for index in range(10, 70):
        seat_rows, table_row = play_hand(rules, pol, n, 55, index)
        manual[:n, : len(HAND_OUTCOMES.seat)] += np.array(seat_rows)
        manual[n, : len(HAND_OUTCOMES.table)] += np.array(table_row)
    assert (total == manual).all()
    pieces = HAND_OUTCOMES.combine(
        simulate(rules, pol, n, Mode.HANDS, 55, 10, 25), simulate(rules, pol, n, Mode.HANDS, 55, 35, 35)
    )
    assert (pieces == total).all()
    assert total[n, HT["players_in"]] > 0


def test_simulate_games_is_split_invariant_with_exact_integers_and_a_maximum():
    rules = Rules(max_hands=30)
    n = 6
    pol = policy(n)
    total = simulate(rules, pol, n, Mode.GAMES, 8, 0, 24)
    assert total.dtype == object and total.shape == (n + 1, GAME_OUTCOMES.width)
    a = simulate(rules, pol, n, Mode.GAMES, 8, 0, 9)
    b = simulate(rules, pol, n, Mode.GAMES, 8, 9, 15)
    assert (GAME_OUTCOMES.combine(a, b) == total).all()
    pots = [play_game(rules, pol, n, 8, i)[1][GT["largest_pot"]] for i in range(24)]
    assert total[n, GT["largest_pot"]] == max(pots)
    hands = sum(play_game(rules, pol, n, 8, i)[1][GT["hands"]] for i in range(24))
    assert total[n, GT["hands"]] == hands
    assert sum(total[s, GS["net"]] for s in range(n)) == 0
    with pytest.raises(ValueError):
        simulate(rules, pol, n, 2, 8, 0, 1)


def test_trading_reshuffles_at_most_once_and_ten_players_run_short(ffl_hand_check):
    n = 10
    rules = Rules(sample_hand=SAMPLE_FIRST)  # compulsory: all ten play and trade
    pol = policy(n, keep_min_rank=15)  # everyone wants to trade all four cards
    short = trade_reshuffles = 0
    for hand in range(60):
        log = []
        res = play_dealt(rules, pol, n, deal_prefix(Stream(13, hand), 52), compulsory=True, log=log)
        in_trading = sum(line.startswith("trade: the pack is empty") for line in log)
        in_replacement = sum(line.startswith("replacement: the pack is empty") for line in log)
        assert in_trading <= 1 and in_replacement <= 1
        assert res["reshuffled"] == (1 if in_trading + in_replacement else 0)
        short += res["stock_short"]
        trade_reshuffles += in_trading
        ffl_hand_check(res, rules, n, n * ante_for(rules, n), True)
    assert short > 0 and trade_reshuffles > 0
