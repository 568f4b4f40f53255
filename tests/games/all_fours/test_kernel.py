"""The All-Fours kernel against its plain-Python twin (sums and single stacked deals), the
rules file's reference values against exact probabilities, determinism, and game-mode facts."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from sims.engine import simulate
from sims.games import all_fours as af
from sims.games.all_fours import stacked, twin
from sims.registry import GAMES
from sims.spec import Mode

SPEC = GAMES["all-fours"]
FIELDS = [f.key for f in SPEC.policy_fields]
SEAT = {name: i for i, name in enumerate(af.HAND_OUTCOMES.seat)}
TABLE = {name: i for i, name in enumerate(af.HAND_OUTCOMES.table)}
GAME_SEAT = {name: i for i, name in enumerate(af.GAME_OUTCOMES.seat)}
GAME_TABLE = {name: i for i, name in enumerate(af.GAME_OUTCOMES.table)}
ELDER, DEALER = 0, 1


def policy(preset="default", **fields):
    matrix = SPEC.default_policy(2, preset)
    for key, value in fields.items():
        matrix[:, FIELDS.index(key)] = value
    return matrix


def random_table(rng):
    """Random rules (every switch) and a random policy row per seat."""
    rules = af.Rules(
        target=int(rng.integers(7, 16)),
        gift_then=int(rng.integers(0, 2)),
        gift_redeal_same_dealer=bool(rng.integers(0, 2)),
        gift_cannot_win=bool(rng.integers(0, 2)),
        after_run=int(rng.integers(0, 3)),
        low_to=int(rng.integers(0, 2)),
        game_tie=int(rng.integers(0, 2)),
        exhaust_keeps_jack_points=bool(rng.integers(0, 2)),
        bunch=bool(rng.integers(0, 2)),
    )
    matrix = np.column_stack(
        [rng.integers(0, 16, 2), rng.integers(0, 16, 2), rng.integers(0, 16, 2), rng.integers(0, 2, 2)]
    ).astype(float)
    return rules, matrix


def assert_within(estimate, se, exact, z=4.5):
    assert abs(estimate - exact) <= z * se, (estimate, exact, se)


def proportion(successes, n):
    p = successes / n
    return p, max((p * (1 - p) / n) ** 0.5, 1e-12)


# ------------------------------------------------------------------ kernel == twin


@pytest.mark.slow
@pytest.mark.parametrize("mode,count", [(Mode.HANDS, 300), (Mode.GAMES, 12)], ids=["hands", "games"])
def test_kernel_matches_plain_python_twin_exactly(mode, count):
    """Random tables (every switch, mixed policies): identical integer sums, so the kernel
    and the twin play every deal the same way."""
    rng = np.random.default_rng(77 + mode)
    for trial in range(20):
        rules, matrix = random_table(rng)
        kernel_sums = simulate(SPEC, rules, matrix, 2, mode, trial, 3, count, threads=2)
        assert np.array_equal(kernel_sums, twin.simulate(rules, matrix, 2, mode, trial, 3, count)), (
            rules,
            matrix.tolist(),
        )


@pytest.mark.slow
def test_single_stacked_deals_agree_field_by_field():
    """Random stacked packs, dealers and scores: every field of the two play_dealt dicts
    is equal (cards, tricks in order, points, winner, next dealer)."""
    rng = np.random.default_rng(5)
    for trial in range(250):
        rules, matrix = random_table(rng)
        dealer = int(rng.integers(0, 2))
        scores = tuple(int(s) for s in rng.integers(0, rules.target, 2))
        cards = [int(c) for c in rng.permutation(52)]
        expected = twin.play_dealt(rules, matrix, cards, dealer=dealer, scores=scores)
        assert stacked.play_dealt(rules, matrix, cards, dealer=dealer, scores=scores) == expected, (trial, rules)


def test_runs_and_voids_agree_on_packs_stacked_for_long_runs():
    """Packs where the rejected suit keeps turning up (four or five rounds, void deals,
    discarding after long runs): the kernel and the twin still agree field by field."""
    rng = np.random.default_rng(11)
    seen_void = seen_discard = seen_rounds = 0
    for trial in range(120):
        rules, matrix = random_table(rng)
        matrix[:, FIELDS.index("beg_below")] = 15
        matrix[:, FIELDS.index("give_at_least")] = 15
        suit = int(rng.integers(0, 4))
        rounds = int(rng.integers(3, 6))
        void = rounds == 5 and rng.integers(0, 2)
        pack = [int(c) for c in rng.permutation(52)]
        same = [c for c in pack if c // 13 == suit]
        # The rejected suit turns up until the last round, which finds a new suit unless void.
        turnups = same[:6] if void else same[:rounds] + [next(c for c in pack if c // 13 != suit)]
        rest = [c for c in pack if c not in turnups]
        cards = rest[:12] + [turnups[0]]
        for r in range(rounds):
            cards += rest[12 + 6 * r : 18 + 6 * r] + [turnups[r + 1]]
        expected = twin.play_dealt(rules, matrix, cards)
        assert stacked.play_dealt(rules, matrix, cards) == expected, (trial, rules)
        seen_void += expected["void"]
        seen_rounds += expected["rounds"] == rounds and expected["ran"]
        seen_discard += bool(expected["discarded"][0])
    assert seen_void > 5 and seen_discard > 5 and seen_rounds > 80


# ------------------------------------------------------------------ reference values


def exact_round_distribution():
    """P(the dealer's run deals k three-card rounds), k = 1..5 (5 includes the void deal),
    and P(void), by exact hypergeometric sums: after the 12 dealt cards and the turn-up,
    each round deals 6 cards and turns one; it ends when the turn-up leaves the suit."""
    suit_in_12 = {x: Fraction(comb(12, x) * comb(39, 12 - x), comb(51, 12)) for x in range(13)}
    states = {12 - x: p for x, p in suit_in_12.items()}  # rejected-suit cards still unseen -> probability
    unseen = 39
    rounds = {}
    for k in range(1, 6):
        ended = Fraction(0)
        next_states: dict[int, Fraction] = {}
        for left, p in states.items():
            for y in range(0, min(6, left) + 1):
                p_deal = Fraction(comb(left, y) * comb(unseen - left, 6 - y), comb(unseen, 6))
                same = Fraction(left - y, unseen - 6)
                ended += p * p_deal * (1 - same)
                if left - y > 0:
                    next_states[left - y - 1] = next_states.get(left - y - 1, 0) + p * p_deal * same
        rounds[k] = ended
        states = next_states
        unseen -= 7
    void = sum(states.values())
    rounds[5] += void
    return rounds, void


def test_exact_round_distribution_matches_the_rules_file():
    rounds, void = exact_round_distribution()
    assert sum(rounds.values()) == 1
    for k, published in ((1, 0.766), (2, 0.183), (3, 0.041), (4, 0.0086), (5, 0.0019)):
        assert abs(float(rounds[k]) - published) < 0.0015, (k, float(rounds[k]))
    assert 2e-4 < float(void) < 4e-4


def test_reference_values_when_the_elder_always_stands():
    """Rules file 4.7: no trump in play C(39,12)/C(51,12); exactly one 12 C(39,11)/C(51,12);
    the jack of trumps dealt 12/51 when it is not the turn-up, so (12/13)(12/51) in all;
    a turned-up jack 1/13 (the dealer's turned_jacks)."""
    n = 300_000
    sums = simulate(SPEC, af.Rules(), policy("never-beg"), 2, Mode.HANDS, 2024, 0, n, threads=2)
    table = sums[2]
    for column, exact in (
        ("no_trump", comb(39, 12) / comb(51, 12)),
        ("one_trump", 12 * comb(39, 11) / comb(51, 12)),
        ("jack_in_play", 12 / 13 * 12 / 51),
    ):
        assert_within(*proportion(int(table[TABLE[column]]), n), exact)
    assert_within(*proportion(int(sums[DEALER, SEAT["turned_jacks"]]), n), 1 / 13)
    assert abs(comb(39, 12) / comb(51, 12) - 0.02463) < 1e-5 and abs(12 * comb(39, 11) / comb(51, 12) - 0.12669) < 1e-5
    assert table[TABLE["played"]] == n and table[TABLE["begged"]] == 0


def test_reference_run_distribution_when_the_dealer_always_runs():
    n = 300_000
    sums = simulate(SPEC, af.Rules(), policy(beg_below=15, give_at_least=15), 2, Mode.HANDS, 7, 0, n, threads=2)
    table = sums[2]
    rounds, void = exact_round_distribution()
    assert table[TABLE["ran"]] == n
    for k in range(1, 6):
        assert table[TABLE[f"runs_{k}_count"]] == n
        assert_within(*proportion(int(table[TABLE[f"runs_{k}"]]), n), float(rounds[k]))
    assert_within(*proportion(int(table[TABLE["void"]]), n), float(void))
    assert table[TABLE["played"]] + table[TABLE["void"]] == n


# ------------------------------------------------------------------ determinism and sums


@pytest.mark.parametrize("mode,count", [(Mode.HANDS, 20_000), (Mode.GAMES, 2_000)], ids=["hands", "games"])
def test_same_sums_for_any_thread_count_and_chunking(mode, count):
    rules = af.Rules(after_run=af.FOSTER_CLUB, bunch=True)
    one = simulate(SPEC, rules, policy(), 2, mode, 9, 100, count, threads=1, n_blocks=1)
    assert np.array_equal(one, simulate(SPEC, rules, policy(), 2, mode, 9, 100, count, threads=2, n_blocks=7))
    halves = simulate(SPEC, rules, policy(), 2, mode, 9, 100, count // 2) + simulate(
        SPEC, rules, policy(), 2, mode, 9, 100 + count // 2, count - count // 2
    )
    assert np.array_equal(one, halves)


def test_hand_mode_sums_obey_the_laws_of_scoring():
    """Per deal: High and Low are scored exactly when a trump is in play, Game in every
    played deal with the elder-scores tie rule, the gift only to the elder and turned
    jacks only to the dealer; points are the sum of their sources."""
    n = 50_000
    sums = simulate(SPEC, af.Rules(), policy(), 2, Mode.HANDS, 3, 0, n)
    table = sums[2]
    played = table[TABLE["played"]]
    with_trump = played - table[TABLE["no_trump"]]
    assert sums[:2, SEAT["high"]].sum() == with_trump == sums[:2, SEAT["low"]].sum()
    assert sums[:2, SEAT["game"]].sum() == played
    assert sums[:2, SEAT["jack"]].sum() == table[TABLE["jack_in_play"]]
    assert sums[DEALER, SEAT["gift"]] == 0 and sums[ELDER, SEAT["turned_jacks"]] == 0
    assert sums[ELDER, SEAT["gift"]] == table[TABLE["gave"]]
    assert table[TABLE["begged"]] == table[TABLE["gave"]] + table[TABLE["ran"]]
    points = sums[:2, [SEAT[c] for c in ("high", "low", "jack", "game", "gift", "turned_jacks")]].sum()
    assert sums[:2, SEAT["points"]].sum() == points
    # 80 counting points in the pack: a played deal shares out those in play.
    assert sums[:2, SEAT["game_points"]].sum() <= 80 * played


def test_game_mode_someone_wins_every_game_at_the_target():
    n = 3_000
    for rules in (af.Rules(), af.Rules(target=7), af.Rules(gift_then=af.GIFT_THEN_REDEAL, target=15)):
        sums = simulate(SPEC, rules, policy(), 2, Mode.GAMES, 1, 0, n, threads=2)
        assert sums[:2, GAME_SEAT["win"]].sum() == n
        # The winner ends on exactly the target, the loser below it.
        assert sums[:2, GAME_SEAT["score"]].sum() < 2 * rules.target * n
        assert sums[:2, GAME_SEAT["score"]].sum() >= rules.target * n
        table = sums[2]
        assert table[GAME_TABLE["deals"]] >= table[GAME_TABLE["played"]] + table[GAME_TABLE["void"]]
    # Seven-up: at most 5 points in a deal, so no game to 7 ends in one deal.
    games = [twin.play_game(af.Rules(target=7), policy(), 2, 4, i) for i in range(40)]
    assert all(table_row[GAME_TABLE["deals"]] >= 2 for _, table_row in games)


def test_begging_more_changes_the_game_and_shows_in_the_counts():
    """The policy reaches the kernel per seat: an elder who never begs begs 0 times, one
    who always begs does so in every deal it is elder of."""
    n = 2_000
    matrix = policy()
    matrix[0, FIELDS.index("beg_below")] = 0
    matrix[1, FIELDS.index("beg_below")] = 15
    sums = simulate(SPEC, af.Rules(), matrix, 2, Mode.GAMES, 5, 0, n)
    assert sums[0, GAME_SEAT["begged"]] == 0
    assert sums[1, GAME_SEAT["begged"]] > 0.4 * sums[2, GAME_TABLE["deals"]]


@pytest.mark.parametrize("implementation", [stacked.play_dealt, twin.play_dealt], ids=["kernel", "twin"])
@pytest.mark.parametrize(
    "change",
    [
        {"rules": af.Rules(target=6)},
        {"rules": af.Rules(after_run=3)},
        {"rules": af.Rules(bunch=2)},
        {"policy": "beg_below=16"},
        {"policy": "play_style=2"},
        {"policy": "give_at_least=2.5"},
        {"dealer": 2},
        {"scores": (11, 0)},
        {"cards": [0, 0]},
        {"cards": [52]},
    ],
    ids=lambda change: str(change),
)
def test_play_dealt_refuses_values_outside_the_contract(implementation, change):
    """A stacked deal with a rule code, policy value, dealer, score or card the contract
    does not allow is refused by both implementations (never played as some default)."""
    matrix = policy()
    if "policy" in change:
        key, value = change["policy"].split("=")
        matrix[1, FIELDS.index(key)] = float(value)
    with pytest.raises(ValueError):
        implementation(
            change.get("rules", af.Rules()),
            matrix,
            change.get("cards", list(range(13))),
            dealer=change.get("dealer", 1),
            scores=change.get("scores", (0, 0)),
        )


def test_conditional_columns_count_over_played_deals():
    """Under the seed-literal rule some deals are thrown in: the played-deal columns are
    counted over played deals, and games count thrown-in deals apart from void ones."""
    n = 20_000
    rules = af.Rules(gift_then=af.GIFT_THEN_REDEAL)
    sums = simulate(SPEC, rules, policy(give_at_least=3), 2, Mode.HANDS, 8, 0, n)
    table = sums[2]
    assert (
        0 < table[TABLE["thrown_in"]] and table[TABLE["played"]] + table[TABLE["thrown_in"]] + table[TABLE["void"]] == n
    )
    for name in af.PLAYED_HAND_COLUMNS:
        assert table[TABLE[name + "_count"]] == table[TABLE["played"]]
    # Every deal of a game is played, void, thrown in, bunched, or ends the game before play.
    games = simulate(
        SPEC,
        af.Rules(gift_then=af.GIFT_THEN_REDEAL, bunch=True),
        policy(give_at_least=3, bunch_below=4),
        2,
        Mode.GAMES,
        8,
        0,
        2_000,
    )[2]
    parts = [games[GAME_TABLE[name]] for name in ("played", "void", "thrown_in", "bunched", "before_play")]
    assert games[GAME_TABLE["deals"]] == sum(parts) and all(part > 0 for part in parts)
