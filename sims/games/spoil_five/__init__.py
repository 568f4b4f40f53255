"""Spoil Five (2 to 10 players; Irish, the book form of Twenty-Five), as this kernel plays it.

Implements ../shared/rules/spoil-five.md (1911 Britannica, Peel, play-25.com, pagat; the
seed text is Nikki Katz's).  Where the rules leave a point open, the reading taken here
is marked (reading).

Seats, cards and the deal
  Seats 0..n-1 clockwise, 2 <= n <= 10.  Hand mode plays one deal with the dealer in seat
  n-1 (so seat 0 is the eldest hand).  A card is code = suit*13 + face
  (sims.core.deck): suits clubs, diamonds, hearts, spades = 0..3; face 0 = A, 1 = 2, ...,
  9 = 10, 10 = J, 11 = Q, 12 = K.
  The pack of a deal starts in code order 0..51.  Cards are drawn one at a time from the
  top; the draw at pack position t first swaps position t with position t + below(52 - t)
  on the deal's stream (a lazy Fisher-Yates shuffle, so the draws are exactly
  sims.core.deck.deal_prefix), then takes position t.  Draw order: 5 cards to the eldest
  hand (the seat left of the dealer), 5 to the next seat clockwise, ..., 5 to the dealer,
  then the turn-up: 5n + 1 cards.  The suit of the turn-up is trumps.  A stacked pack
  (play_dealt, play_pool) is drawn in the listed order with no swaps: the listed cards,
  then every other card in code order.

Ranks (the orders the players' choices below compare; higher beats lower)
  Trumps (the ace of hearts, Ah, is always a trump; the "ace of trumps" is the ace of the
  trump suit, Ah itself when hearts are trumps).  Order 0 is kept for a demoted ace
  (unrobbed_ace_low):
    hearts trumps:   2h 1, 3h 2, 4h 3, 6h 4, 7h 5, 8h 6, 9h 7, 10h 8, Qh 9, Kh 10, Ah 11,
                     Jh 12, 5h 13
    diamonds trumps: 2d 1, 3d 2, 4d 3, 6d 4, 7d 5, 8d 6, 9d 7, 10d 8, Qd 9, Kd 10, Ad 11,
                     Ah 12, Jd 13, 5d 14
    clubs / spades trumps: 10 1, 9 2, 8 3, 7 4, 6 5, 4 6, 3 7, 2 8, Q 9, K 10, A 11,
                     Ah 12, J 13, 5 14
  Plain suits (every suit but trumps; Ah is never a plain card):
    hearts:   2 0, 3 1, 4 2, 5 3, 6 4, 7 5, 8 6, 9 7, 10 8, J 9, Q 10, K 11
    diamonds: A 0, 2 1, 3 2, 4 3, 5 4, 6 5, 7 6, 8 7, 9 8, 10 9, J 10, Q 11, K 12
    clubs / spades: 10 0, 9 1, 8 2, 7 3, 6 4, 5 5, 4 6, 3 7, 2 8, A 9, J 10, Q 11, K 12
  A card's "suit" below is its effective suit: trumps for every trump (Ah included), else
  its printed suit.  "The lower suit" means clubs < diamonds < hearts < spades.
  The privileged trumps are the 5 of trumps, the jack of trumps and Ah.

Rule switches (integer codes in brackets)
  plain_lead: follow-or-trump [0] (default) | free [1] (the seed) | must-follow [2].
  rob: optional [0] (default, the seed) | obligatory-or-forfeit [1] (Britannica, Peel).
  unrobbed_ace_low (default false): the Irish house rule that the trump ace of a holder
    who did not rob is the lowest trump.
  ante 0..20 (default 2): chips each player pays into a new pool.
  dealer_extra 0..20 (default 0): chips the dealer of a new pool pays on top.
  dealer_extra_every_deal (default false): the dealer of every deal pays dealer_extra,
    a carried pool's too (Peel: "the dealer pays the sum agreed for the deal each time,
    no matter whether the pool was won, or the game spoilt"); false: only the first
    dealer of a new pool pays it.
  spoil_topup: all-but-dealer [0] (default: every player but the dealer of the spoiled
    hand) | dealer-only [1] (only the next dealer) | everyone [2]; topup_amount 0..20
    (default 1) chips each of them adds to a carried pool.
  jinx (default true).
  jinx_bonus: ante [0] (default, Peel: each other player pays the jinxer the ante) |
    none [1] | double-ante [2] (twice the ante).  (reading) Peel's "original stake" is
    taken as the ante for every player, the dealer too: dealer_extra is not part of it.
  max_deals 1..1000 (default 1000; game mode): a pool still unwon after this many deals
    is stopped and counted as truncated (its chips are left on the table).
  spoil_topup, topup_amount, dealer_extra_every_deal and max_deals act only across the
  deals of a pool (game mode).

Per-seat policy (one row per seat, used whenever that seat decides)
  rob 0 | 1 (default 1): rob when the rules allow it (1) or never (0).
  jinx_min 0..3 (default 2): after winning the first three tricks, call the jinx when at
    least jinx_min of the two cards left are sure winners (0 always jinxes, 3 never).
  spoil 0 | 1 (default 1): spoiling play (below) when another player threatens to take
    the pool; 0 plays greedily for itself throughout.
  renege 0 | 1 (default 1): hold back privileged trumps when the law allows (below); 0
    plays a trump to a trump lead whenever it holds one.

What a player knows
  Its own hand and its own discard; the trump suit and the turn-up card; who robbed (and
  so where the turn-up is); every card played so far; the tricks each player has won.
  "Dead" cards, for a player: the cards played so far in the deal, its own discard, and
  the turn-up when it is out of play (nobody took it, or this player took it).  "Unseen"
  cards: the 52 cards minus its hand minus its dead cards (the stock, other hands, other
  players' discards and a turn-up another player took).
  A holder of the ace of trumps who does not rob announces nothing.  So the others learn
  that it is forfeited (obligatory-or-forfeit) only when it plays the ace of trumps, and
  under unrobbed_ace_low they never learn that the ace was demoted: for every player but
  the holder, an unseen ace of trumps keeps its usual order in the sure-winner test.  The
  holder knows both (its demoted ace is in its hand at order 0).

Words used by the players' choices
  cheapest card of a set: its plain card of lowest order (ties to the lower suit); with no
    plain card, its trump of lowest order.
  strongest card of a set: its trump of highest order; with no trump, its plain card of
    highest order (ties to the lower suit).
  a card c beats the card w now winning a trick led in suit X: c is a trump and w is not,
    or both are trumps and c's order is higher, or neither is a trump, c is of suit X and
    c's order is higher.  The first card of a trick wins it until beaten.
  sure winner (for the player holding it): a trump with no unseen trump of higher order;
    a plain card with no unseen trump at all and no unseen card of its suit of higher
    order.

One deal (dealer D; pool P already in the middle, see Chips)
  1. Deal (above).  Turn up the next card: its suit is trumps.
  2. Robbing.
     * The turn-up is an ace: D robs when D's policy rob is 1: D discards its cheapest
       card (face down, out of play) and takes the ace, before the first lead.  (reading)
       obligatory-or-forfeit does not apply here: D does not hold the ace.  An ace D does
       not take stays out of play.
     * Otherwise, if the ace of trumps was dealt to a player H (D included): when H is
       first due to play in trick 1 (before leading or following), H robs when its rob is
       1: H discards its cheapest card of the five it was dealt, then takes the turn-up
       into its hand.  Everyone knows H robbed and holds the turn-up.  If H does not rob:
       under obligatory-or-forfeit H is forfeited (H plays on but cannot take the pool);
       with unrobbed_ace_low the ace of trumps becomes the lowest trump (order 0) from
       that moment on (it cannot have been played yet); the turn-up stays out of play.
     * If the ace of trumps is in the stock (not dealt, not turned up), nobody robs.
  3. Trick play.  The eldest hand leads trick 1; each trick's winner leads the next; the
     others follow clockwise from the leader.  Legal cards for the player to move:
     * leading: any card.
     * a trump was led (Ah counts), the led card having trump order t: Renegeable = the
       player's privileged trumps of order above t; Must = the player's trumps that are
       not renegeable.  Must not empty: the player must play a trump (any trump, a
       privileged one included).  Must empty (no trumps, or only renegeable ones): any
       card.  (So with the 5 of trumps led nothing may be held back; with the jack led
       the 5 may be held back but Ah may not.)
     * a plain suit X was led: follow-or-trump: a card of X or any trump; another plain
       suit only when holding no card of X.  free: any card.  must-follow: a card of X
       when holding one, else any card.  (Ah is a trump, never a heart.)
     The winner of a trick: the highest trump in it by trump order, else the highest card
     of the suit led by that suit's order.
  4. When the hand stops (checked after every trick; t = tricks played, W = its winner):
     a. During a jinx: if the jinxer lost this trick the jinx fails (the hand is a spoil,
        spoiled by W); if t = 5 the jinxer made it (takes the pool and the bonus).
     b. Else if W now has 3 tricks: if W is forfeited the hand is a spoil (spoiled by W);
        else if jinx is on, t = 3 and W won tricks 1, 2 and 3, W chooses: jinx when at
        least jinx_min of its two cards are sure winners (W then leads trick 4), else
        claim (W takes the pool); else W takes the pool.
     c. Else if no player that is not forfeited can still reach 3 tricks (its tricks +
        5 - t < 3 for every one), the hand is a spoil, spoiled by W.
     d. Else W leads the next trick.
     Nothing after the stop is played (tricks won count the tricks played).
  5. Which card a player plays.  Its candidates are its legal cards, except that to a
     trump lead whose Must is empty: with renege 1 and a plain card in hand, the
     candidates are its plain cards (it holds its privileged trumps back); with renege 0
     and a trump in hand, the candidates are its trumps (it plays one as if forced).
     Threats, for a player p: the other players who can still take the pool as far as p
     knows: those with 2 tricks that are not known to be forfeited (a forfeited player is
     known once it has played the ace of trumps), and the jinxer during a jinx.  p plays spoiling
     when its spoil is 1, it has threats, and it cannot take the pool itself (it has
     fewer than 2 tricks or is forfeited); otherwise greedily.
     Greedy:
       leading: the highest-order sure-winning trump; else the highest-order sure-winning
         plain card (ties to the lower suit); else the cheapest card.
       following (w = the card now winning): if some candidate beats w: the lowest-order
         candidate of the suit led that beats w when the suit led is plain and there is
         one, else the lowest-order trump candidate that beats w; else the cheapest
         candidate.
     Spoiling:
       leading: its strongest card.
       following (w now winning, played by q): if q is a threat: the lowest winning
         candidate as in greedy following when some candidate beats w, else the cheapest
         candidate; else if a threat is still to play in this trick and some candidate
         beats w: the strongest of the candidates that beat w (the highest-order trump
         among them if there is one, else the highest-order one of the suit led); else
         the cheapest candidate.

Chips
  A new pool: every player pays the ante, and its first dealer also pays dealer_extra.
  With dealer_extra_every_deal, the dealer of each later deal of the pool also pays
  dealer_extra into the pool, with the top-up before that deal.
  The pool goes to the player who takes it; a successful jinxer also receives the
  jinx_bonus from each other player (ante, nothing, or twice the ante).  A spoil carries
  the pool forward to the next deal (dealt by the next seat to the left), topped up
  before it by spoil_topup: each player but the dealer of the spoiled hand, or only the
  next dealer, or every player, adds topup_amount.  A pool is never shared.

Hand mode (one deal from a new pool, the dealer in seat n-1; hand i of seed s draws from
the stream (s, i))
  per seat: win (took the pool), spoiler (won the trick that spoiled the hand: the
    trick after which nobody could reach three tricks, a forfeited seat's third trick,
    or the trick a jinxer lost), jinx_called, jinx_made,
    robbed (took the turn-up), tricks and tricks_sq (tricks won), net and net_sq (chips:
    what it took minus the ante, the dealer's extra and any jinx bonus it paid).
  table: spoil (the hand was spoiled), jinx (a jinx was called), rob (someone robbed),
    ace_turned (the turn-up is an ace), trump_ace_dealt (the ace of trumps was dealt to a
    player), forfeit (a player was forfeited), carried and carried_sq (the pool carried
    forward: the whole pool after a spoil, else 0).  Chips are conserved: the seats' nets
    and carried add up to 0.

Game mode (game i of seed s: one stream (s, i) for all its deals, each deal starting
from a pack in code order)
  A game is whole rounds of the deal.  Seat n-1 deals the game's first deal, from a new
  pool; the deal passes one seat to the left after every deal, whatever happened in it
  (taken, spoiled, jinx failed) and across pools as well as within one: deal j of the
  game (j = 0, 1, ...) is dealt by seat (n - 1 + j) mod n, so no seat ever deals twice
  running.  Each pool is played from its start until it is taken (or stopped at
  max_deals); the next deal then starts a new pool, dealt by the next seat to the left.
  The game ends when a pool ends (taken or stopped) and the deals played are a whole
  number of rounds (a multiple of n): the first time the deal is back with seat n-1 and
  no pool is on the table.  (reading) The rules play on without end and ask for N deals
  "a multiple of n" so that the dealer's advantage evens out; a game stops at the first
  point where a careful table would: every seat has dealt the same number of times and
  nobody's chips are left in an open pool.  These stopping points are the moments the
  endless game is back in its starting state (seat n-1 to deal, a new pool), so the games
  are its successive stretches: per-deal results (deal_net) are exactly the endless
  game's long-run chips per deal, and with every seat on the same policy each seat's
  expected net is the same.  (Until kernel version 2 a game was n pools, pool k dealt
  first by seat n-1+k whatever came before, so after a spoil a seat could deal twice
  running.)
  Seats are numbered from the game's first dealer as in hand mode (seat n-1 deals first,
  seat 0 is its eldest hand), so the per-seat results are per starting position: a
  seat's place relative to the first dealer of the game.
  per seat: pools_won and pools_won_sq (pools the seat took in the game); net and net_sq
    (chips over the game); deal_net (chips per deal: net over the game's deals, a ratio
    over the games, with deal_net_sq = net^2, deal_net_count = deals, deal_net_count_sq
    = deals^2, deal_net_cross = net * deals per game).
  table: deals and deals_sq (deals in the game, a multiple of n); pool_deals (deals per
    pool: the game's deals over the pools it played, stopped ones included, a ratio with
    _sq, _count = pools, _count_sq, _cross); pool_size (the pool when taken: the chips in
    the pools taken over the number taken, a ratio with _sq, _count = pools taken,
    _count_sq, _cross); spoils and spoils_sq (spoiled deals, jinx failures included);
    truncated (1 if a pool was stopped at max_deals); left and left_sq (chips left on the
    table by stopped pools); length_1, length_2, length_3, length_4, length_5-6,
    length_7-10, length_11-20, length_21+ (1 in the bucket of the game's length in rounds
    of the deal, its deals / n; 0 in the others: the group "length", drawn as a
    histogram).  Chips are conserved: the seats' nets and left add up to 0.

Strategy tables (sims.core.table; declared in sims.games.spoil_five.table)
  Two decisions may be played from a table, each seat its own.  Both actions are legal in
  every cell, under every rule; the bold action comes first in draw order.
  rob: actions rob, keep.  Reached by the dealer of a turned ace (before the first lead)
    and by the holder of the ace of trumps (at its first turn in trick 1, when its hand is
    still the five cards dealt).  The discard stays the cheapest card.  Cells (turnup,
    trumps, role), from the five cards dealt and the turn-up:
      ("A", t, "dealer"): the turn-up is an ace; t = 0..5 trumps among the dealer's cards
        (Ah counts).  6 cells.
      (k, t, r): the seat was dealt the ace of trumps; k the turn-up's class: 5 (the 5 of
        trumps), J (the jack), KQ (the king or queen), mid (trump order 6..8: the 8, 9, 10 of
        red trumps, the 4, 3, 2 of black), low (order 1..5: the rest); t = 1..5 trumps among
        its five cards (the ace of trumps and Ah included); r its role: eldest (it leads
        trick 1), dealer, or other.  75 cells.
    Why enough: the policy field rob is one 0/1 per seat for every situation, so each
    policy is the table of that action in every cell (policy_table).  The cells hold what
    a rob's worth turns on as the seat sees it: the card gained (the turn-up's class: the
    5 and the jack are the two best trumps, a low trump is little more than the discard),
    the hand's strength in trumps and whether the discard must be a trump (t = 5), and
    the seat's place in trick 1 (a rob is announced, and the eldest leads at once while
    the dealer plays last).
  jinx: actions jinx, claim.  Reached by a seat that won tricks 1, 2 and 3 (jinx on), with
    two cards left.  Cells (sure, other), as that seat knows the cards:
      (s, k), s = 0 or 1 sure winners among the two cards; k the weakest card that is not
        a sure winner: plain (a plain card), else the lowest such trump by the unseen
        trumps of higher order (by the seat's beliefs, as in the sure-winner test): trump1
        (one), trump2 (two), trump3+ (three or more).  8 cells.
      ("2", none): both cards are sure winners.  1 cell.
    Why enough: jinx_min compares the number of sure winners (0, 1, 2) with a threshold,
    so each policy is the table jinxing in the cells of sure >= jinx_min.  The second
    field is the card the jinx turns on: with one sure winner the jinxer leads it and
    trick 5 falls to the other card; with none it leads its cheapest and both must win.
    A plain card is beaten by any trump left; a trump by the trumps above it, which the
    player can count.
  A seat whose policy row carries a table for a decision decides it from the table in
  every mode (hands, games, stacked deals, the advice kernel's field seats); a cell the
  table leaves out falls back to the policy fields.  A mixed cell draws one uniform from
  the deal's stream at the decision (after the deal's draws; the rob before the jinx): in
  hand mode the hand's stream, in game mode the game's stream (so the later deals of the
  game are shuffled from the stream after that draw), in stacked deals Stream(0, 0) for
  the whole pool, in advice a copy, for each candidate, of the conditioned deal's stream
  (the rest of a spoiled pool draws from its own copy, as before).  A policy written as a
  table draws nothing, so it plays every hand and game as the policy does.  In advice the
  advised seat's own rob and jinx stay forced by the candidate (no table, no draw), and
  under infer=seen the robs and the jinx the context shows stay as seen.
  Solve (sims.games.spoil_five.solve; sims.core.table_nb defines it): deal i is hand i
  of hand mode; the outcome is the visiting seat's hand-mode net (SOLVE_OUTCOME "net",
  higher is better, SOLVE_SCALE 1).  A deal visits each decision at most once (one seat
  can rob, one seat can win the first three tricks), so it is replayed once from its
  start with that visit forced to the other action.  (Hand mode prices a failed jinx at
  the lost ante only; the pool it carries forward, which game mode plays on, is no part
  of the seat's net there.)

Stacked deals (the same functions exist on the kernel, sims.games.spoil_five, and on the
plain-Python twin, sims.games.spoil_five.twin; stacked-deck tests run against both)

play_dealt(rules, policy, cards, dealer=None, log=None) -> dict
  One deal from a new pool, exactly as hand mode plays it but from a stacked pack.
  ``policy`` is the [n, 4] matrix (one row per seat, POLICY_FIELDS order rob, jinx_min,
  spoil, renege), or that matrix widened with table blocks (Strategy tables); n = its
  number of rows (2..10).  ``cards`` are the top of the pack in
  draw order (distinct codes): 5 to the eldest hand (the seat left of the dealer), 5 to
  the next seat clockwise, ..., 5 to the dealer, then the turn-up; every card not listed
  follows in code order.  ``dealer`` defaults to n - 1.  ``log`` (a list or None): the
  twin appends readable lines; the kernel leaves it untouched.  Raises ValueError for a
  table the rules refuse, rule or policy values out of range, or cards that are not
  distinct codes 0..51.
  Returns (card codes as in sims.core.deck; per-seat lists indexed by seat):
    dealt: the 5 cards dealt to each seat, sorted.
    turnup: the turned-up card; trump: its suit (0..3).
    robbed_by: the seat that robbed (took the turn-up), or -1; discard: its discarded
      card, or -1.
    forfeited: the seat forfeited under obligatory-or-forfeit, or -1.
    held: each seat's cards once robbing is done (dealt, minus the robber's discard, plus
      the turn-up for the robber), sorted.
    tricks: one tuple per trick played, (leader, [(seat, card), ...] in playing order,
      winner).
    tricks_won: per seat, tricks won.
    winner: the seat that took the pool, or -1.
    spoiled: 1 or 0; spoiler: the seat that spoiled it, or -1.
    jinx_by: the seat that called the jinx, or -1; jinx_made: 1 or 0; claimed: 1 when a
      player who won the first three tricks claimed the pool (with jinx on), else 0.
    pool: the chips in the pool (n * ante + dealer_extra).
    net: per seat, chips received minus chips paid in this deal (ante, dealer_extra,
      jinx bonuses).
    carried: the pool carried forward (the pool after a spoil, else 0).

play_pool(rules, policy, deals, first_dealer=None, log=None) -> dict
  One pool from its start, as game mode plays a pool, from stacked packs: ``deals`` is a
  list of card lists, one per deal (each as play_dealt's ``cards``); deal k is dealt by
  seat (first_dealer + k) mod n (first_dealer defaults to n - 1).  The pool is played
  deal after deal until it is taken, stopped at max_deals, or the listed deals run out;
  the top-up after a spoil (and the next dealer's dealer_extra with
  dealer_extra_every_deal) is paid only when another deal follows (so not after the last
  listed deal, nor when max_deals stops the pool).
  Returns:
    results: one dict per deal played, with play_dealt's keys except pool, net and
      carried.
    pools: the chips in the pool at the start of each deal played.
    paid: per seat, chips paid in (antes, dealer_extra, top-ups, jinx bonuses paid).
    received: per seat, chips received (the pool, jinx bonuses).
    net: per seat, received - paid.
    taken_by: the seat that took the pool, or -1.
    left: the chips still in the pool when it was not taken (else 0).
    truncated: 1 when max_deals stopped the pool, else 0.
"""

from __future__ import annotations

from sims.games.spoil_five.kernel import (
    simulate_games_nb,
    simulate_hands_nb,
)
from sims.games.spoil_five.rules import *  # noqa: F401,F403 (the game's public names live here)
from sims.games.spoil_five.rules import (
    DEFAULT_PLAYERS,
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    POLICIES,
    POLICY_FIELDS,
    VARIANTS,
    Rules,
    check,
)
from sims.spec import GameSpec, Mode

# The registry reads these two without importing the game (sims/registry.py): keep them literal.
TITLE = "Spoil Five"
SUMMARY = (
    "Five cards each, trumps turned up; three tricks take the pool, or the hand is spoiled and the pool "
    "grows; rob the turn-up, renege with the top trumps, jinx for all five."
)

SPEC = GameSpec(
    name="spoil-five",
    title=TITLE,
    summary=SUMMARY,
    rules_type=Rules,
    policy_fields=POLICY_FIELDS,
    variants=VARIANTS,
    policies=POLICIES,
    outcomes={Mode.HANDS: HAND_OUTCOMES, Mode.GAMES: GAME_OUTCOMES},
    headline={Mode.HANDS: "net", Mode.GAMES: "deal_net"},
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=DEFAULT_PLAYERS,
    kernel_version=2,
    check_table=check,
    players_why="five cards each and a turn-up",
    kernels={Mode.HANDS: simulate_hands_nb, Mode.GAMES: simulate_games_nb},
    twin="sims.games.spoil_five.twin",
    advice="sims.games.spoil_five.advice",
    tables="sims.games.spoil_five.table",
    solve="sims.games.spoil_five.solve",
    bench_players=(3, 5, 8),
    strategy_fields=("jinx_min", "spoil", "rob", "renege"),
    strategy_mode=Mode.GAMES,
    report_players=(),
    last_seat_role="dealer",
)
