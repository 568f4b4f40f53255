"""Plain-Python slow twin of the All-Fours kernel (:mod:`sims.games.all_fours`).

Written from the rules contract alone (the package docstring of
``sims/games/all_fours``, the definitions in its ``rules.py`` and the docstring of its
``play_dealt``) and ``shared/rules/all-fours.md``, without reference to the Numba
kernel, so that agreement between the two is evidence that both follow the contract.

Stream draws, in order (:class:`sims.core.rng.Stream`)
  Hand ``i`` of seed ``s`` (hand mode) uses ``Stream(s, i)``; game ``i`` uses
  ``Stream(s, i)`` for all its deals in sequence, every deal starting from a pack in code
  order 0..51.  The only draws are the pack's: the card taken at pack position ``t``
  first swaps position ``t`` with ``t + stream.below(52 - t)`` and then takes position
  ``t`` (a lazy Fisher-Yates shuffle: every card taken costs one ``below``, and the cards
  of a deal are exactly ``sims.core.deck.deal_prefix``).  Within a deal the cards are
  taken in this order, and only when they are dealt:

  1. 3 to E, 3 to D, 3 to E, 3 to D, the turn-up (13 cards);
  2. when D runs, for each round: 3 to E, 3 to D, the next turn-up (7 cards), at most 5
     rounds (48 cards).

  Decisions and card play draw nothing.  A deal that stops (a win on a turned jack or a
  gift, a throw-in, a void or bunched deal) draws no further card.  With a stacked pack
  (:func:`play_dealt`) there are no swaps: the listed cards, then the others in code order.

Public functions
  * :func:`play_dealt` plays one deal from a stacked pack and can log every step;
  * :func:`hand_result` is the same result dict for hand ``i`` of a seed (hand mode);
  * :func:`play_hand` / :func:`play_game` play hand ``i`` / game ``i`` of a seed and return
    the outcome rows in ``HAND_OUTCOMES`` / ``GAME_OUTCOMES`` column order;
  * :func:`simulate` sums those rows over a range (``sims.core.twins.sum_outcome_rows``);
  * :func:`replay_lines` is the readable log of one hand of a seed in hand mode;
  * :func:`advise` plays the advice of a situation (sims/games/all_fours/advice.py) over
    a range of deals: its flat sums (sims.core.advice).

Readings taken where the contract had to be interpreted (also marked ``(reading)`` in
the code):

  R1 ``next_dealer`` is -1 when a seat reached the target in the deal (the contract
     defines it only "when nobody has won").
  R2 ``game_points`` and ``game_tie`` describe the tricks of every played hand, even when
     the target was reached at High, Low or Jack so that Game itself was not scored;
     ``game`` is then -1.
  R3 A gift that takes E to the target (possible only with gift_cannot_win off) ends the
     deal at that moment: with gift_then=redeal ``thrown_in`` stays 0 (the throw-in comes
     after the gift, and nothing after a win happens).
  R4 ``trump`` of a deal that is not played is the suit it would be played with: the
     turn-up's suit after a stand, a gift (thrown in or not) or a win on the first
     turn-up; the run's new suit after a win on its turned jack or a bunch; -1 only for a
     void deal.
  R5 The bunch is decided on the whole hand before any discarding (the contract lists it
     before the hand size); discarding happens only in a deal that goes on to be played.
  R6 ``held`` is ``dealt`` minus ``discarded`` for every deal, played or not.
  R7 ``dead`` for card play includes every turn-up of the deal, the trump turn-up too.
  R8 ``play_dealt`` accepts any number of listed cards (0..52): unlisted cards follow in
     code order, as the contract says.
  R9 A deal stopped by a win still reports what happened up to the win (begged, gave,
     ran, rounds, turnups); the outcome flags void, thrown_in, bunched, played are 0.
  R10 Hand mode: ``runs_k`` is 1 when D ran and dealt exactly k rounds; every
     ``runs_k_count`` is 1 when D ran (the denominator of the conditional distribution).
"""

from __future__ import annotations

from sims.core.advice import TRIED, advice_width, deal_conditioned, record_deal
from sims.core.cards import card_name
from sims.core.deck import stacked_pack
from sims.core.rng import Stream
from sims.core.table_nb import NO_TABLE, record_visit, table_action
from sims.core.twins import Pack, sum_outcome_rows
from sims.games.all_fours import SPEC
from sims.games.all_fours.rules import (
    ADVICE_BEG,
    ADVICE_GIVE,
    BEG_BELOW,
    BUNCH_BELOW,
    DISCARD_TO_SIX,
    FOSTER_CLUB,
    GAME_OUTCOMES,
    GIFT_THEN_REDEAL,
    GIVE_AT_LEAST,
    HAND_OUTCOMES,
    HELD,
    K_DECISION,
    K_GIVEN,
    K_HOLDING,
    K_SCORE_DEALER,
    K_SCORE_ELDER,
    K_SEEN,
    K_TURNUP,
    KEEP_ALL,
    LENGTH_BUCKET_LOW,
    LOW_TO_DEALT_HOLDER,
    LOW_TO_TRICK_WINNER,
    MAX_ROUNDS,
    N_PLAYERS,
    PLAY_STYLE,
    POLICY_FIELDS,
    STYLE_GREEDY,
    STYLE_HIGH,
    TIE_ELDER_SCORES,
    TIE_NOBODY,
    Rules,
)
from sims.games.all_fours.table import BEG, GIVE, N_ACTIONS, N_CELLS, OFFSETS, POLICY_WIDTH, cell_code

__all__ = [
    "play_dealt",
    "hand_result",
    "play_hand",
    "play_game",
    "simulate",
    "replay_lines",
    "advise",
    "solve",
    "table_cell",
    "rank_value",
    "strength",
    "worth",
    "counting_points",
]

N_CARDS = 52
N_FACES = 13
ACE, TEN, JACK, QUEEN, KING = 0, 9, 10, 11, 12
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
FIRST_DEAL = 13  # 3 E, 3 D, 3 E, 3 D, the turn-up
ROUND = 7  # 3 E, 3 D, the turn-up


# ----------------------------------------------------------------------------------------
# Cards


def _suit(code: int) -> int:
    return code // N_FACES


def _face(code: int) -> int:
    return code % N_FACES


def rank_value(code: int) -> int:
    """Rank value 2..14 of a card code (A high: J=11, Q=12, K=13, A=14)."""
    face = _face(code)
    return 14 if face == ACE else face + 1


def counting_points(code: int) -> int:
    """Points toward Game: A 4, K 3, Q 2, J 1, 10 10, others 0."""
    return {ACE: 4, KING: 3, QUEEN: 2, JACK: 1, TEN: 10}.get(_face(code), 0)


def strength(hand, suit: int) -> int:
    """Trump-strength score of ``hand`` in ``suit``: A 4, K 3, Q 2, J 2, 10 2, others 1."""
    value = {ACE: 4, KING: 3, QUEEN: 2, JACK: 2, TEN: 2}
    return sum(value.get(_face(c), 1) for c in hand if _suit(c) == suit)


def worth(code: int, trump: int) -> int:
    """The greedy player's value of giving a card away: the jack of trumps 20, a ten 10,
    A 4, K 3, Q 2, any other jack 1, others 0."""
    face = _face(code)
    if face == JACK:
        return 20 if _suit(code) == trump else 1
    return {TEN: 10, ACE: 4, KING: 3, QUEEN: 2}.get(face, 0)


def _names(cards) -> str:
    return " ".join(card_name(c) for c in cards) if cards else "-"


def _highest(cards):
    """The highest card: highest rank, ties to the lower suit."""
    return min(cards, key=lambda c: (-rank_value(c), _suit(c)))


def _lowest(cards):
    """The lowest card: lowest rank, ties to the lower suit."""
    return min(cards, key=lambda c: (rank_value(c), _suit(c)))


def _cheapest(cards, trump: int):
    """The lowest worth, then non-trumps before trumps, the lowest rank, the lower suit."""
    return min(cards, key=lambda c: (worth(c, trump), _suit(c) == trump, rank_value(c), _suit(c)))


def _legal(hand, led, trump: int):
    """FOLLOW_OR_TRUMP without renege: the cards ``hand`` may play to the card ``led``
    (None when leading)."""
    if led is None:
        return list(hand)
    suit = _suit(led)
    if suit == trump:
        trumps = [c for c in hand if _suit(c) == trump]
        return trumps if trumps else list(hand)
    if any(_suit(c) == suit for c in hand):
        return [c for c in hand if _suit(c) == suit or _suit(c) == trump]
    return list(hand)


def _beats(card: int, led: int, trump: int) -> bool:
    """Does ``card``, played second, beat the card ``led``?"""
    if _suit(card) == trump:
        return _suit(led) != trump or rank_value(card) > rank_value(led)
    return _suit(card) == _suit(led) and _suit(led) != trump and rank_value(card) > rank_value(led)


def _sure_winner(card: int, own, dead, trump: int) -> bool:
    """No card outside the seat's hand and the dead cards can beat ``card``."""
    suit = _suit(card)
    known = own | dead
    higher = [suit * N_FACES + f for f in range(N_FACES) if rank_value(suit * N_FACES + f) > rank_value(card)]
    if not all(c in known for c in higher):
        return False
    if suit == trump:
        return True
    return all(trump * N_FACES + f in known for f in range(N_FACES))


def _choose(style: int, hand, led, trump: int, dead) -> int:
    """The card a seat plays: ``led`` is the card led (None when leading)."""
    legal = _legal(hand, led, trump)
    if style == STYLE_HIGH:
        trumps = [c for c in legal if _suit(c) == trump]
        return max(trumps, key=rank_value) if trumps else _highest(legal)
    if style != STYLE_GREEDY:
        raise ValueError(f"unknown play_style code {style}")
    if led is None:
        own = set(hand)
        sure = [c for c in hand if _sure_winner(c, own, dead, trump)]
        jack = trump * N_FACES + JACK
        if jack in sure:
            return jack
        sure_trumps = [c for c in sure if _suit(c) == trump]
        if sure_trumps:
            return max(sure_trumps, key=rank_value)
        if sure:
            return _highest(sure)
        return _cheapest(hand, trump)
    winning = [c for c in legal if _beats(c, led, trump)]
    if _suit(led) != trump:
        same = [c for c in winning if _suit(c) == _suit(led)]
        if same:
            return _lowest(same)
    if worth(led, trump) > 0:
        trumps = [c for c in winning if _suit(c) == trump]
        if trumps:
            return min(trumps, key=rank_value)
    return _cheapest(legal, trump)


def _keep_six(hand, trump: int):
    """(kept, discarded): trumps from the highest down, then the others from the highest
    rank down, ties to the lower suit."""
    order = sorted(hand, key=lambda c: (_suit(c) != trump, -rank_value(c), _suit(c)))
    return sorted(order[:6]), sorted(order[6:])


# ----------------------------------------------------------------------------------------
# The pack of one deal


# ----------------------------------------------------------------------------------------
# Input


class _Rows(list):
    """Policy rows already checked and converted to lists of ints (the policy fields);
    ``full`` keeps each seat's whole row, table blocks included (floats)."""

    full: list


def _prepared(policy) -> _Rows:
    if isinstance(policy, _Rows):
        return policy
    try:
        rows = [[float(x) for x in row] for row in policy]
    except TypeError:
        raise ValueError("the policy must be a matrix with one row per seat.") from None
    n = len(POLICY_FIELDS)
    if len(rows) != N_PLAYERS or any(len(r) not in (n, POLICY_WIDTH) for r in rows):
        raise ValueError(
            f"the policy must have shape ({N_PLAYERS}, {n}): one row of {n} fields per seat "
            f"(or {POLICY_WIDTH} with the strategy tables)."
        )
    out = _Rows()
    for s, row in enumerate(rows):
        for f, x in zip(POLICY_FIELDS, row):
            if not f.lo <= x <= f.hi or (f.integer and x != int(x)):
                raise ValueError(f"policy field {f.key} of seat {s} must be in {f.allowed_text()}, not {x:g}.")
        out.append([int(x) for x in row[:n]])
    out.full = rows
    return out


def _has_jack(hand, suit: int) -> bool:
    return suit * N_FACES + JACK in hand


def table_cell(hand, suit: int) -> int:
    """The cell of the beg and give tables (sims.games.all_fours.table): the hand's
    strength in ``suit`` and whether it holds that suit's jack."""
    return cell_code(strength(hand, suit), _has_jack(hand, suit))


def _table_choice(rows: _Rows, seat: int, decision: int, hand, suit: int, draws, visits) -> int:
    """The action of seat ``seat``'s table at ``decision`` (0 beg, 1 give), or NO_TABLE.
    ``visits`` (a dict, or None) notes the cell and may force the action:
    ``visits["force"] = (decision, action)`` replaces the table's action, after its draw."""
    cell = table_cell(hand, suit)
    action = table_action(rows.full[seat], OFFSETS[decision], N_ACTIONS, cell, draws)
    if visits is not None:
        visits[decision] = cell
        forced = visits.get("force")
        if forced is not None and forced[0] == decision:
            action = forced[1]
    return action


def _check_rules(rules: Rules) -> None:
    if not 7 <= int(rules.target) <= 15:
        raise ValueError(f"the target must be 7..15, not {rules.target}.")
    for key, n in (
        ("gift_then", 2),
        ("after_run", 3),
        ("low_to", 2),
        ("game_tie", 2),
        ("gift_redeal_same_dealer", 2),
        ("gift_cannot_win", 2),
        ("exhaust_keeps_jack_points", 2),
        ("bunch", 2),
    ):
        if not 0 <= int(getattr(rules, key)) < n:
            raise ValueError(f"the rule {key} has no code {int(getattr(rules, key))}.")


# ----------------------------------------------------------------------------------------
# One deal


def _play(
    rules: Rules, rows, pack: Pack, dealer: int, scores, log, beg=None, give=None, lead=None, visits=None
) -> dict:
    """Play one deal on ``pack`` (shuffling or stacked): the result dict of play_dealt.
    ``beg`` / ``give`` (True or False) force E's beg and D's give, ``lead`` (a card) E's
    lead to the first trick, instead of their policies (advice); None leaves them to the
    policies (a seat's table for the beg or give where it plays one, drawing a mixed
    cell's uniform from the pack's stream, or from Stream(0, 0) for a stacked pack, as the
    kernel does).  ``visits``: see :func:`_table_choice` (the solve)."""
    tables = len(rows.full[0]) > len(POLICY_FIELDS) or visits is not None
    draws = (pack.stream or Stream(0, 0)) if tables else None
    D = dealer
    E = 1 - dealer
    target = int(rules.target)
    score = [int(scores[0]), int(scores[1])]

    def say(text):
        if log is not None:
            log.append(text)

    def scores_text():
        return f"{score[0]}-{score[1]}"

    res = {
        "dealt": None,
        "discarded": [[], []],
        "held": None,
        "turnups": [],
        "trump": -1,
        "begged": 0,
        "gave": 0,
        "ran": 0,
        "void": 0,
        "thrown_in": 0,
        "bunched": 0,
        "played": 0,
        "rounds": 0,
        "tricks": [],
        "game_points": [0, 0],
        "trumps_in_play": 0,
        "jack_in_play": 0,
        "game_tie": 0,
        "high": -1,
        "low": -1,
        "jack": -1,
        "game": -1,
        "turned_jacks": [0, 0],
        "gift": [0, 0],
        "points": [0, 0],
        "scores": score,
        "winner": -1,
        "next_dealer": E,
    }
    hands = [[], []]

    def add(seat: int, what: str) -> bool:
        """Score one point; True when it reaches the target (the deal stops)."""
        score[seat] += 1
        res["points"][seat] += 1
        if score[seat] >= target:
            res["winner"] = seat
            res["next_dealer"] = -1  # (reading R1)
            say(f"{what}: seat {seat} scores 1 ({scores_text()}) and reaches {target}: seat {seat} wins")
            return True
        say(f"{what}: seat {seat} scores 1 ({scores_text()})")
        return False

    def deal_three(seat: int):
        cards = [pack.draw() for _ in range(3)]
        hands[seat].extend(cards)
        return cards

    def finish():
        res["dealt"] = [sorted(h) for h in hands]
        discarded = res["discarded"]
        res["held"] = [sorted(set(hands[s]) - set(discarded[s])) for s in range(2)]  # (reading R6)
        return res

    say(f"deal: seat {D} deals, seat {E} is elder; scores {scores_text()}, target {target}")
    # 1. six cards each in two rounds of three, elder first, and the turn-up
    first = [deal_three(E), deal_three(D), deal_three(E), deal_three(D)]
    up = pack.draw()
    res["turnups"].append(up)
    trump = _suit(up)
    res["trump"] = trump  # (reading R4)
    if log is not None:
        say(
            f"deal: seat {E} gets {_names(first[0])} {_names(first[2])}; "
            f"seat {D} gets {_names(first[1])} {_names(first[3])}"
        )
        say(f"turn-up: {card_name(up)}, {SUIT_NAMES[trump]} proposed")
    if _face(up) == JACK:
        res["turned_jacks"][D] += 1
        if add(D, "turned jack"):
            return finish()

    # 2. stand or beg
    e_strength = strength(hands[E], trump)
    why = "advised"  # a forced beg or stand (advice)
    if beg is None:
        action = _table_choice(rows, E, 0, hands[E], trump, draws, visits) if tables else NO_TABLE
        if action != NO_TABLE:
            beg = action == BEG
            why = f"its table, cell {table_cell(hands[E], trump)}"
        else:
            beg = e_strength < rows[E][BEG_BELOW]
            why = f"strength {e_strength} {'<' if beg else '>='} {rows[E][BEG_BELOW]}"
    if beg:
        res["begged"] = 1
        say(f"beg: seat {E} begs ({why})")
        # 3. give or run
        forced = bool(rules.gift_cannot_win) and score[E] + 1 >= target
        d_strength = strength(hands[D], trump)
        answer = "advised"  # a forced give or run (advice)
        if give is None:
            action = _table_choice(rows, D, 1, hands[D], trump, draws, visits) if tables and not forced else NO_TABLE
            if action != NO_TABLE:
                give = action == GIVE
                answer = "its table"
            else:
                give = not forced and d_strength >= rows[D][GIVE_AT_LEAST]
                answer = f"strength {d_strength} >= {rows[D][GIVE_AT_LEAST]}"
        if give:
            # 4. give
            res["gave"] = 1
            res["gift"][E] = 1
            say(f"give: seat {D} gives ({answer})")
            if add(E, "gift"):
                return finish()  # (reading R3)
            if int(rules.gift_then) == GIFT_THEN_REDEAL:
                res["thrown_in"] = 1
                res["next_dealer"] = D if rules.gift_redeal_same_dealer else E
                say(f"thrown in: the cards are thrown in; seat {res['next_dealer']} deals next")
                return finish()
        else:
            # 5. run
            res["ran"] = 1
            if answer in ("advised", "its table"):
                say(f"run: seat {D} runs ({answer})")
            elif forced:
                say(f"run: seat {D} must run (a gift would take seat {E} to {target})")
            else:
                say(f"run: seat {D} runs (strength {d_strength} < {rows[D][GIVE_AT_LEAST]})")
            rejected = trump
            while True:
                res["rounds"] += 1
                e_cards, d_cards = deal_three(E), deal_three(D)
                up = pack.draw()
                res["turnups"].append(up)
                if log is not None:
                    say(
                        f"round {res['rounds']}: seat {E} gets {_names(e_cards)}; seat {D} gets "
                        f"{_names(d_cards)}; turn-up {card_name(up)}"
                    )
                if _suit(up) != rejected:
                    trump = _suit(up)
                    res["trump"] = trump
                    say(f"trump: {SUIT_NAMES[trump]}")
                    if _face(up) == JACK:
                        res["turned_jacks"][D] += 1
                        if add(D, "turned jack"):
                            return finish()
                    break
                if pack.left() >= ROUND:
                    say(f"round {res['rounds']}: {SUIT_NAMES[rejected]} again, set aside")
                    continue
                # the pack is exhausted: a void deal
                res["void"] = 1
                res["trump"] = -1
                res["next_dealer"] = D
                cancelled = res["turned_jacks"][D]
                if cancelled and not rules.exhaust_keeps_jack_points:
                    score[D] -= cancelled
                    res["points"][D] -= cancelled
                    res["turned_jacks"][D] = 0
                    say(
                        f"void: the pack is exhausted; seat {D}'s {cancelled} turned-jack point is taken back "
                        f"({scores_text()}); seat {D} deals again"
                    )
                else:
                    say(f"void: the pack is exhausted; seat {D} deals again")
                return finish()
            if rules.bunch:
                # (reading R5) on the whole hand, before any discarding
                want = [strength(hands[s], trump) < rows[s][BUNCH_BELOW] for s in range(2)]
                if all(want):
                    res["bunched"] = 1
                    res["next_dealer"] = D
                    say(f"bunch: both seats want a redeal; seat {D} deals again")
                    return finish()
            after = int(rules.after_run)
            if after == DISCARD_TO_SIX or (after == FOSTER_CLUB and res["rounds"] >= 2):
                for s in (E, D):
                    kept, thrown = _keep_six(hands[s], trump)
                    res["discarded"][s] = thrown
                    say(f"discard: seat {s} discards {_names(thrown)}")
            elif after not in (KEEP_ALL, FOSTER_CLUB):
                raise ValueError(f"unknown after_run code {after}")
    else:
        say(f"stand: seat {E} stands ({why})")

    # 6. play
    res["played"] = 1
    held = [sorted(set(hands[s]) - set(res["discarded"][s])) for s in range(2)]
    if log is not None:
        say(f"play: {SUIT_NAMES[trump]} trumps; seat {E} holds {_names(held[E])}; seat {D} holds {_names(held[D])}")
    in_hand = [list(h) for h in held]
    turned = set(res["turnups"])  # (reading R7)
    dead = [turned | set(res["discarded"][s]) for s in range(2)]
    holder = {c: s for s in range(2) for c in held[s]}
    trick_of = {}
    taken = [[], []]
    leader = E
    for number in range(1, len(held[E]) + 1):
        other = 1 - leader
        if number == 1 and lead is not None:
            lead_card = lead
        else:
            lead_card = _choose(rows[leader][PLAY_STYLE], in_hand[leader], None, trump, dead[leader])
        in_hand[leader].remove(lead_card)
        follow_card = _choose(rows[other][PLAY_STYLE], in_hand[other], lead_card, trump, dead[other])
        in_hand[other].remove(follow_card)
        winner = other if _beats(follow_card, lead_card, trump) else leader
        for s in range(2):
            dead[s] |= {lead_card, follow_card}
        res["tricks"].append((leader, [(leader, lead_card), (other, follow_card)], winner))
        taken[winner].extend((lead_card, follow_card))
        trick_of[lead_card] = trick_of[follow_card] = winner
        say(
            f"trick {number}: seat {leader} {card_name(lead_card)}, seat {other} {card_name(follow_card)}; "
            f"seat {winner} wins"
        )
        leader = winner

    # 7. scoring
    trumps = [c for c in holder if _suit(c) == trump]
    jack = trump * N_FACES + JACK
    gp = [sum(counting_points(c) for c in taken[s]) for s in range(2)]
    res["game_points"] = gp
    res["trumps_in_play"] = len(trumps)
    res["jack_in_play"] = 1 if jack in holder else 0
    res["game_tie"] = 1 if gp[0] == gp[1] else 0  # (reading R2)
    if trumps:
        top = max(trumps, key=rank_value)
        res["high"] = holder[top]
        if add(holder[top], f"high ({card_name(top)})"):
            return finish()
        bottom = min(trumps, key=rank_value)
        if int(rules.low_to) == LOW_TO_DEALT_HOLDER:
            res["low"] = holder[bottom]
        elif int(rules.low_to) == LOW_TO_TRICK_WINNER:
            res["low"] = trick_of[bottom]
        else:
            raise ValueError(f"unknown low_to code {rules.low_to}")
        if add(res["low"], f"low ({card_name(bottom)})"):
            return finish()
        if jack in holder:
            res["jack"] = trick_of[jack]
            if add(res["jack"], f"jack ({card_name(jack)})"):
                return finish()
    else:
        say("no trump in play: only Game is scored")
    if gp[0] != gp[1]:
        res["game"] = 0 if gp[0] > gp[1] else 1
    elif int(rules.game_tie) == TIE_ELDER_SCORES:
        res["game"] = E
    elif int(rules.game_tie) != TIE_NOBODY:
        raise ValueError(f"unknown game_tie code {rules.game_tie}")
    if res["game"] >= 0:
        if add(res["game"], f"game ({gp[0]}-{gp[1]} counting points)"):
            return finish()
    else:
        say(f"game: tied {gp[0]}-{gp[1]}, nobody scores")
    return finish()


def play_dealt(rules: Rules, policy, cards, dealer: int = 1, scores=(0, 0), log=None) -> dict:
    """Play one deal from a stacked pack (no shuffling).

    ``cards`` are the top of the pack in draw order (3 to E, 3 to D, 3 to E, 3 to D, the
    turn-up, then for each round of a run 3 to E, 3 to D and a turn-up); every card not
    listed follows in code order.  ``dealer`` is 0 or 1, ``scores`` the seats' scores
    before the deal (each below the target).  ``log`` (a list) receives a readable line
    per step.  Returns the dict the kernel's ``play_dealt`` describes.
    """
    _check_rules(rules)
    rows = _prepared(policy)
    if dealer not in (0, 1):
        raise ValueError(f"the dealer must be seat 0 or 1, not {dealer}.")
    scores = list(scores)
    if len(scores) != N_PLAYERS or any(int(s) != s or not 0 <= s < rules.target for s in scores):
        raise ValueError(
            f"the scores must be two whole numbers from 0 to {rules.target - 1} (below the "
            f"target), not {tuple(scores)}."
        )
    return _play(rules, rows, Pack(stacked_pack(cards)), int(dealer), scores, log)


def hand_result(rules: Rules, policy, seed: int, index: int, log=None) -> dict:
    """The play_dealt result of hand ``index`` of ``seed`` as hand mode plays it."""
    _check_rules(rules)
    return _play(rules, _prepared(policy), Pack(range(N_CARDS), Stream(seed, index)), 1, (0, 0), log)


# ----------------------------------------------------------------------------------------
# Hand mode


def play_hand(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Hand ``index`` of ``seed`` in hand mode: ``Stream(seed, index)``, E = seat 0, D = seat
    1, scores 0-0.  Returns ``(seat_rows, table_row)`` in ``HAND_OUTCOMES`` column order."""
    SPEC.check(rules, policy, n_seats)
    res = hand_result(rules, policy, seed, index, log)
    seat_rows = []
    for s in range(N_PLAYERS):
        p, tj, gp = res["points"][s], res["turned_jacks"][s], res["game_points"][s]
        seat_rows.append(
            [
                p,
                p * p,
                1 if res["high"] == s else 0,
                1 if res["low"] == s else 0,
                1 if res["jack"] == s else 0,
                1 if res["game"] == s else 0,
                res["gift"][s],
                tj,
                tj * tj,
                gp,
                gp * gp,
            ]
        )
    played = res["played"]
    runs = [1 if res["ran"] and res["rounds"] == k else 0 for k in range(1, MAX_ROUNDS + 1)]
    table_row = (
        [
            res["begged"],
            res["gave"],
            res["ran"],
            res["void"],
            res["thrown_in"],
            res["bunched"],
            played,
            1 if played and res["trumps_in_play"] == 0 else 0,
            1 if played and res["trumps_in_play"] == 1 else 0,
            res["jack_in_play"],
            res["game_tie"],
        ]
        + runs
        + [played] * 4
        + [res["ran"]] * MAX_ROUNDS
    )
    assert len(seat_rows[0]) == len(HAND_OUTCOMES.seat) and len(table_row) == len(HAND_OUTCOMES.table)
    return seat_rows, table_row


# ----------------------------------------------------------------------------------------
# Game mode


def play_game(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Game ``index`` of ``seed``: all its deals draw from ``Stream(seed, index)``, seat 1
    deals first, scores start 0-0.  Returns ``(seat_rows, table_row)`` in
    ``GAME_OUTCOMES`` column order."""
    SPEC.check(rules, policy, n_seats)
    _check_rules(rules)
    rows = _prepared(policy)
    stream = Stream(seed, index)
    scores = [0, 0]
    dealer = 1
    begged = [0, 0]
    gave = [0, 0]
    deals = played = void = thrown_in = bunched = 0
    while True:
        deals += 1
        if log is not None:
            log.append(f"-- deal {deals}")
        res = _play(rules, rows, Pack(range(N_CARDS), stream), dealer, scores, log)
        scores = res["scores"]
        begged[1 - dealer] += res["begged"]
        gave[dealer] += res["gave"]
        played += res["played"]
        void += res["void"]
        thrown_in += res["thrown_in"]
        bunched += res["bunched"]
        if res["winner"] >= 0:
            break
        dealer = res["next_dealer"]
    winner = res["winner"]
    if log is not None:
        log.append(f"game over after {deals} deals: seat {winner} wins {scores[0]}-{scores[1]}")
    seat_rows = [
        [1 if s == winner else 0, scores[s], scores[s] ** 2, begged[s], begged[s] ** 2, gave[s], gave[s] ** 2]
        for s in range(N_PLAYERS)
    ]
    table_row = [
        deals,
        deals * deals,
        played,
        played * played,
        void,
        void * void,
        thrown_in,
        thrown_in**2,
        bunched,
        bunched**2,
        1 - res["played"],
    ]
    bucket = max(i for i, low in enumerate(LENGTH_BUCKET_LOW) if deals >= low)
    table_row += [1 if i == bucket else 0 for i in range(len(LENGTH_BUCKET_LOW))]
    assert len(seat_rows[0]) == len(GAME_OUTCOMES.seat) and len(table_row) == len(GAME_OUTCOMES.table)
    return seat_rows, table_row


# ----------------------------------------------------------------------------------------
# Batch and replay


def simulate(rules: Rules, policy, n_seats: int, mode: int, seed: int, first: int, count: int):
    """Sum hands (mode 0) or games (mode 1) ``first .. first+count-1`` of ``seed`` into the
    kernels' ``(n_seats + 1, width)`` int64 layout."""
    if mode == 0:
        outcomes, play = HAND_OUTCOMES, play_hand
    elif mode == 1:
        outcomes, play = GAME_OUTCOMES, play_game
    else:
        raise ValueError(f"mode must be 0 (hands) or 1 (games), got {mode}")
    SPEC.check(rules, policy, n_seats)
    _check_rules(rules)
    return sum_outcome_rows(play, outcomes, rules, _prepared(policy), n_seats, seed, first, count)


def replay_lines(rules: Rules, policy, n_seats: int, seed: int, hand: int) -> list[str]:
    """The readable log of hand ``hand`` of ``seed`` in hand mode (the hand play_hand plays)."""
    lines = [f"All-Fours: seed {seed}, hand {hand} (seat 0 elder, seat 1 dealer, scores 0-0, target {rules.target})"]
    play_hand(rules, policy, n_seats, seed, hand, lines)
    return lines


# ----------------------------------------------------------------------------------------
# Advice


class _DealtPack(Pack):
    """The pack of an advised deal: the first deal's 13 cards lie in draw order as the
    conditioned deal put them (drawn without swaps); the stock after them is drawn by
    lazy Fisher-Yates steps on the stream."""

    def draw(self) -> int:
        if self.t < FIRST_DEAL:
            self.t += 1
            return self.cards[self.t - 1]
        return super().draw()


def _stream_copy(stream: Stream) -> Stream:
    copy = Stream.__new__(Stream)
    copy.s = list(stream.s)
    return copy


def _would_act(rows: _Rows, seat: int, decision: int, hand, suit: int, stream: Stream) -> bool:
    """Would seat ``seat`` have begged (decision 0, as elder) or given (1, as dealer)
    holding ``hand``?  By its table where it plays one (a mixed cell draws from
    ``stream``), else by beg_below or give_at_least."""
    if len(rows.full[seat]) > len(POLICY_FIELDS):
        action = _table_choice(rows, seat, decision, hand, suit, stream, None)
        if action != NO_TABLE:
            return action == (BEG if decision == 0 else GIVE)
    if decision == 0:
        return strength(hand, suit) < rows[seat][BEG_BELOW]
    return strength(hand, suit) >= rows[seat][GIVE_AT_LEAST]


def advise(rules, policy, n_seats: int, seed: int, first: int, count: int, known, n_candidates: int, n_outcomes: int):
    """The flat advice sums of deals ``first .. first+count-1`` of ``seed`` (the module
    docstring of sims/games/all_fours/advice.py says what is played): seat 0 the elder,
    seat 1 the dealer; ``known`` holds the decision, the turn-up, the scores and the
    advised seat's six cards."""
    rules = Rules(*(int(v) for v in rules))
    SPEC.check(rules, policy, n_seats)
    _check_rules(rules)
    rows = _prepared(policy)
    known = [int(v) for v in known]
    decision = known[K_DECISION]
    given = known[K_GIVEN] == 1  # the lead follows a beg answered with a gift
    seen = known[K_SEEN] == 1  # the beg or the gift taken as given: no deal rejected
    elder, dealer = 0, 1
    advised = dealer if decision == ADVICE_GIVE else elder
    scores = [0, 0]
    scores[elder], scores[dealer] = known[K_SCORE_ELDER], known[K_SCORE_DEALER]
    # The first deal's positions: 3 to E, 3 to D, 3 to E, 3 to D, the turn-up.
    places = [0, 1, 2, 6, 7, 8] if advised == elder else [3, 4, 5, 9, 10, 11]
    fixed = [-1] * FIRST_DEAL
    for place, card in zip(places, known[K_HOLDING : K_HOLDING + HELD]):
        fixed[place] = card
    fixed[FIRST_DEAL - 1] = known[K_TURNUP]
    out = [0] * advice_width(n_candidates, n_outcomes)
    for index in range(first, first + count):
        stream = Stream(seed, index)
        out[TRIED] += 1
        dealt = deal_conditioned(stream, range(N_CARDS), fixed)
        suit = _suit(dealt[-1])
        if (
            not seen
            and decision == ADVICE_GIVE
            and not _would_act(rows, elder, 0, dealt[0:3] + dealt[6:9], suit, stream)
        ):
            continue  # the elder would have stood: not what the dealer saw
        if not seen and given and not _would_act(rows, dealer, 1, dealt[3:6] + dealt[9:12], suit, stream):
            continue  # the dealer would have run: not what the elder saw
        stock = [card for card in range(N_CARDS) if card not in dealt]
        values = []
        for choice in range(n_candidates):
            pack = _DealtPack(dealt + stock, _stream_copy(stream))
            if decision == ADVICE_BEG:  # "stand", "beg"
                res = _play(rules, rows, pack, dealer, scores, None, beg=choice == 1)
            elif decision == ADVICE_GIVE:  # "give", "run"
                res = _play(rules, rows, pack, dealer, scores, None, beg=True, give=choice == 0)
            else:  # "lead <card>", the held cards in code order, after a stand or a gift
                lead = known[K_HOLDING + choice]
                res = _play(rules, rows, pack, dealer, scores, None, beg=given, give=given or None, lead=lead)
            own, other = res["points"][advised], res["points"][1 - advised]
            while n_outcomes > 3 and res["winner"] < 0:  # the rest of the game, by the policies
                res = _play(rules, rows, Pack(range(N_CARDS), pack.stream), res["next_dealer"], res["scores"], None)
            values.append([own - other, own, other, 1 if res["winner"] == advised else 0][:n_outcomes])
        record_deal(out, values)
    return out


# ----------------------------------------------------------------------------------------
# Solve


def solve(rules, policy, n_seats: int, seed: int, first: int, count: int, decision: int) -> list[int]:
    """The flat solve sums ``[seat, cell, stat]`` (sims.core.table_nb) of deals ``first ..
    first+count-1`` of ``seed`` for decision ``decision`` (0 beg, 1 give): each deal is
    hand ``i`` of hand mode under the profile; when the decision is visited (the beg by
    seat 0, the give by seat 1, at most once a deal) the deal is played again with the
    visit forced to the other action, and the seat's points minus the other seat's are
    recorded for both actions."""
    rules = Rules(*(int(v) for v in rules))
    SPEC.check(rules, policy, n_seats)
    _check_rules(rules)
    rows = _prepared(policy)
    width = 1 + 2 * N_ACTIONS + N_ACTIONS * N_ACTIONS
    out = [0] * (n_seats * N_CELLS * width)
    seat = decision
    for index in range(first, first + count):
        visits: dict = {}
        res = _play(rules, rows, Pack(range(N_CARDS), Stream(seed, index)), 1, (0, 0), None, visits=visits)
        if decision not in visits:
            continue
        taken = res["begged"] if decision == 0 else 1 - res["gave"]
        values = [0, 0]
        values[taken] = res["points"][seat] - res["points"][1 - seat]
        forced = {"force": (decision, 1 - taken)}
        res = _play(rules, rows, Pack(range(N_CARDS), Stream(seed, index)), 1, (0, 0), None, visits=forced)
        values[1 - taken] = res["points"][seat] - res["points"][1 - seat]
        record_visit(out, seat, visits[decision], N_CELLS, values, (1 << N_ACTIONS) - 1)
    return out
