/* bot.c: the computer player: follows the kind's solution at a level's human pace (or a fixed one), with
 * wrong moves it corrects. */
#include "bot.h"

#include <stdlib.h>
#include <string.h>

#include "bot_model.h"
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
    /* A level's person (NULL: the fixed pace above): the kind's difficulty
     * factor and follow-on chance, the move before (pipes: which tile, maze:
     * where from), and whether the next move and the last were wrong. */
    const bot_model *model;
    double diff, follow, think_scale;
    pz_move prev;
    bool next_wrong, last_wrong;
    uint64_t thought_ms; /* model: time spent reading and thinking, for tests */
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

bot *bot_create_level(const pz_puzzle *pz, int level, uint64_t seed, const char **err)
{
    const bot_model *m = bot_model_for(level);
    if (!m) {
        if (err)
            *err = "no such computer level";
        return NULL;
    }
    bot *b = bot_create(pz, 1, 0.0, seed, err);
    if (!b)
        return NULL;
    b->model = m;
    b->diff = bot_model_difficulty(pz);
    b->think_scale = bot_model_think_scale(pz);
    b->follow = bot_model_follow(pz);
    return b;
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

/* A draw of 0.5..1.5 (mean 1): people are not metronomes. */
static double jitter(bot *b)
{
    return 0.5 + rng_below(&b->rng, 1001) / 1000.0;
}

/* The model's time before the next move, and whether it will be wrong:
 * a key press (quicker when the same key again); pointing at another tile (pipes); thinking at a decision,
 * scaled by the kind's difficulty; after a run of wrong moves, the moment
 * it takes to see it. */
static uint32_t model_delay(bot *b)
{
    const bot_model *m = b->model;
    pz_move planned = b->plan_pos < b->plan_len ? b->plan[b->plan_pos] : (pz_move){0};
    bool decision = bot_model_is_decision(b->pz, b->st, planned, b->prev);
    double p = 0;
    if (b->last_wrong)
        p = b->follow;
    else if (decision)
        p = m->mistake * b->diff > 0.6 ? 0.6 : m->mistake * b->diff;
    b->next_wrong = p > 0 && rng_below(&b->rng, PPM) < (uint32_t)(p * PPM);
    /* Pressing the key just pressed again, with nothing to decide (down
     * a corridor, undoing a trace), goes at a tapping rate. */
    bool again = !decision && planned.type == b->prev.type && planned.dir == b->prev.dir;
    double ms = m->motor_ms * (again ? 0.6 : 1.0) * jitter(b), think = 0;
    if (planned.type == PZ_MOVE_ROTATE_CW || planned.type == PZ_MOVE_ROTATE_CCW)
        if (b->prev.type == 0 || b->prev.x != planned.x || b->prev.y != planned.y)
            ms += m->point_ms * jitter(b);
    if (decision)
        think += m->think_ms * b->think_scale * b->diff * jitter(b);
    if (b->last_wrong && !b->next_wrong)
        think += m->notice_ms * jitter(b);
    b->thought_ms += (uint64_t)think;
    ms += think;
    return ms < 1 ? 1 : ms > 600000 ? 600000 : (uint32_t)ms;
}

static uint32_t next_delay(bot *b)
{
    return b->model ? model_delay(b) : b->pace;
}

void bot_start(bot *b, uint64_t start_ms)
{
    b->started = true;
    b->due = start_ms;
    if (b->model) {
        const bot_model *m = b->model;
        const pz_params *p = pz_params_of(b->pz);
        uint64_t read = m->read_ms + (uint64_t)p->w * (uint64_t)p->h * m->read_per_cell_us / 1000u;
        if (read > m->read_cap_ms)
            read = m->read_cap_ms;
        read = (uint64_t)(read * b->think_scale * jitter(b));
        b->thought_ms += read;
        b->due += read;
    }
    b->due += next_delay(b);
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
    bool played = false,
         wrong = b->model ? b->next_wrong : b->mistake_ppm && rng_below(&b->rng, PPM) < b->mistake_ppm;
    if (wrong && play_mistake(b, out)) {
        b->mistakes++;
        played = true;
    } else {
        wrong = false;
    }
    if (!played)
        played = play_plan(b, out);
    if (!played)
        return false;
    b->moves++;
    b->prev = *out;
    b->last_wrong = wrong;
    /* A late call does not bunch moves up: the next is one delay after. */
    uint32_t delay = next_delay(b);
    b->due += delay;
    if (b->due <= now_ms)
        b->due = now_ms + delay;
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
uint64_t bot_thought_ms(const bot *b)
{
    return b->thought_ms;
}
