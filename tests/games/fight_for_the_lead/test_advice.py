"""Fight for the Lead advice (sims/games/fight_for_the_lead/advice.py): the kernel equals the
twin on the same deals for every decision, with contexts taken from real hands; stacked
hands where the better action is certain; every refusal; impossible contexts; the
examples."""

from __future__ import annotations

import ast
import shlex
from pathlib import Path

import numpy as np
import pytest

from sims import advice, situations
from sims.core.advice import ACCEPTED, FIRST_SUM, TRIED
from sims.core.cards import format_cards, parse_cards
from sims.games import fight_for_the_lead as ffl
from sims.games.fight_for_the_lead import advice as ffl_advice
from sims.games.fight_for_the_lead import twin as ffl_twin
from sims.registry import GAMES
from tests.games.advice_twin import twin_advice

SPEC = GAMES["fight-for-the-lead"]
FIELDS = [f.key for f in SPEC.policy_fields]
FIGHT_4 = "2c 4d 3h 6s"  # seat 0 .. 3: 2c is the lowest card of any hand, so seat 0's is always its policy's


def policy(n, preset="default", **fields):
    matrix = SPEC.default_policy(n, preset)
    for key, value in fields.items():
        matrix[:, FIELDS.index(key)] = value
    return matrix


def found(n, position, holding, rules=ffl.Rules(), **context):
    return situations.situation(SPEC, rules, n, position, parse_cards(holding), context)


def both(rules, matrix, n, situation, count, seed=11):
    kernel = advice.simulate_advice(SPEC, rules, matrix, n, situation, seed, 0, count)
    twin = twin_advice(SPEC, rules, matrix, n, situation, seed, 0, count)
    return kernel, twin


def mean(flat, situation, candidate, outcome=0):
    at = FIRST_SUM + 2 * (candidate * len(situation.outcomes) + outcome)
    return flat[at] / flat[ACCEPTED]


def square_sum(flat, situation, candidate, outcome=0):
    return flat[FIRST_SUM + 2 * (candidate * len(situation.outcomes) + outcome) + 1]


def real_context(rules, matrix, n, seed, compulsory):
    """A hand dealt from a random pack (played by the twin, stacked): each seat's four cards
    after the replacement, and the fight, turned cards, who plays, the trade order and the
    counts, as a player of it saw them.  None when the replacement reshuffled."""
    cards = [int(c) for c in np.random.default_rng(seed).permutation(52)]
    res = ffl_twin.play_dealt(rules, matrix, n, cards, compulsory=compulsory)
    t = len(res["turned"])
    if 5 * n + t > 52 or sum(res["playing"]) < 2:
        return None
    holdings = []
    for seat in range(n):
        dealt = [cards[k] for k in range(4 * n) if k % n == seat]
        holdings.append([c for c in dealt if c != res["fight"][seat]] + [cards[4 * n + t + seat]])
    playing = [s for s in range(n) if res["playing"][s]]
    start = 0 if rules.trade_order == ffl.TRADE_FROM_DEALER_LEFT else res["leader"]
    order = [(start + i) % n for i in range(n) if (start + i) % n in playing]
    return {
        "holdings": holdings,
        "fight": format_cards(res["fight"]),
        "turned": format_cards(res["turned"]),
        "playing": playing,
        "order": order,
        "traded": res["traded"],
    }


# (rules, n, policy preset and fields, compulsory hand)
TABLES = [
    (ffl.Rules(), 4, ("default", {}), False),
    (ffl.Rules(trade_order=ffl.TRADE_FROM_LEAD_WINNER, all_drop=ffl.REFUND_SPLIT), 5, ("default", {}), False),
    (ffl.Rules(trade_exhaust=ffl.SERVE_UNTIL_EMPTY), 6, ("default", {"keep_min_rank": 14}), True),
    (
        ffl.Rules(trade_exhaust=ffl.CAP_EQUAL, ante=4),
        5,
        ("play-high", {"fight_card": 3, "stay_min_strength": 0}),
        False,
    ),
    (ffl.Rules(trade_in_first_hand=False), 3, ("fight-high", {"stay_min_strength": 2}), False),
    (ffl.Rules(all_drop=ffl.REPLAY_OPTIONAL, fight_exhaust=ffl.ELDEST_GETS_LEAD), 2, ("cautious", {}), False),
]
TABLE_IDS = ["default-4", "lead-trades-first-5", "serve-until-empty-6", "cap-equal-5", "fight-high-3", "cautious-2"]


def later_situations(rules, matrix, n, compulsory):
    """The decisions after the fight in a real hand, for its third trader (the two earlier
    counts conditioned on), from the first of a few random hands whose most conditioned
    situation keeps at least 4 of 200 deals (rejection keeps few deals of many real hands:
    every seat's fight card, stay and count must be its policy's)."""
    hand = "first" if compulsory else "later"
    for seed in range(40):
        seen = real_context(rules, matrix, n, seed, compulsory)
        if seen is None:
            continue
        place = min(2, len(seen["order"]) - 1)
        seat = seen["order"][place]
        holding = format_cards(seen["holdings"][seat])
        later = {"hand": hand, "fight": seen["fight"], "turned": seen["turned"]}
        situations = []
        if not compulsory:
            situations.append(found(n, seat, holding, rules, **later))  # stay or drop
            later["playing"] = " ".join(map(str, seen["playing"]))
        situations.append(found(n, seat, holding, rules, **later))  # trade, earlier counts free
        counts = " ".join(str(seen["traded"][s]) for s in seen["order"][:place])
        situations.append(found(n, seat, holding, rules, traded=counts, **later))
        if advice.simulate_advice(SPEC, rules, matrix, n, situations[-1], 11, 0, 200)[ACCEPTED] >= 4:
            return seat, holding, situations
    raise AssertionError("no real hand of these 40 gives a context that keeps deals")


@pytest.mark.parametrize("rules,n,preset,compulsory", TABLES, ids=TABLE_IDS)
def test_kernel_equals_twin_for_every_decision(rules, n, preset, compulsory):
    matrix = policy(n, preset[0], **preset[1])
    seat, holding, situations = later_situations(rules, matrix, n, compulsory)
    hand = "first" if compulsory else "later"
    fights = [found(n, seat, holding, rules), found(n, seat, holding, rules, hand=hand, pot=str(8 * n))]
    rejected = 0
    for situation in fights + situations:
        kernel, twin = both(rules, matrix, n, situation, 200)
        assert kernel == twin, situation.decision
        assert kernel[TRIED] == 200 and kernel[ACCEPTED] > 0, situation.decision
        if situation.decision == "fight card":
            assert kernel[ACCEPTED] == 200  # nothing is seen before it
        rejected += kernel[TRIED] - kernel[ACCEPTED]
    assert situations[-1].decision == "trade" and situations[0].decision == ("trade" if compulsory else "stay or drop")
    assert rejected > 0


@pytest.mark.parametrize("n,exhaust", [(8, ffl.SERVE_UNTIL_EMPTY), (9, ffl.RESHUFFLE_DISCARDS)])
def test_kernel_equals_twin_for_the_fight_card_at_a_full_table(n, exhaust):
    """Everyone trades all four: the stock runs out (served until empty, or reshuffled)."""
    rules = ffl.Rules(trade_exhaust=exhaust)
    matrix = policy(n, "fight-high", keep_min_rank=15, stay_min_strength=0)
    for context in ({}, {"hand": "first"}):
        situation = found(n, n - 1, "Ac 5d 9h Qs", rules, **context)
        kernel, twin = both(rules, matrix, n, situation, 150)
        assert kernel == twin and kernel[ACCEPTED] == 150
        assert 0 < mean(kernel, situation, 0, 3) < 1


def test_kernel_equals_twin_with_a_policy_per_seat_and_the_examples():
    rng = np.random.default_rng(3)
    n = 4
    matrix = np.column_stack(
        [rng.integers(0, 4, n), rng.integers(0, 4, n), rng.integers(0, 2, n), rng.integers(8, 15, n), [0, 1, 0, 1]]
    ).astype(float)
    for seed in range(40):
        seen = real_context(ffl.Rules(), matrix, n, seed, False)
        if seen and 2 in seen["playing"]:
            break
    holding = format_cards(seen["holdings"][2])
    for context in ({}, {"fight": seen["fight"], "turned": seen["turned"]}):
        situation = found(n, 2, holding, **context)
        kernel, twin = both(ffl.Rules(), matrix, n, situation, 300, seed=4)
        assert kernel == twin and kernel[ACCEPTED] > 0
    for decision in ffl_advice.DECISIONS:
        situation, n = example_situation(decision)
        kernel, twin = both(ffl.Rules(), SPEC.default_policy(n), n, situation, 300)
        assert kernel == twin and 0 < kernel[ACCEPTED] <= kernel[TRIED] == 300


def example_situation(decision):
    words = shlex.split(decision.example)
    assert words[:3] == ["analyze", "advise", "fight-for-the-lead"]
    options = {}
    context = {}
    for flag, value in zip(words[3::2], words[4::2]):
        if flag == "--context":
            key, text = value.split("=", 1)
            context[key] = text
        else:
            options[flag] = value
    n = int(options["--players"])
    situation = found(n, int(options["--position"]), options["--holding"], **context)
    return situation, n


@pytest.mark.parametrize("decision", ffl_advice.DECISIONS, ids=[d.name for d in ffl_advice.DECISIONS])
def test_each_example_is_its_decision(decision):
    situation, n = example_situation(decision)
    assert situation.decision == decision.name
    assert set(decision.context) >= {"hand", "pot"}
    assert len(situation.candidates) == {"fight card": 4, "stay or drop": 2, "trade": 16}[decision.name]


def test_four_aces_stay_and_keep_all_win_the_whole_pot():
    """Four aces win every trick whoever leads: staying (and keeping them) takes the pot."""
    n = 4
    matrix = policy(n)
    stay = found(n, 1, "Ac Ad Ah As", fight=FIGHT_4, turned="9s", pot="16")
    assert stay.candidates == ("stay", "drop")
    flat = advice.simulate_advice(SPEC, ffl.Rules(), matrix, n, stay, 1, 0, 400)
    accepted = flat[ACCEPTED]
    assert 0 < accepted < 400  # seats 2 and 3 laid down their lowest cards: some deals are not kept
    assert mean(flat, stay, 0) == 16 and square_sum(flat, stay, 0) == 16 * 16 * accepted
    assert mean(flat, stay, 0, 1) == 4 and mean(flat, stay, 0, 2) == 0
    assert mean(flat, stay, 1) == 0 and mean(flat, stay, 1, 1) == 0
    trade = found(n, 1, "Ac Ad Ah As", hand="first", fight=FIGHT_4, turned="9s", pot="16", traded="3")
    flat = advice.simulate_advice(SPEC, ffl.Rules(), matrix, n, trade, 2, 0, 1000)
    assert trade.candidates[0] == "keep all" and trade.candidates[-1] == "trade Ac Ad Ah As"
    assert flat[ACCEPTED] > 50
    assert mean(flat, trade, 0) == 16
    assert all(mean(flat, trade, c) < 16 for c in range(1, 16))
    assert mean(flat, trade, 15) < mean(flat, trade, 1)  # giving up all four costs more than one


def test_a_lone_player_takes_the_pot_whatever_it_fights_with():
    """The others never play (their stay policy): the advised seat, always staying, is
    alone and takes the pot with every fight card; the fight is won sometimes."""
    n = 3
    matrix = policy(n, stay_min_strength=9, stay_with_lead=0)
    matrix[0, FIELDS.index("stay_min_strength")] = 0
    situation = found(n, 0, "2c 7d Jh Ks", hand="later", pot="24")
    assert situation.candidates == ("fight 2c", "fight 7d", "fight Jh", "fight Ks")
    assert situation.outcomes == ("net", "tricks", "took_0", "lead")
    kernel, twin = both(ffl.Rules(), matrix, n, situation, 300)
    assert kernel == twin and kernel[ACCEPTED] == kernel[TRIED] == 300
    for c in range(4):
        assert mean(kernel, situation, c) == 24 and mean(kernel, situation, c, 1) == 4
        assert mean(kernel, situation, c, 2) == 0
        assert 0 < mean(kernel, situation, c, 3) < 1
    # the king of spades beats every other spade fought; the 2 of clubs loses to any club
    assert mean(kernel, situation, 3, 3) > mean(kernel, situation, 0, 3)


REFUSALS = [
    ({"holding": "Ac Kc 2d"}, "holds 4 cards"),
    ({"context": {"colour": "red"}}, "unknown context 'colour'"),
    ({"context": {"pot": "lots"}}, "context pot takes a whole number"),
    ({"context": {"pot": "6"}}, "multiple of 4"),
    ({"context": {"hand": "third"}}, "context hand takes first or later"),
    ({"context": {"turned": "9s"}}, "needs fight"),
    ({"context": {"fight": FIGHT_4}}, "needs turned too"),
    ({"context": {"fight": "2c 4d 3h", "turned": "9s"}}, "takes 4 cards"),
    ({"context": {"fight": "2c 4d Ac 6s", "turned": "9s"}}, "which the holding has"),
    ({"context": {"fight": FIGHT_4, "turned": "9s 5d"}}, "the fight stops at 9s"),
    ({"context": {"fight": FIGHT_4, "turned": "Jd 2c"}}, "which is a fight card"),
    ({"context": {"fight": "2c 4c 3c 6c", "turned": "9s"}}, "must have the suit of some fight card"),
    ({"context": {"fight": FIGHT_4, "turned": "9s", "traded": "1"}}, "traded needs playing"),
    ({"context": {"fight": FIGHT_4, "turned": "9s", "playing": "0 x"}}, "takes seat numbers 0..3"),
    ({"context": {"fight": FIGHT_4, "turned": "9s", "playing": "0 2"}}, "leaves out seat 1"),
    ({"context": {"fight": FIGHT_4, "turned": "9s", "playing": "1"}}, "names one seat"),
    ({"context": {"fight": FIGHT_4, "turned": "9s", "playing": "0 1", "hand": "first"}}, "every seat"),
    ({"context": {"fight": FIGHT_4, "turned": "9s", "playing": "0 1", "traded": "2 2"}}, "earlier traders"),
    ({"context": {"fight": FIGHT_4, "turned": "9s", "playing": "0 1", "traded": "7"}}, "whole number 0..4"),
]


@pytest.mark.parametrize("change,words", REFUSALS, ids=[w for _, w in REFUSALS])
def test_refusals_say_what_is_wrong(change, words):
    holding = change.get("holding", "Ac Kc 2d 7h")
    with pytest.raises(ValueError, match=words) as problem:
        found(4, 1, holding, **change.get("context", {}))
    assert str(problem.value).endswith(".")


def test_refusals_of_the_table_and_the_rules():
    with pytest.raises(ValueError, match="not a card of the 52-card pack"):
        ffl_advice.situation(ffl.Rules(), 4, 1, (0, 1, 2, 52), {})
    with pytest.raises(ValueError, match="no trading in a compulsory hand"):
        found(4, 1, "Ac Kc 2d 7h", ffl.Rules(trade_in_first_hand=False), hand="first", fight=FIGHT_4, turned="9s")
    with pytest.raises(ValueError, match="of the 3 players"):
        found(3, 1, "Ac Kc 2d 7h", ffl.Rules(all_drop=ffl.REFUND_SPLIT), pot="8")
    # nine players: 45 cards dealt and replaced leave 7 to turn
    nine = "2c 2d 2h 3c 3d 3h 4c 4d 4h"
    with pytest.raises(ValueError, match="too few for the replacement"):
        found(9, 0, "Ac Kc Qc Jc", fight=nine, turned="5s 6s 7s 8s 9s 10s Js 5c")
    with pytest.raises(ValueError, match="--position takes a seat 0..3"):
        found(4, 4, "Ac Kc 2d 7h")


def test_an_impossible_history_accepts_nothing():
    n = 4
    # seat 0 laid down the ace of spades as its lowest card: a tie of aces goes to the
    # lower suit, so no hand of seat 0 lays it down
    situation = found(n, 1, "Kc Kd Kh Ks", fight="As 4d 3h 6s", turned="9s")
    kernel, twin = both(ffl.Rules(), policy(n), n, situation, 200)
    assert kernel == twin and kernel[TRIED] == 200 and kernel[ACCEPTED] == 0
    # seats 0, 2 and 3 never play; the context says seat 0 plays
    matrix = policy(n, stay_min_strength=9, stay_with_lead=0)
    situation = found(n, 1, "Ac Kc 2d 7h", fight=FIGHT_4, turned="9s", playing="0 1")
    kernel, twin = both(ffl.Rules(), matrix, n, situation, 200)
    assert kernel == twin and kernel[TRIED] == 200 and kernel[ACCEPTED] == 0


def test_threads_and_blocks_give_the_same_sums():
    situation, n = example_situation(ffl_advice.DECISIONS[1])
    matrix = SPEC.default_policy(n)
    one = advice.simulate_advice(SPEC, ffl.Rules(), matrix, n, situation, 9, 0, 3000, threads=1)
    two = advice.simulate_advice(SPEC, ffl.Rules(), matrix, n, situation, 9, 0, 3000, threads=2)
    first = advice.simulate_advice(SPEC, ffl.Rules(), matrix, n, situation, 9, 0, 1000)
    rest = advice.simulate_advice(SPEC, ffl.Rules(), matrix, n, situation, 9, 1000, 2000)
    assert one == two == [a + b for a, b in zip(first, rest)]
    assert 0 < one[ACCEPTED] < one[TRIED] == 3000


def test_no_advice_function_runs_past_80_lines():
    tree = ast.parse(Path(ffl_advice.__file__).read_text(encoding="utf-8"))
    lengths = {
        node.name: node.end_lineno - node.lineno + 1 for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
    }
    assert "advise_nb" in lengths and {name: n for name, n in lengths.items() if n > 80} == {}


# ------------------------------------------------------------------------------ issue 36


def seen(n, position, holding, rules=ffl.Rules(), **context):
    return situations.situation(SPEC, rules, n, position, parse_cards(holding), context, "seen")


def test_a_pot_of_twenty_million_keeps_exact_sums_over_a_whole_batch():
    """The pot of the red team's case: one deal's net reaches 2e7, so its square 4e14;
    the analyzer plays at most 2**62 // largest**2 deals in a batch, and over such a batch
    the kernel's int64 sums are the twin's Python integers, the squares positive (before,
    the analyzer's larger batches overflowed into intervals of zero width)."""
    n = 4
    situation = found(n, 0, "Ac Kc 2d 7h", pot="20000000")
    assert situation.largest == 20_000_000
    batch = 2**62 // situation.largest**2
    assert batch == 11529
    kernel, twin = both(ffl.Rules(), policy(n), n, situation, batch, seed=3)
    assert kernel == twin and kernel[ACCEPTED] == batch
    for c in range(4):
        assert 0 < square_sum(kernel, situation, c) < 2**63
        assert square_sum(kernel, situation, c) % 5_000_000**2 == 0  # every net is a whole number of quarters
        assert abs(mean(kernel, situation, c)) <= situation.largest


def test_largest_is_the_pot_and_the_pot_is_capped_where_a_square_would_overflow():
    n = 4
    assert found(n, 0, "Ac Kc 2d 7h").largest == 4  # pot 4: tricks (4) are the largest outcome
    assert found(n, 1, "Kh 5h 9c 3d", fight=FIGHT_4, turned="9s", pot="400").largest == 400
    trade = found(n, 2, "Ah 9h 5c 3d", hand="first", fight=FIGHT_4, turned="9s", pot="1000")
    assert trade.largest == 1000
    top = found(n, 0, "Ac Kc 2d 7h", pot=str(ffl_advice.ADVICE_POT_LIMIT))
    assert top.largest == 2**30 and top.largest**2 < 2**62
    with pytest.raises(ValueError, match=r"context pot takes at most 1073741824 chips in advice .*overflow"):
        found(n, 0, "Ac Kc 2d 7h", pot=str(2**30 + 4))


def test_hand_mode_stakes_cannot_overflow_its_int64_sums():
    """Hand mode's pot is players x ante, at most 10 x 100 chips, and a hand's net is at
    most the pot: its square times a block of 2**31 hands (sims.engine.MAX_BLOCK) stays in
    int64.  Game mode's net and net_sq are wide (limbs)."""
    from sims.engine import MAX_BLOCK
    from sims.spec import Mode

    n = ffl.MAX_PLAYERS
    rules = ffl.Rules(ante=100)
    pot = n * ffl.ante_for(rules, n)
    assert pot == 1000 and MAX_BLOCK * pot**2 < 2**63
    net = SPEC.outcomes[Mode.HANDS].seat.index("net")
    nets = [row[net] for i in range(40) for row in ffl_twin.play_hand(rules, policy(n), n, 5, i)[0]]
    assert max(abs(v) for v in nets) == pot  # a seat without a trick pays the whole pot, and no more
    assert not SPEC.outcomes[Mode.HANDS].limbs
    assert set(SPEC.outcomes[Mode.GAMES].limbs) == {"net", "net_sq", "finished_net", "finished_net_sq"}


def test_the_fight_card_has_no_seen_history_so_seen_is_policy():
    n = 4
    by_policy = found(n, 0, "Ac Kc 2d 7h", pot="40")
    as_seen = seen(n, 0, "Ac Kc 2d 7h", pot="40")
    assert as_seen.infer == "seen" and by_policy.infer == "policy"
    kernel, twin = both(ffl.Rules(), policy(n), n, as_seen, 300)
    assert kernel == twin == advice.simulate_advice(SPEC, ffl.Rules(), policy(n), n, by_policy, 11, 0, 300)


def test_a_fight_card_the_policy_never_lays_is_answered_as_seen():
    """Seat 3 fought with the ace of spades: under fight_card=lowest no hand lays it down
    (a tie of aces goes to the lower suit), so policy keeps no deal; seen takes it as
    laid and keeps every deal (nothing else was visible)."""
    n = 4
    context = {"fight": "2c 4d 3h As", "turned": "9s"}
    by_policy = found(n, 1, "Kh 5h 9c 3d", **context)
    kernel, twin = both(ffl.Rules(), policy(n), n, by_policy, 200)
    assert kernel == twin and kernel[ACCEPTED] == 0
    as_seen = seen(n, 1, "Kh 5h 9c 3d", **context)
    kernel, twin = both(ffl.Rules(), policy(n), n, as_seen, 200)
    assert kernel == twin and kernel[ACCEPTED] == kernel[TRIED] == 200
    assert as_seen.described["lead"] == 3 and mean(kernel, as_seen, 1) == 0  # dropping costs nothing
    assert mean(kernel, as_seen, 0, 1) > 0  # staying takes tricks sometimes


def test_who_stayed_and_the_earlier_trades_are_played_as_seen():
    """A later hand where seats 0 and 3 stayed although their policy (stay_min_strength 9,
    stay_with_lead 0) never stays: policy keeps no deal; seen forces the stays and the
    earlier traders' counts (seat 0 traded 4: its four lowest, i.e. all), and keeps every
    deal where the stock could serve them."""
    n = 4
    matrix = policy(n, stay_min_strength=9, stay_with_lead=0)
    context = {"fight": FIGHT_4, "turned": "9s", "playing": "0 1 3", "traded": "4"}
    by_policy = found(n, 1, "Ac Kc 2d 7h", **context)
    kernel, twin = both(ffl.Rules(), matrix, n, by_policy, 200)
    assert kernel == twin and kernel[ACCEPTED] == 0
    as_seen = seen(n, 1, "Ac Kc 2d 7h", **context)
    assert as_seen.decision == "trade" and as_seen.described["playing"] == "0 1 3"
    assert as_seen.described["traded"] == "4"
    kernel, twin = both(ffl.Rules(), matrix, n, as_seen, 200)
    assert kernel == twin and kernel[ACCEPTED] == kernel[TRIED] == 200  # 32 cards in the stock serve 4
    # the twin's trader threw exactly its count, and the advised seat's keep-all lost no chips to a short stock
    assert mean(kernel, as_seen, 0, 1) > mean(kernel, as_seen, 15, 1)  # keeping Ac Kc beats trading all


@pytest.mark.parametrize("rules", [ffl.Rules(), ffl.Rules(trade_order=ffl.TRADE_FROM_LEAD_WINNER)])
def test_seen_equals_the_twin_in_situations_met_in_real_hands(rules):
    n = 5
    matrix = policy(n)
    checked = 0
    for seed in range(40):
        real = real_context(rules, matrix, n, seed, compulsory=False)
        if real is None or len(real["playing"]) < 3:
            continue
        seat = real["order"][-1]
        earlier = " ".join(str(real["traded"][s]) for s in real["order"][:-1])
        holding = format_cards(real["holdings"][seat])
        context = {"fight": real["fight"], "turned": real["turned"], "playing": " ".join(map(str, real["playing"]))}
        as_seen = seen(n, seat, holding, rules, traded=earlier, **context)
        kernel, twin = both(rules, matrix, n, as_seen, 60, seed=seed)
        assert kernel == twin and kernel[ACCEPTED] > 0
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_left_out_keys_say_what_was_assumed():
    n = 4
    fight = found(n, 0, "Ac Kc 2d 7h")
    assert fight.assumed == {
        "hand": "a later hand, as the rule sample_hand says",
        "pot": "the pot is 4 chips (players x ante)",
    }
    assert fight.described == {"hand": "later", "pot": 4}
    trade = found(n, 2, "Ah 9h 5c 3d", hand="first", fight="2c 2d 5s 2h", turned="Jd", pot="8")
    assert trade.assumed == {
        "playing": "everyone plays (a compulsory hand)",
        "traded": "the earlier traders' counts were not noticed: they trade by their policies, unseen",
    }
    assert trade.described == {
        "hand": "first",
        "pot": 8,
        "fight": "2c 2d 5s 2h",
        "turned": "Jd",
        "lead": 1,
        "playing": "0 1 2 3",
    }
    first = found(n, 0, "Ah 9h 5c 3d", hand="first", fight="2c 2d 5s 2h", turned="Jd", pot="8")
    assert "traded" not in first.assumed and first.described["playing"] == "0 1 2 3"  # seat 0 trades first
    for decision in ffl_advice.DECISIONS:
        assert set(decision.absent) <= set(decision.context)
        assert {"hand", "pot"} <= set(decision.absent) and all(text for text in decision.absent.values())
    assert set(ffl_advice.DECISIONS[2].absent) == set(ffl_advice.DECISIONS[2].context)


def test_every_outcome_and_policy_term_is_defined():
    terms = SPEC.terms()
    assert set(ffl_advice.OUTCOMES) <= set(terms)
    assert {"fight card", "strength score", "keep_min_rank", "play_style", "infer"} <= set(terms)
    assert all(text.endswith(".") and len(text.split()) >= 6 for text in terms.values())
    assert found(4, 0, "Ac Kc 2d 7h").smaller == ("took_0",)


def test_a_trader_seen_trading_k_cards_throws_its_k_lowest():
    """Stacked (4 seats, dealer 3, a compulsory hand): seat 0 holds 5d 9h Kc and draws 4s
    in the replacement.  Its policy (keep_min_rank 12) trades 4s 5d 9h; seen trading two,
    it throws its two lowest, 4s and 5d, and draws the next two cards, 7s and 8s."""
    from sims.core.rng import Stream

    top = parse_cards("2c 3c 4c 6c 5d Ad Kd Qd 9h Ah Kh Qh Kc As Ks Qs Jc 4s 2d 3d 4d 7s 8s 9s 10s 2h 3h 4h")
    cards = top + [c for c in range(52) if c not in top]
    rows = ffl_twin._prepared(policy(4), 4)
    fights = parse_cards("2c 3c 4c 6c")

    def play(counts):
        force = ffl_twin._Force(1, fight=fights[1], stay=1, discards=(), fights=fights, counts=counts)
        pack = ffl_twin._DealtPack(cards, Stream(0, 0), 52)
        return ffl_twin._play(ffl.Rules(), rows, 4, pack, 3, 16, True, None, force)

    by_policy = play(None)
    assert by_policy["lead"] == 3 and by_policy["traded"][0] == 3
    as_seen = play([2, -1, -1, -1])
    assert as_seen["traded"][0] == 2 and as_seen["traded"][1] == 0
    assert as_seen["held"][0] == sorted(parse_cards("9h Kc 7s 8s"))
