/* sv_addrs.h: what the server keeps per IPv4 address (generation budget, puzzle memory, failed joins), in a
 * bounded table. */
#ifndef MR_SV_ADDRS_H
#define MR_SV_ADDRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sv_limit.h"

/* Limits per client are easy to dodge with more connections; these count
 * per source address. The table has a fixed size: an address is looked up
 * in a window of SV_ADDRS_PROBE slots, and a new one takes over the least
 * recently seen idle entry there (one with nothing outstanding), so memory
 * stays bounded however many addresses there are. */
#define SV_ADDRS_PROBE 8
/* An address's generation budget is this many players' (--gen-rate, --gen-burst). */
#define SV_ADDR_GEN_SHARE 4

typedef struct sv_addr {
    bool used;
    uint32_t ip; /* network order */
    uint64_t seen_ms;
    sv_budget gen;          /* generation CPU */
    int gen_pending;        /* jobs queued or running */
    size_t puzzle_bytes;    /* puzzle memory held by rooms its clients made */
    int rooms;              /* rooms counted in puzzle_bytes */
    uint32_t join_fails;    /* failed JOIN / RESUME / WATCH, less one per SV_JOIN_FORGET_MS */
    uint64_t join_drain_ms; /* when join_fails last lost one (or was last 0) */
    uint64_t join_next_ms;  /* JOIN / RESUME / WATCH refused (backing off) before this */
    int players;            /* its connections past HELLO, on every game host (--max-per-ip) */
} sv_addr;

/* Failed joins are forgotten one per SV_JOIN_FORGET_MS, never all at once:
 * a JOIN that lands (on a room the guesser holds itself) forgives nothing
 * (docs/reliability.md, section 6). An entry that still counts failures
 * is never taken over by another address. */
#define SV_JOIN_FORGET_MS 30000

typedef struct sv_addrs sv_addrs;

sv_addrs *sv_addrs_create(int cap);
void sv_addrs_destroy(sv_addrs *t); /* accepts NULL */
/* The entry of ip (created if needed), or NULL when every entry in its
 * window is busy (the caller refuses what it was asked: BUSY). */
sv_addr *sv_addrs_get(sv_addrs *t, uint32_t ip, uint64_t now_ms, int burst_ms);
/* The entry of ip if it exists, else NULL (no creation). */
sv_addr *sv_addrs_find(sv_addrs *t, uint32_t ip);
/* a's failed joins at now_ms, after forgetting those SV_JOIN_FORGET_MS
 * has paid for since the last call. */
uint32_t sv_addr_join_fails(sv_addr *a, uint64_t now_ms);

#endif
