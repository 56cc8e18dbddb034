/* bot.c: the computer player: follows the kind's solution at a pace, with occasional wrong moves. */
#include "bot.h"

#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "util.h"

/* Random candidates tried for one wrong move before playing the right one. */
#define MISTAKE_TRIES 8
#define PPM 1000000u

struct bot {
    const pz_puzzle *pz;
    const pz_kind *k;
    pz_state *st, *scratch;
    pz_move *plan;
    int plan_len, plan_pos, plan_cap;
    uint32_t pace;
    uint32_t mistake_ppm; /* mistakes per million moves */
    rng_t rng;
    bool started;
    uint64_t due;
    uint32_t moves, mistakes;
};

/* Plans from the bot's state. A state the kind cannot solve (which a
 * mistake never leads to) leaves an empty plan: the bot then stops. */
static void replan(bot *b)
{
    b->plan_pos = 0;
    b->plan_len = 0;
    int n = b->k->solve(b->pz, b->st, b->plan, b->plan_cap);
    if (n > b->plan_cap) {
        b->plan_cap = n;
        b->plan = mr_realloc(b->plan, (size_t)n, sizeof *b->plan);
        n = b->k->solve(b->pz, b->st, b->plan, b->plan_cap);
    }
    b->plan_len = n > 0 && n <= b->plan_cap ? n : 0;
}

bot *bot_create(const pz_puzzle *pz, uint32_t ms_per_move, double mistake_rate, uint64_t seed,
                const char **err)
{
    return bot_create_with_kind(pz ? pz_kind_of(pz) : NULL, pz, ms_per_move, mistake_rate, seed, err);
}

bot *bot_create_with_kind(const pz_kind *k, const pz_puzzle *pz, uint32_t ms_per_move, double mistake_rate,
                          uint64_t seed, const char **err)
{
    if (!k || !pz || !k->solve || !k->new_state || !k->copy_state || !k->free_state || !k->execute_move ||
        !k->is_solved) {
        if (err)
            *err = "no puzzle the bot can play";
        return NULL;
    }
    bot *b = mr_alloc(1, sizeof *b);
    b->pz = pz;
    b->k = k;
    b->st = k->new_state(pz);
    b->scratch = k->new_state(pz);
    b->pace = ms_per_move ? ms_per_move : 1;
    if (mistake_rate > 0) /* false for NaN too */
        b->mistake_ppm = mistake_rate >= 1 ? PPM : (uint32_t)(mistake_rate * PPM + 0.5);
    rng_seed(&b->rng, seed);
    b->plan_cap = 64;
    b->plan = mr_alloc((size_t)b->plan_cap, sizeof *b->plan);
    replan(b);
    if (b->plan_len == 0 && !k->is_solved(pz, b->st)) {
        bot_destroy(b);
        if (err)
            *err = "the puzzle has no solution the bot can find";
        return NULL;
    }
    return b;
}

void bot_destroy(bot *b)
{
    if (!b)
        return;
    b->k->free_state(b->st);
    b->k->free_state(b->scratch);
    free(b->plan);
    free(b);
}

void bot_start(bot *b, uint64_t start_ms)
{
    b->started = true;
    b->due = start_ms + b->pace;
}

static bool same_move(pz_move a, pz_move b)
{
    return a.type == b.type && a.dir == b.dir && a.x == b.x && a.y == b.y;
}

static pz_move random_move(bot *b)
{
    pz_move mv = {0};
    const pz_params *p = pz_params_of(b->pz);
    if (p->kind == PZ_PIPES) {
        mv.type = rng_below(&b->rng, 2) ? PZ_MOVE_ROTATE_CW : PZ_MOVE_ROTATE_CCW;
        mv.x = (uint16_t)rng_below(&b->rng, (uint32_t)p->w);
        mv.y = (uint16_t)rng_below(&b->rng, (uint32_t)p->h);
    } else {
        mv.type = PZ_MOVE_STEP;
        mv.dir = (uint8_t)rng_below(&b->rng, PZ_DIR_COUNT);
    }
    return mv;
}

/* A legal move off the plan that leaves the puzzle solvable, applied to the
 * bot's state; false if none turned up in a few tries. */
static bool play_mistake(bot *b, pz_move *out)
{
    pz_move planned = b->plan_pos < b->plan_len ? b->plan[b->plan_pos] : (pz_move){0};
    for (int i = 0; i < MISTAKE_TRIES; i++) {
        pz_move mv = random_move(b);
        if (same_move(mv, planned))
            continue;
        if (b->k->execute_move(b->pz, b->st, mv, b->scratch))
            continue;
        if (b->k->is_solved(b->pz, b->scratch))
            continue; /* a lucky "mistake" that wins is not a mistake */
        pz_move dummy;
        if (b->k->solve(b->pz, b->scratch, &dummy, 0) < 0)
            continue;
        b->k->copy_state(b->st, b->scratch);
        replan(b);
        *out = mv;
        return true;
    }
    return false;
}

static bool play_plan(bot *b, pz_move *out)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        if (b->plan_pos >= b->plan_len)
            return false;
        pz_move mv = b->plan[b->plan_pos++];
        if (!b->k->execute_move(b->pz, b->st, mv, b->st)) {
            *out = mv;
            return true;
        }
        replan(b); /* the plan no longer fits the state */
    }
    return false;
}

bool bot_next_move(bot *b, uint64_t now_ms, pz_move *out)
{
    if (!b || !b->started || now_ms < b->due || b->k->is_solved(b->pz, b->st))
        return false;
    bool played = false;
    if (b->mistake_ppm && rng_below(&b->rng, PPM) < b->mistake_ppm && play_mistake(b, out)) {
        b->mistakes++;
        played = true;
    }
    if (!played)
        played = play_plan(b, out);
    if (!played)
        return false;
    b->moves++;
    /* A late call does not bunch moves up: the next is one pace after. */
    b->due += b->pace;
    if (b->due <= now_ms)
        b->due = now_ms + b->pace;
    return true;
}

uint64_t bot_next_due(const bot *b)
{
    if (!b || !b->started || b->k->is_solved(b->pz, b->st))
        return UINT64_MAX;
    return b->due;
}

void bot_sync(bot *b, const pz_state *st)
{
    b->k->copy_state(b->st, st);
    replan(b);
}

const pz_state *bot_state(const bot *b)
{
    return b->st;
}
bool bot_solved(const bot *b)
{
    return b->k->is_solved(b->pz, b->st);
}
uint32_t bot_moves(const bot *b)
{
    return b->moves;
}
uint32_t bot_mistakes(const bot *b)
{
    return b->mistakes;
}
