"""Chase the Ace: rules, policy fields, variants, policies, outcomes and ``check`` (the contract is the
package docstring, sims/games/chase_ace/__init__.py)."""

from __future__ import annotations

from typing import Annotated, NamedTuple

import numpy as np

from sims.spec import Outcomes, PolicyField, PolicyPreset, Switch, Variant, indices

# Integer codes of the enum switches, in the order of their Switch choices.
TIE_ALL_LOWEST, TIE_CANCEL_MATCHES, TIE_EARLIEST, TIE_LATEST, TIE_TO_DEALER = range(5)
KINGS_BLOCK, KINGS_NONE, KINGS_FREEZE, KINGS_STOP_ALL, KINGS_SKIP = range(5)
REVEAL_ON_ATTEMPT, REVEAL_AT_DEAL = range(2)
JACKS_OFF, JACKS_HOLDER_MOVES, JACKS_HOLDER_SKIPPED = range(3)
FINAL_SPLIT, FINAL_REPLAY, FINAL_CUT_HIGH, FINAL_CARRY_STAKE, FINAL_CARRY_NO_STAKE = range(5)


class Rules(NamedTuple):
    """Table rules of Chase the Ace (see the module docstring for what each value does)."""

    lives: Annotated[int, Switch("lives each player starts a game with", lo=1, hi=10, games_only=True)] = 3
    tie: Annotated[
        int,
        Switch(
            "who loses at showdown when several hold the lowest rank",
            choices=("all-lowest-lose", "cancel-matches", "earliest-seat-loses", "latest-seat-loses", "ties-to-dealer"),
        ),
    ] = TIE_ALL_LOWEST
    kings: Annotated[
        int,
        Switch(
            "what a swap attempt on the top card (king) does",
            choices=("block", "none", "freeze-if-dealt", "stop-all-on-attempt", "skip-to-next"),
        ),
    ] = KINGS_BLOCK
    king_reveal: Annotated[
        int,
        Switch(
            "when kings are shown: when someone tries to take one, or right after the deal",
            choices=("on-attempt", "at-deal"),
        ),
    ] = REVEAL_ON_ATTEMPT
    dealer_king_block: Annotated[bool, Switch("a dealer who cuts the top card must keep the original card")] = True
    queens: Annotated[
        int,
        Switch(
            "a target holding a queen sends the requester to swap with its own right-hand player", choices=("off", "on")
        ),
    ] = 0
    jacks: Annotated[
        int,
        Switch(
            "a target holding a jack refuses the swap; whether the jack holder then still moves",
            choices=("off", "holder-moves", "holder-skipped"),
        ),
    ] = JACKS_OFF
    final_tie: Annotated[
        int,
        Switch(
            "game mode: what happens when every remaining player loses their last life together",
            choices=("split", "replay", "cut-high", "carry-with-stake", "carry-no-stake"),
            games_only=True,
        ),
    ] = FINAL_SPLIT
    ace_high: Annotated[bool, Switch("rank the ace high (A K Q ... 2), making the ace the blocking top card")] = False


POLICY_FIELDS = (
    PolicyField(
        "threshold",
        7,
        0,
        13,
        "swap (the dealer: cut) when the card ranks at or below this (A=1 ... K=13); 0 never, 13 always",
        integer=True,
    ),
    PolicyField("threshold_mix", 0.0, 0.0, 1.0, "probability of swapping when the card ranks exactly threshold + 1"),
    PolicyField(
        "informed",
        1,
        0,
        1,
        "1: keep after a favourable swap from the right; the dealer cuts after a swap "
        "with the last player exactly when it got the worse card",
        integer=True,
    ),
)

# Columns of the policy matrix, by field.
THRESHOLD, THRESHOLD_MIX, INFORMED = indices(POLICY_FIELDS, "threshold", "threshold_mix", "informed")


VARIANTS = {
    "standard": Variant({}, "the common rules: lowest rank(s) lose, kings block, dealer keeps a cut king"),
    "seed-house": Variant({"tie": TIE_CANCEL_MATCHES}, "the seed text's house rule: matching low cards cancel out"),
    "ethier": Variant(
        {"king_reveal": REVEAL_AT_DEAL, "tie": TIE_EARLIEST},
        "Ethier's rules (Wizard of Odds): kings shown at the deal, earliest tied seat loses",
    ),
    "le-her": Variant(
        {"tie": TIE_TO_DEALER, "kings": KINGS_BLOCK, "dealer_king_block": True},
        "two-player Le Her (1713): ties go to the dealer",
        players=2,
        policy="le-her",
    ),
}

POLICIES = {
    "default": PolicyPreset({}, "swap on 7 or lower, informed"),
    "never-swap": PolicyPreset({"threshold": 0, "informed": 0}, "everyone keeps; the dealer never cuts"),
    "always-swap": PolicyPreset({"threshold": 12, "informed": 0}, "swap everything below a king"),
    "naive-7": PolicyPreset({"threshold": 7, "informed": 0}, "swap on 7 or lower, ignoring what a swap revealed"),
    "le-her": PolicyPreset(
        {"threshold": 7, "informed": 1},
        "Le Her: the non-dealer swaps on 7 or lower, the dealer cuts on 8 or lower",
        seats={-1: {"threshold": 8}},
    ),
}

HAND_OUTCOMES = Outcomes(
    seat=("lose_life", "exchange"),
    table=("losers", "losers_sq", "no_loser"),
    lower_is_better=("lose_life",),
    help={
        "lose_life": "probability the seat loses a life",
        "exchange": "probability the seat completes a swap (the dealer: takes a cut card)",
        "losers": "players losing a life per round",
        "no_loser": "probability nobody loses a life",
    },
)
MAX_ROUNDS = 100_000

# Game length in rounds: the buckets (first, last round count) of the length_<label>
# indicators, one per game.  At the default table (8 players, 3 lives) a game takes 12 to
# 23 rounds (at least 21 lives must go, 24 at most), mean about 19.4: single counts in
# the middle, the tails together; longer games (more players or lives, replayed final
# ties) fall in the last bucket.
LENGTH_BUCKETS = ((1, 16), (17, 17), (18, 18), (19, 19), (20, 20), (21, 21), (22, 22), (23, MAX_ROUNDS))
LENGTH_LABELS = tuple(
    f"{lo}_up" if hi == MAX_ROUNDS else (f"{lo}" if lo == hi else f"{lo}_{hi}") for lo, hi in LENGTH_BUCKETS
)
LENGTH_BUCKET_LOW = tuple(lo for lo, _ in LENGTH_BUCKETS)  # first round count of each bucket

GAME_OUTCOMES = Outcomes(
    seat=("win", "split_win", "net_chips", "net_chips_sq"),
    signed=("net_chips",),
    table=("rounds", "rounds_sq", "final_tie", "final_tie_sq", "carried", "carried_sq", "truncated")
    + tuple(f"length_{label}" for label in LENGTH_LABELS),
    scale={"net_chips": 12, "net_chips_sq": 144},
    help={
        "win": "probability the seat wins the game outright",
        "split_win": "probability the seat shares the pot in a final tie",
        "net_chips": "expected units won minus units paid per game",
        "rounds": "rounds per game",
        "final_tie": "final-tie rule firings per game",
        "carried": "pot carried to a continuation game, per game",
        "truncated": "games stopped at the round cap",
    },
    conserved={"net_chips": None},
    groups={"length": ("game length in rounds", LENGTH_LABELS)},
    distributions=("length",),
)


def check(rules: Rules, policy: np.ndarray, n_seats: int) -> None:
    """Raise ``ValueError`` with a sentence when the table cannot be played."""
    if rules.tie == TIE_TO_DEALER and n_seats != 2:
        raise ValueError("tie=ties-to-dealer is the two-player Le Her rule; use it with --players 2.")
