/* sv_record.c: every finished game of a room becomes a record for the match store (handed to its thread). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "st_engine.h"
#include "st_writer.h"
#include "sv_internal.h"
#include "sv_log.h"
#include "sv_loglimit.h"
#include "sv_record.h"

void sv_set_store(sv_t *sv, struct st_writer *w)
{
    sv->store = w;
}

void sv_record_countdown(sv_t *sv, sv_room *room)
{
    for (int s = 0; s < MATCH_SLOTS; s++)
        snprintf(room->rec_names[s], sizeof room->rec_names[s], "%s", match_name(room->m, s));
    /* The race starts at start_ms on the server's monotonic clock; the
     * record keeps the wall clock of that moment. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t wall_now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    room->rec_start_utc_ms = wall_now + ((int64_t)match_start_ms(room->m) - (int64_t)sv->now_ms);
}

/* The store's thread reports what it could not store in its statistics;
 * the game loop logs it once a second (sv_record_poll, rate limited) and
 * at each record. */
static void log_store_failures(sv_t *sv)
{
    st_writer_stats ws;
    st_writer_stats_get(sv->store, &ws);
    if (ws.spooled != sv->rec.spooled_seen) { /* a network database out of reach (docs/storage.md) */
        sv_logf_limited(&sv->log, &sv->rec.lim, sv->now_ms, SV_LOG_WARN, "record_spooled",
                        "match database out of reach: %llu more records kept in the spool (%d waiting): %s",
                        (unsigned long long)(ws.spooled - sv->rec.spooled_seen), ws.spool_waiting,
                        ws.last_error);
        sv->rec.spooled_seen = ws.spooled;
        sv->rec.spool_logged = true;
    } else if (sv->rec.spool_logged && ws.spool_waiting == 0) {
        sv_loge(&sv->log, SV_LOG_INFO, "record_spool_sent", NULL, NULL, NULL,
                "match database back: the records in the spool have been sent");
        sv->rec.spool_logged = false;
    }
    if (ws.failed == sv->rec.failed_seen)
        return;
    sv_logf_limited(&sv->log, &sv->rec.lim, sv->now_ms, SV_LOG_WARN, "record_failed",
                    "match store: %llu records could not be stored: %s",
                    (unsigned long long)(ws.failed - sv->rec.failed_seen), ws.last_error);
    sv->rec.failed_seen = ws.failed;
}

void sv_record_poll(sv_t *sv)
{
    if (sv->store)
        log_store_failures(sv);
}

void sv_record_stopping(sv_t *sv)
{
    if (!sv->store)
        return;
    st_writer_sync(sv->store); /* every record queued so far is stored or spooled */
    log_store_failures(sv);
    st_writer_stats ws;
    st_writer_stats_get(sv->store, &ws);
    if (ws.spool_waiting > 0)
        sv_loge(&sv->log, SV_LOG_WARN, "record_spool_left", NULL, NULL, NULL,
                "stopping with %d records still in the spool (the database is out of reach: %s); the "
                "next start sends them",
                ws.spool_waiting, ws.last_error);
}

/* The record is made here, on the game loop (a copy of the move logs,
 * O(moves), once per game); everything that touches the disk happens on
 * the store's thread. */
void sv_record_finished(sv_t *sv, sv_room *room)
{
    if (!sv->store)
        return;
    log_store_failures(sv);
    const char *names[MATCH_SLOTS] = {room->rec_names[0], room->rec_names[1]};
    const char *why = NULL;
    st_match *r = st_from_match(room->m, names, "server", room->rec_start_utc_ms, &why);
    if (r && st_writer_put(sv->store, r)) {
        sv->st.records_queued++;
        return;
    }
    sv->st.records_dropped++;
    sv_logf_limited(&sv->log, &sv->rec.lim, sv->now_ms, SV_LOG_WARN, "record_dropped",
                    "room %s: the record of game %d is lost: %s", room->code, match_game_no(room->m),
                    why ? why : "the store's queue is full (is the disk too slow?)");
}
