/* jr_race.h: what the racing journeys share: a real server with given flags and its log, the
 * client's and bots' logs, the game's history file, and counting markers in a screenshot. */
#ifndef MR_JR_RACE_H
#define MR_JR_RACE_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* mazerace-server on 127.0.0.1, port 0, no discovery, the database off, a
 * 1 s countdown, grace grace_s, then the extra flags (NULL-terminated, may
 * be NULL); its output in log. addr (len bytes) gets "127.0.0.1:PORT". The
 * pid, or -1 (nothing left running). */
pid_t jr_server(int grace_s, const char *const *extra, const char *log, char *addr, size_t len);
/* The headless client with args (NULL-terminated, after the binary),
 * output into log. The pid, or -1. */
pid_t jr_client(const char *const *args, const char *log);
/* Milliseconds on the monotonic clock. */
uint64_t jr_ms(void);
/* The newest race in the history file at path: true with it in *out
 * (st_match_free it). */
struct st_match;
bool jr_history_newest(const char *path, struct st_match *out);
/* True when the newest race in the history at path was won by winner
 * (slot) for reason (enum match_end_reason), with name in slot. */
bool jr_history_says(const char *path, int winner, int reason, int slot, const char *name);
/* True when the screenshot at bmp (1280x720) shows the results panel over
 * the boards with the title ("You win!", "X wins!") in winner's colour. */
bool jr_results_shown(const char *bmp, int winner);
/* 8-connected areas of at least min_px pixels within r that match c
 * (tolerance tol): how many markers of that colour a board shows. */
int jr_blobs(SDL_Surface *s, SDL_Rect r, SDL_Color c, int tol, int min_px);
/* Share (0..1) of the pixels of r that match c. */
double jr_share(SDL_Surface *s, SDL_Rect r, SDL_Color c, int tol);
/* True when the pixels of r are the same in both screenshots. */
bool jr_same_rect(SDL_Surface *a, SDL_Surface *b, SDL_Rect r);
/* The file's whole text (NUL-terminated, caller frees), or NULL. */
char *jr_slurp(const char *path);

#endif
