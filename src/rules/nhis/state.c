/* state.c — NHiS campaign options and game state: parsing a scenario's or state.yaml's
 * `game:` (map, sides, units, standing orders) with every problem reported at its node,
 * and emitting both in canonical order so state files diff cleanly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/nhis/nhis.h"
#include "core/suggest.h"
#include "core/words.h"
#include "core/banned.h"

const char *const nhis_utype_names[] = {
	"squad",
	"leader",
	"mg",
	"mortar",
	"flamethrower",
	"tank",
	NULL,
};
static const char *const rally_names[] = { "leadership", "plain", NULL };
static const char *const hexside_names[] = { "clear-if-either", "blocked-if-either", NULL };
static const char *const tank_morale_names[] = { "nationality", "unshakable", NULL };
static const char *const step_names[] = { "full", "reduced", "eliminated", NULL };
static const char *const marker_names[] = { "move", "fire", "charge", "crawl", NULL };

/* ---- options ---- */

void nhis_options_default(struct nhis_options *o)
{
	memset(o, 0, sizeof(*o));
	o->night_visibility = 0;
	snprintf(o->unshakable[0], sizeof(o->unshakable[0]), "japanese");
	o->n_unshakable = 1;
	snprintf(o->banzai[0], sizeof(o->banzai[0]), "japanese");
	o->n_banzai = 1;
	o->rally = NHIS_RALLY_LEADERSHIP;
	o->hill_blocks_los = 1;
	o->hexside = NHIS_HEXSIDE_EITHER;
	o->building_cost = 2;
	o->building_cover = 3;
	o->tank_morale = NHIS_TANK_NATIONALITY;
}

int nhis_nation_in(const char list[][NHIS_NATION_LEN + 1], int n, const char *nationality)
{
	for (int i = 0; i < n; i++)
		if (nationality && strcmp(list[i], nationality) == 0)
			return 1;
	return 0;
}

static int parse_nations(const struct node *n, const char *what, char list[][NHIS_NATION_LEN + 1],
	int *count, struct diag *d)
{
	int rc = 0;
	*count = 0;
	if (node_check_seq(n, what, NHIS_MAX_NATIONS, d) < 0)
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		const char *s;
		if (node_want_id(n->items[i], what, &s, d) < 0) {
			rc = -1;
			continue;
		}
		if (strlen(s) > NHIS_NATION_LEN) {
			node_error(d, n->items[i],
				"nationality '%s' is too long (at most %d bytes)", s,
				NHIS_NATION_LEN);
			rc = -1;
			continue;
		}
		if (nhis_nation_in(list, *count, s)) {
			node_error(d, n->items[i], "nationality '%s' is listed twice (each once)",
				s);
			rc = -1;
			continue;
		}
		snprintf(list[*count], sizeof(list[*count]), "%s", s);
		(*count)++;
	}
	return rc;
}

/* The kebab-case spelling of key when key is one of allowed written with '_' for '-' (the
 * snake_case option names of earlier versions), else NULL. */
static const char *kebab_spelling(const char *key, const char *const *allowed)
{
	char k[64];
	size_t len = strlen(key);
	if (!strchr(key, '_') || len >= sizeof(k))
		return NULL;
	for (size_t i = 0; i <= len; i++)
		k[i] = key[i] == '_' ? '-' : key[i];
	for (size_t j = 0; allowed[j]; j++)
		if (strcmp(allowed[j], k) == 0)
			return allowed[j];
	return NULL;
}

/* node_check_map for option maps (what: "options" or the option holding a nested map):
 * option names are kebab-case, as campaign files spell them, and a key written snake_case is
 * refused with the spelling to use; any other unknown key is reported as node_check_map
 * reports it. */
static int check_option_keys(const struct node *n, const char *what, const char *const *allowed,
	struct diag *d)
{
	int rc = 0;
	if (n->kind != NODE_MAP)
		return node_check_map(n, what, allowed, d);
	for (size_t i = 0; i < n->n; i++) {
		const char *key = n->keys[i]->scalar, *hint = kebab_spelling(key, allowed);
		if (hint) {
			if (strcmp(what, "options") == 0)
				node_error(d, n->keys[i],
					"unknown option '%s' (did you mean '%s'?)", key, hint);
			else
				node_error(d, n->keys[i],
					"unknown key '%s' in %s (did you mean '%s'?)", key, what,
					hint);
			rc = -1;
			continue;
		}
		/* One pair at a time, so the errors keep the file's order. */
		struct node one = *n;
		one.n = 1;
		one.keys = &n->keys[i];
		one.items = &n->items[i];
		if (node_check_map(&one, what, allowed, d) < 0)
			rc = -1;
	}
	return rc;
}

static int parse_night_visibility(const struct node *n, struct nhis_options *o, struct diag *d)
{
	long long v;
	if (n->kind == NODE_SCALAR && strcmp(n->scalar, "none") == 0) {
		o->night_visibility = 0;
		return 0;
	}
	if (n->kind != NODE_SCALAR || n->scalar[0] < '0' || n->scalar[0] > '9') {
		node_error(d, n, "night-visibility is not a number of hexes ('none' or 1..99)");
		return -1;
	}
	if (node_want_int(n, "night-visibility", 1, 99, &v, d) < 0)
		return -1;
	o->night_visibility = (int)v;
	return 0;
}

/* wooden-building: {cost, cover}, the illegible terrain chart entries (NOTES §004). */
static int parse_wooden_building(const struct node *n, struct nhis_options *o, struct diag *d)
{
	static const char *const keys[] = { "cost", "cover", NULL };
	int rc = 0;
	long long v;
	const struct node *m;
	if (check_option_keys(n, "wooden-building", keys, d) < 0)
		rc = -1;
	if ((m = node_get(n, "cost"))) {
		if (node_want_int(m, "wooden-building cost", 1, 9, &v, d) < 0)
			rc = -1;
		else
			o->building_cost = (int)v;
	}
	if ((m = node_get(n, "cover"))) {
		if (node_want_int(m, "wooden-building cover", 0, 9, &v, d) < 0)
			rc = -1;
		else
			o->building_cover = (int)v;
	}
	return rc;
}

/* `victory: {hexes: [CCRR, ...], hex-points: N, unit-points: N}` (docs/rules/nhis.md
 * "Victory"); the points default to 1. */
static int parse_victory(const struct node *n, struct nhis_options *o, struct diag *d)
{
	static const char *const keys[] = { "hexes", "hex-points", "unit-points", NULL };
	const struct node *m;
	long long v;
	int rc = 0;

	if (check_option_keys(n, "victory", keys, d) < 0)
		return -1;
	o->victory = 1;
	o->hex_points = o->unit_points = 1;
	if ((m = node_get(n, "hexes"))) {
		if (node_check_seq(m, "victory hexes", NHIS_MAX_VICTORY_HEXES, d) < 0)
			return -1;
		for (size_t i = 0; i < m->n; i++) {
			const char *h;
			int hex;
			if (node_want_str(m->items[i], "victory hex", 8, &h, d) < 0)
				rc = -1;
			else if (nhis_hex_parse(h, &hex) < 0) {
				node_error(d, m->items[i], "hex '%s' (a hex CCRR expected)", h);
				rc = -1;
			} else
				o->victory_hex[o->n_victory_hex++] = hex;
		}
	}
	if ((m = node_get(n, "hex-points"))) {
		if (node_want_int(m, "victory hex-points", 0, 100, &v, d) < 0)
			rc = -1;
		else
			o->hex_points = (int)v;
	}
	if ((m = node_get(n, "unit-points"))) {
		if (node_want_int(m, "victory unit-points", 0, 100, &v, d) < 0)
			rc = -1;
		else
			o->unit_points = (int)v;
	}
	return rc;
}

int nhis_options_parse(void **out, const struct node *opts, struct diag *d)
{
	static const char *const keys[] = { "night-visibility", "unshakable", "banzai", "rally",
		"hill-blocks-los", "hexside-los", "wooden-building", "tank-morale", "victory",
		NULL };
	struct nhis_options *o = xcalloc(1, sizeof(*o));
	const struct node *n;
	int rc = 0, e;
	nhis_options_default(o);
	*out = NULL;
	if (!opts)
		goto done;
	if (check_option_keys(opts, "options", keys, d) < 0) {
		rc = -1;
		if (opts->kind != NODE_MAP)
			goto done;
	}
	if ((n = node_get(opts, "night-visibility")) && parse_night_visibility(n, o, d) < 0)
		rc = -1;
	if ((n = node_get(opts, "unshakable")) &&
		parse_nations(n, "unshakable", o->unshakable, &o->n_unshakable, d) < 0)
		rc = -1;
	if ((n = node_get(opts, "banzai")) &&
		parse_nations(n, "banzai", o->banzai, &o->n_banzai, d) < 0)
		rc = -1;
	if ((n = node_get(opts, "rally"))) {
		if (node_want_enum(n, "rally", rally_names, &e, d) < 0)
			rc = -1;
		else
			o->rally = (enum nhis_rally)e;
	}
	if ((n = node_get(opts, "hexside-los"))) {
		if (node_want_enum(n, "hexside-los", hexside_names, &e, d) < 0)
			rc = -1;
		else
			o->hexside = (enum nhis_hexside)e;
	}
	if ((n = node_get(opts, "tank-morale"))) {
		if (node_want_enum(n, "tank-morale", tank_morale_names, &e, d) < 0)
			rc = -1;
		else
			o->tank_morale = (enum nhis_tank_morale)e;
	}
	if ((n = node_get(opts, "hill-blocks-los")) &&
		node_want_bool(n, "hill-blocks-los", &o->hill_blocks_los, d) < 0)
		rc = -1;
	if ((n = node_get(opts, "wooden-building")) && parse_wooden_building(n, o, d) < 0)
		rc = -1;
	if ((n = node_get(opts, "victory")) && parse_victory(n, o, d) < 0)
		rc = -1;
done:
	if (rc < 0)
		free(o);
	else
		*out = o;
	return rc;
}

struct node *nhis_options_emit(const void *opts)
{
	struct nhis_options def;
	const struct nhis_options *o = opts;
	if (!o) {
		nhis_options_default(&def);
		o = &def;
	}
	struct node *m = node_new_map();
	if (o->night_visibility > 0)
		node_map_int(m, "night-visibility", o->night_visibility);
	else
		node_map_str(m, "night-visibility", "none");
	struct node *l = node_map_add(m, "unshakable", node_new_seq());
	for (int i = 0; i < o->n_unshakable; i++)
		node_seq_add(l, node_new_str(o->unshakable[i]));
	l = node_map_add(m, "banzai", node_new_seq());
	for (int i = 0; i < o->n_banzai; i++)
		node_seq_add(l, node_new_str(o->banzai[i]));
	node_map_str(m, "rally", rally_names[o->rally]);
	node_map_bool(m, "hill-blocks-los", o->hill_blocks_los);
	node_map_str(m, "hexside-los", hexside_names[o->hexside]);
	struct node *wb = node_map_add(m, "wooden-building", node_new_map());
	node_map_int(wb, "cost", o->building_cost);
	node_map_int(wb, "cover", o->building_cover);
	node_map_str(m, "tank-morale", tank_morale_names[o->tank_morale]);
	if (o->victory) {
		struct node *v = node_map_add(m, "victory", node_new_map());
		struct node *hexes = node_map_add(v, "hexes", node_new_seq());
		char name[8];
		for (int i = 0; i < o->n_victory_hex; i++) {
			nhis_hex_name(o->victory_hex[i], name);
			node_seq_add(hexes, node_new_str(name));
		}
		node_map_int(v, "hex-points", o->hex_points);
		node_map_int(v, "unit-points", o->unit_points);
	}
	return m;
}

void nhis_options_free(void *opts)
{
	free(opts);
}

/* ---- helpers shared with orders.c ---- */

int nhis_want_hex(const struct nhis_map *m, const struct node *n, const char *what, int *out,
	struct diag *d)
{
	const char *s;
	if (node_want_str(n, what, 8, &s, d) < 0)
		return -1;
	int h;
	if (nhis_hex_parse(s, &h) < 0) {
		node_error(d, n,
			"%s '%s' is not a hex name (four digits, column then row, e.g. "
			"'0304')",
			what, s);
		return -1;
	}
	if (!nhis_on_map(m, h)) {
		node_error(d, n, "%s '%s' is off the map (columns 01-%02d, rows 01-%02d)", what, s,
			m->cols, m->rows);
		return -1;
	}
	*out = h;
	return 0;
}

int nhis_unit_find(const struct nhis_state *s, const char *id)
{
	for (size_t i = 0; i < s->n_units; i++)
		if (strcmp(s->units[i].id, id) == 0)
			return (int)i;
	return -1;
}

int nhis_side_of(const struct nhis_state *s, const char *player)
{
	for (int i = 0; i < 2; i++)
		if (s->side[i].player && player && strcmp(s->side[i].player, player) == 0)
			return i;
	return -1;
}

void nhis_opportunity_free(struct nhis_opportunity *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].units);
	free(v);
}

int nhis_want_listed_unit(const struct nhis_state *s, int side, const struct node *un,
	const int *listed, size_t n_listed, struct diag *d)
{
	const char *id;
	if (node_want_id(un, "unit", &id, d) < 0)
		return -1;
	int ui = nhis_unit_find(s, id);
	if (ui < 0) {
		const char **names = xcalloc(s->n_units + 1, sizeof(*names));
		struct buf hint = BUF_INIT;
		size_t k = 0;
		for (size_t j = 0; j < s->n_units; j++)
			if (s->units[j].side == side && !s->units[j].eliminated)
				names[k++] = s->units[j].id;
		suggest_append(&hint, id, names, k, 12);
		node_error(d, un, "no unit '%s' (a unit id of the scenario)%s", id, buf_str(&hint));
		buf_release(&hint);
		free(names);
		return -1;
	}
	if (s->units[ui].side != side) {
		node_error(d, un, "unit '%s' belongs to %s (one of %s%s units)", id,
			s->side[s->units[ui].side].player, s->side[side].player,
			words_possessive(s->side[side].player));
		return -1;
	}
	for (size_t j = 0; j < n_listed; j++)
		if (listed[j] == ui) {
			node_error(d, un, "unit '%s' is listed twice (each once)", id);
			return -1;
		}
	return ui;
}

/* One unit listed in an opportunity-fire order o of side: a unit of the scenario, side's,
 * listed once, and with at_hex standing in the order's hex now. Returns its index, or -1
 * (reported). */
static int want_opportunity_unit(const struct nhis_state *s, int side,
	const struct nhis_opportunity *o, const struct node *un, int at_hex, struct diag *d)
{
	const char *id = un->scalar;
	int ui = nhis_want_listed_unit(s, side, un, o->units, o->n_units, d);
	if (ui < 0)
		return -1;
	if (at_hex && o->hex && (s->units[ui].eliminated || s->units[ui].hex != o->hex)) {
		char hx[5];
		nhis_hex_name(o->hex, hx);
		node_error(d, un, "unit '%s' is not in hex %s (a unit standing there)", id, hx);
		return -1;
	}
	return ui;
}

/* One opportunity-fire order {hex, within, units} of side into *o. */
static int parse_opportunity(const struct nhis_state *s, int side, const struct node *e, int at_hex,
	struct nhis_opportunity *o, struct diag *d)
{
	static const char *const keys[] = { "hex", "within", "units", NULL };
	int rc = 0;
	if (node_check_keys(e, "opportunity fire order", keys, &rc, d) < 0)
		return -1;
	const struct node *h = node_need(e, "hex", d);
	const struct node *w = node_need(e, "within", d);
	const struct node *u = node_get(e, "units");
	if (!h || nhis_want_hex(&s->map, h, "hex", &o->hex, d) < 0)
		rc = -1;
	long long within = 0;
	if (!w || node_want_int(w, "within", 1, 99, &within, d) < 0)
		rc = -1;
	o->within = (int)within;
	if (!u)
		return rc;
	if (node_check_seq(u, "units", NHIS_MAX_UNITS, d) < 0)
		return -1;
	o->units = xcalloc(u->n ? u->n : 1, sizeof(*o->units));
	for (size_t k = 0; k < u->n; k++) {
		int ui = want_opportunity_unit(s, side, o, u->items[k], at_hex, d);
		if (ui < 0)
			rc = -1;
		else
			o->units[o->n_units++] = ui;
	}
	return rc;
}

int nhis_opportunity_parse(const struct nhis_state *s, int side, const struct node *seq, int at_hex,
	struct nhis_opportunity **out, size_t *n, struct diag *d)
{
	int rc = 0;
	*out = NULL;
	*n = 0;
	if (node_check_seq(seq, "opportunity", NHIS_MAX_OPP, d) < 0)
		return -1;
	struct nhis_opportunity *v = xcalloc(seq->n ? seq->n : 1, sizeof(*v));
	size_t count = 0;
	for (size_t i = 0; i < seq->n; i++)
		if (parse_opportunity(s, side, seq->items[i], at_hex, &v[count++], d) < 0)
			rc = -1;
	if (rc < 0) {
		nhis_opportunity_free(v, count);
		return -1;
	}
	*out = v;
	*n = count;
	return 0;
}

struct node *nhis_opportunity_emit(const struct nhis_state *s, const struct nhis_opportunity *v,
	size_t n)
{
	struct node *seq = node_new_seq();
	for (size_t i = 0; i < n; i++) {
		struct node *e = node_seq_add(seq, node_new_map());
		char hx[5];
		nhis_hex_name(v[i].hex, hx);
		node_map_str(e, "hex", hx);
		node_map_int(e, "within", v[i].within);
		if (v[i].n_units) {
			struct node *u = node_map_add(e, "units", node_new_seq());
			for (size_t k = 0; k < v[i].n_units; k++)
				node_seq_add(u, node_new_str(s->units[v[i].units[k]].id));
		}
	}
	return seq;
}

/* ---- state ---- */

void nhis_state_free(void *state)
{
	struct nhis_state *s = state;
	if (!s)
		return;
	free(s->map.v);
	for (int i = 0; i < 2; i++) {
		free(s->side[i].player);
		free(s->side[i].nationality);
		nhis_opportunity_free(s->side[i].opp, s->side[i].n_opp);
	}
	for (size_t i = 0; i < s->n_units; i++)
		free(s->units[i].id);
	free(s->units);
	free(s);
}

/* One entry of the map's `hexes` list: terrain, feature, elevation and road of a hex, each
 * hex described once (seen: one flag per hex). */
static int parse_hex(struct nhis_state *s, const struct node *e, unsigned char *seen,
	struct diag *d)
{
	static const char *const keys[] = { "hex", "terrain", "elevation", "road", "feature",
		NULL };
	int rc = 0, h, v;
	long long el;
	if (node_check_keys(e, "hex", keys, &rc, d) < 0)
		return -1;
	const struct node *n = node_need(e, "hex", d);
	if (!n || nhis_want_hex(&s->map, n, "hex", &h, d) < 0)
		return -1;
	size_t at = (size_t)(h / 100 - 1) * (size_t)s->map.rows + (size_t)(h % 100 - 1);
	if (seen[at]) {
		node_error(d, n, "hex '%s' is described twice (each hex once)", n->scalar);
		return -1;
	}
	seen[at] = 1;
	struct nhis_hex *x = &s->map.v[at];
	if ((n = node_get(e, "terrain"))) {
		if (node_want_enum(n, "terrain", nhis_terrain_names, &v, d) < 0)
			rc = -1;
		else
			x->terrain = (unsigned char)v;
	}
	if ((n = node_get(e, "feature"))) {
		if (node_want_enum(n, "feature", nhis_feature_names, &v, d) < 0)
			rc = -1;
		else
			x->feature = (unsigned char)v;
	}
	if ((n = node_get(e, "elevation"))) {
		if (node_want_int(n, "elevation", 0, NHIS_MAX_ELEVATION, &el, d) < 0)
			rc = -1;
		else
			x->elevation = (unsigned char)el;
	}
	if ((n = node_get(e, "road"))) {
		if (node_want_bool(n, "road", &v, d) < 0)
			rc = -1;
		else
			x->road = (unsigned char)v;
	}
	return rc;
}

/* map: {columns, rows, terrain (of every hex not listed), hexes: [...]}. */
static int parse_map(struct nhis_state *s, const struct node *m, struct diag *d)
{
	static const char *const keys[] = { "columns", "rows", "terrain", "hexes", NULL };
	int rc = 0;
	if (node_check_keys(m, "map", keys, &rc, d) < 0)
		return -1;
	long long cols = 0, rows = 0;
	const struct node *n = node_need(m, "columns", d);
	if (!n || node_want_int(n, "columns", 1, NHIS_MAX_COLS, &cols, d) < 0)
		return -1;
	n = node_need(m, "rows", d);
	if (!n || node_want_int(n, "rows", 1, NHIS_MAX_ROWS, &rows, d) < 0)
		return -1;
	s->map.cols = (int)cols;
	s->map.rows = (int)rows;
	int def = NHIS_OPEN;
	if ((n = node_get(m, "terrain")) &&
		node_want_enum(n, "terrain", nhis_terrain_names, &def, d) < 0)
		rc = -1;
	s->map.terrain = def;
	s->map.v = xcalloc((size_t)(cols * rows), sizeof(*s->map.v));
	for (long long i = 0; i < cols * rows; i++)
		s->map.v[i].terrain = (unsigned char)def;
	const struct node *hexes = node_get(m, "hexes");
	if (!hexes)
		return rc;
	if (node_check_seq(hexes, "hexes", (size_t)(cols * rows), d) < 0)
		return -1;
	unsigned char *seen = xcalloc((size_t)(cols * rows), 1);
	for (size_t i = 0; i < hexes->n; i++)
		if (parse_hex(s, hexes->items[i], seen, d) < 0)
			rc = -1;
	free(seen);
	return rc;
}

/* Reads a counter side from map m; what names m for its key check (NULL: the caller has
 * checked m's keys). */
static int parse_values(const struct node *m, const char *what, int leader, struct nhis_values *v,
	struct diag *d)
{
	static const char *const keys[] = { "firepower", "range", "movement", "morale",
		"leadership", NULL };
	static const char *const names[] = { "firepower", "range", "movement", "morale" };
	static const long long max[] = { 99, 99, 99, 12 };
	int *field[] = { &v->firepower, &v->range, &v->movement, &v->morale };
	int rc = 0;
	if (what && node_check_keys(m, what, keys, &rc, d) < 0)
		return -1;
	for (int i = 0; i < 4; i++) {
		const struct node *n = node_need(m, names[i], d);
		long long x;
		if (!n || node_want_int(n, names[i], 0, max[i], &x, d) < 0)
			rc = -1;
		else
			*field[i] = (int)x;
	}
	const struct node *n = node_get(m, "leadership");
	if (leader) {
		long long x;
		if (!(n = node_need(m, "leadership", d)) ||
			node_want_int(n, "leadership", 0, 9, &x, d) < 0)
			rc = -1;
		else
			v->leadership = (int)x;
	} else if (n) {
		node_error(d, n, "only leaders have leadership (remove it)");
		rc = -1;
	}
	return rc;
}

static int parse_unit(struct nhis_state *s, struct nhis_unit *u, const struct node *e,
	struct diag *d)
{
	static const char *const keys[] = { "id", "player", "type", "hex", "firepower", "range",
		"movement", "morale", "leadership", "reduced", "step", "shaken", "markers", NULL };
	int rc = 0;
	if (node_check_keys(e, "unit", keys, &rc, d) < 0)
		return -1;
	const struct node *n;
	const char *str;
	if (!(n = node_need(e, "id", d)) || node_want_id(n, "unit id", &str, d) < 0)
		rc = -1;
	else if (nhis_unit_find(s, str) >= 0) {
		node_error(d, n, "unit id '%s' is used twice (unique ids)", str);
		rc = -1;
	} else
		u->id = xstrdup(str);
	u->side = -1;
	if (!(n = node_need(e, "player", d)) || node_want_id(n, "player", &str, d) < 0)
		rc = -1;
	else if ((u->side = nhis_side_of(s, str)) < 0) {
		node_error(d, n, "player '%s' has no side (%s or %s)", str,
			s->side[0].player ? s->side[0].player : "?",
			s->side[1].player ? s->side[1].player : "?");
		rc = -1;
	}
	int t = 0;
	if (!(n = node_need(e, "type", d)) ||
		node_want_enum(n, "type", nhis_utype_names, &t, d) < 0)
		rc = -1;
	u->type = (enum nhis_utype)t;
	if (!(n = node_need(e, "hex", d)) || nhis_want_hex(&s->map, n, "hex", &u->hex, d) < 0)
		rc = -1;
	/* The printed front values sit in the unit's own map (whose keys are checked above),
	 * the reduced side under `reduced`. */
	if (parse_values(e, NULL, u->type == NHIS_LEADER, &u->full, d) < 0)
		rc = -1;
	if (!(n = node_need(e, "reduced", d)) ||
		parse_values(n, "reduced side", u->type == NHIS_LEADER, &u->reduced, d) < 0)
		rc = -1;
	int step = 0;
	if ((n = node_get(e, "step")) && node_want_enum(n, "step", step_names, &step, d) < 0)
		rc = -1;
	u->is_reduced = step >= 1;
	u->eliminated = step == 2;
	if ((n = node_get(e, "shaken")) && node_want_bool(n, "shaken", &u->shaken, d) < 0)
		rc = -1;
	if ((n = node_get(e, "markers"))) {
		if (node_check_seq(n, "markers", 4, d) < 0)
			rc = -1;
		else
			for (size_t k = 0; k < n->n; k++) {
				int mk;
				if (node_want_enum(n->items[k], "marker", marker_names, &mk, d) < 0)
					rc = -1;
				else
					u->markers |= 1u << mk;
			}
	}
	return rc;
}

static int parse_sides(struct nhis_state *s, const struct rules_campaign *c,
	const struct node *sides, struct diag *d)
{
	static const char *const keys[] = { "player", "nationality", "opportunity", NULL };
	int rc = 0;
	if (node_check_seq(sides, "sides", 2, d) < 0)
		return -1;
	if (sides->n != 2 || c->n_players != 2) {
		node_error(d, sides,
			"the game has %zu sides and the campaign %zu players (two sides, "
			"one per player)",
			sides->n, c->n_players);
		return -1;
	}
	for (size_t i = 0; i < 2; i++) {
		const struct node *e = sides->items[i], *n;
		const char *str;
		if (node_check_keys(e, "side", keys, &rc, d) < 0)
			continue;
		if (!(n = node_need(e, "player", d)) || node_want_id(n, "player", &str, d) < 0)
			rc = -1;
		else {
			int known = 0;
			for (size_t k = 0; k < c->n_players; k++)
				if (strcmp(c->players[k], str) == 0)
					known = 1;
			if (!known) {
				node_error(d, n,
					"player '%s' is not a player of the campaign (%s or %s)",
					str, c->players[0], c->players[1]);
				rc = -1;
			} else if (nhis_side_of(s, str) >= 0) {
				node_error(d, n, "player '%s' has two sides (one side each)", str);
				rc = -1;
			} else
				s->side[i].player = xstrdup(str);
		}
		if (!(n = node_need(e, "nationality", d)) ||
			node_want_id(n, "nationality", &str, d) < 0)
			rc = -1;
		else if (strlen(str) > NHIS_NATION_LEN) {
			node_error(d, n, "nationality '%s' is too long (at most %d bytes)", str,
				NHIS_NATION_LEN);
			rc = -1;
		} else
			s->side[i].nationality = xstrdup(str);
	}
	return rc;
}

int nhis_state_parse(void **out, const struct rules_campaign *c, const struct node *game,
	struct diag *d)
{
	static const char *const keys[] = { "map", "sides", "initiative", "turns", "units", NULL };
	struct nhis_state *s = xcalloc(1, sizeof(*s));
	int rc = 0;
	const struct node *n;
	*out = NULL;
	if (!game) {
		node_error(d, NULL, "no game (the scenario's map, sides and units)");
		rc = -1;
		goto done;
	}
	if (node_check_keys(game, "game", keys, &rc, d) < 0)
		goto done;
	if (!(n = node_need(game, "map", d)) || parse_map(s, n, d) < 0) {
		rc = -1;
		if (!s->map.v)
			goto done;
	}
	if (!(n = node_need(game, "sides", d)) || parse_sides(s, c, n, d) < 0) {
		rc = -1;
		goto done;
	}
	const char *str;
	if (!(n = node_need(game, "initiative", d)) || node_want_id(n, "initiative", &str, d) < 0)
		rc = -1;
	else if ((s->initiative = nhis_side_of(s, str)) < 0) {
		node_error(d, n, "initiative '%s' is not a side (%s or %s)", str, s->side[0].player,
			s->side[1].player);
		rc = -1;
	}
	long long turns = 0;
	if ((n = node_get(game, "turns")) && node_want_int(n, "turns", 0, 9999, &turns, d) < 0)
		rc = -1;
	s->turns = (int)turns;
	const struct node *units = node_need(game, "units", d);
	if (!units || node_check_seq(units, "units", NHIS_MAX_UNITS, d) < 0) {
		rc = -1;
		goto done;
	}
	s->units = xcalloc(units->n ? units->n : 1, sizeof(*s->units));
	for (size_t i = 0; i < units->n; i++) {
		struct nhis_unit *u = &s->units[s->n_units];
		if (parse_unit(s, u, units->items[i], d) < 0 || !u->id || u->side < 0) {
			free(u->id);
			memset(u, 0, sizeof(*u));
			rc = -1;
			continue;
		}
		s->n_units++;
	}
	/* Standing orders name units, so they are read once every unit is known. */
	const struct node *sides = node_get(game, "sides");
	for (int i = 0; i < 2; i++) {
		const struct node *opp = node_get(sides->items[i], "opportunity");
		if (opp && nhis_opportunity_parse(s, i, opp, 0, &s->side[i].opp, &s->side[i].n_opp,
				   d) < 0)
			rc = -1;
	}
done:
	if (rc < 0)
		nhis_state_free(s);
	else
		*out = s;
	return rc;
}

static void emit_values(struct node *m, const struct nhis_unit *u, const struct nhis_values *v)
{
	node_map_int(m, "firepower", v->firepower);
	node_map_int(m, "range", v->range);
	node_map_int(m, "movement", v->movement);
	node_map_int(m, "morale", v->morale);
	if (u->type == NHIS_LEADER)
		node_map_int(m, "leadership", v->leadership);
}

struct node *nhis_state_emit(const struct rules_campaign *c, const void *state)
{
	return nhis_state_emit_view(c, state, 2);
}

struct node *nhis_state_emit_view(const struct rules_campaign *c, const void *state, int side_view)
{
	const struct nhis_state *s = state;
	(void)c;
	struct node *g = node_new_map();
	struct node *m = node_map_add(g, "map", node_new_map());
	node_map_int(m, "columns", s->map.cols);
	node_map_int(m, "rows", s->map.rows);
	node_map_str(m, "terrain", nhis_terrain_names[s->map.terrain]);
	struct node *hexes = node_map_add(m, "hexes", node_new_seq());
	/* Column-major order is hex-name order ("0101" < "0102" < "0201"). */
	for (int col = 1; col <= s->map.cols; col++)
		for (int row = 1; row <= s->map.rows; row++) {
			int h = col * 100 + row;
			const struct nhis_hex *x = nhis_map_at(&s->map, h);
			if (x->terrain == s->map.terrain && !x->feature && !x->elevation &&
				!x->road)
				continue;
			struct node *e = node_seq_add(hexes, node_new_map());
			char hx[5];
			nhis_hex_name(h, hx);
			node_map_str(e, "hex", hx);
			node_map_str(e, "terrain", nhis_terrain_names[x->terrain]);
			if (x->elevation)
				node_map_int(e, "elevation", x->elevation);
			if (x->road)
				node_map_bool(e, "road", 1);
			if (x->feature)
				node_map_str(e, "feature", nhis_feature_names[x->feature]);
		}
	struct node *sides = node_map_add(g, "sides", node_new_seq());
	for (int i = 0; i < 2; i++) {
		struct node *e = node_seq_add(sides, node_new_map());
		node_map_str(e, "player", s->side[i].player);
		node_map_str(e, "nationality", s->side[i].nationality);
		if (s->side[i].n_opp && (side_view == 2 || side_view == i))
			node_map_add(e, "opportunity",
				nhis_opportunity_emit(s, s->side[i].opp, s->side[i].n_opp));
	}
	node_map_str(g, "initiative", s->side[s->initiative].player);
	node_map_int(g, "turns", s->turns);
	struct node *units = node_map_add(g, "units", node_new_seq());
	for (size_t i = 0; i < s->n_units; i++) {
		const struct nhis_unit *u = &s->units[i];
		struct node *e = node_seq_add(units, node_new_map());
		char hx[5];
		nhis_hex_name(u->hex, hx);
		node_map_str(e, "id", u->id);
		node_map_str(e, "player", s->side[u->side].player);
		node_map_str(e, "type", nhis_utype_names[u->type]);
		node_map_str(e, "hex", hx);
		emit_values(e, u, &u->full);
		emit_values(node_map_add(e, "reduced", node_new_map()), u, &u->reduced);
		node_map_str(e, "step", step_names[u->eliminated ? 2 : u->is_reduced ? 1 : 0]);
		node_map_bool(e, "shaken", u->shaken);
		if (u->markers) {
			struct node *mk = node_map_add(e, "markers", node_new_seq());
			for (int k = 0; marker_names[k]; k++)
				if (u->markers & (1u << k))
					node_seq_add(mk, node_new_str(marker_names[k]));
		}
	}
	return g;
}
