"""Fight for the Lead: the table rules, policy fields, presets and outcome columns.

What each value means is the rules contract in the package docstring
(sims/games/fight_for_the_lead/__init__.py).
"""

from __future__ import annotations

import math
from typing import Annotated, NamedTuple

import numpy as np

from sims.spec import Outcomes, PolicyField, PolicyPreset, Switch, Variant, indices

TRADE_FROM_DEALER_LEFT, TRADE_FROM_LEAD_WINNER = range(2)
RESHUFFLE_DISCARDS, SERVE_UNTIL_EMPTY, CAP_EQUAL = range(3)
FORCED_REPLAY, REPLAY_OPTIONAL, REFUND_SPLIT = range(3)
HIGHEST_RANK_ANY_SUIT, ELDEST_GETS_LEAD = range(2)
SAMPLE_LATER, SAMPLE_FIRST = range(2)
FIGHT_LOWEST, FIGHT_HIGHEST, FIGHT_HIGHEST_NON_ACE, FIGHT_LOWEST_OF_LONGEST = range(4)
STYLE_GREEDY, STYLE_HIGH = range(2)
POT_LIMIT = 1 << 48
MAX_HANDS_LIMIT = 1000  # with POT_LIMIT, bounds a running net by 2**58 chips: int64 is safe
MIN_PLAYERS, MAX_PLAYERS = 2, 10


class Rules(NamedTuple):
    """Table rules of Fight for the Lead (see the module docstring for what each value does)."""

    ante: Annotated[
        int,
        Switch(
            "chips each player antes; 0 = the smallest ante that makes the pot divisible by 4", lo=0, hi=100, stake=True
        ),
    ] = 0
    dealer_rotates: Annotated[bool, Switch("the deal passes one seat to the left every hand", games_only=True)] = True
    trade_in_first_hand: Annotated[bool, Switch("players may trade in the compulsory first hand too")] = True
    trade_order: Annotated[
        int,
        Switch(
            "who trades first: the dealer's left, or the winner of the lead",
            choices=("from-dealer-left", "from-lead-winner"),
        ),
    ] = TRADE_FROM_DEALER_LEFT
    trade_exhaust: Annotated[
        int,
        Switch(
            "when the stock runs out in trading: reshuffle the discards, serve in order until empty, "
            "or cap every trader at stock // players",
            choices=("reshuffle-discards", "serve-until-empty", "cap-equal"),
        ),
    ] = RESHUFFLE_DISCARDS
    all_drop: Annotated[
        int,
        Switch(
            "when everyone drops: replay with everyone forced in, replay with dropping allowed, "
            "or split the pot and end the game",
            choices=("forced-replay", "replay-optional", "refund-split"),
        ),
    ] = FORCED_REPLAY
    fight_exhaust: Annotated[
        int,
        Switch(
            "when the stock runs out in the fight: the highest fight card of any suit, or the "
            "eldest hand, wins the lead",
            choices=("highest-rank-any-suit", "eldest-gets-lead"),
        ),
    ] = HIGHEST_RANK_ANY_SUIT
    max_hands: Annotated[
        int,
        Switch(
            "a game still going after this many hands is stopped and counted as truncated",
            lo=1,
            hi=MAX_HANDS_LIMIT,
            games_only=True,
            simulation=True,
        ),
    ] = 200
    sample_hand: Annotated[
        int,
        Switch(
            "hand mode only: sample a later hand (players may drop) or the compulsory first hand",
            choices=("later", "first"),
            simulation=True,
        ),
    ] = SAMPLE_LATER


POLICY_FIELDS = (
    PolicyField(
        "fight_card",
        FIGHT_LOWEST,
        0,
        3,
        "which card to lay down in the fight",
        integer=True,
        choices=("lowest", "highest", "highest-non-ace", "lowest-of-longest-suit"),
    ),
    PolicyField(
        "stay_min_strength",
        1,
        0,
        9,
        "stay in a later hand when 2 per ace + 1 per guarded king reaches this (0 always stays)",
        integer=True,
    ),
    PolicyField("stay_with_lead", 1, 0, 1, "1: always stay after winning the fight", integer=True),
    PolicyField(
        "keep_min_rank",
        12,
        2,
        15,
        "trade away every card ranked below this (J=11 Q=12 K=13 A=14; 2 keeps all, 15 trades all)",
        integer=True,
    ),
    PolicyField(
        "play_style",
        STYLE_GREEDY,
        0,
        1,
        "greedy: sure winners first, win cheaply, else throw low; high: always play the highest",
        integer=True,
        choices=("greedy", "high"),
    ),
)
# The policy matrix's columns.
FIGHT_CARD, STAY_MIN_STRENGTH, STAY_WITH_LEAD, KEEP_MIN_RANK, PLAY_STYLE = indices(
    POLICY_FIELDS, "fight_card", "stay_min_strength", "stay_with_lead", "keep_min_rank", "play_style"
)

VARIANTS = {
    "standard": Variant(
        {},
        "the pagat rules with the usual readings: rotating deal, trading in every hand "
        "from the dealer's left, reshuffled discards, forced replay when all drop",
    ),
    "fixed-dealer": Variant({"dealer_rotates": 0}, "the same player deals every hand"),
    "no-first-trade": Variant({"trade_in_first_hand": 0}, "no trading in the compulsory first hand"),
    "lead-trades-first": Variant({"trade_order": TRADE_FROM_LEAD_WINNER}, "the winner of the lead trades first"),
    "serve-until-empty": Variant(
        {"trade_exhaust": SERVE_UNTIL_EMPTY}, "trades are served in order until the stock is empty"
    ),
    "cap-equal": Variant({"trade_exhaust": CAP_EQUAL}, "every trader may swap at most stock // players cards"),
    "refund-split": Variant({"all_drop": REFUND_SPLIT}, "when everyone drops, the pot is split and the game ends"),
}

POLICIES = {
    "default": PolicyPreset(
        {},
        "fight with the lowest card, stay with an ace or a guarded king or the lead, "
        "trade everything below a queen, greedy play",
    ),
    "always-stay": PolicyPreset({"stay_min_strength": 0}, "never drop"),
    "cautious": PolicyPreset({"stay_min_strength": 2, "stay_with_lead": 0}, "stay only with an ace (or more)"),
    "no-trade": PolicyPreset({"keep_min_rank": 2}, "never trade"),
    "fight-high": PolicyPreset({"fight_card": FIGHT_HIGHEST_NON_ACE}, "fight with the highest card that is not an ace"),
    "play-high": PolicyPreset({"play_style": STYLE_HIGH}, "always play the highest card allowed"),
}

LENGTH_LABELS = ("1", "2", "3", "4", "5-8", "9-16", "17-32", "33+")
LENGTH_BUCKET_LOW = (1, 2, 3, 4, 5, 9, 17, 33)  # first game length of each bucket

HAND_OUTCOMES = Outcomes(
    seat=("dropped", "lead", "took_0", "took_1", "took_2", "took_3", "took_4", "net", "net_sq", "traded", "traded_sq"),
    signed=("net",),
    table=(
        "all_dropped",
        "players_in",
        "players_in_sq",
        "losers",
        "losers_sq",
        "turned",
        "turned_sq",
        "stock_short",
        "reshuffled",
    ),
    help={
        "dropped": "probability the seat drops",
        "lead": "probability the seat wins the fight",
        "took_0": "probability the seat plays and takes no trick (and pays the pot)",
        "net": "expected chips won per hand, pot = players x ante",
        "traded": "cards traded per hand",
        "all_dropped": "probability everyone drops",
        "players_in": "players in per hand",
        "losers": "players who pay the pot per hand (the pot's multiplier)",
        "turned": "cards turned in the fight",
        "stock_short": "probability a trade is cut short",
        "reshuffled": "probability the discards are reshuffled",
    },
)
GAME_OUTCOMES = Outcomes(
    seat=("net", "net_sq", "profit", "finished_net", "finished_net_sq", "finished_net_count"),
    signed=("net", "finished_net"),
    table=("hands", "hands_sq", "truncated", "overflow", "hit_max_hands", "largest_pot")
    + tuple(f"length_{label}" for label in LENGTH_LABELS),
    help={
        "net": "expected chips won per game (antes included)",
        "profit": "probability the seat ends ahead",
        "finished_net": "expected chips won per game that ended by the rules (stopped games left out)",
        "hit_max_hands": "probability a game is stopped by max_hands",
        "hands": "hands per game",
        "truncated": "probability a game is stopped (max_hands or overflow)",
        "overflow": "probability a game is stopped because the pot passed 2**48 chips",
        "largest_pot": "largest pot seen",
    },
    groups={"length": ("game length in hands", LENGTH_LABELS)},
    distributions=("length",),
    limbs={"net": 2, "net_sq": 4, "finished_net": 2, "finished_net_sq": 4},
    maxima=("largest_pot",),
)


# The smallest ante that makes the pot n * ante divisible by 4, by n (the kernels read it too).
SMALLEST_ANTE = np.array([4 // math.gcd(n, 4) for n in range(MAX_PLAYERS + 1)], dtype=np.int64)


def ante_for(rules: Rules, n_seats: int) -> int:
    """The ante each player pays: the rule's, or the smallest making n*ante divisible by 4."""
    return int(rules.ante) if rules.ante else int(SMALLEST_ANTE[n_seats])


def check(rules: Rules, policy: np.ndarray, n_seats: int) -> None:
    """Raise ``ValueError`` with a sentence when the table cannot be played."""
    if n_seats == MAX_PLAYERS and rules.trade_exhaust != RESHUFFLE_DISCARDS:
        raise ValueError("10 players need trade_exhaust=reshuffle-discards: the stock is nearly empty after the fight.")
    if rules.ante and (n_seats * rules.ante) % 4:
        raise ValueError(
            f"the pot {n_seats} x ante {rules.ante} = {n_seats * rules.ante} is not divisible by 4; "
            f"choose an ante that makes it so (or 0 for the smallest)."
        )
