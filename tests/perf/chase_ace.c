/* Chase the Ace, hand mode: a plain C reference of the Numba kernel
 * sims.games.chase_ace.simulate_hands_nb (SPEC.kernels[HANDS]), same algorithm, for
 * timing the kernel against what a C compiler makes of the same work.
 *
 * It does exactly the kernel's work, step for step:
 *   - per-hand streams: key = mix64(mix64(seed) ^ hand), four splitmix64 outputs seed a
 *     xoshiro256** state (sims.core.rng); bounded draws by Lemire's multiply-shift on the
 *     top 32 bits with rejection; uniform() = (next >> 11) * 2**-53;
 *   - the deal: the pack row reset to identity order, then the first n+1 steps of a
 *     forward Fisher-Yates shuffle (sims.core.deck.deal_prefix_nb);
 *   - the round: play_round_nb, _attempt_on_shown_card_nb and _showdown_nb, over one flat
 *     int64 workspace with the kernel's row offsets;
 *   - the sums: int64 [n+1][3], seat rows (lose_life, exchange) then the table row
 *     (losers, losers_sq, no_loser): the raw kernel output, before Outcomes.decode.
 *
 * Rules implemented: every rule value that acts in hand mode.  The default rules
 * (tie=all-lowest-lose, kings=block, king_reveal=on-attempt, dealer_king_block=1,
 * queens=off, jacks=off, ace_high=0) are used unless a rules array is given.  lives and
 * final_tie are read but act only in game mode, which is not implemented here.
 * The rules are runtime values read from the workspace, as in the kernel (not compile-
 * time constants), so the C program makes the same checks the kernel makes.
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
#define THRESHOLD_ROW (FIRST_GAME_ROW + 9 * ROW)
#define INFORMED_ROW (FIRST_GAME_ROW + 10 * ROW)
#define N_GAME_ROWS 11
#define WORK_SIZE (FIRST_GAME_ROW + N_GAME_ROWS * ROW)

/* new_chase_workspace_nb */
static int64_t *new_chase_workspace(const int64_t *rules, const double *policy, int64_t n_seats) {
    int64_t *work = calloc(WORK_SIZE, sizeof(int64_t));
    for (int64_t card = 0; card < N_CARDS; card++) work[DECK_ROW + card] = card;
    for (int64_t seat = 0; seat < n_seats; seat++) {
        work[THRESHOLD_ROW + seat] = (int64_t)policy[seat * N_POLICY + THRESHOLD];
        work[INFORMED_ROW + seat] = policy[seat * N_POLICY + INFORMED] > 0.5 ? 1 : 0;
    }
    for (int64_t code = 0; code < N_CARDS; code++) {
        int64_t face = code % 13;
        work[RANK_ROW + code] = rules[R_ACE_HIGH] ? (face + 12) % 13 : face;
    }
    for (int64_t field = 0; field < N_RULES; field++) work[RULES_ROW + field] = rules[field];
    return work;
}

/* _threshold_says_swap_nb */
static inline int threshold_says_swap(int64_t rank, int64_t threshold, double mix, state_t *st) {
    if (rank + 1 <= threshold) return 1;
    if (rank == threshold) {
        if (mix >= 1.0) return 1;
        if (mix > 0.0) {
            double u = uniform(st);
            return u < mix;
        }
    }
    return 0;
}

/* _attempt_on_shown_card_nb (a separate, non-inlined function in the kernel too) */
static int attempt_on_shown_card(int64_t *work, int64_t k, int64_t t, int64_t dealer, int64_t kings,
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
    } else if (jacks == JACKS_HOLDER_SKIPPED) {
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

/* _showdown_nb */
static inline int64_t showdown(int64_t *work, int64_t m) {
    int64_t tie = work[RULES_ROW + R_TIE];
    int64_t lowest = TOP_RANK + 1;
    for (int64_t k = 0; k < m; k++)
        if (work[HELD_RANK_ROW + k] < lowest) lowest = work[HELD_RANK_ROW + k];
    if (tie == TIE_ALL_LOWEST) {
        int64_t losers = 0;
        for (int64_t k = 0; k < m; k++) {
            if (work[HELD_RANK_ROW + k] == lowest) {
                work[LOSE_ROW + k] = 1;
                losers += 1;
            }
        }
        return losers;
    }
    if (tie == TIE_EARLIEST) {
        for (int64_t k = 0; k < m; k++) {
            if (work[HELD_RANK_ROW + k] == lowest) {
                work[LOSE_ROW + k] = 1;
                return 1;
            }
        }
    }
    if (tie == TIE_LATEST) {
        for (int64_t k = m - 1; k >= 0; k--) {
            if (work[HELD_RANK_ROW + k] == lowest) {
                work[LOSE_ROW + k] = 1;
                return 1;
            }
        }
    }
    if (tie == TIE_TO_DEALER) {
        int64_t loser = work[HELD_RANK_ROW + 0] <= work[HELD_RANK_ROW + m - 1] ? 0 : m - 1;
        work[LOSE_ROW + loser] = 1;
        return 1;
    }
    /* cancel-matches */
    int64_t seen = 0, shared = 0;
    for (int64_t k = 0; k < m; k++) {
        int64_t bit = (int64_t)1 << work[HELD_RANK_ROW + k];
        if (seen & bit) shared |= bit;
        seen |= bit;
    }
    int64_t unique = seen & ~shared;
    if (unique) {
        int64_t rank = 0;
        while (!((unique >> rank) & 1)) rank += 1;
        for (int64_t k = 0; k < m; k++) {
            if (work[HELD_RANK_ROW + k] == rank) {
                work[LOSE_ROW + k] = 1;
                return 1;
            }
        }
    }
    return 0;
}

/* play_round_nb: returns the number of losers. */
static inline int64_t play_round(int64_t *work, const double *policy, int64_t m, state_t *st) {
    int64_t kings = work[RULES_ROW + R_KINGS];
    int reveal_at_deal = work[RULES_ROW + R_REVEAL] == REVEAL_AT_DEAL;
    int queens_on = work[RULES_ROW + R_QUEENS] != 0;
    int64_t jacks = work[RULES_ROW + R_JACKS];
    int face_rules_on = queens_on || jacks != JACKS_OFF;
    int64_t dealer = m - 1;
    int ended = 0;
    for (int64_t k = 0; k < m; k++) {
        int64_t card = work[DEAL_ROW + k];
        work[HELD_ROW + k] = card;
        work[HELD_RANK_ROW + k] = work[RANK_ROW + card];
        work[LOSE_ROW + k] = 0;
        work[EXCHANGED_ROW + k] = 0;
    }
    if (face_rules_on)
        for (int64_t k = 0; k < m; k++) work[LOST_TURN_ROW + k] = 0;
    if (kings == KINGS_FREEZE)
        for (int64_t k = 0; k < m; k++)
            if (work[HELD_RANK_ROW + k] == TOP_RANK) ended = 1;

    int64_t received_by = -1;
    int64_t rank_received = 0;
    int64_t rank_given = 0;
    for (int64_t k = 0; k < dealer; k++) {
        if (ended) break;
        int64_t rank = work[HELD_RANK_ROW + k];
        int64_t seat = work[SEAT_ROW + k];
        int64_t t = k + 1;
        int64_t target_rank = work[HELD_RANK_ROW + t];
        if (rank == TOP_RANK || (face_rules_on && work[LOST_TURN_ROW + k])) continue;
        if (work[INFORMED_ROW + seat] && received_by == k && rank_received > rank_given) continue;
        if (reveal_at_deal && (kings == KINGS_BLOCK || kings == KINGS_STOP_ALL) && target_rank == TOP_RANK)
            continue;
        int swap = threshold_says_swap(rank, work[THRESHOLD_ROW + seat], policy[seat * N_POLICY + THRESHOLD_MIX], st);
        int64_t target_card = work[HELD_ROW + t];
        int special = target_rank == TOP_RANK && kings != KINGS_NONE;
        if (face_rules_on) {
            int64_t face = target_card % 13;
            special = special || (queens_on && face == QUEEN) || (jacks != JACKS_OFF && face == JACK);
        }
        if (swap && special) {
            ended = attempt_on_shown_card(work, k, t, dealer, kings, queens_on, jacks);
            continue;
        }
        int64_t own_card = work[HELD_ROW + k];
        work[HELD_ROW + k] = swap ? target_card : own_card;
        work[HELD_ROW + t] = swap ? own_card : target_card;
        work[HELD_RANK_ROW + k] = swap ? target_rank : rank;
        work[HELD_RANK_ROW + t] = swap ? rank : target_rank;
        work[EXCHANGED_ROW + k] = swap;
        received_by = swap ? t : received_by;
        rank_received = swap ? rank : rank_received;
        rank_given = swap ? target_rank : rank_given;
    }

    if (!ended && work[HELD_RANK_ROW + dealer] != TOP_RANK && !(face_rules_on && work[LOST_TURN_ROW + dealer])) {
        int64_t seat = work[SEAT_ROW + dealer];
        int cut;
        if (work[INFORMED_ROW + seat] && received_by == dealer)
            cut = rank_received < rank_given;
        else
            cut = threshold_says_swap(work[HELD_RANK_ROW + dealer], work[THRESHOLD_ROW + seat],
                                      policy[seat * N_POLICY + THRESHOLD_MIX], st);
        if (cut) {
            int64_t cut_card = work[DEAL_ROW + m];
            if (!(work[RANK_ROW + cut_card] == TOP_RANK && work[RULES_ROW + R_DEALER_KING_BLOCK])) {
                work[HELD_ROW + dealer] = cut_card;
                work[HELD_RANK_ROW + dealer] = work[RANK_ROW + cut_card];
                work[EXCHANGED_ROW + dealer] = 1;
            }
        }
    }
    return showdown(work, m);
}

/* simulate_hands_nb: fills out[(n + 1) * HAND_WIDTH]. */
static void simulate_hands(const int64_t *rules, const double *policy, int64_t n, uint64_t seed, int64_t first,
                           int64_t count, int64_t *out) {
    memset(out, 0, sizeof(int64_t) * (size_t)((n + 1) * HAND_WIDTH));
    int64_t *work = new_chase_workspace(rules, policy, n);
    for (int64_t seat = 0; seat < n; seat++) work[SEAT_ROW + seat] = seat;
    uint64_t key0 = seed_key(seed);
    for (int64_t hand = first; hand < first + count; hand++) {
        state_t st = stream(key0, hand);
        deal_prefix(work, n + 1, &st);
        int64_t losers = play_round(work, policy, n, &st);
        for (int64_t seat = 0; seat < n; seat++) {
            out[seat * HAND_WIDTH + 0] += work[LOSE_ROW + seat];
            out[seat * HAND_WIDTH + 1] += work[EXCHANGED_ROW + seat];
        }
        out[n * HAND_WIDTH + 0] += losers;
        out[n * HAND_WIDTH + 1] += losers * losers;
        if (losers == 0) out[n * HAND_WIDTH + 2] += 1;
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
