/* it_proc.h: child processes for integration tests: spawn with stdout on a
 * pipe, read its lines with deadlines, signal it, wait for it with a deadline. */
#ifndef MR_IT_PROC_H
#define MR_IT_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct it_proc {
    pid_t pid;
    int out_fd;     /* read end of the child's stdout (and stderr) */
    char buf[8192]; /* bytes read but not yet returned as lines */
    size_t len;
    bool eof;
    int status; /* waitpid status once reaped */
    bool reaped;
} it_proc;

/* Starts argv[0] (a path) with argv; stdout and stderr go to a pipe read
 * through it_proc_line. Returns false (and prints why) on failure. */
bool it_proc_spawn(it_proc *p, char *const argv[]);

/* Next line of output (without the newline) into line, waiting at most
 * timeout_ms in all. Returns false on timeout or end of output. Every line
 * read is echoed to stderr with prefix tag, so a failing test shows what the
 * child said. */
bool it_proc_line(it_proc *p, char *line, size_t cap, int timeout_ms, const char *tag);

/* Reads lines until one contains needle (copied to line); false on timeout or
 * end of output. */
bool it_proc_expect(it_proc *p, const char *needle, char *line, size_t cap, int timeout_ms, const char *tag);

/* Reads the child's remaining output until it ends, then reaps it; false if it
 * has not ended within timeout_ms. On success *exit_code is the exit status,
 * or 128 + signal if it was killed. */
bool it_proc_wait(it_proc *p, int timeout_ms, int *exit_code, const char *tag);

/* Reads and echoes whatever output is ready, without waiting, so a chatty
 * child never blocks on a full pipe. Lines containing needle (if not NULL)
 * are counted into *hits. */
void it_proc_drain(it_proc *p, const char *tag, const char *needle, int *hits);

/* Sends sig to the child if it is still running. */
void it_proc_signal(it_proc *p, int sig);

/* Kills (SIGKILL) and reaps the child if still running; closes the pipe.
 * Safe to call twice and on a zeroed it_proc. */
void it_proc_cleanup(it_proc *p);

/* Kills (SIGKILL) and reaps every child spawned and not yet reaped: a
 * cmocka teardown calls it, so a failed assertion (which jumps out of the
 * test) leaves no server running. */
void it_proc_kill_all(void);
int it_teardown(void **state); /* cmocka teardown doing it_proc_kill_all */

/* Starts the real server (path) on 127.0.0.1 with an ephemeral port plus
 * extra arguments (NULL-terminated list, may be NULL) and reads its port from
 * the "listening on ADDR:PORT" line. Returns the port, or -1. */
int it_server_start(it_proc *p, const char *path, const char *const extra[]);

#endif
