/* bt_records.c: mazerace-bot's record commands: list a server's newest matches, fetch one replay. */
#include "bt_records.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cl_net.h"
#include "util.h"

static uint64_t now_ms(void)
{
    return mr_now_us() / 1000u;
}

/* The event of type answering req, or a failure (false, reason printed). */
static bool wait_for(cl_net_t *n, int type, uint32_t req, uint64_t deadline, cl_net_event *ev)
{
    while (now_ms() < deadline) {
        while (cl_net_poll(n, now_ms(), ev)) {
            if (ev->type == type && (!req || ev->req == req))
                return true;
            if (ev->type == CL_EV_REFUSED || ev->type == CL_EV_DISCONNECTED) {
                fprintf(stderr, "mazerace-bot: %s\n", ev->text);
                return false;
            }
        }
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    fprintf(stderr, "mazerace-bot: no answer from the server in time\n");
    return false;
}

static const char *status_text(int code)
{
    return code == WIRE_ERR_NO_RECORDS ? "the server keeps no match records"
           : code == WIRE_ERR_NO_MATCH ? "no such match on the server"
           : code == WIRE_ERR_BUSY     ? "the server is busy, try again"
                                       : "the server could not answer";
}

/* The words of mazerace-server --list-matches (st_ending_text). */
static const char *ending_word(int ending)
{
    static const char *const t[] = {"solved", "forfeit", "both_left", "aborted"};
    return MR_NAME_OF(t, ending, "?");
}

int bt_records_run(const char *host, int port, int list_n, uint64_t replay_id, double timeout_s)
{
    const char *err = NULL;
    cl_net_t *n = cl_net_create("records", &err);
    if (!n) {
        fprintf(stderr, "mazerace-bot: %s\n", err);
        return 1;
    }
    uint64_t deadline = now_ms() + (uint64_t)(timeout_s * 1000);
    cl_net_event ev;
    int rc = 1;
    err = cl_net_connect(n, host, port, now_ms());
    if (err) {
        fprintf(stderr, "mazerace-bot: %s\n", err);
    } else if (wait_for(n, CL_EV_CONNECTED, 0, deadline, &ev)) {
        if (replay_id) {
            if (wait_for(n, CL_EV_REPLAY, cl_net_fetch_replay(n, replay_id), deadline, &ev)) {
                if (ev.code)
                    fprintf(stderr, "mazerace-bot: match %llu: %s\n", (unsigned long long)replay_id,
                            status_text(ev.code));
                else if (fwrite(ev.replay, 1, ev.replay_len, stdout) == ev.replay_len && fflush(stdout) == 0)
                    rc = 0;
            }
        } else {
            /* Pages of WIRE_RECENT_MAX until list_n matches or the end. */
            uint64_t before = 0;
            int shown = 0;
            rc = 0;
            printf("# id\tstart_utc\tgame_id\tplayer1\tplayer2\twinner\ttime_ms\tmoves\tending\n");
            while (shown < list_n) {
                int want = list_n - shown < WIRE_RECENT_MAX ? list_n - shown : WIRE_RECENT_MAX;
                if (!wait_for(n, CL_EV_RECENT, cl_net_request_recent(n, before, want), deadline, &ev)) {
                    rc = 1;
                    break;
                }
                if (ev.code) {
                    fprintf(stderr, "mazerace-bot: %s\n", status_text(ev.code));
                    rc = 1;
                    break;
                }
                const wire_recent_list *l = ev.recent;
                for (int i = 0; i < l->count; i++, shown++) {
                    const wire_recent_entry *e = &l->e[i];
                    char when[40];
                    mr_utc_text((int64_t)e->start_utc_ms, when, sizeof when);
                    printf("%llu\t%s\t%s\t%s\t%s\t%s\t%u/%u\t%u/%u\t%s\n", (unsigned long long)e->match_id,
                           when, e->game_id[0] ? e->game_id : "-", e->player[0].name, e->player[1].name,
                           e->winner < 2 ? e->player[e->winner].name : "-", e->player[0].time_ms,
                           e->player[1].time_ms, e->player[0].moves, e->player[1].moves,
                           ending_word(e->ending));
                }
                if (!l->next_before || l->count == 0)
                    break;
                before = l->next_before;
            }
        }
    }
    cl_net_destroy(n);
    return rc;
}
