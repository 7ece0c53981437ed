/* check_nhis.c — the NHiS mechanics against the sheet's numbers: hex names, distance and
 * adjacency, line of sight on hand-drawn maps, the terrain chart (movement cost, cover), every
 * cell of the Fire Attack Table, each DRM and shift alone and combined, column rounding and
 * off-table cases, morale outcomes (Shakeable, Unshakable, leaders first, Banzai), damage
 * allocation and rally with scripted dice. */
#include <string.h>

#include "testutil.h"
#include "core/buf.h"
#include "core/dice.h"
#include "core/events.h"
#include "core/node.h"
#include "rules/nhis/nhis.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- fixtures ---------------------------------------------------------------------------- */

static const char *const players[] = { "usmc", "ija" };
static struct nhis_options opts;
static struct rules_campaign camp = { "test", players, 2, &opts };

/* A unit as a flow map: full and reduced sides (reduced: half firepower, morale - 1). */
#define UNIT(id, pl, type, hex, fp, rg, mv, mo) \
	"{id: " id ", player: " pl ", type: " type ", hex: '" hex "', firepower: " #fp \
	", range: " #rg ", movement: " #mv ", morale: " #mo \
	", reduced: {firepower: 1, range: " #rg ", movement: " #mv ", morale: " #mo "}}, "
#define LEADER(id, pl, hex, mo, ld) \
	"{id: " id ", player: " pl ", type: leader, hex: '" hex "', firepower: 1, range: 4, " \
	"movement: 5, morale: " #mo ", leadership: " #ld ", reduced: {firepower: 1, range: 4, " \
	"movement: 5, morale: " #mo ", leadership: " #ld "}}, "

/* A 6x6 open map with the given hexes and units (YAML flow items). */
static struct nhis_state *make(const char *hexes, const char *units)
{
	struct buf b = BUF_INIT;
	buf_printf(&b,
		"map: {columns: 6, rows: 6, terrain: open, hexes: [%s]}\n"
		"sides: [{player: usmc, nationality: us}, {player: ija, nationality: japanese}]\n"
		"initiative: usmc\nunits: [%s]\n",
		hexes, units);
	struct node *n = NULL;
	struct diag d;
	diag_init(&d);
	if (node_parse(&n, "game.yaml", b.data, b.len, NULL, &d) < 0) {
		diag_print(&d, stderr);
		ck_abort_msg("fixture YAML does not parse");
	}
	void *s = NULL;
	if (nhis_state_parse(&s, &camp, n, &d) < 0) {
		diag_print(&d, stderr);
		ck_abort_msg("fixture state does not parse");
	}
	node_free(n);
	diag_release(&d);
	buf_release(&b);
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

/* A resolve context over s with scripted dice. */
struct harness {
	struct dice dice;
	struct events ev;
	struct nhis_ctx x;
};

static void harness_init(struct harness *h, struct nhis_state *s, const int *script, size_t n)
{
	dice_init_script(&h->dice, script, n);
	events_init(&h->ev);
	h->x.s = s;
	h->x.o = &opts;
	h->x.dice = &h->dice;
	h->x.ev = &h->ev;
	h->x.phase = "test";
}

static void harness_release(struct harness *h)
{
	dice_release(&h->dice);
	events_release(&h->ev);
}

static int events_have(const struct events *ev, const char *text)
{
	for (size_t i = 0; i < ev->n; i++)
		if (strstr(ev->v[i].text, text))
			return 1;
	return 0;
}

/* ---- hex names and geometry ------------------------------------------------------------- */

START_TEST(test_hex_names)
{
	int h = 0;
	ck_assert_int_eq(nhis_hex_parse("1108", &h), 0);
	ck_assert_int_eq(h, 1108);
	ck_assert_int_eq(nhis_hex_parse("0101", &h), 0);
	ck_assert_int_eq(h, 101);
	static const char *const bad[] = { "108", "11080", "11a8", "0008", "1100", "", "-108" };
	for (size_t i = 0; i < N_OF(bad); i++)
		ck_assert_msg(nhis_hex_parse(bad[i], &h) < 0, "'%s' accepted", bad[i]);
	char name[5];
	nhis_hex_name(305, name);
	ck_assert_str_eq(name, "0305");
	nhis_hex_name(9999, name);
	ck_assert_str_eq(name, "9999");
}
END_TEST

struct dist_case {
	const char *a, *b;
	int dist;
};
static const struct dist_case dist_cases[] = {
	{ "0101", "0101", 0 },
	{ "0101", "0102", 1 },
	{ "0101", "0201", 1 },
	{ "0101", "0202", 2 },
	{ "0203", "0104", 1 },
	{ "0203", "0102", 2 },
	{ "0203", "0304", 1 },
	{ "0203", "0302", 2 },
	{ "0303", "0202", 1 },
	{ "0303", "0204", 2 },
	{ "0101", "1008", 12 },
	{ "0103", "0503", 4 },
	{ "0101", "0901", 8 },
	{ "0108", "0101", 7 },
	{ "1108", "0504", 7 },
};

START_TEST(test_distance)
{
	for (size_t i = 0; i < N_OF(dist_cases); i++) {
		const struct dist_case *c = &dist_cases[i];
		ck_assert_msg(nhis_distance(hex(c->a), hex(c->b)) == c->dist, "%s-%s: %d, not %d",
			c->a, c->b, nhis_distance(hex(c->a), hex(c->b)), c->dist);
		ck_assert_int_eq(nhis_distance(hex(c->b), hex(c->a)), c->dist);
	}
}
END_TEST

/* Even columns sit half a hex lower: 0203 touches 0103/0104 on the left and 0303/0304 on the
 * right; odd 0303 touches 0202/0203 and 0402/0403. */
START_TEST(test_neighbours)
{
	static const char *const of_0203[] = { "0202", "0204", "0103", "0104", "0303", "0304" };
	static const char *const of_0303[] = { "0302", "0304", "0202", "0203", "0402", "0403" };
	int n = 0;
	for (int col = 1; col <= 6; col++)
		for (int row = 1; row <= 6; row++)
			n += nhis_adjacent(203, col * 100 + row);
	ck_assert_int_eq(n, 6);
	for (size_t i = 0; i < 6; i++) {
		ck_assert_msg(nhis_adjacent(hex("0203"), hex(of_0203[i])), "0203-%s", of_0203[i]);
		ck_assert_msg(nhis_adjacent(hex("0303"), hex(of_0303[i])), "0303-%s", of_0303[i]);
	}
	ck_assert(!nhis_adjacent(hex("0203"), hex("0102")));
	ck_assert(!nhis_adjacent(hex("0303"), hex("0204")));
	ck_assert(!nhis_adjacent(hex("0303"), hex("0303")));
}
END_TEST

static void assert_line(const char *a, const char *b, int side, const char *const *want, size_t n)
{
	int out[64];
	size_t got = nhis_line(hex(a), hex(b), side, out);
	ck_assert_int_eq(got, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(out[i] == hex(want[i]), "%s-%s side %d [%zu]: %04d, not %s", a, b,
			side, i, out[i], want[i]);
}

/* Along row 3 the line from 0103 to 0503 runs on the hexsides between 0202/0203 and
 * 0402/0403: the + nudge takes the upper hexes, the - nudge the lower. */
START_TEST(test_line_samples)
{
	static const char *const up[] = { "0202", "0303", "0402" };
	static const char *const down[] = { "0203", "0303", "0403" };
	assert_line("0103", "0503", +1, up, 3);
	assert_line("0103", "0503", -1, down, 3);
	assert_line("0503", "0103", +1, (const char *const[]){ "0402", "0303", "0202" }, 3);
	static const char *const col[] = { "0102", "0103" };
	assert_line("0101", "0104", +1, col, 2);
	assert_line("0101", "0104", -1, col, 2);
	assert_line("0101", "0102", +1, NULL, 0);
	/* 0101 to 0404 runs along no hexside: both nudges agree. */
	static const char *const diag[] = { "0201", "0202", "0303", "0304" };
	assert_line("0101", "0404", +1, diag, 4);
	assert_line("0101", "0404", -1, diag, 4);
	/* 0101 to 0403 passes the corner where 0202 and 0302 meet at its midpoint. */
	assert_line("0101", "0403", +1, (const char *const[]){ "0201", "0302", "0303" }, 3);
	assert_line("0101", "0403", -1, (const char *const[]){ "0201", "0202", "0303" }, 3);
}
END_TEST

struct los_case {
	const char *hexes;
	const char *a, *b;
	int clear;
	const char *blocker;
};
static const struct los_case los_cases[] = {
	{ "", "0103", "0503", 1, NULL },
	{ "{hex: '0303', terrain: trees}", "0103", "0503", 0, "0303" },
	{ "{hex: '0303', terrain: building}", "0103", "0503", 0, "0303" },
	{ "{hex: '0303', terrain: huts}", "0103", "0503", 0, "0303" },
	{ "{hex: '0303', terrain: tall-grass}", "0103", "0503", 0, "0303" },
	{ "{hex: '0303', terrain: rough}", "0103", "0503", 1, NULL },
	{ "{hex: '0303', terrain: brush}", "0103", "0503", 1, NULL },
	{ "{hex: '0303', terrain: paddy}", "0103", "0503", 1, NULL },
	{ "{hex: '0303', terrain: open, feature: bunker}", "0103", "0503", 1, NULL },
	/* one side of a hexside line blocked: the other side is clear */
	{ "{hex: '0202', terrain: trees}", "0103", "0503", 1, NULL },
	{ "{hex: '0203', terrain: trees}", "0103", "0503", 1, NULL },
	/* both sides blocked, at one spine or at two */
	{ "{hex: '0202', terrain: trees}, {hex: '0203', terrain: trees}", "0103", "0503", 0,
		"0202" },
	{ "{hex: '0202', terrain: trees}, {hex: '0403', terrain: trees}", "0103", "0503", 0,
		"0202" },
	/* endpoints never block; neighbours always see each other */
	{ "{hex: '0103', terrain: trees}, {hex: '0503', terrain: building}", "0103", "0503", 1,
		NULL },
	{ "{hex: '0303', terrain: trees}", "0303", "0304", 1, NULL },
	/* hills */
	{ "{hex: '0303', elevation: 1}", "0103", "0503", 0, "0303" },
	{ "{hex: '0103', elevation: 1}, {hex: '0303', elevation: 1}, {hex: '0503', elevation: 1}",
		"0103", "0503", 1, NULL },
	{ "{hex: '0103', elevation: 1}, {hex: '0303', elevation: 1}", "0103", "0503", 0, "0303" },
	{ "{hex: '0103', elevation: 2}, {hex: '0303', elevation: 1}", "0103", "0503", 1, NULL },
	{ "{hex: '0103', elevation: 1}, {hex: '0303', elevation: 2}, {hex: '0503', elevation: 1}",
		"0103", "0503", 0, "0303" },
	/* blocking terrain below both ends is looked over, not below one end */
	{ "{hex: '0103', elevation: 1}, {hex: '0303', terrain: trees}, {hex: '0503', elevation: 1}",
		"0103", "0503", 1, NULL },
	{ "{hex: '0103', elevation: 1}, {hex: '0303', terrain: trees}", "0103", "0503", 0, "0303" },
	/* a vertical line */
	{ "{hex: '0103', terrain: huts}", "0101", "0106", 0, "0103" },
};

START_TEST(test_los_hand_drawn)
{
	for (size_t i = 0; i < N_OF(los_cases); i++) {
		const struct los_case *c = &los_cases[i];
		struct nhis_state *s = make(c->hexes, "");
		int blocker = -1;
		int clear = nhis_los(&s->map, &opts, hex(c->a), hex(c->b), &blocker);
		ck_assert_msg(clear == c->clear, "case %zu (%s): %s", i, c->hexes,
			clear ? "clear" : "blocked");
		ck_assert_int_eq(nhis_los(&s->map, &opts, hex(c->b), hex(c->a), NULL), c->clear);
		ck_assert_int_eq(blocker, c->blocker ? hex(c->blocker) : 0);
		nhis_state_free(s);
	}
}
END_TEST

START_TEST(test_los_options)
{
	struct nhis_state *s = make("{hex: '0202', terrain: trees}, {hex: '0304', elevation: 1}",
		"");
	ck_assert(nhis_los(&s->map, &opts, hex("0103"), hex("0503"), NULL));
	opts.hexside = NHIS_HEXSIDE_BOTH;
	ck_assert(!nhis_los(&s->map, &opts, hex("0103"), hex("0503"), NULL));
	/* 0302 to 0306 passes through the hill at 0304 */
	ck_assert(!nhis_los(&s->map, &opts, hex("0302"), hex("0306"), NULL));
	opts.hill_blocks_los = 0;
	ck_assert(nhis_los(&s->map, &opts, hex("0302"), hex("0306"), NULL));
	nhis_state_free(s);
}
END_TEST

/* ---- terrain chart ----------------------------------------------------------------------- */

START_TEST(test_move_costs)
{
	struct nhis_state *s = make(
		"{hex: '0202', terrain: trees}, {hex: '0203', terrain: building}, "
		"{hex: '0204', terrain: huts}, {hex: '0205', terrain: rough}, "
		"{hex: '0206', terrain: lava-rock}, {hex: '0302', terrain: tall-grass}, "
		"{hex: '0303', terrain: brush}, {hex: '0304', terrain: beach}, "
		"{hex: '0305', terrain: paddy}, {hex: '0402', elevation: 1}, "
		"{hex: '0403', elevation: 1, terrain: trees}, {hex: '0502', elevation: 1}, "
		"{hex: '0105', terrain: rough, road: true}, {hex: '0106', terrain: rough, road: true}, "
		"{hex: '0104', road: true}, {hex: '0503', elevation: 2, road: true}, "
		"{hex: '0603', elevation: 1, road: true}, {hex: '0604', elevation: 1, road: true}",
		"");
	struct cost_case {
		const char *from, *to;
		int jungle, cost;
	} cases[] = {
		{ "0101", "0102", 0, 1 }, /* open */
		{ "0201", "0202", 0, 2 }, /* trees */
		{ "0201", "0202", 1, 1 }, /* trees, Japanese */
		{ "0202", "0203", 0, 2 }, /* wooden building (option default 2) */
		{ "0203", "0204", 0, 2 }, /* huts */
		{ "0204", "0205", 0, 3 }, /* rough */
		{ "0205", "0206", 0, 3 }, /* lava rock */
		{ "0301", "0302", 0, 2 }, /* tall grass */
		{ "0302", "0303", 0, 1 }, /* brush */
		{ "0303", "0304", 0, 2 }, /* beach */
		{ "0304", "0305", 0, 4 }, /* paddy */
		{ "0401", "0402", 0, 2 }, /* hill from lower: open 1 + 1 */
		{ "0402", "0502", 0, 1 }, /* hill to same level */
		{ "0402", "0401", 0, 1 }, /* downhill */
		{ "0402", "0403", 0, 2 }, /* trees on the same level */
		{ "0404", "0403", 0, 3 }, /* trees uphill */
		{ "0404", "0403", 1, 2 }, /* trees uphill, Japanese */
		{ "0105", "0106", 0, 1 }, /* rough along the road */
		{ "0205", "0106", 0, 3 }, /* rough onto the road from off it */
		{ "0104", "0105", 0, 1 }, /* road onto road */
		{ "0603", "0503", 0, 2 }, /* road uphill: 1 + 1 */
		{ "0603", "0604", 0, 1 }, /* road on the level */
	};
	for (size_t i = 0; i < N_OF(cases); i++) {
		ck_assert_msg(nhis_adjacent(hex(cases[i].from), hex(cases[i].to)), "case %zu", i);
		int c = nhis_move_cost(&s->map, &opts, hex(cases[i].from), hex(cases[i].to),
			cases[i].jungle);
		ck_assert_msg(c == cases[i].cost, "%s->%s: %d, not %d", cases[i].from, cases[i].to,
			c, cases[i].cost);
	}
	opts.building_cost = 3;
	ck_assert_int_eq(nhis_move_cost(&s->map, &opts, hex("0202"), hex("0203"), 0), 3);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_cover)
{
	struct nhis_state *s = make(
		"{hex: '0202', terrain: trees}, {hex: '0203', terrain: building}, "
		"{hex: '0204', terrain: huts}, {hex: '0205', terrain: rough}, "
		"{hex: '0206', terrain: lava-rock}, {hex: '0302', terrain: tall-grass}, "
		"{hex: '0303', terrain: brush}, {hex: '0304', terrain: beach}, "
		"{hex: '0305', terrain: paddy}, {hex: '0402', feature: foxhole}, "
		"{hex: '0403', terrain: trees, feature: foxhole}, {hex: '0404', terrain: trees, "
		"feature: bunker}, {hex: '0405', terrain: rough, feature: cave}, "
		"{hex: '0406', feature: wreck}, {hex: '0502', elevation: 1}, "
		"{hex: '0503', elevation: 1, terrain: trees}, {hex: '0504', elevation: 1, "
		"feature: bunker}, {hex: '0601', elevation: 1}",
		"");
	struct cover_case {
		const char *target;
		int cover;
		int shift;
	} cases[] = {
		{ "0101", 0, 0 }, { "0202", 2, 1 }, { "0203", 3, 1 }, { "0204", 1, 1 },
		{ "0205", 2, 1 }, { "0206", 2, 1 }, { "0302", 1, 1 }, { "0303", 0, 1 },
		{ "0304", 0, 0 }, { "0305", 0, 0 }, { "0402", 1, 0 }, { "0403", 3, 1 },
		{ "0404", 4, 1 }, { "0405", 8, 1 }, { "0406", 1, 1 },
		{ "0502", 1, 0 }, /* hill fired on from lower */
		{ "0503", 3, 1 }, /* trees on a hill from lower */
		{ "0504", 4, 0 }, /* bunker: other terrain, hill included, not counted */
	};
	for (size_t i = 0; i < N_OF(cases); i++) {
		int c = nhis_cover(&s->map, &opts, hex("0101"), hex(cases[i].target));
		ck_assert_msg(c == cases[i].cover, "%s: cover %d, not %d", cases[i].target, c,
			cases[i].cover);
		ck_assert_msg(nhis_shift_terrain(&s->map, hex(cases[i].target)) == cases[i].shift,
			"%s: shift", cases[i].target);
	}
	/* from the same level the hill gives nothing */
	ck_assert_int_eq(nhis_cover(&s->map, &opts, hex("0601"), hex("0502")), 0);
	opts.building_cover = 2;
	ck_assert_int_eq(nhis_cover(&s->map, &opts, hex("0101"), hex("0203")), 2);
	nhis_state_free(s);
}
END_TEST

/* ---- Fire Attack Table ------------------------------------------------------------------- */

/* NOTES.md §004, written out again independently of fire.c's table. */
static const char *const fat_text[11][9] = {
	/*  2 */ { "D", "D", "D", "D2", "D2", "D2", "D3", "D3", "D3" },
	/*  3 */ { "H1", "D", "D", "D", "D2", "D2", "D2", "D3", "D3" },
	/*  4 */ { "H", "H1", "D", "D", "D", "D2", "D2", "D2", "D2" },
	/*  5 */ { "H", "H", "H1", "D", "D", "D", "D2", "D2", "D2" },
	/*  6 */ { "-", "H", "H", "H1", "D", "D", "D", "D2", "D2" },
	/*  7 */ { "-", "-", "H", "H", "H1", "D", "D", "D", "D2" },
	/*  8 */ { "-", "-", "-", "H", "H", "H1", "D", "D", "D" },
	/*  9 */ { "-", "-", "-", "-", "H", "H", "H1", "D", "D" },
	/* 10 */ { "-", "-", "-", "-", "-", "H", "H", "H1", "H1" },
	/* 11 */ { "-", "-", "-", "-", "-", "-", "H", "H", "H" },
	/* 12 */ { "-", "-", "-", "-", "-", "-", "-", "-", "-" },
};

static enum nhis_result result_of(const char *t)
{
	if (strcmp(t, "D") == 0)
		return NHIS_DAMAGED;
	if (strcmp(t, "D2") == 0)
		return NHIS_DAMAGED2;
	if (strcmp(t, "D3") == 0)
		return NHIS_DAMAGED3;
	if (strcmp(t, "H") == 0)
		return NHIS_HIT;
	if (strcmp(t, "H1") == 0)
		return NHIS_HIT1;
	return NHIS_NO_EFFECT;
}

START_TEST(test_fat_every_cell)
{
	static const int fp[9] = { 0, 2, 4, 6, 8, 10, 12, 16, 20 };
	for (int c = 0; c < 9; c++)
		ck_assert_int_eq(nhis_fat_firepower[c], fp[c]);
	for (int roll = 2; roll <= 12; roll++)
		for (int c = 0; c < 9; c++)
			ck_assert_msg(nhis_fat_lookup(c, roll) == result_of(fat_text[roll - 2][c]),
				"2d6 %d, FP %d: %s, not %s", roll, fp[c],
				nhis_result_names[nhis_fat_lookup(c, roll)], fat_text[roll - 2][c]);
	ck_assert_int_eq(nhis_fat_lookup(-1, 2), NHIS_NO_EFFECT);
	ck_assert_int_eq(nhis_fat_lookup(9, 2), NHIS_NO_EFFECT);
}
END_TEST

START_TEST(test_fat_column_rounding)
{
	static const int cases[][2] = {
		{ -5, -1 },
		{ -1, -1 },
		{ 0, 0 },
		{ 1, 0 },
		{ 2, 1 },
		{ 3, 1 },
		{ 4, 2 },
		{ 5, 2 },
		{ 6, 3 },
		{ 7, 3 },
		{ 8, 4 },
		{ 9, 4 },
		{ 10, 5 },
		{ 11, 5 },
		{ 12, 6 },
		{ 13, 6 },
		{ 15, 6 },
		{ 16, 7 },
		{ 17, 7 },
		{ 19, 7 },
		{ 20, 8 },
		{ 21, 8 },
		{ 40, 8 },
	};
	for (size_t i = 0; i < N_OF(cases); i++)
		ck_assert_msg(nhis_fat_column(cases[i][0]) == cases[i][1], "FP %d: column %d",
			cases[i][0], nhis_fat_column(cases[i][0]));
}
END_TEST

START_TEST(test_firer_fp)
{
	struct fp_case {
		int fp, range, dist, charging, night, want;
	} cases[] = {
		{ 6, 4, 4, 0, 0, 6 },                       /* at printed range */
		{ 6, 4, 1, 0, 0, 6 }, { 6, 4, 5, 0, 0, 3 }, /* beyond: halved */
		{ 5, 4, 8, 0, 0, 2 }, /* halved, fractions dropped, up to double range */
		{ 5, 4, 9, 0, 0, NHIS_OUT_OF_RANGE }, /* beyond double range: cannot fire */
		{ 6, 4, 2, 1, 0, 4 },                 /* -2 charging */
		{ 6, 4, 6, 1, 0, 1 },                 /* halved then -2 */
		{ 1, 4, 2, 1, 0, -1 }, /* per unit, below 0: it lowers the attack (issue 9) */
		{ 6, 6, 4, 0, 3, 4 },  /* -2 beyond night visibility */
		{ 6, 6, 3, 0, 3, 6 },  /* within visibility */
		{ 6, 6, 8, 1, 3, -1 }, /* halved 3, -2, -2: -1 */
		{ 8, 6, 8, 1, 3, 0 },  /* 4 - 2 - 2 */
		{ 9, 6, 8, 0, 3, 2 },  /* 4 - 2 */
	};
	for (size_t i = 0; i < N_OF(cases); i++) {
		struct nhis_firer f = { "u", cases[i].fp, cases[i].range, cases[i].dist,
			cases[i].charging, 1 };
		ck_assert_msg(nhis_firer_fp(&f, cases[i].night) == cases[i].want, "case %zu: %d", i,
			nhis_firer_fp(&f, cases[i].night));
	}
}
END_TEST

struct calc_case {
	int fp1, fp2; /* two firers (fp2 0: one firer) */
	int dist;
	int moving, brush, cover, cover_shift, tank, infantry, charging;
	int final, column, shifts, result_column;
};
static const struct calc_case calc_cases[] = {
	/* each alone */
	{ 6, 0, 3, 0, 0, 0, 0, 0, 1, 0, 6, 3, 0, 3 },  /* plain */
	{ 6, 0, 3, 1, 0, 0, 0, 0, 1, 0, 8, 4, 0, 4 },  /* +2 moving */
	{ 6, 0, 3, 1, 1, 0, 0, 0, 1, 0, 6, 3, 0, 3 },  /* moving in Brush: no +2 */
	{ 6, 0, 1, 0, 0, 0, 0, 0, 1, 0, 9, 4, 0, 4 },  /* +3 adjacent */
	{ 6, 0, 3, 0, 0, 2, 0, 0, 1, 0, 4, 2, 0, 2 },  /* -2 cover */
	{ 6, 0, 3, 0, 0, 0, 1, 0, 1, 0, 6, 3, 2, 1 },  /* cover terrain shift */
	{ 6, 0, 3, 0, 0, 0, 0, 1, 1, 0, 6, 3, 2, 1 },  /* infantry on tank */
	{ 6, 0, 3, 0, 0, 0, 0, 1, 0, 0, 6, 3, 0, 3 },  /* tank fired on by non-infantry */
	{ 6, 0, 3, 0, 0, 0, 0, 0, 1, 1, 4, 2, 0, 2 },  /* -2 charging */
	{ 6, 4, 3, 0, 0, 0, 0, 0, 1, 0, 10, 5, 0, 5 }, /* two firers add */
	/* combined */
	{ 6, 4, 1, 1, 0, 2, 0, 0, 1, 0, 13, 6, 0, 6 }, /* +2 +3 -2: 13 -> 12 */
	{ 6, 4, 1, 1, 0, 2, 1, 1, 1, 0, 13, 6, 4, 2 }, /* both shifts: 12 -> 4 */
	{ 8, 8, 1, 1, 0, 0, 0, 0, 1, 0, 21, 8, 0, 8 }, /* over 20 -> 20 */
	{ 6, 4, 1, 0, 0, 8, 1, 0, 1, 0, 5, 2, 2, 0 },  /* cave in rough: 5 -> 4 -> 0 */
	{ 6, 4, 1, 1, 1, 2, 1, 0, 1, 1, 7, 3, 2, 1 },  /* 4+2 charging, brush, adj, cover */
	/* issue 9: each unit's penalty, then the sum (a leader FP 1 and a squad FP 3 charging
	 * adjacent: -1 + 1 + 3 = 3, column 2; flooring each unit at 0 gave 4, column 4) */
	{ 1, 3, 1, 0, 0, 0, 0, 0, 1, 1, 3, 1, 0, 1 },
	{ 2, 3, 1, 0, 0, 0, 0, 0, 1, 1, 4, 2, 0, 2 }, /* 0 + 1 + 3 = 4: column 4 */
	/* off the table */
	{ 2, 0, 3, 0, 0, 3, 0, 0, 1, 0, -1, -1, 0, -1 }, /* below 0 */
	{ 3, 0, 3, 0, 0, 0, 1, 1, 1, 0, 3, 1, 4, -1 },   /* shifted left of FP 0 */
	{ 1, 0, 3, 0, 0, 0, 1, 0, 1, 0, 1, 0, 2, -1 },   /* FP 0 shifted: no effect */
	{ 0, 0, 3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0 },    /* FP 0 column */
};

START_TEST(test_fire_compute)
{
	for (size_t i = 0; i < N_OF(calc_cases); i++) {
		const struct calc_case *c = &calc_cases[i];
		struct nhis_firer f[2] = {
			{ "a", c->fp1, 6, c->dist, c->charging, c->infantry },
			{ "b", c->fp2, 6, c->dist, c->charging, c->infantry },
		};
		struct nhis_fire_calc fc = { 0 };
		fc.firers = f;
		fc.n_firers = c->fp2 ? 2 : 1;
		fc.moving_target = c->moving;
		fc.brush = c->brush;
		fc.cover = c->cover;
		fc.cover_shift = c->cover_shift;
		fc.tank_target = c->tank;
		struct buf why = BUF_INIT;
		nhis_fire_compute(&fc, &why);
		ck_assert_msg(fc.final == c->final && fc.column == c->column &&
				      fc.shifts == c->shifts &&
				      fc.result_column == c->result_column,
			"case %zu: final %d column %d shifts %d result %d (%s)", i, fc.final,
			fc.column, fc.shifts, fc.result_column, buf_str(&why));
		buf_release(&why);
	}
}
END_TEST

/* ---- fire with the state ----------------------------------------------------------------- */

START_TEST(test_fire_adjacent_hit1)
{
	/* FP 6 +3 adjacent = 9, column 8; 2d6 3+4 = 7: Hit-1; morale 4: 1d6 2 + 1 = 3 passes. */
	struct nhis_state *s = make("", UNIT("m1", "usmc", "squad", "0302", 6, 4, 4, 4)
						UNIT("j1", "ija", "squad", "0303", 4, 4, 4, 4));
	static const int script[] = { 3, 4, 2 };
	struct harness h;
	harness_init(&h, s, script, N_OF(script));
	size_t f[] = { 0 };
	ck_assert_int_eq(nhis_fire(&h.x, f, 1, hex("0303"), 0, "usmc fire"), NHIS_HIT1);
	ck_assert_int_eq(dice_count(&h.dice), 3);
	ck_assert_ptr_nonnull(strstr(h.dice.v[0].purpose, "+3 adjacent"));
	ck_assert_ptr_nonnull(strstr(h.dice.v[0].purpose, "column 8"));
	ck_assert_ptr_nonnull(strstr(h.dice.v[2].purpose, "Hit-1"));
	ck_assert(!unit(s, "j1")->is_reduced && !unit(s, "j1")->shaken);
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_fire_every_column)
{
	/* One attack per column, 2d6 = 2 each time: the top row of every column. Targets are
	 * usmc squads of morale 6 in the open at range 3 (no DRM). */
	static const int fp[9] = { 0, 2, 4, 6, 8, 10, 12, 16, 20 };
	static const enum nhis_result want[9] = { NHIS_DAMAGED, NHIS_DAMAGED, NHIS_DAMAGED,
		NHIS_DAMAGED2, NHIS_DAMAGED2, NHIS_DAMAGED2, NHIS_DAMAGED3, NHIS_DAMAGED3,
		NHIS_DAMAGED3 };
	for (int c = 0; c < 9; c++) {
		char units[600];
		snprintf(units, sizeof(units),
			"{id: j1, player: ija, type: squad, hex: '0101', firepower: %d, range: 6, "
			"movement: 4, morale: 4, reduced: {firepower: 1, range: 6, movement: 4, morale: 4}},"
			" " UNIT("m1", "usmc", "squad", "0104", 4, 4, 4, 6),
			fp[c]);
		struct nhis_state *s = make("", units);
		static const int script[] = { 1, 1 };
		struct harness h;
		harness_init(&h, s, script, N_OF(script));
		size_t f[] = { 0 };
		ck_assert_int_eq(nhis_fire(&h.x, f, 1, hex("0104"), 0, "ija fire"), want[c]);
		char col[32];
		snprintf(col, sizeof(col), "column %d", fp[c]);
		ck_assert_ptr_nonnull(strstr(h.dice.v[0].purpose, col));
		ck_assert(unit(s, "m1")->eliminated == (want[c] != NHIS_DAMAGED));
		ck_assert(unit(s, "m1")->is_reduced);
		harness_release(&h);
		nhis_state_free(s);
	}
}
END_TEST

/* Issue 9 item 6 — NHiS Night Rules 18.0 "-2 to Firepower of each unit firing beyond the
 * visibility range": a lone FP 1 squad beyond it has -1, below the table: no roll (flooring
 * the unit at 0 rolled on column 0). FP 2 gives 0: column 0 and a roll. */
START_TEST(test_fire_night_weak_unit_no_roll)
{
	struct nhis_state *s = make("", UNIT("j1", "ija", "squad", "0101", 1, 6, 4, 4)
						UNIT("m1", "usmc", "squad", "0105", 4, 4, 4, 6));
	struct harness h;
	opts.night_visibility = 2;
	harness_init(&h, s, NULL, 0);
	size_t f[] = { 0 };
	ck_assert_int_eq(nhis_fire(&h.x, f, 1, hex("0105"), 0, "ija fire"), NHIS_NO_EFFECT);
	ck_assert_int_eq(dice_count(&h.dice), 0);
	ck_assert(events_have(&h.ev, "below the table"));
	harness_release(&h);
	s->units[0].full.firepower = 2;
	static const int script[] = { 6, 6 };
	harness_init(&h, s, script, N_OF(script));
	ck_assert_int_eq(nhis_fire(&h.x, f, 1, hex("0105"), 0, "ija fire"), NHIS_NO_EFFECT);
	ck_assert_int_eq(dice_count(&h.dice), 2);
	ck_assert_ptr_nonnull(strstr(h.dice.v[0].purpose, "column 0"));
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_fire_off_table_rolls_nothing)
{
	/* FP 2 - cover 3 (building) < 0: no effect, no die. */
	struct nhis_state *s = make("{hex: '0104', terrain: building}",
		UNIT("j1", "ija", "squad", "0101", 2, 6, 4, 4)
			UNIT("m1", "usmc", "squad", "0104", 4, 4, 4, 6));
	struct harness h;
	harness_init(&h, s, NULL, 0);
	size_t f[] = { 0 };
	ck_assert_int_eq(nhis_fire(&h.x, f, 1, hex("0104"), 0, "ija fire"), NHIS_NO_EFFECT);
	ck_assert_int_eq(dice_count(&h.dice), 0);
	ck_assert(events_have(&h.ev, "below the table"));
	/* FP 7 - 3 = 4, column 4, shifted two left (building, unmarked): column 0 ... */
	s->units[0].full.firepower = 7;
	static const int script[] = { 6, 6 };
	dice_release(&h.dice);
	dice_init_script(&h.dice, script, N_OF(script));
	ck_assert_int_eq(nhis_fire(&h.x, f, 1, hex("0104"), 0, "ija fire"), NHIS_NO_EFFECT);
	ck_assert_int_eq(dice_count(&h.dice), 2);
	ck_assert_ptr_nonnull(strstr(h.dice.v[0].purpose, "column 4, 2 left"));
	ck_assert_ptr_nonnull(strstr(h.dice.v[0].purpose, "-> column 0"));
	/* ... and with a tank in the open fired on by infantry at FP 2: off the table. */
	harness_release(&h);
	nhis_state_free(s);
	s = make("", UNIT("j1", "ija", "squad", "0101", 3, 6, 4, 4)
			     UNIT("t1", "usmc", "tank", "0104", 8, 8, 6, 6));
	harness_init(&h, s, NULL, 0);
	ck_assert_int_eq(nhis_fire(&h.x, f, 1, hex("0104"), 0, "ija fire"), NHIS_NO_EFFECT);
	ck_assert_int_eq(dice_count(&h.dice), 0);
	ck_assert(events_have(&h.ev, "2 left (infantry on tank) -> off the table"));
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_fire_markers_and_shifts)
{
	/* Trees (cover 2, shift terrain). Unmarked: 8 - 2 = 6, column 6, 2 left -> column 2.
	 * Marked Move: +2: 8, column 8, no shift. Marked Fire: 6, no shift, no +2. */
	struct nhis_state *s = make("{hex: '0104', terrain: trees}",
		UNIT("m1", "usmc", "squad", "0101", 8, 6, 4, 6)
			UNIT("j1", "ija", "squad", "0104", 4, 4, 4, 6));
	static const int script[] = { 6, 6, 6, 6, 6, 6 };
	struct harness h;
	harness_init(&h, s, script, N_OF(script));
	size_t f[] = { 0 };
	nhis_fire(&h.x, f, 1, hex("0104"), 0, "usmc fire");
	ck_assert_ptr_nonnull(strstr(h.dice.v[0].purpose, "= 6, column 6, 2 left (cover terrain "
							  "not marked) -> column 2"));
	unit(s, "j1")->markers = NHIS_MARK_MOVE;
	nhis_fire(&h.x, f, 1, hex("0104"), 0, "usmc fire");
	ck_assert_ptr_nonnull(
		strstr(h.dice.v[2].purpose, "+2 moving target -2 cover = 8, column 8"));
	ck_assert_ptr_null(strstr(h.dice.v[2].purpose, "left"));
	unit(s, "j1")->markers = NHIS_MARK_FIRE;
	nhis_fire(&h.x, f, 1, hex("0104"), 0, "usmc fire");
	ck_assert_ptr_nonnull(strstr(h.dice.v[4].purpose, "FP 8 -2 cover = 6, column 6"));
	ck_assert_ptr_null(strstr(h.dice.v[4].purpose, "left"));
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

/* ---- morale ------------------------------------------------------------------------------ */

START_TEST(test_shakeable_steps)
{
	/* us squads are Shakeable: fail -> Shaken; again -> reduced, Shaken; again -> gone. */
	struct nhis_state *s = make("", UNIT("m1", "usmc", "squad", "0303", 4, 4, 4, 3));
	static const int script[] = { 3, 4, 4, 6 };
	struct harness h;
	harness_init(&h, s, script, N_OF(script));
	struct nhis_unit *u = unit(s, "m1");
	nhis_apply_result(&h.x, hex("0303"), 0, NHIS_HIT, 0, "t"); /* 3 <= 3 passes */
	ck_assert(!u->shaken && !u->is_reduced);
	nhis_apply_result(&h.x, hex("0303"), 0, NHIS_HIT, 0, "t"); /* 4 > 3 */
	ck_assert(u->shaken && !u->is_reduced && !u->eliminated);
	nhis_apply_result(&h.x, hex("0303"), 0, NHIS_HIT, 0, "t");
	ck_assert(u->shaken && u->is_reduced && !u->eliminated);
	nhis_apply_result(&h.x, hex("0303"), 0, NHIS_HIT, 0, "t");
	ck_assert(u->eliminated);
	ck_assert_int_eq(dice_count(&h.dice), 4);
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_hit1_adds_one)
{
	/* Hit-1: 3 + 1 = 4 > morale 3 fails where Hit passes. */
	struct nhis_state *s = make("", UNIT("m1", "usmc", "squad", "0303", 4, 4, 4, 3));
	static const int script[] = { 3 };
	struct harness h;
	harness_init(&h, s, script, N_OF(script));
	nhis_apply_result(&h.x, hex("0303"), 0, NHIS_HIT1, 0, "t");
	ck_assert(unit(s, "m1")->shaken);
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_unshakable_steps)
{
	/* Japanese squads are Unshakable (default option): fail -> reduced, never Shaken;
	 * reduced and failing -> eliminated. */
	struct nhis_state *s = make("", UNIT("j1", "ija", "squad", "0303", 4, 4, 4, 3));
	static const int script[] = { 4, 5 };
	struct harness h;
	harness_init(&h, s, script, N_OF(script));
	struct nhis_unit *u = unit(s, "j1");
	nhis_apply_result(&h.x, hex("0303"), 1, NHIS_HIT, 0, "t");
	ck_assert(u->is_reduced && !u->shaken && !u->eliminated);
	nhis_apply_result(&h.x, hex("0303"), 1, NHIS_HIT, 0, "t");
	ck_assert(u->eliminated);
	harness_release(&h);
	nhis_state_free(s);
	/* with no Unshakable nationality the same squad is Shaken */
	opts.n_unshakable = 0;
	s = make("", UNIT("j1", "ija", "squad", "0303", 4, 4, 4, 3));
	harness_init(&h, s, script, 1);
	nhis_apply_result(&h.x, hex("0303"), 1, NHIS_HIT, 0, "t");
	ck_assert(unit(s, "j1")->shaken && !unit(s, "j1")->is_reduced);
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

/* Issue 9 item 7 — NOTES §004: Unshakable is a nationality property. A US tank failing a
 * Hit check (1d6 4 > morale 3) is Shaken by default (tank-morale: nationality); a Japanese
 * tank is reduced; with tank-morale: unshakable the US tank is reduced. A 3 passes. */
START_TEST(test_tank_morale_option)
{
	static const int fail[] = { 4 }, pass[] = { 3 };
	struct harness h;
	struct nhis_state *s = make("", UNIT("t1", "usmc", "tank", "0303", 8, 8, 6, 3)
						UNIT("t2", "ija", "tank", "0505", 8, 8, 6, 3));
	harness_init(&h, s, pass, 1);
	nhis_apply_result(&h.x, hex("0303"), 0, NHIS_HIT, 0, "t");
	ck_assert(!unit(s, "t1")->shaken && !unit(s, "t1")->is_reduced);
	harness_release(&h);
	harness_init(&h, s, fail, 1);
	nhis_apply_result(&h.x, hex("0303"), 0, NHIS_HIT, 0, "t");
	ck_assert(unit(s, "t1")->shaken && !unit(s, "t1")->is_reduced);
	harness_release(&h);
	harness_init(&h, s, fail, 1);
	nhis_apply_result(&h.x, hex("0505"), 1, NHIS_HIT, 0, "t");
	ck_assert(unit(s, "t2")->is_reduced && !unit(s, "t2")->shaken);
	harness_release(&h);
	nhis_state_free(s);
	opts.tank_morale = NHIS_TANK_UNSHAKABLE;
	s = make("", UNIT("t1", "usmc", "tank", "0303", 8, 8, 6, 3));
	harness_init(&h, s, fail, 1);
	nhis_apply_result(&h.x, hex("0303"), 0, NHIS_HIT, 0, "t");
	ck_assert(unit(s, "t1")->is_reduced && !unit(s, "t1")->shaken);
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_leaders_first)
{
	/* Leader (morale 5, leadership 2) and squad (morale 3). Dice 1, 4: the leader passes,
	 * the squad passes with his leadership (4+1 <= 3+2). */
	const char *units = LEADER("l1", "usmc", "0303", 5, 2)
		UNIT("m1", "usmc", "squad", "0303", 4, 4, 4, 3);
	struct nhis_state *s = make("", units);
	static const int pass[] = { 1, 4 };
	struct harness h;
	harness_init(&h, s, pass, N_OF(pass));
	nhis_apply_result(&h.x, hex("0303"), 0, NHIS_HIT1, 0, "t");
	ck_assert(!unit(s, "l1")->shaken && !unit(s, "m1")->shaken);
	ck_assert_ptr_nonnull(strstr(h.dice.v[0].purpose, "l1"));
	ck_assert_ptr_nonnull(strstr(h.dice.v[1].purpose, "m1"));
	ck_assert_ptr_nonnull(strstr(h.dice.v[1].purpose, "leadership 2"));
	harness_release(&h);
	nhis_state_free(s);
	/* Dice 5, 4: the leader fails first and is Shaken, so the squad has no leadership. */
	s = make("", units);
	static const int fail[] = { 5, 4 };
	harness_init(&h, s, fail, N_OF(fail));
	nhis_apply_result(&h.x, hex("0303"), 0, NHIS_HIT1, 0, "t");
	ck_assert(unit(s, "l1")->shaken && unit(s, "m1")->shaken);
	ck_assert_ptr_nonnull(strstr(h.dice.v[1].purpose, "leadership 0"));
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_best_prepared_leader)
{
	/* Two leaders: the better Prepared one lends leadership; a Shaken one does not. */
	struct nhis_state *s = make("",
		LEADER("l1", "usmc", "0303", 5, 1) LEADER("l2", "usmc", "0303", 5, 3)
			UNIT("m1", "usmc", "squad", "0303", 4, 4, 4, 3));
	ck_assert_int_eq(nhis_leadership_in(s, 0, hex("0303")), 3);
	unit(s, "l2")->shaken = 1;
	ck_assert_int_eq(nhis_leadership_in(s, 0, hex("0303")), 1);
	unit(s, "l1")->eliminated = 1;
	ck_assert_int_eq(nhis_leadership_in(s, 0, hex("0303")), 0);
	ck_assert_int_eq(nhis_leadership_in(s, 1, hex("0303")), 0);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_moving_unshakable_stops)
{
	struct nhis_state *s = make("",
		UNIT("j1", "ija", "squad", "0303", 4, 4, 4, 3) UNIT("j2", "ija", "squad", "0304", 4,
			4, 4, 3) UNIT("j3", "ija", "squad", "0305", 4, 4, 4, 3));
	static const int script[] = { 6, 6, 6 };
	struct harness h;
	harness_init(&h, s, script, N_OF(script));
	struct nhis_unit *a = unit(s, "j1"), *b = unit(s, "j2"), *c = unit(s, "j3");
	a->moving = b->moving = c->moving = 1;
	b->banzai = c->banzai = 1;
	nhis_apply_result(&h.x, hex("0303"), 1, NHIS_HIT, 0, "t");
	ck_assert(a->is_reduced && a->stopped);
	nhis_apply_result(&h.x, hex("0304"), 1, NHIS_HIT, 0, "t");
	ck_assert(b->is_reduced && !b->stopped); /* Banzai charges on */
	nhis_apply_result(&h.x, hex("0305"), 1, NHIS_HIT, 1, "t");
	ck_assert(c->is_reduced && c->stopped); /* ... unless flamethrower */
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

/* ---- damage ------------------------------------------------------------------------------ */

START_TEST(test_damaged2_three_units)
{
	/* Three Shakeable squads, Damaged-2: d3 = 2 picks m2, then d2 = 2 picks m3 of (m1, m3).
	 * Every survivor is Shaken, no morale check. */
	struct nhis_state *s = make("",
		UNIT("m1", "usmc", "squad", "0303", 4, 4, 4, 4) UNIT("m2", "usmc", "squad", "0303",
			4, 4, 4, 4) UNIT("m3", "usmc", "squad", "0303", 4, 4, 4, 4));
	static const int script[] = { 2, 2 };
	struct harness h;
	harness_init(&h, s, script, N_OF(script));
	nhis_apply_result(&h.x, hex("0303"), 0, NHIS_DAMAGED2, 0, "t");
	ck_assert_int_eq(dice_count(&h.dice), 2);
	ck_assert_int_eq(h.dice.v[0].sides, 3);
	ck_assert_int_eq(h.dice.v[1].sides, 2);
	ck_assert(!unit(s, "m1")->is_reduced && unit(s, "m2")->is_reduced &&
		  unit(s, "m3")->is_reduced);
	ck_assert(unit(s, "m1")->shaken && unit(s, "m2")->shaken && unit(s, "m3")->shaken);
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_damaged3_two_units)
{
	/* Two Unshakable squads, Damaged-3: each takes one point (no die), then d2 = 1 gives the
	 * third to j1, now reduced: eliminated. Both were damaged: no morale check. */
	struct nhis_state *s = make("", UNIT("j1", "ija", "squad", "0303", 4, 4, 4, 4)
						UNIT("j2", "ija", "squad", "0303", 4, 4, 4, 4));
	static const int script[] = { 1 };
	struct harness h;
	harness_init(&h, s, script, N_OF(script));
	nhis_apply_result(&h.x, hex("0303"), 1, NHIS_DAMAGED3, 0, "t");
	ck_assert_int_eq(dice_count(&h.dice), 1);
	ck_assert(unit(s, "j1")->eliminated);
	ck_assert(unit(s, "j2")->is_reduced && !unit(s, "j2")->eliminated);
	ck_assert(!unit(s, "j2")->shaken);
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_damage_points_lost)
{
	/* One full unit, Damaged-2: reduced, then eliminated. One reduced unit, Damaged-3:
	 * eliminated, two points lost. No die either time. */
	struct nhis_state *s = make("", UNIT("m1", "usmc", "squad", "0303", 4, 4, 4, 4)
						UNIT("m2", "usmc", "squad", "0305", 4, 4, 4, 4));
	unit(s, "m2")->is_reduced = 1;
	struct harness h;
	harness_init(&h, s, NULL, 0);
	nhis_apply_result(&h.x, hex("0303"), 0, NHIS_DAMAGED2, 0, "t");
	ck_assert(unit(s, "m1")->eliminated);
	nhis_apply_result(&h.x, hex("0305"), 0, NHIS_DAMAGED3, 0, "t");
	ck_assert(unit(s, "m2")->eliminated);
	ck_assert(events_have(&h.ev, "2 damage points lost"));
	ck_assert_int_eq(dice_count(&h.dice), 0);
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_damaged_unshakable_checks)
{
	/* Japanese leader (morale 4, leadership 1) and squads j1, j2 (morale 3). Damaged: d3 = 2
	 * hits j1. Then the undamaged check at +0, leader first: 5 > 4 reduces the leader; j2:
	 * 4 <= 3 + 1 passes with the (reduced, still Prepared) leader's leadership. */
	struct nhis_state *s = make("",
		UNIT("j1", "ija", "squad", "0303", 4, 4, 4, 3) LEADER("l1", "ija", "0303", 4, 1)
			UNIT("j2", "ija", "squad", "0303", 4, 4, 4, 3));
	static const int script[] = { 2, 5, 4 };
	struct harness h;
	harness_init(&h, s, script, N_OF(script));
	nhis_apply_result(&h.x, hex("0303"), 1, NHIS_DAMAGED, 0, "t");
	ck_assert_int_eq(dice_count(&h.dice), 3);
	ck_assert_ptr_nonnull(strstr(h.dice.v[0].purpose, "2=j1")); /* leaders listed first */
	ck_assert(unit(s, "j1")->is_reduced);
	ck_assert(unit(s, "l1")->is_reduced && !unit(s, "l1")->shaken);
	ck_assert(!unit(s, "j2")->is_reduced);
	ck_assert_ptr_nonnull(strstr(h.dice.v[2].purpose, "leadership 1"));
	ck_assert(!unit(s, "j1")->shaken && !unit(s, "j2")->shaken);
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

START_TEST(test_damaged_already_shaken)
{
	/* A Shaken squad not picked by the point stays Shaken, losing no further step. */
	struct nhis_state *s = make("", UNIT("m1", "usmc", "squad", "0303", 4, 4, 4, 4)
						UNIT("m2", "usmc", "squad", "0303", 4, 4, 4, 4));
	unit(s, "m2")->shaken = 1;
	static const int script[] = { 1 };
	struct harness h;
	harness_init(&h, s, script, N_OF(script));
	nhis_apply_result(&h.x, hex("0303"), 0, NHIS_DAMAGED, 0, "t");
	ck_assert(unit(s, "m1")->is_reduced && unit(s, "m1")->shaken);
	ck_assert(!unit(s, "m2")->is_reduced && unit(s, "m2")->shaken);
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

/* ---- rally ------------------------------------------------------------------------------- */

START_TEST(test_rally)
{
	const char *units = UNIT("m1", "usmc", "squad", "0303", 4, 4, 4, 3)
		LEADER("l1", "usmc", "0303", 4, 1) UNIT("m2", "usmc", "squad", "0505", 4, 4, 4, 3);
	struct nhis_state *s = make("", units);
	for (size_t i = 0; i < s->n_units; i++)
		s->units[i].shaken = 1;
	/* leader first: 4 <= 4 rallies; m1 4 <= 3 + 1 rallies with him; m2 alone 4 > 3. */
	static const int script[] = { 4, 4, 4 };
	struct harness h;
	harness_init(&h, s, script, N_OF(script));
	nhis_rally_phase(&h.x);
	ck_assert_ptr_nonnull(strstr(h.dice.v[0].purpose, "l1"));
	ck_assert(!unit(s, "l1")->shaken && !unit(s, "m1")->shaken && unit(s, "m2")->shaken);
	harness_release(&h);
	nhis_state_free(s);
	/* the plain reading: no leadership */
	opts.rally = NHIS_RALLY_PLAIN;
	s = make("", units);
	for (size_t i = 0; i < s->n_units; i++)
		s->units[i].shaken = 1;
	harness_init(&h, s, script, N_OF(script));
	nhis_rally_phase(&h.x);
	ck_assert(!unit(s, "l1")->shaken && unit(s, "m1")->shaken && unit(s, "m2")->shaken);
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

/* ---- movement ---------------------------------------------------------------------------- */

/* Plays one usmc impulse: every unit in `from` moves (mode move) along the n hexes of path. */
static void move_impulse(struct harness *h, const char *from, const char *const *path, size_t n)
{
	struct nhis_impulse imp;
	memset(&imp, 0, sizeof(imp));
	imp.index = 1;
	imp.hex = hex(from);
	imp.mode = NHIS_MODE_MOVE;
	for (size_t i = 0; i < n; i++)
		imp.path[imp.n_path++] = hex(path[i]);
	nhis_impulse(&h->x, 0, "usmc", &imp);
}

/* NHiS Fire Attack Table, Hit: "Shaken units may not move toward an enemy unit". A Shaken
 * squad in 0303, 3 hexes from the enemy in 0306, steps into each neighbour: sideways (still 3
 * hexes away) and away it moves; closer (2 hexes) it stays. */
START_TEST(test_shaken_moves_sideways_not_closer)
{
	static const struct {
		const char *to;
		int dist, moves;
	} cases[] = {
		{ "0203", 3, 1 }, /* sideways */
		{ "0403", 3, 1 }, /* sideways */
		{ "0302", 4, 1 }, /* away */
		{ "0304", 2, 0 }, /* toward */
	};
	for (size_t i = 0; i < N_OF(cases); i++) {
		struct nhis_state *s = make("",
			UNIT("m1", "usmc", "squad", "0303", 4, 4, 4, 4)
				UNIT("j1", "ija", "squad", "0306", 4, 4, 4, 4));
		unit(s, "m1")->shaken = 1;
		ck_assert_int_eq(nhis_enemy_distance(s, 0, hex("0303")), 3);
		ck_assert_int_eq(nhis_enemy_distance(s, 0, hex(cases[i].to)), cases[i].dist);
		struct harness h;
		harness_init(&h, s, NULL, 0);
		move_impulse(&h, "0303", &cases[i].to, 1);
		ck_assert_msg(unit(s, "m1")->hex == hex(cases[i].moves ? cases[i].to : "0303"),
			"Shaken m1 stepping to %s (%d hexes from the enemy) ends in %04d",
			cases[i].to, cases[i].dist, unit(s, "m1")->hex);
		ck_assert_int_eq(events_have(&h.ev, "may not move toward the enemy"),
			!cases[i].moves);
		ck_assert_int_eq(dice_count(&h.dice), 0);
		harness_release(&h);
		nhis_state_free(s);
	}
}
END_TEST

/* NHiS terrain chart (movement cost, open ground 1 MP): a squad of movement _i (2, 3 or 4)
 * moves 3 open hexes. With 3 it spends exactly its last point and arrives; with 2 the third
 * hex needs one point more than is left and the move stops (a void order) in 0103. */
START_TEST(test_move_last_movement_point)
{
	static const char *const path[] = { "0102", "0103", "0104" };
	struct nhis_state *s = make("", UNIT("m1", "usmc", "squad", "0101", 4, 4, 4, 4)
						UNIT("j1", "ija", "squad", "0606", 4, 4, 4, 4));
	unit(s, "m1")->full.movement = _i;
	struct harness h;
	harness_init(&h, s, NULL, 0);
	move_impulse(&h, "0101", path, N_OF(path));
	ck_assert_int_eq(unit(s, "m1")->hex, hex(_i >= 3 ? "0104" : "0103"));
	ck_assert_int_eq(events_have(&h.ev, "entering 0104 needs 1 movement points, 0 left"),
		_i < 3);
	ck_assert_int_eq(h.ev.n > 0 && h.ev.v[h.ev.n - 1].kind == EVENT_VOID, _i < 3);
	ck_assert_int_eq(dice_count(&h.dice), 0);
	harness_release(&h);
	nhis_state_free(s);
}
END_TEST

static Suite *nhis_suite(void)
{
	Suite *s = suite_create("nhis");
	TCase *t = tcase_create("geometry");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_hex_names);
	tcase_add_test(t, test_distance);
	tcase_add_test(t, test_neighbours);
	tcase_add_test(t, test_line_samples);
	tcase_add_test(t, test_los_hand_drawn);
	tcase_add_test(t, test_los_options);
	suite_add_tcase(s, t);
	t = tcase_create("terrain");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_move_costs);
	tcase_add_test(t, test_cover);
	suite_add_tcase(s, t);
	t = tcase_create("fire");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_fat_every_cell);
	tcase_add_test(t, test_fat_column_rounding);
	tcase_add_test(t, test_firer_fp);
	tcase_add_test(t, test_fire_compute);
	tcase_add_test(t, test_fire_adjacent_hit1);
	tcase_add_test(t, test_fire_every_column);
	tcase_add_test(t, test_fire_off_table_rolls_nothing);
	tcase_add_test(t, test_fire_night_weak_unit_no_roll);
	tcase_add_test(t, test_fire_markers_and_shifts);
	suite_add_tcase(s, t);
	t = tcase_create("morale");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_shakeable_steps);
	tcase_add_test(t, test_hit1_adds_one);
	tcase_add_test(t, test_unshakable_steps);
	tcase_add_test(t, test_tank_morale_option);
	tcase_add_test(t, test_leaders_first);
	tcase_add_test(t, test_best_prepared_leader);
	tcase_add_test(t, test_moving_unshakable_stops);
	suite_add_tcase(s, t);
	t = tcase_create("damage");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_damaged2_three_units);
	tcase_add_test(t, test_damaged3_two_units);
	tcase_add_test(t, test_damage_points_lost);
	tcase_add_test(t, test_damaged_unshakable_checks);
	tcase_add_test(t, test_damaged_already_shaken);
	suite_add_tcase(s, t);
	t = tcase_create("movement");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_shaken_moves_sideways_not_closer);
	tcase_add_loop_test(t, test_move_last_movement_point, 2, 5);
	suite_add_tcase(s, t);
	t = tcase_create("rally");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_rally);
	suite_add_tcase(s, t);
	return s;
}

TEST_MAIN(nhis_suite)
