/* svc_agones_ports.c: status.ports of an Agones GameServer's JSON, by a strict, bounded reader that checks
 * the whole text and keeps only that array. */
#include "svc_agones_ports.h"

#include <stdbool.h>
#include <string.h>

#define DEPTH_MAX 32

/* The reader: where it is, where the text ends, and the first reason it
 * stopped (every parse function returns false once err is set). */
typedef struct rd {
    const char *p, *end;
    const char *err;
} rd;

static void ws(rd *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

/* Whatever was expected, a text that ends first was cut short. */
static bool fail(rd *r, const char *why)
{
    ws(r);
    if (!r->err)
        r->err = r->p >= r->end ? "the text ends early (cut short?)" : why;
    return false;
}

/* Consumes c after white space, if it is next. */
static bool eat(rd *r, char c)
{
    ws(r);
    if (r->p < r->end && *r->p == c) {
        r->p++;
        return true;
    }
    return false;
}

static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A string at r->p (after white space): *s and *n its raw bytes between
 * the quotes, *escaped whether any escape is among them. */
static bool string(rd *r, const char **s, size_t *n, bool *escaped)
{
    if (!eat(r, '"'))
        return fail(r, "a string was expected");
    const char *start = r->p;
    bool esc = false;
    while (r->p < r->end && *r->p != '"') {
        unsigned char c = (unsigned char)*r->p;
        if (c < 0x20)
            return fail(r, "a control character in a string");
        if (c == '\\') {
            esc = true;
            if (r->end - r->p < 2)
                return fail(r, "the text ends inside a string");
            char e = r->p[1];
            if (e == 'u') {
                if (r->end - r->p < 6 || !is_hex(r->p[2]) || !is_hex(r->p[3]) || !is_hex(r->p[4]) ||
                    !is_hex(r->p[5]))
                    return fail(r, "a bad \\u escape in a string");
                r->p += 6;
                continue;
            }
            if (!strchr("\"\\/bfnrt", e) || e == '\0')
                return fail(r, "a bad escape in a string");
            r->p += 2;
            continue;
        }
        r->p++;
    }
    if (r->p >= r->end)
        return fail(r, "the text ends inside a string");
    *s = start;
    *n = (size_t)(r->p - start);
    *escaped = esc;
    r->p++;
    return true;
}

/* A number (RFC 8259 grammar). *port: its value when it is an integer
 * 1..65535, else 0. */
static bool number(rd *r, unsigned *port)
{
    ws(r);
    bool neg = false, integer = true;
    unsigned long v = 0;
    if (r->p < r->end && *r->p == '-') {
        neg = true;
        r->p++;
    }
    if (r->p >= r->end || *r->p < '0' || *r->p > '9')
        return fail(r, "a bad number");
    if (*r->p == '0') {
        r->p++;
    } else {
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
            v = v < 100000 ? v * 10 + (unsigned long)(*r->p - '0') : 100000; /* past any port: capped */
            r->p++;
        }
    }
    if (r->p < r->end && *r->p == '.') {
        integer = false;
        r->p++;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9')
            return fail(r, "a bad number");
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
            r->p++;
    }
    if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
        integer = false;
        r->p++;
        if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
            r->p++;
        if (r->p >= r->end || *r->p < '0' || *r->p > '9')
            return fail(r, "a bad number");
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
            r->p++;
    }
    *port = integer && !neg && v >= 1 && v <= 65535 ? (unsigned)v : 0;
    return true;
}

static bool word(rd *r, const char *w)
{
    ws(r);
    size_t n = strlen(w);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n) != 0)
        return fail(r, "not JSON");
    r->p += n;
    return true;
}

/* Called for each member of an object with its key (raw bytes; escaped:
 * the key had an escape, so it is none of ours) and the reader at its
 * value, which the callback must consume. */
typedef bool (*member_fn)(rd *r, int depth, const char *key, size_t klen, bool escaped, void *ctx);

static bool value(rd *r, int depth);

/* An object: '{' members '}', each member handed to on. */
static bool object(rd *r, int depth, member_fn on, void *ctx)
{
    if (depth > DEPTH_MAX)
        return fail(r, "nested more than 32 deep");
    if (!eat(r, '{'))
        return fail(r, "an object was expected");
    if (eat(r, '}'))
        return true;
    do {
        const char *k;
        size_t kn;
        bool esc;
        if (!string(r, &k, &kn, &esc))
            return false;
        if (!eat(r, ':'))
            return fail(r, "':' was expected after a key");
        if (!on(r, depth + 1, k, kn, esc, ctx))
            return false;
    } while (eat(r, ','));
    return eat(r, '}') || fail(r, "',' or '}' was expected in an object");
}

static bool skip_member(rd *r, int depth, const char *key, size_t klen, bool escaped, void *ctx)
{
    (void)key;
    (void)klen;
    (void)escaped;
    (void)ctx;
    return value(r, depth);
}

static bool array(rd *r, int depth, bool (*on)(rd *r, int depth, void *ctx), void *ctx)
{
    if (depth > DEPTH_MAX)
        return fail(r, "nested more than 32 deep");
    if (!eat(r, '['))
        return fail(r, "an array was expected");
    if (eat(r, ']'))
        return true;
    do {
        if (!on(r, depth + 1, ctx))
            return false;
    } while (eat(r, ','));
    return eat(r, ']') || fail(r, "',' or ']' was expected in an array");
}

static bool skip_element(rd *r, int depth, void *ctx)
{
    (void)ctx;
    return value(r, depth);
}

/* Any value, skipped (checked all the same). */
static bool value(rd *r, int depth)
{
    ws(r);
    if (r->p >= r->end)
        return fail(r, "the text ends where a value was expected");
    const char *s;
    size_t n;
    bool esc;
    unsigned u;
    switch (*r->p) {
    case '{':
        return object(r, depth, skip_member, NULL);
    case '[':
        return array(r, depth, skip_element, NULL);
    case '"':
        return string(r, &s, &n, &esc);
    case 't':
        return word(r, "true");
    case 'f':
        return word(r, "false");
    case 'n':
        return word(r, "null");
    default:
        return number(r, &u);
    }
}

static bool key_is(const char *key, size_t klen, bool escaped, const char *want)
{
    return !escaped && klen == strlen(want) && memcmp(key, want, klen) == 0;
}

/* One entry of status.ports. */
typedef struct entry {
    const char *name;
    size_t name_len;
    unsigned port;
    bool has_name, has_port;
} entry;

static bool entry_member(rd *r, int depth, const char *key, size_t klen, bool escaped, void *ctx)
{
    entry *e = ctx;
    if (key_is(key, klen, escaped, "name")) {
        if (e->has_name)
            return fail(r, "a port entry has two \"name\" keys");
        e->has_name = true;
        bool esc;
        if (!string(r, &e->name, &e->name_len, &esc))
            return fail(r, "a port's \"name\" is not a string");
        if (esc || e->name_len < 1 || e->name_len > SVC_AGONES_PORT_NAME_MAX)
            return fail(r, "a port's \"name\" is not 1..63 bytes without escapes");
        return true;
    }
    if (key_is(key, klen, escaped, "port")) {
        if (e->has_port)
            return fail(r, "a port entry has two \"port\" keys");
        e->has_port = true;
        ws(r);
        if (r->p >= r->end || (*r->p != '-' && (*r->p < '0' || *r->p > '9')))
            return fail(r, "a port's \"port\" is not a number");
        if (!number(r, &e->port))
            return false;
        return e->port || fail(r, "a port's \"port\" is not an integer 1..65535");
    }
    return value(r, depth);
}

static bool port_element(rd *r, int depth, void *ctx)
{
    svc_agones_ports *out = ctx;
    entry e = {NULL, 0, 0, false, false};
    if (!object(r, depth, entry_member, &e))
        return fail(r, "an entry of status.ports is not an object");
    if (!e.has_name || !e.has_port)
        return fail(r, "an entry of status.ports lacks \"name\" or \"port\"");
    if (out->n >= SVC_AGONES_PORTS_MAX)
        return fail(r, "status.ports has more than 16 entries");
    for (int i = 0; i < out->n; i++)
        if (strlen(out->e[i].name) == e.name_len && memcmp(out->e[i].name, e.name, e.name_len) == 0)
            return fail(r, "two entries of status.ports have the same name");
    memcpy(out->e[out->n].name, e.name, e.name_len);
    out->e[out->n].name[e.name_len] = '\0';
    out->e[out->n].port = (uint16_t)e.port;
    out->n++;
    return true;
}

/* Which of our keys were met: each at most once. */
typedef struct seen {
    svc_agones_ports *out;
    bool status, ports;
} seen;

static bool status_member(rd *r, int depth, const char *key, size_t klen, bool escaped, void *ctx)
{
    seen *s = ctx;
    if (!key_is(key, klen, escaped, "ports"))
        return value(r, depth);
    if (s->ports)
        return fail(r, "status has two \"ports\" keys");
    s->ports = true;
    ws(r);
    if (r->p < r->end && *r->p == 'n')
        return word(r, "null");
    if (r->p >= r->end || *r->p != '[')
        return fail(r, "status.ports is not an array");
    return array(r, depth, port_element, s->out);
}

static bool top_member(rd *r, int depth, const char *key, size_t klen, bool escaped, void *ctx)
{
    seen *s = ctx;
    if (!key_is(key, klen, escaped, "status"))
        return value(r, depth);
    if (s->status)
        return fail(r, "two \"status\" keys");
    s->status = true;
    ws(r);
    if (r->p >= r->end || *r->p != '{')
        return fail(r, "status is not an object");
    return object(r, depth, status_member, s);
}

const char *svc_agones_read_ports(const char *json, size_t len, svc_agones_ports *out)
{
    memset(out, 0, sizeof *out);
    rd r = {json, json + len, NULL};
    seen s = {out, false, false};
    ws(&r);
    if (r.p >= r.end || *r.p != '{')
        return "not a JSON object";
    if (object(&r, 0, top_member, &s)) {
        ws(&r);
        if (r.p != r.end)
            fail(&r, "more text after the JSON object");
    }
    if (r.err)
        memset(out, 0, sizeof *out);
    return r.err;
}

uint16_t svc_agones_port_named(const svc_agones_ports *p, const char *name)
{
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->e[i].name, name) == 0)
            return p->e[i].port;
    return 0;
}
