/* tstamp.c — RFC 3161 time stamps through OpenSSL's TS API (tstamp.h): the request, the
 * answer checked sound (its own signer's certificate as the only anchor) and then trusted
 * (the verifier's roots), as of the token's genTime. No ASN.1 by hand: OpenSSL parses and
 * checks, this file maps its results to core's error convention. */
#include <openssl/asn1.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/ts.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/tstamp.h"
#include "core/error.h"
#include "core/fair.h"
#include "core/net.h"
#include "core/banned.h"

struct tstamp_trust {
	X509_STORE *store; /* the roots and the named certificates */
};

/* OpenSSL's last error, its reason and data, into out (one line); the queue is cleared. */
static void ssl_reason(char *out, size_t size)
{
	const char *data = NULL;
	int flags = 0;
	unsigned long e, last = 0;
	const char *last_data = NULL;

	while ((e = ERR_get_error_all(NULL, NULL, NULL, &data, &flags)) != 0) {
		last = e;
		last_data = (flags & ERR_TXT_STRING) && data && *data ? data : NULL;
	}
	const char *r = last ? ERR_reason_error_string(last) : NULL;
	snprintf(out, size, "%s%s%s", r ? r : "no reason given", last_data ? ": " : "",
		last_data ? last_data : "");
}

int tstamp_request(const uint8_t digest[32], uint8_t nonce[TSTAMP_NONCE_BYTES], struct buf *out)
{
	TS_REQ *req = TS_REQ_new();
	TS_MSG_IMPRINT *mi = TS_MSG_IMPRINT_new();
	X509_ALGOR *algo = X509_ALGOR_new();
	BIGNUM *bn = NULL;
	ASN1_INTEGER *n = NULL;
	unsigned char *der = NULL;
	int len = -1, rc = -1;

	fair_random(nonce, TSTAMP_NONCE_BYTES);
	bn = BN_bin2bn(nonce, TSTAMP_NONCE_BYTES, NULL);
	n = bn ? BN_to_ASN1_INTEGER(bn, NULL) : NULL;
	if (req && mi && algo && n &&
		X509_ALGOR_set0(algo, OBJ_nid2obj(NID_sha256), V_ASN1_NULL, NULL) &&
		TS_MSG_IMPRINT_set_algo(mi, algo) &&
		TS_MSG_IMPRINT_set_msg(mi, (unsigned char *)digest, 32) &&
		TS_REQ_set_version(req, 1) && TS_REQ_set_msg_imprint(req, mi) &&
		TS_REQ_set_nonce(req, n) && TS_REQ_set_cert_req(req, 1))
		len = i2d_TS_REQ(req, &der);
	if (len > 0) {
		buf_append(out, der, (size_t)len);
		rc = 0;
	} else {
		char why[200];
		ssl_reason(why, sizeof why);
		error_set(ERROR_INTERNAL, "internal error: cannot make a time-stamp request: %s",
			why);
	}
	OPENSSL_free(der);
	ASN1_INTEGER_free(n);
	BN_free(bn);
	X509_ALGOR_free(algo);
	TS_MSG_IMPRINT_free(mi);
	TS_REQ_free(req);
	return rc;
}

int tstamp_trust_new(struct tstamp_trust **out, const char *system, const char *const *extra,
	size_t n)
{
	struct tstamp_trust *t = xcalloc(1, sizeof(*t));
	struct stat st;

	*out = NULL;
	t->store = X509_STORE_new();
	if (!t->store) {
		free(t);
		return error_set(ERROR_INTERNAL, "internal error: cannot make a certificate store");
	}
	if (!system)
		system = TSTAMP_SYSTEM_CAS;
	/* No bundle (a machine without ca-certificates): nothing is built in, and a verifier
	 * trusts only what the player names. */
	if (*system && stat(system, &st) == 0 && S_ISREG(st.st_mode) &&
		!X509_STORE_load_file(t->store, system))
		ERR_clear_error();
	for (size_t i = 0; i < n; i++) {
		FILE *f = fopen(extra[i], "r");
		X509 *x;
		size_t got = 0;
		if (!f) {
			tstamp_trust_free(t);
			return error_set(ERROR_INPUT, "--trust-tsa %s: cannot read it", extra[i]);
		}
		while ((x = PEM_read_X509(f, NULL, NULL, NULL)) != NULL) {
			X509_STORE_add_cert(t->store, x);
			X509_free(x);
			got++;
		}
		fclose(f);
		ERR_clear_error();
		if (!got) {
			tstamp_trust_free(t);
			return error_set(ERROR_INPUT,
				"--trust-tsa %s: no PEM certificate in it (-----BEGIN CERTIFICATE----- expected)",
				extra[i]);
		}
	}
	*out = t;
	return 0;
}

void tstamp_trust_free(struct tstamp_trust *t)
{
	if (!t)
		return;
	X509_STORE_free(t->store);
	free(t);
}

/* genTime as UTC seconds since 1970 (fractions dropped): 0 / -1. */
static int gen_seconds(const ASN1_GENERALIZEDTIME *gt, long long *out)
{
	ASN1_TIME *epoch = ASN1_TIME_set(NULL, 0);
	int day = 0, sec = 0;
	int ok = epoch && gt && ASN1_TIME_diff(&day, &sec, epoch, gt);

	ASN1_TIME_free(epoch);
	if (!ok)
		return -1;
	*out = (long long)day * 86400 + sec;
	return 0;
}

/* Verifies token r as the time stamp of digest under store (taken: freed here), as of
 * genTime, with TS_RESP_verify_response. 1 verified, 0 not (why says OpenSSL's reason). */
static int verify_under(TS_RESP *r, X509_STORE *store, const uint8_t digest[32], long long gen,
	char *why, size_t size)
{
	TS_VERIFY_CTX *ctx = TS_VERIFY_CTX_new();
	unsigned char *imprint = OPENSSL_memdup(digest, 32);
	int ok = 0;

	if (!ctx || !imprint) {
		X509_STORE_free(store);
		OPENSSL_free(imprint);
		TS_VERIFY_CTX_free(ctx);
		snprintf(why, size, "out of memory");
		return 0;
	}
	X509_VERIFY_PARAM *pm = X509_STORE_get0_param(store);
	/* A certificate the player names may be the authority's own: it ends the chain. And
	 * the chain is judged when the token was made: an authority's certificate expires
	 * long before a campaign's history stops mattering. */
	X509_VERIFY_PARAM_set_flags(pm, X509_V_FLAG_PARTIAL_CHAIN);
	X509_VERIFY_PARAM_set_time(pm, (time_t)gen);
	TS_VERIFY_CTX_set_flags(ctx, TS_VFY_VERSION | TS_VFY_SIGNATURE | TS_VFY_IMPRINT);
	TS_VERIFY_CTX_set_imprint(ctx, imprint, 32);
	TS_VERIFY_CTX_set_store(ctx, store);
	ERR_clear_error();
	ok = TS_RESP_verify_response(ctx, r) == 1;
	if (!ok)
		ssl_reason(why, size);
	TS_VERIFY_CTX_free(ctx); /* frees the store and the imprint */
	return ok;
}

/* The parts of r a verifier reads before any signature: granted, a token, its SHA-256
 * imprint equal to digest, the nonce, genTime. 0, or -1 with the message set. */
static int read_token(TS_RESP *r, const uint8_t digest[32], const uint8_t *nonce, long long *gen)
{
	TS_STATUS_INFO *si = TS_RESP_get_status_info(r);
	long status = si ? ASN1_INTEGER_get(TS_STATUS_INFO_get0_status(si)) : -1;
	TS_TST_INFO *tst = TS_RESP_get_tst_info(r);
	char got[65], want[65];

	if ((status != TS_STATUS_GRANTED && status != TS_STATUS_GRANTED_WITH_MODS) || !tst ||
		!TS_RESP_get_token(r))
		return error_set(ERROR_INPUT, "not a granted RFC 3161 time-stamp response");
	TS_MSG_IMPRINT *mi = TS_TST_INFO_get_msg_imprint(tst);
	const ASN1_OBJECT *obj = NULL;
	X509_ALGOR_get0(&obj, NULL, NULL, TS_MSG_IMPRINT_get_algo(mi));
	ASN1_OCTET_STRING *m = TS_MSG_IMPRINT_get_msg(mi);
	hex_encode(want, digest, 32);
	if (OBJ_obj2nid(obj) != NID_sha256 || ASN1_STRING_length(m) != 32)
		return error_set(ERROR_INPUT,
			"a time stamp of another kind of imprint than SHA-256, not of the close file (SHA-256 %s)",
			want);
	hex_encode(got, ASN1_STRING_get0_data(m), 32);
	if (memcmp(ASN1_STRING_get0_data(m), digest, 32) != 0)
		return error_set(ERROR_INPUT,
			"a time stamp of other bytes (imprint %s), not of the close file (SHA-256 %s)",
			got, want);
	if (nonce) {
		const ASN1_INTEGER *tn = TS_TST_INFO_get_nonce(tst);
		BIGNUM *bn = BN_bin2bn(nonce, TSTAMP_NONCE_BYTES, NULL);
		BIGNUM *tb = tn ? ASN1_INTEGER_to_BN(tn, NULL) : NULL;
		int same = bn && tb && BN_cmp(bn, tb) == 0;
		BN_free(bn);
		BN_free(tb);
		if (!same)
			return error_set(ERROR_INPUT,
				"the answer is not to this request (its nonce)");
	}
	if (gen_seconds(TS_TST_INFO_get_time(tst), gen) < 0)
		return error_set(ERROR_INPUT, "its genTime cannot be read");
	return 0;
}

/* The store whose only anchor is the certificate that signed r (from the token's own
 * certificates): verifying under it proves the token sound, whoever the signer is. NULL
 * when the token names no signer it carries. */
static X509_STORE *signer_store(TS_RESP *r)
{
	PKCS7 *token = TS_RESP_get_token(r);
	STACK_OF(X509) *signers = NULL;
	X509_STORE *store = NULL;

	if (!token || !PKCS7_type_is_signed(token))
		return NULL;
	signers = PKCS7_get0_signers(token, NULL, 0);
	if (signers && sk_X509_num(signers) == 1 && (store = X509_STORE_new()) != NULL &&
		!X509_STORE_add_cert(store, sk_X509_value(signers, 0))) {
		X509_STORE_free(store);
		store = NULL;
	}
	sk_X509_free(signers);
	ERR_clear_error();
	return store;
}

int tstamp_verify(const struct tstamp_trust *trust, const void *resp, size_t len,
	const uint8_t digest[32], const uint8_t *nonce, long long *gen_time, struct buf *why)
{
	const unsigned char *p = resp;
	TS_RESP *r = len <= TSTAMP_MAX_BYTES ? d2i_TS_RESP(NULL, &p, (long)len) : NULL;
	char reason[300];
	int rc = -1;

	if (!r || p != (const unsigned char *)resp + len) {
		error_set(ERROR_INPUT, "not a granted RFC 3161 time-stamp response");
		goto done;
	}
	if (read_token(r, digest, nonce, gen_time) < 0)
		goto done;
	X509_STORE *own = signer_store(r);
	if (!own || !verify_under(r, own, digest, *gen_time, reason, sizeof reason)) {
		error_set(ERROR_INPUT,
			"its signature does not verify under the certificate it carries: the token was altered");
		goto done;
	}
	rc = TSTAMP_UNTRUSTED;
	if (trust && X509_STORE_up_ref(trust->store) &&
		verify_under(r, trust->store, digest, *gen_time, reason, sizeof reason))
		rc = TSTAMP_TRUSTED;
	else if (why)
		buf_puts(why, trust ? reason : "no authority is trusted");
done:
	TS_RESP_free(r);
	ERR_clear_error();
	return rc;
}

int tstamp_fetch(const struct tstamp_authority *a, const void *bytes, size_t len,
	long long closed_at, long long until, long timeout, struct buf *out)
{
	uint8_t digest[32], nonce[TSTAMP_NONCE_BYTES];
	struct buf req = BUF_INIT;
	long status = 0;
	long long gen = 0;
	int rc = -1;

	buf_clear(out);
	fair_sha256(digest, bytes, len);
	if (tstamp_request(digest, nonce, &req) < 0)
		goto done;
	if (http_post(a->url, TSTAMP_QUERY_TYPE, req.data, req.len, TSTAMP_REPLY_TYPE,
		    TSTAMP_MAX_BYTES, timeout, out, &status) < 0)
		goto done;
	if (tstamp_verify(NULL, out->data, out->len, digest, nonce, &gen, NULL) < 0) {
		error_set(ERROR_OS, "its answer from %s is refused: %s", a->url,
			error_last()->message);
		goto done;
	}
	/* A verifier fails a token outside this window (docs/fairness.md, "Time stamps"): one
	 * whose clock disagrees with ours is not committed. */
	if (gen < closed_at || gen >= until) {
		error_set(ERROR_OS,
			"its genTime %lld is %s (the close is at %lld, a witness must come before %lld): the clocks disagree",
			gen, gen < closed_at ? "before the close" : "too late", closed_at, until);
		goto done;
	}
	rc = 0;
done:
	if (rc < 0)
		buf_clear(out);
	buf_release(&req);
	return rc;
}
