/* joinlink.h: join links, "mazerace://HOST:PORT/ROOMCODE" and the plain "HOST:PORT/CODE", parsed and written
 * in one place (the game's --join and Join screen, the lobby's copy, the URL handler, the bot). */
#ifndef MR_JOINLINK_H
#define MR_JOINLINK_H

#include <stdbool.h>
#include <stddef.h>

#include "wire.h"

#define JOINLINK_SCHEME "mazerace://"
#define JOINLINK_HOST_MAX 255
#define JOINLINK_TEXT_MAX (sizeof JOINLINK_SCHEME + JOINLINK_HOST_MAX + 8 + WIRE_ROOM_CODE_LEN)

typedef struct joinlink {
    char host[JOINLINK_HOST_MAX + 1];  /* a host name or an IPv4 address, as typed */
    int port;                          /* WIRE_DEFAULT_PORT when the link has none */
    char room[WIRE_ROOM_CODE_LEN + 1]; /* normalised (upper case), or "" when the link names no room */
} joinlink;

/* Accepted, with surrounding blanks ignored:
 *   mazerace://HOST[:PORT][/[CODE]]   (the scheme in any case)
 *   HOST[:PORT][/[CODE]]
 * CODE is a room code as a player types it (case, spaces and dashes
 * ignored: wire_room_code_parse). NULL when fine, else a static message
 * saying what is wrong, fit for the player ("the port must be 1..65535"). */
const char *joinlink_parse(const char *text, joinlink *out);
/* Only "HOST[:PORT]" (no scheme, no room): host into host (cap bytes). */
const char *joinlink_parse_addr(const char *text, char *host, size_t cap, int *port);
/* Writes "mazerace://HOST:PORT/CODE" (no "/CODE" when room is "" or NULL)
 * into buf (cap bytes, cut if too small). Returns buf. */
char *joinlink_format(const char *host, int port, const char *room, char *buf, size_t cap);

/* Invite codes (docs/coordinator.md): "+CODE" or "mazerace://+CODE", each
 * optionally with "@HOST[:PORT]" after the code, the coordinator that
 * knows it (the host's lobby copies the link with it, so a friend needs no
 * setting). CODE as a person types it (coord_code_parse). Returns false
 * when text is not an invite at all (no '+' first); true when it is, and
 * then *why is NULL with the canonical code in code ("+K7MP9NXA") and the
 * coordinator or "" in coord (cap bytes), or *why says what is wrong. */
bool joinlink_invite(const char *text, char code[10], char *coord, size_t cap, const char **why);
/* "mazerace://+CODE" or "mazerace://+CODE@COORD" (coord "" or NULL: none). */
char *joinlink_format_invite(const char *code, const char *coord, char *buf, size_t cap);

#endif
