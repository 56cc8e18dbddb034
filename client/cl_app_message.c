/* cl_app_message.c: where the passing message (cl_app_say) is drawn: a strip of its
 * own under the boards on the race, watch and replay screens, never over them. */
#include "cl_app.h"
#include "cl_draw.h"

void cl_message_draw(SDL_Renderer *ren, cl_text *t, SDL_Rect r, const char *msg, bool bad)
{
    if (!msg || !msg[0] || r.w <= 0 || r.h <= 0)
        return;
    /* The body font if the words fit the strip, else the small one, else
     * the words cut with "..." so nothing spills out of the strip. */
    int font = CL_FONT_BODY;
    if (cl_text_height(t, font) > r.h || cl_text_width(t, font, msg) > r.w - r.h)
        font = CL_FONT_SMALL;
    char line[256];
    cl_text_fit(t, font, msg, r.w - r.h, line, sizeof line);
    int w = cl_text_width(t, font, line) + r.h;
    if (w > r.w)
        w = r.w;
    cl_draw_panel(ren, r.x + (r.w - w) / 2, r.y, w, r.h,
                  bad ? cl_color_mix(cl_col_bad, cl_col_panel, 100) : cl_col_panel_hi);
    cl_text_draw_mid(t, font, line, r.x + r.w / 2, r.y + r.h / 2, cl_col_text, CL_CENTER);
}
