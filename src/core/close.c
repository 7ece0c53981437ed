/* close.c — the close file, the receipt, the beacon's rounds and the players' reveals
 * (close.h; docs/fairness.md, "Closed turns"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/close.h"
#include "core/campaign.h"
#include "core/error.h"
#include "core/node.h"
#include "core/pbem.h"
#include "core/schedule.h"
#include "core/turn.h"
#include "core/banned.h"

long long close_round_at(const struct campaign *c, long long round)
{
	return c->beacon_genesis + (round - 1) * c->beacon_period;
}

long long close_first_round(const struct campaign *c, long long at)
{
	if (at <= c->beacon_genesis)
		return 1;
	/* ceil((at - genesis) / period) + 1: exact integer arithmetic */
	return (at - c->beacon_genesis + c->beacon_period - 1) / c->beacon_period + 1;
}

int close_check_entropy(const struct close_record *r)
{
	if (r->entropy != CAMPAIGN_ENTROPY_PLAYERS)
		return 0;
	for (size_t i = 0; i < r->n_orders; i++)
		if (r->orders[i].has_entropy)
			return 0;
	return error_set(ERROR_INPUT,
		"turn %d: no order file of the close carries an entropy: commitment (entropy players): its reveals would be empty and B_t = SHA256(\"\") known before the close, so the umpire alone could choose among outcomes; a close needs at least one player's file with entropy:",
		r->turn);
}

int close_check_sorted(const struct close_record *r, const char *where)
{
	for (size_t i = 1; i < r->n_orders; i++)
		if (strcmp(r->orders[i - 1].player, r->orders[i].player) >= 0)
			return error_set(ERROR_INPUT,
				"turn %d: %s: orders is not sorted by player, or lists a player twice",
				r->turn, where);
	for (size_t i = 1; i < r->n_missing; i++)
		if (strcmp(r->missing[i - 1], r->missing[i]) >= 0)
			return error_set(ERROR_INPUT,
				"turn %d: %s: missing is not sorted, or lists a player twice",
				r->turn, where);
	return 0;
}

long long close_named_round(const struct campaign *c, long long closed_at)
{
	long long r = close_first_round(c, closed_at + c->beacon_delay);
	return close_round_at(c, r) <= closed_at ? r + 1 : r;
}

long long close_witness_until(const struct close_record *r)
{
	return r->entropy == CAMPAIGN_ENTROPY_BEACON ? r->round_at :
						       r->closed_at + CLOSE_PLAYERS_WITNESS_WINDOW;
}

void close_summary(char *out, size_t size, const struct close_record *r)
{
	if (r->entropy == CAMPAIGN_ENTROPY_BEACON)
		snprintf(out, size, "%zu order files, %zu without; randomness: beacon round %lld",
			r->n_orders, r->n_missing, r->round);
	else
		snprintf(out, size,
			"%zu order files, %zu without; randomness: the players' reveals",
			r->n_orders, r->n_missing);
}

void close_render(struct buf *out, const struct close_record *r, const struct campaign *c)
{
	struct node *root = node_new_map();
	char when[32];

	node_map_str(root, "campaign", r->campaign);
	node_map_int(root, "turn", r->turn);
	node_map_int(root, "closed_at", r->closed_at);
	pbem_format_utc(when, sizeof(when), r->closed_at);
	node_map_str(root, "closed_at_utc", when);
	node_map_str(root, "entropy", campaign_entropy_names[r->entropy]);
	node_map_hex(root, "orders_digest", r->digest, FAIR_HASH_BYTES);
	struct node *orders = node_map_add(root, "orders", node_new_seq());
	for (size_t i = 0; i < r->n_orders; i++) {
		struct node *o = node_seq_add(orders, node_new_map());
		node_map_str(o, "player", r->orders[i].player);
		node_map_hex(o, "sha256", r->orders[i].sha256, FAIR_HASH_BYTES);
		if (r->orders[i].has_salt)
			node_map_hex(o, "salt", r->orders[i].salt, FAIR_HASH_BYTES);
		if (r->orders[i].has_entropy)
			node_map_hex(o, "entropy", r->orders[i].entropy, FAIR_HASH_BYTES);
	}
	struct node *missing = node_map_add(root, "missing", node_new_seq());
	for (size_t i = 0; i < r->n_missing; i++)
		node_seq_add(missing, node_new_str(r->missing[i]));
	if (r->entropy == CAMPAIGN_ENTROPY_BEACON) {
		struct node *b = node_map_add(root, "beacon", node_new_map());
		node_map_str(b, "source", c->beacon ? c->beacon : "");
		node_map_int(b, "round", r->round);
		node_map_int(b, "round_at", r->round_at);
		pbem_format_utc(when, sizeof(when), r->round_at);
		node_map_str(b, "round_at_utc", when);
	}
	schedule_emit(root, r->overrides, r->n_overrides, 0);
	buf_puts(out,
		"# umpire close: the inputs of this turn, fixed before its randomness is known\n");
	(void)node_emit(root, out);
	node_free(root);
}

int close_want_hash(const struct node *n, const char *what, uint8_t out[FAIR_HASH_BYTES],
	struct diag *d)
{
	const char *s;
	if (!n || node_want_str(n, what, 64, &s, d) < 0)
		return -1;
	if (strlen(s) != 64 || hex_decode(out, FAIR_HASH_BYTES, s) < 0) {
		node_error(d, n, "%s is not 64 hex digits", what);
		return -1;
	}
	return 0;
}

static void parse_orders(struct close_record *r, const struct node *seq, struct diag *d)
{
	static const char *const keys[] = { "player", "sha256", "salt", "entropy", NULL };
	const char *s;

	if (!seq || node_check_seq(seq, "orders", 1000, d) < 0)
		return;
	r->orders = xcalloc(seq->n + 1, sizeof(*r->orders));
	for (size_t i = 0; i < seq->n; i++) {
		const struct node *o = seq->items[i];
		struct close_order *co = &r->orders[r->n_orders];
		if (node_check_map(o, "an order", keys, d) < 0 ||
			node_want_player_id(node_need(o, "player", d), "player", &s, d) < 0)
			continue;
		co->player = xstrdup(s);
		r->n_orders++;
		close_want_hash(node_need(o, "sha256", d), "sha256", co->sha256, d);
		if (node_get(o, "salt"))
			co->has_salt = close_want_hash(node_get(o, "salt"), "salt", co->salt, d) ==
				       0;
		if (node_get(o, "entropy"))
			co->has_entropy = close_want_hash(node_get(o, "entropy"), "entropy",
						  co->entropy, d) == 0;
	}
}

static void parse_beacon(struct close_record *r, const struct node *b, struct diag *d)
{
	static const char *const keys[] = { "source", "round", "round_at", "round_at_utc", NULL };

	if (!b || node_check_map(b, "beacon", keys, d) < 0)
		return;
	const struct node *n = node_need(b, "round", d);
	if (n)
		node_want_int(n, "round", 1, (long long)1 << 50, &r->round, d);
	n = node_need(b, "round_at", d);
	if (n)
		node_want_int(n, "round_at", 0, (long long)1 << 50, &r->round_at, d);
}

/* The head the close file and the reveal file share: one YAML map with only
 * keys, its `campaign` (an identifier; *campaign points into the document) and its `turn`
 * (1 to TURN_MAX; *turn, 0 when wrong). Returns the document (node_free it), or NULL when it
 * does not parse or is not such a map; every problem goes to d. */
static struct node *read_head(const char *name, const struct buf *bytes, const char *what,
	const char *const *keys, const char **campaign, int *turn, struct diag *d)
{
	struct node *root = NULL;
	long long v;

	*campaign = NULL;
	*turn = 0;
	if (node_parse(&root, name, bytes->data ? bytes->data : "", bytes->len, NULL, d) < 0)
		return NULL;
	if (node_check_map(root, what, keys, d) < 0) {
		node_free(root);
		return NULL;
	}
	if (node_want_id(node_need(root, "campaign", d), "campaign", campaign, d) < 0)
		*campaign = NULL;
	const struct node *n = node_need(root, "turn", d);
	if (n && node_want_int(n, "turn", 1, TURN_MAX, &v, d) == 0)
		*turn = (int)v;
	return root;
}

int close_parse(struct close_record *r, const char *name, const struct buf *bytes, struct diag *d)
{
	static const char *const keys[] = { "campaign", "turn", "closed_at", "closed_at_utc",
		"entropy", "orders_digest", "orders", "missing", "beacon", "overrides", NULL };
	size_t before = diag_count(d);
	const char *s;

	memset(r, 0, sizeof(*r));
	struct node *root = read_head(name, bytes, "a close file", keys, &s, &r->turn, d);
	if (!root)
		return -1;
	if (s)
		r->campaign = xstrdup(s);
	const struct node *n = node_need(root, "closed_at", d);
	if (n)
		node_want_int(n, "closed_at", 0, (long long)1 << 50, &r->closed_at, d);
	n = node_need(root, "entropy", d);
	if (n && node_want_str(n, "entropy", 20, &s, d) == 0) {
		r->entropy = campaign_entropy_parse(s);
		if (r->entropy <= CAMPAIGN_ENTROPY_NONE)
			node_error(d, n, "entropy '%s' (beacon or players expected)", s);
	}
	close_want_hash(node_need(root, "orders_digest", d), "orders_digest", r->digest, d);
	parse_orders(r, node_need(root, "orders", d), d);
	n = node_need(root, "missing", d);
	if (n && node_check_seq(n, "missing", 1000, d) == 0) {
		r->missing = xcalloc(n->n + 1, sizeof(char *));
		for (size_t i = 0; i < n->n; i++)
			if (node_want_player_id(n->items[i], "player", &s, d) == 0)
				r->missing[r->n_missing++] = xstrdup(s);
	}
	if (r->entropy == CAMPAIGN_ENTROPY_BEACON)
		parse_beacon(r, node_need(root, "beacon", d), d);
	schedule_parse(&r->overrides, &r->n_overrides, node_get(root, "overrides"), r->turn, 0, d);
	node_free(root);
	return diag_count(d) == before ? 0 : -1;
}

void close_release(struct close_record *r)
{
	free(r->campaign);
	for (size_t i = 0; i < r->n_orders; i++)
		free(r->orders[i].player);
	free(r->orders);
	for (size_t i = 0; i < r->n_missing; i++)
		free(r->missing[i]);
	free(r->missing);
	override_list_free(r->overrides, r->n_overrides);
	memset(r, 0, sizeof(*r));
}

const struct close_order *close_find(const struct close_record *r, const char *player)
{
	for (size_t i = 0; i < r->n_orders; i++)
		if (strcmp(r->orders[i].player, player) == 0)
			return &r->orders[i];
	return NULL;
}

char *close_reveals_text(const struct close_record *r, const struct close_reveal *reveals)
{
	struct buf b = BUF_INIT;
	char hex[2 * FAIR_HASH_BYTES + 1];

	for (size_t i = 0; i < r->n_orders; i++) {
		const struct close_order *o = &r->orders[i];
		if (!o->has_entropy)
			continue;
		hex_encode(hex, reveals[i].revealed ? reveals[i].nonce : o->entropy,
			FAIR_HASH_BYTES);
		buf_printf(&b, "%s%s %s %s", b.len ? " " : "", o->player,
			reveals[i].revealed ? "nonce" : "committed", hex);
	}
	return b.len ? buf_detach(&b) : xstrdup("");
}

int close_reveals_parse(const struct close_record *r, const char *text,
	struct close_reveal *reveals)
{
	const char *p = text;
	char player[80], kind[16], hex[80];
	int used;

	for (size_t i = 0; i < r->n_orders; i++) {
		const struct close_order *o = &r->orders[i];
		memset(&reveals[i], 0, sizeof(reveals[i]));
		reveals[i].player = o->player;
		if (!o->has_entropy)
			continue;
		if (*p == ' ')
			p++;
		if (sscanf(p, "%79s %15s %79s%n", player, kind, hex, &used) != 3 ||
			strcmp(player, o->player) != 0)
			return error_set(ERROR_INPUT,
				"the reveals do not list %s where the close's order says (\"PLAYER nonce|committed HEX\" in player order expected)",
				o->player);
		p += used;
		uint8_t v[FAIR_HASH_BYTES], h[FAIR_HASH_BYTES];
		if (strlen(hex) != 64 || hex_decode(v, FAIR_HASH_BYTES, hex) < 0)
			return error_set(ERROR_INPUT, "the reveal of %s is not 64 hex digits",
				o->player);
		if (strcmp(kind, "nonce") == 0) {
			fair_sha256(h, v, FAIR_HASH_BYTES);
			if (memcmp(h, o->entropy, FAIR_HASH_BYTES) != 0)
				return error_set(ERROR_INPUT,
					"the nonce of %s does not hash to the entropy its order file committed to",
					o->player);
			reveals[i].revealed = 1;
			memcpy(reveals[i].nonce, v, FAIR_HASH_BYTES);
		} else if (strcmp(kind, "committed") != 0 ||
			   memcmp(v, o->entropy, FAIR_HASH_BYTES) != 0) {
			return error_set(ERROR_INPUT,
				"the reveal of %s is neither its nonce nor its committed entropy",
				o->player);
		}
	}
	if (*p)
		return error_set(ERROR_INPUT, "the reveals list more than the close's players");
	return 0;
}

int close_reveal_file_parse(const char *name, const struct buf *bytes, const char *campaign,
	int turn, char **player, uint8_t nonce[FAIR_HASH_BYTES], struct diag *d)
{
	static const char *const keys[] = { "campaign", "turn", "player", "nonce", "entropy",
		NULL };
	size_t before = diag_count(d);
	const char *s;
	int t;

	*player = NULL;
	struct node *root = read_head(name, bytes, "a reveal", keys, &s, &t, d);
	if (!root)
		return -1;
	if (s && strcmp(s, campaign) != 0)
		node_error(d, node_get(root, "campaign"), "campaign '%s' (this is campaign '%s')",
			s, campaign);
	if (t && t != turn)
		node_error(d, node_get(root, "turn"),
			"turn %d (turn %d is the closed turn awaiting reveals)", t, turn);
	const struct node *n;
	if (node_want_player_id(node_need(root, "player", d), "player", &s, d) == 0)
		*player = xstrdup(s);
	n = node_need(root, "nonce", d);
	if (n && node_want_str(n, "nonce", 64, &s, d) == 0 &&
		(strlen(s) != 64 || hex_decode(nonce, FAIR_HASH_BYTES, s) < 0))
		node_error(d, n, "nonce is not 64 hex digits (umpire nonce prints one)");
	/* `umpire nonce --campaign --turn --player` prints the reveal with its entropy: line
	 * (what the orders committed to), so the file says both; it must be the nonce's. */
	n = node_get(root, "entropy");
	if (n && node_want_str(n, "entropy", 64, &s, d) == 0) {
		uint8_t e[FAIR_HASH_BYTES], h[FAIR_HASH_BYTES];
		fair_sha256(h, nonce, FAIR_HASH_BYTES);
		if (strlen(s) != 64 || hex_decode(e, FAIR_HASH_BYTES, s) < 0)
			node_error(d, n, "entropy is not 64 hex digits (the SHA-256 of the nonce)");
		else if (diag_count(d) == before && memcmp(e, h, FAIR_HASH_BYTES) != 0)
			node_error(d, n, "entropy is not the SHA-256 of this file's nonce");
	}
	node_free(root);
	if (diag_count(d) != before) {
		free(*player);
		*player = NULL;
		return -1;
	}
	return 0;
}

int close_reveal_check(const struct close_record *r, const char *player,
	const uint8_t nonce[FAIR_HASH_BYTES], struct buf *why)
{
	const struct close_order *o = close_find(r, player);
	uint8_t h[FAIR_HASH_BYTES];
	char hex[65], want[65];

	if (!o || !o->has_entropy) {
		buf_printf(why, "%s committed to no entropy in the close of turn %d", player,
			r->turn);
		return 1;
	}
	fair_sha256(h, nonce, FAIR_HASH_BYTES);
	if (memcmp(h, o->entropy, FAIR_HASH_BYTES) == 0)
		return 0;
	hex_encode(hex, h, FAIR_HASH_BYTES);
	hex_encode(want, o->entropy, FAIR_HASH_BYTES);
	buf_printf(why,
		"the nonce does not match %s's committed entropy (its SHA-256 is %s, the close holds %s)",
		player, hex, want);
	return 1;
}
