"""Exact enumerator ("slow twin") for one round of Chase the Ace in hand mode.

What it computes
----------------
``exact_hand(rules, policy, n_seats)`` gives, with no sampling, the expectations of the
hand-mode outputs of ``sims.games.chase_ace`` for one round with ``n_seats`` players
(2..5), the dealer in the last seat (seat n-1) and seat 0 the eldest hand:

* ``lose_life[s]``  P(seat s loses a life),
* ``exchange[s]``   P(seat s completes an exchange on its own turn: its attempt,
  redirected or not, ended in an exchange; for the dealer: it cut and took the cut card),
* ``losers``        E[number of players losing a life],
* ``losers_sq``     E[(number of players losing a life)^2],
* ``no_loser``      P(nobody loses a life).

It follows the package docstring of ``sims/games/chase_ace/__init__.py`` (the rules contract) to the letter and was written from that
contract alone, independently of the Numba kernel.  ``lives`` and ``final_tie`` only
matter in game mode and are ignored.

How
---
Suits never matter, so a deal is an ordered sequence of faces: one per position, plus
the cut card.  The exact probability of a face sequence drawn without replacement from a
52-card pack with 4 cards of each face is the product of (cards of that face left) /
(cards left).  All weights are kept as integers over the common denominator
52 * 51 * ... * (52 - n) (the n dealt cards and the cut card), so the enumeration is
exact; the only non-integer factors are the mixed-decision probabilities.

For every sequence of n dealt faces the round is played deterministically per the
contract.  Two kinds of chance remain and both are weighted instead of sampled:

* a mixed decision (card rank exactly threshold + 1 with 0 < threshold_mix < 1) branches
  into SWAP with weight threshold_mix and KEEP with weight 1 - threshold_mix;
* the cut card is enumerated only when the dealer actually cuts (lazy branching); when
  the dealer does not cut, the sum over the cut card is the factor (52 - n).

Each leaf adds its weight to a table keyed by (mask of losing seats, mask of seats that
exchanged), from which every expectation is read at the end.  Plain recursion over the
faces, with the showdown memoised on the final faces, is fast enough: n <= 4 takes well
under a few seconds and n = 5 some tens of seconds at most in float mode.

``exact=True`` returns ``fractions.Fraction`` values (mixes converted with
``Fraction(x).limit_denominator(10**9)`` unless already Fractions); it is quick for
n = 2 and 3 (and about a second for n = 4).

Literal readings of the contract taken here
-------------------------------------------
* ties-to-dealer is defined "two players only": other n_seats raise ValueError.
* freeze-if-dealt looks at the n dealt cards only (the cut card is not dealt).
* dealer_king_block applies to a cut TOP card whatever the kings rule (also kings=none).
* Informed rule a keeps only on a strictly higher rank received (non-dealer) and cuts
  only on a strictly lower one (dealer); an equal rank goes on to rule b / c for a
  non-dealer and is a KEEP for the dealer.
* Rule b checks that the target holds TOP now and was dealt TOP (under block and
  stop-all a TOP card cannot move before the dealer's turn, so the two coincide).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from sims.games.chase_ace import (
    INFORMED,
    JACKS_HOLDER_MOVES,
    JACKS_HOLDER_SKIPPED,
    JACKS_OFF,
    KINGS_BLOCK,
    KINGS_FREEZE,
    KINGS_NONE,
    KINGS_SKIP,
    KINGS_STOP_ALL,
    REVEAL_AT_DEAL,
    REVEAL_ON_ATTEMPT,
    THRESHOLD,
    THRESHOLD_MIX,
    TIE_ALL_LOWEST,
    TIE_CANCEL_MATCHES,
    TIE_EARLIEST,
    TIE_LATEST,
    TIE_TO_DEALER,
    Rules,
)

__all__ = ["exact_hand", "exact_profile", "exact_solve", "best_response", "profile_of_policy", "profile_matrix"]

MAX_PLAYERS = 5  # six or more seats take minutes in plain Python

N_FACES = 13
PER_FACE = 4
PACK = N_FACES * PER_FACE
JACK_FACE = 10
QUEEN_FACE = 11


def _parse_policy(policy, n_seats: int, exact: bool):
    """Validate the policy rows; return [(threshold, mix, informed)] per seat.

    mix is a float, or a Fraction when exact (converted with
    Fraction(x).limit_denominator(10**9) unless already a Fraction).
    """
    rows = [list(row) for row in (policy.tolist() if isinstance(policy, np.ndarray) else policy)]
    if len(rows) != n_seats:
        raise ValueError(f"policy has {len(rows)} rows, expected {n_seats}")
    out = []
    for seat, row in enumerate(rows):
        if len(row) != 3:
            raise ValueError(f"policy row {seat} must be (threshold, threshold_mix, informed)")
        threshold = row[THRESHOLD]
        if int(threshold) != threshold or not 0 <= threshold <= 13:
            raise ValueError(f"seat {seat}: threshold must be an integer 0..13, got {threshold}")
        mix = row[THRESHOLD_MIX]
        if exact:
            mix = mix if isinstance(mix, Fraction) else Fraction(mix).limit_denominator(10**9)
        else:
            mix = float(mix)
        if not 0 <= mix <= 1:
            raise ValueError(f"seat {seat}: threshold_mix must be in [0, 1], got {mix}")
        informed = row[INFORMED]
        if informed not in (0, 1):
            raise ValueError(f"seat {seat}: informed must be 0 or 1, got {informed}")
        out.append((int(threshold), mix, bool(informed)))
    return out


def _swap_table(threshold: int, mix, rank):
    """SWAP probability by face for one seat (contract: decide SWAP or KEEP, rule c)."""
    table = []
    for face in range(N_FACES):
        rank1 = rank[face] + 1
        if rank1 <= threshold:
            p = 1
        elif rank1 == threshold + 1:
            # 0 < mix < 1: one uniform draw, SWAP if u < mix, i.e. with probability mix;
            # mix >= 1: SWAP without a draw; mix == 0: KEEP.
            p = 1 if mix >= 1 else (mix if mix > 0 else 0)
        else:
            p = 0
        table.append(p)
    return table


def exact_hand(rules: Rules, policy, n_seats: int, exact: bool = False, first_face=None, first_swap=None) -> dict:
    """Exact hand-mode expectations of one round of Chase the Ace.

    Parameters
    ----------
    rules : Rules
        The rule switches (lives and final_tie are ignored: they only matter in game mode).
    policy : sequence of n_seats rows (threshold, threshold_mix, informed)
        Row s is seat s's policy; seat n_seats - 1 is the dealer.
    n_seats : int
        2..5.  Position k of the round is seat k (hand mode).
    exact : bool
        False: floats (numpy arrays for the per-seat values).  True: Fractions (lists of
        Fractions for the per-seat values).

    first_face, first_swap : int, bool (advice, optional)
        Seat 0 (the eldest) is dealt a card of face ``first_face`` (0=A .. 12=K): the
        expectations are conditional on it.  With ``first_swap`` it swaps (True) or keeps
        (False) whatever its policy says (rule b still refuses an attempt on a king shown
        at the deal).

    Returns
    -------
    dict with keys "lose_life", "exchange" (per seat), "losers", "losers_sq", "no_loser".
    """
    m = int(n_seats)
    if not 2 <= m <= 5:
        raise ValueError(f"n_seats must be 2..5, got {n_seats}")
    tie = int(rules.tie)
    kings = int(rules.kings)
    reveal = int(rules.king_reveal)
    dealer_king_block = bool(rules.dealer_king_block)
    queens = bool(rules.queens)
    jacks = int(rules.jacks)
    ace_high = bool(rules.ace_high)
    if tie not in (TIE_ALL_LOWEST, TIE_CANCEL_MATCHES, TIE_EARLIEST, TIE_LATEST, TIE_TO_DEALER):
        raise ValueError(f"unknown tie rule {tie}")
    if kings not in (KINGS_BLOCK, KINGS_NONE, KINGS_FREEZE, KINGS_STOP_ALL, KINGS_SKIP):
        raise ValueError(f"unknown kings rule {kings}")
    if reveal not in (REVEAL_ON_ATTEMPT, REVEAL_AT_DEAL):
        raise ValueError(f"unknown king_reveal {reveal}")
    if jacks not in (JACKS_OFF, JACKS_HOLDER_MOVES, JACKS_HOLDER_SKIPPED):
        raise ValueError(f"unknown jacks rule {jacks}")
    if tie == TIE_TO_DEALER and m != 2:
        # Contract: "ties-to-dealer [4] (two players only ...)".  It defines no outcome
        # for more players, so none is invented here.
        raise ValueError("tie rule ties-to-dealer is defined for two players only")

    # Ranks: face 0=A .. 12=K; rank = face, or (face + 12) % 13 with ace_high.
    rank = [((f + 12) % 13 if ace_high else f) for f in range(N_FACES)]
    top = 0 if ace_high else 12  # the TOP card (the blocker): K, or A with ace_high

    seats = _parse_policy(policy, m, exact)
    swap_p = [_swap_table(th, mix, rank) for th, mix, _ in seats]
    if first_swap is not None:
        swap_p[0] = [1 if first_swap else 0] * N_FACES
    informed = [inf for _, _, inf in seats]

    dealer = m - 1
    stock = PACK - m  # cards left for the cut
    kings_active = kings != KINGS_NONE
    # Rule b: with kings shown at the deal, nobody attempts a futile (block) or
    # round-stopping (stop-all) swap on a dealt TOP card.
    at_deal_keep = reveal == REVEAL_AT_DEAL and kings in (KINGS_BLOCK, KINGS_STOP_ALL)

    # ------------------------------------------------------------------ showdown
    showdown_cache: dict[tuple, int] = {}

    def losers_mask(final: tuple) -> int:
        """Bit mask of the positions that lose a life with these final faces."""
        hit = showdown_cache.get(final)
        if hit is not None:
            return hit
        rk = [rank[f] for f in final]
        if tie == TIE_TO_DEALER:
            mask = 1 if rk[0] <= rk[1] else 2
        elif tie == TIE_CANCEL_MATCHES:
            unique = [r for r in rk if rk.count(r) == 1]
            mask = 1 << rk.index(min(unique)) if unique else 0
        else:
            low = min(rk)
            if tie == TIE_ALL_LOWEST:
                mask = sum(1 << i for i, r in enumerate(rk) if r == low)
            elif tie == TIE_EARLIEST:
                mask = 1 << rk.index(low)
            else:  # TIE_LATEST: the dealer counts as last
                mask = 1 << (m - 1 - rk[::-1].index(low))
        showdown_cache[final] = mask
        return mask

    # outcome[(losers mask, exchange mask)] = summed weight (integer numerators over
    # the common denominator, times mix factors)
    outcome: dict[tuple[int, int], object] = {}

    def finish(cards, exch: int, w) -> None:
        key = (losers_mask(tuple(cards)), exch)
        outcome[key] = outcome.get(key, 0) + w

    # ------------------------------------------------------------------ one attempt
    def attempt(k: int, cards: list, ended: bool, lost: int):
        """Resolve position k's SWAP on its target t = k + 1 (mutates cards).

        Returns (ended, lost, exchanged, direct): exchanged if k's attempt, redirected
        or not, ended in an exchange; direct if it was the plain exchange with t (the
        only kind the informed rule a looks at).
        """
        t = k + 1
        ct = cards[t]
        if ct == top and kings_active:
            # The TOP card is shown.
            if kings == KINGS_BLOCK:
                return ended, lost, False, False
            if kings == KINGS_STOP_ALL:
                return True, lost, False, False
            if kings == KINGS_SKIP:
                # The first position after t, up to the dealer, not holding TOP must
                # accept; none: no exchange.
                for j in range(t + 1, m):
                    if cards[j] != top:
                        cards[k], cards[j] = cards[j], cards[k]
                        return ended, lost, True, False
                return ended, lost, False, False
            raise AssertionError("freeze-if-dealt never reaches an attempt on a TOP card")
        if queens and ct == QUEEN_FACE:
            # The queen is shown; exchange instead with r, k's right-hand neighbour.
            r = k - 1 if k > 0 else dealer
            cr = cards[r]
            if r == t or cr == QUEEN_FACE:
                return ended, lost, False, False
            if cr == top and kings_active:
                # An attempt on a TOP card by the kings rule, except that skip-to-next
                # blocks.
                if kings == KINGS_STOP_ALL:
                    return True, lost, False, False
                if kings in (KINGS_BLOCK, KINGS_SKIP):
                    return ended, lost, False, False
                raise AssertionError("freeze-if-dealt: no TOP card can be in play here")
            if jacks != JACKS_OFF and cr == JACK_FACE:
                # Blocked as by the jack rule; the skip applies to r only if r has not
                # had its turn, i.e. r is the dealer.
                if jacks == JACKS_HOLDER_SKIPPED and r == dealer:
                    lost |= 1 << r
                return ended, lost, False, False
            cards[k], cards[r] = cards[r], cards[k]
            return ended, lost, True, False
        if jacks != JACKS_OFF and ct == JACK_FACE:
            # The jack is shown, no exchange; with holder-skipped t's own turn is lost.
            if jacks == JACKS_HOLDER_SKIPPED:
                lost |= 1 << t
            return ended, lost, False, False
        cards[k], cards[t] = ct, cards[k]
        return ended, lost, True, True

    # ------------------------------------------------------------------ the round
    def play(k: int, dealt: tuple, cards: list, ended: bool, lost: int, exch: int, direct: bool, w, left: list) -> None:
        """Play from position k on (cards is owned by this call and mutated).

        direct: position k - 1 has just completed a plain exchange with k on its own
        turn.  left[f]: cards of face f left in the stock (for the cut card).
        """
        while k < dealer:
            face = cards[k]
            # Skip checks 1-3: exchanging ended, holding TOP now, turn lost.
            if ended or face == top or (lost >> k) & 1:
                k += 1
                direct = False
                continue
            t = k + 1
            if informed[k] and direct and rank[cards[k]] > rank[cards[k - 1]]:
                p = 0  # rule a: received a higher rank than it gave
            elif at_deal_keep and cards[t] == top and dealt[t] == top:
                p = 0  # rule b
            else:
                p = swap_p[k][face]  # rule c
            if p == 0:
                k += 1
                direct = False
                continue
            if p != 1:
                # Mixed decision: the KEEP branch goes on in its own copy.
                play(k + 1, dealt, list(cards), ended, lost, exch, False, w * (1 - p), left)
                w = w * p
            ended, lost, exchanged, direct = attempt(k, cards, ended, lost)
            if exchanged:
                exch |= 1 << k
            k += 1

        # The dealer's turn.
        if ended or cards[dealer] == top or (lost >> dealer) & 1:
            p = 0
        elif informed[dealer] and direct:
            # Rule a: the last non-dealer has just exchanged with the dealer on its own
            # turn: CUT exactly when the rank received is lower than the rank given.
            p = 1 if rank[cards[dealer]] < rank[cards[dealer - 1]] else 0
        else:
            p = swap_p[dealer][cards[dealer]]
        keep_w = w * (1 - p) * stock if p != 1 else 0  # summed over the unseen cut card
        if p != 0:
            wc = w * p
            final = list(cards)
            for c in range(N_FACES):
                n_c = left[c]
                if n_c == 0:
                    continue
                if c == top and dealer_king_block:
                    keep_w = keep_w + wc * n_c  # a cut TOP card: the dealer keeps its card
                else:
                    final[dealer] = c
                    finish(final, exch | (1 << dealer), wc * n_c)
        if keep_w:
            finish(cards, exch, keep_w)

    # ------------------------------------------------------------------ the deal
    left = [PER_FACE] * N_FACES
    dealt = [0] * m

    def deal(i: int, w: int) -> None:
        if i == m:
            start = tuple(dealt)
            ended = kings == KINGS_FREEZE and top in start  # a dealt TOP freezes the round
            play(0, start, list(start), ended, 0, 0, False, w, left)
            return
        for f in range(N_FACES) if i or first_face is None else (first_face,):
            n_f = left[f]
            if n_f == 0:
                continue
            left[f] = n_f - 1
            dealt[i] = f
            deal(i + 1, w * n_f)
            left[f] = n_f

    deal(0, 1)

    # ------------------------------------------------------------------ expectations
    denom = 1
    for i in range(m + 1):
        denom *= PACK - i
    if first_face is not None:  # the deals in which seat 0 holds that face
        denom = denom * PER_FACE // PACK
    total = sum(outcome.values())
    if exact:
        assert total == denom, "weights do not sum to 1"
        scale = Fraction(1, denom)
        zero = Fraction(0)
    else:
        assert abs(float(total) - denom) <= 1e-9 * denom, "weights do not sum to 1"
        scale = 1.0 / denom
        zero = 0.0
    lose = [zero] * m
    exch_p = [zero] * m
    losers = losers_sq = no_loser = zero
    for (lmask, emask), w in outcome.items():
        pw = w * scale
        n_lose = bin(lmask).count("1")
        losers += n_lose * pw
        losers_sq += n_lose * n_lose * pw
        if lmask == 0:
            no_loser += pw
        for s in range(m):
            if (lmask >> s) & 1:
                lose[s] += pw
            if (emask >> s) & 1:
                exch_p[s] += pw
    if exact:
        return {
            "lose_life": [Fraction(x) for x in lose],
            "exchange": [Fraction(x) for x in exch_p],
            "losers": Fraction(losers),
            "losers_sq": Fraction(losers_sq),
            "no_loser": Fraction(no_loser),
        }
    return {
        "lose_life": np.array(lose, dtype=float),
        "exchange": np.array(exch_p, dtype=float),
        "losers": float(losers),
        "losers_sq": float(losers_sq),
        "no_loser": float(no_loser),
    }


# ----------------------------------------------------------------------------------------
# Strategy tables (sims/games/chase_ace/table.py): exact evaluation of table profiles


def profile_of_policy(rules: Rules, policy, n_seats: int) -> np.ndarray:
    """The ``[n_seats, 182]`` swap probabilities (by declared cell of the swap decision) a
    policy matrix plays in hand mode, seat ``n_seats - 1`` dealing: a seat playing a table
    takes its cell's swap probability, a cell left out (or a seat without a table) the
    policy fields' (rules a and c; the dealer's rule a: cut exactly on a lower rank
    received).  Cells no seat can visit (holding the top card) hold 0."""
    from sims.games.chase_ace.table import N_CELLS, N_FIELDS

    rows = np.asarray(policy, dtype=np.float64)
    ace_high = bool(rules.ace_high)
    rank = [((f + 12) % 13 if ace_high else f) for f in range(N_FACES)]
    top = 0 if ace_high else 12
    out = np.zeros((n_seats, N_CELLS))
    for seat in range(n_seats):
        row = rows[seat]
        threshold, mix, informed = int(row[THRESHOLD]), float(row[THRESHOLD_MIX]), row[INFORMED] > 0.5
        plain = _swap_table(threshold, mix, rank)
        for cell in range(N_CELLS):
            held, gave = (cell, None) if cell < N_FACES else divmod(cell - N_FACES, N_FACES)
            if held == top:
                continue
            if rows.shape[1] > N_FIELDS and row[N_FIELDS] >= 0.5 and row[N_FIELDS + 1 + 2 * cell] >= 0:
                out[seat, cell] = row[N_FIELDS + 1 + 2 * cell]
            elif informed and gave is not None and seat == n_seats - 1:
                out[seat, cell] = 1.0 if rank[held] < rank[gave] else 0.0
            elif informed and gave is not None and rank[held] > rank[gave]:
                out[seat, cell] = 0.0
            else:
                out[seat, cell] = plain[held]
    return out


def profile_matrix(profile, n_fields_row=(7, 0, 1)) -> np.ndarray:
    """A widened policy matrix (sims.core.table) whose every seat plays ``profile``'s swap
    probabilities as its table (the policy fields ``n_fields_row`` are never read)."""
    from sims.games.chase_ace.table import N_CELLS

    profile = np.asarray(profile, dtype=np.float64)
    n = profile.shape[0]
    out = np.zeros((n, len(n_fields_row) + 1 + 2 * N_CELLS))
    out[:, : len(n_fields_row)] = n_fields_row
    out[:, len(n_fields_row)] = 1.0
    out[:, len(n_fields_row) + 1 :: 2] = profile
    out[:, len(n_fields_row) + 2 :: 2] = 1.0 - profile
    return out


class _RoundRules:
    """The round's rule switches and the resolution of one attempt (the contract's "SWAP
    is an attempt on the target"), as exact_hand plays them."""

    def __init__(self, rules: Rules, m: int):
        self.m, self.dealer = m, m - 1
        self.tie, self.kings = int(rules.tie), int(rules.kings)
        self.queens, self.jacks = bool(rules.queens), int(rules.jacks)
        self.dealer_king_block = bool(rules.dealer_king_block)
        self.rank = [((f + 12) % 13 if rules.ace_high else f) for f in range(N_FACES)]
        self.top = 0 if rules.ace_high else 12
        self.kings_active = self.kings != KINGS_NONE
        self.at_deal_keep = int(rules.king_reveal) == REVEAL_AT_DEAL and self.kings in (KINGS_BLOCK, KINGS_STOP_ALL)
        self._losers: dict[tuple, int] = {}
        if self.tie == TIE_TO_DEALER and m != 2:
            raise ValueError("tie rule ties-to-dealer is defined for two players only")

    def losers(self, final: tuple) -> int:
        """Bit mask of the positions losing a life with these final faces."""
        hit = self._losers.get(final)
        if hit is None:
            rk = [self.rank[f] for f in final]
            if self.tie == TIE_TO_DEALER:
                hit = 1 if rk[0] <= rk[1] else 2
            elif self.tie == TIE_CANCEL_MATCHES:
                unique = [r for r in rk if rk.count(r) == 1]
                hit = 1 << rk.index(min(unique)) if unique else 0
            else:
                low = min(rk)
                if self.tie == TIE_ALL_LOWEST:
                    hit = sum(1 << i for i, r in enumerate(rk) if r == low)
                elif self.tie == TIE_EARLIEST:
                    hit = 1 << rk.index(low)
                else:
                    hit = 1 << (self.m - 1 - rk[::-1].index(low))
            self._losers[final] = hit
        return hit

    def attempt(self, k: int, cards: list, ended: bool, lost: int):
        """Position k's attempt on k + 1 (mutates cards): (ended, lost, exchanged, direct)."""
        t, top, dealer = k + 1, self.top, self.dealer
        ct = cards[t]
        if ct == top and self.kings_active:
            if self.kings == KINGS_STOP_ALL:
                return True, lost, False, False
            if self.kings == KINGS_SKIP:
                for j in range(t + 1, self.m):
                    if cards[j] != top:
                        cards[k], cards[j] = cards[j], cards[k]
                        return ended, lost, True, False
            return ended, lost, False, False
        if self.queens and ct == QUEEN_FACE:
            r = k - 1 if k > 0 else dealer
            cr = cards[r]
            if r == t or cr == QUEEN_FACE:
                return ended, lost, False, False
            if cr == top and self.kings_active:
                return self.kings == KINGS_STOP_ALL or ended, lost, False, False
            if self.jacks != JACKS_OFF and cr == JACK_FACE:
                if self.jacks == JACKS_HOLDER_SKIPPED and r == dealer:
                    lost |= 1 << r
                return ended, lost, False, False
            cards[k], cards[r] = cards[r], cards[k]
            return ended, lost, True, False
        if self.jacks != JACKS_OFF and ct == JACK_FACE:
            if self.jacks == JACKS_HOLDER_SKIPPED:
                lost |= 1 << t
            return ended, lost, False, False
        cards[k], cards[t] = ct, cards[k]
        return ended, lost, True, True


def exact_profile(rules: Rules, n_seats: int, profile) -> dict:
    """Exact hand-mode values of a profile of swap tables (seat ``n_seats - 1`` deals).

    ``profile``: ``[n_seats, 182]`` swap probabilities by declared cell of the swap
    decision (sims.games.chase_ace.table; :func:`profile_of_policy` writes a policy's),
    floats or Fractions.  Every deal of faces is enumerated with its exact weight, as
    :func:`exact_hand` does; at every visit (a decision no rule forces) both actions are
    followed, the visited seat's outcome of each recorded with the visit's reach, and the
    rest of the round played by the profile.  Returns a dict:

    * ``lose_life[s]``: P(seat s loses a life) under the profile;
    * ``reach[s][c]``: P(seat s visits cell c);
    * ``sums[s][c][a]``: E[1{s visits c} * lose_life of s when that visit takes action a
      (0 swap, 1 keep), the rest as the profile plays]: what a solve kernel's per-action
      sums divided by the deals estimate;
    * ``value[s][c][a]``: ``sums / reach`` (None where reach is 0).

    Lists of floats (Fractions when the profile holds Fractions).  2 to 5 players; about
    0.2 s at 3 players, some seconds at 4, a few minutes at 5 (plain Python)."""
    from sims.games.chase_ace.table import N_CELLS

    m = int(n_seats)
    if not 2 <= m <= MAX_PLAYERS:
        raise ValueError(f"n_seats must be 2..{MAX_PLAYERS}, got {n_seats}")
    prob = [list(row) for row in (profile.tolist() if isinstance(profile, np.ndarray) else profile)]
    if len(prob) != m or any(len(row) != N_CELLS for row in prob):
        raise ValueError(f"a profile is {m} rows of {N_CELLS} swap probabilities.")
    game = _RoundRules(rules, m)
    freeze = int(rules.kings) == KINGS_FREEZE
    lose = [0] * m
    reach = [[0] * N_CELLS for _ in range(m)]
    sums = [[[0, 0] for _ in range(N_CELLS)] for _ in range(m)]
    left = [PER_FACE] * N_FACES
    stock = PACK - m

    def finish(cards: tuple, w, tags) -> None:
        mask = game.losers(cards)
        if not mask:
            return
        for s in range(m):
            if (mask >> s) & 1:
                lose[s] += w
        for seat, cell, action, weight in tags:
            if (mask >> seat) & 1:
                sums[seat][cell][action] += weight

    def branches(k: int, cell: int, w, tags):
        """(action, weight, tags) of both actions of a visit of position k with reach w."""
        p = prob[k][cell]
        reach[k][cell] += w
        for action, pa in ((0, p), (1, 1 - p)):
            kept = tuple((s, c, a, t * pa) for s, c, a, t in tags if t * pa)
            yield action, w * pa, kept + (((k, cell, action, w),) if w else ())

    def dealer_turn(cards: list, ended: bool, lost: int, direct: bool, w, tags) -> None:
        dealer, top = game.dealer, game.top
        face = cards[dealer]
        if ended or face == top or (lost >> dealer) & 1:
            finish(tuple(cards), w * stock, tuple((s, c, a, t * stock) for s, c, a, t in tags))
            return
        cell = N_FACES + N_FACES * face + cards[dealer - 1] if direct else face
        for action, aw, atags in branches(dealer, cell, w, tags):
            if not aw and not atags:
                continue
            if action == 1:
                finish(tuple(cards), aw * stock, tuple((s, c, a, t * stock) for s, c, a, t in atags))
                continue
            final = list(cards)
            for c in range(N_FACES):
                n_c = left[c]
                if n_c:
                    final[dealer] = face if c == top and game.dealer_king_block else c
                    finish(tuple(final), aw * n_c, tuple((s, cl, a, t * n_c) for s, cl, a, t in atags))

    def play(k: int, dealt: tuple, cards: list, ended: bool, lost: int, direct: bool, w, tags) -> None:
        while k < game.dealer:
            face = cards[k]
            ruled = ended or face == game.top or (lost >> k) & 1
            ruled = ruled or (game.at_deal_keep and cards[k + 1] == game.top and dealt[k + 1] == game.top)
            if not ruled:
                break
            k += 1
            direct = False
        else:
            dealer_turn(cards, ended, lost, direct, w, tags)
            return
        cell = N_FACES + N_FACES * cards[k] + cards[k - 1] if direct else cards[k]
        for action, aw, atags in branches(k, cell, w, tags):
            if not aw and not atags:
                continue
            if action == 1:
                play(k + 1, dealt, cards, ended, lost, False, aw, atags)
            else:
                moved = list(cards)
                now_ended, now_lost, _, now_direct = game.attempt(k, moved, ended, lost)
                play(k + 1, dealt, moved, now_ended, now_lost, now_direct, aw, atags)

    dealt = [0] * m

    def deal(i: int, w: int) -> None:
        if i == m:
            start = tuple(dealt)
            play(0, start, list(start), freeze and game.top in start, 0, False, w, ())
            return
        for f in range(N_FACES):
            n_f = left[f]
            if n_f:
                left[f] = n_f - 1
                dealt[i] = f
                deal(i + 1, w * n_f)
                left[f] = n_f

    deal(0, 1)
    denom = 1
    for i in range(m + 1):
        denom *= PACK - i
    exact = any(isinstance(x, Fraction) for row in prob for x in row)
    scale = Fraction(1, denom) if exact else 1.0 / denom
    lose = [x * scale for x in lose]
    reach = [[x * stock * scale for x in row] for row in reach]  # a visit's weight sums over the cut card
    sums = [[[x * scale for x in pair] for pair in row] for row in sums]
    value = [[[x / r for x in pair] if r else None for pair, r in zip(srow, rrow)] for srow, rrow in zip(sums, reach)]
    return {"lose_life": lose, "reach": reach, "sums": sums, "value": value}


def best_response(profile, evaluation: dict, tolerance: float = 1e-12) -> np.ndarray:
    """Each seat's per-cell best response (lowest lose_life) to ``profile`` given its
    :func:`exact_profile` ``evaluation``: a visited cell takes the action of the lower value
    (swap probability 1 or 0); where the two are within ``tolerance``, or the cell is never
    visited, it keeps the profile's own."""
    out = np.array(profile, dtype=np.float64)
    for seat, row in enumerate(evaluation["value"]):
        for cell, pair in enumerate(row):
            if pair is None or abs(float(pair[0]) - float(pair[1])) <= tolerance:
                continue
            out[seat, cell] = 1.0 if pair[0] < pair[1] else 0.0
    return out


def exact_solve(rules: Rules, n_seats: int, start_profile, max_sweeps: int = 30) -> list[np.ndarray]:
    """Exact iterated best response over cells, from ``start_profile`` (``[n_seats, 182]``
    swap probabilities by declared cell; :func:`profile_of_policy` writes a policy's).

    Each sweep evaluates the profile exactly (:func:`exact_profile`) and replaces every
    seat's table by its per-cell best response (:func:`best_response`: a tie or an
    unvisited cell keeps its action), all seats at once.  Returns the list of profiles:
    the start, then one per sweep, ending at the first that equals its predecessor (a fixed
    point: a pure equilibrium in tables) or repeats an earlier one (a cycle, whose length is
    ``len(result) - 1 - index of the earlier``), or after ``max_sweeps`` sweeps."""
    profiles = [np.array(start_profile, dtype=np.float64)]
    for _ in range(max_sweeps):
        current = profiles[-1]
        following = best_response(current, exact_profile(rules, n_seats, current))
        profiles.append(following)
        if any(np.array_equal(following, earlier) for earlier in profiles[:-1]):
            break
    return profiles
