/* sv_send.h: how the loop sends to a client: encode, queue on its link, errors, bad messages, closing. */
#ifndef MR_SV_SEND_H
#define MR_SV_SEND_H

#include <enet/enet.h>
#include <stdbool.h>

#include "wire.h"

typedef struct sv sv_t;
typedef struct sv_client sv_client;

void sv_send(sv_t *sv, sv_client *c, const wire_msg *m);
void sv_send_error(sv_t *sv, sv_client *c, int type, int code, const char *text);
/* Counts a bad message (code WIRE_ERR_RATE: an over-rate one), logs it,
 * answers the first one with an ERROR and disconnects the peer at max_bad. */
void sv_bad_message(sv_t *sv, sv_client *c, int code, const char *why);
/* Sends nothing more, disconnects once queued messages are out. */
void sv_close_client(sv_t *sv, sv_client *c, const char *why);

/* The pieces the progress hold (sv_hold.c) sends with. */
/* Whether c may be sent to: linked, welcomed or saying HELLO, not closing. */
bool sv_can_send(const sv_client *c);
/* m encoded as a reliable packet (NULL if ENet has no memory). */
ENetPacket *sv_make_packet(sv_t *sv, const wire_msg *m);
/* Hands p to c's game-host peer (ENet owns it then; freed on failure). */
void sv_queue_packet(sv_t *sv, sv_client *c, ENetPacket *p);

#endif
