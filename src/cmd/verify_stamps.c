/* verify_stamps.c — `umpire verify`'s time stamps of each close (docs/fairness.md, "Time
 * stamps"): every token committed beside a close file is sound and of that file, its genTime
 * inside the close's witness window; one signed by an authority the verifier trusts
 * witnesses the close (v->witnessed). The tokens join the files the close commit rebuilds
 * from, so a close commit holds the close file, its tokens and nothing else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/close.h"
#include "core/campaign.h"
#include "core/error.h"
#include "core/fair.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/pbem.h"
#include "core/tstamp.h"
#include "cmd/verify.h"
#include "core/banned.h"

int verify_stamps_open(struct verify *v)
{
	if (v->tsa_trust)
		return 0;
	return tstamp_trust_new(&v->tsa_trust, NULL, v->trust_tsa, v->n_trust_tsa);
}

/* The window's end in words, for a token that comes too late. */
static void window_end(char *out, size_t size, const struct close_record *r)
{
	if (r->entropy == CAMPAIGN_ENTROPY_BEACON)
		snprintf(out, size, "when beacon round %lld was out", r->round);
	else
		snprintf(out, size, "%d s after closed_at", CLOSE_PLAYERS_WITNESS_WINDOW);
}

/* One token (bytes at path) of the close r (its file's SHA-256 digest) by authority name:
 * sound and in time, else -1 (ERROR_INPUT); 1 when it witnesses the close, 0 when sound but
 * signed by no authority the verifier trusts. Says which. */
static int check_token(struct verify *v, int t, const char *name, const char *path,
	const struct buf *token, const struct close_record *r, const uint8_t digest[32])
{
	char gen_s[32], closed_s[32], until_s[32], end[80];
	long long gen = 0, until = close_witness_until(r);
	struct buf why = BUF_INIT;

	int rc = tstamp_verify(v->tsa_trust, token->data, token->len, digest, NULL, &gen, &why);
	buf_release(&why);
	if (rc < 0)
		return error_set(ERROR_INPUT, "turn %d: %s: %s", t, path, error_last()->message);
	pbem_format_utc(gen_s, sizeof gen_s, gen);
	pbem_format_utc(closed_s, sizeof closed_s, r->closed_at);
	pbem_format_utc(until_s, sizeof until_s, until);
	if (gen < r->closed_at)
		return error_set(ERROR_INPUT,
			"turn %d: %s: genTime %s is before the close's closed_at %s: the close file existed before the time it claims",
			t, path, gen_s, closed_s);
	if (gen >= until) {
		window_end(end, sizeof end, r);
		return error_set(ERROR_INPUT,
			"turn %d: %s: genTime %s is not before %s (%s): a close stamped after its randomness could be known witnesses nothing",
			t, path, gen_s, until_s, end);
	}
	/* With a schedule the witness is in the window after the deadline and grace, as a
	 * receipt's arrival must be (verify_receipts.c, docs/fairness.md "The verdict"). */
	const struct pbem_schedule *s = &v->c->pbem.schedule;
	if (r->entropy == CAMPAIGN_ENTROPY_BEACON && s->set &&
		s->missing == PBEM_MISSING_NO_ORDERS) {
		long long deadline = pbem_deadline(&v->c->pbem, t);
		if (gen > deadline + s->grace + CLOSE_WITNESS_WINDOW) {
			pbem_format_utc(until_s, sizeof until_s, deadline);
			return error_set(ERROR_INPUT,
				"turn %d: %s: genTime %s is more than %d s after its deadline %s plus grace %lld s: time enough to see the outcome of a close at the deadline and close again (a re-close)",
				t, path, gen_s, CLOSE_WITNESS_WINDOW, until_s, s->grace);
		}
	}
	if (rc == TSTAMP_UNTRUSTED) {
		say(v, "turn %d: time stamp (%s, genTime %s): no witness: its signer does not chain to an authority this verifier trusts (give its certificate with --trust-tsa CERT.pem)\n",
			t, name, gen_s);
		return 0;
	}
	say(v, "turn %d: time stamp (%s, genTime %s): witnesses the close\n", t, name, gen_s);
	return 1;
}

int check_close_stamps(struct verify *v, int t, const char *tag, const struct close_record *r,
	const struct buf *bytes, struct file **files, size_t *n_files)
{
	char path[LAYOUT_PATH_MAX];
	struct buf token = BUF_INIT;
	uint8_t digest[FAIR_HASH_BYTES];
	int rc = 0;

	fair_sha256(digest, bytes->data ? bytes->data : "", bytes->len);
	for (size_t i = 0; rc == 0 && i < v->c->n_timestamps; i++) {
		const char *name = v->c->timestamps[i].name;
		layout_close_token_path(path, t, name);
		buf_clear(&token);
		int got = repo_read(v->c->repo, tag, path, &token);
		if (got == ERROR_NOTFOUND) {
			say(v, "turn %d: no time stamp from %s (it did not answer the close)\n", t,
				name);
			continue;
		}
		if (got < 0) {
			rc = error_set(ERROR_INPUT, "turn %d: %s at %s cannot be read: %s", t, path,
				tag, error_last()->message);
			break;
		}
		file_list_add(files, n_files, path, token.data, token.len);
		if (verify_stamps_open(v) < 0) {
			rc = -1;
			break;
		}
		int w = check_token(v, t, name, path, &token, r, digest);
		if (w < 0 || same_at_main(v, t, tag, path) < 0)
			rc = -1;
		else if (w > 0 && v->witnessed && (size_t)t < v->n_witnessed)
			v->witnessed[t] = 1;
	}
	buf_release(&token);
	return rc;
}
