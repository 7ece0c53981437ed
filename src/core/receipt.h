/* receipt.h — the one format of the receipts umpire gives a player (docs/fairness.md,
 * "Receipts"): the close receipt of his file (or of his missing one), the reveal receipt of
 * his nonce, and the named hash lines an acceptance shares with them. Written here, read back
 * here: `umpire close`, the mailed receipts (notify.c), the acceptance mail (inbox.c) and
 * `umpire verify --receipt` all go through it. */
#ifndef UMPIRE_RECEIPT_H
#define UMPIRE_RECEIPT_H

#include <stdint.h>
#include "core/buf.h"
#include "core/diag.h"
#include "core/fair.h"

struct close_record;
struct campaign;

enum receipt_kind { RECEIPT_CLOSE, RECEIPT_REVEAL };

/* A receipt, as written or read back. */
struct receipt {
	enum receipt_kind kind;
	char *campaign, *player; /* owned */
	int turn;
	/* RECEIPT_CLOSE */
	int has_file;                         /* he sent a file (else `none`) */
	uint8_t file_sha256[FAIR_HASH_BYTES]; /* SHA256 of his file's raw bytes */
	int has_salt;                         /* sealed: his file's salt */
	uint8_t salt[FAIR_HASH_BYTES];
	uint8_t commitment[FAIR_HASH_BYTES]; /* the hash the close and D_t hold for his file:
	                                      * file_sha256 (open), the salted one (sealed) */
	uint8_t digest[FAIR_HASH_BYTES];     /* D_t */
	char *close_commit;                  /* 40 hex digits, owned */
	long long closed_at;                 /* the close's time, UTC seconds */
	long long round;                     /* entropy beacon: the round named; 0 players */
	long long round_at;                  /* when that round is out, UTC seconds */
	/* RECEIPT_REVEAL */
	uint8_t nonce[FAIR_HASH_BYTES]; /* his nonce, taken */
};

/* The close receipt of player for close r (committed as commit_id): his file's raw SHA-256
 * (file_sha256, NULL: he sent none), sealed also its salt (salt, NULL when open), the hash
 * the close holds, D_t, the close commit and time, the randomness to come. Appends to out. */
void receipt_close(struct buf *out, const struct close_record *r, const struct campaign *c,
	const char *player, const uint8_t *file_sha256, const uint8_t *salt, const char *commit_id);

/* The reveal receipt of player's nonce for turn (entropy players): appends to out. */
void receipt_reveal(struct buf *out, const char *campaign, int turn, const char *player,
	const uint8_t nonce[FAIR_HASH_BYTES]);

/* The named hash lines an acceptance shares with the close receipt: `file_sha256: HEX`
 * (SHA256 of the raw bytes), and when salt is given `salt:` and `commitment:` (salted).
 * Appends to out. */
void receipt_hash_lines(struct buf *out, const uint8_t file_sha256[FAIR_HASH_BYTES],
	const uint8_t *salt, const uint8_t *commitment);

/* Sealed: the salt of player's file of turn (from the umpire's secret, fair_salt) and the
 * salted commitment to its bytes (len), which the close will hold. Returns 0 / -1 (the secret
 * cannot be read). */
int receipt_sealed_hashes(struct campaign *c, int turn, const char *player, const void *bytes,
	size_t len, uint8_t salt[FAIR_HASH_BYTES], uint8_t commitment[FAIR_HASH_BYTES]);

/* Parses a receipt's text (name for diagnostics) into out (release with receipt_release).
 * A close receipt's commitment is checked against its file_sha256 and salt. Returns 0, or -1
 * with the problems in d. */
int receipt_parse(struct receipt *out, const char *name, const struct buf *bytes, struct diag *d);
void receipt_release(struct receipt *r);

/* Where a receipt starts inside a mail's text: the offset of its first line
 * "# umpire receipt", or -1 when it has none. */
long receipt_find(const char *text, size_t len);

#endif
