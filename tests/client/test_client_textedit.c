/* test_client_textedit.c: text field editing (caret, select-all on focus, words, paste) through the
 * form's real event path, the script's modifier keys and clip command, and join links as pasted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cl_args.h"
#include "cl_script.h"
#include "cl_ui.h"
#include "joinlink.h"

static cl_form_result press(cl_form *f, SDL_Keycode k, Uint16 mod)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    e.key.keysym.mod = mod;
    return cl_form_event(f, &e, 1.0f);
}

static cl_form_result type(cl_form *f, const char *s)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_TEXTINPUT;
    snprintf(e.text.text, sizeof e.text.text, "%s", s);
    return cl_form_event(f, &e, 1.0f);
}

/* A form of a pre-filled address field, a room field and a button. */
static void form(cl_form *f)
{
    cl_form_clear(f);
    cl_item *it = cl_form_add(f, CL_ITEM_TEXT, 1, "Server");
    snprintf(it->value, sizeof it->value, "127.0.0.1:27910");
    cl_form_add(f, CL_ITEM_TEXT, 2, "Room");
    cl_form_add(f, CL_ITEM_BUTTON, 3, "Join");
    f->sel = -1;
    cl_form_select(f, 0);
}

static void test_typing_replaces_a_prefilled_field(void **ctx)
{
    (void)ctx;
    cl_form f;
    form(&f);
    /* The report: typing appended ("127.0.0.1:2791127.0.0.1"). */
    assert_int_equal(type(&f, "10.0.0.5").changed, 1);
    assert_string_equal(f.items[0].value, "10.0.0.5");
    /* Once typed into, typing goes on at the caret. */
    type(&f, ":27911");
    assert_string_equal(f.items[0].value, "10.0.0.5:27911");
    /* Tab away and back: selected again; Backspace clears it all. */
    press(&f, SDLK_TAB, 0);
    press(&f, SDLK_TAB, KMOD_LSHIFT);
    assert_int_equal(f.sel, 0);
    assert_true(f.items[0].all);
    assert_int_equal(press(&f, SDLK_BACKSPACE, 0).changed, 1);
    assert_string_equal(f.items[0].value, "");
}

static void test_caret_home_end_words(void **ctx)
{
    (void)ctx;
    cl_form f;
    form(&f);
    press(&f, SDLK_END, 0); /* ends the selection, caret at the end */
    assert_false(f.items[0].all);
    press(&f, SDLK_HOME, 0);
    type(&f, "x");
    assert_string_equal(f.items[0].value, "x127.0.0.1:27910");
    press(&f, SDLK_DELETE, 0);
    assert_string_equal(f.items[0].value, "x27.0.0.1:27910");
    press(&f, SDLK_END, 0);
    /* Ctrl+Backspace takes the word before the caret (then its separator). */
    press(&f, SDLK_BACKSPACE, KMOD_LCTRL);
    assert_string_equal(f.items[0].value, "x27.0.0.1:");
    press(&f, SDLK_BACKSPACE, KMOD_LCTRL);
    assert_string_equal(f.items[0].value, "x27.0.0.");
    press(&f, SDLK_LEFT, KMOD_LCTRL);
    type(&f, "y");
    assert_string_equal(f.items[0].value, "x27.0.y0."); /* Ctrl+Left: to the word start */
    press(&f, SDLK_LEFT, 0);
    press(&f, SDLK_LEFT, 0);
    press(&f, SDLK_BACKSPACE, 0);
    assert_string_equal(f.items[0].value, "x27..y0.");
    /* Ctrl+A selects everything: typing replaces it. */
    press(&f, SDLK_a, KMOD_LCTRL);
    assert_true(f.items[0].all);
    type(&f, "h");
    assert_string_equal(f.items[0].value, "h");
    /* Left/Right move the caret and never leave the field. */
    press(&f, SDLK_LEFT, 0);
    press(&f, SDLK_LEFT, 0);
    assert_int_equal(f.sel, 0);
    assert_int_equal(f.items[0].caret, 0);
    /* Up/Down still move between rows; an empty field is not "selected". */
    press(&f, SDLK_DOWN, 0);
    assert_int_equal(f.sel, 1);
    assert_false(f.items[1].all);
}

/* The pointer: hover moves the highlight without touching a field's text;
 * a click selects it all, a second click puts the caret at the end. */
static void test_pointer(void **ctx)
{
    (void)ctx;
    cl_form f;
    form(&f);
    f.items[0].rect = (SDL_Rect){0, 0, 100, 20};
    f.items[1].rect = (SDL_Rect){0, 30, 100, 20};
    f.items[2].rect = (SDL_Rect){0, 60, 100, 20};
    press(&f, SDLK_END, 0);
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEMOTION;
    e.motion.x = 10;
    e.motion.y = 65;
    cl_form_event(&f, &e, 1.0f);
    assert_int_equal(f.sel, 2);
    e.motion.y = 5;
    cl_form_event(&f, &e, 1.0f);
    assert_int_equal(f.sel, 0);
    assert_false(f.items[0].all); /* hovering back did not select it */
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.x = 10;
    e.button.y = 5;
    cl_form_event(&f, &e, 1.0f);
    assert_true(f.items[0].all);
    cl_form_event(&f, &e, 1.0f);
    assert_false(f.items[0].all);
    type(&f, "9");
    assert_string_equal(f.items[0].value, "127.0.0.1:279109");
}

static void test_limits_and_non_ascii(void **ctx)
{
    (void)ctx;
    cl_item it;
    memset(&it, 0, sizeof it);
    it.type = CL_ITEM_TEXT;
    it.maxlen = 5;
    it.caret = -1;
    assert_true(cl_edit_insert(&it, "ab\xc3\xa9"
                                    "cdefg\n"));
    assert_string_equal(it.value, "abcde");
    assert_false(cl_edit_insert(&it, "z")); /* full */
    it.caret = 2;
    assert_true(cl_edit_op(&it, CL_EDIT_BACKSPACE));
    assert_string_equal(it.value, "acde");
    assert_int_equal(it.caret, 1);
    assert_true(cl_edit_insert(&it, "XY"));
    assert_string_equal(it.value, "aXcde");
    assert_false(cl_edit_op(&it, CL_EDIT_HOME));
    assert_false(cl_edit_op(&it, CL_EDIT_BACKSPACE)); /* nothing before the caret */
    assert_false(cl_edit_op(&it, CL_EDIT_WORD_BACKSPACE));
    assert_true(cl_edit_op(&it, CL_EDIT_CLEAR));
    assert_string_equal(it.value, "");
    assert_false(cl_edit_op(&it, CL_EDIT_DELETE));
    /* A caret out of range (a value set from outside) counts as the end. */
    snprintf(it.value, sizeof it.value, "abc");
    it.caret = 99;
    assert_true(cl_edit_insert(&it, "d"));
    assert_string_equal(it.value, "abcd");
}

static void test_script_modifiers_and_clip(void **ctx)
{
    (void)ctx;
    char err[200];
    const char *text =
        "0 key Ctrl+V\n+10 key Shift+Tab\n+10 clip mazerace://h:1/ABCDE\n+0 wait join-listed\n";
    cl_script *s = cl_script_parse(text, strlen(text), err, sizeof err);
    assert_non_null(s);
    assert_int_equal(cl_script_count(s), 4);
    assert_int_equal(cl_script_line_at(s, 0)->key, SDLK_v);
    assert_true(cl_script_line_at(s, 0)->button & KMOD_CTRL);
    assert_int_equal(cl_script_line_at(s, 1)->key, SDLK_TAB);
    assert_true(cl_script_line_at(s, 1)->button & KMOD_SHIFT);
    assert_int_equal(cl_script_line_at(s, 2)->op, CL_SOP_CLIP);
    assert_string_equal(cl_script_line_at(s, 2)->arg, "mazerace://h:1/ABCDE");
    cl_script_destroy(s);
    const char *bad = "0 key Ctrl+\n";
    assert_null(cl_script_parse(bad, strlen(bad), err, sizeof err));
    const char *bad2 = "0 clip\n";
    assert_null(cl_script_parse(bad2, strlen(bad2), err, sizeof err));
}

/* Links as players paste them: blanks and a newline around, any case. */
static void test_pasted_links(void **ctx)
{
    (void)ctx;
    joinlink l;
    assert_null(joinlink_parse("  MazeRace://192.168.1.20:27910/abcde\n", &l));
    assert_string_equal(l.host, "192.168.1.20");
    assert_int_equal(l.port, 27910);
    assert_string_equal(l.room, "ABCDE");
    assert_null(joinlink_parse("mazerace://host.lan/", &l));
    assert_int_equal(l.port, WIRE_DEFAULT_PORT);
    assert_string_equal(l.room, "");
    assert_non_null(joinlink_parse("mazerace://127.0.0.1:0/ABCDE", &l));
    assert_non_null(joinlink_parse("mazerace:/127.0.0.1/ABCDE", &l));
    assert_non_null(joinlink_parse("http://127.0.0.1/ABCDE", &l));
    /* A malformed link on the command line is no longer refused before a
     * window: the game opens and shows it (cl_app.c). */
    cl_args a;
    char err[200];
    char *argv[] = {"mazerace", "mazerace://127.0.0.1:0/ABCDE", NULL};
    assert_null(cl_args_parse(&a, 2, argv, err, sizeof err));
    assert_string_equal(a.join_addr, "mazerace://127.0.0.1:0/ABCDE");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_typing_replaces_a_prefilled_field),
        cmocka_unit_test(test_caret_home_end_words),
        cmocka_unit_test(test_pointer),
        cmocka_unit_test(test_limits_and_non_ascii),
        cmocka_unit_test(test_script_modifiers_and_clip),
        cmocka_unit_test(test_pasted_links),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
