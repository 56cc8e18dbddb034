/* test_client_resync.c: the race model after a resync (a spectator's catch-up, a resume): progress
 * the resync already holds is not applied twice (no second marker), and a dropped player's board is
 * marked while they are gone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cl_race.h"
#include "maze.h"

/* A watched backend: state() hands out the boards it holds. */
typedef struct watched {
    cl_backend base;
    pz_state *board[2];
} watched;
static const pz_state *w_state(cl_backend *b, int s)
{
    return ((watched *)b)->board[s & 1];
}
static const cl_backend_ops watched_ops = {.state = w_state};

static void test_progress_after_resync_is_not_applied_twice(void **ctx)
{
    (void)ctx;
    char err[200];
    pz_puzzle *pz = pz_from_id("maze:9x7:easy#5", err, sizeof err);
    assert_non_null(pz);
    const pz_kind *k = pz_kind_of(pz);
    pz_move sol[256];
    int n = k->solve(pz, NULL, sol, 256);
    assert_true(n >= 6);
    /* The backend's boards already hold 4 moves of player 0 when the
     * scene resyncs, though the events for moves 3 and 4 come after. */
    watched w = {.base = {.ops = &watched_ops, .my_slot = -1, .watching = true}};
    w.board[0] = k->new_state(pz);
    w.board[1] = k->new_state(pz);
    for (int i = 0; i < 4; i++)
        assert_null(k->execute_move(pz, w.board[0], sol[i], w.board[0]));
    w.base.moves[0] = 4;
    cl_race r;
    memset(&r, 0, sizeof r);
    cl_race_reset(&r, pz, false, false);
    r.racing = true;
    cl_race_resync(&r, &w.base);
    int x, y, ex, ey;
    maze_pos(w.board[0], &ex, &ey);
    for (uint32_t m = 3; m <= 4; m++) {
        cl_event pr = {.type = CL_BE_PROGRESS, .slot = 0, .move = sol[m - 1], .moves = m};
        cl_race_event(&r, &pr, 100);
        assert_false(r.p[0].ghost_lost);
        assert_int_equal(r.p[0].moves, 4);
        maze_pos(r.p[0].shown, &x, &y);
        assert_int_equal(x, ex);
        assert_int_equal(y, ey);
    }
    /* The next move is news: applied. */
    cl_event pr = {.type = CL_BE_PROGRESS, .slot = 0, .move = sol[4], .moves = 5};
    cl_race_event(&r, &pr, 110);
    assert_false(r.p[0].ghost_lost);
    assert_int_equal(r.p[0].moves, 5);
    assert_null(k->execute_move(pz, w.board[0], sol[4], w.board[0]));
    maze_pos(w.board[0], &ex, &ey);
    maze_pos(r.p[0].shown, &x, &y);
    assert_int_equal(x, ex);
    assert_int_equal(y, ey);
    /* A gap still falls back to the reported position. */
    pr.moves = 9;
    cl_race_event(&r, &pr, 120);
    assert_true(r.p[0].ghost_lost);

    /* Player 1 drops and comes back: marked only while gone. */
    cl_event drop = {.type = CL_BE_OPP_DROPPED, .slot = 1};
    cl_race_event(&r, &drop, 130);
    assert_true(r.p[1].away);
    assert_false(r.p[0].away);
    drop.type = CL_BE_OPP_BACK;
    cl_race_event(&r, &drop, 140);
    assert_false(r.p[1].away);
    cl_race_free(&r);
    k->free_state(w.board[0]);
    k->free_state(w.board[1]);
    k->free_puzzle(pz);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_progress_after_resync_is_not_applied_twice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
