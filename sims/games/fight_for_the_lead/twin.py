"""Plain-Python slow twin of the Fight for the Lead kernel (:mod:`sims.games.fight_for_the_lead`).

Written from the rules contract alone (the package docstring of
``sims/games/fight_for_the_lead``, the definitions in its ``rules.py`` and the docstring
of its ``play_dealt``) and ``shared/rules/fight-for-the-lead.md``, without
reference to the Numba kernel, so that agreement between the two is evidence that both
follow the contract.

Stream draws, in order (:class:`sims.core.rng.Stream`)
  Hand ``i`` of seed ``s`` (hand mode) uses ``Stream(s, i)``; game ``i`` uses
  ``Stream(s, i)`` for all its hands in sequence, every hand starting from a pack in code
  order 0..51.  The only draws are the pack's: each card taken from a pack of size ``m``
  at position ``t`` first swaps position ``t`` with ``t + stream.below(m - t)`` and then
  takes position ``t`` (a lazy Fisher-Yates shuffle; ``below(1)`` for the last card is
  still drawn, so every card taken costs one ``below``).  Within a hand the cards are
  taken in this order:

  1. the deal, ``4n`` cards, draw ``k`` to seat ``(dealer + 1 + k) mod n``
     (so the deal is exactly ``deal_prefix(stream, 4n)``);
  2. the fight's turned cards, one at a time until one matches a fight card's suit or
     the pack is empty;
  3. the replacements, one per seat clockwise from the dealer's left;
  4. the trades, trader by trader in trade order, each trader's cards one at a time.

  A reshuffle (in the replacement, or in trading under reshuffle-discards) makes the pile,
  in pile order, a new pack (``t = 0``, ``m`` = pile size) and the same lazy draws go on
  from it.  Stay/drop and card play draw nothing, except a seat playing a table (the
  package docstring, "Strategy tables"): at a mixed cell it draws one uniform from the
  hand's stream, the fight cards seat by seat right after the deal, the stays seat by seat
  right after the replacement.  With a stacked pack (:func:`play_dealt`) the pack makes no
  swaps and the tables draw from ``Stream(0, 0)`` (or the stream given).

Public functions
  * :func:`play_dealt` plays one hand from a stacked pack and can log every step;
  * :func:`play_hand` / :func:`play_game` play hand ``i`` / game ``i`` of a seed and return
    the outcome rows in ``HAND_OUTCOMES`` / ``GAME_OUTCOMES`` column order;
  * :func:`simulate` sums those rows over a range (``sims.core.twins.sum_outcome_rows``);
  * :func:`replay_lines` is the readable log of one hand of a seed in hand mode;
  * :func:`advise` plays advice (``sims/games/fight_for_the_lead/advice.py``): deal ``i``
    draws ``deal_conditioned(Stream(seed, i), codes 0..51, prefix)`` for the pack's first
    F positions, the rest of the pack follows in code order; the hand (dealer n-1) takes
    those F positions in order and draws every later card (and every card of a
    reshuffled pile) lazily from a copy of the stream, once per candidate, with the
    advised seat's choices forced (``_play``'s ``force``).

Readings taken where the contract had to be interpreted (also marked ``(reading)`` in
the code):

  R1 A reshuffle happens lazily, at the draw that finds the pack empty (in the
     replacement and in trading alike), never while cards remain in the pack.  A pack
     emptied by the last card a trader needs is not reshuffled until someone draws again.
  R2 The replacement reshuffle (forced when the pack is empty there) is not "during this
     trading": under reshuffle-discards the traders may still reshuffle once more, and a
     trader's allowance still counts the pile until a reshuffle happens in trading.
  R3 The dead set is the set of fight and turned cards, emptied by any reshuffle of the
     hand (replacement or trading); afterwards only cards played are added to it.  A
     former fight or turned card that comes back to the pile as a trader's discard after
     a reshuffle is NOT dead again (the discard is not public).
  R4 The hand's ``reshuffled`` flag is set by any reshuffle, the replacement's included.
  R5 fight_exhaust=highest-rank-any-suit compares rank values only; equal ranks go to
     the first such seat clockwise from the dealer's left (as the contract says there),
     not to the lower suit.
  R6 In game mode a stopped game with a pot over POT_LIMIT counts ``overflow`` even when
     max_hands was reached by the same hand; ``largest_pot`` is the largest pot at stake
     in a hand played (the stopped pot that is shared out is not at stake in a hand).
  R7 A lone player (exactly one plays) gets ``won`` = 4, ``net`` = P, ``traded`` = 0,
     ``leader`` = -1 and no tricks; its held cards are those after the replacement.
  R8 When everyone drops, ``traded`` is 0 and ``won`` 0 for every seat and ``leader`` is
     -1; under refund-split every seat's ``net`` is P/n and ``pot_next`` is 0.
  R9 ``play_dealt`` with a ``pot`` that is not a multiple of 4 (or, when a refund-split
     share is needed, of n) is refused with ValueError rather than rounded.
  R10 "The dealer moves one seat left" is seat D -> D+1 (the dealer's left, where the
     deal starts, is D+1); a trader's ``stock_short`` counts only traders with k > 0 cards
     wanted and fewer allowed, and a hand without trading has ``stock_short`` = 0.
"""

from __future__ import annotations

from typing import NamedTuple

from sims.core.cards import card_name
from sims.core.deck import stacked_pack
from sims.core.rng import Stream
from sims.core.table import block_offset, solve_stats_width
from sims.core.table_nb import NO_TABLE, record_visit, table_action
from sims.core.twins import Pack, sum_outcome_rows
from sims.games.fight_for_the_lead import (
    CAP_EQUAL,
    ELDEST_GETS_LEAD,
    FIGHT_CARD,
    FIGHT_HIGHEST,
    FIGHT_HIGHEST_NON_ACE,
    FIGHT_LOWEST,
    FIGHT_LOWEST_OF_LONGEST,
    FORCED_REPLAY,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    HIGHEST_RANK_ANY_SUIT,
    KEEP_MIN_RANK,
    LENGTH_BUCKET_LOW,
    PLAY_STYLE,
    POLICY_FIELDS,
    POT_LIMIT,
    REFUND_SPLIT,
    REPLAY_OPTIONAL,
    RESHUFFLE_DISCARDS,
    SAMPLE_FIRST,
    SERVE_UNTIL_EMPTY,
    SPEC,
    STAY_MIN_STRENGTH,
    STAY_WITH_LEAD,
    STYLE_GREEDY,
    STYLE_HIGH,
    TRADE_FROM_DEALER_LEFT,
    TRADE_FROM_LEAD_WINNER,
    Rules,
    ante_for,
)
from sims.games.fight_for_the_lead.table import (
    DROP,
    FIGHT_DECISION,
    STAY,
    STAY_DECISION,
    TABLES,
    fight_cell,
    stay_cell,
)

TABLE_OFFSETS = tuple(block_offset(len(POLICY_FIELDS), TABLES, decision.name) for decision in TABLES)

__all__ = [
    "play_dealt",
    "play_hand",
    "play_game",
    "simulate",
    "replay_lines",
    "rank_value",
    "advise",
    "solve",
    "stay_cell_of",
    "fight_cell_of",
]

N_CARDS = 52
N_FACES = 13
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
TRADE_ORDER_NAMES = {TRADE_FROM_DEALER_LEFT: "from the dealer's left", TRADE_FROM_LEAD_WINNER: "from the lead winner"}


# ----------------------------------------------------------------------------------------
# Cards


def rank_value(code: int) -> int:
    """Rank value 2..14 of a card code (J=11, Q=12, K=13, A=14)."""
    face = code % N_FACES
    return 14 if face == 0 else face + 1


def _suit(code: int) -> int:
    return code // N_FACES


def _code(suit: int, rank: int) -> int:
    """The card code of a suit and a rank value 2..14."""
    return suit * N_FACES + (0 if rank == 14 else rank - 1)


def _lowest(cards):
    """The lowest card: lowest rank value, ties to the lower suit."""
    return min(cards, key=lambda c: (rank_value(c), _suit(c)))


def _highest(cards):
    """The highest card: highest rank value, ties to the lower suit."""
    return min(cards, key=lambda c: (-rank_value(c), _suit(c)))


def _names(cards) -> str:
    return " ".join(card_name(c) for c in cards) if cards else "-"


def _strength(hand) -> int:
    """2 per ace + 1 per guarded king (a king with another card of its suit in the hand)."""
    score = 0
    for c in hand:
        r = rank_value(c)
        if r == 14:
            score += 2
        elif r == 13 and sum(1 for d in hand if _suit(d) == _suit(c)) >= 2:
            score += 1
    return score


def _fight_choice(style: int, hand) -> int:
    if style == FIGHT_LOWEST:
        return _lowest(hand)
    if style == FIGHT_HIGHEST:
        return _highest(hand)
    if style == FIGHT_HIGHEST_NON_ACE:
        non_aces = [c for c in hand if rank_value(c) != 14]
        # four aces: the lowest-suit ace (the highest card, ties to the lower suit)
        return _highest(non_aces) if non_aces else _highest(hand)
    if style == FIGHT_LOWEST_OF_LONGEST:
        counts = [0, 0, 0, 0]
        for c in hand:
            counts[_suit(c)] += 1
        longest = max(range(4), key=lambda s: (counts[s], -s))  # ties to the lower suit
        return _lowest([c for c in hand if _suit(c) == longest])
    raise ValueError(f"unknown fight_card code {style}")


# ----------------------------------------------------------------------------------------
# Strategy tables: the cells as a player reads them, and a seat's table decision


def stay_cell_of(hand, won_fight: bool) -> int:
    """The stay cell of four cards: (aces, guarded kings, whether the seat won the fight)."""
    aces = sum(1 for c in hand if rank_value(c) == 14)
    return stay_cell(aces, _strength(hand) - 2 * aces, won_fight)


def fight_cell_of(hand) -> int:
    """The fight_card cell of four cards dealt: (aces, kings, the longest suit's length)."""
    aces = sum(1 for c in hand if rank_value(c) == 14)
    kings = sum(1 for c in hand if rank_value(c) == 13)
    return fight_cell(aces, kings, max(sum(1 for c in hand if _suit(c) == s) for s in range(4)))


def _decide(row, seat: int, decision: int, cell: int, policy_action: int, draws, forced) -> int:
    """A seat's action at a table decision: its table's in ``cell`` (a mixed cell drawing
    from ``draws``), else ``policy_action``; a solve's ``forced`` (seat, decision, action)
    overrides both, after the draw."""
    n_actions = len(TABLES[decision].actions)
    action = (
        table_action(row, TABLE_OFFSETS[decision], n_actions, cell, draws)
        if len(row) > len(POLICY_FIELDS)
        else NO_TABLE
    )
    if action == NO_TABLE:
        action = policy_action
    if forced is not None and forced[0] == seat and forced[1] == decision:
        action = forced[2]
    return action


# ----------------------------------------------------------------------------------------
# The pack of one hand


# ----------------------------------------------------------------------------------------
# Policy rows


class _Rows(list):
    """Policy rows already converted to lists of ints."""


def _prepared(policy, n: int) -> _Rows:
    if isinstance(policy, _Rows) and len(policy) >= n:
        return policy
    if len(policy) < n:
        raise ValueError(f"policy has {len(policy)} rows for {n} seats")
    rows = _Rows()
    fields = len(POLICY_FIELDS)
    for s in range(n):
        # the policy fields as whole numbers, then the table blocks as they are
        row = [int(x) for x in policy[s][:fields]] + [float(x) for x in policy[s][fields:]]
        if len(row) < len(POLICY_FIELDS):
            raise ValueError(f"policy row {s} has {len(row)} columns, not {len(POLICY_FIELDS)}")
        rows.append(row)
    return rows


# ----------------------------------------------------------------------------------------
# One hand


def _play(
    rules: Rules,
    rows,
    n: int,
    pack: Pack,
    dealer: int,
    pot: int,
    compulsory: bool,
    log,
    force=None,
    draws=None,
    forced=None,
) -> dict:
    """Play one hand on ``pack`` (shuffling or stacked); the result dict of play_dealt.

    ``force`` (advice, a :class:`_Force`) makes one seat's choices instead of its policy:
    its fight card, whether it stays (a hand that is not compulsory), which cards it
    trades (cut like a policy's trade when the stock is short).  Seats playing tables
    draw from the pack's stream, or ``draws`` for a stacked pack; ``forced`` (a solve's
    (seat, decision, action)) forces one table decision after its draw.  The result
    also gives each seat's ``fight_cell``, ``fight_action``, ``stay_cell`` and
    ``stay_action`` (None where it made no such decision)."""
    draws = pack.stream if pack.stream is not None else (Stream(0, 0) if draws is None else draws)
    P = pot
    seat_order = [(dealer + 1 + i) % n for i in range(n)]  # clockwise from the dealer's left

    def say(text):
        if log is not None:
            log.append(text)

    say(f"hand: dealer seat {dealer}, pot {P}{', compulsory' if compulsory else ''}")

    # 1. the deal
    hands = [[] for _ in range(n)]
    for k in range(4 * n):
        hands[(dealer + 1 + k) % n].append(pack.draw())
    if log is not None:
        for s in seat_order:
            say(f"deal: seat {s} gets {_names(hands[s])}")

    # 2.-3. fight cards, laid down at once
    fight = [0] * n
    cells = {"fight_cell": [None] * n, "fight_action": [None] * n, "stay_cell": [None] * n, "stay_action": [None] * n}
    for s in range(n):
        cell = fight_cell_of(hands[s])
        choice = _decide(rows[s], s, FIGHT_DECISION, cell, rows[s][FIGHT_CARD], draws, forced)
        cells["fight_cell"][s], cells["fight_action"][s] = cell, choice
        fight[s] = _fight_choice(choice, hands[s])
    if force is not None and force.fight is not None:
        fight[force.seat] = force.fight  # (advice) the seat's own choice
    if force is not None and force.fights is not None:
        for s in range(n):  # (advice, infer="seen") the others' fight cards as seen
            if s != force.seat and force.fights[s] >= 0:
                fight[s] = force.fights[s]
    for s in range(n):
        hands[s].remove(fight[s])
    if log is not None:
        say("fight cards: " + ", ".join(f"seat {s} {card_name(fight[s])}" for s in seat_order))

    # 4. the fight
    turned = []
    lead = -1
    while pack.left() > 0:
        card = pack.draw()
        turned.append(card)
        matching = [s for s in range(n) if _suit(fight[s]) == _suit(card)]
        if matching:
            lead = max(matching, key=lambda s: rank_value(fight[s]))
            say(f"fight: turned {card_name(card)}; seat {lead} wins the fight with {card_name(fight[lead])}")
            break
        say(f"fight: turned {card_name(card)}, no fight card of {SUIT_NAMES[_suit(card)]}")
    if lead < 0:
        if int(rules.fight_exhaust) == HIGHEST_RANK_ANY_SUIT:
            # (reading R5) rank value only; ties to the first such seat from the dealer's left
            top = max(rank_value(fight[s]) for s in range(n))
            lead = next(s for s in seat_order if rank_value(fight[s]) == top)
            say(
                f"fight: the pack ran out; seat {lead} wins the fight with the highest fight card "
                f"{card_name(fight[lead])}"
            )
        elif int(rules.fight_exhaust) == ELDEST_GETS_LEAD:
            lead = (dealer + 1) % n
            say(f"fight: the pack ran out; seat {lead} wins the fight as eldest hand")
        else:
            raise ValueError(f"unknown fight_exhaust code {rules.fight_exhaust}")

    # 5. replacement
    pile = list(turned) + [fight[s] for s in seat_order]
    dead = set(pile)  # (reading R3) fight and turned cards until a reshuffle empties it
    reshuffled = 0
    for s in seat_order:
        if pack.left() == 0:
            # (reading R1) the pile becomes the pack at the draw that finds it empty,
            # whatever trade_exhaust says; (reading R4) this sets the reshuffled flag.
            say(f"replacement: the pack is empty; the pile of {len(pile)} cards becomes the new pack")
            pack.renew(pile)
            pile = []
            dead.clear()
            reshuffled = 1
        card = pack.draw()
        hands[s].append(card)
        say(f"replacement: seat {s} draws {card_name(card)}")

    # 6. stay or drop
    strength = [_strength(hands[s]) for s in range(n)]
    if compulsory:
        playing = [1] * n
        say("stay: compulsory hand, everyone plays")
    else:
        playing = [0] * n
        for s in range(n):
            row = rows[s]
            by_lead = row[STAY_WITH_LEAD] == 1 and s == lead
            by_strength = strength[s] >= row[STAY_MIN_STRENGTH]
            playing[s] = 1 if (by_lead or by_strength) else 0
            if force is not None and force.stay is not None and s == force.seat:
                playing[s] = force.stay  # (advice) the seat's own choice (its table set aside: no draw)
            elif force is not None and force.playing is not None:
                playing[s] = force.playing >> s & 1  # (advice, infer="seen") who stayed, as seen
            else:
                cell = stay_cell_of(hands[s], s == lead)
                action = _decide(row, s, STAY_DECISION, cell, STAY if playing[s] else DROP, draws, forced)
                cells["stay_cell"][s], cells["stay_action"][s] = cell, action
                playing[s] = 1 if action == STAY else 0
            if log is not None:
                why = []
                if by_lead:
                    why.append("won the fight")
                why.append(f"strength {strength[s]} {'>=' if by_strength else '<'} {row[STAY_MIN_STRENGTH]}")
                say(f"stay: seat {s} holds {_names(hands[s])}: {'plays' if playing[s] else 'drops'} ({', '.join(why)})")
    n_in = sum(playing)

    traded = [0] * n
    won = [0] * n
    net = [0] * n
    tricks = []
    stock_short = 0
    leader = -1
    all_dropped = 0

    def result(pot_next):
        return {
            "fight": fight,
            "turned": turned,
            "lead": lead,
            "playing": playing,
            "leader": leader,
            "traded": traded,
            "held": held,
            "tricks": tricks,
            "won": won,
            "net": net,
            "pot_next": pot_next,
            "all_dropped": all_dropped,
            "stock_short": stock_short,
            "reshuffled": reshuffled,
            **cells,
        }

    if n_in == 0:
        all_dropped = 1
        held = [sorted(h) for h in hands]
        all_drop = int(rules.all_drop)
        if all_drop == REFUND_SPLIT:
            if P % n:
                raise ValueError(f"the pot {P} cannot be split among {n} seats")  # (reading R9)
            share = P // n
            net = [share] * n
            say(f"all drop: the pot {P} is split, {share} to every seat; the game ends")
            return result(0)
        if all_drop not in (FORCED_REPLAY, REPLAY_OPTIONAL):
            raise ValueError(f"unknown all_drop code {rules.all_drop}")
        say(
            f"all drop: the pot {P} carries to the next hand "
            f"({'compulsory' if all_drop == FORCED_REPLAY else 'dropping allowed'})"
        )
        return result(P)

    if n_in == 1:
        # (reading R7) no trading and no play: the lone player takes four tricks and the pot
        lone = playing.index(1)
        held = [sorted(h) for h in hands]
        won[lone] = 4
        net[lone] = P
        say(f"alone: seat {lone} is the only player; it takes all four tricks and the pot {P}; the game ends")
        return result(0)

    # 7. trading
    leader = lead
    while not playing[leader]:
        leader = (leader + 1) % n
    if leader != lead:
        say(f"leader: seat {lead} dropped; seat {leader} leads")
    in_order = [s for s in seat_order if playing[s]]
    trade_order = int(rules.trade_order)
    if trade_order == TRADE_FROM_DEALER_LEFT:
        traders = in_order
    elif trade_order == TRADE_FROM_LEAD_WINNER:
        traders = [(leader + i) % n for i in range(n) if playing[(leader + i) % n]]
    else:
        raise ValueError(f"unknown trade_order code {rules.trade_order}")
    if compulsory and not rules.trade_in_first_hand:
        say("trade: no trading in the compulsory hand")
    else:
        exhaust = int(rules.trade_exhaust)
        if exhaust not in (RESHUFFLE_DISCARDS, SERVE_UNTIL_EMPTY, CAP_EQUAL):
            raise ValueError(f"unknown trade_exhaust code {rules.trade_exhaust}")
        S = pack.left()
        cap = S // n_in
        reshuffled_in_trading = False  # (reading R2) the replacement's reshuffle does not count
        for s in traders:
            keep = rows[s][KEEP_MIN_RANK]
            hand = hands[s]
            wanted = [c for c in hand if rank_value(c) < keep]
            if force is not None and force.discards is not None and s == force.seat:
                wanted = list(force.discards)  # (advice) the seat's own choice
            elif force is not None and force.counts is not None and force.counts[s] >= 0:
                # (advice, infer="seen") the count as seen; its lowest cards (reading)
                wanted = sorted(hand, key=lambda c: (rank_value(c), _suit(c)))[: force.counts[s]]
            k = len(wanted)
            if exhaust == RESHUFFLE_DISCARDS:
                available = pack.left() if reshuffled_in_trading else pack.left() + len(pile)
                allowed = min(k, available)
            elif exhaust == SERVE_UNTIL_EMPTY:
                allowed = min(k, pack.left())
            else:
                allowed = min(k, cap)
            if allowed < k:
                stock_short = 1
            discards = sorted(wanted, key=lambda c: (rank_value(c), _suit(c)))[:allowed]
            for c in discards:
                hand.remove(c)
            drawn = []
            for _ in range(allowed):
                if pack.left() == 0:
                    # reshuffle-discards only (the allowance guarantees it); (reading R1) lazily
                    say(f"trade: the pack is empty; the pile of {len(pile)} cards becomes the new pack")
                    pack.renew(pile)
                    pile = []
                    dead.clear()
                    reshuffled = 1
                    reshuffled_in_trading = True
                drawn.append(pack.draw())
            hand.extend(drawn)
            pile.extend(sorted(discards, key=lambda c: (_suit(c), rank_value(c))))
            traded[s] = allowed
            if log is not None:
                short = f" (wanted {k}, allowed {allowed})" if allowed < k else ""
                if allowed:
                    say(f"trade: seat {s} discards {_names(discards)}, draws {_names(drawn)}{short}")
                else:
                    say(f"trade: seat {s} trades nothing{short}")

    held = [sorted(h) for h in hands]

    # 8. card play
    played = set()
    to_lead = leader
    for number in range(1, 5):
        seq = [(to_lead + i) % n for i in range(n) if playing[(to_lead + i) % n]]
        plays = []
        led = -1
        best_rank = 0
        for s in seq:
            hand = hands[s]
            style = rows[s][PLAY_STYLE]
            if not plays:
                if style == STYLE_GREEDY:
                    known = dead | played
                    own = set(hand)
                    sure = [
                        c
                        for c in hand
                        if all(
                            _code(_suit(c), r) in own or _code(_suit(c), r) in known
                            for r in range(rank_value(c) + 1, 15)
                        )
                    ]
                    card = _highest(sure) if sure else _lowest(hand)
                elif style == STYLE_HIGH:
                    card = _highest(hand)
                else:
                    raise ValueError(f"unknown play_style code {style}")
                led = _suit(card)
            else:
                follow = [c for c in hand if _suit(c) == led]
                if not follow:
                    card = _lowest(hand)
                elif style == STYLE_GREEDY:
                    beats = [c for c in follow if rank_value(c) > best_rank]
                    card = _lowest(beats) if beats else _lowest(follow)
                elif style == STYLE_HIGH:
                    card = _highest(follow)
                else:
                    raise ValueError(f"unknown play_style code {style}")
            hand.remove(card)
            played.add(card)
            plays.append((s, card))
            if _suit(card) == led and rank_value(card) > best_rank:
                best_rank = rank_value(card)
                winner = s
        tricks.append((to_lead, plays, winner))
        won[winner] += 1
        say(f"trick {number}: " + ", ".join(f"seat {s} {card_name(c)}" for s, c in plays) + f"; seat {winner} wins")
        to_lead = winner

    # 9. settlement
    share = P // 4
    losers = 0
    for s in range(n):
        net[s] = won[s] * share
        if playing[s] and won[s] == 0:
            net[s] -= P
            losers += 1
    pot_next = losers * P
    if log is not None:
        say(
            "settle: "
            + ", ".join(f"seat {s} {net[s]:+d}" for s in range(n) if playing[s])
            + f"; {losers} loser(s), next pot {pot_next}"
        )
    return result(pot_next)


def play_dealt(
    rules: Rules,
    policy,
    n_seats: int,
    cards,
    dealer: int | None = None,
    pot: int | None = None,
    compulsory: bool = False,
    log=None,
    stream=None,
) -> dict:
    """Play one hand from a stacked pack (no shuffling; reshuffled piles drawn in pile order).

    ``cards`` are the top of the pack in draw order; every card not listed follows in code
    order.  ``dealer`` defaults to seat n-1, ``pot`` to n * ante; ``compulsory`` makes it a
    first hand.  ``log`` (a list) receives a readable line per step.  Returns the dict the
    kernel's ``play_dealt`` describes: fight, turned, lead, playing, leader, traded, held,
    tricks, won, net, pot_next, all_dropped, stock_short, reshuffled; and each seat's
    fight_cell, fight_action, stay_cell, stay_action (None where it made no such
    decision).  ``stream`` (default ``Stream(0, 0)``) feeds mixed table cells.
    """
    n = int(n_seats)
    SPEC.check(rules, policy, n)
    rows = _prepared(policy, n)
    dealer = n - 1 if dealer is None else int(dealer)
    if not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat 0..{n - 1}, not {dealer}")
    P = n * ante_for(rules, n) if pot is None else int(pot)
    if P <= 0 or P % 4:
        raise ValueError(f"the pot must be a positive multiple of 4, not {P}")  # (reading R9)
    return _play(rules, rows, n, Pack(stacked_pack(cards)), dealer, P, bool(compulsory), log, draws=stream)


# ----------------------------------------------------------------------------------------
# Hand mode


def play_hand(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Hand ``index`` of ``seed`` in hand mode: ``Stream(seed, index)``, dealer seat n-1,
    pot n * ante, compulsory iff ``rules.sample_hand`` is first.

    Returns ``(seat_rows, table_row)`` in ``HAND_OUTCOMES`` column order.
    """
    n = int(n_seats)
    SPEC.check(rules, policy, n)
    rows = _prepared(policy, n)
    pack = Pack(range(N_CARDS), Stream(seed, index))
    P = n * ante_for(rules, n)
    res = _play(rules, rows, n, pack, n - 1, P, int(rules.sample_hand) == SAMPLE_FIRST, log)
    seat_rows = []
    losers = 0
    for s in range(n):
        took = [0] * 5
        if res["playing"][s]:
            took[res["won"][s]] = 1
            if res["won"][s] == 0:
                losers += 1
        net = res["net"][s]
        tr = res["traded"][s]
        seat_rows.append([1 - res["playing"][s], 1 if res["lead"] == s else 0, *took, net, net * net, tr, tr * tr])
    players_in = sum(res["playing"])
    turned = len(res["turned"])
    table_row = [
        res["all_dropped"],
        players_in,
        players_in * players_in,
        losers,
        losers * losers,
        turned,
        turned * turned,
        res["stock_short"],
        res["reshuffled"],
    ]
    assert len(seat_rows[0]) == len(HAND_OUTCOMES.seat) and len(table_row) == len(HAND_OUTCOMES.table)
    return seat_rows, table_row


# ----------------------------------------------------------------------------------------
# Game mode


def play_game(rules: Rules, policy, n_seats: int, seed: int, index: int, log=None):
    """Game ``index`` of ``seed``: all its hands draw from ``Stream(seed, index)``.

    Each seat antes; the first dealer is seat n-1 and the first hand compulsory.  Returns
    ``(seat_rows, table_row)`` in ``GAME_OUTCOMES`` column order, ``net``/``net_sq`` as
    exact Python integers.
    """
    n = int(n_seats)
    SPEC.check(rules, policy, n)
    rows = _prepared(policy, n)
    stream = Stream(seed, index)
    ante = ante_for(rules, n)
    chips = [-ante] * n
    pot = n * ante
    dealer = n - 1
    compulsory = True
    hands = 0
    largest = 0
    truncated = overflow = 0
    max_hands = int(rules.max_hands)
    while True:
        hands += 1
        largest = max(largest, pot)
        if log is not None:
            log.append(f"-- hand {hands}")
        res = _play(rules, rows, n, Pack(range(N_CARDS), stream), dealer, pot, compulsory, log)
        for s in range(n):
            chips[s] += res["net"][s]
        carry = res["pot_next"]
        if rules.dealer_rotates:
            dealer = (dealer + 1) % n
        if carry == 0:
            break
        if hands >= max_hands or carry > POT_LIMIT:
            truncated = 1
            overflow = 1 if carry > POT_LIMIT else 0  # (reading R6)
            share = carry // n
            for s in range(n):
                chips[s] += share
            if log is not None:
                log.append(
                    f"stopped after {hands} hands{' (pot limit)' if overflow else ''}: "
                    f"the pot {carry} is shared, {share} to every seat"
                )
            break
        compulsory = bool(res["all_dropped"]) and int(rules.all_drop) == FORCED_REPLAY
        pot = carry
    if log is not None:
        log.append("game over after %d hands: " % hands + ", ".join(f"seat {s} {chips[s]:+d}" for s in range(n)))
    finished = 1 - truncated  # the game ended by the rules, not stopped
    seat_rows = [[c, c * c, 1 if c > 0 else 0, c * finished, c * c * finished, finished] for c in chips]
    bucket = max(i for i, low in enumerate(LENGTH_BUCKET_LOW) if hands >= low)
    lengths = [1 if i == bucket else 0 for i in range(len(LENGTH_BUCKET_LOW))]
    table_row = [hands, hands * hands, truncated, overflow, truncated - overflow, largest] + lengths
    assert len(table_row) == len(GAME_OUTCOMES.table)
    return seat_rows, table_row


# ----------------------------------------------------------------------------------------
# Batch and replay


def simulate(rules: Rules, policy, n_seats: int, mode: int, seed: int, first: int, count: int):
    """Sum hands (mode 0) or games (mode 1) ``first .. first+count-1`` of ``seed``.

    Returns ``(n_seats + 1, width)`` sums: int64 for hands; for games an object array of
    exact Python integers (``largest_pot`` a maximum).
    """
    if mode == 0:
        outcomes, play = HAND_OUTCOMES, play_hand
    elif mode == 1:
        outcomes, play = GAME_OUTCOMES, play_game
    else:
        raise ValueError(f"mode must be 0 (hands) or 1 (games), got {mode}")
    SPEC.check(rules, policy, n_seats)
    rows = _prepared(policy, n_seats)
    return sum_outcome_rows(play, outcomes, rules, rows, n_seats, seed, first, count)


def replay_lines(rules: Rules, policy, n_seats: int, seed: int, hand: int) -> list[str]:
    """The readable log of hand ``hand`` of ``seed`` in hand mode (the hand play_hand plays)."""
    lines = [f"Fight for the Lead: seed {seed}, hand {hand} ({n_seats} seats, dealer seat {n_seats - 1})"]
    play_hand(rules, policy, n_seats, seed, hand, lines)
    return lines


# ----------------------------------------------------------------------------------------
# Advice (sims/games/fight_for_the_lead/advice.py)


class _Force(NamedTuple):
    """One seat's forced choices in a hand (None: its policy decides)."""

    seat: int
    fight: int | None = None
    stay: int | None = None
    discards: tuple | None = None
    fights: list | None = None  # infer="seen": every seat's fight card as seen (-1: not given)
    playing: int | None = None  # infer="seen": the seats seen to play (bit s: seat s)
    counts: list | None = None  # infer="seen": each earlier trader's count as seen (-1: not given)


class _DealtPack(Pack):
    """The pack of an advice deal: its first ``prefix`` positions were dealt already (the
    conditioned deal) and are taken in order; every later draw, and every draw from a
    reshuffled pile, is the hand's lazy Fisher-Yates draw."""

    __slots__ = ("prefix",)

    def __init__(self, cards, stream, prefix: int):
        super().__init__(cards, stream)
        self.prefix = prefix

    def draw(self) -> int:
        if self.t < self.prefix:
            self.t += 1
            return self.cards[self.t - 1]
        return super().draw()

    def renew(self, pile) -> None:
        super().renew(pile)
        self.prefix = 0


def advise(rules, policy, n_seats: int, seed: int, first: int, count: int, known, n_candidates: int, n_outcomes: int):
    """The flat advice sums (sims.core.advice) of deals ``first .. first+count-1`` of
    ``seed``, in plain Python: deal ``i`` is ``Stream(seed, i)``'s conditioned deal of the
    known cards, then the rest of the pack in code order; the hand is played (dealer
    n-1) from that pack once per candidate, from a copy of the stream, the advised seat
    forced to the candidate (and to its fight card, and to staying, where the context
    already says so); under infer="seen" the other seats' fight cards, who plays and the
    earlier traders' counts are forced to the context's too (a trader throwing its lowest
    cards); a deal whose first play leaves the context (another seat's fight card, who
    plays, an earlier trader's count) is dropped."""
    from sims.core.advice import TRIED, advice_width, deal_conditioned, record_deal
    from sims.games.fight_for_the_lead.advice import FIGHT, STAY, TRADE, read_known

    n = int(n_seats)
    table_rules = Rules(*[int(v) for v in rules])
    rows = _prepared(policy, n)
    k = read_known(known, n)
    seat = k["position"]
    prefix = k["prefix"]
    seen = {}
    if k["seen"]:  # infer="seen": the others' actions as given
        seen = {"fights": k["fight"], "counts": k["traded"], "playing": k["playing"] if k["playing"] >= 0 else None}
    forces = []
    for candidate in k["candidates"][:n_candidates]:
        if k["decision"] == FIGHT:
            forces.append(_Force(seat, fight=candidate, **seen))
        elif k["decision"] == STAY:
            forces.append(_Force(seat, fight=k["fight"][seat], stay=candidate, **seen))
        else:
            discards = tuple(c for c in range(N_CARDS) if candidate >> c & 1)
            forces.append(_Force(seat, fight=k["fight"][seat], stay=1, discards=discards, **seen))
    assert k["decision"] in (FIGHT, STAY, TRADE)
    out = [0] * advice_width(n_candidates, n_outcomes)
    for i in range(first, first + count):
        stream = Stream(seed, i)
        out[TRIED] += 1
        dealt = deal_conditioned(stream, range(N_CARDS), prefix)
        cards = dealt + [c for c in range(N_CARDS) if c not in set(dealt)]
        values = []
        for force in forces:
            copy = Stream(0, 0)
            copy.s = list(stream.s)
            res = _play(
                table_rules,
                rows,
                n,
                _DealtPack(cards, copy, len(prefix)),
                n - 1,
                k["pot"],
                k["compulsory"],
                None,
                force,
            )
            if not values and not _as_seen(res, k, n):
                break
            won = res["won"][seat]
            row = [
                res["net"][seat],
                won,
                1 if res["playing"][seat] and won == 0 else 0,
                1 if res["lead"] == seat else 0,
            ]
            values.append(row[:n_outcomes])
        if len(values) == len(forces):
            record_deal(out, values)
    return out


def solve(rules, policy, n_seats: int, seed: int, first: int, count: int, decision_index: int) -> list[int]:
    """The solve sums (sims.core.table_nb) of hands ``first .. first+count-1`` of
    ``seed`` (hand mode's hands): every seat's decision ``decision_index`` (0 stay, in a
    hand that is not compulsory; 1 fight_card) is replayed from the hand's start once per
    action, forced there after its table's draw, and the seat's net under each is added
    to its cell's sums."""
    n = int(n_seats)
    table_rules = Rules(*[int(v) for v in rules])
    rows = _prepared(policy, n)
    decision = TABLES[decision_index]
    out = [0] * (n * decision.n_cells * solve_stats_width(decision.n_actions))
    compulsory = int(table_rules.sample_hand) == SAMPLE_FIRST
    if compulsory and decision_index == STAY_DECISION:
        return out
    pot = n * ante_for(table_rules, n)
    key = "fight_cell" if decision_index == FIGHT_DECISION else "stay_cell"

    def play(i, forced=None):
        return _play(
            table_rules, rows, n, Pack(range(N_CARDS), Stream(seed, i)), n - 1, pot, compulsory, None, forced=forced
        )

    for i in range(first, first + count):
        base = play(i)
        for seat in range(n):
            values = [play(i, (seat, decision_index, a))["net"][seat] for a in range(decision.n_actions)]
            record_visit(out, seat, base[key][seat], decision.n_cells, values, (1 << decision.n_actions) - 1)
    return out


def _as_seen(res, k, n: int) -> bool:
    """Whether a hand played matches what the advised seat saw: the other seats' fight
    cards, the seats that play and the earlier traders' counts, where given."""
    for s in range(n):
        if s != k["position"] and k["fight"][s] >= 0 and res["fight"][s] != k["fight"][s]:
            return False
        if k["traded"][s] >= 0 and res["traded"][s] != k["traded"][s]:
            return False
    playing = sum(1 << s for s in range(n) if res["playing"][s])
    return k["playing"] < 0 or playing == k["playing"]
