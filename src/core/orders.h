/* orders.h — checking one order file for a turn (orders.c): the core keys, then the umpire's
 * rulings or the rule system's orders, every problem into the diagnostics. Used by the
 * `orders` step of the turn pipeline only. */
#ifndef UMPIRE_ORDERS_H
#define UMPIRE_ORDERS_H

#include "core/turn.h"

/* Parses f's bytes as an order file for turn t->in.turn against t->state: sets f->player and
 * f->orders (a player) or f->rulings (the umpire). Every problem goes to d (positions from
 * the file). Returns 0, or -1 when the file has errors. */
int orders_parse_file(struct turn *t, struct order_file *f, struct diag *d);
/* Frees what f holds (orders through c's rule system) and zeroes it. */
void order_file_release(struct order_file *f, const struct campaign *c);

#endif
