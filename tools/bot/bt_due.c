/* bt_due.c: indexed binary min-heap of due times (see bt_due.h). */
#include "bt_due.h"

#include <stdlib.h>

#include "util.h"

struct bt_due {
    int n;
    int *heap;     /* heap of item indices */
    int *pos;      /* item -> index in heap */
    uint64_t *key; /* item -> due time */
};

bt_due *bt_due_create(int n)
{
    bt_due *d = mr_alloc(1, sizeof *d);
    d->n = n;
    d->heap = mr_alloc((size_t)n, sizeof *d->heap);
    d->pos = mr_alloc((size_t)n, sizeof *d->pos);
    d->key = mr_alloc((size_t)n, sizeof *d->key);
    for (int i = 0; i < n; i++) {
        d->heap[i] = d->pos[i] = i;
        d->key[i] = UINT64_MAX;
    }
    return d;
}

void bt_due_destroy(bt_due *d)
{
    if (!d)
        return;
    free(d->heap);
    free(d->pos);
    free(d->key);
    free(d);
}

static void swap(bt_due *d, int a, int b)
{
    int ia = d->heap[a], ib = d->heap[b];
    d->heap[a] = ib;
    d->heap[b] = ia;
    d->pos[ib] = a;
    d->pos[ia] = b;
}

static uint64_t key_at(const bt_due *d, int h)
{
    return d->key[d->heap[h]];
}

void bt_due_set(bt_due *d, int i, uint64_t at)
{
    if (i < 0 || i >= d->n || d->key[i] == at)
        return;
    d->key[i] = at;
    int h = d->pos[i];
    while (h > 0 && key_at(d, (h - 1) / 2) > key_at(d, h)) {
        swap(d, h, (h - 1) / 2);
        h = (h - 1) / 2;
    }
    for (;;) {
        int l = 2 * h + 1, r = l + 1, m = h;
        if (l < d->n && key_at(d, l) < key_at(d, m))
            m = l;
        if (r < d->n && key_at(d, r) < key_at(d, m))
            m = r;
        if (m == h)
            break;
        swap(d, h, m);
        h = m;
    }
}

int bt_due_top(const bt_due *d, uint64_t *at)
{
    if (d->n == 0) {
        *at = UINT64_MAX;
        return -1;
    }
    *at = key_at(d, 0);
    return d->heap[0];
}
