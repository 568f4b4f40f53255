/* Ace Chasing, hand mode: a plain C reference of the Numba kernel
 * sims.games.ace_chasing.simulate_hands_nb (SPEC.kernels[HANDS]), same algorithm, for
 * timing the kernel against what a C compiler makes of the same work.
 *
 * It does exactly the kernel's work, step for step:
 *   - per-hand streams: key = mix64(mix64(seed) ^ hand), four splitmix64 outputs seed a
 *     xoshiro256** state (sims.core.rng); bounded draws by Lemire's multiply-shift on the
 *     top 32 bits with rejection;
 *   - the deal: the pack row reset to identity order, then the first n steps of a forward
 *     Fisher-Yates shuffle (sims.core.deck.deal_prefix_nb);
 *   - the round: play_round_nb over one flat int64 array of 52-entry rows standing for
 *     the kernel's TABLE record (the policy held as integer rows and each seat's masks
 *     of the cards it passes on, as new_table_nb fills them), the swap chain as selects and the
 *     reveal as 64-bit card masks;
 *   - the sums: int64 [n+1][42], seat rows (exposed, swap, bet_placed, bet_net,
 *     bet_net_sq) then the table row (knocked_out, exposures, exposures_sq, and
 *     unit_bet_f, unit_bet_f_sq, unit_bet_f_count for the 13 faces): the raw kernel
 *     output, before Outcomes.decode.  Seat rows are 42 wide like the kernel's array;
 *     columns 5.. of seat rows stay 0.
 *
 * Rules implemented: every rule value that acts in hand mode (king_block, betting,
 * bet_direction; next_matador acts only in game mode, which is not implemented here).
 * The DEFAULT rules (next_matador=right, king_block=0, betting=off,
 * bet_direction=against-matador) are used unless a rules array is given.  The rules are
 * runtime values, as in the kernel (not compile-time constants).
 *
 * Policy: the DEFAULT policy (threshold 7, matador_right_threshold 7, ace_swap 1,
 * bet_min_rank 14, bet_size 1, bet_cap 1000, back_max_rank 0) for every seat, unless one
 * row of 7 values is given (then for every seat).
 *
 * Usage: ace_chasing PLAYERS SEED FIRST COUNT [RULES [POLICY]]
 *   RULES:  next_matador,king_block,betting,bet_direction   (default 0,0,0,0)
 *   POLICY: threshold,matador_right_threshold,ace_swap,bet_min_rank,bet_size,bet_cap,
 *           back_max_rank                                    (default 7,7,1,14,1,1000,0)
 * Prints the n+1 rows of sums to stdout (space-separated integers) and
 * "hand_loop_seconds S" (CLOCK_MONOTONIC around the hand loop) to stderr.
 *
 * Build: gcc -O2 -march=native -o ace_chasing ace_chasing.c
 */

#include "core.h"

/* ---- sims.games.ace_chasing --------------------------------------------------------- */

enum { BET_AGAINST_MATADOR, BET_BETTOR_CHOOSES };
enum { R_NEXT, R_KING_BLOCK, R_BETTING, R_BET_DIRECTION, N_RULES };
enum { THRESHOLD, MATADOR_RIGHT_THRESHOLD, ACE_SWAP, BET_MIN_RANK, BET_SIZE, BET_CAP, BACK_MAX_RANK, N_POLICY };
#define ACE_RANK ACE
#define KING_RANK KING

#define HAND_WIDTH (3 + 3 * 13) /* the table row's width; seat rows use the first 5 columns */
#define UNIT_BET_FIRST 3

#define SEAT_ROW (FIRST_GAME_ROW + 0 * ROW)
#define HELD_ROW (FIRST_GAME_ROW + 1 * ROW)
#define SWAP_ROW (FIRST_GAME_ROW + 2 * ROW)
#define BET_ROW (FIRST_GAME_ROW + 3 * ROW)
#define SWAPS_ON_ROW (FIRST_GAME_ROW + 4 * ROW)
#define RIGHT_SWAPS_ON_ROW (FIRST_GAME_ROW + 5 * ROW)
#define POLICY_ROW (FIRST_GAME_ROW + 6 * ROW)
#define EXPOSED_SUM_ROW (POLICY_ROW + N_POLICY * ROW)
#define SWAP_SUM_ROW (EXPOSED_SUM_ROW + ROW)
#define DEALT_ROW (SWAP_SUM_ROW + ROW)
#define WORK_SIZE (DEALT_ROW + 2 * ROW)

#define ACES ((1ULL << 0) | (1ULL << 13) | (1ULL << 26) | (1ULL << 39))
#define KINGS (ACES << 12)
#define SUIT 0x1FFFULL
static uint64_t lower_than[N_CARDS]; /* card -> the mask of every card of lower rank */

/* new_table_nb */
static int64_t *new_matador_workspace(const double *policy, int64_t n_seats) {
    int64_t *work = calloc(WORK_SIZE, sizeof(int64_t));
    for (int64_t card = 0; card < N_CARDS; card++) work[DECK_ROW + card] = card;
    for (int64_t seat = 0; seat < n_seats; seat++) {
        for (int64_t field = 0; field < N_POLICY; field++)
            work[POLICY_ROW + field * ROW + seat] = (int64_t)policy[seat * N_POLICY + field];
        int64_t ace_swap = work[POLICY_ROW + ACE_SWAP * ROW + seat] != 0;
        for (int right = 0; right < 2; right++) {
            int64_t threshold = work[POLICY_ROW + (right ? MATADOR_RIGHT_THRESHOLD : THRESHOLD) * ROW + seat];
            uint64_t mask = 0;
            for (int64_t card = 0; card < N_CARDS; card++) {
                int64_t face = card % 13;
                if (face + 1 <= threshold || (ace_swap && face == ACE_RANK)) mask |= 1ULL << card;
            }
            work[(right ? RIGHT_SWAPS_ON_ROW : SWAPS_ON_ROW) + seat] = (int64_t)mask;
        }
    }
    for (int64_t card = 0; card < N_CARDS; card++) {
        lower_than[card] = 0;
        for (int64_t other = 0; other < N_CARDS; other++)
            if (other % 13 < card % 13) lower_than[card] |= 1ULL << other;
    }
    return work;
}

static inline int64_t policy_of(const int64_t *work, int64_t field, int64_t seat) {
    return work[POLICY_ROW + field * ROW + seat];
}

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* play_round_nb (inlined in the kernel): sets *knocked_out, returns the mask of the
 * exposed players' cards. */
static inline uint64_t play_round(int64_t *work, const int64_t *rules, int64_t k, int64_t *knocked_out) {
    int64_t matador = k - 1;
    if (rules[R_BETTING]) {
        int64_t cap = policy_of(work, BET_CAP, work[SEAT_ROW + matador]);
        for (int64_t p = 0; p < matador; p++) {
            int64_t seat = work[SEAT_ROW + p];
            int64_t rank1 = work[DEAL_ROW + p] % 13 + 1;
            int64_t amount = min64(policy_of(work, BET_SIZE, seat), cap);
            int64_t bet = 0;
            if (rank1 >= policy_of(work, BET_MIN_RANK, seat))
                bet = amount;
            else if (rules[R_BET_DIRECTION] == BET_BETTOR_CHOOSES && rank1 <= policy_of(work, BACK_MAX_RANK, seat))
                bet = -amount;
            work[BET_ROW + p] = bet;
        }
    }

    int64_t king_block = rules[R_KING_BLOCK];
    int64_t moving = work[DEAL_ROW];
    uint64_t held = 0;
    for (int64_t p = 0; p < matador; p++) {
        int64_t seat = work[SEAT_ROW + p];
        uint64_t passes_on = (uint64_t)work[(p == matador - 1 ? RIGHT_SWAPS_ON_ROW : SWAPS_ON_ROW) + seat];
        int64_t target = work[DEAL_ROW + p + 1];
        uint64_t swap = (passes_on >> moving) & 1;
        if (king_block) swap &= ~(KINGS >> target);
        int64_t final = swap ? target : moving;
        moving = swap ? moving : target;
        work[HELD_ROW + p] = final;
        work[SWAP_ROW + p] = (int64_t)swap;
        held |= 1ULL << final;
    }
    work[HELD_ROW + matador] = moving;

    uint64_t lower = held & lower_than[moving];
    uint64_t up_suits = ((lower | (1ULL << moving)) & ACES) * SUIT;
    uint64_t exposed = held & (lower | up_suits);
    *knocked_out = exposed == 0;
    return exposed;
}

/* _bet_result */
static inline int64_t bet_result(int64_t bet, int64_t knocked_out) {
    if (bet > 0) return knocked_out ? bet : -bet;
    return !knocked_out ? -bet : bet;
}

/* simulate_hands_nb: fills out[(n + 1) * HAND_WIDTH]. */
static void simulate_hands(const int64_t *rules, const double *policy, int64_t n, uint64_t seed, int64_t first,
                           int64_t count, int64_t *out) {
    memset(out, 0, sizeof(int64_t) * (size_t)((n + 1) * HAND_WIDTH));
    int64_t *work = new_matador_workspace(policy, n);
    for (int64_t seat = 0; seat < n; seat++) work[SEAT_ROW + seat] = seat;
    int64_t betting = rules[R_BETTING];
    int64_t matador = n - 1;
    uint64_t key0 = seed_key(seed);
    for (int64_t hand = first; hand < first + count; hand++) {
        state_t st = stream(key0, hand);
        deal_prefix(work, n, &st);
        int64_t knocked_out;
        uint64_t exposed = play_round(work, rules, n, &knocked_out);
        int64_t exposures = __builtin_popcountll(exposed);
        for (int64_t p = 0; p < matador; p++) {
            work[EXPOSED_SUM_ROW + p] += (exposed >> work[HELD_ROW + p]) & 1;
            work[SWAP_SUM_ROW + p] += work[SWAP_ROW + p];
            work[DEALT_ROW + ROW * knocked_out + work[DEAL_ROW + p]] += 1;
        }
        if (betting) {
            int64_t matador_net = 0;
            for (int64_t p = 0; p < matador; p++) {
                int64_t bet = work[BET_ROW + p];
                int64_t net = bet_result(bet, knocked_out);
                matador_net -= net;
                out[p * HAND_WIDTH + 2] += bet != 0;
                out[p * HAND_WIDTH + 3] += net;
                out[p * HAND_WIDTH + 4] += net * net;
            }
            out[matador * HAND_WIDTH + 3] += matador_net;
            out[matador * HAND_WIDTH + 4] += matador_net * matador_net;
        }
        out[n * HAND_WIDTH + 0] += knocked_out;
        out[n * HAND_WIDTH + 1] += exposures;
        out[n * HAND_WIDTH + 2] += exposures * exposures;
    }
    for (int64_t p = 0; p < matador; p++) {
        out[p * HAND_WIDTH + 0] = work[EXPOSED_SUM_ROW + p];
        out[p * HAND_WIDTH + 1] = work[SWAP_SUM_ROW + p];
    }
    for (int64_t face = 0; face < 13; face++) {
        int64_t dealt = 0, dealt_knocked_out = 0;
        for (int64_t suit = 0; suit < 4; suit++) {
            dealt += work[DEALT_ROW + 13 * suit + face];
            dealt_knocked_out += work[DEALT_ROW + ROW + 13 * suit + face];
        }
        dealt += dealt_knocked_out;
        int64_t column = UNIT_BET_FIRST + 3 * face;
        out[n * HAND_WIDTH + column] = 2 * dealt_knocked_out - dealt;
        out[n * HAND_WIDTH + column + 1] = dealt;
        out[n * HAND_WIDTH + column + 2] = dealt;
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
    if (n < 4 || n > 52 || first < 0 || count < 0) {
        fprintf(stderr, "players must be 4..52, first and count >= 0\n");
        return 2;
    }
    int64_t rules[N_RULES] = {0, 0, 0, BET_AGAINST_MATADOR};
    double row[N_POLICY] = {7, 7, 1, 14, 1, 1000, 0};
    if (argc >= 6) {
        double values[N_RULES];
        if (!parse_list(argv[5], values, N_RULES)) {
            fprintf(stderr, "RULES must be %d comma-separated integers\n", N_RULES);
            return 2;
        }
        for (int i = 0; i < N_RULES; i++) rules[i] = (int64_t)values[i];
    }
    if (argc >= 7 && !parse_list(argv[6], row, N_POLICY)) {
        fprintf(stderr, "POLICY must be %d comma-separated numbers\n", N_POLICY);
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
