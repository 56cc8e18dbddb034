/* sv_limit.c: the token bucket behind the per-peer message-rate limit. */
#include "sv_limit.h"

void sv_bucket_init(sv_bucket *b, uint64_t now_ms, int burst)
{
    b->milli = burst > 0 ? (uint32_t)burst * 1000u : 0;
    b->last_ms = now_ms;
}

bool sv_bucket_take(sv_bucket *b, uint64_t now_ms, int rate, int burst)
{
    uint64_t cap = burst > 0 ? (uint64_t)burst * 1000u : 0;
    if (now_ms > b->last_ms) {
        /* Clamp before multiplying so a long idle gap cannot overflow. */
        uint64_t dt = now_ms - b->last_ms;
        if (dt > 3600u * 1000u)
            dt = 3600u * 1000u;
        uint64_t t = b->milli + dt * (uint64_t)(rate > 0 ? rate : 0);
        b->milli = (uint32_t)(t > cap ? cap : t);
        b->last_ms = now_ms;
    }
    if (b->milli < 1000u)
        return false;
    b->milli -= 1000u;
    return true;
}
