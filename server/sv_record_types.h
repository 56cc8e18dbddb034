/* sv_record_types.h: match records' state (sv->rec, sv_record.h). Data only. */
#ifndef MR_SV_RECORD_TYPES_H
#define MR_SV_RECORD_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "sv_loglimit_types.h"

/* sv->rec: what the store's thread could not store, as logged so far. */
typedef struct sv_records {
    uint64_t failed_seen;  /* store failures already logged */
    uint64_t spooled_seen; /* records spooled already logged */
    bool spool_logged;     /* "kept in the spool" said; "sent" not yet */
    sv_loglimit lim;       /* lines about lost records */
} sv_records;

#endif
