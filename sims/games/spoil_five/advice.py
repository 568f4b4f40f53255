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
  pool     the chips in the pool (public): a whole number from a new pool's n * ante +
           dealer_extra up to 1,000,000.  Left out: a new pool.  Given: the state of the
           game, so the pool outcomes are added and ranked by (below).
  These are every public action a player sees before its decisions: the turn-up, who
  robbed, every card played, in order (so who won each trick, who jinxed: a seat that
  won tricks 1-3 and played on), and the pool.  Each key left out is named in the
  situation's ``assumed`` with what was taken in its place (DECISIONS' ``absent``
  texts); ``described`` is the context as understood.

How the deals are conditioned (infer, sims.core.advice.INFER)
  The deal is the hand kernel's (5 cards to each seat from seat 0 round to the dealer,
  then the turn-up), the cards known to the advised seat fixed and the rest dealt
  uniformly from the remaining pack (sims.core.advice.deal_conditioned_nb): the advised
  seat's dealt cards (its holding and the cards it played, with its discard in place of
  the turn-up when it robbed), the turn-up, and every card another
  seat is seen to play, fixed in that seat's hand (the turn-up excepted, which a robber
  took from the table; a robber other than a turned ace's dealer also gets the ace of
  trumps fixed in its hand when it was not seen played).  The deal is then played forward
  from the start of the hand, the advised seat's own earlier actions the ones the
  context gives (its rob or not, its discard, its cards, its jinx).
  policy: every seat but the advised one robs, plays and jinxes by its policy, and the
    deal is kept only when the others' rob (as far as the advised seat has seen) and
    every card they played match the context exactly (rejection), the hand reaching the
    decision.  Cards fixed in a hand are exact conditioning: a seat that played a card
    held it.
  seen: the others' actions the advised seat saw are played as given: each card shown
    (whatever its policy would play), the rob of every seat it has seen at its turn (the
    seats before it in trick 1, every seat after trick 1, a turned ace's dealer: it robs
    exactly when ``robbed`` names it), and the jinx of a seat that won tricks 1-3 when the
    history goes on.  A deal is rejected only when a card shown is not legal from the
    hand dealt to its seat (the law of plain_lead and of a trump lead: a seat that played
    another suit held none of the suit led, or only trumps where the law allows a trump;
    a seat that played a plain card to a trump lead held no trump it had to play), so
    the hidden cards are uniform among the deals consistent with everything visible.
    Everything after the decision, and every action the advised seat has not seen yet,
    is by the policies.  The rob decision with no ``trick1`` and a card play when the
    seat leads trick 1 have no history: seen gives the same sums as policy there.
  For the rob decision, the plays of trick 1 before the advised seat do not depend on its
  decision (it is made at its first turn, and nobody before it can see the turn-up
  go), so each candidate plays the whole hand and its trick 1 is compared.  For the
  other decisions the table is kept at the decision (the workspace, the hands and the
  trick loop's state) and each candidate plays on from a copy: claim or jinx, or its
  card in the trick (the cards before it in that trick, compared too, do not depend on
  it).  With the pool outcomes, a candidate whose hand is spoiled plays the rest of
  the pool as game mode does (kernel.play_pool_nb): the top-up after the spoiled hand
  (and the next dealer's dealer_extra with dealer_extra_every_deal), then deal after
  deal, the deal passing left from seat n-1, each from a pack in code order drawn on a
  copy of the deal's stream after the conditioned deal, every seat (the advised one
  too) by its policy, until someone takes the pool or max_deals deals (the advised hand
  counted as the first: how long the pool has been carried is not known) stop it.

Outcomes (the advised seat's, per candidate; TERMS defines each for ``analyze rules``)
  net     chips won in this hand (the headline; what ``analyze spoil-five`` shows as net):
          the pool (and any jinx bonus) if it takes the pool, minus any jinx bonus it
          pays, minus its ante (and dealer_extra as dealer) when the pool is a new one; a
          given ``pool`` is already in the middle, so nothing is paid into it.  A spoiled
          pool's future is not counted (as in hand mode).
  win     1 if it takes the pool in this hand.
  tricks  tricks it won (tricks played stop when the hand stops).
  pool_win (only with ``pool`` given; the advice ranks by it, ``Situation.rank_by``)
          1 if it takes this pool, in this hand or a later one (above).
  pool_net (only with ``pool`` given) net plus, after a spoil, the chips it takes minus
          those it pays in the later deals of the pool (top-ups, dealer_extra, jinx
          bonuses).
  Size (``Situation.largest``): no outcome of one deal exceeds the pool plus n jinx
  bonuses plus the stake (and, with the pool outcomes, max_deals deals of everyone's
  top-up and a dealer_extra): at the largest pool accepted (10**6) and the largest
  rules (10 players, max_deals 1000, topup_amount and dealer_extra 20) about 1.2 * 10**6,
  whose square is far inside int64, so the analyzer's batches (2**62 // largest**2
  deals, about 3 million there) cannot overflow and no accepted pool is refused.

Where the rules are silent (choices made here)
  A rob's discard may be any of the seat's 5 dealt cards, never the turn-up taken.
  An earlier rob's discard by another seat is unknown to the advised seat: the policy's
  (the robber's cheapest card) is played forward.
  Not answered: the advised seat's lead to trick 4 after its own jinx (three tricks won
  and nothing after them read as the claim/jinx decision).
  Acceptance under infer=policy: every card another seat is seen to play must be the one
  its policy plays, so a long history at a large table accepts few deals (a jinx after
  three tricks at 6 to 10 players: about 1 in 1,000; the rob decision late in trick 1 at
  6 players: about 1 in 100; trick1=2c 3c 4c 5c before the dealer at 5 players: about
  1 in 2,000,000), and a history the policies never play accepts none.  Under infer=seen most deals
  fit (only a law of play broken by the hidden hands rejects one).
"""

from __future__ import annotations

import numpy as np

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
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.tricks import RANKED_SUIT, above_nb, suit_of_bit_nb
from sims.games.spoil_five.kernel import (
    ACE_BIT,
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
    PRIVILEGED,
    R_DEALER_EXTRA,
    R_DEALER_EXTRA_EVERY_DEAL,
    R_MAX_DEALS,
    S_PAID,
    S_RECEIVED,
    add_paid_nb,
    calls_jinx_nb,
    deal_nb,
    deal_rule_codes_nb,
    hand_end_nb,
    info_nb,
    jinx_bonus_nb,
    log_entry_nb,
    new_table_nb,
    paid_nb,
    play_table_deal_nb,
    play_trick_nb,
    private_nb,
    received_nb,
    rob_nb,
    rule_nb,
    seat_flags_nb,
    set_deal_end_nb,
    set_info_nb,
    set_private_nb,
    set_seat_count_nb,
    take_pool_nb,
    top_up_nb,
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
_POOL = (
    "chips in the pool (public); giving it ranks by the chance of taking the pool (the game goes on over "
    "spoiled hands until someone takes it); left out: a new pool"
)
_ROBBED = "the seat that robbed the turn-up, or none (default)"
_DISCARD = "the card this seat threw away when it robbed"
_LATER = "the cards of trick {k} from its leader: all n, or those played before this seat"
_ABSENT = {
    "turnup": "required: the advice refuses without it (it names trumps)",
    "pool": "a new pool (every player antes, the dealer adds dealer_extra): the advice ranks by the chips of "
    "this hand, and a spoiled pool's future is not counted",
    "robbed": "nobody robbed, as far as you have seen (a trump-ace holder yet to play in trick 1 may still rob)",
    "discard": "you did not rob",
}
_ABSENT_TRICK1_ROB = (
    "the cards the seats before you played to trick 1 are not given: the advice averages over whatever their "
    "hands and policies play"
)
_ABSENT_TRICK = "trick {k} has not been played (or, for trick 1, you lead it)"
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
        {"turnup": _ABSENT["turnup"], "trick1": _ABSENT_TRICK1_ROB, "pool": _ABSENT["pool"]},
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
        {
            **_ABSENT,
            **{f"trick{k}": f"required: the claim or jinx follows three tricks won (trick{k})" for k in (1, 2, 3)},
        },
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
        {**_ABSENT, **{f"trick{k}": _ABSENT_TRICK.format(k=k) for k in range(1, TRICKS + 1)}},
    ),
)
TERMS = {
    "net": "chips you win in this hand: the pool (and any jinx bonus) if you take it, minus any jinx bonus you pay, "
    "minus your ante (and dealer_extra as dealer) when the pool is a new one; a spoiled pool's future not counted",
    "win": "the chance that you take the pool in this hand",
    "tricks": "tricks you win in this hand",
    "pool_win": "with a pool given: the chance that you take this pool, in this hand or in the hands after it "
    "(the pool topped up after each spoil and dealt on, every later decision, yours too, by the policies)",
    "pool_net": "with a pool given: chips you win until the pool is taken: what you take (the pool, a jinx "
    "bonus) minus what you pay in (top-ups, dealer_extra, jinx bonuses) over this hand and the ones after it",
    "rob": "policy field: 1 robs the turn-up whenever the rules allow it (taking it and throwing away the "
    "cheapest card), 0 never robs",
    "jinx_min": "policy field: after winning the first three tricks, jinx (play on for all five) when at least "
    "this many of the two cards left are sure winners (0 always jinxes, 3 never)",
    "spoil": "policy field: 1 plays to spoil the hand when another player threatens to take the pool and it "
    "cannot take it itself, 0 always plays greedily for itself",
    "renege": "policy field: 1 holds back the 5 and jack of trumps and Ah when a lower trump is led and the "
    "law allows, 0 plays a trump to a trump lead whenever it holds one",
    "sure winner": "a trump no unseen trump beats, or a plain card when no trump and no higher card of its suit "
    "is unseen",
    "cheapest card": "the plain card of lowest order (ties to the lower suit), or with none the lowest trump",
    "jinx": "after winning tricks 1, 2 and 3, playing on for all five tricks: made, it takes the pool and a "
    "bonus from each other player; one trick lost spoils the hand",
    "claim": "after winning tricks 1, 2 and 3, taking the pool at once",
    "infer": "policy: a deal is kept only when the other players' policies play the history given; seen: the "
    "cards, robs and jinxes given are played as they were and a deal is rejected only when a card shown "
    "could not legally have been played from the hand dealt",
}
ROB, JINX, PLAY = range(3)  # the decision codes in ``known``
OUTCOMES = ("net", "win", "tricks")
POOL_OUTCOMES = ("pool_win", "pool_net")  # with a pool given: the rest of the pool played out
POOL_WIN, POOL_NET = len(OUTCOMES), len(OUTCOMES) + 1
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
K_SEEN = 10  # 1 when the history is read as seen (infer="seen"): the others' actions played as given
K_CHOICES = 11
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
    known[K_SEEN] = infer == "seen"
    described = {"turnup": card_name(turnup), "pool": pool}
    can_rob = seat == n - 1 if turnup % 13 == 0 else 13 * (turnup // 13) in holding
    first = len(str(context.get("trick1", "")).replace(",", " ").split())
    if can_rob and first < n and not any(key in context for key in TRICK_KEYS[1:] + ("robbed", "discard")):
        decision, candidates = "rob", _rob(n, seat, list(holding), turnup, context, known, described)
    else:
        decision, candidates = _history(rules, n, seat, list(holding), turnup, context, known, described)
    in_pool = "pool" in context  # the state of the game: the pool carried to this hand
    outcomes = OUTCOMES + POOL_OUTCOMES if in_pool else OUTCOMES
    return Situation(
        decision,
        candidates,
        outcomes,
        known,
        described=described,
        rank_by=POOL_WIN if in_pool else 0,
        assumed=_assumed(decision, context),
        infer=infer,
        largest=_largest(rules, n, pool, stake, in_pool),
    )


def _assumed(decision: str, context) -> dict[str, str]:
    """What was taken in place of each context key the decision reads and the context
    leaves out (the later tricks of a card play are the hand not reached, not assumed)."""
    absent = next(d for d in DECISIONS if d.name == decision).absent
    keys = [key for key in absent if key not in context]
    if decision != "rob":
        keys = [key for key in keys if key not in TRICK_KEYS]
    return {key: absent[key] for key in keys}


def _largest(rules: Rules, n: int, pool: int, stake: int, in_pool: bool) -> int:
    """The largest size of any outcome of one deal, in chips: the pool, the jinx bonuses
    and the stake; with the rest of the pool played out, what every later deal can add
    (at most max_deals deals, each topped up by everyone and a dealer_extra)."""
    bonus = 2 * int(rules.ante)  # the largest jinx bonus (double-ante)
    most = pool + n * bonus + stake + TRICKS
    if in_pool:
        most += int(rules.max_deals) * (n * int(rules.topup_amount) + int(rules.dealer_extra))
    return most


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
# turn-up's bit while it is yet to go live, the forfeited seat as the others know it, and
# the four words of the stream state a field seat's mixed table cell draws from (S_DRAW).
S_TRICK, S_LEADER, S_BEST, S_END, S_CLAIMED, S_JINXER = range(6)
S_JINX_BIT, S_TWO, S_MOST, S_DEAD, S_GOES_LIVE, S_FORFEIT_BIT = range(6, 12)
S_DRAW = 12
N_STATE = 16
D_CLAIM, D_JINX, D_POLICY, D_STOP = range(4)  # the advised seat's jinx decision: forced, its policy's, or stop
ENDED, STOPPED, REJECTED = range(3)  # how play_on_nb returns


@njit(cache=True, inline="always")
def start_state_nb(st, leader, dead, goes_live, draw):
    """The trick loop's state before trick 1 (``dead``, ``goes_live``, ``draw``: rob_nb's)."""
    st[:] = 0
    st[S_LEADER] = leader
    st[S_BEST] = -1
    st[S_END] = END_NONE
    st[S_JINXER] = -1
    st[S_DEAD] = np.int64(dead)
    st[S_GOES_LIVE] = np.int64(goes_live)
    set_draw_nb(st, draw)


@njit(cache=True, inline="always")
def set_draw_nb(st, draw):
    """Keep the stream state ``draw`` in the trick loop's state."""
    for k in range(4):
        st[S_DRAW + k] = np.int64(draw[k])


@njit(cache=True, inline="always")
def draw_nb(st):
    """The stream state kept in the trick loop's state."""
    return (np.uint64(st[S_DRAW]), np.uint64(st[S_DRAW + 1]), np.uint64(st[S_DRAW + 2]), np.uint64(st[S_DRAW + 3]))


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
def legal_nb(hand, led_bit, trump, privileged, follow_extra):
    """The legal cards of ``hand`` to the card ``led_bit`` (package docstring, step 3):
    to a trump lead its trumps when one of them is not a privileged trump above the led
    card, else any card; to a plain lead the suit led (and what the law adds,
    ``follow_extra``) when it holds the suit, else any card."""
    led = suit_of_bit_nb(led_bit)
    if led & trump:
        trumps = hand & trump
        held_back = trumps & privileged & above_nb(led_bit)
        return trumps if trumps & ~held_back else hand
    return hand & (led | follow_extra) if hand & led else hand


@njit(cache=True)
def force_seen_nb(work, masks, n, st, suit, adv, forced, expect, rests, follow_extra):
    """infer=seen: every other seat the context shows playing to this trick (``expect``)
    gets that card as its only card for the trick, its other cards kept in ``rests`` (by
    playing position).  False when a card shown is not legal with the seat's dealt hand
    (a seat that played another suit held none of the suit led, a seat that held back a
    trump held no other): the deal does not fit what the advised seat saw."""
    trick = st[S_TRICK]
    if trick >= HISTORY:
        return True
    trump = RANKED_SUIT << (np.uint64(16) * suit)
    privileged = PRIVILEGED[suit]
    demoted = private_nb(work)[2]
    led_bit = _NO_CARD
    seat = st[S_LEADER]
    for i in range(n):
        code = expect[MAX_PLAYERS * trick + i]
        if seat == adv:
            code = forced[trick]
        if code >= 0:
            useat = np.uint64(seat)
            hand = masks[useat]
            bit = BIT_OF[np.uint64(N_CARDS) * suit + np.uint64(code)]
            if (hand >> bit) & _ONE == _ZERO and bit == ACE_BIT[suit] and (hand >> demoted) & _ONE:
                bit = demoted  # the holder's own ace of trumps, demoted (unrobbed_ace_low)
            if (hand >> bit) & _ONE == _ZERO:
                return False
            if i == 0:
                led_bit = bit
            elif seat != adv and (legal_nb(hand, led_bit, trump, privileged, follow_extra) >> bit) & _ONE == _ZERO:
                return False  # (the advised seat's own cards were checked by situation())
            if seat != adv:  # the advised seat's card is forced by advised_trick_nb
                rests[i] = hand & ~(_ONE << bit)
                masks[useat] = _ONE << bit
        seat = seat + 1 if seat + 1 < n else 0
    return True


@njit(cache=True, inline="always")
def restore_seen_nb(masks, n, leader, trick, adv, expect, rests):
    """After a trick played with force_seen_nb: each forced seat's other cards back."""
    if trick >= HISTORY:
        return
    seat = leader
    for i in range(n):
        if seat != adv and expect[MAX_PLAYERS * trick + i] >= 0:
            masks[np.uint64(seat)] = rests[i]
        seat = seat + 1 if seat + 1 < n else 0


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
def play_on_nb(
    work, masks, st, n, suit, codes, flags, adv, forced, expect, decide, stop, seen, rests, jinx_seen, policy
):
    """Tricks from the state ``st`` to the end of the hand (kernel.play_tricks_nb), the
    advised seat ``adv`` playing ``forced[t]`` in trick t when it is a card, and at its
    claim or jinx doing what ``decide`` says (D_*; D_STOP saves the state in ``st`` and
    returns STOPPED there; so does reaching trick ``stop`` unplayed).  REJECTED as soon
    as a trick differs from ``expect``; else the deal's end goes to the INFO row and
    ENDED is returned.  ``seen`` (infer=seen): the other seats play the cards ``expect``
    shows (force_seen_nb; REJECTED when one is not legal with their dealt hands), and
    ``jinx_seen``: another seat that won tricks 1-3 jinxes (the history goes on after
    them, so it did).  A seat deciding its jinx by policy plays its jinx table when it has
    one (``policy``), a mixed cell drawing from the stream state kept in ``st``."""
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
            if seen and not force_seen_nb(work, masks, n, st, suit, adv, forced, expect, rests, follow_extra):
                return REJECTED
            best, won, dead, forfeit_bit = advised_trick_nb(
                work, masks, n, st, suit, follow_extra, flags, spoilers, threat, adv, code
            )
            if seen:
                restore_seen_nb(masks, n, st[S_LEADER], st[S_TRICK], adv, expect, rests)
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
            elif best != adv and jinx_seen:
                jinx = True
            else:
                jinx, draw = calls_jinx_nb(work, masks, best, suit, np.uint64(st[S_DEAD]), policy, draw_nb(st))
                set_draw_nb(st, draw)
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


@njit(cache=True)
def rest_of_pool_nb(work, masks, n, adv, pool, state, policy):
    """After the advised hand (dealt by seat n-1) was spoiled: the pool carried on as
    game mode plays it (kernel.play_pool_nb) from the top-up after that hand, deal after
    deal, each from a pack in code order drawn on ``state``, every seat by its policy,
    until a seat takes it or max_deals deals (the advised one counted as the first) stop
    it.  Returns (1 if ``adv`` takes the pool, the chips ``adv`` received minus those it
    paid in those deals: top-ups, dealer_extra, a jinx bonus)."""
    for seat in range(n):
        set_seat_count_nb(work, S_PAID, seat, 0)
        set_seat_count_nb(work, S_RECEIVED, seat, 0)
    max_deals = rule_nb(work, R_MAX_DEALS)
    extra = rule_nb(work, R_DEALER_EXTRA)
    every_deal = rule_nb(work, R_DEALER_EXTRA_EVERY_DEAL) != 0
    dealer = n - 1
    deals = 1
    taken_by = -1
    while deals < max_deals:
        pool += top_up_nb(work, n, dealer)
        dealer = dealer + 1 if dealer + 1 < n else 0
        if every_deal:  # the new dealer's deal stake
            add_paid_nb(work, dealer, extra)
            pool += extra
        state = play_table_deal_nb(work, masks, n, dealer, True, state, policy)
        deals += 1
        winner = info_nb(work, I_WINNER)
        if winner >= 0:
            take_pool_nb(work, n, winner, pool)
            taken_by = winner
            break
    return taken_by == adv, received_nb(work, adv) - paid_nb(work, adv)


@njit(cache=True, inline="always")
def pool_outcomes_nb(work, masks, n, adv, known, values, c, state, policy):
    """pool_win and pool_net of candidate ``c`` (after outcome_nb): the hand's, or when
    it was spoiled the rest of the pool's (rest_of_pool_nb) added."""
    winner = info_nb(work, I_WINNER)
    if winner >= 0:
        values[c, POOL_WIN] = winner == adv
        values[c, POOL_NET] = values[c, 0]
    else:
        won, chips = rest_of_pool_nb(work, masks, n, adv, known[K_POOL], state, policy)
        values[c, POOL_WIN] = won
        values[c, POOL_NET] = values[c, 0] + chips


@njit(cache=True, inline="always")
def rob_seats_nb(flags, known, n, own_rob, ace_turned):
    """``(rob_seats, slow_seats)``: the seats that rob when they may: the advised seat
    when ``own_rob``; another seat by its policy (the rob flags ``flags[0]``), except under
    infer=seen where a seat whose rob the advised seat has seen (a seat up to
    K_SEEN_UPTO, the dealer of a turned ace) robs exactly when the context says it
    robbed; and of the seats deciding by policy, those that play a rob table (``flags[3]``)."""
    adv_bit = _ONE << np.uint64(known[K_SEAT])
    own = adv_bit if own_rob else _ZERO
    if known[K_SEEN] == 0:
        return (flags[0] & ~adv_bit) | own, flags[3] & ~adv_bit
    upto = known[K_SEEN_UPTO]
    seen_bits = (_ONE << np.uint64(upto + 1)) - _ONE if upto < n else _ALL
    if ace_turned:
        seen_bits |= _ONE << np.uint64(n - 1)
    robbed = known[K_ROBBED]
    robber = _ONE << np.uint64(robbed) if robbed >= 0 else _ZERO
    return (flags[0] & ~seen_bits & ~adv_bit) | (robber & ~adv_bit) | own, flags[3] & ~seen_bits & ~adv_bit


@njit(cache=True, inline="always")
def robs_nb(work, masks, n, suit, holder, codes, rob_seats, policy, state):
    """Step 2 (kernel.rob_nb) with the dealer in seat n - 1 and seat 0 leading;
    ``rob_seats``: rob_seats_nb's pair.  Returns ``(dead, goes_live, state)``."""
    return rob_nb(
        work,
        masks,
        n - 1,
        0,
        holder,
        suit,
        rob_seats[0],
        codes[1] == ROB_OBLIGATORY,
        codes[2] != 0,
        rob_seats[1],
        policy,
        state,
    )


@njit(cache=True)
def rob_deal_nb(work, masks, scratch, n, suit, holder, codes, flags, known, values, bonus, state, policy):
    """The rob decision on the deal just dealt: each candidate (no rob, then a rob with
    each discard) robs or not from a copy of the dealt table and plays the hand by policy
    (and, with the pool outcomes, the rest of the pool from ``state``).  False when
    trick 1's plays before the advised seat differ from the context (infer=policy) or
    break the law with the seats' dealt hands (infer=seen).  Field seats' mixed table cells
    draw from a copy of ``state`` per candidate."""
    saved_work, saved_masks, st, _, rests = scratch
    adv = known[K_SEAT]
    seen = known[K_SEEN] != 0
    saved_work[: work.shape[0]] = work
    saved_masks[:] = masks
    forced, expect = known[K_FORCED : K_FORCED + HISTORY], known[K_EXPECT:K_FORCED]
    ace_turned = info_nb(work, I_ACE_TURNED) != 0
    for c in range(values.shape[0]):
        work[:] = saved_work[: work.shape[0]]
        masks[:] = saved_masks
        rob_seats = rob_seats_nb(flags, known, n, c > 0, ace_turned)
        dead, goes_live, draw = robs_nb(work, masks, n, suit, holder, codes, rob_seats, policy, state)
        if c > 0:
            force_discard_nb(work, masks, adv, suit, known[K_CHOICES + c - 1])
        start_state_nb(st, 0, dead, goes_live, draw)
        ended = play_on_nb(
            work, masks, st, n, suit, codes, flags, adv, forced, expect, D_POLICY, -1, seen, rests, False, policy
        )
        if ended == REJECTED:
            return False
        outcome_nb(work, n, adv, known, bonus, values, c)
        if values.shape[1] > POOL_WIN:
            pool_outcomes_nb(work, masks, n, adv, known, values, c, state, policy)
    return True


@njit(cache=True, inline="always")
def rob_seen_nb(work, known):
    """Is the rob the advised seat saw the one the context gives (a robber after it in
    trick 1 is not seen yet)?"""
    robbed = info_nb(work, I_ROBBED_BY)
    seen = robbed >= 0 and (info_nb(work, I_ACE_TURNED) != 0 or robbed <= known[K_SEEN_UPTO])
    return (robbed if seen else -1) == known[K_ROBBED]


@njit(cache=True)
def history_deal_nb(work, masks, scratch, n, suit, holder, codes, flags, known, values, bonus, state, policy):
    """The claim/jinx or card-play decision on the deal just dealt: the rob and the tricks
    before the decision played forward (the advised seat's as the context says), False
    when the others' differ from it; then each candidate from a copy of the table there."""
    saved_work, saved_masks, st, choice, rests = scratch
    saved_st = saved_work[saved_work.shape[0] - N_STATE :]  # spare entries past the workspace
    adv = known[K_SEAT]
    seen = known[K_SEEN] != 0
    jinx_seen = seen and known[K_DECISION] == PLAY and known[K_STOP] >= 3  # trick 3 is history
    rob_seats = rob_seats_nb(flags, known, n, known[K_OWN_ROB] == 1, info_nb(work, I_ACE_TURNED) != 0)
    dead, goes_live, draw = robs_nb(work, masks, n, suit, holder, codes, rob_seats, policy, state)
    if not rob_seen_nb(work, known):
        return False
    if known[K_OWN_DISCARD] >= 0:
        force_discard_nb(work, masks, adv, suit, known[K_OWN_DISCARD])
    start_state_nb(st, 0, dead, goes_live, draw)
    forced, expect = known[K_FORCED : K_FORCED + HISTORY], known[K_EXPECT:K_FORCED]
    jinx = known[K_DECISION] == JINX
    decide = D_STOP if jinx else (D_JINX if known[K_OWN_JINX] == 1 else D_POLICY)
    stopped = play_on_nb(
        work,
        masks,
        st,
        n,
        suit,
        codes,
        flags,
        adv,
        forced,
        expect,
        decide,
        known[K_STOP],
        seen,
        rests,
        jinx_seen,
        policy,
    )
    if stopped != STOPPED:
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
        decide = c if jinx else D_POLICY
        ended = play_on_nb(
            work, masks, st, n, suit, codes, flags, adv, choice, expect, decide, -1, seen, rests, jinx_seen, policy
        )
        if ended == REJECTED:
            return False
        outcome_nb(work, n, adv, known, bonus, values, c)
        if values.shape[1] > POOL_WIN:
            pool_outcomes_nb(work, masks, n, adv, known, values, c, state, policy)
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
        np.zeros(MAX_PLAYERS, dtype=np.uint64),  # infer=seen: the forced seats' other cards
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
            kept = rob_deal_nb(work, masks, scratch, n, suit, holder, codes, flags, known, values, bonus, state, policy)
        else:
            kept = history_deal_nb(
                work, masks, scratch, n, suit, holder, codes, flags, known, values, bonus, state, policy
            )
        if kept:
            record_deal_nb(out, values)
    return out
