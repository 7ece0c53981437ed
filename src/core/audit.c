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
#include "core/fair.h"
#include "core/banned.h"

#define DIE_LABEL "umpire/die/v1"
#define DIE_LABEL_LEN 13

static const char *const export_keys[] = {
	"campaign", "rules", "turn", "key", "orders", "orders_digest", "beacon", "beacon_value",
	"beacon_round", "seed", "dice", "events", "void_orders", "state_sha256", "summary", NULL,
};
static const char *const export_order_keys[] = { "player", "received", "sha256", NULL };
static const char *const export_die_keys[] = { "index", "sides", "value", "for", NULL };
static const char *const export_event_keys[] = { "phase", "text", NULL };
static const char *const export_void_keys[] = { "phase", "player", "order", "reason", NULL };

static const char zero_hex[] = "0000000000000000000000000000000000000000000000000000000000000000";

static void why_set(struct buf *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void why_set(struct buf *why, const char *fmt, ...)
{
	va_list ap;

	buf_clear(why);
	va_start(ap, fmt);
	buf_vprintf(why, fmt, ap);
	va_end(ap);
}

/* --- reading a journal export ------------------------------------------------------------ */

static int want_hex(const struct node *n, const char *what, char out[65], struct diag *d)
{
	const char *s;
	unsigned char tmp[32];

	if (!n || node_want_str(n, what, 64, &s, d) < 0)
		return -1;
	if (strlen(s) != 64 || hex_decode(tmp, 32, s) < 0 || strspn(s, "0123456789abcdef") != 64) {
		node_error(d, n, "%s is not 64 lower-case hex digits", what);
		return -1;
	}
	memcpy(out, s, 65);
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
		node_error(d, n, "%s '%s' (a whole number from %" PRIu64 " expected)", what, s, min);
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

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The export must list exactly the campaign's players plus umpire, sorted by id. */
static void check_export_players(const struct journal_record *r, const struct campaign *c,
	const struct node *orders, struct diag *d)
{
	size_t n = c->n_players + 1;
	const char **ids = xcalloc(n, sizeof(*ids));
	int same = r->n_orders == n;

	for (size_t i = 0; i < c->n_players; i++)
		ids[i] = c->players[i];
	ids[c->n_players] = UMPIRE_PLAYER;
	qsort(ids, n, sizeof(*ids), cmp_cstr);
	for (size_t i = 0; same && i < n; i++)
		same = r->orders[i].player && strcmp(r->orders[i].player, ids[i]) == 0;
	if (!same) {
		struct buf list = BUF_INIT;
		for (size_t i = 0; i < n; i++)
			buf_printf(&list, "%s%s", i ? ", " : "", ids[i]);
		node_error(d, orders, "orders does not list every player once, sorted by id (%s expected)",
			buf_str(&list));
		buf_release(&list);
	}
	free(ids);
}

int audit_parse_export(struct journal_record **out, const struct campaign *c, const char *name,
	const void *bytes, size_t len, struct diag *d)
{
	struct node_limits lim = { .max_bytes = 64u << 20, .max_depth = 8, .max_nodes = 4000000,
		.max_scalar = 65536 };
	struct journal_record *r = xcalloc(1, sizeof(*r));
	struct node *root = NULL;
	size_t before = diag_count(d);
	const struct node *n;
	const char *s;
	long long t;

	*out = NULL;
	if (node_parse(&root, name, bytes, len, &lim, d) < 0)
		goto done;
	if (node_check_map(root, "journal export", export_keys, d) < 0)
		goto done;
	n = node_need(root, "campaign", d);
	if (n && node_want_str(n, "campaign", 64, &s, d) == 0 && c && strcmp(s, c->id) != 0)
		node_error(d, n, "export of campaign '%s' ('%s' expected)", s, c->id);
	n = node_need(root, "rules", d);
	if (n && node_want_str(n, "rules", 64, &s, d) == 0 && c && strcmp(s, c->rules->name) != 0)
		node_error(d, n, "export for rules '%s' ('%s' expected)", s, c->rules->name);
	n = node_need(root, "turn", d);
	if (n && node_want_int(n, "turn", 1, 1000000, &t, d) == 0)
		r->turn = (int)t;
	want_hex(node_need(root, "key", d), "key", r->key, d);
	want_hex(node_need(root, "orders_digest", d), "orders_digest", r->orders_digest, d);
	want_hex(node_need(root, "beacon", d), "beacon", r->beacon, d);
	want_hex(node_need(root, "seed", d), "seed", r->seed, d);
	want_hex(node_need(root, "state_sha256", d), "state_sha256", r->state_sha256, d);
	r->summary = dup_str(node_need(root, "summary", d), "summary", d);
	if ((n = node_get(root, "beacon_value")))
		r->beacon_value = dup_str(n, "beacon_value", d);
	if ((n = node_get(root, "beacon_round")))
		r->beacon_round = dup_str(n, "beacon_round", d);

	const struct node *orders = node_need(root, "orders", d);
	if (orders && node_check_seq(orders, "orders", CAMPAIGN_MAX_PLAYERS + 1, d) == 0) {
		r->orders = xcalloc(orders->n + 1, sizeof(*r->orders));
		for (size_t i = 0; i < orders->n; i++) {
			const struct node *o = orders->items[i];
			struct journal_order *jo = &r->orders[r->n_orders++];
			int received = 0;
			if (node_check_map(o, "order entry", export_order_keys, d) < 0)
				continue;
			jo->player = dup_str(node_need(o, "player", d), "player", d);
			n = node_need(o, "received", d);
			if (n)
				node_want_bool(n, "received", &received, d);
			if (want_hex(node_need(o, "sha256", d), "sha256", jo->sha256, d) < 0)
				continue;
			if (!received && strcmp(jo->sha256, zero_hex) != 0)
				node_error(d, node_get(o, "sha256"),
					"sha256 of orders that were not received (64 zeros expected)");
			if (!received)
				jo->sha256[0] = '\0';
		}
		if (c && diag_count(d) == before)
			check_export_players(r, c, orders, d);
	}

	const struct node *dice = node_need(root, "dice", d);
	if (dice && node_check_seq(dice, "dice", DICE_MAX_PER_TURN, d) == 0) {
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

	const struct node *events = node_need(root, "events", d);
	const struct node *voids = node_need(root, "void_orders", d);
	size_t ne = events && events->kind == NODE_SEQ ? events->n : 0;
	size_t nv = voids && voids->kind == NODE_SEQ ? voids->n : 0;
	r->events = xcalloc(ne + nv + 1, sizeof(*r->events));
	if (events && node_check_seq(events, "events", 1000000, d) == 0) {
		for (size_t i = 0; i < ne; i++) {
			const struct node *o = events->items[i];
			struct journal_event *e = &r->events[r->n_events++];
			e->kind = xstrdup("event");
			if (node_check_map(o, "event", export_event_keys, d) < 0)
				continue;
			e->phase = dup_str(node_need(o, "phase", d), "phase", d);
			e->text = dup_str(node_need(o, "text", d), "text", d);
		}
	}
	if (voids && node_check_seq(voids, "void_orders", 1000000, d) == 0) {
		for (size_t i = 0; i < nv; i++) {
			const struct node *o = voids->items[i];
			struct journal_event *e = &r->events[r->n_events++];
			long long k;
			e->kind = xstrdup("void");
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
done:
	node_free(root);
	if (diag_count(d) != before) {
		journal_record_free(r);
		return -1;
	}
	*out = r;
	return 0;
}

/* --- fairness ------------------------------------------------------------------------------ */

static const struct journal_order *find_order(const struct journal_record *r, const char *player)
{
	for (size_t i = 0; i < r->n_orders; i++)
		if (r->orders[i].player && strcmp(r->orders[i].player, player) == 0)
			return &r->orders[i];
	return NULL;
}

int audit_fairness(const struct campaign *c, const struct journal_record *r,
	const char *source, struct buf *why)
{
	uint8_t key[32], digest[32], beacon[32], seed[32], h[32];
	char hex[65], want[65];
	int t = r->turn, rc = 1;
	size_t n_ids = c->n_players + 1;
	struct fair_order *fo = xcalloc(n_ids, sizeof(*fo));

	if (hex_decode(key, 32, r->key) < 0) {
		why_set(why, "turn %d: %s holds no turn key", t, source);
		goto done;
	}
	if (t < 1 || (uint32_t)t > c->chain_length) {
		why_set(why, "turn %d: beyond the key chain of %u turns", t, c->chain_length);
		goto done;
	}
	if (!fair_key_check(key, (uint32_t)t, c->commitment)) {
		memcpy(h, key, 32);
		for (int i = 0; i < t; i++)
			fair_sha256(h, h, 32);
		hex_encode(hex, h, 32);
		hex_encode(want, c->commitment, 32);
		why_set(why, "turn %d: the key %s in %s does not chain to the commitment: SHA256 "
			"applied %d time%s gives %s, campaign.yaml commits to %s", t, r->key, source, t,
			t == 1 ? "" : "s", hex, want);
		goto done;
	}

	for (size_t i = 0; i < c->n_players; i++)
		fo[i].player = c->players[i];
	fo[c->n_players].player = UMPIRE_PLAYER;
	for (size_t i = 0; i < n_ids; i++) {
		const struct journal_order *o = find_order(r, fo[i].player);
		fo[i].has_file = o && o->sha256[0];
		if (fo[i].has_file && hex_decode(fo[i].sha256, 32, o->sha256) < 0) {
			why_set(why, "turn %d: %s: the sha256 of %s's orders is not hex", t, source,
				fo[i].player);
			goto done;
		}
	}
	fair_orders_digest(digest, fo, n_ids);
	hex_encode(hex, digest, 32);
	if (strcmp(hex, r->orders_digest) != 0) {
		why_set(why, "turn %d: orders digest differs: the order hashes in %s give %s, it says %s",
			t, source, hex, r->orders_digest);
		goto done;
	}

	if (c->beacon && !r->beacon_value) {
		why_set(why, "turn %d: the campaign mixes in a public beacon (%s) but %s has no beacon value",
			t, c->beacon, source);
		goto done;
	}
	if (!c->beacon && r->beacon_value) {
		why_set(why, "turn %d: %s has a beacon value, but the campaign has no fairness.beacon",
			t, source);
		goto done;
	}
	turn_beacon(beacon, r->beacon_value);
	hex_encode(hex, beacon, 32);
	if (strcmp(hex, r->beacon) != 0) {
		why_set(why, "turn %d: beacon differs: %s is %s, %s says %s", t,
			r->beacon_value ? "SHA256 of the beacon value" : "without a beacon value, B_t",
			hex, source, r->beacon);
		goto done;
	}

	fair_turn_seed(seed, key, (uint32_t)t, digest, beacon);
	hex_encode(hex, seed, 32);
	if (strcmp(hex, r->seed) != 0) {
		why_set(why, "turn %d: seed differs: HMAC(k_t, turn, digest, beacon) is %s, %s says %s",
			t, hex, source, r->seed);
		goto done;
	}

	for (size_t i = 0; i < r->n_dice; i++) {
		const struct die_record *dr = &r->dice[i];
		if (dr->index != i) {
			why_set(why, "turn %d: die %zu: %s numbers it %" PRIu64 " (dice are numbered 0, 1, 2 "
				"... in the order drawn)", t, i, source, dr->index);
			goto done;
		}
		if (dr->sides < 2) {
			why_set(why, "turn %d: die %zu: %s gives it %" PRIu64 " sides", t, i, source,
				dr->sides);
			goto done;
		}
		uint64_t v = fair_die(seed, i, dr->sides, NULL);
		if (v != dr->value) {
			why_set(why, "turn %d: die %zu differs from the seed: %s has d%" PRIu64 " = %" PRIu64
				", fair_die(s_t, %zu, %" PRIu64 ") = %" PRIu64 " (for \"%s\")", t, i, source,
				dr->sides, dr->value, i, dr->sides, v, dr->purpose ? dr->purpose : "");
			goto done;
		}
	}
	rc = 0;
done:
	free(fo);
	return rc;
}

/* --- re-resolution ---------------------------------------------------------------------- */

static int is_missing(const struct turn_input *in, const char *player)
{
	for (size_t i = 0; i < in->n_missing; i++)
		if (strcmp(in->missing[i], player) == 0)
			return 1;
	return 0;
}

static void source_name(char *out, size_t len, int turn, unsigned flags)
{
	if (flags & AUDIT_EXPORT)
		snprintf(out, len, "journal/turn-%04d.yaml", turn);
	else
		snprintf(out, len, "the SQLite journal");
}

/* The SQLite journal keeps each order file's bytes and their hash: name which disagrees. */
static void orders_copy_differs(struct buf *why, int t, const char *path,
	const struct journal_order *o, const char *committed)
{
	uint8_t h[32];
	char hex[65];

	fair_sha256(h, o->bytes ? (const void *)o->bytes : "", o->len);
	hex_encode(hex, h, 32);
	if (strcmp(hex, o->sha256) != 0)
		why_set(why, "turn %d: order file %s differs from the journal's copy (its bytes hash to "
			"%s, its sha256 column says %s, the committed file %s)", t, path, hex, o->sha256,
			committed);
	else
		why_set(why, "turn %d: order file %s differs from the journal's copy (sha256 %s in the "
			"journal, %s committed)", t, path, o->sha256, committed);
}

static int compare_orders(const struct audit_turn *at, const struct journal_record *r,
	unsigned flags, const char *source, struct buf *why)
{
	char hex[65];
	int t = at->turn;

	for (size_t i = 0; i < r->n_orders; i++) {
		const struct journal_order *o = &r->orders[i];
		const struct order_file *f = turn_find_file(&at->in, o->player);
		if (!o->sha256[0]) {
			if (f) {
				why_set(why, "turn %d: %s says %s sent no orders, but git holds %s", t, source,
					o->player, f->path);
				return 1;
			}
			if (!(flags & AUDIT_EXPORT) && !is_missing(&at->in, o->player)) {
				why_set(why, "turn %d: %s records 'no orders' from %s, who was not due", t,
					source, o->player);
				return 1;
			}
			continue;
		}
		if (!f) {
			why_set(why, "turn %d: %s holds orders of %s that git does not", t, source, o->player);
			return 1;
		}
		hex_encode(hex, f->sha256, 32);
		if (strcmp(hex, o->sha256) != 0 || (o->bytes && (f->len != o->len ||
			memcmp(f->bytes, o->bytes, o->len) != 0))) {
			if (o->bytes)
				orders_copy_differs(why, t, f->path, o, hex);
			else
				why_set(why, "turn %d: order file %s differs from the one %s records (sha256 %s "
					"committed, %s recorded)", t, f->path, source, hex, o->sha256);
			return 1;
		}
	}
	for (size_t k = 0; k < at->in.n_files; k++) {
		const struct journal_order *o = find_order(r, at->in.files[k].player);
		if (!o || !o->sha256[0]) {
			why_set(why, "turn %d: git holds %s, which %s never received", t,
				at->in.files[k].path, source);
			return 1;
		}
	}
	for (size_t k = 0; !(flags & AUDIT_EXPORT) && k < at->in.n_missing; k++) {
		if (!find_order(r, at->in.missing[k])) {
			why_set(why, "turn %d: %s was due and sent nothing, but %s does not record it", t,
				at->in.missing[k], source);
			return 1;
		}
	}
	return 0;
}

static int same_event(const struct event *a, const struct journal_event *b)
{
	if (!b->kind || !b->phase || !b->text)
		return 0;
	if (strcmp(b->kind, a->kind == EVENT_VOID ? "void" : "event") != 0)
		return 0;
	if (a->kind == EVENT_VOID && (a->order_index != b->order_index || !b->player ||
		strcmp(a->player, b->player) != 0))
		return 0;
	return strcmp(a->text, b->text) == 0 && strcmp(a->phase, b->phase) == 0;
}

/* Events in order; from an export, events and void orders each in their own order. */
static int compare_events(const struct audit_turn *at, const struct journal_record *r,
	unsigned flags, const char *source, struct buf *why)
{
	static const enum event_kind kinds[] = { EVENT_EVENT, EVENT_VOID };
	size_t passes = flags & AUDIT_EXPORT ? 2 : 1;
	size_t *ia = xcalloc(at->out.events.n + 1, sizeof(*ia));
	size_t *ib = xcalloc(r->n_events + 1, sizeof(*ib));
	int t = at->turn, rc = 0;

	for (size_t p = 0; p < passes && rc == 0; p++) {
		const char *kname = kinds[p] == EVENT_VOID ? "void" : "event";
		const char *what = passes == 2 && kinds[p] == EVENT_VOID ? "void order" : "event";
		size_t na = 0, nb = 0;
		for (size_t i = 0; i < at->out.events.n; i++)
			if (passes == 1 || at->out.events.v[i].kind == kinds[p])
				ia[na++] = i;
		for (size_t i = 0; i < r->n_events; i++)
			if (passes == 1 || (r->events[i].kind && strcmp(r->events[i].kind, kname) == 0))
				ib[nb++] = i;
		for (size_t k = 0; k < na || k < nb; k++) {
			if (k >= na || k >= nb) {
				const char *text = k < na ? at->out.events.v[ia[k]].text : r->events[ib[k]].text;
				why_set(why, "turn %d: event differs: %zu %ss re-resolved, %zu in %s; %s %zu "
					"(\"%s\") is %s", t, na, what, nb, source, what, k, text ? text : "",
					k < na ? "missing from the record" : "not in the re-resolution");
				rc = 1;
				break;
			}
			const struct event *a = &at->out.events.v[ia[k]];
			const struct journal_event *b = &r->events[ib[k]];
			if (!same_event(a, b)) {
				why_set(why, "turn %d: event differs: %s %zu: re-resolved [%s] \"%s\"; %s has "
					"[%s] \"%s\"", t, what, k, a->phase, a->text, source,
					b->phase ? b->phase : "", b->text ? b->text : "");
				rc = 1;
				break;
			}
		}
	}
	free(ia);
	free(ib);
	return rc;
}

static int compare_record(const struct audit_turn *at, const struct campaign *c,
	const struct journal_record *r, unsigned flags, int fairness, struct buf *why)
{
	char source[64], hex[65];
	int t = at->turn;

	source_name(source, sizeof(source), t, flags);
	if (r->turn != t) {
		why_set(why, "turn %d: %s is the record of turn %d", t, source, r->turn);
		return 1;
	}
	if (compare_orders(at, r, flags, source, why))
		return 1;
	if (fairness && audit_fairness(c, r, source, why))
		return 1;
	hex_encode(hex, at->out.digest, 32);
	if (strcmp(hex, r->orders_digest) != 0) {
		why_set(why, "turn %d: orders digest %s from the committed order files, %s says %s", t,
			hex, source, r->orders_digest);
		return 1;
	}
	hex_encode(hex, at->out.seed, 32);
	if (strcmp(hex, r->seed) != 0) {
		why_set(why, "turn %d: seed %s re-derived, %s says %s", t, hex, source, r->seed);
		return 1;
	}
	size_t nd = at->out.dice.n < r->n_dice ? at->out.dice.n : r->n_dice;
	for (size_t j = 0; j < nd; j++) {
		const struct die_record *a = &at->out.dice.v[j], *b = &r->dice[j];
		if (a->sides != b->sides || a->value != b->value || !b->purpose ||
			strcmp(a->purpose, b->purpose) != 0) {
			why_set(why, "turn %d: die %zu differs: re-resolved d%" PRIu64 " = %" PRIu64
				" for \"%s\"; %s has d%" PRIu64 " = %" PRIu64 " for \"%s\"", t, j, a->sides,
				a->value, a->purpose, source, b->sides, b->value, b->purpose ? b->purpose : "");
			return 1;
		}
	}
	if (at->out.dice.n != r->n_dice) {
		size_t j = nd;
		const struct die_record *x = j < at->out.dice.n ? &at->out.dice.v[j] : &r->dice[j];
		why_set(why, "turn %d: dice count differs: %zu re-resolved, %zu in %s (die %zu, d%" PRIu64
			" for \"%s\", is %s)", t, at->out.dice.n, r->n_dice, source, j, x->sides,
			x->purpose ? x->purpose : "", j < at->out.dice.n ? "missing from the record" :
			"not drawn by the re-resolution");
		return 1;
	}
	if (compare_events(at, r, flags, source, why))
		return 1;
	hex_encode(hex, at->out.state_sha256, 32);
	if (strcmp(hex, r->state_sha256) != 0) {
		why_set(why, "turn %d: state hash %s re-resolved, %s says %s", t, hex, source,
			r->state_sha256);
		return 1;
	}
	if (!r->summary || strcmp(r->summary, at->out.summary) != 0) {
		why_set(why, "turn %d: summary differs: re-resolved \"%s\", %s has \"%s\"", t,
			at->out.summary, source, r->summary ? r->summary : "");
		return 1;
	}
	return 0;
}

int audit_compare(const struct audit_turn *at, const struct campaign *c,
	const struct journal_record *r, unsigned flags, struct buf *why)
{
	return compare_record(at, c, r, flags, 1, why);
}

/* One committed file against the bytes the pipeline rendered; names the first line that
 * differs, since a file changed after the turn is most often an edited line. */
static int same_committed(struct campaign *c, const char *rev, const char *path,
	const struct buf *want, int t, struct buf *why)
{
	struct buf got = BUF_INIT, err = BUF_INIT;
	int rc = 0;
	int r = repo_read(c->repo, rev, path, &got, &err);

	if (r < 0) {
		why_set(why, "turn %d: %s", t, buf_str(&err));
		rc = -1;
	} else if (r > 0) {
		why_set(why, "turn %d: %s is missing from %s", t, path, rev);
		rc = 1;
	} else if (got.len != want->len || memcmp(got.data, want->data, got.len) != 0) {
		size_t i = 0, line = 1;
		while (i < got.len && i < want->len && got.data[i] == want->data[i])
			line += got.data[i++] == '\n';
		why_set(why, "turn %d: committed %s differs from the re-resolved one at line %zu "
			"(the file was changed after the turn)", t, path, line);
		rc = 1;
	}
	buf_release(&got);
	buf_release(&err);
	return rc;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a > b && strcmp(s + a - b, suffix) == 0;
}

/* The committed order files: bytes against the record first (so an edited file is named as
 * such even when it no longer parses), then through the same checks `umpire turn` made. */
static int read_orders(struct audit_turn *at, struct campaign *c, const void *state,
	const char *rev, const struct journal_record *r, const char *source, struct buf *why)
{
	struct buf err = BUF_INIT, bytes = BUF_INIT;
	struct diag d;
	char dir[64], path[256], hex[65], tag[16];
	char **names = NULL;
	int t = r->turn, rc = -1;
	uint8_t h[32];

	diag_init(&d);
	campaign_turn_tag(tag, t);
	snprintf(dir, sizeof(dir), "orders/%s", tag);
	if (repo_list(c->repo, rev, dir, &names, &err) < 0) {
		why_set(why, "turn %d: %s", t, buf_str(&err));
		goto done;
	}
	rc = 1;
	for (size_t i = 0; names[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!ends_with(names[i], ".yaml")) {
			why_set(why, "turn %d: git holds %s, which is not an order file (<player>.yaml)", t,
				path);
			goto done;
		}
		if (repo_read(c->repo, rev, path, &bytes, &err) != 0) {
			why_set(why, "turn %d: cannot read %s: %s", t, path, buf_str(&err));
			rc = -1;
			goto done;
		}
		size_t plen = strlen(names[i]) - 5;
		char *player = xasprintf("%.*s", (int)plen, names[i]);
		const struct journal_order *o = find_order(r, player);
		fair_sha256(h, bytes.data ? bytes.data : "", bytes.len);
		hex_encode(hex, h, 32);
		free(player);
		if (!o || !o->sha256[0]) {
			why_set(why, "turn %d: git holds %s, which %s never received", t, path, source);
			goto done;
		}
		if (strcmp(hex, o->sha256) != 0 || (o->bytes && (o->len != bytes.len ||
			memcmp(o->bytes, bytes.data, bytes.len) != 0))) {
			if (o->bytes)
				orders_copy_differs(why, t, path, o, hex);
			else
				why_set(why, "turn %d: order file %s differs from the one %s records (sha256 %s "
					"committed, %s recorded)", t, path, source, hex, o->sha256);
			goto done;
		}
		if (turn_add_order_bytes(&at->in, c, state, path, (const unsigned char *)
			(bytes.data ? bytes.data : ""), bytes.len, &d) < 0) {
			why_set(why, "turn %d: the committed order file %s no longer passes the checks", t,
				path);
			for (size_t k = 0; k < d.n; k++)
				buf_printf(why, "\n%s:%d:%d: error: %s", d.v[k].file, d.v[k].line,
					d.v[k].column, d.v[k].message);
			goto done;
		}
		const struct order_file *f = &at->in.files[at->in.n_files - 1];
		if (strlen(f->player) != plen || strncmp(f->player, names[i], plen) != 0) {
			why_set(why, "turn %d: %s holds the orders of player '%s'", t, path, f->player);
			goto done;
		}
	}
	rc = 0;
done:
	repo_names_free(names);
	diag_release(&d);
	buf_release(&bytes);
	buf_release(&err);
	return rc;
}

int audit_resolve(struct audit_turn *at, struct campaign *c, void *state, const char *rev,
	const struct journal_record *r, unsigned flags, struct buf *why)
{
	struct buf err = BUF_INIT;
	char source[64], tag[16], path[256];
	char **names = NULL;
	uint8_t key[32], beacon[32];
	int t = r->turn, rc;

	memset(at, 0, sizeof(*at));
	at->turn = t;
	turn_input_init(&at->in, t);
	source_name(source, sizeof(source), t, flags);
	campaign_turn_tag(tag, t);

	rc = audit_fairness(c, r, source, why);
	if (rc != 0)
		goto done;
	rc = read_orders(at, c, state, rev, r, source, why);
	if (rc != 0)
		goto done;
	turn_complete(&at->in, c, state, 1);
	if (r->beacon_value) {
		at->in.beacon_value = xstrdup(r->beacon_value);
		at->in.beacon_round = r->beacon_round ? xstrdup(r->beacon_round) : NULL;
	}
	/* audit_fairness checked both are well-formed hex. */
	hex_decode(key, 32, r->key);
	hex_decode(beacon, 32, r->beacon);

	int res = turn_resolve(&at->out, c, state, &at->in, key, beacon);
	at->rules_first_die = at->out.rules_first_die;
	at->rules_first_event = at->out.rules_first_event;
	if (res < 0) {
		why_set(why, "turn %d: the rule system failed to resolve the turn (internal error)", t);
		rc = -1;
		goto done;
	}

	rc = compare_record(at, c, r, flags, 0, why);
	if (rc != 0)
		goto done;
	rc = same_committed(c, rev, "state.yaml", &at->out.state_yaml, t, why);
	if (rc != 0)
		goto done;
	turn_entry_path(path, sizeof(path), t);
	rc = same_committed(c, rev, path, &at->out.journal_yaml, t, why);
	for (size_t i = 0; rc == 0 && i < at->out.n_reports; i++) {
		snprintf(path, sizeof(path), "reports/%s/%s.md", tag, c->players[i]);
		rc = same_committed(c, rev, path, &at->out.reports[i], t, why);
	}
	if (rc != 0)
		goto done;
	/* A report nobody rendered is a file added after the turn. */
	snprintf(path, sizeof(path), "reports/%s", tag);
	if (repo_list(c->repo, rev, path, &names, &err) < 0) {
		why_set(why, "turn %d: %s", t, buf_str(&err));
		rc = -1;
		goto done;
	}
	for (size_t i = 0; names[i] && rc == 0; i++) {
		int known = 0;
		for (size_t k = 0; k < c->n_players; k++) {
			size_t len = strlen(c->players[k]);
			known |= strncmp(names[i], c->players[k], len) == 0 &&
				strcmp(names[i] + len, ".md") == 0;
		}
		if (!known) {
			why_set(why, "turn %d: git holds reports/%s/%s, which the turn did not write", t, tag,
				names[i]);
			rc = 1;
		}
	}
done:
	repo_names_free(names);
	buf_release(&err);
	return rc;
}

void audit_turn_release(struct audit_turn *at, const struct campaign *c)
{
	turn_output_release(&at->out);
	turn_input_release(&at->in, c);
	memset(at, 0, sizeof(*at));
}

const char *audit_die_phase(const struct audit_turn *at, uint64_t j, size_t *event)
{
	const struct events *ev = &at->out.events;

	*event = (size_t)-1;
	if (j >= at->out.dice.n)
		return NULL;
	if (j < at->rules_first_die) {
		/* The purpose says which ruling ("umpire ruling N: ..."), and ruling N reports in
		 * the N-th event of phase umpire. */
		unsigned long n = 0;
		if (sscanf(at->out.dice.v[j].purpose, "umpire ruling %lu:", &n) == 1 && n > 0) {
			for (size_t i = 0; i < at->rules_first_event && i < ev->n; i++)
				if (strcmp(ev->v[i].phase, "umpire") == 0 && --n == 0) {
					*event = i;
					break;
				}
		}
		return "umpire";
	}
	for (size_t i = at->rules_first_event; i < ev->n; i++) {
		if (ev->v[i].first_die > j) {
			*event = i;
			return ev->v[i].phase;
		}
	}
	if (ev->n > at->rules_first_event) {
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
