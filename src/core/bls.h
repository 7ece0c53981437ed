/* bls.h — the BLS check of a beacon round's signature (docs/fairness.md, "The beacon's
 * signature") through umpire-bls, a small program built from src/bls/ on Cloudflare's CIRCL:
 * the pairing library is Go, so umpire spawns it (posix_spawn, no shell) rather than link it,
 * and hand-writes no cryptography. One helper process serves every round a command checks.
 *
 * Where the helper is (bls_helper_path): $UMPIRE_BLS when set; else next to the running
 * umpire (the build tree: build/VARIANT/umpire-bls), one folder up (a unit test in
 * build/VARIANT/tests/), or ../libexec/umpire/ from it (make install). */
#ifndef UMPIRE_BLS_H
#define UMPIRE_BLS_H

#define BLS_SIGNATURE_HEX 96   /* a compressed G1 point: 48 bytes */
#define BLS_PUBLIC_KEY_HEX 192 /* a compressed G2 point: 96 bytes */
#define BLS_TIMEOUT 60         /* seconds the helper may take for one answer */
/* The identity point of G1, compressed: never a valid signature. */
#define BLS_IDENTITY_SIGNATURE \
	"c00000000000000000000000000000000000000000000000" \
	"000000000000000000000000000000000000000000000000"

/* A running helper checking rounds under one public key. */
struct bls_verifier;

/* The helper's path: a new string, or NULL with ERROR_MISSING set, the message naming every
 * place looked at and how to get it (make; make install). */
char *bls_helper_path(void);

/* Starts the helper for public_key (192 lower-case hex digits: the chain's key, a point of
 * G2) into *out (bls_verifier_free). 0; -1 with ERROR_MISSING (no helper) or ERROR_OS. */
int bls_verifier_open(struct bls_verifier **out, const char *public_key);

/* Whether signature (hex) is round's signature under the key: drand's
 * bls-unchained-g1-rfc9380 check, e(sig, G2) = e(H(SHA-256(be64(round))), pk). 0 when it is;
 * -1 with ERROR_INPUT and the helper's reason ("the signature fails the pairing check for
 * round R ...", "... is the identity point", "... not a point of G1", a wrong length) when
 * not; -1 with ERROR_OS when the helper fails (the key refused, the process gone). */
int bls_verify(struct bls_verifier *v, long long round, const char *signature);

/* Checks n rounds at once: signatures[i] (hex) as rounds[i]'s, by one random linear
 * combination of their pairing equations (two pairings for the lot; the helper checks each
 * alone when the batch fails). ok[i] is set to 1 for each good one, 0 for each other (ask
 * bls_verify for the reason). 0; -1 with ERROR_OS when the helper fails (ok then all 0). */
int bls_verify_batch(struct bls_verifier *v, size_t n, const long long *rounds,
	const char *const *signatures, unsigned char *ok);

/* Ends the helper and frees v (NULL is fine). */
void bls_verifier_free(struct bls_verifier *v);

/* bls_verify for one round under public_key, with a helper started for it. */
int bls_verify_round(const char *public_key, long long round, const char *signature);

#endif
