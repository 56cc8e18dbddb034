/* pipes_solve.c: the rotating-pipes exact par solver (branch and bound under a relaxed bound), solve, grade,
 * progress. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipes_impl.h"
#include "util.h"

/* Branch-and-bound node budget of one solve. Generated boards never get
 * near it (the relaxed bound is almost always tight); a hand-made board that
 * exhausts it is refused by the readers, so every accepted board has an
 * exact par. */
#define SOLVE_BUDGET 100000L

/* Each state is settled once and relaxes at most three edges. */
static int queue_cap(int n)
{
    return 4 * n * 3 + 8;
}
/* A relaxed path visits each (tile, side) state at most once, 2 per state. */
static int cost_cap(int n)
{
    return 8 * n + 8;
}

/* One allocation holds the solver and all its arrays, sized for n tiles. */
pipes_solver *pipes_solver_create(int n)
{
    size_t ns = 4 * (size_t)n, qc = (size_t)queue_cap(n), cc = (size_t)cost_cap(n);
    size_t bytes = sizeof(pipes_solver) + ns * sizeof(int16_t) + 3 * (size_t)n * sizeof(int16_t) +
                   (cc + 2 * qc) * sizeof(int) + 7 * (size_t)n;
    pipes_solver *sv = mr_alloc(1, bytes);
    char *p = (char *)(sv + 1);
    /* ints first, then int16s, then bytes: every array stays aligned */
    sv->head = (int *)(void *)p;
    p += cc * sizeof(int);
    sv->next = (int *)(void *)p;
    p += qc * sizeof(int);
    sv->val = (int *)(void *)p;
    p += qc * sizeof(int);
    sv->hcost = (int16_t *)(void *)p;
    p += ns * sizeof(int16_t);
    sv->cell = (int16_t *)(void *)p;
    p += (size_t)n * sizeof(int16_t);
    sv->gcost = (int16_t *)(void *)p;
    p += (size_t)n * sizeof(int16_t);
    sv->best_cell = (int16_t *)(void *)p;
    p += (size_t)n * sizeof(int16_t);
    sv->exits = (int8_t(*)[2])(void *)p;
    p += 2 * (size_t)n;
    sv->cur = (uint8_t *)p;
    p += (size_t)n;
    sv->used = (uint8_t *)p;
    p += (size_t)n;
    sv->entry = (int8_t *)p;
    p += (size_t)n;
    sv->opt = (int8_t *)p;
    p += (size_t)n;
    sv->best_exit = (int8_t *)p;
    sv->n = n;
    sv->budget = SOLVE_BUDGET;
    return sv;
}

#define H_INF 0x3fff

/* Cost for tile i to join side a to side b, or -1 if its shape cannot. */
static int join_cost(const pipes_solver *sv, int i, int a, int b)
{
    int m = sv->cur[i];
    int want = (1 << a) | (1 << b);
    if (is_straight(m) != is_straight(want))
        return -1;
    return rot_cost(m, want);
}

/* The neighbour of cell i across side s, or -1 off the board. */
static int neighbour(const pipes_solver *sv, int i, int s)
{
    int x = i % sv->w + side_dx(s), y = i / sv->w + side_dy(s);
    if (x < 0 || y < 0 || x >= sv->w || y >= sv->h)
        return -1;
    return y * sv->w + x;
}

/* Backward Dijkstra (costs 0..2, so buckets) from the End cap. State
 * (i, a): entering tile i through side a; h = cheapest way out through End. */
static void bound(pipes_solver *sv)
{
    int ns = sv->n * 4;
    for (int k = 0; k < ns; k++)
        sv->hcost[k] = H_INF;
    int maxc = cost_cap(sv->n), qcap = queue_cap(sv->n);
    int *head = sv->head, *next = sv->next, *val = sv->val;
    int used_slots = 0;
    for (int c = 0; c < maxc; c++)
        head[c] = -1;
#define PUSH(c, s)                                                                                           \
    do {                                                                                                     \
        val[used_slots] = (s);                                                                               \
        next[used_slots] = head[c];                                                                          \
        head[c] = used_slots++;                                                                              \
    } while (0)
    int end = sv->pz->end_row * sv->w + sv->w - 1;
    for (int a = 0; a < 4; a++) {
        if (a == SIDE_E)
            continue;
        int c = join_cost(sv, end, a, SIDE_E);
        if (c >= 0 && c < sv->hcost[end * 4 + a]) {
            sv->hcost[end * 4 + a] = (int16_t)c;
            PUSH(c, end * 4 + a);
        }
    }
    for (int c = 0; c < maxc; c++) {
        while (head[c] >= 0) {
            int slot = head[c];
            head[c] = next[slot];
            int s = val[slot];
            if (sv->hcost[s] != c)
                continue;
            /* predecessors: tile j left through side b into (i, a), so j is
             * i's neighbour across a and b is opposite a */
            int i = s >> 2, a = s & 3;
            int j = neighbour(sv, i, a);
            if (j < 0)
                continue;
            int b = (a + 2) & 3;
            for (int e = 0; e < 4; e++) {
                if (e == b)
                    continue;
                int jc = join_cost(sv, j, e, b);
                if (jc < 0)
                    continue;
                int nc = c + jc;
                if (nc < sv->hcost[j * 4 + e] && nc < maxc && used_slots < qcap) {
                    sv->hcost[j * 4 + e] = (int16_t)nc;
                    PUSH(nc, j * 4 + e);
                }
            }
        }
    }
#undef PUSH
}

/* Fills frame d's exit options for entering cell i through side a. */
static void frame_options(pipes_solver *sv, int d)
{
    int i = sv->cell[d], a = sv->entry[d];
    int cand[2], nc = 0;
    if (is_straight(sv->cur[i])) {
        cand[nc++] = (a + 2) & 3;
    } else {
        cand[nc++] = (a + 1) & 3;
        cand[nc++] = (a + 3) & 3;
    }
    int score[2];
    for (int k = 0; k < nc; k++) {
        int b = cand[k];
        int j = neighbour(sv, i, b);
        int c = join_cost(sv, i, a, b);
        int hn = j >= 0 ? sv->hcost[j * 4 + ((b + 2) & 3)]
                        : (i == sv->pz->end_row * sv->w + sv->w - 1 && b == SIDE_E ? 0 : H_INF);
        score[k] = hn >= H_INF ? H_INF : c + hn;
    }
    if (nc == 2 && score[1] < score[0]) {
        int t = cand[0];
        cand[0] = cand[1];
        cand[1] = t;
        t = score[0];
        score[0] = score[1];
        score[1] = t;
    }
    sv->exits[d][0] = (int8_t)(score[0] < H_INF ? cand[0] : -1);
    sv->exits[d][1] = (int8_t)(nc == 2 && score[1] < H_INF ? cand[1] : -1);
    sv->opt[d] = 0;
}

/* Runs the branch and bound; best_len = -1 if no chain exists. */
static void search(pipes_solver *sv)
{
    sv->best_len = -1;
    sv->best_cost = H_INF;
    sv->nodes = 0;
    sv->exact = true;
    int start = sv->pz->start_row * sv->w;
    int lower = sv->hcost[start * 4 + SIDE_W];
    if (lower >= H_INF)
        return;
    int end = sv->pz->end_row * sv->w + sv->w - 1;
    memset(sv->used, 0, (size_t)sv->n);
    int d = 0;
    sv->cell[0] = (int16_t)start;
    sv->entry[0] = SIDE_W;
    sv->gcost[0] = 0;
    sv->used[start] = 1;
    frame_options(sv, 0);
    while (d >= 0) {
        if (sv->best_cost <= lower)
            break; /* met the bound: nothing cheaper exists */
        if (++sv->nodes > sv->budget) {
            sv->exact = false;
            break;
        }
        int i = sv->cell[d], a = sv->entry[d];
        int b = sv->opt[d] < 2 ? sv->exits[d][sv->opt[d]] : -1;
        if (b < 0) {
            sv->used[i] = 0;
            d--;
            continue;
        }
        sv->opt[d]++;
        int g = sv->gcost[d] + join_cost(sv, i, a, b);
        int j = neighbour(sv, i, b);
        if (j < 0) {
            if (i == end && b == SIDE_E && g < sv->best_cost) {
                sv->best_cost = g;
                sv->best_len = d + 1;
                for (int k = 0; k < d; k++) {
                    sv->best_cell[k] = sv->cell[k];
                    sv->best_exit[k] = sv->exits[k][sv->opt[k] - 1];
                }
                sv->best_cell[d] = (int16_t)i;
                sv->best_exit[d] = (int8_t)b;
            }
            continue;
        }
        int e = (b + 2) & 3;
        if (sv->used[j] || g + sv->hcost[j * 4 + e] >= sv->best_cost)
            continue;
        d++;
        sv->cell[d] = (int16_t)j;
        sv->entry[d] = (int8_t)e;
        sv->gcost[d] = (int16_t)g;
        sv->used[j] = 1;
        frame_options(sv, d);
    }
}

/* Solves pz from state st (NULL: the start) with a solver made for its
 * tile count. */
void pipes_solver_run(pipes_solver *sv, const pz_puzzle *pz, const pz_state *st)
{
    sv->pz = pz;
    sv->w = pz->params.w;
    sv->h = pz->params.h;
    for (int i = 0; i < pz->n; i++)
        sv->cur[i] = (uint8_t)cur_mask(pz, st, i);
    bound(sv);
    search(sv);
}

pipes_solver *pipes_solve_board(const pz_puzzle *pz, const pz_state *st)
{
    pipes_solver *sv = pipes_solver_create(pz->n);
    pipes_solver_run(sv, pz, st);
    return sv;
}

/* Writes the rotations of the best chain; returns their count. */
static int chain_moves(const pipes_solver *sv, pz_move *out, int max)
{
    int len = 0;
    for (int k = 0; k < sv->best_len; k++) {
        int i = sv->best_cell[k];
        int a = k == 0 ? SIDE_W : (sv->best_exit[k - 1] + 2) & 3;
        int want = (1 << a) | (1 << sv->best_exit[k]);
        int m = sv->cur[i], cw = 0;
        while (rot_cw(m, cw) != want)
            cw++;
        int type = PZ_MOVE_ROTATE_CW, count = cw;
        if (is_straight(m))
            count = cw ? 1 : 0;
        else if (cw == 3) {
            type = PZ_MOVE_ROTATE_CCW;
            count = 1;
        }
        for (int r = 0; r < count; r++, len++)
            if (out && len < max)
                out[len] =
                    (pz_move){.type = (uint8_t)type, .x = (uint16_t)(i % sv->w), .y = (uint16_t)(i / sv->w)};
    }
    return len;
}

int pipes_solve(const pz_puzzle *pz, const pz_state *st, pz_move *out, int max)
{
    if (st && st->solved)
        return 0;
    pipes_solver *sv = pipes_solve_board(pz, st);
    int len = sv->best_len < 0 ? -1 : chain_moves(sv, out, max);
    free(sv);
    return len;
}

static void fill_grade(const pz_puzzle *pz, const pipes_solver *sv, pz_grade *out)
{
    memset(out, 0, sizeof *out);
    out->solutions = -1;
    if (sv->best_len < 0) {
        out->band = -1;
        out->par = -1;
        out->measure = -1;
        snprintf(out->summary, sizeof out->summary, "no chain joins Start to End");
        return;
    }
    out->par = sv->best_cost;
    out->measure = sv->best_cost;
    out->band = pipes_band_of(pz->params.w, sv->best_cost);
    snprintf(out->summary, sizeof out->summary, "par %d rotations, chain of %d tiles%s", sv->best_cost,
             sv->best_len, sv->exact ? "" : " (search budget hit: par may be high)");
}

void pipes_grade(const pz_puzzle *pz, pz_grade *out)
{
    pz_state *st = pipes_new_state(pz);
    if (st->solved) {
        memset(out, 0, sizeof *out);
        out->solutions = -1;
        out->band = -1;
        snprintf(out->summary, sizeof out->summary, "par 0: already solved");
        pipes_free_state(st);
        return;
    }
    pipes_free_state(st);
    pipes_solver *sv = pipes_solve_board(pz, NULL);
    fill_grade(pz, sv, out);
    free(sv);
}

void pipes_progress(const pz_puzzle *pz, const pz_state *st, pz_progress *out)
{
    (void)pz;
    memset(out, 0, sizeof *out);
    out->x = -1;
    out->y = -1;
    out->value = st->lit_count;
    out->solved = st->solved;
}
