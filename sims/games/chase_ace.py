"""Chase the Ace (Cuckoo, Screw Your Neighbour, Le Her), as this kernel plays it.

Implements ../shared/rules/chase-ace.md. Where that file leaves a point open, the reading
taken here is marked (reading).

Cards and ranks
  A card is code = suit*13 + face, face 0=A, 1=2, ..., 9=10, 10=J, 11=Q, 12=K.
  Suits never matter. Rank order low to high: A 2 3 ... 10 J Q K (rank = face); with
  ace_high: 2 3 ... K A (rank = (face + 12) % 13). The TOP card (the blocker, "the king"
  in the rules below) is the K, or the A with ace_high. "Queen" and "jack" are the faces
  Q and J in either order. Policies speak of rank1 = rank + 1 (1..13), so threshold 0
  never swaps and 13 always swaps.

Seating and the deal (one round)
  The m active players are taken in turn order starting at the dealer's left and ending
  with the dealer: position 0 is the eldest hand, position m-1 the dealer. In hand mode
  m = n and position k is seat k (dealer in the last seat). The round's stream deals the
  first m+1 cards of a Fisher-Yates shuffle (sims.core.deck.deal_prefix): card k goes to
  position k, card m is the cut card, drawn whether or not the dealer cuts.

Rule switches (integer codes in brackets)
  lives (1..10, default 3)
  tie: all-lowest-lose [0] (every holder of the lowest rank loses), cancel-matches [1]
    (ranks held by two or more players are dropped; the holder of the lowest remaining
    unique rank loses; nobody loses if every rank is shared), earliest-seat-loses [2]
    (the tied lowest player earliest in turn order loses), latest-seat-loses [3] (the
    latest; the dealer counts as last), ties-to-dealer [4] (two players only: the
    non-dealer loses when its rank is <= the dealer's, else the dealer loses).
  kings: block [0], none [1], freeze-if-dealt [2], stop-all-on-attempt [3],
    skip-to-next [4].
  king_reveal: on-attempt [0], at-deal [1].
  dealer_king_block: 1 (default) or 0.
  queens: off [0], on [1].
  jacks: off [0], holder-moves [1], holder-skipped [2].
  final_tie: split [0], replay [1], cut-high [2], carry-with-stake [3], carry-no-stake [4].
  ace_high: 0 (default) or 1.

Per-seat policy (one row per seat; a seat keeps its row whatever position it has)
  threshold (0..13), threshold_mix (0..1), informed (0 or 1).

The non-dealers' turns, positions k = 0 .. m-2 in order
  Skip the turn (KEEP, no draw) when any of these holds, checked in this order:
    1. exchanging has ended for the round (freeze-if-dealt with a TOP card dealt, or
       stop-all-on-attempt after an attempt on a TOP card);
    2. the player holds the TOP card (now);
    3. the player's turn is lost (holder-skipped jack rule, below).
  Otherwise decide SWAP or KEEP:
    a. informed=1 and the player's right-hand neighbour (position k-1) has just completed
       an exchange with it on its (k-1's) own turn (not via a queen redirection, not via
       skip-to-next), and the rank the player received is higher than the rank it gave:
       KEEP.
    b. king_reveal=at-deal, kings is block or stop-all-on-attempt, and the target (position
       k+1) holds a TOP card that was dealt to it: KEEP (reading: a player who can see the
       attempt is futile, or would stop all exchanges, does not make it).
    c. threshold: SWAP if rank1 <= threshold; if rank1 == threshold + 1 and
       0 < threshold_mix < 1, draw u = stream.uniform() and SWAP if u < threshold_mix;
       if rank1 == threshold + 1 and threshold_mix >= 1, SWAP without a draw; otherwise KEEP.
       (Only this case ever draws.)
  SWAP is an attempt on the target t = k+1 (the dealer, for k = m-2). Resolve it:
    - t holds TOP and kings != none: the TOP card is shown.
        block: no exchange; t's own later turn is a forced KEEP anyway (it holds TOP).
        stop-all-on-attempt: no exchange, and exchanging ends for the round (the dealer
          does not cut).
        skip-to-next: the requester exchanges instead with the first position after t,
          going up to the dealer, that does not hold TOP (every TOP passed over is shown);
          if there is none, no exchange. The skip-to player must accept (no queen or jack
          rule applies to it).
        (freeze-if-dealt never reaches here: a dealt TOP card freezes the round at once.)
    - else, queens=on and t holds a queen: the queen is shown, and the requester must
      exchange instead with r = its right-hand neighbour (k-1; for k=0 this is the dealer,
      m-1). If r == t (two players) or r holds a queen: no exchange. If r holds TOP and
      kings != none: resolve as an attempt on a TOP card by the kings rule, except that
      skip-to-next blocks (no exchange). If jacks != off and r holds a jack: blocked as by
      the jack rule (the jack rule's skip applies to r if r has not had its turn, i.e.
      r is the dealer). Otherwise the requester and r exchange cards.
    - else, jacks != off and t holds a jack: the jack is shown, no exchange; with
      holder-skipped, t's own turn is lost (if t is the dealer, the dealer cannot cut).
    - else the requester and t exchange cards.

The dealer's turn (position m-1)
  KEEP without a draw if exchanging has ended, the dealer holds TOP, or its turn is lost.
  Otherwise:
    a. informed=1 and the last non-dealer (m-2) has just completed an exchange with the
       dealer on its own turn: CUT exactly when the rank received is lower than the rank
       given, else KEEP (no draw).
    b. otherwise the threshold rule c. above (same draw rule).
  CUT: the cut card (card m of the deal) is shown. If it is TOP and dealer_king_block=1,
  the dealer keeps its card; otherwise the cut card replaces the dealer's card.

Showdown: the tie rule above picks the losers among the m positions' final cards.

Hand mode outputs (seat = position, dealer is seat n-1), per hand:
  per seat: lose_life (1 if the seat lost a life), exchange (1 if the seat completed an
  exchange on its own turn: its attempt, redirected or not, ended in an exchange, or, for
  the dealer, it cut and took the cut card).
  table: losers (number of players who lost a life), losers_sq (its square),
  no_loser (1 if nobody lost).

Game mode (one game = one stream (seed, game index), rounds drawn from it in sequence)
  Every player starts with `lives` lives; the first dealer is seat n-1, so seat 0 is the
  eldest hand of the first round (reading: a fixed first dealer makes per-starting-seat
  results meaningful; a random first dealer is their average).
  Each round: deal and play as above among the active players; each loser loses a life
  and pays one unit into the pot. A player with no lives left is out.
  Final tie: when every active player is a loser and each has exactly one life:
    split: all of them are joint winners and share the pot equally.
    replay: nobody loses a life (nobody pays); the next round is played by the same
      players.
    cut-high: the tied players (in turn order of that round) each take one card from a
      fresh deal: deal_prefix(stream, k) for the k tied players; the highest rank wins the
      whole pot (rank order of the game: with ace_high the ace is highest); players
      tied on the top rank cut again from a fresh deal among
      themselves (in the same order), until one is highest.
    carry-with-stake / carry-no-stake: the game is undecided and the pot is carried: a
      continuation game starts at once among all n original players with full lives,
      the deal rotating on as usual; with carry-with-stake lives lost in the continuation
      are paid into the pot as usual; with carry-no-stake they are not paid (the
      continuation is played for the carried pot alone). Repeats if the continuation also
      ends undecided. Its rounds count toward the game's rounds.
  A game still undecided after 100000 rounds (never seen in practice) stops: truncated=1,
  nobody receives the pot, each player's net is minus what it paid.
  After each round (and after a replay) the deal passes to the next active player
  clockwise from the previous dealer's seat (even if that dealer has just gone out).
  Game mode outputs, per game:
    per seat: win (sole winner: the last survivor or the cut-high winner), split_win
    (joint winner under split), net_chips (units received from the pot minus units paid,
    stored in twelfths of a unit so split pots stay integers), net_chips_sq (its square,
    in 144ths).
    table: rounds, rounds_sq, final_tie (number of times the final-tie rule fired in the
    game), final_tie_sq, carried (number of times the pot was carried), carried_sq,
    truncated (1 if the game hit the round cap).
"""

from __future__ import annotations

from typing import Annotated, NamedTuple

import numpy as np
from numba import njit

from sims.core.deck import JACK, N_CARDS, QUEEN, deal_prefix_nb
from sims.core.rng import seed_key_nb, stream_nb, uniform_below_nb, uniform_bound_nb
from sims.spec import GAMES, HANDS, GameSpec, Outcomes, PolicyField, PolicyPreset, Switch, Variant, kernel_around_loop

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


THRESHOLD, THRESHOLD_MIX, INFORMED = range(3)
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
GAME_OUTCOMES = Outcomes(
    seat=("win", "split_win", "net_chips", "net_chips_sq"),
    signed=("net_chips",),
    table=("rounds", "rounds_sq", "final_tie", "final_tie_sq", "carried", "carried_sq", "truncated"),
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
)
MAX_ROUNDS = 100_000


def check(rules: Rules, policy: np.ndarray, n_seats: int) -> None:
    """Raise ``ValueError`` with a sentence when the table cannot be played."""
    if not 2 <= n_seats <= 51:
        raise ValueError(f"Chase the Ace needs 2 to 51 players (one card each and one to cut), not {n_seats}.")
    if rules.tie == TIE_TO_DEALER and n_seats != 2:
        raise ValueError("tie=ties-to-dealer is the two-player Le Her rule; use it with --players 2.")


# ----------------------------------------------------------------------------------------
# Kernels

HAND_WIDTH = HAND_OUTCOMES.width  # plain ints: the kernels cannot read Outcomes
GAME_WIDTH = GAME_OUTCOMES.width
TOP_RANK = 12

MAX_POSITIONS = 51  # players at most (one card each and one to cut)
# Entries of each per-position and per-seat array: every position and the cut card, a
# multiple of 4 (see sims.core.deck).
SLOTS = MAX_POSITIONS + 1
assert SLOTS % 4 == 0


# A block's scratch is one record of this type (see sims.core.deck for the pattern), made
# once per block by new_table_nb, which fills in the rank table and the policy words so
# that rounds read no rules or policy arrays.  Per-position arrays are indexed by
# position this round (0 = eldest .. m-1 = dealer), per-seat arrays by seat.
TABLE = np.dtype(
    [
        ("pack", np.int64, N_CARDS),  # the pack being shuffled (sims.core.deck.deal_prefix_nb)
        ("dealt", np.int64, SLOTS),  # the round's deal: a card per position, then the cut card
        ("rank_of", np.int64, N_CARDS),  # rank of every card code, 0 lowest .. 12 top
        ("seat_of", np.int64, SLOTS),  # per position: its seat this round
        ("held", np.int64, SLOTS),  # per position: the card it holds
        ("held_rank", np.int64, SLOTS),  # per position: that card's rank (saves a lookup)
        ("lose", np.int64, SLOTS),  # per position: 1 if it loses a life
        ("exchanged", np.int64, SLOTS),  # per position: 1 if it completed an exchange on its turn
        ("lost_turn", np.int64, SLOTS),  # per position: 1 if its turn is lost (jack rule)
        ("candidate", np.int64, SLOTS),  # game mode: the seats cutting for a cut-high final tie
        ("decision", np.int64, SLOTS),  # per seat: its policy as one word of rank masks (below)
        ("mix", np.int64, SLOTS),  # per seat: its threshold_mix as an integer bound (below)
        ("lose_sum", np.int64, SLOTS),  # hand mode, per seat: lives lost
        ("exchange_sum", np.int64, SLOTS),  # hand mode, per seat: exchanges completed
    ]
)


# A seat's ``decision`` word: bit r (r = 0..12) is set when it swaps (or cuts) holding rank
# r, that is rank1 <= threshold and r is not the TOP rank (whose holder always keeps); bit
# MIXED_SHIFT + r when rank r is decided by threshold_mix (rank1 == threshold + 1, not
# TOP, mix > 0); bit INFORMED_BIT when the seat is informed.  One load and a shift decide.
MIXED_SHIFT = 16
INFORMED_BIT = 32

# ``mix`` holds 0 for a mix of 0 (never swap), uniform_bound_nb(mix) <= MIX_ALWAYS for a mix
# drawn from the stream, and MIX_ALWAYS + 1 for a mix of 1 (swap without a draw).
MIX_ALWAYS = 1 << 53

R_LIVES, R_TIE, R_KINGS, R_REVEAL, R_DEALER_KING_BLOCK, R_QUEENS, R_JACKS, R_FINAL_TIE, R_ACE_HIGH = range(9)


@njit(cache=True)
def new_table_nb(rules, policy):
    """A one-record ``TABLE`` array for ``rules`` and ``policy``: the rank table and each
    seat's decision word and mix bound filled in, every other array zero.  Kernels work on
    its record, ``tables[0]``."""
    n = policy.shape[0]
    tables = np.zeros(1, dtype=TABLE)
    table = tables[0]
    for seat in range(n):
        threshold = np.int64(policy[seat, THRESHOLD])
        mix = policy[seat, THRESHOLD_MIX]
        table.mix[seat] = MIX_ALWAYS + 1 if mix >= 1.0 else uniform_bound_nb(mix)
        word = (1 << min(threshold, TOP_RANK)) - 1  # ranks below the threshold, never TOP
        if threshold < TOP_RANK and table.mix[seat] != 0:
            word |= 1 << (MIXED_SHIFT + threshold)
        if policy[seat, INFORMED] > 0.5:
            word |= 1 << INFORMED_BIT
        table.decision[seat] = word
    for code in range(N_CARDS):
        face = code % 13
        table.rank_of[code] = (face + 12) % 13 if rules[R_ACE_HIGH] else face
    return tables


@njit(cache=True, inline="always")
def _mixed_swap_nb(mix_bound, state):
    """A card ranking exactly ``threshold + 1`` swaps with probability ``threshold_mix``,
    given as its ``mix`` bound ``mix_bound``: drawing from the stream only when the mix is
    strictly between 0 and 1 (:func:`sims.core.rng.uniform_below_nb`).  Returns ``(swap,
    state)``."""
    if mix_bound > MIX_ALWAYS:
        return True, state
    return uniform_below_nb(state, mix_bound)


@njit(cache=True, inline="always")
def _attempt_on_shown_card_nb(table, k, t, dealer, kings, queens_on, jacks):
    """Position ``k`` tries to swap with ``t``, who holds a card that is shown: the top
    card (kings rule), a queen (queen rule) or a jack (jack rule).  Makes the exchange the
    rule allows, if any; returns True when exchanging ends for the round."""
    partner = -1
    ended = False
    target_card = table.held[t]
    if table.held_rank[t] == TOP_RANK and kings != KINGS_NONE:
        if kings == KINGS_STOP_ALL:
            ended = True
        elif kings == KINGS_SKIP:
            u = t + 1
            while u <= dealer and table.held_rank[u] == TOP_RANK:
                u += 1
            if u <= dealer:
                partner = u
    elif queens_on and target_card % 13 == QUEEN:
        r = k - 1 if k > 0 else dealer
        right_card = table.held[r]
        if r == t or right_card % 13 == QUEEN:
            pass
        elif table.held_rank[r] == TOP_RANK and kings != KINGS_NONE:
            if kings == KINGS_STOP_ALL:
                ended = True
        elif jacks != JACKS_OFF and right_card % 13 == JACK:
            if jacks == JACKS_HOLDER_SKIPPED:
                table.lost_turn[r] = 1
        else:
            partner = r
    elif jacks == JACKS_HOLDER_SKIPPED:  # a shown jack: no exchange; its holder's turn is lost
        table.lost_turn[t] = 1
    if partner >= 0:
        card = table.held[partner]
        table.held[partner] = table.held[k]
        table.held[k] = card
        rank = table.held_rank[partner]
        table.held_rank[partner] = table.held_rank[k]
        table.held_rank[k] = rank
        table.exchanged[k] = 1
    return ended


# The rule fields the round reads (lives and final_tie act in game mode, ace_high through
# the rank table), in the order of play_round_nb's ``codes``.
ROUND_RULE_FIELDS = (R_TIE, R_KINGS, R_REVEAL, R_DEALER_KING_BLOCK, R_QUEENS, R_JACKS)


@njit(cache=True, inline="always")
def rule_codes_nb(rules):
    """The values of ``ROUND_RULE_FIELDS`` as one tuple.  Kernels read them once per block
    (or take them as compile-time constants), so no hand loads them from memory."""
    f = ROUND_RULE_FIELDS
    return (rules[f[0]], rules[f[1]], rules[f[2]], rules[f[3]], rules[f[4]], rules[f[5]])


@njit(cache=True, inline="always")
def play_round_nb(table, m, state, codes):
    """Play one round among ``m`` positions (0 = eldest, ``m-1`` = dealer).

    Reads the deal (``m`` cards, then the cut card) from ``table.dealt`` and the seat of
    each position from ``table.seat_of`` (policies belong to seats); writes the final
    cards, the losers and the completed exchanges to ``held``, ``lose`` and
    ``exchanged``.  ``state`` is the round's stream, used for mixed decisions only;
    ``codes`` is :func:`rule_codes_nb`'s tuple.  Returns
    ``(number of losers, state)``.

    The decisions are data-dependent coin flips for a branch predictor, so the common path
    computes them as boolean masks and selects; branches remain only where a rule or a
    mixed policy makes them rare (shown kings, queens and jacks, mixed draws).
    """
    tie, kings, reveal, dealer_king_block, queens, jacks = codes
    kings_act = kings != KINGS_NONE
    # Kings that divert an attempt (stop everything, or skip to the next player) go the
    # slow way; under "block" an attempt on a king simply makes no exchange.
    kings_divert = kings == KINGS_STOP_ALL or kings == KINGS_SKIP
    reveal_blocks = reveal == REVEAL_AT_DEAL and (kings == KINGS_BLOCK or kings == KINGS_STOP_ALL)
    queens_on = queens != 0
    face_rules_on = queens_on or jacks != JACKS_OFF
    # Under the rules whose attempts move cards outside the chain of neighbours (diverting
    # kings, queens, jacks) or end it (a dealt king freezing the round), every position's
    # card lives in the held rows.  Otherwise a position's card, when its turn comes, is
    # the one the previous turn left it, so the chain carries it in `card` and `rank` and
    # writes each position's final card once.
    rows_kept = kings_divert or face_rules_on or kings == KINGS_FREEZE
    dealer = m - 1
    ended = False
    if rows_kept:
        for k in range(m):
            card = table.dealt[k]
            table.held[k] = card
            table.held_rank[k] = table.rank_of[card]
            table.lost_turn[k] = 0
            table.exchanged[k] = 0  # for the turns an ended round never reaches
        if kings == KINGS_FREEZE:
            for k in range(m):
                ended |= table.held_rank[k] == TOP_RANK

    card = table.dealt[0]
    rank = table.rank_of[np.uint64(card)]
    # (Indices loaded from memory are made unsigned: Numba checks a signed one for a
    # negative value.)  Position k received its card by the previous position's exchange, giving a card of
    # rank `given_rank` for it (what an informed player compares).
    received = False
    given_rank = 0
    lowest = TOP_RANK  # the lowest final rank (of the chain; the held rows under rows_kept)
    for k in range(dealer):
        if ended:
            break
        if rows_kept:
            card = table.held[k]
            rank = table.held_rank[k]
        seat = table.seat_of[k]
        decision = table.decision[np.uint64(seat)]
        t = k + 1
        target_card = table.held[t] if rows_kept else table.dealt[t]
        target_rank = table.rank_of[np.uint64(target_card)]
        target_on_top = target_rank == TOP_RANK
        keep = ((decision >> INFORMED_BIT) != 0) & received & (rank > given_rank)
        keep |= reveal_blocks & target_on_top
        if face_rules_on:
            keep |= table.lost_turn[k] != 0
        swap = ((decision >> rank) & 1) != 0
        if (((decision >> (MIXED_SHIFT + rank)) & 1) != 0) & (not keep):
            swap, state = _mixed_swap_nb(table.mix[np.uint64(seat)], state)
        swap &= not keep
        special = kings_divert & target_on_top
        if face_rules_on:  # only the queen and jack rules look at faces
            face = target_card % 13
            special |= (queens_on & (face == QUEEN)) | ((jacks != JACKS_OFF) & (face == JACK))
        table.exchanged[k] = 0
        if swap & special:
            ended = _attempt_on_shown_card_nb(table, k, t, dealer, kings, queens_on, jacks)
            received = False
            continue
        exchange = swap & (not (kings_act & target_on_top))
        table.held[k] = target_card if exchange else card
        table.held_rank[k] = target_rank if exchange else rank
        table.exchanged[k] = exchange
        lowest = min(lowest, target_rank if exchange else rank)
        if rows_kept:
            table.held[t] = card if exchange else target_card
            table.held_rank[t] = rank if exchange else target_rank
        received = exchange
        given_rank = target_rank
        card = card if exchange else target_card
        rank = rank if exchange else target_rank

    if rows_kept:
        card = table.held[dealer]
        rank = table.held_rank[dealer]
    received &= not ended
    seat = table.seat_of[dealer]
    decision = table.decision[np.uint64(seat)]
    may_cut = (not ended) & (rank != TOP_RANK)
    if face_rules_on:
        may_cut &= table.lost_turn[dealer] == 0
    informed = ((decision >> INFORMED_BIT) != 0) & received
    cut = (rank < given_rank) if informed else ((decision >> rank) & 1) != 0
    if may_cut & (not informed) & (((decision >> (MIXED_SHIFT + rank)) & 1) != 0):
        cut, state = _mixed_swap_nb(table.mix[np.uint64(seat)], state)
    cut_card = table.dealt[m]
    cut_rank = table.rank_of[np.uint64(cut_card)]
    take = may_cut & cut & (not ((cut_rank == TOP_RANK) & (dealer_king_block != 0)))
    table.held[dealer] = cut_card if take else card
    table.held_rank[dealer] = cut_rank if take else rank
    table.exchanged[dealer] = take
    lowest = min(lowest, cut_rank if take else rank)
    if rows_kept:
        lowest = TOP_RANK
        for k in range(m):
            lowest = min(lowest, table.held_rank[k])
    return _showdown_nb(table, m, tie, lowest), state


@njit(cache=True, inline="always")
def _showdown_nb(table, m, tie, lowest):
    """Mark the losers in ``table.lose`` (1, else 0) under the ``tie`` rule, ``lowest``
    being the lowest rank held; return how many there are."""
    losers = 0
    if tie == TIE_ALL_LOWEST:
        for k in range(m):
            lose = table.held_rank[k] == lowest
            table.lose[k] = lose
            losers += lose
    else:  # one loser at most
        loser = _single_loser_nb(table, m, tie, lowest)
        for k in range(m):
            table.lose[k] = k == loser
        losers = loser >= 0
    return losers


@njit(cache=True, inline="always")
def _single_loser_nb(table, m, tie, lowest):
    """The position that loses under a tie rule with one loser at most (-1: nobody);
    ``lowest`` is the lowest rank held."""
    loser = -1
    if tie == TIE_EARLIEST:
        for k in range(m - 1, -1, -1):
            loser = k if table.held_rank[k] == lowest else loser
    elif tie == TIE_LATEST:
        for k in range(m):
            loser = k if table.held_rank[k] == lowest else loser
    elif tie == TIE_TO_DEALER:
        loser = 0 if table.held_rank[0] <= table.held_rank[m - 1] else m - 1
    else:  # cancel-matches: the holder of the lowest rank that nobody else holds loses
        seen = 0
        shared = 0
        for k in range(m):
            bit = 1 << table.held_rank[k]
            shared |= seen & bit
            seen |= bit
        unique = seen & ~shared
        rank = -1  # the lowest unique rank (-1: none, and nobody holds it)
        for r in range(TOP_RANK, -1, -1):
            rank = r if (unique >> r) & 1 else rank
        for k in range(m):
            loser = k if table.held_rank[k] == rank else loser
    return loser


@njit(cache=True)
def new_hand_table_nb(rules, policy, n):
    """The scratch and the zeroed sums of a hand-mode block: ``(tables, out)``."""
    tables = new_table_nb(rules, policy)
    table = tables[0]
    for seat in range(n):
        table.seat_of[seat] = seat
    return tables, np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)


@njit(cache=True, inline="always")
def _hand_sums_nb(tables, out, n, seed, first, count, codes):
    """Hand mode's loop, for both hand kernels: the sums of hands ``first .. first+count-1``
    into ``out``.  ``codes`` are the rule values of :func:`rule_codes_nb`, read from the
    rules or fixed at compile time.  Its callers are compiled without NRT (they allocate
    nothing): with it, every hand paid atomic reference-count operations on the arrays it
    binds to inlined functions' arguments."""
    table = tables[0]
    seed_key = seed_key_nb(seed)
    for hand in range(first, first + count):
        state = stream_nb(seed_key, hand)
        state = deal_prefix_nb(table.pack, table.dealt, n + 1, state)
        losers, state = play_round_nb(table, n, state, codes)
        for seat in range(n):
            table.lose_sum[seat] += table.lose[seat]
            table.exchange_sum[seat] += table.exchanged[seat]
        out[n, 0] += losers
        out[n, 1] += losers * losers
        out[n, 2] += losers == 0
    for seat in range(n):
        out[seat, 0] = table.lose_sum[seat]
        out[seat, 1] = table.exchange_sum[seat]


@njit(cache=True, nogil=True, _nrt=False)
def _generic_hand_sums_nb(rules, tables, out, n, seed, first, count):
    _hand_sums_nb(tables, out, n, seed, first, count, rule_codes_nb(rules))


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over hands ``first .. first+count-1`` of ``seed``, the
    dealer in seat ``n-1``.  Returns int64 ``[n + 1, width]``: seat rows, then the table
    row (see ``HAND_OUTCOMES``).  Any rules (see :func:`fixed_hands_kernel`)."""
    tables, out = new_hand_table_nb(rules, policy, n)
    _generic_hand_sums_nb(rules, tables, out, n, seed, first, count)
    return out


def fixed_hands_kernel(codes: tuple):
    """:func:`simulate_hands_nb` compiled for one tuple of :func:`rule_codes_nb`: the rule
    tests fold away at compile time, and with them the held rows that only the rare rules
    need (standard rules, 8 players: 27% fewer instructions, half the branch mispredictions,
    about 1.6 times as fast as the generic kernel).  Each tuple is a compile of a few seconds and a cache file of about
    90 KB, so ``SPEC`` uses it for the standard rules only (``fixed_kernels``).  Same sums
    as the generic kernel for rules with these codes.  The kernel is a Python function
    around the compiled parts (:func:`sims.spec.kernel_around_loop`)."""
    codes = tuple(int(code) for code in codes)

    @njit(cache=True, nogil=True, _nrt=False)
    def fixed_hand_sums_nb(tables, out, n, seed, first, count):
        _hand_sums_nb(tables, out, n, seed, first, count, codes)

    return kernel_around_loop(new_hand_table_nb, fixed_hand_sums_nb)


def hand_rule_codes(rules) -> tuple:
    """:func:`rule_codes_nb` in Python (the key of a fixed-rules kernel)."""
    return tuple(int(rules[field]) for field in ROUND_RULE_FIELDS)


@njit(cache=True, _nrt=False)
def _cut_high_nb(table, k, state):
    """The ``k`` tied players in ``table.candidate`` cut from fresh deals until one cuts the
    highest rank alone; returns ``(winning seat, state)``."""
    while k > 1:
        state = deal_prefix_nb(table.pack, table.dealt, k, state)
        best = -1
        for j in range(k):
            best = max(best, table.rank_of[table.dealt[j]])
        kept = 0
        for j in range(k):
            if table.rank_of[table.dealt[j]] == best:
                table.candidate[kept] = table.candidate[j]
                kept += 1
        k = kept
    return table.candidate[0], state


@njit(cache=True, inline="always")
def _next_active(lives, dealer, n):
    """The next player clockwise from ``dealer``'s seat who still has lives."""
    seat = (dealer + 1) % n
    while lives[seat] == 0:
        seat = (seat + 1) % n
    return seat


@njit(cache=True, nogil=True, _nrt=False)
def _game_sums_nb(rules, tables, out, lives, paid, share, n, seed, first, count):
    """Game mode's loop: the sums of games ``first .. first+count-1`` into ``out``;
    ``lives``, ``paid`` and ``share`` (twelfths of a unit received from the pot) are
    per-seat scratch.  It allocates nothing and is compiled without NRT, so the record
    ``tables[0]`` is used while its caller holds ``tables``."""
    table = tables[0]
    lives_at_start = rules[R_LIVES]
    final_tie = rules[R_FINAL_TIE]
    codes = rule_codes_nb(rules)
    seed_key = seed_key_nb(seed)
    for game in range(first, first + count):
        state = stream_nb(seed_key, game)
        for seat in range(n):
            lives[seat] = lives_at_start
            paid[seat] = 0
            share[seat] = 0
        pot = 0
        paying = True
        dealer = n - 1
        rounds = 0
        final_ties = 0
        carried = 0
        truncated = 0
        while True:
            m = 0
            seat = (dealer + 1) % n
            for _ in range(n):
                if lives[seat] > 0:
                    table.seat_of[m] = seat
                    m += 1
                seat = (seat + 1) % n
            if m == 1:
                share[table.seat_of[0]] = 12 * pot
                out[table.seat_of[0], 0] += 1
                break
            if rounds >= MAX_ROUNDS:
                truncated = 1
                break
            state = deal_prefix_nb(table.pack, table.dealt, m + 1, state)
            losers, state = play_round_nb(table, m, state, codes)
            rounds += 1
            everyone_out = losers == m
            for k in range(m):
                if lives[table.seat_of[k]] != 1:
                    everyone_out = False
            if everyone_out:
                final_ties += 1
                if final_tie == FINAL_REPLAY:
                    dealer = _next_active(lives, dealer, n)
                    continue
                for k in range(m):
                    lives[table.seat_of[k]] = 0
                    if paying:
                        paid[table.seat_of[k]] += 1
                        pot += 1
                if final_tie == FINAL_SPLIT:
                    for k in range(m):
                        share[table.seat_of[k]] = 12 * pot // m
                        out[table.seat_of[k], 1] += 1
                    break
                if final_tie == FINAL_CUT_HIGH:
                    for k in range(m):
                        table.candidate[k] = table.seat_of[k]
                    winner, state = _cut_high_nb(table, m, state)
                    share[winner] = 12 * pot
                    out[winner, 0] += 1
                    break
                # carry-with-stake / carry-no-stake: a continuation game for the carried pot
                carried += 1
                if final_tie == FINAL_CARRY_NO_STAKE:
                    paying = False
                for s in range(n):
                    lives[s] = lives_at_start
            else:
                for k in range(m):
                    if table.lose[k]:
                        lives[table.seat_of[k]] -= 1
                        if paying:
                            paid[table.seat_of[k]] += 1
                            pot += 1
            dealer = _next_active(lives, dealer, n)
        for seat in range(n):
            net = share[seat] - 12 * paid[seat]
            out[seat, 2] += net
            out[seat, 3] += net * net
        out[n, 0] += rounds
        out[n, 1] += rounds * rounds
        out[n, 2] += final_ties
        out[n, 3] += final_ties * final_ties
        out[n, 4] += carried
        out[n, 5] += carried * carried
        out[n, 6] += truncated


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over games ``first .. first+count-1`` of ``seed``, the first
    dealer in seat ``n-1``.  Returns int64 ``[n + 1, width]`` (see ``GAME_OUTCOMES``)."""
    out = np.zeros((n + 1, GAME_WIDTH), dtype=np.int64)
    _game_sums_nb(
        rules,
        new_table_nb(rules, policy),
        out,
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        n,
        seed,
        first,
        count,
    )
    return out


def play_dealt(rules: Rules, policy: np.ndarray, cards, stream=None, log=None) -> dict:
    """Play one round from literal cards through the kernel (for stacked-deck tests).

    ``cards`` lists the card codes of positions 0 (eldest) .. m-1 (dealer), then the cut
    card; ``policy`` has one row per position.  Mixed decisions draw from ``stream`` (a
    :class:`sims.core.rng.Stream`, advanced in place), as the plain-Python twin's
    ``play_dealt`` does: without one, a round that needs a draw raises ``ValueError``.
    ``log`` is accepted for the same signature and left untouched.
    Returns ``{"lose", "exchange", "final"}`` lists per position.
    """
    cards = [int(c) for c in cards]
    m = len(cards) - 1
    check(rules, policy, m)
    policy = np.asarray(policy, dtype=np.float64)
    rules_array = np.asarray(rules, dtype=np.int64)
    table = new_table_nb(rules_array, policy).view(np.recarray)[0]  # attribute access in Python too
    table.dealt[: m + 1] = cards
    table.seat_of[:m] = np.arange(m)
    words = stream.s if stream is not None else [1, 2, 3, 4]
    state = tuple(np.uint64(word) for word in words)
    _, state = play_round_nb(table, m, state, rule_codes_nb(rules_array))
    if stream is not None:
        stream.s = [int(word) for word in state]
    elif [int(word) for word in state] != [1, 2, 3, 4]:
        raise ValueError("this round needs a mixed-strategy draw: pass a stream.")
    return {"lose": table.lose[:m].tolist(), "exchange": table.exchanged[:m].tolist(), "final": table.held[:m].tolist()}


SPEC = GameSpec(
    name="chase-ace",
    title="Chase the Ace",
    summary="One card each; swap with your left-hand neighbour or keep; the lowest card loses a life.",
    rules_type=Rules,
    policy_fields=POLICY_FIELDS,
    variants=VARIANTS,
    policies=POLICIES,
    outcomes={HANDS: HAND_OUTCOMES, GAMES: GAME_OUTCOMES},
    headline={HANDS: "lose_life", GAMES: "win"},
    min_players=2,
    max_players=51,
    default_players=8,
    kernel_version=1,
    check=check,
    kernels={HANDS: simulate_hands_nb, GAMES: simulate_games_nb},
    fixed_kernels={HANDS: (hand_rule_codes, fixed_hands_kernel, (hand_rule_codes(Rules()),))},
    twin="sims.twins.chase_ace",
    exact="sims.twins.chase_ace_exact",
    bench_players=(4, 8, 20),
    strategy_fields=("threshold",),
    report_players=tuple(range(3, 11)),
)
