/* cl_text.c: glyph-atlas text rendering over SDL2_ttf. */
#include "cl_text.h"

#include <SDL_ttf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum { FIRST = 32, LAST = 126, NGLYPH = LAST - FIRST + 1 };

enum { VARIANTS = 8 };

/* The software renderer blits a colour-modulated texture through its slow
 * generic path; a texture already in the wanted colour takes the fast
 * alpha-blend path. So each atlas keeps its white glyph sheet and makes a
 * coloured copy per colour in use (a handful: the palette is small). */
typedef struct variant {
    SDL_Color c;
    SDL_Texture *tex;
} variant;

typedef struct atlas {
    int px;
    int height, ascent;
    SDL_Texture *tex; /* non-NULL when the atlas is usable */
    SDL_Surface *sheet;
    variant var[VARIANTS];
    int next_var;
    SDL_Rect src[NGLYPH];
    int advance[NGLYPH];
} atlas;

struct cl_text {
    SDL_Renderer *ren;
    char path[2][1024];
    atlas a[CL_FONT_COUNT];
    cl_text_drawn *log; /* recording: the strings drawn (render tests) */
    int nlog;
};

static void atlas_free(atlas *a)
{
    if (a->tex)
        SDL_DestroyTexture(a->tex);
    for (int i = 0; i < VARIANTS; i++)
        if (a->var[i].tex)
            SDL_DestroyTexture(a->var[i].tex);
    memset(a->var, 0, sizeof a->var);
    a->next_var = 0;
    SDL_FreeSurface(a->sheet);
    a->sheet = NULL;
    a->tex = NULL;
    a->px = 0;
}

/* The atlas in colour c: a cached copy, made on first use. */
static SDL_Texture *atlas_colored(cl_text *t, atlas *a, SDL_Color c)
{
    for (int i = 0; i < VARIANTS; i++)
        if (a->var[i].tex && a->var[i].c.r == c.r && a->var[i].c.g == c.g && a->var[i].c.b == c.b &&
            a->var[i].c.a == c.a)
            return a->var[i].tex;
    if (!a->sheet)
        return NULL;
    SDL_Surface *copy = SDL_ConvertSurfaceFormat(a->sheet, SDL_PIXELFORMAT_ARGB8888, 0);
    if (!copy)
        return NULL;
    for (int y = 0; y < copy->h; y++) {
        Uint32 *row = (Uint32 *)(void *)((Uint8 *)copy->pixels + y * copy->pitch);
        for (int x = 0; x < copy->w; x++) {
            Uint32 alpha = (row[x] >> 24) * c.a / 255;
            row[x] = alpha << 24 | (Uint32)c.r << 16 | (Uint32)c.g << 8 | c.b;
        }
    }
    SDL_Texture *tex = SDL_CreateTextureFromSurface(t->ren, copy);
    SDL_FreeSurface(copy);
    if (!tex)
        return NULL;
    SDL_SetTextureBlendMode(tex, SDL_BLENDMODE_BLEND);
    variant *v = &a->var[a->next_var];
    a->next_var = (a->next_var + 1) % VARIANTS;
    if (v->tex)
        SDL_DestroyTexture(v->tex);
    v->c = c;
    v->tex = tex;
    return tex;
}

/* Renders the printable ASCII glyphs of one size side by side into a single
 * texture, so a line of text costs one texture bind and no allocation. */
static void atlas_build(cl_text *t, atlas *a, int px, bool bold)
{
    atlas_free(a);
    if (px <= 0)
        return;
    TTF_Font *f = TTF_OpenFont(t->path[bold ? 1 : 0], px);
    if (!f)
        return;
    a->px = px;
    a->height = TTF_FontHeight(f);
    a->ascent = TTF_FontAscent(f);
    SDL_Surface *g[NGLYPH];
    int total = 0;
    for (int i = 0; i < NGLYPH; i++) {
        char s[2] = {(char)(FIRST + i), 0};
        g[i] = TTF_RenderText_Blended(f, s, (SDL_Color){255, 255, 255, 255});
        int minx, maxx, miny, maxy, adv = 0;
        TTF_GlyphMetrics(f, (Uint16)(FIRST + i), &minx, &maxx, &miny, &maxy, &adv);
        a->advance[i] = adv;
        total += (g[i] ? g[i]->w : 0) + 2;
    }
    SDL_Surface *sheet =
        SDL_CreateRGBSurfaceWithFormat(0, total > 0 ? total : 1, a->height, 32, SDL_PIXELFORMAT_ARGB8888);
    int x = 0;
    for (int i = 0; i < NGLYPH; i++) {
        a->src[i] = (SDL_Rect){x, 0, g[i] ? g[i]->w : 0, a->height};
        if (g[i] && sheet) {
            SDL_SetSurfaceBlendMode(g[i], SDL_BLENDMODE_NONE);
            SDL_Rect dst = {x, 0, g[i]->w, g[i]->h};
            SDL_BlitSurface(g[i], NULL, sheet, &dst);
            x += g[i]->w + 2;
        }
        SDL_FreeSurface(g[i]);
    }
    if (sheet) {
        a->tex = SDL_CreateTextureFromSurface(t->ren, sheet);
        if (a->tex)
            SDL_SetTextureBlendMode(a->tex, SDL_BLENDMODE_BLEND);
        a->sheet = sheet;
    }
    TTF_CloseFont(f);
}

cl_text *cl_text_create(SDL_Renderer *ren, const char *regular, const char *bold, const char **err)
{
    if (!TTF_WasInit() && TTF_Init() != 0) {
        *err = "SDL_ttf could not start";
        return NULL;
    }
    TTF_Font *probe = TTF_OpenFont(regular, 12);
    if (!probe) {
        *err = "cannot open the font file";
        return NULL;
    }
    TTF_CloseFont(probe);
    cl_text *t = mr_alloc(1, sizeof *t);
    t->ren = ren;
    snprintf(t->path[0], sizeof t->path[0], "%s", regular);
    snprintf(t->path[1], sizeof t->path[1], "%s", bold ? bold : regular);
    return t;
}

void cl_text_destroy(cl_text *t)
{
    if (!t)
        return;
    for (int i = 0; i < CL_FONT_COUNT; i++)
        atlas_free(&t->a[i]);
    free(t->log);
    free(t);
    if (TTF_WasInit())
        TTF_Quit();
}

static bool font_bold(int font)
{
    return font == CL_FONT_TITLE || font == CL_FONT_HUGE || font >= CL_FONT_CELL;
}

void cl_text_set_size(cl_text *t, int font, int px)
{
    if (font < 0 || font >= CL_FONT_COUNT)
        return;
    if (px < 0)
        px = 0;
    if (px > 400)
        px = 400;
    if (t->a[font].px != px || (!t->a[font].tex && px > 0))
        atlas_build(t, &t->a[font], px, font_bold(font));
}

void cl_text_layout(cl_text *t, int out_h)
{
    /* UI scales with the window height; 720 px is the reference layout. */
    double s = out_h / 720.0;
    if (s < 0.75)
        s = 0.75;
    cl_text_set_size(t, CL_FONT_SMALL, (int)(16 * s + 0.5));
    cl_text_set_size(t, CL_FONT_BODY, (int)(22 * s + 0.5));
    cl_text_set_size(t, CL_FONT_TITLE, (int)(34 * s + 0.5));
    cl_text_set_size(t, CL_FONT_HUGE, (int)(84 * s + 0.5));
}

int cl_text_size(const cl_text *t, int font)
{
    return (font >= 0 && font < CL_FONT_COUNT) ? t->a[font].px : 0;
}

int cl_text_height(const cl_text *t, int font)
{
    return (font >= 0 && font < CL_FONT_COUNT) ? t->a[font].height : 0;
}

static int glyph(unsigned char c)
{
    return (c >= FIRST && c <= LAST) ? c - FIRST : '?' - FIRST;
}

/* UTF-8 continuation bytes are skipped so a multi-byte character shows as a
 * single '?'. */
static bool is_cont(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

int cl_text_width(const cl_text *t, int font, const char *s)
{
    if (font < 0 || font >= CL_FONT_COUNT || !s)
        return 0;
    const atlas *a = &t->a[font];
    int w = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (!is_cont(*p))
            w += a->advance[glyph(*p)];
    return w;
}

int cl_text_draw(cl_text *t, int font, const char *s, int x, int y, SDL_Color c, int align)
{
    if (font < 0 || font >= CL_FONT_COUNT || !s)
        return 0;
    atlas *a = &t->a[font];
    int w = cl_text_width(t, font, s);
    if (!a->tex)
        return w;
    if (align == CL_CENTER)
        x -= w / 2;
    else if (align == CL_RIGHT)
        x -= w;
    if (t->log && t->nlog < CL_TEXT_LOG_MAX) {
        cl_text_drawn *d = &t->log[t->nlog++];
        snprintf(d->s, sizeof d->s, "%s", s);
        d->font = font;
        d->r = (SDL_Rect){x, y, w, a->height};
    }
    SDL_Texture *tex = atlas_colored(t, a, c);
    if (!tex) {
        tex = a->tex;
        SDL_SetTextureColorMod(tex, c.r, c.g, c.b);
        SDL_SetTextureAlphaMod(tex, c.a);
    }
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (is_cont(*p))
            continue;
        int g = glyph(*p);
        SDL_Rect dst = {x, y, a->src[g].w, a->src[g].h};
        if (dst.w > 0)
            SDL_RenderCopy(t->ren, tex, &a->src[g], &dst);
        x += a->advance[g];
    }
    return w;
}

void cl_text_record(cl_text *t, bool on)
{
    free(t->log);
    t->log = on ? mr_alloc(CL_TEXT_LOG_MAX, sizeof *t->log) : NULL;
    t->nlog = 0;
}

int cl_text_drawn_count(const cl_text *t)
{
    return t->log ? t->nlog : 0;
}

const cl_text_drawn *cl_text_drawn_at(const cl_text *t, int i)
{
    return t->log && i >= 0 && i < t->nlog ? &t->log[i] : NULL;
}

int cl_text_draw_mid(cl_text *t, int font, const char *s, int x, int cy, SDL_Color c, int align)
{
    return cl_text_draw(t, font, s, x, cy - cl_text_height(t, font) / 2, c, align);
}
