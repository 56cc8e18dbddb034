/* test_it_watchat.c: cl_net watching through a spectator port (WATCH_AT, docs/protocol.md): following it to a
 * real server, the real server's own spectator port, a drop while watching, an unreachable port, and the
 * WATCH_AT that must not be followed (unasked, another room, a second one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "it_race.h"
#include "util.h"

/* A spectator on a hub of its own, polled from it_env_run's predicate. */
typedef struct watcher {
    cl_hub_t *hub;
    cl_net_t *n;
    int inject_port; /* > 0: answer our own WATCH with a WATCH_AT to this port, as a game port would */
    bool drop_mid;   /* drop the connection once some moves were seen */
    bool asked, dropped;
    bool ignore_no_room; /* the server's NO_ROOM answer to a WATCH of a made-up room is expected */
    int connected, starts, progress, resumed, errors, disconnects;
    uint32_t first_seen[2], last_seen[2]; /* PROGRESS move counts per player: first and last */
    bool gap;                             /* a PROGRESS that was not the next move of its player */
    bool ended;
    cl_net_event end, last_error;
} watcher;

static void watcher_start(watcher *w, int port)
{
    const char *err = NULL;
    w->hub = cl_hub_create(1, 0, &err);
    assert_non_null(w->hub);
    w->n = cl_net_create_in(w->hub, "Spectator", &err);
    assert_non_null(w->n);
    assert_null(cl_net_connect(w->n, "127.0.0.1", port, mr_now_us() / 1000u));
}

static void watcher_stop(watcher *w)
{
    cl_net_destroy(w->n);
    cl_hub_destroy(w->hub);
}

static void inject_watch_at(cl_net_t *n, const char *code, int port)
{
    wire_msg m = {.type = WIRE_WATCH_AT};
    memcpy(m.watch_at.code, code, sizeof m.watch_at.code);
    m.watch_at.port = (uint16_t)port;
    uint8_t buf[16];
    size_t len = wire_write(&m, buf, sizeof buf);
    assert_true(len > 0);
    cl_net_inject(n, buf, len, mr_now_us() / 1000u);
}

static void watcher_poll(watcher *w, const char *code)
{
    uint64_t now = mr_now_us() / 1000u;
    cl_hub_service(w->hub, now, 0);
    cl_net_event ev;
    while (cl_net_poll(w->n, now, &ev)) {
        switch (ev.type) {
        case CL_EV_CONNECTED:
            w->connected++;
            break;
        case CL_EV_MATCH_START:
            w->starts++;
            break;
        case CL_EV_PROGRESS: {
            int s = ev.progress.slot & 1;
            w->progress++;
            if (!w->first_seen[s])
                w->first_seen[s] = ev.progress.moves;
            else if (ev.progress.moves != w->last_seen[s] + 1)
                w->gap = true;
            w->last_seen[s] = ev.progress.moves;
            break;
        }
        case CL_EV_RESUMED:
            w->resumed++;
            break;
        case CL_EV_MATCH_END:
            w->ended = true;
            w->end = ev;
            break;
        case CL_EV_ERROR:
            if (w->ignore_no_room && ev.code == WIRE_ERR_NO_ROOM) {
                fprintf(stderr, "spectator: (expected) %s\n", ev.text);
                break;
            }
            w->errors++;
            w->last_error = ev;
            fprintf(stderr, "spectator: error: %s\n", ev.text);
            break;
        case CL_EV_DISCONNECTED:
            w->disconnects++;
            fprintf(stderr, "spectator: disconnected (%s): %s\n", ev.resuming ? "resuming" : "closed",
                    ev.text);
            break;
        default:
            break;
        }
    }
    if (w->connected && !w->asked && code) {
        w->asked = true;
        assert_null(cl_net_watch(w->n, code));
        if (w->inject_port > 0)
            inject_watch_at(w->n, code, w->inject_port);
    }
    if (w->drop_mid && !w->dropped && w->progress >= 4) {
        w->dropped = true;
        cl_net_drop(w->n, now, true);
    }
    cl_hub_flush(w->hub);
}

static bool race_watched(it_env *e, void *arg)
{
    watcher *w = arg;
    watcher_poll(w, bt_player_room(e->p[0]));
    for (int i = 0; i < e->n; i++)
        if (bt_player_failed(e->p[i]))
            return true;
    return (w->ended && it_all_done(e, NULL)) || w->errors > 0 ||
           (w->disconnects > 0 && cl_net_phase(w->n) == CL_NET_CLOSED);
}

/* alice creates a 12x12 maze, bob joins: both make mistakes, so the race
 * lasts a few seconds with moves from both. */
static void add_pair(it_env *e)
{
    bt_player_cfg a = it_cfg("alice", BT_CREATE, 60);
    a.params = (pz_params){PZ_MAZE, 12, 12, PZ_MEDIUM};
    a.has_seed = true;
    a.seed = 77;
    a.mistakes = 0.3;
    bt_player_cfg b = it_cfg("bob", BT_WAIT, 70);
    b.mistakes = 0.3;
    assert_int_equal(it_env_add(e, &a, true), 0);
    assert_int_equal(it_env_add(e, &b, true), 1);
}

/* Two bots race on the server of env; the watcher (already connecting)
 * watches their room. Checks that it saw the one game through to its
 * result, every move of both players, at spectator_port. */
static void watch_race(it_env *e, watcher *w, int spectator_port)
{
    add_pair(e);
    assert_true(it_env_run(e, race_watched, w, 60000));
    for (int i = 0; i < 2; i++)
        if (bt_player_failed(e->p[i]))
            fail_msg("%s failed: %s", bt_player_name(e->p[i]), bt_player_failed(e->p[i]));
    assert_int_equal(w->errors, 0);
    assert_true(w->ended);
    assert_int_equal(w->connected, 1); /* following WATCH_AT is no second CONNECTED */
    assert_int_equal(w->starts, 1);
    assert_int_equal(cl_net_port(w->n), spectator_port);
    const bt_result *ra;
    assert_int_equal(bt_player_results(e->p[0], &ra), 1);
    assert_memory_equal(&w->end.end, &ra->end, sizeof ra->end);
    uint32_t total = ra->end.moves[0] + ra->end.moves[1];
    assert_true(total >= 4);
    for (int s = 0; s < 2; s++)
        assert_int_equal(cl_net_board_moves(w->n, s), ra->end.moves[s]);
    if (w->drop_mid) {
        assert_true(w->dropped);
        assert_int_equal(w->resumed, 1);
        assert_true(w->disconnects >= 1);
    } else {
        /* Each move once and in order, live (the ones before, if watching
         * began late, came in the move logs: the boards count them). */
        assert_false(w->gap);
        for (int s = 0; s < 2; s++)
            assert_int_equal(w->last_seen[s], ra->end.moves[s]);
        assert_true(w->progress >= 1);
        assert_int_equal(w->disconnects, 0);
    }
    /* In the end only the spectator-port connection is left: the game
     * port's has said goodbye (bounded wait for its acknowledgement). */
    uint64_t deadline = mr_now_us() + 5000000u;
    while (cl_hub_peers(w->hub) != 1 && mr_now_us() < deadline)
        cl_hub_service(w->hub, mr_now_us() / 1000u, 10);
    assert_int_equal(cl_hub_peers(w->hub), 1);
    /* Still connected (the room may have closed: the bots left). */
    assert_true(cl_net_phase(w->n) == CL_NET_IN_ROOM || cl_net_phase(w->n) == CL_NET_ONLINE);
}

/* Spectators on the game port (the server's default may be its own port). */
static const char *const plain_server[] = {"--no-discovery",   "--countdown", "0.5",
                                           "--spectator-port", "off",         NULL};
/* Spectators on a port of their own, any free one. */
static const char *const spect_server[] = {"--no-discovery",   "--countdown", "0.5",
                                           "--spectator-port", "0",           NULL};

/* A game port that answers WATCH with WATCH_AT (injected here: a server
 * with a spectator port sends it) and a real server at that port. */
static void run_follow(bool drop_mid)
{
    it_proc game_port;
    memset(&game_port, 0, sizeof game_port);
    int gport = it_server_start(&game_port, MR_SERVER_PATH, plain_server);
    assert_true(gport > 0);
    it_env e;
    assert_true(it_env_start(&e, plain_server));
    watcher w;
    memset(&w, 0, sizeof w);
    w.inject_port = e.port;
    w.drop_mid = drop_mid;
    watcher_start(&w, gport);
    watch_race(&e, &w, e.port);
    watcher_stop(&w);
    it_env_stop(&e);
    it_proc_cleanup(&game_port);
}

static void test_follow_watch_at(void **ctx)
{
    (void)ctx;
    run_follow(false);
}

static void test_drop_after_follow(void **ctx)
{
    (void)ctx;
    run_follow(true); /* comes back at the spectator port, not the game port */
}

/* A UDP port nobody listens on (bound, read, closed). */
static int dead_port(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t len = sizeof a;
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    close(fd);
    return ntohs(a.sin_port);
}

static bool has_room(it_env *e, void *arg)
{
    (void)arg;
    return bt_player_room(e->p[0]) != NULL || bt_player_failed(e->p[0]);
}

static bool closed_or_error(it_env *e, void *arg)
{
    watcher *w = arg;
    (void)e;
    watcher_poll(w, NULL);
    return w->errors > 0 || cl_net_phase(w->n) == CL_NET_CLOSED;
}

static bool online(it_env *e, void *arg)
{
    watcher *w = arg;
    (void)e;
    watcher_poll(w, NULL);
    return cl_net_phase(w->n) == CL_NET_ONLINE || cl_net_phase(w->n) == CL_NET_CLOSED;
}

/* WATCH_AT nobody asked for is ignored; one naming another room is not
 * followed (an error says so); a spectator port that does not answer is an
 * error naming it within the follow timeout (5 s), then the connection is
 * closed; a second WATCH_AT (the spectator port answering WATCH_AT again)
 * is not followed. */
static void test_watch_at_refused(void **ctx)
{
    (void)ctx;
    it_env e;
    assert_true(it_env_start(&e, plain_server));
    watcher w;
    memset(&w, 0, sizeof w);
    /* WATCH ABCDE goes to the real server, which has no such room: its
     * NO_ROOM answer may arrive in the same poll as the injected WATCH_AT's
     * error, and is not what this test counts. */
    w.ignore_no_room = true;
    watcher_start(&w, e.port);
    assert_true(it_env_run(&e, online, &w, 10000));
    assert_int_equal(cl_net_phase(w.n), CL_NET_ONLINE);
    int port = dead_port();

    inject_watch_at(w.n, "ABCDE", port); /* no WATCH asked */
    watcher_poll(&w, NULL);
    assert_int_equal(w.errors, 0);
    assert_int_equal(cl_net_port(w.n), e.port);
    assert_int_equal(cl_net_phase(w.n), CL_NET_ONLINE);

    assert_null(cl_net_watch(w.n, "ABCDE"));
    inject_watch_at(w.n, "FGHJK", port); /* another room */
    watcher_poll(&w, NULL);
    assert_int_equal(w.errors, 1);
    assert_non_null(strstr(w.last_error.text, "not followed"));
    assert_int_equal(cl_net_port(w.n), e.port);
    assert_int_equal(cl_net_phase(w.n), CL_NET_ONLINE);

    w.errors = 0;
    assert_null(cl_net_watch(w.n, "ABCDE"));
    inject_watch_at(w.n, "ABCDE", port);
    assert_int_equal(cl_net_port(w.n), port);
    uint64_t t0 = mr_now_us();
    assert_true(it_env_run(&e, closed_or_error, &w, 15000));
    uint64_t took_ms = (mr_now_us() - t0) / 1000u;
    fprintf(stderr, "unreachable spectator port: error after %llu ms\n", (unsigned long long)took_ms);
    assert_true(took_ms < 10000);
    char want[96];
    snprintf(want, sizeof want, "cannot reach the server's spectator port %d (UDP): ", port);
    assert_int_equal(w.errors, 1);
    assert_non_null(strstr(w.last_error.text, want));
    for (int i = 0; i < 100 && cl_net_phase(w.n) != CL_NET_CLOSED; i++)
        watcher_poll(&w, NULL);
    assert_int_equal(cl_net_phase(w.n), CL_NET_CLOSED);
    assert_int_equal(w.disconnects, 1);
    assert_int_equal(w.connected, 1);
    watcher_stop(&w);

    /* A loop: the spectator port (here: the same server, any other port
     * will do) answering WATCH_AT again is not followed a second time. */
    memset(&w, 0, sizeof w);
    w.ignore_no_room = true;
    watcher_start(&w, e.port);
    assert_true(it_env_run(&e, online, &w, 10000));
    assert_null(cl_net_watch(w.n, "ABCDE"));
    inject_watch_at(w.n, "ABCDE", port);
    assert_int_equal(cl_net_port(w.n), port);
    inject_watch_at(w.n, "ABCDE", e.port);
    watcher_poll(&w, NULL);
    assert_int_equal(w.errors, 1);
    assert_non_null(strstr(w.last_error.text, "WATCH_AT again"));
    assert_int_equal(cl_net_port(w.n), port);
    watcher_stop(&w);
    it_env_stop(&e);
}

static void run_real(bool drop_mid)
{
    it_env e;
    assert_true(it_env_start(&e, spect_server));
    /* Its spectator port, as it says after "listening on". */
    char line[256];
    assert_true(it_proc_expect(&e.server, "spectators on ", line, sizeof line, 5000, "server"));
    const char *colon = strrchr(line, ':');
    assert_non_null(colon);
    int sport = atoi(colon + 1);
    assert_true(sport > 0 && sport != e.port);
    watcher w;
    memset(&w, 0, sizeof w);
    w.drop_mid = drop_mid;
    watcher_start(&w, e.port);
    watch_race(&e, &w, sport);
    watcher_stop(&w);
    it_env_stop(&e);
}

static void test_real_spectator_port(void **ctx)
{
    (void)ctx;
    run_real(false);
}

static void test_real_spectator_port_drop(void **ctx)
{
    (void)ctx;
    run_real(true);
}

static void test_off_watches_on_game_port(void **ctx)
{
    (void)ctx;
    it_env e;
    assert_true(it_env_start(&e, plain_server));
    watcher w;
    memset(&w, 0, sizeof w);
    watcher_start(&w, e.port);
    watch_race(&e, &w, e.port);
    watcher_stop(&w);
    it_env_stop(&e);
}

/* ---- mazerace-bot watching (--spectators N, --spectator-thread, --watch CODE) ---- */

/* The server with its spectator port; *sport gets that port. */
static int server_for_bots(it_env *e, int *sport)
{
    assert_true(it_env_start(e, spect_server));
    char line[256];
    assert_true(it_proc_expect(&e->server, "spectators on ", line, sizeof line, 5000, "server"));
    *sport = atoi(strrchr(line, ':') + 1);
    assert_true(*sport > 0 && *sport != e->port);
    return e->port;
}

/* Runs the bot to its end (bounded); its exit status, and whether a line
 * had want in it. */
static int run_bot(const char *const args[], const char *want, bool *seen)
{
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)MR_BOT_PATH;
    for (int i = 0; args[i] && n < 31; i++)
        argv[n++] = (char *)args[i];
    argv[n] = NULL;
    it_proc bot;
    assert_true(it_proc_spawn(&bot, argv));
    char line[1024];
    *seen = false;
    uint64_t deadline = mr_now_us() + 90000000u;
    while (mr_now_us() < deadline && !bot.eof)
        if (it_proc_line(&bot, line, sizeof line, 1000, "bot"))
            *seen = *seen || strstr(line, want) != NULL;
    int code = -1;
    assert_true(it_proc_wait(&bot, 5000, &code, "bot"));
    it_proc_cleanup(&bot);
    return code;
}

static void test_bot_spectators(void **ctx)
{
    (void)ctx;
    it_env e;
    int sport;
    int port = server_for_bots(&e, &sport);
    char addr[32], want[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    snprintf(want, sizeof want, "(at server port %d)", sport);
    bool seen;
    /* In the players' loop, two games watched to the end. */
    const char *const loop[] = {
        "--server", addr, "--bots",     "2",   "--kind",       "maze", "--size",    "9x9", "--seed", "5",
        "--pace",   "30", "--mistakes", "0.2", "--spectators", "2",    "--timeout", "60",  NULL};
    assert_int_equal(run_bot(loop, want, &seen), 0);
    assert_true(seen);
    /* The bench, its spectators on a thread of their own, and in its loop. */
    const char *const thread[] = {
        "--server",           addr,        "--bots", "2", "--bench", "1", "--spectators", "2",
        "--spectator-thread", "--timeout", "60",     NULL};
    assert_int_equal(run_bot(thread, want, &seen), 0);
    assert_true(seen);
    const char *const bench[] = {"--server",     addr, "--bots",    "2",  "--bench", "1",
                                 "--spectators", "2",  "--timeout", "60", NULL};
    assert_int_equal(run_bot(bench, want, &seen), 0);
    assert_true(seen);
    it_env_stop(&e);
}

/* mazerace-bot --watch CODE on a race of two players (in this process). */
static void test_bot_watch_code(void **ctx)
{
    (void)ctx;
    it_env e;
    int sport;
    int port = server_for_bots(&e, &sport);
    add_pair(&e);
    assert_true(it_env_run(&e, has_room, NULL, 10000));
    char addr[32], code[8];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    snprintf(code, sizeof code, "%s", bt_player_room(e.p[0]));
    char *argv[] = {(char *)MR_BOT_PATH, "--server", addr, "--watch", code, "--bots", "2",
                    "--timeout",         "60",       NULL};
    it_proc bot;
    assert_true(it_proc_spawn(&bot, argv));
    assert_true(it_env_run(&e, it_all_done, NULL, 60000));
    for (int i = 0; i < 2; i++)
        assert_null(bt_player_failed(e.p[i]));
    int rc = -1;
    assert_true(it_proc_wait(&bot, 30000, &rc, "bot"));
    it_proc_cleanup(&bot);
    assert_int_equal(rc, 0);
    it_env_stop(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_follow_watch_at, it_teardown),
        cmocka_unit_test_teardown(test_drop_after_follow, it_teardown),
        cmocka_unit_test_teardown(test_watch_at_refused, it_teardown),
        cmocka_unit_test_teardown(test_off_watches_on_game_port, it_teardown),
        cmocka_unit_test_teardown(test_real_spectator_port, it_teardown),
        cmocka_unit_test_teardown(test_real_spectator_port_drop, it_teardown),
        cmocka_unit_test_teardown(test_bot_spectators, it_teardown),
        cmocka_unit_test_teardown(test_bot_watch_code, it_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
