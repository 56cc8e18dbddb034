/* token_attack.h: the attack of issue 14 on resume tokens, for tests: from one token, work out the match
 * rng seed the old code drew it from, and predict the opponent's token. */
#ifndef MR_TOKEN_ATTACK_H
#define MR_TOKEN_ATTACK_H

#include <stdint.h>
#include <string.h>

#include "match.h"
#include "rng.h"

/* Before WIRE_VERSION 2 a token was the match rng's next 64-bit output, and
 * the match rng was rng_seed(rng_init): splitmix64 and xoshiro256**'s
 * output function are both invertible, so the first token gives rng_init,
 * and rng_init gives every later token and rematch seed. These undo them. */
static uint64_t ta_inverse_odd(uint64_t a)
{
    uint64_t x = a; /* Newton: each step doubles the correct low bits */
    for (int i = 0; i < 6; i++)
        x *= 2 - a * x;
    return x;
}

static uint64_t ta_unxorshift(uint64_t z, int k)
{
    uint64_t x = z;
    for (int i = 0; i < 64 / k + 1; i++)
        x = z ^ (x >> k);
    return x;
}

/* The splitmix64 state x (after its add) that output z. */
static uint64_t ta_unsplitmix(uint64_t z)
{
    z = ta_unxorshift(z, 31);
    z *= ta_inverse_odd(0x94d049bb133111ebull);
    z = ta_unxorshift(z, 27);
    z *= ta_inverse_odd(0xbf58476d1ce4e5b9ull);
    return ta_unxorshift(z, 30);
}

/* rng_init from the first output of rng_seed(rng_init). */
static uint64_t ta_seed_from_first(uint64_t out)
{
    uint64_t s1 = out * ta_inverse_odd(9);
    s1 = (s1 >> 7) | (s1 << 57);
    s1 *= ta_inverse_odd(5);
    return ta_unsplitmix(s1) - 2 * 0x9e3779b97f4a7c15ull;
}

/* The first 8 bytes of a token as the old code's u64 (either byte order). */
static uint64_t ta_token_u64(const match_token_t *t, int big_endian)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | t->b[big_endian ? i : 7 - i];
    return v;
}

/* What the old code would make the opponent's token, from the attacker's
 * own (slot 0, drawn first): the second output of the recovered rng. */
static uint64_t ta_predict_second(uint64_t first)
{
    rng_t r;
    rng_seed(&r, ta_seed_from_first(first));
    rng_u64(&r);
    return rng_u64(&r);
}

#endif
