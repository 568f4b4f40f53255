/* The parts of sims.core that both C references need, line for line: the per-hand
 * streams (sims.core.rng), the deal (sims.core.deck) and the command-line list parser.
 * Included by chase_ace.c and ace_chasing.c; see README.md in this folder. */

#ifndef PERF_CORE_H
#define PERF_CORE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- sims.core.rng ------------------------------------------------------------------ */

#define GOLDEN 0x9E3779B97F4A7C15ULL

typedef struct {
    uint64_t s0, s1, s2, s3;
} state_t;

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t seed_key(uint64_t seed) { return mix64(seed); }

static inline state_t stream(uint64_t key0, int64_t index) {
    uint64_t key = mix64(key0 ^ (uint64_t)index);
    state_t st;
    key += GOLDEN;
    st.s0 = mix64(key);
    key += GOLDEN;
    st.s1 = mix64(key);
    key += GOLDEN;
    st.s2 = mix64(key);
    key += GOLDEN;
    st.s3 = mix64(key);
    return st;
}

static inline uint64_t next_u64(state_t *st) {
    uint64_t s0 = st->s0, s1 = st->s1, s2 = st->s2, s3 = st->s3;
    uint64_t x = s1 * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s1 << 17;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 45) | (s3 >> 19);
    st->s0 = s0;
    st->s1 = s1;
    st->s2 = s2;
    st->s3 = s3;
    return result;
}

static inline int64_t below(state_t *st, int64_t n) {
    uint64_t bound = (uint64_t)n;
    uint64_t word = next_u64(st);
    uint64_t product = (word >> 32) * bound;
    uint64_t low = product & 0xFFFFFFFFULL;
    if (low < bound) {
        uint64_t threshold = ((1ULL << 32) - bound) % bound;
        while (low < threshold) {
            word = next_u64(st);
            product = (word >> 32) * bound;
            low = product & 0xFFFFFFFFULL;
        }
    }
    return (int64_t)(product >> 32);
}

static inline double uniform(state_t *st) {
    uint64_t word = next_u64(st);
    return (double)(word >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- sims.core.deck ----------------------------------------------------------------- */

#define N_CARDS 52
#define ROW N_CARDS
#define DECK_ROW (0 * ROW)
#define DEAL_ROW (1 * ROW)
#define FIRST_GAME_ROW (2 * ROW)
#define ACE 0
#define JACK 10
#define QUEEN 11
#define KING 12

static inline void deal_prefix(int64_t *work, int64_t m, state_t *st) {
    for (int64_t card = 0; card < N_CARDS; card++) work[DECK_ROW + card] = card;
    for (int64_t k = 0; k < m; k++) {
        int64_t j = below(st, N_CARDS - k);
        j += k;
        int64_t card = work[DECK_ROW + j];
        work[DECK_ROW + j] = work[DECK_ROW + k];
        work[DECK_ROW + k] = card;
        work[DEAL_ROW + k] = card;
    }
}

/* ---- command line ------------------------------------------------------------------- */

/* Parse "a,b,c" into exactly `want` numbers; returns 1 on success. */
static int parse_list(const char *text, double *values, int want) {
    char *copy = strdup(text), *save = NULL;
    int got = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (got == want) {
            got++;
            break;
        }
        values[got++] = strtod(tok, NULL);
    }
    free(copy);
    return got == want;
}

#endif
