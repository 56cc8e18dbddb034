/* cl_backend.h: where a race's authority lives, behind one small table of
 * functions: in-process (match engine: hotseat, vs computer) or network
 * (cl_net: join, host). Scenes see only cl_event values and these calls. */
#ifndef CL_BACKEND_H
#define CL_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "match.h"
#include "puzzle.h"

enum cl_ev_type {
    CL_BE_LOBBY = 1,     /* room, names or ready flags changed: re-read cl_backend */
    CL_BE_COUNTDOWN,     /* a puzzle is fixed: re-read puzzle(); race at start_ms */
    CL_BE_START,         /* the race is on */
    CL_BE_ACK,           /* local slot's move seq accepted */
    CL_BE_REJECT,        /* local slot's move seq refused: text */
    CL_BE_PROGRESS,      /* a remote slot played move: moves, progress */
    CL_BE_FINISHED,      /* result */
    CL_BE_OPP_DROPPED,   /* slot (the opponent, or a watched player) dropped and may come back */
    CL_BE_OPP_BACK,      /* ... and is back */
    CL_BE_REMATCH_ASKED, /* slot asked for a rematch */
    CL_BE_RESYNC,        /* states were rebuilt (resume): re-read state() */
    CL_BE_INFO,          /* text for the player; the game goes on */
    CL_BE_ERROR,         /* text for the player; the backend is finished */
    CL_BE_BEST,          /* ask_best answered: best_ms (0: none), text the name; moves
                            -1 (UINT32_MAX) when the server keeps no records */
};

typedef struct cl_event {
    int type;
    int slot;
    uint32_t seq;
    pz_move move;
    uint32_t moves;
    pz_progress progress;
    uint64_t start_ms; /* app clock */
    match_result result;
    uint64_t best_ms; /* BEST */
    char text[256];
} cl_event;

/* The events a backend has made, waiting for the scene's poll: a ring of a
 * fixed size, zeroed when empty. The scene polls every frame and 64 is far
 * more than a frame makes: an event past that is dropped. */
typedef struct cl_event_queue {
    cl_event q[64];
    int head, n;
} cl_event_queue;
void cl_event_queue_push(cl_event_queue *q, const cl_event *ev);
/* The oldest event into ev; false when there is none. */
bool cl_event_queue_pop(cl_event_queue *q, cl_event *ev);

typedef struct cl_backend cl_backend;

typedef struct cl_backend_ops {
    /* Time passes: network I/O, bot moves, countdown. */
    void (*update)(cl_backend *b, uint64_t now_ms);
    bool (*poll)(cl_backend *b, cl_event *ev);
    /* A local slot plays mv with sequence number seq. */
    void (*move)(cl_backend *b, int slot, uint32_t seq, pz_move mv, uint64_t now_ms);
    void (*ready)(cl_backend *b, uint64_t now_ms);
    void (*rematch)(cl_backend *b, uint64_t now_ms);
    /* The current puzzle (owned by the backend; NULL before a countdown). */
    const pz_puzzle *(*puzzle)(cl_backend *b);
    /* The authority's view of slot's state, or NULL if it has none here. */
    const pz_state *(*state)(cl_backend *b, int slot);
    void (*destroy)(cl_backend *b); /* leaves politely and frees */
    /* Asks the authority for the best time on game_id; answered by a
     * CL_BE_BEST event. NULL when the authority keeps no records (local). */
    void (*ask_best)(cl_backend *b, const char *game_id);
} cl_backend_ops;

/* What every backend shows the lobby and race screens. */
struct cl_backend {
    const cl_backend_ops *ops;
    int my_slot;      /* the slot this screen plays (hotseat: 0) */
    bool hotseat;     /* both slots are played on this machine */
    char name[2][32]; /* by slot; "" while empty */
    bool ready[2];
    bool ready_pending; /* ready was asked before the room answered */
    char room[16];      /* room code to share, "" for local play */
    int ping_ms;        /* -1 when local */
    char game_id[160];
    int series_len;
    bool watching;     /* a spectator: my_slot is -1, both slots are remote */
    int spectators;    /* watching the room, as its last state said */
    uint32_t moves[2]; /* the moves in each slot's state() (re-read with CL_BE_RESYNC) */
    /* The network backend in a countdown or race: the app ms the server
     * fell silent (0: the link is fine) and, while it is, the seconds it
     * keeps trying to get back before giving up. */
    uint64_t lost_at;
    int lost_left_s;
    /* The server is gone but the game's result stands (the host left, or
     * the race ended while this player was away): the results stay on
     * screen, nothing more can be asked of the server. */
    bool closed;
    char closed_why[96]; /* ... and why, for the results ("The host left the race.") */
    bool have_params;    /* the room said what it races (network lobby) */
    pz_params params;
    /* Internet play (docs/nat.md), "" where none. Hosting with a
     * coordinator: the invite code and what the coordinator, the router and
     * the last joiner's ways in said. Joining by code: the path, while it is
     * being found, then which one connected ("hole punching to ADDR,
     * connected in 230 ms"). */
    char invite[12];
    bool invite_failed; /* no code: invite_coord says why */
    char invite_coord[200], invite_router[200], invite_joiner[200];
    char route[400];
    char route_how[24]; /* connected by code: "direct", "port mapping", "hole punching", "TURN relay" */
};

void cl_backend_destroy(cl_backend *b); /* accepts NULL */

/* In-process match. game_id as accepted by pz_id_parse; names for slots
 * 0 and 1. bot_level >= 0 (enum bot_level) makes slot 1 a computer player
 * of that level; else bot_ms_per_move > 0 a computer at that fixed pace
 * and mistake rate (the deprecated --bot-pace); neither makes it hotseat.
 * NULL with a message in err. */
cl_backend *cl_backend_local(const char *game_id, const char *name0, const char *name1, int bot_level,
                             uint32_t bot_ms_per_move, double bot_mistakes, int series_len, uint64_t seed,
                             uint64_t now_ms, char *err, size_t errlen);

/* The words a player reads for a server's error or refusal code (enum
 * wire_err); text is the server's own text, used for codes without words. */
const char *cl_wire_error_words(int code, const char *text);

/* Network backend: connects to host:port as name and then creates a room
 * on game_id (create_id != NULL), joins room code (room != NULL) or asks for
 * a quick match. server, if not NULL, is an in-process server (sv.h) the
 * backend owns and drives ("Host a LAN game"). auto_ready readies as soon
 * as the room is joined. NULL with a message in err. */
cl_backend *cl_backend_net(const char *address, const char *name, const char *create_id, int series_len,
                           const char *room, bool auto_ready, void *server, uint64_t now_ms, char *err,
                           size_t errlen);

/* Network backend joining a friend's game by invite code ("+K7MP9NXA")
 * through the coordinator at coordinator ("HOST[:PORT]"): the lookup and
 * every path (cl_dial.h) run in update, the lobby shows how far they are
 * (route), then the room is joined as with an address. A failure is an
 * ERROR naming what was tried. NULL with a message in err (bad code, no
 * coordinator, a name that does not resolve). */
cl_backend *cl_backend_net_code(const char *code, const char *coordinator, const char *name, bool auto_ready,
                                uint64_t now_ms, char *err, size_t errlen);
/* Hosting (a backend made with a server): registers that server's game with
 * the coordinator ("HOST[:PORT]") under name with this computer's LAN
 * addresses (IPv4, host order; up to 4), asks the router for the port
 * (portmap) and answers introductions (cl_invite.h), shown in invite*.
 * NULL or why not. */
const char *cl_backend_net_invite(cl_backend *b, const char *coordinator, const char *name,
                                  const uint32_t *lan, int n_lan, bool portmap);

/* Network backend for a spectator: connects to address as name and
 * watches room code `room`, or (room NULL or "") the first race the
 * server lists, asking again every second until there is one. */
cl_backend *cl_backend_watch(const char *address, const char *name, const char *room, uint64_t now_ms,
                             char *err, size_t errlen);

#endif
