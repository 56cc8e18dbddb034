/* test_client_sumdraw.c: a sum board as drawn, read back: every value the rule counts (End's own included) is
 * drawn in its cell and shows on the pixels, with the target and the running sum beside it, at 3x3, 5x4 and
 * 10x10. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cl_app.h"
#include "cl_draw.h"
#include "cl_render.h"
#include "cl_text.h"
#include "sum.h"

enum { W = 1280, H = 720 };

typedef struct canvas {
    SDL_Surface *s;
    SDL_Renderer *ren;
    cl_text *t;
} canvas;

static void canvas_open(canvas *c)
{
    c->s = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(c->s);
    c->ren = SDL_CreateSoftwareRenderer(c->s);
    assert_non_null(c->ren);
    SDL_SetRenderDrawBlendMode(c->ren, SDL_BLENDMODE_BLEND);
    const char *err = NULL;
    c->t = cl_text_create(c->ren, MR_SOURCE_DIR "/assets/fonts/DejaVuSans.ttf",
                          MR_SOURCE_DIR "/assets/fonts/DejaVuSans-Bold.ttf", &err);
    assert_non_null(c->t);
    cl_text_layout(c->t, H);
}

static void canvas_close(canvas *c)
{
    cl_text_destroy(c->t);
    SDL_DestroyRenderer(c->ren);
    SDL_FreeSurface(c->s);
}

static SDL_Color pixel(SDL_Surface *s, int x, int y)
{
    Uint32 v = ((Uint32 *)s->pixels)[y * (s->pitch / 4) + x];
    SDL_Color c;
    SDL_GetRGBA(v, s->format, &c.r, &c.g, &c.b, &c.a);
    return c;
}

static bool near(SDL_Color a, SDL_Color b, int tol)
{
    return abs(a.r - b.r) <= tol && abs(a.g - b.g) <= tol && abs(a.b - b.b) <= tol;
}

/* Pixels of colour c (within tol) inside r. */
static int count(SDL_Surface *s, SDL_Rect r, SDL_Color c, int tol)
{
    int n = 0;
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++)
            if (x >= 0 && y >= 0 && x < s->w && y < s->h && near(pixel(s, x, y), c, tol))
                n++;
    return n;
}

static bool inside(SDL_Rect in, SDL_Rect r)
{
    return r.x >= in.x && r.y >= in.y && r.x + r.w <= in.x + in.w && r.y + r.h <= in.y + in.h;
}

/* The recorded string s in font, its rect inside cell; NULL if none. */
static const cl_text_drawn *find(const cl_text *t, const char *s, int font, SDL_Rect cell)
{
    for (int i = 0; i < cl_text_drawn_count(t); i++) {
        const cl_text_drawn *d = cl_text_drawn_at(t, i);
        if (d->font == font && strcmp(d->s, s) == 0 && inside(cell, d->r))
            return d;
    }
    return NULL;
}

/* Draws st on slot 0's board as the race screen does (vs computer at W x H)
 * and checks every visible cell's value, End's bands and their pixels. */
static void check_state(canvas *c, const pz_puzzle *pz, const pz_state *st)
{
    cl_race r;
    memset(&r, 0, sizeof r);
    cl_race_reset(&r, pz, true, false);
    cl_layout L;
    cl_layout_race(W, H, false, 0, &L);
    cl_view v;
    cl_layout_view(&L, &r, 0, &v);
    /* The race screen's type for sum: 36% of a cell. */
    cl_text_set_size(c->t, v.font, v.cell * 36 / 100);
    SDL_SetRenderDrawColor(c->ren, 0, 0, 0, 255);
    SDL_RenderClear(c->ren);
    cl_text_record(c->t, true);
    cl_render_for(PZ_SUM)->draw(c->ren, c->t, &v, pz, st);
    SDL_RenderPresent(c->ren);
    int w = pz_params_of(pz)->w, h = pz_params_of(pz)->h, ex, ey;
    sum_end(pz, &ex, &ey);
    /* The whole board fits: every cell is in view. */
    assert_int_equal(v.x1 - v.x0, w);
    assert_int_equal(v.y1 - v.y0, h);
    char buf[32];
    const cl_text_drawn *end_value = NULL;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            SDL_Rect cell = cl_view_cell_rect(&v, x, y);
            snprintf(buf, sizeof buf, "%d", sum_value(pz, x, y));
            const cl_text_drawn *d = find(c->t, buf, v.font, cell);
            if (!d)
                fail_msg("%dx%d: the value %s of cell (%d,%d) is not drawn in it", w, h, buf, x, y);
            /* and its glyphs are on the pixels: dark ink in its rect */
            assert_true(count(c->s, d->r, cl_col_wall, 40) >= 6);
            if (x == ex && y == ey)
                end_value = d;
        }
    assert_non_null(end_value);
    /* End's bands: the target and the running sum, in End's cell, neither
     * over End's value. */
    SDL_Rect e = cl_view_cell_rect(&v, ex, ey);
    const cl_text_drawn *goal = NULL, *sum = NULL;
    char g1[32], g2[32], s1[32], s2[32];
    snprintf(g1, sizeof g1, "goal %d", sum_target(pz));
    snprintf(g2, sizeof g2, "%d", sum_target(pz));
    snprintf(s1, sizeof s1, "sum %d", sum_running(st));
    snprintf(s2, sizeof s2, "%d", sum_running(st));
    goal = find(c->t, g1, CL_FONT_CELL_BAND, e);
    if (!goal)
        goal = find(c->t, g2, CL_FONT_CELL_BAND, e);
    sum = find(c->t, s1, CL_FONT_CELL_BAND, e);
    if (!sum)
        sum = find(c->t, s2, CL_FONT_CELL_BAND, e);
    assert_non_null(goal);
    assert_non_null(sum);
    assert_false(SDL_HasIntersection(&goal->r, &end_value->r));
    assert_false(SDL_HasIntersection(&sum->r, &end_value->r));
    assert_true(count(c->s, goal->r, cl_col_accent, 40) >= 4);
    assert_true(cl_text_size(c->t, CL_FONT_CELL_BAND) >= 7);
    cl_text_record(c->t, false);
    cl_race_free(&r);
}

/* A path from Start straight along a row then a column to End (or the
 * other way round): self-avoiding. On End; false if it would not end there. */
static bool l_path(const pz_puzzle *pz, pz_state *st, bool row_first)
{
    const pz_kind *k = pz_kind_of(pz);
    int sx, sy, ex, ey;
    sum_start(pz, &sx, &sy);
    sum_end(pz, &ex, &ey);
    for (int leg = 0; leg < 2; leg++) {
        bool across = (leg == 0) == row_first;
        int n = across ? ex - sx : ey - sy;
        int dir = across ? (n > 0 ? PZ_RIGHT : PZ_LEFT) : (n > 0 ? PZ_DOWN : PZ_UP);
        for (int i = 0; i < abs(n); i++)
            if (k->execute_move(pz, st, (pz_move){.type = PZ_MOVE_STEP, .dir = (uint8_t)dir}, st))
                return false;
    }
    int hx, hy;
    sum_path_cell(st, sum_path_len(st) - 1, &hx, &hy);
    return hx == ex && hy == ey;
}

static void check_size(const char *base)
{
    canvas c;
    canvas_open(&c);
    int wrong_seen = 0;
    for (int seed = 1; seed <= 6; seed++) {
        char id[64], err[160];
        snprintf(id, sizeof id, "%s#%d", base, seed);
        pz_puzzle *pz = pz_from_id(id, err, sizeof err);
        assert_non_null(pz);
        const pz_kind *k = pz_kind_of(pz);
        /* At the start, mid-way, solved on End, and on End with a wrong sum. */
        pz_move sol[512];
        int n = k->solve(pz, NULL, sol, 512);
        assert_true(n > 0);
        pz_state *st = k->new_state(pz);
        check_state(&c, pz, st);
        for (int i = 0; i < n; i++) {
            assert_null(k->execute_move(pz, st, sol[i], st));
            if (i == n / 2)
                check_state(&c, pz, st);
        }
        assert_true(k->is_solved(pz, st));
        check_state(&c, pz, st);
        for (int rf = 0; rf < 2; rf++) {
            pz_state *w = k->new_state(pz);
            if (l_path(pz, w, rf) && !k->is_solved(pz, w)) {
                check_state(&c, pz, w);
                wrong_seen++;
            }
            k->free_state(w);
        }
        k->free_state(st);
        k->free_puzzle(pz);
    }
    assert_true(wrong_seen > 0);
    canvas_close(&c);
}

static void test_sum_3x3(void **ctx)
{
    (void)ctx;
    check_size("sum:3x3:easy");
}
static void test_sum_5x4(void **ctx)
{
    (void)ctx;
    check_size("sum:5x4:medium");
}
static void test_sum_10x10(void **ctx)
{
    (void)ctx;
    check_size("sum:10x10:medium");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sum_3x3),
        cmocka_unit_test(test_sum_5x4),
        cmocka_unit_test(test_sum_10x10),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
