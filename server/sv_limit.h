/* sv_limit.h: per-peer message-rate token bucket (integer, handed the time). */
#ifndef MR_SV_LIMIT_H
#define MR_SV_LIMIT_H

#include <stdbool.h>
#include <stdint.h>

/* Tokens are counted in thousandths of a message so that any rate in
 * messages per second refills exactly with millisecond time. */
typedef struct sv_bucket {
    uint32_t milli; /* tokens x 1000 */
    uint64_t last_ms;
} sv_bucket;

/* A full bucket at now_ms. */
void sv_bucket_init(sv_bucket *b, uint64_t now_ms, int burst);
/* Refills for the time since the last call (rate per second, capped at burst)
 * and takes one token: true if the message may pass. */
bool sv_bucket_take(sv_bucket *b, uint64_t now_ms, int rate, int burst);

#endif
