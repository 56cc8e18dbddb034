/* sv_disc.h: the LAN discovery responder's UDP socket (no ENet, no protocol knowledge). */
#ifndef MR_SV_DISC_H
#define MR_SV_DISC_H

#include <stddef.h>
#include <stdint.h>

typedef struct sv_disc sv_disc;

/* Builds the reply to one probe of n bytes into out (cap bytes): returns the
 * reply length, or 0 to ignore the probe. */
typedef size_t (*sv_disc_answer_fn)(void *ctx, const uint8_t *probe, size_t n, uint8_t *out, size_t cap);

/* A non-blocking UDP socket bound to addr:port (port 0 = ephemeral), with
 * SO_REUSEADDR so several servers on one host can all hear broadcasts.
 * NULL with *err (static message) on failure. */
sv_disc *sv_disc_open(const char *addr, int port, const char **err);
void sv_disc_close(sv_disc *d); /* accepts NULL */
int sv_disc_fd(const sv_disc *d);
uint16_t sv_disc_port(const sv_disc *d);

/* Answers up to max pending probes without blocking; returns the number of
 * replies sent. Datagrams larger than the probe buffer are dropped. */
int sv_disc_poll(sv_disc *d, sv_disc_answer_fn answer, void *ctx, int max);

#endif
