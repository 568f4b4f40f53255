"""Chase the Ace: advice on one player's keep-or-swap (the dealer's keep-or-cut), on the
same deals of the unseen cards.

Decisions
  swap    a non-dealer (position 0 .. n-2; seat k is position k, the dealer seat n-1, as
          in hand mode): candidates ``swap`` (ask the left-hand neighbour to exchange; a
          king, queen or jack there acts as the rules say) and ``keep``.
  cut     the dealer: candidates ``cut`` (take the cut card; a top card cut stays in the
          pack under dealer_king_block) and ``keep``.
  A player holding the top card (the king, the ace under ace_high) must keep: there is no
  decision, and asking for one is refused.

Context (what the player has seen, from rules file section 1.8)
  gave=CARD      the right-hand neighbour exchanged with you on its turn: you gave CARD
                 and now hold --holding.  Without it, nobody exchanged with you before
                 your turn (the right-hand neighbour kept, or its attempt was refused).
  earlier=TEXT   the public actions of the players before you, eldest first, one letter
                 each: ``s`` exchanged on its turn, ``k`` did not (kept, or its attempt
                 was blocked or redirected), ``?`` not noted.  Which card blocked an
                 attempt is not used (reading: a shown king only confirms what the deal
                 already fixes).

Conditioning
  The advised position gets --holding (or the ``gave`` card) and every other card,
  the cut card included, is dealt from the rest of the pack by the deal's stream.  The
  round is played forward under the policies; a deal is kept only when the advised
  player's turn comes (the round did not end, its turn was not lost to a jack), it holds
  --holding then (so an exchange from the right happened exactly when ``gave`` says), and
  the earlier players' actions match ``earlier``.  Under king_reveal=at-deal an attempt on
  a king shown at the deal is still refused by the rules (the swap candidate keeps).

Outcomes of the advised seat, per candidate: ``lose_life`` (0/1, the headline, lower is
better) and ``exchange`` (0/1, whether its exchange was completed).
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
    deal_conditioned_nb,
    record_deal_nb,
    unknown_context,
)
from sims.core.cards import card_name
from sims.core.deck import N_CARDS
from sims.core.rng import seed_key_nb, stream_nb
from sims.games.chase_ace.kernel import new_hand_table_nb, play_round_nb, rule_codes_nb

DECISIONS = (
    Decision(
        "swap",
        "a non-dealer keeps its card or asks to swap with its left-hand neighbour",
        {
            "gave": "the right-hand neighbour exchanged with you: the card you gave (you now hold --holding)",
            "earlier": "actions of the players before you, eldest first: s exchanged, k did not, ? not noted (e.g. ksk)",
        },
        "analyze advise chase-ace --players 8 --position 3 --holding 6h",
    ),
    Decision(
        "cut",
        "the dealer keeps its card or cuts the pack for a new one",
        {
            "gave": "the last player exchanged with you: the card you gave (you now hold --holding)",
            "earlier": "actions of the players before you, eldest first: s exchanged, k did not, ? not noted",
        },
        "analyze advise chase-ace --players 5 --position 4 --holding 7c --context earlier=kssk",
    ),
)

OUTCOMES = ("lose_life", "exchange")
ORDER = np.arange(N_CARDS, dtype=np.int64)  # the pack, for the conditioned deal
# known: position, the card held at the decision, the card given (-1: none), then one
# entry per earlier position: 1 exchanged, 0 did not, -1 not noted
K_POSITION, K_HOLDING, K_GAVE, K_EARLIER = 0, 1, 2, 3
EARLIER_CODES = {"s": 1, "k": 0, "?": -1}


def _top_rank(card: int, ace_high: bool) -> bool:
    face = card % 13
    return face == (0 if ace_high else 12)


def situation(
    rules, n_seats: int, position: int, holding: tuple[int, ...], context: dict, infer: str = "policy"
) -> Situation:
    """The keep-or-swap (dealer: keep-or-cut) decision of ``position`` holding one card."""
    unknown_context(DECISIONS, context)
    if len(holding) != 1:
        raise ValueError(f"a Chase the Ace player holds one card, not {len(holding)}.")
    card = holding[0]
    dealer = position == n_seats - 1
    if _top_rank(card, bool(rules.ace_high)):
        raise ValueError(f"holding the top card ({card_name(card)}) a player must keep: there is no decision.")
    gave = -1
    if "gave" in context:
        if position == 0:
            raise ValueError("the eldest hand (position 0) has nobody on its right who moved before it.")
        gave = context_cards("gave", context["gave"], 1)[0]
        if gave == card:
            raise ValueError("context gave names the card you hold.")
        if _top_rank(gave, bool(rules.ace_high)):
            raise ValueError(f"nobody can have been given the top card ({card_name(gave)}): its holder must keep.")
    earlier = [-1] * position
    if "earlier" in context:
        text = str(context["earlier"]).strip().lower()
        if len(text) != position or any(letter not in EARLIER_CODES for letter in text):
            raise ValueError(
                f"context earlier takes one letter s, k or ? for each of the {position} players before "
                f"position {position}, not '{context['earlier']}'."
            )
        earlier = [EARLIER_CODES[letter] for letter in text]
        if gave >= 0 and earlier[-1] == 0:
            raise ValueError("context gave says your right-hand neighbour exchanged with you, earlier says it did not.")
        if gave < 0 and earlier[-1] == 1 and not rules.queens:
            raise ValueError(
                "context earlier says your right-hand neighbour exchanged (with you): give the card you gave as gave=CARD."
            )
    known = np.asarray([position, card, gave, *earlier], dtype=np.int64)
    described: dict[str, object] = {"gave": card_name(gave) if gave >= 0 else None}
    if "earlier" in context:
        described["earlier"] = str(context["earlier"]).lower()
    return Situation(
        decision="cut" if dealer else "swap",
        candidates=("cut", "keep") if dealer else ("swap", "keep"),
        outcomes=OUTCOMES,
        known=known,
        lower_is_better=True,
        described=described,
    )


@njit(cache=True, inline="always")
def _matches_nb(table, known, position):
    """Whether the round just played is one the advised player could have seen: its turn
    came, it held the known card then, and the earlier players acted as noted."""
    ok = table.advised[0] != 0 and table.advised[1] == known[K_HOLDING]
    for k in range(position):
        noted = known[K_EARLIER + k]
        ok &= noted < 0 or table.exchanged[k] == noted
    return ok


@njit(cache=True, nogil=True)
def advise_nb(rules, policy, n, seed, first, count, known, n_candidates, n_outcomes):
    """The flat advice sums (:mod:`sims.core.advice`) of deals ``first .. first+count-1``:
    candidate 0 swaps (cuts), candidate 1 keeps."""
    tables, _ = new_hand_table_nb(rules, policy, n)
    out = np.zeros(advice_width(n_candidates, n_outcomes), dtype=np.int64)
    values = np.zeros((n_candidates, n_outcomes), dtype=np.int64)
    fixed = np.full(n + 1, -1, dtype=np.int64)  # the deal: n positions and the cut card
    fixed[known[K_POSITION]] = known[K_GAVE] if known[K_GAVE] >= 0 else known[K_HOLDING]
    _advise_deals_nb(tables, out, values, fixed, rule_codes_nb(rules), n, seed, first, count, known)
    return out


@njit(cache=True, nogil=True)
def _advise_deals_nb(tables, out, values, fixed, codes, n, seed, first, count, known):
    """The deals of :func:`advise_nb`.  (The table's record lives in ``tables``, which the
    caller holds: Numba keeps no reference for a record, see sims.core.deck.)"""
    table = tables[0]
    position = known[K_POSITION]
    seed_key = seed_key_nb(seed)
    for deal in range(first, first + count):
        out[TRIED] += 1
        state = deal_conditioned_nb(table.pack, ORDER, table.dealt, fixed, stream_nb(seed_key, deal))
        accepted = True
        for c in range(values.shape[0]):
            table.advised[0] = 0
            play_round_nb(table, n, state, codes, position, c == 0)
            if c == 0:
                accepted = _matches_nb(table, known, position)
                if not accepted:
                    break
            values[c, 0] = table.lose[position]
            values[c, 1] = table.exchanged[position]
        if accepted:
            record_deal_nb(out, values)
