/* cl_measure.c: the race measure players see, from what the board shows only (cl_measure.h). */
#include "cl_measure.h"

#include "ice.h"
#include "maze.h"
#include "sum.h"

static int iabs(int v)
{
    return v < 0 ? -v : v;
}

/* A path onto End that misses the target must leave by another way: the
 * grid has no triangles, so from a neighbour of End the shortest other way
 * in goes round a square (3 steps); from End itself one undo comes first. */
static int sum_remaining(const pz_puzzle *pz, const pz_state *st)
{
    int hx, hy, ex, ey;
    sum_path_cell(st, sum_path_len(st) - 1, &hx, &hy);
    sum_end(pz, &ex, &ey);
    int d = iabs(hx - ex) + iabs(hy - ey);
    if (d == 0)
        return sum_running(st) == sum_target(pz) ? 0 : 4;
    if (d == 1 && sum_running(st) + sum_value(pz, ex, ey) != sum_target(pz))
        return 3;
    return d;
}

int cl_measure_remaining(const pz_puzzle *pz, const pz_state *st)
{
    const pz_kind *k = pz_kind_of(pz);
    const pz_params *p = pz_params_of(pz);
    if (!k || !st)
        return -1;
    if (k->is_solved(pz, st))
        return 0;
    int x, y, ex = p->w - 1, ey = 0;
    switch (p->kind) {
    case PZ_MAZE:
        maze_pos(st, &x, &y);
        return iabs(x - ex) + iabs(y - ey);
    case PZ_ICE:
        ice_pos(st, &x, &y);
        ice_exit(pz, &ex, &ey);
        return iabs(x - ex) + iabs(y - ey);
    case PZ_SUM:
        return sum_remaining(pz, st);
    case PZ_PIPES: {
        pz_progress pr;
        k->progress(pz, st, &pr);
        return p->w * p->h - pr.value;
    }
    default:
        return -1;
    }
}
