/* cl_assets.h: where the game looks for its data files (fonts), and which paths it tried. */
#ifndef CL_ASSETS_H
#define CL_ASSETS_H

#include <stddef.h>

enum { CL_ASSET_DIRS_MAX = 4, CL_ASSET_PATH_MAX = 1024 };

/* Data directories in search order; each holds fonts/ and the other assets. */
typedef struct cl_asset_dirs {
    int n;
    char dir[CL_ASSET_DIRS_MAX][CL_ASSET_PATH_MAX];
} cl_asset_dirs;

/* The game's search order (docs/packaging.md): the installed data directory
 * (compiled in: CMAKE_INSTALL_FULL_DATADIR/mazerace), the build tree's
 * assets/ (compiled in, unless built with MR_BUILD_TREE_ASSETS=OFF), then next
 * to the binary: exe_dir/assets and exe_dir/../share/mazerace (a relocated
 * install). exe_dir ends with '/' (as SDL_GetBasePath gives it) or is NULL. */
void cl_asset_dirs_default(cl_asset_dirs *d, const char *exe_dir);

/* Appends dir to the search list (ignored when the list is full). */
void cl_asset_dirs_add(cl_asset_dirs *d, const char *dir);

/* Looks for rel (e.g. "fonts/DejaVuSans.ttf") in each directory in order.
 * Found: writes dir/rel into path and returns NULL. Not found: returns msg,
 * filled with "cannot find REL; tried: P1, P2, ..." (every path tried). */
const char *cl_asset_find(const cl_asset_dirs *d, const char *rel, char *path, size_t path_len, char *msg,
                          size_t msg_len);

#endif
