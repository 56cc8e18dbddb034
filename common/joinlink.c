/* joinlink.c: parsing and writing join links (mazerace://HOST:PORT/CODE, HOST:PORT/CODE). */
#include "joinlink.h"

#include <stdio.h>
#include <string.h>

#include "coord_wire.h"

static const char ipv6_msg[] = "IPv6 addresses are not supported (the game plays over IPv4): use an IPv4 "
                               "address or a host name";

static bool host_char_ok(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == '_';
}

const char *joinlink_parse_addr(const char *text, char *host, size_t cap, int *port)
{
    if (!text || !*text)
        return "empty server address";
    const char *colon = strrchr(text, ':');
    size_t hlen = colon ? (size_t)(colon - text) : strlen(text);
    if (text[0] == '[' || (colon && memchr(text, ':', hlen)))
        return ipv6_msg;
    if (hlen == 0)
        return "the server address has no host before ':'";
    if (hlen >= cap || hlen > JOINLINK_HOST_MAX)
        return "the server host name is too long";
    for (size_t i = 0; i < hlen; i++)
        if (!host_char_ok(text[i]))
            return "bad server host: letters, digits, '.', '-' and '_' only";
    int p = WIRE_DEFAULT_PORT;
    if (colon) {
        const char *s = colon + 1;
        long v = 0;
        if (!*s)
            return "missing port after ':'";
        for (; *s; s++) {
            if (*s < '0' || *s > '9')
                return "the port is not a number";
            if (v <= 65535)
                v = v * 10 + (*s - '0');
        }
        if (v < 1 || v > 65535)
            return "the port must be 1..65535";
        p = (int)v;
    }
    memcpy(host, text, hlen);
    host[hlen] = '\0';
    *port = p;
    return NULL;
}

const char *joinlink_parse(const char *text, joinlink *out)
{
    if (!text)
        return "empty link";
    while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
        text++;
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\n' || text[n - 1] == '\r'))
        n--;
    if (n == 0)
        return "empty link";
    char buf[2 * JOINLINK_TEXT_MAX];
    if (n >= sizeof buf)
        return "the link is too long";
    memcpy(buf, text, n);
    buf[n] = '\0';

    char *s = buf;
    size_t sl = strlen(JOINLINK_SCHEME);
    bool scheme = n >= sl;
    for (size_t i = 0; scheme && i < sl; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        scheme = c == JOINLINK_SCHEME[i];
    }
    if (scheme)
        s += sl;
    else if (strstr(s, "://"))
        return "not a mazerace link: it should start with mazerace://";
    else if (strncmp(s, "mazerace:", 9) == 0)
        return "a mazerace link starts with mazerace:// (two slashes)";

    char *slash = strchr(s, '/');
    char *code = NULL;
    if (slash) {
        *slash = '\0';
        code = slash + 1;
        size_t cl = strlen(code);
        if (cl > 0 && code[cl - 1] == '/')
            code[--cl] = '\0';
        if (strpbrk(code, "/?#"))
            return "the link has more than a room code after the server address";
    }
    if (!*s)
        return "the link has no server address";
    joinlink l;
    const char *why = joinlink_parse_addr(s, l.host, sizeof l.host, &l.port);
    if (why)
        return why;
    l.room[0] = '\0';
    if (code && *code && !wire_room_code_parse(code, l.room))
        return "the room code should be 5 letters, as the lobby shows it";
    *out = l;
    return NULL;
}

char *joinlink_format(const char *host, int port, const char *room, char *buf, size_t cap)
{
    if (room && *room)
        snprintf(buf, cap, "%s%s:%d/%s", JOINLINK_SCHEME, host, port, room);
    else
        snprintf(buf, cap, "%s%s:%d", JOINLINK_SCHEME, host, port);
    return buf;
}

bool joinlink_invite(const char *text, char code[10], char *coord, size_t cap, const char **why)
{
    *why = NULL;
    if (!text)
        return false;
    while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
        text++;
    size_t sl = strlen(JOINLINK_SCHEME);
    bool scheme = strlen(text) >= sl;
    for (size_t i = 0; scheme && i < sl; i++)
        scheme = (text[i] >= 'A' && text[i] <= 'Z' ? text[i] - 'A' + 'a' : text[i]) == JOINLINK_SCHEME[i];
    if (scheme)
        text += sl;
    if (*text != '+')
        return false;
    char buf[JOINLINK_TEXT_MAX];
    size_t n = strlen(text);
    while (n > 0 && strchr(" \t\r\n/", text[n - 1]))
        n--;
    if (n >= sizeof buf) {
        *why = "the invite link is too long";
        return true;
    }
    memcpy(buf, text, n);
    buf[n] = '\0';
    char *at = strchr(buf, '@');
    if (at)
        *at++ = '\0';
    if (coord_code_parse(buf, code)) {
        *why = "an invite code is + and 8 letters or digits, as the host's lobby shows it";
        return true;
    }
    if (at && (!*at || strlen(at) >= cap || strpbrk(at, "/?# "))) {
        *why = "the invite link names no usable coordinator after the @";
        return true;
    }
    snprintf(coord, cap, "%s", at ? at : "");
    return true;
}

char *joinlink_format_invite(const char *code, const char *coord, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s%s%s", JOINLINK_SCHEME, code, coord && coord[0] ? "@" : "", coord ? coord : "");
    return buf;
}
