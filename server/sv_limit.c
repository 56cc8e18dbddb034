/* sv_limit.c: the token bucket behind the per-peer message-rate limit, and the generation CPU budget. */
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

void sv_budget_init(sv_budget *b, uint64_t now_ms, int burst_ms)
{
    b->us = (int64_t)burst_ms * 1000;
    b->last_ms = now_ms;
}

bool sv_budget_covers(sv_budget *b, uint64_t now_ms, int rate_ms, int burst_ms, uint64_t est_us)
{
    if (now_ms > b->last_ms) {
        uint64_t dt = now_ms - b->last_ms;
        if (dt > 3600u * 1000u)
            dt = 3600u * 1000u;
        int64_t t = b->us + (int64_t)(dt * (uint64_t)(rate_ms > 0 ? rate_ms : 0));
        int64_t cap = (int64_t)burst_ms * 1000;
        b->us = t > cap ? cap : t;
        b->last_ms = now_ms;
    }
    return b->us >= (int64_t)est_us;
}

void sv_budget_charge(sv_budget *b, int64_t us)
{
    b->us -= us;
}
