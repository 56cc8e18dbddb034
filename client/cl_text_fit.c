/* cl_text_fit.c: cutting a string to a width in pixels, ended with "...". */
#include <stdio.h>
#include <string.h>

#include "cl_text.h"

void cl_text_fit(cl_text *t, int font, const char *s, int max_w, char *out, size_t cap)
{
    if (!cap)
        return;
    snprintf(out, cap, "%s", s ? s : "");
    size_t n = strlen(out);
    if (cl_text_width(t, font, out) <= max_w)
        return;
    while (n > 3) {
        n--;
        memcpy(out + n - 3, "...", 4);
        if (cl_text_width(t, font, out) <= max_w)
            return;
    }
}
