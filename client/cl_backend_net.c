/* cl_backend_net.c: the network backend over cl_net (join, quick match, and
 * hosting with an in-process server). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_backend.h"
#include "util.h"
#include "wire.h"

const char *cl_wire_error_words(int code, const char *text)
{
    switch (code) {
    case WIRE_ERR_VERSION:
        return "Version mismatch: this game and the server are different versions. Update the older one.";
    case WIRE_ERR_FULL: /* beyond "server full", the server says which limit (e.g. players per address) */
        return text && text[0] && strcmp(text, "server full") != 0
                   ? text
                   : "The server is full. Try again later or another server.";
    case WIRE_ERR_NO_ROOM:
        return "Unknown room code. Check the code and try again.";
    case WIRE_ERR_ROOM_FULL:
        return "That room is full: two players are already in it.";
    case WIRE_ERR_BAD_NAME:
        return "The server refused your name. Change it in Settings.";
    case WIRE_ERR_BAD_PARAMS: /* the server says which limit: that is the useful part */
        return text && text[0] ? text : "The server refused that puzzle or series.";
    case WIRE_ERR_TOO_MANY_ROOMS:
        return "The server has no room for another game right now.";
    case WIRE_ERR_RESUME:
        return "Could not get back into the game: its grace period is over, or it has closed.";
    case WIRE_ERR_BUSY:
        return "The server is busy making puzzles. Try again in a few seconds.";
    case WIRE_ERR_MEMORY: /* the server says whether it is full or the board too big for you */
        return text && text[0] ? text
                               : "The server has no memory left for a board that size. Try a smaller one.";
    case WIRE_ERR_DRAINING:
        return "The server is restarting and takes no new games right now. Try again in a minute.";
    case WIRE_ERR_WATCH_FULL: /* the server says whether the room or the server is full */
        return text && text[0] ? text : "No more spectators fit in that room.";
    default:
        return text && text[0] ? text : "The server reported an error.";
    }
}

#if defined(MR_HAVE_CLNET)
#include "cl_net.h"
#if defined(MR_HAVE_SERVER)
#include "sv.h"
#endif
#if defined(MR_HAVE_CLNAT)
#include "cl_coord.h"
#include "cl_dial.h"
#include "cl_invite.h"
#endif

/* A server silent for LOST_MS in a race is shown as lost (a live one
 * answers ENet's pings every half second); after GONE_MS the connection is
 * dropped and the seat resumed on a new one. */
enum { CONNECT_TIMEOUT_MS = 5000, SEQMAP = 512, LOST_MS = 1000, GONE_MS = 5000, RESUME_WINDOW_MS = 30000 };

typedef struct netbe {
    cl_backend base; /* first: the table functions cast back */
    cl_net_t *n;
    void *server;
    char host[128];
    int port;
    char create_id[160];
    int series;
    char room_code[16];
    bool auto_ready, connected, in_room, started, failed;
    bool watch;            /* a spectator (cl_backend_watch) */
    uint64_t relist_at;    /* watching any race: when to ask for the list again, 0 = not */
    bool seen[2], conn[2]; /* each player as the last room state showed them */
    bool ended;            /* MATCH_END of the current game came (in event order) */
    bool lost_ended;       /* ... before the connection was lost */
    uint64_t connect_at, start_ms;
    /* The race module numbers its moves; cl_net numbers what it sends. */
    uint32_t map_race[SEQMAP], map_net[SEQMAP];
    int nmap;
    uint32_t best_req; /* the best-time question in flight, 0 none */
#if defined(MR_HAVE_CLNAT)
    cl_dial_t *dial;     /* joining by code: the lookup and paths, until n is connected */
    cl_hub_t *hub;       /* ... then the hub n lives in (ours: serviced in update) */
    cl_invite_t *invite; /* hosting with a coordinator */
#endif
    cl_event_queue evq; /* translated events waiting for poll */
} netbe;

static void push_text(netbe *nb, int type, const char *text)
{
    cl_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type;
    snprintf(ev.text, sizeof ev.text, "%s", text);
    cl_event_queue_push(&nb->evq, &ev);
    if (type == CL_BE_ERROR)
        nb->failed = true;
}

/* The server is gone but the game's result stands: said once, kept for
 * the results screen. */
static void close_with(netbe *nb, const char *why)
{
    nb->base.closed = true;
    snprintf(nb->base.closed_why, sizeof nb->base.closed_why, "%.90s", why);
    push_text(nb, CL_BE_INFO, why);
}

static void refresh_room(netbe *nb)
{
    const wire_room_state *rs = cl_net_room(nb->n);
    if (!rs)
        return;
    /* The room state says when a player drops and comes back; during a
     * countdown or race the screen marks them (the opponent's, or either
     * one a spectator watches). */
    for (int s = 0; s < 2; s++) {
        bool present = rs->player[s].present, connected = rs->player[s].connected;
        bool other = nb->watch || s != (rs->your_slot & 1);
        if (other && present && nb->seen[s] && connected != nb->conn[s] &&
            (rs->phase == MATCH_COUNTDOWN || rs->phase == MATCH_RACING)) {
            cl_event ev;
            memset(&ev, 0, sizeof ev);
            ev.type = connected ? CL_BE_OPP_BACK : CL_BE_OPP_DROPPED;
            ev.slot = s;
            cl_event_queue_push(&nb->evq, &ev);
        }
        nb->seen[s] = present;
        nb->conn[s] = connected;
    }
    snprintf(nb->base.room, sizeof nb->base.room, "%s", rs->code);
    nb->base.my_slot = nb->watch ? -1 : rs->your_slot & 1;
    nb->base.series_len = rs->series_len;
    nb->base.spectators = rs->spectators;
    nb->base.params = rs->params;
    nb->base.have_params = rs->params.w > 0 && rs->params.h > 0;
    for (int s = 0; s < 2; s++) {
        snprintf(nb->base.name[s], sizeof nb->base.name[s], "%s",
                 rs->player[s].present ? rs->player[s].name : "");
        nb->base.ready[s] = rs->player[s].ready;
    }
}

static uint32_t take_race_seq(netbe *nb, uint32_t net_seq)
{
    for (int i = 0; i < nb->nmap; i++)
        if (nb->map_net[i] == net_seq) {
            uint32_t r = nb->map_race[i];
            nb->nmap--;
            nb->map_net[i] = nb->map_net[nb->nmap];
            nb->map_race[i] = nb->map_race[nb->nmap];
            return r;
        }
    return 0;
}

static void set_moves(netbe *nb)
{
    for (int s = 0; s < 2; s++)
        nb->base.moves[s] = cl_net_board_moves(nb->n, s);
}

/* Watching any race: the first one listed, or ask again in a second. */
static void watch_listed(netbe *nb, uint64_t now)
{
    const wire_room_list *l = cl_net_room_list(nb->n);
    if (!l || l->count == 0) {
        if (!nb->relist_at)
            push_text(nb, CL_BE_INFO, "No race on this server yet: waiting for one to start...");
        nb->relist_at = now + 1000;
        return;
    }
    nb->relist_at = 0;
    snprintf(nb->room_code, sizeof nb->room_code, "%s", l->room[0].code);
    const char *why = cl_net_watch(nb->n, nb->room_code);
    if (why)
        push_text(nb, CL_BE_ERROR, why);
}

/* The handshake is done: into the room asked for. */
static void on_connected(netbe *nb)
{
    nb->connected = true;
    const char *why;
    if (nb->watch)
        why = nb->room_code[0] ? cl_net_watch(nb->n, nb->room_code) : cl_net_list_rooms(nb->n);
    else if (nb->create_id[0])
        why = cl_net_create_room_id(nb->n, nb->create_id, nb->series);
    else if (nb->room_code[0])
        why = cl_net_join_room(nb->n, nb->room_code);
    else
        why = cl_net_quick_match(nb->n);
    if (why)
        push_text(nb, CL_BE_ERROR, why);
}

static void on_event(netbe *nb, const cl_net_event *e, uint64_t now)
{
    cl_event ev;
    memset(&ev, 0, sizeof ev);
    switch (e->type) {
    case CL_EV_CONNECTED:
        on_connected(nb);
        return;
    case CL_EV_REFUSED:
        push_text(nb, CL_BE_ERROR, cl_wire_error_words(e->code, e->text));
        return;
    case CL_EV_ROOM_JOINED:
        nb->in_room = true;
        refresh_room(nb);
        /* On stdout too, so a host at a terminal (and tests) can pass it on;
         * a spectator's port says whether it went to the spectator port. */
        if (nb->watch)
            printf("mazerace: watching room %s at server port %d\n", nb->base.room, cl_net_port(nb->n));
        else
            printf("mazerace: room code %s\n", nb->base.room);
        fflush(stdout);
        if (nb->auto_ready)
            cl_net_ready(nb->n, true);
        nb->base.ready_pending = false;
        ev.type = CL_BE_LOBBY;
        break;
    case CL_EV_LOBBY:
        refresh_room(nb);
        ev.type = CL_BE_LOBBY;
        break;
    case CL_EV_MATCH_START:
        refresh_room(nb);
        nb->base.my_slot = nb->watch ? -1 : e->slot & 1;
        snprintf(nb->base.game_id, sizeof nb->base.game_id, "%s",
                 cl_net_game_id(nb->n) ? cl_net_game_id(nb->n) : "");
        nb->start_ms = e->start_ms;
        nb->started = false;
        nb->ended = false;
        nb->nmap = 0;
        ev.type = CL_BE_COUNTDOWN;
        ev.start_ms = e->start_ms;
        break;
    case CL_EV_ACK:
    case CL_EV_REJECT: /* the answer to one of my moves, by its number in this race */
        ev.slot = nb->base.my_slot;
        ev.seq = take_race_seq(nb, e->seq);
        if (e->type == CL_EV_ACK) {
            ev.type = CL_BE_ACK;
            ev.moves = e->moves;
        } else {
            ev.type = CL_BE_REJECT;
            snprintf(ev.text, sizeof ev.text, "%s", e->text[0] ? e->text : "the server refused it");
        }
        break;
    case CL_EV_PROGRESS:
        ev.type = CL_BE_PROGRESS;
        ev.slot = e->progress.slot & 1;
        ev.move = e->progress.move;
        ev.moves = e->progress.moves;
        ev.progress.x = e->progress.x;
        ev.progress.y = e->progress.y;
        ev.progress.path_len = (int)e->progress.path_len;
        ev.progress.value = e->progress.value;
        ev.progress.solved = e->progress.solved;
        break;
    case CL_EV_MATCH_END:
        nb->ended = true;
        ev.type = CL_BE_FINISHED;
        ev.result.winner = e->end.winner <= 1 ? e->end.winner : MATCH_NONE;
        ev.result.reason = e->end.reason;
        for (int s = 0; s < 2; s++) {
            ev.result.time_ms[s] = e->end.time_ms[s];
            ev.result.solved[s] = e->end.solved[s];
            ev.result.moves[s] = e->end.moves[s];
            ev.result.score[s] = e->end.score[s];
        }
        ev.result.game_no = e->end.game_no;
        ev.result.series_len = e->end.series_len;
        ev.result.series_over = e->end.series_over;
        break;
    case CL_EV_REMATCH_OFFER:
        ev.type = CL_BE_REMATCH_ASKED;
        ev.slot = e->slot;
        break;
    case CL_EV_DISCONNECTED:
        if (nb->base.closed)
            return; /* the result on screen stands; nothing more to say */
        if (e->resuming) {
            nb->lost_ended = nb->ended;
            push_text(nb, CL_BE_INFO, "Connection lost - trying to resume...");
            return;
        }
        if (nb->failed)
            return; /* the error just shown (e.g. the server refused the resume) said it */
        if (nb->connected && strncmp(e->text, "could not resume", 16) == 0) {
            /* Say why the way back failed (our resume window ran out). */
            char why[sizeof e->text + 32];
            snprintf(why, sizeof why, "Connection lost; %s.", e->text);
            push_text(nb, CL_BE_ERROR, why);
            return;
        }
        push_text(nb, CL_BE_ERROR, nb->connected ? "Connection lost." : "Server not found or not answering.");
        return;
    case CL_EV_RESUMED:
        nb->nmap = 0;
        push_text(nb, CL_BE_INFO, nb->watch ? "Reconnected - watching again." : "Reconnected - carry on!");
        ev.type = CL_BE_RESYNC;
        set_moves(nb);
        break;
    case CL_EV_CAUGHT_UP:
        ev.type = CL_BE_RESYNC;
        set_moves(nb);
        break;
    case CL_EV_ROOM_LIST:
        watch_listed(nb, now);
        return;
    case CL_EV_WATCH_END:
        nb->in_room = false;
        push_text(nb, CL_BE_INFO, "The players have left: the room is closed.");
        return;
    case CL_EV_BEST:
        if (!e->req || e->req != nb->best_req)
            return;
        nb->best_req = 0;
        ev.type = CL_BE_BEST;
        if (e->code == 0 && e->best && e->best->count > 0) {
            ev.best_ms = e->best->e[0].time_ms;
            snprintf(ev.text, sizeof ev.text, "%s", e->best->e[0].name);
        } else if (e->code != 0) {
            ev.moves = UINT32_MAX; /* no records there (or none readable now) */
        }
        break;
    case CL_EV_SHUTDOWN: {
        /* A hosted game's server says the host left (docs/racing.md); a
         * game that ended keeps its result on screen. */
        char why[sizeof e->text + 8];
        if (strncmp(e->text, "the host ", 9) == 0)
            snprintf(why, sizeof why, "T%s.", e->text + 1);
        else
            snprintf(why, sizeof why, "The server shut down.");
        if (nb->ended && !nb->watch) {
            close_with(nb, why);
        } else {
            push_text(nb, CL_BE_ERROR, why);
        }
        return;
    }
    case CL_EV_ERROR:
        if (nb->base.closed)
            return;
        if (e->code == WIRE_ERR_RESUME && nb->ended && !nb->watch) {
            /* Back too late: the server told how the game ended first. */
            close_with(nb, nb->lost_ended ? "Connection lost; the server no longer holds your seat."
                                          : "The race ended while you were away.");
            return;
        }
        if (e->code == 0 && e->text[0]) {
            /* Our side's problem (e.g. a blocked spectator port), said by
             * cl_net in lower case: a sentence for the player. */
            char s[sizeof e->text + 1];
            size_t n = strlen(e->text);
            snprintf(s, sizeof s, "%c%s%s", toupper((unsigned char)e->text[0]), e->text + 1,
                     n < sizeof e->text - 1 && strchr(".!?", e->text[n - 1]) == NULL ? "." : "");
            push_text(nb, CL_BE_ERROR, s);
            return;
        }
        push_text(nb, CL_BE_ERROR, cl_wire_error_words(e->code, e->text));
        return;
    default:
        return;
    }
    (void)now;
    cl_event_queue_push(&nb->evq, &ev);
}

/* Marks the link lost while a countdown or race is on and the server is
 * silent (or the seat is being resumed): the race screen shows a banner
 * and stops its clock until it is back. */
static void watch_link(netbe *nb, uint64_t now)
{
    bool resuming = cl_net_phase(nb->n) == CL_NET_RESUMING;
    uint32_t quiet = cl_net_silence_ms(nb->n);
    bool on = nb->start_ms && !cl_net_match_end(nb->n) && !nb->base.closed;
    if (!on || (!resuming && quiet < LOST_MS)) {
        if (nb->base.lost_at && on) {
            printf("mazerace: connection back after %llu ms\n", (unsigned long long)(now - nb->base.lost_at));
            fflush(stdout);
        }
        nb->base.lost_at = 0;
        return;
    }
    if (!nb->base.lost_at) {
        nb->base.lost_at = now;
        /* On stdout too: a terminal (and the tests) see what the banner says. */
        printf("mazerace: connection lost: no word from the server for %u ms\n", quiet);
        fflush(stdout);
    }
    uint32_t left = resuming ? cl_net_resume_left_ms(nb->n, now)
                             : (quiet < GONE_MS ? GONE_MS - quiet : 0) + RESUME_WINDOW_MS;
    nb->base.lost_left_s = (int)((left + 999) / 1000);
}

#if defined(MR_HAVE_CLNAT)
/* Joining by code: the lookup and the paths; true once connected (n is
 * then the connection, in hub), false while they run or when they failed. */
static bool dial_step(netbe *nb, uint64_t now)
{
    int st = cl_dial_update(nb->dial, now);
    snprintf(nb->base.route, sizeof nb->base.route, "%s", cl_dial_text(nb->dial));
    if (st == CL_DIAL_FAILED) {
        /* Every address on stdout; the screen's one line names the paths. */
        printf("mazerace: %s\n", nb->base.route);
        fflush(stdout);
        char brief[sizeof((cl_event *)0)->text]; /* the error event's text: brief shortens to fit */
        cl_dial_brief(nb->base.route, brief, sizeof brief);
        push_text(nb, CL_BE_ERROR, brief);
        cl_dial_destroy(nb->dial);
        nb->dial = NULL;
        return false;
    }
    if (st != CL_DIAL_CONNECTED)
        return false;
    nb->n = cl_dial_take(nb->dial, &nb->hub);
    snprintf(nb->base.route_how, sizeof nb->base.route_how, "%s", cl_path_kind_name(cl_dial_kind(nb->dial)));
    nb->base.ping_ms = (int)cl_dial_rtt_ms(nb->dial);
    printf("mazerace: reached %s by %s (round trip %u ms)\n", nb->host, nb->base.route,
           (unsigned)cl_dial_rtt_ms(nb->dial));
    fflush(stdout);
    cl_dial_destroy(nb->dial);
    nb->dial = NULL;
    nb->connect_at = now;
    cl_net_set_resume_window(nb->n, RESUME_WINDOW_MS);
    cl_net_set_silence_limit(nb->n, GONE_MS);
    nb->room_code[0] = '\0'; /* the host's waiting room: a quick match there takes it */
    on_connected(nb);
    return true;
}

static void invite_step(netbe *nb)
{
    cl_invite_status st;
    cl_invite_update(nb->invite, mr_now_us() / 1000u);
    cl_invite_get_status(nb->invite, &st);
    cl_backend *b = &nb->base;
    snprintf(b->invite, sizeof b->invite, "%s", st.code);
    b->invite_failed = st.failed;
    snprintf(b->invite_coord, sizeof b->invite_coord, "%s", st.coord);
    snprintf(b->invite_router, sizeof b->invite_router, "%s", st.router);
    snprintf(b->invite_joiner, sizeof b->invite_joiner, "%s", st.joiner);
}
#endif

static void update(cl_backend *b, uint64_t now)
{
    netbe *nb = (netbe *)b;
#if defined(MR_HAVE_SERVER)
    /* The server keeps its own clock (the monotonic one it started on);
     * the app clock may start anywhere. */
    if (nb->server)
        sv_service(nb->server, mr_now_us() / 1000u, 0);
#endif
#if defined(MR_HAVE_CLNAT)
    if (nb->invite)
        invite_step(nb);
    if (nb->dial && !dial_step(nb, now))
        return;
    if (nb->hub)
        cl_hub_service(nb->hub, now, 0);
#endif
    if (nb->failed || !nb->n)
        return;
    cl_net_event e;
    for (int i = 0; i < 256 && cl_net_poll(nb->n, now, &e); i++)
        on_event(nb, &e, now);
    if (!nb->connected && !nb->failed && now > nb->connect_at + CONNECT_TIMEOUT_MS) {
        char msg[200];
        snprintf(msg, sizeof msg, "Server not found at %s:%d (no answer in %d s).", nb->host, nb->port,
                 CONNECT_TIMEOUT_MS / 1000);
        push_text(nb, CL_BE_ERROR, msg);
    }
    if (nb->base.ping_ms >= 0 || nb->connected)
        nb->base.ping_ms = (int)cl_net_rtt_ms(nb->n);
    watch_link(nb, now);
    set_moves(nb); /* with the boards as they are now: the scene reads both together */
    if (nb->relist_at && now >= nb->relist_at) {
        nb->relist_at = now + 1000; /* until the answer comes */
        const char *why = cl_net_list_rooms(nb->n);
        if (why)
            push_text(nb, CL_BE_ERROR, why);
    }
    /* cl_net reports the start time; the race begins when it passes. */
    if (nb->start_ms && !nb->started && now >= nb->start_ms) {
        nb->started = true;
        cl_event ev;
        memset(&ev, 0, sizeof ev);
        ev.type = CL_BE_START;
        ev.start_ms = nb->start_ms;
        cl_event_queue_push(&nb->evq, &ev);
    }
}

static bool poll(cl_backend *b, cl_event *ev)
{
    return cl_event_queue_pop(&((netbe *)b)->evq, ev);
}

static void move(cl_backend *b, int slot, uint32_t seq, pz_move mv, uint64_t now)
{
    netbe *nb = (netbe *)b;
    (void)now;
    if (slot != nb->base.my_slot || !nb->n)
        return;
    uint32_t ns = cl_net_send_move(nb->n, mv);
    if (ns == 0) {
        cl_event ev;
        memset(&ev, 0, sizeof ev);
        ev.type = CL_BE_REJECT;
        ev.slot = slot;
        ev.seq = seq;
        snprintf(ev.text, sizeof ev.text, "not connected");
        cl_event_queue_push(&nb->evq, &ev);
        return;
    }
    if (nb->nmap < SEQMAP) {
        nb->map_race[nb->nmap] = seq;
        nb->map_net[nb->nmap] = ns;
        nb->nmap++;
    }
    cl_net_flush(nb->n);
}

static void ready(cl_backend *b, uint64_t now)
{
    netbe *nb = (netbe *)b;
    (void)now;
    /* Pressed before the room answered: ready as soon as it does. */
    if (!nb->in_room) {
        nb->auto_ready = !nb->auto_ready;
        nb->base.ready_pending = nb->auto_ready;
        return;
    }
    const char *why = cl_net_ready(nb->n, !nb->base.ready[nb->base.my_slot]);
    if (why)
        push_text(nb, CL_BE_INFO, why);
}

static void rematch(cl_backend *b, uint64_t now)
{
    netbe *nb = (netbe *)b;
    (void)now;
    const char *why = nb->n ? cl_net_rematch(nb->n) : NULL;
    if (why)
        push_text(nb, CL_BE_INFO, why);
}

static const pz_puzzle *puzzle(cl_backend *b)
{
    netbe *nb = (netbe *)b;
    return nb->n ? cl_net_puzzle(nb->n) : NULL;
}

static const pz_state *state(cl_backend *b, int slot)
{
    netbe *nb = (netbe *)b;
    return nb->n ? cl_net_board(nb->n, slot) : NULL;
}

static void destroy(cl_backend *b)
{
    netbe *nb = (netbe *)b;
#if defined(MR_HAVE_CLNAT) && defined(MR_HAVE_SERVER)
    /* The code ends at once (HOST_LEAVE), the router forgets the port. */
    if (nb->invite) {
        sv_set_raw_tap(nb->server, NULL, NULL);
        cl_invite_destroy(nb->invite);
    }
#endif
#if defined(MR_HAVE_CLNAT)
    cl_dial_destroy(nb->dial);
#endif
#if defined(MR_HAVE_SERVER)
    /* Hosting: the joiner hears why the server goes (docs/racing.md); our
     * LEAVE below reaches the server before its shutdown, so a race under
     * way ends first as the rules say (a forfeit: the joiner wins). */
    if (nb->server)
        sv_set_shutdown_text(nb->server, nb->start_ms && !cl_net_match_end(nb->n)
                                             ? "the host left the race"
                                             : "the host closed the game");
#endif
    if (nb->in_room && nb->n) {
        cl_net_leave(nb->n);
        cl_net_flush(nb->n);
#if defined(MR_HAVE_SERVER)
        /* Our disconnect right behind the LEAVE would make ENet drop the
         * LEAVE still queued at the server: let the server take it first
         * (loopback: it is in the socket already; a few steps at most). */
        for (int i = 0; nb->server && i < 3; i++)
            sv_service(nb->server, mr_now_us() / 1000u, 1);
#endif
    }
#if defined(MR_HAVE_CLNAT)
    /* A shared hub sends the LEAVE only when serviced. */
    for (int i = 0; nb->hub && nb->in_room && i < 3; i++)
        cl_hub_service(nb->hub, mr_now_us() / 1000u, 5);
#endif
    cl_net_destroy(nb->n);
#if defined(MR_HAVE_CLNAT)
    cl_hub_destroy(nb->hub);
#endif
#if defined(MR_HAVE_SERVER)
    if (nb->server)
        sv_destroy(nb->server);
#endif
    free(nb);
}

static void ask_best(cl_backend *b, const char *game_id)
{
    netbe *nb = (netbe *)b;
    nb->best_req = nb->n ? cl_net_request_best(nb->n, game_id, 0, 1) : 0;
}

static const cl_backend_ops net_ops = {update, poll, move, ready, rematch, puzzle, state, destroy, ask_best};

cl_backend *cl_backend_net(const char *address, const char *name, const char *create_id, int series_len,
                           const char *room, bool auto_ready, void *server, uint64_t now_ms, char *err,
                           size_t errlen)
{
    netbe *nb = mr_alloc(1, sizeof *nb);
    nb->base.ops = &net_ops;
    nb->base.ping_ms = -1;
    nb->base.series_len = series_len;
    nb->server = server;
    nb->auto_ready = auto_ready;
    nb->series = series_len;
    nb->connect_at = now_ms;
    const char *why = cl_net_parse_addr(address, nb->host, sizeof nb->host, &nb->port);
    if (!why && create_id) {
        if (strlen(create_id) >= sizeof nb->create_id)
            why = "game ID too long";
        else
            snprintf(nb->create_id, sizeof nb->create_id, "%s", create_id);
    }
    if (!why && room) {
        if (strlen(room) >= sizeof nb->room_code || !room[0])
            why = "a room code is 5 letters";
        else
            snprintf(nb->room_code, sizeof nb->room_code, "%s", room);
    }
    if (!why)
        nb->n = cl_net_create(name, &why);
    if (!why) {
        cl_net_set_resume_window(nb->n, RESUME_WINDOW_MS);
        cl_net_set_silence_limit(nb->n, GONE_MS);
        why = cl_net_connect(nb->n, nb->host, nb->port, now_ms);
    }
    if (why) {
        snprintf(err, errlen, "%s", why);
        nb->server = NULL; /* not ours on failure: the caller still owns it */
        destroy(&nb->base);
        return NULL;
    }
    return &nb->base;
}

cl_backend *cl_backend_watch(const char *address, const char *name, const char *room, uint64_t now_ms,
                             char *err, size_t errlen)
{
    char code[WIRE_ROOM_CODE_LEN + 1] = "";
    if (room && room[0] && !wire_room_code_parse(room, code)) {
        snprintf(err, errlen, "a room code is 5 letters or digits");
        return NULL;
    }
    cl_backend *b =
        cl_backend_net(address, name, NULL, 1, code[0] ? code : NULL, false, NULL, now_ms, err, errlen);
    if (b) {
        ((netbe *)b)->watch = true;
        b->watching = true;
        b->my_slot = -1;
    }
    return b;
}

#if defined(MR_HAVE_CLNAT)
cl_backend *cl_backend_net_code(const char *code, const char *coordinator, const char *name, bool auto_ready,
                                uint64_t now_ms, char *err, size_t errlen)
{
    cl_dial_cfg dc = {.code = code, .name = name};
    const char *why = coordinator && coordinator[0]
                          ? cl_coord_resolve(coordinator, &dc.coordinator)
                          : "No coordinator is set: joining by invite code needs one (Settings, or "
                            "--coordinator HOST:PORT). LAN games and typed addresses work without one.";
    cl_dial_t *d = why ? NULL : cl_dial_create(&dc, now_ms, &why);
    if (!d) {
        snprintf(err, errlen, "%s", why);
        return NULL;
    }
    netbe *nb = mr_alloc(1, sizeof *nb);
    nb->base.ops = &net_ops;
    nb->base.ping_ms = -1;
    nb->base.series_len = 1;
    nb->series = 1;
    nb->auto_ready = auto_ready;
    nb->connect_at = now_ms;
    nb->dial = d;
    snprintf(nb->host, sizeof nb->host, "%.100s", code);
    snprintf(nb->base.route, sizeof nb->base.route, "%s", cl_dial_text(d));
    return &nb->base;
}

#if defined(MR_HAVE_SERVER)
static bool invite_tap(void *ctx, uint32_t ip, uint16_t port, const uint8_t *data, size_t len)
{
    return cl_invite_feed(ctx, (stun_addr){ip, port, false}, data, len, mr_now_us() / 1000u);
}
#endif

const char *cl_backend_net_invite(cl_backend *b, const char *coordinator, const char *name,
                                  const uint32_t *lan, int n_lan, bool portmap)
{
#if defined(MR_HAVE_SERVER)
    netbe *nb = (netbe *)b;
    if (!nb->server || nb->invite)
        return "only a hosted game gets an invite code, once";
    cl_invite_cfg ic = {.name = name,
                        .fd = sv_socket_fd(nb->server),
                        .port = sv_port(nb->server),
                        .lan = lan,
                        .n_lan = n_lan > 4 ? 4 : n_lan,
                        .no_portmap = !portmap};
    const char *why = cl_coord_resolve(coordinator, &ic.coordinator);
    if (!why)
        nb->invite = cl_invite_create(&ic, mr_now_us() / 1000u, &why);
    if (!nb->invite)
        return why;
    sv_set_raw_tap(nb->server, invite_tap, nb->invite);
    invite_step(nb);
    return NULL;
#else
    (void)b, (void)coordinator, (void)name, (void)lan, (void)n_lan, (void)portmap;
    return "this build has no server";
#endif
}
#endif

#else

cl_backend *cl_backend_watch(const char *address, const char *name, const char *room, uint64_t now_ms,
                             char *err, size_t errlen)
{
    (void)address, (void)name, (void)room, (void)now_ms;
    snprintf(err, errlen, "this build has no network play");
    return NULL;
}

cl_backend *cl_backend_net(const char *address, const char *name, const char *create_id, int series_len,
                           const char *room, bool auto_ready, void *server, uint64_t now_ms, char *err,
                           size_t errlen)
{
    (void)address, (void)name, (void)create_id, (void)series_len, (void)room, (void)auto_ready, (void)server,
        (void)now_ms;
    snprintf(err, errlen, "this build has no network play");
    return NULL;
}

#endif

#if !defined(MR_HAVE_CLNET) || !defined(MR_HAVE_CLNAT)
cl_backend *cl_backend_net_code(const char *code, const char *coordinator, const char *name, bool auto_ready,
                                uint64_t now_ms, char *err, size_t errlen)
{
    (void)code, (void)coordinator, (void)name, (void)auto_ready, (void)now_ms;
    snprintf(err, errlen, "this build cannot join by invite code");
    return NULL;
}

const char *cl_backend_net_invite(cl_backend *b, const char *coordinator, const char *name,
                                  const uint32_t *lan, int n_lan, bool portmap)
{
    (void)b, (void)coordinator, (void)name, (void)lan, (void)n_lan, (void)portmap;
    return "this build has no invite codes";
}
#endif
