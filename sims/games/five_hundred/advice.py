"""Five Hundred's advice (``analyze advise five-hundred``): the bid at the seat's turn and
the contractor's kitty discard, every candidate played on the same deals of the unseen
cards (:mod:`sims.core.advice`).

The table is hand mode's: four seats, the dealer in seat 3 (seat 0 is the eldest hand),
scores from 0-0.  The advised seat is ``--position``; its ``--holding`` is in the card
notation ``replay`` prints (the joker is card code 52, ``Jo`` in replay, and the black
joker 53, ``BJ``; :func:`holding_cards` parses both, see "Notation" below).

Decisions (which one follows from the context)

  bid (no ``contract`` in the context): the seat's next call in the auction.
    holding: its 10 dealt cards.
    context ``auction`` (optional): the calls made so far in this auction, in the order
      they were made, from the eldest hand (seat 0) clockwise, seats that have passed
      being skipped, as the rules file's decision table allows the bidder (the full
      auction so far is public); calls are ``pass`` (or ``p``, ``-``), ``6S`` ..
      ``10NT`` (tricks and S, C, D, H or NT, any case), ``MIS`` (or ``misere``) and
      ``OM`` (or ``open-misere``), separated by spaces or commas.  Absent or empty: no
      call yet, so the seat must be the eldest hand.  The calls must be a legal auction
      under the table's rules that has not ended, after which it is the advised seat's
      turn to call (seats that have passed never call again).
    candidates: ``pass`` and every bid the seat may make: each trick bid that outranks
      the current bid, misere and open misere where the rules allow them at that point
      (allow_misere, their place on the ladder, misere_needs_7, open_misere_anytime), in
      ladder order (at most 28: fewer than MAX_CANDIDATES).
    conditioning: the seat's 10 cards are fixed at its places in the deal, every other
      card is dealt uniformly from the rest of the pack (the other hands and the kitty).
      The deal is played forward from the start of the auction: every call in the
      context made by another seat must be the call that seat's policy makes on that
      deal, else the deal is rejected (exact conditioning by rejection); the advised
      seat's own earlier calls in the context are its own, so they are made as given
      (forced, never checked against its policy).  At the seat's turn its call is forced
      to the candidate; after it everyone, the advised seat included, follows its policy
      to the end of the hand (the rest of the auction, the kitty, the play).
    outcomes: ``net`` (the headline: the points the seat's side scores in the hand less
      the points the other side scores, since both sides race to the same target: a pass
      that lets the opponents make their contract costs what they score), ``score`` (the
      seat's side's points alone, hand mode's score, from 0-0 with points for tricks
      capped as hand mode caps them; an all-pass hand thrown in scores 0), ``contractor`` (1 when the seat wins the
      auction), ``made`` (1 when the seat is the contractor and makes its contract, so
      its mean is the rate of contracts won and made), ``tricks`` (tricks the seat
      itself wins, hand mode's tricks; a misere partner's 0).

  discard (``contract`` in the context): the contractor's kitty discard.
    holding: its 10 dealt cards and the kitty: 13 cards (15 with the 45-card pack, 16
      with the 46-card pack).
    context ``contract`` (required for this decision): the contract the seat has won,
      ``6S`` .. ``10NT``, ``MIS`` or ``OM`` as above.  The rules file's decision table
      gives the discarding contractor its 13 cards and the contract only, so the auction
      is not read here (reading: the other hands are dealt as if nothing were known of
      them, which ignores what the auction told the table about them).
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
    outcomes: ``net``, ``score``, ``made`` and ``tricks`` as for the bid.

Not asked here: the joker nomination, the suit named for a joker led, card play.

Notation: the holding's cards are those of the table's pack (deck 43 has no 2s or 3s and
no black 4s).  ``sims.core.cards.parse_cards`` has no joker; :func:`holding_cards` is
this game's parser (``Jo``/``joker`` and ``BJ``/``black-joker`` added) for a caller that
wants the joker in a holding.

The known array (``Situation.known``, int64), read by :func:`advise_nb` and
:func:`sims.games.five_hundred.twin.advise`: [decision (0 bid, 1 discard), the seat, the
dealer (3), the contract (discard; -1 for a bid), k = the number of calls given (bid; 0
for a discard)], then P entries: the fixed card of each deal position in draw order (10
to seat 0, ..., 10 to seat 3, then the kitty; -1 where the card is dealt at random),
then the k given calls (a contract id, -1 a pass), then per candidate its action (bid:
the call, -1 a pass; discard: the discarded cards' mask over card codes).
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

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
from sims.core.rng import seed_key_nb, stream_nb
from sims.games.five_hundred.kernel import (
    PACK_SIZES,
    PACKS,
    R_ALL_PASS,
    R_DECK,
    auction_nb,
    deal_nb,
    kitty_nb,
    layout_nb,
    new_hand_nb,
    new_tables_nb,
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
    Rules,
    contract_name,
    ladder_position,
)

BID, DISCARD = 0, 1  # the decisions' codes in the known array
K_DECISION, K_SEAT, K_DEALER, K_CONTRACT, K_GIVEN, K_FIXED = range(6)  # the known array's header
DEALER = PLAYERS - 1  # as in hand mode
CONSIDERED = 8  # discard candidates: combinations of the policy's 8 likeliest discards
BID_OUTCOMES = ("net", "score", "contractor", "made", "tricks")
DISCARD_OUTCOMES = ("net", "score", "made", "tricks")
PASS_WORDS = ("pass", "p", "-")

DECISIONS = (
    Decision(
        "bid",
        "the seat's next call in the auction: pass or each bid it may make, given the calls before it",
        {
            "auction": "the calls so far, from the eldest hand (seat 0) clockwise, passed seats skipped: "
            "pass, 6S .. 10NT, MIS, OM (e.g. 'pass 7H'); none: the seat is the eldest hand",
        },
        'analyze advise five-hundred --players 4 --position 2 --holding "Jh Jd Ah Kh Qh 10h 9h As Kc 5d" '
        '--context auction="pass 6S" --hands 2000',
    ),
    Decision(
        "discard",
        "the contractor's kitty discard: which cards to throw away from its hand with the kitty",
        {"contract": "the contract the seat has won: 6S .. 10NT, MIS or OM (asks for the kitty discard)"},
        'analyze advise five-hundred --players 4 --position 0 --holding "Jh Jd Ah Kh Qh 10h 9h As Ks 5c 6c 7d 5s" '
        "--context contract=8H --hands 2000",
    ),
)


# ------------------------------------------------------------------------ notation
def holding_cards(text: str) -> list[int]:
    """Cards in the notation ``replay`` prints, jokers included (``Jo``, ``BJ``)."""
    jokers = {"jo": RED_JOKER, "joker": RED_JOKER, "bj": BLACK_JOKER, "black-joker": BLACK_JOKER}
    codes = []
    for token in str(text).replace(",", " ").split():
        codes.append(jokers[token.lower()] if token.lower() in jokers else parse_cards(token)[0])
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


def _bid_situation(rules: Rules, position: int, holding, context) -> Situation:
    _check_holding(rules, holding, HAND_SIZE, "the bid (the seat's 10 dealt cards)")
    text = str(context.get("auction", ""))
    calls = [_call(token, "auction") for token in text.replace(",", " ").split()]
    seat, current, level, _ = _replay_auction(rules, calls)
    if seat != position:
        raise ValueError(f"after that auction it is seat {seat}'s turn to call, not seat {position}'s.")
    mis, om = int(rules.misere_rank), int(rules.open_misere_rank)
    bids = [c for c in range(N_CONTRACTS) if _may_bid(rules, c, current, level)]
    bids.sort(key=lambda c: ladder_position(c, mis, om))
    candidates = [-1] + bids
    header = [BID, position, DEALER, -1, len(calls)]
    known = header + _fixed(rules, position, holding) + calls + candidates
    return Situation(
        decision="bid",
        candidates=tuple(_call_text(c) for c in candidates),
        outcomes=BID_OUTCOMES,
        known=np.asarray(known, dtype=np.int64),
        described={"auction": [_call_text(c) for c in calls]},
    )


def discard_order(rules: Rules, cards, contract: int) -> list[int]:
    """The contractor's cards (with the kitty) in the order its policy discards them
    (package docstring, Kitty discard), through the plain-Python twin."""
    from sims.games.five_hundred import twin

    hand = twin._Hand(rules, None, twin.pack_cards(int(rules.deck)), DEALER, contract, 0)
    return list(twin._discard(hand, sorted(int(c) for c in cards), len(cards)))


def _discard_situation(rules: Rules, position: int, holding, context) -> Situation:
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
    header = [DISCARD, position, DEALER, contract, 0]
    known = header + _fixed(rules, position, holding) + masks
    return Situation(
        decision="discard",
        candidates=tuple(labels),
        outcomes=DISCARD_OUTCOMES,
        known=np.asarray(known, dtype=np.int64),
        described={"contract": contract_name(contract)},
    )


def situation(rules: Rules, n_seats: int, position: int, holding, context, infer: str = "policy") -> Situation:
    """The seat's next decision (module docstring): the bid, or with ``contract`` in the
    context the kitty discard.  ``ValueError`` with one sentence for anything the rules,
    the table or the holding refuse."""
    unknown_context(DECISIONS, context)
    if n_seats != PLAYERS:
        raise ValueError(f"Five Hundred is played by 4 players in two partnerships, not {n_seats}.")
    holding = tuple(int(c) for c in holding)
    if "contract" in context:
        if "auction" in context:
            raise ValueError(
                "context auction belongs to the bid and contract to the kitty discard: give one of them, not both."
            )
        return _discard_situation(rules, position, holding, context)
    return _bid_situation(rules, position, holding, context)


# ------------------------------------------------------------------------ the kernel
@njit(cache=True, inline="always")
def _advised_nb(table, seat, values, c, n_outcomes):
    """The advised seat's outcomes of candidate ``c`` into ``values[c]``: its side's points
    less the other side's, its side's points, then (bid) whether it won the auction, whether it made its contract, its tricks;
    (discard) whether it made, its tricks."""
    hand = table.hand
    values[c, 0] = hand.points[seat % 2] - hand.points[1 - seat % 2]
    values[c, 1] = hand.points[seat % 2]
    mine = hand.contractor == seat
    made = np.int64(mine and hand.made == 1)
    tricks = table.seats.tricks[seat]
    if n_outcomes == len(BID_OUTCOMES):
        values[c, 2] = np.int64(mine)
        values[c, 3] = made
        values[c, 4] = tricks
    else:
        values[c, 2] = made
        values[c, 3] = tricks


@njit(cache=True, _nrt=False)
def _finish_nb(rules, policy, table, kitty, dealer, scores, forced):
    """The hand after the auction, as play_hand_nb plays it: the kitty (its discard
    forced where ``forced`` is a mask), the play and the score from 0-0."""
    scores[0] = 0
    scores[1] = 0
    kitty_nb(rules, policy, table, kitty, forced)
    layout_nb(rules, table, kitty)
    tricks_nb(rules, table, dealer, False)
    settle_nb(rules, table, dealer, scores)


@njit(cache=True, _nrt=False)
def _bid_nb(rules, policy, table, kitty, dealer, scores, script):
    """One candidate call (``script``, kernel.auction_nb): the auction, then the hand as
    play_hand_nb plays it.  False when a call given in the context is not the one its
    seat's policy makes on this deal."""
    new_hand_nb(table, kitty)
    auction_nb(rules, policy, table, dealer, script)
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
def _deals_nb(rules, policy, tables, scores, out, values, known, deal, script, hands, seed, first, count):
    """The loop over deals of advise_nb, on its scratch (allocating nothing, so compiled
    without NRT): ``deal`` holds the pack in code order, the fixed cards, the draw
    scratch and the cards dealt (rows 0..3), ``script`` the auction's (kernel.auction_nb)."""
    table = tables[0]  # the record lives in ``tables``, which the caller holds
    size = PACK_SIZES[rules[R_DECK]]
    n_candidates = values.shape[0]
    n_given = known[K_GIVEN]
    actions = K_FIXED + size + n_given  # where the candidates' actions begin
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
            if known[K_DECISION] == BID:
                script[2] = known[actions + c]
                if not _bid_nb(rules, policy, table, kitty, dealer, scores, script):
                    accepted = False  # the context's calls do not follow on this deal
                    break
            else:
                forced = np.uint64(known[actions + c])
                _discard_nb(rules, policy, table, kitty, dealer, scores, seat, known[K_CONTRACT], forced)
            _advised_nb(table, seat, values, c, values.shape[1])
        if accepted:
            record_deal_nb(out, values)


@njit(cache=True, nogil=True)
def advise_nb(rules, policy, n, seed, first, count, known, n_candidates, n_outcomes):
    """The flat sums (sims.core.advice) of deals ``first .. first+count-1`` of ``seed``
    for the situation ``known`` (module docstring): deal i from the stream (seed, i), the
    seat's cards fixed and the rest dealt (deal_conditioned_nb), then each candidate
    played on that deal.  Decisions draw nothing after the deal, so each candidate replays
    the hand from the deal (the bid's auction from its first call): the same as going on
    from a copy of the state at the decision."""
    out = np.zeros(advice_width(n_candidates, n_outcomes), dtype=np.int64)
    values = np.zeros((n_candidates, n_outcomes), dtype=np.int64)
    size = PACK_SIZES[rules[R_DECK]]
    deal = np.zeros((4, PACKS.shape[1]), dtype=np.int64)
    deal[0, :size] = PACKS[rules[R_DECK], :size]
    deal[1, :size] = known[K_FIXED : K_FIXED + size]
    n_given = known[K_GIVEN]
    script = np.zeros(3 + n_given, dtype=np.int64)
    script[0] = known[K_SEAT]
    script[1] = n_given
    script[3:] = known[K_FIXED + size : K_FIXED + size + n_given]
    tables = new_tables_nb()
    scores = np.zeros(2, dtype=np.int64)
    hands = np.zeros(PLAYERS, dtype=np.uint64)
    _deals_nb(rules, policy, tables, scores, out, values, known, deal, script, hands, seed, first, count)
    return out
