"""All-Fours (two players), as this kernel plays it.

Implements ../shared/rules/all-fours.md (Hoyle, Cassell's, Foster; the seed text is
Cotton 1674).  Where the rules leave a point open, the reading taken here is marked
(reading).

Seats, cards and ranks
  Two seats, 0 and 1.  In a deal the dealer is D and the other seat the elder E.  Hand
  mode plays one deal with E = seat 0 and D = seat 1 from scores 0-0; a game starts with
  seat 1 dealing (reading: a fixed first dealer makes per-seat results "first elder" and
  "first dealer"; the rules cut for it).
  A card is code = suit*13 + face (sims.core.deck): suits clubs, diamonds, hearts, spades
  = 0..3, face 0=A, 1=2, ..., 9=10, 10=J, 11=Q, 12=K.  In every suit, trumps included,
  A (high) K Q J 10 9 ... 2 (low).  "Lower suit" means clubs < diamonds < hearts < spades.
  Counting cards for Game: A=4, K=3, Q=2, J=1, 10=10, others 0 (80 in the pack).

The pack of one deal
  The pack starts in code order 0..51.  Cards are drawn one at a time from the top; the
  draw at pack position t first swaps position t with position t + below(52 - t) on the
  deal's stream (a lazy Fisher-Yates shuffle), then takes position t, so the first draws
  are exactly sims.core.deck.deal_prefix.  Cards are drawn in this order: 3 to E, 3 to
  D, 3 to E, 3 to D, the turn-up (13 cards); each round of a run then draws 3 to E, 3 to
  D and the next turn-up (7 cards).  Stacked packs (play_dealt) are drawn in the listed
  order with no swaps: the listed cards, then every other card in code order.

Rule switches (integer codes in brackets)
  target 7..15 (default 11): the first player to reach it wins at that moment.
  gift_then: play [0] (default) | redeal [1]; gift_redeal_same_dealer (default false).
  gift_cannot_win (default true).
  after_run: keep-all [0] (default) | discard-to-six [1] | foster-club [2].
  low_to: dealt-holder [0] (default) | trick-winner [1].
  game_tie: elder-scores [0] (default) | nobody [1].
  exhaust_keeps_jack_points (default false).
  bunch (default false).
  Players: exactly 2.

Trump-strength score (the policies' measure of a hand in a suit)
  strength(hand, suit) = the sum over the hand's cards of that suit of: A 4, K 3, Q 2,
  J 2, 10 2, any other 1.  (So it is the number of trumps plus 3 for the ace, 2 for the
  king and 1 each for the queen, jack and ten; 0..14 for six cards.)

Per-seat policy (one row per seat, used whenever that seat has the decision; a seat
playing a beg or give table decides there by its table, see "Strategy tables")
  beg_below 0..15 (default 3): as E, beg when strength(E's six cards, turn-up suit) <
    beg_below (0 never begs, 15 always begs).
  give_at_least 0..15 (default 4): as D, give when strength(D's six cards, turn-up suit)
    >= give_at_least, else run (0 always gives, 15 always runs).
  bunch_below 0..15 (default 2): with bunch on, a seat wants a redeal when
    strength(its whole hand, the new trump) < bunch_below.
  play_style: greedy [0] (default) | high [1]; see card play below.
  The policies read no scores (reading: the rules allow it; these simple players do not).

One deal (dealer D, elder E, scores before the deal s_E and s_D)
  Points are added one at a time; the moment a player's score reaches the target, that
  player has won: the deal stops there and nothing after it is scored or played.
  1. Deal 6 cards to each (above) and turn up the 13th card: its suit is the proposed
     trump.  If it is a jack, D scores 1 (a turned jack).
  2. E stands or begs (policy beg_below).  Standing: the turn-up suit is trump; go to 6.
  3. E begged: D gives or runs (policy give_at_least).  D must run when gift_cannot_win
     is on and s_E + 1 >= target.
  4. Give: E scores 1 (the gift).  gift_then=play: the turn-up suit is trump; go to 6.
     gift_then=redeal: the cards are thrown in (thrown_in); nothing else happens in this
     deal, and the next deal is dealt by the other seat, or by D again when
     gift_redeal_same_dealer.
  5. Run: deal a round (3 to E, 3 to D, a new turn-up).  If the new turn-up's suit is not
     the rejected suit (the first turn-up's), it is trump; if it is a jack, D scores 1.
     If it is of the rejected suit (a jack of it scores nothing), it is set aside and,
     when the pack still holds 7 cards, another round is dealt; else the deal is void:
     nothing is played and the same dealer deals again; the points D scored for turned
     jacks in this deal are taken back unless exhaust_keeps_jack_points (the gift cannot
     happen in a run).  At most 5 rounds fit (13 + 35 = 48 cards).
     Bunch (only when bunch is on, after a run has found a new trump and D's possible
     turned-jack point did not end the game): if both seats want a redeal (bunch_below),
     the deal is bunched: nothing is played, points already scored stand (reading: the
     deal was valid, only the play is given up), and the same dealer deals again.
     Hand size (after a run that found a new trump, not bunched): keep-all keeps every
     card (6 + 3 * rounds each, as many tricks); discard-to-six makes each seat discard
     down to six; foster-club does so only when rounds >= 2.  A seat keeps its six most
     valuable cards: its trumps from the highest down, then its other cards from the
     highest rank down, ties to the lower suit; the rest are discarded face down, out of
     play (reading: the rules give no discard policy; this is the careful player's).
  6. Play: E leads the first trick; the winner of each trick leads the next, until the
     hands are empty.  Law (sims.core.tricks FOLLOW_OR_TRUMP, no renege): to a trump lead,
     play a trump if you hold one; to a plain lead, follow suit or trump as you like, and
     play another plain suit only when void in the suit led.  The highest trump in the
     trick wins, else the higher card of the suit led.
  7. Scoring, in this order (each only while nobody has reached the target):
     High: 1 to the seat that holds, at the start of play, the highest trump in play.
     Low: 1 to the seat that holds the lowest trump in play (dealt-holder) or that wins
       the trick it falls in (trick-winner).  With one trump in play it is both High and
       Low.
     Jack: 1 to the seat that wins the trick holding the jack of trumps, if it is in play.
     Game: 1 to the seat whose tricks hold more counting-card points; on a tie (0-0
       included) to E (elder-scores) or nobody.
     "In play" = held at the start of play: never the stock, the turn-ups or discards.
     With no trump in play only Game is scored.
  8. The next deal is dealt by the other seat, except after a void or bunched deal (and
     gift_redeal_same_dealer), when D deals again.

Card play (what a seat knows: its hand, the trump, every turn-up, its own discards and
every card played in this deal; "dead" = those turn-ups, own discards and cards played)
  Worth of a card (the greedy player's value of giving a card away): the jack of trumps
  20, a ten 10, A 4, K 3, Q 2, any other jack 1, others 0.  The cheapest card of a set:
  the lowest worth, then non-trumps before trumps, then the lowest rank, then the lower
  suit (so a void player ruffs with a small trump rather than throw away a ten).  A
  sure winner is a card that no card outside the seat's hand and the dead cards can
  beat: a trump with every higher trump held or dead, or a plain card with every higher
  card of its suit and every trump held or dead.
  greedy:
    leading: the jack of trumps if it is a sure winner; else the highest sure-winning
      trump; else the highest sure-winning plain card (highest rank, ties to the lower
      suit); else the cheapest card.
    following (a card c led; "winning cards" = legal cards that beat c): the lowest
      winning card of the suit led when c is a plain card and one exists; else, when
      worth(c) > 0 and a winning trump exists, the lowest winning trump; else the
      cheapest legal card.
  high: always the strongest legal card: the highest trump when a trump is legal, else
    the highest rank, ties to the lower suit.

Strategy tables (sims.core.table; declared in sims/games/all_fours/table.py)
  Two table decisions, each with the same 27 cells: what the seat holds in the turn-up
  suit when it decides, its trump-strength score s (0..14) and whether its six cards
  hold the jack of that suit (fields strength, jack; jack=no for s 0..13, jack=yes for s
  2..14: the jack alone scores 2, and 14 needs A K Q J 10).
  beg: the elder's step 2, actions stand, beg.  Consulted at every stand-or-beg.
  give: the dealer's step 3, actions give, run.  Consulted only when D may give (not
    when gift_cannot_win forces the run: D has no choice there).
  A seat playing a table takes its cell's action (a mixed cell draws one uniform from the
  deal's stream at that moment, before any card of a run; a stacked deal draws from
  stream (0, 0)); a cell its table leaves out falls back to beg_below / give_at_least.
  Why these cells suffice: the policy fields compare exactly s, so every policy of the
  family is a table (beg in the cells with s < beg_below, give in those with s >=
  give_at_least, whatever the jack).  The jack is added because it is the one card that
  s cannot see and a careful player weighs most here: it is a point to its holder when
  the hand is played in its suit (Jack), and a run throws it away; a Q or 10 of the same
  score is not.  Left out, by choice: the scores (they matter in game mode only near the
  target, would multiply the cells by up to 15 x 15, and a solve plays hand mode from
  0-0, where they never vary), the other suits (a run's new trump is one of three suits
  and three more cards: too diffuse for a chart), and the turn-up's rank.  A seat plays
  its tables in every mode and role (game mode: seat 0's beg table whenever it is the
  elder); the advice's field seats too (the elder's beg that a dealer's give conditions
  on, the dealer's give after an advised beg, the deals after the advised one); the
  advised seat's forced candidate overrides its table.
  A solve (sims.games.all_fours.solve) plays hand mode: seat 0 is the elder, so it visits
  seat 0's beg cells and seat 1's give cells, at most once each per deal.  Its outcome
  (SOLVE_OUTCOME) is net_points: the seat's points in the deal minus the other seat's, as
  the advice ranks its candidates.  A seat's own points alone would be wrong here: a gift
  costs the dealer nothing in its own points but is a point to the elder, so own points
  would make the dealer give whenever it keeps a good trump; with two players every point
  the other seat scores is a step of the race to the target, and the net is what a game
  decides on (game mode's win, the strategy mode, is out of a per-hand solve's reach).

Games (game mode)
  One game = one stream (seed, game index): every deal resets the pack to code order and
  draws go on from the same stream.  Scores start 0-0 with seat 1 dealing; deals go on
  until a seat reaches the target (the game ends with probability one: every played hand
  with a trump in play scores High).

Hand mode outputs (one deal: E = seat 0, D = seat 1, scores 0-0; a deal that is void,
bunched or thrown in is one sample, not replayed)
  per seat: points and points_sq (points scored in the deal, after any void cancels the
    turned jacks), high, low, jack, game (1 if the seat scored that point), gift (1 if
    given a point), turned_jacks and turned_jacks_sq (points for turned-up jacks, after
    cancelling), game_points and game_points_sq (counting-card points in its tricks; 0
    when not played).
  table: begged, gave, ran, void, thrown_in, bunched, played (1/0 flags); over the
    played deals only (X_count = played): no_trump, one_trump (0 / exactly 1 trump in
    play), jack_in_play (the jack of trumps in play), game_tie (Game tied); runs_1 ..
    runs_5 (rounds dealt, over the deals where D ran, runs_k_count = ran; a void deal has
    5 rounds).
Game mode outputs (per game; seat 0 the first elder, seat 1 the first dealer)
  per seat: win (1 if the seat won), score and score_sq (its final score), begged and
    begged_sq (times it begged as E), gave and gave_sq (times it gave as D).
  table: deals and deals_sq (every deal: void, bunched and thrown-in ones included),
    played and played_sq (hands played), void and void_sq (void deals), thrown_in and
    thrown_in_sq (deals thrown in after a gift), bunched and bunched_sq (bunched deals),
    before_play (1 if the game ended in step 1, 4 or 5, before its last deal was played);
    length_1_2, length_3 .. length_8, length_9_up (1 for the bucket of the game's number
    of deals, 0 for the others: exactly one per game; the group "length", drawn as a
    histogram).
"""

from __future__ import annotations

from sims.games.all_fours.kernel import (
    simulate_games_nb,
    simulate_hands_nb,
)
from sims.games.all_fours.rules import *  # noqa: F401,F403 (the game's public names live here)
from sims.games.all_fours.rules import (
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    N_PLAYERS,
    POLICIES,
    POLICY_FIELDS,
    VARIANTS,
    Rules,
    check,
)
from sims.spec import GameSpec, Mode

# The registry reads these two without importing the game (sims/registry.py): keep them literal.
TITLE = "All-Fours"
SUMMARY = (
    "Two players, trumps turned up; the elder may beg, the dealer gives a point or runs the cards; "
    "High, Low, Jack and Game score one each."
)

SPEC = GameSpec(
    name="all-fours",
    title=TITLE,
    summary=SUMMARY,
    rules_type=Rules,
    policy_fields=POLICY_FIELDS,
    variants=VARIANTS,
    policies=POLICIES,
    outcomes={Mode.HANDS: HAND_OUTCOMES, Mode.GAMES: GAME_OUTCOMES},
    headline={Mode.HANDS: "points", Mode.GAMES: "win"},
    min_players=N_PLAYERS,
    max_players=N_PLAYERS,
    default_players=N_PLAYERS,
    kernel_version=1,
    tables="sims.games.all_fours.table",
    solve="sims.games.all_fours.solve",
    check_table=check,
    kernels={Mode.HANDS: simulate_hands_nb, Mode.GAMES: simulate_games_nb},
    twin="sims.games.all_fours.twin",
    advice="sims.games.all_fours.advice",
    bench_players=(N_PLAYERS,),
    strategy_fields=("beg_below", "give_at_least"),
    strategy_mode=Mode.GAMES,
    last_seat_role="dealer",
)
