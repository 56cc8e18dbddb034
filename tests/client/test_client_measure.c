/* test_client_measure.c: the race measure players see comes from the board only: a sum player on End with the
 * wrong sum is behind, maze and ice count cells from the exit, not the solver's distance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cl_measure.h"
#include "maze.h"
#include "sum.h"

static pz_puzzle *make(const char *id)
{
    char err[160];
    pz_puzzle *pz = pz_from_id(id, err, sizeof err);
    assert_non_null(pz);
    return pz;
}

static pz_move step(int dir)
{
    return (pz_move){.type = PZ_MOVE_STEP, .dir = (uint8_t)dir};
}

/* sum:5x4:medium#216141318 (issue 21): Start (0,2) is -6, End (1,3) is -5,
 * the goal -9. Down to -2 then right onto End sums -13: on End, wrong. */
static void test_sum_wrong_sum_on_end_is_behind(void **ctx)
{
    (void)ctx;
    pz_puzzle *pz = make("sum:5x4:medium#216141318");
    const pz_kind *k = pz_kind_of(pz);
    int sx, sy, ex, ey;
    sum_start(pz, &sx, &sy);
    sum_end(pz, &ex, &ey);
    assert_int_equal(sx, 0);
    assert_int_equal(sy, 2);
    assert_int_equal(ex, 1);
    assert_int_equal(ey, 3);
    pz_state *st = k->new_state(pz);
    assert_int_equal(cl_measure_remaining(pz, st), 2);
    assert_null(k->execute_move(pz, st, step(PZ_DOWN), st));
    /* next to End, but -6 - 2 - 5 misses -9: a detour at least */
    assert_int_equal(cl_measure_remaining(pz, st), 3);
    assert_null(k->execute_move(pz, st, step(PZ_RIGHT), st));
    assert_false(k->is_solved(pz, st));
    assert_int_equal(sum_running(st), -13);
    int on_end_wrong = cl_measure_remaining(pz, st);
    assert_int_equal(on_end_wrong, 4);
    /* The solver's path, one step short of End with the right sum: ahead
     * of the player standing on End with the wrong one. */
    pz_move sol[64];
    int n = k->solve(pz, NULL, sol, 64);
    assert_true(n >= 2);
    pz_state *good = k->new_state(pz);
    for (int i = 0; i < n - 1; i++)
        assert_null(k->execute_move(pz, good, sol[i], good));
    assert_int_equal(cl_measure_remaining(pz, good), 1);
    assert_true(cl_measure_remaining(pz, good) < on_end_wrong);
    assert_null(k->execute_move(pz, good, sol[n - 1], good));
    assert_int_equal(cl_measure_remaining(pz, good), 0);
    k->free_state(good);
    k->free_state(st);
    k->free_puzzle(pz);
}

/* In a maze the shown figure is the cells to the exit along rows and
 * columns wherever the player stands: a step into a dead end never makes it
 * jump the way the solver's distance would. */
static void test_maze_shows_no_solver_distance(void **ctx)
{
    (void)ctx;
    int differs = 0;
    for (int seed = 1; seed <= 10; seed++) {
        char id[48];
        snprintf(id, sizeof id, "maze:15x11:medium#%d", seed);
        pz_puzzle *pz = make(id);
        const pz_kind *k = pz_kind_of(pz);
        const pz_params *p = pz_params_of(pz);
        pz_move sol[1024];
        int n = k->solve(pz, NULL, sol, 1024);
        pz_state *st = k->new_state(pz);
        for (int i = 0; i < n; i++) {
            int x, y;
            maze_pos(st, &x, &y);
            int shown = cl_measure_remaining(pz, st);
            assert_int_equal(shown, (p->w - 1 - x) + y);
            differs += shown != n - i; /* the solver's distance from here */
            assert_null(k->execute_move(pz, st, sol[i], st));
        }
        assert_int_equal(cl_measure_remaining(pz, st), 0);
        k->free_state(st);
        k->free_puzzle(pz);
    }
    assert_true(differs > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sum_wrong_sum_on_end_is_behind),
        cmocka_unit_test(test_maze_shows_no_solver_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
