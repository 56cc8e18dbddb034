/* test_server_abuse.c: the server in-process against raw ENet clients on 127.0.0.1: bad and random packets,
 * floods, silent peers, room errors, handshake and per-address limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "match.h"
#include "puzzle.h"
#include "raw_client.h"
#include "rng.h"
#include "sv.h"
#include "sv_disc.h"
#include "sv_fixture.h"
#include "sv_race.h"
#include "util.h"
#include "wire.h"

static bool six_bad(const sv_stats *st)
{
    return st->bad_msgs >= 6;
}

static bool one_room(const sv_stats *st)
{
    return st->rooms_now <= 1;
}

/* Truncated, oversized, unknown and out-of-order packets are counted and
 * dropped; a wrong version is refused in words; the match next door plays
 * on. */
static void test_bad_packets(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    race r;
    fixture *f = start_race_server(&cfg, &r, true);

    raw_client *x = join_server(f, "mallory");
    uint8_t move[32];
    wire_msg mv;
    memset(&mv, 0, sizeof mv);
    mv.type = WIRE_MOVE;
    mv.move.seq = 1;
    mv.move.move = r.plan[0];
    size_t n = wire_write(&mv, move, sizeof move);
    raw_send(x, move, n - 1); /* truncated */
    wire_msg m;
    assert_true(raw_wait(x, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_BAD_MESSAGE);
    uint8_t unknown[4] = {0xEE, 1, 2, 3};
    raw_send(x, unknown, sizeof unknown);
    uint8_t trailing[33];
    memcpy(trailing, move, n);
    trailing[n] = 0;
    raw_send(x, trailing, n + 1);
    size_t big = WIRE_MSG_MAX + 100;
    uint8_t *huge = mr_alloc(big, 1);
    huge[0] = WIRE_MOVE;
    raw_send(x, huge, big);
    free(huge);
    uint8_t server_msg[1] = {WIRE_WELCOME};
    raw_send(x, server_msg, 1);
    raw_send(x, "", 0);

    /* The honest match is unaffected. */
    send_move(r.a, 1, r.plan[0]);
    assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    sv_stats st = wait_stats(f, x, six_bad);
    assert_int_equal(st.bad_msgs, 6);
    assert_int_equal(st.kicked, 0);
    assert_true(raw_connected(x));

    /* Before HELLO: told to say HELLO first. */
    raw_client *y = raw_connect(sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(y);
    send_ready(y);
    assert_true(raw_wait(y, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_HANDSHAKE);

    /* Another protocol version: refused with a readable reason, then
     * disconnected. */
    raw_client *z = raw_connect(sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(z);
    uint8_t hello[64];
    wire_msg h;
    memset(&h, 0, sizeof h);
    h.type = WIRE_HELLO;
    h.hello.magic = WIRE_MAGIC;
    h.hello.version = WIRE_VERSION + 1;
    size_t hn = wire_write(&h, hello, sizeof hello);
    raw_send(z, hello, hn);
    assert_true(raw_wait(z, WIRE_REFUSED, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_VERSION);
    assert_non_null(strstr(m.error.text, "version"));
    assert_true(raw_wait_disconnect(z, WAIT_MS));

    send_move(r.a, 2, r.plan[1]);
    assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    assert_int_equal(m.ack.moves, 2);
    raw_close(x);
    raw_close(y);
    raw_close(z);
    stop_race_server(f, &r);
}

/* A peer that keeps sending garbage, or floods, is disconnected; the others
 * play on. */
static void test_flood_kicked(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.max_bad = 10;
    cfg.msg_rate = 50;
    cfg.msg_burst = 50;
    race r;
    fixture *f = start_race_server(&cfg, &r, true);

    raw_client *x = join_server(f, "garbage");
    uint8_t junk[3] = {0xFF, 0xFF, 0xFF};
    for (int i = 0; i < 30; i++)
        raw_send(x, junk, sizeof junk);
    assert_true(raw_wait_disconnect(x, WAIT_MS));

    /* Well-formed but far over the rate: READY toggles with no room. */
    raw_client *y = join_server(f, "flooder");
    for (int i = 0; i < 400; i++)
        send_ready(y);
    assert_true(raw_wait_disconnect(y, WAIT_MS));

    wire_msg m;
    send_move(r.a, 1, r.plan[0]);
    assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.kicked, 2);
    assert_true(st.rate_limited > 0);
    raw_close(x);
    raw_close(y);
    stop_race_server(f, &r);
}

/* A kicked peer that stops answering (so ENet cannot finish the
 * disconnect) is dropped after a few seconds all the same. */
static void test_kicked_silent_peer_dropped(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.max_bad = 3;
    fixture *f = start(&cfg);
    raw_client *x = join_server(f, "mute");
    uint8_t junk[2] = {0xFE, 0};
    for (int i = 0; i < 3; i++)
        raw_send(x, junk, sizeof junk);
    sv_stats st;
    /* Only the server runs from here: x never reads or acknowledges. */
    uint64_t end = mr_now_us() / 1000u + 8000;
    do {
        sv_service(f->sv, fixture_now(f), 10);
        sv_get_stats(f->sv, &st);
    } while (st.peers_now > 0 && mr_now_us() / 1000u < end);
    assert_int_equal(st.kicked, 1);
    assert_int_equal(st.peers_now, 0);
    raw_close(x);
    stop(f);
}

/* A random client message, well formed, about the race's room now and then. */
static size_t random_msg(rng_t *rng, const race *r, uint8_t *buf, size_t cap)
{
    static const uint8_t types[] = {WIRE_HELLO,      WIRE_CREATE_ROOM, WIRE_JOIN_ROOM, WIRE_QUICK_MATCH,
                                    WIRE_LEAVE_ROOM, WIRE_READY,       WIRE_REMATCH,   WIRE_RESUME,
                                    WIRE_MOVE,       WIRE_MOVE,        WIRE_MOVE};
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = types[rng_below(rng, (uint32_t)MR_ARRAY_LEN(types))];
    switch (m.type) {
    case WIRE_HELLO:
        m.hello.magic = WIRE_MAGIC;
        m.hello.version = WIRE_VERSION;
        strcpy(m.hello.name, "again");
        break;
    case WIRE_CREATE_ROOM:
        m.create.series_len = (uint8_t)(1 + rng_below(rng, 5));
        if (rng_below(rng, 2)) {
            m.create.by_id = true;
            m.create.game_id = rng_below(rng, 2) ? GAME_ID : "ice:9x9:hard#3";
            m.create.game_id_len = (uint16_t)strlen(m.create.game_id);
        } else {
            m.create.params.kind = (int)rng_below(rng, PZ_KIND_COUNT);
            m.create.params.w = (int)rng_below(rng, 12);
            m.create.params.h = m.create.params.w ? (int)rng_below(rng, 12) + 1 : 0;
            m.create.params.diff = (int)rng_below(rng, PZ_DIFF_COUNT);
            m.create.has_seed = rng_below(rng, 2);
            m.create.seed = m.create.has_seed ? rng_u64(rng) : 0;
        }
        break;
    case WIRE_JOIN_ROOM:
    case WIRE_RESUME: {
        char code[WIRE_ROOM_CODE_LEN + 1];
        if (rng_below(rng, 2))
            memcpy(code, r->code, sizeof code);
        else
            wire_room_code_make(rng, code);
        if (m.type == WIRE_JOIN_ROOM) {
            memcpy(m.join.code, code, sizeof code);
        } else {
            memcpy(m.resume.code, code, sizeof code);
            m.resume.slot = (uint8_t)rng_below(rng, 2);
            m.resume.token = r->start_a.token;
            if (rng_below(rng, 4))
                for (int i = 0; i < MATCH_TOKEN_BYTES; i++)
                    m.resume.token.b[i] = (uint8_t)rng_below(rng, 256);
            else
                m.resume.token.b[0] ^= 1;
        }
        break;
    }
    case WIRE_READY:
        m.ready.ready = rng_below(rng, 2);
        break;
    case WIRE_MOVE:
        m.move.seq = rng_u32(rng);
        m.move.move.type = (uint8_t)(1 + rng_below(rng, 3));
        m.move.move.dir = m.move.move.type == PZ_MOVE_STEP ? (uint8_t)rng_below(rng, 4) : 0;
        if (m.move.move.type != PZ_MOVE_STEP) {
            m.move.move.x = (uint16_t)rng_below(rng, 8);
            m.move.move.y = (uint16_t)rng_below(rng, 8);
        }
        break;
    default:
        break;
    }
    assert_true(wire_size(&m) <= cap);
    return wire_write(&m, buf, cap);
}

/* Well-formed messages of every client type in random order, some of them
 * truncated, extended or with a byte changed, from a welcomed client and a
 * client that never said HELLO: the server answers or drops each one and
 * never falls over, and the honest match next door plays on. Deterministic
 * (fixed seed). */
static void test_random_packets(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.max_bad = 1000000;
    cfg.msg_rate = 100000;
    cfg.msg_burst = 100000;
    race r;
    fixture *f = start_race_server(&cfg, &r, true);
    raw_client *x = join_server(f, "fuzz");
    raw_client *y = raw_connect(sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(y);
    rng_t rng;
    rng_seed(&rng, 20261121);
    uint8_t buf[128];
    int mutated = 0;
    for (int i = 0; i < 2000; i++) {
        size_t n = random_msg(&rng, &r, buf, sizeof buf);
        switch (rng_below(&rng, 6)) {
        case 0: /* truncated */
            n = rng_below(&rng, (uint32_t)n);
            mutated++;
            break;
        case 1: /* one byte changed */
            buf[rng_below(&rng, (uint32_t)n)] = (uint8_t)rng_u32(&rng);
            mutated++;
            break;
        case 2: /* trailing garbage */
            if (n < sizeof buf)
                buf[n++] = (uint8_t)rng_u32(&rng);
            mutated++;
            break;
        default:
            break;
        }
        raw_send(i % 7 == 0 ? y : x, buf, n);
        if (i % 50 == 49)
            raw_pump(x, 2, false);
    }
    assert_true(mutated > 500);
    raw_pump(x, 50, false);
    wire_msg m;
    send_move(r.a, 1, r.plan[0]);
    assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    assert_int_equal(m.ack.moves, 1);
    assert_true(raw_wait(r.b, WIRE_PROGRESS, &m, WAIT_MS));
    assert_int_equal(m.progress.slot, 0);
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_true(st.bad_msgs > 0);
    assert_true(st.rooms_created > 1); /* some requests were well formed and served */
    raw_close(x);
    raw_close(y);
    stop_race_server(f, &r);
}

static void test_room_errors(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.max_rooms = 2;
    fixture *f = start(&cfg);
    raw_client *a = join_server(f, "a"), *b = join_server(f, "b"), *c = join_server(f, "c");
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_JOIN_ROOM;
    strcpy(m.join.code, "ZZZZZ");
    raw_send_msg(a, &m);
    assert_true(raw_wait(a, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_NO_ROOM);

    char code[WIRE_ROOM_CODE_LEN + 1];
    create_room(a, code);
    join_room(b, code, 1);
    memset(&m, 0, sizeof m);
    m.type = WIRE_JOIN_ROOM;
    strcpy(m.join.code, code);
    raw_send_msg(c, &m);
    assert_true(raw_wait(c, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_ROOM_FULL);

    /* In a room already. */
    memset(&m, 0, sizeof m);
    m.type = WIRE_QUICK_MATCH;
    raw_send_msg(a, &m);
    assert_true(raw_wait(a, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_STATE);

    /* A bad puzzle request. */
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.by_id = true;
    m.create.game_id = "nosuchkind:3x3:easy#1";
    m.create.game_id_len = (uint16_t)strlen(m.create.game_id);
    m.create.series_len = 1;
    raw_send_msg(c, &m);
    assert_true(raw_wait(c, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_BAD_PARAMS);

    /* Room table full (max 2): the second room is c's, a third is refused. */
    char code2[WIRE_ROOM_CODE_LEN + 1];
    create_room(c, code2);
    raw_client *d = join_server(f, "d");
    memset(&m, 0, sizeof m);
    m.type = WIRE_QUICK_MATCH;
    raw_send_msg(d, &m);
    wire_msg st;
    assert_true(raw_wait(d, WIRE_ERROR, &st, WAIT_MS));
    assert_int_equal(st.error.code, WIRE_ERR_TOO_MANY_ROOMS);
    sv_stats s;
    sv_get_stats(f->sv, &s);
    assert_int_equal(s.rooms_now, 2);

    /* Leaving frees the room once empty. */
    send_simple(c, WIRE_LEAVE_ROOM);
    s = wait_stats(f, c, one_room);
    assert_int_equal(s.rooms_now, 1);
    raw_close(a);
    raw_close(b);
    raw_close(c);
    raw_close(d);
    stop(f);
}

/* A connection that never says HELLO is closed; over max_clients a client
 * is refused in words. */
static void test_handshake_limits(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.hello_timeout_ms = 200;
    cfg.max_clients = 1;
    fixture *f = start(&cfg);
    raw_client *silent = raw_connect(sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(silent);
    wire_msg m;
    assert_true(raw_wait(silent, WIRE_REFUSED, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_HANDSHAKE);
    assert_true(raw_wait_disconnect(silent, WAIT_MS));
    raw_close(silent);

    raw_client *a = join_server(f, "first");
    raw_client *b = raw_connect(sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(b);
    memset(&m, 0, sizeof m);
    m.type = WIRE_HELLO;
    m.hello.magic = WIRE_MAGIC;
    m.hello.version = WIRE_VERSION;
    strcpy(m.hello.name, "second");
    raw_send_msg(b, &m);
    assert_true(raw_wait(b, WIRE_REFUSED, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_FULL);
    assert_true(raw_wait_disconnect(b, WAIT_MS));
    /* Once the first leaves, there is room again. */
    raw_close(a);
    raw_close(b);
    raw_client *c = join_server(f, "third");
    raw_close(c);
    stop(f);
}

/* --max-per-ip 2: a third connection from 127.0.0.1 is ignored by ENet
 * (the client's connect times out); the others keep playing. */
static void test_max_per_ip(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.max_per_ip = 2;
    fixture *f = start(&cfg);
    raw_client *a = join_server(f, "first");
    raw_client *b = join_server(f, "second");
    assert_null(raw_connect(sv_port(f->sv), pump_server, f, 500));
    raw_close(b);
    send_simple(a, WIRE_QUICK_MATCH);
    wire_msg m;
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
    raw_close(a);
    stop(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_packets),
        cmocka_unit_test(test_flood_kicked),
        cmocka_unit_test(test_kicked_silent_peer_dropped),
        cmocka_unit_test(test_random_packets),
        cmocka_unit_test(test_room_errors),
        cmocka_unit_test(test_handshake_limits),
        cmocka_unit_test(test_max_per_ip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
