/* cl_scene_setup.c: choosing a puzzle (kind, size, difficulty or a pasted game
 * ID) and the opponent for vs computer, hotseat and hosting; and starting
 * a mode from a game ID. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bot_model.h"
#include "cl_scene.h"
#include "cl_draw.h"
#include "cl_howto.h"
#include "cl_netui.h"
#include "cl_ui.h"

enum { S_KIND, S_SIZE, S_DIFF, S_ID, S_BOT, S_SERIES, S_START, S_HOWTO, S_BACK };

/* The screen's own state (cl_scene.state_size). */
typedef struct setup_ui {
    cl_form form;
    char create_addr[160]; /* the server "Create a room" makes it on (CL_MODE_CREATE) */
    /* The "How to play" card over the form: the kind it explains (-1:
     * none, set on enter), and the race it stands before (the first race
     * of a kind starts only once its card has been read). */
    struct {
        int kind;
        bool starts;
        char id[200];
        int series, level;
    } card;
} setup_ui;

/* The deprecated --bot-pace: a fixed pace with the old "relaxed" mistake rate. */
#define FIXED_PACE_MISTAKES 0.15
/* What each level means to a player, shown while the choice is selected. */
static const char *const level_words[BOT_LEVEL_COUNT] = {
    "beginner: slower than a first-time player, with plenty of mistakes",
    "casual: about a person on their first few races",
    "strong: a practised player who rarely goes wrong",
    "expert: fast and sure; a real challenge",
};
static const int series_opts[] = {1, 3, 5};

static int sizes(const pz_kind *k, int out_w[], int out_h[])
{
    int n = 0;
    static const int mul[] = {3, 4, 8, 16, 100000};
    int w = k->default_w, h = k->default_h;
    out_w[n] = w, out_h[n] = h, n++;
    for (size_t i = 0; i < sizeof mul / sizeof mul[0] && n < CL_CHOICE_MAX - 1; i++) {
        long cw = (long)w * mul[i] / 2, ch = (long)h * mul[i] / 2;
        if (cw > k->max_w)
            cw = k->max_w;
        if (ch > k->max_h)
            ch = k->max_h;
        pz_params p = {k->id, (int)cw, (int)ch, PZ_MEDIUM};
        /* A size the kind refuses (e.g. too many cells for sum) shrinks, the
         * longer side first, until the kind accepts it. */
        for (int guard = 0; guard < 2000 && pz_validate_params(&p); guard++) {
            if (p.w >= p.h && p.w > k->min_w)
                p.w--;
            else if (p.h > k->min_h)
                p.h--;
            else
                break;
        }
        cw = p.w;
        ch = p.h;
        if (pz_validate_params(&p) || (cw == out_w[n - 1] && ch == out_h[n - 1]))
            continue;
        out_w[n] = (int)cw, out_h[n] = (int)ch, n++;
        if (cw == k->max_w && ch == k->max_h)
            break;
    }
    return n;
}

static void fill_sizes(cl_app *a)
{
    setup_ui *u = cl_app_scene_state(a, CL_SCENE_SETUP);
    cl_item *kind = cl_form_find(&u->form, S_KIND), *size = cl_form_find(&u->form, S_SIZE);
    const pz_kind *k = pz_kind_by_id(kind->choice);
    int w[CL_CHOICE_MAX], h[CL_CHOICE_MAX];
    int n = sizes(k, w, h);
    size->nchoices = 0;
    size->choice = 0;
    for (int i = 0; i < n; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "%dx%d", w[i], h[i]);
        cl_item_choice(size, buf);
    }
}

/* The choices last made here (kept in the settings), over the defaults;
 * a --bot-level given for this run wins over the remembered level, and a
 * default level chosen in Settings replaces it (cl_scene_settings.c). */
static const int remembered[CL_SETUP_REMEMBERED] = {S_KIND, S_SIZE, S_DIFF, S_BOT, S_SERIES};

static void recall(cl_app *a)
{
    setup_ui *u = cl_app_scene_state(a, CL_SCENE_SETUP);
    for (int i = 0; i < CL_SETUP_REMEMBERED; i++) {
        cl_item *it = cl_form_find(&u->form, remembered[i]);
        int v = a->settings.setup[i];
        if (!it || v < 0 || v >= it->nchoices || (remembered[i] == S_BOT && a->args.bot_level_given))
            continue;
        it->choice = v;
        if (remembered[i] == S_KIND)
            fill_sizes(a);
    }
}

static void remember(cl_app *a)
{
    setup_ui *u = cl_app_scene_state(a, CL_SCENE_SETUP);
    for (int i = 0; i < CL_SETUP_REMEMBERED; i++) {
        cl_item *it = cl_form_find(&u->form, remembered[i]);
        if (it)
            a->settings.setup[i] = it->choice;
    }
}

static void enter(cl_app *a)
{
    setup_ui *u = cl_app_scene_state(a, CL_SCENE_SETUP);
    cl_form_clear(&u->form);
    cl_item *it = cl_form_add(&u->form, CL_ITEM_CHOICE, S_KIND, "Puzzle");
    for (int i = 0; i < PZ_KIND_COUNT; i++) {
        char buf[40];
        snprintf(buf, sizeof buf, "%s (%s)", pz_kind_by_id(i)->title, pz_kind_by_id(i)->name);
        cl_item_choice(it, buf);
    }
    it->choice = PZ_MAZE;
    cl_form_add(&u->form, CL_ITEM_CHOICE, S_SIZE, "Size");
    fill_sizes(a);
    it = cl_form_add(&u->form, CL_ITEM_CHOICE, S_DIFF, "Difficulty");
    for (int d = 0; d < PZ_DIFF_COUNT; d++)
        cl_item_choice(it, pz_difficulty_name(d));
    it->choice = PZ_MEDIUM;
    it = cl_form_add(&u->form, CL_ITEM_TEXT, S_ID, "or game ID");
    it->maxlen = 150;
    if (a->mode == CL_MODE_COMPUTER) {
        it = cl_form_add(&u->form, CL_ITEM_CHOICE, S_BOT, "Computer");
        for (int i = 0; i < BOT_LEVEL_COUNT; i++)
            cl_item_choice(it, bot_level_name(i));
        it->choice = a->args.bot_level >= 0 && a->args.bot_level < BOT_LEVEL_COUNT ? a->args.bot_level
                                                                                   : BOT_LEVEL_DEFAULT;
    }
    it = cl_form_add(&u->form, CL_ITEM_CHOICE, S_SERIES, "Series");
    for (size_t i = 0; i < sizeof series_opts / sizeof series_opts[0]; i++) {
        char buf[24];
        snprintf(buf, sizeof buf, series_opts[i] == 1 ? "single race" : "best of %d", series_opts[i]);
        cl_item_choice(it, buf);
    }
    recall(a);
    cl_form_add(&u->form, CL_ITEM_BUTTON, S_START,
                a->mode == CL_MODE_HOST     ? "Host"
                : a->mode == CL_MODE_CREATE ? "Create the room"
                                            : "Start");
    cl_form_add(&u->form, CL_ITEM_BUTTON, S_HOWTO, "How to play");
    cl_form_add(&u->form, CL_ITEM_BUTTON, S_BACK, "Back");
    u->card.kind = -1;
    u->form.sel = 0;
}

/* The game ID the form names: the pasted one if any, else a fresh seed. */
static const char *form_game_id(cl_app *a, char *buf, size_t len)
{
    setup_ui *u = cl_app_scene_state(a, CL_SCENE_SETUP);
    cl_item *id = cl_form_find(&u->form, S_ID);
    if (id->value[0]) {
        pz_id parsed;
        static char err[200];
        if (pz_id_parse(id->value, &parsed, err, sizeof err))
            return err;
        snprintf(buf, len, "%s", id->value);
        return NULL;
    }
    cl_item *kind = cl_form_find(&u->form, S_KIND), *size = cl_form_find(&u->form, S_SIZE);
    pz_params p = {kind->choice, 0, 0, cl_form_find(&u->form, S_DIFF)->choice};
    if (sscanf(size->choices[size->choice], "%dx%d", &p.w, &p.h) != 2)
        return "pick a size";
    /* Seeds shown to players stay short enough to read out. */
    uint64_t seed = rng_below(&a->fx_rng, 1000000000u);
    pz_id_format_seeded(&p, seed, buf, len);
    return NULL;
}

const char *cl_app_start_mode(cl_app *a, int mode, const char *game_id, int series, int bot_level)
{
    setup_ui *u = cl_app_scene_state(a, CL_SCENE_SETUP);
    static char err[256];
    a->mode = mode;
    if (mode == CL_MODE_HOST || mode == CL_MODE_CREATE) {
        const char *why = mode == CL_MODE_HOST ? cl_app_host(a, game_id, series)
                                               : cl_app_create(a, u->create_addr, game_id, series);
        if (!why)
            cl_app_set_scene(a, CL_SCENE_LOBBY);
        return why;
    }
    uint32_t ms = 0;
    double mist = 0;
    int level = -1;
    const char *other = "Player 2";
    if (mode == CL_MODE_COMPUTER) {
        /* --bot-pace (deprecated) still plays at a fixed pace. */
        if (a->args.bot_ms > 0) {
            ms = (uint32_t)a->args.bot_ms;
            mist = FIXED_PACE_MISTAKES;
        } else {
            level = bot_level >= 0 && bot_level < BOT_LEVEL_COUNT ? bot_level : BOT_LEVEL_DEFAULT;
        }
        other = "Computer";
    }
    const char *me = mode == CL_MODE_HOTSEAT ? "Player 1" : a->settings.name;
    cl_backend *b = cl_backend_local(game_id, me, other, level, ms, mist, series, rng_u64(&a->fx_rng),
                                     a->now_ms, err, sizeof err);
    if (!b)
        return err;
    cl_app_start_backend(a, b);
    b->ops->ready(b, a->now_ms);
    cl_app_set_scene(a, CL_SCENE_RACE);
    return NULL;
}

/* The kind the form names: the pasted game ID's, else the choice. */
static int form_kind(cl_app *a)
{
    setup_ui *u = cl_app_scene_state(a, CL_SCENE_SETUP);
    cl_item *id = cl_form_find(&u->form, S_ID);
    pz_id parsed;
    char err[200];
    if (id->value[0] && !pz_id_parse(id->value, &parsed, err, sizeof err))
        return parsed.params.kind;
    return cl_form_find(&u->form, S_KIND)->choice;
}

static void start(cl_app *a, const char *id, int series, int level)
{
    const char *why = cl_app_start_mode(a, a->mode, id, series, level);
    if (why)
        cl_app_say(a, true, "Cannot start: %s", why);
}

/* Enter, Space, a click or pad A closes the card (and starts the race it
 * stands before); Esc or pad B closes it only. Either way it counts as read. */
static void card_event(cl_app *a, const SDL_Event *e)
{
    setup_ui *u = cl_app_scene_state(a, CL_SCENE_SETUP);
    bool go = false, back = false;
    if (e->type == SDL_KEYDOWN) {
        SDL_Keycode k = e->key.keysym.sym;
        go = k == SDLK_RETURN || k == SDLK_KP_ENTER || k == SDLK_SPACE;
        back = k == SDLK_ESCAPE || k == SDLK_AC_BACK;
    } else if (e->type == SDL_MOUSEBUTTONDOWN) {
        go = e->button.button == SDL_BUTTON_LEFT;
    } else if (e->type == SDL_CONTROLLERBUTTONDOWN) {
        go = e->cbutton.button == SDL_CONTROLLER_BUTTON_A;
        back = e->cbutton.button == SDL_CONTROLLER_BUTTON_B;
    }
    if (!go && !back)
        return;
    a->settings.howto_seen |= 1u << u->card.kind;
    cl_app_save_settings(a);
    u->card.kind = -1;
    if (go && u->card.starts)
        start(a, u->card.id, u->card.series, u->card.level);
}

static void event(cl_app *a, const SDL_Event *e)
{
    setup_ui *u = cl_app_scene_state(a, CL_SCENE_SETUP);
    if (u->card.kind >= 0) {
        card_event(a, e);
        return;
    }
    cl_form_result r = cl_form_event(&u->form, e, a->mouse_scale);
    if (r.back || r.activated == S_BACK || r.activated == S_START)
        remember(a);
    if (r.back || r.activated == S_BACK) {
        bool create = a->mode == CL_MODE_CREATE;
        if (create)
            a->mode = CL_MODE_JOIN;
        cl_app_set_scene(a, create ? CL_SCENE_JOIN : CL_SCENE_MENU);
        return;
    }
    if (r.changed == S_KIND)
        fill_sizes(a);
    if (r.activated == S_HOWTO) {
        u->card.kind = form_kind(a);
        u->card.starts = false;
        return;
    }
    if (r.activated != S_START)
        return;
    char id[200];
    const char *why = form_game_id(a, id, sizeof id);
    if (why) {
        cl_app_say(a, true, "Game ID: %s", why);
        return;
    }
    cl_item *bot = cl_form_find(&u->form, S_BOT);
    int series = series_opts[cl_form_find(&u->form, S_SERIES)->choice];
    int level = bot ? bot->choice : BOT_LEVEL_DEFAULT, kind = form_kind(a);
    if (kind >= 0 && kind < PZ_KIND_COUNT && !(a->settings.howto_seen & (1u << kind))) {
        /* The first race of a kind: its card first. */
        u->card.kind = kind;
        u->card.starts = true;
        snprintf(u->card.id, sizeof u->card.id, "%s", id);
        u->card.series = series;
        u->card.level = level;
        return;
    }
    start(a, id, series, level);
}

static void draw(cl_app *a)
{
    setup_ui *u = cl_app_scene_state(a, CL_SCENE_SETUP);
    static const char *const titles[] = {"Play vs computer", "Hotseat", "Host a LAN game", "Join"};
    char keys[240];
    cl_howto_hotseat_keys(&a->settings.keys, -1, keys, sizeof keys);
    const char *const subs[] = {"Race the computer on a fresh puzzle", keys,
                                "Your friend joins from their menu: Join, then your game in the LAN list",
                                ""};
    char on[256];
    snprintf(on, sizeof on, "On the server at %s: the lobby then shows its code and join link to share",
             u->create_addr);
    SDL_Rect area = a->mode == CL_MODE_CREATE ? cl_app_title(a, "Create a room", on)
                                              : cl_app_title(a, titles[a->mode & 3], subs[a->mode & 3]);
    cl_form_draw(&u->form, a->ren, a->text, area);
    cl_item *id = cl_form_find(&u->form, S_ID);
    const char *hint = "Left/Right change a choice; paste a game ID with Ctrl+V (e.g. ice:25x20:hard#12345)";
    char err[200];
    pz_id parsed;
    SDL_Color c = cl_col_dim;
    const cl_item *sel = u->form.sel >= 0 && u->form.sel < u->form.n ? &u->form.items[u->form.sel] : NULL;
    if (sel && sel->id == S_BOT && sel->choice >= 0 && sel->choice < BOT_LEVEL_COUNT)
        hint = a->args.bot_ms > 0 ? "--bot-pace is set: the computer plays at that fixed pace"
                                  : level_words[sel->choice];
    if (id && id->value[0]) {
        if (pz_id_parse(id->value, &parsed, err, sizeof err)) {
            hint = err;
            c = cl_col_bad;
        } else {
            hint = "Game ID accepted: it replaces the choices above";
            c = cl_col_good;
        }
    }
    cl_text_draw(a->text, CL_FONT_SMALL, hint, a->out_w / 2,
                 a->out_h - cl_text_height(a->text, CL_FONT_SMALL) * 2, c, CL_CENTER);
    if (u->card.kind >= 0)
        cl_howto_draw(a->ren, a->text, &a->settings.keys, u->card.kind, a->out_w, a->out_h,
                      u->card.starts ? "Enter: start the race   -   Esc: back to the choices"
                                     : "Enter or Esc: close");
}

void cl_app_setup_create(cl_app *a, const char *address)
{
    setup_ui *u = cl_app_scene_state(a, CL_SCENE_SETUP);
    snprintf(u->create_addr, sizeof u->create_addr, "%s", address);
    a->mode = CL_MODE_CREATE;
    cl_app_set_scene(a, CL_SCENE_SETUP);
}

const cl_scene cl_scene_setup = {
    .name = "setup", .enter = enter, .event = event, .draw = draw, .state_size = sizeof(setup_ui)};
