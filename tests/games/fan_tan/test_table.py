"""Fan Tan's strategy table "play" (sims/games/fan_tan/table.py; the package docstring's
Strategy tables): the cells as classified by hand, a table's action overriding the policy,
a left-out cell falling back to it, a mixed cell drawing, the pass action, on the kernel
and on the twin (stacked decks); the policy written as a table; the solve on the twin.

Stacked deals: 4 seats, dealer seat 3, so seat 0 (the eldest) has the first turn, and
only sevens are legal then.  Seat 0's first turn is the cell may_pass=no legal=2
sevens=all cards=8+ fewest_other=6+ when it holds 7c and 7d (13 cards, every other seat
13).  With 6d and 8d but neither 6c nor 8c in its hand, the styles choose (package
docstring): first 7c (lowest code); greedy-unlock 7d (it unlocks 6d and 8d of its own
hand, 7c none).
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import sims.games.fan_tan.twin as twin
from sims import advice, situations, solve
from sims.core.cards import parse_cards
from sims.core.rng import Stream
from sims.core.table import left_out, pure, with_tables
from sims.engine import simulate
from sims.games.fan_tan import (
    ACTION_PASS,
    N_PLAY_CELLS,
    PLAY_ACTIONS,
    PLAY_CELLS,
    POLICY_FIELDS,
    SPEC,
    STYLE_BLOCK,
    STYLE_FIRST,
    STYLE_GREEDY_UNLOCK,
    STYLE_HOLD_SEVENS,
    STYLE_RANDOM,
    Rules,
    stacked,
)
from sims.games.fan_tan.kernel import BIT_OF_CODE, new_table_nb, play_cell_nb
from sims.games.fan_tan.table import PLAY, policy_table
from sims.spec import Mode
from tests.games.advice_twin import twin_advice

IMPLEMENTATIONS = {"kernel": stacked.play_dealt, "twin": twin.play_dealt}
play_dealt = twin.play_dealt  # rebound per test by the `implementation` fixture (conftest.py)

R = Rules()
MAY_PASS = R._replace(may_pass_when_able=True)
N_FIELDS = len(POLICY_FIELDS)
FIRST, RANDOM, HOLD_SEVENS, BLOCK, GREEDY, PASS = range(len(PLAY_ACTIONS))


def cell(*classes) -> int:
    return PLAY_CELLS.index(tuple(classes))


OPENING = cell("no", "2", "all", "8+", "6+")  # seat 0's first turn holding 7c and 7d
ONE_SEVEN = cell("yes", "1", "all", "8+", "6+")  # its first turn holding one seven, a pass allowed
SEAT0 = "7c 7d 6d 8d 9d 2s 3s 4s 5s 6s Ks Qs Js"


def deal(seat0: str, n: int = 4) -> list[int]:
    """The pack (draw order, dealer n-1) giving seat 0 ``seat0`` and the other seats the
    rest of the cards in code order, 13 each."""
    mine = parse_cards(seat0)
    rest = [c for c in range(52) if c not in mine]
    hands = [mine] + [rest[13 * k : 13 * k + 13] for k in range(n - 1)]
    return [hands[k % n][k // n] for k in range(52)]


def policy(style=STYLE_FIRST, pass_with_sevens=0, n=4) -> np.ndarray:
    return np.array([[style, pass_with_sevens]] * n, dtype=np.float64)


def seat0_table(fields: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
    return with_tables(fields, N_FIELDS, (PLAY,), {0: {"play": probabilities}})


def everywhere(action: int, **cells) -> np.ndarray:
    """A table playing ``action`` in every cell, and cells[name] = action in the cells named."""
    actions = [action] * N_PLAY_CELLS
    for code, chosen in cells.items():
        actions[{"opening": OPENING, "one_seven": ONE_SEVEN}[code]] = chosen
    return pure(PLAY, actions)


def first_turn(rules, fields, seat0=SEAT0, **tables):
    res = play_dealt(rules, seat0_table(fields, tables["table"]) if tables else fields, 4, deal(seat0))
    return res["plays"][0], res


# ----------------------------------------------------------------------------------------
# The cells


@pytest.mark.parametrize(
    "hands, seat, playable, can_pass, expected",
    [
        ([SEAT0, 13, 13, 13], 0, "7c 7d", False, ("no", "2", "all", "8+", "6+")),
        (["5c 7h Kd", 9, 4, 12], 0, "5c 7h", True, ("yes", "2", "some", "1-3", "3-5")),
        (["5c 9d 8h 4s Js 2c 3c Qh", 9, 2, 12], 0, "5c 9d 8h 4s Js", False, ("no", "4+", "none", "8+", "1-2")),
        ([8, "7s 3d 4d 5d", 6, 7], 1, "7s", True, ("yes", "1", "all", "4-7", "6+")),
        ([8, "9h 3d 4d", 3, 7], 1, "9h 3d 4d", False, ("no", "3", "none", "1-3", "3-5")),
    ],
)
def test_cells_classify_the_turn_as_derived_by_hand(hands, seat, playable, can_pass, expected):
    """The five classes (package docstring): may_pass, legal cards, sevens among them,
    cards in hand (1-3, 4-7, 8+), the fewest cards of another seat (1-2, 3-5, 6+); the twin
    and the kernel agree.  A number stands for a hand of that many cards (not the seat's)."""
    spare = iter(c for c in range(52) if all(c not in parse_cards(h) for h in hands if isinstance(h, str)))
    held = [parse_cards(h) if isinstance(h, str) else [next(spare) for _ in range(h)] for h in hands]
    legal = parse_cards(playable)
    got = twin.play_cell(4, seat, [set(h) for h in held], legal, can_pass)
    assert PLAY_CELLS[got] == expected
    assert kernel_cell(held, seat, legal, can_pass) == got


def test_one_legal_card_without_a_pass_is_no_decision():
    held = [parse_cards(SEAT0)] + [[] for _ in range(3)]
    assert twin.play_cell(4, 0, [set(h) for h in held], parse_cards("7c"), False) is None
    assert kernel_cell(held, 0, parse_cards("7c"), False) == -1


@njit(cache=False)
def _cell_nb(tables, n, seat, hand, playable, can_pass):
    return play_cell_nb(tables[0], n, seat, hand, playable, can_pass)


def bits(cards) -> np.uint64:
    mask = 0
    for c in cards:
        mask |= 1 << int(BIT_OF_CODE[c])
    return np.uint64(mask)


def kernel_cell(held, seat, legal, can_pass) -> int:
    tables = new_table_nb(np.asarray(SPEC.rules_array(R)), policy(), 4)
    for s, cards in enumerate(held):
        tables[0]["hands"][s] = bits(cards)
    return int(_cell_nb(tables, 4, seat, bits(held[seat]), bits(legal), can_pass))


def test_kernel_and_twin_classify_random_turns_alike():
    rng = np.random.default_rng(5)
    for _ in range(300):
        n = int(rng.integers(2, 9))
        pack = rng.permutation(52)
        held = [list(pack[s::n][: int(rng.integers(1, 52 // n + 1))]) for s in range(n)]
        seat = int(rng.integers(n))
        legal = [c for c in held[seat] if rng.random() < 0.4] or held[seat][:1]
        can_pass = bool(rng.integers(2))
        expected = twin.play_cell(n, seat, [set(h) for h in held], legal, can_pass)
        tables = new_table_nb(np.asarray(SPEC.rules_array(R)), policy(n=n), n)
        for s, cards in enumerate(held):
            tables[0]["hands"][s] = bits(cards)
        got = int(_cell_nb(tables, n, seat, bits(held[seat]), bits(legal), can_pass))
        assert got == (-1 if expected is None else expected)


def test_declaration_counts_and_legal_actions():
    assert PLAY.n_cells == 162 and PLAY.actions == PLAY_ACTIONS and PLAY_ACTIONS[ACTION_PASS] == "pass"
    assert PLAY.legal_actions(OPENING) == (FIRST, RANDOM, HOLD_SEVENS, BLOCK, GREEDY)
    assert PLAY.legal_actions(ONE_SEVEN) == (FIRST, RANDOM, HOLD_SEVENS, BLOCK, GREEDY, PASS)
    # a pass allowed: 4 x 3 x 3 x 3, less one legal card of "some" sevens (9), less 4+ legal cards in 1-3 (9)
    assert sum(PASS in PLAY.legal_actions(c) for c in range(PLAY.n_cells)) == 90


def test_policy_as_a_table_passes_only_where_pass_with_sevens_does():
    table = policy_table(R, [STYLE_BLOCK, 1], 0, 4, "play")
    passes = [c for c in range(N_PLAY_CELLS) if table[c, PASS] == 1.0]
    assert len(passes) == 33  # may_pass=yes, sevens=all: legal 1, 2, 3 by 9 classes of hand sizes, 4+ by 6
    assert all(PLAY_CELLS[c][0] == "yes" and PLAY_CELLS[c][2] == "all" for c in passes)
    assert all(table[c, BLOCK] == 1.0 for c in range(N_PLAY_CELLS) if c not in passes)
    assert (policy_table(R, [STYLE_RANDOM, 0], 0, 4, "play")[:, RANDOM] == 1.0).all()


# ----------------------------------------------------------------------------------------
# Stacked decks: kernel and twin


@pytest.mark.usefixtures("implementation")
def test_a_cells_action_overrides_the_policy():
    assert first_turn(R, policy())[0] == (0, parse_cards("7c")[0])
    assert first_turn(R, policy(), table=everywhere(FIRST, opening=GREEDY))[0] == (0, parse_cards("7d")[0])
    assert first_turn(R, policy(STYLE_GREEDY_UNLOCK), table=everywhere(GREEDY, opening=FIRST))[0] == (
        0,
        parse_cards("7c")[0],
    )


@pytest.mark.usefixtures("implementation")
def test_a_left_out_cell_falls_back_to_the_policy():
    table = everywhere(FIRST)
    table[OPENING] = -1.0  # left out: the policy (greedy-unlock) plays 7d
    assert first_turn(R, policy(STYLE_GREEDY_UNLOCK), table=table)[0] == (0, parse_cards("7d")[0])
    assert first_turn(R, policy(STYLE_GREEDY_UNLOCK), table=left_out(PLAY))[0] == (0, parse_cards("7d")[0])


@pytest.mark.usefixtures("implementation")
@pytest.mark.parametrize("shift, card", [(0.01, "7c"), (-0.01, "7d")])
def test_a_mixed_cell_draws_one_uniform_from_the_hands_stream(shift, card):
    """play_dealt's stream is Stream(0, 0): its first uniform u picks first when u < p."""
    u = Stream(0, 0).uniform()
    assert 0.02 < u < 0.98
    table = everywhere(FIRST)
    table[OPENING] = 0.0
    table[OPENING, FIRST] = u + shift
    table[OPENING, GREEDY] = 1.0 - (u + shift)
    assert first_turn(R, policy(), table=table)[0] == (0, parse_cards(card)[0])


@pytest.mark.usefixtures("implementation")
def test_the_pass_action_holds_a_lone_seven_back():
    """Seat 0 holds one seven (7c) and may pass (may_pass_when_able, turn 0): its table
    passes there, at Hoyle's penalties (3 chips, 5 to each holder of 6c and 8c: seats 1)."""
    seat0 = "7c 2d 3d 4d 5d 2s 3s 4s 5s 6s Ks Qs Js"
    (seat, played), res = first_turn(MAY_PASS, policy(), seat0=seat0, table=everywhere(FIRST, one_seven=PASS))
    assert (seat, played) == (0, -1) and res["voluntary"][:1] == [0]
    (seat, played), res = first_turn(MAY_PASS, policy(), seat0=seat0)
    assert (seat, played) == (0, parse_cards("7c")[0])


# ----------------------------------------------------------------------------------------
# Tables in the engine


def test_a_table_equal_to_the_policy_leaves_the_fields_to_decide():
    rules = np.asarray(SPEC.rules_array(R))
    fields = policy(STYLE_HOLD_SEVENS, 1)
    same = policy_table(R, fields[0], 0, 4, "play")
    assert new_table_nb(rules, seat0_table(fields, same), 4)[0]["tabled"][0] == 0
    assert new_table_nb(rules, seat0_table(fields, left_out(PLAY)), 4)[0]["tabled"][0] == 0
    other = same.copy()
    other[ONE_SEVEN] = pure(PLAY, [GREEDY] * N_PLAY_CELLS)[ONE_SEVEN]
    assert new_table_nb(rules, seat0_table(fields, other), 4)[0]["tabled"][0] == 1


@pytest.mark.parametrize("preset", sorted(SPEC.policies))
def test_every_preset_played_through_the_lookup_gives_the_same_sums(preset):
    """Each preset as a table, changed in one cell the standard rules never reach (a pass
    allowed), so the kernel looks every decision up instead of leaving it to the fields."""
    n = 4
    fields = SPEC.default_policy(n, preset)
    tables = {}
    for seat in range(n):
        table = policy_table(R, fields[seat], seat, n, "play")
        table[ONE_SEVEN] = 0.0
        table[ONE_SEVEN, PASS if fields[seat][0] != STYLE_RANDOM else FIRST] = 1.0
        tables[seat] = {"play": table}
    widened = with_tables(fields, N_FIELDS, (PLAY,), tables)
    assert new_table_nb(np.asarray(SPEC.rules_array(R)), widened, n)[0]["tabled"][:n].all()
    reference = simulate(SPEC, R, fields, n, Mode.HANDS, 21, 0, 4000)
    assert np.array_equal(simulate(SPEC, R, widened, n, Mode.HANDS, 21, 0, 4000), reference)
    assert np.array_equal(
        twin.simulate(R, widened, n, Mode.HANDS, 21, 0, 150), twin.simulate(R, fields, n, Mode.HANDS, 21, 0, 150)
    )


def test_pass_with_sevens_as_a_table_under_deliberate_passes():
    """The twin looks every decision up (it never leaves a table to the fields): the
    policy as a table plays its hands; and a table passing where the policy would not
    plays the same on the kernel as on the twin."""
    n = 4
    fields = policy(STYLE_HOLD_SEVENS, 1)
    tables = {s: {"play": policy_table(MAY_PASS, fields[s], s, n, "play")} for s in range(n)}
    widened = with_tables(fields, N_FIELDS, (PLAY,), tables)
    assert np.array_equal(
        twin.simulate(MAY_PASS, widened, n, Mode.HANDS, 2, 0, 150),
        twin.simulate(MAY_PASS, fields, n, Mode.HANDS, 2, 0, 150),
    )
    tables[0]["play"][cell("yes", "2", "none", "4-7", "6+")] = pure(PLAY, [PASS] * N_PLAY_CELLS)[0]
    widened = with_tables(fields, N_FIELDS, (PLAY,), tables)
    kernel_sums = simulate(SPEC, MAY_PASS, widened, n, Mode.HANDS, 2, 0, 300)
    assert np.array_equal(kernel_sums, twin.simulate(MAY_PASS, widened, n, Mode.HANDS, 2, 0, 300))
    assert not np.array_equal(kernel_sums, simulate(SPEC, MAY_PASS, fields, n, Mode.HANDS, 2, 0, 300))


def test_solve_under_deliberate_passes_equals_the_twin():
    """The pass action tried at every visit where a pass is allowed, on a mixed profile."""
    n = 3
    fields = policy(STYLE_RANDOM, 1, n=n)
    even = np.zeros((N_PLAY_CELLS, len(PLAY_ACTIONS)))
    for c in range(N_PLAY_CELLS):
        even[c, list(PLAY.legal_actions(c))] = 1.0 / len(PLAY.legal_actions(c))
    widened = with_tables(fields, N_FIELDS, (PLAY,), {1: {"play": even}})
    sums = solve.simulate_solve(SPEC, MAY_PASS, widened, n, "play", 5, 0, 6)
    assert np.array_equal(sums, solve.twin_solve(SPEC, MAY_PASS, widened, n, "play", 5, 0, 6))
    pass_visits = sums[:, [c for c in range(N_PLAY_CELLS) if PASS in PLAY.legal_actions(c)], 0].sum()
    assert pass_visits > 0


def test_a_sweep_from_the_default_prefers_unlocking_own_cards_to_the_first_card():
    """Solve sanity (a sweep by hand from the default profile, every seat playing its first
    legal card): in a common middle-game cell (3 legal cards, no seven, 4-7 cards in hand,
    the shortest other hand 3-5) greedy-unlock, which opens the way to the seat's own
    cards, beats the first card in code order by a clear margin (paired over the same
    visits, all seats pooled), as a careful player expects.  (Over 200,000 deals the
    margin is about 0.19 chips per visit; a full sweep from the default moves about 95 of
    the 162 cells per seat, most of them to greedy-unlock, some to block.)"""
    n = 4
    fields = SPEC.default_policy(n)
    widened = with_tables(
        fields, N_FIELDS, (PLAY,), {s: {"play": policy_table(R, fields[s], s, n, "play")} for s in range(n)}
    )
    sums = solve.simulate_solve(SPEC, R, widened, n, "play", 100, 0, 40_000, threads=2)
    c = cell("no", "3", "none", "4-7", "3-5")
    a_count = len(PLAY_ACTIONS)
    visits = sums[:, c, 0].sum()
    greedy, first = sums[:, c, 1 + 2 * GREEDY].sum(), sums[:, c, 1 + 2 * FIRST].sum()
    cross = sums[:, c, 1 + 2 * a_count + GREEDY * a_count + FIRST].sum()
    squares = sums[:, c, 2 + 2 * GREEDY].sum() + sums[:, c, 2 + 2 * FIRST].sum() - 2 * cross
    margin = (greedy - first) / visits
    se = np.sqrt((squares / visits - margin**2) / visits)
    assert visits > 20_000
    assert margin > 3 * se and margin > 0.05, (margin, se)


def random_tables(n, seed):
    """Every seat a table of random pure and mixed cells (a third mixed, a sixth left out)."""
    rng = np.random.default_rng(seed)
    tables = {}
    for seat in range(n):
        table = left_out(PLAY)
        for c in range(N_PLAY_CELLS):
            legal = list(PLAY.legal_actions(c))
            draw = rng.random()
            if draw < 1 / 3:
                table[c] = 0.0
                table[c, legal] = rng.dirichlet(np.ones(len(legal)))
            elif draw < 5 / 6:
                table[c] = 0.0
                table[c, int(rng.choice(legal))] = 1.0
        tables[seat] = {"play": table}
    return tables


def test_game_mode_plays_the_tables_as_the_twin_does():
    n = 4
    widened = with_tables(policy(STYLE_RANDOM, 1), N_FIELDS, (PLAY,), random_tables(n, 8))
    sums = simulate(SPEC, MAY_PASS, widened, n, Mode.GAMES, 6, 0, 40)
    assert np.array_equal(sums, twin.simulate(MAY_PASS, widened, n, Mode.GAMES, 6, 0, 40))
    assert not np.array_equal(sums, simulate(SPEC, MAY_PASS, policy(STYLE_RANDOM, 1), n, Mode.GAMES, 6, 0, 40))


def test_advice_field_seats_play_their_tables_as_the_twin_does():
    """The other seats play their tables (mixed cells drawing) in advice's deals; the
    advised seat's candidate still decides its own turn."""
    n = 4
    found = situations.situation(
        SPEC, MAY_PASS, n, 2, parse_cards("7d 7h 8c 9c 2d 5h 6h Jh Qs 3s 4c Kd 10s"), {"plays": "7c pass"}
    )
    widened = with_tables(policy(STYLE_BLOCK), N_FIELDS, (PLAY,), random_tables(n, 9))
    kernel_sums = advice.simulate_advice(SPEC, MAY_PASS, widened, n, found, 7, 0, 300)
    assert kernel_sums == twin_advice(SPEC, MAY_PASS, widened, n, found, 7, 0, 300)
    assert kernel_sums != advice.simulate_advice(SPEC, MAY_PASS, policy(STYLE_BLOCK), n, found, 7, 0, 300)
