/* it_proc.c: child processes for integration tests (see it_proc.h). */
#include "it_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

extern char **environ;

/* Children not reaped yet, by pid (the it_proc itself may live in a stack
 * frame a failed assertion has left). */
#define MAX_LIVE 32
static pid_t live[MAX_LIVE];

static void live_add(pid_t pid)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] == 0) {
            live[i] = pid;
            return;
        }
}

static void live_remove(pid_t pid)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] == pid)
            live[i] = 0;
}

void it_proc_kill_all(void)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] > 0) {
            kill(live[i], SIGKILL);
            waitpid(live[i], NULL, 0);
            live[i] = 0;
        }
}

int it_teardown(void **state)
{
    (void)state;
    it_proc_kill_all();
    return 0;
}

bool it_proc_spawn(it_proc *p, char *const argv[])
{
    memset(p, 0, sizeof *p);
    p->pid = -1;
    p->out_fd = -1;
    int fds[2];
    if (pipe(fds) != 0) {
        perror("pipe");
        return false;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    int rc = posix_spawn(&p->pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        fprintf(stderr, "cannot start %s: %s\n", argv[0], strerror(rc));
        close(fds[0]);
        p->pid = -1;
        return false;
    }
    live_add(p->pid);
    p->out_fd = fds[0];
    fcntl(p->out_fd, F_SETFL, fcntl(p->out_fd, F_GETFL) | O_NONBLOCK);
    return true;
}

/* Moves one complete line out of the buffer, if there is one. At end of
 * output a last unterminated line also counts. */
static bool take_line(it_proc *p, char *line, size_t cap)
{
    char *nl = memchr(p->buf, '\n', p->len);
    size_t n;
    if (nl)
        n = (size_t)(nl - p->buf);
    else if (p->len == sizeof p->buf || (p->eof && p->len > 0))
        n = p->len;
    else
        return false;
    size_t copy = n < cap - 1 ? n : cap - 1;
    memcpy(line, p->buf, copy);
    line[copy] = '\0';
    size_t used = nl ? n + 1 : n;
    memmove(p->buf, p->buf + used, p->len - used);
    p->len -= used;
    return true;
}

bool it_proc_line(it_proc *p, char *line, size_t cap, int timeout_ms, const char *tag)
{
    uint64_t deadline = mr_now_us() + (uint64_t)timeout_ms * 1000u;
    for (;;) {
        if (take_line(p, line, cap)) {
            fprintf(stderr, "[%s] %s\n", tag, line);
            return true;
        }
        if (p->eof || p->out_fd < 0)
            return false;
        uint64_t now = mr_now_us();
        int left = now >= deadline ? 0 : (int)((deadline - now + 999) / 1000);
        struct pollfd pf = {.fd = p->out_fd, .events = POLLIN};
        int r = poll(&pf, 1, left);
        if (r < 0 && errno != EINTR)
            return false;
        if (r == 0 && left == 0)
            return false;
        if (r <= 0)
            continue;
        ssize_t got = read(p->out_fd, p->buf + p->len, sizeof p->buf - p->len);
        if (got > 0)
            p->len += (size_t)got;
        else if (got == 0 || (errno != EAGAIN && errno != EINTR))
            p->eof = true;
    }
}

bool it_proc_expect(it_proc *p, const char *needle, char *line, size_t cap, int timeout_ms, const char *tag)
{
    uint64_t deadline = mr_now_us() + (uint64_t)timeout_ms * 1000u;
    for (;;) {
        uint64_t now = mr_now_us();
        if (now >= deadline)
            return false;
        if (!it_proc_line(p, line, cap, (int)((deadline - now + 999) / 1000), tag))
            return false;
        if (strstr(line, needle))
            return true;
    }
}

bool it_proc_wait(it_proc *p, int timeout_ms, int *exit_code, const char *tag)
{
    if (p->pid <= 0)
        return false;
    uint64_t deadline = mr_now_us() + (uint64_t)timeout_ms * 1000u;
    char line[1024];
    /* The pipe reaches end of output when the child exits (unless it left a
     * grandchild holding it, which our children do not). */
    while (!p->eof && p->out_fd >= 0) {
        uint64_t now = mr_now_us();
        if (now >= deadline)
            return false;
        if (!it_proc_line(p, line, sizeof line, (int)((deadline - now + 999) / 1000), tag) && !p->eof)
            return false;
    }
    while (take_line(p, line, sizeof line))
        fprintf(stderr, "[%s] %s\n", tag, line);
    /* Output ended: the exit is imminent; reap it, still within the deadline. */
    for (;;) {
        pid_t r = waitpid(p->pid, &p->status, WNOHANG);
        if (r == p->pid)
            break;
        if (r < 0)
            return false;
        if (mr_now_us() >= deadline)
            return false;
        struct pollfd none;
        poll(&none, 0, 1);
    }
    p->reaped = true;
    live_remove(p->pid);
    if (exit_code)
        *exit_code = WIFEXITED(p->status) ? WEXITSTATUS(p->status)
                                          : 128 + (WIFSIGNALED(p->status) ? WTERMSIG(p->status) : 0);
    return true;
}

void it_proc_drain(it_proc *p, const char *tag, const char *needle, int *hits)
{
    char line[1024];
    while (it_proc_line(p, line, sizeof line, 0, tag))
        if (needle && hits && strstr(line, needle))
            (*hits)++;
}

void it_proc_signal(it_proc *p, int sig)
{
    if (p->pid > 0 && !p->reaped)
        kill(p->pid, sig);
}

void it_proc_cleanup(it_proc *p)
{
    if (p->pid > 0 && !p->reaped) {
        kill(p->pid, SIGKILL);
        waitpid(p->pid, &p->status, 0);
        p->reaped = true;
        live_remove(p->pid);
    }
    if (p->out_fd >= 0)
        close(p->out_fd);
    p->out_fd = -1;
}

int it_server_start(it_proc *p, const char *path, const char *const extra[])
{
    char *argv[40];
    int n = 0;
    argv[n++] = (char *)path;
    argv[n++] = "--bind";
    argv[n++] = "127.0.0.1";
    argv[n++] = "--port";
    argv[n++] = "0";
    for (int i = 0; extra && extra[i] && n < 38; i++)
        argv[n++] = (char *)extra[i];
    argv[n] = NULL;
    if (!it_proc_spawn(p, argv))
        return -1;
    char line[512];
    if (!it_proc_expect(p, "listening on", line, sizeof line, 10000, "server")) {
        /* Its own words are above, tagged [server]; say how it ended. */
        int code = -1;
        bool ended = it_proc_wait(p, 1000, &code, "server");
        if (ended)
            fprintf(stderr, "%s did not start: exit status %d (its error is above, tagged [server])\n", path,
                    code);
        else
            fprintf(stderr, "%s did not start: no \"listening on\" line within 10 s\n", path);
        it_proc_cleanup(p);
        return -1;
    }
    const char *colon = strrchr(line, ':');
    int port = colon ? atoi(colon + 1) : 0;
    if (port <= 0 || port > 65535) {
        fprintf(stderr, "cannot read a port from: %s\n", line);
        it_proc_cleanup(p);
        return -1;
    }
    return port;
}
