/* sv_conn.h: a client slot taken by a new connection, from either host (sv_conn.c); sv_server.c handles
 * its data and its end. */
#ifndef MR_SV_CONN_H
#define MR_SV_CONN_H

#include <enet/enet.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sv sv_t;
typedef struct sv_client sv_client;

/* A connection opened in slot c (free), from host:port (network order host). */
void sv_conn_open(sv_t *sv, sv_client *c, uint32_t host, uint16_t port);
/* ENET_EVENT_TYPE_CONNECT of peer on game host h (-1: none of ours, or
 * shutting down: the peer is reset). */
void sv_conn_peer(sv_t *sv, int h, ENetPeer *peer);
/* c's HELLO, as to --max-per-ip over every game host: false if its
 * address already has that many players (refuse it), else true, c then
 * counted among them until sv_conn_release. */
bool sv_conn_admit(sv_t *sv, sv_client *c);
/* c's connection ends: it no longer counts among its address's players. */
void sv_conn_release(sv_t *sv, sv_client *c);
/* A peer sv_cookie.c made connected (what ENET_EVENT_TYPE_CONNECT does). */
void sv_conn_made(sv_t *sv, ENetPeer *peer);

#endif
