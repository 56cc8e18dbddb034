/* sv_loglimit.c: a fixed-window line budget per kind of log line. */
#include "sv_loglimit.h"

#include <stdarg.h>
#include <stdio.h>

#include "sv.h"

void sv_logf_limited(const sv_log *lg, sv_loglimit *lim, uint64_t now_ms, int level, const char *event,
                     const char *fmt, ...)
{
    if (!lg || level > lg->level || level <= SV_LOG_OFF)
        return;
    if (now_ms - lim->window_start_ms >= SV_LOGLIMIT_WINDOW_MS || now_ms < lim->window_start_ms) {
        lim->window_start_ms = now_ms;
        lim->lines = 0;
    }
    if (lim->lines >= SV_LOGLIMIT_BURST) {
        lim->dropped++;
        lim->dropped_total++;
        return;
    }
    lim->lines++;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (lim->dropped)
        sv_loge(lg, level, event, NULL, NULL, NULL, "%s (and %u similar lines left out)", msg, lim->dropped);
    else
        sv_loge(lg, level, event, NULL, NULL, NULL, "%s", msg);
    lim->dropped = 0;
}
