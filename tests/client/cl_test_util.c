/* cl_test_util.c: helpers for the client tests. */
#include "cl_test_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

char *mkdtemp(char *template);

const char *clt_tmpdir(void)
{
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/mazerace-cltest-XXXXXX");
        if (!mkdtemp(dir))
            snprintf(dir, sizeof dir, "/tmp");
    }
    return dir;
}

void clt_cleanup(void)
{
    const char *dir = clt_tmpdir();
    if (strncmp(dir, "/tmp/mazerace-cltest-", 21) != 0)
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[600];
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        remove(path);
    }
    closedir(d);
    rmdir(dir);
}

int clt_finish(int failed)
{
    if (!failed)
        clt_cleanup();
    return failed;
}

const char *clt_path(const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", clt_tmpdir(), name);
    return buf[k];
}

bool clt_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fputs(text, f) >= 0;
    return (fclose(f) == 0) && ok;
}

static uint64_t now_ms(void)
{
    return mr_now_us() / 1000u;
}

int clt_run(const char *const args[], char *out, size_t cap, int timeout_ms)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    const char *argv[64];
    int n = 0;
    argv[n++] = MAZERACE_BIN;
    for (int i = 0; args[i] && n < 62; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0;
    uint64_t end = now_ms() + (uint64_t)timeout_ms;
    bool killed = false;
    for (;;) {
        uint64_t t = now_ms();
        if (t >= end) {
            kill(pid, SIGKILL);
            killed = true;
            break;
        }
        struct pollfd p = {fd[0], POLLIN, 0};
        int r = poll(&p, 1, (int)(end - t));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        char tmp[4096];
        ssize_t k = read(fd[0], tmp, sizeof tmp);
        if (k <= 0)
            break;
        for (ssize_t i = 0; i < k; i++)
            if (len + 1 < cap)
                out[len++] = tmp[i];
    }
    if (cap)
        out[len < cap ? len : cap - 1] = '\0';
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    fprintf(stderr, "---- mazerace output ----\n%s-------------------------\n", out);
    if (killed || WIFSIGNALED(status))
        return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL);
    return WEXITSTATUS(status);
}

SDL_Surface *clt_load(const char *path)
{
    SDL_Surface *s = SDL_LoadBMP(path);
    if (!s)
        return NULL;
    SDL_Surface *c = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_ARGB8888, 0);
    SDL_FreeSurface(s);
    return c;
}

SDL_Color clt_pixel(SDL_Surface *s, int x, int y)
{
    SDL_Color c = {0, 0, 0, 0};
    if (!s || x < 0 || y < 0 || x >= s->w || y >= s->h)
        return c;
    Uint32 v = ((const Uint32 *)((const Uint8 *)s->pixels + y * s->pitch))[x];
    SDL_GetRGBA(v, s->format, &c.r, &c.g, &c.b, &c.a);
    return c;
}

bool clt_same(SDL_Color a, SDL_Color b, int tol)
{
    return abs(a.r - b.r) <= tol && abs(a.g - b.g) <= tol && abs(a.b - b.b) <= tol;
}

int clt_count(SDL_Surface *s, SDL_Rect r, SDL_Color c, int tol)
{
    int n = 0;
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++)
            n += clt_same(clt_pixel(s, x, y), c, tol);
    return n;
}

static const char *const keys[2][7] = {{"W", "S", "A", "D", "E", "Q", "R"},
                                       {"Up", "Down", "Left", "Right", "Return", "Right Shift", "Backspace"}};

static void add(char *buf, size_t cap, int gap, const char *key)
{
    size_t n = strlen(buf);
    snprintf(buf + n, cap - n, "+%d key %s\n", gap, key);
}

void clt_script_moves(char *buf, size_t cap, int slot, const pz_move *mv, int n, int gap, int *cx, int *cy)
{
    for (int i = 0; i < n; i++) {
        if (mv[i].type == PZ_MOVE_RESTART) {
            add(buf, cap, gap, keys[slot][6]);
            continue;
        }
        if (mv[i].type == PZ_MOVE_STEP) {
            add(buf, cap, gap, keys[slot][mv[i].dir & 3]);
            continue;
        }
        while (*cx < mv[i].x)
            add(buf, cap, gap, keys[slot][3]), (*cx)++;
        while (*cx > mv[i].x)
            add(buf, cap, gap, keys[slot][2]), (*cx)--;
        while (*cy < mv[i].y)
            add(buf, cap, gap, keys[slot][1]), (*cy)++;
        while (*cy > mv[i].y)
            add(buf, cap, gap, keys[slot][0]), (*cy)--;
        add(buf, cap, gap, keys[slot][mv[i].type == PZ_MOVE_ROTATE_CW ? 4 : 5]);
    }
}

int clt_solution(const char *id, pz_move *out, int max, pz_puzzle **pz)
{
    char err[200];
    *pz = pz_from_id(id, err, sizeof err);
    if (!*pz) {
        fprintf(stderr, "clt_solution: %s: %s\n", id, err);
        return -1;
    }
    return pz_kind_of(*pz)->solve(*pz, NULL, out, max);
}

/* ---- processes for the network tests ---- */

void clt_nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Starts argv with stdout and stderr into log; returns the pid or -1. */
pid_t clt_spawn(const char *const argv[], const char *log)
{
    pid_t pid = fork();
    if (pid == 0) {
        FILE *f = freopen(log, "w", stdout);
        if (!f)
            _exit(127);
        dup2(1, 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    return pid;
}

void clt_stop(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(pid, SIGINT);
    for (int i = 0; i < 300; i++) {
        if (waitpid(pid, NULL, WNOHANG) == pid)
            return;
        clt_nap_ms(10);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

bool clt_wait_exit(pid_t pid, int timeout_ms, int *status)
{
    for (int waited = 0; pid > 0 && waited <= timeout_ms; waited += 10) {
        if (waitpid(pid, status, WNOHANG) == pid)
            return true;
        clt_nap_ms(10);
    }
    return false;
}

pid_t clt_start_host(const char *game_id, const char *name, const char *script, const char *log, int *port,
                     char *code, size_t code_len)
{
    const char *argv[] = {MAZERACE_BIN,    "--headless", "--host", game_id, "--host-bind", "127.0.0.1",
                          "--host-port",   "0",          "--name", name,    "--script",    script,
                          "--max-seconds", "60",         NULL};
    pid_t pid = clt_spawn(argv, log);
    char p[64], c[64];
    if (pid <= 0 || !clt_wait_for(log, "hosting on port ", p, sizeof p, 15000) ||
        !clt_wait_for(log, "room code ", c, sizeof c, 15000) || code_len < 6) {
        clt_stop(pid);
        return -1;
    }
    *port = atoi(p);
    snprintf(code, code_len, "%.5s", c);
    return pid;
}

#ifdef MR_BOT_BIN
pid_t clt_bot_join(int port, const char *code, const char *pace_ms, const char *log)
{
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    const char *argv[] = {MR_BOT_BIN, "--server", addr,        "--room", code, "--pace",
                          pace_ms,    "--quiet",  "--timeout", "60",     NULL};
    return clt_spawn(argv, log);
}
#endif

/* Polls file path (bounded: timeout_ms) for a line containing needle;
 * copies the text after the needle into rest. */
bool clt_wait_for(const char *path, const char *needle, char *rest, size_t cap, int timeout_ms)
{
    uint64_t end = mr_now_us() / 1000 + (uint64_t)timeout_ms;
    while (mr_now_us() / 1000 < end) {
        FILE *f = fopen(path, "r");
        if (f) {
            char line[1024];
            while (fgets(line, sizeof line, f)) {
                char *p = strstr(line, needle);
                if (p) {
                    snprintf(rest, cap, "%s", p + strlen(needle));
                    fclose(f);
                    return true;
                }
            }
            fclose(f);
        }
        clt_nap_ms(20);
    }
    return false;
}

#ifdef MR_SERVER_BIN
pid_t clt_start_server(int *port, char *addr, size_t len)
{
    return clt_start_server_grace(2, port, addr, len, NULL, 0);
}

/* The server logging to log did not say "listening on": stopped, and
 * the reason (its log) shown, so a test fails with a message. */
static pid_t server_failed(pid_t pid, const char *log)
{
    clt_stop(pid);
    fprintf(stderr, "%s did not start (no \"listening on\" line within 10 s); its output (%s):\n",
            MR_SERVER_BIN, log);
    FILE *f = fopen(log, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        fprintf(stderr, "  | %s", line);
    if (f)
        fclose(f);
    return -1;
}

pid_t clt_start_server_db(const char *db, const char *log, char *addr, size_t len)
{
    const char *argv[] = {MR_SERVER_BIN, "--bind", "127.0.0.1", "--port", "0", "--no-discovery",
                          "--countdown", "1",      "--db",      db,       NULL};
    pid_t pid = clt_spawn(argv, log);
    char rest[256];
    if (pid < 0 || !clt_wait_for(log, "listening on 127.0.0.1:", rest, sizeof rest, 10000))
        return server_failed(pid, log);
    snprintf(addr, len, "127.0.0.1:%d", atoi(rest));
    return pid;
}

/* The server with argv: its port once it listens, its log's path. */
static pid_t start_logged(const char *const argv[], int *port, char *addr, size_t len, char *log_out,
                          size_t log_len)
{
    /* A fresh log per server, so an old one's port is never read. */
    static int n;
    char name[32];
    snprintf(name, sizeof name, "server%d.log", ++n);
    const char *log = clt_path(name);
    pid_t pid = clt_spawn(argv, log);
    char rest[256];
    if (pid < 0 || !clt_wait_for(log, "listening on 127.0.0.1:", rest, sizeof rest, 10000))
        return server_failed(pid, log);
    *port = atoi(rest);
    snprintf(addr, len, "127.0.0.1:%d", *port);
    if (log_out)
        snprintf(log_out, log_len, "%s", log);
    return pid;
}

pid_t clt_start_server_grace(int grace_s, int *port, char *addr, size_t len, char *log_out, size_t log_len)
{
    char grace[16];
    snprintf(grace, sizeof grace, "%d", grace_s);
    const char *argv[] = {MR_SERVER_BIN, "--bind", "127.0.0.1", "--port", "0", "--no-discovery",
                          "--countdown", "1",      "--grace",   grace,    NULL};
    return start_logged(argv, port, addr, len, log_out, log_len);
}

pid_t clt_start_server_spectators(int *port, int *spect_port, char *addr, size_t len)
{
    const char *argv[] = {MR_SERVER_BIN,      "--bind",      "127.0.0.1", "--port",  "0",
                          "--no-discovery",   "--countdown", "1",         "--grace", "2",
                          "--spectator-port", "0",           NULL};
    char log[512], rest[256];
    pid_t pid = start_logged(argv, port, addr, len, log, sizeof log);
    if (pid > 0 && !clt_wait_for(log, "spectators on 127.0.0.1:", rest, sizeof rest, 10000)) {
        clt_stop(pid);
        return -1;
    }
    *spect_port = pid > 0 ? atoi(rest) : 0;
    return pid;
}
#endif
