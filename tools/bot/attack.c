/* attack.c: mazerace-attack, issue 14's CPU attack as a bench tool: connections alternating CREATE_ROOM for a
 * huge hard maze and LEAVE at a set rate, with counts of what the server answered. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cl_net.h"
#include "util.h"
#include "wire.h"

static const char usage[] =
    "usage: mazerace-attack [--server HOST:PORT] [--conns N] [--rate MSG/S] [--seconds S] [--size WxH]\n"
    "Each of N connections (default 1) sends CREATE_ROOM for a hard maze of WxH (default 1000x1000)\n"
    "then LEAVE, at MSG/S messages a second (default 90, under the server's default limit of 100),\n"
    "for S seconds (default 20), and prints what the server answered. Only for your own servers.\n";

static int fail(const char *what)
{
    fprintf(stderr, "mazerace-attack: %s\n%s", what, usage);
    return 2;
}

int main(int argc, char **argv)
{
    char host[64] = "127.0.0.1";
    int port = WIRE_DEFAULT_PORT, conns = 1, w = 1000, h = 1000;
    long rate = 90, seconds = 20, v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        if (!val)
            return fail("missing value");
        i++;
        if (strcmp(a, "--server") == 0) {
            if (cl_net_parse_addr(val, host, sizeof host, &port))
                return fail("bad --server");
        } else if (strcmp(a, "--conns") == 0 && mr_parse_long(val, 1, 1000, &v)) {
            conns = (int)v;
        } else if (strcmp(a, "--rate") == 0 && mr_parse_long(val, 1, 10000, &rate)) {
        } else if (strcmp(a, "--seconds") == 0 && mr_parse_long(val, 1, 3600, &seconds)) {
        } else if (strcmp(a, "--size") == 0 && sscanf(val, "%dx%d", &w, &h) == 2) {
        } else {
            return fail("bad option");
        }
    }
    cl_net_t **n = mr_alloc((size_t)conns, sizeof *n);
    uint64_t now = mr_now_us() / 1000u;
    for (int i = 0; i < conns; i++) {
        const char *err = NULL;
        n[i] = cl_net_create("mallory", &err);
        if (!n[i] || cl_net_connect(n[i], host, port, now))
            return fail(err ? err : "cannot connect");
    }
    /* CREATE_ROOM and LEAVE as raw messages: cl_net would not leave a room
     * it has not been told about yet, and that is the point. */
    uint8_t create[64], leave[8];
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.params = (pz_params){.kind = PZ_MAZE, .w = w, .h = h, .diff = PZ_HARD};
    m.create.series_len = 1;
    size_t create_len = wire_write(&m, create, sizeof create);
    memset(&m, 0, sizeof m);
    m.type = WIRE_LEAVE_ROOM;
    size_t leave_len = wire_write(&m, leave, sizeof leave);
    unsigned long sent = 0, rooms = 0, busy = 0, memory = 0, notin = 0, other = 0, lost = 0, online = 0;
    uint64_t t0 = mr_now_us(), end = t0 + (uint64_t)seconds * 1000000u, next = t0;
    uint64_t gap = 1000000u / (uint64_t)rate * 2; /* a CREATE and a LEAVE per turn */
    for (uint64_t t; (t = mr_now_us()) < end;) {
        now = t / 1000u;
        for (int i = 0; i < conns; i++) {
            cl_net_event ev;
            while (cl_net_poll(n[i], now, &ev)) {
                online += ev.type == CL_EV_CONNECTED;
                rooms += ev.type == CL_EV_ROOM_JOINED;
                busy += ev.type == CL_EV_ERROR && ev.code == WIRE_ERR_BUSY;
                memory += ev.type == CL_EV_ERROR && ev.code == WIRE_ERR_MEMORY;
                notin += ev.type == CL_EV_ERROR && ev.code == WIRE_ERR_NOT_IN_ROOM;
                other += ev.type == CL_EV_ERROR && ev.code != WIRE_ERR_BUSY && ev.code != WIRE_ERR_MEMORY &&
                         ev.code != WIRE_ERR_NOT_IN_ROOM;
                lost += ev.type == CL_EV_DISCONNECTED || ev.type == CL_EV_REFUSED;
                if (ev.type == CL_EV_ROOM_JOINED)
                    cl_net_leave(n[i]);
            }
        }
        if (t >= next && online == (unsigned long)conns) {
            for (int i = 0; i < conns; i++) {
                cl_net_send_raw(n[i], create, create_len);
                cl_net_send_raw(n[i], leave, leave_len);
                cl_net_flush(n[i]);
                sent++;
            }
            next += gap;
        } else if (online < (unsigned long)conns) {
            next = t + gap;
        }
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    printf(
        "attack: %d connection(s), %ld s, %ld messages/s each: %lu CREATE+LEAVE pairs sent; server answered: "
        "%lu rooms opened, %lu BUSY, %lu MEMORY, %lu NOT_IN_ROOM (a LEAVE after a refusal), %lu other "
        "errors; "
        "%lu connections lost\n",
        conns, seconds, rate, sent, rooms, busy, memory, notin, other, lost);
    printf("RESULT attack pairs=%lu rooms=%lu busy=%lu memory=%lu other=%lu lost=%lu\n", sent, rooms, busy,
           memory, other, lost);
    for (int i = 0; i < conns; i++)
        cl_net_destroy(n[i]);
    free(n);
    return 0;
}
