"""Fan Tan's advice (``analyze advise fan-tan``): which card to play.

The decision
  play: at the advised seat's turn, which of its playable cards to play (the rules'
  only decision, ../shared/rules/fan-tan.md 7.5).  Candidates: ``play <card>`` for each
  card of the holding that is legal on the layout, in code order (clubs A..K, then
  diamonds, hearts, spades; at most 8 cards are ever legal at once), then ``pass`` when
  may_pass_when_able is on and a voluntary pass is allowed (the last n-1 turns were not
  all passes): a pass when able, at Hoyle's penalties.  A seat with one legal card (and
  no voluntary pass) or none has no decision: refused.

Context (what the player has seen: the whole record of plays and passes, public)
  plays: the turns of the hand so far, in order from its first turn, each a card (the
    card played, as ``replay`` names it: ``7c``), ``pass`` (a seat that could not play)
    or ``hold`` (with may_pass_when_able: a seat that passed while able to play; its
    penalty payments made it public).  The turn order is the table's: under
    start=eldest the first turn is seat 0's (the dealer is seat n-1); under
    start=holder-7d/7h the first turn is the opening seven, played by ``opener``, and
    the turns go on from its left.  The turn after the last listed one must be the
    advised seat's (``--position``).  Omitted: no turn has been taken (the advised seat
    is the first to play, seat 0 under start=eldest).  From the record follow the
    layout, every seat's cards left and the passes.
  opener: under start=holder-7d/7h (and only there), the seat that held and opened with
    that seven (a number 0..n-1).
  Together they are every public action before the decision: each turn's card, pass or
  hold.  (Reading: the Hoyle penalties a hold pays to the holders of the 6 and 8 next to
  its sevens are public too, and show who holds those cards; they are not asked, and the
  deals are not conditioned on them.)
  Left out (Decision.absent; Situation.assumed names it when a question leaves it out):
  plays, no turn has been taken yet; opener is required under the holder starts.
  Situation.described gives the context as understood: plays (as read), opener, each
  seat's cards left (cards_left, seat order) and the layout.

The holding is the advised seat's cards now: its dealt cards less the cards it has
played in the record, so their number follows (the first 52 mod n seats from seat 0 are
dealt one card more).

How deals are conditioned
  Each seat's known cards are fixed in its dealt hand: for the advised seat its holding
  and the cards it played; for every other seat the cards it played.  They take the
  seat's earliest positions in the deal (draw k goes to seat k mod n), in code order;
  the other cards are dealt uniformly from the rest of the pack
  (:func:`sims.core.advice.deal_conditioned_nb`, on the hand's stream ``(seed, i)``).
  The deal is then played from its start: antes, opening, and each listed turn, the
  advised seat's own turns taking the actions listed (whatever its policy), every other
  seat's under its policy (random styles drawing from the stream as in a hand).  A deal
  is kept only when every other seat's turn is the one listed (the same card, a pass, a
  hold): exact conditioning by rejection, which is where the information in a pass (the
  passer held none of the cards then playable) and in the others' policies comes in.
  At the decision each candidate continues from a copy of the same deal state and
  stream state, and everybody, the advised seat included, plays on under the policies
  to the end of the hand.

  infer (sims.core.advice.INFER) says how the record is read.  ``policy`` (the default)
  is the conditioning above.  ``seen`` takes every listed turn as listed, the other
  seats' too (whatever their policies would play; a random style draws nothing there),
  so their cards are dealt uniformly among the deals consistent with what was visible:
  the cards they played are theirs (fixed), and a deal is rejected only where a listed
  ``pass`` finds the seat holding a legal card (a pass is forced, so it shows the seat
  had none) or a listed ``hold`` finds it holding none.  A history the policies would not
  play (a seat of style first playing a legal card while it holds one lower in code
  order) is answered under seen and rejected under policy.

Readings where the rules file is silent
  * Other seats' voluntary passes happen only under their policies (pass_with_sevens),
    so a ``hold`` by a seat whose policy never holds accepts no deal (ACCEPTED 0).
  * The advised seat may hold (in the record, or as the ``pass`` candidate) whatever its
    playable cards, as the rule allows, not only with sevens as the policy does; its
    penalties are the kernel's (3 chips, and 5 to the other holder of each 6 and 8 of a
    seven in its hand).
  * Refused as impossible before any deal: a card listed that is not playable then, a
    forced pass by a seat that plays later a card it could have played then, n forced
    passes in a row, a listed seat emptying its hand, a hold after n-1 passes in a row,
    and the advised seat's own pass (hold) when it could (could not) play.

Outcomes (the advised seat's, for the whole hand: antes and fees before the decision
  included, as ``analyze fan-tan`` counts a hand; TERMS defines them for ``analyze rules``)
  chips settlements (pot-plus-cards, pot-only): ``net`` (chips won, the headline),
    ``win`` (1 when it goes out first) and ``cards_left``;
  card-count-score (no chips): ``cards_left`` (the headline, lower is better) and ``win``.
  Situation.largest bounds them (:func:`largest_outcome`): every chip paid in the deal at
  the rules' stakes (at most 34,748 at 8 players and the largest accepted stakes, so one
  deal's square is far below 2**62), or 52 cards.
"""

from __future__ import annotations

import numpy as np

from sims.core.advice import (
    TRIED,
    Decision,
    Situation,
    advice_width,
    context_int,
    deal_conditioned_nb,
    record_deal_nb,
    unknown_context,
)
from sims.core.cards import card_code, card_name
from sims.core.deck import N_CARDS
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.games.fan_tan.kernel import (
    BIT_OF_CODE,
    MAX_PLAYERS,
    NOT_FORCED,
    PASS,
    VOLUNTARY_PASS,
    _antes_nb,
    _deal_nb,
    _opening_nb,
    _policy_turns_nb,
    _settle_nb,
    _turn_nb,
    legal_cards_nb,
    new_table_nb,
    rule_amounts_nb,
    rule_codes_nb,
)
from sims.games.fan_tan.rules import (
    HOYLE_HOLDER_PENALTY,
    HOYLE_PASS_PENALTY,
    SETTLE_CARD_COUNT,
    START_ELDEST,
    START_HOLDER_7D,
    Rules,
    hand_sizes,
)

# The situation's ``known`` array: a header, then the holding's codes, the record's
# entries (a card code, PASS or VOLUNTARY_PASS) and the candidates (a card code, or PASS
# for a voluntary pass).
K_POSITION, K_FIRST_SEAT, K_HOLDING, K_RECORD, K_CANDIDATES, K_SEEN = range(6)
K_HEADER = 6
HOLD = VOLUNTARY_PASS  # the record's entry of a voluntary pass
SEVEN, SIX, EIGHT = 6, 5, 7  # faces

DECISIONS = (
    Decision(
        name="play",
        help="which legal card to play at the seat's turn (with may_pass_when_able: or to pass)",
        context={
            "plays": "the turns so far from the hand's first, each a card played (7c), pass (could not play) or "
            "hold (passed when able, with may_pass_when_able): '7c pass 8c'; the next turn is the seat's own",
            "opener": "with start holder-7d or holder-7h: the seat that opened with that seven (the plays begin "
            "with it)",
        },
        example='analyze advise fan-tan --players 4 --position 2 --holding "7d 7h 8c 9c 2d 5h 6h Jh Qs 3s 4c Kd '
        '10s" --context plays="7c pass"',
        absent={
            "plays": "no turn has been taken yet: the advised seat has the hand's first turn (seat 0 under "
            "start eldest)",
            "opener": "required under start holder-7d or holder-7h; not used under start eldest",
        },
    ),
)

TERMS = {
    "net": "chips the advised seat receives this hand minus chips it pays (antes, pass fees, penalties and "
    "card fees included): the winner takes the pot.",
    "win": "1 when the advised seat is the first to play its last card (it goes out and wins the hand); else 0.",
    "cards_left": "cards the advised seat still holds when someone goes out (0 when it goes out itself); under "
    "card-count-score it is the score, and lower is better.",
    "layout": "the cards on the table: the sevens, and in each suit a row running down from its seven and up "
    "from it, one card at a time.",
    "pass": "a turn without a card: forced when the seat holds no legal card (it pays pass_fee); public.",
    "hold": "a voluntary pass by a seat that could play (may_pass_when_able), paying Hoyle's penalties: 3 "
    "chips, and 5 to the holder of each 6 and 8 next to a seven it holds; public.",
    "style": "how a seat chooses among its legal cards: first (lowest in code order: clubs A..K, diamonds, "
    "hearts, spades), random, hold-sevens (a seven only when nothing else is legal), block (keeps back 6s "
    "and 8s), greedy-unlock (the card that makes most of its own cards legal).",
    "pass_with_sevens": "with may_pass_when_able: 1 holds (passes) whenever every legal card in hand is a seven.",
    "infer": "policy: the deals are kept only where the other seats' policies play what the record says; seen: "
    "their turns are taken as listed, and their hidden cards are dealt at random among the deals where each "
    "listed pass could not play and each hold could.",
}


# ----------------------------------------------------------------------------------------
# The situation (Python): parse, check, list the candidates


def _outcomes(rules: Rules) -> tuple[tuple[str, ...], bool]:
    """The advised seat's outcomes under these rules and whether lower is better."""
    if int(rules.settle) == SETTLE_CARD_COUNT:
        return ("cards_left", "win"), True
    return ("net", "win", "cards_left"), False


def _legal(layout: set, eight_before_six: bool) -> set:
    """The card codes that may be added to ``layout`` (codes on the table)."""
    legal = set()
    for suit in range(4):
        base = 13 * suit
        if base + SEVEN not in layout:
            legal.add(base + SEVEN)
            continue
        low, high = SEVEN, SEVEN
        while low > 0 and base + low - 1 in layout:
            low -= 1
        while high < 12 and base + high + 1 in layout:
            high += 1
        if high < 12:
            legal.add(base + high + 1)
        if low > 0 and not (eight_before_six and low - 1 == SIX and base + EIGHT not in layout):
            legal.add(base + low - 1)
    return legal


def _record(text: str) -> list[int]:
    """The entries of the ``plays`` context: card codes, PASS, HOLD."""
    entries = []
    for token in str(text).replace(",", " ").split():
        word = token.lower()
        if word in ("pass", "-"):
            entries.append(PASS)
        elif word == "hold":
            entries.append(HOLD)
        else:
            try:
                entries.append(card_code(token))
            except ValueError as problem:
                raise ValueError(f"context plays: {problem}") from None
    return entries


def _first_seat(rules: Rules, n_seats: int, record: list[int], context: dict) -> int:
    """The seat of the record's first turn (checking ``opener`` against the start rule)."""
    start = int(rules.start)
    if start == START_ELDEST:
        if "opener" in context:
            raise ValueError("context opener is only for the holder-7d and holder-7h starts.")
        return 0
    seven = 13 * (1 if start == START_HOLDER_7D else 2) + SEVEN
    if "opener" not in context:
        raise ValueError(f"under the {card_name(seven)} start give the seat that opened: --context opener=SEAT.")
    opener = context_int("opener", context["opener"], 0, n_seats - 1)
    if not record or record[0] != seven:
        raise ValueError(f"under the {card_name(seven)} start the plays begin with the opening {card_name(seven)}.")
    return opener


def _turn_text(t: int, seat: int) -> str:
    return f"turn {t + 1} (seat {seat})"


def _check_play(rules, t, seat, card, layout):
    """A listed play: legal on the layout."""
    if card not in _legal(layout, bool(rules.eight_before_six)):
        raise ValueError(f"context plays: {card_name(card)} is not playable at {_turn_text(t, seat)}.")


def _check_pass(rules, n_seats, t, seat, entry, legal, streak, position, held):
    """A listed pass or hold: a hold needs may_pass_when_able and fewer than n-1 passes
    just before; the advised seat's own must fit its hand then."""
    if entry == HOLD:
        if not rules.may_pass_when_able:
            raise ValueError("context plays: hold (a pass when able to play) needs the rule may_pass_when_able.")
        if streak >= n_seats - 1:
            raise ValueError(
                f"context plays: nobody may hold after {n_seats - 1} passes in a row ({_turn_text(t, seat)})."
            )
    if seat == position:
        able = sorted(legal & held)
        if entry == PASS and able:
            raise ValueError(
                f"context plays: seat {seat} could play {card_name(able[0])} at {_turn_text(t, seat)}, "
                "so that was a hold, not a pass."
            )
        if entry == HOLD and not able:
            raise ValueError(
                f"context plays: seat {seat} could not play at {_turn_text(t, seat)}, so it passed rather than held."
            )


def _replay(rules: Rules, n_seats: int, position: int, holding: tuple, record: list, first: int):
    """Follow the record: check each turn and return (layout, streak, the advised seat's
    dealt cards, the seat to play next)."""
    sizes = hand_sizes(n_seats)
    left = list(sizes)
    played_by = [set() for _ in range(n_seats)]
    for t, entry in enumerate(record):
        if entry >= 0:
            played_by[(first + t) % n_seats].add(entry)
    on_table = sorted(set(holding) & set(e for e in record if e >= 0))
    if on_table:
        raise ValueError(f"the holding has {card_name(on_table[0])}, which the plays put on the table.")
    dealt_here = set(holding) | played_by[position]
    if len(holding) != sizes[position] - len(played_by[position]):
        raise ValueError(
            f"seat {position} holds {sizes[position] - len(played_by[position])} cards at this turn "
            f"({sizes[position]} dealt, {len(played_by[position])} played), not {len(holding)}."
        )
    held = set(dealt_here)
    layout, streak, forced_run, passed = set(), 0, 0, []
    for t, entry in enumerate(record):
        seat = (first + t) % n_seats
        legal = _legal(layout, bool(rules.eight_before_six))
        if entry >= 0:
            _check_play(rules, t, seat, entry, layout)
            for passer, cards, when in passed:
                if passer == seat and entry in cards:
                    raise ValueError(
                        f"context plays: seat {seat} passed at turn {when + 1} while {card_name(entry)}, "
                        "which it played later, was playable."
                    )
            layout.add(entry)
            held.discard(entry)
            streak = forced_run = 0
            left[seat] -= 1
            if left[seat] == 0:
                raise ValueError(f"context plays: the hand is over, seat {seat} played its last card at turn {t + 1}.")
        else:
            _check_pass(rules, n_seats, t, seat, entry, legal, streak, position, held)
            forced_run = forced_run + 1 if entry == PASS else 0  # forced passes in a row
            if entry == PASS:
                passed.append((seat, legal, t))
                if forced_run == n_seats:
                    raise ValueError(
                        f"context plays: {n_seats} seats cannot all be unable to play in a row (turn {t + 1}): "
                        "someone holds each playable card."
                    )
            streak += 1
    return layout, streak, dealt_here, (first + len(record)) % n_seats


def situation(
    rules: Rules, n_seats: int, position: int, holding: tuple, context: dict, infer: str = "policy"
) -> Situation:
    """The advised seat's next play (module docstring); ``ValueError`` with one sentence
    for a holding or context that is malformed, contradictory or impossible."""
    unknown_context(DECISIONS, context)
    for card in holding:
        if not 0 <= int(card) < N_CARDS:
            raise ValueError(f"{card} is not a card of Fan Tan's 52-card pack.")
    record = _record(context.get("plays", ""))
    first = _first_seat(rules, n_seats, record, context)
    layout, streak, _, next_seat = _replay(rules, n_seats, position, tuple(holding), record, first)
    if next_seat != position:
        before = "after these plays" if record else "with no plays given (--context plays=...)"
        raise ValueError(f"{before} it is seat {next_seat}'s turn, not seat {position}'s.")
    playable = sorted(_legal(layout, bool(rules.eight_before_six)) & set(holding))
    actions = list(playable)
    if playable and rules.may_pass_when_able and streak < n_seats - 1:
        actions.append(PASS)
    if len(actions) < 2:
        if playable:
            raise ValueError(f"seat {position} has no choice to make: its only legal card is {card_name(playable[0])}.")
        raise ValueError(f"seat {position} has no choice to make: it holds no legal card and must pass.")
    outcomes, lower = _outcomes(rules)
    names = {PASS: "pass", HOLD: "hold"}
    described: dict[str, object] = {"plays": " ".join(names[e] if e < 0 else card_name(e) for e in record) or "none"}
    assumed: dict[str, str] = {}
    if "plays" not in context:
        assumed["plays"] = "no turn has been taken yet: you have the hand's first turn"
    if "opener" in context:
        described["opener"] = first
    left = list(hand_sizes(n_seats))
    for t, entry in enumerate(record):
        if entry >= 0:
            left[(first + t) % n_seats] -= 1
    described["cards_left"] = " ".join(map(str, left))
    described["layout"] = " ".join(card_name(c) for c in sorted(layout))
    known = [position, first, len(holding), len(record), len(actions), int(infer == "seen")]
    known += [*holding, *record, *actions]
    return Situation(
        decision="play",
        candidates=tuple("pass" if a == PASS else f"play {card_name(a)}" for a in actions),
        outcomes=outcomes,
        known=np.asarray(known, dtype=np.int64),
        lower_is_better=lower,
        described=described,
        assumed=assumed,
        infer=infer,
        smaller=("cards_left",),  # a player wants few cards left under every settlement
        largest=largest_outcome(rules, n_seats),
    )


def largest_outcome(rules: Rules, n_seats: int) -> int:
    """A bound on the size of any outcome of one deal for the advised seat, in chips or
    cards (``Situation.largest``).  No seat's net exceeds the chips all seats pay in the
    deal: the antes (ante + 1 at most), a fee for every pass, at most 52 (2n - 1) turns
    (kernel MAX_TURNS: at most 2n - 2 passes before each of the 52 cards), each paying
    pass_fee or, holding back (may_pass_when_able), Hoyle's 3 and 5 to the two holders of
    the neighbours of each of 4 sevens at most, and card_fee on each of the 52 cards at the
    end.  Cards left are at most 52, win 1."""
    n = int(n_seats)
    if int(rules.settle) == SETTLE_CARD_COUNT:
        return N_CARDS
    per_pass = int(rules.pass_fee)
    if rules.may_pass_when_able:
        per_pass = max(per_pass, HOYLE_PASS_PENALTY + 8 * HOYLE_HOLDER_PENALTY)
    chips = n * (int(rules.ante) + 1) + N_CARDS * (2 * n - 1) * per_pass + N_CARDS * int(rules.card_fee)
    return max(chips, N_CARDS)


# ----------------------------------------------------------------------------------------
# The kernel


@njit(cache=True)
def _setup_nb(known, n, fixed, record, candidates):
    """Read ``known`` into ``fixed`` (the deal's 52 positions: a card's bit or -1), the
    record and the candidates (bits, PASS or VOLUNTARY_PASS).  Each seat's known cards
    take its earliest deal positions in code order (module docstring).  Returns the
    advised seat."""
    position, first = known[K_POSITION], known[K_FIRST_SEAT]
    n_holding, n_record, n_candidates = known[K_HOLDING], known[K_RECORD], known[K_CANDIDATES]
    masks = np.zeros(MAX_PLAYERS, dtype=np.uint64)
    at = K_HEADER
    for k in range(n_holding):
        masks[position] |= np.uint64(1) << np.uint64(BIT_OF_CODE[known[at + k]])
    at += n_holding
    for t in range(n_record):
        entry = known[at + t]
        record[t] = BIT_OF_CODE[entry] if entry >= 0 else entry
        if entry >= 0:
            masks[(first + t) % n] |= np.uint64(1) << np.uint64(BIT_OF_CODE[entry])
    at += n_record
    for c in range(n_candidates):
        entry = known[at + c]
        candidates[c] = BIT_OF_CODE[entry] if entry >= 0 else entry
    for k in range(N_CARDS):
        fixed[k] = -1
    for seat in range(n):
        k = seat  # draw k goes to seat k mod n (the dealer is seat n-1)
        rest = masks[seat]
        while rest:
            low = rest & (np.uint64(0) - rest)
            bit = 0
            while (np.uint64(1) << np.uint64(bit)) != low:
                bit += 1
            fixed[k] = bit
            k += n
            rest ^= low
    return position


@njit(cache=True, inline="always")
def _replay_nb(
    table, n, seat, layout, turns, pot, record, n_record, position, seen, may_pass, ebs, chips, pass_fee, state
):
    """Play the listed turns from ``turns`` on: the advised seat's forced to the listed
    action, the others' under their policies (``seen``: forced to the listed action too,
    a pass or hold then being whichever the seat's hand makes it).  Returns ``(kept,
    seat, layout, turns, pot, passes in a row, state)``; not kept as soon as another
    seat's turn differs (under ``seen``: a listed pass by a seat that could play, or a
    hold by one that could not)."""
    legal = legal_cards_nb(layout, ebs)
    streak = 0
    while turns < n_record:
        forced = record[turns] if seat == position or seen else NOT_FORCED
        hand, layout, legal, streak, pot, logged, state = _turn_nb(
            table, n, seat, layout, legal, streak, pot, may_pass, ebs, chips, pass_fee, state, forced
        )
        if logged != record[turns] or not hand:
            return False, seat, layout, turns, pot, streak, state
        turns += 1
        seat = seat + 1 if seat + 1 < n else 0
    return True, seat, layout, turns, pot, streak, state


@njit(cache=True, inline="always")
def _candidate_nb(table, n, seat, layout, turns, pot, streak, action, codes, amounts, state):
    """The advised seat (``seat``) takes ``action``, then everyone plays on under the
    policies; the deal is settled."""
    uneven, start, settle, may_pass, ebs = codes
    ante, pass_fee, card_fee = amounts
    chips = settle != SETTLE_CARD_COUNT
    ebs = ebs != 0
    legal = legal_cards_nb(layout, ebs)
    hand, layout, legal, streak, pot, logged, state = _turn_nb(
        table, n, seat, layout, legal, streak, pot, may_pass != 0, ebs, chips, pass_fee, state, action
    )
    turns += 1
    winner = seat
    if hand:
        nxt = seat + 1 if seat + 1 < n else 0
        winner, turns, pot, state = _policy_turns_nb(
            table, n, nxt, layout, turns, pot, True, may_pass != 0, ebs, chips, pass_fee, state, streak
        )
    _settle_nb(table, n, winner, turns, pot, chips, False, settle, pass_fee, card_fee)
    return winner


@njit(cache=True, inline="always")
def _save_nb(table, n, saved, back):
    """Copy the per-seat state (hands, paid, received, passes) into ``saved`` (``back``
    false) or back from it."""
    for seat in range(n):
        if back:
            table.hands[seat] = np.uint64(saved[0, seat])
            table.paid[seat] = saved[1, seat]
            table.received[seat] = saved[2, seat]
            table.passes[seat] = saved[3, seat]
        else:
            saved[0, seat] = np.int64(table.hands[seat])
            saved[1, seat] = table.paid[seat]
            saved[2, seat] = table.received[seat]
            saved[3, seat] = table.passes[seat]


@njit(cache=True, inline="always")
def _values_nb(table, values, c, position, winner, card_count):
    """The advised seat's outcomes of candidate ``c`` (module docstring's order)."""
    left = table.cards_left[position]
    win = 1 if winner == position else 0
    if card_count:
        values[c, 0] = left
        values[c, 1] = win
    else:
        values[c, 0] = table.received[position] - table.paid[position]
        values[c, 1] = win
        values[c, 2] = left


@njit(cache=True, nogil=True)
def _advise_deals_nb(
    tables, out, scratch, fixed, record, candidates, values, saved, n, seed, first, count, position, seen
):
    """The deals of :func:`advise_nb` into ``out`` (scratch arrays as it makes them).  The
    record ``tables[0]`` is used while the caller holds ``tables``: a record taken from an
    array that nothing holds any more would be read after the array is freed."""
    table = tables[0]
    n_record = record.shape[0]
    codes = rule_codes_nb(table.rules)
    amounts = rule_amounts_nb(table.rules)
    uneven, start, settle, may_pass, ebs = codes
    chips = settle != SETTLE_CARD_COUNT
    seed_key = seed_key_nb(seed)
    for deal in range(first, first + count):
        state = stream_nb(seed_key, deal)
        out[TRIED] += 1
        state = deal_conditioned_nb(scratch, BIT_OF_CODE, table.pack, fixed, state)
        state = _deal_nb(table, n, n - 1, False, state)
        pot = _antes_nb(table, n, uneven, amounts[0], chips)
        seat, layout, turns = _opening_nb(table, n, n - 1, start, True)
        kept, seat, layout, turns, pot, streak, state = _replay_nb(
            table,
            n,
            seat,
            layout,
            turns,
            pot,
            record,
            n_record,
            position,
            seen,
            may_pass != 0,
            ebs != 0,
            chips,
            amounts[1],
            state,
        )
        if not kept:
            continue
        _save_nb(table, n, saved, False)
        for c in range(candidates.shape[0]):
            _save_nb(table, n, saved, True)
            winner = _candidate_nb(table, n, seat, layout, turns, pot, streak, candidates[c], codes, amounts, state)
            _values_nb(table, values, c, position, winner, not chips)
        record_deal_nb(out, values)


@njit(cache=True, nogil=True)
def advise_nb(rules, policy, n, seed, first, count, known, n_candidates, n_outcomes):
    """The flat advice sums (sims.core.advice) of deals ``first .. first+count-1``."""
    out = np.zeros(advice_width(n_candidates, n_outcomes), dtype=np.int64)
    tables = new_table_nb(rules, policy, n)
    fixed = np.empty(N_CARDS, dtype=np.int64)
    scratch = np.empty(N_CARDS, dtype=np.int64)
    record = np.empty(known[K_RECORD], dtype=np.int64)
    candidates = np.empty(n_candidates, dtype=np.int64)
    values = np.zeros((n_candidates, n_outcomes), dtype=np.int64)
    saved = np.zeros((4, MAX_PLAYERS), dtype=np.int64)
    position = _setup_nb(known, n, fixed, record, candidates)
    seen = known[K_SEEN] != 0
    _advise_deals_nb(
        tables, out, scratch, fixed, record, candidates, values, saved, n, seed, first, count, position, seen
    )
    return out
