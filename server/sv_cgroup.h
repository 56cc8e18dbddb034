/* sv_cgroup.h: the memory limit of the server's cgroup (v2 memory.max), from which the default puzzle-memory
 * budget follows in a container or a unit with MemoryMax=. */
#ifndef MR_SV_CGROUP_H
#define MR_SV_CGROUP_H

#include "sv.h"

#define SV_CGROUP_ROOT "/sys/fs/cgroup"      /* the cgroup v2 hierarchy */
#define SV_CGROUP_SELF "/proc/self/cgroup"   /* "0::/PATH": our cgroup under it */
#define SV_CGROUP_ENV "MAZERACE_CGROUP_ROOT" /* another hierarchy to read (tests, check_manifests) */

/* The lowest memory.max (bytes) of the cgroup that self names ("0::/PATH"
 * line; a missing or unreadable file means the root) and of each of its
 * parents up to root/memory.max; "max", absent or unreadable files set no
 * limit. 0 when none is set. */
unsigned long long sv_cgroup_memory_max(const char *root, const char *self);
/* The default puzzle_mem (MiB) under a limit of max_bytes (0 = none): half
 * of it, at most dflt, at least 1; the other half is for the rest of the
 * process (ENet peers, socket buffers, the record queue, allocator slack). */
int sv_cgroup_puzzle_mem_mb(unsigned long long max_bytes, int dflt);
/* cfg->puzzle_mem_mb = sv_cgroup_puzzle_mem_mb(the limit of our cgroup,
 * under $MAZERACE_CGROUP_ROOT or SV_CGROUP_ROOT, cfg->puzzle_mem_mb): called
 * on the defaults, before the config file and flags (which override it). */
void sv_cgroup_default_puzzle_mem(sv_config *cfg);

#endif
