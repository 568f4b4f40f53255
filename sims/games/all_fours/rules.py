"""All-Fours: the table rules, policy fields, presets and outcome columns.

What each value means is the rules contract in the package docstring
(sims/games/all_fours/__init__.py).
"""

from __future__ import annotations

from typing import Annotated, NamedTuple

import numpy as np

from sims.spec import Outcomes, PolicyField, PolicyPreset, Switch, Variant, indices

GIFT_THEN_PLAY, GIFT_THEN_REDEAL = range(2)
KEEP_ALL, DISCARD_TO_SIX, FOSTER_CLUB = range(3)
LOW_TO_DEALT_HOLDER, LOW_TO_TRICK_WINNER = range(2)
TIE_ELDER_SCORES, TIE_NOBODY = range(2)
STYLE_GREEDY, STYLE_HIGH = range(2)
N_PLAYERS = 2
ELDER, DEALER = 0, 1  # the seats in hand mode (and the first deal of a game)
MAX_ROUNDS = 5  # three-card rounds a run can deal: 13 + 7 * 5 = 48 cards of 52
STRENGTH_MAX = 14  # the largest trump-strength score (A K Q J 10 and one more trump)


class Rules(NamedTuple):
    """Table rules of All-Fours (see the package docstring for what each value does)."""

    target: Annotated[int, Switch("points that win the game", lo=7, hi=15, games_only=True)] = 11
    gift_then: Annotated[
        int,
        Switch(
            "after the dealer gives a point: play the hand with the turned-up trump, or throw the cards in "
            "and deal again (the seed's literal reading)",
            choices=("play", "redeal"),
        ),
    ] = GIFT_THEN_PLAY
    gift_redeal_same_dealer: Annotated[
        bool,
        Switch("with gift_then=redeal: the same dealer deals again (else the deal passes as normal)", games_only=True),
    ] = False
    gift_cannot_win: Annotated[
        bool,
        Switch(
            "the dealer may not give a point that would take the elder to the target, and must run", games_only=True
        ),
    ] = True
    after_run: Annotated[
        int,
        Switch(
            "hand size after running the cards: keep every card, discard down to six, or keep nine after "
            "one round and discard to six after two or more",
            choices=("keep-all", "discard-to-six", "foster-club"),
        ),
    ] = KEEP_ALL
    low_to: Annotated[
        int,
        Switch(
            "who scores Low: the player dealt the lowest trump in play, or the winner of its trick",
            choices=("dealt-holder", "trick-winner"),
        ),
    ] = LOW_TO_DEALT_HOLDER
    game_tie: Annotated[
        int,
        Switch(
            "a tie for Game (0-0 included): the elder scores it, or nobody does", choices=("elder-scores", "nobody")
        ),
    ] = TIE_ELDER_SCORES
    exhaust_keeps_jack_points: Annotated[
        bool, Switch("when the pack runs out in a run (a void deal), turned-up jack points still count")
    ] = False
    bunch: Annotated[
        bool, Switch("after a run, the players may agree to a redeal by the same dealer (Foster's bunch)")
    ] = False


POLICY_FIELDS = (
    PolicyField(
        "beg_below",
        3,
        0,
        STRENGTH_MAX + 1,
        "as elder, beg when the trump-strength score is below this (0 never begs, 15 always begs)",
        integer=True,
    ),
    PolicyField(
        "give_at_least",
        4,
        0,
        STRENGTH_MAX + 1,
        "as dealer, give when the trump-strength score is at least this, else run (0 always gives, 15 always runs)",
        integer=True,
    ),
    PolicyField(
        "bunch_below",
        2,
        0,
        STRENGTH_MAX + 1,
        "with the bunch rule: want a redeal after a run when the strength in the new trump is below this",
        integer=True,
    ),
    PolicyField(
        "play_style",
        STYLE_GREEDY,
        0,
        1,
        "greedy: sure winners and the jack first, capture counting cards, protect tens and the jack; "
        "high: always play the strongest card allowed",
        integer=True,
        choices=("greedy", "high"),
    ),
)

BEG_BELOW, GIVE_AT_LEAST, BUNCH_BELOW, PLAY_STYLE = indices(
    POLICY_FIELDS, "beg_below", "give_at_least", "bunch_below", "play_style"
)

VARIANTS = {
    "standard": Variant(
        {},
        "Hoyle/Foster: a gift is played with the turned-up trump, nobody may be given "
        "the game, hands keep every card after a run, Low to its dealt holder, "
        "Game ties to the elder, game to 11",
    ),
    "seed-literal": Variant(
        {"gift_then": GIFT_THEN_REDEAL}, "the seed's reading: a gift point throws the cards in and the deal passes"
    ),
    "seven-up": Variant({"target": 7}, "American Seven-Up: game to 7"),
    "discard-to-six": Variant({"after_run": DISCARD_TO_SIX}, "after a run, both discard down to six cards"),
    "foster-club": Variant({"after_run": FOSTER_CLUB}, "discard to six only after two or more rounds"),
    "low-to-winner": Variant({"low_to": LOW_TO_TRICK_WINNER}, "Low goes to the winner of the trick holding it"),
    "no-game-tie": Variant({"game_tie": TIE_NOBODY}, "nobody scores a tied Game"),
    "bunch": Variant({"bunch": 1}, "after a run, both players may agree to a redeal"),
}

POLICIES = {
    "default": PolicyPreset({}, "beg below strength 3, give at 4 or more, greedy play"),
    "never-beg": PolicyPreset({"beg_below": 0}, "the elder always stands"),
    "always-beg": PolicyPreset({"beg_below": STRENGTH_MAX + 1}, "the elder always begs"),
    "always-give": PolicyPreset({"give_at_least": 0}, "the dealer always gives when begged"),
    "always-run": PolicyPreset({"give_at_least": STRENGTH_MAX + 1}, "the dealer always runs when begged"),
    "play-high": PolicyPreset({"play_style": STYLE_HIGH}, "always play the strongest card allowed"),
}

# Advice (sims/games/all_fours/advice.py, its docstring says what they mean): the
# decisions, their candidates in order, and the layout of a situation's ``known`` array,
# which the kernel and the twin both read.
ADVICE_BEG, ADVICE_GIVE, ADVICE_LEAD = range(3)  # the elder's stand/beg, the dealer's give/run, the first lead
BEG_CANDIDATES = ("stand", "beg")
GIVE_CANDIDATES = ("give", "run")
ADVICE_OUTCOMES = ("net_points", "points", "opponent_points", "win")
# given: 1 when the lead follows a beg the dealer answered with a gift; seen: 1 when the
# history is read as seen (infer="seen": the other seat's beg or gift played as given,
# every deal kept); holding: the last HELD entries.
KNOWN_FIELDS = ("decision", "turnup", "score_elder", "score_dealer", "given", "seen", "holding")
K_DECISION, K_TURNUP, K_SCORE_ELDER, K_SCORE_DEALER, K_GIVEN, K_SEEN, K_HOLDING = indices(KNOWN_FIELDS, *KNOWN_FIELDS)
ELDER_BEFORE_LEAD = ("stood", "given")  # the context's words for what came before the elder's first lead
HELD = 6  # cards a seat holds at the beg and the give
FIRST_DEAL = 13  # pack positions of the first deal: 3 to E, 3 to D, 3 to E, 3 to D, the turn-up
ELDER_PLACES = (0, 1, 2, 6, 7, 8)  # E's positions among them (D's are the other six before the turn-up)
DEALER_PLACES = (3, 4, 5, 9, 10, 11)
TURNUP_PLACE = FIRST_DEAL - 1

RUN_LABELS = tuple(str(k) for k in range(1, MAX_ROUNDS + 1))
# Table columns of hand mode counted over the played deals only (their X_count = played).
PLAYED_HAND_COLUMNS = ("no_trump", "one_trump", "jack_in_play", "game_tie")

HAND_OUTCOMES = Outcomes(
    seat=(
        "points",
        "points_sq",
        "high",
        "low",
        "jack",
        "game",
        "gift",
        "turned_jacks",
        "turned_jacks_sq",
        "game_points",
        "game_points_sq",
    ),
    table=("begged", "gave", "ran", "void", "thrown_in", "bunched", "played")
    + PLAYED_HAND_COLUMNS
    + tuple(f"runs_{label}" for label in RUN_LABELS)
    + tuple(f"{name}_count" for name in PLAYED_HAND_COLUMNS)
    + tuple(f"runs_{label}_count" for label in RUN_LABELS),
    help={
        "points": "expected points scored in the deal",
        "high": "probability of scoring High",
        "low": "probability of scoring Low",
        "jack": "probability of scoring Jack",
        "game": "probability of scoring Game",
        "gift": "probability of being given a point",
        "turned_jacks": "points from turned-up jacks per deal",
        "game_points": "counting-card points taken in tricks per deal",
        "begged": "probability the elder begs",
        "gave": "probability the dealer gives",
        "ran": "probability the dealer runs the cards",
        "void": "probability the pack runs out (void deal)",
        "thrown_in": "probability the cards are thrown in after a gift (gift_then=redeal)",
        "bunched": "probability of a bunch (agreed redeal)",
        "played": "probability the hand is played",
        "no_trump": "probability a played hand has no trump in play",
        "one_trump": "probability a played hand has exactly one trump in play",
        "jack_in_play": "probability a played hand has the jack of trumps in play",
        "game_tie": "probability a played hand ties for Game",
    },
    groups={"runs": ("three-card rounds dealt when the dealer runs", RUN_LABELS)},
    distributions=("runs",),
)
# Game length in deals (void, thrown-in and bunched deals included), one indicator per
# bucket: a game to 11 takes 3 to 8 deals (mean about 5.3) under the standard rules,
# Seven-Up's 2 to 5 and a game to 15 mostly 6 to 9.
LENGTH_LABELS = ("1_2", "3", "4", "5", "6", "7", "8", "9_up")
LENGTH_BUCKET_LOW = (1, 3, 4, 5, 6, 7, 8, 9)  # the first game length of each bucket

GAME_OUTCOMES = Outcomes(
    seat=("win", "score", "score_sq", "begged", "begged_sq", "gave", "gave_sq"),
    table=(
        "deals",
        "deals_sq",
        "played",
        "played_sq",
        "void",
        "void_sq",
        "thrown_in",
        "thrown_in_sq",
        "bunched",
        "bunched_sq",
        "before_play",
    )
    + tuple(f"length_{label}" for label in LENGTH_LABELS),
    help={
        "win": "probability of winning the game",
        "score": "points at the end of the game",
        "begged": "times the seat begs per game",
        "gave": "times the seat gives a point per game",
        "deals": "deals per game (void and thrown-in deals included)",
        "played": "hands played per game",
        "void": "void deals per game",
        "thrown_in": "deals thrown in after a gift per game",
        "bunched": "bunched deals per game",
        "before_play": "probability the game ends on a turned-up jack or a gift, before play",
    },
    groups={"length": ("game length in deals", LENGTH_LABELS)},
    distributions=("length",),
)


def check(rules: Rules, policy: np.ndarray, n_seats: int) -> None:
    """Raise ``ValueError`` with a sentence when the table cannot be played."""
