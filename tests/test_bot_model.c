/* test_bot_model.c: the computer's levels: deterministic by seed, slower level by level, beginner slower than
 * the first-time reference, decisions per kind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bot.h"
#include "bot_model.h"
#include "maze.h"
#include "sum.h"

enum { SEEDS = 41, MAX_MOVES = 20000 };

/* Plays a level bot to the end on a simulated clock; the solve time in ms
 * (UINT64_MAX if it did not solve), with its moves and due times written
 * to log (if not NULL, up to cap). */
static uint64_t play(const pz_puzzle *pz, int level, uint64_t seed, pz_move *log, uint64_t *at, int cap,
                     int *n)
{
    const char *err = NULL;
    bot *b = bot_create_level(pz, level, seed, &err);
    assert_non_null(b);
    bot_start(b, 1000);
    uint64_t t = 0;
    int moves = 0;
    pz_move mv;
    while (moves < MAX_MOVES && !bot_solved(b)) {
        uint64_t due = bot_next_due(b);
        if (due == UINT64_MAX || !bot_next_move(b, due, &mv))
            break;
        if (log && moves < cap) {
            log[moves] = mv;
            at[moves] = due;
        }
        moves++;
        t = due - 1000;
    }
    bool ok = bot_solved(b);
    bot_destroy(b);
    if (n)
        *n = moves;
    return ok ? t : UINT64_MAX;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Median solve time of level on SEEDS boards of kind at its default size. */
static uint64_t median(int kind, int level)
{
    const pz_kind *k = pz_kind_by_id(kind);
    pz_params p = {kind, k->default_w, k->default_h, PZ_MEDIUM};
    uint64_t t[SEEDS];
    for (int s = 0; s < SEEDS; s++) {
        const char *err = NULL;
        pz_puzzle *pz = k->generate(&p, (uint64_t)s + 1, &err);
        assert_non_null(pz);
        t[s] = play(pz, level, 77 + (uint64_t)s, NULL, NULL, 0, NULL);
        assert_true(t[s] != UINT64_MAX);
        k->free_puzzle(pz);
    }
    qsort(t, SEEDS, sizeof t[0], cmp_u64);
    return t[SEEDS / 2];
}

static void test_names(void **ctx)
{
    (void)ctx;
    for (int l = 0; l < BOT_LEVEL_COUNT; l++)
        assert_int_equal(bot_level_by_name(bot_level_name(l)), l);
    assert_int_equal(bot_level_by_name("EXPERT"), BOT_EXPERT);
    assert_int_equal(bot_level_by_name("first-time"), -1); /* the reference is never offered */
    assert_int_equal(bot_level_by_name("quick"), -1);
    assert_int_equal(bot_level_by_name(NULL), -1);
    assert_null(bot_model_for(-1));
    assert_null(bot_model_for(BOT_LEVEL_COUNT + 1));
    const char *err = NULL;
    pz_puzzle *pz = pz_from_id("maze:7x5:easy#1", (char[64]){0}, 64);
    assert_non_null(pz);
    assert_null(bot_create_level(pz, 9, 1, &err));
    assert_non_null(err);
    pz_kind_of(pz)->free_puzzle(pz);
}

/* Same puzzle, level and seed: the same moves at the same times; another
 * seed: a different race. */
static void test_deterministic_by_seed(void **ctx)
{
    (void)ctx;
    static const char *const ids[] = {"sum:5x4:medium#7", "maze:21x15:medium#7", "ice:25x20:medium#7",
                                      "pipes:6x4:medium#7"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        char err[128];
        pz_puzzle *pz = pz_from_id(ids[i], err, sizeof err);
        assert_non_null(pz);
        static pz_move a[512], b[512];
        static uint64_t ta[512], tb[512];
        int na = 0, nb = 0, nc = 0;
        uint64_t t1 = play(pz, BOT_CASUAL, 5, a, ta, 512, &na);
        uint64_t t2 = play(pz, BOT_CASUAL, 5, b, tb, 512, &nb);
        assert_int_equal(na, nb);
        assert_true(t1 == t2);
        for (int m = 0; m < na && m < 512; m++) {
            assert_memory_equal(&a[m], &b[m], sizeof a[m]);
            assert_true(ta[m] == tb[m]);
        }
        uint64_t t3 = play(pz, BOT_CASUAL, 6, NULL, NULL, 0, &nc);
        assert_true(t3 != t1);
        pz_kind_of(pz)->free_puzzle(pz);
    }
}

/* Each level is slower than the next on every kind (medians over the same
 * boards), and beginner is slower than the first-time reference person:
 * a new player can beat it. Expert still takes a person's time: never
 * under a key press per move plus a look at the board. */
static void test_levels_monotone(void **ctx)
{
    (void)ctx;
    for (int kind = 0; kind < PZ_KIND_COUNT; kind++) {
        uint64_t m[BOT_LEVEL_COUNT + 1];
        for (int l = 0; l <= BOT_LEVEL_COUNT; l++)
            m[l] = median(kind, l);
        fprintf(stderr, "%s: first-time %.1f s, beginner %.1f, casual %.1f, strong %.1f, expert %.1f\n",
                pz_kind_by_id(kind)->name, m[BOT_FIRST_TIMER] / 1e3, m[0] / 1e3, m[1] / 1e3, m[2] / 1e3,
                m[3] / 1e3);
        for (int l = 1; l < BOT_LEVEL_COUNT; l++)
            assert_true(m[l] < m[l - 1]);
        assert_true(m[BOT_BEGINNER] > m[BOT_FIRST_TIMER] * 3 / 2);
        assert_true(m[BOT_EXPERT] > 4000);
    }
}

/* The model thinks where a person would: at a maze junction, not in a
 * corridor; not on a sum undo; on a pipe tile only when it is new. */
static void test_decisions(void **ctx)
{
    (void)ctx;
    char err[128];
    pz_puzzle *pz = pz_from_id("maze:21x15:medium#3", err, sizeof err);
    assert_non_null(pz);
    const pz_kind *k = pz_kind_of(pz);
    pz_state *st = k->new_state(pz);
    pz_move sol[2048];
    int n = k->solve(pz, NULL, sol, 2048);
    assert_true(n > 0);
    pz_move prev = {0};
    int decisions = 0, corridor = 0;
    for (int i = 0; i < n; i++) {
        int x, y, ways = 0;
        maze_pos(st, &x, &y);
        for (int d = 0; d < PZ_DIR_COUNT; d++)
            ways += maze_open(pz, x, y, d);
        bool dec = bot_model_is_decision(pz, st, sol[i], prev);
        if (i > 0 && ways == 2)
            assert_false(dec); /* a corridor cell: one way on */
        decisions += dec;
        corridor += !dec;
        assert_null(k->execute_move(pz, st, sol[i], st));
        prev = sol[i];
    }
    assert_true(decisions > 0 && corridor > 0);
    k->free_state(st);
    k->free_puzzle(pz);

    pz = pz_from_id("sum:5x4:medium#3", err, sizeof err);
    assert_non_null(pz);
    k = pz_kind_of(pz);
    st = k->new_state(pz);
    n = k->solve(pz, NULL, sol, 2048);
    assert_true(n >= 2);
    assert_true(bot_model_is_decision(pz, st, sol[0], prev));
    assert_null(k->execute_move(pz, st, sol[0], st));
    pz_move back = {.type = PZ_MOVE_STEP, .dir = (uint8_t)pz_dir_opposite(sol[0].dir)};
    assert_false(bot_model_is_decision(pz, st, back, sol[0]));
    k->free_state(st);
    k->free_puzzle(pz);

    pz = pz_from_id("pipes:6x4:medium#3", err, sizeof err);
    assert_non_null(pz);
    st = pz_kind_of(pz)->new_state(pz);
    pz_move r1 = {.type = PZ_MOVE_ROTATE_CW, .x = 1, .y = 1}, r2 = r1;
    assert_true(bot_model_is_decision(pz, st, r1, (pz_move){0}));
    assert_false(bot_model_is_decision(pz, st, r2, r1));
    r2.x = 2;
    assert_true(bot_model_is_decision(pz, st, r2, r1));
    pz_kind_of(pz)->free_state(st);
    pz_kind_of(pz)->free_puzzle(pz);
}

/* Harder boards of a kind make the same person slower: the difficulty
 * factor grows with the kind's own measure. */
static void test_difficulty_follows_measure(void **ctx)
{
    (void)ctx;
    static const char *const kinds[] = {"ice", "pipes", "sum", "maze"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        double sum[PZ_DIFF_COUNT] = {0};
        for (int d = 0; d < PZ_DIFF_COUNT; d += 2)
            for (int s = 1; s <= 20; s++) {
                char id[64], err[128];
                const pz_kind *k = pz_kind_by_name(kinds[i]);
                snprintf(id, sizeof id, "%s:%dx%d:%s#%d", kinds[i], k->default_w, k->default_h,
                         pz_difficulty_name(d), s);
                pz_puzzle *pz = pz_from_id(id, err, sizeof err);
                assert_non_null(pz);
                sum[d] += bot_model_difficulty(pz);
                pz_kind_of(pz)->free_puzzle(pz);
            }
        fprintf(stderr, "%s: difficulty factor easy %.2f, hard %.2f (mean of 20)\n", kinds[i], sum[0] / 20,
                sum[2] / 20);
        assert_true(sum[PZ_HARD] > sum[PZ_EASY]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_deterministic_by_seed),
        cmocka_unit_test(test_levels_monotone),
        cmocka_unit_test(test_decisions),
        cmocka_unit_test(test_difficulty_follows_measure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
