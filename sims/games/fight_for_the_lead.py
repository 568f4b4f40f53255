"""Fight for the Lead, as this kernel plays it.

Implements ../shared/rules/fight-for-the-lead.md (the pagat page by Jay Noack is the only
source).  Where the rules leave a point open, the reading taken here is marked (reading).

Cards and ranks
  A card is code = suit*13 + face (sims.core.deck): suits clubs, diamonds, hearts, spades
  = 0..3, face 0=A, 1=2, ..., 9=10, 10=J, 11=Q, 12=K.  There are no trumps; within a suit
  A (high) K Q J 10 ... 2.  Policies speak of a card's rank value 2..14 (J=11, Q=12,
  K=13, A=14).  "The lowest card" of a set means the lowest rank value, ties going to the
  lower suit (clubs first); "the highest card" the highest rank value, ties again to the
  lower suit.

Stakes
  ante: chips each player pays into the pot before the first hand of a game; 0 (default)
  means the smallest ante that makes the pot n*ante divisible by 4, which is 4/gcd(n, 4).
  Each trick pays P/4 to its winner, where P is the pot at stake; every player who played
  and took no trick pays P into the next pot, so P_next = L*P for L such losers.  Players
  who drop pay and win nothing.  Chips are exact integers.

The pack of one hand
  The pack starts in code order 0..51.  Cards are drawn one at a time from the top; the
  draw at pack position t (t = cards already drawn from this pack, pack size m) first
  swaps position t with position t + below(m - t) (a lazy Fisher-Yates shuffle on the
  hand's stream), then takes position t.  So the first draws are exactly
  sims.core.deck.deal_prefix.  Cards go out in this order:
  1. the deal: draw k = 0 .. 4n-1 goes to seat (dealer + 1 + k) mod n (one at a time,
     clockwise from the dealer's left);
  2. the fight's turned cards (step 4 below);
  3. the replacements (step 5);
  4. the trades (step 7).
  Discards are collected in a pile, in this order: the turned cards (in the order
  turned), then the fight cards (seat order from the dealer's left), then each trader's
  discards (in trade order; one trader's discards by suit clubs..spades, and within a
  suit from 2 up to A).  Reshuffling (replacement or trade_exhaust below) makes the pile,
  in pile order, a new pack of size m = pile size; the pile is emptied and drawing goes
  on at t = 0 with the same lazy Fisher-Yates draws.
  Stacked decks (play_dealt) use the same order with no swaps: the pack is the listed
  cards then every other card in code order, and a reshuffled pile is drawn in pile order.

Rule switches (integer codes in brackets)
  ante: 0..100 (default 0 = automatic, above); n*ante must be divisible by 4.
  dealer_rotates: true (default): the deal passes one seat to the left every hand.
  trade_in_first_hand: true (default): players may trade in a compulsory hand too.
  trade_order: from-dealer-left [0] (default) | from-lead-winner [1].
  trade_exhaust: reshuffle-discards [0] (default) | serve-until-empty [1] | cap-equal [2].
  all_drop: forced-replay [0] (default) | replay-optional [1] | refund-split [2].
  fight_exhaust: highest-rank-any-suit [0] (default) | eldest-gets-lead [1].
  max_hands: 1..1000 (default 200): a game still going after this many hands is stopped
    as truncated.
  sample_hand: later [0] (default) | first [1]: hand mode only (reading: the rules
    define a game, so hand mode needs to say which hand of a game it samples): a later
    hand, where players may drop, or the compulsory first hand.
  Players: 2 to 9, and 10 only with trade_exhaust=reshuffle-discards.

Per-seat policy (one row per seat; every field is a whole number)
  fight_card: lowest [0] (default) | highest [1] | highest-non-ace [2] (the highest card
    that is not an ace; a hand of four aces gives its lowest-suit ace) |
    lowest-of-longest-suit [3] (the suit holding most cards, ties to the lower suit; its
    lowest card).
  stay_min_strength 0..9 (default 1): stay in when the hand's strength score reaches it.
    Strength score = 2 per ace + 1 per guarded king (a king with at least one other card
    of its suit in the hand).  So 0 always stays and 9 never stays on strength alone.
  stay_with_lead 0|1 (default 1): always stay when you won the fight.
  keep_min_rank 2..15 (default 12): trade away every card whose rank value is below it;
    2 keeps everything and 15 trades all four.
  play_style: greedy [0] (default) | high [1]; see card play below.

One hand (dealer D, pot P at stake, compulsory or not)
  1. Deal four cards to each seat (above).
  2. Fight card: every seat, at once, lays down one of its four cards by its fight_card
     policy.  Everyone fights, including players who will drop.
  3. The fight cards are public.
  4. Fight: draw (turn) a card; if some fight card has its suit, the highest fight card
     of that suit wins the lead; otherwise turn the next card, and so on.  If the pack
     runs out with no match (fight_exhaust): highest-rank-any-suit gives the lead to the
     highest fight card of any suit, ties to the first such seat clockwise from the
     dealer's left; eldest-gets-lead gives it to seat D+1.  The turned cards are public.
  5. Replacement: the turned cards and then the fight cards go to the pile; each seat,
     clockwise from the dealer's left, draws one card.  (Reading: if the pack is empty
     here, which needs n >= 9 and a long fight, the pile is reshuffled into a new pack
     whatever trade_exhaust says, because every player must hold four cards.)
  6. Stay or drop, all at once: in a compulsory hand everyone plays.  Otherwise a seat
     plays when (stay_with_lead = 1 and it won the fight) or its strength score
     >= stay_min_strength, else it drops.
     * Nobody plays (all_drop): forced-replay and replay-optional carry the pot to the
       next hand unchanged with nobody paying (the next hand is compulsory under
       forced-replay, open under replay-optional); refund-split pays every seat P/n and
       ends the game.  Nothing else happens in this hand.
     * Exactly one plays: it takes all four tricks and the whole pot, and the game ends.
       (Reading: there is no trading and no play, since nothing could change.)
  7. Trading (two or more playing), unless the hand is compulsory and
     trade_in_first_hand is false.  The leader is the fight winner if it plays, else the
     next playing seat clockwise from it.  Traders are the playing seats in clockwise
     order, starting with the first playing seat at or after D+1 (from-dealer-left) or
     with the leader (from-lead-winner).  S = the cards left in the pack when trading starts.  Each
     trader wants to trade the k cards ranked below its keep_min_rank and is allowed
       reshuffle-discards: min(k, pack left + pile size if the pile has not yet been
         reshuffled during this trading, else pack left);
       serve-until-empty: min(k, pack left);
       cap-equal: min(k, S // number playing).
     With fewer allowed than wanted (the hand's stock_short flag), it trades the lowest
     `allowed` of the cards it wanted.  It discards them, then draws as many one at a
     time; when the pack is empty (reshuffle-discards only) the pile, which does not yet
     hold this trader's discards, becomes the new pack (at most once per trading).  Then
     its discards join the pile.
  8. Card play: four tricks among the playing seats.  The leader leads the first; each
     trick goes clockwise among the playing seats; a player must follow the suit led if
     able (sims.core.tricks, FOLLOW_SUIT), otherwise plays any card; the highest card of
     the suit led wins, and its player leads the next trick.
     Dead cards (public, out of play): the fight cards and turned cards still in the
     pile (a reshuffle puts them back into play, so it empties the dead set) and every
     card played so far in the hand.  A sure winner is a card in hand such that every
     higher card of its suit is in the player's own hand or dead.
       greedy: lead the highest sure winner if you hold one (so aces first), else the
         lowest card.  Following: when able to follow, play the lowest card of the suit
         led that beats the card now winning the trick, or if none does, the lowest card
         of the suit led; when void, the lowest card.
       high: lead the highest card; when able to follow, the highest card of the suit
         led; when void, the lowest card.
  9. Settlement (stakes above).  The game goes on while P_next > 0.

Games (game mode)
  One game = one stream (seed, game index); every hand resets the pack to code order and
  draws go on from the same stream.  Each seat antes; the first dealer is seat n-1
  (reading: a fixed first dealer makes per-starting-seat results meaningful); the first
  hand is compulsory; the dealer moves one seat left after every hand, all-drop hands
  included, when dealer_rotates.  The game ends when the pot is empty (everyone who
  played took a trick, or a lone player took it all) or after refund-split.  It is
  stopped as truncated, and the pot carried over split equally among all seats (reading:
  an abandoned game shares out its pot, so chips are conserved), when a hand leaves a
  pot to carry and either max_hands hands have been played or the pot to carry exceeds
  POT_LIMIT = 2**48 chips (overflow: exact integer chips could not go on).  P is always
  a multiple of n and of 4, so every share is a whole number of chips.

Hand mode outputs (dealer = seat n-1, pot P = n*ante, per hand)
  per seat: dropped (1 if the seat dropped), lead (1 if it won the fight), took_0 ..
    took_4 (1 if it played and took that many tricks), net and net_sq (chips won from
    the pot minus chips paid into the next one; a refund-split share counts as won),
    traded and traded_sq (cards traded).
  table: all_dropped, players_in and players_in_sq (seats that played), losers and
    losers_sq (L), turned and turned_sq (cards turned in the fight), stock_short (some
    trader was allowed fewer cards than it wanted), reshuffled (the pile was made a
    new pack).
Game mode outputs (per game)
  per seat: net and net_sq (chips at the end of the game minus chips at the start, antes
    included; wide columns: exact however large), profit (1 if net > 0).
  table: hands and hands_sq (hands dealt), truncated (stopped by max_hands or
    overflow), overflow (stopped by the pot limit), largest_pot (the largest pot at
    stake in any hand: a maximum, not a sum), and length_<bucket> (1 if the game lasted
    that many hands; buckets 1, 2, 3, 4, 5-8, 9-16, 17-32, 33+).
"""

from __future__ import annotations

import math
from typing import Annotated, NamedTuple

import numpy as np
from numba import njit

from sims.core.deck import FIRST_GAME_ROW, N_CARDS, ROW
from sims.core.rng import below_nb, seed_key_nb, stream_nb
from sims.core.tricks import (
    FOLLOW_SUIT,
    RANK_COLUMN,
    RANKED_SUIT,
    above_nb,
    count_cards_nb,
    highest_bit_nb,
    highest_card_nb,
    legal_cards_nb,
    lowest_bit_nb,
    lowest_card_nb,
)
from sims.core.wide import add_wide_nb, add_wide_square_nb
from sims.spec import GAMES, HANDS, GameSpec, Outcomes, PolicyField, PolicyPreset, Switch, Variant

TRADE_FROM_DEALER_LEFT, TRADE_FROM_LEAD_WINNER = range(2)
RESHUFFLE_DISCARDS, SERVE_UNTIL_EMPTY, CAP_EQUAL = range(3)
FORCED_REPLAY, REPLAY_OPTIONAL, REFUND_SPLIT = range(3)
HIGHEST_RANK_ANY_SUIT, ELDEST_GETS_LEAD = range(2)
SAMPLE_LATER, SAMPLE_FIRST = range(2)
FIGHT_LOWEST, FIGHT_HIGHEST, FIGHT_HIGHEST_NON_ACE, FIGHT_LOWEST_OF_LONGEST = range(4)
STYLE_GREEDY, STYLE_HIGH = range(2)
POT_LIMIT = 1 << 48
MIN_PLAYERS, MAX_PLAYERS = 2, 10


class Rules(NamedTuple):
    """Table rules of Fight for the Lead (see the module docstring for what each value does)."""

    ante: Annotated[int, Switch(
        "chips each player antes; 0 = the smallest ante that makes the pot divisible by 4",
        lo=0, hi=100)] = 0
    dealer_rotates: Annotated[bool, Switch("the deal passes one seat to the left every hand")] = True
    trade_in_first_hand: Annotated[bool, Switch(
        "players may trade in the compulsory first hand too")] = True
    trade_order: Annotated[int, Switch(
        "who trades first: the dealer's left, or the winner of the lead",
        choices=("from-dealer-left", "from-lead-winner"))] = TRADE_FROM_DEALER_LEFT
    trade_exhaust: Annotated[int, Switch(
        "when the stock runs out in trading: reshuffle the discards, serve in order until empty, "
        "or cap every trader at stock // players",
        choices=("reshuffle-discards", "serve-until-empty", "cap-equal"))] = RESHUFFLE_DISCARDS
    all_drop: Annotated[int, Switch(
        "when everyone drops: replay with everyone forced in, replay with dropping allowed, "
        "or split the pot and end the game",
        choices=("forced-replay", "replay-optional", "refund-split"))] = FORCED_REPLAY
    fight_exhaust: Annotated[int, Switch(
        "when the stock runs out in the fight: the highest fight card of any suit, or the "
        "eldest hand, wins the lead",
        choices=("highest-rank-any-suit", "eldest-gets-lead"))] = HIGHEST_RANK_ANY_SUIT
    max_hands: Annotated[int, Switch(
        "a game still going after this many hands is stopped and counted as truncated",
        lo=1, hi=1000)] = 200
    sample_hand: Annotated[int, Switch(
        "hand mode only: sample a later hand (players may drop) or the compulsory first hand",
        choices=("later", "first"))] = SAMPLE_LATER


FIGHT_CARD, STAY_MIN_STRENGTH, STAY_WITH_LEAD, KEEP_MIN_RANK, PLAY_STYLE = range(5)
POLICY_FIELDS = (
    PolicyField("fight_card", FIGHT_LOWEST, 0, 3, "which card to lay down in the fight", integer=True,
                choices=("lowest", "highest", "highest-non-ace", "lowest-of-longest-suit")),
    PolicyField("stay_min_strength", 1, 0, 9,
                "stay in a later hand when 2 per ace + 1 per guarded king reaches this (0 always stays)",
                integer=True),
    PolicyField("stay_with_lead", 1, 0, 1, "1: always stay after winning the fight", integer=True),
    PolicyField("keep_min_rank", 12, 2, 15,
                "trade away every card ranked below this (J=11 Q=12 K=13 A=14; 2 keeps all, 15 trades all)",
                integer=True),
    PolicyField("play_style", STYLE_GREEDY, 0, 1,
                "greedy: sure winners first, win cheaply, else throw low; high: always play the highest",
                integer=True, choices=("greedy", "high")),
)

VARIANTS = {
    "standard": Variant({}, "the pagat rules with the usual readings: rotating deal, trading in every hand "
                            "from the dealer's left, reshuffled discards, forced replay when all drop"),
    "fixed-dealer": Variant({"dealer_rotates": 0}, "the same player deals every hand"),
    "no-first-trade": Variant({"trade_in_first_hand": 0}, "no trading in the compulsory first hand"),
    "lead-trades-first": Variant({"trade_order": TRADE_FROM_LEAD_WINNER}, "the winner of the lead trades first"),
    "serve-until-empty": Variant({"trade_exhaust": SERVE_UNTIL_EMPTY},
                                 "trades are served in order until the stock is empty"),
    "cap-equal": Variant({"trade_exhaust": CAP_EQUAL}, "every trader may swap at most stock // players cards"),
    "refund-split": Variant({"all_drop": REFUND_SPLIT}, "when everyone drops, the pot is split and the game ends"),
}

POLICIES = {
    "default": PolicyPreset({}, "fight with the lowest card, stay with an ace or a guarded king or the lead, "
                                "trade everything below a queen, greedy play"),
    "always-stay": PolicyPreset({"stay_min_strength": 0}, "never drop"),
    "cautious": PolicyPreset({"stay_min_strength": 2, "stay_with_lead": 0}, "stay only with an ace (or more)"),
    "no-trade": PolicyPreset({"keep_min_rank": 2}, "never trade"),
    "fight-high": PolicyPreset({"fight_card": FIGHT_HIGHEST_NON_ACE},
                               "fight with the highest card that is not an ace"),
    "play-high": PolicyPreset({"play_style": STYLE_HIGH}, "always play the highest card allowed"),
}

LENGTH_LABELS = ("1", "2", "3", "4", "5-8", "9-16", "17-32", "33+")
LENGTH_BUCKET_LOW = (1, 2, 3, 4, 5, 9, 17, 33)  # first game length of each bucket

HAND_OUTCOMES = Outcomes(
    seat=("dropped", "lead", "took_0", "took_1", "took_2", "took_3", "took_4", "net", "net_sq",
          "traded", "traded_sq"),
    table=("all_dropped", "players_in", "players_in_sq", "losers", "losers_sq", "turned", "turned_sq",
           "stock_short", "reshuffled"),
    help={"dropped": "probability the seat drops", "lead": "probability the seat wins the fight",
          "took_0": "probability the seat plays and takes no trick (and pays the pot)",
          "net": "expected chips won per hand, pot = players x ante",
          "traded": "cards traded per hand",
          "all_dropped": "probability everyone drops", "players_in": "players in per hand",
          "losers": "players who pay the pot per hand (the pot's multiplier)",
          "turned": "cards turned in the fight", "stock_short": "probability a trade is cut short",
          "reshuffled": "probability the discards are reshuffled"},
)
GAME_OUTCOMES = Outcomes(
    seat=("net", "net_sq", "profit"),
    table=("hands", "hands_sq", "truncated", "overflow", "largest_pot")
    + tuple(f"length_{label}" for label in LENGTH_LABELS),
    help={"net": "expected chips won per game (antes included)", "profit": "probability the seat ends ahead",
          "hands": "hands per game", "truncated": "probability a game is stopped (max_hands or overflow)",
          "overflow": "probability a game is stopped because the pot passed 2**48 chips",
          "largest_pot": "largest pot seen"},
    groups={"length": ("game length in hands", LENGTH_LABELS)},
    limbs={"net": 2, "net_sq": 4},
    maxima=("largest_pot",),
)


def ante_for(rules: Rules, n_seats: int) -> int:
    """The ante each player pays: the rule's, or the smallest making n*ante divisible by 4."""
    return int(rules.ante) if rules.ante else 4 // math.gcd(n_seats, 4)


def check(rules: Rules, policy: np.ndarray, n_seats: int) -> None:
    """Raise ``ValueError`` with a sentence when the table cannot be played."""
    if not MIN_PLAYERS <= n_seats <= MAX_PLAYERS:
        raise ValueError(f"Fight for the Lead needs 2 to 10 players (the pack holds 5 cards each), not {n_seats}.")
    if n_seats == MAX_PLAYERS and rules.trade_exhaust != RESHUFFLE_DISCARDS:
        raise ValueError("10 players need trade_exhaust=reshuffle-discards: the stock is nearly empty after the fight.")
    if rules.ante and (n_seats * rules.ante) % 4:
        raise ValueError(f"the pot {n_seats} x ante {rules.ante} = {n_seats * rules.ante} is not divisible by 4; "
                         f"choose an ante that makes it so (or 0 for the smallest).")



# ---------------------------------------------------------------------------------- Kernels
#
# Cards are ranked bits (sims.core.tricks): bit = 16 * suit + order, order 0 = the 2 ...
# 12 = the ace, so bit order is rank order inside a suit, and a hand is a 64-bit mask.
# The pack holds bits too (its "code order" is the bits of codes 0..51), so a drawn card
# needs no translation; play_dealt translates to card codes at the end.  The pack, the
# pile and every per-seat result live in one flat int64 workspace of 52-entry rows (see
# sims.core.deck), the hands in a small uint64 array: hot code calls no function that
# takes an array.

HAND_WIDTH = HAND_OUTCOMES.kernel_width  # plain ints: the kernels cannot read Outcomes
GAME_WIDTH = GAME_OUTCOMES.kernel_width
N_RULES = len(Rules._fields)
R_ANTE, R_ROTATES, R_TRADE_FIRST, R_TRADE_ORDER, R_TRADE_EXHAUST, R_ALL_DROP, R_FIGHT_EXHAUST, R_MAX_HANDS, \
    R_SAMPLE_HAND = range(N_RULES)

DECK_ROW = 0  # the pack (bits): positions below `top` are drawn
PILE_ROW = FIRST_GAME_ROW + 0 * ROW  # discards (bits), in pile order
BIT_ROW = FIRST_GAME_ROW + 1 * ROW  # card code -> ranked bit: the pack in code order
RULES_ROW = FIRST_GAME_ROW + 2 * ROW
FIGHT_ROW = FIRST_GAME_ROW + 5 * ROW  # each seat's fight card (bit)
PLAYING_ROW = FIRST_GAME_ROW + 6 * ROW
TRADED_ROW = FIRST_GAME_ROW + 7 * ROW
WON_ROW = FIRST_GAME_ROW + 8 * ROW  # tricks taken
NET_ROW = FIRST_GAME_ROW + 9 * ROW
ORDER_ROW = FIRST_GAME_ROW + 10 * ROW  # the playing seats, clockwise from the dealer's left
TURNED_ROW = FIRST_GAME_ROW + 11 * ROW  # cards turned in the fight (bits)
PLAYED_ROW = FIRST_GAME_ROW + 12 * ROW  # card played: trick * MAX_PLAYERS + place (bits; stacked hands only)
PLAYED_SEAT_ROW = FIRST_GAME_ROW + 13 * ROW  # ... and who played it
INFO_ROW = FIRST_GAME_ROW + 14 * ROW  # the hand's scalar results, I_* below
POLICY_ROW = FIRST_GAME_ROW + 15 * ROW  # policy field f of seat s at POLICY_ROW + f * ROW + s
ACC_ROW = POLICY_ROW + len(POLICY_FIELDS) * ROW  # hand-mode sums, ACC_STRIDE per seat
ACC_STRIDE = 16
N_WORK_ROWS = (ACC_ROW - FIRST_GAME_ROW) // ROW + (MAX_PLAYERS + 1) * ACC_STRIDE // ROW + 1
I_LEAD, I_LEADER, I_PLAYERS_IN, I_LOSERS, I_TURNED, I_STOCK_SHORT, I_RESHUFFLED, I_ALL_DROPPED, I_POT_NEXT, \
    I_TRICK_LEADERS, I_TRICK_WINNERS = 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 20
# The uint64 mask array: hands, then each seat's trade-away mask.
TRADE_AWAY = 16

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_SUIT_BITS = np.uint64(0x1FFF)  # the 13 orders of one suit
_ALL_CARDS = _SUIT_BITS * RANK_COLUMN  # the 52 bits in use
_MOVES_1, _MOVES_2, _MOVES_4, _MOVES_8 = (~(np.uint64((1 << k) - 1) * RANK_COLUMN) for k in (1, 2, 4, 8))
ACES = RANK_COLUMN << np.uint64(12)
ACE_ORDER, KING_ORDER = 12, 11
_LANE_NONZERO = np.uint64(0x7FFF7FFF7FFF7FFF)


@njit(cache=True, inline="always")
def _suit_mask(bit):
    """The mask of the suit of a ranked bit."""
    return _SUIT_BITS << (bit & np.uint64(0x30))


@njit(cache=True, inline="always")
def fight_card_nb(hand, choice):
    """The ranked bit a seat lays down in the fight (policy field fight_card)."""
    if choice == FIGHT_LOWEST:
        return lowest_card_nb(hand)
    if choice == FIGHT_HIGHEST:
        return highest_card_nb(hand)
    if choice == FIGHT_HIGHEST_NON_ACE:
        others = hand & ~ACES
        return highest_card_nb(others if others else hand)
    longest = _ZERO
    most = 0
    for suit in range(4):
        in_suit = hand & (_SUIT_BITS << np.uint64(16 * suit))
        count = count_cards_nb(in_suit)
        if count > most:
            most = count
            longest = in_suit
    return lowest_bit_nb(longest)


@njit(cache=True, inline="always")
def strength_nb(hand):
    """Strength score: 2 per ace + 1 per king with another card of its suit in hand."""
    kings = (hand >> np.uint64(KING_ORDER)) & RANK_COLUMN  # one flag per suit, in bit 0 of its 16
    others = hand & ~(RANK_COLUMN << np.uint64(KING_ORDER))
    # A suit's 16 bits hold less than 2**13 here, so adding 0x7FFF sets bit 15 exactly when
    # the suit holds another card, without carrying into the next suit.
    guarded = kings & ((others + _LANE_NONZERO) >> np.uint64(15))
    return 2 * count_cards_nb(hand & ACES) + count_cards_nb(guarded)


@njit(cache=True, inline="always")
def lead_card_nb(hand, dead, style):
    """The card a seat leads (play_style; see the module docstring)."""
    if style == STYLE_HIGH:
        return highest_card_nb(hand)
    # A sure winner lies above every card of its suit that may still be out: smear each
    # suit's unknown cards down to the suit's lowest order, and keep what is above.
    # (A bit only moves when it stays inside its suit, hence the masks.)
    below = _ALL_CARDS & ~(hand | dead)
    below |= (below & _MOVES_1) >> np.uint64(1)
    below |= (below & _MOVES_2) >> np.uint64(2)
    below |= (below & _MOVES_4) >> np.uint64(4)
    below |= (below & _MOVES_8) >> np.uint64(8)
    sure = hand & ~below
    if sure:
        return highest_card_nb(sure)
    return lowest_card_nb(hand)


@njit(cache=True, inline="always")
def follow_card_nb(hand, led, winning, style):
    """The card a seat plays to a trick led in suit mask ``led`` that ``winning`` now wins."""
    legal = legal_cards_nb(hand, led, _ZERO, FOLLOW_SUIT, _ZERO)
    if not legal & led:
        return lowest_card_nb(hand)
    if style == STYLE_HIGH:
        return highest_bit_nb(legal)
    beating = legal & above_nb(winning)
    return lowest_bit_nb(beating if beating else legal)


@njit(cache=True)
def new_table_nb(rules, policy, n):
    """The workspace and hand masks of a table: rules, policy and lookup rows filled in."""
    work = np.zeros(FIRST_GAME_ROW + N_WORK_ROWS * ROW, dtype=np.int64)
    masks = np.zeros(TRADE_AWAY + MAX_PLAYERS, dtype=np.uint64)
    for code in range(N_CARDS):
        work[BIT_ROW + code] = 16 * (code // 13) + (code % 13 + 12) % 13
    for r in range(rules.shape[0]):
        work[RULES_ROW + r] = rules[r]
    for seat in range(n):
        for field in range(policy.shape[1]):
            work[POLICY_ROW + field * ROW + seat] = np.int64(policy[seat, field])
        below = work[POLICY_ROW + KEEP_MIN_RANK * ROW + seat] - 2  # orders traded away: 0 .. below-1
        masks[TRADE_AWAY + seat] = np.uint64((1 << below) - 1) * RANK_COLUMN
    return work, masks


@njit(cache=True)
def play_hand_nb(work, masks, n, dealer, pot, compulsory, shuffle, state):
    """Play one hand (module docstring, steps 1-9) and return the advanced stream state.

    The pack row must hold the pack (code order for a random hand, the stacked order
    otherwise); ``shuffle`` = 0 draws it without swaps.  Results go to the rows
    FIGHT..PLAYED_SEAT and INFO (I_*).
    """
    # One draw of the lazy Fisher-Yates pack is written out where it is needed (deal,
    # fight, replacement, trades): a helper taking the workspace would cost a call with
    # an array argument per card.
    top = 0
    size = N_CARDS
    for i in (I_LOSERS, I_STOCK_SHORT, I_RESHUFFLED, I_ALL_DROPPED, I_POT_NEXT):
        work[INFO_ROW + i] = 0
    for seat in range(n):
        masks[seat] = _ZERO
        work[PLAYING_ROW + seat] = 0
        work[TRADED_ROW + seat] = 0
        work[WON_ROW + seat] = 0
        work[NET_ROW + seat] = 0

    # 1. The deal, one card at a time from the dealer's left.
    seat = dealer
    for k in range(4 * n):
        seat = seat + 1 if seat + 1 < n else 0
        j = top
        if shuffle:
            j, state = below_nb(state, size - top)
            j += top
        card = work[DECK_ROW + j]
        work[DECK_ROW + j] = work[DECK_ROW + top]
        work[DECK_ROW + top] = card
        top += 1
        masks[seat] |= _ONE << np.uint64(card)

    # 2-3. Fight cards, chosen at once.
    fight_bits = _ZERO
    for seat in range(n):
        bit = fight_card_nb(masks[seat], work[POLICY_ROW + FIGHT_CARD * ROW + seat])
        masks[seat] &= ~(_ONE << bit)
        fight_bits |= _ONE << bit
        work[FIGHT_ROW + seat] = bit
    fight_suits = 0
    for suit in range(4):
        if fight_bits & (_SUIT_BITS << np.uint64(16 * suit)):
            fight_suits |= 1 << suit

    # 4. The fight: turn cards until one matches a fight card's suit.
    lead = -1
    turned = 0
    while top < size:
        j = top
        if shuffle:
            j, state = below_nb(state, size - top)
            j += top
        card = work[DECK_ROW + j]
        work[DECK_ROW + j] = work[DECK_ROW + top]
        work[DECK_ROW + top] = card
        top += 1
        work[TURNED_ROW + turned] = card
        turned += 1
        suit = card >> 4
        if (fight_suits >> suit) & 1:
            best = highest_bit_nb(fight_bits & (_SUIT_BITS << np.uint64(16 * suit)))
            lead = 0
            while work[FIGHT_ROW + lead] != best:
                lead += 1
            break
    if lead < 0:  # the stock ran out with no match
        lead = dealer + 1 if dealer + 1 < n else 0
        if work[RULES_ROW + R_FIGHT_EXHAUST] == HIGHEST_RANK_ANY_SUIT:
            best_order = -1
            for offset in range(1, n + 1):
                seat = (dealer + offset) % n
                order = work[FIGHT_ROW + seat] & 15
                if order > best_order:
                    best_order = order
                    lead = seat
    work[INFO_ROW + I_LEAD] = lead
    work[INFO_ROW + I_TURNED] = turned

    # 5. Turned cards, then fight cards, to the pile; one replacement each.
    pile = 0
    for i in range(turned):
        work[PILE_ROW + pile] = work[TURNED_ROW + i]
        pile += 1
    seat = dealer
    for i in range(n):
        seat = seat + 1 if seat + 1 < n else 0
        work[PILE_ROW + pile] = work[FIGHT_ROW + seat]
        pile += 1
    dead = fight_bits
    for i in range(turned):
        dead |= _ONE << np.uint64(work[TURNED_ROW + i])
    seat = dealer
    for i in range(n):
        seat = seat + 1 if seat + 1 < n else 0
        if top == size:  # only with n >= 9 after a long fight
            size, top, pile, dead = _reshuffle_pile(work, pile)
            work[INFO_ROW + I_RESHUFFLED] = 1
        j = top
        if shuffle:
            j, state = below_nb(state, size - top)
            j += top
        card = work[DECK_ROW + j]
        work[DECK_ROW + j] = work[DECK_ROW + top]
        work[DECK_ROW + top] = card
        top += 1
        masks[seat] |= _ONE << np.uint64(card)

    # 6. Stay or drop, at once.
    playing = 0
    seat = dealer
    for i in range(n):
        seat = seat + 1 if seat + 1 < n else 0
        stays = compulsory or (work[POLICY_ROW + STAY_WITH_LEAD * ROW + seat] and seat == lead) \
            or strength_nb(masks[seat]) >= work[POLICY_ROW + STAY_MIN_STRENGTH * ROW + seat]
        if stays:
            work[PLAYING_ROW + seat] = 1
            work[ORDER_ROW + playing] = seat
            playing += 1
    work[INFO_ROW + I_PLAYERS_IN] = playing
    work[INFO_ROW + I_LEADER] = -1
    if playing == 0:
        work[INFO_ROW + I_ALL_DROPPED] = 1
        if work[RULES_ROW + R_ALL_DROP] == REFUND_SPLIT:
            for seat in range(n):
                work[NET_ROW + seat] = pot // n
        else:
            work[INFO_ROW + I_POT_NEXT] = pot
        return state
    if playing == 1:
        seat = work[ORDER_ROW]
        work[WON_ROW + seat] = 4
        work[NET_ROW + seat] = pot
        return state

    # The leader, and its place in the clockwise order of playing seats.
    leader = lead
    while not work[PLAYING_ROW + leader]:
        leader = leader + 1 if leader + 1 < n else 0
    leader_place = 0
    while work[ORDER_ROW + leader_place] != leader:
        leader_place += 1
    work[INFO_ROW + I_LEADER] = leader

    # 7. Trading.
    if not compulsory or work[RULES_ROW + R_TRADE_FIRST]:
        exhaust = work[RULES_ROW + R_TRADE_EXHAUST]
        cap = (size - top) // playing
        may_reshuffle = exhaust == RESHUFFLE_DISCARDS
        first = leader_place if work[RULES_ROW + R_TRADE_ORDER] == TRADE_FROM_LEAD_WINNER else 0
        for i in range(playing):
            place = first + i if first + i < playing else first + i - playing
            seat = work[ORDER_ROW + place]
            wanted = masks[seat] & masks[TRADE_AWAY + seat]
            if not wanted:
                continue
            want = count_cards_nb(wanted)
            allowed = size - top
            if may_reshuffle:
                allowed += pile
            elif exhaust == CAP_EQUAL:
                allowed = cap
            if allowed < want:
                work[INFO_ROW + I_STOCK_SHORT] = 1
                chosen = _ZERO
                for k in range(allowed):
                    low = lowest_card_nb(wanted & ~chosen)
                    chosen |= _ONE << low
                wanted = chosen
                want = allowed
            masks[seat] &= ~wanted
            work[TRADED_ROW + seat] = want
            for k in range(want):
                if top == size:
                    size, top, pile, dead = _reshuffle_pile(work, pile)
                    work[INFO_ROW + I_RESHUFFLED] = 1
                    may_reshuffle = False
                j = top
                if shuffle:
                    j, state = below_nb(state, size - top)
                    j += top
                card = work[DECK_ROW + j]
                work[DECK_ROW + j] = work[DECK_ROW + top]
                work[DECK_ROW + top] = card
                top += 1
                masks[seat] |= _ONE << np.uint64(card)
            while wanted:
                low = lowest_bit_nb(wanted)
                wanted &= wanted - _ONE
                work[PILE_ROW + pile] = low
                pile += 1

    # 8. Four tricks.
    place = leader_place
    for trick in range(4):
        work[INFO_ROW + I_TRICK_LEADERS + trick] = work[ORDER_ROW + place]
        led = _ZERO
        winning = _ZERO
        winner_place = place
        for k in range(playing):
            seat = work[ORDER_ROW + place]
            hand = masks[seat]
            style = work[POLICY_ROW + PLAY_STYLE * ROW + seat]
            if k == 0:
                bit = lead_card_nb(hand, dead, style)
                led = _suit_mask(bit)
                winning = bit
            else:
                bit = follow_card_nb(hand, led, winning, style)
                if (_ONE << bit) & led and bit > winning:
                    winning = bit
                    winner_place = place
            masks[seat] = hand & ~(_ONE << bit)
            dead |= _ONE << bit
            if not shuffle:  # a stacked hand keeps the log that play_dealt returns
                work[PLAYED_ROW + trick * MAX_PLAYERS + k] = bit
                work[PLAYED_SEAT_ROW + trick * MAX_PLAYERS + k] = seat
            place = place + 1 if place + 1 < playing else 0
        winner = work[ORDER_ROW + winner_place]
        work[WON_ROW + winner] += 1
        work[INFO_ROW + I_TRICK_WINNERS + trick] = winner
        place = winner_place

    # 9. Settlement.
    losers = 0
    for i in range(playing):
        seat = work[ORDER_ROW + i]
        won = work[WON_ROW + seat]
        if won:
            work[NET_ROW + seat] = won * (pot // 4)
        else:
            work[NET_ROW + seat] = -pot
            losers += 1
    work[INFO_ROW + I_LOSERS] = losers
    work[INFO_ROW + I_POT_NEXT] = losers * pot
    return state


@njit(cache=True)
def _reshuffle_pile(work, pile):
    """Make the pile (in pile order) the new pack; returns (size, top, pile, dead)."""
    for i in range(pile):
        work[DECK_ROW + i] = work[PILE_ROW + i]
    return pile, 0, 0, _ZERO



@njit(cache=True, inline="always")
def _reset_pack(work):
    for code in range(N_CARDS):
        work[DECK_ROW + code] = work[BIT_ROW + code]


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over hands ``first .. first+count-1`` of ``seed``, dealer in
    seat ``n-1``, pot n * ante.  Returns int64 ``[n + 1, width]`` (see ``HAND_OUTCOMES``)."""
    work, masks = new_table_nb(rules, policy, n)
    ante = rules[R_ANTE] if rules[R_ANTE] else 4 // _gcd4(n)
    pot = n * ante
    compulsory = rules[R_SAMPLE_HAND] == SAMPLE_FIRST
    table = ACC_ROW + n * ACC_STRIDE  # the sums live in the flat workspace until the end
    seed_key = seed_key_nb(seed)
    for hand in range(first, first + count):
        state = stream_nb(seed_key, hand)
        _reset_pack(work)
        state = play_hand_nb(work, masks, n, n - 1, pot, compulsory, True, state)
        for seat in range(n):
            acc = ACC_ROW + seat * ACC_STRIDE
            net = work[NET_ROW + seat]
            traded = work[TRADED_ROW + seat]
            if work[PLAYING_ROW + seat]:
                work[acc + 2 + work[WON_ROW + seat]] += 1
            else:
                work[acc] += 1
            work[acc + 7] += net
            work[acc + 8] += net * net
            work[acc + 9] += traded
            work[acc + 10] += traded * traded
        work[ACC_ROW + work[INFO_ROW + I_LEAD] * ACC_STRIDE + 1] += 1
        playing = work[INFO_ROW + I_PLAYERS_IN]
        losers = work[INFO_ROW + I_LOSERS]
        turned = work[INFO_ROW + I_TURNED]
        work[table] += work[INFO_ROW + I_ALL_DROPPED]
        work[table + 1] += playing
        work[table + 2] += playing * playing
        work[table + 3] += losers
        work[table + 4] += losers * losers
        work[table + 5] += turned
        work[table + 6] += turned * turned
        work[table + 7] += work[INFO_ROW + I_STOCK_SHORT]
        work[table + 8] += work[INFO_ROW + I_RESHUFFLED]
    out = np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)
    for row in range(n + 1):
        for column in range(HAND_WIDTH):
            out[row, column] = work[ACC_ROW + row * ACC_STRIDE + column]
    return out


@njit(cache=True, inline="always")
def _gcd4(n):
    """gcd(n, 4)."""
    return 4 if n % 4 == 0 else (2 if n % 2 == 0 else 1)


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over games ``first .. first+count-1`` of ``seed``, the first
    dealer in seat ``n-1``.  Returns int64 ``[n + 1, width]`` (see ``GAME_OUTCOMES``;
    net and net_sq in limbs, largest_pot a maximum)."""
    out = np.zeros((n + 1, GAME_WIDTH), dtype=np.int64)
    work, masks = new_table_nb(rules, policy, n)
    net = np.zeros(n, dtype=np.int64)
    ante = rules[R_ANTE] if rules[R_ANTE] else 4 // _gcd4(n)
    all_drop = rules[R_ALL_DROP]
    max_hands = rules[R_MAX_HANDS]
    seed_key = seed_key_nb(seed)
    for game in range(first, first + count):
        state = stream_nb(seed_key, game)
        for seat in range(n):
            net[seat] = -ante
        pot = n * ante
        dealer = n - 1
        compulsory = True
        hands = 0
        largest_pot = 0
        truncated = 0
        overflow = 0
        while True:
            _reset_pack(work)
            state = play_hand_nb(work, masks, n, dealer, pot, compulsory, True, state)
            hands += 1
            largest_pot = max(largest_pot, pot)
            for seat in range(n):
                net[seat] += work[NET_ROW + seat]
            carried = work[INFO_ROW + I_POT_NEXT]
            compulsory = work[INFO_ROW + I_ALL_DROPPED] == 1 and all_drop == FORCED_REPLAY
            if carried == 0:
                break
            if carried > POT_LIMIT or hands >= max_hands:
                truncated = 1
                overflow = 1 if carried > POT_LIMIT else 0
                for seat in range(n):
                    net[seat] += carried // n
                break
            pot = carried
            if rules[R_ROTATES]:
                dealer = dealer + 1 if dealer + 1 < n else 0
        for seat in range(n):
            add_wide_nb(out, seat, 0, net[seat])
            add_wide_square_nb(out, seat, 2, net[seat])
            out[seat, 6] += net[seat] > 0
        out[n, 0] += hands
        out[n, 1] += hands * hands
        out[n, 2] += truncated
        out[n, 3] += overflow
        out[n, 4] = max(out[n, 4], largest_pot)
        bucket = 0
        while bucket + 1 < len(LENGTH_BUCKET_LOW) and hands >= LENGTH_BUCKET_LOW[bucket + 1]:
            bucket += 1
        out[n, 5 + bucket] += 1
    return out


def play_dealt(rules: Rules, policy: np.ndarray, n_seats: int, cards, dealer: int | None = None,
               pot: int | None = None, compulsory: bool = False, log=None) -> dict:
    """Play one hand from a stacked pack (stacked-deck tests), through the kernel.

    ``cards`` are the top of the pack in draw order (distinct codes): the first 4n are
    dealt one at a time clockwise from the dealer's left, the rest are the stock; every
    card not listed follows in code order.  No shuffling: reshuffled piles are drawn in
    pile order.  ``policy`` has one row per seat.  ``dealer`` defaults to seat n-1,
    ``pot`` to n * ante; ``compulsory`` makes it a first hand.  ``log`` is accepted for
    the plain-Python twin's signature and left untouched.

    Returns a dict (card codes as in sims.core.deck; per-seat lists are indexed by seat):
      fight: each seat's fight card; turned: the turned cards in order; lead: the seat
      that won the fight; playing: 1/0 per seat; leader: the seat leading the first trick
      (-1 when fewer than two play); traded: cards each seat traded; held: each seat's
      four cards when play starts (after trading; for a seat that dropped, after the
      replacement), sorted by code; tricks: a list of (leader, [(seat, card), ...] in
      playing order, winner) for each trick played; won: tricks taken per seat; net:
      chips per seat (won from the pot minus paid, a refund-split share counting as won);
      pot_next: the pot carried to the next hand (0 when the game ends; P when everyone
      dropped under forced-replay or replay-optional); all_dropped, stock_short,
      reshuffled: 1/0 flags as in the hand mode outputs.
    """
    cards = [int(c) for c in cards]
    if len(set(cards)) != len(cards) or not all(0 <= c < N_CARDS for c in cards):
        raise ValueError("the stacked cards must be distinct card codes 0..51.")
    if len(cards) < 4 * n_seats:
        raise ValueError(f"a stacked pack must list at least the {4 * n_seats} cards of the deal.")
    rules_array = np.asarray([int(v) for v in rules], dtype=np.int64)
    work, masks = new_table_nb(rules_array, np.asarray(policy, dtype=np.float64), n_seats)
    pack = cards + [c for c in range(N_CARDS) if c not in set(cards)]
    work[DECK_ROW:DECK_ROW + N_CARDS] = [BIT_OF_CODE[c] for c in pack]
    dealer = n_seats - 1 if dealer is None else int(dealer)
    pot = n_seats * ante_for(rules, n_seats) if pot is None else int(pot)
    play_hand_nb(work, masks, np.int64(n_seats), np.int64(dealer), np.int64(pot), bool(compulsory), False,
                 stream_nb(seed_key_nb(np.uint64(0)), np.int64(0)))
    return _hand_result(work, masks, n_seats)


BIT_OF_CODE = [16 * (code // 13) + (code % 13 + 12) % 13 for code in range(N_CARDS)]
CODE_OF_BIT = {bit: code for code, bit in enumerate(BIT_OF_CODE)}


def _hand_result(work: np.ndarray, masks: np.ndarray, n: int) -> dict:
    """The play_dealt dict of the hand just played in ``work``."""
    info = work[INFO_ROW:INFO_ROW + ROW]
    playing = work[PLAYING_ROW:PLAYING_ROW + n].tolist()
    players = int(info[I_PLAYERS_IN])
    tricks = []
    if players >= 2:
        for trick in range(4):
            base = trick * MAX_PLAYERS
            plays = [(int(work[PLAYED_SEAT_ROW + base + k]), CODE_OF_BIT[work[PLAYED_ROW + base + k]])
                     for k in range(players)]
            tricks.append((int(info[I_TRICK_LEADERS + trick]), plays, int(info[I_TRICK_WINNERS + trick])))
    held = []
    for seat in range(n):
        cards = [code for code in range(N_CARDS) if int(masks[seat]) >> BIT_OF_CODE[code] & 1]
        if players >= 2 and playing[seat]:  # play emptied the hand: put its four cards back
            cards = sorted(card for trick in tricks for who, card in trick[1] if who == seat)
        held.append(sorted(cards))
    return {
        "fight": [CODE_OF_BIT[bit] for bit in work[FIGHT_ROW:FIGHT_ROW + n]],
        "turned": [CODE_OF_BIT[bit] for bit in work[TURNED_ROW:TURNED_ROW + int(info[I_TURNED])]],
        "lead": int(info[I_LEAD]),
        "playing": playing,
        "leader": int(info[I_LEADER]),
        "traded": work[TRADED_ROW:TRADED_ROW + n].tolist(),
        "held": held,
        "tricks": tricks,
        "won": work[WON_ROW:WON_ROW + n].tolist(),
        "net": work[NET_ROW:NET_ROW + n].tolist(),
        "pot_next": int(info[I_POT_NEXT]),
        "all_dropped": int(info[I_ALL_DROPPED]),
        "stock_short": int(info[I_STOCK_SHORT]),
        "reshuffled": int(info[I_RESHUFFLED]),
    }


SPEC = GameSpec(
    name="fight-for-the-lead",
    title="Fight for the Lead",
    summary="Four tricks, no trumps; win the fight for the lead, and anyone who plays and takes no trick "
            "matches the pot.",
    rules_type=Rules,
    policy_fields=POLICY_FIELDS,
    variants=VARIANTS,
    policies=POLICIES,
    outcomes={HANDS: HAND_OUTCOMES, GAMES: GAME_OUTCOMES},
    headline={HANDS: "net", GAMES: "net"},
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=4,
    kernel_version=1,
    check=check,
    kernels={HANDS: simulate_hands_nb, GAMES: simulate_games_nb},
    twin="sims.twins.fight_for_the_lead",
    bench_players=(4, 6, 8),
    last_seat_role="dealer",
)
