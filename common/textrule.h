/* textrule.h: the rules for player names and texts, shared by the match engine, the protocol and the hosts.
 */
#ifndef MR_TEXTRULE_H
#define MR_TEXTRULE_H

#include <stdbool.h>
#include <stddef.h>

#define TXT_NAME_MAX 24  /* player and server names, bytes */
#define TXT_TEXT_MAX 200 /* reasons and error texts, bytes */

/* A player or server name (docs/protocol.md, "Names"): 1..TXT_NAME_MAX
 * bytes of valid UTF-8, no control characters (C0, DEL, C1), no invisible
 * or text-direction characters (zero-width space, bidi overrides and
 * isolates, BOM, fillers, noncharacters), and at least one character that
 * is not a space. txt_name_problem returns NULL for a good name, else a
 * static reason to show the player (the server sends it with REFUSED
 * BAD_NAME). Clients, the bot and the server all use it. */
const char *txt_name_problem(const char *s, size_t len);
bool txt_name_ok(const char *s, size_t len);
/* Text: valid UTF-8 with no control characters, 0..TXT_TEXT_MAX bytes. */
bool txt_text_ok(const char *s, size_t len);
/* Copies src (NULL: "") into dst (dstlen bytes) as valid text: control
 * characters become '?', bad UTF-8 is dropped, cut at a character
 * boundary. */
void txt_clean(char *dst, size_t dstlen, const char *src);

#endif
