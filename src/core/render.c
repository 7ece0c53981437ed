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
		/* Sealed: the salted commitment, under the same key (docs/formats.md). */
		hex32(hex, f ? f->digest_hash : zero);
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

void render_salts(struct buf *b, const struct turn *t, const char *player)
{
	struct node *root = node_new_map();
	char hex[65];

	node_map_str(root, "campaign", t->c->id);
	node_map_int(root, "turn", t->in.turn);
	if (player)
		node_map_str(root, "player", player);
	struct node *v = node_map_add(root, "salts", node_new_seq());
	for (size_t i = 0; i < t->in.n_files; i++) {
		const struct order_file *f = &t->in.files[i];
		if (player && strcmp(f->player, player) != 0)
			continue;
		struct node *e = node_seq_add(v, node_new_map());
		node_map_str(e, "player", f->player);
		hex32(hex, f->salt);
		node_map_str(e, "salt", hex);
		hex32(hex, f->digest_hash);
		node_map_str(e, "sha256", hex);
	}
	buf_printf(b, "# umpire salts: turn %d of campaign %s (docs/fairness.md, Sealed turns)\n",
		t->in.turn, t->c->id);
	node_emit(root, b);
	node_free(root);
}

/* reports/turn-NNNN/<player>.md: what the player needs to read after a turn. */
/* Where the turn's randomness came from, in words a player can check (docs/fairness.md,
 * "Closed turns"); with entropy none, plainly that the umpire could have chosen. */
static void render_randomness(struct buf *b, const struct turn *t)
{
	const struct campaign *c = t->c;

	buf_puts(b, "\n## Randomness\n\n");
	if (c->entropy == CAMPAIGN_ENTROPY_NONE) {
		buf_puts(b,
			"Entropy none: the umpire knew this turn's key before the orders arrived "
			"and could have chosen among outcomes.\n");
		return;
	}
	buf_printf(b, "Closed in commit `%s` (tag close-%04d) before its randomness existed; ",
		t->close_commit, t->in.turn);
	if (c->entropy == CAMPAIGN_ENTROPY_BEACON) {
		buf_puts(b, "beacon round ");
		escape_markdown(b, t->in.beacon_round ? t->in.beacon_round : "?");
		buf_puts(b, " of ");
		escape_markdown(b, c->beacon ? c->beacon : "the beacon");
		buf_puts(b, ", value `");
		escape_markdown(b, t->in.beacon_value ? t->in.beacon_value : "");
		buf_puts(b, "`: check it against the source.\n");
	} else {
		buf_puts(b, "the players' reveals: `");
		escape_markdown(b, t->in.beacon_value ? t->in.beacon_value : "");
		buf_puts(b, "`.\n");
	}
}

/* What comes next: the game's end and why, or who is due next turn and, for player when he
 * is, the head of his next order file ('umpire rules NAME' lists the orders). */
static void render_next(struct buf *b, const struct turn *t, const char *player)
{
	const struct campaign *c = t->c;
	const char *why = NULL;
	int next = t->in.turn + 1, mine = 0, n = 0;

	buf_puts(b, "\n## Next\n\n");
	if (c->rules->game_over && c->rules->game_over(&c->rc, t->state, next, &why)) {
		buf_puts(b, "The game is over: ");
		escape_markdown(b, why ? why : "the rule system says so");
		buf_puts(b, ".\n");
		return;
	}
	buf_printf(b, "Turn %d: due: ", next);
	for (size_t i = 0; i < c->n_players; i++) {
		if (!c->rules->player_due(&c->rc, t->state, next, c->players[i]))
			continue;
		buf_puts(b, n++ ? ", " : "");
		escape_markdown(b, c->players[i]);
		mine |= player && strcmp(c->players[i], player) == 0;
	}
	buf_puts(b, n ? ".\n" : "nobody.\n");
	if (!mine)
		return;
	buf_printf(b, "\nYour next order file starts (its orders: `umpire rules %s`):\n\n",
		c->rules->name);
	buf_printf(b, "```yaml\ncampaign: %s\nturn: %d\nplayer: %s\n", c->id, next, player);
	if (c->entropy == CAMPAIGN_ENTROPY_PLAYERS)
		buf_puts(b, "entropy: # the SHA-256 'umpire nonce' prints\n");
	buf_puts(b, "orders:\n```\n");
}

void render_report(struct buf *b, const struct turn *t, const char *player)
{
	const struct campaign *c = t->c;
	const struct turn_input *in = &t->in;
	const struct turn_output *out = &t->out;
	char hex[65];

	if (player)
		buf_printf(b, "# %s, turn %d: report for %s\n\n", c->id, in->turn, player);
	else
		buf_printf(b, "# %s, turn %d: public report\n\n", c->id, in->turn);
	escape_markdown(b, out->summary);
	buf_puts(b, "\n\n");
	buf_puts(b, "## Orders received\n\n");
	for (size_t i = 0; i < in->n_files; i++) {
		hex32(hex, in->files[i].digest_hash);
		buf_puts(b, "- ");
		escape_markdown(b, in->files[i].player);
		buf_printf(b, ": sha256 `%s`\n", hex);
	}
	for (size_t i = 0; i < in->n_missing; i++) {
		buf_puts(b, "- ");
		escape_markdown(b, in->missing[i]);
		buf_puts(b, ": no orders\n");
	}
	render_randomness(b, t);
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
			buf_printf(b, "| %llu | d%llu | %llu | ", (unsigned long long)r->index,
				(unsigned long long)r->sides, (unsigned long long)r->value);
			escape_markdown(b, r->purpose);
			buf_puts(b, " |\n");
		}
	}
	hex32(hex, out->seed);
	buf_printf(b, "\nTurn seed `%s`; audit any die with `umpire log` or the journal export.\n",
		hex);
	/* The public report (player NULL) shows the rule system's view only when it declares
	 * what is private (RULES_PRIVATE): another's report hook may assume a player. */
	if (c->rules->report && (player || (c->rules->flags & RULES_PRIVATE))) {
		struct buf sit = BUF_INIT;
		c->rules->report(&c->rc, t->state, player, &sit);
		if (sit.len) {
			buf_puts(b, "\n## Situation\n\n");
			buf_append(b, sit.data, sit.len);
		}
		buf_release(&sit);
	}
	render_next(b, t, player);
}
