/* test_server_specport.c: the spectator port against the in-process server: WATCH_AT on the game port, what
 * the spectator port refuses, bad input there, a stop with spectators there. */
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
#include <unistd.h>

#include "puzzle.h"
#include "raw_client.h"
#include "sv.h"
#include "sv_fixture.h"
#include "util.h"
#include "wire.h"

static fixture *start_specport(int max_bad)
{
    sv_config cfg;
    base_config(&cfg);
    cfg.spectator_port = 0;
    if (max_bad)
        cfg.max_bad = max_bad;
    fixture *f = start(&cfg);
    assert_true(sv_spectator_port(f->sv) != 0);
    assert_true(sv_spectator_port(f->sv) != sv_port(f->sv));
    return f;
}

static raw_client *on_spec_port(fixture *f, const char *name)
{
    raw_client *c = raw_connect(sv_spectator_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(c);
    if (name)
        assert_true(raw_hello(c, name, WAIT_MS));
    return c;
}

static void send_code(raw_client *c, int type, const char *code)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = (uint8_t)type;
    memcpy(m.join.code, code, WIRE_ROOM_CODE_LEN + 1);
    raw_send_msg(c, &m);
}

static void expect_error(raw_client *c, int code, const char *text)
{
    wire_msg m;
    assert_true(raw_wait(c, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, code);
    if (text)
        assert_non_null(strstr(m.error.text, text));
}

/* [WATCH-7]: WATCH on the game port of a server with a spectator port is
 * answered WATCH_AT {code, port} and nothing else; an unknown code and a
 * full room are answered there as before; the advertised port can be set. */
static void test_watch_at(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.spectator_port = 0;
    cfg.room_spectators = 1;
    fixture *f = start(&cfg);
    raw_client *a = join_server(f, "alice");
    char code[WIRE_ROOM_CODE_LEN + 1];
    create_room(a, code);
    raw_client *w = join_server(f, "watcher");
    send_code(w, WIRE_WATCH, code);
    wire_msg m;
    assert_true(raw_next(w, &m, WAIT_MS));
    assert_int_equal(m.type, WIRE_WATCH_AT);
    assert_string_equal(m.watch_at.code, code);
    assert_int_equal(m.watch_at.port, sv_spectator_port(f->sv));
    raw_pump(w, 50, false);
    assert_false(raw_has(w, WIRE_ROOM_STATE)); /* nothing else */
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.watch_redirects, 1);
    assert_int_equal(st.watches, 0);
    assert_int_equal(st.spectators_now, 0);

    /* Still in no room on the game port: it may ask again, or create. */
    sv_set_spectator_public_port(f->sv, 4242);
    send_code(w, WIRE_WATCH, code);
    assert_true(raw_wait(w, WIRE_WATCH_AT, &m, WAIT_MS));
    assert_int_equal(m.watch_at.port, 4242);
    sv_set_spectator_public_port(f->sv, 0);

    /* Follow it: HELLO and WATCH on the spectator port. */
    raw_client *s = on_spec_port(f, "watcher");
    send_code(s, WIRE_WATCH, code);
    assert_true(raw_next(s, &m, WAIT_MS));
    assert_int_equal(m.type, WIRE_ROOM_STATE);
    assert_int_equal(m.room.your_slot, WIRE_SLOT_WATCHER);
    assert_int_equal(m.room.spectators, 1);

    /* The room is full now: refused on the game port already. */
    send_code(w, WIRE_WATCH, code);
    expect_error(w, WIRE_ERR_WATCH_FULL, "room");
    send_code(w, WIRE_WATCH, "ZZZZZ");
    expect_error(w, WIRE_ERR_NO_ROOM, NULL);
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.watch_redirects, 2);
    assert_int_equal(st.watches, 1);
    assert_int_equal(st.watch_refused, 1);
    raw_close(s);
    raw_close(w);
    raw_close(a);
    stop(f);
}

static bool three_bad(const sv_stats *st)
{
    return st->bad_msgs >= 3;
}

/* [WATCH-8]: CREATE_ROOM, JOIN_ROOM, QUICK_MATCH and RESUME are refused on
 * the spectator port, WATCH there never gets WATCH_AT, HELLO comes first
 * as on the game port; a watching spectator's MOVE is bad and max_bad of
 * them disconnect it. */
static void test_spec_port_refusals(void **ctx)
{
    (void)ctx;
    fixture *f = start_specport(3);
    raw_client *a = join_server(f, "alice");
    char code[WIRE_ROOM_CODE_LEN + 1];
    create_room(a, code);

    raw_client *early = on_spec_port(f, NULL);
    send_code(early, WIRE_WATCH, code);
    expect_error(early, WIRE_ERR_HANDSHAKE, NULL);

    raw_client *s = on_spec_port(f, "s");
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.params = (pz_params){.kind = PZ_SUM, .w = 5, .h = 4, .diff = PZ_EASY};
    raw_send_msg(s, &m);
    expect_error(s, WIRE_ERR_STATE, "spectator port");
    send_code(s, WIRE_JOIN_ROOM, code);
    expect_error(s, WIRE_ERR_STATE, "spectator port");
    send_simple(s, WIRE_QUICK_MATCH);
    expect_error(s, WIRE_ERR_STATE, "spectator port");
    memset(&m, 0, sizeof m);
    m.type = WIRE_RESUME;
    memcpy(m.resume.code, code, sizeof m.resume.code);
    raw_send_msg(s, &m);
    expect_error(s, WIRE_ERR_STATE, "spectator port");
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.rooms_now, 1);
    send_code(s, WIRE_WATCH, code);
    assert_true(raw_next(s, &m, WAIT_MS));
    assert_int_equal(m.type, WIRE_ROOM_STATE);
    assert_int_equal(m.room.your_slot, WIRE_SLOT_WATCHER);

    uint32_t bad0 = (uint32_t)st.bad_msgs;
    assert_int_equal(bad0, 1); /* the early WATCH */
    send_move(s, 1, (pz_move){PZ_MOVE_ROTATE_CW, 0, 0, 0});
    expect_error(s, WIRE_ERR_SPECTATOR, NULL);
    send_move(s, 2, (pz_move){PZ_MOVE_ROTATE_CW, 0, 0, 0});
    send_move(s, 3, (pz_move){PZ_MOVE_ROTATE_CW, 0, 0, 0});
    assert_true(raw_wait_disconnect(s, WAIT_MS));
    st = wait_stats(f, a, three_bad);
    assert_true(st.bad_msgs >= 4);
    assert_int_equal(st.kicked, 1);
    assert_int_equal(st.moves_validated, 0);
    assert_int_equal(raw_undecodable(early), 0);
    raw_close(s);
    raw_close(early);
    raw_close(a);
    stop(f);
}

static bool four_bad(const sv_stats *st)
{
    return st->bad_msgs >= 4;
}

static bool rate_limited(const sv_stats *st)
{
    return st->rate_limited >= 1;
}

/* Garbage on the spectator port: undecodable, unknown and oversized
 * messages are counted and answered, a burst over the rate is refused;
 * datagrams that are not ENet at all
 * are ignored; the server and a spectator there carry on. */
static void test_spec_port_garbage(void **ctx)
{
    (void)ctx;
    fixture *f = start_specport(0);
    raw_client *x = on_spec_port(f, "mallory");
    uint8_t unknown[4] = {0xEE, 1, 2, 3};
    raw_send(x, unknown, sizeof unknown);
    expect_error(x, WIRE_ERR_BAD_MESSAGE, NULL);
    raw_send(x, "", 0);
    size_t big = WIRE_MSG_MAX + 100;
    uint8_t *huge = mr_alloc(big, 1);
    huge[0] = WIRE_WATCH;
    raw_send(x, huge, big);
    free(huge);
    uint8_t server_msg[1] = {WIRE_WELCOME};
    raw_send(x, server_msg, 1);
    sv_stats st = wait_stats(f, x, four_bad);
    assert_int_equal(st.bad_msgs, 4);
    assert_int_equal(st.kicked, 0);
    assert_true(raw_connected(x));

    /* Over the message rate: the token bucket answers ERROR 12 as on the game port. */
    for (int i = 0; i < 400; i++)
        send_simple(x, WIRE_LIST_ROOMS);
    st = wait_stats(f, x, rate_limited);
    assert_true(st.rate_limited >= 1);

    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(sv_spectator_port(f->sv))};
    inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    uint8_t junk[1400];
    uint64_t seed = 12345;
    for (int i = 0; i < 300; i++) {
        size_t n = 1 + (size_t)(i * 37) % sizeof junk;
        for (size_t k = 0; k < n; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            junk[k] = (uint8_t)(seed >> 56);
        }
        if (i % 3 == 0) { /* an ENet header for no peer with a CONNECT command */
            junk[0] = 0xFF;
            junk[1] = 0xFF;
        }
        sendto(fd, junk, n, 0, (struct sockaddr *)&to, sizeof to);
    }
    close(fd);
    /* The one past the junk still works. */
    raw_client *a = join_server(f, "alice");
    char code[WIRE_ROOM_CODE_LEN + 1];
    create_room(a, code);
    raw_client *s = on_spec_port(f, "fine");
    send_code(s, WIRE_WATCH, code);
    wire_msg m;
    assert_true(raw_wait(s, WIRE_ROOM_STATE, &m, WAIT_MS));
    assert_int_equal(m.room.your_slot, WIRE_SLOT_WATCHER);
    assert_int_equal(raw_undecodable(s), 0);
    assert_int_equal(f->service_failures, 0);
    raw_close(s);
    raw_close(a);
    raw_close(x);
    stop(f);
}

/* A stop with spectators on the spectator port: each sees the aborted
 * game's end, then SHUTDOWN, and the server is done within its second. */
static void test_stop_with_spectators(void **ctx)
{
    (void)ctx;
    fixture *f = start_specport(0);
    raw_client *a = join_server(f, "alice"), *b = join_server(f, "bob");
    char code[WIRE_ROOM_CODE_LEN + 1];
    create_room(a, code);
    join_room(b, code, 1);
    wire_msg m;
    raw_client *s[3];
    for (int i = 0; i < 3; i++) {
        char name[8];
        snprintf(name, sizeof name, "s%d", i);
        s[i] = on_spec_port(f, name);
        send_code(s[i], WIRE_WATCH, code);
        assert_true(raw_wait(s[i], WIRE_ROOM_STATE, &m, WAIT_MS));
    }
    send_ready(a);
    send_ready(b);
    assert_true(raw_wait(a, WIRE_MATCH_START, &m, WAIT_MS));
    for (int i = 0; i < 3; i++)
        assert_true(raw_wait(s[i], WIRE_WATCH_START, &m, WAIT_MS));
    uint64_t t0 = mr_now_us();
    sv_request_stop(f->sv);
    for (int i = 0; i < 3; i++) {
        assert_true(raw_wait(s[i], WIRE_MATCH_END, &m, WAIT_MS));
        assert_true(raw_wait(s[i], WIRE_SHUTDOWN, &m, WAIT_MS));
        assert_true(raw_wait_disconnect(s[i], WAIT_MS));
    }
    assert_true(raw_wait(a, WIRE_SHUTDOWN, &m, WAIT_MS));
    assert_true(raw_wait(b, WIRE_SHUTDOWN, &m, WAIT_MS));
    for (int i = 0; i < 200 && !sv_done(f->sv); i++)
        raw_pump(a, 10, false);
    assert_true(sv_done(f->sv));
    assert_true(mr_now_us() - t0 < 1500000);
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.peers_now, 0);
    assert_true(st.spectator_udp_out > 0);
    assert_true(st.spectator_udp_in > 0);
    for (int i = 0; i < 3; i++)
        raw_close(s[i]);
    raw_close(a);
    raw_close(b);
    stop(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_watch_at),
        cmocka_unit_test(test_spec_port_refusals),
        cmocka_unit_test(test_spec_port_garbage),
        cmocka_unit_test(test_stop_with_spectators),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
