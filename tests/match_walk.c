/* match_walk.c: a fake puzzle kind ("walk") and the helpers the match engine's tests drive it with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "match_walk.h"
#include "util.h"

/* ---- "walk": a 1-D puzzle, walk right from cell 0 to cell w-1 ----
 * Small enough to drive every transition of the engine by hand. */
struct pz_puzzle {
    pz_params params;
    uint64_t seed;
};
struct pz_state {
    int pos;
};

pz_puzzle *walk_generate(const pz_params *p, uint64_t seed, const char **err)
{
    if (p->w < 2) {
        *err = "too short";
        return NULL;
    }
    pz_puzzle *pz = mr_alloc(1, sizeof *pz);
    pz->params = *p;
    pz->seed = seed;
    return pz;
}
static void walk_free_puzzle(pz_puzzle *pz)
{
    free(pz);
}
static char *walk_encode(const pz_puzzle *pz)
{
    char buf[64];
    snprintf(buf, sizeof buf, "L%dS%llu", pz->params.w, (unsigned long long)pz->seed);
    return mr_strdup(buf);
}
static pz_state *walk_new_state(const pz_puzzle *pz)
{
    (void)pz;
    return mr_alloc(1, sizeof(pz_state));
}
static void walk_copy(pz_state *d, const pz_state *s)
{
    *d = *s;
}
static void walk_free_state(pz_state *st)
{
    free(st);
}
static const char *walk_move(const pz_puzzle *pz, const pz_state *from, pz_move mv, pz_state *to)
{
    if (from->pos == pz->params.w - 1)
        return "already solved";
    if (mv.type == PZ_MOVE_ROTATE_CW) { /* looking around: a move that changes nothing */
        *to = *from;
        return NULL;
    }
    if (mv.type != PZ_MOVE_STEP)
        return "walk only steps";
    if (mv.dir == PZ_RIGHT) {
        to->pos = from->pos + 1;
        return NULL;
    }
    if (mv.dir == PZ_LEFT && from->pos > 0) {
        to->pos = from->pos - 1;
        return NULL;
    }
    return "no way there";
}
static bool walk_solved(const pz_puzzle *pz, const pz_state *st)
{
    return st->pos == pz->params.w - 1;
}
static void walk_progress(const pz_puzzle *pz, const pz_state *st, pz_progress *out)
{
    out->x = st->pos;
    out->y = 0;
    out->path_len = 0;
    out->value = st->pos;
    out->solved = walk_solved(pz, st);
}

const pz_kind walk_kind = {
    .name = "walk",
    .id = PZ_MAZE,
    .generate = walk_generate,
    .free_puzzle = walk_free_puzzle,
    .encode_desc = walk_encode,
    .new_state = walk_new_state,
    .copy_state = walk_copy,
    .free_state = walk_free_state,
    .execute_move = walk_move,
    .is_solved = walk_solved,
    .progress = walk_progress,
};

match *new_match(uint32_t countdown, uint32_t grace, int series, uint64_t seed)
{
    pz_params p = {PZ_MAZE, LEN, 1, PZ_EASY};
    const char *err = NULL;
    pz_puzzle *pz = walk_generate(&p, seed, &err);
    match_config cfg = {countdown, grace, series, false};
    match *m = match_create_puzzle(&walk_kind, pz, true, seed, &cfg, 99, &err);
    assert_non_null(m);
    return m;
}

int drain(match *m, match_event *evs, int max)
{
    int n = 0;
    match_event ev;
    while (match_poll_event(m, &ev)) {
        assert_true(n < max);
        evs[n++] = ev;
    }
    return n;
}

int count_type(const match_event *evs, int n, int type)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += evs[i].type == type;
    return c;
}

const match_event *find(const match_event *evs, int n, int type)
{
    for (int i = 0; i < n; i++)
        if (evs[i].type == type)
            return &evs[i];
    return NULL;
}

match *racing_match(int series)
{
    match *m = new_match(3000, 30000, series, 7);
    int slot;
    assert_null(match_join(m, -1, "ann", 1000, &slot));
    assert_int_equal(slot, 0);
    assert_null(match_join(m, -1, "bob", 1000, &slot));
    assert_int_equal(slot, 1);
    assert_null(match_ready(m, 0, true, 1000));
    assert_null(match_ready(m, 1, true, 1000));
    match_update(m, 4000);
    assert_int_equal(match_phase(m), MATCH_RACING);
    match_event evs[32];
    drain(m, evs, 32);
    return m;
}

void play_moves(match *m, int slot, int n, uint64_t now)
{
    for (int i = 0; i < n; i++)
        assert_null(match_move(m, slot, (uint32_t)i, RIGHT, now, NULL));
}
