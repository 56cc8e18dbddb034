/* cl_text_dump.c: beside a screenshot, every string the frame drew with its font
 * and rectangle (MAZERACE_TEXT_DUMP set), for the layout tests. */
#include <stdio.h>
#include <stdlib.h>

#include "cl_text.h"

bool cl_text_dump_wanted(void)
{
    const char *e = getenv("MAZERACE_TEXT_DUMP");
    return e && e[0] && e[0] != '0';
}

bool cl_text_dump(const cl_text *t, const char *shot_path)
{
    char path[1100];
    snprintf(path, sizeof path, "%s.txt", shot_path);
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    for (int i = 0; i < cl_text_drawn_count(t); i++) {
        const cl_text_drawn *d = cl_text_drawn_at(t, i);
        fprintf(f, "%d %d %d %d %d %s\n", d->font, d->r.x, d->r.y, d->r.w, d->r.h, d->s);
    }
    return fclose(f) == 0;
}
