/* cl_ui_textedit.c: editing a form's text field: caret, select-all, words; no SDL calls (tests drive it). */
#include <string.h>

#include "cl_ui.h"

static size_t len_of(const cl_item *it)
{
    return strlen(it->value);
}

static void clamp(cl_item *it)
{
    int n = (int)len_of(it);
    if (it->caret < 0 || it->caret > n)
        it->caret = n;
}

void cl_edit_focus(cl_item *it)
{
    it->caret = (int)len_of(it);
    it->all = it->value[0] != '\0';
}

/* Removes bytes [from, to) and puts the caret at from. */
static void cut(cl_item *it, int from, int to)
{
    size_t n = len_of(it);
    memmove(it->value + from, it->value + to, n - (size_t)to + 1);
    it->caret = from;
}

static bool take_selection(cl_item *it)
{
    if (!it->all)
        return false;
    it->all = false;
    it->value[0] = '\0';
    it->caret = 0;
    return true;
}

bool cl_edit_insert(cl_item *it, const char *s)
{
    clamp(it);
    bool changed = take_selection(it);
    size_t n = len_of(it);
    for (; *s && n < (size_t)it->maxlen; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 32 || c > 126)
            continue; /* game IDs, addresses and names are ASCII */
        memmove(it->value + it->caret + 1, it->value + it->caret, n - (size_t)it->caret + 1);
        it->value[it->caret++] = (char)c;
        n++;
        changed = true;
    }
    return changed;
}

static bool word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* Where a word-wise step left of the caret lands: blanks and separators
 * first, then the word. */
static int word_left(const cl_item *it)
{
    int i = it->caret;
    while (i > 0 && !word_char(it->value[i - 1]))
        i--;
    while (i > 0 && word_char(it->value[i - 1]))
        i--;
    return i;
}

static int word_right(const cl_item *it)
{
    int i = it->caret, n = (int)len_of(it);
    while (i < n && !word_char(it->value[i]))
        i++;
    while (i < n && word_char(it->value[i]))
        i++;
    return i;
}

bool cl_edit_op(cl_item *it, int op)
{
    clamp(it);
    int n = (int)len_of(it);
    bool all = it->all;
    it->all = false;
    switch (op) {
    case CL_EDIT_ALL:
        it->all = n > 0;
        it->caret = n;
        return false;
    case CL_EDIT_LEFT:
        it->caret = all ? 0 : it->caret > 0 ? it->caret - 1 : 0;
        return false;
    case CL_EDIT_RIGHT:
        it->caret = all ? n : it->caret < n ? it->caret + 1 : n;
        return false;
    case CL_EDIT_WORD_LEFT:
        it->caret = all ? 0 : word_left(it);
        return false;
    case CL_EDIT_WORD_RIGHT:
        it->caret = all ? n : word_right(it);
        return false;
    case CL_EDIT_HOME:
        it->caret = 0;
        return false;
    case CL_EDIT_END:
        it->caret = n;
        return false;
    case CL_EDIT_BACKSPACE:
    case CL_EDIT_DELETE:
    case CL_EDIT_WORD_BACKSPACE:
        if (all) {
            it->all = true;
            return take_selection(it);
        }
        if (op == CL_EDIT_DELETE) {
            if (it->caret >= n)
                return false;
            cut(it, it->caret, it->caret + 1);
            return true;
        }
        if (it->caret == 0)
            return false;
        cut(it, op == CL_EDIT_BACKSPACE ? it->caret - 1 : word_left(it), it->caret);
        return true;
    case CL_EDIT_CLEAR:
        if (!n)
            return false;
        it->value[0] = '\0';
        it->caret = 0;
        return true;
    default:
        it->all = all;
        return false;
    }
}
