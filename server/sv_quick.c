/* sv_quick.c: the quick-match queue: a pool of entries in a doubly linked FIFO, with a free list. */
#include "sv_quick.h"

#include <assert.h>
#include <stdlib.h>

#include "util.h"

typedef struct node {
    sv_quick_item it;
    int prev, next; /* index + 1, 0 = none; next also links the free list */
    bool used;
} node;

struct sv_quick {
    int cap, count;
    int head, tail, free; /* index + 1, 0 = none */
    node n[];             /* cap entries, in the same allocation */
};

sv_quick *sv_quick_create(int cap)
{
    cap = cap > 0 ? cap : 1;
    sv_quick *q = mr_alloc(1, sizeof *q + (size_t)cap * sizeof q->n[0]);
    q->cap = cap;
    for (int i = 0; i < q->cap; i++)
        q->n[i].next = i + 1 < q->cap ? i + 2 : 0;
    q->free = 1;
    return q;
}

void sv_quick_destroy(sv_quick *q)
{
    free(q);
}

int sv_quick_push(sv_quick *q, sv_quick_item it)
{
    assert(q->free && "quick-match queue sized for every client and room");
    assert((it.job != NULL) != (it.room != NULL));
    int h = q->free;
    node *e = &q->n[h - 1];
    q->free = e->next;
    e->it = it;
    e->used = true;
    e->prev = q->tail;
    e->next = 0;
    if (q->tail)
        q->n[q->tail - 1].next = h;
    else
        q->head = h;
    q->tail = h;
    q->count++;
    return h;
}

void sv_quick_remove(sv_quick *q, int h)
{
    assert(h > 0 && h <= q->cap && q->n[h - 1].used);
    node *e = &q->n[h - 1];
    if (e->prev)
        q->n[e->prev - 1].next = e->next;
    else
        q->head = e->next;
    if (e->next)
        q->n[e->next - 1].prev = e->prev;
    else
        q->tail = e->prev;
    e->used = false;
    e->it = (sv_quick_item){0};
    e->prev = 0;
    e->next = q->free;
    q->free = h;
    q->count--;
}

bool sv_quick_peek(const sv_quick *q, sv_quick_item *out, int *handle)
{
    if (!q->head)
        return false;
    *out = q->n[q->head - 1].it;
    if (handle)
        *handle = q->head;
    return true;
}

bool sv_quick_pop(sv_quick *q, sv_quick_item *out)
{
    int h = 0;
    if (!sv_quick_peek(q, out, &h))
        return false;
    sv_quick_remove(q, h);
    return true;
}

int sv_quick_count(const sv_quick *q)
{
    return q->count;
}
