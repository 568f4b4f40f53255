"""Five Hundred's stacked-deal harness for tests: literal cards played through the kernel
(:func:`play_dealt`, :func:`play_game`), as the plain-Python twin's functions of the same
names play them.  No command uses it; the kernels are in ``kernel.py``."""

from __future__ import annotations

import numpy as np

from sims.core.rng import stream_state
from sims.games.five_hundred import SPEC
from sims.games.five_hundred.kernel import (
    ENDED_ANY_POINTS,
    ENDED_CONTRACT,
    ENDED_MINUS_500,
    PACKS,
    hand_table_nb,
    play_hand_nb,
)
from sims.games.five_hundred.rules import (
    PACK_SIZE,
    PLAYERS,
    POLICY_FIELDS,
    RED_JOKER,
    Rules,
)
from sims.spec import check_policy_values, check_rule_values

_ENDED = {ENDED_CONTRACT: "contract", ENDED_MINUS_500: "minus_500", ENDED_ANY_POINTS: "any_points"}


def _table(rules: Rules, policy, dealer) -> tuple[np.ndarray, int]:
    """Validate a stacked table: the rules, the policy matrix and the dealer."""
    policy = np.asarray(policy, dtype=np.float64)
    n = policy.shape[0] if policy.ndim == 2 else 0
    SPEC.check(rules, policy, n)
    check_rule_values(rules)
    check_policy_values(POLICY_FIELDS, policy, n)
    dealer = 3 if dealer is None else int(dealer)
    if not 0 <= dealer < PLAYERS:
        raise ValueError(f"the dealer must be a seat from 0 to 3, not {dealer}.")
    return policy, dealer


def _stacked(rules: Rules, cards) -> np.ndarray:
    """The pack row of a stacked deal: the listed cards, then the rest of the pack in code order."""
    pack = [int(c) for c in PACKS[rules.deck][: PACK_SIZE[rules.deck]]]
    try:
        listed = [int(c) for c in cards]
    except (TypeError, ValueError):
        raise ValueError("the stacked cards must be distinct card codes of the pack.") from None
    if len(set(listed)) != len(listed) or any(c not in pack for c in listed):
        raise ValueError(f"the stacked cards must be distinct card codes of the {PACK_SIZE[rules.deck]}-card pack.")
    row = np.zeros(len(PACKS[0]), dtype=np.int64)
    order = listed + [c for c in pack if c not in set(listed)]
    row[: len(order)] = order
    return row


def _hand(rules: Rules, policy: np.ndarray, cards, dealer: int, scores: list[int]) -> dict:
    rule_codes = np.asarray([int(v) for v in rules], dtype=np.int64)
    table = hand_table_nb(rule_codes, policy, np.int64(PLAYERS)).view(np.recarray)[0]  # kernel.TABLE's record
    table.pack[:] = _stacked(rules, cards)
    totals = np.asarray(scores, dtype=np.int64)
    table.log[:] = -1
    codes = (rule_codes, policy, totals)
    play_hand_nb(table, np.int64(PLAYERS), np.int64(dealer), False, stream_state(0, 0), codes)
    dealt = [int(c) for c in table.dealt[: PACK_SIZE[rules.deck]]]  # ten to each seat from the eldest, then the kitty
    held = [sorted(dealt[10 * ((s - dealer - 1) % PLAYERS) :][:10]) for s in range(PLAYERS)]
    kitty_cards = sorted(dealt[10 * PLAYERS :])
    hand = table.hand
    log = table.log
    discards = int(hand.discards)
    tricks = []
    for t in range(int(hand.tricks_played)):
        leader, winner, named = (int(v) for v in log[t, :3])
        plays = [
            ((leader + i) % 4, int(log[t, 4 + (leader + i) % 4])) for i in range(4) if log[t, 4 + (leader + i) % 4] >= 0
        ]
        tricks.append((leader, plays, winner, named))
    tricks_won = [int(v) for v in table.seats.tricks]
    nominated = {RED_JOKER + j: int(hand.nominated[j]) for j in range(2) if hand.nominated[j] >= 0}
    return {
        "dealt": held,
        "kitty": kitty_cards,
        "auction": [(int(table.calls[k, 0]), int(table.calls[k, 1])) for k in range(int(hand.n_calls))],
        "contract": int(hand.contract),
        "contractor": int(hand.contractor),
        "discards": sorted(c for c in range(54) if (discards >> c) & 1),
        "nominated": nominated,
        "tricks": tricks,
        "tricks_won": tricks_won,
        "side_tricks": [tricks_won[0] + tricks_won[2], tricks_won[1] + tricks_won[3]],
        "made": int(hand.made),
        "points": [int(hand.points[0]), int(hand.points[1])],
        "scores": [int(v) for v in totals],
        "winner": int(hand.winner),
        "ended": _ENDED.get(int(hand.ended), ""),
    }


def play_dealt(rules: Rules, policy, cards, dealer=None, scores=(0, 0), log=None) -> dict:
    """One hand from a stacked pack, through the kernel; the arguments and the result are
    the contract's (package docstring, Stacked deals).  ``log`` is left untouched."""
    policy, dealer = _table(rules, policy, dealer)
    return _hand(rules, policy, cards, dealer, [int(v) for v in scores])


def play_game(rules: Rules, policy, deals, first_dealer=None, log=None) -> dict:
    """A game from stacked packs, through the kernel (package docstring, Stacked deals)."""
    policy, dealer = _table(rules, policy, first_dealer)
    scores = [0, 0]
    results = []
    winner, ended = -1, ""
    for cards in deals:
        if len(results) >= rules.max_hands:
            ended = "truncated"
            break
        result = _hand(rules, policy, cards, dealer, scores)
        results.append(result)
        scores = result["scores"]
        dealer = (dealer + 1) % PLAYERS
        if result["winner"] >= 0:
            winner, ended = result["winner"], result["ended"]
            break
    else:
        if winner < 0 and len(results) >= rules.max_hands:
            ended = "truncated"
    return {"results": results, "scores": scores, "winner": winner, "ended": ended, "hands": len(results)}
