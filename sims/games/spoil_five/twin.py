"""Plain-Python slow twin of the Spoil Five kernel (:mod:`sims.games.spoil_five`).

Written from the rules contract alone (the docstring of ``sims/games/spoil_five/__init__.py``, the
definitions in its ``rules.py``) and ``shared/rules/spoil-five.md``, without reference to
the Numba kernel, so that agreement between the two is evidence that both follow the
contract.  The rank tables below are transcribed from the contract's text (the tests
check them against ``rules.ORDER``).

Stream draws, in order (:class:`sims.core.rng.Stream`)
  Hand ``i`` of seed ``s`` (hand mode) uses ``Stream(s, i)``; game ``i`` uses
  ``Stream(s, i)`` for all the deals of the game in sequence, every deal starting
  from a pack in code order 0..51.  The only draws are the pack's: the card taken at pack
  position ``t`` first swaps position ``t`` with ``t + stream.below(52 - t)`` and then
  takes position ``t`` (a lazy Fisher-Yates shuffle, so the cards of a deal are exactly
  ``sims.core.deck.deal_prefix(stream, 5n + 1)``).  A deal takes 5n + 1 cards: 5 to the
  eldest hand (the dealer's left), 5 to the next seat clockwise, ..., 5 to the dealer,
  then the turn-up.  Decisions and card play draw nothing.  With a stacked pack
  (:func:`play_dealt`, :func:`play_pool`) there are no swaps: the listed cards, then the
  others in code order.

Public functions
  * :func:`play_dealt` plays one deal from a new pool on a stacked pack;
  * :func:`play_pool` plays one pool (deal after deal until it is taken) on stacked packs;
  * :func:`hand_result` is play_dealt's result dict for hand ``i`` of a seed (hand mode);
  * :func:`play_hand` / :func:`play_game` play hand ``i`` / game ``i`` of a seed and return
    the outcome rows in ``HAND_OUTCOMES`` / ``GAME_OUTCOMES`` column order;
  * :func:`simulate` sums those rows over a range (``sims.core.twins.sum_outcome_rows``);
  * :func:`replay_lines` is the readable log of one hand of a seed in hand mode;
  * :func:`advise` plays advice's conditioned deals (sims.games.spoil_five.advice), every
    candidate from the start of the hand with the advised seat's decisions forced
    (:class:`Forced`), giving the advice kernel's flat sums.
  All take the policy as the [n, 4] matrix (rob, jinx_min, spoil, renege) and read its
  values as integers.

Readings taken where the contract had to be interpreted (also marked ``(reading Rk)``
in the code):

  R1 Knowledge is taken at the moment of each decision.  The turn-up is dead for a player
     when nobody has robbed *so far* or the player itself robbed.  So the players who
     play to trick 1 before a trump-ace holder H has had its first turn count the turn-up
     as dead (they cannot tell H from an ace in the stock, where it is dead); once H robs
     it is unseen to every other player.
  R2 An unrobbed trump ace (unrobbed_ace_low) has order 11 until H's first turn and order
     0 from then on.  The current order is used wherever the card is in view: legality
     (reneging: a demoted Ah, with hearts trumps, is above no led trump, so it is never
     renegeable), which card beats which, the trick's winner, cheapest and strongest, and
     H's own sure-winner test (its demoted ace is in its hand at order 0).  The one place a
     player judges cards it cannot see is the sure-winner test (leading, the jinx
     decision): there every player but H gives the ace of trumps, while it is unseen to
     it, its usual order (the contract: the others never learn of the demotion; they
     cannot tell H's ace from one in the stock).  Once played the ace is dead for everyone.
  R3 The robber's discard is the cheapest of its five dealt cards (the turn-up is not a
     candidate), chosen with the deal's trump orders (the ace of trumps at 11).  The
     turned ace in the dealer's case is likewise added after the discard.
  R4 Cheapest and strongest compare plain cards of different suits by their order
     numbers in their own suits (the contract's tables), ties to the lower suit.
  R5 "The suit led" in the following rules is the led card's effective suit: trumps
     when a trump (Ah included) was led.
  R6 Threats of p: the other players with 2 or more tricks that are not known to be
     forfeited, and the jinxer during a jinx (outside a jinx nobody holds more than 2
     tricks while play goes on, so "2 tricks" and "2 or more" agree).  A forfeited holder
     announces nothing, so it is known to be forfeited only from the moment it has played
     the ace of trumps (the ace is among the played cards); until then it is a threat to
     the others like any player with 2 tricks.  "A threat still to play in this trick" is
     a threat seated after p in the playing order of the current trick.
  R7 "It cannot take the pool itself" is exactly the contract's parenthesis: fewer than 2
     tricks won so far, or forfeited (a forfeited player always knows it is, whether or
     not it has played its ace: with spoil 1 it plays spoiling against a threat even with
     2 tricks).
  R8 With jinx on, a W that reaches 3 tricks at t = 3 has necessarily won tricks 1, 2
     and 3, so the jinx decision is taken exactly when t = 3.  Its sure winners are
     judged on W's knowledge after trick 3; jinx_min 0 always jinxes, 3 never.
  R9 The jinx bonus is ``ante`` (or twice it) per other player, the rule's ante (the
     contract's reading: the same for every player, the dealer's dealer_extra not part of
     it), whatever the pool has grown to; it is paid by each other player to the jinxer
     (a forfeited player never jinxes: its third trick spoils the hand).
  R10 play_pool: ``truncated`` is 1 when the pool is still not taken after ``max_deals``
     deals, even when the listed deals end there too; when the listed deals run out
     first, ``truncated`` is 0 and ``left`` is the pool.  The top-up is paid (and counted
     in ``paid``) just before the deal it feeds, so ``pools`` lists the pool after it;
     with dealer_extra_every_deal the next dealer's dealer_extra is paid at the same
     moment (after the top-up), so it too is in ``paid`` and in the next ``pools`` entry,
     and neither is paid when no deal follows.
     An empty list of deals is refused (ValueError): nothing would be played.
  R11 play_dealt / play_pool accept any number (0..52) of listed cards; a listed card
     must be an integer code (a float such as 3.0 is accepted, 3.5 is not).
  R12 Game mode: ``pool_size`` counts the pool taken, not the jinx bonus; ``truncated`` is
     1 when at least one pool of the game was stopped (not a count); ``spoils``
     counts every spoiled deal, jinx failures and forfeits included, stopped pools'
     deals included.
  R13 A trump-ace holder who does not rob is forfeited (obligatory-or-forfeit) and, with
     unrobbed_ace_low, loses its ace's rank: both apply when both rules are on.
  R14 Game mode: the contract's "the game ends with the first pool that ends on a whole
     number of rounds" is checked only when a pool ends (taken or stopped at max_deals):
     the game's deals are then a multiple of n.  A pool stopped at max_deals ends like a
     taken one (its chips are left on the table), so the next deal starts a new pool.
     ``pool_deals``'s count is the number of pools the game played, stopped ones included.
"""

from __future__ import annotations

import numpy as np

from sims.core.advice import TRIED, advice_width, deal_conditioned, record_deal
from sims.core.cards import card_name
from sims.core.deck import stacked_pack
from sims.core.rng import Stream
from sims.core.table_nb import NO_TABLE, record_visit, table_action
from sims.core.twins import Pack, sum_outcome_rows
from sims.games.spoil_five import SPEC, advice
from sims.games.spoil_five.rules import (
    BONUS_ANTE,
    BONUS_DOUBLE_ANTE,
    BONUS_NONE,
    FOLLOW_OR_TRUMP,
    FREE,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    JINX_MIN,
    LENGTH_LABELS,
    MUST_FOLLOW,
    POLICY_FIELDS,
    RENEGE,
    ROB,
    ROB_OBLIGATORY,
    SPOIL,
    TOPUP_ALL_BUT_DEALER,
    TOPUP_DEALER_ONLY,
    TOPUP_EVERYONE,
    Rules,
    length_bucket,
)
from sims.games.spoil_five.table import (
    ACTIVE,
    JINX_DECISION,
    JINX_OFFSET,
    N_JINX_CELLS,
    N_ROB_CELLS,
    ROB_DECISION,
    ROB_OFFSET,
    ROLE_DEALER,
    ROLE_ELDEST,
    ROLE_OTHER,
    jinx_cell,
    rob_cell,
)
from sims.spec import check_policy_values, check_rule_values

__all__ = [
    "play_dealt",
    "play_pool",
    "hand_result",
    "play_hand",
    "play_game",
    "simulate",
    "replay_lines",
    "rank_orders",
    "advise",
    "solve",
]

N_CARDS = 52
N_FACES = 13
HAND_SIZE = 5
TRICKS = 5
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE, FIVE, JACK = 0, 4, 10
ACE_OF_HEARTS = HEARTS * N_FACES + ACE
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
FACE_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


# ----------------------------------------------------------------------------------------
# Ranks, transcribed from the contract (low to high)

# The trumps from order 1 upward; "Ah" is the ace of hearts (a trump of every suit).
_TRUMP_RANKS = {
    HEARTS: "2 3 4 6 7 8 9 10 Q K A J 5",
    DIAMONDS: "2 3 4 6 7 8 9 10 Q K A Ah J 5",
    CLUBS: "10 9 8 7 6 4 3 2 Q K A Ah J 5",
    SPADES: "10 9 8 7 6 4 3 2 Q K A Ah J 5",
}
# A plain suit from order 0 upward (hearts without its ace, which is always a trump).
_PLAIN_RANKS = {
    HEARTS: "2 3 4 5 6 7 8 9 10 J Q K",
    DIAMONDS: "A 2 3 4 5 6 7 8 9 10 J Q K",
    CLUBS: "10 9 8 7 6 5 4 3 2 A J Q K",
    SPADES: "10 9 8 7 6 5 4 3 2 A J Q K",
}


def rank_orders(trump: int) -> dict[int, int]:
    """Every card's order with ``trump`` as trumps: within the trumps for a trump (Ah
    included, from 1 up), within its own suit for a plain card (from 0 up)."""
    orders = {}
    for k, name in enumerate(_TRUMP_RANKS[trump].split()):
        code = ACE_OF_HEARTS if name == "Ah" else trump * N_FACES + FACE_NAMES.index(name)
        orders[code] = k + 1
    for suit in range(4):
        if suit == trump:
            continue
        for k, name in enumerate(_PLAIN_RANKS[suit].split()):
            orders[suit * N_FACES + FACE_NAMES.index(name)] = k
    assert len(orders) == N_CARDS
    return orders


def _names(cards) -> str:
    return " ".join(card_name(c) for c in cards) if cards else "-"


# ----------------------------------------------------------------------------------------
# One deal: the state the players' choices read


class _Deal:
    """The state of one deal in play: trumps, hands, what has been played, robbing,
    forfeit, the demoted ace, tricks won, the jinx."""

    def __init__(self, rules: Rules, rows, n: int, trump: int, turnup: int):
        self.rules = rules
        self.rows = rows
        self.n = n
        self.trump = trump
        self.turnup = turnup
        self.orders = rank_orders(trump)
        self.trump_ace = trump * N_FACES + ACE
        self.privileged = {trump * N_FACES + FIVE, trump * N_FACES + JACK, ACE_OF_HEARTS}
        self.hands = [set() for _ in range(n)]
        self.played = set()
        self.robbed_by = -1
        self.discard = -1
        self.forfeited = -1
        self.demoted = -1  # the ace of trumps once it is the lowest trump (unrobbed_ace_low)
        self.ace_holder = -1  # the seat dealt the ace of trumps (-1: turned up or in the stock)
        self.tricks_won = [0] * n
        self.jinxer = -1

    # -- cards

    def is_trump(self, card: int) -> bool:
        return card == ACE_OF_HEARTS or card // N_FACES == self.trump

    def suit(self, card: int) -> int:
        """The effective suit: trumps for every trump, else the printed suit."""
        return self.trump if self.is_trump(card) else card // N_FACES

    def order(self, card: int) -> int:
        """The current order (reading R2: the demoted ace is 0 from its holder's first turn);
        a player's view of an unseen card is :meth:`believed_order`."""
        return 0 if card == self.demoted else self.orders[card]

    def cheapest(self, cards) -> int:
        """The plain card of lowest order (ties to the lower suit); with no plain card,
        the trump of lowest order (reading R4)."""
        plain = [c for c in cards if not self.is_trump(c)]
        if plain:
            return min(plain, key=lambda c: (self.order(c), c // N_FACES))
        return min(cards, key=self.order)

    def strongest(self, cards) -> int:
        """The trump of highest order; with no trump, the plain card of highest order
        (ties to the lower suit)."""
        trumps = [c for c in cards if self.is_trump(c)]
        if trumps:
            return max(trumps, key=self.order)
        return min(cards, key=lambda c: (-self.order(c), c // N_FACES))

    def beats(self, card: int, winning: int, led_suit: int) -> bool:
        """Does ``card`` beat ``winning``, the card now winning a trick led in ``led_suit``?"""
        if self.is_trump(card):
            return not self.is_trump(winning) or self.order(card) > self.order(winning)
        if self.is_trump(winning):
            return False
        return self.suit(card) == led_suit and self.order(card) > self.order(winning)

    # -- what a player knows

    def dead(self, seat: int) -> set:
        """The cards played, the seat's own discard, and the turn-up when it is out of play
        for the seat: nobody has robbed so far, or the seat robbed (reading R1)."""
        dead = set(self.played)
        if self.robbed_by == seat:
            dead.add(self.discard)
        if self.robbed_by in (-1, seat):
            dead.add(self.turnup)
        return dead

    def unseen(self, seat: int) -> set:
        return set(range(N_CARDS)) - self.hands[seat] - self.dead(seat)

    def believed_order(self, seat: int, card: int) -> int:
        """The order ``seat`` gives a card it cannot see (reading R2): an unseen demoted ace
        keeps its usual order for every player but its holder (the others never learn of
        the demotion); every other card has its current order."""
        if card == self.demoted and seat != self.ace_holder:
            return self.orders[card]
        return self.order(card)

    def sure_winner(self, seat: int, card: int) -> bool:
        unseen = self.unseen(seat)
        if self.is_trump(card):
            mine = self.order(card)  # its own card: the holder knows its demoted ace is 0
            return not any(self.is_trump(u) and self.believed_order(seat, u) > mine for u in unseen)
        if any(self.is_trump(u) for u in unseen):
            return False
        return not any(self.suit(u) == self.suit(card) and self.order(u) > self.order(card) for u in unseen)

    # -- the law of play

    def legal(self, seat: int, led) -> tuple[list, bool]:
        """The seat's legal cards to the card ``led`` (None when leading), sorted, and
        whether this is a trump lead whose Must is empty."""
        hand = sorted(self.hands[seat])
        if led is None:
            return hand, False
        trumps = [c for c in hand if self.is_trump(c)]
        led_suit = self.suit(led)
        if led_suit == self.trump:
            t = self.order(led)
            renegeable = [c for c in trumps if c in self.privileged and self.order(c) > t]
            must = [c for c in trumps if c not in renegeable]
            if must:
                return trumps, False
            return hand, True
        plain_lead = int(self.rules.plain_lead)
        follow = [c for c in hand if self.suit(c) == led_suit]
        if plain_lead == FOLLOW_OR_TRUMP:
            return (follow + trumps if follow else hand), False
        if plain_lead == FREE:
            return hand, False
        if plain_lead == MUST_FOLLOW:
            return (follow if follow else hand), False
        raise ValueError(f"unknown plain_lead code {plain_lead}")

    def candidates(self, seat: int, led) -> list:
        """The legal cards, except to a trump lead whose Must is empty: with renege 1 and a
        plain card in hand only the plain cards, with renege 0 and a trump only the trumps."""
        legal, must_empty = self.legal(seat, led)
        if must_empty:
            hand = sorted(self.hands[seat])
            plain = [c for c in hand if not self.is_trump(c)]
            trumps = [c for c in hand if self.is_trump(c)]
            if self.rows[seat][RENEGE] == 1 and plain:
                return plain
            if self.rows[seat][RENEGE] == 0 and trumps:
                return trumps
        return legal

    # -- the players' choices

    def known_forfeited(self, q: int) -> bool:
        """Is ``q`` known to the other players to be forfeited?  Only once it has played
        the ace of trumps (a holder who does not rob announces nothing; reading R6)."""
        return q == self.forfeited and self.trump_ace in self.played

    def threats(self, seat: int) -> list:
        """The other players who can still take the pool as far as ``seat`` knows
        (reading R6): 2 tricks and not known to be forfeited, or the jinxer."""
        out = []
        for q in range(self.n):
            if q == seat:
                continue
            if (self.tricks_won[q] >= 2 and not self.known_forfeited(q)) or q == self.jinxer:
                out.append(q)
        return out

    def choose(self, seat: int, plays: list) -> tuple[int, str]:
        """The card ``seat`` plays to the trick ``plays`` so far ((seat, card) pairs), and
        how it chose ("greedy" or "spoiling")."""
        threats = self.threats(seat)
        cannot_take = self.tricks_won[seat] < 2 or seat == self.forfeited  # (reading R7)
        spoiling = self.rows[seat][SPOIL] == 1 and bool(threats) and cannot_take
        style = "spoiling" if spoiling else "greedy"

        if not plays:  # leading: any card
            cands = sorted(self.hands[seat])
            if spoiling:
                return self.strongest(cands), style
            sure = [c for c in cands if self.sure_winner(seat, c)]
            sure_trumps = [c for c in sure if self.is_trump(c)]
            if sure_trumps:
                return max(sure_trumps, key=self.order), style
            sure_plain = [c for c in sure if not self.is_trump(c)]
            if sure_plain:
                return min(sure_plain, key=lambda c: (-self.order(c), c // N_FACES)), style
            return self.cheapest(cands), style

        led = plays[0][1]
        led_suit = self.suit(led)  # (reading R5)
        q, winning = plays[0]
        for s, c in plays[1:]:
            if self.beats(c, winning, led_suit):
                q, winning = s, c
        cands = self.candidates(seat, led)
        beating = [c for c in cands if self.beats(c, winning, led_suit)]

        def lowest_winning():
            if led_suit != self.trump:
                same = [c for c in beating if self.suit(c) == led_suit]
                if same:
                    return min(same, key=self.order)
            return min([c for c in beating if self.is_trump(c)], key=self.order)

        if not spoiling:
            return (lowest_winning() if beating else self.cheapest(cands)), style
        if q in threats:
            return (lowest_winning() if beating else self.cheapest(cands)), style
        to_play = [(seat + k) % self.n for k in range(1, self.n - len(plays))]
        if beating and any(s in threats for s in to_play):
            trumps = [c for c in beating if self.is_trump(c)]
            if trumps:
                return max(trumps, key=self.order), style
            return max([c for c in beating if self.suit(c) == led_suit], key=self.order), style
        return self.cheapest(cands), style


class Forced:
    """Advice: the decisions of ``seat`` that _play takes as given rather than from the
    policy: its rob (True / False, None: policy), its discard when it robs (None: the
    cheapest), its card in trick t (``plays[t]``, trick 1 being t = 1), its jinx (True:
    jinx, False: claim, None: policy); and under infer=seen the other seats' actions the
    advised seat saw."""

    def __init__(
        self, seat: int, rob=None, discard=None, plays=None, jinx=None, others=None, robs=None, others_jinx=False
    ):
        self.seat, self.rob, self.discard, self.plays, self.jinx = seat, rob, discard, plays or {}, jinx
        # infer=seen: the other seats' cards as given, by (trick, playing position) (a card
        # not legal with the seat's hand rejects the deal: _play returns None); the robs seen
        # (seat -> True / False); others_jinx: another seat that wins tricks 1-3 jinxes.
        self.others, self.robs, self.others_jinx = others or {}, robs or {}, others_jinx


class Solving:
    """A solve's hook (:func:`solve`): the decision solved (ROB_DECISION or JINX_DECISION),
    the action forced at its visit (-1: none), and the visit seen: (seat, cell, action the
    profile took), or None."""

    def __init__(self, decision: int, force: int = -1):
        self.decision, self.force, self.visit = decision, force, None


def _decide(rows, seat: int, decision: int, cell: int, by_policy: bool, draws: Stream, solving) -> bool:
    """A rob (decision 0) or jinx (1) of ``seat`` in ``cell``: its table's action when its
    row carries a table for the decision and the cell is not left out (a mixed cell draws
    one uniform from ``draws``), else ``by_policy``; while the decision is solved the visit
    is noted and the forced action taken.  True: rob / jinx."""
    offset = ROB_OFFSET if decision == ROB_DECISION else JINX_OFFSET
    action = table_action(rows[seat], offset, 2, cell, draws)
    if action == NO_TABLE:
        action = ACTIVE if by_policy else 1 - ACTIVE
    if solving is not None and solving.decision == decision:
        solving.visit = (seat, cell, action)
        if solving.force >= 0:
            action = solving.force
    return action == ACTIVE


def _jinx_cell(deal: "_Deal", seat: int, left: list, sure: list) -> int:
    """The jinx cell of ``seat``'s two cards ``left`` (package docstring, Strategy tables)."""
    if len(sure) >= 2:
        return jinx_cell(2, 0)
    others = [c for c in left if c not in sure]
    if not all(deal.is_trump(c) for c in others):
        return jinx_cell(len(sure), 3)  # a plain card that is not sure
    weakest = min(others, key=deal.order)
    above = sum(1 for u in deal.unseen(seat) if deal.is_trump(u) and deal.believed_order(seat, u) > deal.order(weakest))
    return jinx_cell(len(sure), min(above, 3) - 1)


def _play(rules: Rules, rows, n: int, dealer: int, pack: Pack, log, forced=None, draws=None, solving=None) -> dict:
    """Play one deal from ``pack`` dealt by ``dealer``: play_dealt's result without the
    chips (pool, net, carried).  ``forced`` (advice, :class:`Forced`) overrides some of one
    seat's decisions.  A table's mixed cell draws from ``draws`` (default: the pack's
    stream, for a stacked pack a new Stream(0, 0)); ``solving`` (:class:`Solving`) is a
    solve's hook."""
    forced = forced or Forced(-1)
    if draws is None:
        draws = pack.stream if pack.stream is not None else Stream(0, 0)

    def robs(seat: int) -> bool:
        if seat in forced.robs:
            return forced.robs[seat]
        if seat == forced.seat and forced.rob is not None:
            return forced.rob
        hand = dealt[seat]
        trumps = sum(1 for c in hand if deal.is_trump(c))
        if turnup % N_FACES == ACE:
            cell = rob_cell(True, trumps)
        else:
            role = ROLE_ELDEST if seat == eldest else (ROLE_DEALER if seat == dealer else ROLE_OTHER)
            cell = rob_cell(False, trumps, turnup, role)
        return _decide(rows, seat, ROB_DECISION, cell, rows[seat][ROB] == 1, draws, solving)

    def discard_of(seat: int) -> int:
        if seat == forced.seat and forced.discard is not None:
            return forced.discard
        return deal.cheapest(dealt[seat])  # (reading R3)

    def say(text):
        if log is not None:
            log.append(text)

    eldest = (dealer + 1) % n
    # 1. the deal: five to each seat from the eldest hand round to the dealer, the turn-up
    dealt = [[] for _ in range(n)]
    for k in range(n):
        seat = (eldest + k) % n
        for _ in range(HAND_SIZE):
            dealt[seat].append(pack.draw())
    turnup = pack.draw()
    trump = turnup // N_FACES
    deal = _Deal(rules, rows, n, trump, turnup)
    for s in range(n):
        deal.hands[s] = set(dealt[s])
    say(f"deal: seat {dealer} deals, seat {eldest} is eldest")
    for k in range(n):
        seat = (eldest + k) % n
        by_suit = sorted(dealt[seat], key=lambda c: (deal.suit(c), deal.order(c)))
        say(f"hand: seat {seat} is dealt {_names(by_suit)}")
    say(f"turn-up: {card_name(turnup)}: {SUIT_NAMES[trump]} are trumps")

    # 2. robbing
    rob_pending = -1  # a trump-ace holder yet to decide at its first turn in trick 1
    if turnup % N_FACES == ACE:
        if robs(dealer):
            discard = discard_of(dealer)
            deal.hands[dealer].discard(discard)
            deal.hands[dealer].add(turnup)
            deal.robbed_by, deal.discard = dealer, discard
            say(
                f"rob: seat {dealer} (the dealer) discards {card_name(discard)} and takes the turned ace "
                f"{card_name(turnup)}"
            )
        else:
            say(f"rob: seat {dealer} (the dealer) leaves the turned ace {card_name(turnup)}: it is out of play")
    else:
        for s in range(n):
            if deal.trump_ace in dealt[s]:
                rob_pending = s
                deal.ace_holder = s
        if rob_pending < 0:
            say(f"rob: the ace of trumps {card_name(deal.trump_ace)} is in the stock: nobody robs")

    def first_turn(seat: int) -> None:
        """The trump-ace holder's rob, forfeit or demotion, at its first turn."""
        if robs(seat):
            discard = discard_of(seat)
            deal.hands[seat].discard(discard)
            deal.hands[seat].add(turnup)
            deal.robbed_by, deal.discard = seat, discard
            say(
                f"rob: seat {seat} holds {card_name(deal.trump_ace)}: it discards {card_name(discard)} and takes "
                f"the turn-up {card_name(turnup)}"
            )
            return
        say(f"rob: seat {seat} holds {card_name(deal.trump_ace)} and does not rob; the turn-up is out of play")
        if int(rules.rob) == ROB_OBLIGATORY:  # (reading R13)
            deal.forfeited = seat
            say(f"forfeit: seat {seat} did not rob: it plays on but cannot take the pool")
        if rules.unrobbed_ace_low:
            deal.demoted = deal.trump_ace
            say(f"ace low: {card_name(deal.trump_ace)} is now the lowest trump")

    # 3-4. trick play and the stops
    res = {
        "dealt": [sorted(h) for h in dealt],
        "turnup": turnup,
        "trump": trump,
        "robbed_by": -1,
        "discard": -1,
        "forfeited": -1,
        "held": None,
        "tricks": [],
        "tricks_won": None,
        "winner": -1,
        "spoiled": 0,
        "spoiler": -1,
        "jinx_by": -1,
        "jinx_made": 0,
        "claimed": 0,
    }
    leader = eldest
    t = 0
    first_three = True  # one seat won every trick so far
    while True:
        t += 1
        plays = []
        styles = []
        for k in range(n):
            seat = (leader + k) % n
            if t == 1 and seat == rob_pending:
                first_turn(seat)
            if (t, k) in forced.others:  # infer=seen: the card the advised seat saw
                card, style = forced.others[t, k], "forced"
                if card not in deal.legal(seat, plays[0][1] if plays else None)[0]:
                    return None  # not legal from the hand dealt: the deal does not fit what was seen
            else:
                card, style = deal.choose(seat, plays)
            if seat == forced.seat and t in forced.plays:
                card, style = forced.plays[t], "forced"
            deal.hands[seat].remove(card)
            deal.played.add(card)  # dead for everyone from now on
            plays.append((seat, card))
            styles.append(" (spoiling)" if style == "spoiling" else "")
        led_suit = deal.suit(plays[0][1])
        winner, winning = plays[0]
        for s, c in plays[1:]:
            if deal.beats(c, winning, led_suit):
                winner, winning = s, c
        deal.tricks_won[winner] += 1
        res["tricks"].append((leader, plays, winner))
        if t > 1 and winner != res["tricks"][0][2]:
            first_three = False
        say(
            f"trick {t}: "
            + ", ".join(f"seat {s} {card_name(c)}{why}" for (s, c), why in zip(plays, styles))
            + f"; seat {winner} wins with {card_name(winning)} (tricks "
            + "-".join(map(str, deal.tricks_won))
            + ")"
        )
        w = winner
        if deal.jinxer >= 0:  # a. during a jinx
            if w != deal.jinxer:
                res["spoiled"], res["spoiler"] = 1, w
                say(f"jinx fails: seat {w} takes trick {t} from seat {deal.jinxer}: the hand is spoiled")
                break
            if t == TRICKS:
                res["winner"], res["jinx_made"] = w, 1
                say(f"jinx made: seat {w} wins all five tricks")
                break
        elif deal.tricks_won[w] == 3:  # b.
            if w == deal.forfeited:
                res["spoiled"], res["spoiler"] = 1, w
                say(f"spoil: seat {w} wins a third trick but is forfeited: the hand is spoiled")
                break
            if rules.jinx and t == 3 and first_three:  # (reading R8)
                left = sorted(deal.hands[w])
                sure = [c for c in left if deal.sure_winner(w, c)]
                need = rows[w][JINX_MIN]
                jinxes = len(sure) >= need
                if w == forced.seat and forced.jinx is not None:
                    jinxes = forced.jinx
                elif w != forced.seat and forced.others_jinx:
                    jinxes = True
                else:  # its policy, or its jinx table
                    jinxes = _decide(rows, w, JINX_DECISION, _jinx_cell(deal, w, left, sure), jinxes, draws, solving)
                if jinxes:
                    deal.jinxer = w
                    res["jinx_by"] = w
                    say(
                        f"jinx: seat {w} won the first three tricks; {len(sure)} of its {_names(left)} sure "
                        f"(jinx_min {need}): it jinxes and leads trick 4"
                    )
                    leader = w
                    continue
                res["winner"], res["claimed"] = w, 1
                say(
                    f"claim: seat {w} won the first three tricks; {len(sure)} of its {_names(left)} sure "
                    f"(jinx_min {need}): it claims the pool"
                )
                break
            res["winner"] = w
            say(f"win: seat {w} has three tricks")
            break
        elif all(deal.tricks_won[s] + TRICKS - t < 3 for s in range(n) if s != deal.forfeited):  # c.
            res["spoiled"], res["spoiler"] = 1, w
            say(f"spoil: nobody can reach three tricks: the hand is spoiled (seat {w} won the last trick)")
            break
        leader = w  # d.

    res["robbed_by"] = deal.robbed_by
    res["discard"] = deal.discard
    res["forfeited"] = deal.forfeited
    held = [sorted(h) for h in dealt]  # once robbing is done
    if deal.robbed_by >= 0:
        held[deal.robbed_by] = sorted(set(dealt[deal.robbed_by]) - {deal.discard} | {turnup})
    res["held"] = held
    res["tricks_won"] = list(deal.tricks_won)
    return res


# ----------------------------------------------------------------------------------------
# Input


def _rows(rules: Rules, policy, n_seats=None) -> tuple[list, int]:
    """Check the table (seats, rule values, policy values); the policy as rows of ints and
    the number of seats (the policy's rows when ``n_seats`` is None)."""
    if not isinstance(rules, Rules):
        raise ValueError("the rules must be a spoil_five Rules tuple.")
    try:
        matrix = np.asarray(policy, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("the policy must be a matrix of numbers with one row per seat.") from None
    if matrix.ndim != 2:
        raise ValueError(
            f"the policy must be a matrix with one row of {len(POLICY_FIELDS)} fields per seat, "
            f"not shape {matrix.shape}."
        )
    if n_seats is None:
        n_seats = matrix.shape[0]
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
    fields = len(POLICY_FIELDS)  # the fields as ints; table blocks (sims.core.table) as they are
    return [[int(x) for x in row[:fields]] + [float(x) for x in row[fields:]] for row in matrix], n_seats


def _pack(cards) -> Pack:
    """A stacked pack (reading R11)."""
    try:
        listed = list(cards)
        if any(isinstance(c, bool) or int(c) != c for c in listed):
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError("the stacked cards must be distinct card codes 0..51.") from None
    return Pack(stacked_pack(listed))


def _seat(value, n: int, what: str) -> int:
    try:
        ok = not isinstance(value, bool) and int(value) == value and 0 <= int(value) < n
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"the {what} must be a seat 0..{n - 1}, not {value!r}.")
    return int(value)


def _bonus(rules: Rules) -> int:
    code = int(rules.jinx_bonus)
    if code == BONUS_ANTE:
        return int(rules.ante)
    if code == BONUS_NONE:
        return 0
    if code == BONUS_DOUBLE_ANTE:
        return 2 * int(rules.ante)
    raise ValueError(f"unknown jinx_bonus code {code}")


# ----------------------------------------------------------------------------------------
# Chips


def _new_pool_deal(rules: Rules, rows, n: int, dealer: int, pack: Pack, log, solving=None) -> dict:
    """One deal from a new pool: play_dealt's full result (with pool, net, carried);
    ``solving``: a solve's hook (:class:`Solving`)."""
    ante, extra = int(rules.ante), int(rules.dealer_extra)
    pool = n * ante + extra
    if log is not None:
        log.append(
            f"pool: every seat antes {ante}" + (f", the dealer adds {extra}" if extra else "") + f": {pool} chips"
        )
    res = _play(rules, rows, n, dealer, pack, log, solving=solving)
    net = [-ante] * n
    net[dealer] -= extra
    carried = 0
    w = res["winner"]
    if w >= 0:
        net[w] += pool
        if res["jinx_made"]:
            bonus = _bonus(rules)  # (reading R9)
            for s in range(n):
                if s != w:
                    net[s] -= bonus
                    net[w] += bonus
    else:
        carried = pool
    res["pool"] = pool
    res["net"] = net
    res["carried"] = carried
    if log is not None:
        if w >= 0:
            log.append(
                f"result: seat {w} takes the pool of {pool}"
                + (f" and a jinx bonus of {_bonus(rules)} from each other seat" if res["jinx_made"] else "")
            )
        else:
            log.append(f"result: spoiled by seat {res['spoiler']}; the pool of {pool} is carried forward")
        log.append("chips: " + ", ".join(f"seat {s} {net[s]:+d}" for s in range(n)) + f", carried {carried}")
    return res


def _pool(rules: Rules, rows, n: int, first_dealer: int, next_pack, n_listed, log) -> dict:
    """One pool from its start.  ``next_pack()`` gives the pack of the next deal;
    ``n_listed`` is the number of deals available (None: as many as needed).  Returns
    play_pool's dict."""

    def say(text):
        if log is not None:
            log.append(text)

    ante, extra, amount = int(rules.ante), int(rules.dealer_extra), int(rules.topup_amount)
    max_deals = int(rules.max_deals)
    paid = [ante] * n
    paid[first_dealer] += extra
    received = [0] * n
    pool = n * ante + extra
    say(f"pool: every seat antes {ante}" + (f", seat {first_dealer} adds {extra}" if extra else "") + f": {pool} chips")
    results, pools = [], []
    taken_by, truncated = -1, 0
    stacked_draws = Stream(0, 0)  # stacked packs: a table's mixed cells draw from one stream for the pool
    dealer = first_dealer
    while True:
        pools.append(pool)
        say(f"-- deal {len(results) + 1}: seat {dealer} deals, the pool holds {pool}")
        pack = next_pack()
        res = _play(rules, rows, n, dealer, pack, log, draws=stacked_draws if pack.stream is None else pack.stream)
        results.append(res)
        w = res["winner"]
        if w >= 0:
            taken_by = w
            received[w] += pool
            say(f"result: seat {w} takes the pool of {pool}")
            if res["jinx_made"]:
                bonus = _bonus(rules)  # (reading R9)
                for s in range(n):
                    if s != w:
                        paid[s] += bonus
                        received[w] += bonus
                say(f"jinx bonus: each other seat pays seat {w} {bonus}")
            pool = 0
            break
        say(f"result: spoiled by seat {res['spoiler']}; the pool of {pool} stays")
        if len(results) >= max_deals:  # (reading R10)
            truncated = 1
            say(f"stopped: the pool is still not taken after {max_deals} deals; {pool} chips are left")
            break
        if n_listed is not None and len(results) >= n_listed:
            say(f"no more deals: {pool} chips are left in the pool")
            break
        topup = int(rules.spoil_topup)
        nxt = (dealer + 1) % n
        if topup == TOPUP_ALL_BUT_DEALER:
            payers = [s for s in range(n) if s != dealer]
        elif topup == TOPUP_DEALER_ONLY:
            payers = [nxt]
        elif topup == TOPUP_EVERYONE:
            payers = list(range(n))
        else:
            raise ValueError(f"unknown spoil_topup code {topup}")
        for s in payers:
            paid[s] += amount
            pool += amount
        say(
            f"top-up: seat{'s' if len(payers) > 1 else ''} {', '.join(map(str, payers))} add {amount} each: "
            f"the pool holds {pool}"
        )
        if rules.dealer_extra_every_deal and extra:  # the next dealer's deal stake, with the top-up
            paid[nxt] += extra
            pool += extra
            say(f"deal stake: seat {nxt}, the next dealer, adds {extra}: the pool holds {pool}")
        dealer = nxt
    net = [received[s] - paid[s] for s in range(n)]
    say("chips: " + ", ".join(f"seat {s} {net[s]:+d}" for s in range(n)) + (f", left {pool}" if pool else ""))
    return {
        "results": results,
        "pools": pools,
        "paid": paid,
        "received": received,
        "net": net,
        "taken_by": taken_by,
        "left": pool if taken_by < 0 else 0,
        "truncated": truncated,
    }


# ----------------------------------------------------------------------------------------
# Stacked deals


def play_dealt(rules: Rules, policy, cards, dealer=None, log=None) -> dict:
    """One deal from a new pool on a stacked pack: ``cards`` are the top of the pack in
    draw order (5 to the eldest hand, ..., 5 to the dealer, the turn-up), every other card
    follows in code order.  ``policy`` is the [n, 4] matrix; ``dealer`` defaults to n - 1;
    ``log`` (a list) receives a readable line per step.  Returns the dict the contract's
    "Stacked deals" section describes."""
    rows, n = _rows(rules, policy)
    dealer = n - 1 if dealer is None else _seat(dealer, n, "dealer")
    return _new_pool_deal(rules, rows, n, dealer, _pack(cards), log)


def play_pool(rules: Rules, policy, deals, first_dealer=None, log=None) -> dict:
    """One pool from its start on stacked packs, one card list per deal (each as
    play_dealt's ``cards``); deal k is dealt by seat (first_dealer + k) mod n.  Returns the
    dict the contract's "Stacked deals" section describes."""
    rows, n = _rows(rules, policy)
    first_dealer = n - 1 if first_dealer is None else _seat(first_dealer, n, "first dealer")
    try:
        packs = [_pack(cards) for cards in deals]
    except TypeError:
        raise ValueError("the deals must be a list of card lists.") from None
    if not packs:
        raise ValueError("play_pool needs at least one deal.")  # (reading R10)
    queue = list(packs)
    return _pool(rules, rows, n, first_dealer, lambda: queue.pop(0), len(packs), log)


# ----------------------------------------------------------------------------------------
# Hand mode


def hand_result(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None) -> dict:
    """play_dealt's result for hand ``index`` of ``seed`` in hand mode (dealer n - 1, a new
    pool, ``Stream(seed, index)``)."""
    rows, n = _rows(rules, policy, n_seats)
    return _new_pool_deal(rules, rows, n, n - 1, Pack(range(N_CARDS), Stream(seed, index)), log)


def _hand_rows(rules: Rules, rows, n: int, seed: int, index: int, log=None):
    res = _new_pool_deal(rules, rows, n, n - 1, Pack(range(N_CARDS), Stream(seed, index)), log)
    seat_rows = []
    for s in range(n):
        tricks, net = res["tricks_won"][s], res["net"][s]
        seat_rows.append(
            [
                int(res["winner"] == s),
                int(res["spoiler"] == s),
                int(res["jinx_by"] == s),
                int(res["jinx_by"] == s and res["jinx_made"] == 1),
                int(res["robbed_by"] == s),
                tricks,
                tricks * tricks,
                net,
                net * net,
            ]
        )
    trump_ace = res["trump"] * N_FACES + ACE
    dealt_ace = int(any(trump_ace in hand for hand in res["dealt"]))
    carried = res["carried"]
    table_row = [
        res["spoiled"],
        int(res["jinx_by"] >= 0),
        int(res["robbed_by"] >= 0),
        int(res["turnup"] % N_FACES == ACE),
        dealt_ace,
        int(res["forfeited"] >= 0),
        carried,
        carried * carried,
    ]
    assert len(seat_rows[0]) == len(HAND_OUTCOMES.seat) and len(table_row) == len(HAND_OUTCOMES.table)
    return seat_rows, table_row


def play_hand(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Hand ``index`` of ``seed`` in hand mode: ``(seat_rows, table_row)`` in
    ``HAND_OUTCOMES`` column order."""
    rows, n = _rows(rules, policy, n_seats)
    return _hand_rows(rules, rows, n, seed, index, log)


# ----------------------------------------------------------------------------------------
# Game mode


def _game_rows(rules: Rules, rows, n: int, seed: int, index: int, log=None):
    """(reading R14) Whole rounds of the deal: seat n - 1 deals the game's first deal and
    the deal passes one seat left after every deal, within a pool and from one pool to
    the next; the game ends when a pool ends (taken or stopped) and the deals played so
    far are a whole number of rounds (a multiple of n), that is when the next deal would
    again be seat n - 1's from a new pool."""
    stream = Stream(seed, index)
    net = [0] * n
    pools_won = [0] * n
    deals = spoils = truncated = left = 0
    taken_chips = taken = pools = 0
    dealer = n - 1
    while True:
        pools += 1
        if log is not None:
            log.append(f"== pool {pools} (deal {deals + 1} of the game): seat {dealer} deals first")
        pool = _pool(rules, rows, n, dealer, lambda: Pack(range(N_CARDS), stream), None, log)
        played = len(pool["results"])
        deals += played
        spoils += sum(res["spoiled"] for res in pool["results"])
        for s in range(n):
            net[s] += pool["net"][s]
        if pool["taken_by"] >= 0:
            pools_won[pool["taken_by"]] += 1
            taken += 1
            taken_chips += pool["pools"][-1]  # (reading R12)
        if pool["truncated"]:
            truncated = 1
        left += pool["left"]
        dealer = (dealer + played) % n  # the seat left of the pool's last dealer
        if deals % n == 0:
            break
    seat_rows = [
        [
            pools_won[s],
            pools_won[s] ** 2,
            net[s],
            net[s] ** 2,
            net[s],
            net[s] ** 2,
            deals,
            deals * deals,
            net[s] * deals,
        ]
        for s in range(n)
    ]
    table_row = [
        deals,
        deals * deals,
        deals,
        deals * deals,
        pools,
        pools * pools,
        deals * pools,
        taken_chips,
        taken_chips**2,
        taken,
        taken * taken,
        taken_chips * taken,
        spoils,
        spoils * spoils,
        truncated,
        left,
        left * left,
    ] + [1 if i == length_bucket(deals // n) else 0 for i in range(len(LENGTH_LABELS))]
    assert len(seat_rows[0]) == len(GAME_OUTCOMES.seat) and len(table_row) == len(GAME_OUTCOMES.table)
    if log is not None:
        log.append(
            f"game: {deals} deals ({deals // n} rounds), {pools} pools, {spoils} spoiled, pools won "
            + "-".join(map(str, pools_won))
            + "; chips "
            + ", ".join(f"seat {s} {net[s]:+d}" for s in range(n))
            + f", left {left}"
        )
    return seat_rows, table_row


def play_game(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Game ``index`` of ``seed`` on ``Stream(seed, index)``: whole rounds of the deal,
    seat n - 1 dealing first and the deal passing one seat left after every deal, until
    a pool ends on a whole number of rounds (reading R14).  ``(seat_rows, table_row)`` in
    ``GAME_OUTCOMES`` column order; ``log`` (a list) receives each pool's and deal's
    lines."""
    rows, n = _rows(rules, policy, n_seats)
    return _game_rows(rules, rows, n, seed, index, log)


# ----------------------------------------------------------------------------------------
# Batch and replay


def simulate(rules: Rules, policy, n_seats: int, mode: int, seed: int, first: int, count: int):
    """Sum hands (mode 0) or games (mode 1) ``first .. first+count-1`` of ``seed`` into the
    kernels' ``(n_seats + 1, width)`` int64 layout."""
    if mode == 0:
        outcomes, play = HAND_OUTCOMES, _hand_rows
    elif mode == 1:
        outcomes, play = GAME_OUTCOMES, _game_rows
    else:
        raise ValueError(f"mode must be 0 (hands) or 1 (games), not {mode}.")
    rows, n = _rows(rules, policy, n_seats)
    return sum_outcome_rows(lambda r, _p, k, s, i: play(r, rows, k, s, i), outcomes, rules, rows, n, seed, first, count)


def replay_lines(rules: Rules, policy, n_seats: int, seed: int, hand: int) -> list[str]:
    """The readable log of hand ``hand`` of ``seed`` in hand mode (the hand play_hand plays)."""
    rows, n = _rows(rules, policy, n_seats)
    lines = [f"Spoil Five: seed {seed}, hand {hand}: {n} players, seat {n - 1} deals, a new pool"]
    _hand_rows(rules, rows, n, seed, hand, lines)
    return lines


# ----------------------------------------------------------------------------------------
# Advice (sims.games.spoil_five.advice: the decisions, the context and ``known``)


def _advice_forced(k: list[int], n: int, seat: int, candidate: int) -> Forced:
    """The advised seat's forced decisions for one candidate."""
    if k[advice.K_DECISION] == advice.ROB:
        if candidate == 0:
            return _seen(k, n, Forced(seat, rob=False))
        return _seen(k, n, Forced(seat, rob=True, discard=k[advice.K_CHOICES + candidate - 1]))
    plays = {t + 1: k[advice.K_FORCED + t] for t in range(advice.HISTORY) if k[advice.K_FORCED + t] >= 0}
    discard = k[advice.K_OWN_DISCARD]
    if k[advice.K_DECISION] == advice.JINX:
        jinx = candidate == 1
    else:  # the card play: the candidate's card in its trick; a jinx already called stays called
        plays[k[advice.K_STOP] + 1] = k[advice.K_CHOICES + candidate]
        jinx = True if k[advice.K_OWN_JINX] == 1 else None
    forced = Forced(
        seat, rob=k[advice.K_OWN_ROB] == 1, discard=discard if discard >= 0 else None, plays=plays, jinx=jinx
    )
    return _seen(k, n, forced)


def _seen(k: list[int], n: int, forced: Forced) -> Forced:
    """infer=seen: the other seats' actions the advised seat saw, forced as given: the
    cards of the tricks, the robs of the seats it has seen at their turn (those up to
    K_SEEN_UPTO, the dealer of a turned ace), the jinx of a seat that won tricks 1-3
    when the history goes on after trick 3."""
    if k[advice.K_SEEN] != 1:
        return forced
    forced.others = {
        (t + 1, i): k[advice.K_EXPECT + advice.MAX_PLAYERS * t + i]
        for t in range(advice.HISTORY)
        for i in range(advice.MAX_PLAYERS)
        if k[advice.K_EXPECT + advice.MAX_PLAYERS * t + i] >= 0
    }
    turnup = k[advice.K_FIXED + HAND_SIZE * n]
    seen = set(range(min(k[advice.K_SEEN_UPTO], n - 1) + 1))
    if turnup % N_FACES == ACE:
        seen.add(n - 1)
    forced.robs = {s: s == k[advice.K_ROBBED] for s in seen if s != forced.seat}
    forced.others_jinx = k[advice.K_DECISION] == advice.PLAY and k[advice.K_STOP] >= 3
    return forced


def _advice_seen(k: list[int], n: int, res: dict) -> bool:
    """Does the hand played show what the context says the advised seat saw: the rob (after
    the rob decision) and every card the context names?"""
    robbed = res["robbed_by"]
    if robbed >= 0 and res["turnup"] % N_FACES != ACE and robbed > k[advice.K_SEEN_UPTO]:
        robbed = -1  # it robs after the advised seat's turn in trick 1: not seen yet
    if k[advice.K_DECISION] != advice.ROB and robbed != k[advice.K_ROBBED]:
        return False
    for t in range(advice.HISTORY):
        wanted = k[advice.K_EXPECT + advice.MAX_PLAYERS * t : advice.K_EXPECT + advice.MAX_PLAYERS * t + n]
        if all(card < 0 for card in wanted):
            continue
        if t >= len(res["tricks"]):
            return False
        plays = res["tricks"][t][1]
        if any(card >= 0 and plays[i][1] != card for i, card in enumerate(wanted)):
            return False
    return True


def _stream_copy(stream: Stream) -> Stream:
    copy = Stream.__new__(Stream)
    copy.s = list(stream.s)
    return copy


def _rest_of_pool(rules: Rules, rows, n: int, pool: int, stream: Stream, seat: int) -> tuple[int, int]:
    """After the advised hand (dealt by seat n-1) was spoiled: the pool carried on as
    _pool plays it, from the top-up after that hand, each deal from a pack in code order
    drawn on ``stream``, until it is taken or max_deals deals (the advised one the first)
    stop it.  Returns (1 if ``seat`` takes it, the chips ``seat`` received minus paid)."""
    extra, amount, max_deals = int(rules.dealer_extra), int(rules.topup_amount), int(rules.max_deals)
    paid, received = [0] * n, [0] * n
    dealer, deals, taken_by = n - 1, 1, -1
    while deals < max_deals:
        topup = int(rules.spoil_topup)
        nxt = (dealer + 1) % n
        if topup == TOPUP_ALL_BUT_DEALER:
            payers = [s for s in range(n) if s != dealer]
        elif topup == TOPUP_DEALER_ONLY:
            payers = [nxt]
        else:
            payers = list(range(n))
        for s in payers:
            paid[s] += amount
            pool += amount
        if rules.dealer_extra_every_deal:
            paid[nxt] += extra
            pool += extra
        dealer = nxt
        res = _play(rules, rows, n, dealer, Pack(range(N_CARDS), stream), None)
        deals += 1
        w = res["winner"]
        if w >= 0:
            taken_by = w
            received[w] += pool
            if res["jinx_made"]:
                for s in range(n):
                    if s != w:
                        paid[s] += _bonus(rules)
                        received[w] += _bonus(rules)
            break
    return int(taken_by == seat), received[seat] - paid[seat]


def advise(rules, policy, n, seed, first, count, known, n_candidates, n_outcomes) -> list[int]:
    """The flat sums (sims.core.advice) of deals ``first .. first + count - 1`` of ``seed``
    for the situation ``known``: deal i is ``deal_conditioned`` on ``Stream(seed, i)``
    (the known cards fixed), each candidate plays the whole hand from it with the advised
    seat's decisions forced (the rob decision: its rob and discard; the jinx decision:
    its earlier rob, discard and cards, its jinx if it called one, then claim or jinx, or
    the candidate card), and under infer=seen the other seats' actions seen forced too;
    the deal is kept when every candidate's hand shows what the context says was seen
    (infer=seen: when no card shown breaks the law with the hands dealt).  With the pool
    outcomes, a spoiled hand's pool is played on (_rest_of_pool) from a copy of the
    stream after the deal."""
    table = Rules(*[int(v) for v in rules])
    n = int(n)
    rows, _ = _rows(table, policy, n)
    k = [int(v) for v in known]
    seat = k[advice.K_SEAT]
    fixed = k[advice.K_FIXED : advice.K_FIXED + HAND_SIZE * n + 1]
    bonus = _bonus(table)
    out = [0] * advice_width(n_candidates, n_outcomes)
    for i in range(first, first + count):
        out[TRIED] += 1
        stream = Stream(seed, i)
        dealt = deal_conditioned(stream, range(N_CARDS), fixed)
        values = []
        for candidate in range(n_candidates):
            forced = _advice_forced(k, n, seat, candidate)
            draws = _stream_copy(stream)  # a field seat's mixed table cell: the same draws for every candidate
            res = _play(table, rows, n, n - 1, Pack(stacked_pack(dealt)), None, forced, draws)
            if res is None or not _advice_seen(k, n, res):
                break
            won = res["winner"] == seat
            paid = bonus if res["jinx_made"] else 0
            net = -k[advice.K_STAKE] + (k[advice.K_POOL] + (n - 1) * paid if won else -paid)
            row = [net, int(won), res["tricks_won"][seat]]
            if n_outcomes > advice.POOL_WIN:
                if res["winner"] >= 0:
                    row += [int(won), net]
                else:
                    pool_won, chips = _rest_of_pool(table, rows, n, k[advice.K_POOL], _stream_copy(stream), seat)
                    row += [pool_won, net + chips]
            values.append(row[:n_outcomes])
        else:
            record_deal(out, values)
    return out


# ----------------------------------------------------------------------------------------
# Solve (sims.core.table_nb's docstring; the package docstring's "Strategy tables")


def solve(rules, policy, n_seats: int, seed: int, first: int, count: int, decision: int) -> list[int]:
    """The solve sums ``[seat, cell, stat]`` (flat) of hands ``first .. first + count - 1``
    of ``seed`` for the table decision ``decision`` (0 rob, 1 jinx): each hand is played by
    the profile; when a seat visits a cell of the decision (at most once a hand), the hand
    is played again from its start with that visit's other action, and the seat's net of
    both actions is recorded (sims.core.table_nb.record_visit)."""
    table = rules if isinstance(rules, Rules) else Rules(*[int(v) for v in rules])
    rows, n = _rows(table, policy, n_seats)
    n_cells = N_ROB_CELLS if decision == ROB_DECISION else N_JINX_CELLS
    out = [0] * (n * n_cells * (1 + 2 * 2 + 2 * 2))
    for i in range(first, first + count):
        base = Solving(decision)
        res = _new_pool_deal(table, rows, n, n - 1, Pack(range(N_CARDS), Stream(seed, i)), None, base)
        if base.visit is None:
            continue
        seat, cell, taken = base.visit
        values = [0, 0]
        values[taken] = res["net"][seat]
        again = _new_pool_deal(
            table, rows, n, n - 1, Pack(range(N_CARDS), Stream(seed, i)), None, Solving(decision, 1 - taken)
        )
        values[1 - taken] = again["net"][seat]
        record_visit(out, seat, cell, n_cells, values, 3)
    return out
