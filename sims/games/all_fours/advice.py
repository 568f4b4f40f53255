"""All-Fours advice (``analyze advise all-fours``): the elder's stand/beg, the dealer's
give/run and the elder's first lead, each played on the same deals of the unseen cards
(sims.core.advice).

Seats are those of hand mode: seat 0 is the elder E, seat 1 the dealer D, and the deal
is the first of a hand (E = seat 0, D = seat 1), from the scores the context gives.

Decisions (the seat's next decision, from ``--position`` and the context key ``elder``)
  beg (position 0, no ``elder``): stand or beg, holding its six cards, having seen the
    turn-up.  Candidates "stand", "beg"; after a beg the dealer gives or runs by its
    policy (give_at_least, or must run under gift_cannot_win).
  give (position 1; ``elder`` absent or "begged"): after the elder begged, give a point
    or run the cards, holding its six cards, having seen the turn-up.  Candidates
    "give", "run".  Refused when the dealer has no choice (gift_cannot_win and a gift
    would take the elder to the target: it must run).
  lead (position 0, ``elder`` = "stood" or "given"): the elder's lead to the first
    trick, after it stood or after it begged and the dealer gave (the hand is then played
    with the turn-up suit as trump, six cards each).  Candidates "lead <card>", each held
    card (six, in code order: any card may be led).  Refused when the gift was
    impossible (gift_cannot_win) or took the elder to the target (no lead is left).
  Not advised: the dealer's card play, leads after a run (larger hands, more turn-ups),
  later tricks (they would condition on the whole trick history), and the discard to
  six (no player's choice in this game's contract: each seat keeps its six most
  valuable cards).

Context (what the player may know at these decisions, rules table 4.5; values are text)
  turnup: the turned-up card, e.g. "Jh" (required: the player always sees it).  It must
    not be one of the held cards.
  score: the advised seat's score before the deal, 0..target-1 (left out: 0).
  opponent_score: the other seat's score before the deal, 0..target-1 (left out: 0).
  elder: what the elder did before this decision (above): "stood" or "given" for the
    elder's lead, "begged" (the default: the only thing it can have done) for the dealer.
  These are every public action a player has seen at the decisions advised: the deal
  and the turn-up, then at most the elder's beg and the dealer's gift (a run is followed
  by no advised decision).  The target, the dealer and the scores are public; the
  scores matter through the target (a point that reaches it ends the deal and the game)
  and gift_cannot_win.  Refused: a turned-up jack that takes the dealer to the target
  (the game ends before any decision).  Each key left out is named in the situation's
  ``assumed`` with what was taken in its place (DECISIONS' ``absent`` texts); the
  situation's ``described`` is the context as understood, defaults filled in.

How deals are conditioned (infer, sims.core.advice.INFER)
  The first 13 pack positions (3 to E, 3 to D, 3 to E, 3 to D, the turn-up) are dealt by
  sims.core.advice.deal_conditioned_nb from the deal's stream (seed, i): the advised
  seat's six cards sit at its six positions (in code order), the turn-up at the 13th,
  and the other six positions get cards dealt uniformly from the 45 others.  The stock
  (the 39 cards not in the first 13) then lies in code order, and the run draws it as
  the kernel always does, one lazy Fisher-Yates step per card, on the same stream after
  the conditioned deal, so a run's rounds are uniform from the unseen cards.
  beg, and lead after standing: nothing the player saw depends on the unseen cards or
    on the other seat's policy (its own stand is its own choice); every deal is
    accepted, and infer=seen gives exactly the same sums as infer=policy.
  give: the elder's beg is a public action.  policy: a deal is kept only when the
    elder's policy begs with its dealt six cards (its beg table's cell where it plays
    one, sims.games.all_fours.table; else strength in the turn-up suit < beg_below; a
    mixed cell keeps the deal with its beg probability, one uniform drawn from the deal's
    stream after the conditioned deal, before the candidates); the others are rejected (so under an elder's policy that never begs no
    deal is accepted).  seen: the beg is played as given and every deal is kept (no card
    the dealer sees can contradict a beg).
  lead after a gift: the dealer's gift is a public action.  policy: a deal is kept only
    when the dealer's policy gives with its six cards (its give table where it plays
    one, a mixed cell as above; else strength >= give_at_least).
    seen: the gift is played as given and every deal is kept.
  Each candidate then plays the deal to its end from the same point (the same stock, a
  copy of the same stream state), the advised seat's decision forced, everything else
  (the dealer's give/run after a beg, the bunch, discards, card play) by the policies,
  a seat's beg and give tables included (the advised seat's forced candidate overrides
  its own table).
  When a score is given (the state of the game), each candidate then plays the rest of
  the game as game mode does: deal after deal, each from a pack in code order drawn on
  the same stream after the advised deal, the dealer passing as step 8 says, every
  decision of both seats (the advised seat's too) by the policies, until a seat reaches
  the target.

Outcomes (the advised seat's, per deal; scale 1; TERMS defines each for ``analyze rules``)
  net_points (the headline): points the seat scores in the deal minus the points its
    opponent scores (turned jacks, the gift, High, Low, Jack, Game, after a void deal's
    cancelled jacks), from the scores given; a point after someone reaches the target is
    not scored.  A point scored before the decision (a turned jack, the gift before the
    lead) is the same for every candidate and counts in each.
  points: the seat's own points; opponent_points: the other seat's (wanted small).
  win (only when score or opponent_score is given): 1 if the seat wins the game, in this
    deal or in the deals played after it (above).  The advice then ranks by win
    (``Situation.rank_by``), net_points beside it: near the end of a game the points of
    one deal can tie while the chances of winning differ (the elder at 8 against 10 in a
    game to 11 holding Jh 9h Ac As 7d 3c, turn-up 4h: stand and beg tie on points, standing
    wins about 24% of games and begging 16%).
  Every outcome of one deal is at most the target in size (a deal stops at the target),
  so ``Situation.largest`` is the target.
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
from sims.core.cards import card_name
from sims.core.deck import N_CARDS
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.table_nb import NO_TABLE
from sims.core.tricks import ACE_HIGH_BIT, lowest_bit_nb, ranked_beats_nb, suit_of_bit_nb
from sims.games.all_fours.kernel import (
    COUNT_OF_ORDER,
    I_BEGGED,
    I_NEXT_DEALER,
    I_PLAYED,
    I_RAN,
    I_ROUNDS,
    I_TRUMP,
    I_WINNER,
    JACK,
    M_DEALT,
    M_HAND,
    M_SEEN,
    P_BEG_BELOW,
    P_GIVE_AT_LEAST,
    P_PLAY_STYLE,
    R_TARGET,
    S_GAME_POINTS,
    S_POINTS,
    S_SCORE,
    T_ON,
    add_seat_nb,
    beg_nb,
    bunch_nb,
    deal_nb,
    follow_card_nb,
    give_nb,
    info_nb,
    mask_nb,
    new_table_nb,
    play_hand_nb,
    play_tricks_nb,
    policy_nb,
    rule_nb,
    run_nb,
    score_hand_nb,
    seat_nb,
    set_info_nb,
    set_mask_nb,
    set_pack_nb,
    start_deal_nb,
    strength_nb,
    table_choice_nb,
    tricks_nb,
)
from sims.games.all_fours.rules import (
    ADVICE_BEG,
    ADVICE_GIVE,
    ADVICE_LEAD,
    ADVICE_OUTCOMES,
    BEG_CANDIDATES,
    DEALER,
    DEALER_PLACES,
    ELDER,
    ELDER_BEFORE_LEAD,
    ELDER_PLACES,
    FIRST_DEAL,
    GIVE_CANDIDATES,
    HELD,
    K_DECISION,
    K_GIVEN,
    K_HOLDING,
    K_SCORE_DEALER,
    K_SCORE_ELDER,
    K_SEEN,
    K_TURNUP,
    KNOWN_FIELDS,
    N_PLAYERS,
    TURNUP_PLACE,
    Rules,
)

_CONTEXT = {
    "turnup": "the turned-up card, e.g. Jh (required)",
    "score": "your score before the deal, 0..target-1; giving it (or opponent_score) ranks by the chance of "
    "winning the game",
    "opponent_score": "the other player's score before the deal, 0..target-1; giving it (or score) ranks by the "
    "chance of winning the game",
}
_ABSENT = {
    "turnup": "required: the advice refuses without it (the player always sees the turn-up)",
    "score": "your score is 0; with neither score given the state of the game is not known, so the advice "
    "ranks by the points of this deal and gives no chance of winning the game",
    "opponent_score": "the other player's score is 0; with neither score given the advice ranks by the points "
    "of this deal and gives no chance of winning the game",
}
_ELDER_HELP = (
    "what the elder did before this decision: stood, or given (it begged and the dealer gave a point) "
    "for the elder's first lead; begged for the dealer's give or run (the default there)"
)
DECISIONS = (
    Decision(
        "beg",
        "the elder (position 0): stand, or beg and let the dealer give a point or run the cards",
        dict(_CONTEXT),
        'analyze advise all-fours --players 2 --position 0 --holding "Ah 7h 3c 9d Qs 4s" --context turnup=5h',
        dict(_ABSENT),
    ),
    Decision(
        "give",
        "the dealer (position 1), after the elder begged: give the elder a point, or run the cards",
        {**_CONTEXT, "elder": _ELDER_HELP},
        'analyze advise all-fours --players 2 --position 1 --holding "Kd 2d 8c Jc 3h 6s" --context turnup=9d',
        {**_ABSENT, "elder": "the elder begged (the only thing it can have done before the dealer's give or run)"},
    ),
    Decision(
        "lead",
        "the elder (position 0), having stood or been given a point: which card to lead to the first trick",
        {**_CONTEXT, "elder": _ELDER_HELP},
        'analyze advise all-fours --players 2 --position 0 --holding "Jh 10h 2h Ac 10c 5d" '
        "--context turnup=5h --context elder=stood",
        {**_ABSENT, "elder": "for the elder the decision is then its stand or beg, not its lead"},
    ),
)
NET_POINTS, POINTS, OPPONENT_POINTS, WIN = range(len(ADVICE_OUTCOMES))  # the outcomes' indices
TERMS = {
    "net_points": "points you score in this deal minus the points the other player scores in it (turned jacks, "
    "the gift, High, Low, Jack, Game), a point after someone reaches the target not scored",
    "points": "points you score in this deal",
    "opponent_points": "points the other player scores in this deal",
    "win": "the chance of winning the game: reaching the target in this deal or in the deals after it, every "
    "later decision (yours included) by the policies; shown, and ranked by, when a score is given",
    "trump-strength score": "what beg_below, give_at_least and bunch_below count: over the six cards' cards of "
    "the trump suit, the ace 4, the king 3, the queen, jack and ten 2 each, any other trump 1 (0 to 14)",
    "beg_below": "the elder begs when its trump-strength score in the turn-up suit is below this (0 never begs, "
    "15 always begs)",
    "give_at_least": "the dealer gives a point when its trump-strength score in the turn-up suit is at least "
    "this, else runs the cards (0 always gives, 15 always runs)",
    "bunch_below": "with the bunch rule, a player wants a redeal after a run when its trump-strength score in "
    "the new trump is below this",
    "play_style": "how a player chooses its cards: greedy or high",
    "play_style=greedy": "leads a sure winner (the jack of trumps first) or else its cheapest card; follows "
    "with the lowest card that wins, trumping only a card that counts for Game",
    "play_style=high": "always plays the strongest card allowed (its highest trump, else its highest card)",
    "stand": "the elder accepts the turn-up suit as trump",
    "beg": "the elder refuses it: the dealer then gives it a point or runs the cards",
    "give": "the dealer gives the elder a point and the turn-up suit is trump",
    "run": "the dealer deals three more cards each and turns up a new trump (again while it is the suit refused)",
    "infer": "policy: a deal is kept only when the other player's policy would have begged or given as you saw; "
    "seen: its beg or gift is taken as you saw it and every deal is kept",
}
_SUIT_BITS = np.uint64(0x1FFF)  # the 13 orders of one suit (ranked bits)
_ORDER_BITS = np.uint64(15)  # a ranked bit's order within its suit
_JACK_FACE = 10  # card codes: face 10 is the jack (sims.core.deck)


def _decision_of(position: int, context) -> tuple[int, bool]:
    """The seat's next decision from the context, and whether the dealer gave a point."""
    said = context.get("elder")
    if position == ELDER:
        if said is None:
            return ADVICE_BEG, False
        if said not in ELDER_BEFORE_LEAD:
            raise ValueError(f"context elder takes stood or given for the elder's first lead, not '{said}'.")
        return ADVICE_LEAD, said == "given"
    if position == DEALER:
        if said not in (None, "begged"):
            raise ValueError(
                f"for the dealer only the give or run after a beg is advised: context elder takes begged, not '{said}'."
            )
        return ADVICE_GIVE, False
    raise ValueError(f"--position takes seat 0 (the elder) or 1 (the dealer), not {position}.")


def _check_scores(rules: Rules, decision: int, given: bool, turnup: int, scores) -> None:
    """Refuse scores with which the seat would have no such decision."""
    target = int(rules.target)
    if turnup % 13 == _JACK_FACE and scores[DEALER] + 1 >= target:
        raise ValueError(
            f"the turned-up jack takes the dealer to the target {target}: the game ends before any decision."
        )
    if (decision == ADVICE_GIVE or given) and rules.gift_cannot_win and scores[ELDER] + 1 >= target:
        raise ValueError(
            f"the dealer has no choice: a gift would take the elder to the target {target}, so it must run "
            "(gift_cannot_win)."
        )
    if given and scores[ELDER] + 1 >= target:
        raise ValueError(f"the gift takes the elder to the target {target}: the game ends before the lead.")


def situation(rules: Rules, n_seats: int, position: int, holding, context, infer: str = "policy") -> Situation:
    """The decision of seat ``position`` holding ``holding`` (card codes) having seen
    ``context`` (module docstring); ``ValueError`` with one sentence when it cannot be."""
    unknown_context(DECISIONS, context)
    if n_seats != N_PLAYERS:
        raise ValueError(f"All-Fours is played here by exactly 2 players, not {n_seats}.")
    decision, given = _decision_of(position, context)
    name = DECISIONS[decision].name
    holding = tuple(sorted(int(card) for card in holding))
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
    _check_scores(rules, decision, given, turnup, scores)
    game = "score" in context or "opponent_score" in context  # the state of the game is given
    seen = infer == "seen"
    known = np.zeros(len(KNOWN_FIELDS) - 1 + HELD, dtype=np.int64)
    known[K_DECISION] = decision
    known[K_TURNUP] = turnup
    known[K_SCORE_ELDER] = scores[ELDER]
    known[K_SCORE_DEALER] = scores[DEALER]
    known[K_GIVEN] = given
    known[K_SEEN] = seen
    known[K_HOLDING : K_HOLDING + HELD] = holding
    described = {"turnup": card_name(turnup), "score": score, "opponent_score": opponent}
    if decision == ADVICE_LEAD:
        described["elder"] = "given" if given else "stood"
    elif decision == ADVICE_GIVE:
        described["elder"] = "begged"
    assumed = {key: DECISIONS[decision].absent[key] for key in ("score", "opponent_score") if key not in context}
    if decision == ADVICE_GIVE and "elder" not in context:
        assumed["elder"] = DECISIONS[decision].absent["elder"]
    candidates = {
        ADVICE_BEG: BEG_CANDIDATES,
        ADVICE_GIVE: GIVE_CANDIDATES,
        ADVICE_LEAD: tuple(f"lead {card_name(card)}" for card in holding),
    }[decision]
    return Situation(
        decision=name,
        candidates=candidates,
        outcomes=ADVICE_OUTCOMES if game else ADVICE_OUTCOMES[:WIN],
        known=known,
        lower_is_better=False,
        described=described,
        rank_by=WIN if game else NET_POINTS,
        assumed=assumed,
        infer=infer,
        smaller=("opponent_points",),
        largest=target,  # a seat scores at most target points in a deal (it stops there)
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
def seen_acts_nb(work, policy, base, decision, given, seen, state):
    """``(kept, state)``: would the policies have acted as the advised seat saw, with the
    pack ``base``?  At the give the elder's policy begs with its six cards (its beg table
    in that cell, else strength in the turn-up suit below beg_below); at a lead after a
    gift the dealer's policy gives (its give table, else strength at least
    give_at_least).  A mixed table cell keeps the deal with its probability, by one draw
    from ``state``.  True at the beg, at a lead after standing, and whenever the history
    is read as seen (``seen``: the beg or gift is played as given, and no card the advised
    seat saw can contradict a beg or a gift)."""
    suit = base[TURNUP_PLACE] >> 4
    if seen:
        return True, state
    if decision == ADVICE_GIVE:
        seat, places, table = ELDER, ELDER_PLACES, 0
    elif given:
        seat, places, table = DEALER, DEALER_PLACES, 1
    else:
        return True, state
    hand = np.uint64(0)
    for k in places:
        hand |= np.uint64(1) << np.uint64(base[k])
    if work[T_ON]:
        action, state = table_choice_nb(work, policy, seat, table, hand, suit, state)
        if action != NO_TABLE:
            return action == (1 if seat == ELDER else 0), state  # the elder begs, the dealer gives
    if seat == ELDER:
        return strength_nb(hand, suit) < policy_nb(work, P_BEG_BELOW, ELDER), state
    return strength_nb(hand, suit) >= policy_nb(work, P_GIVE_AT_LEAST, DEALER), state


@njit(cache=True)
def forced_give_nb(work, masks, target, top, give, state):
    """The dealer's forced answer to the beg: give a point, or run the cards.  Returns
    ``(ended, state)``, as the kernel's beg_nb does."""
    set_info_nb(work, I_BEGGED, 1)
    if give:
        return give_nb(work, ELDER, DEALER, target), state
    set_info_nb(work, I_RAN, 1)
    return run_nb(work, masks, ELDER, DEALER, target, top, True, state)


@njit(cache=True)
def led_hand_nb(work, masks, target, lead):
    """The kernel's play_tricks_nb (steps 6-7, six cards each, no run) with the elder's
    first lead forced to the card ``lead`` (a bit): the dealer answers by its policy, the
    winner leads the rest (the kernel's tricks_nb), then the scoring."""
    trump_suit = info_nb(work, I_TRUMP)
    trump = _SUIT_BITS << np.uint64(16 * trump_suit)
    set_info_nb(work, I_PLAYED, 1)
    held_elder = mask_nb(masks, M_HAND, ELDER)
    trumps_in_play = (held_elder | mask_nb(masks, M_HAND, DEALER)) & trump
    low_card = lowest_bit_nb(trumps_in_play) if trumps_in_play else np.uint64(63)
    jack_card = np.uint64(16 * trump_suit + JACK)
    card = np.uint64(lead)
    answer = follow_card_nb(mask_nb(masks, M_HAND, DEALER), card, trump, policy_nb(work, P_PLAY_STYLE, DEALER))
    both = (np.uint64(1) << card) | (np.uint64(1) << answer)
    set_mask_nb(masks, M_HAND, ELDER, held_elder & ~both)
    set_mask_nb(masks, M_HAND, DEALER, mask_nb(masks, M_HAND, DEALER) & ~both)
    set_mask_nb(masks, M_SEEN, 0, mask_nb(masks, M_SEEN, 0) | both)
    winner = DEALER if ranked_beats_nb(answer, card, suit_of_bit_nb(card), trump) else ELDER
    add_seat_nb(work, S_GAME_POINTS, winner, COUNT_OF_ORDER[card & _ORDER_BITS] + COUNT_OF_ORDER[answer & _ORDER_BITS])
    low_winner, jack_winner = tricks_nb(work, masks, winner, trump, low_card, jack_card, True)
    if both & (np.uint64(1) << low_card):
        low_winner = winner
    if both & (np.uint64(1) << jack_card):
        jack_winner = winner
    score_hand_nb(work, ELDER, DEALER, target, trumps_in_play, held_elder, low_card, jack_card, low_winner, jack_winner)


@njit(cache=True)
def play_candidate_nb(work, masks, policy, base, decision, given, choice, score_elder, score_dealer, state):
    """Play the deal of pack ``base`` (its first 13 cards drawn as they lie, the stock
    shuffled lazily from ``state``) with the advised decision forced to candidate
    ``choice``; the kernel's phases do the rest (package docstring, steps 1-7).  Returns
    the advanced stream state (a run draws from it)."""
    set_pack_nb(work, base)
    target = rule_nb(work, R_TARGET)
    start_deal_nb(work, masks, ELDER, DEALER, score_elder, score_dealer)
    top, state = deal_nb(work, masks, ELDER, DEALER, target, False, state)
    ended = info_nb(work, I_WINNER) >= 0
    if not ended:
        if decision == ADVICE_GIVE:  # the elder begged; the dealer's answer is forced
            ended, state = forced_give_nb(work, masks, target, top, choice == 0, state)
        elif decision == ADVICE_BEG and choice == 1:  # the elder begs; the dealer answers by its policy
            ended, state = beg_nb(work, masks, policy, ELDER, DEALER, score_elder, target, top, True, state)
        elif given:  # the lead after a gift (the dealer's policy gives: conditioned)
            # ``given`` (true here), not the constant True: a bool, as at the call above, so
            # forced_give_nb compiles once (a constant compiled a second copy, 5 CPU s)
            ended, state = forced_give_nb(work, masks, target, top, given, state)
    for seat in range(N_PLAYERS):
        set_mask_nb(masks, M_DEALT, seat, mask_nb(masks, M_HAND, seat))
    if not ended and info_nb(work, I_ROUNDS):
        ended = bunch_nb(work, masks, ELDER, DEALER)
    if not ended:
        if decision == ADVICE_LEAD:
            led_hand_nb(work, masks, target, base[ELDER_PLACES[choice]])
        else:
            play_tricks_nb(work, masks, ELDER, DEALER, target, True)
    return state


@njit(cache=True)
def rest_of_game_nb(work, masks, policy, state):
    """After the advised deal: the deals that follow it until a seat reaches the target,
    as game mode plays them (each from a pack in code order, drawing on from ``state``,
    the dealer from the deal before (step 8), every decision by the policies).  The
    winner is left in the INFO row (I_WINNER)."""
    while info_nb(work, I_WINNER) < 0:
        dealer = info_nb(work, I_NEXT_DEALER)
        elder = 1 - dealer
        score_elder = seat_nb(work, S_SCORE, elder)
        score_dealer = seat_nb(work, S_SCORE, dealer)
        state = play_hand_nb((work, masks), N_PLAYERS, dealer, True, state, (policy, score_elder, score_dealer))


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


@njit(cache=True, nogil=True)
def advise_nb(rules, policy, n, seed, first, count, known, n_candidates, n_outcomes):
    """The flat advice sums (sims.core.advice) of deals ``first .. first+count-1`` of
    ``seed`` for the situation ``known`` (module docstring)."""
    out = np.zeros(advice_width(n_candidates, n_outcomes), dtype=np.int64)
    values = np.zeros((n_candidates, n_outcomes), dtype=np.int64)
    work, masks = new_table_nb(rules, policy)
    decision = known[K_DECISION]
    advised = DEALER if decision == ADVICE_GIVE else ELDER
    places = DEALER_PLACES if decision == ADVICE_GIVE else ELDER_PLACES
    given = known[K_GIVEN] != 0
    seen = known[K_SEEN] != 0
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
        kept, state = seen_acts_nb(work, policy, base, decision, given, seen, state)
        if not kept:
            continue  # the policies would have acted otherwise than the advised seat saw
        for c in range(n_candidates):
            after = play_candidate_nb(work, masks, policy, base, decision, given, c, score_elder, score_dealer, state)
            candidate_values_nb(work, values, c, advised)
            if n_outcomes > WIN:  # the game: the deals after this one, by the policies
                rest_of_game_nb(work, masks, policy, after)
                values[c, WIN] = info_nb(work, I_WINNER) == advised
        record_deal_nb(out, values)
    return out
