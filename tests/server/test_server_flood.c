/* test_server_flood.c: per-address defences: a handshake flood (1,100 forged ENet CONNECTs from as many
 * 127.x.y.z addresses) does not lock new players (or spectators, on the spectator port) out; room-code
 * guessing backs off. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sv_fixture.h"
#include "util.h"

#define FORGED 1100

/* The handshake tests run on the game port, then on the spectator port
 * (its own ENet host and thread, the same filter). */
static bool on_spec_port;
/* Forged CONNECTs with an ENet 1.3.17 client's MTU (1400), which the game
 * port answers with a cookie when over its budgets; else 1392 (an older
 * ENet's), which it drops. */
static bool client_mtu;

static void flood_config(sv_config *cfg)
{
    base_config(cfg);
    cfg->spectator_port = on_spec_port ? 0 : SV_SPECTATOR_PORT_OFF;
}

static uint16_t target(const fixture *f)
{
    return on_spec_port ? sv_spectator_port(f->sv) : sv_port(f->sv);
}

typedef struct flood {
    fixture *f;
    int sent, per_pump;
} flood;

static size_t put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
    return 2;
}

static size_t put32(uint8_t *p, uint32_t v)
{
    put16(p, v >> 16);
    put16(p + 2, v & 0xFFFF);
    return 4;
}

/* One ENet CONNECT, as a client's first datagram: header (no peer, sent
 * time), CONNECT command with acknowledge, the connect parameters. */
static size_t make_connect(uint8_t *p, uint32_t connect_id)
{
    size_t n = 0;
    n += put16(p + n, 0x8FFF); /* sent-time flag, peer 0xFFF */
    n += put16(p + n, 0);
    p[n++] = 0x82; /* CONNECT | ACKNOWLEDGE */
    p[n++] = 0xFF;
    n += put16(p + n, 1);
    n += put16(p + n, 0); /* outgoing peer ID */
    p[n++] = 0xFF;
    p[n++] = 0xFF;
    n += put32(p + n, client_mtu ? 1400 : 1392); /* MTU */
    n += put32(p + n, 32768);                    /* window */
    n += put32(p + n, 1);                        /* channels */
    n += put32(p + n, 0);
    n += put32(p + n, 0);
    n += put32(p + n, 5000);
    n += put32(p + n, 2);
    n += put32(p + n, 2);
    n += put32(p + n, connect_id);
    n += put32(p + n, 0);
    return n;
}

/* A UDP socket on src (host order; loopback: any 127/8 address is ours). */
static int socket_on(uint32_t src)
{
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    assert_true(s >= 0);
    struct sockaddr_in from = {.sin_family = AF_INET};
    from.sin_addr.s_addr = htonl(src);
    assert_int_equal(bind(s, (struct sockaddr *)&from, sizeof from), 0);
    return s;
}

static void send_to(int s, uint16_t port, const uint8_t *d, size_t n)
{
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(sendto(s, d, n, 0, (struct sockaddr *)&to, sizeof to), (ssize_t)n);
}

/* A forged CONNECT from 127.1.a.b. */
static void send_forged(uint16_t port, int i)
{
    int s = socket_on(0x7F010000u | (uint32_t)(i / 250) << 8 | (uint32_t)(i % 250 + 1));
    uint8_t d[64];
    send_to(s, port, d, make_connect(d, 0x1000u + (uint32_t)i));
    close(s);
}

/* The server's pump, with the flood going on beside it. */
static void pump_flood(void *ctx)
{
    flood *fl = ctx;
    for (int k = 0; k < fl->per_pump && fl->sent < FORGED; k++)
        send_forged(target(fl->f), fl->sent++);
    pump_server(fl->f);
}

static bool half_dropped(const sv_stats *st)
{
    return st->handshakes_dropped > FORGED / 2 && st->handshakes_expired > 0;
}

static bool sixteen_dropped(const sv_stats *st)
{
    return st->handshakes_dropped >= 16;
}

/* Issue 14: 1,100 forged CONNECTs filled every peer slot and locked new
 * players out for 32 s. Now a player connecting while they arrive gets in
 * (within ENet's connect retries), and most of them are never answered. */
static void test_connect_during_flood(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    flood_config(&cfg);
    flood fl = {.f = start(&cfg), .per_pump = 20};
    /* 1,050 of them first: on the old server every peer slot is taken when
     * the player comes (1,032 of them) for ENet's 30 s; the rest arrive
     * while it connects. */
    while (fl.sent < FORGED - 50)
        pump_flood(&fl);
    fl.per_pump = 1;
    raw_client *c = raw_connect(target(fl.f), pump_flood, &fl, 12000);
    assert_non_null(c);
    assert_true(raw_hello(c, "newcomer", WAIT_MS));
    while (fl.sent < FORGED)
        pump_flood(&fl);
    sv_stats st = wait_stats(fl.f, c, half_dropped);
    assert_true(st.handshakes_dropped > FORGED / 2);
    assert_true(st.handshakes_expired > 0);
    /* Another player, right after the flood. */
    raw_client *d = raw_connect(target(fl.f), pump_server, fl.f, 12000);
    assert_non_null(d);
    assert_true(raw_hello(d, "second", WAIT_MS));
    raw_close(c);
    raw_close(d);
    stop(fl.f);
}

/* Issue 26: the newcomer of test_connect_during_flood got in after about
 * 3.5 s, on ENet's third try, because its first CONNECTs were dropped with
 * the forged ones. Now a CONNECT over the budgets is answered with a
 * stateless cookie (sv_cookie.c): the newcomer's first CONNECT is answered
 * and it connects without a resend, while the forged CONNECTs (made as a
 * 1.3.17 client sends them, so answered with a cookie too) take no peer.
 * On the old server its first CONNECT was dropped. */
static void test_first_connect_during_flood(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    flood_config(&cfg);
    flood fl = {.f = start(&cfg), .per_pump = 20};
    client_mtu = true;
    while (fl.sent < FORGED - 50)
        pump_flood(&fl);
    fl.per_pump = 1;
    uint64_t t0 = mr_now_us();
    raw_client *c = raw_connect(target(fl.f), pump_flood, &fl, 12000);
    double ms = (double)(mr_now_us() - t0) / 1000.0;
    assert_non_null(c);
    unsigned resends = raw_resends(c);
    assert_true(raw_hello(c, "newcomer", WAIT_MS));
    while (fl.sent < FORGED)
        pump_flood(&fl);
    client_mtu = false;
    sv_stats st;
    sv_get_stats(fl.f->sv, &st);
    print_message(
        "newcomer connected in %.1f ms, %u resends; %llu CONNECTs answered with a cookie, %llu dropped, "
        "%llu peers from cookies\n",
        ms, resends, (unsigned long long)st.handshakes_cookies, (unsigned long long)st.handshakes_dropped,
        (unsigned long long)st.cookie_peers);
    assert_int_equal(resends, 0);
    assert_true(st.handshakes_cookies > FORGED / 4);
    assert_int_equal(st.cookie_peers, 1); /* the newcomer's, no forged one */
    raw_close(c);
    stop(fl.f);
}

static bool one_cookie(const sv_stats *st)
{
    return st->handshakes_cookies >= 1;
}

/* The cookie is bound to the address it was sent to and cannot be
 * guessed: a client-like CONNECT over the per-address budget (the 5th
 * from one address) is answered with a cookie VERIFY_CONNECT, which this
 * test receives; its acknowledgement sent from another address, or with
 * one bit changed, makes no peer; sent back as a client would, it makes
 * one. */
static void test_cookie_bound_to_address(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    flood_config(&cfg);
    fixture *f = start(&cfg);
    client_mtu = true;
    int s[5];
    uint8_t d[64];
    for (int i = 0; i < 5; i++) {
        s[i] = socket_on(0x7F020009u);
        send_to(s[i], target(f), d, make_connect(d, 0x3000u + (uint32_t)i));
    }
    client_mtu = false;
    raw_client *c = raw_connect(sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(c);
    assert_true(wait_stats(f, c, one_cookie).handshakes_cookies == 1);
    /* The cookie VERIFY_CONNECT on the 5th socket: its header's sent time
     * and its reliable sequence number are the cookie. */
    uint8_t v[64];
    ssize_t n = -1;
    for (int k = 0; k < 200 && n < 0; k++) {
        raw_pump(c, 5, false);
        n = recv(s[4], v, sizeof v, MSG_DONTWAIT);
    }
    assert_int_equal(n, 48);
    assert_int_equal(v[4] & 0x0F, 3); /* VERIFY_CONNECT */
    unsigned slot = (unsigned)v[8] << 8 | v[9], s_in = v[11];
    uint8_t ack[12] = {(uint8_t)(0x80 | s_in << 4 | slot >> 8),
                       (uint8_t)slot,
                       0,
                       0,
                       0x01,
                       0xFF,
                       v[6],
                       v[7],
                       v[6],
                       v[7],
                       v[2],
                       v[3]};
    int other = socket_on(0x7F02000Au);
    send_to(other, target(f), ack, sizeof ack);
    ack[11] ^= 1;
    send_to(s[4], target(f), ack, sizeof ack);
    raw_pump(c, 100, false);
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.cookie_peers, 0);
    ack[11] ^= 1;
    send_to(s[4], target(f), ack, sizeof ack);
    raw_pump(c, 100, false);
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.cookie_peers, 1);
    for (int i = 0; i < 5; i++)
        close(s[i]);
    close(other);
    raw_close(c);
    stop(f);
}

/* One address cannot hold more than a few half-open peers. */
static void test_per_address_budget(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    flood_config(&cfg);
    fixture *f = start(&cfg);
    /* Every socket stays open until the end, so that no two CONNECTs come
     * from the same port (that would be one peer's resend, not a new one). */
    int socks[20];
    for (int i = 0; i < 20; i++) {
        socks[i] = socket_on(0x7F020001u);
        uint8_t d[64];
        send_to(socks[i], target(f), d, make_connect(d, 0x2000u + (uint32_t)i));
        pump_server(f);
    }
    for (int i = 0; i < 20; i++)
        close(socks[i]);
    /* The spectator port's thread reads them in its own time: a bounded
     * wait for its count, then the exact figure. */
    raw_client *c = raw_connect(sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(c);
    sv_stats st = wait_stats(f, c, sixteen_dropped);
    raw_pump(c, 50, false);
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.handshakes_dropped, 20 - 4);
    raw_close(c);
    stop(f);
}

/* Room-code guessing: after 5 unknown codes in a row from one address,
 * each further JOIN must wait (ERROR 12 RATE), twice as long each time. */
static void test_join_backoff(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    raw_client *c = join_server(f, "guesser");
    int no_room = 0, rate = 0;
    for (int i = 0; i < 12; i++) {
        wire_msg m;
        memset(&m, 0, sizeof m);
        m.type = WIRE_JOIN_ROOM;
        strcpy(m.join.code, "ZZZZZ");
        m.join.code[4] = "ABCDEFGHJK"[i % 10];
        raw_send_msg(c, &m);
        assert_true(raw_wait(c, WIRE_ERROR, &m, WAIT_MS));
        no_room += m.error.code == WIRE_ERR_NO_ROOM;
        rate += m.error.code == WIRE_ERR_RATE;
    }
    assert_int_equal(no_room, 6); /* 5 free, the 6th starts the wait */
    assert_int_equal(rate, 6);
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.joins_backed_off, 6);
    /* Making a room is not a guess: it still works, with its full
     * generation budget (the address record the misses made has one). */
    char code[WIRE_ROOM_CODE_LEN + 1];
    create_room(c, code);
    raw_close(c);
    stop(f);
}

static int spec_port_mode(void **ctx)
{
    (void)ctx;
    on_spec_port = true;
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_connect_during_flood),
        cmocka_unit_test(test_per_address_budget),
        cmocka_unit_test(test_join_backoff),
        cmocka_unit_test(test_first_connect_during_flood),
        cmocka_unit_test(test_cookie_bound_to_address),
    };
    const struct CMUnitTest spec_tests[] = {
        cmocka_unit_test(test_connect_during_flood),
        cmocka_unit_test(test_per_address_budget),
        cmocka_unit_test(test_first_connect_during_flood),
    };
    int failed = cmocka_run_group_tests_name("on the game port", tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("on the spectator port", spec_tests, spec_port_mode, NULL);
    return failed;
}
