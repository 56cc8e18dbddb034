/* sv_quick.h: the quick-match queue: who waits for an opponent, oldest first (a puzzle being made, or a
 * room). */
#ifndef MR_SV_QUICK_H
#define MR_SV_QUICK_H

#include <stdbool.h>

struct sv_gen_job;
struct sv_room;

/* Each entry is one player waiting alone for a quick-match opponent:
 * either the owner of a quick-match room whose puzzle is still being made
 * (job), or the one player in an open room that quick match may fill
 * (room). The pairing rules are in sv_quickmatch.c and docs/racing.md ("Quick
 * match"); this is only the list: a FIFO with O(1) removal from anywhere.
 * An entry is named by a handle > 0 that stays valid until it is popped or
 * removed; the caller keeps it beside the job or room (its quick_at). */
typedef struct sv_quick_item {
    struct sv_gen_job *job; /* exactly one of job and room is set */
    struct sv_room *room;
} sv_quick_item;

typedef struct sv_quick sv_quick;

/* A queue of at most cap entries. Destroy accepts NULL; the queue never
 * owns the jobs or rooms it names. */
sv_quick *sv_quick_create(int cap);
void sv_quick_destroy(sv_quick *q);
/* Appends an entry (the newest); returns its handle. Asserts on a full
 * queue: the caller sizes it for every client and room. */
int sv_quick_push(sv_quick *q, sv_quick_item it);
/* Takes the oldest entry out: true and *out filled, false when empty. */
bool sv_quick_pop(sv_quick *q, sv_quick_item *out);
/* The oldest entry without taking it: true and *out filled, false when empty. */
bool sv_quick_peek(const sv_quick *q, sv_quick_item *out, int *handle);
/* Takes the entry named by handle out, wherever it is. */
void sv_quick_remove(sv_quick *q, int handle);
/* Entries waiting. */
int sv_quick_count(const sv_quick *q);

#endif
