/* svc_agones_gs.h: what mazerace-server reads from an Agones GameServer (the SDK's GET /gameserver JSON):
 * status.state, the room reservations of object_meta.annotations and the host ports of status.ports. */
#ifndef MR_SVC_AGONES_GS_H
#define MR_SVC_AGONES_GS_H

#include <stddef.h>
#include <stdint.h>

/* A matchmaker's room reservation is an annotation SVC_AGONES_ROOM_PREFIX
 * "CODE": "GAMEID" (docs/scaling.md, "Quick match across a fleet"); one
 * entry "CODE=GAMEID" is at most SVC_AGONES_ENTRY_MAX bytes. */
#define SVC_AGONES_ROOM_PREFIX "mazerace.io/room-"
#define SVC_AGONES_ENTRY_MAX 160

/* Under Agones a container port is reached from outside at the host port
 * Agones mapped to it (portPolicy Dynamic or Static). The GameServer's
 * status.ports lists them by the names of the Fleet's spec ports
 * (packaging/agones/fleet.yaml): {"name": "game", "port": 7123}, ... */
#define SVC_AGONES_PORT_GAME "game"
#define SVC_AGONES_PORT_SPECTATE "spectate"
#define SVC_AGONES_PORTS_MAX 16     /* entries in status.ports; more is refused */
#define SVC_AGONES_PORT_NAME_MAX 63 /* bytes of a port's name */
#define SVC_AGONES_STATE_MAX 31     /* bytes of status.state ("Allocated" and the like) */
#define SVC_AGONES_GS_DEPTH 32      /* levels of nesting in the whole text; deeper is refused */

typedef struct svc_agones_ports {
    int n;
    struct {
        char name[SVC_AGONES_PORT_NAME_MAX + 1];
        uint16_t port;
    } e[SVC_AGONES_PORTS_MAX];
} svc_agones_ports;

/* One annotation whose key starts with SVC_AGONES_ROOM_PREFIX. */
typedef struct svc_agones_gs_room {
    /* "CODE=GAMEID" (the key after the prefix, '=', the value); for a bad
     * one only the key after the prefix, at most 32 bytes. Control
     * characters are shown as '?'. */
    char entry[SVC_AGONES_ENTRY_MAX + 1];
    const char *bad; /* NULL, or why it cannot be a reservation (static) */
} svc_agones_gs_room;

typedef struct svc_agones_gs {
    /* status.state; "" when absent, not a string, longer than 31 bytes or
     * holding a control character. */
    char state[SVC_AGONES_STATE_MAX + 1];
    /* status.ports (absent or null: none), when ports_why is NULL; else
     * the reason the whole array was refused (static) and ports empty. */
    svc_agones_ports ports;
    const char *ports_why;
    /* The room annotations of object_meta.annotations in the order of the
     * text (an array the reader allocates; svc_agones_gs_free frees it). */
    svc_agones_gs_room *rooms;
    int n_rooms;
} svc_agones_gs;

/* Reads json[0..len) (no NUL needed) with json-c: the whole text must be
 * one JSON object (nesting at most SVC_AGONES_GS_DEPTH deep, nothing but
 * white space after it). Then *out gets:
 * - state: status.state (nowhere else);
 * - rooms: every key of object_meta.annotations starting with
 *   SVC_AGONES_ROOM_PREFIX; a value that is not a string, holds a NUL or a
 *   control character, or makes the entry longer than 160 bytes is a bad
 *   one (the entry itself is checked by svc_agones_parse_entry);
 * - ports: status.ports, an array (or null) of at most 16 objects, each
 *   with a "name" string (1..63 bytes, no NUL) and a "port" integer
 *   1..65535, names all different; any flaw refuses the whole array.
 * status or object_meta of the wrong type count as absent (ports: refused).
 * Returns NULL, or why the text is not read at all (static, or in err):
 * then *out is empty. Either way call svc_agones_gs_free(out) after. */
const char *svc_agones_gs_read(const char *json, size_t len, svc_agones_gs *out, char *err, size_t errlen);
/* One line of the SDK's GET /watch/gameserver stream (newline-delimited
 * JSON, one {"result": GameServer} per change): the same, read from the
 * "result" object; {"error": {"message": ...}} or a line without a
 * "result" object is refused with the reason. */
const char *svc_agones_gs_read_watch(const char *json, size_t len, svc_agones_gs *out, char *err,
                                     size_t errlen);
/* Frees what svc_agones_gs_read allocated in gs (not gs itself); accepts an
 * emptied gs. */
void svc_agones_gs_free(svc_agones_gs *gs);
/* The port named name, 0 if none. */
uint16_t svc_agones_port_named(const svc_agones_ports *p, const char *name);

#endif
