/* svc_agones.h: mazerace-server as an Agones GameServer: the SDK sidecar's REST API (Ready, Health, labels,
 * Counters, GameServer state and its watch stream, Allocate, Shutdown) spoken by libcurl on threads of its
 * own. */
#ifndef MR_SVC_AGONES_H
#define MR_SVC_AGONES_H

#include <stdbool.h>

#include "sv.h"
#include "svc_agones_gs.h"
#include "wire.h"

/* The game loop never waits on the sidecar: every call below only takes a
 * mutex for a copy of a few integers. The thread does the HTTP, with
 * time-outs, and retries what failed with a growing back-off (the sidecar
 * may start after the server, or restart). docs/scaling.md says what is
 * sent when. */
typedef struct svc_agones svc_agones;

/* Starts the thread. port is the sidecar's HTTP port on 127.0.0.1
 * (AGONES_SDK_HTTP_PORT);
 * max_players and max_rooms the capacities of the "players" and "rooms"
 * Counters. The thread marks the GameServer Ready first (the caller has
 * bound the game socket) and logs through lg, which must outlive the
 * handle. A second thread keeps GET /watch/gameserver open and reads each
 * change of the GameServer as it comes (reservations, ports, state); while
 * that stream is open nothing is polled. idle_ready_ms > 0: once Allocated
 * with no player and no room for that long, POST /ready (back to the
 * Fleet's pool; 0 = never). NULL with *err (static) on failure. */
svc_agones *svc_agones_start(int port, int max_players, int max_rooms, int idle_ready_ms,
                             const struct sv_log *lg, const char **err);
/* Called by the game loop every agones_health interval: the thread sends one /health per
 * call it sees, so a loop that stalls stops the pings and Agones marks the
 * server Unhealthy. */
void svc_agones_health(svc_agones *a);
/* Called by the game loop with fresh counts; the thread sends the Counters
 * when they changed, at most once per SVC_AGONES_COUNTER_MS. Draining
 * lowers both capacities to the counts, so no allocation picks the server. */
void svc_agones_publish(svc_agones *a, int players, int rooms, bool draining);
/* Whether the GameServer is Allocated, as the last GameServer read said
 * (false again once it went back to Ready). */
bool svc_agones_allocated(svc_agones *a);
/* The host ports Agones mapped to the container's game and spectator
 * ports: the entries of the GameServer's status.ports named "game" and
 * "spectate" (svc_agones_gs.h), read with each GET /gameserver; 0 while
 * not known (no good status.ports yet, or no entry of that name). A bad
 * status.ports never replaces good ones read before. Lock-free. */
bool svc_agones_ports_known(svc_agones *a); /* a good status.ports has been read */
uint16_t svc_agones_game_port(svc_agones *a);
uint16_t svc_agones_spectate_port(svc_agones *a);
/* A matchmaker's room reservation, read from an annotation of the
 * GameServer (docs/scaling.md, "Quick match across a fleet"):
 * SVC_AGONES_ROOM_PREFIX "CODE": "GAMEID" (svc_agones_gs.h), one
 * annotation per room, so that allocations never overwrite each other's. */
typedef struct svc_agones_resv {
    char code[WIRE_ROOM_CODE_LEN + 1];
    char game_id[SVC_AGONES_ENTRY_MAX + 1];
} svc_agones_resv;
/* Checks one entry "CODE=GAMEID" (the key's code, then the value) strictly (a room code, then a game ID
 * pz_id_parse takes) into *out: NULL, or why not (static, or in err). */
const char *svc_agones_parse_entry(const char *entry, svc_agones_resv *out, char *err, size_t errlen);
/* The oldest reservation read and not yet taken (true), each entry once
 * (the last 1024 entries are remembered); never waits on the sidecar, and
 * takes no lock when none is waiting (call it on every turn of the loop). */
bool svc_agones_take_reservation(svc_agones *a, svc_agones_resv *out);
/* Asks for POST /shutdown (retried for up to 5 s), stops the thread and
 * frees. Returns once the thread has ended: at most about 8 s with a
 * sidecar that hangs. Accepts NULL. */
void svc_agones_stop(svc_agones *a);

#define SVC_AGONES_COUNTER_MS 250 /* the least time between two Counter updates */
#define SVC_AGONES_DEFAULT_PORT 9358

#endif
