"""Stacked-deck rule tests of Five Hundred, run against both the Numba kernel
(sims.games.five_hundred: play_dealt, play_game) and the plain-Python twin
(sims.games.five_hundred.twin: the same functions).

Every expected value below is derived by hand from the rules contract (the docstring of
sims/games/five_hundred/__init__.py and the definitions in its rules.py), never from an
implementation.  Conventions used in the derivations:
  * cards are written "10h Jd Ks", "Jo" for the joker (52), "BJ" for the black joker (53);
    codes are suit * 13 + face (suits c d h s = 0..3, faces A = 0, 2 = 1, ..., K = 12);
  * ``deal(hands, kitty, dealer)`` takes each seat's ten cards (indexed by seat) and the
    kitty, checks that together they are exactly the pack, and stacks them in draw order:
    the eldest hand (dealer + 1) first, clockwise, the dealer last, then the kitty.  The
    dealer is seat 3 unless a test says otherwise, so seat 0 is the eldest hand;
  * sides: seats 0 and 2 are side 0, seats 1 and 3 side 1;
  * contract ids: 5 * (tricks - 6) + denomination (S C D H NT = 0..4), MIS = 25, OM = 26;
    ladder positions (rules.ladder_position): trick bid id i at 2i; misere 19 (above-7nt)
    or 21 (by-value); open misere 45 (above-10d) or 49 (highest);
  * estimates (the bidding rule, contract "Hand strength"): half tricks counted from the
    seat's own ten cards, estimate = half // 2 + 2; want = estimate + bid_offset, at most
    10; a seat only ever bids in its best denomination d* (ties to the higher
    denomination, NT highest), the cheapest bid in d* that outranks the current bid, when
    k <= want (and k + partner_margin <= want over its partner's bid).  Each hand's
    estimates are worked out next to it; "est S/C/D/H/NT" lists them;
  * policy rows (POLICY_FIELDS order: bid_offset, misere_max, open_misere_max,
    partner_margin, nominate): ``PASS`` = bid_offset -3 and no misere: a seat whose best
    estimate is at most 8 wants at most 5 tricks and always passes a trick bid;
    ``bidder(k)`` = bid_offset k, never misere;
  * "cheapest" = the lowest-ordered card (contract "Card play").  How a card's order
    compares across suits is not stated (the position within its suit, where the black
    suits start at 5 and hearts/diamonds at 4, or the face); every expected choice below
    is the same under both readings (the faces differ by two or more, or both readings tie
    and the tie goes to the lower suit code);
  * following: partner winning -> cheapest legal card; else the lowest legal card that
    beats the card now winning; else the cheapest legal card.  Leading (trick contracts):
    the contracting side leads its highest trump while a trump is unseen, else the highest
    sure winner, else the cheapest card of its longest suit.  At no trumps an unseen
    suitless joker makes every plain card unsure.
``check_law`` replays every result against the contract's laws (the deal, the auction, the kitty
exchange, turn order, following suit with the left bower and the joker, trick winners,
tricks_won, the misere early stop, the points and the end-of-game totals); each test also
asserts its hand-derived values.
Trick notation: ``T(0, "0:Jh 1:Jo 2:4h 3:6h", 1)`` = (leader, [(seat, card), ...], winner,
named) with named -1 unless given.
"""

from __future__ import annotations

import numpy as np
import pytest

from sims.core.cards import card_code
from sims.games.five_hundred import stacked, twin
from sims.games.five_hundred.rules import (
    ALL_PASS_NO_TRUMPS,
    DECK_45,
    DECK_46,
    EXPOSE_AFTER_FIRST_LEAD,
    EXPOSE_AFTER_FIRST_TRICK,
    EXPOSE_BEFORE_LEAD,
    LEAD_CONTRACTOR,
    LEAD_ELDEST,
    MISERE,
    MISERE_ABOVE_7NT,
    MISERE_BY_VALUE,
    MISERE_OPP_NONE,
    MISERE_OPP_PER_CONTRACTOR_TRICK,
    MISERE_OPP_PER_TRICK_WON,
    NT_JOKER_ANY_TIME,
    NT_JOKER_FIRST_ROUND_FREE,
    NT_JOKER_LEAD_LAST_ONLY,
    NT_JOKER_MAY_NOMINATE,
    NT_JOKER_OWN_SUIT_ONLY,
    OPEN_MISERE,
    OPEN_MISERE_ABOVE_10D,
    OPEN_MISERE_HIGHEST,
    POLICY_FIELDS,
    Rules,
    contract_value,
    ladder_position,
)

IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
GAME_IMPLEMENTATIONS = {"kernel": stacked.play_game, "twin": twin.play_game}
play_dealt = twin.play_dealt  # rebound per test by the `implementation` fixture (conftest.py)
pytestmark = pytest.mark.usefixtures("implementation")

R = Rules()
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
JOKER, BLACK_JOKER = 52, 53
DEALT_KEYS = {
    "dealt",
    "kitty",
    "auction",
    "contract",
    "contractor",
    "discards",
    "nominated",
    "tricks",
    "tricks_won",
    "side_tricks",
    "made",
    "points",
    "scores",
    "winner",
    "ended",
}
GAME_KEYS = {"results", "scores", "winner", "ended", "hands"}


# ----------------------------------------------------------------------------------------
# Helpers


@pytest.fixture
def play_game(implementation):
    """The play_game of the implementation under test (from the same ``implementation``
    fixture that rebinds play_dealt, so each game test runs once per implementation)."""
    return GAME_IMPLEMENTATIONS[implementation]


def c(text):
    """One card: "10h", "Jd", "Jo" (52), "BJ" (53)."""
    if text == "Jo":
        return JOKER
    if text == "BJ":
        return BLACK_JOKER
    return card_code(text)


def cards(text):
    return [c(t) for t in text.split()]


def hand(text):
    return sorted(cards(text))


def pack(deck=43):
    """The pack of the contract: hearts and diamonds A K..4, clubs and spades A K..5, the
    joker; 45 adds 4c 4s; 46 adds the black joker too."""
    out = []
    for suit in range(4):
        low = 3 if suit in (DIAMONDS, HEARTS) or deck >= 45 else 4  # face index of the lowest card
        out += [13 * suit] + [13 * suit + f for f in range(low, 13)]
    out.append(JOKER)
    if deck == 46:
        out.append(BLACK_JOKER)
    return sorted(out)


def deal(hands, kitty, dealer=3, deck=43):
    """The stacked pack from each seat's hand (indexed by seat) and the kitty: eldest hand
    (dealer + 1) first, clockwise, the dealer last, then the kitty.  Asserts the hands and
    the kitty are exactly the pack."""
    out = []
    for i in range(4):
        h = cards(hands[(dealer + 1 + i) % 4])
        assert len(h) == 10, hands[(dealer + 1 + i) % 4]
        out += h
    k = cards(kitty)
    assert len(k) == {43: 3, 45: 5, 46: 6}[deck]
    out += k
    assert sorted(out) == pack(deck), "the hands and the kitty must be exactly the pack"
    return out


def row(bid_offset=0, misere_max=1, open_misere_max=-1, partner_margin=1, nominate=0):
    """One policy row; the defaults are the contract's."""
    return [bid_offset, misere_max, open_misere_max, partner_margin, nominate]


PASS = row(bid_offset=-3, misere_max=-1)


def bidder(bid_offset, **kw):
    """A trick bidder that never bids misere."""
    return row(bid_offset=bid_offset, misere_max=-1, **kw)


def pol(*rows):
    return np.array(rows, dtype=np.float64)


BID_IDS = {"P": -1, "MIS": MISERE, "OM": OPEN_MISERE}


def bid_id(name):
    if name in BID_IDS:
        return BID_IDS[name]
    tricks, denom = int(name[0]) if name[:2] != "10" else 10, name[1:] if name[:2] != "10" else name[2:]
    return 5 * (tricks - 6) + ["S", "C", "D", "H", "NT"].index(denom)


def AU(text):
    """AU("0:6H 1:P") -> [(0, 3), (1, -1)]"""
    out = []
    for item in text.split():
        seat, name = item.split(":")
        out.append((int(seat), bid_id(name)))
    return out


def T(leader, plays, winner, named=-1):
    """T(0, "0:Jh 1:Jo 2:4h 3:6h", 1) = (leader, [(seat, card), ...], winner, named)"""
    out = []
    for item in plays.split():
        seat, card = item.split(":")
        out.append((int(seat), c(card)))
    return (leader, out, winner, named)


def tricks_of(res):
    return [(int(ld), [(int(s), int(x)) for s, x in p], int(w), int(n)) for ld, p, w, n in res["tricks"]]


def ints(values):
    return [int(v) for v in values]


def auction_of(res):
    return [(int(s), int(b)) for s, b in res["auction"]]


def nominated_of(res):
    return {int(k): int(v) for k, v in res["nominated"].items()}


def check_game(res, rules, deals, first_dealer=3):
    """check_law on every hand of a play_game result, with the running totals; hand k is
    dealt by (first_dealer + k) mod 4."""
    scores = (0, 0)
    for k, r in enumerate(res["results"]):
        check_law(r, rules, deals[k], (first_dealer + k) % 4, scores)
        scores = tuple(ints(r["scores"]))
    assert ints(res["scores"]) == list(scores)


def play(rules, policy, cards_, dealer=None, scores=(0, 0)):
    """play_dealt, then check_law on the result."""
    res = play_dealt(rules, policy, cards_, dealer=dealer, scores=scores)
    check_law(res, rules, cards_, 3 if dealer is None else dealer, scores)
    return res


# ----------------------------------------------------------------------------------------
# The laws every played hand obeys (written from the contract, independent of the tests'
# hand derivations).

SAME_COLOUR = {CLUBS: SPADES, SPADES: CLUBS, DIAMONDS: HEARTS, HEARTS: DIAMONDS}
DENOMINATION_SUIT = (SPADES, CLUBS, DIAMONDS, HEARTS)


def _plain_rank(card):
    face = card % 13
    return 14 if face == 0 else face + 1


def check_law(res, rules, stacked, dealer, scores):
    deck = (43, 45, 46)[rules.deck]
    ksize = {43: 3, 45: 5, 46: 6}[deck]
    full = list(stacked) + [x for x in pack(deck) if x not in stacked]
    eldest = (dealer + 1) % 4
    assert set(res) == DEALT_KEYS
    # the deal
    dealt = [None] * 4
    for i in range(4):
        dealt[(eldest + i) % 4] = sorted(full[10 * i : 10 * i + 10])
    assert [ints(h) for h in res["dealt"]] == dealt
    assert ints(res["kitty"]) == sorted(full[40 : 40 + ksize])
    contract, contractor = int(res["contract"]), int(res["contractor"])
    auction = auction_of(res)
    # the auction: clockwise from the eldest, passed seats skipped, each bid outranking the
    # last; it ends at once when three have passed and the fourth has bid, all four have
    # passed, or a bid nothing can outrank is made (10NT - unless open misere is highest and
    # misere allowed - or open misere under highest)
    highest = rules.open_misere_rank == OPEN_MISERE_HIGHEST

    def pos(b):
        return ladder_position(b, rules.misere_rank, rules.open_misere_rank)

    passed = set()
    seat = eldest
    current = -1
    for i, (s, b) in enumerate(auction):
        assert not (len(passed) == 4 or (len(passed) == 3 and current >= 0)), "the auction went on"
        while seat in passed:
            seat = (seat + 1) % 4
        assert s == seat
        if b == -1:
            passed.add(s)
        else:
            assert current == -1 or pos(b) > pos(current)
            current = b
            closes = (b == 24 and not (highest and rules.allow_misere)) or (b == OPEN_MISERE and highest)
            assert not closes or i == len(auction) - 1
        seat = (seat + 1) % 4
    bids = [(s, b) for s, b in auction if b >= 0]
    if contract == -1:
        assert contractor == -1 and not bids and len(auction) == 4
    else:
        assert bids[-1] == (contractor, contract)
        closes = (contract == 24 and not (highest and rules.allow_misere)) or (contract == OPEN_MISERE and highest)
        assert len(passed) == 3 or closes
    # the kitty exchange
    held = [list(h) for h in dealt]
    discards = ints(res["discards"])
    if contractor >= 0:
        pool = dealt[contractor] + ints(res["kitty"])
        assert len(discards) == ksize and discards == sorted(discards) and set(discards) <= set(pool)
        held[contractor] = sorted(set(pool) - set(discards))
    else:
        assert discards == []
    nominated = nominated_of(res)
    misere = contract in (MISERE, OPEN_MISERE)
    suit_contract = 0 <= contract < 25 and contract % 5 != 4
    trump = DENOMINATION_SUIT[contract % 5] if suit_contract else None
    if nominated:
        assert contract % 5 == 4 and contract < 25 and rules.nt_joker == NT_JOKER_MAY_NOMINATE
        assert set(nominated) <= set(held[contractor]) & {JOKER, BLACK_JOKER}
    out = (contractor + 2) % 4 if misere else -1

    def eff(x):  # effective suit; None = a suitless joker
        if trump is not None:
            if x >= 52 or x == 13 * trump + 10 or x == 13 * SAME_COLOUR[trump] + 10:
                return trump
            return x // 13
        if x >= 52:
            return nominated.get(x)
        return x // 13

    def rank(x):
        if trump is not None and eff(x) == trump:
            return {BLACK_JOKER: 40, JOKER: 39, 13 * trump + 10: 38, 13 * SAME_COLOUR[trump] + 10: 37}.get(
                x, _plain_rank(x)
            )
        if x >= 52:
            return 30 + x  # a nominated joker tops its suit, the black one above the red one
        return _plain_rank(x)

    tricks = tricks_of(res)
    if contract == -1 and rules.all_pass != ALL_PASS_NO_TRUMPS:
        assert tricks == []
    else:
        assert tricks
        lead = eldest if contract == -1 or rules.first_lead == LEAD_ELDEST else contractor
        if lead == out:
            lead = (out + 1) % 4  # (reading) the eldest sits out: the next seat clockwise leads
        hands = [set(h) for h in held]
        won = [0] * 4
        void = [set() for _ in range(4)]
        led_by = {}  # suit -> seats that have led it
        for t, (leader, plays, winner, named) in enumerate(tricks):
            assert leader == lead
            order = [(leader + i) % 4 for i in range(4) if (leader + i) % 4 != out]
            assert [s for s, _ in plays] == order
            first = plays[0][1]
            if eff(first) is None:  # a suitless joker led
                assert 0 <= named <= 3 and (named not in void[leader] or len(void[leader]) == 4)
                assert rules.nt_joker != NT_JOKER_LEAD_LAST_ONLY or t == 9 or all(x >= 52 for x in hands[leader])
                suit = named
            else:
                assert named == -1
                suit = eff(first)
            for i, (s, x) in enumerate(plays):
                assert x in hands[s]
                if i:
                    mine = [y for y in hands[s] if eff(y) == suit]
                    if mine and eff(x) != suit:
                        assert eff(x) is None
                        free = rules.nt_joker == NT_JOKER_ANY_TIME or (
                            rules.nt_joker == NT_JOKER_FIRST_ROUND_FREE and not (led_by.get(suit, set()) - {s})
                        )
                        assert free
                    if eff(x) != suit:  # (reading) a card not of the suit led shows void, a free joker too
                        void[s].add(suit)
                hands[s].discard(x)
            led_by.setdefault(suit, set()).add(leader)
            jokers = [(x, s) for s, x in plays if eff(x) is None]
            trumps = [(rank(x), s) for s, x in plays if trump is not None and eff(x) == trump]
            if jokers:
                top = max(jokers)[1]
            elif trumps:
                top = max(trumps)[1]
            else:
                top = max((rank(x), s) for s, x in plays if eff(x) == suit)[1]
            assert winner == top
            won[winner] += 1
            lead = winner
            if (
                misere
                and winner == contractor
                and rules.misere_stop_early
                and rules.misere_opp_score != MISERE_OPP_PER_TRICK_WON
            ):
                assert t == len(tricks) - 1
                break
        else:
            assert len(tricks) == 10 and all(not h for s, h in enumerate(hands) if s != out)
    won = [0] * 4
    for _, _, w, _ in tricks:
        won[w] += 1
    assert ints(res["tricks_won"]) == won
    side = [won[0] + won[2], won[1] + won[3]]
    assert ints(res["side_tricks"]) == side
    # points
    if contract == -1:
        points = [10 * side[0], 10 * side[1]] if tricks else [0, 0]
        made = -1
    else:
        cs = contractor % 2
        value = contract_value(contract)
        points = [0, 0]
        if misere:
            made = int(won[contractor] == 0)
            points[cs] = value if made else -value
            points[1 - cs] = {
                MISERE_OPP_NONE: 0,
                MISERE_OPP_PER_CONTRACTOR_TRICK: 10 * won[contractor],
                MISERE_OPP_PER_TRICK_WON: 10 * side[1 - cs],
            }[rules.misere_opp_score]
        else:
            made = int(side[cs] >= 6 + contract // 5)
            points[cs] = (250 if side[cs] == 10 and value < 250 else value) if made else -value
            points[1 - cs] = 10 * side[1 - cs]
    assert int(res["made"]) == made
    # the totals and the end of the game: points for tricks stop at the cap, and the
    # hand's points are what it adds to each total
    totals = [scores[0] + points[0], scores[1] + points[1]]
    if rules.win_by_contract_only:
        for s in range(2):
            if contract == -1 or s != contractor % 2:  # points for tricks
                totals[s] = min(scores[s] + points[s], max(scores[s], rules.opp_cap))
    assert ints(res["scores"]) == totals
    assert ints(res["points"]) == [totals[0] - scores[0], totals[1] - scores[1]]
    winner, ended = -1, ""
    if contract >= 0 and made and totals[contractor % 2] >= 500:
        winner, ended = contractor % 2, "contract"
    elif contract >= 0 and totals[contractor % 2] <= -500:
        winner, ended = 1 - contractor % 2, "minus_500"
    elif not rules.win_by_contract_only and max(totals) >= 500:
        if contract >= 0:
            winner = 1 - contractor % 2
        else:
            winner = 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else eldest % 2
        ended = "any_points"
    assert (int(res["winner"]), res["ended"]) == (winner, ended)


# ----------------------------------------------------------------------------------------
# Result keys, the log and refused tables

# LB1 (used throughout): hearts, contract 6H by seat 0 (the left bower tests below derive it).
LB1_HANDS = [
    "Jh Ah 10c 9c 8c 7c 10s 9s 8s 7s",
    "Jo Kd Qd 10d 9d 8d 7d 6c 5c 6s",
    "Jd 5h 4h Ac Kc Qc Jc As Ks Js",
    "Ad Kh Qh 10h 9h 8h 7h 6h 5s Qs",
]
LB1 = deal(LB1_HANDS, "6d 5d 4d")
LB1_POLICY = pol(bidder(2), PASS, PASS, PASS)


def test_policy_columns_are_in_contract_order():
    assert [f.key for f in POLICY_FIELDS] == [
        "bid_offset",
        "misere_max",
        "open_misere_max",
        "partner_margin",
        "nominate",
    ]


def test_play_dealt_result_keys_are_exactly_the_contracts():
    res = play(R, LB1_POLICY, LB1)
    assert set(res) == DEALT_KEYS
    assert [ints(h) for h in res["dealt"]] == [hand(h) for h in LB1_HANDS]
    assert ints(res["kitty"]) == hand("6d 5d 4d")


def test_play_dealt_log_is_left_alone_by_the_kernel_and_written_by_the_twin(implementation):
    log = []
    play_dealt(R, LB1_POLICY, LB1, log=log)
    if implementation == "kernel":
        assert log == []
    else:
        assert log and all(isinstance(line, str) for line in log)


def test_unlisted_cards_follow_in_code_order():
    # Listing only seat 0's hand (dealer 3: seat 0 is the eldest, dealt first): every other
    # card of the pack follows in code order, so seat 1 gets the ten lowest remaining codes.
    listed = cards(LB1_HANDS[0])
    rest = [x for x in pack() if x not in listed]
    res = play(R, pol(PASS, PASS, PASS, PASS), listed)
    assert [ints(h) for h in res["dealt"]] == [sorted(listed), rest[0:10], rest[10:20], rest[20:30]]
    assert ints(res["kitty"]) == rest[30:33]


@pytest.mark.parametrize(
    "policy",
    [
        pol(PASS, PASS, PASS),
        pol(PASS, PASS, PASS, PASS)[:, :4],
    ],
    ids=["three-seats", "four-columns"],
)
def test_bad_table_shape_raises(policy):
    with pytest.raises(ValueError):
        play_dealt(R, policy, LB1)


@pytest.mark.parametrize(
    "bad_row",
    [
        row(bid_offset=4),
        row(bid_offset=-4),
        row(misere_max=-2),
        row(misere_max=11),
        row(open_misere_max=11),
        row(partner_margin=4),
        row(partner_margin=-1),
        row(nominate=2),
        row(bid_offset=0.5),
    ],
    ids=[
        "offset-4",
        "offset--4",
        "misere--2",
        "misere-11",
        "om-11",
        "margin-4",
        "margin--1",
        "nominate-2",
        "offset-half",
    ],
)
def test_out_of_range_policy_value_raises(bad_row):
    with pytest.raises(ValueError):
        play_dealt(R, pol(PASS, bad_row, PASS, PASS), LB1)


@pytest.mark.parametrize(
    "bad_cards",
    [LB1[:5] + LB1[:1], [53], [2], [3], [-1], [54]],
    ids=["repeated", "black-joker-in-43", "3c-not-in-43", "4c-not-in-43", "negative", "code-54"],
)
def test_bad_cards_raise(bad_cards):
    with pytest.raises(ValueError):
        play_dealt(R, LB1_POLICY, bad_cards)


@pytest.mark.parametrize(
    "rules",
    [R._replace(deck=3), R._replace(opp_cap=491), R._replace(max_hands=0), R._replace(nt_joker=5)],
    ids=["deck-3", "opp_cap-491", "max_hands-0", "nt_joker-5"],
)
def test_bad_rule_value_raises(rules):
    with pytest.raises(ValueError):
        play_dealt(rules, LB1_POLICY, LB1)


@pytest.mark.parametrize("dealer", [4, -1], ids=["dealer-4", "dealer-neg"])
def test_bad_dealer_raises(dealer):
    with pytest.raises(ValueError):
        play_dealt(R, LB1_POLICY, LB1, dealer=dealer)


def test_play_game_result_keys_and_refused_table(play_game):
    res = play_game(R, LB1_POLICY, [LB1])
    assert set(res) == GAME_KEYS
    assert len(res["results"]) == 1 and set(res["results"][0]) == DEALT_KEYS
    with pytest.raises(ValueError):
        play_game(R, pol(PASS, PASS, PASS), [LB1])
    with pytest.raises(ValueError):
        play_game(R, LB1_POLICY, [LB1[:5] + LB1[:1]])


# ----------------------------------------------------------------------------------------
# The left bower belongs to the trump suit; the joker and the bowers win tricks.
#
# LB1: seat 0 (Jh Ah, four low clubs, four low spades): est H = Jh 2 + Ah 2 = 4 half
# tricks (two trumps only: no void bonus) -> 4; est D = left bower Jh 2 + Ah (a plain
# heart) 2 -> 4; est C = est S = Ah 2 -> 3; est NT = Ah 2 -> 3.  d* = hearts (tie with
# diamonds goes to the higher denomination); bid_offset 2 -> want 6 -> bids 6H.
# The others (PASS) have best estimates 7 (seat 1: D = Jo 2, Kd 1, 7 trumps +6, void in
# hearts +1 = 10), 8 (seat 2: C = Jc 2, Js 2, Ac 2, Kc 1, 5 trumps +2, As Ks 3 = 12) and 7
# (seat 3: H = Kh 1, 7 trumps +6, Ad 2, void in clubs +1 = 10): they pass.
# Kitty 6d 5d 4d: seat 0's non-trumps are diamonds (3 cards), clubs (4) and spades (4);
# the shortest suit goes first -> discards 4d 5d 6d.


def test_left_bower_is_a_trump_for_following_and_winning():
    res = play(R, LB1_POLICY, LB1)
    assert auction_of(res) == AU("0:6H 1:P 2:P 3:P")
    assert (int(res["contract"]), int(res["contractor"])) == (3, 0)
    assert ints(res["discards"]) == hand("4d 5d 6d")
    assert tricks_of(res)[:3] == [
        # Trick 1: seat 0 leads its highest trump Jh (a trump is unseen).  Seat 1's only
        # trump is Jo, the only card beating Jh: Jo.  Seat 2 cannot beat Jo: its cheapest
        # trump 4h.  Seat 3's partner wins: its cheapest trump 6h.  The joker beats the
        # right bower.
        T(0, "0:Jh 1:Jo 2:4h 3:6h", 1),
        # Trick 2: seat 1 (no trump; plain cards are never sure while trumps are unseen)
        # leads the cheapest card of its longest suit, diamonds: 7d.  Seat 2 holds Jd but
        # no diamond (the left bower is a trump), so it is void and may play anything:
        # the lowest card that beats 7d is its trump 5h (below Jd), not the Jd it would
        # have to play if Jd were a diamond.  Seat 3 must follow with its only diamond Ad.
        # Seat 0's partner wins; void in diamonds (discarded), its cheapest card is 7c
        # (7c and 7s tie; lower suit).
        T(1, "1:7d 2:5h 3:Ad 0:7c", 2),
        # Trick 3: seat 2 (contracting side, a trump unseen) leads its highest trump Jd.
        # Seat 3 cannot beat it: cheapest trump 7h.  Seat 0's partner wins; its only
        # trump Ah must follow the trump lead.  Seat 1 has no trump, cannot beat: its
        # cheapest card 5c.  The left bower beats the ace of trumps.
        T(2, "2:Jd 3:7h 0:Ah 1:5c", 2),
    ]


# LB3: the joker is in the kitty (so the contractor gets it).  Seat 0 as in LB1 (6H).
# Seat 1 holds Jd and 4h as its only trumps.
# est: seat 1 D = Jd 2, Ad 2, Kd 1, 5 trumps +2 = 7 -> 5, NT = Ad Kd Qd 4 + 5th diamond 2
# -> 5; seat 2 NT = Kh Qh 2 + Ac Kc Qc 4 -> 5; seat 3 S = Js Jc As 6 + Ks 1 + 5 trumps 2 +
# voids in diamonds and clubs 2 = 11 -> 7.  All pass.
# Kitty Jo 5d 4d: seat 0 now holds Jo Jh Ah, 4 clubs, 4 spades, 5d 4d; it discards the
# non-trumps of lowest keep value: the diamonds (shortest, 2 cards), then 7c (clubs and
# spades both 4 long; 7c and 7s tie, lower suit code).
LB3_HANDS = [
    "Jh Ah 10c 9c 8c 7c 10s 9s 8s 7s",
    "Jd 4h Ad Kd Qd 10d 6c 5c 6s 5s",
    "Kh Qh 10h 9d 8d 7d 6d Ac Kc Qc",
    "9h 8h 7h 6h 5h Jc As Ks Qs Js",
]
LB3 = deal(LB3_HANDS, "Jo 5d 4d")


def test_kitty_joker_right_bower_over_left_bower_and_the_lone_left_bower_must_follow_trumps():
    res = play(R, LB1_POLICY, LB3)
    assert auction_of(res) == AU("0:6H 1:P 2:P 3:P")
    assert ints(res["discards"]) == hand("7c 4d 5d")
    assert tricks_of(res)[:2] == [
        # Trick 1: seat 0 leads its highest trump, the joker from the kitty.  Nobody can
        # beat it: seat 1 its cheapest trump 4h (keeping Jd), seat 2 (partner wins) 10h,
        # seat 3 5h.
        T(0, "0:Jo 1:4h 2:10h 3:5h", 0),
        # Trick 2: seat 0 leads Jh (trumps still unseen).  Seat 1's only trump is Jd, so it
        # must play it (were Jd a diamond, seat 1 would be void in hearts and throw its
        # cheapest card 5c).  Seat 2: partner wins, cheapest trump Qh; seat 3 6h.  The
        # right bower beats the left bower.
        T(0, "0:Jh 1:Jd 2:Qh 3:6h", 0),
    ]


def test_deck_46_black_joker_beats_the_joker():
    # Deck 46 (kitty 6): LB1 with the black joker in seat 2 instead of Js, which goes to the
    # kitty with the black 4s.  The bidding is unchanged (seat 2: est C = BJ 2 Jc 2 Ac 2
    # Kc 1 + 5 trumps 2 + As Ks 3 = 12 -> 8: pass).  Seat 0 takes the six kitty cards and
    # discards six non-trumps: diamonds (3 long) 4d 5d 6d, then clubs (5 long: 10c 9c 8c 7c
    # 4c; spades are 6 long) 4c 7c 8c.
    # Trick 1: Jh; seat 1's only trump Jo; seat 2 (partner not winning) the lowest trump
    # beating the joker: BJ; seat 3 cannot beat it: 6h.  The black joker wins.
    hands = list(LB1_HANDS)
    hands[2] = "Jd 5h 4h Ac Kc Qc Jc As Ks BJ"
    cards46 = deal(hands, "6d 5d 4d 4c 4s Js", deck=46)
    res = play(R._replace(deck=DECK_46), LB1_POLICY, cards46)
    assert auction_of(res) == AU("0:6H 1:P 2:P 3:P")
    assert ints(res["kitty"]) == hand("6d 5d 4d 4c 4s Js")
    assert ints(res["discards"]) == hand("4d 5d 6d 4c 7c 8c")
    assert tricks_of(res)[0] == T(0, "0:Jh 1:Jo 2:BJ 3:6h", 2)


# ----------------------------------------------------------------------------------------
# The auction.  BD hands (placed in different seats per test), kitty 6h 5h 4h:
#   NT_H: est NT = Ac Kc Qc 4 + Ad Kd Qd 4 + As 2 = 10 -> 7; C = Ac Kc 3 + Ad Kd 3 + As 2 +
#     void in hearts with 3 trumps 1 = 9 -> 6; D the same 6; S = As 2 + 3 + 3 + void 1 = 9
#     -> 6; H (no trump) = 3 + 3 + 2 = 8 -> 6.  d* NT, estimate 7; 7 high cards.
#   H_H: est H = Jh 2 Jd 2 Ah 2 Kh 1, 5 trumps +2, void in diamonds (Jd is a trump) +1 = 10
#     -> 7; D = Jd 2 Jh 2 + Ah 2 Kh 1 = 7 -> 5; NT = Ah 2 Kh 1 = 3 -> 3; C, S = Ah Kh 3 -> 3.
#     d* H, estimate 7; 4 high cards.
#   S_H: est S = Jo 2 Js 2 Jc 2 Ks 1, 5 trumps +2, void in clubs (Jc is a trump) +1 = 10
#     -> 7; C = Jo Jc Js 6 + Ks 1 = 7 -> 5; H = Jo 2 + 5 trumps 2 + Ks 1 = 5 -> 4; NT = Jo 2
#     Ks 1 Qs 1 = 4 -> 4; D = Jo 2 + Ks 1 = 3 -> 3.  d* S, estimate 7; 6 high cards.
#   M_H: no high card; est D = 6 trumps +4, void in hearts +1 = 5 -> 4, every other
#     estimate 2.  d* D, estimate 4.
NT_H = "Ac Kc Qc Ad Kd Qd As 7s 6s 5s"
H_H = "Jh Jd Ah Kh 10h 10c 9c 8c 10s 9s"
S_H = "Jo Js Jc Ks Qs Qh 9h 8h 7h 10d"
M_H = "9d 8d 7d 6d 5d 4d 7c 6c 5c 8s"
BD_HANDS = {"NT": NT_H, "H": H_H, "S": S_H, "M": M_H}


def bd(*names):
    return deal([BD_HANDS[n] for n in names], "6h 5h 4h")


def auction_result(rules, names, *rows):
    res = play(rules, pol(*rows), bd(*names))
    return auction_of(res), int(res["contract"]), int(res["contractor"])


def test_same_level_higher_denomination_outranks():
    # want: H_H 6, NT_H 6, S_H 6 (offset -1), M_H 1 (PASS).  0: 6H.  1: 6NT outranks 6H at
    # the same level.  2: pass.  3: the cheapest spade bid above 6NT is 7S > 6 (and it is
    # its partner's bid): pass.
    # 0: 7H > 6: pass -> three passes, 6NT by seat 1.
    got = auction_result(R, ("H", "NT", "M", "S"), bidder(-1), bidder(-1), PASS, bidder(-1))
    assert got == (AU("0:6H 1:6NT 2:P 3:P 0:P"), 4, 1)


def test_higher_level_outranks():
    # want: H_H 7, NT_H 6.  0: 6H, 1: 6NT, 2 and 3 pass, 0: 7H (7 <= 7), 1: 7NT > 6: pass.
    got = auction_result(R, ("H", "NT", "M", "S"), bidder(0), bidder(-1), PASS, PASS)
    assert got == (AU("0:6H 1:6NT 2:P 3:P 0:7H 1:P"), 8, 0)


def test_misere_after_a_7_bid_and_the_8s_that_outranks_it_above_7nt():
    # Seats NT_H (want 6), S_H (want 7), M_H (misere_max 1), H_H (want 7).
    # 0: 6NT.  1: 7S.  2: a 7-level bid has been made and misere (19) outranks 7S (10):
    # M_H (no high card) bids misere.  3: 8H > 7: pass.  0: 8NT > 6: pass.  1: 8S (20)
    # outranks misere but 8 > 7: pass -> misere by seat 2.
    got = auction_result(R, ("NT", "S", "M", "H"), bidder(-1), bidder(0), row(misere_max=1), bidder(0))
    assert got == (AU("0:6NT 1:7S 2:MIS 3:P 0:P 1:P"), MISERE, 2)


@pytest.mark.parametrize(
    "rank, expected",
    [
        # above-7nt: with want 8, seat 1 overbids the misere with 8S (position 20 > 19); seat
        # 2 may not answer with misere (19 < 20) and 8D > 4: pass -> 8S by seat 1.
        (MISERE_ABOVE_7NT, (AU("0:6NT 1:7S 2:MIS 3:P 0:P 1:8S 2:P"), 10, 1)),
        # by-value: misere (21) outranks 8S (20): seat 1's cheapest spade bid is 9S > 8: pass.
        (MISERE_BY_VALUE, (AU("0:6NT 1:7S 2:MIS 3:P 0:P 1:P"), MISERE, 2)),
    ],
    ids=["above-7nt", "by-value"],
)
def test_misere_rank_against_8s(rank, expected):
    got = auction_result(
        R._replace(misere_rank=rank), ("NT", "S", "M", "H"), bidder(-1), bidder(1), row(misere_max=1), bidder(0)
    )
    assert got == expected


@pytest.mark.parametrize(
    "rank, expected",
    [
        # Seats S_H (want 8, partner_margin 0), NT_H (want 7), M_H (offset 3: want 7 in
        # diamonds; misere_max 1), H_H (PASS).
        # 0: 6S.  1: 6NT.  2: no 7-level bid yet, so no misere; 7D (7 <= 7).  3: pass.
        # 0: the cheapest spade bid above 7D is 8S; over its partner: 8 + 0 <= 8: 8S.
        # 1: 8NT > 7: pass.  2: a 7-level bid was made; above-7nt: misere (19) does not
        # outrank 8S (20) and 8D > 7: pass -> 8S by seat 0.
        (MISERE_ABOVE_7NT, (AU("0:6S 1:6NT 2:7D 3:P 0:8S 1:P 2:P"), 10, 0)),
        # by-value: misere (21) outranks 8S: seat 2 bids it (over its partner: misere has no
        # margin).  0: 9S + 0 > 8: pass -> misere by seat 2.
        (MISERE_BY_VALUE, (AU("0:6S 1:6NT 2:7D 3:P 0:8S 1:P 2:MIS 0:P"), MISERE, 2)),
    ],
    ids=["above-7nt", "by-value"],
)
def test_misere_over_a_standing_8s_only_by_value(rank, expected):
    got = auction_result(
        R._replace(misere_rank=rank),
        ("S", "NT", "M", "H"),
        bidder(1, partner_margin=0),
        bidder(0),
        row(bid_offset=3, misere_max=1),
        PASS,
    )
    assert got == expected


@pytest.mark.parametrize(
    "needs_7, expected",
    [
        # Seats NT_H (want 6), M_H (misere_max 1, want 4), H_H and S_H (PASS).
        # misere_needs_7: no 7-level bid has been made, so seat 1 may not bid misere; 7D > 4:
        # pass; all pass -> 6NT by seat 0.
        (True, (AU("0:6NT 1:P 2:P 3:P"), 4, 0)),
        # false: misere outranks 6NT: seat 1 bids it; 2, 3 pass; 0: 8NT > 6: pass.
        (False, (AU("0:6NT 1:MIS 2:P 3:P 0:P"), MISERE, 1)),
    ],
    ids=["needs-7", "any-time"],
)
def test_misere_needs_a_7_bid(needs_7, expected):
    got = auction_result(
        R._replace(misere_needs_7=needs_7), ("NT", "M", "H", "S"), bidder(-1), row(misere_max=1), PASS, PASS
    )
    assert got == expected


def test_allow_misere_false_no_misere():
    # As the misere-after-7 test, but misere may not be bid: seat 2 (want 4) passes 7D;
    # 3 (H_H, want 7): 7H over its partner's 7S needs 7 + 1 <= 7: pass; 0: 7NT > 6: pass
    # -> 7S by seat 1.
    got = auction_result(
        R._replace(allow_misere=False), ("NT", "S", "M", "H"), bidder(-1), bidder(0), row(misere_max=1), bidder(0)
    )
    assert got == (AU("0:6NT 1:7S 2:P 3:P 0:P"), 5, 1)


OM_ROW = row(misere_max=-1, open_misere_max=0)


@pytest.mark.parametrize(
    "rank, expected",
    [
        # Seats M_H (open_misere_max 0), H_H (want 10), NT_H (want 7), S_H (want 7).
        # above-10d: 0: open misere (anytime, no high card).  1: the cheapest heart bid above
        # open misere (45) is 10H (46): 10 <= 10.  2: 10NT > 7: pass.  3: no spade bid is above
        # 10H: pass.  0: open misere does not outrank 10H, no diamond bid does: pass -> 10H.
        (OPEN_MISERE_ABOVE_10D, (AU("0:OM 1:10H 2:P 3:P 0:P"), 23, 1)),
        # highest: nothing outranks open misere: the auction ends at once.
        (OPEN_MISERE_HIGHEST, (AU("0:OM"), OPEN_MISERE, 0)),
    ],
    ids=["above-10d", "highest"],
)
def test_open_misere_rank(rank, expected):
    got = auction_result(
        R._replace(open_misere_rank=rank), ("M", "H", "NT", "S"), OM_ROW, bidder(3), bidder(0), bidder(0)
    )
    assert got == expected


@pytest.mark.parametrize(
    "rank, expected",
    [
        # Seats M_H (open_misere_max 0), NT_H (want 10), H_H, S_H (PASS).
        # above-10d: open misere (45) is below 10NT (48): seat 1 bids 10NT, which ends the
        # auction at once.
        (OPEN_MISERE_ABOVE_10D, (AU("0:OM 1:10NT"), 24, 1)),
        # highest: open misere is above 10NT: nothing outranks it and the auction ends at once.
        (OPEN_MISERE_HIGHEST, (AU("0:OM"), OPEN_MISERE, 0)),
    ],
    ids=["above-10d", "highest"],
)
def test_open_misere_against_10nt(rank, expected):
    got = auction_result(R._replace(open_misere_rank=rank), ("M", "NT", "H", "S"), OM_ROW, bidder(3), PASS, PASS)
    assert got == expected


# Seats M_H (open_misere_max 0, offset 3: want 7 in diamonds), NT_H (want 8), H_H (PASS),
# S_H (want 8, partner_margin 0).
OM8_ROWS = (row(bid_offset=3, misere_max=-1, open_misere_max=0), bidder(1), PASS, bidder(1, partner_margin=0))


@pytest.mark.parametrize(
    "rules, expected",
    [
        # anytime: seat 0 bids open misere at once; 1: 10NT > 8, 2, 3: pass.
        (R, (AU("0:OM 1:P 2:P 3:P"), OPEN_MISERE, 0)),
        # after an 8 bid only: 0: 6D.  1: 6NT.  2: pass.  3: 7S (over its partner: 7 + 0 <= 8).
        # 0: 7D.  1: 7NT.  3: 8S (8 + 0 <= 8).  0: an 8-level bid has been made: open misere.
        # 1: 10NT > 8: pass.  3: no spade bid above open misere: pass.
        (
            R._replace(open_misere_anytime=False),
            (AU("0:6D 1:6NT 2:P 3:7S 0:7D 1:7NT 3:8S 0:OM 1:P 3:P"), OPEN_MISERE, 0),
        ),
        # no misere at all: as above until 8S; 0: 8D > 7: pass.  1: 8NT over its partner's 8S
        # needs 8 + 1 <= 8: pass -> 8S by seat 3.
        (R._replace(allow_misere=False), (AU("0:6D 1:6NT 2:P 3:7S 0:7D 1:7NT 3:8S 0:P 1:P"), 10, 3)),
    ],
    ids=["anytime", "after-8", "no-misere"],
)
def test_open_misere_anytime_and_allow_misere(rules, expected):
    got = auction_result(rules, ("M", "NT", "H", "S"), *OM8_ROWS)
    assert got == expected


def test_10nt_closes_the_auction():
    # H_H and NT_H both want 10 (offset 3): they climb one step at a time; 2 and 3 pass at
    # once.  10NT cannot be outranked: the auction ends when it is bid, before seat 0 has
    # passed.
    got = auction_result(R, ("H", "NT", "M", "S"), bidder(3), bidder(3), bidder(0), PASS)
    assert got == (AU("0:6H 1:6NT 2:P 3:P 0:7H 1:7NT 0:8H 1:8NT 0:9H 1:9NT 0:10H 1:10NT"), 24, 1)


@pytest.mark.parametrize(
    "rules, closing",
    [
        # open misere highest and misere allowed: open misere still outranks 10NT, so 10NT
        # does not end the auction: seat 0 gets its turn (nothing it may bid: pass) and the
        # auction ends on the third pass.
        (R._replace(open_misere_rank=OPEN_MISERE_HIGHEST), AU("0:P")),
        # open misere highest but no misere at all: 10NT closes it again.
        (R._replace(open_misere_rank=OPEN_MISERE_HIGHEST, allow_misere=False), []),
    ],
    ids=["om-highest", "om-highest-no-misere"],
)
def test_10nt_does_not_close_the_auction_when_open_misere_is_highest(rules, closing):
    got = auction_result(rules, ("H", "NT", "M", "S"), bidder(3), bidder(3), bidder(0), PASS)
    assert got == (AU("0:6H 1:6NT 2:P 3:P 0:7H 1:7NT 0:8H 1:8NT 0:9H 1:9NT 0:10H 1:10NT") + closing, 24, 1)


def test_a_seat_that_passed_never_bids_again():
    # Seats NT_H (want 7), M_H (misere_max 1), H_H (PASS), S_H (want 7).
    # 0: 6NT.  1: no 7-level bid yet: no misere; 7D > 4: pass.  2: pass.  3: 7S.  0: 7NT.
    # Seat 1 would now bid misere (a 7 bid made, misere outranks 7NT) but it has passed,
    # so it is skipped with seat 2.  3: 8S > 7: pass -> 7NT by seat 0.
    got = auction_result(R, ("NT", "M", "H", "S"), bidder(0), row(misere_max=1), PASS, bidder(0))
    assert got == (AU("0:6NT 1:P 2:P 3:7S 0:7NT 3:P"), 9, 0)


@pytest.mark.parametrize(
    "margin, expected",
    [
        # Seats S_H (want 7, margin 1), M_H (PASS), NT_H (want 7, margin m), H_H (PASS).
        # 0: 6S.  1: pass.  2: 6NT over its partner's 6S needs 6 + m <= 7.  3: pass.
        # 0: 7S over its partner's 6NT needs 7 + 1 <= 7: pass -> 6NT by seat 2.
        (0, (AU("0:6S 1:P 2:6NT 3:P 0:P"), 4, 2)),
        (1, (AU("0:6S 1:P 2:6NT 3:P 0:P"), 4, 2)),
        # margin 2: 6 + 2 > 7: seat 2 passes -> 6S by seat 0.
        (2, (AU("0:6S 1:P 2:P 3:P"), 0, 0)),
    ],
    ids=["margin-0", "margin-1", "margin-2"],
)
def test_overbidding_the_partner_needs_partner_margin(margin, expected):
    got = auction_result(R, ("S", "M", "NT", "H"), bidder(0), PASS, bidder(0, partner_margin=margin), PASS)
    assert got == expected


# ----------------------------------------------------------------------------------------
# All four pass.
# AP: seats 0 and 2 hold only red cards, seats 1 and 3 only black ones except seat 1's Ah;
# the joker is in the kitty (out of play), so at no trumps no plain card is ever a sure
# winner (an unseen suitless joker).
# est: seat 0 D = Jd 2 Ad 2 Kd 1, 6 trumps +4, voids in clubs and spades +2 = 11 -> 7
#   (NT = Ad Kd Qd 4 + 2 beyond the fourth 4 = 8 -> 6; H = 9 -> 6); seat 1 C = Js 2 Ac 2,
#   6 trumps +4, Ks 1, Ah 2, void in diamonds 1 = 12 -> 8 (S 6, NT 6); seat 2 D = Jh 2, 6
#   trumps +4, Kh 1, voids 2 = 9 -> 6; seat 3 S = Jc 2 As 2, 6 trumps +4, Kc 1, voids 2 =
#   11 -> 7.  Every seat PASS: all four pass.
AP_HANDS = [
    "Ad Kd Qd Jd 10d 9d 7h 6h 5h 4h",
    "Ah Ac Qc 10c 8c 6c Ks Js 9s 7s",
    "8d 7d 6d 5d 4d Kh Qh Jh 10h 9h",
    "Kc Jc 9c 7c 5c As Qs 10s 8s 6s",
]
AP_KITTY = "Jo 8h 5s"
AP = deal(AP_HANDS, AP_KITTY)
ALL_PASS_POLICY = pol(PASS, PASS, PASS, PASS)


def test_all_pass_redeal_throws_the_hand_in():
    res = play(R, ALL_PASS_POLICY, AP, scores=(120, -40))
    assert auction_of(res) == AU("0:P 1:P 2:P 3:P")
    assert (int(res["contract"]), int(res["contractor"]), int(res["made"])) == (-1, -1, -1)
    assert tricks_of(res) == [] and ints(res["discards"]) == [] and nominated_of(res) == {}
    assert ints(res["tricks_won"]) == [0, 0, 0, 0] and ints(res["side_tricks"]) == [0, 0]
    assert ints(res["points"]) == [0, 0] and ints(res["scores"]) == [120, -40]
    assert (int(res["winner"]), res["ended"]) == (-1, "")


# Played at no trumps (dealer 3, the eldest seat 0 leads):
#   T1: 0 leads the cheapest card of its longest suit, diamonds (6 vs 4 hearts): 9d.
#       1: void, nothing beats: cheapest 6c.  2: partner wins: cheapest diamond 4d.
#       3: cheapest 5c.  Seat 0 wins.
#   T2: diamonds 5 vs hearts 4: 10d; 1: 7s; 2: 5d; 3: 6s.  T3: diamonds 4 = hearts 4, lower
#       suit: Jd; 1: 8c; 2: 6d; 3: 7c.
#   T4: hearts 4 > diamonds 3: 4h; seat 1 must follow with Ah and wins; 2 cannot beat:
#       cheapest heart 9h; 3: partner wins: 8s.
#   T5-T10: side 1 leads black cards; seats 0 and 2 hold none and there is no joker in
#   play, so side 1 wins them all.  Side 0: 3 tricks, side 1: 7 -> 30 and 70.
AP_T4 = [
    T(0, "0:9d 1:6c 2:4d 3:5c", 0),
    T(0, "0:10d 1:7s 2:5d 3:6s", 0),
    T(0, "0:Jd 1:8c 2:6d 3:7c", 0),
    T(0, "0:4h 1:Ah 2:9h 3:8s", 1),
]


def test_all_pass_played_at_no_trumps_eldest_leads_10_a_trick():
    rules = R._replace(all_pass=ALL_PASS_NO_TRUMPS)
    res = play(rules, ALL_PASS_POLICY, AP)
    assert (int(res["contract"]), int(res["contractor"]), int(res["made"])) == (-1, -1, -1)
    assert ints(res["discards"]) == [] and nominated_of(res) == {}
    assert tricks_of(res)[:4] == AP_T4
    assert ints(res["side_tricks"]) == [3, 7]
    tw = ints(res["tricks_won"])
    assert (tw[0], tw[2], tw[1] + tw[3]) == (3, 0, 7)
    assert ints(res["points"]) == [30, 70] and ints(res["scores"]) == [30, 70]


def test_all_pass_played_at_no_trumps_with_seat_1_dealing():
    # Dealer 1: the eldest is seat 2 (same cards per seat).  T1: 2 leads from diamonds and
    # hearts (5 each; lower suit) 4d; 3: 5c; 0: partner wins, cheapest diamond 9d; 1: 6c.
    # Seat 0 wins and the play goes on as above: T2 10d, T3 Jd, T4 4h to seat 1's Ah.
    rules = R._replace(all_pass=ALL_PASS_NO_TRUMPS)
    res = play(rules, ALL_PASS_POLICY, deal(AP_HANDS, AP_KITTY, dealer=1), dealer=1)
    assert auction_of(res) == AU("2:P 3:P 0:P 1:P")
    assert tricks_of(res)[:4] == [
        T(2, "2:4d 3:5c 0:9d 1:6c", 0),
        T(0, "0:10d 1:7s 2:5d 3:6s", 0),
        T(0, "0:Jd 1:8c 2:6d 3:7c", 0),
        T(0, "0:4h 1:Ah 2:9h 3:8s", 1),
    ]
    assert ints(res["points"]) == [30, 70]


# ----------------------------------------------------------------------------------------
# The joker at no trumps, held by a defender.
# NJ: seat 0 (Ah Kh Qh 9h, Ac Kc Qc, As Ks Qs): est NT = 4 + 4 + 4 = 12 -> 8; H = Ah 2 Kh 1
# + Ac Kc 3 + As Ks 3 + void in diamonds 1 = 10 -> 7; C and S the same 7; D = 9 -> 6.
# d* NT, want 8: 6NT; the others (best estimates 5, 4, 4) pass.  Kitty 6d 5d 4d: clubs,
# spades and the kitty's diamonds are all 3 long, the diamonds lowest: discarded.
# Seat 0 leads first: the joker is unseen, so no sure winner: the cheapest card of its
# longest suit (hearts, 4): 9h.
NJ_C = "Ah Kh Qh 9h Ac Kc Qc As Ks Qs"
NJ_3 = "Ad Kd Qd 7d 8c 7c 6c 5c 9s 8s"
NJA = deal([NJ_C, "Jo 10h 4h Jd 10d 9d 8d 7s 6s 5s", "Jh 8h 7h 6h 5h Jc 10c 9c Js 10s", NJ_3], "6d 5d 4d")
NJB = deal([NJ_C, "Jo 5h 4h Jd 10d 9d 8d 7s 6s 5s", "Jh 10h 8h 7h 6h Jc 10c 9c Js 10s", NJ_3], "6d 5d 4d")
NJ_POLICY = pol(bidder(0), PASS, PASS, PASS)
# NJA trick 1: 9h; seat 1's lowest card beating it is 10h (a plain card before the joker,
# whatever the joker rule); seat 2 beats 10h with Jh; seat 3 (void, cannot beat) 5c.
NJA_T1 = T(0, "0:9h 1:10h 2:Jh 3:5c", 2)


@pytest.mark.parametrize(
    "nt_joker",
    [
        NT_JOKER_MAY_NOMINATE,
        NT_JOKER_OWN_SUIT_ONLY,
        NT_JOKER_FIRST_ROUND_FREE,
        NT_JOKER_LEAD_LAST_ONLY,
        NT_JOKER_ANY_TIME,
    ],
    ids=["may-nominate", "own-suit-only", "first-round-free", "lead-last-only", "any-time"],
)
def test_suitless_joker_second_round_of_a_suit(nt_joker):
    # Trick 2: seat 2 leads the cheapest card of its longest suit (hearts 4, clubs 3): 5h.
    # 3: void, cannot beat: 6c.  0: partner wins: cheapest heart Qh.  Seat 1 holds 4h and
    # the joker: unless any-time, the joker may not be played while it holds a heart (this
    # is not hearts' first round) -> 4h; any-time: the joker is legal and is the only card
    # beating Qh -> Jo wins.
    res = play(R._replace(nt_joker=nt_joker), NJ_POLICY, NJA)
    assert auction_of(res) == AU("0:6NT 1:P 2:P 3:P")
    assert ints(res["discards"]) == hand("4d 5d 6d") and nominated_of(res) == {}
    if nt_joker == NT_JOKER_ANY_TIME:
        t2 = T(2, "2:5h 3:6c 0:Qh 1:Jo", 1)
    else:
        t2 = T(2, "2:5h 3:6c 0:Qh 1:4h", 0)
    assert tricks_of(res)[:2] == [NJA_T1, t2]


@pytest.mark.parametrize(
    "nt_joker",
    [NT_JOKER_MAY_NOMINATE, NT_JOKER_OWN_SUIT_ONLY, NT_JOKER_LEAD_LAST_ONLY],
    ids=["may-nominate", "own-suit-only", "lead-last-only"],
)
def test_suitless_joker_only_when_void(nt_joker):
    # NJB trick 1: seat 1 holds 5h 4h and the joker: it must follow hearts, and neither
    # heart beats 9h: cheapest 4h.  2: partner wins: cheapest heart 6h.  3: 5c.  Seat 0 wins.
    # Trick 2: seat 0's suits are 3-3-3 (ties to the lower suit): clubs, cheapest Qc.  Seat
    # 1 is void in clubs: the joker may be played and is the only card beating Qc: Jo
    # wins.  2: cheapest club 9c; 3: partner wins: cheapest club 6c.
    res = play(R._replace(nt_joker=nt_joker), NJ_POLICY, NJB)
    assert tricks_of(res)[:2] == [T(0, "0:9h 1:4h 2:6h 3:5c", 0), T(0, "0:Qc 1:Jo 2:9c 3:6c", 1)]


@pytest.mark.parametrize(
    "nt_joker", [NT_JOKER_FIRST_ROUND_FREE, NT_JOKER_ANY_TIME], ids=["first-round-free", "any-time"]
)
def test_suitless_joker_free_to_the_first_round(nt_joker):
    # NJB trick 1 is the first trick in which hearts are led (by another player): the joker
    # is legal although seat 1 holds hearts, and it is the only card beating 9h.
    # 2: cannot beat the joker: cheapest heart 6h.  3: partner wins: 5c.
    res = play(R._replace(nt_joker=nt_joker), NJ_POLICY, NJB)
    assert tricks_of(res)[0] == T(0, "0:9h 1:Jo 2:6h 3:5c", 1)


# ----------------------------------------------------------------------------------------
# The joker at no trumps, held by the contractor; first lead by the eldest.
# LL: seat 3 (dealer) is the contractor: Jo Ah Kh Qh Ad Kd Qd As Ks 5s.
#   est NT = Jo 2 + Ah Kh Qh 4 + Ad Kd Qd 4 + As Ks 3 = 13 -> 8; H = Jo 2 Ah 2 Kh 1 + Ad Kd
#   3 + As Ks 3 + void in clubs 1 = 12 -> 8; D and S likewise 8; C = Jo 2 + 9 = 11 -> 7.
#   Ties go to NT: 6NT (want 8).  Seats 0 (C 7), 1 (D 6) and 2 (S 7) pass first.
# Kitty 5c 6c 4h: seat 3 holds Jo, hearts Ah Kh Qh 4h (4), diamonds (3), spades As Ks 5s
#   (3), clubs 5c 6c (2): it discards 5c 6c (shortest suit) and then 5s (the lowest of the
#   3-long suits); the joker is never discarded.  Its hand: Jo Ah Kh Qh 4h Ad Kd Qd As Ks,
#   void in clubs.
# T1 (eldest seat 0 leads; the joker is unseen, no sure winner): the cheapest card of its
#   longest suit, clubs (7): 7c.  1: the lowest club beating it, Ac.  2: void, cannot beat:
#   cheapest 6s.  3: partner wins: its cheapest card 4h (never the joker) - seat 3 has
#   shown void in clubs.
# T2: seat 1 leads the cheapest card of its longest suit, diamonds (5): 4d.  2: lowest
#   diamond beating it 9d.  3: lowest diamond beating 9d: Qd.  0: void: cheapest 5h.  Seat
#   3 wins and holds Jo Ah Kh Qh Ad Kd As Ks: each plain card is a sure winner (it holds
#   the joker and the cards above), so it wins every trick from here: side 1 takes all 10
#   tricks: 6NT (120) with all 10 scores 250.
LL_HANDS = [
    "Kc Qc Jc 10c 9c 8c 7c 7h 6h 5h",
    "Ac 8d 7d 6d 5d 4d Jh 10h 9h 8h",
    "Jd 10d 9d Qs Js 10s 9s 8s 7s 6s",
    "Jo Ah Kh Qh Ad Kd Qd As Ks 5s",
]
LL = deal(LL_HANDS, "5c 6c 4h")
LL_T12 = [T(0, "0:7c 1:Ac 2:6s 3:4h", 1), T(1, "1:4d 2:9d 3:Qd 0:5h", 3)]
# T3 when the joker is led at once (suitless): it names the suit it holds most of, hearts
# (3 vs 2 and 2); the others must follow hearts: 0 (cannot beat) cheapest heart 6h; 1
# (partner wins) cheapest heart 8h - left free it would throw 5d; 2 (void) cheapest 7s.
LL_T3_JOKER = T(3, "3:Jo 0:6h 1:8h 2:7s", 3, HEARTS)


@pytest.mark.parametrize(
    "nt_joker, nominate, t3, nominated",
    [
        (NT_JOKER_OWN_SUIT_ONLY, 0, LL_T3_JOKER, {}),
        (NT_JOKER_MAY_NOMINATE, 0, LL_T3_JOKER, {}),
        (NT_JOKER_FIRST_ROUND_FREE, 0, LL_T3_JOKER, {}),
        (NT_JOKER_ANY_TIME, 0, LL_T3_JOKER, {}),
        # own-suit-only never nominates, whatever the policy.
        (NT_JOKER_OWN_SUIT_ONLY, 1, LL_T3_JOKER, {}),
        # Nominated to the suit it holds most of after the exchange (hearts, 4): the joker is
        # the top heart; led at T3 it is a heart lead (named -1), the same cards follow.
        (NT_JOKER_MAY_NOMINATE, 1, T(3, "3:Jo 0:6h 1:8h 2:7s", 3), {JOKER: HEARTS}),
        # lead-last-only: the joker may not be led before trick 10; the highest plain sure
        # winner is an ace, Ad (ties to the lower suit).  0: void: 6h; 1: partner wins: 5d;
        # 2: cannot beat: 10d.
        (NT_JOKER_LEAD_LAST_ONLY, 0, T(3, "3:Ad 0:6h 1:5d 2:10d", 3), {}),
    ],
    ids=[
        "own-suit-only",
        "may-nominate-0",
        "first-round-free",
        "any-time",
        "own-suit-only-nominate-1",
        "may-nominate-1",
        "lead-last-only",
    ],
)
def test_contractor_joker_at_no_trumps(nt_joker, nominate, t3, nominated):
    rules = R._replace(first_lead=LEAD_ELDEST, nt_joker=nt_joker)
    res = play(rules, pol(PASS, PASS, PASS, bidder(0, nominate=nominate)), LL)
    assert auction_of(res) == AU("0:P 1:P 2:P 3:6NT")
    assert (int(res["contract"]), int(res["contractor"])) == (4, 3)
    assert ints(res["discards"]) == hand("5c 6c 5s")
    assert nominated_of(res) == nominated
    tricks = tricks_of(res)
    assert tricks[:3] == LL_T12 + [t3]
    assert ints(res["side_tricks"]) == [0, 10] and int(res["made"]) == 1
    assert ints(res["points"]) == [0, 250]
    if nominated:
        assert all(named == -1 for _, _, _, named in tricks)


def test_lead_last_only_joker_led_at_trick_10_may_not_name_a_suit_shown_void():
    # lead-last-only: seat 3 keeps the joker to the end (it never follows a suit it lacks
    # after T1, and its partner wins T1), wins tricks 2-9 with its sure winners and leads
    # the joker, its last card, to trick 10.  Holding nothing else, it names the lowest
    # suit code it may name: clubs is barred (seat 3 showed void in clubs at T1), so
    # diamonds.  The joker wins.
    rules = R._replace(first_lead=LEAD_ELDEST, nt_joker=NT_JOKER_LEAD_LAST_ONLY)
    res = play(rules, pol(PASS, PASS, PASS, bidder(0)), LL)
    tricks = tricks_of(res)
    assert len(tricks) == 10
    leader, plays, winner, named = tricks[9]
    assert (leader, plays[0], winner, named) == (3, (3, JOKER), 3, DIAMONDS)
    assert all(t[0] == 3 and t[2] == 3 for t in tricks[2:])


# ----------------------------------------------------------------------------------------
# Misere (misere_needs_7 false: seat 0 bids misere at once; the others PASS).
# MS: seat 0 holds the lowest cards: 4h-7h, 4d-7d, 6c, 6s (its partner, seat 2, holds 5c
# and 5s out of play).  No high card: misere.  Kitty Jo Ah As: it discards its highest
# cards, the joker first, then the two aces.
# T1: the contractor leads its lowest card, 4d (4d and 4h tie, lower suit).  Seat 1's
#   diamonds all beat 4d: the lowest, 9d.  Seat 3 (the contractor has played and is not
#   winning): its highest diamond Kd.  Seat 2 sits out: tricks of 3 cards.
# From then on the defence leads every trick and every card the contractor holds is
#   below every in-play card of its suit held by the defence (no joker in play), so the
#   contractor never wins a trick: misere made, the defence takes all 10.
MS_HANDS = [
    "4h 5h 6h 7h 4d 5d 6d 7d 6c 6s",
    "Kh Qh 10h Ad Jd 9d Kc 10c 8c Qs",
    "5c 5s Jc 9c 7c Js 10s 9s 8s 7s",
    "Jh 9h 8h Kd Qd 10d 8d Ac Qc Ks",
]
MS = deal(MS_HANDS, "Jo Ah As")
MISERE_RULES = R._replace(misere_needs_7=False)


@pytest.mark.parametrize(
    "opp, stop, points",
    [
        (MISERE_OPP_NONE, True, [250, 0]),
        (MISERE_OPP_NONE, False, [250, 0]),
        (MISERE_OPP_PER_CONTRACTOR_TRICK, True, [250, 0]),  # the contractor took no trick
        (MISERE_OPP_PER_TRICK_WON, False, [250, 100]),  # the defence took 10
        (MISERE_OPP_PER_TRICK_WON, True, [250, 100]),  # per-trick-won always plays it out
    ],
    ids=["none", "none-played-out", "per-contractor-trick", "per-trick-won", "per-trick-won-stop-early"],
)
def test_misere_made_partner_sits_out(opp, stop, points):
    rules = MISERE_RULES._replace(misere_opp_score=opp, misere_stop_early=stop)
    res = play(rules, pol(row(misere_max=1), PASS, PASS, PASS), MS)
    assert auction_of(res) == AU("0:MIS 1:P 2:P 3:P")
    assert (int(res["contract"]), int(res["contractor"])) == (MISERE, 0)
    assert ints(res["discards"]) == hand("Jo Ah As") and nominated_of(res) == {}
    tricks = tricks_of(res)
    assert tricks[0] == T(0, "0:4d 1:9d 3:Kd", 3)
    assert len(tricks) == 10
    assert all(len(p) == 3 and 2 not in [s for s, _ in p] for _, p, _, _ in tricks)
    tw = ints(res["tricks_won"])
    assert (tw[0], tw[2], tw[1] + tw[3]) == (0, 0, 10)
    assert int(res["made"]) == 1 and ints(res["points"]) == points


# MF: seat 0 holds Kc and nine diamonds Qd-4d; Ad and Kd are with its partner (out of play)
# so the defence has no diamond.  Three high cards (Kc Qd Jd): misere_max 3.  Kitty Ac As
# Ks: it discards its three highest cards: the aces (As before Ac, spades first), then of
# the kings Ks before Kc (ties to the higher suit code).
# T1: lowest card 4d.  Seat 1 (void; the contractor is winning): its highest card that does
#   not beat it, Ah; seat 3 likewise Qs.  The contractor wins: misere failed.
# Played out, the contractor leads every trick: diamonds (nobody can follow or beat them)
#   and Kc (above every club left), so it wins all 10.
MF_HANDS = [
    "Kc Qd Jd 10d 9d 8d 7d 6d 5d 4d",
    "Ah Kh Qh Jh 10h Qc Jc 10c 9c 8c",
    "Jo Ad Kd 6h 5h 4h 6c 5c 6s 5s",
    "9h 8h 7h Qs Js 10s 9s 8s 7s 7c",
]
MF = deal(MF_HANDS, "Ac As Ks")


@pytest.mark.parametrize(
    "opp, stop, n_tricks, points",
    [
        (MISERE_OPP_NONE, True, 1, [-250, 0]),
        (MISERE_OPP_PER_CONTRACTOR_TRICK, True, 1, [-250, 10]),
        (MISERE_OPP_NONE, False, 10, [-250, 0]),
        (MISERE_OPP_PER_CONTRACTOR_TRICK, False, 10, [-250, 100]),
        (MISERE_OPP_PER_TRICK_WON, True, 10, [-250, 0]),  # played out; the defence took none
    ],
    ids=[
        "none-stop",
        "per-contractor-trick-stop",
        "none-played-out",
        "per-contractor-trick-played-out",
        "per-trick-won",
    ],
)
def test_misere_failed_stop_early_and_defence_score(opp, stop, n_tricks, points):
    rules = MISERE_RULES._replace(misere_opp_score=opp, misere_stop_early=stop)
    res = play(rules, pol(row(misere_max=3), PASS, PASS, PASS), MF)
    assert auction_of(res) == AU("0:MIS 1:P 2:P 3:P")
    assert ints(res["discards"]) == hand("Ac As Ks")
    tricks = tricks_of(res)
    assert tricks[0] == T(0, "0:4d 1:Ah 3:Qs", 0)
    assert len(tricks) == n_tricks and all(w == 0 and len(p) == 3 for _, p, w, _ in tricks)
    assert ints(res["tricks_won"]) == [n_tricks, 0, 0, 0]
    assert int(res["made"]) == 0 and ints(res["points"]) == points


# Open misere exposure.  OM: seat 1 bids open misere at once (no high card,
# open_misere_max 0); first_lead eldest, so the defender seat 0 leads trick 1; seat 3 (the
# contractor's partner) sits out.  Kitty Ac Kc Qc: the contractor discards them (its
# highest cards) and holds only hearts and diamonds.
# Seat 0's lead: the lowest-ordered card of a suit the contractor has not shown void in
# (none yet), i.e. its lowest card 5c (5c and 5s tie, lower suit) - unless the hand is
# already exposed (before-lead): then, holding no forcing card (nothing below 4h or 4d),
# a suit the contractor holds: its lowest heart or diamond, 9d.
#   5c led: 1 (void in clubs) its highest card that does not win, 9h; 2 (the contractor
#     has played and is not winning): its highest club Jc - whether it sees the hand
#     (after-first-lead: it sheds its highest spare card, and with the contractor holding
#     no club every club is spare) or not (after-first-trick).
#   9d led: 1 its highest diamond below 9d, 8d; 2 sheds its highest diamond Ad (above the
#     contractor's 4d: spare).
OM_HANDS = [
    "5c 6c 7c 8c 9c 9d 10d 5s 6s 7s",
    "4h 5h 6h 7h 9h 4d 5d 6d 7d 8d",
    "Jh 10h 8h Ad Kd Jc 10c Qs Js 10s",
    "Ah Kh Qh Qd Jd As Ks 9s 8s Jo",
]
OM = deal(OM_HANDS, "Ac Kc Qc")


@pytest.mark.parametrize(
    "expose, t1",
    [
        (EXPOSE_AFTER_FIRST_LEAD, T(0, "0:5c 1:9h 2:Jc", 2)),
        (EXPOSE_AFTER_FIRST_TRICK, T(0, "0:5c 1:9h 2:Jc", 2)),
        (EXPOSE_BEFORE_LEAD, T(0, "0:9d 1:8d 2:Ad", 2)),
    ],
    ids=["after-first-lead", "after-first-trick", "before-lead"],
)
def test_open_misere_exposure_changes_the_first_lead(expose, t1):
    rules = R._replace(first_lead=LEAD_ELDEST, om_expose=expose)
    res = play(rules, pol(PASS, row(misere_max=-1, open_misere_max=0), PASS, PASS), OM)
    assert auction_of(res) == AU("0:P 1:OM 2:P 3:P")
    assert ints(res["discards"]) == hand("Ac Kc Qc")
    tricks = tricks_of(res)
    assert tricks[0] == t1
    assert all(3 not in [s for s, _ in p] for _, p, _, _ in tricks)
    assert ints(res["points"])[1] in (500, -500)


# The defence uses the exposed hand (FX).  Seat 0 holds no high card and bids open misere
# at once; the others PASS.  Kitty Jo Ah As: discarded (jokers first, then As, Ah).  The
# contractor keeps 4d 6d 7d 4h 5h 6h 5c 6c 5s 6s and leads trick 1 (first_lead contractor)
# with its lowest card, 4d (4h ties, diamonds the lower suit).  Seat 2 (out) holds the
# other high diamonds; seat 3 holds no diamond.  Every defender's card of a suit the
# contractor holds is above all the contractor's cards of that suit except seat 1's 5d,
# which is below 6d, the contractor's lowest diamond after trick 1: a forcing card.
#   after-first-lead (and before-lead: the contractor leads first, so nothing differs): the
#     hand is face up from the lead on.  Seat 1 must beat 4d (5d or Kd); it keeps its
#     forcing 5d and sheds its highest spare card, Kd.  Seat 3, void, the contractor not
#     winning: its highest spare card, Ks.  Trick 2: seat 1 leads its forcing 5d; seat 3,
#     void, sheds Qs; the contractor must play a diamond above 5d: 6d (no card of its
#     ducks) and wins: the open misere has failed, -500, and side 0 is at -500.
#   after-first-trick: in trick 1 seat 1 cannot see the hand and plays its lowest legal
#     card, 5d; seat 3 its highest card, Ks.  From trick 2 on no defender holds a card below
#     the contractor's lowest of its suit: seat 1 leads the lowest card of a suit the
#     contractor holds, 7s; seat 3 plays its lowest spade, Qs; the contractor ducks with
#     6s.  The contractor can duck every trick: made, +500, and side 0 wins the game.
FX_HANDS = [
    "4d 6d 7d 4h 5h 6h 5c 6c 5s 6s",
    "5d Kd Kc Qc Jc 10c Kh Qh 7s 8s",
    "Ad Qd Jd 10d 9d 8d Ac Js 10s 9s",
    "9c 8c 7c Jh 10h 9h 8h 7h Ks Qs",
]
FX = deal(FX_HANDS, "Jo Ah As")


@pytest.mark.parametrize(
    "expose",
    [EXPOSE_AFTER_FIRST_LEAD, EXPOSE_BEFORE_LEAD, EXPOSE_AFTER_FIRST_TRICK],
    ids=["after-first-lead", "before-lead", "after-first-trick"],
)
def test_open_misere_defence_forces_the_exposed_hand(expose):
    rules = R._replace(om_expose=expose)
    res = play(rules, pol(row(misere_max=-1, open_misere_max=0), PASS, PASS, PASS), FX)
    assert auction_of(res) == AU("0:OM 1:P 2:P 3:P")
    assert ints(res["discards"]) == hand("Jo Ah As")
    tricks = tricks_of(res)
    if expose != EXPOSE_AFTER_FIRST_TRICK:
        assert tricks == [T(0, "0:4d 1:Kd 3:Ks", 1), T(1, "1:5d 3:Qs 0:6d", 0)]
        assert int(res["made"]) == 0 and ints(res["points"]) == [-500, 0]
        assert (int(res["winner"]), res["ended"]) == (1, "minus_500")
    else:
        assert tricks[:2] == [T(0, "0:4d 1:5d 3:Ks", 1), T(1, "1:7s 3:Qs 0:6s", 3)]
        assert len(tricks) == 10 and ints(res["tricks_won"])[0] == 0
        assert int(res["made"]) == 1 and ints(res["points"]) == [500, 0]
        assert (int(res["winner"]), res["ended"]) == (0, "contract")


@pytest.mark.parametrize(
    "deal_, om_max, opp, n_tricks, points",
    [
        # MS as open misere (no high card): the contractor never wins a trick (see above): +500.
        (MS, 0, MISERE_OPP_NONE, 10, [500, 0]),
        (MS, 0, MISERE_OPP_PER_TRICK_WON, 10, [500, 100]),
        # MF as open misere (three high cards): it wins trick 1 and play stops: -500.
        (MF, 3, MISERE_OPP_NONE, 1, [-500, 0]),
        (MF, 3, MISERE_OPP_PER_CONTRACTOR_TRICK, 1, [-500, 10]),
    ],
    ids=["made", "made-per-trick-won", "failed", "failed-per-contractor-trick"],
)
def test_open_misere_scores_500(deal_, om_max, opp, n_tricks, points):
    # Seat 0 bids open misere at once (open_misere_anytime); the others cannot outbid it
    # (10H or 10NT) and pass.  Its discards are those of the misere tests; its hand is
    # exposed after its lead 4d (after-first-lead), so the defence sheds its spare cards
    # (those not below the contractor's lowest card of their suit).
    # MS: seat 1 must beat 4d, and no diamond of its is below 5d, the contractor's lowest
    #   left: it sheds its highest, Ad (the misere test's 9d was its lowest); seat 3, the
    #   contractor not winning, its highest diamond Kd.  Every card of seat 0 stays below
    #   every defender's card of its suit, so no lead can force it: made.
    # MF: seats 1 and 3 are void in diamonds; their clubs (Qc..8c, 7c) are below the
    #   contractor's Kc, so forcing, and kept: they shed Ah and Qs, as in the misere test.
    rules = R._replace(misere_opp_score=opp)
    res = play(rules, pol(row(misere_max=-1, open_misere_max=om_max), PASS, PASS, PASS), deal_)
    assert auction_of(res) == AU("0:OM 1:P 2:P 3:P")
    tricks = tricks_of(res)
    assert tricks[0] == (T(0, "0:4d 1:Ad 3:Kd", 1) if deal_ is MS else T(0, "0:4d 1:Ah 3:Qs", 0))
    assert len(tricks) == n_tricks and all(len(p) == 3 for _, p, _, _ in tricks)
    assert ints(res["points"]) == points


# ----------------------------------------------------------------------------------------
# Slams and scoring.
# S8 (dealer 0, eldest seat 1): seat 0 holds the ten top spade trumps (Jo Js Jc As Ks Qs
# 10s 9s 8s 7s): est S = 2+2+2+2+1 + 6 beyond the fourth 12 + 3 voids = 24 -> 14, want 10
# (NT = 14 half tricks -> 9).  Seat 1 (Ac Kc Qc Ad Kd Qd Ah 6h 5h 4h): est NT = 4 + 4 + 2
# = 10 -> 7, every suit 6: want 7.  Seats 2 (H 5) and 3 (D 4) pass.
# Auction: 1: 6NT; 2, 3: pass; 0: 7S; 1: 7NT; 0: 8S; 1: 8NT > 7: pass.
# Kitty 6d 5d 4d: seat 0's only non-trumps, discarded.  Seat 0 leads its trumps (the
# others hold only 6s 5s) and takes all ten tricks.  T1: Jo; 1 (no trump, cannot beat):
# 4h; 2 (partner wins, no trump): 6c; 3 must follow trumps: 5s.
S8_HANDS = [
    "Jo Js Jc As Ks Qs 10s 9s 8s 7s",
    "Ac Kc Qc Ad Kd Qd Ah 6h 5h 4h",
    "Kh Qh Jh 10h 9h 10c 9c 8c 7c 6c",
    "8h 7h Jd 10d 9d 8d 7d 5c 6s 5s",
]
S8 = deal(S8_HANDS, "6d 5d 4d", dealer=0)
SLAM_POLICY = pol(bidder(0), bidder(0), PASS, PASS)


def test_8s_slam_scores_250():
    res = play(R, SLAM_POLICY, S8, dealer=0)
    assert auction_of(res) == AU("1:6NT 2:P 3:P 0:7S 1:7NT 0:8S 1:P")
    assert (int(res["contract"]), int(res["contractor"])) == (10, 0)
    assert ints(res["discards"]) == hand("4d 5d 6d")
    assert tricks_of(res)[0] == T(0, "0:Jo 1:4h 2:6c 3:5s", 0)
    assert ints(res["side_tricks"]) == [10, 0]
    # 8S is worth 240, below 250: the slam scores 250.
    assert int(res["made"]) == 1 and ints(res["points"]) == [250, 0]


# C8 (dealer 0): the same shape in clubs: seat 0 Jo Jc Js Ac Kc Qc 10c 9c 8c 7c (est C
# 14, want 10; NT 9); seat 1 Ad Kd Qd Ah Kh Qh As 7s 6s 5s (est NT 7, suits 6); seats 2 (H
# 5) and 3 (D 5) pass.  Auction 1: 6NT, 0: 7C, 1: 7NT, 0: 8C.  Kitty 4h 4d 5d discarded.
# T1: Jo; 1: 5s; 2 (no trump): 7h (7h and 8s: lower); 3 must follow trumps: 5c.
C8_HANDS = [
    "Jo Jc Js Ac Kc Qc 10c 9c 8c 7c",
    "Ad Kd Qd Ah Kh Qh As 7s 6s 5s",
    "Jh 10h 9h 8h 7h Ks Qs 10s 9s 8s",
    "6h 5h Jd 10d 9d 8d 7d 6d 6c 5c",
]
C8 = deal(C8_HANDS, "4h 4d 5d", dealer=0)


def test_8c_slam_scores_its_value_260():
    res = play(R, SLAM_POLICY, C8, dealer=0)
    assert auction_of(res) == AU("1:6NT 2:P 3:P 0:7C 1:7NT 0:8C 1:P")
    assert ints(res["discards"]) == hand("4h 4d 5d")
    assert tricks_of(res)[0] == T(0, "0:Jo 1:5s 2:7h 3:5c", 0)
    # 8C is worth 260 (>= 250): all ten tricks score its own value.
    assert ints(res["side_tricks"]) == [10, 0] and ints(res["points"]) == [260, 0]


# NT7 (dealer 0): seat 0 Jo + A K Q of hearts, diamonds, clubs: est NT = 2 + 12 = 14 -> 9;
# H = Jo 2 Ah 2 Kh 1 + 3 + 3 + void in spades 1 = 12 -> 8 (D, C the same; S 7): 6NT first.
# Seat 1 Js Jc As Ks Qs 10s 10h 10d 10c 9h: est S = 2+2+2+1 + 6 trumps 4 = 11 -> 7 (no
# void); NT 5; C 5.  Seats 2 (H 6) and 3 (D 6) pass.
# Auction 1: 6S, 0: 6NT, 1: 7S, 0: 7NT, 1: 8S > 7: pass.  Kitty 7s 6s 5s (all suits 3 long,
# the spades lowest): discarded.
# T1: seat 0 leads its highest sure winner, the joker (suitless), naming the suit it holds
# most of: hearts, diamonds, clubs 3 each -> clubs.  1 must follow clubs (at no trumps Jc is
# a club): cheapest 10c; 2 (partner wins): 6c; 3: 5c.  Seat 0 then holds the A K Q of three
# suits, all sure winners: 10 tricks.
NT7_HANDS = [
    "Jo Ah Kh Qh Ad Kd Qd Ac Kc Qc",
    "Js Jc As Ks Qs 10s 10h 10d 10c 9h",
    "Jh 8h 7h 6h 5h 4h 9c 8c 7c 6c",
    "Jd 9d 8d 7d 6d 5d 4d 5c 9s 8s",
]
NT7 = deal(NT7_HANDS, "7s 6s 5s", dealer=0)


def test_7nt_slam_scores_250():
    res = play(R, SLAM_POLICY, NT7, dealer=0)
    assert auction_of(res) == AU("1:6S 2:P 3:P 0:6NT 1:7S 0:7NT 1:P")
    assert (int(res["contract"]), int(res["contractor"])) == (9, 0)
    assert ints(res["discards"]) == hand("5s 6s 7s") and nominated_of(res) == {}
    assert tricks_of(res)[0] == T(0, "0:Jo 1:10c 2:6c 3:5c", 0, CLUBS)
    # 7NT is worth 220: with all ten tricks it scores 250.
    assert ints(res["side_tricks"]) == [10, 0] and ints(res["points"]) == [250, 0]


# K7: seat 0 Jo Js Jc As Ks Qs 10s + 4h 5h 6h (est S = 9 + 7 trumps 6 + voids in diamonds
# and clubs 2 = 17 -> 10; NT 6; C 7); its partner seat 2 holds the other five trumps and
# the lowest diamonds and clubs; the defence holds no trump.
# Kitty 7h 8h 9h: its non-trumps are six hearts: it discards 4h 5h 6h.
# Seat 0 leads Jo Js Jc As Ks while trumps are unseen (seat 2 follows 5s..9s), then Qs and
# 10s as sure winners: 7 tricks.  Then it leads 7h (not sure): seat 1 takes it with Ah
# (it keeps its aces: the defence throw their cheapest cards on the trumps; seat 3 keeps Kh
# Qh Jh), and the defence win the last 3 tricks (every card of side 0 is the lowest of its
# suit in play).  Side 0: 7 tricks, side 1: 3.
# T1: Jo; 1 (no trump): cheapest 7c; 2 (partner wins) cheapest trump 5s; 3: cheapest 8c.
K7_HANDS = [
    "Jo Js Jc As Ks Qs 10s 4h 5h 6h",
    "Ac Kc Qc 7c Ad Kd Qd 7d Ah 10h",
    "9s 8s 7s 6s 5s 4d 5d 6d 5c 6c",
    "Kh Qh Jh Jd 10d 9d 8d 10c 9c 8c",
]
K7_KITTY = "7h 8h 9h"
# made: dealer 3; seat 0 bids 6S (want 10) and the others pass (seat 1: est NT = Ac Kc Qc
# 4 + Ad Kd Qd 4 + Ah 2 = 10 -> 7, suits 6; seat 2: S 3; seat 3: D 6).
K7_MADE = deal(K7_HANDS, K7_KITTY)
K7_MADE_POLICY = pol(bidder(0), PASS, PASS, PASS)
# failed: dealer 0; seat 1 (want 7) competes: 1: 6NT, 0: 7S, 1: 7NT, 0: 8S, 1: pass.
K7_FAILED = deal(K7_HANDS, K7_KITTY, dealer=0)
K7_FAILED_POLICY = pol(bidder(0), bidder(0), PASS, PASS)


def test_defence_scores_10_a_trick_when_the_contract_is_made():
    res = play(R, K7_MADE_POLICY, K7_MADE)
    assert auction_of(res) == AU("0:6S 1:P 2:P 3:P")
    assert ints(res["discards"]) == hand("4h 5h 6h")
    assert tricks_of(res)[0] == T(0, "0:Jo 1:7c 2:5s 3:8c", 0)
    assert ints(res["side_tricks"]) == [7, 3]
    # 6S made (40; 7 tricks, no slam); the defence 3 tricks x 10.
    assert int(res["made"]) == 1 and ints(res["points"]) == [40, 30]


def test_defence_scores_10_a_trick_when_the_contract_fails():
    res = play(R, K7_FAILED_POLICY, K7_FAILED, dealer=0)
    assert auction_of(res) == AU("1:6NT 2:P 3:P 0:7S 1:7NT 0:8S 1:P")
    assert tricks_of(res)[0] == T(0, "0:Jo 1:7c 2:5s 3:8c", 0)
    assert ints(res["side_tricks"]) == [7, 3]
    # 8S failed with 7 tricks: -240; the defence still scores 30.
    assert int(res["made"]) == 0 and ints(res["points"]) == [-240, 30]


def test_first_lead_by_the_eldest():
    # K7_FAILED with first_lead eldest: seat 1 (defence, no sure winner while trumps are
    # unseen) leads the cheapest card of its longest suit (clubs and diamonds 4 each, lower
    # suit): 7c.  2: its clubs 5c 6c cannot beat: 5c.  3: partner wins: cheapest club 8c.
    # 0: void in clubs (Jc is a trump): the lowest card beating 8c is its lowest trump 10s.
    # Seat 0 then draws trumps (Jo Js Jc As Ks, then Qs): still 7 tricks for side 0.
    rules = R._replace(first_lead=LEAD_ELDEST)
    res = play(rules, K7_FAILED_POLICY, K7_FAILED, dealer=0)
    assert tricks_of(res)[0] == T(1, "1:7c 2:5c 3:8c 0:10s", 0)
    assert ints(res["side_tricks"]) == [7, 3] and ints(res["points"]) == [-240, 30]


def test_first_lead_by_the_contractor_is_the_default():
    assert R.first_lead == LEAD_CONTRACTOR
    res = play(R, K7_FAILED_POLICY, K7_FAILED, dealer=0)
    assert tricks_of(res)[0][0] == 0


# ----------------------------------------------------------------------------------------
# The end of a game, through play_dealt's scores argument.  K7_MADE gives [40, 30] (6S made
# by side 0), K7_FAILED [-240, 30] (8S failed by side 0), before the cap: under
# win_by_contract_only the defence's 30 for tricks stops at opp_cap, and the hand's points
# are what it adds to each total (contract, Scoring).


@pytest.mark.parametrize(
    "rules, scores, totals, winner, ended",
    [
        # The defence at 480 takes 3 tricks: capped at 490.
        (R, (0, 480), [40, 490], -1, ""),
        # (reading) a side already above the cap keeps its total: min(525, max(495, 490)).
        (R, (0, 495), [40, 495], -1, ""),
        # opp_cap 450: min(470, max(440, 450)).
        (R._replace(opp_cap=450), (0, 440), [40, 450], -1, ""),
        # win_by_contract_only false: no cap, the defence reaches 510 and wins.
        (R._replace(win_by_contract_only=False), (0, 480), [40, 510], 1, "any_points"),
        # The contracting side reaches 500 exactly on its made contract.
        (R, (460, 0), [500, 30], 0, "contract"),
        # Both sides reach 500 in one hand (false): the contracting side wins.
        (R._replace(win_by_contract_only=False), (470, 480), [510, 510], 0, "contract"),
        # The same totals under win_by_contract_only: the defence is capped at 490.
        (R, (470, 480), [510, 490], 0, "contract"),
        # opp_cap 20 from 0-0 (a hand of hand mode): the defence's 30 for tricks give it 20.
        (R._replace(opp_cap=20), (0, 0), [40, 20], -1, ""),
        # ... and nothing from 30, above the cap (the side keeps its 30).
        (R._replace(opp_cap=20), (0, 30), [40, 30], -1, ""),
        # win_by_contract_only false: no cap, whatever opp_cap says.
        (R._replace(opp_cap=20, win_by_contract_only=False), (0, 0), [40, 30], -1, ""),
    ],
    ids=[
        "cap-490",
        "above-cap-kept",
        "opp_cap-450",
        "any-points",
        "contract-500",
        "both-500-contractor-wins",
        "both-500-capped",
        "opp_cap-20-from-0",
        "opp_cap-20-above",
        "opp_cap-20-no-cap",
    ],
)
def test_game_end_made_contract(rules, scores, totals, winner, ended):
    res = play(rules, K7_MADE_POLICY, K7_MADE, scores=scores)
    assert ints(res["side_tricks"]) == [7, 3]  # 40 for 6S, 30 for tricks before any cap
    assert ints(res["points"]) == [totals[0] - scores[0], totals[1] - scores[1]]  # what the hand adds
    assert ints(res["scores"]) == totals
    assert (int(res["winner"]), res["ended"]) == (winner, ended)


@pytest.mark.parametrize(
    "rules, scores, totals, winner, ended",
    [
        # -260 - 240 = -500: at -500 or below side 0 loses at once.
        (R, (-260, 0), [-500, 30], 1, "minus_500"),
        (R._replace(win_by_contract_only=False), (-300, 100), [-540, 130], 1, "minus_500"),
        (R, (-250, 0), [-490, 30], -1, ""),
        # false: side 0 falls to -540 while side 1 reaches 510 on trick points: the -500 check
        # comes before any_points (side 1 wins either way).
        (R._replace(win_by_contract_only=False), (-300, 480), [-540, 510], 1, "minus_500"),
        # A failed contract: the defence still capped at 490.
        (R, (0, 480), [-240, 490], -1, ""),
    ],
    ids=["minus-500", "minus-540-any-points", "minus-490", "minus-and-500", "failed-cap"],
)
def test_game_end_failed_contract(rules, scores, totals, winner, ended):
    res = play(rules, K7_FAILED_POLICY, K7_FAILED, dealer=0, scores=scores)
    assert ints(res["side_tricks"]) == [7, 3]  # -240 for 8S, 30 for tricks before any cap
    assert ints(res["points"]) == [totals[0] - scores[0], totals[1] - scores[1]]
    assert ints(res["scores"]) == totals
    assert (int(res["winner"]), res["ended"]) == (winner, ended)


@pytest.mark.parametrize(
    "rules, scores, totals, winner, ended",
    [
        # AP played out gives [30, 70]: points for tricks, capped at 490 for both sides.
        (R._replace(all_pass=ALL_PASS_NO_TRUMPS), (480, 460), [490, 490], -1, ""),
        # false: both reach 500; (reading) the higher total wins.
        (R._replace(all_pass=ALL_PASS_NO_TRUMPS, win_by_contract_only=False), (480, 460), [510, 530], 1, "any_points"),
        # (reading) equal totals: the side of the eldest hand (seat 0, side 0).
        (R._replace(all_pass=ALL_PASS_NO_TRUMPS, win_by_contract_only=False), (470, 430), [500, 500], 0, "any_points"),
    ],
    ids=["capped", "higher-total", "equal-eldest"],
)
def test_game_end_all_pass_played_out(rules, scores, totals, winner, ended):
    res = play(rules, ALL_PASS_POLICY, AP, scores=scores)
    assert ints(res["side_tricks"]) == [3, 7]  # 30 and 70 for tricks before any cap
    assert ints(res["points"]) == [totals[0] - scores[0], totals[1] - scores[1]]
    assert ints(res["scores"]) == totals
    assert (int(res["winner"]), res["ended"]) == (winner, ended)


# ----------------------------------------------------------------------------------------
# play_game.  Every seat PASS.  SL: P = Jo Jh Jd Ah Kh Qh 10h 9h 8h 7h (est H = 9 + 6 beyond
# the fourth 12 + 3 voids = 24 -> 14: want min(14 - 3, 10) = 10: bids 6H whenever it speaks
# first or after passes); A = Ad Kd Qd 10d 9d Ac Kc Qc 6h 5h (NT 7, D 6), B = As Ks Qs Js
# 10s Jc 10c 9c 8d 7d (S = 7 + 6 trumps 4 + void 1 = 12 -> 8), C = 8c 7c 6c 5c 9s 8s 7s 6s
# 5s 4h (S 3): they pass.  Kitty 6d 5d 4d.  P leads its trumps from the top and takes all
# ten tricks: 6H (100) scores 250.
SL_P = "Jo Jh Jd Ah Kh Qh 10h 9h 8h 7h"
SL_A = "Ad Kd Qd 10d 9d Ac Kc Qc 6h 5h"
SL_B = "As Ks Qs Js 10s Jc 10c 9c 8d 7d"
SL_C = "8c 7c 6c 5c 9s 8s 7s 6s 5s 4h"
SL1 = deal([SL_P, SL_A, SL_C, SL_B], "6d 5d 4d", dealer=0)  # P in seat 0; eldest seat 1
SL2 = deal([SL_C, SL_B, SL_P, SL_A], "6d 5d 4d", dealer=1)  # P in seat 2, the eldest
AP3 = AP  # dealer 3: all pass


def test_play_game_thrown_in_hand_counts_and_the_deal_passes_left(play_game):
    # Hand 0 (dealer 3): all pass, thrown in.  Hand 1 (dealer 0): 1, 2, 3 pass, seat 0 6H
    # slam: [250, 0].  Hand 2 (dealer 1): seat 2 6H slam: [500, 0]: side 0 wins on a made
    # contract.  The fourth deal is never played.
    res = play_game(R, ALL_PASS_POLICY, [AP3, SL1, SL2, SL1])
    check_game(res, R, [AP3, SL1, SL2, SL1])
    assert res["hands"] == 3 and len(res["results"]) == 3
    r0, r1, r2 = res["results"]
    assert int(r0["contract"]) == -1 and ints(r0["scores"]) == [0, 0]
    assert auction_of(r1) == AU("1:P 2:P 3:P 0:6H") and ints(r1["scores"]) == [250, 0]
    assert auction_of(r2) == AU("2:6H 3:P 0:P 1:P") and ints(r2["scores"]) == [500, 0]
    assert ints(r2["points"]) == [250, 0]
    assert (int(r2["winner"]), r2["ended"]) == (0, "contract")
    assert ints(res["scores"]) == [500, 0] and int(res["winner"]) == 0 and res["ended"] == "contract"


def test_play_game_max_hands_truncates(play_game):
    res = play_game(R._replace(max_hands=2), ALL_PASS_POLICY, [AP3, SL1, SL2])
    check_game(res, R, [AP3, SL1, SL2])
    assert res["hands"] == 2 and ints(res["scores"]) == [250, 0]
    assert int(res["winner"]) == -1 and res["ended"] == "truncated"


def test_play_game_deals_run_out(play_game):
    res = play_game(R, ALL_PASS_POLICY, [AP3, SL1])
    check_game(res, R, [AP3, SL1])
    assert res["hands"] == 2 and ints(res["scores"]) == [250, 0]
    assert int(res["winner"]) == -1 and res["ended"] == ""


def test_play_game_first_dealer(play_game):
    # first_dealer 0: hand 0 dealt by seat 0 (SL1), hand 1 by seat 1 (SL2): two slams.
    res = play_game(R, ALL_PASS_POLICY, [SL1, SL2], first_dealer=0)
    check_game(res, R, [SL1, SL2], first_dealer=0)
    assert res["hands"] == 2 and ints(res["scores"]) == [500, 0]
    assert int(res["winner"]) == 0 and res["ended"] == "contract"


def test_play_game_all_pass_played_out(play_game):
    # AP played out at no trumps: [30, 70]; then the two slams: [280, 70], [530, 70].
    rules = R._replace(all_pass=ALL_PASS_NO_TRUMPS)
    res = play_game(rules, ALL_PASS_POLICY, [AP3, SL1, SL2])
    check_game(res, rules, [AP3, SL1, SL2])
    assert [ints(r["scores"]) for r in res["results"]] == [[30, 70], [280, 70], [530, 70]]
    assert int(res["winner"]) == 0 and res["ended"] == "contract" and res["hands"] == 3


def test_deck_45_adds_the_black_fours_and_a_kitty_of_5():
    """deck 45: the pack in code order is Ac 4c 5c .. Kc, Ad 4d .. Kd, Ah 4h .. Kh, As 4s
    .. Ks, Jo (45 cards).  With nothing listed and seat 3 dealing, seat 0 (eldest) gets the
    first ten: Ac 4c 5c 6c 7c 8c 9c 10c Jc Qc (codes 0, 3..11); the kitty is the last
    five: 10s Js Qs Ks Jo (48..52).  Seat 0's ten clubs (Jc the right bower) are worth, in
    clubs, Jc 2 + Ac 2 + six trumps beyond four 12 + three voids 3 = 19 half tricks -> 11,
    so even at bid_offset -3 (want 8) it opens the cheapest clubs bid, 6C; someone is
    then the contractor and, taking the kitty of five, discards five cards."""
    rules = R._replace(deck=DECK_45)
    res = play(rules, pol(PASS, PASS, PASS, bidder(3)), [])
    assert res["dealt"][0] == [0, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert res["kitty"] == [48, 49, 50, 51, 52]
    assert 42 in sum(res["dealt"], [])  # 4s is in play
    assert res["auction"][0] == (0, 1)
    assert res["contractor"] >= 0 and len(res["discards"]) == 5
    with pytest.raises(ValueError):
        play(R, pol(PASS, PASS, PASS, PASS), [3])  # 4c is not in the 43-card pack
