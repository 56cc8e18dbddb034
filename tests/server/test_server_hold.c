/* test_server_hold.c: the progress hold's store (server/sv_hold.c) on its own: order, limits, expiry, a full
 * ring. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sv_hold.h"
#include "sv_internal.h"

#define NCLIENTS 3
#define HOLD_MS 50

typedef struct {
    sv_t sv;
    sv_client clients[NCLIENTS];
} world;

static world *make_world(void)
{
    world *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->sv.clients = w->clients;
    w->sv.nclients = NCLIENTS;
    w->sv.cfg.progress_hold_ms = HOLD_MS;
    w->sv.now_ms = 1000;
    for (int i = 0; i < NCLIENTS; i++)
        w->clients[i].id = (uint32_t)(i + 1);
    sv_hold_init(&w->sv.hold, NCLIENTS);
    return w;
}

static void free_world(world *w)
{
    sv_hold_free(&w->sv.hold);
    free(w);
}

/* A packet whose one byte names it. */
static ENetPacket *pkt(uint8_t tag)
{
    ENetPacket *p = enet_packet_create(&tag, 1, ENET_PACKET_FLAG_RELIABLE);
    assert_non_null(p);
    return p;
}

static uint8_t take_tag(world *w, sv_client *c)
{
    ENetPacket *p = sv_hold_take(&w->sv, c);
    assert_non_null(p);
    uint8_t tag = p->data[0];
    enet_packet_destroy(p);
    return tag;
}

static void put(world *w, sv_client *c, uint8_t tag)
{
    sv_client *early = (sv_client *)1;
    assert_true(sv_hold_put(&w->sv, c, pkt(tag), &early));
    assert_null(early);
}

/* Held packets come out in the order they went in; the hold's deadline is
 * the first one's time plus the hold. */
static void test_order_and_deadline(void **state)
{
    (void)state;
    world *w = make_world();
    sv_client *c = &w->clients[1];
    assert_int_equal(sv_hold_next_due(&w->sv), UINT64_MAX);
    put(w, c, 1);
    w->sv.now_ms += 10;
    put(w, c, 2);
    put(w, c, 3);
    assert_int_equal(c->hold.n, 3);
    assert_int_equal(sv_hold_next_due(&w->sv), 1000 + HOLD_MS);
    assert_int_equal(take_tag(w, c), 1);
    assert_int_equal(take_tag(w, c), 2);
    assert_int_equal(take_tag(w, c), 3);
    assert_null(sv_hold_take(&w->sv, c));
    assert_int_equal(c->hold.head, 0);
    assert_int_equal(c->hold.tail, 0);
    free_world(w);
}

/* At most SV_HOLD_MAX per client: the next one stays the caller's. */
static void test_limit(void **state)
{
    (void)state;
    world *w = make_world();
    sv_client *c = &w->clients[0];
    for (int i = 0; i < SV_HOLD_MAX; i++)
        put(w, c, (uint8_t)i);
    sv_client *early = NULL;
    ENetPacket *p = pkt(99);
    assert_false(sv_hold_put(&w->sv, c, p, &early));
    enet_packet_destroy(p);
    sv_hold_discard(&w->sv, c);
    assert_int_equal(c->hold.n, 0);
    assert_null(sv_hold_take(&w->sv, c));
    free_world(w);
}

/* A hold runs out at its deadline, not a millisecond before; one whose
 * packets were taken meanwhile (they rode with another packet) is skipped. */
static void test_expiry(void **state)
{
    (void)state;
    world *w = make_world();
    sv_client *a = &w->clients[0], *b = &w->clients[2];
    put(w, a, 1);
    w->sv.now_ms += 5;
    put(w, b, 2);
    assert_int_equal(take_tag(w, a), 1); /* a's went with its ACK */
    w->sv.now_ms = 1000 + HOLD_MS + 4;
    assert_null(sv_hold_expired(&w->sv)); /* a's entry is stale, b's is not due */
    w->sv.now_ms++;
    assert_ptr_equal(sv_hold_expired(&w->sv), b);
    assert_int_equal(take_tag(w, b), 2);
    assert_null(sv_hold_expired(&w->sv));
    assert_int_equal(sv_hold_next_due(&w->sv), UINT64_MAX);
    free_world(w);
}

/* A slot that changed hands does not inherit the old client's hold. */
static void test_reused_slot(void **state)
{
    (void)state;
    world *w = make_world();
    sv_client *c = &w->clients[1];
    put(w, c, 1);
    sv_hold_discard(&w->sv, c);
    c->id = 77; /* a new client in the slot */
    put(w, c, 2);
    w->sv.now_ms += HOLD_MS;
    assert_ptr_equal(sv_hold_expired(&w->sv), c);
    assert_int_equal(take_tag(w, c), 2);
    assert_null(sv_hold_expired(&w->sv));
    free_world(w);
}

/* A full ring ends its oldest hold early: put names that client. */
static void test_full_ring(void **state)
{
    (void)state;
    world *w = make_world();
    sv_client *a = &w->clients[0], *b = &w->clients[1];
    int cap = NCLIENTS * SV_DUE_PER_CLIENT;
    put(w, a, 1); /* a's live hold, the oldest entry */
    /* b starts and ends holds until the ring is full (stale entries). */
    for (int i = 1; i < cap; i++) {
        w->sv.now_ms++;
        put(w, b, 2);
        assert_int_equal(take_tag(w, b), 2);
    }
    w->sv.now_ms++;
    sv_client *early = NULL;
    assert_true(sv_hold_put(&w->sv, b, pkt(3), &early));
    assert_ptr_equal(early, a);
    assert_int_equal(take_tag(w, a), 1);
    assert_int_equal(take_tag(w, b), 3);
    free_world(w);
}

/* Only a player moving fast is held for: two moves at most 1.5 holds
 * apart, the last at most two holds ago. */
static void test_pace(void **state)
{
    (void)state;
    world *w = make_world();
    sv_t *sv = &w->sv;
    sv_client *c = &w->clients[0];
    assert_false(sv_hold_for(sv, c)); /* never moved */
    sv_hold_note_move(sv, c);
    assert_false(sv_hold_for(sv, c)); /* one move: no pace yet */
    sv->now_ms += HOLD_MS * 3 / 2;
    sv_hold_note_move(sv, c);
    assert_true(sv_hold_for(sv, c));
    sv->now_ms += 2 * HOLD_MS;
    assert_true(sv_hold_for(sv, c));
    sv->now_ms++;
    assert_false(sv_hold_for(sv, c)); /* stopped to think */
    sv_hold_note_move(sv, c);
    assert_false(sv_hold_for(sv, c)); /* that gap was too long */
    sv->now_ms += 10;
    sv_hold_note_move(sv, c);
    sv->cfg.progress_hold_ms = 0;
    assert_false(sv_hold_for(sv, c)); /* --progress-hold 0 */
    free_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_deadline),
        cmocka_unit_test(test_limit),
        cmocka_unit_test(test_expiry),
        cmocka_unit_test(test_reused_slot),
        cmocka_unit_test(test_full_ring),
        cmocka_unit_test(test_pace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
