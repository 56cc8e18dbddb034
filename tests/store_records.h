/* store_records.h: test records for the match store (make) and their comparison (assert_same). */
#ifndef MR_STORE_RECORDS_H
#define MR_STORE_RECORDS_H

/* Included after cmocka.h, st.h and util.h (by store_cases.h, and by the
 * spool's tests, which need records but no store). */

/* A record: match i on game "maze:5x5:easy#<i % 7>", player a solves in
 * 1000 + i ms with 3 + i % 5 moves, player b loses (or solves later). */
static st_match *make(int i)
{
    st_match *m = mr_alloc(1, sizeof *m);
    memset(m, 0, sizeof *m);
    snprintf(m->mode, sizeof m->mode, "server");
    char gid[64];
    snprintf(gid, sizeof gid, "maze:5x5:easy#%d", i % 7);
    m->game_id = mr_strdup(gid);
    snprintf(gid, sizeof gid, "maze:5x5:desc%d", i % 7);
    m->desc_id = mr_strdup(gid);
    m->desc_hash = 0xF000000000000000ull + (uint64_t)(i % 7); /* above INT64_MAX: stored as negative */
    snprintf(m->kind, sizeof m->kind, "maze");
    m->width = 5;
    m->height = 5 + (i % 2);
    snprintf(m->difficulty, sizeof m->difficulty, "easy");
    m->start_utc_ms = 1764000000000 + i;
    m->winner = 0;
    m->ending = i % 3 == 2 ? ST_END_FORFEIT : ST_END_SOLVED;
    m->game_no = 1 + i % 3;
    m->series_len = 3;
    snprintf(m->p[0].name, sizeof m->p[0].name, "ann%d", i % 2);
    snprintf(m->p[1].name, sizeof m->p[1].name, "bob");
    m->p[0].time_ms = 1000 + (uint64_t)i;
    m->p[0].moves = 3 + (uint32_t)(i % 5);
    m->p[0].solved = true;
    m->p[0].result = ST_WON;
    m->p[1].time_ms = 1000 + (uint64_t)i;
    m->p[1].moves = 2;
    m->p[1].solved = false;
    m->p[1].result = ST_LOST;
    m->nmoves = m->p[0].moves + m->p[1].moves;
    m->moves = mr_alloc(m->nmoves, sizeof *m->moves);
    for (size_t k = 0; k < m->nmoves; k++)
        m->moves[k] = (st_move){.ms = (uint32_t)(10 * k),
                                .player = k % 2 && k / 2 < 2 ? 1 : 0,
                                .type = (uint8_t)(k % 4),
                                .dir = (uint8_t)(k % 4),
                                .x = (uint16_t)k,
                                .y = (uint16_t)(65535 - k)};
    return m;
}

static void assert_same(const st_match *a, const st_match *b, bool full)
{
    assert_string_equal(a->mode, b->mode);
    assert_string_equal(a->game_id, b->game_id);
    assert_true(a->desc_hash == b->desc_hash);
    assert_string_equal(a->kind, b->kind);
    assert_int_equal(a->width, b->width);
    assert_int_equal(a->height, b->height);
    assert_string_equal(a->difficulty, b->difficulty);
    assert_true(a->start_utc_ms == b->start_utc_ms);
    assert_int_equal(a->winner, b->winner);
    assert_int_equal(a->ending, b->ending);
    assert_int_equal(a->game_no, b->game_no);
    assert_int_equal(a->series_len, b->series_len);
    for (int i = 0; i < 2; i++) {
        assert_string_equal(a->p[i].name, b->p[i].name);
        assert_true(a->p[i].time_ms == b->p[i].time_ms);
        assert_int_equal(a->p[i].moves, b->p[i].moves);
        assert_int_equal(a->p[i].solved, b->p[i].solved);
        assert_int_equal(a->p[i].result, b->p[i].result);
    }
    if (!full)
        return;
    assert_string_equal(a->desc_id, b->desc_id);
    assert_int_equal(a->nmoves, b->nmoves);
    for (size_t i = 0; i < a->nmoves; i++) {
        const st_move *x = &a->moves[i], *y = &b->moves[i];
        assert_true(x->ms == y->ms && x->player == y->player && x->type == y->type && x->dir == y->dir &&
                    x->x == y->x && x->y == y->y);
    }
}

#endif
