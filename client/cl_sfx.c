/* cl_sfx.c: the race's sound cues, read off the race state each frame. */
#include "cl_sfx.h"

enum { GO_LATE_MS = 800 };

void cl_sfx_watch(cl_audio *au, cl_sfx_cues *c, const cl_race *r, int my_slot, bool shared, uint64_t now)
{
    if (!r->pz)
        return;
    if (c->pz != (const void *)r->pz || c->start_ms != r->start_ms) {
        *c = (cl_sfx_cues){.pz = r->pz, .start_ms = r->start_ms, .first_rem = -1};
        /* Joining a race already under way: its start is not sounded. */
        c->go = r->racing && now >= r->start_ms + GO_LATE_MS;
        c->finished = r->finished;
    }
    if (!r->racing && !r->finished && r->start_ms > now) {
        int secs = (int)((r->start_ms - now + 999) / 1000);
        if (secs != c->count && secs <= 3)
            cl_audio_play(au, CL_SFX_TICK);
        c->count = secs;
    }
    if (r->racing && !c->go) {
        c->go = true;
        if (now < r->start_ms + GO_LATE_MS)
            cl_audio_play(au, CL_SFX_GO);
    }
    if (r->racing && !r->finished && !shared && my_slot >= 0 && my_slot < 2) {
        int rem = r->p[my_slot ^ 1].remaining;
        if (c->first_rem < 0 && rem > 0)
            c->first_rem = rem;
        if (c->first_rem > 0 && rem >= 0 && rem < c->first_rem) {
            int q = (c->first_rem - rem) * 4 / c->first_rem;
            if (q > c->milestone && q <= 3) {
                c->milestone = q;
                cl_audio_play(au, CL_SFX_MILESTONE);
            }
        }
    }
    if (r->finished && !c->finished) {
        c->finished = true;
        bool won = shared || r->result.winner == my_slot;
        cl_audio_play(au, won ? CL_SFX_WIN : CL_SFX_LOSE);
    }
}
