/* end.h — a game ended early (issue 37 item 5): a side's concession (`concede: true` in its
 * order file, signed or from its addresses like any orders) or the umpire's `umpire end`
 * (an END override the turn's close carries). The turn that takes either journals an event
 * of phase "end"; the game is over after it, and its result is named from those events, as
 * the scenario's victory conditions name it otherwise. */
#ifndef UMPIRE_END_H
#define UMPIRE_END_H

#include <stddef.h>
#include "core/buf.h"

struct campaign;
struct event;
struct turn;

#define END_PHASE "end" /* the phase of the events that end a game */

/* Adds turn t's "end" events, after the rule system's: "P concedes" for every file with
 * concede: true, and the umpire's END override of the turn. */
void end_add_events(struct turn *t);

/* From the events v[0..n-1] of a turn: 1 when they end the game, with why (one line: "P
 * conceded on turn N", "the umpire ended the game on turn N: REASON") and result (as
 * campaign_victory writes it: "P wins: WHY" or "a draw: WHY") appended, *winner one of
 * c->players or NULL (a draw); 0 when they do not. Any of the outputs may be NULL. */
int end_of_events(const struct campaign *c, int turn, const struct event *v, size_t n,
	struct buf *why, struct buf *result, const char **winner);

/* The same from the committed journal export of turn last (what a clone holds). 1, 0, or 0
 * when there is no such export. */
int end_of_turn(struct campaign *c, int last, struct buf *why, struct buf *result,
	const char **winner);

#endif
