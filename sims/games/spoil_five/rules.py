"""Spoil Five: the table rules, policy fields, presets, rank tables and outcome columns.

What each value means is the rules contract in the package docstring
(sims/games/spoil_five/__init__.py).
"""

from __future__ import annotations

from typing import Annotated, NamedTuple

import numpy as np

from sims.spec import Outcomes, PolicyField, PolicyPreset, Switch, Variant, indices

FOLLOW_OR_TRUMP, FREE, MUST_FOLLOW = range(3)  # plain_lead
ROB_OPTIONAL, ROB_OBLIGATORY = range(2)  # rob
TOPUP_ALL_BUT_DEALER, TOPUP_DEALER_ONLY, TOPUP_EVERYONE = range(3)  # spoil_topup
BONUS_ANTE, BONUS_NONE, BONUS_DOUBLE_ANTE = range(3)  # jinx_bonus
MIN_PLAYERS, MAX_PLAYERS = 2, 10  # five cards each and a turn-up: 5n + 1 <= 52
DEFAULT_PLAYERS = 5
HAND_SIZE = 5
TRICKS = 5
MAX_DEALS_LIMIT = 1000

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE_OF_HEARTS = 2 * 13 + 0  # card code of Ah (always a trump)


class Rules(NamedTuple):
    """Table rules of Spoil Five (see the package docstring for what each value does)."""

    plain_lead: Annotated[
        int,
        Switch(
            "to a plain-suit lead: follow suit or trump (another suit only when void), any card (the seed), or "
            "follow suit if able (strict)",
            choices=("follow-or-trump", "free", "must-follow"),
        ),
    ] = FOLLOW_OR_TRUMP
    rob: Annotated[
        int,
        Switch(
            "robbing the turn-up: optional (the seed), or a trump-ace holder who does not rob cannot take the pool "
            "that hand (Britannica, Peel)",
            choices=("optional", "obligatory-or-forfeit"),
        ),
    ] = ROB_OPTIONAL
    unrobbed_ace_low: Annotated[
        bool, Switch("Irish house rule: the trump ace of a holder who does not rob is the lowest trump")
    ] = False
    ante: Annotated[int, Switch("chips each player pays into a new pool", lo=0, hi=20, stake=True)] = 2
    dealer_extra: Annotated[
        int, Switch("chips the first dealer of a new pool pays on top", lo=0, hi=20, stake=True)
    ] = 0
    dealer_extra_every_deal: Annotated[
        bool,
        Switch(
            "the dealer of every deal pays dealer_extra, a carried pool's too (Peel's deal stake); false: only the "
            "first dealer of a new pool",
            games_only=True,
            stake=True,
        ),
    ] = False
    spoil_topup: Annotated[
        int,
        Switch(
            "who adds to a pool carried forward after a spoil: every player but the dealer of the spoiled hand "
            "(the seed), only the next dealer, or everyone (Peel)",
            choices=("all-but-dealer", "dealer-only", "everyone"),
            games_only=True,
            stake=True,
        ),
    ] = TOPUP_ALL_BUT_DEALER
    topup_amount: Annotated[
        int, Switch("chips each of them adds after a spoil", lo=0, hi=20, games_only=True, stake=True)
    ] = 1
    jinx: Annotated[
        bool,
        Switch("a player who wins the first three tricks may jinx: play on for all five, for the pool and a bonus"),
    ] = True
    jinx_bonus: Annotated[
        int,
        Switch(
            "what each other player pays a successful jinxer: the ante (Peel), nothing, or twice the ante",
            choices=("ante", "none", "double-ante"),
            stake=True,
        ),
    ] = BONUS_ANTE
    max_deals: Annotated[
        int,
        Switch(
            "game mode: a pool still not taken after this many deals is stopped (counted as truncated)",
            lo=1,
            hi=MAX_DEALS_LIMIT,
            games_only=True,
            simulation=True,
        ),
    ] = MAX_DEALS_LIMIT


POLICY_FIELDS = (
    PolicyField(
        "rob",
        1,
        0,
        1,
        "rob the turn-up when the rules allow (1) or never (0); the discard is the cheapest card",
        integer=True,
    ),
    PolicyField(
        "jinx_min",
        2,
        0,
        3,
        "after the first three tricks, jinx when at least this many of the two "
        "cards left are sure winners (0 always, 3 never)",
        integer=True,
    ),
    PolicyField(
        "spoil",
        1,
        0,
        1,
        "1: when another player has two tricks, play to stop that player rather "
        "than for yourself; 0: always play for yourself",
        integer=True,
    ),
    PolicyField(
        "renege",
        1,
        0,
        1,
        "1: hold back the 5, the jack of trumps and the ace of hearts when the law "
        "allows; 0: play a trump to a trump lead whenever you hold one",
        integer=True,
    ),
)

ROB, JINX_MIN, SPOIL, RENEGE = indices(POLICY_FIELDS, "rob", "jinx_min", "spoil", "renege")  # policy columns

VARIANTS = {
    "standard": Variant(
        {},
        "follow suit or trump to a plain lead, optional robbing, the pool topped up by all "
        "but the dealer after a spoil, the jinx paid with the ante",
    ),
    "seed-literal": Variant({"plain_lead": FREE}, "the seed: any card may be played to a plain-suit lead"),
    "britannica": Variant(
        {"rob": ROB_OBLIGATORY}, "1911 Britannica: a trump-ace holder who does not rob cannot take the pool"
    ),
    "peel": Variant(
        {"rob": ROB_OBLIGATORY, "spoil_topup": TOPUP_EVERYONE, "dealer_extra": 1, "dealer_extra_every_deal": 1},
        "Peel: obligatory robbing, everyone adds after a spoil, the dealer of every deal pays a deal stake of 1",
    ),
    "dealer-only-topup": Variant(
        {"spoil_topup": TOPUP_DEALER_ONLY}, "a Hoyle-type text: only the next dealer adds after a spoil"
    ),
    "must-follow": Variant(
        {"plain_lead": MUST_FOLLOW}, "strict whist-like following (no source; for sensitivity only)"
    ),
    "ace-low": Variant({"unrobbed_ace_low": 1}, "Irish house rule: an unrobbed trump ace is the lowest trump"),
    "no-jinx": Variant({"jinx": 0}, "no jinx: three tricks take the pool at once"),
}

POLICIES = {
    "default": PolicyPreset({}, "rob, jinx only with two sure winners, spoil, hold back privileged trumps"),
    "never-rob": PolicyPreset({"rob": 0}, "never rob the turn-up"),
    "bold-jinx": PolicyPreset({"jinx_min": 0}, "always jinx after the first three tricks"),
    "never-jinx": PolicyPreset({"jinx_min": 3}, "always claim after the first three tricks"),
    "no-spoil": PolicyPreset({"spoil": 0}, "always play for yourself"),
    "no-renege": PolicyPreset({"renege": 0}, "play a trump to a trump lead whenever you hold one"),
}

# ------------------------------------------------------------------------ rank tables
# ORDER[trump_suit, code]: the card's order (package docstring): within the trumps for a
# trump (Ah included), within its plain suit otherwise.  SUIT_OF[trump_suit, code]: its
# effective suit.  Order 0 of the trumps is the place of a demoted ace (unrobbed_ace_low).
_TRUMP_FACES_RED = (1, 2, 3, 5, 6, 7, 8, 9, 11, 12)  # 2 3 4 6 7 8 9 10 Q K: orders 1..10
_TRUMP_FACES_BLACK = (9, 8, 7, 6, 5, 3, 2, 1, 11, 12)  # 10 9 8 7 6 4 3 2 Q K: orders 1..10
_PLAIN_HEARTS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)  # 2 .. K: orders 0..11 (no Ah)
_PLAIN_DIAMONDS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)  # A 2 .. K: orders 0..12
_PLAIN_BLACK = (9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 10, 11, 12)  # 10 9 .. 2 A J Q K: orders 0..12
ACE, FIVE, JACK = 0, 4, 10  # faces


def _tables() -> tuple[np.ndarray, np.ndarray]:
    order = np.zeros((4, 52), dtype=np.int64)
    suit_of = np.zeros((4, 52), dtype=np.int64)
    for trump in range(4):
        for suit in range(4):
            if suit == trump:
                faces = _TRUMP_FACES_RED if suit in (DIAMONDS, HEARTS) else _TRUMP_FACES_BLACK
                for k, face in enumerate(faces):
                    order[trump, 13 * suit + face] = k + 1
                ranked = (
                    [13 * suit + ACE]
                    + ([] if suit == HEARTS else [ACE_OF_HEARTS])
                    + [13 * suit + JACK, 13 * suit + FIVE]
                )  # A, (Ah), J, 5 at the top
                for k, code in enumerate(ranked):
                    order[trump, code] = 11 + k
            else:
                faces = {HEARTS: _PLAIN_HEARTS, DIAMONDS: _PLAIN_DIAMONDS}.get(suit, _PLAIN_BLACK)
                for k, face in enumerate(faces):
                    order[trump, 13 * suit + face] = k
            for face in range(13):
                suit_of[trump, 13 * suit + face] = suit
        suit_of[trump, ACE_OF_HEARTS] = trump
    return order, suit_of


ORDER, SUIT_OF = _tables()
# The ranked bit of a card with trumps t (sims.core.tricks): 16 * effective suit + order, so
# a hand is a 64-bit mask and bit order is rank order inside a suit; BIT_CODE inverts it.
BIT = 16 * SUIT_OF + ORDER
DEMOTED_ACE_ORDER = 0  # the bit 16 * t + 0 holds an unrobbed ace made the lowest trump
BIT_CODE = np.full((4, 64), -1, dtype=np.int64)
for _trump in range(4):
    for _code in range(52):
        BIT_CODE[_trump, BIT[_trump, _code]] = _code
    BIT_CODE[_trump, 16 * _trump + DEMOTED_ACE_ORDER] = 13 * _trump + 0  # the demoted ace of trumps


# ------------------------------------------------------------------------ outcomes

HAND_OUTCOMES = Outcomes(
    seat=("win", "spoiler", "jinx_called", "jinx_made", "robbed", "tricks", "tricks_sq", "net", "net_sq"),
    table=("spoil", "jinx", "rob", "ace_turned", "trump_ace_dealt", "forfeit", "carried", "carried_sq"),
    signed=("net",),
    help={
        "win": "probability the seat takes the pool",
        "spoiler": "probability the seat wins the trick that spoils the hand",
        "jinx_called": "probability the seat calls the jinx",
        "jinx_made": "probability the seat makes a jinx",
        "robbed": "probability the seat robs the turn-up",
        "tricks": "tricks won per hand",
        "net": "expected chips won per hand (from a new pool)",
        "spoil": "probability the hand is spoiled",
        "jinx": "probability a jinx is called",
        "rob": "probability someone robs the turn-up",
        "ace_turned": "probability the turn-up is an ace",
        "trump_ace_dealt": "probability the ace of trumps is dealt to a player",
        "forfeit": "probability a trump-ace holder is barred from the pool (obligatory robbing)",
        "carried": "chips carried forward per hand (the pool after a spoil)",
    },
    conserved={"net": "carried"},
)


def _ratio(name: str) -> tuple[str, ...]:
    """A ratio over games: the numerator with its square, the denominator with its
    square, and their product (see sims.spec.Outcomes)."""
    return name, f"{name}_sq", f"{name}_count", f"{name}_count_sq", f"{name}_cross"


# Game length in rounds of the deal (a game is whole rounds: its deals / n), in buckets:
# the labels and the first length of each bucket (the kernels read LENGTH_BUCKET_LOW).
LENGTH_LABELS = ("1", "2", "3", "4", "5-6", "7-10", "11-20", "21+")
LENGTH_BUCKET_LOW = (1, 2, 3, 4, 5, 7, 11, 21)


def length_bucket(rounds: int) -> int:
    """The bucket of a game of ``rounds`` rounds of the deal (the twin's; the kernel's is its copy)."""
    return max(i for i, low in enumerate(LENGTH_BUCKET_LOW) if rounds >= low)


GAME_OUTCOMES = Outcomes(
    seat=("pools_won", "pools_won_sq", "net", "net_sq") + _ratio("deal_net"),
    table=("deals", "deals_sq")
    + _ratio("pool_deals")
    + _ratio("pool_size")
    + ("spoils", "spoils_sq", "truncated", "left", "left_sq")
    + tuple(f"length_{label}" for label in LENGTH_LABELS),
    signed=("net", "deal_net"),
    help={
        "pools_won": "pools the seat takes per game (whole rounds of the deal)",
        "net": "expected chips won per game (whole rounds of the deal)",
        "deal_net": "expected chips won per deal (over a long series)",
        "deals": "deals per game (whole rounds of the deal)",
        "pool_deals": "deals per pool (until it is taken)",
        "pool_size": "chips in the pool when it is taken",
        "spoils": "spoiled deals per game",
        "truncated": "probability a pool of the game is stopped at max_deals",
        "left": "chips left on the table by stopped pools, per game",
    },
    groups={"length": ("game length in rounds of the deal (n deals each)", LENGTH_LABELS)},
    distributions=("length",),
    conserved={"net": None, "deal_net": None},
)


def check(rules: Rules, policy: np.ndarray, n_seats: int) -> None:
    """Raise ``ValueError`` with a sentence when the table cannot be played."""
