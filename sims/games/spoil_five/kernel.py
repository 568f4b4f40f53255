"""Spoil Five: the Numba kernels (one deal, one pool, one game, hand mode, game mode).

They play the rules contract in the package docstring (sims/games/spoil_five/__init__.py).

Cards are ranked bits (sims.core.tricks): bit = 16 * effective suit + order, with the
orders of the contract (rules.BIT), so a hand is a 64-bit mask and every choice a player
makes (legal cards, the cheapest, the strongest, the lowest card that wins, sure
winners) is a few mask operations.  The layout depends on the trump suit, so a deal draws
card codes and maps them once the turn-up is known.

State.  Every value a kernel keeps between its phases lives in one flat int64 workspace
of 52-entry rows (sims.core.deck: a record measured slower for this game), read and
written only through the named accessors below (``rule_nb``, ``tricks_nb``,
``add_paid_nb``, ``info_nb`` ...); the hands are a uint64 array of masks.  A phase writes
its results there (a deal's into the INFO slots ``I_*``, a pool's into ``PL_*``, a game's
into ``GM_*``) and returns at most a short tuple of the values the next phase works on.
"""

from __future__ import annotations

import numpy as np

from sims.core.deck import DEAL_ROW, DECK_ROW, FIRST_GAME_ROW, N_CARDS, ROW, draw_nb
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb
from sims.core.table_nb import NO_TABLE, table_action_nb
from sims.core.tricks import (
    RANKED_SUIT,
    above_nb,
    count_cards_nb,
    highest_bit_nb,
    highest_card_nb,
    lowest_bit_nb,
    lowest_card_nb,
    suit_of_bit_nb,
    tops_of_suits_nb,
)
from sims.games.spoil_five.rules import (
    ACE,
    ACE_OF_HEARTS,
    BIT,
    BONUS_DOUBLE_ANTE,
    BONUS_NONE,
    DEMOTED_ACE_ORDER,
    FIVE,
    FOLLOW_OR_TRUMP,
    FREE,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    HAND_SIZE,
    JACK,
    LENGTH_BUCKET_LOW,
    MAX_PLAYERS,
    POLICY_FIELDS,
    ROB_OBLIGATORY,
    TOPUP_ALL_BUT_DEALER,
    TOPUP_DEALER_ONLY,
    TRICKS,
    Rules,
)
from sims.games.spoil_five.table import JINX as JINX_ACTION
from sims.games.spoil_five.table import JINX_BOTH_SURE as JINX_BOTH_SURE_CELL
from sims.games.spoil_five.table import (
    JINX_DECISION,
    JINX_OFFSET,
    N_ACE_CELLS,
    OTHER_PLAIN,
    ROB_ACTION,
    ROB_DECISION,
    ROB_OFFSET,
    ROLE_DEALER,
    ROLE_ELDEST,
    ROLE_OTHER,
    TURNUP_CLASS,
)
from sims.spec import indices

# ------------------------------------------------------------------------ indices

HAND_WIDTH = HAND_OUTCOMES.kernel_width  # plain ints: the kernels cannot read Outcomes
GAME_WIDTH = GAME_OUTCOMES.kernel_width
H_WIN, H_SPOILER, H_JINX_CALLED, H_JINX_MADE, H_ROBBED, H_TRICKS, H_NET = indices(
    HAND_OUTCOMES.seat, "win", "spoiler", "jinx_called", "jinx_made", "robbed", "tricks", "net"
)
HT_SPOIL, HT_JINX, HT_ROB, HT_ACE_TURNED, HT_TRUMP_ACE_DEALT, HT_FORFEIT, HT_CARRIED = indices(
    HAND_OUTCOMES.table, "spoil", "jinx", "rob", "ace_turned", "trump_ace_dealt", "forfeit", "carried"
)
G_POOLS_WON, G_NET, G_DEAL_NET = indices(GAME_OUTCOMES.seat, "pools_won", "net", "deal_net")
GT_DEALS, GT_POOL_DEALS, GT_POOL_SIZE, GT_SPOILS, GT_TRUNCATED, GT_LEFT, GT_LENGTH = indices(
    GAME_OUTCOMES.table,
    "deals",
    "pool_deals",
    "pool_size",
    "spoils",
    "truncated",
    "left",
    "length_1",  # the first of the length buckets, which follow in LENGTH_BUCKET_LOW's order
)
assert HAND_OUTCOMES.squares_follow() and GAME_OUTCOMES.squares_follow()  # the kernels write X_sq at X + 1
N_RULES = len(Rules._fields)
(
    R_PLAIN_LEAD,
    R_ROB,
    R_UNROBBED_ACE_LOW,
    R_ANTE,
    R_DEALER_EXTRA,
    R_DEALER_EXTRA_EVERY_DEAL,
    R_SPOIL_TOPUP,
    R_TOPUP_AMOUNT,
    R_JINX,
    R_JINX_BONUS,
    R_MAX_DEALS,
) = indices(
    Rules,
    "plain_lead",
    "rob",
    "unrobbed_ace_low",
    "ante",
    "dealer_extra",
    "dealer_extra_every_deal",
    "spoil_topup",
    "topup_amount",
    "jinx",
    "jinx_bonus",
    "max_deals",
)
N_POLICY = len(POLICY_FIELDS)
P_ROB, P_JINX_MIN, P_SPOIL, P_RENEGE = indices(POLICY_FIELDS, "rob", "jinx_min", "spoil", "renege")

# ------------------------------------------------------------------------ the workspace
# Rows (sims.core.deck): the pack being drawn (DECK_ROW, so the workspace itself is the
# pack sims.core.deck.draw_nb draws from) and the codes dealt (DEAL_ROW), then:
RULES_ROW = FIRST_GAME_ROW + 0 * ROW  # the rules array, R_*
POLICY_ROW = FIRST_GAME_ROW + 1 * ROW  # policy field f of seat s at MAX_PLAYERS * f + s (P_*)
INFO_ROW = FIRST_GAME_ROW + 2 * ROW  # the slots below: a deal's, a pool's and a game's results
SEAT_ROW = FIRST_GAME_ROW + 3 * ROW  # per-seat counts: field f of seat s at MAX_PLAYERS * f + s (S_*)
LOG_ROW = FIRST_GAME_ROW + 4 * ROW  # stacked deals only: per trick leader, winner, the n cards (bits)
LOG_STRIDE = 2 + MAX_PLAYERS
N_WORK_ROWS = 4 + -(-TRICKS * LOG_STRIDE // ROW)
assert DECK_ROW == 0
# The INFO row.  A deal's results (I_*, the first N_INFO slots, copied into a stacked
# deal's log record):
N_INFO = 16
(
    I_DEALER,
    I_TURNUP,
    I_TRUMP,
    I_ROBBED_BY,
    I_DISCARD,
    I_FORFEITED,
    I_WINNER,
    I_SPOILED,
    I_SPOILER,
    I_JINX_BY,
    I_JINX_MADE,
    I_CLAIMED,
    I_TRICKS,
    I_ACE_TURNED,
    I_TRUMP_ACE_DEALT,
) = range(15)
# What only one seat of the deal knows besides its hand (the robber its discard, the holder
# of a demoted ace that ace's usual place), and the bit of a demoted ace (D_*); then a solve's
# record of the visit to the decision solved: its seat (-1: none), its cell, the action taken.
DEAL_SLOTS = N_INFO
D_PRIVATE_SEAT, D_PRIVATE_CARD, D_DEMOTED, D_VISIT_SEAT, D_VISIT_CELL, D_VISIT_ACTION = range(6)
# The per-seat 0/1 policy fields as bitmasks over the seats (F_*); the seats that decide the
# rob and the jinx on the slow path (a table, or every seat while that decision is solved);
# the decision a solve kernel solves (-1: none) and the action it forces there (-1: none).
FLAG_SLOTS = DEAL_SLOTS + 8
F_ROB, F_SPOIL, F_RENEGE, F_ROB_SLOW, F_JINX_SLOW, F_SOLVING, F_FORCE = range(7)
# A pool's results (PL_*): deals played, the chips in the pool at the end, the seat that
# took it (-1 if none), 1 if max_deals stopped it, the spoiled deals.
POOL_SLOTS = FLAG_SLOTS + 8
PL_DEALS, PL_CHIPS, PL_TAKEN_BY, PL_TRUNCATED, PL_SPOILS = range(5)
# A game's totals (GM_*): deals, pools, spoils, pools taken, chips of the pools taken, 1 if
# a pool was stopped, chips left on the table.
GAME_SLOTS = POOL_SLOTS + 8
GM_DEALS, GM_POOLS, GM_SPOILS, GM_TAKEN, GM_TAKEN_CHIPS, GM_TRUNCATED, GM_LEFT = range(7)
assert GAME_SLOTS + 7 <= ROW
# The SEAT row's fields: tricks won in the deal; chips paid into and received from the
# pool; over a game, chips won and pools taken.
S_TRICKS, S_PAID, S_RECEIVED, S_GAME_NET, S_POOLS_WON = range(5)
assert MAX_PLAYERS * 5 <= ROW
# The uint64 mask array: each seat's hand (emptied by play), then the public dead cards after
# the robbing and after each trick (M_DEAD).
M_DEAD = MAX_PLAYERS
N_MASKS = MAX_PLAYERS + 1

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_ALL = ~_ZERO
_NO_CARD = np.uint64(63)  # a bit no card uses (the layout's highest bit is 62)
# Per trump suit: the 52 cards' bits (before any ace is demoted), the ace of trumps' bit,
# the privileged trumps (5 and jack of trumps, Ah).  Indexed by an unsigned trump suit.
EVERYONE = np.array([sum(1 << int(b) for b in BIT[t]) for t in range(4)], dtype=np.uint64)
ACE_BIT = np.array([BIT[t, 13 * t + ACE] for t in range(4)], dtype=np.uint64)
PRIVILEGED = np.array(
    [
        (1 << int(BIT[t, 13 * t + FIVE])) | (1 << int(BIT[t, 13 * t + JACK])) | (1 << int(BIT[t, ACE_OF_HEARTS]))
        for t in range(4)
    ],
    dtype=np.uint64,
)
# BIT flattened and unsigned: the bit of code c with trumps t at 52 * t + c (an unsigned
# index spares Numba's negative-index checks, and the bit needs no conversion to shift by).
BIT_OF = BIT.reshape(-1).astype(np.uint64)

# ------------------------------------------------------------------------ accessors
# Seat and slot indices are unsigned: no negative-index checks.


@njit(cache=True, inline="always")
def rule_nb(work, r):
    """Rule ``r`` (R_*) of the table."""
    return work[RULES_ROW + r]


@njit(cache=True, inline="always")
def rules_of_nb(work):
    """The table's rules array (a view of the RULES row)."""
    return work[RULES_ROW : RULES_ROW + N_RULES]


@njit(cache=True, inline="always")
def set_rule_nb(work, r, value):
    """Set rule ``r`` (R_*) of the table."""
    work[RULES_ROW + r] = value


@njit(cache=True, inline="always")
def policy_nb(work, field, seat):
    """The policy ``field`` (P_*) of ``seat``."""
    return work[np.uint64(POLICY_ROW + MAX_PLAYERS * field + seat)]


@njit(cache=True, inline="always")
def set_policy_nb(work, field, seat, value):
    """Set the policy ``field`` (P_*) of ``seat``."""
    work[np.uint64(POLICY_ROW + MAX_PLAYERS * field + seat)] = value


@njit(cache=True, inline="always")
def jinx_min_nb(work, seat):
    """The jinx_min policy of ``seat``."""
    return policy_nb(work, P_JINX_MIN, seat)


@njit(cache=True, inline="always")
def seat_flag_nb(work, flag):
    """The seats whose 0/1 policy field ``flag`` (F_*) is 1, as a bitmask."""
    return np.uint64(work[INFO_ROW + FLAG_SLOTS + flag])


@njit(cache=True, inline="always")
def add_seat_flag_nb(work, flag, seat):
    """Add ``seat`` to the seats of ``flag`` (F_*)."""
    work[INFO_ROW + FLAG_SLOTS + flag] |= 1 << seat


@njit(cache=True, inline="always")
def seat_flags_nb(work):
    """The per-seat 0/1 policy fields as seat bitmasks, and the seats that decide the rob
    on the slow path: (rob, spoil, renege, rob_slow)."""
    return (
        seat_flag_nb(work, F_ROB),
        seat_flag_nb(work, F_SPOIL),
        seat_flag_nb(work, F_RENEGE),
        seat_flag_nb(work, F_ROB_SLOW),
    )


@njit(cache=True, inline="always")
def solve_decision_nb(work, seat, decision, cell, action):
    """A solve's hook at a visit of ``seat`` to ``cell`` of ``decision`` (ROB_DECISION or
    JINX_DECISION) where the profile takes ``action``: while that decision is solved, the
    visit is recorded (D_VISIT_*) and the forced action, if any, returned instead."""
    if work[INFO_ROW + FLAG_SLOTS + F_SOLVING] != decision:
        return action
    work[INFO_ROW + DEAL_SLOTS + D_VISIT_SEAT] = seat
    work[INFO_ROW + DEAL_SLOTS + D_VISIT_CELL] = cell
    work[INFO_ROW + DEAL_SLOTS + D_VISIT_ACTION] = action
    forced = work[INFO_ROW + FLAG_SLOTS + F_FORCE]
    return forced if forced >= 0 else action


@njit(cache=True, inline="always")
def decide_rob_nb(work, policy, seat, cell, robs, state):
    """The slow path of a rob (a table, or a solve): seat ``seat``'s table in rob ``cell``
    (a mixed cell draws from ``state``), else its policy's ``robs``; then the solve's hook.
    Returns ``(robs, state)``."""
    action, state = table_action_nb(policy, seat, ROB_OFFSET, 2, cell, state)
    action = (ROB_ACTION if robs else 1 - ROB_ACTION) if action == NO_TABLE else action
    action = solve_decision_nb(work, seat, ROB_DECISION, cell, action)
    return action == ROB_ACTION, state


@njit(cache=True, inline="always")
def info_nb(work, i):
    """The deal's result ``i`` (I_*)."""
    return work[INFO_ROW + i]


@njit(cache=True, inline="always")
def set_info_nb(work, i, value):
    """Set the deal's result ``i`` (I_*)."""
    work[INFO_ROW + i] = value


@njit(cache=True, inline="always")
def private_nb(work):
    """The deal's private knowledge: (its seat or -1, its card bit, the demoted ace's bit)."""
    return (
        work[INFO_ROW + DEAL_SLOTS + D_PRIVATE_SEAT],
        np.uint64(work[INFO_ROW + DEAL_SLOTS + D_PRIVATE_CARD]),
        np.uint64(work[INFO_ROW + DEAL_SLOTS + D_DEMOTED]),
    )


@njit(cache=True, inline="always")
def set_private_nb(work, seat, card, demoted_bit):
    """Set the deal's private knowledge (see private_nb)."""
    work[INFO_ROW + DEAL_SLOTS + D_PRIVATE_SEAT] = seat
    work[INFO_ROW + DEAL_SLOTS + D_PRIVATE_CARD] = np.int64(card)
    work[INFO_ROW + DEAL_SLOTS + D_DEMOTED] = np.int64(demoted_bit)


@njit(cache=True, inline="always")
def pool_result_nb(work, i):
    """The last pool's result ``i`` (PL_*)."""
    return work[INFO_ROW + POOL_SLOTS + i]


@njit(cache=True, inline="always")
def set_pool_result_nb(work, i, value):
    """Set the pool's result ``i`` (PL_*)."""
    work[INFO_ROW + POOL_SLOTS + i] = value


@njit(cache=True, inline="always")
def game_total_nb(work, i):
    """The last game's total ``i`` (GM_*)."""
    return work[INFO_ROW + GAME_SLOTS + i]


@njit(cache=True, inline="always")
def set_game_total_nb(work, i, value):
    """Set the game's total ``i`` (GM_*)."""
    work[INFO_ROW + GAME_SLOTS + i] = value


@njit(cache=True, inline="always")
def seat_count_nb(work, field, seat):
    """The SEAT row's count ``field`` (S_*) of ``seat``."""
    return work[np.uint64(SEAT_ROW + MAX_PLAYERS * field + seat)]


@njit(cache=True, inline="always")
def set_seat_count_nb(work, field, seat, value):
    """Set the SEAT row's count ``field`` (S_*) of ``seat``."""
    work[np.uint64(SEAT_ROW + MAX_PLAYERS * field + seat)] = value


@njit(cache=True, inline="always")
def tricks_nb(work, seat):
    """Tricks ``seat`` won in the deal."""
    return seat_count_nb(work, S_TRICKS, seat)


@njit(cache=True, inline="always")
def set_tricks_nb(work, seat, value):
    """Set the tricks ``seat`` won in the deal."""
    set_seat_count_nb(work, S_TRICKS, seat, value)


@njit(cache=True, inline="always")
def paid_nb(work, seat):
    """Chips ``seat`` paid into the pool."""
    return seat_count_nb(work, S_PAID, seat)


@njit(cache=True, inline="always")
def add_paid_nb(work, seat, chips):
    """Add ``chips`` to what ``seat`` paid."""
    set_seat_count_nb(work, S_PAID, seat, seat_count_nb(work, S_PAID, seat) + chips)


@njit(cache=True, inline="always")
def received_nb(work, seat):
    """Chips ``seat`` received from the pool (and jinx bonuses)."""
    return seat_count_nb(work, S_RECEIVED, seat)


@njit(cache=True, inline="always")
def add_received_nb(work, seat, chips):
    """Add ``chips`` to what ``seat`` received."""
    set_seat_count_nb(work, S_RECEIVED, seat, seat_count_nb(work, S_RECEIVED, seat) + chips)


@njit(cache=True, inline="always")
def dealt_nb(work, k):
    """The ``k``-th card code dealt."""
    return work[DEAL_ROW + k]


@njit(cache=True, inline="always")
def set_dealt_nb(work, k, code):
    """Set the ``k``-th card code dealt."""
    work[DEAL_ROW + k] = code


@njit(cache=True, inline="always")
def pack_in_order_nb(work):
    """Put the pack in code order (a random deal)."""
    for card in range(N_CARDS):
        work[DECK_ROW + card] = card


@njit(cache=True, inline="always")
def stack_pack_nb(work, packs, k):
    """Put the stacked pack ``packs[k]`` in the pack row."""
    for card in range(N_CARDS):
        work[DECK_ROW + card] = packs[k, card]


@njit(cache=True, inline="always")
def log_entry_nb(work, trick, i):
    """Entry ``i`` of trick ``trick``'s log: 0 the leader, 1 the winner, 2 + j the j-th card played."""
    return work[LOG_ROW + LOG_STRIDE * trick + i]


@njit(cache=True, inline="always")
def set_log_entry_nb(work, trick, i, value):
    """Set entry ``i`` of trick ``trick``'s log (see log_entry_nb)."""
    work[LOG_ROW + LOG_STRIDE * trick + i] = value


def seat_chips(work: np.ndarray, n: int) -> tuple[list[int], list[int]]:
    """Per seat, the chips a pool's kernel counted as paid and as received (Python ints)."""
    paid = [int(paid_nb.py_func(work, seat)) for seat in range(n)]
    return paid, [int(received_nb.py_func(work, seat)) for seat in range(n)]


def pool_results(work: np.ndarray) -> tuple[int, int, int, int]:
    """A pool's (deals, chips in the pool, taken_by, truncated) as Python ints."""
    return tuple(int(pool_result_nb.py_func(work, i)) for i in (PL_DEALS, PL_CHIPS, PL_TAKEN_BY, PL_TRUNCATED))


@njit(cache=True)
def new_table_nb(rules, policy, n_seats):
    """The workspace (rules and policy copied in) and the mask array of a table."""
    work = np.zeros(FIRST_GAME_ROW + N_WORK_ROWS * ROW, dtype=np.int64)
    for r in range(N_RULES):
        set_rule_nb(work, r, rules[r])
    for seat in range(n_seats):
        for field in range(N_POLICY):
            set_policy_nb(work, field, seat, np.int64(policy[seat, field]))
        for flag, field in ((F_ROB, P_ROB), (F_SPOIL, P_SPOIL), (F_RENEGE, P_RENEGE)):
            if policy[seat, field]:
                add_seat_flag_nb(work, flag, seat)
        for flag, offset in ((F_ROB_SLOW, ROB_OFFSET), (F_JINX_SLOW, JINX_OFFSET)):
            if policy.shape[1] > offset and policy[seat, offset] >= 0.5:
                add_seat_flag_nb(work, flag, seat)
    work[INFO_ROW + FLAG_SLOTS + F_SOLVING] = -1
    work[INFO_ROW + FLAG_SLOTS + F_FORCE] = -1
    return work, np.zeros(N_MASKS, dtype=np.uint64)


# The rule fields a deal reads, in the order of play_deal_nb's ``codes``.
DEAL_RULE_FIELDS = (R_PLAIN_LEAD, R_ROB, R_UNROBBED_ACE_LOW, R_JINX)


@njit(cache=True, inline="always")
def deal_rule_codes_nb(rules):
    """The values of ``DEAL_RULE_FIELDS`` as one tuple (from the rules array or the
    workspace's rules row), read once per block or pool rather than in every deal."""
    f = DEAL_RULE_FIELDS
    return (rules[f[0]], rules[f[1]], rules[f[2]], rules[f[3]])


# ------------------------------------------------------------------------ card choices


@njit(cache=True, inline="always")
def cheapest_nb(cards, trump):
    """The cheapest card of a non-empty set: its lowest plain card (ties to the lower
    suit), else its lowest trump."""
    plain = cards & ~trump
    # Both computed and one selected: whether a hand has a plain card is a coin flip.
    low_plain = lowest_card_nb(plain)
    low_any = lowest_bit_nb(cards)
    return low_plain if plain else low_any


@njit(cache=True, inline="always")
def strongest_nb(cards, trump):
    """The strongest card of a non-empty set: its highest trump, else its highest plain
    card (ties to the lower suit)."""
    trumps = cards & trump
    return highest_bit_nb(trumps) if trumps else highest_card_nb(cards)


@njit(cache=True, inline="always")
def sure_winners_nb(hand, unseen, trump):
    """The cards of ``hand`` no unseen card can beat: trumps above every unseen trump, and
    (with no unseen trump at all) plain cards above every unseen card of their suit."""
    unseen_trumps = unseen & trump
    trumps = hand & trump
    # Both cases computed and one selected (no branch to mispredict).  `| 1` keeps the
    # shift defined with no unseen trump; it changes no highest bit otherwise.
    above_unseen = trumps & above_nb(highest_bit_nb(unseen_trumps | _ONE))
    no_unseen_trump = trumps | tops_of_suits_nb(hand & ~trump, unseen & ~trump)
    return above_unseen if unseen_trumps else no_unseen_trump


@njit(cache=True, inline="always")
def unseen_nb(hand, dead, everyone, seat, private_seat, private):
    """The cards ``seat`` (holding ``hand``) has not seen: all but its hand, the public dead
    cards and what only it knows (``private`` when it is ``private_seat``)."""
    own = private if seat == private_seat else _NO_CARD
    return everyone & ~(hand | dead | (_ONE << own))


@njit(cache=True, inline="always")
def greedy_lead_nb(hand, unseen, trump):
    """Greedy leading: the highest sure-winning trump, else the highest sure-winning plain
    card (ties to the lower suit), else the cheapest card."""
    sure = sure_winners_nb(hand, unseen, trump)
    sure_trumps = sure & trump
    # All three computed, one selected; a select of an empty set's garbage is discarded.
    top_trump = highest_bit_nb(sure_trumps)
    top_plain = highest_card_nb(sure)
    cheapest = cheapest_nb(hand, trump)
    return top_trump if sure_trumps else (top_plain if sure else cheapest)


@njit(cache=True, inline="always")
def lead_card_nb(hand, spoiling, trump, unseen):
    """The card a leader plays (step 5): spoiling, its strongest card; greedy,
    greedy_lead_nb (``unseen``: the cards it has not seen)."""
    if spoiling:
        return strongest_nb(hand, trump)
    return greedy_lead_nb(hand, unseen, trump)


@njit(cache=True, inline="always")
def candidates_nb(hand, trump, privileged, above_led, renege, led, led_trump, follow):
    """A follower's candidates (steps 3 and 5).  To a trump lead (``led_trump``): its trumps
    when one of them must be played (a seat with ``renege`` 0 plays one whenever it holds
    one); else its plain cards when there are any (it holds back its privileged trumps
    above the led card, ``above_led``); else the hand.  To a plain lead of suit ``led``:
    the cards of ``follow`` (the law of plain_lead) when it holds the suit, else the hand."""
    trumps = hand & trump
    plain = hand & ~trump
    held_back = hand & privileged & above_led & (_ZERO - renege)
    to_trump = trumps if trumps & ~held_back else (plain if plain else hand)
    to_plain = hand & follow if hand & led else hand
    return to_trump if led_trump else to_plain


@njit(cache=True, inline="always")
def follow_card_nb(candidates, trump, led, best, spoiling, threat_to_play):
    """The card a follower plays (step 5) to a trick led in ``led`` and now won by
    ``best``, and 1 if it takes the lead of the trick, else 0.  Greedy: the lowest
    candidate of the suit led that beats ``best``, else the lowest trump that does, else the
    cheapest candidate.  ``spoiling`` (the winner is not a threat): when a threat is still
    to play (``threat_to_play``) and a candidate beats ``best``, the strongest of those
    (the highest trump, else the highest of the suit led); else the cheapest candidate."""
    # The candidates that beat the best card so far: of the suit led when no trump is
    # winning, trumps above it when one is, any trump otherwise.
    above_best = above_nb(best)
    best_trump = _ZERO - ((trump >> best) & _ONE)  # all ones when a trump is winning
    plain_win = candidates & led & above_best & ~best_trump
    trump_win = candidates & trump & (above_best | ~best_trump)
    beaters = plain_win | trump_win
    cheapest = cheapest_nb(candidates, trump)
    if spoiling:
        if threat_to_play and beaters:  # raise the bar for a threat still to play
            card = highest_bit_nb(trump_win) if trump_win else highest_bit_nb(plain_win)
        else:
            card = cheapest
    else:
        lowest_winner = lowest_bit_nb(plain_win if plain_win else trump_win)
        card = lowest_winner if beaters else cheapest
    return card, (beaters >> card) & _ONE


@njit(cache=True, inline="always")
def _ace_seen_nb(ace_rules, card, seat, seat_bit, forfeited, ace_bit, demoted_bit, ace_mask, dead, forfeit_bit):
    """After ``seat`` plays ``card``: when the card is the unrobbed ace (``ace_bit`` from the
    seat that forfeited the rob, or the demoted ace), the ace is seen dead, and a forfeited
    seat that played it is known from then on (``forfeit_bit``).  Returns ``(dead,
    forfeit_bit)``.  Tested only under the rules that allow either (``ace_rules``)."""
    if ace_rules and (seat == forfeited or card == demoted_bit):
        if card == ace_bit or card == demoted_bit:
            dead |= ace_mask
            if seat == forfeited:
                forfeit_bit = seat_bit
    return dead, forfeit_bit


# ------------------------------------------------------------------------ one deal
# The card choices are data-dependent coin flips for a branch predictor, so the usual
# paths compute them as masks and selects; branches remain where they are rare or
# predictable (robbing, spoiling play, a forfeited seat, the end of the deal).


@njit(cache=True, inline="always")
def deal_nb(work, masks, n, dealer, leader, shuffle, state):
    """Step 1, the deal: 5 cards to each seat from the dealer's left (``leader``), then the
    turn-up, drawn from the pack row (code order for a random deal, the stacked order
    otherwise; ``shuffle`` = 0 draws without swaps).  Fills each seat's hand mask, clears
    its tricks, writes I_DEALER, I_TURNUP, I_TRUMP, I_ACE_TURNED and I_TRUMP_ACE_DEALT.
    Returns ``(state, trump suit (unsigned), the seat dealt the ace of trumps or -1)``."""
    top = 0
    for k in range(HAND_SIZE * n + 1):
        card, top, state = draw_nb(work, top, N_CARDS, shuffle, state)
        set_dealt_nb(work, k, card)
    turnup_code = dealt_nb(work, HAND_SIZE * n)
    suit = np.uint64(turnup_code) // np.uint64(13)
    trump_suit = np.int64(suit)
    layout = np.uint64(N_CARDS) * suit  # this trump suit's row of BIT_OF
    ace_mask = _ONE << ACE_BIT[suit]
    holder = -1
    seat = leader
    for k in range(n):
        hand = _ZERO
        for j in range(HAND_SIZE):
            hand |= _ONE << BIT_OF[layout + np.uint64(dealt_nb(work, HAND_SIZE * k + j))]
        masks[np.uint64(seat)] = hand
        set_tricks_nb(work, seat, 0)
        holder = seat if hand & ace_mask else holder
        seat = seat + 1 if seat + 1 < n else 0
    set_info_nb(work, I_DEALER, dealer)
    set_info_nb(work, I_TURNUP, turnup_code)
    set_info_nb(work, I_TRUMP, trump_suit)
    set_info_nb(work, I_ACE_TURNED, turnup_code - 13 * trump_suit == ACE)
    set_info_nb(work, I_TRUMP_ACE_DEALT, holder >= 0)
    return state, suit, holder


@njit(cache=True, inline="always")
def rob_nb(work, masks, dealer, leader, holder, suit, rob_seats, obligatory, ace_low, slow_seats, policy, state):
    """Step 2, robbing: the dealer takes a turned-up ace (rob policy 1), discarding its
    cheapest card; else the holder of the ace of trumps (``holder``) robs the turn-up at
    its first turn (rob policy 1), or is forfeited (``obligatory``) and its ace demoted
    (``ace_low``).  A seat of ``slow_seats`` decides by its rob table when it plays one
    (decide_rob_nb, drawing from ``state`` in a mixed cell).  Writes I_ROBBED_BY,
    I_DISCARD (a bit, or -1), I_FORFEITED and the deal's private knowledge; returns
    ``(dead, goes_live, state)``: the public dead cards (the turn-up while out of play),
    the turn-up's bit when it goes live after the lead, and the stream state."""
    trump = RANKED_SUIT << (np.uint64(16) * suit)
    turnup_code = info_nb(work, I_TURNUP)
    turnup = BIT_OF[np.uint64(N_CARDS) * suit + np.uint64(turnup_code)]
    ace_bit = ACE_BIT[suit]
    robbed_by = -1
    discard = _NO_CARD
    forfeited = -1
    private_seat = -1
    private = _NO_CARD
    demoted_bit = _NO_CARD
    dead = _ONE << turnup
    udealer = np.uint64(dealer)
    ace_turned = info_nb(work, I_ACE_TURNED) != 0
    dealer_robs = ace_turned and ((rob_seats >> udealer) & _ONE) != _ZERO
    if ace_turned and ((slow_seats >> udealer) & _ONE) != _ZERO:  # rob cells 0..5: its trumps
        dealer_robs, state = decide_rob_nb(
            work, policy, dealer, count_cards_nb(masks[udealer] & trump), dealer_robs, state
        )
    if dealer_robs:
        discard = cheapest_nb(masks[udealer], trump)
        masks[udealer] = (masks[udealer] & ~(_ONE << discard)) | (_ONE << turnup)
        robbed_by = dealer
        private_seat, private = dealer, discard
        dead &= ~(_ONE << turnup)
    # The holder decides at its first turn in trick 1, but nothing played before that turn
    # depends on its decision except the lead's view of the turn-up (dead or live), so the
    # decision is made here and the turn-up goes live just before the holder plays:
    # before the lead if the holder leads, else right after the lead (`goes_live`).
    goes_live = _ZERO
    if holder >= 0:
        uholder = np.uint64(holder)
        holder_robs = ((rob_seats >> uholder) & _ONE) != _ZERO
        if ((slow_seats >> uholder) & _ONE) != _ZERO:
            role = ROLE_ELDEST if holder == leader else (ROLE_DEALER if holder == dealer else ROLE_OTHER)
            trumps = count_cards_nb(masks[uholder] & trump)
            cell = N_ACE_CELLS + 3 * (5 * TURNUP_CLASS[turnup_code] + trumps - 1) + role
            holder_robs, state = decide_rob_nb(work, policy, holder, cell, holder_robs, state)
        if holder_robs:
            discard = cheapest_nb(masks[uholder], trump)
            masks[uholder] = (masks[uholder] & ~(_ONE << discard)) | (_ONE << turnup)
            robbed_by = holder
            private_seat, private = holder, discard
            if holder == leader:
                dead &= ~(_ONE << turnup)  # the turn-up is live now: in the robber's hand
            else:
                goes_live = _ONE << turnup
        else:
            if obligatory:
                forfeited = holder
            if ace_low:  # the ace of trumps becomes the lowest trump, known to its holder only
                demoted_bit = np.uint64(16 * np.int64(suit) + DEMOTED_ACE_ORDER)
                masks[uholder] = (masks[uholder] & ~(_ONE << ace_bit)) | (_ONE << demoted_bit)
                private_seat, private = holder, ace_bit
    set_info_nb(work, I_ROBBED_BY, robbed_by)
    set_info_nb(work, I_DISCARD, np.int64(discard) if robbed_by >= 0 else -1)
    set_info_nb(work, I_FORFEITED, forfeited)
    set_private_nb(work, private_seat, private, demoted_bit)
    masks[M_DEAD] = dead  # the last statements use both arrays (see play_tricks_nb)
    return dead, goes_live, state


@njit(cache=True, inline="always")
def play_trick_nb(
    work, masks, n, trick, leader, suit, follow_extra, reneges, spoilers, threat, dead, goes_live, forfeit_bit, shuffle
):
    """Steps 3 and 5, one trick: ``leader`` leads, the others follow clockwise, each from
    its candidates (``reneges``: the seats with renege 1; ``follow_extra``: the cards the
    law adds to the suit led), spoiling (a seat of ``spoilers`` with a ``threat`` other
    than itself) or greedily.  ``goes_live``: the turn-up's bit when it goes live after
    the lead.  Removes the cards played from the hands, logs them when ``shuffle`` is 0,
    counts the trick to its winner (S_TRICKS) and stores the dead cards (M_DEAD); returns
    ``(the trick's winner, its tricks won, dead, forfeit_bit)``."""
    forfeited = info_nb(work, I_FORFEITED)
    private_seat, private, demoted_bit = private_nb(work)
    # Only a forfeited seat or a demoted ace needs the ace watched (one predictable test).
    ace_rules = forfeited >= 0 or demoted_bit != _NO_CARD
    trump = RANKED_SUIT << (np.uint64(16) * suit)
    everyone = EVERYONE[suit]  # the 52 cards in this deal's layout (a demoted ace at its usual place)
    privileged = PRIVILEGED[suit]
    ace_bit = ACE_BIT[suit]
    ace_mask = _ONE << ace_bit
    # The lead.
    seat = leader
    useat = np.uint64(seat)
    seat_bit = _ONE << useat
    hand = masks[useat]
    spoiling = (spoilers & seat_bit) != _ZERO and (threat & ~seat_bit) != _ZERO
    card = lead_card_nb(hand, spoiling, trump, unseen_nb(hand, dead, everyone, seat, private_seat, private))
    led = suit_of_bit_nb(card)
    led_trump = (led & trump) != _ZERO
    above_led = above_nb(card)
    follow = led | follow_extra
    best = card
    best_seat = seat
    masks[useat] = hand & ~(_ONE << card)
    dead = (dead | (_ONE << card)) & ~goes_live
    dead, forfeit_bit = _ace_seen_nb(
        ace_rules, card, seat, seat_bit, forfeited, ace_bit, demoted_bit, ace_mask, dead, forfeit_bit
    )
    if not shuffle:
        set_log_entry_nb(work, trick, 2, np.int64(card))
    to_play = ((_ONE << np.uint64(n)) - _ONE) & ~seat_bit  # the seats still to play in this trick
    # The others follow clockwise.
    for i in range(1, n):
        seat = seat + 1 if seat + 1 < n else 0
        useat = np.uint64(seat)  # unsigned: no negative-index checks
        seat_bit = _ONE << useat
        to_play &= ~seat_bit
        hand = masks[useat]
        candidates = candidates_nb(
            hand, trump, privileged, above_led, (reneges >> useat) & _ONE, led, led_trump, follow
        )
        spoiling = (
            (spoilers & seat_bit) != _ZERO
            and (threat & ~seat_bit) != _ZERO
            and (threat & (_ONE << np.uint64(best_seat))) == _ZERO
        )
        card, takes = follow_card_nb(candidates, trump, led, best, spoiling, threat & to_play)
        best = card if takes else best
        best_seat = seat if takes else best_seat
        masks[useat] = hand & ~(_ONE << card)
        dead |= _ONE << card
        dead, forfeit_bit = _ace_seen_nb(
            ace_rules, card, seat, seat_bit, forfeited, ace_bit, demoted_bit, ace_mask, dead, forfeit_bit
        )
        if not shuffle:
            set_log_entry_nb(work, trick, 2 + i, np.int64(card))
    if not shuffle:
        set_log_entry_nb(work, trick, 0, leader)
        set_log_entry_nb(work, trick, 1, best_seat)
    # The last statements use both arrays unconditionally (see play_tricks_nb).
    won = tricks_nb(work, best_seat) + 1
    set_tricks_nb(work, best_seat, won)
    masks[M_DEAD] = dead
    return best_seat, won, dead, forfeit_bit


@njit(cache=True, inline="always")
def jinx_cell_nb(hand, unseen, trump, sure):
    """The jinx cell (sims.games.spoil_five.table) of the two cards ``hand`` with the sure
    winners ``sure``: both sure, or the sure count and the weakest card that is not sure (a
    plain card, else the lowest such trump by the unseen trumps above it, 1, 2 or 3+)."""
    n_sure = count_cards_nb(sure)
    if n_sure >= 2:
        return JINX_BOTH_SURE_CELL
    if hand & ~sure & ~trump:
        return 4 * n_sure + OTHER_PLAIN
    above = count_cards_nb(unseen & trump & above_nb(lowest_bit_nb(hand & ~sure & trump)))
    return 4 * n_sure + (above if above < 3 else 3) - 1


@njit(cache=True)
def calls_jinx_nb(work, masks, seat, suit, dead, policy, state):
    """Step 4b: ``seat``, having won the first three tricks, jinxes when at least its
    jinx_min of its two cards left are sure winners (as far as it knows), or as its jinx
    table says in the cell of its two cards (jinx_cell_nb; a mixed cell draws from
    ``state``).  Returns ``(jinx, state)``.  (Not inlined: it is called once in a deal at
    most.)"""
    private_seat, private, _ = private_nb(work)
    trump = RANKED_SUIT << (np.uint64(16) * suit)
    hand = masks[np.uint64(seat)]
    unseen = unseen_nb(hand, dead, EVERYONE[suit], seat, private_seat, private)
    sure = sure_winners_nb(hand, unseen, trump)
    jinx = count_cards_nb(sure) >= jinx_min_nb(work, seat)
    if (seat_flag_nb(work, F_JINX_SLOW) >> np.uint64(seat)) & _ONE:
        cell = jinx_cell_nb(hand, unseen, trump, sure)
        action, state = table_action_nb(policy, seat, JINX_OFFSET, 2, cell, state)
        action = (JINX_ACTION if jinx else 1 - JINX_ACTION) if action == NO_TABLE else action
        jinx = solve_decision_nb(work, seat, JINX_DECISION, cell, action) == JINX_ACTION
    return jinx, state


# How a trick ends the hand (hand_end_nb): it goes on, it is spoiled (by the trick's
# winner), the trick's winner takes the pool, a jinxer made it, or (jinx on) the trick's
# winner has won the first three tricks and chooses between the jinx and the pool.
END_NONE, END_SPOILED, END_TAKEN, END_JINX_MADE, END_THREE = range(5)


@njit(cache=True, inline="always")
def hand_end_nb(seat, won, played, most, jinxer, forfeited, jinx_on):
    """Step 4, after a trick won by ``seat`` (now holding ``won`` tricks; ``played`` tricks
    played; ``most``: the most tricks of a seat that is not forfeited; ``jinxer``: the seat
    that called a jinx, or -1): (a) during a jinx, the jinxer lost (a spoil) or made it
    after five tricks; (b) three tricks: a ``forfeited`` seat's are a spoil; with
    ``jinx_on`` after trick 3 the seat chooses; else it takes the pool; (c) no seat that
    is not forfeited can reach three tricks: a spoil.  Returns an END_* code."""
    end = END_NONE
    if jinxer >= 0:
        if seat != jinxer:
            end = END_SPOILED
        elif played == TRICKS:
            end = END_JINX_MADE
    elif won == 3:
        if seat == forfeited:
            end = END_SPOILED
        elif jinx_on and played == 3:
            end = END_THREE
        else:
            end = END_TAKEN
    elif most + TRICKS - played < 3:  # no seat that is not forfeited can reach 3 tricks
        end = END_SPOILED
    return end


@njit(cache=True, inline="always")
def set_deal_end_nb(work, end, seat, jinxer, claimed, played):
    """Write the end of the deal to the INFO row: ``end`` (END_*, after the trick won by
    ``seat``), the jinxer or -1, 1 if the pool was claimed, the tricks played."""
    taken = end == END_TAKEN or end == END_JINX_MADE
    set_info_nb(work, I_WINNER, seat if taken else -1)
    set_info_nb(work, I_SPOILED, end == END_SPOILED)
    set_info_nb(work, I_SPOILER, seat if end == END_SPOILED else -1)
    set_info_nb(work, I_JINX_BY, jinxer)
    set_info_nb(work, I_JINX_MADE, end == END_JINX_MADE)
    set_info_nb(work, I_CLAIMED, claimed)
    set_info_nb(work, I_TRICKS, played)


@njit(cache=True, inline="always")
def play_tricks_nb(work, masks, n, leader, suit, dead, goes_live, law, jinx_on, shuffle, seat_flags, policy, state):
    """Steps 3-4: tricks from the eldest hand's lead (``leader``), each winner leading the
    next, until the hand stops (hand_end_nb).  ``dead``: the public dead cards,
    ``goes_live`` the turn-up's bit when it goes live after the first lead (rob_nb);
    ``law`` the plain_lead rule, ``jinx_on`` the jinx rule.  Tricks won go to the SEAT row
    (S_TRICKS), the deal's end to the INFO row (set_deal_end_nb); the masks end as the
    hands left and the dead cards (M_DEAD).  Returns the stream state (a jinx table's
    mixed cell draws from it)."""
    _, spoil_seats, renege_seats, _ = seat_flags
    forfeited = info_nb(work, I_FORFEITED)
    forfeited_bit = _ONE << np.uint64(forfeited) if forfeited >= 0 else _ZERO
    trump = RANKED_SUIT << (np.uint64(16) * suit)
    # The cards a follower of a plain lead must play from when it holds the suit led:
    # the suit led or a trump (follow-or-trump), the suit led (must-follow), any (free).
    follow_extra = trump if law == FOLLOW_OR_TRUMP else (_ALL if law == FREE else _ZERO)
    # `two` = the seats with two tricks, `most` = the most tricks of a seat that is not
    # forfeited (neither needs a loop over the seats).
    played_tricks = 0
    best_seat = -1
    end = END_NONE
    claimed = 0
    jinxer = -1
    jinx_bit = _ZERO
    two = _ZERO
    most = 0
    forfeit_bit = _ZERO  # the forfeited seat, as the others know it: once it has played the ace
    for trick in range(TRICKS):
        threat = (two & ~forfeit_bit) | jinx_bit  # seats that can still take the pool
        # Seats that play spoiling when threatened: spoil policy, and no pool for themselves.
        spoilers = spoil_seats & (~two | forfeited_bit)
        best_seat, won, dead, forfeit_bit = play_trick_nb(
            work,
            masks,
            n,
            trick,
            leader,
            suit,
            follow_extra,
            renege_seats,
            spoilers,
            threat,
            dead,
            goes_live,
            forfeit_bit,
            shuffle,
        )
        goes_live = _ZERO
        best_bit = _ONE << np.uint64(best_seat)
        two = (two & ~best_bit) | (best_bit if won == 2 else _ZERO)
        most = won if best_seat != forfeited and won > most else most
        played_tricks = trick + 1
        leader = best_seat
        # 4. Does the hand stop?
        end = hand_end_nb(best_seat, won, played_tricks, most, jinxer, forfeited, jinx_on)
        if end == END_THREE:
            jinx, state = calls_jinx_nb(work, masks, best_seat, suit, dead, policy, state)
            if jinx:
                jinxer = best_seat
                jinx_bit = best_bit
                continue
            claimed = 1
            end = END_TAKEN
        if end != END_NONE:
            break
    # The last statements use both arrays: Numba's reference-count pruning then drops the
    # incref/decref pairs that binding them to this inlined function's arguments costs.
    set_deal_end_nb(work, end, best_seat, jinxer, claimed, played_tricks)
    masks[M_DEAD] = dead
    return state


@njit(cache=True, inline="always")
def play_deal_nb(work, masks, n, dealer, shuffle, state, codes, seat_flags, policy):
    """Play one deal (package docstring, steps 1-4) dealt by ``dealer``; its results go to
    the INFO row (I_*), tricks won to the SEAT row (S_TRICKS).  Returns the advanced stream
    state.

    The pack row must hold the pack (code order for a random deal, the stacked order
    otherwise); ``shuffle`` = 0 draws it without swaps and logs the tricks (LOG row).
    ``codes`` are deal_rule_codes_nb's rule values and ``seat_flags`` seat_flags_nb's, read
    once by the caller; ``policy`` the policy matrix (its table blocks, if any, are read at
    the rob and the jinx).
    """
    law, rob_rule, ace_low_rule, jinx_rule = codes
    leader = dealer + 1 if dealer + 1 < n else 0  # the eldest hand leads trick 1
    state, suit, holder = deal_nb(work, masks, n, dealer, leader, shuffle, state)
    obligatory = rob_rule == ROB_OBLIGATORY
    dead, goes_live, state = rob_nb(
        work,
        masks,
        dealer,
        leader,
        holder,
        suit,
        seat_flags[0],
        obligatory,
        ace_low_rule != 0,
        seat_flags[3],
        policy,
        state,
    )
    return play_tricks_nb(
        work, masks, n, leader, suit, dead, goes_live, law, jinx_rule != 0, shuffle, seat_flags, policy, state
    )


@njit(cache=True, inline="always")
def hand_table_nb(rules, policy, n):
    """The scratch :func:`play_hand_nb` plays on: ``(work, masks)`` (:func:`new_table_nb`)."""
    return new_table_nb(rules, policy, n)


@njit(cache=True, inline="always")
def hand_codes_nb(rules, policy, table, n):
    """What :func:`play_hand_nb` reads besides the table, once per block: the rule values
    (:func:`deal_rule_codes_nb`; a fixed-rules kernel builds them from constants), the
    seats' flags (:func:`seat_flags_nb`) and the policy matrix (its table blocks, if any,
    are read at the rob and the jinx)."""
    return deal_rule_codes_nb(rules), seat_flags_nb(table[0]), policy


@njit(cache=True, inline="always")
def play_hand_nb(table, n, dealer, shuffle, state, codes):
    """The game's per-hand entry point (the contract every game's kernel shares): one deal
    (:func:`play_deal_nb`) dealt by ``dealer`` at ``n`` seats on the scratch ``table``
    (:func:`hand_table_nb`), from the deal's stream ``state``; ``codes`` is
    :func:`hand_codes_nb`'s.  With ``shuffle`` the pack is dealt from the stream; without,
    the pack row holds a stacked pack, drawn without swaps, and the tricks are logged.
    Results go to the INFO row and the SEAT row; returns the advanced stream."""
    work, masks = table
    rule_codes, seat_flags, policy = codes
    if shuffle:
        pack_in_order_nb(work)
    return play_deal_nb(work, masks, n, dealer, shuffle, state, rule_codes, seat_flags, policy)


@njit(cache=True)
def play_table_deal_nb(work, masks, n, dealer, shuffle, state, policy):
    """:func:`play_hand_nb` with its codes read from the workspace, compiled once and
    called (a pool's deals and the advice's games); returns the advanced stream."""
    table = (work, masks)
    return play_hand_nb(table, n, dealer, shuffle, state, hand_codes_nb(rules_of_nb(work), policy, table, n))


# ------------------------------------------------------------------------ one pool


@njit(cache=True, inline="always")
def jinx_bonus_nb(work):
    """What each other player pays a successful jinxer."""
    bonus = rule_nb(work, R_JINX_BONUS)
    ante = rule_nb(work, R_ANTE)
    if bonus == BONUS_NONE:
        return 0
    return 2 * ante if bonus == BONUS_DOUBLE_ANTE else ante


@njit(cache=True)
def take_pool_nb(work, n, winner, pool):
    """``winner`` takes the pool, and after a jinx made the bonus from each other seat."""
    add_received_nb(work, winner, pool)
    if info_nb(work, I_JINX_MADE):
        bonus = jinx_bonus_nb(work)
        for seat in range(n):
            if seat != winner:
                add_paid_nb(work, seat, bonus)
                add_received_nb(work, winner, bonus)


@njit(cache=True)
def top_up_nb(work, n, dealer):
    """The top-up of a pool carried forward after a spoil dealt by ``dealer`` (spoil_topup:
    all but that dealer, the next dealer, or everyone pays topup_amount); returns the chips
    added."""
    topup = rule_nb(work, R_TOPUP_AMOUNT)
    topup_rule = rule_nb(work, R_SPOIL_TOPUP)
    if topup_rule == TOPUP_ALL_BUT_DEALER:
        for seat in range(n):
            if seat != dealer:
                add_paid_nb(work, seat, topup)
        return (n - 1) * topup
    if topup_rule == TOPUP_DEALER_ONLY:
        add_paid_nb(work, (dealer + 1) % n, topup)
        return topup
    for seat in range(n):
        add_paid_nb(work, seat, topup)
    return n * topup


@njit(cache=True)
def play_pool_nb(work, masks, n, first_dealer, packs, n_packs, shuffle, state, log, policy):
    """Play one pool from its start (package docstring, Chips) and return the advanced
    stream state.  Deal k is dealt by (first_dealer + k) mod n from a pack in code order
    (``shuffle``), or from ``packs[k]`` without swaps (stacked: at most ``n_packs`` deals,
    each logged in ``log[k]``, see _log_deal_nb).  Chips paid and received per seat go to
    the SEAT row (S_PAID, S_RECEIVED), the pool's results to the PL_* slots: the deals
    played, the chips in the pool at the end, the seat that took it (-1 if none), 1 if
    max_deals stopped it, the spoiled deals.  ``policy``: the policy matrix (play_deal_nb).
    """
    ante = rule_nb(work, R_ANTE)
    max_deals = rule_nb(work, R_MAX_DEALS)
    extra = rule_nb(work, R_DEALER_EXTRA)
    every_deal = rule_nb(work, R_DEALER_EXTRA_EVERY_DEAL) != 0
    for seat in range(n):
        set_seat_count_nb(work, S_PAID, seat, ante)
        set_seat_count_nb(work, S_RECEIVED, seat, 0)
    add_paid_nb(work, first_dealer, extra)
    pool = n * ante + extra
    dealer = first_dealer
    deals = 0
    spoils = 0
    taken_by = -1
    truncated = 0
    while True:
        if not shuffle:
            if deals >= n_packs:
                break
            stack_pack_nb(work, packs, deals)
            log[deals, L_POOL] = pool
        state = play_table_deal_nb(work, masks, n, dealer, shuffle, state, policy)
        if not shuffle:
            _log_deal_nb(work, n, log, deals)
        deals += 1
        winner = info_nb(work, I_WINNER)
        if winner >= 0:
            take_pool_nb(work, n, winner, pool)
            taken_by = winner
            break
        spoils += 1
        if deals >= max_deals:
            truncated = 1
            break
        if not shuffle and deals >= n_packs:
            break  # no deal follows: no top-up
        pool += top_up_nb(work, n, dealer)
        dealer = (dealer + 1) % n
        if every_deal:  # the new dealer's deal stake
            add_paid_nb(work, dealer, extra)
            pool += extra
    set_pool_result_nb(work, PL_DEALS, deals)
    set_pool_result_nb(work, PL_CHIPS, pool)
    set_pool_result_nb(work, PL_TAKEN_BY, taken_by)
    set_pool_result_nb(work, PL_TRUNCATED, truncated)
    set_pool_result_nb(work, PL_SPOILS, spoils)
    return state


# A stacked deal's record in play_pool_nb's log: the pool at its start, the INFO row's
# deal results, tricks won per seat, the trick log (leader, winner, the cards in playing
# order, as bits) and the codes dealt.
L_POOL, L_INFO = 0, 1
L_TRICKS_WON = L_INFO + N_INFO
L_LOG = L_TRICKS_WON + MAX_PLAYERS
L_DEALT = L_LOG + TRICKS * LOG_STRIDE
LOG_WIDTH = L_DEALT + MAX_PLAYERS * HAND_SIZE


@njit(cache=True)
def _log_deal_nb(work, n, log, k):
    """Copy a stacked deal's results into ``log[k]`` (after ``log[k, L_POOL]``)."""
    for i in range(N_INFO):
        log[k, L_INFO + i] = info_nb(work, i)
    for seat in range(n):
        log[k, L_TRICKS_WON + seat] = tricks_nb(work, seat)
    for trick in range(TRICKS):
        for i in range(LOG_STRIDE):
            log[k, L_LOG + LOG_STRIDE * trick + i] = log_entry_nb(work, trick, i)
    for i in range(HAND_SIZE * n):
        log[k, L_DEALT + i] = dealt_nb(work, i)


# ------------------------------------------------------------------------ hand mode


@njit(cache=True, inline="always")
def add_hand_nb(out, work, n, pool, ante, extra, bonus):
    """Add the deal just played (from a new pool of ``pool`` chips: ``ante`` from each
    seat, ``extra`` from the dealer; ``bonus`` the jinx bonus) to hand mode's sums."""
    dealer = info_nb(work, I_DEALER)
    winner = info_nb(work, I_WINNER)
    spoiler = info_nb(work, I_SPOILER)
    jinxer = info_nb(work, I_JINX_BY)
    jinx_made = info_nb(work, I_JINX_MADE)
    robbed_by = info_nb(work, I_ROBBED_BY)
    spoiled = info_nb(work, I_SPOILED)
    table = np.uint64(n)
    # A count that at most one seat gets is added to that seat's row, or 0 to the table
    # row when no seat gets it (no loop over the seats, no branch).
    out[np.uint64(winner) if winner >= 0 else table, H_WIN] += winner >= 0
    out[np.uint64(spoiler) if spoiler >= 0 else table, H_SPOILER] += spoiler >= 0
    out[np.uint64(jinxer) if jinxer >= 0 else table, H_JINX_CALLED] += jinxer >= 0
    out[np.uint64(jinxer) if jinxer >= 0 else table, H_JINX_MADE] += (jinxer >= 0) & (jinx_made == 1)
    out[np.uint64(robbed_by) if robbed_by >= 0 else table, H_ROBBED] += robbed_by >= 0
    paid = bonus if jinx_made else 0  # the jinx bonus each other seat pays the winner
    for seat in range(n):
        net = -ante - paid + (pool + n * paid if seat == winner else 0) - (extra if seat == dealer else 0)
        tricks = tricks_nb(work, seat)
        out[seat, H_TRICKS] += tricks
        out[seat, H_TRICKS + 1] += tricks * tricks
        out[seat, H_NET] += net
        out[seat, H_NET + 1] += net * net
    out[n, HT_SPOIL] += spoiled
    out[n, HT_JINX] += jinxer >= 0
    out[n, HT_ROB] += robbed_by >= 0
    out[n, HT_ACE_TURNED] += info_nb(work, I_ACE_TURNED)
    out[n, HT_TRUMP_ACE_DEALT] += info_nb(work, I_TRUMP_ACE_DEALT)
    out[n, HT_FORFEIT] += info_nb(work, I_FORFEITED) >= 0
    carried = pool if spoiled else 0
    out[n, HT_CARRIED] += carried
    out[n, HT_CARRIED + 1] += carried * carried


@njit(cache=True, inline="always")
def _play_hands_nb(rules, policy, n, seed, first, count, codes):
    """Hand mode's loop: ``codes`` are deal_rule_codes_nb's rule values."""
    out = np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)
    table = hand_table_nb(rules, policy, n)
    work = table[0]
    hand_codes = (codes, seat_flags_nb(work), policy)
    seed_key = seed_key_nb(seed)
    dealer = n - 1
    ante = rule_nb(work, R_ANTE)
    extra = rule_nb(work, R_DEALER_EXTRA)
    pool = n * ante + extra
    bonus = jinx_bonus_nb(work)
    for hand in range(first, first + count):
        play_hand_nb(table, n, dealer, True, stream_nb(seed_key, hand), hand_codes)
        add_hand_nb(out, work, n, pool, ante, extra, bonus)
    return out


@njit(cache=True, nogil=True)
def simulate_hands_nb(rules, policy, n, seed, first, count):
    """Hand mode: integer sums over hands ``first .. first+count-1`` of ``seed``, the dealer
    in seat n-1, a new pool each hand.  Returns int64 ``[n + 1, width]`` (HAND_OUTCOMES).
    Any rules."""
    return _play_hands_nb(rules, policy, n, seed, first, count, deal_rule_codes_nb(rules))


# ------------------------------------------------------------------------ game mode


@njit(cache=True)
def play_game_nb(work, masks, n, state, packs, log, policy):
    """One game (package docstring, Game mode): pools from seat n-1's deal, the deal
    passing one seat left after every deal, until a pool ends on a whole number of
    rounds.  Chips won and pools taken per seat go to the SEAT row (S_GAME_NET,
    S_POOLS_WON), the game's totals to the GM_* slots.  Returns the advanced stream state.
    (Not inlined: Numba then keeps no reference counts for its arrays in the game loop.)"""
    for seat in range(n):
        set_seat_count_nb(work, S_GAME_NET, seat, 0)
        set_seat_count_nb(work, S_POOLS_WON, seat, 0)
    deals = 0
    pools = 0
    spoils = 0
    taken = 0
    taken_chips = 0
    truncated = 0
    left = 0
    dealer = n - 1
    while True:
        state = play_pool_nb(work, masks, n, dealer, packs, 0, True, state, log, policy)
        pool_deals = pool_result_nb(work, PL_DEALS)
        pool = pool_result_nb(work, PL_CHIPS)
        taken_by = pool_result_nb(work, PL_TAKEN_BY)
        pools += 1
        deals += pool_deals
        spoils += pool_result_nb(work, PL_SPOILS)
        for seat in range(n):
            net = seat_count_nb(work, S_GAME_NET, seat) + received_nb(work, seat) - paid_nb(work, seat)
            set_seat_count_nb(work, S_GAME_NET, seat, net)
        if taken_by >= 0:
            set_seat_count_nb(work, S_POOLS_WON, taken_by, seat_count_nb(work, S_POOLS_WON, taken_by) + 1)
            taken += 1
            taken_chips += pool
        else:
            truncated = 1
            left += pool
        # The next pool's first dealer: the seat left of this pool's last dealer.
        dealer = (dealer + pool_deals) % n
        if dealer == n - 1:  # a whole number of rounds dealt, and no pool on the table
            break
    for i, total in ((GM_DEALS, deals), (GM_POOLS, pools), (GM_SPOILS, spoils), (GM_TAKEN, taken)):
        set_game_total_nb(work, i, total)
    for i, total in ((GM_TAKEN_CHIPS, taken_chips), (GM_TRUNCATED, truncated), (GM_LEFT, left)):
        set_game_total_nb(work, i, total)
    return state


@njit(cache=True, inline="always")
def add_game_nb(out, work, n):
    """Add the game just played (the GM_* slots, S_GAME_NET and S_POOLS_WON) to game
    mode's sums (GAME_OUTCOMES; a ratio's numerator, its square, its count, the count's
    square and their product at X .. X + 4)."""
    deals = game_total_nb(work, GM_DEALS)
    for seat in range(n):
        won = seat_count_nb(work, S_POOLS_WON, seat)
        net = seat_count_nb(work, S_GAME_NET, seat)
        out[seat, G_POOLS_WON] += won
        out[seat, G_POOLS_WON + 1] += won * won
        out[seat, G_NET] += net
        out[seat, G_NET + 1] += net * net
        out[seat, G_DEAL_NET] += net
        out[seat, G_DEAL_NET + 1] += net * net
        out[seat, G_DEAL_NET + 2] += deals
        out[seat, G_DEAL_NET + 3] += deals * deals
        out[seat, G_DEAL_NET + 4] += net * deals
    pools = game_total_nb(work, GM_POOLS)
    taken = game_total_nb(work, GM_TAKEN)
    taken_chips = game_total_nb(work, GM_TAKEN_CHIPS)
    spoils = game_total_nb(work, GM_SPOILS)
    left = game_total_nb(work, GM_LEFT)
    out[n, GT_DEALS] += deals
    out[n, GT_DEALS + 1] += deals * deals
    out[n, GT_POOL_DEALS] += deals
    out[n, GT_POOL_DEALS + 1] += deals * deals
    out[n, GT_POOL_DEALS + 2] += pools
    out[n, GT_POOL_DEALS + 3] += pools * pools
    out[n, GT_POOL_DEALS + 4] += deals * pools
    out[n, GT_POOL_SIZE] += taken_chips
    out[n, GT_POOL_SIZE + 1] += taken_chips * taken_chips
    out[n, GT_POOL_SIZE + 2] += taken
    out[n, GT_POOL_SIZE + 3] += taken * taken
    out[n, GT_POOL_SIZE + 4] += taken_chips * taken
    out[n, GT_SPOILS] += spoils
    out[n, GT_SPOILS + 1] += spoils * spoils
    out[n, GT_TRUNCATED] += game_total_nb(work, GM_TRUNCATED)
    out[n, GT_LEFT] += left
    out[n, GT_LEFT + 1] += left * left
    rounds = deals // n
    bucket = 0
    while bucket + 1 < len(LENGTH_BUCKET_LOW) and rounds >= LENGTH_BUCKET_LOW[bucket + 1]:
        bucket += 1
    out[n, GT_LENGTH + bucket] += 1


@njit(cache=True, nogil=True)
def simulate_games_nb(rules, policy, n, seed, first, count):
    """Game mode: integer sums over games ``first .. first+count-1`` of ``seed``, each
    whole rounds of the deal (package docstring, Game mode): seat n-1 deals first, the
    deal passes one seat left after every deal, across pools too, and the game ends with
    the first pool that ends on a whole number of rounds.  Returns int64 ``[n + 1,
    width]`` (GAME_OUTCOMES)."""
    out = np.zeros((n + 1, GAME_WIDTH), dtype=np.int64)
    work, masks = new_table_nb(rules, policy, n)
    seed_key = seed_key_nb(seed)
    packs = np.zeros((1, N_CARDS), dtype=np.int64)  # unused: random deals
    log = np.zeros((1, 1), dtype=np.int64)
    for game in range(first, first + count):
        play_game_nb(work, masks, n, stream_nb(seed_key, game), packs, log, policy)
        add_game_nb(out, work, n)
    return out
