/* conformance_race.c: one check per MUST of a race (moves, PROGRESS, MATCH_END), DESC_REQUEST, and the limits
 * (a full room, the message rate, the bad-message count). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

void check_race(void)
{
    raw_client *a = NULL, *b = NULL;
    wire_match_start sa, sb;
    bool on = race_on("maze:5x5:easy#11", &a, &b, &sa, &sb);
    check("RACE-0", on, "two players get a race on maze:5x5:easy#11");
    if (!on) {
        raw_close(a);
        raw_close(b);
        return;
    }
    wire_msg m;
    send_type(a, WIRE_REMATCH);
    check("STATE-2", next_error(a, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0),
          "REMATCH during a race gets ERROR 10 STATE");
    send_type(a, WIRE_READY);
    check("STATE-3", next_error(a, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0),
          "READY during a race gets ERROR 10 STATE");
    send_create_id(a, "maze:5x5:easy#1", 1);
    check("STATE-4", next_error(a, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0),
          "CREATE_ROOM in a room gets ERROR 10 STATE");

    char err[160];
    pz_puzzle *pz = pz_from_id("maze:5x5:easy#11", err, sizeof err);
    const pz_kind *k = pz_kind_of(pz);
    pz_move plan[128];
    int n = k->solve(pz, NULL, plan, (int)MR_ARRAY_LEN(plan));
    pz_state *st = k->new_state(pz);
    /* An illegal move, a legal one, then a type-4 move on a maze: one
     * answer each, in order. */
    pz_move wall = {PZ_MOVE_STEP, PZ_DOWN, 0, 0}; /* from the bottom-left start, down is the border */
    send_move(a, 10, wall);
    send_move(a, 11, plan[0]);
    send_move(a, 12, (pz_move){PZ_MOVE_RESTART, 0, 0, 0});
    bool r1 = raw_next(a, &m, WAIT_MS) && m.type == WIRE_REJECT && m.error.seq == 10 &&
              m.error.code == MATCH_REJ_ILLEGAL;
    bool r2 = raw_next(a, &m, WAIT_MS) && m.type == WIRE_ACK && m.ack.seq == 11 && m.ack.moves == 1 &&
              !m.ack.solved;
    bool r3 = raw_next(a, &m, WAIT_MS) && m.type == WIRE_REJECT && m.error.seq == 12;
    check("MOVE-3", r1 && r2 && r3,
          "every MOVE gets one ACK or REJECT, in order (illegal, legal, RESTART on a maze)");
    k->execute_move(pz, st, plan[0], st);
    pz_progress pr;
    k->progress(pz, st, &pr);
    bool p = raw_wait(b, WIRE_PROGRESS, &m, WAIT_MS) && m.progress.slot == 0 && m.progress.moves == 1 &&
             m.progress.x == pr.x && m.progress.y == pr.y && m.progress.value == 0 &&
             m.progress.path_len == 0 && !m.progress.solved;
    check("PROG-1", p, "maze PROGRESS: x, y the mover's cell, value 0, path_len 0, moves 1");
    check("PROG-2", quiet(b), "one PROGRESS per accepted move, none for rejected ones");
    /* a solves; b gets the result. */
    for (int i = 1; i < n; i++)
        send_move(a, 20 + (uint32_t)i, plan[i]);
    bool solved = false;
    for (int i = 1; i < n; i++)
        solved = raw_wait(a, WIRE_ACK, &m, WAIT_MS) && m.ack.solved == (i == n - 1);
    bool end = raw_wait(b, WIRE_MATCH_END, &m, WAIT_MS) && m.end.winner == 0 &&
               m.end.reason == MATCH_END_SOLVED && m.end.solved[0] && !m.end.solved[1] &&
               m.end.moves[0] == (uint32_t)n && m.end.time_ms[1] >= m.end.time_ms[0];
    check("END-1", solved && end,
          "the solving move's ACK says solved; MATCH_END names the winner, reason 0, moves");
    k->free_state(st);
    k->free_puzzle(pz);
    raw_close(a);
    raw_close(b);

    /* ice RESTART is a valid message (type 4): the answer is a REJECT (at
     * the start already), not ERROR 4. */
    on = race_on("ice:6x6:easy#1", &a, &b, &sa, &sb);
    if (on) {
        send_move(a, 1, (pz_move){PZ_MOVE_RESTART, 0, 0, 0});
        on = raw_next(a, &m, WAIT_MS) && m.type == WIRE_REJECT && m.error.code == MATCH_REJ_ILLEGAL;
    }
    check("MOVE-4", on, "an ice RESTART (type 4) at the start gets REJECT 1, not ERROR 4");
    raw_close(a);
    raw_close(b);
}

/* DESC_REQUEST: a big maze comes in chunks of at most WIRE_DESC_CHUNK_MAX
 * bytes that add up to its description game ID. */
void check_desc(void)
{
    raw_client *c = hello_client("fay");
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_DESC_REQUEST;
    if (c) {
        raw_send_msg(c, &m);
        check("DESC-1", next_error(c, WIRE_ERROR, WIRE_ERR_NOT_IN_ROOM, NULL, 0),
              "DESC_REQUEST in no room gets ERROR 9");
        send_create_id(c, "maze:9x9:easy#1", 1);
        bool ok = raw_wait(c, WIRE_ROOM_STATE, &m, WAIT_MS);
        memset(&m, 0, sizeof m);
        m.type = WIRE_DESC_REQUEST;
        raw_send_msg(c, &m);
        check("DESC-2", ok && next_error(c, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0),
              "DESC_REQUEST before any game started gets ERROR 10");
    }
    raw_close(c);

    const char *id = "maze:500x400:easy#1";
    raw_client *a = NULL, *b = NULL;
    wire_match_start sa, sb;
    bool on = race_on(id, &a, &b, &sa, &sb);
    char err[160];
    pz_puzzle *pz = pz_from_id(id, err, sizeof err);
    char *want = pz ? pz_id_format_desc(pz) : NULL;
    size_t got_len = 0, total = 0;
    char *got = NULL;
    int chunks = 0;
    bool ok = on && want;
    while (ok && chunks < 16 && (chunks == 0 || got_len < total)) {
        memset(&m, 0, sizeof m);
        m.type = WIRE_DESC_REQUEST;
        m.desc_req.offset = (uint32_t)got_len;
        raw_send_msg(a, &m);
        ok = raw_next(a, &m, WAIT_MS) && m.type == WIRE_DESC_CHUNK && m.desc.offset == got_len &&
             m.desc.count <= WIRE_DESC_CHUNK_MAX && m.desc.desc_hash == sa.desc_hash && m.desc.game_no == 1;
        if (ok) {
            total = m.desc.total;
            got = mr_realloc(got, got_len + m.desc.count + 1, 1);
            memcpy(got + got_len, m.desc.bytes, m.desc.count);
            got_len += m.desc.count;
            got[got_len] = '\0';
        }
        chunks++;
    }
    ok = ok && got && strcmp(got, want) == 0 && chunks >= 2;
    check("DESC-3", ok,
          "DESC_REQUEST on %s: %d chunks of at most %d bytes make its description game ID (%zu bytes)", id,
          chunks, WIRE_DESC_CHUNK_MAX, got_len);
    if (on) {
        memset(&m, 0, sizeof m);
        m.type = WIRE_DESC_REQUEST;
        m.desc_req.offset = (uint32_t)got_len + 1;
        raw_send_msg(a, &m);
        check("DESC-4", next_error(a, WIRE_ERROR, WIRE_ERR_BAD_PARAMS, NULL, 0),
              "DESC_REQUEST with an offset beyond the end gets ERROR 7");
    }
    free(got);
    free(want);
    if (pz)
        pz_kind_of(pz)->free_puzzle(pz);
    raw_close(a);
    raw_close(b);
}

/* Limits: a full room, the message rate, the bad-message count. */
void check_limits(void)
{
    raw_client *a = hello_client("gus"), *b = hello_client("hal"), *c = hello_client("ivy");
    wire_msg m;
    bool ok = a && b && c;
    if (ok) {
        send_create_id(a, "maze:9x9:easy#2", 1);
        ok = raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS);
        wire_msg j;
        memset(&j, 0, sizeof j);
        j.type = WIRE_JOIN_ROOM;
        memcpy(j.join.code, m.room.code, sizeof j.join.code);
        raw_send_msg(b, &j);
        ok = ok && raw_wait(b, WIRE_ROOM_STATE, &m, WAIT_MS);
        raw_send_msg(c, &j);
        ok = ok && next_error(c, WIRE_ERROR, WIRE_ERR_ROOM_FULL, NULL, 0);
    }
    check("ROOM-4", ok, "JOIN_ROOM of a room with both seats taken gets ERROR 6 ROOM_FULL");
    raw_close(a);
    raw_close(b);
    raw_close(c);

    /* 20 bad messages (server default --max-bad): the 20th answer says so
     * and the server disconnects. */
    c = hello_client("jay");
    ok = c != NULL;
    for (int i = 0; ok && i < 20; i++) {
        uint8_t unknown[] = {200};
        raw_send(c, unknown, 1);
        char text[WIRE_TEXT_MAX + 1] = "";
        ok = next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, text, sizeof text);
        if (ok && i == 19)
            ok = strstr(text, "too many bad messages") != NULL;
    }
    check("BAD-1", ok && raw_wait_disconnect(c, WAIT_MS),
          "the 20th bad message gets ERROR 4 \"too many bad messages\" and a disconnect");
    raw_close(c);

    /* Over the rate (100/s, bursts of 200): ERROR 12 (400 at once stay over
     * it even if the server takes 2 s to read them). Requests answered
     * with ERROR 9 are not bad, so only the over-rate ones count. */
    c = hello_client("kim");
    ok = c != NULL;
    int rate = 0, n9 = 0;
    if (ok) {
        for (int i = 0; i < 400; i++)
            send_type(c, WIRE_LEAVE_ROOM);
        for (int i = 0; i < 400 && raw_next(c, &m, WAIT_MS) && m.type == WIRE_ERROR; i++) {
            rate += m.error.code == WIRE_ERR_RATE;
            n9 += m.error.code == WIRE_ERR_NOT_IN_ROOM;
        }
    }
    check("RATE-1", ok && rate >= 1 && n9 >= 190,
          "400 messages at once: the burst of about 200 is answered (%d ERROR 9), the rest get ERROR 12 RATE "
          "(%d)",
          n9, rate);
    raw_close(c);
}
