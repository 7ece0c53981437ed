/* audit.c — checking a recorded turn: reading a journal export back, re-doing the fairness
 * derivation on the record, re-resolving the turn from its committed order files through the
 * turn pipeline, and naming the first thing that differs. Shared by replay, verify and audit
 * so the three can never disagree about what a turn must be. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/audit.h"
#include "core/beacon.h"
#include "core/fair.h"
#include "core/layout.h"
#include "core/banned.h"

#define DIE_LABEL "umpire/die/v1"
#define DIE_LABEL_LEN 13

static const char *const export_keys[] = {
	"campaign",
	"rules",
	"rules_revision",
	"turn",
	"key",
	"orders",
	"orders_digest",
	"beacon",
	"beacon_value",
	"beacon_round",
	"beacon_signature",
	"seed",
	"dice",
	"events",
	"void_orders",
	"views",
	"public_report_sha256",
	"state_sha256",
	"summary",
	NULL,
};
static const char *const export_order_keys[] = { "player", "received", "sha256", NULL };
static const char *const export_die_keys[] = { "index", "sides", "value", "for", NULL };
static const char *const export_event_keys[] = { "phase", "text", NULL };
static const char *const export_void_keys[] = { "phase", "player", "order", "reason", NULL };
static const char *const export_view_keys[] = { "player", "report_sha256", "state_sha256", NULL };

/* --- reading a journal export ------------------------------------------------------------ */

/* A hash in an export: 64 lower-case hex digits, decoded to bytes here at the YAML edge. */
static int want_hash(const struct node *n, const char *what, uint8_t out[FAIR_HASH_BYTES],
	struct diag *d)
{
	const char *s;

	if (!n || node_want_str(n, what, 64, &s, d) < 0)
		return -1;
	if (strlen(s) != 64 || strspn(s, "0123456789abcdef") != 64 ||
		hex_decode(out, FAIR_HASH_BYTES, s) < 0) {
		node_error(d, n, "%s is not 64 lower-case hex digits", what);
		return -1;
	}
	return 0;
}

/* An unsigned decimal up to 2^64-1: dice may have more faces than a long long holds. */
static int want_u64(const struct node *n, const char *what, uint64_t min, uint64_t *out,
	struct diag *d)
{
	const char *s;
	char *end;

	if (!n || node_want_str(n, what, 24, &s, d) < 0)
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (n->quoted || !*s || *end || errno || s[0] == '-' || s[0] == '+' || v < min) {
		node_error(d, n, "%s '%s' (a whole number from %" PRIu64 " expected)", what, s,
			min);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

static char *dup_str(const struct node *n, const char *what, struct diag *d)
{
	const char *s;

	if (!n || node_want_str(n, what, 0, &s, d) < 0)
		return NULL;
	return xstrdup(s);
}

/* The export must list exactly the campaign's players plus umpire, sorted by id. */
static void check_export_players(const struct journal_record *r, const struct campaign *c,
	const struct node *orders, struct diag *d)
{
	size_t n;
	const char **ids = campaign_ids(c, &n);
	int same = r->n_orders == n;

	for (size_t i = 0; same && i < n; i++)
		same = r->orders[i].player && strcmp(r->orders[i].player, ids[i]) == 0;
	if (!same) {
		struct buf list = BUF_INIT;
		for (size_t i = 0; i < n; i++)
			buf_printf(&list, "%s%s", i ? ", " : "", ids[i]);
		node_error(d, orders,
			"orders does not list every player once, sorted by id (%s expected)",
			buf_str(&list));
		buf_release(&list);
	}
	free(ids);
}

/* The export's top-level scalars: campaign, rules and revision checked against c (when given),
 * the turn, hashes, summary and beacon fields into r. */
static void parse_export_head(struct journal_record *r, const struct campaign *c,
	const struct node *root, struct diag *d)
{
	const struct node *n;
	const char *s;
	long long t, rev = 1; /* an export without rules_revision predates revisions: 1 */

	n = node_need(root, "campaign", d);
	if (n && node_want_str(n, "campaign", 64, &s, d) == 0 && c && strcmp(s, c->id) != 0)
		node_error(d, n, "export of campaign '%s' ('%s' expected)", s, c->id);
	n = node_need(root, "rules", d);
	if (n && node_want_str(n, "rules", 64, &s, d) == 0 && c && strcmp(s, c->rules->name) != 0)
		node_error(d, n, "export for rules '%s' ('%s' expected)", s, c->rules->name);
	n = node_get(root, "rules_revision");
	if (n && node_want_int(n, "rules_revision", 1, 1000000, &rev, d) == 0 && c &&
		rev != c->rules_revision)
		node_error(d, n,
			"export of %s revision %lld (the campaign is played with revision %d)",
			c->rules->name, rev, c->rules_revision);
	n = node_need(root, "turn", d);
	if (n && node_want_int(n, "turn", 1, TURN_MAX, &t, d) == 0)
		r->turn = (int)t;
	want_hash(node_need(root, "key", d), "key", r->key, d);
	want_hash(node_need(root, "orders_digest", d), "orders_digest", r->orders_digest, d);
	want_hash(node_need(root, "beacon", d), "beacon", r->beacon, d);
	want_hash(node_need(root, "seed", d), "seed", r->seed, d);
	want_hash(node_need(root, "state_sha256", d), "state_sha256", r->state_sha256, d);
	r->summary = dup_str(node_need(root, "summary", d), "summary", d);
	if ((n = node_get(root, "beacon_value")))
		r->beacon_value = dup_str(n, "beacon_value", d);
	if ((n = node_get(root, "beacon_round")))
		r->beacon_round = dup_str(n, "beacon_round", d);
	if ((n = node_get(root, "beacon_signature")))
		r->beacon_signature = dup_str(n, "beacon_signature", d);
}

/* orders: one entry per player plus umpire, received or not (an absent file's hash is zeros). */
static void parse_export_orders(struct journal_record *r, const struct campaign *c,
	const struct node *orders, struct diag *d)
{
	static const uint8_t zero[FAIR_HASH_BYTES];
	size_t before = diag_count(d);

	if (!orders || node_check_seq(orders, "orders", CAMPAIGN_MAX_PLAYERS + 1, d) < 0)
		return;
	r->orders = xcalloc(orders->n + 1, sizeof(*r->orders));
	for (size_t i = 0; i < orders->n; i++) {
		const struct node *o = orders->items[i], *n;
		struct journal_order *jo = &r->orders[r->n_orders++];
		int received = 0;
		if (node_check_map(o, "order entry", export_order_keys, d) < 0)
			continue;
		jo->player = dup_str(node_need(o, "player", d), "player", d);
		n = node_need(o, "received", d);
		if (n)
			node_want_bool(n, "received", &received, d);
		if (want_hash(node_need(o, "sha256", d), "sha256", jo->sha256, d) < 0)
			continue;
		if (!received && memcmp(jo->sha256, zero, FAIR_HASH_BYTES) != 0)
			node_error(d, node_get(o, "sha256"),
				"sha256 of orders that were not received (64 zeros expected)");
		jo->has_file = received;
	}
	if (c && diag_count(d) == before)
		check_export_players(r, c, orders, d);
}

/* views: a sealed turn's commitments to each player's report and view, every player once, by
 * id; an open campaign's export has none (docs/formats.md). */
static void parse_export_views(struct journal_record *r, const struct campaign *c,
	const struct node *root, struct diag *d)
{
	const struct node *views = node_get(root, "views");
	size_t n_ids, at = 0;
	const char **ids;

	if (c && !views && c->visibility == CAMPAIGN_SEALED)
		node_error(d, root,
			"a sealed turn's export has no views (each player's commitments)");
	if (c && views && c->visibility != CAMPAIGN_SEALED)
		node_error(d, views, "views in the export of an open campaign");
	/* A sealed turn's public report, bound by its hash as the state is (issue 25). */
	const struct node *pr = node_get(root, "public_report_sha256");
	if (pr && want_hash(pr, "public_report_sha256", r->public_report_sha256, d) == 0)
		r->has_public_report = 1;
	if (c && !pr && c->visibility == CAMPAIGN_SEALED)
		node_error(d, root,
			"a sealed turn's export has no public_report_sha256 (the SHA-256 of reports/turn-NNNN.md)");
	if (c && pr && c->visibility != CAMPAIGN_SEALED)
		node_error(d, pr, "public_report_sha256 in the export of an open campaign");
	if (!views || node_check_seq(views, "views", CAMPAIGN_MAX_PLAYERS, d) < 0)
		return;
	r->views = xcalloc(views->n + 1, sizeof(*r->views));
	for (size_t i = 0; i < views->n; i++) {
		const struct node *e = views->items[i];
		struct journal_view *jv = &r->views[r->n_views];
		if (node_check_map(e, "view entry", export_view_keys, d) < 0)
			continue;
		jv->player = dup_str(node_need(e, "player", d), "player", d);
		r->n_views++;
		want_hash(node_need(e, "report_sha256", d), "report_sha256", jv->report_sha256, d);
		want_hash(node_need(e, "state_sha256", d), "state_sha256", jv->state_sha256, d);
	}
	if (!c)
		return;
	ids = campaign_ids(c, &n_ids);
	int same = r->n_views == c->n_players;
	for (size_t i = 0; same && i < n_ids; i++)
		if (strcmp(ids[i], UMPIRE_PLAYER) != 0)
			same = r->views[at].player && strcmp(r->views[at++].player, ids[i]) == 0;
	if (!same)
		node_error(d, views, "views does not list every player once, sorted by id");
	free(ids);
}

static void parse_export_dice(struct journal_record *r, const struct node *dice, struct diag *d)
{
	if (!dice || node_check_seq(dice, "dice", DICE_MAX_PER_TURN, d) < 0)
		return;
	r->dice = xcalloc(dice->n + 1, sizeof(*r->dice));
	for (size_t i = 0; i < dice->n; i++) {
		const struct node *o = dice->items[i];
		struct die_record *dr = &r->dice[r->n_dice++];
		if (node_check_map(o, "die", export_die_keys, d) < 0)
			continue;
		want_u64(node_need(o, "index", d), "index", 0, &dr->index, d);
		want_u64(node_need(o, "sides", d), "sides", 2, &dr->sides, d);
		want_u64(node_need(o, "value", d), "value", 1, &dr->value, d);
		dr->purpose = dup_str(node_need(o, "for", d), "for", d);
	}
}

/* events, then void_orders, both into r->events in that order (the journal's order). */
static void parse_export_events(struct journal_record *r, const struct node *events,
	const struct node *voids, struct diag *d)
{
	size_t ne = events && events->kind == NODE_SEQ ? events->n : 0;
	size_t nv = voids && voids->kind == NODE_SEQ ? voids->n : 0;

	r->events = xcalloc(ne + nv + 1, sizeof(*r->events));
	if (events && node_check_seq(events, "events", 1000000, d) == 0) {
		for (size_t i = 0; i < ne; i++) {
			const struct node *o = events->items[i];
			struct event *e = &r->events[r->n_events++];
			e->kind = EVENT_EVENT;
			if (node_check_map(o, "event", export_event_keys, d) < 0)
				continue;
			e->phase = dup_str(node_need(o, "phase", d), "phase", d);
			e->text = dup_str(node_need(o, "text", d), "text", d);
		}
	}
	if (voids && node_check_seq(voids, "void_orders", 1000000, d) == 0) {
		for (size_t i = 0; i < nv; i++) {
			const struct node *o = voids->items[i], *n;
			struct event *e = &r->events[r->n_events++];
			long long k;
			e->kind = EVENT_VOID;
			if (node_check_map(o, "void order", export_void_keys, d) < 0)
				continue;
			e->phase = dup_str(node_need(o, "phase", d), "phase", d);
			e->player = dup_str(node_need(o, "player", d), "player", d);
			n = node_need(o, "order", d);
			if (n && node_want_int(n, "order", 0, 1000000, &k, d) == 0)
				e->order_index = (int)k;
			e->text = dup_str(node_need(o, "reason", d), "reason", d);
		}
	}
}

/* --- the dice of an export, read without a tree ---------------------------------------- */

/* The line at *at (its break left out) in [*at, end), *at moved past its break; NULL when
 * the line does not start with prefix. */
static const char *take_line(const char **at, const char *end, const char *prefix, size_t *len)
{
	size_t plen = strlen(prefix);
	const char *s = *at, *nl;

	if ((size_t)(end - s) < plen || memcmp(s, prefix, plen) != 0)
		return NULL;
	nl = memchr(s, '\n', (size_t)(end - s));
	if (!nl)
		return NULL;
	*at = nl + 1;
	*len = (size_t)(nl - s) - plen;
	return s + plen;
}

/* A canonical decimal ("0", or no leading zero) of at least min, up to 2^64-1. */
static int fast_u64(const char *s, size_t len, uint64_t min, uint64_t *out)
{
	uint64_t v = 0;

	if (len == 0 || len > 20 || (s[0] == '0' && len > 1))
		return -1;
	for (size_t i = 0; i < len; i++) {
		unsigned dg = (unsigned)(s[i] - '0');
		if (dg > 9 || v > (UINT64_MAX - dg) / 10)
			return -1;
		v = v * 10 + dg;
	}
	if (v < min)
		return -1;
	*out = v;
	return 0;
}

/* Whether the n bytes at s, between double quotes, are a YAML double-quoted scalar that reads
 * back as exactly those bytes: printable ASCII with nothing to escape ('"', '\\') and no
 * break or tab for libyaml to fold. */
static int plain_quoted(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e || s[i] == '"' || s[i] == '\\')
			return 0;
	return 1;
}

/* The string a `for:` value (len bytes at s) is, when libyaml reads it back as that string:
 * a plain double-quoted one (plain_quoted), or exactly what render_export writes for the
 * string; else -1 (the caller then parses the export as YAML). Either way the string is the
 * one libyaml reads, so the record is the same. It is appended to pool, NUL-terminated, and
 * its offset there returned. */
static long fast_purpose(const char *s, size_t len, struct buf *pool, struct buf *tmp)
{
	int quoted = len >= 2 && s[0] == '"' && s[len - 1] == '"';
	size_t n = quoted ? len - 2 : len, at = pool->len;

	/* copied, not formatted: one per die of a dense turn */
	buf_append(pool, quoted ? s + 1 : s, n);
	buf_append(pool, "", 1);
	const char *str = pool->data + at;
	if (quoted && plain_quoted(str, n))
		return (long)at;
	buf_clear(tmp);
	if (memchr(str, '\0', n) || node_emit_entry(tmp, 1, 0, "for", str, 1) < 0 ||
		tmp->len != len + 8 || memcmp(tmp->data + 7, s, len) != 0)
		return -1;
	return (long)at;
}

/* The dice of an export written as render_export writes them, read line by line from
 * [*at, end) (just after "dice:\n") into r (their purposes in one block, r->purposes),
 * *at left at the line after the last die. Returns 0, or -1 with no dice in r when any line
 * is not in that form (the caller then parses the whole export as YAML, which names what is
 * wrong). */
static int fast_dice(struct journal_record *r, const char **at, const char *end, size_t max_scalar)
{
	struct buf tmp = BUF_INIT, pool = BUF_INIT;
	size_t cap = 0, len, *offset = NULL;
	const char *p = *at, *s;
	long off = -1;
	int rc = 0;

	while (rc == 0 && (size_t)(end - p) > 9 && memcmp(p, "- index: ", 9) == 0) {
		struct die_record dr = { 0 };
		if (r->n_dice == DICE_MAX_PER_TURN) {
			rc = -1;
			break;
		}
		rc = (s = take_line(&p, end, "- index: ", &len)) &&
				     fast_u64(s, len, 0, &dr.index) == 0 &&
				     (s = take_line(&p, end, "  sides: ", &len)) &&
				     fast_u64(s, len, 2, &dr.sides) == 0 &&
				     (s = take_line(&p, end, "  value: ", &len)) &&
				     fast_u64(s, len, 1, &dr.value) == 0 &&
				     (s = take_line(&p, end, "  for: ", &len)) &&
				     len <= max_scalar &&
				     (off = fast_purpose(s, len, &pool, &tmp)) >= 0 ?
			     0 :
			     -1;
		if (rc < 0)
			break;
		if (r->n_dice == cap) {
			cap = cap ? 2 * cap : 64;
			r->dice = xrealloc(r->dice, (cap + 1) * sizeof(*r->dice));
			offset = xrealloc(offset, cap * sizeof(*offset));
		}
		offset[r->n_dice] = (size_t)off;
		r->dice[r->n_dice++] = dr;
	}
	if (rc == 0 && r->n_dice > 0) {
		r->purposes = buf_detach(&pool);
		for (size_t i = 0; i < r->n_dice; i++)
			r->dice[i].purpose = r->purposes + offset[i];
	} else {
		r->n_dice = 0;
	}
	free(offset);
	buf_release(&pool);
	buf_release(&tmp);
	*at = p;
	return rc;
}

/* Whether root's dice is the "dice: []" put on line `line` (1-based) of the document: the
 * text before it was read as the export's own keys, not as part of a multi-line scalar. */
static int is_dice_at(const struct node *root, int line)
{
	for (size_t i = 0; i < root->n; i++)
		if (strcmp(root->keys[i]->scalar, "dice") == 0)
			return root->keys[i]->line == line && root->keys[i]->column == 1 &&
			       root->items[i]->kind == NODE_SEQ && root->items[i]->n == 0 &&
			       root->items[i]->line == line;
	return 0;
}

/* Parses the export with its dice read by fast_dice and the rest (with "dice: []") as YAML.
 * Returns 0, or -1 with r's dice dropped, when the export is not in render_export's form:
 * the whole export is then parsed as YAML. */
static int parse_export_fast(struct journal_record *r, const struct campaign *c, const char *name,
	const char *bytes, size_t len, const struct node_limits *lim)
{
	static const char open[] = "\ndice:\n";
	const char *end = bytes + len, *at = NULL, *rest;
	struct buf doc = BUF_INIT;
	struct node *root = NULL;
	struct diag d;
	int rc = -1, line = 1;

	/* p < end before end - p - 1: an empty export has no line to look at (issue 25). */
	for (const char *p = bytes; p && p < end && !at;
		p = end - p > 1 ? memchr(p + 1, '\n', (size_t)(end - p - 1)) : NULL)
		if ((size_t)(end - p) >= sizeof(open) - 1 && memcmp(p, open, sizeof(open) - 1) == 0)
			at = p + sizeof(open) - 1;
	if (!at || len > lim->max_bytes)
		return -1;
	rest = at;
	for (const char *p = bytes; p < at - 1; p++)
		line += *p == '\n';
	diag_init(&d);
	if (fast_dice(r, &rest, end, lim->max_scalar) == 0 && r->n_dice > 0 &&
		(size_t)(end - rest) >= 8 && memcmp(rest, "events:", 7) == 0) {
		buf_append(&doc, bytes, (size_t)(at - bytes) - 1);
		buf_puts(&doc, " []\n");
		buf_append(&doc, rest, (size_t)(end - rest));
		if (node_parse(&root, name, doc.data, doc.len, lim, &d) == 0 &&
			node_check_map(root, "journal export", export_keys, &d) == 0 &&
			is_dice_at(root, line)) {
			parse_export_head(r, c, root, &d);
			parse_export_orders(r, c, node_need(root, "orders", &d), &d);
			parse_export_views(r, c, root, &d);
			parse_export_events(r, node_need(root, "events", &d),
				node_need(root, "void_orders", &d), &d);
			rc = diag_count(&d) ? -1 : 0;
		}
	}
	node_free(root);
	diag_release(&d);
	buf_release(&doc);
	return rc;
}

int audit_parse_export(struct journal_record **out, const struct campaign *c, const char *name,
	const void *bytes, size_t len, struct diag *d)
{
	struct node_limits lim = { .max_bytes = 64u << 20,
		.max_depth = 8,
		.max_nodes = 4000000,
		.max_scalar = 65536 };
	struct journal_record *r = xcalloc(1, sizeof(*r));
	struct node *root = NULL;
	size_t before = diag_count(d);

	*out = NULL;
	/* An export as render_export writes it (as every one verify can pass is): its dice,
	 * most of it, are read without a tree. Anything else is parsed whole, as YAML. */
	if (parse_export_fast(r, c, name, bytes, len, &lim) == 0) {
		*out = r;
		return 0;
	}
	journal_record_free(r);
	r = xcalloc(1, sizeof(*r));
	if (node_parse(&root, name, bytes, len, &lim, d) == 0 &&
		node_check_map(root, "journal export", export_keys, d) == 0) {
		parse_export_head(r, c, root, d);
		parse_export_orders(r, c, node_need(root, "orders", d), d);
		parse_export_views(r, c, root, d);
		parse_export_dice(r, node_need(root, "dice", d), d);
		parse_export_events(r, node_need(root, "events", d),
			node_need(root, "void_orders", d), d);
	}
	node_free(root);
	if (diag_count(d) != before) {
		journal_record_free(r);
		return -1;
	}
	*out = r;
	return 0;
}

int audit_read_export(struct journal_record **out, struct campaign *c, int turn, struct buf *bytes,
	struct diag *d)
{
	char tag[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX];
	struct buf own = BUF_INIT;
	struct buf *b = bytes ? bytes : &own;
	int rc;

	*out = NULL;
	layout_tag(tag, turn);
	layout_export_path(path, turn);
	rc = repo_read(c->repo, tag, path, b);
	if (rc == 0 && audit_parse_export(out, c, path, b->data ? b->data : "", b->len, d) < 0)
		rc = error_set(ERROR_INPUT, "%s cannot be read", path);
	buf_release(&own);
	return rc;
}

/* --- the journal against the export ----------------------------------------------------------- */

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The order of player in r, or NULL. */
static const struct journal_order *order_of(const struct journal_record *r, const char *player)
{
	for (size_t i = 0; i < r->n_orders; i++)
		if (r->orders[i].player && strcmp(r->orders[i].player, player) == 0)
			return &r->orders[i];
	return NULL;
}

/* The k-th event of kind in r (in order), or NULL. */
static const struct event *nth_event(const struct journal_record *r, enum event_kind kind, size_t k)
{
	for (size_t i = 0; i < r->n_events; i++)
		if (r->events[i].kind == kind && k-- == 0)
			return &r->events[i];
	return NULL;
}

static size_t count_events(const struct journal_record *r, enum event_kind kind)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_events; i++)
		n += r->events[i].kind == kind;
	return n;
}

/* Each order of a that has a file is one of b, with a file and the same hash. NULL, or the
 * player for whom it is not so. */
static const char *orders_within(const struct journal_record *a, const struct journal_record *b)
{
	for (size_t i = 0; i < a->n_orders; i++) {
		const struct journal_order *o = &a->orders[i], *p;
		if (!o->has_file)
			continue;
		p = order_of(b, o->player);
		if (!p || !p->has_file || memcmp(o->sha256, p->sha256, FAIR_HASH_BYTES) != 0)
			return o->player;
	}
	return NULL;
}

/* withheld: b is a sealed campaign's export, whose void orders' reasons are withheld. */
static int same_event(const struct event *a, const struct event *b, int withheld)
{
	if (!b->phase || !b->text || a->kind != b->kind)
		return 0;
	if (a->kind == EVENT_VOID && (a->order_index != b->order_index || !b->player ||
					     strcmp(a->player, b->player) != 0))
		return 0;
	const char *want = withheld && a->kind == EVENT_VOID ? EVENTS_VOID_WITHHELD : a->text;
	return strcmp(want, b->text) == 0 && strcmp(a->phase, b->phase) == 0;
}

int audit_journal_export(const struct journal_record *jr, const struct journal_record *ex)
{
	char path[LAYOUT_PATH_MAX];
	const char *what = NULL, *who;
	int t = ex->turn;

	layout_export_path(path, t);
	if (memcmp(jr->key, ex->key, FAIR_HASH_BYTES) != 0)
		what = "key";
	else if (memcmp(jr->orders_digest, ex->orders_digest, FAIR_HASH_BYTES) != 0)
		what = "orders digest D_t";
	else if (memcmp(jr->beacon, ex->beacon, FAIR_HASH_BYTES) != 0 ||
		 !same_str(jr->beacon_value, ex->beacon_value) ||
		 !same_str(jr->beacon_round, ex->beacon_round))
		what = "beacon";
	else if (memcmp(jr->seed, ex->seed, FAIR_HASH_BYTES) != 0)
		what = "seed";
	else if (memcmp(jr->state_sha256, ex->state_sha256, FAIR_HASH_BYTES) != 0)
		what = "state hash";
	else if (!same_str(jr->summary, ex->summary))
		what = "summary";
	if (what)
		return error_set(ERROR_INPUT, "turn %d: the journal's %s differs from %s's", t,
			what, path);
	/* sha256 is the file's hash when open, its salted commitment when sealed: both sides
	 * keep the same one */
	if ((who = orders_within(jr, ex)) || (who = orders_within(ex, jr)))
		return error_set(ERROR_INPUT,
			"turn %d: the journal's orders of %s differ from %s's (a file received or not, or its hash)",
			t, who, path);
	if (jr->n_dice != ex->n_dice)
		return error_set(ERROR_INPUT, "turn %d: the journal has %zu dice, %s lists %zu", t,
			jr->n_dice, path, ex->n_dice);
	for (size_t i = 0; i < jr->n_dice; i++) {
		const struct die_record *a = &jr->dice[i], *b = &ex->dice[i];
		if (a->sides != b->sides || a->value != b->value ||
			!same_str(a->purpose, b->purpose))
			return error_set(ERROR_INPUT,
				"turn %d: die %zu: the journal has d%llu = %llu, %s d%llu = %llu",
				t, i, (unsigned long long)a->sides, (unsigned long long)a->value,
				path, (unsigned long long)b->sides, (unsigned long long)b->value);
	}
	for (int k = 0; k < 2; k++) {
		enum event_kind kind = k ? EVENT_VOID : EVENT_EVENT;
		size_t n = count_events(jr, kind);
		if (n != count_events(ex, kind))
			return error_set(ERROR_INPUT,
				"turn %d: the journal has %zu %s, %s lists %zu", t, n,
				k ? "void orders" : "events", path, count_events(ex, kind));
		for (size_t i = 0; i < n; i++) {
			const struct event *a = nth_event(jr, kind, i), *b = nth_event(ex, kind, i);
			/* a sealed turn's export withholds every void order's reason (events.h) */
			if (!same_event(a, b, ex->has_public_report))
				return error_set(ERROR_INPUT,
					"turn %d: the journal's %s %zu differs from %s's", t,
					k ? "void order" : "event", i + 1, path);
		}
	}
	return 0;
}

/* --- fairness ------------------------------------------------------------------------------ */

static void hex32(char out[65], const uint8_t in[FAIR_HASH_BYTES])
{
	hex_encode(out, in, FAIR_HASH_BYTES);
}

/* The last key check_key proved to chain to a commitment: replay and verify check turns in
 * order, and k_t chains to the commitment in t steps when SHA256(k_t) = k_(t-1), which took
 * t - 1 steps. So a run walks the chain once, not once per turn (T^2/2 hashes). One per
 * thread: verify's threads each check runs of consecutive turns. */
static _Thread_local struct {
	uint8_t commitment[FAIR_HASH_BYTES];
	uint8_t key[FAIR_HASH_BYTES];
	int turn; /* 0: nothing proved yet */
} key_proved;

/* 1 if k_t of turn t follows from the key proved last, else 0 (then walk the whole chain). */
static int key_follows_proved(const struct campaign *c, const uint8_t key[FAIR_HASH_BYTES], int t)
{
	uint8_t h[FAIR_HASH_BYTES];

	if (key_proved.turn < 1 ||
		memcmp(key_proved.commitment, c->commitment, FAIR_HASH_BYTES) != 0)
		return 0;
	if (key_proved.turn == t)
		return memcmp(key_proved.key, key, FAIR_HASH_BYTES) == 0;
	if (key_proved.turn != t - 1)
		return 0;
	fair_sha256(h, key, FAIR_HASH_BYTES);
	return memcmp(h, key_proved.key, FAIR_HASH_BYTES) == 0;
}

/* The turn key chains to the commitment in t steps. */
static int check_key(const struct campaign *c, const struct journal_record *r, const char *source)
{
	uint8_t h[FAIR_HASH_BYTES];
	char hex[65], want[65], key[65];
	int t = r->turn;

	if (t < 1 || (uint32_t)t > c->chain_length)
		return error_set(ERROR_INPUT, "turn %d: beyond the key chain of %u turns", t,
			c->chain_length);
	if (key_follows_proved(c, r->key, t) ||
		fair_key_check(r->key, (uint32_t)t, c->commitment)) {
		memcpy(key_proved.commitment, c->commitment, FAIR_HASH_BYTES);
		memcpy(key_proved.key, r->key, FAIR_HASH_BYTES);
		key_proved.turn = t;
		return 0;
	}
	memcpy(h, r->key, FAIR_HASH_BYTES);
	for (int i = 0; i < t; i++)
		fair_sha256(h, h, FAIR_HASH_BYTES);
	hex32(hex, h);
	hex32(want, c->commitment);
	hex32(key, r->key);
	return error_set(ERROR_INPUT,
		"turn %d: the key %s in %s does not chain to the commitment: SHA256 "
		"applied %d time%s gives %s, campaign.yaml commits to %s",
		t, key, source, t, t == 1 ? "" : "s", hex, want);
}

/* The message "turn T: REST" becomes "turn T: source: REST" (class kept). -1. */
static int with_source(int t, const char *source)
{
	const char *m = error_last()->message;
	const char *rest = strchr(m, ':');
	char *copy = xstrdup(rest && rest[1] == ' ' ? rest + 2 : m);
	error_set(error_last()->klass, "turn %d: %s: %s", t, source, copy);
	free(copy);
	return -1;
}

/* D_t from the recorded per-player hashes; B_t from the beacon value. */
static int check_digest_beacon(const struct campaign *c, const struct journal_record *r,
	const char *source, uint8_t digest[FAIR_HASH_BYTES], uint8_t beacon[FAIR_HASH_BYTES])
{
	size_t n_ids = c->n_players + 1;
	struct fair_order *fo = xcalloc(n_ids, sizeof(*fo));
	char hex[65], want[65];
	int t = r->turn;

	for (size_t i = 0; i < c->n_players; i++)
		fo[i].player = c->players[i];
	fo[c->n_players].player = UMPIRE_PLAYER;
	for (size_t i = 0; i < n_ids; i++) {
		const struct journal_order *o = journal_record_order(r, fo[i].player);
		fo[i].has_file = o && o->has_file;
		if (fo[i].has_file)
			memcpy(fo[i].sha256, o->sha256, FAIR_HASH_BYTES);
	}
	fair_orders_digest(digest, fo, n_ids);
	free(fo);
	if (memcmp(digest, r->orders_digest, FAIR_HASH_BYTES) != 0) {
		hex32(hex, digest);
		hex32(want, r->orders_digest);
		return error_set(ERROR_INPUT,
			"turn %d: orders digest differs: the order hashes in %s give %s, it says %s",
			t, source, hex, want);
	}
	if (c->entropy == CAMPAIGN_ENTROPY_BEACON && !r->beacon_value)
		return error_set(ERROR_INPUT,
			"turn %d: the campaign mixes in a public beacon (%s) but %s has no beacon value",
			t, c->beacon, source);
	if (c->entropy == CAMPAIGN_ENTROPY_PLAYERS && !r->beacon_value)
		return error_set(ERROR_INPUT,
			"turn %d: the campaign takes the players' reveals but %s has none", t,
			source);
	if (c->entropy == CAMPAIGN_ENTROPY_NONE && r->beacon_value)
		return error_set(ERROR_INPUT,
			"turn %d: %s has a beacon value, but the campaign takes no randomness after a close (entropy none)",
			t, source);
	turn_beacon(beacon, r->beacon_value);
	if (memcmp(beacon, r->beacon, FAIR_HASH_BYTES) != 0) {
		hex32(hex, beacon);
		hex32(want, r->beacon);
		return error_set(ERROR_INPUT, "turn %d: beacon differs: %s is %s, %s says %s", t,
			r->beacon_value ? "SHA256 of the beacon value" :
					  "without a beacon value, B_t",
			hex, source, want);
	}
	if (r->beacon_signature && !r->beacon_value)
		return error_set(ERROR_INPUT, "turn %d: %s has a beacon signature but no value", t,
			source);
	if (c->entropy == CAMPAIGN_ENTROPY_BEACON &&
		beacon_check_round(c, t, r->beacon_round, r->beacon_value, r->beacon_signature) < 0)
		return error_last()->klass == ERROR_INPUT ? with_source(t, source) : -1;
	return 0;
}

/* Every die: index i at position i, at least 2 sides, the value fair_die gives. */
static int check_dice(const struct journal_record *r, const uint8_t seed[FAIR_HASH_BYTES],
	const char *source)
{
	int t = r->turn;
	struct fair_die_key key;
	int rc = 0;

	fair_die_key_init(&key, seed);
	for (size_t i = 0; i < r->n_dice; i++) {
		const struct die_record *dr = &r->dice[i];
		if (dr->index != i) {
			rc = error_set(ERROR_INPUT,
				"turn %d: die %zu: %s numbers it %" PRIu64
				" (dice are numbered 0, 1, 2 "
				"... in the order drawn)",
				t, i, source, dr->index);
			break;
		}
		if (dr->sides < 2) {
			rc = error_set(ERROR_INPUT,
				"turn %d: die %zu: %s gives it %" PRIu64 " sides", t, i, source,
				dr->sides);
			break;
		}
		uint64_t v = fair_die_keyed(&key, i, dr->sides, NULL);
		if (v != dr->value) {
			rc = error_set(ERROR_INPUT,
				"turn %d: die %zu differs from the seed: %s has d%" PRIu64
				" = %" PRIu64 ", fair_die(s_t, %zu, %" PRIu64 ") = %" PRIu64
				" (for \"%s\")",
				t, i, source, dr->sides, dr->value, i, dr->sides, v,
				dr->purpose ? dr->purpose : "");
			break;
		}
	}
	fair_die_key_release(&key);
	return rc;
}

int audit_fairness(const struct campaign *c, const struct journal_record *r, const char *source)
{
	uint8_t digest[FAIR_HASH_BYTES], beacon[FAIR_HASH_BYTES], seed[FAIR_HASH_BYTES];
	char hex[65], want[65];

	if (check_key(c, r, source) < 0 || check_digest_beacon(c, r, source, digest, beacon) < 0)
		return -1;
	fair_turn_seed(seed, r->key, (uint32_t)r->turn, digest, beacon);
	if (memcmp(seed, r->seed, FAIR_HASH_BYTES) != 0) {
		hex32(hex, seed);
		hex32(want, r->seed);
		return error_set(ERROR_INPUT,
			"turn %d: seed differs: HMAC(k_t, turn, digest, beacon) is %s, %s says %s",
			r->turn, hex, source, want);
	}
	return check_dice(r, seed, source);
}

/* --- re-resolution ---------------------------------------------------------------------- */

static void source_name(char *out, size_t len, int turn, unsigned flags)
{
	char path[LAYOUT_PATH_MAX];

	layout_export_path(path, turn);
	snprintf(out, len, "%s", flags & AUDIT_EXPORT ? path : "the SQLite journal");
}

/* One recorded order against the committed file the pipeline read (or its absence). */
static int compare_order(const struct turn *tn, const struct journal_order *o, unsigned flags,
	const char *source)
{
	const struct order_file *f = turn_find_file(&tn->in, o->player);
	char hex[65], want[65];
	int t = tn->in.turn;

	if (!o->has_file) {
		if (f)
			return error_set(ERROR_INPUT,
				"turn %d: %s says %s sent no orders, but git holds %s", t, source,
				o->player, f->path);
		if (!(flags & AUDIT_EXPORT) && !turn_is_missing(&tn->in, o->player))
			return error_set(ERROR_INPUT,
				"turn %d: %s records 'no orders' from %s, who was not due", t,
				source, o->player);
		return 0;
	}
	if (!f)
		return error_set(ERROR_INPUT, "turn %d: %s holds orders of %s that git does not", t,
			source, o->player);
	if (memcmp(f->digest_hash, o->sha256, FAIR_HASH_BYTES) != 0 ||
		(o->bytes && (f->len != o->len || memcmp(f->bytes, o->bytes, o->len) != 0))) {
		hex32(hex, f->digest_hash);
		hex32(want, o->sha256);
		return error_set(ERROR_INPUT,
			"turn %d: order file %s differs from the one %s records (sha256 %s "
			"committed, %s recorded)",
			t, f->path, source, hex, want);
	}
	return 0;
}

static int compare_orders(const struct turn *tn, const struct journal_record *r, unsigned flags,
	const char *source)
{
	int t = tn->in.turn;

	for (size_t i = 0; i < r->n_orders; i++)
		if (compare_order(tn, &r->orders[i], flags, source) < 0)
			return -1;
	for (size_t k = 0; k < tn->in.n_files; k++) {
		const struct journal_order *o = journal_record_order(r, tn->in.files[k].player);
		if (!o || !o->has_file)
			return error_set(ERROR_INPUT,
				"turn %d: git holds %s, which %s never received", t,
				tn->in.files[k].path, source);
	}
	for (size_t k = 0; !(flags & AUDIT_EXPORT) && k < tn->in.n_missing; k++)
		if (!journal_record_order(r, tn->in.missing[k]))
			return error_set(ERROR_INPUT,
				"turn %d: %s was due and sent nothing, but %s does not record it",
				t, tn->in.missing[k], source);
	return 0;
}

/* The indices of the events of one kind (all of them when pass is -1). */
static size_t events_of(const struct event *v, size_t n, int pass, size_t *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (pass < 0 || v[i].kind == (enum event_kind)pass)
			out[k++] = i;
	return k;
}

/* Events in order; from an export, events and void orders each in their own order. */
static int compare_events(const struct turn *tn, const struct journal_record *r, unsigned flags,
	const char *source)
{
	const struct events *ev = &tn->out.events;
	size_t *ia = xcalloc(ev->n + 1, sizeof(*ia));
	size_t *ib = xcalloc(r->n_events + 1, sizeof(*ib));
	int export = (flags & AUDIT_EXPORT) != 0, t = tn->in.turn, rc = 0;

	for (int p = export ? EVENT_EVENT : -1; rc == 0 && p <= (export ? EVENT_VOID : -1); p++) {
		const char *what = export && p == EVENT_VOID ? "void order" : "event";
		size_t na = events_of(ev->v, ev->n, p, ia),
		       nb = events_of(r->events, r->n_events, p, ib);
		for (size_t k = 0; rc == 0 && (k < na || k < nb); k++) {
			if (k >= na || k >= nb) {
				const char *text = k < na ? ev->v[ia[k]].text :
							    r->events[ib[k]].text;
				rc = error_set(ERROR_INPUT,
					"turn %d: event differs: %zu %ss re-resolved, %zu in %s; %s %zu "
					"(\"%s\") is %s",
					t, na, what, nb, source, what, k, text ? text : "",
					k < na ? "missing from the record" :
						 "not in the re-resolution");
				break;
			}
			const struct event *a = &ev->v[ia[k]], *b = &r->events[ib[k]];
			if (!same_event(a, b, export && tn->c->visibility == CAMPAIGN_SEALED))
				rc = error_set(ERROR_INPUT,
					"turn %d: event differs: %s %zu: re-resolved [%s] \"%s\"; %s has "
					"[%s] \"%s\"",
					t, what, k, a->phase, a->text, source,
					b->phase ? b->phase : "", b->text ? b->text : "");
		}
	}
	free(ia);
	free(ib);
	return rc;
}

static int compare_dice(const struct turn *tn, const struct journal_record *r, const char *source)
{
	const struct dice *dc = &tn->out.dice;
	size_t nd = dc->n < r->n_dice ? dc->n : r->n_dice;
	int t = tn->in.turn;

	for (size_t j = 0; j < nd; j++) {
		const struct die_record *a = &dc->v[j], *b = &r->dice[j];
		if (a->sides != b->sides || a->value != b->value || !b->purpose ||
			strcmp(a->purpose, b->purpose) != 0)
			return error_set(ERROR_INPUT,
				"turn %d: die %zu differs: re-resolved d%" PRIu64 " = %" PRIu64
				" for \"%s\"; %s has d%" PRIu64 " = %" PRIu64 " for \"%s\"",
				t, j, a->sides, a->value, a->purpose, source, b->sides, b->value,
				b->purpose ? b->purpose : "");
	}
	if (dc->n != r->n_dice) {
		const struct die_record *x = nd < dc->n ? &dc->v[nd] : &r->dice[nd];
		return error_set(ERROR_INPUT,
			"turn %d: dice count differs: %zu re-resolved, %zu in %s (die %zu, d%" PRIu64
			" for \"%s\", is %s)",
			t, dc->n, r->n_dice, source, nd, x->sides, x->purpose ? x->purpose : "",
			nd < dc->n ? "missing from the record" : "not drawn by the re-resolution");
	}
	return 0;
}

/* A hash the re-resolution derived against the recorded one. */
static int same_hash(int t, const char *what, const uint8_t got[FAIR_HASH_BYTES],
	const uint8_t want[FAIR_HASH_BYTES], const char *how, const char *source)
{
	char a[65], b[65];

	if (memcmp(got, want, FAIR_HASH_BYTES) == 0)
		return 0;
	hex32(a, got);
	hex32(b, want);
	return error_set(ERROR_INPUT, "turn %d: %s %s %s, %s says %s", t, what, a, how, source, b);
}

/* Sealed, after the reveal: each player's report and view, re-rendered and salted with the
 * revealed view salts, give the commitments the export (r) holds. An export record only: the
 * SQLite journal keeps no views. */
static int compare_views(const struct turn *tn, const struct campaign *c,
	const struct journal_record *r, const char *source)
{
	char got[65], want[65];

	if (!tn->out.views || r->n_views == 0)
		return 0;
	for (size_t k = 0; k < c->n_players; k++) {
		const struct turn_view *v = &tn->out.views[k];
		for (size_t i = 0; i < r->n_views; i++) {
			const struct journal_view *jv = &r->views[i];
			int item = memcmp(v->report_sha256, jv->report_sha256, FAIR_HASH_BYTES) ?
					   0 :
				   memcmp(v->state_sha256, jv->state_sha256, FAIR_HASH_BYTES) ? 1 :
												-1;
			if (strcmp(jv->player, c->players[k]) != 0 || item < 0)
				continue;
			hex_encode(got, item ? v->state_sha256 : v->report_sha256, FAIR_HASH_BYTES);
			hex_encode(want, item ? jv->state_sha256 : jv->report_sha256,
				FAIR_HASH_BYTES);
			return error_set(ERROR_INPUT,
				"turn %d: %s's %s, re-rendered and salted with the revealed salt, hashes to %s; %s holds %s (the reveal's %s salt, or the turn, differs)",
				tn->in.turn, c->players[k], item ? "view of the state" : "report",
				got, source, want, item ? "state" : "report");
		}
	}
	return 0;
}

static int compare_record(const struct turn *tn, const struct campaign *c,
	const struct journal_record *r, unsigned flags, int fairness)
{
	char source[LAYOUT_PATH_MAX];
	int t = tn->in.turn;

	source_name(source, sizeof(source), t, flags);
	if (r->turn != t)
		return error_set(ERROR_INPUT, "turn %d: %s is the record of turn %d", t, source,
			r->turn);
	if (compare_orders(tn, r, flags, source) < 0)
		return -1;
	if (fairness && audit_fairness(c, r, source) < 0)
		return -1;
	if (same_hash(t, "orders digest", tn->out.digest, r->orders_digest,
		    "from the committed order files", source) < 0 ||
		same_hash(t, "seed", tn->out.seed, r->seed, "re-derived", source) < 0 ||
		compare_dice(tn, r, source) < 0 || compare_events(tn, r, flags, source) < 0 ||
		same_hash(t, "state hash", tn->out.state_sha256, r->state_sha256, "re-resolved",
			source) < 0)
		return -1;
	if (!r->summary || strcmp(r->summary, tn->out.summary) != 0)
		return error_set(ERROR_INPUT,
			"turn %d: summary differs: re-resolved \"%s\", %s has \"%s\"", t,
			tn->out.summary, source, r->summary ? r->summary : "");
	return compare_views(tn, c, r, source);
}

int audit_compare(const struct audit_turn *at, const struct campaign *c,
	const struct journal_record *r, unsigned flags)
{
	return compare_record(&at->t, c, r, flags, 1);
}

/* One committed file against the bytes the pipeline rendered; names the first line that
 * differs, since a file changed after the turn is most often an edited line. */
static int same_committed(struct campaign *c, const char *rev, const char *path,
	const struct buf *want, int t)
{
	struct buf got = BUF_INIT;
	/* Same blob id, same bytes: the blob is read only to name the line that differs. */
	int rc = repo_same_file(c->repo, rev, path, want->data ? want->data : "", want->len);

	if (rc == 1)
		return 0;
	if (rc == 0)
		rc = repo_read(c->repo, rev, path, &got);
	if (rc == ERROR_NOTFOUND) {
		rc = error_set(ERROR_INPUT, "turn %d: %s is missing from %s", t, path, rev);
	} else if (rc < 0) {
		error_prefix("turn %d", t);
	} else if (got.len != want->len || memcmp(got.data, want->data, got.len) != 0) {
		size_t i = 0, line = 1;
		while (i < got.len && i < want->len && got.data[i] == want->data[i])
			line += got.data[i++] == '\n';
		rc = error_set(ERROR_INPUT,
			"turn %d: committed %s differs from the re-resolved one at line %zu "
			"(the file was changed after the turn)",
			t, path, line);
	}
	buf_release(&got);
	return rc;
}

/* Every file of the turn as committed at rev against what the pipeline rendered, and no
 * report the turn did not write. */
static int same_files(struct audit_turn *at, struct campaign *c, const char *rev)
{
	const struct turn *tn = &at->t;
	char path[LAYOUT_PATH_MAX];
	char **names = NULL;
	int t = tn->in.turn, rc;

	rc = same_committed(c, rev, LAYOUT_STATE, &tn->out.state_yaml, t);
	layout_export_path(path, t);
	if (rc == 0)
		rc = same_committed(c, rev, path, &tn->out.journal_yaml, t);
	int sealed = c->visibility == CAMPAIGN_SEALED;
	int shared = sealed || tn->out.shared; /* the public or shared report and map */
	const unsigned char *own = tn->out.own_map;
	if (rc == 0 && shared) {
		layout_public_report_path(path, t);
		rc = same_committed(c, rev, path, &tn->out.public_report, t);
	}
	if (rc == 0 && shared && tn->out.maps) {
		layout_public_map_path(path, t);
		rc = same_committed(c, rev, path, &tn->out.public_map, t);
	}
	for (size_t i = 0; rc == 0 && !sealed && i < tn->out.n_reports; i++) {
		layout_report_path(path, t, c->players[i]);
		rc = same_committed(c, rev, path, &tn->out.reports[i], t);
		if (rc == 0 && tn->out.maps && (!own || own[i])) {
			layout_map_path(path, t, c->players[i]);
			rc = same_committed(c, rev, path, &tn->out.maps[i], t);
		}
	}
	if (rc != 0)
		return -1;
	layout_reports_dir(path, t);
	if (repo_list(c->repo, rev, path, &names) < 0)
		return error_prefix("turn %d", t);
	for (size_t i = 0; names[i] && rc == 0; i++) {
		int known = 0;
		char want[LAYOUT_PATH_MAX], got[2 * LAYOUT_PATH_MAX];
		snprintf(got, sizeof(got), "%s/%s", path, names[i]);
		for (size_t k = 0; k < c->n_players && !known && !sealed; k++) {
			layout_report_path(want, t, c->players[k]);
			known = strcmp(want, got) == 0;
			layout_map_path(want, t, c->players[k]);
			known |= tn->out.maps && (!own || own[k]) && strcmp(want, got) == 0;
		}
		if (!known)
			rc = error_set(ERROR_INPUT,
				"turn %d: git holds %s, which the turn did not write", t, got);
	}
	repo_names_free(names);
	return rc;
}

int audit_resolve(struct audit_turn *at, struct campaign *c, void *state, const char *rev,
	const struct journal_record *r, unsigned flags)
{
	int t = r->turn;

	/* audit_fairness checks every recorded die against the seed before the turn runs, so
	 * the re-resolution reuses their values (TURN_DICE_CHECKED): each die derived once. */
	/* An open turn committed without a shared report was played with every report whole
	 * (before shared reports, or under RENDER_SHARE_FROM): re-rendered so. */
	char shared[LAYOUT_PATH_MAX], id[41];
	unsigned per_player = 0;
	layout_public_report_path(shared, t);
	if (c->visibility != CAMPAIGN_SEALED &&
		repo_file_id(c->repo, rev, shared, id) == ERROR_NOTFOUND)
		per_player = TURN_PER_PLAYER;
	error_clear();
	turn_init(&at->t, c, TURN_RECORDED, TURN_DICE_CHECKED | per_player, r, rev, state);
	source_name(at->source, sizeof(at->source), t, flags);
	at->t.record_name = at->source;
	if (audit_fairness(c, r, at->source) < 0)
		return -1;
	if (turn_run(&at->t, "closed", "render") < 0)
		return -1;
	if (compare_record(&at->t, c, r, flags, 0) < 0)
		return -1;
	return same_files(at, c, rev);
}

void audit_turn_release(struct audit_turn *at)
{
	turn_release(&at->t);
	memset(at, 0, sizeof(*at));
}

const char *audit_die_phase(const struct audit_turn *at, uint64_t j, size_t *event)
{
	const struct events *ev = &at->t.out.events;
	size_t first_die = at->t.out.rules_first_die, first_event = at->t.out.rules_first_event;

	*event = (size_t)-1;
	if (j >= at->t.out.dice.n)
		return NULL;
	if (j < first_die) {
		/* The purpose says which ruling ("umpire ruling N: ..."), and ruling N reports in
		 * the N-th event of phase umpire. */
		unsigned long n = 0;
		if (sscanf(at->t.out.dice.v[j].purpose, "umpire ruling %lu:", &n) == 1 && n > 0) {
			for (size_t i = 0; i < first_event && i < ev->n; i++)
				if (strcmp(ev->v[i].phase, "umpire") == 0 && --n == 0) {
					*event = i;
					break;
				}
		}
		return "umpire";
	}
	for (size_t i = first_event; i < ev->n; i++) {
		if (ev->v[i].first_die > j) {
			*event = i;
			return ev->v[i].phase;
		}
	}
	if (ev->n > first_event) {
		*event = ev->n - 1;
		return ev->v[ev->n - 1].phase;
	}
	return "";
}

/* --- one die, step by step ------------------------------------------------------------- */

void audit_die_explain(struct audit_die *d, const uint8_t seed[32], uint64_t j, uint64_t n)
{
	size_t cap = 0;

	memset(d, 0, sizeof(*d));
	d->j = j;
	d->sides = n;
	d->rem = (UINT64_MAX % n + 1) % n;
	d->every_x = d->rem == 0;
	d->limit = d->every_x ? 0 : 0 - d->rem;
	for (uint32_t a = 0;; a++) {
		if (d->n_blocks == cap) {
			cap = cap ? 2 * cap : 4;
			d->blocks = xrealloc(d->blocks, cap * sizeof(*d->blocks));
		}
		struct audit_block *b = &d->blocks[d->n_blocks++];
		memset(b, 0, sizeof(*b));
		b->a = a;
		memcpy(b->message, DIE_LABEL, DIE_LABEL_LEN);
		for (int i = 0; i < 8; i++)
			b->message[DIE_LABEL_LEN + i] = (uint8_t)(j >> (56 - 8 * i));
		for (int i = 0; i < 4; i++)
			b->message[DIE_LABEL_LEN + 8 + i] = (uint8_t)(a >> (24 - 8 * i));
		fair_hmac(b->mac, seed, b->message, sizeof(b->message));
		for (int i = 0; i < 8; i++)
			b->x = b->x << 8 | b->mac[i];
		b->accepted = d->every_x || b->x < d->limit;
		if (b->accepted) {
			d->value = 1 + b->x % n;
			break;
		}
	}
}

void audit_die_release(struct audit_die *d)
{
	free(d->blocks);
	memset(d, 0, sizeof(*d));
}

void audit_die_text(struct buf *out, const uint8_t seed[32], uint64_t j, uint64_t n, int t)
{
	struct audit_die d;
	char hex[65], s[16];

	if (t > 0)
		snprintf(s, sizeof(s), "s_%d", t);
	else
		snprintf(s, sizeof(s), "s");
	audit_die_explain(&d, seed, j, n);
	buf_printf(out, "die      j = %" PRIu64 ", n = %" PRIu64 " faces\n", j, n);
	if (d.every_x)
		buf_puts(out, "         n divides 2^64: limit = 2^64, every x is accepted\n");
	else
		buf_printf(out,
			"         limit = 2^64 - (2^64 mod n) = 18446744073709551616 - %" PRIu64
			" = %" PRIu64 "\n",
			d.rem, d.limit);
	for (size_t i = 0; i < d.n_blocks; i++) {
		const struct audit_block *b = &d.blocks[i];
		hex_encode(hex, b->mac, 32);
		buf_printf(out,
			"         block a = %" PRIu32
			": HMAC(%s, \"umpire/die/v1\" || be64(%" PRIu64 ") || be32(%" PRIu32 "))\n",
			b->a, s, j, b->a);
		buf_printf(out, "             = %s\n", hex);
		if (d.every_x)
			buf_printf(out, "           x = 0x%016" PRIx64 " = %" PRIu64 ": accepted\n",
				b->x, b->x);
		else if (b->accepted)
			buf_printf(out,
				"           x = 0x%016" PRIx64 " = %" PRIu64 " < limit: accepted\n",
				b->x, b->x);
		else
			buf_printf(out,
				"           x = 0x%016" PRIx64 " = %" PRIu64
				" >= limit: rejected (x mod n would favour the lowest %" PRIu64
				" faces), next block\n",
				b->x, b->x, d.rem);
	}
	buf_printf(out, "         value = 1 + x mod n = 1 + %" PRIu64 " = %" PRIu64 "\n",
		d.blocks[d.n_blocks - 1].x % n, d.value);
	audit_die_release(&d);
}
