/* sv_drain.c: draining (SIGTERM): no new rooms or races, stop once the races end or at a deadline. */
#include "sv_drain.h"
#include "sv_internal.h"
#include "sv_log.h"
#include "sv_play.h"

void sv_request_drain(sv_t *sv)
{
    atomic_store(&sv->drain.want, 1);
}

bool sv_draining(const sv_t *sv)
{
    return sv->drain.on || atomic_load(&((sv_t *)sv)->drain.want) != 0;
}

/* Draining: no new rooms or races (sv_game.c refuses them with
 * DRAINING); the stop comes once no race runs, or at the deadline. */
bool sv_drain_step(sv_t *sv)
{
    sv_drain *d = &sv->drain;
    if (!d->on) {
        d->on = true;
        d->deadline_ms = sv->now_ms + (uint64_t)sv->cfg.drain_timeout_ms;
        d->next_check_ms = sv->now_ms;
        sv_loge(&sv->log, SV_LOG_INFO, "draining", NULL, NULL, NULL,
                "draining: no new rooms or races; %d races running, stopping when they end or in %d.%03d s",
                sv_play_running(sv, false), sv->cfg.drain_timeout_ms / 1000, sv->cfg.drain_timeout_ms % 1000);
    }
    if (sv->now_ms >= d->deadline_ms) {
        int n = sv_play_running(sv, true);
        if (n > 0)
            sv_loge(&sv->log, SV_LOG_INFO, "drain_timeout", NULL, NULL, NULL,
                    "drain time-out: %d races cut short", n);
        return true;
    }
    if (sv->now_ms < d->next_check_ms)
        return false;
    d->next_check_ms = sv->now_ms + 20; /* the check walks every room slot */
    if (sv_play_running(sv, false) == 0) {
        sv_loge(&sv->log, SV_LOG_INFO, "drained", NULL, NULL, NULL, "drained: no race running");
        return true;
    }
    return false;
}
