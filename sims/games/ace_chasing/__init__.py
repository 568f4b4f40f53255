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
   shown and nothing changes.  The matador makes no decision.  No random draws (a seat
   playing a table may draw, see "Strategy tables").
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
    table: rounds, rounds_sq, and the game length in rounds as indicators, exactly one
    of them 1 per game: length_1-2, length_3, length_4, length_5, length_6, length_7,
    length_8-10, length_11+ (LENGTH_LABELS; drawn as a histogram).

Strategy tables (sims.games.ace_chasing.table; sims.core.table)
  A seat may play either swap-chain decision from a table: ``swap`` (positions 0 .. k-3:
  keep, or swap with the left-hand neighbour) and ``matador_right`` (position k-2: keep,
  or swap with the matador).  Both have the same 182 cells, what the seat knows at its
  turn:
    held: the rank it holds now (A .. K), and
    gave: when its right-hand neighbour swapped with it (that swap carried out, so not
      refused by a king), the rank it gave, which is its dealt card; none otherwise (13
      cells without a swap, 13 x 13 after one).
  Actions, in draw order: swap, keep (a file may write pass for swap); both legal in
  every cell (with king_block a swap is a request a king may refuse, as the policy's
  is).  Why this is enough: the policy fields look at the rank held only (threshold,
  matador_right_threshold, and ace_swap for an ace), so the policy is the table that
  gives every cell of a rank the same action (``policy_table``).  The rank given is what
  a careful player adds: it is the one other card whose place the seat knows (its right
  neighbour holds it), and it says the neighbour's card was low enough to pass on.  The
  suits are left out: they matter only through an exposed ace, and the one case where the
  seat knows something (it gave an ace and got back a card of that suit) is too rare to
  earn 13 cells.  Earlier seats' public keeps and swaps are left out too (hundreds of
  histories); the position in the chain is the seat itself in hand mode (tables are per
  seat).
  A seat's table is read at its decision in every mode (hands, games, advice); a cell
  left out falls back to the policy fields; a mixed cell draws one uniform from the
  round's stream at that moment (hand i: the stream of hand i after the deal; a game: its
  stream, in the order of play).  Policies draw nothing, so a table changes no other
  draw.  Tables that mix no cell and look at the rank held only (a policy written as a
  table) are folded into the policy's masks and played at its speed.
  Solving (``solve_nb``, sims.core.table_nb): hand mode's deals; every visit of a seat to
  the decision solved is replayed with the other action from that visit on (the chain
  before it is the base play's, the visit's own draw still made), and the seat's
  ``exposed`` (lower is better) is recorded per action.
"""

from __future__ import annotations

from sims.games.ace_chasing.kernel import *  # noqa: F401,F403 (and its kernels)
from sims.games.ace_chasing.kernel import (
    simulate_games_nb,
    simulate_hands_nb,
)
from sims.games.ace_chasing.rules import *  # noqa: F401,F403 (the game's public names live here)
from sims.games.ace_chasing.rules import (
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    POLICIES,
    POLICY_FIELDS,
    VARIANTS,
    Rules,
    check,
)
from sims.spec import GameSpec, Mode

# The registry reads these two without importing the game (sims/registry.py): keep them literal.
TITLE = "Ace Chasing"
SUMMARY = "Everyone against the matador: lower cards and the suits of face-up aces are knocked out."

SPEC = GameSpec(
    name="ace-chasing",
    title=TITLE,
    summary=SUMMARY,
    rules_type=Rules,
    policy_fields=POLICY_FIELDS,
    variants=VARIANTS,
    policies=POLICIES,
    outcomes={Mode.HANDS: HAND_OUTCOMES, Mode.GAMES: GAME_OUTCOMES},
    headline={Mode.HANDS: "exposed", Mode.GAMES: "win"},
    min_players=4,
    max_players=52,
    default_players=8,
    kernel_version=1,
    check_table=check,
    players_why="one card each",
    kernels={Mode.HANDS: simulate_hands_nb, Mode.GAMES: simulate_games_nb},
    twin="sims.games.ace_chasing.twin",
    exact="sims.games.ace_chasing.exact",
    advice="sims.games.ace_chasing.advice",
    tables="sims.games.ace_chasing.table",
    solve="sims.games.ace_chasing.kernel",
    bench_players=(4, 8, 20),
    strategy_fields=("threshold", "matador_right_threshold"),
    last_seat_role="matador",
)
