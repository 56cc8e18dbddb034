/* cl_netui.h: the app's networking (cl_netui.c, cl_netui_inet.c): joining,
 * creating and watching rooms, hosting with the in-process server, and the
 * Join screen's LAN and Internet lists. Its state is cl_app's online. */
#ifndef CL_NETUI_H
#define CL_NETUI_H

#include <stdbool.h>
#include <stddef.h>

#include "cl_app.h"

/* Each returns NULL or a message for the player.
 * cl_app_join takes "HOST[:PORT]" or a join link (common/joinlink.h): a link
 * that names a room joins that room (quick is then ignored); a room typed
 * as well must be the same. An invite code ("+K7MP9NXA", or the link
 * mazerace://+CODE[@COORDINATOR]) joins that friend's game through the
 * coordinator (docs/nat.md). */
const char *cl_app_join(cl_app *a, const char *address, const char *room, bool quick);
/* Creates a room on the server at address ("HOST[:PORT]") racing game_id
 * (pz_id_parse), best of series; the lobby then shows its code and link. */
const char *cl_app_create(cl_app *a, const char *address, const char *game_id, int series);
/* The coordinator to use ("HOST[:PORT]"): --coordinator, else the
 * settings'; "" when none is set (or --coordinator none). */
const char *cl_app_coordinator(const cl_app *a);
/* Hosting with an invite code: the link to share, mazerace://+CODE@COORD,
 * into buf; false when there is no code (yet). */
bool cl_app_invite_link(const cl_app *a, char *buf, size_t cap);
/* The join link of the room being played on a server we joined (or hosted
 * on a known address) into buf; false when there is none to share. */
bool cl_app_join_link(const cl_app *a, char *buf, size_t cap);
/* Watches room (NULL or "": the first race the server lists) at address. */
const char *cl_app_watch(cl_app *a, const char *address, const char *room);
const char *cl_app_host(cl_app *a, const char *game_id, int series);
void cl_app_net_stop(cl_app *a);
/* Ends the game under way (race, backend) and, with it, the network's
 * lists (cl_app_net_stop). */
void cl_app_end_backend(cl_app *a);
/* LAN discovery for the join screen: starts probing / lists what answered. */
void cl_app_discover(cl_app *a);
/* One entry of the LAN list: a server once however many of its addresses
 * answered, games waiting for a player first. */
typedef struct cl_found {
    char label[64];   /* "Ann's game" / "Server "den"" */
    char sub[192];    /* "Perfect maze 21x15, medium  -  192.168.1.20:27910" / "2 waiting, ..." */
    char address[96]; /* HOST:PORT to connect to */
    bool host_game;   /* a player's own game ("Host a LAN game") */
    char room[8];     /* its waiting room: picking it joins that room; "" none */
    char spec[96];    /* what that room races, "" when unknown */
    int races, waiting;
} cl_found;
/* Entry i of the list (0 ...): false past its end. */
bool cl_app_found(cl_app *a, int i, cl_found *out);
/* "Maze 21x15, medium, best of 3": what a room with params p races. */
void cl_race_spec(const pz_params *p, int series, char *buf, size_t cap);
/* The Internet list (cl_netui_inet.c): the public servers the coordinator lists
 * (docs/coordinator.md, LIST), each pinged with a discovery probe.
 * refresh asks (again; the first call opens it), update reads the answers
 * every frame, stop closes it (cl_app_net_stop does too); state says what
 * is going on ("3 public servers at ...", "no coordinator set ..."). */
void cl_app_inet_refresh(cl_app *a);
void cl_app_inet_update(cl_app *a);
void cl_app_inet_stop(cl_app *a);
const char *cl_app_inet_state(const cl_app *a);
/* Entry i of the Internet list (0 ...), as the LAN list's: false past its end. */
bool cl_app_inet_found(const cl_app *a, int i, cl_found *out);
/* This computer's IPv4 addresses other than loopback (up to max); how many. */
int cl_lan_addresses(char out[][16], int max);

#endif
