"""Five Hundred's advice (``analyze advise five-hundred``): the bid at the seat's turn and
the contractor's kitty discard, every candidate played on the same deals of the unseen
cards (:mod:`sims.core.advice`).

The table is hand mode's: four seats, the dealer in seat 3 (seat 0 is the eldest hand);
the sides' scores before the deal are 0-0 unless the context gives them (``score``,
``opponent_score``).  The advised seat is ``--position``; its ``--holding`` is in the card
notation ``replay`` prints (see "Notation" below: ``Ah 10d Ks`` or ``Td``; the joker is
``Jo``, the black joker of the 46-card pack ``BJ``).

Decisions (which one follows from the context)

  bid (no ``contract`` in the context): the seat's next call in the auction.
    holding: its 10 dealt cards.
    context ``auction`` (optional): the calls made so far in this auction, in the order
      they were made, from the eldest hand (seat 0) clockwise, seats that have passed
      being skipped, as the rules file's decision table allows the bidder (the full
      auction so far is public); calls are ``pass`` (or ``p``, ``-``), ``6S`` ..
      ``10NT`` (tricks and S, C, D, H or NT, any case), ``MIS`` (or ``misere``) and
      ``OM`` (or ``open-misere``), separated by spaces or commas.  Left out (or empty):
      no call yet, so the seat must be the eldest hand, first to bid.  The calls must be
      a legal auction under the table's rules that has not ended, after which it is the
      advised seat's turn to call (seats that have passed never call again).
    context ``later`` (optional): what the advised seat does if the auction comes round
      to it again after the advised call.  ``pass`` (the default, also when left out):
      it stands by its call and passes at every later turn (so it never overcalls an
      opponent's or its partner's later bid, and each candidate's row is that call's own
      consequences: MIS and 8S differ); ``policy``: it calls by its policy at every later
      turn, bidding on as its policy would.  After a candidate ``pass`` it never calls
      again either way (a seat that has passed is out of the auction).  Rows still agree
      where the contracts do: read under policy, the other seats' calls also tell what
      they hold, and their policies may overcall several calls alike (issue 36's seat 3
      after 6H pass 7C: seat 2's 7C over its partner shows 7 club tricks by its policy,
      so it overcalls MIS, 8S, 7H and 7NT alike with 8C, and the seat, standing by its
      call, is never the contractor: the ``contractor`` column shows it).
    candidates: ``pass`` and every bid the seat may make: each trick bid that outranks
      the current bid, misere and open misere where the rules allow them at that point
      (allow_misere, their place on the ladder, misere_needs_7, open_misere_anytime), in
      ladder order (at most 28: fewer than MAX_CANDIDATES).
    conditioning (``infer``, sims.core.advice.INFER): the seat's 10 cards are fixed at its
      places in the deal, every other card is dealt uniformly from the rest of the pack
      (the other hands and the kitty), and the deal is played forward from the start of
      the auction.  The advised seat's own earlier calls in the context are its own, so
      they are made as given (forced) under either reading.  ``policy`` (the default):
      every call in the context made by another seat must be the call that seat's policy
      makes on that deal, else the deal is rejected (exact conditioning by rejection on
      the field's policy).  ``seen``: every call in the context is made as given (forced,
      whatever the seat's policy would call) and no deal is rejected: the calls are all
      that is visible of the other hands, so the hidden cards are dealt uniformly among
      all the deals consistent with the seat's holding.  At the seat's turn its call is
      forced to the candidate; after it everyone follows its policy to the end of the hand
      (the rest of the auction, the kitty, the play), but for the advised seat's later
      calls (``later``).

  discard (``contract`` in the context): the contractor's kitty discard.
    holding: its 10 dealt cards and the kitty: 13 cards (15 with the 45-card pack, 16
      with the 46-card pack).
    context ``contract`` (required for this decision): the contract the seat has won,
      ``6S`` .. ``10NT``, ``MIS`` or ``OM`` as above.  The rules file's decision table
      gives the discarding contractor its 13 cards and the contract only, so the auction
      is not read here (reading: the other hands are dealt as if nothing were known of
      them, which ignores what the auction told the table about them).  There is no
      history of others' actions to read, so ``infer`` seen and policy are the same here.
    candidates: the discards of as many cards as the kitty held.  All of them are too
      many (286 for 13 cards), so the candidates are every discard drawn from the 8
      cards the policy would most readily throw away: the contractor's 13 (15, 16)
      cards ranked by the policy's discard order (package docstring, Kitty discard: the
      order discard_nb throws cards away in), the first 8 kept; every combination of
      kitty-size cards of those 8, in the order of their ranks (56 for 3 or 5 cards, 28
      for 6), so the first candidate is the policy's own discard.  Labels are
      ``discard 5c 6c 7d`` (cards in code order).
    conditioning: the seat's cards are fixed (at its places in the deal and the
      kitty's), the other 30 (30, 30) cards dealt uniformly to the other three seats;
      nothing is rejected.  The seat is the contractor of ``contract``; no auction is
      played; the discard is forced to the candidate; then the joker nomination (the
      policy), the play and the score as in a hand.

  context ``score`` and ``opponent_score`` (optional, both decisions): the points of the
    advised seat's side and of the other side before this deal, whole multiples of 10
    from -490 to 490 (the rules file's game bounds: a side at 500 or more on a contract
    it made has won and a side at -500 or below has lost, so a game in progress has both
    sides strictly between; every score is a multiple of 10).  One given alone: the other
    side has 0.  When given, the hand is settled at those totals (under
    win_by_contract_only the points for tricks that would take a side past opp_cap stop
    there, as in a game) and the outcome ``win`` is added and ranked by
    (``Situation.rank_by``): after the deal the rest of the game is played under the
    policies as game mode plays a game (kernel.play_on_nb: the deal passing left, seat 0
    dealing the next hand, every later hand dealt from the deal's stream, the same
    stream state for every candidate) until a side wins or max_hands hands have been
    played counting this deal as the first (a game stopped there is not won).  Left out:
    the hand is scored from 0-0 and ``win`` is not computed.  Playing out the game costs
    several hands per candidate and deal, so advice with a score runs several times
    slower.

  outcomes (the advised seat's, per deal):
    ``net`` (the per-deal headline): the points the seat's side scores in the hand less
      the points the other side scores, since both sides race to the same target: a pass
      that lets the opponents make their contract costs what they score.
    ``score``: the seat's side's points alone (what the hand adds to its total, points
      for tricks capped as the settlement caps them; from 0-0 unless the context gives
      the scores; a hand thrown in after four passes scores 0).
    ``contractor`` (bid only): 1 when the seat wins the auction.
    ``made``: 1 when the seat is the contractor and makes its contract, so its mean is
      the rate of contracts won and made.
    ``tricks``: tricks the seat itself wins (a misere partner's 0).
    ``win`` (with a score in the context): 1 when the seat's side wins the game that
      goes on after this deal, 0 when it loses or the game is stopped at max_hands; its
      mean is the chance of winning the game, and the advice ranks by it.
  Every outcome is an integer: |net| is at most 620 (a 10NT contract failing with the
  defence taking all ten tricks: -520 - 100), which is ``Situation.largest`` (the analyzer
  bounds a batch by it so the int64 sums of squares cannot overflow).

Not asked here: the joker nomination, the suit named for a joker led, card play.

Notation: the holding's cards are those of the table's pack (deck 43 has no 2s or 3s and
no black 4s).  A card is its face (``A``, ``K``, ``Q``, ``J``, ``10`` or ``T``, ``9`` ..
``4``; ``1`` is also read as the ace) and its suit (``c``, ``d``, ``h``, ``s``), any case:
``Ah``, ``10d``, ``Td``.  The joker is ``Jo`` (or ``joker``), the black joker (46-card
pack only) ``BJ`` (or ``black-joker``), any case; ``replay`` prints ``Jo`` and ``BJ``.
``sims.core.cards.parse_cards`` has no joker; :func:`holding_cards` is this game's
parser.

The known array (``Situation.known``, int64), read by :func:`advise_nb` and
:func:`sims.games.five_hundred.twin.advise`: [decision (0 bid, 1 discard), the seat, the
dealer (3), the contract (discard; -1 for a bid), k = the number of calls given (bid; 0
for a discard), seen (1: the calls given are forced), later (1: the seat calls by its
policy after its advised call; 0: it passes), game (1: the scores are given and ``win``
is an outcome), the seat's side's score, the other side's score], then P entries: the
fixed card of each deal position in draw order (10 to seat 0, ..., 10 to seat 3, then
the kitty; -1 where the card is dealt at random), then the k given calls (a contract
id, -1 a pass), then per candidate its action (bid: the call, -1 a pass; discard: the
discarded cards' mask over card codes).
"""

from __future__ import annotations

import itertools

import numpy as np

from sims.core.advice import (
    TRIED,
    Decision,
    Situation,
    advice_width,
    deal_conditioned_nb,
    record_deal_nb,
    unknown_context,
)
from sims.core.cards import parse_cards
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.games.five_hundred.kernel import (
    PACK_SIZES,
    PACKS,
    R_ALL_PASS,
    R_DECK,
    S_CALLS,
    S_FORCED,
    S_GIVEN,
    S_LATER,
    S_SEAT,
    S_SEEN,
    auction_nb,
    deal_nb,
    kitty_nb,
    layout_nb,
    new_hand_nb,
    new_tables_nb,
    play_on_nb,
    settle_nb,
    tricks_nb,
)
from sims.games.five_hundred.rules import (
    ALL_PASS_NO_TRUMPS,
    BLACK_JOKER,
    HAND_SIZE,
    KITTY_SIZE,
    MISERE,
    N_CONTRACTS,
    N_TRICK_BIDS,
    OPEN_MISERE,
    PACK_SIZE,
    PLAYERS,
    RED_JOKER,
    TARGET,
    TRICKS,
    Rules,
    contract_name,
    contract_value,
    ladder_position,
)

BID, DISCARD = 0, 1  # the decisions' codes in the known array
# the known array's header (module docstring)
K_DECISION, K_SEAT, K_DEALER, K_CONTRACT, K_GIVEN, K_SEEN, K_LATER, K_GAME, K_SCORE, K_OPPONENT, K_FIXED = range(11)
DEALER = PLAYERS - 1  # as in hand mode
CONSIDERED = 8  # discard candidates: combinations of the policy's 8 likeliest discards
BID_OUTCOMES = ("net", "score", "contractor", "made", "tricks")
DISCARD_OUTCOMES = ("net", "score", "made", "tricks")
WIN = "win"  # the outcome added when the context gives the scores
PASS_WORDS = ("pass", "p", "-")
LATER = ("pass", "policy")  # context later: the advised seat's calls after its advised one
SCORE_BOUND = TARGET - 10  # a game in progress: both sides strictly between -500 and 500, multiples of 10
LARGEST = max(contract_value(c) for c in range(N_CONTRACTS)) + 10 * TRICKS  # |net| of one deal at most
JOKER_SPELLING = "the joker is Jo or joker, the black joker of the 46-card pack BJ or black-joker"
CARD_SPELLING = f"cards like Ah, 10d or Td, Ks; {JOKER_SPELLING}"

SCORE_HELP = (
    "your side's points before this deal, a multiple of 10 from -490 to 490: the advice then ranks by the chance "
    "of winning the game (the rest of the game played out), with the hand's points beside it"
)
OPPONENT_HELP = "the other side's points before this deal, a multiple of 10 from -490 to 490 (as score)"
SCORE_ABSENT = (
    "the hand is scored as from 0-0 and the chance of winning the game is not computed "
    "(with opponent_score given: your side has 0)"
)
OPPONENT_ABSENT = "as score: from 0-0, no win chance (with score given: the other side has 0)"

DECISIONS = (
    Decision(
        "bid",
        "the seat's next call in the auction: pass or each bid it may make, given the calls before it "
        f"(holding: its 10 dealt cards, {CARD_SPELLING})",
        {
            "auction": "the calls so far, from the eldest hand (seat 0) clockwise, passed seats skipped: "
            "pass, 6S .. 10NT, MIS, OM (e.g. 'pass 7H'); none: the seat is the eldest hand",
            "later": "what you do if the auction comes round to you again after your call: pass (stand by it, "
            "the default) or policy (bid on by your policy)",
            "score": SCORE_HELP,
            "opponent_score": OPPONENT_HELP,
        },
        'analyze advise five-hundred --players 4 --position 2 --holding "Jh Jd Ah Kh Qh 10h 9h As Kc 5d" '
        '--context auction="pass 6S" --hands 2000',
        {
            "auction": "no call has been made yet: you are the eldest hand (seat 0), first to bid",
            "later": "you stand by your call: you pass whenever the auction comes round to you again",
            "score": SCORE_ABSENT,
            "opponent_score": OPPONENT_ABSENT,
        },
    ),
    Decision(
        "discard",
        "the contractor's kitty discard: which cards to throw away from its hand with the kitty "
        f"(holding: its 10 cards and the kitty's, {CARD_SPELLING})",
        {
            "contract": "the contract the seat has won: 6S .. 10NT, MIS or OM (asks for the kitty discard)",
            "score": SCORE_HELP,
            "opponent_score": OPPONENT_HELP,
        },
        'analyze advise five-hundred --players 4 --position 0 --holding "Jh Jd Ah Kh Qh 10h 9h As Ks 5c 6c 7d 5s" '
        "--context contract=8H --hands 2000",
        {
            "contract": "the decision is the bid, not the kitty discard",
            "score": SCORE_ABSENT,
            "opponent_score": OPPONENT_ABSENT,
        },
    ),
)

TERMS = {
    "net": "Your side's points in the hand less the other side's (the per-deal headline: a pass that lets the "
    "opponents make their contract costs what they score).",
    "score": "Your side's points in the hand alone: the contract's value made or lost, or 10 a trick in "
    "defence (capped at opp_cap as in a game), 0 for a hand thrown in after four passes.",
    "contractor": "1 when you win the auction (your call becomes the contract), else 0: its mean is how often "
    "you end up the contractor.",
    "made": "1 when you are the contractor and make your contract, else 0: its mean is the rate of contracts "
    "won and made.",
    "tricks": "The tricks you yourself win in the hand (0 when you sit out your partner's misere).",
    WIN: "With score/opponent_score in the context: 1 when your side wins the game played out after this deal "
    "under the policies, else 0: its mean is your chance of winning the game, which the advice ranks by.",
    "eldest hand": "Seat 0, on the dealer's (seat 3's) left: it calls first in the auction.",
    "later": "What you do if the auction comes round to you again after the advised call: pass (stand by it, "
    "the default) or policy (call by your policy, bidding on).",
    "MIS / OM": "Misere (250: lose every trick playing alone) and open misere (500: the same with your hand "
    "face up); calls are written pass, 6S .. 10NT, MIS, OM.",
    "Jo / BJ": f"The notation of the jokers in a holding: {JOKER_SPELLING}; other cards are like Ah, 10d (or Td).",
    "kitty": "The 3 cards (5, 6 with the bigger packs) dealt aside: the contractor takes them and discards as many.",
    "trick estimate": "The default policy's count of the tricks a hand should take in each denomination "
    "(top trumps, long trumps, side aces), which it bids on.",
    "bid_offset": "Policy: tricks added to the hand's trick estimate before bidding (negative is cautious).",
    "partner_margin": "Policy: overbid the partner's standing bid only with this many tricks to spare.",
    "misere_max": "Policy: bid misere with at most this many high cards (joker, A, K, Q, J) where misere may be "
    "bid; -1 never.",
    "open_misere_max": "Policy: bid open misere with at most this many high cards where it may be bid; -1 never.",
    "nominate": "Policy: at no trumps a contractor holding the joker names its longest suit for it (1) or keeps "
    "it suitless (0).",
    "high cards": "The jokers, aces, kings, queens and jacks of a hand as dealt (what misere_max counts).",
}


# ------------------------------------------------------------------------ notation
def holding_cards(text: str) -> list[int]:
    """Cards in the notation ``replay`` prints (module docstring, Notation), jokers
    included: ``Jo`` or ``joker`` (52), ``BJ`` or ``black-joker`` (53), any case.  A
    token that is no card: ValueError with one sentence that names the jokers' spelling."""
    jokers = {"jo": RED_JOKER, "joker": RED_JOKER, "bj": BLACK_JOKER, "black-joker": BLACK_JOKER}
    codes = []
    for token in str(text).replace(",", " ").split():
        if token.lower() in jokers:
            codes.append(jokers[token.lower()])
            continue
        try:
            codes.append(parse_cards(token)[0])
        except ValueError as problem:
            raise ValueError(f"{str(problem).rstrip('.')} ({JOKER_SPELLING}).") from None
    return codes


def card_text(code: int) -> str:
    from sims.games.five_hundred.twin import card_text as text

    return text(code)


def _call(text: str, key: str) -> int:
    """A call of the context's notation: -1 for a pass, else a contract id."""
    word = text.strip().upper().replace("_", "-")
    if word.lower() in PASS_WORDS:
        return -1
    if word in ("MIS", "MISERE"):
        return MISERE
    if word in ("OM", "OPEN-MISERE"):
        return OPEN_MISERE
    for contract in range(N_TRICK_BIDS):
        if word == contract_name(contract):
            return contract
    raise ValueError(f"context {key}: '{text}' is not a call (pass, 6S .. 10NT, MIS or OM).")


def _call_text(call: int) -> str:
    return "pass" if call < 0 else contract_name(call)


# ------------------------------------------------------------------------ the situation
def _check_holding(rules: Rules, holding, count: int, what: str) -> None:
    deck = int(rules.deck)
    if len(holding) != count:
        raise ValueError(f"{what} takes {count} cards, not {len(holding)}.")
    pack = {int(c) for c in PACKS[deck][: PACK_SIZE[deck]]}
    for card in holding:
        if card not in pack:
            name = card_text(card) if 0 <= card <= BLACK_JOKER else str(card)
            raise ValueError(f"{name} is not a card of the {PACK_SIZE[deck]}-card pack these rules play with.")


def _may_bid(rules: Rules, bid: int, current: int, level: int) -> bool:
    """Whether ``bid`` may be made over ``current`` (-1 none) when the highest trick bid
    so far had ``level`` tricks (0: none)."""
    mis, om = int(rules.misere_rank), int(rules.open_misere_rank)
    if current >= 0 and ladder_position(bid, mis, om) <= ladder_position(current, mis, om):
        return False
    if bid == MISERE:
        return bool(rules.allow_misere) and (not rules.misere_needs_7 or level >= 7)
    if bid == OPEN_MISERE:
        return bool(rules.allow_misere) and (bool(rules.open_misere_anytime) or level >= 8)
    return True


def _top(rules: Rules) -> int:
    """The bid that closes the auction at once (nothing can outrank it)."""
    mis, om = int(rules.misere_rank), int(rules.open_misere_rank)
    bids = [N_TRICK_BIDS - 1] + ([MISERE, OPEN_MISERE] if rules.allow_misere else [])
    return max(bids, key=lambda c: ladder_position(c, mis, om))


def _replay_auction(rules: Rules, calls: list[int]) -> tuple[int, int, int, list[bool]]:
    """Check the given calls as an auction from the eldest hand; returns (the seat to call
    next, the current bid, the highest trick level so far, who has passed)."""
    passed = [False] * PLAYERS
    current, holder, level = -1, -1, 0
    seat = (DEALER + 1) % PLAYERS
    for k, call in enumerate(calls):
        while passed[seat]:
            seat = (seat + 1) % PLAYERS
        if call >= 0 and not _may_bid(rules, call, current, level):
            raise ValueError(
                f"context auction: call {k + 1}, {_call_text(call)} by seat {seat}, may not be made at that point "
                f"under these rules."
            )
        if call < 0:
            passed[seat] = True
        else:
            current, holder = call, seat
            if call < N_TRICK_BIDS:
                level = max(level, 6 + call // 5)
        n_passed = sum(passed)
        ended = n_passed == PLAYERS or (n_passed == PLAYERS - 1 and holder >= 0) or (call >= 0 and call == _top(rules))
        if ended and k < len(calls) - 1:
            raise ValueError(f"context auction: the auction is over after call {k + 1}, so nothing can follow it.")
        if ended:
            raise ValueError("context auction: the auction is over after these calls, so no seat has a call left.")
        seat = (seat + 1) % PLAYERS
    while passed[seat]:
        seat = (seat + 1) % PLAYERS
    return seat, current, level, passed


def _fixed(rules: Rules, seat: int, holding) -> list[int]:
    """The fixed card of each deal position (draw order): the seat's 10 at its places, the
    rest of its cards (the kitty, for the discard) at the kitty's."""
    deck = int(rules.deck)
    fixed = [-1] * PACK_SIZE[deck]
    cards = sorted(int(c) for c in holding)
    start = HAND_SIZE * ((seat - DEALER - 1) % PLAYERS)
    for k in range(HAND_SIZE):
        fixed[start + k] = cards[k]
    for k, card in enumerate(cards[HAND_SIZE:]):
        fixed[PLAYERS * HAND_SIZE + k] = card
    return fixed


def _game_state(context) -> tuple[int, int, int, dict, dict]:
    """The scores before the deal (context score, opponent_score): (game, the seat's
    side's, the other side's, described, assumed).  ``game`` is 1 when either is given."""
    values, described, assumed = {}, {}, {}
    for key in ("score", "opponent_score"):
        if key in context:
            text = str(context[key]).strip()
            try:
                value = int(text)
            except ValueError:
                value = None
            if value is None or value % 10 or not -SCORE_BOUND <= value <= SCORE_BOUND:
                raise ValueError(
                    f"context {key} takes a side's points before this deal, a multiple of 10 from {-SCORE_BOUND} "
                    f"to {SCORE_BOUND} (a side at {TARGET} or more has won, at {-TARGET} or below has lost), "
                    f"not '{text}'."
                )
            values[key] = described[key] = value
    if not values:
        assumed = {
            "score": "no score given: the hand is scored as from 0-0 and the chance of winning the game is not "
            "computed",
            "opponent_score": "no score given: as from 0-0",
        }
    for key in ("score", "opponent_score"):
        if values and key not in values:
            side = "your side" if key == "score" else "the other side"
            assumed[key] = f"{side} has 0 points"
            described[key] = 0
    return int(bool(values)), values.get("score", 0), values.get("opponent_score", 0), described, assumed


def _header(decision, position, contract, n_given, seen, later, game) -> list[int]:
    """The known array's header (module docstring)."""
    return [decision, position, DEALER, contract, n_given, seen, later, *game[:3]]


def _found(decision, candidates, outcomes, known, described, assumed, game, infer) -> Situation:
    """The Situation: with the scores given, ``win`` is the last outcome and ranked by."""
    if game[0]:
        outcomes = (*outcomes, WIN)
    return Situation(
        decision=decision,
        candidates=tuple(candidates),
        outcomes=outcomes,
        known=np.asarray(known, dtype=np.int64),
        described={**described, **game[3]},
        rank_by=len(outcomes) - 1 if game[0] else 0,
        assumed={**assumed, **game[4]},
        infer=infer,
        largest=LARGEST,
    )


def _bid_situation(rules: Rules, position: int, holding, context, infer: str) -> Situation:
    _check_holding(rules, holding, HAND_SIZE, "the bid (the seat's 10 dealt cards)")
    text = str(context.get("auction", ""))
    calls = [_call(token, "auction") for token in text.replace(",", " ").split()]
    seat, current, level, _ = _replay_auction(rules, calls)
    if seat != position:
        raise ValueError(f"after that auction it is seat {seat}'s turn to call, not seat {position}'s.")
    later = str(context.get("later", "pass")).strip().lower()
    if later not in LATER:
        raise ValueError(f"context later takes pass or policy, not '{context['later']}'.")
    mis, om = int(rules.misere_rank), int(rules.open_misere_rank)
    bids = [c for c in range(N_CONTRACTS) if _may_bid(rules, c, current, level)]
    bids.sort(key=lambda c: ladder_position(c, mis, om))
    candidates = [-1] + bids
    game = _game_state(context)
    seen = int(infer == "seen")
    header = _header(BID, position, -1, len(calls), seen, LATER.index(later), game)
    known = header + _fixed(rules, position, holding) + calls + candidates
    assumed = {}
    if "auction" not in context:
        assumed["auction"] = "no call yet: you are the eldest hand (seat 0), first to bid"
    if "later" not in context:
        assumed["later"] = "you stand by your call: you pass whenever the auction comes round to you again"
    described = {"auction": [_call_text(c) for c in calls], "later": later}
    return _found("bid", [_call_text(c) for c in candidates], BID_OUTCOMES, known, described, assumed, game, infer)


def discard_order(rules: Rules, cards, contract: int) -> list[int]:
    """The contractor's cards (with the kitty) in the order its policy discards them
    (package docstring, Kitty discard), through the plain-Python twin."""
    from sims.games.five_hundred import twin

    hand = twin._Hand(rules, None, twin.pack_cards(int(rules.deck)), DEALER, contract, 0)
    return list(twin._discard(hand, sorted(int(c) for c in cards), len(cards)))


def _discard_situation(rules: Rules, position: int, holding, context, infer: str) -> Situation:
    kitty = KITTY_SIZE[int(rules.deck)]
    _check_holding(
        rules, holding, HAND_SIZE + kitty, f"the kitty discard (the seat's 10 cards and the {kitty} of the kitty)"
    )
    contract = _call(str(context["contract"]), "contract")
    if contract < 0:
        raise ValueError("context contract takes the contract the seat has won, not a pass.")
    if contract >= N_TRICK_BIDS and not rules.allow_misere:
        raise ValueError(f"context contract: {contract_name(contract)} is not bid under these rules (no misere).")
    ranked = discard_order(rules, holding, contract)[:CONSIDERED]
    masks, labels = [], []
    for combo in itertools.combinations(ranked, kitty):
        masks.append(sum(1 << c for c in combo))
        labels.append("discard " + " ".join(card_text(c) for c in sorted(combo)))
    game = _game_state(context)
    known = _header(DISCARD, position, contract, 0, int(infer == "seen"), 0, game) + _fixed(rules, position, holding)
    described = {"contract": contract_name(contract)}
    return _found("discard", labels, DISCARD_OUTCOMES, known + masks, described, {}, game, infer)


def situation(rules: Rules, n_seats: int, position: int, holding, context, infer: str = "policy") -> Situation:
    """The seat's next decision (module docstring): the bid, or with ``contract`` in the
    context the kitty discard; the calls given read as ``infer`` says (policy: the other
    seats' calls condition the deal on their policies; seen: they are forced).
    ``ValueError`` with one sentence for anything the rules, the table or the holding
    refuse."""
    unknown_context(DECISIONS, context)
    if n_seats != PLAYERS:
        raise ValueError(f"Five Hundred is played by 4 players in two partnerships, not {n_seats}.")
    holding = tuple(int(c) for c in holding)
    if "contract" in context:
        for key in ("auction", "later"):
            if key in context:
                raise ValueError(
                    f"context {key} belongs to the bid and contract to the kitty discard: give one of them, not both."
                )
        return _discard_situation(rules, position, holding, context, infer)
    return _bid_situation(rules, position, holding, context, infer)


# ------------------------------------------------------------------------ the kernel
@njit(cache=True, inline="always")
def _advised_nb(table, seat, values, c, bid):
    """The advised seat's outcomes of the hand of candidate ``c`` into ``values[c]``: its
    side's points less the other side's, its side's points, then (bid) whether it won the
    auction, whether it made its contract, its tricks (module docstring; ``win`` apart)."""
    hand = table.hand
    values[c, 0] = hand.points[seat % 2] - hand.points[1 - seat % 2]
    values[c, 1] = hand.points[seat % 2]
    mine = hand.contractor == seat
    at = 2
    if bid:
        values[c, at] = np.int64(mine)
        at += 1
    values[c, at] = np.int64(mine and hand.made == 1)
    values[c, at + 1] = table.seats.tricks[seat]


@njit(cache=True, _nrt=False)
def _finish_nb(rules, policy, table, kitty, dealer, scores, forced):
    """The hand after the auction, as play_hand_nb plays it: the kitty (its discard
    forced where ``forced`` is a mask), the play and the settlement at ``scores``."""
    kitty_nb(rules, policy, table, kitty, forced)
    layout_nb(rules, table, kitty)
    tricks_nb(rules, table, dealer, False)
    settle_nb(rules, table, dealer, scores)


@njit(cache=True, _nrt=False)
def _bid_nb(rules, policy, table, kitty, dealer, scores, script, state):
    """One candidate call (``script``, kernel.auction_nb): the auction (mixed table cells
    drawing from ``state``, the stream after the deal), then the hand as play_hand_nb
    plays it.  False when a call given in the context is not the one its seat's policy
    makes on this deal (infer policy)."""
    new_hand_nb(table, kitty)
    auction_nb(rules, policy, table, dealer, script, state, None)
    if table.hand.n_calls < 0:
        return False
    if table.hand.contract < 0:
        table.hand.all_pass = 1
        table.hand.made = -1
        if rules[R_ALL_PASS] != ALL_PASS_NO_TRUMPS:
            return True
    _finish_nb(rules, policy, table, kitty, dealer, scores, None)
    return True


@njit(cache=True, _nrt=False)
def _discard_nb(rules, policy, table, kitty, dealer, scores, seat, contract, forced):
    """One candidate discard: the seat holds ``contract`` (no auction), discards ``forced``."""
    new_hand_nb(table, kitty)
    table.hand.contract = contract
    table.hand.contractor = seat
    table.hand.n_calls = 0
    _finish_nb(rules, policy, table, kitty, dealer, scores, forced)


@njit(cache=True, _nrt=False)
def _candidate_nb(rules, policy, table, kitty, scores, script, known, c, actions, state):
    """Candidate ``c`` on the dealt table from the scores before the deal: its hand (False
    when the deal is rejected)."""
    seat = known[K_SEAT]
    scores[seat % 2] = known[K_SCORE]
    scores[1 - seat % 2] = known[K_OPPONENT]
    if known[K_DECISION] == BID:
        script[S_FORCED] = known[actions + c]
        return _bid_nb(rules, policy, table, kitty, known[K_DEALER], scores, script, state)
    forced = np.uint64(known[actions + c])
    _discard_nb(rules, policy, table, kitty, known[K_DEALER], scores, seat, known[K_CONTRACT], forced)
    return True


@njit(cache=True, _nrt=False)
def _deals_nb(rules, policy, tables, scores, out, values, known, deal, script, hands, seed, first, count):
    """The loop over deals of advise_nb, on its scratch (allocating nothing, so compiled
    without NRT): ``deal`` holds the pack in code order, the fixed cards, the draw
    scratch and the cards dealt (rows 0..3), ``script`` the auction's (kernel.auction_nb).
    With the scores given, after each candidate's hand the rest of the game is played
    (kernel.play_on_nb) from the stream's state after the deal, the same for every
    candidate, and ``win`` is its last outcome."""
    table = tables[0]  # the record lives in ``tables``, which the caller holds
    size = PACK_SIZES[rules[R_DECK]]
    n_candidates, n_outcomes = values.shape
    actions = K_FIXED + size + known[K_GIVEN]  # where the candidates' actions begin
    seat = known[K_SEAT]
    dealer = known[K_DEALER]
    seed_key = seed_key_nb(seed)
    for i in range(first, first + count):
        out[TRIED] += 1
        state = deal_conditioned_nb(deal[2], deal[0, :size], deal[3], deal[1, :size], stream_nb(seed_key, i))
        kitty, _ = deal_nb(rules, deal[3], dealer, False, state, table.hands, table.dealt)
        for s in range(PLAYERS):
            hands[s] = table.hands[s]
        accepted = True
        for c in range(n_candidates):
            for s in range(PLAYERS):
                table.hands[s] = hands[s]
            if not _candidate_nb(rules, policy, table, kitty, scores, script, known, c, actions, state):
                accepted = False  # the context's calls do not follow on this deal
                break
            _advised_nb(table, seat, values, c, known[K_DECISION] == BID)
            if known[K_GAME] != 0:
                winner = table.hand.winner
                if winner < 0:
                    winner, _, _ = play_on_nb(rules, policy, table, scores, (dealer + 1) % PLAYERS, state, 1)
                values[c, n_outcomes - 1] = winner == seat % 2
        if accepted:
            record_deal_nb(out, values)


@njit(cache=True, nogil=True)
def advise_nb(rules, policy, n, seed, first, count, known, n_candidates, n_outcomes):
    """The flat sums (sims.core.advice) of deals ``first .. first+count-1`` of ``seed``
    for the situation ``known`` (module docstring): deal i from the stream (seed, i), the
    seat's cards fixed and the rest dealt (deal_conditioned_nb), then each candidate
    played on that deal.  Decisions draw nothing after the deal but a mixed table cell,
    which draws from the stream after the deal, the same for every candidate; each
    candidate replays the hand from the deal (the bid's auction from its first call); the
    rest of a game (scores given) draws from a copy of the stream's state after the deal."""
    out = np.zeros(advice_width(n_candidates, n_outcomes), dtype=np.int64)
    values = np.zeros((n_candidates, n_outcomes), dtype=np.int64)
    size = PACK_SIZES[rules[R_DECK]]
    deal = np.zeros((4, PACKS.shape[1]), dtype=np.int64)
    deal[0, :size] = PACKS[rules[R_DECK], :size]
    deal[1, :size] = known[K_FIXED : K_FIXED + size]
    n_given = known[K_GIVEN]
    script = np.zeros(S_CALLS + n_given, dtype=np.int64)
    script[S_SEAT] = known[K_SEAT]
    script[S_GIVEN] = n_given
    script[S_SEEN] = known[K_SEEN]
    script[S_LATER] = known[K_LATER]
    script[S_CALLS:] = known[K_FIXED + size : K_FIXED + size + n_given]
    tables = new_tables_nb()
    scores = np.zeros(2, dtype=np.int64)
    hands = np.zeros(PLAYERS, dtype=np.uint64)
    _deals_nb(rules, policy, tables, scores, out, values, known, deal, script, hands, seed, first, count)
    return out
