/* check_tstamp.c — RFC 3161 time stamps (tstamp.h; docs/fairness.md, "Time stamps") on tokens
 * the test makes: a real authority from `openssl ts` on a test CA (tests/tsa/make-tsa.sh, run
 * from the source tree's root as `make unit` does), its answers checked sound and trusted
 * only under the test CA or the authority's own certificate; another close's, a cut and an
 * altered token refused; umpire's own request answered by that authority, its nonce checked. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "core/buf.h"
#include "core/error.h"
#include "core/fair.h"
#include "core/file.h"
#include "core/tstamp.h"

static const char *root;

/* Skips every test without the openssl command (the authority is made with it). */
static int have_openssl;

static void setup_tsa(void)
{
	struct buf out = BUF_INIT;

	root = test_root_make("tstamp");
	have_openssl = test_run(&out, "command -v openssl") == 0;
	if (have_openssl && test_run(&out, "sh tests/tsa/make-tsa.sh '%s/tsa'", root) != 0) {
		fprintf(stderr, "make-tsa.sh failed: %s\n", buf_str(&out));
		abort();
	}
	buf_release(&out);
}

static void teardown_tsa(void)
{
	test_root_remove();
}

/* The authority's answer for the bytes of text (its own query: SHA-256, certReq) into tsr,
 * and the bytes' SHA-256 into digest. */
static void make_token(const char *name, const char *text, struct buf *tsr, uint8_t digest[32])
{
	struct buf out = BUF_INIT;
	char *data = xasprintf("%s/%s.data", root, name);
	FILE *f = fopen(data, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	fair_sha256(digest, text, strlen(text));
	ck_assert_int_eq(
		test_run(&out,
			"exec 2>&1; cd '%s' && openssl ts -query -data '%s' -sha256 -cert -out %s.tsq && "
			"openssl ts -reply -queryfile %s.tsq -config tsa/tsa.cnf -out %s.tsr",
			root, data, name, name, name),
		0);
	char *path = xasprintf("%s/%s.tsr", root, name);
	buf_clear(tsr);
	ck_assert_int_eq(file_read(path, TSTAMP_MAX_BYTES, tsr), 0);
	free(path);
	free(data);
	buf_release(&out);
}

/* The trust of the PEM file name under the root (NULL: the system's roots alone). */
static struct tstamp_trust *trust_of(const char *name)
{
	struct tstamp_trust *t = NULL;
	char *path = name ? xasprintf("%s/tsa/%s", root, name) : NULL;
	const char *extra[1] = { path };

	ck_assert_int_eq(tstamp_trust_new(&t, NULL, extra, path ? 1 : 0), 0);
	free(path);
	return t;
}

START_TEST(trusted_only_under_the_test_ca)
{
	struct buf tsr = BUF_INIT, why = BUF_INIT;
	uint8_t digest[32];
	long long gen = 0;

	if (!have_openssl)
		return;
	make_token("close1", "turn: 1\n", &tsr, digest);
	struct tstamp_trust *ca = trust_of("testca.pem"), *own = trust_of("tsa.pem");
	struct tstamp_trust *sys = trust_of(NULL), *other = trust_of("otherca.pem");
	ck_assert_int_eq(tstamp_verify(ca, tsr.data, tsr.len, digest, NULL, &gen, &why),
		TSTAMP_TRUSTED);
	ck_assert(gen > 1700000000LL); /* genTime: the authority's clock, now */
	ck_assert_int_eq(tstamp_verify(own, tsr.data, tsr.len, digest, NULL, &gen, &why),
		TSTAMP_TRUSTED);
	/* Sound, but the test CA is no root of ca-certificates, nor the other CA. */
	gen = 0;
	ck_assert_int_eq(tstamp_verify(sys, tsr.data, tsr.len, digest, NULL, &gen, &why),
		TSTAMP_UNTRUSTED);
	ck_assert(gen > 1700000000LL);
	ck_assert(why.len > 0);
	ck_assert_int_eq(tstamp_verify(other, tsr.data, tsr.len, digest, NULL, &gen, NULL),
		TSTAMP_UNTRUSTED);
	ck_assert_int_eq(tstamp_verify(NULL, tsr.data, tsr.len, digest, NULL, &gen, NULL),
		TSTAMP_UNTRUSTED);
	tstamp_trust_free(ca);
	tstamp_trust_free(own);
	tstamp_trust_free(sys);
	tstamp_trust_free(other);
	buf_release(&tsr);
	buf_release(&why);
}
END_TEST

START_TEST(another_close_cut_or_altered_fails)
{
	struct buf t1 = BUF_INIT, t2 = BUF_INIT;
	uint8_t d1[32], d2[32];
	long long gen;

	if (!have_openssl)
		return;
	make_token("a", "turn: 1\n", &t1, d1);
	make_token("b", "turn: 2\n", &t2, d2);
	struct tstamp_trust *ca = trust_of("testca.pem");
	/* turn 1's token offered for turn 2's close file */
	ck_assert_int_eq(tstamp_verify(ca, t1.data, t1.len, d2, NULL, &gen, NULL), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "a time stamp of other bytes"));
	ck_assert_int_eq(error_last()->klass, ERROR_INPUT);
	/* cut short, and not DER at all */
	ck_assert_int_eq(tstamp_verify(ca, t1.data, t1.len - 1, d1, NULL, &gen, NULL), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "not a granted"));
	ck_assert_int_eq(tstamp_verify(ca, "hello", 5, d1, NULL, &gen, NULL), -1);
	/* a byte of the signature (the token's last bytes) flipped: unsound even untrusted */
	t1.data[t1.len - 5] ^= 1;
	ck_assert_int_eq(tstamp_verify(ca, t1.data, t1.len, d1, NULL, &gen, NULL), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "the token was altered"));
	ck_assert_int_eq(tstamp_verify(NULL, t1.data, t1.len, d1, NULL, &gen, NULL), -1);
	t1.data[t1.len - 5] ^= 1;
	ck_assert_int_eq(tstamp_verify(ca, t1.data, t1.len, d1, NULL, &gen, NULL), TSTAMP_TRUSTED);
	tstamp_trust_free(ca);
	buf_release(&t1);
	buf_release(&t2);
}
END_TEST

START_TEST(our_request_and_its_nonce)
{
	struct buf req = BUF_INIT, out = BUF_INIT, tsr = BUF_INIT;
	uint8_t digest[32], nonce[TSTAMP_NONCE_BYTES], other[TSTAMP_NONCE_BYTES];
	long long gen;

	if (!have_openssl)
		return;
	fair_sha256(digest, "close", 5);
	ck_assert_int_eq(tstamp_request(digest, nonce, &req), 0);
	char *q = xasprintf("%s/ours.tsq", root);
	FILE *f = fopen(q, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(req.data, 1, req.len, f), req.len);
	fclose(f);
	/* openssl reads it as umpire means it: SHA-256, a nonce, the certificate asked for */
	ck_assert_int_eq(test_run(&out, "openssl ts -query -in '%s' -text", q), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "Hash Algorithm: sha256"));
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "Certificate required: yes"));
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "Nonce: 0x"));
	ck_assert_int_eq(
		test_run(&out,
			"exec 2>&1; cd '%s' && openssl ts -reply -queryfile ours.tsq -config tsa/tsa.cnf -out ours.tsr",
			root),
		0);
	char *r = xasprintf("%s/ours.tsr", root);
	ck_assert_int_eq(file_read(r, TSTAMP_MAX_BYTES, &tsr), 0);
	struct tstamp_trust *ca = trust_of("testca.pem");
	ck_assert_int_eq(tstamp_verify(ca, tsr.data, tsr.len, digest, nonce, &gen, NULL),
		TSTAMP_TRUSTED);
	/* an answer to another request (a replayed one) */
	memcpy(other, nonce, sizeof other);
	other[0] ^= 0x40;
	ck_assert_int_eq(tstamp_verify(ca, tsr.data, tsr.len, digest, other, &gen, NULL), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "nonce"));
	tstamp_trust_free(ca);
	free(q);
	free(r);
	buf_release(&req);
	buf_release(&out);
	buf_release(&tsr);
}
END_TEST

START_TEST(trust_file_without_a_certificate)
{
	struct tstamp_trust *t = NULL;
	char *path = xasprintf("%s/junk.pem", root);
	const char *extra[1] = { path };
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs("not a certificate\n", f);
	fclose(f);
	ck_assert_int_eq(tstamp_trust_new(&t, "", extra, 1), -1);
	ck_assert_ptr_null(t);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "no PEM certificate"));
	/* no bundle at all: nothing built in, still a trust */
	ck_assert_int_eq(tstamp_trust_new(&t, "/nonexistent/bundle.crt", NULL, 0), 0);
	tstamp_trust_free(t);
	free(path);
}
END_TEST

static Suite *tstamp_suite(void)
{
	Suite *s = suite_create("tstamp");
	TCase *tc = tcase_create("tokens");
	tcase_add_unchecked_fixture(tc, setup_tsa, teardown_tsa);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, trusted_only_under_the_test_ca);
	tcase_add_test(tc, another_close_cut_or_altered_fails);
	tcase_add_test(tc, our_request_and_its_nonce);
	tcase_add_test(tc, trust_file_without_a_certificate);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(tstamp_suite)
