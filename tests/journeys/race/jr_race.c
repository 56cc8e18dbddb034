/* jr_race.c: helpers of the racing journeys (see jr_race.h). */
#include "jr_race.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cl_draw.h"
#include "cl_test_util.h"
#include "st.h"

pid_t jr_server(int grace_s, const char *const *extra, const char *log, char *addr, size_t len)
{
    char grace[16];
    snprintf(grace, sizeof grace, "%d", grace_s);
    const char *argv[32] = {MR_JR_SERVER, "--bind", "127.0.0.1",   "--port", "0",       "--no-discovery",
                            "--db",       "none",   "--countdown", "1",      "--grace", grace};
    int n = 12;
    for (int i = 0; extra && extra[i] && n < 31; i++)
        argv[n++] = extra[i];
    argv[n] = NULL;
    pid_t pid = clt_spawn(argv, log);
    char rest[256];
    if (pid < 0 || !clt_wait_for(log, "listening on 127.0.0.1:", rest, sizeof rest, 15000)) {
        clt_stop(pid);
        return -1;
    }
    snprintf(addr, len, "127.0.0.1:%d", atoi(rest));
    return pid;
}

pid_t jr_client(const char *const *args, const char *log)
{
    const char *argv[40] = {MAZERACE_BIN};
    int n = 1;
    for (int i = 0; args[i] && n < 39; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    return clt_spawn(argv, log);
}

uint64_t jr_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

bool jr_history_newest(const char *path, st_match *out)
{
    char err[256];
    st *s = st_open(path, ST_OPEN_READONLY, err, sizeof err);
    st_match *page = NULL;
    int n = 0;
    bool ok = s && !st_recent(s, 0, 1, &page, &n) && n == 1;
    if (ok) {
        *out = page[0];
        memset(&page[0], 0, sizeof page[0]); /* the record goes to the caller */
    }
    st_matches_free(page, n);
    st_close(s);
    return ok;
}

bool jr_history_says(const char *path, int winner, int reason, int slot, const char *name)
{
    st_match r;
    if (!jr_history_newest(path, &r))
        return false;
    printf("history: winner %d, reason %d, %s v %s\n", r.winner, r.ending, r.p[0].name, r.p[1].name);
    bool says = r.winner == winner && r.ending == reason && slot >= 0 && slot < 2 &&
                strcmp(r.p[slot].name, name) == 0;
    st_match_free(&r);
    return says;
}

bool jr_results_shown(const char *bmp, int winner)
{
    SDL_Surface *s = clt_load(bmp);
    if (!s || s->w != 1280 || s->h != 720 || winner < 0 || winner > 1) {
        SDL_FreeSurface(s);
        return false;
    }
    SDL_Rect mid = {640 - 200, 360 - 40, 400, 80}, title = {640 - 250, 100, 500, 140};
    bool ok =
        jr_share(s, mid, cl_col_panel, 6) > 0.5 && clt_count(s, title, cl_col_player_soft[winner], 12) > 100;
    SDL_FreeSurface(s);
    return ok;
}

int jr_blobs(SDL_Surface *s, SDL_Rect r, SDL_Color c, int tol, int min_px)
{
    int w = r.w, h = r.h, found = 0;
    unsigned char *mask = calloc((size_t)w * (size_t)h, 1);
    int *stack = malloc(sizeof *stack * (size_t)w * (size_t)h);
    if (!mask || !stack) {
        free(mask);
        free(stack);
        return -1;
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            mask[y * w + x] = clt_same(clt_pixel(s, r.x + x, r.y + y), c, tol);
    for (int i = 0; i < w * h; i++) {
        if (mask[i] != 1)
            continue;
        int top = 0, size = 0;
        stack[top++] = i;
        mask[i] = 2;
        while (top > 0) { /* bounded: each pixel is pushed once */
            int p = stack[--top], px = p % w, py = p / w;
            size++;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int qx = px + dx, qy = py + dy;
                    if (qx < 0 || qy < 0 || qx >= w || qy >= h || mask[qy * w + qx] != 1)
                        continue;
                    mask[qy * w + qx] = 2;
                    stack[top++] = qy * w + qx;
                }
        }
        found += size >= min_px;
    }
    free(mask);
    free(stack);
    return found;
}

double jr_share(SDL_Surface *s, SDL_Rect r, SDL_Color c, int tol)
{
    long all = (long)r.w * r.h;
    return all > 0 ? (double)clt_count(s, r, c, tol) / (double)all : 0;
}

bool jr_same_rect(SDL_Surface *a, SDL_Surface *b, SDL_Rect r)
{
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++)
            if (!clt_same(clt_pixel(a, x, y), clt_pixel(b, x, y), 0))
                return false;
    return true;
}

char *jr_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += k;
        if (n == cap) {
            char *more = realloc(buf, cap * 2 + 1);
            if (!more)
                break;
            buf = more;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}
