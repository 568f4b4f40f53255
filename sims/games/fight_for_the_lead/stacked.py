"""Fight for the Lead's stacked-deal harness for tests: literal cards played through the kernel
(:func:`play_dealt`), as the plain-Python twin's functions of the same
names play them.  No command uses it; the kernels are in ``kernel.py``."""

from __future__ import annotations

import numpy as np

from sims.core.deck import N_CARDS, stacked_pack
from sims.core.rng import Stream
from sims.core.tricks import ACE_HIGH_CODE
from sims.games.fight_for_the_lead import SPEC
from sims.games.fight_for_the_lead.kernel import (
    BIT_OF_CODE,
    hand_codes_nb,
    hand_table_nb,
    play_hand_nb,
)
from sims.games.fight_for_the_lead.rules import (
    REFUND_SPLIT,
    Rules,
    ante_for,
)


def play_dealt(
    rules: Rules,
    policy: np.ndarray,
    n_seats: int,
    cards,
    dealer: int | None = None,
    pot: int | None = None,
    compulsory: bool = False,
    log=None,
    stream=None,
) -> dict:
    """Play one hand from a stacked pack (stacked-deck tests), through the kernel.

    ``cards`` are the top of the pack in draw order (distinct codes): the first 4n are
    dealt one at a time clockwise from the dealer's left, the rest are the stock; every
    card not listed follows in code order.  No shuffling: reshuffled piles are drawn in
    pile order.  ``policy`` has one row per seat.  ``dealer`` defaults to seat n-1,
    ``pot`` to n * ante; ``compulsory`` makes it a first hand.  ``log`` is accepted for
    the plain-Python twin's signature and left untouched.  ``stream`` (a
    :class:`sims.core.rng.Stream`, advanced in place; default ``Stream(0, 0)``) feeds the
    draws of mixed table cells ("Strategy tables"); the stacked pack draws nothing.

    Returns a dict (card codes as in sims.core.deck; per-seat lists are indexed by seat):
      fight: each seat's fight card; turned: the turned cards in order; lead: the seat
      that won the fight; playing: 1/0 per seat; leader: the seat leading the first trick
      (-1 when fewer than two play); traded: cards each seat traded; held: each seat's
      four cards when play starts (after trading; for a seat that dropped, after the
      replacement), sorted by code; tricks: a list of (leader, [(seat, card), ...] in
      playing order, winner) for each trick played; won: tricks taken per seat; net:
      chips per seat (won from the pot minus paid, a refund-split share counting as won);
      pot_next: the pot carried to the next hand (0 when the game ends; P when everyone
      dropped under forced-replay or replay-optional); all_dropped, stock_short,
      reshuffled: 1/0 flags as in the hand mode outputs.
    """
    SPEC.check(rules, policy, n_seats)
    dealer = n_seats - 1 if dealer is None else int(dealer)
    pot = n_seats * ante_for(rules, n_seats) if pot is None else int(pot)
    if not 0 <= dealer < n_seats:
        raise ValueError(f"the dealer must be a seat 0..{n_seats - 1}, not {dealer}.")
    if pot <= 0 or pot % 4 or (rules.all_drop == REFUND_SPLIT and pot % n_seats):
        raise ValueError(
            f"the pot must be a positive multiple of 4 (and of the {n_seats} players with refund-split), not {pot}."
        )
    cards = list(cards)
    pack = stacked_pack(cards)
    if len(cards) < 4 * n_seats:
        raise ValueError(f"a stacked pack must list at least the {4 * n_seats} cards of the deal.")
    rules_array = np.asarray([int(v) for v in rules], dtype=np.int64)
    policy_array = np.ascontiguousarray(policy, dtype=np.float64)
    table = hand_table_nb(rules_array, policy_array, np.int64(n_seats)).view(np.recarray)[0]
    table.pack[:] = [int(BIT_OF_CODE[c]) for c in pack]
    stream = Stream(0, 0) if stream is None else stream
    state = tuple(np.uint64(word) for word in stream.s)
    rule_codes = hand_codes_nb(rules_array, policy_array, table, np.int64(n_seats))[0]
    codes = (rule_codes, np.int64(pot), bool(compulsory))
    state = play_hand_nb(table, np.int64(n_seats), np.int64(dealer), False, state, codes)
    stream.s = [int(word) for word in state]
    return _hand_result(table, n_seats)


CODE_OF_BIT = ACE_HIGH_CODE


def _hand_result(table, n: int) -> dict:
    """The play_dealt dict of the hand just played in ``table`` (a ``TABLE`` record)."""
    playing = table.playing[:n].tolist()
    players = int(table.players_in)
    tricks = []
    if players >= 2:
        for trick in range(4):
            plays = [(int(table.played_seat[trick, k]), CODE_OF_BIT[table.played[trick, k]]) for k in range(players)]
            tricks.append((int(table.trick_leader[trick]), plays, int(table.trick_winner[trick])))
    held = []
    for seat in range(n):
        cards = [code for code in range(N_CARDS) if int(table.hand[seat]) >> int(BIT_OF_CODE[code]) & 1]
        if players >= 2 and playing[seat]:  # play emptied the hand: put its four cards back
            cards = sorted(card for trick in tricks for who, card in trick[1] if who == seat)
        held.append(sorted(cards))
    return {
        "fight": [CODE_OF_BIT[bit] for bit in table.fight[:n]],
        "turned": [CODE_OF_BIT[bit] for bit in table.turned[: int(table.n_turned)]],
        "lead": int(table.lead),
        "playing": playing,
        "leader": int(table.leader),
        "traded": table.traded[:n].tolist(),
        "held": held,
        "tricks": tricks,
        "won": table.won[:n].tolist(),
        "net": table.net[:n].tolist(),
        "pot_next": int(table.pot_next),
        "all_dropped": int(table.all_dropped),
        "stock_short": int(table.stock_short),
        "reshuffled": int(table.reshuffled),
    }
