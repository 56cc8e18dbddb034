/* conformance_watch.c: one check per MUST of spectators (section 3, Spectators): on the game port, then on a
 * spectator port of the server's own (section 3, The spectator port). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

/* A solution of the puzzle id into plan (at most max moves); its length, 0 if none. */
static int solve_id(const char *id, pz_move *plan, int max)
{
    char err[160];
    pz_puzzle *pz = pz_from_id(id, err, sizeof err);
    int n = pz ? pz_kind_of(pz)->solve(pz, NULL, plan, max) : 0;
    if (pz)
        pz_kind_of(pz)->free_puzzle(pz);
    return n;
}

/* Spectators (section 3, Spectators). */
static raw_client *watcher(const char *name, const char *code, wire_msg *first)
{
    raw_client *c = hello_client(name);
    if (!c)
        return NULL;
    send_code(c, WIRE_WATCH, code);
    if (!raw_next(c, first, WAIT_MS)) {
        raw_close(c);
        return NULL;
    }
    return c;
}

void check_watch(void)
{
    raw_client *a = NULL, *b = NULL;
    wire_match_start sa, sb;
    const char *id = "maze:5x5:easy#11";
    bool on = race_on(id, &a, &b, &sa, &sb);
    pz_move plan[64];
    int n = solve_id(id, plan, 64);
    wire_msg m;
    /* The room code: LIST_ROOMS from a third client lists the race. */
    raw_client *l = hello_client("lia");
    char code[WIRE_ROOM_CODE_LEN + 1] = "";
    if (l) {
        send_type(l, WIRE_LIST_ROOMS);
        if (raw_wait(l, WIRE_ROOM_LIST, &m, WAIT_MS) && m.list.count >= 1)
            for (int i = 0; i < m.list.count; i++)
                if (strcmp(m.list.room[i].name[0], "dan") == 0 && strcmp(m.list.room[i].name[1], "eve") == 0)
                    memcpy(code, m.list.room[i].code, sizeof code);
    }
    check("WATCH-0", on && n >= 3 && code[0], "LIST_ROOMS lists a race of dan and eve on %s", id);
    if (!on || n < 3 || !code[0]) {
        raw_close(l);
        raw_close(a);
        raw_close(b);
        return;
    }
    send_move(a, 1, plan[0]);
    bool ok = raw_wait(a, WIRE_ACK, &m, WAIT_MS);

    raw_client *c = watcher("cal", code, &m);
    ok = ok && c && m.type == WIRE_ROOM_STATE && m.room.your_slot == WIRE_SLOT_WATCHER &&
         m.room.spectators == 1;
    wire_msg ma;
    bool counted = raw_wait(a, WIRE_ROOM_STATE, &ma, WAIT_MS) && ma.room.spectators == 1;
    check("WATCH-1", ok && counted,
          "WATCH: the spectator's first message is ROOM_STATE with slot 255 and spectators 1; the players' "
          "ROOM_STATE counts it");
    ok = c && raw_next(c, &m, WAIT_MS) && m.type == WIRE_WATCH_START && m.wstart.start_in_ms <= 0 &&
         m.wstart.desc_hash == sa.desc_hash;
    ok = ok && raw_next(c, &m, WAIT_MS) && m.type == WIRE_MOVE_LOG && m.log.slot == 0 && m.log.count == 1 &&
         m.log.moves[0].dir == plan[0].dir;
    ok = ok && raw_next(c, &m, WAIT_MS) && m.type == WIRE_MOVE_LOG && m.log.slot == 1 && m.log.last;
    check("WATCH-3", ok, "mid-race: WATCH_START (started, same hash), MOVE_LOG of slot 0 then slot 1 (last)");

    /* Live: the spectator sees the move after the mover's ACK left. */
    send_move(a, 2, plan[1]);
    ok = c && raw_wait(c, WIRE_PROGRESS, &m, WAIT_MS) && m.progress.slot == 0 && m.progress.moves == 2;
    raw_pump(a, 0, false);
    bool ack_first = raw_has(a, WIRE_ACK);
    check("WATCH-2", ok, "PROGRESS to the spectator for each accepted move, with the mover's slot");
    check("WATCH-5", ack_first, "when the spectator has the PROGRESS, the mover already has its ACK");
    raw_wait(a, WIRE_ACK, &m, WAIT_MS);
    for (int i = 2; i < n; i++)
        send_move(a, (uint32_t)i + 1, plan[i]);
    wire_msg ea, ec;
    ok = raw_wait(a, WIRE_MATCH_END, &ea, WAIT_MS) && c && raw_wait(c, WIRE_MATCH_END, &ec, WAIT_MS) &&
         memcmp(&ea.end, &ec.end, sizeof ea.end) == 0;
    check("WATCH-2", ok, "the spectator gets the players' MATCH_END");
    /* WATCH_START and both MOVE_LOGs were queued in one step, the last moves
     * back to back: they came in BUNDLEs, which raw_client unpacked for the
     * checks above (each entry a whole message, in order). */
    check("WATCH-9", c && raw_bundles(c) >= 1 && raw_undecodable(c) == 0,
          "a spectator's batch arrives as BUNDLE (48) packets of whole messages (%d bundles)",
          c ? raw_bundles(c) : -1);

    /* A spectator's MOVE: ERROR 21, counted as bad (the 20th disconnects). */
    ok = c != NULL;
    for (int i = 0; ok && i < 20; i++) {
        send_move(c, (uint32_t)i, plan[0]);
        char text[WIRE_TEXT_MAX + 1] = "";
        do {
            ok = raw_next(c, &m, WAIT_MS);
        } while (ok && m.type != WIRE_ERROR);
        ok = ok && m.error.code == WIRE_ERR_SPECTATOR;
        snprintf(text, sizeof text, "%s", ok ? m.error.text : "");
        if (ok && i == 19)
            ok = strstr(text, "too many bad messages") != NULL;
    }
    check("WATCH-4", ok && raw_wait_disconnect(c, WAIT_MS),
          "a spectator's MOVE gets ERROR 21, counted as bad: the 20th disconnects");
    raw_close(c);

    /* The room limit (default 16): the 17th spectator gets WATCH_FULL. */
    raw_client *s[17] = {NULL};
    ok = true;
    for (int i = 0; i < 16 && ok; i++) {
        char name[8];
        snprintf(name, sizeof name, "w%d", i);
        s[i] = watcher(name, code, &m);
        ok = s[i] && m.type == WIRE_ROOM_STATE;
    }
    s[16] = ok ? watcher("w16", code, &m) : NULL;
    ok = ok && s[16] && m.type == WIRE_ERROR && m.error.code == WIRE_ERR_WATCH_FULL;
    check("WATCH-6", ok, "16 spectators watch one room; the 17th gets ERROR 20 WATCH_FULL");
    for (int i = 0; i < 17; i++)
        raw_close(s[i]);
    raw_close(l);
    raw_close(a);
    raw_close(b);
}

/* The spectator port (section 3, "The spectator port"): a server started
 * with one answers WATCH on the game port with WATCH_AT only; the client
 * that follows it watches there as on the game port; the spectator port
 * refuses the seat requests and never sends WATCH_AT. */
void check_spectator_port(const char *bin)
{
    stop_server();
    port = must_start_server(bin, db_path, "0");
    bool up = port && spec_port && spec_port != port;
    check("WATCH-7", up, "a server started with --spectator-port 0 prints a spectator port of its own (%u)",
          (unsigned)spec_port);
    if (!up)
        return;
    raw_client *a = NULL, *b = NULL;
    wire_match_start sa, sb;
    const char *id = "maze:5x5:easy#13";
    bool on = race_on(id, &a, &b, &sa, &sb);
    wire_msg m;
    char code[WIRE_ROOM_CODE_LEN + 1] = "";
    raw_client *l = hello_client("lia");
    if (l) {
        send_type(l, WIRE_LIST_ROOMS);
        if (raw_wait(l, WIRE_ROOM_LIST, &m, WAIT_MS))
            for (int i = 0; i < m.list.count; i++)
                if (strcmp(m.list.room[i].name[0], "dan") == 0)
                    memcpy(code, m.list.room[i].code, sizeof code);
    }
    /* On the game port: WATCH_AT {code, port} and nothing else. */
    bool ok = on && code[0] && l;
    if (ok) {
        send_code(l, WIRE_WATCH, code);
        ok = raw_next(l, &m, WAIT_MS) && m.type == WIRE_WATCH_AT && strcmp(m.watch_at.code, code) == 0 &&
             m.watch_at.port == spec_port;
    }
    bool only = ok && quiet(l);
    check(
        "WATCH-7", ok && only,
        "WATCH on the game port gets WATCH_AT with the room's code and the spectator port, and nothing else");
    send_code(l, WIRE_WATCH, "ZZZZZ");
    check("WATCH-7", l && next_error(l, WIRE_ERROR, WIRE_ERR_NO_ROOM, NULL, 0),
          "WATCH of an unknown code on the game port still gets ERROR 5");

    /* Following it: HELLO and WATCH on the spectator port. */
    uint16_t game = port;
    port = m.watch_at.port;
    raw_client *c = ok ? hello_client("cal") : NULL;
    raw_client *d = ok ? hello_client("dee") : NULL;
    port = game;
    bool watching = false;
    if (c) {
        send_code(c, WIRE_WATCH, code);
        watching =
            raw_next(c, &m, WAIT_MS) && m.type == WIRE_ROOM_STATE && m.room.your_slot == WIRE_SLOT_WATCHER;
        watching = watching && raw_next(c, &m, WAIT_MS) && m.type == WIRE_WATCH_START &&
                   m.wstart.desc_hash == sa.desc_hash;
    }
    pz_move plan[64];
    int n = solve_id(id, plan, 64);
    for (int i = 0; watching && i < n; i++)
        send_move(a, (uint32_t)i + 1, plan[i]);
    bool all = watching && n > 0;
    for (int i = 0; all && i < n; i++)
        all = raw_wait(c, WIRE_PROGRESS, &m, WAIT_MS) && m.progress.slot == 0 &&
              m.progress.moves == (uint32_t)i + 1;
    wire_msg ea, ec;
    all = all && raw_wait(a, WIRE_MATCH_END, &ea, WAIT_MS) && raw_wait(c, WIRE_MATCH_END, &ec, WAIT_MS) &&
          memcmp(&ea.end, &ec.end, sizeof ea.end) == 0;
    check(
        "WATCH-7", watching && all,
        "following WATCH_AT: HELLO and WATCH on the spectator port give ROOM_STATE (slot 255), WATCH_START, "
        "every PROGRESS and the players' MATCH_END");

    /* On the spectator port: the seat requests get ERROR 10, WATCH never WATCH_AT. */
    int refused = 0;
    if (d) {
        send_code(d, WIRE_JOIN_ROOM, code);
        refused += next_error(d, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0);
        send_type(d, WIRE_QUICK_MATCH);
        refused += next_error(d, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0);
        send_code(d, WIRE_RESUME, code);
        refused += next_error(d, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0);
        send_create_id(d, id, 1);
        refused += next_error(d, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0);
    }
    check("WATCH-8", refused == 4,
          "on the spectator port JOIN_ROOM, QUICK_MATCH, RESUME and CREATE_ROOM get ERROR 10 STATE (%d of 4)",
          refused);
    bool direct = false;
    if (d) {
        send_code(d, WIRE_WATCH, code);
        direct =
            raw_next(d, &m, WAIT_MS) && m.type == WIRE_ROOM_STATE && m.room.your_slot == WIRE_SLOT_WATCHER;
    }
    check("WATCH-8", direct, "WATCH on the spectator port is served there (ROOM_STATE), never WATCH_AT");
    raw_close(d);
    raw_close(c);
    raw_close(l);
    raw_close(a);
    raw_close(b);
}
