/* cl_net_records.c: the client side of the match-record questions: replay fetch in chunks, recent matches,
 * best times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_net_impl.h"
#include "util.h"

static uint32_t new_req(cl_net_t *n)
{
    if (++n->next_req == 0)
        n->next_req = 1;
    return n->next_req;
}

static bool online(const cl_net_t *n)
{
    return n->peer && (n->phase == CL_NET_ONLINE || n->phase == CL_NET_IN_ROOM);
}

static bool ask_chunk(cl_net_t *n)
{
    wire_msg m = {.type = WIRE_REPLAY_REQUEST};
    m.replay_req = (wire_replay_req){n->fetch_req, n->fetch_id, (uint32_t)n->fetch_len};
    return cl_net_send_msg(n, &m);
}

void cl_net_records_free(cl_net_t *n)
{
    free(n->fetch_buf);
    n->fetch_buf = NULL;
    n->fetch_req = 0;
    n->fetch_len = n->fetch_total = 0;
    free(n->ev_owned);
    n->ev_owned = NULL;
}

uint32_t cl_net_fetch_replay(cl_net_t *n, uint64_t match_id)
{
    if (!online(n) || n->fetch_req || match_id < 1 || match_id > INT64_MAX)
        return 0;
    n->fetch_req = new_req(n);
    n->fetch_id = match_id;
    n->fetch_len = n->fetch_total = 0;
    if (!ask_chunk(n)) {
        n->fetch_req = 0;
        return 0;
    }
    return n->fetch_req;
}

bool cl_net_fetch_progress(const cl_net_t *n, size_t *got, size_t *total)
{
    *got = n->fetch_len;
    *total = n->fetch_total;
    return n->fetch_req != 0;
}

uint32_t cl_net_request_recent(cl_net_t *n, uint64_t before_id, int limit)
{
    if (!online(n) || before_id > INT64_MAX)
        return 0;
    wire_msg m = {.type = WIRE_RECENT_REQUEST};
    m.recent_req.req = new_req(n);
    m.recent_req.before_id = before_id;
    m.recent_req.limit = (uint8_t)(limit < 1 ? 1 : limit > WIRE_RECENT_MAX ? WIRE_RECENT_MAX : limit);
    return cl_net_send_msg(n, &m) ? m.recent_req.req : 0;
}

uint32_t cl_net_request_best(cl_net_t *n, const char *game_id, uint64_t desc_hash, int limit)
{
    size_t len = game_id ? strlen(game_id) : 0;
    if (!online(n) || len > WIRE_GAME_ID_MAX)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (game_id[i] <= 0x20 || game_id[i] >= 0x7F)
            return 0;
    wire_msg *m = mr_alloc(1, sizeof *m); /* a wire_msg is too big for some stacks */
    memset(m, 0, sizeof *m);
    m->type = WIRE_BEST_REQUEST;
    m->best_req.req = new_req(n);
    m->best_req.desc_hash = desc_hash;
    m->best_req.limit = (uint8_t)(limit < 1 ? 1 : limit > WIRE_BEST_MAX ? WIRE_BEST_MAX : limit);
    m->best_req.game_id = game_id;
    m->best_req.game_id_len = (uint16_t)len;
    uint32_t req = cl_net_send_msg(n, m) ? m->best_req.req : 0;
    free(m);
    return req;
}

/* Ends the fetch with an event: the text when status is 0. */
static void fetch_done(cl_net_t *n, int status, const char *why)
{
    cl_net_event ev = {
        .type = CL_EV_REPLAY, .code = status, .slot = n->slot, .req = n->fetch_req, .match_id = n->fetch_id};
    if (status == 0) {
        n->fetch_buf[n->fetch_len] = '\0';
        ev.replay = n->fetch_buf;
        ev.replay_len = n->fetch_len;
        ev.owned = n->fetch_buf;
        n->fetch_buf = NULL;
    } else if (why) {
        snprintf(ev.text, sizeof ev.text, "%s", why);
    }
    free(n->fetch_buf);
    n->fetch_buf = NULL;
    n->fetch_req = 0;
    n->fetch_len = n->fetch_total = 0;
    cl_net_push(n, &ev);
}

static void on_chunk(cl_net_t *n, const wire_replay_chunk *c)
{
    if (!n->fetch_req || c->req != n->fetch_req)
        return; /* not the fetch running now */
    if (c->status) {
        fetch_done(n, c->status, "the server has no replay for it");
        return;
    }
    if (c->match_id != n->fetch_id || c->offset != n->fetch_len ||
        (n->fetch_buf && c->total != n->fetch_total)) {
        fetch_done(n, WIRE_ERR_BAD_MESSAGE, "replay chunks out of order");
        return;
    }
    if (!n->fetch_buf) {
        n->fetch_total = c->total; /* <= WIRE_REPLAY_MAX: wire_read checked */
        n->fetch_buf = mr_alloc(n->fetch_total + 1, 1);
    }
    memcpy(n->fetch_buf + n->fetch_len, c->bytes, c->count);
    n->fetch_len += c->count;
    if (n->fetch_len == n->fetch_total)
        fetch_done(n, 0, NULL);
    else if (c->count == 0)
        fetch_done(n, WIRE_ERR_BAD_MESSAGE, "empty replay chunk before the end");
    else if (!ask_chunk(n))
        fetch_done(n, WIRE_ERR_INTERNAL, "could not ask for the next chunk");
}

void cl_net_records_disconnected(cl_net_t *n)
{
    if (n->fetch_req)
        fetch_done(n, WIRE_ERR_INTERNAL, "the connection was lost during the replay fetch");
}

/* A list answer (RECENT_LIST, BEST_LIST) as an event of type that owns a
 * copy of the list (size bytes at list); returns the copy. */
static void *owned_list(cl_net_event *ev, int type, const void *list, size_t size, uint32_t req, int status)
{
    void *l = mr_alloc(1, size);
    memcpy(l, list, size);
    ev->type = type;
    ev->req = req;
    ev->code = status;
    ev->owned = l;
    return l;
}

void cl_net_on_records(cl_net_t *n, const wire_msg *m)
{
    cl_net_event ev = {.slot = n->slot};
    switch (m->type) {
    case WIRE_REPLAY_CHUNK:
        on_chunk(n, &m->replay);
        return;
    case WIRE_RECENT_LIST:
        ev.recent =
            owned_list(&ev, CL_EV_RECENT, &m->recent, sizeof m->recent, m->recent.req, m->recent.status);
        break;
    case WIRE_BEST_LIST:
        ev.best = owned_list(&ev, CL_EV_BEST, &m->best, sizeof m->best, m->best.req, m->best.status);
        break;
    default:
        return;
    }
    cl_net_push(n, &ev);
}
