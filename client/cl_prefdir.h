/* cl_prefdir.h: the folder the game keeps its files in (settings, history),
 * moved from the doubled folder of older versions, and shown to players
 * with "~" for their home. */
#ifndef CL_PREFDIR_H
#define CL_PREFDIR_H

#include <stdbool.h>
#include <stddef.h>

/* The game's folder with a trailing slash into out: SDL_GetPrefPath("",
 * "mazerace"), on Linux ~/.local/share/mazerace/. On first use the files
 * of the old doubled folder (SDL_GetPrefPath("mazerace", "mazerace"),
 * ~/.local/share/mazerace/mazerace/) move up into it (cl_prefdir_migrate).
 * Returns false (out "") when SDL has no such folder. */
bool cl_prefdir(char *out, size_t cap);
/* Moves settings.txt and history.sqlite (with its -wal and -shm) from
 * old_dir to new_dir (both ending in '/'), each only when new_dir has no
 * file of that name, then removes old_dir if that left it empty. Returns
 * how many files moved, or -1 if one could not be moved (it stays where it
 * was, still readable there by an older version). */
int cl_prefdir_migrate(const char *old_dir, const char *new_dir);
/* path for the player's eyes: a leading home folder becomes "~". */
void cl_prefdir_show(const char *path, const char *home, char *out, size_t cap);

#endif
