/* test_client_prefs.c: the settings of issue 21 (sound, UI scale, the
 * computer's default level) through the file, the move out of the old
 * doubled folder (~/.local/share/mazerace/mazerace/), and the path as
 * players see it. Temporary folders only, never the player's own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "bot_model.h"
#include "cl_prefdir.h"
#include "cl_settings.h"

/* The coordinator for invite codes (issue 24): empty by default and in the
 * file as "coordinator = " (read back cleanly), HOST[:PORT] kept, anything
 * with a blank, a slash or an @ refused. */
static void test_coordinator_setting(void **ctx)
{
    (void)ctx;
    cl_settings s, t;
    char msg[200];
    cl_settings_default(&s);
    assert_string_equal(s.coordinator, "");
    char *text = cl_settings_format(&s);
    assert_non_null(strstr(text, "\ncoordinator = \n"));
    cl_settings_default(&t);
    assert_int_equal(cl_settings_parse(&t, text, strlen(text), msg, sizeof msg), 0);
    free(text);
    snprintf(s.coordinator, sizeof s.coordinator, "coord.example.org:27920");
    text = cl_settings_format(&s);
    assert_int_equal(cl_settings_parse(&t, text, strlen(text), msg, sizeof msg), 0);
    assert_string_equal(t.coordinator, "coord.example.org:27920");
    free(text);
    const char *bad = "coordinator = a b\ncoordinator = x/y\ncoordinator = +K7MP9NXA@h\n";
    assert_int_equal(cl_settings_parse(&t, bad, strlen(bad), msg, sizeof msg), 3);
    assert_string_equal(t.coordinator, "coord.example.org:27920");
}

static void test_new_keys_round_trip_and_refuse(void **ctx)
{
    (void)ctx;
    cl_settings s, t;
    cl_settings_default(&s);
    assert_int_equal(s.volume, 70);
    assert_false(s.muted);
    assert_int_equal(s.ui_scale, 100);
    assert_int_equal(s.bot_level, BOT_LEVEL_DEFAULT);
    s.volume = 40;
    s.muted = true;
    s.ui_scale = 130;
    s.bot_level = BOT_EXPERT;
    s.fullscreen = true;
    char *text = cl_settings_format(&s);
    assert_non_null(strstr(text, "computer_level = expert\n"));
    cl_settings_default(&t);
    char msg[200];
    assert_int_equal(cl_settings_parse(&t, text, strlen(text), msg, sizeof msg), 0);
    assert_int_equal(t.volume, 40);
    assert_true(t.muted);
    assert_int_equal(t.ui_scale, 130);
    assert_int_equal(t.bot_level, BOT_EXPERT);
    assert_true(t.fullscreen);
    free(text);
    /* Out of range: each bad line keeps the value it had and is counted. */
    const char *bad = "volume = 101\nmute = 2\nui_scale = 50\ncomputer_level = godlike\nui_scale = 151\n";
    assert_int_equal(cl_settings_parse(&t, bad, strlen(bad), msg, sizeof msg), 5);
    assert_non_null(strstr(msg, "line 1: volume must be 0..100"));
    assert_int_equal(t.volume, 40);
    assert_true(t.muted);
    assert_int_equal(t.ui_scale, 130);
    assert_int_equal(t.bot_level, BOT_EXPERT);
    /* An older file without the new keys reads with their defaults. */
    cl_settings_default(&t);
    const char *old = "name = Ada\nwindow = 1280x720\nfullscreen = 0\n";
    assert_int_equal(cl_settings_parse(&t, old, strlen(old), msg, sizeof msg), 0);
    assert_int_equal(t.volume, 70);
    assert_int_equal(t.ui_scale, 100);
}

static void put(const char *dir, const char *name, const char *text)
{
    char p[600];
    snprintf(p, sizeof p, "%s%s", dir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static bool has(const char *dir, const char *name, const char *text)
{
    char p[600], buf[256] = "";
    snprintf(p, sizeof p, "%s%s", dir, name);
    FILE *f = fopen(p, "rb");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strcmp(buf, text) == 0;
}

static void test_migrate_from_doubled_folder(void **ctx)
{
    (void)ctx;
    char root[] = "/tmp/mr_prefs_XXXXXX";
    assert_non_null(mkdtemp(root));
    char nw[300], old[300];
    snprintf(nw, sizeof nw, "%s/", root);
    snprintf(old, sizeof old, "%s/mazerace/", root);
    assert_int_equal(mkdir(old, 0700), 0);
    put(old, "settings.txt", "name = Old\n");
    put(old, "history.sqlite", "H");
    put(old, "history.sqlite-wal", "W");
    assert_int_equal(cl_prefdir_migrate(old, nw), 3);
    assert_true(has(nw, "settings.txt", "name = Old\n"));
    assert_true(has(nw, "history.sqlite", "H"));
    assert_true(has(nw, "history.sqlite-wal", "W"));
    assert_int_equal(access(old, F_OK), -1); /* emptied, so removed */
    /* The settings read from the new place as they were. */
    char path[400], msg[200];
    snprintf(path, sizeof path, "%ssettings.txt", nw);
    cl_settings s;
    assert_null(cl_settings_load(&s, path, msg, sizeof msg));
    assert_string_equal(s.name, "Old");
    /* Both folders have files: the new ones win, the old stay untouched
     * (and so does the old folder, with the player's other files). */
    assert_int_equal(mkdir(old, 0700), 0);
    put(old, "settings.txt", "name = Older\n");
    put(old, "history.sqlite-shm", "S");
    put(old, "notes.txt", "mine");
    assert_int_equal(cl_prefdir_migrate(old, nw), 0);
    assert_true(has(nw, "settings.txt", "name = Old\n"));
    assert_true(has(old, "settings.txt", "name = Older\n"));
    assert_true(has(old, "history.sqlite-shm", "S")); /* stays with the old history's place */
    assert_false(has(nw, "history.sqlite-shm", "S"));
    assert_true(has(old, "notes.txt", "mine"));
    /* Nothing to move: nothing happens. */
    assert_int_equal(cl_prefdir_migrate("/tmp/mr_prefs_no_such_dir/", nw), 0);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

/* The real lookup, in a data folder of our own (XDG_DATA_HOME): the old
 * doubled folder's settings arrive in the new one on first use. */
static void test_prefdir_moves_old_settings_up(void **ctx)
{
    (void)ctx;
    char root[] = "/tmp/mr_prefx_XXXXXX";
    assert_non_null(mkdtemp(root));
    setenv("XDG_DATA_HOME", root, 1);
    char dir[300], old[300];
    snprintf(dir, sizeof dir, "%s/mazerace/", root);
    snprintf(old, sizeof old, "%s/mazerace/mazerace/", root);
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(mkdir(old, 0700), 0);
    put(old, "settings.txt", "name = Moved\n");
    char got[400];
    assert_true(cl_prefdir(got, sizeof got));
    assert_string_equal(got, dir);
    assert_true(has(dir, "settings.txt", "name = Moved\n"));
    assert_int_equal(access(old, F_OK), -1);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

static void test_path_shown_with_tilde(void **ctx)
{
    (void)ctx;
    char out[200];
    cl_prefdir_show("/home/ada/.local/share/mazerace/settings.txt", "/home/ada", out, sizeof out);
    assert_string_equal(out, "~/.local/share/mazerace/settings.txt");
    cl_prefdir_show("/home/ada/.local/share/mazerace/settings.txt", "/home/ada/", out, sizeof out);
    assert_string_equal(out, "~/.local/share/mazerace/settings.txt");
    cl_prefdir_show("/home/adam/x/settings.txt", "/home/ada", out, sizeof out); /* not a prefix folder */
    assert_string_equal(out, "/home/adam/x/settings.txt");
    cl_prefdir_show("/srv/settings.txt", NULL, out, sizeof out);
    assert_string_equal(out, "/srv/settings.txt");
    cl_prefdir_show("/settings.txt", "/", out, sizeof out);
    assert_string_equal(out, "/settings.txt");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_keys_round_trip_and_refuse),
        cmocka_unit_test(test_coordinator_setting),
        cmocka_unit_test(test_migrate_from_doubled_folder),
        cmocka_unit_test(test_prefdir_moves_old_settings_up),
        cmocka_unit_test(test_path_shown_with_tilde),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
