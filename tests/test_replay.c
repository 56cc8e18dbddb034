/* test_replay.c: replays: built from matches, parts and store records, written, read back, refused with
 * line:column, checked by the engine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "replay.h"
#include "replay_impl.h" /* replay_date_parse */
#include "st_engine.h"
#include "util.h"

/* A finished race on id: player 0 plays a shortest solution one move every
 * 400 ms from 1000 ms, player 1 the same but slower, stopping one move short. */
static match *raced(const char *id)
{
    char err[160];
    match_config cfg;
    match_config_default(&cfg);
    cfg.countdown_ms = 0;
    match *m = match_create_from_id(id, &cfg, 3, err, sizeof err);
    assert_non_null(m);
    assert_null(match_join(m, 0, "ann", 0, NULL));
    assert_null(match_join(m, 1, "bob", 0, NULL));
    assert_null(match_ready(m, 0, true, 0));
    assert_null(match_ready(m, 1, true, 0));
    const pz_puzzle *pz = match_puzzle(m);
    int max = pz_max_solution(pz);
    pz_move *sol = mr_alloc((size_t)max, sizeof *sol);
    int n = pz_kind_of(pz)->solve(pz, NULL, sol, max);
    assert_true(n > 1);
    match_event ev;
    for (int i = 0; i < n; i++) {
        if (i < n - 1)
            assert_null(match_move(m, 1, (uint32_t)i, sol[i], 1000 + (uint64_t)i * 400, NULL));
        assert_null(match_move(m, 0, (uint32_t)i, sol[i], 1000 + (uint64_t)i * 400, NULL));
        while (match_poll_event(m, &ev))
            ;
    }
    free(sol);
    assert_int_equal(match_phase(m), MATCH_FINISHED);
    return m;
}

static replay *parse_ok(const char *text)
{
    pz_error e = {0, 0, ""};
    replay *r = replay_parse(text, strlen(text), &e);
    if (!r)
        fail_msg("%d:%d: %s\n%s", e.line, e.col, e.msg, text);
    return r;
}

/* Every kind: match -> replay -> text -> replay -> text is stable, and the
 * engine reaches the match's own result. */
static void test_round_trip_every_kind(void **ctx)
{
    (void)ctx;
    static const char *ids[] = {"sum:5x4:medium#11", "maze:12x9:easy#2", "ice:12x10:medium#5",
                                "pipes:6x4:easy#9"};
    for (size_t k = 0; k < MR_ARRAY_LEN(ids); k++) {
        match *m = raced(ids[k]);
        const char *err = NULL;
        replay *r = replay_from_match(m, NULL, &err);
        assert_non_null(r);
        assert_string_equal(replay_seeded_id(r), ids[k]);
        assert_non_null(strchr(replay_game_id(r), ':'));
        assert_null(strchr(replay_game_id(r), '#'));
        assert_int_equal(replay_move_count(r), match_moves(m, 0) + match_moves(m, 1));
        assert_int_equal(replay_get_end(r).winner, 0);
        char *t1 = replay_format(r);
        replay *back = parse_ok(t1);
        char *t2 = replay_format(back);
        assert_string_equal(t1, t2);
        match_result res;
        pz_error e;
        assert_null(replay_check(back, &res, &e));
        const match_result *want = match_last_result(m);
        assert_int_equal(res.winner, want->winner);
        assert_int_equal(res.reason, MATCH_END_SOLVED);
        for (int s = 0; s < MATCH_SLOTS; s++) {
            assert_int_equal(res.moves[s], want->moves[s]);
            assert_int_equal(res.time_ms[s], want->time_ms[s]);
            assert_int_equal(res.solved[s], want->solved[s]);
        }
        printf("%s: %zu moves, %zu bytes of text\n", ids[k], replay_move_count(r), strlen(t1));
        free(t1);
        free(t2);
        replay_destroy(r);
        replay_destroy(back);
        match_destroy(m);
    }
}

/* A recorder's lists, merged by time; at equal times the winner's solving
 * move comes last. */
static void test_from_parts(void **ctx)
{
    (void)ctx;
    match *m = raced("maze:12x9:easy#2");
    pz_move mv[2][512];
    uint32_t t[2][512];
    size_t n[2];
    for (int s = 0; s < 2; s++)
        n[s] = match_move_log_timed(m, s, mv[s], t[s], 512);
    const char *err = NULL;
    replay *r = replay_create("maze:12x9:easy#2", "  ann ", "bob", &err);
    assert_non_null(r);
    assert_string_equal(replay_name(r, 0), "ann");
    const pz_move *mp[2] = {mv[0], mv[1]};
    const uint32_t *tp[2] = {t[0], t[1]};
    assert_null(replay_add_logs(r, mp, tp, n, 0));
    /* Equal times throughout: player 1's move goes first each time. */
    assert_int_equal(replay_move_at(r, 0)->slot, 1);
    assert_int_equal(replay_move_at(r, 1)->slot, 0);
    assert_int_equal(replay_move_at(r, replay_move_count(r) - 1)->slot, 0);
    assert_non_null(replay_add_move(r, 0, 0, mv[0][0]));     /* before the last move */
    assert_non_null(replay_add_move(r, 2, 99999, mv[0][0])); /* no such slot */
    assert_non_null(replay_set_end(r, MATCH_END_SOLVED, MATCH_NONE, 99999));
    assert_non_null(replay_set_end(r, MATCH_END_ABORTED, 1, 99999));
    assert_non_null(replay_set_end(r, 7, 0, 99999));
    assert_non_null(replay_set_end(r, MATCH_END_SOLVED, 0, 1));
    assert_null(replay_format(r)); /* no ending yet */
    uint32_t end = replay_move_at(r, replay_move_count(r) - 1)->t_ms;
    assert_null(replay_set_end(r, MATCH_END_SOLVED, 0, end));
    assert_non_null(replay_add_move(r, 0, end, mv[0][0])); /* after the ending */
    assert_null(replay_set_date(r, 1795000000));
    assert_non_null(replay_set_date(r, -1));
    match_result res;
    assert_null(replay_check(r, &res, NULL));
    char *a = replay_format(r);
    replay *b = replay_from_match(m, NULL, &err);
    assert_null(replay_set_date(b, 1795000000));
    char *c = replay_format(b);
    assert_string_equal(a, c); /* the same file either way */
    free(a);
    free(c);
    replay_destroy(b);
    /* Ties the other way would let player 1's moves decide nothing here, but
     * a winner listed first at a tie is still accepted by add_logs. */
    replay_destroy(r);
    assert_null(replay_create("maze:12x9:easy", "a", "b", &err)); /* no exact puzzle */
    assert_null(replay_create("maze:12x9:easy#2", "", "b", &err));
    assert_null(replay_create("maze:12x9:easy#2", "a", "0123456789012345678901234", &err));
    assert_null(replay_create("maze:12x9:easy#2", "a\tb", "b", &err));
    assert_null(replay_create("chess#2", "a", "b", &err));
    assert_null(replay_create(NULL, "a", "b", &err));
    match_destroy(m);
}

static const char head[] = "mazerace-replay 1\n"
                           "game maze:8x6:2hz41oeEHz5NPGFE\n"
                           "player 0 ann\n"
                           "player 1 bob\n";

/* Bad files: the reader says where (line, column) and never accepts. */
static void test_bad_form(void **ctx)
{
    (void)ctx;
    static const struct {
        const char *text;
        int line, col;
        const char *msg;
    } cases[] = {
        {"", 1, 1, "empty"},
        {"mazerace-replay 2\n", 1, 17, "version"},
        {"hello\n", 1, 1, "not a mazerace replay"},
        {"mazerace-replay 1\nplayer 0 ann\n", 2, 1, "game line"},
        {"mazerace-replay 1\ngame maze:8x6:easy#7\n", 2, 6, "description form"},
        {"mazerace-replay 1\ngame maze:8x6:zzz\n", 2, 6, ""},
        {"mazerace-replay 1\ngame chess:8x6:zzz\n", 2, 6, ""},
        {"mazerace-replay 1\ngame maze:8x6:2hz41oeEHz5NPGFE\nseeded maze:9x6:easy#7\n", 3, 8, "another kind"},
        {"mazerace-replay 1\ngame maze:8x6:2hz41oeEHz5NPGFE\nplayer 1 bob\n", 3, 8, "player 0 comes first"},
        {"mazerace-replay 1\ngame maze:8x6:2hz41oeEHz5NPGFE\nplayer 0 \n", 3, 9, "space at the end"},
        {"mazerace-replay 1\ngame maze:8x6:2hz41oeEHz5NPGFE\nplayer 0 a\x01z\n", 3, 10, "control"},
        {"mazerace-replay 1\ngame maze:8x6:2hz41oeEHz5NPGFE\nplayer 0 0123456789012345678901234\n", 3, 10,
         "24"},
        {"mazerace-replay 1\ngame maze:8x6:2hz41oeEHz5NPGFE\nplayer 2 x\n", 3, 8, "0 or 1"},
        {"mazerace-replay 1\ngame maze:8x6:2hz41oeEHz5NPGFE\nplayer 0 ann\n", 4, 1, "no end line"},
        {"HEAD move 10 0 U\nmove 9 1 U\nend 10 aborted -\n", 6, 6, "time order"},
        {"HEAD move 10 2 U\n", 5, 9, "0 or 1"},
        {"HEAD move 010 0 U\n", 5, 6, "number"},
        {"HEAD move 4294967296 0 U\n", 5, 6, "number"},
        {"HEAD move -1 0 U\n", 5, 6, "number"},
        {"HEAD move 10 0 Q\n", 5, 11, "a move is"},
        {"HEAD move 10 0 1,2*\n", 5, 11, "a move is"},
        {"HEAD move 10 0 65536,2+\n", 5, 11, "a move is"},
        {"HEAD move 10  0 U\n", 5, 9, "one space"},
        {"HEAD move 10 0 U x\n", 5, 13, "unexpected text"},
        {"HEAD move 10 0\n", 5, 10, "the move expected"},
        {"HEAD jump 10 0 U\n", 5, 1, "move or end"},
        {"HEAD date 2026-02-29T00:00:00Z\n", 5, 6, "no such date"},
        {"HEAD date 2026-02-28 00:00:00Z\n", 5, 6, "YYYY"},
        {"HEAD move 5 0 U\nend 4 aborted -\n", 6, 5, "before its last move"},
        {"HEAD end 4 won 0\n", 5, 7, "solved, forfeit"},
        {"HEAD end 4 solved -\n", 5, 14, "has a winner"},
        {"HEAD end 4 aborted 1\n", 5, 15, "no winner"},
        {"HEAD end 4 aborted -\nmove 5 0 U\n", 6, 1, "nothing may follow"},
        {"HEAD end 4 aborted - \n", 5, 16, "space at the end"},
        {"HEAD end 4 aborted\n", 5, 14, "winner"},
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(cases); i++) {
        char text[512];
        const char *t = cases[i].text;
        if (strncmp(t, "HEAD ", 5) == 0)
            snprintf(text, sizeof text, "%s%s", head, t + 5);
        else
            snprintf(text, sizeof text, "%s", t);
        pz_error e = {0, 0, ""};
        replay *r = replay_parse(text, strlen(text), &e);
        if (r || e.line != cases[i].line || e.col != cases[i].col || !strstr(e.msg, cases[i].msg))
            fail_msg("case %zu: got %s %d:%d: %s; wanted %d:%d: %s", i, r ? "accepted" : "refused", e.line,
                     e.col, e.msg, cases[i].line, cases[i].col, cases[i].msg);
    }
    /* A NUL inside a name, and too much text. */
    char nul[] = "mazerace-replay 1\ngame maze:8x6:2hz41oeEHz5NPGFE\nplayer 0 a\0b\n";
    pz_error e;
    assert_null(replay_parse(nul, sizeof nul - 1, &e));
    assert_int_equal(e.line, 3);
    assert_null(replay_parse(head, (size_t)REPLAY_MAX_BYTES + 1, &e));
}

/* Form is right, but the engine says no: the message names the line. */
static void test_engine_refusals(void **ctx)
{
    (void)ctx;
    static const struct {
        const char *body;
        int line, col;
        const char *msg;
    } cases[] = {
        {"move 900 0 D\nend 900 aborted -\n", 5, 12, "refused by the engine"},    /* into the wall */
        {"move 900 0 1,1+\nend 900 aborted -\n", 5, 12, "refused by the engine"}, /* a maze has no pipes */
        {"move 900 0 U\nend 900 solved 0\n", 6, 5, "no player's moves solve"},
        {"end 900 forfeit 1\n", 0, 0, ""}, /* fine: player 0 left at 0.9 s */
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(cases); i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", head, cases[i].body);
        replay *r = parse_ok(text);
        pz_error e = {0, 0, ""};
        match_result res;
        const char *why = replay_check(r, &res, &e);
        if (!cases[i].line) {
            assert_null(why);
            assert_int_equal(res.winner, 1);
            assert_int_equal(res.reason, MATCH_END_FORFEIT);
            assert_int_equal(res.time_ms[0], 900);
        } else if (!why || e.line != cases[i].line || e.col != cases[i].col || !strstr(e.msg, cases[i].msg)) {
            fail_msg("case %zu: %d:%d: %s", i, e.line, e.col, why ? e.msg : "accepted");
        }
        replay_destroy(r);
    }
    /* The example file with its last line changed, and with a move after the solve. */
    char *text = mr_read_file(MR_SOURCE_DIR "/tests/replays/maze-8x6.replay", NULL);
    assert_non_null(text);
    char *end = strstr(text, "end 5542 solved 0");
    assert_non_null(end);
    static const char *endings[] = {"end 5542 solved 1\n", "end 5543 solved 0\n", "end 5542 aborted -\n",
                                    "move 5542 1 U\nend 5542 solved 0\n"};
    static const char *msgs[] = {"player 0 solved the puzzle at 5542 ms",
                                 "player 0 solved the puzzle at 5542 ms",
                                 "player 0 solved the puzzle at 5542 ms", "after the race was over"};
    size_t keep = (size_t)(end - text);
    for (size_t i = 0; i < MR_ARRAY_LEN(endings); i++) {
        char *edited = mr_alloc(keep + strlen(endings[i]) + 1, 1);
        memcpy(edited, text, keep);
        strcpy(edited + keep, endings[i]);
        replay *r = parse_ok(edited);
        pz_error e;
        assert_non_null(replay_check(r, NULL, &e));
        assert_int_equal(e.line, 29);
        if (!strstr(e.msg, msgs[i]))
            fail_msg("ending %zu: %s", i, e.msg);
        assert_string_equal(replay_check(r, NULL, NULL), "the replay does not check");
        replay_destroy(r);
        free(edited);
    }
    free(text);
}

/* The committed example checks, and every other ending is a real result. */
static void test_example_and_endings(void **ctx)
{
    (void)ctx;
    pz_error e;
    replay *r = replay_read_file(MR_SOURCE_DIR "/tests/replays/maze-8x6.replay", &e);
    assert_non_null(r);
    match_result res;
    assert_null(replay_check(r, &res, &e));
    assert_int_equal(res.winner, 0);
    assert_int_equal(res.moves[0], 12);
    assert_int_equal(res.moves[1], 8);
    assert_int_equal(res.time_ms[0], 5542);
    int64_t d;
    assert_true(replay_date(r, &d));
    assert_int_equal(d, 1795000000);
    replay_destroy(r);
    assert_null(replay_read_file("/nonexistent/x.replay", &e));
    assert_int_equal(e.line, 0);
    assert_null(replay_read_file(MR_SOURCE_DIR "/tests", &e));

    static const struct {
        const char *end;
        int reason, winner;
    } ends[] = {
        {"end 3000 aborted -\n", MATCH_END_ABORTED, MATCH_NONE},
        {"end 3000 both-left -\n", MATCH_END_BOTH_LEFT, MATCH_NONE},
        {"end 3000 forfeit 0\n", MATCH_END_FORFEIT, 0},
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(ends); i++) {
        char text[512];
        snprintf(text, sizeof text, "%smove 900 0 U\nmove 1000 1 U\n%s", head, ends[i].end);
        r = parse_ok(text);
        assert_null(replay_check(r, &res, &e));
        assert_int_equal(res.reason, ends[i].reason);
        assert_int_equal(res.winner, ends[i].winner);
        assert_int_equal(res.time_ms[0], 3000);
        assert_int_equal(res.time_ms[1], 3000);
        assert_int_equal(res.moves[1], 1);
        replay_destroy(r);
    }
}

/* replay_match_at: the engine after n moves, as a viewer seeks. */
static void test_match_at(void **ctx)
{
    (void)ctx;
    pz_error e;
    replay *r = replay_read_file(MR_SOURCE_DIR "/tests/replays/maze-8x6.replay", &e);
    assert_non_null(r);
    for (size_t n = 0; n <= replay_move_count(r) + 2; n++) {
        match *m = replay_match_at(r, n, &e);
        assert_non_null(m);
        size_t want[2] = {0, 0};
        for (size_t i = 0; i < n && i < replay_move_count(r); i++)
            want[replay_move_at(r, i)->slot]++;
        assert_int_equal(match_moves(m, 0), want[0]);
        assert_int_equal(match_moves(m, 1), want[1]);
        assert_int_equal(match_phase(m), n >= replay_move_count(r) ? MATCH_FINISHED : MATCH_RACING);
        match_destroy(m);
    }
    replay_destroy(r);
}

static void test_move_notation_and_dates(void **ctx)
{
    (void)ctx;
    static const char *ok[] = {"U", "D", "L", "R", "X", "0,0+", "12,3-", "65535,65535+"};
    for (size_t i = 0; i < MR_ARRAY_LEN(ok); i++) {
        pz_move m;
        char buf[32];
        assert_null(pz_move_parse(ok[i], strlen(ok[i]), &m));
        pz_move_format(m, buf, sizeof buf);
        assert_string_equal(buf, ok[i]);
    }
    static const char *bad[] = {"",      "u",     "UU",       "1,2",  ",2+",  "1,+",
                                "01,2+", "1,02+", "65536,0+", "1;2+", "1,2+x"};
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        pz_move m;
        assert_non_null(pz_move_parse(bad[i], strlen(bad[i]), &m));
    }
    pz_move odd = {9, 0, 0, 0};
    char buf[8];
    pz_move_format(odd, buf, sizeof buf);
    assert_string_equal(buf, "?");
    static const int64_t dates[] = {0, 951782400 /* 2000-02-29 */, 1795000000, 253402300799ll};
    for (size_t i = 0; i < MR_ARRAY_LEN(dates); i++) {
        char d[21];
        int64_t back = -1;
        assert_true(replay_date_format(dates[i], d));
        assert_null(replay_date_parse(d, strlen(d), &back));
        assert_int_equal(back, dates[i]);
    }
    char d[21];
    assert_true(replay_date_format(951782400, d));
    assert_string_equal(d, "2000-02-29T00:00:00Z");
    assert_false(replay_date_format(-1, d));
    int64_t t;
    assert_non_null(replay_date_parse("1900-02-29T00:00:00Z", 20, &t));
    assert_non_null(replay_date_parse("1969-12-31T23:59:59Z", 20, &t));
    assert_non_null(replay_date_parse("2026-13-01T00:00:00Z", 20, &t));
    assert_non_null(replay_date_parse("2026-01-01T24:00:00Z", 20, &t));
}

/* Every one-byte change and every cut of a good file: refused or accepted,
 * never a crash; whatever is accepted checks or is refused by the engine. */
static void test_mutations_fail_closed(void **ctx)
{
    (void)ctx;
    size_t len = 0;
    char *good = mr_read_file(MR_SOURCE_DIR "/tests/replays/maze-8x6.replay", &len);
    assert_non_null(good);
    char *t = mr_alloc(len + 1, 1);
    static const char subst[] = {'\0', '\n', ' ', '0', '9', '-', 'U', 'X', '#', '\x7f', (char)0xff};
    int accepted = 0, checked = 0;
    for (size_t i = 0; i < len; i++) {
        for (size_t k = 0; k < sizeof subst; k++) {
            memcpy(t, good, len);
            t[i] = subst[k];
            pz_error e;
            replay *r = replay_parse(t, len, &e);
            if (r) {
                accepted++;
                checked += replay_check(r, NULL, &e) == NULL;
                char *again = replay_format(r);
                replay *back = parse_ok(again);
                free(again);
                replay_destroy(back);
            } else {
                assert_true(e.line >= 1 && e.col >= 1);
            }
            replay_destroy(r);
        }
        pz_error e;
        replay *cut = replay_parse(good, i, &e);
        assert_true(cut == NULL || i >= len - 1);
        replay_destroy(cut);
    }
    printf("%zu mutations: %d read, %d of them checked\n", len * sizeof subst, accepted, checked);
    free(t);
    free(good);
}

/* Text of r, freed r. */
static char *text_of(replay *r)
{
    assert_non_null(r);
    char *t = replay_format(r);
    replay_destroy(r);
    return t;
}

/* A record (st_engine.h) turns back into the same replay as its match,
 * whatever order its equal-time moves were stored in and whatever clock
 * its times came from (the game's own history logs the two players on two
 * clocks): each player's moves are merged again with the winner's last,
 * and a solved game ends at the solving move. */
static void test_from_record(void **ctx)
{
    (void)ctx;
    match *m = raced("maze:12x9:easy#2");
    const char *err = NULL;
    st_match *r = st_from_match(m, NULL, "hotseat", 1795000000000LL, &err);
    assert_non_null(r);
    replay *want = replay_from_match(m, NULL, &err);
    assert_null(replay_set_date(want, 1795000000));
    char *a = text_of(want);
    char *b = text_of(st_to_replay(r, &err));
    assert_string_equal(a, b);
    free(b);
    /* The stored order of equal times flipped (player 0 first), and the
     * players' times 250 ms later than the moves' clock. */
    for (size_t i = 0; i + 1 < r->nmoves; i++)
        if (r->moves[i].ms == r->moves[i + 1].ms && r->moves[i].player == 1) {
            st_move x = r->moves[i];
            r->moves[i] = r->moves[i + 1];
            r->moves[i + 1] = x;
        }
    assert_int_equal(r->moves[0].player, 0);
    r->p[0].time_ms += 250;
    r->p[1].time_ms += 250;
    replay *back = st_to_replay(r, &err);
    match_result res;
    assert_null(replay_check(back, &res, NULL));
    assert_int_equal(res.winner, 0);
    b = text_of(back);
    assert_string_equal(a, b);
    free(a);
    free(b);
    /* An aborted record ends at the later time; one without a description cannot be replayed. */
    r->ending = ST_END_ABORTED;
    r->winner = -1;
    back = st_to_replay(r, &err);
    assert_non_null(back);
    assert_int_equal(replay_get_end(back).end_ms, r->p[0].time_ms);
    replay_destroy(back);
    free(r->desc_id);
    r->desc_id = NULL;
    assert_null(st_to_replay(r, &err));
    assert_non_null(strstr(err, "description"));
    st_match_free(r);
    free(r);
    match_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_every_kind),
        cmocka_unit_test(test_from_parts),
        cmocka_unit_test(test_bad_form),
        cmocka_unit_test(test_engine_refusals),
        cmocka_unit_test(test_example_and_endings),
        cmocka_unit_test(test_match_at),
        cmocka_unit_test(test_move_notation_and_dates),
        cmocka_unit_test(test_mutations_fail_closed),
        cmocka_unit_test(test_from_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
