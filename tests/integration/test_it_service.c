/* test_it_service.c: mazerace-server as a service: Prometheus metrics scraped during a bot match (and clients
 * of the metrics port that stall or send garbage), the spectator series while bots watch, drain on SIGTERM
 * with bots racing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "it_proc.h"
#include "util.h"

static void pause_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int tcp_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

/* GET path over HTTP/1.0; the response (headers and body) into buf. Returns
 * the status code, or -1 if no full answer came within timeout_ms. */
static int http_get(int port, const char *path, char *buf, size_t cap, int timeout_ms)
{
    int fd = tcp_connect(port);
    char req[256];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", path);
    assert_int_equal(send(fd, req, (size_t)n, 0), n);
    size_t len = 0;
    uint64_t end = mr_now_us() + (uint64_t)timeout_ms * 1000u;
    for (;;) {
        uint64_t now = mr_now_us();
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        if (now >= end || poll(&pf, 1, (int)((end - now) / 1000u) + 1) <= 0) {
            close(fd);
            return -1;
        }
        ssize_t got = recv(fd, buf + len, cap - 1 - len, 0);
        if (got <= 0)
            break;
        len += (size_t)got;
        if (len + 1 >= cap)
            break;
    }
    close(fd);
    buf[len] = '\0';
    int status = -1;
    if (sscanf(buf, "HTTP/1.%*d %d", &status) != 1)
        return -1;
    return status;
}

/* The value of a sample line "name value" (name with its labels). */
static double sample(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; (p = strstr(p, name)); p += n)
        if ((p == text || p[-1] == '\n') && p[n] == ' ')
            return atof(p + n + 1);
    return -1;
}

static int metrics_port(it_proc *sv)
{
    char line[512];
    assert_true(it_proc_expect(sv, "metrics on http://127.0.0.1:", line, sizeof line, 5000, "server"));
    const char *p = strstr(line, "127.0.0.1:");
    int port = atoi(p + 10);
    assert_true(port > 0 && port < 65536);
    return port;
}

static void server_down(it_proc *sv)
{
    it_proc_signal(sv, SIGINT);
    int sc = -1;
    assert_true(it_proc_wait(sv, 5000, &sc, "server"));
    assert_int_equal(sc, 0);
    it_proc_cleanup(sv);
}

/* Scraped during a bot match, with metrics clients that never read or send
 * garbage connected all the while: every scrape answers, the match is as
 * fast as ever (ack p99 far below what one stalled HTTP write would cost),
 * and at the end the moves counter equals the moves the bots sent. */
static void test_metrics_during_match(void **ctx)
{
    (void)ctx;
    it_proc sv;
    static const char *const extra[] = {"--no-discovery", "--countdown", "0.2",
                                        "--metrics",      "127.0.0.1:0", NULL};
    int port = it_server_start(&sv, MR_SERVER_PATH, extra);
    assert_true(port > 0);
    int mport = metrics_port(&sv);
    static char body[65536];
    assert_int_equal(http_get(mport, "/healthz", body, sizeof body, 2000), 200);
    assert_non_null(strstr(body, "ok"));
    assert_int_equal(http_get(mport, "/nothing", body, sizeof body, 2000), 404);
    assert_int_equal(http_get(mport, "/metrics", body, sizeof body, 2000), 200);
    assert_non_null(strstr(body, "# TYPE mazerace_moves_validated_total counter"));
    assert_non_null(strstr(body, "# TYPE mazerace_move_duration_seconds histogram"));
    assert_true(sample(body, "mazerace_moves_validated_total") == 0);

    /* Hostile metrics clients: 4 that pipeline requests and never read the
     * answers, 4 that send garbage, kept open during the match. */
    int stuck[8];
    for (int i = 0; i < 8; i++) {
        stuck[i] = tcp_connect(mport);
        if (i < 4) {
            for (int k = 0; k < 200; k++) {
                const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
                if (send(stuck[i], req, sizeof req - 1, MSG_DONTWAIT) < 0)
                    break;
            }
        } else {
            char junk[4096];
            for (size_t k = 0; k < sizeof junk; k++)
                junk[k] = (char)(k * 37 + (size_t)i);
            send(stuck[i], junk, sizeof junk, MSG_DONTWAIT);
        }
    }

    char addr[32];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    char *argv[] = {MR_BOT_PATH, "--server", addr, "--bots",    "2",  "--matches",
                    "1",         "--pace",   "20", "--timeout", "60", NULL};
    it_proc bot;
    assert_true(it_proc_spawn(&bot, argv));
    int scrapes = 0, ok = 0;
    char summary[1024] = "";
    uint64_t deadline = mr_now_us() + 60000000u;
    for (;;) {
        char l[1024];
        if (!it_proc_line(&bot, l, sizeof l, 50, "bot")) {
            if (bot.eof || mr_now_us() > deadline)
                break;
        } else if (strstr(l, "summary:")) {
            snprintf(summary, sizeof summary, "%s", l);
        }
        scrapes++;
        ok += http_get(mport, "/metrics", body, sizeof body, 2000) == 200;
        it_proc_drain(&sv, "server", NULL, NULL);
    }
    int code = -1;
    assert_true(it_proc_wait(&bot, 10000, &code, "bot"));
    it_proc_cleanup(&bot);
    assert_int_equal(code, 0);
    assert_true(scrapes >= 3);
    assert_int_equal(ok, scrapes);
    /* "moves sent 72, acked 71, rejected 0; ... p99 0.31 ms" */
    const char *ms = strstr(summary, "moves sent ");
    const char *p99 = strstr(summary, " p99 ");
    assert_non_null(ms);
    assert_non_null(p99);
    double moves = atof(ms + 11), ack_p99_ms = atof(p99 + 5);
    assert_true(moves > 10);
    print_message("bot moves %.0f, ack p99 %.2f ms, %d scrapes during the match\n", moves, ack_p99_ms,
                  scrapes);
    assert_true(ack_p99_ms < 100);
    /* The snapshot is published every 100 ms: wait for the last one. */
    double validated = -1, by_kind = 0;
    for (int i = 0; i < 50 && validated != moves; i++) {
        assert_int_equal(http_get(mport, "/metrics", body, sizeof body, 2000), 200);
        validated = sample(body, "mazerace_moves_validated_total");
        if (validated != moves)
            pause_ms(50);
    }
    assert_true(validated == moves);
    const char *kinds[] = {"sum", "maze", "ice", "pipes"}, *res[] = {"accepted", "rejected"};
    for (int k = 0; k < 4; k++)
        for (int r = 0; r < 2; r++) {
            char name[96];
            snprintf(name, sizeof name, "mazerace_moves_total{kind=\"%s\",result=\"%s\"}", kinds[k], res[r]);
            by_kind += sample(body, name);
        }
    assert_true(by_kind == moves);
    assert_true(sample(body, "mazerace_move_duration_seconds_count") == moves);
    assert_true(sample(body, "mazerace_matches_finished_total") == 1);
    for (int i = 0; i < 8; i++)
        close(stuck[i]);
    server_down(&sv);
}

/* The spectator series: two bots race while two spectators ask to watch a
 * room that takes one: mazerace_spectators is 1 during the race and 0 once
 * they have gone, one watch accepted and one refused. With a spectator port
 * (spectator_port "0": any free one) both WATCHes came to the game port
 * first and were sent on by WATCH_AT, and the spectator host's datagrams
 * are counted; with "off" neither happens. */
static void spectators_case(const char *spectator_port)
{
    it_proc sv;
    bool own = strcmp(spectator_port, "off") != 0;
    const char *const args[] = {"--no-discovery",
                                "--countdown",
                                "0.2",
                                "--metrics",
                                "127.0.0.1:0",
                                "--room-spectators",
                                "1",
                                "--db",
                                "none",
                                "--spectator-batch",
                                "0",
                                "--spectator-port",
                                spectator_port,
                                NULL};
    int port = it_server_start(&sv, MR_SERVER_PATH, args);
    assert_true(port > 0);
    int mport = metrics_port(&sv);
    static char body[65536];
    assert_int_equal(http_get(mport, "/metrics", body, sizeof body, 2000), 200);
    const char *const series[] = {"mazerace_spectators",
                                  "mazerace_watches_total",
                                  "mazerace_watches_refused_total",
                                  "mazerace_watch_redirects_total",
                                  "mazerace_spectator_datagrams_received_total",
                                  "mazerace_spectator_datagrams_sent_total",
                                  "mazerace_spectator_bundles_total"};
    for (size_t i = 0; i < sizeof series / sizeof series[0]; i++) {
        char type[128];
        snprintf(type, sizeof type, "# TYPE %s %s", series[i], i ? "counter" : "gauge");
        assert_non_null(strstr(body, type));
        assert_true(sample(body, series[i]) == 0);
    }

    char addr[32];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    /* A maze of about 60 moves at 40 ms: a race of some 2.5 s to scrape during. */
    char *argv[] = {MR_BOT_PATH, "--server",     addr, "--bots",    "2",    "--matches",
                    "1",         "--pace",       "40", "--kind",    "maze", "--size",
                    "21x15",     "--spectators", "2",  "--timeout", "60",   NULL};
    it_proc bot;
    assert_true(it_proc_spawn(&bot, argv));
    double most = 0;
    uint64_t deadline = mr_now_us() + 60000000u;
    for (;;) {
        char l[1024];
        if (!it_proc_line(&bot, l, sizeof l, 50, "bot") && (bot.eof || mr_now_us() > deadline))
            break;
        assert_int_equal(http_get(mport, "/metrics", body, sizeof body, 2000), 200);
        double now = sample(body, "mazerace_spectators");
        most = now > most ? now : most;
        it_proc_drain(&sv, "server", NULL, NULL);
    }
    int code = -1;
    assert_true(it_proc_wait(&bot, 10000, &code, "bot"));
    it_proc_cleanup(&bot);
    assert_int_equal(code, 1); /* the refused spectator is a failed bot */
    assert_true(most == 1);
    /* The last snapshot (every 100 ms): everyone gone. */
    double now = -1;
    for (int i = 0; i < 50 && now != 0; i++) {
        assert_int_equal(http_get(mport, "/metrics", body, sizeof body, 2000), 200);
        now = sample(body, "mazerace_spectators");
        if (now != 0)
            pause_ms(50);
    }
    assert_true(now == 0);
    double in = sample(body, "mazerace_spectator_datagrams_received_total");
    double out = sample(body, "mazerace_spectator_datagrams_sent_total");
    print_message("spectator_port %s: at most %.0f spectator during the race; redirects %.0f; spectator port "
                  "datagrams in %.0f, out %.0f\n",
                  spectator_port, most, sample(body, "mazerace_watch_redirects_total"), in, out);
    assert_true(sample(body, "mazerace_watches_total") == 1);
    assert_true(sample(body, "mazerace_watches_refused_total") == 1);
    assert_true(sample(body, "mazerace_watch_redirects_total") == (own ? 2 : 0));
    /* Each spectator's connect, HELLO, WATCH and the watched race's
     * messages at the least; nothing without the port. */
    assert_true(own ? in >= 6 && out >= 6 : in == 0 && out == 0);
    /* A move every 40 ms, batches of 250 ms: the watched race's PROGRESS
     * came several to a BUNDLE, on either port. */
    assert_true(sample(body, "mazerace_spectator_bundles_total") >= 1);
    server_down(&sv);
}

static void test_metrics_spectators(void **ctx)
{
    (void)ctx;
    spectators_case("off");
}

static void test_metrics_spectator_port(void **ctx)
{
    (void)ctx;
    spectators_case("0");
}

/* SIGTERM while two bots race: the race finishes with its winner, a new
 * quick match is refused ("restarting"), /healthz says draining, and the
 * server exits 0 by itself once the race is over. */
static void test_drain_with_bots(void **ctx)
{
    (void)ctx;
    it_proc sv;
    static const char *const extra[] = {"--no-discovery", "--countdown", "0.2",
                                        "--metrics",      "127.0.0.1:0", NULL};
    int port = it_server_start(&sv, MR_SERVER_PATH, extra);
    assert_true(port > 0);
    int mport = metrics_port(&sv);
    char addr[32];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    /* About 36 moves at 60 ms: a race of about 2 s. */
    char *argv[] = {MR_BOT_PATH, "--server", addr, "--bots",    "2",  "--matches",
                    "1",         "--pace",   "60", "--timeout", "60", NULL};
    it_proc bot;
    assert_true(it_proc_spawn(&bot, argv));
    char line[1024];
    static char body[8192];
    /* Into the race: moves are coming in. */
    double moved = 0;
    for (int i = 0; i < 200 && moved < 4; i++) {
        assert_int_equal(http_get(mport, "/metrics", body, sizeof body, 2000), 200);
        moved = sample(body, "mazerace_moves_validated_total");
        if (moved < 4)
            pause_ms(50);
    }
    assert_true(moved >= 4);
    assert_true(sample(body, "mazerace_matches_running") == 1);
    assert_true(sample(body, "mazerace_quick_waiting") == 0); /* the two bots were paired */
    it_proc_signal(&sv, SIGTERM);
    assert_true(it_proc_expect(&sv, "draining", line, sizeof line, 5000, "server"));
    /* The loop publishes the drain with its next snapshot. */
    int health = 0;
    for (int i = 0; i < 40 && health != 503; i++) {
        health = http_get(mport, "/healthz", body, sizeof body, 2000);
        if (health != 503)
            pause_ms(25);
    }
    assert_int_equal(health, 503);
    char *late_argv[] = {MR_BOT_PATH, "--server", addr, "--name", "late", "--timeout", "10", NULL};
    it_proc late;
    assert_true(it_proc_spawn(&late, late_argv));
    int late_code = -1, restarting = 0;
    while (it_proc_line(&late, line, sizeof line, 15000, "late"))
        restarting += strstr(line, "restarting") != NULL;
    assert_true(it_proc_wait(&late, 15000, &late_code, "late"));
    assert_true(restarting > 0);
    it_proc_cleanup(&late);
    assert_int_equal(late_code, 1);
    int won = 0, code = -1;
    while (it_proc_line(&bot, line, sizeof line, 30000, "bot"))
        won += strstr(line, ": won;") != NULL;
    assert_true(it_proc_wait(&bot, 10000, &code, "bot"));
    it_proc_cleanup(&bot);
    assert_int_equal(code, 0);
    assert_int_equal(won, 1);
    int sc = -1;
    assert_true(it_proc_wait(&sv, 10000, &sc, "server"));
    assert_int_equal(sc, 0);
    it_proc_cleanup(&sv);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_metrics_during_match, it_teardown),
        cmocka_unit_test_teardown(test_metrics_spectators, it_teardown),
        cmocka_unit_test_teardown(test_metrics_spectator_port, it_teardown),
        cmocka_unit_test_teardown(test_drain_with_bots, it_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
