/* cl_assets.c: the game's data file lookup: installed data dir, build tree, next to the binary. */
#include "cl_assets.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

void cl_asset_dirs_add(cl_asset_dirs *d, const char *dir)
{
    if (d->n >= CL_ASSET_DIRS_MAX || !dir || !*dir)
        return;
    snprintf(d->dir[d->n++], CL_ASSET_PATH_MAX, "%s", dir);
}

void cl_asset_dirs_default(cl_asset_dirs *d, const char *exe_dir)
{
    d->n = 0;
#ifdef MR_DATA_DIR
    cl_asset_dirs_add(d, MR_DATA_DIR);
#endif
#ifdef MR_BUILD_ASSETS_DIR
    cl_asset_dirs_add(d, MR_BUILD_ASSETS_DIR);
#endif
    if (exe_dir && *exe_dir) {
        const char *sep = exe_dir[strlen(exe_dir) - 1] == '/' ? "" : "/";
        char buf[CL_ASSET_PATH_MAX];
        snprintf(buf, sizeof buf, "%s%sassets", exe_dir, sep);
        cl_asset_dirs_add(d, buf);
        snprintf(buf, sizeof buf, "%s%s../share/mazerace", exe_dir, sep);
        cl_asset_dirs_add(d, buf);
    }
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

const char *cl_asset_find(const cl_asset_dirs *d, const char *rel, char *path, size_t path_len, char *msg,
                          size_t msg_len)
{
    int used = snprintf(msg, msg_len, "cannot find %s; tried:", rel);
    for (int i = 0; i < d->n; i++) {
        int n = snprintf(path, path_len, "%s/%s", d->dir[i], rel);
        if (n > 0 && (size_t)n < path_len && is_file(path))
            return NULL;
        if (used >= 0 && (size_t)used < msg_len)
            used += snprintf(msg + used, msg_len - (size_t)used, "%s %s", i ? "," : "", path);
    }
    if (d->n == 0 && used >= 0 && (size_t)used < msg_len)
        snprintf(msg + used, msg_len - (size_t)used, " (no data directory known)");
    if (path_len)
        path[0] = '\0';
    return msg;
}
