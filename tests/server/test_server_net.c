/* test_server_net.c: the server in-process against raw ENet clients on 127.0.0.1: play, errors, bad packets,
 * resume. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "match.h"
#include "puzzle.h"
#include "raw_client.h"
#include "rng.h"
#include "token_attack.h"
#include "sv.h"
#include "sv_disc.h"
#include "sv_fixture.h"
#include "util.h"
#include "wire.h"

typedef struct race {
    raw_client *a, *b;
    char code[WIRE_ROOM_CODE_LEN + 1];
    wire_match_start start_a, start_b;
    pz_puzzle *pz;
    pz_move plan[512];
    int plan_len;
} race;

/* Two players in one room, both ready, through the countdown to the start;
 * the solution of the puzzle from the ID the server sent. */
static void start_race(fixture *f, race *r, bool wait_for_start)
{
    memset(r, 0, sizeof *r);
    r->a = join_server(f, "alice");
    r->b = join_server(f, "bob");
    create_room(r->a, r->code);
    join_room(r->b, r->code, 1);
    send_ready(r->a);
    send_ready(r->b);
    wire_msg m;
    assert_true(raw_wait(r->a, WIRE_MATCH_START, &m, WAIT_MS));
    r->start_a = m.start;
    char id[128];
    assert_true(m.start.game_id_len < sizeof id);
    memcpy(id, m.start.game_id, m.start.game_id_len);
    id[m.start.game_id_len] = '\0';
    assert_string_equal(id, GAME_ID);
    assert_true(raw_wait(r->b, WIRE_MATCH_START, &m, WAIT_MS));
    r->start_b = m.start;
    assert_int_equal(r->start_a.slot, 0);
    assert_int_equal(r->start_b.slot, 1);
    assert_true(r->start_a.desc_hash == r->start_b.desc_hash);
    assert_true(match_token_set(&r->start_a.token));
    assert_false(match_token_equal(&r->start_a.token, &r->start_b.token));
    char err[160];
    r->pz = pz_from_id(GAME_ID, err, sizeof err);
    assert_non_null(r->pz);
    r->plan_len = pz_kind_of(r->pz)->solve(r->pz, NULL, r->plan, (int)MR_ARRAY_LEN(r->plan));
    assert_true(r->plan_len >= 4); /* the tests play up to 3 moves without solving */
    if (wait_for_start && r->start_a.start_in_ms > 0)
        raw_pump(r->a, r->start_a.start_in_ms + 20, false);
}

static void end_race(race *r)
{
    raw_close(r->a);
    raw_close(r->b);
    pz_kind_of(r->pz)->free_puzzle(r->pz);
}

/* The types of the ACK, PROGRESS and MATCH_END messages c holds, oldest
 * first (up to max); other messages (room state, match start) are skipped. */
static int race_msgs(raw_client *c, int *out, int max)
{
    int all[64], n = raw_queued_types(c, all, 64), k = 0;
    for (int i = 0; i < n && i < 64 && k < max; i++)
        if (all[i] == WIRE_ACK || all[i] == WIRE_PROGRESS || all[i] == WIRE_MATCH_END)
            out[k++] = all[i];
    return k;
}

/* Pumps c (and the server) until it holds n ACK/PROGRESS/MATCH_END messages or time
 * runs out; returns how many it holds, their types in out. */
static int wait_race_msgs(raw_client *c, int n, int *out, int max)
{
    uint64_t end = mr_now_us() + (uint64_t)WAIT_MS * 1000u;
    while (race_msgs(c, out, max) < n && mr_now_us() < end)
        raw_pump(c, 5, true);
    return race_msgs(c, out, max);
}

/* Both players move in one server step. The server holds the opponents'
 * PROGRESS back until the step's ACKs are out, but each client still gets
 * its messages in the order they happened: bob hears of alice's move
 * before his own ACK, alice gets her ACK before bob's progress. */
static void test_one_step_order(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    race r;
    start_race(f, &r, true);
    assert_false(raw_has(r.a, WIRE_ACK) || raw_has(r.b, WIRE_ACK));
    /* raw_send flushes: both datagrams wait in the server's socket, and
     * one step reads them both. */
    send_move(r.a, 1, r.plan[0]);
    send_move(r.b, 1, r.plan[0]);
    pump_server(f);
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.moves_accepted, 2);
    int ta[4], tb[4];
    assert_int_equal(wait_race_msgs(r.a, 2, ta, 4), 2);
    assert_int_equal(wait_race_msgs(r.b, 2, tb, 4), 2);
    assert_int_equal(ta[0], WIRE_ACK);
    assert_int_equal(ta[1], WIRE_PROGRESS);
    assert_int_equal(tb[0], WIRE_PROGRESS);
    assert_int_equal(tb[1], WIRE_ACK);
    wire_msg m;
    assert_true(raw_wait(r.b, WIRE_PROGRESS, &m, WAIT_MS));
    assert_int_equal(m.progress.slot, 0);
    assert_int_equal(m.progress.moves, 1);
    assert_true(raw_wait(r.a, WIRE_PROGRESS, &m, WAIT_MS));
    assert_int_equal(m.progress.slot, 1);
    end_race(&r);
    stop(f);
}

/* Sends a move and waits for its ACK (the server's clock stands still). */
static void move_acked(raw_client *c, uint32_t seq, pz_move mv)
{
    wire_msg m;
    send_move(c, seq, mv);
    assert_true(raw_wait(c, WIRE_ACK, &m, WAIT_MS));
    assert_int_equal(m.ack.seq, seq);
}

/* Waits until c holds n PROGRESS messages, then takes them all; returns the
 * last one's move count. */
static uint32_t take_progress(raw_client *c, int n)
{
    int t[64];
    uint64_t end = mr_now_us() + (uint64_t)WAIT_MS * 1000u;
    int have = 0;
    while (mr_now_us() < end) {
        int k = race_msgs(c, t, 64);
        have = 0;
        for (int i = 0; i < k; i++)
            have += t[i] == WIRE_PROGRESS;
        if (have >= n)
            break;
        raw_pump(c, 5, true);
    }
    assert_int_equal(have, n);
    wire_msg m;
    uint32_t last = 0;
    for (int i = 0; i < n; i++) {
        assert_true(raw_wait(c, WIRE_PROGRESS, &m, 0));
        last = m.progress.moves;
    }
    return last;
}

/* The progress hold. The opponent's PROGRESS waits for the player's next
 * packet, or for the hold to run out, whichever comes first, but only for a
 * player who is moving fast (so that their next ACK is likely to come
 * within the hold); a player thinking between moves gets it at once. It
 * never overtakes anything, and a player who leaves takes the held packets
 * with them. The server's clock is frozen (the test moves it), so nothing
 * here depends on how fast the machine is. Both players turn one tile round
 * and round: a tile the solution is not done with, so nobody solves by
 * accident. */
static void test_progress_hold(void **ctx)
{
    (void)ctx;
    enum { HOLD = 200 };
    sv_config cfg;
    base_config(&cfg);
    cfg.progress_hold_ms = HOLD;
    fixture *f = start(&cfg);
    race r;
    start_race(f, &r, true);
    f->frozen_ms = fixture_now(f);
    f->frozen = true;
    pz_move spin = r.plan[0];
    bool other_tile = false;
    for (int i = 1; i < r.plan_len; i++)
        other_tile = other_tile || r.plan[i].x != spin.x || r.plan[i].y != spin.y;
    assert_true(other_tile);
    uint32_t sa = 0, sb = 0; /* moves made */
    int t[64];
    wire_msg m;

    /* Nobody has moved twice yet: nothing is held. */
    move_acked(r.a, ++sa, spin);
    assert_int_equal(take_progress(r.b, 1), 1);
    move_acked(r.b, ++sb, spin);
    assert_int_equal(take_progress(r.a, 1), 1);
    move_acked(r.a, ++sa, spin); /* alice is moving fast now; bob not yet */
    assert_int_equal(take_progress(r.b, 1), 2);
    move_acked(r.b, ++sb, spin); /* both fast: bob's move waits for alice */
    raw_pump(r.a, 50, false);
    assert_false(raw_has(r.a, WIRE_PROGRESS));

    /* Alice's next move: bob's held PROGRESS comes first, in one go with
     * her ACK; her PROGRESS waits for bob, who hears nothing meanwhile. */
    send_move(r.a, ++sa, spin);
    assert_int_equal(wait_race_msgs(r.a, 2, t, 64), 2);
    assert_int_equal(t[0], WIRE_PROGRESS);
    assert_int_equal(t[1], WIRE_ACK);
    assert_int_equal(take_progress(r.a, 1), sb);
    assert_true(raw_wait(r.a, WIRE_ACK, &m, 0));
    raw_pump(r.b, 50, false);
    assert_false(raw_has(r.b, WIRE_PROGRESS));
    /* Bob gets it when it is due, not a millisecond before. */
    f->frozen_ms += HOLD - 1;
    raw_pump(r.b, 50, false);
    assert_false(raw_has(r.b, WIRE_PROGRESS));
    f->frozen_ms += 1;
    assert_int_equal(take_progress(r.b, 1), sa);

    /* Both stop to think (their last moves are two holds old). Bob's next
     * moves reach alice at once, with the clock standing still. */
    f->frozen_ms += 2 * HOLD + 1;
    move_acked(r.b, ++sb, spin);
    move_acked(r.b, ++sb, spin);
    assert_int_equal(take_progress(r.a, 2), sb);
    /* Alice moves once (still slow); bob, fast, gets that held. */
    move_acked(r.a, ++sa, spin);
    raw_pump(r.b, 50, false);
    assert_false(raw_has(r.b, WIRE_PROGRESS));
    /* Bob's move releases it; his PROGRESS goes to slow alice at once, even
     * though a hold started before it (no queueing behind holds). */
    move_acked(r.b, ++sb, spin);
    assert_int_equal(take_progress(r.b, 1), sa);
    assert_int_equal(take_progress(r.a, 1), sb);

    /* More than SV_HOLD_MAX (8) moves in one hold (bob is fast): the first
     * eight go out, the ninth waits; all in order. */
    for (int i = 0; i < 9; i++)
        move_acked(r.a, ++sa, spin);
    assert_int_equal(take_progress(r.b, 8), sa - 1);
    raw_pump(r.b, 50, false);
    assert_false(raw_has(r.b, WIRE_PROGRESS));
    f->frozen_ms += HOLD;
    assert_int_equal(take_progress(r.b, 1), sa);

    /* The end of the match takes the held PROGRESS along, in order. Alice
     * turns the tile until it is as the plan's first move leaves it, then
     * plays the rest of the plan; bob moves first, to be fast. */
    move_acked(r.b, ++sb, spin);
    uint32_t before = sa;
    while ((sa - 1) % 4 != 0)
        move_acked(r.a, ++sa, spin);
    for (int i = 1; i < r.plan_len; i++)
        move_acked(r.a, ++sa, r.plan[i]);
    assert_true(raw_wait(r.a, WIRE_MATCH_END, &m, WAIT_MS));
    uint64_t end = mr_now_us() + (uint64_t)WAIT_MS * 1000u;
    while (!raw_has(r.b, WIRE_MATCH_END) && mr_now_us() < end)
        raw_pump(r.b, 5, true);
    int n = race_msgs(r.b, t, 64);
    assert_int_equal(n, (int)(sa - before) + 1);
    assert_int_equal(t[n - 1], WIRE_MATCH_END); /* after every PROGRESS */
    assert_true(raw_wait(r.b, WIRE_MATCH_END, &m, 0));
    assert_int_equal(m.end.winner, 0);
    assert_int_equal(take_progress(r.b, n - 1), sa);

    /* Held packets of a player who leaves are dropped with them. */
    send_simple(r.a, WIRE_REMATCH);
    send_simple(r.b, WIRE_REMATCH);
    assert_true(raw_wait(r.a, WIRE_MATCH_START, &m, WAIT_MS));
    f->frozen_ms += (uint64_t)(m.start.start_in_ms > 0 ? m.start.start_in_ms : 0) + 1;
    raw_pump(r.a, 20, false);
    char err[160], id[128];
    assert_true(m.start.game_id_len < sizeof id);
    memcpy(id, m.start.game_id, m.start.game_id_len);
    id[m.start.game_id_len] = '\0';
    pz_puzzle *pz2 = pz_from_id(id, err, sizeof err);
    assert_non_null(pz2);
    static pz_move plan2[512];
    assert_true(pz_kind_of(pz2)->solve(pz2, NULL, plan2, 512) >= 2);
    move_acked(r.b, 1, plan2[0]);
    move_acked(r.a, 1, plan2[0]); /* bob is fast: held for him */
    raw_close(r.b);
    r.b = NULL;
    f->frozen_ms += HOLD;
    move_acked(r.a, 2, plan2[1]);
    pz_kind_of(pz2)->free_puzzle(pz2);
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.bad_msgs, 0);
    end_race(&r);
    stop(f);
}

/* A whole match: every move acknowledged, the opponent sees progress, the
 * solver wins, and moves after the end are refused. */
static void test_full_match(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    race r;
    start_race(f, &r, true);
    wire_msg m;
    for (int i = 0; i < r.plan_len; i++) {
        send_move(r.a, (uint32_t)i + 1, r.plan[i]);
        assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
        assert_int_equal(m.ack.seq, i + 1);
        assert_int_equal(m.ack.moves, i + 1);
        assert_int_equal(m.ack.solved, i + 1 == r.plan_len);
    }
    for (int i = 0; i < r.plan_len; i++) {
        assert_true(raw_wait(r.b, WIRE_PROGRESS, &m, WAIT_MS));
        assert_int_equal(m.progress.slot, 0);
        assert_int_equal(m.progress.moves, i + 1);
        assert_int_equal(m.progress.move.x, r.plan[i].x);
    }
    assert_true(raw_wait(r.a, WIRE_MATCH_END, &m, WAIT_MS));
    assert_int_equal(m.end.winner, 0);
    assert_int_equal(m.end.reason, MATCH_END_SOLVED);
    assert_int_equal(m.end.moves[0], r.plan_len);
    assert_true(raw_wait(r.b, WIRE_MATCH_END, &m, WAIT_MS));
    assert_int_equal(m.end.winner, 0);

    /* After the finish: refused with the reason, nothing counted. */
    send_move(r.b, 1, r.plan[0]);
    assert_true(raw_wait(r.b, WIRE_REJECT, &m, WAIT_MS));
    assert_int_equal(m.error.code, MATCH_REJ_FINISHED);
    assert_int_equal(m.error.seq, 1);

    /* Rematch: the opponent hears the offer; when both ask, a new game on
     * a new seed starts for both (best of 1 was over: a new series). */
    send_simple(r.a, WIRE_REMATCH);
    assert_true(raw_wait(r.b, WIRE_REMATCH_OFFER, &m, WAIT_MS));
    assert_int_equal(m.rematch_offer.slot, 0);
    send_simple(r.b, WIRE_REMATCH);
    assert_true(raw_wait(r.a, WIRE_MATCH_START, &m, WAIT_MS));
    assert_int_equal(m.start.game_no, 1);
    assert_false(m.start.game_id_len == strlen(GAME_ID) &&
                 memcmp(m.start.game_id, GAME_ID, strlen(GAME_ID)) == 0);
    assert_true(raw_wait(r.b, WIRE_MATCH_START, &m, WAIT_MS));
    assert_int_equal(m.start.slot, 1);

    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.matches_started, 2);
    assert_int_equal(st.moves_validated, r.plan_len + 1);
    assert_int_equal(st.moves_accepted, r.plan_len);
    assert_int_equal(st.matches_finished, 1);
    assert_int_equal(st.bad_msgs, 0);
    assert_int_equal(raw_undecodable(r.a) + raw_undecodable(r.b), 0);
    end_race(&r);
    stop(f);
}

/* One server, many rooms at once: each pair's moves reach only its own
 * opponent, counted per player. */
static void test_many_rooms(void **ctx)
{
    (void)ctx;
    enum { PAIRS = 12 };
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    raw_client *a[PAIRS], *b[PAIRS];
    char code[PAIRS][WIRE_ROOM_CODE_LEN + 1];
    for (int i = 0; i < PAIRS; i++) {
        a[i] = join_server(f, "a");
        b[i] = join_server(f, "b");
        create_room(a[i], code[i]);
        join_room(b[i], code[i], 1);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(code[i], code[j]);
    }
    wire_msg m;
    uint64_t start_at = 0;
    for (int i = 0; i < PAIRS; i++) {
        send_ready(a[i]);
        send_ready(b[i]);
    }
    for (int i = 0; i < PAIRS; i++) {
        assert_true(raw_wait(a[i], WIRE_MATCH_START, &m, WAIT_MS));
        uint64_t at = mr_now_us() / 1000u + (uint64_t)(m.start.start_in_ms > 0 ? m.start.start_in_ms : 0);
        start_at = at > start_at ? at : start_at;
        assert_true(raw_wait(b[i], WIRE_MATCH_START, &m, WAIT_MS));
    }
    char err[160];
    pz_puzzle *pz = pz_from_id(GAME_ID, err, sizeof err);
    assert_non_null(pz);
    pz_move plan[64];
    int n = pz_kind_of(pz)->solve(pz, NULL, plan, (int)MR_ARRAY_LEN(plan));
    assert_true(n >= 4);
    while (mr_now_us() / 1000u <= start_at + 20)
        raw_pump(a[0], 5, false);
    /* Interleaved: round k sends move k of every pair that plays that far. */
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < PAIRS; i++)
            if (k < i % 3 + 1)
                send_move(a[i], (uint32_t)k, plan[k]);
    for (int i = 0; i < PAIRS; i++) {
        int moves = i % 3 + 1;
        for (int k = 0; k < moves; k++) {
            assert_true(raw_wait(a[i], WIRE_ACK, &m, WAIT_MS));
            assert_int_equal(m.ack.seq, k);
            assert_int_equal(m.ack.moves, k + 1);
            assert_true(raw_wait(b[i], WIRE_PROGRESS, &m, WAIT_MS));
            assert_int_equal(m.progress.slot, 0);
            assert_int_equal(m.progress.moves, k + 1);
        }
        raw_pump(b[i], 5, false);
        assert_false(raw_has(b[i], WIRE_PROGRESS));
        assert_false(raw_has(a[i], WIRE_ACK));
    }
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.rooms_now, PAIRS);
    assert_int_equal(st.matches_running, PAIRS);
    assert_int_equal(st.moves_accepted, PAIRS / 3 * (1 + 2 + 3));
    for (int i = 0; i < PAIRS; i++) {
        raw_close(a[i]);
        raw_close(b[i]);
    }
    pz_kind_of(pz)->free_puzzle(pz);
    stop(f);
}

/* Moves during the countdown are refused; moves from a client that is not
 * in a room are refused; an illegal move is rejected and play continues. */
static void test_moves_refused(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.countdown_ms = 10000;
    fixture *f = start(&cfg);
    race r;
    start_race(f, &r, false);
    wire_msg m;
    send_move(r.a, 7, r.plan[0]);
    assert_true(raw_wait(r.a, WIRE_REJECT, &m, WAIT_MS));
    assert_int_equal(m.error.code, MATCH_REJ_NOT_STARTED);
    assert_int_equal(m.error.seq, 7);
    assert_false(raw_has(r.b, WIRE_PROGRESS));

    raw_client *lone = join_server(f, "lone");
    send_move(lone, 1, r.plan[0]);
    assert_true(raw_wait(lone, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_NOT_IN_ROOM);
    raw_close(lone);
    end_race(&r);
    stop(f);

    base_config(&cfg);
    f = start(&cfg);
    start_race(f, &r, true);
    pz_move bad = {.type = PZ_MOVE_ROTATE_CW, .x = 60000, .y = 60000};
    send_move(r.a, 1, bad);
    assert_true(raw_wait(r.a, WIRE_REJECT, &m, WAIT_MS));
    assert_int_equal(m.error.code, MATCH_REJ_ILLEGAL);
    assert_true(strlen(m.error.text) > 0);
    send_move(r.a, 2, r.plan[0]);
    assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    assert_int_equal(m.ack.moves, 1);
    /* Bob's moves go to Bob's board only: Alice's count is unchanged. */
    send_move(r.b, 1, r.plan[0]);
    assert_true(raw_wait(r.b, WIRE_ACK, &m, WAIT_MS));
    assert_int_equal(m.ack.moves, 1);
    assert_true(raw_wait(r.a, WIRE_PROGRESS, &m, WAIT_MS));
    assert_int_equal(m.progress.slot, 1);
    end_race(&r);
    stop(f);
}

static bool six_bad(const sv_stats *st)
{
    return st->bad_msgs >= 6;
}
static bool one_room(const sv_stats *st)
{
    return st->rooms_now <= 1;
}

/* Truncated, oversized, unknown and out-of-order packets are counted and
 * dropped; a wrong version is refused in words; the match next door plays
 * on. */
static void test_bad_packets(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    race r;
    start_race(f, &r, true);

    raw_client *x = join_server(f, "mallory");
    uint8_t move[32];
    wire_msg mv;
    memset(&mv, 0, sizeof mv);
    mv.type = WIRE_MOVE;
    mv.move.seq = 1;
    mv.move.move = r.plan[0];
    size_t n = wire_write(&mv, move, sizeof move);
    raw_send(x, move, n - 1); /* truncated */
    wire_msg m;
    assert_true(raw_wait(x, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_BAD_MESSAGE);
    uint8_t unknown[4] = {0xEE, 1, 2, 3};
    raw_send(x, unknown, sizeof unknown);
    uint8_t trailing[33];
    memcpy(trailing, move, n);
    trailing[n] = 0;
    raw_send(x, trailing, n + 1);
    size_t big = WIRE_MSG_MAX + 100;
    uint8_t *huge = mr_alloc(big, 1);
    huge[0] = WIRE_MOVE;
    raw_send(x, huge, big);
    free(huge);
    uint8_t server_msg[1] = {WIRE_WELCOME};
    raw_send(x, server_msg, 1);
    raw_send(x, "", 0);

    /* The honest match is unaffected. */
    send_move(r.a, 1, r.plan[0]);
    assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    sv_stats st = wait_stats(f, x, six_bad);
    assert_int_equal(st.bad_msgs, 6);
    assert_int_equal(st.kicked, 0);
    assert_true(raw_connected(x));

    /* Before HELLO: told to say HELLO first. */
    raw_client *y = raw_connect(sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(y);
    send_ready(y);
    assert_true(raw_wait(y, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_HANDSHAKE);

    /* Another protocol version: refused with a readable reason, then
     * disconnected. */
    raw_client *z = raw_connect(sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(z);
    uint8_t hello[64];
    wire_msg h;
    memset(&h, 0, sizeof h);
    h.type = WIRE_HELLO;
    h.hello.magic = WIRE_MAGIC;
    h.hello.version = WIRE_VERSION + 1;
    size_t hn = wire_write(&h, hello, sizeof hello);
    raw_send(z, hello, hn);
    assert_true(raw_wait(z, WIRE_REFUSED, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_VERSION);
    assert_non_null(strstr(m.error.text, "version"));
    assert_true(raw_wait_disconnect(z, WAIT_MS));

    send_move(r.a, 2, r.plan[1]);
    assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    assert_int_equal(m.ack.moves, 2);
    raw_close(x);
    raw_close(y);
    raw_close(z);
    end_race(&r);
    stop(f);
}

/* A peer that keeps sending garbage, or floods, is disconnected; the others
 * play on. */
static void test_flood_kicked(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.max_bad = 10;
    cfg.msg_rate = 50;
    cfg.msg_burst = 50;
    fixture *f = start(&cfg);
    race r;
    start_race(f, &r, true);

    raw_client *x = join_server(f, "garbage");
    uint8_t junk[3] = {0xFF, 0xFF, 0xFF};
    for (int i = 0; i < 30; i++)
        raw_send(x, junk, sizeof junk);
    assert_true(raw_wait_disconnect(x, WAIT_MS));

    /* Well-formed but far over the rate: READY toggles with no room. */
    raw_client *y = join_server(f, "flooder");
    for (int i = 0; i < 400; i++)
        send_ready(y);
    assert_true(raw_wait_disconnect(y, WAIT_MS));

    wire_msg m;
    send_move(r.a, 1, r.plan[0]);
    assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.kicked, 2);
    assert_true(st.rate_limited > 0);
    raw_close(x);
    raw_close(y);
    end_race(&r);
    stop(f);
}

/* A kicked peer that stops answering (so ENet cannot finish the
 * disconnect) is dropped after a few seconds all the same. */
static void test_kicked_silent_peer_dropped(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.max_bad = 3;
    fixture *f = start(&cfg);
    raw_client *x = join_server(f, "mute");
    uint8_t junk[2] = {0xFE, 0};
    for (int i = 0; i < 3; i++)
        raw_send(x, junk, sizeof junk);
    sv_stats st;
    /* Only the server runs from here: x never reads or acknowledges. */
    uint64_t end = mr_now_us() / 1000u + 8000;
    do {
        sv_service(f->sv, fixture_now(f), 10);
        sv_get_stats(f->sv, &st);
    } while (st.peers_now > 0 && mr_now_us() / 1000u < end);
    assert_int_equal(st.kicked, 1);
    assert_int_equal(st.peers_now, 0);
    raw_close(x);
    stop(f);
}

/* A random client message, well formed, about the race's room now and then. */
static size_t random_msg(rng_t *rng, const race *r, uint8_t *buf, size_t cap)
{
    static const uint8_t types[] = {WIRE_HELLO,      WIRE_CREATE_ROOM, WIRE_JOIN_ROOM, WIRE_QUICK_MATCH,
                                    WIRE_LEAVE_ROOM, WIRE_READY,       WIRE_REMATCH,   WIRE_RESUME,
                                    WIRE_MOVE,       WIRE_MOVE,        WIRE_MOVE};
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = types[rng_below(rng, (uint32_t)MR_ARRAY_LEN(types))];
    switch (m.type) {
    case WIRE_HELLO:
        m.hello.magic = WIRE_MAGIC;
        m.hello.version = WIRE_VERSION;
        strcpy(m.hello.name, "again");
        break;
    case WIRE_CREATE_ROOM:
        m.create.series_len = (uint8_t)(1 + rng_below(rng, 5));
        if (rng_below(rng, 2)) {
            m.create.by_id = true;
            m.create.game_id = rng_below(rng, 2) ? GAME_ID : "ice:9x9:hard#3";
            m.create.game_id_len = (uint16_t)strlen(m.create.game_id);
        } else {
            m.create.params.kind = (int)rng_below(rng, PZ_KIND_COUNT);
            m.create.params.w = (int)rng_below(rng, 12);
            m.create.params.h = m.create.params.w ? (int)rng_below(rng, 12) + 1 : 0;
            m.create.params.diff = (int)rng_below(rng, PZ_DIFF_COUNT);
            m.create.has_seed = rng_below(rng, 2);
            m.create.seed = m.create.has_seed ? rng_u64(rng) : 0;
        }
        break;
    case WIRE_JOIN_ROOM:
    case WIRE_RESUME: {
        char code[WIRE_ROOM_CODE_LEN + 1];
        if (rng_below(rng, 2))
            memcpy(code, r->code, sizeof code);
        else
            wire_room_code_make(rng, code);
        if (m.type == WIRE_JOIN_ROOM) {
            memcpy(m.join.code, code, sizeof code);
        } else {
            memcpy(m.resume.code, code, sizeof code);
            m.resume.slot = (uint8_t)rng_below(rng, 2);
            m.resume.token = r->start_a.token;
            if (rng_below(rng, 4))
                for (int i = 0; i < MATCH_TOKEN_BYTES; i++)
                    m.resume.token.b[i] = (uint8_t)rng_below(rng, 256);
            else
                m.resume.token.b[0] ^= 1;
        }
        break;
    }
    case WIRE_READY:
        m.ready.ready = rng_below(rng, 2);
        break;
    case WIRE_MOVE:
        m.move.seq = rng_u32(rng);
        m.move.move.type = (uint8_t)(1 + rng_below(rng, 3));
        m.move.move.dir = m.move.move.type == PZ_MOVE_STEP ? (uint8_t)rng_below(rng, 4) : 0;
        if (m.move.move.type != PZ_MOVE_STEP) {
            m.move.move.x = (uint16_t)rng_below(rng, 8);
            m.move.move.y = (uint16_t)rng_below(rng, 8);
        }
        break;
    default:
        break;
    }
    assert_true(wire_size(&m) <= cap);
    return wire_write(&m, buf, cap);
}

/* Well-formed messages of every client type in random order, some of them
 * truncated, extended or with a byte changed, from a welcomed client and a
 * client that never said HELLO: the server answers or drops each one and
 * never falls over, and the honest match next door plays on. Deterministic
 * (fixed seed). */
static void test_random_packets(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.max_bad = 1000000;
    cfg.msg_rate = 100000;
    cfg.msg_burst = 100000;
    fixture *f = start(&cfg);
    race r;
    start_race(f, &r, true);
    raw_client *x = join_server(f, "fuzz");
    raw_client *y = raw_connect(sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(y);
    rng_t rng;
    rng_seed(&rng, 20261121);
    uint8_t buf[128];
    int mutated = 0;
    for (int i = 0; i < 2000; i++) {
        size_t n = random_msg(&rng, &r, buf, sizeof buf);
        switch (rng_below(&rng, 6)) {
        case 0: /* truncated */
            n = rng_below(&rng, (uint32_t)n);
            mutated++;
            break;
        case 1: /* one byte changed */
            buf[rng_below(&rng, (uint32_t)n)] = (uint8_t)rng_u32(&rng);
            mutated++;
            break;
        case 2: /* trailing garbage */
            if (n < sizeof buf)
                buf[n++] = (uint8_t)rng_u32(&rng);
            mutated++;
            break;
        default:
            break;
        }
        raw_send(i % 7 == 0 ? y : x, buf, n);
        if (i % 50 == 49)
            raw_pump(x, 2, false);
    }
    assert_true(mutated > 500);
    raw_pump(x, 50, false);
    wire_msg m;
    send_move(r.a, 1, r.plan[0]);
    assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    assert_int_equal(m.ack.moves, 1);
    assert_true(raw_wait(r.b, WIRE_PROGRESS, &m, WAIT_MS));
    assert_int_equal(m.progress.slot, 0);
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_true(st.bad_msgs > 0);
    assert_true(st.rooms_created > 1); /* some requests were well formed and served */
    raw_close(x);
    raw_close(y);
    end_race(&r);
    stop(f);
}

static void test_room_errors(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.max_rooms = 2;
    fixture *f = start(&cfg);
    raw_client *a = join_server(f, "a"), *b = join_server(f, "b"), *c = join_server(f, "c");
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_JOIN_ROOM;
    strcpy(m.join.code, "ZZZZZ");
    raw_send_msg(a, &m);
    assert_true(raw_wait(a, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_NO_ROOM);

    char code[WIRE_ROOM_CODE_LEN + 1];
    create_room(a, code);
    join_room(b, code, 1);
    memset(&m, 0, sizeof m);
    m.type = WIRE_JOIN_ROOM;
    strcpy(m.join.code, code);
    raw_send_msg(c, &m);
    assert_true(raw_wait(c, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_ROOM_FULL);

    /* In a room already. */
    memset(&m, 0, sizeof m);
    m.type = WIRE_QUICK_MATCH;
    raw_send_msg(a, &m);
    assert_true(raw_wait(a, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_STATE);

    /* A bad puzzle request. */
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.by_id = true;
    m.create.game_id = "nosuchkind:3x3:easy#1";
    m.create.game_id_len = (uint16_t)strlen(m.create.game_id);
    m.create.series_len = 1;
    raw_send_msg(c, &m);
    assert_true(raw_wait(c, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_BAD_PARAMS);

    /* Room table full (max 2): the second room is c's, a third is refused. */
    char code2[WIRE_ROOM_CODE_LEN + 1];
    create_room(c, code2);
    raw_client *d = join_server(f, "d");
    memset(&m, 0, sizeof m);
    m.type = WIRE_QUICK_MATCH;
    raw_send_msg(d, &m);
    wire_msg st;
    assert_true(raw_wait(d, WIRE_ERROR, &st, WAIT_MS));
    assert_int_equal(st.error.code, WIRE_ERR_TOO_MANY_ROOMS);
    sv_stats s;
    sv_get_stats(f->sv, &s);
    assert_int_equal(s.rooms_now, 2);

    /* Leaving frees the room once empty. */
    send_simple(c, WIRE_LEAVE_ROOM);
    s = wait_stats(f, c, one_room);
    assert_int_equal(s.rooms_now, 1);
    raw_close(a);
    raw_close(b);
    raw_close(c);
    raw_close(d);
    stop(f);
}

/* A connection that never says HELLO is closed; over max_clients a client
 * is refused in words. */
static void test_handshake_limits(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.hello_timeout_ms = 200;
    cfg.max_clients = 1;
    fixture *f = start(&cfg);
    raw_client *silent = raw_connect(sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(silent);
    wire_msg m;
    assert_true(raw_wait(silent, WIRE_REFUSED, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_HANDSHAKE);
    assert_true(raw_wait_disconnect(silent, WAIT_MS));
    raw_close(silent);

    raw_client *a = join_server(f, "first");
    raw_client *b = raw_connect(sv_port(f->sv), pump_server, f, WAIT_MS);
    assert_non_null(b);
    memset(&m, 0, sizeof m);
    m.type = WIRE_HELLO;
    m.hello.magic = WIRE_MAGIC;
    m.hello.version = WIRE_VERSION;
    strcpy(m.hello.name, "second");
    raw_send_msg(b, &m);
    assert_true(raw_wait(b, WIRE_REFUSED, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_FULL);
    assert_true(raw_wait_disconnect(b, WAIT_MS));
    /* Once the first leaves, there is room again. */
    raw_close(a);
    raw_close(b);
    raw_client *c = join_server(f, "third");
    raw_close(c);
    stop(f);
}

/* --max-per-ip 2: a third connection from 127.0.0.1 is ignored by ENet
 * (the client's connect times out); the others keep playing. */
static void test_max_per_ip(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.max_per_ip = 2;
    fixture *f = start(&cfg);
    raw_client *a = join_server(f, "first");
    raw_client *b = join_server(f, "second");
    assert_null(raw_connect(sv_port(f->sv), pump_server, f, 500));
    raw_close(b);
    send_simple(a, WIRE_QUICK_MATCH);
    wire_msg m;
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
    raw_close(a);
    stop(f);
}

static void test_quick_match(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    raw_client *a = join_server(f, "a"), *b = join_server(f, "b");
    send_simple(a, WIRE_QUICK_MATCH);
    wire_msg sa, sb;
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &sa, WAIT_MS));
    send_simple(b, WIRE_QUICK_MATCH);
    assert_true(raw_wait(b, WIRE_ROOM_STATE, &sb, WAIT_MS));
    assert_string_equal(sa.room.code, sb.room.code);
    assert_int_equal(sa.room.your_slot, 0);
    assert_int_equal(sb.room.your_slot, 1);
    assert_true(sb.room.player[0].present && sb.room.player[1].present);
    assert_string_equal(sb.room.player[0].name, "a");
    assert_int_equal(sb.room.params.kind, cfg.kind);
    raw_close(a);
    raw_close(b);
    stop(f);
}

/* Issue 14's seat hijack, over the network: in many rooms, the creator
 * takes its own token, works out the match rng's seed the way tokens used
 * to be made, and predicts the opponent's token. It must never hit; and
 * nothing the players see repeats (tokens, server-drawn seeds, codes). On
 * the old server (tokens from the match rng) every prediction hits. */
static void test_tokens_unpredictable(void **ctx)
{
    (void)ctx;
    enum { ROOMS = 24 };
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    match_token_t tok[2 * ROOMS];
    uint64_t seed[ROOMS];
    char code[ROOMS][WIRE_ROOM_CODE_LEN + 1];
    int hits = 0;
    for (int i = 0; i < ROOMS; i++) {
        raw_client *a = join_server(f, "mallory"), *b = join_server(f, "victim");
        wire_msg m;
        memset(&m, 0, sizeof m);
        m.type = WIRE_CREATE_ROOM;
        m.create.params = (pz_params){.kind = PZ_MAZE, .w = 5, .h = 5, .diff = PZ_EASY};
        m.create.series_len = 1; /* no seed: the server draws one */
        raw_send_msg(a, &m);
        assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
        memcpy(code[i], m.room.code, sizeof code[i]);
        join_room(b, code[i], 1);
        send_ready(a);
        send_ready(b);
        assert_true(raw_wait(a, WIRE_MATCH_START, &m, WAIT_MS));
        tok[2 * i] = m.start.token;
        char id[128];
        memcpy(id, m.start.game_id, m.start.game_id_len);
        id[m.start.game_id_len] = '\0';
        pz_id gid;
        char err[160];
        assert_null(pz_id_parse(id, &gid, err, sizeof err));
        assert_true(gid.has_seed);
        seed[i] = gid.seed;
        assert_true(raw_wait(b, WIRE_MATCH_START, &m, WAIT_MS));
        tok[2 * i + 1] = m.start.token;
        for (int be = 0; be < 2; be++) {
            uint64_t guess = ta_predict_second(ta_token_u64(&tok[2 * i], be));
            hits += guess == ta_token_u64(&tok[2 * i + 1], 0) || guess == ta_token_u64(&tok[2 * i + 1], 1);
        }
        send_simple(a, WIRE_LEAVE_ROOM); /* a forfeits */
        assert_true(raw_wait(b, WIRE_MATCH_END, &m, WAIT_MS));
        send_simple(b, WIRE_LEAVE_ROOM); /* the room closes */
        raw_close(a);
        raw_close(b);
    }
    assert_int_equal(hits, 0);
    for (int i = 0; i < 2 * ROOMS; i++) {
        assert_true(match_token_set(&tok[i]));
        for (int j = 0; j < i; j++)
            assert_false(match_token_equal(&tok[i], &tok[j]));
    }
    for (int i = 0; i < ROOMS; i++)
        for (int j = 0; j < i; j++) {
            assert_true(seed[i] != seed[j]);
            assert_string_not_equal(code[i], code[j]);
        }
    stop(f);
}

/* A dropped player resumes with the token and carries on; one that does not
 * come back loses by forfeit when the grace period ends. */
static void test_resume_and_forfeit(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.grace_ms = 1500; /* long enough to reconnect on a loaded machine, short enough to wait out */
    fixture *f = start(&cfg);
    race r;
    start_race(f, &r, true);
    wire_msg m;
    send_move(r.a, 1, r.plan[0]);
    assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    raw_close(r.a);
    /* Bob hears that Alice dropped. */
    bool seen = false;
    for (int i = 0; i < 10 && !seen; i++) {
        assert_true(raw_wait(r.b, WIRE_ROOM_STATE, &m, WAIT_MS));
        seen = m.room.player[0].present && !m.room.player[0].connected;
    }
    assert_true(seen);

    raw_client *a2 = join_server(f, "alice");
    memset(&m, 0, sizeof m);
    m.type = WIRE_RESUME;
    strcpy(m.resume.code, r.code);
    m.resume.slot = 0;
    m.resume.token = r.start_a.token;
    m.resume.token.b[MATCH_TOKEN_BYTES - 1] ^= 1;
    raw_send_msg(a2, &m);
    assert_true(raw_wait(a2, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_RESUME);
    memset(&m, 0, sizeof m);
    m.type = WIRE_RESUME;
    strcpy(m.resume.code, r.code);
    m.resume.slot = 0;
    m.resume.token = r.start_a.token;
    raw_send_msg(a2, &m);
    assert_true(raw_wait(a2, WIRE_MATCH_START, &m, WAIT_MS));
    assert_int_equal(m.start.slot, 0);
    assert_true(m.start.start_in_ms <= 0);
    assert_true(raw_wait(a2, WIRE_MOVE_LOG, &m, WAIT_MS));
    assert_int_equal(m.log.slot, 0);
    assert_int_equal(m.log.count, 1);
    assert_int_equal(m.log.moves[0].x, r.plan[0].x);
    send_move(a2, 2, r.plan[1]);
    assert_true(raw_wait(a2, WIRE_ACK, &m, WAIT_MS));
    assert_int_equal(m.ack.moves, 2);

    /* Now Bob drops and stays away. */
    raw_close(r.b);
    r.b = NULL;
    assert_true(raw_wait(a2, WIRE_MATCH_END, &m, WAIT_MS));
    assert_int_equal(m.end.winner, 0);
    assert_int_equal(m.end.reason, MATCH_END_FORFEIT);
    raw_close(a2);
    r.a = NULL;
    end_race(&r);
    stop(f);
}

/* Sends a probe to the server's discovery port and returns the reply and
 * the details datagram that follows it (*det, when not NULL). */
static void probe_details(fixture *f, uint32_t nonce, wire_probe_reply *rep, wire_probe_details *det)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(sv_discovery_port(f->sv))};
    inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    uint8_t buf[WIRE_PROBE_REPLY_MAX + 16] = {9, 9, 9};
    /* Garbage first gets no answer and does not stop the real probe. */
    assert_int_equal(sendto(fd, buf, 3, 0, (struct sockaddr *)&to, sizeof to), 3);
    wire_probe p = {.version = WIRE_VERSION, .nonce = nonce};
    size_t n = wire_write_probe(&p, buf, sizeof buf);
    assert_int_equal(sendto(fd, buf, n, 0, (struct sockaddr *)&to, sizeof to), (ssize_t)n);
    ssize_t got = -1;
    for (int i = 0; i < 300 && got < 0; i++) {
        sv_service(f->sv, fixture_now(f), 5);
        got = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    }
    assert_true(got > 0);
    assert_true(wire_read_probe_reply(buf, (size_t)got, rep));
    assert_int_equal(rep->nonce, nonce);
    assert_int_equal(rep->game_port, sv_port(f->sv));
    if (det) {
        uint8_t dbuf[WIRE_PROBE_DETAILS_MAX + 16];
        got = -1;
        for (int i = 0; i < 300 && got < 0; i++) {
            sv_service(f->sv, fixture_now(f), 5);
            got = recv(fd, dbuf, sizeof dbuf, MSG_DONTWAIT);
        }
        assert_true(got > 0);
        assert_true(wire_read_probe_details(dbuf, (size_t)got, det));
        assert_int_equal(det->nonce, nonce);
        assert_int_equal(det->game_port, sv_port(f->sv));
    }
    close(fd);
}

static void probe(fixture *f, uint32_t nonce, wire_probe_reply *rep)
{
    probe_details(f, nonce, rep, NULL);
}

static void test_discovery(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    strcpy(cfg.name, "test server");
    fixture *f = start(&cfg);
    assert_true(sv_discovery_port(f->sv) != 0);
    wire_probe_reply rep;
    probe(f, 0xC0FFEEu, &rep);
    assert_string_equal(rep.name, "test server");
    assert_int_equal(rep.players_waiting, 0);
    /* One player waiting in a room shows up. */
    raw_client *a = join_server(f, "a");
    send_simple(a, WIRE_QUICK_MATCH);
    wire_msg m;
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
    probe(f, 2, &rep);
    assert_int_equal(rep.players_waiting, 1);
    assert_int_equal(rep.rooms, 1);
    assert_int_equal(rep.players, 1);
    raw_close(a);

    /* A flood of probes (forged sources would make the server an
     * amplifier) gets at most the reply rate's burst of answers. */
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(sv_discovery_port(f->sv))};
    inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    uint8_t buf[WIRE_PROBE_REPLY_MAX + 16];
    wire_probe p = {.version = WIRE_VERSION, .nonce = 9};
    size_t n = wire_write_probe(&p, buf, sizeof buf);
    for (int i = 0; i < 300; i++)
        assert_int_equal(sendto(fd, buf, n, 0, (struct sockaddr *)&to, sizeof to), (ssize_t)n);
    sv_stats st;
    for (int i = 0; i < 300; i++) {
        sv_service(f->sv, fixture_now(f), 1);
        sv_get_stats(f->sv, &st);
        if (st.discovery_replies + st.discovery_dropped >= 302)
            break;
    }
    int replies = 0, details = 0;
    uint8_t in[WIRE_PROBE_REPLY_MAX + WIRE_PROBE_DETAILS_MAX];
    ssize_t got;
    wire_probe_reply rr;
    wire_probe_details dd;
    while ((got = recv(fd, in, sizeof in, MSG_DONTWAIT)) > 0) {
        replies += wire_read_probe_reply(in, (size_t)got, &rr);
        details += wire_read_probe_details(in, (size_t)got, &dd);
    }
    assert_true(st.discovery_dropped > 0);
    assert_true(replies > 0 && replies <= 60);
    assert_true(details <= replies); /* a dropped probe gets no details either */
    close(fd);
    stop(f);

    /* An embedder's name cut in the middle of a UTF-8 character is cleaned,
     * not refused. */
    base_config(&cfg);
    strcpy(cfg.name, "caf\xc3");
    f = start(&cfg);
    probe(f, 3, &rep);
    assert_string_equal(rep.name, "caf");
    stop(f);
}

static void send_create_id(raw_client *c, const char *id, int series)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.by_id = true;
    m.create.game_id = id;
    m.create.game_id_len = (uint16_t)strlen(id);
    m.create.series_len = (uint8_t)series;
    raw_send_msg(c, &m);
}

/* Details: the same server id on every probe; a player's own game (lan_host)
 * names its waiting room and what it races, a dedicated server no room. */
static void test_discovery_details(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    wire_probe_reply rep;
    wire_probe_details d1, d2;
    probe_details(f, 5, &rep, &d1);
    probe_details(f, 6, &rep, &d2);
    assert_true(d1.server_id != 0);
    assert_true(d1.server_id == d2.server_id);
    assert_int_equal(d1.flags, 0);
    raw_client *a = join_server(f, "ann");
    send_create_id(a, "maze:9x7:hard#4", 3);
    wire_msg m;
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
    probe_details(f, 7, &rep, &d1);
    assert_int_equal(d1.flags, 0); /* a dedicated server keeps its rooms to itself */
    raw_close(a);
    stop(f);

    base_config(&cfg);
    cfg.lan_host = true;
    f = start(&cfg);
    probe_details(f, 8, &rep, &d1);
    assert_int_equal(d1.flags, WIRE_DISC_HOST_GAME);
    a = join_server(f, "ann");
    send_create_id(a, "maze:9x7:hard#4", 3);
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
    char code[WIRE_ROOM_CODE_LEN + 1];
    memcpy(code, m.room.code, sizeof code);
    probe_details(f, 9, &rep, &d2);
    assert_int_equal(d2.flags, WIRE_DISC_HOST_GAME | WIRE_DISC_HAS_ROOM);
    assert_string_equal(d2.room, code);
    assert_string_equal(d2.host_name, "ann");
    assert_int_equal(d2.params.kind, PZ_MAZE);
    assert_int_equal(d2.params.w, 9);
    assert_int_equal(d2.params.h, 7);
    assert_int_equal(d2.params.diff, PZ_HARD);
    assert_int_equal(d2.series, 3);
    raw_close(a);
    stop(f);
}

/* Each discovery socket takes a port of its own in its span: the second
 * server on a port moves to a later one; with the span full, none. */
static void test_discovery_span(void **ctx)
{
    (void)ctx;
    const char *err = NULL;
    sv_disc *probe_port = sv_disc_open("127.0.0.1", 0, WIRE_DISCOVERY_SPAN, &err);
    assert_non_null(probe_port);
    int base = sv_disc_port(probe_port);
    sv_disc_close(probe_port);
    if (base + WIRE_DISCOVERY_SPAN > 65535)
        skip();
    sv_disc *d[WIRE_DISCOVERY_SPAN + 1] = {NULL};
    int opened = 0;
    for (int i = 0; i <= WIRE_DISCOVERY_SPAN; i++) {
        d[i] = sv_disc_open("127.0.0.1", base, WIRE_DISCOVERY_SPAN, &err);
        if (!d[i])
            break;
        opened++;
        int p = sv_disc_port(d[i]);
        assert_true(p >= base && p < base + WIRE_DISCOVERY_SPAN);
        for (int j = 0; j < i; j++)
            assert_int_not_equal(p, sv_disc_port(d[j]));
    }
    /* Something else may hold a port of the span; never more than it has. */
    assert_true(opened >= 1 && opened <= WIRE_DISCOVERY_SPAN);
    assert_null(d[opened]);
    assert_string_equal(err, "discovery: port in use");
    for (int i = 0; i < opened; i++)
        sv_disc_close(d[i]);
}

/* In-process shutdown reaches connected clients: the embedder keeps calling
 * sv_service until sv_done. */
static void test_shutdown(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    raw_client *a = join_server(f, "a"), *b = join_server(f, "b");
    send_simple(a, WIRE_QUICK_MATCH);
    wire_msg m;
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
    sv_request_stop(f->sv);
    assert_true(sv_stop_requested(f->sv));
    assert_true(raw_wait(a, WIRE_SHUTDOWN, &m, WAIT_MS));
    assert_true(raw_wait(b, WIRE_SHUTDOWN, &m, WAIT_MS));
    assert_true(raw_wait_disconnect(a, WAIT_MS));
    assert_true(raw_wait_disconnect(b, WAIT_MS));
    for (int i = 0; i < 300 && !sv_done(f->sv); i++)
        sv_service(f->sv, fixture_now(f), 5);
    assert_true(sv_done(f->sv));
    raw_close(a);
    raw_close(b);
    stop(f);
}

/* Drain (SIGTERM in mazerace-server): the race already running goes on to
 * its rightful winner while new rooms, quick matches and joins are refused
 * with DRAINING; once no race runs the server stops by itself. */
static void test_drain(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    race r;
    start_race(f, &r, true);
    raw_client *late = join_server(f, "late");
    char code[WIRE_ROOM_CODE_LEN + 1];
    create_room(late, code); /* a room made before the drain, still waiting for a player */
    raw_client *c = join_server(f, "carol");
    sv_request_drain(f->sv);
    assert_true(sv_draining(f->sv));
    wire_msg m;
    /* bob moves first, alice solves: alice must win although the server is draining. */
    send_move(r.b, 1, r.plan[0]);
    assert_true(raw_wait(r.b, WIRE_ACK, &m, WAIT_MS));
    send_simple(c, WIRE_QUICK_MATCH);
    assert_true(raw_wait(c, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_DRAINING);
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.by_id = true;
    m.create.game_id = GAME_ID;
    m.create.game_id_len = (uint16_t)strlen(GAME_ID);
    m.create.series_len = 1;
    raw_send_msg(c, &m);
    assert_true(raw_wait(c, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_DRAINING);
    memset(&m, 0, sizeof m);
    m.type = WIRE_JOIN_ROOM;
    memcpy(m.join.code, code, WIRE_ROOM_CODE_LEN + 1);
    raw_send_msg(c, &m);
    assert_true(raw_wait(c, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_DRAINING);
    assert_false(sv_stop_requested(f->sv));
    for (int i = 0; i < r.plan_len; i++) {
        send_move(r.a, (uint32_t)i + 1, r.plan[i]);
        assert_true(raw_wait(r.a, WIRE_ACK, &m, WAIT_MS));
    }
    assert_true(raw_wait(r.a, WIRE_MATCH_END, &m, WAIT_MS));
    assert_int_equal(m.end.winner, 0);
    assert_int_equal(m.end.reason, MATCH_END_SOLVED);
    assert_true(raw_wait(r.b, WIRE_MATCH_END, &m, WAIT_MS));
    assert_int_equal(m.end.winner, 0);
    /* Nothing left running: everyone is told and the server is done. */
    assert_true(raw_wait(r.a, WIRE_SHUTDOWN, &m, WAIT_MS));
    assert_true(raw_wait(late, WIRE_SHUTDOWN, &m, WAIT_MS));
    for (int i = 0; i < 300 && !sv_done(f->sv); i++)
        sv_service(f->sv, fixture_now(f), 5);
    assert_true(sv_done(f->sv));
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.matches_started, 1);
    assert_int_equal(st.matches_finished, 1);
    assert_int_equal(st.rooms_created, 2);
    raw_close(c);
    raw_close(late);
    end_race(&r);
    stop(f);
}

/* At the drain deadline the players still racing are told (DRAINING), then
 * the match is aborted and the server stops. */
static void test_drain_deadline(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.drain_timeout_ms = 300;
    fixture *f = start(&cfg);
    race r;
    start_race(f, &r, true);
    uint64_t t0 = mr_now_us();
    sv_request_drain(f->sv);
    wire_msg m;
    assert_true(raw_wait(r.a, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_DRAINING);
    uint64_t waited_ms = (mr_now_us() - t0) / 1000u;
    assert_true(waited_ms >= 290); /* not before the deadline */
    assert_true(raw_wait(r.a, WIRE_MATCH_END, &m, WAIT_MS));
    assert_int_equal(m.end.reason, MATCH_END_ABORTED);
    assert_true(raw_wait(r.b, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_DRAINING);
    assert_true(raw_wait(r.b, WIRE_SHUTDOWN, &m, WAIT_MS));
    for (int i = 0; i < 300 && !sv_done(f->sv); i++)
        sv_service(f->sv, fixture_now(f), 5);
    assert_true(sv_done(f->sv));
    end_race(&r);
    stop(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_match),
        cmocka_unit_test(test_many_rooms),
        cmocka_unit_test(test_one_step_order),
        cmocka_unit_test(test_progress_hold),
        cmocka_unit_test(test_moves_refused),
        cmocka_unit_test(test_bad_packets),
        cmocka_unit_test(test_flood_kicked),
        cmocka_unit_test(test_kicked_silent_peer_dropped),
        cmocka_unit_test(test_random_packets),
        cmocka_unit_test(test_room_errors),
        cmocka_unit_test(test_handshake_limits),
        cmocka_unit_test(test_max_per_ip),
        cmocka_unit_test(test_quick_match),
        cmocka_unit_test(test_resume_and_forfeit),
        cmocka_unit_test(test_tokens_unpredictable),
        cmocka_unit_test(test_discovery),
        cmocka_unit_test(test_discovery_details),
        cmocka_unit_test(test_discovery_span),
        cmocka_unit_test(test_shutdown),
        cmocka_unit_test(test_drain),
        cmocka_unit_test(test_drain_deadline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
