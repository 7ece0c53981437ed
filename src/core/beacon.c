/* beacon.c — the beacon chains umpire knows, a round's signature checked against its chain
 * (bls.c spawns the BLS helper), and a drand round fetched over HTTP(S) (beacon.h): libcurl's
 * GET (net.c), jansson for the JSON, fair.c for the hash that ties randomness to signature. */
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/beacon.h"
#include "core/bls.h"
#include "core/buf.h"
#include "core/campaign.h"
#include "core/error.h"
#include "core/fair.h"
#include "core/net.h"
#include "core/banned.h"

const struct beacon_chain beacon_quicknet = {
	"drand quicknet",
	CAMPAIGN_DRAND_QUICKNET,
	"52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
	"83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c"
	"8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb"
	"5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
	CAMPAIGN_DRAND_QUICKNET_GENESIS,
	CAMPAIGN_DRAND_QUICKNET_PERIOD,
	0,
};

/* Its key was made once with `umpire-bls keygen` for the shipped demos; the chain hash is
 * SHA-256 of the key's 96 bytes (a drand chain's is the hash of its /info). */
const struct beacon_chain beacon_demo = {
	"umpire demo beacon",
	CAMPAIGN_DEMO_BEACON,
	"50607b1cc896b6f583784f9c4a74c9f63825c4ffc594dd1d5e43a858a5737d37",
	"b10c4db546b3f45a4fe7a05f917ea5d2b58717b8d0f101e672f509a694260de3"
	"fc0653b945149ef3e5adf57946b768de19552355197cc29f15bcbd6b8ce9cb5d"
	"26ffac92ed3846f4b004798887a09f8538042569a55a1ea47387baef536d44ac",
	CAMPAIGN_DEMO_BEACON_GENESIS,
	CAMPAIGN_DEMO_BEACON_PERIOD,
	1,
};

const struct beacon_chain *beacon_chain_find(const char *hash)
{
	static const struct beacon_chain *const known[] = { &beacon_quicknet, &beacon_demo };
	for (size_t i = 0; hash && i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(known[i]->hash, hash) == 0)
			return known[i];
	return NULL;
}

static int is_hex(const char *s, size_t n)
{
	return s && strlen(s) == n && strspn(s, "0123456789abcdef") == n;
}

int beacon_chain_check(const char *hash, const char *scheme, const char *public_key, int demo)
{
	const struct beacon_chain *known = beacon_chain_find(hash);

	if (!scheme || strcmp(scheme, BEACON_SCHEME) != 0)
		return error_set(ERROR_INPUT,
			"beacon scheme '%s': umpire checks signatures of scheme " BEACON_SCHEME
			" only (drand quicknet's)",
			scheme ? scheme : "");
	if (!is_hex(hash, 64))
		return error_set(ERROR_INPUT,
			"beacon chain '%s' (64 lower-case hex digits expected)", hash ? hash : "");
	if (!is_hex(public_key, BLS_PUBLIC_KEY_HEX))
		return error_set(ERROR_INPUT,
			"beacon public key '%.200s' (%d lower-case hex digits expected: a compressed G2 point)",
			public_key ? public_key : "", BLS_PUBLIC_KEY_HEX);
	if (known && strcmp(known->public_key, public_key) != 0)
		return error_set(ERROR_INPUT,
			"beacon chain %s is %s, whose public key is %s, not %s", hash, known->name,
			known->public_key, public_key);
	if (known ? known->demo != demo : demo)
		return error_set(ERROR_INPUT,
			"beacon chain %s is %s a demo beacon: beacon_demo must be %s", hash,
			known && known->demo ? "umpire's" : "not",
			known && known->demo ? "true" : "false");
	return 0;
}

/* The helper process of this run, for the key it was started with (beacon_check_round),
 * used under helper_lock. */
static pthread_mutex_t helper_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char *public_key;
	struct bls_verifier *v;
} helper;

/* The rounds beacon_prefetch found good under the key it was given: "ROUND SIGNATURE"
 * strings, sorted, for bsearch. beacon_check_round takes one found here as checked. */
static struct {
	char *public_key;
	char **good;
	size_t n;
} checked;

static void helper_end(void)
{
	bls_verifier_free(helper.v);
	free(helper.public_key);
	helper.v = NULL;
	helper.public_key = NULL;
}

static void checked_end(void)
{
	for (size_t i = 0; i < checked.n; i++)
		free(checked.good[i]);
	free(checked.good);
	free(checked.public_key);
	memset(&checked, 0, sizeof checked);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The helper for c's key, started when there is none or it serves another key. 0 / -1. */
static int helper_for(const struct campaign *c)
{
	if (helper.v && strcmp(helper.public_key, c->beacon_key) == 0)
		return 0;
	if (!helper.v)
		atexit(helper_end);
	bls_verifier_free(helper.v);
	free(helper.public_key);
	helper.v = NULL;
	helper.public_key = NULL;
	if (bls_verifier_open(&helper.v, c->beacon_key) < 0)
		return -1;
	helper.public_key = xstrdup(c->beacon_key);
	return 0;
}

/* 1 if beacon_prefetch found round's signature good under c's key. */
static int prefetched(const struct campaign *c, long long round, const char *signature)
{
	if (!checked.n || strcmp(checked.public_key, c->beacon_key) != 0)
		return 0;
	char *key = xasprintf("%lld %s", round, signature);
	int found = bsearch(&key, checked.good, checked.n, sizeof(char *), cmp_str) != NULL;
	free(key);
	return found;
}

int beacon_prefetch(const struct campaign *c, size_t n, const long long *rounds,
	const char *const *signatures)
{
	unsigned char *ok = xcalloc(n + 1, 1);
	int rc = 0;

	if (!c->beacon_key || n == 0)
		goto done;
	if (!checked.public_key)
		atexit(checked_end);
	checked_end();
	checked.public_key = xstrdup(c->beacon_key);
	checked.good = xcalloc(n, sizeof(char *));
	if (helper_for(c) < 0) {
		rc = -1;
		goto done;
	}
	/* batches of at most BEACON_BATCH rounds: each answer comes within the helper's
	 * timeout on a slow machine */
	for (size_t at = 0; rc == 0 && at < n; at += BEACON_BATCH) {
		size_t k = n - at < BEACON_BATCH ? n - at : BEACON_BATCH;
		rc = bls_verify_batch(helper.v, k, rounds + at, signatures + at, ok + at);
	}
	if (rc < 0) {
		helper_end(); /* a helper that failed is not asked again */
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		if (ok[i])
			checked.good[checked.n++] = xasprintf("%lld %s", rounds[i], signatures[i]);
	qsort(checked.good, checked.n, sizeof(char *), cmp_str);
done:
	free(ok);
	return rc;
}

int beacon_check_round(const struct campaign *c, int turn, const char *round, const char *value,
	const char *signature)
{
	char *end = NULL;
	long long r = round ? strtoll(round, &end, 10) : 0;

	if (signature && value && fair_beacon_signature_check(value, signature) < 0)
		return error_set(ERROR_INPUT, "turn %d: beacon round %s: %s", turn,
			round ? round : "?", error_last()->message);
	if (!c->beacon_key)
		return 0;
	if (!signature)
		return error_set(ERROR_INPUT,
			"turn %d: beacon round %s: no signature: the campaign's beacon (%s, chain %s) signs its rounds, and a value is taken only with the round's signature (--beacon VALUE --beacon-signature SIG, --beacon-fetch, or a --beacon-command printing both)",
			turn, round ? round : "?", c->beacon, c->beacon_chain);
	if (!round || !end || *end || r < 1)
		return error_set(ERROR_INPUT, "turn %d: beacon round '%s' is not a round number",
			turn, round ? round : "");
	if (prefetched(c, r, signature))
		return 0;
	/* one helper process for the run: verify's threads ask it one at a time */
	(void)pthread_mutex_lock(&helper_lock);
	int rc = helper_for(c);
	if (rc < 0)
		error_prefix("turn %d: beacon round %lld", turn, r);
	else if ((rc = bls_verify(helper.v, r, signature)) < 0) {
		if (error_last()->klass != ERROR_INPUT)
			helper_end(); /* a helper that failed is not asked again */
		error_prefix("turn %d", turn);
	}
	(void)pthread_mutex_unlock(&helper_lock);
	return rc < 0 ? -1 : 0;
}

static int is_http(const char *s)
{
	return strncmp(s, "http://", 7) == 0 || strncmp(s, "https://", 8) == 0;
}

char *beacon_round_url(const char *template, long long round)
{
	const char *at = strstr(template, "ROUND");
	size_t len = strlen(template);

	if (!is_http(template))
		return NULL;
	if (at)
		return xasprintf("%.*s%lld%s", (int)(at - template), template, round, at + 5);
	while (len > 0 && template[len - 1] == '/')
		len--;
	return xasprintf("%.*s/public/%lld", (int)len, template, round);
}

char *beacon_source_url(const char *source)
{
	const char *p = source ? strstr(source, "http") : NULL;
	while (p && !is_http(p))
		p = strstr(p + 4, "http");
	if (!p)
		return NULL;
	return xasprintf("%.*s", (int)strcspn(p, " )\t\n"), p);
}

/* A string member of o made of lower-case hex digits (n of them; 0: any even number up to
 * FAIR_SIGNATURE_HEX_MAX). A new string, or NULL. */
static char *hex_member(json_t *o, const char *key, size_t n)
{
	const char *s = json_string_value(json_object_get(o, key));
	size_t len = s ? strlen(s) : 0;

	if (!s || strspn(s, "0123456789abcdef") != len || len == 0)
		return NULL;
	if (n ? len != n : len % 2 || len > FAIR_SIGNATURE_HEX_MAX)
		return NULL;
	return xstrdup(s);
}

/* The answer's JSON into out, checked. 0 / -1 (ERROR_INPUT). */
static int parse_round(const char *url, const struct buf *body, long long round,
	struct beacon_round *out)
{
	json_error_t jerr;
	json_t *o = json_loadb(body->data ? body->data : "", body->len, JSON_REJECT_DUPLICATES,
		&jerr);
	json_t *r = o ? json_object_get(o, "round") : NULL;
	int rc = -1;

	if (!json_is_object(o))
		error_set(ERROR_INPUT, "%s: not a JSON object (%s)", url,
			o ? "another JSON value" : jerr.text);
	else if (!json_is_integer(r) || json_integer_value(r) != round)
		error_set(ERROR_INPUT, "%s: the answer is not round %lld's (round %s)", url, round,
			json_is_integer(r) ? "another" : "missing");
	else if (!(out->randomness = hex_member(o, "randomness", 64)))
		error_set(ERROR_INPUT, "%s: no randomness of 64 hex digits", url);
	else if (!(out->signature = hex_member(o, "signature", 0)))
		error_set(ERROR_INPUT, "%s: no signature in hex", url);
	else if (fair_beacon_signature_check(out->randomness, out->signature) < 0)
		error_prefix("%s", url);
	else
		rc = 0;
	out->round = round;
	json_decref(o);
	return rc;
}

int beacon_fetch(const char *template, long long round, struct beacon_round *out)
{
	struct buf body = BUF_INIT;
	long status;
	char *url = beacon_round_url(template, round);
	int rc;

	memset(out, 0, sizeof(*out));
	if (!url)
		return error_set(ERROR_INPUT, "beacon URL '%s' (http:// or https:// expected)",
			template);
	rc = http_get(url, BEACON_ANSWER_MAX, BEACON_TIMEOUT, &body, &status);
	if (rc < 0 && status == 404)
		rc = ERROR_NOTFOUND;
	else if (rc == 0)
		rc = parse_round(url, &body, round, out);
	if (rc != 0)
		beacon_round_release(out);
	free(url);
	buf_release(&body);
	return rc;
}

void beacon_round_release(struct beacon_round *r)
{
	free(r->randomness);
	free(r->signature);
	memset(r, 0, sizeof(*r));
}
