/* render.h — the journal export and the players' reports of a turn (render.c), rendered
 * from the pipeline's struct turn by the `render` step. */
#ifndef UMPIRE_RENDER_H
#define UMPIRE_RENDER_H

#include "core/turn.h"

/* Appends journal/turn-NNNN.yaml of turn t to b: key, every order file's hash, digest,
 * beacon, seed, every die and event, the state hash and the summary. Returns 0 / -1. */
int render_export(struct buf *b, const struct turn *t);
/* Appends the Markdown report of turn t for player to b. */
void render_report(struct buf *b, const struct turn *t, const char *player);

#endif
