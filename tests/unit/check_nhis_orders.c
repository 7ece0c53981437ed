/* check_nhis_orders.c — NHiS files and turns: options and state parse/emit round trips,
 * scenario errors and order-file errors at their line:column, and whole impulses and turns
 * with scripted dice (alternation, movement, opportunity fire, Charge and Banzai, void
 * orders, standing orders kept, the Administrative Phase). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "core/adjust.h"
#include "core/buf.h"
#include "core/dice.h"
#include "core/events.h"
#include "core/node.h"
#include "rules/nhis/nhis.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const char *const players[] = { "ija", "usmc" };
static struct nhis_options opts;
static struct rules_campaign camp = { "test", players, 2, &opts };

/* An 8x6 map: trees 0203, building 0303, paddy 0105, brush 0405, a road 0601-0604 climbing
 * a hill at 0604. usmc: l1, m1 in 0101, m2 in 0103, mg1 in 0401, tank t1 in 0601; ija: j1
 * in 0406, j2 and leader jl in 0506, flamethrower f1 in 0606. */
static const char fixture[] =
	"map:\n" /* 1 */
	"  columns: 8\n"
	"  rows: 6\n"
	"  terrain: open\n"
	"  hexes:\n" /* 5 */
	"    - {hex: '0203', terrain: trees}\n"
	"    - {hex: '0303', terrain: building}\n"
	"    - {hex: '0105', terrain: paddy}\n"
	"    - {hex: '0405', terrain: brush}\n"
	"    - {hex: '0601', road: true}\n" /* 10 */
	"    - {hex: '0602', road: true}\n"
	"    - {hex: '0603', road: true, terrain: rough}\n"
	"    - {hex: '0604', road: true, elevation: 1}\n"
	"sides:\n"
	"  - {player: usmc, nationality: us}\n" /* 15 */
	"  - {player: ija, nationality: japanese}\n"
	"initiative: usmc\n"
	"turns: 6\n"
	"units:\n"
	"  - {id: l1, player: usmc, type: leader, hex: '0101', firepower: 1, range: 3, "
	"movement: 5, morale: 5, leadership: 1, reduced: {firepower: 1, range: 3, movement: 5, "
	"morale: 4, leadership: 0}}\n" /* 20 */
	"  - {id: m1, player: usmc, type: squad, hex: '0101', firepower: 4, range: 3, "
	"movement: 4, morale: 4, reduced: {firepower: 2, range: 3, movement: 4, morale: 3}}\n"
	"  - {id: m2, player: usmc, type: squad, hex: '0103', firepower: 4, range: 4, "
	"movement: 4, morale: 4, reduced: {firepower: 2, range: 4, movement: 4, morale: 3}}\n"
	"  - {id: mg1, player: usmc, type: mg, hex: '0401', firepower: 6, range: 8, "
	"movement: 3, morale: 4, reduced: {firepower: 3, range: 6, movement: 3, morale: 3}}\n"
	"  - {id: t1, player: usmc, type: tank, hex: '0601', firepower: 8, range: 10, "
	"movement: 6, morale: 5, reduced: {firepower: 4, range: 8, movement: 3, morale: 4}}\n"
	"  - {id: j1, player: ija, type: squad, hex: '0406', firepower: 4, range: 3, "
	"movement: 4, morale: 4, reduced: {firepower: 2, range: 3, movement: 4, morale: 3}}\n" /* 25 */
	"  - {id: j2, player: ija, type: squad, hex: '0506', firepower: 4, range: 3, "
	"movement: 4, morale: 4, reduced: {firepower: 2, range: 3, movement: 4, morale: 3}}\n"
	"  - {id: jl, player: ija, type: leader, hex: '0506', firepower: 1, range: 3, "
	"movement: 5, morale: 5, leadership: 2, reduced: {firepower: 1, range: 3, movement: 5, "
	"morale: 4, leadership: 1}}\n"
	"  - {id: f1, player: ija, type: flamethrower, hex: '0606', firepower: 8, range: 1, "
	"movement: 3, morale: 4, reduced: {firepower: 4, range: 1, movement: 3, morale: 3}}\n";

static struct node *parse_yaml(const char *name, const char *text)
{
	struct node *n = NULL;
	struct diag d;
	diag_init(&d);
	if (node_parse(&n, name, text, strlen(text), NULL, &d) < 0) {
		diag_print(&d, stderr);
		ck_abort_msg("YAML of the test does not parse");
	}
	diag_release(&d);
	return n;
}

static struct nhis_state *load(const char *text)
{
	struct node *n = parse_yaml("game.yaml", text);
	struct diag d;
	diag_init(&d);
	void *s = NULL;
	if (nhis_state_parse(&s, &camp, n, &d) < 0) {
		diag_print(&d, stderr);
		ck_abort_msg("fixture state does not parse");
	}
	node_free(n);
	diag_release(&d);
	return s;
}

static void setup(void)
{
	nhis_options_default(&opts);
}

static int hex(const char *name)
{
	int h = 0;
	ck_assert_int_eq(nhis_hex_parse(name, &h), 0);
	return h;
}

static struct nhis_unit *unit(struct nhis_state *s, const char *id)
{
	int i = nhis_unit_find(s, id);
	ck_assert_msg(i >= 0, "no unit %s", id);
	return &s->units[i];
}

static char *emit_text(struct node *n)
{
	struct buf b = BUF_INIT;
	ck_assert_int_eq(node_emit(n, &b), 0);
	node_free(n);
	return buf_detach(&b);
}

/* Parses order text for player (standing text may be NULL); asserts success. */
static struct nhis_orders *orders(struct nhis_state *s, const char *player, const char *text,
	const char *standing)
{
	struct node *o = parse_yaml("orders.yaml", text);
	struct node *st = standing ? parse_yaml("standing.yaml", standing) : NULL;
	struct diag d;
	diag_init(&d);
	void *out = NULL;
	if (nhis_orders_parse(&out, &camp, s, 1, player, o, st, &d) < 0) {
		diag_print(&d, stderr);
		ck_abort_msg("orders do not parse");
	}
	node_free(o);
	node_free(st);
	diag_release(&d);
	return out;
}

struct error_case {
	const char *text;
	int line, column;
	const char *message;
};

/* ---- options ----------------------------------------------------------------------------- */

START_TEST(test_options_defaults)
{
	void *o = NULL;
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(nhis_options_parse(&o, NULL, &d), 0);
	char *text = emit_text(nhis_options_emit(o));
	ck_assert_ptr_nonnull(strstr(text, "night-visibility: none"));
	ck_assert_ptr_nonnull(strstr(text, "- japanese"));
	ck_assert_ptr_nonnull(strstr(text, "rally: leadership"));
	ck_assert_ptr_nonnull(strstr(text, "hill-blocks-los: true"));
	ck_assert_ptr_nonnull(strstr(text, "hexside-los: clear-if-either"));
	ck_assert_ptr_nonnull(strstr(text, "cover: 3"));
	/* the emitted defaults read back as the defaults */
	struct node *n = parse_yaml("options.yaml", text);
	void *o2 = NULL;
	ck_assert_int_eq(nhis_options_parse(&o2, n, &d), 0);
	ck_assert_int_eq(memcmp(o, o2, sizeof(struct nhis_options)), 0);
	node_free(n);
	free(text);
	nhis_options_free(o);
	nhis_options_free(o2);
	diag_release(&d);
}
END_TEST

START_TEST(test_options_round_trip)
{
	struct node *n = parse_yaml("options.yaml",
		"night-visibility: 3\nunshakable: [japanese, chinese]\nbanzai: []\nrally: plain\n"
		"hill-blocks-los: false\nhexside-los: blocked-if-either\n"
		"wooden-building: {cost: 3, cover: 2}\ntank-morale: unshakable\n");
	void *o = NULL;
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(nhis_options_parse(&o, n, &d), 0);
	const struct nhis_options *p = o;
	ck_assert_int_eq(p->night_visibility, 3);
	ck_assert_int_eq(p->n_unshakable, 2);
	ck_assert_str_eq(p->unshakable[1], "chinese");
	ck_assert_int_eq(p->n_banzai, 0);
	ck_assert_int_eq(p->rally, NHIS_RALLY_PLAIN);
	ck_assert_int_eq(p->hill_blocks_los, 0);
	ck_assert_int_eq(p->hexside, NHIS_HEXSIDE_BOTH);
	ck_assert_int_eq(p->building_cost, 3);
	ck_assert_int_eq(p->building_cover, 2);
	ck_assert_int_eq(p->tank_morale, NHIS_TANK_UNSHAKABLE);
	char *text = emit_text(nhis_options_emit(o));
	struct node *n2 = parse_yaml("options.yaml", text);
	void *o2 = NULL;
	ck_assert_int_eq(nhis_options_parse(&o2, n2, &d), 0);
	ck_assert_int_eq(memcmp(o, o2, sizeof(struct nhis_options)), 0);
	free(text);
	node_free(n);
	node_free(n2);
	nhis_options_free(o);
	nhis_options_free(o2);
	diag_release(&d);
}
END_TEST

START_TEST(test_options_errors)
{
	struct node *n = parse_yaml("options.yaml",
		"night-visibility: dusk\nrally: sometimes\nunshakable: [japanese, japanese]\n"
		"wooden-building: {cost: 0}\nweather: rain\ntank-morale: sometimes\n");
	void *o = NULL;
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(nhis_options_parse(&o, n, &d), -1);
	ck_assert_ptr_null(o);
	ck_assert_int_eq(diag_count(&d), 6);
	int seen[7] = { 0 };
	for (size_t i = 0; i < d.n; i++)
		seen[d.v[i].line] = d.v[i].column;
	ck_assert_int_eq(seen[1], 19); /* dusk */
	ck_assert_int_eq(seen[2], 8);  /* sometimes */
	ck_assert_int_eq(seen[3], 24); /* the second japanese */
	ck_assert_int_eq(seen[4], 25); /* cost 0 */
	ck_assert_int_eq(seen[5], 1);  /* weather */
	ck_assert_int_eq(seen[6], 14); /* tank-morale sometimes */
	node_free(n);
	diag_release(&d);
}
END_TEST

/* Option names are kebab-case; the old snake_case spelling of each is refused with the name
 * to use, other unknown keys (top-level or in wooden-building) as before, and the other keys
 * are still read and checked. */
START_TEST(test_options_old_spelling)
{
	struct node *n = parse_yaml("options.yaml", "night_visibility: 3\n"
						    "rally: plain\n"
						    "hill_blocks_los: false\n"
						    "hexside_los: blocked-if-either\n"
						    "wooden_building: {cost: 3}\n"
						    "wooden-building: {cost: 0, cover_factor: 2}\n"
						    "night_vision: 2\n");
	void *o = NULL;
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(nhis_options_parse(&o, n, &d), -1);
	ck_assert_ptr_null(o);
	if (diag_count(&d) != 7)
		diag_print(&d, stderr);
	ck_assert_int_eq(diag_count(&d), 7);
	static const struct error_case want[] = {
		{ NULL, 1, 1,
			"unknown option 'night_visibility' (did you mean 'night-visibility'?)" },
		{ NULL, 3, 1,
			"unknown option 'hill_blocks_los' (did you mean 'hill-blocks-los'?)" },
		{ NULL, 4, 1, "unknown option 'hexside_los' (did you mean 'hexside-los'?)" },
		{ NULL, 5, 1,
			"unknown option 'wooden_building' (did you mean 'wooden-building'?)" },
		{ NULL, 6, 28, "unknown key 'cover_factor' in wooden-building (expected one of" },
		{ NULL, 6, 25, "wooden-building cost" },
		{ NULL, 7, 1, "unknown key 'night_vision' in options (expected one of" },
	};
	for (size_t i = 0; i < N_OF(want); i++) {
		int found = 0;
		for (size_t k = 0; k < d.n; k++)
			if (d.v[k].line == want[i].line && d.v[k].column == want[i].column &&
				strstr(d.v[k].message, want[i].message))
				found = 1;
		ck_assert_msg(found, "no '%s' at %d:%d", want[i].message, want[i].line,
			want[i].column);
	}
	node_free(n);
	diag_release(&d);
}
END_TEST

/* ---- state ------------------------------------------------------------------------------- */

START_TEST(test_state_round_trip)
{
	struct nhis_state *s = load(fixture);
	unit(s, "m1")->is_reduced = 1;
	unit(s, "m1")->shaken = 1;
	unit(s, "j2")->eliminated = 1;
	unit(s, "j2")->is_reduced = 1;
	struct nhis_orders *o = orders(s, "ija", "[]",
		"opportunity: [{hex: '0506', within: 3, units: [jl]}, {hex: '0606', within: 1}]");
	s->side[1].opp = o->opp;
	s->side[1].n_opp = o->n_opp;
	o->opp = NULL;
	o->n_opp = 0;
	nhis_orders_free(o);
	char *a = emit_text(nhis_state_emit(&camp, s));
	struct nhis_state *s2 = load(a);
	char *b = emit_text(nhis_state_emit(&camp, s2));
	ck_assert_str_eq(a, b);
	ck_assert(unit(s2, "m1")->is_reduced && unit(s2, "m1")->shaken);
	ck_assert(unit(s2, "j2")->eliminated);
	ck_assert_int_eq(s2->side[1].n_opp, 2);
	ck_assert_int_eq(s2->side[1].opp[0].within, 3);
	ck_assert_int_eq(s2->side[1].opp[0].n_units, 1);
	ck_assert_int_eq(s2->side[1].opp[1].n_units, 0);
	ck_assert_int_eq(s2->initiative, 0);
	ck_assert_int_eq(s2->turns, 6);
	const struct nhis_hex *h = nhis_map_at(&s2->map, hex("0604"));
	ck_assert(h->road && h->elevation == 1);
	ck_assert_int_eq(nhis_map_at(&s2->map, hex("0303"))->terrain, NHIS_BUILDING);
	ck_assert_int_eq(unit(s2, "jl")->reduced.leadership, 1);
	ck_assert_ptr_nonnull(strstr(a, "hex: \"0101\""));
	free(a);
	free(b);
	nhis_state_free(s);
	nhis_state_free(s2);
}
END_TEST

START_TEST(test_state_errors)
{
	static const struct error_case cases[] = {
		{ "map: {columns: 4, rows: 4, hexes: [{hex: '0505'}]}\n", 1, 42, "off the map" },
		{ "map: {columns: 4, rows: 4, hexes: [{hex: '0101', terrain: swamp}]}\n", 1, 59,
			"swamp" },
		{ "map: {columns: 4, rows: 4, hexes: [{hex: '0101'}, {hex: '0101'}]}\n", 1, 57,
			"described twice" },
		{ "map: {columns: 4, rows: 4}\nsides: [{player: usmc, nationality: us}, "
		  "{player: usmc, nationality: japanese}]\n",
			2, 51, "two sides" },
		{ "map: {columns: 4, rows: 4}\nsides: [{player: usmc, nationality: us}, "
		  "{player: kriegsmarine, nationality: german}]\n",
			2, 51, "not a player" },
		{ "map: {columns: 4, rows: 4}\nsides: [{player: usmc, nationality: us}, "
		  "{player: ija, nationality: japanese}]\ninitiative: ija\nunits:\n"
		  "  - {id: a, player: usmc, type: squad, hex: '0101', firepower: 4, range: 4, "
		  "movement: 4, morale: 4, leadership: 1, reduced: {firepower: 2, range: 4, "
		  "movement: 4, morale: 3}}\n",
			5, 113, "only leaders" },
		{ "map: {columns: 4, rows: 4}\nsides: [{player: usmc, nationality: us}, "
		  "{player: ija, nationality: japanese}]\ninitiative: ija\nunits:\n"
		  "  - {id: a, player: usmc, type: cavalry, hex: '0101', firepower: 4, range: 4, "
		  "movement: 4, morale: 4, reduced: {firepower: 2, range: 4, "
		  "movement: 4, morale: 3}}\n",
			5, 33, "cavalry" },
		{ "map: {columns: 4, rows: 4}\nsides: [{player: usmc, nationality: us}, "
		  "{player: ija, nationality: japanese}]\ninitiative: marines\nunits: []\n",
			3, 13, "not a side" },
	};
	for (size_t i = 0; i < N_OF(cases); i++) {
		char text[2048];
		snprintf(text, sizeof(text), "%s", cases[i].text);
		if (!strstr(text, "sides:"))
			strncat(text,
				"sides: [{player: usmc, nationality: us}, {player: ija, "
				"nationality: japanese}]\ninitiative: ija\nunits: []\n",
				sizeof(text) - strlen(text) - 1);
		struct node *n = parse_yaml("game.yaml", text);
		struct diag d;
		diag_init(&d);
		void *s = NULL;
		ck_assert_int_eq(nhis_state_parse(&s, &camp, n, &d), -1);
		ck_assert_ptr_null(s);
		int found = 0;
		for (size_t k = 0; k < d.n; k++)
			if (d.v[k].line == cases[i].line && d.v[k].column == cases[i].column &&
				strstr(d.v[k].message, cases[i].message))
				found = 1;
		if (!found)
			diag_print(&d, stderr);
		ck_assert_msg(found, "case %zu: no '%s' at %d:%d", i, cases[i].message,
			cases[i].line, cases[i].column);
		node_free(n);
		diag_release(&d);
	}
}
END_TEST

/* ---- orders ------------------------------------------------------------------------------ */

START_TEST(test_orders_valid)
{
	/* m1 leaves 0101, so the second impulse's default group there is l1 alone; the tank
	 * charges up the road (1 + 1 + 1 + 1 uphill = 4 of 6 MP) and fires from the hill. */
	struct nhis_state *s = load(fixture);
	struct nhis_orders *o = orders(s, "usmc",
		"- activate: '0101'\n"
		"  units: [m1]\n"
		"  move: ['0102', '0202']\n"
		"- activate: '0101'\n"
		"  move: ['0102']\n"
		"  mode: crawl\n"
		"- activate: '0401'\n"
		"  fire: '0406'\n"
		"- activate: '0601'\n"
		"  move: ['0602', '0603', '0604']\n"
		"  mode: charge\n"
		"  fire: '0606'\n",
		"opportunity: [{hex: '0401', within: 4, units: [mg1]}]");
	ck_assert_int_eq(o->n, 4);
	ck_assert_int_eq(o->v[0].hex, hex("0101"));
	ck_assert_int_eq(o->v[0].n_units, 1);
	ck_assert_int_eq(o->v[0].n_path, 2);
	ck_assert_int_eq(o->v[0].path[1], hex("0202"));
	ck_assert_int_eq(o->v[1].mode, NHIS_MODE_CRAWL);
	ck_assert_int_eq(o->v[1].n_units, 0);
	ck_assert_int_eq(o->v[2].fire, hex("0406"));
	ck_assert_int_eq(o->v[2].n_path, 0);
	ck_assert_int_eq(o->v[3].mode, NHIS_MODE_CHARGE);
	ck_assert_int_eq(o->v[3].fire, hex("0606"));
	ck_assert_int_eq(o->v[3].index, 4);
	ck_assert(o->has_standing);
	ck_assert_int_eq(o->n_opp, 1);
	ck_assert_int_eq(o->opp[0].within, 4);
	ck_assert_int_eq(o->opp[0].units[0], nhis_unit_find(s, "mg1"));
	nhis_orders_free(o);
	/* no standing key: the standing orders in force are kept */
	o = orders(s, "ija", "[]", NULL);
	ck_assert(!o->has_standing);
	nhis_orders_free(o);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_orders_errors)
{
	static const struct error_case cases[] = {
		{ "- activate: '0909'\n  fire: '0102'\n", 1, 13, "off the map" },
		{ "- activate: '101'\n  fire: '0102'\n", 1, 13, "not a hex name" },
		{ "- activate: '0101'\n  move: ['0102', '0104']\n", 2, 18, "not adjacent to 0102" },
		{ "- activate: '0101'\n  move: ['0102', '0103', '0104', '0105']\n", 2, 34,
			"at most 4, the movement of 'm1'" },
		{ "- activate: '0101'\n  units: [j1]\n  fire: '0102'\n", 2, 11, "belongs to ija" },
		{ "- activate: '0101'\n  units: [m2]\n  fire: '0102'\n", 2, 11,
			"is in 0103, not 0101" },
		{ "- activate: '0101'\n  units: [m9]\n  fire: '0102'\n", 2, 11, "no unit 'm9'" },
		{ "- activate: '0101'\n  units: [m1, m1]\n  fire: '0102'\n", 2, 15,
			"listed twice" },
		{ "- activate: '0101'\n  fire: '0102'\n- activate: '0101'\n  fire: '0102'\n", 3, 3,
			"no unit of usmc ready to act in 0101" },
		{ "- activate: '0101'\n  units: [m1]\n  move: ['0102']\n- activate: '0102'\n"
		  "  units: [m1]\n  fire: '0103'\n",
			5, 11, "already acted" },
		{ "- activate: '0303'\n  fire: '0102'\n", 1, 3, "no unit of usmc ready" },
		{ "- activate: '0101'\n  units: [m1]\n  fire: '0801'\n", 3, 9,
			"'m1' cannot reach 0801 from 0101: 7 hexes (at most 6" },
		{ "- activate: '0103'\n  fire: '0503'\n", 2, 9, "blocked by 0303" },
		{ "- activate: '0103'\n  fire: '0103'\n", 2, 9, "own hex" },
		{ "- activate: '0101'\n  move: ['0102']\n  fire: '0203'\n", 3, 9,
			"needs Charge movement" },
		{ "- activate: '0101'\n  move: ['0102', '0103']\n  mode: crawl\n", 2, 9,
			"exactly one hex" },
		{ "- activate: '0601'\n  move: ['0602']\n  mode: crawl\n", 2, 9, "cannot crawl" },
		{ "- activate: '0101'\n  mode: charge\n  fire: '0102'\n", 2, 9, "without a move" },
		{ "- activate: '0101'\n  mode: run\n  move: ['0102']\n", 2, 9, "run" },
		{ "- activate: '0101'\n", 1, 3, "neither moves nor fires" },
		{ "- activate: '0101'\n  shoot: '0102'\n", 2, 3, "unknown key 'shoot'" },
		{ "- activate: '0101'\n  units: []\n  fire: '0102'\n", 2, 10, "units is empty" },
		{ "- activate: '0101'\n  fire: '0203'\n  melee: true\n", 3, 10,
			"melee without a move" },
		{ "- '0101'\n", 1, 3, "" },
	};
	struct nhis_state *s = load(fixture);
	for (size_t i = 0; i < N_OF(cases); i++) {
		struct node *o = parse_yaml("orders.yaml", cases[i].text);
		struct diag d;
		diag_init(&d);
		void *out = NULL;
		ck_assert_msg(nhis_orders_parse(&out, &camp, s, 1, "usmc", o, NULL, &d) == -1,
			"case %zu accepted", i);
		ck_assert_ptr_null(out);
		int found = 0;
		for (size_t k = 0; k < d.n; k++)
			if (d.v[k].line == cases[i].line && d.v[k].column == cases[i].column &&
				strstr(d.v[k].message, cases[i].message))
				found = 1;
		if (!found)
			diag_print(&d, stderr);
		ck_assert_msg(found, "case %zu: no '%s' at %d:%d", i, cases[i].message,
			cases[i].line, cases[i].column);
		node_free(o);
		diag_release(&d);
	}
	nhis_state_free(s);
}
END_TEST

/* Each impulse is checked in full: a wrong activated hex or an empty group no longer hides
 * the impulse's other fields. Every case used to report its first error alone. */
START_TEST(test_orders_every_field_checked)
{
	static const struct {
		const char *text;
		struct error_case first, second;
	} cases[] = {
		/* the activated hex off the map, and a path that is not adjacent */
		{ "- activate: '0909'\n  move: ['0102', '0104']\n", { NULL, 1, 13, "off the map" },
			{ NULL, 2, 18, "not adjacent to 0102" } },
		/* the activated hex not a hex name, and a unit of the enemy's */
		{ "- activate: '101'\n  units: [j1]\n  fire: '0102'\n",
			{ NULL, 1, 13, "not a hex name" }, { NULL, 2, 11, "belongs to ija" } },
		/* no activated hex, and the fire target off the map */
		{ "- units: [m1]\n  fire: '0109'\n", { NULL, 1, 3, "missing key 'activate'" },
			{ NULL, 2, 9, "off the map" } },
		/* no unit ready in the hex, and a path that is not adjacent */
		{ "- activate: '0303'\n  move: ['0305']\n", { NULL, 1, 3, "no unit of usmc ready" },
			{ NULL, 2, 10, "not adjacent to 0303" } },
		/* no good unit in the group, and a fire target out of sight */
		{ "- activate: '0103'\n  units: [m9]\n  fire: '0503'\n",
			{ NULL, 2, 11, "no unit 'm9'" }, { NULL, 3, 9, "blocked by 0303" } },
		/* an impulse that does nothing, and a unit listed twice */
		{ "- activate: '0101'\n  units: [m1, m1]\n",
			{ NULL, 1, 3, "neither moves nor fires" },
			{ NULL, 2, 15, "listed twice" } },
	};
	struct nhis_state *s = load(fixture);
	for (size_t i = 0; i < N_OF(cases); i++) {
		struct node *o = parse_yaml("orders.yaml", cases[i].text);
		struct diag d;
		diag_init(&d);
		void *out = NULL;
		ck_assert_int_eq(nhis_orders_parse(&out, &camp, s, 1, "usmc", o, NULL, &d), -1);
		const struct error_case *want[] = { &cases[i].first, &cases[i].second };
		for (size_t w = 0; w < 2; w++) {
			int found = 0;
			for (size_t k = 0; k < d.n; k++)
				if (d.v[k].line == want[w]->line &&
					d.v[k].column == want[w]->column &&
					strstr(d.v[k].message, want[w]->message))
					found = 1;
			if (!found)
				diag_print(&d, stderr);
			ck_assert_msg(found, "case %zu: no '%s' at %d:%d", i, want[w]->message,
				want[w]->line, want[w]->column);
		}
		if (diag_count(&d) != 2)
			diag_print(&d, stderr);
		ck_assert_msg(diag_count(&d) == 2, "case %zu: %zu errors", i, diag_count(&d));
		node_free(o);
		diag_release(&d);
	}
	nhis_state_free(s);
}
END_TEST

/* NHiS terrain chart (open ground 1 MP), checked when the file is read: m1 (movement _i)
 * moves 3 open hexes. With 3 MP it spends exactly its last point: accepted; with 2 the
 * third hex needs one point more: refused at that hex. */
START_TEST(test_orders_last_movement_point)
{
	struct nhis_state *s = load(fixture);
	unit(s, "m1")->full.movement = _i;
	struct node *o = parse_yaml("orders.yaml",
		"- activate: '0101'\n  units: [m1]\n  move: ['0102', '0103', '0104']\n");
	struct diag d;
	diag_init(&d);
	void *out = NULL;
	int rc = nhis_orders_parse(&out, &camp, s, 1, "usmc", o, NULL, &d);
	if (_i >= 3) {
		if (rc != 0)
			diag_print(&d, stderr);
		ck_assert_int_eq(rc, 0);
		ck_assert_int_eq(((struct nhis_orders *)out)->v[0].n_path, 3);
	} else {
		ck_assert_int_eq(rc, -1);
		ck_assert_int_eq(diag_count(&d), 1);
		ck_assert_int_eq(d.v[0].line, 3);
		ck_assert_int_eq(d.v[0].column, 26);
		ck_assert_ptr_nonnull(strstr(d.v[0].message,
			"entering 0104 brings the move to 3 movement points (at most 2"));
	}
	nhis_orders_free(out);
	node_free(o);
	diag_release(&d);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_orders_all_errors_at_once)
{
	struct nhis_state *s = load(fixture);
	struct node *o = parse_yaml("orders.yaml",
		"- activate: '0909'\n  fire: '0102'\n"
		"- activate: '0101'\n  move: ['0102', '0104']\n"
		"- activate: '0103'\n  units: [j1, m2]\n  fire: '0503'\n");
	struct node *st = parse_yaml("standing.yaml",
		"opportunity:\n  - {hex: '0101', within: 0, units: [mg1]}\n  - {hex: '0201'}\n"
		"fallback: true\n");
	struct diag d;
	diag_init(&d);
	void *out = NULL;
	ck_assert_int_eq(nhis_orders_parse(&out, &camp, s, 1, "usmc", o, st, &d), -1);
	/* off map; not adjacent; j1 not ours, and m2 (still checked) has no line of sight;
	 * within 0; mg1 not in 0101; within missing; unknown key fallback */
	if (diag_count(&d) != 8)
		diag_print(&d, stderr);
	ck_assert_int_eq(diag_count(&d), 8);
	node_free(o);
	node_free(st);
	diag_release(&d);
	nhis_state_free(s);
}
END_TEST

/* ---- impulses and turns ------------------------------------------------------------------ */

struct turn_run {
	struct dice dice;
	struct events ev;
	struct rules_orders ro[2];
	struct rules_turn t;
};

/* Resolves one turn: usmc and ija order texts (NULL: no file), scripted dice. */
static void run(struct turn_run *r, struct nhis_state *s, const char *usmc, const char *ija,
	const char *ija_standing, const int *script, size_t n)
{
	memset(r, 0, sizeof(*r));
	dice_init_script(&r->dice, script, n);
	events_init(&r->ev);
	/* sorted by player id, as the core hands them */
	r->ro[0].player = "ija";
	r->ro[0].orders = ija || ija_standing ? orders(s, "ija", ija ? ija : "[]", ija_standing) :
						NULL;
	r->ro[1].player = "usmc";
	r->ro[1].orders = usmc ? orders(s, "usmc", usmc, NULL) : NULL;
	r->t.turn = 1;
	r->t.orders = r->ro;
	r->t.n_orders = 2;
	r->t.dice = &r->dice;
	r->t.events = &r->ev;
	ck_assert_int_eq(rules_nhis.resolve(&camp, s, &r->t), 0);
	ck_assert_int_eq(dice_count(&r->dice), n);
}

static void run_release(struct turn_run *r)
{
	nhis_orders_free(r->ro[0].orders);
	nhis_orders_free(r->ro[1].orders);
	dice_release(&r->dice);
	events_release(&r->ev);
	buf_release(&r->t.summary);
}

static size_t event_index(const struct events *ev, const char *text)
{
	for (size_t i = 0; i < ev->n; i++)
		if (strstr(ev->v[i].text, text))
			return i;
	ck_abort_msg("no event '%s'", text);
	return 0;
}

START_TEST(test_alternation)
{
	/* usmc has the initiative: usmc 1, ija 1, usmc 2, ija 2, then ija's last impulse. Every
	 * 2d6 is 6+6 (no effect). */
	struct nhis_state *s = load(fixture);
	static const int script[] = { 6, 6, 6, 6 };
	struct turn_run r;
	run(&r, s, "- activate: '0401'\n  fire: '0406'\n- activate: '0601'\n  fire: '0506'\n",
		"- activate: '0406'\n  fire: '0506'\n- activate: '0506'\n  move: ['0505']\n"
		"- activate: '0606'\n  move: ['0605']\n",
		NULL, script, N_OF(script));
	size_t a = event_index(&r.ev, "usmc fire 0401 -> 0406");
	size_t b = event_index(&r.ev, "ija fire 0406 -> 0506: no enemy unit in 0506");
	size_t c = event_index(&r.ev, "usmc fire 0601 -> 0506");
	size_t d = event_index(&r.ev, "j2, jl moves 0506 -> 0505");
	size_t e = event_index(&r.ev, "f1 moves 0606 -> 0605");
	ck_assert(a < b && b < c && c < d && d < e);
	ck_assert_str_eq(r.ev.v[a].phase, "operations");
	ck_assert_str_eq(r.ev.v[r.ev.n - 1].phase, "administrative");
	ck_assert_ptr_nonnull(strstr(r.t.summary.data, "5 impulses"));
	/* Administrative Phase: no marker survives the turn */
	for (size_t i = 0; i < s->n_units; i++)
		ck_assert_uint_eq(s->units[i].markers, 0);
	run_release(&r);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_opportunity_fire)
{
	/* ija's standing order: j1 in 0406 fires at the first enemy moving into sight within 2
	 * hexes. m2 moves 0103 -> 0104 -> 0204 -> 0305 -> 0306; 0305 is the first hex within 2.
	 * m2 is moving: FP 4 + 2 = 6, column 6; 2d6 1+1 = 2: Damaged-2 on m2 alone: reduced,
	 * then eliminated, so the move ends in 0305. */
	struct nhis_state *s = load(fixture);
	static const int script[] = { 1, 1 };
	struct turn_run r;
	run(&r, s, "- activate: '0103'\n  move: ['0104', '0204', '0305', '0306']\n", NULL,
		"opportunity: [{hex: '0406', within: 2, units: [j1]}]", script, N_OF(script));
	ck_assert_ptr_nonnull(strstr(r.dice.v[0].purpose, "ija opportunity fire 0406 -> 0305"));
	ck_assert_ptr_nonnull(strstr(r.dice.v[0].purpose, "FP 4 +2 moving target -0 cover = 6"));
	ck_assert(unit(s, "m2")->eliminated);
	ck_assert_int_eq(unit(s, "m2")->hex, hex("0305"));
	ck_assert(unit(s, "j1")->markers == 0);
	/* the standing order is kept in the state for the next turns */
	ck_assert_int_eq(s->side[1].n_opp, 1);
	run_release(&r);
	/* next turn, no file from ija: the order stands. l1 and m1 move 0101 -> 0102 -> 0203 ->
	 * 0304: 0304 is 3 hexes from 0406, never within 2: no fire. */
	run(&r, s, "- activate: '0101'\n  move: ['0102', '0202', '0302']\n", NULL, NULL, NULL, 0);
	ck_assert_int_eq(s->side[1].n_opp, 1);
	ck_assert_int_eq(unit(s, "m1")->hex, hex("0302"));
	ck_assert_int_eq(unit(s, "l1")->hex, hex("0302"));
	run_release(&r);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_shaken_mover_stops)
{
	/* A Shakeable unit Shaken by opportunity fire ends its impulse where it is. m2 moves
	 * 0103 -> 0104 -> 0204 -> 0205 -> 0206: at 0205 (2 hexes from 0406, open) j1 fires:
	 * 4 + 2 moving = 6, column 6; 2d6 3+3 = 6: Hit-1; m2: 4 + 1 > morale 4: Shaken, stays
	 * in 0205. */
	struct nhis_state *s = load(fixture);
	static const int script[] = { 3, 3, 4 };
	struct turn_run r;
	run(&r, s, "- activate: '0103'\n  move: ['0104', '0204', '0205', '0206']\n", NULL,
		"opportunity: [{hex: '0406', within: 2}]", script, N_OF(script));
	ck_assert(unit(s, "m2")->shaken);
	ck_assert_int_eq(unit(s, "m2")->hex, hex("0205"));
	event_index(&r.ev, "Hit-1");
	run_release(&r);
	nhis_state_free(s);
}
END_TEST

/* Issue 9 item 9 — a crawl is one hex whatever its cost (LnLT Low Crawl: the whole impulse
 * for one hex): m2 with 3 MP crawls into the paddy (4 MP), which a move cannot enter. */
START_TEST(test_crawl_one_hex_whatever_cost)
{
	struct nhis_state *s = load(fixture);
	unit(s, "m2")->hex = hex("0104");
	unit(s, "m2")->full.movement = 3;
	struct turn_run r;
	run(&r, s, "- activate: '0104'\n  move: ['0105']\n  mode: crawl\n", NULL, NULL, NULL, 0);
	ck_assert_int_eq(unit(s, "m2")->hex, hex("0105"));
	run_release(&r);
	struct diag d;
	diag_init(&d);
	unit(s, "m2")->hex = hex("0104");
	struct node *o = parse_yaml("orders.yaml", "- activate: '0104'\n  move: ['0105']\n");
	void *out = NULL;
	ck_assert_int_eq(nhis_orders_parse(&out, &camp, s, 1, "usmc", o, NULL, &d), -1);
	node_free(o);
	diag_release(&d);
	nhis_state_free(s);
}
END_TEST

/* Issue 9 item 8 — the sheet names a melee ("suffer a penalty in melee") but prints no
 * procedure: an impulse with melee: true enters the enemy's hex as its last step, and the
 * melee is journaled with both sides' numbers for the umpire, at entry and in the
 * Administrative Phase. Without it the move stops before the enemy (a void order). */
START_TEST(test_melee_handed_to_umpire)
{
	struct nhis_state *s = load(fixture);
	unit(s, "m2")->hex = hex("0405");
	unit(s, "j1")->shaken = 1;
	struct turn_run r;
	static const int no_rally[] = { 5 }; /* j1's Rally Phase roll: 5 > morale 4 */
	run(&r, s, "- activate: '0405'\n  move: ['0406']\n  melee: true\n", NULL, NULL, no_rally,
		1);
	ck_assert_int_eq(unit(s, "m2")->hex, hex("0406"));
	size_t k = event_index(&r.ev, "usmc enters 0406: melee, handed to the umpire");
	ck_assert_ptr_nonnull(
		strstr(r.ev.v[k].text, "usmc (us): m2 (squad, full, FP 4, morale 4, Prepared)"));
	ck_assert_ptr_nonnull(strstr(r.ev.v[k].text,
		"ija (japanese): j1 (squad, full, FP 4, morale 4, Shaken: penalty in melee)"));
	event_index(&r.ev, "melee in 0406 awaits the umpire's ruling");
	run_release(&r);
	unit(s, "m2")->hex = hex("0405");
	run(&r, s, "- activate: '0405'\n  move: ['0406']\n", NULL, NULL, no_rally, 1);
	ck_assert_int_eq(unit(s, "m2")->hex, hex("0405"));
	event_index(&r.ev, "the move stops in 0405: the enemy holds 0406");
	run_release(&r);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_banzai_charge)
{
	/* j2 and leader jl Banzai charge 0506 -> 0505 -> 0404 and fire at m2 in 0304. usmc's
	 * standing order: mg1 in 0401 within 3; 0505 is 4 away, 0404 is 3: it fires there.
	 * FP 6 + 2 moving = 8, column 8; 2d6 2+5 = 7: Hit-1. jl checks first: 6 + 1 > 5 fails:
	 * reduced, charges on (Banzai). j2: 6 + 1 > 4 + 1 (jl reduced, leadership 1, still
	 * Prepared) fails: reduced, charges on. Then both fire at 0304, adjacent: j2 reduced FP 2
	 * - 2 charging = 0, jl 1 - 2 = -1 (the penalty is each unit's, the floor the attack's):
	 * -1 + 3 adjacent = 2, column 2; 2d6 6+6: no effect. */
	struct nhis_state *s = load(fixture);
	unit(s, "m2")->hex = hex("0304");
	s->side[0].opp = xcalloc(1, sizeof(*s->side[0].opp));
	s->side[0].n_opp = 1;
	s->side[0].opp[0].hex = hex("0401");
	s->side[0].opp[0].within = 3;
	static const int script[] = { 2, 5, 6, 6, 6, 6 };
	struct turn_run r;
	run(&r, s, NULL,
		"- activate: '0506'\n  move: ['0505', '0404']\n  mode: charge\n  fire: '0304'\n",
		NULL, script, N_OF(script));
	ck_assert(unit(s, "j2")->is_reduced && unit(s, "jl")->is_reduced);
	ck_assert_int_eq(unit(s, "j2")->hex, hex("0404"));
	ck_assert_int_eq(unit(s, "jl")->hex, hex("0404"));
	ck_assert_ptr_nonnull(strstr(r.dice.v[0].purpose, "usmc opportunity fire 0401 -> 0404"));
	ck_assert_ptr_nonnull(strstr(r.dice.v[0].purpose, "= 8, column 8"));
	ck_assert_ptr_nonnull(strstr(r.dice.v[2].purpose, "jl"));
	ck_assert_ptr_nonnull(strstr(r.dice.v[4].purpose, "ija charge fire 0404 -> 0304"));
	ck_assert_ptr_nonnull(strstr(r.dice.v[4].purpose, "-2 charging"));
	ck_assert_ptr_nonnull(strstr(r.dice.v[4].purpose, "= 2, column 2"));
	event_index(&r.ev, "jl charges on (Banzai)");
	event_index(&r.ev, "j2 charges on (Banzai)");
	run_release(&r);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_charge_stopped_without_banzai)
{
	/* With no Banzai nationality a charging Unshakable unit that fails stops. */
	opts.n_banzai = 0;
	struct nhis_state *s = load(fixture);
	s->side[0].opp = xcalloc(1, sizeof(*s->side[0].opp));
	s->side[0].n_opp = 1;
	s->side[0].opp[0].hex = hex("0401");
	s->side[0].opp[0].within = 3;
	/* j1 charges 0406 -> 0405 (brush, 4 from 0401) -> 0404 (3: mg1 fires) -> 0403.
	 * FP 6 + 2 = 8, column 8; 2d6 2+5: Hit-1; j1 6 + 1 > 4: reduced, and it stops in 0404. */
	static const int script[] = { 2, 5, 6 };
	struct turn_run r;
	run(&r, s, NULL, "- activate: '0406'\n  move: ['0405', '0404', '0403']\n  mode: charge\n",
		NULL, script, N_OF(script));
	ck_assert(unit(s, "j1")->is_reduced);
	ck_assert_int_eq(unit(s, "j1")->hex, hex("0404"));
	event_index(&r.ev, "j1 must stop moving");
	run_release(&r);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_void_orders)
{
	/* usmc's first impulse eliminates j1 (0406); ija's order for j1 is then void. mg1
	 * (FP 6, range 8) in 0401 fires at 0406, 5 hexes: 6, column 6; 2d6 1+1: Damaged-2: j1
	 * reduced, then eliminated. */
	struct nhis_state *s = load(fixture);
	static const int script[] = { 1, 1 };
	struct turn_run r;
	run(&r, s, "- activate: '0401'\n  fire: '0406'\n",
		"- activate: '0406'\n  units: [j1]\n  move: ['0405']\n", NULL, script,
		N_OF(script));
	ck_assert(unit(s, "j1")->eliminated);
	int voids = 0;
	for (size_t i = 0; i < r.ev.n; i++)
		if (r.ev.v[i].kind == EVENT_VOID) {
			voids++;
			ck_assert_str_eq(r.ev.v[i].player, "ija");
			ck_assert_int_eq(r.ev.v[i].order_index, 1);
		}
	ck_assert_int_eq(voids, 1);
	run_release(&r);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_shaken_may_not_fire_or_advance)
{
	/* Rally Phase, leaders first: l1 rolls 1 and rallies; m2 rolls 6 > 4 and stays Shaken,
	 * so its fire order finds no unit able to fire. */
	struct nhis_state *s = load(fixture);
	unit(s, "m2")->shaken = 1;
	unit(s, "l1")->shaken = 1;
	static const int script[] = { 1, 6 };
	struct turn_run r;
	run(&r, s, "- activate: '0103'\n  fire: '0104'\n- activate: '0101'\n  move: ['0102']\n",
		NULL, NULL, script, N_OF(script));
	ck_assert(!unit(s, "l1")->shaken && unit(s, "m2")->shaken);
	event_index(&r.ev, "m2 is Shaken: it may not fire");
	ck_assert_int_eq(unit(s, "l1")->hex, hex("0102"));
	run_release(&r);
	/* a Shaken unit may move, but not toward the enemy */
	static const int fail[] = { 6 };
	run(&r, s, "- activate: '0103'\n  move: ['0104']\n", NULL, NULL, fail, N_OF(fail));
	event_index(&r.ev, "m2 is Shaken: it may not move toward the enemy");
	ck_assert_int_eq(unit(s, "m2")->hex, hex("0103"));
	run_release(&r);
	/* ... away from it, it may */
	run(&r, s, "- activate: '0103'\n  move: ['0102']\n", NULL, NULL, fail, N_OF(fail));
	ck_assert_int_eq(unit(s, "m2")->hex, hex("0102"));
	run_release(&r);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_due_and_over)
{
	struct nhis_state *s = load(fixture);
	ck_assert(rules_nhis.player_due(&camp, s, 1, "usmc"));
	ck_assert(rules_nhis.player_due(&camp, s, 1, "ija"));
	ck_assert(!rules_nhis.player_due(&camp, s, 1, "umpire"));
	const char *why = NULL;
	ck_assert(!rules_nhis.game_over(&camp, s, 6, &why));
	ck_assert(rules_nhis.game_over(&camp, s, 7, &why));
	ck_assert_ptr_nonnull(why);
	for (size_t i = 0; i < s->n_units; i++)
		if (s->units[i].side == 1)
			s->units[i].eliminated = 1;
	ck_assert(rules_nhis.game_over(&camp, s, 2, &why));
	struct buf b = BUF_INIT;
	rules_nhis.report(&camp, s, "usmc", &b);
	ck_assert_ptr_nonnull(strstr(b.data, "| m1 | usmc | squad | 0101 | full | Prepared |"));
	ck_assert_ptr_nonnull(strstr(b.data, "| j1 | ija | squad | - | eliminated | - |"));
	buf_release(&b);
	nhis_state_free(s);
}
END_TEST

/* ---- the umpire's adjustments (a melee's outcome) ---------------------------------------- */

/* Adjustments as the core hands them over (core/orders.c): one per item of a YAML list, the
 * positions from the items. */
struct adj_fixture {
	struct node *doc;
	struct adjustment v[10];
	size_t n;
};

static void adj_make(struct adj_fixture *f, const char *text)
{
	f->doc = parse_yaml("umpire.yaml", text);
	f->n = f->doc->n;
	ck_assert_uint_le(f->n, N_OF(f->v));
	memset(f->v, 0, sizeof(f->v));
	for (size_t i = 0; i < f->n; i++) {
		const struct node *it = f->doc->items[i], *k;
		struct adjustment *a = &f->v[i];
		int kind = 0;
		while (strcmp(adjust_kind_names[kind], node_get(it, "adjust")->scalar) != 0)
			kind++;
		a->kind = (enum adjust_kind)kind;
		a->index = i + 1;
		a->at = it;
		a->reason = xstrdup("test");
		if ((k = node_get(it, "unit")))
			a->unit = xstrdup(k->scalar);
		if ((k = node_get(it, "by")))
			a->by = strtoll(k->scalar, NULL, 10);
		if ((k = node_get(it, "status")))
			a->status = xstrdup(k->scalar);
		if ((k = node_get(it, "value")))
			a->value = strcmp(k->scalar, "true") == 0;
	}
}

static void adj_release(struct adj_fixture *f)
{
	for (size_t i = 0; i < f->n; i++)
		adjustment_release(&f->v[i]);
	node_free(f->doc);
}

/* Checks then applies f to s; what the applications say, joined by "; ", into what. */
static void adj_apply_all(struct nhis_state *s, const struct adj_fixture *f, struct buf *what)
{
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(rules_nhis.adjust_check(&camp, s, f->v, f->n, &d), 0);
	ck_assert_uint_eq(diag_count(&d), 0);
	for (size_t i = 0; i < f->n; i++) {
		if (i)
			buf_puts(what, "; ");
		ck_assert_int_eq(rules_nhis.adjust_apply(&camp, s, &f->v[i], what), 0);
	}
	diag_release(&d);
}

START_TEST(test_adjust_apply)
{
	struct nhis_state *s = load(fixture);
	struct adj_fixture f;
	struct buf what = BUF_INIT;
	/* later adjustments see what earlier ones did: m1 Shaken, then reduced, then Prepared */
	adj_make(&f, "[{adjust: remove, unit: j1},\n"
		     " {adjust: status, unit: m1, status: shaken, value: true},\n"
		     " {adjust: status, unit: m1, status: reduced, value: true},\n"
		     " {adjust: status, unit: m1, status: shaken, value: false},\n"
		     " {adjust: status, unit: j2, status: reduced, value: true}]");
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(rules_nhis.adjust_check(&camp, s, f.v, f.n, &d), 0);
	/* checking changes nothing */
	ck_assert_int_eq(unit(s, "j1")->eliminated, 0);
	ck_assert_int_eq(unit(s, "m1")->shaken, 0);
	ck_assert_int_eq(unit(s, "m1")->is_reduced, 0);
	adj_apply_all(s, &f, &what);
	ck_assert_str_eq(what.data,
		"j1 in 0406 is eliminated; m1 in 0101 is Shaken; m1 in 0101 is reduced; "
		"m1 in 0101 is Prepared (no longer Shaken); j2 in 0506 is reduced");
	ck_assert_int_eq(unit(s, "j1")->eliminated, 1);
	ck_assert_int_eq(unit(s, "m1")->shaken, 0);
	ck_assert_int_eq(unit(s, "m1")->is_reduced, 1);
	ck_assert_int_eq(unit(s, "j2")->is_reduced, 1);
	ck_assert_int_eq(unit(s, "j2")->eliminated, 0);
	adj_release(&f);
	/* and back: m1 Shaken again and on its full side */
	buf_clear(&what);
	adj_make(&f, "[{adjust: status, unit: m1, status: reduced, value: false},\n"
		     " {adjust: status, unit: m1, status: shaken, value: true}]");
	adj_apply_all(s, &f, &what);
	ck_assert_str_eq(what.data, "m1 in 0101 is back on its full side; m1 in 0101 is Shaken");
	ck_assert_int_eq(unit(s, "m1")->shaken, 1);
	ck_assert_int_eq(unit(s, "m1")->is_reduced, 0);
	adj_release(&f);
	/* tank-morale: unshakable makes the tank Unshakable, us otherwise Shakeable */
	buf_clear(&what);
	adj_make(&f, "[{adjust: status, unit: t1, status: shaken, value: true}]");
	adj_apply_all(s, &f, &what);
	adj_release(&f);
	opts.tank_morale = NHIS_TANK_UNSHAKABLE;
	adj_make(&f, "[{adjust: status, unit: t1, status: shaken, value: false},\n"
		     " {adjust: status, unit: t1, status: shaken, value: true}]");
	ck_assert_int_eq(rules_nhis.adjust_check(&camp, s, f.v, f.n, &d), -1);
	ck_assert_uint_eq(diag_count(&d), 1);
	ck_assert_int_eq(d.v[0].line, 2);
	adj_release(&f);
	diag_release(&d);
	buf_release(&what);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_adjust_errors)
{
	struct nhis_state *s = load(fixture);
	unit(s, "f1")->eliminated = 1;
	struct adj_fixture f;
	struct diag d;
	diag_init(&d);
	adj_make(&f, "[{adjust: remove, unit: nobody},\n"                            /* 1 */
		     " {adjust: status, unit: j1, status: shaken, value: true},\n"   /* 2 */
		     " {adjust: status, unit: m1, status: shaken, value: false},\n"  /* 3 */
		     " {adjust: status, unit: m1, status: pinned, value: true},\n"   /* 4 */
		     " {adjust: disr, unit: m1, by: 1},\n"                           /* 5 */
		     " {adjust: remove, unit: m2}, {adjust: remove, unit: m2},\n"    /* 6 */
		     " {adjust: status, unit: t1, status: reduced, value: false},\n" /* 7 */
		     " {adjust: remove, unit: f1}, {adjust: break, unit: j2}]");     /* 8 */
	ck_assert_int_eq(rules_nhis.adjust_check(&camp, s, f.v, f.n, &d), -1);
	ck_assert_uint_eq(diag_count(&d), 9);
	static const struct {
		int line, column;
		const char *message;
	} want[] = {
		{ 1, 25, "'nobody' is not a unit of the scenario (a unit id expected)" },
		{ 2, 37,
			"unit 'j1' is Unshakable (japanese) and cannot be Shaken (a Shakeable unit "
			"expected)" },
		{ 3, 52, "unit 'm1' is not Shaken (a Shaken unit expected)" },
		{ 4, 37, "'pinned' is not a status of nhis ('shaken' or 'reduced' expected)" },
		{ 5, 11, "'adjust: disr' has no meaning in nhis ('remove' or 'status' expected)" },
		{ 6, 53, "unit 'm2' has been eliminated (a unit in play expected)" },
		{ 7, 53, "unit 't1' is at full strength (a reduced unit expected)" },
		{ 8, 25, "unit 'f1' has been eliminated (a unit in play expected)" },
		{ 8, 39, "'adjust: break' has no meaning in nhis ('remove' or 'status' expected)" },
	};
	for (size_t i = 0; i < N_OF(want) && i < diag_count(&d); i++) {
		ck_assert_str_eq(d.v[i].message, want[i].message);
		ck_assert_int_eq(d.v[i].line, want[i].line);
		ck_assert_int_eq(d.v[i].column, want[i].column);
	}
	adj_release(&f);
	diag_release(&d);
	diag_init(&d);
	/* reduced twice: the second is refused (elimination is 'remove') */
	adj_make(&f, "[{adjust: status, unit: j2, status: reduced, value: true},\n"
		     " {adjust: status, unit: j2, status: reduced, value: true},\n"
		     " {adjust: status, unit: m1, status: shaken, value: true},\n"
		     " {adjust: status, unit: m1, status: shaken, value: true}]");
	ck_assert_int_eq(rules_nhis.adjust_check(&camp, s, f.v, f.n, &d), -1);
	ck_assert_uint_eq(diag_count(&d), 2);
	ck_assert_int_eq(d.v[1].line, 4);
	ck_assert_str_eq(d.v[1].message, "unit 'm1' is already Shaken (a Prepared unit expected)");
	ck_assert_str_eq(d.v[0].message,
		"unit 'j2' is already reduced (a full-strength unit expected; 'adjust: "
		"remove' eliminates)");
	adj_release(&f);
	diag_release(&d);
	nhis_state_free(s);
}
END_TEST

/* The umpire's ruling ends the melee: with j1 eliminated, 0406 is no longer shared and the
 * next Administrative Phase announces no melee. */
START_TEST(test_melee_resolved_by_adjustment)
{
	struct nhis_state *s = load(fixture);
	unit(s, "m2")->hex = hex("0405");
	struct turn_run r;
	static const int none[] = { 0 };
	run(&r, s, "- activate: '0405'\n  move: ['0406']\n  melee: true\n", NULL, NULL, none, 0);
	event_index(&r.ev, "melee in 0406 awaits the umpire's ruling");
	run_release(&r);
	struct adj_fixture f;
	struct buf what = BUF_INIT;
	adj_make(&f, "[{adjust: remove, unit: j1}, "
		     "{adjust: status, unit: m2, status: reduced, value: true}]");
	adj_apply_all(s, &f, &what);
	adj_release(&f);
	buf_release(&what);
	run(&r, s, NULL, NULL, NULL, none, 0);
	for (size_t i = 0; i < r.ev.n; i++)
		ck_assert_ptr_null(strstr(r.ev.v[i].text, "melee"));
	ck_assert_int_eq(unit(s, "m2")->hex, hex("0406"));
	ck_assert_int_eq(unit(s, "m2")->is_reduced, 1);
	run_release(&r);
	nhis_state_free(s);
}
END_TEST

static Suite *nhis_orders_suite(void)
{
	Suite *s = suite_create("nhis-orders");
	TCase *t = tcase_create("files");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_options_defaults);
	tcase_add_test(t, test_options_round_trip);
	tcase_add_test(t, test_options_errors);
	tcase_add_test(t, test_options_old_spelling);
	tcase_add_test(t, test_state_round_trip);
	tcase_add_test(t, test_state_errors);
	tcase_add_test(t, test_orders_valid);
	tcase_add_test(t, test_orders_errors);
	tcase_add_test(t, test_orders_all_errors_at_once);
	tcase_add_test(t, test_orders_every_field_checked);
	tcase_add_loop_test(t, test_orders_last_movement_point, 2, 5);
	suite_add_tcase(s, t);
	t = tcase_create("turns");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_alternation);
	tcase_add_test(t, test_opportunity_fire);
	tcase_add_test(t, test_shaken_mover_stops);
	tcase_add_test(t, test_banzai_charge);
	tcase_add_test(t, test_crawl_one_hex_whatever_cost);
	tcase_add_test(t, test_melee_handed_to_umpire);
	tcase_add_test(t, test_charge_stopped_without_banzai);
	tcase_add_test(t, test_void_orders);
	tcase_add_test(t, test_shaken_may_not_fire_or_advance);
	tcase_add_test(t, test_due_and_over);
	suite_add_tcase(s, t);
	t = tcase_create("adjustments");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_adjust_apply);
	tcase_add_test(t, test_adjust_errors);
	tcase_add_test(t, test_melee_resolved_by_adjustment);
	suite_add_tcase(s, t);
	return s;
}

TEST_MAIN(nhis_orders_suite)
