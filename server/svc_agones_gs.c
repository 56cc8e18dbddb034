/* svc_agones_gs.c: one parse of the SDK's GameServer JSON with json-c (strict, depth-limited), then
 * status.state, the room annotations and status.ports taken from the tree. */
#include "svc_agones_gs.h"

#include <json-c/json.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether s[0..n) is text: no NUL, no other control character. */
static bool is_text(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return false;
    return true;
}

/* The member key of obj if obj is an object and has it, else NULL. */
static json_object *member(json_object *obj, const char *key)
{
    json_object *v = NULL;
    return json_object_is_type(obj, json_type_object) && json_object_object_get_ex(obj, key, &v) ? v : NULL;
}

static void read_state(json_object *status, char *state)
{
    json_object *s = member(status, "state");
    if (!json_object_is_type(s, json_type_string))
        return;
    size_t n = (size_t)json_object_get_string_len(s);
    if (n <= SVC_AGONES_STATE_MAX && is_text(json_object_get_string(s), n))
        memcpy(state, json_object_get_string(s), n);
}

/* One entry of status.ports into out, or why not. */
static const char *read_port(json_object *e, svc_agones_ports *out)
{
    if (!json_object_is_type(e, json_type_object))
        return "an entry of status.ports is not an object";
    json_object *name = member(e, "name"), *port = member(e, "port");
    if (!name || !port)
        return "an entry of status.ports lacks \"name\" or \"port\"";
    if (!json_object_is_type(name, json_type_string))
        return "a port's \"name\" is not a string";
    size_t n = (size_t)json_object_get_string_len(name);
    const char *s = json_object_get_string(name);
    if (n < 1 || n > SVC_AGONES_PORT_NAME_MAX || !is_text(s, n))
        return "a port's \"name\" is not 1..63 bytes of text";
    if (!json_object_is_type(port, json_type_int) && !json_object_is_type(port, json_type_double))
        return "a port's \"port\" is not a number";
    int64_t v = json_object_get_int64(port);
    if (!json_object_is_type(port, json_type_int) || v < 1 || v > 65535)
        return "a port's \"port\" is not an integer 1..65535";
    if (out->n >= SVC_AGONES_PORTS_MAX)
        return "status.ports has more than 16 entries";
    if (svc_agones_port_named(out, s))
        return "two entries of status.ports have the same name";
    memcpy(out->e[out->n].name, s, n + 1);
    out->e[out->n].port = (uint16_t)v;
    out->n++;
    return NULL;
}

static const char *read_ports(json_object *root, svc_agones_ports *out)
{
    json_object *status = member(root, "status");
    if (status && !json_object_is_type(status, json_type_object))
        return "status is not an object";
    json_object *ports = member(status, "ports");
    if (!ports) /* absent, or null */
        return NULL;
    if (!json_object_is_type(ports, json_type_array))
        return "status.ports is not an array";
    size_t n = json_object_array_length(ports);
    if (n > SVC_AGONES_PORTS_MAX)
        return "status.ports has more than 16 entries";
    for (size_t i = 0; i < n; i++) {
        const char *why = read_port(json_object_array_get_idx(ports, i), out);
        if (why)
            return why;
    }
    return NULL;
}

/* s[0..n) into out (cap bytes), control characters as '?'. */
static void show(char *out, size_t cap, const char *s, size_t n)
{
    size_t i = 0;
    for (; i < n && i + 1 < cap; i++)
        out[i] = is_text(s + i, 1) ? s[i] : '?';
    out[i] = '\0';
}

static void read_room(const char *code, json_object *v, svc_agones_gs_room *r)
{
    size_t klen = strlen(code), vlen = 0;
    const char *s = "";
    if (json_object_is_type(v, json_type_string)) {
        s = json_object_get_string(v);
        vlen = (size_t)json_object_get_string_len(v);
        r->bad = klen + 1 + vlen > SVC_AGONES_ENTRY_MAX      ? "longer than 160 bytes"
                 : !is_text(code, klen) || !is_text(s, vlen) ? "a control character in the key or value"
                                                             : NULL;
    } else {
        r->bad = "the value is not a string";
    }
    if (r->bad) {
        show(r->entry, 33, code, klen);
        return;
    }
    memcpy(r->entry, code, klen);
    r->entry[klen] = '=';
    memcpy(r->entry + klen + 1, s, vlen);
    r->entry[klen + 1 + vlen] = '\0';
}

static const char *read_rooms(json_object *root, svc_agones_gs *out)
{
    static const size_t plen = sizeof SVC_AGONES_ROOM_PREFIX - 1;
    json_object *ann = member(member(root, "object_meta"), "annotations");
    if (!json_object_is_type(ann, json_type_object))
        return NULL;
    int n = 0;
    json_object_object_foreach(ann, key, val)
    {
        (void)val;
        n += strncmp(key, SVC_AGONES_ROOM_PREFIX, plen) == 0;
    }
    if (!n)
        return NULL;
    out->rooms = calloc((size_t)n, sizeof out->rooms[0]);
    if (!out->rooms)
        return "out of memory";
    json_object_object_foreach(ann, k, v)
    {
        if (strncmp(k, SVC_AGONES_ROOM_PREFIX, plen) == 0)
            read_room(k + plen, v, &out->rooms[out->n_rooms++]);
    }
    return NULL;
}

/* The one parse: the tree of json[0..len), or NULL and why not. */
static json_object *parse(const char *json, size_t len, char *err, size_t errlen, const char **why)
{
    size_t at = 0;
    while (at < len && json[at] && strchr(" \t\r\n", json[at]))
        at++;
    if (at == len || json[at] != '{') {
        *why = at == len ? "the text is empty" : "not a JSON object";
        return NULL;
    }
    if (len > INT_MAX) {
        *why = "longer than 2 GiB";
        return NULL;
    }
    /* json-c keeps its own stack of SVC_AGONES_GS_DEPTH levels: no recursion. */
    json_tokener *tok = json_tokener_new_ex(SVC_AGONES_GS_DEPTH);
    if (!tok) {
        *why = "out of memory";
        return NULL;
    }
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    json_object *root = json_tokener_parse_ex(tok, json, (int)len);
    enum json_tokener_error e = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (!root) {
        if (e == json_tokener_continue)
            *why = "the text ends early (cut short?)";
        else if (e == json_tokener_error_depth)
            *why = "nested more than 32 deep";
        else if (err && errlen) {
            snprintf(err, errlen, "not JSON (byte %zu: %s)", end, json_tokener_error_desc(e));
            *why = err;
        } else {
            *why = "not JSON";
        }
        return NULL;
    }
    while (end < len && json[end] && strchr(" \t\r\n", json[end]))
        end++;
    if (end != len) {
        json_object_put(root);
        *why = "more text after the JSON object";
        return NULL;
    }
    return root;
}

/* What is read from one GameServer object gs (the whole text of GET
 * /gameserver, or the "result" of a watch line). */
static const char *read_gs(json_object *gs, svc_agones_gs *out)
{
    read_state(member(gs, "status"), out->state);
    out->ports_why = read_ports(gs, &out->ports);
    if (out->ports_why)
        memset(&out->ports, 0, sizeof out->ports);
    return read_rooms(gs, out);
}

/* The GameServer of a watch line: its "result" object. */
static const char *watch_result(json_object *root, json_object **gs, char *err, size_t errlen)
{
    json_object *res = member(root, "result"), *e = member(root, "error");
    if (res && json_object_is_type(res, json_type_object)) {
        *gs = res;
        return NULL;
    }
    if (!e)
        return res ? "\"result\" is not an object" : "no \"result\" in the watch line";
    json_object *msg = member(e, "message");
    const char *text = json_object_is_type(msg, json_type_string) ? json_object_get_string(msg) : "";
    size_t n = strlen(text);
    if (!err || !errlen || n == 0 || n > 80 || !is_text(text, n))
        return "the watch stream sent an error";
    snprintf(err, errlen, "the watch stream sent an error: %s", text);
    return err;
}

static const char *read_any(const char *json, size_t len, bool watch, svc_agones_gs *out, char *err,
                            size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *why = NULL;
    json_object *root = parse(json, len, err, errlen, &why);
    if (!root)
        return why;
    json_object *gs = root;
    if (watch)
        why = watch_result(root, &gs, err, errlen);
    if (!why)
        why = read_gs(gs, out);
    json_object_put(root);
    if (why) {
        svc_agones_gs_free(out);
        memset(out, 0, sizeof *out);
    }
    return why;
}

const char *svc_agones_gs_read(const char *json, size_t len, svc_agones_gs *out, char *err, size_t errlen)
{
    return read_any(json, len, false, out, err, errlen);
}

const char *svc_agones_gs_read_watch(const char *json, size_t len, svc_agones_gs *out, char *err,
                                     size_t errlen)
{
    return read_any(json, len, true, out, err, errlen);
}

void svc_agones_gs_free(svc_agones_gs *gs)
{
    free(gs->rooms);
    gs->rooms = NULL;
    gs->n_rooms = 0;
}

uint16_t svc_agones_port_named(const svc_agones_ports *p, const char *name)
{
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->e[i].name, name) == 0)
            return p->e[i].port;
    return 0;
}
