/* sv_rooms.h: the server's room table: slots, room-code lookup and the timer heap. */
#ifndef MR_SV_ROOMS_H
#define MR_SV_ROOMS_H

#include <stdbool.h>
#include <stdint.h>

#include "match.h"
#include "rng.h"
#include "wire.h"

struct sv_client;

/* One room: a match and the connected client in each slot. Everything is
 * allocated once in sv_rooms_create; a room is "free" when m is NULL. */
typedef struct sv_room {
    match *m;
    char code[WIRE_ROOM_CODE_LEN + 1];
    uint32_t key;                          /* the code packed base 31 */
    struct sv_client *player[MATCH_SLOTS]; /* connected client per slot, or NULL */
    uint64_t deadline;                     /* match_next_deadline, cached */
    int heap_pos;                          /* index in the timer heap, -1 if not in it */
    int index;                             /* position in the table */
    int next_free;                         /* free list link, -1 at the end */
    bool quick;                            /* quick match may seat players in it (docs/racing.md) */
    int quick_at;                          /* its entry in the quick-match queue, 0 = none */
    bool made_by_quick;                    /* made for quick match, not by a create request */
    /* A matchmaker's reservation (sv_reserve_room): kept open with nobody in it until then; 0 = none. */
    uint64_t reserved_until;
    uint32_t serial;     /* a new value each time the slot is used */
    uint32_t ip;         /* address charged for its puzzle memory */
    size_t puzzle_bytes; /* that charge (estimated) */
    char *desc;          /* DESC_REQUEST cache: the description game ID of the puzzle */
    size_t desc_len;     /* whose hash is desc_for (malloc'd; freed with the room) */
    uint64_t desc_for;
    uint64_t created_ms;
    /* sv_record.c: the players' names and the wall-clock start of the race
     * being played, kept at its countdown (a player who leaves mid-race is
     * no longer in the match when its record is made). */
    char rec_names[MATCH_SLOTS][MATCH_NAME_MAX + 1];
    int64_t rec_start_utc_ms;
    struct sv_client *spec_head; /* spectators watching it (sv_spec.c), a list through the clients */
    int nspec;
} sv_room;

typedef struct sv_rooms sv_rooms;

/* A table of max_rooms rooms. Caller destroys with sv_rooms_destroy, which
 * also destroys every match still in it. */
sv_rooms *sv_rooms_create(int max_rooms);
void sv_rooms_destroy(sv_rooms *t); /* accepts NULL */

/* A free room with a fresh unused code drawn from secrand, holding m (taken
 * over; destroyed with the room). NULL when every room is in use. */
sv_room *sv_rooms_add(sv_rooms *t, match *m, uint64_t now_ms);
/* The same with the given code (wire_room_code_ok); NULL when it is not a
 * code, already in use or every room is taken. */
sv_room *sv_rooms_add_code(sv_rooms *t, match *m, uint64_t now_ms, const char *code);
/* Destroys the match and frees the room (and its code). */
void sv_rooms_remove(sv_rooms *t, sv_room *room);
/* The room with this exact code (upper case, as wire_room_code_ok), or NULL:
 * O(1). */
sv_room *sv_rooms_find(const sv_rooms *t, const char *code);
int sv_rooms_count(const sv_rooms *t);
int sv_rooms_capacity(const sv_rooms *t);
sv_room *sv_rooms_at(sv_rooms *t, int index); /* any slot, used or free */

/* Timer heap on room->deadline (UINT64_MAX: not in the heap). Call after
 * anything that may have changed the match's next deadline. */
void sv_rooms_set_deadline(sv_rooms *t, sv_room *room, uint64_t deadline);
/* The room with the earliest deadline if it is <= now_ms, else NULL. */
sv_room *sv_rooms_due(const sv_rooms *t, uint64_t now_ms);
/* Earliest deadline of any room, UINT64_MAX if none. */
uint64_t sv_rooms_next_deadline(const sv_rooms *t);

/* Bytes the table holds per room (struct, code-table and heap entries). */
size_t sv_rooms_bytes_per_room(const sv_rooms *t);

#endif
