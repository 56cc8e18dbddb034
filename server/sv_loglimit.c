/* sv_loglimit.c: a fixed-window line budget per kind of log line. */
#include "sv_loglimit.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "sv.h"

/* True when the window has room for one more line (the line must then be
 * written); counts the line left out otherwise. */
static bool take(const sv_log *lg, sv_loglimit *lim, uint64_t now_ms, int level)
{
    if (!lg || level > lg->level || level <= SV_LOG_OFF)
        return false;
    if (now_ms - lim->window_start_ms >= SV_LOGLIMIT_WINDOW_MS || now_ms < lim->window_start_ms) {
        lim->window_start_ms = now_ms;
        lim->lines = 0;
    }
    if (lim->lines >= SV_LOGLIMIT_BURST) {
        lim->dropped++;
        lim->dropped_total++;
        return false;
    }
    lim->lines++;
    return true;
}

/* The line, if the window has room for it, with the count of lines left out before it. */
static void put(const sv_log *lg, sv_loglimit *lim, uint64_t now_ms, int level, const char *event,
                const sv_log_fields *f, const char *fmt, va_list ap)
{
    if (!take(lg, lim, now_ms, level))
        return;
    char msg[400];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (lim->dropped)
        sv_logx(lg, level, event, f, "%s (and %u similar lines left out)", msg, lim->dropped);
    else
        sv_logx(lg, level, event, f, "%s", msg);
    lim->dropped = 0;
}

void sv_logf_limited(const sv_log *lg, sv_loglimit *lim, uint64_t now_ms, int level, const char *event,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put(lg, lim, now_ms, level, event, NULL, fmt, ap);
    va_end(ap);
}

void sv_logx_limited(const sv_log *lg, sv_loglimit *lim, uint64_t now_ms, int level, const char *event,
                     const sv_log_fields *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put(lg, lim, now_ms, level, event, f, fmt, ap);
    va_end(ap);
}
