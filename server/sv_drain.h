/* sv_drain.h: draining (SIGTERM): no new rooms or races, stop once the races end or at a deadline. */
#ifndef MR_SV_DRAIN_H
#define MR_SV_DRAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "sv_drain_types.h"

typedef struct sv sv_t;

/* One step of a drain (while sv_draining, sv.h): starts it; true when the
 * server should stop now, because no race runs or the deadline has come
 * (the races still running are cut and their players told). */
bool sv_drain_step(sv_t *sv);

#endif
