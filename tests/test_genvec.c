/* test_genvec.c: every test vector in docs/generation.md (RNG and each kind x difficulty) against the engine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "genvec.h"
#include "puzzle.h"
#include "util.h"

/* Parses the ```vectors block and recomputes each line; a kind x
 * difficulty that has no vector fails too. */
static void test_doc_vectors(void **ctx)
{
    (void)ctx;
    char *text = mr_read_file(MR_SOURCE_DIR "/docs/generation.md", NULL);
    assert_non_null(text);
    char *a = strstr(text, "```vectors\n");
    assert_non_null(a);
    char *end = strstr(a + 11, "```\n");
    assert_non_null(end);
    *end = '\0';
    bool seen[PZ_KIND_COUNT][PZ_DIFF_COUNT] = {{false}};
    int rng_lines = 0, puzzle_lines = 0, bad = 0;
    for (char *line = a + 11; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (strncmp(line, "rng seed=", 9) == 0) {
            uint64_t seed = strtoull(line + 9, NULL, 10);
            char want[512];
            genvec_rng_line(seed, want, sizeof want);
            if (strcmp(want, line) != 0) {
                print_error("doc:    %s\nengine: %s\n", line, want);
                bad++;
            }
            rng_lines++;
        } else if (*line) {
            char id[128];
            size_t k = strcspn(line, " ");
            assert_true(k < sizeof id);
            memcpy(id, line, k);
            id[k] = '\0';
            char err[200];
            char *want = genvec_puzzle_line(id, err, sizeof err);
            if (!want) {
                print_error("%s: %s\n", id, err);
                bad++;
            } else if (strcmp(want, line) != 0) {
                print_error("doc:    %s\nengine: %s\n", line, want);
                bad++;
            }
            free(want);
            pz_id pid;
            if (!pz_id_parse(id, &pid, err, sizeof err))
                seen[pid.params.kind][pid.params.diff] = true;
            puzzle_lines++;
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    if (bad)
        print_error("%d vector(s) differ: regenerate with `mazerace-gen vectors docs/generation.md` "
                    "if the generator change is intended (and see Compatibility there)\n",
                    bad);
    assert_int_equal(bad, 0);
    assert_true(rng_lines >= 2);
    assert_true(puzzle_lines >= PZ_KIND_COUNT * PZ_DIFF_COUNT * 3);
    for (int k = 0; k < PZ_KIND_COUNT; k++)
        for (int d = 0; d < PZ_DIFF_COUNT; d++)
            if (!seen[k][d])
                fail_msg("no vector for %s %s", pz_kind_by_id(k)->name, pz_difficulty_name(d));
}

/* The tool's list covers every kind and difficulty with several seeds. */
static void test_tool_list(void **ctx)
{
    (void)ctx;
    int per[PZ_KIND_COUNT][PZ_DIFF_COUNT] = {{0}};
    for (int i = 0; genvec_ids[i]; i++) {
        pz_id id;
        char err[160];
        assert_null(pz_id_parse(genvec_ids[i], &id, err, sizeof err));
        per[id.params.kind][id.params.diff]++;
    }
    for (int k = 0; k < PZ_KIND_COUNT; k++)
        for (int d = 0; d < PZ_DIFF_COUNT; d++)
            assert_true(per[k][d] >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doc_vectors),
        cmocka_unit_test(test_tool_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
