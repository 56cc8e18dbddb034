/* test_it_clnet.c: the cl_net API as the SDL client uses it, offline and over a real server. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_net.h"
#include "it_proc.h"
#include "match.h"
#include "rng.h"
#include "util.h"

static void test_offline_api(void **ctx)
{
    (void)ctx;
    char host[64];
    int port = 0;
    assert_null(cl_net_parse_addr("127.0.0.1:4000", host, sizeof host, &port));
    assert_string_equal(host, "127.0.0.1");
    assert_int_equal(port, 4000);
    assert_null(cl_net_parse_addr("localhost", host, sizeof host, &port));
    assert_int_equal(port, WIRE_DEFAULT_PORT);
    const char *bad[] = {"", ":80", "host:", "host:0", "host:65536", "host:12a", "a b:1", NULL};
    for (int i = 0; bad[i]; i++)
        assert_non_null(cl_net_parse_addr(bad[i], host, sizeof host, &port));
    assert_non_null(cl_net_parse_addr("averyveryverylonghostname", host, 8, &port));

    const char *err = NULL;
    assert_null(cl_net_create("", &err));
    assert_non_null(err);
    err = NULL;
    assert_null(cl_net_create("bad\nname", &err));
    assert_non_null(err);
    assert_null(cl_net_create("abcdefghijklmnopqrstuvwxyz", &err)); /* 26 bytes > 24 */

    cl_net_t *n = cl_net_create("offline", &err);
    assert_non_null(n);
    assert_int_equal(cl_net_phase(n), CL_NET_IDLE);
    pz_params p = {.kind = PZ_MAZE, .w = 5, .h = 5, .diff = PZ_EASY};
    assert_non_null(cl_net_create_room(n, &p, false, 0, 1));
    assert_non_null(cl_net_join_room(n, "ABCDE"));
    assert_non_null(cl_net_quick_match(n));
    assert_non_null(cl_net_ready(n, true));
    assert_non_null(cl_net_rematch(n));
    assert_non_null(cl_net_leave(n));
    assert_int_equal(cl_net_send_move(n, (pz_move){.type = PZ_MOVE_STEP}), 0);
    assert_non_null(cl_net_send_raw(n, "x", 1));
    assert_non_null(cl_net_connect(n, "127.0.0.1", 0, 0));
    cl_net_event ev;
    assert_false(cl_net_poll(n, 0, &ev));
    assert_null(cl_net_room(n));
    assert_null(cl_net_puzzle(n));
    assert_int_equal(cl_net_slot(n), -1);
    assert_int_equal(cl_net_rtt_ms(n), 0);
    pz_move pend[4];
    assert_int_equal(cl_net_pending(n, pend, 4), 0);
    cl_net_destroy(n);
    cl_net_destroy(NULL);
    cl_hub_destroy(NULL);
    assert_null(cl_hub_create(0, 0, &err));
    assert_null(cl_disc_create(0, &err));
    cl_disc_destroy(NULL);
}

/* Events seen per connection, for the pump below. */
typedef struct seen {
    int count[CL_EV_ERROR + 1];
    cl_net_event last[CL_EV_ERROR + 1];
} seen;

/* Polls both connections (and drains the server's output) until conn
 * `which` has seen `want` events of `type`, or timeout_ms. */
static bool pump(it_proc *sv, cl_net_t *n[2], seen s[2], int which, int type, int want, int timeout_ms)
{
    uint64_t deadline = mr_now_us() + (uint64_t)timeout_ms * 1000u;
    while (s[which].count[type] < want && mr_now_us() < deadline) {
        for (int i = 0; i < 2; i++) {
            cl_net_event ev;
            for (int k = 0; k < 1000 && cl_net_poll(n[i], mr_now_us() / 1000u, &ev); k++) {
                if (ev.type > 0 && ev.type <= CL_EV_ERROR) {
                    s[i].count[ev.type]++;
                    s[i].last[ev.type] = ev;
                }
            }
        }
        it_proc_line(sv, (char[512]){0}, 512, 1, "server");
    }
    return s[which].count[type] >= want;
}

static void test_lobby_race_result(void **ctx)
{
    (void)ctx;
    static const char *const extra[] = {"--no-discovery", "--countdown", "0.1", "--name", "lobby", NULL};
    it_proc sv;
    int port = it_server_start(&sv, MR_SERVER_PATH, extra);
    assert_true(port > 0);
    const char *err = NULL;
    cl_net_t *n[2] = {cl_net_create("alice", &err), cl_net_create("bob", &err)};
    assert_non_null(n[0]);
    assert_non_null(n[1]);
    seen s[2];
    memset(s, 0, sizeof s);
    for (int i = 0; i < 2; i++) {
        assert_null(cl_net_connect(n[i], "127.0.0.1", port, mr_now_us() / 1000u));
        assert_int_equal(cl_net_phase(n[i]), CL_NET_CONNECTING);
        assert_true(pump(&sv, n, s, i, CL_EV_CONNECTED, 1, 5000));
        assert_string_equal(s[i].last[CL_EV_CONNECTED].text, "lobby");
        assert_int_equal(cl_net_phase(n[i]), CL_NET_ONLINE);
    }
    /* An unknown room is an error answer, not a failure. */
    assert_null(cl_net_join_room(n[1], "zzzzz"));
    assert_true(pump(&sv, n, s, 1, CL_EV_ERROR, 1, 5000));
    assert_int_equal(s[1].last[CL_EV_ERROR].code, WIRE_ERR_NO_ROOM);
    assert_int_equal(cl_net_phase(n[1]), CL_NET_ONLINE);

    pz_params p = {.kind = PZ_MAZE, .w = 9, .h = 7, .diff = PZ_EASY};
    assert_null(cl_net_create_room(n[0], &p, true, 42, 1));
    assert_true(pump(&sv, n, s, 0, CL_EV_ROOM_JOINED, 1, 5000));
    char code[8], typed[12];
    snprintf(code, sizeof code, "%s", s[0].last[CL_EV_ROOM_JOINED].room.code);
    assert_int_equal(s[0].last[CL_EV_ROOM_JOINED].slot, 0);
    /* Typed in lower case with a dash, as a player might. */
    snprintf(typed, sizeof typed, "%c%c-%c%c%c", code[0] | 0x20, code[1] | 0x20, code[2] | 0x20,
             code[3] | 0x20, code[4] | 0x20);
    assert_null(cl_net_join_room(n[1], typed));
    assert_true(pump(&sv, n, s, 1, CL_EV_ROOM_JOINED, 1, 5000));
    assert_string_equal(cl_net_room(n[1])->code, code);
    assert_int_equal(cl_net_slot(n[1]), 1);
    assert_true(pump(&sv, n, s, 0, CL_EV_LOBBY, 2, 5000));
    assert_string_equal(cl_net_room(n[0])->player[1].name, "bob");
    assert_string_equal(cl_net_room(n[1])->player[0].name, "alice");

    for (int i = 0; i < 2; i++)
        assert_null(cl_net_ready(n[i], true));
    for (int i = 0; i < 2; i++)
        assert_true(pump(&sv, n, s, i, CL_EV_MATCH_START, 1, 10000));
    assert_string_equal(cl_net_game_id(n[0]), cl_net_game_id(n[1]));
    assert_string_equal(cl_net_game_id(n[0]), "maze:9x7:easy#42");
    match_token_t tok = cl_net_token(n[0]);
    assert_true(match_token_set(&tok));
    const pz_puzzle *pz = cl_net_puzzle(n[0]);
    const pz_kind *k = pz_kind_of(pz);
    pz_move sol[256];
    int len = k->solve(pz, NULL, sol, 256);
    assert_true(len > 0 && len <= 256);

    /* Wait for the start on our clock, then play the whole solution at once:
     * the pending list holds the moves until their ACKs. */
    uint64_t start = s[0].last[CL_EV_MATCH_START].start_ms;
    while (mr_now_us() / 1000u < start + 5)
        pump(&sv, n, s, 0, CL_EV_ERROR, 1, 5);
    for (int i = 0; i < len; i++)
        assert_int_equal(cl_net_send_move(n[0], sol[i]), (uint32_t)i + 1);
    pz_move pend[4];
    assert_int_equal(cl_net_pending(n[0], pend, 4), len);
    assert_memory_equal(&pend[0], &sol[0], sizeof pend[0]);
    cl_net_flush(n[0]);
    assert_true(pump(&sv, n, s, 0, CL_EV_ACK, len, 10000));
    assert_true(s[0].last[CL_EV_ACK].solved);
    assert_int_equal(s[0].last[CL_EV_ACK].moves, (uint32_t)len);
    assert_int_equal(s[0].count[CL_EV_REJECT], 0);
    assert_true(pump(&sv, n, s, 1, CL_EV_MATCH_END, 1, 10000));
    assert_true(pump(&sv, n, s, 0, CL_EV_MATCH_END, 1, 10000));
    assert_int_equal(s[1].count[CL_EV_PROGRESS], len);
    assert_int_equal(s[1].last[CL_EV_MATCH_END].end.winner, 0);
    assert_int_equal(s[1].last[CL_EV_MATCH_END].end.moves[0], (uint32_t)len);
    assert_int_equal(cl_net_pending(n[0], pend, 4), 0);
    /* Both views agree: A's own board and B's ghost of it are solved. */
    assert_true(k->is_solved(pz, cl_net_state(n[0])));
    assert_true(k->is_solved(cl_net_puzzle(n[1]), cl_net_opponent_state(n[1])));
    assert_false(k->is_solved(cl_net_puzzle(n[1]), cl_net_state(n[1])));
    /* A move after the end is refused by the server, in order. */
    uint32_t late = cl_net_send_move(n[1], sol[0]);
    assert_true(late > 0);
    assert_true(pump(&sv, n, s, 1, CL_EV_REJECT, 1, 5000));
    assert_int_equal(s[1].last[CL_EV_REJECT].seq, late);
    assert_int_equal(s[1].last[CL_EV_REJECT].code, MATCH_REJ_FINISHED);

    /* A drop after the game: the seat is held, cl_net resumes it without
     * reporting the game's start or end again. */
    int starts = s[1].count[CL_EV_MATCH_START], ends = s[1].count[CL_EV_MATCH_END];
    cl_net_drop(n[1], mr_now_us() / 1000u, true);
    assert_int_equal(cl_net_phase(n[1]), CL_NET_RESUMING);
    assert_true(pump(&sv, n, s, 1, CL_EV_RESUMED, 1, 10000));
    assert_int_equal(s[1].count[CL_EV_DISCONNECTED], 1);
    assert_true(s[1].last[CL_EV_DISCONNECTED].resuming);
    assert_int_equal(cl_net_phase(n[1]), CL_NET_IN_ROOM);
    assert_true(k->is_solved(cl_net_puzzle(n[1]), cl_net_opponent_state(n[1])));
    assert_int_equal(s[1].count[CL_EV_MATCH_START], starts);
    assert_false(pump(&sv, n, s, 1, CL_EV_ERROR, 2, 200)); /* let anything still coming arrive */
    assert_int_equal(s[1].count[CL_EV_MATCH_END], ends);
    assert_int_equal(s[1].count[CL_EV_ERROR], 1); /* still only the unknown room */

    /* Rematch: the offer reaches the other, both asking starts game 2. */
    assert_null(cl_net_rematch(n[0]));
    assert_true(pump(&sv, n, s, 1, CL_EV_REMATCH_OFFER, 1, 5000));
    assert_int_equal(s[1].last[CL_EV_REMATCH_OFFER].slot, 0);
    assert_null(cl_net_rematch(n[1]));
    assert_true(pump(&sv, n, s, 0, CL_EV_MATCH_START, 2, 5000));
    assert_int_equal(s[0].last[CL_EV_MATCH_START].game_no, 1); /* a new best-of-1 series */
    assert_string_not_equal(cl_net_game_id(n[0]), "maze:9x7:easy#42");

    /* Leaving mid-race forfeits at once. */
    wire_room_state before = *cl_net_room(n[1]);
    assert_null(cl_net_leave(n[1]));
    assert_int_equal(cl_net_phase(n[1]), CL_NET_ONLINE);
    assert_null(cl_net_room(n[1]));
    /* What the server sent about the room before it saw the leave does not
     * put us back in (the server never answers a leave). */
    int lobbies = s[1].count[CL_EV_LOBBY], progress = s[1].count[CL_EV_PROGRESS];
    wire_msg stale;
    memset(&stale, 0, sizeof stale);
    stale.type = WIRE_ROOM_STATE;
    stale.room = before;
    static uint8_t sbuf[WIRE_MSG_MAX];
    cl_net_inject(n[1], sbuf, wire_write(&stale, sbuf, sizeof sbuf), mr_now_us() / 1000u);
    stale.type = WIRE_PROGRESS;
    memset(&stale.progress, 0, sizeof stale.progress);
    stale.progress.move = sol[0];
    cl_net_inject(n[1], sbuf, wire_write(&stale, sbuf, sizeof sbuf), mr_now_us() / 1000u);
    assert_null(cl_net_room(n[1]));
    assert_int_equal(cl_net_phase(n[1]), CL_NET_ONLINE);
    assert_true(pump(&sv, n, s, 0, CL_EV_MATCH_END, 2, 5000));
    assert_int_equal(s[0].last[CL_EV_MATCH_END].end.winner, 0);
    assert_int_equal(s[0].last[CL_EV_MATCH_END].end.reason, MATCH_END_FORFEIT);
    assert_int_equal(s[1].count[CL_EV_LOBBY], lobbies);
    assert_int_equal(s[1].count[CL_EV_PROGRESS], progress);

    /* Without a resume window a drop is final. */
    cl_net_set_resume_window(n[0], 0);
    cl_net_drop(n[0], mr_now_us() / 1000u, true);
    assert_true(pump(&sv, n, s, 0, CL_EV_DISCONNECTED, 1, 1000));
    assert_false(s[0].last[CL_EV_DISCONNECTED].resuming);
    assert_int_equal(cl_net_phase(n[0]), CL_NET_CLOSED);

    cl_net_destroy(n[0]);
    cl_net_destroy(n[1]);
    it_proc_signal(&sv, SIGINT);
    int code_sv = -1;
    assert_true(it_proc_wait(&sv, 5000, &code_sv, "server"));
    assert_int_equal(code_sv, 0);
    it_proc_cleanup(&sv);
}

/* Encodes m and hands it to n as if the server had sent it. */
static void inject(cl_net_t *n, const wire_msg *m)
{
    static uint8_t buf[WIRE_MSG_MAX];
    size_t len = wire_write(m, buf, sizeof buf);
    cl_net_inject(n, buf, len, 1000);
}

static int drain(cl_net_t *n, int type)
{
    cl_net_event ev;
    int hits = 0;
    for (int i = 0; i < 100000 && cl_net_poll(n, 1000, &ev); i++)
        hits += ev.type == type;
    return hits;
}

/* Whatever a hostile or broken server sends, cl_net reports it and never
 * crashes (run under ASan in CI): random bytes, every server message with
 * bad contents, and mutations of valid ones. Bounded: a few thousand
 * messages. */
/* cl_hub_create_peers: its bounds; a hub with one ENet peer per connection
 * (the bots' players) connects all of them, and cl_hub_service says how
 * many events it handled (the bots' loop waits only when no host had any). */
static void test_hub_one_peer_each(void **ctx)
{
    (void)ctx;
    const char *err = NULL;
    assert_null(cl_hub_create_peers(2, 1, 0, &err));
    assert_non_null(err);
    assert_null(cl_hub_create_peers(2, 4096, 0, &err));
    assert_null(cl_hub_create_peers(0, 1, 0, &err));
    cl_hub_t *h = cl_hub_create_peers(2, 2, 0, &err);
    assert_non_null(h);
    assert_int_equal(cl_hub_service(h, 0, 0), 0);
    assert_int_equal(cl_hub_service(NULL, 0, 0), 0);

    static const char *const extra[] = {"--no-discovery", NULL};
    it_proc sv;
    int port = it_server_start(&sv, MR_SERVER_PATH, extra);
    assert_true(port > 0);
    cl_net_t *n[2] = {cl_net_create_in(h, "ann", &err), cl_net_create_in(h, "ben", &err)};
    assert_non_null(n[0]);
    assert_non_null(n[1]);
    for (int i = 0; i < 2; i++)
        assert_null(cl_net_connect(n[i], "127.0.0.1", port, mr_now_us() / 1000u));
    int handled = 0, connected = 0;
    uint64_t deadline = mr_now_us() + 5000000u;
    while (connected < 2 && mr_now_us() < deadline) {
        handled += cl_hub_service(h, mr_now_us() / 1000u, 10);
        it_proc_line(&sv, (char[512]){0}, 512, 0, "server");
        cl_net_event ev;
        for (int i = 0; i < 2; i++)
            while (cl_net_poll(n[i], mr_now_us() / 1000u, &ev))
                connected += ev.type == CL_EV_CONNECTED;
    }
    assert_int_equal(connected, 2);
    assert_int_equal(cl_hub_peers(h), 2);
    assert_true(handled >= 4); /* two CONNECTs and two WELCOMEs at least */
    cl_net_destroy(n[0]);
    cl_net_destroy(n[1]);
    cl_hub_destroy(h);
    it_proc_signal(&sv, SIGINT);
    int code_sv = -1;
    assert_true(it_proc_wait(&sv, 5000, &code_sv, "server"));
    assert_int_equal(code_sv, 0);
    it_proc_cleanup(&sv);
}

static void test_hostile_server_input(void **ctx)
{
    (void)ctx;
    const char *err = NULL;
    cl_net_t *n = cl_net_create("victim", &err);
    assert_non_null(n);
    rng_t r;
    rng_seed(&r, 99);
    uint8_t buf[96];
    for (int i = 0; i < 3000; i++) {
        size_t len = rng_below(&r, sizeof buf);
        for (size_t k = 0; k < len; k++)
            buf[k] = (uint8_t)rng_u32(&r);
        if (len > 0 && i % 2) /* a real server type, so decoding goes deeper */
            buf[0] = (uint8_t)(30 + rng_below(&r, 10));
        cl_net_inject(n, buf, len, 1000);
    }
    assert_true(drain(n, CL_EV_ERROR) > 1000);

    /* A plausible session with lies in it. */
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_ROOM_STATE;
    snprintf(m.room.code, sizeof m.room.code, "ABCDE");
    m.room.your_slot = 1;
    m.room.params = (pz_params){.kind = PZ_MAZE, .w = 9, .h = 7, .diff = PZ_EASY};
    m.room.series_len = 1;
    inject(n, &m);
    assert_int_equal(drain(n, CL_EV_ROOM_JOINED), 1);
    assert_int_equal(cl_net_slot(n), 1);

    const char *id = "maze:9x7:easy#5";
    memset(&m, 0, sizeof m);
    m.type = WIRE_MATCH_START;
    m.start.slot = 1;
    m.start.token.b[0] = 77;
    m.start.series_len = 1;
    m.start.game_id = "sum:zzz";
    m.start.game_id_len = 7;
    inject(n, &m); /* not a game ID */
    assert_int_equal(drain(n, CL_EV_ERROR), 1);
    assert_null(cl_net_puzzle(n));
    m.start.game_id = id;
    m.start.game_id_len = (uint16_t)strlen(id);
    m.start.desc_hash = 12345;
    inject(n, &m); /* wrong hash */
    assert_int_equal(drain(n, CL_EV_ERROR), 1);
    assert_null(cl_net_puzzle(n));
    char perr[128];
    pz_puzzle *pz = pz_from_id(id, perr, sizeof perr);
    assert_non_null(pz);
    char *desc = pz_kind_of(pz)->encode_desc(pz);
    m.start.desc_hash = mr_hash64(desc, strlen(desc));
    free(desc);
    inject(n, &m);
    assert_int_equal(drain(n, CL_EV_MATCH_START), 1);
    assert_non_null(cl_net_puzzle(n));

    memset(&m, 0, sizeof m);
    m.type = WIRE_MOVE_LOG;
    m.log.slot = 1;
    m.log.first = 5; /* out of order */
    m.log.count = 1;
    m.log.moves[0] = (pz_move){.type = PZ_MOVE_STEP, .dir = PZ_UP};
    inject(n, &m);
    assert_int_equal(drain(n, CL_EV_ERROR), 1);
    m.log.first = 0;
    m.log.count = 3;
    for (int i = 0; i < 3; i++) /* a rotation never replays on a maze */
        m.log.moves[i] = (pz_move){.type = PZ_MOVE_ROTATE_CW};
    inject(n, &m);
    assert_int_equal(drain(n, CL_EV_ERROR), 1);

    memset(&m, 0, sizeof m);
    m.type = WIRE_ACK;
    m.ack.seq = 4242; /* never sent */
    inject(n, &m);
    assert_int_equal(drain(n, CL_EV_ACK), 0);
    m.type = WIRE_PROGRESS;
    memset(&m.progress, 0, sizeof m.progress);
    m.progress.slot = 0;
    m.progress.move = (pz_move){.type = PZ_MOVE_ROTATE_CCW, .x = 60000, .y = 60000};
    inject(n, &m); /* illegal on the ghost board: shown, not applied */
    assert_int_equal(drain(n, CL_EV_PROGRESS), 1);
    /* A BUNDLE: its messages arrive one by one. A bad one (an empty entry,
     * a byte past the last entry, a bundle inside, an entry running past
     * the end) is one ERROR and none of its messages is acted on. */
    {
        static uint8_t one[WIRE_MSG_MAX], b[WIRE_BUNDLE_MAX + 8];
        size_t k = wire_write(&m, one, sizeof one), used = 0;
        for (int i = 0; i < 3; i++)
            assert_true(wire_bundle_add(b, WIRE_BUNDLE_MAX, &used, one, k));
        cl_net_inject(n, b, used, 1000);
        assert_int_equal(drain(n, CL_EV_PROGRESS), 3);
        b[used] = 0;
        cl_net_inject(n, b, used + 1, 1000); /* trailing byte */
        b[1] = b[2] = 0;
        cl_net_inject(n, b, used, 1000); /* empty first entry */
        uint8_t nested[64] = {WIRE_BUNDLE, 0, (uint8_t)(3 + k), WIRE_BUNDLE, 0, (uint8_t)k};
        assert_true(k <= 40);
        memcpy(nested + 6, one, k);
        cl_net_inject(n, nested, 6 + k, 1000);
        nested[2] = (uint8_t)(4 + k); /* runs one byte past the end */
        cl_net_inject(n, nested, 6 + k, 1000);
        cl_net_event ev;
        int errors = 0, progress = 0;
        for (int i = 0; i < 100 && cl_net_poll(n, 1000, &ev); i++) {
            errors += ev.type == CL_EV_ERROR;
            progress += ev.type == CL_EV_PROGRESS;
        }
        assert_int_equal(errors, 4);
        assert_int_equal(progress, 0);
    }
    m.type = WIRE_MOVE;
    memset(&m.move, 0, sizeof m.move);
    m.move.move = (pz_move){.type = PZ_MOVE_STEP};
    inject(n, &m); /* a client-to-server message */
    assert_int_equal(drain(n, CL_EV_ERROR), 1);

    /* Mutations of valid messages: one to four bytes changed. */
    wire_msg valid[4];
    memset(valid, 0, sizeof valid);
    valid[0].type = WIRE_MATCH_END;
    valid[0].end.winner = WIRE_SLOT_NONE;
    valid[0].end.series_len = 3;
    valid[1] = m;
    valid[1].type = WIRE_PROGRESS;
    valid[1].progress.move = (pz_move){.type = PZ_MOVE_STEP, .dir = PZ_UP};
    valid[2].type = WIRE_ERROR;
    valid[2].error.code = WIRE_ERR_STATE;
    snprintf(valid[2].error.text, sizeof valid[2].error.text, "not now");
    valid[3].type = WIRE_WATCH_AT; /* not asked for: ignored, whatever its fields say */
    memcpy(valid[3].watch_at.code, "ABCDE", sizeof valid[3].watch_at.code);
    valid[3].watch_at.port = 7502;
    static uint8_t enc[WIRE_MSG_MAX];
    for (int v = 0; v < 4; v++) {
        size_t len = wire_write(&valid[v], enc, sizeof enc);
        for (int i = 0; i < 1000; i++) {
            uint8_t mut[128];
            memcpy(mut, enc, len);
            int flips = 1 + (int)rng_below(&r, 4);
            for (int f = 0; f < flips; f++)
                mut[1 + rng_below(&r, (uint32_t)len - 1)] ^= (uint8_t)(1 + rng_below(&r, 255));
            cl_net_inject(n, mut, len - (i % 7 == 0), 1000);
            drain(n, 0);
        }
    }
    /* A player in room ABCDE asked for no WATCH: no WATCH_AT moved the connection. */
    assert_int_equal(cl_net_port(n), 0);
    assert_int_equal(cl_net_phase(n), CL_NET_IDLE);
    /* A WATCH_AT with port 0 or cut short is a bad message. */
    size_t len = wire_write(&valid[3], enc, sizeof enc);
    enc[len - 1] = enc[len - 2] = 0;
    cl_net_inject(n, enc, len, 1000);
    cl_net_inject(n, enc, len - 1, 1000);
    assert_int_equal(drain(n, CL_EV_ERROR), 2);
    pz_kind_of(pz)->free_puzzle(pz);
    cl_net_destroy(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_offline_api, it_teardown),
        cmocka_unit_test_teardown(test_lobby_race_result, it_teardown),
        cmocka_unit_test_teardown(test_hostile_server_input, it_teardown),
        cmocka_unit_test_teardown(test_hub_one_peer_each, it_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
