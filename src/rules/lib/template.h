/* template.h — helpers the rule systems share for their order templates (rules.h,
 * orders_template). */
#ifndef UMPIRE_RULES_LIB_TEMPLATE_H
#define UMPIRE_RULES_LIB_TEMPLATE_H

#include "core/buf.h"
#include "core/node.h"

/* Appends n as YAML to out with "# " before every line: standing orders in force, shown but
 * left out of the file (left out, they stay; uncommented, they are given again). */
void template_emit_commented(const struct node *n, struct buf *out);

#endif
