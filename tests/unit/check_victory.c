/* check_victory.c — who won: each rule system's victory hook (docs/rules/NAME.md "Victory")
 * on states built by hand, on both sides of each threshold, with its options parsed from
 * the scenario's YAML as `umpire init` parses them; and core's campaign_victory line. */
#include <string.h>

#include "testutil.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/node.h"
#include "rules/rules.h"
#include "rules/land-raid/landraid.h"
#include "rules/nhis/nhis.h"
#include "rules/reivers/reivers.h"
#include "rules/warmaster/warmaster.h"

/* The options the rule system parses from `options:` text (YAML), or NULL with the
 * diagnostics in d. */
static void *options(const struct rule_system *rs, const char *yaml, struct diag *d)
{
	struct node *n = NULL;
	void *o = NULL;
	ck_assert_int_eq(node_parse(&n, "options.yaml", yaml, strlen(yaml), NULL, d), 0);
	if (rs->options_parse(&o, n, d) < 0)
		o = NULL;
	node_free(n);
	return o;
}

/* rs's verdict on state: returns the hook's value; winner and why filled. */
static int judge(const struct rule_system *rs, const char *const *players, size_t n_players,
	const void *opts, const void *state, const char **winner, struct buf *why)
{
	struct rules_campaign c = { "test", players, n_players, opts };
	*winner = "unset";
	buf_clear(why);
	return rs->victory(&c, state, winner, why);
}

static const char *const lr_players[] = { "attacker", "defender" };

START_TEST(landraid_loot_threshold)
{
	struct diag d;
	diag_init(&d);
	struct buf why = BUF_INIT;
	struct landraid_state s;
	const char *w;
	void *o = options(rules_find("land-raid"), "victory: {loot: 3}\n", &d);
	ck_assert_ptr_nonnull(o);
	memset(&s, 0, sizeof(s));
	s.loot_taken = 2; /* one short: the defender */
	ck_assert_int_eq(judge(rules_find("land-raid"), lr_players, 2, o, &s, &w, &why), 1);
	ck_assert_str_eq(w, "defender");
	ck_assert_str_eq(buf_str(&why),
		"the attacker carried off 2 loot, less than the 3 the scenario's victory asks (§24)");
	s.loot_taken = 3; /* exactly the mark: the attacker */
	ck_assert_int_eq(judge(rules_find("land-raid"), lr_players, 2, o, &s, &w, &why), 1);
	ck_assert_str_eq(w, "attacker");
	rules_find("land-raid")->options_free(o);
	/* no victory stated: no decision */
	o = options(rules_find("land-raid"), "turns-per-player: 4\n", &d);
	ck_assert_int_eq(judge(rules_find("land-raid"), lr_players, 2, o, &s, &w, &why), 0);
	rules_find("land-raid")->options_free(o);
	/* the emitted options carry the victory back (campaign.yaml), only when stated */
	o = options(rules_find("land-raid"), "victory: {loot: 5}\n", &d);
	struct node *e = rules_find("land-raid")->options_emit(o);
	struct buf out = BUF_INIT;
	ck_assert_int_eq(node_emit(e, &out), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "victory:\n  loot: 5\n"));
	node_free(e);
	rules_find("land-raid")->options_free(o);
	buf_release(&out);
	buf_release(&why);
	diag_release(&d);
}
END_TEST

START_TEST(landraid_victory_refused)
{
	struct diag d;
	diag_init(&d);
	ck_assert_ptr_null(options(rules_find("land-raid"), "victory: {loot: 0}\n", &d));
	ck_assert_ptr_null(options(rules_find("land-raid"), "victory: {plunder: 3}\n", &d));
	ck_assert_int_ge((int)diag_count(&d), 2);
	diag_release(&d);
}
END_TEST

static const char *const nh_players[] = { "usmc", "ija" };

START_TEST(nhis_hexes_and_units)
{
	struct diag d;
	diag_init(&d);
	struct buf why = BUF_INIT;
	struct nhis_unit u[4];
	struct nhis_state s;
	const char *w;
	void *o = options(rules_find("nhis"),
		"victory: {hexes: [\"0604\", \"0904\"], hex-points: 2, unit-points: 1}\n", &d);
	ck_assert_ptr_nonnull(o);
	memset(&s, 0, sizeof(s));
	memset(u, 0, sizeof(u));
	s.side[0].player = (char *)"usmc";
	s.side[1].player = (char *)"ija";
	s.units = u;
	s.n_units = 4;
	u[0] = (struct nhis_unit){ .id = (char *)"a", .side = 0, .hex = 604 };
	u[1] = (struct nhis_unit){ .id = (char *)"b", .side = 1, .hex = 904 };
	u[2] = (struct nhis_unit){ .id = (char *)"c", .side = 1, .hex = 1003 };
	u[3] = (struct nhis_unit){ .id = (char *)"d", .side = 0, .hex = 101, .eliminated = 1 };
	/* usmc: 0604 alone = 2; ija: 0904 alone = 2, one usmc unit eliminated = 1: ija 3 to 2 */
	ck_assert_int_eq(judge(rules_find("nhis"), nh_players, 2, o, &s, &w, &why), 1);
	ck_assert_str_eq(w, "ija");
	ck_assert_str_eq(buf_str(&why),
		"usmc 2 (1 of 2 objective hexes held, 0 enemy units eliminated), ija 3 (1 of 2 "
		"objective hexes held, 1 enemy unit eliminated)");
	/* a usmc unit enters 0904 beside the ija unit: nobody holds it alone; 2 to 1 */
	u[3] = (struct nhis_unit){ .id = (char *)"d", .side = 0, .hex = 904 };
	ck_assert_int_eq(judge(rules_find("nhis"), nh_players, 2, o, &s, &w, &why), 1);
	ck_assert_str_eq(w, "usmc");
	/* the ija unit in 0904 eliminated: usmc holds both hexes alone (4) and killed one (5),
	 * ija 0 */
	u[1].eliminated = 1;
	ck_assert_int_eq(judge(rules_find("nhis"), nh_players, 2, o, &s, &w, &why), 1);
	ck_assert_str_eq(w, "usmc");
	u[0].hex = 1003; /* 0604 left empty, usmc beside ija's unit in 1003: usmc 2 + 1 = 3 */
	u[2].hex = 604;  /* ija takes 0604 alone: 2, and no usmc unit eliminated: 2 */
	ck_assert_int_eq(judge(rules_find("nhis"), nh_players, 2, o, &s, &w, &why), 1);
	ck_assert_str_eq(w, "usmc");
	u[0].eliminated = 1; /* usmc 0904 (2) + 1 = 3; ija 0604 (2) + 1 = 3: a draw */
	ck_assert_int_eq(judge(rules_find("nhis"), nh_players, 2, o, &s, &w, &why), 1);
	ck_assert_ptr_null(w);
	rules_find("nhis")->options_free(o);
	o = options(rules_find("nhis"), "rally: plain\n", &d);
	ck_assert_int_eq(judge(rules_find("nhis"), nh_players, 2, o, &s, &w, &why), 0);
	rules_find("nhis")->options_free(o);
	ck_assert_ptr_null(options(rules_find("nhis"), "victory: {hexes: [\"0099\"]}\n", &d));
	buf_release(&why);
	diag_release(&d);
}
END_TEST

static const char *const rv_players[] = { "armstrong", "forster" };

START_TEST(reivers_animals_held)
{
	struct diag d;
	diag_init(&d);
	struct buf why = BUF_INIT;
	struct rv_animal_def a[4];
	struct rv_state s;
	const char *w;
	void *o = options(rules_find("reivers"), "victory: {raider: armstrong, animals: 2}\n", &d);
	ck_assert_ptr_nonnull(o);
	memset(&s, 0, sizeof(s));
	memset(a, 0, sizeof(a));
	s.n_sides = 2;
	s.animal = a;
	s.n_animal = 4;
	a[0] = (struct rv_animal_def){ .id = "cow-1", .kind = RV_CATTLE, .owner = 0 };
	a[1] = (struct rv_animal_def){ .id = "cow-2", .kind = RV_CATTLE, .owner = 1 };
	a[2] = (struct rv_animal_def){ .id = "ewe", .kind = RV_SHEEP, .owner = 1 };
	a[3] = (struct rv_animal_def){ .id = "nag", .kind = RV_HORSE, .owner = 0 };
	/* armstrong holds one beast (his horse does not count): one short, forster holds 2 */
	ck_assert_int_eq(judge(rules_find("reivers"), rv_players, 2, o, &s, &w, &why), 1);
	ck_assert_str_eq(w, "forster");
	ck_assert_str_eq(buf_str(&why),
		"armstrong holds 1 head of cattle and sheep, less than the 2 the scenario's "
		"victory asks; forster holds 2, the most of the other sides");
	a[2].owner = 0; /* the ewe herded away: 2, the mark */
	ck_assert_int_eq(judge(rules_find("reivers"), rv_players, 2, o, &s, &w, &why), 1);
	ck_assert_str_eq(w, "armstrong");
	rules_find("reivers")->options_free(o);
	ck_assert_ptr_null(options(rules_find("reivers"), "victory: {raider: armstrong}\n", &d));
	buf_release(&why);
	diag_release(&d);
}
END_TEST

static const char *const wm_players[] = { "orcs", "dwarfs" };

START_TEST(warmaster_break_point)
{
	struct diag d;
	diag_init(&d);
	struct buf why = BUF_INIT;
	struct wm_unit u[5];
	struct wm_character ch[1];
	struct wm_state s;
	const char *w;
	void *o = options(rules_find("warmaster"), "victory: break-point\n", &d);
	ck_assert_ptr_nonnull(o);
	memset(&s, 0, sizeof(s));
	memset(u, 0, sizeof(u));
	memset(ch, 0, sizeof(ch));
	s.n_sides = 2;
	s.side[0].player = (char *)"orcs";
	s.side[1].player = (char *)"dwarfs";
	s.units = u;
	s.n_units = 5;
	s.chars = ch;
	s.n_chars = 1;
	for (int i = 0; i < 3; i++)
		u[i].side = 0;     /* orcs: 3 units, break point 2 */
	u[3].side = u[4].side = 1; /* dwarfs: 2 units, break point 1 */
	ch[0] = (struct wm_character){ .side = 1, .role = WM_GENERAL };
	u[0].destroyed = 1; /* orcs lose 1 of 3: unbroken; neither broken: a draw */
	ck_assert_int_eq(judge(rules_find("warmaster"), wm_players, 2, o, &s, &w, &why), 1);
	ck_assert_ptr_null(w);
	u[1].destroyed = 1; /* 2 of 3: broken; dwarfs win */
	ck_assert_int_eq(judge(rules_find("warmaster"), wm_players, 2, o, &s, &w, &why), 1);
	ck_assert_str_eq(w, "dwarfs");
	ck_assert_str_eq(buf_str(&why),
		"orcs broken (2 of 3 units lost, break point 2); dwarfs unbroken (0 of 2 units "
		"lost, break point 1)");
	u[1].destroyed = 0;
	ch[0].slain = 1; /* the dwarf General slain: dwarfs broken, orcs win */
	ck_assert_int_eq(judge(rules_find("warmaster"), wm_players, 2, o, &s, &w, &why), 1);
	ck_assert_str_eq(w, "orcs");
	u[1].destroyed = 1; /* both broken: a draw */
	ck_assert_int_eq(judge(rules_find("warmaster"), wm_players, 2, o, &s, &w, &why), 1);
	ck_assert_ptr_null(w);
	rules_find("warmaster")->options_free(o);
	o = options(rules_find("warmaster"), "victory: none\n", &d);
	ck_assert_int_eq(judge(rules_find("warmaster"), wm_players, 2, o, &s, &w, &why), 0);
	rules_find("warmaster")->options_free(o);
	buf_release(&why);
	diag_release(&d);
}
END_TEST

static Suite *victory_suite(void)
{
	Suite *s = suite_create("victory");
	TCase *tc = tcase_create("victory");
	tcase_add_test(tc, landraid_loot_threshold);
	tcase_add_test(tc, landraid_victory_refused);
	tcase_add_test(tc, nhis_hexes_and_units);
	tcase_add_test(tc, reivers_animals_held);
	tcase_add_test(tc, warmaster_break_point);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(victory_suite)
