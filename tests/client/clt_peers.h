/* clt_peers.h: stand-ins for the far end of a client's connection, for the
 * network-failure tests: a UDP relay that can go silent, and a server that
 * speaks another protocol version. Each runs in a child process on
 * 127.0.0.1 and ends by itself (bounded in time). */
#ifndef MR_CLT_PEERS_H
#define MR_CLT_PEERS_H

#include <stdbool.h>
#include <sys/types.h>

/* A relay from 127.0.0.1:*port (a free port) to 127.0.0.1:to_port, for one
 * client address at a time (the last one heard from). clt_relay_set
 * switches forwarding off (every datagram either way is dropped, as on a
 * dead link) or back on. The relay ends when clt_relay_stop closes its
 * control pipe, or after max_s seconds. */
typedef struct clt_relay {
    pid_t pid;
    int ctl; /* write end of the control pipe */
    int port;
} clt_relay;
bool clt_relay_start(clt_relay *r, int to_port, int max_s);
bool clt_relay_set(clt_relay *r, bool forward);
void clt_relay_stop(clt_relay *r);

/* An ENet host on 127.0.0.1 (a free port, in *port) that answers every
 * HELLO with REFUSED(version mismatch), as mazerace-server does when the
 * client's protocol version is not its own, and disconnects the peer.
 * It ends after max_s seconds. The pid, or -1. */
pid_t clt_other_version_server(int *port, int max_s);

/* An ENet host on 127.0.0.1 (a free port, in *port) that welcomes every
 * HELLO and answers every WATCH with WATCH_AT to_port, as a server with a
 * spectator port does. It ends after max_s seconds. The pid, or -1. */
pid_t clt_watch_at_server(int *port, int to_port, int max_s);

#endif
