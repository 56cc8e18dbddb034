/* sv_fixture.c: start/stop an in-process server, connect raw clients, make rooms (cmocka asserts on failure).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "puzzle.h"
#include "sv_fixture.h"
#include "util.h"

uint64_t fixture_now(const fixture *f)
{
    return f->frozen ? f->frozen_ms : (mr_now_us() - f->base_us) / 1000u;
}

void pump_server(void *ctx)
{
    fixture *f = ctx;
    if (sv_service(f->sv, fixture_now(f), 0) < 0)
        f->service_failures++;
}

void base_config(sv_config *cfg)
{
    sv_config_defaults(cfg);
    strcpy(cfg->bind_addr, "127.0.0.1");
    cfg->port = 0;
    cfg->discovery_port = 0;
    cfg->countdown_ms = 50;
    cfg->log_level = getenv("MR_TEST_SERVER_LOG") ? SV_LOG_DEBUG : SV_LOG_OFF;
}

fixture *start(const sv_config *cfg)
{
    fixture *f = mr_alloc(1, sizeof *f);
    f->base_us = mr_now_us();
    const char *err = NULL;
    f->sv = sv_create(cfg, &err);
    if (!f->sv)
        fail_msg("sv_create: %s", err);
    return f;
}

void stop(fixture *f)
{
    sv_destroy(f->sv);
    free(f);
}

/* Services the server (through client c) until pred holds for its
 * statistics, at most WAIT_MS; returns the last statistics. */
sv_stats wait_stats(fixture *f, raw_client *c, bool (*pred)(const sv_stats *))
{
    sv_stats st;
    uint64_t end = mr_now_us() + WAIT_MS * 1000u;
    for (;;) {
        sv_get_stats(f->sv, &st);
        if (pred(&st) || mr_now_us() >= end)
            return st;
        raw_pump(c, 2, false);
    }
}

int send_probes(fixture *f, uint32_t nonce, int count)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(sv_discovery_port(f->sv))};
    inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    uint8_t buf[WIRE_PROBE_LEN + 16];
    wire_probe p = {.version = WIRE_VERSION, .nonce = nonce};
    size_t n = wire_write_probe(&p, buf, sizeof buf);
    for (int i = 0; i < count; i++)
        assert_int_equal(sendto(fd, buf, n, 0, (struct sockaddr *)&to, sizeof to), (ssize_t)n);
    return fd;
}

raw_client *join_server(fixture *f, const char *name)
{
    raw_client *c = raw_connect(sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(c);
    assert_true(raw_hello(c, name, WAIT_MS));
    return c;
}

void send_simple(raw_client *c, int type)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = (uint8_t)type;
    raw_send_msg(c, &m);
}

void send_ready(raw_client *c)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_READY;
    m.ready.ready = true;
    raw_send_msg(c, &m);
}

void send_move(raw_client *c, uint32_t seq, pz_move mv)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_MOVE;
    m.move.seq = seq;
    m.move.move = mv;
    raw_send_msg(c, &m);
}

void send_resume(raw_client *c, const char *code, int slot, match_token_t token)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_RESUME;
    snprintf(m.resume.code, sizeof m.resume.code, "%s", code);
    m.resume.slot = (uint8_t)slot;
    m.resume.token = token;
    raw_send_msg(c, &m);
}

void send_create(raw_client *c, int kind, int w, int h, int diff)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.params = (pz_params){.kind = kind, .w = w, .h = h, .diff = diff};
    m.create.series_len = 1;
    raw_send_msg(c, &m);
}

/* Creates a room on GAME_ID; returns its code in code. */
void create_room(raw_client *c, char code[WIRE_ROOM_CODE_LEN + 1])
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.by_id = true;
    m.create.game_id = GAME_ID;
    m.create.game_id_len = (uint16_t)strlen(GAME_ID);
    m.create.series_len = 1;
    raw_send_msg(c, &m);
    wire_msg st;
    assert_true(raw_wait(c, WIRE_ROOM_STATE, &st, WAIT_MS));
    assert_int_equal(st.room.your_slot, 0);
    memcpy(code, st.room.code, WIRE_ROOM_CODE_LEN + 1);
}

void join_room(raw_client *c, const char *code, int want_slot)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_JOIN_ROOM;
    memcpy(m.join.code, code, WIRE_ROOM_CODE_LEN + 1);
    raw_send_msg(c, &m);
    wire_msg st;
    assert_true(raw_wait(c, WIRE_ROOM_STATE, &st, WAIT_MS));
    assert_int_equal(st.room.your_slot, want_slot);
    assert_string_equal(st.room.code, code);
}

int start_pair_race(raw_client *a, raw_client *b, pz_move *plan, int max)
{
    char code[WIRE_ROOM_CODE_LEN + 1];
    create_room(a, code);
    join_room(b, code, 1);
    send_ready(a);
    send_ready(b);
    wire_msg m;
    assert_true(raw_wait(a, WIRE_MATCH_START, &m, WAIT_MS));
    assert_true(raw_wait(b, WIRE_MATCH_START, &m, WAIT_MS));
    if (m.start.start_in_ms > 0)
        raw_pump(a, m.start.start_in_ms + 20, false);
    char err[160];
    pz_puzzle *pz = pz_from_id(GAME_ID, err, sizeof err);
    assert_non_null(pz);
    int n = pz_kind_of(pz)->solve(pz, NULL, plan, max);
    pz_kind_of(pz)->free_puzzle(pz);
    assert_true(n >= 2);
    return n;
}
