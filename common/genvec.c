/* genvec.c: the generator test vectors of docs/generation.md (printed by mazerace-gen vectors, checked by
 * test_genvec). */
#include "genvec.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ice.h"
#include "pipes.h"
#include "rng.h"
#include "sum.h"
#include "util.h"

/* Four kinds x three difficulties x three seeds at each kind's default
 * size, plus a few other sizes and the vectors that decide readings. */
const char *const genvec_ids[] = {
    "sum:5x4:easy#1",
    "sum:5x4:easy#2",
    "sum:5x4:easy#3",
    "sum:5x4:medium#1",
    "sum:5x4:medium#2",
    "sum:5x4:medium#3",
    "sum:5x4:hard#1",
    "sum:5x4:hard#2",
    "sum:5x4:hard#3",
    "sum:5x5:hard#42",
    "sum:10x10:easy#1",
    "sum:10x10:medium#1",
    "sum:10x10:hard#1",
    "sum:3x9:hard#5",
    "sum:7x6:medium#9",
    "maze:21x15:easy#1",
    "maze:21x15:easy#2",
    "maze:21x15:easy#3",
    "maze:21x15:medium#1",
    "maze:21x15:medium#2",
    "maze:21x15:medium#3",
    "maze:21x15:hard#1",
    "maze:21x15:hard#2",
    "maze:21x15:hard#3",
    "maze:5x5:easy#7",
    "maze:100x80:hard#9",
    "ice:25x20:easy#1",
    "ice:25x20:easy#2",
    "ice:25x20:easy#3",
    "ice:25x20:medium#1",
    "ice:25x20:medium#2",
    "ice:25x20:medium#3",
    "ice:25x20:hard#1",
    "ice:25x20:hard#2",
    "ice:25x20:hard#3",
    "ice:8x8:hard#5",
    "pipes:6x4:easy#1",
    "pipes:6x4:easy#2",
    "pipes:6x4:easy#3",
    "pipes:6x4:medium#1",
    "pipes:6x4:medium#2",
    "pipes:6x4:medium#3",
    "pipes:6x4:hard#1",
    "pipes:6x4:hard#2",
    "pipes:6x4:hard#3",
    "pipes:10x8:hard#18446744073709551615",
    "pipes:22x22:hard#4",
    "pipes:40x40:hard#5",
    /* Each decides a reading of the text that an implementer took the
     * other way (issue 25; tests/genspec/readings.py). */
    "maze:21x15:hard#24",
    "maze:250x250:medium#521",
    "maze:300x300:medium#167941",
    "pipes:6x4:medium#126",
    "pipes:10x8:hard#125",
    "sum:5x5:easy#43",
    "sum:3x4:medium#2910259",
    "ice:25x20:medium#10",
    /* Left-out size and difficulty: the kind's default size, medium. */
    "sum#7",
    "maze#7",
    "ice#7",
    "pipes#7",
    "pipes:8x6#3",
    NULL,
};

uint64_t pz_stream_seed(const pz_params *p, uint64_t seed)
{
    switch (p->kind) {
    case PZ_SUM:
        return sum_stream_seed(p, seed);
    case PZ_ICE:
        return ice_stream_seed(p, seed);
    case PZ_PIPES:
        return pipes_stream_seed(p, seed);
    default:
        return seed; /* maze: the seed itself */
    }
}

int genvec_rng_line(uint64_t seed, char *out, size_t len)
{
    rng_t r;
    char buf[512];
    int k = snprintf(buf, sizeof buf, "rng seed=%" PRIu64 " u64=", seed);
    rng_seed(&r, seed);
    for (int i = 0; i < 4; i++)
        k += snprintf(buf + k, sizeof buf - (size_t)k, "%s%016" PRIx64, i ? "," : "", rng_u64(&r));
    rng_seed(&r, seed);
    k += snprintf(buf + k, sizeof buf - (size_t)k, " u32=");
    for (int i = 0; i < 2; i++)
        k += snprintf(buf + k, sizeof buf - (size_t)k, "%s%08" PRIx32, i ? "," : "", rng_u32(&r));
    rng_seed(&r, seed);
    k += snprintf(buf + k, sizeof buf - (size_t)k, " below6=");
    for (int i = 0; i < 8; i++)
        k += snprintf(buf + k, sizeof buf - (size_t)k, "%s%u", i ? "," : "", (unsigned)rng_below(&r, 6));
    rng_seed(&r, seed);
    k += snprintf(buf + k, sizeof buf - (size_t)k, " range-9..9=");
    for (int i = 0; i < 8; i++)
        k += snprintf(buf + k, sizeof buf - (size_t)k, "%s%d", i ? "," : "", rng_range(&r, -9, 9));
    rng_seed(&r, seed);
    int a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    rng_shuffle_int(&r, a, 8);
    k += snprintf(buf + k, sizeof buf - (size_t)k, " shuffle8=");
    for (int i = 0; i < 8; i++)
        k += snprintf(buf + k, sizeof buf - (size_t)k, "%s%d", i ? "," : "", a[i]);
    return snprintf(out, len, "%s", buf);
}

char *genvec_puzzle_line(const char *seeded_id, char *err, size_t errlen)
{
    pz_id id;
    if (pz_id_parse(seeded_id, &id, err, errlen))
        return NULL;
    if (!id.has_seed || id.desc) {
        snprintf(err, errlen, "a vector needs a seeded game ID");
        return NULL;
    }
    /* ice and sum also give their effort counts: the readings of the effort
     * bounds are part of the spec, though no allowed ID comes near them. */
    const char *why = NULL, *count_name = NULL;
    long count = 0;
    pz_puzzle *pz;
    if (id.params.kind == PZ_ICE) {
        pz = ice_generate_counted(&id.params, id.seed, &why, &count);
        count_name = "work";
    } else if (id.params.kind == PZ_SUM) {
        int draws = 0;
        pz = sum_generate_counted(&id.params, id.seed, &why, &draws);
        count = draws;
        count_name = "draws";
    } else {
        pz = pz_kind_by_id(id.params.kind)->generate(&id.params, id.seed, &why);
    }
    if (!pz) {
        snprintf(err, errlen, "%s", why ? why : "could not build the puzzle");
        return NULL;
    }
    char *desc = pz_kind_of(pz)->encode_desc(pz);
    size_t dlen = strlen(desc);
    uint64_t stream = pz_stream_seed(&id.params, id.seed);
    rng_t r;
    rng_seed(&r, stream);
    uint64_t o[3];
    for (int i = 0; i < 3; i++)
        o[i] = rng_u64(&r);
    size_t cap = strlen(seeded_id) + 200 + GENVEC_DESC_SHOWN;
    char *line = mr_alloc(cap, 1);
    int k = snprintf(line, cap,
                     "%s stream=%016" PRIx64 " first=%016" PRIx64 ",%016" PRIx64 ",%016" PRIx64
                     " len=%zu fnv=%016" PRIx64,
                     seeded_id, stream, o[0], o[1], o[2], dlen, mr_hash64(desc, dlen));
    if (count_name)
        k += snprintf(line + k, cap - (size_t)k, " %s=%ld", count_name, count);
    if (dlen <= GENVEC_DESC_SHOWN)
        snprintf(line + k, cap - (size_t)k, " desc=%s", desc);
    free(desc);
    pz_kind_of(pz)->free_puzzle(pz);
    return line;
}
