/* sv_cgroup.c: reads cgroup v2 memory.max along our cgroup's path and turns it into the default puzzle-memory
 * budget. */
#include "sv_cgroup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One memory.max: its bytes, or 0 ("max", absent, unreadable, not a number). */
static unsigned long long read_max(const char *root, const char *rel, size_t rel_len)
{
    char p[1024];
    if (snprintf(p, sizeof p, "%s%.*s/memory.max", root, (int)rel_len, rel) >= (int)sizeof p)
        return 0;
    FILE *f = fopen(p, "r");
    if (!f)
        return 0;
    char line[64] = "";
    bool got = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    if (!got || line[0] < '0' || line[0] > '9')
        return 0;
    char *end;
    unsigned long long v = strtoull(line, &end, 10);
    return (*end == '\n' || *end == '\0') ? v : 0;
}

/* The PATH of the "0::PATH" line of self, in out; "" if none. */
static void own_path(const char *self, char *out, size_t cap)
{
    out[0] = '\0';
    FILE *f = fopen(self, "r");
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "0::", 3) != 0)
            continue;
        line[strcspn(line, "\n")] = '\0';
        if (line[3] == '/' && !strstr(line, "/.."))
            snprintf(out, cap, "%s", line + 3);
        break;
    }
    fclose(f);
}

unsigned long long sv_cgroup_memory_max(const char *root, const char *self)
{
    char path[1024];
    own_path(self, path, sizeof path);
    unsigned long long low = 0;
    size_t len = strlen(path);
    for (;;) {
        while (len > 0 && path[len - 1] == '/')
            len--;
        unsigned long long v = read_max(root, path, len);
        if (v && (!low || v < low))
            low = v;
        if (len == 0)
            return low;
        while (len > 0 && path[len - 1] != '/')
            len--; /* the parent */
    }
}

int sv_cgroup_puzzle_mem_mb(unsigned long long max_bytes, int dflt)
{
    if (!max_bytes)
        return dflt;
    unsigned long long half = max_bytes / 2 >> 20;
    if (half < 1)
        return 1;
    return half < (unsigned long long)dflt ? (int)half : dflt;
}

void sv_cgroup_default_puzzle_mem(sv_config *cfg)
{
    const char *root = getenv(SV_CGROUP_ENV);
    unsigned long long max = sv_cgroup_memory_max(root && root[0] ? root : SV_CGROUP_ROOT, SV_CGROUP_SELF);
    cfg->puzzle_mem_mb = sv_cgroup_puzzle_mem_mb(max, cfg->puzzle_mem_mb);
}
