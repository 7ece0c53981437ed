/* fair.h — the fairness derivation of docs/fairness.md: the hash chain of turn keys from
 * the umpire's secret, the orders digest, the turn seed and the die function. Pure
 * functions of their inputs; OpenSSL does all hashing, libsodium the random bytes (no
 * hand-written crypto).
 * Notation: HMAC = HMAC-SHA256, || concatenation, be32/be64 big-endian. */
#ifndef UMPIRE_FAIR_H
#define UMPIRE_FAIR_H

#include <stddef.h>
#include <stdint.h>

#define FAIR_HASH_BYTES 32
#define FAIR_DEFAULT_CHAIN_LENGTH 4096u

/* Initialises libsodium (random bytes); call once before anything below. Returns 0 or -1. */
int fair_init(void);

/* SHA256(data). Every hash here aborts with a message if OpenSSL fails (out of memory): no
 * hash may come out wrong. */
void fair_sha256(uint8_t out[32], const void *data, size_t len);
/* SHA256(a || b), without copying them together. */
void fair_sha256_concat(uint8_t out[32], const void *a, size_t alen, const void *b, size_t blen);
/* HMAC-SHA256 keyed by key (32 bytes) over data. */
void fair_hmac(uint8_t out[32], const uint8_t key[32], const void *data, size_t len);
/* Fills out with n bytes from the OS CSPRNG. */
void fair_random(uint8_t *out, size_t n);

/* The turn key k_t = c_t of the chain of length L from secret S:
 * c_L = HMAC(S, "umpire/chain/v1"), c_(i-1) = SHA256(c_i). t in 0..L (k_0 = commitment).
 * Returns 0, or -1 when t > L (out is then all zeros). */
int fair_turn_key(uint8_t out[32], const uint8_t secret[32], uint32_t chain_length, uint32_t t);
/* The commitment C = c_0. */
void fair_commitment(uint8_t out[32], const uint8_t secret[32], uint32_t chain_length);
/* 1 if SHA256 applied t times to key equals commitment, else 0. */
int fair_key_check(const uint8_t key[32], uint32_t t, const uint8_t commitment[32]);

/* One player's entry in the orders digest. */
struct fair_order {
	const char *player; /* player id (ASCII) */
	int has_file;       /* 0: 32 zero bytes stand for the file hash */
	uint8_t sha256[32]; /* SHA256 of the raw bytes of the order file */
};
/* D_t = SHA256(concat over entries sorted by player id in ascending byte order of
 * id || 0x00 || file hash). The caller passes every campaign player plus "umpire";
 * entries need not be sorted (sorted internally on a copy). */
void fair_orders_digest(uint8_t out[32], const struct fair_order *orders, size_t n);
/* s_t = HMAC(k_t, "umpire/turn/v1" || be32(t) || D_t || B_t). */
void fair_turn_seed(uint8_t out[32], const uint8_t key[32], uint32_t t, const uint8_t digest[32],
	const uint8_t beacon[32]);
/* Die j with n faces (2 <= n): for a = 0,1,...: x = be64(first 8 bytes of
 * HMAC(s, "umpire/die/v1" || be64(j) || be32(a))); the first x < 2^64 - (2^64 mod n)
 * gives 1 + (x mod n). *attempts (may be NULL) receives the number of blocks used (>= 1). */
uint64_t fair_die(const uint8_t seed[32], uint64_t j, uint64_t n, uint32_t *attempts);

/* Sealed turns (docs/fairness.md, "Sealed turns"): the salt of player's order file of turn
 * t, salt = HMAC(S, "umpire/salt/v1" || be32(t) || player). */
void fair_salt(uint8_t out[32], const uint8_t secret[32], uint32_t t, const char *player);
/* Sealed turns: the salt of an item of player's private view of turn t (item "report": his
 * report, "state": his view of the state), salt = HMAC(S, "umpire/view-salt/v1" || be32(t) ||
 * player || 0x00 || item). Its commitment is fair_sealed_hash, as for an order file. */
void fair_view_salt(uint8_t out[32], const uint8_t secret[32], uint32_t t, const char *player,
	const char *item);
/* The salted commitment to an order file, SHA256("umpire/sealed/v1" || salt || bytes): what a
 * sealed campaign publishes and D_t takes in place of SHA256(bytes). */
void fair_sealed_hash(uint8_t out[32], const uint8_t salt[32], const void *data, size_t len);

/* drand's rule for a round (docs/fairness.md, "The beacon's signature"): its randomness is
 * the SHA-256 of its signature. value is the round's randomness and signature the round's
 * signature, both hex; the signature must be lower-case hex of even length, at most
 * FAIR_SIGNATURE_HEX_MAX digits. Only hashing: checking the BLS signature itself against the
 * chain's public key is drand's own tools' work. Returns 0 when SHA256(signature bytes) is
 * value, -1 (class ERROR_INPUT, both shown) otherwise. */
#define FAIR_SIGNATURE_HEX_MAX 1024
int fair_beacon_signature_check(const char *value, const char *signature);

/* Wipes n bytes at p (a secret, a key not yet revealed) in a way the compiler cannot drop. */
void fair_wipe(void *p, size_t n);
/* Keeps n bytes at p (the umpire's secret) out of swap, best effort; fair_secret_unlock wipes
 * them and releases the lock. */
void fair_secret_lock(void *p, size_t n);
void fair_secret_unlock(void *p, size_t n);

/* The HMAC key state of one seed s, set up once (the key's inner and outer pad blocks hashed),
 * so each die of the turn costs two SHA-256 blocks instead of four. Opaque: an OpenSSL
 * EVP_MAC_CTX (HMAC with SHA-256), which only fair.c sees. One key is used by one thread at a
 * time (each die restarts the context). */
struct fair_die_key {
	struct evp_mac_ctx_st *ctx;
};
/* Sets k up for seed s; fair_die_key_release frees it. OpenSSL failing (out of memory) aborts
 * with a message: no die may come from a half-made key. */
void fair_die_key_init(struct fair_die_key *k, const uint8_t seed[32]);
/* Frees what fair_die_key_init allocated; k may be released twice or be all zeros. */
void fair_die_key_release(struct fair_die_key *k);
/* fair_die(s, j, n, attempts) for the seed k was set up with: the same value, bit for bit. */
uint64_t fair_die_keyed(const struct fair_die_key *k, uint64_t j, uint64_t n, uint32_t *attempts);

#endif
