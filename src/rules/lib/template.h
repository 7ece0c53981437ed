/* template.h — helpers the rule systems share for their order templates (rules.h,
 * orders_template). */
#ifndef UMPIRE_RULES_LIB_TEMPLATE_H
#define UMPIRE_RULES_LIB_TEMPLATE_H

#include "core/buf.h"
#include "core/node.h"

/* Appends "# standing orders in force (note):" and then {standing: standing} as YAML with
 * "# " before every line: shown but left out of the file (left out, they stay; uncommented,
 * they are given again). Takes ownership of standing (freed). */
void template_standing(struct buf *out, const char *note, struct node *standing);

#endif
