"""Plain-Python slow twin of the Fan Tan (Sevens) kernel (:mod:`sims.games.fan_tan`).

Written from the rules contract alone (the package docstring of ``sims/games/fan_tan``,
the definitions in its ``rules.py`` and the docstring of its ``play_dealt``) and
``shared/rules/fan-tan.md``, without reference to the Numba kernel, so that agreement
between the two is evidence that both follow the contract.

Stream draws, in order (:class:`sims.core.rng.Stream`)
  Hand ``i`` of seed ``s`` (hand mode) uses ``Stream(s, i)``; game ``i`` uses
  ``Stream(s, i)`` for all the ``n`` deals of its rotation in sequence.  Within a deal:

  1. the deal: 52 lazy Fisher-Yates draws from a pack in code order 0..51 (draw ``k``
     swaps position ``k`` with ``k + below(52 - k)`` and takes position ``k``), exactly
     ``sims.core.deck.deal_prefix(stream, 52)``; draw ``k`` goes to seat
     ``(dealer + 1 + k) mod n``;
  2. then, turn by turn in play order, one ``below(k)`` for each turn on which a seat of
     the random style plays with ``k > 1`` playable cards (it plays the ``i``-th lowest
     in code order).  A seat playing a play table (the package docstring's Strategy
     tables) at a cell its table mixes first draws one ``uniform()`` for the action
     (sims.core.table), then the style it took draws as above.  Nothing else draws: no
     draw for a single playable card, for a pass (forced or voluntary), or for the
     holder-7d/7h opening.

  The next deal of a game starts its 52 draws where the previous deal's last draw left
  the stream.

  Advice deal ``i`` (:func:`advise`) uses ``Stream(seed, i)``: one draw per unknown deal
  position (:func:`sims.core.advice.deal_conditioned`, the known cards fixed), then the
  random styles' draws of the turns in play order, as in a hand; every candidate starts
  from the stream as it stands after the deal and replays the same listed turns.  A stacked deal (:func:`play_dealt`) lists the 52 cards in draw order (no
  swaps) and its random style draws from a fresh ``Stream(0, 0)``.

Public functions
  * :func:`play_dealt` plays one deal from a stacked pack and can log every step;
  * :func:`hand_result` is the same result dict for hand ``i`` of a seed (hand mode);
  * :func:`play_hand` / :func:`play_game` play hand ``i`` / game ``i`` of a seed and return
    the outcome rows in ``HAND_OUTCOMES`` / ``GAME_OUTCOMES`` column order;
  * :func:`simulate` sums those rows over a range (``sims.core.twins.sum_outcome_rows``);
  * :func:`replay_lines` is the readable log of one hand of a seed in hand mode.
  * :func:`advise` plays advice's deals (every candidate of the advised seat's decision).
  * :func:`play_cell` classifies a turn into a cell of the play table; :func:`solve` is
    the solve sums of the play decision (every legal action tried at every visit, the
    deal replayed from its start for each).

Readings taken where the contract had to be interpreted (also marked ``(reading)`` in
the code):

  R1 A seat that passes voluntarily makes no style choice, so a random-style seat draws
     nothing on that turn; the decision to pass is taken first (it depends only on whether
     every playable card is a seven).
  R2 "The previous n-1 turns were all passes" counts the turns of this deal only: a
     voluntary pass is forbidden exactly when the run of consecutive passes (forced and
     voluntary alike) just before the turn is n-1 or longer, so with fewer than n-1 turns
     taken so far it is allowed.  The holder-7d/7h opening is a turn and a play.  Note
     that the run can exceed n-1 (a voluntary pass after a play, then forced passes all
     round: up to 2n-2 in a row); the deal still ends, since every seat holding a legal
     card must play once the run reaches n-1.
  R3 The voluntary-pass penalty to the holders of a held-back seven's 6 and 8 is paid for
     every seven in the passer's hand (every unplayed seven is playable), 5 chips to each
     holder that is another seat; a holder receiving both the 6 and the 8 of a suit gets
     10.  Those chips go to the holders directly (not into the pot) and count in their
     ``received``.
  R4 Under card-count-score nothing is paid at all, voluntary-pass penalties included;
     passes are still counted.
  R5 ``uneven_ante`` with ``ante`` 0 still makes the seats concerned ante 1 chip.
  R6 The ``unlocks`` set of a card is computed on the whole layout, eight_before_six
     included: under eight_before_six a 7 unlocks only its 8, and an 8 unlocks its 9 and
     (when the 6 is not down) its 6.
  R7 Game mode's ``best_score`` compares the per-rotation sums of ``cards_left``; it is
     computed under every settle rule, not only card-count-score.
"""

from __future__ import annotations

from sims.core.advice import TRIED, advice_width, deal_conditioned, record_deal
from sims.core.cards import card_name
from sims.core.deck import deal_prefix
from sims.core.rng import Stream
from sims.core.table_nb import NO_TABLE, record_visit, table_action
from sims.core.twins import sum_outcome_rows
from sims.games.fan_tan import SPEC
from sims.games.fan_tan.rules import (
    ACTION_PASS,
    CARDS_UPPER,
    FEWER_CARDS_PAY_EXTRA,
    FEWEST_UPPER,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    HOYLE_HOLDER_PENALTY,
    HOYLE_PASS_PENALTY,
    LENGTH_BUCKET_LOW,
    MORE_CARDS_PAY_EXTRA,
    N_PLAY_ACTIONS,
    N_PLAY_CELLS,
    PASS_WITH_SEVENS,
    PLAY_BLOCK,
    PLAY_CELL_CLASSES,
    PLAY_CELLS,
    POLICY_FIELDS,
    SETTLE_CARD_COUNT,
    SETTLE_POT_ONLY,
    SETTLE_POT_PLUS_CARDS,
    START_ELDEST,
    START_HOLDER_7D,
    START_HOLDER_7H,
    STYLE,
    STYLE_BLOCK,
    STYLE_FIRST,
    STYLE_GREEDY_UNLOCK,
    STYLE_HOLD_SEVENS,
    STYLE_RANDOM,
    Rules,
)
from sims.spec import check_rule_values

__all__ = [
    "play_dealt",
    "hand_result",
    "play_hand",
    "game_results",
    "play_game",
    "simulate",
    "replay_lines",
    "legal_cards",
    "unlocks",
    "advise",
    "play_cell",
    "solve",
]

N_CARDS = 52
N_FACES = 13
N_SUITS = 4
ACE, SIX, SEVEN, EIGHT, KING = 0, 5, 6, 7, 12
SEVEN_OF_DIAMONDS = 1 * N_FACES + SEVEN
SEVEN_OF_HEARTS = 2 * N_FACES + SEVEN
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
PASS, HOLD = -1, -2  # advice's record: a pass (could not play), a voluntary pass (held back)
START_NAMES = {START_HOLDER_7D: "7d", START_HOLDER_7H: "7h"}


# ----------------------------------------------------------------------------------------
# Cards and the layout


def _suit(code: int) -> int:
    return code // N_FACES


def _face(code: int) -> int:
    return code % N_FACES


def _names(cards) -> str:
    return " ".join(card_name(c) for c in cards) if cards else "-"


def legal_cards(table, eight_before_six: bool) -> list[int]:
    """The cards that may be added to the layout now, in code order.

    ``table`` is the set of card codes on the table.  Every 7 not yet down is legal; for a
    started row, the card above its highest (unless that is the K) and the card below its
    lowest (unless that is the A); under ``eight_before_six`` a row's 6 only once its 8 is
    down."""
    legal = []
    for suit in range(N_SUITS):
        base = suit * N_FACES
        if base + SEVEN not in table:
            legal.append(base + SEVEN)
            continue
        low = SEVEN
        while low > ACE and base + low - 1 in table:
            low -= 1
        high = SEVEN
        while high < KING and base + high + 1 in table:
            high += 1
        if low > ACE:
            below = low - 1
            if not (eight_before_six and below == SIX and base + EIGHT not in table):
                legal.append(base + below)
        if high < KING:
            legal.append(base + high + 1)
    return sorted(legal)


def unlocks(card: int, table, eight_before_six: bool) -> set[int]:
    """The cards that are legal once ``card`` is added to ``table`` and were not before
    (reading R6: eight_before_six applies)."""
    before = set(legal_cards(table, eight_before_six))
    after = set(legal_cards(set(table) | {card}, eight_before_six))
    return after - before


# ----------------------------------------------------------------------------------------
# The styles


def _choose(style: int, playable: list[int], hand, table, eight_before_six: bool, stream) -> int:
    """The card a seat of ``style`` plays from ``playable`` (its legal cards, code order,
    at least one)."""
    if len(playable) == 1:
        return playable[0]
    if style == STYLE_FIRST:
        return playable[0]
    if style == STYLE_RANDOM:
        return playable[stream.below(len(playable))]
    if style == STYLE_HOLD_SEVENS:
        others = [c for c in playable if _face(c) != SEVEN]
        return others[0] if others else playable[0]

    def own_unlocked(c):
        return len(unlocks(c, table, eight_before_six) & (set(hand) - {c}))

    if style == STYLE_BLOCK:
        candidates = [c for c in playable if _face(c) not in (SIX, EIGHT)] or playable
        for c in candidates:
            if own_unlocked(c) > 0:
                return c
        return candidates[0]
    if style == STYLE_GREEDY_UNLOCK:
        best, best_count = playable[0], own_unlocked(playable[0])
        for c in playable[1:]:
            count = own_unlocked(c)
            if count > best_count:
                best, best_count = c, count
        return best
    raise ValueError(f"unknown style code {style}")


# ----------------------------------------------------------------------------------------
# Input


class _Rows(list):
    """Policy rows already checked and converted to lists of ints; ``tables[s]`` is seat
    s's play table block (its flag, then cells x actions probabilities) or None."""

    tables: list


def _prepared(policy, n_seats: int) -> _Rows:
    if isinstance(policy, _Rows):
        if len(policy) != n_seats:
            raise ValueError(
                f"the policy must have shape ({n_seats}, {len(POLICY_FIELDS)}): one row of "
                f"{len(POLICY_FIELDS)} fields per seat."
            )
        return policy
    try:
        rows = [[float(x) for x in row] for row in policy]
    except (TypeError, ValueError):
        raise ValueError("the policy must be a matrix of numbers with one row per seat.") from None
    widths = (len(POLICY_FIELDS), len(POLICY_FIELDS) + PLAY_BLOCK)  # the fields, or with the play table
    if len(rows) != n_seats or any(len(r) not in widths for r in rows):
        raise ValueError(
            f"the policy must have shape ({n_seats}, {len(POLICY_FIELDS)}): one row of "
            f"{len(POLICY_FIELDS)} fields per seat."
        )
    out = _Rows()
    out.tables = []
    for s, row in enumerate(rows):
        fields = row[: len(POLICY_FIELDS)]
        for f, x in zip(POLICY_FIELDS, fields):
            if not f.lo <= x <= f.hi or (f.integer and x != int(x)):
                raise ValueError(f"policy field {f.key} of seat {s} takes {f.allowed_text()}, not {x:g}.")
        out.append([int(x) for x in fields])
        block = row[len(POLICY_FIELDS) :]
        out.tables.append(block if block and block[0] >= 0.5 else None)
    return out


def _checked(rules: Rules, policy, n_seats: int) -> _Rows:
    """Check the table (seats, rules, policy); the policy as rows of ints."""
    try:
        whole = not isinstance(n_seats, bool) and int(n_seats) == n_seats
    except (TypeError, ValueError):
        whole = False
    if not whole:
        raise ValueError(f"the number of seats must be a whole number, not {n_seats!r}.")
    n_seats = int(n_seats)
    SPEC.check(rules, policy, n_seats)
    check_rule_values(rules)
    return _prepared(policy, n_seats)


def _stacked(cards) -> list[int]:
    try:
        listed = [int(c) for c in cards]
        ok = all(int(c) == c for c in cards)
    except (TypeError, ValueError):
        raise ValueError("the stacked pack must list the 52 card codes 0..51, each once.") from None
    if not ok or len(listed) != N_CARDS or sorted(listed) != list(range(N_CARDS)):
        raise ValueError("the stacked pack must list the 52 card codes 0..51, each once.")
    return listed


# ----------------------------------------------------------------------------------------
# The play table (package docstring, Strategy tables)


def _class_of(value: int, uppers) -> int:
    """The class of ``value`` among classes with these upper ends (the last is open)."""
    for k, upper in enumerate(uppers):
        if value <= upper:
            return k
    return len(uppers)


def play_cell(n: int, seat: int, hands, playable: list[int], can_pass: bool) -> int | None:
    """The play cell of ``seat`` (``hands`` every seat's cards now, ``playable`` its legal
    cards, at least one; ``can_pass`` when a voluntary pass is allowed now): its index in
    ``PLAY_CELLS``, or None when there is no decision (one legal card, no pass allowed)."""
    if len(playable) == 1 and not can_pass:
        return None
    sevens = sum(1 for c in playable if _face(c) == SEVEN)
    classes = (
        "yes" if can_pass else "no",
        str(len(playable)) if len(playable) < 4 else "4+",
        "none" if sevens == 0 else ("all" if sevens == len(playable) else "some"),
        PLAY_CELL_CLASSES[3][_class_of(len(hands[seat]), CARDS_UPPER)],
        PLAY_CELL_CLASSES[4][_class_of(min(len(hands[o]) for o in range(n) if o != seat), FEWEST_UPPER)],
    )
    return PLAY_CELLS.index(classes)


def _profile_action(rows, seat: int, cell: int, playable: list[int], can_pass: bool, stream) -> int:
    """The action (a style's code, or ACTION_PASS) seat ``seat`` takes in ``cell``: its
    table's (a mixed cell draws one uniform), else its policy fields'."""
    if rows.tables[seat] is not None:
        action = table_action(rows.tables[seat], 0, N_PLAY_ACTIONS, cell, stream)
        if action != NO_TABLE:
            return action
    if can_pass and rows[seat][PASS_WITH_SEVENS] and all(_face(c) == SEVEN for c in playable):
        return ACTION_PASS
    return rows[seat][STYLE]


def _resolve(action: int, playable, hand, table, ebs: bool, stream) -> int:
    """The card ``action`` plays (its style's choice), or HOLD for the pass."""
    return HOLD if action == ACTION_PASS else _choose(action, playable, hand, table, ebs, stream)


class _Solving:
    """A solve's view of one play of a deal: ``visits`` lists each visit to a play cell
    (seat, cell, legal actions, the profile's card, each legal action's card); ``force``
    is None or (visit number, action): that visit plays the action's card instead."""

    def __init__(self, force=None):
        self.visits = []
        self.force = force


def _table_turn(rows, seat, cell, playable, can_pass, hand, table, ebs, stream, solving) -> int:
    """The card (or HOLD) of a visit to ``cell``: the profile's action, its card chosen on
    the stream after the table's draw; under ``solving`` every legal action's card is
    chosen on that same stream and the visit may be forced to one of them, the stream
    going on as the profile's choice left it."""
    action = _profile_action(rows, seat, cell, playable, can_pass, stream)
    if solving is None:
        return _resolve(action, playable, hand, table, ebs, stream)
    mid = list(stream.s)
    base = _resolve(action, playable, hand, table, ebs, stream)
    after = list(stream.s)
    legal = [a for a in range(N_PLAY_ACTIONS) if a != ACTION_PASS or can_pass]
    cards = {}
    for a in legal:
        stream.s = list(mid)
        cards[a] = _resolve(a, playable, hand, table, ebs, stream)
    stream.s = after
    number = len(solving.visits)
    solving.visits.append((seat, cell, legal, base, cards))
    if solving.force is not None and solving.force[0] == number:
        return cards[solving.force[1]]
    return base


# ----------------------------------------------------------------------------------------
# One deal


def _scripted(script, t: int, seat: int):
    """Advice: the action ``script`` forces on turn ``t`` (0 = the first turn), or None
    when the seat's policy decides."""
    if script is None:
        return None
    record, position, action, seen = script
    if seat != position:
        return record[t] if seen and t < len(record) else None  # infer="seen": the others' listed turns
    if t > len(record):
        return None
    return record[t] if t < len(record) else action


def _as_listed(script, t: int, seat: int, action: int) -> bool:
    """Advice: whether turn ``t`` (taken by ``seat`` with ``action``) agrees with the record."""
    if script is None:
        return True
    record, position, _, _ = script
    return seat == position or t >= len(record) or record[t] == action


def _play(rules: Rules, rows, n: int, dealer: int, pack, stream, log, script=None, solving=None) -> dict | None:
    """Play one deal of ``pack`` (the 52 cards in draw order) dealt by ``dealer``; random
    choices draw from ``stream``.  Returns the result dict of play_dealt.

    ``script`` (advice, see :func:`advise`) is ``(record, position, action, seen)``: the
    turns listed (a card code, PASS or HOLD per turn from the first, the opening
    included), the advised seat, its action at the turn after them, and whether the
    others' listed turns are taken as listed (infer="seen") rather than by their policies.
    The advised seat's turns take the listed actions and then ``action`` (a listed pass
    being a hold when the seat can play); when another seat's listed turn goes otherwise
    (under seen: a pass by a seat that could play, a hold by one that could not), the
    deal is rejected: None.

    ``solving`` (a :class:`_Solving`, for :func:`solve`) records every visit to a play cell
    and may force one of them to an action."""

    def say(text):
        if log is not None:
            log.append(text)

    ebs = bool(rules.eight_before_six)
    chips = int(rules.settle) != SETTLE_CARD_COUNT  # (reading R4)
    settle = int(rules.settle)
    eldest = (dealer + 1) % n

    # 1. the deal and the antes
    hands = [[] for _ in range(n)]
    for k, card in enumerate(pack):
        hands[(dealer + 1 + k) % n].append(card)
    dealt = [sorted(h) for h in hands]
    hand = [set(h) for h in hands]
    holder = {c: s for s in range(n) for c in hands[s]}
    paid = [0] * n
    received = [0] * n
    passes = [0] * n
    pot = 0
    say(f"deal: seat {dealer} deals, seat {eldest} is eldest")
    for s in range(n):
        say(f"hand: seat {s} holds {_names(dealt[s])} ({len(dealt[s])} cards)")
    if chips:
        sizes = [len(h) for h in dealt]
        uneven = min(sizes) != max(sizes)
        antes = []
        for s in range(n):
            ante = int(rules.ante)
            if uneven:  # (reading R5)
                if int(rules.uneven_ante) == FEWER_CARDS_PAY_EXTRA and sizes[s] == min(sizes):
                    ante += 1
                elif int(rules.uneven_ante) == MORE_CARDS_PAY_EXTRA and sizes[s] == max(sizes):
                    ante += 1
            antes.append(ante)
            paid[s] += ante
            pot += ante
        say("ante: " + ", ".join(f"seat {s} {antes[s]}" for s in range(n)) + f"; pot {pot}")
    else:
        say("card-count score: no chips change hands")

    table = set()
    plays = []
    voluntary = []
    streak = 0  # consecutive passes just before this turn
    winner = -1

    def play(seat, card, how):
        nonlocal streak, winner
        hand[seat].discard(card)
        table.add(card)
        plays.append((seat, card))
        streak = 0
        left = len(hand[seat])
        say(f"turn {len(plays)}: seat {seat} {how} {card_name(card)} ({left} left)")
        if left == 0:
            winner = seat

    # 2. the opening
    start = int(rules.start)
    if start == START_ELDEST:
        turn = eldest
    else:
        seven = SEVEN_OF_DIAMONDS if start == START_HOLDER_7D else SEVEN_OF_HEARTS
        opener = holder[seven]
        play(opener, seven, f"holds {START_NAMES[start]} and opens with")
        turn = (opener + 1) % n

    # 3. turns clockwise until a seat goes out
    while winner < 0:
        seat = turn
        legal = legal_cards(table, ebs)
        playable = [c for c in legal if c in hand[seat]]
        forced = _scripted(script, len(plays), seat)
        if forced is not None:  # advice: the advised seat's listed or candidate action
            action = forced if forced >= 0 else (HOLD if playable else PASS)
        elif not playable:
            action = PASS
        else:
            can_pass = bool(rules.may_pass_when_able) and streak < n - 1
            cell = play_cell(n, seat, hand, playable, can_pass)
            if cell is not None and (solving is not None or rows.tables[seat] is not None):
                action = _table_turn(rows, seat, cell, playable, can_pass, hand[seat], table, ebs, stream, solving)
            elif can_pass and rows[seat][PASS_WITH_SEVENS] and all(_face(c) == SEVEN for c in playable):
                action = HOLD  # (readings R1, R2)
            else:
                action = _choose(rows[seat][STYLE], playable, hand[seat], table, ebs, stream)
        if action == PASS:
            plays.append((seat, -1))
            passes[seat] += 1
            streak += 1
            if chips:
                fee = int(rules.pass_fee)
                paid[seat] += fee
                pot += fee
                say(f"turn {len(plays)}: seat {seat} cannot play and passes, paying {fee}; pot {pot}")
            else:
                say(f"turn {len(plays)}: seat {seat} cannot play and passes")
        elif action == HOLD:
            voluntary.append(len(plays))
            plays.append((seat, -1))
            passes[seat] += 1
            streak += 1
            sevens = sorted(c for c in hand[seat] if _face(c) == SEVEN)
            if chips:
                paid[seat] += HOYLE_PASS_PENALTY
                pot += HOYLE_PASS_PENALTY
                parts = []
                for seven in sevens:  # (reading R3)
                    for neighbour in (seven - 1, seven + 1):
                        other = holder[neighbour]
                        if other != seat:
                            paid[seat] += HOYLE_HOLDER_PENALTY
                            received[other] += HOYLE_HOLDER_PENALTY
                            parts.append(f"{HOYLE_HOLDER_PENALTY} to seat {other} ({card_name(neighbour)})")
                extra = ("; " + ", ".join(parts)) if parts else ""
                say(
                    f"turn {len(plays)}: seat {seat} passes holding back {_names(sevens)}, paying "
                    f"{HOYLE_PASS_PENALTY} into the pot{extra}; pot {pot}"
                )
            else:
                say(f"turn {len(plays)}: seat {seat} passes holding back {_names(sevens)}")
        else:
            play(seat, action, "plays")
        if not _as_listed(script, len(plays) - 1, seat, action):
            return None  # advice: another seat did not do what the record says (the deal is rejected)
        turn = (seat + 1) % n

    # 4. the end and the settlement
    cards_left = [len(hand[s]) for s in range(n)]
    say(f"out: seat {winner} has played its last card and wins")
    if not chips:
        say("score: " + ", ".join(f"seat {s} {cards_left[s]}" for s in range(n) if s != winner))
    else:
        if settle == SETTLE_POT_PLUS_CARDS:
            fee = int(rules.card_fee)
            for s in range(n):
                if s != winner and cards_left[s]:
                    due = fee * cards_left[s]
                    paid[s] += due
                    pot += due
                    say(f"settle: seat {s} pays {due} for {cards_left[s]} cards left ({_names(sorted(hand[s]))})")
        elif settle != SETTLE_POT_ONLY:
            raise ValueError(f"unknown settle code {settle}")
        received[winner] += pot
        say(f"settle: seat {winner} takes the pot of {pot}")
    return {
        "hands": dealt,
        "plays": plays,
        "voluntary": voluntary,
        "winner": winner,
        "cards_left": cards_left,
        "passes": passes,
        "paid": paid,
        "received": received,
        "net": [received[s] - paid[s] for s in range(n)],
        "pot": pot if chips else 0,
        "turns": len(plays),
    }


def play_dealt(rules: Rules, policy, n_seats: int, cards, dealer: int | None = None, log=None) -> dict:
    """Play one deal from a stacked pack: ``cards`` are all 52 codes in draw order, draw
    ``k`` to seat ``(dealer + 1 + k) mod n``; ``dealer`` defaults to seat n-1; the random
    style draws from ``Stream(0, 0)``.  ``log`` (a list) receives a readable line per step.
    Returns the dict the kernel's ``play_dealt`` describes."""
    rows = _checked(rules, policy, n_seats)
    n = int(n_seats)
    if dealer is None:
        dealer = n - 1
    if isinstance(dealer, bool) or int(dealer) != dealer or not 0 <= int(dealer) < n:
        raise ValueError(f"the dealer must be a seat from 0 to {n - 1}, not {dealer}.")
    return _play(rules, rows, n, int(dealer), _stacked(cards), Stream(0, 0), log)


def hand_result(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None) -> dict:
    """The play_dealt result of hand ``index`` of ``seed`` as hand mode plays it (dealer
    seat n-1, the deal and then the random draws on ``Stream(seed, index)``)."""
    rows = _checked(rules, policy, n_seats)
    n = int(n_seats)
    stream = Stream(seed, index)
    return _play(rules, rows, n, n - 1, deal_prefix(stream, N_CARDS), stream, log)


# ----------------------------------------------------------------------------------------
# Hand and game mode


def play_hand(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Hand ``index`` of ``seed`` in hand mode.  Returns ``(seat_rows, table_row)`` in
    ``HAND_OUTCOMES`` column order."""
    res = hand_result(rules, policy, n_seats, seed, index, log)
    seat_rows = []
    for s in range(int(n_seats)):
        net, p, paid, left = res["net"][s], res["passes"][s], res["paid"][s], res["cards_left"][s]
        seat_rows.append(
            [1 if res["winner"] == s else 0, net, net * net, p, p * p, paid, paid * paid, left, left * left]
        )
    turns, pot = res["turns"], res["pot"]
    table_row = [turns, turns * turns, pot, pot * pot]
    assert len(seat_rows[0]) == len(HAND_OUTCOMES.seat) and len(table_row) == len(HAND_OUTCOMES.table)
    return seat_rows, table_row


def game_results(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None) -> list[dict]:
    """The play_dealt results of the n deals of game ``index`` of ``seed`` (dealers n-1,
    0, 1, ..., n-2, all on ``Stream(seed, index)``)."""
    rows = _checked(rules, policy, n_seats)
    n = int(n_seats)
    stream = Stream(seed, index)
    results = []
    for k in range(n):
        dealer = (n - 1 + k) % n
        if log is not None:
            log.append(f"-- deal {k + 1} of {n}")
        results.append(_play(rules, rows, n, dealer, deal_prefix(stream, N_CARDS), stream, log))
    return results


def play_game(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Game ``index`` of ``seed``: a rotation of n deals.  Returns ``(seat_rows,
    table_row)`` in ``GAME_OUTCOMES`` column order."""
    results = game_results(rules, policy, n_seats, seed, index, log)
    n = int(n_seats)
    net = [sum(r["net"][s] for r in results) for s in range(n)]
    wins = [sum(1 for r in results if r["winner"] == s) for s in range(n)]
    score = [sum(r["cards_left"][s] for r in results) for s in range(n)]
    best = min(score)  # (reading R7)
    turns = sum(r["turns"] for r in results)
    if log is not None:
        log.append("rotation: " + ", ".join(f"seat {s} net {net[s]} wins {wins[s]} score {score[s]}" for s in range(n)))
    seat_rows = [
        [net[s], net[s] ** 2, wins[s], wins[s] ** 2, score[s], score[s] ** 2, 1 if score[s] == best else 0]
        for s in range(n)
    ]
    bucket = max(b for b, low in enumerate(LENGTH_BUCKET_LOW) if turns >= low * n)  # turns per deal >= low
    table_row = [turns, turns * turns] + [1 if b == bucket else 0 for b in range(len(LENGTH_BUCKET_LOW))]
    assert len(seat_rows[0]) == len(GAME_OUTCOMES.seat) and len(table_row) == len(GAME_OUTCOMES.table)
    return seat_rows, table_row


# ----------------------------------------------------------------------------------------
# Batch and replay


def simulate(rules: Rules, policy, n_seats: int, mode: int, seed: int, first: int, count: int):
    """Sum hands (mode 0) or games (mode 1) ``first .. first+count-1`` of ``seed`` into the
    kernels' ``(n_seats + 1, width)`` int64 layout."""
    if mode == 0:
        outcomes, play = HAND_OUTCOMES, play_hand
    elif mode == 1:
        outcomes, play = GAME_OUTCOMES, play_game
    else:
        raise ValueError(f"mode must be 0 (hands) or 1 (games), not {mode}.")
    rows = _checked(rules, policy, n_seats)
    return sum_outcome_rows(play, outcomes, rules, rows, int(n_seats), seed, first, count)


def replay_lines(rules: Rules, policy, n_seats: int, seed: int, hand: int) -> list[str]:
    """The readable log of hand ``hand`` of ``seed`` in hand mode (the hand play_hand plays)."""
    lines = [f"Fan Tan: seed {seed}, hand {hand} ({n_seats} seats, seat {int(n_seats) - 1} deals)"]
    play_hand(rules, policy, n_seats, seed, hand, lines)
    return lines


# ----------------------------------------------------------------------------------------
# Advice


def advise(rules, policy, n_seats: int, seed: int, first: int, count: int, known, n_candidates: int, n_outcomes: int):
    """Advice (the docstring of ``sims/games/fan_tan/advice.py``): the flat sums
    (:mod:`sims.core.advice`) of deals ``first .. first+count-1`` of ``seed``.

    ``known`` is the situation's encoding: the advised seat, the seat of the first listed
    turn, the numbers of held cards, listed turns and candidates, whether the history is
    read as seen (1) or by the policies (0), then the held cards''
    codes, the listed turns (a code, PASS or HOLD) and the candidates (a code, or PASS for
    a voluntary pass).  Deal ``i``: on ``Stream(seed, i)``, every seat's known cards (the
    advised seat's holding and plays, the others' plays) take its earliest deal positions
    in code order (draw ``k`` goes to seat ``k mod n``, the dealer being seat n-1), the
    other positions are dealt from the rest of the pack
    (:func:`sims.core.advice.deal_conditioned`); each candidate then plays the whole deal
    from a copy of the stream as it stands after the deal, the advised seat taking its
    listed actions and the candidate, the rest under the policies (under infer="seen",
    known's sixth entry 1, the others' listed turns taken as listed); a deal where another
    seat's listed turn goes otherwise is not kept."""
    rules = Rules(*(int(v) for v in rules))
    rows = _checked(rules, policy, n_seats)
    n = int(n_seats)
    known = [int(v) for v in known]
    position, first_seat, n_held, n_listed, n_actions, seen_as_given = known[:6]
    at = 6
    held = known[at : at + n_held]
    record = known[at + n_held : at + n_held + n_listed]
    actions = known[at + n_held + n_listed : at + n_held + n_listed + n_actions]
    if n_actions != n_candidates:
        raise ValueError(f"the situation lists {n_actions} candidates, not {n_candidates}.")
    seen = [set() for _ in range(n)]
    seen[position].update(held)
    for t, entry in enumerate(record):
        if entry >= 0:
            seen[(first_seat + t) % n].add(entry)
    fixed = [-1] * N_CARDS
    for seat in range(n):
        for j, card in enumerate(sorted(seen[seat])):
            fixed[seat + j * n] = card
    card_count = int(rules.settle) == SETTLE_CARD_COUNT
    out = [0] * advice_width(n_candidates, n_outcomes)
    for i in range(first, first + count):
        out[TRIED] += 1
        stream = Stream(seed, i)
        pack = deal_conditioned(stream, range(N_CARDS), fixed)
        after_deal = list(stream.s)
        values = []
        for action in actions:
            stream.s = list(after_deal)
            res = _play(rules, rows, n, n - 1, pack, stream, None, (record, position, action, bool(seen_as_given)))
            if res is None:
                break  # the deal does not fit the record (the same for every candidate)
            win = 1 if res["winner"] == position else 0
            left = res["cards_left"][position]
            values.append([left, win] if card_count else [res["net"][position], win, left])
        else:
            record_deal(out, values)
    return out


# ----------------------------------------------------------------------------------------
# Solve


def solve(rules_array, policy, n_seats: int, seed: int, first: int, count: int, decision_index: int) -> list[int]:
    """The solve sums of the play decision (sims.core.table_nb; decision index 0) over
    deals ``first .. first+count-1`` of ``seed``, as a flat list ``[seat, cell, stat]``.

    Deal ``i`` is hand ``i`` of hand mode played under the profile, its visits to play
    cells recorded; then for each visit and each legal action whose card differs from the
    profile's, the deal is played again from its start on ``Stream(seed, i)`` with that
    visit taking the action's card (chosen on the stream after the visit's table draw, the
    rest of the deal going on from the stream as the profile's choice leaves it).  Each
    action's value is the visiting seat's net; an action choosing the profile's card takes
    the base play's net."""
    if decision_index != 0:
        raise ValueError(f"Fan Tan has one table decision (index 0), not {decision_index}.")
    rules = Rules(*(int(v) for v in rules_array))
    rows = _checked(rules, policy, n_seats)
    n = int(n_seats)
    width = 1 + 2 * N_PLAY_ACTIONS + N_PLAY_ACTIONS * N_PLAY_ACTIONS
    out = [0] * (n * N_PLAY_CELLS * width)

    def play(force):
        stream = Stream(seed, i)
        solving = _Solving(force)
        result = _play(rules, rows, n, n - 1, deal_prefix(stream, N_CARDS), stream, None, solving=solving)
        return result, solving.visits

    for i in range(first, first + count):
        base, visits = play(None)
        for number, (seat, cell, legal, card, cards) in enumerate(visits):
            values = [0] * N_PLAY_ACTIONS
            for a in legal:
                same = cards[a] == card
                values[a] = base["net"][seat] if same else play((number, a))[0]["net"][seat]
            mask = sum(1 << a for a in legal)
            record_visit(out, seat, cell, N_PLAY_CELLS, values, mask)
    return out
