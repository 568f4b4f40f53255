"""Ace Chasing advice (``analyze advise ace-chasing``): a non-matador's KEEP or SWAP.

Seats are as in hand mode: seat ``p`` is position ``p`` of the round, seat 0 on the
matador's left, the matador in seat ``n-1``.  The matador makes no decision, so every
other seat has exactly one: at its turn in the swap chain, keep its card or swap it with
its left-hand neighbour.  Two decisions are named, by the advised seat:

* ``swap`` (seats 0 .. n-3): swap with the left-hand neighbour, a non-matador, or keep;
* ``matador_right`` (seat n-2, the matador's right): swap with the matador, handing it
  this card, or keep.  Whatever it does, it learns the matador's final card only after
  its decision, so nothing of that is context.

Candidates: ``keep`` and ``swap`` (in that order; candidate ``c`` asks to swap when
``c = 1``).  With the rule king_block a swap is a request: a neighbour holding a king
shows it and refuses, and the advice plays that as the rules do.

Holding: the one card the seat holds at its turn (after a swap from its right, the card
it received).

Context (each key optional; what is given is conditioned on, what is not stays unknown)
  ``swaps``: what the seats before it (0 .. p-1, in order) did, one word each, separated
      by spaces or commas: ``keep`` (or ``k``), ``swap`` (or ``s``), or, with king_block,
      the king a neighbour showed to refuse that seat's swap (``Kh``).  Either one entry
      for every earlier seat or none (seat 0 has none).  Without it the earlier choices
      are not conditioned on: the advice averages over every history in which the seat
      holds this card at its turn.
  ``gave``: the card the seat gave away when its right-hand neighbour (seat p-1) swapped
      with it (its dealt card; the holding is the card received).  Only when seat p-1
      swapped with it; with king_block never a king (the swap would have been refused).
  ``bets`` (betting on only): the agreed bets of every non-matador, seats 0 .. n-2 in
      order, including the seat's own, as whole numbers: +b against the matador, -b for it
      (bet_direction bettor-chooses only), 0 none.  Bets are public before the swaps.

How deals are conditioned
  The cards the context pins to a seat's DEALT card are fixed: with ``swaps`` given, the
  holding is the dealt card of the first seat of the run of swaps that ends with the
  advised seat (the seat itself when seat p-1 did not swap with it: a card passed along
  a run of swaps is the same card all the way), ``gave`` is the seat's own dealt card,
  and a king shown at seat q's refused swap is seat q+1's dealt card.  The rest of the
  pack is dealt uniformly (sims.core.advice.deal_conditioned_nb, positions 0 .. n-1).
  The bets and the swap chain up to the advised seat are then played under every seat's
  policy (the advised seat's own bet included), and the deal is kept only when every
  given earlier choice, every given bet, the card the seat holds at its turn and ``gave``
  match what happened (exact conditioning by rejection).  The swap chain draws nothing
  from the stream, so each candidate plays on from the same state: the advised seat's
  decision forced, the later seats under their policies, then the reveal.

Outcomes of the advised seat, per candidate (per accepted deal, whole numbers, scale 1)
  ``exposed`` (the headline, lower is better): 1 if the seat is exposed (eliminated) this
      round, as ``exposed`` in hand mode;
  ``knocked_out``: 1 if the matador is knocked out;
  ``bet_net`` (betting on only): units the seat wins on its bet, as hand mode's bet_net.

Where the rules file is silent (choices made here)
  * The advised seat's own bet is conditioned on like every other: it was made by the
    seat's policy on its dealt card, so a bet that policy would not make rejects every
    deal.
  * A refused swap (king_block) is public with the king shown, so it is given as that
    king, not as ``swap``; the king is pinned as the next seat's dealt card.
  * The outcomes are those of this round (hand mode), not of the whole game.
  * Tables below 4 players are played when asked for directly (the exact enumeration's
    test uses 3), though ``analyze`` starts the game at 4.

``known`` (int64, for the kernel and the twin): position, holding, gave (-1 none),
whether bets are given, then per position 0 .. n-1 its fixed dealt card (-1 dealt at
random), per seat 0 .. n-2 the given choice (-1 not given, 0 keep, 1 swap, 2 refused by
a king), per seat 0 .. n-2 the given bet.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.advice import (
    FIRST_SUM,
    TRIED,
    Decision,
    Situation,
    context_cards,
    deal_conditioned_nb,
    record_deal_nb,
    unknown_context,
)
from sims.core.cards import card_code, card_name
from sims.core.rng import seed_key_nb, stream_nb
from sims.games.ace_chasing.kernel import (
    _bet_result,
    _is_exposed,
    asks_swap_nb,
    new_table_nb,
    place_bets_nb,
    reveal_nb,
    rule_codes_nb,
    swap_chain_nb,
    swap_step_nb,
)
from sims.games.ace_chasing.rules import BET_BETTOR_CHOOSES, KING_RANK, Rules

CANDIDATES = ("keep", "swap")  # candidate c asks to swap when c == 1
KEEP, SWAP, REFUSED, NOT_GIVEN = 0, 1, 2, -1  # the given choices of earlier seats
# Offsets of ``known``: the header, then the per-position blocks (their sizes follow n).
K_POSITION, K_HOLDING, K_GAVE, K_HAS_BETS, K_HEADER = range(5)
MAX_BET = 1000  # the largest bet_size a policy may propose (POLICY_FIELDS)

_CONTEXT = {
    "swaps": "what each seat before yours did, in seat order: keep, swap, or the king that refused its swap "
    "(king_block), e.g. 'keep swap'",
    "gave": "the card you gave away when your right-hand neighbour swapped with you, e.g. 9c",
    "bets": "betting on: every non-matador's agreed bet in seat order, +b against the matador, -b for it, e.g. '0 1 0'",
}

DECISIONS = (
    Decision(
        "swap",
        "a seat before the matador's right: keep your card or swap it with your left-hand neighbour",
        _CONTEXT,
        'analyze advise ace-chasing --players 6 --position 2 --holding 5h --context "swaps=keep swap" '
        "--context gave=9c",
    ),
    Decision(
        "matador_right",
        "the seat on the matador's right: keep your card or swap it with the matador's",
        _CONTEXT,
        'analyze advise ace-chasing --players 4 --position 2 --holding 2d --context "swaps=keep keep"',
    ),
)


def known_layout(n: int) -> tuple[int, int, int]:
    """Where ``known`` holds, at a table of ``n``, the fixed dealt cards (one per
    position), the given choices and the given bets (one per seat 0 .. n-2 each)."""
    return K_HEADER, K_HEADER + n, K_HEADER + 2 * n - 1


def _words(text: str) -> list[str]:
    return str(text).replace(",", " ").split()


def _choices(text: str, p: int, king_block: bool) -> tuple[list[int], list[int]]:
    """The given choices of seats 0 .. p-1 and the king that refused each (-1 none)."""
    words = _words(text)
    if len(words) != p:
        raise ValueError(f"context swaps takes one choice for each of the {p} seats before seat {p}, not {len(words)}.")
    choices, kings = [], []
    for word in words:
        lower = word.lower()
        if lower in ("keep", "k", "swap", "s"):
            choices.append(KEEP if lower in ("keep", "k") else SWAP)
            kings.append(-1)
            continue
        try:
            card = card_code(word)
        except ValueError:
            raise ValueError(f"context swaps takes keep, swap or a refusing king, not '{word}'.") from None
        if card % 13 != KING_RANK:
            raise ValueError(f"context swaps: only a king refuses a swap, not {card_name(card)}.")
        if not king_block:
            raise ValueError("context swaps names a king refusing a swap, but king_block is off at this table.")
        choices.append(REFUSED)
        kings.append(card)
    return choices, kings


def _bets(text: str, rules: Rules, n: int) -> list[int]:
    if not rules.betting:
        raise ValueError("context bets needs betting on at this table.")
    words = _words(text)
    if len(words) != n - 1:
        raise ValueError(f"context bets takes one bet for each of the {n - 1} non-matadors, not {len(words)}.")
    bets = []
    for word in words:
        try:
            bet = int(word)
        except ValueError:
            raise ValueError(f"context bets takes whole numbers, not '{word}'.") from None
        if abs(bet) > MAX_BET:
            raise ValueError(f"context bets: a bet is at most {MAX_BET} units, not {bet}.")
        if bet < 0 and rules.bet_direction != BET_BETTOR_CHOOSES:
            raise ValueError("context bets: a bet for the matador (negative) needs bet_direction bettor-chooses.")
        bets.append(bet)
    return bets


def _fix(fixed: list[int], position: int, card: int) -> None:
    """Pin ``card`` as the dealt card of ``position``, refusing a contradiction."""
    if fixed[position] not in (-1, card) or (fixed[position] != card and card in fixed):
        raise ValueError(
            f"the context contradicts itself or the holding: {card_name(card)} cannot have been dealt to seat {position}."
        )
    fixed[position] = card


def situation(rules, n_seats: int, position: int, holding, context) -> Situation:
    """The KEEP/SWAP decision of seat ``position`` holding ``holding`` (one card code)
    after the ``context`` (see the module docstring); ``ValueError`` with one sentence
    for anything malformed, contradictory or impossible."""
    rules = Rules(*rules) if not isinstance(rules, Rules) else rules
    n, p = int(n_seats), int(position)
    unknown_context(DECISIONS, context)
    if p == n - 1:
        raise ValueError(f"the matador (seat {n - 1}) makes no decision in Ace Chasing; advise seats 0 to {n - 2}.")
    if not 0 <= p < n - 1:
        raise ValueError(f"--position takes a seat 0..{n - 2} at a table of {n}, not {p}.")
    if len(holding) != 1:
        raise ValueError(f"an Ace Chasing player holds one card, not {len(holding)}.")
    card = int(holding[0])
    if not 0 <= card < 52:
        raise ValueError(f"{card} is not a card of the 52-card pack.")
    king_block = bool(rules.king_block)
    fixed = [-1] * n
    choices, described = [NOT_GIVEN] * (n - 1), {}
    if "swaps" in context:
        choices[:p], kings = _choices(context["swaps"], p, king_block)
        described["swaps"] = [card_name(k) if k >= 0 else CANDIDATES[c] for c, k in zip(choices, kings)]
        start = p  # the first seat of the run of swaps ending with seat p: its dealt card is the holding
        while start > 0 and choices[start - 1] == SWAP:
            start -= 1
        _fix(fixed, start, card)
        for q, king in enumerate(kings):
            if king >= 0:
                _fix(fixed, q + 1, king)
    gave = -1
    if "gave" in context:
        (gave,) = context_cards("gave", context["gave"], 1)
        if p == 0:
            raise ValueError("seat 0 has no right-hand neighbour who swaps with it (the matador makes no decision).")
        if gave == card:
            raise ValueError("the card given away (gave) cannot be the card held.")
        if "swaps" in context and choices[p - 1] != SWAP:
            raise ValueError(f"gave says seat {p - 1} swapped with you, but swaps says it did not.")
        if king_block and gave % 13 == KING_RANK:
            raise ValueError("with king_block a king is never given away: the swap would have been refused.")
        _fix(fixed, p, gave)
        described["gave"] = card_name(gave)
    if p == 0:
        _fix(fixed, 0, card)  # no history: the holding is the dealt card
    bets = [0] * (n - 1)
    if "bets" in context:
        bets = _bets(context["bets"], rules, n)
        described["bets"] = bets
    header = [p, card, gave, int("bets" in context)]
    known = np.asarray(header + fixed + choices + bets, dtype=np.int64)
    outcomes = ("exposed", "knocked_out") + (("bet_net",) if rules.betting else ())
    return Situation(
        decision="matador_right" if p == n - 2 else "swap",
        candidates=CANDIDATES,
        outcomes=outcomes,
        known=known,
        lower_is_better=True,
        described=described,
    )


ORDER = np.arange(52, dtype=np.int64)  # the pack, in code order, for the conditioned deal


@njit(cache=True, inline="always")
def _history_nb(table, n, codes, known):
    """The bets and the swap chain up to the advised seat; returns ``(kept, the card the
    seat holds at its turn, the mask of the earlier seats' final cards)``, ``kept`` False
    when anything differs from the context."""
    king_block, betting, bet_direction = codes
    p = known[K_POSITION]
    choices = K_HEADER + n  # known_layout(n), which the kernel cannot call
    if betting:
        place_bets_nb(table, n, bet_direction)
        if known[K_HAS_BETS]:
            for q in range(n - 1):
                if table.bet[q] != known[choices + n - 1 + q]:
                    return False, np.int64(0), np.uint64(0)
    moving = table.dealt[0]
    held = np.uint64(0)
    for q in range(p):
        asks = asks_swap_nb(table, q, n, moving)
        seen = 0
        if asks:
            seen = REFUSED if king_block and table.dealt[q + 1] % 13 == KING_RANK else SWAP
        given = known[choices + q]
        if given != NOT_GIVEN and given != seen:
            return False, np.int64(0), np.uint64(0)
        moving, final = swap_step_nb(table, q, king_block, moving, asks)
        held |= np.uint64(1) << np.uint64(final)
    gave = known[K_GAVE]
    if moving != known[K_HOLDING]:
        return False, np.int64(0), np.uint64(0)
    if gave >= 0 and (p == 0 or table.swapped[p - 1] == 0 or table.dealt[p] != gave):
        return False, np.int64(0), np.uint64(0)
    return True, moving, held


@njit(cache=True, inline="always")
def _candidates_nb(table, n, codes, p, moving, held, values):
    """Each candidate from the advised seat's turn: its decision forced (candidate ``c``
    asks to swap when ``c == 1``), the later seats under their policies, the reveal; the
    advised seat's outcomes into ``values[c]``.  The chain draws nothing and rewrites
    only positions ``p`` onwards, so every candidate starts from the same state."""
    king_block = codes[0]
    for c in range(values.shape[0]):
        after, final = swap_step_nb(table, p, king_block, moving, np.uint64(c))
        m_card, mask = swap_chain_nb(table, n, king_block, p + 1, after, held | (np.uint64(1) << np.uint64(final)))
        knocked_out, exposed = reveal_nb(mask, m_card)
        values[c, 0] = _is_exposed(exposed, final)
        values[c, 1] = knocked_out
        if values.shape[1] > 2:
            values[c, 2] = _bet_result(table.bet[p], knocked_out)


@njit(cache=True, nogil=True)
def advise_nb(rules, policy, n, seed, first, count, known, n_candidates, n_outcomes):
    """The flat advice sums (sims.core.advice) of deals ``first .. first+count-1`` of
    ``seed`` for the situation ``known`` (see :func:`situation`)."""
    out = np.zeros(FIRST_SUM + 2 * n_candidates * n_outcomes + n_candidates * n_candidates, dtype=np.int64)
    values = np.zeros((n_candidates, n_outcomes), dtype=np.int64)
    tables = new_table_nb(policy)
    table = tables[0]
    for seat in range(n):
        table.seat_of[seat] = seat
    fixed = known[K_HEADER : K_HEADER + n]  # known_layout(n)
    codes = rule_codes_nb(rules)
    p = known[K_POSITION]
    seed_key = seed_key_nb(seed)
    for i in range(first, first + count):
        state = stream_nb(seed_key, i)
        out[TRIED] += 1
        state = deal_conditioned_nb(table.pack, ORDER, table.dealt, fixed, state)
        kept, moving, held = _history_nb(table, n, codes, known)
        if not kept:
            continue
        _candidates_nb(table, n, codes, p, moving, held, values)
        record_deal_nb(out, values)
    return out
