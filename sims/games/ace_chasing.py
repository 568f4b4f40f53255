"""Ace Chasing (the matador game), as this kernel plays it.

Implements ../shared/rules/ace-chasing.md (the pagat page is the only source).  Where the
rules leave a point open, the reading taken here is marked (reading).

Cards and ranks
  A card is code = suit*13 + face, face 0=A, 1=2, ..., 9=10, 10=J, 11=Q, 12=K; suit =
  code // 13.  Rank = face: A lowest, K highest.  Policies speak of rank1 = rank + 1
  (A=1 ... K=13).

Seating and the deal (one round among k active players)
  Positions run clockwise from the matador's left: position 0 is the player on the
  matador's left, position k-2 the player on the matador's right, position k-1 the
  matador M.  In hand mode k = n and position p is seat p (the matador is seat n-1).  The
  round's stream deals the first k cards of a Fisher-Yates shuffle
  (sims.core.deck.deal_prefix): card p goes to position p.

Rule switches (integer codes in brackets)
  next_matador: right [0] (default; the seed's literal "to the right", anticlockwise),
    left [1].
  king_block: 0 (default) or 1: a swap target holding a king shows it and refuses.
  betting: off [0] (default) or on [1].
  bet_direction: against-matador [0] (default: every bet backs a knock-out),
    bettor-chooses [1] (a bettor may also back the matador to go through).

Per-seat policy (one row per seat; the row belongs to the seat, whatever its position)
  threshold (0..13), matador_right_threshold (0..13), ace_swap (0 or 1),
  bet_min_rank (1..14), bet_size (0..1000), bet_cap (0..1000), back_max_rank (0..13).

1. Betting (only when betting=on), positions p = 0 .. k-2 in order, on the rank1 of the
   card p was DEALT:
     if rank1 >= bet_min_rank: a bet AGAINST the matador (it wins if M is knocked out);
     else if bet_direction=bettor-chooses and rank1 <= back_max_rank: a bet FOR the
       matador (it wins if M goes through);
     else no bet.
   The proposed amount is the bettor's bet_size; M accepts at most its own bet_cap, so
   the agreed amount is min(bet_size, M's bet_cap) (integers).  An amount of 0 is no bet.
2. Swap chain, positions p = 0 .. k-2 in order, on the card p holds NOW (after earlier
   swaps).  p swaps with its left-hand neighbour p+1 (for p = k-2 that is the matador)
   when (ace_swap = 1 and the card is an ace) or rank1 <= its threshold, where the
   threshold is matador_right_threshold for p = k-2 and threshold otherwise.  The partner
   must accept, except with king_block = 1 when the partner holds a king: the king is
   shown and nothing changes.  The matador makes no decision.  No random draws.
3. Reveal: let m be the rank of M's final card.
     E1 = the non-matadors whose rank is strictly lower than m;
     up-ace suits = the suit of M's card if it is an ace, and the suit of every ace in E1;
     E2 = the non-matadors holding a card of an up-ace suit;
     exposed E = E1 union E2 (one pass: a card exposed by suit is never an ace, because
     that suit's ace is already face up, so the pass is final).
4. Result: if E is not empty the exposed players are eliminated and M survives; bets
   AGAINST M are lost to M, bets FOR M are won from M.  If E is empty M is knocked out
   (eliminated) and everyone else survives; M pays every bet AGAINST it and collects
   every bet FOR it.  Even money: a bet of b moves b units.

Hand mode outputs (seat = position, matador = seat n-1), per hand:
  per seat: exposed (1 if the seat is exposed; always 0 for the matador), swap (1 if
  the seat's swap was carried out, not blocked), bet_placed (1 if it agreed a bet; 0 for
  the matador), bet_net (units won minus lost on bets; for the matador, from all bets),
  bet_net_sq (its square).
  table: knocked_out (1 if M is knocked out), exposures (number exposed), exposures_sq,
  and for each face f in A 2 3 4 5 6 7 8 9 10 J Q K: unit_bet_f (the sum over
  non-matadors DEALT face f of +1 if M is knocked out, -1 if not: the result of a
  one-unit bet against the matador), unit_bet_f_sq (its square, which equals the count),
  unit_bet_f_count (the number of non-matadors dealt face f).

Game mode (one game = one stream (seed, game index), rounds drawn from it in sequence)
  Every seat starts alive; the first matador is seat n-1 (reading: a fixed first matador
  makes per-starting-seat results meaningful; the seed's organiser is any fixed seat).
  Each round is played by the alive seats, in clockwise order starting at the seat after
  the matador's and ending with the matador.  Then the role passes to the nearest alive
  seat to the matador's right (seats M-1, M-2, ... modulo n) with next_matador=right, or
  to its left (M+1, M+2, ...) with next_matador=left, whether or not M survived.  The game
  ends when one seat is left: it wins.
  Places: the winner is 1st; players eliminated together in a round that leaves r
  players share places r+1 .. r+j and each gets their average, r + (j+1)/2.
  Game mode outputs, per game:
    per seat: win (1 for the last seat standing), place (finishing place, stored in
    halves so shared places stay integers), place_sq (in quarters), bet_net and
    bet_net_sq (over the whole game, as bettor and as matador), matador_net and
    matador_net_sq (the part of bet_net won or lost while the seat was matador).
    table: rounds, rounds_sq.
"""

from __future__ import annotations

from typing import Annotated, NamedTuple

import numpy as np
from numba import njit

from sims.core.cards import FACES
from sims.core.deck import ACE, KING, N_CARDS, deal_prefix_nb
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.tricks import count_cards_nb
from sims.spec import GAMES, HANDS, GameSpec, Outcomes, PolicyField, PolicyPreset, Switch, Variant

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


THRESHOLD, MATADOR_RIGHT_THRESHOLD, ACE_SWAP, BET_MIN_RANK, BET_SIZE, BET_CAP, BACK_MAX_RANK = range(7)
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
)
GAME_OUTCOMES = Outcomes(
    seat=("win", "place", "place_sq", "bet_net", "bet_net_sq", "matador_net", "matador_net_sq"),
    lower_is_better=("place",),
    signed=("bet_net", "matador_net"),
    table=("rounds", "rounds_sq"),
    scale={"place": 2, "place_sq": 4},
    help={
        "win": "probability the seat is the last one standing",
        "place": "expected finishing place (1 = winner)",
        "bet_net": "expected units won on bets per game",
        "matador_net": "expected units won on bets per game while matador",
        "rounds": "rounds per game",
    },
)


def check(rules: Rules, policy: np.ndarray, n_seats: int) -> None:
    """Raise ``ValueError`` with a sentence when the table cannot be played."""
    if not 4 <= n_seats <= 52:
        raise ValueError(f"Ace Chasing starts with 4 to 52 players (one card each), not {n_seats}.")


# ----------------------------------------------------------------------------------------
# Kernels
#
# The round is computed on 64-bit card masks (bit = card code): a seat's swap decision is
# one bit of its precomputed mask of cards it passes on, and the reveal is a few mask
# operations.  The decisions are coin flips for a branch predictor, so the swap chain
# and the reveal are selects and masks rather than branches.

HAND_WIDTH = HAND_OUTCOMES.width  # plain ints: the kernels cannot read Outcomes
GAME_WIDTH = GAME_OUTCOMES.width
R_NEXT, R_KING_BLOCK, R_BETTING, R_BET_DIRECTION = range(4)
UNIT_BET_FIRST = 3  # table column of unit_bet_A; each face has (sum, sum of squares, count)

SLOTS = 52  # entries of each per-position and per-seat array: 52 players at most
N_POLICY_FIELDS = len(POLICY_FIELDS)

# A block's scratch is one record of this type (see sims.core.deck for the pattern), made
# once per block by new_table_nb.  Per-position arrays are indexed by position this round
# (0 = the matador's left .. k-1 = the matador), per-seat arrays by seat.
TABLE = np.dtype(
    [
        ("pack", np.int64, N_CARDS),  # the pack being shuffled (sims.core.deck.deal_prefix_nb)
        ("dealt", np.int64, SLOTS),  # per position: the card dealt to it
        ("seat_of", np.int64, SLOTS),  # per position: its seat this round
        ("held", np.int64, SLOTS),  # per position: its final card
        ("swapped", np.int64, SLOTS),  # per position: 1 if its swap was carried out
        ("bet", np.int64, SLOTS),  # per position: its agreed bet, +b against the matador, -b for it
        ("policy", np.int64, (N_POLICY_FIELDS, SLOTS)),  # [field, seat]: the policy, whole numbers
        ("swaps_on", np.uint64, SLOTS),  # per seat: the mask of cards it passes on ...
        ("right_swaps_on", np.uint64, SLOTS),  # ... and passes on as the matador's right
        ("exposed_sum", np.int64, SLOTS),  # hand mode, per position: exposures
        ("swap_sum", np.int64, SLOTS),  # hand mode, per position: swaps
        ("dealt_sum", np.int64, (2, N_CARDS)),  # hand mode, [knocked out?, card]: non-matadors dealt it
    ]
)

_ONE = np.uint64(1)
_ACES = np.uint64(sum(1 << (13 * suit + ACE_RANK) for suit in range(4)))
_KINGS = np.uint64(sum(1 << (13 * suit + KING_RANK) for suit in range(4)))
_SUIT = np.uint64(0x1FFF)  # the 13 bits of a suit: ace << 13 * suit times this is that suit
# card -> the mask of every card of lower rank (what the matador holding it exposes)
LOWER_THAN = np.array(
    [sum(1 << other for other in range(52) if other % 13 < card % 13) for card in range(52)], dtype=np.uint64
)


@njit(cache=True)
def new_table_nb(policy):
    """A one-record ``TABLE`` array holding the policy as whole numbers and each seat's
    masks of the cards it passes on, every other array zero.  Kernels work on its record,
    ``tables[0]``."""
    n = policy.shape[0]
    tables = np.zeros(1, dtype=TABLE)
    table = tables[0]
    for seat in range(n):
        for field in range(policy.shape[1]):
            table.policy[field, seat] = np.int64(policy[seat, field])
        ace_swap = table.policy[ACE_SWAP, seat] != 0
        for passes_on, field in ((table.swaps_on, THRESHOLD), (table.right_swaps_on, MATADOR_RIGHT_THRESHOLD)):
            threshold = table.policy[field, seat]
            mask = 0
            for card in range(52):
                face = card % 13
                if face + 1 <= threshold or (ace_swap and face == ACE_RANK):
                    mask |= 1 << card
            passes_on[seat] = mask
    return tables


@njit(cache=True, inline="always")
def rule_codes_nb(rules):
    """The rule values a round reads, as one tuple read once per block:
    ``(king_block, betting, bet_direction)``."""
    return rules[R_KING_BLOCK], rules[R_BETTING], rules[R_BET_DIRECTION]


@njit(cache=True, inline="always")
def play_round_nb(table, k, codes):
    """Play one round among ``k`` positions (0 = the matador's left, ``k-1`` = matador)
    under the rule values ``codes`` (:func:`rule_codes_nb`).

    Reads the deal from ``table.dealt`` and the seats from ``table.seat_of``; writes the
    final cards and the swaps to ``held`` and ``swapped`` and, with betting on, the agreed
    bets to ``bet`` (never written otherwise, so it stays 0).  Returns ``(knocked_out,
    exposed)``: ``exposed`` is the mask of the exposed players' cards.
    """
    king_block, betting, bet_direction = codes
    matador = k - 1

    if betting:
        policy = table.policy
        cap = policy[BET_CAP, table.seat_of[matador]]
        for p in range(matador):
            seat = table.seat_of[p]
            rank1 = table.dealt[p] % 13 + 1
            amount = min(policy[BET_SIZE, seat], cap)
            bet = 0
            if rank1 >= policy[BET_MIN_RANK, seat]:
                bet = amount
            elif bet_direction == BET_BETTOR_CHOOSES and rank1 <= policy[BACK_MAX_RANK, seat]:
                bet = -amount
            table.bet[p] = bet

    # The swap chain: `moving` is the card position p holds when its turn comes (the
    # dealt card of p + 1 is untouched until then).
    moving = table.dealt[0]
    held = np.uint64(0)  # the non-matadors' final cards
    for p in range(matador):
        seat = table.seat_of[p]
        passes_on = table.right_swaps_on[seat] if p == matador - 1 else table.swaps_on[seat]
        target = table.dealt[p + 1]
        swap = (passes_on >> np.uint64(moving)) & _ONE
        if king_block:  # the target shows a king and refuses
            swap &= ~(_KINGS >> np.uint64(target))
        final = target if swap else moving
        moving = moving if swap else target
        table.held[p] = final
        table.swapped[p] = swap
        held |= _ONE << np.uint64(final)
    table.held[matador] = moving

    # Reveal: lower cards, then the suits of face-up aces (one pass is final).  The aces
    # sit 13 bits apart, so multiplying by a suit's 13 bits spreads each to its suit.
    lower = held & LOWER_THAN[np.uint64(moving)]
    up_suits = ((lower | (_ONE << np.uint64(moving))) & _ACES) * _SUIT
    exposed = held & (lower | up_suits)
    return exposed == 0, exposed


@njit(cache=True, inline="always")
def _bet_result(bet, knocked_out):
    """Units a bettor wins on an agreed bet (+b against the matador, -b for it)."""
    if bet > 0:
        return bet if knocked_out else -bet
    return -bet if not knocked_out else bet


@njit(cache=True, inline="always")
def _is_exposed(exposed, card):
    return np.int64((exposed >> np.uint64(card)) & _ONE)


@njit(cache=True, nogil=True, _nrt=False)
def _hand_sums_nb(rules, tables, out, n, seed, first, count):
    """Hand mode's loop: the sums of hands ``first .. first+count-1`` into ``out``.  It
    allocates nothing and is compiled without NRT: with it, binding the scratch arrays to
    the inlined round's arguments cost atomic incref/decref pairs in every hand."""
    table = tables[0]
    codes = rule_codes_nb(rules)
    betting = codes[1]
    matador = n - 1
    seed_key = seed_key_nb(seed)
    for seat in range(n):
        table.seat_of[seat] = seat
    for hand in range(first, first + count):
        state = stream_nb(seed_key, hand)
        state = deal_prefix_nb(table.pack, table.dealt, n, state)
        knocked_out, exposed = play_round_nb(table, n, codes)
        exposures = count_cards_nb(exposed)
        for p in range(matador):
            table.exposed_sum[p] += _is_exposed(exposed, table.held[p])
            table.swap_sum[p] += table.swapped[p]
            # Unsigned: the index is a loaded card, which Numba would otherwise check
            # for a negative value.
            table.dealt_sum[np.uint64(knocked_out), np.uint64(table.dealt[p])] += 1
        if betting:
            matador_net = 0
            for p in range(matador):
                bet = table.bet[p]
                net = _bet_result(bet, knocked_out)
                matador_net -= net
                out[p, 2] += bet != 0
                out[p, 3] += net
                out[p, 4] += net * net
            out[matador, 3] += matador_net
            out[matador, 4] += matador_net * matador_net
        out[n, 0] += knocked_out
        out[n, 1] += exposures
        out[n, 2] += exposures * exposures
    for p in range(matador):
        out[p, 0] = table.exposed_sum[p]
        out[p, 1] = table.swap_sum[p]
    for face in range(13):  # a unit bet wins +1 in knock-outs and -1 otherwise; its square is 1
        dealt = 0
        dealt_knocked_out = 0
        for suit in range(4):
            dealt += table.dealt_sum[0, 13 * suit + face]
            dealt_knocked_out += table.dealt_sum[1, 13 * suit + face]
        dealt += dealt_knocked_out
        column = UNIT_BET_FIRST + 3 * face
        out[n, column] = 2 * dealt_knocked_out - dealt
        out[n, column + 1] = dealt
        out[n, column + 2] = dealt


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over hands ``first .. first+count-1`` of ``seed``, the
    matador in seat ``n-1``.  Returns int64 ``[n + 1, width]`` (see ``HAND_OUTCOMES``)."""
    out = np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)
    _hand_sums_nb(rules, new_table_nb(policy), out, n, seed, first, count)
    return out


@njit(cache=True, nogil=True, _nrt=False)
def _game_sums_nb(rules, tables, out, alive, place2, bet_net, matador_net, n, seed, first, count):
    """Game mode's loop (allocating nothing, compiled without NRT like
    :func:`_hand_sums_nb`): the sums of games ``first .. first+count-1`` into ``out``;
    ``alive``, ``place2`` (finishing place, in halves), ``bet_net`` and ``matador_net``
    are per-seat scratch."""
    table = tables[0]
    step = 1 if rules[R_NEXT] == NEXT_LEFT else -1
    codes = rule_codes_nb(rules)
    seed_key = seed_key_nb(seed)
    for game in range(first, first + count):
        state = stream_nb(seed_key, game)
        for seat in range(n):
            alive[seat] = 1
            place2[seat] = 0
            bet_net[seat] = 0
            matador_net[seat] = 0
        left = n
        matador = n - 1
        rounds = 0
        while left > 1:
            k = 0
            for offset in range(1, n + 1):
                seat = (matador + offset) % n
                if alive[seat]:
                    table.seat_of[k] = seat
                    k += 1
            state = deal_prefix_nb(table.pack, table.dealt, k, state)
            knocked_out, exposed = play_round_nb(table, k, codes)
            rounds += 1
            for p in range(k - 1):
                net = _bet_result(table.bet[p], knocked_out)
                bet_net[table.seat_of[p]] += net
                bet_net[matador] -= net
                matador_net[matador] -= net
            out_now = 1 if knocked_out else count_cards_nb(exposed)
            survivors = left - out_now
            for p in range(k):
                if (knocked_out and p == k - 1) or (p < k - 1 and _is_exposed(exposed, table.held[p])):
                    seat = table.seat_of[p]
                    alive[seat] = 0
                    place2[seat] = 2 * survivors + out_now + 1
            left = survivors
            seat = (matador + step) % n
            while not alive[seat] and left > 0:
                seat = (seat + step) % n
            matador = seat
        for seat in range(n):
            if alive[seat]:
                place2[seat] = 2
                out[seat, 0] += 1
            out[seat, 1] += place2[seat]
            out[seat, 2] += place2[seat] * place2[seat]
            out[seat, 3] += bet_net[seat]
            out[seat, 4] += bet_net[seat] * bet_net[seat]
            out[seat, 5] += matador_net[seat]
            out[seat, 6] += matador_net[seat] * matador_net[seat]
        out[n, 0] += rounds
        out[n, 1] += rounds * rounds


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over games ``first .. first+count-1`` of ``seed``, the first
    matador in seat ``n-1``.  Returns int64 ``[n + 1, width]`` (see ``GAME_OUTCOMES``)."""
    out = np.zeros((n + 1, GAME_WIDTH), dtype=np.int64)
    _game_sums_nb(
        rules,
        new_table_nb(policy),
        out,
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        n,
        seed,
        first,
        count,
    )
    return out


def play_dealt(rules: Rules, policy: np.ndarray, cards, log=None) -> dict:
    """Play one round from literal cards through the kernel (for stacked-deck tests).

    ``cards`` lists the card codes of positions 0 (the matador's left) .. k-1 (the
    matador), k >= 2; ``policy`` has one row per position.  ``log`` is accepted for the
    plain-Python twin's signature and left untouched.  Returns per-position lists
    ``exposed``, ``swap``, ``bet`` (+b against the matador, -b for it), ``bet_net``,
    ``final``, and ``knocked_out``.
    """
    cards = [int(c) for c in cards]
    k = len(cards)
    if k < 2:
        raise ValueError("a round needs at least two players.")
    table = new_table_nb(np.asarray(policy, dtype=np.float64)).view(np.recarray)[0]  # attribute access in Python too
    table.dealt[:k] = cards
    table.seat_of[:k] = np.arange(k)
    knocked_out, exposed = play_round_nb(table, k, rule_codes_nb(np.asarray(rules, dtype=np.int64)))
    held = table.held[:k].tolist()
    bets = table.bet[:k].tolist()
    nets = [int(_bet_result(bet, knocked_out)) for bet in bets[:-1]]
    return {
        "exposed": [int(exposed) >> card & 1 for card in held[:-1]] + [0],
        "swap": table.swapped[:k].tolist(),
        "bet": bets,
        "bet_net": nets + [-sum(nets)],
        "knocked_out": int(knocked_out),
        "final": held,
    }


SPEC = GameSpec(
    name="ace-chasing",
    title="Ace Chasing",
    summary="Everyone against the matador: lower cards and the suits of face-up aces are knocked out.",
    rules_type=Rules,
    policy_fields=POLICY_FIELDS,
    variants=VARIANTS,
    policies=POLICIES,
    outcomes={HANDS: HAND_OUTCOMES, GAMES: GAME_OUTCOMES},
    headline={HANDS: "exposed", GAMES: "win"},
    min_players=4,
    max_players=52,
    default_players=8,
    kernel_version=1,
    check=check,
    kernels={HANDS: simulate_hands_nb, GAMES: simulate_games_nb},
    twin="sims.twins.ace_chasing",
    exact="sims.twins.ace_chasing_exact",
    bench_players=(4, 8, 20),
    strategy_fields=("threshold", "matador_right_threshold"),
    last_seat_role="matador",
)
