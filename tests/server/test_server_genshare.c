/* test_server_genshare.c: a player's small room is made during a flood of big-room requests (CREATE_ROOM and
 * LEAVE of maze 1000x1000, pipes 40x40, sum 10x10, ice 384x384 from 32 connections on as many addresses):
 * small puzzles keep their share of the generation queue (issue 26, finding 3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "puzzle.h"
#include "sv_fixture.h"
#include "sv_gen.h"
#include "util.h"

#define ATTACKERS 32
#define ATTACK_ADDRS 32
#define TICK_MS 11 /* each connection sends a message every 11 ms: 90 a second, under the limit of 100 */
#define NEWCOMERS 20

typedef struct flood {
    fixture *f;
    raw_client *c[ATTACKERS];
    unsigned step[ATTACKERS];
    uint64_t next_ms;
    unsigned long sent;
    int peak_pending;
} flood;

static const pz_params big[] = {
    {.kind = PZ_MAZE, .w = 1000, .h = 1000, .diff = PZ_HARD},
    {.kind = PZ_PIPES, .w = 40, .h = 40, .diff = PZ_HARD},
    {.kind = PZ_SUM, .w = 10, .h = 10, .diff = PZ_HARD},
    {.kind = PZ_ICE, .w = 384, .h = 384, .diff = PZ_HARD},
};

static void send_create_params(raw_client *c, const pz_params *p)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.params = *p;
    m.create.series_len = 1;
    raw_send_msg(c, &m);
}

/* The flood's messages that are due by now, then the server. */
static void pump_flood(void *ctx)
{
    flood *fl = ctx;
    uint64_t now = mr_now_us() / 1000u;
    for (int k = 0; k < 4 && now >= fl->next_ms; k++) { /* catch up a little, never in a burst */
        for (int i = 0; i < ATTACKERS; i++) {
            unsigned s = fl->step[i]++;
            if (s % 2 == 0)
                send_create_params(fl->c[i], &big[(s / 2 + (unsigned)i) % MR_ARRAY_LEN(big)]);
            else
                send_simple(fl->c[i], WIRE_LEAVE_ROOM);
            fl->sent++;
        }
        fl->next_ms += TICK_MS;
    }
    if (now >= fl->next_ms)
        fl->next_ms = now + TICK_MS;
    for (int i = 0; i < ATTACKERS; i++)
        raw_pump(fl->c[i], 0, false);
    sv_stats st;
    sv_get_stats(fl->f->sv, &st);
    if ((int)st.gen_pending > fl->peak_pending)
        fl->peak_pending = (int)st.gen_pending;
}

/* The flood goes on for ms. */
static void flood_for(flood *fl, int ms)
{
    uint64_t end = mr_now_us() + (uint64_t)ms * 1000u;
    while (mr_now_us() < end) {
        pump_flood(fl);
        pump_server(fl->f);
    }
}

/* A newcomer's 15x15 maze, its CREATE_ROOM right behind one of the
 * flood's bursts of CREATE_ROOMs (the worst moment, which a player's
 * request hits now and then): true if its room opened, else the error. */
static bool newcomer_room(flood *fl, int k, int *err_code, char *why, size_t cap)
{
    char name[16];
    snprintf(name, sizeof name, "new%d", k);
    raw_client *c = raw_connect_from("127.0.0.1", sv_port(fl->f->sv), pump_server, fl->f, WAIT_MS);
    assert_non_null(c);
    assert_true(raw_hello(c, name, WAIT_MS));
    if (fl->step[0] % 2 != 0) { /* the next tick would be LEAVEs */
        fl->next_ms = 0;
        pump_flood(fl);
    }
    fl->next_ms = 0;
    pump_flood(fl); /* 32 CREATE_ROOMs sent */
    send_create_params(c, &(pz_params){.kind = PZ_MAZE, .w = 15, .h = 15, .diff = PZ_MEDIUM});
    raw_pump(c, 0, false); /* sent, and the server reads them all */
    bool ok = false;
    for (;;) {
        wire_msg m;
        assert_true(raw_next(c, &m, WAIT_MS));
        if (m.type == WIRE_ROOM_STATE) {
            ok = true;
            break;
        }
        if (m.type == WIRE_ERROR) {
            *err_code = m.error.code;
            snprintf(why, cap, "%.100s", m.error.text);
            break;
        }
    }
    send_simple(c, WIRE_LEAVE_ROOM);
    raw_close(c);
    return ok;
}

/* Issue 26: during the flood, a new player's CREATE of a 15x15 maze got
 * ERROR 15 BUSY: the queue was shared by the small and big lanes, and
 * the flood's requests took all of it. Now 20 newcomers, one every 100 ms
 * with the flood going on all the while, all get their rooms. */
static void test_small_room_during_big_flood(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    /* A smaller queue than the default 64, so that the flood fills it on a
     * fast machine too (the share that small puzzles keep scales with it). */
    cfg.gen_queue = 16;
    flood fl = {.f = start(&cfg)};
    for (int i = 0; i < ATTACKERS; i++) {
        char ip[16];
        snprintf(ip, sizeof ip, "127.3.0.%d", 1 + i % ATTACK_ADDRS);
        fl.c[i] = raw_connect_from(ip, sv_port(fl.f->sv), pump_server, fl.f, WAIT_MS);
        assert_non_null(fl.c[i]);
        assert_true(raw_hello(fl.c[i], "flood", WAIT_MS));
    }
    fl.next_ms = mr_now_us() / 1000u;
    flood_for(&fl, 1500);
    int rooms = 0, last_err = 0;
    char why[160] = "";
    for (int k = 0; k < NEWCOMERS; k++) {
        rooms += newcomer_room(&fl, k, &last_err, why, sizeof why);
        flood_for(&fl, 100);
    }
    sv_stats st;
    sv_get_stats(fl.f->sv, &st);
    print_message("flood: %lu messages, %llu generation jobs run, %llu refused, peak %d queued or running; "
                  "newcomers' rooms %d of %d%s%s\n",
                  fl.sent, (unsigned long long)st.gen_jobs, (unsigned long long)st.gen_refused,
                  fl.peak_pending, rooms, NEWCOMERS, last_err ? "; last refusal: " : "", why);
    assert_true(st.gen_jobs > 100); /* the flood did make the server work */
    assert_int_equal(rooms, NEWCOMERS);
    for (int i = 0; i < ATTACKERS; i++)
        raw_close(fl.c[i]);
    stop(fl.f);
}

/* A room request of p from ip, as sv_genq.c makes it. */
static sv_gen_job *room_job(const pz_params *p, uint32_t ip, uint64_t seed)
{
    sv_gen_job *j = sv_gen_job_new();
    j->what = SV_GEN_ROOM;
    j->ip = ip;
    j->params = *p;
    j->seed = seed;
    match_config_default(&j->mc);
    j->est_us = sv_gen_estimate_us(p);
    return j;
}

/* The queue itself, with no network in the way: while its worker makes
 * the first of them, 1000x1000 hard mazes from one address take the big
 * lane's three quarters of a queue of 16 (12) and no more; a 15x15 maze
 * still gets in (on the old queue, shared, the 13th to 16th maze took the
 * last places and the small one was refused). A maze from another address
 * takes the place of the first address's newest queued one, which comes
 * back unmade, marked displaced. */
static void test_small_share_of_queue(void **ctx)
{
    (void)ctx;
    sv_gen *g = sv_gen_create(16);
    assert_non_null(g);
    const pz_params giant = {.kind = PZ_MAZE, .w = 1000, .h = 1000, .diff = PZ_HARD};
    const pz_params small = {.kind = PZ_MAZE, .w = 15, .h = 15, .diff = PZ_MEDIUM};
    /* Giants from one address until one is refused: the big lane is full. */
    int big_in = 0;
    for (int i = 0; i < 20; i++) {
        sv_gen_job *j = room_job(&giant, 0x0A000001u, (uint64_t)i);
        if (!sv_gen_submit(g, j)) {
            sv_gen_job_free(j);
            break;
        }
        big_in++;
    }
    sv_gen_job *other = room_job(&giant, 0x0A000003u, 100);
    bool other_in = sv_gen_submit(g, other);
    if (!other_in)
        sv_gen_job_free(other);
    sv_gen_job *mine = room_job(&small, 0x0A000002u, 99);
    bool small_in = sv_gen_submit(g, mine);
    if (!small_in)
        sv_gen_job_free(mine);
    print_message("queue of 16: %d giant mazes from one address taken, the small one %s, another address's "
                  "giant %s\n",
                  big_in, small_in ? "taken" : "refused", other_in ? "taken" : "refused");
    /* Every job comes back, made or displaced. */
    int back = 0, displaced = 0, made = 0;
    uint64_t end = mr_now_us() + 60000000u;
    while (sv_gen_pending(g) > 0 && mr_now_us() < end) {
        sv_gen_job *j = sv_gen_poll(g);
        if (!j) {
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
            continue;
        }
        back++;
        displaced += j->displaced;
        made += j->m != NULL;
        assert_true(j->displaced ? j->m == NULL && j->ip == 0x0A000001u : j->m != NULL);
        sv_gen_job_free(j);
    }
    sv_gen_destroy(g);
    assert_true(big_in >= 12 && big_in < 16); /* 12, or one more if the worker finished one meanwhile */
    assert_true(small_in);
    assert_true(other_in);
    assert_int_equal(displaced, 1);
    assert_int_equal(back, big_in + 2);
    assert_int_equal(made, big_in + 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_share_of_queue),
        cmocka_unit_test(test_small_room_during_big_flood),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
