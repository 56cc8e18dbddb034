/* test_client_pad.c: gamepads headless through SDL's virtual joystick
 * (SDL_JoystickAttachVirtual, driven by the script's padplug / vpad /
 * padunplug): hot-plug is seen, the menus move and choose with the pad, a
 * race is won with d-pad presses across an unplug and plug, and an action
 * rebound to another pad button in Settings plays from that button and is
 * saved. Plus the pad bindings' rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cl_input.h"
#include "cl_settings.h"
#include "cl_test_util.h"
#include "pipes.h"

static char out[1 << 16];

static void test_pad_bindings(void **ctx)
{
    (void)ctx;
    cl_bindings b;
    cl_bindings_default(&b);
    assert_int_equal(cl_pad_button_act(&b, SDL_CONTROLLER_BUTTON_DPAD_UP), CL_ACT_UP);
    assert_int_equal(cl_pad_button_act(&b, SDL_CONTROLLER_BUTTON_A), CL_ACT_CW);
    assert_int_equal(cl_pad_button_act(&b, SDL_CONTROLLER_BUTTON_B), -1);
    /* Menu buttons are refused; nothing changes. */
    assert_non_null(cl_pad_bind(&b, CL_ACT_CW, SDL_CONTROLLER_BUTTON_B));
    assert_non_null(cl_pad_bind(&b, CL_ACT_CW, SDL_CONTROLLER_BUTTON_START));
    assert_non_null(cl_pad_bind(&b, CL_ACT_CW, SDL_CONTROLLER_BUTTON_MAX));
    assert_int_equal(b.pad[CL_ACT_CW], SDL_CONTROLLER_BUTTON_A);
    /* A button in use swaps places. */
    assert_null(cl_pad_bind(&b, CL_ACT_CW, SDL_CONTROLLER_BUTTON_X));
    assert_int_equal(b.pad[CL_ACT_CW], SDL_CONTROLLER_BUTTON_X);
    assert_int_equal(b.pad[CL_ACT_CCW], SDL_CONTROLLER_BUTTON_A);
    assert_null(cl_pad_bind(&b, CL_ACT_RESTART, SDL_CONTROLLER_BUTTON_RIGHTSHOULDER));
    assert_int_equal(cl_pad_button_act(&b, SDL_CONTROLLER_BUTTON_Y), -1);
    assert_string_equal(cl_pad_button_name(SDL_CONTROLLER_BUTTON_RIGHTSHOULDER), "RB");
    /* Through the settings file and back. */
    cl_settings s, t;
    cl_settings_default(&s);
    s.keys = b;
    char *text = cl_settings_format(&s);
    assert_non_null(strstr(text, "pad.rotate-cw = x\n"));
    cl_settings_default(&t);
    char msg[200];
    assert_int_equal(cl_settings_parse(&t, text, strlen(text), msg, sizeof msg), 0);
    assert_memory_equal(t.keys.pad, b.pad, sizeof b.pad);
    free(text);
    const char *bad = "pad.up = nosuchbutton\npad.jump = a\npad.up = b\n";
    assert_int_equal(cl_settings_parse(&t, bad, strlen(bad), msg, sizeof msg), 3);
    assert_int_equal(t.keys.pad[CL_ACT_UP], SDL_CONTROLLER_BUTTON_DPAD_UP);
}

/* A player's gamecontrollerdb.txt beside the settings adds to SDL's own. */
static void test_pad_mapping_file(void **ctx)
{
    (void)ctx;
    assert_int_equal(SDL_Init(SDL_INIT_GAMECONTROLLER), 0);
    char dir[600];
    snprintf(dir, sizeof dir, "%s/", clt_tmpdir());
    assert_int_equal(cl_pads_add_mappings(dir), 0); /* none there */
    assert_true(clt_write(clt_path("gamecontrollerdb.txt"),
                          "# a pad SDL does not know\n"
                          "03000000aa55000077ee000000000000,Test Pad,a:b0,b:b1,x:b2,y:b3,dpup:h0.1,"
                          "dpdown:h0.4,dpleft:h0.8,dpright:h0.2,platform:Linux,\n"));
    assert_int_equal(cl_pads_add_mappings(dir), 1);
    char *m =
        SDL_GameControllerMappingForGUID(SDL_JoystickGetGUIDFromString("03000000aa55000077ee000000000000"));
    assert_non_null(m);
    assert_non_null(strstr(m, "Test Pad"));
    SDL_free(m);
    SDL_Quit();
}

static void test_pad_menus_and_hotplug(void **ctx)
{
    (void)ctx;
    /* Menu: up twice from the first item wraps to Settings; A chooses it;
     * B goes back. Each wait would stall the script (and the run time out)
     * if the pad did nothing. */
    assert_true(clt_write(clt_path("menu.txt"),
                          "0 wait menu\n+50 padplug\n+100 vpad dpup\n+100 vpad dpup\n"
                          "+100 vpad a\n+100 wait settings\n+100 vpad b\n+100 wait menu\n"
                          "+100 padunplug\n+100 wait menu\n+50 quit\n"));
    const char *args[] = {"--headless", "--script", clt_path("menu.txt"), "--max-seconds", "20", NULL};
    assert_int_equal(clt_run(args, out, sizeof out, 60000), 0);
    assert_non_null(strstr(out, "Gamepad connected"));
    assert_non_null(strstr(out, "Gamepad disconnected"));
}

static const char *const dpad[PZ_DIR_COUNT] = {"dpup", "dpdown", "dpleft", "dpright"};

static void pad_line(char *buf, size_t cap, const char *button)
{
    size_t n = strlen(buf);
    snprintf(buf + n, cap - n, "+60 vpad %s\n", button);
}

/* Runs the game with args: player 1 must win in exactly n moves. */
static void won_in(const char *const args[], int n)
{
    assert_int_equal(clt_run(args, out, sizeof out, 90000), 0);
    assert_non_null(strstr(out, "RESULT winner=0 "));
    char moves[32];
    snprintf(moves, sizeof moves, " moves0=%d ", n);
    assert_non_null(strstr(out, moves));
}

/* The script's lines for moves [from, to) of sol on the virtual pad. */
static void pad_moves(char *buf, size_t cap, const pz_move *sol, int from, int to)
{
    for (int i = from; i < to; i++)
        pad_line(buf, cap, dpad[sol[i].dir]);
}

static void test_pad_race_across_replug(void **ctx)
{
    (void)ctx;
    const char *id = "maze:9x7:easy#11";
    pz_move sol[256];
    pz_puzzle *pz;
    int n = clt_solution(id, sol, 256, &pz);
    assert_true(n > 4);
    static char script[1 << 14];
    snprintf(script, sizeof script, "0 wait race\n+50 padplug\n");
    pad_moves(script, sizeof script, sol, 0, n / 2);
    size_t len = strlen(script);
    snprintf(script + len, sizeof script - len, "+100 padunplug\n+100 padplug\n");
    pad_moves(script, sizeof script, sol, n / 2, n);
    len = strlen(script);
    snprintf(script + len, sizeof script - len, "+0 wait results\n+100 quit\n");
    assert_true(clt_write(clt_path("race.txt"), script));
    const char *args[] = {"--headless",         "--hotseat",     id,   "--script",
                          clt_path("race.txt"), "--max-seconds", "60", NULL};
    won_in(args, n);
    pz_kind_of(pz)->free_puzzle(pz);
}

/* Settings with the pad: "Turn clockwise" rebound to RB, saved; then a
 * pipes race where RB rotates and A (no longer bound) does nothing. */
static void test_pad_rebind_and_play(void **ctx)
{
    (void)ctx;
    /* Settings rows: name, sound, volume, display, scale, level, keys for,
     * up, down, left, right, turn clockwise (the 12th: 11 downs). */
    static char script[1 << 14];
    snprintf(script, sizeof script,
             "0 wait menu\n+50 padplug\n+100 vpad dpup\n+100 vpad dpup\n+100 vpad a\n"
             "+100 wait settings\n");
    for (int i = 0; i < 12; i++) { /* past the 7 general rows and "Keys for" to "Turn clockwise" */
        size_t n = strlen(script);
        snprintf(script + n, sizeof script - n, "+60 vpad dpdown\n");
    }
    size_t n = strlen(script);
    snprintf(script + n, sizeof script - n,
             "+100 vpad a\n+100 vpad rightshoulder\n+100 vpad b\n+100 wait menu\n+50 quit\n");
    assert_true(clt_write(clt_path("rebind.txt"), script));
    const char *settings = clt_path("settings.txt");
    const char *args[] = {"--headless", "--script", clt_path("rebind.txt"),
                          "--settings", settings,   "--max-seconds",
                          "30",         NULL};
    assert_int_equal(clt_run(args, out, sizeof out, 60000), 0);
    cl_settings s;
    char msg[200];
    assert_null(cl_settings_load(&s, settings, msg, sizeof msg));
    assert_int_equal(s.keys.pad[CL_ACT_CW], SDL_CONTROLLER_BUTTON_RIGHTSHOULDER);
    /* Then a pipes race solved on the pad: the cursor on the d-pad, turns
     * on RB (clockwise, rebound) and X (anticlockwise); an A press first,
     * which is bound to nothing now, so the moves are the solution's. */
    const char *id = "pipes:6x4:easy#7";
    pz_move sol[256];
    pz_puzzle *pz;
    int m = clt_solution(id, sol, 256, &pz);
    assert_true(m > 0);
    int cx = 0, cy = pipes_start_row(pz);
    snprintf(script, sizeof script, "0 wait race\n+50 padplug\n+100 vpad a\n");
    for (int i = 0; i < m; i++) {
        for (; cx != sol[i].x; cx += sol[i].x > cx ? 1 : -1)
            pad_line(script, sizeof script, sol[i].x > cx ? "dpright" : "dpleft");
        for (; cy != sol[i].y; cy += sol[i].y > cy ? 1 : -1)
            pad_line(script, sizeof script, sol[i].y > cy ? "dpdown" : "dpup");
        pad_line(script, sizeof script, sol[i].type == PZ_MOVE_ROTATE_CW ? "rightshoulder" : "x");
    }
    n = strlen(script);
    snprintf(script + n, sizeof script - n, "+0 wait results\n+100 quit\n");
    assert_true(clt_write(clt_path("pipes.txt"), script));
    const char *args2[] = {"--headless",          "--hotseat",  id,       "--script",
                           clt_path("pipes.txt"), "--settings", settings, "--no-save",
                           "--max-seconds",       "60",         NULL};
    won_in(args2, m);
    pz_kind_of(pz)->free_puzzle(pz);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pad_bindings),          cmocka_unit_test(test_pad_mapping_file),
        cmocka_unit_test(test_pad_menus_and_hotplug), cmocka_unit_test(test_pad_race_across_replug),
        cmocka_unit_test(test_pad_rebind_and_play),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (rc == 0)
        clt_cleanup();
    return rc;
}
