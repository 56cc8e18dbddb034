/* test_server_disc.c: the server's LAN discovery responder in-process on 127.0.0.1: probes, the details
 * datagram, the span of ports. */
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
#include "util.h"
#include "wire.h"

/* Sends a probe to the server's discovery port and returns the reply and
 * the details datagram that follows it (*det, when not NULL). */
static void probe_details(fixture *f, uint32_t nonce, wire_probe_reply *rep, wire_probe_details *det)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(sv_discovery_port(f->sv))};
    inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    uint8_t buf[WIRE_PROBE_REPLY_MAX + 16] = {9, 9, 9};
    /* Garbage first gets no answer and does not stop the real probe. */
    assert_int_equal(sendto(fd, buf, 3, 0, (struct sockaddr *)&to, sizeof to), 3);
    wire_probe p = {.version = WIRE_VERSION, .nonce = nonce};
    size_t n = wire_write_probe(&p, buf, sizeof buf);
    assert_int_equal(sendto(fd, buf, n, 0, (struct sockaddr *)&to, sizeof to), (ssize_t)n);
    ssize_t got = -1;
    for (int i = 0; i < 300 && got < 0; i++) {
        sv_service(f->sv, fixture_now(f), 5);
        got = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    }
    assert_true(got > 0);
    assert_true(wire_read_probe_reply(buf, (size_t)got, rep));
    assert_int_equal(rep->nonce, nonce);
    assert_int_equal(rep->game_port, sv_port(f->sv));
    if (det) {
        uint8_t dbuf[WIRE_PROBE_DETAILS_MAX + 16];
        got = -1;
        for (int i = 0; i < 300 && got < 0; i++) {
            sv_service(f->sv, fixture_now(f), 5);
            got = recv(fd, dbuf, sizeof dbuf, MSG_DONTWAIT);
        }
        assert_true(got > 0);
        assert_true(wire_read_probe_details(dbuf, (size_t)got, det));
        assert_int_equal(det->nonce, nonce);
        assert_int_equal(det->game_port, sv_port(f->sv));
    }
    close(fd);
}

static void probe(fixture *f, uint32_t nonce, wire_probe_reply *rep)
{
    probe_details(f, nonce, rep, NULL);
}

static void test_discovery(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    strcpy(cfg.name, "test server");
    fixture *f = start(&cfg);
    assert_true(sv_discovery_port(f->sv) != 0);
    wire_probe_reply rep;
    probe(f, 0xC0FFEEu, &rep);
    assert_string_equal(rep.name, "test server");
    assert_int_equal(rep.players_waiting, 0);
    /* One player waiting in a room shows up. */
    raw_client *a = join_server(f, "a");
    send_simple(a, WIRE_QUICK_MATCH);
    wire_msg m;
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
    probe(f, 2, &rep);
    assert_int_equal(rep.players_waiting, 1);
    assert_int_equal(rep.rooms, 1);
    assert_int_equal(rep.players, 1);
    raw_close(a);

    /* A flood of probes (forged sources would make the server an
     * amplifier) gets at most the reply rate's burst of answers. */
    int fd = send_probes(f, 9, 300);
    sv_stats st;
    for (int i = 0; i < 300; i++) {
        sv_service(f->sv, fixture_now(f), 1);
        sv_get_stats(f->sv, &st);
        if (st.discovery_replies + st.discovery_dropped >= 302)
            break;
    }
    int replies = 0, details = 0;
    uint8_t in[WIRE_PROBE_REPLY_MAX + WIRE_PROBE_DETAILS_MAX];
    ssize_t got;
    wire_probe_reply rr;
    wire_probe_details dd;
    while ((got = recv(fd, in, sizeof in, MSG_DONTWAIT)) > 0) {
        replies += wire_read_probe_reply(in, (size_t)got, &rr);
        details += wire_read_probe_details(in, (size_t)got, &dd);
    }
    assert_true(st.discovery_dropped > 0);
    assert_true(replies > 0 && replies <= 60);
    assert_true(details <= replies); /* a dropped probe gets no details either */
    close(fd);
    stop(f);

    /* An embedder's name cut in the middle of a UTF-8 character is cleaned,
     * not refused. */
    base_config(&cfg);
    strcpy(cfg.name, "caf\xc3");
    f = start(&cfg);
    probe(f, 3, &rep);
    assert_string_equal(rep.name, "caf");
    stop(f);
}

static void send_create_id(raw_client *c, const char *id, int series)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.by_id = true;
    m.create.game_id = id;
    m.create.game_id_len = (uint16_t)strlen(id);
    m.create.series_len = (uint8_t)series;
    raw_send_msg(c, &m);
}

/* Details: the same server id on every probe; a player's own game (lan_host)
 * names its waiting room and what it races, a dedicated server no room. */
static void test_discovery_details(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    wire_probe_reply rep;
    wire_probe_details d1, d2;
    probe_details(f, 5, &rep, &d1);
    probe_details(f, 6, &rep, &d2);
    assert_true(d1.server_id != 0);
    assert_true(d1.server_id == d2.server_id);
    assert_int_equal(d1.flags, 0);
    raw_client *a = join_server(f, "ann");
    send_create_id(a, "maze:9x7:hard#4", 3);
    wire_msg m;
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
    probe_details(f, 7, &rep, &d1);
    assert_int_equal(d1.flags, 0); /* a dedicated server keeps its rooms to itself */
    raw_close(a);
    stop(f);

    base_config(&cfg);
    cfg.lan_host = true;
    f = start(&cfg);
    probe_details(f, 8, &rep, &d1);
    assert_int_equal(d1.flags, WIRE_DISC_HOST_GAME);
    a = join_server(f, "ann");
    send_create_id(a, "maze:9x7:hard#4", 3);
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
    char code[WIRE_ROOM_CODE_LEN + 1];
    memcpy(code, m.room.code, sizeof code);
    probe_details(f, 9, &rep, &d2);
    assert_int_equal(d2.flags, WIRE_DISC_HOST_GAME | WIRE_DISC_HAS_ROOM);
    assert_string_equal(d2.room, code);
    assert_string_equal(d2.host_name, "ann");
    assert_int_equal(d2.params.kind, PZ_MAZE);
    assert_int_equal(d2.params.w, 9);
    assert_int_equal(d2.params.h, 7);
    assert_int_equal(d2.params.diff, PZ_HARD);
    assert_int_equal(d2.series, 3);
    raw_close(a);
    stop(f);
}

/* Each discovery socket takes a port of its own in its span: the second
 * server on a port moves to a later one; with the span full, none. */
static void test_discovery_span(void **ctx)
{
    (void)ctx;
    const char *err = NULL;
    sv_disc *probe_port = sv_disc_open("127.0.0.1", 0, WIRE_DISCOVERY_SPAN, &err);
    assert_non_null(probe_port);
    int base = sv_disc_port(probe_port);
    sv_disc_close(probe_port);
    if (base + WIRE_DISCOVERY_SPAN > 65535)
        skip();
    sv_disc *d[WIRE_DISCOVERY_SPAN + 1] = {NULL};
    int opened = 0;
    for (int i = 0; i <= WIRE_DISCOVERY_SPAN; i++) {
        d[i] = sv_disc_open("127.0.0.1", base, WIRE_DISCOVERY_SPAN, &err);
        if (!d[i])
            break;
        opened++;
        int p = sv_disc_port(d[i]);
        assert_true(p >= base && p < base + WIRE_DISCOVERY_SPAN);
        for (int j = 0; j < i; j++)
            assert_int_not_equal(p, sv_disc_port(d[j]));
    }
    /* Something else may hold a port of the span; never more than it has. */
    assert_true(opened >= 1 && opened <= WIRE_DISCOVERY_SPAN);
    assert_null(d[opened]);
    assert_string_equal(err, "discovery: port in use");
    for (int i = 0; i < opened; i++)
        sv_disc_close(d[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_discovery),
        cmocka_unit_test(test_discovery_details),
        cmocka_unit_test(test_discovery_span),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
