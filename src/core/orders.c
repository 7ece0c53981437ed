/* orders.c — one order file checked the way `check`, `turn`, `replay` and `verify` all check
 * it: the core keys (campaign, turn, player), then the umpire's dice rulings and adjustments
 * (core/adjust.h) or the rule system's orders and standing orders. Every problem goes to the diagnostics, so a player
 * sees all of them at once; nothing here prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/orders.h"
#include "core/banned.h"

static const char *const order_keys[] = {
	"campaign",
	"turn",
	"player",
	"orders",
	"standing",
	"entropy",
	"concede",
	NULL,
};
static const char *const ruling_keys[] = { "roll", "for", NULL };

/* One `roll`/`for` pair of the umpire's file; every problem of it reported. */
static void parse_ruling(struct order_file *f, const struct node *o, struct diag *d)
{
	const char *roll, *what;
	char err[200], canon[64];
	struct dice_expr e;

	int bad = 0;
	if (node_check_keys(o, "umpire ruling", ruling_keys, &bad, d) < 0)
		return;
	const struct node *rn = node_need(o, "roll", d);
	const struct node *wn = node_need(o, "for", d);
	int ok = rn && node_want_str(rn, "roll", 64, &roll, d) == 0;
	ok = wn && node_want_str(wn, "for", 200, &what, d) == 0 && ok;
	if (!ok)
		return;
	if (dice_expr_parse(&e, roll, err, sizeof(err)) < 0) {
		node_error(d, rn, "%s", err);
		return;
	}
	dice_expr_format(&e, canon, sizeof(canon));
	struct ruling *r = &f->rulings[f->n_rulings++];
	r->expr = e;
	r->notation = xstrdup(canon);
	r->what = xstrdup(what);
}

const char *const adjust_kind_names[] = {
	"disr",
	"break",
	"remove",
	"morale",
	"add-unit",
	"status",
	"los",
	"cover",
	"range",
	NULL,
};

/* The keys each kind of adjustment takes besides `adjust` and `reason`, and which of them it
 * needs (a bit per key of adjust_keys). */
static const char *const adjust_keys[] = { "adjust", "reason", "unit", "side", "by", "name", "type",
	"strength", "status", "value", "from", "to", "grade", "band", NULL };
enum {
	K_UNIT = 1 << 2,
	K_SIDE = 1 << 3,
	K_BY = 1 << 4,
	K_NAME = 1 << 5,
	K_TYPE = 1 << 6,
	K_STRENGTH = 1 << 7,
	K_STATUS = 1 << 8,
	K_VALUE = 1 << 9,
	K_FROM = 1 << 10,
	K_TO = 1 << 11,
	K_GRADE = 1 << 12,
	K_BAND = 1 << 13
};
static const struct {
	unsigned takes, needs;
} adjust_shape[ADJUST_KIND_COUNT] = {
	[ADJUST_DISR] = { K_UNIT | K_BY, K_UNIT | K_BY },
	[ADJUST_BREAK] = { K_UNIT, K_UNIT },
	[ADJUST_REMOVE] = { K_UNIT, K_UNIT },
	[ADJUST_MORALE] = { K_SIDE | K_BY, K_SIDE | K_BY },
	[ADJUST_ADD_UNIT] = { K_SIDE | K_UNIT | K_NAME | K_TYPE | K_STRENGTH,
		K_SIDE | K_UNIT | K_TYPE },
	[ADJUST_STATUS] = { K_UNIT | K_STATUS | K_VALUE, K_UNIT | K_STATUS | K_VALUE },
	[ADJUST_LOS] = { K_FROM | K_TO | K_VALUE, K_FROM | K_TO | K_VALUE },
	[ADJUST_COVER] = { K_FROM | K_TO | K_GRADE, K_FROM | K_TO | K_GRADE },
	[ADJUST_RANGE] = { K_FROM | K_TO | K_BAND, K_FROM | K_TO | K_BAND },
};

void adjustment_release(struct adjustment *a)
{
	free(a->unit);
	free(a->side);
	free(a->name);
	free(a->type);
	free(a->status);
	free(a->from);
	free(a->to);
	free(a->grade);
	free(a->band);
	free(a->reason);
	memset(a, 0, sizeof(*a));
}

/* The keys kind k takes, for messages: "unit, by, reason". */
static void adjust_key_list(enum adjust_kind k, char *out, size_t len)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t j = 2; adjust_keys[j] && used < len; j++)
		if (adjust_shape[k].takes & (1u << j))
			used += (size_t)snprintf(out + used, len - used, "%s, ", adjust_keys[j]);
	if (used < len)
		snprintf(out + used, len - used, "reason");
}

/* Every key of o the kind does not take is an error; every key it needs must be there. */
static int check_adjust_shape(const struct node *o, enum adjust_kind k, struct diag *d)
{
	char keys[128];
	int rc = 0;

	adjust_key_list(k, keys, sizeof(keys));
	for (size_t i = 0; i < o->n; i++) {
		for (size_t j = 2; adjust_keys[j]; j++)
			if (strcmp(o->keys[i]->scalar, adjust_keys[j]) == 0 &&
				!(adjust_shape[k].takes & (1u << j))) {
				node_error(d, o->keys[i],
					"'adjust: %s' takes no '%s' (%s expected)",
					adjust_kind_names[k], adjust_keys[j], keys);
				rc = -1;
			}
	}
	for (size_t j = 2; adjust_keys[j]; j++)
		if ((adjust_shape[k].needs & (1u << j)) && !node_get(o, adjust_keys[j])) {
			node_error(d, o, "'adjust: %s' without '%s' (%s expected)",
				adjust_kind_names[k], adjust_keys[j], keys);
			rc = -1;
		}
	return rc;
}

/* The fields of one adjustment whose shape is right, each checked for its type and range. */
static int read_adjust_fields(const struct turn *t, const struct node *o, struct adjustment *a,
	struct diag *d)
{
	const struct node *n;
	const char *s;
	int rc = 0;

	if ((n = node_get(o, "unit")) &&
		(node_want_id(n, "unit", &s, d) < 0 || !(a->unit = xstrdup(s))))
		rc = -1;
	if ((n = node_get(o, "side"))) {
		if (node_want_id(n, "side", &s, d) < 0)
			rc = -1;
		else if (!campaign_has_player(t->c, s)) {
			node_error(d, n, "'%s' is not a player of this campaign (a side expected)",
				s);
			rc = -1;
		} else
			a->side = xstrdup(s);
	}
	if ((n = node_get(o, "by"))) {
		if (node_want_int(n, "by", -ADJUST_MAX_BY, ADJUST_MAX_BY, &a->by, d) < 0)
			rc = -1;
		else if (a->by == 0) {
			node_error(d, n, "'by: 0' changes nothing (a nonzero change expected)");
			rc = -1;
		}
	}
	if ((n = node_get(o, "name")) &&
		(node_want_str(n, "name", 64, &s, d) < 0 || !(a->name = xstrdup(s))))
		rc = -1;
	if ((n = node_get(o, "type")) &&
		(node_want_id(n, "type", &s, d) < 0 || !(a->type = xstrdup(s))))
		rc = -1;
	if ((n = node_get(o, "strength")) &&
		node_want_int(n, "strength", 1, ADJUST_MAX_STRENGTH, &a->strength, d) < 0)
		rc = -1;
	if ((n = node_get(o, "status")) &&
		(node_want_id(n, "status", &s, d) < 0 || !(a->status = xstrdup(s))))
		rc = -1;
	if ((n = node_get(o, "value")) && node_want_bool(n, "value", &a->value, d) < 0)
		rc = -1;
	if ((n = node_get(o, "from")) &&
		(node_want_id(n, "from", &s, d) < 0 || !(a->from = xstrdup(s))))
		rc = -1;
	if ((n = node_get(o, "to")) && (node_want_id(n, "to", &s, d) < 0 || !(a->to = xstrdup(s))))
		rc = -1;
	if ((n = node_get(o, "grade")) &&
		(node_want_id(n, "grade", &s, d) < 0 || !(a->grade = xstrdup(s))))
		rc = -1;
	if ((n = node_get(o, "band")) &&
		(node_want_id(n, "band", &s, d) < 0 || !(a->band = xstrdup(s))))
		rc = -1;
	return rc;
}

/* One `adjust:` item of the umpire's file: its shape here, its meaning in adjust_check. */
static void parse_adjustment(const struct turn *t, struct order_file *f, const struct node *o,
	size_t index, struct diag *d)
{
	const struct node *kn = node_get(o, "adjust"), *rn;
	const char *reason;
	int kind, bad = 0;

	if (node_check_keys(o, "umpire adjustment", adjust_keys, &bad, d) < 0)
		return;
	if (!t->c->rules->adjust_check) {
		node_error(d, kn,
			"rule system '%s' takes no adjustments (a 'roll'/'for' ruling expected)",
			t->c->rules->name);
		return;
	}
	if (node_want_enum(kn, "adjust", adjust_kind_names, &kind, d) < 0)
		return;
	rn = node_need(o, "reason", d);
	int ok = rn && node_want_str(rn, "reason", ADJUST_MAX_REASON, &reason, d) == 0;
	ok = check_adjust_shape(o, (enum adjust_kind)kind, d) == 0 && ok;
	struct adjustment *a = &f->adjustments[f->n_adjustments];
	memset(a, 0, sizeof(*a));
	a->kind = (enum adjust_kind)kind;
	a->index = index;
	a->at = o;
	ok = read_adjust_fields(t, o, a, d) == 0 && ok && bad == 0;
	if (!ok) {
		adjustment_release(a);
		return;
	}
	a->reason = xstrdup(reason);
	if (!a->name && a->unit && a->kind == ADJUST_ADD_UNIT)
		a->name = xstrdup(a->unit);
	f->n_adjustments++;
}

/* The umpire's file: a list of generic dice rulings (`roll`/`for`) and adjustments
 * (`adjust`), the adjustments then checked together by the rule system, in file order. */
static void parse_rulings(const struct turn *t, struct order_file *f, const struct node *orders,
	struct diag *d)
{
	const struct campaign *c = t->c;

	if (node_check_seq(orders, "orders", TURN_MAX_RULINGS, d) < 0)
		return;
	f->rulings = xcalloc(orders->n ? orders->n : 1, sizeof(*f->rulings));
	f->adjustments = xcalloc(orders->n ? orders->n : 1, sizeof(*f->adjustments));
	for (size_t i = 0; i < orders->n; i++) {
		const struct node *o = orders->items[i];
		if (o->kind == NODE_MAP && node_get(o, "adjust"))
			parse_adjustment(t, f, o, i + 1, d);
		else
			parse_ruling(f, o, d);
	}
	/* The well-formed ones are checked even when others are not: every problem at once. */
	if (f->n_adjustments)
		c->rules->adjust_check(&c->rc, t->state, f->adjustments, f->n_adjustments, d);
	for (size_t i = 0; i < f->n_adjustments; i++)
		f->adjustments[i].at = NULL; /* the tree goes when the file is parsed */
}

static int is_player(const struct campaign *c, const char *id)
{
	return strcmp(id, UMPIRE_PLAYER) == 0 || campaign_has_player(c, id);
}

/* Under entropy players, a file without `orders` from a player of the campaign who is not
 * due is his contribution (docs/fairness.md, "Contributions"): his `entropy:` alone, so that
 * every player adds to every turn's randomness, due or not. */
static int is_contribution(const struct turn *t, const struct node *root, const struct node *pn)
{
	const struct campaign *c = t->c;

	return c->entropy == CAMPAIGN_ENTROPY_PLAYERS && !node_get(root, "orders") && pn &&
	       pn->kind == NODE_SCALAR && campaign_has_player(c, pn->scalar) &&
	       !c->rules->player_due(&c->rc, t->state, t->in.turn, pn->scalar);
}

/* The reason `player: id` cannot be accepted for this turn, into d at pn; 0 when it can.
 * contribution: the file is a contribution (is_contribution), which needs no due player. */
static int check_player(const struct turn *t, const struct node *pn, const char *id,
	int contribution, struct diag *d)
{
	const struct campaign *c = t->c;

	if (!is_player(c, id)) {
		struct buf list = BUF_INIT;
		for (size_t i = 0; i < c->n_players; i++)
			buf_printf(&list, "%s, ", c->players[i]);
		buf_puts(&list, UMPIRE_PLAYER);
		node_error(d, pn, "'%s' is not a player of this campaign (one of: %s expected)", id,
			buf_str(&list));
		buf_release(&list);
		return -1;
	}
	if (!contribution && strcmp(id, UMPIRE_PLAYER) != 0 &&
		!c->rules->player_due(&c->rc, t->state, t->in.turn, id)) {
		node_error(d, pn,
			"player '%s' is not due on turn %d (orders from a due player expected%s)",
			id, t->in.turn,
			c->entropy == CAMPAIGN_ENTROPY_PLAYERS ?
				"; a player who is not due sends his entropy: alone, without orders" :
				"");
		return -1;
	}
	for (size_t i = 0; i < t->in.n_files; i++) {
		const struct order_file *g = &t->in.files[i];
		if (g->player && strcmp(g->player, id) == 0) {
			node_error(d, pn, "a second order file for player '%s' (the first is '%s')",
				id, g->path);
			return -1;
		}
	}
	return 0;
}

/* A player's orders and standing orders through the rule system. */
static int parse_player_orders(const struct turn *t, const char *player, const struct node *orders,
	const struct node *standing, void **out, struct diag *d)
{
	const struct campaign *c = t->c;

	*out = NULL;
	if (node_check_seq(orders, "orders", TURN_MAX_ORDERS, d) < 0)
		return -1;
	if (c->rules->orders_parse(out, &c->rc, t->state, t->in.turn, player, orders, standing, d) <
		0) {
		*out = NULL;
		return -1;
	}
	return 0;
}

/* `player:` is wrong, but the orders still deserve a check: against each due player they
 * could be the orders of. If they pass for one, the player error says so; if for none, the
 * problems of the reading with the fewest are reported. */
static void check_orders_anyway(const struct turn *t, const struct node *pn,
	const struct node *orders, const struct node *standing, struct diag *d)
{
	const struct campaign *c = t->c;
	struct diag best;
	size_t best_n = (size_t)-1;

	diag_init(&best);
	for (size_t i = 0; i < c->n_players; i++) {
		const char *p = c->players[i];
		struct diag trial;
		void *parsed = NULL;
		if (!c->rules->player_due(&c->rc, t->state, t->in.turn, p))
			continue;
		diag_init(&trial);
		parse_player_orders(t, p, orders, standing, &parsed, &trial);
		if (parsed)
			c->rules->orders_free(parsed);
		if (diag_count(&trial) == 0) {
			node_error(d, pn, "(the orders would pass as the orders of '%s')", p);
			diag_release(&trial);
			diag_release(&best);
			return;
		}
		if (diag_count(&trial) < best_n) {
			best_n = diag_count(&trial);
			diag_release(&best);
			best = trial;
		} else {
			diag_release(&trial);
		}
	}
	for (size_t i = 0; i < best.n; i++)
		if (!best.v[i].warning)
			diag_add(d, best.v[i].file, best.v[i].line, best.v[i].column, "%s",
				best.v[i].message);
	diag_release(&best);
}

/* Who sent the file is said by how it was given, never by its content: `player: umpire` only
 * in the file given as the umpire's rulings, and that file says nothing else. */
static int check_sender(const struct order_file *f, const struct node *pn, const char *id,
	struct diag *d)
{
	int umpire = strcmp(id, UMPIRE_PLAYER) == 0;

	if (umpire == f->is_rulings)
		return 0;
	if (umpire)
		node_error(d, pn,
			"player 'umpire' in an order file: the umpire gives the rulings file with --rulings FILE (a player's id expected)");
	else
		node_error(d, pn,
			"the --rulings file is the umpire's: it says player '%s' (umpire expected)",
			id);
	return -1;
}

/* `entropy:` (docs/fairness.md, "Entropy from the players"): under entropy players every
 * player's file carries the SHA-256 of a 32-byte nonce he keeps until the close; under any
 * other entropy, and in the umpire's file, there is none. */
static void check_entropy(const struct turn *t, struct order_file *f, const struct node *root,
	const char *player, struct diag *d)
{
	const struct node *n = node_get(root, "entropy");
	int umpire = player && strcmp(player, UMPIRE_PLAYER) == 0;
	const char *s;

	if (t->c->entropy != CAMPAIGN_ENTROPY_PLAYERS || umpire) {
		if (n)
			node_error(d, n, "%s",
				umpire ?
					"the umpire's file carries no entropy (only players commit to a nonce)" :
					"this campaign takes no entropy from the players (its fairness.entropy is not players)");
		return;
	}
	if (!player)
		return;
	if (!n) {
		node_error(d, root,
			"no 'entropy:' (this campaign's players commit to a nonce: 'umpire nonce' prints one and its hash; put the hash here)");
		return;
	}
	if (node_want_str(n, "entropy", 64, &s, d) == 0) {
		if (strlen(s) != 64 || hex_decode(f->entropy, FAIR_HASH_BYTES, s) < 0)
			node_error(d, n,
				"entropy is not 64 hex digits (the SHA-256 'umpire nonce' prints)");
		else
			f->has_entropy = 1;
	}
}

int orders_parse_file(struct turn *t, struct order_file *f, struct diag *d)
{
	const struct campaign *c = t->c;
	struct node *root = NULL;
	size_t before = diag_count(d);
	const char *s;
	long long n_turn;

	struct node_limits lim = { .max_bytes = ORDER_FILE_MAX_BYTES,
		.max_nodes = ORDER_FILE_MAX_NODES };
	/* No line starts with "campaign:": not an order file, however broken, but any file
	 * given as one (a key, a copy of a secret, one a link led to). Said so, and nothing of
	 * it echoed (issue 25). */
	if (!diag_text_has_line(f->bytes, f->len, "campaign:")) {
		diag_add(d, f->path, 1, 1,
			"not an order file: no line starts with 'campaign:' (an order file is YAML with the keys campaign, turn, player and orders, each at the start of a line; its contents are not shown)");
		goto done;
	}
	if (diag_refuse_invisible(d, f->path, f->bytes, f->len) < 0)
		goto done;
	if (node_parse(&root, f->path, f->bytes, f->len, &lim, d) < 0)
		goto done;
	int bad = 0;
	if (node_check_keys(root, "order file", order_keys, &bad, d) < 0)
		goto done;

	const struct node *n = node_need(root, "campaign", d);
	if (n && node_want_str(n, "campaign", 64, &s, d) == 0 && strcmp(s, c->id) != 0)
		node_error(d, n, "orders for campaign '%s' (campaign '%s' expected)", s, c->id);
	n = node_need(root, "turn", d);
	/* Another turn's file (last turn's sent again, most often): that one error, since its
	 * orders were written for another table and every one of them would be wrong here. */
	if (n && node_want_int(n, "turn", 1, TURN_MAX, &n_turn, d) == 0 && n_turn != t->in.turn) {
		if (n_turn < t->in.turn)
			node_error(d, n,
				"this is turn %lld's file; turn %d is open (a new file for turn %d: your last report ends with its template)",
				n_turn, t->in.turn, t->in.turn);
		else
			node_error(d, n,
				"this is turn %lld's file; turn %d is open (turn %d's orders come first)",
				n_turn, t->in.turn, t->in.turn);
		goto done;
	}

	const struct node *pn = node_need(root, "player", d);
	int contribution = is_contribution(t, root, pn);
	const struct node *orders = contribution ? NULL : node_need(root, "orders", d);
	const struct node *standing = node_get(root, "standing");
	int player_ok = pn && node_want_player_id(pn, "player", &s, d) == 0 &&
			check_player(t, pn, s, contribution, d) == 0 &&
			check_sender(f, pn, s, d) == 0;
	if (player_ok)
		f->player = xstrdup(s);
	f->contribution = contribution;
	check_entropy(t, f, root, player_ok ? f->player : NULL, d);
	if (contribution && standing)
		node_error(d, standing,
			"player '%s' is not due on turn %d: his file is his entropy: alone (no standing orders expected)",
			pn->scalar, t->in.turn);
	if (contribution && node_get(root, "concede"))
		node_error(d, node_get(root, "concede"),
			"player '%s' is not due on turn %d: his file is his entropy: alone (a side concedes in its own turn's orders)",
			pn->scalar, t->in.turn);
	/* `concede: true`: the side gives up; the game ends with this turn (core/end.h). */
	const struct node *cn = node_get(root, "concede");
	if (cn && node_want_bool(cn, "concede", &f->concede, d) == 0 && player_ok &&
		strcmp(f->player, UMPIRE_PLAYER) == 0 && f->concede)
		node_error(d, cn, "the umpire concedes nothing ('umpire end' ends a game)");
	if (!orders)
		goto done;
	if (!player_ok) {
		/* A typo'd id: the orders may still be a due player's. A player of the campaign
		 * who is not due (or who sent twice) gets that one error: his orders checked as
		 * the other side's would bury it under theirs (issue 37). */
		if (pn && pn->kind == NODE_SCALAR && strcmp(pn->scalar, UMPIRE_PLAYER) != 0 &&
			!campaign_has_player(c, pn->scalar))
			check_orders_anyway(t, pn, orders, standing, d);
	} else if (strcmp(f->player, UMPIRE_PLAYER) == 0) {
		if (standing)
			node_error(d, standing,
				"the umpire has no standing orders (only 'orders' expected)");
		parse_rulings(t, f, orders, d);
	} else {
		parse_player_orders(t, f->player, orders, standing, &f->orders, d);
	}
done:
	node_free(root);
	return diag_count(d) == before ? 0 : -1;
}

void order_file_release(struct order_file *f, const struct campaign *c)
{
	if (f->orders && c && c->rules)
		c->rules->orders_free(f->orders);
	for (size_t i = 0; i < f->n_rulings; i++) {
		free(f->rulings[i].notation);
		free(f->rulings[i].what);
	}
	free(f->rulings);
	for (size_t i = 0; i < f->n_adjustments; i++)
		adjustment_release(&f->adjustments[i]);
	free(f->adjustments);
	free(f->path);
	free(f->player);
	free(f->bytes);
	free(f->timelock_failed);
	memset(f, 0, sizeof(*f));
}
