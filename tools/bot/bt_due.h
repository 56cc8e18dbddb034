/* bt_due.h: indexed min-heap of due times: a loop over many players visits only those due. */
#ifndef MR_BT_DUE_H
#define MR_BT_DUE_H

#include <stdint.h>

typedef struct bt_due bt_due;

/* Items 0..n-1, all due at UINT64_MAX (never) at first. */
bt_due *bt_due_create(int n);
void bt_due_destroy(bt_due *d); /* accepts NULL */
/* Sets item i's due time. */
void bt_due_set(bt_due *d, int i, uint64_t at);
/* The item due first and its time (UINT64_MAX: nothing is due, ever). */
int bt_due_top(const bt_due *d, uint64_t *at);

#endif
