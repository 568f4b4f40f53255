"""Five Hundred (four players in two partnerships; Australian rules, the Avondale schedule),
as this package plays it.

Implements ../shared/rules/five-hundred.md (the seed text, pagat and its copies,
Wikipedia, reference.com's variant list).  Where the rules leave a point open, the
reading taken here is marked (reading).  Names of rule switches, policy fields, contract
ids and outcome columns are defined in rules.py.

Seats, partnerships, cards
  Seats 0..3 clockwise; seats 0 and 2 are one side (side 0), seats 1 and 3 the other
  (side 1).  A card is a code: 0..51 = suit * 13 + face as in sims.core.deck (suits
  clubs, diamonds, hearts, spades = 0..3; faces A = 0, 2 = 1, ..., 10 = 9, J = 10, Q = 11,
  K = 12), and the jokers 52 (the joker; "red") and 53 (the black joker, deck 46 only).
  The pack (deck):
    43: hearts and diamonds A K Q J 10 9 8 7 6 5 4, clubs and spades A K Q J 10 9 8 7 6 5,
        the joker 52; kitty 3.
    45: the same and 4c, 4s; kitty 5.
    46: the same as 45 and the black joker 53, which beats the joker 52 everywhere;
        kitty 6.
  A pack "in code order" is its cards sorted by code (the jokers last).

The deal (dealer D; hand mode: D = 3, so seat 0 is the eldest hand)
  Draws: the pack of P cards starts in code order; the draw at position t (t = 0 .. P-1)
  first swaps position t with position t + below(P - t) on the hand's stream, then takes
  position t (sims.core.deck.draw_nb with size P; a stacked pack is drawn in the listed
  order with no swaps: the listed cards, then every other card of the pack in code
  order).  Draw order: 10 cards to the eldest hand (D + 1), 10 to the next seat clockwise,
  ..., 10 to the dealer, then the kitty (the remaining 3, 5 or 6 cards).

Bids and the ladder
  Contract ids (rules.py): 5 * (tricks - 6) + denomination for the 25 trick bids, the
  denominations spades < clubs < diamonds < hearts < no trumps (0..4); MISERE = 25 and
  OPEN_MISERE = 26.  Values (Avondale): 40 + 100 * (tricks - 6) + 20 * denomination, i.e.
  6S 40 ... 6NT 120, 7S 140 ... 10NT 520; misere 250, open misere 500.
  Ladder (rules.ladder_position): a bid outranks another when its position is higher.
  Trick bids in id order.  Misere: just above 7NT and below 8S (misere_rank above-7nt,
  default), or just above 8S and below 8C (by-value).  Open misere: just above 10D and
  below 10H (open_misere_rank above-10d, default), or above 10NT (highest).

The auction
  Starting at the eldest hand and going clockwise, each player who has not passed either
  passes or makes a bid that outranks the current bid (any bid when there is none).  A
  player who passes never bids again in this hand.  Players who have passed are skipped.
  The auction ends when three players have passed and the fourth has bid (its last bid is
  the contract, it is the contractor), when all four have passed, or at once when a bid
  is made that nothing can outrank (10NT, or open misere under highest; 10NT does not
  close the auction when open misere is highest and misere is allowed).  A player may
  overbid its partner.
  When misere may be bid: allow_misere, it outranks the current bid, and (misere_needs_7)
  a trick bid of 7 or more tricks has been made earlier in this auction, by anyone
  (reading: "after a 7-level bid" means once the bidding has reached the 7 level).
  When open misere may be bid: allow_misere, it outranks the current bid, and (unless
  open_misere_anytime) a trick bid of 8 or more tricks has been made earlier in this
  auction.
  All four pass: all_pass redeal (default): the hand is thrown in, nobody scores (in game
  mode the deal passes left and the next hand is dealt); play-no-trumps: the hand is played
  at no trumps with no contractor and no kitty exchange (the kitty stays out), the eldest
  hand leads, and each side scores 10 per trick it takes.

The kitty
  The contractor adds the kitty to its hand and discards as many cards as the kitty held,
  face down (out of play, known only to the contractor).  Its discard is policy (below).

Trumps, suits and order (a card's "suit" is its effective suit; higher order wins)
  Suit contract, trump suit T (the bid's suit), same-colour suit T' (hearts/diamonds,
  clubs/spades):
    trumps, highest first: the black joker (deck 46), the joker, the right bower (J of T),
    the left bower (J of T', a trump for every purpose: following, voids), A, K, Q, 10, 9,
    8, 7, 6, 5, 4 of T (the 4 when the pack holds it).
    every other suit: A K Q (J) 10 9 ... down to its lowest card in the pack (T' has no J).
  No trumps (a contract, or four passes played out) and misere: no trump suit; every suit
  runs A K Q J 10 ... 4/5.  The jokers (see "the joker at no trumps"): a joker nominated
  to a suit is the highest card of that suit (the black joker above the joker when both
  are nominated to one suit) and is a card of that suit in every respect; a joker not
  nominated is a "suitless joker": it belongs to no suit and beats every card, the black
  joker beating the joker.
  A trick is won by the highest trump in it; with no trump, by a suitless joker (the black
  one when both are in it); else by the highest card of the suit led.

The joker at no trumps and misere (nt_joker)
  Nomination: under contractor-may-nominate (default), a contractor holding a joker after
  the kitty exchange may name a suit for it before the first lead (policy nominate); under
  every other value of nt_joker no joker is ever nominated.
  A suitless joker:
    * following: may be played only by a player holding no card of the suit led
      (own-suit-only, contractor-may-nominate, lead-last-only); also to the first trick in
      which a suit is led by another player, even by a player holding that suit
      (first-round-free); to any trick (any-time).  When it may be played it is one more
      legal card (a player void in the suit led may play any card).
    * leading: the leader names a suit (policy, below), and the others must follow that
      suit if they can; a suitless joker that is led wins the trick (the black joker, if
      also played, beats it).  It may not name a suit in which the leader has shown void
      (it failed to follow that suit earlier in this hand).  Under lead-last-only a
      suitless joker may be led only to the last trick (trick 10), unless the leader holds
      nothing else (reading: it must play something).
    (reading) A suitless joker named to suit X when led: the trick is "led in X" for
    following and for who shows void; the joker is not a card of X for anything else.
    (reading) A player "has shown void" in suit X once it has played a card that is not
    of X to a trick led in X (a suitless joker played under first-round-free or any-time
    included: the others cannot tell).  A leader that has shown void in every suit may
    name any suit (it names the one it holds most cards of, ties to the lower code).

Misere and open misere (the contractor plays alone, no trumps)
  The contractor's partner takes no part: its cards are out of play and its seat is
  skipped in every trick (tricks of 3 cards).  The contractor must lose every trick.
  misere_stop_early (default): play stops as soon as the contractor wins a trick (the
  misere has failed); otherwise (and always under misere_opp_score per-trick-won, which
  needs the tricks counted) all 10 tricks are played.
  Open misere: the contractor's remaining hand is public (om_expose): from the moment the
  first card of trick 1 has been led (after-first-lead, default: every follow of trick 1
  sees it), from the end of trick 1 (after-first-trick), or before the first lead
  (before-lead).  The defence plays on it (Card play, below).

Play
  The first lead: the contractor (first_lead contractor, default) or the eldest hand
  (eldest; reading: when the eldest is a misere contractor's partner, sitting out, the
  next seat clockwise leads); after four passes played out, the eldest.  Each trick's winner leads the next.
  Following: a player holding a card of the suit led must play one (the left bower is a
  trump, never a card of its printed suit; a player whose only such card is the left
  bower is void in that suit; a nominated joker is a card of its suit); otherwise any
  card.  In a suit contract a joker is the top trump and must follow a trump lead like
  any trump.  The joker rules above add the suitless joker's cases.

Scoring one hand
  Trick contract made (the contracting side took at least the tricks bid): it scores the
  bid's value; all 10 tricks and a value below 250 score 250 instead (the slam rule: 8S,
  worth 240, scores 250).  Failed: it loses the value.  The defending side scores 10 per
  trick it took, made or failed.
  Misere / open misere: the contracting side scores +250 / +500 when the contractor took
  no trick, else -250 / -500.  The defence scores (misere_opp_score): none (default):
  nothing; per-trick-taken-by-contractor: 10 for each trick the contractor took (with
  misere_stop_early, at most 10); per-trick-won: 10 for each trick the defence took
  (misere is then played to the end).
  Four passes played out: each side 10 per trick.
  The cap (win_by_contract_only, every hand: game mode, hand mode from 0-0, stacked deals
  from their scores): points for tricks (the defence's, and each side's after four passes
  played out) cannot take a side above opp_cap (default 490): its total after them is
  min(total + points, max(total, opp_cap)) (reading: a side already above the cap keeps
  its total).  (reading) The hand's points for such a side are what it adds to the total,
  min(points, max(opp_cap - total, 0)): the rules cap the points, not only the total, so
  one hand's score, as hand mode counts it and the replay shows it, never differs from
  its effect on the game.  In hand mode (scores 0-0) such a side scores min(its points
  for tricks, opp_cap), which changes nothing while opp_cap is 100 or more (the default
  490).  The contracting side's points (contract made or failed) are never capped.
  Game mode, end of a hand (scores are running totals):
    win_by_contract_only (default): a side wins by reaching 500 or more on a contract it
    made; points for tricks are capped (above).  false: no cap; the first side at 500 or
    more wins; if both reach it in one hand the contracting side wins
    (after four passes played out: the side with the higher total, and with equal totals
    the side of the eldest hand; reading).
    A side at -500 or below loses at once (the other side wins); only the contracting
    side can lose points in a hand.  The checks, in order: the contracting side made its
    contract and reached 500 (ended "contract"); a side at -500 or below ("minus_500",
    even when, without the cap, the other side also reached 500 on trick points: it wins
    either way); without the cap, a side at 500 or more ("any_points").
  The deal passes one seat left after every hand, thrown-in hands included.

Per-seat policy (one row per seat, used whenever that seat decides; fields in rules.py)
  Hand strength, from the seat's own 10 cards only (the bidder).  In half tricks:
    For a trump denomination with trump suit T (the cards counted as trumps are the
    jokers, both bowers and the cards of T): 2 for each joker, 2 for the right bower, 2
    for the left bower, 2 for the A of T, 1 for the K of T, 2 for each trump beyond the
    fourth; for each other suit X (its cards as in that contract): 2 for its A, 1 for
    its K when the seat holds at least 2 cards of X, and 1 when the seat holds no card
    of X and at least 3 trumps.  estimate(T) = half_tricks // 2 + 2 (reading: partner and
    kitty together are worth two tricks).
    For no trumps: 2 for each joker; for each suit X: 2 for its A, 1 for its K with at
    least 2 cards of X, 1 for its Q with at least 3, and 2 for each card beyond the
    fourth when the seat holds the A of X.  estimate(NT) = half_tricks // 2 + 2.
    want(d) = estimate(d) + bid_offset, at most 10.
    high cards: the number of jokers, aces, kings, queens and jacks held.
  Bidding, in order (a seat that may bid nothing below passes):
    1. open misere, if it may be bid and high cards <= open_misere_max;
    2. misere, if it may be bid and high cards <= misere_max;
    3. its best denomination d*: the highest estimate, ties to the higher denomination
       (NT highest); the cheapest trick bid in d* that outranks the current bid, with k
       tricks: bid it when k <= want(d*), and, when the current bid is the partner's,
       k + partner_margin <= want(d*);
    4. pass.
  Kitty discard (the contractor, from its hand with the kitty):
    suit contract: discard the non-trumps of lowest keep value, keep value = (is an A,
      number of non-trumps the seat holds in that suit, order within the suit), smallest
      first (so: no aces, shortest suits first, lowest cards first; ties to the lower
      suit code); with too few non-trumps, then its lowest trumps.
    no trumps: the same key over all its cards with jokers never discarded while another
      card can be (a joker's keep value is the highest).
    misere / open misere: discard its highest cards: jokers first, then by order in the
      no-trump ranking, highest first (ties to the higher suit code, so spades first).
  Joker nomination (contractor-may-nominate, a no-trump contract, policy nominate 1): each
    joker it holds is nominated to the suit in which it holds the most cards (ties to the
    higher suit code).  With nominate 0, or in misere, nothing is nominated (reading: the
    misere contractor has discarded its jokers first anyway).
  Card play.  Words:
    unseen cards, for a player: the pack minus its own hand, minus every card played,
      minus its own discards (the contractor), minus the exposed open-misere hand (for the
      others once exposed), minus the out-of-play hand of a misere contractor's partner
      (reading: it is face down, so unseen, but it cannot be played: it is left out of
      unseen for everyone as it can never beat anything).
    sure winner: a card that no unseen card could beat if played to the trick (a trump
      above every unseen trump and unseen suitless joker; a suitless joker above every
      unseen joker; a card of a plain suit when no unseen card of its suit is higher and
      no unseen trump or suitless joker exists).
    cheapest card of a set: its lowest-ordered non-trump, non-joker card (ties to the lower
      suit code), else its lowest trump, else a joker (the joker before the black joker).
    lowest card that beats w: among the cards of a set that would win the trick over the
      card w now winning it, the lowest-ordered (a non-trump before a trump, a trump
      before a joker).
  Declarer side or defence in a trick contract (and four passes played out):
    leading: in a suit contract, a seat of the contracting side holding a trump leads its
      highest trump while any trump is unseen to it; otherwise its highest sure winner
      (a joker or trump first, then the other suits; ties to the lower suit code); else
      the cheapest card of its longest non-trump suit (ties to the lower suit code; no
      non-trump: its lowest trump).  A suitless joker led names the suit in which the
      leader holds the most cards (ties to the lower suit code) among the suits it may
      name; with no card left in any of them, the lowest suit code it may name.
    following: if its partner's card is winning the trick: the cheapest legal card (it
      does not overtake); else, if some legal card beats the card now winning: the lowest
      such card; else the cheapest legal card.
  The misere contractor: leading: the lowest-ordered card of its hand (ties to the lower
    suit code; a suitless joker last); following: the highest legal card that does not
    win the trick, if any; else the lowest legal card.
  The misere defence (misere, and open misere before the hand is exposed): leading: the
    lowest-ordered card of a suit in which the contractor has not shown void (ties to the
    lower suit code), else its lowest card; following: if the contractor's card is
    winning the trick: the highest legal card that does not beat it, else the lowest
    legal card; if the contractor has yet to play: the lowest legal card; if the
    contractor has played and is not winning: the highest legal card (except a suitless
    joker, played only when nothing else is legal).
  The defence against an exposed open misere (from the moment om_expose says, for every
    defender's decision; the rules file's decision table lets card play read the
    open-misere hand once exposed).  The defenders use the contractor's cards not yet
    played (the exposed hand) to force it to win a trick:
    a forcing card: a card of a suit the exposed hand holds, below the exposed hand's
      lowest card of that suit (never a suitless joker): led, and not overtaken before the
      contractor plays, it leaves the contractor no card of the suit to duck with; a
      spare card: any other card.
    shedding from a set: its highest spare card that is not a suitless joker, else its
      highest card that is not a suitless joker (a forcing one), else its highest card
      (ties to the lower suit code): keep the forcing cards for later.
    leading: if it holds a forcing card, its lowest forcing card of the suit in which the
      exposed hand's lowest card is highest (the most room for the other defender to
      stay under it; ties to the lower suit code); else the lowest-ordered card of a suit
      the exposed hand holds (ties to the lower suit code), else its lowest card.
    following: if the contractor's card is winning the trick: shed from its legal cards
      that do not beat it (the contractor keeps the trick), or from all its legal cards
      when each beats it; if the contractor has yet to play, holds the suit led, and this
      defender holds it too: its lowest legal card (keeping the trick below the
      contractor's cards); otherwise (it is void, or the contractor is, or the contractor
      has played and is not winning): shed from its legal cards.
    So the exposure timing changes the play: under after-first-lead (default) the
    defenders follow trick 1 seeing the hand, under after-first-trick only from trick 2
    on; before-lead differs from after-first-lead only when a defender leads trick 1
    (first_lead eldest), since nothing the contractor decides reads its own exposure.

Hand mode (one hand, the dealer in seat 3, scores from 0; hand i of seed s draws from the
stream (s, i); a hand thrown in after four passes is counted as it is, not redealt)
  per seat: contractor (the seat won the auction); made and made_count (1/1 when its
    contract is made, 0/1 when failed, 0/0 when it is not the contractor: the make rate
    as the contractor); score and score_sq (the points its side scores in the hand from
    0-0, points for tricks capped at opp_cap under win_by_contract_only, see Scoring);
    tricks and tricks_sq (tricks it won; a misere partner's 0).
  table: all_pass (four passes); misere, open_misere (the contract); misere_made and
    misere_made_count, open_misere_made and open_misere_made_count (made / bid);
    joker_in_kitty (the joker 52 was dealt to the kitty); declarer_score, _sq and _count
    (the contracting side's points / hands with a contractor); defence_score, _sq and
    _count (the other side's points, capped as score is / hands with a contractor); per
    contract c (labels 6s ... 10nt, mis, om): bid_c (c is the contract), make_c and
    make_c_count (made / bid as c), value_c, value_c_sq and value_c_count (the
    contracting side's points, never capped / bid as c).

Game mode (game i of seed s: one stream (s, i) for all its hands, each hand starting
from its pack in code order; seat 3 deals the first hand, the deal passing left after
every hand; both sides start at 0)
  per seat: win (its side won), score and score_sq (its side's final total).
  table: hands and hands_sq (hands dealt, thrown-in ones included); end_contract (a side
    reached 500 on a made contract), end_minus_500 (a side fell to -500 or below),
    end_any_points (win_by_contract_only false: a side reached 500 otherwise, by trick
    points), truncated (max_hands reached first: nobody wins); length_<lo>_<hi> (the game
    took lo..hi hands; buckets in rules.LENGTH_BUCKETS).
  A game is played by kernel.play_on_nb, which plays on from any state of a game (the
  totals, the next dealer, the hands played): advice plays the rest of a game after the
  advised hand with it (sims.games.five_hundred.advice, context score).

Integer bounds (the sums are int64; the analyzer runs at most 1e13 hands or games)
  Hand mode: every value of one hand is at most 520 in size (a 10NT made or failed;
  points for tricks at most 100), so a square is below 2.8e5 and the sums of 1e13 hands
  stay below 2.8e18 < 2**63.  Game mode: a final total is at most 1010 in size (490 and
  a 10NT made, -490 and a 10NT failed) and a game at most max_hands (1000) hands long, so
  score_sq and hands_sq could pass 2**63 only after 9.0e12 games every one of them the
  longest or the most extreme possible; ordinary games (a mean score_sq near 2.1e5 and a
  mean hands_sq near 85 under the default rules and policy) keep 1e13 of them below
  2.2e18.  Advice: one deal's |outcome| is at most 620 (Situation.largest).

Strategy tables (sims.games.five_hundred.table; sims.core.table)
  One table decision, ``bid``: the seat's next call in the auction.  A seat whose policy
  row carries a bid table decides each call in at most two steps, each a visit to a cell
  (what it knows at that moment, classified), in every mode (hands, games, advice's field
  seats, stacked deals):
  1. The misere step, when misere or open misere may be bid (the rules above): the cell
     is (call, misere, high): ``call`` who holds the bid (open: nobody has bid; opponent;
     partner), ``misere`` which may be bid (misere, open-misere, both), ``high`` the
     hand's high cards (0..10).  Actions: ``misere`` and ``open-misere`` where they may be
     bid, ``no-misere`` (go on to step 2).  99 cells.
  2. The trick step, when some trick bid in the hand's best denomination d* outranks the
     bid: the cell is (call, level, over): ``level`` the tricks k of the cheapest such bid
     (6 when nobody has bid), ``over`` = k - estimate(d*), clipped to -3..4 (open, over an
     opponent) or -6..4 (over the partner), the ends spelled "<=-3" / "<=-6" and ">=4".
     Actions: ``pass``, ``bid`` (that cheapest bid).  103 cells (open: level 6 only).
  With neither step the call is a pass.  The same cell allows the same actions wherever it
  is reached.  202 cells in all; actions in draw order pass, bid, misere, open-misere,
  no-misere.  A cell the table leaves out is decided there by the policy fields (a step
  left out: the policy's rule for that step, so a left-out misere step that declines goes
  on to step 2 as the policy does).  A mixed cell draws one uniform from the hand's
  stream after the deal (game mode: the game's stream, which then goes on to the next
  deal; a stacked deal: the stream (0, 0); advice: the stream after the conditioned deal,
  the same for every candidate); the advised seat's forced call still overrides.
  Why the cells are enough: the policy's call reads exactly these.  Open misere and
  misere depend on whether each may be bid and on high <= open_misere_max / misere_max
  (thresholds -1..10, and a hand holds at most 10 high cards): the misere step's cell.
  The trick bid is the cheapest outranking bid in d*, made when k + margin <= min(10,
  estimate(d*) + bid_offset), margin = partner_margin over the partner's bid, else 0,
  i.e. when over + margin <= bid_offset and k + margin <= 10: with bid_offset in -3..3
  and partner_margin in 0..3, every over at or below the low end bids (given k) and every
  over of 4 or more passes, so the clipped over, the level and the call decide it for
  every policy of the family (the level matters to the policy only over the partner at
  8 or more; it is kept everywhere for a solve to use).  So every policy is a table
  (table.policy_table), bit for bit.  The two steps restrict a table to what the policy
  family reads: misere by the high cards (not by the trick estimate), the trick bid by
  over and the level (jump bids and another denomination than d* are not actions).
  The solve's outcome is hand mode's ``score`` (the seat's side's points in the hand,
  higher is better); its kernel (sims.games.five_hundred.solve) replays each deal's
  auction with every visit forced to every other legal action, and plays each distinct
  (contract, contractor) once per deal (nothing after the auction draws or reads the
  calls).

Stacked deals (the same functions exist on the kernel package and on the plain-Python
twin, sims.games.five_hundred.twin; stacked-deck tests run against both)

play_dealt(rules, policy, cards, dealer=None, scores=(0, 0), log=None) -> dict
  One hand from a stacked pack.  ``policy`` is the [4, 5] matrix (POLICY_FIELDS order),
  or that matrix widened with bid tables (Strategy tables; mixed cells draw from the
  stream (0, 0));
  ``cards`` the top of the pack in draw order (distinct codes of the pack): 10 to the
  eldest hand, ..., 10 to the dealer, then the kitty; every card of the pack not listed
  follows in code order.  ``dealer`` defaults to 3.  ``scores``: the two sides' totals
  before the hand (they matter only for the cap and the end of a game).  ``log``: the
  twin appends readable lines; the kernel leaves it untouched.  Raises ValueError for a
  table the rules refuse, values out of range, or cards that are not distinct codes of
  the pack.
  Returns (cards as codes; per-seat lists indexed by seat):
    dealt: each seat's 10 cards, sorted; kitty: the kitty's cards, sorted.
    auction: the calls in order, (seat, contract id or -1 for a pass).
    contract: the contract id, or -1 (four passes); contractor: its seat, or -1.
    discards: the contractor's discards, sorted (empty with no contractor).
    nominated: per joker code held by the contractor and nominated, its suit
      ({52: 2} for the joker nominated to hearts); {} otherwise.
    tricks: one tuple per trick played, (leader, [(seat, card), ...] in playing order,
      winner, named), named = the suit named for a suitless joker led, else -1.
    tricks_won: per seat; side_tricks: per side.
    made: 1 or 0 (-1 with no contractor).
    points: per side, the points the hand adds to the side's total (points for tricks
      capped under win_by_contract_only: see Scoring), so scores = the scores before
      the hand + points.
    scores: per side, the totals after the hand.
    winner: the side that has won the game after this hand, or -1; ended: "contract",
      "minus_500", "any_points" or "" (the game goes on).

play_game(rules, policy, deals, first_dealer=None, log=None) -> dict
  A game from stacked packs: ``deals`` is a list of card lists, one per hand (each as
  play_dealt's ``cards``); hand k is dealt by (first_dealer + k) mod 4 (first_dealer
  defaults to 3).  Played until the game ends, max_hands is reached, or the listed deals
  run out.
  Returns: results (one play_dealt dict per hand played), scores (per side, final),
  winner (side or -1), ended (as above, or "truncated" at max_hands, or "" when the
  deals ran out), hands (hands played).
"""

from __future__ import annotations

from sims.games.five_hundred.kernel import (
    simulate_games_nb,
    simulate_hands_nb,
)
from sims.games.five_hundred.rules import *  # noqa: F401,F403 (the game's public names live here)
from sims.games.five_hundred.rules import (
    GAME_OUTCOMES,
    HAND_OUTCOMES,
    PLAYERS,
    POLICIES,
    POLICY_FIELDS,
    VARIANTS,
    Rules,
    check,
)
from sims.spec import GameSpec, Mode

# The registry reads these two without importing the game (sims/registry.py): keep them literal.
TITLE = "Five Hundred"
SUMMARY = (
    "Four players in partnerships, 43 cards with a joker and two bowers; bid tricks on the Avondale "
    "ladder (or misere), take the kitty, make the contract; first side to 500 on a contract wins."
)

SPEC = GameSpec(
    name="five-hundred",
    title=TITLE,
    summary=SUMMARY,
    rules_type=Rules,
    policy_fields=POLICY_FIELDS,
    variants=VARIANTS,
    policies=POLICIES,
    outcomes={Mode.HANDS: HAND_OUTCOMES, Mode.GAMES: GAME_OUTCOMES},
    headline={Mode.HANDS: "score", Mode.GAMES: "win"},
    min_players=PLAYERS,
    max_players=PLAYERS,
    default_players=PLAYERS,
    kernel_version=2,
    check_table=check,
    players_why="two partnerships",
    kernels={Mode.HANDS: simulate_hands_nb, Mode.GAMES: simulate_games_nb},
    twin="sims.games.five_hundred.twin",
    tables="sims.games.five_hundred.table",
    solve="sims.games.five_hundred.solve",
    advice="sims.games.five_hundred.advice",
    bench_players=(4,),
    strategy_fields=("bid_offset", "misere_max", "partner_margin", "open_misere_max", "nominate"),
    strategy_mode=Mode.GAMES,
    report_players=(),
    last_seat_role="dealer",
)
