"""Tests of the plain-Python twin of Fan Tan (sims.games.fan_tan.twin) alone.

The stacked deals below are checked turn by turn against sequences derived by hand from
the rules contract (the package docstring of sims/games/fan_tan); the random deals check
the stream's draw order and every law a deal must obey (the deal, legal play, the styles,
passes, chips).  No Numba kernel is run.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import sims.games.fan_tan.twin as twin
from sims.core.cards import card_name, parse_cards
from sims.core.deck import deal_prefix
from sims.core.rng import Stream
from sims.games.fan_tan.rules import (
    FEWER_CARDS_PAY_EXTRA,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    LENGTH_BUCKET_LOW,
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
    Rules,
    hand_sizes,
)
from sims.games.fan_tan.twin import game_results, hand_result, play_dealt, play_game, play_hand, replay_lines, simulate

HANDS, GAMES = 0, 1
HS = {name: i for i, name in enumerate(HAND_OUTCOMES.seat)}
HT = {name: i for i, name in enumerate(HAND_OUTCOMES.table)}
GS = {name: i for i, name in enumerate(GAME_OUTCOMES.seat)}
GT = {name: i for i, name in enumerate(GAME_OUTCOMES.table)}
PASS = -1


def policy(n, style=STYLE_FIRST, pass_with_sevens=0, seats=None):
    """n rows of (style, pass_with_sevens); ``seats`` maps a seat to its own (style, pws)."""
    rows = [[style, pass_with_sevens] for _ in range(n)]
    for seat, row in (seats or {}).items():
        rows[seat] = list(row)
    assert [f.key for f in POLICY_FIELDS] == ["style", "pass_with_sevens"]
    return np.array(rows, dtype=np.float64)


def c(text):
    (code,) = parse_cards(text)
    return code


def stack(hands, dealer=None):
    """The 52-card stacked pack that deals ``hands`` (seat order) one card at a time from
    the dealer's left, each hand's cards in the order given."""
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    queues = [list(h) for h in hands]
    pack = [queues[(dealer + 1 + k) % n].pop(0) for k in range(52)]
    assert all(not q for q in queues) and sorted(pack) == list(range(52))
    return pack


def random_rules(rng):
    return Rules(
        ante=rng.choice([0, 1, 2, 5, 20]),
        uneven_ante=rng.randint(0, 2),
        start=rng.randint(0, 2),
        settle=rng.randint(0, 2),
        may_pass_when_able=rng.random() < 0.5,
        eight_before_six=rng.random() < 0.5,
        pass_fee=rng.choice([0, 1, 3]),
        card_fee=rng.choice([0, 1, 2]),
    )


def random_policy(rng, n):
    return np.array([[rng.randint(0, 4), rng.randint(0, 1)] for _ in range(n)], dtype=np.float64)


# ----------------------------------------------------------------------------------------
# An independent statement of the contract's laws, used to check every deal


class Layout:
    """The layout as the low and high face of each suit's row (None: no 7 yet)."""

    def __init__(self):
        self.low = [None] * 4
        self.high = [None] * 4

    def copy(self):
        other = Layout()
        other.low, other.high = list(self.low), list(self.high)
        return other

    def legal(self, ebs):
        out = []
        for suit in range(4):
            lo, hi = self.low[suit], self.high[suit]
            if lo is None:
                out.append(suit * 13 + 6)
                continue
            if hi < 12:
                out.append(suit * 13 + hi + 1)
            if lo > 0 and not (ebs and lo == 6 and hi < 7):
                out.append(suit * 13 + lo - 1)
        return sorted(out)

    def add(self, card):
        suit, face = divmod(card, 13)
        if face == 6:
            assert self.low[suit] is None
            self.low[suit] = self.high[suit] = 6
        elif face > 6:
            assert self.high[suit] == face - 1
            self.high[suit] = face
        else:
            assert self.low[suit] == face + 1
            self.low[suit] = face


def own_unlocked(layout, card, hand, ebs):
    after = layout.copy()
    after.add(card)
    return len((set(after.legal(ebs)) - set(layout.legal(ebs))) & (set(hand) - {card}))


def expected_choice(style, playable, hand, layout, ebs, stream):
    if len(playable) == 1:
        return playable[0]
    if style == STYLE_FIRST:
        return min(playable)
    if style == STYLE_RANDOM:
        return sorted(playable)[stream.below(len(playable))]
    if style == STYLE_HOLD_SEVENS:
        others = [x for x in playable if x % 13 != 6]
        return min(others) if others else min(playable)
    if style == STYLE_BLOCK:
        candidates = sorted(x for x in playable if x % 13 not in (5, 7)) or sorted(playable)
        opening = [x for x in candidates if own_unlocked(layout, x, hand, ebs) > 0]
        return opening[0] if opening else candidates[0]
    assert style == STYLE_GREEDY_UNLOCK
    return max(sorted(playable), key=lambda x: (own_unlocked(layout, x, hand, ebs), -x))


def check_deal(res, rules, pol, n, dealer, stream):
    """Every law of one deal (a play_dealt result), replayed independently: the deal, the
    opening, the turn order, legal plays, each style's choice (the random style drawing
    from ``stream``), forced and voluntary passes, the end, the chips.  Returns the
    longest run of consecutive passes."""
    ebs = bool(rules.eight_before_six)
    chips = rules.settle != SETTLE_CARD_COUNT
    sizes = hand_sizes(n)
    for k in range(n):
        assert len(res["hands"][(dealer + 1 + k) % n]) == sizes[k]
    assert all(h == sorted(h) for h in res["hands"])
    assert sorted(x for h in res["hands"] for x in h) == list(range(52))
    hands = [set(h) for h in res["hands"]]
    holder = {x: s for s in range(n) for x in hands[s]}
    styles = [int(row[0]) for row in pol]
    pws = [int(row[1]) for row in pol]
    layout = Layout()
    paid = [0] * n
    received = [0] * n
    passes = [0] * n
    pot = 0
    if chips:
        uneven = sizes[0] != sizes[-1]
        for k in range(n):
            seat = (dealer + 1 + k) % n
            extra = uneven and (
                (rules.uneven_ante == FEWER_CARDS_PAY_EXTRA and sizes[k] == sizes[-1])
                or (rules.uneven_ante == MORE_CARDS_PAY_EXTRA and sizes[k] == sizes[0])
            )
            paid[seat] += rules.ante + (1 if extra else 0)
            pot += rules.ante + (1 if extra else 0)
    plays = res["plays"]
    assert res["turns"] == len(plays) >= 1
    if rules.start == START_ELDEST:
        seat, first = (dealer + 1) % n, 0
    else:
        seven = c("7d") if rules.start == START_HOLDER_7D else c("7h")
        assert plays[0] == (holder[seven], seven)
        hands[holder[seven]].discard(seven)
        layout.add(seven)
        seat, first = (holder[seven] + 1) % n, 1
    streak = longest = 0
    voluntary = set(res["voluntary"])
    assert all(plays[i][1] == PASS for i in voluntary)
    for i in range(first, len(plays)):
        who, card = plays[i]
        assert who == seat
        assert all(hands[s] for s in range(n))  # nobody went out before this turn
        playable = [x for x in layout.legal(ebs) if x in hands[seat]]
        may_pass = (
            rules.may_pass_when_able
            and pws[seat] == 1
            and playable
            and all(x % 13 == 6 for x in playable)
            and streak < n - 1
        )
        if card == PASS:
            passes[seat] += 1
            streak += 1
            if i in voluntary:
                assert may_pass
                if chips:
                    paid[seat] += 3
                    pot += 3
                    for x in hands[seat]:
                        if x % 13 == 6:
                            for neighbour in (x - 1, x + 1):
                                if holder[neighbour] != seat:
                                    paid[seat] += 5
                                    received[holder[neighbour]] += 5
            else:
                assert not playable
                if chips:
                    paid[seat] += rules.pass_fee
                    pot += rules.pass_fee
        else:
            assert not may_pass  # pass_with_sevens passes whenever it may
            assert card in playable
            assert card == expected_choice(styles[seat], playable, hands[seat], layout, ebs, stream)
            hands[seat].discard(card)
            layout.add(card)
            streak = 0
        longest = max(longest, streak)
        seat = (seat + 1) % n
    winner = res["winner"]
    assert plays[-1][0] == winner and plays[-1][1] != PASS and not hands[winner]
    assert res["cards_left"] == [len(h) for h in hands]
    assert res["passes"] == passes
    assert len(voluntary) <= sum(passes)
    if not rules.may_pass_when_able:
        assert not voluntary
    if chips:
        if rules.settle == SETTLE_POT_PLUS_CARDS:
            for s in range(n):
                paid[s] += rules.card_fee * len(hands[s])
                pot += rules.card_fee * len(hands[s])
        received[winner] += pot
        assert res["pot"] == pot
        assert res["paid"] == paid and res["received"] == received
        assert res["net"] == [received[s] - paid[s] for s in range(n)]
        assert sum(res["net"]) == 0
    else:
        assert res["pot"] == 0 and res["paid"] == res["received"] == res["net"] == [0] * n
    # the deal always ends; without voluntary passes no more than n-1 passes in a row
    assert longest <= (n - 1 if not voluntary else 2 * n - 2)
    return longest


# ----------------------------------------------------------------------------------------
# The layout and the unlocking rule


def test_legal_cards_and_unlocks():
    assert twin.legal_cards(set(), False) == [c("7c"), c("7d"), c("7h"), c("7s")]
    table = {c("7c"), c("8c"), c("9c"), c("7h"), c("6h")}
    assert twin.legal_cards(table, False) == sorted([c("6c"), c("10c"), c("7d"), c("5h"), c("8h"), c("7s")])
    assert twin.legal_cards(table, True) == sorted([c("6c"), c("10c"), c("7d"), c("5h"), c("8h"), c("7s")])
    assert twin.legal_cards({c("7c")}, True) == [c("8c"), c("7d"), c("7h"), c("7s")]
    full_low = {c(f"{f}s") for f in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")}
    assert twin.legal_cards(full_low, False) == [c("7c"), c("7d"), c("7h"), c("Ks")]
    assert twin.unlocks(c("7c"), set(), False) == {c("6c"), c("8c")}
    assert twin.unlocks(c("7c"), set(), True) == {c("8c")}
    assert twin.unlocks(c("8c"), {c("7c")}, True) == {c("6c"), c("9c")}
    assert twin.unlocks(c("8c"), {c("7c")}, False) == {c("9c")}
    assert twin.unlocks(c("2d"), {c(x) for x in ("7d", "6d", "5d", "4d", "3d")}, False) == {c("Ad")}
    assert twin.unlocks(c("Ad"), {c(x) for x in ("7d", "6d", "5d", "4d", "3d", "2d")}, False) == set()


# ----------------------------------------------------------------------------------------
# Literal stacked deals, derived by hand

# Seat s holds the whole of suit s (clubs, diamonds, hearts, spades).
SUITS_HANDS = [[suit * 13 + f for f in range(13)] for suit in range(4)]
DEAL_SUITS = stack(SUITS_HANDS)
DOWN_THEN_UP = [6, 5, 4, 3, 2, 1, 0, 7, 8, 9, 10, 11, 12]  # first: the 7, 6 .. A (lower codes), 8 .. K


def test_deal_suits_is_dealt_one_card_at_a_time_from_the_dealers_left():
    assert DEAL_SUITS[:5] == [c("Ac"), c("Ad"), c("Ah"), c("As"), c("2c")]
    res = play_dealt(Rules(), policy(4), 4, DEAL_SUITS)
    assert res["hands"] == SUITS_HANDS
    res = play_dealt(Rules(), policy(4), 4, DEAL_SUITS, dealer=1)  # seat 2 gets the first card
    assert res["hands"] == [SUITS_HANDS[2], SUITS_HANDS[3], SUITS_HANDS[0], SUITS_HANDS[1]]


def test_deal_suits_first_style():
    log = []
    res = play_dealt(Rules(), policy(4), 4, DEAL_SUITS, log=log)
    # every seat plays its own suit each turn, 7 first, then down to the A, then up to the K;
    # seat 0 plays its 13th card on turn 49
    assert res["plays"] == [(t % 4, (t % 4) * 13 + DOWN_THEN_UP[t // 4]) for t in range(49)]
    assert res["winner"] == 0 and res["turns"] == 49 and res["voluntary"] == []
    assert res["cards_left"] == [0, 1, 1, 1] and res["passes"] == [0, 0, 0, 0]
    # antes 4 x 2, then three losers pay 1 for their last card: pot 11
    assert res["pot"] == 11 and res["paid"] == [2, 3, 3, 3] and res["received"] == [11, 0, 0, 0]
    assert res["net"] == [9, -3, -3, -3]
    check_deal(res, Rules(), policy(4), 4, 3, Stream(0, 0))
    assert "turn 1: seat 0 plays 7c (12 left)" in log and "turn 49: seat 0 plays Kc (0 left)" in log
    # hold-sevens and block play the same here (block: 6 and 8 are the only candidates, and
    # the lower card that unlocks one of its own is the first in code order)
    for style in (STYLE_HOLD_SEVENS, STYLE_BLOCK):
        assert play_dealt(Rules(), policy(4, style), 4, DEAL_SUITS) == res
    # greedy-unlock: the 6 and the 8 unlock one card each (6 first in code order) down to the
    # 2; then the A unlocks nothing and the 8 its 9: up to the Q, then A (tied 0 with K) and K
    greedy = play_dealt(Rules(), policy(4, STYLE_GREEDY_UNLOCK), 4, DEAL_SUITS)
    order = [6, 5, 4, 3, 2, 1, 7, 8, 9, 10, 11, 0, 12]
    assert greedy["plays"] == [(t % 4, (t % 4) * 13 + order[t // 4]) for t in range(49)]
    assert {k: v for k, v in greedy.items() if k != "plays"} == {k: v for k, v in res.items() if k != "plays"}
    # pass_with_sevens without may_pass_when_able changes nothing
    assert play_dealt(Rules(), policy(4, pass_with_sevens=1), 4, DEAL_SUITS) == res


def test_deal_suits_settlements_and_dealer():
    res = play_dealt(Rules(settle=SETTLE_POT_ONLY, ante=3), policy(4), 4, DEAL_SUITS)
    assert res["pot"] == 12 and res["net"] == [9, -3, -3, -3] and res["paid"] == [3, 3, 3, 3]
    res = play_dealt(Rules(card_fee=4), policy(4), 4, DEAL_SUITS)
    assert res["pot"] == 8 + 12 and res["net"] == [18, -6, -6, -6]
    res = play_dealt(Rules(settle=SETTLE_CARD_COUNT), policy(4), 4, DEAL_SUITS)
    assert res["winner"] == 0 and res["cards_left"] == [0, 1, 1, 1]
    assert res["pot"] == 0 and res["net"] == res["paid"] == res["received"] == [0, 0, 0, 0]
    # dealer 1: seat 2 holds clubs and is eldest; it goes out on turn 49
    res = play_dealt(Rules(), policy(4), 4, DEAL_SUITS, dealer=1)
    assert res["plays"][:4] == [(2, c("7c")), (3, c("7d")), (0, c("7h")), (1, c("7s"))]
    assert res["winner"] == 2 and res["turns"] == 49 and res["cards_left"] == [1, 1, 0, 1]
    assert res["net"] == [-3, -3, 9, -3]


def test_deal_suits_eight_before_six():
    rules = Rules(eight_before_six=True)
    res = play_dealt(rules, policy(4), 4, DEAL_SUITS)
    # the 8 must come first: 7, 8, then 6 (code before 9) down to the A, then 9 .. K
    order = [6, 7, 5, 4, 3, 2, 1, 0, 8, 9, 10, 11, 12]
    assert res["plays"] == [(t % 4, (t % 4) * 13 + order[t // 4]) for t in range(49)]
    assert res["winner"] == 0 and res["net"] == [9, -3, -3, -3]
    check_deal(res, rules, policy(4), 4, 3, Stream(0, 0))


def test_deal_suits_holder_7d_opens():
    rules = Rules(start=START_HOLDER_7D)
    res = play_dealt(rules, policy(4), 4, DEAL_SUITS)
    # seat 1 opens with 7d, then seats 2, 3, 0, 1, ...; seat 1 goes out on turn 49
    assert res["plays"] == [((1 + t) % 4, ((1 + t) % 4) * 13 + DOWN_THEN_UP[t // 4]) for t in range(49)]
    assert res["winner"] == 1 and res["cards_left"] == [1, 0, 1, 1] and res["net"] == [-3, 9, -3, -3]
    check_deal(res, rules, policy(4), 4, 3, Stream(0, 0))
    res = play_dealt(Rules(start=START_HOLDER_7H), policy(4), 4, DEAL_SUITS)
    assert res["plays"][:3] == [(2, c("7h")), (3, c("7s")), (0, c("7c"))] and res["winner"] == 2


def test_deal_suits_random_seat_draws_from_stream_0_0():
    pol = policy(4, seats={0: (STYLE_RANDOM, 0)})
    res = play_dealt(Rules(), pol, 4, DEAL_SUITS)
    # seat 0's choice is the next club down (lower code, index 0) or up (index 1)
    stream = Stream(0, 0)
    low = high = 6
    expected = []
    for t in range(49):
        seat = t % 4
        if seat:
            expected.append((seat, seat * 13 + DOWN_THEN_UP[t // 4]))
            continue
        if t == 0:
            expected.append((0, c("7c")))  # one playable card: no draw
            continue
        options = ([low - 1] if low > 0 else []) + ([high + 1] if high < 12 else [])
        face = options[stream.below(2)] if len(options) == 2 else options[0]
        if face < 6:
            low = face
        else:
            high = face
        expected.append((0, face))
    assert res["plays"] == expected and res["winner"] == 0
    assert sorted(card for _, card in res["plays"][0::4]) == list(range(13))
    assert res["plays"] != play_dealt(Rules(), policy(4), 4, DEAL_SUITS)["plays"]  # the draws mattered


def test_deal_suits_voluntary_passes_without_holders():
    rules = Rules(may_pass_when_able=True)
    pol = policy(4, seats={1: (STYLE_FIRST, 1)})
    res = play_dealt(rules, pol, 4, DEAL_SUITS)
    # seat 1's only playable card is its 7d and a play always came just before: it passes
    # every turn (3 chips; its own 6d and 8d cost nothing) while seat 0 goes out on turn 49
    assert res["voluntary"] == list(range(1, 46, 4))
    assert res["plays"][1::4] == [(1, PASS)] * 12
    assert res["plays"][0::4] == [(0, f) for f in DOWN_THEN_UP]
    assert res["winner"] == 0 and res["cards_left"] == [0, 13, 1, 1] and res["passes"] == [0, 12, 0, 0]
    assert res["pot"] == 8 + 36 + 15 and res["paid"] == [2, 2 + 36 + 13, 3, 3]
    assert res["net"] == [57, -51, -3, -3]
    check_deal(res, rules, pol, 4, 3, Stream(0, 0))


# Seat 3 holds the four 7s: the others pass until their suit is open.
SEVENS_HANDS = [
    parse_cards("Ac 2c 3c 4c 5c 6c 8c 9c 10c Jc Qc Kc Ks"),
    parse_cards("Ad 2d 3d 4d 5d 6d 8d 9d 10d Jd Qd Kd Qs"),
    parse_cards("Ah 2h 3h 4h 5h 6h 8h 9h 10h Jh Qh Kh Js"),
    parse_cards("7c 7d 7h 7s As 2s 3s 4s 5s 6s 8s 9s 10s"),
]
DEAL_SEVENS = stack(SEVENS_HANDS)


def test_deal_sevens_forced_passes():
    res = play_dealt(Rules(), policy(4), 4, DEAL_SEVENS)
    opening = [
        (0, PASS),
        (1, PASS),
        (2, PASS),
        (3, c("7c")),
        (0, c("6c")),
        (1, PASS),
        (2, PASS),
        (3, c("7d")),
        (0, c("5c")),
        (1, c("6d")),
        (2, PASS),
        (3, c("7h")),
        (0, c("4c")),
        (1, c("5d")),
        (2, c("6h")),
        (3, c("7s")),
    ]
    rest = []
    for k in range(9):
        rest += [
            (0, parse_cards("3c 2c Ac 8c 9c 10c Jc Qc Kc")[k]),
            (1, parse_cards("4d 3d 2d Ad 8d 9d 10d Jd Qd")[k]),
            (2, parse_cards("5h 4h 3h 2h Ah 8h 9h 10h Jh")[k]),
            (3, parse_cards("6s 5s 4s 3s 2s As 8s 9s 10s")[k]),
        ]
    assert res["plays"] == opening + rest
    assert res["winner"] == 3 and res["turns"] == 52 and res["voluntary"] == []
    assert res["cards_left"] == [1, 2, 3, 0] and res["passes"] == [1, 2, 3, 0]
    # pot: antes 8, pass fees 6, cards 6
    assert res["pot"] == 20 and res["paid"] == [4, 6, 8, 2] and res["received"] == [0, 0, 0, 20]
    assert res["net"] == [-4, -6, -8, 18]
    check_deal(res, Rules(), policy(4), 4, 3, Stream(0, 0))
    # seat 3's playable cards are all sevens until 7s is down: hold-sevens plays the same
    assert play_dealt(Rules(), policy(4, seats={3: (STYLE_HOLD_SEVENS, 0)}), 4, DEAL_SEVENS) == res
    res = play_dealt(Rules(pass_fee=2, card_fee=0), policy(4), 4, DEAL_SEVENS)
    assert res["pot"] == 8 + 12 and res["net"] == [-4, -6, -8, 18]


def test_deal_sevens_voluntary_passes_pay_the_holders():
    rules = Rules(may_pass_when_able=True)
    pol = policy(4, seats={3: (STYLE_FIRST, 1)})
    res = play_dealt(rules, pol, 4, DEAL_SEVENS)
    plays = res["plays"]
    # turn 4: three passes before it, seat 3 must play (7c).  Then while seat 0 plays its
    # clubs (turns 5..49) seat 3 holds back 7d 7h 7s (turns 8..52: 3 + 10 to seat 1 for 6d
    # and 8d + 10 to seat 2 for 6h and 8h; its own 6s and 8s cost nothing).  Turns 50..55
    # are six passes in a row (2n - 2), so on turn 56 seat 3 must play 7d; then it holds back 7h 7s
    # while seat 1 plays its diamonds (turns 60..104, 3 + 10 to seat 2), must play 7h on
    # turn 108, holds back 7s while seat 2 plays hearts (turns 112..156, 3 chips), plays 7s
    # on turn 160 and its nine spades on turns 164..196, going out with 10s.
    assert plays[3] == (3, c("7c")) and plays[55] == (3, c("7d"))
    assert plays[107] == (3, c("7h")) and plays[159] == (3, c("7s"))
    assert [p for p in plays[163::4]] == [(3, x) for x in parse_cards("6s 5s 4s 3s 2s As 8s 9s 10s")]
    assert res["voluntary"] == list(range(7, 52, 4)) + list(range(59, 104, 4)) + list(range(111, 156, 4))
    assert plays[4:49:4] == [(0, x) for x in parse_cards("6c 5c 4c 3c 2c Ac 8c 9c 10c Jc Qc Kc")]
    assert plays[57:102:4] == [(1, x) for x in parse_cards("6d 5d 4d 3d 2d Ad 8d 9d 10d Jd Qd Kd")]
    assert plays[110:155:4] == [(2, x) for x in parse_cards("6h 5h 4h 3h 2h Ah 8h 9h 10h Jh Qh Kh")]
    assert plays[49:55] == [(1, PASS), (2, PASS), (3, PASS), (0, PASS), (1, PASS), (2, PASS)]  # 2n - 2 in a row
    assert res["turns"] == 196 and res["winner"] == 3
    assert res["cards_left"] == [1, 1, 1, 0] and res["passes"] == [37, 37, 37, 36]
    # seat 3 pays 2 + 12 x 23 + 12 x 13 + 12 x 3; seats 1 and 2 receive 120 and 240
    assert res["paid"] == [40, 40, 40, 470]
    assert res["pot"] == 8 + 111 + 108 + 3
    assert res["received"] == [0, 120, 240, 230]
    assert res["net"] == [-40, 80, 200, -240]
    assert check_deal(res, rules, pol, 4, 3, Stream(0, 0)) == 6
    # the same play scores no chips under card-count-score
    counted = play_dealt(rules._replace(settle=SETTLE_CARD_COUNT), pol, 4, DEAL_SEVENS)
    assert counted["plays"] == plays and counted["net"] == counted["paid"] == [0] * 4 and counted["pot"] == 0


# n = 3: seat 0 holds the clubs and As..5s (18 cards), seat 1 the diamonds and 6s 8s 9s 10s,
# seat 2 the hearts and 7s Js Qs Ks (17 each).
THREE_HANDS = [
    [x for x in range(13)] + parse_cards("As 2s 3s 4s 5s"),
    [13 + x for x in range(13)] + parse_cards("6s 8s 9s 10s"),
    [26 + x for x in range(13)] + parse_cards("7s Js Qs Ks"),
]
DEAL_THREE = stack(THREE_HANDS)


def test_deal_three_uneven_hands_and_spade_finish():
    rules = Rules(ante=1, uneven_ante=FEWER_CARDS_PAY_EXTRA)  # the Hoyle variant
    res = play_dealt(rules, policy(3), 3, DEAL_THREE)
    assert [len(h) for h in res["hands"]] == [18, 17, 17]
    # 13 rounds of each seat playing its own suit (seat 2 keeps 7s: hearts are lower codes)
    suits = [(t % 3, (t % 3) * 13 + DOWN_THEN_UP[t // 3]) for t in range(39)]
    tail = [
        (0, PASS),
        (1, PASS),
        (2, c("7s")),
        (0, PASS),
        (1, c("6s")),
        (2, PASS),
        (0, c("5s")),
        (1, c("8s")),
        (2, PASS),
        (0, c("4s")),
        (1, c("9s")),
        (2, PASS),
        (0, c("3s")),
        (1, c("10s")),
    ]
    assert res["plays"] == suits + tail
    assert res["winner"] == 1 and res["turns"] == 53
    assert res["cards_left"] == [2, 0, 3] and res["passes"] == [2, 1, 3]
    # antes 1 + 2 + 2 (seats 1 and 2 were dealt fewer), pass fees 6, cards 5
    assert res["paid"] == [1 + 2 + 2, 2 + 1, 2 + 3 + 3] and res["pot"] == 16
    assert res["net"] == [-5, 13, -8]
    check_deal(res, rules, policy(3), 3, 2, Stream(0, 0))
    res = play_dealt(Rules(ante=0, uneven_ante=MORE_CARDS_PAY_EXTRA), policy(3), 3, DEAL_THREE)
    assert res["paid"] == [1 + 2 + 2, 1, 3 + 3] and res["pot"] == 12 and res["net"] == [-5, 11, -6]
    res = play_dealt(Rules(settle=SETTLE_POT_ONLY), policy(3), 3, DEAL_THREE)
    assert res["paid"] == [4, 3, 5] and res["pot"] == 12 and res["net"] == [-4, 9, -5]


def test_deal_three_eight_before_six():
    rules = Rules(eight_before_six=True)
    res = play_dealt(rules, policy(3), 3, DEAL_THREE)
    order = [6, 7, 5, 4, 3, 2, 1, 0, 8, 9, 10, 11, 12]
    suits = [(t % 3, (t % 3) * 13 + order[t // 3]) for t in range(39)]
    # 8s must precede 6s: seat 0 cannot follow with 5s on turn 46
    tail = [
        (0, PASS),
        (1, PASS),
        (2, c("7s")),
        (0, PASS),
        (1, c("8s")),
        (2, PASS),
        (0, PASS),
        (1, c("6s")),
        (2, PASS),
        (0, c("5s")),
        (1, c("9s")),
        (2, PASS),
        (0, c("4s")),
        (1, c("10s")),
    ]
    assert res["plays"] == suits + tail
    assert res["winner"] == 1 and res["cards_left"] == [3, 0, 3] and res["passes"] == [3, 1, 3]
    assert res["pot"] == 6 + 7 + 6 and res["net"] == [-8, 16, -8]
    check_deal(res, rules, policy(3), 3, 2, Stream(0, 0))


def test_deal_three_holder_7h_opens():
    rules = Rules(start=START_HOLDER_7H)
    res = play_dealt(rules, policy(3), 3, DEAL_THREE)
    # seat 2 opens with 7h and is one turn ahead; the turn then goes to seat 0
    suits = [((2 + t) % 3, ((2 + t) % 3) * 13 + DOWN_THEN_UP[t // 3]) for t in range(39)]
    tail = [
        (2, c("7s")),
        (0, PASS),
        (1, c("6s")),
        (2, PASS),
        (0, c("5s")),
        (1, c("8s")),
        (2, PASS),
        (0, c("4s")),
        (1, c("9s")),
        (2, PASS),
        (0, c("3s")),
        (1, c("10s")),
    ]
    assert res["plays"] == suits + tail
    assert res["winner"] == 1 and res["turns"] == 51 and res["passes"] == [1, 0, 3]
    assert res["pot"] == 6 + 4 + 5 and res["net"] == [-5, 13, -8]
    check_deal(res, rules, policy(3), 3, 2, Stream(0, 0))


# Seat 0 has real choices; seats 1-3 play their first legal card.
CHOICE_HANDS = [
    parse_cards("7c 6c 7d 6d 8d 5d 7h 8h 9h 2s 3s 4s 5s"),
    parse_cards("Ac 2c 3c 4c 5c 8c 9c 10c Jc Qc Kc Ah 2h"),
    parse_cards("Ad 2d 3d 4d 9d 10d Jd Qd Kd 3h 4h 5h 6h"),
    parse_cards("As 6s 7s 8s 9s 10s Js Qs Ks 10h Jh Qh Kh"),
]
DEAL_CHOICE = stack(CHOICE_HANDS)


@pytest.mark.parametrize(
    "style,first_nine",
    [
        # turn 1 only sevens: 7c (first and hold-sevens; block: the first that unlocks its own 6c);
        # greedy: 7d unlocks 6d and 8d.  Turn 5 (7c 8c 7s down): first and hold-sevens 6c; block
        # keeps 6c back, 7d unlocks its own; greedy: 7c, 6d and 7h unlock one each, 7c first.
        # Turn 9: first 7d, hold-sevens 5s; block 7h (6s 6d 8d kept back, 7h unlocks 8h);
        # greedy 6d (unlocks 5d; 7h and 5s unlock one too, later in code order).
        (STYLE_FIRST, "7c 8c - 7s 6c 5c - 6s 7d"),
        (STYLE_HOLD_SEVENS, "7c 8c - 7s 6c 5c - 6s 5s"),
        (STYLE_BLOCK, "7c 8c - 7s 7d 9c - 6s 7h"),
        (STYLE_GREEDY_UNLOCK, "7d - - 7s 7c 8c - 6s 6d"),
    ],
)
def test_deal_choice_styles(style, first_nine):
    pol = policy(4, seats={0: (style, 0)})
    res = play_dealt(Rules(), pol, 4, DEAL_CHOICE)
    expected = [(t % 4, PASS if text == "-" else c(text)) for t, text in enumerate(first_nine.split())]
    assert res["plays"][:9] == expected
    check_deal(res, Rules(), pol, 4, 3, Stream(0, 0))


# ----------------------------------------------------------------------------------------
# The stream and random deals


@pytest.mark.parametrize("n", range(2, 9))
def test_hand_mode_deal_is_deal_prefix_from_the_dealers_left(n):
    for index in range(3):
        res = hand_result(Rules(), policy(n), n, 1234, index)
        pack = deal_prefix(Stream(1234, index), 52)
        assert res["hands"] == [sorted(pack[s::n]) for s in range(n)]  # dealer n-1: draw k to seat k mod n
        assert [len(h) for h in res["hands"]] == hand_sizes(n)
        assert play_dealt(Rules(), policy(n), n, pack) == res  # no random draws: the stacked deal


def test_hand_sizes_table():
    assert hand_sizes(3) == [18, 17, 17] and hand_sizes(4) == [13] * 4
    assert hand_sizes(5) == [11, 11, 10, 10, 10] and hand_sizes(8) == [7, 7, 7, 7, 6, 6, 6, 6]


def test_random_deals_obey_every_law():
    rng = random.Random(2024)
    longest_with_voluntary = 0
    seen = {"voluntary": 0, "card_count": 0, "opening": 0, "n2": 0}
    for index in range(160):
        n = rng.randint(2, 8)
        rules, pol = random_rules(rng), random_policy(rng, n)
        if index % 4 == 0:  # many voluntary passes
            rules = rules._replace(may_pass_when_able=True)
            pol[:, 1] = 1
        res = hand_result(rules, pol, n, 99, index)
        stream = Stream(99, index)
        pack = deal_prefix(stream, 52)
        assert res["hands"] == [sorted(pack[s::n]) for s in range(n)]
        longest = check_deal(res, rules, pol, n, n - 1, stream)  # random draws follow the deal
        if res["voluntary"]:
            longest_with_voluntary = max(longest_with_voluntary, longest)
            seen["voluntary"] += 1
        seen["card_count"] += rules.settle == SETTLE_CARD_COUNT
        seen["opening"] += rules.start != START_ELDEST
        seen["n2"] += n == 2
        # a stacked deal of the same pack with another dealer obeys the laws too
        dealer = rng.randrange(n)
        stacked = play_dealt(rules, pol, n, pack, dealer=dealer)
        check_deal(stacked, rules, pol, n, dealer, Stream(0, 0))
    assert all(v > 5 for v in seen.values()), seen
    assert longest_with_voluntary >= 2


def test_hand_rows_match_the_result():
    rng = random.Random(5)
    for index in range(30):
        n = rng.randint(2, 8)
        rules, pol = random_rules(rng), random_policy(rng, n)
        res = hand_result(rules, pol, n, 7, index)
        seat_rows, table_row = play_hand(rules, pol, n, 7, index)
        for s in range(n):
            row = dict(zip(HAND_OUTCOMES.seat, seat_rows[s]))
            assert row["win"] == (1 if res["winner"] == s else 0)
            assert (row["net"], row["net_sq"]) == (res["net"][s], res["net"][s] ** 2)
            assert (row["passes"], row["passes_sq"]) == (res["passes"][s], res["passes"][s] ** 2)
            assert (row["paid"], row["paid_sq"]) == (res["paid"][s], res["paid"][s] ** 2)
            assert (row["cards_left"], row["cards_left_sq"]) == (res["cards_left"][s], res["cards_left"][s] ** 2)
        assert table_row == [res["turns"], res["turns"] ** 2, res["pot"], res["pot"] ** 2]
        assert sum(r[HS["win"]] for r in seat_rows) == 1 and sum(r[HS["net"]] for r in seat_rows) == 0


# ----------------------------------------------------------------------------------------
# Game mode


def test_game_rotation_deals_on_one_stream():
    rng = random.Random(3)
    for index in range(12):
        n = rng.randint(2, 8)
        rules, pol = random_rules(rng), random_policy(rng, n)
        pol[0, 0] = STYLE_RANDOM  # at least one seat draws during play
        results = game_results(rules, pol, n, 41, index)
        assert len(results) == n
        stream = Stream(41, index)
        for k, res in enumerate(results):
            dealer = (n - 1 + k) % n  # n-1 deals first, then 0, 1, ..., n-2
            pack = deal_prefix(stream, 52)  # each deal from a pack in code order, after the last draws
            assert res["hands"] == [sorted(pack[(s - dealer - 1) % n :: n]) for s in range(n)]
            check_deal(res, rules, pol, n, dealer, stream)
        seat_rows, table_row = play_game(rules, pol, n, 41, index)
        wins = [r[GS["wins"]] for r in seat_rows]
        assert sum(wins) == n and wins == [sum(1 for r in results if r["winner"] == s) for s in range(n)]
        assert sum(r[GS["net"]] for r in seat_rows) == 0
        nets = [sum(r["net"][s] for r in results) for s in range(n)]
        scores = [sum(r["cards_left"][s] for r in results) for s in range(n)]
        for s in range(n):
            row = dict(zip(GAME_OUTCOMES.seat, seat_rows[s]))
            assert (row["net"], row["net_sq"]) == (nets[s], nets[s] ** 2)
            assert row["wins_sq"] == wins[s] ** 2
            assert (row["cards_left"], row["cards_left_sq"]) == (scores[s], scores[s] ** 2)
            assert row["best_score"] == (1 if scores[s] == min(scores) else 0)
        turns = sum(r["turns"] for r in results)
        assert table_row[:2] == [turns, turns * turns]
        lengths = table_row[2:]  # one length bucket: the rotation's turns per deal in [low, next low)
        assert len(lengths) == len(LENGTH_BUCKET_LOW) and sorted(lengths) == [0] * (len(lengths) - 1) + [1]
        b = lengths.index(1)
        assert LENGTH_BUCKET_LOW[b] * n <= turns
        assert b + 1 == len(LENGTH_BUCKET_LOW) or turns < LENGTH_BUCKET_LOW[b + 1] * n


def test_game_first_deal_is_the_hand_mode_deal():
    # hand mode of a game's first deal is the game's first deal
    pol = policy(4)
    first = game_results(Rules(), pol, 4, 8, 2)[0]
    assert first == hand_result(Rules(), pol, 4, 8, 2)
    seat_rows, _ = play_game(Rules(settle=SETTLE_CARD_COUNT), pol, 4, 8, 2)
    assert all(r[GS["net"]] == 0 and r[GS["net_sq"]] == 0 for r in seat_rows)
    assert sum(r[GS["best_score"]] for r in seat_rows) >= 1


# ----------------------------------------------------------------------------------------
# Batching, replay and logs


def test_simulate_hands_is_the_sum_of_play_hand_and_split_invariant():
    rules = Rules(may_pass_when_able=True, eight_before_six=True)
    pol = policy(5, STYLE_RANDOM, 1)
    total = simulate(rules, pol, 5, HANDS, 55, 10, 30)
    assert total.dtype == np.int64 and total.shape == (6, HAND_OUTCOMES.width)
    manual = np.zeros_like(total)
    for index in range(10, 40):
        seat_rows, table_row = play_hand(rules, pol, 5, 55, index)
        manual[:5, : len(HAND_OUTCOMES.seat)] += np.array(seat_rows)
        manual[5, : len(HAND_OUTCOMES.table)] += np.array(table_row)
    assert (total == manual).all()
    pieces = HAND_OUTCOMES.combine(
        simulate(rules, pol, 5, HANDS, 55, 10, 12), simulate(rules, pol, 5, HANDS, 55, 22, 18)
    )
    assert (pieces == total).all()
    assert total[:5, HS["win"]].sum() == 30 and total[:5, HS["net"]].sum() == 0
    assert total[5, HT["turns"]] >= 30 * (5 * 9 + 1)  # the winner holds 10 or 11 cards


def test_simulate_games_is_the_sum_of_play_game():
    pol = policy(3, STYLE_GREEDY_UNLOCK)
    total = simulate(Rules(), pol, 3, GAMES, 8, 0, 6)
    assert total.shape == (4, GAME_OUTCOMES.width)
    games = [play_game(Rules(), pol, 3, 8, i) for i in range(6)]
    assert total[:3, GS["wins"]].sum() == 18 and total[:3, GS["net"]].sum() == 0
    for s in range(3):
        assert total[s, GS["cards_left"]] == sum(g[0][s][GS["cards_left"]] for g in games)
    assert total[3, GT["turns"]] == sum(g[1][GT["turns"]] for g in games)
    with pytest.raises(ValueError):
        simulate(Rules(), pol, 3, 2, 8, 0, 1)


def test_replay_lines_name_the_cards_and_every_turn():
    rules = Rules(may_pass_when_able=True)
    pol = policy(4, STYLE_BLOCK, 1)
    for hand in range(6):
        lines = replay_lines(rules, pol, 4, 31, hand)
        assert lines[0] == f"Fan Tan: seed 31, hand {hand} (4 seats, seat 3 deals)"
        res = hand_result(rules, pol, 4, 31, hand)
        text = "\n".join(lines)
        for s in range(4):
            assert f"hand: seat {s} holds {' '.join(card_name(x) for x in res['hands'][s])} (13 cards)" in text
        turn_lines = [line for line in lines if line.startswith("turn ")]
        assert len(turn_lines) == res["turns"]
        for t, (seat, card) in enumerate(res["plays"]):
            assert turn_lines[t].startswith(f"turn {t + 1}: seat {seat} ")
            if card >= 0:
                assert f"plays {card_name(card)}" in turn_lines[t]
            else:
                assert "passes" in turn_lines[t]
        assert f"out: seat {res['winner']} has played its last card and wins" in text
        assert f"takes the pot of {res['pot']}" in text


def test_log_does_not_change_the_result():
    rng = random.Random(8)
    for index in range(20):
        n = rng.randint(2, 8)
        rules, pol = random_rules(rng), random_policy(rng, n)
        pack = deal_prefix(Stream(4, index), 52)
        log = []
        assert play_dealt(rules, pol, n, pack, log=log) == play_dealt(rules, pol, n, pack)
        assert len(log) > n + 2


# ----------------------------------------------------------------------------------------
# Input


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n": 1, "policy": policy(1)},
        {"n": 9, "policy": policy(9)},
        {"n": 4.5},
        {"cards": DEAL_SUITS[:51]},
        {"cards": DEAL_SUITS[:51] + [DEAL_SUITS[0]]},
        {"cards": DEAL_SUITS[:51] + [52]},
        {"cards": [x - 1 for x in DEAL_SUITS]},
        {"cards": DEAL_SUITS[:51] + [DEAL_SUITS[51] + 0.5]},
        {"dealer": 4},
        {"dealer": -1},
        {"dealer": 1.5},
        {"policy": policy(3)},
        {"policy": np.zeros((4, 3))},
        {"policy": np.full((4, 2), 5.0)},
        {"policy": np.array([[1.5, 0]] * 4)},
        {"policy": np.array([[0, 2.0]] * 4)},
        {"policy": np.array([[-1.0, 0]] * 4)},
        {"rules": Rules(ante=21)},
        {"rules": Rules(pass_fee=-1)},
        {"rules": Rules(card_fee=30)},
        {"rules": Rules(uneven_ante=3)},
        {"rules": Rules(start=3)},
        {"rules": Rules(settle=3)},
        {"rules": Rules(may_pass_when_able=2)},
    ],
)
def test_play_dealt_refuses_bad_input(kwargs):
    args = {"rules": Rules(), "policy": policy(4), "n": 4, "cards": DEAL_SUITS, "dealer": None}
    args.update(kwargs)
    with pytest.raises(ValueError) as caught:
        play_dealt(args["rules"], args["policy"], args["n"], args["cards"], dealer=args["dealer"])
    message = str(caught.value)
    assert message.endswith(".") and message.count(". ") == 0  # one sentence


def test_two_seats_are_played_and_hand_game_refuse_bad_tables():
    res = hand_result(Rules(), policy(2), 2, 1, 0)
    assert [len(h) for h in res["hands"]] == [26, 26]
    with pytest.raises(ValueError):
        play_hand(Rules(), policy(9), 9, 1, 0)
    with pytest.raises(ValueError):
        play_game(Rules(), policy(3), 4, 1, 0)
    with pytest.raises(ValueError):
        simulate(Rules(start=5), policy(4), 4, HANDS, 1, 0, 1)
