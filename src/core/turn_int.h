/* turn_int.h — what the files of the turn pipeline share, and no one else includes: the steps
 * each file runs for the table in turn.c (turn_recover.c: recover, load, closed; turn_orders.c:
 * orders, close; turn_commit.c: render, reread, seal, build, journal, publish) and the few
 * helpers more than one of them calls. */
#ifndef UMPIRE_TURN_INT_H
#define UMPIRE_TURN_INT_H

#include <stdint.h>
#include "core/buf.h"
#include "core/turn.h"

/* The steps of the table (turn.c); each returns 0, 1 (stop: nothing more to do) or -1 with
 * error_set, as struct turn_step's run. */
int step_recover(struct turn *t);
int step_load(struct turn *t);
int step_closed(struct turn *t);
int step_orders(struct turn *t);
int step_close(struct turn *t);
int step_render(struct turn *t);
int step_reread(struct turn *t);
int step_seal(struct turn *t);
int step_build(struct turn *t);
int step_journal(struct turn *t);
int step_publish(struct turn *t);

/* The commit message of a journaled turn, exactly as it was first built (turn_recover.c). */
void turn_record_message(struct buf *msg, const struct campaign *c, const struct journal_record *r);

/* Sealed: t->out.views, one per campaign player, made on first use (turn_orders.c). */
struct turn_view *turn_views_of(struct turn *t);

/* D_t: every player of the campaign plus the umpire, with its file's hash or zeros
 * (turn_orders.c). */
void turn_orders_digest(const struct turn *t, uint8_t digest[FAIR_HASH_BYTES]);

#endif
