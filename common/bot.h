/* bot.h: a computer player's brain: its next move at a person's pace or a set one; no I/O, no clock. */
#ifndef MR_BOT_H
#define MR_BOT_H

#include <stdbool.h>
#include <stdint.h>

#include "puzzle.h"

/* The bot keeps its own copy of the player state: each move it returns is
 * already applied to that copy (it predicts acceptance, as a client does).
 * It plays the kind's solve() plan; with the mistake rate it now and then
 * plays a legal move off the plan instead (never one that makes the puzzle
 * unsolvable) and then re-solves from where it stands. If the host's
 * authoritative state differs (a move was rejected, a resume replayed the
 * log), bot_sync puts the bot back on it. Deterministic: same puzzle, seed
 * and call times, same moves. Used by mazerace-bot and the client's "vs
 * computer" mode. */

typedef struct bot bot;

/* A bot for pz (which it does not own; pz must outlive the bot), playing
 * one move every ms_per_move (>= 1) with probability mistake_rate (clamped to
 * 0..1) of a wrong move, drawing from an rng seeded with seed. NULL with
 * *err (static) if pz cannot be solved from the start. */
bot *bot_create(const pz_puzzle *pz, uint32_t ms_per_move, double mistake_rate, uint64_t seed,
                const char **err);
/* A bot playing like a person of level (enum bot_level, bot_model.h;
 * docs/bot.md): it reads the board, thinks at each decision for a time
 * scaled by the kind's difficulty, makes mistakes and corrects them. Same
 * puzzle, level, seed and call times: same moves at the same times. NULL
 * with *err for a bad level or an unsolvable puzzle. */
bot *bot_create_level(const pz_puzzle *pz, int level, uint64_t seed, const char **err);
/* The same for a puzzle of kind k, which may be outside the registry (a
 * test's kind); bot_create uses pz_kind_of(pz). */
bot *bot_create_with_kind(const pz_kind *k, const pz_puzzle *pz, uint32_t ms_per_move, double mistake_rate,
                          uint64_t seed, const char **err);
void bot_destroy(bot *b); /* accepts NULL */

/* The race starts at start_ms: the first move is due at start_ms + pace. */
void bot_start(bot *b, uint64_t start_ms);
/* When a move is due at now_ms and the bot has not solved: true, *out the
 * move (already applied to the bot's state). Otherwise false. At most one
 * move per call; after a late call the next move is due one pace later, so
 * moves never bunch up. */
bool bot_next_move(bot *b, uint64_t now_ms, pz_move *out);
/* Host time of the next move, or UINT64_MAX when solved or not started. */
uint64_t bot_next_due(const bot *b);
/* Replaces the bot's state with st (a state of the same puzzle) and
 * re-solves from it. */
void bot_sync(bot *b, const pz_state *st);

const pz_state *bot_state(const bot *b);
bool bot_solved(const bot *b);
uint32_t bot_moves(const bot *b);    /* moves returned so far */
uint32_t bot_mistakes(const bot *b); /* of which off the plan */
/* A level bot: ms spent so far reading the board and thinking (the
 * rest of its time is key presses and pointing); 0 at a fixed pace. */
uint64_t bot_thought_ms(const bot *b);

#endif
