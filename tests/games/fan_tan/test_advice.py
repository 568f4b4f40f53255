"""Fan Tan advice (sims/games/fan_tan/advice.py): the kernel equals the twin on the same
streams, rejection on the record of plays and passes, certain cases with stacked cards,
and every refused situation."""

from __future__ import annotations

import shlex

import numpy as np
import pytest

from sims import advice, situations
from sims.core.advice import ACCEPTED, FIRST_SUM, TRIED, cross_start
from sims.core.cards import card_name, parse_cards
from sims.games.fan_tan import advice as ft_advice
from sims.games.fan_tan import twin
from sims.games.fan_tan.rules import (
    SETTLE_CARD_COUNT,
    START_ELDEST,
    START_HOLDER_7D,
    STYLE_BLOCK,
    STYLE_HOLD_SEVENS,
    STYLE_RANDOM,
    Rules,
)
from sims.registry import get_game
from tests.games.advice_twin import twin_advice

SPEC = get_game("fan-tan")


def situation(rules, n, position, holding, **context):
    return situations.situation(SPEC, rules, n, position, parse_cards(holding), context)


def policy(n, style=0, pass_with_sevens=0):
    matrix = SPEC.default_policy(n)
    matrix[:, 0] = style
    matrix[:, 1] = pass_with_sevens
    return matrix


def totals(sums, found):
    """``{candidate: [sum of outcome o, ...]}`` and ``{candidate: [sum of squares, ...]}``."""
    k, o = len(found.candidates), len(found.outcomes)
    at = FIRST_SUM
    sums_of, squares_of = {}, {}
    for c, name in enumerate(found.candidates):
        sums_of[name] = [sums[at + 2 * (c * o + j)] for j in range(o)]
        squares_of[name] = [sums[at + 2 * (c * o + j) + 1] for j in range(o)]
    assert at + 2 * k * o == cross_start(k, o)
    return sums_of, squares_of


def cross(sums, found, a, b):
    """Sum over the accepted deals of headline(a) * headline(b)."""
    k, o = len(found.candidates), len(found.outcomes)
    names = list(found.candidates)
    return sums[cross_start(k, o) + names.index(a) * k + names.index(b)]


# ----------------------------------------------------------------------------------------
# Kernel and twin on the same streams

HOLD_4 = "7c 7d 7h 2c 3d 4h 5s 9s Js Qd Kh 10c Ac"  # seat 0 of 4: three sevens
CASES = [
    # (rules, n, position, holding, context, policy)
    (Rules(), 4, 0, HOLD_4, {}, policy(4)),
    (Rules(), 4, 2, "7d 7h 8c 9c 2d 5h 6h Jh Qs 3s 4c Kd 10s", {"plays": "7c pass"}, policy(4)),
    (Rules(), 4, 2, "7d 7h 8c 9c 2d 5h 6h Jh Qs 3s 4c Kd 10s", {"plays": "7c pass"}, policy(4, STYLE_RANDOM)),
    (
        Rules(may_pass_when_able=True),
        4,
        1,
        "7s 7h 9c 2d 5h 6h Jh Qs 3s 4c Kd 10s 2s",
        {"plays": "hold"},
        policy(4, STYLE_RANDOM, 1),
    ),
    (
        Rules(start=START_HOLDER_7D, settle=SETTLE_CARD_COUNT),
        5,
        3,
        "7c 8d 2h 3h 4h Js Qs Ks 9c 10c",
        {"opener": "2", "plays": "7d"},
        policy(5, STYLE_HOLD_SEVENS),
    ),
    (
        Rules(eight_before_six=True, ante=1, uneven_ante=1),
        6,
        4,
        "8c 6d 2h 3h Js Qs 9h",
        {"plays": "7c 7d pass 7h 7s pass 8d 8h 6h pass"},
        policy(6, STYLE_BLOCK),
    ),
]


@pytest.mark.parametrize("rules, n, position, holding, context, matrix", CASES)
def test_kernel_equals_twin_on_the_same_streams(rules, n, position, holding, context, matrix):
    found = situation(rules, n, position, holding, **context)
    kernel = advice.simulate_advice(SPEC, rules, matrix, n, found, 7, 50, 400)
    twin = twin_advice(SPEC, rules, matrix, n, found, 7, 50, 400)
    assert kernel == twin
    assert kernel[TRIED] == 400 and kernel[ACCEPTED] > 0
    if not context:
        assert kernel[ACCEPTED] == 400  # nothing to reject before the first turn


def real_situations(count, seed):
    """``count`` situations met in real hands of random tables (every rule switch, a random
    style and pass_with_sevens per seat): the holding and record of the seat to play at a
    random early turn, where it has a choice."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        n = int(rng.integers(3, 9))
        rules = Rules(
            ante=int(rng.integers(0, 3)),
            uneven_ante=int(rng.integers(0, 3)),
            start=int(rng.integers(0, 3)),
            settle=int(rng.integers(0, 3)),
            may_pass_when_able=bool(rng.integers(0, 2)),
            eight_before_six=bool(rng.integers(0, 2)),
            pass_fee=int(rng.integers(0, 3)),
            card_fee=int(rng.integers(0, 3)),
        )
        matrix = np.column_stack([rng.integers(0, 5, n), rng.integers(0, 2, n)]).astype(float)
        hand = twin.hand_result(rules, matrix, n, int(rng.integers(0, 1000)), int(rng.integers(0, 1000)))
        turn = int(rng.integers(1, min(len(hand["plays"]), 12)))
        seat = hand["plays"][turn][0]
        names = [
            "hold" if t in hand["voluntary"] else "pass" if card < 0 else card_name(card)
            for t, (_, card) in enumerate(hand["plays"][:turn])
        ]
        played = {card for who, card in hand["plays"][:turn] if who == seat}
        context = {"plays": " ".join(names)}
        if rules.start != START_ELDEST:
            context["opener"] = str(hand["plays"][0][0])
        try:
            situation_found = situations.situation(
                SPEC, rules, n, seat, sorted(set(hand["hands"][seat]) - played), context
            )
        except ValueError as refused:
            assert "no choice" in str(refused)  # every real situation is accepted, or has no decision
            continue
        found.append((rules, n, matrix, situation_found))
    return found


def test_kernel_equals_twin_in_situations_met_in_real_hands():
    accepted = 0
    for rules, n, matrix, found in real_situations(16, 2):
        kernel = advice.simulate_advice(SPEC, rules, matrix, n, found, 5, 0, 120)
        assert kernel == twin_advice(SPEC, rules, matrix, n, found, 5, 0, 120)
        accepted += kernel[ACCEPTED] > 0
    assert accepted >= 12  # the hand it came from fits its own record: most find deals


def test_the_candidates_are_the_legal_cards_in_code_order_then_the_pass():
    found = situation(Rules(), 4, 0, HOLD_4)
    assert found.decision == "play"
    assert found.described == {"plays": "none", "cards_left": "13 13 13 13", "layout": ""}
    assert found.assumed == {"plays": "no turn has been taken yet: you have the hand's first turn"}
    assert found.candidates == ("play 7c", "play 7d", "play 7h")
    assert found.outcomes == ("net", "win", "cards_left") and not found.lower_is_better
    assert found.smaller == ("cards_left",) and found.rank_by == 0
    deliberate = situation(Rules(may_pass_when_able=True), 4, 1, CASES[3][3], plays="hold")
    assert deliberate.candidates == ("play 7h", "play 7s", "pass")
    assert deliberate.described == {"plays": "hold", "cards_left": "13 13 13 13", "layout": ""}
    scoring = situation(CASES[4][0], 5, 3, CASES[4][3], opener="2", plays="7d")
    assert scoring.candidates == ("play 7c", "play 8d")
    assert scoring.outcomes == ("cards_left", "win") and scoring.lower_is_better
    assert scoring.smaller == ("cards_left",)
    assert scoring.described == {"plays": "7d", "opener": 2, "cards_left": "11 11 9 10 10", "layout": "7d"}
    assert scoring.assumed == {}


def test_rejection_keeps_only_deals_where_the_others_did_what_was_seen():
    """After "7c pass" seat 1 held none of 6c, 8c, 7d, 7h, 7s; 8c, 7d and 7h are the advised
    seat's, so the deals giving seat 1 the 6c or the 7s are rejected and the rest kept
    (seat 0 of the first style always opens with the 7c it holds)."""
    found = situation(Rules(), 4, 2, CASES[1][3], plays="7c pass")
    sums = advice.simulate_advice(SPEC, Rules(), policy(4), 4, found, 3, 0, 2000)
    # seat 1's 13 cards come from the 38 not seen; P(neither of 2 named) = C(36,13)/C(38,13)
    expected = (25 * 24) / (38 * 37)
    assert sums[TRIED] == 2000
    assert abs(sums[ACCEPTED] / 2000 - expected) < 0.04


def test_an_impossible_record_accepts_nothing():
    """Seat 0 holds back (a voluntary pass) but no seat's policy ever does: no deal fits."""
    rules = Rules(may_pass_when_able=True)
    found = situation(rules, 4, 1, CASES[3][3], plays="hold")
    sums = advice.simulate_advice(SPEC, rules, policy(4), 4, found, 1, 0, 300)
    assert sums[TRIED] == 300 and sums[ACCEPTED] == 0


# ----------------------------------------------------------------------------------------
# Certain cases


def test_three_players_leading_the_blocked_suits_is_certainly_better():
    """Seat 0 of 3 holds all 13 clubs, the other sevens and 6d 8d (18 cards).  Whatever it
    opens, nobody else can go out first: a seat holding a card of the suit of the seven
    seat 0 keeps for last waits for it, and 17 cards cannot all be of one suit.  The
    others take 34 turns; with P of them passes they play 34 - P cards and keep P, so
    seat 0's net is 4 + 2P (the others' antes, a chip per pass and per card kept).
    Opening 7c or 7d, it plays its clubs (first style) and 7d while the others cannot
    play: their first 14 rounds are passes, P >= 28, net 60..72, and the two openings
    give the same deal deal by deal.  Opening 7h (or 7s) lets the others play from the
    first round on, one card a round at least until the 12 hearts (spades) are down: P
    <= 22, net <= 48."""
    holding = "Ac 2c 3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc 7d 7h 7s 6d 8d"
    found = situation(Rules(), 3, 0, holding)
    assert found.candidates == ("play 7c", "play 7d", "play 7h", "play 7s")
    sums = advice.simulate_advice(SPEC, Rules(), policy(3), 3, found, 5, 0, 500)
    assert sums[ACCEPTED] == 500
    total, squares = totals(sums, found)
    for name in found.candidates:
        assert total[name][1] == 500 and total[name][2] == 0  # it always goes out first
    assert total["play 7c"] == total["play 7d"] and squares["play 7c"] == squares["play 7d"]
    same = cross(sums, found, "play 7c", "play 7d")
    assert squares["play 7c"][0] - 2 * same + squares["play 7d"][0] == 0  # equal on every deal
    assert 60 * 500 <= total["play 7c"][0] <= 72 * 500
    for worse in ("play 7h", "play 7s"):
        assert total[worse][0] <= 48 * 500
        assert total[worse][0] < total["play 7c"][0]


TWO_HANDED = (
    "7c pass 6c pass 5c pass 4c 3c 8c 2c 9c Ac 10c Jc 7d Qc 6d Kc 5d pass 4d 3d 8d 2d 9d Ad 10d Jd 7h Qd 6h Kd 5h pass"
)


def test_two_players_every_card_known_gives_one_exact_answer():
    """Two players (the kernel's extra table): seat 0 was dealt 4-10 of clubs and diamonds
    and 4-9 of hearts and spades, so seat 1 holds the rest and the deal is certain.  After
    34 turns seat 0 holds 4h 8h 9h 4s..9s (it never gets stuck) and seat 1 holds
    Ah 2h 3h 10h..Kh As 2s 3s 10s..Ks; its 5 passes put the pot at 9.  Seat 0 goes out on
    its 9th turn from here and seat 1 has 8 turns in between: with p of them passes, seat
    0's net is 2 + 5 + p + (14 - (8 - p)) = 13 + 2p.  Playing 4h lets seat 1 play 3h at
    once and every turn after (p = 0, net 13); 8h or 7s makes it pass once (15)."""
    holding = "4h 8h 9h 4s 5s 6s 7s 8s 9s"
    found = situation(Rules(), 2, 0, holding, plays=TWO_HANDED)
    assert found.candidates == ("play 4h", "play 8h", "play 7s")
    sums = advice.simulate_advice(SPEC, Rules(), policy(2), 2, found, 9, 0, 40)
    assert sums[TRIED] == sums[ACCEPTED] == 40
    total, squares = totals(sums, found)
    assert total["play 4h"] == [13 * 40, 40, 0] and squares["play 4h"][0] == 169 * 40
    assert total["play 8h"] == total["play 7s"] == [15 * 40, 40, 0]
    assert cross(sums, found, "play 4h", "play 8h") == 13 * 15 * 40
    assert twin_advice(SPEC, Rules(), policy(2), 2, found, 9, 0, 40) == sums


# ----------------------------------------------------------------------------------------
# Refused situations


@pytest.mark.parametrize(
    "rules, n, position, holding, context, piece",
    [
        (Rules(), 4, 0, "7c 7d 7h 2c 3d 4h 5s 9s Js Qd Kh 10c", {}, "holds 13 cards at this turn"),
        (Rules(), 4, 0, HOLD_4, {"layout": "7c"}, "unknown context 'layout'"),
        (Rules(), 4, 1, HOLD_4, {"plays": "7x"}, "context plays: '7x' is not a card"),
        (Rules(start=START_HOLDER_7D), 4, 1, HOLD_4, {"plays": "7d", "opener": "x"}, "opener takes a whole number"),
        (Rules(start=START_HOLDER_7D), 4, 1, HOLD_4, {"plays": "7d", "opener": "4"}, "opener takes a whole number"),
        (Rules(), 4, 1, HOLD_4, {"plays": "7c"}, "the holding has 7c, which the plays put on the table"),
        (
            Rules(),
            4,
            2,
            "8c 7d 7h 2c 3d 4h 5s 9s Js Qd Kh 10c Ac",
            {"plays": "7s"},
            "it is seat 1's turn, not seat 2's",
        ),
        (Rules(), 4, 2, "7d 7h 8c 2c 2d 5h 6h Jh Qs 3s 4c Kd 10s", {"plays": "7c 9c"}, "9c is not playable at turn 2"),
        (Rules(), 4, 2, "7d 9c 2d 5h 6h Jh Qs 3s 4c Kd 10s 2s Ah", {"plays": "7c pass"}, "only legal card is 7d"),
        (Rules(), 4, 0, HOLD_4, {"plays": "pass 7s pass pass"}, "seat 0 could play 7c at turn 1"),
        (Rules(), 4, 0, "2c 3c 4c 5c 6c 8c 9c 10c Jc Qc Kc Ac 2d", {}, "holds no legal card"),
        (Rules(), 4, 3, HOLD_4, {}, "with no plays given (--context plays=...) it is seat 0's turn, not seat 3's"),
        (Rules(), 4, 1, "7d 7h 9c 2d 5h 6h Jh Qs 3s 4c Kd 10s 2s", {"plays": "hold"}, "needs the rule may_pass"),
        (Rules(), 4, 1, HOLD_4, {"opener": "0"}, "only for the holder-7d and holder-7h starts"),
        (Rules(start=START_HOLDER_7D), 4, 1, HOLD_4, {}, "give the seat that opened"),
        (Rules(start=START_HOLDER_7D), 4, 1, HOLD_4, {"opener": "0", "plays": "7c"}, "begin with the opening 7d"),
        (Rules(), 4, 0, "7c 7d 7h 2c 3d 4h 5s 9s Js Qd Kh 10c 60", {}, "not a card of Fan Tan"),
        (
            Rules(),
            4,
            2,
            "2d 3d 4d 5d 2h 3h 4h 5h Ah Ad As 2s 3s",
            {"plays": "7c pass pass pass pass"},
            "4 seats cannot",
        ),
    ],
)
def test_a_refused_situation_says_why_in_one_sentence(rules, n, position, holding, context, piece):
    cards = parse_cards(" ".join(t for t in holding.split() if not t.isdigit()))
    cards += [int(t) for t in holding.split() if t.isdigit()]
    with pytest.raises(ValueError) as refused:
        situations.situation(SPEC, rules, n, position, cards, context)
    text = str(refused.value)
    assert piece in text, text
    assert text.endswith(".") and text.count(". ") == 0


def test_more_refusals_of_a_record_that_contradicts_itself():
    # seat 1 passed when 8c was playable after 7c, then played 8c
    with pytest.raises(ValueError, match="seat 1 passed at turn 2 while 8c"):
        situation(Rules(), 4, 0, "7d 7h 9c 2d 5h 6h Jh Qs 3s 4c Kd", plays="7c pass pass pass 7s 8c pass pass")
    # nobody may hold after n-1 passes in a row
    with pytest.raises(ValueError, match="nobody may hold after 3 passes in a row"):
        situation(
            Rules(may_pass_when_able=True),
            4,
            2,
            "2d 3d 4d 5d 2h 3h 4h 5h Ah Ad As 2s 3s",
            plays="7c pass pass pass hold",
        )
    # the hand is over once a seat has played its last card: seat 4 of 8 holds 6
    rounds = " ".join(f"pass pass pass pass {card} pass pass pass" for card in ("7c", "6c", "5c", "4c", "3c", "2c"))
    with pytest.raises(ValueError, match="the hand is over, seat 4 played its last card at turn 45"):
        situation(Rules(), 8, 0, "2d 3d 4d 5d 2h 3h 4h", plays=rounds)


@pytest.mark.parametrize("decision", ft_advice.DECISIONS)
def test_each_example_parses(decision):
    words = shlex.split(decision.example)
    assert words[:3] == ["analyze", "advise", "fan-tan"]
    options: dict[str, list[str]] = {}
    for key, value in zip(words[3::2], words[4::2]):
        options.setdefault(key, []).append(value)
    context = dict(item.split("=", 1) for item in options.get("--context", []))
    n = int(options["--players"][0])
    found = situation(Rules(), n, int(options["--position"][0]), options["--holding"][0], **context)
    assert found.decision == decision.name and len(found.candidates) >= 2
    assert set(context) <= set(decision.context)
    sums = advice.simulate_advice(SPEC, Rules(), SPEC.default_policy(n), n, found, 1, 0, 200)
    assert sums[ACCEPTED] > 50


def test_advise_runs_no_deal_for_a_count_of_zero():
    found = situation(Rules(), 4, 0, HOLD_4)
    rules_ext = advice.advice_rules(SPEC, Rules(), found)
    # through the engine: the kernel's one signature (a direct call with a Python seed would compile another)
    flat = advice.simulate_advice(SPEC, Rules(), np.asarray(policy(4)), 4, found, 0, 0, 0)
    assert len(flat) == found.width and not any(flat) and len(rules_ext) > len(Rules._fields)


# ----------------------------------------------------------------------------------------
# Issue 36: the history as seen, the largest outcome, the terms

# 4 players, eldest start: seat 0 7c, seat 1 7s, seat 2 (advised) 8c, seat 3 7d, seat 0 7h,
# seat 1 6c.  Seat 1 held the 6c at its first turn, where it was legal and lower in code order
# than the 7s: style first would have played it, so no deal fits the record under policy.
UNPOLICED = "7c 7s 8c 7d 7h 6c"
UNPOLICED_HOLDING = "9c 6d 2d 5h Jh Qs 3s 4c Kd 10s Ah 2h"  # 12 cards: 13 dealt, the 8c played


def seen(rules, n, position, holding, **context):
    return situations.situation(SPEC, rules, n, position, parse_cards(holding), context, "seen")


def test_a_record_the_policy_cannot_play_is_answered_as_seen():
    by_policy = situation(Rules(), 4, 2, UNPOLICED_HOLDING, plays=UNPOLICED)
    assert by_policy.candidates == ("play 9c", "play 6d")
    kernel = advice.simulate_advice(SPEC, Rules(), policy(4), 4, by_policy, 7, 0, 300)
    assert kernel == twin_advice(SPEC, Rules(), policy(4), 4, by_policy, 7, 0, 300)
    assert kernel[TRIED] == 300 and kernel[ACCEPTED] == 0
    as_seen = seen(Rules(), 4, 2, UNPOLICED_HOLDING, plays=UNPOLICED)
    assert as_seen.infer == "seen" and as_seen.described["layout"] == "6c 7c 8c 7d 7h 7s"
    kernel = advice.simulate_advice(SPEC, Rules(), policy(4), 4, as_seen, 7, 0, 300)
    assert kernel == twin_advice(SPEC, Rules(), policy(4), 4, as_seen, 7, 0, 300)
    assert kernel[ACCEPTED] == kernel[TRIED] == 300  # no pass was listed: every deal fits what was seen


def test_seen_rejects_only_a_pass_by_a_seat_that_could_play():
    """After "7c pass" the pass shows seat 1 held none of 6c and 7s (8c, 7d, 7h are the
    advised seat's): under seen exactly those deals are rejected, which under the first
    style (seat 0 opening with its lowest seven, the 7c it holds) is policy's rejection too."""
    rules, n, position, holding, context, matrix = CASES[1]
    as_seen = seen(rules, n, position, holding, **context)
    by_policy = situation(rules, n, position, holding, **context)
    kernel = advice.simulate_advice(SPEC, rules, matrix, n, as_seen, 3, 0, 400)
    assert kernel == twin_advice(SPEC, rules, matrix, n, as_seen, 3, 0, 400)
    assert kernel == advice.simulate_advice(SPEC, rules, matrix, n, by_policy, 3, 0, 400)
    assert 0 < kernel[ACCEPTED] < 400


@pytest.mark.parametrize("case", range(len(CASES)))
def test_seen_kernel_equals_twin(case):
    rules, n, position, holding, context, matrix = CASES[case]
    found = seen(rules, n, position, holding, **context)
    kernel = advice.simulate_advice(SPEC, rules, matrix, n, found, 13, 0, 150)
    assert kernel == twin_advice(SPEC, rules, matrix, n, found, 13, 0, 150)
    assert kernel[ACCEPTED] > 0


def test_seen_holds_are_played_as_listed_and_need_a_legal_card():
    """With may_pass_when_able, seat 0 held (passed able to play) although its policy never
    holds: policy keeps no deal; seen keeps exactly the deals where seat 0 could play, i.e.
    was dealt the 7c or the 7d (the advised seat holds the other two sevens)."""
    rules = Rules(may_pass_when_able=True)
    holding = "7s 7h 9c 2d 5h 6h Jh Qs 3s 4c Kd 10s 2s"
    by_policy = situation(rules, 4, 1, holding, plays="hold")
    kernel = advice.simulate_advice(SPEC, rules, policy(4), 4, by_policy, 5, 0, 300)
    assert kernel[ACCEPTED] == 0
    as_seen = seen(rules, 4, 1, holding, plays="hold")
    kernel = advice.simulate_advice(SPEC, rules, policy(4), 4, as_seen, 5, 0, 300)
    assert kernel == twin_advice(SPEC, rules, policy(4), 4, as_seen, 5, 0, 300)
    # seat 0 could play when it held the 7c or the 7d (the others are seat 1's): 13 of 39 unseen cards each
    chance = 1 - (26 * 25 / (39 * 38))
    assert abs(kernel[ACCEPTED] / 300 - chance) < 0.1


def test_largest_bounds_every_outcome_and_its_square_fits():
    """Situation.largest is a bound on one deal's outcomes (every chip paid in the deal), far
    below 2**31 at the largest stakes, so a batch holds at least 2**62 // largest**2 deals."""
    top = Rules(ante=20, uneven_ante=1, pass_fee=20, card_fee=20, may_pass_when_able=True)
    assert ft_advice.largest_outcome(top, 8) == 34748 < 2**16  # hand mode's squares: below 2**32 each
    assert ft_advice.largest_outcome(Rules(settle=SETTLE_CARD_COUNT), 4) == 52
    found = situation(top, 4, 0, HOLD_4)
    assert found.largest == ft_advice.largest_outcome(top, 4)
    matrix = policy(4, STYLE_HOLD_SEVENS, 1)
    for deal in range(60):  # the largest stakes, holds and passes: no outcome passes the bound
        res = twin.hand_result(top, matrix, 4, 8, deal)
        assert max(abs(v) for v in res["net"]) <= found.largest
        assert res["pot"] <= found.largest


def test_game_mode_sums_the_square_of_a_rotation_wide():
    """A rotation of 8 deals can move 8 x 34,748 chips, whose square passes 2**32: net_sq is
    summed in limbs, and the decoded sums are the twin's."""
    from sims import engine
    from sims.spec import Mode

    assert SPEC.outcomes[Mode.GAMES].limbs == {"net_sq": 2} and (8 * 34748) ** 2 > 2**32
    top = Rules(ante=20, pass_fee=20, card_fee=20)
    sums = engine.simulate(SPEC, top, policy(8), 8, Mode.GAMES, 4, 0, 40)
    assert (np.asarray(sums) == np.asarray(twin.simulate(top, policy(8), 8, Mode.GAMES, 4, 0, 40))).all()
    net_sq = SPEC.outcomes[Mode.GAMES].seat.index("net_sq")
    assert all(int(sums[s, net_sq]) > 0 for s in range(8))


def test_left_out_keys_and_terms():
    decision = ft_advice.DECISIONS[0]
    assert set(decision.absent) == set(decision.context) and all(decision.absent.values())
    terms = SPEC.terms()
    assert {"net", "win", "cards_left", "pass", "hold", "style", "pass_with_sevens", "infer"} <= set(terms)
    assert all(text.endswith(".") and len(text.split()) >= 6 for text in terms.values())
