/* template.h — helpers the rule systems share for their order templates (rules.h,
 * orders_template). */
#ifndef UMPIRE_RULES_LIB_TEMPLATE_H
#define UMPIRE_RULES_LIB_TEMPLATE_H

#include "core/buf.h"
#include "core/node.h"

/* Appends the template's first line: "orders: []   # to give orders, replace [] with WHAT like
 * these, uncommented, HOW:" (what: "entries", say; how: "in the order they go", say). */
void template_orders_head(struct buf *out, const char *what, const char *how);
/* Appends "# standing orders in force (note):" and then {standing: standing} as YAML with
 * "# " before every line: shown but left out of the file (left out, they stay; uncommented,
 * they are given again). Takes ownership of standing (freed). */
void template_standing(struct buf *out, const char *note, struct node *standing);

#endif
