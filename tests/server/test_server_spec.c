/* test_server_spec.c: spectators against the in-process server: live moves, catching up, refusals, limits,
 * the room list; each on the game port (--spectator-port off) and on a spectator port of its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "puzzle.h"
#include "raw_client.h"
#include "sv.h"
#include "sv_fixture.h"
#include "util.h"
#include "wire.h"

/* Every test runs three times: spectators on the game port, then on a
 * spectator port (sv_spectator_port), which the spectators here connect to
 * directly (test_server_specport.c covers the way there: WATCH_AT), then
 * on the game port of a server with several ENet hosts, the players and
 * spectators spread over them by their source ports (a host is walked only
 * when it has work: what is queued for a spectator on a quiet host must
 * still leave). */
static bool on_spec_port;
static int game_hosts; /* cfg.hosts: 0 = the default (one host here) */

static void spec_config(sv_config *cfg)
{
    base_config(cfg);
    cfg->spectator_port = on_spec_port ? 0 : SV_SPECTATOR_PORT_OFF;
    cfg->hosts = game_hosts;
}

/* A client past HELLO where spectators are served. */
static raw_client *spectator(fixture *f, const char *name)
{
    uint16_t port = sv_spectator_port(f->sv);
    assert_int_equal(port != 0, on_spec_port);
    raw_client *c = raw_connect(port ? port : sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(c);
    assert_true(raw_hello(c, name, WAIT_MS));
    return c;
}

/* A room with alice (slot 0) and bob (slot 1) on GAME_ID, not yet ready. */
typedef struct room2 {
    raw_client *a, *b;
    char code[WIRE_ROOM_CODE_LEN + 1];
    pz_move plan[256];
    int plan_len;
} room2;

static void open_room2(fixture *f, room2 *r)
{
    memset(r, 0, sizeof *r);
    r->a = join_server(f, "alice");
    r->b = join_server(f, "bob");
    create_room(r->a, r->code);
    join_room(r->b, r->code, 1);
    char err[160];
    pz_puzzle *pz = pz_from_id(GAME_ID, err, sizeof err);
    assert_non_null(pz);
    r->plan_len = pz_kind_of(pz)->solve(pz, NULL, r->plan, (int)MR_ARRAY_LEN(r->plan));
    pz_kind_of(pz)->free_puzzle(pz);
    assert_true(r->plan_len >= 3);
}

/* Both ready; returns after the countdown with alice's MATCH_START in *start. */
static void start_game(room2 *r, wire_match_start *start)
{
    send_ready(r->a);
    send_ready(r->b);
    wire_msg m;
    assert_true(raw_wait(r->a, WIRE_MATCH_START, &m, WAIT_MS));
    *start = m.start;
    start->game_id = NULL; /* points into storage of the next call */
    assert_true(raw_wait(r->b, WIRE_MATCH_START, &m, WAIT_MS));
    if (start->start_in_ms > 0)
        raw_pump(r->a, start->start_in_ms + 20, false);
}

/* A server with base_config and a room whose race is on. */
static fixture *racing(room2 *r, wire_match_start *st)
{
    sv_config cfg;
    spec_config(&cfg);
    fixture *f = start(&cfg);
    open_room2(f, r);
    start_game(r, st);
    return f;
}

static void close_room2(room2 *r)
{
    raw_close(r->a);
    raw_close(r->b);
}

static void send_watch(raw_client *c, const char *code)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_WATCH;
    memcpy(m.join.code, code, WIRE_ROOM_CODE_LEN + 1);
    raw_send_msg(c, &m);
}

/* s watches code; its first message is ROOM_STATE with the watcher slot. */
static void watch(raw_client *s, const char *code, int want_spectators)
{
    send_watch(s, code);
    wire_msg m;
    assert_true(raw_next(s, &m, WAIT_MS));
    assert_int_equal(m.type, WIRE_ROOM_STATE);
    assert_int_equal(m.room.your_slot, WIRE_SLOT_WATCHER);
    assert_string_equal(m.room.code, code);
    assert_int_equal(m.room.spectators, want_spectators);
}

static const pz_move bob_move = {PZ_MOVE_ROTATE_CW, 0, 0, 0};

/* Alice plays her plan and bob turns a tile between her moves: the
 * spectator sees every move of both, in order, then the result. */
static void test_watch_live(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    spec_config(&cfg);
    fixture *f = start(&cfg);
    room2 r;
    open_room2(f, &r);
    raw_client *s = spectator(f, "watcher");
    watch(s, r.code, 1);
    wire_msg m;
    int seen = 0;
    for (int i = 0; i < 5 && seen != 1; i++) { /* bob's join came first */
        assert_true(raw_wait(r.a, WIRE_ROOM_STATE, &m, WAIT_MS));
        assert_int_equal(m.room.your_slot, 0);
        seen = m.room.spectators;
    }
    assert_int_equal(seen, 1);
    wire_match_start st;
    start_game(&r, &st);
    assert_true(raw_wait(s, WIRE_WATCH_START, &m, WAIT_MS));
    assert_string_equal(m.wstart.code, r.code);
    assert_true(m.wstart.desc_hash == st.desc_hash);
    assert_int_equal(m.wstart.game_no, 1);
    assert_int_equal(m.wstart.game_id_len, strlen(GAME_ID));
    assert_memory_equal(m.wstart.game_id, GAME_ID, strlen(GAME_ID));

    /* What the players were told, in order: (slot, moves) per accepted move. */
    int want_slot[512], want_moves[512], n = 0;
    uint32_t a_moves = 0, b_moves = 0;
    for (int i = 0; i < r.plan_len; i++) {
        if (i + 1 < r.plan_len) { /* bob moves too, but alice wins */
            send_move(r.b, (uint32_t)i + 1, bob_move);
            assert_true(raw_wait(r.b, WIRE_ACK, &m, WAIT_MS));
            want_slot[n] = 1;
            want_moves[n++] = (int)++b_moves;
            assert_int_equal(m.ack.moves, b_moves);
        }
        send_move(r.a, (uint32_t)i + 1, r.plan[i]);
        assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
        want_slot[n] = 0;
        want_moves[n++] = (int)++a_moves;
    }
    for (int i = 0; i < n; i++) {
        assert_true(raw_wait(s, WIRE_PROGRESS, &m, WAIT_MS));
        assert_int_equal(m.progress.slot, want_slot[i]);
        assert_int_equal(m.progress.moves, want_moves[i]);
        if (want_slot[i] == 0)
            assert_int_equal(m.progress.move.x, r.plan[want_moves[i] - 1].x);
    }
    wire_msg end_a, end_s;
    assert_true(raw_wait(r.a, WIRE_MATCH_END, &end_a, WAIT_MS));
    assert_true(raw_wait(s, WIRE_MATCH_END, &end_s, WAIT_MS));
    assert_int_equal(end_s.end.winner, 0);
    assert_memory_equal(&end_s.end, &end_a.end, sizeof end_a.end);
    assert_false(raw_has(s, WIRE_PROGRESS)); /* nothing after the end */

    /* The room closes once both players leave: the spectator is told. */
    send_simple(r.a, WIRE_LEAVE_ROOM);
    send_simple(r.b, WIRE_LEAVE_ROOM);
    assert_true(raw_wait(s, WIRE_WATCH_END, &m, WAIT_MS));
    sv_stats stats;
    sv_get_stats(f->sv, &stats);
    assert_int_equal(stats.spectators_now, 0);
    assert_int_equal(stats.watches, 1);
    assert_int_equal(stats.bad_msgs, 0);
    assert_int_equal(raw_undecodable(s), 0);
    /* Every BUNDLE the server counted arrived, and unpacked cleanly. */
    assert_int_equal(stats.spectator_bundles, (uint64_t)raw_bundles(s));
    raw_close(s);
    close_room2(&r);
    stop(f);
}

/* A spectator who comes mid-race gets the game, both move logs, then the
 * live moves; one who comes after the end gets the result too. */
static void test_watch_mid_race(void **ctx)
{
    (void)ctx;
    room2 r;
    wire_match_start st;
    fixture *f = racing(&r, &st);
    wire_msg m;
    for (int i = 0; i < 2; i++) {
        send_move(r.a, (uint32_t)i + 1, r.plan[i]);
        assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    }
    send_move(r.b, 1, bob_move);
    assert_true(raw_wait(r.b, WIRE_ACK, &m, WAIT_MS));

    raw_client *s = spectator(f, "late");
    watch(s, r.code, 1);
    assert_true(raw_next(s, &m, WAIT_MS));
    assert_int_equal(m.type, WIRE_WATCH_START);
    assert_true(m.wstart.start_in_ms <= 0);
    assert_true(m.wstart.desc_hash == st.desc_hash);
    assert_true(raw_next(s, &m, WAIT_MS));
    assert_int_equal(m.type, WIRE_MOVE_LOG);
    assert_int_equal(m.log.slot, 0);
    assert_int_equal(m.log.count, 2);
    assert_false(m.log.last);
    assert_int_equal(m.log.moves[1].x, r.plan[1].x);
    assert_int_equal(m.log.moves[1].y, r.plan[1].y);
    assert_true(raw_next(s, &m, WAIT_MS));
    assert_int_equal(m.type, WIRE_MOVE_LOG);
    assert_int_equal(m.log.slot, 1);
    assert_int_equal(m.log.count, 1);
    assert_true(m.log.last);
    assert_int_equal(m.log.moves[0].type, PZ_MOVE_ROTATE_CW);
    /* WATCH_START and both logs were queued in one step, so they left in
     * one batch: a BUNDLE, whose messages came out above in order. */
    assert_true(raw_bundles(s) >= 1);

    /* Live from there on. */
    for (int i = 2; i < r.plan_len; i++) {
        send_move(r.a, (uint32_t)i + 1, r.plan[i]);
        assert_true(raw_wait(s, WIRE_PROGRESS, &m, WAIT_MS));
        assert_int_equal(m.progress.slot, 0);
        assert_int_equal(m.progress.moves, i + 1);
    }
    assert_true(raw_wait(s, WIRE_MATCH_END, &m, WAIT_MS));
    assert_int_equal(m.end.moves[0], r.plan_len);
    assert_int_equal(m.end.moves[1], 1);

    /* After the end: the whole game and its result. */
    raw_client *s2 = spectator(f, "later");
    watch(s2, r.code, 2);
    assert_true(raw_wait(s2, WIRE_WATCH_START, &m, WAIT_MS));
    assert_true(raw_wait(s2, WIRE_MOVE_LOG, &m, WAIT_MS));
    assert_int_equal(m.log.count, r.plan_len);
    assert_true(raw_wait(s2, WIRE_MOVE_LOG, &m, WAIT_MS));
    assert_true(m.log.last);
    assert_true(raw_next(s2, &m, WAIT_MS));
    assert_int_equal(m.type, WIRE_MATCH_END);
    assert_int_equal(m.end.winner, 0);
    raw_close(s2);
    raw_close(s);
    close_room2(&r);
    stop(f);
}

/* A message too long for a BUNDLE goes on its own, in its place: a game
 * of a 300x200 maze by description (a game ID of 20 000 bytes) watched
 * mid-race gives WATCH_START alone, then both MOVE_LOGs in a bundle. */
static void test_watch_big_game_id(void **ctx)
{
    (void)ctx;
    char err[160];
    pz_puzzle *pz = pz_from_id("maze:300x200:easy#7", err, sizeof err);
    assert_non_null(pz);
    char *id = pz_id_format_desc(pz);
    pz_kind_of(pz)->free_puzzle(pz);
    assert_non_null(id);
    size_t id_len = strlen(id);
    assert_true(id_len > WIRE_BUNDLE_MAX && id_len <= WIRE_GAME_ID_MAX);

    sv_config cfg;
    spec_config(&cfg);
    fixture *f = start(&cfg);
    raw_client *a = join_server(f, "alice"), *b = join_server(f, "bob");
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.by_id = true;
    m.create.game_id = id;
    m.create.game_id_len = (uint16_t)id_len;
    m.create.series_len = 1;
    raw_send_msg(a, &m);
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
    char code[WIRE_ROOM_CODE_LEN + 1];
    memcpy(code, m.room.code, sizeof code);
    join_room(b, code, 1);
    room2 r = {.a = a, .b = b};
    wire_match_start st;
    start_game(&r, &st);

    raw_client *s = spectator(f, "carol");
    watch(s, code, 1);
    assert_true(raw_next(s, &m, WAIT_MS));
    assert_int_equal(m.type, WIRE_WATCH_START);
    assert_int_equal(m.wstart.game_id_len, id_len);
    assert_memory_equal(m.wstart.game_id, id, id_len);
    assert_true(raw_next(s, &m, WAIT_MS));
    assert_int_equal(m.type, WIRE_MOVE_LOG);
    assert_int_equal(m.log.slot, 0);
    assert_true(raw_next(s, &m, WAIT_MS));
    assert_int_equal(m.type, WIRE_MOVE_LOG);
    assert_int_equal(m.log.slot, 1);
    assert_true(m.log.last);
    assert_true(raw_bundles(s) >= 1);
    assert_int_equal(raw_undecodable(s), 0);
    free(id);
    raw_close(s);
    close_room2(&r);
    stop(f);
}

static bool one_bad(const sv_stats *st)
{
    return st->bad_msgs >= 1;
}

/* A spectator cannot play: MOVE is an ERROR SPECTATOR counted as bad;
 * READY and REMATCH are refused; seats need a LEAVE first. */
static void test_spectator_refusals(void **ctx)
{
    (void)ctx;
    room2 r;
    wire_match_start st;
    fixture *f = racing(&r, &st);
    raw_client *s = spectator(f, "sneaky");
    watch(s, r.code, 1);
    wire_msg m;
    send_move(s, 1, r.plan[0]);
    assert_true(raw_wait(s, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_SPECTATOR);
    sv_stats stats = wait_stats(f, s, one_bad);
    assert_int_equal(stats.bad_msgs, 1);
    assert_int_equal(stats.moves_validated, 0); /* never reached the match */
    send_ready(s);
    assert_true(raw_wait(s, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_SPECTATOR);
    memset(&m, 0, sizeof m);
    m.type = WIRE_JOIN_ROOM;
    strcpy(m.join.code, r.code);
    raw_send_msg(s, &m);
    assert_true(raw_wait(s, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_STATE);
    /* Players cannot watch while seated. */
    send_watch(r.a, r.code);
    assert_true(raw_wait(r.a, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_STATE);
    /* An unknown code. */
    raw_client *t = join_server(f, "lost");
    send_watch(t, "ZZZZZ");
    assert_true(raw_wait(t, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_NO_ROOM);
    /* LEAVE_ROOM stops watching: the players see the count drop. */
    send_simple(s, WIRE_LEAVE_ROOM);
    bool zero = false;
    for (int i = 0; i < 5 && !zero; i++) {
        assert_true(raw_wait(r.a, WIRE_ROOM_STATE, &m, WAIT_MS));
        zero = m.room.spectators == 0;
    }
    assert_true(zero);
    /* The race went on untouched. */
    send_move(r.a, 1, r.plan[0]);
    assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    assert_int_equal(m.ack.moves, 1);
    raw_close(t);
    raw_close(s);
    close_room2(&r);
    stop(f);
}

/* One spectator per room and two on the server: the next is refused with
 * WATCH_FULL, whose text says which limit. */
static void test_watch_limits(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    spec_config(&cfg);
    cfg.room_spectators = 1;
    cfg.max_spectators = 2;
    fixture *f = start(&cfg);
    room2 r1, r2;
    open_room2(f, &r1);
    open_room2(f, &r2);
    raw_client *s1 = spectator(f, "s1"), *s2 = spectator(f, "s2"), *s3 = spectator(f, "s3");
    watch(s1, r1.code, 1);
    wire_msg m;
    send_watch(s2, r1.code);
    assert_true(raw_wait(s2, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_WATCH_FULL);
    assert_non_null(strstr(m.error.text, "room"));
    watch(s2, r2.code, 1);
    send_watch(s3, r1.code);
    assert_true(raw_wait(s3, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_WATCH_FULL);
    /* s1 goes: s3 takes its place. */
    raw_close(s1);
    bool ok = false;
    for (int i = 0; i < 50 && !ok; i++) {
        send_watch(s3, r1.code);
        assert_true(raw_next(s3, &m, WAIT_MS));
        ok = m.type == WIRE_ROOM_STATE;
        if (!ok)
            assert_int_equal(m.error.code, WIRE_ERR_WATCH_FULL);
    }
    assert_true(ok);
    /* The server's limit: both spectator seats are taken now. */
    raw_client *s4 = spectator(f, "s4");
    send_watch(s4, r2.code);
    assert_true(raw_wait(s4, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_WATCH_FULL);
    sv_stats stats;
    sv_get_stats(f->sv, &stats);
    assert_int_equal(stats.spectators_now, 2);
    assert_true(stats.watch_refused >= 3);
    raw_close(s4);
    raw_close(s3);
    raw_close(s2);
    close_room2(&r1);
    close_room2(&r2);
    stop(f);
}

/* LIST_ROOMS lists the rooms in a countdown or race, with their players
 * and spectators; a waiting room is not listed. */
static void test_room_list(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    spec_config(&cfg);
    fixture *f = start(&cfg);
    room2 r1, r2;
    open_room2(f, &r1);
    open_room2(f, &r2);
    wire_match_start st;
    start_game(&r1, &st);
    raw_client *c = join_server(f, "browser");
    send_simple(c, WIRE_LIST_ROOMS);
    wire_msg m;
    assert_true(raw_wait(c, WIRE_ROOM_LIST, &m, WAIT_MS));
    assert_int_equal(m.list.total, 1);
    assert_int_equal(m.list.count, 1);
    assert_string_equal(m.list.room[0].code, r1.code);
    assert_string_equal(m.list.room[0].name[0], "alice");
    assert_string_equal(m.list.room[0].name[1], "bob");
    assert_int_equal(m.list.room[0].params.kind, PZ_PIPES);
    assert_int_equal(m.list.room[0].phase, MATCH_RACING);
    /* The same where spectators are served. */
    raw_client *c2 = spectator(f, "browser2");
    send_simple(c2, WIRE_LIST_ROOMS);
    assert_true(raw_wait(c2, WIRE_ROOM_LIST, &m, WAIT_MS));
    assert_int_equal(m.list.total, 1);
    assert_string_equal(m.list.room[0].code, r1.code);
    raw_close(c2);
    raw_close(c);
    close_room2(&r1);
    close_room2(&r2);
    stop(f);
}

static int game_port_mode(void **ctx)
{
    (void)ctx;
    on_spec_port = false;
    game_hosts = 0;
    return 0;
}
static int spec_port_mode(void **ctx)
{
    (void)ctx;
    on_spec_port = true;
    game_hosts = 0;
    return 0;
}
static int hosts_mode(void **ctx)
{
    (void)ctx;
    on_spec_port = false;
    game_hosts = 4;
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_watch_live),         cmocka_unit_test(test_watch_mid_race),
        cmocka_unit_test(test_spectator_refusals), cmocka_unit_test(test_watch_limits),
        cmocka_unit_test(test_room_list),          cmocka_unit_test(test_watch_big_game_id),
    };
    int failed = cmocka_run_group_tests_name("on the game port", tests, game_port_mode, NULL);
    failed += cmocka_run_group_tests_name("on the spectator port", tests, spec_port_mode, NULL);
    failed += cmocka_run_group_tests_name("on the game port of 4 ENet hosts", tests, hosts_mode, NULL);
    return failed;
}
