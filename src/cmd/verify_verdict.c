/* verify_verdict.c — the verdict `umpire verify` (and `umpire audit DIR`) ends with
 * (docs/fairness.md, "The verdict"): fair, consistent but not proven fair with each reason the
 * dice could have been chosen, or failed; as text lines or one JSON object (--json). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/cmd.h"
#include "core/audit.h"
#include "core/beacon.h"
#include "core/buf.h"
#include "core/fair.h"
#include "cmd/verify.h"
#include "core/banned.h"

/* One reason: its code, its text, and the turns it names (NULL when its text has none). */
struct reason {
	const char *code;
	char *text;
	json_t *turns;
};

struct reasons {
	struct reason v[16];
	size_t n;
};

static void add(struct reasons *rs, const char *code, char *text, json_t *turns)
{
	rs->v[rs->n].code = code;
	rs->v[rs->n].text = text;
	rs->v[rs->n].turns = turns;
	rs->n++;
}

/* TURNS as the docs write it: ascending, consecutive runs a-b, separated by ", ". */
static void turns_text(struct buf *out, const int *t, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && t[j + 1] == t[j] + 1)
			j++;
		buf_printf(out, "%s%d", i ? ", " : "", t[i]);
		if (j > i)
			buf_printf(out, "-%d", t[j]);
		i = j + 1;
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
}

/* A reason naming turns t[0..n) (sorted and made unique here); none when n is 0. */
static void add_turns(struct reasons *rs, const char *code, const char *before, const char *after,
	int *t, size_t n)
{
	struct buf b = BUF_INIT;
	size_t m = 0;

	if (n == 0)
		return;
	qsort(t, n, sizeof *t, cmp_int);
	for (size_t i = 0; i < n; i++)
		if (m == 0 || t[m - 1] != t[i])
			t[m++] = t[i];
	json_t *arr = json_array();
	for (size_t i = 0; i < m; i++)
		json_array_append_new(arr, json_integer(t[i]));
	buf_printf(&b, "%s", before);
	turns_text(&b, t, m);
	buf_printf(&b, "%s", after);
	add(rs, code, xstrdup(buf_str(&b)), arr);
	buf_release(&b);
}

/* The key a --trust-chain names for chain hash, or NULL. */
static const char *trusted_key(const struct verify *v, const char *hash)
{
	size_t n = strlen(hash);
	for (size_t i = 0; i < v->n_trust; i++)
		if (strncasecmp(v->trust[i], hash, n) == 0 && v->trust[i][n] == ':')
			return v->trust[i] + n + 1;
	return NULL;
}

int check_trusted_key(const struct verify *v)
{
	const struct campaign *c = v->c;
	const char *key = c->beacon_chain ? trusted_key(v, c->beacon_chain) : NULL;

	if (!key || !c->beacon_key || strcasecmp(key, c->beacon_key) == 0)
		return 0;
	return error_set(ERROR_INPUT,
		"setup: campaign.yaml names public key %s for beacon chain %s, but --trust-chain gives %s: its rounds are not signed by the chain you trust",
		c->beacon_key, c->beacon_chain, key);
}

/* 1 when the campaign's beacon is umpire's demo beacon: flagged so, or its published key
 * under any chain hash. */
static int is_demo(const struct campaign *c)
{
	return c->beacon_demo ||
	       (c->beacon_key && strcasecmp(c->beacon_key, beacon_demo.public_key) == 0);
}

/* The players (not the umpire) whose nonce turn t's reveals text lists: at least two are
 * needed for a turn nobody could steer alone with the umpire. -1 when the export cannot be
 * read (the verify before read it: not expected). */
static int contributors(struct verify *v, int t)
{
	struct journal_record *ex = NULL;
	struct buf bytes = BUF_INIT;
	struct diag d;
	int n = 0;

	diag_init(&d);
	int got = audit_read_export(&ex, v->c, t, &bytes, &d);
	diag_release(&d);
	buf_release(&bytes);
	if (got < 0)
		return -1;
	/* "P nonce HEX" and "P committed HEX", in player order: each player at most once. */
	char *text = xstrdup(ex->beacon_value ? ex->beacon_value : "");
	char *save = NULL, *w[3];
	for (char *p = strtok_r(text, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		w[0] = p;
		w[1] = strtok_r(NULL, " ", &save);
		w[2] = w[1] ? strtok_r(NULL, " ", &save) : NULL;
		if (!w[2])
			break;
		if (strcmp(w[1], "nonce") == 0 && strcmp(w[0], "umpire") != 0)
			n++;
	}
	free(text);
	journal_record_free(ex);
	return n;
}

/* Every reason of docs/fairness.md's table that applies, in its order. */
static void collect(struct verify *v, struct reasons *rs)
{
	const struct campaign *c = v->c;
	int *t = xcalloc((size_t)v->last_turn + 1 + v->n_lacking, sizeof *t);
	size_t n = 0;

	if (c->entropy == CAMPAIGN_ENTROPY_NONE)
		add(rs, "entropy-none",
			xstrdup("entropy none: the umpire knew every turn key before the orders arrived and could choose among outcomes"),
			NULL);
	if (!c->fair)
		add(rs, "secret-from-file",
			xstrdup("fair: false: the campaign secret came from a file, so whoever wrote it could compute every die in advance"),
			NULL);
	int beacon = c->entropy == CAMPAIGN_ENTROPY_BEACON;
	if (beacon && !c->beacon_key)
		add(rs, "unsigned-beacon",
			xasprintf(
				"unsigned beacon %s: its round values carry no signature and could have been chosen after the close",
				c->beacon ? c->beacon : "(unnamed)"),
			NULL);
	int demo = beacon && c->beacon_key && is_demo(c);
	if (demo)
		add(rs, "demo-beacon",
			xstrdup("demo beacon: its secret key is published with umpire, so anyone could sign any round value"),
			NULL);
	/* The demo beacon is not also untrusted: trusting its key would prove nothing. */
	if (beacon && c->beacon_key && !demo &&
		strcasecmp(c->beacon_chain, beacon_quicknet.hash) != 0 &&
		!trusted_key(v, c->beacon_chain))
		add(rs, "untrusted-chain",
			xasprintf(
				"beacon chain %s is not one this verifier trusts: give its public key with --trust-chain HASH:KEY, from an announcement you trust",
				c->beacon_chain),
			NULL);
	if (beacon && !c->pbem.schedule.set)
		add(rs, "no-schedule",
			xstrdup("no schedule: the umpire chose when to close each turn, so he could close, see the outcome, and close again later"),
			NULL);
	if (c->entropy != CAMPAIGN_ENTROPY_NONE) {
		for (int i = 1; i <= v->last_turn; i++)
			if ((size_t)i >= v->n_witnessed || !v->witnessed[i])
				t[n++] = i;
		add_turns(rs, "unwitnessed-close", "closes without a witness: turns ",
			" (no receipt given, and no time-stamp token from an authority this verifier trusts)",
			t, n);
	}
	n = 0;
	if (c->entropy == CAMPAIGN_ENTROPY_PLAYERS)
		for (int i = 1; i <= v->last_turn; i++)
			if (contributors(v, i) < 2)
				t[n++] = i;
	add_turns(rs, "few-contributors",
		"entropy players: fewer than two independent contributors in turns ", "", t, n);
	n = 0;
	for (size_t i = 0; i < v->n_lacking; i++)
		t[n++] = v->lacking[i];
	add_turns(rs, "history-lacks-close",
		"receipts witness closes this clone's main does not hold: turns ",
		" (the last turns were dropped, or main was moved back)", t, n);
	free(t);
}

static const char *verdict_word(int rc)
{
	return rc == EXIT_OK         ? "fair" :
	       rc == EXIT_NOT_PROVEN ? "consistent, not proven fair" :
				       "failed";
}

int verify_verdict(struct verify *v, int res)
{
	struct reasons rs;
	const char *failure = NULL;
	int rc;

	rs.n = 0;
	if (res < 0) {
		failure = error_last()->message;
		rc = EXIT_DATAERR;
	} else {
		collect(v, &rs);
		rc = rs.n ? EXIT_NOT_PROVEN : EXIT_OK;
	}
	if (!v->json) {
		if (failure)
			printf("verify: FAILED: %s\n", failure);
		printf("verdict: %s\n", verdict_word(rc));
		for (size_t i = 0; i < rs.n; i++)
			printf("reason: %s: %s\n", rs.v[i].code, rs.v[i].text);
	} else {
		json_t *root = json_object(), *arr = json_array();
		json_object_set_new(root, "verdict", json_string(verdict_word(rc)));
		json_object_set_new(root, "exit", json_integer(rc));
		json_object_set_new(root, "campaign", json_string(v->c->id));
		json_object_set_new(root, "turns", json_integer(v->last_turn));
		json_object_set_new(root, "dice", json_integer((json_int_t)v->dice));
		json_object_set_new(root, "threads", json_integer(v->threads));
		for (size_t i = 0; i < rs.n; i++) {
			json_t *r = json_object();
			json_object_set_new(r, "code", json_string(rs.v[i].code));
			json_object_set_new(r, "text", json_string(rs.v[i].text));
			if (rs.v[i].turns)
				json_object_set(r, "turns", rs.v[i].turns);
			json_array_append_new(arr, r);
		}
		json_object_set_new(root, "reasons", arr);
		json_object_set_new(root, "failure", failure ? json_string(failure) : json_null());
		json_dumpf(root, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(root);
	}
	for (size_t i = 0; i < rs.n; i++) {
		free(rs.v[i].text);
		json_decref(rs.v[i].turns);
	}
	fflush(stdout);
	return rc;
}
