/* bot_model.c: the levels' person (reading, key presses, thinking, mistakes) and each kind's difficulty
 * factor. */
#include "bot_model.h"

#include <math.h>
#include <strings.h>

#include "maze.h"
#include "sum.h"

/* Operator times from the Keystroke-Level Model (Card, Moran and Newell,
 * 1980): a key press K = 0.28 s for an average non-typist, pointing with a
 * mouse P = 1.1 s, a mental act M = 1.35 s. The first-time reference uses
 * them as they are; the levels are set around it (docs/bot.md has the
 * reasoning and the bench's figures). */
static const bot_model models[BOT_LEVEL_COUNT + 1] = {
    [BOT_BEGINNER] = {"beginner", 6000, 40000, 16000, 420, 1400, 2600, 2500, 0.30},
    [BOT_CASUAL] = {"casual", 4000, 25000, 10000, 320, 1100, 1700, 1800, 0.18},
    [BOT_STRONG] = {"strong", 2500, 12000, 6000, 230, 800, 1000, 1200, 0.09},
    [BOT_EXPERT] = {"expert", 1500, 6000, 4000, 160, 500, 600, 800, 0.04},
    [BOT_FIRST_TIMER] = {"first-time", 4000, 27000, 12000, 280, 1100, 1350, 1350, 0.20},
};

const bot_model *bot_model_for(int level)
{
    return level >= 0 && level <= BOT_LEVEL_COUNT ? &models[level] : NULL;
}

const char *bot_level_name(int level)
{
    const bot_model *m = bot_model_for(level);
    return m ? m->name : "?";
}

int bot_level_by_name(const char *name)
{
    for (int i = 0; name && i < BOT_LEVEL_COUNT; i++)
        if (strcasecmp(name, models[i].name) == 0)
            return i;
    return -1;
}

/* Each kind's factor from its own measure (docs/puzzles.md), 1 at an
 * average medium board of the default size:
 *   sum: fewer valid paths mean more routes to try before one adds up
 *        (big boards: the routes a shortest-first person tries);
 *   maze: the share of dead ends a walker meets;
 *   ice: the fewest slides (BFS), each needing a deeper look ahead;
 *   pipes: the par (rotations); every tile turned is a decision of its
 *        own, so the factor grows slowly with how far the chain runs. */
double bot_model_difficulty(const pz_puzzle *pz)
{
    pz_grade g;
    const pz_kind *k = pz_kind_of(pz);
    if (!k || !k->grade)
        return 1.0;
    k->grade(pz, &g);
    double d = 1.0;
    switch (pz_params_of(pz)->kind) {
    case PZ_SUM:
        if (g.solutions > 0)
            d = 0.45 + 2.0 / sqrt((double)g.solutions);
        else if (g.measure > 0)
            d = 0.6 + log10(1.0 + (double)g.measure) / 2.0;
        break;
    case PZ_MAZE:
        d = 0.5 + (double)g.measure / 600.0; /* per mille */
        break;
    case PZ_ICE:
        d = 0.4 + (double)g.measure / 6.0;
        break;
    case PZ_PIPES:
        d = 0.7 + (g.par > 0 ? (double)g.par : 0.0) / 30.0;
        break;
    default:
        break;
    }
    return d < 0.5 ? 0.5 : d > 4.0 ? 4.0 : d;
}

double bot_model_follow(const pz_puzzle *pz)
{
    static const double follow[PZ_KIND_COUNT] = {
        [PZ_SUM] = 0.6, [PZ_MAZE] = 0.6, [PZ_ICE] = 0.3, [PZ_PIPES] = 0.0};
    int kind = pz_params_of(pz)->kind;
    return kind >= 0 && kind < PZ_KIND_COUNT ? follow[kind] : 0.0;
}

/* A maze junction is a glance along the corridors, not a sum to work out
 * or a slide to plan: a third of a decision elsewhere; reading a maze
 * before the first step is the same kind of glance. */
double bot_model_think_scale(const pz_puzzle *pz)
{
    return pz_params_of(pz)->kind == PZ_MAZE ? 0.3 : 1.0;
}

bool bot_model_is_decision(const pz_puzzle *pz, const pz_state *st, pz_move mv, pz_move prev)
{
    switch (pz_params_of(pz)->kind) {
    case PZ_MAZE: {
        int x, y, ways = 0;
        maze_pos(st, &x, &y);
        for (int d = 0; d < PZ_DIR_COUNT; d++)
            if (maze_open(pz, x, y, d) && !(prev.type == PZ_MOVE_STEP && d == pz_dir_opposite(prev.dir)))
                ways++;
        return ways >= 2;
    }
    case PZ_SUM: {
        int n = sum_path_len(st);
        if (n < 2 || mv.type != PZ_MOVE_STEP)
            return true;
        int hx, hy, bx, by;
        sum_path_cell(st, n - 1, &hx, &hy);
        sum_path_cell(st, n - 2, &bx, &by);
        return !(hx + pz_dir_dx(mv.dir) == bx && hy + pz_dir_dy(mv.dir) == by);
    }
    case PZ_PIPES:
        return prev.type == 0 || prev.x != mv.x || prev.y != mv.y;
    default:
        return true;
    }
}
