/* st_sqlite_schema.c: the SQLite store's schema, one migration step per version. */
#include "st_sqlite.h"

/* Each step is run inside one transaction by st_sqlite.c, which then sets
 * PRAGMA user_version to the step's target; a store at any earlier version
 * is brought to ST_SQLITE_VERSION at open. Steps are never edited once
 * released: a change is a new step (tests/test_store.c opens a file made at
 * every earlier version). The layout is documented in docs/server.md. */
const char *const st_sqlite_migration[ST_SQLITE_VERSION] = {
    /* 0 -> 1: the tables. A match is one row; its two players one row each;
     * every accepted move one row (seq = order of acceptance). Texts for
     * the enums so that the file reads well in the sqlite3 shell. */
    "PRAGMA application_id = 1836741219;" /* ST_SQLITE_APP_ID */
    "CREATE TABLE matches ("
    " id INTEGER PRIMARY KEY,"
    " game_id TEXT NOT NULL,"
    " desc_id TEXT NOT NULL,"
    " desc_hash INTEGER NOT NULL," /* the uint64 hash stored as its two's complement int64 */
    " kind TEXT NOT NULL,"
    " width INTEGER NOT NULL,"
    " height INTEGER NOT NULL,"
    " difficulty TEXT NOT NULL,"
    " started_ms INTEGER NOT NULL," /* UTC, ms since 1970 */
    " winner INTEGER NOT NULL CHECK (winner IN (-1, 0, 1)),"
    " ending TEXT NOT NULL CHECK (ending IN ('solved', 'forfeit', 'both_left', 'aborted')),"
    " game_no INTEGER NOT NULL,"
    " series_len INTEGER NOT NULL);"
    "CREATE TABLE players ("
    " match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,"
    " slot INTEGER NOT NULL CHECK (slot IN (0, 1)),"
    " name TEXT NOT NULL,"
    " time_ms INTEGER NOT NULL,"
    " moves INTEGER NOT NULL,"
    " solved INTEGER NOT NULL CHECK (solved IN (0, 1)),"
    " result TEXT NOT NULL CHECK (result IN ('lost', 'won', 'none')),"
    " PRIMARY KEY (match_id, slot)) WITHOUT ROWID;"
    "CREATE TABLE moves ("
    " match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL,"
    " slot INTEGER NOT NULL CHECK (slot IN (0, 1)),"
    " ms INTEGER NOT NULL,"
    " type INTEGER NOT NULL,"
    " dir INTEGER NOT NULL,"
    " x INTEGER NOT NULL,"
    " y INTEGER NOT NULL,"
    " PRIMARY KEY (match_id, seq)) WITHOUT ROWID;",

    /* 1 -> 2: where a race was played (the game keeps hotseat, vs-computer
     * and online races in the same schema; every version-1 row came from a
     * server), and the indexes the ranking queries need: best times on a
     * puzzle (by game ID or description hash) and a name's personal best
     * would otherwise scan every player row. */
    "ALTER TABLE matches ADD COLUMN mode TEXT NOT NULL DEFAULT 'server';"
    "CREATE INDEX matches_by_game_id ON matches (game_id);"
    "CREATE INDEX matches_by_desc_hash ON matches (desc_hash);"
    "CREATE INDEX players_by_name ON players (name, solved, time_ms);",

    /* 2 -> 3: each record's own key (st_match.key): a record delivered
     * twice is stored once. Older rows have none (NULL: not unique). */
    "ALTER TABLE matches ADD COLUMN rec_key TEXT;"
    "CREATE UNIQUE INDEX matches_by_key ON matches (rec_key);",
};
