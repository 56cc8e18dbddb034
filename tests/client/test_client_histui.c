/* test_client_histui.c: the real client, headless, with its history in a
 * temporary file: races against the computer are recorded, the results
 * screen shows the best times, the History screen lists the races (checked
 * in its output and in screenshot pixels), and a history file it cannot
 * use is said once while the game goes on. */
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
#include "cl_test_util.h"
#include "clt_history.h"
#include "st_writer.h"
#include "st_engine.h"

enum { W = 1280, H = 720, RUN_MS = 90000 };

static char out[1 << 16];
static const char *const ID = "maze:9x7:easy#5";

/* Menu -> History: the fifth entry. */
#define TO_HISTORY "+100 wait menu\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Return\n"

/* Races ID against the computer with history at path; win: the player
 * solves it while the computer dawdles, else the computer wins at once.
 * then: script lines after the results screen (its screenshot is taken
 * first, into results). */
static int race(const char *history, bool win, const char *results, const char *then)
{
    static char script[1 << 15];
    snprintf(script, sizeof script, "0 wait race\n");
    if (win) {
        pz_move sol[512];
        pz_puzzle *pz;
        int n = clt_solution(ID, sol, 512, &pz);
        assert_true(n > 0);
        int cx = 0, cy = 0;
        clt_script_moves(script, sizeof script, 0, sol, n, 5, &cx, &cy);
        pz_kind_of(pz)->free_puzzle(pz);
    }
    size_t len = strlen(script);
    snprintf(script + len, sizeof script - len, "+0 wait results\n+300 screenshot %s\n%s", results, then);
    assert_true(clt_write(clt_path("race.txt"), script));
    const char *args[] = {"--headless",
                          "--size",
                          "1280x720",
                          "--name",
                          "Ada",
                          "--history",
                          history,
                          "--vs-computer",
                          ID,
                          "--bot-pace",
                          win ? "5000" : "20",
                          "--script",
                          clt_path("race.txt"),
                          "--max-seconds",
                          "80",
                          NULL};
    return clt_run(args, out, sizeof out, RUN_MS);
}

/* Pixels of colour c in the results panel's middle (the best-times lines
 * sit there; the boards' own colours are outside it or covered). */
static int panel_count(SDL_Surface *s, SDL_Color c)
{
    SDL_Rect r = {W / 2 - 300, H / 2 - 120, 600, 240};
    return clt_count(s, r, c, 24);
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void test_results_and_history_screen(void **ctx)
{
    (void)ctx;
    char hist[512], then[1536];
    snprintf(hist, sizeof hist, "%s", clt_path("history.sqlite")); /* clt_path's buffers rotate */
    /* A lost race: recorded; its results show the computer's time as the
     * best on this puzzle (no "new best" for us: nothing green). */
    assert_int_equal(race(hist, false, clt_path("lost.bmp"),
                          "+100 key Escape\n" TO_HISTORY "+100 wait history\n+300 quit\n"),
                     0);
    assert_non_null(strstr(out, "RESULT winner=1 "));
    assert_non_null(strstr(out, "HISTORY page=1 races=1 more=0 newest=maze:9x7:easy#5"));
    SDL_Surface *s = clt_load(clt_path("lost.bmp"));
    assert_non_null(s);
    assert_int_equal(panel_count(s, cl_col_good), 0);
    assert_true(panel_count(s, cl_col_dim) > 200);
    SDL_FreeSurface(s);

    /* A won race on the same puzzle: a new best, drawn in green; then the
     * History screen lists both, newest first. */
    /* ... and the gamepad's A on the newest (after down and up) opens it in the replay screen; Esc comes
     * back to the History screen. */
    char replay_bmp[512];
    snprintf(replay_bmp, sizeof replay_bmp, "%s", clt_path("replay.bmp"));
    snprintf(then, sizeof then,
             "+100 key Escape\n" TO_HISTORY
             "+100 wait history\n+500 screenshot %s\n+100 pad dpdown\n+50 pad dpup\n+50 pad a\n"
             "+100 wait replay\n+300 screenshot %s\n+100 key Escape\n+100 wait history\n+100 quit\n",
             clt_path("history.bmp"), replay_bmp);
    assert_int_equal(race(hist, true, clt_path("won.bmp"), then), 0);
    assert_non_null(strstr(out, "RESULT winner=0 "));
    assert_non_null(strstr(out, "HISTORY page=1 races=2 more=0"));
    /* The replay is the race just won: Ada's moves, none of the computer's. */
    pz_move sol[512];
    pz_puzzle *pz;
    int nsol = clt_solution(ID, sol, 512, &pz);
    pz_kind_of(pz)->free_puzzle(pz);
    char want[160];
    snprintf(want, sizeof want, "REPLAY open history game=");
    assert_non_null(strstr(out, want));
    snprintf(want, sizeof want, " players=Ada,Computer moves=%d ", nsol);
    assert_non_null(strstr(out, want));
    s = clt_load(replay_bmp);
    assert_non_null(s);
    assert_true(clt_count(s, (SDL_Rect){0, 0, W, H}, cl_col_player[0], 6) > 50); /* Ada's marker */
    SDL_FreeSurface(s);
    s = clt_load(clt_path("won.bmp"));
    assert_non_null(s);
    int green = panel_count(s, cl_col_good);
    fprintf(stderr, "won: %d green pixels in the results panel\n", green);
    assert_true(green > 100);
    SDL_FreeSurface(s);
    s = clt_load(clt_path("history.bmp"));
    assert_non_null(s);
    /* Two rows: "won" in green and "lost" in vermillion in the result
     * column; nothing below the second row. */
    SDL_Rect rows = {W * 55 / 100, 100, W * 25 / 100, 120};
    assert_true(clt_count(s, rows, cl_col_good, 24) > 20);
    assert_true(clt_count(s, rows, cl_col_bad, 24) > 20);
    SDL_Rect below = {0, 230, W, 300};
    assert_int_equal(clt_count(s, below, cl_col_panel_hi, 2), 0);
    assert_true(clt_count(s, (SDL_Rect){0, 100, W, 130}, cl_col_panel_hi, 2) > 1000); /* selected row */
    SDL_FreeSurface(s);

    /* Each recorded race replays through the match engine to the result
     * the game showed: same winner, same moves. */
    cl_history *h = cl_history_create(hist, true);
    uint32_t t = cl_history_ask_page(h, 0, 10);
    cl_history_flush(h);
    st_answer p;
    bool more;
    assert_true(cl_history_page(h, t, &p, &more));
    assert_int_equal(p.n, 2);
    for (int i = 0; i < p.n; i++) {
        t = cl_history_ask_race(h, p.matches[i].id);
        cl_history_flush(h);
        st_answer a;
        assert_true(cl_history_race(h, t, &a));
        assert_true(a.found);
        const st_match *r = &a.match;
        assert_int_equal(r->id, p.matches[i].id);
        uint32_t logged = 0;
        for (size_t k = 0; k < r->nmoves; k++)
            logged += r->moves[k].player == r->winner;
        assert_int_equal(logged, r->p[r->winner].moves);
        const char *err = NULL;
        replay *rp = st_to_replay(r, &err);
        if (!rp)
            fprintf(stderr, "replay: %s\n", err);
        assert_non_null(rp);
        match_result res;
        pz_error e;
        const char *why = replay_check(rp, &res, &e);
        if (why)
            fprintf(stderr, "replay_check: %s (line %d)\n", why, e.line);
        assert_null(why);
        assert_int_equal(res.winner, r->winner);
        assert_int_equal(res.moves[0], r->p[0].moves);
        assert_int_equal(res.moves[1], r->p[1].moves);
        replay_destroy(rp);
        st_answer_free(&a);
    }
    st_answer_free(&p);
    cl_history_destroy(h);

    /* The same win without a history draws no best times. */
    assert_int_equal(race("none", true, clt_path("nohist.bmp"), "+100 quit\n"), 0);
    s = clt_load(clt_path("nohist.bmp"));
    assert_non_null(s);
    assert_int_equal(panel_count(s, cl_col_good), 0);
    SDL_FreeSurface(s);
}

/* A corrupt history file: said once, and the race is played to the end. */
static void test_corrupt_history_said_once(void **ctx)
{
    (void)ctx;
    assert_true(clt_write(clt_path("junk.sqlite"), "this is not a database, not even close\n"
                                                   "0123456789abcdef0123456789abcdef0123456789abcdef\n"));
    char junk[512];
    snprintf(junk, sizeof junk, "%s", clt_path("junk.sqlite"));
    assert_int_equal(race(junk, false, clt_path("junk.bmp"),
                          "+100 key Escape\n" TO_HISTORY "+100 wait history\n+300 quit\n"),
                     0);
    assert_non_null(strstr(out, "RESULT winner=1 "));
    assert_int_equal(count_of(out, "History off"), 1);
    assert_non_null(strstr(out, "not a mazerace database"));
    assert_non_null(strstr(out, "HISTORY page=1 races=0"));
}

/* Twelve races: the History screen shows ten, PageDown the other two,
 * the gamepad's left shoulder the first ten again. */
static void test_history_pages(void **ctx)
{
    (void)ctx;
    char hist[512];
    snprintf(hist, sizeof hist, "%s", clt_path("pages.sqlite"));
    cl_history *h = cl_history_create(hist, false);
    for (int i = 1; i <= 12; i++) {
        char id[32];
        snprintf(id, sizeof id, "maze:9x7:easy#%d", i);
        cl_history_add(h, clt_record(CL_HIST_COMPUTER, id, 1795598277 + i, "Ada", "Computer", i % 2,
                                     1000u * (unsigned)i, 1000u * (unsigned)i));
    }
    cl_history_destroy(h);
    assert_true(clt_write(clt_path("pages.txt"),
                          "0 wait menu\n" TO_HISTORY "+100 wait history\n+100 key PageDown\n"
                          "+100 wait history\n+100 pad leftshoulder\n+100 quit\n"));
    const char *args[] = {"--headless",          "--name",        "Ada", "--history", hist, "--script",
                          clt_path("pages.txt"), "--max-seconds", "30",  NULL};
    assert_int_equal(clt_run(args, out, sizeof out, RUN_MS), 0);
    const char *p1 = strstr(out, "HISTORY page=1 races=10 more=1 newest=maze:9x7:easy#12");
    assert_non_null(p1);
    const char *p2 = strstr(p1, "HISTORY page=2 races=2 more=0 newest=maze:9x7:easy#2");
    assert_non_null(p2);
    assert_non_null(strstr(p2, "HISTORY page=1 races=10 more=1 newest=maze:9x7:easy#12"));
}

#if defined(MR_SERVER_BIN) && defined(MR_BOT_BIN)
/* Online: the client races a bot through the real server (which keeps its
 * own records); the race lands in the client's history as an online race
 * against the bot, and the results screen gets the server's best on the
 * puzzle without waiting for it. */
static void test_online_race_and_server_best(void **ctx)
{
    (void)ctx;
    char db[512], hist[512], slog[512];
    snprintf(db, sizeof db, "%s", clt_path("server.db"));
    snprintf(hist, sizeof hist, "%s", clt_path("online.sqlite"));
    snprintf(slog, sizeof slog, "%s", clt_path("server.log"));
    char addr[64];
    pid_t sv = clt_start_server_db(db, slog, addr, sizeof addr);
    assert_true(sv > 0);
    const char *bot_argv[] = {MR_BOT_BIN, "--server",  addr, "--pace", "40",
                              "--quiet",  "--timeout", "60", NULL};
    pid_t bot = clt_spawn(bot_argv, clt_path("bot.log"));
    char script[512];
    snprintf(script, sizeof script,
             "0 wait race\n+0 wait results\n+1500 screenshot %s\n+100 key Escape\n" TO_HISTORY
             "+100 wait history\n+300 key Return\n+100 wait replay\n+300 quit\n",
             clt_path("online.bmp"));
    assert_true(clt_write(clt_path("online.txt"), script));
    const char *args[] = {"--headless",    "--join",    addr, "--quick",  "--name",
                          "Tester",        "--history", hist, "--script", clt_path("online.txt"),
                          "--max-seconds", "60",        NULL};
    int rc = clt_run(args, out, sizeof out, 90000);
    clt_stop(bot);
    clt_stop(sv);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "winner_name=bot"));
    assert_non_null(strstr(out, "SERVER_BEST answered ms="));
    assert_non_null(strstr(out, "name=bot"));
    assert_non_null(strstr(out, "HISTORY page=1 races=1 more=0"));
    /* Its logs (ours as played, the bot's as its progress arrived) replay
     * through the engine: the replay screen opened it. */
    assert_non_null(strstr(out, "REPLAY open history game="));
    cl_history *h = cl_history_create(hist, true);
    uint32_t t = cl_history_ask_page(h, 0, 1);
    cl_history_flush(h);
    st_answer p;
    bool more;
    assert_true(cl_history_page(h, t, &p, &more));
    assert_int_equal(p.n, 1);
    assert_string_equal(p.matches[0].mode, CL_HIST_ONLINE);
    assert_string_equal(p.matches[0].p[p.matches[0].winner].name, "bot");
    st_answer_free(&p);
    cl_history_destroy(h);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_results_and_history_screen),
        cmocka_unit_test(test_corrupt_history_said_once),
        cmocka_unit_test(test_history_pages),
#if defined(MR_SERVER_BIN) && defined(MR_BOT_BIN)
        cmocka_unit_test(test_online_race_and_server_best),
#endif
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (rc == 0)
        clt_cleanup();
    return rc;
}
