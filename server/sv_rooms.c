/* sv_rooms.c: room slots with a free list, an open-addressing code table and a deadline min-heap. */
#include "sv_rooms.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Codes are random (not sequential) and drawn from the kernel's CSPRNG, so
 * that a player can neither guess the next room nor work one out from the
 * codes and seeds it has seen; the open-addressing table keeps join-by-code O(1). Each table slot
 * holds a room index + 1 (0 = empty); removal uses backward-shift deletion so
 * that no tombstones accumulate in a long-running server. */
struct sv_rooms {
    sv_room *rooms;
    int cap, count, free_head;
    int *codes; /* code table, mask + 1 entries */
    uint32_t mask;
    sv_room **heap; /* min-heap on deadline */
    int heap_len;
    uint32_t serial;
};

static uint32_t pack_code(const char *code)
{
    static const char alphabet[] = WIRE_ROOM_ALPHABET;
    uint32_t k = 0;
    for (int i = 0; i < WIRE_ROOM_CODE_LEN; i++) {
        const char *p = code[i] ? strchr(alphabet, code[i]) : NULL;
        if (!p)
            return UINT32_MAX;
        k = k * 31u + (uint32_t)(p - alphabet);
    }
    return code[WIRE_ROOM_CODE_LEN] ? UINT32_MAX : k;
}

static uint32_t slot_of(const sv_rooms *t, uint32_t key)
{
    return (key * 2654435761u) & t->mask;
}

sv_rooms *sv_rooms_create(int max_rooms)
{
    sv_rooms *t = mr_alloc(1, sizeof *t);
    t->cap = max_rooms;
    t->rooms = mr_alloc((size_t)max_rooms, sizeof *t->rooms);
    for (int i = 0; i < max_rooms; i++) {
        t->rooms[i].index = i;
        t->rooms[i].heap_pos = -1;
        t->rooms[i].deadline = UINT64_MAX;
        t->rooms[i].next_free = i + 1 < max_rooms ? i + 1 : -1;
    }
    t->free_head = 0;
    uint32_t n = 16;
    while (n < 2u * (uint32_t)max_rooms)
        n <<= 1;
    t->mask = n - 1;
    t->codes = mr_alloc(n, sizeof *t->codes);
    t->heap = mr_alloc((size_t)max_rooms, sizeof *t->heap);
    return t;
}

void sv_rooms_destroy(sv_rooms *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->cap; i++) {
        match_destroy(t->rooms[i].m);
        free(t->rooms[i].desc);
    }
    free(t->rooms);
    free(t->codes);
    free(t->heap);
    free(t);
}

sv_room *sv_rooms_find(const sv_rooms *t, const char *code)
{
    uint32_t key = pack_code(code);
    if (key == UINT32_MAX)
        return NULL;
    for (uint32_t i = slot_of(t, key);; i = (i + 1) & t->mask) {
        int v = t->codes[i];
        if (v == 0)
            return NULL;
        if (t->rooms[v - 1].key == key)
            return &t->rooms[v - 1];
    }
}

static void code_insert(sv_rooms *t, sv_room *room)
{
    uint32_t i = slot_of(t, room->key);
    while (t->codes[i])
        i = (i + 1) & t->mask;
    t->codes[i] = room->index + 1;
}

static void code_erase(sv_rooms *t, sv_room *room)
{
    uint32_t i = slot_of(t, room->key);
    while (t->codes[i] != room->index + 1)
        i = (i + 1) & t->mask;
    /* Backward shift: pull later entries of the probe run into the hole
     * unless their home slot lies cyclically after the hole. */
    for (uint32_t j = (i + 1) & t->mask;; j = (j + 1) & t->mask) {
        int v = t->codes[j];
        if (v == 0)
            break;
        uint32_t home = slot_of(t, t->rooms[v - 1].key);
        bool between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!between) {
            t->codes[i] = v;
            i = j;
        }
    }
    t->codes[i] = 0;
}

sv_room *sv_rooms_add(sv_rooms *t, match *m, uint64_t now_ms)
{
    if (t->free_head < 0)
        return NULL;
    /* There are 31^5 codes and at most 65536 rooms, so a collision is rare
     * (under 0.3% per draw when full); the loop is bounded anyway. */
    char code[WIRE_ROOM_CODE_LEN + 1];
    int tries = 0;
    do {
        wire_room_code_secure(code);
    } while (sv_rooms_find(t, code) && ++tries < 64);
    if (tries >= 64)
        return NULL;
    return sv_rooms_add_code(t, m, now_ms, code);
}

sv_room *sv_rooms_add_code(sv_rooms *t, match *m, uint64_t now_ms, const char *code)
{
    if (t->free_head < 0 || !wire_room_code_ok(code) || sv_rooms_find(t, code))
        return NULL;
    sv_room *room = &t->rooms[t->free_head];
    t->free_head = room->next_free;
    room->next_free = -1;
    memcpy(room->code, code, sizeof room->code);
    room->key = pack_code(code);
    room->m = m;
    room->player[0] = room->player[1] = NULL;
    room->spec_head = NULL;
    room->nspec = 0;
    room->quick = false;
    room->quick_at = 0;
    room->made_by_quick = false;
    room->reserved_until = 0;
    room->serial = ++t->serial;
    room->puzzle_bytes = 0;
    room->created_ms = now_ms;
    room->deadline = UINT64_MAX;
    room->heap_pos = -1;
    code_insert(t, room);
    t->count++;
    return room;
}

/* ---- heap ---- */

static void heap_swap(sv_rooms *t, int a, int b)
{
    sv_room *x = t->heap[a];
    t->heap[a] = t->heap[b];
    t->heap[b] = x;
    t->heap[a]->heap_pos = a;
    t->heap[b]->heap_pos = b;
}

static void heap_up(sv_rooms *t, int i)
{
    while (i > 0) {
        int p = (i - 1) / 2;
        if (t->heap[p]->deadline <= t->heap[i]->deadline)
            break;
        heap_swap(t, i, p);
        i = p;
    }
}

static void heap_down(sv_rooms *t, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < t->heap_len && t->heap[l]->deadline < t->heap[m]->deadline)
            m = l;
        if (r < t->heap_len && t->heap[r]->deadline < t->heap[m]->deadline)
            m = r;
        if (m == i)
            return;
        heap_swap(t, i, m);
        i = m;
    }
}

static void heap_remove(sv_rooms *t, sv_room *room)
{
    int i = room->heap_pos;
    if (i < 0)
        return;
    t->heap_len--;
    if (i != t->heap_len) {
        t->heap[i] = t->heap[t->heap_len];
        t->heap[i]->heap_pos = i;
        heap_down(t, i);
        heap_up(t, i);
    }
    room->heap_pos = -1;
}

void sv_rooms_set_deadline(sv_rooms *t, sv_room *room, uint64_t deadline)
{
    if (deadline == room->deadline && (deadline == UINT64_MAX) == (room->heap_pos < 0))
        return;
    room->deadline = deadline;
    if (deadline == UINT64_MAX) {
        heap_remove(t, room);
        return;
    }
    if (room->heap_pos < 0) {
        room->heap_pos = t->heap_len;
        t->heap[t->heap_len++] = room;
    }
    heap_down(t, room->heap_pos);
    heap_up(t, room->heap_pos);
}

sv_room *sv_rooms_due(const sv_rooms *t, uint64_t now_ms)
{
    return t->heap_len > 0 && t->heap[0]->deadline <= now_ms ? t->heap[0] : NULL;
}

uint64_t sv_rooms_next_deadline(const sv_rooms *t)
{
    return t->heap_len > 0 ? t->heap[0]->deadline : UINT64_MAX;
}

void sv_rooms_remove(sv_rooms *t, sv_room *room)
{
    if (!room->m)
        return;
    heap_remove(t, room);
    code_erase(t, room);
    match_destroy(room->m);
    room->m = NULL;
    free(room->desc);
    room->desc = NULL;
    room->desc_len = 0;
    room->deadline = UINT64_MAX;
    room->player[0] = room->player[1] = NULL;
    room->code[0] = '\0';
    room->next_free = t->free_head;
    t->free_head = room->index;
    t->count--;
}

int sv_rooms_count(const sv_rooms *t)
{
    return t->count;
}
int sv_rooms_capacity(const sv_rooms *t)
{
    return t->cap;
}
sv_room *sv_rooms_at(sv_rooms *t, int index)
{
    return index >= 0 && index < t->cap ? &t->rooms[index] : NULL;
}

size_t sv_rooms_bytes_per_room(const sv_rooms *t)
{
    return sizeof(sv_room) + sizeof(sv_room *) + (size_t)(t->mask + 1) * sizeof(int) / (size_t)t->cap;
}
