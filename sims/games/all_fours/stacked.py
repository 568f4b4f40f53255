"""All-Fours's stacked-deal harness for tests: literal cards played through the kernel
(:func:`check_deal`, :func:`play_dealt`), as the plain-Python twin's functions of the same
names play them.  No command uses it; the kernels are in ``kernel.py``."""

from __future__ import annotations

import numpy as np

from sims.core.deck import stacked_pack
from sims.core.rng import stream_state
from sims.core.tricks import ACE_HIGH_BIT, ACE_HIGH_CODE
from sims.games.all_fours import SPEC
from sims.games.all_fours.kernel import (
    deal_record,
    hand_table_nb,
    play_hand_nb,
    stack_pack,
)
from sims.games.all_fours.rules import (
    N_PLAYERS,
    POLICY_FIELDS,
    Rules,
)
from sims.spec import check_policy_values, check_rule_values


def check_deal(rules: Rules, policy, dealer: int, scores) -> tuple[np.ndarray, int, tuple[int, int]]:
    """Validate a stacked deal's table: the policy matrix, the dealer and the scores."""
    policy = np.asarray(policy, dtype=np.float64)
    SPEC.check(rules, policy, policy.shape[0] if policy.ndim == 2 else 0)
    check_rule_values(rules)
    check_policy_values(POLICY_FIELDS, policy, N_PLAYERS)
    if dealer not in (0, 1):
        raise ValueError(f"the dealer must be seat 0 or 1, not {dealer}.")
    scores = tuple(int(s) for s in scores)
    if len(scores) != 2 or not all(0 <= s < rules.target for s in scores):
        raise ValueError(f"the scores must be two numbers from 0 to {rules.target - 1} (below the target).")
    return policy, int(dealer), scores


def play_dealt(rules: Rules, policy, cards, dealer: int = 1, scores=(0, 0), log=None) -> dict:
    """Play one deal from a stacked pack (stacked-deck tests), through the kernel.

    ``cards`` are the top of the pack in draw order (distinct codes): 3 to E, 3 to D, 3 to
    E, 3 to D, the turn-up, then for each round of a run 3 to E, 3 to D and a turn-up;
    every card not listed follows in code order.  ``policy`` has one row per seat (two).
    ``dealer`` is 0 or 1 (E is the other seat); ``scores`` are the seats' scores before the
    deal (each below the target).  ``log`` is accepted for the twin's signature and left
    untouched.

    Returns a dict (card codes as in sims.core.deck; per-seat lists indexed by seat):
      dealt: every card dealt to each seat, sorted; discarded: each seat's discards, sorted
      (empty unless discarding); held: each seat's cards at the start of play (dealt minus
      discarded), sorted; turnups: the turned-up cards in order; trump: the suit (0..3)
      the hand is or would be played with, -1 for a void deal; begged, gave, ran, void,
      thrown_in, bunched, played: 1/0; rounds: rounds dealt in the run (0 without one);
      tricks: (leader, [(seat, card), (seat, card)], winner) per trick played;
      game_points: counting-card points in each seat's tricks; trumps_in_play: trumps
      held at the start of play (0 when not played); jack_in_play, game_tie: 1/0 (0 when
      not played); high, low, jack, game: the seat that scored that point, or -1;
      turned_jacks, gift: per seat, points for turned jacks (after cancelling) and the
      gift point; points: per seat, points scored in this deal; scores: per seat, after
      the deal; winner: the seat that reached the target in this deal, or -1;
      next_dealer: the seat that deals next, -1 when a seat has won.
    A deal that stops early keeps what happened up to that point: begged, gave, ran,
    rounds and turnups as they were; trump is the last turn-up's suit (the first
    turn-up's when a turned jack wins at once or the cards are thrown in); held equals
    dealt (no discards) when the deal is not played; a gift that wins the game is not
    thrown in.  In a played deal, game_points and game_tie come from the tricks even when
    the target was reached before Game was scored (game is then -1).
    """
    policy, dealer, scores = check_deal(rules, policy, dealer, scores)
    pack = stacked_pack(cards)
    work, masks = hand_table_nb(np.asarray([int(v) for v in rules], dtype=np.int64), policy, np.int64(2))
    stack_pack(work, [int(ACE_HIGH_BIT[c]) for c in pack])
    elder = 1 - dealer
    codes = (policy, np.int64(scores[elder]), np.int64(scores[dealer]))
    play_hand_nb((work, masks), np.int64(2), np.int64(dealer), False, stream_state(0, 0), codes)
    return _deal_result(work, masks)


def _codes(mask) -> list[int]:
    return sorted(ACE_HIGH_CODE[bit] for bit in range(64) if int(mask) >> bit & 1)


def _deal_result(work: np.ndarray, masks: np.ndarray) -> dict:
    """The play_dealt dict of the deal just played in ``work``."""
    deal = deal_record(work, masks)
    dealt = [_codes(mask) for mask in deal["dealt_by_seat"]]
    discarded = [_codes(mask) for mask in deal["discarded_by_seat"]]
    tricks = [
        (leader, [(leader, ACE_HIGH_CODE[led]), (1 - leader, ACE_HIGH_CODE[answer])], winner)
        for leader, led, answer, winner in deal["trick_log"]
    ]
    return {
        "dealt": dealt,
        "discarded": discarded,
        "held": [sorted(set(dealt[s]) - set(discarded[s])) for s in range(2)],
        "turnups": [ACE_HIGH_CODE[b] for b in deal["turnup_bits"]],
        "trump": deal["trump"],
        "begged": deal["begged"],
        "gave": deal["gave"],
        "ran": deal["ran"],
        "void": deal["void"],
        "thrown_in": deal["thrown_in"],
        "bunched": deal["bunched"],
        "played": deal["played"],
        "rounds": deal["rounds"],
        "tricks": tricks,
        "game_points": deal["game_points_by_seat"],
        "trumps_in_play": deal["trumps_in_play"],
        "jack_in_play": deal["jack_in_play"],
        "game_tie": deal["game_tie"] if deal["played"] else 0,
        "high": deal["high"],
        "low": deal["low"],
        "jack": deal["jack"],
        "game": deal["game"],
        "turned_jacks": deal["turned_jacks_by_seat"],
        "gift": deal["gift_by_seat"],
        "points": deal["points_by_seat"],
        "scores": deal["score_by_seat"],
        "winner": deal["winner"],
        "next_dealer": -1 if deal["winner"] >= 0 else deal["next_dealer"],
    }
