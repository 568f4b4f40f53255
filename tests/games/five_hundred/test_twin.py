"""Tests of the plain-Python twin of Five Hundred (sims.games.five_hundred.twin) alone.

Random hands of every rule switch value and several policies are checked against the laws
a hand must obey, written here from the rules contract (the docstring of
sims/games/five_hundred/__init__.py), independently of the twin: the deal and its stream,
the auction's legality and the bidding policy, the kitty, legal play (the left bower a
trump, the suitless joker under each nt_joker value, the misere partner skipped), trick
winners, when play stops, scoring, the cap and the end of a game.  Deal counts are checked
against exact probabilities, and a few stacked deals against results derived by hand.  No
Numba kernel is run.
"""

from __future__ import annotations

import random
from collections import Counter
from math import comb, sqrt

import numpy as np
import pytest

import sims.games.five_hundred.twin as twin
from sims.core.cards import parse_cards
from sims.core.rng import Stream
from sims.games.five_hundred.rules import (
    ALL_PASS_NO_TRUMPS,
    DECK_43,
    DECK_45,
    DECK_46,
    DENOMINATION_SUIT,
    EXPOSE_AFTER_FIRST_LEAD,
    EXPOSE_BEFORE_LEAD,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    LEAD_ELDEST,
    LENGTH_BUCKETS,
    MISERE,
    MISERE_OPP_PER_CONTRACTOR_TRICK,
    MISERE_OPP_PER_TRICK_WON,
    NT_JOKER_ANY_TIME,
    NT_JOKER_FIRST_ROUND_FREE,
    NT_JOKER_LEAD_LAST_ONLY,
    NT_JOKER_MAY_NOMINATE,
    OPEN_MISERE,
    OPEN_MISERE_HIGHEST,
    POLICIES,
    POLICY_FIELDS,
    VARIANTS,
    Rules,
    contract_value,
    ladder_position,
)
from sims.games.five_hundred.twin import (
    game_result,
    game_rows,
    hand_result,
    hand_rows,
    play_dealt,
    play_game,
    replay_lines,
    simulate,
)

HANDS, GAMES = 0, 1
HS = {name: i for i, name in enumerate(HAND_OUTCOMES.seat)}
HT = {name: i for i, name in enumerate(HAND_OUTCOMES.table)}
GS = {name: i for i, name in enumerate(GAME_OUTCOMES.seat)}
GT = {name: i for i, name in enumerate(GAME_OUTCOMES.table)}
JO, BJ = 52, 53
KITTY = {DECK_43: 3, DECK_45: 5, DECK_46: 6}
SIZE = {DECK_43: 43, DECK_45: 45, DECK_46: 46}
OTHER_JACK = {0: 3, 3: 0, 1: 2, 2: 1}  # the same-colour suit: clubs-spades, diamonds-hearts


def cards(text):
    """Card notation with the jokers: ``Jo`` 52, ``BJ`` 53."""
    out = []
    for token in text.split():
        out.append({"Jo": JO, "BJ": BJ}[token] if token in ("Jo", "BJ") else parse_cards(token)[0])
    return out


def policy(**fields):
    """Four rows of the default policy with ``fields`` changed (``s0_key`` for one seat)."""
    assert [f.key for f in POLICY_FIELDS] == [
        "bid_offset",
        "misere_max",
        "open_misere_max",
        "partner_margin",
        "nominate",
    ]
    rows = []
    for seat in range(4):
        row = {f.key: f.default for f in POLICY_FIELDS}
        for key, value in fields.items():
            if key[:1] == "s" and key[1:2].isdigit() and key[2:3] == "_":
                if int(key[1]) == seat:
                    row[key[3:]] = value
            else:
                row[key] = value
        rows.append([row[f.key] for f in POLICY_FIELDS])
    return np.array(rows, dtype=np.float64)


def random_policy(rng):
    return np.array(
        [
            [
                rng.randint(-3, 3),
                rng.choice([-1, 0, 1, 2, 3, 10]),
                rng.choice([-1, -1, 0, 1, 2, 10]),
                rng.randint(0, 3),
                rng.randint(0, 1),
            ]
            for _ in range(4)
        ],
        dtype=np.float64,
    )


def random_rules(rng, **fixed):
    values = dict(
        deck=rng.randint(0, 2),
        all_pass=rng.randint(0, 1),
        misere_rank=rng.randint(0, 1),
        misere_needs_7=rng.random() < 0.5,
        open_misere_rank=rng.randint(0, 1),
        open_misere_anytime=rng.random() < 0.5,
        allow_misere=rng.random() < 0.8,
        first_lead=rng.randint(0, 1),
        nt_joker=rng.randint(0, 4),
        om_expose=rng.randint(0, 2),
        misere_stop_early=rng.random() < 0.5,
        misere_opp_score=rng.randint(0, 2),
        win_by_contract_only=rng.random() < 0.5,
        opp_cap=rng.choice([0, 200, 490]),
        max_hands=rng.choice([1, 3, 1000]),
    )
    values.update(fixed)
    return Rules(**values)


def the_pack(deck):
    """The pack from the contract's words: hearts and diamonds A K Q J 10 9 8 7 6 5 4,
    clubs and spades A K Q J 10 9 8 7 6 5 (and 4 from deck 45), the joker (and the black
    joker in deck 46); faces A = 0, 4 = 3, ..., K = 12."""
    out = []
    for suit in range(4):
        low = 3 if suit in (1, 2) or deck != DECK_43 else 4
        out += [13 * suit] + [13 * suit + face for face in range(low, 13)]
    out += [JO] + ([BJ] if deck == DECK_46 else [])
    return sorted(out)


def stream_deal(deck, seed, index):
    """A lazy Fisher-Yates over the pack in code order, all P positions drawn."""
    pack = the_pack(deck)
    st = Stream(seed, index)
    for t in range(len(pack)):
        j = t + st.below(len(pack) - t)
        pack[t], pack[j] = pack[j], pack[t]
    return pack


def high(hand):
    return sum(1 for c in hand if c >= JO or c % 13 in (0, 10, 11, 12))


# ----------------------------------------------------------------------------------------
# Cards in a contract, from the contract's words


class View:
    """Suits, orders and the trick winner of one contract (trump None: no trumps, misere,
    four passes played out)."""

    def __init__(self, contract, nominated):
        self.trump = DENOMINATION_SUIT[contract % 5] if 0 <= contract < 25 and contract % 5 != 4 else None
        self.nominated = dict(nominated)

    def suit(self, c):
        t = self.trump
        if t is not None:
            if c >= JO or c == 13 * OTHER_JACK[t] + 10:
                return t
            return c // 13
        if c >= JO:
            return self.nominated.get(c)  # None: a suitless joker
        return c // 13

    def trump_card(self, c):
        return self.trump is not None and self.suit(c) == self.trump

    def suitless(self, c):
        return self.trump is None and c >= JO and c not in self.nominated

    def order(self, c):
        """Face rank (A high) for printed cards; the bowers and jokers on top."""
        if c >= JO:
            return {JO: 15, BJ: 16}[c] if c in self.nominated else {JO: 17, BJ: 18}[c]
        if self.trump is not None and c == 13 * self.trump + 10:
            return 16
        if self.trump is not None and c == 13 * OTHER_JACK[self.trump] + 10:
            return 15
        return 14 if c % 13 == 0 else c % 13 + 1

    def winner(self, plays, led):
        trumps = [(self.order(c), s) for s, c in plays if self.trump_card(c)]
        if trumps:
            return max(trumps)[1]
        jokers = [(c, s) for s, c in plays if self.suitless(c)]
        if jokers:
            return max(jokers)[1]
        return max((self.order(c), s) for s, c in plays if self.suit(c) == led)[1]

    def beats(self, c, w, led):
        """Would ``c`` take the trick from ``w`` (now winning a trick led in ``led``)?"""
        return self.winner([(0, w), (1, c)], led) == 1

    def low(self, c):
        """ "Cheapest" / "lowest": plain by order (ties to the lower suit), then trumps, then
        suitless jokers (the joker first)."""
        kind = 2 if self.suitless(c) else 1 if self.trump_card(c) else 0
        return (kind, self.order(c), -1 if self.suit(c) is None else self.suit(c))

    def hi(self, c):
        kind = 2 if self.suitless(c) else 1 if self.trump_card(c) else 0
        return (kind, self.order(c), 1 if self.suit(c) is None else -self.suit(c))


# ----------------------------------------------------------------------------------------
# The laws of one hand


def expected_call(rules, row, hand, current, current_by, seat, level):
    """The bidding policy's call, steps 1-4 (the estimate is tested on its own below)."""
    offset, mis_max, om_max, margin = row[0], row[1], row[2], row[3]
    pos = lambda c: ladder_position(c, rules.misere_rank, rules.open_misere_rank)  # noqa: E731
    over = lambda c: current < 0 or pos(c) > pos(current)  # noqa: E731
    hc = high(hand)
    om_ok = rules.allow_misere and over(OPEN_MISERE) and (rules.open_misere_anytime or level >= 8)
    mis_ok = rules.allow_misere and over(MISERE) and (not rules.misere_needs_7 or level >= 7)
    if om_ok and hc <= om_max:
        return OPEN_MISERE
    if mis_ok and hc <= mis_max:
        return MISERE
    est = [twin.estimate(hand, d) for d in range(5)]
    d = max(range(5), key=lambda x: (est[x], x))
    want = min(est[d] + offset, 10)
    for k in range(6, 11):
        bid = 5 * (k - 6) + d
        if over(bid):
            ok = k <= want and not (current_by == (seat + 2) % 4 and k + margin > want)
            return bid if ok else -1
    return -1


def check_auction(res, rules, pol, dealer):
    calls = res["auction"]
    rows = [[int(x) for x in r] for r in pol]
    passed = set()
    current, current_by, level = -1, -1, 0
    top = 26 if rules.allow_misere and rules.open_misere_rank == OPEN_MISERE_HIGHEST else 24
    expect_seat = (dealer + 1) % 4
    for k, (seat, call) in enumerate(calls):
        # clockwise from the eldest hand, passed players skipped, none bids again
        while expect_seat in passed:
            expect_seat = (expect_seat + 1) % 4
        assert seat == expect_seat and seat not in passed
        assert call == expected_call(rules, rows[seat], res["dealt"][seat], current, current_by, seat, level)
        if call == -1:
            passed.add(seat)
        else:
            assert 0 <= call <= 26
            if current >= 0:
                assert ladder_position(call, rules.misere_rank, rules.open_misere_rank) > ladder_position(
                    current, rules.misere_rank, rules.open_misere_rank
                )
            if call in (MISERE, OPEN_MISERE):
                assert rules.allow_misere
            if call == MISERE and rules.misere_needs_7:
                assert level >= 7
            if call == OPEN_MISERE and not rules.open_misere_anytime:
                assert level >= 8
            current, current_by = call, seat
            if call < 25:
                level = max(level, 6 + call // 5)
        over = len(passed) == 4 or (len(passed) == 3 and current >= 0) or (call >= 0 and call == top)
        assert over == (k == len(calls) - 1), "the auction must end exactly when the contract says"
        expect_seat = (seat + 1) % 4
    assert res["contract"] == current and res["contractor"] == current_by


def check_hand(res, rules, pol, dealer, scores, stats=None):
    """Every law a play_dealt result must obey."""
    deck, kitty_size = int(rules.deck), KITTY[int(rules.deck)]
    pack = the_pack(deck)
    rows = [[int(x) for x in r] for r in pol]
    eldest = (dealer + 1) % 4
    # the deal
    dealt, kitty = res["dealt"], res["kitty"]
    assert len(dealt) == 4 and all(len(h) == 10 and h == sorted(h) for h in dealt)
    assert len(kitty) == kitty_size and kitty == sorted(kitty)
    assert sorted(c for h in dealt for c in h) == sorted(set(pack) - set(kitty))
    check_auction(res, rules, pol, dealer)
    contract, contractor = res["contract"], res["contractor"]
    misere = contract in (MISERE, OPEN_MISERE)
    played_out = contractor >= 0 or rules.all_pass == ALL_PASS_NO_TRUMPS
    # the kitty
    held = [set(h) for h in dealt]
    discards = res["discards"]
    view = View(contract, res["nominated"])
    if contractor < 0:
        assert discards == [] and res["nominated"] == {}
    else:
        whole = set(dealt[contractor]) | set(kitty)
        assert discards == sorted(discards) and len(discards) == kitty_size and set(discards) <= whole
        held[contractor] = whole - set(discards)
        kept = held[contractor]
        if misere:
            assert not any(c >= JO for c in kept), "misere: jokers are discarded first"
            assert min(view.order(c) for c in discards) >= max(view.order(c) for c in kept)
        elif view.trump is None:
            assert not any(c >= JO for c in discards), "no trumps: a joker is never discarded"
        else:
            if any(view.trump_card(c) for c in discards):
                assert all(view.trump_card(c) for c in kept)
                assert max(view.order(c) for c in discards if view.trump_card(c)) < min(
                    view.order(c) for c in kept if view.trump_card(c)
                )
            if any(c % 13 == 0 and not view.trump_card(c) for c in discards):
                assert all(c % 13 == 0 or view.trump_card(c) for c in kept)
        # nomination
        nominate = (
            0 <= contract < 25
            and contract % 5 == 4
            and rules.nt_joker == NT_JOKER_MAY_NOMINATE
            and rows[contractor][4] == 1
        )
        if nominate:
            counts = [sum(1 for c in kept if c < JO and c // 13 == x) for x in range(4)]
            longest = max(range(4), key=lambda x: (counts[x], x))
            assert res["nominated"] == {j: longest for j in (JO, BJ) if j in kept}
        else:
            assert res["nominated"] == {}
    if not played_out:
        assert res["tricks"] == [] and res["tricks_won"] == [0] * 4 and res["side_tricks"] == [0, 0]
        assert res["made"] == -1 and res["points"] == [0, 0] and res["scores"] == list(scores)
        assert res["winner"] == -1 and res["ended"] == ""
        if stats is not None:
            stats["thrown in"] += 1
        return
    # play
    out = (contractor + 2) % 4 if misere else -1
    if contractor >= 0 and rules.first_lead != LEAD_ELDEST:
        leader = contractor
    else:
        leader = eldest if eldest != out else (eldest + 1) % 4
    stop_early = misere and rules.misere_stop_early and rules.misere_opp_score != MISERE_OPP_PER_TRICK_WON
    void = [set() for _ in range(4)]
    rounds = Counter()
    won = [0] * 4
    stopped = False
    for t, (trick_leader, plays, winner, named) in enumerate(res["tricks"], start=1):
        assert not stopped, "a trick was played after the misere failed"
        assert trick_leader == leader
        assert [s for s, _ in plays] == [(leader + k) % 4 for k in range(4) if (leader + k) % 4 != out]
        lead = plays[0][1]
        assert lead in held[leader]
        if exposed_at(rules, contract, t, lead=True) and leader != contractor:
            check_exposed_lead(view, lead, held[leader], held[contractor], rules, t, stats)
        if view.suitless(lead):
            if rules.nt_joker == NT_JOKER_LEAD_LAST_ONLY and t < 10:
                assert all(view.suitless(c) for c in held[leader]), "lead-last-only: the joker led early"
            allowed = [x for x in range(4) if x not in void[leader]] or list(range(4))
            assert named in allowed
            led = named
            if stats is not None:
                stats["suitless joker led"] += 1
        else:
            assert named == -1
            led = view.suit(lead)
        held[leader].discard(lead)
        w_seat, w = plays[0]
        for k, (seat, c) in enumerate(plays[1:], start=1):
            hand = held[seat]
            assert c in hand
            can_follow = [x for x in hand if view.suit(x) == led]
            if can_follow and view.suit(c) != led:
                free = rules.nt_joker == NT_JOKER_ANY_TIME or (
                    rules.nt_joker == NT_JOKER_FIRST_ROUND_FREE and rounds[led] == 0
                )
                assert view.suitless(c) and free, f"seat {seat} must follow {led} in trick {t}"
                if stats is not None:
                    stats["free joker"] += 1
            exposed = held[contractor] if exposed_at(rules, contract, t, lead=False) else None
            check_follow_policy(
                view,
                seat,
                c,
                plays[:k],
                w_seat,
                w,
                led,
                hand,
                can_follow,
                rules,
                contractor,
                misere,
                void,
                rounds,
                stats,
                exposed,
            )
            if view.suit(c) != led:
                void[seat].add(led)
            hand.discard(c)
            if view.beats(c, w, led):
                w_seat, w = seat, c
        assert winner == view.winner(plays, led) == w_seat
        rounds[led] += 1
        won[winner] += 1
        leader = winner
        if stop_early and winner == contractor:
            stopped = True
    if stopped:
        assert won[contractor] == 1
        if stats is not None:
            stats["misere stopped"] += 1
    else:
        assert len(res["tricks"]) == 10
        assert all(not held[s] for s in range(4) if s != out)
    if out >= 0:
        assert won[out] == 0 and len(held[out]) == 10
    assert res["tricks_won"] == won
    side = [won[0] + won[2], won[1] + won[3]]
    assert res["side_tricks"] == side
    # scoring one hand
    points = [0, 0]
    if contractor < 0:
        points = [10 * side[0], 10 * side[1]]
        made = -1
    elif misere:
        cs = contractor % 2
        made = int(won[contractor] == 0)
        value = 250 if contract == MISERE else 500
        points[cs] = value if made else -value
        points[1 - cs] = {
            0: 0,
            MISERE_OPP_PER_CONTRACTOR_TRICK: 10 * won[contractor],
            MISERE_OPP_PER_TRICK_WON: 10 * side[1 - cs],
        }[rules.misere_opp_score]
    else:
        cs = contractor % 2
        value = 40 + 100 * (contract // 5) + 20 * (contract % 5)
        assert value == contract_value(contract)
        made = int(side[cs] >= 6 + contract // 5)
        points[cs] = (250 if side[cs] == 10 and value < 250 else value) if made else -value
        points[1 - cs] = 10 * side[1 - cs]
    assert res["made"] == made
    check_totals(res, rules, scores, contractor, made, points, eldest)
    if stats is not None:
        stats[
            (
                "contract",
                "mis"
                if contract == MISERE
                else "om"
                if contract == OPEN_MISERE
                else "none"
                if contract < 0
                else "nt"
                if contract % 5 == 4
                else "suit",
            )
        ] += 1
        if res["nominated"]:
            stats["nominated"] += 1
        if view.trump is not None and any(
            c == 13 * OTHER_JACK[view.trump] + 10 for _, p, _, _ in res["tricks"] for _, c in p
        ):
            stats["left bower played"] += 1
        if (
            made == 1
            and contractor >= 0
            and side[contractor % 2] == 10
            and not misere
            and contract_value(contract) < 250
        ):
            stats["slam"] += 1


def exposed_at(rules, contract, t, lead):
    """Is the open misere hand face up at the lead (``lead``) or at a follow of trick ``t``
    (1..10)?  before-lead: always; after-first-lead: from the first card of trick 1 on (so
    for every follow); after-first-trick: from trick 2 on."""
    if contract != OPEN_MISERE:
        return False
    if rules.om_expose == EXPOSE_BEFORE_LEAD or t >= 2:
        return True
    return not lead and rules.om_expose == EXPOSE_AFTER_FIRST_LEAD


def forcing_cards(view, cards, exposed):
    """The cards below the exposed contractor's lowest card of their suit (never a
    suitless joker)."""
    out = set()
    for c in cards:
        if view.suitless(c):
            continue
        theirs = [view.order(x) for x in exposed if view.suit(x) == view.suit(c)]
        if theirs and view.order(c) < min(theirs):
            out.add(c)
    return out


def shed(view, cards, forcing):
    """The highest spare card (neither forcing nor a suitless joker), else the highest card
    that is not a suitless joker, else the highest card."""
    spare = [c for c in cards if c not in forcing and not view.suitless(c)]
    plain = [c for c in cards if not view.suitless(c)]
    return max(spare or plain or list(cards), key=view.hi)


def check_exposed_lead(view, card, hand, exposed, rules, t, stats):
    """The defence leading against an exposed open misere: a forcing card of the suit in
    which the contractor's lowest card is highest, else the lowest card of a suit the
    contractor holds, else its lowest card."""
    cands = set(hand)
    if rules.nt_joker == NT_JOKER_LEAD_LAST_ONLY and t < 10 and any(not view.suitless(c) for c in hand):
        cands = {c for c in hand if not view.suitless(c)}
    forcing = forcing_cards(view, cands, exposed)
    if forcing:
        lowest = {x: min(view.order(c) for c in exposed if view.suit(c) == x) for x in {view.suit(c) for c in forcing}}
        suit = max(lowest, key=lambda x: (lowest[x], -x))
        assert card == min((c for c in forcing if view.suit(c) == suit), key=view.low)
        if stats is not None:
            stats["forcing lead"] += 1
        return
    held = {view.suit(c) for c in exposed}
    mine = [c for c in cands if not view.suitless(c) and view.suit(c) in held]
    assert card == min(mine or list(cands), key=view.low)


def check_follow_policy(
    view,
    seat,
    card,
    plays,
    w_seat,
    w,
    led,
    hand,
    can_follow,
    rules,
    contractor,
    misere,
    void,
    rounds,
    stats,
    exposed=None,
):
    """The card-play policy when following, from the contract's words; ``exposed``: the
    open misere contractor's remaining cards once face up."""
    legal = set(can_follow) if can_follow else set(hand)
    if can_follow:
        free = rules.nt_joker == NT_JOKER_ANY_TIME or (rules.nt_joker == NT_JOKER_FIRST_ROUND_FREE and rounds[led] == 0)
        if free:
            legal |= {c for c in hand if view.suitless(c)}
    assert card in legal
    beat = [c for c in legal if view.beats(c, w, led)]
    safe = [c for c in legal if not view.beats(c, w, led)]
    if not misere:
        if w_seat == (seat + 2) % 4:
            assert card == min(legal, key=view.low)
        elif beat:
            assert card == min(beat, key=view.low)
        else:
            assert card == min(legal, key=view.low)
        return
    if seat == contractor:
        assert card == (max(safe, key=view.hi) if safe else min(legal, key=view.low))
    elif exposed is not None:  # the defence against an exposed open misere
        forcing = forcing_cards(view, legal, exposed)
        if w_seat == contractor:
            assert card == shed(view, safe or legal, forcing)
        elif (
            not any(s == contractor for s, _ in plays)
            and any(view.suit(x) == led for x in exposed)
            and any(view.suit(x) == led for x in legal)
        ):
            assert card == min(legal, key=view.low)
        else:
            assert card == shed(view, legal, forcing)
        if stats is not None:
            stats["exposed follow"] += 1
    elif not any(s == contractor for s, _ in plays):
        assert card == min(legal, key=view.low)
    elif w_seat == contractor:
        assert card == (max(safe, key=view.hi) if safe else min(legal, key=view.low))
    else:
        other = [c for c in legal if not view.suitless(c)]
        assert card == max(other or list(legal), key=view.hi)


def check_totals(res, rules, scores, contractor, made, points, eldest):
    """Scores, the cap, the -500 loss and the winner (the twin's readings R14, R15);
    ``points`` are the hand's points before the cap."""
    cs = contractor % 2 if contractor >= 0 else -1
    totals = list(scores)
    for s in range(2):
        if rules.win_by_contract_only and s != cs:
            assert points[s] >= 0
            totals[s] = min(scores[s] + points[s], max(scores[s], rules.opp_cap))
        else:
            totals[s] = scores[s] + points[s]
    assert res["scores"] == totals
    # the hand's points are what it adds: points for tricks held to the cap
    assert res["points"] == [totals[0] - scores[0], totals[1] - scores[1]]
    points = res["points"]
    winner, ended = -1, ""
    if cs >= 0 and made == 1 and totals[cs] >= 500:
        winner, ended = cs, "contract"
    elif min(totals) <= -500:
        loser = 0 if totals[0] <= -500 else 1
        assert loser == cs and points[cs] < 0, "only the contracting side loses points"
        winner, ended = 1 - loser, "minus_500"
    elif not rules.win_by_contract_only and max(totals) >= 500:
        reached = [s for s in range(2) if totals[s] >= 500]
        if len(reached) == 1:
            winner = reached[0]
        elif cs >= 0:
            winner = cs
        else:
            winner = 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else eldest % 2
        ended = "any_points"
    if rules.win_by_contract_only and winner >= 0 and ended == "contract":
        assert totals[1 - winner] < 500 or scores[1 - winner] >= 500
    assert (res["winner"], res["ended"]) == (winner, ended)


# ----------------------------------------------------------------------------------------
# Random hands


SWITCHES = (
    [("deck", v) for v in (DECK_43, DECK_45, DECK_46)]
    + [
        ("all_pass", 1),
        ("misere_rank", 1),
        ("misere_needs_7", False),
        ("open_misere_rank", 1),
        ("open_misere_anytime", False),
        ("allow_misere", False),
        ("first_lead", 1),
    ]
    + [("nt_joker", v) for v in range(5)]
    + [("om_expose", v) for v in range(3)]
    + [("misere_stop_early", False)]
    + [("misere_opp_score", v) for v in range(3)]
    + [("win_by_contract_only", False), ("opp_cap", 0)]
)


@pytest.mark.parametrize("key,value", SWITCHES)
def test_random_hands_obey_the_laws(key, value):
    rng = random.Random(f"{key}{value}")
    rules = Rules(**{key: value})
    for i in range(30):
        pol = random_policy(rng) if i % 3 else policy(**POLICIES[rng.choice(sorted(POLICIES))].base)
        res = hand_result(rules, pol, 4, 5, i)
        check_hand(res, rules, pol, 3, (0, 0))
        # the deal is the lazy Fisher-Yates of the pack, eldest first, the dealer last, the kitty
        full = stream_deal(rules.deck, 5, i)
        assert res["dealt"] == [sorted(full[10 * s : 10 * s + 10]) for s in range(4)]
        assert res["kitty"] == sorted(full[40:])
        # the same deal stacked plays the same
        assert play_dealt(rules, pol, full) == res


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variants_obey_the_laws(name):
    rng = random.Random(name)
    rules = Rules(**VARIANTS[name].rules)
    for i in range(12):
        pol = random_policy(rng)
        check_hand(hand_result(rules, pol, 4, 9, i), rules, pol, 3, (0, 0))


@pytest.mark.slow
def test_random_tables_dealers_and_scores():
    """Random rules, policies, dealers, stacks and scores; every feature the laws speak of
    must turn up somewhere."""
    rng = random.Random(2024)
    stats = Counter()
    for i in range(900):
        rules = random_rules(rng, misere_needs_7=rng.random() < 0.3)
        pol = random_policy(rng)
        dealer = rng.randrange(4)
        pack = the_pack(rules.deck)
        stacked = rng.sample(pack, len(pack))[: rng.choice([len(pack), len(pack), 40, 12, 0])]
        scores = (rng.choice([0, 100, 350, 480, 490, -200, -480]), rng.choice([0, 300, 470, 490, 495, -460]))
        log = []
        res = play_dealt(rules, pol, stacked, dealer=dealer, scores=scores, log=log)
        check_hand(res, rules, pol, dealer, scores, stats)
        full = stacked + [c for c in pack if c not in stacked]
        for k in range(4):
            assert res["dealt"][(dealer + 1 + k) % 4] == sorted(full[10 * k : 10 * k + 10])
        assert res["kitty"] == sorted(full[40:])
        assert log and all(isinstance(line, str) for line in log)
    for feature in (
        "thrown in",
        ("contract", "mis"),
        ("contract", "om"),
        ("contract", "nt"),
        ("contract", "suit"),
        ("contract", "none"),
        "nominated",
        "suitless joker led",
        "free joker",
        "misere stopped",
        "left bower played",
        "slam",
        "exposed follow",
        "forcing lead",
    ):
        assert stats[feature] > 0, f"no hand with {feature}: {dict(stats)}"


# ----------------------------------------------------------------------------------------
# The deal: counts against exact values


def joker_in_kitty_rate(deck, n, seed):
    rules = Rules(deck=deck)
    both_red_jacks = [0] * 4
    hits = 0
    for i in range(n):
        hands, kitty = twin.deal(rules, twin.Pack(twin.pack_cards(deck), Stream(seed, i)), 3)
        hits += JO in kitty
        for s in range(4):
            both_red_jacks[s] += 23 in hands[s] and 36 in hands[s]
    return hits / n, [b / n for b in both_red_jacks]


def within(rate, p, n, z=4.5):
    return abs(rate - p) <= z * sqrt(p * (1 - p) / n)


@pytest.mark.slow
def test_deal_counts_match_exact_values():
    n = 12000
    rate, jacks = joker_in_kitty_rate(DECK_43, n, 17)
    assert within(rate, 3 / 43, n)
    p_jacks = comb(41, 8) / comb(43, 10)
    for s in range(4):
        assert within(jacks[s], p_jacks, n)
    rate, _ = joker_in_kitty_rate(DECK_45, 6000, 18)
    assert within(rate, 5 / 45, 6000)


def test_pack_and_deal_order():
    for deck in (DECK_43, DECK_45, DECK_46):
        assert twin.pack_cards(deck) == the_pack(deck)
        assert len(twin.pack_cards(deck)) == SIZE[deck]
    # the pack in code order drawn with no swaps: seat 0 (the eldest) gets the first ten
    res = play_dealt(Rules(), policy(), [])
    pack = the_pack(DECK_43)
    assert res["dealt"] == [pack[0:10], pack[10:20], pack[20:30], pack[30:40]] and res["kitty"] == pack[40:]
    res = play_dealt(Rules(deck=DECK_46), policy(), [], dealer=1)
    pack = the_pack(DECK_46)
    assert res["dealt"][2] == pack[0:10] and res["dealt"][1] == pack[30:40] and res["kitty"] == pack[40:]


# ----------------------------------------------------------------------------------------
# The estimate, by hand


def test_estimate_by_hand():
    # hearts: Jo 2, Jh 2, Ah 2, Kh 1, 4 trumps beyond the fourth 8; As 2, Ac 2; no
    # diamond (Jd is elsewhere) with 8 trumps 1: 20 half tricks -> 12
    hand = cards("Jo Jh Ah Kh Qh 10h 9h 8h As Ac")
    assert twin.estimate(hand, 3) == 12
    # no trumps: Jo 2; hearts A 2, K 1, Q 1, 3 cards beyond the fourth 6; As 2, Ac 2: 16 -> 10
    assert twin.estimate(hand, 4) == 10
    # spades: trumps Jo and As (Js, Jc elsewhere): 2 + 2; hearts A 2, K 1; clubs A 2 (Ac
    # alone, no K); diamonds void but only 2 trumps: 9 -> 6
    assert twin.estimate(hand, 0) == 6
    # clubs with the left bower: Jc Js Qc Kc Ac 10c: right 2, left 2, A 2, K 1, two trumps
    # beyond the fourth 4; spades without Js: Ks 5s, K 1; diamonds Kd Ad: A 2, K 1; hearts
    # void with 6 trumps 1 -> 16 -> 10
    hand = cards("Jc Js Qc Kc Ac 10c Ks Kd Ad 5s")
    assert twin.estimate(hand, 1) == 10
    # spades: Js right, Jc left, Ks, 5s: 4 trumps: 2 + 2 + 1; clubs without Jc: Qc Kc Ac 10c:
    # A 2, K 1; diamonds 3; hearts void (4 trumps) 1 -> 12 -> 8
    assert twin.estimate(hand, 0) == 8
    assert twin.high_cards(hand) == 8 and twin.high_cards(cards("4h 5h 5c 10s BJ")) == 1


# ----------------------------------------------------------------------------------------
# Stacked deals derived by hand (dealer 3: seat 0 is the eldest hand)

# A. Open misere made.  Seat 0 holds the lowest cards of every suit and no high card; the
# kitty is Jo As Ah.  With open_misere_max 0 seat 0 bids open misere at once; nobody can
# outrank it (10H or 10NT, wanting 10 tricks) and all pass.  It discards Jo (jokers first),
# As, Ah (ties to the higher suit).  Trick 1: it leads its lowest card, 4d (the 4h ties on
# order, diamonds is the lower suit), and its hand is exposed (after-first-lead).  Seat 1
# can only beat it; none of its diamonds is below the contractor's lowest diamond left,
# 5d, so none is forcing: it sheds its highest, 10d; seat 2 is out; seat 3, the
# contractor not winning, sheds its highest diamond Ad.  Trick 2: seat 3 holds no forcing
# card (nothing below 4h, 5d or 5s) and leads the lowest card of a suit the exposed hand
# holds, 9s; seat 0 follows with its highest spade that does not win, 6s; seat 1, void,
# sheds its highest card (10c and 10d tie: clubs).  Every card of seat 0 is below every
# other card of its suit: it takes no trick, +500, and side 0 wins the game on a made
# contract.
DEAL_OM = cards(
    "4h 5h 6h 4d 5d 6d 5c 6c 5s 6s  7c 8c 9c 10c 7d 8d 9d 10d 7h 8h  "
    "Jc Qc Kc Ac Jd Qd 9h 10h 7s 8s  Kd Ad Jh Qh Kh 9s 10s Js Qs Ks  Jo As Ah"
)

# B. 6H made with a slam; the left bower follows a trump lead.  Seat 0 (estimate 12 in
# hearts, 10 at no trumps) bids 6H; seats 1-3 estimate at most 5 in their best suit and
# pass.  With the kitty 4h 5h 6h seat 0 discards its non-trumps Ac, As (keep value: aces,
# one card each, clubs first) and its lowest trump 4h.  Trick 1: it leads its highest
# trump, the joker (Jd and 7h are unseen); seat 1 must play the Jd, a trump, though it
# holds diamonds; seat 2, its partner winning, plays its cheapest card 7c (7s ties; clubs);
# seat 3 plays 7h.  Seat 0 then holds every trump left and takes all ten tricks: 6H is
# worth 100, a slam 250.
DEAL_SLAM = cards(
    "Jo Jh Ah Kh Qh 10h 9h 8h As Ac  Jd 4d 5d 6d 7d 8d 5c 6c 5s 6s  "
    "9d 10d Qd Kd Ad Jc 7c 8c Qs 7s  7h 9c 10c Qc Kc Js 8s 9s 10s Ks  4h 5h 6h"
)

# C. Misere fails at trick 1.  misere_needs_7 off; seats 1-3 bid three tricks below their
# estimate (bid_offset -3) and pass.  Seat 0 (no high card) bids misere, discards the kitty
# Ah Kh Qh (its highest cards) and leads its lowest card, 4h; seats 1 and 3 hold no heart:
# seat 1 plays its highest card that does not beat the 4h (Qd: the joker would win), seat 3
# its highest (Ac; the aces tie, clubs first), so seat 0 takes trick 1 and play stops.
DEAL_MISERE = cards(
    "4h 5h 5c 6c 7c 5s 6s 7s 5d 6d  Jo 8c 9c 10c 8s 9s 10s 10d Jd Qd  "
    "6h 7h 8h 9h 10h Jh 4d 7d 8d 9d  Jc Qc Kc Ac Js Qs Ks As Ad Kd  Ah Kh Qh"
)
MISERE_RULES = Rules(misere_needs_7=False)
MISERE_POLICY = policy(s1_bid_offset=-3, s2_bid_offset=-3, s3_bid_offset=-3)

# E. 6NT with the joker.  Seat 0 estimates 9 at no trumps and 9 in clubs (ties to no
# trumps) and bids 6NT; the others pass.  With the kitty 6c 7c 8c its keep values put the
# short kings first: it discards Kd, Ks and the lowest club 5c, and (nominate 1) names
# clubs, its longest suit, for the joker.  It leads its highest sure winner, the joker, a
# club above the Ac; each defender must follow with its one club.  Trick 2: every card it
# holds is a sure winner; the aces tie on order and clubs is the lower suit; the others,
# void, play their cheapest cards (4d, 7d, 10d: diamonds below hearts on equal order).
# All its cards stay sure: ten tricks, a slam of 250.  With nominate 0 the joker stays
# suitless: still a sure winner, it is led naming clubs, where seat 0 holds the most cards.
DEAL_NT = cards(
    "Jo Ac Kc Qc 5c Ad Kd Ah As Ks  9c 4d 5d 6d 4h 5h 6h 5s 6s 7s  "
    "10c 7d 8d 9d 7h 8h 9h 8s 9s 10s  Jc 10d Jd Qd 10h Jh Qh Kh Js Qs  6c 7c 8c"
)


def test_no_trumps_with_the_joker_nominated_or_led_suitless():
    res = play_dealt(Rules(), policy(nominate=1), DEAL_NT)
    assert res["auction"] == [(0, 4), (1, -1), (2, -1), (3, -1)]
    assert res["discards"] == sorted(cards("Kd Ks 5c")) and res["nominated"] == {JO: 0}
    assert res["tricks"][0] == (0, [(0, JO), (1, 8), (2, 9), (3, 10)], 0, -1)
    assert res["tricks"][1] == (0, [(0, 0), (1, 16), (2, 19), (3, 22)], 0, -1)
    assert res["tricks_won"] == [10, 0, 0, 0] and res["points"] == [250, 0]
    for rules, pol in ((Rules(), policy(nominate=0)), (Rules(nt_joker=1), policy(nominate=1))):
        res = play_dealt(rules, pol, DEAL_NT)
        assert res["nominated"] == {}
        assert res["tricks"][0] == (0, [(0, JO), (1, 8), (2, 9), (3, 10)], 0, 0)
        assert res["tricks_won"] == [10, 0, 0, 0]
    # lead-last-only: the suitless joker waits for trick 10 (the aces tie: Ac leads), where
    # seat 0, having shown void nowhere and holding nothing else, names clubs
    res = play_dealt(Rules(nt_joker=NT_JOKER_LEAD_LAST_ONLY), policy(nominate=0), DEAL_NT)
    assert res["tricks"][0] == (0, [(0, 0), (1, 8), (2, 9), (3, 10)], 0, -1)
    assert res["tricks"][9][:2] == (0, [(0, JO)] + res["tricks"][9][1][1:]) and res["tricks"][9][3] == 0
    assert all(plays[0][1] != JO for _, plays, _, _ in res["tricks"][:9])


# D. Four passes.  bid_offset -3 everywhere: the best hand (seat 3: 8 in clubs) wants 5.
DEAL_PASS = cards(
    "4h 5h 6h 4d 5d 6d 5c 6c 5s 6s  7h 8h 9h 7d 8d 9d 7c 8c 7s 8s  "
    "10h Jh Qh 10d Jd Qd 9c 10c 9s 10s  Kh Kd Ad Jc Qc Kc Ac Js Qs Ks  Jo Ah As"
)


def test_open_misere_made_wins_the_game():
    rules = Rules()
    pol = policy(open_misere_max=0)
    res = play_dealt(rules, pol, DEAL_OM)
    assert res["auction"] == [(0, OPEN_MISERE), (1, -1), (2, -1), (3, -1)]
    assert res["contract"] == OPEN_MISERE and res["contractor"] == 0
    assert res["discards"] == sorted(cards("Ah As Jo")) and res["nominated"] == {}
    assert res["tricks"][0] == (0, [(0, 16), (1, 22), (3, 13)], 3, -1)
    assert res["tricks"][1] == (3, [(3, 47), (0, 44), (1, 9)], 3, -1)
    assert len(res["tricks"]) == 10 and res["tricks_won"][0] == 0 and res["tricks_won"][2] == 0
    assert sum(res["tricks_won"]) == 10 and res["made"] == 1
    assert res["points"] == [500, 0] and res["scores"] == [500, 0]
    assert res["winner"] == 0 and res["ended"] == "contract"
    game = play_game(rules, pol, [DEAL_OM, DEAL_SLAM])
    assert game["hands"] == 1 and game["winner"] == 0 and game["ended"] == "contract"
    assert game["scores"] == [500, 0] and game["results"] == [res]


def test_slam_and_the_left_bower():
    res = play_dealt(Rules(), policy(), DEAL_SLAM)
    assert res["auction"] == [(0, 3), (1, -1), (2, -1), (3, -1)]
    assert res["discards"] == sorted(cards("Ac 4h As"))
    assert res["tricks"][0] == (0, [(0, JO), (1, 23), (2, 6), (3, 32)], 0, -1)
    assert [w for _, _, w, _ in res["tricks"]] == [0] * 10
    assert res["tricks_won"] == [10, 0, 0, 0] and res["made"] == 1
    assert res["points"] == [250, 0] and res["scores"] == [250, 0] and res["winner"] == -1
    # from 300 the slam reaches 550: side 0 wins on its contract
    res = play_dealt(Rules(), policy(), DEAL_SLAM, scores=(300, 480))
    assert res["scores"] == [550, 480] and res["winner"] == 0 and res["ended"] == "contract"
    # seat 1 dealing: seat 2 is the eldest hand and gets the first ten cards
    res = play_dealt(Rules(), policy(), DEAL_SLAM, dealer=1)
    assert res["dealt"][2] == sorted(DEAL_SLAM[:10]) and res["contractor"] == 2
    assert res["auction"][0] == (2, 3) and res["points"] == [250, 0]


@pytest.mark.parametrize(
    "opp,stop,tricks,defence",
    [
        (0, True, 1, 0),
        (MISERE_OPP_PER_CONTRACTOR_TRICK, True, 1, 10),
        (0, False, 10, 0),
        (MISERE_OPP_PER_TRICK_WON, True, 10, None),
    ],
)
def test_misere_stops_early(opp, stop, tricks, defence):
    rules = MISERE_RULES._replace(misere_opp_score=opp, misere_stop_early=stop)
    res = play_dealt(rules, MISERE_POLICY, DEAL_MISERE)
    assert res["auction"] == [(0, MISERE), (1, -1), (2, -1), (3, -1)]
    assert res["discards"] == sorted(cards("Ah Kh Qh"))
    assert res["tricks"][0] == (0, [(0, 29), (1, 24), (3, 0)], 0, -1)
    assert len(res["tricks"]) == tricks and res["made"] == 0 and res["tricks_won"][2] == 0
    if defence is None:
        defence = 10 * res["side_tricks"][1]
    assert res["points"] == [-250, defence]
    # the partner's cards never appear in a trick
    assert all(s != 2 for _, plays, _, _ in res["tricks"] for s, _ in plays)


def test_four_passes():
    pol = policy(bid_offset=-3)
    res = play_dealt(Rules(), pol, DEAL_PASS, scores=(480, 470))
    assert res["auction"] == [(0, -1), (1, -1), (2, -1), (3, -1)] and res["contract"] == -1
    assert res["tricks"] == [] and res["points"] == [0, 0] and res["scores"] == [480, 470]
    rules = Rules(all_pass=ALL_PASS_NO_TRUMPS)
    res = play_dealt(rules, pol, DEAL_PASS, scores=(480, 470))
    assert res["tricks"][0][0] == 0 and len(res["tricks"]) == 10 and res["made"] == -1
    assert res["discards"] == [] and not {c for _, p, _, _ in res["tricks"] for _, c in p} & set(cards("Jo Ah As"))
    p = [10 * res["side_tricks"][0], 10 * res["side_tricks"][1]]
    assert sum(p) == 100
    assert res["scores"] == [min(480 + p[0], 490), min(470 + p[1], 490)] and res["winner"] == -1
    assert res["points"] == [res["scores"][0] - 480, res["scores"][1] - 470]  # what the hand adds
    # the cap leaves a side above it where it is
    res = play_dealt(rules._replace(opp_cap=300), pol, DEAL_PASS, scores=(480, 0))
    assert res["scores"] == [480, min(p[1], 300)] and res["points"] == [0, min(p[1], 300)]
    # without the cap the first side at 500 wins on points
    res = play_dealt(rules._replace(win_by_contract_only=False), pol, DEAL_PASS, scores=(480, 470))
    assert res["scores"] == [480 + p[0], 470 + p[1]] and res["ended"] == "any_points" and res["points"] == p


# ----------------------------------------------------------------------------------------
# Hand rows, games, simulate


def test_hand_rows_and_simulate():
    rng = random.Random(77)
    for rules in (Rules(), Rules(deck=DECK_46, all_pass=1), random_rules(rng), random_rules(rng)):
        pol = random_policy(rng)
        total = np.zeros((5, HAND_OUTCOMES.width), dtype=np.int64)
        for i in range(4, 24):
            seat_rows, table = hand_rows(rules, pol, 4, 21, i)
            res = hand_result(rules, pol, 4, 21, i)
            c, cs, made = res["contract"], res["contractor"], res["made"]
            for s in range(4):
                row = seat_rows[s]
                assert row[HS["contractor"]] == int(cs == s) == row[HS["made_count"]]
                assert row[HS["made"]] == int(cs == s and made == 1)
                assert row[HS["score"]] == res["points"][s % 2] and row[HS["score_sq"]] == row[HS["score"]] ** 2
                assert row[HS["tricks"]] == res["tricks_won"][s] and row[HS["tricks_sq"]] == row[HS["tricks"]] ** 2
            assert table[HT["all_pass"]] == int(c == -1)
            assert table[HT["misere"]] == table[HT["misere_made_count"]] == int(c == MISERE)
            assert table[HT["misere_made"]] == int(c == MISERE and made == 1)
            assert table[HT["open_misere"]] == table[HT["open_misere_made_count"]] == int(c == OPEN_MISERE)
            assert table[HT["open_misere_made"]] == int(c == OPEN_MISERE and made == 1)
            assert table[HT["joker_in_kitty"]] == int(JO in res["kitty"])
            decl = res["points"][cs % 2] if cs >= 0 else 0
            defe = res["points"][1 - cs % 2] if cs >= 0 else 0
            assert table[HT["declarer_score"]] == decl and table[HT["declarer_score_sq"]] == decl**2
            assert table[HT["defence_score"]] == defe and table[HT["defence_score_sq"]] == defe**2
            labels = [name[4:] for name in HAND_OUTCOMES.table if name.startswith("bid_")]
            assert len(labels) == 27
            for k, label in enumerate(labels):
                assert table[HT[f"bid_{label}"]] == int(c == k) == table[HT[f"make_{label}_count"]]
                assert table[HT[f"value_{label}_count"]] == int(c == k)
                assert table[HT[f"make_{label}"]] == int(c == k and made == 1)
                assert table[HT[f"value_{label}"]] == (decl if c == k else 0)
                assert table[HT[f"value_{label}_sq"]] == (decl**2 if c == k else 0)
            total[:4, : len(HAND_OUTCOMES.seat)] += np.array(seat_rows)
            total[4, : len(HAND_OUTCOMES.table)] += np.array(table)
        assert (simulate(rules, pol, 4, HANDS, 21, 4, 20) == total).all()


def check_game(game, rules, pol, first_dealer=3):
    scores = [0, 0]
    results = game["results"]
    assert game["hands"] == len(results) >= 1
    for k, res in enumerate(results):
        dealer = (first_dealer + k) % 4
        check_hand(res, rules, pol, dealer, tuple(scores))
        scores = res["scores"]
        assert (res["winner"] >= 0) == (k == len(results) - 1 and game["ended"] not in ("truncated", ""))
    assert game["scores"] == scores
    if game["ended"] == "truncated":
        assert game["hands"] == rules.max_hands and game["winner"] == -1
    elif game["ended"] == "":  # the listed deals ran out
        assert game["hands"] < rules.max_hands and game["winner"] == -1
    else:
        assert game["winner"] == results[-1]["winner"] >= 0 and game["ended"] == results[-1]["ended"]
    if rules.win_by_contract_only and game["winner"] >= 0 and game["ended"] != "minus_500":
        last = results[-1]
        assert game["ended"] == "contract" and last["contractor"] % 2 == game["winner"] and last["made"] == 1
        assert scores[game["winner"]] >= 500
    if game["ended"] == "minus_500":
        assert scores[1 - game["winner"]] <= -500


@pytest.mark.parametrize(
    "win_by_contract_only,cap,max_hands", [(True, 490, 1000), (False, 490, 1000), (True, 200, 1000), (True, 490, 4)]
)
def test_games_and_simulate(win_by_contract_only, cap, max_hands):
    rng = random.Random(f"{win_by_contract_only}{cap}{max_hands}")
    rules = Rules(
        win_by_contract_only=win_by_contract_only, opp_cap=cap, max_hands=max_hands, all_pass=rng.randint(0, 1)
    )
    pol = random_policy(rng)
    total = None
    for i in range(5):
        game = game_result(rules, pol, 4, 33, i)
        check_game(game, rules, pol)
        seat_rows, table = game_rows(rules, pol, 4, 33, i)
        hands = game["hands"]
        for s in range(4):
            assert seat_rows[s] == [int(game["winner"] == s % 2), game["scores"][s % 2], game["scores"][s % 2] ** 2]
        assert table[GT["hands"]] == hands and table[GT["hands_sq"]] == hands**2
        ends = [table[GT[f"end_{e}"]] for e in ("contract", "minus_500", "any_points")] + [table[GT["truncated"]]]
        assert ends == [int(game["ended"] == e) for e in ("contract", "minus_500", "any_points", "truncated")]
        assert sum(ends) == 1
        buckets = [table[GT[name]] for name in GAME_OUTCOMES.table if name.startswith("length_")]
        assert buckets == [int(lo <= hands <= hi) for lo, hi in LENGTH_BUCKETS]
        one = np.zeros((5, GAME_OUTCOMES.width), dtype=np.int64)
        one[:4, : len(GAME_OUTCOMES.seat)] = np.array(seat_rows)
        one[4, : len(GAME_OUTCOMES.table)] = np.array(table)
        total = one if total is None else total + one
    assert (simulate(rules, pol, 4, GAMES, 33, 0, 5) == total).all()


def test_game_is_its_hands_on_one_stream():
    """A game draws every hand from one stream, each from the pack in code order: the same
    as play_game on the full packs that stream gives, the dealer passing left."""
    rng = random.Random(8)
    for i in range(6):
        rules = random_rules(rng, max_hands=rng.choice([2, 1000]))
        pol = random_policy(rng)
        st = Stream(44, i)
        deals = []
        for _ in range(80):
            pack = the_pack(rules.deck)
            for t in range(len(pack)):
                j = t + st.below(len(pack) - t)
                pack[t], pack[j] = pack[j], pack[t]
            deals.append(pack)
        game = game_result(rules, pol, 4, 44, i)
        assert play_game(rules, pol, deals) == game
        assert game["ended"] != ""
        check_game(game, rules, pol)
    # a listed game that runs out of deals, and another first dealer
    rules = Rules()
    deals = [stream_deal(DECK_43, 45, k) for k in range(2)]
    part = play_game(rules, policy(), deals, first_dealer=1)
    assert part["hands"] <= 2
    if part["winner"] < 0:
        assert part["ended"] == "" and part["hands"] == 2
    check_game(part, rules, policy(), first_dealer=1)
    assert play_game(rules, policy(), []) == {"results": [], "scores": [0, 0], "winner": -1, "ended": "", "hands": 0}


# ----------------------------------------------------------------------------------------
# Replay and input


def test_replay_shows_the_auction_and_every_trick():
    for seed, hand in ((1, 0), (3, 4), (8, 2)):
        rules = Rules(deck=DECK_46)
        lines = replay_lines(rules, policy(), 4, seed, hand)
        res = hand_result(rules, policy(), 4, seed, hand)
        text = "\n".join(lines)
        assert sum(1 for line in lines if line.startswith("call: ")) == len(res["auction"])
        for t in range(1, len(res["tricks"]) + 1):
            assert any(line.startswith(f"trick {t}:") for line in lines)
        assert not any(line.startswith(f"trick {len(res['tricks']) + 1}:") for line in lines)
        assert "kitty:" in text and "totals:" in text
    assert twin.card_text(JO) == "Jo" and twin.card_text(BJ) == "BJ" and twin.card_text(35) == "10h"
    assert twin.card_text(23) == "Jd"


def test_bad_input_raises_value_error():
    good = policy()
    for bad_rules in (
        Rules(deck=3),
        Rules(nt_joker=5),
        Rules(opp_cap=500),
        Rules(max_hands=0),
        Rules(misere_opp_score=-1),
        Rules(allow_misere=2),
        (0,) * 15,
    ):
        with pytest.raises(ValueError):
            play_dealt(bad_rules, good, [])
    for bad_policy in (
        good[:3],
        np.zeros((5, 5)),
        policy(bid_offset=4),
        policy(misere_max=11),
        policy(open_misere_max=-2),
        policy(partner_margin=0.5),
        policy(nominate=2),
        np.zeros((4, 4)),
        np.zeros(5),
        [[0, 1, -1, 1, "x"]] * 4,
    ):
        with pytest.raises(ValueError):
            play_dealt(Rules(), bad_policy, [])
    for bad_cards in ([0, 0], [1], [3], [53], [54], [-1], [1.5], ["Ah"], None, [None]):
        with pytest.raises(ValueError):
            play_dealt(Rules(), good, bad_cards)
    play_dealt(Rules(deck=DECK_45), good, [3, 42])  # the black 4s are in the 45-card pack
    play_dealt(Rules(deck=DECK_46), good, [53])
    for dealer in (4, -1, 1.5, "0"):
        with pytest.raises(ValueError):
            play_dealt(Rules(), good, [], dealer=dealer)
    for scores in ((0,), (0, 500), (-500, 0), (0.5, 0), None):
        with pytest.raises(ValueError):
            play_dealt(Rules(), good, [], scores=scores)
    with pytest.raises(ValueError):
        play_game(Rules(), good, [[0, 0]])
    with pytest.raises(ValueError):
        play_game(Rules(), good, [[]], first_dealer=4)
    with pytest.raises(ValueError):
        hand_rows(Rules(), good, 3, 1, 0)
    with pytest.raises(ValueError):
        game_rows(Rules(), good, 5, 1, 0)
    with pytest.raises(ValueError):
        simulate(Rules(), good, 4, 2, 1, 0, 1)
    with pytest.raises(ValueError):
        replay_lines(Rules(first_lead=2), good, 4, 1, 0)
