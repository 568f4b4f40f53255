"""Ace Chasing advice (``analyze advise ace-chasing``): a non-matador's KEEP or SWAP.

Seats are as in hand mode: seat ``p`` is position ``p`` of the round, seat 0 on the
matador's left, the matador in seat ``n-1``.  The matador makes no decision, so every
other seat has exactly one: at its turn in the swap chain, keep its card or swap it with
its left-hand neighbour.  Two decisions are named, by the advised seat:

* ``swap`` (seats 0 .. n-3): swap with the left-hand neighbour, a non-matador, or keep;
* ``matador_right`` (seat n-2, the matador's right): swap with the matador, handing it
  this card, or keep.  Whatever it does, it learns the matador's final card only after
  its decision, so nothing of that is context.

Candidates: ``swap`` and ``keep`` (in that order, as in Chase the Ace's advice).  With
the rule king_block a swap is a request: a neighbour holding a king shows it and
refuses, and the advice plays that as the rules do.

Holding: the one card the seat holds at its turn (after a swap from its right, the card
it received).

Context (the keys and notation of Chase the Ace's advice, plus the bets)
  ``gave``: your right-hand neighbour (seat p-1) swapped with you: the card you gave
      (your dealt card; the holding is the card received).  Without it, nobody swapped
      with you: you hold your dealt card.  Never at seat 0 (its right-hand neighbour is
      the matador, who makes no decision); with king_block never a king (that swap would
      have been refused).
  ``earlier``: the public actions of the seats before yours, seat 0 first, one each:
      ``s`` (or ``swap``) swapped, ``k`` (or ``keep``) did not swap (kept, or was
      refused by a king), ``?`` not noted, or, with king_block, the king that refused
      that seat's swap (``Kh``).  Letters may be written together (``ksk``) or
      separated by spaces or commas (``k Kh s``).  Without it no earlier action is
      conditioned on.  The entry of seat p-1 must agree with ``gave``.
  ``bets`` (betting on only): the agreed bets of every non-matador, seats 0 .. n-2 in
      order, including your own, as whole numbers: +b against the matador, -b for it
      (bet_direction bettor-chooses only), 0 none.  Bets are public before the swaps.
      Without it each seat bets what its policy bets on its dealt card.
  ``game`` (``yes`` or ``no``): ``yes`` scores the whole game too.  Every player still
      in the game plays every round of Ace Chasing (there are no lives), so the table of
      --players IS the state of the game and nothing more need be given: the advice adds
      ``win_game`` and ranks by it (``Situation.rank_by``).  Without it (or ``no``) only
      this round is scored.
  ``analyze rules`` shows each key's help and what leaving it out means
  (``Decision.absent``); ``Situation.assumed`` lists the keys left out, in those words.
  Nothing else is public before a seat's decision: the matador makes no decision and its
  card is hidden until the reveal, and the matador's right learns the matador's card only
  by its own swap (after its decision).

How the history is read (``infer``, sims.core.advice.INFER)
  policy (the default)  as below: the other seats' bets and swaps are played under their
      policies and a deal is kept only when they reproduce the history given.
  seen  the same pinned cards and the same rejection, but every earlier seat whose
      action is given plays it, whatever its policy says (``s`` and a refusing king: ask
      to swap, whatever the card; ``k``: keep, which with king_block leaves the cards
      where a refused attempt leaves them: name the king to say one was shown; see
      ``forced_policy``); the right-hand neighbour, when ``earlier`` leaves it open,
      plays what ``gave`` says (swapped with you when gave is given, else kept); and the
      given bets stand as given (not conditioned on).  A deal is then rejected only when
      something visible differs: an ``s`` whose swap a king refused, a refusal without a
      king, the card the seat holds at its turn.  Seats not noted play their policies.
      With no history at all (seat 0, no bets given) the two readings are the same.
      Example: --players 6 --position 4 --holding 4c --context earlier=kskk (seat 2 kept
      the low card seat 1 passed it, which the default policy would pass on) accepts no
      deal under policy and is answered under seen.

How deals are conditioned
  The cards the context pins to a seat's DEALT card are fixed: without ``gave`` the
  holding is the seat's own dealt card; with it, ``gave`` is, and the holding is the
  dealt card of the first seat of the run of swaps that ends with seat p-1 (a card
  passed along a run of swaps is the same card all the way), when ``earlier`` says
  where that run starts; a king that refused seat q's swap is seat q+1's dealt card.
  The rest of the pack is dealt uniformly (sims.core.advice.deal_conditioned_nb,
  positions 0 .. n-1).  The bets and the swap chain up to the advised seat are then
  played under every seat's policy (the advised seat's own bet included), and the deal
  is kept only when every noted earlier action, every given bet, the card the seat holds
  at its turn and whether seat p-1 swapped with it match what happened (exact
  conditioning by rejection).  A seat playing a table (the package docstring,
  "Strategy tables") decides from it, drawing from the deal's stream after the deal at
  a mixed cell; policies draw nothing.  Each candidate plays on from the same state
  at the advised seat's turn: the advised seat's decision forced (the draw its own
  table would make there still made), the later seats under their tables or policies,
  then the reveal.  Under seen the earlier seats forced to their noted actions play no
  table.

Outcomes of the advised seat, per candidate (per accepted deal, whole numbers, scale 1)
  ``exposed`` (the headline, lower is better): 1 if the seat is exposed (eliminated) this
      round, as ``exposed`` in hand mode;
  ``knocked_out``: 1 if the matador is knocked out;
  ``bet_net`` (betting on only): units the seat wins on its bet, as hand mode's bet_net;
  ``win_game`` (game=yes, last): 1 if the seat wins the game.  The players out this round
      leave (the matador if knocked out, else everyone exposed), the role passes on as
      next_matador says, and the rest of the game is played under every seat's policy by
      the game-mode kernel's own code (sims.games.ace_chasing.kernel.play_on_nb; the twin
      its _play_on), drawing from the deal's stream after the round (after the deal,
      the same for every candidate, when no table mixes a cell).  Seats are this round's positions (the matador seat n-1).
  ``TERMS`` defines every outcome and policy term.  ``Situation.largest`` is the largest
  bet (1000) with betting on, else 1.

Where the rules file is silent (choices made here)
  * The advised seat's own bet is conditioned on like every other: it was made by the
    seat's policy on its dealt card, so a bet that policy would not make rejects every
    deal.
  * A refused swap (king_block) is public with the king shown; ``k`` leaves the king
    unnoted (as Chase the Ace's advice does), the king itself pins it as the next seat's
    dealt card.
  * The outcomes are those of this round (hand mode), and with game=yes the whole game.
  * Tables below 4 players are played when asked for directly (the exact enumeration's
    test uses 3), though ``analyze`` starts the game at 4.

``known`` (int64, for the kernel and the twin): position, holding, gave (-1 none),
whether bets are given, 1 under seen, 1 with game=yes, then per position 0 .. n-1 its fixed dealt card (-1 dealt at
random), per seat 0 .. n-2 the noted action (-1 not noted, 0 did not swap, 1 swapped, 2 refused
by a king; under seen the right-hand neighbour's filled in from gave), per seat 0 .. n-2
the given bet.
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
from sims.core.cards import card_code, card_name
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.games.ace_chasing.kernel import (
    BLOCK_WIDTH,
    N_POLICY_FIELDS,
    R_NEXT,
    TABLE_OFFSET,
    _bet_result,
    _is_exposed,
    decide_table_nb,
    eliminate_nb,
    gave_after_nb,
    new_table_nb,
    next_matador_nb,
    place_bets_nb,
    play_on_nb,
    reveal_nb,
    rule_codes_nb,
    swap_chain_table_nb,
    swap_step_nb,
)
from sims.games.ace_chasing.rules import (
    ACE_SWAP,
    BET_BETTOR_CHOOSES,
    KING_RANK,
    MATADOR_RIGHT_THRESHOLD,
    NEXT_LEFT,
    THRESHOLD,
    Rules,
)
from sims.games.ace_chasing.table import GAVE_NONE

CANDIDATES = ("swap", "keep")  # candidate c asks to swap when c == 0 (the order of Chase the Ace's advice)
KEEP, SWAP, REFUSED, NOT_GIVEN = 0, 1, 2, -1  # the noted actions of earlier seats
LETTERS = {"k": KEEP, "keep": KEEP, "s": SWAP, "swap": SWAP, "?": NOT_GIVEN}
# Offsets of ``known``: the header, then the per-position blocks (their sizes follow n).
K_POSITION, K_HOLDING, K_GAVE, K_HAS_BETS, K_SEEN, K_GAME, K_HEADER = range(7)
MAX_BET = 1000  # the largest bet_size a policy may propose (POLICY_FIELDS)

_CONTEXT = {
    "gave": "your right-hand neighbour swapped with you: the card you gave (you now hold --holding); "
    "without it, nobody swapped with you",
    "earlier": "actions of the seats before yours, seat 0 first: s swapped, k did not, ? not noted, "
    "or the king that refused its swap (king_block), e.g. ksk or 'k Kh s'",
    "bets": "betting on: every non-matador's agreed bet in seat order, +b against the matador, -b for it, e.g. '0 1 0'",
    "game": "yes: score the whole game too: the players at this table are everyone still in, and the advice "
    "adds your chance of winning the game (win_game) and ranks by it",
}
_ABSENT = {
    "gave": "nobody swapped with you: your right-hand neighbour kept (or, with king_block, your king refused it)",
    "earlier": "the earlier seats' actions were not given: deals are not conditioned on them (each played its policy)",
    "bets": "the bets were not given: each seat's bet is what its policy bets on its dealt card",
    "game": "only this round is scored (exposed, knocked_out), not the game",
}

DECISIONS = (
    Decision(
        "swap",
        "a seat before the matador's right: keep your card or swap it with your left-hand neighbour",
        _CONTEXT,
        "analyze advise ace-chasing --players 6 --position 2 --holding 5h --context earlier=ks --context gave=9c",
        _ABSENT,
    ),
    Decision(
        "matador_right",
        "the seat on the matador's right: keep your card or swap it with the matador's",
        _CONTEXT,
        "analyze advise ace-chasing --players 4 --position 2 --holding 2d --context earlier=kk",
        _ABSENT,
    ),
)

TERMS = {
    "exposed": "1 when you are exposed (eliminated) at this round's reveal: your card ranks below the "
    "matador's, or shares a suit with a face-up ace; else 0; lower is better.",
    "knocked_out": "1 when the matador is knocked out this round (nobody was exposed), else 0.",
    "bet_net": "the units you win (+) or lose (-) on your bet this round (betting on), even money.",
    "win_game": "1 when you win the game (the last player left) played on from this round under everyone's "
    "policies, else 0; given with game=yes.",
    "matador": "the player who deals, makes no decision, and wins the round unless nobody is exposed.",
    "threshold": "a policy swaps with its left-hand neighbour when its card ranks at or below this (A=1 ... K=13).",
    "matador_right_threshold": "the threshold of the seat on the matador's right, whose swap hands the "
    "matador its card.",
    "ace_swap": "1: a policy always passes an ace on.",
    "infer": "how the history given is read: policy keeps the deals in which the other seats' policies "
    "would have acted as given; seen plays the actions as given, whatever the policies would do.",
}


def known_layout(n: int) -> tuple[int, int, int]:
    """Where ``known`` holds, at a table of ``n``, the fixed dealt cards (one per
    position), the noted actions and the given bets (one per seat 0 .. n-2 each)."""
    return K_HEADER, K_HEADER + n, K_HEADER + 2 * n - 1


def _words(text: str) -> list[str]:
    words = str(text).replace(",", " ").split()
    if len(words) == 1 and set(words[0].lower()) <= set("sk?"):
        return list(words[0])  # letters written together: ksk
    return words


def _earlier(text: str, p: int, king_block: bool) -> tuple[list[int], list[int]]:
    """The noted actions of seats 0 .. p-1 and the king that refused each (-1 none)."""
    words = _words(text)
    if len(words) != p:
        raise ValueError(f"context earlier takes one action for each of the {p} seats before seat {p}, not '{text}'.")
    actions, kings = [], []
    for word in words:
        if word.lower() in LETTERS:
            actions.append(LETTERS[word.lower()])
            kings.append(-1)
            continue
        try:
            card = card_code(word)
        except ValueError:
            raise ValueError(f"context earlier takes s, k, ? or a refusing king for each seat, not '{word}'.") from None
        if card % 13 != KING_RANK:
            raise ValueError(f"context earlier: only a king refuses a swap, not {card_name(card)}.")
        if not king_block:
            raise ValueError("context earlier names a king refusing a swap, but king_block is off at this table.")
        actions.append(REFUSED)
        kings.append(card)
    return actions, kings


def _bets(text: str, rules: Rules, n: int) -> list[int]:
    if not rules.betting:
        raise ValueError("context bets needs betting on at this table.")
    words = str(text).replace(",", " ").split()
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


def _gave(context, rules: Rules, p: int, card: int) -> int:
    """The card given to the right-hand neighbour's swap, -1 when nobody swapped with the seat."""
    if "gave" not in context:
        return -1
    (gave,) = context_cards("gave", context["gave"], 1)
    if p == 0:
        raise ValueError("seat 0 has no right-hand neighbour who swaps with it (the matador makes no decision).")
    if gave == card:
        raise ValueError("context gave names the card you hold.")
    if rules.king_block and gave % 13 == KING_RANK:
        raise ValueError("with king_block a king is never given away: the swap would have been refused.")
    return gave


def _pin(fixed: list[int], p: int, card: int, gave: int, actions: list[int], kings: list[int]) -> None:
    """The dealt cards the context fixes (see the module docstring)."""
    if gave < 0:
        _fix(fixed, p, card)  # nobody swapped with the seat: it holds its dealt card
    else:
        _fix(fixed, p, gave)
        start = p - 1  # the holding is the dealt card of the first seat of the run of swaps into seat p
        while start > 0 and actions[start - 1] == SWAP:
            start -= 1
        if start == 0 or actions[start - 1] in (KEEP, REFUSED):
            _fix(fixed, start, card)
    for q, king in enumerate(kings):
        if king >= 0:
            _fix(fixed, q + 1, king)


def situation(rules, n_seats: int, position: int, holding, context, infer: str = "policy") -> Situation:
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
    gave = _gave(context, rules, p, card)
    actions, kings = [NOT_GIVEN] * (n - 1), [-1] * p
    described: dict[str, object] = {"gave": card_name(gave) if gave >= 0 else None}
    if "earlier" in context:
        actions[:p], kings = _earlier(context["earlier"], p, bool(rules.king_block))
        described["earlier"] = [card_name(k) if k >= 0 else "?ks"[a + 1] for a, k in zip(actions, kings)]
        if gave >= 0 and actions[p - 1] in (KEEP, REFUSED):
            raise ValueError(f"context gave says seat {p - 1} swapped with you, earlier says it did not.")
        if gave < 0 and p > 0 and actions[p - 1] == SWAP:
            raise ValueError(
                f"context earlier says seat {p - 1} swapped with you: give the card you gave as gave=CARD."
            )
    fixed = [-1] * n
    _pin(fixed, p, card, gave, actions, kings)
    bets = [0] * (n - 1)
    if "bets" in context:
        bets = _bets(context["bets"], rules, n)
        described["bets"] = bets
    game = _game(context)
    described["game"] = "yes" if game else None
    seen = infer == "seen"
    if seen and p > 0 and actions[p - 1] == NOT_GIVEN:
        actions[p - 1] = SWAP if gave >= 0 else KEEP  # what the seat saw of its right-hand neighbour
    header = [p, card, gave, int("bets" in context), int(seen), int(game)]
    known = np.asarray(header + fixed + actions + bets, dtype=np.int64)
    assumed = {key: _ABSENT[key] for key in _CONTEXT if key not in context}
    if p == 0:  # seat 0 has nobody before it who moves
        assumed.pop("gave", None)
        assumed.pop("earlier", None)
    if not rules.betting:
        assumed.pop("bets", None)
    outcomes = ("exposed", "knocked_out") + (("bet_net",) if rules.betting else ()) + (("win_game",) if game else ())
    return Situation(
        decision="matador_right" if p == n - 2 else "swap",
        candidates=CANDIDATES,
        outcomes=outcomes,
        known=known,
        lower_is_better=True,
        described=described,
        rank_by=len(outcomes) - 1 if game else 0,
        assumed=assumed,
        infer=infer,
        largest=MAX_BET if rules.betting else 1,  # a bet moves at most MAX_BET units; the rest are 0/1
    )


def _game(context) -> bool:
    if "game" not in context:
        return False
    value = str(context["game"]).strip().lower()
    if value not in ("yes", "no"):
        raise ValueError(f"context game takes yes or no, not '{context['game']}'.")
    return value == "yes"


def forced_policy(policy, known, n: int):
    """The policy rows the round is played with: under seen (``known[K_SEEN]``) each
    earlier seat whose action is given is forced to it (swapped or refused by a king: ask
    to swap whatever the card; kept: keep; its tables set aside); otherwise the policy as
    it is.  (Plain Python and Numba alike.)"""
    forced = policy.copy()
    if known[K_SEEN] != 0:
        at = K_HEADER + n  # known_layout(n)
        for q in range(known[K_POSITION]):
            noted = known[at + q]
            if noted != NOT_GIVEN:
                asks = noted != KEEP
                forced[q, THRESHOLD] = 13.0 if asks else 0.0
                forced[q, MATADOR_RIGHT_THRESHOLD] = 13.0 if asks else 0.0
                forced[q, ACE_SWAP] = 1.0 if asks else 0.0
                if forced.shape[1] > N_POLICY_FIELDS:
                    forced[q, TABLE_OFFSET] = 0.0
                    forced[q, TABLE_OFFSET + BLOCK_WIDTH] = 0.0
    return forced


forced_policy_nb = njit(cache=True)(forced_policy)


ORDER = np.arange(52, dtype=np.int64)  # the pack, in code order, for the conditioned deal


@njit(cache=True, inline="always")
def _noted_nb(given, asks, carried):
    """Whether a seat that asked to swap (``asks``) and swapped (``carried``) did what
    its noted action ``given`` says (a refusing king is pinned by the deal already)."""
    if given == SWAP:
        return carried != 0
    if given == KEEP:
        return carried == 0
    if given == REFUSED:
        return asks != 0 and carried == 0
    return True  # not noted


@njit(cache=True, inline="always")
def _history_nb(table, policy, n, codes, known, state):
    """The bets and the swap chain up to the advised seat (every seat's decision from its
    table or policy, :func:`sims.games.ace_chasing.kernel.decide_table_nb`); returns
    ``(kept, the card the seat holds at its turn, the mask of the earlier seats' final
    cards, state)``, ``kept`` False when anything differs from the context."""
    king_block, betting, bet_direction = codes
    p = known[K_POSITION]
    actions = K_HEADER + n  # known_layout(n), which the kernel cannot call
    if betting:
        place_bets_nb(table, n, bet_direction)
        if known[K_HAS_BETS]:
            for q in range(n - 1):
                given = known[actions + n - 1 + q]
                if known[K_SEEN]:
                    table.bet[q] = given  # seen: the bets as given
                elif table.bet[q] != given:
                    return False, np.int64(0), np.uint64(0), state
    moving = table.dealt[0]
    held = np.uint64(0)
    gave = np.uint64(GAVE_NONE)
    for q in range(p):
        asks, state = decide_table_nb(table, policy, q, n, moving, gave, state)
        moving, final = swap_step_nb(table, q, king_block, moving, asks)
        gave = gave_after_nb(table, q)
        if not _noted_nb(known[actions + q], asks, table.swapped[q]):
            return False, np.int64(0), np.uint64(0), state
        held |= np.uint64(1) << np.uint64(final)
    swapped_in = p > 0 and table.swapped[p - 1] != 0
    if moving != known[K_HOLDING] or swapped_in != (known[K_GAVE] >= 0):
        return False, np.int64(0), np.uint64(0), state
    return True, moving, held, state


@njit(cache=True, inline="always")
def _win_game_nb(games, policy, scratch, rules, codes, table, n, p, knocked_out, exposed, state):
    """1 when seat ``p`` wins the game after the round just played in ``table`` (seats
    are its positions, the matador seat ``n-1``): the players out leave, the role passes
    on, and the rest of the game is played under the policies by the game-mode kernel's
    own code (sims.games.ace_chasing.kernel.play_on_nb) from the stream ``state``."""
    alive, place2, bet_net, matador_net = scratch[0], scratch[1], scratch[2], scratch[3]
    for seat in range(n):
        alive[seat] = 1
        place2[seat] = bet_net[seat] = matador_net[seat] = 0
    left = eliminate_nb(table, alive, place2, n, n, knocked_out, exposed)
    step = 1 if rules[R_NEXT] == NEXT_LEFT else -1
    matador = next_matador_nb(alive, n - 1, step, n, left)
    play_on_nb(games[0], policy, alive, bet_net, matador_net, place2, n, left, matador, 1, step, codes, state)
    return alive[p]


@njit(cache=True, inline="always")
def _candidates_nb(table, games, policies, scratch, rules, n, codes, p, moving, held, values, game, state):
    """Each candidate from the advised seat's turn: its decision forced (candidate ``c``
    asks to swap when ``c == 0``; the draw its table would make there is still made), the
    later seats under their tables or policies, the reveal; the advised seat's outcomes
    into ``values[c]`` (with ``game``, then the rest of the game from the stream after the
    round).  The chain rewrites only positions ``p`` onwards, so every candidate starts
    from the same state; ``policies[0]`` is the round's matrix, ``policies[1]`` the
    game's."""
    king_block = codes[0]
    round_policy = policies[0]
    gave = np.uint64(GAVE_NONE) if p == 0 else gave_after_nb(table, p - 1)
    for c in range(values.shape[0]):
        _, after_draw = decide_table_nb(table, round_policy, p, n, moving, gave, state)
        after, final = swap_step_nb(table, p, king_block, moving, np.uint64(c == 0))
        m_card, mask, after_draw = swap_chain_table_nb(
            table,
            round_policy,
            n,
            king_block,
            p + 1,
            after,
            held | (np.uint64(1) << np.uint64(final)),
            gave_after_nb(table, p),
            after_draw,
        )
        table.held[n - 1] = m_card
        knocked_out, exposed = reveal_nb(mask, m_card)
        values[c, 0] = _is_exposed(exposed, final)
        values[c, 1] = knocked_out
        if codes[1]:
            values[c, 2] = _bet_result(table.bet[p], knocked_out)
        if game:
            values[c, values.shape[1] - 1] = _win_game_nb(
                games, policies[1], scratch, rules, codes, table, n, p, knocked_out, exposed, after_draw
            )


@njit(cache=True, nogil=True)
def advise_nb(rules, policy, n, seed, first, count, known, n_candidates, n_outcomes):
    """The flat advice sums (sims.core.advice) of deals ``first .. first+count-1`` of
    ``seed`` for the situation ``known`` (see :func:`situation`)."""
    out = np.zeros(advice_width(n_candidates, n_outcomes), dtype=np.int64)
    values = np.zeros((n_candidates, n_outcomes), dtype=np.int64)
    forced = forced_policy_nb(policy, known, n)
    tables = new_table_nb(forced)
    games = new_table_nb(policy)  # the rest of the game is played under the policies
    scratch = np.zeros((4, n), dtype=np.int64)  # alive, place2, bet_net, matador_net of the game played on
    _advise_deals_nb(
        tables, games, (forced, policy), scratch, out, values, rules, rule_codes_nb(rules), n, seed, first, count, known
    )
    return out


@njit(cache=True, nogil=True)
def _advise_deals_nb(tables, games, policies, scratch, out, values, rules, codes, n, seed, first, count, known):
    """The deals of :func:`advise_nb`.  The caller holds ``tables`` and ``games``, whose
    records the loop works on (Numba keeps no reference for a record, see sims.core.deck);
    ``policies`` are the matrices they were made from (the round's, the game's)."""
    table = tables[0]
    for seat in range(n):
        table.seat_of[seat] = seat
    fixed = known[K_HEADER : K_HEADER + n]  # known_layout(n)
    p = known[K_POSITION]
    game = known[K_GAME] != 0
    seed_key = seed_key_nb(seed)
    for i in range(first, first + count):
        state = stream_nb(seed_key, i)
        out[TRIED] += 1
        state = deal_conditioned_nb(table.pack, ORDER, table.dealt, fixed, state)
        kept, moving, held, state = _history_nb(table, policies[0], n, codes, known, state)
        if not kept:
            continue
        _candidates_nb(table, games, policies, scratch, rules, n, codes, p, moving, held, values, game, state)
        record_deal_nb(out, values)
