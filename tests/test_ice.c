/* test_ice.c: the sliding-ice kind: generation properties, moves, descriptions, text form, catalogue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "ice.h"
#include "puzzle.h"
#include "rng.h"
#include "util.h"

static const pz_kind *const K = &pz_kind_ice;

/* puzzle.c (the registry) is not linked here: its two helpers, by the same
 * convention (pz_params first in every puzzle). */
static const pz_params *params_of(const pz_puzzle *pz)
{
    return (const pz_params *)(const void *)pz;
}

static int max_solution(const pz_puzzle *pz)
{
    return 3 * params_of(pz)->w * params_of(pz)->h + 1;
}

static pz_params params(int w, int h, int diff)
{
    pz_params p = {.kind = PZ_ICE, .w = w, .h = h, .diff = diff};
    return p;
}

static int start_x(const pz_puzzle *pz)
{
    int x, y;
    ice_start(pz, &x, &y);
    return x;
}

static pz_move step(int dir)
{
    pz_move m = {.type = PZ_MOVE_STEP, .dir = (uint8_t)dir};
    return m;
}

static pz_puzzle *parse(const char *text, pz_error *err)
{
    memset(err, 0, sizeof *err);
    return K->parse_text(text, strlen(text), err);
}

/* Minimum moves from (fx, fy) by a plain BFS that walks every slide cell by
 * cell on the accessor view, written apart from the kind's own search so
 * the two check each other. -1 if the exit cannot be reached. */
static int naive_moves_from(const pz_puzzle *pz, int fx, int fy)
{
    const pz_params *p = params_of(pz);
    int w = p->w, h = p->h, cells = w * h;
    int *dist = malloc(sizeof(int) * (size_t)cells), *queue = malloc(sizeof(int) * (size_t)cells);
    for (int i = 0; i < cells; i++)
        dist[i] = -1;
    int ex, ey;
    ice_exit(pz, &ex, &ey);
    int head = 0, tail = 0, result = -1;
    queue[tail++] = fy * w + fx;
    dist[fy * w + fx] = 0;
    while (head < tail && result < 0) {
        int u = queue[head++];
        if (u == ey * w + ex) {
            result = dist[u];
            break;
        }
        for (int d = 0; d < PZ_DIR_COUNT; d++) {
            int x = u % w, y = u / w;
            while (ice_cell(pz, x + pz_dir_dx(d), y + pz_dir_dy(d)) != 'O') {
                x += pz_dir_dx(d);
                y += pz_dir_dy(d);
            }
            if (dist[y * w + x] < 0) {
                dist[y * w + x] = dist[u] + 1;
                queue[tail++] = y * w + x;
            }
        }
    }
    free(dist);
    free(queue);
    return result;
}

static int naive_min_moves(const pz_puzzle *pz)
{
    int sx, sy;
    ice_start(pz, &sx, &sy);
    return naive_moves_from(pz, sx, sy);
}

/* Every property the issue asks of one generated puzzle. */
static void check_puzzle(const pz_params *p, uint64_t seed)
{
    const char *err = NULL;
    pz_puzzle *pz = K->generate(p, seed, &err);
    if (!pz)
        fail_msg("%dx%d diff %d seed %llu: %s", p->w, p->h, p->diff, (unsigned long long)seed, err);
    assert_int_equal(params_of(pz)->w, p->w);
    assert_int_equal(params_of(pz)->h, p->h);

    /* same seed, same description, byte for byte */
    char *desc = K->encode_desc(pz);
    pz_puzzle *again = K->generate(p, seed, &err);
    assert_non_null(again);
    char *desc2 = K->encode_desc(again);
    assert_string_equal(desc, desc2);
    free(desc2);
    K->free_puzzle(again);

    /* the description validates and round-trips */
    for (const char *c = desc; *c; c++)
        assert_non_null(strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-", *c));
    pz_puzzle *dec = K->decode_desc(p, desc, &err);
    if (!dec)
        fail_msg("decode of own description failed: %s", err);
    desc2 = K->encode_desc(dec);
    assert_string_equal(desc, desc2);
    free(desc2);
    K->free_puzzle(dec);

    /* the text form round-trips */
    char *text = K->format_text(pz);
    pz_error perr;
    pz_puzzle *txt = K->parse_text(text, strlen(text), &perr);
    if (!txt)
        fail_msg("parse of own text failed at %d:%d: %s", perr.line, perr.col, perr.msg);
    desc2 = K->encode_desc(txt);
    assert_string_equal(desc, desc2);
    char *text2 = K->format_text(txt);
    assert_string_equal(text, text2);
    free(text2);
    free(desc2);
    K->free_puzzle(txt);

    /* band and par as measured, and the same as an independent search */
    pz_grade g;
    K->grade(pz, &g);
    assert_int_equal(g.band, p->diff);
    assert_int_equal(g.par, naive_min_moves(pz));
    assert_int_equal(g.measure, g.par);

    /* the solution is shortest and replays to solved */
    pz_state *st = K->new_state(pz);
    assert_false(K->is_solved(pz, st));
    int max = max_solution(pz);
    pz_move *sol = malloc(sizeof *sol * (size_t)max);
    int n = K->solve(pz, NULL, sol, max);
    assert_int_equal(n, g.par);
    for (int i = 0; i < n; i++) {
        assert_false(K->is_solved(pz, st));
        const char *why = K->execute_move(pz, st, sol[i], st);
        if (why)
            fail_msg("move %d of the solution rejected: %s", i, why);
    }
    assert_true(K->is_solved(pz, st));
    free(sol);
    K->free_state(st);
    free(text);
    free(desc);
    K->free_puzzle(pz);
}

static void run_properties(int diff, int seeds)
{
    pz_params p = params(K->default_w, K->default_h, diff);
    for (int s = 1; s <= seeds; s++)
        check_puzzle(&p, (uint64_t)s);
}

static void test_properties_easy(void **ctx)
{
    (void)ctx;
    run_properties(PZ_EASY, 1000);
}

static void test_properties_medium(void **ctx)
{
    (void)ctx;
    run_properties(PZ_MEDIUM, 1000);
}

static void test_properties_hard(void **ctx)
{
    (void)ctx;
    run_properties(PZ_HARD, 1000);
}

/* The same properties at other sizes: the smallest of each band, the
 * original's 35x30, tall and wide boards, multi-word rows and columns. */
static void test_properties_other_sizes(void **ctx)
{
    (void)ctx;
    static const int cases[][4] = {
        {4, 3, PZ_EASY, 40},   {6, 5, PZ_MEDIUM, 40},   {8, 8, PZ_HARD, 40},     {4, 20, PZ_HARD, 20},
        {20, 4, PZ_HARD, 20},  {35, 30, PZ_EASY, 60},   {35, 30, PZ_MEDIUM, 60}, {35, 30, PZ_HARD, 60},
        {4, 48, PZ_EASY, 20},  {64, 64, PZ_MEDIUM, 10}, {70, 20, PZ_EASY, 10},   {100, 100, PZ_HARD, 5},
        {130, 66, PZ_HARD, 3},
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(cases); i++) {
        pz_params p = params(cases[i][0], cases[i][1], cases[i][2]);
        for (int s = 1; s <= cases[i][3]; s++)
            check_puzzle(&p, (uint64_t)s * 7919);
    }
}

static void test_seeds_and_bands_differ(void **ctx)
{
    (void)ctx;
    const char *err;
    pz_params p = params(25, 20, PZ_MEDIUM), q = params(25, 20, PZ_HARD);
    pz_puzzle *a = K->generate(&p, 1, &err), *b = K->generate(&p, 2, &err), *c = K->generate(&q, 1, &err);
    char *da = K->encode_desc(a), *db = K->encode_desc(b), *dc = K->encode_desc(c);
    assert_string_not_equal(da, db);
    assert_string_not_equal(da, dc);
    free(da);
    free(db);
    free(dc);
    K->free_puzzle(a);
    K->free_puzzle(b);
    K->free_puzzle(c);
}

/* A fixed board: start at column 2, exit at column 5.
 *   row 0  OOOOOeO
 *   row 1  O.....O
 *   row 2  O.O...O
 *   row 3  O.....O
 *   row 4  OOsOOOO
 * From s: up stops at (2,3) under the boulder; right to (5,3); up onto the
 * exit. */
static const char *board7x5 = "OOOOOeO\n"
                              "O.....O\n"
                              "O.O...O\n"
                              "O.....O\n"
                              "OOsOOOO\n";

static void test_moves_and_accessors(void **ctx)
{
    (void)ctx;
    pz_error err;
    pz_puzzle *pz = parse(board7x5, &err);
    if (!pz)
        fail_msg("%d:%d %s", err.line, err.col, err.msg);
    int x, y;
    ice_start(pz, &x, &y);
    assert_int_equal(x, 2);
    assert_int_equal(y, 4);
    ice_exit(pz, &x, &y);
    assert_int_equal(x, 5);
    assert_int_equal(y, 0);
    assert_int_equal(ice_cell(pz, 2, 4), 's');
    assert_int_equal(ice_cell(pz, 5, 0), 'e');
    assert_int_equal(ice_cell(pz, 4, 0), 'O');
    assert_int_equal(ice_cell(pz, 2, 2), 'O');
    assert_int_equal(ice_cell(pz, 1, 1), '.');
    assert_int_equal(ice_cell(pz, -1, 0), 'O');
    assert_int_equal(ice_cell(pz, 7, 0), 'O');
    ice_slide(pz, 2, 4, PZ_UP, &x, &y);
    assert_int_equal(x, 2);
    assert_int_equal(y, 3);
    ice_slide(pz, 2, 3, PZ_RIGHT, &x, &y);
    assert_int_equal(x, 5);
    ice_slide(pz, 2, 2, PZ_UP, &x, &y); /* on a boulder: no slide */
    assert_int_equal(x, 2);
    assert_int_equal(y, 2);
    ice_slide(pz, 5, 3, PZ_UP, &x, &y); /* up column 5 onto the exit */
    assert_int_equal(y, 0);
    ice_slide(pz, 4, 3, PZ_UP, &x, &y); /* column 4 ends under the border */
    assert_int_equal(y, 1);

    pz_state *st = K->new_state(pz), *other = K->new_state(pz);
    pz_progress pr;
    K->progress(pz, st, &pr);
    assert_int_equal(pr.x, 2);
    assert_int_equal(pr.y, 4);
    assert_false(pr.solved);

    /* bad fields, any bit pattern */
    pz_move m = step(PZ_UP);
    static const uint8_t bad_types[] = {0, PZ_MOVE_ROTATE_CW, PZ_MOVE_ROTATE_CCW, 5, 255};
    for (size_t i = 0; i < MR_ARRAY_LEN(bad_types); i++) {
        m.type = bad_types[i];
        assert_non_null(K->execute_move(pz, st, m, other));
    }
    m = step(PZ_UP);
    static const uint8_t bad_dirs[] = {4, 5, 128, 255};
    for (size_t i = 0; i < MR_ARRAY_LEN(bad_dirs); i++) {
        m.dir = bad_dirs[i];
        assert_non_null(K->execute_move(pz, st, m, other));
    }
    m = step(PZ_UP);
    m.x = 1;
    assert_non_null(K->execute_move(pz, st, m, other));
    m.x = 0;
    m.y = 65535;
    assert_non_null(K->execute_move(pz, st, m, other));
    /* blocked: from the start only up moves */
    assert_non_null(K->execute_move(pz, st, step(PZ_DOWN), other));
    assert_non_null(K->execute_move(pz, st, step(PZ_LEFT), other));
    assert_non_null(K->execute_move(pz, st, step(PZ_RIGHT), other));
    /* a rejected move leaves `to` alone */
    ice_pos(other, &x, &y);
    assert_int_equal(x, 2);
    assert_int_equal(y, 4);

    /* from == to, then a route: up, right, up, left, ... */
    assert_null(K->execute_move(pz, st, step(PZ_UP), st));
    ice_pos(st, &x, &y);
    assert_int_equal(y, 3);
    assert_null(K->execute_move(pz, st, step(PZ_RIGHT), other));
    ice_pos(other, &x, &y);
    assert_int_equal(x, 5);
    assert_int_equal(y, 3);
    ice_pos(st, &x, &y);
    assert_int_equal(x, 2); /* from untouched */
    /* from the start the shortest way is up, right, up */
    pz_move sol[64];
    assert_int_equal(K->solve(pz, NULL, sol, 64), 3);
    assert_int_equal(sol[0].dir, PZ_UP);
    assert_int_equal(sol[1].dir, PZ_RIGHT);
    assert_int_equal(sol[2].dir, PZ_UP);
    memset(sol, 0xff, sizeof sol);
    assert_int_equal(K->solve(pz, NULL, sol, 1), 3); /* full length, one move written */
    assert_int_equal(sol[0].dir, PZ_UP);
    assert_int_equal(sol[1].type, 0xff);
    /* from a later state (left first, the long way) any solution replays */
    assert_null(K->execute_move(pz, st, step(PZ_LEFT), st));
    int n = K->solve(pz, st, sol, 64);
    assert_true(n > 0);
    for (int i = 0; i < n; i++)
        assert_null(K->execute_move(pz, st, sol[i], st));
    assert_true(K->is_solved(pz, st));
    K->progress(pz, st, &pr);
    assert_true(pr.solved);
    assert_int_equal(pr.x, 5);
    assert_int_equal(pr.y, 0);
    assert_int_equal(K->solve(pz, st, sol, 64), 0);
    /* anything after solved */
    for (int d = 0; d < PZ_DIR_COUNT; d++)
        assert_non_null(K->execute_move(pz, st, step(d), other));

    pz_grade g;
    K->grade(pz, &g);
    assert_int_equal(g.par, naive_min_moves(pz));
    assert_int_equal(K->solve(pz, NULL, sol, 64), g.par);
    K->free_state(st);
    K->free_state(other);
    K->free_puzzle(pz);
    K->free_puzzle(NULL);
    K->free_state(NULL);
}

/* Text forms the reader must refuse, with where. */
static void test_text_rejects(void **ctx)
{
    (void)ctx;
    static const struct {
        const char *text;
        int line, col;
    } cases[] = {
        {"", 1, 1},
        {"\n", 1, 1},
        {"OOeOO\nO...O\nOsOOO\n\n", 4, 1}, /* blank line after the board */
        {"OOeOO\nO.x.O\nOsOOO\n", 2, 3},   /* unknown character */
        {"OOeOO\nO. .O\nOsOOO\n", 2, 3},   /* space */
        {"OOeOO\nO...O\r\rOsOOO\n", 2, 6}, /* lone CR */
        {"OOeOO\nO...\nOsOOO\n", 2, 5},    /* short row */
        {"OOeOO\nO....O\nOsOOO\n", 2, 6},  /* long row */
        {"OOeOO\nO...O\nOOOOO\n", 3, 1},   /* no start */
        {"OOOOO\nO...O\nOsOOO\n", 1, 1},   /* no exit */
        {"OOeOO\nO...O\nOssOO\n", 3, 3},   /* two starts */
        {"OeeOO\nO...O\nOsOOO\n", 1, 3},   /* two exits */
        {"OOeOO\nOs..O\nOOOOO\n", 2, 2},   /* start inside */
        {"OOOOO\nO.e.O\nOsOOO\n", 2, 3},   /* exit inside */
        {"sOeOO\nO...O\nOOOOO\n", 1, 1},   /* start in the top row */
        {"OOeOO\nO...O\nsOOOO\n", 3, 1},   /* start in a corner */
        {"OOOOe\nO...O\nOsOOO\n", 1, 5},   /* exit in a corner */
        {"OOeOO\n....O\nOsOOO\n", 2, 1},   /* gap in the side border */
        {"O.eOO\nO...O\nOsOOO\n", 1, 2},   /* gap in the top border */
        {"OOeOO\nOOOOO\nOsOOO\n", 1, 3},   /* exit unreachable */
        {"OeO\nO.O\n", 3, 1},              /* too few rows */
        {"Oe\nO.\nOs\n", 1, 3},            /* too few columns */
        {"OOeOO\nO...O\nOsOOO\0", 3, 6},   /* NUL byte (strlen stops before it) */
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(cases); i++) {
        pz_error err;
        memset(&err, 0, sizeof err);
        size_t len = strlen(cases[i].text);
        if (i == MR_ARRAY_LEN(cases) - 1)
            len++; /* include the NUL */
        pz_puzzle *pz = K->parse_text(cases[i].text, len, &err);
        if (pz)
            fail_msg("case %zu accepted", i);
        assert_true(err.msg[0] != '\0');
        if (err.line != cases[i].line || err.col != cases[i].col)
            fail_msg("case %zu: got %d:%d (%s), want %d:%d", i, err.line, err.col, err.msg, cases[i].line,
                     cases[i].col);
    }
    assert_null(K->parse_text(NULL, 0, NULL));
}

static void test_text_accepts(void **ctx)
{
    (void)ctx;
    static const char *forms[] = {
        "OOeOO\nO..OO\nOsOOO\n",       /* the canonical form */
        "OOeOO\nO..OO\nOsOOO",         /* no final newline */
        "OOeOO\r\nO..OO\r\nOsOOO\r\n", /* CRLF */
        "OOeOO\r\nO..OO\r\nOsOOO",
    };
    char *first = NULL;
    for (size_t i = 0; i < MR_ARRAY_LEN(forms); i++) {
        pz_error err;
        pz_puzzle *pz = parse(forms[i], &err);
        if (!pz)
            fail_msg("form %zu: %d:%d %s", i, err.line, err.col, err.msg);
        char *d = K->encode_desc(pz);
        if (first)
            assert_string_equal(first, d);
        else
            first = mr_strdup(d);
        free(d);
        char *t = K->format_text(pz);
        assert_string_equal(t, forms[0]);
        free(t);
        K->free_puzzle(pz);
    }
    free(first);

    /* a one-move board is a valid puzzle in no band */
    pz_error err;
    pz_puzzle *pz = parse("OeO\nO.O\nOsO\n", &err);
    assert_non_null(pz);
    pz_grade g;
    K->grade(pz, &g);
    assert_int_equal(g.par, 1);
    assert_int_equal(g.band, -1);
    K->free_puzzle(pz);

    /* the size limits apply to text too */
    size_t w = (size_t)K->max_w + 1;
    char *wide = mr_alloc(3 * (w + 1) + 1, 1);
    for (int r = 0; r < 3; r++) {
        memset(wide + r * (w + 1), r == 1 ? '.' : 'O', w);
        wide[r * (w + 1) + w] = '\n';
    }
    assert_null(parse(wide, &err));
    assert_int_equal(err.line, 1);
    assert_int_equal(err.col, K->max_w + 1);
    free(wide);
}

static void test_desc_rejects(void **ctx)
{
    (void)ctx;
    pz_params p = params(7, 5, PZ_MEDIUM); /* 5 x 3 = 15 inner cells: 3 characters */
    pz_error perr;
    pz_puzzle *ok = parse(board7x5, &perr);
    assert_non_null(ok);
    char *good = K->encode_desc(ok);
    const char *err = NULL;
    pz_puzzle *pz = K->decode_desc(&p, good, &err);
    assert_non_null(pz);
    K->free_puzzle(pz);
    /* the boulder at (2,2) is inner cell 6: the high bit of the second character */
    assert_string_equal(good, "2.5.AgA");
    pz = K->decode_desc(&p, "2.5.AAA", &err); /* an empty inside is fine */
    assert_non_null(pz);
    K->free_puzzle(pz);
    static const char *bad[] = {
        "",        "2",       "2.5",      "2.5.",     "0.5.AAA",
        "6.5.AAA", "2.0.AAA", "02.5.AAA", "2.5.AAAA", "2.5.AA",
        "2.5.AA*", "2.5.AA=", "-2.5.AAA", "2..5.AAA", "99999999999.5.AAA",
        "2.5.AAB", /* stray bit */
        "2.5.___", /* unreachable */
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        err = NULL;
        pz = K->decode_desc(&p, bad[i], &err);
        if (pz)
            fail_msg("description \"%s\" accepted", bad[i]);
        assert_non_null(err);
    }
    /* the good cells under a wrong size or kind */
    const char *buf = good;
    pz_params q = params(8, 5, PZ_MEDIUM);
    assert_null(K->decode_desc(&q, buf, &err));
    q = params(K->max_w + 1, 5, PZ_MEDIUM);
    assert_null(K->decode_desc(&q, buf, &err));
    q = p;
    q.kind = PZ_MAZE;
    assert_null(K->decode_desc(&q, buf, &err));
    q = p;
    q.diff = 7;
    assert_null(K->decode_desc(&q, buf, &err));
    assert_null(K->decode_desc(&p, NULL, &err));
    free(good);
    K->free_puzzle(ok);
}

static double cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void test_impossible_params(void **ctx)
{
    (void)ctx;
    static const int cases[][3] = {
        {7, 7, PZ_HARD},     {5, 5, PZ_HARD},     {3, 40, PZ_EASY},    {25, 3, PZ_MEDIUM}, {4, 4, PZ_MEDIUM},
        {25, 49, PZ_EASY},   {25, 65, PZ_MEDIUM}, {256, 256, PZ_EASY}, {2, 20, PZ_HARD},   {20, 2, PZ_EASY},
        {2000, 20, PZ_HARD}, {25, 20, 3},         {25, 20, -1},
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(cases); i++) {
        pz_params p = params(cases[i][0], cases[i][1], cases[i][2]);
        const char *err = NULL;
        double t0 = cpu_us();
        pz_puzzle *pz = K->generate(&p, 12345, &err);
        double us = cpu_us() - t0;
        if (pz)
            fail_msg("case %zu generated", i);
        assert_non_null(err);
        assert_true(strlen(err) > 10);
        /* refused before any work: far below the 50 ms the issue allows
         * (thread CPU time, so a loaded machine cannot fail it) */
        assert_true(us < 50000);
    }
    pz_params p = params(25, 20, PZ_HARD);
    p.kind = PZ_SUM;
    const char *err = NULL;
    assert_null(K->generate(&p, 1, &err));
    assert_non_null(err);
}

/* Whatever a reader accepts is safe: it round-trips, its exit is reachable,
 * and a solution from the start replays. */
static void check_accepted(pz_puzzle *pz)
{
    char *d = K->encode_desc(pz);
    const char *err = NULL;
    pz_puzzle *again = K->decode_desc(params_of(pz), d, &err);
    if (!again)
        fail_msg("accepted puzzle's description refused: %s", err);
    char *d2 = K->encode_desc(again);
    assert_string_equal(d, d2);
    int max = max_solution(pz);
    pz_move *sol = malloc(sizeof *sol * (size_t)max);
    int n = K->solve(pz, NULL, sol, max);
    assert_true(n >= 1);
    pz_state *st = K->new_state(pz);
    for (int i = 0; i < n; i++)
        assert_null(K->execute_move(pz, st, sol[i], st));
    assert_true(K->is_solved(pz, st));
    K->free_state(st);
    free(sol);
    free(d);
    free(d2);
    K->free_puzzle(again);
}

/* Random damage to valid text forms and descriptions: never a crash (the
 * sanitizer build watches), always a message, and whatever is accepted is
 * sound. Bounded in count. */
static void test_mutations(void **ctx)
{
    (void)ctx;
    rng_t r;
    rng_seed(&r, 2024);
    static const char alphabet[] = "O.se\r\n xAZaz09-_.\0";
    pz_params p = params(12, 9, PZ_MEDIUM);
    int accepted = 0, refused = 0;
    for (int round = 0; round < 300; round++) {
        const char *err = NULL;
        pz_puzzle *base = K->generate(&p, (uint64_t)round + 1, &err);
        assert_non_null(base);
        char *text = K->format_text(base), *desc = K->encode_desc(base);
        for (int m = 0; m < 20; m++) {
            /* text: overwrite, delete or insert a few bytes */
            size_t len = strlen(text);
            char *t = mr_alloc(len + 8, 1);
            memcpy(t, text, len);
            int edits = 1 + (int)rng_below(&r, 3);
            for (int e = 0; e < edits && len > 0; e++) {
                size_t at = rng_below(&r, (uint32_t)len);
                char c = alphabet[rng_below(&r, sizeof alphabet - 1)];
                switch (rng_below(&r, 3)) {
                case 0:
                    t[at] = c;
                    break;
                case 1:
                    memmove(t + at, t + at + 1, len - at - 1);
                    len--;
                    break;
                default:
                    memmove(t + at + 1, t + at, len - at);
                    t[at] = c;
                    len++;
                    break;
                }
            }
            pz_error perr;
            memset(&perr, 0, sizeof perr);
            pz_puzzle *pz = K->parse_text(t, len, &perr);
            if (pz) {
                accepted++;
                check_accepted(pz);
                K->free_puzzle(pz);
            } else {
                refused++;
                assert_true(perr.msg[0] != '\0');
                assert_true(perr.line >= 1 && perr.col >= 1);
            }
            free(t);

            /* description: overwrite one character */
            char *d = mr_strdup(desc);
            d[rng_below(&r, (uint32_t)strlen(d))] = alphabet[rng_below(&r, sizeof alphabet - 2)];
            err = NULL;
            pz = K->decode_desc(&p, d, &err);
            if (pz) {
                check_accepted(pz);
                K->free_puzzle(pz);
            } else {
                assert_non_null(err);
            }
            free(d);
        }
        free(text);
        free(desc);
        K->free_puzzle(base);
    }
    /* both outcomes happen, or the mutations test nothing */
    assert_true(accepted > 0);
    assert_true(refused > 0);
}

/* Random bit patterns as moves on random puzzles: the state always stays on
 * a cell that is not a boulder, and a rejected move changes nothing. */
static void test_random_moves(void **ctx)
{
    (void)ctx;
    rng_t r;
    rng_seed(&r, 77);
    int trapped = 0;
    for (int round = 0; round < 50; round++) {
        pz_params p = params(8 + (int)rng_below(&r, 66), 8 + (int)rng_below(&r, 40), PZ_HARD);
        const char *err = NULL;
        pz_puzzle *pz = K->generate(&p, (uint64_t)round, &err);
        if (!pz)
            fail_msg("%dx%d hard: %s", p.w, p.h, err);
        pz_state *st = K->new_state(pz), *to = K->new_state(pz);
        for (int i = 0; i < 2000 && !K->is_solved(pz, st); i++) {
            uint64_t bits = rng_u64(&r);
            pz_move m;
            /* mostly well-formed steps, sometimes anything at all */
            if (bits & 1) {
                m = step((int)((bits >> 1) & 3));
            } else {
                m.type = (uint8_t)(bits >> 8);
                m.dir = (uint8_t)(bits >> 16);
                m.x = (uint16_t)(bits >> 24);
                m.y = (uint16_t)(bits >> 40);
            }
            int bx, by, ax, ay;
            K->copy_state(to, st);
            ice_pos(to, &bx, &by);
            const char *why = K->execute_move(pz, st, m, to);
            ice_pos(to, &ax, &ay);
            if (why) {
                assert_int_equal(ax, bx);
                assert_int_equal(ay, by);
            } else {
                int sx, sy;
                ice_slide(pz, bx, by, m.dir, &sx, &sy);
                assert_int_equal(ax, sx);
                assert_int_equal(ay, sy);
                assert_true(ax != bx || ay != by);
            }
            assert_true(ice_cell(pz, ax, ay) != 'O');
            K->copy_state(st, to);
        }
        /* Whatever happened, the solver agrees with a plain search from here:
         * slides are one-way, so a player can end in a pocket with no way to
         * the exit (docs/kinds/ice.md, "Traps"); then the solver restarts. */
        int max = max_solution(pz), px, py;
        pz_move *sol = malloc(sizeof *sol * (size_t)max);
        ice_pos(st, &px, &py);
        int n = K->solve(pz, st, sol, max);
        int direct = naive_moves_from(pz, px, py);
        if (direct < 0) {
            /* trapped: the solver's way out starts with a restart */
            trapped++;
            assert_true(n >= 1);
            assert_int_equal(sol[0].type, PZ_MOVE_RESTART);
            assert_int_equal(n, 1 + naive_moves_from(pz, start_x(pz), params_of(pz)->h - 1));
        } else {
            assert_int_equal(n, direct);
        }
        {
            for (int i = 0; i < n; i++)
                assert_null(K->execute_move(pz, st, sol[i], st));
            assert_true(K->is_solved(pz, st));
        }
        free(sol);
        K->free_state(st);
        K->free_state(to);
        K->free_puzzle(pz);
    }
    /* random walks do get stuck; this keeps the -1 path exercised */
    assert_true(trapped > 0);
}

/* tests/catalogue/ice.txt: "game-ID description" per line. MR_UPDATE_CATALOGUE=1
 * rewrites it; otherwise any difference fails, so that a change to
 * generation is always deliberate. */
static void test_catalogue(void **ctx)
{
    (void)ctx;
    static const int sizes[][2] = {{25, 20}, {35, 30}, {8, 8}};
    size_t cap = 1 << 16, len = 0;
    char *want = mr_alloc(cap, 1);
    for (size_t s = 0; s < MR_ARRAY_LEN(sizes); s++)
        for (int d = 0; d < PZ_DIFF_COUNT; d++) {
            int seeds = s == 0 ? 10 : 2;
            if (sizes[s][0] == 8 && d == PZ_HARD)
                seeds = 3;
            for (int seed = 1; seed <= seeds; seed++) {
                pz_params p = params(sizes[s][0], sizes[s][1], d);
                const char *err = NULL;
                pz_puzzle *pz = K->generate(&p, (uint64_t)seed, &err);
                assert_non_null(pz);
                char *desc = K->encode_desc(pz);
                static const char *names[] = {"easy", "medium", "hard"};
                if (len + strlen(desc) + 64 > cap) {
                    cap *= 2;
                    want = mr_realloc(want, cap, 1);
                }
                len += (size_t)snprintf(want + len, cap - len, "ice:%dx%d:%s#%d %s\n", p.w, p.h, names[d],
                                        seed, desc);
                free(desc);
                K->free_puzzle(pz);
            }
        }
    const char *path = MR_SOURCE_DIR "/tests/catalogue/ice.txt";
    const char *update = getenv("MR_UPDATE_CATALOGUE");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(want, 1, len, f), len);
        assert_int_equal(fclose(f), 0);
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (MR_UPDATE_CATALOGUE=1 writes it)", path);
    char *have = mr_alloc(len + 2, 1);
    size_t got = fread(have, 1, len + 1, f);
    fclose(f);
    if (got != len || memcmp(have, want, len) != 0) {
        /* point at the first line that differs */
        size_t i = 0, line = 1;
        while (i < len && i < got && have[i] == want[i])
            line += want[i++] == '\n';
        fail_msg("%s differs from generation at line %zu: regenerate with MR_UPDATE_CATALOGUE=1 "
                 "only if the change is deliberate",
                 path, line);
    }
    free(have);
    free(want);
}

/* Slides are one-way, so a player can end up where the exit cannot be
 * reached: RESTART takes them back to the start, and solve() from such a
 * state begins with a restart. */
static void test_restart_out_of_a_trap(void **ctx)
{
    (void)ctx;
    int trapped = 0;
    for (uint64_t seed = 1; seed <= 300 && trapped < 20; seed++) {
        pz_params p = params(25, 20, PZ_MEDIUM);
        const char *err = NULL;
        pz_puzzle *pz = K->generate(&p, seed, &err);
        assert_non_null(pz);
        pz_state *st = K->new_state(pz), *tmp = K->new_state(pz);
        pz_move restart = {.type = PZ_MOVE_RESTART};
        assert_string_equal(K->execute_move(pz, st, restart, tmp), "already at the start");
        rng_t r;
        rng_seed(&r, seed);
        int max = max_solution(pz);
        pz_move *sol = mr_alloc((size_t)max, sizeof *sol);
        for (int i = 0; i < 40 && !K->is_solved(pz, st); i++) {
            K->execute_move(pz, st, step((int)rng_below(&r, 4)), st);
            int sx, sy;
            ice_pos(st, &sx, &sy);
            if (K->is_solved(pz, st) || naive_moves_from(pz, sx, sy) >= 0)
                continue;
            /* Trapped: the only way on is a restart. */
            trapped++;
            int n = K->solve(pz, st, sol, max);
            assert_true(n >= 2);
            assert_int_equal(sol[0].type, PZ_MOVE_RESTART);
            K->copy_state(tmp, st);
            pz_move bad = restart;
            bad.dir = 1;
            assert_non_null(K->execute_move(pz, tmp, bad, tmp));
            for (int j = 0; j < n; j++)
                assert_null(K->execute_move(pz, tmp, sol[j], tmp));
            assert_true(K->is_solved(pz, tmp));
            assert_string_equal(K->execute_move(pz, tmp, restart, tmp), "puzzle already solved");
            break;
        }
        free(sol);
        K->free_state(st);
        K->free_state(tmp);
        K->free_puzzle(pz);
    }
    assert_true(trapped >= 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_properties_easy),
        cmocka_unit_test(test_properties_medium),
        cmocka_unit_test(test_properties_hard),
        cmocka_unit_test(test_properties_other_sizes),
        cmocka_unit_test(test_seeds_and_bands_differ),
        cmocka_unit_test(test_moves_and_accessors),
        cmocka_unit_test(test_text_rejects),
        cmocka_unit_test(test_text_accepts),
        cmocka_unit_test(test_desc_rejects),
        cmocka_unit_test(test_impossible_params),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_random_moves),
        cmocka_unit_test(test_catalogue),
        cmocka_unit_test(test_restart_out_of_a_trap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
