/* test_client_colours.c: the palette is colour-blind safe. Each pair of
 * colours a player must tell apart (the two players, a player on every
 * floor, water from a dry pipe, a right sum from a wrong one, walls and
 * rocks from the floor) is simulated for protanopia, deuteranopia and
 * tritanopia at full severity with Machado, Oliveira and Fernandes (2009)
 * matrices on linear sRGB, and must stay a minimum CIE76 distance (Delta E
 * in CIELAB, D65) apart in every vision as well as in normal vision. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "cl_draw.h"

enum { NORMAL, PROTAN, DEUTAN, TRITAN, VISIONS };
static const char *const vision_name[VISIONS] = {"normal", "protanopia", "deuteranopia", "tritanopia"};
/* Machado et al. 2009, severity 1.0 (the paper's table, on linear RGB). */
static const double cvd[VISIONS][3][3] = {
    [NORMAL] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
    [PROTAN] = {{0.152286, 1.052583, -0.204868},
                {0.114503, 0.786281, 0.099216},
                {-0.003882, -0.048116, 1.051998}},
    [DEUTAN] = {{0.367322, 0.860646, -0.227968},
                {0.280085, 0.672501, 0.047413},
                {-0.011820, 0.042940, 0.968881}},
    [TRITAN] = {{1.255528, -0.076749, -0.178779},
                {-0.078411, 0.930809, 0.147602},
                {0.004733, 0.691367, 0.303900}},
};

static double to_linear(int c)
{
    double v = c / 255.0;
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double lab_f(double t)
{
    return t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0;
}

/* c as seen in vision v, in CIELAB. */
static void lab_of(SDL_Color c, int v, double lab[3])
{
    double rgb[3] = {to_linear(c.r), to_linear(c.g), to_linear(c.b)}, s[3];
    for (int i = 0; i < 3; i++) {
        s[i] = cvd[v][i][0] * rgb[0] + cvd[v][i][1] * rgb[1] + cvd[v][i][2] * rgb[2];
        s[i] = s[i] < 0 ? 0 : s[i] > 1 ? 1 : s[i];
    }
    double x = 0.4124564 * s[0] + 0.3575761 * s[1] + 0.1804375 * s[2];
    double y = 0.2126729 * s[0] + 0.7151522 * s[1] + 0.0721750 * s[2];
    double z = 0.0193339 * s[0] + 0.1191920 * s[1] + 0.9503041 * s[2];
    double fx = lab_f(x / 0.95047), fy = lab_f(y), fz = lab_f(z / 1.08883);
    lab[0] = 116 * fy - 16;
    lab[1] = 500 * (fx - fy);
    lab[2] = 200 * (fy - fz);
}

static double delta_e(SDL_Color a, SDL_Color b, int v)
{
    double p[3], q[3];
    lab_of(a, v, p);
    lab_of(b, v, q);
    return sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                (p[2] - q[2]) * (p[2] - q[2]));
}

typedef struct pair {
    const char *what;
    const SDL_Color *a, *b;
    double min; /* Delta E required in every vision */
} pair;

static void check(const pair *p, size_t n)
{
    int fails = 0;
    for (size_t i = 0; i < n; i++) {
        double worst = 1e9;
        int wv = 0;
        for (int v = 0; v < VISIONS; v++) {
            double d = delta_e(*p[i].a, *p[i].b, v);
            if (d < worst) {
                worst = d;
                wv = v;
            }
        }
        print_message("%-34s worst %5.1f (%s), needs %4.1f\n", p[i].what, worst, vision_name[wv], p[i].min);
        if (worst < p[i].min)
            fails++;
    }
    assert_int_equal(fails, 0);
}

/* The simulation itself: greys stay grey, and the classic confusion pairs
 * of each vision come out close (so a bad matrix cannot pass everything). */
static void test_simulation_sane(void **ctx)
{
    (void)ctx;
    SDL_Color grey = {128, 128, 128, 255}, red = {220, 40, 40, 255}, green = {60, 150, 40, 255};
    SDL_Color blue = {40, 60, 230, 255}, teal = {40, 160, 100, 255};
    for (int v = 0; v < VISIONS; v++)
        assert_true(delta_e(grey, grey, v) < 1e-9);
    double lab[3];
    lab_of(grey, PROTAN, lab);
    assert_true(fabs(lab[1]) < 2 && fabs(lab[2]) < 2);
    /* Red and green: far apart normally, much closer without L or M cones. */
    assert_true(delta_e(red, green, NORMAL) > 2 * delta_e(red, green, DEUTAN));
    assert_true(delta_e(red, green, NORMAL) > 2 * delta_e(red, green, PROTAN));
    /* Blue and green: much closer without S cones, not so for the others. */
    assert_true(delta_e(blue, teal, TRITAN) * 3 < delta_e(blue, teal, NORMAL));
    assert_true(delta_e(blue, teal, TRITAN) * 2 < delta_e(blue, teal, DEUTAN));
    assert_true(delta_e(red, green, TRITAN) > delta_e(red, green, DEUTAN));
}

static void test_palette_safe_for_colour_blindness(void **ctx)
{
    (void)ctx;
    const pair pairs[] = {
        {"player 1 / player 2", &cl_col_player[0], &cl_col_player[1], 30},
        {"player 1 / player 2 (ghost)", &cl_col_player_soft[0], &cl_col_player_soft[1], 15},
        {"player 1 / maze floor", &cl_col_player[0], &cl_col_floor, 30},
        {"player 2 / maze floor", &cl_col_player[1], &cl_col_floor, 30},
        {"player 1 / floor (alt)", &cl_col_player[0], &cl_col_floor_alt, 30},
        {"player 2 / floor (alt)", &cl_col_player[1], &cl_col_floor_alt, 30},
        {"player 1 / ice", &cl_col_player[0], &cl_col_ice, 30},
        {"player 2 / ice", &cl_col_player[1], &cl_col_ice, 30},
        {"player 1 / panel", &cl_col_player[0], &cl_col_panel, 20},
        {"player 2 / panel", &cl_col_player[1], &cl_col_panel, 20},
        {"player 2 / rock", &cl_col_player[1], &cl_col_rock, 20},
        {"wall / floor", &cl_col_wall, &cl_col_floor, 40},
        {"rock / ice", &cl_col_rock, &cl_col_ice, 30},
        {"water / dry pipe", &cl_col_water, &cl_col_pipe, 20},
        {"right sum / wrong sum", &cl_col_good, &cl_col_bad, 20},
        {"accent / background", &cl_col_accent, &cl_col_bg, 40},
    };
    check(pairs, sizeof pairs / sizeof pairs[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simulation_sane),
        cmocka_unit_test(test_palette_safe_for_colour_blindness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
