/* test_server_quick.c: the quick-match queue with raw clients: every arrival paired, odd counts, leaves and
 * disconnects while puzzles are being made, a LAN host's room (sv_config.quick_rooms). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "sv_fixture.h"
#include "util.h"

/* What a client learnt of its room from the ROOM_STATEs it got. */
typedef struct seen {
    raw_client *c;
    bool gone;   /* left or disconnected by the test */
    bool closed; /* disconnected (raw_close done) */
    bool in_room, both;
    char code[WIRE_ROOM_CODE_LEN + 1];
} seen;

static void drain(seen *s)
{
    wire_msg m;
    while (!s->gone && raw_next(s->c, &m, 10)) {
        if (m.type != WIRE_ROOM_STATE)
            continue;
        s->in_room = true;
        s->both = m.room.player[0].present && m.room.player[1].present;
        memcpy(s->code, m.room.code, sizeof s->code);
    }
}

static bool gen_idle(const sv_stats *st)
{
    return st->gen_pending == 0;
}

static int want_waiting;
static bool waiting_is(const sv_stats *st)
{
    return st->quick_waiting == want_waiting;
}

/* Services until quick_waiting == n (bounded); returns it. */
static int wait_waiting(fixture *f, raw_client *c, int n)
{
    want_waiting = n;
    return wait_stats(f, c, waiting_is).quick_waiting;
}

static void send_quick(seen *s)
{
    send_simple(s->c, WIRE_QUICK_MATCH);
}

/* Every player still here in a room (each ends up in one: paired, or
 * alone in its own), every puzzle made, then every message read. */
static void settle(fixture *f, seen *s, int n)
{
    raw_client *any = NULL;
    for (int i = 0; i < n; i++) {
        if (s[i].gone)
            continue;
        any = s[i].c;
        uint64_t end = mr_now_us() + WAIT_MS * 1000u;
        while (!s[i].in_room && mr_now_us() < end)
            drain(&s[i]);
        assert_true(s[i].in_room);
    }
    if (!any)
        return;
    wait_stats(f, any, gen_idle);
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < n; i++)
            drain(&s[i]);
}

/* The clients still here: pairs share a room, at most one waits alone, and
 * the server's count of waiting players agrees. Returns the number of pairs. */
static int check_pairs(fixture *f, seen *s, int n)
{
    int here = 0, paired = 0, alone = 0;
    for (int i = 0; i < n; i++) {
        if (s[i].gone)
            continue;
        here++;
        if (!s[i].both) {
            alone++;
            continue;
        }
        paired++;
        int mates = 0;
        for (int k = 0; k < n; k++)
            mates += k != i && !s[k].gone && s[k].both && strcmp(s[k].code, s[i].code) == 0;
        if (mates != 1)
            for (int k = 0; k < n; k++)
                print_message("client %d: gone %d in_room %d both %d code %s\n", k, s[k].gone, s[k].in_room,
                              s[k].both, s[k].code);
        assert_int_equal(mates, 1);
    }
    assert_int_equal(paired, 2 * (here / 2));
    assert_int_equal(alone, here % 2);
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.quick_waiting, alone);
    return paired / 2;
}

static void close_all(seen *s, int n)
{
    for (int i = 0; i < n; i++)
        if (!s[i].closed)
            raw_close(s[i].c);
}

/* A size whose puzzles take a while (tens of ms), so arrivals find them
 * being made; one address (127.0.0.1) may make and hold many of them. */
static void slow_config(sv_config *cfg)
{
    base_config(cfg);
    cfg->kind = PZ_MAZE;
    cfg->w = cfg->h = 1000;
    cfg->gen_burst_ms = 600000;
    cfg->puzzle_mem_mb = 65536;
}

static bool all_freed(const sv_stats *st)
{
    return st->rooms_now == 0 && st->gen_pending == 0 && st->puzzle_bytes == 0;
}

/* Once every player is gone: no room, no job, no puzzle memory held
 * (dropped and deferred jobs gave theirs back). */
static void check_freed(fixture *f)
{
    raw_client *probe = join_server(f, "probe");
    sv_stats st = wait_stats(f, probe, all_freed);
    assert_int_equal(st.rooms_now, 0);
    assert_int_equal(st.gen_pending, 0);
    assert_int_equal(st.quick_waiting, 0);
    assert_int_equal((int)st.puzzle_bytes, 0);
    raw_close(probe);
}

/* The configurations the queue is tried on: the default size, puzzles
 * that take a while, and those with a generation queue of one job (the
 * others wait in the server's list). */
static void config_for(int which, sv_config *cfg)
{
    if (which == 0)
        base_config(cfg);
    else
        slow_config(cfg);
    if (which == 2)
        cfg->gen_queue = 1;
}

/* N arrivals at once make floor(N/2) races and leave one waiting when N is
 * odd, at the default size and with every puzzle still being made. */
static void test_every_arrival_paired(void **ctx)
{
    (void)ctx;
    static const int counts[] = {1, 2, 3, 5, 8, 11};
    for (int which = 0; which < 3; which++) {
        sv_config cfg;
        config_for(which, &cfg);
        for (size_t t = 0; t < MR_ARRAY_LEN(counts); t++) {
            fixture *f = start(&cfg);
            int n = counts[t];
            seen s[16];
            memset(s, 0, sizeof s);
            for (int i = 0; i < n; i++)
                s[i].c = join_server(f, "q");
            for (int i = 0; i < n; i++)
                send_quick(&s[i]);
            settle(f, s, n);
            assert_int_equal(check_pairs(f, s, n), n / 2);
            close_all(s, n);
            check_freed(f);
            stop(f);
        }
    }
}

/* leaver: 0 = the player whose puzzle is being made, 1 = the one paired
 * with it; how: LEAVE_ROOM or a disconnect. The one left keeps waiting and
 * the next arrival races it. */
static void leave_case(int leaver, bool disconnect, int which)
{
    sv_config cfg;
    config_for(which, &cfg);
    fixture *f = start(&cfg);
    seen s[3];
    memset(s, 0, sizeof s);
    for (int i = 0; i < 3; i++)
        s[i].c = join_server(f, "q");
    send_quick(&s[0]);
    assert_int_equal(wait_waiting(f, s[0].c, 1), 1);
    send_quick(&s[1]);
    assert_int_equal(wait_waiting(f, s[0].c, 0), 0);
    seen *out = &s[leaver], *stay = &s[1 - leaver];
    out->closed = disconnect;
    if (disconnect)
        raw_close(out->c);
    else
        send_simple(out->c, WIRE_LEAVE_ROOM);
    out->gone = true;
    assert_int_equal(wait_waiting(f, stay->c, 1), 1);
    send_quick(&s[2]);
    assert_int_equal(wait_waiting(f, stay->c, 0), 0);
    settle(f, s, 3);
    assert_true(stay->both && s[2].both);
    assert_string_equal(stay->code, s[2].code);
    if (!disconnect) {
        wire_msg m;
        assert_false(raw_next(out->c, &m, 50) && m.type == WIRE_ROOM_STATE); /* never seated */
    }
    close_all(s, 3);
    check_freed(f);
    stop(f);
}

static void test_leaves_while_generating(void **ctx)
{
    (void)ctx;
    for (int which = 1; which < 3; which++)
        for (int leaver = 0; leaver < 2; leaver++)
            for (int disconnect = 0; disconnect < 2; disconnect++)
                leave_case(leaver, disconnect, which);
}

/* Arrivals, LEAVEs and disconnects in a seeded random order, some while
 * puzzles are made, some after players are seated: whoever is left ends
 * up paired (with the next arrivals for those whose opponent left their
 * room), at most one waiting. */
static void test_random_leaves(void **ctx)
{
    (void)ctx;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        sv_config cfg;
        config_for((int)(seed % 3), &cfg);
        fixture *f = start(&cfg);
        rng_t r;
        rng_seed(&r, seed);
        enum { N = 21 };
        seen s[2 * N];
        memset(s, 0, sizeof s);
        for (int i = 0; i < N; i++)
            s[i].c = join_server(f, "q");
        for (int i = 0; i < N; i++) {
            send_quick(&s[i]);
            raw_pump(s[i].c, (int)rng_below(&r, 4), false);
            if (i > 0 && rng_below(&r, 3) == 0) {
                seen *v = &s[rng_below(&r, (uint32_t)i)];
                if (!v->gone) {
                    drain(v);
                    v->closed = rng_below(&r, 2);
                    if (v->closed)
                        raw_close(v->c);
                    else
                        send_simple(v->c, WIRE_LEAVE_ROOM);
                    v->gone = true;
                }
            }
        }
        settle(f, s, N);
        /* Two players each left alone in a room by an opponent who went
         * before the race both wait (a seat never moves across rooms):
         * the next arrivals take their seats, one each. */
        sv_stats st;
        sv_get_stats(f->sv, &st);
        int n = N;
        for (int extra = st.quick_waiting - 1; extra > 0; extra--) {
            s[n].c = join_server(f, "late");
            send_quick(&s[n++]);
        }
        settle(f, s, n);
        check_pairs(f, s, n);
        close_all(s, n);
        check_freed(f);
        stop(f);
    }
}

/* A LAN host's server (quick_rooms): a room made by CREATE_ROOM takes the
 * next quick-match player; a dedicated server's does not. */
static void test_quick_fills_hosted_room(void **ctx)
{
    (void)ctx;
    for (int hosted = 0; hosted < 2; hosted++) {
        sv_config cfg;
        base_config(&cfg);
        cfg.quick_rooms = hosted;
        fixture *f = start(&cfg);
        seen h = {.c = join_server(f, "host")}, q = {.c = join_server(f, "friend")};
        char code[WIRE_ROOM_CODE_LEN + 1];
        create_room(h.c, code);
        send_quick(&q);
        wire_msg m;
        assert_true(raw_wait(q.c, WIRE_ROOM_STATE, &m, WAIT_MS));
        if (hosted) {
            assert_string_equal(m.room.code, code);
            assert_int_equal(m.room.your_slot, 1);
        } else {
            assert_string_not_equal(m.room.code, code);
        }
        raw_close(h.c);
        raw_close(q.c);
        stop(f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_arrival_paired),
        cmocka_unit_test(test_leaves_while_generating),
        cmocka_unit_test(test_random_leaves),
        cmocka_unit_test(test_quick_fills_hosted_room),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
