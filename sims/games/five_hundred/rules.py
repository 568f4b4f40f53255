"""Five Hundred: the table rules, policy fields, presets, the bid ladder and the outcome
columns.

What each value means is the rules contract in the package docstring
(sims/games/five_hundred/__init__.py).
"""

from __future__ import annotations

from typing import Annotated, NamedTuple

import numpy as np

from sims.spec import Outcomes, PolicyField, PolicyPreset, Switch, Variant

DECK_43, DECK_45, DECK_46 = range(3)  # deck
ALL_PASS_REDEAL, ALL_PASS_NO_TRUMPS = range(2)  # all_pass
MISERE_ABOVE_7NT, MISERE_BY_VALUE = range(2)  # misere_rank
OPEN_MISERE_ABOVE_10D, OPEN_MISERE_HIGHEST = range(2)  # open_misere_rank
LEAD_CONTRACTOR, LEAD_ELDEST = range(2)  # first_lead
NT_JOKER_MAY_NOMINATE, NT_JOKER_OWN_SUIT_ONLY, NT_JOKER_FIRST_ROUND_FREE, NT_JOKER_ANY_TIME, NT_JOKER_LEAD_LAST_ONLY = (
    range(5)
)  # nt_joker
EXPOSE_AFTER_FIRST_LEAD, EXPOSE_AFTER_FIRST_TRICK, EXPOSE_BEFORE_LEAD = range(3)  # om_expose
MISERE_OPP_NONE, MISERE_OPP_PER_CONTRACTOR_TRICK, MISERE_OPP_PER_TRICK_WON = range(3)  # misere_opp_score

PLAYERS = 4
HAND_SIZE = 10
TRICKS = 10
PACK_SIZE = (43, 45, 46)  # by deck
KITTY_SIZE = (3, 5, 6)
RED_JOKER, BLACK_JOKER = 52, 53  # card codes beyond sims.core.deck's 0..51
TARGET = 500
MAX_HANDS_LIMIT = 1000


class Rules(NamedTuple):
    """Table rules of Five Hundred (see the package docstring for what each value does)."""

    deck: Annotated[
        int,
        Switch(
            "the pack: 43 cards (4s red only, one joker, kitty 3), 45 (black 4s too, kitty 5) or 46 (and a second, "
            "black joker above the red one, kitty 6)",
            choices=("43", "45", "46"),
        ),
    ] = DECK_43
    all_pass: Annotated[
        int,
        Switch(
            "when all four pass: throw the cards in (the next dealer deals), or play the hand at no trumps with no "
            "contractor, 10 a trick to each side",
            choices=("redeal", "play-no-trumps"),
        ),
    ] = ALL_PASS_REDEAL
    misere_rank: Annotated[
        int,
        Switch(
            "where misere sits on the ladder: above 7NT and below 8S (the seed), or by its value 250, between 8S and "
            "8C (US nullo)",
            choices=("above-7nt", "by-value"),
        ),
    ] = MISERE_ABOVE_7NT
    misere_needs_7: Annotated[
        bool, Switch("misere may be bid only once a 7-level bid has been made in the auction (the seed)")
    ] = True
    open_misere_rank: Annotated[
        int,
        Switch(
            "where open misere sits: above 10D and below 10H (the seed), or above everything (Britannica)",
            choices=("above-10d", "highest"),
        ),
    ] = OPEN_MISERE_ABOVE_10D
    open_misere_anytime: Annotated[
        bool,
        Switch("open misere may be bid whenever it outranks the bid; false: only once an 8-level bid has been made"),
    ] = True
    allow_misere: Annotated[bool, Switch("misere and open misere may be bid at all")] = True
    first_lead: Annotated[
        int,
        Switch(
            "who leads the first trick: the contractor (Australian practice) or the eldest hand",
            choices=("contractor", "eldest"),
        ),
    ] = LEAD_CONTRACTOR
    nt_joker: Annotated[
        int,
        Switch(
            "the joker at no trumps and misere: the contractor may nominate its suit (else it is a suitless top "
            "card, played only when void), never nominated, also free to the first round of a suit, playable "
            "at any time, or led only at the last trick",
            choices=("contractor-may-nominate", "own-suit-only", "first-round-free", "any-time", "lead-last-only"),
        ),
    ] = NT_JOKER_MAY_NOMINATE
    om_expose: Annotated[
        int,
        Switch(
            "open misere: the contractor's hand is laid face up after the first lead, after the first trick, or "
            "before the lead",
            choices=("after-first-lead", "after-first-trick", "before-lead"),
        ),
    ] = EXPOSE_AFTER_FIRST_LEAD
    misere_stop_early: Annotated[bool, Switch("misere ends as soon as the contractor takes a trick")] = True
    misere_opp_score: Annotated[
        int,
        Switch(
            "what the defence scores against misere: nothing, 10 for each trick the contractor took (US nullo), or "
            "10 for each trick it won itself (the seed; misere is then played out)",
            choices=("none", "per-trick-taken-by-contractor", "per-trick-won"),
        ),
    ] = MISERE_OPP_NONE
    # Not games_only: the cap holds a hand's points for tricks too, so in hand mode (from
    # 0-0) an opp_cap below 100 caps the defence's score (package docstring, Scoring).
    win_by_contract_only: Annotated[
        bool,
        Switch(
            "a side wins only by reaching 500 on a contract it made; trick points stop at opp_cap (the seed); "
            "false: the first side to 500 by any means wins"
        ),
    ] = True
    opp_cap: Annotated[
        int,
        Switch(
            "with win_by_contract_only: the most a side can reach on points for tricks (a hand's points stop "
            "there too; from 0-0 in hand mode)",
            lo=0,
            hi=490,
        ),
    ] = 490
    max_hands: Annotated[
        int,
        Switch(
            "game mode: a game still undecided after this many hands (thrown-in hands included) is stopped and "
            "counted as truncated",
            lo=1,
            hi=MAX_HANDS_LIMIT,
            games_only=True,
            simulation=True,
        ),
    ] = MAX_HANDS_LIMIT


BID_OFFSET, MISERE_MAX, OPEN_MISERE_MAX, PARTNER_MARGIN, NOMINATE = range(5)
POLICY_FIELDS = (
    PolicyField(
        "bid_offset",
        1,
        -3,
        3,
        "aggressiveness: tricks added to the hand's trick estimate before bidding (negative is cautious)",
        integer=True,
    ),
    PolicyField(
        "misere_max",
        1,
        -1,
        10,
        "bid misere when the hand holds at most this many high cards (joker, "
        "A, K, Q, J) and misere may be bid; -1 never",
        integer=True,
    ),
    PolicyField(
        "open_misere_max",
        -1,
        -1,
        10,
        "bid open misere when the hand holds at most this many high cards and it may be bid; -1 never",
        integer=True,
    ),
    PolicyField(
        "partner_margin",
        1,
        0,
        3,
        "overbid the partner's standing bid only with this many tricks to spare",
        integer=True,
    ),
    PolicyField(
        "nominate",
        0,
        0,
        1,
        "at no trumps, a contractor holding the joker nominates its longest suit "
        "for it (1) or keeps it suitless (0), where the rules allow",
        integer=True,
    ),
)

VARIANTS = {
    "standard": Variant(
        {},
        "Australian rules, Avondale schedule: misere after a 7 bid, below 8S; open misere "
        "between 10D and 10H; the contractor leads; win only on a made contract",
    ),
    "us": Variant(
        {
            "misere_rank": MISERE_BY_VALUE,
            "misere_needs_7": 0,
            "win_by_contract_only": 0,
            "misere_opp_score": MISERE_OPP_PER_CONTRACTOR_TRICK,
            "misere_stop_early": 0,
        },
        "US: misere (nullo) by value between 8S and 8C at any point, played out, the defence scoring 10 "
        "for each trick the bidder takes; the first side to 500 wins",
    ),
    "seed-literal": Variant(
        {"misere_opp_score": MISERE_OPP_PER_TRICK_WON, "misere_stop_early": 0},
        "the seed: the defence scores 10 for each trick it wins against misere, which is played out",
    ),
    "all-pass-play": Variant({"all_pass": ALL_PASS_NO_TRUMPS}, "all four pass: play at no trumps, 10 a trick"),
    "eldest-leads": Variant({"first_lead": LEAD_ELDEST}, "the eldest hand leads the first trick"),
    "open-misere-highest": Variant(
        {"open_misere_rank": OPEN_MISERE_HIGHEST}, "open misere above every bid (Britannica)"
    ),
    "open-misere-after-8": Variant({"open_misere_anytime": 0}, "open misere only after an 8-level bid"),
    "no-misere": Variant({"allow_misere": 0}, "no misere or open misere"),
    "joker-own-suit": Variant({"nt_joker": NT_JOKER_OWN_SUIT_ONLY}, "the joker is never nominated"),
    "joker-first-round-free": Variant(
        {"nt_joker": NT_JOKER_FIRST_ROUND_FREE}, "the joker may be played to the first round of any suit"
    ),
    "joker-any-time": Variant(
        {"nt_joker": NT_JOKER_ANY_TIME}, "the joker may be played to any trick (sensitivity only)"
    ),
    "joker-led-last": Variant({"nt_joker": NT_JOKER_LEAD_LAST_ONLY}, "the joker may be led only to the last trick"),
    "deck-45": Variant({"deck": DECK_45}, "45 cards: the black 4s added, a kitty of 5"),
    "deck-46": Variant({"deck": DECK_46}, "46 cards: black 4s and a black joker, a kitty of 6"),
}

POLICIES = {
    "default": PolicyPreset({}, "bid one trick above the estimate, misere with at most one high card, no open misere"),
    "cautious": PolicyPreset({"bid_offset": 0}, "bid the estimate"),
    "aggressive": PolicyPreset({"bid_offset": 2}, "bid two tricks above the estimate"),
    "no-misere": PolicyPreset({"misere_max": -1}, "never bid misere"),
    "open-misere": PolicyPreset({"open_misere_max": 0}, "open misere with no high card at all"),
}

# ------------------------------------------------------------------------ the bid ladder
# A contract id: 5 * (tricks - 6) + denomination for the 25 trick bids (denominations
# spades, clubs, diamonds, hearts, no trumps = 0..4, the bidding order), then MISERE and
# OPEN_MISERE.  NO_CONTRACT marks a hand thrown in or played out after four passes.
SPADES_BID, CLUBS_BID, DIAMONDS_BID, HEARTS_BID, NO_TRUMPS = range(5)
DENOMINATION_SUIT = (3, 0, 1, 2)  # card suit (sims.core.deck: c d h s = 0..3) of each suit denomination
N_TRICK_BIDS = 25
MISERE, OPEN_MISERE = 25, 26
N_CONTRACTS = 27
NO_CONTRACT = -1
DENOMINATION_NAMES = ("S", "C", "D", "H", "NT")


def contract_name(contract: int) -> str:
    """6S ... 10NT, MIS, OM."""
    if contract == MISERE:
        return "MIS"
    if contract == OPEN_MISERE:
        return "OM"
    return f"{6 + contract // 5}{DENOMINATION_NAMES[contract % 5]}"


def contract_value(contract: int) -> int:
    """The Avondale value: 40 + 100 * (tricks - 6) + 20 * denomination; misere 250, open misere 500."""
    if contract == MISERE:
        return 250
    if contract == OPEN_MISERE:
        return 500
    return 40 + 100 * (contract // 5) + 20 * (contract % 5)


def ladder_position(contract: int, misere_rank: int, open_misere_rank: int) -> int:
    """A number that orders the bids: a bid outranks another when its position is higher.
    Trick bids sit at 2 * id; misere just above 7NT (id 9) or 8S (id 10); open misere
    just above 10D (id 22) or above 10NT (id 24)."""
    if contract == MISERE:
        return 2 * (9 if misere_rank == MISERE_ABOVE_7NT else 10) + 1
    if contract == OPEN_MISERE:
        return 2 * (22 if open_misere_rank == OPEN_MISERE_ABOVE_10D else 24) + 1
    return 2 * contract


# ------------------------------------------------------------------------ outcomes
CONTRACT_LABELS = tuple(contract_name(c).lower() for c in range(N_CONTRACTS))
LEVEL_LABELS = ("6", "7", "8", "9", "10")  # a suit contract's label is its level then its suit
SUIT_LABELS = ("s", "c", "d", "h", "nt")


def _per_contract(prefix: str, conditional: bool, squared: bool) -> tuple[str, ...]:
    names = []
    for label in CONTRACT_LABELS:
        names.append(f"{prefix}_{label}")
        if squared:
            names.append(f"{prefix}_{label}_sq")
        if conditional:
            names.append(f"{prefix}_{label}_count")
    return tuple(names)


HAND_OUTCOMES = Outcomes(
    seat=("contractor", "made", "made_count", "score", "score_sq", "tricks", "tricks_sq"),
    table=(
        "all_pass",
        "misere",
        "misere_made",
        "misere_made_count",
        "open_misere",
        "open_misere_made",
        "open_misere_made_count",
        "joker_in_kitty",
        "declarer_score",
        "declarer_score_sq",
        "declarer_score_count",
        "defence_score",
        "defence_score_sq",
        "defence_score_count",
    )
    + _per_contract("bid", False, False)
    + _per_contract("make", True, False)
    + _per_contract("value", True, True),
    signed=("score", "declarer_score") + tuple(f"value_{label}" for label in CONTRACT_LABELS),
    groups={
        "bid": ("probability each contract is the final bid", CONTRACT_LABELS),
        "make": ("probability the contract is made, when it is bid", CONTRACT_LABELS),
        "value": ("the contracting side's points, when it is bid", CONTRACT_LABELS),
    },
    grids={group: (LEVEL_LABELS, SUIT_LABELS) for group in ("bid", "make", "value")},
    help={
        "contractor": "probability the seat wins the auction",
        "made": "probability the seat's contract is made, when it is the contractor",
        "score": "points the seat's side scores per hand",
        "tricks": "tricks the seat wins per hand",
        "all_pass": "probability all four pass",
        "misere": "probability the contract is misere",
        "misere_made": "probability a misere is made",
        "open_misere": "probability the contract is open misere",
        "open_misere_made": "probability an open misere is made",
        "joker_in_kitty": "probability the joker is in the kitty",
        "declarer_score": "points the contracting side scores, per hand with a contract",
        "defence_score": "points the defending side scores, per hand with a contract",
    },
)

LENGTH_BUCKETS = ((1, 5), (6, 10), (11, 15), (16, 20), (21, 30), (31, MAX_HANDS_LIMIT))
LENGTH_LABELS = tuple(f"{lo}_{hi}" if hi < MAX_HANDS_LIMIT else f"{lo}_up" for lo, hi in LENGTH_BUCKETS)

GAME_OUTCOMES = Outcomes(
    seat=("win", "score", "score_sq"),
    table=("hands", "hands_sq", "end_contract", "end_minus_500", "end_any_points", "truncated")
    + tuple(f"length_{label}" for label in LENGTH_LABELS),
    signed=("score",),
    help={
        "win": "probability the seat's side wins the game",
        "score": "the seat's side's final score",
        "hands": "hands per game (thrown-in hands included)",
        "end_contract": "probability the game ends with a side reaching 500 on a contract it made",
        "end_minus_500": "probability the game ends with a side at -500 or below",
        "end_any_points": "probability the game ends with a side reaching 500 on points for tricks "
        "(win_by_contract_only false)",
        "truncated": "probability the game is stopped at max_hands",
    },
    groups={"length": ("game length in hands", LENGTH_LABELS)},
    distributions=("length",),
)


def check(rules: Rules, policy: np.ndarray, n_seats: int) -> None:
    """Raise ``ValueError`` with a sentence when the table cannot be played."""
    if int(rules.opp_cap) % 10:
        raise ValueError(f"opp_cap must be a multiple of 10 (scores go in tens), not {int(rules.opp_cap)}.")
