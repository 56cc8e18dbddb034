/* test_server_net.c: the server in-process against raw ENet clients on 127.0.0.1: play, the order of a step's
 * messages, the progress hold, quick match, resume, tokens, shutdown and drain (test_server_abuse.c: bad
 * input and limits; test_server_disc.c: LAN discovery). */
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
#include "sv_race.h"
#include "util.h"
#include "wire.h"

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
    race r;
    fixture *f = start_race_server(&cfg, &r, true);
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
    stop_race_server(f, &r);
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
    race r;
    fixture *f = start_race_server(&cfg, &r, true);
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
    stop_race_server(f, &r);
}

/* A whole match: every move acknowledged, the opponent sees progress, the
 * solver wins, and moves after the end are refused. */
static void test_full_match(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    race r;
    fixture *f = start_race_server(&cfg, &r, true);
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
    stop_race_server(f, &r);
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
    race r;
    fixture *f = start_race_server(&cfg, &r, false);
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
    stop_race_server(f, &r);

    base_config(&cfg);
    f = start_race_server(&cfg, &r, true);
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
    stop_race_server(f, &r);
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
    race r;
    fixture *f = start_race_server(&cfg, &r, true);
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
    match_token_t wrong = r.start_a.token;
    wrong.b[MATCH_TOKEN_BYTES - 1] ^= 1;
    send_resume(a2, r.code, 0, wrong);
    assert_true(raw_wait(a2, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_RESUME);
    send_resume(a2, r.code, 0, r.start_a.token);
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
    stop_race_server(f, &r);
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
    race r;
    fixture *f = start_race_server(&cfg, &r, true);
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
    stop_race_server(f, &r);
}

/* At the drain deadline the players still racing are told (DRAINING), then
 * the match is aborted and the server stops. */
static void test_drain_deadline(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.drain_timeout_ms = 300;
    race r;
    fixture *f = start_race_server(&cfg, &r, true);
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
    stop_race_server(f, &r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_match),         cmocka_unit_test(test_many_rooms),
        cmocka_unit_test(test_one_step_order),     cmocka_unit_test(test_progress_hold),
        cmocka_unit_test(test_moves_refused),      cmocka_unit_test(test_quick_match),
        cmocka_unit_test(test_resume_and_forfeit), cmocka_unit_test(test_tokens_unpredictable),
        cmocka_unit_test(test_shutdown),           cmocka_unit_test(test_drain),
        cmocka_unit_test(test_drain_deadline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
