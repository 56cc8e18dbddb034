/* bt_fleet.h: many bt_players over shared ENet hosts (up to 4000 on each): mazerace-bot's loop and its bench.
 */
#ifndef MR_BT_FLEET_H
#define MR_BT_FLEET_H

#include <stdbool.h>

#include "bt_player.h"

#define BT_MAX_BOTS 20000
#define BT_SOCKET_MAX 4000 /* players on one ENet host (ENet: 4095 peers) */

typedef struct bt_opts {
    char host[256];
    int port;
    bt_player_cfg player;  /* name is the base name; bots get NAME-1.. when there are several */
    int bots;              /* 1..BT_MAX_BOTS */
    int per_socket;        /* players per ENet host (socket), 1..BT_SOCKET_MAX; 0 = auto */
    int local_port;        /* the first socket's local port, the next +1, ...; 0 = any */
    int spectators;        /* with pairs (creating rooms): spectators per match, watching with BT_WATCH */
    bool spectator_thread; /* bench: the spectators on a thread and socket of their own (bt_watchers.h) */
    double timeout_s;      /* the whole run, always bounded */
    bool quiet;            /* only the summary (and failures) */
    int sockbuf_kib;       /* client socket buffers (0: ENet's default) */
    double bench_s;        /* > 0: bench mode, the measurement window */
    int server_pid;        /* bench: read the server's CPU time from /proc (0: unknown) */
} bt_opts;

/* Runs the bots until each has played its matches (or, in bench mode, the
 * window is over), printing results and a summary on stdout. Returns the
 * exit status: 0 success, 1 failure. */
int bt_fleet_run(const bt_opts *o);

/* Set from a signal handler: the run stops at the next loop and reports. */
void bt_fleet_stop(void);

#endif
