/* cl_net_follow.c: watching through the server's spectator port (docs/protocol.md, "The spectator port"):
 * following WATCH_AT, and a watcher coming back after a drop. */
#include <stdio.h>
#include <string.h>

#include "cl_net_impl.h"

/* How long the spectator port has to answer (ENet connect and HELLO). */
#define FOLLOW_TIMEOUT_MS 5000u

static bool send_watch(cl_net_t *n, const char *code)
{
    wire_msg m = {.type = WIRE_WATCH};
    memcpy(m.join.code, code, sizeof m.join.code);
    return cl_net_send_msg(n, &m);
}

void cl_net_follow_failed(cl_net_t *n, const char *why)
{
    char text[WIRE_TEXT_MAX + 1];
    snprintf(text, sizeof text, "cannot reach the server's spectator port %d (UDP): %s", n->port, why);
    n->following = false;
    cl_net_push_text(n, CL_EV_ERROR, 0, "%s", text);
    cl_net_give_up(n, text);
}

/* Leaves the game-port peer (cleanly: the server sees a disconnect) and
 * connects to the same host at port. */
static void follow(cl_net_t *n, int port)
{
    ENetPeer *old = n->peer;
    n->peer = NULL;
    if (old) {
        old->data = NULL; /* its DISCONNECT and anything still on the way are ignored */
        enet_peer_disconnect(old, 0);
    }
    n->hops++;
    n->port = port;
    n->following = true;
    if (n->phase != CL_NET_RESUMING) {
        n->phase = CL_NET_CONNECTING;
        n->connect_deadline = n->hub->now_ms + FOLLOW_TIMEOUT_MS;
    }
    const char *err = cl_net_start_connect(n);
    if (err && old) {
        /* The hub has no free peer while the old one says goodbye: let it
         * go at once instead. */
        enet_peer_disconnect_now(old, 0);
        err = cl_net_start_connect(n);
    }
    if (err)
        cl_net_follow_failed(n, err);
}

void cl_net_on_watch_at(cl_net_t *n, const wire_msg *m)
{
    const char *code = m->watch_at.code;
    int port = m->watch_at.port;
    /* Only the answer to our own WATCH, out of a room (or a watcher coming
     * back after a drop), is worth following; anything else means nothing
     * here, as game messages do outside a room. */
    bool coming_back = n->in_room && n->watching && n->phase == CL_NET_RESUMING;
    if (!n->watch_code[0] || (n->in_room && !coming_back))
        return;
    if (strcmp(code, n->watch_code) != 0) {
        cl_net_push_text(n, CL_EV_ERROR, 0,
                         "the server sent WATCH_AT for room %s, not %s which we asked to watch; not followed",
                         code, n->watch_code);
        n->watch_code[0] = '\0';
        return;
    }
    if (n->hops > 0 || port == n->port) {
        n->watch_code[0] = '\0';
        cl_net_push_text(n, CL_EV_ERROR, 0,
                         "the server's spectator port %d answered WATCH with WATCH_AT again (to port %d); "
                         "not followed",
                         n->port, port);
        return;
    }
    if (n->phase == CL_NET_ONLINE || coming_back)
        follow(n, port);
}

bool cl_net_watch_welcome(cl_net_t *n)
{
    bool coming_back = n->phase == CL_NET_RESUMING && n->in_room && n->watching;
    if (!n->following && !coming_back)
        return false;
    n->following = false;
    if (coming_back)
        memcpy(n->watch_code, n->room.code, sizeof n->watch_code);
    else
        n->phase = CL_NET_ONLINE;
    if (!n->watch_code[0])
        return true; /* the WATCH_AT was taken back (a loop): an ERROR said so */
    if (!send_watch(n, n->watch_code))
        cl_net_push_text(n, CL_EV_ERROR, 0, "cannot send WATCH to the spectator port %d", n->port);
    return true;
}

void cl_net_watch_room_state(cl_net_t *n)
{
    n->watch_code[0] = '\0';
    if (n->phase != CL_NET_RESUMING || !n->watching)
        return;
    /* Back in the room. A game on follows as WATCH_START and the move
     * logs (the last one says RESUMED); without one this is all. */
    if (n->room.phase == MATCH_WAITING) {
        n->phase = CL_NET_IN_ROOM;
        n->retry_at = 0;
        cl_net_push_text(n, CL_EV_RESUMED, 0, "watching room %s again", n->room.code);
    }
}

bool cl_net_watch_error(cl_net_t *n, const wire_msg *m)
{
    if (!n->in_room) {
        n->watch_code[0] = '\0'; /* the answer to a WATCH, if one was pending */
        return false;
    }
    if (n->phase != CL_NET_RESUMING || !n->watching)
        return false;
    /* WATCH after a drop was refused: the room closed meanwhile, or it
     * has no spectator seat left. */
    n->watch_code[0] = '\0';
    n->phase = CL_NET_ONLINE;
    n->in_room = n->watching = false;
    n->retry_at = 0;
    if (m->error.code == WIRE_ERR_NO_ROOM) {
        cl_net_push_text(n, CL_EV_WATCH_END, 0, "the room closed while the connection was down");
        return true;
    }
    cl_net_push_text(n, CL_EV_ERROR, m->error.code, "%s", m->error.text);
    cl_net_push_text(n, CL_EV_DISCONNECTED, 0, "could not watch again: %s", m->error.text);
    return true;
}
