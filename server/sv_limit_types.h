/* sv_limit_types.h: the rate limits' state (sv_limit.h): a message token bucket, a CPU budget. Data only. */
#ifndef MR_SV_LIMIT_TYPES_H
#define MR_SV_LIMIT_TYPES_H

#include <stdint.h>

/* Tokens are counted in thousandths of a message so that any rate in
 * messages per second refills exactly with millisecond time. */
typedef struct sv_bucket {
    uint32_t milli; /* tokens x 1000 */
    uint64_t last_ms;
} sv_bucket;

/* A budget of CPU microseconds refilled at rate_ms milliseconds per second
 * up to burst_ms (the generation budget). A job is admitted when the budget
 * covers its estimate; what it really cost is charged afterwards, so the
 * budget may go below zero (a debt the refill pays back first). */
typedef struct sv_budget {
    int64_t us;
    uint64_t last_ms;
} sv_budget;

#endif
