/* test_server_hostwalk.c: a server of several ENet hosts (--hosts) walks only the hosts that need it,
 * in-process on 127.0.0.1: a client's traffic makes its own host serviced at each message while the quiet
 * hosts are only swept every SV_HOST_SWEEP_MS; quiet hosts are still swept (ENet's pings keep their peers
 * connected); players on different hosts race each other, every ACK and PROGRESS arriving with nothing left
 * queued; and a player who drops mid-race resumes from a socket that lands on another host. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <enet/enet.h>
#include <string.h>

#include "raw_client.h"
#include "sv.h"
#include "sv_fixture.h"
#include "sv_hosts.h"
#include "sv_idle.h"
#include "sv_internal.h"
#include "sv_race.h"
#include "util.h"
#include "wire.h"

#define HOSTS 4

static void hosts_config(sv_config *cfg)
{
    base_config(cfg);
    cfg->hosts = HOSTS;
    cfg->max_clients = 16;
}

static fixture *start_hosts(void)
{
    sv_config cfg;
    hosts_config(&cfg);
    fixture *f = start(&cfg);
    assert_int_equal(f->sv->nhosts, HOSTS);
    return f;
}

/* The host a connected raw client landed on (the kernel steers by its
 * source port: port mod HOSTS). */
static int host_of(const fixture *f, const raw_client *c)
{
    int h = raw_local_port(c) % HOSTS;
    const sv_t *sv = f->sv;
    for (int i = 0; i < sv->ngame; i++)
        if (sv->clients[i].peer && sv->clients[i].peer->address.port == raw_local_port(c))
            assert_int_equal(sv_hosts_index(sv, sv->clients[i].peer->host), h);
    return h;
}

/* A client that said HELLO, its acknowledgements settled; *host: its host. */
static raw_client *join_on(fixture *f, const char *name, int *host)
{
    raw_client *c = join_server(f, name);
    raw_pump(c, 30, false);
    *host = host_of(f, c);
    return c;
}

static void test_traffic_walks_its_own_host(void **ctx)
{
    (void)ctx;
    fixture *f = start_hosts();
    int mine;
    raw_client *c = join_on(f, "walker", &mine);
    sv_t *sv = f->sv;
    uint64_t walks0[HOSTS], steps0 = sv->st.steps;
    memcpy(walks0, sv->host_walks, sizeof walks0);
    uint64_t t0 = mr_now_us();
    /* 40 questions, each answered before the next: every one is read on
     * the client's host, and the loop steps many times meanwhile. */
    int answered = 0;
    for (int i = 0; i < 40; i++) {
        send_simple(c, WIRE_LIST_ROOMS);
        wire_msg m;
        if (raw_wait(c, WIRE_ROOM_LIST, &m, 2000))
            answered++;
    }
    uint64_t ms = (mr_now_us() - t0) / 1000u;
    uint64_t steps = sv->st.steps - steps0;
    assert_int_equal(answered, 40);
    assert_true(sv->host_walks[mine] - walks0[mine] >= 40);
    /* Each answer leaves in the step that queued it (its host is flushed
     * as one with packets queued), not at the host's next sweep: with the
     * mark left out, 40 answers took 360 steps and 399 ms. */
    assert_true(steps <= 2 * 40);
    for (int h = 0; h < HOSTS; h++) {
        if (h == mine)
            continue;
        uint64_t w = sv->host_walks[h] - walks0[h];
        /* Swept at most once each half period (the sweep takes along the
         * hosts not walked for half of it); a loop that walked every host
         * each step would have walked it once per step. */
        print_message("host %d: %llu walks in %llu ms, %llu steps\n", h, (unsigned long long)w,
                      (unsigned long long)ms, (unsigned long long)steps);
        assert_true(w <= ms / (SV_HOST_SWEEP_MS / 2) + 2);
        assert_true(w < steps);
    }
    raw_close(c);
    stop(f);
}

/* Steps of sv_run's kind with a busy loop's wait (ENet's 10 ms), for
 * window_ms. */
static void run_for(fixture *f, raw_client *c, int window_ms)
{
    uint64_t end = mr_now_us() + (uint64_t)window_ms * 1000u;
    for (int i = 0; i < 100000 && mr_now_us() < end; i++) {
        assert_true(sv_service(f->sv, fixture_now(f), SV_BUSY_WAIT_MS) >= 0);
        raw_pump(c, 0, false);
    }
}

static void test_quiet_hosts_are_swept(void **ctx)
{
    (void)ctx;
    fixture *f = start_hosts();
    int mine;
    raw_client *c = join_on(f, "quiet", &mine);
    sv_t *sv = f->sv;
    uint64_t walks0[HOSTS];
    memcpy(walks0, sv->host_walks, sizeof walks0);
    /* 1.5 s with no traffic but ENet's own: every host is still walked
     * about every SV_HOST_SWEEP_MS (at least every other period), and the
     * client's peer, pinged by its host, stays connected. */
    uint64_t t0 = mr_now_us();
    run_for(f, c, 1500);
    uint64_t ms = (mr_now_us() - t0) / 1000u;
    for (int h = 0; h < HOSTS; h++) {
        uint64_t w = sv->host_walks[h] - walks0[h];
        assert_true(w >= ms / (2 * SV_HOST_SWEEP_MS));
        if (h != mine)
            assert_true(w <= ms / (SV_HOST_SWEEP_MS / 2) + 2);
    }
    assert_true(raw_connected(c));
    send_simple(c, WIRE_LIST_ROOMS);
    wire_msg m;
    assert_true(raw_wait(c, WIRE_ROOM_LIST, &m, 2000));
    raw_close(c);
    stop(f);
}

static void test_race_across_hosts(void **ctx)
{
    (void)ctx;
    fixture *f = start_hosts();
    /* Two players on two different hosts (connect until the second lands
     * elsewhere: the source ports are the kernel's pick). */
    raw_client *a = join_server(f, "alice");
    raw_client *b = NULL;
    for (int i = 0; i < 16 && !b; i++) {
        raw_client *x = join_server(f, "bob");
        if (host_of(f, x) != host_of(f, a))
            b = x;
        else
            raw_close(x);
    }
    assert_non_null(b);
    pz_move plan[256];
    int n = start_pair_race(a, b, plan, 256);
    assert_true(n > 0);
    /* Every move is answered with ACK and the opponent hears PROGRESS,
     * with the loop stepping only as the clients' pumps drive it. */
    int acks = 0, progress = 0;
    for (int i = 0; i < n && i < 20; i++) {
        send_move(a, (uint32_t)(i + 1), plan[i]);
        wire_msg m;
        acks += raw_wait(a, WIRE_ACK, &m, 2000);
        progress += raw_wait(b, WIRE_PROGRESS, &m, 2000);
    }
    int want = n < 20 ? n : 20;
    assert_int_equal(acks, want);
    assert_int_equal(progress, want);
    assert_int_equal(f->service_failures, 0);
    raw_close(a);
    raw_close(b);
    stop(f);
}

/* A player who drops mid-race comes back from another socket (a new source
 * port: another host here) and resumes with the token: the seat, the move
 * log and the race go on across hosts, the opponent hearing the moves. */
static void test_resume_on_another_host(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    hosts_config(&cfg);
    cfg.grace_ms = 5000;
    race r;
    fixture *f = start_race_server(&cfg, &r, true);
    wire_msg m;
    send_move(r.a, 1, r.plan[0]);
    assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    int before = host_of(f, r.a);
    raw_close(r.a);
    r.a = NULL;
    raw_client *a2 = NULL;
    for (int i = 0; i < 16 && !a2; i++) {
        raw_client *x = join_server(f, "alice");
        if (host_of(f, x) != before)
            a2 = x;
        else
            raw_close(x);
    }
    assert_non_null(a2);
    send_resume(a2, r.code, 0, r.start_a.token);
    assert_true(raw_wait(a2, WIRE_MATCH_START, &m, WAIT_MS));
    assert_int_equal(m.start.slot, 0);
    assert_true(raw_wait(a2, WIRE_MOVE_LOG, &m, WAIT_MS));
    assert_int_equal(m.log.count, 1);
    send_move(a2, 2, r.plan[1]);
    assert_true(raw_wait(a2, WIRE_ACK, &m, WAIT_MS));
    assert_int_equal(m.ack.moves, 2);
    bool heard = false;
    for (int i = 0; i < 10 && !heard; i++) {
        assert_true(raw_wait(r.b, WIRE_PROGRESS, &m, WAIT_MS));
        heard = m.progress.slot == 0 && m.progress.moves == 2;
    }
    assert_true(heard);
    r.a = a2;
    stop_race_server(f, &r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_traffic_walks_its_own_host),
        cmocka_unit_test(test_quiet_hosts_are_swept),
        cmocka_unit_test(test_race_across_hosts),
        cmocka_unit_test(test_resume_on_another_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
