/* render.c — the files a turn writes besides state.yaml: the journal export
 * (journal/turn-NNNN.yaml), everything anyone needs to re-derive and audit the turn, and a
 * Markdown report per player. Canonical output: the same turn renders the same bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/render.h"
#include "core/journal.h"
#include "core/timelock.h"
#include "core/escape.h"
#include "core/missed.h"
#include "core/error.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/end.h"
#include "core/overrides.h"
#include "core/repo.h"
#include "core/svg.h"
#include "core/banned.h"

static void hex32(char out[65], const uint8_t in[32])
{
	hex_encode(out, in, 32);
}

/* One entry of the export's mapping (item: of a sequence's item mapping; first: its first
 * key), as node_emit would write it in the whole document. */
static int put_str(struct buf *b, int item, int first, const char *key, const char *s)
{
	return node_emit_entry(b, item, first, key, s ? s : "", 1);
}

static int put_int(struct buf *b, int item, int first, const char *key, long long v)
{
	char d[DECIMAL_MAX];

	return node_emit_entry(b, item, first, key, decimal_int(d, v), 0);
}

static int put_hash(struct buf *b, const char *key, const uint8_t h[32])
{
	char hex[65];
	hex32(hex, h);
	return put_str(b, 0, 0, key, hex);
}

/* "key:" opening a block sequence of n items, or "key: []" when it is empty. */
static void put_seq(struct buf *b, const char *key, size_t n)
{
	buf_puts(b, key);
	buf_puts(b, n ? ":\n" : ": []\n");
}

/* The export's head: campaign to seed. */
static int put_export_head(struct buf *b, const struct turn *t)
{
	const struct campaign *c = t->c;
	const struct turn_input *in = &t->in;
	const struct turn_output *out = &t->out;
	size_t n_ids;
	const char **ids = campaign_ids(c, &n_ids);
	uint8_t zero[32] = { 0 };
	char hex[65];
	int rc = put_str(b, 0, 0, "campaign", c->id) | put_str(b, 0, 0, "rules", c->rules->name) |
		 put_int(b, 0, 0, "rules_revision", (long long)c->rules->revision) |
		 put_int(b, 0, 0, "turn", (long long)in->turn) | put_hash(b, "key", out->key);
	put_seq(b, "orders", n_ids);
	for (size_t i = 0; i < n_ids; i++) {
		const struct order_file *f = turn_find_file(in, ids[i]);
		/* Sealed: the salted commitment, under the same key (docs/formats.md). */
		hex32(hex, f ? f->digest_hash : zero);
		rc |= put_str(b, 1, 1, "player", ids[i]) |
		      node_emit_entry(b, 1, 0, "received", f ? "true" : "false", 0) |
		      put_str(b, 1, 0, "sha256", hex);
	}
	rc |= put_hash(b, "orders_digest", out->digest) | put_hash(b, "beacon", out->beacon);
	if (in->beacon_value)
		rc |= put_str(b, 0, 0, "beacon_value", in->beacon_value) |
		      put_str(b, 0, 0, "beacon_round", in->beacon_round ? in->beacon_round : "");
	/* Only when given: exports of turns without one stay as they were, byte for byte. */
	if (in->beacon_value && in->beacon_signature)
		rc |= put_str(b, 0, 0, "beacon_signature", in->beacon_signature);
	free(ids);
	return rc | put_hash(b, "seed", out->seed);
}

/* Sealed: `views`, each player's salted commitments to his report and his view of the state,
 * by id (docs/fairness.md, "Sealed turns"). */
static int put_views(struct buf *b, const struct turn *t)
{
	const struct campaign *c = t->c;
	size_t n_ids;
	const char **ids = campaign_ids(c, &n_ids);
	char hex[65];
	int rc = 0;

	put_seq(b, "views", c->n_players);
	for (size_t i = 0; i < n_ids; i++)
		for (size_t k = 0; k < c->n_players; k++) {
			const struct turn_view *v = &t->out.views[k];
			if (strcmp(c->players[k], ids[i]) != 0)
				continue;
			rc |= put_str(b, 1, 1, "player", ids[i]);
			hex32(hex, v->report_sha256);
			rc |= put_str(b, 1, 0, "report_sha256", hex);
			hex32(hex, v->state_sha256);
			rc |= put_str(b, 1, 0, "state_sha256", hex);
		}
	free(ids);
	return rc;
}

/* The reason of void order e as everyone sees it: withheld in a sealed campaign
 * (EVENTS_VOID_WITHHELD; each player's report adds his own, "Your void orders"). */
static const char *void_reason(const struct turn *t, const struct event *e)
{
	return t->c->visibility != CAMPAIGN_SEALED ? e->text : EVENTS_VOID_WITHHELD;
}

/* A void order e as a report lists it: "- [PLAYER ]order N [phase]: reason" (the player
 * when with_player). */
static void put_void(struct buf *b, const struct event *e, int with_player, const char *reason)
{
	buf_puts(b, "- ");
	if (with_player) {
		escape_markdown(b, e->player);
		buf_puts(b, " ");
	}
	buf_printf(b, "order %d [", e->order_index);
	escape_markdown(b, e->phase);
	buf_puts(b, "]: ");
	escape_markdown(b, reason);
	buf_puts(b, "\n");
}

/* journal/turn-NNNN.yaml: everything a player needs to re-derive and audit the turn. Written
 * entry by entry, each exactly as node_emit writes the same tree (check_node compares them):
 * a turn of 10,000 dice builds no tree of 40,000 nodes. */
int render_export(struct buf *b, const struct turn *t)
{
	const struct turn_output *out = &t->out;
	size_t at = b->len, n_void = 0;
	int rc;

	buf_printf(b, "# umpire journal export: turn %d of campaign %s\n", t->in.turn, t->c->id);
	rc = put_export_head(b, t);
	put_seq(b, "dice", out->dice.n);
	for (size_t i = 0; i < out->dice.n; i++) {
		const struct die_record *r = &out->dice.v[i];
		rc |= put_int(b, 1, 1, "index", (long long)r->index) |
		      put_int(b, 1, 0, "sides", (long long)r->sides) |
		      put_int(b, 1, 0, "value", (long long)r->value) |
		      put_str(b, 1, 0, "for", r->purpose);
	}
	for (size_t i = 0; i < out->events.n; i++)
		n_void += out->events.v[i].kind == EVENT_VOID;
	put_seq(b, "events", out->events.n - n_void);
	for (size_t i = 0; i < out->events.n; i++) {
		const struct event *e = &out->events.v[i];
		if (e->kind != EVENT_VOID)
			rc |= put_str(b, 1, 1, "phase", e->phase) |
			      put_str(b, 1, 0, "text", e->text);
	}
	put_seq(b, "void_orders", n_void);
	for (size_t i = 0; i < out->events.n; i++) {
		const struct event *e = &out->events.v[i];
		if (e->kind == EVENT_VOID)
			rc |= put_str(b, 1, 1, "phase", e->phase) |
			      put_str(b, 1, 0, "player", e->player) |
			      put_int(b, 1, 0, "order", (long long)e->order_index) |
			      put_str(b, 1, 0, "reason", void_reason(t, e));
	}
	if (t->out.views) {
		/* Sealed: the public report is bound like the state (issue 25). */
		uint8_t h[FAIR_HASH_BYTES];
		fair_sha256(h, out->public_report.data ? out->public_report.data : "",
			out->public_report.len);
		rc |= put_views(b, t) | put_hash(b, "public_report_sha256", h);
	}
	rc |= put_hash(b, "state_sha256", out->state_sha256) |
	      put_str(b, 0, 0, "summary", out->summary);
	if (rc != 0) {
		b->len = at; /* as node_emit: a failure leaves b as it was */
		if (b->data)
			b->data[at] = '\0';
		return -1;
	}
	return 0;
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
	struct node *w = node_map_add(root, "views", node_new_seq());
	for (size_t k = 0; t->out.views && k < t->c->n_players; k++) {
		const struct turn_view *tv = &t->out.views[k];
		if (player && strcmp(t->c->players[k], player) != 0)
			continue;
		struct node *e = node_seq_add(w, node_new_map());
		node_map_str(e, "player", t->c->players[k]);
		hex32(hex, tv->report_salt);
		node_map_str(e, "report_salt", hex);
		hex32(hex, tv->report_sha256);
		node_map_str(e, "report_sha256", hex);
		hex32(hex, tv->state_salt);
		node_map_str(e, "state_salt", hex);
		hex32(hex, tv->state_sha256);
		node_map_str(e, "state_sha256", hex);
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

	struct buf why = BUF_INIT;
	buf_puts(b, "\n## Randomness\n\n");
	if (campaign_unproven(c, &why)) {
		buf_puts(b, "Not provably fair: ");
		escape_markdown(b, buf_str(&why));
		buf_puts(b, ".\n\n");
	}
	buf_release(&why);
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
		if (c->beacon_demo)
			buf_puts(b,
				"`, its signature checked under the demo beacon's public key; "
				"a demo beacon's secret key is published, so this proves nothing "
				"about fairness.\n");
		else if (c->beacon_key)
			buf_puts(b,
				"`, SHA-256 of the round's signature, which passed the BLS check "
				"under the chain's public key in campaign.yaml (umpire verify checks "
				"it again).\n");
		else
			buf_puts(b, "`: check it against the source.\n");
	} else {
		buf_puts(b, "the players' reveals: `");
		escape_markdown(b, t->in.beacon_value ? t->in.beacon_value : "");
		buf_puts(b, "`.\n");
	}
}

/* One line of the game's list: "- SUBJECT\n", SUBJECT the first line of turn's commit
 * message (layout_commit_subject: "Turn N: " and the summary on one line). */
static void list_subject(struct buf *list, struct buf *subject, int turn, const char *summary)
{
	buf_clear(subject);
	layout_commit_subject(subject, turn, summary);
	buf_puts(list, "- ");
	escape_markdown(list, buf_str(subject));
	buf_puts(list, "\n");
}

/* The journal's rows read for the game's list: the next turn expected, the list, a scratch. */
struct subject_walk {
	int next;
	struct buf *list, subject;
};

static int list_journaled(int turn, const char *summary, void *arg)
{
	struct subject_walk *w = arg;

	if (turn != w->next)
		return 1; /* a turn the journal lacks: git names it and the rest */
	list_subject(w->list, &w->subject, turn, summary);
	w->next++;
	return 0;
}

/* Appends to list the game's turns 1 to t's previous, one "- SUBJECT\n" each. A live turn
 * on the umpire's copy reads them from the journal's turns rows in one query (issue 38: 999
 * commits read made a 1,000-turn game's end its slowest turn); each row's summary is what its
 * commit's subject was written from (layout_commit_subject; verify holds them equal), so the
 * bytes are those verify and replay render from git, where each earlier turn's subject is
 * read from its tag's commit (a clone has no journal). */
static void list_game_turns(struct buf *list, const struct turn *t)
{
	const struct campaign *c = t->c;
	struct subject_walk w = { 1, list, BUF_INIT };
	char tag[LAYOUT_TAG_MAX];

	if (t->source == TURN_LIVE && c->journal &&
		journal_each_summary(c->journal, t->in.turn, list_journaled, &w) < 0)
		error_clear(); /* git lists what the journal could not */
	for (int k = w.next; k < t->in.turn; k++) {
		layout_tag(tag, k);
		buf_clear(&w.subject);
		buf_puts(list, "- ");
		if (repo_subject(c->repo, tag, &w.subject) == 0)
			escape_markdown(list, buf_str(&w.subject));
		else
			buf_printf(list, "Turn %d: (no tag %s)", k, tag);
		buf_puts(list, "\n");
	}
	error_clear();
	buf_release(&w.subject);
}

/* The report of the turn that ends the game: the result as the rule system scores it, and
 * the game turn by turn (list_game_turns). */
static void render_game_end(struct buf *b, const struct turn *t)
{
	const struct campaign *c = t->c;
	struct buf line = BUF_INIT;

	buf_puts(b, "\n## Result\n\n**");
	if (!end_of_events(c, t->in.turn, t->out.events.v, t->out.events.n, NULL, &line, NULL))
		campaign_victory(c, t->state, NULL, &line);
	escape_markdown(b, buf_str(&line));
	buf_puts(b, ".**\n\n");
	buf_release(&line);
	if (c->rules->result)
		c->rules->result(&c->rc, t->state, b);
	buf_printf(b, "\n## The game, turn by turn (%d)\n\n", t->in.turn);
	/* Every report of the turn lists the same subjects: made once a turn, not once a report
	 * (issue 38). */
	struct buf *list = t->out.game_turns, own = BUF_INIT;
	if (!list)
		list = &own;
	if (!list->len)
		list_game_turns(list, t);
	buf_append(b, list->data, list->len);
	buf_release(&own);
	buf_printf(b, "- Turn %d: ", t->in.turn);
	escape_markdown(b, t->out.summary);
	buf_puts(b, "\n");
}

/* What comes next: the game's end and why, or who is due next turn and, for player when he
 * is, the head of his next order file ('umpire rules NAME' lists the orders). */
static void render_next(struct buf *b, const struct turn *t, const char *player)
{
	const struct campaign *c = t->c;
	const char *why = NULL;
	int next = t->in.turn + 1, mine = 0, n = 0;

	buf_puts(b, "\n## Next\n\n");
	struct buf ended = BUF_INIT;
	if (end_of_events(c, t->in.turn, t->out.events.v, t->out.events.n, &ended, NULL, NULL))
		why = buf_str(&ended); /* a concession or the umpire's end (core/end.h) */
	if (why || (c->rules->game_over && c->rules->game_over(&c->rc, t->state, next, &why))) {
		buf_puts(b, "The game is over: ");
		escape_markdown(b, why ? why : "the rule system says so");
		buf_release(&ended);
		buf_puts(b, ".\n");
		render_game_end(b, t);
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
	buf_printf(b,
		"\nYour next order file, to fill in (`umpire check` takes it as it is: no orders; "
		"its orders: `umpire rules %s`):\n\n",
		c->rules->name);
	/* A schema an editor reaches from the player's machine: the campaign's pages carry it
	 * (publish.pages). Else the installed copy's $id, which only the umpire's machine has. */
	const char *pages = c->pbem.publish.pages;
	if (pages)
		buf_printf(b, "```yaml\n# yaml-language-server: $schema=%s%sschemas/", pages,
			pages[strlen(pages) - 1] == '/' ? "" : "/");
	else
		buf_puts(b, "```yaml\n# yaml-language-server: $schema=" RENDER_SCHEMA_ID_BASE);
	buf_printf(b, "%s-orders.schema.json\ncampaign: %s\nturn: %d\nplayer: %s\n", c->rules->name,
		c->id, next, player);
	if (c->entropy == CAMPAIGN_ENTROPY_PLAYERS)
		buf_puts(b, "entropy: # the SHA-256 'umpire nonce' prints\n");
	if (c->rules->orders_template)
		c->rules->orders_template(&c->rc, t->state, next, player, b);
	else
		buf_puts(b, "orders: []\n");
	buf_puts(b, "```\n");
	timelock_note(b, c, next, 1);
}

/* The dice table of out (its head and a row a die) appended to b, or with b NULL only
 * measured; its length in bytes. */
static size_t dice_table(struct buf *b, const struct turn_output *out)
{
	struct buf row = BUF_INIT;
	size_t len = 0;

	for (size_t i = 0; i <= out->dice.n; i++) {
		const struct die_record *r = &out->dice.v[i ? i - 1 : 0];
		buf_clear(&row);
		if (i == 0) {
			buf_puts(&row, "| # | die | roll | for |\n|---:|---|---:|---|\n");
		} else { /* "| index | dsides | value | purpose |": no printf per die */
			buf_puts(&row, "| ");
			buf_put_u64(&row, r->index);
			buf_puts(&row, " | d");
			buf_put_u64(&row, r->sides);
			buf_puts(&row, " | ");
			buf_put_u64(&row, r->value);
			buf_puts(&row, " | ");
			escape_markdown(&row, r->purpose);
			buf_puts(&row, " |\n");
		}
		len += row.len;
		if (b)
			buf_append(b, row.data, row.len);
	}
	buf_release(&row);
	return len;
}

size_t render_report_common(struct buf *b, const struct turn *t)
{
	const struct turn_input *in = &t->in;
	const struct turn_output *out = &t->out;
	size_t at = b->len, unlisted = 0;
	char hex[65];

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
	missed_render(b, t->c, in);
	render_overrides(b, t);
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
		put_void(b, e, 1, void_reason(t, e));
		shown++;
	}
	if (!shown)
		buf_puts(b, "- none\n");
	buf_printf(b, "\n## Dice (%zu)\n\n", out->dice.n);
	if (out->dice.n > RENDER_DICE_LISTED) {
		char path[LAYOUT_PATH_MAX];
		size_t from = b->len;
		layout_export_path(path, in->turn);
		buf_printf(b,
			"Too many to list here: every die, with its index, sides, roll and purpose, "
			"is in the turn's journal export `%s` (`umpire log DIR --turn %d` prints "
			"them).\n",
			path, in->turn);
		unlisted = dice_table(NULL, out) - (b->len - from);
	} else if (out->dice.n) {
		dice_table(b, out);
	}
	hex32(hex, out->seed);
	buf_printf(b, "\nTurn seed `%s`; audit any die with `umpire log` or the journal export.\n",
		hex);
	return b->len - at + unlisted;
}

/* The rule system's view of the state after t for player (NULL: the public one), appended to
 * out. The public report shows it only when the rule system declares what is private
 * (RULES_PRIVATE): another's report hook may assume a player. */
static void situation(struct buf *out, const struct turn *t, const char *player)
{
	const struct campaign *c = t->c;

	if (c->rules->report && (player || (c->rules->flags & RULES_PRIVATE)))
		c->rules->report(&c->rc, t->state, player, out);
}

/* "## Situation" and sit, when the rule system wrote one. */
static void put_situation(struct buf *b, const struct buf *sit)
{
	if (!sit->len)
		return;
	buf_puts(b, "\n## Situation\n\n");
	buf_append(b, sit->data, sit->len);
}

void render_report_from(struct buf *b, const struct turn *t, const char *player,
	const struct buf *common)
{
	const struct campaign *c = t->c;
	const struct turn_input *in = &t->in;
	const struct turn_output *out = &t->out;

	if (player)
		buf_printf(b, "# %s, turn %d: report for %s\n\n", c->id, in->turn, player);
	else
		buf_printf(b, "# %s, turn %d: public report\n\n", c->id, in->turn);
	escape_markdown(b, out->summary);
	buf_puts(b, "\n\n");
	render_map_link(b, c, in->turn, player);
	buf_append(b, common->data, common->len);
	/* Sealed: his own void orders in full (the shared part withholds every reason). */
	size_t own = 0;
	for (size_t i = 0; player && c->visibility == CAMPAIGN_SEALED && i < out->events.n; i++) {
		const struct event *e = &out->events.v[i];
		if (e->kind != EVENT_VOID || !e->player || strcmp(e->player, player) != 0)
			continue;
		if (!own++)
			buf_puts(b, "\n## Your void orders\n\n");
		put_void(b, e, 0, e->text);
	}
	struct buf sit = BUF_INIT;
	situation(&sit, t, player);
	put_situation(b, &sit);
	buf_release(&sit);
	render_next(b, t, player);
}

/* The link to the turn's shared report or map (SUFFIX ".md", ".svg") from a player's report,
 * one folder down: ../turn-NNNN.md. */
static void shared_link(struct buf *b, int turn, const char *suffix)
{
	char tag[LAYOUT_TAG_MAX];

	layout_tag(tag, turn);
	buf_printf(b, "../%s%s", tag, suffix);
}

void render_shared_reports(struct turn *t, const struct buf *common)
{
	const struct campaign *c = t->c;
	struct turn_output *out = &t->out;
	int turn = t->in.turn, same = c->n_players > 0;
	struct buf *sit = xcalloc(c->n_players ? c->n_players : 1, sizeof(*sit));
	struct buf *b = &out->public_report;

	for (size_t k = 0; k < c->n_players; k++) {
		situation(&sit[k], t, c->players[k]);
		same &= sit[k].len == sit[0].len &&
			(!sit[k].len || memcmp(sit[k].data, sit[0].data, sit[0].len) == 0);
	}
	buf_printf(b, "# %s, turn %d: the turn as every player sees it\n\n", c->id, turn);
	escape_markdown(b, out->summary);
	buf_puts(b, "\n\n");
	render_map_link(b, c, turn, NULL);
	buf_append(b, common->data, common->len);
	if (same)
		put_situation(b, &sit[0]);
	for (size_t k = 0; k < c->n_players; k++) {
		const char *p = c->players[k];
		struct buf *r = &out->reports[k];
		buf_printf(r, "# %s, turn %d: report for %s\n\n", c->id, turn, p);
		escape_markdown(r, out->summary);
		buf_puts(r, "\n\n");
		if (!out->maps || out->own_map[k]) {
			render_map_link(r, c, turn, p);
		} else {
			buf_printf(r, "![Map of turn %d](", turn);
			shared_link(r, turn, ".svg");
			buf_puts(r, ")\n\n");
		}
		buf_printf(r,
			"The orders received, randomness, events, void orders, dice%s, the same for "
			"every player, are in [the turn's shared report](",
			same && sit[0].len ? " and situation" : "");
		shared_link(r, turn, ".md");
		buf_puts(r, ").\n");
		if (!same)
			put_situation(r, &sit[k]);
		render_next(r, t, p);
	}
	for (size_t k = 0; k < c->n_players; k++)
		buf_release(&sit[k]);
	free(sit);
}

/* --- maps (docs/formats.md "Maps") -------------------------------------------------------- */

void render_map_link(struct buf *b, const struct campaign *c, int turn, const char *player)
{
	char link[LAYOUT_PATH_MAX];

	if (!c->rules->draw_map) {
		buf_printf(b, "No map: %s has no positions on a table.\n\n", c->rules->title);
		return;
	}
	layout_map_link(link, turn, player, c->visibility == CAMPAIGN_SEALED);
	buf_printf(b, "![Map of turn %d](%s)\n\n", turn, link);
}

/* A map that was drawn with runs, kept when it had to be: drawn plain it would have passed
 * SVG_RUNS_FROM and not SVG_MAX_BYTES (svg_plain_bytes), and with runs it does not pass
 * SVG_MAX_BYTES either. Else out is cut back to at: 0. */
static int runs_kept(struct buf *out, size_t at)
{
	size_t plain = svg_plain_bytes(out, at); /* SIZE_MAX: not one svg.h drawing */

	if (plain != SIZE_MAX && plain > SVG_RUNS_FROM && plain <= SVG_MAX_BYTES &&
		out->len - at <= SVG_MAX_BYTES)
		return 1;
	out->len = at;
	if (out->data)
		out->data[at] = '\0';
	return 0;
}

/* render_map, drawn with runs first when runs_first (a big battle's map most likely needs
 * them: one drawing, not a plain one thrown away), else plain first; the same bytes either
 * way. */
static int render_map_as(struct buf *out, const struct campaign *c, const void *state,
	const struct rules_map *m, const char *player, int runs_first)
{
	size_t at = out->len;

	if (runs_first) {
		svg_set_runs(1);
		c->rules->draw_map(&c->rc, state, m, player, out);
		svg_set_runs(0);
		if (runs_kept(out, at))
			return 1;
	}
	c->rules->draw_map(&c->rc, state, m, player, out);
	if (out->len - at > SVG_RUNS_FROM && out->len - at <= SVG_MAX_BYTES) {
		/* A big battle's map: drawn again with runs, the same picture in fewer bytes;
		 * the maps up to SVG_RUNS_FROM stay as they always were (svg.h). */
		out->len = at;
		out->data[at] = '\0';
		svg_set_runs(1);
		c->rules->draw_map(&c->rc, state, m, player, out);
		svg_set_runs(0);
		if (out->len - at <= SVG_MAX_BYTES)
			return 1;
	}
	if (out->len - at <= SVG_MAX_BYTES)
		return 0;
	/* A runaway drawing: a small map that says so, not a turn refused. */
	struct svg s;
	out->len = at;
	out->data[at] = '\0';
	svg_begin(&s, out, 400, 60, 400, "map too large");
	svg_text(&s, 10, 35, 16, "This map would exceed its size bound: see the report.", NULL);
	svg_end(&s);
	return 0;
}

int render_map(struct buf *out, const struct campaign *c, const void *state,
	const struct rules_map *m, const char *player)
{
	return render_map_as(out, c, state, m, player, 0);
}

int render_keep_before(struct turn *t)
{
	const struct campaign *c = t->c;
	struct diag d;
	struct node *n;
	int rc = 0;

	if (!c->rules->draw_map)
		return 0;
	if (t->before)
		c->rules->state_free(t->before);
	t->before = NULL;
	if (c->rules->state_clone) {
		t->before = c->rules->state_clone(&c->rc, t->state);
		return 0;
	}
	diag_init(&d);
	n = c->rules->state_emit(&c->rc, t->state);
	if (!n || c->rules->state_parse(&t->before, &c->rc, n, &d) < 0)
		rc = error_set(ERROR_INTERNAL,
			"internal error: cannot copy the state before turn %d for its maps",
			t->in.turn);
	node_free(n);
	diag_release(&d);
	return rc;
}

/* Shared (docs/formats.md "Shared reports"): the public map, and a player's map committed only
 * when it shows more than the public one (his hidden groups), compared drawn as the public one
 * was (with runs when it was: a big battle's maps are drawn once each, not plain first). */
static int shared_maps(struct turn *t, const struct rules_map *m)
{
	const struct campaign *c = t->c;
	struct turn_output *out = &t->out;
	int runs = render_map_as(&out->public_map, c, t->state, m, NULL, 1);

	out->own_map = xcalloc(c->n_players ? c->n_players : 1, 1);
	for (size_t i = 0; i < c->n_players; i++) {
		struct buf *b = &out->maps[i];
		/* The rule system's word that his map is the public one (rules.h): twelve sides
		 * of a big battle are twelve drawings saved. */
		if (c->rules->map_as_public &&
			c->rules->map_as_public(&c->rc, t->state, m, c->players[i]))
			continue;
		svg_set_runs(runs);
		c->rules->draw_map(&c->rc, t->state, m, c->players[i], b);
		svg_set_runs(0);
		out->own_map[i] = !svg_same_but_title(b, &out->public_map);
		buf_release(b);
		if (out->own_map[i])
			render_map_as(b, c, t->state, m, c->players[i], runs);
	}
	return 0;
}

int render_maps(struct turn *t)
{
	const struct campaign *c = t->c;
	struct turn_output *out = &t->out;
	struct rules_map m = { t->in.turn, t->before, &out->events };

	if (!c->rules->draw_map)
		return 0;
	out->maps = xcalloc(c->n_players ? c->n_players : 1, sizeof(struct buf));
	if (out->shared)
		return shared_maps(t, &m);
	for (size_t i = 0; i < c->n_players; i++)
		render_map(&out->maps[i], c, t->state, &m, c->players[i]);
	if (c->visibility == CAMPAIGN_SEALED)
		render_map(&out->public_map, c, t->state, &m, NULL);
	return 0;
}

void render_briefing(struct buf *b, const struct campaign *c, const void *state, const char *player)
{
	struct turn t;

	memset(&t, 0, sizeof(t));
	t.c = (struct campaign *)c;
	t.state = (void *)state;
	if (player)
		buf_printf(b, "# %s, turn 0: briefing for %s\n\n", c->id, player);
	else
		buf_printf(b, "# %s, turn 0: public briefing\n\n", c->id);
	buf_puts(b, "The table before turn 1.\n\n");
	render_map_link(b, c, 0, player);
	if (c->rules->report && (player || (c->rules->flags & RULES_PRIVATE))) {
		struct buf sit = BUF_INIT;
		c->rules->report(&c->rc, state, player, &sit);
		if (sit.len) {
			buf_puts(b, "## Situation\n\n");
			buf_append(b, sit.data, sit.len);
		}
		buf_release(&sit);
	}
	render_next(b, &t, player);
}

/* One view's briefing (report and map) into files, under report_path and map_path. */
static void add_briefing(struct file **files, size_t *n, const struct campaign *c,
	const void *state, const char *player, const char *report_path, const char *map_path)
{
	struct buf b = BUF_INIT;
	struct rules_map m = { 0, NULL, NULL };

	render_briefing(&b, c, state, player);
	file_list_add(files, n, report_path, b.data, b.len);
	if (c->rules->draw_map) {
		buf_clear(&b);
		render_map(&b, c, state, &m, player);
		file_list_add(files, n, map_path, b.data, b.len);
	}
	buf_release(&b);
}

void render_briefing_files(struct file **files, size_t *n, const struct campaign *c,
	const void *state, int private_views)
{
	char rp[LAYOUT_PATH_MAX], mp[LAYOUT_PATH_MAX];
	int sealed = c->visibility == CAMPAIGN_SEALED;

	if (sealed && !private_views) {
		layout_public_report_path(rp, 0);
		layout_public_map_path(mp, 0);
		add_briefing(files, n, c, state, NULL, rp, mp);
		return;
	}
	for (size_t i = 0; i < c->n_players; i++) {
		if (sealed) {
			snprintf(rp, sizeof(rp), "%s/report.md", c->players[i]);
			snprintf(mp, sizeof(mp), "%s/%s", c->players[i], LAYOUT_OUTBOX_MAP);
		} else {
			layout_report_path(rp, 0, c->players[i]);
			layout_map_path(mp, 0, c->players[i]);
		}
		add_briefing(files, n, c, state, c->players[i], rp, mp);
	}
}
