/* test_server_process.c: the real mazerace-server process: flags, "listening on", discovery, SIGTERM reaching
 * clients. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "raw_client.h"
#include "util.h"
#include "match.h"
#include "wire.h"

#define WAIT_MS 3000

typedef struct proc {
    pid_t pid;
    int out; /* read end of the child's stdout */
    char text[4096];
    size_t len, pos; /* bytes read; bytes already consumed as lines */
    char line[256];  /* the last line read_line matched, after its prefix */
} proc;

/* The child of the running test, killed by the teardown if a failed
 * assertion left it running. */
static pid_t live_pid;
/* "NAME=value" strings the next spawn puts in the child's environment. */
static const char *const *spawn_env;
/* Where the child's stderr goes when not NULL (else /dev/null). */
static const char *spawn_stderr;

static int teardown(void **ctx)
{
    (void)ctx;
    if (live_pid > 0) {
        kill(live_pid, SIGKILL);
        waitpid(live_pid, NULL, 0);
        live_pid = 0;
    }
    return 0;
}

/* Starts MR_SERVER_BIN with args (NULL-terminated); stdout to a pipe,
 * stderr to /dev/null unless MR_TEST_SERVER_LOG is set. */
static void spawn(proc *p, const char *const *args)
{
    memset(p, 0, sizeof *p);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    p->pid = fork();
    assert_true(p->pid >= 0);
    if (p->pid == 0) {
        /* Should the test itself be killed (a ctest time-out), the server
         * goes with it. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        dup2(fds[1], 1);
        if (spawn_stderr) {
            int fd = open(spawn_stderr, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            dup2(fd, 2);
        } else if (!getenv("MR_TEST_SERVER_LOG")) {
            int nul = open("/dev/null", O_WRONLY);
            dup2(nul, 2);
        }
        for (int e = 0; spawn_env && spawn_env[e]; e++) {
            char kv[256];
            snprintf(kv, sizeof kv, "%s", spawn_env[e]);
            char *eq = strchr(kv, '=');
            if (eq) {
                *eq = '\0';
                setenv(kv, eq + 1, 1);
            }
        }
        close(fds[0]);
        char *argv[32];
        int n = 0;
        argv[n++] = (char *)MR_SERVER_BIN;
        for (; args[n - 1] && n < 31; n++)
            argv[n] = (char *)args[n - 1];
        argv[n] = NULL;
        execv(MR_SERVER_BIN, argv);
        _exit(127);
    }
    close(fds[1]);
    p->out = fds[0];
    live_pid = p->pid;
}

/* Reads the child's stdout until a line starting with prefix arrives;
 * returns what follows it on that line (in p->text), or NULL. */
static const char *read_line(proc *p, const char *prefix, int timeout_ms)
{
    uint64_t end = mr_now_us() / 1000u + (uint64_t)timeout_ms;
    for (;;) {
        p->text[p->len] = '\0';
        char *nl;
        while ((nl = strchr(p->text + p->pos, '\n'))) {
            const char *line = p->text + p->pos;
            p->pos = (size_t)(nl - p->text) + 1;
            size_t plen = strlen(prefix), llen = (size_t)(nl - line);
            if (llen >= plen && strncmp(line, prefix, plen) == 0) {
                snprintf(p->line, sizeof p->line, "%.*s", (int)(llen - plen), line + plen);
                return p->line;
            }
        }
        uint64_t now = mr_now_us() / 1000u;
        if (now >= end || p->len + 1 >= sizeof p->text)
            return NULL;
        struct pollfd pf = {.fd = p->out, .events = POLLIN};
        if (poll(&pf, 1, (int)(end - now)) <= 0)
            return NULL;
        ssize_t n = read(p->out, p->text + p->len, sizeof p->text - 1 - p->len);
        if (n <= 0)
            return NULL;
        p->len += (size_t)n;
    }
}

/* Waits (bounded) for the child; returns its exit status, or -1 if it was
 * still running (it is then killed) or died of a signal. The child's stdout
 * reaching end-of-file is the signal that it has exited. */
static int reap(proc *p, int timeout_ms, uint64_t *waited_ms)
{
    uint64_t t0 = mr_now_us() / 1000u, end = t0 + (uint64_t)timeout_ms;
    int status = 0;
    for (;;) {
        uint64_t now = mr_now_us() / 1000u;
        struct pollfd pf = {.fd = p->out, .events = POLLIN};
        if (now >= end || poll(&pf, 1, (int)(end - now)) <= 0) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &status, 0);
            live_pid = 0;
            close(p->out);
            return -1;
        }
        char sink[512];
        ssize_t n = read(p->out, sink, sizeof sink);
        if (n > 0) {
            size_t room = sizeof p->text - 1 - p->len, k = (size_t)n < room ? (size_t)n : room;
            memcpy(p->text + p->len, sink, k);
            p->len += k;
            continue;
        }
        break; /* end of file: the child is gone (or closed stdout: reaped below) */
    }
    waitpid(p->pid, &status, 0);
    live_pid = 0;
    if (waited_ms)
        *waited_ms = mr_now_us() / 1000u - t0;
    close(p->out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static uint16_t start_server(proc *p, uint16_t *disc_port)
{
    const char *args[] = {"--bind", "127.0.0.1", "--port",    "0", "--discovery",
                          "0",      "--name",    "proc test", NULL};
    spawn(p, args);
    const char *l = read_line(p, "listening on 127.0.0.1:", WAIT_MS);
    assert_non_null(l);
    int port = atoi(l);
    assert_true(port > 0 && port < 65536);
    if (disc_port) {
        l = read_line(p, "discovery on 127.0.0.1:", WAIT_MS);
        assert_non_null(l);
        *disc_port = (uint16_t)atoi(l);
        assert_true(*disc_port > 0);
    }
    return (uint16_t)port;
}

static void test_flags(void **ctx)
{
    (void)ctx;
    proc p;
    const char *bad[][3] = {
        {"--port", "abc", NULL}, {"--nonsense", NULL, NULL},   {"--kind", "chess", NULL},
        {"--size", "9x", NULL},  {"--max-clients", "0", NULL}, {"--port", NULL, NULL},
        {"--series", "0", NULL},
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        spawn(&p, bad[i]);
        assert_int_equal(reap(&p, WAIT_MS, NULL), 2);
    }
    const char *version[] = {"--version", NULL};
    spawn(&p, version);
    assert_non_null(read_line(&p, "mazerace-server ", WAIT_MS));
    assert_int_equal(reap(&p, WAIT_MS, NULL), 0);
    const char *help[] = {"--help", NULL};
    spawn(&p, help);
    assert_non_null(read_line(&p, "usage: mazerace-server", WAIT_MS));
    assert_int_equal(reap(&p, WAIT_MS, NULL), 0);
}

/* A game port that is taken: a clear message and exit status 1. */
static void test_port_in_use(void **ctx)
{
    (void)ctx;
    proc first, second;
    uint16_t port = start_server(&first, NULL);
    pid_t first_pid = first.pid;
    char num[16];
    snprintf(num, sizeof num, "%u", (unsigned)port);
    const char *args[] = {"--bind", "127.0.0.1", "--port", num, "--no-discovery", NULL};
    spawn(&second, args);
    int rc = reap(&second, WAIT_MS, NULL);
    live_pid = first_pid; /* the teardown's to kill if an assertion fails */
    assert_int_equal(rc, 1);
    kill(first_pid, SIGTERM);
    assert_int_equal(reap(&first, WAIT_MS, NULL), 0);
}

/* A UDP socket bound to 127.0.0.1:port (0 = any); *bound gets the port. -1 if taken. */
static int bind_udp(uint16_t port, uint16_t *bound)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    socklen_t len = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
        close(fd);
        return -1;
    }
    if (bound)
        *bound = ntohs(a.sin_port);
    return fd;
}

static bool file_has(const char *path, const char *needle, int timeout_ms);

/* --spectator-port N that is taken: a clear message and exit status 2. */
static void test_spectator_port_in_use(void **ctx)
{
    (void)ctx;
    uint16_t taken = 0;
    int fd = bind_udp(0, &taken);
    assert_true(fd >= 0);
    char num[16], log[64];
    snprintf(num, sizeof num, "%u", (unsigned)taken);
    snprintf(log, sizeof log, "/tmp/mr-specport-%d.log", (int)getpid());
    const char *args[] = {"--bind",         "127.0.0.1",        "--port", "0",
                          "--no-discovery", "--spectator-port", num,      NULL};
    spawn_stderr = log;
    proc p;
    spawn(&p, args);
    spawn_stderr = NULL;
    assert_int_equal(reap(&p, WAIT_MS, NULL), 2);
    assert_true(file_has(log, "cannot bind the spectator port", WAIT_MS));
    unlink(log);
    close(fd);
}

/* auto: the game port + 2; with that taken, a warning and spectators on
 * the game port; with game port 0, a free port of its own. */
static void test_spectator_port_auto(void **ctx)
{
    (void)ctx;
    /* A game port P whose P + 2 can be taken by the test: bounded tries. */
    uint16_t game = 0;
    int plus2 = -1;
    for (int i = 0; i < 50 && plus2 < 0; i++) {
        int g = bind_udp(0, &game);
        assert_true(g >= 0);
        if (game < 65530)
            plus2 = bind_udp((uint16_t)(game + 2), NULL);
        close(g);
    }
    assert_true(plus2 >= 0);
    char num[16], log[64];
    snprintf(num, sizeof num, "%u", (unsigned)game);
    snprintf(log, sizeof log, "/tmp/mr-specauto-%d.log", (int)getpid());
    const char *args[] = {"--bind",         "127.0.0.1",        "--port", num,
                          "--no-discovery", "--spectator-port", "auto",   NULL};
    spawn_stderr = log;
    proc p;
    spawn(&p, args);
    spawn_stderr = NULL;
    const char *l = read_line(&p, "listening on 127.0.0.1:", WAIT_MS);
    if (!l) { /* someone took P meanwhile: not this test's failure to find */
        reap(&p, WAIT_MS, NULL);
        close(plus2);
        unlink(log);
        skip();
    }
    assert_int_equal(atoi(l), game);
    l = read_line(&p, "spectators on 127.0.0.1:", WAIT_MS);
    assert_non_null(l);
    assert_int_equal(atoi(l), game); /* served on the game port */
    kill(p.pid, SIGTERM);
    assert_int_equal(reap(&p, WAIT_MS, NULL), 0);
    assert_true(file_has(log, "spectators are served on the game port", WAIT_MS));
    unlink(log);
    close(plus2);

    /* With P + 2 free (the test's socket is closed): there. */
    spawn(&p, args);
    l = read_line(&p, "listening on 127.0.0.1:", WAIT_MS);
    if (l) {
        l = read_line(&p, "spectators on 127.0.0.1:", WAIT_MS);
        assert_non_null(l);
        assert_int_equal(atoi(l), game + 2);
    }
    kill(p.pid, SIGTERM);
    reap(&p, WAIT_MS, NULL);

    /* Game port 0: any free port, not the game port. */
    const char *args0[] = {"--bind",         "127.0.0.1",        "--port", "0",
                           "--no-discovery", "--spectator-port", "auto",   NULL};
    spawn(&p, args0);
    l = read_line(&p, "listening on 127.0.0.1:", WAIT_MS);
    assert_non_null(l);
    int gp = atoi(l);
    l = read_line(&p, "spectators on 127.0.0.1:", WAIT_MS);
    assert_non_null(l);
    assert_true(atoi(l) > 0 && atoi(l) != gp);
    kill(p.pid, SIGTERM);
    assert_int_equal(reap(&p, WAIT_MS, NULL), 0);
}

/* SIGTERM: the connected clients get SHUTDOWN and the process exits 0
 * within 2 s. */
static void test_sigterm(void **ctx)
{
    (void)ctx;
    proc p;
    uint16_t port = start_server(&p, NULL);
    raw_client *a = raw_connect(port, NULL, NULL, WAIT_MS);
    raw_client *b = raw_connect(port, NULL, NULL, WAIT_MS);
    assert_non_null(a);
    assert_non_null(b);
    assert_true(raw_hello(a, "a", WAIT_MS));
    assert_true(raw_hello(b, "b", WAIT_MS));
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_QUICK_MATCH;
    raw_send_msg(a, &m);
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
    memset(&m, 0, sizeof m);
    m.type = WIRE_QUICK_MATCH;
    raw_send_msg(b, &m);
    assert_true(raw_wait(b, WIRE_ROOM_STATE, &m, WAIT_MS));

    uint64_t t0 = mr_now_us() / 1000u;
    assert_int_equal(kill(p.pid, SIGTERM), 0);
    assert_true(raw_wait(a, WIRE_SHUTDOWN, &m, WAIT_MS));
    assert_true(raw_wait(b, WIRE_SHUTDOWN, &m, WAIT_MS));
    assert_true(raw_wait_disconnect(a, WAIT_MS));
    assert_true(raw_wait_disconnect(b, WAIT_MS));
    uint64_t waited = 0;
    assert_int_equal(reap(&p, WAIT_MS, &waited), 0);
    uint64_t total = mr_now_us() / 1000u - t0;
    assert_true(total < 2000);
    raw_close(a);
    raw_close(b);
}

/* A process with nobody connected stops at once on SIGINT too, and prints
 * its statistics with --stats. */
static void test_sigint_stats(void **ctx)
{
    (void)ctx;
    proc p;
    const char *args[] = {"--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--stats", NULL};
    spawn(&p, args);
    assert_non_null(read_line(&p, "listening on 127.0.0.1:", WAIT_MS));
    kill(p.pid, SIGINT);
    const char *v = read_line(&p, "stats moves_validated ", WAIT_MS);
    assert_non_null(v);
    assert_int_equal(atoi(v), 0);
    assert_int_equal(reap(&p, WAIT_MS, NULL), 0);
}

static void test_discovery(void **ctx)
{
    (void)ctx;
    proc p;
    uint16_t disc = 0;
    uint16_t port = start_server(&p, &disc);
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(disc)};
    inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    uint8_t junk[3] = {1, 2, 3};
    sendto(fd, junk, sizeof junk, 0, (struct sockaddr *)&to, sizeof to);
    wire_probe pr = {.version = WIRE_VERSION, .nonce = 77};
    uint8_t buf[256];
    size_t n = wire_write_probe(&pr, buf, sizeof buf);
    assert_int_equal(sendto(fd, buf, n, 0, (struct sockaddr *)&to, sizeof to), (ssize_t)n);
    struct pollfd pf = {.fd = fd, .events = POLLIN};
    assert_int_equal(poll(&pf, 1, WAIT_MS), 1);
    ssize_t got = recv(fd, buf, sizeof buf, 0);
    assert_true(got > 0);
    wire_probe_reply rep;
    assert_true(wire_read_probe_reply(buf, (size_t)got, &rep));
    assert_int_equal(rep.nonce, 77);
    assert_int_equal(rep.game_port, port);
    assert_string_equal(rep.name, "proc test");
    close(fd);
    kill(p.pid, SIGTERM);
    assert_int_equal(reap(&p, WAIT_MS, NULL), 0);
}

/* A NOTIFY_SOCKET of the test's own (sd_notify's protocol: one datagram per
 * message on a unix socket). Returns the socket; the path is in path. */
static int notify_socket(char *path, size_t len)
{
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    assert_true(fd >= 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(path, len, "/tmp/mr-notify-%d", (int)getpid());
    unlink(path);
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

/* Reads notifications until one contains needle (copied to out); false on
 * timeout. */
static bool notified(int fd, const char *needle, char *out, size_t len, int timeout_ms)
{
    uint64_t end = mr_now_us() / 1000u + (uint64_t)timeout_ms;
    for (;;) {
        uint64_t now = mr_now_us() / 1000u;
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        if (now >= end || poll(&pf, 1, (int)(end - now)) <= 0)
            return false;
        char buf[512];
        ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
        if (n <= 0)
            continue;
        buf[n] = '\0';
        if (strstr(buf, needle)) {
            snprintf(out, len, "%s", buf);
            return true;
        }
    }
}

/* systemd's Type=notify: READY=1 once the port is bound (the listening line
 * comes first), STATUS= with players and rooms, WATCHDOG=1 while running
 * (WatchdogSec), STOPPING=1 on SIGTERM. A second SIGTERM during the drain
 * stops at once. */
static void test_sd_notify(void **ctx)
{
    (void)ctx;
    char path[108], env[160], msg[512];
    int fd = notify_socket(path, sizeof path);
    snprintf(env, sizeof env, "NOTIFY_SOCKET=%s", path);
    const char *envs[] = {env, "WATCHDOG_USEC=300000", NULL};
    spawn_env = envs;
    proc p;
    const char *args[] = {"--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--countdown", "0", NULL};
    spawn(&p, args);
    spawn_env = NULL;
    const char *l = read_line(&p, "listening on 127.0.0.1:", WAIT_MS);
    assert_non_null(l);
    uint16_t port = (uint16_t)atoi(l);
    assert_true(notified(fd, "READY=1", msg, sizeof msg, WAIT_MS));
    assert_true(notified(fd, "WATCHDOG=1", msg, sizeof msg, WAIT_MS));
    /* Two players racing: the status line says so (it is sent every 2 s). */
    raw_client *a = raw_connect(port, NULL, NULL, WAIT_MS), *b = raw_connect(port, NULL, NULL, WAIT_MS);
    assert_non_null(a);
    assert_non_null(b);
    assert_true(raw_hello(a, "a", WAIT_MS));
    assert_true(raw_hello(b, "b", WAIT_MS));
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_QUICK_MATCH;
    raw_send_msg(a, &m);
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
    memset(&m, 0, sizeof m);
    m.type = WIRE_QUICK_MATCH;
    raw_send_msg(b, &m);
    assert_true(raw_wait(b, WIRE_ROOM_STATE, &m, WAIT_MS));
    for (raw_client *c = a; c; c = c == a ? b : NULL) {
        memset(&m, 0, sizeof m);
        m.type = WIRE_READY;
        m.ready.ready = true;
        raw_send_msg(c, &m);
    }
    assert_true(raw_wait(a, WIRE_MATCH_START, &m, WAIT_MS));
    assert_true(notified(fd, "STATUS=2 players, 1 rooms, 1 races running", msg, sizeof msg, 5000));
    /* SIGTERM: draining (the race goes on), then a second one stops at once. */
    kill(p.pid, SIGTERM);
    assert_true(notified(fd, "STOPPING=1", msg, sizeof msg, WAIT_MS));
    assert_true(notified(fd, "draining", msg, sizeof msg, WAIT_MS));
    assert_false(raw_has(a, WIRE_SHUTDOWN));
    kill(p.pid, SIGTERM);
    assert_true(raw_wait(a, WIRE_MATCH_END, &m, WAIT_MS));
    assert_int_equal(m.end.reason, MATCH_END_ABORTED);
    assert_true(raw_wait(b, WIRE_SHUTDOWN, &m, WAIT_MS));
    assert_int_equal(reap(&p, WAIT_MS, NULL), 0);
    raw_close(a);
    raw_close(b);
    close(fd);
    unlink(path);
}

static bool file_has(const char *path, const char *needle, int timeout_ms)
{
    uint64_t end = mr_now_us() / 1000u + (uint64_t)timeout_ms;
    do {
        FILE *f = fopen(path, "r");
        if (f) {
            char line[1024];
            bool found = false;
            while (!found && fgets(line, sizeof line, f))
                found = strstr(line, needle) != NULL;
            fclose(f);
            if (found)
                return true;
        }
        struct timespec ts = {0, 20000000L};
        nanosleep(&ts, NULL);
    } while (mr_now_us() / 1000u < end);
    return false;
}

/* SIGHUP rereads the config file: reloadable keys change and are logged,
 * the others are logged as needing a restart; a broken file changes
 * nothing. Logs as JSON here (one object per line, stable keys). */
static void test_sighup_reload(void **ctx)
{
    (void)ctx;
    char conf[64], log[64];
    snprintf(conf, sizeof conf, "/tmp/mr-hup-%d.conf", (int)getpid());
    snprintf(log, sizeof log, "/tmp/mr-hup-%d.log", (int)getpid());
    FILE *f = fopen(conf, "w");
    assert_non_null(f);
    fprintf(f, "bind = 127.0.0.1\nport = 0\ndiscovery = off\nrate = 100\nkind = maze\nmax_clients = 10\n");
    fclose(f);
    spawn_stderr = log;
    proc p;
    const char *args[] = {"--config", conf, "--log-format", "json", NULL};
    spawn(&p, args);
    spawn_stderr = NULL;
    assert_non_null(read_line(&p, "listening on 127.0.0.1:", WAIT_MS));
    assert_true(file_has(log, "{\"time\":\"", WAIT_MS));
    assert_true(file_has(log, "\"event\":\"config\"", WAIT_MS));
    f = fopen(conf, "w");
    assert_non_null(f);
    fprintf(f, "bind = 127.0.0.1\nport = 0\ndiscovery = off\nrate = 50\nkind = ice\nmax_clients = 20\n");
    fclose(f);
    kill(p.pid, SIGHUP);
    assert_true(file_has(log, "reload: rate = 50 (was 100)", WAIT_MS));
    assert_true(file_has(log, "reload: kind = ice (was maze)", WAIT_MS));
    assert_true(file_has(log, "reload: max_clients = 20 needs a restart (still 10)", WAIT_MS));
    assert_true(file_has(log, "\"event\":\"reloaded\"", WAIT_MS));
    f = fopen(conf, "w");
    assert_non_null(f);
    fprintf(f, "bind = 127.0.0.1\nport = 0\nrate = lots\n");
    fclose(f);
    kill(p.pid, SIGHUP);
    assert_true(file_has(log, "\"event\":\"reload_failed\"", WAIT_MS));
    assert_true(file_has(log, ":3: key 'rate'", WAIT_MS));
    kill(p.pid, SIGTERM);
    assert_int_equal(reap(&p, WAIT_MS, NULL), 0);
    /* Every line is one JSON object with the stable keys. */
    f = fopen(log, "r");
    assert_non_null(f);
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        assert_true(line[0] == '{');
        assert_non_null(strstr(line, "}\n"));
        assert_non_null(strstr(line, "\"level\":\""));
        assert_non_null(strstr(line, "\"event\":\""));
        assert_non_null(strstr(line, "\"msg\":\""));
        n++;
    }
    fclose(f);
    assert_true(n >= 6);
    unlink(conf);
    unlink(log);
}

/* Under systemd (JOURNAL_STREAM set) the log has <N> priorities and no
 * timestamps of its own. */
static void test_journal_log(void **ctx)
{
    (void)ctx;
    char log[64];
    snprintf(log, sizeof log, "/tmp/mr-journal-%d.log", (int)getpid());
    const char *envs[] = {"JOURNAL_STREAM=8:12345", NULL};
    spawn_env = envs;
    spawn_stderr = log;
    proc p;
    const char *args[] = {"--bind", "127.0.0.1", "--port", "0", "--no-discovery", NULL};
    spawn(&p, args);
    spawn_env = NULL;
    spawn_stderr = NULL;
    assert_non_null(read_line(&p, "listening on 127.0.0.1:", WAIT_MS));
    assert_true(file_has(log, "<6>mazerace-server ", WAIT_MS));
    kill(p.pid, SIGTERM);
    assert_int_equal(reap(&p, WAIT_MS, NULL), 0);
    assert_false(file_has(log, "Z info", 0));
    unlink(log);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_flags, teardown),
        cmocka_unit_test_teardown(test_port_in_use, teardown),
        cmocka_unit_test_teardown(test_spectator_port_in_use, teardown),
        cmocka_unit_test_teardown(test_spectator_port_auto, teardown),
        cmocka_unit_test_teardown(test_sigterm, teardown),
        cmocka_unit_test_teardown(test_sigint_stats, teardown),
        cmocka_unit_test_teardown(test_discovery, teardown),
        cmocka_unit_test_teardown(test_sd_notify, teardown),
        cmocka_unit_test_teardown(test_sighup_reload, teardown),
        cmocka_unit_test_teardown(test_journal_log, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
