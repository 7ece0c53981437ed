/* overrides.h — the umpire's overrides of a turn in one list a player reads (issue 37 item
 * 4): his dice rulings and adjustments (the umpire's file), the due players the turn closed
 * without (--allow-missing, or a deadline under schedule.missing no-orders), and the
 * extensions, pauses, resumes and stand-ins the turn's close carries (core/schedule.h). */
#ifndef UMPIRE_OVERRIDES_H
#define UMPIRE_OVERRIDES_H

#include <stddef.h>
#include "core/buf.h"

struct turn;
struct campaign;

/* One override, as listed. Strings owned (overrides_free). */
struct override_item {
	int turn;     /* the turn it belongs to */
	char *kind;   /* ruling, adjustment, no-orders, extend, pause, resume, replace */
	char *player; /* whom it concerns, or NULL */
	long long at; /* when it was made (UTC seconds), or -1 (rulings: the turn itself) */
	char *text;   /* what, in words */
	char *reason; /* why, as given ("" when none) */
};
void overrides_free(struct override_item *v, size_t n);

/* The overrides of turn t (its input and the close it carries) into *out; their number. */
size_t overrides_of_turn(const struct turn *t, struct override_item **out);

/* The report section "Umpire's overrides" of turn t, nothing when there is none. */
void render_overrides(struct buf *b, const struct turn *t);

/* The overrides of committed turn n of c, from what a clone holds: the umpire's file
 * (orders/turn-NNNN/umpire.yaml), the players the journal export lists without orders and the
 * close's overrides; appended to *v, *n. Returns 0, ERROR_NOTFOUND when turn n is not
 * committed (then the open turn's pending overrides are appended), -1. */
int overrides_of_committed(struct campaign *c, int turn, struct override_item **v, size_t *n);

#endif
