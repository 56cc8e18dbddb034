/* bot_model.h: the computer's levels as a model of a person's solving time per kind (docs/bot.md). */
#ifndef MR_BOT_MODEL_H
#define MR_BOT_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "puzzle.h"

/* The opponent levels offered to players, slowest first, and a reference
 * that is never offered: an estimated first-time player built from the
 * Keystroke-Level Model's published operator times (docs/bot.md), which
 * the bench prints beside the levels so "beginner is slower than a
 * first-time player" is a figure, not a claim. */
enum bot_level {
    BOT_BEGINNER,
    BOT_CASUAL,
    BOT_STRONG,
    BOT_EXPERT,
    BOT_LEVEL_COUNT,
    BOT_FIRST_TIMER = BOT_LEVEL_COUNT
};
#define BOT_LEVEL_DEFAULT BOT_BEGINNER

/* One level's person, all times in ms. A decision costs think_ms times the
 * kind's difficulty (bot_model_difficulty) times a jitter of 0.5..1.5; a
 * decision goes wrong with probability mistake times the same difficulty
 * (at most 0.6), and a wrong move is followed by another wrong one with
 * the kind's follow probability (walking on into a dead end, tracing on
 * along a wrong path); the first right move after that costs notice_ms. */
typedef struct bot_model {
    const char *name;
    uint32_t read_ms;          /* looking the board over before the first move */
    uint32_t read_per_cell_us; /* ... plus this per cell */
    uint32_t read_cap_ms;      /* ... at most this in all */
    uint32_t motor_ms;         /* one key press (a step, a slide, a turn) */
    uint32_t point_ms;         /* pipes: bringing the cursor to another tile */
    uint32_t think_ms;         /* one decision at difficulty 1 */
    uint32_t notice_ms;        /* seeing that a move was wrong */
    double mistake;            /* chance a decision goes wrong at difficulty 1 */
} bot_model;

/* Level by enum bot_level (BOT_FIRST_TIMER included); NULL if out of range. */
const bot_model *bot_model_for(int level);
/* "beginner", "casual", "strong", "expert" (and "first-time" for the
 * reference); "?" if out of range. */
const char *bot_level_name(int level);
/* The offered level named name (case-insensitive), or -1. */
int bot_level_by_name(const char *name);

/* The kind's own difficulty measure of pz turned into the factor on
 * thinking time and mistakes (1 is an average medium board). */
double bot_model_difficulty(const pz_puzzle *pz);
/* Chance that a wrong move is followed by another for pz's kind. */
double bot_model_follow(const pz_puzzle *pz);
/* Share of a full decision's thinking (and of the reading) that pz's kind takes. */
double bot_model_think_scale(const pz_puzzle *pz);
/* Whether playing mv from st is a decision a person stops to think about
 * (a maze junction, any slide, a sum step that is not an undo, a turn of
 * a tile other than the last one turned: prev, or type 0 if none). */
bool bot_model_is_decision(const pz_puzzle *pz, const pz_state *st, pz_move mv, pz_move prev);

#endif
