"""Fan Tan (Sevens), as this kernel plays it.

Implements ../shared/rules/fan-tan.md (the seed is a Katz-style text cut off before the
ending; the ending is the standard American Hoyle/Bicycle one).  Where the rules leave a
point open, the reading taken here is marked (reading).

Seats, cards and the layout
  n seats, 2 to 8 (the rules say 3 to 8; 2 runs with a warning).  Seat d deals; the
  eldest hand is d+1 (mod n) and play goes clockwise, seat s to s+1.
  A card is code = suit*13 + face (sims.core.deck): suits clubs, diamonds, hearts,
  spades = 0..3, face 0=A, 1=2, ..., 6=7, ..., 9=10, 10=J, 11=Q, 12=K.  Within a suit A is
  low and K high, never wrapping.  "Code order" (the fixed order of the `first` style) is
  clubs A..K, then diamonds, hearts, spades.
  The layout: a suit's row starts with its 7 and grows one card at a time up (8, 9, ...
  K) and down (6, 5, ... A); the two branches grow independently.
  Legal cards (the cards that may be added now): every 7 not yet played; and for each
  started row, the card one above its highest card (if it is not the K) and the card
  one below its lowest card (if it is not the A).  With eight_before_six, a row's 6 is
  legal only once its 8 is on the table (so nothing below the 7 comes before the 8).

The deal
  The pack starts in code order 0..51 and is shuffled by 52 lazy Fisher-Yates draws on
  the deal's stream: draw k (k = 0..51) swaps position k with k + below(52 - k) and takes
  position k (exactly sims.core.deck.deal_prefix(stream, 52)).  Draw k goes to seat
  (d + 1 + k) mod n, so the first 52 mod n seats from the dealer's left get one card more.
  Stacked packs (play_dealt) list the 52 cards in draw order (no swaps).

Rule switches (integer codes in brackets)
  ante 0..20 (default 2): chips each seat antes into the pot at the deal.
  uneven_ante: none [0] (default) | fewer-cards-pay-extra [1] | more-cards-pay-extra [2]:
    when the hands are uneven (52 mod n > 0), each seat dealt the fewer (more) cards antes
    one chip more.
  start: eldest [0] (default) | holder-7d [1] | holder-7h [2]: the eldest hand takes the
    first turn; or the holder of the 7 of diamonds (hearts) opens by playing it (whatever
    its style) and the turn then passes to its left.
  settle: pot-plus-cards [0] (default) | pot-only [1] | card-count-score [2]:
    pot-plus-cards: when a seat goes out, every other seat pays card_fee per card left in
    its hand into the pot, and the seat that went out takes the whole pot.
    pot-only: the seat that went out takes the pot; nothing more is paid.
    card-count-score: no chips change hands at all (no ante, fees or penalties: net and
    paid are 0); each loser scores its cards left (reading: a scoring game uses no chips).
  may_pass_when_able (default false): a seat able to play may pass instead (policy
    pass_with_sevens).  A voluntary pass pays Hoyle's irregularity penalties (reading: the
    issue asks for them whenever voluntary passes are on): 3 chips into the pot instead of
    pass_fee, and for each 7 in the passer's hand (a 7 held back) 5 chips to the holder of
    that suit's 6 and 5 chips to the holder of its 8, when another seat holds them.  A
    voluntary pass is not allowed when the previous n-1 turns were all passes (reading:
    otherwise a table of passers could pass for ever); the seat must then play.  Before
    n-1 turns have been taken a voluntary pass is allowed (so the first n-1 seats may all
    hold their sevens back and the next must open).  The built-in policy passes only to
    hold back sevens, never a 6 or an 8.
  eight_before_six (default false): above.
  pass_fee 0..20 (default 1): chips a seat that cannot play pays into the pot.
  card_fee 0..20 (default 1): above.

Per-seat policy (one row per seat)
  style: which legal card to play when the hand holds more than one ("playable" = legal
  cards in the hand; a card c "unlocks" the cards that are legal after c is played and
  were not before):
    first [0] (default): the playable card lowest in code order.
    random [1]: a uniformly random playable card: with k > 1 playable cards, draw
      i = below(k) from the deal's stream and play the i-th lowest in code order (no
      draw when only one is playable).
    hold-sevens [2]: the first non-seven playable card; a seven (the first) only when
      every playable card is a seven.
    block [3]: keeps back the cards next to a seven (the 6s and 8s) when it holds another
      playable card.  Among the candidates (the playable cards that are not a 6 or 8, or
      all playable cards when that leaves none) it plays the first in code order that
      unlocks a card of its own hand, else the first candidate.
    greedy-unlock [4]: the playable card that unlocks the most cards of its own hand;
      ties to the first in code order.
  pass_with_sevens 0|1 (default 0): with may_pass_when_able, pass voluntarily when every
    playable card is a seven (holding the sevens back), whenever a voluntary pass is
    allowed.
  The styles use only the hand and the layout.  (A pass reveals that the passer held no
  legal card; a policy may use that, and these do not.)

One deal (dealer d, one stream)
  1. The deal (above); antes into the pot (none under card-count-score).
  2. The opening: under start=eldest the eldest hand has the first turn; under
     holder-7d/7h the holder plays that 7 and the next turn is its left-hand
     neighbour's.
  3. Turns go clockwise.  On its turn a seat with a playable card plays exactly one
     (style), unless it passes voluntarily (above); a seat with none passes and pays
     pass_fee into the pot.  Until a 7 is down only 7s are legal, so the first seats
     without one pass.
  4. The deal ends the moment a seat plays its last card: it wins; settlement (settle).
  The deal always ends: some seat always holds a legal card (every unplayed card is in
  a hand), so at most n-1 turns in a row are forced passes, and at most 2n-2 are passes
  of either kind (after n-1 passes in a row nobody may pass voluntarily).

Strategy tables (sims/games/fan_tan/table.py, sims.core.table)
  One decision, ``play``: which legal card a seat plays at its turn (or, with
  may_pass_when_able, whether it passes instead).  Its actions are the ways of choosing
  the card, not the cards: first, random, hold-sevens, block, greedy-unlock (each the
  style above, resolved on the hand and the layout as the style does: random draws its
  card as it does) and pass (a voluntary pass at Hoyle's penalties).  A concrete card is
  no good action for a chart: which cards are legal changes with every layout, so a cell
  of "play the 8 of clubs" would be legal in some of its deals only, and a cell keyed by
  the whole legal set would number in the millions.  A style is legal everywhere and
  reads the hand itself.
  A cell is visited at a turn where the seat holds a legal card and has a choice: two
  legal cards or more, or one with a pass allowed.  (A single legal card without a pass
  is no decision: every action plays it, the kernel does not look the table up.)  The
  cell holds five classes of what the seat knows then:
    may_pass      no | yes: a voluntary pass is allowed now (may_pass_when_able, and the
                  last n-1 turns were not all passes);
    legal         1 | 2 | 3 | 4+: its legal cards (1 only where a pass is allowed);
    sevens        none | some | all: how many of them are sevens (one legal card: none
                  or all), i.e. whether it can open a suit and whether it must;
    cards         1-3 | 4-7 | 8+: cards in its hand (how near it is to going out);
    fewest_other  1-2 | 3-5 | 6+: the fewest cards any other seat holds (public: the
                  dealt sizes less the plays), i.e. how near the race is to its end.
  162 cells (2 x 4 x 3 x 3 x 3 less the impossible: one legal card with no pass, one
  legal card that is "some" sevens, 4+ legal cards in a hand of 1-3); the pass is legal
  exactly in the 90 may_pass=yes cells, every style in every cell (with one legal card
  every style plays it).
  Why it is enough: the policy fields condition on nothing but these.  style is a
  choice of action in every cell (the style resolved on the hand does the rest), and
  pass_with_sevens passes exactly when a pass is allowed and every legal card is a
  seven, which the cell says (may_pass=yes, sevens=all).  So (style s, pass_with_sevens
  p) is the table of action "pass" in the cells may_pass=yes sevens=all when p = 1 and
  s everywhere else (table.policy_table), and plays the same hands draw for draw: a
  pure cell draws nothing, and the random style draws below(k) as it does.  The other
  classes are what a player weighs between the styles (open a suit or hold the
  sevens; block the 6s and 8s or run its own suits; race when short, block when a rival
  is short) at the cost of a few hundred cells, so that a solve reaches each often.
  A seat's table that, in every cell it does not leave out, takes the one action its
  policy fields take there is that policy: the kernels then let the fields decide (the
  same play, at the policy's speed).  A mixed cell draws one uniform from the hand's
  stream before the style's own draws (sims.core.table).  The solve (SOLVE_OUTCOME the
  seat's hand-mode ``net``) tries every legal action at every visit of every seat: its
  card chosen on the stream as the profile's action meets it, the rest of the deal on
  the stream the profile's play leaves (sims/games/fan_tan/table_kernel.py).  Under
  card-count-score ``net`` is always 0, so a solve there finds every action equal.

Advice (``analyze advise fan-tan``): which card to play, on the deals that fit the record
  of plays and passes; see sims/games/fan_tan/advice.py.

Games (game mode): a rotation of n deals on one stream (seed, game index), every deal
  starting from a pack in code order; the first deal is dealt by seat n-1, then seat 0,
  1, ..., n-2 (the deal passes left), so every seat deals once.

Hand mode outputs (one deal, dealer = seat n-1)
  per seat: win (1 if it went out), net and net_sq (chips received minus chips paid),
    passes and passes_sq (its passes, voluntary ones included), paid and paid_sq (chips
    it paid: ante, pass fees, penalties, card fees), cards_left and cards_left_sq (cards
    in its hand at the end; 0 for the winner).  One deal moves at most 34,748 chips
    (8 players, the largest accepted stakes: sims.games.fan_tan.advice.largest_outcome),
    so every square is below 2**32 and a block of 2**31 deals cannot overflow int64.
  table: turns and turns_sq (turns taken, passes included, the opening play of
    holder-7d/7h counting as one), pot and pot_sq (the chips the winner takes, 0 under
    card-count-score).
Game mode outputs (per rotation)
  per seat: net and net_sq (summed over the n deals; net_sq is wide, in two 32-bit limbs,
    as a rotation's square can pass 2**32 at the largest stakes), wins and wins_sq (deals won),
    cards_left and cards_left_sq (summed: its card-count score), best_score (1 if no seat
    has a lower card-count score; ties count for every tied seat).
  table: turns and turns_sq (summed over the n deals); length_<label> (1 in exactly one
    bucket of the rotation's turns per deal, turns / n, in [low, next low) of
    LENGTH_BUCKET_LOW = 0, 50, 52, 54, 56, 58, 60: the game-length distribution).
"""

from __future__ import annotations

from sims.games.fan_tan.kernel import (
    fixed_hands_kernel,
    hand_rule_codes,
    simulate_games_nb,
    simulate_hands_nb,
)
from sims.games.fan_tan.rules import *  # noqa: F401,F403 (the game's public names live here)
from sims.games.fan_tan.rules import (
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    POLICIES,
    POLICY_FIELDS,
    VARIANTS,
    Rules,
    check,
    warning,
)
from sims.spec import GameSpec, Mode

# The registry reads these two without importing the game (sims/registry.py): keep them literal.
TITLE = "Fan Tan"
SUMMARY = (
    "Sevens: build each suit up and down from its seven; play when you can, pay when you cannot, "
    "and the first out takes the pot."
)

SPEC = GameSpec(
    name="fan-tan",
    title=TITLE,
    summary=SUMMARY,
    rules_type=Rules,
    policy_fields=POLICY_FIELDS,
    variants=VARIANTS,
    policies=POLICIES,
    outcomes={Mode.HANDS: HAND_OUTCOMES, Mode.GAMES: GAME_OUTCOMES},
    headline={Mode.HANDS: "net", Mode.GAMES: "net"},
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=4,
    kernel_version=1,
    check_table=check,
    players_why="the rules ask for 3; 2 play with a warning",
    kernels={Mode.HANDS: simulate_hands_nb, Mode.GAMES: simulate_games_nb},
    fixed_kernels={Mode.HANDS: (hand_rule_codes, fixed_hands_kernel, (hand_rule_codes(Rules()),))},
    twin="sims.games.fan_tan.twin",
    tables="sims.games.fan_tan.table",
    solve="sims.games.fan_tan.table_kernel",
    advice="sims.games.fan_tan.advice",
    bench_players=(4, 6, 8),
    strategy_fields=("style",),
    last_seat_role="dealer",
    warning=warning,
)
