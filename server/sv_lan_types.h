/* sv_lan_types.h: LAN discovery's state (sv->lan, sv_lan.h). Data only. */
#ifndef MR_SV_LAN_TYPES_H
#define MR_SV_LAN_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "sv_limit_types.h"

struct sv_disc;

#define SV_DISC_RATE 50 /* discovery replies per second, and burst */

/* sv->lan. */
typedef struct sv_lan {
    struct sv_disc *disc; /* the responder, or NULL: discovery off */
    sv_bucket bucket;     /* discovery replies */
    uint64_t server_id;   /* in discovery details: one entry per server in a LAN list */
    int waiting;          /* players waiting for an opponent, cached up to a second */
    uint64_t waiting_ms;
    bool waiting_valid;
} sv_lan;

#endif
