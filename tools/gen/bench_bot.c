/* bench_bot.c: `mazerace-gen bench-bot`: each computer level's median solve time per kind and size band, on a
 * simulated clock. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bot.h"
#include "bot_model.h"
#include "util.h"

/* Size bands: the kind's default, then about twice and four times its
 * sides, as the setup screen offers them (clamped to the kind's limits). */
static const int band_mul[] = {1, 2, 4};
static const char *const band_names[] = {"default", "x2", "x4"};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* One race against nobody: the bot's clock runs from 0 to its last move
 * without waiting. Returns the solve time in ms, or UINT64_MAX. */
static uint64_t solve_time(const pz_puzzle *pz, int level, uint64_t seed, uint32_t *moves)
{
    const char *err = NULL;
    bot *b = bot_create_level(pz, level, seed, &err);
    if (!b)
        return UINT64_MAX;
    bot_start(b, 0);
    uint64_t t = 0;
    pz_move mv;
    for (int i = 0; i < 200000 && !bot_solved(b); i++) {
        uint64_t due = bot_next_due(b);
        if (due == UINT64_MAX || !bot_next_move(b, due, &mv))
            break;
        t = due;
    }
    bool ok = bot_solved(b);
    *moves = bot_moves(b);
    bot_destroy(b);
    return ok ? t : UINT64_MAX;
}

static void fmt_s(char *buf, size_t len, uint64_t ms)
{
    if (ms == UINT64_MAX)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1f", (double)ms / 1000.0);
}

int bench_bot(int count, int only_kind, int diff)
{
    printf("mazerace-gen %s bench-bot: median solve time in seconds over %d seeds a cell (%s boards),\n"
           "simulated clock; in brackets the median moves. 'first-time' is the reference person of\n"
           "docs/bot.md, never offered as a level.\n\n",
           MR_VERSION, count, pz_difficulty_name(diff));
    printf("| kind | size | first-time |");
    for (int l = 0; l < BOT_LEVEL_COUNT; l++)
        printf(" %s |", bot_level_name(l));
    printf("\n|---|---|---|");
    for (int l = 0; l < BOT_LEVEL_COUNT; l++)
        printf("---|");
    printf("\n");
    uint64_t *t = mr_alloc((size_t)count, sizeof *t);
    uint64_t *mv = mr_alloc((size_t)count, sizeof *mv);
    pz_puzzle **boards = mr_alloc((size_t)count, sizeof *boards);
    static const int order[] = {BOT_FIRST_TIMER, BOT_BEGINNER, BOT_CASUAL, BOT_STRONG, BOT_EXPERT};
    for (int kind = 0; kind < PZ_KIND_COUNT; kind++) {
        if (only_kind >= 0 && kind != only_kind)
            continue;
        const pz_kind *k = pz_kind_by_id(kind);
        int last_w = 0, last_h = 0;
        for (size_t band = 0; band < MR_ARRAY_LEN(band_mul); band++) {
            pz_params p = {kind, k->default_w * band_mul[band], k->default_h * band_mul[band], diff};
            if (p.w > k->max_w)
                p.w = k->max_w;
            if (p.h > k->max_h)
                p.h = k->max_h;
            if (pz_validate_params(&p) || (p.w == last_w && p.h == last_h))
                continue;
            last_w = p.w, last_h = p.h;
            int n = 0;
            for (int s = 1; s <= count; s++) {
                const char *err = NULL;
                boards[n] = k->generate(&p, (uint64_t)s, &err);
                if (boards[n])
                    n++;
            }
            if (n * 2 < count) { /* a size this difficulty rarely fits (e.g. medium ice past 64 rows) */
                for (int i = 0; i < n; i++)
                    k->free_puzzle(boards[i]);
                continue;
            }
            printf("| %s | %dx%d (%s) |", k->name, p.w, p.h, band_names[band]);
            for (size_t o = 0; o < MR_ARRAY_LEN(order); o++) {
                int got = 0;
                for (int i = 0; i < n; i++) {
                    uint32_t moves = 0;
                    uint64_t ms = solve_time(boards[i], order[o], 0xB07u + (uint64_t)i * 7919u, &moves);
                    if (ms != UINT64_MAX) {
                        t[got] = ms;
                        mv[got] = moves;
                        got++;
                    }
                }
                char a[32];
                if (got * 2 < count) {
                    printf(" - |");
                    continue;
                }
                qsort(t, (size_t)got, sizeof *t, cmp_u64);
                qsort(mv, (size_t)got, sizeof *mv, cmp_u64);
                fmt_s(a, sizeof a, t[got / 2]);
                printf(" %s (%" PRIu64 ") |", a, mv[got / 2]);
            }
            printf("\n");
            fflush(stdout);
            for (int i = 0; i < n; i++)
                k->free_puzzle(boards[i]);
        }
    }
    free(boards);
    free(mv);
    free(t);
    return 0;
}
