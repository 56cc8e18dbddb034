/* test_server_idle.c: the game loop's wait (server/sv_idle.c) in-process on 127.0.0.1: a server with nothing
 * due sleeps long (a handful of steps a second, not one every 10 ms), up to ENet's next ping of a connected
 * peer; it waits short while a puzzle is being made or a peer is mid-handshake; a LAN probe or a spectator's
 * message on the spectator port ends a long wait at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <enet/enet.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "raw_client.h"
#include "sv.h"
#include "sv_fixture.h"
#include "sv_idle.h"
#include "util.h"
#include "wire.h"

/* Steps of sv_run's kind (the longest wait it asks for) in window_ms of
 * wall time, at most 1,000 of them. */
static int steps_in(fixture *f, int window_ms)
{
    uint64_t end = mr_now_us() + (uint64_t)window_ms * 1000u;
    int n = 0;
    while (mr_now_us() < end && n < 1000) {
        assert_true(sv_service(f->sv, fixture_now(f), SV_WAIT_MAX_MS) >= 0);
        n++;
    }
    return n;
}

static void test_idle_server_sleeps(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    sv_service(f->sv, fixture_now(f), 0); /* the first step: housekeeping, then a second away */
    bool own = false;
    int wait = sv_idle_wait(f->sv, SV_WAIT_MAX_MS, &own);
    assert_true(own);
    assert_int_equal(wait, SV_WAIT_MAX_MS);
    /* 600 ms at 100 ms a wait: about 6 steps (with the 10 ms wait of old, 60). */
    int n = steps_in(f, 600);
    assert_true(n >= 2);
    assert_true(n <= 20);
    /* The caller's bound holds; 0 (an embedder polling each frame) never waits. */
    assert_int_equal(sv_idle_wait(f->sv, 0, &own), 0);
    assert_false(own);
    assert_int_equal(sv_idle_wait(f->sv, 7, &own), 7);
    assert_false(own);
    stop(f);
}

static void test_connected_peer_ping_bounds_the_wait(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    raw_client *c = join_server(f, "idle");
    raw_pump(c, 50, false); /* acknowledgements both ways */
    bool own = false;
    /* Housekeeping is up to a second away; ENet pings a quiet peer every
     * ENET_PEER_PING_INTERVAL (500 ms) and the wait must not pass that. */
    int wait = sv_idle_wait(f->sv, 5000, &own);
    assert_true(own);
    assert_true(wait > SV_BUSY_WAIT_MS);
    assert_true(wait <= ENET_PEER_PING_INTERVAL + 1);
    /* The peer stays connected through long waits: ENet's pings go out. */
    for (int i = 0; i < 15; i++) {
        sv_service(f->sv, fixture_now(f), SV_WAIT_MAX_MS);
        raw_pump(c, 1, false);
    }
    assert_true(raw_connected(c));
    raw_close(c);
    stop(f);
}

static void test_short_wait_while_generating(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    sv_service(f->sv, fixture_now(f), 0);
    /* A reserved room is made on a worker: until the loop has taken the
     * finished job, it looks every SV_BUSY_WAIT_MS. */
    assert_null(sv_reserve_room(f->sv, "KWXYZ", "maze:61x61:hard#77", 60000));
    bool own = true;
    assert_int_equal(sv_idle_wait(f->sv, SV_WAIT_MAX_MS, &own), SV_BUSY_WAIT_MS);
    assert_false(own);
    stop(f);
}

static void test_short_wait_mid_handshake(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    sv_service(f->sv, fixture_now(f), 0);
    /* A CONNECT whose VERIFY_CONNECT is never acknowledged (the client is
     * not serviced again): ENet resends it, so the loop waits short. */
    ENetHost *h = enet_host_create(NULL, 1, WIRE_CHANNELS, 0, 0);
    assert_non_null(h);
    ENetAddress a = {.port = sv_port(f->sv)};
    enet_address_set_host_ip(&a, "127.0.0.1");
    assert_non_null(enet_host_connect(h, &a, WIRE_CHANNELS, 0));
    enet_host_flush(h);
    bool own = true;
    int wait = SV_WAIT_MAX_MS;
    for (int i = 0; i < 200 && wait > SV_BUSY_WAIT_MS; i++) { /* until the CONNECT is in */
        sv_service(f->sv, fixture_now(f), 5);
        wait = sv_idle_wait(f->sv, SV_WAIT_MAX_MS, &own);
    }
    assert_int_equal(wait, SV_BUSY_WAIT_MS);
    assert_false(own);
    enet_host_destroy(h);
    stop(f);
}

static void test_probe_ends_a_long_wait(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    if (!sv_discovery_port(f->sv)) {
        stop(f);
        skip(); /* no discovery socket could be bound here */
    }
    sv_service(f->sv, fixture_now(f), 0);
    int fd = send_probes(f, 42, 1);
    uint8_t buf[WIRE_PROBE_REPLY_MAX + 16];
    /* One step that may wait up to a second (housekeeping's) answers at
     * once: the probe wakes the loop's own wait. */
    uint64_t t0 = mr_now_us();
    assert_true(sv_service(f->sv, fixture_now(f), 5000) >= 1);
    uint64_t took_ms = (mr_now_us() - t0) / 1000u;
    ssize_t got = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    assert_true(got > 0);
    wire_probe_reply rep;
    assert_true(wire_read_probe_reply(buf, (size_t)got, &rep));
    assert_int_equal(rep.nonce, 42);
    assert_true(took_ms < 500);
    close(fd);
    stop(f);
}

static void test_spectator_port_wakes_the_loop(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.spectator_port = 0; /* a port of its own, any free one */
    fixture *f = start(&cfg);
    assert_true(sv_spectator_port(f->sv) != 0);
    raw_client *c = raw_connect(sv_spectator_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(c);
    for (int i = 0; i < 5; i++) /* the CONNECT taken from the thread's inbox */
        sv_service(f->sv, fixture_now(f), 5);
    /* HELLO reaches the spectator thread; its event wakes the loop's long
     * wait (up to housekeeping's second) at once. */
    raw_send_hello(c, "watcher");
    uint64_t t0 = mr_now_us();
    int handled = 0;
    for (int i = 0; i < 20 && handled == 0; i++) /* a step the thread's gather ended early, at most */
        handled = sv_service(f->sv, fixture_now(f), 5000);
    uint64_t took_ms = (mr_now_us() - t0) / 1000u;
    assert_true(handled >= 1);
    assert_true(took_ms < 500);
    wire_msg out;
    assert_true(raw_wait(c, WIRE_WELCOME, &out, WAIT_MS));
    raw_close(c);
    stop(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_server_sleeps),
        cmocka_unit_test(test_connected_peer_ping_bounds_the_wait),
        cmocka_unit_test(test_short_wait_while_generating),
        cmocka_unit_test(test_short_wait_mid_handshake),
        cmocka_unit_test(test_probe_ends_a_long_wait),
        cmocka_unit_test(test_spectator_port_wakes_the_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
