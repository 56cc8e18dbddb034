/* sv_hold_types.h: the progress hold's state (sv->hold, c->hold; sv_hold.h). Data only. */
#ifndef MR_SV_HOLD_TYPES_H
#define MR_SV_HOLD_TYPES_H

#include <enet/enet.h>
#include <stdbool.h>
#include <stdint.h>

/* Held-back packets per client before they go out anyway. */
#define SV_HOLD_MAX 8

/* A held-back packet (sv_send_late), in a pool of SV_HOLD_MAX per client;
 * free entries are chained through next as well. */
typedef struct sv_late {
    int next; /* the same client's next held-back packet (or the next free entry): index + 1, 0 = none */
    ENetPacket *p;
} sv_late;

/* When a client's held-back packets are due: a ring in due order. Every
 * hold lasts the same time, so a hold goes to the back; packets due at the
 * end of this step go to the front. An entry is stale (skipped) once its
 * client's packets went out with another packet. */
typedef struct sv_due {
    int client;  /* index in sv->clients */
    uint32_t id; /* its id then: the slot may be reused */
    uint64_t due_ms;
} sv_due;
#define SV_DUE_PER_CLIENT 4 /* ring entries per client; a full ring releases its oldest early */

/* The server's half (sv->hold). */
typedef struct sv_hold {
    sv_late *late; /* held-back packets: SV_HOLD_MAX per client */
    int late_free; /* first free entry: index + 1, 0 = none */
    int cap_late;
    sv_due *due; /* ring of SV_DUE_PER_CLIENT per client */
    int due_head, due_n, cap_due;
} sv_hold;

/* A client's half (c->hold): its held-back packets and its pace. */
typedef struct sv_hold_client {
    int head; /* its first and last held-back packet: index + 1 in sv->hold.late, 0 = none */
    int tail;
    int n;                 /* held-back packets */
    uint64_t due_ms;       /* when they go out at the latest: the first one's time, plus the hold if held */
    uint64_t last_move_ms; /* when its last MOVE came, valid once moved */
    uint32_t move_gap_ms;  /* time between its last two MOVEs; UINT32_MAX until it has made two */
    bool moved;
} sv_hold_client;

#endif
