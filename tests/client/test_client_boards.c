/* test_client_boards.c: big boards as drawn, read back from the pixels: a
 * pipes 40x40 board's pipes, grid and cursor stand out from their tiles
 * (WCAG contrast ratio >= 3:1), zoom changes the tile size on the screen
 * and stops at the kind's readable minimum, and a maze 1000x1000 gets an
 * overview that shows the goal and never covers the player's cell. */
#include <math.h>
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
#include "cl_overview.h"
#include "cl_render.h"
#include "cl_test_util.h"
#include "cl_zoom.h"
#include "pipes.h"

enum { W = 1280, H = 720 };

static SDL_Surface *surf;
static SDL_Renderer *ren;

static int setup(void **state)
{
    (void)state;
    surf = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    ren = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
    if (ren)
        SDL_SetRenderDrawBlendMode(ren, SDL_BLENDMODE_BLEND);
    return ren ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    SDL_DestroyRenderer(ren);
    SDL_FreeSurface(surf);
    return 0;
}

static SDL_Color pixel(int x, int y)
{
    assert_true(x >= 0 && y >= 0 && x < W && y < H);
    Uint32 v = ((Uint32 *)surf->pixels)[y * (surf->pitch / 4) + x];
    SDL_Color c;
    SDL_GetRGBA(v, surf->format, &c.r, &c.g, &c.b, &c.a);
    return c;
}

/* WCAG 2 relative luminance and contrast ratio. */
static double lum(SDL_Color c)
{
    double ch[3] = {c.r / 255.0, c.g / 255.0, c.b / 255.0};
    for (int i = 0; i < 3; i++)
        ch[i] = ch[i] <= 0.03928 ? ch[i] / 12.92 : pow((ch[i] + 0.055) / 1.055, 2.4);
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
}

static double contrast(SDL_Color a, SDL_Color b)
{
    double la = lum(a), lb = lum(b);
    return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

static bool same(SDL_Color a, SDL_Color b)
{
    return a.r == b.r && a.g == b.g && a.b == b.b;
}

/* A race on id as the race screen sets it up (vs computer, slot 0 local). */
static pz_puzzle *open_race(const char *id, cl_race *r, cl_layout *L)
{
    char err[160];
    pz_puzzle *pz = pz_from_id(id, err, sizeof err);
    assert_non_null(pz);
    memset(r, 0, sizeof *r);
    cl_race_reset(r, pz, true, false);
    cl_layout_race(W, H, false, 0, L);
    return pz;
}

static void draw(const cl_view *v, const pz_puzzle *pz, const pz_state *st)
{
    SDL_SetRenderDrawColor(ren, 0, 0, 0, 255);
    SDL_RenderClear(ren);
    cl_render_for(pz_params_of(pz)->kind)->draw(ren, NULL, v, pz, st);
    SDL_RenderPresent(ren);
}

/* The distance between the grid lines crossing the row through cell
 * (x, y)'s corner pixels: the tile size as the pixels show it. */
static int tile_on_pixels(const cl_view *v, int x, int y)
{
    SDL_Rect c = cl_view_cell_rect(v, x, y);
    int py = c.y + 2; /* near the top edge: no pipe arm reaches there off-centre */
    SDL_Color tile = pixel(c.x + 3, py);
    int first = -1, n = 0, last = -1;
    for (int px = c.x + 3; px < v->area.x + v->area.w && n < 4; px++) {
        SDL_Color p = pixel(px, py);
        bool line = same(p, cl_col_bg) && !same(p, tile);
        if (line && (last < 0 || px > last + 1)) {
            if (first < 0)
                first = px;
            n++;
            last = px;
        } else if (line) {
            last = px;
        }
    }
    assert_true(n >= 2);
    (void)first;
    return n >= 2 ? (last - first + 1) / (n - 1) : 0;
}

static void test_pipes_contrast(void **state)
{
    (void)state;
    cl_race r;
    cl_layout L;
    pz_puzzle *pz = open_race("pipes:40x40:medium#7", &r, &L);
    r.p[0].cur_x = 5;
    r.p[0].cur_y = 7;
    cl_view v;
    cl_layout_view(&L, &r, 0, &v);
    assert_true(v.cursor);
    assert_true(v.cell >= cl_render_for(PZ_PIPES)->min_cell);
    draw(&v, pz, r.p[0].shown);
    /* Every tile away from the cursor: its centre (the pipe's hub) against
     * its corner (the tile) and the grid line at its edge. */
    double worst_pipe = 100, worst_grid = 100;
    for (int y = 0; y < 40; y++)
        for (int x = 0; x < 40; x++) {
            if (abs(x - 5) <= 1 && abs(y - 7) <= 1)
                continue;
            SDL_Rect c = cl_view_cell_rect(&v, x, y);
            SDL_Color tile = pixel(c.x + 2, c.y + 2), hub = pixel(c.x + c.w / 2, c.y + c.h / 2),
                      line = pixel(c.x, c.y + 2);
            double pc = contrast(hub, tile), gc = contrast(line, tile);
            worst_pipe = pc < worst_pipe ? pc : worst_pipe;
            worst_grid = gc < worst_grid ? gc : worst_grid;
        }
    printf("pipes 40x40 at %d px: pipe/tile contrast >= %.2f, grid/tile >= %.2f\n", v.cell, worst_pipe,
           worst_grid);
    assert_true(worst_pipe >= 3.0);
    assert_true(worst_grid >= 1.5);
    /* The cursor: its frame on the cursor tile's left edge against the
     * tile left of it. */
    SDL_Rect k = cl_view_cell_rect(&v, 5, 7), left = cl_view_cell_rect(&v, 4, 7);
    SDL_Color frame = pixel(k.x, k.y + k.h / 2 + 1), around = pixel(left.x + 2, left.y + 2);
    printf("cursor frame/tile contrast %.2f\n", contrast(frame, around));
    assert_true(contrast(frame, around) >= 3.0);
    /* At least 3 px thick: the pixel one in from the edge is the frame too. */
    assert_true(same(pixel(k.x + 1, k.y + k.h / 2 + 1), frame));
    assert_true(same(pixel(k.x - 1, k.y + k.h / 2 + 1), frame));
    /* The End cap: at least 6 x 6 pixels of its colour right of the board. */
    int er = pipes_end_row(pz), n = 0;
    SDL_Rect e = cl_view_cell_rect(&v, 39, er);
    for (int y = e.y; y < e.y + e.h; y++)
        for (int x = e.x + e.w; x < e.x + e.w + 16 && x < W; x++)
            n += same(pixel(x, y), cl_col_good);
    assert_true(n >= 36);
    cl_race_free(&r);
    pz_kind_of(pz)->free_puzzle(pz);
}

static void test_zoom_changes_tile_size(void **state)
{
    (void)state;
    cl_race r;
    cl_layout L;
    pz_puzzle *pz = open_race("pipes:40x40:medium#7", &r, &L);
    cl_view v;
    cl_layout_view(&L, &r, 0, &v);
    int fit = v.cell, min = cl_render_for(PZ_PIPES)->min_cell;
    r.p[0].cur_x = r.p[0].cur_y = 20; /* away from the cursor's frame */
    r.p[0].cam_x = r.p[0].cam_y = 20;
    draw(&v, pz, r.p[0].shown);
    int shown_fit = tile_on_pixels(&v, 10, 10);
    assert_int_equal(shown_fit, fit);
    /* Two steps in: bigger tiles on the screen, the camera on the cursor. */
    int z = cl_zoom_next(fit, fit, min, 1);
    z = cl_zoom_next(z, fit, min, 1);
    assert_true(z > fit);
    r.p[0].zoom_cell = z;
    cl_layout_view(&L, &r, 0, &v);
    assert_int_equal(v.cell, z);
    assert_true(v.x0 <= 20 && 20 < v.x1 && v.y0 <= 20 && 20 < v.y1);
    draw(&v, pz, r.p[0].shown);
    int shown_zoom = tile_on_pixels(&v, 15, 15);
    printf("tile %d px fitted, %d px two zoom steps in\n", shown_fit, shown_zoom);
    assert_int_equal(shown_zoom, z);
    /* Out again: back to the fitted board, never below the readable size. */
    assert_int_equal(cl_zoom_next(z * 4 / 5 + 1, fit, min, -1), 0);
    assert_int_equal(cl_zoom_next(fit, fit, min, 0), 0);
    assert_int_equal(cl_zoom_next(CL_ZOOM_MAX_CELL, fit, min, 1), CL_ZOOM_MAX_CELL);
    r.p[0].zoom_cell = 2; /* below the minimum: clamped to it */
    cl_layout_view(&L, &r, 0, &v);
    assert_int_equal(v.cell, min);
    int dir;
    assert_true(cl_zoom_key(SDLK_EQUALS, &dir) && dir == 1);
    assert_true(cl_zoom_key(SDLK_MINUS, &dir) && dir == -1);
    assert_true(cl_zoom_key(SDLK_0, &dir) && dir == 0);
    assert_false(cl_zoom_key(SDLK_w, &dir));
    cl_race_free(&r);
    pz_kind_of(pz)->free_puzzle(pz);
}

static void test_maze_overview(void **state)
{
    (void)state;
    cl_race r;
    cl_layout L;
    pz_puzzle *pz = open_race("maze:1000x1000:medium#7", &r, &L);
    cl_view v;
    cl_layout_view(&L, &r, 0, &v);
    /* Bottom-left start: the overview must move away from it. */
    int fx, fy;
    cl_race_focus(&r, 0, &fx, &fy);
    SDL_Rect o = cl_overview_rect(&v, fx, fy), c = cl_view_cell_rect(&v, fx, fy);
    assert_true(o.w > 0 && o.h > 0);
    assert_true(o.x >= v.area.x && o.y >= v.area.y && o.x + o.w <= v.area.x + v.area.w &&
                o.y + o.h <= v.area.y + v.area.h);
    assert_false(SDL_HasIntersection(&o, &c));
    /* Wherever the player is, their cell stays uncovered. */
    for (int i = 0; i < 4; i++) {
        int px = i & 1 ? v.x1 - 1 : v.x0, py = i & 2 ? v.y1 - 1 : v.y0;
        SDL_Rect pr = cl_view_cell_rect(&v, px, py), orr = cl_overview_rect(&v, px, py);
        assert_false(SDL_HasIntersection(&orr, &pr));
    }
    SDL_SetRenderDrawColor(ren, 0, 0, 0, 255);
    SDL_RenderClear(ren);
    cl_overview_draw(ren, &v, pz, fx, fy);
    /* The goal (top-right cell) and the player, on the overview's pixels. */
    int goal = 0, player = 0;
    for (int y = o.y; y < o.y + o.h; y++)
        for (int x = o.x; x < o.x + o.w; x++) {
            goal += same(pixel(x, y), cl_col_good) && x > o.x + o.w / 2 && y < o.y + o.h / 2;
            player += same(pixel(x, y), cl_col_player[0]) && x < o.x + o.w / 2 && y > o.y + o.h / 2;
        }
    assert_true(goal >= 9);
    assert_true(player >= 9);
    /* A board that fits whole has none. */
    cl_race r2;
    pz_puzzle *small = open_race("maze:41x31:medium#7", &r2, &L);
    cl_layout_view(&L, &r2, 0, &v);
    assert_int_equal(cl_overview_rect(&v, 0, 30).w, 0);
    cl_race_free(&r2);
    pz_kind_of(small)->free_puzzle(small);
    cl_race_free(&r);
    pz_kind_of(pz)->free_puzzle(pz);
}

/* The real client zoomed in by the = key twice: the tiles on its screenshot
 * are the size two zoom steps give (the key reaches the board). */
static void test_zoom_key_in_client(void **state)
{
    (void)state;
    cl_race r;
    cl_layout L;
    pz_puzzle *pz = open_race("pipes:40x40:medium#7", &r, &L);
    cl_view v;
    cl_layout_view(&L, &r, 0, &v);
    int min = cl_render_for(PZ_PIPES)->min_cell;
    int want = cl_zoom_next(cl_zoom_next(v.cell, v.cell, min, 1), v.cell, min, 1);
    assert_true(clt_write(clt_path("zoom.txt"), "0 wait race\n+100 key =\n+100 key =\n+400 wait race\n"));
    const char *shot = clt_path("zoom.bmp");
    const char *args[] = {"--headless",
                          "--size",
                          "1280x720",
                          "--vs-computer",
                          "pipes:40x40:medium#7",
                          "--script",
                          clt_path("zoom.txt"),
                          "--screenshot",
                          shot,
                          "--max-seconds",
                          "60",
                          NULL};
    static char out[1 << 16];
    assert_int_equal(clt_run(args, out, sizeof out, 60000), 0);
    SDL_Surface *s = clt_load(shot);
    assert_non_null(s);
    /* Grid lines crossing a row in the board's upper left quarter (away
     * from the overview's corners' middle): the distance between them. */
    SDL_Rect a = L.board[0];
    int best = 0;
    for (int y = a.y + a.h / 3; y < a.y + a.h / 3 + want && !best; y++) {
        int starts[8], n = 0, x0 = a.x + a.w / 4;
        /* A line the scan starts inside is not counted: only whole ones. */
        bool was = clt_same(clt_pixel(s, x0 - 1, y), cl_col_bg, 0);
        for (int x = x0; x < a.x + a.w * 3 / 4 && n < 8; x++) {
            bool line = clt_same(clt_pixel(s, x, y), cl_col_bg, 0);
            if (line && !was)
                starts[n++] = x;
            was = line;
        }
        if (n >= 6 && starts[2] - starts[1] == starts[1] - starts[0] &&
            starts[3] - starts[2] == starts[1] - starts[0])
            best = starts[1] - starts[0];
    }
    printf("zoomed in by key: tiles %d px on the screenshot, expected %d (board %d,%d %dx%d)\n", best, want,
           a.x, a.y, a.w, a.h);
    assert_int_equal(best, want);
    SDL_FreeSurface(s);
    cl_race_free(&r);
    pz_kind_of(pz)->free_puzzle(pz);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipes_contrast),
        cmocka_unit_test(test_zoom_changes_tile_size),
        cmocka_unit_test(test_maze_overview),
        cmocka_unit_test(test_zoom_key_in_client),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
