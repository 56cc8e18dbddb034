/* sv_gendone.h: the generation queue's finished jobs (sv_gendone.c); the requests are sv_genq.h's. */
#ifndef MR_SV_GENDONE_H
#define MR_SV_GENDONE_H

typedef struct sv sv_t;

/* Takes the finished generation jobs: opens their rooms, starts the games
 * that waited for a puzzle; then submits the deferred quick-match jobs the
 * queue has room for. Once per step. */
void sv_gendone_poll(sv_t *sv);

#endif
