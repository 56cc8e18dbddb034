/* test_invite_units.c: the Host's invite (cl_invite) and joining by code (cl_dial) against a scripted
 * coordinator on 127.0.0.1: registration, candidates, introductions, leave; lookups, the relay learnt by a
 * second lookup, and the player's failure texts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cl_dial.h"
#include "cl_invite.h"
#include "cl_stun.h"
#include "coord_wire.h"
#include "stun.h"
#include "sv.h"
#include "util.h"

#define LOOP 0x7f000001u

/* A UDP socket on 127.0.0.1, any port. */
static int udp(uint16_t *port)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    assert_true(fd >= 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(LOOP)};
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    socklen_t len = sizeof sa;
    assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
    *port = ntohs(sa.sin_port);
    return fd;
}

/* The next datagram on fd within ms (0: none), its source in *from. */
static size_t recv_wait(int fd, uint8_t *buf, size_t cap, int ms, stun_addr *from)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    if (poll(&p, 1, ms) <= 0)
        return 0;
    struct sockaddr_in sa;
    socklen_t len = sizeof sa;
    ssize_t n = recvfrom(fd, buf, cap, 0, (struct sockaddr *)&sa, &len);
    if (n <= 0)
        return 0;
    *from = (stun_addr){ntohl(sa.sin_addr.s_addr), ntohs(sa.sin_port), false};
    return (size_t)n;
}

/* The next coordinator request on the fake coordinator's socket. */
static bool co_recv(int co, coord_msg *m, stun_addr *from, int ms)
{
    uint8_t buf[COORD_MAX];
    size_t n = recv_wait(co, buf, sizeof buf, ms, from);
    bool vbad = false;
    return n && coord_decode(buf, n, m, &vbad) && !vbad;
}

static void co_send(int co, stun_addr to, const coord_msg *m)
{
    uint8_t buf[COORD_MAX];
    size_t n = coord_encode(m, buf, sizeof buf);
    assert_true(cl_udp_send(co, to, buf, n));
}

/* The Host: HOST_REGISTER with the LAN candidate from its socket; HOST_OK
 * gives the code; an INTRODUCE makes it probe the joiner and ask for relay
 * credentials; destroy sends HOST_LEAVE with the token. */
static void test_invite_host(void **st)
{
    (void)st;
    uint16_t cport, hport, jport;
    int co = udp(&cport), host = udp(&hport), joiner = udp(&jport);
    uint32_t lan = 0xc0a80102u; /* 192.168.1.2 */
    cl_invite_cfg cfg = {.coordinator = {LOOP, cport},
                         .name = "Ann",
                         .fd = host,
                         .port = hport,
                         .lan = &lan,
                         .n_lan = 1,
                         .no_portmap = true};
    const char *err = NULL;
    uint64_t now = 1000;
    cl_invite_t *iv = cl_invite_create(&cfg, now, &err);
    assert_non_null(iv);
    cl_invite_status s;
    cl_invite_get_status(iv, &s);
    assert_string_equal(s.code, "");
    assert_non_null(strstr(s.coord, "Asking the coordinator at 127.0.0.1:"));
    assert_string_equal(s.router, "Router: not asked to forward the game port");

    coord_msg m;
    stun_addr from;
    assert_true(co_recv(co, &m, &from, 2000));
    assert_int_equal(m.type, COORD_HOST_REGISTER);
    assert_int_equal(from.port, hport); /* from the game's own socket */
    assert_string_equal(m.name, "Ann");
    assert_int_equal(m.ncand, 1);
    assert_int_equal(m.cand[0].kind, COORD_CAND_LAN);
    assert_int_equal(m.cand[0].addr.ip, lan);
    assert_int_equal(m.cand[0].addr.port, hport);

    coord_msg ok = {.type = COORD_HOST_OK, .id = m.id, .seconds = 60, .seen = {0x0b00000bu, 4242}};
    memcpy(ok.code, "+K7MP9NXA", 10);
    memset(ok.token, 7, sizeof ok.token);
    co_send(co, from, &ok);
    uint8_t buf[COORD_MAX];
    size_t n = recv_wait(host, buf, sizeof buf, 2000, &from);
    assert_true(n > 0);
    assert_true(cl_invite_feed(iv, from, buf, n, now)); /* the coordinator's: never ENet's */
    cl_invite_update(iv, now);
    cl_invite_get_status(iv, &s);
    assert_string_equal(s.code, "+K7MP9NXA");
    assert_string_equal(s.seen, "11.0.0.11:4242");
    assert_false(s.failed);
    /* Not the coordinator's and not STUN: ENet's. */
    assert_false(cl_invite_feed(iv, (stun_addr){LOOP, jport, false}, (const uint8_t *)"\x80\x01xyz", 5, now));

    /* A joiner introduced: probes towards it, and relay credentials asked for. */
    coord_msg in = {.type = COORD_INTRODUCE, .pair = 77, .seen = {LOOP, jport}};
    memset(in.token, 9, sizeof in.token);
    co_send(co, (stun_addr){LOOP, hport, false}, &in);
    n = recv_wait(host, buf, sizeof buf, 2000, &from);
    assert_true(n > 0);
    assert_true(cl_invite_feed(iv, from, buf, n, now));
    cl_invite_update(iv, now);
    n = recv_wait(joiner, buf, sizeof buf, 2000, &from);
    stun_msg probe;
    assert_true(n > 0 && stun_decode(buf, n, &probe));
    assert_int_equal(probe.cls, STUN_INDICATION);
    assert_int_equal(from.port, hport);
    assert_true(co_recv(co, &m, &from, 2000));
    assert_int_equal(m.type, COORD_TURN_REQUEST);
    assert_int_equal(m.pair, 77);
    cl_invite_get_status(iv, &s);
    assert_int_equal(s.introduced, 1);
    assert_non_null(strstr(s.joiner, "is joining"));
    /* The joiner's own probe back is taken (STUN is never ENet's). */
    assert_true(cl_invite_feed(iv, (stun_addr){LOOP, jport, false}, buf, n, now));

    /* No relay on this coordinator: said, and the game goes on. */
    coord_msg no = {.type = COORD_ERROR, .id = m.id, .error = COORD_E_NO_TURN};
    snprintf(no.text, sizeof no.text, "no TURN server");
    co_send(co, (stun_addr){LOOP, hport, false}, &no);
    n = recv_wait(host, buf, sizeof buf, 2000, &from);
    assert_true(cl_invite_feed(iv, from, buf, n, now));
    cl_invite_update(iv, now);
    cl_invite_get_status(iv, &s);
    assert_string_equal(s.code, "+K7MP9NXA");
    assert_non_null(strstr(s.joiner, "the coordinator offers none"));

    /* Leaving ends the code at once. */
    cl_invite_destroy(iv);
    bool left = false;
    while (!left && co_recv(co, &m, &from, 2000))
        left = m.type == COORD_HOST_LEAVE && m.token[0] == 7;
    assert_true(left);
    close(co), close(host), close(joiner);
}

/* A silent coordinator: the host says so, with no code, and asks again. */
static void test_invite_silent(void **st)
{
    (void)st;
    uint16_t cport, hport;
    int co = udp(&cport), host = udp(&hport);
    cl_invite_cfg cfg = {
        .coordinator = {LOOP, cport}, .name = "Ann", .fd = host, .port = hport, .no_portmap = true};
    const char *err = NULL;
    cl_invite_t *iv = cl_invite_create(&cfg, 0, &err);
    assert_non_null(iv);
    cl_invite_status s;
    uint64_t t = 0;
    for (; t < 10000; t += 100) {
        cl_invite_update(iv, t);
        cl_invite_get_status(iv, &s);
        if (s.failed)
            break;
    }
    assert_true(s.failed);
    assert_true(t >= 5000 && t <= 6000); /* after the retries at 0.5, 1, 2 and 2 s */
    char want[120];
    snprintf(want, sizeof want, "No invite code: the coordinator at 127.0.0.1:%u did not answer",
             (unsigned)cport);
    assert_non_null(strstr(s.coord, want));
    /* Asked again 10 s later. */
    coord_msg m;
    stun_addr from;
    while (co_recv(co, &m, &from, 0))
        ;
    cl_invite_update(iv, t + 9000);
    assert_false(co_recv(co, &m, &from, 50));
    cl_invite_update(iv, t + 10000);
    assert_true(co_recv(co, &m, &from, 2000));
    assert_int_equal(m.type, COORD_HOST_REGISTER);
    cl_invite_destroy(iv);
    close(co), close(host);
    /* Bad input. */
    cfg.name = "";
    assert_null(cl_invite_create(&cfg, 0, &err));
    assert_non_null(err);
}

/* Runs the dial against a scripted coordinator until it is done (real
 * time: the connection is a real ENet handshake with the embedded server).
 * answer(i, req) gives the i-th LOOKUP's answer. */
typedef coord_msg (*answer_fn)(int i, const coord_msg *req, uint16_t sv_port);

static int dial_until(cl_dial_t *d, sv_t *sv, int co, answer_fn answer, int *lookups)
{
    int st = CL_DIAL_LOOKUP;
    uint64_t end = mr_now_us() / 1000 + 10000;
    while (mr_now_us() / 1000 < end && (st == CL_DIAL_LOOKUP || st == CL_DIAL_TRYING)) {
        sv_service(sv, mr_now_us() / 1000, 2); /* waits up to 2 ms for the server's socket */
        coord_msg m;
        stun_addr from;
        while (co_recv(co, &m, &from, 0))
            if (m.type == COORD_LOOKUP) {
                coord_msg a = answer((*lookups)++, &m, sv_port(sv));
                a.id = m.id;
                co_send(co, from, &a);
            }
        st = cl_dial_update(d, mr_now_us() / 1000);
    }
    return st;
}

static coord_msg lan_answer(int i, const coord_msg *req, uint16_t port)
{
    (void)i, (void)req;
    coord_msg a = {.type = COORD_LOOKUP_OK, .pair = 5, .ncand = 1};
    snprintf(a.name, sizeof a.name, "Ann");
    a.cand[0] = (coord_cand){COORD_CAND_LAN, {LOOP, port}};
    return a;
}

/* The first answer names a dead address only; the host's relay shows up in
 * the next one, which the dial asks for by itself. */
static coord_msg relay_later(int i, const coord_msg *req, uint16_t port)
{
    (void)req;
    coord_msg a = {.type = COORD_LOOKUP_OK, .pair = (uint32_t)(5 + i), .ncand = 1};
    snprintf(a.name, sizeof a.name, "Ann");
    a.cand[0] = (coord_cand){COORD_CAND_LAN, {0x7f000002u, 9}};
    if (i >= 1) {
        a.cand[1] = (coord_cand){COORD_CAND_RELAYED, {LOOP, port}};
        a.ncand = 2;
    }
    return a;
}

static coord_msg no_code(int i, const coord_msg *req, uint16_t port)
{
    (void)i, (void)req, (void)port;
    coord_msg a = {.type = COORD_ERROR, .error = COORD_E_NO_CODE};
    snprintf(a.text, sizeof a.text, "no such code");
    return a;
}

static sv_t *server(void)
{
    sv_config cfg;
    sv_config_defaults(&cfg);
    snprintf(cfg.bind_addr, sizeof cfg.bind_addr, "127.0.0.1");
    cfg.port = 0;
    cfg.discovery_port = -1;
    cfg.log_level = SV_LOG_OFF;
    const char *err = NULL;
    sv_t *sv = sv_create(&cfg, &err);
    assert_non_null(sv);
    return sv;
}

static void test_dial_paths(void **st)
{
    (void)st;
    uint16_t cport;
    int co = udp(&cport);
    sv_t *sv = server();
    const char *err = NULL;
    cl_dial_cfg cfg = {.coordinator = {LOOP, cport}, .code = "+k7mp 9nxa", .name = "Bob"};

    /* Direct: the LAN candidate answers. */
    cl_dial_t *d = cl_dial_create(&cfg, mr_now_us() / 1000, &err);
    assert_non_null(d);
    assert_non_null(strstr(cl_dial_text(d), "Looking up +K7MP9NXA at the coordinator 127.0.0.1:"));
    int lookups = 0;
    assert_int_equal(dial_until(d, sv, co, lan_answer, &lookups), CL_DIAL_CONNECTED);
    assert_int_equal(cl_dial_kind(d), CL_PATH_DIRECT);
    assert_string_equal(cl_dial_host_name(d), "Ann");
    assert_non_null(strstr(cl_dial_text(d), "direct to 127.0.0.1:"));
    cl_hub_t *hub = NULL;
    cl_net_t *n = cl_dial_take(d, &hub);
    assert_non_null(n);
    assert_non_null(hub);
    assert_null(cl_dial_take(d, &hub)); /* once */
    cl_dial_destroy(d);
    cl_net_destroy(n);
    cl_hub_destroy(hub);

    /* The relay, learnt by looking the code up again. */
    cfg.timeout_ms = 2000;
    d = cl_dial_create(&cfg, mr_now_us() / 1000, &err);
    lookups = 0;
    assert_int_equal(dial_until(d, sv, co, relay_later, &lookups), CL_DIAL_CONNECTED);
    assert_int_equal(cl_dial_kind(d), CL_PATH_RELAYED);
    assert_int_equal(lookups, 2);
    n = cl_dial_take(d, &hub);
    cl_dial_destroy(d);
    cl_net_destroy(n);
    cl_hub_destroy(hub);

    /* An unknown code. */
    d = cl_dial_create(&cfg, mr_now_us() / 1000, &err);
    lookups = 0;
    assert_int_equal(dial_until(d, sv, co, no_code, &lookups), CL_DIAL_FAILED);
    assert_string_equal(cl_dial_text(d),
                        "No game has the invite code +K7MP9NXA: check it with your friend (a "
                        "code ends when its game closes).");
    cl_dial_destroy(d);
    sv_destroy(sv);
    close(co);
}

/* A silent coordinator, on a clock of our own; a code or a name that is not one. */
static void test_dial_failures(void **st)
{
    (void)st;
    uint16_t cport;
    int co = udp(&cport);
    const char *err = NULL;
    cl_dial_cfg cfg = {.coordinator = {LOOP, cport}, .code = "+K7MP9NXA", .name = "Bob"};
    cl_dial_t *d = cl_dial_create(&cfg, 0, &err);
    int st2 = CL_DIAL_LOOKUP;
    uint64_t t = 0;
    for (; t < 20000 && st2 == CL_DIAL_LOOKUP; t += 100)
        st2 = cl_dial_update(d, t);
    assert_int_equal(st2, CL_DIAL_FAILED);
    char want[200];
    snprintf(want, sizeof want,
             "Cannot reach the coordinator at 127.0.0.1:%u (UDP): it did not answer. LAN games and typed "
             "addresses still work.",
             (unsigned)cport);
    assert_string_equal(cl_dial_text(d), want);
    cl_dial_destroy(d);
    close(co);
    char brief[200];
    cl_dial_brief(
        "Could not reach the game +K7MP9NXA. Tried: direct 192.168.1.2:27910: no answer in 6000 ms; "
        "hole punching 11.0.0.11:27910: no answer in 5800 ms (none of the host's probes came through)",
        brief, sizeof brief);
    assert_string_equal(brief,
                        "Could not reach the game +K7MP9NXA. Tried: direct: no answer in 6000 ms; hole "
                        "punching: no answer in 5800 ms (none of the host's probes came through)");
    cfg.code = "+K7MP9NXO"; /* O is not in the alphabet */
    assert_null(cl_dial_create(&cfg, 0, &err));
    assert_non_null(strstr(err, "invite code"));
    cfg.code = "+K7MP9NXA";
    cfg.name = "";
    assert_null(cl_dial_create(&cfg, 0, &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invite_host),
        cmocka_unit_test(test_invite_silent),
        cmocka_unit_test(test_dial_paths),
        cmocka_unit_test(test_dial_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
