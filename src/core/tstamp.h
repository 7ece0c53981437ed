/* tstamp.h — RFC 3161 time stamps of a close (docs/fairness.md, "Time stamps"): a witness of
 * the close that needs no mail. At each close umpire asks the time-stamp authorities
 * campaign.yaml names (fairness.timestamps) to sign the SHA-256 of the close file's bytes and
 * commits each answer beside it (journal/turn-NNNN.close.NAME.tsr); a verifier checks every
 * answer offline against the certificates it trusts. tstamp.c is the only file that includes
 * <openssl/ts.h>: OpenSSL's TS API builds the request and checks the answer (no ASN.1 by
 * hand); net.c's http_post carries it. */
#ifndef UMPIRE_TSTAMP_H
#define UMPIRE_TSTAMP_H

#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"

#define TSTAMP_MAX_BYTES (64 * 1024) /* a time-stamp response: a signature and a short chain */
#define TSTAMP_NONCE_BYTES 8         /* the request's nonce */
#define TSTAMP_TIMEOUT 10            /* seconds an authority has to answer at a close */
/* Debian's bundle of the roots that ca-certificates trusts: the built-in authorities are
 * those whose certificate chains to one of them (DigiCert's, Sectigo's, ...). */
#define TSTAMP_SYSTEM_CAS "/etc/ssl/certs/ca-certificates.crt"
/* The content type of a request and of its answer (RFC 3161, section 3.4). */
#define TSTAMP_QUERY_TYPE "application/timestamp-query"
#define TSTAMP_REPLY_TYPE "application/timestamp-reply"

/* A DER TimeStampReq (RFC 3161 2.4.1) for the SHA-256 digest: version 1, the imprint, a fresh
 * random nonce (TSTAMP_NONCE_BYTES, into nonce, to check the answer with), certReq true (the
 * answer carries the authority's certificate, so it verifies offline). Appends to out.
 * Returns 0 / -1 (ERROR_INTERNAL: OpenSSL failed). */
int tstamp_request(const uint8_t digest[32], uint8_t nonce[TSTAMP_NONCE_BYTES], struct buf *out);

/* Which certificates a verifier trusts to sign time stamps (tstamp_trust_new). */
struct tstamp_trust;

/* The roots of the PEM bundle at system (NULL: TSTAMP_SYSTEM_CAS; "" none; a bundle that
 * does not exist counts as empty), plus every certificate of the PEM files extra[0..n) (a
 * player's --trust-tsa: an authority's root, or its own certificate). A token is trusted
 * when its signer's certificate chains to one of them (a named certificate may end the chain
 * itself) and carries the timeStamping extended key usage, critical (RFC 3161 2.3).
 * *out is freed with tstamp_trust_free. Returns 0, or -1 (ERROR_INPUT: an extra file that is
 * no PEM certificate, named). */
int tstamp_trust_new(struct tstamp_trust **out, const char *system, const char *const *extra,
	size_t n);
void tstamp_trust_free(struct tstamp_trust *t);

/* What tstamp_verify found. */
enum tstamp_result {
	TSTAMP_TRUSTED = 0,   /* sound, and signed by an authority of the trust: a witness */
	TSTAMP_UNTRUSTED = 1, /* sound (signed by the certificate it carries, over these bytes)
	                       * but that certificate does not chain to the trust: no witness */
};

/* Checks resp (len bytes, a DER TimeStampResp as the authority answered) as the time stamp
 * of the bytes whose SHA-256 is digest: status granted, a SHA-256 imprint equal to digest,
 * the signature sound under the signer's certificate the token carries (its ESS
 * signing-certificate attribute included) and, with nonce (not NULL), the request's nonce.
 * Then against trust (NULL: none), checked as of the token's own genTime. *gen_time gets
 * genTime, UTC seconds (fractions dropped), whenever the token is sound.
 * Returns TSTAMP_TRUSTED or TSTAMP_UNTRUSTED (why says which chain failed, one line), or -1
 * (ERROR_INPUT) when the token is not sound: unreadable, not granted, of other bytes, or its
 * signature broken — a failure, not a missing witness. */
int tstamp_verify(const struct tstamp_trust *trust, const void *resp, size_t len,
	const uint8_t digest[32], const uint8_t *nonce, long long *gen_time, struct buf *why);

/* One authority a campaign names (fairness.timestamps). */
struct tstamp_authority {
	const char *name; /* an identifier: the token's file is journal/turn-NNNN.close.NAME.tsr */
	const char *url;  /* where requests are POSTed (http:// or https://) */
};

/* Asks authority a for a time stamp of the close file (bytes, len) made at closed_at, and
 * checks its answer (tstamp_verify, no trust: an umpire does not choose whom players trust)
 * within the window a verifier accepts: genTime at or after closed_at, before until. Waits at
 * most timeout seconds. The answer goes to out (cleared first). Returns 0, or -1 with why the
 * answer is not taken (ERROR_OS: no answer, or a broken one; the close goes on without it). */
int tstamp_fetch(const struct tstamp_authority *a, const void *bytes, size_t len,
	long long closed_at, long long until, long timeout, struct buf *out);

#endif
