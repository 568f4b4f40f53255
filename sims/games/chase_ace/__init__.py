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
    truncated (1 if the game hit the round cap), then length_<label> for the buckets of
    LENGTH_BUCKETS (rules.py: 1_16, 17, 18, ..., 22, 23_up): 1 in the one bucket whose
    range holds the game's rounds (a truncated game's 100000 rounds in the last), 0 in
    the others.

Strategy tables (sims/games/chase_ace/table.py; sims.core.table)
  One table decision, swap: a non-dealer's swap-or-keep and the dealer's cut-or-keep (the
  dealer's "swap" is its cut; a file may write cut). Actions in draw order swap, keep: a
  mixed cell draws u = stream.uniform() at the decision and swaps when u is below its swap
  probability (a cell with an action of probability 1 draws nothing), the draw of rule c.
  Each seat has its own table and keeps it whatever position it has in game mode, as it
  keeps its policy row.
  Cells, fields (held, gave), faces spelled A 2 .. 10 J Q K (with ace_high the rank order
  changes, the spelling does not), 13 + 169 of them:
    (held, None)  no swap from the right (always for the eldest, position 0): the face held.
    (held, gave)  after a swap from the right: the right-hand neighbour completed an exchange
                  with this player on its own turn (not via a queen redirection, not via
                  skip-to-next: the condition rule a reads); held = the face received (now
                  held), gave = the face given.
  The dealer's cut the same: after the last non-dealer's exchange with the dealer (held =
  received, gave = the dealer's card given), else the face held.
  Where a rule forces the keep (exchanging has ended, the player holds the TOP card, a king
  seen at the deal is in the way under rule b, the turn is lost to a jack) it still forces
  it: the table is not consulted there (no visit, no draw). Elsewhere (a visit) a seat
  playing a table takes its cell's action in place of rules a and c; a cell the table
  leaves out falls back to the policy fields (rules a and c as above). Advice's advised
  position still plays the candidate it is given (no draw).
  Why this is enough: the policy fields decide from the rank held (rule c) and, after a swap
  from the right, from the ranks received and given (rule a); nothing else a seat sees
  enters them. So every policy of the family is a table: in hand mode each seat's role is
  fixed and its table is exact; in game mode the dealer's informed rule (cut exactly on a
  lower rank received) differs from a non-dealer's (keep on a higher one, else rule c) in
  some after-swap cells, and policy_table leaves those cells out so that the table plays
  exactly as the policy in every position. The cells also hold all a player knows that
  matters under the standard rules: the cards to its left are unseen and the earlier
  actions it saw are reflected only in what it received.
  Solve: SOLVE_OUTCOME lose_life (lower is better, scale 1), in hand mode. A visit of seat s
  in cell c is recorded with the seat's lose_life when it swaps (cuts) and when it keeps,
  the rest of the deal played by the profile on the same stream (sims/games/chase_ace/solve.py).
  exact.py evaluates table profiles exactly (exact_profile, exact_solve) for 2 to 5 players.
"""

from __future__ import annotations

from sims.games.chase_ace.kernel import *  # noqa: F401,F403 (and its kernels)
from sims.games.chase_ace.kernel import (
    fixed_hands_kernel,
    hand_rule_codes,
    simulate_games_nb,
    simulate_hands_nb,
)
from sims.games.chase_ace.rules import *  # noqa: F401,F403 (the game's public names live here)
from sims.games.chase_ace.rules import (
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
TITLE = "Chase the Ace"
SUMMARY = "One card each; swap with your left-hand neighbour or keep; the lowest card loses a life."

SPEC = GameSpec(
    name="chase-ace",
    title=TITLE,
    summary=SUMMARY,
    rules_type=Rules,
    policy_fields=POLICY_FIELDS,
    variants=VARIANTS,
    policies=POLICIES,
    outcomes={Mode.HANDS: HAND_OUTCOMES, Mode.GAMES: GAME_OUTCOMES},
    headline={Mode.HANDS: "lose_life", Mode.GAMES: "win"},
    min_players=2,
    max_players=51,
    default_players=8,
    kernel_version=1,
    check_table=check,
    players_why="one card each and one to cut",
    kernels={Mode.HANDS: simulate_hands_nb, Mode.GAMES: simulate_games_nb},
    fixed_kernels={Mode.HANDS: (hand_rule_codes, fixed_hands_kernel, (hand_rule_codes(Rules()),))},
    twin="sims.games.chase_ace.twin",
    exact="sims.games.chase_ace.exact",
    advice="sims.games.chase_ace.advice",
    tables="sims.games.chase_ace.table",
    solve="sims.games.chase_ace.solve",
    bench_players=(4, 8, 20),
    strategy_fields=("threshold",),
    report_players=tuple(range(3, 11)),
)
