"""Stacked-deck rule tests of Fan Tan (Sevens), run against both the Numba kernel
(sims.games.fan_tan.stacked.play_dealt) and the plain-Python twin (sims.games.fan_tan.twin.play_dealt).

Every expected value below is derived by hand from the rules contract: the package
docstring of sims/games/fan_tan and the docstring of its ``play_dealt``.  Conventions used
in the derivations:
  * card codes suit*13 + face, suits c d h s, A low .. K high; "first" = lowest code, so
    clubs before diamonds before hearts before spades, and within a suit A 2 .. K;
  * ``deal(hands, dealer)`` lists each seat's hand (indexed by seat) and stacks the pack
    so that draw k goes to seat (dealer + 1 + k) mod n; hands must have the sizes of
    ``hand_sizes`` (the seats from the dealer's left get the extra cards).  The dealer is
    seat n-1 unless a test says otherwise, so the eldest hand is seat 0;
  * the turn order is strictly clockwise from the first player (the eldest, or the holder
    of the opening 7, whose opening play is turn 0), so the expected ``plays`` are written
    per seat and interleaved by ``turns(first, *per_seat)``: each per-seat string lists
    that seat's turns in order, a card for a play and "-" for a pass;
  * the legal cards: every unplayed 7; per started row the card above its top (not past
    K) and the card below its bottom (not past A); with eight_before_six the card below
    only once the row's 8 is down.  "Unlocks": the cards legal after a play that were not
    legal before it, counted in the player's own hand;
  * chips (unless card-count-score): ante (plus one under uneven_ante for the seats dealt
    fewer / more cards) into the pot; pass_fee per forced pass; a voluntary pass pays 3
    into the pot and 5 to each other seat holding the 6 or the 8 of each 7 in the
    passer's hand; pot-plus-cards: card_fee per card left; the winner takes the pot.
    ``received`` = the pot for the winner plus penalty payments; ``net`` = received - paid;
  * voluntary passes are only tested at turns with at least n-1 earlier turns, or after
    a play (see check_law), since a pass at turn 0 would read "the previous n-1 turns
    were all passes" on turns that do not exist.
``check_law`` replays every result against these rules (legality of each play and pass,
turn order, the counts and the chip accounting, chips conserved); each test also asserts
its hand-derived values.
Policy columns (POLICY_FIELDS order): style, pass_with_sevens.
"""

from __future__ import annotations

import numpy as np
import pytest

import sims.games.fan_tan.twin as twin
from sims.core.cards import parse_cards
from sims.core.rng import Stream
from sims.games.fan_tan import (
    FEWER_CARDS_PAY_EXTRA,
    MORE_CARDS_PAY_EXTRA,
    POLICY_FIELDS,
    SETTLE_CARD_COUNT,
    SETTLE_POT_ONLY,
    SETTLE_POT_PLUS_CARDS,
    START_ELDEST,
    START_HOLDER_7D,
    START_HOLDER_7H,
    STYLE_BLOCK,
    STYLE_FIRST,
    STYLE_GREEDY_UNLOCK,
    STYLE_HOLD_SEVENS,
    STYLE_RANDOM,
    UNEVEN_NONE,
    Rules,
    hand_sizes,
    stacked,
)

IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
play_dealt = twin.play_dealt  # rebound per test by the `implementation` fixture (conftest.py)
pytestmark = pytest.mark.usefixtures("implementation")

R = Rules()
MAY_PASS = R._replace(may_pass_when_able=True)
E6 = R._replace(eight_before_six=True)


# ----------------------------------------------------------------------------------------
# Helpers


def deal(hands, dealer=None):
    """The 52 cards in draw order from each seat's hand (indexed by seat): draw k goes to
    seat (dealer + 1 + k) mod n, so the i-th card of the seat j places after the dealer
    is draw j + i*n."""
    n = len(hands)
    d = n - 1 if dealer is None else dealer
    cards = [parse_cards(h) for h in hands]
    sizes = hand_sizes(n)
    for j in range(n):
        assert len(cards[(d + 1 + j) % n]) == sizes[j], f"seat {(d + 1 + j) % n} needs {sizes[j]} cards"
    pack = [cards[(d + 1 + k) % n][k // n] for k in range(52)]
    assert sorted(pack) == list(range(52)), "the hands must partition the pack"
    return pack


def pol(n, style=STYLE_FIRST, pws=0, seats=None):
    """Policy matrix: every seat (style, pass_with_sevens), with per-seat overrides
    ``seats={seat: (style, pws)}``."""
    rows = [[style, pws] for _ in range(n)]
    for s, row in (seats or {}).items():
        rows[s] = list(row)
    return np.array(rows, dtype=np.float64)


def play(rules, policy, hands, dealer=None):
    n = len(hands)
    res = play_dealt(rules, policy, n, deal(hands, dealer), dealer=dealer)
    check_law(res, rules, policy, hands, dealer)
    return res


def card(text):
    return parse_cards(text)[0]


def turns(first, *per_seat):
    """The expected plays: per_seat[s] lists seat s's turns ("7c 6c - 5c"); the seats take
    turns clockwise from ``first``; the list ends when the seat to move has no turn left,
    and then every seat's list must be used up."""
    n = len(per_seat)
    queues = [[-1 if t == "-" else card(t) for t in s.split()] for s in per_seat]
    pos = [0] * n
    out = []
    seat = first
    while pos[seat] < len(queues[seat]):
        out.append((seat, queues[seat][pos[seat]]))
        pos[seat] += 1
        seat = (seat + 1) % n
    assert pos == [len(q) for q in queues], "a per-seat list is longer than the deal"
    return out


def passes_only(k):
    return " ".join(["-"] * k)


def plays(res):
    return [(int(s), int(c)) for s, c in res["plays"]]


def ints(xs):
    return [int(x) for x in xs]


def expect(res, **fields):
    got, want = {}, {}
    for key, value in fields.items():
        if key == "plays":
            got[key] = plays(res)
        elif key in ("winner", "pot", "turns"):
            got[key] = int(res[key])
        else:
            got[key] = ints(res[key])
        want[key] = value
    assert got == want


def _legal(rows, e6):
    out = set()
    for s in range(4):
        if rows[s] is None:
            out.add(s * 13 + 6)
            continue
        lo, hi = rows[s]
        if hi < 12:
            out.add(s * 13 + hi + 1)
        if lo > 0 and (not e6 or hi >= 7):
            out.add(s * 13 + lo - 1)
    return out


def _place(rows, c):
    s, f = divmod(c, 13)
    rows[s] = (f, f) if rows[s] is None else (min(rows[s][0], f), max(rows[s][1], f))


def check_law(res, rules, policy, hands, dealer=None):
    """The laws every deal obeys, whatever the styles: the hands as dealt; strict clockwise
    turns from the first player; every play a legal card from the hand; a forced pass only
    without a legal card; a voluntary pass only when allowed (may_pass_when_able,
    pass_with_sevens, every playable card a seven, not after n-1 passes in a row), and
    always taken then; the deal ends when a hand empties; counts and chips add up."""
    n = len(hands)
    d = n - 1 if dealer is None else dealer
    dealt = [sorted(parse_cards(h)) for h in hands]
    assert [sorted(ints(h)) for h in res["hands"]] == dealt
    seq = plays(res)
    vol = ints(res["voluntary"])
    assert int(res["turns"]) == len(seq)
    held = [set(h) for h in dealt]
    rows = [None] * 4
    sizes = [len(h) for h in dealt]
    chips = rules.settle != SETTLE_CARD_COUNT
    paid, received = [0] * n, [0] * n
    pot = 0
    if chips:
        for s in range(n):
            extra = 0
            if min(sizes) != max(sizes):
                if rules.uneven_ante == FEWER_CARDS_PAY_EXTRA and sizes[s] == min(sizes):
                    extra = 1
                if rules.uneven_ante == MORE_CARDS_PAY_EXTRA and sizes[s] == max(sizes):
                    extra = 1
            paid[s] += rules.ante + extra
            pot += rules.ante + extra
    passes = [0] * n
    i = 0
    seat = (d + 1) % n
    if rules.start in (START_HOLDER_7D, START_HOLDER_7H):
        opening = card("7d" if rules.start == START_HOLDER_7D else "7h")
        holder = next(s for s in range(n) if opening in held[s])
        assert seq[0] == (holder, opening)
        held[holder].discard(opening)
        _place(rows, opening)
        seat = (holder + 1) % n
        i = 1
    for i in range(i, len(seq)):
        s, c = seq[i]
        assert s == seat, f"turn {i} belongs to seat {seat}"
        mine = _legal(rows, rules.eight_before_six) & held[s]
        prev = seq[max(0, i - (n - 1)) : i]
        may_vol = (
            bool(rules.may_pass_when_able)
            and int(policy[s][1]) == 1
            and bool(mine)
            and all(x % 13 == 6 for x in mine)
            and not (len(prev) == n - 1 and all(x == -1 for _, x in prev))
        )
        if c == -1:
            passes[s] += 1
            if i in vol:
                assert may_vol, f"turn {i}: a voluntary pass that is not allowed"
                if chips:
                    paid[s] += 3
                    pot += 3
                    for seven in (x for x in held[s] if x % 13 == 6):
                        for nb in (seven - 1, seven + 1):
                            owner = next(o for o in range(n) if nb in held[o])
                            if owner != s:
                                paid[s] += 5
                                received[owner] += 5
            else:
                assert not mine, f"turn {i}: seat {s} passes holding a legal card"
                if chips:
                    paid[s] += rules.pass_fee
                    pot += rules.pass_fee
        else:
            assert i not in vol
            assert c in mine, f"turn {i}: seat {s} plays an illegal card {c}"
            assert not may_vol, f"turn {i}: seat {s} should pass holding back its sevens"
            held[s].discard(c)
            _place(rows, c)
            if not held[s]:
                assert i == len(seq) - 1, "the deal goes on after a seat went out"
        seat = (s + 1) % n
    winner = seq[-1][0]
    assert seq[-1][1] != -1 and not held[winner]
    assert int(res["winner"]) == winner
    left = [len(h) for h in held]
    assert ints(res["cards_left"]) == left
    assert ints(res["passes"]) == passes
    if chips:
        if rules.settle == SETTLE_POT_PLUS_CARDS:
            for s in range(n):
                paid[s] += rules.card_fee * left[s]
                pot += rules.card_fee * left[s]
        received[winner] += pot
    assert ints(res["paid"]) == paid
    assert ints(res["received"]) == received
    assert int(res["pot"]) == pot
    net = ints(res["net"])
    assert net == [received[s] - paid[s] for s in range(n)]
    assert sum(net) == 0  # chips are conserved (all zero under card-count-score)


# ----------------------------------------------------------------------------------------
# Deals

# Every seat holds one whole suit (seat 0 clubs, 1 diamonds, 2 hearts, 3 spades).
FULL = [
    "Ac 2c 3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc",
    "Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd",
    "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh",
    "As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks",
]

# Seats 0 and 1 hold no seven; seat 2 holds 7c 7d and the clubs and diamonds below them,
# seat 3 holds 7h 7s and the hearts and spades below; seats 0 and 1 hold the cards above.
PU = [
    "8c 9c 10c Jc Qc Kc 8h 9h 10h Jh Qh Kh Ad",
    "8d 9d 10d Jd Qd Kd 8s 9s 10s Js Qs Ks As",
    "7c 7d 6c 5c 4c 3c 2c Ac 6d 5d 4d 3d 2d",
    "7h 7s 6h 5h 4h 3h 2h Ah 6s 5s 4s 3s 2s",
]

# Three seats (18, 17, 17): a whole suit each, spades split 7s-3s / 8s-Js / As 2s Qs Ks.
THREE = [
    "Ac 2c 3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc 7s 6s 5s 4s 3s",
    "Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd Kd 8s 9s 10s Js",
    "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh As 2s Qs Ks",
]

# Five seats (11, 11, 10, 10, 10): seats 0-3 hold a 7 with everything below it and the
# cards above it up to 10 or J; seat 4 holds the court cards above those runs.
FIVE = [
    "7d 6d 5d 4d 3d 2d Ad 8d 9d 10d Jd",
    "7h 6h 5h 4h 3h 2h Ah 8h 9h 10h Jh",
    "7c 6c 5c 4c 3c 2c Ac 8c 9c 10c",
    "7s 6s 5s 4s 3s 2s As 8s 9s 10s",
    "Jc Qc Kc Qd Kd Qh Kh Js Qs Ks",
]

# FULL with 7c and Kd swapped: seat 1 holds 7d and 7c, seat 0 no seven.
SWAP = ["Ac 2c 3c 4c 5c 6c 8c 9c 10c Jc Qc Kc Kd", "Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Qd 7c", FULL[2], FULL[3]]

# Seat 0 has choices from the first turn: 7c (6c 8c with seat 2), 7h (8h its own, 6h
# seat 2's), 7s (6s 8s its own); 9s its own too.
STY = [
    "7c 7h 8h 7s 6s 8s 9s 10c Jc Qc Kc Qd Kd",
    "7d 6d 5d 4d 3d 2d Ad 8d 9d 10d Ac 2c 3c",
    "6c 5c 4c 8c 9c 6h 5h 4h 3h 2h Ah 9h 10h",
    "Jh Qh Kh As 2s 3s 4s 5s Jd 10s Js Qs Ks",
]

# Seat 0 holds 7c with 6c (not 8c) and 7d with 8d (not 6d).
E6G = [
    "7c 6c 7d 8d Qc Kc Qd Kd Qh Kh Qs Ks Jc",
    "7h 7s Ac 2c 3c 4c 5c 8c 9c 10c Ad 2d 3d",
    "4d 5d 6d 9d 10d Jd Ah 2h 3h 4h 5h 6h 8h",
    "9h 10h Jh As 2s 3s 4s 5s 6s 8s 9s 10s Js",
]

# The dealer (seat 3) holds all four sevens, the clubs above 7c, 6h and Kd Ks; seat 0 the
# clubs and diamonds below the sevens and 8d; 8h is seat 1's, 6s and 8s seat 2's.
VOL = [
    "6c 5c 4c 3c 2c Ac 6d 5d 4d 3d 2d Ad 8d",
    "9d 10d Jd Qd Kh 5h 4h 3h 2h Ah 8h 9h 10h",
    "Jh Qh 6s 5s 4s 3s 2s As 8s 9s 10s Js Qs",
    "7c 7d 7h 7s 8c 9c 10c Jc Qc Kc Kd 6h Ks",
]


def test_policy_columns_and_codes_are_the_contract():
    assert [f.key for f in POLICY_FIELDS] == ["style", "pass_with_sevens"]
    assert (STYLE_FIRST, STYLE_RANDOM, STYLE_HOLD_SEVENS, STYLE_BLOCK, STYLE_GREEDY_UNLOCK) == (0, 1, 2, 3, 4)
    assert (START_ELDEST, START_HOLDER_7D, START_HOLDER_7H) == (0, 1, 2)
    assert (SETTLE_POT_PLUS_CARDS, SETTLE_POT_ONLY, SETTLE_CARD_COUNT) == (0, 1, 2)
    assert (UNEVEN_NONE, FEWER_CARDS_PAY_EXTRA, MORE_CARDS_PAY_EXTRA) == (0, 1, 2)
    assert hand_sizes(3) == [18, 17, 17] and hand_sizes(5) == [11, 11, 10, 10, 10]
    assert hand_sizes(4) == [13] * 4 and hand_sizes(8) == [7, 7, 7, 7, 6, 6, 6, 6]


# ----------------------------------------------------------------------------------------
# Building the layout


FULL_PLAYS = turns(
    0,
    "7c 6c 5c 4c 3c 2c Ac 8c 9c 10c Jc Qc Kc",
    "7d 6d 5d 4d 3d 2d Ad 8d 9d 10d Jd Qd",
    "7h 6h 5h 4h 3h 2h Ah 8h 9h 10h Jh Qh",
    "7s 6s 5s 4s 3s 2s As 8s 9s 10s Js Qs",
)


def test_rows_build_down_to_the_ace_then_up_to_the_king():
    # Only 7s are legal at first: each seat lays its 7.  Then each seat holds both ends of
    # its own row: 6 and 8 are both legal (6 before 8 allowed), "first" takes the lower
    # code, so the row runs down to the A (nothing below it), then up 8 .. K.  Nobody ever
    # passes; seat 0 moves first and lays its 13th card on turn 48.
    # Chips: pot = 4 x 2 ante + 3 losers x 1 card = 11; seat 0 pays its ante only.
    res = play(R, pol(4), FULL)
    expect(
        res,
        plays=FULL_PLAYS,
        voluntary=[],
        winner=0,
        turns=49,
        passes=[0, 0, 0, 0],
        cards_left=[0, 1, 1, 1],
        paid=[2, 3, 3, 3],
        received=[11, 0, 0, 0],
        net=[9, -3, -3, -3],
        pot=11,
    )


def test_the_deal_and_the_first_turn_follow_the_dealer():
    # Dealer 1: the eldest is seat 2 (hearts), which now moves first and goes out first.
    res = play(R, pol(4), FULL, dealer=1)
    expect(
        res,
        plays=turns(
            2,
            "7c 6c 5c 4c 3c 2c Ac 8c 9c 10c Jc Qc",
            "7d 6d 5d 4d 3d 2d Ad 8d 9d 10d Jd Qd",
            "7h 6h 5h 4h 3h 2h Ah 8h 9h 10h Jh Qh Kh",
            "7s 6s 5s 4s 3s 2s As 8s 9s 10s Js Qs",
        ),
        winner=2,
        turns=49,
        passes=[0, 0, 0, 0],
        cards_left=[1, 1, 0, 1],
        paid=[3, 3, 2, 3],
        net=[-3, -3, 9, -3],
        pot=11,
    )


def test_eight_before_six_makes_the_eight_come_first():
    # After the 7 only the 8 is legal (the 6 waits for it); then 9 and 6 are both legal and
    # "first" takes the 6: 7 8 6 5 4 3 2 A 9 10 J Q K.
    res = play(E6, pol(4), FULL)
    expect(
        res,
        plays=turns(
            0,
            "7c 8c 6c 5c 4c 3c 2c Ac 9c 10c Jc Qc Kc",
            "7d 8d 6d 5d 4d 3d 2d Ad 9d 10d Jd Qd",
            "7h 8h 6h 5h 4h 3h 2h Ah 9h 10h Jh Qh",
            "7s 8s 6s 5s 4s 3s 2s As 9s 10s Js Qs",
        ),
        winner=0,
        turns=49,
        passes=[0, 0, 0, 0],
        cards_left=[0, 1, 1, 1],
        net=[9, -3, -3, -3],
        pot=11,
    )


PU_PLAYS = turns(
    0,
    "- 8c 9c 10c Jc Qc Kc 8h 9h 10h Jh Qh Kh",
    "- - - - - - - - 8d 9d 10d Jd Qd",
    "7c 6c 5c 4c 3c 2c Ac 7d 6d 5d 4d 3d 2d",
    "7h 6h 5h 4h 3h 2h Ah 7s 6s 5s 4s 3s",
)


def test_only_sevens_until_one_is_down_and_the_passers_pay():
    # t0, t1: seats 0 and 1 hold no 7 (only 7s are legal) and pass, a chip each.
    # t2: seat 2 holds 7c 7d -> 7c.  t3: seat 3 holds 7h 7s -> 7h.
    # Seat 0 then runs clubs up 8c..Kc (8c and 8h both legal at t4, 8c is first) and
    # hearts up 8h..Kh; its Ad needs 2d.  Seat 2 runs clubs down (6c before 7d in code
    # order), then 7d and diamonds down; seat 3 hearts down, 7s, spades down.  Seat 1 has
    # nothing legal until 7d is down (t30): 8 passes (t1..t29), then 8d..Qd (8d before 8s).
    # Seat 2 lays its 13th card (2d) on turn 50.
    # Chips: pot = 8 ante + 9 pass fees + (1 + 8 + 1) cards = 27.
    res = play(R, pol(4), PU)
    expect(
        res,
        plays=PU_PLAYS,
        voluntary=[],
        winner=2,
        turns=51,
        passes=[1, 8, 0, 0],
        cards_left=[1, 8, 0, 1],
        paid=[4, 18, 2, 3],
        received=[0, 0, 27, 0],
        net=[-4, -18, 25, -3],
        pot=27,
    )


def test_a_card_waits_for_its_neighbour_in_the_row():
    # In PU seat 0's Ad is never legal (2d goes down on the last turn), seat 1's 8d waits
    # for 7d and its spades for 7s / 9s, and seat 3 cannot start spades below 7s before
    # laying 7s: the per-seat orders above are the only legal ones.
    res = play(R, pol(4), PU)
    p = plays(res)
    assert p[28] == (0, card("8h")) and p[29] == (1, -1) and p[30] == (2, card("7d"))
    assert p[31] == (3, card("7s")) and p[33] == (1, card("8d"))


def test_eight_before_six_six_waits_for_the_eight():
    # PU with eight_before_six.  t6: seat 2 holds 6c and 7d; 8c went down at t4, so 6c is
    # legal and first.  t7: seat 3 holds 6h but 8h is not down: its only legal card is 7s.
    # Seat 1's 8s is then legal at t9: it runs 8s..Qs, As (legal after 2s, code before Ks)
    # and, after 7d (t30), 8d..Qd: only 2 passes.  Seat 3 runs spades down, then 6h once
    # seat 0 laid 8h (t28).  Seat 2 still goes out with 2d on turn 50.
    # Chips: pot = 8 + 3 passes + (1 + 2 + 1) cards = 15.
    res = play(E6, pol(4), PU)
    expect(
        res,
        plays=turns(
            0,
            "- 8c 9c 10c Jc Qc Kc 8h 9h 10h Jh Qh Kh",
            "- - 8s 9s 10s Js Qs As 8d 9d 10d Jd Qd",
            "7c 6c 5c 4c 3c 2c Ac 7d 6d 5d 4d 3d 2d",
            "7h 7s 6s 5s 4s 3s 2s 6h 5h 4h 3h 2h",
        ),
        winner=2,
        turns=51,
        passes=[1, 2, 0, 0],
        cards_left=[1, 2, 0, 1],
        paid=[4, 6, 2, 3],
        received=[0, 0, 15, 0],
        net=[-4, -6, 13, -3],
        pot=15,
    )


# ----------------------------------------------------------------------------------------
# Passing and settlement


@pytest.mark.parametrize(
    "pass_fee, paid, net, pot",
    [
        (0, [3, 10, 2, 3], [-3, -10, 16, -3], 18),  # 8 + 0 + 10
        (1, [4, 18, 2, 3], [-4, -18, 25, -3], 27),  # 8 + 9 + 10
        (2, [5, 26, 2, 3], [-5, -26, 34, -3], 36),  # 8 + 18 + 10
    ],
    ids=["pass-fee-0", "pass-fee-1", "pass-fee-2"],
)
def test_pass_fee(pass_fee, paid, net, pot):
    # PU: seat 0 passes once, seat 1 eight times; each forced pass pays pass_fee.
    res = play(R._replace(pass_fee=pass_fee), pol(4), PU)
    expect(res, plays=PU_PLAYS, passes=[1, 8, 0, 0], paid=paid, net=net, pot=pot)


@pytest.mark.parametrize(
    "settle, card_fee, paid, received, net, pot",
    [
        # cards left 1, 8, 0, 1; pass fees 1, 8, 0, 0; antes 2
        (SETTLE_POT_PLUS_CARDS, 1, [4, 18, 2, 3], [0, 0, 27, 0], [-4, -18, 25, -3], 27),
        (SETTLE_POT_PLUS_CARDS, 2, [5, 26, 2, 4], [0, 0, 37, 0], [-5, -26, 35, -4], 37),
        (SETTLE_POT_PLUS_CARDS, 0, [3, 10, 2, 2], [0, 0, 17, 0], [-3, -10, 15, -2], 17),
        (SETTLE_POT_ONLY, 1, [3, 10, 2, 2], [0, 0, 17, 0], [-3, -10, 15, -2], 17),
        (SETTLE_POT_ONLY, 2, [3, 10, 2, 2], [0, 0, 17, 0], [-3, -10, 15, -2], 17),
        (SETTLE_CARD_COUNT, 1, [0] * 4, [0] * 4, [0] * 4, 0),
    ],
    ids=[
        "pot-plus-cards-fee1",
        "pot-plus-cards-fee2",
        "pot-plus-cards-fee0",
        "pot-only",
        "pot-only-fee2",
        "card-count-score",
    ],
)
def test_settlement(settle, card_fee, paid, received, net, pot):
    # pot-plus-cards: pot = 8 + 9 + card_fee x 10 cards; pot-only: pot = 8 + 9 (card_fee
    # unused); card-count-score: no ante, no pass fees, no cards paid.  Play is the same.
    res = play(R._replace(settle=settle, card_fee=card_fee), pol(4), PU)
    expect(
        res,
        plays=PU_PLAYS,
        winner=2,
        passes=[1, 8, 0, 0],
        cards_left=[1, 8, 0, 1],
        paid=paid,
        received=received,
        net=net,
        pot=pot,
    )


# ----------------------------------------------------------------------------------------
# Uneven deals and antes


THREE_PLAYS = turns(
    0,
    "7c 6c 5c 4c 3c 2c Ac 8c 9c 10c Jc Qc Kc 7s 6s 5s 4s",
    "7d 6d 5d 4d 3d 2d Ad 8d 9d 10d Jd Qd Kd 8s 9s 10s Js",
    "7h 6h 5h 4h 3h 2h Ah 8h 9h 10h Jh Qh Kh - - -",
)


@pytest.mark.parametrize(
    "uneven, ante, paid, net, pot",
    [
        # seat 0 was dealt 18 cards, seats 1 and 2 17; pass fees 0, 0, 3; cards left 1, 0, 4
        (UNEVEN_NONE, 2, [3, 2, 9], [-3, 12, -9], 14),  # 6 + 3 + 5
        (FEWER_CARDS_PAY_EXTRA, 2, [3, 3, 10], [-3, 13, -10], 16),  # antes 2 3 3
        (MORE_CARDS_PAY_EXTRA, 2, [4, 2, 9], [-4, 13, -9], 15),  # antes 3 2 2
        (UNEVEN_NONE, 0, [1, 0, 7], [-1, 8, -7], 8),  # 0 + 3 + 5
        (FEWER_CARDS_PAY_EXTRA, 0, [1, 1, 8], [-1, 9, -8], 10),  # antes 0 1 1 (reading: ante + 1)
        (MORE_CARDS_PAY_EXTRA, 0, [2, 0, 7], [-2, 9, -7], 9),  # antes 1 0 0
    ],
    ids=["none-ante2", "fewer-ante2", "more-ante2", "none-ante0", "fewer-ante0", "more-ante0"],
)
def test_three_seats_uneven_antes(uneven, ante, paid, net, pot):
    # Each seat runs its own suit (7, down to A, up to K: clubs t0..t36, diamonds
    # t1..t37, hearts t2..t38; every seat holds its suit's codes before its spades).
    # Then only 7s is legal: seat 0 lays 7s (t39), seat 1 8s (t40); seat 2 (As 2s Qs Ks)
    # passes at t41, t44, t47 while seat 0 lays 6s 5s 4s and seat 1 9s 10s Js: seat 1's
    # 17th card goes down on turn 49.
    res = play(R._replace(uneven_ante=uneven, ante=ante), pol(3), THREE)
    expect(
        res, plays=THREE_PLAYS, winner=1, turns=50, passes=[0, 0, 3], cards_left=[1, 0, 4], paid=paid, net=net, pot=pot
    )


def test_three_seats_dealer_0_gives_seat_1_the_extra_card():
    # THREE rotated one seat clockwise with dealer 0: seat 1 is dealt 18 and moves first;
    # everything moves one seat.  fewer-cards-pay-extra: seats 2 and 0 ante 3.
    hands = [THREE[2], THREE[0], THREE[1]]
    res = play(R._replace(uneven_ante=FEWER_CARDS_PAY_EXTRA), pol(3), hands, dealer=0)
    expect(
        res,
        plays=[((s + 1) % 3, c) for s, c in THREE_PLAYS],
        winner=2,
        turns=50,
        passes=[3, 0, 0],
        cards_left=[4, 1, 0],
        paid=[10, 3, 3],
        net=[-10, -3, 13],
        pot=16,
    )


FIVE_PLAYS = turns(
    0,
    "7d 6d 5d 4d 3d 2d Ad 8d 9d 10d",
    "7h 6h 5h 4h 3h 2h Ah 8h 9h 10h",
    "7c 6c 5c 4c 3c 2c Ac 8c 9c 10c",
    "7s 6s 5s 4s 3s 2s As 8s 9s",
    passes_only(9),
)


@pytest.mark.parametrize(
    "uneven, paid, net, pot",
    [
        # seats 0, 1 dealt 11, seats 2-4 10; seat 4 passes 9 times; cards left 1 1 0 1 10
        (UNEVEN_NONE, [3, 3, 2, 3, 21], [-3, -3, 30, -3, -21], 32),  # 10 + 9 + 13
        (FEWER_CARDS_PAY_EXTRA, [3, 3, 3, 4, 22], [-3, -3, 32, -4, -22], 35),  # antes 2 2 3 3 3
        (MORE_CARDS_PAY_EXTRA, [4, 4, 2, 3, 21], [-4, -4, 32, -3, -21], 34),  # antes 3 3 2 2 2
    ],
    ids=["none", "fewer-cards-pay-extra", "more-cards-pay-extra"],
)
def test_five_seats_uneven_antes(uneven, paid, net, pot):
    # Seats 0-3 each lay their 7 (t0..t3), run down to the A, then up; seat 4's J/Q/K
    # never become legal (they sit above 10c, Jd, Jh, 10s).  Seat 2 plays every turn
    # (t2, t7, .., t47) and lays its 10th card first: seats 0 and 1 have played 10 of 11,
    # seat 3 9 of 10.
    res = play(R._replace(uneven_ante=uneven), pol(5), FIVE)
    expect(
        res,
        plays=FIVE_PLAYS,
        winner=2,
        turns=48,
        passes=[0, 0, 0, 0, 9],
        cards_left=[1, 1, 0, 1, 10],
        paid=paid,
        net=net,
        pot=pot,
    )


@pytest.mark.parametrize("uneven", [FEWER_CARDS_PAY_EXTRA, MORE_CARDS_PAY_EXTRA], ids=["fewer", "more"])
def test_even_deal_ignores_uneven_ante(uneven):
    # Four seats hold 13 each: nobody antes extra.
    res = play(R._replace(uneven_ante=uneven), pol(4), FULL)
    expect(res, plays=FULL_PLAYS, paid=[2, 3, 3, 3], net=[9, -3, -3, -3], pot=11)


# ----------------------------------------------------------------------------------------
# Start rules


@pytest.mark.parametrize(
    "start, expected_plays, winner, cards_left, paid, net, pot",
    [
        # eldest: seat 0 (no 7) passes; seat 1 holds 7c 7d and lays 7c (first), 7d at t5, then
        # diamonds down and up; seat 0 runs clubs (6c at t4 .. Kc at t48), seat 1's Qd goes
        # down on t49.  Pot 8 + 1 + 3.
        (
            START_ELDEST,
            turns(
                0,
                "- 6c 5c 4c 3c 2c Ac 8c 9c 10c Jc Qc Kc",
                "7c 7d 6d 5d 4d 3d 2d Ad 8d 9d 10d Jd Qd",
                "7h 6h 5h 4h 3h 2h Ah 8h 9h 10h Jh Qh",
                "7s 6s 5s 4s 3s 2s As 8s 9s 10s Js Qs",
            ),
            1,
            [1, 0, 1, 1],
            [4, 2, 3, 3],
            [-4, 10, -3, -3],
            12,
        ),
        # holder-7d: seat 1 opens with 7d although "first" would pick 7c; seats 2 and 3 lay
        # 7h 7s, seat 0 passes, seat 1 lays 7c (t4), then 6d ..; seat 1 goes out on t48.
        (
            START_HOLDER_7D,
            turns(
                1,
                "- 6c 5c 4c 3c 2c Ac 8c 9c 10c Jc Qc",
                "7d 7c 6d 5d 4d 3d 2d Ad 8d 9d 10d Jd Qd",
                "7h 6h 5h 4h 3h 2h Ah 8h 9h 10h Jh Qh",
                "7s 6s 5s 4s 3s 2s As 8s 9s 10s Js Qs",
            ),
            1,
            [2, 0, 1, 1],
            [5, 2, 3, 3],
            [-5, 11, -3, -3],
            13,
        ),
        # holder-7h: seat 2 opens, runs hearts (t0, t4, .., t48); seat 0 passes at t2.
        (
            START_HOLDER_7H,
            turns(
                2,
                "- 6c 5c 4c 3c 2c Ac 8c 9c 10c Jc Qc",
                "7c 7d 6d 5d 4d 3d 2d Ad 8d 9d 10d Jd",
                "7h 6h 5h 4h 3h 2h Ah 8h 9h 10h Jh Qh Kh",
                "7s 6s 5s 4s 3s 2s As 8s 9s 10s Js Qs",
            ),
            2,
            [2, 1, 0, 1],
            [5, 3, 2, 3],
            [-5, -3, 11, -3],
            13,
        ),
    ],
    ids=["eldest", "holder-7d", "holder-7h"],
)
def test_start_rule(start, expected_plays, winner, cards_left, paid, net, pot):
    res = play(R._replace(start=start), pol(4), SWAP)
    expect(
        res,
        plays=expected_plays,
        voluntary=[],
        winner=winner,
        turns=len(expected_plays),
        passes=[1, 0, 0, 0],
        cards_left=cards_left,
        paid=paid,
        net=net,
        pot=pot,
    )


@pytest.mark.parametrize(
    "style",
    [STYLE_FIRST, STYLE_RANDOM, STYLE_HOLD_SEVENS, STYLE_BLOCK, STYLE_GREEDY_UNLOCK],
    ids=["first", "random", "hold-sevens", "block", "greedy-unlock"],
)
def test_opening_seven_is_played_whatever_the_style(style):
    # SWAP, holder-7d: seat 1 holds 7c and 7d; whatever its style it opens with 7d, and the
    # next turn is seat 2's (its only legal card: 7h).
    res = play(R._replace(start=START_HOLDER_7D), pol(4, style), SWAP)
    assert plays(res)[:2] == [(1, card("7d")), (2, card("7h"))]


def test_holder_opening_counts_as_a_turn_with_sevens_held_back():
    # FULL, holder-7d, every seat passes with sevens: seat 1 opens 7d (turn 0); seats 2, 3,
    # 0 hold only a 7 playable and pass voluntarily (each turn has a play among the
    # previous three); seat 1 lays a diamond every 4th turn and goes out on turn 48.  Each
    # voluntary pass pays 3; the 6 and 8 of each held 7 are the passer's own: no payments.
    # Pot = 8 + 36 x 3 + 39 cards = 155.
    res = play(MAY_PASS._replace(start=START_HOLDER_7D), pol(4, pws=1), FULL)
    expect(
        res,
        plays=turns(1, passes_only(12), "7d 6d 5d 4d 3d 2d Ad 8d 9d 10d Jd Qd Kd", passes_only(12), passes_only(12)),
        voluntary=[t for t in range(49) if t % 4],
        winner=1,
        turns=49,
        passes=[12, 0, 12, 12],
        cards_left=[13, 0, 13, 13],
        paid=[51, 2, 51, 51],
        received=[0, 155, 0, 0],
        net=[-51, 153, -51, -51],
        pot=155,
    )


# ----------------------------------------------------------------------------------------
# Styles (compulsory play: a seat with a legal card always plays one)


def test_hold_sevens_keeps_a_seven_back_and_blocks_a_suit():
    # SWAP, holder-7d, seat 1 hold-sevens: after 7d it plays diamonds (6d before 7c, and
    # every later turn a diamond is playable) and lays 7c only when its last card: t48.
    # Seat 0 (clubs) cannot start until 7c is down: it passes 11 times and lays Kd on t47
    # (after Qd at t44).  Pot = 8 + 11 + (12 + 1 + 1) = 33.
    res = play(R._replace(start=START_HOLDER_7D), pol(4, seats={1: (STYLE_HOLD_SEVENS, 0)}), SWAP)
    expect(
        res,
        plays=turns(
            1,
            passes_only(11) + " Kd",
            "7d 6d 5d 4d 3d 2d Ad 8d 9d 10d Jd Qd 7c",
            "7h 6h 5h 4h 3h 2h Ah 8h 9h 10h Jh Qh",
            "7s 6s 5s 4s 3s 2s As 8s 9s 10s Js Qs",
        ),
        winner=1,
        turns=49,
        passes=[11, 0, 0, 0],
        cards_left=[12, 0, 1, 1],
        paid=[25, 2, 3, 3],
        received=[0, 33, 0, 0],
        net=[-25, 31, -3, -3],
        pot=33,
    )


# STY, seat 0's style varies, the others play "first".  Derivation of the first 13 turns
# (the others: t1 seat 1 lays 7d (its only legal card); seat 2 holds 6c 8c 6h (5c 4c 5h ..);
# seat 3 holds nothing legal early).
STY_PREFIX = {
    # first: t0 7c (lowest); t2 seat 2 6c; t4 7h (7h 7s); t5 6d; t6 5c; t8 8h (8h 7s);
    # t9 5d; t10 4c; t12 7s.
    STYLE_FIRST: "0:7c 1:7d 2:6c 3:- 0:7h 1:6d 2:5c 3:- 0:8h 1:5d 2:4c 3:- 0:7s",
    # hold-sevens: every playable card is a seven at t0 and t4 (7c first, then 7h) and at
    # t12 (7s); at t8 8h is the only non-seven: the same line as first.
    STYLE_HOLD_SEVENS: "0:7c 1:7d 2:6c 3:- 0:7h 1:6d 2:5c 3:- 0:8h 1:5d 2:4c 3:- 0:7s",
    # block: t0 all sevens are candidates; 7c unlocks 6c 8c (seat 2's), 7h unlocks 8h (its
    # own) -> 7h.  t2 seat 2 6h.  t4 playable 7c 7s 8h: 8h held back; 7c unlocks nothing of
    # its own, 7s unlocks 6s 8s -> 7s.  t5 6d, t6 5h.  t8 playable 7c 8h 6s 8s: the only
    # candidate 7c (unlocks nothing) -> 7c.  t9 5d, t10 seat 2 6c.  t12 playable 8h 6s 8s,
    # all 6/8 so all are candidates: 8h unlocks 9h (seat 2's), 6s 5s (seat 3's), 8s 9s
    # (its own) -> 8s.
    STYLE_BLOCK: "0:7h 1:7d 2:6h 3:- 0:7s 1:6d 2:5h 3:- 0:7c 1:5d 2:6c 3:- 0:8s",
    # greedy-unlock: t0 7c unlocks 0 own, 7h 1 (8h), 7s 2 (6s 8s) -> 7s.  t2 seat 2 and
    # t3 seat 3 hold nothing legal.  t4 7c 0, 7h 1 (8h), 6s 0 (5s), 8s 1 (9s): tie -> 7h
    # (lower code).  t5 6d, t6 6h.  t8 7c 0, 8h 0 (9h), 6s 0, 8s 1 (9s) -> 8s.  t9 5d,
    # t10 5h.  t12 7c 0, 8h 0, 6s 0, 9s 0 (10s is seat 3's): all tie -> 7c.
    STYLE_GREEDY_UNLOCK: "0:7s 1:7d 2:- 3:- 0:7h 1:6d 2:6h 3:- 0:8s 1:5d 2:5h 3:- 0:7c",
}


def parse_plays(text):
    out = []
    for item in text.split():
        seat, c = item.split(":")
        out.append((int(seat), -1 if c == "-" else card(c)))
    return out


@pytest.mark.parametrize("style", list(STY_PREFIX), ids=["first", "hold-sevens", "block", "greedy-unlock"])
def test_style_choice_among_legal_cards(style):
    res = play(R, pol(4, seats={0: (style, 0)}), STY)
    expected = parse_plays(STY_PREFIX[style])
    assert plays(res)[: len(expected)] == expected


def test_random_style_draws_below_k_from_stream_0_0():
    # STY, seat 0 random: at t0 its playable cards are 7c 7h 7s (k = 3); the first draw of
    # stream (0, 0) picks among them in code order.  (Reading: a stacked deal draws nothing
    # for the deal itself.)
    res = play(R, pol(4, seats={0: (STYLE_RANDOM, 0)}), STY)
    i = Stream(0, 0).below(3)
    assert plays(res)[0] == (0, parse_cards("7c 7h 7s")[i])


def test_random_style_draws_only_with_a_choice():
    # FIVE, every seat random.  t0..t3: each seat holds one 7, its only playable card (no
    # draw); t4 seat 4 has nothing.  t5..t8: seats 0, 1, 2, 3 choose between the 6 and the
    # 8 of their suit: the first four draws below(2).  Whatever the order, seats 0-3 always
    # hold a legal card (each holds a run through its 7), seat 2 lays its 10th card on
    # t47 before anyone else can go out.
    res = play(R, pol(5, STYLE_RANDOM), FIVE)
    stream = Stream(0, 0)
    p = plays(res)
    assert p[:5] == [(0, card("7d")), (1, card("7h")), (2, card("7c")), (3, card("7s")), (4, -1)]
    for seat, pair in zip(range(4), ("6d 8d", "6h 8h", "6c 8c", "6s 8s")):
        assert p[5 + seat] == (seat, parse_cards(pair)[stream.below(2)])
    assert int(res["winner"]) == 2 and int(res["turns"]) == 48
    assert ints(res["cards_left"])[:4] == [1, 1, 0, 1] and ints(res["passes"])[:4] == [0, 0, 0, 0]


@pytest.mark.parametrize(
    "rules, style, expected",
    [
        # Seat 0 holds 7c 6c 7d 8d at t0 (only 7s legal).
        # Default: 7c unlocks 6c (own) and 8c; 7d unlocks 6d and 8d (own): 1 each.
        (R, STYLE_FIRST, "7c"),
        (R, STYLE_BLOCK, "7c"),  # 7c is the first candidate unlocking an own card
        (R, STYLE_GREEDY_UNLOCK, "7c"),  # tie 1-1 -> lower code
        # eight_before_six: 7c unlocks only 8c (not own), 7d only 8d (own).
        (E6, STYLE_FIRST, "7c"),
        (E6, STYLE_BLOCK, "7d"),
        (E6, STYLE_GREEDY_UNLOCK, "7d"),
    ],
    ids=["first", "block", "greedy", "e6-first", "e6-block", "e6-greedy"],
)
def test_unlocks_follow_eight_before_six(rules, style, expected):
    res = play(rules, pol(4, seats={0: (style, 0)}), E6G)
    assert plays(res)[0] == (0, card(expected))


# ----------------------------------------------------------------------------------------
# Passing when able (may_pass_when_able, pass_with_sevens)


def test_voluntary_passes_penalties_and_the_n_minus_1_rule():
    # VOL, seat 3 passes with sevens.
    # t0-t2: seats 0, 1, 2 hold no 7: forced passes.  t3: seat 3's playable cards are all
    # sevens, but the previous 3 turns were passes: it must play, "first" -> 7c.
    # Seat 0 runs 6c..Ac (t4..t24), seat 3 8c..Kc (t7..t27); seats 1, 2 pass.
    # t28 seat 0, t29, t30: nothing legal (only 7d 7h 7s) -> 3 passes; t31 seat 3 must
    # play again -> 7d.  t32 seat 0 6d.  t35 seat 3: 7h 7s playable, a play at t32 ->
    # voluntary pass: 3 into the pot; 7h: 6h is its own (nothing), 8h seat 1 (+5); 7s: 6s
    # and 8s seat 2 (+10).  Same at t39, .., t55 (a play by seat 0 at t36, .., t52).
    # Seat 0 lays 5d..Ad (t36..t52) and 8d on t56: out.
    # Chips: pot = 8 + forced passes (2 + 14 + 14) + 6 x 3 + cards (13 + 13 + 5) = 87;
    # seat 3 pays 2 + 18 + 6 x 15 + 5 = 115; seat 1 receives 30, seat 2 60.
    res = play(MAY_PASS, pol(4, seats={3: (STYLE_FIRST, 1)}), VOL)
    expect(
        res,
        plays=turns(
            0,
            "- 6c 5c 4c 3c 2c Ac - 6d 5d 4d 3d 2d Ad 8d",
            passes_only(14),
            passes_only(14),
            "7c 8c 9c 10c Jc Qc Kc 7d - - - - - -",
        ),
        voluntary=[35, 39, 43, 47, 51, 55],
        winner=0,
        turns=57,
        passes=[2, 14, 14, 6],
        cards_left=[0, 13, 13, 5],
        paid=[4, 29, 29, 115],
        received=[87, 30, 60, 0],
        net=[83, 1, 31, -115],
        pot=87,
    )


VOL_PLAIN = dict(
    # VOL, seat 3 never passes when able: t35 7h (7h 7s), t39 6h (6h 7s), t43 7s, then
    # Kd / Ks never legal: passes at t47, t51, t55.  Seat 1 lays 8h (t37), 5h 4h 3h 2h;
    # seat 2 6s (t46), 5s, 4s.  Seat 0 goes out with 8d on t56.
    # Pot = 8 + (2 + 9 + 11 + 3) + (8 + 10 + 2) = 53.
    plays=turns(
        0,
        "- 6c 5c 4c 3c 2c Ac - 6d 5d 4d 3d 2d Ad 8d",
        passes_only(9) + " 8h 5h 4h 3h 2h",
        passes_only(11) + " 6s 5s 4s",
        "7c 8c 9c 10c Jc Qc Kc 7d 7h 6h 7s - - -",
    ),
    voluntary=[],
    winner=0,
    turns=57,
    passes=[2, 9, 11, 3],
    cards_left=[0, 8, 10, 2],
    paid=[4, 19, 23, 7],
    received=[53, 0, 0, 0],
    net=[49, -19, -23, -7],
    pot=53,
)


def test_pass_with_sevens_needs_may_pass_when_able():
    res = play(R, pol(4, seats={3: (STYLE_FIRST, 1)}), VOL)
    expect(res, **VOL_PLAIN)


def test_may_pass_when_able_without_pass_with_sevens_never_passes_when_able():
    res = play(MAY_PASS, pol(4), VOL)
    expect(res, **VOL_PLAIN)


def test_card_count_score_has_no_pass_penalties():
    # As in the voluntary-pass test, but no chips change hands at all.
    res = play(MAY_PASS._replace(settle=SETTLE_CARD_COUNT), pol(4, seats={3: (STYLE_FIRST, 1)}), VOL)
    expect(
        res,
        voluntary=[35, 39, 43, 47, 51, 55],
        winner=0,
        turns=57,
        passes=[2, 14, 14, 6],
        cards_left=[0, 13, 13, 5],
        paid=[0] * 4,
        received=[0] * 4,
        net=[0] * 4,
        pot=0,
    )
