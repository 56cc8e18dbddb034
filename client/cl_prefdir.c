/* cl_prefdir.c: where the game keeps its files, and the move from the old doubled folder. */
#include "cl_prefdir.h"

#include <SDL.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* Moves name from old_dir to new_dir unless new_dir has it or old_dir has
 * not: 1 moved, 0 nothing to do, -1 failed. */
static int move_one(const char *old_dir, const char *new_dir, const char *name)
{
    char from[1100], to[1100];
    if (snprintf(from, sizeof from, "%s%s", old_dir, name) >= (int)sizeof from ||
        snprintf(to, sizeof to, "%s%s", new_dir, name) >= (int)sizeof to)
        return -1;
    if (!exists(from) || exists(to))
        return 0;
    return rename(from, to) == 0 ? 1 : -1;
}

int cl_prefdir_migrate(const char *old_dir, const char *new_dir)
{
    int moved = 0, r;
    bool failed = false;
    if ((r = move_one(old_dir, new_dir, "settings.txt")) < 0)
        failed = true;
    moved += r > 0;
    /* A history's -wal and -shm belong with its main file: they move with
     * it, and not at all when the new folder has a history already. */
    char probe[1100];
    snprintf(probe, sizeof probe, "%shistory.sqlite", new_dir);
    if (!exists(probe)) {
        static const char *const hist[] = {"history.sqlite-wal", "history.sqlite-shm", "history.sqlite"};
        for (size_t i = 0; i < sizeof hist / sizeof hist[0]; i++) {
            if ((r = move_one(old_dir, new_dir, hist[i])) < 0)
                failed = true;
            moved += r > 0;
        }
    }
    rmdir(old_dir); /* only if empty: anything else of the player's stays */
    return failed ? -1 : moved;
}

bool cl_prefdir(char *out, size_t cap)
{
    out[0] = '\0';
    char *dir = SDL_GetPrefPath("", "mazerace");
    if (!dir)
        return false;
    bool ok = snprintf(out, cap, "%s", dir) < (int)cap;
    SDL_free(dir);
    if (!ok) {
        out[0] = '\0';
        return false;
    }
    /* The old folder sits inside the new one (same app name twice). */
    char old[1100];
    snprintf(old, sizeof old, "%smazerace/", out);
    if (exists(old))
        cl_prefdir_migrate(old, out);
    return true;
}

void cl_prefdir_show(const char *path, const char *home, char *out, size_t cap)
{
    size_t n = home ? strlen(home) : 0;
    while (n > 1 && home[n - 1] == '/')
        n--;
    if (n > 1 && strncmp(path, home, n) == 0 && path[n] == '/')
        snprintf(out, cap, "~%s", path + n);
    else
        snprintf(out, cap, "%s", path);
}
