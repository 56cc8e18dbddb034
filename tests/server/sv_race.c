/* sv_race.c: two raw clients racing on the in-process server (sv_fixture), shared by the server tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "match.h"
#include "sv_race.h"
#include "util.h"

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

fixture *start_race_server(const sv_config *cfg, race *r, bool wait_for_start)
{
    fixture *f = start(cfg);
    start_race(f, r, wait_for_start);
    return f;
}

void stop_race_server(fixture *f, race *r)
{
    end_race(r);
    stop(f);
}
