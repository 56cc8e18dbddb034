/* svc_accept.h: the metrics port's listener: a connection reaches libmicrohttpd only once its request headers
 * are all in, within bounds per address and in total, so a slowloris cannot hold the port (and /healthz). */
#ifndef MR_SVC_ACCEPT_H
#define MR_SVC_ACCEPT_H

#include <netinet/in.h>

struct MHD_Daemon;

/* The listener has TCP_DEFER_ACCEPT: the kernel hands a connection over
 * once its first data has come. A connection whose header block is then
 * complete (peeked with MSG_PEEK, so that libmicrohttpd reads it unchanged)
 * goes to libmicrohttpd at once (MHD_add_connection); any other waits here
 * ("pending") until its header block is complete. At most
 * SVC_PENDING_MAX wait in all and SVC_PENDING_PER_IP from one address;
 * one that has waited SVC_HEADER_MS is closed. At either bound a newcomer
 * takes the place of the oldest pending connection (of its address, or
 * of all): a request sent at once (a health check, a scrape) is complete
 * within a moment of its connection, so trickling connections, however
 * fast they are reopened, push out each other and not it. */
#define SVC_PENDING_MAX 64
#define SVC_PENDING_PER_IP 8
#define SVC_HEADER_MS 5000
#define SVC_HEADER_MAX 8192 /* a longer header block is closed */

typedef struct svc_accept svc_accept;

/* Listens on sin (port 0 = any free one) and starts its thread, which
 * hands connections to d (started with MHD_USE_NO_LISTEN_SOCKET and
 * MHD_USE_ITC). NULL with *err (static) on failure. */
svc_accept *svc_accept_start(const struct sockaddr_in *sin, struct MHD_Daemon *d, const char **err);
/* The bound port. */
unsigned svc_accept_port(const svc_accept *a);
/* Stops the thread, closes the listener and every pending connection.
 * Accepts NULL. Call before MHD_stop_daemon. */
void svc_accept_stop(svc_accept *a);

#endif
