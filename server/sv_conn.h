/* sv_conn.h: a client's connection as both hosts report it (sv_server.c): opened, data, gone. */
#ifndef MR_SV_CONN_H
#define MR_SV_CONN_H

#include <enet/enet.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sv sv_t;
typedef struct sv_client sv_client;

/* A connection opened in slot c (free), from host:port (network order host). */
void sv_client_open(sv_t *sv, sv_client *c, uint32_t host, uint16_t port);
/* c's connection is gone. */
void sv_client_gone(sv_t *sv, sv_client *c);
/* A message from c. */
void sv_client_data(sv_t *sv, sv_client *c, const uint8_t *data, size_t len);
/* A peer sv_cookie.c made connected (what ENET_EVENT_TYPE_CONNECT does). */
void sv_peer_connected(sv_t *sv, ENetPeer *peer);

#endif
