/* sv_race.h: two raw clients racing on the in-process server (sv_fixture), shared by the server tests. */
#ifndef MR_SV_RACE_H
#define MR_SV_RACE_H

#include <stdbool.h>

#include "puzzle.h"
#include "raw_client.h"
#include "sv_fixture.h"
#include "wire.h"

typedef struct race {
    raw_client *a, *b;
    char code[WIRE_ROOM_CODE_LEN + 1];
    wire_match_start start_a, start_b;
    pz_puzzle *pz;
    pz_move plan[512];
    int plan_len;
} race;

/* A server started with cfg, then two players in one room on GAME_ID, both ready, through the countdown
 * (to the start when wait_for_start), the solution of the puzzle from the ID the server sent in r->plan;
 * stop_race_server closes the clients, frees the puzzle and stops the server. */
fixture *start_race_server(const sv_config *cfg, race *r, bool wait_for_start);
void stop_race_server(fixture *f, race *r);

#endif
