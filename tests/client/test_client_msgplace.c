/* test_client_msgplace.c: messages have a place of their own: at every window size from the smallest allowed
 * (640x360) up, in single, hotseat, watch and replay layouts, the message strip and the text drawn in it
 * (read back from the text record) never overlap a board's rectangle, the HUD or the footer line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cl_app.h"
#include "cl_draw.h"
#include "cl_text.h"

static const int sizes[][2] = {{640, 360}, {800, 600}, {1024, 576}, {1280, 720}, {1600, 900}, {1920, 1080}};

static bool meet(SDL_Rect a, SDL_Rect b)
{
    return a.w > 0 && a.h > 0 && b.w > 0 && b.h > 0 && SDL_HasIntersection(&a, &b);
}

static bool inside(SDL_Rect in, SDL_Rect r)
{
    return r.x >= in.x && r.y >= in.y && r.x + r.w <= in.x + in.w && r.y + r.h <= in.y + in.h;
}

static void check_apart(const cl_layout *L, SDL_Rect msg, int out_w, int out_h, int foot_h)
{
    for (int s = 0; s < 2; s++)
        assert_false(meet(msg, L->board[s]));
    assert_false(meet(msg, L->hud));
    assert_false(meet(msg, L->ghost_info));
    /* The footer (hints and the game ID) is drawn at out_h - its height - 4. */
    assert_true(msg.y + msg.h <= out_h - foot_h - 4);
    assert_true(msg.x >= 0 && msg.x + msg.w <= out_w);
}

static void check_size(int out_w, int out_h)
{
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, out_w, out_h, 32, SDL_PIXELFORMAT_ARGB8888);
    assert_non_null(surf);
    SDL_Renderer *ren = SDL_CreateSoftwareRenderer(surf);
    assert_non_null(ren);
    const char *err = NULL;
    cl_text *t = cl_text_create(ren, MR_SOURCE_DIR "/assets/fonts/DejaVuSans.ttf",
                                MR_SOURCE_DIR "/assets/fonts/DejaVuSans-Bold.ttf", &err);
    assert_non_null(t);
    cl_text_layout(t, out_h);
    int foot_h = cl_text_height(t, CL_FONT_SMALL);
    cl_layout Ls[4];
    cl_layout_race(out_w, out_h, false, 0, &Ls[0]);
    cl_layout_race(out_w, out_h, false, 1, &Ls[1]);
    cl_layout_race(out_w, out_h, true, 0, &Ls[2]);
    cl_layout_watch(out_w, out_h, &Ls[3]);
    cl_replay_layout R;
    cl_layout_replay(out_w, out_h, &R);
    static const char *const words[] = {
        "Computer wants a rematch",
        "Rematch asked - waiting for your opponent to say yes; the next race starts when both have asked",
        "x"};
    for (int i = 0; i < 5; i++) {
        const cl_layout *L = i < 4 ? &Ls[i] : &R.race;
        /* The app draws every message in the race layout's strip. */
        cl_layout any;
        cl_layout_race(out_w, out_h, true, 0, &any);
        SDL_Rect msg = any.msg;
        assert_true(msg.h >= cl_text_height(t, CL_FONT_SMALL));
        check_apart(L, msg, out_w, out_h, foot_h);
        if (i == 4) {
            assert_false(meet(msg, R.bar));
        }
        for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
            cl_text_record(t, true);
            cl_message_draw(ren, t, msg, words[k], k == 1);
            assert_int_equal(cl_text_drawn_count(t), 1);
            const cl_text_drawn *d = cl_text_drawn_at(t, 0);
            assert_true(inside(msg, d->r));
            for (int s = 0; s < 2; s++)
                assert_false(meet(d->r, L->board[s]));
            cl_text_record(t, false);
        }
    }
    cl_text_destroy(t);
    SDL_DestroyRenderer(ren);
    SDL_FreeSurface(surf);
}

static void test_messages_keep_off_the_boards(void **ctx)
{
    (void)ctx;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        check_size(sizes[i][0], sizes[i][1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_messages_keep_off_the_boards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
