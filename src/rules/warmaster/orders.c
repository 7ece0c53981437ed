/* orders.c — Warmaster order files: per character in sequence the orders it tries (a unit or a
 * brigade; a move path, a charge target or a formation) and where it moves afterwards; shots
 * (a unit at a unit or structure); standing orders for initiative, the winner's choice and
 * draws. Checked against the state at `check` time; what the turn itself changes (a failed
 * order, a unit destroyed first) becomes void events at resolve time. */
#include <stdlib.h>
#include <string.h>

#include "rules/warmaster/warmaster.h"
#include "core/suggest.h"
#include "core/words.h"
#include "core/banned.h"

void wm_orders_free(void *orders)
{
	struct wm_orders *o = orders;
	if (!o)
		return;
	for (size_t i = 0; i < o->n; i++) {
		for (size_t j = 0; j < o->v[i].n_orders; j++)
			free(o->v[i].orders[j].brigade);
		free(o->v[i].orders);
	}
	free(o->v);
	free(o);
}

int wm_active_side(const struct wm_state *s, int turn)
{
	return (int)((size_t)(turn - 1) % s->n_sides);
}

/* A unit of side named by n (kind: "unit", "charge target" ...); own: must be side's. */
static int want_unit(const struct wm_state *s, int side, const struct node *n, int own,
	struct diag *d)
{
	const char *id;
	if (node_want_id(n, "unit", &id, d) < 0)
		return -1;
	int i = wm_unit_find(s, id);
	if (i < 0) {
		/* Candidates: the units on the table that the entry may name, side's or the enemy's. */
		const char **names = xcalloc(s->n_units + 1, sizeof(*names));
		struct buf hint = BUF_INIT;
		size_t k = 0;
		for (size_t j = 0; j < s->n_units; j++)
			if (!s->units[j].destroyed && (s->units[j].side == side) == !!own)
				names[k++] = s->units[j].id;
		suggest_append(&hint, id, names, k, 12);
		node_error(d, n, "no unit '%s' (a unit id of the game)%s", id, buf_str(&hint));
		buf_release(&hint);
		free(names);
		return -1;
	}
	if (own && s->units[i].side != side) {
		node_error(d, n, "unit '%s' belongs to %s (one of %s%s units)", id,
			s->side[s->units[i].side].player, s->side[side].player,
			words_possessive(s->side[side].player));
		return -1;
	}
	if (!own && s->units[i].side == side) {
		node_error(d, n, "unit '%s' is one of yours (an enemy unit)", id);
		return -1;
	}
	if (s->units[i].destroyed) {
		node_error(d, n, "unit '%s' has been destroyed (a unit on the table)", id);
		return -1;
	}
	return i;
}

static int want_brigade(const struct wm_state *s, int side, const struct node *n, char **out,
	struct diag *d)
{
	const char *id;
	if (node_want_id(n, "brigade", &id, d) < 0)
		return -1;
	for (size_t i = 0; i < s->n_units; i++)
		if (s->units[i].side == side && s->units[i].brigade &&
			strcmp(s->units[i].brigade, id) == 0) {
			*out = xstrdup(id);
			return 0;
		}
	node_error(d, n, "no brigade '%s' of %s (a brigade of your units)", id,
		s->side[side].player);
	return -1;
}

static int parse_order(const struct wm_state *s, int side, const struct node *m, struct wm_order *o,
	struct diag *d)
{
	static const char *const keys[] = { "unit", "brigade", "move", "charge", "formation",
		NULL };
	const struct node *n;
	int e;
	o->unit = -1;
	if (node_check_map(m, "order", keys, d) < 0)
		return -1;
	if (!!node_get(m, "unit") == !!node_get(m, "brigade")) {
		node_error(d, m, "an order names a unit or a brigade (one of unit, brigade)");
		return -1;
	}
	if ((n = node_get(m, "unit")) && (o->unit = want_unit(s, side, n, 1, d)) < 0)
		return -1;
	if ((n = node_get(m, "brigade")) && want_brigade(s, side, n, &o->brigade, d) < 0)
		return -1;
	if (!node_get(m, "move") && !node_get(m, "charge") && !node_get(m, "formation")) {
		node_error(d, m, "an order does nothing (move, charge or formation)");
		return -1;
	}
	if (node_get(m, "move") && node_get(m, "charge")) {
		node_error(d, node_get(m, "charge"), "an order moves or charges (not both)");
		return -1;
	}
	if ((n = node_get(m, "charge"))) {
		if (o->unit < 0) {
			node_error(d, n,
				"a brigade cannot charge here (order each unit to charge)");
			return -1;
		}
		int t = want_unit(s, side, n, 0, d);
		if (t < 0)
			return -1;
		o->charge = t + 1;
	}
	if ((n = node_get(m, "formation"))) {
		if (node_want_enum(n, "formation", wm_formation_names, &e, d) < 0)
			return -1;
		o->formation = e + 1;
	}
	if ((n = node_get(m, "move"))) {
		if (node_check_seq(n, "move", WM_MAX_PATH, d) < 0)
			return -1;
		if (n->n == 0) {
			node_error(d, n, "move is empty (waypoints [x, y] of the front centre)");
			return -1;
		}
		for (size_t i = 0; i < n->n; i++)
			if (wm_want_pt(s, n->items[i], "waypoint", &o->path[i], d) < 0)
				return -1;
		o->n_path = n->n;
	}
	return 0;
}

static int parse_character_entry(const struct wm_state *s, int side, const struct node *m,
	struct wm_entry *e, struct diag *d)
{
	static const char *const keys[] = { "character", "orders", "move", "join", NULL };
	const struct node *n = node_get(m, "character"), *l;
	const char *id;
	int rc = 0;
	if (node_check_map(m, "character entry", keys, d) < 0 ||
		node_want_id(n, "character", &id, d) < 0)
		return -1;
	if ((e->character = wm_char_find(s, id)) < 0 || s->chars[e->character].side != side) {
		const char **names = xcalloc(s->n_chars + 1, sizeof(*names));
		struct buf hint = BUF_INIT;
		size_t k = 0;
		for (size_t j = 0; j < s->n_chars; j++)
			if (s->chars[j].side == side && !s->chars[j].slain)
				names[k++] = s->chars[j].id;
		suggest_append(&hint, id, names, k, 12);
		node_error(d, n, "no character '%s' of %s (one of your characters)%s", id,
			s->side[side].player, buf_str(&hint));
		buf_release(&hint);
		free(names);
		return -1;
	}
	if ((n = node_get(m, "move"))) {
		if (wm_want_pt(s, n, "move", &e->move_to, d) < 0)
			return -1;
		e->has_move = 1;
	}
	if ((n = node_get(m, "join"))) {
		int u;
		if (e->has_move) {
			node_error(d, n, "a character moves or joins a unit (not both)");
			return -1;
		}
		if ((u = want_unit(s, side, n, 1, d)) < 0)
			return -1;
		e->join = u + 1;
	}
	if (!(l = node_get(m, "orders")))
		return 0;
	if (node_check_seq(l, "orders", WM_MAX_ORDERS, d) < 0)
		return -1;
	e->orders = xcalloc(l->n ? l->n : 1, sizeof(*e->orders));
	for (size_t i = 0; i < l->n; i++) {
		e->orders[e->n_orders].index = e->index;
		if (parse_order(s, side, l->items[i], &e->orders[e->n_orders], d) < 0) {
			free(e->orders[e->n_orders].brigade);
			memset(&e->orders[e->n_orders], 0, sizeof(e->orders[0]));
			rc = -1;
			continue;
		}
		e->n_orders++;
	}
	return rc;
}

static int parse_shot(const struct wm_state *s, int side, const struct node *m, struct wm_entry *e,
	struct diag *d)
{
	static const char *const keys[] = { "shoot", "at", NULL };
	const struct node *n;
	const char *id;
	e->character = -1;
	e->target = e->structure = -1;
	if (node_check_map(m, "shot", keys, d) < 0)
		return -1;
	if ((e->shooter = want_unit(s, side, node_get(m, "shoot"), 1, d)) < 0)
		return -1;
	if (!s->units[e->shooter].shoot) {
		node_error(d, node_get(m, "shoot"),
			"unit '%s' has no shooting attacks (a unit "
			"with a range)",
			s->units[e->shooter].id);
		return -1;
	}
	if (!(n = node_need(m, "at", d)) || node_want_id(n, "at", &id, d) < 0)
		return -1;
	if ((e->structure = wm_structure_find(s, id)) >= 0)
		return 0;
	e->target = want_unit(s, side, n, 0, d);
	return e->target < 0 ? -1 : 0;
}

/* A spell: cast: SPELL, by: WIZARD, at: UNIT (a point [x, y] for a line spell). */
static int parse_cast(const struct wm_state *s, int side, const struct node *m, struct wm_entry *e,
	struct diag *d)
{
	static const char *const keys[] = { "cast", "by", "at", NULL };
	const struct node *n;
	const char *id;
	const struct wm_army *a = &s->armies[s->side[side].army];
	e->character = -1;
	e->shooter = e->target = e->structure = -1;
	if (node_check_map(m, "spell", keys, d) < 0 || !(n = node_need(m, "by", d)) ||
		node_want_id(n, "by", &id, d) < 0)
		return -1;
	e->caster = wm_char_find(s, id);
	if (e->caster < 0 || s->chars[e->caster].side != side ||
		s->chars[e->caster].role != WM_WIZARD) {
		node_error(d, n, "no wizard '%s' of %s (one of your Wizards)", id,
			s->side[side].player);
		return -1;
	}
	if (node_want_str(n = node_get(m, "cast"), "cast", 64, &id, d) < 0)
		return -1;
	for (e->spell = 0; e->spell < (int)a->n_spells; e->spell++)
		if (strcmp(a->spells[e->spell].name, id) == 0)
			break;
	if (e->spell == (int)a->n_spells) {
		node_error(d, n, "no spell '%s' in the %s army list (one of its spells)", id,
			a->name);
		return -1;
	}
	if (!(n = node_need(m, "at", d)))
		return -1;
	if (a->spells[e->spell].kind == WM_SPELL_LINE)
		return wm_want_pt(s, n, "at", &e->at, d);
	e->target = want_unit(s, side, n, a->spells[e->spell].kind == WM_SPELL_BONUS, d);
	return e->target < 0 ? -1 : 0;
}

/* Each Wizard casts one spell a turn (WMR Magic). */
static int check_one_cast(const struct wm_orders *o, const struct node *orders, struct diag *d)
{
	for (size_t i = 0; i < o->n; i++)
		for (size_t j = 0; j < i; j++)
			if (o->v[i].caster >= 0 && o->v[j].caster == o->v[i].caster) {
				node_error(d, node_get(orders->items[i], "by"),
					"a second spell by the same Wizard (one spell a turn)");
				return -1;
			}
	return 0;
}

static int parse_standing(const struct wm_state *s, int side, const struct node *st,
	struct wm_orders *o, struct diag *d)
{
	static const char *const keys[] = { "initiative", "win", "draw", NULL };
	static const char *const draw_names[] = { "fall-back", "stand", NULL };
	const struct node *n;
	int e, rc = 0;
	o->has_standing = 1;
	o->win = s->side[side].win;
	o->draw_stand = s->side[side].draw_stand;
	if (node_check_map(st, "standing", keys, d) < 0)
		return -1;
	if ((n = node_get(st, "win"))) {
		if (node_want_enum(n, "win", wm_after_names, &e, d) < 0)
			rc = -1;
		else
			o->win = (enum wm_after)e;
	}
	if ((n = node_get(st, "draw")) &&
		node_want_enum(n, "draw", draw_names, &o->draw_stand, d) < 0)
		rc = -1;
	if (!(n = node_get(st, "initiative")))
		return rc;
	if (n->kind != NODE_MAP) {
		node_error(d, n, "initiative is not a map (unit: charge or evade)");
		return -1;
	}
	for (size_t i = 0; i < n->n; i++) {
		int u = want_unit(s, side, n->keys[i], 1, d);
		if (u < 0 ||
			node_want_enum(n->items[i], "initiative", wm_initiative_names, &e, d) < 0) {
			rc = -1;
			continue;
		}
		o->initiative[u] = (unsigned char)e;
	}
	return rc;
}

int wm_orders_parse(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player, const struct node *orders, const struct node *standing, struct diag *d)
{
	const struct wm_state *s = state;
	struct wm_orders *o = xcalloc(1, sizeof(*o));
	int rc = 0, side = wm_side_of(s, player);
	(void)c;
	(void)turn;
	*out = NULL;
	if (side < 0) {
		node_error(d, orders, "player '%s' has no side in this game", player);
		wm_orders_free(o);
		return -1;
	}
	if (standing && parse_standing(s, side, standing, o, d) < 0)
		rc = -1;
	if (node_check_seq(orders, "orders", WM_MAX_ENTRIES, d) < 0) {
		wm_orders_free(o);
		return -1;
	}
	o->v = xcalloc(orders->n ? orders->n : 1, sizeof(*o->v));
	for (size_t i = 0; i < orders->n; i++) {
		const struct node *m = orders->items[i];
		struct wm_entry *e = &o->v[o->n++];
		e->index = (int)i + 1;
		e->caster = -1;
		if (m->kind == NODE_MAP && node_get(m, "cast")) {
			if (parse_cast(s, side, m, e, d) < 0)
				rc = -1;
		} else if (m->kind == NODE_MAP && node_get(m, "shoot")) {
			if (parse_shot(s, side, m, e, d) < 0)
				rc = -1;
		} else if (m->kind == NODE_MAP && node_get(m, "character")) {
			if (parse_character_entry(s, side, m, e, d) < 0)
				rc = -1;
		} else {
			node_error(d, m,
				"an entry is not a character's orders, a shot or a spell "
				"(a map with character, shoot or cast)");
			rc = -1;
		}
	}
	if (rc == 0 && check_one_cast(o, orders, d) < 0)
		rc = -1;
	if (rc < 0) {
		wm_orders_free(o);
		return -1;
	}
	*out = o;
	return 0;
}
