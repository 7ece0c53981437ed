/* beacon.c — a drand round fetched over HTTP(S) (beacon.h): libcurl's GET (net.c), jansson
 * for the JSON, fair.c for the one hash that ties the randomness to the signature. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/beacon.h"
#include "core/buf.h"
#include "core/error.h"
#include "core/fair.h"
#include "core/net.h"
#include "core/banned.h"

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
