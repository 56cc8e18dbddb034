/* it_race.h: helpers for integration tests that race players over a real mazerace-server on 127.0.0.1. */
#ifndef MR_IT_RACE_H
#define MR_IT_RACE_H

#include <stdbool.h>

#include "bt_player.h"
#include "it_proc.h"

#define IT_MAX_PLAYERS 8

/* A server process and the players racing on it. */
typedef struct it_env {
    it_proc server;
    int port;
    cl_hub_t *hub; /* shared by players made with shared = true */
    bt_player *p[IT_MAX_PLAYERS];
    int n;
} it_env;

/* Starts the server with extra flags (NULL-terminated, may be NULL); false
 * if it did not come up. */
bool it_env_start(it_env *e, const char *const extra[]);
/* A player with cfg (its own connection, or the shared hub); its index. */
int it_env_add(it_env *e, const bt_player_cfg *cfg, bool shared);
/* Turns the loop (network, players, server output) until done(e, arg) is
 * true or timeout_ms passes; returns done's last value. BT_WAIT players get
 * the code of the player just before them once it has one. */
bool it_env_run(it_env *e, bool (*done)(it_env *e, void *arg), void *arg, int timeout_ms);
/* Destroys the players, stops the server (SIGTERM) and reaps it. */
void it_env_stop(it_env *e);

/* Predicates for it_env_run. */
bool it_all_done(it_env *e, void *arg);         /* every player done or failed */
bool it_results_at_least(it_env *e, void *arg); /* arg: int *, every player has that many results */

/* A config with the usual test defaults: name, pace, one match. */
bt_player_cfg it_cfg(const char *name, int mode, uint32_t pace_ms);

#endif
