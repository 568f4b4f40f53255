/* Chase the Ace, hand mode: a plain C reference of the Numba kernel
 * sims.games.chase_ace.simulate_hands_nb (SPEC.kernels[HANDS]), same algorithm, for
 * timing the kernel against what a C compiler makes of the same work.
 *
 * It does exactly the kernel's work, step for step:
 *   - per-hand streams: key = mix64(mix64(seed) ^ hand), four splitmix64 outputs seed a
 *     xoshiro256** state (sims.core.rng); bounded draws by Lemire's multiply-shift on the
 *     top 32 bits with rejection; a mixed decision (threshold_mix strictly between 0 and
 *     1) is one draw compared as integers, (next >> 11) < ceil(mix * 2**53), which is
 *     uniform() < mix exactly (uniform_bound_nb, uniform_below_nb);
 *   - the deal: the pack row reset to identity order, then the first n+1 steps of a
 *     forward Fisher-Yates shuffle (sims.core.deck.deal_prefix_nb);
 *   - the scratch: the kernel's TABLE record (named int64 arrays, as new_table_nb fills
 *     them) laid out here as one flat int64 array of 52-entry rows, each seat's policy
 *     one DECISION_ROW word of rank masks (the record's `decision`: bit r: swap or cut
 *     holding rank r; bit MIXED_SHIFT + r: rank r is decided by threshold_mix; bit
 *     INFORMED_BIT: informed) and the MIX_ROW integer bound (`mix`);
 *   - the round: play_round_nb with _mixed_swap_nb, _attempt_on_shown_card_nb,
 *     _showdown_nb and _single_loser_nb.  The chain of exchanges carries the moving card
 *     (and its rank) in registers and writes each position's final card once, except
 *     under the rules whose attempts move cards elsewhere or end the round (kings
 *     stop-all, skip-to-next or freeze-if-dealt, queens, jacks: rows_kept), where every
 *     card lives in the held rows; the decisions are selects on masks, and the lowest
 *     final rank is found along the chain and passed to the showdown;
 *   - the sums: int64 [n+1][3], seat rows (lose_life, exchange) then the table row
 *     (losers, losers_sq, no_loser): the raw kernel output, before Outcomes.decode.  The
 *     seat sums accumulate in the LOSE_SUM_ROW and EXCHANGE_SUM_ROW rows (the record's
 *     lose_sum and exchange_sum) and are copied out after the hand loop, as in
 *     _hand_sums_nb.
 *
 * Rules implemented: every rule value that acts in hand mode.  The default rules
 * (tie=all-lowest-lose, kings=block, king_reveal=on-attempt, dealer_king_block=1,
 * queens=off, jacks=off, ace_high=0) are used unless a rules array is given.  lives and
 * final_tie are read but act only in game mode, which is not implemented here.
 * The rules are runtime values, read once per block into the round's rule codes
 * (rule_codes_nb) as the kernel's generic path does (simulate_hands_nb), so the C
 * program makes the same rule checks that path makes.  The kernel the engine runs for
 * the standard rules, which `analyze bench --c-reference` times, is the fixed-rules kernel
 * (fixed_hands_kernel): the same code compiled with the rule codes as constants, so its
 * rule checks fold away at compile time; this program keeps them.
 *
 * Policy: the DEFAULT policy (threshold 7, threshold_mix 0, informed 1) for every seat,
 * unless one "threshold,threshold_mix,informed" triple is given (then for every seat).
 *
 * Usage: chase_ace PLAYERS SEED FIRST COUNT [RULES [POLICY]]
 *   RULES:  the 9 ints of the kernel's rules array, comma separated, in field order
 *           lives,tie,kings,king_reveal,dealer_king_block,queens,jacks,final_tie,ace_high
 *           (default 3,0,0,0,1,0,0,0,0)
 *   POLICY: threshold,threshold_mix,informed (default 7,0,1)
 * Prints the n+1 rows of sums to stdout (space-separated integers) and
 * "hand_loop_seconds S" (CLOCK_MONOTONIC around the hand loop) to stderr.
 *
 * Build: gcc -O2 -march=native -o chase_ace chase_ace.c
 */

#include "core.h"

/* ---- sims.core.rng: the mixed draw as an integer comparison ------------------------- */

/* uniform_bound_nb: the integer b with uniform() < p exactly when (next >> 11) < b, that
 * is ceil(p * 2**53) (p * 2**53 is exact).  The ceiling is written out so that the
 * program needs no libm: the conversion truncates, which is the ceiling for x <= 0 and
 * for whole x, and one less than it otherwise. */
static inline int64_t uniform_bound(double p) {
    double x = p * 9007199254740992.0;
    int64_t b = (int64_t)x;
    if ((double)b < x) b += 1;
    return b;
}

/* uniform_below_nb: uniform() < p for bound = uniform_bound(p), one draw. */
static inline int uniform_below(state_t *st, int64_t bound) {
    uint64_t word = next_u64(st);
    return (int64_t)(word >> 11) < bound;
}

/* ---- sims.games.chase_ace ----------------------------------------------------------- */

enum { TIE_ALL_LOWEST, TIE_CANCEL_MATCHES, TIE_EARLIEST, TIE_LATEST, TIE_TO_DEALER };
enum { KINGS_BLOCK, KINGS_NONE, KINGS_FREEZE, KINGS_STOP_ALL, KINGS_SKIP };
enum { REVEAL_ON_ATTEMPT, REVEAL_AT_DEAL };
enum { JACKS_OFF, JACKS_HOLDER_MOVES, JACKS_HOLDER_SKIPPED };
enum { R_LIVES, R_TIE, R_KINGS, R_REVEAL, R_DEALER_KING_BLOCK, R_QUEENS, R_JACKS, R_FINAL_TIE, R_ACE_HIGH,
       N_RULES };
enum { THRESHOLD, THRESHOLD_MIX, INFORMED, N_POLICY };

#define HAND_WIDTH 3
#define TOP_RANK 12

#define RANK_ROW (FIRST_GAME_ROW + 0 * ROW)
#define RULES_ROW (FIRST_GAME_ROW + 1 * ROW)
#define SEAT_ROW (FIRST_GAME_ROW + 2 * ROW)
#define HELD_ROW (FIRST_GAME_ROW + 3 * ROW)
#define LOSE_ROW (FIRST_GAME_ROW + 4 * ROW)
#define EXCHANGED_ROW (FIRST_GAME_ROW + 5 * ROW)
#define LOST_TURN_ROW (FIRST_GAME_ROW + 6 * ROW)
#define CANDIDATE_ROW (FIRST_GAME_ROW + 7 * ROW)
#define HELD_RANK_ROW (FIRST_GAME_ROW + 8 * ROW)
#define DECISION_ROW (FIRST_GAME_ROW + 9 * ROW)
#define MIX_ROW (FIRST_GAME_ROW + 10 * ROW)
#define LOSE_SUM_ROW (FIRST_GAME_ROW + 11 * ROW)
#define EXCHANGE_SUM_ROW (FIRST_GAME_ROW + 12 * ROW)
#define N_GAME_ROWS 13
#define WORK_SIZE (FIRST_GAME_ROW + N_GAME_ROWS * ROW)

/* A seat's DECISION_ROW word: bit r (r = 0..12) when it swaps (or cuts) holding rank r
 * (rank1 <= threshold, r not TOP); bit MIXED_SHIFT + r when rank r is decided by
 * threshold_mix (rank1 == threshold + 1, not TOP, mix > 0); bit INFORMED_BIT when the
 * seat is informed. */
#define MIXED_SHIFT 16
#define INFORMED_BIT 32

/* MIX_ROW: 0 for a mix of 0 (never swap), uniform_bound(mix) <= MIX_ALWAYS for a mix drawn
 * from the stream, MIX_ALWAYS + 1 for a mix of 1 (swap without a draw). */
#define MIX_ALWAYS ((int64_t)1 << 53)

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* new_table_nb */
static int64_t *new_chase_workspace(const int64_t *rules, const double *policy, int64_t n_seats) {
    int64_t *work = calloc(WORK_SIZE, sizeof(int64_t)); /* zeros ... */
    for (int64_t card = 0; card < N_CARDS; card++) work[DECK_ROW + card] = card; /* ... and the pack */
    for (int64_t seat = 0; seat < n_seats; seat++) {
        int64_t threshold = (int64_t)policy[seat * N_POLICY + THRESHOLD];
        double mix = policy[seat * N_POLICY + THRESHOLD_MIX];
        work[MIX_ROW + seat] = mix >= 1.0 ? MIX_ALWAYS + 1 : uniform_bound(mix);
        int64_t word = ((int64_t)1 << min64(threshold, TOP_RANK)) - 1; /* ranks below the threshold, never TOP */
        if (threshold < TOP_RANK && work[MIX_ROW + seat] != 0) word |= (int64_t)1 << (MIXED_SHIFT + threshold);
        if (policy[seat * N_POLICY + INFORMED] > 0.5) word |= (int64_t)1 << INFORMED_BIT;
        work[DECISION_ROW + seat] = word;
    }
    for (int64_t code = 0; code < N_CARDS; code++) {
        int64_t face = code % 13;
        work[RANK_ROW + code] = rules[R_ACE_HIGH] ? (face + 12) % 13 : face;
    }
    for (int64_t field = 0; field < N_RULES; field++) work[RULES_ROW + field] = rules[field];
    return work;
}

/* _mixed_swap_nb: a card ranking exactly threshold + 1 swaps with probability
 * threshold_mix, given as MIX_ROW's bound; draws only when the mix is strictly between 0
 * and 1. */
static inline int mixed_swap(int64_t mix_bound, state_t *st) {
    if (mix_bound > MIX_ALWAYS) return 1;
    return uniform_below(st, mix_bound);
}

/* _attempt_on_shown_card_nb (inline="always" in the kernel; gcc inlines this one call):
 * position k tries to swap with t, who holds a shown card; makes the exchange the rule
 * allows, if any; returns 1 when exchanging ends for the round. */
static inline int attempt_on_shown_card(int64_t *work, int64_t k, int64_t t, int64_t dealer, int64_t kings,
                                        int queens_on, int64_t jacks) {
    int64_t partner = -1;
    int ended = 0;
    int64_t target_card = work[HELD_ROW + t];
    if (work[HELD_RANK_ROW + t] == TOP_RANK && kings != KINGS_NONE) {
        if (kings == KINGS_STOP_ALL) {
            ended = 1;
        } else if (kings == KINGS_SKIP) {
            int64_t u = t + 1;
            while (u <= dealer && work[HELD_RANK_ROW + u] == TOP_RANK) u += 1;
            if (u <= dealer) partner = u;
        }
    } else if (queens_on && target_card % 13 == QUEEN) {
        int64_t r = k > 0 ? k - 1 : dealer;
        int64_t right_card = work[HELD_ROW + r];
        if (r == t || right_card % 13 == QUEEN) {
            /* no exchange */
        } else if (work[HELD_RANK_ROW + r] == TOP_RANK && kings != KINGS_NONE) {
            if (kings == KINGS_STOP_ALL) ended = 1;
        } else if (jacks != JACKS_OFF && right_card % 13 == JACK) {
            if (jacks == JACKS_HOLDER_SKIPPED) work[LOST_TURN_ROW + r] = 1;
        } else {
            partner = r;
        }
    } else if (jacks == JACKS_HOLDER_SKIPPED) { /* a shown jack: no exchange; its holder's turn is lost */
        work[LOST_TURN_ROW + t] = 1;
    }
    if (partner >= 0) {
        int64_t card = work[HELD_ROW + partner];
        work[HELD_ROW + partner] = work[HELD_ROW + k];
        work[HELD_ROW + k] = card;
        int64_t rank = work[HELD_RANK_ROW + partner];
        work[HELD_RANK_ROW + partner] = work[HELD_RANK_ROW + k];
        work[HELD_RANK_ROW + k] = rank;
        work[EXCHANGED_ROW + k] = 1;
    }
    return ended;
}

/* rule_codes_nb: the rule fields the round reads (ROUND_RULE_FIELDS), read once per block. */
typedef struct {
    int64_t tie, kings, reveal, dealer_king_block, queens, jacks;
} codes_t;

static inline codes_t rule_codes(const int64_t *rules) {
    codes_t codes = {rules[R_TIE], rules[R_KINGS], rules[R_REVEAL], rules[R_DEALER_KING_BLOCK], rules[R_QUEENS],
                     rules[R_JACKS]};
    return codes;
}

/* _single_loser_nb: the position that loses under a tie rule with one loser at most (-1:
 * nobody); lowest is the lowest rank held. */
static inline int64_t single_loser(const int64_t *work, int64_t m, int64_t tie, int64_t lowest) {
    int64_t loser = -1;
    if (tie == TIE_EARLIEST) {
        for (int64_t k = m - 1; k >= 0; k--) loser = work[HELD_RANK_ROW + k] == lowest ? k : loser;
    } else if (tie == TIE_LATEST) {
        for (int64_t k = 0; k < m; k++) loser = work[HELD_RANK_ROW + k] == lowest ? k : loser;
    } else if (tie == TIE_TO_DEALER) {
        loser = work[HELD_RANK_ROW + 0] <= work[HELD_RANK_ROW + m - 1] ? 0 : m - 1;
    } else { /* cancel-matches: the holder of the lowest rank that nobody else holds loses */
        int64_t seen = 0, shared = 0;
        for (int64_t k = 0; k < m; k++) {
            int64_t bit = (int64_t)1 << work[HELD_RANK_ROW + k];
            shared |= seen & bit;
            seen |= bit;
        }
        int64_t unique = seen & ~shared;
        int64_t rank = -1; /* the lowest unique rank (-1: none, and nobody holds it) */
        for (int64_t r = TOP_RANK; r >= 0; r--) rank = (unique >> r) & 1 ? r : rank;
        for (int64_t k = 0; k < m; k++) loser = work[HELD_RANK_ROW + k] == rank ? k : loser;
    }
    return loser;
}

/* _showdown_nb: marks the losers in LOSE_ROW (1, else 0) under the tie rule, lowest being
 * the lowest rank held; returns how many there are. */
static inline int64_t showdown(int64_t *work, int64_t m, int64_t tie, int64_t lowest) {
    int64_t losers = 0;
    if (tie == TIE_ALL_LOWEST) {
        for (int64_t k = 0; k < m; k++) {
            int64_t lose = work[HELD_RANK_ROW + k] == lowest;
            work[LOSE_ROW + k] = lose;
            losers += lose;
        }
    } else { /* one loser at most */
        int64_t loser = single_loser(work, m, tie, lowest);
        for (int64_t k = 0; k < m; k++) work[LOSE_ROW + k] = k == loser;
        losers = loser >= 0;
    }
    return losers;
}

/* play_round_nb: one round among m positions (0 = eldest, m-1 = dealer), the deal in
 * DEAL_ROW (m cards, then the cut card); writes the final cards, losers and completed
 * exchanges to their rows; returns the number of losers.  The decisions are selects on
 * masks; branches remain where a rule or a mixed policy makes them rare. */
static inline int64_t play_round(int64_t *work, int64_t m, state_t *st, codes_t codes) {
    int64_t tie = codes.tie, kings = codes.kings, reveal = codes.reveal;
    int64_t dealer_king_block = codes.dealer_king_block, queens = codes.queens, jacks = codes.jacks;
    int kings_act = kings != KINGS_NONE;
    /* Kings that divert an attempt (stop everything, or skip to the next player) go the
     * slow way; under "block" an attempt on a king simply makes no exchange. */
    int kings_divert = kings == KINGS_STOP_ALL || kings == KINGS_SKIP;
    int reveal_blocks = reveal == REVEAL_AT_DEAL && (kings == KINGS_BLOCK || kings == KINGS_STOP_ALL);
    int queens_on = queens != 0;
    int face_rules_on = queens_on || jacks != JACKS_OFF;
    /* Under the rules whose attempts move cards outside the chain of neighbours (diverting
     * kings, queens, jacks) or end it (a dealt king freezing the round), every position's
     * card lives in the held rows.  Otherwise a position's card, when its turn comes, is
     * the one the previous turn left it, so the chain carries it in card and rank and
     * writes each position's final card once. */
    int rows_kept = kings_divert || face_rules_on || kings == KINGS_FREEZE;
    int64_t dealer = m - 1;
    int ended = 0;
    if (rows_kept) {
        for (int64_t k = 0; k < m; k++) {
            int64_t card = work[DEAL_ROW + k];
            work[HELD_ROW + k] = card;
            work[HELD_RANK_ROW + k] = work[RANK_ROW + card];
            work[LOST_TURN_ROW + k] = 0;
            work[EXCHANGED_ROW + k] = 0; /* for the turns an ended round never reaches */
        }
        if (kings == KINGS_FREEZE)
            for (int64_t k = 0; k < m; k++) ended |= work[HELD_RANK_ROW + k] == TOP_RANK;
    }

    int64_t card = work[DEAL_ROW];
    int64_t rank = work[RANK_ROW + card];
    /* Position k received its card by the previous position's exchange, giving a card of
     * rank given_rank for it (what an informed player compares).  (The kernel's unsigned
     * indices of loaded values are plain indices here.) */
    int received = 0;
    int64_t given_rank = 0;
    int64_t lowest = TOP_RANK; /* the lowest final rank (of the chain; the held rows under rows_kept) */
    for (int64_t k = 0; k < dealer; k++) {
        if (ended) break;
        if (rows_kept) {
            card = work[HELD_ROW + k];
            rank = work[HELD_RANK_ROW + k];
        }
        int64_t seat = work[SEAT_ROW + k];
        int64_t decision = work[DECISION_ROW + seat];
        int64_t t = k + 1;
        int64_t target_card = work[(rows_kept ? HELD_ROW : DEAL_ROW) + t];
        int64_t target_rank = work[RANK_ROW + target_card];
        int target_on_top = target_rank == TOP_RANK;
        int keep = ((decision >> INFORMED_BIT) != 0) & received & (rank > given_rank);
        keep |= reveal_blocks & target_on_top;
        if (face_rules_on) keep |= work[LOST_TURN_ROW + k] != 0;
        int swap = ((decision >> rank) & 1) != 0;
        if ((((decision >> (MIXED_SHIFT + rank)) & 1) != 0) & !keep) swap = mixed_swap(work[MIX_ROW + seat], st);
        swap &= !keep;
        int special = kings_divert & target_on_top;
        if (face_rules_on) { /* only the queen and jack rules look at faces */
            int64_t face = target_card % 13;
            special |= (queens_on & (face == QUEEN)) | ((jacks != JACKS_OFF) & (face == JACK));
        }
        work[EXCHANGED_ROW + k] = 0;
        if (swap & special) {
            ended = attempt_on_shown_card(work, k, t, dealer, kings, queens_on, jacks);
            received = 0;
            continue;
        }
        int exchange = swap & !(kings_act & target_on_top);
        work[HELD_ROW + k] = exchange ? target_card : card;
        work[HELD_RANK_ROW + k] = exchange ? target_rank : rank;
        work[EXCHANGED_ROW + k] = exchange;
        lowest = min64(lowest, exchange ? target_rank : rank);
        if (rows_kept) {
            work[HELD_ROW + t] = exchange ? card : target_card;
            work[HELD_RANK_ROW + t] = exchange ? rank : target_rank;
        }
        received = exchange;
        given_rank = target_rank;
        card = exchange ? card : target_card;
        rank = exchange ? rank : target_rank;
    }

    /* The dealer's step: cut from the pack (the card after the deal) or keep. */
    if (rows_kept) {
        card = work[HELD_ROW + dealer];
        rank = work[HELD_RANK_ROW + dealer];
    }
    received &= !ended;
    int64_t seat = work[SEAT_ROW + dealer];
    int64_t decision = work[DECISION_ROW + seat];
    int may_cut = !ended & (rank != TOP_RANK);
    if (face_rules_on) may_cut &= work[LOST_TURN_ROW + dealer] == 0;
    int informed = ((decision >> INFORMED_BIT) != 0) & received;
    int cut = informed ? rank < given_rank : ((decision >> rank) & 1) != 0;
    if (may_cut & !informed & (((decision >> (MIXED_SHIFT + rank)) & 1) != 0))
        cut = mixed_swap(work[MIX_ROW + seat], st);
    int64_t cut_card = work[DEAL_ROW + m];
    int64_t cut_rank = work[RANK_ROW + cut_card];
    int take = may_cut & cut & !((cut_rank == TOP_RANK) & (dealer_king_block != 0));
    work[HELD_ROW + dealer] = take ? cut_card : card;
    work[HELD_RANK_ROW + dealer] = take ? cut_rank : rank;
    work[EXCHANGED_ROW + dealer] = take;
    lowest = min64(lowest, take ? cut_rank : rank);
    if (rows_kept) {
        lowest = TOP_RANK;
        for (int64_t k = 0; k < m; k++) lowest = min64(lowest, work[HELD_RANK_ROW + k]);
    }
    return showdown(work, m, tie, lowest);
}

/* simulate_hands_nb and _play_hands_nb: fills out[(n + 1) * HAND_WIDTH]. */
static void simulate_hands(const int64_t *rules, const double *policy, int64_t n, uint64_t seed, int64_t first,
                           int64_t count, int64_t *out) {
    codes_t codes = rule_codes(rules); /* simulate_hands_nb: rule_codes_nb(rules), once per block */
    memset(out, 0, sizeof(int64_t) * (size_t)((n + 1) * HAND_WIDTH));
    int64_t *work = new_chase_workspace(rules, policy, n);
    for (int64_t seat = 0; seat < n; seat++) work[SEAT_ROW + seat] = seat;
    uint64_t key0 = seed_key(seed);
    for (int64_t hand = first; hand < first + count; hand++) {
        state_t st = stream(key0, hand);
        deal_prefix(work, n + 1, &st);
        int64_t losers = play_round(work, n, &st, codes);
        for (int64_t seat = 0; seat < n; seat++) {
            work[LOSE_SUM_ROW + seat] += work[LOSE_ROW + seat];
            work[EXCHANGE_SUM_ROW + seat] += work[EXCHANGED_ROW + seat];
        }
        out[n * HAND_WIDTH + 0] += losers;
        out[n * HAND_WIDTH + 1] += losers * losers;
        out[n * HAND_WIDTH + 2] += losers == 0;
    }
    for (int64_t seat = 0; seat < n; seat++) {
        out[seat * HAND_WIDTH + 0] = work[LOSE_SUM_ROW + seat];
        out[seat * HAND_WIDTH + 1] = work[EXCHANGE_SUM_ROW + seat];
    }
    free(work);
}

/* ---- command line ------------------------------------------------------------------- */

int main(int argc, char **argv) {
    if (argc < 5 || argc > 7) {
        fprintf(stderr, "usage: %s PLAYERS SEED FIRST COUNT [RULES [POLICY]]\n", argv[0]);
        return 2;
    }
    int64_t n = strtoll(argv[1], NULL, 10);
    uint64_t seed = strtoull(argv[2], NULL, 10);
    int64_t first = strtoll(argv[3], NULL, 10);
    int64_t count = strtoll(argv[4], NULL, 10);
    if (n < 2 || n > 51 || first < 0 || count < 0) {
        fprintf(stderr, "players must be 2..51, first and count >= 0\n");
        return 2;
    }
    int64_t rules[N_RULES] = {3, TIE_ALL_LOWEST, KINGS_BLOCK, REVEAL_ON_ATTEMPT, 1, 0, JACKS_OFF, 0, 0};
    double row[N_POLICY] = {7.0, 0.0, 1.0};
    if (argc >= 6) {
        double values[N_RULES];
        if (!parse_list(argv[5], values, N_RULES)) {
            fprintf(stderr, "RULES must be %d comma-separated integers\n", N_RULES);
            return 2;
        }
        for (int i = 0; i < N_RULES; i++) rules[i] = (int64_t)values[i];
    }
    if (argc >= 7 && !parse_list(argv[6], row, N_POLICY)) {
        fprintf(stderr, "POLICY must be threshold,threshold_mix,informed\n");
        return 2;
    }
    double *policy = malloc(sizeof(double) * (size_t)(n * N_POLICY));
    for (int64_t seat = 0; seat < n; seat++)
        for (int f = 0; f < N_POLICY; f++) policy[seat * N_POLICY + f] = row[f];
    int64_t *out = malloc(sizeof(int64_t) * (size_t)((n + 1) * HAND_WIDTH));

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    simulate_hands(rules, policy, n, seed, first, count, out);
    clock_gettime(CLOCK_MONOTONIC, &t1);

    for (int64_t r = 0; r <= n; r++) {
        for (int c = 0; c < HAND_WIDTH; c++) printf(c ? " %lld" : "%lld", (long long)out[r * HAND_WIDTH + c]);
        printf("\n");
    }
    fprintf(stderr, "hand_loop_seconds %.9f\n", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    free(out);
    free(policy);
    return 0;
}
