/* conformance.h: the conformance harness shared by the section files (conformance_*.c): the server under
 * test, the PASS/FAIL list, small senders. */
#ifndef MR_CONFORMANCE_H
#define MR_CONFORMANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h"
#include "puzzle.h"
#include "raw_client.h"
#include "util.h"
#include "wire.h"

#define WAIT_MS 3000
#define QUIET_MS 150 /* how long "nothing more arrives" is watched for */
#define MAX_LINE 256

extern uint16_t port;      /* the server's game port */
extern uint16_t spec_port; /* the server's spectator port (the game port when it serves them there) */
extern char db_path[128];  /* the server's match database, in a temporary directory */

/* One line of the PASS/FAIL list: the doc's check ID, the outcome, what was checked. */
void check(const char *id, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- the server process (conformance.c) ---- */

void stop_server(void);
/* Starts bin on 127.0.0.1 (db as its match database, spectators as --spectator-port) and sets spec_port;
 * returns its game port, or ends the run with the server's stderr: no check can run without a server. */
uint16_t must_start_server(const char *bin, const char *db, const char *spectators);

/* ---- small senders (conformance.c) ---- */

raw_client *connect_raw(void);
/* A message of this type with no fields (READY: ready = true). */
void send_type(raw_client *c, int type);
/* A HELLO with this name of len bytes, as raw bytes (any name, even a bad one). */
void send_hello(raw_client *c, const char *name, size_t len);
/* Connected and through HELLO/WELCOME, or NULL. */
raw_client *hello_client(const char *name);
void send_create_id(raw_client *c, const char *id, int series);
void send_move(raw_client *c, uint32_t seq, pz_move mv);
/* A message of this type whose only field is a room code (JOIN_ROOM, WATCH, RESUME's code). */
void send_code(raw_client *c, int type, const char *code);
/* The next message c gets is an ERROR (or REFUSED) with this code. */
bool next_error(raw_client *c, int type, int code, char *text, size_t tlen);
/* Nothing more arrives for QUIET_MS. */
bool quiet(raw_client *c);
/* Two players in a room on id, both ready, until the race is on;
 * their MATCH_STARTs in sa, sb. */
bool race_on(const char *id, raw_client **a, raw_client **b, wire_match_start *sa, wire_match_start *sb);

/* ---- the sections, in the order main runs them ---- */

/* Replays every sequence diagram of the doc (conformance_flows.c); returns how many. */
int run_flows(const char *doc_path);
/* conformance_requests.c: handshake, names, malformed messages, requests in no room, parameters. */
void check_handshake(void);
void check_requests(void);
/* conformance_race.c: a race's moves, PROGRESS and MATCH_END; DESC_REQUEST; room, rate and bad-message
 * limits. */
void check_race(void);
void check_desc(void);
void check_limits(void);
/* conformance_watch.c: spectators on the game port, then (restarting the server) on a spectator port. */
void check_watch(void);
void check_spectator_port(const char *bin);
/* conformance_records.c: RECENT and REPLAY requests; last, a server run with --db none (restarts it). */
void check_records(const char *bin);

#endif
