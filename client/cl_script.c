/* cl_script.c: parsing and replaying input scripts. */
#include "cl_script.h"
#include "cl_vpad.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct cl_script {
    cl_script_line *lines;
    int n, next;
    bool started;
    uint64_t start_ms, last_ms;
};

static const struct {
    const char *name;
    int op, nint;
} ops[] = {
    {"key", CL_SOP_KEY, 0},
    {"down", CL_SOP_DOWN, 0},
    {"up", CL_SOP_UP, 0},
    {"text", CL_SOP_TEXT, 0},
    {"click", CL_SOP_CLICK, 2},
    {"rclick", CL_SOP_RCLICK, 2},
    {"drag", CL_SOP_DRAG, 4},
    {"tap", CL_SOP_TAP, 2},
    {"swipe", CL_SOP_SWIPE, 4},
    {"pad", CL_SOP_PAD, 0},
    {"wait", CL_SOP_WAIT, 0},
    {"screenshot", CL_SOP_SCREENSHOT, 0},
    {"quit", CL_SOP_QUIT, 0},
    {"drop", CL_SOP_DROP, 0},
    {"clip", CL_SOP_CLIP, 0},
    {"padplug", CL_SOP_PADPLUG, 0},
    {"padunplug", CL_SOP_PADUNPLUG, 0},
    {"vpad", CL_SOP_VPAD, 0},
};

static const char *const scenes[] = {"menu",      "setup",       "join",           "lobby",
                                     "countdown", "race",        "results",        "settings",
                                     "history",   "watch",       "watching",       "watch-results",
                                     "replay",    "replay-end",  "server-replays", "server-replays-list",
                                     "lost",      "join-listed", "join-internet"};

static const char *parse_line(char *t, cl_script_line *l)
{
    char *p = t;
    if (*p == '+') {
        l->relative = true;
        p++;
    }
    char *end;
    unsigned long ms = strtoul(p, &end, 10);
    if (end == p || ms > 24u * 3600u * 1000u)
        return "expected a time in ms (e.g. 500 or +100)";
    l->ms = (uint32_t)ms;
    p = end;
    while (*p == ' ' || *p == '\t')
        p++;
    char cmd[16];
    size_t c = 0;
    while (*p && *p != ' ' && *p != '\t' && c < sizeof cmd - 1)
        cmd[c++] = *p++;
    cmd[c] = '\0';
    while (*p == ' ' || *p == '\t')
        p++;
    int which = -1;
    for (size_t i = 0; i < MR_ARRAY_LEN(ops); i++)
        if (strcmp(cmd, ops[i].name) == 0)
            which = (int)i;
    if (which < 0)
        return "unknown command";
    l->op = ops[which].op;
    if (ops[which].nint) {
        int v[4] = {0};
        for (int i = 0; i < ops[which].nint; i++) {
            long x = strtol(p, &end, 10);
            if (end == p || x < -100000 || x > 100000)
                return "expected pixel coordinates";
            v[i] = (int)x;
            p = end;
        }
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p)
            return "extra text after the coordinates";
        l->x0 = v[0], l->y0 = v[1], l->x1 = v[2], l->y1 = v[3];
        return NULL;
    }
    if (strlen(p) >= sizeof l->arg)
        return "argument too long";
    snprintf(l->arg, sizeof l->arg, "%s", p);
    switch (l->op) {
    case CL_SOP_KEY:
    case CL_SOP_DOWN:
    case CL_SOP_UP:
        /* Modifiers first: Ctrl+V, Shift+Tab, Ctrl+Backspace. */
        for (bool more = true; more;) {
            static const struct {
                const char *name;
                int mod;
            } mods[] = {{"Ctrl+", KMOD_LCTRL}, {"Shift+", KMOD_LSHIFT}, {"Alt+", KMOD_LALT}};
            more = false;
            for (size_t i = 0; i < MR_ARRAY_LEN(mods); i++)
                if (strncmp(p, mods[i].name, strlen(mods[i].name)) == 0 && p[strlen(mods[i].name)]) {
                    l->button |= mods[i].mod;
                    p += strlen(mods[i].name);
                    more = true;
                }
        }
        l->key = SDL_GetKeyFromName(p);
        return l->key == SDLK_UNKNOWN ? "unknown key name (use SDL names: Left, W, Return, Escape; Ctrl+V)"
                                      : NULL;
    case CL_SOP_PAD:
    case CL_SOP_VPAD:
        l->button = SDL_GameControllerGetButtonFromString(p);
        return l->button == SDL_CONTROLLER_BUTTON_INVALID ? "unknown gamepad button" : NULL;
    case CL_SOP_WAIT:
        for (size_t i = 0; i < MR_ARRAY_LEN(scenes); i++)
            if (strcmp(p, scenes[i]) == 0)
                return NULL;
        return "wait needs a scene: menu, setup, join, lobby, countdown, race, results, settings, history, "
               "watch, watching, watch-results, replay, replay-end, server-replays, server-replays-list, "
               "lost, join-listed, join-internet";
    case CL_SOP_SCREENSHOT:
    case CL_SOP_DROP:
    case CL_SOP_CLIP:
    case CL_SOP_TEXT:
        return *p ? NULL : "missing argument";
    case CL_SOP_QUIT:
        return *p ? "quit takes no argument" : NULL;
    default:
        return NULL;
    }
}

cl_script *cl_script_parse(const char *text, size_t len, char *err, size_t errlen)
{
    cl_script *s = mr_alloc(1, sizeof *s);
    int cap = 0, lineno = 0;
    size_t i = 0, n;
    char buf[512];
    while (mr_next_line(text, len, &i, buf, sizeof buf, &n)) {
        lineno++;
        if (n >= sizeof buf) {
            snprintf(err, errlen, "script line %d: line too long", lineno);
            cl_script_destroy(s);
            return NULL;
        }
        char *t = mr_trim(buf);
        if (!*t || *t == '#')
            continue;
        if (s->n == cap) {
            cap = cap ? cap * 2 : 16;
            s->lines = mr_realloc(s->lines, (size_t)cap, sizeof *s->lines);
        }
        cl_script_line *l = &s->lines[s->n];
        memset(l, 0, sizeof *l);
        const char *why = parse_line(t, l);
        if (why) {
            snprintf(err, errlen, "script line %d: %s", lineno, why);
            cl_script_destroy(s);
            return NULL;
        }
        s->n++;
    }
    return s;
}

cl_script *cl_script_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open script %s", path);
        return NULL;
    }
    enum { MAX = 1 << 20 };
    char *buf = mr_alloc(MAX + 1, 1);
    size_t n = fread(buf, 1, MAX + 1, f);
    fclose(f);
    cl_script *s = NULL;
    if (n > MAX)
        snprintf(err, errlen, "script %s is too large", path);
    else
        s = cl_script_parse(buf, n, err, errlen);
    free(buf);
    return s;
}

void cl_script_destroy(cl_script *s)
{
    if (!s)
        return;
    free(s->lines);
    free(s);
}

int cl_script_count(const cl_script *s)
{
    return s->n;
}

const cl_script_line *cl_script_line_at(const cl_script *s, int i)
{
    return (i >= 0 && i < s->n) ? &s->lines[i] : NULL;
}

const cl_script_line *cl_script_due(cl_script *s, uint64_t now_ms)
{
    if (!s->started) {
        s->started = true;
        s->start_ms = s->last_ms = now_ms;
    }
    if (s->next >= s->n)
        return NULL;
    const cl_script_line *l = &s->lines[s->next];
    uint64_t at = (l->relative ? s->last_ms : s->start_ms) + l->ms;
    return now_ms >= at ? l : NULL;
}

void cl_script_advance(cl_script *s, uint64_t now_ms)
{
    if (s->next < s->n) {
        s->next++;
        s->last_ms = now_ms;
    }
}

bool cl_script_finished(const cl_script *s)
{
    return s->next >= s->n;
}

static void push_key(SDL_Keycode k, int mod, bool down)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
    e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.sym = k;
    e.key.keysym.scancode = SDL_GetScancodeFromKey(k);
    e.key.keysym.mod = (Uint16)mod;
    SDL_PushEvent(&e);
}

static void push_button(int x, int y, int button, bool down)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
    e.button.button = (Uint8)button;
    e.button.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.button.clicks = 1;
    e.button.x = x;
    e.button.y = y;
    SDL_PushEvent(&e);
}

static void push_motion(int x, int y, bool held)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEMOTION;
    e.motion.x = x;
    e.motion.y = y;
    e.motion.state = held ? SDL_BUTTON_LMASK : 0;
    SDL_PushEvent(&e);
}

static void push_finger(int type, int x, int y, int w, int h)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = (Uint32)type;
    e.tfinger.touchId = 1;
    e.tfinger.fingerId = 1;
    e.tfinger.x = w > 0 ? (float)x / (float)w : 0;
    e.tfinger.y = h > 0 ? (float)y / (float)h : 0;
    e.tfinger.pressure = 1;
    SDL_PushEvent(&e);
}

void cl_script_push_events(const cl_script_line *l, int w, int h)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    switch (l->op) {
    case CL_SOP_KEY:
        push_key(l->key, l->button, true);
        push_key(l->key, l->button, false);
        break;
    case CL_SOP_DOWN:
        push_key(l->key, l->button, true);
        break;
    case CL_SOP_UP:
        push_key(l->key, l->button, false);
        break;
    case CL_SOP_CLIP:
        /* What another program copied, for a paste to find. */
        SDL_SetClipboardText(l->arg);
        break;
    case CL_SOP_TEXT:
        /* SDL carries at most 31 bytes per text event: long text goes in pieces. */
        for (size_t off = 0, n = strlen(l->arg); off < n; off += sizeof e.text.text - 1) {
            memset(&e, 0, sizeof e);
            e.type = SDL_TEXTINPUT;
            size_t k = n - off < sizeof e.text.text - 1 ? n - off : sizeof e.text.text - 1;
            memcpy(e.text.text, l->arg + off, k);
            SDL_PushEvent(&e);
        }
        break;
    case CL_SOP_CLICK:
    case CL_SOP_RCLICK: {
        int b = l->op == CL_SOP_CLICK ? SDL_BUTTON_LEFT : SDL_BUTTON_RIGHT;
        push_motion(l->x0, l->y0, false);
        push_button(l->x0, l->y0, b, true);
        push_button(l->x0, l->y0, b, false);
        break;
    }
    case CL_SOP_DRAG: {
        push_motion(l->x0, l->y0, false);
        push_button(l->x0, l->y0, SDL_BUTTON_LEFT, true);
        enum { STEPS = 24 };
        for (int i = 1; i <= STEPS; i++)
            push_motion(l->x0 + (l->x1 - l->x0) * i / STEPS, l->y0 + (l->y1 - l->y0) * i / STEPS, true);
        push_button(l->x1, l->y1, SDL_BUTTON_LEFT, false);
        break;
    }
    case CL_SOP_TAP:
        push_finger(SDL_FINGERDOWN, l->x0, l->y0, w, h);
        push_finger(SDL_FINGERUP, l->x0, l->y0, w, h);
        break;
    case CL_SOP_SWIPE:
        push_finger(SDL_FINGERDOWN, l->x0, l->y0, w, h);
        push_finger(SDL_FINGERMOTION, (l->x0 + l->x1) / 2, (l->y0 + l->y1) / 2, w, h);
        push_finger(SDL_FINGERUP, l->x1, l->y1, w, h);
        break;
    case CL_SOP_DROP:
        /* As a file manager drops one: SDL_free'd by whoever takes it. */
        e.type = SDL_DROPFILE;
        e.drop.file = SDL_strdup(l->arg);
        if (SDL_PushEvent(&e) != 1)
            SDL_free(e.drop.file);
        break;
    case CL_SOP_PAD:
        for (int down = 1; down >= 0; down--) {
            e.type = down ? SDL_CONTROLLERBUTTONDOWN : SDL_CONTROLLERBUTTONUP;
            e.cbutton.which = -1; /* a scripted pad: treated as pad 0 */
            e.cbutton.button = (Uint8)l->button;
            e.cbutton.state = down ? SDL_PRESSED : SDL_RELEASED;
            SDL_PushEvent(&e);
        }
        break;
    case CL_SOP_PADPLUG:
        if (!cl_vpad_plug())
            fprintf(stderr, "mazerace: script: no virtual gamepad: %s\n", SDL_GetError());
        break;
    case CL_SOP_PADUNPLUG:
        cl_vpad_unplug();
        break;
    case CL_SOP_VPAD:
        cl_vpad_press(l->button);
        break;
    default:
        break;
    }
}
