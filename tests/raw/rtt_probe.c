/* rtt_probe.c: one client's move->ACK round trip against mazerace-server, or packet->echo against enet_echo,
 * with the same client loop (a manual measuring tool, not a test). */
#define _POSIX_C_SOURCE 200809L
#include <enet/enet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "puzzle.h"
#include "util.h"
#include "wire.h"

/* Usage: rtt_probe server|echo PORT [SAMPLES] (127.0.0.1 only)
 *   server: player A on its own ENet host moves at 20 moves/s on a maze,
 *           a step and back, and times MOVE -> ACK; player B (its own host,
 *           serviced in the same loop) receives the PROGRESS messages.
 *   echo:   the same loop sends an 11-byte reliable packet (the size of a
 *           MOVE) to ../shared/baselines/enet_echo -m server and times the
 *           echo.
 * Prints "RESULT probe MODE p50_us=... p90_us=... p99_us=... max_us=...".
 * Every wait is bounded; the run takes SAMPLES / 20 seconds plus set-up. */

#define GAME_ID "maze:21x15:easy#7"

/* The latest message of each type, and whether it is new. */
typedef struct side {
    ENetHost *host;
    ENetPeer *peer;
    uint8_t last[256][256];
    size_t last_len[256];
    int fresh[256];
    int any; /* something arrived since the last look (echo mode) */
} side;

static side a, b; /* large: static */

static void pump_side(side *s, int ms)
{
    ENetEvent ev;
    int r = enet_host_service(s->host, &ev, (enet_uint32)ms);
    for (; r > 0; r = enet_host_check_events(s->host, &ev)) {
        if (ev.type != ENET_EVENT_TYPE_RECEIVE)
            continue;
        size_t len = ev.packet->dataLength;
        if (len > 0 && len <= sizeof s->last[0]) {
            int t = ev.packet->data[0];
            memcpy(s->last[t], ev.packet->data, len);
            s->last_len[t] = len;
            s->fresh[t] = 1;
        }
        s->any = 1;
        enet_packet_destroy(ev.packet);
    }
}

static void pump(int ms)
{
    if (b.host)
        pump_side(&b, 0);
    pump_side(&a, ms);
}

static void send_msg(side *s, const wire_msg *m)
{
    uint8_t buf[256];
    size_t n = wire_write(m, buf, sizeof buf);
    enet_peer_send(s->peer, 0, enet_packet_create(buf, n, ENET_PACKET_FLAG_RELIABLE));
    enet_host_flush(s->host);
}

/* Waits up to ms for a message of this type on side s. */
static int wait_type(side *s, int type, int ms)
{
    uint64_t end = mr_now_us() + (uint64_t)ms * 1000u;
    for (;;) {
        if (s->fresh[type]) {
            s->fresh[type] = 0;
            return 1;
        }
        if (mr_now_us() >= end)
            return 0;
        pump(1);
    }
}

static int connect_side(side *s, int port)
{
    s->host = enet_host_create(NULL, 1, 1, 0, 0);
    if (!s->host)
        return 0;
    ENetAddress addr;
    enet_address_set_host_ip(&addr, "127.0.0.1");
    addr.port = (enet_uint16)port;
    s->peer = enet_host_connect(s->host, &addr, 1, 0);
    uint64_t end = mr_now_us() + 3000000u;
    while (s->peer && s->peer->state != ENET_PEER_STATE_CONNECTED && mr_now_us() < end)
        pump_side(s, 5);
    return s->peer && s->peer->state == ENET_PEER_STATE_CONNECTED;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t p = *(const uint64_t *)x, q = *(const uint64_t *)y;
    return (p > q) - (p < q);
}

/* Both players in one room on GAME_ID, through the countdown; fills the
 * step-and-back pair of moves. */
static int setup_race(int port, pz_move pair[2])
{
    if (!connect_side(&b, port))
        return 0;
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_HELLO;
    m.hello.magic = WIRE_MAGIC;
    m.hello.version = WIRE_VERSION;
    strcpy(m.hello.name, "probe-a");
    send_msg(&a, &m);
    if (!wait_type(&a, WIRE_WELCOME, 2000))
        return 0;
    strcpy(m.hello.name, "probe-b");
    send_msg(&b, &m);
    if (!wait_type(&b, WIRE_WELCOME, 2000))
        return 0;
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.by_id = true;
    m.create.game_id = GAME_ID;
    m.create.game_id_len = (uint16_t)strlen(GAME_ID);
    m.create.series_len = 1;
    send_msg(&a, &m);
    wire_msg st;
    if (!wait_type(&a, WIRE_ROOM_STATE, 2000) ||
        !wire_read(a.last[WIRE_ROOM_STATE], a.last_len[WIRE_ROOM_STATE], &st))
        return 0;
    memset(&m, 0, sizeof m);
    m.type = WIRE_JOIN_ROOM;
    memcpy(m.join.code, st.room.code, sizeof m.join.code);
    send_msg(&b, &m);
    if (!wait_type(&b, WIRE_ROOM_STATE, 2000))
        return 0;
    memset(&m, 0, sizeof m);
    m.type = WIRE_READY;
    m.ready.ready = true;
    send_msg(&a, &m);
    send_msg(&b, &m);
    if (!wait_type(&a, WIRE_MATCH_START, 2000) ||
        !wire_read(a.last[WIRE_MATCH_START], a.last_len[WIRE_MATCH_START], &st))
        return 0;
    uint64_t start =
        mr_now_us() + (uint64_t)(st.start.start_in_ms > 0 ? st.start.start_in_ms : 0) * 1000u + 50000u;
    while (mr_now_us() < start)
        pump(1);
    char err[160];
    pz_puzzle *pz = pz_from_id(GAME_ID, err, sizeof err);
    if (!pz)
        return 0;
    pz_move first;
    int n = pz_kind_of(pz)->solve(pz, NULL, &first, 1);
    pz_kind_of(pz)->free_puzzle(pz);
    if (n < 1)
        return 0;
    pair[0] = first;
    pair[1] = first;
    pair[1].dir = (uint8_t)pz_dir_opposite(first.dir);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[1], "server") && strcmp(argv[1], "echo"))) {
        fprintf(stderr, "usage: rtt_probe server|echo PORT [SAMPLES]\n");
        return 2;
    }
    int echo = strcmp(argv[1], "echo") == 0;
    int port = atoi(argv[2]);
    int n = argc > 3 ? atoi(argv[3]) : 200;
    if (port <= 0 || port > 65535 || n < 1 || n > 100000) {
        fprintf(stderr, "rtt_probe: bad port or sample count\n");
        return 2;
    }
    if (enet_initialize() != 0 || !connect_side(&a, port)) {
        fprintf(stderr, "rtt_probe: cannot connect to 127.0.0.1:%d\n", port);
        return 1;
    }
    pz_move pair[2];
    if (!echo && !setup_race(port, pair)) {
        fprintf(stderr, "rtt_probe: could not start a race\n");
        return 1;
    }
    uint64_t *rtt = mr_alloc((size_t)n, sizeof *rtt);
    int k = 0, lost = 0;
    uint64_t next = mr_now_us();
    for (int i = 0; i < n; i++) {
        while (mr_now_us() < next)
            pump(1);
        next += 50000u; /* 20 per second */
        uint64_t t0 = mr_now_us();
        int ok;
        if (echo) {
            uint8_t pkt[11] = {WIRE_MOVE};
            a.any = 0;
            enet_peer_send(a.peer, 0, enet_packet_create(pkt, sizeof pkt, ENET_PACKET_FLAG_RELIABLE));
            enet_host_flush(a.host);
            uint64_t end = t0 + 1000000u;
            while (!a.any && mr_now_us() < end)
                pump(1);
            ok = a.any;
        } else {
            wire_msg m;
            memset(&m, 0, sizeof m);
            m.type = WIRE_MOVE;
            m.move.seq = (uint32_t)i;
            m.move.move = pair[i & 1];
            a.fresh[WIRE_ACK] = 0;
            send_msg(&a, &m);
            ok = wait_type(&a, WIRE_ACK, 1000);
        }
        if (ok)
            rtt[k++] = mr_now_us() - t0;
        else
            lost++;
    }
    if (k == 0) {
        fprintf(stderr, "rtt_probe: no answers\n");
        return 1;
    }
    qsort(rtt, (size_t)k, sizeof *rtt, cmp_u64);
    printf("RESULT probe %s samples=%d lost=%d p50_us=%llu p90_us=%llu p99_us=%llu max_us=%llu\n", argv[1], k,
           lost, (unsigned long long)rtt[k / 2], (unsigned long long)rtt[(size_t)k * 9 / 10],
           (unsigned long long)rtt[(size_t)k * 99 / 100], (unsigned long long)rtt[k - 1]);
    free(rtt);
    if (b.host)
        enet_host_destroy(b.host);
    enet_host_destroy(a.host);
    return 0;
}
