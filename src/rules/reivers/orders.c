/* orders.c — Border Reivers order files: one order per group (move, herd, charge, load, fire,
 * aim; hold for hidden groups; the heidman naming a new leader) and the standing stun order,
 * checked against the state before any die. What moves can change (range, sight, reach,
 * contact) is a warning here and is decided at resolve, where an order that can no longer be
 * carried out is void with its reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/reivers/reivers.h"
#include "core/suggest.h"
#include "core/banned.h"

const char *const rv_action_names[] = { "none", "move", "herd", "charge", "load", "fire", "aim",
	"dismount", "remount", NULL };

void rv_orders_free(void *orders)
{
	struct rv_orders *o = orders;
	if (!o)
		return;
	free(o->v);
	free(o);
}

/* "no group 'id' of your side", with a did-you-mean among side's groups (core/suggest.h). */
static void no_group(struct diag *d, const struct node *g, const struct rv_state *s, int side,
	const char *id)
{
	const char **names = xcalloc(s->n_group + 1, sizeof(*names));
	struct buf hint = BUF_INIT;
	size_t k = 0;

	for (size_t j = 0; j < s->n_group; j++)
		if (s->group[j].side == side)
			names[k++] = s->group[j].id;
	suggest_append(&hint, id, names, k, 12);
	node_error(d, g, "no group '%s' of your side (one of your groups)%s", id, buf_str(&hint));
	buf_release(&hint);
	free(names);
}

static int want_figure(const struct node *n, const struct rv_state *s, int *out, struct diag *d)
{
	const char *id;
	if (node_want_id(n, "figure", &id, d) < 0)
		return -1;
	if ((*out = rv_figure_find(s, id)) < 0) {
		node_error(d, n, "no figure '%s' (a figure of the scenario)", id);
		return -1;
	}
	if (s->fig[*out].dead) {
		node_error(d, n, "figure '%s' is dead (a figure in play)", id);
		return -1;
	}
	return 0;
}

static int in_group(const struct rv_state *s, int f, int g)
{
	return s->fig[f].gi == g;
}

static int group_mounted(const struct rv_state *s, int g)
{
	for (size_t i = rv_first(s, g); i < s->n_fig; i = rv_next(s, i))
		if (!s->fig[i].dead && s->fig[i].mounted && s->fig[i].gi == g)
			return 1;
	return 0;
}

/* The figure group g is measured from at the time of checking: its leader, else (leaderless)
 * its first living figure; -1 when none is left. */
static int check_anchor(const struct rv_state *s, int g)
{
	int lead = rv_group_leader(s, g);
	for (size_t i = rv_first(s, g); lead < 0 && i < s->n_fig; i = rv_next(s, i))
		if (!s->fig[i].dead && in_group(s, (int)i, g))
			lead = (int)i;
	return lead;
}

/* The path of a move or herd: waypoints from the leader's place; horses cannot jump. */
static int parse_path(const struct node *n, const struct rv_state *s, struct rv_order *o,
	struct diag *d)
{
	int lead = check_anchor(s, o->group);
	if (node_check_seq(n, "move", RV_MAX_PATH - 1, d) < 0)
		return -1;
	if (n->n == 0) {
		node_error(d, n, "move has no points (one or more [x, y] waypoints)");
		return -1;
	}
	if (lead < 0) {
		node_error(d, n, "group '%s' has no figure left (a group in play)",
			s->group[o->group].id);
		return -1;
	}
	o->path[0] = s->fig[lead].at;
	o->n_path = 1;
	for (size_t i = 0; i < n->n; i++) {
		if (rv_want_pt(n->items[i], s, &o->path[o->n_path], d) < 0)
			return -1;
		if (group_mounted(s, o->group) &&
			rv_obstacles_crossed(s, o->path[o->n_path - 1], o->path[o->n_path]) > 0) {
			node_error(d, n->items[i],
				"the path to this point crosses a fence or wall on horseback "
				"(horses cannot jump: go round, or dismount first)");
			return -1;
		}
		o->n_path++;
	}
	return 0;
}

static int parse_place(const struct node *n, const struct rv_state *s, struct rv_order *o,
	struct diag *d)
{
	const size_t max = sizeof(o->place) / sizeof(o->place[0]);
	if (n->kind != NODE_MAP || n->n > max) {
		node_error(d, n, "place is not a map of figure: [x, y] (at most %zu)", max);
		return -1;
	}
	for (size_t i = 0; i < n->n; i++) {
		struct rv_place *p = &o->place[o->n_place];
		if (want_figure(n->keys[i], s, &p->fig, d) < 0 ||
			rv_want_pt(n->items[i], s, &p->at, d) < 0)
			return -1;
		if (!in_group(s, p->fig, o->group)) {
			node_error(d, n->keys[i], "figure '%s' is not in group '%s'",
				s->fig[p->fig].id, s->group[o->group].id);
			return -1;
		}
		if (!table_within(p->at, o->path[o->n_path - 1], RV_GROUP_RADIUS)) {
			node_error(d, n->items[i],
				"figure '%s' would stand more than 6\" from "
				"the leader's end point (within 6\", §Movement)",
				s->fig[p->fig].id);
			return -1;
		}
		o->n_place++;
	}
	return 0;
}

/* An enemy figure in play that side may see: another side's hidden figure is refused as an
 * unknown one is, word for word, so that the check tells nothing of it (§Sequence of Play). */
static int want_enemy(const struct node *n, const struct rv_state *s, int side, int *out,
	struct diag *d)
{
	const char *id;
	if (node_want_id(n, "figure", &id, d) < 0)
		return -1;
	*out = rv_figure_find(s, id);
	if (*out >= 0 && rv_hidden_from(s, *out, side)) {
		node_error(d, n, "no figure '%s' (a figure of the scenario)", id);
		return -1;
	}
	if (want_figure(n, s, out, d) < 0)
		return -1;
	if (s->fig[*out].side == side) {
		node_error(d, n, "figure '%s' is on your own side (an enemy figure)",
			s->fig[*out].id);
		return -1;
	}
	return 0;
}

static int parse_herd(const struct node *n, const struct rv_state *s, struct rv_order *o,
	struct diag *d)
{
	const char *id;
	if (node_check_seq(n, "herd", 8, d) < 0)
		return -1;
	if (n->n == 0) {
		node_error(d, n, "herd lists no animals (one to eight animal ids)");
		return -1;
	}
	for (size_t i = 0; i < n->n; i++) {
		if (node_want_id(n->items[i], "animal", &id, d) < 0)
			return -1;
		int a = rv_animal_find(s, id);
		if (a < 0) {
			node_error(d, n->items[i], "no animal '%s' (an animal of the scenario)",
				id);
			return -1;
		}
		for (size_t j = 0; j < o->n_animals; j++)
			if (o->animals[j] == a) {
				node_error(d, n->items[i],
					"animal '%s' is listed twice (each once)", id);
				return -1;
			}
		o->animals[o->n_animals++] = a;
	}
	return 0;
}

static int parse_appoint(const struct node *n, const struct rv_state *s, int side,
	struct rv_order *o, struct diag *d)
{
	static const char *const keys[] = { "group", "leader", NULL };
	const struct node *g, *l;
	const char *id;
	if (node_check_map(n, "appoint", keys, d) < 0 || !(g = node_need(n, "group", d)) ||
		!(l = node_need(n, "leader", d)) || node_want_id(g, "group", &id, d) < 0)
		return -1;
	if ((o->appoint_group = rv_group_find(s, side, id)) < 0) {
		no_group(d, g, s, side, id);
		return -1;
	}
	if (want_figure(l, s, &o->appoint, d) < 0)
		return -1;
	if (!in_group(s, o->appoint, o->appoint_group)) {
		node_error(d, l, "figure '%s' is not in group '%s'", s->fig[o->appoint].id, id);
		return -1;
	}
	int h = s->heidman[side];
	if (h < 0 || !in_group(s, h, o->group)) {
		node_error(d, n, "only the heidman's group names a new leader (§New Leader)");
		return -1;
	}
	return 0;
}

/* The one action of an order, from whichever action key it has. */
static int parse_action(const struct node *n, const struct rv_state *s, int side,
	struct rv_order *o, struct diag *d)
{
	static const char *const acts[] = { "move", "herd", "charge", "load", "fire", "aim",
		"dismount", "remount", NULL };
	const struct node *a = NULL;
	int which = -1, b;
	for (int i = 0; acts[i]; i++)
		if (node_get(n, acts[i])) {
			if (a) {
				node_error(d, node_get(n, acts[i]),
					"a second action '%s' (one action per group a turn: %s)",
					acts[i],
					"move, herd, charge, load, fire, aim, dismount or remount");
				return -1;
			}
			a = node_get(n, acts[i]);
			which = i;
		}
	if (!a)
		return 0;
	o->action = (enum rv_action)(which + 1);
	switch (o->action) {
	case RV_HERD:
		if (parse_herd(a, s, o, d) < 0)
			return -1;
		if (!node_get(n, "path")) {
			node_error(d, a, "herd has no path (path: [[x, y], ...])");
			return -1;
		}
		return parse_path(node_get(n, "path"), s, o, d);
	case RV_MOVE:
		return parse_path(a, s, o, d);
	case RV_CHARGE:
	case RV_FIRE:
	case RV_AIM:
		return want_enemy(a, s, side, &o->target, d);
	case RV_LOAD:
	case RV_DISMOUNT:
	case RV_REMOUNT:
		if (node_want_bool(a, acts[which], &b, d) < 0)
			return -1;
		if (!b)
			o->action = RV_NONE;
		return 0;
	default:
		return 0;
	}
}

/* ---- check-time warnings: legal orders that, on the table as it stands, would not go as
 * planned. Things move before an order's card comes, so these never refuse a file. ---- */

/* A length in tenths as inches for a message: "12.5\"". */
static void inches(char *out, size_t len, int64_t tenths)
{
	snprintf(out, len, "%lld.%lld\"", (long long)(tenths / RV_INCH),
		(long long)(tenths % RV_INCH));
}

/* §Firing: fire or aim at a figure no loaded shooter of the group has in range and sight. */
static void warn_shot(const struct node *n, const struct rv_state *s, const struct rv_order *o,
	struct diag *d)
{
	const struct rv_figure *t = &s->fig[o->target];
	int missile = 0, loaded = 0, sight = 0, reach = 0;
	int64_t best = -1, near = -1;
	for (size_t i = rv_first(s, o->group); i < s->n_fig; i = rv_next(s, i)) {
		const struct rv_figure *f = &s->fig[i];
		if (f->dead || !in_group(s, (int)i, o->group) || f->weapon == RV_HAND)
			continue;
		missile = 1;
		if (f->reload > 0)
			continue;
		loaded = 1;
		if (!rv_los(s, f->at, t->at))
			continue;
		sight = 1;
		reach |= table_within(f->at, t->at, rv_weapons[f->weapon].range);
		if (rv_weapons[f->weapon].range > best)
			best = rv_weapons[f->weapon].range;
		if (near < 0 || table_length_round(f->at, t->at) < near)
			near = table_length_round(f->at, t->at);
	}
	char a[32], b[32];
	if (!missile)
		node_warn(d, n, "group '%s' has no missile weapon: the order will be void",
			s->group[o->group].id);
	else if (!loaded)
		node_warn(d, n,
			"no missile weapon of group '%s' is loaded (load first): the order "
			"will be void",
			s->group[o->group].id);
	else if (!sight)
		node_warn(d, n,
			"no loaded shooter of group '%s' has a line of sight to '%s' now "
			"(things may move before its card)",
			s->group[o->group].id, t->id);
	else if (!reach) {
		inches(a, sizeof(a), near);
		inches(b, sizeof(b), best);
		node_warn(d, n,
			"'%s' is out of range now: %s from the nearest loaded shooter of "
			"group '%s', whose long range is at most %s (things may move before its "
			"card)",
			t->id, a, s->group[o->group].id, b);
	}
}

/* §Charging, §Movement: a charge the leader cannot complete on his best roll (12" foot, 18"
 * mounted; half speed in woods and water, 3" a fence or wall), or that horses cannot jump. */
static void warn_charge(const struct node *n, const struct rv_state *s, const struct rv_order *o,
	struct diag *d)
{
	int lead = check_anchor(s, o->group);
	if (lead < 0)
		return;
	const struct rv_figure *f = &s->fig[lead], *t = &s->fig[o->target];
	struct table_pt w[2] = { f->at, t->at }, end;
	int most = (f->mounted ? 18 : 12) * RV_INCH;
	char a[32], b[32];
	if (f->mounted && rv_obstacles_crossed(s, w[0], w[1]) > 0) {
		node_warn(d, n,
			"a fence or wall lies between '%s' and '%s' and horses cannot jump: "
			"the charge will be void if it is still there",
			f->id, t->id);
		return;
	}
	if (rv_move_along(s, w, 2, most, &end) || table_within(end, t->at, RV_CONTACT))
		return;
	inches(a, sizeof(a), table_length_round(f->at, t->at));
	inches(b, sizeof(b), most);
	node_warn(d, n,
		"the charge cannot reach '%s' now: %s away, and %s is at most %s %s "
		"(things may move before its card)",
		t->id, a, f->id, b, f->mounted ? "mounted" : "on foot");
}

/* §Herding: an animal no figure of the group is in base contact with. */
static void warn_herd(const struct node *n, const struct rv_state *s, const struct rv_order *o,
	struct diag *d)
{
	for (size_t k = 0; k < o->n_animals; k++) {
		int touch = 0;
		for (size_t i = rv_first(s, o->group); i < s->n_fig; i = rv_next(s, i))
			touch |= !s->fig[i].dead && in_group(s, (int)i, o->group) &&
				 table_within(s->fig[i].at, s->animal[o->animals[k]].at,
					 RV_CONTACT);
		if (!touch)
			node_warn(d, n->kind == NODE_SEQ && k < n->n ? n->items[k] : n,
				"no figure of group '%s' is in base contact with '%s' now (within 1\"): "
				"the herd order will be void unless the beast comes to them",
				s->group[o->group].id, s->animal[o->animals[k]].id);
	}
}

/* Remounting: a dismount with no one mounted, a remount with no one on foot beside a loose
 * horse standing still. */
static void warn_horses(const struct node *n, const struct rv_state *s, const struct rv_order *o,
	struct diag *d)
{
	int able = 0;
	for (size_t i = rv_first(s, o->group); i < s->n_fig; i = rv_next(s, i)) {
		const struct rv_figure *f = &s->fig[i];
		if (f->dead || !in_group(s, (int)i, o->group))
			continue;
		if (o->action == RV_DISMOUNT)
			able |= f->mounted;
		for (size_t k = 0; o->action == RV_REMOUNT && !f->mounted && k < s->n_animal; k++)
			able |= s->animal[k].kind == RV_HORSE && !s->animal[k].spooked &&
				table_within(f->at, s->animal[k].at, RV_CONTACT);
	}
	if (!able)
		node_warn(d, n, "%s",
			o->action == RV_DISMOUNT ?
				"no figure of the group is mounted now: the order will be void" :
				"no figure of the group is on foot within 1\" of a loose horse "
				"standing still now: the order will be void unless one comes to "
				"them");
}

static void warn_order(const struct node *n, const struct rv_state *s, const struct rv_order *o,
	struct diag *d)
{
	if (o->action == RV_DISMOUNT || o->action == RV_REMOUNT) {
		warn_horses(node_get(n, o->action == RV_DISMOUNT ? "dismount" : "remount"), s, o,
			d);
		return;
	}
	static const char *const keys[] = { [RV_HERD] = "herd",
		[RV_CHARGE] = "charge",
		[RV_FIRE] = "fire",
		[RV_AIM] = "aim" };
	if (o->action != RV_HERD && o->action != RV_CHARGE && o->action != RV_FIRE &&
		o->action != RV_AIM)
		return;
	const struct node *a = node_get(n, keys[o->action]);
	if (!a)
		return;
	if (o->action == RV_CHARGE)
		warn_charge(a, s, o, d);
	else if (o->action == RV_HERD)
		warn_herd(a, s, o, d);
	else
		warn_shot(a, s, o, d);
}

static int parse_order(const struct node *n, const struct rv_state *s, int side, struct rv_order *o,
	struct diag *d)
{
	static const char *const keys[] = { "group", "move", "herd", "path", "charge", "load",
		"fire", "aim", "dismount", "remount", "place", "hold", "appoint", NULL };
	const struct node *g, *x;
	const char *id;
	int bad = 0;
	o->target = o->appoint = o->appoint_group = -1;
	if (node_check_keys(n, "order", keys, &bad, d) < 0 || !(g = node_need(n, "group", d)) ||
		node_want_id(g, "group", &id, d) < 0)
		return -1;
	if ((o->group = rv_group_find(s, side, id)) < 0) {
		no_group(d, g, s, side, id);
		return -1;
	}
	if (parse_action(n, s, side, o, d) < 0)
		return -1;
	if ((x = node_get(n, "path")) && o->action != RV_HERD) {
		node_error(d, x, "path goes with herd (for a move, give the points to move)");
		return -1;
	}
	if ((x = node_get(n, "place"))) {
		if (o->action != RV_MOVE && o->action != RV_HERD) {
			node_error(d, x, "place goes with move or herd");
			return -1;
		}
		if (parse_place(x, s, o, d) < 0)
			return -1;
	}
	if ((x = node_get(n, "hold"))) {
		if (node_want_bool(x, "hold", &o->hold, d) < 0)
			return -1;
		if (o->hold && !s->group[o->group].hidden) {
			node_error(d, x, "group '%s' is not hidden (only hidden groups may hold)",
				id);
			return -1;
		}
	}
	if ((x = node_get(n, "appoint")) && parse_appoint(x, s, side, o, d) < 0)
		return -1;
	if (bad == 0)
		warn_order(n, s, o, d);
	return bad;
}

static int parse_standing(const struct node *n, struct rv_orders *o, struct diag *d)
{
	static const char *const keys[] = { "stun", NULL };
	const struct node *x;
	if (node_check_map(n, "standing", keys, d) < 0)
		return -1;
	if ((x = node_get(n, "stun")) && node_want_bool(x, "stun", &o->stun, d) < 0)
		return -1;
	return 0;
}

int rv_orders_parse(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player, const struct node *orders, const struct node *standing, struct diag *d)
{
	const struct rv_state *s = state;
	struct rv_orders *o = xcalloc(1, sizeof(*o));
	int rc = 0;
	(void)turn;
	*out = NULL;
	o->side = rv_side_of(c, player);
	if (o->side < 0 || node_check_seq(orders, "orders", RV_MAX_ORDERS, d) < 0) {
		if (o->side < 0)
			node_error(d, orders, "'%s' is not a player of the campaign", player);
		rv_orders_free(o);
		return -1;
	}
	o->v = xcalloc(orders->n + 1, sizeof(*o->v));
	for (size_t i = 0; i < orders->n; i++) {
		struct rv_order *r = &o->v[o->n];
		/* The slot of a refused order is reused: clear what its parse left behind. */
		memset(r, 0, sizeof(*r));
		r->index = (int)i + 1;
		if (parse_order(orders->items[i], s, o->side, r, d) < 0) {
			rc = -1;
			continue;
		}
		for (size_t j = 0; j < o->n; j++)
			if (o->v[j].group == r->group) {
				node_error(d, orders->items[i],
					"group '%s' has a second order (one order per group a turn)",
					s->group[r->group].id);
				rc = -1;
			}
		o->n++;
	}
	if (standing && parse_standing(standing, o, d) < 0)
		rc = -1;
	if (rc < 0) {
		rv_orders_free(o);
		return -1;
	}
	*out = o;
	return 0;
}
