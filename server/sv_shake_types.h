/* sv_shake_types.h: the game host's pre-handshake filter's state (sv->shake, sv_shake.h). Data only. */
#ifndef MR_SV_SHAKE_TYPES_H
#define MR_SV_SHAKE_TYPES_H

#include <stdint.h>

/* The game host's filter (sv_shake.c), sv->shake. */
typedef struct sv_shake_state {
    int max;          /* half-open peers allowed at once */
    uint64_t *since;  /* per peer slot: when it was first seen in ENet's handshake, 0 = not */
    uint64_t next_ms; /* the next sv_shake_expire pass */
} sv_shake_state;

#endif
