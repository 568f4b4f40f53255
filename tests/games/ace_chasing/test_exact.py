"""Tests of the exact Ace Chasing enumerator (sims.games.ace_chasing.exact).

They validate the enumerator itself, independently of the Numba kernel:

* against closed forms derived by hand (no-swap knock-out chance and per-seat exposure,
  two-player swaps with and without the king block, swap probabilities);
* against ``brute_force``, a literal card-level enumeration written here (every ordered
  deal of real cards, suits included, with the contract's E1 / up-ace / E2 reveal), for
  three and four players; it checks the enumerator's analytic handling of suits;
* against a suit-by-suit enumeration of single final arrangements for up to six players
  (several up aces, repeated faces), which exercises every term of the exposure moments;
* and against identities: bet conservation, the unit-bet average, range checks.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest

from sims.games.ace_chasing import BET_BETTOR_CHOOSES, FACE_LABELS, Rules
from sims.games.ace_chasing.exact import (
    MAX_PLAYERS,
    _reveal_stats,
    _scale,
    exact_hand,
    no_swap_knockout_probability,
)

A, K = 0, 12  # faces (A lowest); rank1 = face + 1


def row(th=0, mrt=0, ace=0, bmr=14, size=1, cap=1000, back=0):
    """A policy row in POLICY_FIELDS order; the default never swaps and never bets."""
    return (th, mrt, ace, bmr, size, cap, back)


NEVER = row()
ALWAYS = row(th=13, mrt=13)
BETS = Rules(betting=1)
CHOOSE = Rules(betting=1, bet_direction=BET_BETTOR_CHOOSES)


# ------------------------------------------------------------ literal card-level oracle


def literal_exposed(cards):
    """The contract's reveal on explicit final card codes (matador last): exposed set."""
    faces = [c % 13 for c in cards]
    suits = [c // 13 for c in cards]
    m = faces[-1]
    e1 = {p for p in range(len(cards) - 1) if faces[p] < m}
    up = ({suits[-1]} if m == A else set()) | {suits[p] for p in e1 if faces[p] == A}
    e2 = {p for p in range(len(cards) - 1) if suits[p] in up}
    return e1 | e2


def brute_force(rules, policy, n):
    """All ordered deals of n real cards (numpy, n <= 4), played literally; Fractions."""
    codes = np.indices((52,) * n, dtype=np.int16).reshape(n, -1).T
    ok = np.ones(len(codes), dtype=bool)
    for i in range(n):
        for j in range(i):
            ok &= codes[:, i] != codes[:, j]
    dealt = codes[ok]
    total = len(dealt)
    assert total == math.perm(52, n)
    pol = np.array(policy)
    m_pos = n - 1
    # betting on the dealt ranks
    stake = np.zeros((total, m_pos), dtype=np.int64)
    if rules.betting:
        cap = pol[m_pos, 5]
        for p in range(m_pos):
            r1 = dealt[:, p] % 13 + 1
            amt = min(pol[p, 4], cap)
            against = r1 >= pol[p, 3]
            back = (~against) & (r1 <= pol[p, 6])
            if rules.bet_direction != BET_BETTOR_CHOOSES:
                back[:] = False
            stake[:, p] = np.where(against, amt, np.where(back, -amt, 0))
    # swap chain on real cards
    cards = dealt.copy()
    swapped = np.zeros((total, m_pos), dtype=bool)
    for p in range(m_pos):
        th = pol[p, 1] if p == n - 2 else pol[p, 0]
        face = cards[:, p] % 13
        do = (face + 1 <= th) | ((pol[p, 2] == 1) & (face == A))
        if rules.king_block:
            do &= cards[:, p + 1] % 13 != K
        swapped[:, p] = do
        a, b = cards[do, p].copy(), cards[do, p + 1].copy()
        cards[do, p], cards[do, p + 1] = b, a
    # literal reveal: E1, up-ace suits, E2
    faces, suits = cards % 13, cards // 13
    mf, ms = faces[:, m_pos], suits[:, m_pos]
    low = faces[:, :m_pos] < mf[:, None]
    up = np.where(mf == A, 1 << ms, 0)
    for p in range(m_pos):
        up |= np.where(low[:, p] & (faces[:, p] == A), 1 << suits[:, p], 0)
    exposed = low | (((up[:, None] >> suits[:, :m_pos]) & 1) == 1)
    x = exposed.sum(axis=1)
    ko = x == 0
    sign = np.where(ko, 1, -1)
    net = stake * sign[:, None]
    fr = lambda v: F(int(v), total)  # noqa: E731
    out = {
        "knocked_out": fr(ko.sum()),
        "any_exposed": fr((x > 0).sum()),
        "exposed": [fr(exposed[:, p].sum()) for p in range(m_pos)] + [F(0)],
        "swap": [fr(swapped[:, p].sum()) for p in range(m_pos)] + [F(0)],
        "bet_placed": [fr((stake[:, p] != 0).sum()) for p in range(m_pos)] + [F(0)],
        "bet_net": [fr(net[:, p].sum()) for p in range(m_pos)] + [fr(-net.sum())],
        "bet_net_sq": [fr((net[:, p] ** 2).sum()) for p in range(m_pos)] + [fr((net.sum(axis=1) ** 2).sum())],
        "exposures": fr(x.sum()),
        "exposures_sq": fr((x * x).sum()),
    }
    unit = {}
    dealt_faces = dealt[:, :m_pos] % 13
    for f, label in enumerate(FACE_LABELS):
        hit = dealt_faces == f
        unit[label] = F(int((hit * sign[:, None]).sum()), int(hit.sum()))  # sum / count
    out["unit_bet"] = unit
    return out


def test_literal_reveal_seed_example():
    # shared/rules/ace-chasing.md 2.3: B 9c, C Ah, D 7h; the matador (last) holds ...
    c, h, d = 0, 2, 1
    card = lambda face, suit: suit * 13 + face  # noqa: E731
    others = [card(8, c), card(A, h), card(6, h)]
    assert literal_exposed(others + [card(A, c)]) == {0}  # Ac: B
    assert literal_exposed(others + [card(1, c)]) == {1, 2}  # 2c: C, D
    assert literal_exposed(others + [card(A, d)]) == set()  # Ad: nobody


# ------------------------------------------------------------------------ closed forms


def test_closed_form_small_values():
    # n = 2: M's non-ace face m beats the other card iff it is >= m: (4(13-m)-1)/51;
    # an ace is knocked out unless the other card is one of the 12 non-aces of its suit.
    by_hand = (F(39, 51) + sum(F(4 * (13 - m) - 1, 51) for m in range(1, 13))) / 13
    assert no_swap_knockout_probability(2) == by_hand == F(113, 221)
    assert no_swap_knockout_probability(52) == 0  # an ace always goes up, or M's suit shows
    with pytest.raises(ValueError):
        no_swap_knockout_probability(1)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_no_swap_closed_forms(n):
    # Never swapping (threshold 0, matador_right_threshold 0, ace_swap 0).
    res = exact_hand(Rules(), [NEVER] * n, n, exact=True)
    assert res["knocked_out"] == no_swap_knockout_probability(n)
    # Per non-matador seat (cards x, M's y): exposed iff x < y (24/51); or y = A and x a
    # non-ace of y's suit (12/663); or y non-ace, x >= y and the ace of x's suit is held
    # by one of the other n-2 non-matadors ((27/51 - 1/13) * (n-2)/50).  Total:
    exposed = F(24, 51) + F(12, 663) + (F(27, 51) - F(1, 13)) * F(n - 2, 50)
    assert exposed == F(104 + 2 * n, 221)
    # symmetry: with nobody swapping the non-matador seats are exchangeable
    assert res["exposed"] == [exposed] * (n - 1) + [0]
    assert res["exposures"] == (n - 1) * exposed
    assert res["swap"] == [0] * n
    assert res["bet_placed"] == [0] * n and res["bet_net"] == [0] * n


@pytest.mark.parametrize("n", [3, 4])
def test_face_independent_swaps_keep_the_no_swap_law(n):
    # Without king block, a chain where everyone always swaps (or only the matador's
    # right does) moves the cards by a fixed permutation, so the final cards are as
    # random as the deal.
    base = exact_hand(Rules(), [NEVER] * n, n, exact=True)
    shift = exact_hand(Rules(), [ALWAYS] * n, n, exact=True)
    right = exact_hand(Rules(), [NEVER] * (n - 2) + [row(mrt=13), NEVER], n, exact=True)
    for res in (shift, right):
        for key in ("knocked_out", "exposed", "exposures", "exposures_sq"):
            assert res[key] == base[key]
    assert shift["swap"] == [1] * (n - 1) + [0]
    assert right["swap"] == [0] * (n - 2) + [1, 0]


def test_two_players_by_hand():
    # Seat 0 always swaps with M: the pair is just exchanged, same law as no swap.
    plain = exact_hand(Rules(), [row(mrt=13), NEVER], 2, exact=True)
    assert plain["knocked_out"] == F(113, 221)
    assert plain["swap"] == [1, 0]
    # One non-matador: it is exposed exactly when M survives.
    assert plain["exposed"][0] == plain["exposures"] == plain["exposures_sq"] == F(108, 221)
    # king block: a dealt K on M stops the swap.  M dealt K: knocked out iff seat 0 also
    # holds a K (3/51).  Otherwise the cards are exchanged, which by the symmetry of the
    # deal is P(no-swap KO and seat 0 holds no K) = 113/221 - (1/13)(50/51) (seat 0's K
    # is exposed only by M's ace of its suit).
    block = exact_hand(Rules(king_block=True), [row(mrt=13), NEVER], 2, exact=True)
    assert block["knocked_out"] == F(1, 13) * F(3, 51) + F(113, 221) - F(1, 13) * F(50, 51)
    assert block["knocked_out"] == F(292, 663) != plain["knocked_out"]
    assert block["swap"] == [F(12, 13), 0]


def test_swap_probability_closed_form_and_monotone():
    # Seat 0 decides on its dealt face only: P(swap) = threshold/13; with the king block,
    # a K on seat 1 (4 of the 51 other cards, seat 0 holding no K when threshold <= 12).
    n = 3
    prev = -1
    for th in range(14):
        pol = [row(th=th), NEVER, NEVER]
        free = exact_hand(Rules(), pol, n, exact=True)["swap"][0]
        block = exact_hand(Rules(king_block=True), pol, n, exact=True)["swap"][0]
        assert free == F(th, 13)
        assert block == (F(th, 13) * F(47, 51) if th <= 12 else F(48, 52))
        assert block <= free and free > prev
        prev = free
    # ace_swap passes an ace on even with threshold 0
    assert exact_hand(Rules(), [row(ace=1), NEVER, NEVER], n, exact=True)["swap"][0] == F(1, 13)


# ------------------------------------------------------------- card-level brute force

CONFIGS_3 = [
    (Rules(), [row(th=7, mrt=7, ace=1)] * 3),
    (Rules(king_block=True), [row(th=13), row(mrt=9), NEVER]),
    (BETS, [row(th=5, mrt=8, bmr=9, size=3), row(th=2, mrt=11, ace=1, bmr=6, size=2), row(cap=2)]),
    (
        Rules(betting=1, bet_direction=BET_BETTOR_CHOOSES, king_block=True),
        [row(th=6, ace=1, bmr=10, size=4, back=5), row(mrt=13, bmr=12, size=1, back=12), row(cap=3)],
    ),
]


@pytest.mark.parametrize("rules, policy", CONFIGS_3)
def test_matches_brute_force_three_players(rules, policy):
    res = exact_hand(rules, policy, 3, exact=True)
    ref = brute_force(rules, policy, 3)
    assert res["knocked_out"] + ref["any_exposed"] == 1
    for key in res:
        assert res[key] == ref[key], key


@pytest.mark.slow
def test_matches_brute_force_four_players():
    rules = Rules(betting=1, bet_direction=BET_BETTOR_CHOOSES, king_block=True)
    policy = [
        row(th=8, mrt=3, ace=1, bmr=9, size=5, back=4),
        row(th=1, mrt=13, bmr=13, size=2, back=13),
        row(th=4, mrt=12, ace=1, bmr=1, size=7),
        row(th=13, mrt=13, cap=4),
    ]
    res = exact_hand(rules, policy, 4, exact=True)
    ref = brute_force(rules, policy, 4)
    assert res["knocked_out"] + ref["any_exposed"] == 1
    for key in res:
        assert res[key] == ref[key], key
    floats = exact_hand(rules, np.array(policy), 4)
    assert floats["knocked_out"] == pytest.approx(float(ref["knocked_out"]), abs=1e-15)
    assert floats["exposed"] == pytest.approx([float(v) for v in ref["exposed"]], abs=1e-15)


ARRANGEMENTS = [
    (A, A, 5, 5, 9, 7),  # two up aces, a pair among the suit-exposed candidates
    (A, A, A, 9, 9, 4),  # three up aces
    (9, 9, 3, 9, 12, A),  # M holds an ace: one up suit, a triple of candidates
    (A, 4, 4, 12, 12, 4),  # one up ace, pairs, a candidate equal to M's face
    (7, 8, 9, 10, 11, 2),  # nobody lower: knocked out
    (A, A, A, A, 12, 6),  # all four aces up
    (A, 3, A, 3, 12, 3),  # M's face also held by others
    (A, 1, 5),  # three players
]


@pytest.mark.parametrize("faces", ARRANGEMENTS)
def test_reveal_stats_match_suit_enumeration(faces):
    # Every suit assignment of distinct cards to the final faces, equally likely given
    # the faces, revealed literally.
    n = len(faces)
    D = _scale(n)
    count, ko, x1, x2 = 0, 0, 0, 0
    exposed = [0] * (n - 1)
    for suits in itertools.product(range(4), repeat=n):
        cards = [s * 13 + f for f, s in zip(faces, suits)]
        if len(set(cards)) < n:
            continue
        e = literal_exposed(cards)
        count += 1
        ko += not e
        x1 += len(e)
        x2 += len(e) ** 2
        for p in e:
            exposed[p] += 1
    got = _reveal_stats(np.array([faces]), D)
    assert F(int(got[0][0]), D) == F(ko, count)
    assert [F(int(v), D) for v in got[1][0]] == [F(v, count) for v in exposed]
    assert F(int(got[2][0]), D) == F(x1, count)
    assert F(int(got[3][0]), D) == F(x2, count)


# ----------------------------------------------------------------------------- bets


def test_bets_always_against_with_cap():
    n = 4
    pol = [row(th=6, mrt=9, ace=1, bmr=1, size=5)] * 3 + [row(th=6, cap=2)]
    res = exact_hand(BETS, pol, n, exact=True)
    nobet = exact_hand(Rules(), pol, n, exact=True)
    # betting never changes the play
    for key in ("knocked_out", "exposed", "swap", "exposures", "exposures_sq", "unit_bet"):
        assert res[key] == nobet[key]
    edge = 2 * res["knocked_out"] - 1
    assert res["bet_placed"] == [1, 1, 1, 0]
    assert res["bet_net"] == [2 * edge] * 3 + [-6 * edge]  # min(5, cap 2) units each
    assert res["bet_net_sq"] == [4, 4, 4, 36]
    assert sum(res["bet_net"]) == 0
    assert nobet["bet_net"] == [0] * n and nobet["bet_placed"] == [0] * n
    # a cap of 0 means no bet at all
    capped = exact_hand(BETS, pol[:3] + [row(th=6, cap=0)], n, exact=True)
    assert capped["bet_placed"] == [0] * n and capped["bet_net"] == [0] * n


def test_bets_backing_the_matador():
    n = 3
    pol = [row(th=4, bmr=14, size=3, back=13)] * 2 + [row()]
    choose = exact_hand(CHOOSE, pol, n, exact=True)
    edge = 2 * choose["knocked_out"] - 1
    assert choose["bet_placed"] == [1, 1, 0]
    assert choose["bet_net"] == [-3 * edge, -3 * edge, 6 * edge]
    # with every bet against the matador, back_max_rank is ignored: no bet
    against = exact_hand(BETS, pol, n, exact=True)
    assert against["bet_placed"] == [0] * n and against["bet_net"] == [0] * n


@pytest.mark.parametrize("rules", [BETS, CHOOSE])
def test_bet_conservation_and_unit_bet_identity(rules):
    n = 5
    bmr = 9
    pol = [row(th=7, mrt=7, ace=1, bmr=bmr, size=2, back=4)] * 4 + [row(cap=1000)]
    res = exact_hand(rules, pol, n, exact=True)
    assert sum(res["bet_net"]) == 0
    # E[count of non-matadors dealt face f] = (n-1)/13 for every f, so
    # sum_f unit_bet[f] (n-1)/13 = E[sum_p (2 KO - 1)] = (n-1)(2 P(KO) - 1):
    # the plain average of unit_bet over the 13 faces is 2 P(KO) - 1.
    assert sum(res["unit_bet"].values()) / 13 == 2 * res["knocked_out"] - 1
    # Every bettor shares bet_min_rank, so the bets against the matador add up to
    # 2 units * (n-1)/13 * sum of unit_bet over the faces with rank1 >= bmr; backing
    # bets (rank1 <= back_max_rank) count the other way round.
    against = sum(res["unit_bet"][FACE_LABELS[f]] for f in range(13) if f + 1 >= bmr)
    backing = sum(res["unit_bet"][FACE_LABELS[f]] for f in range(13) if f + 1 <= 4)
    expect = 2 * F(n - 1, 13) * (against - (backing if rules is CHOOSE else 0))
    assert sum(res["bet_net"][: n - 1]) == expect
    assert res["bet_placed"][: n - 1] == [F(5 + (4 if rules is CHOOSE else 0), 13)] * (n - 1)


# ------------------------------------------------------------------ general checks


@pytest.mark.slow
def test_six_players_ranges_and_identities():
    n = MAX_PLAYERS
    rules = Rules(king_block=True, betting=1, bet_direction=BET_BETTOR_CHOOSES)
    pol = [row(th=7, mrt=5, ace=1, bmr=10, size=3, back=3)] * (n - 1) + [row(cap=2)]
    res = exact_hand(rules, pol, n)
    for key in ("exposed", "swap", "bet_placed"):
        assert np.all((res[key] >= 0) & (res[key] <= 1))
        assert res[key][n - 1] == 0
    assert 0 <= res["knocked_out"] <= 1
    # E[X] >= P(X >= 1) = 1 - P(KO), and E[X^2] >= E[X] for integer X
    assert res["exposures"] >= 1 - res["knocked_out"] - 1e-12
    assert res["exposures_sq"] >= res["exposures"] - 1e-12
    assert res["exposures"] == pytest.approx(res["exposed"].sum(), abs=1e-12)
    assert res["bet_net"].sum() == pytest.approx(0, abs=1e-12)
    assert np.mean(list(res["unit_bet"].values())) == pytest.approx(2 * res["knocked_out"] - 1, abs=1e-12)
    assert all(-1 <= v <= 1 for v in res["unit_bet"].values())


def test_bad_arguments():
    with pytest.raises(ValueError):
        exact_hand(Rules(), [NEVER] * 7, 7)
    with pytest.raises(ValueError):
        exact_hand(Rules(), [NEVER] * 3, 4)
    with pytest.raises(ValueError):
        exact_hand(Rules(), [row(th=14)] + [NEVER] * 3, 4)
    with pytest.raises(ValueError):
        exact_hand(Rules(), [row(th=2.5)] + [NEVER] * 3, 4)
