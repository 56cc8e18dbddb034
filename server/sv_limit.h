/* sv_limit.h: per-peer message-rate token bucket and CPU budgets (integer, handed the time). */
#ifndef MR_SV_LIMIT_H
#define MR_SV_LIMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "sv_limit_types.h" /* sv_bucket, sv_budget: what they count */

/* A full bucket at now_ms. */
void sv_bucket_init(sv_bucket *b, uint64_t now_ms, int burst);
/* Refills for the time since the last call (rate per second, capped at burst)
 * and takes one token: true if the message may pass. */
bool sv_bucket_take(sv_bucket *b, uint64_t now_ms, int rate, int burst);

void sv_budget_init(sv_budget *b, uint64_t now_ms, int burst_ms);
/* Refills for the time since the last call; true if est_us is covered. */
bool sv_budget_covers(sv_budget *b, uint64_t now_ms, int rate_ms, int burst_ms, uint64_t est_us);
/* Takes us (positive) or gives back -us (negative). */
void sv_budget_charge(sv_budget *b, int64_t us);

#endif
