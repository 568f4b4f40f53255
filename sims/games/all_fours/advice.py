"""All-Fours advice (``analyze advise all-fours``): the elder's stand/beg and the dealer's
give/run, each played on the same deals of the unseen cards (sims.core.advice).

Seats are those of hand mode: seat 0 is the elder E, seat 1 the dealer D, and the deal
is the first of a hand (E = seat 0, D = seat 1), from the scores the context gives.

Decisions (which one follows from ``--position``: each seat has one decision before play)
  beg (position 0, the elder): stand or beg, holding its six cards, having seen the
    turn-up.  Candidates "stand", "beg"; after a beg the dealer gives or runs by its
    policy (give_at_least, or must run under gift_cannot_win).
  give (position 1, the dealer, after the elder begged): give a point or run the cards,
    holding its six cards, having seen the turn-up and the beg.  Candidates "give",
    "run".  Refused when the dealer has no choice (gift_cannot_win and a gift would take
    the elder to the target: it must run).
  Card play (lead/follow) and the discard to six are not advised here: the discard is no
  player's choice in this game's contract (each seat keeps its six most valuable cards),
  and card play would condition on a whole trick history.

Context (what the player may know at these decisions, rules table 4.5; values are text)
  turnup: the turned-up card, e.g. "Jh" (required: the player always sees it).  It must
    not be one of the held cards.
  score: the advised seat's score before the deal, 0..target-1 (default 0).
  opponent_score: the other seat's score before the deal, 0..target-1 (default 0).
  The target, the dealer and the scores are public; the scores matter through the
  target (a point that reaches it ends the deal) and gift_cannot_win.  Refused: a
  turned-up jack that takes the dealer to the target (the game ends before any decision).

How deals are conditioned
  The first 13 pack positions (3 to E, 3 to D, 3 to E, 3 to D, the turn-up) are dealt by
  sims.core.advice.deal_conditioned_nb from the deal's stream (seed, i): the advised
  seat's six cards sit at its six positions (in code order), the turn-up at the 13th,
  and the other six positions get cards dealt uniformly from the 45 others.  The stock
  (the 39 cards not in the first 13) then lies in code order, and the run draws it as
  the kernel always does, one lazy Fisher-Yates step per card, on the same stream after
  the conditioned deal, so a run's rounds are uniform from the unseen cards.
  beg: nothing earlier to match; every deal is accepted.
  give: the elder's beg is a public action: a deal is kept only when the elder's policy
    begs with its dealt six cards (strength in the turn-up suit < beg_below); the others
    are rejected (so under an elder's policy that never begs no deal is accepted).
  Each candidate then plays the deal to its end from the same point (the same stock, a
  copy of the same stream state), the advised seat's decision forced, everything else
  (the dealer's give/run after a beg, the bunch, discards, card play) by the policies.

Outcomes (the advised seat's, per deal; scale 1)
  net_points (headline): points the seat scores in the deal minus the points its
    opponent scores (turned jacks, the gift, High, Low, Jack, Game, after a void deal's
    cancelled jacks), from the scores given; a point after someone reaches the target is
    not scored.
  points: the seat's own points; opponent_points: the other seat's.
  win (only when a score is given): 1 if the seat reaches the target in this deal.
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
    context_int,
    deal_conditioned_nb,
    record_deal_nb,
    unknown_context,
)
from sims.core.cards import card_name
from sims.core.deck import DECK_ROW, N_CARDS
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.tricks import ACE_HIGH_BIT
from sims.games.all_fours.kernel import (
    I_BEGGED,
    I_RAN,
    I_ROUNDS,
    I_WINNER,
    M_DEALT,
    M_HAND,
    P_BEG_BELOW,
    R_TARGET,
    S_POINTS,
    beg_nb,
    bunch_nb,
    deal_nb,
    give_nb,
    info_nb,
    mask_nb,
    new_table_nb,
    play_hand_nb,
    policy_nb,
    rule_nb,
    run_nb,
    seat_nb,
    set_info_nb,
    set_mask_nb,
    start_deal_nb,
    strength_nb,
)
from sims.games.all_fours.rules import (
    ADVICE_BEG,
    ADVICE_GIVE,
    ADVICE_OUTCOMES,
    BEG_CANDIDATES,
    DEALER,
    DEALER_PLACES,
    ELDER,
    ELDER_PLACES,
    FIRST_DEAL,
    GIVE_CANDIDATES,
    HELD,
    K_DECISION,
    K_HOLDING,
    K_SCORE_DEALER,
    K_SCORE_ELDER,
    K_TURNUP,
    KNOWN_FIELDS,
    N_PLAYERS,
    TURNUP_PLACE,
    Rules,
)

_CONTEXT = {
    "turnup": "the turned-up card, e.g. Jh (required)",
    "score": "your score before the deal, 0..target-1 (default 0)",
    "opponent_score": "the other player's score before the deal, 0..target-1 (default 0)",
}
DECISIONS = (
    Decision(
        "beg",
        "the elder (position 0): stand, or beg and let the dealer give a point or run the cards",
        dict(_CONTEXT),
        'analyze advise all-fours --players 2 --position 0 --holding "Ah 7h 3c 9d Qs 4s" --context turnup=5h',
    ),
    Decision(
        "give",
        "the dealer (position 1), after the elder begged: give the elder a point, or run the cards",
        dict(_CONTEXT),
        'analyze advise all-fours --players 2 --position 1 --holding "Kd 2d 8c Jc 3h 6s" --context turnup=9d',
    ),
)
_DECISION_OF_SEAT = {ELDER: ADVICE_BEG, DEALER: ADVICE_GIVE}
_JACK_FACE = 10  # card codes: face 10 is the jack (sims.core.deck)


def situation(rules: Rules, n_seats: int, position: int, holding, context) -> Situation:
    """The decision of seat ``position`` holding ``holding`` (card codes) having seen
    ``context`` (module docstring); ``ValueError`` with one sentence when it cannot be."""
    unknown_context(DECISIONS, context)
    if n_seats != N_PLAYERS:
        raise ValueError(f"All-Fours is played here by exactly 2 players, not {n_seats}.")
    if position not in _DECISION_OF_SEAT:
        raise ValueError(f"--position takes seat 0 (the elder) or 1 (the dealer), not {position}.")
    decision = _DECISION_OF_SEAT[position]
    name = DECISIONS[decision].name
    holding = tuple(int(card) for card in holding)
    if any(not 0 <= card < N_CARDS for card in holding):
        raise ValueError("the holding names a card that is not in the 52-card pack.")
    if len(set(holding)) != len(holding):
        raise ValueError("the holding names a card twice.")
    if len(holding) != HELD:
        raise ValueError(f"at the {name} decision the seat holds {HELD} cards, not {len(holding)}.")
    if "turnup" not in context:
        raise ValueError(f"the {name} decision needs the turned-up card: give --context turnup=CARD.")
    (turnup,) = context_cards("turnup", context["turnup"], 1)
    if turnup in holding:
        raise ValueError(f"the turn-up {card_name(turnup)} cannot also be in the holding.")
    target = int(rules.target)
    score = context_int("score", context.get("score", "0"), 0, target - 1)
    opponent = context_int("opponent_score", context.get("opponent_score", "0"), 0, target - 1)
    scores = (score, opponent) if position == ELDER else (opponent, score)
    if turnup % 13 == _JACK_FACE and scores[DEALER] + 1 >= target:
        raise ValueError(
            f"the turned-up jack takes the dealer to the target {target}: the game ends before any decision."
        )
    if decision == ADVICE_GIVE and rules.gift_cannot_win and scores[ELDER] + 1 >= target:
        raise ValueError(
            f"the dealer has no choice: a gift would take the elder to the target {target}, so it must run "
            "(gift_cannot_win)."
        )
    known = np.zeros(len(KNOWN_FIELDS) - 1 + HELD, dtype=np.int64)
    known[K_DECISION] = decision
    known[K_TURNUP] = turnup
    known[K_SCORE_ELDER] = scores[ELDER]
    known[K_SCORE_DEALER] = scores[DEALER]
    known[K_HOLDING : K_HOLDING + HELD] = sorted(holding)
    outcomes = ADVICE_OUTCOMES if score or opponent else ADVICE_OUTCOMES[:-1]
    return Situation(
        decision=name,
        candidates=BEG_CANDIDATES if decision == ADVICE_BEG else GIVE_CANDIDATES,
        outcomes=outcomes,
        known=known,
        lower_is_better=False,
        described={"turnup": card_name(turnup), "score": score, "opponent_score": opponent},
    )


# ---- The kernel. ----


@njit(cache=True, inline="always")
def conditioned_pack_nb(base, fixed, scratch, dealt, state):
    """The pack of one deal into ``base`` (bits, draw order): its first 13 positions from
    the conditioned deal (``fixed``: a bit or -1 per position), then the other 39 cards in
    code order.  Returns the advanced state."""
    state = deal_conditioned_nb(scratch, ACE_HIGH_BIT, dealt, fixed, state)
    taken = np.uint64(0)
    for k in range(FIRST_DEAL):
        base[k] = dealt[k]
        taken |= np.uint64(1) << np.uint64(dealt[k])
    at = FIRST_DEAL
    for code in range(N_CARDS):
        bit = ACE_HIGH_BIT[code]
        if (taken >> np.uint64(bit)) & np.uint64(1) == 0:
            base[at] = bit
            at += 1
    return state


@njit(cache=True, inline="always")
def elder_begs_nb(work, base):
    """Would the elder's policy beg with the six cards the pack ``base`` deals it?"""
    hand = np.uint64(0)
    for k in ELDER_PLACES:
        hand |= np.uint64(1) << np.uint64(base[k])
    suit = base[TURNUP_PLACE] >> 4
    return strength_nb(hand, suit) < policy_nb(work, P_BEG_BELOW, ELDER)


@njit(cache=True, inline="always")
def forced_give_nb(work, masks, target, top, give, state):
    """The dealer's forced answer to the beg: give a point, or run the cards.  Returns
    ``(ended, state)``, as the kernel's beg_nb does."""
    set_info_nb(work, I_BEGGED, 1)
    if give:
        return give_nb(work, ELDER, DEALER, target), state
    set_info_nb(work, I_RAN, 1)
    return run_nb(work, masks, ELDER, DEALER, target, top, True, state)


@njit(cache=True, inline="always")
def play_candidate_nb(work, masks, base, decision, choice, score_elder, score_dealer, state):
    """Play the deal of pack ``base`` (its first 13 cards drawn as they lie, the stock
    shuffled lazily from ``state``) with the advised decision forced to candidate
    ``choice``; the kernel's phases do the rest (package docstring, steps 1-7)."""
    for k in range(N_CARDS):
        work[DECK_ROW + k] = base[k]
    target = rule_nb(work, R_TARGET)
    start_deal_nb(work, masks, ELDER, DEALER, score_elder, score_dealer)
    top, state = deal_nb(work, masks, ELDER, DEALER, target, False, state)
    ended = info_nb(work, I_WINNER) >= 0
    if not ended:
        if decision == ADVICE_GIVE:  # the elder begged; the dealer's answer is forced
            ended, state = forced_give_nb(work, masks, target, top, choice == 0, state)
        elif choice == 1:  # the elder begs; the dealer answers by its policy
            ended, state = beg_nb(work, masks, ELDER, DEALER, score_elder, target, top, True, state)
    for seat in range(N_PLAYERS):
        set_mask_nb(masks, M_DEALT, seat, mask_nb(masks, M_HAND, seat))
    if not ended and info_nb(work, I_ROUNDS):
        ended = bunch_nb(work, masks, ELDER, DEALER)
    if not ended:
        play_hand_nb(work, masks, ELDER, DEALER, target, True)


@njit(cache=True, inline="always")
def candidate_values_nb(work, values, c, advised):
    """Outcomes of candidate ``c`` for seat ``advised`` into ``values[c]`` (module docstring)."""
    own = seat_nb(work, S_POINTS, advised)
    other = seat_nb(work, S_POINTS, 1 - advised)
    o_count = values.shape[1]
    values[c, 0] = own - other
    if o_count > 1:
        values[c, 1] = own
    if o_count > 2:
        values[c, 2] = other
    if o_count > 3:
        values[c, 3] = info_nb(work, I_WINNER) == advised


@njit(cache=True, nogil=True)
def advise_nb(rules, policy, n, seed, first, count, known, n_candidates, n_outcomes):
    """The flat advice sums (sims.core.advice) of deals ``first .. first+count-1`` of
    ``seed`` for the situation ``known`` (module docstring)."""
    out = np.zeros(FIRST_SUM + 2 * n_candidates * n_outcomes + n_candidates * n_candidates, dtype=np.int64)
    values = np.zeros((n_candidates, n_outcomes), dtype=np.int64)
    work, masks = new_table_nb(rules, policy)
    decision = known[K_DECISION]
    advised = ELDER if decision == ADVICE_BEG else DEALER
    places = ELDER_PLACES if decision == ADVICE_BEG else DEALER_PLACES
    fixed = np.full(FIRST_DEAL, -1, dtype=np.int64)
    for k in range(HELD):
        fixed[places[k]] = ACE_HIGH_BIT[known[K_HOLDING + k]]
    fixed[TURNUP_PLACE] = ACE_HIGH_BIT[known[K_TURNUP]]
    base = np.zeros(N_CARDS, dtype=np.int64)
    scratch = np.zeros(N_CARDS, dtype=np.int64)
    dealt = np.zeros(FIRST_DEAL, dtype=np.int64)
    score_elder = known[K_SCORE_ELDER]
    score_dealer = known[K_SCORE_DEALER]
    seed_key = seed_key_nb(seed)
    for i in range(first, first + count):
        state = stream_nb(seed_key, i)
        out[TRIED] += 1
        state = conditioned_pack_nb(base, fixed, scratch, dealt, state)
        if decision == ADVICE_GIVE and not elder_begs_nb(work, base):
            continue  # the elder's policy would have stood: not what the dealer saw
        for c in range(n_candidates):
            play_candidate_nb(work, masks, base, decision, c, score_elder, score_dealer, state)
            candidate_values_nb(work, values, c, advised)
        record_deal_nb(out, values)
    return out
