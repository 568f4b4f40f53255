"""Fight for the Lead: advice on one seat's next decision (``analyze advise``).

The hand is one hand of the rules contract (the package docstring): dealer seat n-1, the
pot at stake ``pot``, compulsory (a first hand, or a forced replay) or not.  The advised
seat is ``--position``; its ``--holding`` is its four cards at the decision.  Which
decision is meant follows from the context:

  fight card  (no ``fight`` given): the holding is the four cards dealt.  Candidates:
      each of the four as the fight card, ``"fight Ac"``.
  stay/drop   (``fight`` and ``turned`` given, a later hand, no ``playing``): the holding
      is the four cards after the replacement.  Candidates ``"stay"``, ``"drop"``.
  trade       (``fight`` and ``turned`` given, and ``playing`` given or the hand
      compulsory): the holding is the four cards after the replacement; the seat plays.
      Candidates: every set of cards to throw away, ``"keep all"``, ``"trade 2c"``, ...,
      ``"trade 2c 5d 9h Kd"`` (16; by number of cards, then in holding order).  Where the
      stock cannot serve the whole trade, the rules cut it (trade_exhaust): the seat then
      trades the lowest of the cards it named, as a policy's trade is cut.

Context keys (values as on the command line)
  hand      ``first`` (a compulsory hand: the first of a game, or a forced replay after
            everyone dropped; everyone plays) or ``later`` (players may drop).  Default:
            the rule sample_hand (later unless changed).
  pot       the pot at stake, a positive multiple of 4 (and of the players under
            refund-split), at most ADVICE_POT_LIMIT = 2**30 chips (one deal's outcome is at
            most the pot, and the analyzer's batches of 2**62 // pot**2 deals need
            pot**2 < 2**62: a larger pot is refused in one sentence; game mode's
            POT_LIMIT is larger because its sums are wide); default players x ante, the
            pot hand mode plays.  Chips scale with it (the rules pay pot/4 a trick and
            charge the pot to a seat without one).
  fight     every seat's fight card, in seat order 0..n-1 (``"2c 4d 3h 6s"``), the
            advised seat's own included (it is no longer in the holding).
  turned    the cards turned in the fight, in order (``"9c Jd"``): every one but the last
            of a suit no fight card has, the last of a suit some fight card has (the
            winner of the lead follows from the two; a fight that turns the whole stock,
            or leaves too few cards for the replacement, is refused: it reshuffles).
  playing   the seats that play, as seat numbers (``"0 2 3"``), the advised seat among
            them and at least two (with one player there is no trading).
  traded    how many cards each earlier trader traded, in trade order (``"3 0"``): one
            number per playing seat before the advised seat in the trade order (from the
            dealer's left, or from the leader under trade_order=from-lead-winner).  Left
            out, the earlier trades are not conditioned on (the player did not look).
  The rules allow the player to know the pot and the hand number (hand, pot), the fight
  cards, turned cards and so the winner of the lead (fight, turned), who plays (playing)
  and earlier traders' counts (traded); nothing else is asked or used.  Its own
  replacement card is not asked: which of the four it was changes nothing that follows.
  That is every public action before each decision: nothing is public before the fight
  card; the stays are made at once, so the stay-or-drop decision sees only the fight; the
  other seats' replacement and trade draws are hidden.
  Left out (Decision.absent; Situation.assumed names the ones a question left out): hand,
  the rule sample_hand's hand; pot, players x ante; playing, everyone in a compulsory
  hand (in a later hand, without it the decision is stay or drop); traded, the earlier
  traders' counts were not noticed (they trade by their policies, not conditioned on).
  Situation.described gives the context as understood: hand, pot, fight, turned, the
  lead (the fight's winner), playing and traded.

How deals are conditioned
  The pack's first F positions (the deal, F = 4n, for the fight card; the deal, the
  turned cards and the replacements, F = 4n + t + n, for the later decisions) are dealt
  by sims.core.advice.deal_conditioned_nb with the known cards fixed: the advised seat's
  dealt positions (seat s gets positions s, s+n, s+2n, s+3n) hold its four cards (for the
  later decisions: its fight card and the first three of its holding, in card-code
  order, the fourth at its replacement position 4n + t + s), every other seat's first
  position its fight card, the turned cards their positions 4n..; everything else from
  the rest of the pack.  The rest of the pack follows in code order, and the hand is
  played from that pack: the first F positions are taken in order, every later draw is
  the hand's lazy Fisher-Yates draw from the stream (so the fight, replacements and
  trades of the fight-card decision, and the trades of the later ones, are random).
  The hand is played forward under the policies, the advised seat's earlier choices
  forced to what the context says (its fight card; its stay at the trade decision), and
  the deal is kept only when the other seats' fight cards are those their fight_card
  policies choose from the cards dealt, the seats that play (stay/drop by policy) are
  ``playing``, and the earlier traders' counts are ``traded``: exact conditioning by
  rejection.  Each candidate then plays the hand from the same pack and stream state.
  Seats playing tables (the package docstring, "Strategy tables") decide from them, a
  mixed cell drawing from that stream; the advised seat's forced fight card replaces
  what its table laid (after the table's draw), and a seat forced to stay or drop plays
  no stay table (no draw).

  infer (sims.core.advice.INFER) says how that history is read.  ``policy`` (the default)
  is the conditioning above.  ``seen`` plays the other seats' actions as given: each lays
  down the fight card given (it is among its four cards: the deal put it there), the
  seats in ``playing`` stay and the others drop, and each earlier trader with a count
  trades that many cards, its lowest (reading: which cards it threw is hidden; the
  lowest are what a keep_min_rank player throws).  Their other cards are dealt uniformly
  from the rest, and a deal is rejected only where a visible fact differs: an earlier
  trader allowed fewer cards than its count by a short stock.  A history the policies
  would never produce (a seat fighting with an ace under fight_card=lowest) is answered
  under seen and accepts no deal under policy.  The fight-card decision has no history
  that depends on the other seats' policies (nothing is public before it), so there
  seen and policy are the same thing and give the same sums.

Outcomes (the advised seat's, per hand, at pot ``pot``; TERMS defines them for ``analyze rules``)
  net     chips won from the pot minus chips paid into the next one (as hand mode's net).
  tricks  tricks taken.
  took_0  1 if it played and took no trick (so it pays the pot); a player wants it small.
  lead    1 if it won the fight (fight-card decision only).
  Situation.largest is max(pot, 4): |net| is at most the pot (four tricks pay the pot, a
  seat without a trick pays the pot, a refund share is pot/n), tricks at most 4.

The ``known`` encoding (int64; :func:`read_known` reads it back), for the kernel and twin
  [decision, position, pot, compulsory, F, playing mask (bit s: seat s; -1: not
  conditioned), seen (1 under infer="seen")], then n fight card codes (-1: not given), n traded counts expected
  (-1: not conditioned), F prefix codes (-1: dealt from the rest), and one entry per
  candidate: the fight card's code, 1 stay / 0 drop, or the mask (bit = card code) of
  the cards to trade.
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
from sims.core.cards import format_cards
from sims.core.deck import N_CARDS
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.tricks import lowest_card_nb
from sims.games.fight_for_the_lead.kernel import (
    BIT_OF_CODE,
    STAY_OFFSET,
    all_drop_nb,
    choose_leader_nb,
    deal_nb,
    fight_nb,
    lay_fight_cards_nb,
    lone_player_nb,
    new_table_nb,
    play_tricks_nb,
    replace_nb,
    rule_codes_nb,
    settle_nb,
    start_hand_nb,
    stay_or_drop_nb,
    trade_nb,
)
from sims.games.fight_for_the_lead.rules import (
    POT_LIMIT,
    REFUND_SPLIT,
    SAMPLE_FIRST,
    STAY_MIN_STRENGTH,
    STAY_WITH_LEAD,
    TRADE_FROM_LEAD_WINNER,
    ante_for,
)

FIGHT, STAY, TRADE = range(3)  # the decisions, as known[K_DECISION] holds them
DECISION_NAMES = ("fight card", "stay or drop", "trade")
K_DECISION, K_POSITION, K_POT, K_COMPULSORY, K_PREFIX, K_PLAYING, K_SEEN, K_SEATS = range(8)  # then per-seat rows
OUTCOMES = ("net", "tricks", "took_0", "lead")  # the kernel writes them in this order
NEVER_STAYS = 10  # a stay_min_strength no hand reaches (2 per ace + 1 per guarded king is at most 8)
ADVICE_POT_LIMIT = 1 << 30  # the largest pot advised on: a deal's square (at most pot**2 = 2**60) stays below 2**62

_HAND = "which hand of the game: first (compulsory: everyone plays) or later (players may drop)"
_POT = f"the pot at stake: a positive multiple of 4, at most {ADVICE_POT_LIMIT} (default players x ante)"
_FIGHT = "every seat's fight card in seat order 0..n-1, yours included (e.g. '2c 4d 3h 6s')"
_TURNED = "the cards turned in the fight, in order; the last one's suit decided the lead (e.g. '9c Jd')"
_PLAYING = "the seats that stayed in and play, yours included (e.g. '0 2 3')"
_TRADED = "how many cards each earlier trader traded, in trade order (e.g. '3 0')"

_ABSENT = {
    "hand": "the rule sample_hand decides: a later hand (players may drop) unless it says first",
    "pot": "the pot is players x ante, the pot hand mode plays",
    "fight": "required here: without it the decision asked is the fight card (no fight yet)",
    "turned": "required with fight: the fight turns at least one card",
    "playing": "in a later hand the decision is stay or drop (nobody's choice seen yet); in a compulsory hand "
    "everyone plays",
    "traded": "the earlier traders' counts were not noticed: they trade by their policies, unseen",
}

DECISIONS = (
    Decision(
        "fight card",
        "which of the four cards dealt to lay down in the fight",
        {"hand": _HAND, "pot": _POT},
        'analyze advise fight-for-the-lead --players 4 --position 0 --holding "Ac Kc 2d 7h"',
        {key: _ABSENT[key] for key in ("hand", "pot")},
    ),
    Decision(
        "stay or drop",
        "in a later hand, after the fight and the replacement: play the hand or drop out",
        {"hand": _HAND, "pot": _POT, "fight": _FIGHT, "turned": _TURNED},
        'analyze advise fight-for-the-lead --players 4 --position 1 --holding "Kh 5h 9c 3d" '
        '--context fight="2c 4d 3h 6s" --context turned="9s"',
        {key: _ABSENT[key] for key in ("hand", "pot", "fight", "turned")},
    ),
    Decision(
        "trade",
        "which of the four cards to throw away and draw again from the stock",
        {"hand": _HAND, "pot": _POT, "fight": _FIGHT, "turned": _TURNED, "playing": _PLAYING, "traded": _TRADED},
        'analyze advise fight-for-the-lead --players 4 --position 2 --holding "Ah 9h 5c 3d" '
        '--context hand=first --context fight="2c 2d 5s 2h" --context turned="Jd" --context traded="3 2"',
        {key: _ABSENT[key] for key in ("hand", "pot", "fight", "turned", "playing", "traded")},
    ),
)

TERMS = {
    "net": "chips the advised seat wins from the pot this hand minus the chips it pays into the next pot "
    "(a quarter of the pot per trick; the whole pot paid by a player who takes no trick).",
    "tricks": "tricks the advised seat takes this hand (0 to 4; 0 when it drops).",
    "took_0": "1 when the advised seat plays and takes no trick, so it pays the pot into the next one; else 0.",
    "lead": "1 when the advised seat wins the fight (its fight card is the highest of the suit turned up); else 0.",
    "fight card": "the card each seat lays down at once before the fight; the highest fight card of the first "
    "turned card's suit wins the lead (policy fight_card: lowest, highest, highest-non-ace, "
    "lowest-of-longest-suit).",
    "turned": "the cards turned from the stock in the fight, until one has the suit of some fight card.",
    "strength score": "2 per ace + 1 per guarded king (a king with another card of its suit) in a hand of four: "
    "a seat stays in when it reaches stay_min_strength (or won the fight, with stay_with_lead).",
    "keep_min_rank": "a trading seat throws away every card ranked below it (2..15; J=11, Q=12, K=13, A=14), "
    "its lowest ones when the stock is short.",
    "play_style": "how a seat plays its cards: greedy (leads its highest sure winner, else its lowest card; "
    "follows with the lowest card that wins) or high (always its highest card).",
    "infer": "policy: the deals are kept only where the other seats' policies reproduce what you saw (their "
    "fight cards, who stayed, their trade counts); seen: their actions are taken as you saw them, and "
    "their hidden cards are dealt at random among the deals consistent with what you saw.",
}


# ------------------------------------------------------------------------------ the situation


def _rank(code: int) -> int:
    """Rank value 2..14 (ace high) of a card code."""
    face = code % 13
    return 14 if face == 0 else face + 1


def _seats(key: str, text: str, n: int) -> list[int]:
    """Seat numbers of a context value ('0 2 3')."""
    seats = []
    for word in str(text).replace(",", " ").split():
        if not word.isdigit() or int(word) >= n:
            raise ValueError(f"context {key} takes seat numbers 0..{n - 1}, not '{text}'.")
        seats.append(int(word))
    if len(set(seats)) != len(seats):
        raise ValueError(f"context {key} names a seat twice: '{text}'.")
    return sorted(seats)


def _counts(key: str, text: str) -> list[int]:
    """Trade counts of a context value ('3 0'), each 0..4."""
    return [context_int(key, word, 0, 4) for word in str(text).replace(",", " ").split()]


def _lead_of(fight: list[int], turned: list[int], n: int) -> int:
    """The fight's winner from the fight cards and the turned cards (checked for order)."""
    fight_suits = {card // 13 for card in fight}
    for card in turned[:-1]:
        if card // 13 in fight_suits:
            raise ValueError(
                f"context turned: the fight stops at {format_cards([card])}, "
                "whose suit a fight card has, so no card is turned after it."
            )
    suit = turned[-1] // 13
    if suit not in fight_suits:
        raise ValueError(
            f"context turned: the last turned card {format_cards(turned[-1:])} must have the suit of some fight card."
        )
    return max((s for s in range(n) if fight[s] // 13 == suit), key=lambda s: _rank(fight[s]))


def _traders(rules, n: int, playing: list[int], lead: int) -> list[int]:
    """The playing seats in trade order (dealer seat n-1: from seat 0, or from the leader)."""
    if int(rules.trade_order) != TRADE_FROM_LEAD_WINNER:
        return list(playing)
    leader = next((lead + i) % n for i in range(n) if (lead + i) % n in playing)
    return [(leader + i) % n for i in range(n) if (leader + i) % n in playing]


def _pot_and_hand(rules, n: int, context) -> tuple[int, bool]:
    pot = n * ante_for(rules, n)
    if "pot" in context:
        pot = context_int("pot", context["pot"], 4, POT_LIMIT)
        if pot > ADVICE_POT_LIMIT:
            raise ValueError(
                f"context pot takes at most {ADVICE_POT_LIMIT} chips in advice (2**30: the sums of squares of a "
                f"larger pot's chips would overflow), not {pot}."
            )
        split = int(rules.all_drop) == REFUND_SPLIT
        if pot % 4 or (split and pot % n):
            extra = f" and of the {n} players (refund-split)" if split else ""
            raise ValueError(f"context pot must be a multiple of 4{extra}, not {pot}.")
    compulsory = int(rules.sample_hand) == SAMPLE_FIRST
    if "hand" in context:
        word = str(context["hand"]).strip().lower()
        if word not in ("first", "later"):
            raise ValueError(f"context hand takes first or later, not '{context['hand']}'.")
        compulsory = word == "first"
    return pot, compulsory


def _check_holding(holding) -> list[int]:
    if len(holding) != 4:
        raise ValueError(f"a Fight for the Lead player holds 4 cards at every decision, not {len(holding)}.")
    for card in holding:
        if not 0 <= card < N_CARDS:
            raise ValueError(f"card code {card} is not a card of the 52-card pack.")
    return sorted(holding, key=lambda c: (c // 13, _rank(c)))


def situation(rules, n_seats: int, position: int, holding, context, infer: str = "policy") -> Situation:
    """The advised seat's next decision (module docstring), its candidates and ``known``;
    ``infer`` reads the history given (module docstring, "How deals are conditioned")."""
    n = int(n_seats)
    unknown_context(DECISIONS, context)
    hold = _check_holding(holding)
    pot, compulsory = _pot_and_hand(rules, n, context)
    seen = infer == "seen"
    described: dict[str, object] = {"hand": "first" if compulsory else "later", "pot": pot}
    assumed: dict[str, str] = {}
    if "hand" not in context:
        assumed["hand"] = f"a {'first (compulsory)' if compulsory else 'later'} hand, as the rule sample_hand says"
    if "pot" not in context:
        assumed["pot"] = f"the pot is {pot} chips (players x ante)"
    largest = max(pot, 4)  # |net| <= the pot (four tricks pay it, a loser pays it); tricks <= 4
    if "fight" not in context:
        for key in ("turned", "playing", "traded"):
            if key in context:
                raise ValueError(f"context {key} needs fight: the fight cards come first.")
        prefix = [-1] * (4 * n)
        for j, card in enumerate(hold):
            prefix[position + j * n] = card
        known = _known(FIGHT, n, position, pot, compulsory, -1, seen, [-1] * n, [-1] * n, prefix, hold)
        labels = tuple(f"fight {format_cards([c])}" for c in hold)
        return _situation("fight card", labels, OUTCOMES, known, described, assumed, infer, largest)
    if "turned" not in context:
        raise ValueError("context fight needs turned too: whoever saw the fight cards saw the cards turned for it.")
    fight, turned, lead = _fight_context(n, position, hold, context)
    described.update(fight=format_cards(fight), turned=format_cards(turned), lead=lead)
    prefix = _later_prefix(n, position, hold, fight, turned)
    if not compulsory and "playing" not in context:
        if "traded" in context:
            raise ValueError("context traded needs playing: trading comes after everyone has stayed or dropped.")
        known = _known(STAY, n, position, pot, compulsory, -1, seen, fight, [-1] * n, prefix, [1, 0])
        return _situation("stay or drop", ("stay", "drop"), OUTCOMES[:3], known, described, assumed, infer, largest)
    if compulsory and not rules.trade_in_first_hand:
        raise ValueError("there is no trading in a compulsory hand under trade_in_first_hand=false.")
    playing, expected, counts = _trade_context(rules, n, position, lead, compulsory, context)
    described["playing"] = " ".join(map(str, playing))
    if "playing" not in context:
        assumed["playing"] = "everyone plays (a compulsory hand)"
    if counts is not None:
        described["traded"] = " ".join(map(str, counts)) or "none (no earlier trader)"
    elif any(expected[s] < 0 for s in _earlier_traders(rules, n, playing, lead, position)):
        assumed["traded"] = "the earlier traders' counts were not noticed: they trade by their policies, unseen"
    mask = -1 if compulsory else sum(1 << s for s in playing)
    discards = [[c for j, c in enumerate(hold) if subset >> j & 1] for subset in range(16)]
    discards.sort(key=lambda cards: (len(cards), [hold.index(c) for c in cards]))
    labels = tuple(f"trade {format_cards(cards)}" if cards else "keep all" for cards in discards)
    masks = [sum(1 << c for c in cards) for cards in discards]
    known = _known(TRADE, n, position, pot, compulsory, mask, seen, fight, expected, prefix, masks)
    return _situation("trade", labels, OUTCOMES[:3], known, described, assumed, infer, largest)


def _situation(decision, labels, outcomes, known, described, assumed, infer, largest) -> Situation:
    return Situation(
        decision,
        labels,
        outcomes,
        known,
        described=described,
        assumed=assumed,
        infer=infer,
        smaller=("took_0",),
        largest=largest,
    )


def _earlier_traders(rules, n: int, playing: list[int], lead: int, position: int) -> list[int]:
    """The playing seats that trade before ``position``."""
    traders = _traders(rules, n, playing, lead)
    return traders[: traders.index(position)]


def _fight_context(n: int, position: int, hold: list[int], context) -> tuple[list[int], list[int], int]:
    fight = context_cards("fight", context["fight"], n)
    turned = context_cards("turned", context["turned"])
    if not turned:
        raise ValueError("context turned needs at least one card: the fight turns cards until one decides it.")
    for key, cards in (("fight", fight), ("turned", turned)):
        clash = [c for c in cards if c in hold]
        if clash:
            raise ValueError(f"context {key} names {format_cards(clash[:1])}, which the holding has.")
    clash = [c for c in turned if c in fight]
    if clash:
        raise ValueError(f"context turned names {format_cards(clash[:1])}, which is a fight card.")
    lead = _lead_of(fight, turned, n)
    if 4 * n + len(turned) + n > N_CARDS:
        raise ValueError(
            f"context turned: {len(turned)} turned cards leave too few for the replacement "
            "(a reshuffled replacement is not played here)."
        )
    return fight, turned, lead


def _later_prefix(n: int, position: int, hold: list[int], fight: list[int], turned: list[int]) -> list[int]:
    """The fixed pack positions of a decision after the replacement (module docstring)."""
    prefix = [-1] * (4 * n + len(turned) + n)
    for seat in range(n):
        prefix[seat] = fight[seat]
    for j in range(3):
        prefix[position + (j + 1) * n] = hold[j]
    prefix[4 * n : 4 * n + len(turned)] = turned
    prefix[4 * n + len(turned) + position] = hold[3]
    return prefix


def _trade_context(rules, n: int, position: int, lead: int, compulsory: bool, context):
    """The playing seats, the expected trade counts per seat (-1: not conditioned) and
    the counts as given (None when not given)."""
    playing = list(range(n))
    if "playing" in context:
        playing = _seats("playing", context["playing"], n)
        if compulsory and len(playing) != n:
            raise ValueError("context playing must name every seat in a compulsory hand: everyone plays.")
        if position not in playing:
            raise ValueError(f"context playing leaves out seat {position}, which then has no decision to make.")
        if len(playing) < 2:
            raise ValueError("context playing names one seat: a lone player takes the pot without trading.")
    expected = [-1] * n
    counts = None
    if "traded" in context:
        counts = _counts("traded", context["traded"])
        traders = _traders(rules, n, playing, lead)
        earlier = traders[: traders.index(position)]
        if len(counts) != len(earlier):
            raise ValueError(
                f"context traded takes one count for each of the {len(earlier)} earlier traders "
                f"(seats {' '.join(map(str, earlier)) or 'none'}), not {len(counts)}."
            )
        for seat, count in zip(earlier, counts):
            expected[seat] = count
    return playing, expected, counts


def _known(decision, n, position, pot, compulsory, mask, seen, fight, expected, prefix, candidates) -> np.ndarray:
    head = [decision, position, pot, int(compulsory), len(prefix), mask, int(seen)]
    return np.asarray(head + list(fight) + list(expected) + list(prefix) + list(candidates), dtype=np.int64)


def read_known(known, n: int) -> dict:
    """The ``known`` encoding read back (plain Python): decision, position, pot,
    compulsory, playing (mask or -1), seen (infer="seen"), fight and traded (per seat),
    prefix, candidates."""
    known = [int(v) for v in known]
    length = known[K_PREFIX]
    at = K_SEATS + 2 * n
    return {
        "decision": known[K_DECISION],
        "position": known[K_POSITION],
        "pot": known[K_POT],
        "compulsory": bool(known[K_COMPULSORY]),
        "playing": known[K_PLAYING],
        "seen": bool(known[K_SEEN]),
        "fight": known[K_SEATS : K_SEATS + n],
        "traded": known[K_SEATS + n : K_SEATS + 2 * n],
        "prefix": known[at : at + length],
        "candidates": known[at + length :],
    }


# ------------------------------------------------------------------------------ the kernel


@njit(cache=True, nogil=True)
def advise_nb(rules, policy, n, seed, first, count, known, n_candidates, n_outcomes):
    """The flat advice sums (sims.core.advice) of deals ``first .. first+count-1``."""
    out = np.zeros(advice_width(n_candidates, n_outcomes), dtype=np.int64)
    if count <= 0:
        return out
    tables = new_table_nb(rules, policy, n)
    length = known[K_PREFIX]
    at = K_SEATS + 2 * n
    fixed = np.empty(length, dtype=np.int64)
    for k in range(length):
        code = known[at + k]
        fixed[k] = BIT_OF_CODE[code] if code >= 0 else -1
    decision = known[K_DECISION]
    candidates = np.empty(n_candidates, dtype=np.int64)  # the fight card's bit, 1/0, or the bits' mask
    for c in range(n_candidates):
        value = known[at + length + c]
        if decision == FIGHT:
            value = BIT_OF_CODE[value]
        elif decision == TRADE:
            value = _bits_of_codes_nb(value)
        candidates[c] = value
    values = np.zeros((n_candidates, n_outcomes), dtype=np.int64)
    scratch = np.empty(N_CARDS, dtype=np.int64)
    dealt = np.empty(length, dtype=np.int64)
    pack = np.empty(N_CARDS, dtype=np.int64)
    _advise_deals_nb(tables, out, values, n, seed, first, count, known, fixed, candidates, scratch, dealt, pack)
    return out


@njit(cache=True, inline="always")
def _bits_of_codes_nb(codes):
    """A mask of card codes (bit = code) as a mask of ranked bits."""
    bits = 0
    for code in range(N_CARDS):
        if (codes >> code) & 1:
            bits |= 1 << BIT_OF_CODE[code]
    return bits


@njit(cache=True)
def _advise_deals_nb(tables, out, values, n, seed, first, count, known, fixed, candidates, scratch, dealt, pack):
    """Deal, play forward, reject or play every candidate, and add each kept deal.  The
    record ``tables[0]`` is taken here, while the caller holds ``tables``: a record of an
    array nothing holds any more would be read after the array is freed."""
    table = tables[0]
    seed_key = seed_key_nb(seed)
    codes = rule_codes_nb(table)
    position = known[K_POSITION]
    for i in range(first, first + count):
        state = stream_nb(seed_key, i)
        out[TRIED] += 1
        state = deal_conditioned_nb(scratch, BIT_OF_CODE, dealt, fixed, state)
        _arrange_pack_nb(pack, dealt)
        kept = True
        for c in range(candidates.shape[0]):
            if not _play_candidate_nb(table, pack, n, known, candidates[c], c == 0, state, codes):
                kept = False
                break
            _outcomes_nb(table, values, c, position)
        if kept:
            record_deal_nb(out, values)


@njit(cache=True, inline="always")
def _arrange_pack_nb(pack, dealt):
    """The pack of a deal: the dealt prefix, then every other card in code order."""
    used = np.uint64(0)
    length = dealt.shape[0]
    for k in range(length):
        pack[k] = dealt[k]
        used |= np.uint64(1) << np.uint64(dealt[k])
    at = length
    for code in range(N_CARDS):
        bit = BIT_OF_CODE[code]
        if (used >> np.uint64(bit)) & np.uint64(1) == 0:
            pack[at] = bit
            at += 1


@njit(cache=True, inline="always")
def _play_candidate_nb(table, pack, n, known, candidate, check, state, codes):
    """Play the hand from ``pack`` with the advised seat's decision forced to
    ``candidate``; with ``check``, False as soon as the history leaves the context."""
    trade_first, trade_order, trade_exhaust, all_drop, fight_exhaust = codes
    decision = known[K_DECISION]
    position = known[K_POSITION]
    pot = known[K_POT]
    compulsory = known[K_COMPULSORY] != 0
    dealer = n - 1
    for k in range(N_CARDS):
        table.pack[k] = pack[k]
    start_hand_nb(table, n)
    state = deal_nb(table, n, dealer, False, state)
    state = lay_fight_cards_nb(table, n, state)
    seen = known[K_SEEN] != 0
    if seen:
        _force_seen_fights_nb(table, n, known)
    if check and not _fights_match_nb(table, n, known):
        return False
    if decision == FIGHT:
        _force_fight_card_nb(table, position, candidate)
        state = fight_nb(table, n, dealer, fight_exhaust, True, state)
        state = replace_nb(table, n, dealer, True, state)
    else:
        _force_fight_card_nb(table, position, BIT_OF_CODE[known[K_SEATS + position]])
        state = fight_nb(table, n, dealer, fight_exhaust, False, state)
        state = replace_nb(table, n, dealer, False, state)
    if decision != FIGHT:
        _force_stay_nb(table, position, decision == TRADE or candidate != 0)
    if seen and known[K_PLAYING] >= 0:
        for seat in range(n):
            if seat != position:
                _force_stay_nb(table, seat, (known[K_PLAYING] >> seat) & 1 != 0)
    state = stay_or_drop_nb(table, n, dealer, compulsory, state)
    if check and known[K_PLAYING] >= 0 and table.in_seats != known[K_PLAYING]:
        return False
    playing = table.players_in
    if playing == 0:
        all_drop_nb(table, n, pot, all_drop)
    elif playing == 1:
        lone_player_nb(table, pot)
    else:
        choose_leader_nb(table, n, dealer)
        if not compulsory or trade_first:
            if decision == TRADE:
                table.trade_away[position] = np.uint64(candidate)
            if seen:
                _force_seen_trades_nb(table, n, known)
            state = trade_nb(table, trade_order, trade_exhaust, True, state)
            if check and not _trades_match_nb(table, n, known):
                return False
        play_tricks_nb(table, True)
        settle_nb(table, pot)
    return True


@njit(cache=True, inline="always")
def _fights_match_nb(table, n, known):
    """Every other seat's fight card, where the context gives it, is its policy's choice."""
    position = known[K_POSITION]
    for seat in range(n):
        code = known[K_SEATS + seat]
        if seat != position and code >= 0 and table.fight[seat] != BIT_OF_CODE[code]:
            return False
    return True


@njit(cache=True, inline="always")
def _force_seen_fights_nb(table, n, known):
    """infer="seen": every other seat lays down the fight card the context gives (it lies
    among its four cards: the conditioned deal put it there), whatever its policy."""
    position = known[K_POSITION]
    for seat in range(n):
        code = known[K_SEATS + seat]
        if seat != position and code >= 0:
            _force_fight_card_nb(table, seat, BIT_OF_CODE[code])


@njit(cache=True, inline="always")
def _force_seen_trades_nb(table, n, known):
    """infer="seen": every earlier trader with a count in the context throws away that many
    of its lowest cards (reading: which cards it threw is hidden; its lowest are what a
    keep_min_rank player throws), whatever its policy."""
    for seat in range(n):
        count = known[K_SEATS + n + seat]
        if count >= 0:
            chosen = np.uint64(0)
            for k in range(count):
                chosen |= np.uint64(1) << lowest_card_nb(table.hand[seat] & ~chosen)
            table.trade_away[seat] = chosen


@njit(cache=True, inline="always")
def _trades_match_nb(table, n, known):
    """Every earlier trader traded as many cards as the context says."""
    for seat in range(n):
        expected = known[K_SEATS + n + seat]
        if expected >= 0 and table.traded[seat] != expected:
            return False
    return True


@njit(cache=True, inline="always")
def _force_fight_card_nb(table, seat, bit):
    """The advised seat lays down ``bit`` instead of its policy's fight card."""
    one = np.uint64(1)
    old = np.uint64(table.fight[seat])
    table.hand[seat] = (table.hand[seat] | (one << old)) & ~(one << np.uint64(bit))
    table.fight_bits = (table.fight_bits & ~(one << old)) | (one << np.uint64(bit))
    table.fight[seat] = bit
    table.seat_of_bit[bit] = seat


@njit(cache=True, inline="always")
def _force_stay_nb(table, seat, stays):
    """The advised seat stays (or drops) whatever its hand, through its stay policy (its
    stay table, if any, set aside: a forced seat makes no draw)."""
    table.policy[STAY_MIN_STRENGTH, seat] = 0 if stays else NEVER_STAYS
    table.policy[STAY_WITH_LEAD, seat] = 1 if stays else 0
    table.tables[seat, STAY_OFFSET] = 0.0


@njit(cache=True, inline="always")
def _outcomes_nb(table, values, c, seat):
    """The advised seat's outcomes of candidate ``c`` (OUTCOMES' order, as many as asked)."""
    won = table.won[seat]
    n_outcomes = values.shape[1]
    values[c, 0] = table.net[seat]
    if n_outcomes > 1:
        values[c, 1] = won
    if n_outcomes > 2:
        values[c, 2] = 1 if table.playing[seat] != 0 and won == 0 else 0
    if n_outcomes > 3:
        values[c, 3] = 1 if table.lead == seat else 0
