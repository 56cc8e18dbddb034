/* sv_loglimit.h: rate limit for log lines a client can trigger at will (refused joins, socket errors). */
#ifndef MR_SV_LOGLIMIT_H
#define MR_SV_LOGLIMIT_H

#include <stdint.h>

#include "sv_log.h"
#include "sv_loglimit_types.h"

/* sv_loge (event: the JSON event name) through the limiter at the server's time now_ms. */
void sv_logf_limited(const sv_log *lg, sv_loglimit *lim, uint64_t now_ms, int level, const char *event,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* The same with a client's JSON fields (sv_log.h). */
void sv_logx_limited(const sv_log *lg, sv_loglimit *lim, uint64_t now_ms, int level, const char *event,
                     const sv_log_fields *f, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

#endif
