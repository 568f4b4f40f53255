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

Context (what the player has seen, from rules file section 1.8; ``analyze rules`` shows
each key's help and what leaving it out means, ``Decision.absent``)
  gave=CARD      the right-hand neighbour exchanged with you on its turn: you gave CARD
                 and now hold --holding.  Left out: nobody exchanged with you before your
                 turn (the right-hand neighbour kept, or its attempt was refused).
  earlier=TEXT   the public actions of the players before you, eldest first, one letter
                 each (spaces ignored): ``s`` exchanged on its turn, ``k`` did not, ``?``
                 not noted.  Left out (or empty at position 0): the earlier players'
                 actions were not given, and deals are not conditioned on them.
  lives=N N ...  the lives left of each player of this round, eldest first, the dealer
                 last, each 1..rules.lives (the players already out are not at the table:
                 --players counts this round's players).  With it the advice also gives
                 ``win_game`` and ranks by it (``Situation.rank_by``).  Left out: only
                 this round is scored.

Reading of ``k`` (the rules file is silent on what a player notes): ``k`` is "did not
exchange": the player kept, or asked and was refused (a king shown under kings=block or
stop-all, a jack, a queen redirect that found no partner).  Under kings=block a refused
attempt leaves every card where a keep leaves it, so the two differ only in the king
shown; the king is not a context key (reading: a careful player who saw it could note the
attempt as ``k``; which seat holds a king changes the deal's odds only slightly, and this
advice does not condition on it).  Under infer=seen a ``k`` is played as a keep (no
attempt).  The pot and the seat numbers of the players already out do not change this
round's play or the game played on (the pot matters for the chips, not for who wins), so
they are not keys.  The dealer's position is the table's (position n-1).

How the history is read (``infer``, sims.core.advice.INFER)
  policy  The advised position gets --holding (or the ``gave`` card) and every other
          card, the cut card included, is dealt from the rest of the pack by the deal's
          stream.  The round is played forward under the policies; a deal is kept only
          when the advised player's turn comes (the round did not end, its turn was not
          lost to a jack), it holds --holding then (so an exchange from the right happened
          exactly when ``gave`` says), and the earlier players' actions match ``earlier``.
  seen    The same deal and the same rejection, but every earlier player whose action is
          given plays it, whatever its policy says: ``s`` asks to swap (a deal where that
          exchange could not complete, a king or a jack in the way, is rejected), ``k``
          keeps; and the right-hand neighbour, when ``earlier`` leaves it open, plays what
          ``gave`` says (it exchanged with you when gave is given, else it kept).  Players
          not noted (``?``, or no ``earlier``) play their policies.  So the hidden cards are
          dealt uniformly among the deals consistent with what was visible.  With no
          history given (the eldest hand, or nothing noted and nothing given) the two
          readings differ only in the right-hand neighbour forced as seen.
  Under king_reveal=at-deal an attempt on a king shown at the deal is still refused by
  the rules (the swap candidate keeps).

Outcomes of the advised seat, per candidate (``TERMS`` defines each): ``lose_life`` (0/1,
the headline, lower is better), ``exchange`` (0/1, whether its exchange was completed)
and, with ``lives``, ``win_game`` (0/1): the round is settled as game mode settles it
(each loser loses a life, a final tie under final_tie), then the rest of the game is
played under every seat's policy by the game-mode kernel's own code
(sims.games.chase_ace.kernel._settle_round_nb and _play_on_nb): the next deal passes to
the next player with lives on the left of this round's dealer, eliminations and the
final-tie rule as in game mode; a carried pot's continuation game is played by this
round's players (the advice does not know the players already out).  ``win_game`` is 1
for the last player left, the cut-high winner, or one of the joint winners of a split
final tie.  The rest of the game draws from the deal's stream after the round, so every
candidate plays on from its own round with the same stream.  ``Situation.largest`` is 1.

``known`` (int64): position, the holding, gave (-1 none), 1 under seen, 1 when lives are
given, the lives of the n positions (0 when not given), then the earlier positions'
actions (1 s, 0 k, -1 not noted; under seen the right-hand neighbour's filled in from
gave).
"""

from __future__ import annotations

import numpy as np

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
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.games.chase_ace.kernel import (
    G_SPLIT_WIN,
    G_WIN,
    GAME_WIDTH,
    R_FINAL_TIE,
    R_LIVES,
    _next_active,
    _play_on_nb,
    _settle_round_nb,
    new_hand_table_nb,
    new_table_nb,
    play_round_nb,
    rule_codes_nb,
)
from sims.games.chase_ace.rules import INFORMED, THRESHOLD, THRESHOLD_MIX
from sims.games.chase_ace.table import N_FIELDS

_CONTEXT = {
    "gave": "the right-hand neighbour exchanged with you on its turn: the card you gave (you now hold --holding)",
    "earlier": "actions of the players before you, eldest first: s exchanged, k did not, ? not noted (e.g. ksk)",
    "lives": "the lives each player of this round has left, eldest first, the dealer last (e.g. '3 1 2 2 3'): "
    "the advice then also gives your chance of winning the game (win_game) and ranks by it",
}
_ABSENT = {
    "gave": "nobody exchanged with you: your right-hand neighbour kept or its attempt was refused",
    "earlier": "the earlier players' actions were not given: deals are not conditioned on them "
    "(each played its policy)",
    "lives": "the state of the game was not given: only this round is scored (lose_life), not the game",
}

DECISIONS = (
    Decision(
        "swap",
        "a non-dealer keeps its card or asks to swap with its left-hand neighbour",
        _CONTEXT,
        "analyze advise chase-ace --players 8 --position 3 --holding 6h",
        _ABSENT,
    ),
    Decision(
        "cut",
        "the dealer keeps its card or cuts the pack for a new one",
        {**_CONTEXT, "gave": "the last player exchanged with you: the card you gave (you now hold --holding)"},
        "analyze advise chase-ace --players 5 --position 4 --holding 7c --context earlier=kssk",
        _ABSENT,
    ),
)

TERMS = {
    "lose_life": "1 when you lose a life at this round's showdown (you hold a losing card under the tie rule), "
    "else 0; lower is better.",
    "exchange": "1 when your own exchange (the dealer: taking the cut card) was completed, else 0.",
    "win_game": "1 when you win the game played on from this round under everyone's policies (the last "
    "player with lives, or one of the joint winners of a split final tie), else 0; given with lives.",
    "threshold": "a policy swaps (the dealer cuts) when its card ranks at or below this (A=1 ... K=13).",
    "threshold_mix": "the probability that a policy swaps a card ranking exactly threshold + 1.",
    "informed": "a policy that keeps after a swap from the right brought it a better card than it gave "
    "(the dealer then cuts exactly when it got the worse card).",
    "infer": "how the history given is read: policy keeps the deals in which the other players' policies "
    "would have acted as given; seen plays the actions as given, whatever the policies would do.",
}

OUTCOMES = ("lose_life", "exchange")
GAME_OUTCOME = "win_game"
ORDER = np.arange(N_CARDS, dtype=np.int64)  # the pack, for the conditioned deal
# known: the header (position, the card held at the decision, the card given (-1: none),
# 1 when the history is read as seen, 1 when lives are given), the lives of each position
# (0 when not given), then one entry per earlier position: 1 exchanged, 0 did not, -1 not
# noted.  Under seen the right-hand neighbour's entry follows gave when earlier leaves it
# open (it exchanged with you exactly when gave is given).
K_POSITION, K_HOLDING, K_GAVE, K_SEEN, K_GAME, K_LIVES = range(6)
EARLIER_CODES = {"s": 1, "k": 0, "?": -1}


def k_earlier(n: int) -> int:
    """Where ``known`` holds the earlier positions' actions at a table of ``n``."""
    return K_LIVES + n


def _top_rank(card: int, ace_high: bool) -> bool:
    face = card % 13
    return face == (0 if ace_high else 12)


def _lives(text, rules, n: int) -> list[int]:
    """The lives left of each of the ``n`` positions, eldest first."""
    words = str(text).replace(",", " ").split()
    top = int(rules.lives)
    if len(words) != n:
        raise ValueError(
            f"context lives takes one number for each of the {n} players of this round, eldest first, not '{text}'."
        )
    lives = []
    for word in words:
        try:
            value = int(word)
        except ValueError:
            raise ValueError(f"context lives takes whole numbers 1..{top}, not '{word}'.") from None
        if not 1 <= value <= top:
            raise ValueError(
                f"context lives takes whole numbers 1..{top} (a player in the round has a life left, "
                f"and nobody has more than the {top} the game starts with), not {value}."
            )
        lives.append(value)
    return lives


def situation(
    rules, n_seats: int, position: int, holding: tuple[int, ...], context: dict, infer: str = "policy"
) -> Situation:
    """The keep-or-swap (dealer: keep-or-cut) decision of ``position`` holding one card."""
    unknown_context(DECISIONS, context)
    if len(holding) != 1:
        raise ValueError(f"a Chase the Ace player holds one card, not {len(holding)}.")
    n = int(n_seats)
    card = holding[0]
    dealer = position == n - 1
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
        text = "".join(str(context["earlier"]).split()).lower()
        if len(text) != position or any(letter not in EARLIER_CODES for letter in text):
            raise ValueError(
                f"context earlier takes one letter s, k or ? for each of the {position} players before "
                f"position {position}, not '{context['earlier']}'."
            )
        earlier = [EARLIER_CODES[letter] for letter in text]
        if position > 0 and gave >= 0 and earlier[-1] == 0:
            raise ValueError("context gave says your right-hand neighbour exchanged with you, earlier says it did not.")
        if position > 0 and gave < 0 and earlier[-1] == 1 and not rules.queens:
            raise ValueError(
                "context earlier says your right-hand neighbour exchanged (with you): give the card you gave as gave=CARD."
            )
    seen = infer == "seen"
    forced_earlier = list(earlier)
    if seen and position > 0 and forced_earlier[-1] < 0:
        forced_earlier[-1] = 1 if gave >= 0 else 0  # what the advised player saw of its right-hand neighbour
    lives = [0] * n
    if "lives" in context:
        lives = _lives(context["lives"], rules, n)
    game = "lives" in context
    known = np.asarray([position, card, gave, int(seen), int(game), *lives, *forced_earlier], dtype=np.int64)
    described: dict[str, object] = {"gave": card_name(gave) if gave >= 0 else None}
    described["earlier"] = "".join("?ks"[a + 1] for a in earlier) if "earlier" in context else None
    described["lives"] = lives if game else None
    assumed = {key: _ABSENT[key] for key in _CONTEXT if key not in context}
    if position == 0:  # the eldest hand has nobody before it: nothing was left out
        assumed.pop("gave", None)
        assumed.pop("earlier", None)
    return Situation(
        decision="cut" if dealer else "swap",
        candidates=("cut", "keep") if dealer else ("swap", "keep"),
        outcomes=OUTCOMES + ((GAME_OUTCOME,) if game else ()),
        known=known,
        lower_is_better=True,
        described=described,
        rank_by=2 if game else 0,
        assumed=assumed,
        infer=infer,
        largest=1,  # every outcome is 0 or 1
    )


def forced_policy(policy, known, n: int):
    """The policy rows the round is played with: under seen (``known[K_SEEN]``) each
    earlier position whose action is given is forced to it (``s``: ask to swap whatever
    the card, a threshold of 12 with no mix and not informed, and no table; ``k``: keep,
    threshold 0, no table); otherwise the policy as it is (tables included).  (Plain Python and Numba alike.)"""
    forced = policy.copy()
    if known[K_SEEN] != 0:
        at = K_LIVES + n
        for k in range(known[K_POSITION]):
            noted = known[at + k]
            if noted >= 0:
                forced[k, THRESHOLD] = 12.0 if noted == 1 else 0.0
                forced[k, THRESHOLD_MIX] = 0.0
                forced[k, INFORMED] = 0.0
                if forced.shape[1] > N_FIELDS:
                    forced[k, N_FIELDS] = 0.0  # and plays no table
    return forced


forced_policy_nb = njit(cache=True)(forced_policy)


@njit(cache=True, inline="always")
def _matches_nb(table, known, position, at_earlier):
    """Whether the round just played is one the advised player could have seen: its turn
    came, it held the known card then, and the earlier players acted as noted."""
    ok = table.advised[0] != 0 and table.advised[1] == known[K_HOLDING]
    for k in range(position):
        noted = known[at_earlier + k]
        ok &= noted < 0 or table.exchanged[k] == noted
    return ok


@njit(cache=True, nogil=True)
def advise_nb(rules, policy, n, seed, first, count, known, n_candidates, n_outcomes):
    """The flat advice sums (:mod:`sims.core.advice`) of deals ``first .. first+count-1``:
    candidate 0 swaps (cuts), candidate 1 keeps."""
    tables, _ = new_hand_table_nb(rules, forced_policy_nb(policy, known, n), n)
    games = new_table_nb(rules, policy)  # the rest of the game is played under the policies
    out = np.zeros(advice_width(n_candidates, n_outcomes), dtype=np.int64)
    values = np.zeros((n_candidates, n_outcomes), dtype=np.int64)
    fixed = np.full(n + 1, -1, dtype=np.int64)  # the deal: n positions and the cut card
    fixed[known[K_POSITION]] = known[K_GAVE] if known[K_GAVE] >= 0 else known[K_HOLDING]
    game_out = np.zeros((n + 1, GAME_WIDTH), dtype=np.int64)
    scratch = np.zeros((3, n), dtype=np.int64)  # lives, paid, share of the game played on
    _advise_deals_nb(
        tables, games, out, values, fixed, game_out, scratch, rules, rule_codes_nb(rules), n, seed, first, count, known
    )
    return out


@njit(cache=True, inline="always")
def _win_game_nb(games, game_out, scratch, rules, codes, table, n, position, state, known):
    """Whether ``position`` wins the game after the round just played in ``table``: the
    round settled as game mode settles it (lives lost, a final tie), then the rest of the
    game played under the policies by sims.games.chase_ace.kernel's game-mode code, the
    next deal passing to the left of this round's dealer (position ``n-1``).  Seats are
    this round's positions; ``state`` is the stream after the round."""
    game = games[0]
    lives, paid, share = scratch[0], scratch[1], scratch[2]
    for k in range(n):
        game.seat_of[k] = k
        game.lose[k] = table.lose[k]
        lives[k] = known[K_LIVES + k]
        paid[k] = 0
        share[k] = 0
    losers = 0
    for k in range(n):
        losers += table.lose[k]
    before = game_out[position, G_WIN] + game_out[position, G_SPLIT_WIN]
    over, pot, paying, tied, carried, state = _settle_round_nb(
        game, game_out, lives, paid, share, n, n, losers, 0, True, rules[R_LIVES], rules[R_FINAL_TIE], state
    )
    if not over:
        _play_on_nb(
            game,
            game_out,
            lives,
            paid,
            share,
            n,
            _next_active(lives, n - 1, n),
            pot,
            paying,
            1,
            rules[R_LIVES],
            rules[R_FINAL_TIE],
            codes,
            games.has_tables != 0,
            state,
        )
    return game_out[position, G_WIN] + game_out[position, G_SPLIT_WIN] - before


@njit(cache=True, nogil=True)
def _advise_deals_nb(tables, games, out, values, fixed, game_out, scratch, rules, codes, n, seed, first, count, known):
    """The deals of :func:`advise_nb`.  (The tables' records live in ``tables`` and
    ``games``, which the caller holds: Numba keeps no reference for a record, see
    sims.core.deck.)"""
    table = tables[0]
    position = known[K_POSITION]
    at_earlier = K_LIVES + n
    game = known[K_GAME] != 0
    tables_on = table.has_tables != 0
    seed_key = seed_key_nb(seed)
    for deal in range(first, first + count):
        out[TRIED] += 1
        state = deal_conditioned_nb(table.pack, ORDER, table.dealt, fixed, stream_nb(seed_key, deal))
        accepted = True
        for c in range(values.shape[0]):
            table.advised[0] = 0
            _, after = play_round_nb(table, n, state, codes, tables_on, position, c == 0)
            if c == 0:
                accepted = _matches_nb(table, known, position, at_earlier)
                if not accepted:
                    break
            values[c, 0] = table.lose[position]
            values[c, 1] = table.exchanged[position]
            if game:
                values[c, 2] = _win_game_nb(games, game_out, scratch, rules, codes, table, n, position, after, known)
        if accepted:
            record_deal_nb(out, values)
