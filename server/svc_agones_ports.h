/* svc_agones_ports.h: the host ports of an Agones GameServer (status.ports of the SDK's GET /gameserver),
 * read strictly from its JSON. */
#ifndef MR_SVC_AGONES_PORTS_H
#define MR_SVC_AGONES_PORTS_H

#include <stddef.h>
#include <stdint.h>

/* Under Agones a container port is reached from outside at the host port
 * Agones mapped to it (portPolicy Dynamic or Static). The GameServer's
 * status.ports lists them by the names of the Fleet's spec ports
 * (packaging/agones/fleet.yaml): {"name": "game", "port": 7123}, ... */
#define SVC_AGONES_PORT_GAME "game"
#define SVC_AGONES_PORT_SPECTATE "spectate"
#define SVC_AGONES_PORTS_MAX 16     /* entries in status.ports; more is refused */
#define SVC_AGONES_PORT_NAME_MAX 63 /* bytes of a port's name */

typedef struct svc_agones_ports {
    int n;
    struct {
        char name[SVC_AGONES_PORT_NAME_MAX + 1];
        uint16_t port;
    } e[SVC_AGONES_PORTS_MAX];
} svc_agones_ports;

/* Reads json[0..len) (no NUL needed): the whole text must be one JSON
 * object (RFC 8259, nesting at most 32 deep, nothing after it); its
 * "status", if present, an object; status's "ports", if present, an array
 * (or null) of objects, each with a "name" string (1..63 bytes, no escapes)
 * and a "port" integer 1..65535, names all different. Other keys are
 * skipped. Any flaw refuses the whole (a reply cut short, too): NULL with
 * *out filled, else why not (static), *out then empty. */
const char *svc_agones_read_ports(const char *json, size_t len, svc_agones_ports *out);
/* The port named name, 0 if none. */
uint16_t svc_agones_port_named(const svc_agones_ports *p, const char *name);

#endif
