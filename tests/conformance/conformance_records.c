/* conformance_records.c: one check per MUST of the match records (section 3, Match records): RECENT_REQUEST,
 * REPLAY_REQUEST, the per-client limit, a server that keeps none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

/* The answer of type to request req, skipping anything else. */
static bool rec_answer(raw_client *c, int type, uint32_t req, wire_msg *m)
{
    for (int i = 0; i < 50; i++) {
        if (!raw_wait(c, type, m, WAIT_MS))
            return false;
        uint32_t got = type == WIRE_REPLAY_CHUNK  ? m->replay.req
                       : type == WIRE_RECENT_LIST ? m->recent.req
                                                  : m->best.req;
        if (got == req)
            return true;
    }
    return false;
}

static void send_recent(raw_client *c, uint32_t req, uint64_t before, int limit)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_RECENT_REQUEST;
    m.recent_req = (wire_recent_req){req, before, (uint8_t)limit};
    raw_send_msg(c, &m);
}

static void send_replay_req(raw_client *c, uint32_t req, uint64_t id, uint32_t offset)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_REPLAY_REQUEST;
    m.replay_req = (wire_replay_req){req, id, offset};
    raw_send_msg(c, &m);
}

void check_records(const char *bin)
{
    /* A game ends (a forfeit), then it is listed: the store commits within
     * milliseconds, so ask a few times. */
    raw_client *a = NULL, *b = NULL;
    wire_match_start sa, sb;
    bool on = race_on("maze:5x5:easy#12", &a, &b, &sa, &sb);
    if (on)
        send_type(b, WIRE_LEAVE_ROOM);
    wire_msg m;
    bool ended = on && raw_wait(a, WIRE_MATCH_END, &m, WAIT_MS);
    bool listed = false, echoed = true;
    uint64_t id = 0;
    for (int i = 0; ended && i < 20 && !listed; i++) {
        send_recent(a, 1000u + (uint32_t)i, 0, 1);
        if (!rec_answer(a, WIRE_RECENT_LIST, 1000u + (uint32_t)i, &m)) {
            echoed = false;
            break;
        }
        listed = m.recent.status == 0 && m.recent.count == 1 &&
                 strcmp(m.recent.e[0].player[0].name, "dan") == 0 &&
                 strcmp(m.recent.e[0].game_id, "maze:5x5:easy#12") == 0 &&
                 m.recent.e[0].ending == MATCH_END_FORFEIT && m.recent.e[0].winner == 0;
        id = listed ? m.recent.e[0].match_id : 0;
        if (!listed)
            raw_pump(a, 50, false);
    }
    check("REC-1", ended && echoed && listed,
          "a finished game (dan wins by forfeit) is listed by RECENT_REQUEST; every answer echoes its req");

    /* Its replay, in chunks, is the replay text. */
    bool replay = false;
    if (listed) {
        send_replay_req(a, 7, id, 0);
        replay = rec_answer(a, WIRE_REPLAY_CHUNK, 7, &m) && m.replay.status == 0 && m.replay.offset == 0 &&
                 m.replay.count == m.replay.total && m.replay.match_id == id &&
                 strncmp(m.replay.bytes, "mazerace-replay ", 16) == 0;
    }
    check("REC-1", replay, "REPLAY_REQUEST of that match gets its replay text (\"mazerace-replay ...\")");

    send_replay_req(a, 8, (uint64_t)1 << 62, 0);
    check("REC-3",
          rec_answer(a, WIRE_REPLAY_CHUNK, 8, &m) && m.replay.status == WIRE_ERR_NO_MATCH &&
              m.replay.total == 0 && m.replay.count == 0,
          "REPLAY_REQUEST of a match that does not exist gets status 19 NO_MATCH");

    /* Eight questions at once: at most 4 are taken, the rest are BUSY, and every one gets its answer. */
    for (uint32_t r = 0; r < 8; r++)
        send_recent(a, 2000 + r, 0, 10);
    int answered = 0, busy = 0;
    for (int i = 0; i < 8; i++) {
        if (!raw_wait(a, WIRE_RECENT_LIST, &m, WAIT_MS))
            break;
        answered += m.recent.req >= 2000 && m.recent.req < 2008;
        busy += m.recent.status == WIRE_ERR_BUSY;
    }
    check("REC-4", answered == 8 && busy >= 1 && busy <= 4,
          "8 RECENT_REQUESTs at once: all 8 answered, %d of them BUSY (a client may have 4 unanswered)",
          busy);
    raw_close(a);
    raw_close(b);

    /* A server that keeps no records says so. */
    stop_server();
    port = must_start_server(bin, "none", "off");
    raw_client *c = port ? hello_client("fay") : NULL;
    bool none = false;
    if (c) {
        send_recent(c, 9, 0, 5);
        none = rec_answer(c, WIRE_RECENT_LIST, 9, &m) && m.recent.status == WIRE_ERR_NO_RECORDS &&
               m.recent.count == 0;
    }
    check("REC-2", none, "a server run with --db none answers RECENT_REQUEST with status 18 NO_RECORDS");
    raw_close(c);
}
