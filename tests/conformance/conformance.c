/* conformance.c: drives a real mazerace-server over 127.0.0.1 from docs/protocol.md's point of view:
 * replays the sequence diagrams written in the doc, then one check per MUST; prints a PASS/FAIL list.
 * This file: main, the server process, the list and the small senders (conformance.h); the sections are
 * conformance_*.c. */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conformance.h"

static int passes, fails;
uint16_t port;
uint16_t spec_port;

void check(const char *id, bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %-10s ", ok ? "PASS" : "FAIL", id);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (ok)
        passes++;
    else
        fails++;
}

/* ---- the server process ---- */

static pid_t server_pid;
char db_path[128];
static char tmp_dir[64];   /* that directory, removed at exit */
static char log_path[160]; /* the server's stderr, shown when it does not start */

void stop_server(void)
{
    if (server_pid > 0) {
        kill(server_pid, SIGKILL);
        waitpid(server_pid, NULL, 0);
        server_pid = 0;
    }
}

/* Starts bin on 127.0.0.1 with a short countdown and grace period, db as
 * its match database and spectators as --spectator-port; returns its game
 * port from the "listening on" line (spec_port from the "spectators on"
 * line), 0 on failure. */
static uint16_t start_server(const char *bin, const char *db, const char *spectators)
{
    int fds[2];
    if (pipe(fds) != 0)
        return 0;
    server_pid = fork();
    if (server_pid < 0)
        return 0;
    if (server_pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        dup2(fds[1], 1);
        if (!getenv("MR_TEST_SERVER_LOG")) {
            int log = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            dup2(log >= 0 ? log : open("/dev/null", O_WRONLY), 2);
        }
        close(fds[0]);
        execl(bin, bin, "--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--countdown", "0.3",
              "--grace", "1", "--max-rooms", "64", "--kind", "maze", "--size", "9x9", "--difficulty", "easy",
              "--db", db, "--spectator-port", spectators, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char text[512];
    size_t len = 0;
    uint64_t end = mr_now_us() / 1000u + WAIT_MS;
    const char *prefix = "listening on 127.0.0.1:", *sprefix = "spectators on 127.0.0.1:";
    while (len + 1 < sizeof text) {
        text[len] = '\0';
        const char *at = strstr(text, prefix), *sat = strstr(text, sprefix);
        if (at && sat && strchr(sat, '\n')) {
            close(fds[0]);
            spec_port = (uint16_t)atoi(sat + strlen(sprefix));
            return (uint16_t)atoi(at + strlen(prefix));
        }
        uint64_t now = mr_now_us() / 1000u;
        struct pollfd pf = {.fd = fds[0], .events = POLLIN};
        if (now >= end || poll(&pf, 1, (int)(end - now)) <= 0)
            break;
        ssize_t n = read(fds[0], text + len, sizeof text - 1 - len);
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    close(fds[0]);
    return 0;
}

static void remove_tmp_dir(void)
{
    char rm[200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", tmp_dir);
    if (tmp_dir[0] && system(rm) != 0)
        fprintf(stderr, "conformance: could not remove %s\n", tmp_dir);
}

/* start_server, or the end of the run with a message saying why (the
 * server's own stderr): no check can run without a server, and none may
 * go on with port 0. */
uint16_t must_start_server(const char *bin, const char *db, const char *spectators)
{
    uint16_t p = start_server(bin, db, spectators);
    if (p)
        return p;
    int status = 0;
    if (server_pid > 0 && waitpid(server_pid, &status, WNOHANG) == server_pid)
        server_pid = 0;
    stop_server();
    fprintf(stderr, "conformance: %s did not start (no \"listening on\" line within %d ms)", bin, WAIT_MS);
    if (WIFEXITED(status))
        fprintf(stderr, ", exit status %d", WEXITSTATUS(status));
    fprintf(stderr, "; its stderr:\n");
    FILE *f = fopen(log_path, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        fprintf(stderr, "  | %s", line);
    if (f)
        fclose(f);
    printf("conformance: %d passed, %d failed, then the server did not start\n", passes, fails);
    exit(1);
}

/* ---- small senders ---- */

raw_client *connect_raw(void)
{
    return raw_connect(port, NULL, NULL, WAIT_MS);
}

void send_type(raw_client *c, int type)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = (uint8_t)type;
    if (type == WIRE_READY)
        m.ready.ready = true;
    raw_send_msg(c, &m);
}

void send_hello(raw_client *c, const char *name, size_t len)
{
    uint8_t buf[8 + 255] = {WIRE_HELLO,          0x4D,        0x5A, 0x52, 0x43, WIRE_VERSION >> 8,
                            WIRE_VERSION & 0xFF, (uint8_t)len};
    memcpy(buf + 8, name, len);
    raw_send(c, buf, 8 + len);
}

raw_client *hello_client(const char *name)
{
    raw_client *c = connect_raw();
    if (c && !raw_hello(c, name, WAIT_MS)) {
        raw_close(c);
        c = NULL;
    }
    return c;
}

void send_create_id(raw_client *c, const char *id, int series)
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

void send_move(raw_client *c, uint32_t seq, pz_move mv)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_MOVE;
    m.move.seq = seq;
    m.move.move = mv;
    raw_send_msg(c, &m);
}

/* The next message c gets is an ERROR (or REFUSED) with this code. */
bool next_error(raw_client *c, int type, int code, char *text, size_t tlen)
{
    wire_msg m;
    if (!raw_next(c, &m, WAIT_MS) || m.type != type || m.error.code != code)
        return false;
    if (text)
        snprintf(text, tlen, "%s", m.error.text);
    return true;
}

/* Nothing more arrives for QUIET_MS. */
bool quiet(raw_client *c)
{
    raw_pump(c, QUIET_MS, false);
    int t[4];
    return raw_queued_types(c, t, 4) == 0;
}

void send_code(raw_client *c, int type, const char *code)
{
    wire_msg w;
    memset(&w, 0, sizeof w);
    w.type = (uint8_t)type;
    memcpy(w.join.code, code, sizeof w.join.code);
    raw_send_msg(c, &w);
}

/* Two players in a room on id, both ready, until the race is on;
 * their MATCH_STARTs in sa, sb. */
bool race_on(const char *id, raw_client **a, raw_client **b, wire_match_start *sa, wire_match_start *sb)
{
    *a = hello_client("dan");
    *b = hello_client("eve");
    wire_msg m;
    if (!*a || !*b)
        return false;
    send_create_id(*a, id, 1);
    if (!raw_wait(*a, WIRE_ROOM_STATE, &m, WAIT_MS))
        return false;
    send_code(*b, WIRE_JOIN_ROOM, m.room.code);
    send_type(*a, WIRE_READY);
    send_type(*b, WIRE_READY);
    if (!raw_wait(*a, WIRE_MATCH_START, &m, WAIT_MS))
        return false;
    *sa = m.start;
    if (!raw_wait(*b, WIRE_MATCH_START, &m, WAIT_MS))
        return false;
    *sb = m.start;
    /* the race start: ROOM_STATE phase 2 */
    for (int i = 0; i < 8; i++)
        if (raw_wait(*a, WIRE_ROOM_STATE, &m, WAIT_MS) && m.room.phase == MATCH_RACING)
            break;
    while (raw_wait(*b, WIRE_ROOM_STATE, &m, WAIT_MS) && m.room.phase != MATCH_RACING) {
    }
    return m.room.phase == MATCH_RACING;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: conformance MAZERACE-SERVER docs/protocol.md\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    snprintf(tmp_dir, sizeof tmp_dir, "/tmp/mr_conformance_XXXXXX");
    if (!mkdtemp(tmp_dir)) {
        perror("conformance: mkdtemp");
        return 1;
    }
    atexit(remove_tmp_dir);
    snprintf(db_path, sizeof db_path, "%s/matches.db", tmp_dir);
    snprintf(log_path, sizeof log_path, "%s/server.log", tmp_dir);
    /* The diagrams and WATCH-0..6 run against spectators on the game port
     * (--spectator-port off), where a WATCH is answered by the room itself;
     * check_spectator_port then restarts the server with a spectator port
     * of its own for WATCH-7 and WATCH-8 (and the records, which follow). */
    port = must_start_server(argv[1], db_path, "off");
    printf("conformance: %s on 127.0.0.1:%u, protocol version %d\n", argv[1], (unsigned)port, WIRE_VERSION);
    int flows = run_flows(argv[2]);
    check("FLOW-count", flows >= 5, "%d sequence diagrams found in %s", flows, argv[2]);
    check_handshake();
    check_requests();
    check_race();
    check_desc();
    check_limits();
    check_watch();
    check_spectator_port(argv[1]);
    check_records(argv[1]); /* last: it restarts the server */
    stop_server();
    printf("conformance: %d passed, %d failed\n", passes, fails);
    return fails ? 1 : 0;
}
