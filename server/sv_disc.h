/* sv_disc.h: the LAN discovery responder's UDP socket (no ENet, no protocol knowledge). */
#ifndef MR_SV_DISC_H
#define MR_SV_DISC_H

#include <stddef.h>
#include <stdint.h>

typedef struct sv_disc sv_disc;

/* Datagrams at most answering one probe (the reply, then its details). */
#define SV_DISC_PARTS 2
/* Builds datagram part (0, 1, ...) of the answer to one probe of n bytes
 * into out (cap bytes): returns its length, or 0 for no more (part 0: 0
 * ignores the probe). */
typedef size_t (*sv_disc_answer_fn)(void *ctx, const uint8_t *probe, size_t n, int part, uint8_t *out,
                                    size_t cap);

/* A non-blocking UDP socket bound alone to addr and the first free port of
 * port .. port + span - 1 (port 0: any free port). NULL with *err (static
 * message) on failure, "discovery: port in use" when all were taken. */
sv_disc *sv_disc_open(const char *addr, int port, int span, const char **err);
void sv_disc_close(sv_disc *d); /* accepts NULL */
uint16_t sv_disc_port(const sv_disc *d);
/* Its socket, for a poll (-1 for NULL). */
int sv_disc_fd(const sv_disc *d);

/* Answers up to max pending probes without blocking; returns the number of
 * replies sent. Datagrams larger than the probe buffer are dropped. */
int sv_disc_poll(sv_disc *d, sv_disc_answer_fn answer, void *ctx, int max);
/* (Replies sent counts every datagram.) */

#endif
