/* fair.c — the fairness derivation of docs/fairness.md: hash chain, orders digest, turn seed
 * and die function. OpenSSL computes every SHA-256 (EVP_Digest) and HMAC-SHA256 (EVP_MAC
 * "HMAC"): it uses the CPU's SHA instructions, which libsodium's portable C does not (the
 * bytes are the same). The only file that includes <sodium.h>: libsodium gives the random
 * bytes, wiping, locking and the constant-time compare. Nothing here is hand-written
 * cryptography. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <sodium.h>

#include "core/buf.h"
#include "core/error.h"
#include "core/fair.h"
#include "core/banned.h"

static const char chain_label[] = "umpire/chain/v1";
static const char turn_label[] = "umpire/turn/v1";
static const char die_label[] = "umpire/die/v1";
static const char salt_label[] = "umpire/salt/v1";
static const char sealed_label[] = "umpire/sealed/v1";
static const char view_salt_label[] = "umpire/view-salt/v1";

int fair_init(void)
{
	/* 1 means "already initialised", which is fine */
	return sodium_init() < 0 ? -1 : 0;
}

/* An OpenSSL failure (allocation, or the default provider missing) must not yield a hash or a
 * die: either would be wrong, so the process stops with the reason. */
static void ossl_fatal(const char *what) __attribute__((noreturn));
static void ossl_fatal(const char *what)
{
	fprintf(stderr, "umpire: fair: OpenSSL SHA-256 or HMAC-SHA256 failed in %s\n", what);
	abort();
}

/* OpenSSL's HMAC implementation and SHA-256, fetched once for the process (never freed:
 * OpenSSL releases them at exit); once on any thread (verify checks turns on several). */
static EVP_MAC *fetched_mac;
static EVP_MD *fetched_md;
static pthread_once_t fetched_once = PTHREAD_ONCE_INIT;

static void fetch_algorithms(void)
{
	fetched_mac = EVP_MAC_fetch(NULL, OSSL_MAC_NAME_HMAC, NULL);
	fetched_md = EVP_MD_fetch(NULL, "SHA256", NULL);
}

static EVP_MAC *hmac_mac(void)
{
	(void)pthread_once(&fetched_once, fetch_algorithms);
	if (!fetched_mac)
		ossl_fatal("EVP_MAC_fetch");
	return fetched_mac;
}

static EVP_MD *sha256_md(void)
{
	(void)pthread_once(&fetched_once, fetch_algorithms);
	if (!fetched_md)
		ossl_fatal("EVP_MD_fetch");
	return fetched_md;
}

/* A SHA-256 fed in pieces: sha_begin, sha_add..., sha_end (which frees it). */
static EVP_MD_CTX *sha_begin(void)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	if (!ctx || EVP_DigestInit_ex2(ctx, sha256_md(), NULL) != 1)
		ossl_fatal("EVP_DigestInit_ex2");
	return ctx;
}

static void sha_add(EVP_MD_CTX *ctx, const void *data, size_t len)
{
	if (len && EVP_DigestUpdate(ctx, data, len) != 1)
		ossl_fatal("EVP_DigestUpdate");
}

static void sha_end(EVP_MD_CTX *ctx, uint8_t out[32])
{
	unsigned int n = 0;

	if (EVP_DigestFinal_ex(ctx, out, &n) != 1 || n != 32)
		ossl_fatal("EVP_DigestFinal_ex");
	EVP_MD_CTX_free(ctx);
}

void fair_sha256(uint8_t out[32], const void *data, size_t len)
{
	unsigned int n = 0;

	if (EVP_Digest(data, len, out, &n, sha256_md(), NULL) != 1 || n != 32)
		ossl_fatal("EVP_Digest");
}

void fair_sha256_concat(uint8_t out[32], const void *a, size_t alen, const void *b, size_t blen)
{
	EVP_MD_CTX *ctx = sha_begin();

	sha_add(ctx, a, alen);
	sha_add(ctx, b, blen);
	sha_end(ctx, out);
}

/* The key is 32 bytes, as the spec fixes; the context (a copy of the key inside) is freed
 * cleansed. */
static EVP_MAC_CTX *hmac_begin(const uint8_t key[32])
{
	char digest[] = "SHA256";
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
		OSSL_PARAM_construct_end(),
	};
	EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(hmac_mac());

	if (!ctx)
		ossl_fatal("EVP_MAC_CTX_new");
	if (EVP_MAC_init(ctx, key, 32, params) != 1)
		ossl_fatal("EVP_MAC_init");
	return ctx;
}

/* HMAC(ctx's key, data) into out; ctx stays keyed (EVP_MAC_init restarts it). */
static void hmac_once(EVP_MAC_CTX *ctx, const void *data, size_t len, uint8_t out[32])
{
	size_t n = 0;

	if (len && EVP_MAC_update(ctx, data, len) != 1)
		ossl_fatal("EVP_MAC_update");
	if (EVP_MAC_final(ctx, out, &n, 32) != 1 || n != 32)
		ossl_fatal("EVP_MAC_final");
}

void fair_hmac(uint8_t out[32], const uint8_t key[32], const void *data, size_t len)
{
	EVP_MAC_CTX *ctx = hmac_begin(key);

	hmac_once(ctx, data, len, out);
	EVP_MAC_CTX_free(ctx);
}

void fair_random(uint8_t *out, size_t n)
{
	randombytes_buf(out, n);
}

static void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 3; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)(v & 0xff);
}

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)(v & 0xff);
}

int fair_turn_key(uint8_t out[32], const uint8_t secret[32], uint32_t chain_length, uint32_t t)
{
	if (t > chain_length) {
		/* callers that ignore the error then fail the key check instead of reading
		 * whatever was in out */
		memset(out, 0, 32);
		return -1;
	}
	fair_hmac(out, secret, chain_label, sizeof chain_label - 1);
	/* c_(i-1) = SHA256(c_i): walk down from c_L to c_t */
	for (uint32_t i = chain_length; i > t; i--) {
		uint8_t prev[32];

		fair_sha256(prev, out, 32);
		memcpy(out, prev, 32);
		sodium_memzero(prev, sizeof prev); /* a later turn's key, not yet revealed */
	}
	return 0;
}

void fair_commitment(uint8_t out[32], const uint8_t secret[32], uint32_t chain_length)
{
	fair_turn_key(out, secret, chain_length, 0);
}

int fair_key_check(const uint8_t key[32], uint32_t t, const uint8_t commitment[32])
{
	uint8_t h[32];

	memcpy(h, key, 32);
	for (uint32_t i = 0; i < t; i++) {
		uint8_t next[32];

		fair_sha256(next, h, 32);
		memcpy(h, next, 32);
	}
	return sodium_memcmp(h, commitment, 32) == 0;
}

static int order_cmp(const void *a, const void *b)
{
	const struct fair_order *x = *(const struct fair_order *const *)a;
	const struct fair_order *y = *(const struct fair_order *const *)b;

	/* strcmp compares as unsigned char: the spec's ascending byte order */
	return strcmp(x->player, y->player);
}

void fair_orders_digest(uint8_t out[32], const struct fair_order *orders, size_t n)
{
	static const uint8_t zero[32];
	static const uint8_t nul = 0;
	const struct fair_order **sorted = NULL;
	EVP_MD_CTX *st;

	if (n > 0) {
		sorted = xmalloc(n * sizeof *sorted);
		for (size_t i = 0; i < n; i++)
			sorted[i] = &orders[i];
		qsort(sorted, n, sizeof *sorted, order_cmp);
	}
	st = sha_begin();
	for (size_t i = 0; i < n; i++) {
		const struct fair_order *o = sorted[i];

		sha_add(st, o->player, strlen(o->player));
		sha_add(st, &nul, 1);
		sha_add(st, o->has_file ? o->sha256 : zero, 32);
	}
	sha_end(st, out);
	free(sorted);
}

void fair_turn_seed(uint8_t out[32], const uint8_t key[32], uint32_t t, const uint8_t digest[32],
	const uint8_t beacon[32])
{
	uint8_t msg[sizeof turn_label - 1 + 4 + 32 + 32];
	uint8_t *p = msg;

	memcpy(p, turn_label, sizeof turn_label - 1);
	p += sizeof turn_label - 1;
	put_be32(p, t);
	p += 4;
	memcpy(p, digest, 32);
	p += 32;
	memcpy(p, beacon, 32);
	fair_hmac(out, key, msg, sizeof msg);
}

void fair_die_key_init(struct fair_die_key *k, const uint8_t seed[32])
{
	k->ctx = hmac_begin(seed);
}

void fair_die_key_release(struct fair_die_key *k)
{
	EVP_MAC_CTX_free(k->ctx); /* frees the key copy cleansed */
	k->ctx = NULL;
}

uint64_t fair_die(const uint8_t seed[32], uint64_t j, uint64_t n, uint32_t *attempts)
{
	struct fair_die_key k;
	uint64_t v;

	fair_die_key_init(&k, seed);
	v = fair_die_keyed(&k, j, n, attempts);
	fair_die_key_release(&k);
	return v;
}

/* HMAC(s, msg) into block[32] with k's key: EVP_MAC_init with no key restarts from the key's
 * pads hashed at fair_die_key_init (measured the cheapest way: EVP_MAC_CTX_dup of a keyed
 * context per die costs twice as much, keying again per die more still). */
static void die_block(const struct fair_die_key *k, const uint8_t *msg, size_t len,
	uint8_t block[32])
{
	if (EVP_MAC_init(k->ctx, NULL, 0, NULL) != 1)
		ossl_fatal("EVP_MAC_init");
	hmac_once(k->ctx, msg, len, block);
}

uint64_t fair_die_keyed(const struct fair_die_key *k, uint64_t j, uint64_t n, uint32_t *attempts)
{
	uint8_t msg[sizeof die_label - 1 + 8 + 4];
	uint8_t block[32];
	/* 2^64 mod n, computed as (2^64 - n) mod n in 64 bits; 0 means n divides 2^64 and
	 * every block is accepted (the limit 2^64 does not fit in 64 bits) */
	uint64_t rem;
	uint64_t limit;

	assert(n >= 2);
	rem = (0 - n) % n;
	limit = 0 - rem;
	memcpy(msg, die_label, sizeof die_label - 1);
	put_be64(msg + sizeof die_label - 1, j);
	for (uint32_t a = 0;; a++) {
		uint64_t x = 0;

		put_be32(msg + sizeof die_label - 1 + 8, a);
		die_block(k, msg, sizeof msg, block);
		for (int i = 0; i < 8; i++)
			x = (x << 8) | block[i];
		if (rem == 0 || x < limit) {
			if (attempts)
				*attempts = a + 1;
			return 1 + x % n;
		}
		/* each block is rejected with probability below 1/2: 2^32 rejections in a row
		 * means HMAC is broken, not bad luck */
		if (a == UINT32_MAX) {
			fprintf(stderr, "umpire: fair_die: no block accepted for die %llu\n",
				(unsigned long long)j);
			abort();
		}
	}
}

void fair_wipe(void *p, size_t n)
{
	sodium_memzero(p, n);
}

void fair_secret_lock(void *p, size_t n)
{
	sodium_mlock(p, n); /* best effort: without the privilege it may fail, and we go on */
}

void fair_secret_unlock(void *p, size_t n)
{
	sodium_munlock(p, n); /* wipes, then unlocks */
}

/* HMAC(secret, label || be32(t) || player), then 0x00 || item when item is given: the salts of
 * fair_salt and fair_view_salt. */
static void salt_hmac(uint8_t out[32], const uint8_t secret[32], const char *label, uint32_t t,
	const char *player, const char *item)
{
	size_t ll = strlen(label), pl = strlen(player), il = item ? strlen(item) : 0;
	size_t len = ll + 4 + pl + (item ? 1 + il : 0);
	unsigned char *m = xmalloc(len);

	memcpy(m, label, ll);
	put_be32(m + ll, t);
	memcpy(m + ll + 4, player, pl);
	if (item) {
		m[ll + 4 + pl] = 0; /* ids never hold a NUL: player and item stay apart */
		memcpy(m + ll + 5 + pl, item, il);
	}
	fair_hmac(out, secret, m, len);
	free(m);
}

void fair_salt(uint8_t out[32], const uint8_t secret[32], uint32_t t, const char *player)
{
	salt_hmac(out, secret, salt_label, t, player, NULL);
}

void fair_view_salt(uint8_t out[32], const uint8_t secret[32], uint32_t t, const char *player,
	const char *item)
{
	salt_hmac(out, secret, view_salt_label, t, player, item);
}

void fair_sealed_hash(uint8_t out[32], const uint8_t salt[32], const void *data, size_t len)
{
	EVP_MD_CTX *st = sha_begin();

	sha_add(st, sealed_label, sizeof(sealed_label) - 1);
	sha_add(st, salt, 32);
	sha_add(st, data, len);
	sha_end(st, out);
}

int fair_beacon_signature_check(const char *value, const char *signature)
{
	size_t n = strlen(signature);
	unsigned char bytes[FAIR_SIGNATURE_HEX_MAX / 2];
	uint8_t hash[32];
	char hex[65];

	if (n < 2 || n > FAIR_SIGNATURE_HEX_MAX || n % 2 ||
		strspn(signature, "0123456789abcdef") != n ||
		hex_decode(bytes, n / 2, signature) < 0)
		return error_set(ERROR_INPUT,
			"beacon signature '%.80s%s' (lower-case hex, an even number of digits, at most %d, expected)",
			signature, n > 80 ? "..." : "", FAIR_SIGNATURE_HEX_MAX);
	fair_sha256(hash, bytes, n / 2);
	hex_encode(hex, hash, 32);
	if (strcmp(hex, value) != 0)
		return error_set(ERROR_INPUT,
			"beacon value %s is not SHA256 of the signature (%s): the signature is not that round's",
			value, hex);
	return 0;
}
