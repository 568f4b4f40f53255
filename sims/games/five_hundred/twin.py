"""Plain-Python slow twin of Five Hundred (:mod:`sims.games.five_hundred`).

Written from the rules contract alone (the package docstring of
``sims/games/five_hundred/__init__.py`` and the definitions in its ``rules.py``), with
``shared/rules/five-hundred.md`` as background, without reference to any Numba kernel, so
that agreement between a kernel and this twin is evidence that both follow the contract.

Stream draws, in order (:class:`sims.core.rng.Stream`)
  Hand ``i`` of seed ``s`` (hand mode) uses ``Stream(s, i)``; game ``i`` uses
  ``Stream(s, i)`` for all its hands in sequence, every hand starting from its pack in
  code order (the pack of the deck switch, sorted by code, the jokers last).  The only
  draws are the pack's: the card taken at pack position ``t`` (t = 0 .. P-1, all P
  positions, the last one with ``below(1)`` too) first swaps position ``t`` with
  ``t + stream.below(P - t)`` and then takes position ``t``.  Draw order: 10 cards to the
  eldest hand (the dealer's left), 10 to the next seat clockwise, ..., 10 to the dealer,
  then the kitty (3, 5 or 6 cards).  A hand thrown in after four passes has drawn its P
  cards like any other.  Decisions and card play draw nothing, but a mixed cell of a
  strategy table (sims.games.five_hundred.table): one ``uniform()`` from the hand's stream
  after the deal (game mode: the game's stream, going on), or from ``Stream(0, 0)`` for a
  stacked hand, or (advice) from a copy of the stream after the deal.  With a stacked pack
  (:func:`play_dealt`, :func:`play_game`) there are no swaps: the listed cards, then the
  other cards of the pack in code order.

Public functions
  * :func:`play_dealt` plays one hand from a stacked pack (the contract's "Stacked deals");
  * :func:`play_game` plays a game from stacked packs (the same section);
  * :func:`hand_result` / :func:`game_result` are those dicts for hand / game ``i`` of a seed;
  * :func:`hand_rows` / :func:`game_rows` (also :func:`play_hand`) give the outcome rows of
    hand / game ``i`` of a seed in ``HAND_OUTCOMES`` / ``GAME_OUTCOMES`` column order;
  * :func:`simulate` sums those rows over a range (``sims.core.twins.sum_outcome_rows``);
  * :func:`replay_lines` is the readable log of one hand of a seed in hand mode;
  * :func:`advise` plays the advice of sims.games.five_hundred.advice (the known array
    there): the conditioned deals, the given auction checked, the candidate forced;
  * helpers the tests use: :func:`pack_cards`, :func:`deal`, :func:`estimate`,
    :func:`high_cards`, :func:`card_text`.
  All take the policy as the [4, 5] matrix (POLICY_FIELDS order) and read its values as
  integers.

Orders (how "higher", "lowest-ordered", "highest" compare cards; higher wins)
  A plain card's order is its face rank, the same in every suit: 4 < 5 < ... < 10 < J < Q
  < K < A (numbers 4 .. 14).  Trumps of a suit contract: the printed cards of the trump
  suit by face rank, then the left bower 15, the right bower 16, the joker 17 and the
  black joker 18.  At no trumps and misere a nominated joker is the top card of its suit
  (the joker 15, the black joker 16) and a suitless joker is above everything (the joker
  17, the black joker 18).

Readings taken where the contract had to be interpreted (also marked ``(reading Rk)`` in
the code):

  R1 misere_needs_7 and open misere without open_misere_anytime: a trick bid of at least
     7 (at least 8) tricks made earlier in the auction, the current bid included: the
     bidding has reached that level.  (The contract first said "a 7-level (8-level) trick
     bid"; it now states this reading itself.)
  R2 "at once when a bid is made that nothing can outrank (10NT, or open misere under
     highest)": the auction ends at once on open misere when it is highest and on 10NT
     unless open misere is highest and may be bid at all (allow_misere): under highest
     with misere allowed, open misere can still be bid over 10NT (10NT has reached the
     8 level, R1), so 10NT does not close the auction.
  R3 Ranking across suits (plain cards of different suits, "lowest cards first",
     "lowest-ordered", "highest") compares face ranks (see Orders), not positions within
     each suit: the black 5 and the red 5 are equal, the Q of the left bower's suit is a
     Q (12).  Equal orders go to the tie-break the contract gives, else R4.
  R4 Where the contract names no tie-break between equal orders in different suits (the
     misere contractor's "highest legal card that does not win", the misere defence's
     "highest legal card"), ties go to the lower suit code, the contract's usual
     tie-break.  A suitless joker is the highest card and the last of the lowest (the
     joker before the black joker); a nominated joker is a card of its suit.
  R5 The kitty discard's keep value counts the non-trumps of each suit in the whole hand
     with the kitty (13, 15 or 16 cards), once, before any card is discarded; the cards
     are then discarded in ascending keep value (ties to the lower suit code).  The
     suit counted is the effective suit (the left bower is a trump, not a card of its
     printed suit).  At no trumps the count is of the printed suit, jokers in none.
  R6 Joker nomination counts the contractor's cards of each suit after the discard,
     the jokers themselves not counted (both jokers go to the same suit).
  R7 The nomination is public (it is named before the first lead): for every player a
     nominated joker unseen to it is a card of its suit (the top one), not a suitless
     joker.
  R8 "Shown void": a player has shown void in suit X once it has played to a trick led
     in X (the suit of the led card, or the suit named for a suitless joker led) a card
     that is not of X, whatever it held (a suitless joker played to an X trick under
     first-round-free or any-time counts).  The leader of a trick shows nothing.  If a
     leader with a suitless joker to lead has shown void in every suit, it may name any
     suit (it must lead something).
  R9 first-round-free: a suitless joker may be played, by a player holding the suit, to
     the first trick of the hand led in that suit (led by a card of the suit or by a
     suitless joker naming it), by anyone: "first round" of the suit.
  R10 The misere defence leading a suitless joker (possible only when it holds nothing
     else) names a suit by the trick-contract rule: the suit in which it holds the most
     cards among those it may name, ties to the lower suit code.
  R11 Misere with first_lead eldest when the eldest hand is the contractor's partner (out
     of play): the first lead passes to the next seat clockwise that takes part.
  R12 The players' choices are made among the legal cards: under lead-last-only a
     suitless joker is no candidate to lead before trick 10 unless the leader holds
     nothing else.  Leading with no non-trump, no trump and no sure winner (only
     suitless jokers left) leads the cheapest card (the joker before the black joker).
  R13 "A card that does not win the trick" (the misere contractor following) is a card
     that does not beat the card winning the trick at the moment it plays.
  R14 win_by_contract_only, in every hand (game mode, play_dealt and play_game from their
     scores, hand mode from 0-0): the contracting side's points (contract made or
     failed) are added in full; every other side's points are points for tricks (the
     defence of a trick contract or of misere, each side after four passes played out)
     and are capped: the side's total becomes min(total + points, max(total, opp_cap)),
     and the hand's ``points`` (the replay's "points:" line, hand mode's score,
     defence_score) are what it adds, that total minus the old one.  So in hand mode
     the defence scores min(10 * tricks, opp_cap); value_<c> and declarer_score, the
     contracting side's, are never capped.  win_by_contract_only false: no cap.
  R15 End of a hand in a game, checked in this order: (1) the contracting side made its
     contract and stands at 500 or more: it wins ("contract"); (2) a side stands at
     -500 or below: the other side wins ("minus_500"); (3) win_by_contract_only false:
     a side stands at 500 or more: it wins ("any_points"; both: the contracting side,
     and after four passes played out the higher total, equal totals to the side of the
     eldest hand).  Under win_by_contract_only false a failed contract can drop the
     contractors to -500 in the hand where the defence reaches 500 on trick points (the
     contract's "a win and a loss never fall in the same hand" holds only with the cap);
     the winner is the same either way and the end is counted as "minus_500".
  R16 play_dealt's ``scores`` must be two whole numbers strictly between -500 and 500
     (the game's bounds during play); the cards listed may be any number 0..P of
     distinct integer codes of the pack (a float such as 3.0 is accepted, 3.5 is not).
  R17 play_game: ``ended`` is "truncated" when the hand count reaches max_hands with
     nobody winning, even when the listed deals end there too; an empty list of deals
     plays nothing (hands 0, ended "", scores 0-0).
  R18 Game mode ``length_<lo>_<hi>`` counts every game by the hands it took, truncated
     games included (a truncated game took max_hands hands).
  R19 The defence against an exposed open misere (the contract's section of that name)
     reads the contractor's cards not yet played.  It acts at every decision of a
     defender from the exposure on: after-first-lead, the follows of trick 1 on;
     after-first-trick, trick 2 on; before-lead, the first lead on.  So when the
     contractor leads trick 1 (first_lead contractor), before-lead and after-first-lead
     play alike (the contractor's own play never reads the exposure), and
     after-first-trick differs from both wherever a defender's trick-1 card would change.
     "Forcing" compares orders within the suit (the exposed hand's lowest card of the
     card's suit); "the suit in which the exposed hand's lowest card is highest" compares
     those orders across suits (R3), ties to the lower suit code; the lead is then the
     lowest forcing card of that suit.  Shedding breaks ties in "highest" to the lower suit
     code (R4).  Exposure is public: once exposed the contractor's remaining hand is out of
     every other player's unseen cards.
  R20 A misere contractor never holds a joker after its discard (jokers are discarded
     first and the kitty is at least 3 cards), so "a suitless joker last" in its lead
     never acts; the out-of-play partner's cards are out of everyone's unseen cards.
  R21 Bidding step 3: when no trick bid in d* outranks the current bid (d* below hearts
     over open misere, or the top of the ladder reached) the seat passes; it does not try
     another denomination.  The estimates, high cards and want are those of the seat's
     dealt 10 cards, whatever the auction has shown.
"""

from __future__ import annotations

import numpy as np

from sims.core.cards import card_name
from sims.core.rng import Stream
from sims.core.table_nb import NO_TABLE, record_visit, table_action
from sims.core.twins import Pack, sum_outcome_rows
from sims.games.five_hundred import SPEC
from sims.games.five_hundred.rules import (
    ALL_PASS_NO_TRUMPS,
    BID_OFFSET,
    DECK_45,
    DECK_46,
    DENOMINATION_SUIT,
    EXPOSE_AFTER_FIRST_LEAD,
    EXPOSE_AFTER_FIRST_TRICK,
    EXPOSE_BEFORE_LEAD,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    HAND_SIZE,
    KITTY_SIZE,
    LEAD_CONTRACTOR,
    LENGTH_BUCKETS,
    MISERE,
    MISERE_MAX,
    MISERE_OPP_NONE,
    MISERE_OPP_PER_CONTRACTOR_TRICK,
    MISERE_OPP_PER_TRICK_WON,
    N_CONTRACTS,
    N_TRICK_BIDS,
    NO_CONTRACT,
    NO_TRUMPS,
    NOMINATE,
    NT_JOKER_ANY_TIME,
    NT_JOKER_FIRST_ROUND_FREE,
    NT_JOKER_LEAD_LAST_ONLY,
    NT_JOKER_MAY_NOMINATE,
    OPEN_MISERE,
    OPEN_MISERE_HIGHEST,
    OPEN_MISERE_MAX,
    PACK_SIZE,
    PARTNER_MARGIN,
    PLAYERS,
    POLICY_FIELDS,
    TARGET,
    TRICKS,
    Rules,
    contract_name,
    contract_value,
    ladder_position,
)
from sims.games.five_hundred.table import (
    A_BID,
    A_MISERE,
    A_NO_MISERE,
    A_OPEN_MISERE,
    A_PASS,
    BID_BLOCK,
    CALL_OPEN,
    CALL_OPPONENT,
    CALL_PARTNER,
    N_ACTIONS,
    N_CELLS,
    TABLES,
    allowed_of,
    misere_cell,
    trick_cell,
)
from sims.spec import check_policy_values, check_rule_values

__all__ = [
    "play_dealt",
    "play_game",
    "hand_result",
    "game_result",
    "hand_rows",
    "game_rows",
    "play_hand",
    "simulate",
    "replay_lines",
    "pack_cards",
    "deal",
    "estimate",
    "high_cards",
    "card_text",
    "advise",
    "solve",
]

N_FACES = 13
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE, FOUR, JACK, QUEEN, KING = 0, 3, 10, 11, 12
JOKER, BLACK_JOKER = 52, 53
NO_SUIT = -1
SAME_COLOUR = (SPADES, HEARTS, DIAMONDS, CLUBS)  # clubs <-> spades, diamonds <-> hearts
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
LOSS = -TARGET  # a side at -500 or below loses


# ----------------------------------------------------------------------------------------
# Cards


def pack_cards(deck: int) -> list[int]:
    """The pack of the ``deck`` switch in code order: every suit's A and 5..K, the red 4s
    (and the black 4s from deck 45), the joker (and the black joker in deck 46)."""
    cards = []
    for suit in range(4):
        for face in range(N_FACES):
            if face == ACE or face > FOUR:
                cards.append(suit * N_FACES + face)
            elif face == FOUR and (suit in (DIAMONDS, HEARTS) or deck in (DECK_45, DECK_46)):
                cards.append(suit * N_FACES + face)
    cards.append(JOKER)
    if deck == DECK_46:
        cards.append(BLACK_JOKER)
    assert len(cards) == PACK_SIZE[deck]
    return cards


def card_text(code: int) -> str:
    """``10h``, ``Jd``; ``Jo`` for the joker, ``BJ`` for the black joker."""
    if code == JOKER:
        return "Jo"
    if code == BLACK_JOKER:
        return "BJ"
    return card_name(code)


def _names(cards) -> str:
    return " ".join(card_text(c) for c in cards) if cards else "-"


def _rank(code: int) -> int:
    """Face rank 4..14 of a printed card (A high; reading R3)."""
    face = code % N_FACES
    return 14 if face == ACE else face + 1


def high_cards(cards) -> int:
    """The jokers, aces, kings, queens and jacks among ``cards``."""
    return sum(1 for c in cards if c >= JOKER or c % N_FACES in (ACE, JACK, QUEEN, KING))


def estimate(cards, denomination: int) -> int:
    """The policy's trick estimate of a 10-card hand for a denomination (0..3 the suits
    spades, clubs, diamonds, hearts; 4 no trumps): half_tricks // 2 + 2."""
    cards = list(cards)
    jokers = sum(1 for c in cards if c >= JOKER)
    half = 2 * jokers
    if denomination == NO_TRUMPS:
        for x in range(4):
            mine = [c for c in cards if c < JOKER and c // N_FACES == x]
            faces = {c % N_FACES for c in mine}
            if ACE in faces:
                half += 2 + 2 * max(0, len(mine) - 4)
            if KING in faces and len(mine) >= 2:
                half += 1
            if QUEEN in faces and len(mine) >= 3:
                half += 1
        return half // 2 + 2
    trump = DENOMINATION_SUIT[denomination]
    right, left = trump * N_FACES + JACK, SAME_COLOUR[trump] * N_FACES + JACK
    trumps = [c for c in cards if c >= JOKER or c == left or c // N_FACES == trump]
    held = set(cards)
    half += 2 * (right in held) + 2 * (left in held) + 2 * (trump * N_FACES + ACE in held)
    half += 1 * (trump * N_FACES + KING in held)
    half += 2 * max(0, len(trumps) - 4)
    for x in range(4):
        if x == trump:
            continue
        mine = [c for c in cards if c < JOKER and c != left and c // N_FACES == x]
        faces = {c % N_FACES for c in mine}
        if ACE in faces:
            half += 2
        if KING in faces and len(mine) >= 2:
            half += 1
        if not mine and len(trumps) >= 3:
            half += 1
    return half // 2 + 2


# ----------------------------------------------------------------------------------------
# The deal


def deal(rules: Rules, pack: Pack, dealer: int) -> tuple[list, list]:
    """Draw a whole pack: 10 cards to each seat from the eldest hand round to the dealer,
    then the kitty.  Returns (hands by seat in draw order, kitty in draw order)."""
    hands = [[] for _ in range(PLAYERS)]
    for k in range(PLAYERS):
        seat = (dealer + 1 + k) % PLAYERS
        for _ in range(HAND_SIZE):
            hands[seat].append(pack.draw())
    kitty = [pack.draw() for _ in range(KITTY_SIZE[int(rules.deck)])]
    assert pack.left() == 0
    return hands, kitty


# ----------------------------------------------------------------------------------------
# The auction


def _tricks_of(contract: int) -> int:
    return 6 + contract // 5


class _Auction:
    """The ladder and who may bid what."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.mr, self.omr = int(rules.misere_rank), int(rules.open_misere_rank)
        # the top of the ladder among the bids the rules allow (reading R2)
        if rules.allow_misere and self.omr == OPEN_MISERE_HIGHEST:
            self.top = OPEN_MISERE
        else:
            self.top = N_TRICK_BIDS - 1

    def pos(self, contract: int) -> int:
        return ladder_position(contract, self.mr, self.omr)

    def outranks(self, bid: int, current: int) -> bool:
        return current == NO_CONTRACT or self.pos(bid) > self.pos(current)

    def may_misere(self, current: int, level: int) -> bool:
        """``level``: the most tricks of any trick bid made so far in the auction (0: none)."""
        r = self.rules
        return bool(r.allow_misere) and self.outranks(MISERE, current) and (not r.misere_needs_7 or level >= 7)

    def may_open_misere(self, current: int, level: int) -> bool:
        r = self.rules
        return (
            bool(r.allow_misere) and self.outranks(OPEN_MISERE, current) and (bool(r.open_misere_anytime) or level >= 8)
        )  # (reading R1)

    def call(self, row, cards, current: int, current_by: int, seat: int, level: int, stream, visits=None) -> int:
        """The seat's call: a contract id or NO_CONTRACT for a pass.  The policy's
        misere step, then its trick step; a seat playing a table takes its cells' actions
        (_visit)."""
        hc = high_cards(cards)
        om_ok, mis_ok = self.may_open_misere(current, level), self.may_misere(current, level)
        partner = current_by >= 0 and current_by == (seat + 2) % PLAYERS
        holder = CALL_OPEN if current_by < 0 else (CALL_PARTNER if partner else CALL_OPPONENT)
        if om_ok or mis_ok:
            if om_ok and hc <= row[OPEN_MISERE_MAX]:
                action = A_OPEN_MISERE
            elif mis_ok and hc <= row[MISERE_MAX]:
                action = A_MISERE
            else:
                action = A_NO_MISERE
            cell = misere_cell(holder, allowed_of(om_ok, mis_ok), hc)
            action = _visit(row, seat, cell, action, stream, visits)
            if action in (A_OPEN_MISERE, A_MISERE):
                return OPEN_MISERE if action == A_OPEN_MISERE else MISERE
        est = [estimate(cards, d) for d in range(5)]
        best = max(range(5), key=lambda d: (est[d], d))  # ties to the higher denomination
        want = min(est[best] + row[BID_OFFSET], TRICKS)
        for k in range(6, 11):
            bid = 5 * (k - 6) + best
            if self.outranks(bid, current):
                action = A_BID
                if k > want or (partner and k + row[PARTNER_MARGIN] > want):
                    action = A_PASS
                action = _visit(row, seat, trick_cell(holder, k, k - est[best]), action, stream, visits)
                return bid if action == A_BID else NO_CONTRACT
        return NO_CONTRACT


def _visit(row, seat: int, cell: int, action: int, stream, visits) -> int:
    """A visit to a cell of the bid table: the seat's table's action when it plays one
    there (a mixed cell drawing from ``stream``), else ``action`` (its policy's); in a solve
    (``visits``: count, forced, action, log) the forced visit takes the forced action."""
    chosen = table_action(row, BID_BLOCK, N_ACTIONS, cell, stream)
    if chosen != NO_TABLE:
        action = chosen
    if visits is not None:
        if visits["count"] == visits["forced"]:
            action = visits["action"]
        visits["count"] += 1
        visits["log"].append((seat, cell, action))
    return action


def _auction(rules: Rules, rows, hands, dealer: int, say, script=None, stream=None, visits=None):
    """The calls in order, the contract and the contractor.  ``script`` (advice): (the
    advised seat, the calls given before its turn, its call at its turn, seen, later):
    the advised seat makes the calls given and then that call; every other seat's call
    among those given is made as given when ``seen``, else must be the one it makes, or
    the auction is abandoned (returns None).  After its call the advised seat passes at
    every later turn unless ``later`` (then it calls by its policy).  ``stream``: the
    hand's, for mixed table cells; ``visits``: a solve's (_visit)."""
    lad = _Auction(rules)
    passed = [False] * PLAYERS
    calls = []
    current, current_by, level = NO_CONTRACT, -1, 0
    seat = (dealer + 1) % PLAYERS
    while True:
        if not passed[seat]:
            bid = lad.call(rows[seat], hands[seat], current, current_by, seat, level, stream, visits)
            if script is not None and len(calls) <= len(script[1]):
                advised, given, forced, seen, _ = script
                wanted = given[len(calls)] if len(calls) < len(given) else forced
                if seat == advised or seen:
                    bid = wanted
                elif bid != wanted:
                    return None  # this deal does not give the auction the advised seat saw
            elif script is not None and seat == script[0] and not script[4]:
                bid = NO_CONTRACT  # the advised seat stands by its call
            calls.append((seat, bid))
            if bid == NO_CONTRACT:
                passed[seat] = True
                say(f"call: seat {seat} passes")
            else:
                assert lad.outranks(bid, current)
                current, current_by = bid, seat
                if bid < N_TRICK_BIDS:
                    level = max(level, _tricks_of(bid))
                say(f"call: seat {seat} bids {contract_name(bid)}")
                if bid == lad.top:  # (reading R2)
                    say(f"the auction ends: nothing can outrank {contract_name(bid)}")
                    break
            n_passed = sum(passed)
            if n_passed == PLAYERS:
                break
            if n_passed == PLAYERS - 1 and current != NO_CONTRACT:
                break
        seat = (seat + 1) % PLAYERS
    return calls, current, current_by


# ----------------------------------------------------------------------------------------
# One hand in play


class _Hand:
    """The state of one hand in play: the contract, the hands, what has been played."""

    def __init__(self, rules: Rules, rows, pack: list, dealer: int, contract: int, contractor: int):
        self.rules = rules
        self.rows = rows
        self.pack = set(pack)
        self.dealer = dealer
        self.contract = contract
        self.contractor = contractor
        self.misere = contract in (MISERE, OPEN_MISERE)
        self.open = contract == OPEN_MISERE
        if 0 <= contract < N_TRICK_BIDS and contract % 5 != NO_TRUMPS:
            self.trump = DENOMINATION_SUIT[contract % 5]
            self.right = self.trump * N_FACES + JACK
            self.left = SAME_COLOUR[self.trump] * N_FACES + JACK
        else:
            self.trump = NO_SUIT  # no trumps, misere, four passes played out
            self.right = self.left = -1
        self.out = (contractor + 2) % PLAYERS if self.misere else -1
        self.nominated = {}
        self.hands = [set() for _ in range(PLAYERS)]
        self.played = set()
        self.discards = set()
        self.void = [[False] * 4 for _ in range(PLAYERS)]  # shown void (reading R8)
        self.rounds = [0] * 4  # tricks led in each suit so far
        self.exposed = False
        self.out_cards = set()  # the misere partner's hand, out of play

    # -- cards

    def suit(self, c: int) -> int:
        """The effective suit; NO_SUIT for a suitless joker."""
        if self.trump >= 0:
            if c >= JOKER or c == self.left:
                return self.trump
            return c // N_FACES
        if c >= JOKER:
            return self.nominated.get(c, NO_SUIT)
        return c // N_FACES

    def is_trump(self, c: int) -> bool:
        return self.trump >= 0 and self.suit(c) == self.trump

    def suitless(self, c: int) -> bool:
        return self.trump < 0 and c >= JOKER and c not in self.nominated

    def order(self, c: int) -> int:
        if c >= JOKER:
            if self.trump < 0 and c in self.nominated:
                return 15 + (c - JOKER)
            return 17 + (c - JOKER)
        if c == self.right:
            return 16
        if c == self.left:
            return 15
        return _rank(c)

    def kind(self, c: int) -> int:
        """0 a plain card (a nominated joker included), 1 a trump, 2 a suitless joker."""
        if self.is_trump(c):
            return 1
        if self.suitless(c):
            return 2
        return 0

    def low_key(self, c: int):
        """Ascending: plain cards by order (ties to the lower suit), then trumps, then
        suitless jokers (the joker before the black joker)."""
        return (self.kind(c), self.order(c), self.suit(c))

    def high_key(self, c: int):
        """Ascending strength for "highest": ties to the lower suit code (reading R4)."""
        return (self.kind(c), self.order(c), -self.suit(c))

    def beats(self, c: int, w: int, led_suit: int) -> bool:
        """Does ``c`` beat ``w``, the card now winning a trick led in ``led_suit``?"""
        if self.is_trump(c):
            return not self.is_trump(w) or self.order(c) > self.order(w)
        if self.is_trump(w):
            return False
        if self.suitless(c):
            return not self.suitless(w) or c > w
        if self.suitless(w):
            return False
        return self.suit(c) == led_suit and self.order(c) > self.order(w)

    # -- knowledge

    def unseen(self, seat: int) -> set:
        out = self.pack - self.hands[seat] - self.played
        if seat == self.contractor:
            out -= self.discards
        if self.exposed and seat != self.contractor:
            out -= self.hands[self.contractor]
        if self.out >= 0:
            out -= self.out_cards
        return out

    def sure_winner(self, unseen: set, c: int) -> bool:
        led = self.suit(c)
        return not any(self.beats(u, c, led) for u in unseen)

    # -- the law of play

    def legal_leads(self, seat: int, t: int) -> list:
        hand = sorted(self.hands[seat])
        if int(self.rules.nt_joker) == NT_JOKER_LEAD_LAST_ONLY and t < TRICKS:
            other = [c for c in hand if not self.suitless(c)]
            if other:
                return other
        return hand

    def joker_free(self, led_suit: int) -> bool:
        """May a suitless joker be played to this trick by a player holding the suit led?"""
        code = int(self.rules.nt_joker)
        if code == NT_JOKER_ANY_TIME:
            return True
        if code == NT_JOKER_FIRST_ROUND_FREE:
            return self.rounds[led_suit] == 0  # (reading R9)
        return False

    def legal_follows(self, seat: int, led_suit: int) -> list:
        hand = sorted(self.hands[seat])
        follow = [c for c in hand if self.suit(c) == led_suit]
        if not follow:
            return hand
        if self.joker_free(led_suit):
            follow += [c for c in hand if self.suitless(c)]
        return sorted(follow)

    def nameable(self, seat: int) -> list:
        suits = [x for x in range(4) if not self.void[seat][x]]
        return suits if suits else list(range(4))  # (reading R8)

    def name_suit(self, seat: int) -> int:
        """The suit named for a suitless joker led (the joker already out of the hand)."""
        counts = [sum(1 for c in self.hands[seat] if self.suit(c) == x) for x in range(4)]
        return min(self.nameable(seat), key=lambda x: (-counts[x], x))

    # -- the players' choices

    def cheapest(self, cards) -> int:
        return min(cards, key=self.low_key)

    # -- the defence against an exposed open misere (reading R19)

    def lowest_exposed(self, suit: int):
        """The order of the exposed contractor's lowest card of ``suit``, None if it has none."""
        orders = [self.order(c) for c in self.hands[self.contractor] if self.suit(c) == suit]
        return min(orders) if orders else None

    def forcing(self, cards) -> list:
        """The cards below the exposed contractor's lowest card of their suit."""
        out = []
        for c in cards:
            if self.kind(c) == 0:
                low = self.lowest_exposed(self.suit(c))
                if low is not None and self.order(c) < low:
                    out.append(c)
        return out

    def shed(self, cards) -> int:
        """Its highest spare card (neither forcing nor a suitless joker), else its highest
        card that is not a suitless joker, else its highest card."""
        forcing = set(self.forcing(cards))
        spare = [c for c in cards if c not in forcing and not self.suitless(c)]
        plain = [c for c in cards if not self.suitless(c)]
        return max(spare or plain or cards, key=self.high_key)

    def exposed_lead(self, cands) -> int:
        forcing = self.forcing(cands)
        if forcing:
            suits = {self.suit(c) for c in forcing}
            best = max(suits, key=lambda x: (self.lowest_exposed(x), -x))  # ties to the lower suit
            return min((c for c in forcing if self.suit(c) == best), key=self.order)
        suits = {self.suit(c) for c in self.hands[self.contractor]}
        mine = [c for c in cands if self.kind(c) == 0 and self.suit(c) in suits]
        return min(mine if mine else cands, key=self.low_key)

    def exposed_follow(self, legal, plays, w_seat, w, led_suit) -> int:
        if w_seat == self.contractor:
            safe = [c for c in legal if not self.beats(c, w, led_suit)]
            return self.shed(safe or legal)
        played = any(s == self.contractor for s, _ in plays)
        if not played and self.lowest_exposed(led_suit) is not None and any(self.suit(c) == led_suit for c in legal):
            return min(legal, key=self.low_key)
        return self.shed(legal)

    def choose_lead(self, seat: int, t: int) -> int:
        cands = self.legal_leads(seat, t)
        if self.misere:
            if seat == self.contractor:
                return min(cands, key=self.low_key)
            if self.exposed:
                return self.exposed_lead(cands)
            suits = {x for x in range(4) if not self.void[self.contractor][x]}
            mine = [c for c in cands if self.kind(c) == 0 and self.suit(c) in suits]
            return min(mine if mine else cands, key=self.low_key)
        unseen = self.unseen(seat)
        if self.trump >= 0 and self.contractor >= 0 and seat % 2 == self.contractor % 2:
            trumps = [c for c in cands if self.is_trump(c)]
            if trumps and any(self.is_trump(u) for u in unseen):
                return max(trumps, key=self.order)
        sure = [c for c in cands if self.sure_winner(unseen, c)]
        special = [c for c in sure if self.kind(c) > 0]
        if special:
            return max(special, key=self.order)
        if sure:
            return max(sure, key=lambda c: (self.order(c), -self.suit(c)))
        plain = [c for c in cands if self.kind(c) == 0]
        if plain:
            counts = [sum(1 for c in plain if self.suit(c) == x) for x in range(4)]
            longest = min((x for x in range(4) if counts[x]), key=lambda x: (-counts[x], x))
            return min((c for c in plain if self.suit(c) == longest), key=self.order)
        return self.cheapest(cands)  # trumps only: the lowest; suitless jokers only (reading R12)

    def choose_follow(self, seat: int, plays: list, led_suit: int) -> int:
        legal = self.legal_follows(seat, led_suit)
        w_seat, w = plays[0]
        for s, c in plays[1:]:
            if self.beats(c, w, led_suit):
                w_seat, w = s, c
        if self.misere:
            if seat == self.contractor:
                safe = [c for c in legal if not self.beats(c, w, led_suit)]  # (reading R13)
                if safe:
                    return max(safe, key=self.high_key)
                return min(legal, key=self.low_key)
            if self.exposed:
                return self.exposed_follow(legal, plays, w_seat, w, led_suit)
            if not any(s == self.contractor for s, _ in plays):
                return min(legal, key=self.low_key)
            if w_seat == self.contractor:
                safe = [c for c in legal if not self.beats(c, w, led_suit)]
                if safe:
                    return max(safe, key=self.high_key)
                return min(legal, key=self.low_key)
            other = [c for c in legal if not self.suitless(c)]
            return max(other if other else legal, key=self.high_key)
        if w_seat == (seat + 2) % PLAYERS:
            return self.cheapest(legal)
        beating = [c for c in legal if self.beats(c, w, led_suit)]
        if beating:
            return min(beating, key=self.low_key)
        return self.cheapest(legal)


# ----------------------------------------------------------------------------------------
# The kitty


def _discard(hand: _Hand, cards: list, n: int) -> list:
    """The contractor's ``n`` discards from its hand with the kitty (reading R5)."""
    if hand.misere:
        # jokers first (the black one first), then by no-trump order, ties to the higher suit
        return sorted(cards, key=lambda c: (-(c >= JOKER), -hand.order(c), -(c // N_FACES)))[:n]
    if hand.trump >= 0:
        plain = [c for c in cards if not hand.is_trump(c)]
        trumps = [c for c in cards if hand.is_trump(c)]
        count = [sum(1 for c in plain if hand.suit(c) == x) for x in range(4)]
        plain.sort(key=lambda c: (c % N_FACES == ACE, count[hand.suit(c)], hand.order(c), hand.suit(c)))
        trumps.sort(key=hand.order)
        return (plain + trumps)[:n]
    count = [sum(1 for c in cards if c < JOKER and c // N_FACES == x) for x in range(4)]
    ranked = sorted(
        cards,
        key=lambda c: (
            (1, 0, 0, c) if c >= JOKER else (0, c % N_FACES == ACE, count[c // N_FACES], _rank(c), c // N_FACES)
        ),
    )
    return ranked[:n]


# ----------------------------------------------------------------------------------------
# Scoring


def _points(rules: Rules, contract: int, contractor: int, tricks_won, side_tricks) -> tuple[list, int]:
    """The points of each side and made (1, 0, or -1 with no contractor)."""
    if contractor < 0:
        if int(rules.all_pass) == ALL_PASS_NO_TRUMPS:
            return [10 * side_tricks[0], 10 * side_tricks[1]], -1
        return [0, 0], -1
    side = contractor % 2
    points = [0, 0]
    if contract in (MISERE, OPEN_MISERE):
        taken = tricks_won[contractor]
        made = int(taken == 0)
        value = contract_value(contract)
        points[side] = value if made else -value
        code = int(rules.misere_opp_score)
        if code == MISERE_OPP_PER_CONTRACTOR_TRICK:
            points[1 - side] = 10 * taken
        elif code == MISERE_OPP_PER_TRICK_WON:
            points[1 - side] = 10 * side_tricks[1 - side]
        else:
            assert code == MISERE_OPP_NONE
        return points, made
    value = contract_value(contract)
    made = int(side_tricks[side] >= _tricks_of(contract))
    if made:
        points[side] = 250 if side_tricks[side] == TRICKS and value < 250 else value
    else:
        points[side] = -value
    points[1 - side] = 10 * side_tricks[1 - side]
    return points, made


def _capped(rules: Rules, contractor: int, points, scores) -> list:
    """The points the hand adds to each side's total (reading R14): under
    win_by_contract_only, points for tricks (every side but the contracting side) take a
    side no higher than opp_cap, or leave it where it is when it already stands above."""
    side = contractor % 2 if contractor >= 0 else -1
    added = list(points)
    if rules.win_by_contract_only:
        cap = int(rules.opp_cap)
        for s in range(2):
            if s != side:
                assert points[s] >= 0
                added[s] = min(scores[s] + points[s], max(scores[s], cap)) - scores[s]
    return added


def _totals(rules: Rules, contractor: int, made: int, points, scores, eldest: int) -> tuple[list, int, str]:
    """The totals after the hand (``points`` already capped), the winning side (-1) and how
    the game ended ("")."""
    side = contractor % 2 if contractor >= 0 else -1
    totals = [scores[s] + points[s] for s in range(2)]
    # (reading R15)
    if side >= 0 and made == 1 and totals[side] >= TARGET:
        return totals, side, "contract"
    for s in range(2):
        if totals[s] <= LOSS:
            return totals, 1 - s, "minus_500"
    if not rules.win_by_contract_only:
        reached = [s for s in range(2) if totals[s] >= TARGET]
        if len(reached) == 1:
            return totals, reached[0], "any_points"
        if len(reached) == 2:
            if side >= 0:
                return totals, side, "any_points"
            if totals[0] != totals[1]:
                return totals, 0 if totals[0] > totals[1] else 1, "any_points"
            return totals, eldest % 2, "any_points"
    return totals, -1, ""


# ----------------------------------------------------------------------------------------
# A whole hand


def _play(
    rules: Rules,
    rows,
    pack: Pack,
    dealer: int,
    scores,
    log,
    script=None,
    won=None,
    discard=None,
    stream=None,
    visits=None,
):
    """Play one hand from ``pack``: play_dealt's dict.  Advice (:func:`advise`) adds:
    ``script`` for the auction (see _auction; None back when the deal does not fit it),
    ``won`` = (contract, contractor) to skip the auction, ``discard`` the contractor's
    discards (instead of its policy's).  Mixed table cells draw from ``stream``, else
    from the pack's stream after the deal, else (a stacked pack) from ``Stream(0, 0)``;
    ``visits``: a solve's (_visit)."""

    def say(text):
        if log is not None:
            log.append(text)

    pack_list = pack_cards(int(rules.deck))
    eldest = (dealer + 1) % PLAYERS
    dealt, kitty = deal(rules, pack, dealer)
    say(f"deal: seat {dealer} deals, seat {eldest} is the eldest hand; scores {scores[0]}-{scores[1]}")
    for k in range(PLAYERS):
        seat = (eldest + k) % PLAYERS
        say(f"hand: seat {seat} is dealt {_names(sorted(dealt[seat]))}")
    say(f"kitty: {_names(sorted(kitty))}")

    if won is not None:
        calls, (contract, contractor) = [], won
    else:
        if stream is None:
            stream = pack.stream if pack.stream is not None else Stream(0, 0)
        auction = _auction(rules, rows, dealt, dealer, say, script, stream, visits)
        if auction is None:
            return None
        calls, contract, contractor = auction
    res = {
        "dealt": [sorted(h) for h in dealt],
        "kitty": sorted(kitty),
        "auction": calls,
        "contract": contract,
        "contractor": contractor,
        "discards": [],
        "nominated": {},
        "tricks": [],
        "tricks_won": [0] * PLAYERS,
        "side_tricks": [0, 0],
        "made": -1,
        "points": [0, 0],
        "scores": list(scores),
        "winner": -1,
        "ended": "",
    }
    if contractor < 0 and int(rules.all_pass) != ALL_PASS_NO_TRUMPS:
        say("all four pass: the hand is thrown in, nobody scores")
        say(f"totals: side 0 {scores[0]}, side 1 {scores[1]}")
        return res

    hand = _Hand(rules, rows, pack_list, dealer, contract, contractor)
    for s in range(PLAYERS):
        hand.hands[s] = set(dealt[s])
    if contractor < 0:
        say("all four pass: the hand is played at no trumps with no contractor; the kitty stays out")
    else:
        cside = contractor % 2
        what = {MISERE: "misere", OPEN_MISERE: "open misere"}.get(contract, contract_name(contract))
        say(
            f"contract: {what} by seat {contractor} (side {cside}), worth {contract_value(contract)}"
            + (f"; {SUIT_NAMES[hand.trump]} are trumps" if hand.trump >= 0 else "; no trumps")
        )
        # the kitty
        whole = sorted(dealt[contractor] + kitty)
        discards = sorted(_discard(hand, whole, len(kitty)) if discard is None else discard)
        hand.hands[contractor] = set(whole) - set(discards)
        hand.discards = set(discards)
        res["discards"] = discards
        say(f"kitty: seat {contractor} takes {_names(sorted(kitty))} and discards {_names(discards)}")
        # nomination (reading R6)
        if (
            0 <= contract < N_TRICK_BIDS
            and contract % 5 == NO_TRUMPS
            and int(rules.nt_joker) == NT_JOKER_MAY_NOMINATE
            and rows[contractor][NOMINATE] == 1
        ):
            held = hand.hands[contractor]
            counts = [sum(1 for c in held if c < JOKER and c // N_FACES == x) for x in range(4)]
            longest = max(range(4), key=lambda x: (counts[x], x))  # ties to the higher suit code
            for j in (JOKER, BLACK_JOKER):
                if j in held:
                    hand.nominated[j] = longest
                    say(f"nominate: seat {contractor} names {SUIT_NAMES[longest]} for {card_text(j)}")
        res["nominated"] = dict(hand.nominated)
        if hand.misere:
            hand.out_cards = set(hand.hands[hand.out])
            say(f"out: seat {hand.out}, the partner, lays its cards face down and takes no part")
    if hand.open and int(rules.om_expose) == EXPOSE_BEFORE_LEAD:
        hand.exposed = True
        say(f"exposed: seat {contractor} shows {_names(sorted(hand.hands[contractor]))}")

    # play
    if contractor >= 0 and int(rules.first_lead) == LEAD_CONTRACTOR:
        leader = contractor
    else:
        leader = eldest
        if leader == hand.out:  # (reading R11)
            leader = (leader + 1) % PLAYERS
    stop_early = (
        hand.misere and bool(rules.misere_stop_early) and int(rules.misere_opp_score) != MISERE_OPP_PER_TRICK_WON
    )
    won = [0] * PLAYERS
    for t in range(1, TRICKS + 1):
        seats = [(leader + k) % PLAYERS for k in range(PLAYERS) if (leader + k) % PLAYERS != hand.out]
        plays = []
        named = -1
        led_suit = NO_SUIT
        for seat in seats:
            if not plays:
                card = hand.choose_lead(seat, t)
                hand.hands[seat].remove(card)
                if hand.suitless(card):
                    named = hand.name_suit(seat)  # (reading R10 for the misere defence)
                    led_suit = named
                else:
                    led_suit = hand.suit(card)
                if hand.open and t == 1 and int(rules.om_expose) == EXPOSE_AFTER_FIRST_LEAD:
                    hand.exposed = True
            else:
                card = hand.choose_follow(seat, plays, led_suit)
                hand.hands[seat].remove(card)
                if hand.suit(card) != led_suit:
                    hand.void[seat][led_suit] = True  # (reading R8)
            hand.played.add(card)
            plays.append((seat, card))
        w_seat, w = plays[0]
        for s, c in plays[1:]:
            if hand.beats(c, w, led_suit):
                w_seat, w = s, c
        hand.rounds[led_suit] += 1
        won[w_seat] += 1
        res["tricks"].append((leader, plays, w_seat, named))
        say(
            f"trick {t}: "
            + ", ".join(f"seat {s} {card_text(c)}" for s, c in plays)
            + (f" (named {SUIT_NAMES[named]})" if named >= 0 else "")
            + f"; seat {w_seat} wins with {card_text(w)} (sides {won[0] + won[2]}-{won[1] + won[3]})"
        )
        if hand.open and t == 1 and int(rules.om_expose) == EXPOSE_AFTER_FIRST_TRICK:
            hand.exposed = True
        if hand.open and t == 1 and int(rules.om_expose) != EXPOSE_BEFORE_LEAD:
            since = " (face up since the first lead)" if int(rules.om_expose) == EXPOSE_AFTER_FIRST_LEAD else ""
            say(f"exposed: seat {contractor} shows {_names(sorted(hand.hands[contractor]))}{since}")
        leader = w_seat
        if stop_early and w_seat == contractor:
            say(f"the misere has failed: seat {contractor} took trick {t}; play stops")
            break
    side_tricks = [won[0] + won[2], won[1] + won[3]]
    raw, made = _points(rules, contract, contractor, won, side_tricks)
    points = _capped(rules, contractor, raw, scores)
    totals, winner, ended = _totals(rules, contractor, made, points, scores, eldest)
    res.update(
        tricks_won=won, side_tricks=side_tricks, made=made, points=points, scores=totals, winner=winner, ended=ended
    )
    if contractor >= 0:
        taken = side_tricks[contractor % 2]
        say(
            f"result: side {contractor % 2} took {taken} trick{'' if taken == 1 else 's'}: the contract is "
            + ("made" if made else "failed")
        )
    held = [f"side {s} {raw[s]} for tricks" for s in range(2) if points[s] != raw[s]]
    say(
        f"points: side 0 {points[0]:+d}, side 1 {points[1]:+d}"
        + (f" ({', '.join(held)}, held to opp_cap {int(rules.opp_cap)})" if held else "")
    )
    say(
        f"totals: side 0 {totals[0]}, side 1 {totals[1]}"
        + (f"; side {winner} wins the game ({ended})" if winner >= 0 else "")
    )
    return res


# ----------------------------------------------------------------------------------------
# Input


def _rows(rules: Rules, policy, n_seats=PLAYERS) -> list:
    """Check the table (seats, rule values, policy values); the policy as rows of ints."""
    if not isinstance(rules, Rules):
        raise ValueError("the rules must be a five_hundred Rules tuple.")
    try:
        matrix = np.asarray(policy, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("the policy must be a matrix of numbers with one row per seat.") from None
    if matrix.ndim != 2:
        raise ValueError(
            f"the policy must be a matrix with one row of {len(POLICY_FIELDS)} fields per seat, "
            f"not shape {matrix.shape}."
        )
    try:
        whole = not isinstance(n_seats, bool) and int(n_seats) == n_seats
    except (TypeError, ValueError):
        whole = False
    if not whole:
        raise ValueError(f"the number of seats must be a whole number, not {n_seats!r}.")
    n_seats = int(n_seats)
    SPEC.check(rules, matrix, n_seats)
    check_rule_values(rules)
    check_policy_values(POLICY_FIELDS, matrix, n_seats)
    # the policy fields as ints; a strategy table's block (sims.core.table) as it is
    return [
        [int(x) for x in row[: len(POLICY_FIELDS)]] + [float(x) for x in row[len(POLICY_FIELDS) :]] for row in matrix
    ]


def _pack(rules: Rules, cards) -> Pack:
    """A stacked pack: the listed cards, then the rest of the pack in code order (R16)."""
    codes = pack_cards(int(rules.deck))
    message = (
        f"the stacked cards must be distinct card codes of the {len(codes)}-card pack (see five_hundred.pack_cards)."
    )
    try:
        listed = list(cards)
        if any(isinstance(c, (bool, str)) or int(c) != c for c in listed):
            raise ValueError
        listed = [int(c) for c in listed]
    except (TypeError, ValueError):
        raise ValueError(message) from None
    members = set(codes)
    if len(set(listed)) != len(listed) or any(c not in members for c in listed):
        raise ValueError(message)
    chosen = set(listed)
    return Pack(listed + [c for c in codes if c not in chosen])


def _seat(value, what: str) -> int:
    try:
        ok = not isinstance(value, (bool, str)) and int(value) == value and 0 <= int(value) < PLAYERS
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"the {what} must be a seat 0..3, not {value!r}.")
    return int(value)


def _scores(scores) -> list:
    try:
        values = list(scores)
        ok = len(values) == 2 and all(
            not isinstance(v, (bool, str)) and int(v) == v and LOSS < int(v) < TARGET for v in values
        )
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"the scores must be two whole numbers between -499 and 499, not {scores!r}.")  # R16
    return [int(v) for v in values]


# ----------------------------------------------------------------------------------------
# Stacked deals


def play_dealt(rules: Rules, policy, cards, dealer=None, scores=(0, 0), log=None) -> dict:
    """One hand from a stacked pack: ``cards`` are the top of the pack in draw order (10 to
    the eldest hand, ..., 10 to the dealer, then the kitty), every other card of the pack
    follows in code order.  ``dealer`` defaults to 3; ``scores`` are the sides' totals
    before the hand; ``log`` (a list) receives a readable line per step.  Returns the dict
    the contract's "Stacked deals" section describes."""
    rows = _rows(rules, policy)
    dealer = 3 if dealer is None else _seat(dealer, "dealer")
    return _play(rules, rows, _pack(rules, cards), dealer, _scores(scores), log)


def _game(rules: Rules, rows, next_pack, n_listed, first_dealer: int, log, scores=(0, 0), played=0) -> dict:
    """A game from ``scores`` (0-0 unless given) with ``played`` hands already played
    (advice plays the rest of a game after the advised hand): ``next_pack()`` gives each
    hand's pack; ``n_listed`` the number of hands available (None: as many as needed);
    ``hands`` counts the hands played before."""
    scores = list(scores)
    results = []
    winner, ended = -1, ""
    max_hands = int(rules.max_hands)
    while True:
        if n_listed is not None and len(results) >= n_listed:
            if log is not None:
                log.append("no more deals")
            break
        dealer = (first_dealer + len(results)) % PLAYERS
        if log is not None:
            log.append(f"-- hand {len(results) + 1}: seat {dealer} deals")
        res = _play(rules, rows, next_pack(), dealer, scores, log)
        results.append(res)
        scores = res["scores"]
        if res["winner"] >= 0:
            winner, ended = res["winner"], res["ended"]
            break
        if played + len(results) >= max_hands:  # (reading R17)
            ended = "truncated"
            if log is not None:
                log.append(f"stopped: nobody has won after {max_hands} hands")
            break
    return {
        "results": results,
        "scores": list(scores),
        "winner": winner,
        "ended": ended,
        "hands": played + len(results),
    }


def play_game(rules: Rules, policy, deals, first_dealer=None, log=None) -> dict:
    """A game from stacked packs, one card list per hand (each as play_dealt's ``cards``);
    hand k is dealt by (first_dealer + k) mod 4 (first_dealer defaults to 3).  Returns the
    dict the contract's "Stacked deals" section describes."""
    rows = _rows(rules, policy)
    first_dealer = 3 if first_dealer is None else _seat(first_dealer, "first dealer")
    try:
        packs = [_pack(rules, cards) for cards in deals]
    except TypeError:
        raise ValueError("the deals must be a list of card lists.") from None
    queue = list(packs)
    return _game(rules, rows, lambda: queue.pop(0), len(packs), first_dealer, log)


# ----------------------------------------------------------------------------------------
# Hand mode


def _hand_result(rules: Rules, rows, seed: int, index: int, log=None) -> dict:
    return _play(rules, rows, Pack(pack_cards(int(rules.deck)), Stream(seed, index)), 3, [0, 0], log)


def hand_result(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None) -> dict:
    """play_dealt's dict for hand ``index`` of ``seed`` in hand mode (dealer 3, scores 0-0,
    ``Stream(seed, index)``)."""
    return _hand_result(rules, _rows(rules, policy, n_seats), seed, index, log)


def _rows_of_hand(res: dict):
    contract, contractor, made = res["contract"], res["contractor"], res["made"]
    points = res["points"]
    seat_rows = []
    for s in range(PLAYERS):
        score, tricks = points[s % 2], res["tricks_won"][s]
        me = int(contractor == s)
        seat_rows.append([me, int(me and made == 1), me, score, score * score, tricks, tricks * tricks])
    has = contractor >= 0
    decl = points[contractor % 2] if has else 0
    defe = points[1 - contractor % 2] if has else 0
    mis, om = int(contract == MISERE), int(contract == OPEN_MISERE)
    table = [
        int(contract == NO_CONTRACT),
        mis,
        int(mis and made == 1),
        mis,
        om,
        int(om and made == 1),
        om,
        int(JOKER in res["kitty"]),
        decl,
        decl * decl,
        int(has),
        defe,
        defe * defe,
        int(has),
    ]
    table += [int(contract == c) for c in range(N_CONTRACTS)]
    for c in range(N_CONTRACTS):
        table += [int(contract == c and made == 1), int(contract == c)]
    for c in range(N_CONTRACTS):
        v = decl if contract == c else 0
        table += [v, v * v, int(contract == c)]
    assert len(seat_rows[0]) == len(HAND_OUTCOMES.seat) and len(table) == len(HAND_OUTCOMES.table)
    return seat_rows, table


def _hand_rows(rules: Rules, rows, seed: int, index: int, log=None):
    return _rows_of_hand(_hand_result(rules, rows, seed, index, log))


def hand_rows(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Hand ``index`` of ``seed`` in hand mode: ``(seat_rows, table_row)`` in
    ``HAND_OUTCOMES`` column order."""
    return _hand_rows(rules, _rows(rules, policy, n_seats), seed, index, log)


play_hand = hand_rows


# ----------------------------------------------------------------------------------------
# Game mode


def _game_result(rules: Rules, rows, seed: int, index: int, log=None) -> dict:
    stream = Stream(seed, index)
    deck = int(rules.deck)
    return _game(rules, rows, lambda: Pack(pack_cards(deck), stream), None, 3, log)


def game_result(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None) -> dict:
    """play_game's dict for game ``index`` of ``seed`` (one ``Stream(seed, index)`` for all
    its hands, seat 3 deals first, 0-0)."""
    return _game_result(rules, _rows(rules, policy, n_seats), seed, index, log)


def _rows_of_game(game: dict):
    winner, scores, hands, ended = game["winner"], game["scores"], game["hands"], game["ended"]
    seat_rows = [[int(winner == s % 2), scores[s % 2], scores[s % 2] ** 2] for s in range(PLAYERS)]
    table = [
        hands,
        hands * hands,
        int(ended == "contract"),
        int(ended == "minus_500"),
        int(ended == "any_points"),
        int(ended == "truncated"),
    ]
    table += [int(lo <= hands <= hi) for lo, hi in LENGTH_BUCKETS]  # (reading R18)
    assert len(seat_rows[0]) == len(GAME_OUTCOMES.seat) and len(table) == len(GAME_OUTCOMES.table)
    return seat_rows, table


def _game_rows(rules: Rules, rows, seed: int, index: int, log=None):
    return _rows_of_game(_game_result(rules, rows, seed, index, log))


def game_rows(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Game ``index`` of ``seed``: ``(seat_rows, table_row)`` in ``GAME_OUTCOMES`` column order."""
    return _game_rows(rules, _rows(rules, policy, n_seats), seed, index, log)


# ----------------------------------------------------------------------------------------
# Batch and replay


def simulate(rules: Rules, policy, n_seats: int, mode: int, seed: int, first: int, count: int):
    """Sum hands (mode 0, sims.spec.Mode.HANDS) or games (mode 1, Mode.GAMES) ``first ..
    first+count-1`` of ``seed`` into the kernels' ``(n_seats + 1, width)`` int64 layout."""
    if mode == 0:
        outcomes, play = HAND_OUTCOMES, _hand_rows
    elif mode == 1:
        outcomes, play = GAME_OUTCOMES, _game_rows
    else:
        raise ValueError(f"mode must be 0 (hands) or 1 (games), not {mode}.")
    rows = _rows(rules, policy, n_seats)
    return sum_outcome_rows(
        lambda r, _p, _n, s, i: play(r, rows, s, i), outcomes, rules, rows, PLAYERS, seed, first, count
    )


def replay_lines(rules: Rules, policy, n_seats: int, seed: int, hand: int) -> list[str]:
    """The readable log of hand ``hand`` of ``seed`` in hand mode (the hand hand_rows plays)."""
    rows = _rows(rules, policy, n_seats)
    lines = [
        f"Five Hundred: seed {seed}, hand {hand}: seat 3 deals, scores 0-0, a {PACK_SIZE[int(rules.deck)]}-card pack"
    ]
    _hand_result(rules, rows, seed, hand, lines)
    return lines


# ----------------------------------------------------------------------------------------
# Advice (sims.games.five_hundred.advice: the known array and what is played)


def advise(rules, policy, n_seats: int, seed: int, first: int, count: int, known, n_candidates: int, n_outcomes: int):
    """The flat sums (sims.core.advice) of the advice ``known`` (advice module docstring)
    over deals ``first .. first+count-1`` of ``seed``: for deal i, ``Stream(seed, i)``
    deals the cards not fixed (sims.core.advice.deal_conditioned); each candidate plays
    the whole hand from that deal at the scores before it: for a bid, the auction with
    the given calls (under infer policy a deal on which another seat's policy calls
    otherwise is rejected; under seen they are made as given) and the candidate call,
    after which the seat passes (or, with later, calls by its policy); for a discard, the
    seat holding the contract, no auction, the candidate discard.  With the scores given
    the rest of the game is then played (_game) from a copy of the stream after the deal."""
    from sims.core.advice import ACCEPTED, FIRST_SUM, TRIED, advice_width, deal_conditioned, record_deal

    rules = Rules(*[int(v) for v in rules])
    rows = _rows(rules, policy, n_seats)
    known = [int(v) for v in known]
    decision, seat, dealer, contract, n_given, seen, later, game, score, opponent = known[:10]
    before = [score, opponent] if seat % 2 == 0 else [opponent, score]
    size = PACK_SIZE[int(rules.deck)]
    fixed = known[10 : 10 + size]
    given = known[10 + size : 10 + size + n_given]
    actions = known[10 + size + n_given : 10 + size + n_given + n_candidates]
    out = [0] * advice_width(n_candidates, n_outcomes)
    assert (TRIED, ACCEPTED, FIRST_SUM) == (0, 1, 2)
    for i in range(first, first + count):
        out[TRIED] += 1
        stream = Stream(seed, i)
        dealt = deal_conditioned(stream, pack_cards(int(rules.deck)), fixed)
        values = []
        for action in actions:
            if decision == 0:
                script = (seat, given, action, seen, later)
                res = _play(rules, rows, Pack(dealt), dealer, before, None, script=script, stream=_copy(stream))
            else:
                discard = [c for c in range(BLACK_JOKER + 1) if (action >> c) & 1]
                res = _play(rules, rows, Pack(dealt), dealer, before, None, won=(contract, seat), discard=discard)
            if res is None:
                break
            mine = res["contractor"] == seat
            made = int(mine and res["made"] == 1)
            own, other = res["points"][seat % 2], res["points"][1 - seat % 2]
            row = [own - other, own] + ([int(mine)] if decision == 0 else []) + [made, res["tricks_won"][seat]]
            if game:
                row.append(int(_rest_of_game(rules, rows, res, stream, dealer) == seat % 2))
            values.append(row)
        else:
            record_deal(out, values)
    return out


def _rest_of_game(rules: Rules, rows, res: dict, stream: Stream, dealer: int) -> int:
    """The winning side of the game after the hand ``res`` (-1: max_hands came first): the
    hand's winner, else the rest of the game played (_game) from the totals after it, the
    next dealer dealing, every hand drawn from a copy of ``stream``."""
    if res["winner"] >= 0 or int(rules.max_hands) <= 1:
        return res["winner"]
    copy = _copy(stream)
    deck = int(rules.deck)
    rest = _game(
        rules, rows, lambda: Pack(pack_cards(deck), copy), None, (dealer + 1) % PLAYERS, None, res["scores"], 1
    )
    return rest["winner"]


def _copy(stream: Stream) -> Stream:
    copy = Stream.__new__(Stream)
    copy.s = list(stream.s)
    return copy


# ----------------------------------------------------------------------------------------
# Solve (sims.core.table_nb's module docstring; sims.games.five_hundred.solve)


def solve(rules, policy, n_seats: int, seed: int, first: int, count: int, decision_index: int) -> list[int]:
    """The solve sums of the bid table over deals ``first .. first+count-1`` of ``seed``:
    hand ``i`` of hand mode is played under the profile, logging every visit to a cell;
    for each visit and each legal action other than the one taken, the hand is played
    again from its deal with that visit forced to the action; the seat's side's points of
    every action go to the sums of (seat, cell) (flat list, ``[seat, cell, stat]``)."""
    rules = Rules(*[int(v) for v in rules])
    rows = _rows(rules, policy, n_seats)
    decision = TABLES[decision_index]
    width = 1 + 2 * N_ACTIONS + N_ACTIONS * N_ACTIONS
    out = [0] * (n_seats * N_CELLS * width)
    deck = int(rules.deck)

    def hand(i: int, forced: int, action: int):
        visits = {"count": 0, "forced": forced, "action": action, "log": []}
        res = _play(rules, rows, Pack(pack_cards(deck), Stream(seed, i)), 3, [0, 0], None, visits=visits)
        return res, visits["log"]

    for i in range(first, first + count):
        base, log = hand(i, -1, 0)
        for v, (seat, cell, taken) in enumerate(log):
            legal = decision.legal[cell]
            values = []
            for a in range(N_ACTIONS):
                if not (legal >> a) & 1:
                    values.append(0)
                    continue
                res = base if a == taken else hand(i, v, a)[0]
                values.append(res["points"][seat % 2])
            record_visit(out, seat, cell, N_CELLS, values, legal)
    return out
