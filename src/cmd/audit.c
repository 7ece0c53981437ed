/* audit.c — `umpire audit DIR T:J`: one die explained from first principles, for a player who
 * wants to see why die J of turn T came out as it did: the turn key and its chain to the
 * commitment, every order file's hash and the orders digest, the beacon, the seed, each HMAC
 * block of fair_die with its rejection test, the value, and what the die decided. Text or
 * JSON (jansson); works on a clone (it reads the committed journal export). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "core/beacon.h"
#include "core/audit.h"
#include "core/escape.h"
#include "core/fair.h"
#include "core/layout.h"
#include "core/banned.h"

static const char audit_help[] =
	"usage: umpire audit DIR [--trust-chain HASH:KEY]... [--json]\n"
	"       umpire audit DIR T:J [--json]\n"
	"       umpire audit --vector SEED:J:N [--json]\n\n"
	"With DIR alone, checks the whole campaign as 'umpire verify DIR' does and ends with its\n"
	"verdict: fair (exit 0), consistent, not proven fair (exit 3, with reasons) or failed\n"
	"(exit 65).\n\n"
	"Explains die J of turn T of the campaign in DIR (a clone will do) step by step, by\n"
	"docs/fairness.md: the turn key k_T and SHA256 applied T times back to the commitment;\n"
	"each order file committed for the turn, its SHA256 and the orders digest D_T; the beacon\n"
	"B_T; the seed s_T; every HMAC block of the die with x, the limit 2^64 - (2^64 mod n) and\n"
	"whether x was accepted; the value; and what the die decided (its purpose and the events\n"
	"of the phase it was drawn in, from re-resolving the turn). Each recomputed value is\n"
	"compared with the journal export (and the SQLite journal on the umpire's own copy).\n\n"
	"  --json              the same as one JSON object (64-bit values as decimal strings)\n"
	"  --vector SEED:J:N   only the die: J of N faces from the hex seed SEED (test vectors)\n\n"
	"Exit 0 when every recomputed value agrees with the record, 65 when one does not.\n";

struct explain {
	int json;     /* --json */
	int ok;       /* every check so far agreed */
	json_t *root; /* the JSON report */
};

static void check(struct explain *e, json_t *obj, int ok)
{
	json_object_set_new(obj, "ok", json_boolean(ok));
	if (!ok)
		e->ok = 0;
}

static const char *okstr(int ok)
{
	return ok ? "ok" : "DIFFERS";
}

/* A 64-bit unsigned in JSON: a number while jansson's json_int_t holds it, else a string. */
static json_t *json_u64(uint64_t v)
{
	if (v <= (uint64_t)INT64_MAX)
		return json_integer((json_int_t)v);
	char s[24];
	snprintf(s, sizeof(s), "%" PRIu64, v);
	return json_string(s);
}

static json_t *json_dec(uint64_t v)
{
	char s[24];
	snprintf(s, sizeof(s), "%" PRIu64, v);
	return json_string(s);
}

static json_t *json_hex(const uint8_t *b, size_t n)
{
	char hex[129];
	hex_encode(hex, b, n);
	return json_string(hex);
}

/* The die itself: limit, every block, the value; against the recorded value when known. */
static json_t *explain_die(struct explain *e, const uint8_t seed[32], uint64_t j, uint64_t n, int t,
	const struct die_record *rec, const char *source)
{
	struct audit_die d;
	json_t *o = json_object(), *blocks = json_array();
	char hex[65];
	char s[16];
	if (t > 0)
		snprintf(s, sizeof(s), "s_%d", t);
	else
		snprintf(s, sizeof(s), "s");

	audit_die_explain(&d, seed, j, n);
	json_object_set_new(o, "index", json_u64(j));
	json_object_set_new(o, "sides", json_u64(n));
	json_object_set_new(o, "remainder", json_dec(d.rem));
	json_object_set_new(o, "limit",
		d.every_x ? json_string("18446744073709551616") : json_dec(d.limit));
	if (!e->json) {
		printf("die      j = %" PRIu64 ", n = %" PRIu64 " faces\n", j, n);
		if (d.every_x)
			printf("         n divides 2^64: limit = 2^64, every x is accepted\n");
		else
			printf("         limit = 2^64 - (2^64 mod n) = 18446744073709551616 - %" PRIu64
			       " = %" PRIu64 "\n",
				d.rem, d.limit);
	}
	for (size_t i = 0; i < d.n_blocks; i++) {
		const struct audit_block *b = &d.blocks[i];
		json_t *bo = json_object();
		char xhex[17];
		snprintf(xhex, sizeof(xhex), "%016" PRIx64, b->x);
		json_object_set_new(bo, "a", json_integer(b->a));
		json_object_set_new(bo, "message", json_hex(b->message, sizeof(b->message)));
		json_object_set_new(bo, "hmac", json_hex(b->mac, 32));
		json_object_set_new(bo, "x_hex", json_string(xhex));
		json_object_set_new(bo, "x", json_dec(b->x));
		json_object_set_new(bo, "accepted", json_boolean(b->accepted));
		json_array_append_new(blocks, bo);
		if (!e->json) {
			hex_encode(hex, b->mac, 32);
			printf("         block a = %" PRIu32
			       ": HMAC(%s, \"umpire/die/v1\" || be64(%" PRIu64 ") || be32(%" PRIu32
			       "))\n",
				b->a, s, j, b->a);
			printf("             = %s\n", hex);
			if (d.every_x)
				printf("           x = 0x%s = %" PRIu64 ": accepted\n", xhex, b->x);
			else if (b->accepted)
				printf("           x = 0x%s = %" PRIu64 " < limit: accepted\n",
					xhex, b->x);
			else
				printf("           x = 0x%s = %" PRIu64
				       " >= limit: rejected (x mod n would "
				       "favour the lowest %" PRIu64 " faces), next block\n",
					xhex, b->x, d.rem);
		}
	}
	json_object_set_new(o, "blocks", blocks);
	json_object_set_new(o, "value", json_u64(d.value));
	const struct audit_block *last = &d.blocks[d.n_blocks - 1];
	if (!e->json)
		printf("         value = 1 + x mod n = 1 + %" PRIu64 " = %" PRIu64 "\n",
			last->x % n, d.value);
	/* An independent recomputation: the core's own fair_die must agree. */
	uint32_t attempts = 0;
	uint64_t v = fair_die(seed, j, n, &attempts);
	if (v != d.value || attempts != d.n_blocks) {
		fprintf(stderr,
			"umpire: internal error: fair_die gives %" PRIu64 " in %" PRIu32
			" blocks, the step-by-step %" PRIu64 " in %zu\n",
			v, attempts, d.value, d.n_blocks);
		e->ok = 0;
	}
	if (rec) {
		int same = rec->value == d.value && rec->sides == n;
		json_object_set_new(o, "recorded", json_u64(rec->value));
		check(e, o, same);
		if (!e->json)
			printf("         %s: d%" PRIu64 " = %" PRIu64 ": %s\n", source, rec->sides,
				rec->value, okstr(same));
	}
	audit_die_release(&d);
	return o;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-' || s[0] == '+')
		return -1;
	*out = (uint64_t)v;
	return 0;
}

static int audit_vector(struct explain *e, const char *arg)
{
	char *copy = xstrdup(arg);
	char *c1 = strchr(copy, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	uint8_t seed[32];
	uint64_t j, n;
	int rc = EXIT_USAGE;

	if (!c2) {
		fprintf(stderr,
			"umpire: --vector '%s' (SEED:J:N expected: 64 hex digits, die index, faces)\n",
			arg);
		goto done;
	}
	*c1 = *c2 = '\0';
	if (strlen(copy) != 64 || hex_decode(seed, 32, copy) < 0 || parse_u64(c1 + 1, &j) < 0 ||
		parse_u64(c2 + 1, &n) < 0 || n < 2) {
		fprintf(stderr,
			"umpire: --vector '%s' (SEED:J:N expected: 64 hex digits, a die index, "
			"2 or more faces)\n",
			arg);
		goto done;
	}
	e->root = json_object();
	json_object_set_new(e->root, "seed", json_hex(seed, 32));
	if (!e->json)
		printf("seed     s = %s\n", copy);
	json_object_set_new(e->root, "die", explain_die(e, seed, j, n, 0, NULL, NULL));
	rc = EXIT_OK;
done:
	free(copy);
	return rc;
}

/* T:J */
static int parse_die_ref(const char *s, int *t, uint64_t *j)
{
	const char *colon = strchr(s, ':');
	char *tpart;
	int ok;

	if (!colon)
		return -1;
	tpart = xasprintf("%.*s", (int)(colon - s), s);
	ok = cmd_parse_turn(tpart, t) == 0 && *t >= 1 && parse_u64(colon + 1, j) == 0;
	free(tpart);
	return ok ? 0 : -1;
}

/* An event's line: its phase, player and text come from a clone's files (an umpire's ruling,
 * a rule system's words around a player's ids), so each is escaped for the terminal. */
static void print_event(const struct event *ev, size_t i, int mark)
{
	struct buf phase = BUF_INIT, player = BUF_INIT, text = BUF_INIT;

	escape_terminal(&phase, ev->phase);
	escape_terminal(&text, ev->text);
	if (ev->kind == EVENT_VOID) {
		escape_terminal(&player, ev->player);
		printf("         %s %3zu [%s] void: %s order %d: %s\n", mark ? ">" : " ", i,
			buf_str(&phase), buf_str(&player), ev->order_index, buf_str(&text));
	} else {
		printf("         %s %3zu [%s] %s\n", mark ? ">" : " ", i, buf_str(&phase),
			buf_str(&text));
	}
	buf_release(&phase);
	buf_release(&player);
	buf_release(&text);
}

static json_t *json_event(const struct event *ev, size_t i)
{
	json_t *o = json_object();
	json_object_set_new(o, "index", json_integer((json_int_t)i));
	json_object_set_new(o, "phase", json_string(ev->phase));
	json_object_set_new(o, "kind", json_string(ev->kind == EVENT_VOID ? "void" : "event"));
	if (ev->kind == EVENT_VOID) {
		json_object_set_new(o, "player", json_string(ev->player));
		json_object_set_new(o, "order", json_integer(ev->order_index));
	}
	json_object_set_new(o, "text", json_string(ev->text));
	return o;
}

/* What the die decided: its purpose, and the events of the phase it was drawn in, found by
 * re-resolving the turn from the committed state before it. */
static void explain_decision(struct explain *e, struct campaign *c, int t, uint64_t j,
	const struct journal_record *ex, const struct die_record *dr)
{
	struct audit_turn at;
	char prev[LAYOUT_TAG_MAX], tag[LAYOUT_TAG_MAX];
	void *state = NULL;
	int last, failed = 1;
	json_t *o = json_object();

	memset(&at, 0, sizeof(at));
	layout_tag(prev, t - 1);
	layout_tag(tag, t);
	json_object_set_new(o, "for", json_string(dr->purpose));
	if (!e->json) {
		struct buf purpose = BUF_INIT;
		escape_terminal(&purpose, dr->purpose);
		printf("for      \"%s\"\n", buf_str(&purpose));
		buf_release(&purpose);
	}
	if (turn_load_whole_state(c, t - 1, &last, &state) < 0) {
		error_set(ERROR_INPUT, "the state after turn %d cannot be loaded", t - 1);
	} else if (audit_resolve(&at, c, state, tag, ex, AUDIT_EXPORT) == 0) {
		size_t k;
		const char *phase = audit_die_phase(&at, j, &k);
		json_t *events = json_array();
		json_object_set_new(o, "phase", json_string(phase ? phase : ""));
		json_object_set_new(o, "reported_by",
			k == (size_t)-1 ? json_null() : json_event(&at.t.out.events.v[k], k));
		if (!e->json) {
			printf("decided  drawn in phase '%s'", phase ? phase : "");
			if (k != (size_t)-1)
				printf("; reported by event %zu", k);
			printf("\n         events of phase '%s' (> marks the one that reports the die):\n",
				phase ? phase : "");
		}
		for (size_t i = 0; phase && i < at.t.out.events.n; i++) {
			const struct event *ev = &at.t.out.events.v[i];
			if (strcmp(ev->phase, phase) != 0)
				continue;
			json_array_append_new(events, json_event(ev, i));
			if (!e->json)
				print_event(ev, i, i == k);
		}
		json_object_set_new(o, "events", events);
		failed = 0;
	}
	/* A sealed turn before the reveal: what the die decided is withheld, not wrong. */
	int withheld = c->visibility == CAMPAIGN_SEALED && !repo_has(c->repo, LAYOUT_REVEAL_TAG);
	if (failed) {
		json_object_set_new(o, withheld ? "withheld" : "error",
			json_string(error_last()->message));
		if (!e->json)
			printf("decided  %s: %s\n",
				withheld ? "withheld until the reveal" :
					   "cannot re-resolve the turn",
				cmd_message());
		if (!withheld)
			e->ok = 0;
	}
	json_object_set_new(e->root, "decided", o);
	audit_turn_release(&at);
	if (state)
		c->rules->state_free(state);
}

static json_t *json_hash(const uint8_t h[FAIR_HASH_BYTES])
{
	char hex[65];

	hex_encode(hex, h, FAIR_HASH_BYTES);
	return json_string(hex);
}

/* The key and its chain: SHA256 applied t times gives the commitment, once gives k_(t-1). */
static void explain_key(struct explain *e, struct campaign *c, const struct journal_record *ex)
{
	struct journal_record *prevex = NULL;
	struct buf bytes = BUF_INIT;
	struct diag d;
	uint8_t h[FAIR_HASH_BYTES];
	char hex[65], want[65], key[65];
	int t = ex->turn;
	json_t *ko = json_object();

	diag_init(&d);
	memcpy(h, ex->key, FAIR_HASH_BYTES);
	for (int i = 0; i < t; i++)
		fair_sha256(h, h, FAIR_HASH_BYTES);
	hex_encode(hex, h, FAIR_HASH_BYTES);
	hex_encode(want, c->commitment, FAIR_HASH_BYTES);
	hex_encode(key, ex->key, FAIR_HASH_BYTES);
	json_object_set_new(ko, "key", json_string(key));
	json_object_set_new(ko, "hashes", json_integer(t));
	json_object_set_new(ko, "result", json_string(hex));
	json_object_set_new(ko, "commitment", json_string(want));
	check(e, ko, strcmp(hex, want) == 0);
	if (!e->json) {
		printf("key      k_%d = %s\n", t, key);
		printf("         SHA256 applied %d time%s = %s\n", t, t == 1 ? "" : "s", hex);
		printf("         fairness.commitment = %s: %s\n", want,
			okstr(strcmp(hex, want) == 0));
	}
	if (t > 1) {
		char ppath[LAYOUT_PATH_MAX];
		layout_export_path(ppath, t - 1);
		if (audit_read_export(&prevex, c, t - 1, NULL, &d) == 0) {
			fair_sha256(h, ex->key, FAIR_HASH_BYTES);
			int same = memcmp(h, prevex->key, FAIR_HASH_BYTES) == 0;
			json_object_set_new(ko, "previous_key", json_hash(prevex->key));
			json_object_set_new(ko, "previous_ok", json_boolean(same));
			if (!same)
				e->ok = 0;
			hex_encode(hex, h, FAIR_HASH_BYTES);
			if (!e->json)
				printf("         SHA256(k_%d) = %s = k_%d of %s: %s\n", t, hex,
					t - 1, ppath, okstr(same));
		}
	}
	json_object_set_new(e->root, "key", ko);
	journal_record_free(prevex);
	diag_release(&d);
	buf_release(&bytes);
}

/* The orders digest from the committed files (audit_parse_export checked the export lists
 * every player plus umpire once, sorted). */
static void explain_orders(struct explain *e, struct campaign *c, const struct journal_record *ex,
	uint8_t digest[FAIR_HASH_BYTES])
{
	static const uint8_t zero[FAIR_HASH_BYTES];
	json_t *oo = json_object(), *players = json_array();
	struct fair_order *fo = xcalloc(ex->n_orders + 1, sizeof(*fo));
	struct buf bytes = BUF_INIT;
	char fpath[LAYOUT_PATH_MAX], hex[65];
	int t = ex->turn;

	char tag[LAYOUT_TAG_MAX];

	layout_tag(tag, t);
	for (size_t i = 0; i < ex->n_orders; i++) {
		const struct journal_order *o = &ex->orders[i];
		json_t *po = json_object();
		layout_order_path(fpath, t, o->player);
		int r = repo_read(c->repo, tag, fpath, &bytes);
		fo[i].player = o->player;
		fo[i].has_file = r == 0;
		if (r == 0)
			fair_sha256(fo[i].sha256, bytes.data ? bytes.data : "", bytes.len);
		/* Sealed: no file is committed; D_t takes the salted hash the export shows
		 * (`umpire verify` opens it with the revealed file and salt). */
		if (c->visibility == CAMPAIGN_SEALED && r != 0 && o->has_file) {
			r = 0;
			fo[i].has_file = 1;
			memcpy(fo[i].sha256, o->sha256, FAIR_HASH_BYTES);
			snprintf(fpath, sizeof fpath, "(sealed: the salted hash)");
		}
		int same = r == 0 ? o->has_file &&
					    memcmp(fo[i].sha256, o->sha256, FAIR_HASH_BYTES) == 0 :
				    !o->has_file;
		json_object_set_new(po, "player", json_string(o->player));
		json_object_set_new(po, "file", r == 0 ? json_string(fpath) : json_null());
		json_object_set_new(po, "sha256", json_hash(r == 0 ? fo[i].sha256 : zero));
		json_object_set_new(po, "recorded", json_hash(o->has_file ? o->sha256 : zero));
		check(e, po, same);
		json_array_append_new(players, po);
		hex_encode(hex, fo[i].sha256, FAIR_HASH_BYTES);
		if (!e->json) {
			if (r == 0)
				printf("%s %-9s sha256 %s  %s: %s\n",
					i == 0 ? "orders  " : "        ", o->player, hex, fpath,
					okstr(same));
			else
				printf("%s %-9s no file: 32 zero bytes: %s\n",
					i == 0 ? "orders  " : "        ", o->player, okstr(same));
		}
	}
	fair_orders_digest(digest, fo, ex->n_orders);
	free(fo);
	buf_release(&bytes);
	int same = memcmp(digest, ex->orders_digest, FAIR_HASH_BYTES) == 0;
	json_object_set_new(oo, "players", players);
	json_object_set_new(oo, "digest", json_hash(digest));
	json_object_set_new(oo, "recorded", json_hash(ex->orders_digest));
	check(e, oo, same);
	json_object_set_new(e->root, "orders", oo);
	hex_encode(hex, digest, FAIR_HASH_BYTES);
	if (!e->json)
		printf("         D_%d = SHA256 of id || 0x00 || sha256 for each, by id = %s: %s\n",
			t, hex, okstr(same));
}

/* The round's BLS signature under the chain's key (docs/fairness.md, "The beacon's
 * signature"), checked by the helper as every verifier does. */
static void explain_signature(struct explain *e, struct campaign *c,
	const struct journal_record *ex, json_t *bo)
{
	int bls_ok = beacon_check_round(c, ex->turn, ex->beacon_round, ex->beacon_value,
			     ex->beacon_signature) == 0;
	json_t *o = json_object();

	json_object_set_new(o, "chain", json_string(c->beacon_chain));
	json_object_set_new(o, "public_key", json_string(c->beacon_key));
	json_object_set_new(o, "demo", json_boolean(c->beacon_demo));
	if (!bls_ok)
		json_object_set_new(o, "error", json_string(cmd_message()));
	check(e, o, bls_ok);
	json_object_set_new(bo, "bls", o);
	if (e->json)
		return;
	printf("         BLS (%s): e(signature, G2) = e(H(SHA256(be64(%s))), pk), pk = the public key of chain %s in campaign.yaml: %s\n",
		BEACON_SCHEME, ex->beacon_round ? ex->beacon_round : "?", c->beacon_chain,
		bls_ok ? "ok" : cmd_message());
	if (c->beacon_demo)
		printf("         (umpire's demo beacon: its secret key is published, so this proves nothing about fairness)\n");
}

/* The beacon B_t and the seed s_t. */
static void explain_seed(struct explain *e, struct campaign *c, const struct journal_record *ex,
	const uint8_t digest[FAIR_HASH_BYTES], uint8_t seed[FAIR_HASH_BYTES])
{
	uint8_t beacon[FAIR_HASH_BYTES];
	char hex[65];
	int t = ex->turn;
	json_t *bo = json_object(), *so = json_object();

	turn_beacon(beacon, ex->beacon_value);
	int same = memcmp(beacon, ex->beacon, FAIR_HASH_BYTES) == 0;
	hex_encode(hex, beacon, FAIR_HASH_BYTES);
	json_object_set_new(bo, "value",
		ex->beacon_value ? json_string(ex->beacon_value) : json_null());
	json_object_set_new(bo, "round",
		ex->beacon_round ? json_string(ex->beacon_round) : json_null());
	json_object_set_new(bo, "beacon", json_string(hex));
	json_object_set_new(bo, "recorded", json_hash(ex->beacon));
	check(e, bo, same);
	json_object_set_new(e->root, "beacon", bo);
	if (!e->json) {
		if (ex->beacon_value)
			printf("beacon   value \"%s\"%s%s%s: B_%d = SHA256(value) = %s: %s\n",
				ex->beacon_value, ex->beacon_round ? " (round " : "",
				ex->beacon_round ? ex->beacon_round : "",
				ex->beacon_round ? ")" : "", t, hex, okstr(same));
		else
			printf("beacon   none: B_%d = 32 zero bytes: %s\n", t, okstr(same));
	}
	if (ex->beacon_signature && ex->beacon_value) {
		/* drand's rule (docs/fairness.md, "The beacon's signature"): hashing only. */
		int sig_ok = fair_beacon_signature_check(ex->beacon_value, ex->beacon_signature) ==
			     0;
		json_t *so_sig = json_object();
		json_object_set_new(so_sig, "signature", json_string(ex->beacon_signature));
		check(e, so_sig, sig_ok);
		json_object_set_new(bo, "signature", so_sig);
		if (!e->json)
			printf("         signature %s: value = SHA256(signature): %s\n",
				ex->beacon_signature, okstr(sig_ok));
	}
	if (c->entropy == CAMPAIGN_ENTROPY_BEACON && c->beacon_key)
		explain_signature(e, c, ex, bo);
	fair_turn_seed(seed, ex->key, (uint32_t)t, digest, beacon);
	same = memcmp(seed, ex->seed, FAIR_HASH_BYTES) == 0;
	hex_encode(hex, seed, FAIR_HASH_BYTES);
	json_object_set_new(so, "seed", json_string(hex));
	json_object_set_new(so, "recorded", json_hash(ex->seed));
	check(e, so, same);
	json_object_set_new(e->root, "seed", so);
	if (!e->json)
		printf("seed     s_%d = HMAC(k_%d, \"umpire/turn/v1\" || be32(%d) || D_%d || B_%d)\n"
		       "             = %s: %s\n",
			t, t, t, t, t, hex, okstr(same));
}

/* The SQLite journal's row for the die, on the umpire's own copy. */
static void explain_journal_row(struct explain *e, struct campaign *c, int t, uint64_t j,
	const struct die_record *dr)
{
	struct journal_record *jr = NULL;
	json_t *jo = json_object();
	int r = journal_read(c->journal, t, &jr);
	int same = r == 0 && j < jr->n_dice && jr->dice[j].sides == dr->sides &&
		   jr->dice[j].value == dr->value && strcmp(jr->dice[j].purpose, dr->purpose) == 0;

	if (r == 0 && j < jr->n_dice) {
		json_object_set_new(jo, "sides", json_u64(jr->dice[j].sides));
		json_object_set_new(jo, "value", json_u64(jr->dice[j].value));
		json_object_set_new(jo, "for", json_string(jr->dice[j].purpose));
		if (!e->json)
			printf("         the SQLite journal: d%" PRIu64 " = %" PRIu64 "%s: %s\n",
				jr->dice[j].sides, jr->dice[j].value,
				strcmp(jr->dice[j].purpose, dr->purpose) ? " (another purpose)" :
									   "",
				okstr(same));
	} else if (!e->json) {
		printf("         the SQLite journal: no such die: DIFFERS\n");
	}
	check(e, jo, same);
	json_object_set_new(e->root, "journal", jo);
	journal_record_free(jr);
}

/* The committed journal export of turn t, parsed. Prints why not and returns the exit code. */
/* The committed journal export of turn t, parsed. Prints why not and returns the exit code. */
static int read_export(struct campaign *c, int t, struct journal_record **ex)
{
	struct diag d;
	int rc = EXIT_OK;
	char tag[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX];

	diag_init(&d);
	int r = audit_read_export(ex, c, t, NULL, &d);
	if (r == ERROR_NOTFOUND) {
		layout_tag(tag, t);
		layout_export_path(path, t);
		fprintf(stderr, "umpire: no turn %d: %s is not committed at %s\n", t, path, tag);
		rc = EXIT_NOINPUT;
	} else if (r < 0 && diag_count(&d)) {
		diag_print(&d, stderr);
		rc = EXIT_DATAERR;
	} else if (r < 0) {
		rc = cmd_error("umpire");
	}
	diag_release(&d);
	return rc;
}

static int audit_die(struct explain *e, const char *dir, const char *ref)
{
	struct campaign *c = NULL;
	struct journal_record *ex = NULL;
	char path[LAYOUT_PATH_MAX], tag[LAYOUT_TAG_MAX];
	uint8_t digest[FAIR_HASH_BYTES], seed[FAIR_HASH_BYTES];
	uint64_t j;
	int t, rc;

	if (parse_die_ref(ref, &t, &j) < 0) {
		fprintf(stderr,
			"umpire: '%s' (T:J expected: a turn from 1 and a die index from 0, e.g. 3:12)\n",
			ref);
		return EXIT_USAGE;
	}
	if (campaign_open(&c, dir, CAMPAIGN_JOURNAL_IF_ANY) < 0)
		return cmd_error("umpire");
	rc = read_export(c, t, &ex);
	if (rc != EXIT_OK)
		goto done;
	layout_export_path(path, t);
	if (j >= ex->n_dice) {
		fprintf(stderr, "umpire: turn %d drew %zu dice (0 to %zu): no die %" PRIu64 "\n", t,
			ex->n_dice, ex->n_dice ? ex->n_dice - 1 : 0, j);
		rc = EXIT_NOINPUT;
		goto done;
	}
	const struct die_record *dr = &ex->dice[j];
	layout_tag(tag, t);
	e->root = json_object();
	json_object_set_new(e->root, "campaign", json_string(c->id));
	json_object_set_new(e->root, "turn", json_integer(t));
	json_object_set_new(e->root, "index", json_u64(j));
	json_object_set_new(e->root, "export", json_string(path));
	if (!e->json)
		printf("die %" PRIu64 " of turn %d, campaign %s (%s at %s)\n\n", j, t, c->id, path,
			tag);
	explain_key(e, c, ex);
	explain_orders(e, c, ex, digest);
	explain_seed(e, c, ex, digest, seed);
	json_object_set_new(e->root, "die", explain_die(e, seed, j, dr->sides, t, dr, path));
	if (c->journal)
		explain_journal_row(e, c, t, j, dr);
	explain_decision(e, c, t, j, ex, dr);
done:
	journal_record_free(ex);
	campaign_close(c);
	return rc;
}

int cmd_audit(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "vector", required_argument, NULL, 'v' },
		{ "trust-chain", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct explain e = { 0, 1, NULL };
	const char *vector = NULL;
	int ch, rc, trust = 0;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			e.json = 1;
			break;
		case 'v':
			vector = optarg;
			break;
		case 't':
			trust = 1;
			break;
		case 'h':
			fputs(audit_help, stdout);
			return EXIT_OK;
		default:
			return cmd_usage_see("audit");
		}
	}
	/* The campaign-wide check is verify's, with the same verdict (docs/fairness.md). */
	if (!vector && argc - optind == 1) {
		optind = 0;
		return cmd_verify(argc, argv);
	}
	if (trust)
		return cmd_usage("audit",
			"--trust-chain goes with 'umpire audit DIR' alone (the campaign-wide check)");
	static const char *const operands[] = { "DIR (the campaign folder)",
		"T:J (the die: turn T, die index J, e.g. 3:12)" };
	if ((rc = cmd_operands("audit", argc - optind, argv + optind, operands, vector ? 0 : 2,
		     vector ? 0 : 2)) != EXIT_OK)
		return rc;
	rc = vector ? audit_vector(&e, vector) : audit_die(&e, argv[optind], argv[optind + 1]);
	if (rc == EXIT_OK) {
		json_object_set_new(e.root, "ok", json_boolean(e.ok));
		if (e.json) {
			json_dumpf(e.root, stdout, JSON_INDENT(2));
			putchar('\n');
		} else if (!vector) {
			printf("\nverdict: %s\n",
				e.ok ? "ok: the die follows from the committed key, orders "
				       "and beacon, as recorded" :
				       "DIFFERS: a recomputed value is not what the record "
				       "says (see above)");
		}
		if (!e.ok)
			rc = EXIT_DATAERR;
	}
	json_decref(e.root);
	return rc;
}
