/* sv_fixture.h: the server in-process on 127.0.0.1 with raw ENet clients, shared by the server tests. */
#ifndef MR_SV_FIXTURE_H
#define MR_SV_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "raw_client.h"
#include "sv.h"
#include "wire.h"

#define WAIT_MS 3000
#define GAME_ID "pipes:6x4:hard#4242"

/* The server is driven like the SDL client drives it: with its own clock,
 * which starts at 0 (SDL ticks), not the monotonic clock's origin. */
typedef struct fixture {
    sv_t *sv;
    uint64_t base_us;
    bool frozen; /* the server's clock stands at frozen_ms (the test moves it) */
    uint64_t frozen_ms;
    int service_failures; /* sv_service calls of pump_server that returned -1 */
} fixture;

uint64_t fixture_now(const fixture *f);
/* One sv_service poll (the raw clients' pump callback). */
void pump_server(void *ctx);
/* Defaults on 127.0.0.1, ephemeral ports, a 50 ms countdown, no log
 * (MR_TEST_SERVER_LOG=1 turns it on at debug level). */
void base_config(sv_config *cfg);
fixture *start(const sv_config *cfg);
void stop(fixture *f);
/* Services the server (through client c) until pred holds for its
 * statistics, at most WAIT_MS; returns the last statistics. */
sv_stats wait_stats(fixture *f, raw_client *c, bool (*pred)(const sv_stats *));
/* A UDP socket on 127.0.0.1 (the caller closes it) that has sent count
 * LAN discovery probes with this nonce to the server's discovery port. */
int send_probes(fixture *f, uint32_t nonce, int count);
/* A connected client past HELLO/WELCOME. */
raw_client *join_server(fixture *f, const char *name);
void send_simple(raw_client *c, int type);
void send_ready(raw_client *c);
void send_move(raw_client *c, uint32_t seq, pz_move mv);
/* RESUME of seat slot in room code with token. */
void send_resume(raw_client *c, const char *code, int slot, match_token_t token);
/* CREATE_ROOM by parameters (a best-of-1 series); the answer is the caller's to wait for. */
void send_create(raw_client *c, int kind, int w, int h, int diff);
/* Creates a room on GAME_ID; returns its code in code. */
void create_room(raw_client *c, char code[WIRE_ROOM_CODE_LEN + 1]);
void join_room(raw_client *c, const char *code, int want_slot);
/* a and b in a room on GAME_ID, both ready, past the countdown (the race
 * is on); fills plan (max moves) with a solution and returns its length. */
int start_pair_race(raw_client *a, raw_client *b, pz_move *plan, int max);

#endif
