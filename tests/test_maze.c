/* test_maze.c: the maze kind: generation properties, moves, descriptions, text form, catalogue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "maze.h"
#include "maze_impl.h"
#include "rng.h"
#include "util.h"

static const pz_kind *K = &pz_kind_maze;
static const char *const diff_name[PZ_DIFF_COUNT] = {"easy", "medium", "hard"};

/* The test links only the maze kind, not puzzle.c: the first member of every
 * puzzle is its pz_params (puzzle.h), and solutions are at most 3 * cells + 1. */
static const pz_params *params_of(const pz_puzzle *pz)
{
    return (const pz_params *)(const void *)pz;
}
static int max_solution(const pz_puzzle *pz)
{
    return 3 * params_of(pz)->w * params_of(pz)->h + 1;
}

/* Thread CPU time in ms: a loaded machine may deschedule the test, which a
 * wall clock would count against the code under test. */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static pz_params params(int w, int h, int diff)
{
    return (pz_params){.kind = PZ_MAZE, .w = w, .h = h, .diff = diff};
}

static pz_puzzle *gen(int w, int h, int diff, uint64_t seed)
{
    pz_params p = params(w, h, diff);
    const char *err = NULL;
    pz_puzzle *pz = K->generate(&p, seed, &err);
    if (!pz)
        fail_msg("generate %dx%d %s #%llu: %s", w, h, diff_name[diff], (unsigned long long)seed, err);
    return pz;
}

static pz_move step(int dir)
{
    return (pz_move){.type = PZ_MOVE_STEP, .dir = (uint8_t)dir};
}

/* Independent check through the public accessors only: walls agree from both
 * sides, the border is closed, there are exactly cells - 1 passages and every
 * cell is reached from the start: a spanning tree. */
static void check_spanning_tree(const pz_puzzle *pz)
{
    const pz_params *p = params_of(pz);
    int w = p->w, h = p->h;
    long n = (long)w * h, passages = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int d = 0; d < PZ_DIR_COUNT; d++) {
                int nx = x + pz_dir_dx(d), ny = y + pz_dir_dy(d);
                bool open = maze_open(pz, x, y, d);
                if (nx < 0 || ny < 0 || nx >= w || ny >= h) {
                    assert_false(open);
                    continue;
                }
                assert_int_equal(open, maze_open(pz, nx, ny, pz_dir_opposite(d)));
                passages += open;
            }
    assert_int_equal(passages / 2, n - 1);
    char *seen = mr_alloc((size_t)n, 1);
    int *queue = mr_alloc((size_t)n, sizeof *queue);
    long head = 0, tail = 0, reached = 1;
    queue[tail++] = (h - 1) * w;
    seen[(h - 1) * w] = 1;
    while (head < tail) {
        int c = queue[head++], x = c % w, y = c / w;
        for (int d = 0; d < PZ_DIR_COUNT; d++) {
            if (!maze_open(pz, x, y, d))
                continue;
            int nc = (y + pz_dir_dy(d)) * w + x + pz_dir_dx(d);
            if (!seen[nc]) {
                seen[nc] = 1;
                queue[tail++] = nc;
                reached++;
            }
        }
    }
    assert_int_equal(reached, n);
    free(seen);
    free(queue);
}

/* Replays a solution from st; returns the number of moves applied. */
static int replay(const pz_puzzle *pz, pz_state *st, const pz_move *mv, int n)
{
    for (int i = 0; i < n; i++) {
        const char *why = K->execute_move(pz, st, mv[i], st);
        if (why)
            fail_msg("move %d of %d rejected: %s", i, n, why);
    }
    return n;
}

static void check_properties(const pz_puzzle *pz, int diff)
{
    pz_grade g;
    K->grade(pz, &g);
    assert_int_equal(g.band, diff);
    assert_true(g.summary[0] != '\0');

    char *desc = K->encode_desc(pz);
    for (const char *c = desc; *c; c++)
        assert_non_null(strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-", *c));
    const char *err = NULL;
    pz_params p = *params_of(pz);
    pz_puzzle *back = K->decode_desc(&p, desc, &err);
    assert_non_null(back);
    pz_grade gb; /* measured from scratch: checks the generator's (steered) measure */
    K->grade(back, &gb);
    assert_int_equal(gb.measure, g.measure);
    assert_int_equal(gb.band, g.band);
    char *desc2 = K->encode_desc(back);
    assert_string_equal(desc, desc2);
    free(desc2);

    char *text = K->format_text(pz);
    pz_error e = {0};
    pz_puzzle *parsed = K->parse_text(text, strlen(text), &e);
    if (!parsed)
        fail_msg("parse_text(format_text) failed at %d:%d: %s", e.line, e.col, e.msg);
    char *text2 = K->format_text(parsed);
    assert_string_equal(text, text2);
    desc2 = K->encode_desc(parsed);
    assert_string_equal(desc, desc2);
    free(desc2);
    free(text2);
    free(text);

    int max = max_solution(pz);
    pz_move *sol = mr_alloc((size_t)max, sizeof *sol);
    int len = K->solve(pz, NULL, sol, max);
    assert_int_equal(len, g.par);
    assert_true(len > 0);
    pz_state *st = K->new_state(pz);
    assert_false(K->is_solved(pz, st));
    replay(pz, st, sol, len);
    assert_true(K->is_solved(pz, st));
    free(sol);
    K->free_state(st);
    K->free_puzzle(back);
    K->free_puzzle(parsed);
    free(desc);
}

/* The properties of one seed, that the same seed gives the same maze, and
 * every 50th a spanning tree through maze_open alone. */
static void check_seed(int w, int h, int diff, uint64_t seed)
{
    pz_puzzle *pz = gen(w, h, diff, seed);
    check_properties(pz, diff);
    if (seed % 50 == 1)
        check_spanning_tree(pz);
    pz_puzzle *again = gen(w, h, diff, seed);
    char *a = K->encode_desc(pz), *b = K->encode_desc(again);
    assert_string_equal(a, b);
    free(a);
    free(b);
    K->free_puzzle(again);
    K->free_puzzle(pz);
}

static void props_for(int diff)
{
    for (uint64_t seed = 1; seed <= 1000; seed++)
        check_seed(K->default_w, K->default_h, diff, seed);
}

static void test_props_easy(void **ctx)
{
    (void)ctx, props_for(PZ_EASY);
}
static void test_props_medium(void **ctx)
{
    (void)ctx, props_for(PZ_MEDIUM);
}
static void test_props_hard(void **ctx)
{
    (void)ctx, props_for(PZ_HARD);
}

/* Every band at large sizes, where the generator steers (moves dead-end
 * branches) rather than redraws: 1000 seeds per band at 100x100 and 6 per
 * band at the maximum 1000x1000 (about 0.1 s each with the checks), fewer
 * under the sanitizers (MR_SANITIZE: 200 and 2) to keep CI in budget. */
static void test_props_large(void **ctx)
{
    (void)ctx;
#ifdef MR_SANITIZE
    const int n100 = 200, n1000 = 2;
#else
    const int n100 = 1000, n1000 = 6;
#endif
    for (int d = 0; d < PZ_DIFF_COUNT; d++) {
        for (int s = 1; s <= n100; s++)
            check_seed(100, 100, d, (uint64_t)s);
        for (int s = 1; s <= n1000; s++)
            check_seed(1000, 1000, d, (uint64_t)s * 50 + 1); /* seed % 50 == 1: the spanning-tree check too */
    }
}

/* The limits of the allowed sizes, including the largest board. */
static void test_sizes(void **ctx)
{
    (void)ctx;
    static const int sz[][2] = {{3, 3}, {4, 3}, {3, 4}, {12, 3}, {3, 12}, {40, 10}, {64, 64}, {1000, 1000}};
    for (size_t i = 0; i < MR_ARRAY_LEN(sz); i++)
        for (int d = 0; d < PZ_DIFF_COUNT; d++) {
            int seeds = sz[i][0] * sz[i][1] > 10000 ? 1 : 40;
            for (int s = 1; s <= seeds; s++) {
                pz_puzzle *pz = gen(sz[i][0], sz[i][1], d, (uint64_t)s);
                check_properties(pz, d);
                check_spanning_tree(pz);
                assert_true(maze_storage_bytes(pz) <= (size_t)sz[i][0] * sz[i][1] + 64);
                K->free_puzzle(pz);
            }
        }
}

/* Solve from states off the route: the answer reaches the exit and is no
 * longer than the way back to the start plus the route. */
static void test_solve_from_anywhere(void **ctx)
{
    (void)ctx;
    pz_puzzle *pz = gen(30, 20, PZ_HARD, 7);
    int max = max_solution(pz);
    pz_move *sol = mr_alloc((size_t)max, sizeof *sol);
    pz_state *st = K->new_state(pz), *probe = K->new_state(pz);
    uint32_t lcg = 12345;
    for (int walk = 0; walk < 300; walk++) {
        lcg = lcg * 1103515245u + 12345u;
        int d = (int)((lcg >> 16) & 3);
        if (K->execute_move(pz, st, step(d), st))
            continue;
        if (K->is_solved(pz, st)) {
            K->free_state(st);
            st = K->new_state(pz);
            continue;
        }
        int len = K->solve(pz, st, sol, max);
        assert_true(len > 0);
        K->copy_state(probe, st);
        replay(pz, probe, sol, len);
        assert_true(K->is_solved(pz, probe));
        /* A short buffer still gets the full length. */
        assert_int_equal(K->solve(pz, st, sol, 1), len);
        assert_int_equal(K->solve(pz, st, NULL, 0), len);
    }
    free(sol);
    K->free_state(st);
    K->free_state(probe);
    K->free_puzzle(pz);
}

/* Moves the state to (tx, ty) along the tree path found by a BFS over
 * maze_open. */
static void walk_to(const pz_puzzle *pz, pz_state *st, int tx, int ty)
{
    const pz_params *p = params_of(pz);
    int w = p->w, n = p->w * p->h;
    int *from = mr_alloc((size_t)n, sizeof *from);
    int *queue = mr_alloc((size_t)n, sizeof *queue);
    for (int i = 0; i < n; i++)
        from[i] = -1;
    int sx, sy;
    maze_pos(st, &sx, &sy);
    int head = 0, tail = 0;
    queue[tail++] = sy * w + sx;
    from[sy * w + sx] = 4;
    while (head < tail) {
        int c = queue[head++];
        for (int d = 0; d < PZ_DIR_COUNT; d++) {
            if (!maze_open(pz, c % w, c / w, d))
                continue;
            int nc = c + pz_dir_dy(d) * w + pz_dir_dx(d);
            if (from[nc] < 0) {
                from[nc] = d;
                queue[tail++] = nc;
            }
        }
    }
    int len = 0;
    for (int c = ty * w + tx; from[c] != 4; c -= pz_dir_dy(from[c]) * w + pz_dir_dx(from[c]))
        queue[len++] = from[c];
    for (int i = len - 1; i >= 0; i--)
        assert_null(K->execute_move(pz, st, step(queue[i]), st));
    free(from);
    free(queue);
}

static void test_illegal_moves(void **ctx)
{
    (void)ctx;
    /* A maze whose exit has exactly one passage: the other neighbour is
     * walled off from the exit. */
    pz_puzzle *pz = NULL;
    int w = 0;
    for (uint64_t seed = 1; seed < 200 && !pz; seed++) {
        pz = gen(9, 7, PZ_MEDIUM, seed);
        w = 9;
        if (maze_open(pz, w - 1, 0, PZ_LEFT) && maze_open(pz, w - 1, 0, PZ_DOWN)) {
            K->free_puzzle(pz);
            pz = NULL;
        }
    }
    assert_non_null(pz);
    pz_state *st = K->new_state(pz), *before = K->new_state(pz);
    int x, y;

    /* From the start, left and down are the border. */
    assert_non_null(K->execute_move(pz, st, step(PZ_LEFT), st));
    assert_non_null(K->execute_move(pz, st, step(PZ_DOWN), st));
    /* Bad types and fields, any bit pattern. */
    int open_dir = maze_open(pz, 0, 6, PZ_UP) ? PZ_UP : PZ_RIGHT;
    pz_move bad[] = {
        {.type = 0, .dir = (uint8_t)open_dir},
        {.type = PZ_MOVE_ROTATE_CW, .dir = (uint8_t)open_dir},
        {.type = PZ_MOVE_ROTATE_CCW, .dir = (uint8_t)open_dir},
        {.type = 4, .dir = (uint8_t)open_dir}, /* ice's restart */
        {.type = 255, .dir = (uint8_t)open_dir},
        {.type = PZ_MOVE_STEP, .dir = 4},
        {.type = PZ_MOVE_STEP, .dir = 255},
        {.type = PZ_MOVE_STEP, .dir = (uint8_t)open_dir, .x = 1},
        {.type = PZ_MOVE_STEP, .dir = (uint8_t)open_dir, .y = 65535},
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        K->copy_state(before, st);
        const char *why = K->execute_move(pz, st, bad[i], st);
        assert_non_null(why);
        assert_true(strlen(why) > 0);
        maze_pos(st, &x, &y);
        assert_int_equal(x, 0);
        assert_int_equal(y, 6);
    }
    /* Through an inner wall, with from != to: to stays unchanged. */
    for (int d = 0; d < PZ_DIR_COUNT; d++)
        if (!maze_open(pz, 0, 6, d)) {
            pz_state *to = K->new_state(pz);
            assert_non_null(K->execute_move(pz, st, step(d), to));
            maze_pos(to, &x, &y);
            assert_int_equal(x, 0);
            assert_int_equal(y, 6);
            K->free_state(to);
        }
    /* Into the exit through a wall, from its walled neighbour. */
    bool left_open = maze_open(pz, w - 1, 0, PZ_LEFT);
    int nx = left_open ? w - 1 : w - 2, ny = left_open ? 1 : 0;
    int into = left_open ? PZ_UP : PZ_RIGHT;
    walk_to(pz, st, nx, ny);
    maze_pos(st, &x, &y);
    assert_int_equal(x, nx);
    assert_int_equal(y, ny);
    assert_non_null(K->execute_move(pz, st, step(into), st));
    assert_false(K->is_solved(pz, st));
    maze_pos(st, &x, &y);
    assert_int_equal(x, nx);
    assert_int_equal(y, ny);
    pz_progress pr;
    K->progress(pz, st, &pr);
    assert_int_equal(pr.x, nx);
    assert_int_equal(pr.y, ny);
    assert_false(pr.solved);

    /* Solve, then every move is rejected. */
    pz_move sol[64];
    int len = K->solve(pz, st, sol, 64);
    assert_true(len > 0 && len <= 64);
    replay(pz, st, sol, len);
    assert_true(K->is_solved(pz, st));
    K->progress(pz, st, &pr);
    assert_true(pr.solved);
    for (int d = 0; d < PZ_DIR_COUNT; d++)
        assert_non_null(K->execute_move(pz, st, step(d), st));
    assert_int_equal(K->solve(pz, st, sol, 64), 0);

    /* maze_open outside the board. */
    assert_false(maze_open(pz, -1, 0, PZ_RIGHT));
    assert_false(maze_open(pz, 0, 7, PZ_UP));
    assert_false(maze_open(pz, 9, 0, PZ_LEFT));
    assert_false(maze_open(pz, 0, 0, 4));
    assert_false(maze_open(pz, 0, 0, -1));
    K->free_state(st);
    K->free_state(before);
    K->free_puzzle(pz);
}

static void test_bad_params(void **ctx)
{
    (void)ctx;
    static const int bad[][2] = {{2, 3},       {3, 2},  {0, 0},  {-5, 10},    {1001, 1000},
                                 {1000, 1001}, {13, 3}, {3, 13}, {1000, 200}, {2000000000, 2000000000}};
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        pz_params p = params(bad[i][0], bad[i][1], PZ_EASY);
        assert_non_null(K->validate_params(&p));
        const char *err = NULL;
        double t0 = cpu_ms();
        assert_null(K->generate(&p, 1, &err));
        assert_true(cpu_ms() - t0 < 50.0);
        assert_non_null(err);
        assert_null(K->decode_desc(&p, "AAAA", &err));
        assert_non_null(err);
    }
    pz_params p = params(21, 15, 3);
    assert_non_null(K->validate_params(&p));
    p = params(21, 15, -1);
    assert_non_null(K->validate_params(&p));
    p = params(21, 15, PZ_EASY);
    p.kind = PZ_ICE;
    assert_non_null(K->validate_params(&p));
    p = params(3, 3, PZ_HARD);
    assert_null(K->validate_params(&p));
    p = params(1000, 250, PZ_HARD);
    assert_null(K->validate_params(&p));
}

/* A desc with character i replaced by c. */
static char *desc_with(const char *desc, size_t i, char c)
{
    char *d = mr_strdup(desc);
    d[i] = c;
    return d;
}

static void expect_desc_error(const pz_params *p, const char *desc)
{
    const char *err = NULL;
    pz_puzzle *pz = K->decode_desc(p, desc, &err);
    if (pz)
        fail_msg("description accepted: %s", desc);
    assert_non_null(err);
    assert_true(strlen(err) > 0);
}

static int b64v(char ch)
{
    const char *a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    return (int)(strchr(a, ch) - a);
}

static char b64c(int v)
{
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[v];
}

static void test_bad_descriptions(void **ctx)
{
    (void)ctx;
    pz_puzzle *pz = gen(10, 8, PZ_MEDIUM, 3);
    pz_params p = *params_of(pz);
    char *desc = K->encode_desc(pz);
    size_t len = strlen(desc);
    assert_int_equal(len, (10 * 8 + 2) / 3);
    const char *err = NULL;

    assert_null(K->decode_desc(&p, NULL, &err));
    expect_desc_error(&p, "");
    char *d = mr_strndup(desc, len - 1);
    expect_desc_error(&p, d); /* too short */
    free(d);
    d = mr_alloc(len + 2, 1);
    memcpy(d, desc, len);
    d[len] = 'A';
    expect_desc_error(&p, d); /* too long */
    free(d);
    static const char bad_chars[] = {'+', '*', ' ', ':', '#', '.', '\x7f', '\xc3'};
    for (size_t i = 0; i < sizeof bad_chars; i++) {
        d = desc_with(desc, len / 2, bad_chars[i]);
        expect_desc_error(&p, d);
        free(d);
    }
    /* Stray bits after the last cell: 80 cells leave 2 spare in the last char. */
    d = desc_with(desc, len - 1, b64c(b64v(desc[len - 1]) | (3 << 4)));
    expect_desc_error(&p, d);
    free(d);
    /* A passage through the right wall (cell 9 = x 9, y 0) and the bottom
     * wall (cell 78 = x 8, y 7). */
    d = desc_with(desc, 3, b64c(b64v(desc[3]) | 1));
    expect_desc_error(&p, d);
    free(d);
    d = desc_with(desc, 26, b64c(b64v(desc[26]) | 2));
    expect_desc_error(&p, d);
    free(d);
    /* Opening any closed inner wall makes a loop; closing an open passage
     * leaves a cell unreachable. */
    int loops = 0, cuts = 0;
    for (size_t i = 0; i < len; i++)
        for (int bit = 0; bit < 6; bit++) {
            size_t cell = 3 * i + (size_t)bit / 2;
            int x = (int)(cell % 10), y = (int)(cell / 10);
            if (cell >= 80 || (bit % 2 == 0 && x == 9) || (bit % 2 == 1 && y == 7))
                continue;
            d = desc_with(desc, i, b64c(b64v(desc[i]) ^ (1 << bit)));
            expect_desc_error(&p, d);
            free(d);
            if (b64v(desc[i]) & (1 << bit))
                cuts++;
            else
                loops++;
        }
    assert_int_equal(cuts, 79);
    assert_true(loops > 0);
    /* A valid description for another size is refused. */
    pz_params q = params(8, 10, PZ_MEDIUM);
    const char *why = NULL;
    pz_puzzle *other = K->decode_desc(&q, desc, &why);
    if (other) { /* same length; only acceptable if it is a perfect maze */
        check_spanning_tree(other);
        K->free_puzzle(other);
    }
    free(desc);
    K->free_puzzle(pz);
}

static void expect_text_error(const char *text, int line, int col, const char *needle)
{
    pz_error e = {0};
    pz_puzzle *pz = K->parse_text(text, strlen(text), &e);
    if (pz)
        fail_msg("text accepted:\n%s", text);
    if (line > 0 && (e.line != line || e.col != col))
        fail_msg("error at %d:%d (%s), expected %d:%d", e.line, e.col, e.msg, line, col);
    assert_true(e.line >= 1 && e.col >= 1);
    assert_true(strlen(e.msg) > 0);
    if (needle && !strstr(e.msg, needle))
        fail_msg("message '%s' lacks '%s'", e.msg, needle);
}

/* Character (1-based line, col) of text replaced. */
static char *text_with(const char *text, int line, int col, char c)
{
    char *t = mr_strdup(text);
    char *p = t;
    for (int l = 1; l < line; l++)
        p = strchr(p, '\n') + 1;
    p[col - 1] = c;
    return t;
}

static void test_bad_text(void **ctx)
{
    (void)ctx;
    /* 4x3:
     * +-+-+-+-+
     * |      E|  line 2
     * + +-+-+ +
     * | |   | |  line 4
     * + + +-+ +
     * |S  |   |  line 6
     * +-+-+-+-+ */
    const char *good = "+-+-+-+-+\n"
                       "|      E|\n"
                       "+ +-+-+ +\n"
                       "| |   | |\n"
                       "+ + +-+ +\n"
                       "|S  |   |\n"
                       "+-+-+-+-+\n";
    pz_error e = {0};
    pz_puzzle *pz = K->parse_text(good, strlen(good), &e);
    if (!pz)
        fail_msg("good text rejected at %d:%d: %s", e.line, e.col, e.msg);
    assert_int_equal(params_of(pz)->w, 4);
    assert_int_equal(params_of(pz)->h, 3);
    assert_true(maze_open(pz, 0, 2, PZ_UP));
    assert_true(maze_open(pz, 0, 2, PZ_RIGHT));
    assert_false(maze_open(pz, 1, 2, PZ_RIGHT));
    char *again = K->format_text(pz);
    assert_string_equal(again, good);
    free(again);
    pz_grade g;
    K->grade(pz, &g);
    assert_int_equal(g.par, 5); /* U U R R R */
    K->free_puzzle(pz);

    /* CR LF line ends and no final newline are accepted. */
    const char *crlf =
        "+-+-+-+-+\r\n|      E|\r\n+ +-+-+ +\r\n| |   | |\r\n+ + +-+ +\r\n|S  |   |\r\n+-+-+-+-+";
    pz = K->parse_text(crlf, strlen(crlf), &e);
    assert_non_null(pz);
    K->free_puzzle(pz);

    char *t;
    t = text_with(good, 3, 3, '*'); /* a corner */
    expect_text_error(t, 3, 3, "'+'");
    free(t);
    t = text_with(good, 1, 4, ' '); /* outer wall opened */
    expect_text_error(t, 1, 4, "outer");
    free(t);
    t = text_with(good, 4, 9, ' ');
    expect_text_error(t, 4, 9, "outer");
    free(t);
    t = text_with(good, 3, 4, 'x'); /* bad wall char */
    expect_text_error(t, 3, 4, "'-'");
    free(t);
    t = text_with(good, 4, 3, '-');
    expect_text_error(t, 4, 3, "'|'");
    free(t);
    t = text_with(good, 6, 2, ' '); /* start missing */
    expect_text_error(t, 6, 2, "'S'");
    free(t);
    t = text_with(good, 4, 6, 'S'); /* second start */
    expect_text_error(t, 4, 6, "'S'");
    free(t);
    t = text_with(good, 2, 8, 'e'); /* exit missing */
    expect_text_error(t, 2, 8, "'E'");
    free(t);
    t = text_with(good, 4, 2, 'O');
    expect_text_error(t, 4, 2, NULL);
    free(t);
    t = text_with(good, 4, 2, '\0'); /* a NUL byte inside the text */
    {
        size_t n = strlen(good);
        pz_error e2 = {0};
        assert_null(K->parse_text(t, n, &e2));
        assert_int_equal(e2.line, 4);
        assert_int_equal(e2.col, 2);
    }
    free(t);
    /* Loop: opening the wall between (2,1) and (3,1) closes a cycle. */
    t = text_with(good, 4, 7, ' ');
    expect_text_error(t, 0, 0, "loop");
    free(t);
    /* Unreachable: closing the only passage into (1,1). */
    t = text_with(good, 5, 4, '-');
    expect_text_error(t, 0, 0, "reached");
    free(t);

    /* Shape errors. */
    expect_text_error("", 1, 1, NULL);
    expect_text_error("\n", 1, 1, NULL);
    expect_text_error("+-+-+-+-+\n|      E|\n+ +-+-+ +\n| |   | |\n+ + +-+ +\n|S  |   |\n", 7, 1, NULL);
    expect_text_error("+-+-+-+-+\n|      E|\n+ +-+-+ +\n| |   |\n", 4, 8, "short");
    expect_text_error("+-+-+-+-+\n|      E|\n+ +-+-+ +\n| |   | | |\n", 4, 10, "long");
    expect_text_error("+-+-+\n|  E|\n+ + +\n|S  |\n+-+-+\n", 1, 6, NULL); /* 2 wide */
    expect_text_error("+-+-+-+-+-\n", 1, 11, NULL);                       /* even width */
    /* Too wide: stops at the limit without reading on. */
    size_t wide = 5000;
    t = mr_alloc(wide + 2, 1);
    memset(t, '+', wide);
    expect_text_error(t, 1, 2003, "long");
    free(t);
    /* Too thin for the difficulty bands: a 13x3 text form. */
    pz_puzzle *wide_pz = gen(12, 3, PZ_EASY, 1);
    char *txt = K->format_text(wide_pz);
    size_t tl = strlen(txt);
    char *thin = mr_alloc(tl + 16, 1);
    for (size_t i = 0, o = 0; i < tl; i++) { /* widen every line by one cell */
        if (txt[i] == '\n') {
            bool wall_line = txt[i - 1] == '+';
            thin[o++] = wall_line ? '-' : ' ';
            thin[o++] = wall_line ? '+' : '|';
            thin[o - 3] = wall_line ? '+' : ' ';
        }
        thin[o++] = txt[i];
    }
    expect_text_error(thin, 1, 1, "thin");
    free(thin);
    free(txt);
    K->free_puzzle(wide_pz);
}

/* Deterministic random damage to valid inputs: whatever comes in is either
 * refused with a position and reason, or is a perfect maze that solves. */
static void test_fuzz_inputs(void **ctx)
{
    (void)ctx;
    pz_puzzle *pz = gen(9, 6, PZ_HARD, 11);
    char *text = K->format_text(pz);
    char *desc = K->encode_desc(pz);
    size_t tl = strlen(text), dl = strlen(desc);
    pz_params p = *params_of(pz);
    static const char alphabet[] = "+-| SE\n\rXA_9.\t";
    uint64_t x = 0x9e3779b97f4a7c15ull;
    int refused = 0;
    for (int round = 0; round < 3000; round++) {
        char *t = mr_strdup(text), *d = mr_strdup(desc);
        int hits = 1 + (int)(round % 3);
        for (int k = 0; k < hits; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            t[x % tl] = alphabet[(x >> 20) % (sizeof alphabet - 1)];
            d[(x >> 8) % dl] =
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+*"[(x >> 32) % 66];
        }
        size_t cut = round % 7 == 0 ? (size_t)(x >> 40) % (tl + 1) : tl; /* sometimes truncated */
        pz_error e = {0};
        pz_puzzle *q = K->parse_text(t, cut, &e);
        if (q) {
            check_spanning_tree(q);
            assert_true(K->solve(q, NULL, NULL, 0) > 0);
            K->free_puzzle(q);
        } else {
            assert_true(e.line >= 1 && e.line <= 2 * 6 + 2);
            assert_true(e.col >= 1 && e.col <= 2 * 9 + 3);
            assert_true(e.msg[0] != '\0');
            refused++;
        }
        const char *why = NULL;
        q = K->decode_desc(&p, d, &why);
        if (q) {
            check_spanning_tree(q);
            K->free_puzzle(q);
        } else {
            assert_non_null(why);
        }
        free(t);
        free(d);
    }
    assert_true(refused > 0);
    /* Random moves, any bit pattern: never a crash, state always in range. */
    pz_state *st = K->new_state(pz);
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        pz_move mv = {.type = (uint8_t)(x & 3), .dir = (uint8_t)((x >> 2) & 7), .x = 0, .y = 0};
        if ((x >> 10) % 17 == 0)
            mv.x = (uint16_t)(x >> 16);
        const char *why = K->execute_move(pz, st, mv, st);
        int px, py;
        maze_pos(st, &px, &py);
        assert_true(px >= 0 && px < 9 && py >= 0 && py < 6);
        if (!why)
            assert_true(mv.type == PZ_MOVE_STEP && mv.dir < 4 && mv.x == 0);
        if (K->is_solved(pz, st)) {
            K->free_state(st);
            st = K->new_state(pz);
        }
    }
    K->free_state(st);
    free(text);
    free(desc);
    K->free_puzzle(pz);
}

/* ---- the traversal against the specification, written plainly ---- */

/* docs/generation.md's "One draw", one value at a time with bounds checks:
 * the cells (open bits, parent) it carves into c, and r left where the
 * draw leaves it. *rejected counts picks that drew again. */
static void spec_draw(uint8_t *c, int w, int h, rng_t *r, long *rejected)
{
    size_t n = (size_t)w * (size_t)h;
    uint32_t *f = mr_alloc(3 * n + 2, sizeof *f); /* cell * 4 + dir */
    bool *in = mr_alloc(n, sizeof *in);
    memset(c, 0, n);
    size_t start = (size_t)(h - 1) * (size_t)w, len = 0;
    in[start] = true;
    f[len++] = (uint32_t)start * 4 + PZ_UP;
    f[len++] = (uint32_t)start * 4 + PZ_RIGHT;
    uint64_t pool = 0;
    int left = 0;
    while (len) {
        uint32_t i;
        for (;;) {
            if (left == 0) {
                pool = rng_u64(r);
                left = 2;
            }
            uint32_t v = (uint32_t)pool;
            pool >>= 32;
            left--;
            uint64_t m = (uint64_t)v * len;
            uint32_t low = (uint32_t)m;
            if (low >= len || low >= (uint32_t)(-(uint32_t)len) % (uint32_t)len) {
                i = (uint32_t)(m >> 32);
                break;
            }
            (*rejected)++;
        }
        uint32_t edge = f[i];
        f[i] = f[--len];
        int cx = (int)(edge / 4 % (uint32_t)w), cy = (int)(edge / 4 / (uint32_t)w), d = (int)(edge & 3);
        int nx = cx + pz_dir_dx(d), ny = cy + pz_dir_dy(d);
        size_t nb = (size_t)ny * (size_t)w + (size_t)nx;
        if (in[nb])
            continue;
        in[nb] = true;
        c[edge / 4] |= (uint8_t)(1u << d);
        c[nb] |= (uint8_t)((1u << pz_dir_opposite(d)) | (unsigned)pz_dir_opposite(d) << MAZE_PARENT_SHIFT);
        for (int d2 = 0; d2 < PZ_DIR_COUNT; d2++) {
            int x2 = nx + pz_dir_dx(d2), y2 = ny + pz_dir_dy(d2);
            if (x2 >= 0 && y2 >= 0 && x2 < w && y2 < h && !in[(size_t)y2 * (size_t)w + (size_t)x2])
                f[len++] = (uint32_t)nb * 4 + (uint32_t)d2;
        }
    }
    free(f);
    free(in);
}

/* maze_carve (branch-free, looking a pop ahead, buffered random values)
 * must give the specification's maze bit for bit and leave the generator
 * where the specification does, draw after draw from one stream: every
 * size up to 24x24, some odd and long ones, and 1000x1000, where a few
 * picks draw again (asserted, so that path is covered). */
static void test_carve_matches_spec(void **ctx)
{
    (void)ctx;
    static const int big[][2] = {{1000, 1000}, {999, 250}, {47, 188}, {17, 16}, {15, 33}, {128, 3}};
    long rejected = 0;
    for (int w = 3; w <= 24 + (int)MR_ARRAY_LEN(big); w++) {
        for (int h = 3; h <= 24; h++) {
            int bw = w, bh = h, draws = 4;
            if (w > 24) { /* the odd sizes, once each */
                if (h > 3)
                    break;
                bw = big[w - 25][0];
                bh = big[w - 25][1];
                draws = bw * bh >= 250000 ? 2 : 4;
            }
            size_t n = (size_t)bw * (size_t)bh;
            uint8_t *want = mr_alloc(n, 1), *got = mr_alloc(n, 1);
            maze_scratch *sc = maze_scratch_create(bw, bh);
            for (uint64_t seed = 1; seed <= (n > 1000 ? 2u : 6u); seed++) {
                rng_t a, b;
                rng_seed(&a, seed);
                rng_seed(&b, seed);
                for (int k = 0; k < draws; k++) {
                    spec_draw(want, bw, bh, &a, &rejected);
                    maze_carve(got, sc, bw, bh, &b);
                    if (memcmp(want, got, n) != 0 || memcmp(&a, &b, sizeof a) != 0)
                        fail_msg("%dx%d seed %llu draw %d: maze_carve differs from the specification", bw, bh,
                                 (unsigned long long)seed, k);
                }
            }
            maze_scratch_destroy(sc);
            free(want);
            free(got);
        }
    }
    assert_true(rejected > 0);
}

/* ---- catalogue ---- */

#define CATALOGUE MR_SOURCE_DIR "/tests/catalogue/maze.txt"

static char *catalogue_line(int w, int h, int diff, uint64_t seed)
{
    pz_puzzle *pz = gen(w, h, diff, seed);
    char *desc = K->encode_desc(pz);
    size_t n = strlen(desc) + 64;
    char *line = mr_alloc(n, 1);
    snprintf(line, n, "maze:%dx%d:%s#%llu %s", w, h, diff_name[diff], (unsigned long long)seed, desc);
    free(desc);
    K->free_puzzle(pz);
    return line;
}

static void test_catalogue(void **ctx)
{
    (void)ctx;
    static const int sz[][2] = {{21, 15}, {3, 3}, {8, 5}};
    char *lines[64];
    int n = 0;
    for (size_t s = 0; s < MR_ARRAY_LEN(sz); s++)
        for (int d = 0; d < PZ_DIFF_COUNT; d++)
            for (uint64_t seed = 1; seed <= (s == 0 ? 10u : 3u); seed++)
                lines[n++] = catalogue_line(sz[s][0], sz[s][1], d, seed);
    const char *update = getenv("MR_UPDATE_CATALOGUE");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(CATALOGUE, "w");
        assert_non_null(f);
        fprintf(f, "# maze catalogue: game ID -> description. Regenerate with MR_UPDATE_CATALOGUE=1 "
                   "(docs/kinds/maze.md).\n");
        for (int i = 0; i < n; i++)
            fprintf(f, "%s\n", lines[i]);
        assert_int_equal(fclose(f), 0);
    }
    FILE *f = fopen(CATALOGUE, "r");
    if (!f)
        fail_msg("cannot open %s (regenerate with MR_UPDATE_CATALOGUE=1)", CATALOGUE);
    char buf[1024];
    int i = 0;
    while (fgets(buf, sizeof buf, f)) {
        if (buf[0] == '#')
            continue;
        buf[strcspn(buf, "\n")] = '\0';
        if (i >= n)
            fail_msg("catalogue has more entries than expected: %s", buf);
        if (strcmp(buf, lines[i]) != 0)
            fail_msg("catalogue differs:\n  file:      %s\n  generated: %s\n(if the change is deliberate, "
                     "regenerate with MR_UPDATE_CATALOGUE=1)",
                     buf, lines[i]);
        i++;
    }
    fclose(f);
    assert_int_equal(i, n);
    for (int k = 0; k < n; k++)
        free(lines[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_props_easy),         cmocka_unit_test(test_props_medium),
        cmocka_unit_test(test_props_hard),         cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_props_large),        cmocka_unit_test(test_solve_from_anywhere),
        cmocka_unit_test(test_illegal_moves),      cmocka_unit_test(test_bad_params),
        cmocka_unit_test(test_bad_descriptions),   cmocka_unit_test(test_bad_text),
        cmocka_unit_test(test_fuzz_inputs),        cmocka_unit_test(test_catalogue),
        cmocka_unit_test(test_carve_matches_spec),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
