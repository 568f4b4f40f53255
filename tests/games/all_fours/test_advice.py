"""All-Fours advice (sims/games/all_fours/advice.py): the kernel equals the twin on the
same streams, stacked situations whose better action is certain, and every refusal."""

from __future__ import annotations

import shlex

import numpy as np
import pytest

from sims.advice import simulate_advice
from sims.core.advice import ACCEPTED, FIRST_SUM, TRIED, cross_start
from sims.core.cards import parse_cards
from sims.games.all_fours import SPEC, Rules
from sims.games.all_fours.advice import DECISIONS, situation
from sims.games.all_fours.rules import DISCARD_TO_SIX, FOSTER_CLUB, GIFT_THEN_REDEAL, LOW_TO_TRICK_WINNER
from sims.situations import situation as core_situation
from tests.games.advice_twin import twin_advice


def policy(preset="default", **fields):
    """Both seats' policy matrix from a preset; ``fields`` change both seats' values,
    ``e_``/``d_`` prefixes the elder's (seat 0) or the dealer's (seat 1) only."""
    matrix = SPEC.default_policy(2, preset).copy()
    keys = [f.key for f in SPEC.policy_fields]
    for key, value in fields.items():
        seats = (0,) if key.startswith("e_") else (1,) if key.startswith("d_") else (0, 1)
        name = key[2:] if key.startswith(("e_", "d_")) else key
        for seat in seats:
            matrix[seat, keys.index(name)] = value
    return matrix


def found_for(rules, position, holding, **context):
    return core_situation(SPEC, rules, 2, position, parse_cards(holding), {k: str(v) for k, v in context.items()})


class Sums:
    """The flat sums read by name: ``total(c, o)``, ``squares(c, o)``, ``cross(c, d)``."""

    def __init__(self, found, flat):
        self.k = len(found.candidates)
        self.o = len(found.outcomes)
        self.flat = flat
        self.tried, self.accepted = flat[TRIED], flat[ACCEPTED]
        self.names = found.candidates

    def total(self, c, o=0):
        return self.flat[FIRST_SUM + 2 * (c * self.o + o)]

    def squares(self, c, o=0):
        return self.flat[FIRST_SUM + 2 * (c * self.o + o) + 1]

    def cross(self, c, d):
        return self.flat[cross_start(self.k, self.o) + c * self.k + d]

    def best(self):
        return self.names[max(range(self.k), key=self.total)]


def run(rules, pol, found, seed=11, count=400):
    return Sums(found, simulate_advice(SPEC, rules, pol, 2, found, seed, 0, count))


# ---- The kernel equals the twin. ----

CASES = [
    # (rules, policy, position, holding, context)
    (Rules(), policy(), 0, "Ah 7h 3c 9d Qs 4s", {"turnup": "5h"}),
    (Rules(), policy(), 0, "2c 7d 3c 9d Qs 4s", {"turnup": "Jh", "score": "5", "opponent_score": "9"}),
    (Rules(), policy(), 1, "Kd 2d 8c Jc 3h 6s", {"turnup": "9d"}),
    (Rules(), policy(), 1, "Kd 2d 8c Jc 3h 6s", {"turnup": "9d", "score": "10", "opponent_score": "3"}),
    (
        Rules(gift_then=GIFT_THEN_REDEAL, low_to=LOW_TO_TRICK_WINNER),
        policy("play-high"),
        1,
        "5h 6h Ac Kc 2s 3d",
        {"turnup": "Qh"},
    ),
    (Rules(after_run=DISCARD_TO_SIX, bunch=True), policy(bunch_below=6), 0, "2c 3d 4s 5c 6d 7s", {"turnup": "8h"}),
    (Rules(after_run=FOSTER_CLUB), policy("always-run", e_beg_below=6), 1, "Ah Kh 2c 3c 4c 5c", {"turnup": "2s"}),
    (Rules(), policy(), 0, "Jh 10h 2h Ac 10c 5d", {"turnup": "5h", "elder": "stood"}),
    (Rules(), policy("play-high"), 0, "Jh 10h 2h Ac 10c 5d", {"turnup": "3h", "elder": "given", "score": "3"}),
    (
        Rules(low_to=LOW_TO_TRICK_WINNER, game_tie=1),
        policy(d_play_style=1),
        0,
        "2s 3s Kd Qd 9c 8c",
        {"turnup": "4s", "elder": "stood"},
    ),
    (
        Rules(target=7, gift_cannot_win=False),
        policy("always-give"),
        0,
        "Qs Js 2h 3h 4h 5h",
        {"turnup": "6s", "score": "6", "opponent_score": "5"},
    ),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_kernel_equals_twin(case):
    rules, pol, position, holding, context = CASES[case]
    found = found_for(rules, position, holding, **context)
    kernel = simulate_advice(SPEC, rules, pol, 2, found, 3, 100, 300)
    twin = twin_advice(SPEC, rules, pol, 2, found, 3, 100, 300)
    assert kernel == twin
    assert kernel[TRIED] == 300 and kernel[ACCEPTED] > 0
    if found.decision == "beg" or context.get("elder") == "stood":
        assert kernel[ACCEPTED] == kernel[TRIED]  # nothing earlier to match
    else:
        assert kernel[ACCEPTED] < kernel[TRIED]  # the elder's beg or the dealer's gift is matched
    assert len(found.outcomes) == (4 if "score" in context else 3)
    sums = Sums(found, kernel)
    assert len({sums.total(c) for c in range(sums.k)}) > 1  # the candidates play differently


def test_the_give_rejects_deals_where_the_elder_would_stand():
    rules, pol = Rules(), policy()
    found = found_for(rules, 1, "Kd 2d 8c Jc 3h 6s", turnup="9d")
    flat = simulate_advice(SPEC, rules, pol, 2, found, 8, 0, 500)
    assert flat == twin_advice(SPEC, rules, pol, 2, found, 8, 0, 500)
    assert 0 < flat[ACCEPTED] < flat[TRIED] == 500
    # An elder who begs more often is rejected less often, on the same deals.
    wider = simulate_advice(SPEC, rules, policy(e_beg_below=8), 2, found, 8, 0, 500)
    assert flat[ACCEPTED] < wider[ACCEPTED] < 500


def test_the_lead_after_a_gift_rejects_deals_where_the_dealer_would_run():
    rules = Rules()
    found = found_for(rules, 0, "Jh 10h 2h Ac 10c 5d", turnup="5h", elder="given")
    assert found.decision == "lead" and found.candidates[0] == "lead Ac" and len(found.candidates) == 6
    assert dict(found.described)["elder"] == "given"
    flat = simulate_advice(SPEC, rules, policy(), 2, found, 8, 0, 400)
    assert 0 < flat[ACCEPTED] < flat[TRIED] == 400
    always = simulate_advice(SPEC, rules, policy("always-give"), 2, found, 8, 0, 400)
    assert always[ACCEPTED] == 400
    never = simulate_advice(SPEC, rules, policy("always-run"), 2, found, 8, 0, 400)
    assert never[ACCEPTED] == 0


def test_an_elder_that_never_begs_leaves_no_deal_for_the_give():
    rules, pol = Rules(), policy("never-beg")
    found = found_for(rules, 1, "Kd 2d 8c Jc 3h 6s", turnup="9d")
    flat = simulate_advice(SPEC, rules, pol, 2, found, 8, 0, 200)
    assert flat[TRIED] == 200 and flat[ACCEPTED] == 0
    assert flat == twin_advice(SPEC, rules, pol, 2, found, 8, 0, 200)


def test_a_dealer_holding_the_top_clubs_scores_high_and_jack_when_it_gives():
    """Giving keeps clubs trump: the dealer's ace and jack cannot be beaten, so it scores
    High and Jack on every deal, and the elder at least its gift point."""
    rules, pol = Rules(), policy("always-beg")
    found = found_for(rules, 1, "Ac Kc Qc Jc 10c 9c", turnup="2c")
    sums = run(rules, pol, found, count=600)
    assert sums.accepted == sums.tried == 600  # an elder who always begs: nothing rejected
    assert sums.total(0, 1) >= 2 * 600
    assert sums.total(0, 2) >= 600
    assert sums.best() == "give"


# ---- Stacked situations: the better action is certain. ----


def test_begging_to_a_dealer_who_always_gives_is_worth_exactly_one_point():
    """With gift_then=play a gift is a point and then the same hand with the same trump:
    beg - stand is +1 net point on every deal."""
    rules, pol = Rules(), policy("always-give")
    found = found_for(rules, 0, "Ah 7h 3c 9d Qs 4s", turnup="5h")
    sums = run(rules, pol, found)
    n = sums.accepted
    assert n == 400 and found.candidates == ("stand", "beg")
    assert sums.best() == "beg"
    assert sums.total(1) - sums.total(0) == n
    # The difference has no variance: sum (beg - stand)^2 = n.
    assert sums.squares(1) + sums.squares(0) - 2 * sums.cross(0, 1) == n
    assert sums.total(1, 2) == sums.total(0, 2)  # the dealer scores the same either way


def test_an_elder_one_point_short_holding_the_ace_of_trumps_stands_and_wins():
    """Elder at 10 of 11 holding the ace of the turn-up suit: standing, High takes it to 11
    on every deal (net +1, a win); begging makes the dealer run (gift_cannot_win)."""
    rules, pol = Rules(), policy()
    found = found_for(rules, 0, "Ah 2c 3c 4d 5d 6s", turnup="7h", score=10, opponent_score=4)
    assert found.outcomes == ("net_points", "points", "opponent_points", "win")
    sums = run(rules, pol, found)
    n = sums.accepted
    assert n == 400
    assert sums.total(0) == n and sums.squares(0) == n  # stand: net +1 on every deal
    assert sums.total(0, 3) == n  # ... and the game
    assert sums.total(1) < n and sums.total(1, 3) < n  # beg: the run may take the ace's suit away
    assert sums.best() == "stand"


def test_a_dealer_one_point_short_holding_the_ace_of_trumps_gives_and_wins():
    """Dealer at 10 of 11 holding the ace of the turn-up suit: giving keeps that trump and
    High takes the dealer to 11 on every deal (the elder's gift point first: net 0)."""
    rules, pol = Rules(), policy(e_beg_below=15)
    found = found_for(rules, 1, "Ah 2c 3c 4d 5d 6s", turnup="7h", score=10, opponent_score=3)
    sums = run(rules, pol, found)
    n = sums.accepted
    assert n == 400 and found.candidates == ("give", "run")
    assert sums.total(0, 3) == n  # give: the dealer wins every deal
    assert sums.total(0) == 0 and sums.squares(0) == 0  # net 0: the gift, then High
    assert sums.total(0, 1) == n and sums.total(0, 2) == n
    assert 0 < sums.total(1, 3) < n  # run: a new trump, the win is no longer sure


def test_an_elder_holding_the_six_top_trumps_wins_every_trick_whatever_it_leads():
    """A K Q J 10 9 of the trump suit: every lead takes every trick (the dealer must follow
    with a lower trump or has none), so all six candidates score the same on every deal:
    High, Jack and Game to the elder, Low to whoever holds the lowest trump."""
    rules, pol = Rules(), policy()
    found = found_for(rules, 0, "Ah Kh Qh Jh 10h 9h", turnup="2h", elder="stood")
    sums = run(rules, pol, found)
    n = sums.accepted
    assert n == 400 and len(found.candidates) == 6
    for c in range(6):
        assert sums.total(c) == sums.total(0) and sums.squares(c) == sums.squares(0)
        assert all(sums.cross(c, d) == sums.squares(0) for d in range(6))  # equal on every deal
        assert 3 * n < sums.total(c, 1) < 4 * n  # 3 or 4 points a deal, both happen
        assert sums.total(c, 1) + sums.total(c, 2) == 4 * n


def test_a_gift_thrown_in_costs_the_dealer_exactly_one_point():
    """gift_then=redeal: giving scores the elder's point and ends the deal."""
    rules, pol = Rules(gift_then=GIFT_THEN_REDEAL), policy()
    found = found_for(rules, 1, "Kd 2d 8c Jc 3h 6s", turnup="9d")
    sums = run(rules, pol, found)
    n = sums.accepted
    assert 0 < n < 400
    assert (sums.total(0), sums.squares(0), sums.total(0, 1), sums.total(0, 2)) == (-n, n, 0, n)


# ---- Refusals: one sentence each. ----

BAD = [
    (0, "Ah 7h 3c 9d Qs", {"turnup": "5h"}, "holds 6 cards, not 5"),
    (0, "Ah 7h 3c 9d Qs 4s 5s", {"turnup": "5h"}, "holds 6 cards, not 7"),
    (0, "Ah 7h 3c 9d Qs 4s", {}, "needs the turned-up card"),
    (0, "Ah 7h 3c 9d Qs 4s", {"turnup": "5h", "trump": "h"}, "unknown context 'trump'"),
    (0, "Ah 7h 3c 9d Qs 4s", {"turnup": "5x"}, "context turnup"),
    (0, "Ah 7h 3c 9d Qs 4s", {"turnup": "5h 6h"}, "takes 1 card"),
    (0, "Ah 7h 3c 9d Qs 4s", {"turnup": "7h"}, "cannot also be in the holding"),
    (0, "Ah 7h 3c 9d Qs 4s", {"turnup": "5h", "score": "ten"}, "context score takes a whole number 0..10"),
    (1, "Ah 7h 3c 9d Qs 4s", {"turnup": "5h", "opponent_score": "11"}, "0..10, not 11"),
    (0, "Ah 7h 3c 9d Qs 4s", {"turnup": "Jh", "opponent_score": "10"}, "ends before any decision"),
    (1, "Ah 7h 3c 9d Qs 4s", {"turnup": "5h", "opponent_score": "10"}, "the dealer has no choice"),
    (0, "Ah 7h 3c 9d Qs 4s", {"turnup": "5h", "elder": "begged"}, "context elder takes stood or given"),
    (1, "Ah 7h 3c 9d Qs 4s", {"turnup": "5h", "elder": "stood"}, "only the give or run after a beg"),
    (0, "Ah 7h 3c 9d Qs 4s", {"turnup": "5h", "elder": "given", "score": "10"}, "the dealer has no choice"),
    (0, "Ah 7h 3c 9d Qs 4s 5s", {"turnup": "5h", "elder": "stood"}, "lead decision the seat holds 6 cards"),
]


@pytest.mark.parametrize("position, holding, context, piece", BAD, ids=[b[3] for b in BAD])
def test_refusals(position, holding, context, piece):
    with pytest.raises(ValueError, match=piece) as error:
        core_situation(SPEC, Rules(), 2, position, parse_cards(holding), context)
    assert str(error.value).endswith(".")


def test_refusals_of_the_table():
    holding = tuple(parse_cards("Ah 7h 3c 9d Qs 4s"))
    with pytest.raises(ValueError, match="exactly 2 players, not 3"):
        situation(Rules(), 3, 0, holding, {"turnup": "5h"})
    with pytest.raises(ValueError, match="seat 0 .* or 1 .*, not 2"):
        situation(Rules(), 2, 2, holding, {"turnup": "5h"})
    with pytest.raises(ValueError, match="not in the 52-card pack"):
        situation(Rules(), 2, 0, holding[:5] + (52,), {"turnup": "5h"})
    with pytest.raises(ValueError, match="names a card twice"):
        situation(Rules(), 2, 0, holding[:5] + holding[:1], {"turnup": "5h"})
    # The same dealer one short may be given the point when gift_cannot_win is off.
    found = situation(Rules(gift_cannot_win=False), 2, 1, holding, {"turnup": "5h", "opponent_score": "10"})
    assert found.candidates == ("give", "run")
    # ... and then a gift that takes the elder to the target leaves no lead.
    with pytest.raises(ValueError, match="ends before the lead"):
        situation(Rules(gift_cannot_win=False), 2, 0, holding, {"turnup": "5h", "elder": "given", "score": "10"})
    # A lower target lowers the scores allowed.
    with pytest.raises(ValueError, match="0..6, not 7"):
        situation(Rules(target=7), 2, 0, holding, {"turnup": "5h", "score": "7"})


def test_the_situation_describes_the_context():
    found = found_for(Rules(), 1, "Kd 2d 8c Jc 3h 6s", turnup="9d", score=3)
    assert found.decision == "give"
    assert dict(found.described) == {"turnup": "9d", "score": 3, "opponent_score": 0, "elder": "begged"}
    assert found.outcomes[0] == "net_points" and found.scale == (1, 1, 1, 1)
    assert found.lower_is_better is False
    # What was left out is said, in words: the opponent's score and the elder's beg.
    assert set(found.assumed) == {"opponent_score", "elder"}
    assert "begged" in found.assumed["elder"]
    assert found.rank_by == found.outcomes.index("win") and found.smaller == ("opponent_points",)
    assert found.largest == 11  # the target: no seat scores more in one deal
    # No score given: the state of the game is unknown, so no win and points rank.
    bare = found_for(Rules(target=7), 0, "Kd 2d 8c Jc 3h 6s", turnup="9d")
    assert bare.outcomes == ("net_points", "points", "opponent_points") and bare.rank_by == 0
    assert set(bare.assumed) == {"score", "opponent_score"} and bare.largest == 7


def test_every_outcome_policy_term_and_context_key_is_defined():
    """TERMS defines every advice outcome and the policy terms a user meets; every
    context key of every decision says what leaving it out means."""
    from sims.games.all_fours.rules import ADVICE_OUTCOMES

    defined = SPEC.terms()
    for name in ADVICE_OUTCOMES + ("trump-strength score", "beg_below", "give_at_least", "play_style=greedy"):
        assert defined[name].strip()
    assert "ace 4, the king 3" in defined["trump-strength score"]
    for decision in DECISIONS:
        assert set(decision.absent) == set(decision.context), decision.name


# ---- The game at stake: a score ranks by the chance of winning the game. ----


def test_at_eight_to_ten_the_points_tie_but_standing_wins_the_game_more_often():
    """Issue 36: the elder at 8 against 10 (game to 11).  Standing and begging score the
    same points in the deal on average, but standing wins the game about 24% of the time
    and begging about 16%: the advice ranks by the win."""
    from analyzer.strategy.advice import estimates

    rules, pol = Rules(), policy()
    found = found_for(rules, 0, "Jh 9h Ac As 7d 3c", turnup="4h", score=8, opponent_score=10)
    assert found.outcomes[found.rank_by] == "win"
    flat = simulate_advice(SPEC, rules, pol, 2, found, 0, 0, 4000)
    assert flat[ACCEPTED] == 4000
    by_win, best = estimates(flat, found)  # ranked by found.rank_by: the win
    assert best == "stand"
    beg = by_win[1]
    assert beg.action == "beg" and -0.12 < beg.diff < -2 * beg.diff_se < 0
    stand_win, beg_win = by_win[0].outcomes["win"][0], beg.outcomes["win"][0]
    assert 0.20 < stand_win < 0.28 and 0.12 < beg_win < 0.20
    by_points, _ = estimates(flat, found, rank=0)
    worse = [option for option in by_points if option.diff_se == option.diff_se and option.diff_se > 0]
    assert len(worse) == 1 and abs(worse[0].diff) < 2 * worse[0].diff_se  # the points of the deal tie


def test_a_won_deal_is_a_won_game_and_the_game_goes_on_after_a_deal_nobody_wins():
    """win counts the deals after the advised one: an elder at 0-0 wins some games although
    nobody reaches 11 in the first deal; at 10 holding the ace of trumps it always wins."""
    rules, pol = Rules(), policy()
    found = found_for(rules, 0, "Ah 7h 3c 9d Qs 4s", turnup="5h", score=0)
    sums = run(rules, pol, found, count=300)
    assert 0 < sums.total(0, 3) < 300 and 0 < sums.total(1, 3) < 300
    assert sums.total(0, 3) != sums.total(1, 3)
    won = found_for(rules, 0, "Ah 2c 3c 4d 5d 6s", turnup="7h", score=10)
    assert run(rules, pol, won, count=100).total(0, 3) == 100


# ---- History as seen (infer). ----


@pytest.mark.parametrize(
    "position, holding, context",
    [
        (1, "Kd 2d 8c Jc 3h 6s", {"turnup": "9d"}),
        (0, "Jh 10h 2h Ac 10c 5d", {"turnup": "5h", "elder": "given", "score": "3"}),
    ],
)
def test_seen_plays_the_beg_or_gift_as_given_and_keeps_every_deal(position, holding, context):
    """Under a policy that never begs (or always runs) no deal shows the beg (or gift) the
    seat saw; read as seen, the action is played as given and every deal is kept."""
    rules = Rules()
    pol = policy("never-beg") if position == 1 else policy("always-run")
    by_policy = core_situation(SPEC, rules, 2, position, parse_cards(holding), context)
    assert simulate_advice(SPEC, rules, pol, 2, by_policy, 5, 0, 100)[ACCEPTED] == 0
    found = core_situation(SPEC, rules, 2, position, parse_cards(holding), context, infer="seen")
    assert found.infer == "seen"
    kernel = simulate_advice(SPEC, rules, pol, 2, found, 5, 0, 150)
    assert kernel == twin_advice(SPEC, rules, pol, 2, found, 5, 0, 150)
    assert kernel[ACCEPTED] == kernel[TRIED] == 150


def test_seen_equals_policy_where_nothing_before_the_decision_depends_on_the_policies():
    rules, pol = Rules(), policy()
    holding = parse_cards("Ah 7h 3c 9d Qs 4s")
    for context in ({"turnup": "5h"}, {"turnup": "5h", "elder": "stood"}):
        a = core_situation(SPEC, rules, 2, 0, holding, context)
        b = core_situation(SPEC, rules, 2, 0, holding, context, infer="seen")
        assert simulate_advice(SPEC, rules, pol, 2, a, 2, 0, 200) == simulate_advice(SPEC, rules, pol, 2, b, 2, 0, 200)


@pytest.mark.parametrize("decision", DECISIONS, ids=[d.name for d in DECISIONS])
def test_each_example_parses(decision):
    words = shlex.split(decision.example)
    assert words[:3] == ["analyze", "advise", "all-fours"]
    options: dict[str, list[str]] = {}
    for flag, value in zip(words[3::2], words[4::2]):
        options.setdefault(flag, []).append(value)
    context = dict(item.split("=", 1) for item in options.get("--context", []))
    found = core_situation(
        SPEC,
        Rules(),
        int(options["--players"][0]),
        int(options["--position"][0]),
        parse_cards(options["--holding"][0]),
        context,
    )
    assert found.decision == decision.name
    assert set(context) <= set(decision.context)
    sums = run(Rules(), SPEC.default_policy(2), found, count=200)
    assert sums.accepted > 50
    assert np.isfinite(sums.total(0))
