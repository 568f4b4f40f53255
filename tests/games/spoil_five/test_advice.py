"""Spoil Five's advice (sims.games.spoil_five.advice): the kernel against the twin on the
same streams for each decision, with and without a history, under rule variants and
mixed policies; decisions whose better candidate is certain whatever the unseen cards;
every refusal of situation(); an impossible history; the DECISIONS examples."""

from __future__ import annotations

import re
import shlex

import numpy as np
import pytest

from sims.advice import simulate_advice
from sims.core.advice import ACCEPTED, FIRST_SUM, TRIED
from sims.core.cards import card_name, format_cards, parse_cards
from sims.games import spoil_five as sf
from sims.games.spoil_five.advice import DECISIONS
from sims.games.spoil_five.rules import BONUS_DOUBLE_ANTE, FREE, MUST_FOLLOW, ROB_OBLIGATORY
from sims.registry import GAMES
from sims.situations import situation
from tests.games.advice_twin import twin_advice

SPEC = GAMES["spoil-five"]
FIELDS = [f.key for f in SPEC.policy_fields]


def policy(n, preset="default", **fields):
    matrix = SPEC.default_policy(n, preset)
    for key, value in fields.items():
        matrix[:, FIELDS.index(key)] = value
    return matrix


def mixed(n):
    """A table whose seats play differently: no spoiling, no reneging, bold jinx, never rob."""
    matrix = policy(n)
    for seat in range(n):
        matrix[seat, FIELDS.index(("spoil", "renege", "jinx_min", "rob")[seat % 4])] = (0, 0, 0, 0)[seat % 4]
    return matrix


def found(n, position, holding, rules=None, **context):
    return situation(SPEC, rules or sf.Rules(), n, position, parse_cards(holding), context)


def means(sums, where):
    """Per candidate, the mean of each outcome over the accepted deals."""
    k, o = len(where.candidates), len(where.outcomes)
    accepted = sums[ACCEPTED]
    return [[sums[FIRST_SUM + 2 * (c * o + j)] / accepted for j in range(o)] for c in range(k)]


def spread(sums, where, c, j=0):
    """The sum of squares minus count * mean^2 of outcome j of candidate c (0: constant)."""
    o = len(where.outcomes)
    total, squares = sums[FIRST_SUM + 2 * (c * o + j)], sums[FIRST_SUM + 2 * (c * o + j) + 1]
    return squares * sums[ACCEPTED] - total * total


# ------------------------------------------------------------------ kernel against twin

ROB_EARLY = (5, 2, "Ad 5c Kc 7h 3s", {"turnup": "9d", "trick1": "10c 9c"})
JINX_PLAIN = (
    3,
    0,
    "Qh Qs",
    {"turnup": "9h", "trick1": "5h 2h 10c", "trick2": "Jh 3h 10s", "trick3": "Kh 4h 9s"},
)
JINX_OWN_ROB = (
    3,
    1,
    "Ah Kh",
    {"turnup": "9h", "robbed": "1", "discard": "2c", "trick1": "10c 9h 9c", "trick2": "5h 2h 3h", "trick3": "Jh 4h 6h"},
)
JINX_OTHER_ROB = (
    4,
    0,
    "Qd 7h",
    {"turnup": "9d", "robbed": "2", "trick1": "5d 2d 9d 10c", "trick2": "Jd 3d Ad 10s", "trick3": "Kd 4d 9c 9s"},
)
CASES = {
    "rob, trick 1 seen": ROB_EARLY,
    "rob, nothing seen": (5, 2, "Ad 5c Kc 7h 3s", {"turnup": "9d"}),
    "rob, the eldest": (4, 0, "Ac Jh 2d 6s Qc", {"turnup": "4c"}),
    "rob, the dealer's turned ace": (4, 3, "5c Kc 7h 3s 2d", {"turnup": "Ac", "pool": "15"}),
    "jinx": JINX_PLAIN,
    "jinx, own rob": JINX_OWN_ROB,
    "jinx, another seat robbed": JINX_OTHER_ROB,
    "play, following in trick 1": (4, 1, "Kc 7c Qd 3h 8s", {"turnup": "9d", "trick1": "10c"}),
    "play, leading trick 2": (3, 0, "Jh Kh Qs 2d", {"turnup": "9h", "trick1": "5h 2h 10c"}),
    "play, after its own rob": (
        3,
        1,
        "Ah Kh 5h Jh 9h",
        {"turnup": "9h", "robbed": "1", "discard": "2c", "trick1": "9c"},
    ),
}
TABLES = {
    "standard": sf.Rules(),
    "britannica": sf.Rules(rob=ROB_OBLIGATORY),
    "ace-low": sf.Rules(unrobbed_ace_low=True),
    "free, double bonus": sf.Rules(plain_lead=FREE, jinx_bonus=BONUS_DOUBLE_ANTE, dealer_extra=1),
    "must-follow": sf.Rules(plain_lead=MUST_FOLLOW, ante=3),
}


@pytest.mark.parametrize("table", list(TABLES)[:4])
@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_kernel_and_twin_agree_exactly(case, table):
    n, position, holding, context = CASES[case]
    rules = TABLES[table]
    where = found(n, position, holding, rules, **context)
    for plain, matrix in ((True, policy(n)), (False, mixed(n))):
        kernel = simulate_advice(SPEC, rules, matrix, n, where, 11, 5, 100)
        assert kernel == twin_advice(SPEC, rules, matrix, n, where, 11, 5, 100)
        assert kernel[TRIED] == 100
        if "trick1" in context and plain and table == "standard":
            assert 0 < kernel[ACCEPTED] < kernel[TRIED]  # the history rejects some deals
        elif "trick1" not in context:
            assert kernel[ACCEPTED] == kernel[TRIED]  # nothing to reject


def test_a_card_play_after_another_seats_jinx():
    """Seat 0 robbed, won tricks 1-3 with 5h, Jh and Ah, played on (it jinxed: always,
    under bold-jinx) and leads Kh to trick 4; seat 1, out of trumps, throws a club: it
    cannot stop the jinx, and pays the bonus whatever it throws."""
    context = {
        "turnup": "9h",
        "robbed": "0",
        "trick1": "5h 2h 10c",
        "trick2": "Jh 3h 10s",
        "trick3": "Ah 4h 9s",
        "trick4": "Kh",
    }
    where = found(3, 1, "7c 8c", **context)
    assert where.decision == "play" and where.candidates == ("play 8c", "play 7c")
    matrix = policy(3, "bold-jinx")
    kernel = simulate_advice(SPEC, sf.Rules(), matrix, 3, where, 4, 0, 300)
    assert kernel == twin_advice(SPEC, sf.Rules(), matrix, 3, where, 4, 0, 300)
    assert 0 < kernel[ACCEPTED] < 300
    throw_eight, throw_seven = means(kernel, where)
    assert throw_eight[1:] == throw_seven[1:] == [0.0, 0.0]
    assert throw_eight[0] == throw_seven[0] and -4.0 <= throw_seven[0] <= -2.0


def test_leading_the_top_trump_for_the_third_trick_takes_the_pool():
    """Two players, hearts trumps: seat 0 won tricks 1 and 2 and leads trick 3 holding
    5h, 2c and Qs: the 5h wins the third trick whatever seat 1 holds, and seat 0 then
    claims (its 2c and Qs are never both sure): +2 every time, no other lead better."""
    where = found(2, 0, "5h 2c Qs", turnup="9h", trick1="Jh 2h", trick2="Kh 3h")
    assert where.decision == "play" and set(where.candidates) == {"play 5h", "play 2c", "play Qs"}
    sums = simulate_advice(SPEC, sf.Rules(), policy(2), 2, where, 8, 0, 400)
    assert sums[ACCEPTED] > 100
    table = means(sums, where)
    best = where.candidates.index("play 5h")
    assert table[best] == [2.0, 1.0, 3.0] and spread(sums, where, best) == 0
    assert all(row[0] <= 2.0 for row in table)


def test_rejection_rejects_and_candidates_share_their_deals():
    n, position, holding, context = JINX_OTHER_ROB
    where = found(n, position, holding, **context)
    sums = simulate_advice(SPEC, sf.Rules(), policy(n), n, where, 3, 0, 400)
    assert sums[TRIED] == 400 and 0 < sums[ACCEPTED] < 400
    claim, jinx = means(sums, where)
    assert claim == [4 * 2 - 2, 1.0, 3.0]  # the pool of 8 less its ante, every time
    assert 0 <= jinx[1] <= 1 and jinx[2] >= 3


def test_a_count_of_zero_gives_empty_sums():
    n, position, holding, context = ROB_EARLY
    where = found(n, position, holding, **context)
    sums = simulate_advice(SPEC, sf.Rules(), policy(n), n, where, 0, 0, 0)
    assert sums == [0] * where.width


# ------------------------------------------------------------------ certain answers


def test_a_jinx_with_the_two_top_trumps_left_is_always_made():
    """Hearts trumps, 5h, Jh and Qh played by seat 0, which holds Ah and Kh: both win
    whatever the others hold, so the jinx takes the pool (6) and 2 from each other seat."""
    where = found(3, 0, "Ah Kh", turnup="9h", trick1="5h 2h 10c", trick2="Jh 3h 10s", trick3="Qh 4h 9s")
    assert where.decision == "jinx" and where.candidates == ("claim", "jinx")
    sums = simulate_advice(SPEC, sf.Rules(), policy(3), 3, where, 5, 0, 300)
    assert sums[ACCEPTED] > 50
    claim, jinx = means(sums, where)
    assert claim == [-2 + 6, 1.0, 3.0]
    assert jinx == [-2 + 6 + 2 * 2, 1.0, 5.0]
    assert spread(sums, where, 0) == 0 and spread(sums, where, 1) == 0


def test_a_given_pool_changes_the_chips_not_the_play():
    where = found(3, 0, "Ah Kh", turnup="9h", trick1="5h 2h 10c", trick2="Jh 3h 10s", trick3="Qh 4h 9s", pool="20")
    sums = simulate_advice(SPEC, sf.Rules(), policy(3), 3, where, 5, 0, 100)
    claim, jinx = means(sums, where)
    assert claim[0] == 20 and jinx[0] == 20 + 2 * 2  # nothing paid into a pool already there


def test_robbing_the_top_trump_and_throwing_the_plain_card_makes_the_jinx():
    """Two players, hearts trumps with the 5h turned; the eldest holds Ah Jh Kh Qh 2c.
    Robbing and throwing 2c leaves the five top trumps: all five tricks, the jinx made
    (the pool of 4 and 2 from the dealer: +4 net).  Not robbing, or throwing a trump,
    wins three tricks and claims with one card that is not sure (+2)."""
    where = found(2, 0, "Ah Jh Kh Qh 2c", turnup="5h")
    assert where.decision == "rob"
    assert where.candidates == (
        "no rob",
        "rob:discard Ah",
        "rob:discard Jh",
        "rob:discard Kh",
        "rob:discard Qh",
        "rob:discard 2c",
    )
    sums = simulate_advice(SPEC, sf.Rules(), policy(2), 2, where, 9, 0, 300)
    assert sums[ACCEPTED] == 300
    table = means(sums, where)
    assert table[5] == [4.0, 1.0, 5.0]
    for c in range(5):
        assert table[c] == [2.0, 1.0, 3.0]
    assert all(spread(sums, where, c) == 0 for c in range(6))


def test_not_robbing_under_obligatory_robbing_never_takes_the_pool():
    where = found(2, 0, "Ah Jh Kh Qh 2c", rules=sf.Rules(rob=ROB_OBLIGATORY), turnup="5h")
    sums = simulate_advice(SPEC, sf.Rules(rob=ROB_OBLIGATORY), policy(2), 2, where, 9, 0, 200)
    table = means(sums, where)
    assert table[0][:2] == [-2.0, 0.0]  # forfeited: its three tricks spoil the hand
    assert table[5] == [4.0, 1.0, 5.0]


# ------------------------------------------------------------------ refusals

JINX_CONTEXT = JINX_PLAIN[3]


@pytest.mark.parametrize(
    "n, position, holding, context, rules, words",
    [
        (5, 2, "Ad 5c Kc 7h", {"turnup": "9d"}, None, "takes the 5 cards"),
        (3, 0, "Qh Qs 2c", JINX_CONTEXT, None, "seat 0 holds 2 cards after the tricks given, not 3"),
        (5, 2, "Ad 5c Kc 7h 3s", {"turnup": "9d", "trump": "d"}, None, "unknown context 'trump'"),
        (5, 2, "Ad 5c Kc 7h 3s", {}, None, "turnup is required"),
        (5, 2, "Ad 5c Kc 7h 3s", {"turnup": "9x"}, None, "is not a card"),
        (5, 2, "Ad 5c Kc 7h 3s", {"turnup": "9d 8d"}, None, "takes 1 card"),
        (5, 2, "Ad 5c Kc 7h 3s", {"turnup": "9d", "pool": "lots"}, None, "whole number"),
        (5, 2, "Ad 5c Kc 7h 3s", {"turnup": "9d", "pool": "3"}, None, "whole number 10.."),
        (5, 2, "Ad 5c Kc 7h 3s", {"turnup": "9d", "trick1": "10c"}, None, "takes the 2 cards played before"),
        (5, 2, "Ad 5c Kc 7h 3s", {"turnup": "9d", "trick1": "10c 5c"}, None, "already held"),
        (5, 2, "Ad 5c Kc 7h 3s", {"turnup": "9d", "trick1": "10c 9c 8c 7c 6c"}, None, "holds 4 cards after"),
        (5, 2, "Ad 5c Kc 7h 3s", {"turnup": "3s"}, None, "out of seat 2's reach"),
        (5, 2, "As 5c Kc 7h 3s", {"turnup": "3s"}, None, "cannot be in the holding"),
        (5, 2, "Qd 5c Kc 7h 3s", {"turnup": "9d"}, None, "seat 0 leads trick 1: give the cards played before"),
        (5, 2, "Qd 5c Kc 7h 3s", {"turnup": "Ad", "robbed": "3"}, None, "only the dealer (seat 4) may rob it"),
        (5, 2, "Qd 5c Kc 7h 3s", {"turnup": "9d", "trick1": "10c 9c", "robbed": "3"}, None, "cannot have robbed"),
        (5, 2, "Qd 5c Kc 7h 3s", {"turnup": "9d", "trick1": "10c"}, None, "seat 1 plays next, not seat 2"),
        (5, 2, "Qd 5c Kc 7h 3s", {"turnup": "9d", "trick2": "10c"}, None, "trick2 is given without trick1"),
        (4, 3, "5c Kc 7h 3s 2d", {"turnup": "Ac", "trick1": "2c"}, None, "before the first lead"),
        (3, 0, "Qh Qs", {**JINX_CONTEXT, "trick3": "Kh 4h"}, None, "holds 3 cards after"),
        (3, 0, "Qh Qs", {k: v for k, v in JINX_CONTEXT.items() if k != "trick2"}, None, "trick3 is given without"),
        (3, 0, "Qh Qs", {**JINX_CONTEXT, "trick3": "2c 4h 9s"}, None, "seat 1 leads trick 4"),
        (3, 0, "Qh", {**JINX_CONTEXT, "trick4": "Qs 2s", "trick5": "Kd"}, None, "which is not complete"),
        (3, 0, "Qh", {**JINX_CONTEXT, "trick4": "Qs Ah 2s"}, None, "the hand is over after trick 4"),
        (3, 0, "Qh Kd", {**JINX_CONTEXT, "trick4": "Qs 6h"}, None, "seat 2 plays next"),
        (3, 1, "Qs 2d", {**JINX_CONTEXT}, None, "seat 0 won tricks 1 to 3: give trick4"),
        (
            3,
            2,
            "Kc Qs",
            {"turnup": "9h", "trick1": "10c 9c 2d", "trick2": "5h 3h 4h", "trick3": "Jh 6h 7h"},
            None,
            "seat 2 may not play 2d",
        ),
        (3, 0, "Qh Qs", {**JINX_CONTEXT, "robbed": "7"}, None, "whole number 0..2"),
        (3, 0, "Ah Qs", {**JINX_CONTEXT, "robbed": "1"}, None, "so it held the ace of trumps Ah, not seat 0"),
        (3, 0, "Qh Qs", {**JINX_CONTEXT, "discard": "2c"}, None, "only for an advised seat that robbed"),
        (3, 0, "9h Qs", {**JINX_CONTEXT, "robbed": "0"}, None, "context discard is required"),
        (3, 0, "Qh Qs", {**JINX_CONTEXT, "trick1": "5h 9h 10c"}, None, "out of seat 1's reach"),
        (3, 0, "Qh Qs", {**JINX_CONTEXT, "robbed": "0", "discard": "2c"}, None, "has played the turn-up 9h"),
        (3, 0, "Qh Qs", JINX_CONTEXT, sf.Rules(jinx=False), "no jinx"),
        (3, 0, "Ah Qs", JINX_CONTEXT, sf.Rules(rob=ROB_OBLIGATORY), "cannot take the pool"),
        (5, 2, "Ad 5c Kc 7h 3s", {"turnup": "9d", "trick1": "10c 10c"}, None, "names a card twice"),
    ],
)
def test_situation_refuses_with_one_sentence(n, position, holding, context, rules, words):
    with pytest.raises(ValueError, match=re.escape(words)) as caught:
        found(n, position, holding, rules, **context)
    assert str(caught.value).endswith(".") and str(caught.value).count(". ") == 0


def test_a_card_outside_the_pack_is_refused():
    with pytest.raises(ValueError, match="not a card of the 52-card pack"):
        situation(SPEC, sf.Rules(), 5, 2, (0, 1, 2, 3, 52), {"turnup": "9d"})


def test_a_history_the_others_never_play_accepts_nothing():
    """Seat 1 holds 2h, 3h and 4h and is said to follow the 5h with the 3h: its policy
    plays its lowest trump, the 2h, so no deal matches."""
    context = {**JINX_CONTEXT, "trick1": "5h 3h 10c", "trick2": "Jh 2h 10s"}
    where = found(3, 0, "Qh Qs", **context)
    sums = simulate_advice(SPEC, sf.Rules(), policy(3), 3, where, 1, 0, 300)
    assert sums[TRIED] == 300 and sums[ACCEPTED] == 0


# ------------------------------------------------------------------ the examples


@pytest.mark.parametrize("decision", DECISIONS, ids=[d.name for d in DECISIONS])
def test_each_example_names_its_decision(decision):
    words = shlex.split(decision.example)
    assert words[:3] == ["analyze", "advise", "spoil-five"]
    options = {"--context": []}
    for flag, value in zip(words[3::2], words[4::2]):
        if flag == "--context":
            options[flag].append(value)
        else:
            options[flag] = value
    context = dict(item.split("=", 1) for item in options["--context"])
    assert set(context) <= set(decision.context)
    n = int(options["--players"])
    where = found(n, int(options["--position"]), options["--holding"], **context)
    assert where.decision == decision.name
    sums = simulate_advice(SPEC, sf.Rules(), policy(n), n, where, 1, 0, 200)
    assert sums[ACCEPTED] > 50  # quick to answer
    assert np.all(np.isfinite(means(sums, where)))


# ------------------------------------------------------------------ real hands' views


def rob_views(rules, matrix, n, seed, hands):
    """(position, holding, context) of each trump-ace holder (or dealer of a turned ace)
    at its rob decision in hands played by the twin: what it really saw."""
    from sims.games.spoil_five import twin

    for index in range(hands):
        res = twin.hand_result(rules, matrix, n, seed, index)
        turnup = res["turnup"]
        ace = 13 * (turnup // 13)
        if turnup % 13 == 0:
            yield n - 1, format_cards(res["dealt"][n - 1]), {"turnup": card_name(turnup)}
            continue
        for seat in range(n):
            if ace in res["dealt"][seat]:
                early = [card for s, card in res["tricks"][0][1][:seat]]
                context = {"turnup": card_name(turnup)}
                if early:
                    context["trick1"] = format_cards(early)
                yield seat, format_cards(res["dealt"][seat]), context


def jinx_views(rules, matrix, n, seed, hands):
    """(position, holding, context) of each seat that won tricks 1-3 in hands played by
    the twin, at its claim/jinx decision."""
    from sims.games.spoil_five import twin

    for index in range(hands):
        res = twin.hand_result(rules, matrix, n, seed, index)
        tricks = res["tricks"]
        if len(tricks) < 3 or len({trick[2] for trick in tricks[:3]}) != 1:
            continue
        seat = tricks[0][2]
        if res["forfeited"] == seat:
            continue
        played = {card for trick in tricks[:3] for s, card in trick[1] if s == seat}
        context = {"turnup": card_name(res["turnup"])}
        for t in range(3):
            context[f"trick{t + 1}"] = format_cards(card for _, card in tricks[t][1])
        if res["robbed_by"] >= 0:
            context["robbed"] = str(res["robbed_by"])
        if res["robbed_by"] == seat:
            context["discard"] = card_name(res["discard"])
        yield seat, format_cards(sorted(set(res["held"][seat]) - played)), context


def play_views(rules, matrix, n, seed, hands):
    """(position, holding, context) of one seat at one of its card plays in each hand the
    twin played: the tricks before, the cards before it in the trick, the rob it saw."""
    from sims.games.spoil_five import twin

    for index in range(hands):
        res = twin.hand_result(rules, matrix, n, seed, index)
        tricks = res["tricks"]
        t = index % len(tricks)
        i = (index // len(tricks)) % n
        seat = tricks[t][1][i][0]
        context = {"turnup": card_name(res["turnup"])}
        for k in range(t + 1):
            cards = [card for _, card in tricks[k][1]][: (i if k == t else n)]
            if cards:
                context[f"trick{k + 1}"] = format_cards(cards)
        robbed = res["robbed_by"]
        seen = robbed >= 0 and (res["turnup"] % 13 == 0 or t > 0 or robbed <= seat)
        context["robbed"] = str(robbed) if seen else "none"
        if seen and robbed == seat:
            context["discard"] = card_name(res["discard"])
        played = {card for trick in tricks[:t] for s, card in trick[1] if s == seat}
        yield seat, format_cards(sorted(set(res["held"][seat]) - played)), context


@pytest.mark.parametrize("n", [2, 4, 10])
@pytest.mark.parametrize("table", ["standard", "ace-low", "must-follow"])
def test_what_a_seat_really_saw_is_accepted_and_kernel_equals_twin(n, table):
    """Every view of a real hand is a situation (situation() refuses none), and the kernel
    and the twin give the same sums on it.  With the ace-low table every other seat never
    robs, under obligatory robbing too, so that forfeits and demoted aces are seen."""
    rules, matrix = TABLES[table], policy(n)
    if table == "ace-low":  # with forfeits too: a non-robbing holder is both forfeited and demoted
        rules = sf.Rules(unrobbed_ace_low=True, rob=ROB_OBLIGATORY)
        matrix[1::2, FIELDS.index("rob")] = 0
    views = {
        "rob": list(rob_views(rules, matrix, n, 7, 40))[:4],
        "jinx": list(jinx_views(rules, matrix, n, 7, 400))[:4],
        "play": list(play_views(rules, matrix, n, 7, 8)),
    }
    assert views["jinx"]
    for decision, seen in views.items():
        for position, holding, context in seen:
            where = found(n, position, holding, rules, **context)
            assert where.decision == decision
            kernel = simulate_advice(SPEC, rules, matrix, n, where, 2, 0, 25)
            assert kernel == twin_advice(SPEC, rules, matrix, n, where, 2, 0, 25)


# ------------------------------------------------------------------ history as seen (infer)


def seen_found(n, position, holding, rules=None, **context):
    return situation(SPEC, rules or sf.Rules(), n, position, parse_cards(holding), context, "seen")


def test_low_clubs_the_policies_would_not_play_are_read_as_seen():
    """Issue 36: the dealer of 5 after four low clubs.  The seats before it would play
    them by policy almost never (no deal of 400), so the advice had nothing to go on;
    read as seen, they are played as given and every deal fits (clubs led and followed
    is legal from any hand holding them), and the twin gives the same sums."""
    context = {"turnup": "9d", "trick1": "2c 3c 4c 5c"}
    by_policy = found(5, 4, "Ah Kh Qh Jh 10h", **context)
    assert simulate_advice(SPEC, sf.Rules(), policy(5), 5, by_policy, 1, 0, 400)[ACCEPTED] <= 1
    where = seen_found(5, 4, "Ah Kh Qh Jh 10h", **context)
    assert where.infer == "seen" and where.decision == "play"
    kernel = simulate_advice(SPEC, sf.Rules(), policy(5), 5, where, 1, 0, 400)
    assert kernel[ACCEPTED] == kernel[TRIED] == 400
    assert kernel == twin_advice(SPEC, sf.Rules(), policy(5), 5, where, 1, 0, 400)
    assert len({tuple(row) for row in means(kernel, where)}) > 1  # the cards play differently


def test_seen_rejects_a_deal_only_where_a_card_shown_breaks_the_law():
    """Spades trumps, clubs led: seat 1 threw the 3d, so it held no club (follow-or-trump);
    read as seen, a deal giving seat 1 a club is rejected, the others kept.  Under free
    play nothing is shown by the 3d and every deal fits."""
    context = {"turnup": "9s", "trick1": "2c 3d"}
    where = seen_found(4, 2, "Kc 7c Qd 3h 8h", **context)
    kernel = simulate_advice(SPEC, sf.Rules(), policy(4), 4, where, 6, 0, 400)
    assert kernel == twin_advice(SPEC, sf.Rules(), policy(4), 4, where, 6, 0, 400)
    assert 0.2 * 400 < kernel[ACCEPTED] < 0.55 * 400  # about (34/44)^4 of the deals: no club among 4 cards
    free = seen_found(4, 2, "Kc 7c Qd 3h 8h", sf.Rules(plain_lead=FREE), **context)
    assert simulate_advice(SPEC, sf.Rules(plain_lead=FREE), policy(4), 4, free, 6, 0, 200)[ACCEPTED] == 200


@pytest.mark.parametrize("case", ["rob, nothing seen", "rob, the eldest", "rob, the dealer's turned ace"])
def test_seen_is_policy_where_no_history_depends_on_the_policies(case):
    n, position, holding, context = CASES[case]
    a = found(n, position, holding, **context)
    b = seen_found(n, position, holding, **context)
    assert simulate_advice(SPEC, sf.Rules(), mixed(n), n, a, 3, 0, 150) == simulate_advice(
        SPEC, sf.Rules(), mixed(n), n, b, 3, 0, 150
    )


def test_seen_plays_another_seats_jinx_and_rob_as_given():
    """Seat 0 robbed and won tricks 1-3 and played on (so it jinxed): under a policy that
    never jinxes and never robs no deal shows that; read as seen, its rob and jinx are
    played as given and the deals consistent with the cards shown are kept."""
    context = {
        "turnup": "9h",
        "robbed": "0",
        "trick1": "5h 2h 10c",
        "trick2": "Jh 3h 10s",
        "trick3": "Ah 4h 9s",
        "trick4": "Kh",
    }
    matrix = policy(3, jinx_min=3, rob=0)
    assert simulate_advice(SPEC, sf.Rules(), matrix, 3, found(3, 1, "7c 8c", **context), 4, 0, 200)[ACCEPTED] == 0
    where = seen_found(3, 1, "7c 8c", **context)
    kernel = simulate_advice(SPEC, sf.Rules(), matrix, 3, where, 4, 0, 200)
    assert kernel == twin_advice(SPEC, sf.Rules(), matrix, 3, where, 4, 0, 200)
    # Seat 2 threw 10c, 10s and 9s to trump leads: it showed it held no trump, so the deals
    # that give it one are rejected (and only those: seat 1's hand is known).
    assert 0.6 * 200 < kernel[ACCEPTED] < 200
    throw_eight, throw_seven = means(kernel, where)
    assert throw_eight[1] == throw_seven[1] == 0.0  # the jinx goes on: seat 1 cannot take the pool


@pytest.mark.parametrize("n", [3, 6])
@pytest.mark.parametrize("table", ["standard", "ace-low"])
def test_real_views_read_as_seen_keep_at_least_the_policy_deals_and_kernel_equals_twin(n, table):
    """A deal the policies reproduce is a deal consistent with what was seen: seen keeps
    at least as many, and the kernel equals the twin (forfeits and demoted aces too)."""
    rules, matrix = TABLES[table], policy(n)
    if table == "ace-low":
        rules = sf.Rules(unrobbed_ace_low=True, rob=ROB_OBLIGATORY)
        matrix[1::2, FIELDS.index("rob")] = 0
    views = list(jinx_views(rules, matrix, n, 7, 400))[:2] + list(play_views(rules, matrix, n, 7, 6))
    for position, holding, context in views:
        by_policy = found(n, position, holding, rules, **context)
        where = situation(SPEC, rules, n, position, parse_cards(holding), context, "seen")
        kernel = simulate_advice(SPEC, rules, matrix, n, where, 2, 0, 30)
        assert kernel == twin_advice(SPEC, rules, matrix, n, where, 2, 0, 30)
        assert kernel[ACCEPTED] >= simulate_advice(SPEC, rules, matrix, n, by_policy, 2, 0, 30)[ACCEPTED]
        assert kernel[ACCEPTED] > 0  # the real deal fits what was seen, and so do many others


# ------------------------------------------------------------------ the pool (the state of the game)


def test_a_given_pool_ranks_by_the_chance_of_taking_it():
    """With the pool given, a spoiled hand is played on until someone takes the pool:
    pool_win is at least the hand's win on every deal, more on some; pool_net adds the
    later deals' chips.  The advice ranks by pool_win."""
    n, position, holding, context = ROB_EARLY
    where = found(n, position, holding, **{**context, "pool": "30"})
    assert where.outcomes == ("net", "win", "tricks", "pool_win", "pool_net")
    assert where.rank_by == 3 and "pool" not in where.assumed
    sums = simulate_advice(SPEC, sf.Rules(), policy(n), n, where, 9, 0, 300)
    for row in means(sums, where):
        net, win, _, pool_win, pool_net = row
        assert win <= pool_win <= 1 and pool_win > win
        assert pool_net != net
    bare = found(n, position, holding, **context)
    assert bare.outcomes == ("net", "win", "tricks") and bare.rank_by == 0 and "pool" in bare.assumed


@pytest.mark.parametrize(
    "rules",
    [
        sf.Rules(),
        sf.Rules(dealer_extra=2, dealer_extra_every_deal=True, spoil_topup=1, topup_amount=3),
        sf.Rules(spoil_topup=2, jinx_bonus=BONUS_DOUBLE_ANTE, max_deals=2),
    ],
)
@pytest.mark.parametrize("case", ["rob, trick 1 seen", "jinx", "play, leading trick 2"])
def test_the_pool_outcomes_kernel_equals_twin(case, rules):
    n, position, holding, context = CASES[case]
    where = found(n, position, holding, rules, **{**context, "pool": "25"})
    kernel = simulate_advice(SPEC, rules, mixed(n), n, where, 13, 0, 80)
    assert kernel == twin_advice(SPEC, rules, mixed(n), n, where, 13, 0, 80)
    assert kernel[ACCEPTED] > 0


def test_a_pool_stopped_at_max_deals_one_is_the_hand_alone():
    n, position, holding, context = ROB_EARLY
    rules = sf.Rules(max_deals=1)
    where = found(n, position, holding, rules, **{**context, "pool": "30"})
    for row in means(simulate_advice(SPEC, rules, policy(n), n, where, 9, 0, 200), where):
        assert row[3] == row[1] and row[4] == row[0]


# ------------------------------------------------------------------ terms, absent keys, sizes


def test_every_outcome_policy_field_and_context_key_is_defined():
    from sims.games.spoil_five.advice import OUTCOMES, POOL_OUTCOMES

    defined = SPEC.terms()
    for name in OUTCOMES + POOL_OUTCOMES + tuple(FIELDS) + ("infer", "jinx", "sure winner"):
        assert defined[name].strip(), name
    for decision in DECISIONS:
        assert set(decision.absent) == set(decision.context), decision.name


def test_what_was_left_out_is_said():
    where = found(4, 1, "Kc 7c Qd 3h 8s", turnup="9d", trick1="10c")
    assert set(where.assumed) == {"pool", "robbed", "discard"}
    rob = found(5, 2, "Ad 5c Kc 7h 3s", turnup="9d")
    assert set(rob.assumed) == {"trick1", "pool"} and "averages" in rob.assumed["trick1"]


def test_the_largest_outcome_holds_the_largest_pool_in_a_batch():
    """At the largest pool accepted and the largest stakes, one deal's outcomes stay far
    inside int64: a batch of 2**62 // largest**2 deals is millions, no pool is refused."""
    rules = sf.Rules(ante=20, dealer_extra=20, topup_amount=20, spoil_topup=2, max_deals=1000)
    where = found(10, 2, "Ad 5c Kc 7h 3s", rules, turnup="9d", pool=str(10**6))
    assert 10**6 + 1000 * 220 <= where.largest < 1.3 * 10**6
    assert 2**62 // where.largest**2 > 2_000_000
    small = found(10, 2, "Ad 5c Kc 7h 3s", rules, turnup="9d")
    assert small.largest < 1000  # a new pool: 10 antes and the dealer's extra, the bonuses, the stake
