"""Plain-Python slow twin of the Chase the Ace kernel (:mod:`sims.games.chase_ace`).

Written from the package docstring of ``sims/games/chase_ace/__init__.py`` (the rules contract) and ``shared/rules/chase-ace.md`` alone,
without reference to the Numba kernel, so that agreement between the two is evidence that
both follow the contract.  It draws from the same counter-keyed streams
(:class:`sims.core.rng.Stream`) in the same order as the contract prescribes:

* a round deals ``deal_prefix(stream, m + 1)`` (card ``k`` to position ``k``, card ``m``
  the cut card, dealt whether or not the dealer cuts);
* then, in turn order, a ``stream.uniform()`` is drawn only when a player's card ranks
  exactly one above its threshold and ``0 < threshold_mix < 1`` (the threshold rule c);
* in game mode a cut-high final tie deals ``deal_prefix(stream, k)`` for the ``k`` tied
  players (again for the still-tied ones), after the round that fired it.

Public functions:

* :func:`play_dealt` plays one round from literal cards (stacked-deck tests) and can log
  every step in card notation;
* :func:`play_hand` / :func:`play_game` play hand ``i`` / game ``i`` of a seed and return
  the outcome rows in ``HAND_OUTCOMES`` / ``GAME_OUTCOMES`` column order;
* :func:`simulate` sums those rows over a range of hands or games into the kernel's
  ``(n_seats + 1, width)`` int64 layout;
* :func:`replay_lines` is the readable log of one hand of a seed.

Readings taken where the contract leaves a point open are marked ``(reading)`` in
comments below.
"""

from __future__ import annotations

from sims.core.cards import card_name
from sims.core.deck import deal_prefix
from sims.core.rng import Stream
from sims.core.table_nb import record_visit, table_action
from sims.core.twins import sum_outcome_rows
from sims.games.chase_ace import (
    FINAL_CARRY_NO_STAKE,
    FINAL_CARRY_STAKE,
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
    MAX_ROUNDS,
    REVEAL_AT_DEAL,
    THRESHOLD,
    THRESHOLD_MIX,
    TIE_ALL_LOWEST,
    TIE_CANCEL_MATCHES,
    TIE_EARLIEST,
    TIE_LATEST,
    TIE_TO_DEALER,
    Rules,
)
from sims.games.chase_ace.table import KEEP, N_CELLS, N_FIELDS, SWAP, TABLES, face_cell

__all__ = ["play_dealt", "play_hand", "play_game", "simulate", "replay_lines", "rank_of", "solve"]

JACK_FACE, QUEEN_FACE = 10, 11
TOP_RANK = 12  # the K, or the A with ace_high
TWELFTHS = 12  # net_chips unit

_KING_NAMES = {
    KINGS_BLOCK: "block",
    KINGS_NONE: "none",
    KINGS_FREEZE: "freeze-if-dealt",
    KINGS_STOP_ALL: "stop-all-on-attempt",
    KINGS_SKIP: "skip-to-next",
}


# ----------------------------------------------------------------------------------------
# Ranks


def rank_of(code: int, ace_high: bool) -> int:
    """Rank 0..12 of a card code: A low (rank = face), or A high (rank = (face + 12) % 13)."""
    face = code % 13
    return (face + 12) % 13 if ace_high else face


def _face(code: int) -> int:
    return code % 13


def _check_rules(rules: Rules) -> None:
    if rules.kings not in _KING_NAMES:
        raise ValueError(f"unknown kings rule code {rules.kings}")
    if rules.tie not in (TIE_ALL_LOWEST, TIE_CANCEL_MATCHES, TIE_EARLIEST, TIE_LATEST, TIE_TO_DEALER):
        raise ValueError(f"unknown tie rule code {rules.tie}")
    if rules.jacks not in (0, 1, 2):
        raise ValueError(f"unknown jacks rule code {rules.jacks}")
    if rules.final_tie not in (
        FINAL_SPLIT,
        FINAL_REPLAY,
        FINAL_CUT_HIGH,
        FINAL_CARRY_STAKE,
        FINAL_CARRY_NO_STAKE,
    ):
        raise ValueError(f"unknown final_tie code {rules.final_tie}")


# ----------------------------------------------------------------------------------------
# Showdown


def _losers(rules: Rules, ranks: list[int]) -> list[int]:
    """0/1 per position: who loses a life under the tie rule (positions in turn order)."""
    m = len(ranks)
    lose = [0] * m
    tie = rules.tie
    if tie == TIE_CANCEL_MATCHES:
        counts: dict[int, int] = {}
        for r in ranks:
            counts[r] = counts.get(r, 0) + 1
        unique = [r for r, c in counts.items() if c == 1]
        if unique:
            lowest = min(unique)
            lose[ranks.index(lowest)] = 1
        return lose
    if tie == TIE_TO_DEALER:
        # (reading) the contract defines this rule for two players only; any other table
        # size is rejected rather than guessed at.
        if m != 2:
            raise ValueError("tie rule ties-to-dealer is defined for two players only")
        if ranks[0] <= ranks[1]:
            lose[0] = 1
        else:
            lose[1] = 1
        return lose
    lowest = min(ranks)
    holders = [k for k in range(m) if ranks[k] == lowest]
    if tie == TIE_ALL_LOWEST:
        for k in holders:
            lose[k] = 1
    elif tie == TIE_EARLIEST:
        lose[holders[0]] = 1
    elif tie == TIE_LATEST:
        lose[holders[-1]] = 1
    else:  # pragma: no cover - guarded by _check_rules
        raise ValueError(f"unknown tie rule code {tie}")
    return lose


# ----------------------------------------------------------------------------------------
# One round from literal cards


def _threshold_decision(row, rank1: int, stream, who: str, log) -> bool:
    """Rule c: SWAP/CUT if rank1 <= threshold; at threshold + 1 mix (draw only if 0<mix<1)."""
    threshold = row[THRESHOLD]
    mix = row[THRESHOLD_MIX]
    if rank1 <= threshold:
        if log is not None:
            log.append(f"  {who}: rank {rank1} <= threshold {_num(threshold)}")
        return True
    if rank1 == threshold + 1:
        if 0.0 < mix < 1.0:
            if stream is None:
                raise ValueError(
                    f"{who} needs a mixed-strategy draw (rank {rank1} at threshold "
                    f"{_num(threshold)} + 1, threshold_mix {mix}) but no stream was given"
                )
            u = stream.uniform()
            if log is not None:
                verdict = "<" if u < mix else ">="
                log.append(f"  {who}: rank {rank1} = threshold + 1, draw u = {u:.6f} {verdict} mix {_num(mix)}")
            return u < mix
        if mix >= 1.0:
            if log is not None:
                log.append(f"  {who}: rank {rank1} = threshold + 1 and threshold_mix {_num(mix)} >= 1")
            return True
    if log is not None:
        log.append(f"  {who}: rank {rank1} above threshold {_num(threshold)}")
    return False


def _cell(held: int, gave: int | None) -> int:
    """The declared cell of the swap decision (sims.games.chase_ace.table): the face held,
    or after a swap from the right the face received (held) and the face given."""
    return face_cell(held % 13, None if gave is None else gave % 13)


def _table_decision(row, cell: int, stream, who: str, log):
    """The action of the row's table in ``cell`` (True: swap or cut), or None when the row
    plays no table or its table leaves the cell out."""
    if len(row) <= N_FIELDS or row[N_FIELDS] < 0.5 or row[N_FIELDS + 1 + 2 * cell] < 0.0:
        return None
    p_swap, p_keep = row[N_FIELDS + 1 + 2 * cell], row[N_FIELDS + 2 + 2 * cell]
    if stream is None and p_swap < 1.0 and p_keep < 1.0:
        raise ValueError(f"{who} needs a mixed-strategy draw from its table (cell {cell}) but no stream was given")
    action = table_action(row, N_FIELDS, 2, cell, stream)
    if log is not None:
        log.append(f"{who}: table cell {TABLES[0].cell_text(cell)}: {TABLES[0].actions[action]}")
    return action == SWAP


def _visit(visits: list, position: int, cell: int, decided: bool, override) -> bool:
    """Note a solve visit; the overridden position's visit takes the forced action."""
    if override is not None and override[0] == position:
        decided = override[1]
    visits.append((position, cell, bool(decided)))
    return bool(decided)


def _num(x) -> str:
    x = float(x)
    return str(int(x)) if x == int(x) else f"{x:g}"


def play_dealt(
    rules: Rules, policy, cards, stream=None, log=None, *, labels=None, forced=None, visits=None, override=None
) -> dict:
    """Play one round of Chase the Ace from literal cards.

    ``cards`` holds ``m + 1`` card codes: position ``k``'s card for ``k = 0 .. m-1``
    (position 0 the eldest hand, ``m-1`` the dealer), then the cut card.  ``policy`` has
    one row ``(threshold, threshold_mix, informed)`` per position.  ``stream`` is used only
    for mixed-strategy draws; ``log`` (a list) receives a readable line per step.
    ``labels`` (optional) names the positions in the log (default ``"seat k"``).

    ``forced`` (advice) is ``(position, swap)``: that position swaps (the dealer cuts)
    when ``swap`` is true, else keeps, whatever its policy says, and draws nothing.

    A policy row longer than the three fields carries a table of the swap decision
    (sims.core.table): where no rule forces the keep, a seat playing one looks its cell up
    (:func:`_cell`) and takes the table's action (a mixed cell draws from ``stream``); a
    cell left out falls back to the policy fields.

    ``visits`` (the solve, a list): every visit (a decision no rule forces) is appended as
    ``(position, cell, swapped)``; ``override`` ``(position, swap)`` makes that position's
    visit take ``swap`` after its own decision (and its draw, if any).

    Returns ``{"lose": [...], "exchange": [...], "final": [...]}``, each a list over
    positions: 0/1 life lost, 0/1 completed exchange on its own turn (the dealer: cut and
    took the cut card), and the final card codes; with ``forced``, also ``"advised"``:
    ``(whether the forced position's turn came and it decided, the card it held then)``.
    """
    _check_rules(rules)
    cards = [int(c) for c in cards]
    m = len(cards) - 1
    if m < 2:
        raise ValueError("a round needs at least two players and a cut card")
    if len(policy) < m:
        raise ValueError(f"policy has {len(policy)} rows for {m} positions")
    if len(set(cards)) != len(cards) or any(not 0 <= c < 52 for c in cards):
        raise ValueError("cards must be distinct card codes 0..51")
    ace_high = bool(rules.ace_high)
    kings = rules.kings
    dealer = m - 1
    cut_card = cards[m]

    def rk(code):
        return rank_of(code, ace_high)

    def is_top(code):
        return rk(code) == TOP_RANK

    def name(k):
        if labels is not None:
            return labels[k]
        return f"seat {k}"

    hand = cards[:m]
    dealt_top = [is_top(c) for c in hand]
    exchange = [0] * m
    lost_turn = [False] * m
    # direct[k]: position k completed an exchange with k+1 on its own turn (not redirected
    # by a queen, not via skip-to-next) -- the only kind that informs k+1 (rule a).
    direct = [False] * m
    ended = False
    forced_position, forced_swap = forced if forced is not None else (-1, False)
    advised = (False, -1)

    if log is not None:
        for k in range(m):
            role = " (eldest)" if k == 0 else (" (dealer)" if k == dealer else "")
            log.append(f"deal: {name(k)}{role} gets {card_name(hand[k])}")
        log.append(f"deal: cut card (face down) {card_name(cut_card)}")

    tops_dealt = [k for k in range(m) if dealt_top[k]]
    if rules.king_reveal == REVEAL_AT_DEAL and tops_dealt and log is not None:
        log.append("kings shown at deal: " + ", ".join(f"{name(k)} {card_name(hand[k])}" for k in tops_dealt))
    if kings == KINGS_FREEZE and tops_dealt:
        ended = True
        if log is not None:
            log.append(
                "freeze-if-dealt: "
                + ", ".join(f"{name(k)} shows {card_name(hand[k])}" for k in tops_dealt)
                + "; no exchanges this round"
            )

    def swap(a, b):
        hand[a], hand[b] = hand[b], hand[a]
        if log is not None:
            log.append(f"  exchange: {name(a)} gets {card_name(hand[a])}, {name(b)} gets {card_name(hand[b])}")

    def kings_block(k, target, redirected):
        """An attempt by ``k`` meets a TOP card held by ``target`` (kings != none).

        Returns True if it ends in an exchange (skip-to-next, not redirected)."""
        nonlocal ended
        if log is not None:
            log.append(f"  {name(target)} shows {card_name(hand[target])}")
        if kings == KINGS_STOP_ALL:
            ended = True
            if log is not None:
                log.append("  stop-all-on-attempt: no exchange, exchanging ends for the round")
            return False
        if kings == KINGS_SKIP and not redirected:
            j = target + 1
            while j <= dealer and is_top(hand[j]):
                if log is not None:
                    log.append(f"  skip-to-next: {name(j)} also shows {card_name(hand[j])}")
                j += 1
            if j > dealer:
                if log is not None:
                    log.append("  skip-to-next: nobody beyond to exchange with, no exchange")
                return False
            if log is not None:
                log.append(f"  skip-to-next: {name(k)} exchanges with {name(j)} instead")
            swap(k, j)
            return True
        # block; skip-to-next after a queen redirection blocks; freeze-if-dealt never gets
        # here (a dealt TOP freezes the round and no TOP can arrive before the cut).
        if log is not None:
            log.append("  blocked: no exchange")
        return False

    # -- the non-dealers' turns ---------------------------------------------------------
    for k in range(m - 1):
        row = policy[k]
        who = name(k)
        if k == forced_position:
            advised = (not ended and not lost_turn[k], hand[k])
        if ended:
            if log is not None:
                log.append(f"{who} keeps {card_name(hand[k])} (exchanging has ended)")
            continue
        if is_top(hand[k]):
            if log is not None:
                log.append(f"{who} keeps {card_name(hand[k])} (holds the top card)")
            continue
        if lost_turn[k]:
            if log is not None:
                log.append(f"{who} keeps {card_name(hand[k])} (turn lost to a shown jack)")
            continue
        t = k + 1
        my_rank = rk(hand[k])
        decided = None
        if k == forced_position:
            decided = forced_swap
        # b. (checked first for tables) a king seen at the deal in the way forces the keep.
        seen_king = (
            rules.king_reveal == REVEAL_AT_DEAL
            and kings in (KINGS_BLOCK, KINGS_STOP_ALL)
            and is_top(hand[t])
            and dealt_top[t]
        )
        cell = _cell(hand[k], hand[k - 1] if k >= 1 and direct[k - 1] else None)
        if k != forced_position and not seen_king:
            decided = _table_decision(row, cell, stream, who, log)
        # a. informed: the right-hand neighbour just exchanged with me on its own turn and
        # what I received outranks what I gave -> KEEP.  Otherwise fall through to b and c.
        if decided is None and k != forced_position and row[INFORMED] and k >= 1 and direct[k - 1]:
            received, given = my_rank, rk(hand[k - 1])
            if received > given:
                decided = False
                if log is not None:
                    log.append(
                        f"{who} keeps {card_name(hand[k])} (informed: received "
                        f"{card_name(hand[k])} > gave {card_name(hand[k - 1])})"
                    )
        # b. kings shown at deal: an attempt on a dealt TOP would be futile (block) or
        # would stop all exchanges (stop-all) -> KEEP.
        if (
            decided is None
            and rules.king_reveal == REVEAL_AT_DEAL
            and kings in (KINGS_BLOCK, KINGS_STOP_ALL)
            and is_top(hand[t])
            and dealt_top[t]
        ):
            decided = False
            if log is not None:
                log.append(f"{who} keeps {card_name(hand[k])} ({name(t)} was seen to hold {card_name(hand[t])})")
        elif k == forced_position and decided and rules.king_reveal == REVEAL_AT_DEAL:
            if kings in (KINGS_BLOCK, KINGS_STOP_ALL) and is_top(hand[t]) and dealt_top[t]:
                decided = False  # the rules refuse an attempt on a king shown at the deal
        # c. threshold (the only case that may draw).
        if decided is None:
            if log is not None:
                log.append(f"{who} holds {card_name(hand[k])}")
            decided = _threshold_decision(row, my_rank + 1, stream, who, log)
            if log is not None:
                log.append(f"{who} {'asks to swap with ' + name(t) if decided else 'keeps'}")
        if visits is not None and not seen_king:
            decided = _visit(visits, k, cell, decided, override)
        if not decided:
            continue

        # Resolve the attempt on t.
        target_card = hand[t]
        if is_top(target_card) and kings != KINGS_NONE:
            if kings_block(k, t, redirected=False):
                exchange[k] = 1
        elif rules.queens and _face(target_card) == QUEEN_FACE:
            r = k - 1 if k > 0 else dealer
            if log is not None:
                log.append(f"  {name(t)} shows {card_name(target_card)}: {who} must exchange with {name(r)}")
            if r == t:
                if log is not None:
                    log.append("  queen: the right-hand player is the queen holder, no exchange")
            elif _face(hand[r]) == QUEEN_FACE:
                if log is not None:
                    log.append(f"  {name(r)} also shows {card_name(hand[r])}: no exchange")
            elif is_top(hand[r]) and kings != KINGS_NONE:
                kings_block(k, r, redirected=True)
            elif rules.jacks != JACKS_OFF and _face(hand[r]) == JACK_FACE:
                if log is not None:
                    log.append(f"  {name(r)} shows {card_name(hand[r])}: no exchange")
                if rules.jacks == JACKS_HOLDER_SKIPPED and r == dealer:
                    lost_turn[r] = True
                    if log is not None:
                        log.append(f"  holder-skipped: {name(r)} loses its turn")
            else:
                swap(k, r)
                exchange[k] = 1
        elif rules.jacks != JACKS_OFF and _face(target_card) == JACK_FACE:
            if log is not None:
                log.append(f"  {name(t)} shows {card_name(target_card)}: no exchange")
            if rules.jacks == JACKS_HOLDER_SKIPPED:
                lost_turn[t] = True
                if log is not None:
                    log.append(f"  holder-skipped: {name(t)} loses its turn")
        else:
            swap(k, t)
            exchange[k] = 1
            direct[k] = True

    # -- the dealer's turn ----------------------------------------------------------------
    who = name(dealer)
    cut = False
    if dealer == forced_position:
        advised = (not ended and not lost_turn[dealer], hand[dealer])
    if ended:
        if log is not None:
            log.append(f"{who} (dealer) keeps {card_name(hand[dealer])} (exchanging has ended)")
    elif is_top(hand[dealer]):
        if log is not None:
            log.append(f"{who} (dealer) keeps {card_name(hand[dealer])} (holds the top card)")
    elif lost_turn[dealer]:
        if log is not None:
            log.append(f"{who} (dealer) keeps {card_name(hand[dealer])} (turn lost to a shown jack)")
    else:
        row = policy[dealer]
        cell = _cell(hand[dealer], hand[dealer - 1] if direct[dealer - 1] else None)
        cut = None if dealer == forced_position else _table_decision(row, cell, stream, f"{who} (dealer)", log)
        if cut is not None:
            pass
        elif dealer == forced_position:
            cut = forced_swap
        elif row[INFORMED] and direct[dealer - 1]:
            received, given = rk(hand[dealer]), rk(hand[dealer - 1])
            cut = received < given
            if log is not None:
                log.append(
                    f"{who} (dealer) holds {card_name(hand[dealer])} (informed: received "
                    f"{card_name(hand[dealer])}, gave {card_name(hand[dealer - 1])})"
                )
        else:
            if log is not None:
                log.append(f"{who} (dealer) holds {card_name(hand[dealer])}")
            cut = _threshold_decision(row, rk(hand[dealer]) + 1, stream, f"{who} (dealer)", log)
        if visits is not None:
            cut = _visit(visits, dealer, cell, cut, override)
        if cut:
            if log is not None:
                log.append(f"{who} (dealer) cuts: {card_name(cut_card)}")
            if is_top(cut_card) and rules.dealer_king_block:
                if log is not None:
                    log.append(f"  cut card is the top card: {who} keeps {card_name(hand[dealer])}")
            else:
                hand[dealer] = cut_card
                exchange[dealer] = 1
                if log is not None:
                    log.append(f"  {who} takes {card_name(cut_card)}")
        elif log is not None:
            log.append(f"{who} (dealer) keeps {card_name(hand[dealer])}")

    # -- showdown -------------------------------------------------------------------------
    ranks = [rk(c) for c in hand]
    lose = _losers(rules, ranks)
    if log is not None:
        log.append("showdown: " + ", ".join(f"{name(k)} {card_name(hand[k])}" for k in range(m)))
        losing = [name(k) for k in range(m) if lose[k]]
        log.append("loses a life: " + (", ".join(losing) if losing else "nobody"))
    found = {"lose": lose, "exchange": exchange, "final": list(hand)}
    if forced is not None:
        found["advised"] = advised
    return found


# ----------------------------------------------------------------------------------------
# Hand mode


def _check_table(policy, n_seats: int) -> None:
    if not 2 <= n_seats <= 51:
        raise ValueError(f"n_seats must be 2..51, got {n_seats}")
    if len(policy) < n_seats:
        raise ValueError(f"policy has {len(policy)} rows for {n_seats} seats")


def play_hand(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Hand ``index`` of ``seed`` in hand mode: seat k is position k, the dealer seat n-1.

    Returns ``(seat_rows, table_row)`` in ``HAND_OUTCOMES`` column order:
    per seat ``(lose_life, exchange)``, table ``(losers, losers_sq, no_loser)``.
    """
    _check_table(policy, n_seats)
    stream = Stream(seed, index)
    cards = deal_prefix(stream, n_seats + 1)
    res = play_dealt(rules, policy, cards, stream, log)
    seat_rows = [[res["lose"][s], res["exchange"][s]] for s in range(n_seats)]
    losers = sum(res["lose"])
    table_row = [losers, losers * losers, 1 if losers == 0 else 0]
    return seat_rows, table_row


# ----------------------------------------------------------------------------------------
# Game mode


def _next_dealer(dealer: int, lives: list[int]) -> int:
    """The next active seat clockwise from ``dealer``'s seat (which may be out)."""
    n = len(lives)
    for step in range(1, n + 1):
        s = (dealer + step) % n
        if lives[s] > 0:
            return s
    raise RuntimeError("no active player to deal")  # pragma: no cover


def _cut_high(rules: Rules, stream, seats: list[int], log) -> int:
    """Cut-high final tie: fresh deal_prefix cuts among ``seats`` (turn order) until one is highest."""
    ace_high = bool(rules.ace_high)
    contenders = list(seats)
    while True:
        cuts = deal_prefix(stream, len(contenders))
        ranks = [rank_of(c, ace_high) for c in cuts]
        top = max(ranks)
        if log is not None:
            log.append("cut-high: " + ", ".join(f"seat {s} cuts {card_name(c)}" for s, c in zip(contenders, cuts)))
        contenders = [s for s, r in zip(contenders, ranks) if r == top]
        if len(contenders) == 1:
            return contenders[0]


class _Game:
    """Where a game stands: lives, units paid and twelfths received per seat, wins, the
    pot, whether lives lost are paid, the dealer of the next round, and the counts."""

    def __init__(self, rules: Rules, n: int, lives=None):
        self.lives = [int(rules.lives)] * n if lives is None else [int(v) for v in lives]
        self.paid = [0] * n  # units paid into the pot
        self.received = [0] * n  # twelfths received from the pot
        self.win = [0] * n
        self.split_win = [0] * n
        self.pot = 0  # units in the pot
        self.paying = True  # False in a carry-no-stake continuation
        self.dealer = n - 1
        self.rounds = self.final_ties = self.carried = self.truncated = 0
        self.decided = False


def _settle(rules: Rules, game: _Game, stream, order: list[int], lose: list[int], log) -> None:
    """After a round played by the seats ``order`` (turn order) whose losers ``lose``
    marks: lives lost and paid, a final tie resolved, the game decided or the deal passed on."""
    n = len(game.lives)
    m = len(order)
    losers = [order[k] for k in range(m) if lose[k]]
    lives = game.lives
    if len(losers) == m and all(lives[s] == 1 for s in losers):
        # Final tie: every active player loses its last life together.
        game.final_ties += 1
        ft = rules.final_tie
        if ft == FINAL_REPLAY:
            # Nobody loses a life, nobody pays; the same players play on.
            if log is not None:
                log.append("final tie (replay): nobody loses a life; the round is replayed")
            game.dealer = _next_dealer(game.dealer, lives)
            return
        # (reading) under every other option the round's losses stand as usual: each
        # tied player loses its last life and pays its unit (when paying) before the
        # pot is shared, won by cut or carried.  Only "replay" says nobody pays.
        for s in losers:
            lives[s] -= 1
            if game.paying:
                game.paid[s] += 1
                game.pot += 1
        if ft == FINAL_SPLIT:
            # (reading) a pot that does not divide into equal twelfths is shared by
            # integer (floor) division of the pot in twelfths; the remainder is lost.
            share = game.pot * TWELFTHS // m
            for s in losers:
                game.received[s] += share
                game.split_win[s] = 1
            if log is not None:
                log.append(f"final tie (split): seats {', '.join(map(str, losers))} share the pot of {game.pot}")
            game.decided = True
        elif ft == FINAL_CUT_HIGH:
            winner = _cut_high(rules, stream, order, log)
            game.received[winner] += game.pot * TWELFTHS
            game.win[winner] = 1
            if log is not None:
                log.append(f"final tie (cut-high): seat {winner} wins the pot of {game.pot}")
            game.decided = True
        else:  # carry-with-stake / carry-no-stake
            game.carried += 1
            game.paying = ft == FINAL_CARRY_STAKE
            game.lives = [int(rules.lives)] * n
            game.dealer = _next_dealer(game.dealer, game.lives)
            if log is not None:
                log.append(
                    f"final tie (carry): pot of {game.pot} carried into a continuation game"
                    + ("" if game.paying else " (lives lost there are not paid)")
                )
        return

    for s in losers:
        lives[s] -= 1
        if game.paying:
            game.paid[s] += 1
            game.pot += 1
    active = [s for s in range(n) if lives[s] > 0]
    if len(active) == 1:
        w = active[0]
        game.win[w] = 1
        game.received[w] += game.pot * TWELFTHS
        game.decided = True
        if log is not None:
            log.append(f"seat {w} is the last survivor and wins the pot of {game.pot}")
    else:
        game.dealer = _next_dealer(game.dealer, lives)


def _play_on(rules: Rules, policy, game: _Game, stream, log) -> None:
    """Rounds from where ``game`` stands until it is decided (or hits the round cap)."""
    n = len(game.lives)
    while not game.decided:
        if game.rounds >= MAX_ROUNDS:
            game.truncated = 1
            if log is not None:
                log.append(f"game truncated after {game.rounds} rounds; nobody receives the pot")
            break
        game.rounds += 1
        dealer, lives = game.dealer, game.lives
        # Turn order: the active seats from the dealer's left round to the dealer.
        order = [(dealer + step) % n for step in range(1, n + 1)]
        order = [s for s in order if lives[s] > 0]
        m = len(order)
        if log is not None:
            log.append(
                f"round {game.rounds}: dealer seat {dealer}; lives "
                + " ".join(f"{s}:{lives[s]}" for s in range(n))
                + f"; pot {game.pot}"
            )
        cards = deal_prefix(stream, m + 1)
        pos_policy = [policy[s] for s in order]
        res = play_dealt(rules, pos_policy, cards, stream, log, labels=[f"seat {s}" for s in order])
        _settle(rules, game, stream, order, res["lose"], log)


def play_game(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Game ``index`` of ``seed``: rounds drawn in sequence from ``Stream(seed, index)``.

    Seat ``s`` always plays with ``policy[s]``.  Returns ``(seat_rows, table_row)`` in
    ``GAME_OUTCOMES`` column order: per seat ``(win, split_win, net_chips, net_chips_sq)``
    with net_chips in twelfths of a unit (its square in 144ths), table
    ``(rounds, rounds_sq, final_tie, final_tie_sq, carried, carried_sq, truncated)`` then the
    ``length_<label>`` indicators (1 in the bucket of the game's rounds, 0 elsewhere).
    """
    _check_rules(rules)
    _check_table(policy, n_seats)
    n = n_seats
    game = _Game(rules, n)
    _play_on(rules, policy, game, Stream(seed, index), log)
    seat_rows = []
    for s in range(n):
        net = game.received[s] - game.paid[s] * TWELFTHS
        seat_rows.append([game.win[s], game.split_win[s], net, net * net])
    rounds, final_ties, carried = game.rounds, game.final_ties, game.carried
    table_row = [rounds, rounds * rounds, final_ties, final_ties * final_ties, carried, carried * carried]
    table_row.append(game.truncated)
    bucket = max(i for i, low in enumerate(LENGTH_BUCKET_LOW) if rounds >= low)  # the game's length bucket
    table_row += [int(i == bucket) for i in range(len(LENGTH_BUCKET_LOW))]
    return seat_rows, table_row


# ----------------------------------------------------------------------------------------
# Batch and replay


def simulate(rules: Rules, policy, n_seats: int, mode: int, seed: int, first: int, count: int):
    """Sum hands (mode 0) or games (mode 1) ``first .. first+count-1`` of ``seed``.

    Returns an int64 array ``(n_seats + 1, width)``, ``width`` the larger of the mode's
    seat and table column counts: rows 0..n-1 the per-seat sums, row n the table sums in
    its first ``len(table)`` entries.
    """
    if mode == 0:
        outcomes, play = HAND_OUTCOMES, play_hand
    elif mode == 1:
        outcomes, play = GAME_OUTCOMES, play_game
    else:
        raise ValueError(f"mode must be 0 (hands) or 1 (games), got {mode}")
    return sum_outcome_rows(play, outcomes, rules, policy, n_seats, seed, first, count)


def solve(rules_array, policy, n_seats: int, seed: int, first: int, count: int, decision_index: int) -> list[int]:
    """The solve sums (sims.core.table_nb) of deals ``first .. first+count-1`` of ``seed``,
    flat ``[seat, cell, stat]``: each deal played as hand mode plays it, then once more per
    visit with that visit forced to the other action (the rest as the profile plays it, on
    the same stream); the seat's lose_life under each action recorded in its cell."""
    if int(decision_index) != 0:
        raise ValueError(f"chase-ace has one table decision (index 0), not {decision_index}.")
    rules = Rules(*[int(v) for v in rules_array])
    n = int(n_seats)
    _check_table(policy, n)
    out = [0] * (n * N_CELLS * 9)
    for deal in range(first, first + count):
        stream = Stream(seed, deal)
        cards = deal_prefix(stream, n + 1)
        after_deal = list(stream.s)
        visits: list = []
        base = play_dealt(rules, policy, cards, stream, visits=visits)
        for position, cell, swapped in visits:
            replay = Stream(seed, deal)
            replay.s = list(after_deal)
            other = play_dealt(rules, policy, cards, replay, visits=[], override=(position, not swapped))
            values = [0, 0]
            values[SWAP if swapped else KEEP] = base["lose"][position]
            values[KEEP if swapped else SWAP] = other["lose"][position]
            record_visit(out, position, cell, N_CELLS, values, 3)
    return out


def replay_lines(rules: Rules, policy, n_seats: int, seed: int, index: int) -> list[str]:
    """The readable log of hand ``index`` of ``seed`` in hand mode, ending with the losers."""
    lines = [f"Chase the Ace: seed {seed}, hand {index} ({n_seats} seats, dealer seat {n_seats - 1})"]
    play_hand(rules, policy, n_seats, seed, index, lines)
    return lines


# ----------------------------------------------------------------------------------------
# Advice (sims/games/chase_ace/advice.py)


def advise(rules, policy, n_seats: int, seed: int, first: int, count: int, known, n_candidates: int, n_outcomes: int):
    """The advice sums (sims.core.advice) of deals ``first .. first+count-1``, played as the
    rules read: the advised position's card (or the card it gave) fixed, the other cards
    and the cut card dealt from the rest of the pack; under seen the earlier players whose
    actions are given play them (the advice module's ``forced_policy``); a deal kept only
    when the advised player's turn comes holding its card and the earlier players acted as
    noted; then each candidate (0: swap or cut, 1: keep) plays the round on from the same
    stream and, when lives are given, the rest of the game under the policies
    (``win_game``: the game settled and played on as game mode plays it)."""
    import numpy as np

    from sims.core.advice import ACCEPTED, TRIED, advice_width, deal_conditioned, record_deal
    from sims.games.chase_ace.advice import K_GAME, K_GAVE, K_HOLDING, K_LIVES, K_POSITION, forced_policy, k_earlier

    rules = Rules(*[int(v) for v in rules])
    n = int(n_seats)
    known = [int(v) for v in known]
    position, holding, gave = known[K_POSITION], known[K_HOLDING], known[K_GAVE]
    earlier = known[k_earlier(n) : k_earlier(n) + position]
    lives = known[K_LIVES : K_LIVES + n]
    round_policy = forced_policy(np.array(policy, dtype=np.float64), known, n)
    fixed = [-1] * (n + 1)
    fixed[position] = gave if gave >= 0 else holding
    out = [0] * advice_width(n_candidates, n_outcomes)
    for deal in range(first, first + count):
        out[TRIED] += 1
        stream = Stream(seed, deal)
        cards = deal_conditioned(stream, range(52), fixed)
        values = []
        for candidate in range(n_candidates):
            replay = Stream(seed, deal)
            replay.s = list(stream.s)  # each candidate continues the same stream
            found = play_dealt(rules, round_policy, cards, replay, forced=(position, candidate == 0))
            decided, card = found["advised"]
            seen = all(noted < 0 or found["exchange"][k] == noted for k, noted in enumerate(earlier))
            if not (decided and card == holding and seen):
                break
            row = [found["lose"][position], found["exchange"][position]]
            if known[K_GAME]:
                game = _Game(rules, n, lives)
                game.rounds = 1
                _settle(rules, game, replay, list(range(n)), found["lose"], None)
                _play_on(rules, policy, game, replay, None)
                row.append(game.win[position] | game.split_win[position])
            values.append(row)
        if len(values) == n_candidates:
            record_deal(out, values)
    assert out[ACCEPTED] <= out[TRIED]
    return out
