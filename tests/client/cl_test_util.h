/* cl_test_util.h: helpers for the client tests: run the real binary with a
 * deadline, write scripts, read screenshots, find pixels. */
#ifndef CL_TEST_UTIL_H
#define CL_TEST_UTIL_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "puzzle.h"

/* A fresh temporary directory (mkdtemp) for this test's files. */
const char *clt_tmpdir(void);
/* Removes clt_tmpdir() and its files (call at the end of a passing run). */
void clt_cleanup(void);
/* The end of a test program's main: clt_cleanup after a passing run (the files stay behind for a look
 * when something failed); returns failed, the count of failed tests. */
int clt_finish(int failed);
/* Path of name inside clt_tmpdir() (static buffer rotated over 4 calls). */
const char *clt_path(const char *name);
/* Runs the mazerace binary with args (NULL-terminated), capturing stdout
 * and stderr into out (cap bytes, NUL-terminated); kills it after
 * timeout_ms. Returns the exit code, 128 + signal if killed. */
int clt_run(const char *const args[], char *out, size_t cap, int timeout_ms);
/* Writes text to path; false on failure. */
bool clt_write(const char *path, const char *text);
/* Loads a BMP as ARGB8888; NULL on failure. */
SDL_Surface *clt_load(const char *path);
/* Pixel at (x, y) as SDL_Color. */
SDL_Color clt_pixel(SDL_Surface *s, int x, int y);
bool clt_same(SDL_Color a, SDL_Color b, int tol);
/* Pixels within rect r that match c (tolerance tol). */
int clt_count(SDL_Surface *s, SDL_Rect r, SDL_Color c, int tol);
/* A script line per move for player slot (keys from the default bindings:
 * P1 W/S/A/D + E/Q, P2 arrows + Return/Right Shift), gap ms apart, appended
 * to buf. For pipes, cursor moves are emitted before each rotation, with
 * the cursor starting at (*cx, *cy) (updated). */
void clt_script_moves(char *buf, size_t cap, int slot, const pz_move *mv, int n, int gap, int *cx, int *cy);
/* A solution of the puzzle named by id from the start; returns its length
 * (moves in out, at most max) or -1. The puzzle is returned in *pz (caller
 * frees with its kind's free_puzzle). */
int clt_solution(const char *id, pz_move *out, int max, pz_puzzle **pz);

/* Network tests: sleep, child processes with output into a log file,
 * and log polling (every wait bounded by timeout_ms). */
void clt_nap_ms(long ms);
/* Starts argv with stdout and stderr into log; the pid or -1. */
pid_t clt_spawn(const char *const argv[], const char *log);
/* SIGTERM, then SIGKILL after 3 s; reaps. Accepts pid <= 0. */
void clt_stop(pid_t pid);
/* Waits up to timeout_ms for pid to exit by itself; true (and its wait
 * status in *status) if it did. Reaps it. */
bool clt_wait_exit(pid_t pid, int timeout_ms, int *status);
/* Starts the game headless hosting game_id (in-process server on
 * 127.0.0.1, a free port) as player name with the given script and a
 * 60 s limit, output into log; waits for its port and room code (code:
 * 6 bytes or more). The pid, or -1 (nothing left running). */
pid_t clt_start_host(const char *game_id, const char *name, const char *script, const char *log, int *port,
                     char *code, size_t code_len);
/* Starts mazerace-bot joining room code on 127.0.0.1:port, one move every
 * pace_ms ms, quiet, a 60 s limit, output into log. The pid, or -1. */
pid_t clt_bot_join(int port, const char *code, const char *pace_ms, const char *log);
/* Polls the file path for a line containing needle; copies what follows
 * the needle into rest. False after timeout_ms. */
bool clt_wait_for(const char *path, const char *needle, char *rest, size_t cap, int timeout_ms);
/* Starts mazerace-server on 127.0.0.1, port 0, no discovery, countdown 1 s,
 * grace 2 s; *port gets its port and addr (len bytes) "127.0.0.1:PORT".
 * The pid, or -1. */
pid_t clt_start_server(int *port, char *addr, size_t len);
/* A real server with --db db (a path, or "none") and a 1 s countdown, its
 * output in log; addr (len bytes) gets "127.0.0.1:PORT". The pid, or -1
 * (nothing left running). */
pid_t clt_start_server_db(const char *db, const char *log, char *addr, size_t len);
/* The same with a grace period of grace_s seconds; the server's log file
 * path goes into log (log_len bytes) unless log is NULL. */
pid_t clt_start_server_grace(int grace_s, int *port, char *addr, size_t len, char *log, size_t log_len);
/* As clt_start_server, with spectators on a port of their own
 * (--spectator-port 0): its port in *spect_port. */
pid_t clt_start_server_spectators(int *port, int *spect_port, char *addr, size_t len);

#endif
