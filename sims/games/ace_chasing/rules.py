"""Ace Chasing: rules, policy fields, variants, policies, outcomes and ``check`` (the contract is the
package docstring, sims/games/ace_chasing/__init__.py)."""

from __future__ import annotations

from typing import Annotated, NamedTuple

import numpy as np

from sims.core.cards import FACES
from sims.core.deck import ACE, KING
from sims.spec import Outcomes, PolicyField, PolicyPreset, Switch, Variant, indices

NEXT_RIGHT, NEXT_LEFT = range(2)
BET_AGAINST_MATADOR, BET_BETTOR_CHOOSES = range(2)
ACE_RANK, KING_RANK = ACE, KING  # rank is the face here (A low, K high)


class Rules(NamedTuple):
    """Table rules of Ace Chasing (see the module docstring for what each value does)."""

    next_matador: Annotated[
        int,
        Switch(
            "where the matador role passes after a round: to the right (the seed) or the left",
            choices=("right", "left"),
            games_only=True,
        ),
    ] = NEXT_RIGHT
    king_block: Annotated[
        bool, Switch("a swap target holding a king refuses the swap (borrowed from Chase the Ace)")
    ] = False
    betting: Annotated[
        int, Switch("players bet against the matador after the deal, before the swaps", choices=("off", "on"))
    ] = 0
    bet_direction: Annotated[
        int,
        Switch(
            "every bet backs a knock-out, or a bettor may back the matador instead",
            choices=("against-matador", "bettor-chooses"),
        ),
    ] = BET_AGAINST_MATADOR


POLICY_FIELDS = (
    PolicyField(
        "threshold",
        7,
        0,
        13,
        "swap with the left-hand neighbour when your card ranks at or below this (A=1 ... K=13)",
        integer=True,
    ),
    PolicyField(
        "matador_right_threshold",
        7,
        0,
        13,
        "the same, for the player on the matador's right (whose swap hands the matador a card)",
        integer=True,
    ),
    PolicyField("ace_swap", 1, 0, 1, "1: always pass an ace on", integer=True),
    PolicyField(
        "bet_min_rank",
        14,
        1,
        14,
        "bet against the matador when your dealt card ranks at or above this; 14 never bets",
        integer=True,
    ),
    PolicyField("bet_size", 1, 0, 1000, "units proposed for a bet", integer=True),
    PolicyField("bet_cap", 1000, 0, 1000, "as matador: the largest bet accepted", integer=True),
    PolicyField(
        "back_max_rank",
        0,
        0,
        13,
        "with bet_direction=bettor-chooses: back the matador when your dealt card ranks at or below this; 0 never",
        integer=True,
    ),
)

# Columns of the policy matrix, by field.
THRESHOLD, MATADOR_RIGHT_THRESHOLD, ACE_SWAP, BET_MIN_RANK, BET_SIZE, BET_CAP, BACK_MAX_RANK = indices(
    POLICY_FIELDS,
    "threshold",
    "matador_right_threshold",
    "ace_swap",
    "bet_min_rank",
    "bet_size",
    "bet_cap",
    "back_max_rank",
)


VARIANTS = {
    "standard": Variant({}, "the pagat rules: no bets, the matador role passes to the right"),
    "left-rotation": Variant({"next_matador": NEXT_LEFT}, "the matador role passes to the left (clockwise)"),
    "with-bets": Variant({"betting": 1}, "bets against the matador, even money", policy="bettors"),
}

POLICIES = {
    "default": PolicyPreset({}, "swap on 7 or lower, always pass an ace on, no bets"),
    "never-swap": PolicyPreset(
        {"threshold": 0, "matador_right_threshold": 0, "ace_swap": 0}, "everyone keeps the dealt card"
    ),
    "bettors": PolicyPreset(
        {"bet_min_rank": 8, "bet_size": 1},
        "swap on 7 or lower; bet one unit against the matador holding an 8 or better",
    ),
}

FACE_LABELS = FACES  # A 2 ... 10 J Q K
UNIT_BET_COLUMNS = tuple(
    column for face in FACE_LABELS for column in (f"unit_bet_{face}", f"unit_bet_{face}_sq", f"unit_bet_{face}_count")
)

HAND_OUTCOMES = Outcomes(
    seat=("exposed", "swap", "bet_placed", "bet_net", "bet_net_sq"),
    lower_is_better=("exposed",),
    signed=("bet_net",) + tuple(f"unit_bet_{face}" for face in FACE_LABELS),
    table=("knocked_out", "exposures", "exposures_sq") + UNIT_BET_COLUMNS,
    help={
        "exposed": "probability the seat is exposed (eliminated)",
        "swap": "probability the seat's swap is carried out",
        "bet_placed": "probability the seat agrees a bet",
        "bet_net": "expected units won on bets per hand (the matador: from all bets)",
        "knocked_out": "probability the matador is knocked out",
        "exposures": "players exposed per round",
    },
    odds={"knocked_out": "fair odds for a bet against the matador"},
    groups={"unit_bet": ("one-unit bet against the matador, by the bettor's dealt card", FACE_LABELS)},
    conserved={"bet_net": None},
)
# Game length in rounds, drawn as a histogram: one indicator column per bucket, exactly one
# of them 1 per game.  At the default table of 8 a game takes 1 to 7 rounds (mean 4.5);
# the last two buckets are for larger tables.
LENGTH_LABELS = ("1-2", "3", "4", "5", "6", "7", "8-10", "11+")
LENGTH_BUCKET_LOW = (1, 3, 4, 5, 6, 7, 8, 11)  # first game length of each bucket

GAME_OUTCOMES = Outcomes(
    seat=("win", "place", "place_sq", "bet_net", "bet_net_sq", "matador_net", "matador_net_sq"),
    lower_is_better=("place",),
    signed=("bet_net", "matador_net"),
    table=("rounds", "rounds_sq") + tuple(f"length_{label}" for label in LENGTH_LABELS),
    scale={"place": 2, "place_sq": 4},
    help={
        "win": "probability the seat is the last one standing",
        "place": "expected finishing place (1 = winner)",
        "bet_net": "expected units won on bets per game",
        "matador_net": "expected units won on bets per game while matador",
        "rounds": "rounds per game",
    },
    groups={"length": ("game length in rounds", LENGTH_LABELS)},
    distributions=("length",),
    conserved={"bet_net": None},
)


def check(rules: Rules, policy: np.ndarray, n_seats: int) -> None:
    """Raise ``ValueError`` with a sentence when the table cannot be played."""


# ----------------------------------------------------------------------------------------
# Kernels
#
# The round is computed on 64-bit card masks (bit = card code): a seat's swap decision is
# one bit of its precomputed mask of cards it passes on, and the reveal is a few mask
# operations.  The decisions are coin flips for a branch predictor, so the swap chain
# and the reveal are selects and masks rather than branches.
