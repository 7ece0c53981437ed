/* state.c — Warmaster campaign options and game state: the `game:` of a scenario or
 * state.yaml (table, wind, sides, army lists, terrain, structures, characters, units) read
 * with every problem reported at its node, and emitted in canonical order. Units and
 * characters take their stat lines from the army lists, so the lists are the one source. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/warmaster/warmaster.h"
#include "core/banned.h"

const char *const wm_utype_names[] = { "infantry", "cavalry", "chariot", "artillery", "monster",
	"machine", "flyer", "wagon", "siege", "boat", "galley", "ship", NULL };
const char *const wm_formation_names[] = { "line", "column", "irregular", NULL };
const char *const wm_role_names[] = { "general", "hero", "wizard", NULL };
const char *const wm_akind_names[] = { "dense", "defended", "fortified", "river", NULL };
const char *const wm_skind_names[] = { "wall", "tower", "gateway", "building", NULL };
const char *const wm_special_names[] = { "none", "steam-tank", "giant", "flame-cannon",
	"death-rocket", NULL };
const char *const wm_after_names[] = { "pursue", "stand", "fall-back", NULL };
const char *const wm_initiative_names[] = { "none", "charge", "evade", NULL };
const char *const wm_position_names[] = { "open", "defended", "fortified", NULL };
static const char *const blunder45_names[] = { "half-pace", "no-move", NULL };
static const char *const draw_names[] = { "3d6", "up-to-3d6", NULL };
static const char *const steam_names[] = { "sheet", "wmr", NULL };
static const char *const giant_names[] = { "failed-order", "blunder", NULL };
static const char *const flame_names[] = { "sheet", "wmr", NULL };
static const char *const draw_choice_names[] = { "fall-back", "stand", NULL };

/* The sheet's Moves, mm. */
static const int type_pace[WM_UTYPE_COUNT] = { 200, 300, 300, 200, 200, 200, 1000, 200, 150, 150,
	200, 150 };

int wm_type_pace(enum wm_utype t)
{
	return type_pace[t];
}

/* ---- options ---- */

void wm_options_default(struct wm_options *o)
{
	memset(o, 0, sizeof(*o));
}

static int opt_enum(const struct node *opts, const char *key, const char *const *names, int *out,
	struct diag *d)
{
	const struct node *n = node_get(opts, key);
	return n ? node_want_enum(n, key, names, out, d) : 0;
}

int wm_options_parse(void **out, const struct node *opts, struct diag *d)
{
	static const char *const keys[] = { "blunder-4-5", "draw-fall-back", "steam-tank",
		"giant-goes-wild", "flame-cannon", "victory", NULL };
	static const char *const victory_names[] = { "none", "break-point", NULL };
	struct wm_options *o = xcalloc(1, sizeof(*o));
	int rc = 0;
	wm_options_default(o);
	*out = NULL;
	if (opts) {
		if (node_check_map(opts, "options", keys, d) < 0)
			rc = -1;
		else if (opt_enum(opts, "blunder-4-5", blunder45_names, &o->blunder45_no_move, d) <
				 0 ||
			 opt_enum(opts, "draw-fall-back", draw_names, &o->draw_up_to, d) < 0 ||
			 opt_enum(opts, "steam-tank", steam_names, &o->steam_tank_wmr, d) < 0 ||
			 opt_enum(opts, "giant-goes-wild", giant_names, &o->giant_on_blunder, d) <
				 0 ||
			 opt_enum(opts, "flame-cannon", flame_names, &o->flame_wmr, d) < 0 ||
			 opt_enum(opts, "victory", victory_names, &o->break_point, d) < 0)
			rc = -1;
	}
	if (rc < 0)
		free(o);
	else
		*out = o;
	return rc;
}

struct node *wm_options_emit(const void *opts)
{
	struct wm_options def;
	const struct wm_options *o = opts;
	if (!o) {
		wm_options_default(&def);
		o = &def;
	}
	struct node *m = node_new_map();
	node_map_str(m, "blunder-4-5", blunder45_names[o->blunder45_no_move]);
	node_map_str(m, "draw-fall-back", draw_names[o->draw_up_to]);
	node_map_str(m, "steam-tank", steam_names[o->steam_tank_wmr]);
	node_map_str(m, "giant-goes-wild", giant_names[o->giant_on_blunder]);
	node_map_str(m, "flame-cannon", flame_names[o->flame_wmr]);
	if (o->break_point)
		node_map_str(m, "victory", "break-point");
	return m;
}

void wm_options_free(void *opts)
{
	free(opts);
}

/* ---- lookups ---- */

int wm_unit_find(const struct wm_state *s, const char *id)
{
	for (size_t i = 0; i < s->n_units; i++)
		if (strcmp(s->units[i].id, id) == 0)
			return (int)i;
	return -1;
}

int wm_char_find(const struct wm_state *s, const char *id)
{
	for (size_t i = 0; i < s->n_chars; i++)
		if (strcmp(s->chars[i].id, id) == 0)
			return (int)i;
	return -1;
}

int wm_structure_find(const struct wm_state *s, const char *id)
{
	for (size_t i = 0; i < s->n_structures; i++)
		if (strcmp(s->structures[i].id, id) == 0)
			return (int)i;
	return -1;
}

int wm_side_of(const struct wm_state *s, const char *player)
{
	for (size_t i = 0; i < s->n_sides; i++)
		if (player && strcmp(s->side[i].player, player) == 0)
			return (int)i;
	return -1;
}

/* 1 if id is already used by a unit, character, area or structure. */
static int id_taken(const struct wm_state *s, const char *id)
{
	for (size_t i = 0; i < s->n_areas; i++)
		if (strcmp(s->areas[i].id, id) == 0)
			return 1;
	return wm_unit_find(s, id) >= 0 || wm_char_find(s, id) >= 0 ||
	       wm_structure_find(s, id) >= 0;
}

static int want_new_id(const struct wm_state *s, const struct node *m, char **out, struct diag *d)
{
	const struct node *n = node_need(m, "id", d);
	const char *id;
	if (!n || node_want_id(n, "id", &id, d) < 0)
		return -1;
	if (id_taken(s, id)) {
		node_error(d, n, "id '%s' is used twice (each id once)", id);
		return -1;
	}
	*out = xstrdup(id);
	return 0;
}

int wm_want_pt(const struct wm_state *s, const struct node *n, const char *what,
	struct table_pt *out, struct diag *d)
{
	long long x, y;
	if (n->kind != NODE_SEQ || n->n != 2) {
		node_error(d, n, "%s is not a point ([x, y] in mm)", what);
		return -1;
	}
	if (node_want_int(n->items[0], what, 0, s->width, &x, d) < 0 ||
		node_want_int(n->items[1], what, 0, s->depth, &y, d) < 0)
		return -1;
	out->x = (int32_t)x;
	out->y = (int32_t)y;
	return 0;
}

/* A direction [dx, dy] (not both 0), each within +-1000. */
static int want_dir(const struct node *n, const char *what, struct table_pt *out, struct diag *d)
{
	long long x, y;
	if (n->kind != NODE_SEQ || n->n != 2) {
		node_error(d, n, "%s is not a direction ([dx, dy])", what);
		return -1;
	}
	if (node_want_int(n->items[0], what, -1000, 1000, &x, d) < 0 ||
		node_want_int(n->items[1], what, -1000, 1000, &y, d) < 0)
		return -1;
	if (x == 0 && y == 0) {
		node_error(d, n, "%s is [0, 0] (a direction: not both zero)", what);
		return -1;
	}
	out->x = (int32_t)x;
	out->y = (int32_t)y;
	return 0;
}

static int want_int_key(const struct node *m, const char *key, long long min, long long max,
	int def, int *out, struct diag *d)
{
	const struct node *n = node_get(m, key);
	long long v;
	if (!n) {
		*out = def;
		return 0;
	}
	if (node_want_int(n, key, min, max, &v, d) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

static int want_bool_key(const struct node *m, const char *key, int *out, struct diag *d)
{
	const struct node *n = node_get(m, key);
	*out = 0;
	return n ? node_want_bool(n, key, out, d) : 0;
}

static int want_enum_key(const struct node *m, const char *key, const char *const *names, int def,
	int *out, struct diag *d)
{
	const struct node *n = node_get(m, key);
	*out = def;
	return n ? node_want_enum(n, key, names, out, d) : 0;
}

/* An armour save: "3+" .. "6+", or "none". */
static int want_armour(const struct node *m, int *out, struct diag *d)
{
	const struct node *n = node_get(m, "armour");
	*out = 0;
	if (!n)
		return 0;
	if (n->kind == NODE_SCALAR && strcmp(n->scalar, "none") == 0)
		return 0;
	if (n->kind == NODE_SCALAR && strlen(n->scalar) == 2 && n->scalar[1] == '+' &&
		n->scalar[0] >= '2' && n->scalar[0] <= '6') {
		*out = n->scalar[0] - '0';
		return 0;
	}
	node_error(d, n, "armour is not a save ('2+' to '6+', or 'none')");
	return -1;
}

/* ---- army lists ---- */

static int parse_profile(const struct node *m, struct wm_profile *p, struct diag *d)
{
	static const char *const keys[] = { "name", "type", "role", "special", "attacks", "shoot",
		"range", "hits", "armour", "stands", "pace", "terror", "no-drive-back", "defended",
		"stand", "command", "order-range", "anti-magic", "armour-piercing", "slayer",
		"all-round", NULL };
	const struct node *n;
	const char *name;
	int rc = 0, e;
	if (node_check_map(m, "army list entry", keys, d) < 0)
		return -1;
	if (!(n = node_need(m, "name", d)) || node_want_str(n, "name", 64, &name, d) < 0)
		return -1;
	p->name = xstrdup(name);
	p->character = node_get(m, "role") != NULL;
	if (p->character) {
		if (want_enum_key(m, "role", wm_role_names, 0, &e, d) < 0)
			return -1;
		p->role = (enum wm_role)e;
		static const int def_range[WM_ROLE_COUNT] = { 0, 600, 200 };
		if (!node_need(m, "command", d) ||
			want_int_key(m, "command", 2, 12, 0, &p->command, d) < 0 ||
			want_int_key(m, "order-range", 0, WM_TABLE_MAX, def_range[p->role],
				&p->order_range, d) < 0 ||
			want_int_key(m, "attacks", 0, 20, 0, &p->attacks, d) < 0 ||
			want_int_key(m, "pace", 1, 2000, 600, &p->pace, d) < 0 ||
			want_bool_key(m, "anti-magic", &p->anti_magic, d) < 0)
			return -1;
		return 0;
	}
	if (!(n = node_need(m, "type", d)) || node_want_enum(n, "type", wm_utype_names, &e, d) < 0)
		return -1;
	p->type = (enum wm_utype)e;
	if (want_enum_key(m, "special", wm_special_names, 0, &e, d) < 0)
		rc = -1;
	p->special = (enum wm_special)e;
	if (!node_need(m, "attacks", d) || !node_need(m, "hits", d) ||
		want_int_key(m, "attacks", 0, 20, 0, &p->attacks, d) < 0 ||
		want_int_key(m, "shoot", 0, 20, 0, &p->shoot, d) < 0 ||
		want_int_key(m, "range", 0, 2000, 0, &p->range, d) < 0 ||
		want_int_key(m, "hits", 1, 20, 1, &p->hits, d) < 0 ||
		want_armour(m, &p->armour, d) < 0 ||
		want_int_key(m, "stands", 1, WM_MAX_STANDS, 3, &p->stands, d) < 0 ||
		want_int_key(m, "pace", 1, 2000, wm_type_pace(p->type), &p->pace, d) < 0 ||
		want_bool_key(m, "terror", &p->terror, d) < 0 ||
		want_bool_key(m, "no-drive-back", &p->no_drive_back, d) < 0 ||
		want_bool_key(m, "defended", &p->defended, d) < 0 ||
		want_bool_key(m, "armour-piercing", &p->armour_piercing, d) < 0 ||
		want_bool_key(m, "slayer", &p->slayer, d) < 0 ||
		want_bool_key(m, "all-round", &p->all_round, d) < 0)
		rc = -1;
	p->stand_w = 40;
	p->stand_d = p->type == WM_INFANTRY ? 20 : 30;
	if ((n = node_get(m, "stand"))) {
		struct table_pt wd = { 0, 0 };
		if (want_dir(n, "stand", &wd, d) < 0)
			return -1;
		if (wd.x < 1 || wd.y < 1) {
			node_error(d, n, "stand is not a size ([width, depth] in mm, each > 0)");
			return -1;
		}
		p->stand_w = wd.x;
		p->stand_d = wd.y;
	}
	if ((p->shoot > 0) != (p->range > 0)) {
		node_error(d, m,
			"'%s' has shoot without range or range without shoot (both or "
			"neither)",
			p->name);
		rc = -1;
	}
	return rc;
}

/* One spell of an army list: name, kind, cast (4-6), range and the kind's numbers. */
static int parse_spell(const struct node *m, struct wm_spell *sp, struct diag *d)
{
	static const char *const keys[] = { "name", "kind", "cast", "range", "attacks", "step",
		"bonus", "exclude", NULL };
	const struct node *n;
	const char *name;
	int e;
	if (node_check_map(m, "spell", keys, d) < 0 || !(n = node_need(m, "name", d)) ||
		node_want_str(n, "name", 64, &name, d) < 0)
		return -1;
	sp->name = xstrdup(name);
	if (!(n = node_need(m, "kind", d)) ||
		node_want_enum(n, "kind", wm_spell_kind_names, &e, d) < 0 ||
		!node_need(m, "cast", d) || !node_need(m, "range", d) ||
		want_int_key(m, "cast", 2, 6, 4, &sp->cast, d) < 0 ||
		want_int_key(m, "range", 1, WM_TABLE_MAX, 1, &sp->range, d) < 0 ||
		want_int_key(m, "attacks", 0, 20, 0, &sp->attacks, d) < 0 ||
		want_int_key(m, "step", 0, 1000, 50, &sp->step, d) < 0 ||
		want_int_key(m, "bonus", 0, 6, 1, &sp->bonus, d) < 0)
		return -1;
	sp->kind = (enum wm_spell_kind)e;
	if ((n = node_get(m, "exclude"))) {
		if (node_check_seq(n, "exclude", WM_MAX_EXCLUDE, d) < 0)
			return -1;
		sp->exclude = xcalloc(n->n ? n->n : 1, sizeof(*sp->exclude));
		for (size_t i = 0; i < n->n; i++) {
			if (node_want_str(n->items[i], "exclude", 64, &name, d) < 0)
				return -1;
			sp->exclude[sp->n_exclude++] = xstrdup(name);
		}
	}
	return 0;
}

static int parse_spells(const struct node *l, struct wm_army *a, struct diag *d)
{
	int rc = 0;
	if (node_check_seq(l, "spells", WM_MAX_SPELLS, d) < 0)
		return -1;
	a->spells = xcalloc(l->n ? l->n : 1, sizeof(*a->spells));
	for (size_t i = 0; i < l->n; i++)
		if (parse_spell(l->items[i], &a->spells[a->n_spells++], d) < 0)
			rc = -1;
	return rc;
}

static int parse_army(const struct node *m, struct wm_army *a, struct diag *d)
{
	static const char *const keys[] = { "name", "source", "list", "spells", NULL };
	const struct node *n, *l;
	const char *s;
	int rc = 0;
	if (node_check_map(m, "army", keys, d) < 0)
		return -1;
	if (!(n = node_need(m, "name", d)) || node_want_str(n, "name", 64, &s, d) < 0)
		return -1;
	a->name = xstrdup(s);
	if ((n = node_get(m, "source")) && node_want_str(n, "source", 400, &s, d) == 0)
		a->source = xstrdup(s);
	if ((n = node_get(m, "spells")) && parse_spells(n, a, d) < 0)
		rc = -1;
	if (!(l = node_need(m, "list", d)) || node_check_seq(l, "list", WM_MAX_PROFILES, d) < 0)
		return -1;
	a->v = xcalloc(l->n ? l->n : 1, sizeof(*a->v));
	for (size_t i = 0; i < l->n; i++) {
		if (parse_profile(l->items[i], &a->v[a->n], d) < 0) {
			free(a->v[a->n].name);
			a->v[a->n].name = NULL;
			rc = -1;
			continue;
		}
		for (size_t j = 0; j < a->n; j++)
			if (strcmp(a->v[j].name, a->v[a->n].name) == 0) {
				node_error(d, l->items[i], "'%s' is listed twice in army '%s'",
					a->v[j].name, a->name);
				rc = -1;
			}
		a->n++;
	}
	return rc;
}

static const struct wm_profile *profile_find(const struct wm_army *a, const char *name)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].name, name) == 0)
			return &a->v[i];
	return NULL;
}

/* The side of an entry (key `player`), and the army-list entry named by `name`. */
static const struct wm_profile *want_profile(const struct wm_state *s, const struct node *m,
	int is_char, int *side, struct diag *d)
{
	const struct node *n = node_need(m, "player", d), *nn;
	const char *pl, *name;
	if (!n || node_want_id(n, "player", &pl, d) < 0)
		return NULL;
	if ((*side = wm_side_of(s, pl)) < 0) {
		node_error(d, n, "player '%s' is not a side of the game (one of the sides)", pl);
		return NULL;
	}
	if (!(nn = node_need(m, "name", d)) || node_want_str(nn, "name", 64, &name, d) < 0)
		return NULL;
	const struct wm_army *a = &s->armies[s->side[*side].army];
	const struct wm_profile *p = profile_find(a, name);
	if (!p || p->character != is_char) {
		node_error(d, nn, "no %s '%s' in the %s army list (an entry of the list)",
			is_char ? "character" : "unit", name, a->name);
		return NULL;
	}
	return p;
}

static int parse_character(struct wm_state *s, const struct node *m, struct diag *d)
{
	static const char *const keys[] = { "id", "player", "name", "at", "with", "slain", NULL };
	struct wm_character *c = &s->chars[s->n_chars];
	const struct wm_profile *p;
	const struct node *n;
	memset(c, 0, sizeof(*c));
	if (node_check_map(m, "character", keys, d) < 0 ||
		!(p = want_profile(s, m, 1, &c->side, d)))
		return -1;
	if (want_new_id(s, m, &c->id, d) < 0)
		return -1;
	c->name = xstrdup(p->name);
	c->role = p->role;
	c->command = p->command;
	c->range = p->order_range;
	c->pace = p->pace;
	c->attacks = p->attacks;
	c->anti_magic = p->anti_magic;
	s->n_chars++;
	if (!(n = node_need(m, "at", d)) || wm_want_pt(s, n, "at", &c->at, d) < 0 ||
		want_bool_key(m, "slain", &c->slain, d) < 0)
		return -1;
	return 0;
}

/* with: the id of the character's own unit it has joined, read once every unit is known. */
static int parse_with(struct wm_state *s, const struct node *chars, struct diag *d)
{
	int rc = 0;
	for (size_t i = 0; chars && i < chars->n && i < s->n_chars; i++) {
		const struct node *n = node_get(chars->items[i], "with");
		const char *id;
		if (!n)
			continue;
		int j = node_want_id(n, "with", &id, d) < 0 ? -1 : wm_unit_find(s, id);
		if (j < 0 || s->units[j].side != s->chars[i].side || s->units[j].destroyed ||
			s->chars[i].slain) {
			node_error(d, n,
				"with is not a unit of the character's side on the table (the "
				"id of the unit it has joined)");
			rc = -1;
			continue;
		}
		s->chars[i].with = j + 1;
	}
	return rc;
}

static int parse_unit_state(struct wm_state *s, struct wm_unit *u, const struct node *m,
	struct diag *d)
{
	const struct node *n;
	int e = 0, rc = 0;
	if (want_int_key(m, "stands", 0, u->max_stands, u->max_stands, &u->stands, d) < 0 ||
		want_int_key(m, "penalty", 0, 12, 0, &u->penalty, d) < 0 ||
		want_bool_key(m, "confused", &u->confused, d) < 0 ||
		want_bool_key(m, "immobile", &u->immobile, d) < 0 ||
		want_bool_key(m, "reduced", &u->reduced, d) < 0 ||
		want_bool_key(m, "damaged", &u->ship_damage, d) < 0 ||
		want_enum_key(m, "formation", wm_formation_names, 0, &e, d) < 0)
		rc = -1;
	u->formation = (enum wm_formation)e;
	u->destroyed = u->stands == 0;
	if ((n = node_get(m, "brigade"))) {
		const char *b;
		if (node_want_id(n, "brigade", &b, d) < 0)
			rc = -1;
		else
			u->brigade = xstrdup(b);
	}
	if (!(n = node_need(m, "front", d)) || n->kind != NODE_SEQ || n->n != 2) {
		if (n)
			node_error(d, n,
				"front is not the front edge ([[x, y], [x, y]]: left and "
				"right corner, mm)");
		return -1;
	}
	if (wm_want_pt(s, n->items[0], "front", &u->fl, d) < 0 ||
		wm_want_pt(s, n->items[1], "front", &u->fr, d) < 0)
		return -1;
	if (u->fl.x == u->fr.x && u->fl.y == u->fr.y) {
		node_error(d, n, "front has one point twice (two different corners)");
		return -1;
	}
	return rc;
}

static int parse_unit(struct wm_state *s, const struct node *m, struct diag *d)
{
	static const char *const keys[] = { "id", "player", "name", "front", "formation", "brigade",
		"stands", "penalty", "confused", "immobile", "reduced", "damaged", "engaged",
		NULL };
	struct wm_unit *u = &s->units[s->n_units];
	const struct wm_profile *p;
	memset(u, 0, sizeof(*u));
	if (node_check_map(m, "unit", keys, d) < 0 || !(p = want_profile(s, m, 0, &u->side, d)))
		return -1;
	if (want_new_id(s, m, &u->id, d) < 0)
		return -1;
	u->name = xstrdup(p->name);
	u->type = p->type;
	u->special = p->special;
	u->max_stands = p->stands;
	u->attacks = p->attacks;
	u->shoot = p->shoot;
	u->range = p->range;
	u->hits = p->hits;
	u->armour = p->armour;
	u->pace = p->pace;
	u->terror = p->terror;
	u->no_drive_back = p->no_drive_back;
	u->defended = p->defended;
	u->armour_piercing = p->armour_piercing;
	u->slayer = p->slayer;
	u->all_round = p->all_round;
	u->stand_w = p->stand_w;
	u->stand_d = p->stand_d;
	s->n_units++;
	return parse_unit_state(s, u, m, d);
}

/* engaged: the opponent's id, read once every unit is known. */
static int parse_engaged(struct wm_state *s, const struct node *units, struct diag *d)
{
	int rc = 0;
	for (size_t i = 0; i < units->n && i < s->n_units; i++) {
		const struct node *n = node_get(units->items[i], "engaged");
		const char *id;
		if (!n)
			continue;
		int j = node_want_id(n, "engaged", &id, d) < 0 ? -1 : wm_unit_find(s, id);
		if (j < 0 || s->units[j].side == s->units[i].side) {
			node_error(d, n, "engaged is not an enemy unit (the id of an enemy unit)");
			rc = -1;
			continue;
		}
		s->units[i].engaged = j + 1;
	}
	return rc;
}

/* Brigades: up to 4 units of one side (Warmaster Orders). */
static int check_brigades(const struct wm_state *s, const struct node *units, struct diag *d)
{
	int rc = 0;
	for (size_t i = 0; i < s->n_units; i++) {
		const struct wm_unit *u = &s->units[i];
		size_t count = 0;
		if (!u->brigade)
			continue;
		for (size_t j = 0; j < s->n_units; j++) {
			const struct wm_unit *v = &s->units[j];
			if (v->brigade && strcmp(v->brigade, u->brigade) == 0) {
				count++;
				if (v->side != u->side && j > i) {
					node_error(d, units->items[j],
						"brigade '%s' mixes sides (units of one side)",
						u->brigade);
					rc = -1;
				}
			}
		}
		if (count > WM_MAX_BRIGADE) {
			node_error(d, units->items[i], "brigade '%s' has %zu units (at most %d)",
				u->brigade, count, WM_MAX_BRIGADE);
			return -1;
		}
	}
	return rc;
}

static int parse_area(struct wm_state *s, const struct node *m, struct diag *d)
{
	static const char *const keys[] = { "id", "kind", "points", "flow", "boiling-oil", NULL };
	struct wm_area *a = &s->areas[s->n_areas];
	const struct node *n;
	int e;
	memset(a, 0, sizeof(*a));
	if (node_check_map(m, "terrain area", keys, d) < 0 || want_new_id(s, m, &a->id, d) < 0)
		return -1;
	s->n_areas++;
	if (!(n = node_need(m, "kind", d)) || node_want_enum(n, "kind", wm_akind_names, &e, d) < 0)
		return -1;
	a->kind = (enum wm_akind)e;
	if (want_bool_key(m, "boiling-oil", &a->boiling_oil, d) < 0)
		return -1;
	if ((n = node_get(m, "flow")) && want_dir(n, "flow", &a->flow, d) < 0)
		return -1;
	if (!(n = node_need(m, "points", d)) || node_check_seq(n, "points", WM_MAX_POINTS, d) < 0)
		return -1;
	a->v = xcalloc(n->n ? n->n : 1, sizeof(*a->v));
	for (size_t i = 0; i < n->n; i++)
		if (wm_want_pt(s, n->items[i], "point", &a->v[i], d) < 0)
			return -1;
	a->n = n->n;
	struct table_poly p = { a->v, a->n };
	size_t at = 0;
	if (table_poly_check(&p, &at) != 0) {
		node_error(d, n,
			"area '%s' is not a simple polygon (at vertex %zu: at least 3 "
			"points, no repeats, edges that do not cross)",
			a->id, at + 1);
		return -1;
	}
	return 0;
}

static int parse_structure(struct wm_state *s, const struct node *m, struct diag *d)
{
	static const char *const keys[] = { "id", "kind", "at", "damaged", "breaches", NULL };
	struct wm_structure *st = &s->structures[s->n_structures];
	const struct node *n;
	int e;
	memset(st, 0, sizeof(*st));
	if (node_check_map(m, "structure", keys, d) < 0 || want_new_id(s, m, &st->id, d) < 0)
		return -1;
	s->n_structures++;
	if (!(n = node_need(m, "kind", d)) || node_want_enum(n, "kind", wm_skind_names, &e, d) < 0)
		return -1;
	st->kind = (enum wm_skind)e;
	if (!(n = node_need(m, "at", d)) || wm_want_pt(s, n, "at", &st->at, d) < 0 ||
		want_bool_key(m, "damaged", &st->damaged, d) < 0 ||
		want_int_key(m, "breaches", 0, 2, 0, &st->breaches, d) < 0)
		return -1;
	st->breached = st->breaches >= (st->kind == WM_TOWER ? 2 : 1);
	return 0;
}

static int parse_sides(struct wm_state *s, const struct rules_campaign *c, const struct node *l,
	struct diag *d)
{
	static const char *const keys[] = { "player", "army", "win", "draw", NULL };
	if (node_check_seq(l, "sides", WM_MAX_SIDES, d) < 0)
		return -1;
	if (l->n != c->n_players) {
		node_error(d, l, "sides lists %zu sides (one per player: %zu)", l->n, c->n_players);
		return -1;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct node *m = l->items[i], *n;
		const char *v;
		int e;
		struct wm_side *sd = &s->side[i];
		if (node_check_map(m, "side", keys, d) < 0)
			return -1;
		if (!(n = node_need(m, "player", d)) || node_want_id(n, "player", &v, d) < 0)
			return -1;
		if (strcmp(v, c->players[i]) != 0) {
			node_error(d, n, "side %zu is '%s' (the players in campaign order: '%s')",
				i + 1, v, c->players[i]);
			return -1;
		}
		sd->player = xstrdup(v);
		s->n_sides = i + 1;
		if (!(n = node_need(m, "army", d)) || node_want_str(n, "army", 64, &v, d) < 0)
			return -1;
		sd->army = -1;
		for (size_t k = 0; k < s->n_armies; k++)
			if (strcmp(s->armies[k].name, v) == 0)
				sd->army = (int)k;
		if (sd->army < 0) {
			node_error(d, n, "no army list '%s' (the name of one of armies)", v);
			return -1;
		}
		if (want_enum_key(m, "win", wm_after_names, WM_PURSUE, &e, d) < 0 ||
			want_enum_key(m, "draw", draw_choice_names, 0, &sd->draw_stand, d) < 0)
			return -1;
		sd->win = (enum wm_after)e;
	}
	return 0;
}

static int parse_table(struct wm_state *s, const struct node *game, struct diag *d)
{
	static const char *const keys[] = { "width", "depth", NULL };
	const struct node *t = node_need(game, "table", d), *n;
	if (!t || node_check_map(t, "table", keys, d) < 0 || !node_need(t, "width", d) ||
		!node_need(t, "depth", d) ||
		want_int_key(t, "width", 100, WM_TABLE_MAX, 0, &s->width, d) < 0 ||
		want_int_key(t, "depth", 100, WM_TABLE_MAX, 0, &s->depth, d) < 0)
		return -1;
	if ((n = node_get(game, "wind")) && want_dir(n, "wind", &s->wind, d) < 0)
		return -1;
	return want_int_key(game, "turns", 0, 200, 0, &s->turns, d);
}

/* Reads the list at key with one parser per item; rc -1 when any failed. */
static int parse_list(struct wm_state *s, const struct node *game, const char *key, size_t max,
	int (*one)(struct wm_state *, const struct node *, struct diag *), struct diag *d)
{
	const struct node *l = node_get(game, key);
	int rc = 0;
	if (!l)
		return 0;
	if (node_check_seq(l, key, max, d) < 0)
		return -1;
	for (size_t i = 0; i < l->n; i++)
		if (one(s, l->items[i], d) < 0)
			rc = -1;
	return rc;
}

int wm_state_parse(void **out, const struct rules_campaign *c, const struct node *game,
	struct diag *d)
{
	static const char *const keys[] = { "table", "wind", "turns", "armies", "sides", "terrain",
		"structures", "characters", "units", NULL };
	struct wm_state *s = xcalloc(1, sizeof(*s));
	const struct node *l, *units;
	int rc = -1;
	*out = NULL;
	if (node_check_map(game, "game", keys, d) < 0 || parse_table(s, game, d) < 0)
		goto done;
	if (!(l = node_need(game, "armies", d)) ||
		node_check_seq(l, "armies", WM_MAX_ARMIES, d) < 0)
		goto done;
	s->armies = xcalloc(l->n ? l->n : 1, sizeof(*s->armies));
	for (size_t i = 0; i < l->n; i++, s->n_armies++)
		if (parse_army(l->items[i], &s->armies[i], d) < 0)
			goto done_armies;
	if (!(l = node_need(game, "sides", d)) || parse_sides(s, c, l, d) < 0)
		goto done;
	s->areas = xcalloc(WM_MAX_AREAS, sizeof(*s->areas));
	s->structures = xcalloc(WM_MAX_STRUCTURES, sizeof(*s->structures));
	s->chars = xcalloc(WM_MAX_CHARACTERS, sizeof(*s->chars));
	s->units = xcalloc(WM_MAX_UNITS, sizeof(*s->units));
	rc = 0;
	if (parse_list(s, game, "terrain", WM_MAX_AREAS, parse_area, d) < 0 ||
		parse_list(s, game, "structures", WM_MAX_STRUCTURES, parse_structure, d) < 0 ||
		parse_list(s, game, "characters", WM_MAX_CHARACTERS, parse_character, d) < 0)
		rc = -1;
	if (!(units = node_need(game, "units", d)) ||
		parse_list(s, game, "units", WM_MAX_UNITS, parse_unit, d) < 0) {
		rc = -1;
		goto done;
	}
	if (rc == 0 && (parse_engaged(s, units, d) < 0 || check_brigades(s, units, d) < 0 ||
			       parse_with(s, node_get(game, "characters"), d) < 0))
		rc = -1;
	goto done;
done_armies:
	s->n_armies++;
done:
	if (rc < 0)
		wm_state_free(s);
	else
		*out = s;
	return rc;
}

void wm_state_free(void *state)
{
	struct wm_state *s = state;
	if (!s)
		return;
	for (size_t i = 0; i < s->n_armies; i++) {
		for (size_t j = 0; j < s->armies[i].n; j++)
			free(s->armies[i].v[j].name);
		for (size_t j = 0; j < s->armies[i].n_spells; j++) {
			struct wm_spell *sp = &s->armies[i].spells[j];
			for (size_t k = 0; k < sp->n_exclude; k++)
				free(sp->exclude[k]);
			free(sp->exclude);
			free(sp->name);
		}
		free(s->armies[i].spells);
		free(s->armies[i].v);
		free(s->armies[i].name);
		free(s->armies[i].source);
	}
	for (size_t i = 0; i < s->n_sides; i++)
		free(s->side[i].player);
	for (size_t i = 0; i < s->n_areas; i++) {
		free(s->areas[i].id);
		free(s->areas[i].v);
	}
	for (size_t i = 0; i < s->n_structures; i++)
		free(s->structures[i].id);
	for (size_t i = 0; i < s->n_chars; i++) {
		free(s->chars[i].id);
		free(s->chars[i].name);
	}
	for (size_t i = 0; i < s->n_units; i++) {
		free(s->units[i].id);
		free(s->units[i].name);
		free(s->units[i].brigade);
	}
	free(s->armies);
	free(s->areas);
	free(s->structures);
	free(s->chars);
	free(s->units);
	free(s);
}

/* ---- emit ---- */

static struct node *pt_node(struct table_pt p)
{
	struct node *q = node_new_seq();
	node_seq_add(q, node_new_int(p.x));
	node_seq_add(q, node_new_int(p.y));
	return q;
}

static void emit_armour(struct node *m, int armour)
{
	char a[4] = { (char)('0' + armour), '+', 0, 0 };
	node_map_str(m, "armour", armour ? a : "none");
}

static struct node *profile_emit(const struct wm_profile *p)
{
	struct node *m = node_new_map();
	node_map_str(m, "name", p->name);
	if (p->character) {
		node_map_str(m, "role", wm_role_names[p->role]);
		node_map_int(m, "command", p->command);
		node_map_int(m, "order-range", p->order_range);
		node_map_int(m, "attacks", p->attacks);
		node_map_int(m, "pace", p->pace);
		if (p->anti_magic)
			node_map_bool(m, "anti-magic", 1);
		return m;
	}
	node_map_str(m, "type", wm_utype_names[p->type]);
	if (p->special)
		node_map_str(m, "special", wm_special_names[p->special]);
	node_map_int(m, "attacks", p->attacks);
	if (p->shoot) {
		node_map_int(m, "shoot", p->shoot);
		node_map_int(m, "range", p->range);
	}
	node_map_int(m, "hits", p->hits);
	emit_armour(m, p->armour);
	node_map_int(m, "stands", p->stands);
	node_map_int(m, "pace", p->pace);
	if (p->terror)
		node_map_bool(m, "terror", 1);
	if (p->no_drive_back)
		node_map_bool(m, "no-drive-back", 1);
	if (p->defended)
		node_map_bool(m, "defended", 1);
	if (p->armour_piercing)
		node_map_bool(m, "armour-piercing", 1);
	if (p->slayer)
		node_map_bool(m, "slayer", 1);
	if (p->all_round)
		node_map_bool(m, "all-round", 1);
	struct node *sz = node_map_add(m, "stand", node_new_seq());
	node_seq_add(sz, node_new_int(p->stand_w));
	node_seq_add(sz, node_new_int(p->stand_d));
	return m;
}

static void emit_spells(struct node *l, const struct wm_army *a)
{
	for (size_t j = 0; j < a->n_spells; j++) {
		const struct wm_spell *sp = &a->spells[j];
		struct node *m = node_seq_add(l, node_new_map());
		node_map_str(m, "name", sp->name);
		node_map_str(m, "kind", wm_spell_kind_names[sp->kind]);
		node_map_int(m, "cast", sp->cast);
		node_map_int(m, "range", sp->range);
		if (sp->kind == WM_SPELL_ATTACKS || sp->kind == WM_SPELL_LINE)
			node_map_int(m, "attacks", sp->attacks);
		if (sp->kind == WM_SPELL_DRIVE_BACK)
			node_map_int(m, "step", sp->step);
		if (sp->kind == WM_SPELL_BONUS)
			node_map_int(m, "bonus", sp->bonus);
		if (sp->n_exclude) {
			struct node *x = node_map_add(m, "exclude", node_new_seq());
			for (size_t k = 0; k < sp->n_exclude; k++)
				node_seq_add(x, node_new_str(sp->exclude[k]));
		}
	}
}

static struct node *unit_emit(const struct wm_state *s, const struct wm_unit *u)
{
	struct node *m = node_new_map();
	node_map_str(m, "id", u->id);
	node_map_str(m, "player", s->side[u->side].player);
	node_map_str(m, "name", u->name);
	struct node *f = node_map_add(m, "front", node_new_seq());
	node_seq_add(f, pt_node(u->fl));
	node_seq_add(f, pt_node(u->fr));
	node_map_str(m, "formation", wm_formation_names[u->formation]);
	if (u->brigade)
		node_map_str(m, "brigade", u->brigade);
	node_map_int(m, "stands", u->stands);
	if (u->penalty)
		node_map_int(m, "penalty", u->penalty);
	if (u->confused)
		node_map_bool(m, "confused", 1);
	if (u->immobile)
		node_map_bool(m, "immobile", 1);
	if (u->reduced)
		node_map_bool(m, "reduced", 1);
	if (u->ship_damage)
		node_map_bool(m, "damaged", 1);
	if (u->engaged)
		node_map_str(m, "engaged", s->units[u->engaged - 1].id);
	return m;
}

static void emit_terrain(const struct wm_state *s, struct node *g)
{
	struct node *l = node_map_add(g, "terrain", node_new_seq());
	for (size_t i = 0; i < s->n_areas; i++) {
		const struct wm_area *a = &s->areas[i];
		struct node *m = node_seq_add(l, node_new_map());
		node_map_str(m, "id", a->id);
		node_map_str(m, "kind", wm_akind_names[a->kind]);
		struct node *p = node_map_add(m, "points", node_new_seq());
		for (size_t k = 0; k < a->n; k++)
			node_seq_add(p, pt_node(a->v[k]));
		if (a->flow.x || a->flow.y)
			node_map_add(m, "flow", pt_node(a->flow));
		if (a->boiling_oil)
			node_map_bool(m, "boiling-oil", 1);
	}
	l = node_map_add(g, "structures", node_new_seq());
	for (size_t i = 0; i < s->n_structures; i++) {
		const struct wm_structure *st = &s->structures[i];
		struct node *m = node_seq_add(l, node_new_map());
		node_map_str(m, "id", st->id);
		node_map_str(m, "kind", wm_skind_names[st->kind]);
		node_map_add(m, "at", pt_node(st->at));
		node_map_bool(m, "damaged", st->damaged);
		node_map_int(m, "breaches", st->breaches);
	}
}

struct node *wm_state_emit(const struct rules_campaign *c, const void *state)
{
	(void)c;
	return wm_state_emit_view(state, WM_VIEW_ALL);
}

struct node *wm_state_emit_view(const struct wm_state *s, int side)
{
	struct node *g = node_new_map(), *t = node_map_add(g, "table", node_new_map()), *l;
	node_map_int(t, "width", s->width);
	node_map_int(t, "depth", s->depth);
	if (s->wind.x || s->wind.y)
		node_map_add(g, "wind", pt_node(s->wind));
	node_map_int(g, "turns", s->turns);
	l = node_map_add(g, "armies", node_new_seq());
	for (size_t i = 0; i < s->n_armies; i++) {
		struct node *a = node_seq_add(l, node_new_map()), *v;
		node_map_str(a, "name", s->armies[i].name);
		if (s->armies[i].source)
			node_map_str(a, "source", s->armies[i].source);
		v = node_map_add(a, "list", node_new_seq());
		for (size_t j = 0; j < s->armies[i].n; j++)
			node_seq_add(v, profile_emit(&s->armies[i].v[j]));
		if (s->armies[i].n_spells)
			emit_spells(node_map_add(a, "spells", node_new_seq()), &s->armies[i]);
	}
	l = node_map_add(g, "sides", node_new_seq());
	for (size_t i = 0; i < s->n_sides; i++) {
		struct node *m = node_seq_add(l, node_new_map());
		node_map_str(m, "player", s->side[i].player);
		node_map_str(m, "army", s->armies[s->side[i].army].name);
		if (side != WM_VIEW_ALL && side != (int)i)
			continue; /* a side's standing choices are its own */
		node_map_str(m, "win", wm_after_names[s->side[i].win]);
		node_map_str(m, "draw", draw_choice_names[s->side[i].draw_stand]);
	}
	emit_terrain(s, g);
	l = node_map_add(g, "characters", node_new_seq());
	for (size_t i = 0; i < s->n_chars; i++) {
		struct node *m = node_seq_add(l, node_new_map());
		node_map_str(m, "id", s->chars[i].id);
		node_map_str(m, "player", s->side[s->chars[i].side].player);
		node_map_str(m, "name", s->chars[i].name);
		node_map_add(m, "at", pt_node(s->chars[i].at));
		if (s->chars[i].with)
			node_map_str(m, "with", s->units[s->chars[i].with - 1].id);
		if (s->chars[i].slain)
			node_map_bool(m, "slain", 1);
	}
	l = node_map_add(g, "units", node_new_seq());
	for (size_t i = 0; i < s->n_units; i++)
		node_seq_add(l, unit_emit(s, &s->units[i]));
	return g;
}
