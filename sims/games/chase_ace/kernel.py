"""Chase the Ace: the Numba kernels.  They play the rules contract in the package docstring
(sims/games/chase_ace/__init__.py)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sims.core.deck import JACK, N_CARDS, QUEEN, deal_prefix_nb
from sims.core.jit import njit
from sims.core.rng import seed_key_nb, stream_nb, uniform_below_nb, uniform_bound_nb
from sims.games.chase_ace import lanes as lanes_nb
from sims.games.chase_ace.rules import (
    FINAL_CARRY_NO_STAKE,
    FINAL_CUT_HIGH,
    FINAL_REPLAY,
    FINAL_SPLIT,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    INFORMED,
    JACKS_HOLDER_SKIPPED,
    JACKS_OFF,
    KINGS_BLOCK,
    KINGS_FREEZE,
    KINGS_NONE,
    KINGS_SKIP,
    KINGS_STOP_ALL,
    LENGTH_BUCKET_LOW,
    LENGTH_LABELS,
    MAX_ROUNDS,
    REVEAL_AT_DEAL,
    REVEAL_ON_ATTEMPT,
    THRESHOLD,
    THRESHOLD_MIX,
    TIE_ALL_LOWEST,
    TIE_EARLIEST,
    TIE_LATEST,
    TIE_TO_DEALER,
    Rules,
)
from sims.games.chase_ace.table import N_CELLS, N_FACES, N_FIELDS
from sims.spec import indices, kernel_around_loop

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
WORDS_PER_SEAT = N_FACES + 1  # cell_word: a word per rank given, and one with no swap from the right
ALONE_WORD = N_FACES

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
        # advice (sims/games/chase_ace/advice.py): [0] 1 when the forced position's turn
        # came and it decided (the round had not ended, its turn was not lost), [1] the card
        # it held then
        ("advised", np.int64, 4),
        # strategy tables (sims/games/chase_ace/table.py): 1 when some seat plays a table
        ("has_tables", np.int64),
        # per seat, per rank cell (table.rank_cell): what its table does there (CELL_* below)
        ("cell_bound", np.int64, SLOTS * N_CELLS),
        ("cell_code", np.int64, N_CELLS),  # the declared (face) code of each rank cell
        # with tables on, per seat 14 words as a non-dealer, then 14 as the dealer, of the
        # cells by rank held: [g] after a swap from the right that took rank g, [13] no swap
        # from the right; bit r (r = the rank held) set when the seat swaps (cuts) there,
        # MIXED_SHIFT + r when it draws.  One load and a shift decide, as with ``decision``.
        ("cell_word", np.int64, SLOTS * 2 * WORDS_PER_SEAT),
        # the solve kernel (sims/games/chase_ace/solve.py): per visit of a round, in turn
        # order, the position, its declared cell and 1 when it swapped (cut)
        ("visit_position", np.int64, SLOTS),
        ("visit_cell", np.int64, SLOTS),
        ("visit_swap", np.int64, SLOTS),
        # [SOLVE_VISITS] visits so far this round, [SOLVE_FORCED] the position whose visit
        # is forced (-1: none), [SOLVE_FORCED_SWAP] 1: it swaps (cuts), 0: it keeps
        ("solve", np.int64, 4),
    ]
)
SOLVE_VISITS, SOLVE_FORCED, SOLVE_FORCED_SWAP = range(3)

# ``cell_bound`` of a seat's cell: CELL_POLICY, the seat's policy fields decide (no table,
# or a cell the table leaves out); CELL_KEEP, keep without a draw; CELL_SWAP (MIX_ALWAYS +
# 1), swap without a draw; 0 .. MIX_ALWAYS, draw and swap when below (uniform_bound_nb of
# the swap probability).
CELL_POLICY = -1
CELL_KEEP = -2


# A seat's ``decision`` word: bit r (r = 0..12) is set when it swaps (or cuts) holding rank
# r, that is rank1 <= threshold and r is not the TOP rank (whose holder always keeps); bit
# MIXED_SHIFT + r when rank r is decided by threshold_mix (rank1 == threshold + 1, not
# TOP, mix > 0); bit INFORMED_BIT when the seat is informed.  One load and a shift decide.
MIXED_SHIFT = 16
INFORMED_BIT = 32

# ``mix`` holds 0 for a mix of 0 (never swap), uniform_bound_nb(mix) <= MIX_ALWAYS for a mix
# drawn from the stream, and MIX_ALWAYS + 1 for a mix of 1 (swap without a draw).
MIX_ALWAYS = 1 << 53
CELL_SWAP = MIX_ALWAYS + 1

R_LIVES, R_TIE, R_KINGS, R_REVEAL, R_DEALER_KING_BLOCK, R_QUEENS, R_JACKS, R_FINAL_TIE, R_ACE_HIGH = indices(
    Rules, "lives", "tie", "kings", "king_reveal", "dealer_king_block", "queens", "jacks", "final_tie", "ace_high"
)
# Columns of the sums: hand mode's seat (H_*) and table (T_*) rows, game mode's (G_*, T_*).
H_LOSE_LIFE, H_EXCHANGE = indices(HAND_OUTCOMES.seat, "lose_life", "exchange")
T_LOSERS, T_LOSERS_SQ, T_NO_LOSER = indices(HAND_OUTCOMES.table, "losers", "losers_sq", "no_loser")
G_WIN, G_SPLIT_WIN, G_NET, G_NET_SQ = indices(GAME_OUTCOMES.seat, "win", "split_win", "net_chips", "net_chips_sq")
T_ROUNDS, T_ROUNDS_SQ, T_FINAL_TIE, T_FINAL_TIE_SQ, T_CARRIED, T_CARRIED_SQ, T_TRUNCATED, T_LENGTH = indices(
    GAME_OUTCOMES.table,
    "rounds",
    "rounds_sq",
    "final_tie",
    "final_tie_sq",
    "carried",
    "carried_sq",
    "truncated",
    "length_" + LENGTH_LABELS[0],  # the first of the length buckets, which follow in LENGTH_BUCKET_LOW's order
)


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
    _fill_tables_nb(table, rules, policy)
    return tables


@njit(cache=True)
def _fill_tables_nb(table, rules, policy):
    """What each seat does in each cell of the swap decision when some seat plays a table
    (``has_tables``): ``cell_word`` (per seat a non-dealer's words, then the dealer's; see
    TABLE) holds its table's action, or where it plays no table or its table leaves the
    cell out, its policy fields' action there (rule a, the dealer's or a non-dealer's, and
    rule c: a function of the cell, as table.policy_table writes it); ``cell_bound`` the
    draw bound of a mixed cell (the table's swap probability, or the policy's
    threshold_mix).  A top card's cells are the policy's (its holder keeps)."""
    n = policy.shape[0]
    ace_high = rules[R_ACE_HIGH] != 0
    for code in range(N_CELLS):  # the declared cells spell faces (table.declared_cell)
        held, gave = (code, -1) if code < N_FACES else ((code - N_FACES) // N_FACES, (code - N_FACES) % N_FACES)
        held_face = (held + 1) % N_FACES if ace_high else held
        gave_face = (gave + 1) % N_FACES if ace_high else gave
        table.cell_code[code] = held_face if gave < 0 else N_FACES + N_FACES * held_face + gave_face
    table.has_tables = 0
    table.solve[SOLVE_FORCED] = -1
    if policy.shape[1] <= N_FIELDS:
        return  # no table anywhere: the words are never read
    for seat in range(n):
        plays = policy.shape[1] > N_FIELDS and policy[seat, N_FIELDS] >= 0.5
        if plays:
            table.has_tables = 1
        for code in range(N_CELLS):
            at = N_FIELDS + 1 + 2 * table.cell_code[code]
            from_table = plays and code % N_FACES != TOP_RANK and policy[seat, at] >= 0.0
            if code >= N_FACES:
                from_table = plays and (code - N_FACES) // N_FACES != TOP_RANK and policy[seat, at] >= 0.0
            bound = uniform_bound_nb(policy[seat, at]) if from_table else table.mix[seat]
            table.cell_bound[seat * N_CELLS + code] = bound
            for dealer in range(2):
                _fill_cell_word_nb(table, policy, seat, code, dealer, from_table)


@njit(cache=True, inline="always")
def _fill_cell_word_nb(table, policy, seat, code, dealer, from_table):
    """Set seat ``seat``'s bits of rank cell ``code`` in its non-dealer (``dealer`` 0) or
    dealer (1) words: swap, and mixed (draw)."""
    received = code >= N_FACES
    held = (code - N_FACES) // N_FACES if received else code
    gave = (code - N_FACES) % N_FACES if received else ALONE_WORD
    decision = table.decision[seat]
    informed = (decision >> INFORMED_BIT) != 0
    if from_table:
        at = N_FIELDS + 1 + 2 * table.cell_code[code]
        swap = policy[seat, at] >= 1.0
        mixed = (not swap) and policy[seat, at + 1] < 1.0
    elif informed and received and dealer == 1:
        swap, mixed = held < gave, False  # rule a, the dealer's: cut exactly on a lower rank received
    elif informed and received and held > gave:
        swap, mixed = False, False  # rule a: keep a higher rank received
    else:  # rule c, as the decision word says
        swap = ((decision >> held) & 1) != 0
        mixed = ((decision >> (MIXED_SHIFT + held)) & 1) != 0
    word = (seat * 2 + dealer) * WORDS_PER_SEAT + gave
    if swap:
        table.cell_word[word] |= 1 << held
    if mixed:
        table.cell_word[word] |= 1 << (MIXED_SHIFT + held)


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


class Chain(NamedTuple):
    """Where the chain of swaps stands when the dealer's turn comes: the dealer's card and
    its rank (``card``, ``rank``), whether it was received by the last exchange and the
    rank given for it (``received``, ``given_rank``), the lowest final rank so far
    (``lowest``), whether the round ended early (``ended``) and the stream (``state``)."""

    card: int
    rank: int
    received: bool
    given_rank: int
    lowest: int
    ended: bool
    state: tuple


@njit(cache=True, inline="always")
def play_round_nb(table, m, state, codes, tables_on, forced=-1, forced_swap=False, solve=False):
    """Play one round among ``m`` positions (0 = eldest, ``m-1`` = dealer).

    Position ``forced`` (advice; -1, none, in hand and game mode, which the compiler folds
    away) swaps (or cuts) when ``forced_swap``, else keeps, whatever its policy says and
    without a draw; ``table.advised`` tells whether its turn came and what it held then.

    With ``tables_on`` (``table.has_tables``: some seat plays a table), a seat whose
    policy row carries a table (``cell_bound``) decides from its table where no rule forces
    its keep, drawing where its cell is mixed; a cell its table leaves out, and a seat
    playing no table, decide as the policy fields do (all folded into ``cell_word`` by
    :func:`_fill_tables_nb`).  The hand and game loops pass it as a constant,
    one copy of the loop each, so that the loop without tables is today's code.  With
    ``solve`` (the solve kernel only; folded away elsewhere) every visit (a decision no rule
    forces) is noted in ``visit_*`` and the visit of position ``table.solve[SOLVE_FORCED]``
    takes the action ``table.solve[SOLVE_FORCED_SWAP]`` after the profile's own decision
    (and its draw, if any): :func:`_solve_visit_nb`.

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
    # Under the rules whose attempts move cards outside the chain of neighbours (diverting
    # kings, queens, jacks) or end it (a dealt king freezing the round), every position's
    # card lives in the held rows.  Otherwise a position's card, when its turn comes, is
    # the one the previous turn left it, so the chain carries it in `card` and `rank` and
    # writes each position's final card once.
    rows_kept = kings == KINGS_STOP_ALL or kings == KINGS_SKIP or queens != 0 or jacks != JACKS_OFF
    rows_kept |= kings == KINGS_FREEZE
    ended = _hold_dealt_cards_nb(table, m, kings) if rows_kept else False
    if solve:
        table.solve[SOLVE_VISITS] = 0
    chain = _swap_chain_nb(table, m, state, codes, rows_kept, ended, forced, forced_swap, tables_on, solve)
    face_rules_on = queens != 0 or jacks != JACKS_OFF
    lowest, state = _dealer_turn_nb(
        table, m, chain, dealer_king_block, face_rules_on, rows_kept, forced, forced_swap, tables_on, solve
    )
    return _showdown_nb(table, m, tie, lowest), state


@njit(cache=True, inline="always")
def _hold_dealt_cards_nb(table, m, kings):
    """Every position holds its dealt card in the held rows; returns whether a dealt king
    freezes the round (kings=freeze)."""
    ended = False
    for k in range(m):
        card = table.dealt[k]
        table.held[k] = card
        table.held_rank[k] = table.rank_of[card]
        table.lost_turn[k] = 0
        table.exchanged[k] = 0  # for the turns an ended round never reaches
    if kings == KINGS_FREEZE:
        for k in range(m):
            ended |= table.held_rank[k] == TOP_RANK
    return ended


@njit(cache=True, inline="always")
def _rank_cell_nb(rank, received, given_rank):
    """The rank cell of a decision (sims.games.chase_ace.table.rank_cell): the rank held,
    or after a swap from the right (``received``) the rank received (held) and given."""
    return N_FACES + N_FACES * rank + given_rank if received else rank


@njit(cache=True, inline="always")
def _table_word_nb(table, seat, dealer, received, given_rank):
    """The seat's ``cell_word`` of a decision with tables on (``dealer``: 1 for the dealer's
    cut): bit r decides holding rank r.  Both candidate words load off the chain's
    critical path (the seat and the rank given are known early); a select picks one."""
    at = np.uint64((seat * 2 + dealer) * WORDS_PER_SEAT)
    after_swap = table.cell_word[at + np.uint64(given_rank)]
    alone = table.cell_word[at + ALONE_WORD]
    return after_swap if received else alone


@njit(cache=True, inline="always")
def _mix_bound_nb(table, seat, rank, received, given_rank, tables_on):
    """The draw bound of a mixed decision: the cell's (``cell_bound``) with tables on,
    else the seat's threshold_mix bound."""
    if tables_on:
        return table.cell_bound[np.uint64(seat * N_CELLS + _rank_cell_nb(rank, received, given_rank))]
    return table.mix[np.uint64(seat)]


@njit(cache=True, inline="always")
def _solve_visit_nb(table, position, cell, swap, keep, visit):
    """The solve kernel's bookkeeping of a decision (see :func:`play_round_nb`): a
    ``visit`` is noted with its declared cell and the action finally taken; the forced
    position's visit takes the forced action.  Returns ``(swap, keep)``."""
    if visit:
        if position == table.solve[SOLVE_FORCED]:
            swap = table.solve[SOLVE_FORCED_SWAP] != 0
            keep = False
        v = table.solve[SOLVE_VISITS]
        table.visit_position[v] = position
        table.visit_cell[v] = table.cell_code[np.uint64(cell)]
        table.visit_swap[v] = swap & (not keep)
        table.solve[SOLVE_VISITS] = v + 1
    return swap, keep


@njit(cache=True, inline="always")
def _swap_chain_nb(table, m, state, codes, rows_kept, ended, forced, forced_swap, tables_on, solve):
    """Positions 0 .. m-2 in turn swap with their left-hand neighbour or keep, under the
    king, queen and jack rules of ``codes`` (position ``forced`` as told, tables and the
    solve's visits as :func:`play_round_nb` says); returns the :class:`Chain` at the dealer."""
    tie, kings, reveal, dealer_king_block, queens, jacks = codes
    kings_act = kings != KINGS_NONE
    # Kings that divert an attempt (stop everything, or skip to the next player) go the
    # slow way; under "block" an attempt on a king simply makes no exchange.
    kings_divert = kings == KINGS_STOP_ALL or kings == KINGS_SKIP
    reveal_blocks = reveal == REVEAL_AT_DEAL and (kings == KINGS_BLOCK or kings == KINGS_STOP_ALL)
    queens_on = queens != 0
    face_rules_on = queens_on or jacks != JACKS_OFF
    dealer = m - 1
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
        ruled = reveal_blocks & target_on_top  # a keep the rules force: no table, no visit
        if face_rules_on:
            ruled |= table.lost_turn[k] != 0
        keep |= ruled
        swap = ((decision >> rank) & 1) != 0
        mixed = (((decision >> (MIXED_SHIFT + rank)) & 1) != 0) & (not keep)
        if tables_on:  # every seat's decision is its word (table.policy_table's cells)
            word = _table_word_nb(table, seat, 0, received, given_rank)
            keep = ruled
            swap = ((word >> rank) & 1) != 0
            mixed = (((word >> (MIXED_SHIFT + rank)) & 1) != 0) & (not keep)
        if k == forced:  # no draw: the advice gives the decision (a king seen at deal still forces a keep)
            table.advised[0] = not (face_rules_on and table.lost_turn[k] != 0)
            table.advised[1] = card
            keep = reveal_blocks & target_on_top
            swap = forced_swap
            mixed = False
        if mixed:
            swap, state = _mixed_swap_nb(_mix_bound_nb(table, seat, rank, received, given_rank, tables_on), state)
        if solve:
            cell = _rank_cell_nb(rank, received, given_rank)
            swap, keep = _solve_visit_nb(table, k, cell, swap, keep, (not ruled) & (rank != TOP_RANK))
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
    return Chain(card, rank, received, given_rank, lowest, ended, state)


@njit(cache=True, inline="always")
def _dealer_turn_nb(
    table, m, chain, dealer_king_block, face_rules_on, rows_kept, forced, forced_swap, tables_on, solve
):
    """The dealer cuts the pack or keeps, after the :class:`Chain` reached it (as told when
    it is position ``forced``, tables and the solve's visits as :func:`play_round_nb`
    says); returns ``(the lowest final rank, state)``."""
    dealer = m - 1
    card, rank, ended, state = chain.card, chain.rank, chain.ended, chain.state
    if rows_kept:
        card = table.held[dealer]
        rank = table.held_rank[dealer]
    received = chain.received & (not ended)
    seat = table.seat_of[dealer]
    decision = table.decision[np.uint64(seat)]
    may_cut = (not ended) & (rank != TOP_RANK)
    if face_rules_on:
        may_cut &= table.lost_turn[dealer] == 0
    informed = ((decision >> INFORMED_BIT) != 0) & received
    cut = (rank < chain.given_rank) if informed else ((decision >> rank) & 1) != 0
    mixed = may_cut & (not informed) & (((decision >> (MIXED_SHIFT + rank)) & 1) != 0)
    if tables_on:
        word = _table_word_nb(table, seat, 1, received, chain.given_rank)
        cut = ((word >> rank) & 1) != 0
        mixed = may_cut & (((word >> (MIXED_SHIFT + rank)) & 1) != 0)
    if dealer == forced:
        table.advised[0] = (not ended) & (not (face_rules_on and table.lost_turn[dealer] != 0))
        table.advised[1] = card
        cut = forced_swap
        mixed = False
    if mixed:
        cut, state = _mixed_swap_nb(_mix_bound_nb(table, seat, rank, received, chain.given_rank, tables_on), state)
    if solve:
        cut, _ = _solve_visit_nb(table, dealer, _rank_cell_nb(rank, received, chain.given_rank), cut, False, may_cut)
    cut_card = table.dealt[m]
    cut_rank = table.rank_of[np.uint64(cut_card)]
    take = may_cut & cut & (not ((cut_rank == TOP_RANK) & (dealer_king_block != 0)))
    table.held[dealer] = cut_card if take else card
    table.held_rank[dealer] = cut_rank if take else rank
    table.exchanged[dealer] = take
    lowest = min(chain.lowest, cut_rank if take else rank)
    if rows_kept:
        lowest = TOP_RANK
        for k in range(m):
            lowest = min(lowest, table.held_rank[k])
    return lowest, state


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


@njit(cache=True, inline="always")
def hand_table_nb(rules, policy, n):
    """The scratch :func:`play_hand_nb` plays on: a one-record ``TABLE`` array (its record,
    ``tables[0]``, is the table), each position played by the seat of that number."""
    tables = new_table_nb(rules, policy)
    table = tables[0]
    for seat in range(n):
        table.seat_of[seat] = seat
    return tables


@njit(cache=True, inline="always")
def hand_codes_nb(rules, policy, table, n):
    """What :func:`play_hand_nb` reads once per block: :func:`rule_codes_nb`'s tuple (a
    fixed-rules kernel builds it from constants) and whether any seat plays a table
    (``tables_on``, a constant in the hand loops: one copy of the loop each)."""
    return rule_codes_nb(rules), table.has_tables != 0


@njit(cache=True, inline="always")
def play_hand_nb(table, n, dealer, shuffle, state, codes):
    """The game's per-hand entry point (the contract every game's kernel shares): one round
    at ``n`` positions on the record ``table``, from the round's stream ``state``; the
    positions run from the dealer's left, so ``dealer`` is always ``n - 1`` (which seat
    sits at each position is ``table.seat_of``).  With ``shuffle`` the n cards and the cut
    card are dealt from the stream into ``table.dealt``; without, they are the ones stacked
    there.  ``codes`` is :func:`hand_codes_nb`'s ``(rule codes, tables_on)``.  The losers,
    final cards and exchanges are left in ``lose``, ``held`` and ``exchanged``
    (:func:`play_round_nb`); returns the advanced stream."""
    rule_codes, tables_on = codes
    if shuffle:
        state = deal_prefix_nb(table.pack, table.dealt, n + 1, state)
    return play_round_nb(table, n, state, rule_codes, tables_on)[1]


@njit(cache=True)
def new_hand_table_nb(rules, policy, n):
    """The scratch and the zeroed sums of a hand-mode block: ``(tables, out)``."""
    return hand_table_nb(rules, policy, n), np.zeros((n + 1, HAND_WIDTH), dtype=np.int64)


@njit(cache=True, inline="always")
def _hand_sums_nb(tables, out, n, seed, first, count, codes):
    """Hand mode's loop, for both hand kernels: the sums of hands ``first .. first+count-1``
    into ``out``.  ``codes`` are the rule values of :func:`rule_codes_nb`, read from the
    rules or fixed at compile time.  Its callers are compiled without NRT (they allocate
    nothing): with it, every hand paid atomic reference-count operations on the arrays it
    binds to inlined functions' arguments.  The loop is compiled twice, with and without
    tables (a constant ``tables_on``), so that hands without tables run today's code."""
    table = tables[0]
    if table.has_tables != 0:
        _hand_loop_nb(table, out, n, seed, first, count, codes, True)
    else:
        _hand_loop_nb(table, out, n, seed, first, count, codes, False)
    for seat in range(n):
        out[seat, H_LOSE_LIFE] = table.lose_sum[seat]
        out[seat, H_EXCHANGE] = table.exchange_sum[seat]


@njit(cache=True, inline="always")
def _hand_loop_nb(table, out, n, seed, first, count, codes, tables_on):
    """The hands of :func:`_hand_sums_nb`: per seat lives lost and exchanges into the
    record, the table row into ``out``."""
    seed_key = seed_key_nb(seed)
    hand_codes = (codes, tables_on)
    for hand in range(first, first + count):
        play_hand_nb(table, n, n - 1, True, stream_nb(seed_key, hand), hand_codes)
        losers = 0
        for seat in range(n):
            lose = table.lose[seat]
            losers += lose
            table.lose_sum[seat] += lose
            table.exchange_sum[seat] += table.exchanged[seat]
        out[n, T_LOSERS] += losers
        out[n, T_LOSERS_SQ] += losers * losers
        out[n, T_NO_LOSER] += losers == 0


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


def lanes_apply(codes: tuple) -> bool:
    """Whether hands under rules of these :func:`rule_codes_nb` may be played in lanes
    (sims/games/chase_ace/lanes.py): all-lowest-lose, kings block (revealed on an attempt)
    and no queen or jack rule; any dealer_king_block."""
    tie, kings, reveal, _, queens, jacks = codes
    return (
        tie == TIE_ALL_LOWEST
        and kings == KINGS_BLOCK
        and reveal == REVEAL_ON_ATTEMPT
        and queens == 0
        and jacks == JACKS_OFF
    )


@njit(cache=True)
def new_lane_hand_table_nb(rules, policy, n):
    """:func:`new_hand_table_nb`'s scratch and a ``LANES`` record: ``((tables, lanes), out)``."""
    tables, out = new_hand_table_nb(rules, policy, n)
    return (tables, lanes_nb.new_lanes_nb()), out


@njit(cache=True, nogil=True, _nrt=False)
def lanes_fit_nb(tables, lanes_array, n):
    """Whether the block's hands may play in lanes: no seat plays a table or draws (a
    threshold_mix strictly between 0 and 1 whose rank can come), every seat swaps exactly
    below some rank, and ``n + 1`` cards fit the lanes' rows.  Writes each seat's rank
    threshold and informed flag into the ``LANES`` record ``lanes_array[0]``."""
    table = tables[0]
    lanes = lanes_array[0]
    if table.has_tables != 0 or n + 1 > lanes_nb.ROWS:
        return False
    ranks = (1 << N_FACES) - 1
    for seat in range(n):
        decision = table.decision[seat]
        swaps = decision & ranks
        mixed = (decision >> MIXED_SHIFT) & ranks
        if mixed != 0:
            if table.mix[seat] <= MIX_ALWAYS:
                return False  # a draw decides there
            swaps |= mixed  # threshold_mix 1: swap without a draw
        below = 0
        while (swaps >> below) & 1:
            below += 1
        if swaps != (1 << below) - 1 or below > TOP_RANK:
            return False
        lanes.threshold[seat] = below
        lanes.informed[seat] = (decision >> INFORMED_BIT) & 1
    return True


@njit(cache=True, nogil=True, _nrt=False)
def _lane_hand_loop_nb(table, lanes, out, n, seed, first, count, dealer_king_block):
    """Hand mode's sums of hands ``first .. first+count-1`` played in lanes: per seat lives
    lost and exchanges into the record, the table row into ``out``.  A hand whose draws
    may reject is dealt again from its stream by :func:`sims.core.deck.deal_prefix_nb`."""
    seed_key = seed_key_nb(seed)
    ace_high = np.uint8(table.rank_of[0] == TOP_RANK)  # the ace (code 0) ranks top
    cards = n + 1
    batches = 0
    start = first
    end = first + count
    while start < end:
        width = min(lanes_nb.WIDTH, end - start)
        lanes_nb.draw_lanes_nb(lanes, seed_key, start, width, cards)
        lanes_nb.deal_lanes_nb(lanes, width, cards, ace_high)
        redeal = np.uint64(0)
        for h in range(width):
            redeal |= lanes.redeal[h]
        if redeal != 0:
            for h in range(width):
                if lanes.redeal[h] != 0:
                    deal_prefix_nb(table.pack, table.dealt, cards, stream_nb(seed_key, start + h))
                    for k in range(cards):
                        lanes.rank[np.uint64(k * lanes_nb.WIDTH + h)] = table.rank_of[np.uint64(table.dealt[k])]
        lanes_nb.play_lanes_nb(lanes, width, n, dealer_king_block)
        lanes_nb.count_lanes_nb(lanes, width, n)
        batches += 1
        start += width
        if batches == lanes_nb.FLUSH_BATCHES or start >= end:
            losers, losers_sq, no_loser = lanes_nb.flush_lanes_nb(lanes, n, table.lose_sum, table.exchange_sum)
            out[n, T_LOSERS] += losers
            out[n, T_LOSERS_SQ] += losers_sq
            out[n, T_NO_LOSER] += no_loser
            batches = 0


@njit(cache=True, nogil=True, _nrt=False)
def lane_hand_sums_nb(tables, lanes, out, n, seed, first, count, dealer_king_block):
    """:func:`_hand_sums_nb` in lanes, for rules where :func:`lanes_apply`, when the
    block's policy allows (:func:`lanes_fit_nb`); returns False, having done nothing,
    when it does not.  A function of its own, not inlined: compiled once for every rule
    tuple, and the kernels that call it compile no faster for inlining a loop that runs
    once per block."""
    table = tables[0]
    if not lanes_fit_nb(tables, lanes, n):
        return False
    _lane_hand_loop_nb(table, lanes[0], out, n, seed, first, count, dealer_king_block)
    for seat in range(n):
        out[seat, H_LOSE_LIFE] = table.lose_sum[seat]
        out[seat, H_EXCHANGE] = table.exchange_sum[seat]
    return True


def fixed_hands_kernel(codes: tuple):
    """:func:`simulate_hands_nb` compiled for one tuple of :func:`rule_codes_nb`: the rule
    tests fold away at compile time, and with them the held rows that only the rare rules
    need (standard rules, 8 players: 27% fewer instructions, half the branch mispredictions,
    about 1.6 times as fast as the generic kernel).  Each tuple is a compile of a few
    seconds and a cache file of about 90 KB, so ``SPEC`` uses it for the standard rules
    only (``fixed_kernels``).  Same sums as the generic kernel for rules with these codes.
    The kernel is a Python function around the compiled parts
    (:func:`sims.spec.kernel_around_loop`).

    Where :func:`lanes_apply` (the standard rules), a block whose policy never draws plays
    its hands side by side in lanes (:func:`lane_hand_sums_nb`, sims/games/chase_ace/lanes.py;
    8 players: 144 instructions per hand against 797 one hand at a time, about 4 times as
    fast), and the hand-at-a-time loop compiles on the first block that needs it (a policy
    that draws, a table, more than 23 players): the lanes compile in about a sixth of its
    time, so a first run that plays in lanes compiles that much less."""
    codes = tuple(int(code) for code in codes)

    @njit(cache=True, nogil=True, _nrt=False)
    def fixed_hand_sums_nb(tables, out, n, seed, first, count):
        _hand_sums_nb(tables, out, n, seed, first, count, codes)

    if not lanes_apply(codes):
        return kernel_around_loop(new_hand_table_nb, fixed_hand_sums_nb)
    dealer_king_block = np.int64(codes[3])

    def simulate_hands_fixed(rules, policy, n, seed, first, count):
        (tables, lanes), out = new_lane_hand_table_nb(rules, policy, n)
        if lanes_fit_nb(tables, lanes, n):  # so that a policy that draws never compiles the lanes
            lane_hand_sums_nb(tables, lanes, out, n, seed, first, count, dealer_king_block)
        else:
            fixed_hand_sums_nb(tables, out, n, seed, first, count)
        return out

    simulate_hands_fixed.loop = fixed_hand_sums_nb  # type: ignore[attr-defined]  # as kernel_around_loop's
    simulate_hands_fixed.parts = (new_lane_hand_table_nb, lanes_fit_nb, lane_hand_sums_nb, fixed_hand_sums_nb)  # type: ignore[attr-defined]
    return simulate_hands_fixed


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


class GameEnd(NamedTuple):
    """How a game ended: its rounds, final ties and carried pots, whether it hit the round
    cap (``truncated``), and the stream (``state``)."""

    rounds: int
    final_ties: int
    carried: int
    truncated: int
    state: tuple


@njit(cache=True, inline="always")
def _seat_the_living_nb(table, lives, dealer, n):
    """Positions of this round: the seats with lives, from the dealer's left; returns how
    many there are (``table.seat_of`` holds their seats)."""
    m = 0
    seat = (dealer + 1) % n
    for _ in range(n):
        if lives[seat] > 0:
            table.seat_of[m] = seat
            m += 1
        seat = (seat + 1) % n
    return m


@njit(cache=True, inline="always")
def _lose_lives_nb(table, lives, paid, m, pot, paying):
    """Each loser of the round loses a life and (while the game pays) puts a unit in the
    pot; returns the pot."""
    for k in range(m):
        if table.lose[k]:
            lives[table.seat_of[k]] -= 1
            if paying:
                paid[table.seat_of[k]] += 1
                pot += 1
    return pot


@njit(cache=True, inline="always")
def _final_tie_nb(table, out, lives, paid, share, m, pot, paying, final_tie, state):
    """Every remaining player lost their last life together (not under final_tie=replay):
    they pay, then split the pot, cut for it, or carry it to a continuation game.  Returns
    ``(game over, pot, paying, state)``."""
    for k in range(m):
        lives[table.seat_of[k]] = 0
        if paying:
            paid[table.seat_of[k]] += 1
            pot += 1
    if final_tie == FINAL_SPLIT:
        for k in range(m):
            share[table.seat_of[k]] = 12 * pot // m
            out[table.seat_of[k], G_SPLIT_WIN] += 1
        return True, pot, paying, state
    if final_tie == FINAL_CUT_HIGH:
        for k in range(m):
            table.candidate[k] = table.seat_of[k]
        winner, state = _cut_high_nb(table, m, state)
        share[winner] = 12 * pot
        out[winner, G_WIN] += 1
        return True, pot, paying, state
    # carry-with-stake / carry-no-stake: a continuation game for the carried pot
    return False, pot, paying and final_tie != FINAL_CARRY_NO_STAKE, state


@njit(cache=True, inline="always")
def _settle_round_nb(table, out, lives, paid, share, n, m, losers, pot, paying, lives_at_start, final_tie, state):
    """After a round among ``m`` positions (seats in ``table.seat_of``, losers marked in
    ``table.lose``, ``losers`` of them): the losers lose a life and pay, unless every
    remaining player lost its last life together (a final tie: replayed, split, cut for or
    carried as ``final_tie`` says; a carried pot starts a continuation game of all ``n``
    seats at ``lives_at_start``).  Returns ``(game over, pot, paying, final tie (0/1),
    carried (0/1), state)``."""
    everyone_out = losers == m
    for k in range(m):
        if lives[table.seat_of[k]] != 1:
            everyone_out = False
    over = False
    tied = 0
    carried = 0
    if not everyone_out:
        pot = _lose_lives_nb(table, lives, paid, m, pot, paying)
    elif final_tie == FINAL_REPLAY:
        tied = 1
    else:
        tied = 1
        over, pot, paying, state = _final_tie_nb(table, out, lives, paid, share, m, pot, paying, final_tie, state)
        if not over:
            carried = 1
            for s in range(n):
                lives[s] = lives_at_start
    return over, pot, paying, tied, carried, state


@njit(cache=True, inline="always")
def _play_on_nb(
    table, out, lives, paid, share, n, dealer, pot, paying, rounds, lives_at_start, final_tie, codes, tables_on, state
):
    """The rest of a game from its state: ``lives`` per seat, ``dealer`` the seat that
    deals the next round (it has lives), the ``pot``, whether lives lost are ``paying``, and the ``rounds`` played.  Rounds
    until one player is left (who takes the pot, ``out[seat, G_WIN]``) or a final tie
    settles it; ``paid`` and ``share`` (twelfths of a unit) are added to per seat;
    ``tables_on`` as :func:`play_round_nb` says.  Returns its :class:`GameEnd` (counting
    the final ties and carried pots from here)."""
    final_ties = carried = truncated = 0
    while True:
        m = _seat_the_living_nb(table, lives, dealer, n)
        if m == 1:
            share[table.seat_of[0]] = 12 * pot
            out[table.seat_of[0], G_WIN] += 1
            break
        if rounds >= MAX_ROUNDS:
            truncated = 1
            break
        state = deal_prefix_nb(table.pack, table.dealt, m + 1, state)
        losers, state = play_round_nb(table, m, state, codes, tables_on)
        rounds += 1
        over, pot, paying, tied, carry, state = _settle_round_nb(
            table, out, lives, paid, share, n, m, losers, pot, paying, lives_at_start, final_tie, state
        )
        final_ties += tied
        carried += carry
        if over:
            break
        dealer = _next_active(lives, dealer, n)
    return GameEnd(rounds, final_ties, carried, truncated, state)


@njit(cache=True, inline="always")
def _play_game_nb(table, out, lives, paid, share, n, lives_at_start, final_tie, codes, tables_on, state):
    """One whole game from ``lives_at_start`` lives each, the first dealer in seat ``n-1``:
    rounds until one player is left (who takes the pot) or a final tie settles it.
    ``paid`` and ``share`` (twelfths of a unit) are filled per seat; returns its
    :class:`GameEnd`."""
    for seat in range(n):
        lives[seat] = lives_at_start
        paid[seat] = 0
        share[seat] = 0
    return _play_on_nb(
        table, out, lives, paid, share, n, n - 1, 0, True, 0, lives_at_start, final_tie, codes, tables_on, state
    )


@njit(cache=True, nogil=True, _nrt=False)
def _game_sums_nb(rules, tables, out, lives, paid, share, n, seed, first, count):
    """Game mode's loop: the sums of games ``first .. first+count-1`` into ``out``;
    ``lives``, ``paid`` and ``share`` (twelfths of a unit received from the pot) are
    per-seat scratch.  It allocates nothing and is compiled without NRT, so the record
    ``tables[0]`` is used while its caller holds ``tables``.  Compiled twice, with and
    without tables (a constant ``tables_on``, see :func:`play_round_nb`)."""
    table = tables[0]
    if table.has_tables != 0:
        _game_loop_nb(rules, table, out, lives, paid, share, n, seed, first, count, True)
    else:
        _game_loop_nb(rules, table, out, lives, paid, share, n, seed, first, count, False)


@njit(cache=True, inline="always")
def _game_loop_nb(rules, table, out, lives, paid, share, n, seed, first, count, tables_on):
    """The games of :func:`_game_sums_nb`."""
    lives_at_start = rules[R_LIVES]
    final_tie = rules[R_FINAL_TIE]
    codes = rule_codes_nb(rules)
    seed_key = seed_key_nb(seed)
    for game in range(first, first + count):
        state = stream_nb(seed_key, game)
        end = _play_game_nb(table, out, lives, paid, share, n, lives_at_start, final_tie, codes, tables_on, state)
        for seat in range(n):
            net = share[seat] - 12 * paid[seat]
            out[seat, G_NET] += net
            out[seat, G_NET_SQ] += net * net
        out[n, T_ROUNDS] += end.rounds
        out[n, T_ROUNDS_SQ] += end.rounds * end.rounds
        out[n, T_FINAL_TIE] += end.final_ties
        out[n, T_FINAL_TIE_SQ] += end.final_ties * end.final_ties
        out[n, T_CARRIED] += end.carried
        out[n, T_CARRIED_SQ] += end.carried * end.carried
        out[n, T_TRUNCATED] += end.truncated
        bucket = 0  # the game's length bucket: the last whose first round count it reaches
        while bucket + 1 < len(LENGTH_BUCKET_LOW) and end.rounds >= LENGTH_BUCKET_LOW[bucket + 1]:
            bucket += 1
        out[n, T_LENGTH + bucket] += 1


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
