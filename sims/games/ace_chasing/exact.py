"""Exact enumerator ("slow twin") for one round of Ace Chasing in hand mode.

What it computes
----------------
``exact_hand(rules, policy, n_seats)`` gives, with no sampling, the expectations of the
hand-mode outputs of ``sims.games.ace_chasing`` for one round with ``n_seats`` players
(2..6; the game itself starts at 4, 2 and 3 serve the tests), the matador in the last
seat (seat n-1, position = seat) and seat 0 on the matador's left:

* ``knocked_out``   P(the matador is knocked out, i.e. nobody is exposed),
* ``exposed[s]``    P(seat s is exposed) (0 for the matador),
* ``swap[s]``       P(seat s's swap is carried out) (0 for the matador),
* ``bet_placed[s]`` P(seat s agrees a bet) (0 for the matador),
* ``bet_net[s]``    E[units won minus lost on bets] (the matador: from all bets),
* ``bet_net_sq[s]`` E[bet_net[s]^2],
* ``exposures``     E[number exposed],  ``exposures_sq``  E[(number exposed)^2],
* ``unit_bet[face]`` for face in FACE_LABELS: E[unit_bet_face] / E[unit_bet_face_count],
  the mean result (+1 knocked out, -1 not) of a one-unit bet against the matador by a
  non-matador DEALT that face.  Every position is dealt a given face with probability
  1/13, so the count's expectation is (n-1)/13 and this is the average over the n-1
  non-matador seats of E[2*KO - 1 | the seat was dealt that face].

It follows the package docstring of ``sims/games/ace_chasing/__init__.py`` (the rules contract) and
was written from that contract and ``shared/rules/ace-chasing.md`` alone, independently
of the Numba kernel.  ``next_matador`` only matters in game mode and is ignored.

How
---
Betting and the swap chain look only at faces (ranks), and the swap chain has no random
draw, so the final arrangement of the cards is a permutation of the deal fixed by the
sequence of DEALT faces.  The enumeration therefore runs over all 13**n ordered face
sequences, each weighted exactly by drawing without replacement from a pack with four
cards of each face (integer weights over the common denominator 52*51*...*(52-n+1)).

Conditional on the face sequence, the suits are independent across faces and, within a
face, a uniformly random ordered choice of distinct suits; the swap chain carries every
card with its suit, so the same holds for the final arrangement.  Suits are then handled
analytically.  Let m be the face of the matador's final card (0 = A):

* m > 0 (a non-ace): E1 = the others with a face below m (all the other aces among
  them).  If E1 is empty, there is no other ace and no face-up ace: nobody is exposed and
  the matador is knocked out.  Otherwise the matador survives, and the up-ace suits are
  the suits of the u = (number of other aces) aces, a uniformly random u-subset of the
  four suits, independent of the suits of every non-ace card.
* m = 0 (an ace): nobody is lower (E1 empty), the other aces stay hidden, and the only
  up-ace suit is the matador's own: u = 1, again a uniformly random suit independent of
  the non-ace cards.

In both cases the "candidates" are the non-matador cards outside E1 that are not aces
(an ace outside E1 can occur only when m = 0, and its suit differs from the matador's).
Each candidate is exposed by suit (E2) with probability u/4; two candidates of the same
face with probability u(u-1)/12 (distinct suits), of different faces with u^2/16.  With
L = |E1|, Y = the number of exposed candidates, H = the number of candidates and S2 the
number of ordered candidate pairs sharing a face:

  E[Y]   = H u/4,
  E[Y^2] = H u/4 + S2 u(u-1)/12 + (H(H-1) - S2) u^2/16,
  exposures = L + Y,  so E[X] = L + E[Y], E[X^2] = L^2 + 2 L E[Y] + E[Y^2],
  P(knocked out) = [m > 0 and L = 0] + [m = 0] * prod over candidate faces r of
                   (4 - c_r)/4   (c_r candidates of face r: none may hold the ace's suit).

All these are integers when multiplied by D = 3 * 4**max(n-1, 2), so every expectation
is an exact integer sum over the common denominator (52)_n * D; ``exact=True`` turns it
into ``fractions.Fraction`` values, ``exact=False`` into floats.  Both modes cost the same
(numpy, int64, chunked by the first dealt face; n = 6 takes a few seconds).

Literal readings of the contract taken here
-------------------------------------------
* The threshold of position p is ``matador_right_threshold`` for p = n-2 and ``threshold``
  otherwise; for n = 2 the only non-matador (position 0 = n-2) uses
  ``matador_right_threshold``.
* Bets: an amount min(bet_size, matador's bet_cap) of 0 is no bet (bet_placed 0).  With
  bet_direction=bettor-chooses a card with rank1 >= bet_min_rank bets AGAINST even when
  rank1 <= back_max_rank also holds (the contract's "if / else if" order).
* With king_block a swap whose target holds a king is not carried out, whoever makes it
  (a king holder with threshold 13 also tries, and is blocked only by a king on its left).
* ``swap`` counts a carried-out swap only; the matador never swaps.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np

from sims.games.ace_chasing import (
    ACE_RANK,
    ACE_SWAP,
    BACK_MAX_RANK,
    BET_AGAINST_MATADOR,
    BET_BETTOR_CHOOSES,
    BET_CAP,
    BET_MIN_RANK,
    BET_SIZE,
    FACE_LABELS,
    KING_RANK,
    MATADOR_RIGHT_THRESHOLD,
    POLICY_FIELDS,
    THRESHOLD,
    Rules,
)

__all__ = ["MAX_PLAYERS", "exact_advice", "exact_hand", "no_swap_knockout_probability"]

MAX_PLAYERS = 6  # 13**6 face sequences; more would need a smarter enumeration

N_FACES = 13
PER_FACE = 4
PACK = N_FACES * PER_FACE
_INT64_SAFE = 2**62


def no_swap_knockout_probability(n: int) -> Fraction:
    """P(the matador is knocked out) with n players when nobody swaps (2 <= n <= 52).

    With no swaps the final cards are the dealt ones.  The matador's card is uniform:

    * a non-ace of face m (m = 1..12, i.e. 2..K): the matador is knocked out iff every
      other card has face >= m (then there is no other ace and nothing else is exposed).
      Of the 51 other cards, 4(13 - m) - 1 have face >= m, so the chance is
      C(4(13-m) - 1, n-1) / C(51, n-1);
    * an ace: nobody is lower and only the matador's suit is exposed, so it is knocked
      out iff no other player holds one of the 12 non-ace cards of its suit (the other
      three aces are harmless): C(39, n-1) / C(51, n-1).

    Writing j = 13 - m (j = 1..12):

        P(KO) = [ C(39, n-1) + sum_{j=1}^{12} C(4j - 1, n-1) ] / ( 13 * C(51, n-1) ).

    n = 2 gives 339/663 = 113/221.
    """
    n = int(n)
    if not 2 <= n <= PACK:
        raise ValueError(f"n must be 2..52, got {n}")
    k = n - 1
    num = comb(39, k) + sum(comb(4 * j - 1, k) for j in range(1, 13))
    return Fraction(num, 13 * comb(51, k))


def _parse_policy(policy, n_seats: int) -> np.ndarray:
    """Validate the policy rows (POLICY_FIELDS order, integers in range); (n, 7) int64."""
    rows = policy.tolist() if isinstance(policy, np.ndarray) else [list(r) for r in policy]
    if len(rows) != n_seats:
        raise ValueError(f"policy has {len(rows)} rows, expected {n_seats}")
    out = np.zeros((n_seats, len(POLICY_FIELDS)), dtype=np.int64)
    for seat, row in enumerate(rows):
        row = list(row)
        if len(row) != len(POLICY_FIELDS):
            raise ValueError(
                f"policy row {seat} must have {len(POLICY_FIELDS)} values ({', '.join(f.key for f in POLICY_FIELDS)})"
            )
        for j, (field, value) in enumerate(zip(POLICY_FIELDS, row)):
            if int(value) != value or not field.lo <= value <= field.hi:
                raise ValueError(f"seat {seat}: {field.key} must be an integer {field.lo}..{field.hi}, got {value}")
            out[seat, j] = int(value)
    return out


def _safe_sum(x: np.ndarray) -> int:
    """Exact sum of an int64 array as a Python int (chunked so int64 never overflows)."""
    if x.size == 0:
        return 0
    big = int(np.abs(x).max())
    if big == 0:
        return 0
    if big >= _INT64_SAFE:
        raise OverflowError("per-sequence value too large for int64")
    step = max(1, _INT64_SAFE // big)
    return sum(int(x[i : i + step].sum()) for i in range(0, x.size, step))


def _scale(n: int) -> int:
    """D = 3 * 4**max(n-1, 2): every per-arrangement expectation times D is an integer."""
    return 3 * 4 ** max(n - 1, 2)


def _reveal_stats(final: np.ndarray, D: int):
    """Suit-averaged reveal of final face arrangements (rows; the matador last), times D.

    Returns int64 arrays (ko, exposed, ex, ex2): D * P(knocked out), D * P(seat p exposed)
    for the non-matador positions (shape (rows, n-1)), D * E[exposures] and
    D * E[exposures^2], averaged over the suits given the faces (see the module docstring).
    """
    final = np.asarray(final)
    rows, n = final.shape
    mf = final[:, n - 1].astype(np.int64)
    others = final[:, : n - 1].astype(np.int64)
    low = others < mf[:, None]  # E1
    L = low.sum(axis=1)
    ace_m = mf == ACE_RANK
    u = np.where(ace_m, 1, (others == ACE_RANK).sum(axis=1))  # number of up-ace suits
    cand = ~low & (others != ACE_RANK)  # exposed only by suit
    H = cand.sum(axis=1)
    S2 = np.zeros(rows, dtype=np.int64)  # ordered same-face candidate pairs
    for i in range(n - 1):
        for j in range(i + 1, n - 1):
            S2 += 2 * ((others[:, i] == others[:, j]) & cand[:, i])

    # P(knocked out): a non-ace matador iff E1 is empty; an ace matador iff no candidate
    # holds its suit: prod over candidate faces of (4 - c_r)/4.
    ko = np.where(ace_m, 0, np.where(L == 0, D, 0)).astype(np.int64)
    if ace_m.any():
        sub = others[ace_m]
        num = np.ones(sub.shape[0], dtype=np.int64)
        distinct = np.zeros(sub.shape[0], dtype=np.int64)
        for r in range(N_FACES):
            if r == ACE_RANK:
                continue
            c = (sub == r).sum(axis=1)
            num *= np.where(c > 0, PER_FACE - c, 1)
            distinct += c > 0
        ko[ace_m] = num * (D // 4**distinct)

    exposed = np.where(low, D, np.where(cand, (u * (D // 4))[:, None], 0)).astype(np.int64)
    ey = H * u * (D // 4)
    ey2 = ey + S2 * u * (u - 1) * (D // 12) + (H * (H - 1) - S2) * u * u * (D // 16)
    ex = L * D + ey
    ex2 = L * L * D + 2 * L * ey + ey2
    return ko, exposed, ex, ex2


def _decisions(pol: np.ndarray, n: int) -> np.ndarray:
    """Swap decision per position and CURRENT face: rank1 <= threshold, or an ace with
    ace_swap.  Position n-2 (the matador's right) uses matador_right_threshold."""
    decide = np.zeros((n - 1, N_FACES), dtype=bool)
    for p in range(n - 1):
        th = pol[p, MATADOR_RIGHT_THRESHOLD] if p == n - 2 else pol[p, THRESHOLD]
        for f in range(N_FACES):
            decide[p, f] = (f + 1 <= th) or (pol[p, ACE_SWAP] == 1 and f == ACE_RANK)
    return decide


def _stakes(pol: np.ndarray, n: int, betting: int, direction: int) -> np.ndarray:
    """Signed stake per position and DEALT face: +amount against the matador, -amount for."""
    stake = np.zeros((n - 1, N_FACES), dtype=np.int64)
    if betting:
        cap = pol[n - 1, BET_CAP]
        for p in range(n - 1):
            amount = min(pol[p, BET_SIZE], cap)
            for f in range(N_FACES):
                if f + 1 >= pol[p, BET_MIN_RANK]:
                    stake[p, f] = amount
                elif direction == BET_BETTOR_CHOOSES and f + 1 <= pol[p, BACK_MAX_RANK]:
                    stake[p, f] = -amount
    return stake


def _rest(n: int) -> np.ndarray:
    """All face sequences of positions 1..n-1 (position 0's face is a chunk's lead)."""
    return np.indices((N_FACES,) * (n - 1), dtype=np.int8).reshape(n - 1, -1).T


def _lead_chunk(lead: int, rest: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The possible dealt face sequences starting with ``lead`` and their exact weights:
    prod over positions of (cards of that face still in the pack)."""
    dealt = np.empty((rest.shape[0], n), dtype=np.int8)
    dealt[:, 0] = lead
    dealt[:, 1:] = rest
    w = np.full(dealt.shape[0], PER_FACE, dtype=np.int64)
    for i in range(1, n):
        seen = np.zeros(dealt.shape[0], dtype=np.int64)
        for j in range(i):
            seen += dealt[:, j] == dealt[:, i]
        w *= PER_FACE - seen
    keep = w > 0
    return dealt[keep], w[keep]


def _swap_chain(dealt: np.ndarray, decide: np.ndarray, king_block: bool) -> tuple[np.ndarray, np.ndarray]:
    """The final faces and the carried-out swaps of every row of dealt faces."""
    rows, n = dealt.shape
    cards = dealt.copy()
    swapped = np.zeros((rows, n), dtype=bool)
    for p in range(n - 1):
        do = decide[p][cards[:, p]]
        if king_block:
            do &= cards[:, p + 1] != KING_RANK
        swapped[:, p] = do
        a, b = cards[do, p].copy(), cards[do, p + 1].copy()
        cards[do, p], cards[do, p + 1] = b, a
    return cards, swapped


def exact_hand(rules: Rules, policy, n_seats: int, exact: bool = False) -> dict:
    """Exact hand-mode expectations of one round of Ace Chasing.

    Parameters
    ----------
    rules : Rules
        The rule switches (next_matador is ignored: it only matters in game mode).
    policy : sequence of n_seats rows in POLICY_FIELDS order
        (threshold, matador_right_threshold, ace_swap, bet_min_rank, bet_size, bet_cap,
        back_max_rank), all integers.  Row s is seat s's policy; seat n_seats - 1 is the
        matador (only its bet_cap is used).
    n_seats : int
        2..MAX_PLAYERS.  Position p of the round is seat p (hand mode).
    exact : bool
        False: floats (numpy arrays for the per-seat values).  True: Fractions (lists of
        Fractions for the per-seat values).

    Returns
    -------
    dict with keys "knocked_out", "exposed", "swap", "bet_placed", "bet_net",
    "bet_net_sq", "exposures", "exposures_sq" and "unit_bet" (face label -> value).
    """
    n = int(n_seats)
    if not 2 <= n <= MAX_PLAYERS:
        raise ValueError(f"n_seats must be 2..{MAX_PLAYERS}, got {n_seats}")
    king_block = bool(rules.king_block)
    betting = int(rules.betting)
    direction = int(rules.bet_direction)
    if betting not in (0, 1):
        raise ValueError(f"unknown betting switch {betting}")
    if direction not in (BET_AGAINST_MATADOR, BET_BETTOR_CHOOSES):
        raise ValueError(f"unknown bet_direction {direction}")
    pol = _parse_policy(policy, n)
    M = n - 1
    D = _scale(n)

    decide = _decisions(pol, n)
    stake = _stakes(pol, n, betting, direction)
    rest = _rest(n)

    acc_ko = acc_ex = acc_ex2 = acc_w = 0
    acc_exposed = [0] * n
    acc_swap = [0] * n
    acc_placed = [0] * n
    acc_net = [0] * n
    acc_net_sq = [0] * n
    acc_unit = [0] * N_FACES

    for lead in range(N_FACES):
        dealt, w = _lead_chunk(lead, rest, n)
        rows = dealt.shape[0]
        acc_w += _safe_sum(w)
        cards, swapped = _swap_chain(dealt, decide, king_block)

        ko, exposed, ex, ex2 = _reveal_stats(cards, D)
        acc_ko += _safe_sum(w * ko)
        acc_ex += _safe_sum(w * ex)
        acc_ex2 += _safe_sum(w * ex2)
        for p in range(M):
            acc_exposed[p] += _safe_sum(w * exposed[:, p])
            acc_swap[p] += _safe_sum(w[swapped[:, p]]) * D

        # Bets and the one-unit bets by dealt face; a bet of s units against the matador
        # wins s * (2 KO - 1).
        ko2 = 2 * ko - D
        wko2 = w * ko2
        total_stake = np.zeros(rows, dtype=np.int64)
        for p in range(M):
            s = stake[p][dealt[:, p]]
            total_stake += s
            acc_placed[p] += _safe_sum(w[s != 0]) * D
            acc_net[p] += _safe_sum(s * wko2)
            acc_net_sq[p] += _safe_sum(w * s * s) * D
            for f in range(N_FACES):
                acc_unit[f] += _safe_sum(wko2[dealt[:, p] == f])
        acc_net[M] -= _safe_sum(total_stake * wko2)
        acc_net_sq[M] += _safe_sum(w * total_stake * total_stake) * D

    denom = 1
    for i in range(n):
        denom *= PACK - i
    assert acc_w == denom, "weights do not sum to 1"
    scale = denom * D

    def val(x):
        q = Fraction(x, scale)
        return q if exact else float(q)

    def seats(xs):
        vals = [val(x) for x in xs]
        return vals if exact else np.array(vals, dtype=float)

    # E[count of non-matadors dealt face f] = (n-1)/13.
    unit = {
        FACE_LABELS[f]: (
            Fraction(acc_unit[f] * N_FACES, scale * M) if exact else float(Fraction(acc_unit[f] * N_FACES, scale * M))
        )
        for f in range(N_FACES)
    }
    return {
        "knocked_out": val(acc_ko),
        "exposed": seats(acc_exposed),
        "swap": seats(acc_swap),
        "bet_placed": seats(acc_placed),
        "bet_net": seats(acc_net),
        "bet_net_sq": seats(acc_net_sq),
        "exposures": val(acc_ex),
        "exposures_sq": val(acc_ex2),
        "unit_bet": unit,
    }


def exact_advice(rules: Rules, policy, n_seats: int, card: int, exact: bool = False) -> dict:
    """Exact advice for seat 0 (the matador's left, no history) holding ``card``.

    For each candidate of sims.games.ace_chasing.advice (``keep``, ``swap``: seat 0's
    decision forced, every later seat and the bets under ``policy``), the exact means of
    the advised seat's outcomes: ``exposed`` (P(seat 0 is exposed)), ``knocked_out``
    (P(the matador is knocked out)) and ``bet_net`` (E[units seat 0 wins on its bet]).

    Seat 0 has seen nothing but its card, and every rule and policy reads faces only while
    the reveal treats the suits alike, so relabelling the suits shows that the means given
    the card are the means given its face: the enumeration of :func:`exact_hand` over the
    chunk whose lead face is the card's face, with seat 0's decision forced.  Returns
    ``{candidate: {outcome: value}}``, Fractions with ``exact=True``.
    """
    n = int(n_seats)
    if not 2 <= n <= MAX_PLAYERS:
        raise ValueError(f"n_seats must be 2..{MAX_PLAYERS}, got {n_seats}")
    if not 0 <= int(card) < PACK:
        raise ValueError(f"{card} is not a card code 0..51")
    pol = _parse_policy(policy, n)
    D = _scale(n)
    lead = int(card) % N_FACES
    dealt, w = _lead_chunk(lead, _rest(n), n)
    total = _safe_sum(w)
    stake = _stakes(pol, n, int(rules.betting), int(rules.bet_direction))[0, lead]
    result = {}
    for name, asks in (("keep", False), ("swap", True)):
        decide = _decisions(pol, n)
        decide[0, :] = asks
        cards, _ = _swap_chain(dealt, decide, bool(rules.king_block))
        ko, exposed, _, _ = _reveal_stats(cards, D)
        sums = {
            "exposed": _safe_sum(w * exposed[:, 0]),
            "knocked_out": _safe_sum(w * ko),
            "bet_net": int(stake) * _safe_sum(w * (2 * ko - D)),
        }
        result[name] = {
            key: Fraction(x, total * D) if exact else float(Fraction(x, total * D)) for key, x in sums.items()
        }
    return result
