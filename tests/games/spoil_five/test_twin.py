"""Tests of the plain-Python twin of Spoil Five (sims.games.spoil_five.twin) alone.

Random deals of many tables (2..10 players, every variant, several policies) are checked
against every law a deal must obey, written here independently of the twin from the rules
contract (the docstring of sims/games/spoil_five/__init__.py): the deal and its stream, robbing and
forfeit, legal play, trick winners, when the hand stops, chips.  A small stacked pool
derived by hand checks play_pool's top-ups.  No Numba kernel is run; the stacked-deck
tests of each rule switch live in test_spoil_five_rules.py.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from sims.core.cards import parse_cards
from sims.core.deck import deal_prefix
from sims.core.rng import Stream
from sims.games.spoil_five.rules import (
    BONUS_ANTE,
    BONUS_DOUBLE_ANTE,
    FOLLOW_OR_TRUMP,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    MUST_FOLLOW,
    ORDER,
    POLICIES,
    POLICY_FIELDS,
    ROB_OBLIGATORY,
    SUIT_OF,
    TOPUP_DEALER_ONLY,
    TOPUP_EVERYONE,
    VARIANTS,
    Rules,
)
from sims.games.spoil_five.twin import (
    hand_result,
    play_dealt,
    play_game,
    play_hand,
    play_pool,
    rank_orders,
    replay_lines,
    simulate,
)

HANDS, GAMES = 0, 1
HS = {name: i for i, name in enumerate(HAND_OUTCOMES.seat)}
HT = {name: i for i, name in enumerate(HAND_OUTCOMES.table)}
GS = {name: i for i, name in enumerate(GAME_OUTCOMES.seat)}
GT = {name: i for i, name in enumerate(GAME_OUTCOMES.table)}
AH = 26
PRIVILEGED_FACES = (4, 10)  # the 5 and the jack


def policy(n, **fields):
    """n rows of the default policy with ``fields`` changed."""
    assert [f.key for f in POLICY_FIELDS] == ["rob", "jinx_min", "spoil", "renege"]
    row = [fields.get(f.key, f.default) for f in POLICY_FIELDS]
    return np.array([row] * n, dtype=np.float64)


def preset(name, n):
    return policy(n, **POLICIES[name].base)


def random_policy(rng, n):
    return np.array(
        [[rng.randint(0, 1), rng.randint(0, 3), rng.randint(0, 1), rng.randint(0, 1)] for _ in range(n)],
        dtype=np.float64,
    )


def variant(name, **more):
    return Rules(**{**VARIANTS[name].rules, **more})


def cards(text):
    return parse_cards(text)


# ----------------------------------------------------------------------------------------
# The laws of one deal, written from the contract


def check_deal(res, rules, pol, n, dealer):
    """Every law a play_dealt result must obey."""
    trump = res["trump"]
    turnup = res["turnup"]
    assert trump == turnup // 13
    ace = 13 * trump

    def is_trump(c):
        return SUIT_OF[trump, c] == trump

    # the deal: five distinct cards each, none the turn-up
    dealt = res["dealt"]
    assert len(dealt) == n and all(len(h) == 5 and h == sorted(h) for h in dealt)
    every = [c for h in dealt for c in h] + [turnup]
    assert len(set(every)) == 5 * n + 1

    # robbing
    holder = [s for s in range(n) if ace in dealt[s]]
    robbed_by, discard, forfeited = res["robbed_by"], res["discard"], res["forfeited"]
    if turnup % 13 == 0:
        assert holder == [] and forfeited == -1
        assert robbed_by == (dealer if pol[dealer][0] == 1 else -1)
    elif holder:
        (h,) = holder
        robs = pol[h][0] == 1
        assert robbed_by == (h if robs else -1)
        assert forfeited == (h if not robs and rules.rob == ROB_OBLIGATORY else -1)
    else:
        assert robbed_by == -1 and forfeited == -1
    held = [list(h) for h in dealt]
    if robbed_by >= 0:
        assert discard in dealt[robbed_by] and discard != ace
        held[robbed_by] = sorted(set(dealt[robbed_by]) - {discard} | {turnup})
    else:
        assert discard == -1
    assert res["held"] == [sorted(h) for h in held]
    demoted = holder[0] if holder and robbed_by < 0 and rules.unrobbed_ace_low else -1

    def order(c):
        return 0 if demoted >= 0 and c == ace else int(ORDER[trump, c])

    def suit(c):
        return int(SUIT_OF[trump, c])

    # tricks: clockwise from the leader, from the seat's cards, legal, the right winner
    hands = [set(h) for h in res["held"]]
    won = [0] * n
    leader = (dealer + 1) % n
    stop = None  # what ended the hand, as the contract's stop rules see it
    for t, (trick_leader, plays, winner) in enumerate(res["tricks"], start=1):
        assert stop is None, "a trick was played after the hand stopped"
        assert trick_leader == leader
        assert [s for s, _ in plays] == [(leader + k) % n for k in range(n)]
        led = plays[0][1]
        for s, c in plays:
            assert c in hands[s]
            if s != leader:
                mine = hands[s]
                if suit(led) == trump:
                    renegeable = {
                        x
                        for x in mine
                        if is_trump(x)
                        and order(x) > order(led)
                        and (x == AH or (x // 13 == trump and x % 13 in PRIVILEGED_FACES))
                    }
                    must = {x for x in mine if is_trump(x)} - renegeable
                    if must:
                        assert is_trump(c)
                else:
                    follow = {x for x in mine if suit(x) == suit(led)}
                    if follow and rules.plain_lead == FOLLOW_OR_TRUMP:
                        assert suit(c) == suit(led) or is_trump(c)
                    if follow and rules.plain_lead == MUST_FOLLOW:
                        assert suit(c) == suit(led)
            hands[s].discard(c)
        trumps = [(order(c), s) for s, c in plays if is_trump(c)]
        if trumps:
            best = max(trumps)[1]
        else:
            best = max((order(c), s) for s, c in plays if suit(c) == suit(led))[1]
        assert winner == best
        won[winner] += 1
        leader = winner
        # when the hand stops
        jinxer = res["jinx_by"]
        if jinxer >= 0 and t > 3:
            if winner != jinxer:
                stop = ("spoil", winner)
            elif t == 5:
                stop = ("jinx made", winner)
        elif won[winner] == 3:
            if winner == forfeited:
                stop = ("spoil", winner)
            elif rules.jinx and t == 3:
                stop = ("jinx", winner) if jinxer == winner else ("claim", winner)
                if jinxer == winner:
                    stop = None
            else:
                stop = ("win", winner)
        elif all(won[s] + 5 - t < 3 for s in range(n) if s != forfeited):
            stop = ("spoil", winner)
    assert stop is not None, "the hand stopped too early"
    assert res["tricks_won"] == won and sum(won) == len(res["tricks"])

    kind, who = stop
    jinxer = res["jinx_by"]
    if jinxer >= 0:
        assert rules.jinx and [w for _, _, w in res["tricks"][:3]] == [jinxer] * 3 and jinxer != forfeited
        assert res["claimed"] == 0
    assert res["jinx_made"] == int(kind == "jinx made")
    assert res["claimed"] == int(kind == "claim")
    if kind == "spoil":
        assert res["spoiled"] == 1 and res["spoiler"] == who and res["winner"] == -1
    else:
        assert res["spoiled"] == 0 and res["spoiler"] == -1 and res["winner"] == who
        assert who != forfeited and won[who] >= 3
    assert (res["winner"] >= 0) + res["spoiled"] == 1
    if n == 2 and res["spoiled"]:
        assert forfeited >= 0 or jinxer >= 0  # two players always split 3-2 otherwise

    # chips
    if "net" in res:
        ante, extra = rules.ante, rules.dealer_extra
        pool = n * ante + extra
        assert res["pool"] == pool
        bonus = {BONUS_ANTE: ante, BONUS_DOUBLE_ANTE: 2 * ante}.get(rules.jinx_bonus, 0)
        for s in range(n):
            expect = -ante - (extra if s == dealer else 0)
            if s == res["winner"]:
                expect += pool + (bonus * (n - 1) if res["jinx_made"] else 0)
            elif res["jinx_made"]:
                expect -= bonus
            assert res["net"][s] == expect
        assert res["carried"] == (pool if res["spoiled"] else 0)
        assert sum(res["net"]) + res["carried"] == 0


TABLES = [(n, name) for name in VARIANTS for n in (2, 3, 5, 7, 10)]


@pytest.mark.parametrize("n,name", TABLES)
def test_random_hands_obey_the_laws(n, name):
    rng = random.Random(f"{n}{name}")
    rules = variant(name)
    for i in range(12):
        pol = random_policy(rng, n) if i % 3 else preset(rng.choice(sorted(POLICIES)), n)
        res = hand_result(rules, pol, n, 7, i)
        check_deal(res, rules, pol, n, n - 1)
        # the deal is exactly deal_prefix: eldest first, the dealer last, then the turn-up
        prefix = deal_prefix(Stream(7, i), 5 * n + 1)
        assert res["dealt"] == [sorted(prefix[5 * s : 5 * s + 5]) for s in range(n)]
        assert res["turnup"] == prefix[5 * n]
        # the same deal stacked plays the same
        assert play_dealt(rules, pol, prefix) == res


def test_random_deals_with_other_dealers_and_rules():
    rng = random.Random(5)
    for i in range(300):
        n = rng.randint(2, 10)
        rules = Rules(
            plain_lead=rng.randint(0, 2),
            rob=rng.randint(0, 1),
            unrobbed_ace_low=rng.random() < 0.5,
            ante=rng.choice([0, 1, 2, 5]),
            dealer_extra=rng.choice([0, 1, 3]),
            jinx=rng.random() < 0.8,
            jinx_bonus=rng.randint(0, 2),
        )
        pol = random_policy(rng, n)
        dealer = rng.randrange(n)
        stacked = rng.sample(range(52), 52)[: rng.choice([5 * n + 1, 52, 5 * n + 1])]
        log = []
        res = play_dealt(rules, pol, stacked, dealer=dealer, log=log)
        check_deal(res, rules, pol, n, dealer)
        full = stacked + [c for c in range(52) if c not in stacked]
        eldest = (dealer + 1) % n
        for k in range(n):
            assert res["dealt"][(eldest + k) % n] == sorted(full[5 * k : 5 * k + 5])
        assert res["turnup"] == full[5 * n]
        assert log and all(isinstance(line, str) for line in log)


def test_rob_policy_decides_every_rob():
    rng = random.Random(9)
    for i in range(200):
        n = rng.randint(2, 10)
        for rob in (0, 1):
            for code in (0, 1):
                rules = Rules(rob=code)
                seat_rows, table = play_hand(rules, policy(n, rob=rob), n, 11, i)
                possible = table[HT["ace_turned"]] or table[HT["trump_ace_dealt"]]
                assert not (table[HT["ace_turned"]] and table[HT["trump_ace_dealt"]])
                assert table[HT["rob"]] == (possible if rob else 0)
                assert sum(r[HS["robbed"]] for r in seat_rows) == table[HT["rob"]]
                assert table[HT["forfeit"]] == (
                    int(code == ROB_OBLIGATORY and not rob and table[HT["trump_ace_dealt"]])
                )
                if table[HT["ace_turned"]] and rob:
                    assert seat_rows[n - 1][HS["robbed"]] == 1


def test_rank_tables_match_rules_py():
    for trump in range(4):
        orders = rank_orders(trump)
        assert all(orders[c] == ORDER[trump, c] for c in range(52))
        assert SUIT_OF[trump, AH] == trump
        assert orders[13 * trump + 4] == max(orders[c] for c in range(52) if SUIT_OF[trump, c] == trump)


# ----------------------------------------------------------------------------------------
# Rows


def check_hand_rows(seat_rows, table, n, rules):
    assert len(seat_rows) == n and all(len(r) == len(HAND_OUTCOMES.seat) for r in seat_rows)
    assert len(table) == len(HAND_OUTCOMES.table)
    for row in seat_rows:
        assert row[HS["tricks_sq"]] == row[HS["tricks"]] ** 2 and row[HS["net_sq"]] == row[HS["net"]] ** 2
        assert row[HS["jinx_made"]] <= row[HS["jinx_called"]] and row[HS["jinx_made"]] <= row[HS["win"]]
    assert table[HT["carried_sq"]] == table[HT["carried"]] ** 2
    wins = sum(r[HS["win"]] for r in seat_rows)
    spoilers = sum(r[HS["spoiler"]] for r in seat_rows)
    assert wins <= 1 and spoilers == table[HT["spoil"]] and wins + table[HT["spoil"]] == 1
    assert sum(r[HS["jinx_called"]] for r in seat_rows) == table[HT["jinx"]]
    assert sum(r[HS["net"]] for r in seat_rows) + table[HT["carried"]] == 0
    tricks = sum(r[HS["tricks"]] for r in seat_rows)
    assert 3 <= tricks <= 5
    assert table[HT["carried"]] == (n * rules.ante + rules.dealer_extra) * table[HT["spoil"]]
    if n == 2 and table[HT["spoil"]]:
        assert table[HT["forfeit"]] or table[HT["jinx"]]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_hand_rows_and_simulate(name):
    rules = variant(name)
    rng = random.Random(name)
    for n in (2, 4, 6, 9):
        pol = random_policy(rng, n)
        total = np.zeros((n + 1, HAND_OUTCOMES.width), dtype=np.int64)
        for i in range(3, 18):
            seat_rows, table = play_hand(rules, pol, n, 21, i)
            check_hand_rows(seat_rows, table, n, rules)
            res = hand_result(rules, pol, n, 21, i)
            assert [r[HS["net"]] for r in seat_rows] == res["net"]
            assert [r[HS["tricks"]] for r in seat_rows] == res["tricks_won"]
            total[:n, : len(HAND_OUTCOMES.seat)] += np.array(seat_rows)
            total[n, : len(HAND_OUTCOMES.table)] += np.array(table)
        assert (simulate(rules, pol, n, HANDS, 21, 3, 15) == total).all()


def check_game_rows(seat_rows, table, n):
    assert len(seat_rows) == n and all(len(r) == len(GAME_OUTCOMES.seat) for r in seat_rows)
    assert len(table) == len(GAME_OUTCOMES.table)
    deals = table[GT["deals"]]
    taken = sum(r[GS["pools_won"]] for r in seat_rows)
    for r in seat_rows:
        assert r[GS["pools_won_sq"]] == r[GS["pools_won"]] ** 2 and r[GS["net_sq"]] == r[GS["net"]] ** 2
        assert r[GS["deal_net"]] == r[GS["net"]] and r[GS["deal_net_sq"]] == r[GS["net"]] ** 2
        assert r[GS["deal_net_count"]] == deals and r[GS["deal_net_count_sq"]] == deals**2
        assert r[GS["deal_net_cross"]] == r[GS["net"]] * deals
    assert table[GT["deals_sq"]] == deals**2 and deals >= n and deals % n == 0  # whole rounds of the deal
    pools = table[GT["pool_deals_count"]]
    assert table[GT["pool_deals"]] == deals and table[GT["pool_deals_sq"]] == deals**2
    assert 1 <= pools <= deals and table[GT["pool_deals_count_sq"]] == pools * pools
    assert table[GT["pool_deals_cross"]] == deals * pools
    size = table[GT["pool_size"]]
    assert table[GT["pool_size_sq"]] == size**2 and table[GT["pool_size_count"]] == taken
    assert table[GT["pool_size_count_sq"]] == taken**2 and table[GT["pool_size_cross"]] == size * taken
    assert table[GT["spoils_sq"]] == table[GT["spoils"]] ** 2 and table[GT["left_sq"]] == table[GT["left"]] ** 2
    # every deal is either spoiled or takes its pool; a pool not taken was stopped
    assert deals == table[GT["spoils"]] + taken
    assert table[GT["truncated"]] == int(taken < pools)
    assert (table[GT["left"]] > 0) <= table[GT["truncated"]]
    assert sum(r[GS["net"]] for r in seat_rows) + table[GT["left"]] == 0


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_game_rows_and_simulate(name):
    rng = random.Random(name + "games")
    for n, max_deals in ((2, 1000), (3, 1), (5, 2), (8, 1000)):
        rules = variant(name, max_deals=max_deals, topup_amount=rng.choice([0, 1, 3]))
        pol = random_policy(rng, n)
        total = None
        for i in range(4):
            seat_rows, table = play_game(rules, pol, n, 33, i)
            check_game_rows(seat_rows, table, n)
            one = np.zeros((n + 1, GAME_OUTCOMES.width), dtype=np.int64)
            one[:n, : len(GAME_OUTCOMES.seat)] = np.array(seat_rows)
            one[n, : len(GAME_OUTCOMES.table)] = np.array(table)
            total = one if total is None else total + one
        assert (simulate(rules, pol, n, GAMES, 33, 0, 4) == total).all()


@pytest.mark.parametrize("n", [2, 3, 6])
def test_game_is_its_pools_on_one_stream(n):
    """A game is pools played on one stream, deal after deal, each deal from a pack in
    code order, the deal passing one seat left after every deal (across pools too): the
    same as play_pool on the deals that stream gives, each pool's first dealer the seat
    left of the previous pool's last dealer, until a pool ends on a whole number of
    rounds (its deals a multiple of n)."""
    rng = random.Random(n)
    for i in range(6):
        rules = Rules(
            spoil_topup=rng.randint(0, 2),
            dealer_extra=rng.randint(0, 2),
            max_deals=rng.choice([1, 3, 1000]),
            rob=rng.randint(0, 1),
            jinx_bonus=rng.randint(0, 2),
            dealer_extra_every_deal=i % 2 == 1,
        )
        pol = random_policy(rng, n)
        stream = Stream(44, i)
        deals = [deal_prefix(stream, 5 * n + 1) for _ in range(60 * n)]
        net, won, pos, spoils, left, pools = [0] * n, [0] * n, 0, 0, 0, 0
        while True:
            pool = play_pool(rules, pol, deals[pos:], first_dealer=(n - 1 + pos) % n)
            pools += 1
            pos += len(pool["results"])
            assert pool["net"] == [pool["received"][s] - pool["paid"][s] for s in range(n)]
            assert sum(pool["paid"]) == sum(pool["received"]) + pool["left"]
            for s in range(n):
                net[s] += pool["net"][s]
            if pool["taken_by"] >= 0:
                won[pool["taken_by"]] += 1
            spoils += sum(r["spoiled"] for r in pool["results"])
            left += pool["left"]
            if pos % n == 0:
                break
        seat_rows, table = play_game(rules, pol, n, 44, i)
        assert [r[GS["net"]] for r in seat_rows] == net
        assert [r[GS["pools_won"]] for r in seat_rows] == won
        assert table[GT["deals"]] == pos and table[GT["spoils"]] == spoils and table[GT["left"]] == left
        assert table[GT["pool_deals_count"]] == pools


def game_dealers(log):
    """The seat that dealt each deal of a game, in order, from play_game's log."""
    return [int(line.split()[4]) for line in log if line.startswith("-- deal ")]


@pytest.mark.parametrize("n", [3, 4, 5, 7, 10])
def test_the_deal_passes_left_every_deal_across_pools_and_a_game_is_whole_rounds(n):
    """Rules 5.5 (1) and 5.7: the dealer passes one seat left on every deal, spoiled or not,
    across pools as well as within one; deal j of a game is dealt by seat n-1+j.  The game
    ends with the first pool that ends on a whole number of rounds."""
    rng = random.Random(100 + n)
    crossed = 0  # games in which a spoiled pool was followed by another pool
    for i in range(12):
        rules = Rules(
            spoil_topup=rng.randint(0, 2),
            dealer_extra=rng.randint(0, 2),
            max_deals=rng.choice([2, 1000]),
            dealer_extra_every_deal=i % 2 == 1,
        )
        log = []
        seat_rows, table = play_game(rules, random_policy(rng, n), n, 9, i, log)
        dealers = game_dealers(log)
        assert dealers == [(n - 1 + j) % n for j in range(len(dealers))]
        assert all(a != b for a, b in zip(dealers, dealers[1:]))  # nobody deals twice running
        assert len(dealers) == table[GT["deals"]] and len(dealers) % n == 0
        starts = [int(line.split()[-3]) for line in log if line.startswith("== pool ")]
        assert len(starts) == table[GT["pool_deals_count"]] and starts[0] == n - 1
        # each pool played to its end (a "chips:" line), and the game ends at the first pool
        # end on a whole number of rounds, not before
        deals_at_end, count = [], 0
        for line in log:
            count += line.startswith("-- deal ")
            if line.startswith("chips:"):
                deals_at_end.append(count)
        assert len(deals_at_end) == len(starts)
        assert [d % n == 0 for d in deals_at_end] == [False] * (len(deals_at_end) - 1) + [True]
        crossed += any(line.startswith("top-up") for line in log) and len(starts) > 1
    assert crossed > 0


# ----------------------------------------------------------------------------------------
# play_pool on a stacked pool derived by hand

# Three players, clubs trumps (the turn-up 2c), every default policy except seat 0's rob.
# Deal 1 (seat 2 deals): seat 0 holds 5c Jc Ah Ac Kc and does not rob; under
# obligatory-or-forfeit it is forfeited.  Nobody else holds a trump, so seat 0 leads its
# sure winners 5c, Jc, Ah and takes three tricks (seats 1 and 2 play their cheapest:
# 2d 3d, 2h 3h, 4d 4h): a forfeited seat's third trick spoils the hand.
DEAL_1 = cards("5c Jc Ah Ac Kc  2d 3d 4d 6d 7d  2h 3h 4h 6h 7h  2c")
# Deal 2 (seat 0 deals, seat 1 eldest): seat 1 holds 5c Jc Ah Kc Qc (Ac is in the stock)
# and leads 5c, Jc, Ah; with Ac unseen neither Kc nor Qc is a sure winner, so with
# jinx_min 2 it claims the pool after trick 3.
DEAL_2 = cards("5c Jc Ah Kc Qc  2h 3h 4h 6h 7h  2d 3d 4d 6d 7d  2c")
POOL_RULES = Rules(rob=ROB_OBLIGATORY)


def pool_policy(**fields):
    pol = policy(3, **fields)
    pol[0][0] = 0  # seat 0 never robs
    return pol


def test_stacked_deals_derived_by_hand():
    one = play_dealt(POOL_RULES, pool_policy(), DEAL_1)
    assert one["forfeited"] == 0 and one["robbed_by"] == -1 and one["trump"] == 0
    assert one["tricks"] == [
        (0, [(0, 4), (1, 14), (2, 27)], 0),
        (0, [(0, 10), (1, 15), (2, 28)], 0),
        (0, [(0, AH), (1, 16), (2, 29)], 0),
    ]
    assert one["spoiled"] == 1 and one["spoiler"] == 0 and one["winner"] == -1 and one["claimed"] == 0
    assert one["net"] == [-2, -2, -2] and one["carried"] == 6 and one["pool"] == 6
    two = play_dealt(POOL_RULES, pool_policy(), DEAL_2, dealer=0)
    assert [w for _, _, w in two["tricks"]] == [1, 1, 1] and two["tricks"][0][0] == 1
    assert two["winner"] == 1 and two["claimed"] == 1 and two["jinx_by"] == -1
    assert two["net"] == [-2, 4, -2] and two["carried"] == 0
    # jinx_min 0: seat 1 jinxes and, nobody else holding a trump, makes it
    jinx = play_dealt(POOL_RULES, pool_policy(jinx_min=0), DEAL_2, dealer=0)
    assert jinx["jinx_by"] == 1 and jinx["jinx_made"] == 1 and len(jinx["tricks"]) == 5
    assert jinx["net"] == [-4, 8, -4]  # the pool 6 and the ante 2 from each other seat


@pytest.mark.parametrize(
    "topup,paid,pool",
    [
        (0, [3, 3, 2], 8),  # all but seat 2, the spoiled hand's dealer
        (TOPUP_DEALER_ONLY, [3, 2, 2], 7),  # seat 0, the next dealer
        (TOPUP_EVERYONE, [3, 3, 3], 9),
    ],
)
def test_play_pool_top_up(topup, paid, pool):
    rules = POOL_RULES._replace(spoil_topup=topup)
    res = play_pool(rules, pool_policy(), [DEAL_1, DEAL_2])
    assert res["pools"] == [6, pool]
    assert [r["spoiled"] for r in res["results"]] == [1, 0] and res["results"][1]["winner"] == 1
    assert res["paid"] == paid and res["received"] == [0, pool, 0]
    assert res["net"] == [0 - paid[0], pool - paid[1], 0 - paid[2]]
    assert res["taken_by"] == 1 and res["left"] == 0 and res["truncated"] == 0
    assert set(res["results"][0]) == set(play_dealt(rules, pool_policy(), DEAL_1)) - {"pool", "net", "carried"}


def test_play_pool_no_top_up_without_a_next_deal():
    # the listed deals run out: no top-up, the pool is left
    res = play_pool(POOL_RULES, pool_policy(), [DEAL_1])
    assert res["pools"] == [6] and res["paid"] == [2, 2, 2] and res["left"] == 6
    assert res["taken_by"] == -1 and res["truncated"] == 0 and res["net"] == [-2, -2, -2]
    # max_deals stops it: no top-up, truncated, the second deal is not played
    res = play_pool(POOL_RULES._replace(max_deals=1), pool_policy(), [DEAL_1, DEAL_2])
    assert len(res["results"]) == 1 and res["paid"] == [2, 2, 2] and res["left"] == 6 and res["truncated"] == 1
    # dealer_extra is paid once, by the first dealer; the jinx bonus is the ante
    res = play_pool(
        POOL_RULES._replace(dealer_extra=1, topup_amount=2), pool_policy(jinx_min=0), [DEAL_1, DEAL_2], first_dealer=2
    )
    assert res["pools"] == [7, 11] and res["paid"] == [2 + 2 + 2, 2 + 2, 2 + 1 + 2]
    assert res["received"] == [0, 11 + 4, 0] and sum(res["net"]) == 0
    # dealer_extra_every_deal: seat 0, the dealer of deal 2, pays its 1 with the top-up
    # (7 + 1 + 1 + 1); not when no deal follows
    rules = POOL_RULES._replace(dealer_extra=1, dealer_extra_every_deal=True)
    res = play_pool(rules, pool_policy(), [DEAL_1, DEAL_2], first_dealer=2)
    assert res["pools"] == [7, 10] and res["paid"] == [2 + 1 + 1, 2 + 1, 2 + 1] and res["received"] == [0, 10, 0]
    assert res["net"] == [-4, 7, -3] and res["taken_by"] == 1
    res = play_pool(rules, pool_policy(), [DEAL_1], first_dealer=2)
    assert res["pools"] == [7] and res["paid"] == [2, 2, 3] and res["left"] == 7
    # another first dealer: deal k is dealt by seat (first_dealer + k) mod n; nobody robs, so
    # the eldest hand holding DEAL_1's first five cards is forfeited and spoils both deals
    res = play_pool(POOL_RULES, policy(3, rob=0), [DEAL_1, DEAL_1], first_dealer=0)
    assert [r["tricks"][0][0] for r in res["results"]] == [1, 2]
    assert [r["spoiler"] for r in res["results"]] == [1, 2] and res["left"] == 6 + 2


# ----------------------------------------------------------------------------------------
# Replay and input


def test_replay_mentions_trumps_and_every_trick():
    for n, seed, hand in ((2, 1, 0), (5, 3, 4), (10, 8, 2)):
        lines = replay_lines(Rules(), policy(n), n, seed, hand)
        res = hand_result(Rules(), policy(n), n, seed, hand)
        text = "\n".join(lines)
        suit = ("clubs", "diamonds", "hearts", "spades")[res["trump"]]
        assert f"{suit} are trumps" in text
        for t in range(1, len(res["tricks"]) + 1):
            assert any(line.startswith(f"trick {t}:") for line in lines)
        assert not any(line.startswith(f"trick {len(res['tricks']) + 1}:") for line in lines)
        assert any(line.startswith("chips:") for line in lines)


def test_bad_input_raises_value_error():
    good = policy(3)
    for bad_rules in (
        Rules(plain_lead=3),
        Rules(ante=21),
        Rules(unrobbed_ace_low=2),
        Rules(rob=-1),
        Rules(max_deals=0),
        Rules(topup_amount=1.5),
        (0,) * 10,
    ):
        with pytest.raises(ValueError):
            play_dealt(bad_rules, good, [])
    for bad_policy in (
        policy(1),
        policy(11),
        policy(3, rob=2),
        policy(3, jinx_min=4),
        policy(3, spoil=0.5),
        policy(3, renege=-1),
        np.zeros((3, 3)),
        np.zeros(4),
        [[1, 2, 1, "x"]] * 3,
    ):
        with pytest.raises(ValueError):
            play_dealt(Rules(), bad_policy, [])
    for bad_cards in ([0, 0], [52], [-1], [1.5], ["Ah"], None, [None]):
        with pytest.raises(ValueError):
            play_dealt(Rules(), good, bad_cards)
    for dealer in (3, -1, 1.5, "0"):
        with pytest.raises(ValueError):
            play_dealt(Rules(), good, [], dealer=dealer)
    with pytest.raises(ValueError):
        play_pool(Rules(), good, [])
    with pytest.raises(ValueError):
        play_pool(Rules(), good, [[0, 0]])
    with pytest.raises(ValueError):
        play_pool(Rules(), good, [[]], first_dealer=5)
    with pytest.raises(ValueError):
        play_hand(Rules(), good, 4, 1, 0)  # the policy has 3 rows
    with pytest.raises(ValueError):
        play_game(Rules(), policy(11), 11, 1, 0)
    with pytest.raises(ValueError):
        simulate(Rules(), good, 3, 2, 1, 0, 1)
    with pytest.raises(ValueError):
        replay_lines(Rules(ante=-1), good, 3, 1, 0)
    # good input passes: an empty list stacks the pack in code order
    res = play_dealt(Rules(), good, [])
    assert res["dealt"] == [list(range(0, 5)), list(range(5, 10)), list(range(10, 15))] and res["turnup"] == 15
