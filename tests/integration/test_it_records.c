/* test_it_records.c: the server's match records end to end: bots race through the real server, the database
 * holds exactly their games, the replays (fetched over the wire and dumped by the operator tool) replay to
 * the same results, and kill -9 during a run of races never corrupts the file or loses a committed game. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cl_net.h"
#include "it_proc.h"
#include "replay.h"
#include "st.h"
#include "util.h"

static char dir[256], db[320];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "%s/mr_records_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(dir));
    snprintf(db, sizeof db, "%s/matches.db", dir);
    return 0;
}

static int teardown(void **state)
{
    it_teardown(state);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    return 0;
}

/* One "match ..." line of mazerace-bot. */
typedef struct seen {
    char bot[32], game_id[256], winner[32], p0[32], p1[32];
    int game_no;
    unsigned t0, t1, m0, m1;
} seen;

/* "match rec-1 #2 (maze:8x8:easy#123): won; winner rec-1 (solved); times 320/320 ms; moves 16/15; rec-1 vs
 * rec-2; score 1-0" */
static bool parse_line(const char *line, seen *s)
{
    char result[32], how[32];
    memset(s, 0, sizeof *s);
    return sscanf(line,
                  "match %31s #%d (%255[^)]): %31[^;]; winner %31s (%31[^)]); times %u/%u ms; moves %u/%u; "
                  "%31s vs %31[^;]",
                  s->bot, &s->game_no, s->game_id, result, s->winner, how, &s->t0, &s->t1, &s->m0, &s->m1,
                  s->p0, s->p1) == 12;
}

static int server_up(it_proc *sv, const char *dbarg)
{
    const char *extra[] = {"--no-discovery", "--countdown", "0.2", "--log-level",
                           "warn",           "--db",        dbarg, NULL};
    int port = it_server_start(sv, MR_SERVER_PATH, extra);
    assert_true(port > 0);
    return port;
}

/* Runs the bots to their end; keeps the match lines of the bots that
 * create the rooms (odd numbers: each game once). */
static int play(int port, const char *name, int bots, int matches, seen *out, int max)
{
    char addr[32], nb[8], nm[8];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    snprintf(nb, sizeof nb, "%d", bots);
    snprintf(nm, sizeof nm, "%d", matches);
    char *argv[] = {MR_BOT_PATH, "--server", addr,           "--bots",    nb,       "--kind", "maze",
                    "--size",    "8x8",      "--difficulty", "easy",      "--pace", "10",     "--matches",
                    nm,          "--name",   (char *)name,   "--timeout", "60",     NULL};
    it_proc bot;
    assert_true(it_proc_spawn(&bot, argv));
    char line[1024];
    int n = 0;
    while (it_proc_line(&bot, line, sizeof line, 60000, "bot")) {
        seen s;
        if (parse_line(line, &s) && strcmp(s.bot, s.p0) == 0 && n < max)
            out[n++] = s;
    }
    int code = -1;
    assert_true(it_proc_wait(&bot, 5000, &code, "bot"));
    assert_int_equal(code, 0);
    return n;
}

/* The newest rows (up to max), oldest first; waits (bounded) until there are at least want. */
static int read_db(st_match *rows, int max, int want)
{
    char err[512];
    for (int tries = 0; tries < 500; tries++) {
        st *s = st_open(db, ST_OPEN_READONLY, err, sizeof err);
        if (s) {
            st_match *r = NULL;
            int n = 0;
            assert_null(st_recent(s, 0, max, &r, &n));
            if (n >= want || tries == 499) {
                for (int i = 0; i < n; i++) {
                    bool found = false;
                    assert_null(st_get(s, r[n - 1 - i].id, &rows[i], &found)); /* with its moves */
                    assert_true(found);
                }
                st_matches_free(r, n);
                st_close(s);
                return n;
            }
            st_matches_free(r, n);
            st_close(s);
        }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* The replay text through the engine: its result must be the bots'. */
static void check_replay(const char *text, const seen *s)
{
    pz_error e;
    replay *rp = replay_parse(text, strlen(text), &e);
    if (!rp)
        fail_msg("replay does not parse: %d:%d %s", e.line, e.col, e.msg);
    match_result res;
    const char *why = replay_check(rp, &res, &e);
    if (why)
        fail_msg("replay does not check: %s", why);
    assert_string_equal(replay_name(rp, 0), s->p0);
    assert_string_equal(replay_name(rp, 1), s->p1);
    assert_int_equal(res.winner, strcmp(s->winner, s->p0) == 0 ? 0 : 1);
    assert_int_equal(res.reason, MATCH_END_SOLVED);
    assert_int_equal(res.moves[0], s->m0);
    assert_int_equal(res.moves[1], s->m1);
    if (strchr(s->game_id, '#')) /* played from a seeded ID: the optional `seeded` line keeps it */
        assert_string_equal(replay_seeded_id(rp), s->game_id);
    replay_destroy(rp);
}

/* A client connection to the server, CONNECTED. */
static cl_net_t *client(int port)
{
    const char *err = NULL;
    cl_net_t *n = cl_net_create("asker", &err);
    assert_non_null(n);
    assert_null(cl_net_connect(n, "127.0.0.1", port, mr_now_us() / 1000));
    cl_net_event ev;
    for (int i = 0; i < 5000; i++) {
        while (cl_net_poll(n, mr_now_us() / 1000, &ev))
            if (ev.type == CL_EV_CONNECTED)
                return n;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    fail_msg("no CONNECTED in 5 s");
    return NULL;
}

/* The answer to request req (its data stays valid until the next poll). */
static void answer(cl_net_t *n, int type, uint32_t req, cl_net_event *ev)
{
    assert_true(req != 0);
    for (int i = 0; i < 10000; i++) {
        while (cl_net_poll(n, mr_now_us() / 1000, ev))
            if (ev->type == type && ev->req == req)
                return;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    fail_msg("no answer to request %u in 10 s", req);
}

/* Runs argv to its end; its output as one string (malloc'd). */
static char *run_capture(char *const argv[], int *code)
{
    it_proc p;
    assert_true(it_proc_spawn(&p, argv));
    size_t cap = 1 << 16, len = 0;
    char *out = mr_alloc(cap, 1);
    char line[4096];
    while (it_proc_line(&p, line, sizeof line, 10000, "tool")) {
        size_t n = strlen(line);
        if (len + n + 2 > cap)
            out = mr_realloc(out, cap *= 2, 1);
        memcpy(out + len, line, n);
        len += n;
        out[len++] = '\n';
    }
    out[len] = '\0';
    assert_true(it_proc_wait(&p, 5000, code, "tool"));
    return out;
}

/* mazerace-server with a tool's flags on the test's database. */
static char *tool(const char *flag, const char *arg, int *code)
{
    char *argv[] = {MR_SERVER_PATH, "--db", db, (char *)flag, (char *)arg, NULL};
    return run_capture(argv, code);
}

static void test_three_matches(void **state)
{
    (void)state;
    it_proc sv;
    int port = server_up(&sv, db);
    seen games[8];
    int ng = play(port, "rec", 2, 3, games, 8);
    assert_int_equal(ng, 3);

    /* The database holds exactly those three, in order, with the bots' winners and moves. */
    st_match rows[8];
    int nr = read_db(rows, 8, 3);
    assert_int_equal(nr, 3);
    for (int i = 0; i < 3; i++) {
        const st_match *r = &rows[i];
        const seen *s = &games[i];
        assert_string_equal(r->game_id, s->game_id);
        assert_string_equal(r->mode, "server");
        assert_string_equal(r->p[0].name, s->p0);
        assert_string_equal(r->p[1].name, s->p1);
        assert_true(r->winner == 0 || r->winner == 1);
        assert_string_equal(r->p[r->winner].name, s->winner);
        assert_int_equal(r->ending, ST_END_SOLVED);
        assert_int_equal(r->p[0].moves, s->m0);
        assert_int_equal(r->p[1].moves, s->m1);
        assert_int_equal(r->p[0].time_ms, s->t0);
        assert_int_equal(r->nmoves, s->m0 + s->m1);
        assert_true(r->start_utc_ms > 1700000000000); /* a wall-clock time */
        assert_true(r->desc_id && strncmp(r->desc_id, "maze:8x8:", 9) == 0);
    }

    /* Over the wire: recent matches, best times, the replay. */
    cl_net_t *n = client(port);
    cl_net_event ev;
    answer(n, CL_EV_RECENT, cl_net_request_recent(n, 0, 10), &ev);
    assert_int_equal(ev.code, 0);
    assert_int_equal(ev.recent->count, 3);
    assert_true(ev.recent->next_before == 0);
    for (int i = 0; i < 3; i++) {
        const wire_recent_entry *e = &ev.recent->e[i];
        const st_match *r = &rows[2 - i]; /* newest first */
        assert_true(e->match_id == (uint64_t)r->id);
        assert_string_equal(e->game_id, r->game_id);
        assert_int_equal(e->winner, r->winner);
        assert_int_equal(e->player[0].moves, r->p[0].moves);
        assert_int_equal(e->params.kind, PZ_MAZE);
        assert_int_equal(e->params.w, 8);
    }
    /* Paged: one at a time, following next_before. */
    uint64_t before = 0;
    for (int i = 0; i < 3; i++) {
        answer(n, CL_EV_RECENT, cl_net_request_recent(n, before, 1), &ev);
        assert_int_equal(ev.recent->count, 1);
        assert_true(ev.recent->e[0].match_id == (uint64_t)rows[2 - i].id);
        before = ev.recent->next_before;
        assert_true(before == (uint64_t)rows[2 - i].id);
    }
    answer(n, CL_EV_RECENT, cl_net_request_recent(n, before, 1), &ev);
    assert_int_equal(ev.recent->count, 0);

    answer(n, CL_EV_BEST, cl_net_request_best(n, games[0].game_id, 0, 10), &ev);
    assert_int_equal(ev.code, 0);
    assert_true(ev.best->count >= 1);
    assert_string_equal(ev.best->e[0].name, games[0].winner);
    assert_true(ev.best->e[0].match_id == (uint64_t)rows[0].id);
    answer(n, CL_EV_BEST, cl_net_request_best(n, NULL, rows[1].desc_hash, 10), &ev);
    assert_true(ev.best->count >= 1 && ev.best->e[0].match_id == (uint64_t)rows[1].id);

    for (int i = 0; i < 3; i++) {
        answer(n, CL_EV_REPLAY, cl_net_fetch_replay(n, (uint64_t)rows[i].id), &ev);
        assert_int_equal(ev.code, 0);
        assert_true(ev.match_id == (uint64_t)rows[i].id);
        check_replay(ev.replay, &games[i]);
    }
    answer(n, CL_EV_REPLAY, cl_net_fetch_replay(n, 999999), &ev);
    assert_int_equal(ev.code, WIRE_ERR_NO_MATCH);
    cl_net_destroy(n);

    /* The operator tools, while the server runs on the file. */
    int code = -1;
    char *list = tool("--list-matches", "10", &code);
    assert_int_equal(code, 0);
    int lines = 0;
    for (char *p = list; (p = strchr(p, '\n')); p++)
        lines++;
    assert_int_equal(lines, 4); /* header + 3 */
    assert_non_null(strstr(list, games[2].game_id));
    assert_non_null(strstr(list, "\tsolved\n"));
    free(list);
    for (int i = 0; i < 3; i++) {
        char id[24];
        snprintf(id, sizeof id, "%lld", (long long)rows[i].id);
        char *text = tool("--dump-replay", id, &code);
        assert_int_equal(code, 0);
        check_replay(text, &games[i]);
        free(text);
    }
    /* mazerace-bot asks the running server the same over the wire. */
    char addr[32], id2[24];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    snprintf(id2, sizeof id2, "%lld", (long long)rows[1].id);
    char *bargv[] = {MR_BOT_PATH, "--server", addr, "--fetch-replay", id2, NULL};
    char *text = run_capture(bargv, &code);
    assert_int_equal(code, 0);
    check_replay(text, &games[1]);
    free(text);
    char *rargv[] = {MR_BOT_PATH, "--server", addr, "--recent", "2", NULL};
    list = run_capture(rargv, &code);
    assert_int_equal(code, 0);
    lines = 0;
    for (char *p = list; (p = strchr(p, '\n')); p++)
        lines++;
    assert_int_equal(lines, 3); /* header + the newest 2 */
    assert_non_null(strstr(list, games[2].game_id));
    assert_null(strstr(list, games[0].game_id));
    assert_non_null(strstr(list, "Z\t")); /* the start as ISO UTC, as --list-matches */
    char ending[32];
    snprintf(ending, sizeof ending, "\t%s\n", st_ending_text(rows[0].ending)); /* the word, not a number */
    assert_non_null(strstr(list, ending));
    free(list);

    char *none = tool("--dump-replay", "424242", &code);
    assert_int_equal(code, 1);
    assert_non_null(strstr(none, "no match 424242"));
    free(none);
    for (int i = 0; i < nr; i++)
        st_match_free(&rows[i]);

    it_proc_signal(&sv, SIGTERM);
    assert_true(it_proc_wait(&sv, 10000, &code, "server"));
    assert_int_equal(code, 0);
}

/* --db none: no file, and questions get NO_RECORDS. An explicit database
 * that cannot be used stops the start (exit 2). */
static void test_no_records(void **state)
{
    (void)state;
    it_proc sv;
    int port = server_up(&sv, "none");
    cl_net_t *n = client(port);
    cl_net_event ev;
    answer(n, CL_EV_RECENT, cl_net_request_recent(n, 0, 5), &ev);
    assert_int_equal(ev.code, WIRE_ERR_NO_RECORDS);
    answer(n, CL_EV_REPLAY, cl_net_fetch_replay(n, 1), &ev);
    assert_int_equal(ev.code, WIRE_ERR_NO_RECORDS);
    answer(n, CL_EV_BEST, cl_net_request_best(n, "maze:8x8:easy#1", 0, 5), &ev);
    assert_int_equal(ev.code, WIRE_ERR_NO_RECORDS);
    cl_net_destroy(n);
    it_proc_cleanup(&sv);
    assert_int_not_equal(access(db, F_OK), 0);

    FILE *f = fopen(db, "w");
    assert_non_null(f);
    fputs("not a database, just text\n", f);
    fclose(f);
    char *argv[] = {MR_SERVER_PATH, "--port", "0", "--no-discovery", "--db", db, NULL};
    it_proc p;
    assert_true(it_proc_spawn(&p, argv));
    char line[1024];
    assert_true(it_proc_expect(&p, "not a mazerace database", line, sizeof line, 10000, "server"));
    int code = -1;
    assert_true(it_proc_wait(&p, 5000, &code, "server"));
    assert_int_equal(code, 2);
}

/* The same foreign file as the default database: the server says why and
 * starts without records. */
static void test_default_db_unusable(void **state)
{
    (void)state;
    char sd[400];
    snprintf(sd, sizeof sd, "%s/state", dir);
    assert_int_equal(mkdir(sd, 0700), 0);
    char path[480];
    snprintf(path, sizeof path, "%s/matches.db", sd);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("not a database, just text\n", f);
    fclose(f);
    setenv("STATE_DIRECTORY", sd, 1);
    const char *extra[] = {"--no-discovery", NULL};
    it_proc sv;
    int port = it_server_start(&sv, MR_SERVER_PATH, extra);
    unsetenv("STATE_DIRECTORY");
    assert_true(port > 0);
    cl_net_t *n = client(port);
    cl_net_event ev;
    answer(n, CL_EV_RECENT, cl_net_request_recent(n, 0, 5), &ev);
    assert_int_equal(ev.code, WIRE_ERR_NO_RECORDS);
    cl_net_destroy(n);
    it_proc_cleanup(&sv);
}

#define PAIRS 4

/* Runs PAIRS rooms of bots until each creating bot has reported `per`
 * games, then kills the server with SIGKILL; returns the games seen. */
static int race_and_kill(const char *name, seen *out, int max, int per)
{
    it_proc sv;
    int port = server_up(&sv, db);
    char addr[32], nb[8];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    snprintf(nb, sizeof nb, "%d", 2 * PAIRS);
    char *argv[] = {MR_BOT_PATH, "--server", addr,           "--bots",    nb,       "--kind", "maze",
                    "--size",    "8x8",      "--difficulty", "easy",      "--pace", "5",      "--matches",
                    "1000",      "--name",   (char *)name,   "--timeout", "60",     NULL};
    it_proc bot;
    assert_true(it_proc_spawn(&bot, argv));
    char line[1024];
    int n = 0, per_bot[2 * PAIRS + 1] = {0}, done = 0;
    while (done < PAIRS && it_proc_line(&bot, line, sizeof line, 30000, "bot")) {
        seen s;
        if (!parse_line(line, &s) || strcmp(s.bot, s.p0) != 0 || n >= max)
            continue;
        out[n++] = s;
        int k = atoi(strrchr(s.bot, '-') + 1);
        if (k >= 1 && k <= 2 * PAIRS && ++per_bot[k] == per)
            done++;
        it_proc_drain(&sv, "server", NULL, NULL);
    }
    assert_int_equal(done, PAIRS);
    it_proc_signal(&sv, SIGKILL); /* at once: races are running, records being written */
    int code = -1;
    assert_true(it_proc_wait(&sv, 5000, &code, "server"));
    assert_int_equal(code, 128 + SIGKILL);
    it_proc_cleanup(&bot);
    return n;
}

static void integrity_ok(void)
{
    sqlite3 *d = NULL;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK); /* recovers the WAL */
    sqlite3_stmt *q = NULL;
    assert_int_equal(sqlite3_prepare_v2(d, "PRAGMA integrity_check", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(q, 0), "ok");
    sqlite3_finalize(q);
    sqlite3_close(d);
}

/* Every room's records are the games its bots saw end, in order, with no
 * hole: all of them but at most the last one (killed before its commit);
 * the database may hold one the bots had not reported yet. */
static void check_rooms(const seen *g, int ng, const st_match *rows, int nr, const char *name)
{
    for (int k = 1; k < 2 * PAIRS; k += 2) {
        char creator[32];
        snprintf(creator, sizeof creator, "%s-%d", name, k);
        const char *want[64];
        int nw = 0, nh = 0;
        for (int i = 0; i < ng && nw < 64; i++)
            if (strcmp(g[i].p0, creator) == 0)
                want[nw++] = g[i].game_id;
        for (int i = 0; i < nr; i++) {
            if (strcmp(rows[i].p[0].name, creator) != 0)
                continue;
            if (nh < nw && strcmp(rows[i].game_id, want[nh]) != 0)
                fail_msg("%s: record %d is %s, the bots saw %s", creator, nh, rows[i].game_id, want[nh]);
            assert_int_equal(rows[i].ending, ST_END_SOLVED);
            assert_int_equal(rows[i].nmoves, rows[i].p[0].moves + rows[i].p[1].moves);
            nh++;
        }
        if (nh < nw - 1)
            fail_msg("%s: the bots saw %d games end, the database has %d", creator, nw, nh);
        assert_true(nh <= nw + 1);
        print_message("%s: bots saw %d games end, %d in the database\n", creator, nw, nh);
    }
}

static void test_kill9_durable(void **state)
{
    (void)state;
    enum { MAX = 400 };
    seen *g = mr_alloc(MAX, sizeof *g);
    st_match *rows = mr_alloc(ST_PAGE_MAX, sizeof *rows);
    int before = 0;
    const char *names[2] = {"dur", "again"};
    for (int round = 0; round < 2; round++) {
        int ng = race_and_kill(names[round], g, MAX, 6 + 3 * round);
        integrity_ok();
        int nr = read_db(rows, ST_PAGE_MAX, 0);
        assert_true(nr < ST_PAGE_MAX); /* all of them fit in one page */
        check_rooms(g, ng, rows, nr, names[round]);
        /* The first round's records survived the second kill untouched. */
        int mine = 0;
        for (int i = 0; i < nr; i++)
            mine += strncmp(rows[i].p[0].name, "dur-", 4) == 0;
        if (round == 0)
            before = mine;
        else
            assert_int_equal(mine, before);
        for (int i = 0; i < nr; i++)
            st_match_free(&rows[i]);
    }
    free(rows);
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_three_matches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_records, setup, teardown),
        cmocka_unit_test_setup_teardown(test_default_db_unusable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kill9_durable, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
