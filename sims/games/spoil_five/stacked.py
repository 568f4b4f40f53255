"""Spoil Five's stacked-deal harness for tests: literal cards played through the kernel
(:func:`play_dealt`, :func:`play_pool`), as the plain-Python twin's functions of the same
names play them.  No command uses it; the kernels are in ``kernel.py``."""

from __future__ import annotations

import numpy as np

from sims.core.deck import N_CARDS, stacked_pack
from sims.core.rng import stream_state
from sims.games.spoil_five import SPEC
from sims.games.spoil_five.kernel import (
    I_CLAIMED,
    I_DISCARD,
    I_FORFEITED,
    I_JINX_BY,
    I_JINX_MADE,
    I_ROBBED_BY,
    I_SPOILED,
    I_SPOILER,
    I_TRICKS,
    I_TRUMP,
    I_TURNUP,
    I_WINNER,
    L_DEALT,
    L_INFO,
    L_LOG,
    L_POOL,
    L_TRICKS_WON,
    LOG_STRIDE,
    LOG_WIDTH,
    N_INFO,
    new_table_nb,
    play_pool_nb,
    pool_results,
    seat_chips,
)
from sims.games.spoil_five.rules import (
    BIT_CODE,
    HAND_SIZE,
    POLICY_FIELDS,
    Rules,
)
from sims.spec import check_policy_values, check_rule_values


def _table(rules: Rules, policy, dealer) -> tuple[np.ndarray, int, int]:
    """Validate a stacked table: the rules, the policy matrix and the dealer."""
    policy = np.asarray(policy, dtype=np.float64)
    n = policy.shape[0] if policy.ndim == 2 else 0
    SPEC.check(rules, policy, n)
    check_rule_values(rules)
    check_policy_values(POLICY_FIELDS, policy, n)
    dealer = n - 1 if dealer is None else int(dealer)
    if not 0 <= dealer < n:
        raise ValueError(f"the dealer must be a seat from 0 to {n - 1}, not {dealer}.")
    return policy, n, dealer


def _net(work: np.ndarray, n: int) -> list[int]:
    paid, received = seat_chips(work, n)
    return [r - p for r, p in zip(received, paid)]


def _deal_record(log_row: np.ndarray, n: int) -> dict:
    """A play_dealt dict (without pool, net and carried) from a stacked deal's log record."""
    info = [int(v) for v in log_row[L_INFO : L_INFO + N_INFO]]
    trump = info[I_TRUMP]
    dealer = info[0]
    dealt = [None] * n
    for k in range(n):
        seat = (dealer + 1 + k) % n
        dealt[seat] = sorted(int(c) for c in log_row[L_DEALT + HAND_SIZE * k : L_DEALT + HAND_SIZE * (k + 1)])
    turnup = info[I_TURNUP]
    robbed_by, discard = info[I_ROBBED_BY], info[I_DISCARD]
    held = [list(cards) for cards in dealt]
    if robbed_by >= 0:
        discard = int(BIT_CODE[trump, discard])
        held[robbed_by] = sorted(set(held[robbed_by]) - {discard} | {turnup})
    tricks = []
    for trick in range(info[I_TRICKS]):
        base = L_LOG + LOG_STRIDE * trick
        leader, winner = int(log_row[base]), int(log_row[base + 1])
        plays = [((leader + i) % n, int(BIT_CODE[trump, int(log_row[base + 2 + i])])) for i in range(n)]
        tricks.append((leader, plays, winner))
    return {
        "dealt": dealt,
        "turnup": turnup,
        "trump": trump,
        "robbed_by": robbed_by,
        "discard": discard if robbed_by >= 0 else -1,
        "forfeited": info[I_FORFEITED],
        "held": held,
        "tricks": tricks,
        "tricks_won": [int(v) for v in log_row[L_TRICKS_WON : L_TRICKS_WON + n]],
        "winner": info[I_WINNER],
        "spoiled": info[I_SPOILED],
        "spoiler": info[I_SPOILER],
        "jinx_by": info[I_JINX_BY],
        "jinx_made": info[I_JINX_MADE],
        "claimed": info[I_CLAIMED],
    }


def _play(rules: Rules, policy, packs: list[list[int]], first_dealer: int):
    """Play stacked deals of one pool through the kernel: (log, deals, pool, taken_by,
    truncated, work)."""
    n = policy.shape[0]
    work, masks = new_table_nb(np.asarray([int(v) for v in rules], dtype=np.int64), policy, np.int64(n))
    stacked = np.zeros((max(1, len(packs)), N_CARDS), dtype=np.int64)
    for k, pack in enumerate(packs):
        stacked[k] = pack
    log = np.zeros((max(1, len(packs)), LOG_WIDTH), dtype=np.int64)
    play_pool_nb(
        work,
        masks,
        np.int64(n),
        np.int64(first_dealer),
        stacked,
        np.int64(len(packs)),
        False,
        stream_state(0, 0),
        log,
        np.ascontiguousarray(policy, dtype=np.float64),
    )
    return (log, *pool_results(work), work)


def play_dealt(rules: Rules, policy, cards, dealer=None, log=None) -> dict:
    """Play one deal from a new pool and a stacked pack, through the kernel (stacked-deck
    tests); the arguments and the result are the contract's (package docstring, Stacked
    deals).  ``log`` is accepted for the twin's signature and left untouched."""
    policy, n, dealer = _table(rules, policy, dealer)
    records, _, _, _, _, work = _play(rules, policy, [stacked_pack(cards)], dealer)
    result = _deal_record(records[0], n)
    pool = int(records[0, L_POOL])
    result.update(pool=pool, net=_net(work, n), carried=pool if result["spoiled"] else 0)
    return result


def play_pool(rules: Rules, policy, deals, first_dealer=None, log=None) -> dict:
    """Play one pool from its start with stacked packs, through the kernel; the arguments
    and the result are the contract's (package docstring, Stacked deals)."""
    policy, n, first_dealer = _table(rules, policy, first_dealer)
    packs = [stacked_pack(cards) for cards in deals]
    if not packs:
        raise ValueError("play_pool needs at least one deal.")
    records, played, pool, taken_by, truncated, work = _play(rules, policy, packs, first_dealer)
    paid, received = seat_chips(work, n)
    return {
        "results": [_deal_record(records[k], n) for k in range(played)],
        "pools": [int(records[k, L_POOL]) for k in range(played)],
        "paid": paid,
        "received": received,
        "net": _net(work, n),
        "taken_by": taken_by,
        "left": pool if taken_by < 0 else 0,
        "truncated": truncated,
    }
