"""Five Hundred's bid table (sims.games.five_hundred.table): the cells of literal hands
derived by hand, a table's cell overriding the policy, a left-out cell falling back to it,
a mixed cell drawing from the hand's stream, on the kernel and on the twin; the compiled
cell functions equal the declared ones; the policy as a table; a solve's sums read by
hand from the default profile."""

from __future__ import annotations

import numpy as np
import pytest

import sims.games.five_hundred.twin as twin
from sims import solve
from sims.core.cards import card_code
from sims.core.rng import Stream
from sims.core.table import left_out, with_tables
from sims.games.five_hundred import stacked
from sims.games.five_hundred.kernel import misere_cell_nb, trick_cell_nb
from sims.games.five_hundred.rules import HEARTS_BID, NO_TRUMPS, OPEN_MISERE, Rules
from sims.games.five_hundred.table import (
    A_BID,
    A_MISERE,
    A_NO_MISERE,
    A_OPEN_MISERE,
    A_PASS,
    ALLOWED_BOTH,
    ALLOWED_MISERE,
    ALLOWED_OPEN_MISERE,
    CALL_OPEN,
    CALL_OPPONENT,
    CALL_PARTNER,
    N_CELLS,
    TABLES,
    allowed_of,
    misere_cell,
    policy_table,
    trick_cell,
)
from sims.registry import GAMES

IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
play_dealt = twin.play_dealt  # rebound per test by the `implementation` fixture (conftest.py)

SPEC = GAMES["five-hundred"]
BID = TABLES[0]
R = Rules()
N_FIELDS = len(SPEC.policy_fields)

# Seat 0 (the eldest hand; seat 3 deals) holds one of these; the other seats get the rest
# of the pack in code order.
STRONG = "Ah Kh Qh Jh 10h 9h Jd As Ac Ad"
# By hand: hearts trumps are Ah Kh Qh Jh 10h 9h and Jd (the left bower), 7 of them: right
# bower 2 + left bower 2 + A 2 + K 1 + 2 for each of the 3 beyond the fourth = 13 half
# tricks; As, Ac, Ad 2 each = 6; no void.  19 half tricks: estimate 19 // 2 + 2 = 11, the
# best denomination (no trumps: 7 + 2 + 2 + 2 + 1 = 14 half tricks, estimate 9).  High
# cards: Ah Kh Qh Jh Jd As Ac Ad = 8.  Open misere may be bid (open_misere_anytime),
# misere not (no 7 bid yet).  So the misere step's cell is (open, open-misere, 8) and the
# trick step's (open, level 6, over 6 - 11 = -5, clipped to <=-3).
STRONG_MISERE = 11 + 8  # 33 * open + 11 * open-misere + 8
STRONG_TRICK = 99  # the first open cell: over <=-3
WEAK = "5c 6c 7c 5d 6d 7d 5h 6h 5s 6s"
# No high card; no A or K anywhere and at most 3 cards a suit: every estimate is 2, the
# best denomination no trumps (ties go higher).  Cells (open, open-misere, 0) and (open,
# level 6, over 6 - 2 = 4, >=4).
WEAK_MISERE = 11
WEAK_TRICK = 99 + 7

pytestmark = pytest.mark.usefixtures("implementation")


def cards(text):
    return [card_code(token) for token in text.split()]


def first_call(hand, table=None, seat=0):
    """Seat 0's first call holding ``hand``, the default policy everywhere, seat ``seat``
    playing ``table`` (a ``{cell: {action: p}}`` dict, every other cell left out)."""
    policy = SPEC.default_policy(4)
    if table is not None:
        probabilities = left_out(BID)
        for cell, mix in table.items():
            probabilities[cell] = 0.0
            for action, p in mix.items():
                probabilities[cell, action] = p
        policy = with_tables(policy, N_FIELDS, TABLES, {seat: {"bid": probabilities}})
    result = play_dealt(R, policy, cards(hand))
    assert result["auction"][0][0] == 0
    return result["auction"][0][1]


def test_the_cells_of_literal_hands_are_those_derived_by_hand():
    assert twin.estimate(cards(STRONG), HEARTS_BID) == 11 and twin.estimate(cards(STRONG), NO_TRUMPS) == 9
    assert twin.high_cards(cards(STRONG)) == 8
    assert misere_cell(CALL_OPEN, ALLOWED_OPEN_MISERE, 8) == STRONG_MISERE
    assert trick_cell(CALL_OPEN, 6, 6 - 11) == STRONG_TRICK
    assert [twin.estimate(cards(WEAK), d) for d in range(5)] == [2] * 5 and twin.high_cards(cards(WEAK)) == 0
    assert misere_cell(CALL_OPEN, ALLOWED_OPEN_MISERE, 0) == WEAK_MISERE
    assert trick_cell(CALL_OPEN, 6, 4) == WEAK_TRICK
    assert BID.cells[STRONG_MISERE] == ("open", "open-misere", "8", None, None)
    assert BID.cells[STRONG_TRICK] == ("open", None, None, "6", "<=-3")
    assert BID.cells[WEAK_TRICK] == ("open", None, None, "6", ">=4")
    # over the partner at 8 tricks, one above the estimate: 147 + 11 * 2 + (1 + 6)
    assert trick_cell(CALL_PARTNER, 8, 1) == 176 and BID.cells[176] == ("partner", None, None, "8", "1")
    assert trick_cell(CALL_OPPONENT, 10, 9) == 146 and BID.cells[146] == ("opponent", None, None, "10", ">=4")
    assert misere_cell(CALL_PARTNER, ALLOWED_BOTH, 10) == 98 and N_CELLS == 202
    assert BID.legal_actions(98) == (A_MISERE, A_OPEN_MISERE, A_NO_MISERE)
    assert BID.legal_actions(misere_cell(CALL_OPPONENT, ALLOWED_MISERE, 2)) == (A_MISERE, A_NO_MISERE)
    assert BID.legal_actions(176) == (A_PASS, A_BID)
    assert "your partner holds the bid" in BID.describe(BID.cells[176])


def test_the_policy_bids_as_derived(implementation):
    """Without a table: the strong hand opens 6H, the weak hand passes."""
    assert first_call(STRONG) == HEARTS_BID
    assert first_call(WEAK) == -1


def test_a_table_cell_overrides_the_policy(implementation):
    assert first_call(STRONG, {STRONG_MISERE: {A_OPEN_MISERE: 1.0}}) == OPEN_MISERE
    assert first_call(STRONG, {STRONG_TRICK: {A_PASS: 1.0}}) == -1
    assert first_call(WEAK, {WEAK_MISERE: {A_OPEN_MISERE: 1.0}}) == OPEN_MISERE
    assert first_call(WEAK, {WEAK_TRICK: {A_BID: 1.0}}) == 4  # 6NT, its best denomination
    # the misere step says no-misere: the trick step (left out) is the policy's
    assert first_call(STRONG, {STRONG_MISERE: {A_NO_MISERE: 1.0}}) == HEARTS_BID
    # another seat's table does not touch seat 0's call
    assert first_call(STRONG, {STRONG_TRICK: {A_PASS: 1.0}}, seat=2) == HEARTS_BID


def test_a_cell_left_out_falls_back_to_the_policy(implementation):
    # every cell but the ones this hand reaches says pass / open misere: the policy decides
    table = {cell: {A_PASS: 1.0} for cell in range(99, N_CELLS) if cell != STRONG_TRICK}
    table.update({cell: {A_OPEN_MISERE: 1.0} for cell in range(11, 22) if cell != STRONG_MISERE})
    assert first_call(STRONG, table) == HEARTS_BID


def test_a_mixed_cell_draws_from_the_hands_stream(implementation):
    """A stacked hand's draws come from Stream(0, 0): the first uniform decides."""
    u = Stream(0, 0).uniform()
    assert 1e-6 < u < 1 - 1e-6
    assert first_call(STRONG, {STRONG_TRICK: {A_PASS: u + 1e-9, A_BID: 1 - u - 1e-9}}) == -1
    assert first_call(STRONG, {STRONG_TRICK: {A_PASS: u - 1e-9, A_BID: 1 - u + 1e-9}}) == HEARTS_BID


def test_the_compiled_cells_are_the_declared_ones(implementation):
    if implementation == "twin":
        pytest.skip("the compiled functions once")
    for call in range(3):
        for om_ok in (False, True):
            for mis_ok in (False, True):
                if om_ok or mis_ok:
                    for high in range(11):
                        assert misere_cell_nb(call, om_ok, mis_ok, high) == misere_cell(
                            call, allowed_of(om_ok, mis_ok), high
                        )
        for level in (6,) if call == CALL_OPEN else range(6, 11):
            for over in range(level - 14, level - 1):  # estimates 2 .. 14
                assert trick_cell_nb(call, level, over) == trick_cell(call, level, over)


def test_the_policy_as_a_table_holds_its_thresholds(implementation):
    if implementation == "twin":
        pytest.skip("no play")
    default = SPEC.default_policy(4)[0]  # bid_offset 1, misere_max 1, open_misere_max -1, partner_margin 1
    table = policy_table(R, default, 0, 4)
    action = {cell: int(np.argmax(table[cell])) for cell in range(N_CELLS)}
    assert action[misere_cell(CALL_OPPONENT, ALLOWED_BOTH, 1)] == A_MISERE
    assert action[misere_cell(CALL_OPPONENT, ALLOWED_BOTH, 2)] == A_NO_MISERE
    assert action[misere_cell(CALL_OPEN, ALLOWED_OPEN_MISERE, 0)] == A_NO_MISERE
    assert action[trick_cell(CALL_OPEN, 6, 1)] == A_BID  # estimate 5, wants 6
    assert action[trick_cell(CALL_OPEN, 6, 2)] == A_PASS
    assert action[trick_cell(CALL_PARTNER, 7, 0)] == A_BID  # 7 + margin 1 <= 7 + 1
    assert action[trick_cell(CALL_PARTNER, 7, 1)] == A_PASS
    assert action[trick_cell(CALL_PARTNER, 10, -5)] == A_PASS  # 10 + 1 > 10: never over the partner at 10
    assert action[trick_cell(CALL_OPPONENT, 10, -5)] == A_BID
    om = SPEC.default_policy(4, "open-misere")[0]
    assert policy_table(R, om, 0, 4)[misere_cell(CALL_OPEN, ALLOWED_OPEN_MISERE, 0), A_OPEN_MISERE] == 1.0
    with pytest.raises(ValueError, match="no table decision"):
        policy_table(R, default, 0, 4, "play")


def test_a_solve_from_the_default_profile_reads_as_a_careful_player_expects(implementation):
    """Per-cell means of the seat's points over 10,000 deals, pooled over seats: bidding far
    above the estimate loses to passing, far below it wins, and open misere with many high
    cards is ruinous (the default passes / bids / declines there)."""
    if implementation == "twin":
        pytest.skip("the kernel's sums (the twin's equal them: conformance)")
    policy = SPEC.default_policy(4)
    tables = solve.policy_tables(SPEC, R, policy, 4, "bid")
    widened = with_tables(policy, N_FIELDS, TABLES, {s: {"bid": t} for s, t in tables.items()})
    sums = solve.simulate_solve(SPEC, R, widened, 4, "bid", 5, 0, 10000).sum(axis=0)

    def mean(cell, action):
        assert sums[cell, 0] > 30, BID.cell_text(cell)
        return sums[cell, 1 + 2 * action] / sums[cell, 0]

    for call, level in ((CALL_OPEN, 6), (CALL_OPPONENT, 7)):
        high, low = trick_cell(call, level, 4), trick_cell(call, level, -3 if call == CALL_OPEN else -2)
        assert mean(high, A_PASS) > mean(high, A_BID) + 20
        assert mean(low, A_BID) > mean(low, A_PASS) + 20
    many = misere_cell(CALL_OPPONENT, ALLOWED_OPEN_MISERE, 5)
    assert mean(many, A_OPEN_MISERE) < -400 < 0 < mean(many, A_NO_MISERE)


@pytest.mark.parametrize(
    "context, deals",
    [({"auction": "pass 6S"}, 60), ({"auction": "pass 6S", "score": "300", "opponent_score": "-120"}, 20)],
    ids=["bid", "bid-and-the-rest-of-the-game"],
)
def test_advice_with_mixed_tables_in_the_field_kernel_equals_twin(implementation, context, deals):
    """Every seat plays every legal action of every cell with equal chance: the field's
    draws (from the stream after the conditioned deal) are the same on kernel and twin."""
    if implementation == "twin":
        pytest.skip("kernel and twin together")
    from sims.advice import simulate_advice
    from sims.core.advice import ACCEPTED
    from sims.games.five_hundred.advice import holding_cards, situation
    from tests.games.advice_twin import twin_advice

    even = np.zeros((N_CELLS, BID.n_actions))
    for cell in range(N_CELLS):
        even[cell, list(BID.legal_actions(cell))] = 1.0 / len(BID.legal_actions(cell))
    widened = with_tables(SPEC.default_policy(4), N_FIELDS, TABLES, {s: {"bid": even} for s in range(4)})
    found = situation(R, 4, 2, tuple(holding_cards("Jh Jd Ah Kh Qh 10h 9h As Kc 5d")), context, "seen")
    kernel = simulate_advice(SPEC, R, widened, 4, found, 7, 3, deals)
    assert kernel == twin_advice(SPEC, R, widened, 4, found, 7, 3, deals)
    assert kernel[ACCEPTED] == deals
    assert kernel != simulate_advice(SPEC, R, SPEC.default_policy(4), 4, found, 7, 3, deals)
