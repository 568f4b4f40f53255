"""Plain-Python slow twin of the Ace Chasing kernel (:mod:`sims.games.ace_chasing`).

Written from the package docstring of ``sims/games/ace_chasing/__init__.py`` (the rules contract),
``shared/rules/ace-chasing.md`` and the seed's worked example alone, without reference to
the Numba kernel, so that agreement between the two is evidence that both follow the
contract.  It draws from the same counter-keyed streams (:class:`sims.core.rng.Stream`)
in the order the contract prescribes:

* hand ``i`` of seed ``s`` is ``Stream(s, i)``; its round deals ``deal_prefix(stream, n)``
  (card ``p`` to position ``p``, position ``n-1`` the matador);
* game ``i`` of seed ``s`` is ``Stream(s, i)``; each round deals ``deal_prefix(stream, k)``
  for its ``k`` alive players, rounds in sequence;
* nothing else is drawn by the policies: the swap chain and the bets are deterministic;
  a seat playing a table (the package docstring, "Strategy tables") draws one uniform
  at a mixed cell of its table, in the order of the chain, from the round's stream.

Public functions:

* :func:`play_dealt` plays one round from literal cards (stacked-deck tests) and can log
  every step in card notation;
* :func:`play_hand` / :func:`play_game` play hand ``i`` / game ``i`` of a seed and return
  the outcome rows in ``HAND_OUTCOMES`` / ``GAME_OUTCOMES`` column order;
* :func:`simulate` sums those rows over a range of hands or games into the kernel's
  ``(n_seats + 1, width)`` int64 layout;
* :func:`replay_lines` is the readable log of one hand of a seed;
* :func:`solve` is the solve kernel's sums (sims.core.table_nb), every visit replayed
  from the deal's start;
* :func:`advise` plays the advice of one seat's KEEP/SWAP (sims.games.ace_chasing.advice)
  on conditioned deals: deal ``i`` of seed ``s`` is ``Stream(s, i)``, dealing positions
  0 .. n-1 with ``sims.core.advice.deal_conditioned``.

Readings taken where the contract leaves a point open are marked ``(reading)`` in
comments below.
"""

from __future__ import annotations

from sims.core.cards import card_name
from sims.core.deck import deal_prefix
from sims.core.rng import Stream
from sims.core.table import block_offset, solve_stats_width
from sims.core.table_nb import NO_TABLE, record_visit, table_action
from sims.core.twins import sum_outcome_rows
from sims.games.ace_chasing import (
    ACE_RANK,
    ACE_SWAP,
    BACK_MAX_RANK,
    BET_AGAINST_MATADOR,
    BET_BETTOR_CHOOSES,
    BET_CAP,
    BET_MIN_RANK,
    BET_SIZE,
    FACE_LABELS,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    KING_RANK,
    LENGTH_BUCKET_LOW,
    MATADOR_RIGHT_THRESHOLD,
    NEXT_LEFT,
    NEXT_RIGHT,
    POLICY_FIELDS,
    THRESHOLD,
    Rules,
)
from sims.games.ace_chasing.table import TABLES

# Strategy tables: both decisions ("swap" before the matador's right, "matador_right") have
# the same cells: the rank held at the seat's turn, and the rank it gave when its right-hand
# neighbour swapped with it (none otherwise).  Actions: 0 swap, 1 keep.
TABLE_SWAP = 0
TABLE_CELLS = len(TABLES[0].cells)
TABLE_OFFSETS = tuple(block_offset(len(POLICY_FIELDS), TABLES, decision.name) for decision in TABLES)


def table_cell(held_card: int, gave_card: int | None) -> int:
    """The table cell of a seat holding ``held_card`` at its turn, having given
    ``gave_card`` to its right-hand neighbour's swap (None: nobody swapped with it): the 13
    ranks held without a swap come first, then 13 cells per rank given."""
    held = rank_of(held_card)
    return held if gave_card is None else N_FACES + N_FACES * rank_of(gave_card) + held


__all__ = [
    "play_dealt",
    "play_hand",
    "play_game",
    "simulate",
    "replay_lines",
    "rank_of",
    "advise",
    "solve",
    "table_cell",
]

N_FACES = 13
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


# ----------------------------------------------------------------------------------------
# Cards and checks


def rank_of(code: int) -> int:
    """Rank 0..12 of a card code: rank = face, A lowest (0), K highest (12)."""
    return code % N_FACES


def _suit(code: int) -> int:
    return code // N_FACES


def _check_rules(rules: Rules) -> None:
    if rules.next_matador not in (NEXT_RIGHT, NEXT_LEFT):
        raise ValueError(f"unknown next_matador code {rules.next_matador}")
    if int(rules.betting) not in (0, 1):
        raise ValueError(f"unknown betting code {rules.betting}")
    if rules.bet_direction not in (BET_AGAINST_MATADOR, BET_BETTOR_CHOOSES):
        raise ValueError(f"unknown bet_direction code {rules.bet_direction}")


def _rows(policy, k: int) -> list[list[float]]:
    """The first ``k`` policy rows as plain lists of floats (fast to index)."""
    if len(policy) < k:
        raise ValueError(f"policy has {len(policy)} rows for {k} positions")
    rows = []
    for p in range(k):
        row = [float(x) for x in policy[p]]
        if len(row) < len(POLICY_FIELDS):
            raise ValueError(f"policy row {p} has {len(row)} columns, not {len(POLICY_FIELDS)}")
        rows.append(row)
    return rows


class _Rows(list):
    """Policy rows already converted to plain floats (skips the conversion per round)."""


def _prepared(policy, k: int) -> _Rows:
    return policy if isinstance(policy, _Rows) and len(policy) >= k else _Rows(_rows(policy, k))


def _num(x) -> str:
    x = float(x)
    return str(int(x)) if x == int(x) else f"{x:g}"


# ----------------------------------------------------------------------------------------
# One round from literal cards


def play_dealt(rules: Rules, policy, cards, log=None, *, labels=None, force=None, stream=None) -> dict:
    """Play one round of Ace Chasing from literal cards.

    ``cards`` holds ``k >= 2`` card codes by position: position 0 the matador's left,
    ``k-2`` the matador's right, ``k-1`` the matador.  ``policy`` has one row per position
    (columns in ``POLICY_FIELDS`` order).  ``log`` (a list) receives a readable line per
    step; ``labels`` (optional) names the positions in it (default ``"seat p"``).
    ``force`` (optional) is a pair ``(position, asks)``: that position asks to swap
    (``asks`` 1) or keeps (0) whatever its policy says (advice, solve); the draw its
    table would make there is still made.  A row longer than the policy fields carries
    tables: a seat playing one decides from it (a mixed cell draws from ``stream``, a
    :class:`sims.core.rng.Stream`; default ``Stream(0, 0)``), a cell left out falls back
    to its policy.

    Returns a dict of lists over positions: ``exposed`` (0/1; 0 for the matador),
    ``swap`` (0/1: the position's swap was carried out), ``bet`` (the agreed signed bet:
    ``+b`` against the matador, ``-b`` for it, 0 none; 0 for the matador), ``bet_net``
    (units won, the matador's entry from all bets), plus ``knocked_out`` (0/1) and
    ``final`` (the final card codes), ``asked`` (0/1: the position asked to swap, carried
    out or refused) and ``at_turn`` (the card each non-matador held at its turn).
    """
    _check_rules(rules)
    cards = [int(c) for c in cards]
    k = len(cards)
    if k < 2:
        raise ValueError("a round needs at least two players (one card each)")
    if len(set(cards)) != k or any(not 0 <= c < 52 for c in cards):
        raise ValueError("cards must be distinct card codes 0..51")
    rows = policy if isinstance(policy, _Rows) else _rows(policy, k)
    if len(rows) < k:
        raise ValueError(f"policy has {len(rows)} rows for {k} positions")
    mat = k - 1
    right = k - 2  # the player on the matador's right (position 0 when k = 2)

    if log is not None:

        def name(p):
            base = labels[p] if labels is not None else f"seat {p}"
            return base + " (matador)" if p == mat else base

        for p in range(k):
            log.append(f"deal: {name(p)} gets {card_name(cards[p])}")

    # -- 1. betting, on the DEALT cards -------------------------------------------------
    bet = [0] * k
    if rules.betting:
        cap = rows[mat][BET_CAP]
        choose = rules.bet_direction == BET_BETTOR_CHOOSES
        for p in range(mat):
            row = rows[p]
            rank1 = rank_of(cards[p]) + 1
            if rank1 >= row[BET_MIN_RANK]:
                sign, side = 1, "against"
            elif choose and rank1 <= row[BACK_MAX_RANK]:
                sign, side = -1, "for"
            else:
                sign, side = 0, ""
            # (reading) the matador's bet_cap caps each bet separately, not their total;
            # the policy values are integers, the amount is their minimum truncated to int.
            amount = int(min(row[BET_SIZE], cap)) if sign else 0
            bet[p] = sign * amount
            if log is not None:
                if not sign:
                    log.append(f"bet: {name(p)} ({card_name(cards[p])}) places no bet")
                elif amount == 0:
                    log.append(
                        f"bet: {name(p)} ({card_name(cards[p])}) would bet {side} the matador, "
                        f"but the amount min({_num(row[BET_SIZE])}, cap {_num(cap)}) is 0: no bet"
                    )
                else:
                    log.append(
                        f"bet: {name(p)} ({card_name(cards[p])}) bets {amount} {side} the matador "
                        f"(proposed {_num(row[BET_SIZE])}, matador's cap {_num(cap)})"
                    )
    elif log is not None:
        log.append("bets: betting is off")

    # -- 2. swap chain, on the cards held NOW -------------------------------------------
    hand = list(cards)
    swap = [0] * k
    asked = [0] * k
    at_turn = [0] * k
    cells = [0] * k
    king_block = bool(rules.king_block)
    stream = Stream(0, 0) if stream is None else stream
    for p in range(mat):
        row = rows[p]
        card = hand[p]
        rank1 = rank_of(card) + 1
        # (reading) with k = 2, position 0 is both the matador's left and right: it is
        # position k-2, so it uses matador_right_threshold.
        limit = row[MATADOR_RIGHT_THRESHOLD] if p == right else row[THRESHOLD]
        by_ace = row[ACE_SWAP] == 1 and rank_of(card) == ACE_RANK
        wants = by_ace or rank1 <= limit
        # The table: the cell is what the seat knows now (the card held, and the card it
        # gave if its right-hand neighbour swapped with it: then it gave its dealt card).
        cells[p] = table_cell(card, cards[p] if p > 0 and swap[p - 1] else None)
        offset = TABLE_OFFSETS[1 if p == right else 0]
        from_table = table_action(row, offset, 2, cells[p], stream) if len(row) > offset else NO_TABLE
        if from_table != NO_TABLE:
            wants = from_table == TABLE_SWAP
        if force is not None and p == force[0]:
            wants = bool(force[1])
        asked[p] = int(wants)
        at_turn[p] = card
        if log is not None:
            which = "matador_right_threshold" if p == right else "threshold"
            if force is not None and p == force[0]:
                why = "the advised decision"
            elif from_table != NO_TABLE:
                why = f"its table, cell {TABLES[0].cell_text(cells[p])}"
            elif by_ace:
                why = "an ace, passed on (ace_swap)"
            elif wants:
                why = f"rank {rank1} <= {which} {_num(limit)}"
            else:
                why = f"rank {rank1} > {which} {_num(limit)}"
            verb = f"swaps with {name(p + 1)}" if wants else "keeps"
            log.append(f"{name(p)} holds {card_name(card)} ({why}): {verb}")
        if not wants:
            continue
        if king_block and rank_of(hand[p + 1]) == KING_RANK:
            if log is not None:
                log.append(f"  king block: {name(p + 1)} shows {card_name(hand[p + 1])} and refuses")
            continue
        hand[p], hand[p + 1] = hand[p + 1], hand[p]
        swap[p] = 1
        if log is not None:
            log.append(f"  swap: {name(p)} gets {card_name(hand[p])}, {name(p + 1)} gets {card_name(hand[p + 1])}")

    if log is not None:
        log.append("final: " + ", ".join(f"{name(p)} {card_name(hand[p])}" for p in range(k)))

    # -- 3. reveal ------------------------------------------------------------------------
    m_card = hand[mat]
    m = rank_of(m_card)
    lower = [0] * k  # E1
    for p in range(mat):
        if rank_of(hand[p]) < m:
            lower[p] = 1
    up_suits = set()
    if m == ACE_RANK:
        up_suits.add(_suit(m_card))
    for p in range(mat):
        if lower[p] and rank_of(hand[p]) == ACE_RANK:
            up_suits.add(_suit(hand[p]))
    # E2, one pass (the contract: a card exposed by suit is never an ace, so it is final).
    exposed = [0] * k
    for p in range(mat):
        if lower[p] or _suit(hand[p]) in up_suits:
            exposed[p] = 1
    n_exposed = sum(exposed)
    knocked_out = 1 if n_exposed == 0 else 0

    if log is not None:
        log.append(f"reveal: {name(mat)} shows {card_name(m_card)}")
        if up_suits:
            aces = [card_name(m_card)] if m == ACE_RANK else []
            aces += [card_name(hand[p]) for p in range(mat) if lower[p] and rank_of(hand[p]) == ACE_RANK]
            log.append("face-up aces: " + ", ".join(aces))
        for p in range(mat):
            if not exposed[p]:
                continue
            reasons = []
            if lower[p]:
                reasons.append(f"{card_name(hand[p])} is lower than {card_name(m_card)}")
            if _suit(hand[p]) in up_suits:
                reasons.append(f"{card_name(hand[p])} is of {SUIT_NAMES[_suit(hand[p])]}, a face-up ace's suit")
            log.append(f"exposed: {name(p)}: " + "; ".join(reasons))

    # -- 4. result and settlement -------------------------------------------------------------
    # A bettor's signed bet s (+b against, -b for) wins s if M is knocked out, else loses it.
    direction = 1 if knocked_out else -1
    bet_net = [0] * k
    for p in range(mat):
        bet_net[p] = bet[p] * direction
    bet_net[mat] = -sum(bet_net[:mat])

    if log is not None:
        for p in range(mat):
            if bet[p]:
                side = "against" if bet[p] > 0 else "for"
                outcome = f"wins {bet_net[p]}" if bet_net[p] > 0 else f"loses {-bet_net[p]}"
                log.append(f"settle: {name(p)}'s bet of {abs(bet[p])} {side} the matador {outcome}")
        if any(bet):
            log.append(f"settle: {name(mat)} nets {bet_net[mat]:+d}")
        if knocked_out:
            log.append(f"result: nobody exposed; {name(mat)} is knocked out")
        else:
            out = ", ".join(name(p) for p in range(mat) if exposed[p])
            log.append(f"result: exposed {out}; {name(mat)} survives")

    return {
        "exposed": exposed,
        "swap": swap,
        "bet": bet,
        "bet_net": bet_net,
        "knocked_out": knocked_out,
        "final": hand,
        "asked": asked,
        "at_turn": at_turn,
        "cell": cells,
    }


# ----------------------------------------------------------------------------------------
# Hand mode


def _check_table(n_seats: int) -> None:
    # (reading) the kernel's check() starts tables at 4 players; the twin plays any
    # 2..52 (later rounds of a game have fewer players anyway).
    if not 2 <= n_seats <= 52:
        raise ValueError(f"n_seats must be 2..52, got {n_seats}")


def play_hand(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Hand ``index`` of ``seed`` in hand mode: seat p is position p, the matador seat n-1.

    Returns ``(seat_rows, table_row)`` in ``HAND_OUTCOMES`` column order: per seat
    ``(exposed, swap, bet_placed, bet_net, bet_net_sq)``; table ``(knocked_out, exposures,
    exposures_sq)`` then ``unit_bet_f, unit_bet_f_sq, unit_bet_f_count`` per face.
    """
    _check_table(n_seats)
    rows = _prepared(policy, n_seats)
    stream = Stream(seed, index)
    cards = deal_prefix(stream, n_seats)
    res = play_dealt(rules, rows, cards, log, stream=stream)
    mat = n_seats - 1
    seat_rows = []
    for s in range(n_seats):
        net = res["bet_net"][s]
        placed = 1 if (s != mat and res["bet"][s] != 0) else 0
        seat_rows.append([res["exposed"][s], res["swap"][s], placed, net, net * net])
    ko = res["knocked_out"]
    exposures = sum(res["exposed"])
    table_row = [ko, exposures, exposures * exposures]
    # One-unit bet against the matador by every non-matador, grouped by its DEALT face.
    counts = [0] * N_FACES
    for p in range(mat):
        counts[rank_of(cards[p])] += 1
    sign = 1 if ko else -1
    for f in range(len(FACE_LABELS)):
        c = counts[f]
        # (reading) unit_bet_f_sq is the sum of the squares of the single +-1 results,
        # which "equals the count" as the contract says (not the square of their sum).
        table_row += [sign * c, c, c]
    return seat_rows, table_row


# ----------------------------------------------------------------------------------------
# Game mode


def _next_matador(rules: Rules, mat: int, alive: list[bool]) -> int:
    """The nearest alive seat to ``mat``'s right (M-1, M-2, ...) or left (M+1, ...)."""
    n = len(alive)
    step = -1 if rules.next_matador == NEXT_RIGHT else 1
    for d in range(1, n):
        s = (mat + step * d) % n
        if alive[s]:
            return s
    raise RuntimeError("no alive seat to take the matador role")  # pragma: no cover


def _eliminate(res: dict, order: list[int], mat: int, alive, left: int, place2) -> tuple[list[int], int]:
    """The players a round among the seats ``order`` (the matador ``mat`` last) puts out,
    sharing the places ``r+1 .. r+j`` (``place2`` in halves); returns them and ``r``."""
    k = len(order)
    if res["knocked_out"]:
        gone = [mat]
    else:
        gone = [order[p] for p in range(k) if res["exposed"][p]]
    j = len(gone)
    r = left - j  # players left after this round
    for s in gone:
        alive[s] = False
        # places r+1 .. r+j shared: each gets r + (j+1)/2, i.e. 2r + j + 1 halves
        place2[s] = 2 * r + j + 1
    return gone, r


def _play_on(rules: Rules, rows, stream, alive, left: int, mat: int, rounds: int, place2, bet_net, matador_net, log):
    """Rounds from where a game stands (``alive`` per seat, ``left`` of them, ``mat`` the
    next matador) until one seat is left; returns the rounds played in all."""
    n = len(alive)
    while left > 1:
        rounds += 1
        # Alive seats clockwise from the seat after the matador's, ending with the matador.
        order = [(mat + d) % n for d in range(1, n + 1)]
        order = [s for s in order if alive[s]]
        k = len(order)
        if log is not None:
            log.append(f"round {rounds}: matador seat {mat}; order " + " ".join(str(s) for s in order))
        cards = deal_prefix(stream, k)
        res = play_dealt(
            rules, _Rows(rows[s] for s in order), cards, log, labels=[f"seat {s}" for s in order], stream=stream
        )
        for p, s in enumerate(order):
            bet_net[s] += res["bet_net"][p]
        matador_net[mat] += res["bet_net"][k - 1]
        gone, left = _eliminate(res, order, mat, alive, left, place2)
        if log is not None:
            j, r = len(gone), left
            shared = f"{r + 1}" if j == 1 else f"{r + 1}-{r + j}"
            log.append("eliminated: " + ", ".join(f"seat {s}" for s in gone) + f" (place {shared}); {left} left")
        if left > 1:
            mat = _next_matador(rules, mat, alive)
    return rounds


def play_game(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Game ``index`` of ``seed``: rounds drawn in sequence from ``Stream(seed, index)``.

    Seat ``s`` always plays with ``policy[s]``; the first matador is seat n-1.  Returns
    ``(seat_rows, table_row)`` in ``GAME_OUTCOMES`` column order: per seat ``(win, place,
    place_sq, bet_net, bet_net_sq, matador_net, matador_net_sq)`` with place in halves (its
    square in quarters), bet_net over the whole game and matador_net the part of it won or
    lost while the seat was matador; table ``(rounds, rounds_sq)`` and one indicator per
    game-length bucket (``length_<label>``: 1 for the bucket that holds ``rounds``).
    """
    _check_rules(rules)
    _check_table(n_seats)
    n = n_seats
    rows = _prepared(policy, n)
    stream = Stream(seed, index)
    alive = [True] * n
    place2 = [0] * n  # finishing place in halves
    bet_net = [0] * n
    matador_net = [0] * n
    rounds = _play_on(rules, rows, stream, alive, n, n - 1, 0, place2, bet_net, matador_net, log)
    winner = alive.index(True)
    place2[winner] = 2
    if log is not None:
        log.append(f"seat {winner} wins after {rounds} rounds")
    seat_rows = []
    for s in range(n):
        seat_rows.append(
            [
                1 if s == winner else 0,
                place2[s],
                place2[s] * place2[s],
                bet_net[s],
                bet_net[s] * bet_net[s],
                matador_net[s],
                matador_net[s] * matador_net[s],
            ]
        )
    bucket = max(i for i, low in enumerate(LENGTH_BUCKET_LOW) if rounds >= low)
    table_row = [rounds, rounds * rounds] + [int(i == bucket) for i in range(len(LENGTH_BUCKET_LOW))]
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
    _check_rules(rules)
    _check_table(n_seats)
    rows = _prepared(policy, n_seats)
    return sum_outcome_rows(play, outcomes, rules, rows, n_seats, seed, first, count)


def replay_lines(rules: Rules, policy, n_seats: int, seed: int, index: int) -> list[str]:
    """The readable log of hand ``index`` of ``seed`` in hand mode, ending with the result."""
    lines = [f"Ace Chasing: seed {seed}, hand {index} ({n_seats} seats, matador seat {n_seats - 1})"]
    play_hand(rules, policy, n_seats, seed, index, lines)
    return lines


# ----------------------------------------------------------------------------------------
# Advice


def _saw(res: dict, p: int, holding: int, gave: int, earlier, bets) -> bool:
    """Whether the advised seat ``p`` saw what the context says: each noted earlier
    action (1 swapped, 0 did not, 2 asked and was refused by a king, -1 not noted), the
    card it holds at its turn, whether its right-hand neighbour swapped with it (exactly
    when it ``gave`` a card, -1 none) and every given bet (None: not given)."""
    for q in range(p):
        swapped, asked = res["swap"][q], res["asked"][q]
        if earlier[q] == 1 and not swapped:
            return False
        if earlier[q] in (0, 2) and swapped:
            return False
        if earlier[q] == 2 and not asked:
            return False
    if res["at_turn"][p] != holding:
        return False
    swapped_with_me = p > 0 and res["swap"][p - 1] == 1
    if swapped_with_me != (gave != -1):
        return False
    return bets is None or res["bet"][: len(bets)] == list(bets)


def advise(rules, policy, n_seats: int, seed: int, first: int, count: int, known, n_candidates: int, n_outcomes: int):
    """The flat advice sums (sims.core.advice) of deals ``first .. first+count-1`` of
    ``seed``: each deal dealt from ``Stream(seed, i)`` with the context's cards fixed,
    the earlier seats' given actions forced under seen (the advice module's
    ``forced_policy``; the bets as given), kept when the advised seat saw what the
    context says, then replayed once per candidate (candidate 0 asks to swap, candidate
    1 keeps).  The advised seat's outcomes: exposed, knocked_out, bet_net (betting on),
    win_game (game=yes: the rest of the game played on from the deal's stream)."""
    import numpy as np

    from sims.core.advice import TRIED, advice_width, deal_conditioned, record_deal
    from sims.games.ace_chasing.advice import (
        K_GAME,
        K_GAVE,
        K_HAS_BETS,
        K_HOLDING,
        K_POSITION,
        K_SEEN,
        forced_policy,
        known_layout,
    )

    if not isinstance(rules, Rules):
        rules = Rules(*(int(v) for v in rules))
    n = int(n_seats)
    known = [int(v) for v in known]
    rows = _prepared(policy, n)
    round_rows = _prepared(forced_policy(np.array(rows, dtype=np.float64), known, n), n)
    at_fixed, at_earlier, at_bets = known_layout(n)
    p, holding, gave = known[K_POSITION], known[K_HOLDING], known[K_GAVE]
    fixed = known[at_fixed : at_fixed + n]
    earlier = known[at_earlier : at_earlier + n - 1]
    bets = known[at_bets : at_bets + n - 1] if known[K_HAS_BETS] else None
    seen_bets = bets is not None and known[K_SEEN]
    out = [0] * advice_width(n_candidates, n_outcomes)
    for i in range(first, first + count):
        out[TRIED] += 1
        stream = Stream(seed, i)
        cards = deal_conditioned(stream, range(N_CARDS_IN_PACK), fixed)
        seen = play_dealt(rules, round_rows, cards, force=(p, 0), stream=_copy(stream))
        if not _saw(seen, p, holding, gave, earlier, None if seen_bets else bets):
            continue
        values = []
        for c in range(n_candidates):
            replay = _copy(stream)  # every candidate plays the round, then the game, on from the deal's stream
            res = play_dealt(rules, round_rows, cards, force=(p, 1 if c == 0 else 0), stream=replay)
            bet = bets[p] if seen_bets else res["bet"][p]
            row = [res["exposed"][p], res["knocked_out"]]
            if rules.betting:
                row.append(_bet_net(bet, res["knocked_out"]))
            if known[K_GAME]:
                alive = [True] * n
                _, left = _eliminate(res, list(range(n)), n - 1, alive, n, [0] * n)
                mat = _next_matador(rules, n - 1, alive) if left > 1 else n - 1
                _play_on(rules, rows, replay, alive, left, mat, 1, [0] * n, [0] * n, [0] * n, None)
                row.append(int(alive[p]))
            values.append(row)
        record_deal(out, values)
    return out


def _copy(stream: Stream) -> Stream:
    """A stream at the same point as ``stream`` (drawing from it leaves ``stream`` as it is)."""
    copy = Stream(0, 0)
    copy.s = list(stream.s)
    return copy


def solve(rules, policy, n_seats: int, seed: int, first: int, count: int, decision_index: int) -> list[int]:
    """The solve sums (sims.core.table_nb) of hands ``first .. first+count-1`` of
    ``seed``: every visit of a position to the decision ``decision_index`` (0 swap:
    positions 0 .. n-3; 1 matador_right: position n-2) is replayed from the deal's start
    once per action, forced there (its table's draw still made), and the position's
    exposure under each is added to its cell's sums."""
    if not isinstance(rules, Rules):
        rules = Rules(*(int(v) for v in rules))
    n = int(n_seats)
    rows = _prepared(policy, n)
    n_actions = len(TABLES[decision_index].actions)
    out = [0] * (n * TABLE_CELLS * solve_stats_width(n_actions))
    positions = [n - 2] if decision_index == 1 else list(range(n - 2))
    for i in range(first, first + count):
        stream = Stream(seed, i)
        cards = deal_prefix(stream, n)
        base = play_dealt(rules, rows, cards, stream=stream)
        for p in positions:
            values = []
            for action in range(n_actions):
                replay = Stream(seed, i)
                deal_prefix(replay, n)
                res = play_dealt(rules, rows, cards, force=(p, int(action == TABLE_SWAP)), stream=replay)
                values.append(res["exposed"][p])
            record_visit(out, p, base["cell"][p], TABLE_CELLS, values, (1 << n_actions) - 1)
    return out


def _bet_net(bet: int, knocked_out: int) -> int:
    """Units won on an agreed bet (+b against the matador, -b for it)."""
    if bet > 0:
        return bet if knocked_out else -bet
    return -bet if not knocked_out else bet


N_CARDS_IN_PACK = 52
