/* watch_at_probe.c: a spectator's first steps, for tests/agones/test_agones.py: WATCH a room on the game
 * port, print the WATCH_AT answer, and (with --follow) watch the room at the port it names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raw_client.h"
#include "util.h"

#define WAIT_MS 5000

/* Says why and fails: exit 1. */
static int fail(const char *what, const wire_msg *m)
{
    if (m && m->type == WIRE_ERROR)
        printf("%s: ERROR %u %s\n", what, (unsigned)m->error.code, m->error.text);
    else
        printf("%s\n", what);
    return 1;
}

/* HELLO on c, then WATCH code; the first answer into *m. */
static bool watch(raw_client *c, const char *code, wire_msg *m)
{
    if (!raw_hello(c, "probe", WAIT_MS))
        return false;
    memset(m, 0, sizeof *m);
    m->type = WIRE_WATCH;
    memcpy(m->join.code, code, WIRE_ROOM_CODE_LEN);
    raw_send_msg(c, m);
    /* The answer: WATCH_AT, ROOM_STATE (watching) or an ERROR. */
    for (int i = 0; i < 8; i++) {
        if (!raw_next(c, m, WAIT_MS))
            return false;
        if (m->type == WIRE_WATCH_AT || m->type == WIRE_ROOM_STATE || m->type == WIRE_ERROR)
            return true;
    }
    return false;
}

int main(int argc, char **argv)
{
    long port;
    bool follow = argc == 4 && strcmp(argv[3], "--follow") == 0;
    if ((argc != 3 && !follow) || !mr_parse_long(argv[1], 1, 65535, &port) ||
        strlen(argv[2]) != WIRE_ROOM_CODE_LEN || !wire_room_code_ok(argv[2])) {
        fprintf(stderr, "usage: watch_at_probe GAME_PORT ROOM_CODE [--follow]   (127.0.0.1 only)\n");
        return 2;
    }
    raw_client *c = raw_connect((uint16_t)port, NULL, NULL, WAIT_MS);
    if (!c)
        return fail("no connection to the game port", NULL);
    wire_msg m;
    if (!watch(c, argv[2], &m))
        return fail("no answer to WATCH on the game port", NULL);
    if (m.type != WIRE_WATCH_AT) {
        raw_close(c);
        return fail(m.type == WIRE_ROOM_STATE ? "watching on the game port (no WATCH_AT)" : "WATCH refused",
                    &m);
    }
    uint16_t at = m.watch_at.port;
    printf("WATCH_AT %.5s %u\n", m.watch_at.code, (unsigned)at);
    fflush(stdout);
    raw_close(c);
    if (!follow)
        return 0;
    /* Where WATCH_AT leads (a test's relay standing for a host port mapping). */
    c = raw_connect(at, NULL, NULL, WAIT_MS);
    if (!c)
        return fail("no connection to the WATCH_AT port", NULL);
    bool ok = watch(c, argv[2], &m);
    int rc = 0;
    if (ok && m.type == WIRE_ROOM_STATE && m.room.your_slot == WIRE_SLOT_WATCHER)
        printf("watching %.5s at port %u (%u spectators)\n", m.room.code, (unsigned)at,
               (unsigned)m.room.spectators);
    else
        rc = fail(ok ? "not watching at the WATCH_AT port" : "no answer to WATCH at the WATCH_AT port",
                  ok ? &m : NULL);
    raw_close(c);
    return rc;
}
