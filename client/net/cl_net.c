/* cl_net.c: client connections: lifecycle, requests, the event queue, resume timers, queries. */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_net_impl.h"
#include "match.h"
#include "util.h"

/* Wait between reconnect attempts while resuming: ENet itself gives up on
 * an unanswered connect after a few seconds, this only spaces out retries
 * after a refused or failed attempt. */
#define RETRY_MS 250
#define DEFAULT_RESUME_WINDOW_MS 30000u
/* A server that takes the ENet connection but never answers HELLO. */
#define HANDSHAKE_TIMEOUT_MS 10000u

static cl_net_t *create_in(cl_hub_t *h, const char *name, const char **err)
{
    if (!name || !wire_name_ok(name, strlen(name))) {
        *err = "a player name is 1 to 24 bytes of text with no control characters";
        return NULL;
    }
    cl_net_t *n = mr_alloc(1, sizeof *n);
    n->hub = h;
    n->phase = CL_NET_IDLE;
    n->slot = -1;
    n->next_seq = 1;
    n->resume_window_ms = DEFAULT_RESUME_WINDOW_MS;
    snprintf(n->name, sizeof n->name, "%s", name);
    h->conns++;
    return n;
}

cl_net_t *cl_net_create_in(cl_hub_t *h, const char *name, const char **err)
{
    if (!h) {
        *err = "no hub";
        return NULL;
    }
    if (h->conns >= h->max_conns) {
        *err = "the hub is full";
        return NULL;
    }
    return create_in(h, name, err);
}

cl_net_t *cl_net_create(const char *name, const char **err)
{
    cl_hub_t *h = cl_hub_create(1, 0, err);
    if (!h)
        return NULL;
    h->private = true;
    cl_net_t *n = create_in(h, name, err);
    if (!n)
        cl_hub_destroy(h);
    return n;
}

static void drop_peer(cl_net_t *n)
{
    if (n->peer) {
        n->peer->data = NULL;
        enet_peer_disconnect_now(n->peer, 0);
        n->peer = NULL;
    }
}

void cl_net_destroy(cl_net_t *n)
{
    if (!n)
        return;
    drop_peer(n);
    cl_net_clear_match(n);
    cl_hub_t *h = n->hub;
    cl_hub_forget(h, n);
    h->conns--;
    free(n->evq);
    free(n->pend);
    free(n);
    if (h->private)
        cl_hub_destroy(h);
}

/* ---- events ---- */

void cl_net_push(cl_net_t *n, const cl_net_event *ev)
{
    if (n->ev_len == n->ev_cap) {
        size_t cap = n->ev_cap ? n->ev_cap * 2 : 16;
        cl_net_event *q = mr_alloc(cap, sizeof *q);
        for (size_t i = 0; i < n->ev_len; i++)
            q[i] = n->evq[(n->ev_head + i) % n->ev_cap];
        free(n->evq);
        n->evq = q;
        n->ev_cap = cap;
        n->ev_head = 0;
    }
    n->evq[(n->ev_head + n->ev_len) % n->ev_cap] = *ev;
    n->ev_len++;
    cl_hub_mark_ready(n->hub, n);
}

void cl_net_push_text(cl_net_t *n, int type, int code, const char *fmt, ...)
{
    cl_net_event ev = {.type = type, .code = code, .slot = n->slot};
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ev.text, sizeof ev.text, fmt, ap);
        va_end(ap);
    }
    cl_net_push(n, &ev);
}

bool cl_net_send_msg(cl_net_t *n, const wire_msg *m)
{
    if (!n->peer)
        return false;
    size_t len = wire_size(m);
    ENetPacket *p = enet_packet_create(NULL, len, ENET_PACKET_FLAG_RELIABLE);
    if (!p)
        return false;
    wire_write(m, p->data, len);
    /* On success ENet owns the packet; on failure it is still ours. */
    if (enet_peer_send(n->peer, WIRE_CHANNEL, p) != 0) {
        enet_packet_destroy(p);
        return false;
    }
    n->hub->dirty = true;
    return true;
}

/* ---- connecting ---- */

const char *cl_net_parse_addr(const char *text, char *host, size_t cap, int *port)
{
    if (!text || !*text)
        return "empty server address";
    const char *colon = strrchr(text, ':');
    size_t hlen = colon ? (size_t)(colon - text) : strlen(text);
    if (hlen == 0 || hlen >= cap)
        return "bad server host";
    for (size_t i = 0; i < hlen; i++)
        if (text[i] <= ' ' || text[i] == ':' || (unsigned char)text[i] >= 0x7F)
            return "bad server host";
    *port = WIRE_DEFAULT_PORT;
    if (colon) {
        const char *p = colon + 1;
        long v = 0;
        if (!*p)
            return "missing port after ':'";
        for (; *p; p++) {
            if (*p < '0' || *p > '9' || v > 65535)
                return "port is not a number";
            v = v * 10 + (*p - '0');
        }
        if (v < 1 || v > 65535)
            return "port must be 1..65535";
        *port = (int)v;
    }
    memcpy(host, text, hlen);
    host[hlen] = '\0';
    return NULL;
}

/* Starts an ENet connection to the remembered address. */
static const char *start_connect(cl_net_t *n)
{
    ENetAddress a;
    if (enet_address_set_host(&a, n->host) != 0)
        return "cannot resolve the server host";
    a.port = (enet_uint16)n->port;
    ENetPeer *p = enet_host_connect(n->hub->host, &a, WIRE_CHANNELS, 0);
    if (!p)
        return "no free connection slot";
    p->data = n;
    n->peer = p;
    n->hub->dirty = true;
    n->resume_sent = false;
    n->closing = false;
    return NULL;
}

const char *cl_net_connect(cl_net_t *n, const char *host, int port, uint64_t now_ms)
{
    if (n->phase != CL_NET_IDLE)
        return "already connected or connecting";
    if (!host || strlen(host) >= sizeof n->host)
        return "bad server host";
    if (port < 1 || port > 65535)
        return "port must be 1..65535";
    snprintf(n->host, sizeof n->host, "%s", host);
    n->port = port;
    const char *err = start_connect(n);
    if (err)
        return err;
    n->phase = CL_NET_CONNECTING;
    n->connect_deadline = now_ms + HANDSHAKE_TIMEOUT_MS;
    return NULL;
}

/* ---- requests ---- */

static const char *need_online(const cl_net_t *n)
{
    if (!n->peer || (n->phase != CL_NET_ONLINE && n->phase != CL_NET_IN_ROOM))
        return "not connected";
    return NULL;
}

static const char *send_or_fail(cl_net_t *n, const wire_msg *m)
{
    return cl_net_send_msg(n, m) ? NULL : "cannot send (connection down)";
}

const char *cl_net_create_room(cl_net_t *n, const pz_params *p, bool has_seed, uint64_t seed, int series_len)
{
    const char *err = need_online(n);
    if (err)
        return err;
    if (!p || pz_validate_params(p))
        return p ? pz_validate_params(p) : "no params";
    if (series_len < 1 || series_len > WIRE_MAX_SERIES)
        return "series length must be 1..99";
    wire_msg m = {.type = WIRE_CREATE_ROOM};
    m.create.by_id = false;
    m.create.params = *p;
    m.create.has_seed = has_seed;
    m.create.seed = seed;
    m.create.series_len = (uint8_t)series_len;
    return send_or_fail(n, &m);
}

const char *cl_net_create_room_id(cl_net_t *n, const char *game_id, int series_len)
{
    const char *err = need_online(n);
    if (err)
        return err;
    size_t len = game_id ? strlen(game_id) : 0;
    if (len < 1 || len > WIRE_GAME_ID_MAX)
        return "bad game ID length";
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)game_id[i] <= 0x20 || (unsigned char)game_id[i] >= 0x7F)
            return "a game ID has no spaces or control characters";
    if (series_len < 1 || series_len > WIRE_MAX_SERIES)
        return "series length must be 1..99";
    wire_msg m = {.type = WIRE_CREATE_ROOM};
    m.create.by_id = true;
    m.create.game_id = game_id;
    m.create.game_id_len = (uint16_t)len;
    m.create.series_len = (uint8_t)series_len;
    return send_or_fail(n, &m);
}

const char *cl_net_join_room(cl_net_t *n, const char *code)
{
    const char *err = need_online(n);
    if (err)
        return err;
    wire_msg m = {.type = WIRE_JOIN_ROOM};
    if (!wire_room_code_parse(code, m.join.code))
        return "a room code is 5 letters or digits";
    if (strcmp(m.join.code, n->left_code) == 0)
        n->left_code[0] = '\0'; /* going back in: its states count again */
    return send_or_fail(n, &m);
}

const char *cl_net_quick_match(cl_net_t *n)
{
    const char *err = need_online(n);
    if (err)
        return err;
    wire_msg m = {.type = WIRE_QUICK_MATCH};
    return send_or_fail(n, &m);
}

const char *cl_net_ready(cl_net_t *n, bool ready)
{
    if (!n->in_room || n->phase != CL_NET_IN_ROOM)
        return "not in a room";
    wire_msg m = {.type = WIRE_READY};
    m.ready.ready = ready;
    return send_or_fail(n, &m);
}

const char *cl_net_rematch(cl_net_t *n)
{
    if (!n->in_room || n->phase != CL_NET_IN_ROOM)
        return "not in a room";
    wire_msg m = {.type = WIRE_REMATCH};
    return send_or_fail(n, &m);
}

const char *cl_net_leave(cl_net_t *n)
{
    if (!n->in_room || n->phase != CL_NET_IN_ROOM)
        return "not in a room";
    wire_msg m = {.type = WIRE_LEAVE_ROOM};
    const char *err = send_or_fail(n, &m);
    if (err)
        return err;
    n->in_room = false;
    n->live = false;
    n->slot = -1;
    n->phase = CL_NET_ONLINE;
    n->pend_len = 0;
    /* The server does not answer a leave: what it sent about the room
     * before it got ours is still on the way and must not put us back. */
    memcpy(n->left_code, n->room.code, sizeof n->left_code);
    return NULL;
}

static void pend_push(cl_net_t *n, uint32_t seq, pz_move mv)
{
    if (n->pend_len == n->pend_cap) {
        size_t cap = n->pend_cap ? n->pend_cap * 2 : 16;
        cl_pending *q = mr_alloc(cap, sizeof *q);
        for (size_t i = 0; i < n->pend_len; i++)
            q[i] = n->pend[(n->pend_head + i) % n->pend_cap];
        free(n->pend);
        n->pend = q;
        n->pend_cap = cap;
        n->pend_head = 0;
    }
    n->pend[(n->pend_head + n->pend_len) % n->pend_cap] = (cl_pending){.seq = seq, .move = mv};
    n->pend_len++;
}

uint32_t cl_net_send_move(cl_net_t *n, pz_move mv)
{
    if (n->phase != CL_NET_IN_ROOM || !n->pz || !n->peer)
        return 0;
    wire_msg m = {.type = WIRE_MOVE};
    m.move.seq = n->next_seq;
    m.move.move = mv;
    if (!cl_net_send_msg(n, &m))
        return 0;
    pend_push(n, n->next_seq, mv);
    uint32_t seq = n->next_seq++;
    if (n->next_seq == 0)
        n->next_seq = 1;
    return seq;
}

const char *cl_net_send_raw(cl_net_t *n, const void *data, size_t len)
{
    if (!n->peer)
        return "not connected";
    ENetPacket *p = enet_packet_create(data, len, ENET_PACKET_FLAG_RELIABLE);
    if (!p)
        return "cannot make a packet";
    if (enet_peer_send(n->peer, WIRE_CHANNEL, p) != 0) {
        enet_packet_destroy(p);
        return "cannot send (connection down)";
    }
    n->hub->dirty = true;
    return NULL;
}

void cl_net_flush(cl_net_t *n)
{
    cl_hub_flush(n->hub);
}
void cl_net_set_user(cl_net_t *n, void *user)
{
    n->user = user;
}
void *cl_net_user(const cl_net_t *n)
{
    return n->user;
}

/* ---- polling, drops and resume ---- */

static void give_up(cl_net_t *n, const char *why)
{
    drop_peer(n);
    n->phase = CL_NET_CLOSED;
    n->in_room = false;
    n->live = false;
    n->retry_at = 0;
    cl_net_push_text(n, CL_EV_DISCONNECTED, 0, "%s", why);
}

static void run_timers(cl_net_t *n, uint64_t now_ms)
{
    if (n->phase == CL_NET_CONNECTING && now_ms >= n->connect_deadline) {
        give_up(n, "no answer from the server");
        return;
    }
    if (n->phase != CL_NET_RESUMING)
        return;
    /* Also when connected again but not let back in yet: a server that
     * does not answer must not keep us here. */
    if (now_ms >= n->resume_deadline) {
        give_up(n, "could not resume within the grace period");
        return;
    }
    if (!n->peer && n->retry_at && now_ms >= n->retry_at) {
        n->retry_at = 0;
        const char *err = start_connect(n);
        if (err)
            n->retry_at = now_ms + RETRY_MS;
    }
}

bool cl_net_poll(cl_net_t *n, uint64_t now_ms, cl_net_event *ev)
{
    if (n->ev_len == 0) {
        run_timers(n, now_ms);
        if (n->hub->private)
            cl_hub_service(n->hub, now_ms, 0);
    }
    if (n->ev_len == 0)
        return false;
    *ev = n->evq[n->ev_head];
    n->ev_head = (n->ev_head + 1) % n->ev_cap;
    n->ev_len--;
    return true;
}

/* Called on a drop we did not ask for (or cl_net_drop): resume if a race
 * is on and we hold its token, else report the connection closed. */
void cl_net_on_disconnect(cl_net_t *n, uint64_t now_ms)
{
    n->peer = NULL;
    if (n->closing || n->phase == CL_NET_CLOSED) {
        n->phase = CL_NET_CLOSED;
        cl_net_push_text(n, CL_EV_DISCONNECTED, 0, "connection closed");
        return;
    }
    if (n->phase == CL_NET_RESUMING) { /* an attempt failed: try again later */
        n->retry_at = now_ms + RETRY_MS;
        run_timers(n, now_ms);
        return;
    }
    if (n->phase == CL_NET_CONNECTING) {
        give_up(n, "cannot reach the server");
        return;
    }
    /* Worth resuming: a countdown or race, or a finished game whose seat
     * the server keeps for the grace period (rematch, series). */
    bool seat = n->in_room && n->token && (n->live || n->room.phase != MATCH_WAITING);
    if (seat && n->resume_window_ms > 0) {
        n->phase = CL_NET_RESUMING;
        n->resume_deadline = now_ms + n->resume_window_ms;
        n->retry_at = now_ms;
        /* Moves in flight are either in the server's log or lost: the log
         * sent on resume decides, so forget them now. */
        n->pend_len = 0;
        cl_net_event ev = {.type = CL_EV_DISCONNECTED, .resuming = true, .slot = n->slot};
        snprintf(ev.text, sizeof ev.text, "connection lost; resuming");
        cl_net_push(n, &ev);
        run_timers(n, now_ms);
        return;
    }
    give_up(n, "connection lost");
}

void cl_net_drop(cl_net_t *n, uint64_t now_ms, bool resume)
{
    if (!n->peer)
        return;
    drop_peer(n);
    if (!resume)
        n->closing = true;
    cl_net_on_disconnect(n, now_ms);
}

void cl_net_drop_silently(cl_net_t *n, uint64_t now_ms)
{
    if (!n->peer)
        return;
    n->peer->data = NULL;
    enet_peer_reset(n->peer); /* forgets the peer without a word to the server */
    n->peer = NULL;
    cl_net_on_disconnect(n, now_ms);
}

void cl_net_set_resume_window(cl_net_t *n, uint32_t ms)
{
    n->resume_window_ms = ms;
}

void cl_net_inject(cl_net_t *n, const void *data, size_t len, uint64_t now_ms)
{
    n->hub->now_ms = now_ms;
    cl_net_on_receive(n, data, len);
}

/* ---- queries ---- */

int cl_net_phase(const cl_net_t *n)
{
    return n->phase;
}

uint32_t cl_net_rtt_ms(const cl_net_t *n)
{
    return n->peer && n->peer->state == ENET_PEER_STATE_CONNECTED ? n->peer->roundTripTime : 0;
}

const wire_room_state *cl_net_room(const cl_net_t *n)
{
    return n->in_room ? &n->room : NULL;
}
int cl_net_slot(const cl_net_t *n)
{
    return n->in_room ? n->slot : -1;
}
const pz_puzzle *cl_net_puzzle(const cl_net_t *n)
{
    return n->pz;
}
const char *cl_net_game_id(const cl_net_t *n)
{
    return n->game_id;
}
const pz_state *cl_net_state(const cl_net_t *n)
{
    return n->own;
}
const pz_state *cl_net_opponent_state(const cl_net_t *n)
{
    return n->opp;
}
uint64_t cl_net_token(const cl_net_t *n)
{
    return n->token;
}

int cl_net_pending(const cl_net_t *n, pz_move *out, int max)
{
    for (size_t i = 0; i < n->pend_len && (int)i < max; i++)
        out[i] = n->pend[(n->pend_head + i) % n->pend_cap].move;
    return (int)n->pend_len;
}
