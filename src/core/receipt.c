/* receipt.c — the receipts' one format, written and read back (receipt.h; docs/fairness.md,
 * "Receipts"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/receipt.h"
#include "core/campaign.h"
#include "core/close.h"
#include "core/error.h"
#include "core/node.h"
#include "core/pbem.h"
#include "core/turn.h"
#include "core/words.h"
#include "core/banned.h"

#define RECEIPT_MARK "# umpire receipt"

void receipt_close(struct buf *out, const struct close_record *r, const struct campaign *c,
	const char *player, const uint8_t *file_sha256, const uint8_t *salt, const char *commit_id)
{
	const struct close_order *o = close_find(r, player);
	struct node *root = node_new_map();
	char when[32];

	node_map_str(root, "receipt", "close");
	node_map_str(root, "campaign", r->campaign);
	node_map_int(root, "turn", r->turn);
	node_map_str(root, "player", player);
	if (o && file_sha256) {
		node_map_hex(root, "file_sha256", file_sha256, FAIR_HASH_BYTES);
		if (salt)
			node_map_hex(root, "salt", salt, FAIR_HASH_BYTES);
		node_map_hex(root, "commitment", o->sha256, FAIR_HASH_BYTES);
	} else {
		node_map_str(root, "file_sha256", "none");
		node_map_str(root, "commitment", "none");
	}
	node_map_hex(root, "orders_digest", r->digest, FAIR_HASH_BYTES);
	node_map_str(root, "close_commit", commit_id);
	node_map_int(root, "closed_at", r->closed_at);
	if (r->entropy == CAMPAIGN_ENTROPY_BEACON) {
		char *what;
		node_map_int(root, "beacon_round", r->round);
		node_map_int(root, "round_at", r->round_at);
		pbem_format_utc(when, sizeof(when), r->round_at);
		what = xasprintf("%s round %lld, out at %s", c->beacon ? c->beacon : "the beacon",
			r->round, when);
		node_map_str(root, "randomness", what);
		free(what);
	} else {
		node_map_str(root, "randomness",
			o && o->has_entropy ?
				"the players' nonces: send the umpire your reveal file (nonce: ...), by mail or for umpire reveal; your entropy: is in this file's hash" :
				"the players' nonces, revealed after this close");
	}
	if (o)
		buf_printf(out,
			RECEIPT_MARK ": %s%s orders for turn %d are in and the turn is closed\n",
			player, words_possessive(player), r->turn);
	else
		buf_printf(out, RECEIPT_MARK ": turn %d is closed without orders from %s\n",
			r->turn, player);
	buf_puts(out, "# keep it, best the whole mail as it came (.eml): 'umpire verify DIR "
		      "--receipt FILE' checks it\n");
	(void)node_emit(root, out);
	node_free(root);
}

void receipt_reveal(struct buf *out, const char *campaign, int turn, const char *player,
	const uint8_t nonce[FAIR_HASH_BYTES])
{
	struct node *root = node_new_map();

	node_map_str(root, "receipt", "reveal");
	node_map_str(root, "campaign", campaign);
	node_map_int(root, "turn", turn);
	node_map_str(root, "player", player);
	node_map_hex(root, "nonce", nonce, FAIR_HASH_BYTES);
	buf_printf(out, RECEIPT_MARK ": %s%s nonce for turn %d is in\n", player,
		words_possessive(player), turn);
	buf_printf(out,
		"# keep it: should the turn say \"no reveal from %s\", 'umpire verify DIR --receipt FILE' fails\n",
		player);
	(void)node_emit(root, out);
	node_free(root);
}

void receipt_hash_lines(struct buf *out, const uint8_t file_sha256[FAIR_HASH_BYTES],
	const uint8_t *salt, const uint8_t *commitment)
{
	char hex[2 * FAIR_HASH_BYTES + 1];

	hex_encode(hex, file_sha256, FAIR_HASH_BYTES);
	buf_printf(out, "file_sha256: %s\n", hex);
	if (salt) {
		hex_encode(hex, salt, FAIR_HASH_BYTES);
		buf_printf(out, "salt: %s\n", hex);
	}
	if (commitment) {
		hex_encode(hex, commitment, FAIR_HASH_BYTES);
		buf_printf(out, "commitment: %s\n", hex);
	}
}

int receipt_sealed_hashes(struct campaign *c, int turn, const char *player, const void *bytes,
	size_t len, uint8_t salt[FAIR_HASH_BYTES], uint8_t commitment[FAIR_HASH_BYTES])
{
	uint8_t secret[32];

	fair_secret_lock(secret, sizeof secret);
	int rc = campaign_read_secret(c, secret);
	if (rc == 0) {
		fair_salt(salt, secret, (uint32_t)turn, player);
		fair_sealed_hash(commitment, salt, bytes, len);
	}
	fair_secret_unlock(secret, sizeof secret);
	return rc;
}

static int is_none(const struct node *n)
{
	return n && n->kind == NODE_SCALAR && strcmp(n->scalar, "none") == 0;
}

static void parse_close_part(struct receipt *out, const struct node *root, struct diag *d)
{
	const struct node *f = node_need(root, "file_sha256", d);
	const struct node *cm = node_need(root, "commitment", d);
	const struct node *n;
	const char *s;

	if (f && !is_none(f)) {
		out->has_file = close_want_hash(f, "file_sha256", out->file_sha256, d) == 0;
		if (cm)
			close_want_hash(cm, "commitment", out->commitment, d);
		if (node_get(root, "salt"))
			out->has_salt = close_want_hash(node_get(root, "salt"), "salt", out->salt,
						d) == 0;
		/* an open campaign commits to the file's SHA-256 itself; a salted commitment
		 * opens only with the file, which the verifier has after the reveal */
		if (out->has_file && !out->has_salt && cm && !is_none(cm) &&
			memcmp(out->commitment, out->file_sha256, FAIR_HASH_BYTES) != 0)
			node_error(d, cm,
				"commitment differs from file_sha256, and there is no salt (an open campaign commits to the file's SHA-256)");
	} else if (cm && !is_none(cm)) {
		node_error(d, cm, "commitment of no file (file_sha256: none)");
	}
	close_want_hash(node_need(root, "orders_digest", d), "orders_digest", out->digest, d);
	n = node_need(root, "close_commit", d);
	if (n && node_want_str(n, "close_commit", 64, &s, d) == 0) {
		if (strlen(s) != 40 || strspn(s, "0123456789abcdef") != 40)
			node_error(d, n,
				"close_commit is not a commit id (40 hex digits expected)");
		else
			out->close_commit = xstrdup(s);
	}
	n = node_need(root, "closed_at", d);
	if (n)
		node_want_int(n, "closed_at", 0, (long long)1 << 50, &out->closed_at, d);
	n = node_get(root, "beacon_round");
	if (n)
		node_want_int(n, "beacon_round", 1, (long long)1 << 50, &out->round, d);
	n = node_get(root, "round_at");
	if (n)
		node_want_int(n, "round_at", 0, (long long)1 << 50, &out->round_at, d);
}

int receipt_parse(struct receipt *out, const char *name, const struct buf *bytes, struct diag *d)
{
	static const char *const keys[] = { "receipt", "campaign", "turn", "player", "file_sha256",
		"salt", "commitment", "orders_digest", "close_commit", "closed_at", "beacon_round",
		"round_at", "randomness", "nonce", NULL };
	size_t before = diag_count(d);
	struct node *root = NULL;
	const char *s;
	long long v;

	memset(out, 0, sizeof(*out));
	if (node_parse(&root, name, bytes->data ? bytes->data : "", bytes->len, NULL, d) < 0)
		return -1;
	if (node_check_map(root, "a receipt", keys, d) < 0) {
		node_free(root);
		return -1;
	}
	const struct node *n = node_need(root, "receipt", d);
	if (n && node_want_str(n, "receipt", 16, &s, d) == 0) {
		if (strcmp(s, "close") == 0)
			out->kind = RECEIPT_CLOSE;
		else if (strcmp(s, "reveal") == 0)
			out->kind = RECEIPT_REVEAL;
		else
			node_error(d, n, "receipt '%s' (close or reveal expected)", s);
	}
	if (node_want_id(node_need(root, "campaign", d), "campaign", &s, d) == 0)
		out->campaign = xstrdup(s);
	n = node_need(root, "turn", d);
	if (n && node_want_int(n, "turn", 1, TURN_MAX, &v, d) == 0)
		out->turn = (int)v;
	if (node_want_player_id(node_need(root, "player", d), "player", &s, d) == 0)
		out->player = xstrdup(s);
	if (diag_count(d) == before && out->kind == RECEIPT_CLOSE)
		parse_close_part(out, root, d);
	else if (diag_count(d) == before)
		close_want_hash(node_need(root, "nonce", d), "nonce", out->nonce, d);
	node_free(root);
	if (diag_count(d) != before) {
		receipt_release(out);
		return -1;
	}
	return 0;
}

void receipt_release(struct receipt *r)
{
	free(r->campaign);
	free(r->player);
	free(r->close_commit);
	memset(r, 0, sizeof(*r));
}

long receipt_find(const char *text, size_t len)
{
	size_t m = strlen(RECEIPT_MARK);

	for (size_t i = 0; i + m <= len; i++)
		if ((i == 0 || text[i - 1] == '\n') && memcmp(text + i, RECEIPT_MARK, m) == 0)
			return (long)i;
	return -1;
}
