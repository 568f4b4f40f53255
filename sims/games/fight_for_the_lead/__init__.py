"""Fight for the Lead, as this kernel plays it.

Implements ../shared/rules/fight-for-the-lead.md (the pagat page by Jay Noack is the only
source).  Where the rules leave a point open, the reading taken here is marked (reading).

Cards and ranks
  A card is code = suit*13 + face (sims.core.deck): suits clubs, diamonds, hearts, spades
  = 0..3, face 0=A, 1=2, ..., 9=10, 10=J, 11=Q, 12=K.  There are no trumps; within a suit
  A (high) K Q J 10 ... 2.  Policies speak of a card's rank value 2..14 (J=11, Q=12,
  K=13, A=14).  "The lowest card" of a set means the lowest rank value, ties going to the
  lower suit (clubs first); "the highest card" the highest rank value, ties again to the
  lower suit.

Stakes
  ante: chips each player pays into the pot before the first hand of a game; 0 (default)
  means the smallest ante that makes the pot n*ante divisible by 4, which is 4/gcd(n, 4).
  Each trick pays P/4 to its winner, where P is the pot at stake; every player who played
  and took no trick pays P into the next pot, so P_next = L*P for L such losers.  Players
  who drop pay and win nothing.  Chips are exact integers.

The pack of one hand
  The pack starts in code order 0..51.  Cards are drawn one at a time from the top; the
  draw at pack position t (t = cards already drawn from this pack, pack size m) first
  swaps position t with position t + below(m - t) (a lazy Fisher-Yates shuffle on the
  hand's stream), then takes position t.  So the first draws are exactly
  sims.core.deck.deal_prefix.  Cards go out in this order:
  1. the deal: draw k = 0 .. 4n-1 goes to seat (dealer + 1 + k) mod n (one at a time,
     clockwise from the dealer's left);
  2. the fight's turned cards (step 4 below);
  3. the replacements (step 5);
  4. the trades (step 7).
  Discards are collected in a pile, in this order: the turned cards (in the order
  turned), then the fight cards (seat order from the dealer's left), then each trader's
  discards (in trade order; one trader's discards by suit clubs..spades, and within a
  suit from 2 up to A).  Reshuffling (replacement or trade_exhaust below) makes the pile,
  in pile order, a new pack of size m = pile size; the pile is emptied and drawing goes
  on at t = 0 with the same lazy Fisher-Yates draws.
  Stacked decks (play_dealt) use the same order with no swaps: the pack is the listed
  cards then every other card in code order, and a reshuffled pile is drawn in pile order.

Rule switches (integer codes in brackets)
  ante: 0..100 (default 0 = automatic, above); n*ante must be divisible by 4.
  dealer_rotates: true (default): the deal passes one seat to the left every hand.
  trade_in_first_hand: true (default): players may trade in a compulsory hand too.
  trade_order: from-dealer-left [0] (default) | from-lead-winner [1].
  trade_exhaust: reshuffle-discards [0] (default) | serve-until-empty [1] | cap-equal [2].
  all_drop: forced-replay [0] (default) | replay-optional [1] | refund-split [2].
  fight_exhaust: highest-rank-any-suit [0] (default) | eldest-gets-lead [1].
  max_hands: 1..1000 (default 200): a game still going after this many hands is stopped
    as truncated.
  (The rules file's dealer_must_play reading of everyone dropping is left out: with
  simultaneous decisions it cannot be played, as that file says.)
  sample_hand: later [0] (default) | first [1]: hand mode only (reading: the rules
    define a game, so hand mode needs to say which hand of a game it samples): a later
    hand, where players may drop, or the compulsory first hand.
  Players: 2 to 9, and 10 only with trade_exhaust=reshuffle-discards.

Per-seat policy (one row per seat; every field is a whole number)
  fight_card: lowest [0] (default) | highest [1] | highest-non-ace [2] (the highest card
    that is not an ace; a hand of four aces gives its lowest-suit ace) |
    lowest-of-longest-suit [3] (the suit holding most cards, ties to the lower suit; its
    lowest card).
  stay_min_strength 0..9 (default 1): stay in when the hand's strength score reaches it.
    Strength score = 2 per ace + 1 per guarded king (a king with at least one other card
    of its suit in the hand).  So 0 always stays and 9 never stays on strength alone.
  stay_with_lead 0|1 (default 1): always stay when you won the fight.
  keep_min_rank 2..15 (default 12): trade away every card whose rank value is below it;
    2 keeps everything and 15 trades all four.
  play_style: greedy [0] (default) | high [1]; see card play below.

One hand (dealer D, pot P at stake, compulsory or not)
  1. Deal four cards to each seat (above).
  2. Fight card: every seat, at once, lays down one of its four cards by its fight_card
     policy.  Everyone fights, including players who will drop.
  3. The fight cards are public.
  4. Fight: draw (turn) a card; if some fight card has its suit, the highest fight card
     of that suit wins the lead; otherwise turn the next card, and so on.  If the pack
     runs out with no match (fight_exhaust): highest-rank-any-suit gives the lead to the
     highest fight card of any suit, ties to the first such seat clockwise from the
     dealer's left; eldest-gets-lead gives it to seat D+1.  The turned cards are public.
  5. Replacement: the turned cards and then the fight cards go to the pile; each seat,
     clockwise from the dealer's left, draws one card.  (Reading: if the pack is empty
     here, which happens when the fight turns more than 52 - 5n cards, the pile is
     reshuffled into a new pack
     whatever trade_exhaust says, because every player must hold four cards.)
  6. Stay or drop, all at once: in a compulsory hand everyone plays.  Otherwise a seat
     plays when (stay_with_lead = 1 and it won the fight) or its strength score
     >= stay_min_strength, else it drops.
     * Nobody plays (all_drop): forced-replay and replay-optional carry the pot to the
       next hand unchanged with nobody paying (the next hand is compulsory under
       forced-replay, open under replay-optional); refund-split pays every seat P/n and
       ends the game.  Nothing else happens in this hand.
     * Exactly one plays: it takes all four tricks and the whole pot, and the game ends.
       (Reading: there is no trading and no play, since nothing could change.)
  7. Trading (two or more playing), unless the hand is compulsory and
     trade_in_first_hand is false.  The leader is the fight winner if it plays, else the
     next playing seat clockwise from it.  Traders are the playing seats in clockwise
     order, starting with the first playing seat at or after D+1 (from-dealer-left) or
     with the leader (from-lead-winner).  S = the cards left in the pack when trading starts.  Each
     trader wants to trade the k cards ranked below its keep_min_rank and is allowed
       reshuffle-discards: min(k, pack left + pile size if the pile has not yet been
         reshuffled during this trading, else pack left);
       serve-until-empty: min(k, pack left);
       cap-equal: min(k, S // number playing).
     With fewer allowed than wanted (the hand's stock_short flag), it trades the lowest
     `allowed` of the cards it wanted.  It discards them, then draws as many one at a
     time; when the pack is empty (reshuffle-discards only) the pile, which does not yet
     hold this trader's discards, becomes the new pack (at most once per trading).  Then
     its discards join the pile.
  8. Card play: four tricks among the playing seats.  The leader leads the first; each
     trick goes clockwise among the playing seats; a player must follow the suit led if
     able (sims.core.tricks, FOLLOW_SUIT), otherwise plays any card; the highest card of
     the suit led wins, and its player leads the next trick.
     Dead cards (public, out of play): the fight cards and turned cards still in the
     pile (a reshuffle puts them back into play, so it empties the dead set) and every
     card played so far in the hand.  A sure winner is a card in hand such that every
     higher card of its suit is in the player's own hand or dead.
       greedy: lead the highest sure winner if you hold one (so aces first), else the
         lowest card.  Following: when able to follow, play the lowest card of the suit
         led that beats the card now winning the trick, or if none does, the lowest card
         of the suit led; when void, the lowest card.
       high: lead the highest card; when able to follow, the highest card of the suit
         led; when void, the lowest card.
  9. Settlement (stakes above).  The game goes on while P_next > 0.

Strategy tables (sims.games.fight_for_the_lead.table; sims.core.table)
  A seat may play two decisions from a table; a cell left out falls back to the policy
  fields, a mixed cell draws one uniform from the hand's stream at that moment (the fight
  cards seat by seat 0..n-1 right after the deal, before the fight's turned cards; the
  stays seat by seat right after the replacement).  Policies draw nothing, so a table
  changes no other draw.
  stay (a hand that is not compulsory, after the replacement; 24 cells): aces (0..4) and
    guarded kings (0..2) among the four cards held, and lead (yes: the seat won the
    fight).  Actions: stay, drop.  The policy stays when 2 * aces + guarded kings reaches
    stay_min_strength or, with stay_with_lead, when it won the fight: a function of the
    cell, so every policy is a table.  Aces and guarded kings apart (not their score)
    because one ace and two guarded kings score the same and play differently; only the
    12 (aces, guarded kings) pairs four cards can make are cells.  The pot at stake is
    left out: every chip moved is a multiple of it, so it scales a choice's value and
    never changes which is better.  In a compulsory hand nobody decides.
  fight_card (after the deal; 40 cells): aces (0..4), kings (0..4) and the longest suit's
    length (1..4) of the four cards dealt (the 40 triples four cards can make).  Actions:
    the four ways the policy field fight_card names, resolved on the hand as the policy
    resolves them: lowest, highest, highest-non-ace, lowest-of-longest-suit.  The policy
    lays the same way whatever it holds, so every policy is the table with its way in
    every cell.  Why ways and not concrete cards: the card each way picks follows the
    policy's own tie rules (equal ranks to the lower suit, the longest suit's lowest
    card), which a card named by its rank order in the hand cannot reproduce bit for bit
    on every hand without cells holding the whole hand; with these cells a table still
    chooses, per shape of hand, whether to fight with an ace, a king or a low card, or
    from the long suit.  Two ways may name the same card (no ace: highest and
    highest-non-ace), so a solve reports those as ties.
  Advice: the advised seat's forced fight card replaces what its table laid (the table's
  draw is still made); a seat forced to stay or drop (the advised seat's own stay, the
  others' under infer=seen) plays no stay table and draws nothing.
  Solving (``solve_nb``, sims.core.table_nb): hand mode's hands; every seat's visit to the
  decision solved is replayed from the hand's start once per other action, forced after
  its own draw, everything else on the same stream; the seat's ``net`` (higher is better)
  is recorded per action.  The stay decision is solved in later hands only (the rule
  sample_hand=first makes every hand compulsory: no visits).

Advice (analyze advise): the fight card, stay or drop, and the trade of one seat in one
  hand, every candidate on the same conditioned deals: see advice.py.

Games (game mode)
  One game = one stream (seed, game index); every hand resets the pack to code order and
  draws go on from the same stream.  Each seat antes; the first dealer is seat n-1
  (reading: a fixed first dealer makes per-starting-seat results meaningful); the first
  hand is compulsory; the dealer moves one seat left after every hand, all-drop hands
  included, when dealer_rotates.  The game ends when the pot is empty (everyone who
  played took a trick, or a lone player took it all) or after refund-split.  It is
  stopped as truncated, and the pot carried over split equally among all seats (reading:
  an abandoned game shares out its pot, so chips are conserved), when a hand leaves a
  pot to carry and either max_hands hands have been played or the pot to carry exceeds
  POT_LIMIT = 2**48 chips (overflow).  The limit keeps every seat's running net, at most
  max_hands * 2**48 chips with max_hands <= 1000, far inside int64, so chips stay exact
  integers.  P is always a multiple of n and of 4, so every share is a whole number of
  chips.  The rules pass the deal on between games too; games here are independent
  samples, so starting each one with seat n-1 dealing only relabels the seats (reading).

Hand mode outputs (dealer = seat n-1, pot P = n*ante, per hand)
  per seat: dropped (1 if the seat dropped), lead (1 if it won the fight), took_0 ..
    took_4 (1 if it played and took that many tricks), net and net_sq (chips won from
    the pot minus chips paid into the next one; a refund-split share counts as won),
    traded and traded_sq (cards traded).
  table: all_dropped, players_in and players_in_sq (seats that played), losers and
    losers_sq (L), turned and turned_sq (cards turned in the fight), stock_short (some
    trader was allowed fewer cards than it wanted), reshuffled (the pile was made a
    new pack).
Game mode outputs (per game)
  per seat: net and net_sq (chips at the end of the game minus chips at the start, antes
    included; wide columns: exact however large), profit (1 if net > 0), and
    finished_net, finished_net_sq, finished_net_count (the same net summed over the games
    that ended by the rules, and their number: the mean without stopped games, whose
    huge shared-out pots can swamp net).
  table: hands and hands_sq (hands dealt), truncated (stopped by max_hands or
    overflow), overflow (stopped by the pot limit), hit_max_hands (stopped by max_hands
    and not by the pot limit), largest_pot (the largest pot at stake in any hand: a
    maximum, not a sum), and length_<bucket> (1 if the game lasted that many hands;
    buckets 1, 2, 3, 4, 5-8, 9-16, 17-32, 33+).
"""

from __future__ import annotations

from sims.games.fight_for_the_lead.kernel import (
    simulate_games_nb,
    simulate_hands_nb,
)
from sims.games.fight_for_the_lead.rules import *  # noqa: F401,F403 (the game's public names live here)
from sims.games.fight_for_the_lead.rules import (
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
TITLE = "Fight for the Lead"
SUMMARY = "Four tricks, no trumps; win the fight for the lead, and anyone who plays and takes no trick matches the pot."

SPEC = GameSpec(
    name="fight-for-the-lead",
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
    players_why="the pack holds 5 cards each",
    kernels={Mode.HANDS: simulate_hands_nb, Mode.GAMES: simulate_games_nb},
    twin="sims.games.fight_for_the_lead.twin",
    advice="sims.games.fight_for_the_lead.advice",
    tables="sims.games.fight_for_the_lead.table",
    solve="sims.games.fight_for_the_lead.kernel",
    bench_players=(4, 6, 8),
    strategy_fields=("stay_min_strength", "keep_min_rank", "fight_card"),
    last_seat_role="dealer",
)
