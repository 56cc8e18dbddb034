/* cl_net_conn.c: client connections: lifecycle, the event queue, polling, drops and resume, queries. */
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

static cl_net_t *create_in(cl_hub_t *h, const char *name, const char **err)
{
    const char *bad = txt_name_problem(name, name ? strlen(name) : 0);
    if (bad) {
        *err = bad;
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

/* A LEAVE_ROOM just sent must reach the server before our disconnect: the
 * server's ENet drops a message still queued when a disconnect comes in
 * the same service, and a leave mid-race would then count as a drop (the
 * opponent waiting out the grace period for a forfeit). A connection with
 * its own hub is serviced until the server has acknowledged what we sent
 * (one round trip), at most LEAVE_STEPS waits of 10 ms; a shared hub (the
 * bots') never waits here. */
enum { LEAVE_STEPS = 30 };

static void send_leave_first(cl_net_t *n)
{
    ENetPeer *p = n->peer;
    if (!n->leaving || !n->hub->private || !p || p->state != ENET_PEER_STATE_CONNECTED)
        return;
    enet_host_flush(n->hub->host);
    for (int i = 0; i < LEAVE_STEPS && p->state == ENET_PEER_STATE_CONNECTED &&
                    !(enet_list_empty(&p->sentReliableCommands) && enet_list_empty(&p->outgoingCommands));
         i++) {
        ENetEvent ev;
        if (enet_host_service(n->hub->host, &ev, 10) > 0 && ev.type == ENET_EVENT_TYPE_RECEIVE)
            enet_packet_destroy(ev.packet); /* we are going: what came is of no use */
    }
}

void cl_net_destroy(cl_net_t *n)
{
    if (!n)
        return;
    send_leave_first(n);
    drop_peer(n);
    cl_net_clear_match(n);
    cl_hub_t *h = n->hub;
    cl_hub_forget(h, n);
    h->conns--;
    for (size_t i = 0; i < n->ev_len; i++)
        free(n->evq[(n->ev_head + i) % n->ev_cap].owned);
    cl_net_records_free(n);
    free(n->evq);
    free(n->pend);
    free(n->rooms);
    free(n);
    if (h->private)
        cl_hub_destroy(h);
}

/* ---- events ---- */

void cl_net_push(cl_net_t *n, const cl_net_event *ev)
{
    if (n->ev_len == n->ev_cap)
        n->evq = mr_ring_grow(n->evq, sizeof *n->evq, &n->ev_head, n->ev_len, &n->ev_cap);
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

/* ---- polling, drops and resume ---- */

void cl_net_give_up(cl_net_t *n, const char *why)
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
    if (n->silence_limit_ms && (n->phase == CL_NET_ONLINE || n->phase == CL_NET_IN_ROOM) &&
        cl_net_silence_ms(n) >= n->silence_limit_ms) {
        cl_net_drop_silently(n, now_ms);
        return;
    }
    if (n->phase == CL_NET_CONNECTING && now_ms >= n->connect_deadline) {
        if (n->following)
            cl_net_follow_failed(n, "no answer; a firewall may block it");
        else
            cl_net_give_up(n, "no answer from the server");
        return;
    }
    if (n->join_retry_at && now_ms >= n->join_retry_at) {
        n->join_retry_at = 0;
        wire_msg m = {.type = WIRE_JOIN_ROOM};
        memcpy(m.join.code, n->join_code, sizeof m.join.code);
        if (n->phase == CL_NET_ONLINE && n->join_code[0])
            cl_net_send_msg(n, &m);
    }
    if (n->phase != CL_NET_RESUMING)
        return;
    /* Also when connected again but not let back in yet: a server that
     * does not answer must not keep us here. */
    if (now_ms >= n->resume_deadline) {
        cl_net_give_up(n, "could not resume within the grace period");
        return;
    }
    if (!n->peer && n->retry_at && now_ms >= n->retry_at) {
        n->retry_at = 0;
        const char *err = cl_net_start_connect(n);
        if (err)
            n->retry_at = now_ms + RETRY_MS;
    }
}

bool cl_net_poll(cl_net_t *n, uint64_t now_ms, cl_net_event *ev)
{
    free(n->ev_owned); /* the last event's data lived until now */
    n->ev_owned = NULL;
    if (n->ev_len == 0) {
        run_timers(n, now_ms);
        if (n->hub->private)
            cl_hub_service(n->hub, now_ms, 0);
    }
    if (n->ev_len == 0)
        return false;
    *ev = n->evq[n->ev_head];
    n->ev_owned = ev->owned;
    n->ev_head = (n->ev_head + 1) % n->ev_cap;
    n->ev_len--;
    return true;
}

/* Called on a drop we did not ask for (or cl_net_drop): resume if a race
 * is on and we hold its token, else report the connection closed. */
void cl_net_on_disconnect(cl_net_t *n, uint64_t now_ms)
{
    n->peer = NULL;
    cl_net_records_disconnected(n);
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
    if (n->phase == CL_NET_CONNECTING && n->following) {
        cl_net_follow_failed(n, "the connection failed; a firewall may block it");
        return;
    }
    if (n->phase == CL_NET_CONNECTING) {
        cl_net_give_up(n, "cannot reach the server");
        return;
    }
    /* Worth resuming: a countdown or race, or a finished game whose seat
     * the server keeps for the grace period (rematch, series); a watcher
     * watches again (at the port it watched on: the spectator port after
     * a WATCH_AT). */
    bool seat = n->in_room && !n->watching && match_token_set(&n->token) &&
                (n->live || n->room.phase != MATCH_WAITING);
    bool watcher = n->in_room && n->watching;
    if ((seat || watcher) && n->resume_window_ms > 0) {
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
    cl_net_give_up(n, "connection lost");
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

void cl_net_set_silence_limit(cl_net_t *n, uint32_t ms)
{
    n->silence_limit_ms = ms;
}

void cl_net_inject(cl_net_t *n, const void *data, size_t len, uint64_t now_ms)
{
    n->hub->now_ms = now_ms;
    cl_net_on_packet(n, data, len);
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

uint32_t cl_net_silence_ms(const cl_net_t *n)
{
    const ENetPeer *p = n->peer;
    if (!p || p->state != ENET_PEER_STATE_CONNECTED || p->lastReceiveTime == 0)
        return 0;
    /* Both on ENet's clock as of the last service: no clock read here. */
    enet_uint32 now = p->host->serviceTime;
    enet_uint32 d = now - p->lastReceiveTime; /* wraps like ENet's own clock */
    return d < 0x80000000u ? d : 0;
}

uint32_t cl_net_resume_left_ms(const cl_net_t *n, uint64_t now_ms)
{
    if (n->phase != CL_NET_RESUMING || now_ms >= n->resume_deadline)
        return 0;
    uint64_t left = n->resume_deadline - now_ms;
    return left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
}

const wire_match_end *cl_net_match_end(const cl_net_t *n)
{
    return n->end_seen ? &n->end : NULL;
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
bool cl_net_watching(const cl_net_t *n)
{
    return n->in_room && n->watching;
}
int cl_net_port(const cl_net_t *n)
{
    return n->phase == CL_NET_IDLE ? 0 : n->port;
}

const pz_state *cl_net_board(const cl_net_t *n, int slot)
{
    if (slot < 0 || slot > 1)
        return NULL;
    return slot == n->own_seat ? n->own : n->opp;
}

uint32_t cl_net_board_moves(const cl_net_t *n, int slot)
{
    if (slot < 0 || slot > 1)
        return 0;
    return slot == n->own_seat ? n->own_applied : n->opp_applied;
}

const wire_room_list *cl_net_room_list(const cl_net_t *n)
{
    return n->rooms;
}

match_token_t cl_net_token(const cl_net_t *n)
{
    return n->token;
}

int cl_net_pending(const cl_net_t *n, pz_move *out, int max)
{
    for (size_t i = 0; i < n->pend_len && (int)i < max; i++)
        out[i] = n->pend[(n->pend_head + i) % n->pend_cap].move;
    return (int)n->pend_len;
}
