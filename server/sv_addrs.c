/* sv_addrs.c: a fixed open-addressing table of per-address records with least-recently-seen takeover. */
#include "sv_addrs.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

struct sv_addrs {
    uint32_t mask;
    sv_addr e[]; /* mask + 1 entries, in the same allocation */
};

sv_addrs *sv_addrs_create(int cap)
{
    uint32_t n = 64;
    while (n < (uint32_t)cap)
        n <<= 1;
    sv_addrs *t = mr_alloc(1, sizeof *t + n * sizeof t->e[0]);
    t->mask = n - 1;
    return t;
}

void sv_addrs_destroy(sv_addrs *t)
{
    free(t);
}

static uint32_t home(const sv_addrs *t, uint32_t ip)
{
    return (ip * 2654435761u) >> 7 & t->mask;
}

uint32_t sv_addr_join_fails(sv_addr *a, uint64_t now_ms)
{
    if (a->join_fails == 0 || now_ms < a->join_drain_ms) {
        if (a->join_fails == 0)
            a->join_drain_ms = now_ms;
        return a->join_fails;
    }
    uint64_t n = (now_ms - a->join_drain_ms) / SV_JOIN_FORGET_MS;
    if (n >= a->join_fails) {
        a->join_fails = 0;
        a->join_drain_ms = now_ms;
    } else {
        a->join_fails -= (uint32_t)n;
        a->join_drain_ms += n * SV_JOIN_FORGET_MS;
    }
    return a->join_fails;
}

/* Nothing outstanding: no generation, no rooms, no player connected, no
 * failed joins still counted and no backoff running (forgetting those
 * would hand a guesser with a few addresses in one window fresh free
 * tries, or one address more players than --max-per-ip). */
static bool idle(sv_addr *a, uint64_t now_ms)
{
    return a->gen_pending == 0 && a->rooms == 0 && a->players == 0 && now_ms >= a->join_next_ms &&
           sv_addr_join_fails(a, now_ms) == 0;
}

sv_addr *sv_addrs_find(sv_addrs *t, uint32_t ip)
{
    for (uint32_t k = 0, i = home(t, ip); k < SV_ADDRS_PROBE; k++, i = (i + 1) & t->mask)
        if (t->e[i].used && t->e[i].ip == ip)
            return &t->e[i];
    return NULL;
}

sv_addr *sv_addrs_get(sv_addrs *t, uint32_t ip, uint64_t now_ms, int burst_ms)
{
    sv_addr *a = sv_addrs_find(t, ip);
    if (!a) {
        /* A free entry, else the least recently seen idle one. */
        for (uint32_t k = 0, i = home(t, ip); k < SV_ADDRS_PROBE; k++, i = (i + 1) & t->mask) {
            sv_addr *e = &t->e[i];
            if (!e->used) {
                a = e;
                break;
            }
            if (idle(e, now_ms) && (!a || e->seen_ms < a->seen_ms))
                a = e;
        }
        if (!a)
            return NULL;
        memset(a, 0, sizeof *a);
        a->used = true;
        a->ip = ip;
        sv_budget_init(&a->gen, now_ms, burst_ms);
    }
    a->seen_ms = now_ms;
    return a;
}
