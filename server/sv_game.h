/* sv_game.h: the server's protocol, top: client messages to the subsystems that handle them; closing a
 * client. */
#ifndef MR_SV_GAME_H
#define MR_SV_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sv sv_t;
typedef struct sv_client sv_client;

/* A message from c (data: len bytes, a whole wire message). */
void sv_game_receive(sv_t *sv, sv_client *c, const uint8_t *data, size_t len);
/* c's link is gone or being closed: it stops watching, its room request
 * is forgotten and its seat goes into the grace period. */
void sv_game_disconnected(sv_t *sv, sv_client *c);
/* Sends nothing more, disconnects once queued messages are out; c leaves
 * its room now (sv_game_disconnected). */
void sv_game_close_client(sv_t *sv, sv_client *c, const char *why);
/* Counts a bad message (code WIRE_ERR_RATE: an over-rate one), logs it,
 * answers the first one with an ERROR and disconnects the peer at max_bad. */
void sv_game_bad_message(sv_t *sv, sv_client *c, int code, const char *why);

#endif
