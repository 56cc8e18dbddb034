/* wire_dict.c: prints fuzz_wire's libFuzzer dictionary, made from common/wire_msgs.h (every type, every field
 * kind). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "wire.h"
#include "wire_msgs.h"

static void entry(const char *name, const void *bytes, size_t n)
{
    const unsigned char *b = bytes;
    printf("%s=\"", name);
    for (size_t i = 0; i < n; i++)
        printf("\\x%02X", b[i]);
    printf("\"\n");
}

/* A value of each field kind that passes the reader's checks, so the
 * fuzzer can splice whole valid fields; each kind once. */
static bool missing; /* a kind of wire_msgs.h with no token here */

static void kind_token(const char *kind)
{
    static const struct {
        const char *kind;
        const char *bytes;
        size_t n;
    } tokens[] = {
        {"RANGE8", "\x01", 1},
        {"SLOT_OR_NONE", "\xFF", 1},
        {"PORT", "\x6C\x16", 2},
        {"ID", "\x00\x00\x00\x00\x00\x00\x00\x01", 8},
        {"CODE", "AB3XY", 5},
        {"TEXT", "\x04text", 5},
        {"NAME",
         "\x03"
         "ann",
         4},
        {"MOVE", "\x01\x02\x00\x03\x00\x04", 6},
        {"PARAMS", "\x02\x00\x19\x00\x14\x02", 6},
        {"GAME_ID",
         "\x00\x13"
         "ice:25x20:hard#1234",
         21},
        {"BOOL", "\x01", 1},
        {"PLAYER",
         "\x0F\x03"
         "bob",
         5},
        {"HELLO",
         "MZRC\x00\x05\x03"
         "ann",
         10},
        {"CREATE", "\x01\x03", 2},
        {"LOG_MOVES", "\x00\x01\x01\x01\x00\x00\x00\x00\x00", 9},
        {"U8", "\x00", 1},
        {"U16", "\xFF\xFF", 2},
        {"U32", "\x00\x00\x01\x00", 4},
        {"U64", "\x80\x00\x00\x00\x00\x00\x00\x00", 8},
        {"I16", "\xFF\xFF", 2},
        {"I32", "\xFF\xFF\xFB\x2E", 4},
        {"TOKEN", "\xF0\xEF\xEE\xED\xEC\xEB\xEA\xE9\xE8\xE7\xE6\xE5\xE4\xE3\xE2\xE1", 16},
        {"DESC_BYTES",
         "\x00\x03"
         "a:b",
         5},
        {"ROOMS",
         "\x01"
         "ABCDE\x02",
         7},
        {"REPLAY_BYTES", "\x00\x00\x00\x00\x00\x00\x00\x00\x2A\x00\x00\x00\x01\x00\x00\x00\x00\x00\x01\x0A",
         20},
        {"RECENT_ENTRIES", "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 10},
        {"BEST_GAME_ID", "\x00\x00", 2},
        {"BEST_ENTRIES", "\x00\x00", 2},
    };
    static bool done[sizeof tokens / sizeof tokens[0]];
    bool known = false;
    for (size_t i = 0; i < sizeof tokens / sizeof tokens[0]; i++) {
        if (strcmp(tokens[i].kind, kind) != 0)
            continue;
        known = true;
        if (!done[i]) {
            char name[32];
            snprintf(name, sizeof name, "kind_%s", kind);
            entry(name, tokens[i].bytes, tokens[i].n);
            done[i] = true;
        }
    }
    if (!known) {
        fprintf(stderr, "wire_dict: field kind %s has no dictionary token\n", kind);
        missing = true;
    }
}

#define DICT_FIELD(kind, ...) kind_token(#kind);
#define DICT_MSG(name, member, fields)                                                                       \
    {                                                                                                        \
        unsigned char t = WIRE_##name;                                                                       \
        entry("type_" #name, &t, 1);                                                                         \
        fields(DICT_FIELD, member) /* the field names are dropped */                                         \
    }

int main(void)
{
    printf("# fuzz_wire.dict: made by tests/fuzz/wire_dict.c from common/wire_msgs.h\n");
    WIRE_MESSAGES(DICT_MSG)
    unsigned char bundle = WIRE_BUNDLE;
    entry("type_BUNDLE", &bundle, 1);
    entry("magic_probe", "MZRP", 4);
    entry("magic_reply", "MZRA", 4);
    entry("magic_details", "MZRX", 4);
    return missing ? 1 : 0;
}
