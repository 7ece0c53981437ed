/* render.c — the files a turn writes besides state.yaml: the journal export
 * (journal/turn-NNNN.yaml), everything anyone needs to re-derive and audit the turn, and a
 * Markdown report per player. Canonical output: the same turn renders the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "core/render.h"
#include "core/escape.h"
#include "core/banned.h"

static void hex32(char out[65], const uint8_t in[32])
{
	hex_encode(out, in, 32);
}

/* Appends v in decimal, as "%llu" would. */
static void put_u64(struct buf *b, uint64_t v)
{
	char d[20];
	size_t n = 0;
	do {
		d[sizeof(d) - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	buf_append(b, d + sizeof(d) - n, n);
}

/* journal/turn-NNNN.yaml: everything a player needs to re-derive and audit the turn. */
int render_export(struct buf *b, const struct turn *t)
{
	const struct campaign *c = t->c;
	const struct turn_input *in = &t->in;
	const struct turn_output *out = &t->out;
	char hex[65];
	size_t n_ids;
	const char **ids = campaign_ids(c, &n_ids);
	struct node *root = node_new_map();

	node_map_str(root, "campaign", c->id);
	node_map_str(root, "rules", c->rules->name);
	node_map_int(root, "rules_revision", c->rules->revision);
	node_map_int(root, "turn", in->turn);
	hex32(hex, out->key);
	node_map_str(root, "key", hex);
	struct node *orders = node_map_add(root, "orders", node_new_seq());
	for (size_t i = 0; i < n_ids; i++) {
		const struct order_file *f = turn_find_file(in, ids[i]);
		struct node *o = node_seq_add(orders, node_new_map());
		uint8_t zero[32] = { 0 };
		node_map_str(o, "player", ids[i]);
		node_map_bool(o, "received", f != NULL);
		hex32(hex, f ? f->sha256 : zero);
		node_map_str(o, "sha256", hex);
	}
	hex32(hex, out->digest);
	node_map_str(root, "orders_digest", hex);
	hex32(hex, out->beacon);
	node_map_str(root, "beacon", hex);
	if (in->beacon_value) {
		node_map_str(root, "beacon_value", in->beacon_value);
		node_map_str(root, "beacon_round", in->beacon_round ? in->beacon_round : "");
	}
	hex32(hex, out->seed);
	node_map_str(root, "seed", hex);

	struct node *dice = node_map_add(root, "dice", node_new_seq());
	for (size_t i = 0; i < out->dice.n; i++) {
		const struct die_record *r = &out->dice.v[i];
		struct node *dn = node_seq_add(dice, node_new_map());
		node_map_int(dn, "index", (long long)r->index);
		node_map_int(dn, "sides", (long long)r->sides);
		node_map_int(dn, "value", (long long)r->value);
		node_map_str(dn, "for", r->purpose);
	}
	struct node *events = node_map_add(root, "events", node_new_seq());
	struct node *voids = node_map_add(root, "void_orders", node_new_seq());
	for (size_t i = 0; i < out->events.n; i++) {
		const struct event *e = &out->events.v[i];
		struct node *en = node_new_map();
		node_map_str(en, "phase", e->phase);
		if (e->kind == EVENT_VOID) {
			node_map_str(en, "player", e->player);
			node_map_int(en, "order", e->order_index);
			node_map_str(en, "reason", e->text);
			node_seq_add(voids, en);
		} else {
			node_map_str(en, "text", e->text);
			node_seq_add(events, en);
		}
	}
	hex32(hex, out->state_sha256);
	node_map_str(root, "state_sha256", hex);
	node_map_str(root, "summary", out->summary);
	buf_printf(b, "# umpire journal export: turn %d of campaign %s\n", in->turn, c->id);
	int rc = node_emit(root, b);
	node_free(root);
	free(ids);
	return rc;
}

/* reports/turn-NNNN/<player>.md: what the player needs to read after a turn. */
void render_report(struct buf *b, const struct turn *t, const char *player)
{
	const struct campaign *c = t->c;
	const struct turn_input *in = &t->in;
	const struct turn_output *out = &t->out;
	char hex[65];

	buf_printf(b, "# %s, turn %d: report for %s\n\n", c->id, in->turn, player);
	escape_markdown(b, out->summary);
	buf_puts(b, "\n\n");
	buf_puts(b, "## Orders received\n\n");
	for (size_t i = 0; i < in->n_files; i++) {
		hex32(hex, in->files[i].sha256);
		buf_puts(b, "- ");
		escape_markdown(b, in->files[i].player);
		buf_printf(b, ": sha256 `%s`\n", hex);
	}
	for (size_t i = 0; i < in->n_missing; i++) {
		buf_puts(b, "- ");
		escape_markdown(b, in->missing[i]);
		buf_puts(b, ": no orders\n");
	}
	buf_puts(b, "\n## Events\n\n");
	size_t shown = 0;
	for (size_t i = 0; i < out->events.n; i++) {
		const struct event *e = &out->events.v[i];
		if (e->kind != EVENT_EVENT)
			continue;
		buf_puts(b, "- [");
		escape_markdown(b, e->phase);
		buf_puts(b, "] ");
		escape_markdown(b, e->text);
		buf_puts(b, "\n");
		shown++;
	}
	if (!shown)
		buf_puts(b, "- none\n");
	buf_puts(b, "\n## Void orders\n\n");
	shown = 0;
	for (size_t i = 0; i < out->events.n; i++) {
		const struct event *e = &out->events.v[i];
		if (e->kind != EVENT_VOID)
			continue;
		buf_puts(b, "- ");
		escape_markdown(b, e->player);
		buf_printf(b, " order %d [", e->order_index);
		escape_markdown(b, e->phase);
		buf_puts(b, "]: ");
		escape_markdown(b, e->text);
		buf_puts(b, "\n");
		shown++;
	}
	if (!shown)
		buf_puts(b, "- none\n");
	buf_printf(b, "\n## Dice (%zu)\n\n", out->dice.n);
	if (out->dice.n) {
		buf_puts(b, "| # | die | roll | for |\n|---:|---|---:|---|\n");
		for (size_t i = 0; i < out->dice.n; i++) {
			const struct die_record *r = &out->dice.v[i];
			/* "| index | dsides | value | ", a row per die: no printf per die. */
			buf_puts(b, "| ");
			put_u64(b, r->index);
			buf_puts(b, " | d");
			put_u64(b, r->sides);
			buf_puts(b, " | ");
			put_u64(b, r->value);
			buf_puts(b, " | ");
			escape_markdown(b, r->purpose);
			buf_puts(b, " |\n");
		}
	}
	hex32(hex, out->seed);
	buf_printf(b, "\nTurn seed `%s`; audit any die with `umpire log` or the journal export.\n",
		hex);
	if (c->rules->report) {
		buf_puts(b, "\n## Situation\n\n");
		c->rules->report(&c->rc, t->state, player, b);
	}
}
