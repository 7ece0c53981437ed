/* state.c — Border Reivers options and game state: the table, its terrain (areas and lines),
 * groups, figures, animals and melees going on, parsed from a scenario's or state.yaml's
 * `game:` with every problem reported at its node, and emitted in canonical order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/reivers/reivers.h"
#include "core/banned.h"

const char *const rv_class_names[] = { "poltroon", "regular", "veteran", "fyrebrande", NULL };
const char *const rv_band_names[] = { "beyond", "long", "close", NULL };
const char *const rv_role_names[] = { "figure", "leader", "heidman", NULL };
const char *const rv_weapon_names[] = { "hand", "dagg", "hackbutt", "caliver", "latch", "longbow",
	NULL };
const char *const rv_armour_names[] = { "helmet", "back-breast", "plates", "jack", "shield", NULL };
const char *const rv_feature_names[] = { "woods", "water", "building", "rough", "field", NULL };
const char *const rv_cover_names[] = { "none", "part", "whole", NULL };
const char *const rv_mcover_names[] = { "none", "soft", "hard", NULL };
const char *const rv_line_names[] = { "road", "fence", "wall", NULL };
const char *const rv_animal_names[] = { "cattle", "sheep", "horse", NULL };
const char *const rv_morale_names[] = { "steady", "shaken", "broken", NULL };
static const char *const spook_first_names[] = { "game", "horse", NULL };
static const char *const spook_test_names[] = { "volley", "discharge", NULL };

/* Border Reivers §Firing, the weapons table: reload, close and long range in tenths. */
const struct rv_weapon_row rv_weapons[] = {
	[RV_HAND] = { 0, 0, 0, 0 },
	[RV_DAGG] = { 2, 30, 60, 1 },
	[RV_HACKBUTT] = { 2, 90, 180, 1 },
	[RV_CALIVER] = { 2, 120, 240, 1 },
	[RV_LATCH] = { 2, 90, 180, 0 },
	[RV_LONGBOW] = { 0, 120, 240, 0 },
};

/* ---- options ---- */

void rv_options_default(struct rv_options *o)
{
	o->spook_first = RV_FIRST_GAME;
	o->herd_die = 10;
	o->spot_range = RV_SPOT_RANGE;
}

/* `victory: {raider: PLAYER, animals: N}` (docs/rules/reivers.md "Victory"); that the
 * raider is a side is checked with the state (rv_state_parse), which knows the players. */
static int parse_victory(const struct node *n, struct rv_options *o, struct diag *d)
{
	static const char *const keys[] = { "raider", "animals", NULL };
	const char *id;
	long long v;
	int bad = 0, rc = 0;

	if (node_check_keys(n, "victory", keys, &bad, d) < 0)
		return -1;
	if (node_want_player_id(node_need(n, "raider", d), "victory raider", &id, d) < 0)
		rc = -1;
	else
		snprintf(o->raider, sizeof(o->raider), "%s", id);
	if (node_want_int(node_need(n, "animals", d), "victory animals", 1, RV_MAX_ANIMALS, &v, d) <
		0)
		rc = -1;
	else
		o->victory_animals = (int)v;
	return rc < 0 || bad < 0 ? -1 : 0;
}

int rv_options_parse(void **out, const struct node *opts, struct diag *d)
{
	static const char *const keys[] = { "spook-first", "herd-die", "spook-test",
		"remount-horses", "spot-range", "victory", NULL };
	static const char *const remount_names[] = { "any", "own", NULL };
	static const char *const die_names[] = { "d10", "d6", NULL };
	struct rv_options *o = xcalloc(1, sizeof(*o));
	const struct node *n;
	int rc = 0, e, bad = 0;
	rv_options_default(o);
	*out = o;
	if (!opts)
		return 0;
	/* A refusal frees what it parsed and leaves *out NULL, as every rule system's does. */
	*out = NULL;
	if (node_check_keys(opts, "options", keys, &bad, d) < 0) {
		free(o);
		return -1;
	}
	if ((n = node_get(opts, "spook-first"))) {
		if (node_want_enum(n, "spook-first", spook_first_names, &e, d) < 0)
			rc = -1;
		else
			o->spook_first = (enum rv_spook_first)e;
	}
	if ((n = node_get(opts, "spook-test"))) {
		if (node_want_enum(n, "spook-test", spook_test_names, &e, d) < 0)
			rc = -1;
		else
			o->spook_each = e;
	}
	if ((n = node_get(opts, "remount-horses"))) {
		if (node_want_enum(n, "remount-horses", remount_names, &e, d) < 0)
			rc = -1;
		else
			o->remount_own = e;
	}
	if ((n = node_get(opts, "herd-die"))) {
		if (node_want_enum(n, "herd-die", die_names, &e, d) < 0)
			rc = -1;
		else
			o->herd_die = e == 0 ? 10 : 6;
	}
	if ((n = node_get(opts, "spot-range"))) {
		long long v;
		if (node_want_int(n, "spot-range", 0, RV_COORD_MAX / RV_INCH, &v, d) < 0)
			rc = -1;
		else
			o->spot_range = (int)v * RV_INCH;
	}
	if ((n = node_get(opts, "victory")) && parse_victory(n, o, d) < 0)
		rc = -1;
	if (rc < 0 || bad < 0) {
		free(o);
		return -1;
	}
	*out = o;
	return 0;
}

struct node *rv_options_emit(const void *opts)
{
	struct rv_options def;
	const struct rv_options *o = opts;
	if (!o) {
		rv_options_default(&def);
		o = &def;
	}
	struct node *m = node_new_map();
	node_map_str(m, "spook-first", spook_first_names[o->spook_first]);
	node_map_str(m, "spook-test", spook_test_names[o->spook_each]);
	node_map_str(m, "herd-die", o->herd_die == 6 ? "d6" : "d10");
	node_map_str(m, "remount-horses", o->remount_own ? "own" : "any");
	node_map_int(m, "spot-range", o->spot_range / RV_INCH);
	if (o->raider[0]) {
		struct node *v = node_map_add(m, "victory", node_new_map());
		node_map_str(v, "raider", o->raider);
		node_map_int(v, "animals", o->victory_animals);
	}
	return m;
}

void rv_options_free(void *opts)
{
	free(opts);
}

/* ---- lookups ---- */

/* FNV-1a of an id: where its look-up starts in an index (ids only, never pointers). */
static size_t id_hash(const char *id)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)id; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

/* An index with room for N ids (at most half full). */
static uint32_t *index_new(size_t n, size_t *mask)
{
	size_t cap = 16;
	while (cap < 2 * n)
		cap *= 2;
	*mask = cap - 1;
	return xcalloc(cap, sizeof(uint32_t));
}

static void index_add(uint32_t *ix, size_t mask, const char *id, size_t i)
{
	size_t k = id_hash(id) & mask;
	while (ix[k])
		k = (k + 1) & mask;
	ix[k] = (uint32_t)i + 1;
}

int rv_figure_find(const struct rv_state *s, const char *id)
{
	if (!s->fig_ix)
		return -1;
	for (size_t k = id_hash(id) & s->fig_mask; s->fig_ix[k]; k = (k + 1) & s->fig_mask)
		if (strcmp(s->fig[s->fig_ix[k] - 1].id, id) == 0)
			return (int)s->fig_ix[k] - 1;
	return -1;
}

/* Group ids are unique (parse_group), so the one with ID is the group or there is none. */
int rv_group_find(const struct rv_state *s, int side, const char *id)
{
	if (!s->group_ix)
		return -1;
	for (size_t k = id_hash(id) & s->group_mask; s->group_ix[k]; k = (k + 1) & s->group_mask) {
		const struct rv_group *g = &s->group[s->group_ix[k] - 1];
		if (strcmp(g->id, id) == 0)
			return side < 0 || g->side == side ? (int)s->group_ix[k] - 1 : -1;
	}
	return -1;
}

int rv_hidden_from(const struct rv_state *s, int f, int side)
{
	int g = s->fig[f].gi;
	return s->fig[f].side != side && g >= 0 && s->group[g].hidden;
}

int rv_animal_find(const struct rv_state *s, const char *id)
{
	for (size_t i = 0; i < s->n_animal; i++)
		if (strcmp(s->animal[i].id, id) == 0)
			return (int)i;
	return -1;
}

int rv_group_leader(const struct rv_state *s, int g)
{
	for (size_t i = rv_first(s, g); i < s->n_fig; i = rv_next(s, i))
		if (!s->fig[i].dead && s->fig[i].role != RV_FIGURE && s->fig[i].gi == g)
			return (int)i;
	return -1;
}

int rv_side_of(const struct rules_campaign *c, const char *player)
{
	for (size_t i = 0; player && i < c->n_players; i++)
		if (strcmp(c->players[i], player) == 0)
			return (int)i;
	return -1;
}

/* ---- parsing pieces ---- */

int rv_want_pt(const struct node *n, const struct rv_state *s, struct table_pt *out, struct diag *d)
{
	long long x, y;
	if (n->kind != NODE_SEQ || n->n != 2) {
		node_error(d, n, "a point is not [x, y] (two lengths in tenths of an inch)");
		return -1;
	}
	if (node_want_int(n->items[0], "x", 0, s->width, &x, d) < 0 ||
		node_want_int(n->items[1], "y", 0, s->height, &y, d) < 0)
		return -1;
	out->x = (int32_t)x;
	out->y = (int32_t)y;
	return 0;
}

static int want_id(const struct node *map, const char *key, char *out, struct diag *d)
{
	const struct node *n = node_need(map, key, d);
	const char *s;
	if (!n || node_want_id(n, key, &s, d) < 0)
		return -1;
	snprintf(out, RV_ID_LEN + 1, "%s", s);
	return 0;
}

/* An optional enum / int / bool: absent leaves *out. */
static int opt_enum(const struct node *map, const char *key, const char *const *names, int *out,
	struct diag *d)
{
	const struct node *n = node_get(map, key);
	return n ? node_want_enum(n, key, names, out, d) : 0;
}

static int opt_int(const struct node *map, const char *key, long long max, int *out, struct diag *d)
{
	const struct node *n = node_get(map, key);
	long long v;
	if (!n)
		return 0;
	if (node_want_int(n, key, 0, max, &v, d) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

static int opt_bool(const struct node *map, const char *key, int *out, struct diag *d)
{
	const struct node *n = node_get(map, key);
	return n ? node_want_bool(n, key, out, d) : 0;
}

static int parse_points(const struct node *n, struct rv_state *s, struct rv_feature_def *f,
	struct diag *d)
{
	if (node_check_seq(n, "points", RV_MAX_POINTS, d) < 0)
		return -1;
	f->n = 0;
	for (size_t i = 0; i < n->n; i++)
		if (rv_want_pt(n->items[i], s, &f->v[f->n++], d) < 0)
			return -1;
	size_t at = 0;
	int e;
	if (f->is_line) {
		struct table_line l = { f->v, f->n };
		e = table_line_check(&l, &at);
	} else {
		struct table_poly p = { f->v, f->n };
		e = table_poly_check(&p, &at);
	}
	if (e != 0) {
		node_error(d, n->items[at < n->n ? at : 0],
			"terrain '%s' is not a valid %s here (%s)", f->id,
			f->is_line ? "line" : "area",
			f->is_line ? "at least 2 points, none repeated" :
				     "at least 3 points, a simple polygon");
		return -1;
	}
	return 0;
}

static int parse_feature(const struct node *n, struct rv_state *s, struct diag *d)
{
	static const char *const keys[] = { "id", "kind", "blocks-los", "cover", "melee-cover",
		"area", "line", NULL };
	static const char *const kinds[] = { "woods", "water", "building", "rough", "field", "road",
		"fence", "wall", NULL };
	struct rv_feature_def *f = &s->feat[s->n_feat];
	int bad = 0, k, c = 0, m = 0;
	memset(f, 0, sizeof(*f));
	if (node_check_keys(n, "terrain", keys, &bad, d) < 0)
		return -1;
	const struct node *kn = node_need(n, "kind", d);
	if (want_id(n, "id", f->id, d) < 0 || !kn || node_want_enum(kn, "kind", kinds, &k, d) < 0)
		return -1;
	f->is_line = k >= 5;
	f->kind = f->is_line ? k - 5 : k;
	f->blocks_los = !f->is_line && (f->kind == RV_WOODS || f->kind == RV_BUILDING);
	if (opt_bool(n, "blocks-los", &f->blocks_los, d) < 0 ||
		opt_enum(n, "cover", rv_cover_names, &c, d) < 0 ||
		opt_enum(n, "melee-cover", rv_mcover_names, &m, d) < 0)
		bad = -1;
	f->cover = (enum rv_cover)c;
	f->mcover = (enum rv_mcover)m;
	const char *want = f->is_line ? "line" : "area";
	const struct node *pts = node_get(n, want);
	if (!pts) {
		node_error(d, n, "terrain '%s' of kind %s has no '%s' (its points)", f->id,
			kinds[k], want);
		return -1;
	}
	if (node_get(n, f->is_line ? "area" : "line")) {
		node_error(d, n, "terrain '%s' of kind %s has '%s' (only '%s')", f->id, kinds[k],
			f->is_line ? "area" : "line", want);
		return -1;
	}
	if (parse_points(pts, s, f, d) < 0 || bad < 0)
		return -1;
	s->n_feat++;
	return 0;
}

static int parse_group(const struct node *n, const struct rules_campaign *c, struct rv_state *s,
	struct diag *d)
{
	static const char *const keys[] = { "id", "side", "morale", "lost", "unchecked",
		"leader-killed", "passed-turn", "hidden", NULL };
	struct rv_group *g = &s->group[s->n_group];
	const char *side;
	int bad = 0, m = 0;
	memset(g, 0, sizeof(*g));
	if (node_check_keys(n, "group", keys, &bad, d) < 0 || want_id(n, "id", g->id, d) < 0)
		return -1;
	const struct node *sn = node_need(n, "side", d);
	if (!sn || node_want_id(sn, "side", &side, d) < 0)
		return -1;
	if ((g->side = rv_side_of(c, side)) < 0) {
		node_error(d, sn, "side '%s' is not a player of the campaign", side);
		return -1;
	}
	if (rv_group_find(s, -1, g->id) >= 0) {
		node_error(d, n, "group '%s' is listed twice (each once)", g->id);
		return -1;
	}
	if (opt_enum(n, "morale", rv_morale_names, &m, d) < 0 ||
		opt_int(n, "lost", RV_MAX_FIGURES, &g->lost, d) < 0 ||
		opt_int(n, "unchecked", RV_MAX_FIGURES, &g->unchecked, d) < 0 ||
		opt_bool(n, "leader-killed", &g->leader_killed, d) < 0 ||
		opt_int(n, "passed-turn", 1000000, &g->passed_turn, d) < 0 ||
		opt_bool(n, "hidden", &g->hidden, d) < 0)
		bad = -1;
	g->morale = (enum rv_morale)m;
	index_add(s->group_ix, s->group_mask, g->id, s->n_group);
	s->n_group++;
	return bad;
}

static int parse_armour(const struct node *n, struct rv_figure *f, struct diag *d)
{
	int a;
	if (node_check_seq(n, "armour", 2 * RV_N_ARMOUR, d) < 0)
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		if (node_want_enum(n->items[i], "armour", rv_armour_names, &a, d) < 0)
			return -1;
		if (f->armour[a]) {
			node_error(d, n->items[i], "armour '%s' is listed twice (each item once)",
				rv_armour_names[a]);
			return -1;
		}
		f->armour[a] = 1;
	}
	return 0;
}

/* §Melee, shield front only: an optional facing [dx, dy], a direction in tenths. */
static int opt_facing(const struct node *map, struct rv_figure *f, struct diag *d)
{
	const struct node *n = node_get(map, "facing");
	long long x, y;
	if (!n)
		return 0;
	if (n->kind != NODE_SEQ || n->n != 2) {
		node_error(d, n, "a facing is not [dx, dy] (a direction in tenths of an inch)");
		return -1;
	}
	if (node_want_int(n->items[0], "dx", -RV_COORD_MAX, RV_COORD_MAX, &x, d) < 0 ||
		node_want_int(n->items[1], "dy", -RV_COORD_MAX, RV_COORD_MAX, &y, d) < 0)
		return -1;
	f->face_dx = (int32_t)x;
	f->face_dy = (int32_t)y;
	return 0;
}

static int figure_fields(const struct node *n, struct rv_figure *f, struct diag *d)
{
	int r = 0, c = RV_REGULAR, w = 0;
	if (opt_enum(n, "role", rv_role_names, &r, d) < 0 ||
		opt_enum(n, "class", rv_class_names, &c, d) < 0 ||
		opt_enum(n, "weapon", rv_weapon_names, &w, d) < 0 ||
		opt_bool(n, "mounted", &f->mounted, d) < 0 ||
		opt_bool(n, "horse-spooked", &f->horse_spooked, d) < 0 ||
		opt_int(n, "reload", 2, &f->reload, d) < 0 ||
		opt_int(n, "loaded-turn", 1000000, &f->loaded_turn, d) < 0 ||
		opt_int(n, "hits", 3, &f->hits, d) < 0 || opt_bool(n, "dead", &f->dead, d) < 0 ||
		opt_int(n, "stunned-until", 1000000, &f->stunned_until, d) < 0 ||
		opt_int(n, "aim-turn", 1000000, &f->aim_turn, d) < 0 || opt_facing(n, f, d) < 0)
		return -1;
	f->role = (enum rv_role)r;
	f->cls = (enum rv_class)c;
	f->weapon = (enum rv_weapon)w;
	const struct node *a = node_get(n, "armour");
	return a ? parse_armour(a, f, d) : 0;
}

static int parse_figure(const struct node *n, struct rv_state *s, struct diag *d)
{
	static const char *const keys[] = { "id", "group", "role", "class", "mounted",
		"horse-spooked", "weapon", "reload", "loaded-turn", "armour", "hits", "dead",
		"stunned-until", "aim-turn", "horse", "at", "facing", NULL };
	struct rv_figure *f = &s->fig[s->n_fig];
	int bad = 0;
	memset(f, 0, sizeof(*f));
	if (node_check_keys(n, "figure", keys, &bad, d) < 0 || want_id(n, "id", f->id, d) < 0 ||
		want_id(n, "group", f->group, d) < 0)
		return -1;
	if (rv_figure_find(s, f->id) >= 0) {
		node_error(d, n, "figure '%s' is listed twice (each once)", f->id);
		return -1;
	}
	int g = rv_group_find(s, -1, f->group);
	if (g < 0) {
		node_error(d, node_get(n, "group"), "no group '%s' (a group of 'groups')",
			f->group);
		return -1;
	}
	f->side = s->group[g].side;
	f->gi = g;
	const struct node *at = node_need(n, "at", d), *hn = node_get(n, "horse");
	if (figure_fields(n, f, d) < 0 || !at || rv_want_pt(at, s, &f->at, d) < 0 ||
		(hn && want_id(n, "horse", f->horse, d) < 0))
		return -1;
	if (hn && !f->mounted) {
		node_error(d, hn, "figure '%s' is on foot (a horse goes with mounted: true)",
			f->id);
		return -1;
	}
	if (f->role == RV_HEIDMAN) {
		if (s->heidman[f->side] >= 0) {
			node_error(d, n, "a second heidman '%s' for one side (one a side)", f->id);
			return -1;
		}
		s->heidman[f->side] = (int)s->n_fig;
	}
	index_add(s->fig_ix, s->fig_mask, f->id, s->n_fig);
	s->n_fig++;
	return bad;
}

static int parse_animal(const struct node *n, const struct rules_campaign *c, struct rv_state *s,
	struct diag *d)
{
	static const char *const keys[] = { "id", "kind", "spooked", "owner", "at", NULL };
	struct rv_animal_def *a = &s->animal[s->n_animal];
	int bad = 0, k;
	memset(a, 0, sizeof(*a));
	a->owner = -1;
	if (node_check_keys(n, "animal", keys, &bad, d) < 0 || want_id(n, "id", a->id, d) < 0)
		return -1;
	const struct node *kn = node_need(n, "kind", d), *at = node_need(n, "at", d);
	if (!kn || node_want_enum(kn, "kind", rv_animal_names, &k, d) < 0 || !at ||
		rv_want_pt(at, s, &a->at, d) < 0 || opt_bool(n, "spooked", &a->spooked, d) < 0)
		return -1;
	a->kind = (enum rv_animal)k;
	const struct node *on = node_get(n, "owner");
	const char *owner;
	if (on) {
		if (node_want_id(on, "owner", &owner, d) < 0)
			return -1;
		if ((a->owner = rv_side_of(c, owner)) < 0) {
			node_error(d, on, "owner '%s' is not a player of the campaign", owner);
			return -1;
		}
	}
	if (rv_animal_find(s, a->id) >= 0 || rv_figure_find(s, a->id) >= 0) {
		node_error(d, n, "animal '%s': the id is taken (ids are unique)", a->id);
		return -1;
	}
	s->n_animal++;
	return bad;
}

static int want_fig(const struct node *n, const struct rv_state *s, int *out, struct diag *d)
{
	const char *id;
	if (node_want_id(n, "figure", &id, d) < 0)
		return -1;
	if ((*out = rv_figure_find(s, id)) < 0) {
		node_error(d, n, "no figure '%s' (a figure of 'figures')", id);
		return -1;
	}
	return 0;
}

static int parse_melee(const struct node *n, struct rv_state *s, struct diag *d)
{
	static const char *const keys[] = { "attackers", "defender", "started", NULL };
	struct rv_melee *m = &s->melee[s->n_melee];
	int bad = 0;
	m->attackers[0] = m->attackers[1] = m->attackers[2] = -1;
	if (node_check_keys(n, "melee", keys, &bad, d) < 0)
		return -1;
	const struct node *a = node_need(n, "attackers", d), *df = node_need(n, "defender", d);
	if (!a || !df || node_check_seq(a, "attackers", 3, d) < 0 || a->n == 0 ||
		want_fig(df, s, &m->defender, d) < 0)
		return -1;
	for (size_t i = 0; i < a->n; i++)
		if (want_fig(a->items[i], s, &m->attackers[i], d) < 0)
			return -1;
	if (opt_int(n, "started", 1000000, &m->started, d) < 0)
		return -1;
	s->n_melee++;
	return bad;
}

/* Parses the list at key with one(), bounded by max. */
/* Room for the items of the list KEY of GAME: its length, at most MAX (parse_list refuses a
 * longer one before any item is read), at least 1. */
static size_t list_room(const struct node *game, const char *key, size_t max)
{
	const struct node *l = game ? node_get(game, key) : NULL;
	size_t n = l && l->kind == NODE_SEQ ? l->n : 0;
	return n < 1 ? 1 : n > max ? max : n;
}

static int parse_list(const struct node *game, const char *key, size_t max, int need,
	int (*one)(const struct node *, const struct rules_campaign *, struct rv_state *,
		struct diag *),
	const struct rules_campaign *c, struct rv_state *s, struct diag *d)
{
	const struct node *l = need ? node_need(game, key, d) : node_get(game, key);
	int rc = 0;
	if (!l)
		return need ? -1 : 0;
	if (node_check_seq(l, key, max, d) < 0)
		return -1;
	for (size_t i = 0; i < l->n; i++)
		if (one(l->items[i], c, s, d) < 0)
			rc = -1;
	return rc;
}

static int one_feature(const struct node *n, const struct rules_campaign *c, struct rv_state *s,
	struct diag *d)
{
	(void)c;
	return parse_feature(n, s, d);
}
static int one_figure(const struct node *n, const struct rules_campaign *c, struct rv_state *s,
	struct diag *d)
{
	(void)c;
	return parse_figure(n, s, d);
}
static int one_melee(const struct node *n, const struct rules_campaign *c, struct rv_state *s,
	struct diag *d)
{
	(void)c;
	return parse_melee(n, s, d);
}

static int parse_table(const struct node *game, struct rv_state *s, struct diag *d)
{
	static const char *const keys[] = { "width", "height", NULL };
	const struct node *t = node_need(game, "table", d), *w, *h;
	long long v;
	if (!t || node_check_map(t, "table", keys, d) < 0 || !(w = node_need(t, "width", d)) ||
		!(h = node_need(t, "height", d)))
		return -1;
	if (node_want_int(w, "width", RV_INCH, RV_COORD_MAX, &v, d) < 0)
		return -1;
	s->width = (int)v;
	if (node_want_int(h, "height", RV_INCH, RV_COORD_MAX, &v, d) < 0)
		return -1;
	s->height = (int)v;
	return 0;
}

/* The lists of each group's figures (rv_first, rv_next), in index order. */
static void link_groups(struct rv_state *s, size_t n_group, size_t n_fig)
{
	s->g_first = xcalloc(n_group, sizeof(*s->g_first));
	s->f_next = xcalloc(n_fig, sizeof(*s->f_next));
	for (size_t g = 0; g < n_group; g++)
		s->g_first[g] = SIZE_MAX;
	for (size_t i = s->n_fig; i-- > 0;) {
		s->f_next[i] = s->g_first[s->fig[i].gi];
		s->g_first[s->fig[i].gi] = i;
	}
}

/* Every side has a heidman, every group a leader or the heidman (or is marked leaderless). */
static int check_sides(const struct rules_campaign *c, const struct rv_state *s,
	const struct node *game, struct diag *d)
{
	int rc = 0;
	for (size_t i = 0; i < c->n_players; i++)
		if (s->heidman[i] < 0) {
			node_error(d, game, "side '%s' has no heidman (a figure with role heidman)",
				c->players[i]);
			rc = -1;
		}
	for (size_t i = 0; i < c->n_players; i++) {
		int h = s->heidman[i], g = h >= 0 ? rv_group_find(s, (int)i, s->fig[h].group) : -1;
		if (g >= 0 && s->group[g].hidden) {
			node_error(d, game,
				"group '%s' holds the heidman and is hidden (the heidman's group is "
				"never hidden: his rallying and naming of leaders are seen)",
				s->group[g].id);
			rc = -1;
		}
	}
	for (size_t g = 0; g < s->n_group; g++)
		if (rv_group_leader(s, (int)g) < 0 && !s->group[g].leader_killed) {
			int alive = 0;
			for (size_t f = 0; f < s->n_fig; f++)
				alive |= !s->fig[f].dead && s->fig[f].gi == (int)g;
			if (alive) {
				node_error(d, game,
					"group '%s' has no leader (a figure with role "
					"leader or heidman, or leader-killed: true)",
					s->group[g].id);
				rc = -1;
			}
		}
	return rc;
}

int rv_state_parse(void **out, const struct rules_campaign *c, const struct node *game,
	struct diag *d)
{
	static const char *const keys[] = { "table", "turns", "discharged", "terrain", "groups",
		"figures", "animals", "melees", NULL };
	struct rv_state *s = xcalloc(1, sizeof(*s));
	int rc = 0, bad = 0;
	*out = NULL;
	s->feat = xcalloc(RV_MAX_FEATURES, sizeof(*s->feat));
	size_t n_fig = list_room(game, "figures", RV_MAX_FIGURES),
	       n_group = list_room(game, "groups", RV_MAX_FIGURES);
	s->fig = xcalloc(n_fig, sizeof(*s->fig));
	s->fig_ix = index_new(n_fig, &s->fig_mask);
	s->animal = xcalloc(RV_MAX_ANIMALS, sizeof(*s->animal));
	s->group = xcalloc(n_group, sizeof(*s->group));
	s->group_ix = index_new(n_group, &s->group_mask);
	s->n_sides = (int)c->n_players;
	for (int i = 0; i < RV_MAX_SIDES; i++)
		s->heidman[i] = -1;
	if (node_check_keys(game, "game", keys, &bad, d) < 0 || parse_table(game, s, d) < 0) {
		rv_state_free(s);
		return -1;
	}
	const struct rv_options *o = c->options;
	if (o && o->raider[0] && rv_side_of(c, o->raider) < 0) {
		node_error(d, game, "options victory raider '%s' is not a player of the campaign",
			o->raider);
		rc = -1;
	}
	if (opt_int(game, "turns", 1000, &s->turns, d) < 0 ||
		opt_bool(game, "discharged", &s->discharged, d) < 0)
		rc = -1;
	if (parse_list(game, "terrain", RV_MAX_FEATURES, 0, one_feature, c, s, d) < 0 ||
		parse_list(game, "groups", RV_MAX_FIGURES, 1, parse_group, c, s, d) < 0 ||
		parse_list(game, "figures", RV_MAX_FIGURES, 1, one_figure, c, s, d) < 0 ||
		parse_list(game, "animals", RV_MAX_ANIMALS, 0, parse_animal, c, s, d) < 0 ||
		parse_list(game, "melees", RV_MAX_MELEES, 0, one_melee, c, s, d) < 0)
		rc = -1;
	if (rc == 0)
		link_groups(s, n_group, n_fig);
	if (rc == 0 && bad == 0 && check_sides(c, s, game, d) < 0)
		rc = -1;
	if (rc < 0 || bad < 0) {
		rv_state_free(s);
		return -1;
	}
	*out = s;
	return 0;
}

/* ---- emitting ---- */

static struct node *pt_node(struct table_pt p)
{
	struct node *q = node_new_seq();
	node_seq_add(q, node_new_int(p.x));
	node_seq_add(q, node_new_int(p.y));
	return q;
}

static struct node *feature_node(const struct rv_feature_def *f)
{
	struct node *m = node_new_map(), *pts;
	node_map_str(m, "id", f->id);
	node_map_str(m, "kind", f->is_line ? rv_line_names[f->kind] : rv_feature_names[f->kind]);
	if (!f->is_line)
		node_map_bool(m, "blocks-los", f->blocks_los);
	node_map_str(m, "cover", rv_cover_names[f->cover]);
	node_map_str(m, "melee-cover", rv_mcover_names[f->mcover]);
	pts = node_map_add(m, f->is_line ? "line" : "area", node_new_seq());
	for (size_t i = 0; i < f->n; i++)
		node_seq_add(pts, pt_node(f->v[i]));
	return m;
}

static struct node *group_node(const struct rules_campaign *c, const struct rv_group *g)
{
	struct node *m = node_new_map();
	node_map_str(m, "id", g->id);
	node_map_str(m, "side", c->players[g->side]);
	node_map_str(m, "morale", rv_morale_names[g->morale]);
	node_map_int(m, "lost", g->lost);
	node_map_int(m, "unchecked", g->unchecked);
	node_map_bool(m, "leader-killed", g->leader_killed);
	node_map_int(m, "passed-turn", g->passed_turn);
	node_map_bool(m, "hidden", g->hidden);
	return m;
}

static struct node *figure_node(const struct rv_figure *f)
{
	struct node *m = node_new_map(), *a;
	node_map_str(m, "id", f->id);
	node_map_str(m, "group", f->group);
	node_map_str(m, "role", rv_role_names[f->role]);
	node_map_str(m, "class", rv_class_names[f->cls]);
	node_map_bool(m, "mounted", f->mounted);
	node_map_bool(m, "horse-spooked", f->horse_spooked);
	node_map_str(m, "weapon", rv_weapon_names[f->weapon]);
	node_map_int(m, "reload", f->reload);
	node_map_int(m, "loaded-turn", f->loaded_turn);
	a = node_map_add(m, "armour", node_new_seq());
	for (int i = 0; i < RV_N_ARMOUR; i++)
		if (f->armour[i])
			node_seq_add(a, node_new_str(rv_armour_names[i]));
	node_map_int(m, "hits", f->hits);
	node_map_bool(m, "dead", f->dead);
	node_map_int(m, "stunned-until", f->stunned_until);
	node_map_int(m, "aim-turn", f->aim_turn);
	if (f->horse[0])
		node_map_str(m, "horse", f->horse);
	node_map_add(m, "at", pt_node(f->at));
	if (f->face_dx || f->face_dy)
		node_map_add(m, "facing", pt_node((struct table_pt){ f->face_dx, f->face_dy }));
	return m;
}

static struct node *animal_node(const struct rules_campaign *c, const struct rv_animal_def *a)
{
	struct node *m = node_new_map();
	node_map_str(m, "id", a->id);
	node_map_str(m, "kind", rv_animal_names[a->kind]);
	node_map_bool(m, "spooked", a->spooked);
	if (a->owner >= 0)
		node_map_str(m, "owner", c->players[a->owner]);
	node_map_add(m, "at", pt_node(a->at));
	return m;
}

static struct node *melee_node(const struct rv_state *s, const struct rv_melee *me)
{
	struct node *m = node_new_map(), *a;
	a = node_map_add(m, "attackers", node_new_seq());
	for (int i = 0; i < 3; i++)
		if (me->attackers[i] >= 0)
			node_seq_add(a, node_new_str(s->fig[me->attackers[i]].id));
	node_map_str(m, "defender", s->fig[me->defender].id);
	node_map_int(m, "started", me->started);
	return m;
}

/* The state as side may know it (side -1: every side, the public view; all: the whole
 * state): another side's hidden groups and their figures are left out. */
static struct node *emit(const struct rules_campaign *c, const struct rv_state *s, int side,
	int all)
{
	struct node *m = node_new_map(), *t, *l;
	t = node_map_add(m, "table", node_new_map());
	node_map_int(t, "width", s->width);
	node_map_int(t, "height", s->height);
	node_map_int(m, "turns", s->turns);
	node_map_bool(m, "discharged", s->discharged);
	l = node_map_add(m, "terrain", node_new_seq());
	for (size_t i = 0; i < s->n_feat; i++)
		node_seq_add(l, feature_node(&s->feat[i]));
	l = node_map_add(m, "groups", node_new_seq());
	for (size_t i = 0; i < s->n_group; i++)
		if (all || !s->group[i].hidden || s->group[i].side == side)
			node_seq_add(l, group_node(c, &s->group[i]));
	l = node_map_add(m, "figures", node_new_seq());
	for (size_t i = 0; i < s->n_fig; i++)
		if (all || !rv_hidden_from(s, (int)i, side))
			node_seq_add(l, figure_node(&s->fig[i]));
	l = node_map_add(m, "animals", node_new_seq());
	for (size_t i = 0; i < s->n_animal; i++)
		node_seq_add(l, animal_node(c, &s->animal[i]));
	l = node_map_add(m, "melees", node_new_seq());
	for (size_t i = 0; i < s->n_melee; i++)
		node_seq_add(l, melee_node(s, &s->melee[i]));
	return m;
}

struct node *rv_state_emit(const struct rules_campaign *c, const void *state)
{
	return emit(c, state, -1, 1);
}

struct node *rv_state_view(const struct rules_campaign *c, const void *state, const char *player)
{
	return emit(c, state, rv_side_of(c, player), 0);
}

/* n elements of size each from p, or NULL for none. */
static void *dup_n(const void *p, size_t n, size_t size)
{
	if (!p || !n)
		return NULL;
	void *q = xcalloc(n, size);
	memcpy(q, p, n * size);
	return q;
}

/* Every array with the room rv_state_parse gave it (a clone takes animals as resolve does);
 * this turn's rulings are never in state.yaml, so a copy through it has none. */
void *rv_state_clone(const struct rules_campaign *c, const void *state)
{
	const struct rv_state *s = state;
	struct rv_state *o = xcalloc(1, sizeof(*o));
	size_t n_fig = s->n_fig ? s->n_fig : 1, n_group = s->n_group ? s->n_group : 1;

	(void)c;
	*o = *s;
	o->n_ruled = 0;
	o->feat = dup_n(s->feat, RV_MAX_FEATURES, sizeof(*s->feat));
	o->fig = dup_n(s->fig, n_fig, sizeof(*s->fig));
	o->animal = dup_n(s->animal, RV_MAX_ANIMALS, sizeof(*s->animal));
	o->group = dup_n(s->group, n_group, sizeof(*s->group));
	o->fig_ix = dup_n(s->fig_ix, s->fig_ix ? s->fig_mask + 1 : 0, sizeof(*s->fig_ix));
	o->group_ix = dup_n(s->group_ix, s->group_ix ? s->group_mask + 1 : 0, sizeof(*s->group_ix));
	o->g_first = dup_n(s->g_first, n_group, sizeof(*s->g_first));
	o->f_next = dup_n(s->f_next, n_fig, sizeof(*s->f_next));
	return o;
}

void rv_state_free(void *state)
{
	struct rv_state *s = state;
	if (!s)
		return;
	free(s->feat);
	free(s->fig);
	free(s->animal);
	free(s->group);
	free(s->fig_ix);
	free(s->group_ix);
	free(s->g_first);
	free(s->f_next);
	free(s);
}
