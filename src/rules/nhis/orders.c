/* orders.c — NHiS order files: a player's impulses (activate a hex; move, fire, or charge
 * and fire) and standing opportunity-fire orders, checked against the state at `check`
 * time. The player's own impulses are played forward on a scratch copy of positions, so a
 * unit moved in one impulse can be activated from its new hex in a later one, and no unit
 * acts twice; what only the opponent's moves can change (rallying, losses, who stands where)
 * is settled at resolve time as void orders. */
#include <stdlib.h>
#include <string.h>

#include "rules/nhis/nhis.h"
#include "core/banned.h"

const char *const nhis_mode_names[] = { "move", "charge", "crawl", NULL };

void nhis_orders_free(void *orders)
{
	struct nhis_orders *o = orders;
	if (!o)
		return;
	for (size_t i = 0; i < o->n; i++)
		free(o->v[i].units);
	free(o->v);
	nhis_opportunity_free(o->opp, o->n_opp);
	free(o);
}

/* The scratch play-forward of the player's own impulses. */
struct sim {
	int *hex;             /* where each unit stands */
	unsigned char *acted; /* has a marker or acted in an earlier impulse */
};

/* One unit named in an impulse's `units`: a unit of the scenario, side's, listed once, in
 * play, standing in the activated hex (when that is known) and not yet acted. Returns its
 * index, or -1 (reported). */
static int want_group_unit(const struct nhis_state *s, int side, const struct sim *sim,
	const struct nhis_impulse *imp, const struct node *un, struct diag *d)
{
	const char *id = un->scalar;
	char hx[5], at[5];
	int ui = nhis_want_listed_unit(s, side, un, imp->units, imp->n_units, d);
	if (ui < 0)
		return -1;
	const struct nhis_unit *u = &s->units[ui];
	if (u->eliminated) {
		node_error(d, un, "unit '%s' has been eliminated (a unit in play)", id);
		return -1;
	}
	if (imp->hex && sim->hex[ui] != imp->hex) {
		nhis_hex_name(imp->hex, hx);
		nhis_hex_name(sim->hex[ui], at);
		node_error(d, un, "unit '%s' is in %s, not %s (a unit in the activated hex)", id,
			at, hx);
		return -1;
	}
	if (sim->acted[ui]) {
		node_error(d, un, "unit '%s' has already acted this turn (each unit once a turn)",
			id);
		return -1;
	}
	return ui;
}

/* Parses the group of an impulse into imp->units (explicit list) and group/ng (the units
 * that will act, explicit or every ready unit of the side in the hex). A bad unit is
 * reported and the others still read. */
static int parse_group(const struct nhis_state *s, int side, const struct sim *sim,
	const struct node *e, const struct node *units, struct nhis_impulse *imp, size_t *group,
	size_t *ng, struct diag *d)
{
	char hx[5];
	int rc = 0;
	nhis_hex_name(imp->hex, hx);
	*ng = 0;
	if (units) {
		if (node_check_seq(units, "units", NHIS_MAX_UNITS, d) < 0)
			return -1;
		if (units->n == 0) {
			node_error(d, units,
				"units is empty (the ids of units in %s, or leave it out "
				"for all of them)",
				imp->hex ? hx : "the activated hex");
			return -1;
		}
		imp->units = xcalloc(units->n, sizeof(*imp->units));
		for (size_t k = 0; k < units->n; k++) {
			int ui = want_group_unit(s, side, sim, imp, units->items[k], d);
			if (ui < 0) {
				rc = -1;
				continue;
			}
			imp->units[imp->n_units++] = ui;
			group[(*ng)++] = (size_t)ui;
		}
		return rc;
	}
	if (!imp->hex)
		return 0; /* the activated hex is wrong (reported): no default group */
	for (size_t i = 0; i < s->n_units; i++)
		if (s->units[i].side == side && !s->units[i].eliminated &&
			sim->hex[i] == imp->hex && !sim->acted[i])
			group[(*ng)++] = i;
	if (*ng == 0) {
		node_error(d, e,
			"no unit of %s ready to act in %s (a hex holding one of your units "
			"that has not acted this turn)",
			s->side[side].player, hx);
		return -1;
	}
	return 0;
}

/* Checks the path and its movement points; fills imp->path. */
static int parse_move(const struct nhis_state *s, const struct nhis_options *o, int side,
	const struct node *move, struct nhis_impulse *imp, const size_t *group, size_t ng,
	struct diag *d)
{
	int rc = 0;
	if (node_check_seq(move, "move", NHIS_MAX_PATH, d) < 0)
		return -1;
	if (move->n == 0) {
		node_error(d, move, "move is empty (a path of adjacent hexes)");
		return -1;
	}
	if (imp->mode == NHIS_MODE_CRAWL && move->n != 1) {
		node_error(d, move, "a crawl enters %zu hexes (exactly one hex)", move->n);
		rc = -1;
	}
	int mp = 1000;
	const char *slowest = NULL;
	for (size_t k = 0; k < ng; k++) {
		const struct nhis_unit *u = &s->units[group[k]];
		if (nhis_values_of(u)->movement < mp) {
			mp = nhis_values_of(u)->movement;
			slowest = u->id;
		}
		if (u->type == NHIS_TANK && imp->mode == NHIS_MODE_CRAWL) {
			node_error(d, move, "tank '%s' cannot crawl (move or charge)", u->id);
			rc = -1;
		}
	}
	int jungle = s->side[side].nationality &&
		     strcmp(s->side[side].nationality, "japanese") == 0;
	int at = imp->hex, spent = 0, over = 0;
	for (size_t k = 0; k < move->n; k++) {
		int h;
		if (nhis_want_hex(&s->map, move->items[k], "hex", &h, d) < 0) {
			rc = -1;
			at = 0;
			continue;
		}
		imp->path[imp->n_path++] = h;
		if (at && !nhis_adjacent(at, h)) {
			char a[5], b[5];
			nhis_hex_name(at, a);
			nhis_hex_name(h, b);
			node_error(d, move->items[k],
				"hex %s is not adjacent to %s (a path of "
				"adjacent hexes, starting next to the activated hex)",
				b, a);
			rc = -1;
		} else if (at) {
			spent += nhis_move_cost(&s->map, o, at, h, jungle);
			if (imp->mode != NHIS_MODE_CRAWL && spent > mp && !over) {
				char b[5];
				nhis_hex_name(h, b);
				node_error(d, move->items[k],
					"entering %s brings the move to %d movement "
					"points (at most %d, the movement of '%s')",
					b, spent, mp, slowest);
				rc = -1;
				over = 1;
			}
		}
		at = h;
	}
	return rc;
}

/* Checks range and line of sight of each firing unit from hex `from` to the target. */
static int check_fire(const struct nhis_state *s, const struct nhis_options *o,
	const struct node *fire, int from, int target, const size_t *group, size_t ng,
	struct diag *d)
{
	char a[5], b[5];
	int rc = 0;
	nhis_hex_name(from, a);
	nhis_hex_name(target, b);
	if (from == target) {
		node_error(d, fire, "fire at %s, the firing units' own hex (another hex)", b);
		return -1;
	}
	int blocker;
	if (!nhis_los(&s->map, o, from, target, &blocker)) {
		char c[5];
		nhis_hex_name(blocker, c);
		node_error(d, fire,
			"no line of sight from %s to %s: blocked by %s (a hex in sight)", a, b, c);
		return -1;
	}
	int dist = nhis_distance(from, target);
	for (size_t k = 0; k < ng; k++) {
		const struct nhis_unit *u = &s->units[group[k]];
		int range = nhis_values_of(u)->range;
		if (dist > 2 * range) {
			node_error(d, fire,
				"'%s' cannot reach %s from %s: %d hexes (at most %d, twice "
				"its range %d; list the units that fire)",
				u->id, b, a, dist, 2 * range, range);
			rc = -1;
		}
	}
	return rc;
}

/* The impulse's mode (default move) into imp->mode, and what the keys allow together: a mode
 * only with a move, a move and/or a fire, fire after a move only with Charge movement. */
static int impulse_form(const struct node *e, const struct node *mode, const struct node *move,
	const struct node *fire, struct nhis_impulse *imp, struct diag *d)
{
	int rc = 0, m = NHIS_MODE_MOVE;
	if (mode) {
		if (node_want_enum(mode, "mode", nhis_mode_names, &m, d) < 0)
			rc = -1;
		else if (!move) {
			node_error(d, mode, "mode without a move (add move: a path of hexes)");
			rc = -1;
		}
	}
	imp->mode = (enum nhis_mode)m;
	if (!move && !fire) {
		node_error(d, e,
			"the impulse neither moves nor fires (move: [hexes] and/or "
			"fire: hex)");
		rc = -1;
	}
	if (move && fire && imp->mode != NHIS_MODE_CHARGE) {
		node_error(d, fire, "fire after a move needs Charge movement (mode: charge)");
		rc = -1;
	}
	return rc;
}

/* Reads and checks one impulse e of side into imp, and plays it forward on sim. group is
 * scratch room for one unit index per unit. Every field is checked whatever else is wrong:
 * with a bad activated hex (imp->hex 0) as far as the fields do not depend on where the
 * units stand; a group with a bad unit with its good ones; the move and the fire with
 * whatever units are good. */
static int parse_impulse(const struct nhis_state *s, const struct nhis_options *o, int side,
	struct sim *sim, const struct node *e, struct nhis_impulse *imp, size_t *group,
	struct diag *d)
{
	static const char *const keys[] = { "activate", "units", "move", "mode", "fire", "melee",
		NULL };
	int rc = 0;
	if (node_check_keys(e, "impulse", keys, &rc, d) < 0)
		return -1;
	const struct node *act = node_need(e, "activate", d);
	const struct node *move = node_get(e, "move");
	const struct node *fire = node_get(e, "fire");
	if (!act || nhis_want_hex(&s->map, act, "activate", &imp->hex, d) < 0) {
		rc = -1;
		imp->hex = 0;
	}
	if (impulse_form(e, node_get(e, "mode"), move, fire, imp, d) < 0)
		rc = -1;
	const struct node *melee = node_get(e, "melee");
	if (melee) {
		if (node_want_bool(melee, "melee", &imp->melee, d) < 0)
			rc = -1;
		else if (imp->melee && !move) {
			node_error(d, melee,
				"melee without a move (add move: a path ending in the "
				"enemy's hex)");
			rc = -1;
		}
	}
	size_t ng = 0;
	if (parse_group(s, side, sim, e, node_get(e, "units"), imp, group, &ng, d) < 0)
		rc = -1;
	int from = imp->hex;
	if (move) {
		if (parse_move(s, o, side, move, imp, group, ng, d) < 0) {
			rc = -1;
			from = 0; /* where a charge would fire from is not known */
		} else if (from)
			from = imp->path[imp->n_path - 1];
	}
	if (fire) {
		if (nhis_want_hex(&s->map, fire, "fire", &imp->fire, d) < 0)
			rc = -1;
		else if (from && check_fire(s, o, fire, from, imp->fire, group, ng, d) < 0)
			rc = -1;
	}
	/* The play-forward follows the impulse where it is known to act. */
	if (!imp->hex || (!move && !fire))
		return rc;
	for (size_t k = 0; k < ng; k++) {
		sim->acted[group[k]] = 1;
		sim->hex[group[k]] = from ? from : imp->hex;
	}
	return rc;
}

/* The file's `standing:` map: its opportunity-fire orders replace the side's (r->has_standing)
 * when the turn is resolved. */
static int parse_standing(const struct nhis_state *s, int side, const struct node *standing,
	struct nhis_orders *r, struct diag *d)
{
	static const char *const keys[] = { "opportunity", NULL };
	int rc = 0;
	if (node_check_keys(standing, "standing", keys, &rc, d) < 0)
		return -1;
	const struct node *opp = node_get(standing, "opportunity");
	r->has_standing = 1;
	if (opp && nhis_opportunity_parse(s, side, opp, 1, &r->opp, &r->n_opp, d) < 0)
		rc = -1;
	return rc;
}

int nhis_orders_parse(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player, const struct node *orders, const struct node *standing, struct diag *d)
{
	const struct nhis_state *s = state;
	struct nhis_options def;
	const struct nhis_options *o = c ? c->options : NULL;
	struct nhis_orders *r = xcalloc(1, sizeof(*r));
	size_t n = s->n_units ? s->n_units : 1;
	struct sim sim = { NULL, NULL };
	size_t *group = NULL;
	int rc = 0;
	(void)turn;
	*out = NULL;
	if (!o) {
		nhis_options_default(&def);
		o = &def;
	}
	int side = nhis_side_of(s, player);
	if (side < 0) {
		node_error(d, orders, "player '%s' has no side in this game (%s or %s)", player,
			s->side[0].player, s->side[1].player);
		rc = -1;
		goto done;
	}
	/* The play-forward starts where the units stand, those with a marker having acted. */
	sim.hex = xcalloc(n, sizeof(*sim.hex));
	sim.acted = xcalloc(n, 1);
	group = xcalloc(n, sizeof(*group));
	for (size_t i = 0; i < s->n_units; i++) {
		sim.hex[i] = s->units[i].hex;
		sim.acted[i] = s->units[i].markers != 0;
	}
	if (orders && node_check_seq(orders, "orders", NHIS_MAX_IMPULSES, d) < 0) {
		rc = -1;
		orders = NULL;
	}
	r->v = xcalloc(orders && orders->n ? orders->n : 1, sizeof(*r->v));
	for (size_t i = 0; orders && i < orders->n; i++) {
		struct nhis_impulse *imp = &r->v[r->n++];
		imp->index = (int)i + 1;
		if (parse_impulse(s, o, side, &sim, orders->items[i], imp, group, d) < 0)
			rc = -1;
	}
	if (standing && parse_standing(s, side, standing, r, d) < 0)
		rc = -1;
done:
	free(sim.hex);
	free(sim.acted);
	free(group);
	if (rc < 0)
		nhis_orders_free(r);
	else
		*out = r;
	return rc;
}
