"""Tests of the exact Chase the Ace enumerator (sims.games.chase_ace.exact).

They validate the enumerator itself: against the published reference values of
shared/rules/chase-ace.md section 1.10 (Le Her, the no-swap table), and against small
closed forms derived by hand for the other rule switches.  The hand derivations use
``seq_prob``, which only sums the exact probability of face sequences (no game logic).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest

from sims.games.chase_ace import (
    JACKS_HOLDER_MOVES,
    JACKS_HOLDER_SKIPPED,
    KINGS_BLOCK,
    KINGS_FREEZE,
    KINGS_NONE,
    KINGS_SKIP,
    KINGS_STOP_ALL,
    REVEAL_AT_DEAL,
    TIE_ALL_LOWEST,
    TIE_CANCEL_MATCHES,
    TIE_EARLIEST,
    TIE_LATEST,
    TIE_TO_DEALER,
    Rules,
)
from sims.games.chase_ace.exact import exact_hand

K, Q, J = 12, 11, 10  # faces (ace low); rank = face
NEVER = (0, 0, 0)  # never swaps / never cuts
ALWAYS = (13, 0, 0)  # always swaps / cuts (a TOP holder is skipped anyway)
LE_HER = Rules(tie=TIE_TO_DEALER, kings=KINGS_BLOCK, dealer_king_block=True)


def seq_prob(pred, k: int) -> F:
    """P(pred(faces)) for the first k cards of a shuffled 52-card pack, as faces."""
    total = F(0)
    for faces in itertools.product(range(13), repeat=k):
        w = F(1)
        left = [4] * 13
        for i, f in enumerate(faces):
            w *= F(left[f], 52 - i)
            left[f] -= 1
        if w and pred(faces):
            total += w
    return total


def le_her_paul(a, c) -> F:
    """Bellhouse & Fillion (2015): P(Paul, the non-dealer, wins)."""
    return (2828 * a * c + 2834 * (1 - a) * c + 2838 * a * (1 - c) + 2828 * (1 - a) * (1 - c)) / F(5525)


# --------------------------------------------------------------------- Le Her (1.10)


def test_le_her_published_value():
    res = exact_hand(LE_HER, [(7, 0, 1), (8, 0, 1)], 2, exact=True)
    assert 1 - res["lose_life"][0] == F(2828, 5525)
    # ties go to the dealer: exactly one loser every round
    assert res["lose_life"][0] + res["lose_life"][1] == 1
    assert res["losers"] == 1 and res["losers_sq"] == 1 and res["no_loser"] == 0


@pytest.mark.parametrize(
    "a, c, value",
    [
        (1, 1, F(2828, 5525)),
        (0, 1, F(2834, 5525)),
        (1, 0, F(2838, 5525)),
        (0, 0, F(2828, 5525)),
        (F(3, 8), F(5, 8), F(11327, 22100)),
        (F(1, 5), F(7, 9), le_her_paul(F(1, 5), F(7, 9))),
    ],
)
def test_le_her_mixed_formula(a, c, value):
    # a: P(Paul swaps a 7), c: P(Pierre draws on an 8)
    res = exact_hand(LE_HER, [(6, a, 1), (7, c, 1)], 2, exact=True)
    assert 1 - res["lose_life"][0] == value == le_her_paul(a, c)


def test_le_her_float_inputs():
    res = exact_hand(LE_HER, np.array([[6, 0.375, 1], [7, 0.625, 1]]), 2)
    assert res["lose_life"][0] == pytest.approx(1 - 11327 / 22100, abs=1e-14)
    exact = exact_hand(LE_HER, [(6, 0.375, 1), (7, 0.625, 1)], 2, exact=True)
    assert 1 - exact["lose_life"][0] == F(11327, 22100)


# ------------------------------------------------------------ no swaps at all (1.10)

NO_SWAP_TABLE = {2: (0.52941, 1.0588), 3: (0.36314, 1.0894), 4: (0.28029, 1.1212), 5: (0.23079, 1.1539)}


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_no_swap_table(n):
    res = exact_hand(Rules(), [NEVER] * n, n)
    p_lose, e_losers = NO_SWAP_TABLE[n]
    assert res["lose_life"] == pytest.approx([p_lose] * n, abs=5e-6)
    assert res["losers"] == pytest.approx(e_losers, abs=5e-5)
    assert np.all(res["exchange"] == 0)
    assert res["no_loser"] == 0


@pytest.mark.parametrize("n", [2, 3])
def test_no_swap_closed_form(n):
    # A seat holding face f loses iff the other n-1 cards are all >= f:
    # 4*(13-f) - 1 such cards are left among the 51.
    p = sum(F(1, 13) * math.prod([F(4 * (13 - f) - 1 - i, 51 - i) for i in range(n - 1)]) for f in range(13))
    res = exact_hand(Rules(), [NEVER] * n, n, exact=True)
    assert res["lose_life"] == [p] * n
    assert res["losers"] == n * p


# ------------------------------------------------------------------------ tie rules


def test_cancel_matches_two_players():
    res = exact_hand(Rules(tie=TIE_CANCEL_MATCHES), [NEVER] * 2, 2, exact=True)
    assert res["no_loser"] == F(3, 51)  # P(same face)
    assert res["lose_life"] == [F(24, 51)] * 2
    assert res["losers"] == res["losers_sq"] == F(48, 51)


def test_cancel_matches_three_players():
    # Nobody loses iff all three faces are equal; with a pair the third card loses.
    res = exact_hand(Rules(tie=TIE_CANCEL_MATCHES), [NEVER] * 3, 3, exact=True)
    assert res["no_loser"] == seq_prob(lambda f: f[0] == f[1] == f[2], 3)
    assert res["lose_life"][0] == seq_prob(lambda f: (f[1] == f[2] != f[0]) or (len(set(f)) == 3 and f[0] == min(f)), 3)


@pytest.mark.parametrize("n", [2, 3])
def test_earliest_latest_single_loser(n):
    lowest = exact_hand(Rules(tie=TIE_ALL_LOWEST), [NEVER] * n, n, exact=True)
    early = exact_hand(Rules(tie=TIE_EARLIEST), [NEVER] * n, n, exact=True)
    late = exact_hand(Rules(tie=TIE_LATEST), [NEVER] * n, n, exact=True)
    for res in (early, late):
        assert res["losers"] == res["losers_sq"] == 1 and res["no_loser"] == 0
        assert sum(res["lose_life"]) == 1
    # the earliest seat loses whenever it holds a lowest card; so does the latest seat
    assert early["lose_life"][0] == lowest["lose_life"][0]
    assert late["lose_life"][n - 1] == lowest["lose_life"][n - 1]
    # the dealer (last) loses only when strictly lowest under earliest-seat-loses
    assert early["lose_life"][n - 1] == seq_prob(lambda f: all(f[-1] < x for x in f[:-1]), n)


def test_ties_to_dealer_two_players_only():
    with pytest.raises(ValueError):
        exact_hand(Rules(tie=TIE_TO_DEALER), [NEVER] * 3, 3)


# ------------------------------------------------------------------------ king rules


def test_kings_none_vs_block_two_players():
    none = exact_hand(Rules(kings=KINGS_NONE), [ALWAYS, NEVER], 2, exact=True)
    assert none["exchange"] == [F(12, 13), 0]  # only a K holder skips
    # swapped unless seat 0 holds K: seat 0 then holds card 1, seat 1 card 0
    assert none["lose_life"][0] == seq_prob(lambda f: f[1] <= f[0] if f[0] != K else f[1] == K, 2)
    assert none["lose_life"][0] == F(101, 221)
    block = exact_hand(Rules(kings=KINGS_BLOCK), [ALWAYS, NEVER], 2, exact=True)
    assert block["exchange"] == [F(48 * 47, 52 * 51), 0]


def test_dealer_cut_and_dealer_king_block():
    both = F(48 * 47, 52 * 51)  # dealer's card and cut card both not K
    res = exact_hand(Rules(dealer_king_block=True), [NEVER, ALWAYS], 2, exact=True)
    assert res["exchange"] == [0, both]
    # seat 0 loses iff its card <= the dealer's final card
    assert res["lose_life"][0] == seq_prob(lambda f: f[0] <= (f[2] if f[1] != K and f[2] != K else f[1]), 3)
    res = exact_hand(Rules(dealer_king_block=False), [NEVER, ALWAYS], 2, exact=True)
    assert res["exchange"] == [0, F(12, 13)]
    assert res["lose_life"][0] == seq_prob(lambda f: f[0] <= (f[2] if f[1] != K else f[1]), 3)
    # freeze-if-dealt: no cut at all when a K was dealt
    res = exact_hand(Rules(kings=KINGS_FREEZE), [NEVER, ALWAYS], 2, exact=True)
    assert res["exchange"] == [0, F(48 * 47 * 46, 52 * 51 * 50)]


def test_freeze_if_dealt_always_swap():
    res = exact_hand(Rules(kings=KINGS_FREEZE), [ALWAYS] * 3, 3, exact=True)
    no_k3 = F(48 * 47 * 46, 52 * 51 * 50)
    assert res["exchange"] == [no_k3, no_k3, no_k3 * F(45, 49)]
    # no swaps when nobody tries: identical to the plain no-swap round
    frozen = exact_hand(Rules(kings=KINGS_FREEZE), [NEVER] * 3, 3, exact=True)
    assert frozen == exact_hand(Rules(), [NEVER] * 3, 3, exact=True)


def test_freeze_lose_life_decomposition():
    # Two players, seat 0 always swaps, dealer never: if a K was dealt nothing moves,
    # otherwise the cards are exchanged.
    res = exact_hand(Rules(kings=KINGS_FREEZE), [ALWAYS, NEVER], 2, exact=True)
    assert res["lose_life"][0] == seq_prob(lambda f: f[0] <= f[1] if K in f else f[1] <= f[0], 2)


def test_stop_all_vs_block_three_players():
    # Positions 0 and 1 always swap, the dealer always cuts (uninformed).
    def dealer_cut_takes(f, stop_all):
        c0, c1, c2, cut = f
        if cut == K:
            return False  # a cut K is kept out (dealer_king_block)
        if c0 != K and c1 == K:
            # position 0's attempt hits the K: stop-all ends exchanging; with block,
            # position 1 (holding K) skips and the dealer holds c2
            return (not stop_all) and c2 != K
        # otherwise the dealer ends up cutting exactly when c2 is no K
        return c2 != K

    stop = exact_hand(Rules(kings=KINGS_STOP_ALL), [ALWAYS] * 3, 3, exact=True)
    block = exact_hand(Rules(kings=KINGS_BLOCK), [ALWAYS] * 3, 3, exact=True)
    # stop-all: the dealer cuts iff (c0 = K and c2 != K) or no K among the three
    assert stop["exchange"][2] == F(4, 52) * F(48 * 47, 51 * 50) + F(48 * 47 * 46 * 45, 52 * 51 * 50 * 49)
    assert stop["exchange"][2] == seq_prob(lambda f: dealer_cut_takes(f, True), 4)
    assert block["exchange"][2] == seq_prob(lambda f: dealer_cut_takes(f, False), 4)
    assert block["exchange"][2] > stop["exchange"][2]


def test_at_deal_reveal_skips_futile_attempt():
    # With kings shown at the deal, no attempt on a dealt K is made, so under
    # stop-all-on-attempt exchanging never stops.
    rules = Rules(kings=KINGS_STOP_ALL, king_reveal=REVEAL_AT_DEAL)
    res = exact_hand(rules, [ALWAYS] * 3, 3, exact=True)
    # position 0 keeps when it sees the K on position 1; position 1 likewise for a K on
    # the dealer; so the dealer cuts exactly when it was not dealt a K
    assert res["exchange"][2] == F(48 * 47, 52 * 51)
    assert res["exchange"][0] == seq_prob(lambda f: K not in f[:2], 2)
    on_attempt = exact_hand(Rules(kings=KINGS_STOP_ALL), [ALWAYS] * 3, 3, exact=True)
    assert on_attempt["exchange"][2] < res["exchange"][2]


def test_skip_to_next_three_players():
    res = exact_hand(Rules(kings=KINGS_SKIP), [ALWAYS, NEVER, NEVER], 3, exact=True)
    # seat 0 exchanges unless it holds K or both later players hold K
    assert res["exchange"][0] == F(12, 13) - F(48 * 4 * 3, 52 * 51 * 50)

    # when position 1 holds K, seat 0 exchanges with the dealer instead
    def final(f):
        c0, c1, c2 = f
        if c0 == K:
            return f
        if c1 != K:
            return (c1, c0, c2)
        return (c2, c1, c0) if c2 != K else f

    assert res["lose_life"][2] == seq_prob(lambda f: final(f)[2] == min(final(f)), 3)
    assert res["exchange"][1:] == [0, 0]


# ------------------------------------------------------------------ queens and jacks


def test_queens_two_players():
    res = exact_hand(Rules(queens=1), [ALWAYS, NEVER], 2, exact=True)
    # a queen on the dealer redirects to the right-hand neighbour, who is the dealer
    assert res["exchange"][0] == seq_prob(lambda f: f[0] != K and f[1] not in (K, Q), 2)
    assert res["exchange"][0] == F(517, 663)


def test_queen_redirect_three_players():
    res = exact_hand(Rules(queens=1), [ALWAYS, NEVER, NEVER], 3, exact=True)
    # seat 0's target holds Q: it exchanges with the dealer instead, unless Q or K there
    assert res["exchange"][0] == seq_prob(
        lambda f: f[0] != K and (f[1] not in (K, Q) or (f[1] == Q and f[2] not in (K, Q))), 3
    )
    # with jacks on, a jack held by the dealer blocks the redirection too
    res = exact_hand(Rules(queens=1, jacks=JACKS_HOLDER_MOVES), [ALWAYS, NEVER, NEVER], 3, exact=True)
    assert res["exchange"][0] == seq_prob(
        lambda f: f[0] != K and (f[1] not in (K, Q, J) or (f[1] == Q and f[2] not in (K, Q, J))), 3
    )


def test_queen_redirect_jack_skips_dealer():
    # Seat 0 redirected to a dealer holding J: with holder-skipped the dealer cannot cut.
    pol = [ALWAYS, NEVER, ALWAYS]
    moves = exact_hand(Rules(queens=1, jacks=JACKS_HOLDER_MOVES), pol, 3, exact=True)
    skipped = exact_hand(Rules(queens=1, jacks=JACKS_HOLDER_SKIPPED), pol, 3, exact=True)
    lost = seq_prob(lambda f: f[0] != K and f[1] == Q and f[2] == J and f[3] != K, 4)
    assert moves["exchange"][2] - skipped["exchange"][2] == lost


def test_jacks_two_players():
    moves = exact_hand(Rules(jacks=JACKS_HOLDER_MOVES), [ALWAYS, ALWAYS], 2, exact=True)
    skipped = exact_hand(Rules(jacks=JACKS_HOLDER_SKIPPED), [ALWAYS, ALWAYS], 2, exact=True)
    for res in (moves, skipped):
        assert res["exchange"][0] == F(517, 663)  # same count as the queen case
    # holder-moves: the dealer cuts whenever it holds no K
    assert moves["exchange"][1] == F(48 * 47, 52 * 51)
    # holder-skipped: a dealer that showed a J loses its cut
    assert skipped["exchange"][1] == seq_prob(
        lambda f: f[2] != K and ((f[0] == K and f[1] != K) or (f[0] != K and f[1] not in (J, K))), 3
    )


# ----------------------------------------------------------------- policy features


def test_informed_non_dealer_keeps_after_favourable_swap():
    res = exact_hand(Rules(), [ALWAYS, (13, 0, 1), NEVER], 3, exact=True)
    assert res["exchange"][1] == seq_prob(lambda f: f[2] != K and f[1] != K and (f[0] == K or f[0] <= f[1]), 3)
    uninformed = exact_hand(Rules(), [ALWAYS, ALWAYS, NEVER], 3, exact=True)
    assert uninformed["exchange"][1] == seq_prob(lambda f: f[2] != K and f[1] != K, 3)


def test_informed_dealer_ignores_queen_redirection():
    # Position 1 always swaps; a queen on the dealer sends it to position 0 instead.
    # The dealer then received nothing, so its informed rule does not apply and its
    # threshold (always cut) decides.
    res = exact_hand(Rules(queens=1), [NEVER, ALWAYS, (13, 0, 1)], 3, exact=True)

    def cut_taken(f):
        _, c1, c2, cut = f
        if cut == K:
            return False
        if c1 == K:
            return c2 != K  # position 1 skips
        if c2 in (K, Q):
            return c2 == Q  # blocked by the K; or redirected by the Q
        return c1 < c2  # plain exchange: cut exactly when it got the lower card

    assert res["exchange"][2] == seq_prob(cut_taken, 4)


def test_mix_is_linear():
    rules = Rules(kings=KINGS_SKIP, queens=1, tie=TIE_LATEST)
    base = [(7, 0, 1), (6, 0, 0), (8, 0, 1)]
    lo = exact_hand(rules, base, 3, exact=True)
    hi = exact_hand(rules, [base[0], (7, 0, 0), base[2]], 3, exact=True)
    q = F(2, 7)
    mid = exact_hand(rules, [base[0], (6, q, 0), base[2]], 3, exact=True)
    for key in ("lose_life", "exchange"):
        assert mid[key] == [q * h + (1 - q) * low for h, low in zip(hi[key], lo[key])]
    for key in ("losers", "losers_sq", "no_loser"):
        assert mid[key] == q * hi[key] + (1 - q) * lo[key]
    # mix 1 is the same as the next threshold
    assert exact_hand(rules, [base[0], (6, 1, 0), base[2]], 3, exact=True) == hi


def test_ace_high_relabelling_invariance():
    # Without queens and jacks the game only sees ranks, and ace_high is a relabelling
    # of faces that keeps four cards per rank, so every output is unchanged.
    pol = [(6, F(1, 3), 1), (8, 0, 0), (7, F(1, 2), 1)]
    for kings in (KINGS_BLOCK, KINGS_STOP_ALL, KINGS_SKIP):
        for dkb in (True, False):
            r = Rules(kings=kings, dealer_king_block=dkb, tie=TIE_CANCEL_MATCHES)
            assert exact_hand(r, pol, 3, exact=True) == exact_hand(r._replace(ace_high=True), pol, 3, exact=True)


def test_ace_high_with_queens_differs_only_by_ranks():
    # With ace_high the queen is still the face Q (rank 10 then, not 11).
    res = exact_hand(Rules(queens=1, ace_high=True), [ALWAYS, NEVER], 2, exact=True)
    A = 0  # the TOP card with ace_high
    assert res["exchange"][0] == seq_prob(lambda f: f[0] != A and f[1] not in (A, Q), 2)


def test_float_matches_exact_and_identities():
    rules = Rules(kings=KINGS_SKIP, queens=1, jacks=JACKS_HOLDER_SKIPPED, tie=TIE_CANCEL_MATCHES)
    pol = [(7, 0.25, 1), (5, 0.5, 0), (8, 0.75, 1)]
    fl = exact_hand(rules, pol, 3)
    ex = exact_hand(rules, pol, 3, exact=True)
    np.testing.assert_allclose(fl["lose_life"], [float(x) for x in ex["lose_life"]], rtol=0, atol=1e-13)
    np.testing.assert_allclose(fl["exchange"], [float(x) for x in ex["exchange"]], rtol=0, atol=1e-13)
    for key in ("losers", "losers_sq", "no_loser"):
        assert fl[key] == pytest.approx(float(ex[key]), abs=1e-13)
    assert sum(ex["lose_life"]) == ex["losers"]
    # cancel-matches: at most one loser
    assert ex["losers"] == ex["losers_sq"] == 1 - ex["no_loser"]


@pytest.mark.slow
def test_five_seats_runs_and_is_consistent():
    rules = Rules(kings=KINGS_BLOCK, queens=1, jacks=JACKS_HOLDER_MOVES)
    res = exact_hand(rules, [(7, 0.5, 1)] * 5, 5)
    assert res["losers"] == pytest.approx(res["lose_life"].sum(), abs=1e-12)
    assert 1 <= res["losers"] <= res["losers_sq"] <= 25
    assert res["no_loser"] == 0
    assert np.all((res["exchange"] >= 0) & (res["exchange"] <= 1))


def test_bad_inputs():
    with pytest.raises(ValueError):
        exact_hand(Rules(), [NEVER] * 2, 6)
    with pytest.raises(ValueError):
        exact_hand(Rules(), [NEVER] * 3, 2)
    with pytest.raises(ValueError):
        exact_hand(Rules(), [(14, 0, 0), NEVER], 2)
    with pytest.raises(ValueError):
        exact_hand(Rules(), [(7, 1.5, 0), NEVER], 2)
