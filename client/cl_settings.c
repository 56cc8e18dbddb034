/* cl_settings.c: reading and writing the settings file. */
#include "cl_settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot_model.h"
#include "puzzle.h"
#include "util.h"

enum { MAX_FILE = 64 * 1024 };

void cl_settings_default(cl_settings *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "Player");
    s->win_w = 1280;
    s->win_h = 720;
    s->volume = 70;
    s->ui_scale = 100;
    s->bot_level = BOT_LEVEL_DEFAULT;
    cl_bindings_default(&s->keys);
    for (int i = 0; i < CL_SETUP_REMEMBERED; i++)
        s->setup[i] = -1;
}

const char *cl_name_problem(const char *name)
{
    return txt_name_problem(name, name ? strlen(name) : 0);
}

/* A 0/1 setting into a bool; false (b untouched) if val is neither. */
static bool set_01(bool *b, const char *val)
{
    int v;
    if (!mr_parse_int(val, 0, 1, &v))
        return false;
    *b = v;
    return true;
}

/* One "key = value" line; NULL if applied, else why not. */
static const char *apply(cl_settings *s, const char *key, const char *val)
{
    if (strcmp(key, "name") == 0) {
        const char *bad = cl_name_problem(val);
        if (bad)
            return bad;
        snprintf(s->name, sizeof s->name, "%s", val);
        return NULL;
    }
    if (strcmp(key, "last_server") == 0) {
        if (strlen(val) >= sizeof s->last_server)
            return "last_server too long";
        snprintf(s->last_server, sizeof s->last_server, "%s", val);
        return NULL;
    }
    if (strcmp(key, "coordinator") == 0) {
        if (strlen(val) >= sizeof s->coordinator || strpbrk(val, " /@"))
            return "coordinator is HOST or HOST:PORT";
        snprintf(s->coordinator, sizeof s->coordinator, "%s", val);
        return NULL;
    }
    if (strcmp(key, "window") == 0) {
        int w, h;
        if (!mr_parse_size(val, &w, &h))
            return "window must be WxH, e.g. 1280x720";
        if (w < 640 || h < 360 || w > 16384 || h > 16384)
            return "window must be WxH between 640x360 and 16384x16384";
        s->win_w = w;
        s->win_h = h;
        return NULL;
    }
    if (strcmp(key, "fullscreen") == 0)
        return set_01(&s->fullscreen, val) ? NULL : "fullscreen must be 0 or 1";
    if (strcmp(key, "volume") == 0)
        return mr_parse_int(val, 0, 100, &s->volume) ? NULL : "volume must be 0..100";
    if (strcmp(key, "mute") == 0)
        return set_01(&s->muted, val) ? NULL : "mute must be 0 or 1";
    if (strcmp(key, "ui_scale") == 0)
        return mr_parse_int(val, CL_UI_SCALE_MIN, CL_UI_SCALE_MAX, &s->ui_scale)
                   ? NULL
                   : "ui_scale must be 75..150 (percent)";
    if (strcmp(key, "computer_level") == 0) {
        int lv = bot_level_by_name(val);
        if (lv < 0)
            return "computer_level must be beginner, casual, strong or expert";
        s->bot_level = lv;
        return NULL;
    }
    /* setup = 1 2 1 0 0: the setup screen's last choices (indexes, -1: none) */
    if (strcmp(key, "setup") == 0) {
        int v[CL_SETUP_REMEMBERED], used = 0;
        const char *p = val;
        for (int i = 0; i < CL_SETUP_REMEMBERED; i++, p += used)
            if (sscanf(p, "%d%n", &v[i], &used) != 1 || v[i] < -1 || v[i] > 99)
                return "setup must be 5 numbers from -1 to 99";
        memcpy(s->setup, v, sizeof v);
        return NULL;
    }
    /* howto_seen = sum maze: kinds whose "How to play" card was shown */
    if (strcmp(key, "howto_seen") == 0) {
        unsigned seen = 0;
        char words[128];
        snprintf(words, sizeof words, "%s", val);
        for (char *save = NULL, *w = strtok_r(words, " ,", &save); w; w = strtok_r(NULL, " ,", &save)) {
            const pz_kind *k = pz_kind_by_name(w);
            if (!k)
                return "howto_seen lists puzzle kinds: sum, maze, ice, pipes";
            seen |= 1u << k->id;
        }
        s->howto_seen = seen;
        return NULL;
    }
    /* pad.up = dpup (SDL's button names) */
    if (strncmp(key, "pad.", 4) == 0) {
        int act = cl_act_by_name(key + 4), b = cl_pad_button_by_name(val);
        if (act < 0)
            return "unknown action in pad binding";
        if (b < 0)
            return "unknown pad button (SDL names: a, x, y, dpup, leftshoulder)";
        return cl_pad_bind(&s->keys, act, b);
    }
    /* key.p1.up = W */
    if (strncmp(key, "key.p", 5) == 0 && (key[5] == '1' || key[5] == '2') && key[6] == '.') {
        int act = cl_act_by_name(key + 7);
        if (act < 0)
            return "unknown action in key binding";
        SDL_Keycode k = SDL_GetKeyFromName(val);
        if (k == SDLK_UNKNOWN)
            return "unknown key name";
        cl_bindings trial = s->keys;
        /* Swap instead of refusing when the file moves a key between actions
         * line by line; the final check below refuses real duplicates. */
        int oa, os = cl_bindings_lookup(&trial, k, &oa);
        if (os >= 0)
            trial.key[os][oa] = trial.key[key[5] - '1'][act];
        trial.key[key[5] - '1'][act] = k;
        if (cl_key_reserved(k))
            return "that key is reserved";
        s->keys = trial;
        return NULL;
    }
    return "unknown setting";
}

int cl_settings_parse(cl_settings *s, const char *text, size_t len, char *msg, size_t msglen)
{
    int bad = 0, lineno = 0;
    if (msg && msglen)
        msg[0] = '\0';
    size_t i = 0, n;
    char line[512];
    while (mr_next_line(text, len, &i, line, sizeof line, &n)) {
        lineno++;
        const char *why = NULL;
        if (n >= sizeof line) {
            why = "line too long";
        } else {
            if (memchr(line, '\0', n))
                why = "binary data";
            char *t = mr_trim(line);
            if (!why && *t && *t != '#') {
                char *eq = strchr(t, '=');
                if (!eq) {
                    why = "expected key = value";
                } else {
                    *eq = '\0';
                    why = apply(s, mr_trim(t), mr_trim(eq + 1));
                }
            }
        }
        if (why) {
            if (bad == 0 && msg && msglen)
                snprintf(msg, msglen, "settings line %d: %s", lineno, why);
            bad++;
        }
    }
    if (cl_bindings_check(&s->keys)) {
        cl_bindings_default(&s->keys);
        if (bad == 0 && msg && msglen)
            snprintf(msg, msglen, "settings: key bindings clashed; defaults restored");
        bad++;
    }
    return bad;
}

char *cl_settings_format(const cl_settings *s)
{
    size_t cap = 4096, n = 0;
    char *out = mr_alloc(cap, 1);
    n += (size_t)snprintf(
        out + n, cap - n,
        "# mazerace settings: key = value; see docs/client.md. Bad lines fall back to defaults.\n"
        "name = %s\nlast_server = %s\ncoordinator = %s\nwindow = %dx%d\nfullscreen = %d\n"
        "volume = %d\nmute = %d\nui_scale = %d\ncomputer_level = %s\n",
        s->name, s->last_server, s->coordinator, s->win_w, s->win_h, s->fullscreen ? 1 : 0, s->volume,
        s->muted ? 1 : 0, s->ui_scale, bot_level_name(s->bot_level));
    for (int p = 0; p < 2; p++)
        for (int a = 0; a < CL_ACT_COUNT && n < cap; a++)
            n += (size_t)snprintf(out + n, cap - n, "key.p%d.%s = %s\n", p + 1, cl_act_name(a),
                                  SDL_GetKeyName(s->keys.key[p][a]));
    for (int a = 0; a < CL_ACT_COUNT && n < cap; a++)
        n += (size_t)snprintf(out + n, cap - n, "pad.%s = %s\n", cl_act_name(a),
                              SDL_GameControllerGetStringForButton(s->keys.pad[a]));
    if (n < cap)
        n += (size_t)snprintf(out + n, cap - n, "setup = %d %d %d %d %d\n", s->setup[0], s->setup[1],
                              s->setup[2], s->setup[3], s->setup[4]);
    n += (size_t)snprintf(out + n, cap - n, "howto_seen =");
    for (int k = 0; k < PZ_KIND_COUNT && n < cap; k++)
        if (s->howto_seen & (1u << k))
            n += (size_t)snprintf(out + n, cap - n, " %s", pz_kind_by_id(k)->name);
    if (n < cap)
        n += (size_t)snprintf(out + n, cap - n, "\n");
    return out;
}

const char *cl_settings_load(cl_settings *s, const char *path, char *msg, size_t msglen)
{
    cl_settings_default(s);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL; /* first run: defaults */
    char *buf = mr_alloc(MAX_FILE + 1, 1);
    size_t n = fread(buf, 1, MAX_FILE + 1, f);
    bool err = ferror(f);
    fclose(f);
    const char *res = NULL;
    if (err || n > MAX_FILE) {
        snprintf(msg, msglen, "settings file unreadable or too large; using defaults");
        res = msg;
    } else if (cl_settings_parse(s, buf, n, msg, msglen) > 0) {
        size_t m = strlen(msg);
        snprintf(msg + m, msglen - m, " (defaults used)");
        res = msg;
    }
    free(buf);
    return res;
}

const char *cl_settings_save(const cl_settings *s, const char *path)
{
    char tmp[1100];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return "settings path too long";
    char *text = cl_settings_format(s);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        free(text);
        return "cannot write the settings file";
    }
    size_t n = strlen(text);
    bool ok = fwrite(text, 1, n, f) == n;
    ok = (fclose(f) == 0) && ok;
    free(text);
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return "cannot write the settings file";
    }
    return NULL;
}
