/* test_it_slowloris.c: mazerace-server's metrics port under a slowloris (100 connections from 13 loopback
 * addresses trickling a request line byte by byte, reopened as soon as they are closed): /healthz and
 * /metrics still answer every probe (issue 26, finding 2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "it_proc.h"
#include "util.h"

#define LORIS 100
#define LORIS_ADDRS 13     /* 127.9.0.1 .. 127.9.0.13, 7 or 8 connections each */
#define TRICKLE_MS 1000    /* one byte a second: under any idle time-out */
#define ATTACK_MS 12000    /* how long the probes go on */
#define PROBE_EVERY_MS 400 /* a /healthz (and every third time /metrics) probe */
#define PROBE_TIMEOUT 2000 /* what a HEALTHCHECK would allow (the Dockerfile's is 5 s) */

typedef struct loris {
    int fd; /* -1: to be opened */
    uint64_t next_ms;
    int sent;
} loris;

/* A non-blocking TCP connection to 127.0.0.1:port from src (host order). */
static int open_from(uint32_t src, int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    assert_true(fd >= 0);
    struct sockaddr_in from = {.sin_family = AF_INET};
    from.sin_addr.s_addr = htonl(src);
    assert_int_equal(bind(fd, (struct sockaddr *)&from, sizeof from), 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&to, sizeof to) != 0 && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    return fd;
}

/* One slowloris step: open (again) if closed, send the next byte when due. */
static void loris_step(loris *l, int i, int port, uint64_t now, int *reopened)
{
    static const char req[] =
        "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    if (l->fd >= 0) {
        char c;
        ssize_t r = recv(l->fd, &c, 1, MSG_DONTWAIT);
        if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOTCONN)) {
            close(l->fd);
            l->fd = -1;
        }
    }
    if (l->fd < 0) {
        l->fd = open_from(0x7F090001u + (uint32_t)(i % LORIS_ADDRS), port);
        l->sent = 0;
        l->next_ms = now;
        *reopened += 1;
    }
    if (l->fd < 0 || now < l->next_ms)
        return;
    /* The first piece at once (as a browser would), then a byte at a time;
     * never the blank line that ends the headers. */
    size_t n = l->sent == 0 ? 16 : 1;
    if ((size_t)l->sent + n >= sizeof req - 1)
        l->sent = 40; /* keep adding to the X-Slow header */
    ssize_t w = send(l->fd, req + l->sent, n, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (w > 0)
        l->sent += (int)w;
    l->next_ms = now + TRICKLE_MS;
}

/* GET path from 127.0.0.1 over HTTP/1.0: the status, or -1 if there was no
 * complete answer within PROBE_TIMEOUT (refused, closed, or too slow). */
static int probe(int port, const char *path, char *buf, size_t cap)
{
    int fd = open_from(0x7F000001u, port);
    struct pollfd pf = {.fd = fd, .events = POLLOUT};
    if (fd < 0 || poll(&pf, 1, PROBE_TIMEOUT) != 1 || fcntl(fd, F_SETFL, 0) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    /* Blocking from here, each read bounded; the whole answer by the end. */
    struct timeval tv = {0, 100000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char req[128];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", path);
    bool sent = send(fd, req, (size_t)n, MSG_NOSIGNAL) == n, eof = false;
    uint64_t end = mr_now_us() + PROBE_TIMEOUT * 1000u;
    size_t len = 0;
    while (sent && !eof && len + 1 < cap && mr_now_us() < end) {
        ssize_t got = recv(fd, buf + len, cap - 1 - len, 0);
        eof = got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
        len += got > 0 ? (size_t)got : 0;
    }
    close(fd);
    buf[len] = '\0';
    int status = -1;
    return eof && sscanf(buf, "HTTP/1.%*d %d", &status) == 1 ? status : -1;
}

/* mazerace-server with metrics on 127.0.0.1, any free ports: the metrics port. */
static int start_server(it_proc *sv)
{
    static const char *const extra[] = {"--no-discovery",   "--metrics", "127.0.0.1:0",
                                        "--spectator-port", "off",       NULL};
    assert_true(it_server_start(sv, MR_SERVER_PATH, extra) > 0);
    char line[512];
    assert_true(it_proc_expect(sv, "metrics on http://127.0.0.1:", line, sizeof line, 5000, "server"));
    int mport = atoi(strstr(line, "127.0.0.1:") + 10);
    assert_true(mport > 0 && mport < 65536);
    return mport;
}

static void stop_server(it_proc *sv)
{
    it_proc_signal(sv, SIGINT);
    int code = -1;
    assert_true(it_proc_wait(sv, 5000, &code, "server"));
    it_proc_cleanup(sv);
    assert_int_equal(code, 0);
}

static void test_healthz_during_slowloris(void **ctx)
{
    (void)ctx;
    it_proc sv;
    int mport = start_server(&sv);
    static char body[65536];
    assert_int_equal(probe(mport, "/healthz", body, sizeof body), 200);

    loris l[LORIS];
    for (int i = 0; i < LORIS; i++)
        l[i].fd = -1;
    int reopened = 0, probes = 0, health_ok = 0, scrapes = 0, scrapes_ok = 0;
    uint64_t start = mr_now_us() / 1000u, next_probe = start + 1000; /* the attack settles first */
    for (;;) {
        uint64_t now = mr_now_us() / 1000u;
        if (now - start >= ATTACK_MS + 1000)
            break;
        for (int i = 0; i < LORIS; i++)
            loris_step(&l[i], i, mport, now, &reopened);
        if (now >= next_probe) {
            probes++;
            health_ok += probe(mport, "/healthz", body, sizeof body) == 200;
            if (probes % 3 == 0) {
                scrapes++;
                scrapes_ok += probe(mport, "/metrics", body, sizeof body) == 200;
            }
            next_probe = mr_now_us() / 1000u + PROBE_EVERY_MS;
        }
        it_proc_drain(&sv, "server", NULL, NULL);
        poll(NULL, 0, 50);
    }
    int open = 0;
    for (int i = 0; i < LORIS; i++)
        open += l[i].fd >= 0;
    print_message("slowloris: %d connections (%d open at the end, %d (re)opened); /healthz %d of %d, "
                  "/metrics %d of %d\n",
                  LORIS, open, reopened, health_ok, probes, scrapes_ok, scrapes);
    assert_int_equal(health_ok, probes);
    assert_true(probes >= 15);
    assert_int_equal(scrapes_ok, scrapes);
    for (int i = 0; i < LORIS; i++)
        if (l[i].fd >= 0)
            close(l[i].fd);
    stop_server(&sv);
}

/* Connections closed by the server so far (EOF or reset). */
static int closed_count(const int *fd, int n)
{
    int closed = 0;
    for (int i = 0; i < n; i++) {
        char c;
        ssize_t r = recv(fd[i], &c, 1, MSG_DONTWAIT);
        closed += r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
    }
    return closed;
}

/* The bounds themselves: 20 trickling connections from one address keep
 * 8 places (the oldest 12 are closed as the newer come), and those 8 are
 * closed when their 5 s to send a header block are up. The old server
 * kept the first 8 (for as long as each sent a byte within its 10 s idle
 * time-out) and closed the newer ones, so a slowloris that came first
 * kept its places. */
static void test_slow_requests_bounded(void **ctx)
{
    (void)ctx;
    it_proc sv;
    int mport = start_server(&sv);
    int fd[20];
    for (int i = 0; i < 20; i++) {
        fd[i] = open_from(0x7F090101u, mport);
        assert_true(fd[i] >= 0);
        struct pollfd pf = {.fd = fd[i], .events = POLLOUT};
        assert_int_equal(poll(&pf, 1, 2000), 1);
        assert_int_equal(send(fd[i], "GET /metrics HT", 15, MSG_NOSIGNAL), 15);
        poll(NULL, 0, 10); /* they arrive in this order */
    }
    int closed = 0;
    for (int i = 0; i < 100 && closed < 12; i++) {
        poll(NULL, 0, 20);
        closed = closed_count(fd, 20);
    }
    assert_int_equal(closed, 12);
    for (int i = 12; i < 20; i++)
        assert_int_equal(closed_count(fd + i, 1), 0); /* the newest 8 are the ones kept */
    uint64_t start = mr_now_us();
    while (closed < 20 && mr_now_us() - start < 8000000u) {
        poll(NULL, 0, 100);
        closed = closed_count(fd, 20);
    }
    double waited = (double)(mr_now_us() - start) / 1e6;
    print_message("20 slow connections from one address: 12 closed at once, the other 8 after %.1f s\n",
                  waited);
    assert_int_equal(closed, 20);
    for (int i = 0; i < 20; i++)
        close(fd[i]);
    stop_server(&sv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_healthz_during_slowloris, it_teardown),
        cmocka_unit_test_teardown(test_slow_requests_bounded, it_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
