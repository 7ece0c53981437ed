/* overrides.c — the umpire's overrides in one list (overrides.h): from a turn being resolved
 * for its reports, or from the committed history for `umpire log --umpire`. */
#include <stdlib.h>
#include <string.h>

#include "core/overrides.h"
#include "core/adjust.h"
#include "core/audit.h"
#include "core/campaign.h"
#include "core/diag.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/events.h"
#include "core/journal.h"
#include "core/layout.h"
#include "core/node.h"
#include "core/repo.h"
#include "core/schedule.h"
#include "core/turn.h"
#include "core/banned.h"

void overrides_free(struct override_item *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].kind);
		free(v[i].player);
		free(v[i].text);
		free(v[i].reason);
	}
	free(v);
}

static void push(struct override_item **v, size_t *n, int turn, const char *kind,
	const char *player, long long at, char *text, const char *reason)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = (struct override_item){ turn, xstrdup(kind), player ? xstrdup(player) : NULL,
		at, text, xstrdup(reason ? reason : "") };
}

/* The close's overrides of turn (schedule.h). */
static void push_schedule(const struct campaign *c, int turn, struct override_item **v, size_t *n)
{
	size_t k;
	const struct override *o = schedule_of_turn(c, turn, &k);
	for (size_t i = 0; i < k; i++) {
		struct override bare = o[i];
		struct buf line = BUF_INIT;
		bare.reason = NULL;
		override_describe(&line, &bare);
		push(v, n, turn, override_kind_names[o[i].kind], o[i].player, o[i].at,
			buf_detach(&line), o[i].reason);
	}
}

size_t overrides_of_turn(const struct turn *t, struct override_item **out)
{
	size_t n = 0;
	int turn = t->in.turn;

	*out = NULL;
	for (size_t f = 0; f < t->in.n_files; f++) {
		const struct order_file *of = &t->in.files[f];
		for (size_t i = 0; i < of->n_rulings; i++)
			push(out, &n, turn, "ruling", NULL, -1,
				xasprintf("ruling %zu: %s for %s", i + 1, of->rulings[i].notation,
					of->rulings[i].what ? of->rulings[i].what : ""),
				NULL);
		for (size_t i = 0; i < of->n_adjustments; i++) {
			const struct adjustment *a = &of->adjustments[i];
			push(out, &n, turn, "adjustment", a->side, -1,
				xasprintf("adjustment %zu: %s %s", a->index,
					adjust_kind_names[a->kind],
					a->unit ? a->unit :
					a->side ? a->side :
						  ""),
				a->reason);
		}
	}
	for (size_t i = 0; i < t->in.n_missing; i++)
		push(out, &n, turn, "no-orders", t->in.missing[i], -1,
			xasprintf("%s: the turn closed without his orders", t->in.missing[i]),
			NULL);
	push_schedule(t->c, turn, out, &n);
	return n;
}

void render_overrides(struct buf *b, const struct turn *t)
{
	struct override_item *v;
	size_t n = overrides_of_turn(t, &v);

	if (n)
		buf_puts(b, "\n## Umpire's overrides\n\n");
	for (size_t i = 0; i < n; i++) {
		buf_puts(b, "- ");
		escape_markdown(b, v[i].text);
		if (*v[i].reason) {
			buf_puts(b, ": ");
			escape_markdown(b, v[i].reason);
		}
		buf_puts(b, "\n");
	}
	overrides_free(v, n);
}

/* The rulings and adjustments of the committed umpire's file of turn at tag. */
static void push_rulings(struct campaign *c, int turn, const char *tag, struct override_item **v,
	size_t *n)
{
	char path[LAYOUT_PATH_MAX];
	struct buf bytes = BUF_INIT;
	struct node *root = NULL;
	struct diag d;

	diag_init(&d);
	layout_order_path(path, turn, "umpire");
	if (repo_read(c->repo, tag, path, &bytes) == 0 &&
		node_parse(&root, path, bytes.data ? bytes.data : "", bytes.len, NULL, &d) == 0) {
		const struct node *seq = node_get(root, "orders");
		size_t r = 0;
		for (size_t i = 0; seq && seq->kind == NODE_SEQ && i < seq->n; i++) {
			const struct node *roll = node_get(seq->items[i], "roll");
			const struct node *what = node_get(seq->items[i], "for");
			const struct node *adj = node_get(seq->items[i], "adjust");
			const struct node *who = node_get(seq->items[i], "unit");
			const struct node *why = node_get(seq->items[i], "reason");
#define S(x) ((x) && (x)->kind == NODE_SCALAR ? (x)->scalar : "")
			if (roll)
				push(v, n, turn, "ruling", NULL, -1,
					xasprintf("ruling %zu: %s for %s", ++r, S(roll), S(what)),
					NULL);
			else if (adj)
				push(v, n, turn, "adjustment", NULL, -1,
					xasprintf("adjustment %zu: %s %s", i + 1, S(adj),
						who ? S(who) : S(node_get(seq->items[i], "side"))),
					S(why));
#undef S
		}
	}
	error_clear();
	node_free(root);
	diag_release(&d);
	buf_release(&bytes);
}

int overrides_of_committed(struct campaign *c, int turn, struct override_item **v, size_t *n)
{
	char tag[LAYOUT_TAG_MAX];
	struct journal_record *ex = NULL;
	struct buf bytes = BUF_INIT;
	struct diag d;

	layout_tag(tag, turn);
	if (!repo_has(c->repo, tag)) {
		push_schedule(c, turn, v, n);
		return ERROR_NOTFOUND;
	}
	push_rulings(c, turn, tag, v, n);
	diag_init(&d);
	/* The turn journals EVENTS_NO_ORDERS for each due player it closed without. */
	if (audit_read_export(&ex, c, turn, &bytes, &d) == 0)
		for (size_t i = 0; i < ex->n_events; i++)
			for (size_t k = 0; k < c->n_players; k++) {
				const char *p = c->players[k];
				if (strcmp(ex->events[i].phase, "orders") == 0 &&
					events_is_no_orders(ex->events[i].text, p))
					push(v, n, turn, "no-orders", p, -1,
						xasprintf("%s: the turn closed without his orders",
							p),
						NULL);
			}
	error_clear();
	diag_release(&d);
	journal_record_free(ex);
	buf_release(&bytes);
	push_schedule(c, turn, v, n);
	return 0;
}
