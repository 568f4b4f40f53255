"""Stacked-deck rule tests of Spoil Five, run against both the Numba kernel
(sims.games.spoil_five.stacked: play_dealt, play_pool) and the plain-Python twin
(sims.games.spoil_five.twin: the same functions).

Every expected value below is derived by hand from the rules contract
(the docstring of sims/games/spoil_five/__init__.py), never from either implementation.  Conventions used
in the derivations:
  * card codes suit*13 + face (suits c d h s = 0..3); cards are written "Ah 10d Ks";
  * ``deal(hands, up, dealer)`` lists each seat's five cards (indexed by seat) and stacks
    the pack in draw order: the eldest hand (seat dealer+1) first, then clockwise, the
    dealer last, then the turn-up ``up``.  The dealer is seat n-1 unless a test says
    otherwise, so seat 0 is the eldest hand and leads trick 1.  Every dealt card and the
    turn-up are listed; the unlisted cards (the stock) never matter;
  * trump orders, low to high (TRUMP_ORDER below, copied from the contract): red
    2 3 4 6 7 8 9 10 Q K A (Ah) J 5, black 10 9 8 7 6 4 3 2 Q K A (Ah) J 5; with hearts
    trumps Ah is the ace of trumps (Kh Ah Jh 5h).  Plain orders (PLAIN_ORDER): hearts
    2..10 J Q K (no Ah), diamonds A 2..10 J Q K, clubs / spades 10 9 .. 2 A J Q K.  Plain
    orders are compared across suits (cheapest / strongest), so e.g. 10c, Ad and 2h all
    have order 0 and ties go to the lower suit (c < d < h < s);
  * "cheapest" = the plain card of lowest order (ties to the lower suit), with no plain
    card the trump of lowest order; "strongest" = the highest trump, with no trump the
    plain card of highest order;
  * greedy lead: the highest sure-winning trump, else the highest sure-winning plain card,
    else the cheapest card.  A trump is sure when no unseen trump is higher (the stock
    and the other hands are unseen; played cards, one's own discard and a turn-up nobody
    took (or one took oneself) are dead).  Under unrobbed_ace_low an unseen demoted ace of
    trumps counts at its usual order for every player but its holder; the holder's own
    demoted ace is order 0.  A plain card is never sure in these deals (some trump is
    always unseen), so a leader without a sure trump leads its cheapest;
  * greedy follow: the lowest card of the (plain) suit led that beats the card now
    winning, else the lowest trump that beats it, else the cheapest candidate;
  * spoiling (spoil 1, a threat = another player with 2 tricks that is not known to be
    forfeited -- known only once it has played the ace of trumps -- or the jinxer, and
    fewer than 2 tricks oneself or forfeited): lead the strongest card; follow a threat's
    winning card with the lowest winner (as greedy), else, with a threat still to play,
    the strongest card that beats (the highest such trump), else the cheapest candidate;
  * renege: to a trump lead of order t, the privileged trumps (5, J of trumps, Ah) above t
    may be held back; with renege 1 and a plain card, a player whose other trumps are
    none plays from its plain cards; with renege 0 it plays a trump;
  * chips: pool = n * ante + dealer_extra; net = received - ante (- dealer_extra for the
    dealer) (- the jinx bonus paid); carried = the pool after a spoil, else 0.  In a
    pool, with dealer_extra_every_deal the dealer of each later deal also pays
    dealer_extra, with the top-up before that deal (only when another deal follows).
Policy rows (POLICY_FIELDS order): rob, jinx_min, spoil, renege; ``row()`` defaults to the
contract's 1, 2, 1, 1.
Trick notation: ``trick(0, "0:5s 1:10c 2:Ad", 0)`` = (leader, [(seat, card), ...], winner).
"""

from __future__ import annotations

import numpy as np
import pytest

import sims.games.spoil_five.twin as twin
from sims.core.cards import parse_cards
from sims.games.spoil_five import stacked
from sims.games.spoil_five.rules import (
    BONUS_ANTE,
    BONUS_DOUBLE_ANTE,
    BONUS_NONE,
    FOLLOW_OR_TRUMP,
    FREE,
    MUST_FOLLOW,
    POLICY_FIELDS,
    ROB_OBLIGATORY,
    ROB_OPTIONAL,
    TOPUP_ALL_BUT_DEALER,
    TOPUP_DEALER_ONLY,
    TOPUP_EVERYONE,
    VARIANTS,
    Rules,
)

IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
POOL_IMPLEMENTATIONS = {"kernel": stacked.play_pool, "twin": twin.play_pool}
play_dealt = twin.play_dealt  # rebound per test by the `implementation` fixture (conftest.py)
pytestmark = pytest.mark.usefixtures("implementation")

R = Rules()
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
DEALT_KEYS = {
    "dealt",
    "turnup",
    "trump",
    "robbed_by",
    "discard",
    "forfeited",
    "held",
    "tricks",
    "tricks_won",
    "winner",
    "spoiled",
    "spoiler",
    "jinx_by",
    "jinx_made",
    "claimed",
    "pool",
    "net",
    "carried",
}
POOL_KEYS = {"results", "pools", "paid", "received", "net", "taken_by", "left", "truncated"}

# The contract's orders, low to high (literal copies, used to build the rank tests and by check_law).
TRUMP_ORDER = {
    HEARTS: "2h 3h 4h 6h 7h 8h 9h 10h Qh Kh Ah Jh 5h",
    DIAMONDS: "2d 3d 4d 6d 7d 8d 9d 10d Qd Kd Ad Ah Jd 5d",
    CLUBS: "10c 9c 8c 7c 6c 4c 3c 2c Qc Kc Ac Ah Jc 5c",
    SPADES: "10s 9s 8s 7s 6s 4s 3s 2s Qs Ks As Ah Js 5s",
}
PLAIN_ORDER = {
    HEARTS: "2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh",
    DIAMONDS: "Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd",
    CLUBS: "10c 9c 8c 7c 6c 5c 4c 3c 2c Ac Jc Qc Kc",
    SPADES: "10s 9s 8s 7s 6s 5s 4s 3s 2s As Js Qs Ks",
}
AH = parse_cards("Ah")[0]


# ----------------------------------------------------------------------------------------
# Helpers


@pytest.fixture
def play_pool(implementation):
    """The play_pool of the implementation under test (kernel / twin, from the same
    ``implementation`` fixture that rebinds play_dealt, so each pool test runs once per
    implementation)."""
    return POOL_IMPLEMENTATIONS[implementation]


def row(rob=1, jinx_min=2, spoil=1, renege=1):
    return [rob, jinx_min, spoil, renege]


def pol(n, seats=None, **every):
    """The [n, 4] policy matrix: every seat ``row(**every)``, then ``seats`` ({seat: row})."""
    rows = [row(**every) for _ in range(n)]
    for seat, r in (seats or {}).items():
        rows[seat] = r
    return np.array(rows, dtype=np.float64)


def deal(hands, up, dealer=None):
    """The stacked pack from each seat's hand (indexed by seat): the eldest's five cards
    first, clockwise, the dealer's last, then the turn-up."""
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    out = []
    for i in range(n):
        cards = parse_cards(hands[(dealer + 1 + i) % n])
        assert len(cards) == 5
        out += cards
    out += parse_cards(up)
    assert len(set(out)) == len(out), "a card is listed twice"
    return out


def rel(hands_from_eldest, up, dealer, n):
    """The same pack as ``deal`` but the hands are listed from the eldest (relative seats)."""
    hands = [None] * n
    for i, h in enumerate(hands_from_eldest):
        hands[(dealer + 1 + i) % n] = h
    return deal(hands, up, dealer)


def play(rules, policy, cards, dealer=None):
    return play_dealt(rules, policy, cards, dealer=dealer)


def hand(text):
    return sorted(parse_cards(text))


def card(text):
    return parse_cards(text)[0]


def trick(leader, plays, winner):
    """trick(0, "0:Ah 1:4h 2:5h", 0)"""
    out = []
    for item in plays.split():
        seat, c = item.split(":")
        out.append((int(seat), card(c)))
    return (leader, out, winner)


def norm(key, value):
    if key == "tricks":
        return [(int(ld), [(int(s), int(c)) for s, c in p], int(w)) for ld, p, w in value]
    if key in ("dealt", "held"):
        return [sorted(int(c) for c in h) for h in value]
    if key in ("tricks_won", "net", "pools", "paid", "received"):
        return [int(x) for x in value]
    return int(value)


def expect(res, **fields):
    """Compare the named result fields; hands may be given as text ("Ah 3h", one text per
    seat), single cards (turnup, discard) as text, tricks as trick(...) tuples."""
    got, want = {}, {}
    for key, value in fields.items():
        if key in ("dealt", "held"):
            value = [hand(v) if isinstance(v, str) else sorted(v) for v in value]
        elif key in ("turnup", "discard") and isinstance(value, str):
            value = card(value)
        got[key] = norm(key, res[key])
        want[key] = value
    assert got == want


def first_trick(res, expected):
    assert norm("tricks", res["tricks"])[:1] == [expected]


def check_law(res, rules, n, dealer=None):
    """The laws every played deal obeys: the deal and the rob, the turn order, each card
    from the seat's hand and legal (plain_lead law; the renege law to a trump lead), the
    trick winner by the contract's orders, tricks_won, the stop and the chips."""
    dealer = n - 1 if dealer is None else dealer
    trump = int(res["trump"])
    up = int(res["turnup"])
    assert up // 13 == trump
    for key in ("dealt", "held"):  # per seat, sorted
        assert all([int(c) for c in h] == sorted(int(c) for c in h) for h in res[key]) and len(res[key]) == n
    dealt = norm("dealt", res["dealt"])
    held = norm("held", res["held"])
    assert all(len(h) == 5 for h in dealt)
    assert len({c for h in dealt for c in h} | {up}) == 5 * n + 1
    robber = int(res["robbed_by"])
    for s in range(n):
        if s == robber:
            assert int(res["discard"]) in dealt[s]
            assert held[s] == sorted([c for c in dealt[s] if c != int(res["discard"])] + [up])
        else:
            assert held[s] == dealt[s]
    if robber < 0:
        assert int(res["discard"]) == -1
    ace = 13 * trump
    holder = next((s for s in range(n) if ace in dealt[s]), -1)
    if int(res["forfeited"]) >= 0:
        assert rules.rob == ROB_OBLIGATORY and int(res["forfeited"]) == holder and robber != holder

    t_order = {c: k + 1 for k, c in enumerate(parse_cards(TRUMP_ORDER[trump]))}
    if rules.unrobbed_ace_low and holder >= 0 and robber != holder:
        t_order[ace] = 0
    p_order = {c: k for s in range(4) if s != trump for k, c in enumerate(parse_cards(PLAIN_ORDER[s]))}
    priv = {13 * trump + 4: 3, 13 * trump + 10: 2, AH: 1}  # 5 > J > Ah: the privileged trumps
    if t_order.get(AH) == 0:
        del priv[AH]  # a demoted Ah (hearts trumps, unrobbed_ace_low) is above no led trump

    def suit(c):
        return trump if c in t_order else c // 13

    hands = [set(h) for h in held]
    tricks = norm("tricks", res["tricks"])
    assert 1 <= len(tricks) <= 5
    to_lead = (dealer + 1) % n
    won = [0] * n
    for leader, plays, winner in tricks:
        assert leader == to_lead
        assert [s for s, _ in plays] == [(leader + i) % n for i in range(n)]
        led = plays[0][1]
        x = suit(led)
        for s, c in plays:
            assert c in hands[s]
            if s != leader:
                mine = hands[s]
                trumps = {d for d in mine if suit(d) == trump}
                if x == trump:
                    must = {d for d in trumps if priv.get(d, 0) <= priv.get(led, 0) or d not in priv}
                    if must:
                        assert suit(c) == trump
                else:
                    has_x = any(suit(d) == x for d in mine)
                    if has_x and rules.plain_lead == FOLLOW_OR_TRUMP:
                        assert suit(c) in (x, trump)
                    if has_x and rules.plain_lead == MUST_FOLLOW:
                        assert suit(c) == x
            hands[s].discard(c)
        in_trump = [(t_order[c], s) for s, c in plays if suit(c) == trump]
        if in_trump:
            top = max(in_trump)[1]
        else:
            top = max((p_order[c], s) for s, c in plays if suit(c) == x)[1]
        assert winner == top
        won[winner] += 1
        to_lead = winner
    assert norm("tricks_won", res["tricks_won"]) == won
    last = tricks[-1][2]
    pool = n * rules.ante + rules.dealer_extra
    assert int(res["pool"]) == pool
    if int(res["spoiled"]):
        assert int(res["winner"]) == -1 and int(res["spoiler"]) == last and int(res["carried"]) == pool
        assert max(won) < 3 or int(res["jinx_by"]) >= 0 or int(res["forfeited"]) == last
    else:
        assert int(res["winner"]) == last and int(res["spoiler"]) == -1 and int(res["carried"]) == 0
        assert won[last] >= 3
    if int(res["jinx_by"]) >= 0:
        assert won[int(res["jinx_by"])] >= 3 and tricks[0][2] == tricks[1][2] == tricks[2][2] == int(res["jinx_by"])
    assert sum(norm("net", res["net"])) + int(res["carried"]) == 0


# ----------------------------------------------------------------------------------------
# Result keys and refused tables


def test_policy_columns_are_in_contract_order():
    assert [f.key for f in POLICY_FIELDS] == ["rob", "jinx_min", "spoil", "renege"]


# JX4 (used throughout): four players, spades trumps (turn-up 7s, As in the stock).  The
# eldest E holds the three top trumps and Ks Qs; A, B and D hold no trump.
JX4_HANDS = ["5s Js Ah Ks Qs", "10c 9c 8c Qc Kc", "Ad 2d 3d 4d 5d", "2h 3h 4h 6h 7h"]
JX4 = deal(JX4_HANDS, "7s")
# The first three tricks of JX4 (E leads its sure trumps; the others, with no trump, may
# play any card and play their cheapest: A 10c 9c 8c, B Ad 2d 3d, D 2h 3h 4h):
JX4_T123 = [trick(0, "0:5s 1:10c 2:Ad 3:2h", 0), trick(0, "0:Js 1:9c 2:2d 3:3h", 0), trick(0, "0:Ah 1:8c 2:3d 3:4h", 0)]


def test_play_dealt_result_keys_are_exactly_the_contracts():
    res = play(R, pol(4), JX4)
    assert set(res) == DEALT_KEYS
    check_law(res, R, 4)


def test_play_dealt_log_is_left_alone_by_the_kernel_and_written_by_the_twin(implementation):
    log = []
    play_dealt(R, pol(4), JX4, log=log)
    if implementation == "kernel":
        assert log == []
    else:
        assert log and all(isinstance(line, str) for line in log)


@pytest.mark.parametrize("n", [1, 11], ids=["one-player", "eleven-players"])
def test_bad_table_size_raises(n):
    with pytest.raises(ValueError):
        play(R, pol(n), [])


@pytest.mark.parametrize(
    "bad_row",
    [row(rob=2), row(rob=-1), row(jinx_min=4), row(jinx_min=-1), row(spoil=2), row(renege=2), row(renege=-1)],
    ids=["rob-2", "rob-neg", "jinx_min-4", "jinx_min-neg", "spoil-2", "renege-2", "renege-neg"],
)
def test_out_of_range_policy_value_raises(bad_row):
    with pytest.raises(ValueError):
        play(R, pol(4, {2: bad_row}), JX4)


@pytest.mark.parametrize(
    "cards", [JX4[:5] + JX4[:1], [0, 1, 2, 2], [52], [-1]], ids=["repeated", "repeated-short", "code-52", "negative"]
)
def test_bad_cards_raise(cards):
    with pytest.raises(ValueError):
        play(R, pol(4), cards)


def test_play_pool_result_keys_are_exactly_the_contracts(play_pool):
    res = play_pool(R, pol(4), [JX4])
    assert set(res) == POOL_KEYS
    assert len(res["results"]) == 1
    assert set(res["results"][0]) == DEALT_KEYS - {"pool", "net", "carried"}


def test_play_pool_refuses_a_bad_table(play_pool):
    with pytest.raises(ValueError):
        play_pool(R, pol(11), [[]])
    with pytest.raises(ValueError):
        play_pool(R, pol(4, {0: row(jinx_min=4)}), [JX4])
    with pytest.raises(ValueError):
        play_pool(R, pol(4), [JX4[:5] + JX4[:1]])


# ----------------------------------------------------------------------------------------
# Rank orders
#
# Trump pairs: three players, every seat rob 0 (so a dealt ace of trumps is simply held).
# Seat 0 holds five plain cards of suit X and no trump: it leads its cheapest, the X card
# of order 0 (10c, or 10s when clubs are trumps).  Seats 1 and 2 are void in X and hold
# one trump each (a, b) and four plain cards.  Seat 1's only card that beats the lead is
# its trump a (a trump beats a plain card): it plays a.  Seat 2 plays b exactly when b
# beats a (its only possible winner), else its cheapest plain card (10h, or 10s when
# hearts are trumps: order 8 resp. 0, the lowest of K Q J 10).


def _trump_pair_deal(trump, a, b):
    plain = {  # seat 0's suit X, seat 1's and seat 2's plain cards
        SPADES: ("10c 9c 8c 7c 6c", "Kd Qd Jd 10d", "Kh Qh Jh 10h"),
        CLUBS: ("10s 9s 8s 7s 6s", "Kd Qd Jd 10d", "Kh Qh Jh 10h"),
        DIAMONDS: ("10c 9c 8c 7c 6c", "Ks Qs Js 10s", "Kh Qh Jh 10h"),
        HEARTS: ("10c 9c 8c 7c 6c", "Kd Qd Jd 10d", "Ks Qs Js 10s"),
    }[trump]
    ups = {SPADES: "10s 9s 8s", CLUBS: "10c 9c 8c", DIAMONDS: "2d 3d 4d", HEARTS: "2h 3h 4h"}[trump].split()
    up = next(u for u in ups if u not in (a, b))
    return deal([plain[0], f"{a} {plain[1]}", f"{b} {plain[2]}"], up), plain


def _adjacent(order):
    cards = order.split()
    return list(zip(cards, cards[1:]))


TRUMP_PAIRS = [(t, lo, hi) for t in (HEARTS, DIAMONDS, CLUBS, SPADES) for lo, hi in _adjacent(TRUMP_ORDER[t])]
# Non-adjacent checks: the ace of trumps and Ah against the 5; with hearts trumps Qh < Ah < 5h.
TRUMP_PAIRS += [(t, "A" + s, "5" + s) for t, s in ((DIAMONDS, "d"), (CLUBS, "c"), (SPADES, "s"))]
TRUMP_PAIRS += [(t, "Ah", "5" + s) for t, s in ((DIAMONDS, "d"), (CLUBS, "c"), (SPADES, "s"))]
TRUMP_PAIRS += [(HEARTS, "Qh", "Ah"), (HEARTS, "Ah", "5h")]
PAIR_IDS = [f"{'hdcs'[[HEARTS, DIAMONDS, CLUBS, SPADES].index(t)]}-{lo}<{hi}" for t, lo, hi in TRUMP_PAIRS]


@pytest.mark.parametrize("trump, lo, hi", TRUMP_PAIRS, ids=PAIR_IDS)
def test_trump_order_higher_trump_played_second_wins(trump, lo, hi):
    # Seat 1 trumps with lo; seat 2's hi beats it, so seat 2 plays hi and wins trick 1.
    cards, plain = _trump_pair_deal(trump, lo, hi)
    res = play(R, pol(3, rob=0), cards)
    lead = plain[0].split()[0]
    first_trick(res, trick(0, f"0:{lead} 1:{lo} 2:{hi}", 2))
    assert int(res["trump"]) == trump and int(res["robbed_by"]) == -1


@pytest.mark.parametrize("trump, lo, hi", TRUMP_PAIRS, ids=PAIR_IDS)
def test_trump_order_lower_trump_played_second_cannot_beat(trump, lo, hi):
    # Seat 1 trumps with hi; seat 2's lo does not beat it: seat 2 throws its cheapest plain
    # card and seat 1 wins trick 1.
    cards, plain = _trump_pair_deal(trump, hi, lo)
    res = play(R, pol(3, rob=0), cards)
    lead = plain[0].split()[0]
    cheap = plain[2].split()[-1]  # 10h, or 10s with hearts trumps
    first_trick(res, trick(0, f"0:{lead} 1:{hi} 2:{cheap}", 1))


# Plain pairs: two players (seat 1 deals).  Seat 0 holds one card c0 of the plain suit X
# and four low trumps (none sure: higher trumps are unseen), so it leads c0, its only
# plain card.  Seat 1 holds one card c1 of X, no trump and four plain cards of the other
# plain suits: it must follow with c1.  The higher of c0 and c1 in X's plain order wins.
PLAIN_SETUP = {  # X: (seat 0's four trumps, the turn-up (trumps: spades, or clubs for X = spades), seat 1's others)
    HEARTS: ("10s 9s 8s 7s", "6s", "Kc Qc Kd Qd"),
    DIAMONDS: ("10s 9s 8s 7s", "6s", "Kc Qc Kh Qh"),
    CLUBS: ("10s 9s 8s 7s", "6s", "Kd Qd Kh Qh"),
    SPADES: ("10c 9c 8c 7c", "6c", "Kd Qd Kh Qh"),
}
PLAIN_PAIRS = [(x, lo, hi) for x in (HEARTS, DIAMONDS, CLUBS, SPADES) for lo, hi in _adjacent(PLAIN_ORDER[x])]
PLAIN_IDS = [f"{lo}<{hi}" for _, lo, hi in PLAIN_PAIRS]


def _plain_pair_deal(x, c0, c1):
    trumps, up, others = PLAIN_SETUP[x]
    return deal([f"{c0} {trumps}", f"{c1} {others}"], up)


@pytest.mark.parametrize("x, lo, hi", PLAIN_PAIRS, ids=PLAIN_IDS)
def test_plain_order_higher_card_following_wins(x, lo, hi):
    res = play(R, pol(2), _plain_pair_deal(x, lo, hi))
    first_trick(res, trick(0, f"0:{lo} 1:{hi}", 1))


@pytest.mark.parametrize("x, lo, hi", PLAIN_PAIRS, ids=PLAIN_IDS)
def test_plain_order_higher_card_led_wins(x, lo, hi):
    res = play(R, pol(2), _plain_pair_deal(x, hi, lo))
    first_trick(res, trick(0, f"0:{hi} 1:{lo}", 0))


# ----------------------------------------------------------------------------------------
# The ace of hearts (spades trumps, turn-up 7s, As in the stock)


@pytest.mark.parametrize(
    "plain_lead, third",
    [(FOLLOW_OR_TRUMP, "Kh"), (MUST_FOLLOW, "Kh"), (FREE, "9d")],
    ids=["follow-or-trump", "must-follow", "free"],
)
def test_ace_of_hearts_played_to_a_heart_lead_is_a_trump(plain_lead, third):
    # Seat 0 leads its cheapest, 2h (order 0; Jc 10, Qc 11, Kc 12, Kd 12).  Seat 1 holds no
    # heart (Ah is not one), so it may play anything; its only winner is Ah (a trump): Ah.
    # Seat 2 holds Kh and the trump 10s (order 1): neither beats Ah (trump order 12), so it
    # plays its cheapest candidate: follow-or-trump {Kh, 10s} -> Kh (plain first),
    # must-follow {Kh} -> Kh, free: any -> 9d (order 8 < 10d 9, Jd 10, Kh 11).
    # Seat 1 wins: Ah trumped the heart lead (were Ah a plain heart, 10s would beat it).
    rules = R._replace(plain_lead=plain_lead)
    res = play(rules, pol(3), deal(["2h Kc Qc Jc Kd", "Ah 10c 9c 8c 7c", "Kh 10s Jd 10d 9d"], "7s"))
    first_trick(res, trick(0, f"0:2h 1:Ah 2:{third}", 1))


@pytest.mark.parametrize("plain_lead", [FOLLOW_OR_TRUMP, MUST_FOLLOW], ids=["follow-or-trump", "must-follow"])
def test_holding_the_ace_of_hearts_is_not_holding_a_heart(plain_lead):
    # Seat 0 leads 2h.  Seat 1 (no heart) trumps with Js, its only winner.  Seat 2 holds Ah
    # and clubs but no heart, so it is void in hearts and may play anything; Ah (12) does
    # not beat Js (13): it plays its cheapest card, 10c (order 0).  Had Ah counted as a
    # heart, seat 2 would have had to play it.
    rules = R._replace(plain_lead=plain_lead)
    res = play(rules, pol(3), deal(["2h Kc Qc Jc Kd", "Js 10d 9d 8d 7d", "Ah 10c 9c 8c 7c"], "7s"))
    first_trick(res, trick(0, "0:2h 1:Js 2:10c", 1))


# ----------------------------------------------------------------------------------------
# Reneging (spades trumps)


@pytest.mark.parametrize("renege", [1, 0], ids=["renege-1", "renege-0"])
def test_five_of_trumps_led_nobody_may_hold_back(renege):
    # Four players, turn-up 7s.  E leads 5s (always a sure winner).  A's only trump Js
    # (13) and B's only trump Ah (12) are below the 5 (14): not renegeable, so Must = {Js}
    # / {Ah} and they must play them, whatever their renege.  D has no trump: its cheapest
    # card, 2h.  E wins.
    res = play(
        R, pol(4, renege=renege), deal(["5s Kd Qd Jd 10d", "Js 10c 9c 8c 7c", "Ah 2d 3d 4d 5d", "2h 3h 4h 6h 7h"], "7s")
    )
    first_trick(res, trick(0, "0:5s 1:Js 2:Ah 3:2h", 0))
    check_law(res, R, 4)


# LOW: E holds only low trumps (10s 9s 8s 7s 6s, turn-up 4s, As in the stock); A, B and D
# each hold one privileged trump (5s, Js, Ah) and four plain cards.
LOW = deal(["10s 9s 8s 7s 6s", "5s 10c 9c 8c 7c", "Js Ad 2d 3d 4d", "Ah 2h 3h 4h 6h"], "4s")


def test_low_trump_led_every_lone_privileged_trump_may_be_held_back():
    # E has no sure trump (5s Js Ah Ks.. unseen) and no plain card: it leads its lowest
    # trump, 10s (order 1), then 9s, then 8s.  Each follower's only trump is privileged
    # and above the led card: renegeable, Must empty; with renege 1 they play from their
    # plain cards, and no plain card beats a trump: cheapest (A 10c 9c 8c, B Ad 2d 3d,
    # D 2h 3h 4h).  E wins tricks 1-3; its last cards 7s 6s are not sure (5s Js Ah and
    # more unseen): 0 < jinx_min 2 -> E claims the pool (8 chips).
    res = play(R, pol(4), LOW)
    expect(
        res,
        trump=SPADES,
        turnup="4s",
        robbed_by=-1,
        discard=-1,
        forfeited=-1,
        tricks=[
            trick(0, "0:10s 1:10c 2:Ad 3:2h", 0),
            trick(0, "0:9s 1:9c 2:2d 3:3h", 0),
            trick(0, "0:8s 1:8c 2:3d 3:4h", 0),
        ],
        tricks_won=[3, 0, 0, 0],
        winner=0,
        claimed=1,
        jinx_by=-1,
        jinx_made=0,
        spoiled=0,
        spoiler=-1,
        pool=8,
        net=[6, -2, -2, -2],
        carried=0,
    )
    check_law(res, R, 4)


@pytest.mark.parametrize(
    "seat, expected",
    [
        (1, "0:10s 1:5s 2:Ad 3:2h"),  # A plays 5s; B and D still hold back (renege tests the led card, 10s)
        (2, "0:10s 1:10c 2:Js 3:2h"),
        (3, "0:10s 1:10c 2:Ad 3:Ah"),
    ],
    ids=["A-5s", "B-Js", "D-Ah"],
)
def test_low_trump_led_renege_0_plays_its_trump(seat, expected):
    # LOW with one follower at renege 0: its candidates are its trumps, so it plays its
    # only trump, which beats 10s, and wins trick 1.  The others hold back as above.
    res = play(R, pol(4, {seat: row(renege=0)}), LOW)
    first_trick(res, trick(0, expected, seat))


def test_privileged_trump_with_another_trump_must_play_a_trump():
    # Turn-up 2s.  E (9s 8s 7s 6s 4s) leads its lowest trump 9s (order 2).  A: 5s and 10s;
    # 5s is renegeable but 10s (order 1) is not, so Must = {10s} and A must play a trump,
    # any of {5s, 10s}; the lowest that beats 9s is 5s (10s is below it): A plays the 5.
    # B: Js and 3s (7), Must = {3s}: a trump; nothing beats 5s: cheapest = lowest trump
    # 3s (not a plain card).  D's only trump Ah is renegeable: plain, cheapest 2h.
    res = play(R, pol(4), deal(["9s 8s 7s 6s 4s", "5s 10s Kd Qd Jd", "Js 3s 10c 9c 8c", "Ah 2h 3h 4h 6h"], "2s"))
    first_trick(res, trick(0, "0:9s 1:5s 2:3s 3:2h", 1))


# JL: three players, must-follow, turn-up 4s (As in the stock).  Seat 0 (q) takes tricks 1
# and 2 with queens nobody can follow higher; seat 1 (p) then wins trick 3 and leads the
# jack of trumps as a spoiler; seat 2 (r) holds the 5 of trumps, seat 0 the ace of hearts.
MUST = R._replace(plain_lead=MUST_FOLLOW)
JL = deal(["Qc Qd Kh Kd Ah", "2c 3d 9d 8s Js", "7c 4d 2h Qh 5s"], "4s")
JL_T123 = [trick(0, "0:Qc 1:2c 2:7c", 0), trick(0, "0:Qd 1:3d 2:4d", 0), trick(0, "0:Kh 1:8s 2:2h", 1)]
# T1: q: Ah is not sure (Js 5s unseen); cheapest of Qc Qd Kh (11) Kd (12) -> Qc (clubs
#     first).  p and r must follow clubs: 2c, 7c (neither beats).  q wins.
# T2: q: Qd (before Kh: diamonds < hearts).  p: 3d 9d cannot beat -> 3d; r 4d.  q (2 tricks).
# T3: q leads Kh (11 < Kd 12).  p (spoiling: q threatens, p has 0) has no heart: any card;
#     q is winning, so the lowest winner: 8s (below Js).  r must follow hearts {2h Qh},
#     nothing beats 8s, no threat after it: cheapest 2h.  p wins.


def test_jack_led_five_may_be_held_back_ace_of_hearts_may_not():
    # T4: p (1 trick, q threatens) leads its strongest, Js (13).  r: 5s (14) is above the
    #     jack: renegeable, Must empty; renege 1 with Qh in hand -> plays Qh (the cheapest of
    #     its plain candidates; nothing beats).  q: Ah (12) is below the jack: Must = {Ah},
    #     q must play it.  Js wins: p.
    # T5: p (2 tricks: greedy) leads 9d.  r may play anything (no diamond): spoiling against
    #     p's winning card, its lowest winner 5s.  q must follow Kd.  r wins.  Tricks 2-2-1:
    #     a spoil, spoiled by r (seat 2); the pool of 6 is carried.
    res = play(MUST, pol(3), JL)
    expect(
        res,
        tricks=JL_T123 + [trick(1, "1:Js 2:Qh 0:Ah", 1), trick(1, "1:9d 2:5s 0:Kd", 2)],
        tricks_won=[2, 2, 1],
        winner=-1,
        spoiled=1,
        spoiler=2,
        jinx_by=-1,
        claimed=0,
        pool=6,
        net=[-2, -2, -2],
        carried=6,
    )
    check_law(res, MUST, 3)


def test_jack_led_renege_0_plays_the_five():
    # r at renege 0: T4 its candidates are its trumps {5s}: spoiling (q still to play) the
    # strongest winner, 5s; q must play Ah; r wins.  T5: r (1 trick, q threatens) leads its
    # strongest (only) card Qh; q, no heart, plays Kd (no winner); p (no threat to come)
    # its cheapest, 9d.  Qh wins: r has 2, q 2, p 1: spoiled by r.
    res = play(MUST, pol(3, {2: row(renege=0)}), JL)
    expect(
        res,
        tricks=JL_T123 + [trick(1, "1:Js 2:5s 0:Ah", 2), trick(2, "2:Qh 0:Kd 1:9d", 2)],
        tricks_won=[2, 1, 2],
        winner=-1,
        spoiled=1,
        spoiler=2,
    )
    check_law(res, MUST, 3)


# AHL: JL with Js and Ah exchanged: must-follow, turn-up 4s (As in the stock).  Seat 0 (q)
# holds Js, seat 1 (p) Ah, seat 2 (r) 5s, each as its only trump but p's low 8s.
AHL = deal(["Qc Qd Kh Kd Js", "2c 3d 9d 8s Ah", "7c 4d 2h Qh 5s"], "4s")
# T1-T3 as JL's: q's Js is not sure (5s unseen); it leads Qc, Qd (cheapest; ties to the
# lower suit), then Kh; p trumps Kh with its lowest winner 8s (spoiling: q has 2 tricks,
# the lowest winner against q's winning card); r throws 2h.  p wins T3: 2-1-0.
AHL_T123 = [trick(0, "0:Qc 1:2c 2:7c", 0), trick(0, "0:Qd 1:3d 2:4d", 0), trick(0, "0:Kh 1:8s 2:2h", 1)]
# T4: p (1 trick, q threatens) leads its strongest, its only trump left, Ah (order 12).
#     r: 5s (14) is privileged and above Ah: renegeable, Must empty; q: Js (13) likewise.


@pytest.mark.parametrize(
    "renege, t45, won, winner, spoiler",
    [
        # everyone renege 1: r and q hold back: r plays its plain Qh, q its plain Kd.  Ah wins:
        # 2-2-0.  T5: p leads 9d; r plays 5s, q Js (their only cards): 5s wins.  2-2-1: a
        # spoil by r.
        ({}, [trick(1, "1:Ah 2:Qh 0:Kd", 1), trick(1, "1:9d 2:5s 0:Js", 2)], [2, 2, 1], -1, 2),
        # r renege 0: its candidates are its trumps: 5s (spoiling, q still to play: its
        # strongest winner).  q still holds Js back (the law looks at the led card, Ah, not at
        # the 5 now winning): Kd.  r wins: 2-1-1.  T5: r leads Qh; q (no heart) Js; p 9d.  Js
        # wins: q has tricks 1, 2 and 5 and takes the pool.
        ({2: row(renege=0)}, [trick(1, "1:Ah 2:5s 0:Kd", 2), trick(2, "2:Qh 0:Js 1:9d", 0)], [3, 1, 1], 0, -1),
        # q renege 0: r holds back (Qh); q plays Js (13), which beats Ah: q has tricks 1, 2, 4
        # and takes the pool at once.
        ({0: row(renege=0)}, [trick(1, "1:Ah 2:Qh 0:Js", 0)], [3, 1, 0], 0, -1),
    ],
    ids=["renege-1", "five-renege-0", "jack-renege-0"],
)
def test_ace_of_hearts_led_jack_and_five_may_be_held_back(renege, t45, won, winner, spoiler):
    res = play(MUST, pol(3, renege), AHL)
    expect(
        res,
        tricks=AHL_T123 + t45,
        tricks_won=won,
        winner=winner,
        spoiler=spoiler,
        spoiled=int(winner < 0),
        claimed=0,
        jinx_by=-1,
    )
    check_law(res, MUST, 3)


# ADL: must-follow, diamonds trumps, turn-up 4d (out of play: p holds Ad with rob 0, and
# under optional robbing that costs nothing).  q (seat 0) holds no trump; p (seat 1) Ad and
# 8d (order 6); r (seat 2) Ah (order 12: above the ace of trumps) and, in the second case,
# the small trump 2d instead of its plain 9c.
# T1: q leads its cheapest, Qh (hearts: Q 10 < Qs 11, Kh 11, Kc 12, Ks 12); p and r must
#     follow with their cheapest hearts, 2h and 4h (nothing beats).  q wins.
# T2: q leads Kh (11, tied with Qs: hearts first); 3h, 6h.  q wins (2 tricks).
# T3: q leads Qs (11 < Kc Ks 12).  p (no spade: any card; spoiling, q winning): its lowest
#     winner, 8d (6 < Ad 11).  r must follow with 7s.  p wins: 2-1-0.
# T4: p (1 trick, q threatens) leads its strongest, Ad (its only trump left).
ADL_T123 = [trick(0, "0:Qh 1:2h 2:4h", 0), trick(0, "0:Kh 1:3h 2:6h", 0), trick(0, "0:Qs 1:8d 2:7s", 1)]


@pytest.mark.parametrize(
    "r_last, t45, won",
    [
        # r holds Ah as its only trump: privileged and above Ad, renegeable, Must empty; renege
        # 1 with a plain card: it plays 9c.  q (2 tricks, no trump, nothing beats) its cheapest,
        # Kc (12, tied with Ks: clubs first).  Ad wins: 2-2-0.  T5: p leads 10c; r's last card
        # Ah trumps it; q Ks.  2-2-1: a spoil by r.
        ("9c", [trick(1, "1:Ad 2:9c 0:Kc", 1), trick(1, "1:10c 2:Ah 0:Ks", 2)], [2, 2, 1]),
        # r holds Ah and 2d: Must = {2d} is not empty, so r must play a trump (Ah may be
        # played too): spoiling (q still to play) its strongest winner, Ah (12 > Ad 11).  q
        # throws Kc.  r wins: 2-1-1.  T5: r leads 2d; q Ks, p 10c: the trump wins.  2-1-2: a
        # spoil by r.
        ("2d", [trick(1, "1:Ad 2:Ah 0:Kc", 2), trick(2, "2:2d 0:Ks 1:10c", 2)], [2, 1, 2]),
    ],
    ids=["ace-of-hearts-alone", "with-a-small-trump"],
)
def test_ace_of_trumps_led_ace_of_hearts_may_be_held_back_only_alone(r_last, t45, won):
    cards = deal(["Qh Kh Qs Kc Ks", "2h 3h 8d Ad 10c", f"4h 6h 7s Ah {r_last}"], "4d")
    res = play(MUST, pol(3, {1: row(rob=0)}), cards)
    expect(
        res,
        trump=DIAMONDS,
        robbed_by=-1,
        forfeited=-1,
        tricks=ADL_T123 + t45,
        tricks_won=won,
        winner=-1,
        spoiled=1,
        spoiler=2,
        net=[-2, -2, -2],
        carried=6,
    )
    check_law(res, MUST, 3)


# ----------------------------------------------------------------------------------------
# What a player holding the led suit may play (spades trumps, turn-up 6s).  Seat 0 leads
# its cheapest card 9d (order 8; Jc 10, Qc 11, Kh 11, Kc 12).


@pytest.mark.parametrize(
    "plain_lead, second, winner",
    [
        (FOLLOW_OR_TRUMP, "8s", 1),  # may follow or trump: 3d cannot beat 9d, the trump 8s can
        (FREE, "8s", 1),  # any card: the only winner is still 8s
        (MUST_FOLLOW, "3d", 0),  # must follow with 3d (cannot beat): seat 0 keeps the trick
    ],
    ids=["follow-or-trump", "free", "must-follow"],
)
def test_plain_lead_holder_of_the_suit_may_trump(plain_lead, second, winner):
    # Seat 1 holds 3d, the trump 8s and clubs.  Seat 2 holds no diamond and no trump: it
    # may play anything, nothing wins: its cheapest, 4h (order 2; 7c 3, 5h 3, ...).
    rules = R._replace(plain_lead=plain_lead)
    res = play(rules, pol(3), deal(["9d Jc Qc Kc Kh", "3d 8s 10c 9c 8c", "4h 5h 6h 7h 7c"], "6s"))
    first_trick(res, trick(0, f"0:9d 1:{second} 2:4h", winner))
    check_law(res, rules, 3)


@pytest.mark.parametrize(
    "plain_lead, third",
    [
        (FOLLOW_OR_TRUMP, "Jd"),  # candidates {Jd, 9s}: nothing beats Ks -> cheapest, the plain Jd
        (FREE, "10c"),  # any card: the cheapest of all, 10c (order 0)
        (MUST_FOLLOW, "Jd"),  # only Jd
    ],
    ids=["follow-or-trump", "free", "must-follow"],
)
def test_plain_lead_holder_of_the_suit_may_not_discard_except_when_free(plain_lead, third):
    # Seat 1 has no diamond: it trumps with Ks, its only winner.  Seat 2 holds Jd, the low
    # trump 9s (2 < Ks 10) and cheap clubs; nothing it holds beats Ks.
    rules = R._replace(plain_lead=plain_lead)
    res = play(rules, pol(3), deal(["9d Jc Qc Kc Kh", "Ks 4h 5h 6h 7h", "Jd 9s 10c 9c 8c"], "6s"))
    first_trick(res, trick(0, f"0:9d 1:Ks 2:{third}", 1))
    check_law(res, rules, 3)


# ----------------------------------------------------------------------------------------
# Robbing


# RA: three players, turn-up As (spades trumps).  Seat 0 leads its cheapest, 10c; seat 1
# (no club, no trump) throws its cheapest, 9d (order 8).
RA = deal(["10c 9c 8c 7c 6c", "Kd Qd Jd 10d 9d", "2h 3h 4h 6h 7h"], "As")


@pytest.mark.parametrize("rob_rule", [ROB_OPTIONAL, ROB_OBLIGATORY], ids=["optional", "obligatory"])
def test_dealer_robs_a_turned_ace_and_plays_it_at_once(rob_rule):
    # The dealer (seat 2) discards its cheapest card 2h (order 0) and takes As before the
    # first lead.  Void in clubs, its only winner is As: it trumps trick 1 with it.
    rules = R._replace(rob=rob_rule)
    res = play(rules, pol(3), RA)
    expect(
        res,
        turnup="As",
        trump=SPADES,
        robbed_by=2,
        discard="2h",
        forfeited=-1,
        dealt=["10c 9c 8c 7c 6c", "Kd Qd Jd 10d 9d", "2h 3h 4h 6h 7h"],
        held=["10c 9c 8c 7c 6c", "Kd Qd Jd 10d 9d", "3h 4h 6h 7h As"],
    )
    first_trick(res, trick(0, "0:10c 1:9d 2:As", 2))
    check_law(res, rules, 3)


@pytest.mark.parametrize("rob_rule", [ROB_OPTIONAL, ROB_OBLIGATORY], ids=["optional", "obligatory"])
def test_dealer_who_does_not_rob_a_turned_ace_is_not_forfeited(rob_rule):
    # Dealer rob 0: the ace stays out of play; nobody is forfeited (obligatory-or-forfeit is
    # about a dealt ace).  The dealer, void in clubs with no trump, throws 2h; 10c wins.
    rules = R._replace(rob=rob_rule)
    res = play(rules, pol(3, {2: row(rob=0)}), RA)
    expect(res, robbed_by=-1, discard=-1, forfeited=-1, held=["10c 9c 8c 7c 6c", "Kd Qd Jd 10d 9d", "2h 3h 4h 6h 7h"])
    first_trick(res, trick(0, "0:10c 1:9d 2:2h", 0))
    check_law(res, rules, 3)


# RH: turn-up 7s; H = "As 2h Jd Qd Kd" holds the ace of trumps, C = clubs, V = hearts.
RH_H, RH_C, RH_V = "As 2h Jd Qd Kd", "10c 9c 8c 7c 6c", "3h 4h 6h 7h 8h"
RH_SEATS = {0: [RH_H, RH_C, RH_V], 1: [RH_C, RH_H, RH_V], 2: [RH_C, RH_V, RH_H]}


@pytest.mark.parametrize(
    "holder, expected",
    [
        # eldest: robs before leading (discard 2h, its cheapest), holds As 7s Jd Qd Kd; no sure
        # trump (Ah Js 5s unseen): leads its cheapest, Jd (10); C and V, void, no trump: 10c, 3h.
        (0, trick(0, "0:Jd 1:10c 2:3h", 0)),
        # seat 1 robs at its turn (after 10c is led): void in clubs, its lowest winner is the
        # turn-up 7s (4 < As 11).  V throws 3h.
        (1, trick(0, "0:10c 1:7s 2:3h", 1)),
        # the dealer holds the ace: robs at its turn in trick 1, last; trumps with 7s.
        (2, trick(0, "0:10c 1:3h 2:7s", 2)),
    ],
    ids=["eldest", "second", "dealer"],
)
def test_holder_of_the_ace_of_trumps_robs_at_its_first_turn(holder, expected):
    res = play(R, pol(3), deal(RH_SEATS[holder], "7s"))
    held = list(RH_SEATS[holder])
    held[holder] = "As 7s Jd Qd Kd"
    expect(res, turnup="7s", robbed_by=holder, discard="2h", forfeited=-1, dealt=RH_SEATS[holder], held=held)
    first_trick(res, expected)
    check_law(res, R, 3)


@pytest.mark.slow
@pytest.mark.parametrize("rob_rule", [ROB_OPTIONAL, ROB_OBLIGATORY], ids=["optional", "obligatory"])
@pytest.mark.parametrize(
    "holder, expected",
    [
        # eldest keeps As 2h Jd Qd Kd and leads its cheapest 2h; C throws 10c; V beats with its
        # lowest heart, 3h.
        (0, trick(0, "0:2h 1:10c 2:3h", 2)),
        (1, trick(0, "0:10c 1:As 2:3h", 1)),  # void in clubs: trumps with As (its only trump)
        (2, trick(0, "0:10c 1:3h 2:As", 2)),
    ],
    ids=["eldest", "second", "dealer"],
)
def test_holder_with_rob_0_keeps_its_hand(holder, expected, rob_rule):
    # rob 0: nothing is exchanged, the turn-up stays out of play; under obligatory-or-forfeit
    # the holder is forfeited.
    rules = R._replace(rob=rob_rule)
    res = play(rules, pol(3, {holder: row(rob=0)}), deal(RH_SEATS[holder], "7s"))
    expect(res, robbed_by=-1, discard=-1, forfeited=holder if rob_rule == ROB_OBLIGATORY else -1, held=RH_SEATS[holder])
    first_trick(res, expected)
    check_law(res, rules, 3)


@pytest.mark.parametrize(
    "dealt0, up, discard, held0, seat2, first",
    [
        # Spades trumps (black: 10s 1, 9s 2, 8s 3, .. Qs 9, Ks 10, As 11).  Dealt As Ks Qs 9s 8s,
        # no plain card: the cheapest of the five is the lowest trump, 9s (2).  The turn-up 10s
        # (1) is lower still but is no candidate: it is taken, not discarded.  Held: As Ks Qs 8s
        # 10s.  T1: no sure trump (Ah Js 5s unseen), no plain card: seat 0 leads its lowest
        # trump, the turn-up 10s.  Seat 2's cheapest: 9d (8 < 10d 9).
        ("As Ks Qs 9s 8s", "10s", "9s", "As Ks Qs 8s 10s", "Kd Qd Jd 10d 9d", "0:10s 1:10c 2:9d"),
        # Diamonds trumps (red: 2d 1, 3d 2, .. Ad 11, Ah 12, Jd 13, 5d 14).  Dealt Ad Ah Jd 5d 3d:
        # the lowest is 3d (2) (the turn-up 2d, 1, is no candidate).  Held: Ad Ah Jd 5d 2d.
        # T1: 5d is sure (the top trump): seat 0 leads it.  Seat 2's cheapest: 9h (7 < 10h 8).
        ("Ad Ah Jd 5d 3d", "2d", "3d", "Ad Ah Jd 5d 2d", "Kh Qh Jh 10h 9h", "0:5d 1:10c 2:9h"),
    ],
    ids=["spades", "diamonds"],
)
def test_holder_dealt_five_trumps_discards_its_lowest_dealt_trump(dealt0, up, discard, held0, seat2, first):
    # Seat 0 (eldest) holds the ace of trumps and robs before leading.  Seats 1 and 2 hold
    # no trump (Must empty, renege 1: their plain cards, nothing beats a trump): their
    # cheapest, 10c (0) and seat 2's.  Seat 0 wins trick 1.
    hands = [dealt0, "10c 9c 8c 7c 6c", seat2]
    res = play(R, pol(3), deal(hands, up))
    expect(res, robbed_by=0, discard=discard, forfeited=-1, dealt=hands, held=[held0] + hands[1:])
    first_trick(res, trick(0, first, 0))
    check_law(res, R, 3)


# FF: three players, turn-up 7s.  Seat 0 holds 5s Js Ah As Qc; the others hold no trump.
FF = deal(["5s Js Ah As Qc", "10c 9c 8c 7c 6c", "Kd Qd Jd 10d 9d"], "7s")
# Seat 0 leads its sure trumps 5s, Js, Ah (each sure once the higher ones are played; at
# trick 3 Ah beats As); the others throw their cheapest: 10c 9c 8c and 9d 10d Jd.
FF_T123 = [trick(0, "0:5s 1:10c 2:9d", 0), trick(0, "0:Js 1:9c 2:10d", 0), trick(0, "0:Ah 1:8c 2:Jd", 0)]


def test_forfeited_holder_taking_three_tricks_spoils_the_hand():
    # Obligatory-or-forfeit, seat 0 rob 0: forfeited at its first turn.  It wins tricks 1-3:
    # W forfeited -> a spoil spoiled by seat 0 (no jinx, no claim); the pool 6 is carried.
    rules = R._replace(rob=ROB_OBLIGATORY)
    res = play(rules, pol(3, {0: row(rob=0)}), FF)
    expect(
        res,
        robbed_by=-1,
        forfeited=0,
        tricks=FF_T123,
        tricks_won=[3, 0, 0],
        winner=-1,
        spoiled=1,
        spoiler=0,
        jinx_by=-1,
        claimed=0,
        jinx_made=0,
        net=[-2, -2, -2],
        carried=6,
    )
    check_law(res, rules, 3)


@pytest.mark.parametrize(
    "rob_rule, rob, robbed_by, discard, held0",
    [
        (ROB_OPTIONAL, 0, -1, -1, "5s Js Ah As Qc"),  # optional: not robbing costs nothing
        (ROB_OBLIGATORY, 1, 0, "Qc", "5s Js Ah As 7s"),  # robbing: discards Qc (its only plain card)
    ],
    ids=["optional-no-rob", "obligatory-rob"],
)
def test_holder_not_forfeited_claims_after_three_tricks(rob_rule, rob, robbed_by, discard, held0):
    # Same tricks 1-3.  After them seat 0 holds As (sure: Ah Js 5s are played) and Qc or 7s
    # (not sure: Ks Qs .. unseen): 1 sure < jinx_min 2 -> claim: seat 0 takes the pool.
    rules = R._replace(rob=rob_rule)
    res = play(rules, pol(3, {0: row(rob=rob)}), FF)
    expect(
        res,
        robbed_by=robbed_by,
        discard=discard,
        forfeited=-1,
        held=[held0, "10c 9c 8c 7c 6c", "Kd Qd Jd 10d 9d"],
        tricks=FF_T123,
        winner=0,
        claimed=1,
        spoiled=0,
        spoiler=-1,
        net=[4, -2, -2],
        carried=0,
    )
    check_law(res, rules, 3)


# FT: three players, turn-up 7s; seat 0 holds As (rob 0).  T1 5s, T2 Js (sure); seats 1 and
# 2 have no trump and throw their cheapest (2d 3d; Ad (tied with 2h: diamonds first), 2h).
# T3: As is not sure (Ah unseen): seat 0 leads its cheapest, 4c (6 < Qh 10); seat 1 must
# follow with its only club 3c (7), which beats it.
FT = deal(["5s Js As 4c Qh", "2d 3d 3c Qd Kd", "Ad 2h 9c 2c Kh"], "7s")
FT_T12 = [trick(0, "0:5s 1:2d 2:Ad", 0), trick(0, "0:Js 1:3d 2:2h", 0)]
# Both rules give the same tricks: seat 0 has not played As, so under obligatory-or-forfeit
# the others cannot know it is forfeited (a holder who does not rob announces nothing) and
# it is a threat to them with 2 tricks, exactly as under optional robbing.
# T3: seat 1 (spoiling: seat 0 threatens, seat 1 has 0 tricks) must follow with 3c, which
#     beats 4c.  Seat 2 (spoiling; seat 1 is winning and is no threat, no threat is still
#     to play) throws its cheapest club, 9c (1 < 2c 8).  Seat 1 wins.
# T4: seat 1 (1 trick, seat 0 threatens) leads its strongest: no trump, Kd (12 > Qd 11).
#     Seat 2 (no diamond, no trump: any card; spoiling, the threat seat 0 still to play)
#     has no card that beats Kd: its cheapest, 2c (8 < Kh 11).  Seat 0 (no diamond) holds
#     As and Qh; nobody else has 2 tricks, so it has no threat and plays greedily,
#     forfeited or not: its lowest winner As.  Seat 0 wins its third trick (tricks 1, 2, 4).
FT_T34 = [trick(0, "0:4c 1:3c 2:9c", 1), trick(1, "1:Kd 2:2c 0:As", 0)]


@pytest.mark.parametrize(
    "rob_rule, expected",
    [
        # Forfeited: its third trick spoils the hand, spoiled by seat 0; the pool 6 is carried.
        (ROB_OBLIGATORY, dict(forfeited=0, winner=-1, spoiled=1, spoiler=0, net=[-2, -2, -2], carried=6)),
        # Optional: seat 0 is not forfeited and takes the pool with tricks 1, 2, 4.
        (ROB_OPTIONAL, dict(forfeited=-1, winner=0, spoiled=0, spoiler=-1, net=[4, -2, -2], carried=0)),
    ],
    ids=["obligatory", "optional"],
)
def test_forfeited_player_with_two_tricks_is_a_threat_until_it_plays_the_ace_of_trumps(rob_rule, expected):
    # (Had the others known of the forfeit, seat 2 would have played greedily at T3, its
    # lowest winner 2c, and won it.)
    rules = R._replace(rob=rob_rule)
    res = play(rules, pol(3, {0: row(rob=0)}), FT)
    expect(res, robbed_by=-1, claimed=0, jinx_by=-1, tricks=FT_T12 + FT_T34, tricks_won=[3, 1, 0], **expected)
    check_law(res, rules, 3)


# FK: three players, turn-up 7s (Ks Qs and the low trumps are in the stock); seat 0 holds
# As (rob 0) and plays it at trick 2, so from then on everyone knows whether it is
# forfeited.
FK = deal(["5s As 4c Qh Jh", "Js 3c 2d Qd Kd", "Ah Ad 9c 2c Kh"], "7s")
# T1: seat 0 leads 5s (sure, the top trump; As is not: Js and Ah unseen).  Nothing may be
#     held back from the 5: seat 1 must play its only trump Js (13), seat 2 its only trump
#     Ah (12).  Seat 0 wins.
# T2: seat 0 leads As: sure now (5s Js Ah played, the turn-up 7s out of play and dead;
#     Ks Qs .. are below it).  Seats 1 and 2 hold no trump: Must empty, renege 1, their
#     plain cards; nothing beats: cheapest, 2d (1 < 3c 7) and Ad (0).  Seat 0 wins: 2
#     tricks, and it has played the ace of trumps.
# T3: seat 0 leads its cheapest, 4c (6 < Jh 9, Qh 10).  Seat 1 must follow with 3c (7),
#     which beats it.
FK_T12 = [trick(0, "0:5s 1:Js 2:Ah", 0), trick(0, "0:As 1:2d 2:Ad", 0)]
# Obligatory-or-forfeit: seat 0 is forfeited and, having played As, known to be: no threat.
#   T3: seat 2 has no threat: greedy, its lowest winning club 2c (8 > 3c 7).  Seat 2 wins.
#   T4: seat 2 (1 trick, no threat) leads its cheapest, 9c (1 < Kh 11).  Seat 0 (no club,
#       no trump: any; no other player has 2 tricks: greedy, nothing beats) its cheapest,
#       Jh (9 < Qh 10); seat 1 likewise Qd (11 < Kd 12).  Seat 2 wins: 2-0-2.
#   T5: seat 2 leads Kh; seat 0 follows with Qh, seat 1 throws Kd.  Seat 2 wins its third
#       trick and takes the pool.
FK_KNOWN = FK_T12 + [trick(0, "0:4c 1:3c 2:2c", 2), trick(2, "2:9c 0:Jh 1:Qd", 2), trick(2, "2:Kh 0:Qh 1:Kd", 2)]
# Optional: seat 0 is not forfeited and threatens with 2 tricks.
#   T3: seat 2 (spoiling; seat 1 is winning, no threat to come) throws 9c.  Seat 1 wins.
#   T4: seat 1 (1 trick, spoiling) leads its strongest, Kd.  Seat 2 (the threat still to
#       play, nothing beats Kd) its cheapest, 2c.  Seat 0 (2 tricks: greedy, nothing beats)
#       Jh.  Seat 1 wins: 2-2-0.
#   T5: seat 1 leads Qd; seat 2 throws Kh, seat 0 Qh.  Seat 1 wins its third trick and
#       takes the pool.
FK_THREAT = FK_T12 + [trick(0, "0:4c 1:3c 2:9c", 1), trick(1, "1:Kd 2:2c 0:Jh", 1), trick(1, "1:Qd 2:Kh 0:Qh", 1)]


@pytest.mark.parametrize(
    "rob_rule, expected",
    [
        (ROB_OBLIGATORY, dict(forfeited=0, tricks=FK_KNOWN, tricks_won=[2, 0, 3], winner=2, net=[-2, -2, 4])),
        (ROB_OPTIONAL, dict(forfeited=-1, tricks=FK_THREAT, tricks_won=[2, 3, 0], winner=1, net=[-2, 4, -2])),
    ],
    ids=["obligatory", "optional"],
)
def test_forfeited_player_who_played_the_ace_of_trumps_is_no_threat(rob_rule, expected):
    # (Had seat 0 still counted as a threat under obligatory-or-forfeit, the tricks would
    # be FK_THREAT's and seat 1 would take the pool.)
    rules = R._replace(rob=rob_rule)
    res = play(rules, pol(3, {0: row(rob=0)}), FK)
    expect(res, robbed_by=-1, discard=-1, claimed=0, jinx_by=-1, spoiled=0, spoiler=-1, carried=0, **expected)
    check_law(res, rules, 3)


@pytest.mark.parametrize("spoil", [1, 0], ids=["spoil-1", "spoil-0"])
def test_forfeited_player_with_two_tricks_plays_spoiling_against_a_threat(implementation, spoil):
    # FK under obligatory-or-forfeit: at T5 seat 0 is forfeited with 2 tricks and seat 2,
    # with 2 tricks, threatens: seat 0 cannot take the pool (it is forfeited), so with
    # spoil 1 it plays spoiling; with spoil 0 greedily.  (A forfeited seat has 2 tricks
    # while another has 2 only after four tricks, so the clause can only act at T5, where
    # every card is forced: the cards and the result are FK_KNOWN's either way; the twin's
    # log names the style of each card.)
    rules = R._replace(rob=ROB_OBLIGATORY)
    log = []
    res = play_dealt(rules, pol(3, {0: row(rob=0, spoil=spoil)}), FK, log=log)
    expect(res, forfeited=0, tricks=FK_KNOWN, tricks_won=[2, 0, 3], winner=2, spoiled=0, net=[-2, -2, 4])
    check_law(res, rules, 3)
    if implementation == "twin":
        (line,) = [line for line in log if line.startswith("trick 5:")]
        assert ("seat 0 Qh (spoiling)" in line) == (spoil == 1)
        assert "seat 1 Kd (spoiling)" in line  # seat 1, 0 tricks, spoils against seat 2
        (line,) = [line for line in log if line.startswith("trick 4:")]
        assert "(spoiling)" not in line  # seat 0 has played As: nobody threatens anybody


@pytest.mark.parametrize("ace_low, winner", [(False, 1), (True, 0)], ids=["ace-high", "ace-low"])
def test_unrobbed_ace_low(ace_low, winner):
    # Turn-up 4s.  Seat 0 holds only low trumps and leads its lowest, 10s (order 1).  Seat 1
    # holds As (rob 0) and no other trump: As is not privileged, so it must play it.  Seat 2
    # has no trump: its cheapest 2h.  With unrobbed_ace_low the unrobbed As is order 0,
    # below 10s: seat 0 wins; otherwise As (11) wins.
    rules = R._replace(unrobbed_ace_low=ace_low)
    res = play(rules, pol(3, {1: row(rob=0)}), deal(["10s 9s 8s 7s 6s", "As Kd Qd Jd 10d", "2h 3h 4h 6h 7h"], "4s"))
    expect(res, robbed_by=-1, forfeited=-1)
    first_trick(res, trick(0, "0:10s 1:As 2:2h", winner))
    check_law(res, rules, 3)


@pytest.mark.parametrize("ace_low, first", [(False, "1:10d"), (True, "1:Ah")], ids=["ace-high", "ace-low"])
def test_unrobbed_ace_low_hearts_the_demoted_ace_of_hearts_is_never_renegeable(ace_low, first):
    # Hearts trumps (turn-up 8h): Ah is the ace of trumps.  Seat 0 holds only low trumps and
    # no plain card; none is sure (5h Jh Ah .. unseen): it leads its lowest, 2h (order 1).
    # Seat 1 holds Ah (rob 0) as its only trump.  Ace high: Ah (11) is privileged and above
    # 2h: renegeable, Must empty, renege 1 -> its plain cards, nothing beats a trump: its
    # cheapest, 10d (9 < Jd 10).  Ace low: demoted at seat 1's first turn to order 0, Ah is
    # above no led trump: Must = {Ah}, it must play it (and 2h beats it).  Seat 2 has no
    # trump: its cheapest, 10c (0).  Seat 0 wins either way.
    rules = R._replace(unrobbed_ace_low=ace_low)
    res = play(rules, pol(3, {1: row(rob=0)}), deal(["2h 3h 4h 6h 7h", "Ah Kd Qd Jd 10d", "10c 9c 8c 7c 6c"], "8h"))
    expect(res, trump=HEARTS, robbed_by=-1, forfeited=-1)
    first_trick(res, trick(0, f"0:2h {first} 2:10c", 0))
    check_law(res, rules, 3)


# AL: three players, spades trumps, turn-up 5s (out of play: nobody robs).  Seat 0 (H, rob
# 0) holds As; seat 1 holds Ah, seat 2 Js and Ks; Qs and the low trumps are in the stock.
AL = deal(["As 10c Jc Qd Kc", "Ah 3d 2h 3h 4h", "Js Ks 2d Qh Kh"], "5s")
# T1: H leads (with unrobbed_ace_low As becomes order 0 at this first turn).  As is not
#     sure either way (Ah Js unseen); its cheapest, 10c (0).  Seat 1 (no club) trumps with
#     its only winner Ah; seat 2 (no club) overtrumps with its lowest winner Js (13; Ks 10
#     does not beat Ah 12).  Seat 2 wins.
# T2: seat 2 leads.  Ks: the only unseen trump above it, as far as seat 2 knows, is As (H's,
#     unseen to seat 2: at its usual order 11 even when demoted, the others never learn
#     of it); Ah Js played, 5s dead.  Not sure: seat 2 leads its cheapest, 2d (1 < Qh 10).
#     H (follow or trump: Qd or As) plays its lowest winner of the suit led, Qd; seat 1
#     must follow with 3d.  H wins: 1-0-1.
AL_T12 = [trick(0, "0:10c 1:Ah 2:Js", 2), trick(2, "2:2d 0:Qd 1:3d", 0)]
# T3, ace high: H's As (11) is now sure (Ah Js played, 5s dead): H leads it; seat 1 (no
#     trump: its plain cards) 2h; seat 2 must play its trump Ks.  H wins (2 tricks).
#     T4: H leads its cheapest, Jc (10 < Kc 12); seats 1 and 2 (spoiling: H threatens;
#     nothing beats) their cheapest, 3h and Qh.  H's third trick: it takes the pool.
AL_HIGH = AL_T12 + [trick(0, "0:As 1:2h 2:Ks", 0), trick(0, "0:Jc 1:3h 2:Qh", 0)]
# T3, ace low: H knows its As is order 0: not sure (Ks .. unseen); it leads its cheapest,
#     Jc.  Seat 1 (no club, no trump) 2h; seat 2 (no club) its lowest winner Ks.  Seat 2
#     wins (2 tricks).  T4: seat 2 leads its cheapest, Qh (10 < Kh 11).  H (1 trick,
#     spoiling: seat 2 threatens and is winning) has no heart: its lowest winner As (a
#     trump, order 0, still beats a plain card).  Seat 1 must follow with 3h (its cheaper
#     heart).  H wins: 2-0-2.  T5: H leads Kc; 4h, Kh cannot beat it: H's third trick.
AL_LOW = AL_T12 + [trick(0, "0:Jc 1:2h 2:Ks", 2), trick(2, "2:Qh 0:As 1:3h", 0), trick(0, "0:Kc 1:4h 2:Kh", 0)]


@pytest.mark.parametrize(
    "ace_low, tricks, won", [(False, AL_HIGH, [3, 0, 1]), (True, AL_LOW, [3, 0, 2])], ids=["ace-high", "ace-low"]
)
def test_unrobbed_ace_low_only_the_holder_knows_its_ace_is_low(ace_low, tricks, won):
    # T2 (both): a non-holder does not lead Ks as a sure winner (it would, were an unseen
    # demoted ace counted at order 0).  T3: the holder leads As only when it is high.
    rules = R._replace(unrobbed_ace_low=ace_low)
    res = play(rules, pol(3, {0: row(rob=0)}), AL)
    expect(
        res,
        robbed_by=-1,
        forfeited=-1,
        tricks=tricks,
        tricks_won=won,
        winner=0,
        claimed=0,
        spoiled=0,
        net=[4, -2, -2],
        carried=0,
    )
    check_law(res, rules, 3)


# ALH: hearts trumps (turn-up Jh, out of play: nobody robs), must-follow.  Seat 0 (H, rob
# 0) holds Ah, the ace of trumps; seat 1 holds 5h, seat 2 Kh; the other trumps are in the
# stock.
ALH = deal(["Ah 10c 3d Ks Kc", "5h 2d 8s 4d 5d", "Kh 9c Qd 9s Qc"], "Jh")
# T1: H leads (Ah demoted at this turn when ace low).  Ah is not sure either way (5h
#     unseen); its cheapest, 10c (0).  Seat 1 (no club: any card) wins with its only
#     winner 5h; seat 2 must follow clubs: nothing beats 5h, its cheapest club 9c (1 < Qc
#     11).  Seat 1 wins.
# T2: seat 1 (no trump left) leads its cheapest, 2d (1 < 8s 2).  Seat 2 must follow with
#     Qd, which beats it; H must follow with 3d.  Seat 2 wins: 0-1-1.
# T3: seat 2 leads.  Kh (10): 5h played, Jh dead, but Ah (H's) is unseen to seat 2 and
#     keeps its usual order 11 for it: not sure.  Its cheapest, 9s (1 < Qc 11).  H must
#     follow with Ks (its lowest winner, the only spade); seat 1 with 8s.  H wins: 1-1-1.
ALH_T123 = [trick(0, "0:10c 1:5h 2:9c", 1), trick(1, "1:2d 2:Qd 0:3d", 2), trick(2, "2:9s 0:Ks 1:8s", 0)]
# T4, ace high: H's Ah (11) is sure (5h played, Jh dead, Kh below it): H leads it; seat 1
#     (no trump: plain) 4d (3 < 5d 4); seat 2 must play its trump Kh.  H wins (2 tricks).
#     T5: H leads Kc; seat 1 (no club: any) 5d; seat 2 must follow with Qc.  H's third
#     trick: it takes the pool.
ALH_HIGH = ALH_T123 + [trick(0, "0:Ah 1:4d 2:Kh", 0), trick(0, "0:Kc 1:5d 2:Qc", 0)]
# T4, ace low: H knows its Ah is order 0: not sure (Kh .. unseen); it leads its cheapest,
#     Kc (plain before trump).  Seat 1 (no club: any; nothing beats) 4d; seat 2 must
#     follow with Qc.  H wins (2 tricks).  T5: H leads Ah (order 0); seat 1 5d; seat 2 must
#     play Kh (10), which beats it.  2-1-2: nobody can reach three tricks, a spoil by seat 2.
ALH_LOW = ALH_T123 + [trick(0, "0:Kc 1:4d 2:Qc", 0), trick(0, "0:Ah 1:5d 2:Kh", 2)]


@pytest.mark.parametrize(
    "ace_low, expected",
    [
        (
            False,
            dict(tricks=ALH_HIGH, tricks_won=[3, 1, 1], winner=0, spoiled=0, spoiler=-1, net=[4, -2, -2], carried=0),
        ),
        (
            True,
            dict(tricks=ALH_LOW, tricks_won=[2, 1, 2], winner=-1, spoiled=1, spoiler=2, net=[-2, -2, -2], carried=6),
        ),
    ],
    ids=["ace-high", "ace-low"],
)
def test_unrobbed_ace_low_hearts_only_the_holder_knows_its_ace_is_low(ace_low, expected):
    # T3 (both): a non-holder does not lead Kh as a sure winner (it would, were the unseen
    # demoted Ah counted at order 0).  T4: the holder leads Ah only when it is high.
    rules = MUST._replace(unrobbed_ace_low=ace_low)
    res = play(rules, pol(3, {0: row(rob=0)}), ALH)
    expect(res, trump=HEARTS, robbed_by=-1, forfeited=-1, claimed=0, jinx_by=-1, **expected)
    check_law(res, rules, 3)


# ----------------------------------------------------------------------------------------
# The jinx (JX4: E wins tricks 1-3 with 5s Js Ah and keeps Ks Qs; As is in the stock, so
# neither is a sure winner after trick 3)

JX4_JINX = JX4_T123 + [trick(0, "0:Qs 1:Qc 2:4d 3:6h", 0), trick(0, "0:Ks 1:Kc 2:5d 3:7h", 0)]


@pytest.mark.parametrize("jinx_min", [1, 2, 3])
def test_claim_when_too_few_sure_winners(jinx_min):
    # 0 sure winners < jinx_min: E claims after trick 3 and takes the pool (8).
    res = play(R, pol(4, {0: row(jinx_min=jinx_min)}), JX4)
    expect(
        res,
        tricks=JX4_T123,
        tricks_won=[3, 0, 0, 0],
        winner=0,
        claimed=1,
        jinx_by=-1,
        jinx_made=0,
        spoiled=0,
        spoiler=-1,
        pool=8,
        net=[6, -2, -2, -2],
        carried=0,
    )
    check_law(res, R, 4)


@pytest.mark.parametrize(
    "bonus, net",
    [
        (BONUS_ANTE, [12, -4, -4, -4]),  # each other player pays the ante, 2: 8 - 2 + 3*2
        (BONUS_NONE, [6, -2, -2, -2]),
        (BONUS_DOUBLE_ANTE, [18, -6, -6, -6]),  # 4 each: 8 - 2 + 3*4
    ],
    ids=["ante", "none", "double-ante"],
)
def test_jinx_made(bonus, net):
    # jinx_min 0: E always jinxes.  T4: no sure trump, no plain card: its lowest trump Qs;
    # the others (spoiling against the jinxer, nothing beats) throw their cheapest: Qc 4d
    # 6h.  T5: Ks; Kc 5d 7h.  E makes the jinx: the pool and the bonus.
    rules = R._replace(jinx_bonus=bonus)
    res = play(rules, pol(4, {0: row(jinx_min=0)}), JX4)
    expect(
        res,
        tricks=JX4_JINX,
        tricks_won=[5, 0, 0, 0],
        winner=0,
        claimed=0,
        jinx_by=0,
        jinx_made=1,
        spoiled=0,
        spoiler=-1,
        pool=8,
        net=net,
        carried=0,
    )
    check_law(res, rules, 4)


def test_jinx_made_with_ante_and_dealer_extra():
    # ante 3, dealer_extra 1: pool 13; bonus = ante 3 from each.  E 13 - 3 + 9 = 19;
    # A, B -3 - 3 = -6; D (dealer) -3 - 1 - 3 = -7.  Sum 0.
    rules = R._replace(ante=3, dealer_extra=1)
    res = play(rules, pol(4, {0: row(jinx_min=0)}), JX4)
    expect(res, jinx_made=1, winner=0, pool=13, net=[19, -6, -6, -7], carried=0)


# JX4A: JX4 with the turn-up As: E's Ks and Qs become sure once As is out of play or played.
JX4A = deal(JX4_HANDS, "As")


def test_jinx_called_with_two_sure_winners():
    # The dealer does not rob (rob 0): the turned As stays out of play, dead for E.  After
    # trick 3 Ks (nothing higher unseen) and Qs (Ks is E's own) are sure: 2 >= jinx_min 2
    # -> jinx.  T4 E leads its highest sure trump Ks, T5 Qs.  Made: bonus ante 2.
    res = play(R, pol(4, {3: row(rob=0)}), JX4A)
    expect(
        res,
        robbed_by=-1,
        tricks=JX4_T123 + [trick(0, "0:Ks 1:Qc 2:4d 3:6h", 0), trick(0, "0:Qs 1:Kc 2:5d 3:7h", 0)],
        jinx_by=0,
        jinx_made=1,
        claimed=0,
        winner=0,
        net=[12, -4, -4, -4],
    )
    check_law(res, R, 4)


def test_jinx_min_3_never_jinxes():
    res = play(R, pol(4, {0: row(jinx_min=3), 3: row(rob=0)}), JX4A)
    expect(res, tricks=JX4_T123, jinx_by=-1, claimed=1, winner=0, net=[6, -2, -2, -2])


def test_dealer_robs_the_turned_ace_and_must_play_it_to_the_five():
    # The dealer robs As (discarding its cheapest, 2h).  T1: 5s led: As is not privileged,
    # Must = {As}: the dealer plays it at once.  After trick 3 As is played: Ks and Qs are
    # sure -> jinx, made as above (the dealer now throws 3h 4h 6h 7h).
    res = play(R, pol(4), JX4A)
    expect(
        res,
        robbed_by=3,
        discard="2h",
        held=JX4_HANDS[:3] + ["3h 4h 6h 7h As"],
        tricks=[
            trick(0, "0:5s 1:10c 2:Ad 3:As", 0),
            trick(0, "0:Js 1:9c 2:2d 3:3h", 0),
            trick(0, "0:Ah 1:8c 2:3d 3:4h", 0),
            trick(0, "0:Ks 1:Qc 2:4d 3:6h", 0),
            trick(0, "0:Qs 1:Kc 2:5d 3:7h", 0),
        ],
        jinx_by=0,
        jinx_made=1,
        winner=0,
    )
    check_law(res, R, 4)


def test_jinx_off_three_tricks_take_the_pool_at_once():
    # jinx off: E's third trick takes the pool; no claim, no jinx, even at jinx_min 0.
    rules = R._replace(jinx=False)
    res = play(rules, pol(4, {0: row(jinx_min=0)}), JX4)
    expect(res, tricks=JX4_T123, winner=0, claimed=0, jinx_by=-1, jinx_made=0, spoiled=0, net=[6, -2, -2, -2])
    check_law(res, rules, 4)


# JF4: E holds 5s Js Ah and two low clubs Jc 2c; A keeps Qc Kc after trick 3.
JF4 = deal(["5s Js Ah Jc 2c", "10c 9c 8c Qc Kc", "Ad 2d 3d 4d 5d", "2h 3h 4h 6h 7h"], "7s")


def test_jinx_failed_is_a_spoil_by_the_player_who_beat_the_jinxer():
    # Tricks 1-3 as JX4.  E's Jc 2c are not sure: jinx_min 0 jinxes anyway.  T4: E leads its
    # cheapest, 2c (8; Jc is 10).  A (spoiling: the jinxer is winning) plays its lowest
    # winner Qc; B and D (A is no threat, none to come) their cheapest, 4d and 6h.  A wins:
    # the jinx fails, spoiled by A; the pool is carried, nobody gets a bonus.
    res = play(R, pol(4, {0: row(jinx_min=0)}), JF4)
    expect(
        res,
        tricks=JX4_T123 + [trick(0, "0:2c 1:Qc 2:4d 3:6h", 1)],
        tricks_won=[3, 1, 0, 0],
        jinx_by=0,
        jinx_made=0,
        claimed=0,
        winner=-1,
        spoiled=1,
        spoiler=1,
        pool=8,
        net=[-2, -2, -2, -2],
        carried=8,
    )
    check_law(res, R, 4)


def test_three_tricks_not_the_first_three_win_at_once():
    # E: 5s Js 2c Ks Qs.  T1 5s, T2 Js (sure).  T3: Ks Qs not sure (As, Ah unseen): E leads
    # its cheapest, 2c; A (spoiling against E's 2 tricks) beats with its lowest winner Qc;
    # B, D: 3d, 4h.  T4: A (1 trick, E threatens) leads its strongest, Kc; B and D cannot
    # beat: 4d, 6h; E (2 tricks, greedy), no club: lowest winning trump Qs.  E has tricks
    # 1, 2 and 4: it takes the pool at once (no jinx decision).
    res = play(R, pol(4), deal(["5s Js 2c Ks Qs", "10c 9c 8c Qc Kc", "Ad 2d 3d 4d 5d", "2h 3h 4h 6h 7h"], "7s"))
    expect(
        res,
        tricks=[
            trick(0, "0:5s 1:10c 2:Ad 3:2h", 0),
            trick(0, "0:Js 1:9c 2:2d 3:3h", 0),
            trick(0, "0:2c 1:Qc 2:3d 3:4h", 1),
            trick(1, "1:Kc 2:4d 3:6h 0:Qs", 0),
        ],
        tricks_won=[3, 1, 0, 0],
        winner=0,
        claimed=0,
        jinx_by=-1,
        jinx_made=0,
        spoiled=0,
        net=[6, -2, -2, -2],
    )
    check_law(res, R, 4)


# ----------------------------------------------------------------------------------------
# Spoils and spoiling play

# SP4: four players, spades trumps (turn-up 7s), nobody holds a trump; listed from the
# eldest.  Every seat wins one of the first four tricks:
# T1 E leads its cheapest 10c; A must follow with Kc; B (no club) throws Ad; D follows
#    with its cheaper club 9c (1 < 8c 2).  A wins.
# T2 A leads 2d (1); B's only diamond 3d beats it; D throws 2h (0); E 7c (3).  B wins.
# T3 B leads 3h (1); D's lowest winning heart 4h; E 6c; A Jd.  D wins.
# T4 D leads 8c (2 < 9h 7); E's lowest winning club 5c (5 < Ac 9); A Qd; B Qh (10 < Kh).
#    E wins.  Each seat has 1 trick and 1 left to play: nobody can reach 3 -> a spoil,
#    spoiled by E.
SP4_HANDS = ["10c 7c 6c 5c Ac", "Kc 2d Jd Qd Kd", "Ad 3d 3h Kh Qh", "9c 8c 2h 4h 9h"]
SP4 = deal(SP4_HANDS, "7s")


def sp4_tricks(e):
    """SP4's tricks with the eldest at seat e (four players)."""
    a, b, d = (e + 1) % 4, (e + 2) % 4, (e + 3) % 4
    return [
        trick(e, f"{e}:10c {a}:Kc {b}:Ad {d}:9c", a),
        trick(a, f"{a}:2d {b}:3d {d}:2h {e}:7c", b),
        trick(b, f"{b}:3h {d}:4h {e}:6c {a}:Jd", d),
        trick(d, f"{d}:8c {e}:5c {a}:Qd {b}:Qh", e),
    ]


@pytest.mark.parametrize(
    "ante, extra, net",
    [
        (2, 0, [-2, -2, -2, -2]),
        (3, 1, [-3, -3, -3, -4]),  # the dealer (seat 3) also pays the dealer_extra
        (0, 5, [0, 0, 0, -5]),
    ],
    ids=["ante-2", "ante-3-extra-1", "ante-0-extra-5"],
)
def test_spoil_nobody_reaches_three_tricks(ante, extra, net):
    rules = R._replace(ante=ante, dealer_extra=extra)
    res = play(rules, pol(4), SP4)
    pool = 4 * ante + extra
    expect(
        res,
        tricks=sp4_tricks(0),
        tricks_won=[1, 1, 1, 1],
        winner=-1,
        spoiled=1,
        spoiler=0,
        jinx_by=-1,
        claimed=0,
        pool=pool,
        net=net,
        carried=pool,
    )
    check_law(res, rules, 4)


def test_spoil_with_seat_0_dealing():
    # dealer 0: the eldest is seat 1 and gets E's cards: the same tricks, seats rotated;
    # spoiled by seat 1; seat 0 pays the dealer_extra.
    rules = R._replace(dealer_extra=1)
    cards = rel(SP4_HANDS, "7s", 0, 4)
    res = play(rules, pol(4), cards, dealer=0)
    expect(
        res,
        dealt=["9c 8c 2h 4h 9h"] + SP4_HANDS[:3],
        tricks=sp4_tricks(1),
        tricks_won=[1, 1, 1, 1],
        spoiled=1,
        spoiler=1,
        winner=-1,
        pool=9,
        net=[-3, -2, -2, -2],
        carried=9,
    )
    check_law(res, rules, 4, dealer=0)


def test_spoiling_lead_strongest_card_against_a_threat():
    # JL with everyone at the defaults: p (seat 1) leads Js at trick 4 (its strongest: q has
    # 2 tricks, p 1) -- see the jack-led test: the hand is spoiled by r (seat 2).
    res = play(MUST, pol(3), JL)
    assert norm("tricks", res["tricks"])[3] == trick(1, "1:Js 2:Qh 0:Ah", 1)
    expect(res, spoiled=1, spoiler=2)


def test_greedy_lead_with_spoil_0_leads_the_cheapest_card():
    # JL with p at spoil 0: T4 p leads greedily: Js is not sure (5s unseen) -> its cheapest,
    # 9d.  r (spoiling; p is no threat, q still to play) beats with its strongest winner,
    # 5s; q must follow Kd.  r wins (q 2, p 1, r 1).  T5: r leads its strongest (only)
    # card Qh; q, no heart (Ah is none), trumps with Ah; p (greedy) beats it with Js.
    # 2-2-1: spoiled by p.
    res = play(MUST, pol(3, {1: row(spoil=0)}), JL)
    expect(
        res,
        tricks=JL_T123 + [trick(1, "1:9d 2:5s 0:Kd", 2), trick(2, "2:Qh 0:Ah 1:Js", 1)],
        tricks_won=[2, 2, 1],
        winner=-1,
        spoiled=1,
        spoiler=1,
    )
    check_law(res, MUST, 3)


# SB: three players, must-follow, spades trumps (turn-up 7s).  r = seat 0, p = seat 1,
# q = seat 2 (the dealer).
SB = deal(["10c Ad 5h Kh Jc", "9c 2d 3h 9s Js", "Kc 3d 4h Ks Qd"], "7s")
# T1 r leads its cheapest, 10c (order 0, tied with Ad: clubs first); p must follow 9c, q
#    Kc.  q wins.
# T2 q: Ks is not sure; cheapest 3d (tied with 4h: diamonds first); r Ad, p 2d.  q (2).
# T3 q leads 4h; r (spoiling, q winning) its lowest winner 5h; p must follow 3h.  r wins.
SB_T123 = [trick(0, "0:10c 1:9c 2:Kc", 2), trick(2, "2:3d 0:Ad 1:2d", 2), trick(2, "2:4h 0:5h 1:3h", 0)]


def test_spoiling_follower_plays_its_strongest_winner_when_the_threat_is_to_come():
    # T4 r (1 trick, q threatens) leads its strongest, Kh.  p, no heart, holds 9s and Js,
    # both winners; r is no threat and q is still to play: the strongest winner Js.  q
    # cannot beat Js: its cheapest, Qd.  p wins.  T5 p leads 9s; q must play Ks and wins;
    # r throws Jc.  q has tricks 1, 2, 5: it takes the pool.
    res = play(MUST, pol(3), SB)
    expect(
        res,
        tricks=SB_T123 + [trick(0, "0:Kh 1:Js 2:Qd", 1), trick(1, "1:9s 2:Ks 0:Jc", 2)],
        tricks_won=[1, 1, 3],
        winner=2,
        spoiled=0,
        claimed=0,
        net=[-2, -2, 4],
    )
    check_law(res, MUST, 3)


def test_greedy_follower_plays_its_lowest_winner_and_lets_the_threat_win():
    # p at spoil 0: T4 its lowest winner 9s (2); q beats it with Ks (10): q has tricks 1, 2, 4
    # and takes the pool at once.
    res = play(MUST, pol(3, {1: row(spoil=0)}), SB)
    expect(
        res,
        tricks=SB_T123 + [trick(0, "0:Kh 1:9s 2:Ks", 2)],
        tricks_won=[1, 0, 3],
        winner=2,
        spoiled=0,
        net=[-2, -2, 4],
    )
    check_law(res, MUST, 3)


# ----------------------------------------------------------------------------------------
# Chips of one deal


@pytest.mark.parametrize(
    "ante, extra, net",
    [
        (2, 0, [6, -2, -2, -2]),
        (3, 1, [10, -3, -3, -4]),  # pool 13: E 13 - 3; the dealer pays 3 + 1
        (1, 4, [7, -1, -1, -5]),  # pool 8: E 8 - 1
    ],
    ids=["ante-2", "ante-3-extra-1", "ante-1-extra-4"],
)
def test_win_nets(ante, extra, net):
    rules = R._replace(ante=ante, dealer_extra=extra)
    res = play(rules, pol(4), JX4)
    expect(res, winner=0, claimed=1, pool=4 * ante + extra, net=net, carried=0)


def test_win_with_seat_1_dealing():
    # dealer 1: the eldest (E's cards) is seat 2; seat 1 pays the dealer_extra.
    rules = R._replace(dealer_extra=1)
    res = play(rules, pol(4), rel(JX4_HANDS, "7s", 1, 4), dealer=1)
    expect(res, winner=2, claimed=1, tricks_won=[0, 0, 3, 0], pool=9, net=[-2, -3, 7, -2], carried=0)
    assert norm("tricks", res["tricks"])[0] == trick(2, "2:5s 3:10c 0:Ad 1:2h", 2)
    check_law(res, rules, 4, dealer=1)


# ----------------------------------------------------------------------------------------
# Pools (play_pool).  Four players; SP4 is spoiled by its eldest, JX4 taken by its eldest
# (a claim at the default jinx_min 2).  Deal k is dealt by seat (first_dealer + k) mod 4.


@pytest.mark.parametrize(
    "topup, amount, extra, pools, paid",
    [
        # first dealer 3.  Deal 0 (dealer 3) spoiled; deal 1 (dealer 0) spoiled; deal 2 (dealer
        # 1): its eldest, seat 2, takes the pool.
        # all-but-dealer: after deal 0 seats 0 1 2 add, after deal 1 seats 1 2 3.
        (TOPUP_ALL_BUT_DEALER, 1, 0, [8, 11, 14], [3, 4, 4, 3]),
        # dealer-only: the next dealer adds: seat 0 after deal 0, seat 1 after deal 1.
        (TOPUP_DEALER_ONLY, 1, 0, [8, 9, 10], [3, 3, 2, 2]),
        # everyone adds after each spoil.
        (TOPUP_EVERYONE, 1, 0, [8, 12, 16], [4, 4, 4, 4]),
        # amount 2 and a dealer_extra of 1 paid by the first dealer (seat 3) only.
        (TOPUP_ALL_BUT_DEALER, 2, 1, [9, 15, 21], [4, 6, 6, 5]),
        (TOPUP_EVERYONE, 0, 0, [8, 8, 8], [2, 2, 2, 2]),
    ],
    ids=["all-but-dealer", "dealer-only", "everyone", "amount-2-extra-1", "amount-0"],
)
def test_pool_spoil_topups(play_pool, topup, amount, extra, pools, paid):
    rules = R._replace(spoil_topup=topup, topup_amount=amount, dealer_extra=extra)
    res = play_pool(rules, pol(4), [SP4, SP4, JX4])
    received = [0, 0, pools[-1], 0]
    assert norm("pools", res["pools"]) == pools
    assert norm("paid", res["paid"]) == paid
    assert norm("received", res["received"]) == received
    assert norm("net", res["net"]) == [r - p for r, p in zip(received, paid)]
    assert (int(res["taken_by"]), int(res["left"]), int(res["truncated"])) == (2, 0, 0)
    assert len(res["results"]) == 3
    # the dealer passes left: the spoilers / the taker are the eldest hands 0, 1, 2
    r0, r1, r2 = res["results"]
    assert (int(r0["spoiled"]), int(r0["spoiler"]), int(r0["winner"])) == (1, 0, -1)
    assert (int(r1["spoiled"]), int(r1["spoiler"]), int(r1["winner"])) == (1, 1, -1)
    assert (int(r2["spoiled"]), int(r2["winner"]), int(r2["claimed"])) == (0, 2, 1)
    assert norm("tricks", r1["tricks"]) == sp4_tricks(1)
    assert norm("dealt", r1["dealt"]) == [hand(SP4_HANDS[3])] + [hand(h) for h in SP4_HANDS[:3]]
    assert norm("dealt", r2["dealt"]) == [
        hand(JX4_HANDS[2]),
        hand(JX4_HANDS[3]),
        hand(JX4_HANDS[0]),
        hand(JX4_HANDS[1]),
    ]


def test_pool_first_dealer_pays_the_extra_not_the_next_dealer(play_pool):
    # first dealer 1, dealer_extra 1: pool 9.  Deal 0 (dealer 1, eldest 2): spoiled by seat
    # 2; seats 0 2 3 add 1 -> 12.  Deal 1 (dealer 2, eldest 3): seat 3 takes 12.  Seat 2
    # dealt deal 1 but pays no extra.
    rules = R._replace(dealer_extra=1)
    res = play_pool(rules, pol(4), [SP4, JX4], first_dealer=1)
    assert norm("pools", res["pools"]) == [9, 12]
    assert norm("paid", res["paid"]) == [3, 3, 3, 3]
    assert norm("received", res["received"]) == [0, 0, 0, 12]
    assert norm("net", res["net"]) == [-3, -3, -3, 9]
    assert int(res["taken_by"]) == 3 and int(res["left"]) == 0 and int(res["truncated"]) == 0
    assert int(res["results"][0]["spoiler"]) == 2 and int(res["results"][1]["winner"]) == 3


def test_pool_taken_at_the_first_deal(play_pool):
    res = play_pool(R, pol(4), [JX4, SP4])
    assert len(res["results"]) == 1 and norm("pools", res["pools"]) == [8]
    assert norm("paid", res["paid"]) == [2, 2, 2, 2] and norm("received", res["received"]) == [8, 0, 0, 0]
    assert norm("net", res["net"]) == [6, -2, -2, -2]
    assert (int(res["taken_by"]), int(res["left"]), int(res["truncated"])) == (0, 0, 0)


def test_pool_max_deals_stops_it_without_a_topup(play_pool):
    # max_deals 2: deal 0 spoiled -> top-up by seats 0 1 2 (11); deal 1 spoiled -> stopped:
    # no top-up, the third deal is not played; 11 chips are left, truncated.
    rules = R._replace(max_deals=2)
    res = play_pool(rules, pol(4), [SP4, SP4, JX4])
    assert len(res["results"]) == 2 and norm("pools", res["pools"]) == [8, 11]
    assert norm("paid", res["paid"]) == [3, 3, 3, 2] and norm("received", res["received"]) == [0, 0, 0, 0]
    assert norm("net", res["net"]) == [-3, -3, -3, -2]
    assert (int(res["taken_by"]), int(res["left"]), int(res["truncated"])) == (-1, 11, 1)


def test_pool_max_deals_1(play_pool):
    rules = R._replace(max_deals=1)
    res = play_pool(rules, pol(4), [SP4, JX4])
    assert len(res["results"]) == 1 and norm("pools", res["pools"]) == [8]
    assert norm("paid", res["paid"]) == [2, 2, 2, 2] and norm("net", res["net"]) == [-2, -2, -2, -2]
    assert (int(res["taken_by"]), int(res["left"]), int(res["truncated"])) == (-1, 8, 1)


def test_pool_no_topup_after_the_last_listed_deal(play_pool):
    # Two listed deals, both spoiled: one top-up (after deal 0), none after deal 1; not
    # truncated (max_deals 1000 did not stop it); 11 chips left.
    res = play_pool(R, pol(4), [SP4, SP4])
    assert len(res["results"]) == 2 and norm("pools", res["pools"]) == [8, 11]
    assert norm("paid", res["paid"]) == [3, 3, 3, 2] and norm("net", res["net"]) == [-3, -3, -3, -2]
    assert (int(res["taken_by"]), int(res["left"]), int(res["truncated"])) == (-1, 11, 0)


def test_pool_jinx_bonus_is_paid_in(play_pool):
    # jinx_min 0 everywhere (SP4 never gives 3 tricks, so it is unchanged).  Deal 0 spoiled,
    # seats 0 1 2 add 1 (11).  Deal 1 (dealer 0): seat 1 jinxes and makes it: the pool 11
    # plus the ante 2 from each other seat.
    res = play_pool(R, pol(4, jinx_min=0), [SP4, JX4])
    assert norm("pools", res["pools"]) == [8, 11]
    assert norm("paid", res["paid"]) == [5, 3, 5, 4]
    assert norm("received", res["received"]) == [0, 17, 0, 0]
    assert norm("net", res["net"]) == [-5, 14, -5, -4]
    assert int(res["taken_by"]) == 1 and int(res["left"]) == 0
    r1 = res["results"][1]
    assert (int(r1["jinx_by"]), int(r1["jinx_made"]), int(r1["winner"])) == (1, 1, 1)


def test_pool_failed_jinx_is_a_spoil_and_topped_up(play_pool):
    # Deal 0 (dealer 3): JF4 with jinx_min 0: the jinx fails, spoiled by seat 1 -> all but
    # the dealer add 1 (11).  Deal 1 (dealer 0): JX4 at jinx_min 0: seat 1 jinxes and
    # makes it: 11 + 3 * 2.
    res = play_pool(R, pol(4, jinx_min=0), [JF4, JX4])
    r0 = res["results"][0]
    assert (int(r0["jinx_by"]), int(r0["jinx_made"]), int(r0["spoiled"]), int(r0["spoiler"])) == (0, 0, 1, 1)
    assert norm("pools", res["pools"]) == [8, 11]
    assert norm("paid", res["paid"]) == [5, 3, 5, 4]
    assert norm("received", res["received"]) == [0, 17, 0, 0]
    assert int(res["taken_by"]) == 1


# dealer_extra_every_deal.  Four players, first dealer seat 3, dealer_extra 1; SP4 is
# spoiled by its eldest, JX4 taken by its eldest (a claim at jinx_min 2).


@pytest.mark.parametrize(
    "every, pools, paid, received",
    [
        # false: seat 3 pays 2 + 1 into a pool of 9.  Deal 0 (dealer 3) spoiled by seat 0; all
        # but the dealer (seats 0 1 2) add 1: 12.  Deal 1 (dealer 0): its eldest, seat 1, takes
        # 12.  Seat 0 dealt deal 1 but pays no extra.
        (False, [9, 12], [3, 3, 3, 3], [0, 12, 0, 0]),
        # true: the same top-up (12), then seat 0, the dealer of deal 1, adds its 1: 13.  Seat 0
        # paid 2 + 1 + 1, seats 1 and 2 2 + 1, seat 3 2 + 1.
        (True, [9, 13], [4, 3, 3, 3], [0, 13, 0, 0]),
    ],
    ids=["once", "every-deal"],
)
def test_pool_dealer_extra_every_deal(play_pool, every, pools, paid, received):
    rules = R._replace(dealer_extra=1, dealer_extra_every_deal=every)
    res = play_pool(rules, pol(4), [SP4, JX4])
    assert norm("pools", res["pools"]) == pools
    assert norm("paid", res["paid"]) == paid
    assert norm("received", res["received"]) == received
    assert norm("net", res["net"]) == [r - p for r, p in zip(received, paid)]
    assert (int(res["taken_by"]), int(res["left"]), int(res["truncated"])) == (1, 0, 0)
    r0, r1 = res["results"]
    assert (int(r0["spoiled"]), int(r0["spoiler"]), int(r1["winner"]), int(r1["claimed"])) == (1, 0, 1, 1)


def test_pool_dealer_extra_every_deal_three_deals(play_pool):
    # SP4, SP4, JX4 with the extra every deal.  Deal 0 (dealer 3): 9, spoiled; seats 0 1 2
    # add 1 and seat 0 (next dealer) 1: 13.  Deal 1 (dealer 0): spoiled by seat 1; seats
    # 1 2 3 add 1 and seat 1 (next dealer) 1: 17.  Deal 2 (dealer 1): seat 2 takes 17.
    # Paid: seat 0 2 + 1 + 1 = 4; seat 1 2 + 1 + 1 + 1 = 5; seat 2 2 + 1 + 1 = 4; seat 3
    # 2 + 1 + 1 = 4 (17 in all).
    rules = R._replace(dealer_extra=1, dealer_extra_every_deal=True)
    res = play_pool(rules, pol(4), [SP4, SP4, JX4])
    assert norm("pools", res["pools"]) == [9, 13, 17]
    assert norm("paid", res["paid"]) == [4, 5, 4, 4]
    assert norm("received", res["received"]) == [0, 0, 17, 0]
    assert norm("net", res["net"]) == [-4, -5, 13, -4]
    assert (int(res["taken_by"]), int(res["left"]), int(res["truncated"])) == (2, 0, 0)


@pytest.mark.parametrize("max_deals, truncated", [(1000, 0), (2, 1)], ids=["deals-run-out", "max-deals"])
def test_pool_dealer_extra_every_deal_not_paid_without_a_next_deal(play_pool, max_deals, truncated):
    # SP4 twice: one top-up and one deal stake, before deal 1 (9 + 3 + 1 = 13); none after
    # deal 1 (no deal follows, whether the list ran out or max_deals stopped it).
    rules = R._replace(dealer_extra=1, dealer_extra_every_deal=True, max_deals=max_deals)
    res = play_pool(rules, pol(4), [SP4, SP4])
    assert norm("pools", res["pools"]) == [9, 13]
    assert norm("paid", res["paid"]) == [4, 3, 3, 3] and norm("received", res["received"]) == [0, 0, 0, 0]
    assert norm("net", res["net"]) == [-4, -3, -3, -3]
    assert (int(res["taken_by"]), int(res["left"]), int(res["truncated"])) == (-1, 13, truncated)


def test_pool_dealer_extra_every_deal_jinx_bonus_is_the_ante(play_pool):
    # jinx_min 0 (SP4 is unchanged).  Pools 9, 13 as above; deal 1 (dealer 0): seat 1
    # jinxes and makes it: the pool 13 and the ante 2 from each other seat (the dealer's
    # extra is no part of the bonus).  Paid: seat 0 4 + 2, seat 1 3, seat 2 3 + 2, seat 3
    # 3 + 2.
    rules = R._replace(dealer_extra=1, dealer_extra_every_deal=True)
    res = play_pool(rules, pol(4, jinx_min=0), [SP4, JX4])
    assert norm("pools", res["pools"]) == [9, 13]
    assert norm("paid", res["paid"]) == [6, 3, 5, 5]
    assert norm("received", res["received"]) == [0, 19, 0, 0]
    assert norm("net", res["net"]) == [-6, 16, -5, -5]
    r1 = res["results"][1]
    assert (int(r1["jinx_by"]), int(r1["jinx_made"]), int(r1["winner"])) == (1, 1, 1)


def test_pool_peel_preset(play_pool):
    # The peel preset: obligatory robbing (nobody holds As in SP4 or JX4: no rob, no
    # forfeit), everyone tops up after a spoil, a deal stake of 1 from every dealer.
    rules = Rules(**VARIANTS["peel"].rules)
    assert (
        rules.rob,
        rules.spoil_topup,
        rules.topup_amount,
        rules.dealer_extra,
        bool(rules.dealer_extra_every_deal),
        rules.ante,
    ) == (ROB_OBLIGATORY, TOPUP_EVERYONE, 1, 1, True, 2)
    # Deal 0 (dealer 3): 4 * 2 + 1 = 9, spoiled by seat 0; everyone adds 1 (13) and seat 0,
    # the next dealer, 1: 14.  Deal 1 (dealer 0): seat 1 takes 14.  Paid: seat 0 2 + 1 + 1,
    # seats 1 and 2 2 + 1, seat 3 2 + 1 + 1.
    res = play_pool(rules, pol(4), [SP4, JX4])
    assert norm("pools", res["pools"]) == [9, 14]
    assert norm("paid", res["paid"]) == [4, 3, 3, 4]
    assert norm("received", res["received"]) == [0, 14, 0, 0]
    assert norm("net", res["net"]) == [-4, 11, -3, -4]
    assert (int(res["taken_by"]), int(res["left"]), int(res["truncated"])) == (1, 0, 0)
    assert [int(r["forfeited"]) for r in res["results"]] == [-1, -1]
    # The same pool with the deal stake switched off: the first dealer's extra only.
    res = play_pool(rules._replace(dealer_extra_every_deal=False), pol(4), [SP4, JX4])
    assert norm("pools", res["pools"]) == [9, 13]
    assert norm("paid", res["paid"]) == [3, 3, 3, 4]
    assert norm("net", res["net"]) == [-3, 10, -3, -4]
