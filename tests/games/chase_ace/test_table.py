"""Chase the Ace strategy tables (sims/games/chase_ace/table.py): stacked-deck rounds where a
table decides, on the kernel and on the twin; the cells a round visits; the policy written
as a table; the solve kernel against the exact evaluation of table profiles (exact.py);
exact values derived by hand."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from sims import advice, situations, solve
from sims.core.cards import parse_cards
from sims.core.rng import Stream
from sims.core.table import pure, with_tables
from sims.engine import simulate
from sims.games import chase_ace as ca
from sims.games.chase_ace import stacked, twin
from sims.games.chase_ace.exact import (
    best_response,
    exact_hand,
    exact_profile,
    exact_solve,
    profile_matrix,
    profile_of_policy,
)
from sims.games.chase_ace.table import N_CELLS, TABLES, face_cell, policy_table
from sims.registry import get_game
from sims.spec import Mode
from sims.table_files import Table
from tests.games.advice_twin import twin_advice

pytestmark = pytest.mark.usefixtures("implementation")
IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
play_dealt = stacked.play_dealt  # rebound by the implementation fixture

SPEC = get_game("chase-ace")
SWAP_DECISION = TABLES[0]
FACE = {name: i for i, name in enumerate(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))}


def cell(held: str, gave: str | None = None) -> int:
    return face_cell(FACE[held], None if gave is None else FACE[gave])


def rows(n, threshold=7, mix=0.0, informed=1):
    return np.tile([float(threshold), float(mix), float(informed)], (n, 1))


def with_cells(policy, seat_cells: dict) -> np.ndarray:
    """The policy with seat s playing a table of the given cells (``{cell: swap
    probability}``), every other cell left out."""
    tables = {}
    for seat, cells in seat_cells.items():
        probabilities = np.full((N_CELLS, 2), -1.0)
        for code, p in cells.items():
            probabilities[code] = (p, 1.0 - p)
        tables[seat] = {"swap": probabilities}
    return with_tables(policy, 3, TABLES, tables)


def play(rules, policy, cards, stream=None, **kw):
    return play_dealt(rules, policy, parse_cards(cards), stream, **kw)


# ----------------------------------------------------------------------------------------
# Declarations


def test_the_swap_decision_declares_the_issue_cells():
    assert SWAP_DECISION.name == "swap" and SWAP_DECISION.actions == ("swap", "keep")
    assert SWAP_DECISION.n_cells == 13 + 169
    assert SWAP_DECISION.cells[0] == ("A", None) and SWAP_DECISION.cells[12] == ("K", None)
    assert SWAP_DECISION.cells[cell("3", "9")] == ("3", "9")
    assert SWAP_DECISION.cell_json(cell("3", "9")) == {"held": "3", "gave": "9"}
    assert SWAP_DECISION.cell_json(cell("5")) == {"held": "5", "gave": None}
    assert SWAP_DECISION.action_of("cut") == 0 and SWAP_DECISION.action_of("Keep") == 1
    assert "received 3" in SWAP_DECISION.describe(("3", "9")) and "gave 9" in SWAP_DECISION.describe(("3", "9"))
    module = SPEC.table_module()
    assert (module.SOLVE_OUTCOME, module.SOLVE_LOWER_IS_BETTER, module.SOLVE_SCALE) == ("lose_life", True, 1)


def test_a_file_may_write_cut_for_the_dealer(tmp_path):
    path = tmp_path / "dealer.csv"
    path.write_text("game,decision,seat,held,gave,action\nchase-ace,swap,2,9,,cut\nchase-ace,swap,2,3,9,keep\n")
    table = Table.load(path).for_seat(2)
    assert table[cell("9")].tolist() == [1.0, 0.0] and table[cell("3", "9")].tolist() == [0.0, 1.0]
    assert table[cell("8")].tolist() == [-1.0, -1.0]


# ----------------------------------------------------------------------------------------
# Stacked decks: a table decides (kernel and twin)


def test_a_table_cell_overrides_the_policy():
    # seat 0 holds 9 (threshold 7 keeps) but its table swaps on 9: it takes seat 1's 4;
    # seat 1 (now 9, gave 4) keeps by rule a; the dealer's 6 keeps (received nothing) ... cut: 6 <= 7 cuts the 2
    policy = with_cells(rows(3), {0: {cell("9"): 1.0}})
    found = play(ca.Rules(), policy, "9c 4d 6h 2s")
    assert found["final"] == parse_cards("4d 9c 2s") and found["exchange"] == [1, 0, 1]
    assert found["lose"] == [0, 0, 1]
    plain = play(ca.Rules(), rows(3), "9c 4d 6h 2s")
    assert plain["exchange"][0] == 0


def test_a_cell_left_out_falls_back_to_the_policy():
    # seat 0's table holds only the 9; holding 5 the policy decides (5 <= 7: swap)
    policy = with_cells(rows(3), {0: {cell("9"): 0.0}})
    assert play(ca.Rules(), policy, "5c 8d 10h 2s")["exchange"][0] == 1
    # and the table's keep on 9 is played
    assert play(ca.Rules(), with_cells(rows(3, 13), {0: {cell("9"): 0.0}}), "9c 8d 10h 2s")["exchange"][0] == 0


def test_an_after_swap_cell_decides_by_rank_received_and_given():
    # seat 0 (3) swaps with seat 1 (9): seat 1 holds the 3, gave the 9 -> cell (3, 9).
    # The policy would swap (3 <= 7); seat 1's table keeps there, so the dealer keeps its 8.
    policy = with_cells(rows(3), {1: {cell("3", "9"): 0.0, cell("3"): 1.0}})
    found = play(ca.Rules(), policy, "3c 9d 8h 2s")
    assert found["final"] == parse_cards("9d 3c 8h") and found["exchange"] == [1, 0, 0]
    assert found["lose"] == [0, 1, 0]


def test_the_dealer_cuts_from_its_table():
    # seat 1 (5) swaps with the dealer (Q): the dealer holds 5, gave Q -> cell (5, Q).
    # Informed, the dealer would cut (5 < Q); its table keeps.
    policy = with_cells(rows(3), {2: {cell("5", "Q"): 0.0}})
    found = play(ca.Rules(), policy, "10c 5d Qh 2s")
    assert found["final"] == parse_cards("10c Qh 5d") and found["exchange"] == [0, 1, 0]
    # with no swap from the right the dealer's (9) cell decides: cut
    found = play(ca.Rules(), with_cells(rows(3, 0), {2: {cell("9"): 1.0}}), "10c Jd 9h 2s")
    assert found["final"] == parse_cards("10c Jd 2s") and found["lose"] == [0, 0, 1]


def test_a_mixed_cell_draws_from_the_hands_stream():
    policy = with_cells(rows(3, 0), {0: {cell("9"): 0.5}})
    for index in range(6):
        u = Stream(5, index).uniform()
        stream = Stream(5, index)
        found = play(ca.Rules(), policy, "9c 4d 6h 2s", stream)
        assert found["exchange"][0] == int(u < 0.5)
        assert stream.s == _after_one_draw(5, index)


def _after_one_draw(seed, index):
    stream = Stream(seed, index)
    stream.uniform()
    return stream.s


def test_a_mixed_cell_without_a_stream_is_refused():
    with pytest.raises(ValueError):
        play(ca.Rules(), with_cells(rows(3, 0), {0: {cell("9"): 0.5}}), "9c 4d 6h 2s")


def test_rules_that_force_a_keep_still_force_it():
    swap_all = {code: 1.0 for code in range(N_CELLS)}
    everyone = {0: swap_all, 1: swap_all, 2: swap_all, 3: swap_all}
    # holding the king: keep, no visit (its table would swap); the others visit
    visits = []
    found = play(ca.Rules(), with_cells(rows(4, 0), everyone), "Kc 4d 6h 8s 2c", visits=visits)
    assert found["exchange"][0] == 0
    assert [v[0] for v in visits] == [1, 2, 3]
    # a king seen at the deal (at-deal reveal) in the way: no visit of seat 0, no attempt
    visits = []
    found = play(
        ca.Rules(king_reveal=ca.REVEAL_AT_DEAL), with_cells(rows(4, 0), everyone), "5c Kd 6h 8s 2c", visits=visits
    )
    assert found["exchange"] == [0, 0, 1, 1] and [v[0] for v in visits] == [2, 3]
    # freeze-if-dealt: nobody visits
    visits = []
    play(ca.Rules(kings=ca.KINGS_FREEZE), with_cells(rows(4, 0), everyone), "5c 9d Kh 8s 2c", visits=visits)
    assert visits == []


def test_the_visits_name_the_hand_derived_cells():
    # 3 players, default policy: seat 0 (4) swaps with seat 1 (J): seat 1 holds 4, gave J;
    # seat 1 (4 < J) swaps with the dealer (7): the dealer holds 4, gave 7, and cuts (4 < 7).
    visits = []
    found = play(ca.Rules(), rows(3), "4c Jd 7h 2s", visits=visits)
    assert visits == [(0, cell("4"), True), (1, cell("4", "J"), True), (2, cell("4", "7"), True)]
    assert found["final"] == parse_cards("Jd 7h 2s")
    # ace high: the ace is the top card (no visit), the king is spelled K
    visits = []
    play(ca.Rules(ace_high=True), rows(3), "Ac Kd 3h 9s", visits=visits)
    assert visits == [(1, cell("K"), False), (2, cell("3"), True)]


def test_an_override_takes_its_action_after_the_profiles_draw():
    # the solve's forced visit: seat 0's mixed cell draws (the stream moves), then keeps
    policy = with_cells(rows(3, 0), {0: {cell("9"): 0.5}})
    stream = Stream(2, 0)
    visits = []
    found = play(ca.Rules(), policy, "9c 4d 6h 2s", stream, visits=visits, override=(0, False))
    assert found["exchange"][0] == 0 and visits[0] == (0, cell("9"), False)
    assert stream.s == _after_one_draw(2, 0)


# ----------------------------------------------------------------------------------------
# The policy as a table


def test_the_default_policy_as_a_table_leaves_out_the_cells_where_roles_differ():
    rules = ca.Rules()
    policy = SPEC.default_policy(8)
    middle = policy_table(rules, policy[3], 3, 8)
    dealer = policy_table(rules, policy[7], 7, 8)
    left_out = [c for c in range(N_CELLS) if middle[c, 0] < 0]
    assert left_out == [c for c in range(N_CELLS) if dealer[c, 0] < 0] and len(left_out) == 22
    assert cell("3", "3") in left_out and cell("9", "J") in left_out  # a 3 for a 3: swap vs keep; 9 for J: keep vs cut
    assert middle[cell("7")].tolist() == [1.0, 0.0] and middle[cell("8")].tolist() == [0.0, 1.0]
    assert middle[cell("3", "9")].tolist() == [1.0, 0.0] and middle[cell("9", "3")].tolist() == [0.0, 1.0]
    mixed = policy_table(rules, [7, 0.25, 0], 0, 8)
    assert mixed[cell("8")].tolist() == [0.25, 0.75] and mixed[cell("9", "3")].tolist() == [0.0, 1.0]
    ace_high = policy_table(ca.Rules(ace_high=True), [7, 0.0, 0], 0, 8)
    assert ace_high[cell("A")].tolist() == [0.0, 1.0] and ace_high[cell("7")].tolist() == [1.0, 0.0]
    assert ace_high[cell("8")].tolist() == [1.0, 0.0]  # the 8 ranks 7th with the ace high
    assert ace_high[cell("9")].tolist() == [0.0, 1.0]


# ----------------------------------------------------------------------------------------
# Every mode plays tables: kernel and twin


@pytest.mark.parametrize("mode, count", [(Mode.HANDS, 400), (Mode.GAMES, 12)])
def test_random_mixed_tables_kernel_equals_twin_under_the_rare_rules(implementation, mode, count):
    if implementation == "twin":
        pytest.skip("one run compares both")
    rng = np.random.default_rng(7)
    for rules in (
        ca.Rules(queens=1, jacks=ca.JACKS_HOLDER_SKIPPED, kings=ca.KINGS_SKIP),
        ca.Rules(king_reveal=ca.REVEAL_AT_DEAL, kings=ca.KINGS_STOP_ALL, ace_high=True),
        ca.Rules(kings=ca.KINGS_NONE, tie=ca.TIE_CANCEL_MATCHES),
    ):
        n = 5
        tables = {}
        for seat in (0, 2, 4):
            swap = rng.choice([0.0, 1.0, 0.3], N_CELLS)
            probabilities = np.column_stack([swap, 1.0 - swap])
            probabilities[rng.random(N_CELLS) < 0.2] = -1.0
            tables[seat] = {"swap": probabilities}
        policy = with_tables(rows(n, 6, 0.5), 3, TABLES, tables)
        kernel = simulate(SPEC, rules, policy, n, mode, 3, 0, count, threads=2)
        assert np.array_equal(kernel, SPEC.twin_module().simulate(rules, policy, n, mode, 3, 0, count)), rules


def test_advice_with_a_field_playing_tables(implementation):
    if implementation == "twin":
        pytest.skip("one run compares both")
    rules, n = ca.Rules(), 6
    found = situations.situation(SPEC, rules, n, 3, parse_cards("6h"), {"gave": "9c", "lives": "1 2 3 1 2 3"}, "seen")
    policy = SPEC.default_policy(n)
    as_tables = with_tables(
        policy, 3, TABLES, {s: {"swap": t} for s, t in solve.policy_tables(SPEC, rules, policy, n).items()}
    )
    plain = advice.simulate_advice(SPEC, rules, policy, n, found, 4, 0, 800)
    assert advice.simulate_advice(SPEC, rules, as_tables, n, found, 4, 0, 800) == plain
    rng = np.random.default_rng(1)
    swap = rng.choice([0.0, 1.0, 0.5], N_CELLS)
    mixed = with_tables(policy, 3, TABLES, {s: {"swap": np.column_stack([swap, 1 - swap])} for s in range(n)})
    kernel = advice.simulate_advice(SPEC, rules, mixed, n, found, 4, 0, 800)
    assert kernel == twin_advice(SPEC, rules, mixed, n, found, 4, 0, 800) and kernel != plain


# ----------------------------------------------------------------------------------------
# Exact evaluation of table profiles (exact.py)


def test_exact_profile_of_the_policy_equals_exact_hand(implementation):
    if implementation == "twin":
        pytest.skip("no implementation involved")
    for rules, policy in ((ca.Rules(), rows(3)), (ca.Rules(ace_high=True, tie=ca.TIE_LATEST), rows(3, 6, 0.5, 1))):
        found = exact_profile(rules, 3, profile_of_policy(rules, policy, 3))
        assert np.allclose(found["lose_life"], exact_hand(rules, policy, 3)["lose_life"], atol=1e-13)
        assert math.isclose(sum(found["reach"][0]), 12 / 13)  # the eldest visits holding anything but the top card


def test_exact_values_derived_by_hand(implementation):
    if implementation == "twin":
        pytest.skip("no implementation involved")
    keep_all = [[Fraction(0)] * N_CELLS for _ in range(2)]
    found = exact_profile(ca.Rules(), 2, keep_all)
    # nobody swaps: the eldest loses when its rank is <= the dealer's: (1 - 3/51) / 2 + 3/51
    assert found["lose_life"][0] == Fraction(9, 17) and found["lose_life"][1] == Fraction(9, 17)
    # every face but the king is a visit of each seat, 1 in 13; no swap from the right ever
    assert found["reach"][0][cell("A")] == Fraction(1, 13) and found["reach"][0][cell("K")] == 0
    assert sum(found["reach"][1][13:]) == 0
    # the eldest holding an ace: keeping loses for sure; swapping loses only to another ace
    # (a tie, 3 of 51) or a king that blocks (4 of 51): the dealer then keeps
    assert found["value"][0][cell("A")] == [Fraction(7, 51), Fraction(1)]
    # the dealer holding a 2, the eldest having kept: keeping loses unless the eldest has an ace
    assert found["value"][1][cell("2")][1] == Fraction(47, 51)
    assert found["value"][1][cell("2")][0] == _dealer_cuts_holding_a_two()


def _dealer_cuts_holding_a_two() -> Fraction:
    """Brute force over literal cards: the dealer holds 2c and cuts; the eldest keeps."""
    losses = total = 0
    pack = [c for c in range(52) if c != 1]
    for eldest in pack:
        for cut in pack:
            if cut == eldest:
                continue
            dealer = 1 if cut % 13 == 12 else cut  # a cut king stays in the pack
            total += 1
            losses += dealer % 13 <= eldest % 13
    return Fraction(losses, total)


def test_exact_solve_reaches_a_fixed_point_at_three(implementation):
    if implementation == "twin":
        pytest.skip("no implementation involved")
    rules = ca.Rules()
    start = profile_of_policy(rules, rows(3), 3)
    profiles = exact_solve(rules, 3, start)
    assert np.array_equal(profiles[-1], profiles[-2]), "a fixed point at three players"
    last = profiles[-1]
    assert np.array_equal(best_response(last, exact_profile(rules, 3, last)), last)
    assert len(profiles) == 3  # one sweep moves, the next stays
    first = profiles[1]
    changed = sorted((int(s), SWAP_DECISION.cell_text(int(c))) for s, c in zip(*np.nonzero(first != start)))
    # the eldest stops swapping a 7; the dealer cuts after trading a card for one of the
    # same rank, A to 7 (an informed dealer keeps there): a tie with its right-hand neighbour
    assert changed == sorted([(0, "held=7 gave=-")] + [(2, f"held={f} gave={f}") for f in "A234567"])


# ----------------------------------------------------------------------------------------
# The solve kernel against the exact values


def _compare_to_exact(rules, n, profile, deals, seed):
    sums = solve.simulate_solve(SPEC, rules, profile_matrix(profile), n, "swap", seed, 0, deals, threads=2)
    exact = exact_profile(rules, n, profile)
    worst = 0.0
    for s in range(n):
        for c in range(N_CELLS):
            visits = sums[s, c, 0]
            p = exact["reach"][s][c]
            se = math.sqrt(max(p * (1 - p), 1e-12) / deals)
            worst = max(worst, abs(visits / deals - p) / se)
            for a in range(2):
                mean = exact["sums"][s][c][a]  # E[visit * lose_a]: lose is 0/1, so its square too
                se = math.sqrt(max(mean * (1 - mean), 1e-12) / deals)
                worst = max(worst, abs(sums[s, c, 1 + 2 * a] / deals - mean) / se)
    return worst


def test_solve_kernel_cell_means_match_exact_at_three(implementation):
    if implementation == "twin":
        pytest.skip("the kernel only")
    rules = ca.Rules()
    default = profile_of_policy(rules, rows(3), 3)
    assert _compare_to_exact(rules, 3, default, 200_000, 5) < 5.0
    rng = np.random.default_rng(4)
    mixed = rng.choice([0.0, 1.0, 0.5], (3, N_CELLS))
    assert _compare_to_exact(rules, 3, mixed, 200_000, 6) < 5.0


@pytest.mark.slow
def test_solve_kernel_cell_means_match_exact_at_four(implementation):
    if implementation == "twin":
        pytest.skip("the kernel only")
    rules = ca.Rules()
    assert _compare_to_exact(rules, 4, profile_of_policy(rules, rows(4), 4), 200_000, 8) < 5.0
    rules = ca.Rules(tie=ca.TIE_CANCEL_MATCHES, king_reveal=ca.REVEAL_AT_DEAL)
    rng = np.random.default_rng(9)
    assert _compare_to_exact(rules, 4, rng.choice([0.0, 1.0, 0.25], (4, N_CELLS)), 200_000, 9) < 5.0


# a table profile that is a pure table everywhere reproduces its policy in the kernel
def test_a_full_table_profile_plays_as_its_policy(implementation):
    if implementation == "twin":
        pytest.skip("the kernel only")
    rules = ca.Rules()
    policy = rows(4, 6, 0.0, 0)  # not informed: one table serves every role
    profile = profile_of_policy(rules, policy, 4)
    assert np.array_equal(
        simulate(SPEC, rules, profile_matrix(profile, (6, 0, 0)), 4, Mode.HANDS, 1, 0, 5000),
        simulate(SPEC, rules, policy, 4, Mode.HANDS, 1, 0, 5000),
    )
    assert pure(SWAP_DECISION, [0] * N_CELLS)[cell("9")].tolist() == [1.0, 0.0]
