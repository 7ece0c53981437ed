/* template.c — what the rule systems' order templates share: YAML shown as comments in a
 * player's next order file. */
#include <string.h>

#include "rules/lib/template.h"
#include "core/banned.h"

/* n as YAML with "# " before every line. */
static void emit_commented(const struct node *n, struct buf *out)
{
	struct buf y = BUF_INIT;

	node_emit(n, &y);
	for (const char *p = buf_str(&y); *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		buf_puts(out, "# ");
		buf_append(out, p, len);
		p += len;
	}
	buf_release(&y);
}

void template_orders_head(struct buf *out, const char *what, const char *how)
{
	buf_printf(out,
		"orders: []   # to give orders, replace [] with %s like these, uncommented, %s:\n",
		what, how);
}

void template_standing(struct buf *out, const char *note, struct node *standing)
{
	struct node *m = node_new_map();

	node_map_add(m, "standing", standing);
	buf_printf(out, "# standing orders in force (%s):\n", note);
	emit_commented(m, out);
	node_free(m);
}
