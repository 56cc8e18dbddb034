/* textform.c: error reporting shared by the kinds' description and text-form readers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "puzzle.h"

void pz_error_set(pz_error *e, int line, int col, const char *fmt, ...)
{
    if (!e)
        return;
    e->line = line;
    e->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}

pz_puzzle *pz_decoded(pz_puzzle *pz, const char *why, const char **err)
{
    if (!why)
        return pz;
    free(pz);
    if (err)
        *err = why;
    return NULL;
}
