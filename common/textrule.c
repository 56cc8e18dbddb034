/* textrule.c: the rules for player names and texts (UTF-8, no control or invisible characters). */
#include "textrule.h"

#include <stdint.h>
#include <string.h>

/* Length of the UTF-8 character at s (n bytes left) and its code point, or
 * 0 if the bytes are not a valid, shortest-form scalar value. */
static size_t utf8_char(const uint8_t *s, size_t n, uint32_t *cp)
{
    if (n == 0)
        return 0;
    uint8_t c = s[0];
    size_t len;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if ((c & 0xE0) == 0xC0) {
        len = 2, v = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3, v = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

static bool is_control(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

bool txt_text_ok(const char *s, size_t len)
{
    if (len > TXT_TEXT_MAX || (len && !s))
        return false;
    const uint8_t *p = (const uint8_t *)s;
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_char(p + i, len - i, &cp);
        if (n == 0 || is_control(cp))
            return false;
        i += n;
    }
    return true;
}

/* Characters a name may not contain anywhere: they are invisible, change
 * the direction of the text around them, or are not characters at all
 * (format characters, fillers, noncharacters; docs/protocol.md, names). */
static bool is_invisible(uint32_t cp)
{
    static const uint32_t ranges[][2] = {
        {0x00AD, 0x00AD},   {0x034F, 0x034F},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},
        {0x070F, 0x070F},   {0x08E2, 0x08E2},   {0x115F, 0x1160},   {0x17B4, 0x17B5},   {0x180B, 0x180F},
        {0x200B, 0x200F},   {0x2028, 0x202E},   {0x2060, 0x206F},   {0x3164, 0x3164},   {0xFDD0, 0xFDEF},
        {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},   {0xFFF0, 0xFFFC},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
        {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE007F},
    };
    if ((cp & 0xFFFEu) == 0xFFFEu) /* U+xFFFE, U+xFFFF: noncharacters */
        return true;
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (cp >= ranges[i][0] && cp <= ranges[i][1])
            return true;
    return false;
}

/* Spaces and the marks that only modify the character before them: a name
 * made of these alone shows nothing. */
static bool is_blank(uint32_t cp)
{
    return cp == 0x20 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x202F ||
           cp == 0x205F || cp == 0x3000 || (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF);
}

const char *txt_name_problem(const char *s, size_t len)
{
    if (len == 0 || !s)
        return "a name cannot be empty";
    if (len > TXT_NAME_MAX)
        return "a name is at most 24 bytes long (UTF-8)";
    const uint8_t *p = (const uint8_t *)s;
    bool visible = false;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_char(p + i, len - i, &cp);
        if (n == 0)
            return "a name must be valid UTF-8";
        if (is_control(cp))
            return "a name cannot contain control characters (tab, newline, DEL...)";
        if (is_invisible(cp))
            return "a name cannot contain invisible or text-direction characters";
        visible = visible || !is_blank(cp);
        i += n;
    }
    return visible ? NULL : "a name needs at least one visible character";
}

bool txt_name_ok(const char *s, size_t len)
{
    return txt_name_problem(s, len) == NULL;
}

void txt_clean(char *dst, size_t dstlen, const char *src)
{
    if (!dst || dstlen == 0)
        return;
    size_t out = 0;
    const uint8_t *p = (const uint8_t *)(src ? src : "");
    size_t n = strlen((const char *)p);
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        size_t k = utf8_char(p + i, n - i, &cp);
        if (k == 0) {
            i++;
            continue;
        }
        if (out + k > dstlen - 1)
            break;
        if (is_control(cp)) {
            dst[out++] = '?';
        } else {
            memcpy(dst + out, p + i, k);
            out += k;
        }
        i += k;
    }
    dst[out] = '\0';
}
