"""Fan Tan: the table rules, policy fields, presets and outcome columns.

What each value means is the rules contract in the package docstring
(sims/games/fan_tan/__init__.py).
"""

from __future__ import annotations

from typing import Annotated, NamedTuple

import numpy as np

from sims.spec import Outcomes, PolicyField, PolicyPreset, Switch, Variant, indices

UNEVEN_NONE, FEWER_CARDS_PAY_EXTRA, MORE_CARDS_PAY_EXTRA = range(3)
START_ELDEST, START_HOLDER_7D, START_HOLDER_7H = range(3)
SETTLE_POT_PLUS_CARDS, SETTLE_POT_ONLY, SETTLE_CARD_COUNT = range(3)
STYLE_FIRST, STYLE_RANDOM, STYLE_HOLD_SEVENS, STYLE_BLOCK, STYLE_GREEDY_UNLOCK = range(5)
MIN_PLAYERS, MAX_PLAYERS = 2, 8
SEED_MIN_PLAYERS = 3  # the rules' range is 3 to 8; 2 players are allowed with a warning
HOYLE_PASS_PENALTY = 3  # chips a voluntary pass pays into the pot
HOYLE_HOLDER_PENALTY = 5  # chips paid to each holder of the 6 and 8 of a held-back 7's suit


class Rules(NamedTuple):
    """Table rules of Fan Tan (see the package docstring for what each value does)."""

    ante: Annotated[int, Switch("chips each player antes into the pot", lo=0, hi=20, stake=True)] = 2
    uneven_ante: Annotated[
        int,
        Switch(
            "when hands are uneven: no change, each player dealt fewer cards antes one more chip, or each "
            "player dealt more cards does",
            choices=("none", "fewer-cards-pay-extra", "more-cards-pay-extra"),
            stake=True,
        ),
    ] = UNEVEN_NONE
    start: Annotated[
        int,
        Switch(
            "who plays first: the eldest hand, or whoever holds the 7 of diamonds (or of hearts), playing it",
            choices=("eldest", "holder-7d", "holder-7h"),
        ),
    ] = START_ELDEST
    settle: Annotated[
        int,
        Switch(
            "at the end: losers pay card_fee per card left into the pot and the winner takes it, the winner "
            "takes the pot only, or no chips at all and each loser scores its cards left",
            choices=("pot-plus-cards", "pot-only", "card-count-score"),
            stake=True,
        ),
    ] = SETTLE_POT_PLUS_CARDS
    may_pass_when_able: Annotated[
        bool,
        Switch(
            "a player able to play may pass, paying Hoyle's penalties (3 chips, and 5 to each holder of the "
            "6 and 8 of a seven held back)"
        ),
    ] = False
    eight_before_six: Annotated[
        bool, Switch("the 8 of a suit must be on the table before its 6 (and anything lower)")
    ] = False
    pass_fee: Annotated[int, Switch("chips a player who cannot play pays into the pot", lo=0, hi=20, stake=True)] = 1
    card_fee: Annotated[
        int, Switch("with pot-plus-cards: chips each loser pays per card left in hand", lo=0, hi=20, stake=True)
    ] = 1


POLICY_FIELDS = (
    PolicyField(
        "style",
        STYLE_FIRST,
        0,
        4,
        "which legal card to play: the first by a fixed order, a random one, sevens last, "
        "block next to sevens, or the one unlocking most of your own cards",
        integer=True,
        choices=("first", "random", "hold-sevens", "block", "greedy-unlock"),
    ),
    PolicyField(
        "pass_with_sevens",
        0,
        0,
        1,
        "with may_pass_when_able: 1 passes instead of playing when every legal card in hand is a seven",
        integer=True,
    ),
)
STYLE, PASS_WITH_SEVENS = indices(POLICY_FIELDS, "style", "pass_with_sevens")  # the policy's columns

VARIANTS = {
    "standard": Variant(
        {},
        "the seed's rules with the Hoyle ending: ante 2, the eldest starts, losers pay a chip "
        "per card left and the winner takes the pot",
    ),
    "hoyle": Variant(
        {"ante": 1, "uneven_ante": FEWER_CARDS_PAY_EXTRA},
        "Hoyle/Bicycle: ante 1, and players dealt fewer cards ante one more",
    ),
    "sevens-7d": Variant(
        {"start": START_HOLDER_7D, "settle": SETTLE_CARD_COUNT},
        "UK Sevens/Parliament: the 7 of diamonds starts, score cards left, no chips",
    ),
    "badam-saat": Variant(
        {"start": START_HOLDER_7H, "settle": SETTLE_CARD_COUNT},
        "Indian Badam Saat: the 7 of hearts starts, score cards left",
    ),
    "pot-only": Variant({"settle": SETTLE_POT_ONLY}, "the winner takes the pot and nothing more"),
    "eight-before-six": Variant({"eight_before_six": 1}, "a suit's 8 must be down before its 6"),
    "deliberate-pass": Variant({"may_pass_when_able": 1}, "players may pass when able, at Hoyle's penalties"),
}

POLICIES = {
    "default": PolicyPreset({}, "every seat plays its first legal card (clubs A..K, then diamonds, hearts, spades)"),
    "random": PolicyPreset({"style": STYLE_RANDOM}, "every seat plays a random legal card"),
    "hold-sevens": PolicyPreset({"style": STYLE_HOLD_SEVENS}, "every seat plays sevens only when forced"),
    "block": PolicyPreset({"style": STYLE_BLOCK}, "every seat holds back sixes and eights"),
    "greedy-unlock": PolicyPreset(
        {"style": STYLE_GREEDY_UNLOCK}, "every seat unlocks as many of its own cards as it can"
    ),
    "blocker-vs-first": PolicyPreset(
        {}, "seat 0 blocks, the others play their first legal card", seats={0: {"style": STYLE_BLOCK}}
    ),
}

HAND_OUTCOMES = Outcomes(
    seat=("win", "net", "net_sq", "passes", "passes_sq", "paid", "paid_sq", "cards_left", "cards_left_sq"),
    lower_is_better=("passes", "paid", "cards_left"),
    signed=("net",),
    table=("turns", "turns_sq", "pot", "pot_sq"),
    help={
        "win": "probability of going out first",
        "net": "expected chips won per deal",
        "passes": "passes per deal",
        "paid": "chips paid per deal (antes, fees, cards, penalties)",
        "cards_left": "cards left in hand when someone goes out",
        "turns": "turns per deal (passes included)",
        "pot": "chips the winner takes",
    },
    conserved={"net": None},
)
# Game length: a rotation's turns per deal (its turns over its n deals), in buckets that
# spread the games of every table size (4 players: mean 55, sd 2.5; 8 players: mean 51).
# A rotation is in bucket b when turns >= LENGTH_BUCKET_LOW[b] * n and below the next
# bucket's; the labels say [low, high) in turns per deal.
LENGTH_BUCKET_LOW = (0, 50, 52, 54, 56, 58, 60)
LENGTH_LABELS = ("under_50", "50_52", "52_54", "54_56", "56_58", "58_60", "60_up")

GAME_OUTCOMES = Outcomes(
    seat=("net", "net_sq", "wins", "wins_sq", "cards_left", "cards_left_sq", "best_score"),
    lower_is_better=("cards_left",),
    signed=("net",),
    table=("turns", "turns_sq") + tuple(f"length_{label}" for label in LENGTH_LABELS),
    help={
        "net": "expected chips won per rotation of deals",
        "wins": "deals won per rotation",
        "cards_left": "cards left summed over the rotation (the card-count score)",
        "best_score": "probability of the lowest card-count score (ties count for each)",
        "turns": "turns per rotation",
    },
    groups={
        "length": ("game length in turns per deal (a rotation's turns over its n deals), [low, high)", LENGTH_LABELS)
    },
    distributions=("length",),
    conserved={"net": None},
    # A rotation's net can pass 2**16 chips at the largest stakes (8 deals of up to 34,748 chips:
    # sims.games.fan_tan.advice.largest_outcome), so its square is summed in two 32-bit limbs: a
    # block of 2**31 rotations (sims.engine.MAX_BLOCK) cannot overflow.
    limbs={"net_sq": 2},
)


def hand_sizes(n_seats: int) -> list[int]:
    """Cards dealt to the seats clockwise from the dealer's left: the first 52 % n get one more."""
    return [52 // n_seats + (1 if k < 52 % n_seats else 0) for k in range(n_seats)]


def check(rules: Rules, policy: np.ndarray, n_seats: int) -> None:
    """Raise ``ValueError`` with a sentence when the table cannot be played: nothing
    beyond the player range, which ``SPEC.check`` checks first (every rule plays at any
    table size in it)."""


def warning(rules: Rules, n_seats: int) -> str | None:
    """A sentence the output shows for a table outside the rules' own range."""
    if n_seats < SEED_MIN_PLAYERS:
        return "the rules are for 3 to 8 players; with 2 each holds 26 cards and the results are for curiosity only."
    return None


# ----------------------------------------------------------------------------------------
# The table decision "play" (sims/games/fan_tan/table.py; the package docstring's
# "Strategy tables" says what a cell holds and why it is enough).  Plain values here, so
# that the kernels, the twin and the declaration share them without importing each other.

PLAY_ACTIONS = ("first", "random", "hold-sevens", "block", "greedy-unlock", "pass")
ACTION_PASS = len(PLAY_ACTIONS) - 1  # the actions before it are the styles, by their codes
assert PLAY_ACTIONS[:ACTION_PASS] == POLICY_FIELDS[STYLE].choices
# A cell's fields and each field's classes, in the order of the raw index below.
PLAY_CELL_FIELDS = ("may_pass", "legal", "sevens", "cards", "fewest_other")
PLAY_CELL_CLASSES = (
    ("no", "yes"),  # a voluntary pass is allowed now (may_pass_when_able, and not after n-1 passes in a row)
    ("1", "2", "3", "4+"),  # legal cards in the hand
    ("none", "some", "all"),  # how many of them are sevens
    ("1-3", "4-7", "8+"),  # cards in the seat's hand
    ("1-2", "3-5", "6+"),  # the fewest cards any other seat holds
)
CARDS_UPPER = (3, 7)  # "cards": 1-3, 4-7, 8+ (the upper ends of the first classes)
FEWEST_UPPER = (2, 5)  # "fewest_other": 1-2, 3-5, 6+


def _play_cells() -> tuple[tuple[str, ...], np.ndarray]:
    """Every cell (its classes, by name) in raw-index order, less the impossible ones: a
    single legal card is a decision only when a pass is allowed, one legal card is no
    seven or all sevens, and 4 legal cards or more are not in a hand of 1-3 cards.
    Returns the cells and the raw index -> cell map (-1: no cell)."""
    import itertools

    cells, raw_to_cell = [], []
    for combo in itertools.product(*(range(len(classes)) for classes in PLAY_CELL_CLASSES)):
        may_pass, legal, sevens, cards = combo[0], combo[1], combo[2], combo[3]
        if (legal == 0 and (may_pass == 0 or sevens == 1)) or (legal == 3 and cards == 0):
            raw_to_cell.append(-1)
            continue
        raw_to_cell.append(len(cells))
        cells.append(tuple(classes[i] for classes, i in zip(PLAY_CELL_CLASSES, combo)))
    return tuple(cells), np.asarray(raw_to_cell, dtype=np.int64)


PLAY_CELLS, PLAY_RAW_TO_CELL = _play_cells()
N_PLAY_CELLS, N_PLAY_ACTIONS = len(PLAY_CELLS), len(PLAY_ACTIONS)
PLAY_BLOCK = 1 + N_PLAY_CELLS * N_PLAY_ACTIONS  # the decision's block in a policy row (flag, then cells x actions)
# Per cell: whether a pass is allowed there, and whether every legal card is a seven.
PLAY_CELL_MAY_PASS = np.asarray([cell[0] == "yes" for cell in PLAY_CELLS], dtype=np.bool_)
PLAY_CELL_ALL_SEVENS = np.asarray([cell[2] == "all" for cell in PLAY_CELLS], dtype=np.bool_)


def policy_play_action(style: int, pass_with_sevens: int, cell: int) -> int:
    """The action a seat of policy (style, pass_with_sevens) takes in play cell ``cell``:
    a pass where a pass is allowed and every legal card is a seven (pass_with_sevens),
    else its style."""
    if pass_with_sevens and PLAY_CELL_MAY_PASS[cell] and PLAY_CELL_ALL_SEVENS[cell]:
        return ACTION_PASS
    return int(style)
