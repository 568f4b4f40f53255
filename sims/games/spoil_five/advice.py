"""Spoil Five's advice (``analyze advise spoil-five``): one seat's next decision, every
legal candidate played on the same deals of the unseen cards (sims.core.advice).

Seats are numbered as in hand mode: the dealer is seat n-1, seat 0 the eldest hand, who
leads trick 1.  The hand is played from a new pool unless the context gives ``pool``.

Decisions (which one follows from the context: the seat's next decision)
  rob    Rob the turn-up or not, and which card to throw away.  The advised seat holds the
         ace of trumps (the turn-up not being an ace) and is at its first turn in trick
         1, or it is the dealer and the turn-up is an ace (before the first lead).
         Holding: the 5 cards dealt to it.  Candidates: "no rob", then "rob:discard X"
         for each of its 5 cards X (the ace of trumps included: the rules let any card
         go).  After the decision everyone, the advised seat included, plays by policy.
  jinx   Claim the pool or jinx (go for all five), after the advised seat won tricks 1,
         2 and 3 (the jinx rule on).  Holding: its 2 cards left.  Candidates: "claim",
         "jinx".  Refused when the seat is forfeited (it held the ace of trumps and did not
         rob under obligatory robbing: its third trick spoils the hand).
  play   Which card to play, at the advised seat's turn in any trick: the tricks before
         complete, the current one holding the cards played before it (none when it
         leads).  Holding: its cards left.  Candidates: "play X" for each legal card X
         (the law of plain_lead; every legal card, not only the policy's candidates),
         by suit and rank.  A seat that won tricks 1-3 and played on had jinxed: the
         advised seat's own jinx is forced so, another seat's must be its policy's.
         In trick 1 the trump-ace holder's next decision is its rob, unless ``robbed``
         says what it did.

Context keys (values as on the command line)
  turnup   the turned-up card, e.g. "9d" (required: it names trumps).
  trick1   the cards played to trick 1, in playing order from seat 0 (the eldest hand):
           for the rob decision the cards of the seats before the advised one (exactly
           ``position`` of them; may be left out: then the advice averages over whatever
           they played); else all n cards, or the cards before the advised seat when it
           is to play to trick 1.
  trick2 .. trick5  the cards of each later trick in playing order from its leader (the
           winner of the trick before): n cards, or for the trick being played the cards
           before the advised seat.  Three complete tricks won by the advised seat and
           nothing more ask for the claim/jinx decision.
  robbed   who robbed the turn-up, public once done: a seat 0..n-1, or "none" (default:
           nobody, as far as the advised seat has seen).  Jinx and card play.  A robber
           other than the advised seat holds the turn-up (and so held the ace of trumps,
           or is the dealer of a turned ace).
  discard  the card the advised seat threw away when it robbed (required when
           ``robbed`` is the advised seat: only it knows that card).
  pool     the chips in the pool (public): a whole number, at least a new pool's
           n * ante + dealer_extra.  Left out: a new pool.

How the deals are conditioned
  The deal is the hand kernel's (5 cards to each seat from seat 0 round to the dealer,
  then the turn-up), the cards known to the advised seat fixed and the rest dealt
  uniformly from the remaining pack (sims.core.advice.deal_conditioned_nb): the advised
  seat's dealt cards (its holding and the cards it played, with its discard in place of
  the turn-up when it robbed), the turn-up, and every card another
  seat is seen to play, fixed in that seat's hand (the turn-up excepted, which a robber
  took from the table; a robber other than a turned ace's dealer also gets the ace of
  trumps fixed in its hand when it was not seen played).  The deal is then played forward
  from the start of the hand: every seat but the advised one robs and plays by its policy,
  the advised seat's own earlier actions are the ones the context gives (its rob or not,
  its discard, its cards, its jinx), and the deal is kept only when the others' rob (as
  far as the advised seat has seen) and every card they played match the context
  exactly (rejection), the hand reaching the decision.  Cards fixed in a hand are
  exact conditioning: a seat that played a card held it.
  For the rob decision, the plays of trick 1 before the advised seat do not depend on its
  decision (it is made at its first turn, and nobody before it can see the turn-up
  go), so each candidate plays the whole hand and its trick 1 is compared.  For the
  other decisions the table is kept at the decision (the workspace, the hands and the
  trick loop's state) and each candidate plays on from a copy: claim or jinx, or its
  card in the trick (the cards before it in that trick, compared too, do not depend on
  it); nothing draws from the stream after the deal.

Outcomes (the advised seat's, per candidate)
  net     chips won in this hand (the headline; what ``analyze spoil-five`` shows as net):
          the pool (and any jinx bonus) if it takes the pool, minus any jinx bonus it
          pays, minus its ante (and dealer_extra as dealer) when the pool is a new one; a
          given ``pool`` is already in the middle, so nothing is paid into it.  A spoiled
          pool's future is not counted (as in hand mode).
  win     1 if it takes the pool.
  tricks  tricks it won (tricks played stop when the hand stops).

Where the rules are silent (choices made here)
  A rob's discard may be any of the seat's 5 dealt cards, never the turn-up taken.
  An earlier rob's discard by another seat is unknown to the advised seat: the policy's
  (the robber's cheapest card) is played forward.
  Not answered: the advised seat's lead to trick 4 after its own jinx (three tricks won
  and nothing after them read as the claim/jinx decision).
  Acceptance: every card another seat is seen to play must be the one its policy plays,
  so a long history at a large table accepts few deals (a jinx after three tricks at 6
  to 10 players: about 1 in 1,000; the rob decision late in trick 1 at 6 players: about 1
  in 100), and a history the policies never play accepts none.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.advice import (
    TRIED,
    Decision,
    Situation,
    advice_width,
    context_cards,
    context_int,
    deal_conditioned_nb,
    record_deal_nb,
    unknown_context,
)
from sims.core.cards import card_name, format_cards
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.tricks import RANKED_SUIT
from sims.games.spoil_five.kernel import (
    BIT_OF,
    END_NONE,
    END_TAKEN,
    END_THREE,
    I_ACE_TURNED,
    I_DISCARD,
    I_FORFEITED,
    I_JINX_MADE,
    I_ROBBED_BY,
    I_WINNER,
    M_DEAD,
    calls_jinx_nb,
    deal_nb,
    deal_rule_codes_nb,
    hand_end_nb,
    info_nb,
    jinx_bonus_nb,
    log_entry_nb,
    new_table_nb,
    play_trick_nb,
    private_nb,
    rob_nb,
    seat_flags_nb,
    set_deal_end_nb,
    set_info_nb,
    set_private_nb,
    tricks_nb,
)
from sims.games.spoil_five.rules import (
    ACE_OF_HEARTS,
    BIT_CODE,
    FOLLOW_OR_TRUMP,
    FREE,
    HAND_SIZE,
    MAX_PLAYERS,
    ORDER,
    ROB_OBLIGATORY,
    SUIT_OF,
    TRICKS,
    Rules,
)

# ------------------------------------------------------------------------ the decisions

_TURNUP = "the turned-up card, e.g. 9d (it names trumps)"
_POOL = "chips in the pool (public); left out: a new pool"
_ROBBED = "the seat that robbed the turn-up, or none (default)"
_DISCARD = "the card this seat threw away when it robbed"
_LATER = "the cards of trick {k} from its leader: all n, or those played before this seat"
DECISIONS = (
    Decision(
        "rob",
        "rob the turn-up or not, and the card thrown away (the trump-ace holder at its first turn, or the dealer "
        "of a turned ace)",
        {
            "turnup": _TURNUP,
            "trick1": "the cards the seats before this one played to trick 1, from seat 0 (may be left out)",
            "pool": _POOL,
        },
        'analyze advise spoil-five --players 5 --position 2 --holding "Ad 5c Kc 7h 3s" --context turnup=9d '
        '--context "trick1=10c 9c"',
    ),
    Decision(
        "jinx",
        "claim the pool or jinx (play on for all five) after winning tricks 1, 2 and 3",
        {
            "turnup": _TURNUP,
            "trick1": "the n cards of trick 1, in playing order from seat 0",
            "trick2": "the n cards of trick 2, in playing order from its leader (this seat)",
            "trick3": "the n cards of trick 3, in playing order from its leader (this seat)",
            "robbed": _ROBBED,
            "discard": _DISCARD,
            "pool": _POOL,
        },
        'analyze advise spoil-five --players 3 --position 0 --holding "Qh Qs" --context turnup=9h '
        '--context "trick1=5h 2h 10c" --context "trick2=Jh 3h 10s" --context "trick3=Kh 4h 9s"',
    ),
    Decision(
        "play",
        "which card to play at the seat's turn in a trick",
        {
            "turnup": _TURNUP,
            **{f"trick{k}": _LATER.format(k=k) for k in range(1, TRICKS + 1)},
            "robbed": _ROBBED,
            "discard": _DISCARD,
            "pool": _POOL,
        },
        'analyze advise spoil-five --players 4 --position 1 --holding "Kc 7c Qd 3h 8s" --context turnup=9d '
        "--context trick1=10c",
    ),
)
ROB, JINX, PLAY = range(3)  # the decision codes in ``known``
OUTCOMES = ("net", "win", "tricks")
TRICK_KEYS = ("trick1", "trick2", "trick3", "trick4", "trick5")

# ``known`` (int64): the decision, the advised seat, the rob the others must show (the
# robber or -1; seen only when the robber robbed before the advised seat's turn in trick 1
# or is a turned ace's dealer: a robber seat <= K_SEEN_UPTO), the advised seat's own
# earlier rob (1 robbed, 0 not) and its discard (or -1), the pool, the advised seat's stake
# in it, 1 when the advised seat jinxed in the history, the trick of a card-play decision,
# the candidates' cards (the rob's discards, the card play's cards), the deal's fixed cards
# (5n + 1 entries: -1 dealt at random), the cards the others must be seen to play (trick t,
# playing position i at K_EXPECT + MAX_PLAYERS * t + i; -1 unchecked), the advised seat's
# card in trick t (-1: none forced).
K_DECISION, K_SEAT, K_ROBBED, K_SEEN_UPTO, K_OWN_ROB, K_OWN_DISCARD, K_POOL, K_STAKE, K_OWN_JINX, K_STOP = range(10)
K_CHOICES = 10
K_FIXED = K_CHOICES + HAND_SIZE
K_EXPECT = K_FIXED + HAND_SIZE * MAX_PLAYERS + 1
HISTORY = TRICKS  # tricks a context can give
K_FORCED = K_EXPECT + HISTORY * MAX_PLAYERS
K_SIZE = K_FORCED + HISTORY


# ------------------------------------------------------------------------ the situation


def _trick_cards(context, key: str, count: int | None, taken: set) -> list[int] | None:
    if key not in context:
        return None
    cards = context_cards(key, context[key], count)
    for card in cards:
        if card in taken:
            raise ValueError(f"context {key}: {card_name(card)} is already held, turned up or played.")
        taken.add(card)
    return cards


def _robbed(text: str, n: int) -> int:
    if str(text).strip().lower() == "none":
        return -1
    return context_int("robbed", text, 0, n - 1)


class _Table:
    """The cards' orders and the law of play at a table (the validation's view)."""

    def __init__(self, rules: Rules, trump: int, demoted: bool):
        self.trump = trump
        self.law = int(rules.plain_lead)
        self.demoted = 13 * trump if demoted else -1
        self.privileged = {13 * trump + 4, 13 * trump + 10, ACE_OF_HEARTS}

    def is_trump(self, card):
        return SUIT_OF[self.trump, card] == self.trump

    def order(self, card):
        return 0 if card == self.demoted else int(ORDER[self.trump, card])

    def legal(self, hand, led):
        """The legal cards of ``hand`` to the card ``led`` (None when leading)."""
        if led is None:
            return set(hand)
        trumps = {c for c in hand if self.is_trump(c)}
        if self.is_trump(led):
            must = {c for c in trumps if c not in self.privileged or self.order(c) <= self.order(led)}
            return trumps if must else set(hand)
        follow = {c for c in hand if SUIT_OF[self.trump, c] == SUIT_OF[self.trump, led]}
        if self.law == FOLLOW_OR_TRUMP:
            return follow | trumps if follow else set(hand)
        return follow if follow and self.law != FREE else set(hand)

    def winner(self, plays):
        """The (seat, card) pair that wins a trick of (seat, card) pairs."""
        trumps = [p for p in plays if self.is_trump(p[1])]
        if trumps:
            return max(trumps, key=lambda p: self.order(p[1]))
        led = SUIT_OF[self.trump, plays[0][1]]
        return max((p for p in plays if SUIT_OF[self.trump, p[1]] == led), key=lambda p: self.order(p[1]))


def situation(rules: Rules, n_seats: int, position: int, holding, context, infer: str = "policy") -> Situation:
    """The advised seat's next decision (module docstring); ``ValueError`` with one
    sentence for anything impossible or malformed."""
    unknown_context(DECISIONS, context)
    n, seat = int(n_seats), int(position)
    for card in holding:
        if not 0 <= card < 52:
            raise ValueError(f"{card} is not a card of the 52-card pack.")
    if "turnup" not in context:
        raise ValueError("context turnup is required: the turned-up card names trumps.")
    turnup = context_cards("turnup", context["turnup"], 1)[0]
    ante, extra = int(rules.ante), int(rules.dealer_extra)
    pool, stake = n * ante + extra, ante + (extra if seat == n - 1 else 0)
    if "pool" in context:
        pool, stake = context_int("pool", context["pool"], n * ante + extra, 10**6), 0
    known = np.full(K_SIZE, -1, dtype=np.int64)
    known[K_SEAT], known[K_POOL], known[K_STAKE], known[K_FIXED + HAND_SIZE * n] = seat, pool, stake, turnup
    known[K_SEEN_UPTO] = n
    described = {"turnup": card_name(turnup), "pool": pool}
    can_rob = seat == n - 1 if turnup % 13 == 0 else 13 * (turnup // 13) in holding
    first = len(str(context.get("trick1", "")).replace(",", " ").split())
    if can_rob and first < n and not any(key in context for key in TRICK_KEYS[1:] + ("robbed", "discard")):
        candidates = _rob(n, seat, list(holding), turnup, context, known, described)
        return Situation("rob", candidates, OUTCOMES, known, described=described)
    decision, candidates = _history(rules, n, seat, list(holding), turnup, context, known, described)
    return Situation(decision, candidates, OUTCOMES, known, described=described)


def _rob(n, seat, holding, turnup, context, known, described) -> tuple[str, ...]:
    if len(holding) != HAND_SIZE:
        raise ValueError(f"the rob decision takes the 5 cards dealt to the seat, not {len(holding)}.")
    if turnup in holding:
        raise ValueError(f"the turn-up {card_name(turnup)} cannot be in the holding before the rob.")
    if turnup % 13 == 0 and "trick1" in context:
        raise ValueError("the dealer robs a turned ace before the first lead: trick1 cannot be given.")
    taken = set(holding) | {turnup}
    early = _trick_cards(context, "trick1", None, taken)
    if early is not None:
        if len(early) != seat:
            raise ValueError(f"context trick1 takes the {seat} cards played before seat {seat}, not {len(early)}.")
        for k, card in enumerate(early):
            known[K_FIXED + HAND_SIZE * k] = card
            known[K_EXPECT + k] = card
        described["trick1"] = format_cards(early)
    known[K_DECISION] = ROB
    known[K_FIXED + HAND_SIZE * seat : K_FIXED + HAND_SIZE * (seat + 1)] = holding
    known[K_CHOICES : K_CHOICES + HAND_SIZE] = holding
    return ("no rob",) + tuple(f"rob:discard {card_name(c)}" for c in holding)


def _tricks(n, seat, context, taken) -> list[list[int]]:
    """The tricks the context gives (cards in playing order), every one complete but the
    last, which may hold the cards played before the advised seat."""
    tricks = []
    for key in TRICK_KEYS:
        if key not in context:
            break
        cards = _trick_cards(context, key, None, taken)
        if not 0 < len(cards) <= n:
            raise ValueError(f"context {key} takes 1 to {n} cards, not {len(cards)}.")
        if tricks and len(tricks[-1]) < n:
            raise ValueError(f"context {key} follows trick{len(tricks)}, which is not complete.")
        tricks.append(cards)
    later = [key for key in TRICK_KEYS[len(tricks) :] if key in context]
    if later:
        raise ValueError(f"context {later[0]} is given without trick{len(tricks) + 1}.")
    return tricks


def _robber(rules, n, seat, holding, turnup, context, seen_with):
    """The robber (-1: none) and the advised seat's discard (-1: none), checked against
    who is seen with the turn-up and the ace of trumps; and whether the ace is demoted."""
    robbed = _robbed(context.get("robbed", "none"), n)
    trump, turned_ace = turnup // 13, turnup % 13 == 0
    ace = 13 * trump
    if turned_ace and robbed not in (-1, n - 1):
        raise ValueError(f"the turn-up is an ace: only the dealer (seat {n - 1}) may rob it, not seat {robbed}.")
    if turnup in seen_with and seen_with[turnup] != robbed:
        who = "nobody robbed it" if robbed < 0 else f"seat {robbed} robbed it"
        raise ValueError(f"the turn-up {card_name(turnup)} is out of seat {seen_with[turnup]}'s reach: {who}.")
    if not turned_ace and robbed >= 0 and seen_with.get(ace, robbed) != robbed:
        raise ValueError(
            f"seat {robbed} robbed, so it held the ace of trumps {card_name(ace)}, not seat {seen_with[ace]}."
        )
    discard = -1
    if robbed == seat:
        if turnup not in seen_with:
            raise ValueError(f"seat {seat} robbed, so it holds or has played the turn-up {card_name(turnup)}.")
        if "discard" not in context:
            raise ValueError("context discard is required when the advised seat robbed: it knows its discard.")
        discard = context_cards("discard", context["discard"], 1)[0]
        if discard in seen_with or discard == turnup:
            raise ValueError(f"context discard: {card_name(discard)} is held, turned up or played.")
        if not turned_ace and ace != discard and seen_with.get(ace) != seat:
            raise ValueError(f"seat {seat} robbed, so it held the ace of trumps {card_name(ace)}.")
    elif "discard" in context:
        raise ValueError("context discard is only for an advised seat that robbed (robbed=its seat).")
    dealt_ace = not turned_ace and (ace in seen_with or ace == discard)
    holder = seat if discard == ace else seen_with.get(ace, -1) if dealt_ace else -1
    forfeited = holder if holder >= 0 and holder != robbed and int(rules.rob) == ROB_OBLIGATORY else -1
    demoted = bool(rules.unrobbed_ace_low) and holder >= 0 and holder != robbed
    return robbed, discard, demoted, forfeited


def _history(rules, n, seat, holding, turnup, context, known, described):
    """The claim/jinx or card-play decision after the tricks the context gives: checked
    by replaying them (module docstring); returns the decision and its candidates."""
    tricks = _tricks(n, seat, context, set(holding))
    size = TRICKS - sum(len(cards) == n for cards in tricks)
    if len(holding) != size:
        raise ValueError(f"seat {seat} holds {size} cards after the tricks given, not {len(holding)}.")
    demoted = False
    for _ in range(2):  # the seats follow from the winners, which a demoted ace can change
        table = _Table(rules, turnup // 13, demoted)
        plays = _seats(n, tricks, table)
        seen_with = {card: s for trick in plays for s, card in trick} | {card: seat for card in holding}
        robbed, discard, demoted, forfeited = _robber(rules, n, seat, holding, turnup, context, seen_with)
    table = _Table(rules, turnup // 13, demoted)
    hand = set(holding) | {card for trick in plays for s, card in trick if s == seat}
    if robbed == seat:
        hand = hand - {turnup} | {discard}
    _fix_hands(n, seat, turnup, plays, robbed, sorted(hand), known)
    if robbed == seat:
        hand = hand - {discard} | {turnup}
    decision, t, led = _replay(rules, n, seat, table, hand, plays, forfeited, known)
    if t == 0 and robbed > seat and turnup % 13 != 0:
        raise ValueError(f"seat {robbed} has not played to trick 1 yet, so it cannot have robbed.")
    known[K_ROBBED], known[K_OWN_ROB], known[K_OWN_DISCARD] = robbed, robbed == seat, discard
    known[K_SEEN_UPTO] = seat if t == 0 and decision == "play" else n
    described.update({TRICK_KEYS[k]: format_cards(c for _, c in trick) for k, trick in enumerate(plays)})
    described["robbed"] = "none" if robbed < 0 else robbed
    if discard >= 0:
        described["discard"] = card_name(discard)
    if decision == "jinx":
        known[K_DECISION] = JINX
        return "jinx", ("claim", "jinx")
    legal = sorted(table.legal(set(holding), led), key=lambda c: (SUIT_OF[turnup // 13, c], table.order(c)))
    known[K_DECISION], known[K_STOP] = PLAY, t
    known[K_CHOICES : K_CHOICES + len(legal)] = legal
    return "play", tuple(f"play {card_name(c)}" for c in legal)


def _seats(n, tricks, table):
    """The tricks as (seat, card) pairs: seat 0 leads trick 1, each winner the next."""
    plays, leader = [], 0
    for cards in tricks:
        plays.append([((leader + i) % n, card) for i, card in enumerate(cards)])
        leader = table.winner(plays[-1])[0] if len(cards) == n else leader
    return plays


def _replay(rules, n, seat, table, hand, plays, forfeited, known):
    """Replay the tricks given from the advised seat's side: its cards legal, the hand not
    over.  Returns the decision ("jinx" or "play"), its trick and the card led to it."""
    won, jinxer = [0] * n, -1
    for t, trick in enumerate(plays):
        for i, (s, card) in enumerate(trick):
            if s == seat:
                if card not in table.legal(hand, trick[0][1] if i else None):
                    raise ValueError(f"context trick{t + 1}: seat {seat} may not play {card_name(card)} there.")
                hand.discard(card)
                known[K_FORCED + t] = card
            else:
                known[K_EXPECT + MAX_PLAYERS * t + i] = card
        if len(trick) < n:
            if trick[-1][0] != (seat - 1) % n:
                raise ValueError(f"context trick{t + 1}: seat {(trick[-1][0] + 1) % n} plays next, not seat {seat}.")
            return "play", t, trick[0][1]
        w = table.winner(trick)[0]
        won[w] += 1
        over = jinxer >= 0 and (w != jinxer or t == TRICKS - 1)
        if jinxer < 0 and won[w] == 3 and w == seat and t == 2 and len(plays) == 3:
            if not rules.jinx:
                raise ValueError("these rules have no jinx: three tricks take the pool at once.")
            if w == forfeited:
                raise ValueError(
                    f"seat {seat} held the ace of trumps and did not rob: under obligatory robbing it cannot take "
                    "the pool, so it has no claim or jinx."
                )
        if jinxer < 0 and won[w] == 3:
            if t != 2 or not rules.jinx or w == forfeited:
                over = True
            elif t + 1 < len(plays):  # play went on: w jinxed
                jinxer = w
                known[K_OWN_JINX] = w == seat
            elif w == seat:
                return "jinx", t + 1, -1
            else:
                raise ValueError(
                    f"seat {w} won tricks 1 to 3: give trick4 if it jinxed (the hand is over if it claimed)."
                )
        open_seats = [won[s] for s in range(n) if s != forfeited]
        if over or (jinxer < 0 and max(open_seats) + TRICKS - (t + 1) < 3):
            raise ValueError(f"the hand is over after trick {t + 1}: seat {seat} has no decision left.")
    leader = table.winner(plays[-1])[0] if plays else 0
    if leader != seat:
        raise ValueError(f"seat {leader} leads trick {len(plays) + 1}: give the cards played before seat {seat}.")
    return "play", len(plays), None


def _fix_hands(n, seat, turnup, plays, robbed, dealt, known) -> None:
    """The fixed cards of the deal: the advised seat's dealt hand, each other seat's
    cards seen played (a robber's turn-up excepted, its ace of trumps added)."""
    hands = {s: [] for s in range(n)}
    hands[seat] = list(dealt)
    for trick in plays:
        for s, card in trick:
            if s != seat and card != turnup:
                hands[s].append(card)
    ace = 13 * (turnup // 13)
    if robbed >= 0 and robbed != seat and turnup % 13 != 0 and ace not in hands[robbed]:
        hands[robbed].append(ace)
    for s, cards in hands.items():
        for k, card in enumerate(cards):
            known[K_FIXED + HAND_SIZE * s + k] = card


# ------------------------------------------------------------------------ the kernel

ORDER52 = np.arange(52, dtype=np.int64)  # the pack in code order (deal_conditioned_nb's order)
BIT_CODE_FLAT = BIT_CODE.reshape(-1)  # the code of bit b with trumps t at 64 * t + b
_ONE, _ZERO = np.uint64(1), np.uint64(0)
_ALL = ~_ZERO
_NO_CARD = np.uint64(63)
N_CARDS = 52
# The trick loop's state, kept in a small int64 array so that it can be saved at the
# decision and each candidate go on from a copy (S_*): tricks played, the next leader,
# the last trick's winner, the END_* code, claimed, the jinxer, its seat bit, the seats
# with two tricks, the most tricks of a seat not forfeited, the public dead cards, the
# turn-up's bit while it is yet to go live, the forfeited seat as the others know it.
S_TRICK, S_LEADER, S_BEST, S_END, S_CLAIMED, S_JINXER = range(6)
S_JINX_BIT, S_TWO, S_MOST, S_DEAD, S_GOES_LIVE, S_FORFEIT_BIT = range(6, 12)
N_STATE = 12
D_CLAIM, D_JINX, D_POLICY, D_STOP = range(4)  # the advised seat's jinx decision: forced, its policy's, or stop
ENDED, STOPPED, REJECTED = range(3)  # how play_on_nb returns


@njit(cache=True, inline="always")
def start_state_nb(st, leader, dead, goes_live):
    """The trick loop's state before trick 1 (``dead``, ``goes_live``: rob_nb's)."""
    st[:] = 0
    st[S_LEADER] = leader
    st[S_BEST] = -1
    st[S_END] = END_NONE
    st[S_JINXER] = -1
    st[S_DEAD] = np.int64(dead)
    st[S_GOES_LIVE] = np.int64(goes_live)


@njit(cache=True, inline="always")
def force_discard_nb(work, masks, seat, suit, code):
    """The robber ``seat`` throws away the card ``code`` instead of the one rob_nb chose."""
    chosen = np.uint64(info_nb(work, I_DISCARD))
    bit = BIT_OF[np.uint64(N_CARDS) * suit + np.uint64(code)]
    useat = np.uint64(seat)
    masks[useat] = (masks[useat] | (_ONE << chosen)) & ~(_ONE << bit)
    set_info_nb(work, I_DISCARD, np.int64(bit))
    set_private_nb(work, seat, bit, _NO_CARD)


@njit(cache=True, inline="always")
def advised_trick_nb(work, masks, n, st, suit, follow_extra, flags, spoilers, threat, adv, code):
    """One trick (play_trick_nb) from the state ``st``, the advised seat ``adv`` playing
    the card ``code`` when it is a card (its hand is that card alone for the trick)."""
    uadv = np.uint64(adv)
    rest = masks[uadv]
    if code >= 0:
        bit = BIT_OF[np.uint64(N_CARDS) * suit + np.uint64(code)]
        if (rest >> bit) & _ONE == _ZERO:  # its own ace of trumps, demoted (unrobbed_ace_low)
            bit = private_nb(work)[2]
        masks[uadv] = _ONE << bit
        rest &= ~(_ONE << bit)
    result = play_trick_nb(
        work,
        masks,
        n,
        st[S_TRICK],
        st[S_LEADER],
        suit,
        follow_extra,
        flags[2],
        spoilers,
        threat,
        np.uint64(st[S_DEAD]),
        np.uint64(st[S_GOES_LIVE]),
        np.uint64(st[S_FORFEIT_BIT]),
        False,
    )
    if code >= 0:
        masks[uadv] = rest
    return result


@njit(cache=True, inline="always")
def seen_nb(work, expect, trick, n, suit):
    """Did every seat play to ``trick`` the card ``expect`` says (-1: any)?"""
    if trick >= HISTORY:
        return True
    for i in range(n):
        want = expect[MAX_PLAYERS * trick + i]
        if want >= 0 and BIT_CODE_FLAT[64 * suit + log_entry_nb(work, trick, 2 + i)] != want:
            return False
    return True


@njit(cache=True)
def play_on_nb(work, masks, st, n, suit, codes, flags, adv, forced, expect, decide, stop):
    """Tricks from the state ``st`` to the end of the hand (kernel.play_tricks_nb), the
    advised seat ``adv`` playing ``forced[t]`` in trick t < 3 when it is a card, and at its
    claim or jinx doing what ``decide`` says (D_*; D_STOP saves the state in ``st`` and
    returns STOPPED there; so does reaching trick ``stop`` unplayed).  REJECTED as soon as a trick t < 3 differs from ``expect``;
    else the deal's end goes to the INFO row and ENDED is returned."""
    law, jinx_on = codes[0], codes[3] != 0
    forfeited = info_nb(work, I_FORFEITED)
    forfeited_bit = _ONE << np.uint64(forfeited) if forfeited >= 0 else _ZERO
    trump = RANKED_SUIT << (np.uint64(16) * suit)
    follow_extra = trump if law == FOLLOW_OR_TRUMP else (_ALL if law == FREE else _ZERO)
    end = st[S_END]
    while True:
        if end == END_NONE and st[S_TRICK] == stop:
            st[S_END] = end
            return STOPPED
        if end == END_NONE:
            two, jinx_bit = np.uint64(st[S_TWO]), np.uint64(st[S_JINX_BIT])
            threat = (two & ~np.uint64(st[S_FORFEIT_BIT])) | jinx_bit
            spoilers = flags[1] & (~two | forfeited_bit)
            code = forced[st[S_TRICK]] if st[S_TRICK] < HISTORY else -1
            best, won, dead, forfeit_bit = advised_trick_nb(
                work, masks, n, st, suit, follow_extra, flags, spoilers, threat, adv, code
            )
            if not seen_nb(work, expect, st[S_TRICK], n, suit):
                return REJECTED
            best_bit = _ONE << np.uint64(best)
            st[S_TWO] = np.int64((two & ~best_bit) | (best_bit if won == 2 else _ZERO))
            st[S_MOST] = won if best != forfeited and won > st[S_MOST] else st[S_MOST]
            st[S_DEAD], st[S_GOES_LIVE], st[S_FORFEIT_BIT] = np.int64(dead), 0, np.int64(forfeit_bit)
            st[S_TRICK] += 1
            st[S_LEADER], st[S_BEST] = best, best
            end = hand_end_nb(best, won, st[S_TRICK], st[S_MOST], st[S_JINXER], forfeited, jinx_on)
        if end == END_THREE:
            best = st[S_BEST]
            if best == adv and decide == D_STOP:
                st[S_END] = end
                return STOPPED
            if best == adv and decide != D_POLICY:
                jinx = decide == D_JINX
            else:
                jinx = calls_jinx_nb(work, masks, best, suit, np.uint64(st[S_DEAD]))
            if jinx:
                st[S_JINXER], st[S_JINX_BIT] = best, np.int64(_ONE << np.uint64(best))
                end = END_NONE
                continue
            st[S_CLAIMED] = 1
            end = END_TAKEN
        if end != END_NONE:
            break
    set_deal_end_nb(work, end, st[S_BEST], st[S_JINXER], st[S_CLAIMED], st[S_TRICK])
    masks[M_DEAD] = np.uint64(st[S_DEAD])
    return ENDED


@njit(cache=True, inline="always")
def outcome_nb(work, n, adv, known, bonus, values, c):
    """The advised seat's outcomes of the hand just played into ``values[c]``."""
    won = info_nb(work, I_WINNER) == adv
    paid = bonus if info_nb(work, I_JINX_MADE) else 0
    values[c, 0] = -known[K_STAKE] + (known[K_POOL] + (n - 1) * paid if won else -paid)
    values[c, 1] = won
    values[c, 2] = tricks_nb(work, adv)


@njit(cache=True, inline="always")
def robs_nb(work, masks, n, suit, holder, codes, rob_seats):
    """Step 2 (kernel.rob_nb) with the dealer in seat n - 1 and seat 0 leading."""
    return rob_nb(work, masks, n - 1, 0, holder, suit, rob_seats, codes[1] == ROB_OBLIGATORY, codes[2] != 0)


@njit(cache=True)
def rob_deal_nb(work, masks, scratch, n, suit, holder, codes, flags, known, values, bonus):
    """The rob decision on the deal just dealt: each candidate (no rob, then a rob with
    each discard) robs or not from a copy of the dealt table and plays the hand by policy.
    False when trick 1's plays before the advised seat differ from the context."""
    saved_work, saved_masks, st, _ = scratch
    adv = known[K_SEAT]
    adv_bit = _ONE << np.uint64(adv)
    saved_work[: work.shape[0]] = work
    saved_masks[:] = masks
    forced, expect = known[K_FORCED : K_FORCED + HISTORY], known[K_EXPECT:K_FORCED]
    for c in range(values.shape[0]):
        work[:] = saved_work[: work.shape[0]]
        masks[:] = saved_masks
        rob_seats = (flags[0] & ~adv_bit) | (adv_bit if c > 0 else _ZERO)
        dead, goes_live = robs_nb(work, masks, n, suit, holder, codes, rob_seats)
        if c > 0:
            force_discard_nb(work, masks, adv, suit, known[K_CHOICES + c - 1])
        start_state_nb(st, 0, dead, goes_live)
        if play_on_nb(work, masks, st, n, suit, codes, flags, adv, forced, expect, D_POLICY, -1) == REJECTED:
            return False
        outcome_nb(work, n, adv, known, bonus, values, c)
    return True


@njit(cache=True, inline="always")
def rob_seen_nb(work, known):
    """Is the rob the advised seat saw the one the context gives (a robber after it in
    trick 1 is not seen yet)?"""
    robbed = info_nb(work, I_ROBBED_BY)
    seen = robbed >= 0 and (info_nb(work, I_ACE_TURNED) != 0 or robbed <= known[K_SEEN_UPTO])
    return (robbed if seen else -1) == known[K_ROBBED]


@njit(cache=True)
def history_deal_nb(work, masks, scratch, n, suit, holder, codes, flags, known, values, bonus):
    """The claim/jinx or card-play decision on the deal just dealt: the rob and the tricks
    before the decision played forward (the advised seat's as the context says), False
    when the others' differ from it; then each candidate from a copy of the table there."""
    saved_work, saved_masks, st, choice = scratch
    saved_st = saved_work[saved_work.shape[0] - N_STATE :]  # spare entries past the workspace
    adv = known[K_SEAT]
    adv_bit = _ONE << np.uint64(adv)
    rob_seats = (flags[0] & ~adv_bit) | (adv_bit if known[K_OWN_ROB] == 1 else _ZERO)
    dead, goes_live = robs_nb(work, masks, n, suit, holder, codes, rob_seats)
    if not rob_seen_nb(work, known):
        return False
    if known[K_OWN_DISCARD] >= 0:
        force_discard_nb(work, masks, adv, suit, known[K_OWN_DISCARD])
    start_state_nb(st, 0, dead, goes_live)
    forced, expect = known[K_FORCED : K_FORCED + HISTORY], known[K_EXPECT:K_FORCED]
    jinx = known[K_DECISION] == JINX
    decide = D_STOP if jinx else (D_JINX if known[K_OWN_JINX] == 1 else D_POLICY)
    if play_on_nb(work, masks, st, n, suit, codes, flags, adv, forced, expect, decide, known[K_STOP]) != STOPPED:
        return False
    saved_work[: work.shape[0]] = work
    saved_masks[:] = masks
    saved_st[:] = st
    choice[:] = forced
    for c in range(values.shape[0]):  # claim and jinx (D_CLAIM, D_JINX), or each card
        work[:] = saved_work[: work.shape[0]]
        masks[:] = saved_masks
        st[:] = saved_st
        if not jinx:
            choice[known[K_STOP]] = known[K_CHOICES + c]
        ended = play_on_nb(work, masks, st, n, suit, codes, flags, adv, choice, expect, c if jinx else D_POLICY, -1)
        if ended == REJECTED:
            return False
        outcome_nb(work, n, adv, known, bonus, values, c)
    return True


@njit(cache=True, nogil=True)
def advise_nb(rules, policy, n, seed, first, count, known, n_candidates, n_outcomes):
    """The flat sums (sims.core.advice) of deals ``first .. first + count - 1`` of
    ``seed`` for the situation ``known`` (module docstring)."""
    out = np.zeros(advice_width(n_candidates, n_outcomes), dtype=np.int64)
    work, masks = new_table_nb(rules, policy, n)
    scratch = (
        np.zeros(work.shape[0] + N_STATE, dtype=np.int64),
        masks.copy(),
        np.zeros(N_STATE, dtype=np.int64),
        np.zeros(HISTORY, dtype=np.int64),
    )
    values = np.zeros((n_candidates, n_outcomes), dtype=np.int64)
    pack = np.zeros(N_CARDS, dtype=np.int64)
    size = HAND_SIZE * n + 1
    dealt = np.zeros(size, dtype=np.int64)
    fixed = known[K_FIXED : K_FIXED + size]
    codes = deal_rule_codes_nb(rules)
    flags = seat_flags_nb(work)
    bonus = jinx_bonus_nb(work)
    seed_key = seed_key_nb(seed)
    for i in range(first, first + count):
        out[TRIED] += 1
        state = deal_conditioned_nb(pack, ORDER52, dealt, fixed, stream_nb(seed_key, i))
        work[:size] = dealt  # the pack row (DECK_ROW = 0), drawn in this order without swaps
        _, suit, holder = deal_nb(work, masks, n, n - 1, 0, False, state)  # stacked: no draw
        if known[K_DECISION] == ROB:
            kept = rob_deal_nb(work, masks, scratch, n, suit, holder, codes, flags, known, values, bonus)
        else:
            kept = history_deal_nb(work, masks, scratch, n, suit, holder, codes, flags, known, values, bonus)
        if kept:
            record_deal_nb(out, values)
    return out
