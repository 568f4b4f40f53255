"""Fan Tan's stacked-deal harness for tests: literal cards played through the kernel
(:func:`play_dealt`), as the plain-Python twin's functions of the same
names play them.  No command uses it; the kernels are in ``kernel.py``."""

from __future__ import annotations

import numpy as np

from sims.core.deck import N_CARDS
from sims.core.rng import stream_state
from sims.games.fan_tan import SPEC
from sims.games.fan_tan.kernel import (
    BIT_OF_CODE,
    VOLUNTARY_PASS,
    hand_codes_nb,
    hand_table_nb,
    play_hand_nb,
)
from sims.games.fan_tan.rules import (
    POLICY_FIELDS,
    Rules,
)
from sims.spec import check_policy_values, check_rule_values

CODE_OF_BIT = {int(bit): code for code, bit in enumerate(BIT_OF_CODE)}


def _is_whole(value) -> bool:
    """A whole number (not a bool, not a float that happens to be whole)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def play_dealt(rules: Rules, policy, n_seats: int, cards, dealer: int | None = None, log=None) -> dict:
    """Play one deal from a stacked pack (stacked-deck tests), through the kernel.

    ``cards`` are all 52 codes in draw order: draw k goes to seat (dealer + 1 + k) mod n.
    ``policy`` has one row per seat; ``dealer`` defaults to seat n-1.  The random style
    draws from the stream of seed 0, index 0.  ``log`` is accepted for the twin's
    signature and left untouched.

    Returns a dict (card codes as in sims.core.deck; per-seat lists indexed by seat):
      hands: each seat's dealt cards, sorted; plays: the turns in order, each
      (seat, card) for a play or (seat, -1) for a pass; voluntary: the indices in plays of
      the voluntary passes; winner: the seat that went out; cards_left: cards in each hand
      at the end; passes: passes per seat; paid: chips each seat paid; received: chips
      each seat received (the pot for the winner, penalty payments to holders); net:
      received - paid per seat; pot: the chips the winner took; turns: len(plays).
    """
    policy = np.asarray(policy, dtype=np.float64)
    SPEC.check(rules, policy, n_seats)
    check_rule_values(rules)
    check_policy_values(POLICY_FIELDS, policy, n_seats)
    dealer = n_seats - 1 if dealer is None else dealer
    if not _is_whole(dealer) or not 0 <= dealer < n_seats:
        raise ValueError(f"the dealer must be a seat 0..{n_seats - 1}, not {dealer}.")
    cards = list(cards)
    if not all(_is_whole(c) for c in cards) or sorted(int(c) for c in cards) != list(range(N_CARDS)):
        raise ValueError("a stacked Fan Tan pack lists each of the 52 card codes once.")
    cards = [int(c) for c in cards]
    dealer = int(dealer)
    rules_array = np.asarray([int(v) for v in rules], dtype=np.int64)
    tables = hand_table_nb(rules_array, policy, np.int64(n_seats))
    table = tables.view(np.recarray)[0]  # attribute access in Python too
    table.pack[:] = [int(BIT_OF_CODE[c]) for c in cards]
    codes = hand_codes_nb(rules_array, policy, table, np.int64(n_seats))
    play_hand_nb(table, np.int64(n_seats), np.int64(dealer), False, stream_state(0, 0), codes)
    dealt = [sorted(cards[k] for k in range(N_CARDS) if (dealer + 1 + k) % n_seats == seat) for seat in range(n_seats)]
    turns = int(table.turns)
    plays, voluntary = [], []
    for t in range(turns):
        seat, bit = int(table.log[t, 0]), int(table.log[t, 1])
        if bit == VOLUNTARY_PASS:
            voluntary.append(t)
        plays.append((seat, CODE_OF_BIT[bit] if bit >= 0 else -1))

    def per_seat(values):
        return [int(v) for v in values[:n_seats]]

    paid, received = per_seat(table.paid), per_seat(table.received)
    return {
        "hands": dealt,
        "plays": plays,
        "voluntary": voluntary,
        "winner": int(table.winner),
        "cards_left": per_seat(table.cards_left),
        "passes": per_seat(table.passes),
        "paid": paid,
        "received": received,
        "net": [r - p for r, p in zip(received, paid)],
        "pot": int(table.pot),
        "turns": turns,
    }
