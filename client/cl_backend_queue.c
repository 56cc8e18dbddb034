/* cl_backend_queue.c: the ring of events a backend (local or network) keeps for the scene's poll. */
#include "cl_backend.h"

#include "util.h"

void cl_event_queue_push(cl_event_queue *q, const cl_event *ev)
{
    if (q->n == (int)MR_ARRAY_LEN(q->q))
        return;
    q->q[(q->head + q->n) % (int)MR_ARRAY_LEN(q->q)] = *ev;
    q->n++;
}

bool cl_event_queue_pop(cl_event_queue *q, cl_event *ev)
{
    if (!q->n)
        return false;
    *ev = q->q[q->head];
    q->head = (q->head + 1) % (int)MR_ARRAY_LEN(q->q);
    q->n--;
    return true;
}
