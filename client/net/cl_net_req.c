/* cl_net_req.c: connecting and the requests a client sends (rooms, ready, moves, rematch, leave). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_net_impl.h"
#include "joinlink.h"
#include "util.h"

/* A server that takes the ENet connection but never answers HELLO. */
#define HANDSHAKE_TIMEOUT_MS 10000u

/* ---- connecting ---- */

const char *cl_net_parse_addr(const char *text, char *host, size_t cap, int *port)
{
    return joinlink_parse_addr(text, host, cap, port);
}

/* Starts an ENet connection to the remembered address. */
const char *cl_net_start_connect(cl_net_t *n)
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
    n->port = n->game_port = port;
    const char *err = cl_net_start_connect(n);
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

/* The start of a JOIN_ROOM or WATCH (both carry the room code in m->join):
 * NULL when online and code is a room code. */
static const char *room_request(cl_net_t *n, const char *code, wire_msg *m)
{
    const char *err = need_online(n);
    if (err)
        return err;
    if (!wire_room_code_parse(code, m->join.code))
        return "a room code is 5 letters or digits";
    if (strcmp(m->join.code, n->left_code) == 0)
        n->left_code[0] = '\0'; /* going back in: its states count again */
    return NULL;
}

const char *cl_net_join_room(cl_net_t *n, const char *code)
{
    wire_msg m = {.type = WIRE_JOIN_ROOM};
    const char *err = room_request(n, code, &m);
    if (err)
        return err;
    memcpy(n->join_code, m.join.code, sizeof n->join_code);
    n->join_until = n->hub->now_ms + CL_NET_JOIN_WAIT_MS;
    n->join_retry_at = 0;
    n->join_delay_ms = CL_NET_JOIN_RETRY_MS;
    return send_or_fail(n, &m);
}

const char *cl_net_watch(cl_net_t *n, const char *code)
{
    wire_msg m = {.type = WIRE_WATCH};
    const char *err = room_request(n, code, &m);
    if (err)
        return err;
    err = send_or_fail(n, &m);
    if (!err) /* a WATCH_AT naming this room may answer: follow it */
        memcpy(n->watch_code, m.join.code, sizeof n->watch_code);
    return err;
}

const char *cl_net_list_rooms(cl_net_t *n)
{
    if (!n->peer || (n->phase != CL_NET_ONLINE && n->phase != CL_NET_IN_ROOM))
        return "not connected";
    wire_msg m = {.type = WIRE_LIST_ROOMS};
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
    n->watching = false;
    n->leaving = true;
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
    if (n->pend_len == n->pend_cap)
        n->pend = mr_ring_grow(n->pend, sizeof *n->pend, &n->pend_head, n->pend_len, &n->pend_cap);
    n->pend[(n->pend_head + n->pend_len) % n->pend_cap] = (cl_pending){.seq = seq, .move = mv};
    n->pend_len++;
}

uint32_t cl_net_send_move(cl_net_t *n, pz_move mv)
{
    if (n->phase != CL_NET_IN_ROOM || !n->pz || !n->peer || n->watching)
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
