/* rng.h: deterministic random numbers with explicit state (xoshiro256**). */
#ifndef MR_RNG_H
#define MR_RNG_H

#include <stdint.h>

/* The same seed gives the same sequence on every platform and build: only
 * 64-bit integer arithmetic, no floating point, no global state. Anything
 * that shapes a puzzle draws from an rng_t seeded from the game ID; cosmetic
 * randomness (animations) uses a separate rng_t so it never shifts a puzzle. */
typedef struct rng_t {
    uint64_t s[4];
} rng_t;

void rng_seed(rng_t *r, uint64_t seed);

/* The next 64 bits. Inline: the maze's traversal draws once per two frontier
 * pops, and a call there costs a few percent. */
static inline uint64_t rng_u64(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

uint32_t rng_u32(rng_t *r);
/* Uniform integer in [0, n); n must be >= 1 (asserted: a caller bug). */
uint32_t rng_below(rng_t *r, uint32_t n);
/* Uniform integer in [lo, hi], lo <= hi. */
int rng_range(rng_t *r, int lo, int hi);
/* Fisher-Yates shuffle of n ints. */
void rng_shuffle_int(rng_t *r, int *a, int n);

#endif
