/* orders.c — one order file checked the way `check`, `turn`, `replay` and `verify` all check
 * it: the core keys (campaign, turn, player), then the umpire's dice rulings or the rule
 * system's orders and standing orders. Every problem goes to the diagnostics, so a player
 * sees all of them at once; nothing here prints. */
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

/* The umpire's generic rulings: a list of `roll`/`for` pairs in dice notation. */
static void parse_rulings(struct order_file *f, const struct node *orders, struct diag *d)
{
	if (node_check_seq(orders, "orders", TURN_MAX_RULINGS, d) < 0)
		return;
	f->rulings = xcalloc(orders->n ? orders->n : 1, sizeof(*f->rulings));
	for (size_t i = 0; i < orders->n; i++)
		parse_ruling(f, orders->items[i], d);
}

static int is_player(const struct campaign *c, const char *id)
{
	return strcmp(id, UMPIRE_PLAYER) == 0 || campaign_has_player(c, id);
}

/* The reason `player: id` cannot be accepted for this turn, into d at pn; 0 when it can. */
static int check_player(const struct turn *t, const struct node *pn, const char *id, struct diag *d)
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
	if (strcmp(id, UMPIRE_PLAYER) != 0 &&
		!c->rules->player_due(&c->rc, t->state, t->in.turn, id)) {
		node_error(d, pn,
			"player '%s' is not due on turn %d (orders from a due player expected)", id,
			t->in.turn);
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
		diag_add(d, best.v[i].file, best.v[i].line, best.v[i].column, "%s",
			best.v[i].message);
	diag_release(&best);
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
	if (node_parse(&root, f->path, f->bytes, f->len, &lim, d) < 0)
		goto done;
	int bad = 0;
	if (node_check_keys(root, "order file", order_keys, &bad, d) < 0)
		goto done;

	const struct node *n = node_need(root, "campaign", d);
	if (n && node_want_str(n, "campaign", 64, &s, d) == 0 && strcmp(s, c->id) != 0)
		node_error(d, n, "orders for campaign '%s' (campaign '%s' expected)", s, c->id);
	n = node_need(root, "turn", d);
	if (n && node_want_int(n, "turn", 1, TURN_MAX, &n_turn, d) == 0 && n_turn != t->in.turn)
		node_error(d, n, "orders for turn %lld (turn %d is the turn being processed)",
			n_turn, t->in.turn);

	const struct node *pn = node_need(root, "player", d);
	const struct node *orders = node_need(root, "orders", d);
	const struct node *standing = node_get(root, "standing");
	int player_ok = pn && node_want_id(pn, "player", &s, d) == 0 &&
			check_player(t, pn, s, d) == 0;
	if (player_ok)
		f->player = xstrdup(s);
	if (!orders)
		goto done;
	if (!player_ok) {
		if (pn && pn->kind == NODE_SCALAR && strcmp(pn->scalar, UMPIRE_PLAYER) != 0)
			check_orders_anyway(t, pn, orders, standing, d);
	} else if (strcmp(f->player, UMPIRE_PLAYER) == 0) {
		if (standing)
			node_error(d, standing,
				"the umpire has no standing orders (only 'orders' expected)");
		parse_rulings(f, orders, d);
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
	free(f->path);
	free(f->player);
	free(f->bytes);
	memset(f, 0, sizeof(*f));
}
