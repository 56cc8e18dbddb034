/* rng.c: xoshiro256** seeded through splitmix64; Lemire's unbiased bounded draw. */
#include "rng.h"

#include <assert.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void rng_seed(rng_t *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

uint32_t rng_u32(rng_t *r)
{
    return (uint32_t)(rng_u64(r) >> 32);
}

uint32_t rng_below(rng_t *r, uint32_t n)
{
    assert(n >= 1);
    /* Lemire: multiply-shift with rejection of the biased low range. */
    uint64_t m = (uint64_t)rng_u32(r) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)rng_u32(r) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

int rng_range(rng_t *r, int lo, int hi)
{
    assert(lo <= hi);
    return lo + (int)rng_below(r, (uint32_t)((int64_t)hi - lo + 1));
}

void rng_shuffle_int(rng_t *r, int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)i + 1);
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
