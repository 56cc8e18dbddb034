/* cl_pump.c: the backend's events into the race, the series and the
 * history recorder, switching scenes on countdown and errors; called every
 * frame by the lobby, race, results and watch screens. */
#include "cl_pump.h"
#include "cl_netui.h"

#include <stdio.h>

#include "cl_record.h"

static void print_result(cl_app *a, const match_result *res)
{
    if (a->series.result_printed)
        return;
    a->series.result_printed = true;
    const char *wn = res->winner >= 0 && res->winner < 2 ? a->race.name[res->winner] : "";
    printf("RESULT winner=%d winner_name=%s reason=%s time0_ms=%llu moves0=%u time1_ms=%llu moves1=%u "
           "score=%d-%d game=%d of=%d\n",
           res->winner, wn[0] ? wn : "-", match_end_text(res->reason), (unsigned long long)res->time_ms[0],
           res->moves[0], (unsigned long long)res->time_ms[1], res->moves[1], res->score[0], res->score[1],
           res->game_no, res->series_len);
    fflush(stdout);
}

void cl_pump(cl_app *a)
{
    cl_event ev;
    while (a->backend && a->backend->ops->poll(a->backend, &ev)) {
        cl_record_event(a, &ev);
        switch (ev.type) {
        case CL_BE_COUNTDOWN: {
            const pz_puzzle *pz = a->backend->ops->puzzle(a->backend);
            if (!pz)
                break;
            bool hs = a->backend->hotseat;
            int me = a->backend->my_slot;
            if (a->series.over)
                a->series.score[0] = a->series.score[1] = a->series.over = 0; /* a new series */
            cl_race_reset(&a->race, pz, hs || me == 0, hs || me == 1);
            for (int s = 0; s < 2; s++)
                snprintf(a->race.name[s], sizeof a->race.name[s], "%s", a->backend->name[s]);
            a->series.result_printed = false;
            a->series.finished_at = 0;
            cl_race_event(&a->race, &ev, a->now_ms);
            int want = a->backend->watching ? CL_SCENE_WATCH : CL_SCENE_RACE;
            if (a->scene != want)
                cl_app_set_scene(a, want);
            break;
        }
        case CL_BE_FINISHED:
            cl_race_event(&a->race, &ev, a->now_ms);
            a->series.finished_at = a->now_ms;
            a->series.score[0] = ev.result.score[0];
            a->series.score[1] = ev.result.score[1];
            a->series.over = ev.result.series_over;
            print_result(a, &ev.result);
            break;
        case CL_BE_ERROR:
            cl_app_say(a, true, "%s", ev.text);
            cl_record_unfinished(a);
            cl_app_end_backend(a);
            /* A join from the menu goes back to the join screen to try again. */
            cl_app_set_scene(a, (a->mode == CL_MODE_JOIN || a->mode == CL_MODE_WATCH) && !a->args.join_addr
                                    ? CL_SCENE_JOIN
                                    : CL_SCENE_MENU);
            return;
        case CL_BE_RESYNC:
            cl_race_resync(&a->race, a->backend);
            break;
        case CL_BE_INFO:
            cl_app_say(a, false, "%s", ev.text);
            break;
        case CL_BE_OPP_DROPPED:
        case CL_BE_OPP_BACK: {
            cl_race_event(&a->race, &ev, a->now_ms); /* marks their board while they are gone */
            const char *who = a->backend->watching ? a->race.name[ev.slot & 1] : "Your opponent";
            if (ev.type == CL_BE_OPP_DROPPED)
                cl_app_say(a, false, "%s's connection dropped; waiting for them to come back", who);
            else
                cl_app_say(a, false, "%s is back", who);
            break;
        }
        case CL_BE_REMATCH_ASKED:
            /* Said in the order things happened: after our own ask, the
             * other side agrees; before it, they are the ones asking. */
            if (!a->backend->hotseat && ev.slot != a->backend->my_slot) {
                const char *who = a->backend->name[ev.slot & 1];
                bool next = a->backend->series_len > 1 && !a->series.over;
                if (a->series.rematch_asked)
                    cl_app_say(a, false, "%s agrees - the %s starts", who, next ? "next race" : "rematch");
                else
                    cl_app_say(a, false, "%s wants %s - press %s", who, next ? "the next race" : "a rematch",
                               next ? "Next race" : "Rematch");
            }
            break;
        case CL_BE_START:
            cl_race_event(&a->race, &ev, a->now_ms);
            a->series.rematch_asked = false;
            /* A spectator arriving late sees the clock run from the real start. */
            if (a->now_ms > ev.start_ms + 100)
                printf("mazerace: race started %llu ms ago\n", (unsigned long long)(a->now_ms - ev.start_ms));
            else
                printf("mazerace: race started\n");
            fflush(stdout);
            break;
        case CL_BE_PROGRESS: {
            bool was = ev.slot >= 0 && ev.slot < 2 && a->race.p[ev.slot].ghost_lost;
            cl_race_event(&a->race, &ev, a->now_ms);
            /* The board then shows the reported position beside the last
             * one that replayed: a second marker (tests look for this line). */
            if (!was && ev.slot >= 0 && ev.slot < 2 && a->race.p[ev.slot].ghost_lost) {
                printf("mazerace: lost track of %s's moves (%u reported); showing the reported position\n",
                       a->race.name[ev.slot], ev.moves);
                fflush(stdout);
            }
            break;
        }
        default:
            cl_race_event(&a->race, &ev, a->now_ms);
            break;
        }
    }
}
