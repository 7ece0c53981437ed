/* check_reivers.c — the Border Reivers mechanics against the sheet's numbers with scripted
 * dice on both sides of every threshold: morale by class and each modifier, the movement
 * roll and road die, half speed and obstacles, line of sight and cover on hand-drawn tables,
 * every weapon's ranges and reload, aim, cover, armour ricochet, spooked horses and thrown
 * riders, wounds and stun, melee modifiers and armour, herding, the deck, and the checks of
 * scenario and order files. */
#include <string.h>

#include "testutil.h"
#include "core/buf.h"
#include "core/dice.h"
#include "core/events.h"
#include "core/node.h"
#include "rules/reivers/reivers.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const char *const players[] = { "scott", "kerr", "hume" };
static struct rv_options opts;
static struct rules_campaign camp = { "test", players, 2, &opts };

/* A 48" x 36" table: a wood at x 10"-20", y 10"-20"; a wall along x = 30" from y 0 to 20"
 * (whole cover, hard); a road along y = 30". Groups sa (scott) and kb (kerr); heidmen
 * s-heid (in sa, at [0, 350]) and k-heid (in kb, at [470, 350]) unless figs names others. */
static const char *terrain =
	"terrain: [{id: wood, kind: woods, cover: part, melee-cover: soft, "
	"area: [[100, 100], [200, 100], [200, 200], [100, 200]]}, "
	"{id: wall, kind: wall, cover: whole, melee-cover: hard, line: [[300, 0], [300, 200]]}, "
	"{id: road, kind: road, line: [[0, 300], [480, 300]]}, "
	"{id: fence, kind: fence, cover: part, melee-cover: soft, line: [[400, 0], [400, 100]]}]\n";

static struct rv_state *make_full(const char *figs, const char *extra, struct diag *d)
{
	struct buf b = BUF_INIT;
	buf_printf(&b,
		"table: {width: 480, height: 360}\n%s"
		"groups: [{id: sa, side: scott}, {id: kb, side: kerr}, {id: sx, side: scott}, "
		"{id: kc, side: kerr, hidden: true}]\n"
		"figures: [%s]\n%s",
		terrain, figs, extra ? extra : "");
	struct node *n = NULL;
	void *s = NULL;
	if (node_parse(&n, "game.yaml", b.data, b.len, NULL, d) == 0)
		rv_state_parse(&s, &camp, n, d);
	node_free(n);
	buf_release(&b);
	return s;
}

static struct rv_state *make(const char *figs)
{
	struct diag d;
	diag_init(&d);
	struct rv_state *s = make_full(figs, NULL, &d);
	if (!s) {
		diag_print(&d, stderr);
		ck_abort_msg("fixture state does not parse");
	}
	diag_release(&d);
	return s;
}

#define HEIDMEN \
	"{id: s-heid, group: sa, role: heidman, class: veteran, at: [0, 350]}, " \
	"{id: k-heid, group: kb, role: heidman, class: veteran, at: [470, 350]}, "

/* A table of n one-figure groups of scott's (g1, g2, ...; g2 shaken, without its leader),
 * parsed; its template for scott appended to out. */
static void big_side_template(size_t n, struct buf *out)
{
	struct buf b = BUF_INIT;
	struct node *node = NULL;
	void *st = NULL;
	struct diag d;

	diag_init(&d);
	buf_puts(&b, "table: {width: 2400, height: 2400}\ngroups:\n");
	for (size_t i = 1; i <= n; i++)
		buf_printf(&b, "  - {id: g%zu, side: scott%s}\n", i,
			i == 2 ? ", morale: shaken, leader-killed: true" : "");
	buf_puts(&b, "  - {id: k, side: kerr}\nfigures:\n");
	for (size_t i = 1; i <= n; i++)
		buf_printf(&b, "  - {id: f%zu, group: g%zu, %sat: [%zu, 100]}\n", i, i,
			i == 2 ? "" :
			i == 1 ? "role: heidman, " :
				 "role: leader, ",
			10 * i);
	buf_puts(&b, "  - {id: kf, group: k, role: heidman, at: [100, 2000]}\n");
	ck_assert_int_eq(node_parse(&node, "game.yaml", b.data, b.len, NULL, &d), 0);
	if (rv_state_parse(&st, &camp, node, &d) < 0)
		diag_print(&d, stderr);
	ck_assert_ptr_nonnull(st);
	rv_orders_template(&camp, st, 2, "scott", out);
	rv_state_free(st);
	node_free(node);
	buf_release(&b);
	diag_release(&d);
}

static int fig(const struct rv_state *s, const char *id)
{
	int f = rv_figure_find(s, id);
	ck_assert_msg(f >= 0, "no figure %s", id);
	return f;
}

struct harness {
	struct dice dice;
	struct events ev;
};

static void h_init(struct harness *h, const int *script, size_t n)
{
	dice_init_script(&h->dice, script, n);
	events_init(&h->ev);
}

static void h_release(struct harness *h)
{
	dice_release(&h->dice);
	events_release(&h->ev);
}

static int has(const struct events *ev, const char *text)
{
	for (size_t i = 0; i < ev->n; i++)
		if (strstr(ev->v[i].text, text))
			return 1;
	return 0;
}

static void setup(void)
{
	rv_options_default(&opts);
	camp.n_players = 2;
}

/* ---- morale ------------------------------------------------------------------------------ */

/* Border Reivers §Morale: base morale by class of the group's leader. */
START_TEST(test_morale_base)
{
	static const char *const cls[] = { "poltroon", "regular", "veteran", "fyrebrande" };
	char figs[600];
	snprintf(figs, sizeof(figs),
		HEIDMEN "{id: sx-lead, group: sx, role: leader, class: %s, at: [240, 330]}",
		cls[_i]);
	struct rv_state *s = make(figs);
	ck_assert_int_eq(rv_morale_target(s, rv_group_find(s, -1, "sx")), 7 + _i);
	rv_state_free(s);
}
END_TEST

/* Each modifier alone: -1 per figure lost, -1 leader killed, -2 heidman killed, +1 in cover,
 * +2 heidman rallying within 6" (and not at 6.1"). */
START_TEST(test_morale_modifiers)
{
	struct rv_state *s = make(
		HEIDMEN "{id: sx-lead, group: sx, role: leader, class: regular, at: [240, 330]}, "
			"{id: sx-2, group: sx, class: fyrebrande, at: [250, 330]}");
	int g = rv_group_find(s, -1, "sx"), h = fig(s, "s-heid");
	ck_assert_int_eq(rv_morale_target(s, g), 8);
	s->group[g].lost = 2;
	ck_assert_int_eq(rv_morale_target(s, g), 6);
	s->group[g].lost = 0;
	s->fig[h].dead = 1;
	ck_assert_int_eq(rv_morale_target(s, g), 6);
	s->fig[h].dead = 0;
	s->fig[h].at = (struct table_pt){ 240, 270 }; /* exactly 6" */
	ck_assert_int_eq(rv_morale_target(s, g), 10);
	s->fig[h].at = (struct table_pt){ 240, 269 };
	ck_assert_int_eq(rv_morale_target(s, g), 8);
	s->fig[fig(s, "sx-lead")].at = (struct table_pt){ 150, 150 }; /* in the wood */
	ck_assert_int_eq(rv_morale_target(s, g), 9);
	s->fig[fig(s, "sx-lead")].at = (struct table_pt){ 295, 50 }; /* at the wall */
	ck_assert_int_eq(rv_morale_target(s, g), 9);
	/* leader killed: the best class left (fyrebrande 10) - 1 lost - 1 leader killed */
	s->fig[fig(s, "sx-lead")].at = (struct table_pt){ 240, 330 };
	s->fig[fig(s, "sx-lead")].dead = 1;
	s->group[g].lost = 1;
	s->group[g].leader_killed = 1;
	ck_assert_int_eq(rv_morale_target(s, g), 8);
	rv_state_free(s);
}
END_TEST

/* d10 <= 8 passes; 9 and 10 fail by 1-2 (shaken); 10 against 7 fails by 3 (broken). */
START_TEST(test_morale_results)
{
	static const struct {
		int cls_poltroon, roll, margin;
		enum rv_morale m;
	} v[] = { { 0, 8, 0, RV_STEADY }, { 0, 9, 1, RV_SHAKEN }, { 0, 10, 2, RV_SHAKEN },
		{ 1, 7, 0, RV_STEADY }, { 1, 9, 2, RV_SHAKEN }, { 1, 10, 3, RV_BROKEN } };
	char figs[600];
	snprintf(figs, sizeof(figs),
		HEIDMEN "{id: sx-lead, group: sx, role: leader, class: %s, at: [240, 330]}",
		v[_i].cls_poltroon ? "poltroon" : "regular");
	struct rv_state *s = make(figs);
	struct harness h;
	int g = rv_group_find(s, -1, "sx");
	h_init(&h, &v[_i].roll, 1);
	ck_assert_int_eq(rv_morale_test(s, g, 3, &h.dice, &h.ev, "test"), v[_i].margin);
	ck_assert_int_eq(s->group[g].morale, v[_i].m);
	ck_assert_int_eq(s->group[g].passed_turn, v[_i].margin ? 0 : 3);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* ---- movement ---------------------------------------------------------------------------- */

/* Border Reivers §Movement: foot 2d6, horse 3d6; on the road one more d6, lowest dropped. */
START_TEST(test_move_roll)
{
	struct rv_state *s = make(
		HEIDMEN "{id: foot, group: sx, role: leader, at: [240, 100]}, "
			"{id: horse, group: sx, mounted: true, at: [240, 110]}, "
			"{id: roadfoot, group: sx, at: [240, 305]}, "
			"{id: roadhorse, group: sx, mounted: true, at: [240, 290]}");
	struct harness h;
	const int dice[] = { 3, 4, 3, 4, 5, 1, 5, 6, 2, 1, 6, 6 };
	h_init(&h, dice, N_OF(dice));
	ck_assert_int_eq(rv_move_roll(s, fig(s, "foot"), &h.dice), 70);
	ck_assert_int_eq(rv_move_roll(s, fig(s, "horse"), &h.dice), 120);
	ck_assert_int_eq(rv_move_roll(s, fig(s, "roadfoot"), &h.dice), 110);
	ck_assert_int_eq(rv_move_roll(s, fig(s, "roadhorse"), &h.dice), 140);
	ck_assert_int_eq(dice_count(&h.dice), 12);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* Half speed in the wood, 3" for the wall, a leg over the wall whole or not at all. */
START_TEST(test_move_along)
{
	struct rv_state *s = make(HEIDMEN "");
	struct table_pt end;
	const struct table_pt wood[] = { { 50, 150 }, { 250, 150 } }; /* 10" in the wood */
	ck_assert_int_eq(rv_move_along(s, wood, 2, 300, &end), 1);
	ck_assert_int_eq(rv_move_along(s, wood, 2, 299, &end), 0);
	ck_assert_int_eq(rv_move_along(s, wood, 2, 100, &end), 0);
	ck_assert_int_eq(end.x, 125); /* 5" open, then 2.5" of wood */
	const struct table_pt wall[] = { { 250, 50 }, { 350, 50 } }; /* 10" and the wall */
	ck_assert_int_eq(rv_obstacles_crossed(s, wall[0], wall[1]), 1);
	ck_assert_int_eq(rv_move_along(s, wall, 2, 130, &end), 1);
	ck_assert_int_eq(rv_move_along(s, wall, 2, 129, &end), 0);
	ck_assert_int_eq(end.x, 250);
	ck_assert_int_eq(end.y, 50);
	rv_state_free(s);
}
END_TEST

/* Line of sight through the wood is blocked; from inside it a figure sees out; cover. */
START_TEST(test_los_and_cover)
{
	struct rv_state *s = make(HEIDMEN "");
	struct table_pt a = { 50, 150 }, b = { 250, 150 }, in = { 150, 150 };
	ck_assert_int_eq(rv_los(s, a, b), 0);
	ck_assert_int_eq(rv_los(s, a, (struct table_pt){ 50, 300 }), 1);
	ck_assert_int_eq(rv_los(s, in, b), 1);
	ck_assert_int_eq(rv_fire_cover(s, b, in), RV_PART);
	/* behind the wall (within 1", the wall between): whole; the shooter's side: none */
	ck_assert_int_eq(rv_fire_cover(s, (struct table_pt){ 250, 50 },
				 (struct table_pt){ 305, 50 }),
		RV_WHOLE);
	ck_assert_int_eq(rv_fire_cover(s, (struct table_pt){ 250, 50 },
				 (struct table_pt){ 311, 50 }),
		RV_NO_COVER);
	ck_assert_int_eq(rv_fire_cover(s, (struct table_pt){ 350, 50 },
				 (struct table_pt){ 295, 50 }),
		RV_WHOLE);
	ck_assert_int_eq(rv_fire_cover(s, (struct table_pt){ 250, 50 },
				 (struct table_pt){ 295, 50 }),
		RV_NO_COVER);
	ck_assert_int_eq(rv_melee_cover(s, (struct table_pt){ 295, 50 }), RV_HARD);
	ck_assert_int_eq(rv_melee_cover(s, (struct table_pt){ 405, 50 }), RV_SOFT);
	ck_assert_int_eq(rv_melee_cover(s, in), RV_SOFT);
	ck_assert_int_eq(rv_melee_cover(s, (struct table_pt){ 250, 250 }), RV_NO_MCOVER);
	ck_assert_int_eq(rv_on_road(s, (struct table_pt){ 10, 310 }), 1);
	ck_assert_int_eq(rv_on_road(s, (struct table_pt){ 10, 311 }), 0);
	rv_state_free(s);
}
END_TEST

/* ---- firing ------------------------------------------------------------------------------ */

/* Every weapon of the table at close range (+1), just past it, at long range, and past it (no
 * shot, no die): a scripted 8 hits only at close range. */
START_TEST(test_weapon_ranges)
{
	static const char *const w[] = { "dagg", "hackbutt", "caliver", "latch", "longbow" };
	static const int close[] = { 30, 90, 120, 90, 120 }, range[] = { 60, 180, 240, 180, 240 };
	const int at[] = { close[_i], close[_i] + 1, range[_i], range[_i] + 1 };
	for (size_t k = 0; k < N_OF(at); k++) {
		char figs[600];
		snprintf(figs, sizeof(figs),
			HEIDMEN "{id: shooter, group: sa, weapon: %s, at: [20, 300]}, "
				"{id: target, group: kb, at: [%d, 300]}",
			w[_i], 20 + at[k]);
		struct rv_state *s = make(figs);
		struct harness h;
		const int eight = 8;
		h_init(&h, &eight, 1);
		int hit = rv_fire(s, &opts, fig(s, "shooter"), fig(s, "target"), 2, &h.dice, &h.ev);
		ck_assert_int_eq(hit, k == 0);
		ck_assert_int_eq(dice_count(&h.dice), k == 3 ? 0 : 1);
		if (k < 3)
			ck_assert_int_eq(s->fig[fig(s, "shooter")].reload, _i == 4 ? 0 : 2);
		h_release(&h);
		rv_state_free(s);
	}
}
END_TEST

/* 9 or better hits; aim +1 (last turn's aim only); part cover -1, whole -2; wounded -1. */
START_TEST(test_fire_modifiers)
{
	static const struct {
		const char *target_at;
		int aim_turn, hits, roll, hit;
	} v[] = {
		{ "[250, 300]", 0, 0, 9, 1 }, /* 20": long range, no modifier */
		{ "[250, 300]", 0, 0, 8, 0 },
		{ "[250, 300]", 1, 0, 8, 1 },  /* aimed last turn */
		{ "[250, 300]", 0, 0, 8, 0 },  /* never aimed */
		{ "[190, 190]", 0, 0, 10, 1 }, /* in the wood: part cover */
		{ "[190, 190]", 0, 0, 9, 0 },
		{ "[305, 190]", 0, 0, 10, 0 }, /* behind the wall: whole cover */
		{ "[250, 300]", 0, 1, 9, 0 },  /* a wounded shooter (leader, one hit) */
		{ "[250, 300]", 0, 1, 10, 1 },
	};
	char figs[600];
	snprintf(figs, sizeof(figs),
		HEIDMEN "{id: shooter, group: sx, role: leader, weapon: caliver, hits: %d, "
			"aim-turn: %d, at: [50, 300]}, {id: target, group: kb, at: %s}",
		v[_i].hits, v[_i].aim_turn, v[_i].target_at);
	struct rv_state *s = make(figs);
	if (_i == 3)
		s->fig[fig(s, "shooter")].aim_turn = 0;
	if (_i == 6) /* shoot along the wall's face from the west */
		s->fig[fig(s, "shooter")].at = (struct table_pt){ 100, 250 };
	struct harness h;
	h_init(&h, &v[_i].roll, 1);
	ck_assert_int_eq(rv_fire(s, &opts, fig(s, "shooter"), fig(s, "target"), 2, &h.dice, &h.ev),
		v[_i].hit);
	ck_assert_int_eq(s->fig[fig(s, "target")].dead, v[_i].hit);
	ck_assert_int_eq(s->fig[fig(s, "shooter")].aim_turn, 0);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* Aim taken two turns ago has lapsed; no shot without line of sight (no die); unloaded. */
START_TEST(test_fire_no_shot)
{
	struct rv_state *s = make(
		HEIDMEN "{id: shooter, group: sa, weapon: caliver, aim-turn: 1, "
			"at: [50, 150]}, {id: target, group: kb, at: [250, 150]}");
	struct harness h;
	const int eight = 8;
	h_init(&h, &eight, 1);
	ck_assert_int_eq(rv_fire(s, &opts, fig(s, "shooter"), fig(s, "target"), 3, &h.dice, &h.ev),
		0);
	ck_assert_int_eq(dice_count(&h.dice), 0);
	ck_assert(has(&h.ev, "no line of sight"));
	s->fig[fig(s, "target")].at = (struct table_pt){ 50, 300 };
	ck_assert_int_eq(rv_fire(s, &opts, fig(s, "shooter"), fig(s, "target"), 3, &h.dice, &h.ev),
		0);
	ck_assert_int_eq(dice_count(&h.dice), 1); /* 8, and aim of turn 1 does not count in 3 */
	ck_assert_int_eq(rv_fire(s, &opts, fig(s, "shooter"), fig(s, "target"), 3, &h.dice, &h.ev),
		0);
	ck_assert(has(&h.ev, "no loaded missile weapon"));
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* Armour vs shot: d10 <= 1 per metal item (helmet, back/breast, plates; not jack, shield). */
START_TEST(test_ricochet)
{
	static const struct {
		const char *armour;
		int roll, dice, dead;
	} v[] = {
		{ "[helmet, back-breast, plates, jack, shield]", 3, 2,
			0 }, /* 3 metal: 3 ricochets */
		{ "[helmet, back-breast, plates, jack, shield]", 4, 2, 1 }, { "[helmet]", 1, 2, 0 },
		{ "[helmet]", 2, 2, 1 },
		{ "[jack, shield]", 1, 1, 1 }, /* no metal: no armour die */
	};
	char figs[600];
	snprintf(figs, sizeof(figs),
		HEIDMEN "{id: shooter, group: sa, weapon: caliver, at: [50, 300]}, "
			"{id: target, group: kb, armour: %s, at: [60, 300]}",
		v[_i].armour);
	struct rv_state *s = make(figs);
	int roll[] = { 10, v[_i].roll };
	struct harness h;
	h_init(&h, roll, 2);
	rv_fire(s, &opts, fig(s, "shooter"), fig(s, "target"), 2, &h.dice, &h.ev);
	ck_assert_int_eq((int)dice_count(&h.dice), v[_i].dice);
	ck_assert_int_eq(s->fig[fig(s, "target")].dead, v[_i].dead);
	ck_assert_int_eq(has(&h.ev, "ricochets"), !v[_i].dead);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* ---- horses ------------------------------------------------------------------------------ */

/* Horses within 9": d10 <= 7 the first discharge of the game, <= 4 after; thrown on <= 3. */
START_TEST(test_spook)
{
	struct rv_state *s = make(HEIDMEN "");
	struct table_pt shot = { 240, 270 }; /* the rider 9" away exactly */
	struct harness h;
	rv_state_free(s);
	s = make(HEIDMEN "{id: rider, group: sa, mounted: true, at: [240, 180]}");
	/* first discharge: 7 spooks; gallops 2d6 (3+4) at 3 o'clock; 4 keeps his seat */
	const int d2[] = { 7, 3, 4, 3, 4 };
	h_init(&h, d2, N_OF(d2));
	rv_spook(s, &opts, shot, 2, &h.dice, &h.ev);
	ck_assert_int_eq(s->fig[fig(s, "rider")].at.x, 310);
	ck_assert_int_eq(s->fig[fig(s, "rider")].mounted, 1);
	ck_assert_int_eq(s->discharged, 1);
	h_release(&h);
	/* later discharges: 5 is steady, 4 spooks; 3 throws the rider, stunned next turn */
	s->fig[fig(s, "rider")].at = (struct table_pt){ 240, 180 };
	const int d3[] = { 5, 4, 1, 1, 12, 3 };
	h_init(&h, d3, N_OF(d3));
	rv_spook(s, &opts, shot, 2, &h.dice, &h.ev);
	ck_assert_int_eq(dice_count(&h.dice), 1);
	rv_spook(s, &opts, shot, 2, &h.dice, &h.ev);
	ck_assert_int_eq(s->fig[fig(s, "rider")].at.y, 200);
	ck_assert_int_eq(s->fig[fig(s, "rider")].mounted, 0);
	ck_assert_int_eq(s->fig[fig(s, "rider")].stunned_until, 3);
	ck_assert_int_eq(rv_animal_find(s, "rider-horse") >= 0, 1);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* 9" is within, 9.1" is not; option spook-first: horse counts each horse's first time. */
START_TEST(test_spook_range_and_option)
{
	struct rv_state *s = make(HEIDMEN "{id: near, group: sa, mounted: true, at: [240, 180]}, "
					  "{id: far, group: sa, mounted: true, at: [240, 179]}");
	struct harness h;
	const int d[] = { 8, 7, 8 };
	h_init(&h, d, N_OF(d));
	rv_spook(s, &opts, (struct table_pt){ 240, 270 }, 2, &h.dice, &h.ev);
	ck_assert_int_eq(dice_count(&h.dice), 1); /* only near rolls: 8, steady */
	opts.spook_first = RV_FIRST_HORSE;
	s->fig[fig(s, "far")].at = (struct table_pt){ 240, 190 };
	/* near has been tested (needs 4): 7 steady... far's first time (needs 7): 8 steady */
	rv_spook(s, &opts, (struct table_pt){ 240, 270 }, 2, &h.dice, &h.ev);
	ck_assert(has(&h.ev, "near's horse: rolls 7 against 4: steady"));
	ck_assert(has(&h.ev, "far's horse: rolls 8 against 7: steady"));
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* ---- wounds ------------------------------------------------------------------------------ */

/* §Wounds: heidman flesh wound, wound, dead; leader wound, dead; figure dead; or stunned. */
START_TEST(test_wounds)
{
	struct rv_state *s = make(HEIDMEN "{id: lead, group: sx, role: leader, at: [240, 100]}, "
					  "{id: man, group: sx, at: [240, 110]}, "
					  "{id: man2, group: sx, at: [240, 120]}");
	struct events ev;
	events_init(&ev);
	int h = fig(s, "s-heid"), l = fig(s, "lead"), g = rv_group_find(s, -1, "sx");
	rv_hit(s, h, 0, 1, &ev);
	ck_assert(has(&ev, "flesh wound"));
	rv_hit(s, h, 0, 1, &ev);
	ck_assert(has(&ev, "s-heid takes a wound"));
	ck_assert_int_eq(s->fig[h].dead, 0);
	rv_hit(s, h, 0, 1, &ev);
	ck_assert_int_eq(s->fig[h].dead, 1);
	rv_hit(s, l, 0, 1, &ev);
	ck_assert_int_eq(s->fig[l].dead, 0);
	ck_assert(has(&ev, "lead takes a wound"));
	rv_hit(s, fig(s, "man2"), 1, 4, &ev);
	ck_assert_int_eq(s->fig[fig(s, "man2")].stunned_until, 5);
	ck_assert_int_eq(s->fig[fig(s, "man2")].dead, 0);
	rv_hit(s, fig(s, "man"), 0, 1, &ev);
	ck_assert_int_eq(s->fig[fig(s, "man")].dead, 1);
	ck_assert_int_eq(s->group[g].lost, 1);
	ck_assert_int_eq(s->group[g].leader_killed, 0);
	rv_hit(s, l, 0, 1, &ev);
	ck_assert_int_eq(s->fig[l].dead, 1);
	ck_assert_int_eq(s->group[g].leader_killed, 1);
	ck_assert_int_eq(s->group[g].lost, 2);
	events_release(&ev);
	rv_state_free(s);
}
END_TEST

/* ---- melee ------------------------------------------------------------------------------- */

static struct rv_melee melee_of(const struct rv_state *s, const char *a1, const char *a2,
	const char *a3, const char *def, int started)
{
	struct rv_melee m = { { fig(s, a1), a2 ? fig(s, a2) : -1, a3 ? fig(s, a3) : -1 },
		fig(s, def), started };
	return m;
}

/* Attacker +1 charging (the turn it started), +1 cavalry, +1 leader, -1 per extra attacker;
 * defender +1 soft, +2 hard cover. Higher wins, a tie fights on, the defender cannot wound. */
START_TEST(test_melee)
{
	static const struct {
		const char *def_at;
		int started, n_att, ra, rd, result;
	} v[] = {
		{ "[240, 250]", 2, 1, 5, 8, 0 },  /* 5 +1 charging +1 cavalry +1 leader = 8 vs 8 */
		{ "[240, 250]", 2, 1, 5, 9, -1 }, /* 8 against 9: the attacker is unharmed */
		{ "[240, 250]", 2, 1, 5, 7, 1 },  /* 8 against 7 */
		{ "[240, 250]", 1, 1, 5, 7, 0 },  /* not the charge turn: 7 against 7 */
		{ "[240, 250]", 1, 1, 5, 6, 1 },
		{ "[240, 250]", 1, 3, 7, 7, 0 }, /* 3 attackers: -2, so 7 against 7 */
		{ "[240, 250]", 1, 3, 7, 6, 1 },
		{ "[150, 150]", 1, 1, 6, 7, 0 }, /* soft cover: 8 against 7 + 1 */
		{ "[150, 150]", 1, 1, 6, 6, 1 },
		{ "[295, 50]", 1, 1, 7, 7, 0 }, /* hard cover: 9 against 7 + 2 */
		{ "[295, 50]", 1, 1, 7, 6, 1 },
	};
	struct rv_state *s = make(
		HEIDMEN "{id: lead, group: sa, role: leader, mounted: true, at: [240, 240]}, "
			"{id: a2, group: sa, at: [240, 240]}, {id: a3, group: sa, at: [240, 240]}, "
			"{id: def, group: kb, at: [240, 250]}");
	int d = fig(s, "def");
	sscanf(v[_i].def_at, "[%d, %d]", &s->fig[d].at.x, &s->fig[d].at.y);
	struct rv_melee m = melee_of(s, "lead", v[_i].n_att > 1 ? "a2" : NULL,
		v[_i].n_att > 2 ? "a3" : NULL, "def", v[_i].started);
	int script[] = { v[_i].ra, v[_i].rd };
	struct harness h;
	h_init(&h, script, 2);
	ck_assert_int_eq(rv_melee_round(s, &m, 2, 0, &h.dice, &h.ev), v[_i].result);
	ck_assert_int_eq(s->fig[d].dead, v[_i].result == 1);
	ck_assert_int_eq(s->fig[fig(s, "lead")].dead, 0);
	ck_assert_int_eq(s->fig[fig(s, "lead")].hits, 0);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* Melee armour: d10 <= 2 per item (here 3 items: 6) is no effect, 7 is a hit; stun chosen. */
START_TEST(test_melee_armour_and_stun)
{
	struct rv_state *s = make(HEIDMEN "{id: a, group: sa, at: [240, 240]}, "
					  "{id: def, group: kb, armour: [helmet, jack, shield], "
					  "at: [240, 250]}");
	struct rv_melee m = melee_of(s, "a", NULL, NULL, "def", 2);
	const int d1[] = { 9, 1, 6, 9, 1, 7, 9, 7 };
	struct harness h;
	h_init(&h, d1, N_OF(d1));
	ck_assert_int_eq(rv_melee_round(s, &m, 2, 0, &h.dice, &h.ev), 1);
	ck_assert_int_eq(s->fig[fig(s, "def")].dead, 0);
	ck_assert_int_eq(rv_melee_round(s, &m, 2, 1, &h.dice, &h.ev), 1);
	ck_assert_int_eq(s->fig[fig(s, "def")].dead, 0);
	ck_assert_int_eq(s->fig[fig(s, "def")].stunned_until, 3);
	/* a stunned defender does not roll; the next unsaved hit kills */
	ck_assert_int_eq(rv_melee_round(s, &m, 3, 0, &h.dice, &h.ev), 1);
	ck_assert_int_eq(dice_count(&h.dice), 8);
	ck_assert_int_eq(s->fig[fig(s, "def")].dead, 1);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* ---- herding ----------------------------------------------------------------------------- */

/* 5 or better on d10 (or d6), -1 per extra animal, -2 melee within 6", -4 firing within 12". */
START_TEST(test_herd)
{
	static const struct {
		int die, n, melee, fire, roll, ok;
	} v[] = { { 10, 1, 0, 0, 5, 1 }, { 10, 1, 0, 0, 4, 0 }, { 10, 3, 0, 0, 7, 1 },
		{ 10, 3, 0, 0, 6, 0 }, { 10, 1, 1, 0, 7, 1 }, { 10, 1, 1, 0, 6, 0 },
		{ 10, 1, 0, 1, 9, 1 }, { 10, 1, 0, 1, 8, 0 }, { 6, 1, 0, 0, 5, 1 },
		{ 6, 2, 0, 0, 5, 0 } };
	struct harness h;
	opts.herd_die = v[_i].die;
	h_init(&h, &v[_i].roll, 1);
	ck_assert_int_eq(rv_herd_test(&opts, v[_i].n, v[_i].melee, v[_i].fire, 0, &h.dice, &h.ev),
		v[_i].ok);
	ck_assert_int_eq((int)h.dice.v[0].sides, v[_i].die);
	h_release(&h);
}
END_TEST

/* A failed herd scatters each animal d6" (2d6" spooked) towards a d12 clock hour. */
START_TEST(test_scatter)
{
	struct rv_state *s = make(HEIDMEN "");
	s->animal[0] = (struct rv_animal_def){ "cow", RV_CATTLE, 0, -1, { 240, 180 }, 0 };
	s->animal[1] = (struct rv_animal_def){ "bull", RV_CATTLE, 1, -1, { 240, 180 }, 0 };
	s->n_animal = 2;
	const int d[] = { 4, 6, 3, 3, 9 };
	struct harness h;
	h_init(&h, d, N_OF(d));
	rv_animal_scatter(s, 0, 0, &h.dice, &h.ev);
	ck_assert_int_eq(s->animal[0].at.x, 240);
	ck_assert_int_eq(s->animal[0].at.y, 140); /* 4" to 6 o'clock */
	rv_animal_scatter(s, 1, 0, &h.dice, &h.ev);
	ck_assert_int_eq(s->animal[1].at.x, 180); /* 6" to 9 o'clock */
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* ---- the deck and a whole turn ------------------------------------------------------------- */

/* The deck of 3 sides and the animal card is shuffled die by die (3 dice: d4, d3, d2). */
START_TEST(test_deck)
{
	camp.n_players = 3;
	struct diag dg;
	diag_init(&dg);
	const char *figs = HEIDMEN "{id: h-heid, group: hx, role: heidman, at: [240, 180]}";
	struct buf b = BUF_INIT;
	buf_printf(&b,
		"table: {width: 480, height: 360}\n"
		"groups: [{id: sa, side: scott}, {id: kb, side: kerr}, {id: hx, side: hume}]\n"
		"figures: [%s]\n",
		figs);
	struct node *n = NULL;
	void *s = NULL;
	ck_assert_int_eq(node_parse(&n, "g.yaml", b.data, b.len, NULL, &dg), 0);
	ck_assert_int_eq(rv_state_parse(&s, &camp, n, &dg), 0);
	const int d[] = { 1, 3, 2 };
	struct harness h;
	h_init(&h, d, N_OF(d));
	struct rules_orders none[3] = { { "hume", NULL }, { "kerr", NULL }, { "scott", NULL } };
	struct rules_turn t = { 1, none, 3, &h.dice, &h.ev, BUF_INIT, BUF_INIT };
	ck_assert_int_eq(rv_resolve(&camp, s, &t), 0);
	ck_assert_int_eq(dice_count(&h.dice), 3);
	ck_assert_int_eq((int)h.dice.v[0].sides, 4);
	ck_assert(strstr(h.dice.v[0].purpose, "§Sequence of Play") != NULL);
	/* [0 1 2 3]: swap 3<->0 → [3 1 2 0]; swap 2<->2; swap 1<->1: animals, kerr, hume, scott */
	ck_assert_str_eq(buf_str(&t.summary), "cards animals kerr hume scott");
	buf_release(&t.summary);
	buf_release(&t.why);
	h_release(&h);
	rv_state_free(s);
	node_free(n);
	buf_release(&b);
	diag_release(&dg);
}
END_TEST

/* ---- files: scenario and orders ----------------------------------------------------------- */

static const char *state_error(const char *figs, const char *extra)
{
	static char msg[400];
	struct diag d;
	diag_init(&d);
	struct rv_state *s = make_full(figs, extra, &d);
	ck_assert_ptr_null(s);
	struct buf b = BUF_INIT;
	diag_format(&d, &b, DIAG_BRIEF);
	snprintf(msg, sizeof(msg), "%s", buf_str(&b));
	buf_release(&b);
	diag_release(&d);
	return msg;
}

START_TEST(test_state_errors)
{
	ck_assert(strstr(state_error(HEIDMEN "{id: x, group: nope, at: [1, 1]}", NULL),
		"error: no group 'nope' (a group of 'groups')"));
	ck_assert(strstr(state_error(HEIDMEN "{id: x, group: sa, at: [481, 1]}", NULL),
		"an integer from 0 to 480"));
	ck_assert(strstr(state_error("{id: s-heid, group: sa, role: heidman, at: [0, 0]}", NULL),
		"side 'kerr' has no heidman"));
	ck_assert(strstr(state_error(HEIDMEN "{id: sx-1, group: sx, at: [1, 1]}", NULL),
		"group 'sx' has no leader (a figure with role leader or heidman, or leader-killed: "
		"true)"));
	ck_assert(strstr(state_error(HEIDMEN "", "animals: [{id: c, kind: goat, at: [1, 1]}]\n"),
		"goat"));
}
END_TEST

static const char *orders_error(const char *yaml)
{
	static char msg[600];
	struct rv_state *s = make(
		HEIDMEN "{id: rider, group: sx, role: leader, mounted: true, at: [250, 50]}, "
			"{id: foot, group: kb, at: [350, 50]}");
	struct diag d;
	diag_init(&d);
	struct node *n = NULL;
	void *o = NULL;
	ck_assert_int_eq(node_parse(&n, "o.yaml", yaml, strlen(yaml), NULL, &d), 0);
	int rc = rv_orders_parse(&o, &camp, s, 1, "scott", n, NULL, &d);
	struct buf b = BUF_INIT;
	diag_format(&d, &b, DIAG_BRIEF);
	snprintf(msg, sizeof(msg), "%s", rc == 0 ? "ok\n" : buf_str(&b));
	buf_release(&b);
	rv_orders_free(o);
	node_free(n);
	diag_release(&d);
	rv_state_free(s);
	return msg;
}

START_TEST(test_orders)
{
	ck_assert_str_eq(orders_error("- {group: sx, move: [[260, 50], [290, 150]]}\n"), "ok\n");
	ck_assert_str_eq(orders_error("- {group: sx, move: [[260, 50], [350, 60]]}\n"),
		"o.yaml:1:33: error: the path to this point crosses a fence or wall on horseback "
		"(horses cannot jump: go round, or dismount first)\n");
	ck_assert_str_eq(orders_error("- {group: sx, fire: ghost}\n"),
		"o.yaml:1:21: error: no figure 'ghost' (a figure of the scenario)\n");
	ck_assert_str_eq(orders_error("- {group: sx, fire: s-heid}\n"),
		"o.yaml:1:21: error: figure 's-heid' is on your own side (an enemy figure)\n");
	ck_assert_str_eq(orders_error("- {group: kb, load: true}\n"),
		"o.yaml:1:11: error: no group 'kb' of your side (one of your groups); one of: sa, sx\n");
	/* A slip of the keyboard: the nearest of his groups. */
	ck_assert_str_eq(orders_error("- {group: xs, load: true}\n"),
		"o.yaml:1:11: error: no group 'xs' of your side (one of your groups); did you mean 'sx'?\n");
	ck_assert(strstr(orders_error("- {group: sx, load: true, fire: foot}\n"),
		"a second action 'fire'"));
	ck_assert(strstr(orders_error("- {group: sx, load: true, hold: true}\n"),
		"group 'sx' is not hidden"));
	ck_assert(strstr(orders_error("- {group: sx, load: true}\n- {group: sx, aim: foot}\n"),
		"a second order"));
	ck_assert(strstr(orders_error("- {group: sx, move: [[260, 50]], place: {rider: [0, 0]}}\n"),
		"more than 6\" from the leader's end point"));
	/* a target out of range at checking time is accepted: things move */
	ck_assert_str_eq(orders_error("- {group: sx, charge: k-heid}\n"), "ok\n");
}
END_TEST

/* Every diagnostic, warnings too, of scott's orders (YAML) against a state of figs and extra. */
static const char *orders_diags(const char *figs, const char *extra, const char *yaml)
{
	static char msg[1200];
	struct diag d;
	diag_init(&d);
	struct rv_state *s = make_full(figs, extra, &d);
	ck_assert_ptr_nonnull(s);
	struct node *n = NULL;
	void *o = NULL;
	ck_assert_int_eq(node_parse(&n, "o.yaml", yaml, strlen(yaml), NULL, &d), 0);
	int rc = rv_orders_parse(&o, &camp, s, 1, "scott", n, NULL, &d);
	struct buf b = BUF_INIT;
	diag_format(&d, &b, DIAG_BRIEF);
	snprintf(msg, sizeof(msg), "%s%s", rc == 0 ? "ok\n" : "refused\n", buf_str(&b));
	buf_release(&b);
	rv_orders_free(o);
	node_free(n);
	diag_release(&d);
	rv_state_free(s);
	return msg;
}

/* `umpire check` warns, never refuses, about what the table as it stands would spoil: a
 * target out of range (24" caliver: 24.0" clear, 24.1" warned) or out of sight, no loaded or
 * no missile weapon, a charge beyond the best roll (12" on foot: contact from 13.0", not from
 * 13.1"), a wall across a mounted charge, a beast not in base contact (1.0" / 1.1"). */
START_TEST(test_check_warnings)
{
#define SHOOTER(w, r, x, y) \
	"{id: s-heid, group: sa, role: heidman, weapon: " w ", reload: " r ", at: [" x ", " y \
	"]}, " \
	"{id: k-heid, group: kb, role: heidman, at: [470, 350]}, "
	const char *fig_at = "{id: t, group: kb, at: [%d, %d]}";
	char figs[400];
	snprintf(figs, sizeof(figs), SHOOTER("caliver", "0", "0", "350") "%s", "");
	struct {
		int x, y;
		const char *order, *want;
	} cases[] = {
		{ 240, 350, "fire", "ok\n" },
		{ 241, 350, "fire",
			"ok\no.yaml:1:21: warning: 't' is out of range now: 24.1\" from the nearest "
			"loaded shooter of group 'sa', whose long range is at most 24.0\" (things may "
			"move before its card)\n" },
		{ 241, 350, "aim", "out of range now: 24.1\"" },
		{ 130, 350, "charge", "ok\n" },
		{ 131, 350, "charge",
			"ok\no.yaml:1:23: warning: the charge cannot reach 't' now: 13.1\" away, and "
			"s-heid is at most 12.0\" on foot (things may move before its card)\n" },
	};
	for (size_t i = 0; i < N_OF(cases); i++) {
		char all[600], yaml[100];
		snprintf(all, sizeof(all), "%s", figs);
		snprintf(all + strlen(all), sizeof(all) - strlen(all), fig_at, cases[i].x,
			cases[i].y);
		snprintf(yaml, sizeof(yaml), "- {group: sa, %s: t}\n", cases[i].order);
		const char *got = orders_diags(all, NULL, yaml);
		ck_assert_msg(strstr(got, cases[i].want), "case %zu: %s", i, got);
	}
	/* Behind the wood; not loaded; no missile weapon. */
	ck_assert(strstr(orders_diags(SHOOTER("caliver", "0", "150",
					      "50") "{id: t, group: kb, at: [150, 250]}",
				 NULL, "- {group: sa, fire: t}\n"),
		"ok\no.yaml:1:21: warning: no loaded shooter of group 'sa' has a line of sight to 't' "
		"now"));
	ck_assert(strstr(orders_diags(SHOOTER("caliver", "1", "0",
					      "350") "{id: t, group: kb, at: [10, 350]}",
				 NULL, "- {group: sa, fire: t}\n"),
		"warning: no missile weapon of group 'sa' is loaded (load first)"));
	ck_assert(strstr(orders_diags(SHOOTER("hand", "0", "0",
					      "350") "{id: t, group: kb, at: [10, 350]}",
				 NULL, "- {group: sa, aim: t}\n"),
		"warning: group 'sa' has no missile weapon: the order will be void"));
	/* A mounted charge over the wall. */
	ck_assert(strstr(orders_diags(HEIDMEN "{id: r, group: sx, role: leader, mounted: true, "
					      "at: [250, 50]}, {id: t, group: kb, at: [350, 50]}",
				 NULL, "- {group: sx, charge: t}\n"),
		"ok\no.yaml:1:23: warning: a fence or wall lies between 'r' and 't' and horses "
		"cannot jump"));
	/* Base contact for herding. */
	const char *beasts = "animals: [{id: c1, kind: cattle, at: [10, 350]}, "
			     "{id: c2, kind: cattle, at: [11, 350]}]\n";
	ck_assert_str_eq(orders_diags(HEIDMEN "", beasts,
				 "- {group: sa, herd: [c1], path: [[0, 300]]}\n"),
		"ok\n");
	ck_assert_str_eq(orders_diags(HEIDMEN "", beasts,
				 "- {group: sa, herd: [c1, c2], path: [[0, 300]]}\n"),
		"ok\no.yaml:1:26: warning: no figure of group 'sa' is in base contact with 'c2' now "
		"(within 1\"): the herd order will be void unless the beast comes to them\n");
#undef SHOOTER
}
END_TEST

/* ---- whole turns: appointment, morale results, hold, charge ----------------------------- */

/* Resolves one turn of s with scott's orders (YAML) and scripted dice; kerr sends none. */
static void play_turn(struct rv_state *s, int turn, const char *yaml, const int *dice, size_t n,
	struct harness *h, struct buf *summary)
{
	struct diag d;
	diag_init(&d);
	struct node *root = NULL;
	void *o = NULL;
	ck_assert_int_eq(node_parse(&root, "o.yaml", yaml, strlen(yaml), NULL, &d), 0);
	if (rv_orders_parse(&o, &camp, s, turn, "scott", root, NULL, &d) < 0) {
		diag_print(&d, stderr);
		ck_abort_msg("orders do not parse");
	}
	h_init(h, dice, n);
	struct rules_orders ro[2] = { { "kerr", NULL }, { "scott", o } };
	struct rules_turn t = { turn, ro, 2, &h->dice, &h->ev, BUF_INIT, BUF_INIT };
	ck_assert_int_eq(rv_resolve(&camp, s, &t), 0);
	ck_assert_int_eq(dice_count(&h->dice), n);
	if (summary)
		buf_puts(summary, buf_str(&t.summary));
	buf_release(&t.summary);
	buf_release(&t.why);
	rv_orders_free(o);
	node_free(root);
	diag_release(&d);
}

static int void_has(const struct events *ev, const char *text)
{
	for (size_t i = 0; i < ev->n; i++)
		if (ev->v[i].kind == EVENT_VOID && strstr(ev->v[i].text, text))
			return 1;
	return 0;
}

/* §New Leader: the heidman within 6" names a new leader before the group acts; from 6.1" the
 * appointment is void and the leaderless group may not move into the open. */
START_TEST(test_new_leader)
{
	struct rv_state *s = make(HEIDMEN "{id: old, group: sx, role: leader, at: [240, 100]}, "
					  "{id: sx-2, group: sx, at: [240, 160]}");
	s->fig[fig(s, "old")].dead = 1;
	s->group[rv_group_find(s, -1, "sx")].leader_killed = 1;
	s->fig[fig(s, "s-heid")].at = (struct table_pt){ 240, 100 - _i }; /* 6" or 6.1" */
	const char *orders = "- {group: sa, load: true, appoint: {group: sx, leader: sx-2}}\n"
			     "- {group: sx, move: [[240, 240]]}\n";
	const int dice[] = { 3, 2, 3, 3 };
	struct harness h;
	play_turn(s, 1, orders, dice, _i ? 2 : 4, &h, NULL);
	ck_assert_int_eq(s->fig[fig(s, "sx-2")].role, _i ? RV_FIGURE : RV_LEADER);
	ck_assert_int_eq(s->group[rv_group_find(s, -1, "sx")].leader_killed, _i);
	ck_assert_int_eq(s->fig[fig(s, "sx-2")].at.y, _i ? 160 : 220);
	ck_assert_int_eq(void_has(&h.ev, "the heidman is not within 6\""), _i);
	ck_assert_int_eq(void_has(&h.ev, "leaderless: load, fire or retreat to cover only"), _i);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* §Morale results: fail by 2, shaken: a move into the open is void, a move into cover is not;
 * fail by 3, broken: the order is void and the group retreats a full move from the enemy. */
START_TEST(test_morale_effects)
{
	struct rv_state *s = make(
		HEIDMEN "{id: lead, group: sx, role: leader, class: regular, at: [240, 100]}, "
			"{id: enemy, group: kb, at: [240, 60]}");
	int g = rv_group_find(s, -1, "sx");
	s->group[g].unchecked = 1;
	s->group[g].lost = 1; /* morale 7 */
	static const char *const orders[] = { "- {group: sx, move: [[240, 240]]}\n",
		"- {group: sx, move: [[190, 150]]}\n", "- {group: sx, move: [[240, 240]]}\n" };
	const int rolls[][5] = { { 3, 2, 9 }, { 3, 2, 9, 6, 6 }, { 3, 2, 10, 2, 2 } };
	const size_t n[] = { 3, 5, 5 };
	struct harness h;
	play_turn(s, 1, orders[_i], rolls[_i], n[_i], &h, NULL);
	if (_i == 0) {
		ck_assert_int_eq(s->group[g].morale, RV_SHAKEN);
		ck_assert(void_has(&h.ev, "shaken: load, fire or retreat to cover only"));
		ck_assert_int_eq(s->fig[fig(s, "lead")].at.y, 100);
	} else if (_i == 1) { /* into the wood: allowed */
		ck_assert_int_eq(s->group[g].morale, RV_SHAKEN);
		ck_assert_int_eq(h.ev.n > 0 && !void_has(&h.ev, "shaken"), 1);
		ck_assert_int_eq(s->fig[fig(s, "lead")].at.x, 190);
	} else {
		ck_assert_int_eq(s->group[g].morale, RV_BROKEN);
		ck_assert(void_has(&h.ev, "broken: it retreats a full move instead"));
		ck_assert_int_eq(s->fig[fig(s, "lead")].at.x, 240);
		ck_assert_int_eq(s->fig[fig(s, "lead")].at.y, 140); /* 4" straight away */
	}
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* §Sequence of Play: a hidden group holding acts after the whole deck, then is not hidden;
 * a group that is not hidden may not hold. */
START_TEST(test_hold)
{
	struct rv_state *s = make(
		HEIDMEN "{id: lurker, group: sx, role: leader, weapon: longbow, "
			"at: [240, 100]}, {id: enemy, group: kb, at: [240, 170]}");
	int g = rv_group_find(s, -1, "sx");
	s->group[g].hidden = 1;
	const int dice[] = { 3, 2, 9 };
	struct harness h;
	play_turn(s, 1, "- {group: sx, hold: true, fire: enemy}\n", dice, 3, &h, NULL);
	size_t animal = 0, hold = 0;
	for (size_t i = 0; i < h.ev.n; i++) {
		if (strstr(h.ev.v[i].text, "the animal card"))
			animal = i;
		if (strstr(h.ev.v[i].text, "sx acts from hiding"))
			hold = i;
	}
	ck_assert_int_gt(hold, animal);
	ck_assert(has(&h.ev, "lurker fires longbow at enemy: rolls 9 +1 close = 10: hit"));
	ck_assert_int_eq(s->group[g].hidden, 0);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* An umpire's adjustment of kind k between figures from and to (grade for cover, value for
 * sight), checked and applied to s; what it did goes to what. */
static void rule(struct rv_state *s, enum adjust_kind k, const char *from, const char *to,
	const char *grade, int value, struct buf *what)
{
	struct adjustment a = { .kind = k,
		.index = 1,
		.from = (char *)from,
		.to = (char *)to,
		.grade = k == ADJUST_COVER ? (char *)grade : NULL,
		.band = k == ADJUST_RANGE ? (char *)grade : NULL,
		.value = value,
		.reason = (char *)"the table disagrees" };
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(rv_adjust_check(&camp, s, &a, 1, &d), 0);
	ck_assert_int_eq(rv_adjust_apply(&camp, s, &a, what), 0);
	diag_release(&d);
}

/* An umpire's ruling overrides the map for one turn (docs/rules/reivers.md): the wood between
 * archer and k-heid blocks sight (0) until the ruling clears it (1: 9 hits); a part cover ruled
 * on top takes 1 (2: 9 misses, 3: 10 hits); in the open a ruling blocks sight (4). The line of
 * sight holds either way, the cover only against its shooter; the next turn the map decides. */
START_TEST(test_umpire_rulings)
{
	struct rv_state *s = make(HEIDMEN "{id: archer, group: sx, role: leader, weapon: longbow, "
					  "at: [150, 50]}");
	int a = fig(s, "archer"), k = fig(s, "k-heid");
	s->fig[k].at = (struct table_pt){ _i == 4 ? 250 : 150, _i == 4 ? 50 : 250 };
	struct buf what = BUF_INIT;
	if (_i >= 1 && _i <= 3)
		rule(s, ADJUST_LOS, "archer", "k-heid", NULL, 1, &what);
	if (_i == 2 || _i == 3)
		rule(s, ADJUST_COVER, "archer", "k-heid", "part", 0, &what);
	if (_i == 4)
		rule(s, ADJUST_LOS, "k-heid", "archer", NULL, 0, &what);
	static const char *const said[] = { "",
		"the line of sight between archer and k-heid is clear this turn",
		"the line of sight between archer and k-heid is clear this turn"
		"the cover of k-heid against shots from archer is part this turn",
		NULL, "the line of sight between k-heid and archer is blocked this turn" };
	if (said[_i])
		ck_assert_str_eq(buf_str(&what), said[_i]);
	ck_assert_int_eq(rv_fig_los(s, k, a, NULL), _i >= 1 && _i <= 3);
	ck_assert_int_eq(rv_fig_cover(s, k, a, NULL), RV_NO_COVER);
	const int dice[] = { 3, 2, _i == 3 ? 10 : 9 };
	static const char *const shows[] = {
		"archer has no shot at k-heid (no line of sight)",
		"archer fires longbow at k-heid (sight by the umpire's ruling): rolls 9 = 9: hit",
		"archer fires longbow at k-heid (sight by the umpire's ruling): rolls 9 -1 part cover "
		"(the umpire's ruling) = 8: miss",
		"rolls 10 -1 part cover (the umpire's ruling) = 9: hit",
		"archer has no shot at k-heid (no line of sight, by the umpire's ruling)",
	};
	struct harness h;
	int shot = _i >= 1 && _i <= 3;
	play_turn(s, 1, "- {group: sx, fire: k-heid}\n", dice, shot ? 3 : 2, &h, NULL);
	ck_assert_msg(has(&h.ev, shows[_i]), "case %d", _i);
	ck_assert_int_eq(s->fig[k].hits, _i == 1 || _i == 3);
	ck_assert_int_eq((int)s->n_ruled, 0);
	h_release(&h);
	/* Turn 2: the ruling has lapsed. */
	play_turn(s, 2, "- {group: sx, fire: k-heid}\n", dice, _i == 4 ? 3 : 2, &h, NULL);
	ck_assert(
		has(&h.ev, _i == 4 ? "archer fires longbow at k-heid: rolls 9 +1 close = 10: hit" :
				     "archer has no shot at k-heid (no line of sight)"));
	h_release(&h);
	buf_release(&what);
	rv_state_free(s);
}
END_TEST

/* An umpire's ruling on range (docs/rules/reivers.md), at the edges of the longbow's bands
 * (close 12", long 24"): measured, 12.0" is close (+1: 8 hits) and 12.1" long (8 misses), 24.0"
 * a shot and 24.1" none; ruled, 24.1" is long (a shot), 12.1" close (+1), 12.0" beyond (no
 * shot); a ruling from the target to the shooter leaves the shooter's range measured. The
 * ruling lapses at the end of the turn. */
START_TEST(test_range_ruling)
{
	static const int dist[] = { 120, 121, 240, 241, 241, 121, 120, 241 };
	static const char *const band[] = { NULL, NULL, NULL, NULL, "long", "close", "beyond",
		"long" };
	static const char *const shows[] = {
		"archer fires longbow at k-heid: rolls 8 +1 close = 9: hit",
		"archer fires longbow at k-heid: rolls 8 = 8: miss",
		"archer fires longbow at k-heid: rolls 8 = 8: miss",
		"archer has no shot at k-heid (beyond long range)",
		"archer fires longbow at k-heid (long range by the umpire's ruling): rolls 8 = 8: miss",
		"archer fires longbow at k-heid (close range by the umpire's ruling): rolls 8 +1 close "
		"= 9: hit",
		"archer has no shot at k-heid (beyond long range, by the umpire's ruling)",
		"archer has no shot at k-heid (beyond long range)",
	};
	struct rv_state *s = make(HEIDMEN "{id: archer, group: sx, role: leader, weapon: longbow, "
					  "at: [20, 250]}");
	int k = fig(s, "k-heid"), a = fig(s, "archer");
	s->fig[k].at = (struct table_pt){ 20 + dist[_i], 250 };
	struct buf what = BUF_INIT;
	if (band[_i] && _i < 7)
		rule(s, ADJUST_RANGE, "archer", "k-heid", band[_i], 0, &what);
	if (_i == 7)
		rule(s, ADJUST_RANGE, "k-heid", "archer", band[_i], 0, &what);
	if (_i == 4)
		ck_assert_str_eq(buf_str(&what),
			"the range of k-heid from archer is long this turn");
	if (_i == 6)
		ck_assert_str_eq(buf_str(&what),
			"the range of k-heid from archer is beyond long range this turn");
	ck_assert_int_eq(rv_fig_range(s, a, k, NULL), band[_i] && _i < 7 ?
							      (_i == 4        ? RV_LONG :
								      _i == 5 ? RV_CLOSE :
										RV_BEYOND) :
						      dist[_i] <= 120 ? RV_CLOSE :
						      dist[_i] <= 240 ? RV_LONG :
									RV_BEYOND);
	int shot = _i != 3 && _i != 6 && _i != 7;
	const int dice[] = { 3, 2, 8 };
	struct harness h;
	play_turn(s, 1, "- {group: sx, fire: k-heid}\n", dice, shot ? 3 : 2, &h, NULL);
	ck_assert_msg(has(&h.ev, shows[_i]), "case %d", _i);
	ck_assert_int_eq((int)s->n_ruled, 0);
	ck_assert_int_eq(rv_fig_range(s, a, k, NULL), dist[_i] <= 120 ? RV_CLOSE :
						      dist[_i] <= 240 ? RV_LONG :
									RV_BEYOND);
	h_release(&h);
	buf_release(&what);
	rv_state_free(s);
}
END_TEST

/* Hidden groups (docs/rules/reivers.md, §Sequence of Play): the public view and another side's
 * leave out the hidden group and its figures (and still parse); its own side's holds them. */
START_TEST(test_hidden_views)
{
	struct rv_state *s = make(HEIDMEN "{id: lurker, group: kc, role: leader, at: [150, 150]}");
	static const char *const who[] = { NULL, "scott", "kerr" };
	for (int i = 0; i < 3; i++) {
		struct node *v = rv_state_view(&camp, s, who[i]);
		struct buf b = BUF_INIT, r = BUF_INIT;
		ck_assert_int_eq(node_emit(v, &b), 0);
		if (i < 2) {
			ck_assert_ptr_null(strstr(buf_str(&b), "lurker"));
			ck_assert_ptr_null(strstr(buf_str(&b), "kc"));
			ck_assert_ptr_null(strstr(buf_str(&b), "150"));
		} else
			ck_assert_ptr_nonnull(strstr(buf_str(&b), "id: lurker"));
		ck_assert_ptr_nonnull(strstr(buf_str(&b), "id: k-heid"));
		struct diag d;
		void *p = NULL;
		diag_init(&d);
		ck_assert_int_eq(rv_state_parse(&p, &camp, v, &d), 0);
		rv_report(&camp, s, who[i], &r);
		ck_assert_int_eq(strstr(buf_str(&r), "lurker") != NULL, i == 2);
		rv_state_free(p);
		diag_release(&d);
		node_free(v);
		buf_release(&b);
		buf_release(&r);
	}
	rv_state_free(s);
}
END_TEST

/* A hidden group is revealed when it acts or is seen: lying still with the enemy 6.1" off
 * it stays hidden and no event names it; at 6.0" in sight it is seen at once; at 6.0" with
 * the sight ruled blocked, or by a stunned enemy, it is not; an order on its card reveals it;
 * option spot-range 0: never seen. */
START_TEST(test_hidden_reveal)
{
	struct rv_state *s = make(HEIDMEN "{id: lurker, group: kc, role: leader, at: [240, 100]}");
	int k = fig(s, "lurker"), g = rv_group_find(s, -1, "kc");
	s->fig[fig(s, "s-heid")].at = (struct table_pt){ 240, _i == 0 ? 161 : 160 };
	struct buf what = BUF_INIT;
	if (_i == 2) /* the umpire may not name a hidden figure: the ruling set by hand */
		s->ruled[s->n_ruled++] = (struct rv_ruled){ RV_RULE_LOS, fig(s, "s-heid"), k, 0 };
	if (_i == 3)
		s->fig[fig(s, "s-heid")].stunned_until = 1;
	if (_i == 5)
		opts.spot_range = 0;
	const int deck[] = { 3, 2 };
	struct harness h;
	if (_i == 4) {
		struct diag d;
		struct node *root = NULL;
		void *o = NULL;
		const char *y = "- {group: kc, load: true}\n";
		diag_init(&d);
		s->fig[fig(s, "s-heid")].at = (struct table_pt){ 0, 350 };
		ck_assert_int_eq(node_parse(&root, "o.yaml", y, strlen(y), NULL, &d), 0);
		ck_assert_int_eq(rv_orders_parse(&o, &camp, s, 1, "kerr", root, NULL, &d), 0);
		h_init(&h, deck, 2);
		struct rules_orders ro[2] = { { "kerr", o }, { "scott", NULL } };
		struct rules_turn t = { 1, ro, 2, &h.dice, &h.ev, BUF_INIT, BUF_INIT };
		ck_assert_int_eq(rv_resolve(&camp, s, &t), 0);
		buf_release(&t.summary);
		buf_release(&t.why);
		rv_orders_free(o);
		node_free(root);
		diag_release(&d);
	} else
		play_turn(s, 1, "[]\n", deck, 2, &h, NULL);
	int seen = _i == 1 || _i == 4;
	ck_assert_int_eq(s->group[g].hidden, !seen);
	for (size_t i = 0; !seen && i < h.ev.n; i++)
		ck_assert_msg(!strstr(h.ev.v[i].text, "lurker") && !strstr(h.ev.v[i].text, "kc"),
			"case %d: %s", _i, h.ev.v[i].text);
	if (_i == 1)
		ck_assert(has(&h.ev, "kc is revealed: s-heid sees lurker"));
	if (_i == 4)
		ck_assert(has(&h.ev, "kc is revealed: it acts on its card"));
	ck_assert_int_eq(s->fig[k].at.x, 240);
	h_release(&h);
	buf_release(&what);
	rv_state_free(s);
}
END_TEST

/* A broken group retreats from the nearest enemy it can see: the hidden lurker 7" off is
 * passed over for k-heid across the table (rally roll 10 against poltroon 7: fails by 3). */
START_TEST(test_hidden_retreat)
{
	struct rv_state *s = make(HEIDMEN "{id: lurker, group: kc, role: leader, at: [240, 170]}, "
					  "{id: runner, group: sx, role: leader, class: poltroon, "
					  "at: [240, 100]}");
	int g = rv_group_find(s, -1, "sx");
	s->group[g].morale = RV_BROKEN;
	const int dice[] = { 3, 2, 10, 3, 3 };
	struct harness h;
	play_turn(s, 1, "[]\n", dice, 5, &h, NULL);
	ck_assert(has(&h.ev, "sx retreats from k-heid"));
	ck_assert_int_eq(s->group[rv_group_find(s, -1, "kc")].hidden, 1);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* Another side's hidden figure is refused as a target exactly as an unknown one is; the
 * heidman's group may not be hidden. */
START_TEST(test_hidden_checks)
{
	struct rv_state *s = make(HEIDMEN "{id: lurker, group: kc, role: leader, at: [240, 100]}, "
					  "{id: archer, group: sx, role: leader, weapon: longbow, "
					  "at: [240, 50]}");
	static const char *const y[] = { "- {group: sx, fire: lurker}\n",
		"- {group: sx, fire: nobody}\n" };
	struct buf out[2] = { BUF_INIT, BUF_INIT };
	for (int i = 0; i < 2; i++) {
		struct diag d;
		struct node *root = NULL;
		void *o = NULL;
		diag_init(&d);
		ck_assert_int_eq(node_parse(&root, "o.yaml", y[i], strlen(y[i]), NULL, &d), 0);
		ck_assert_int_eq(rv_orders_parse(&o, &camp, s, 1, "scott", root, NULL, &d), -1);
		diag_format(&d, &out[i], DIAG_BRIEF);
		node_free(root);
		diag_release(&d);
	}
	ck_assert_str_eq(buf_str(&out[0]),
		"o.yaml:1:21: error: no figure 'lurker' (a figure of the scenario)\n");
	ck_assert_int_eq((int)out[0].len, (int)out[1].len - (int)strlen("nobody") + 6);
	buf_release(&out[0]);
	buf_release(&out[1]);
	rv_state_free(s);
	struct diag d;
	diag_init(&d);
	s = make_full("{id: s-heid, group: sa, role: heidman, at: [0, 350]}, "
		      "{id: k-heid, group: kc, role: heidman, at: [470, 350]}",
		NULL, &d);
	ck_assert_ptr_null(s);
	struct buf b = BUF_INIT;
	diag_format(&d, &b, DIAG_BRIEF);
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "group 'kc' holds the heidman and is hidden"));
	buf_release(&b);
	diag_release(&d);
}
END_TEST

/* The rulings reivers refuses: a kind it does not take, an unknown or dead figure, one figure
 * twice, a cover grade it does not know; each at its key. */
START_TEST(test_umpire_rulings_refused)
{
	struct rv_state *s = make(HEIDMEN "{id: gone, group: sx, dead: true, at: [150, 50]}, "
					  "{id: sx-2, group: sx, role: leader, at: [160, 50]}, "
					  "{id: k-2, group: kb, at: [100, 50]}, "
					  "{id: lurker, group: kc, role: leader, at: [100, 60]}");
	struct adjustment v[] = {
		{ .kind = ADJUST_DISR, .unit = (char *)"s-heid", .by = 1 },
		{ .kind = ADJUST_LOS, .from = (char *)"nobody", .to = (char *)"k-heid" },
		{ .kind = ADJUST_LOS, .from = (char *)"s-heid", .to = (char *)"gone" },
		{ .kind = ADJUST_COVER,
			.from = (char *)"k-heid",
			.to = (char *)"k-heid",
			.grade = (char *)"part" },
		{ .kind = ADJUST_COVER,
			.from = (char *)"k-heid",
			.to = (char *)"sx-2",
			.grade = (char *)"hard" },
		{ .kind = ADJUST_RANGE,
			.from = (char *)"k-heid",
			.to = (char *)"sx-2",
			.band = (char *)"point-blank" },
		{ .kind = ADJUST_RANGE,
			.from = (char *)"k-heid",
			.to = (char *)"lurker",
			.band = (char *)"close" },
	};
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(rv_adjust_check(&camp, s, v, N_OF(v), &d), -1);
	struct buf b = BUF_INIT;
	diag_format(&d, &b, DIAG_BRIEF);
	ck_assert_str_eq(buf_str(&b),
		"<input>:1:1: error: reivers takes no 'adjust: disr' (los, cover or range expected: "
		"the umpire rules a line of sight, a cover or a range for the turn)\n"
		"<input>:1:1: error: no figure 'nobody' (a figure of the scenario)\n"
		"<input>:1:1: error: figure 'gone' is dead (a figure in play)\n"
		"<input>:1:1: error: 'from' and 'to' are both 'k-heid' (two figures expected)\n"
		"<input>:1:1: error: no cover grade 'hard' (none, part or whole expected)\n"
		"<input>:1:1: error: no range band 'point-blank' (close, long or beyond expected)\n"
		"<input>:1:1: error: figure 'lurker' is hidden (a figure every side sees: the "
		"journal would tell where he lies)\n");
	buf_release(&b);
	diag_release(&d);
	rv_state_free(s);
}
END_TEST

/* Remounting (docs/rules/reivers.md): a rider dismounts and his horse stands loose beside him
 * (not spooked, his side's); the next turn he catches it again and it leaves the animals; a
 * third turn he dismounts again under the same name. No die is drawn but the deck's. */
START_TEST(test_dismount_remount)
{
	struct rv_state *s = make(HEIDMEN "{id: r, group: sx, role: leader, mounted: true, "
					  "at: [240, 100]}");
	int r = fig(s, "r");
	const int deck[] = { 3, 2 };
	struct harness h;
	play_turn(s, 1, "- {group: sx, dismount: true}\n", deck, 2, &h, NULL);
	ck_assert(has(&h.ev, "r dismounts; his horse stands as r-horse"));
	ck_assert_int_eq(s->fig[r].mounted, 0);
	ck_assert_int_eq((int)s->n_animal, 1);
	ck_assert_str_eq(s->animal[0].id, "r-horse");
	ck_assert_int_eq(s->animal[0].spooked, 0);
	ck_assert_int_eq(s->animal[0].owner, 0);
	ck_assert_int_eq(s->animal[0].at.x, 240);
	h_release(&h);
	play_turn(s, 2, "- {group: sx, remount: true}\n", deck, 2, &h, NULL);
	ck_assert(has(&h.ev, "r catches r-horse and mounts"));
	ck_assert_int_eq(s->fig[r].mounted, 1);
	ck_assert_int_eq((int)s->n_animal, 0);
	ck_assert_str_eq(s->fig[r].horse, "");
	h_release(&h);
	play_turn(s, 3, "- {group: sx, dismount: true}\n", deck, 2, &h, NULL);
	ck_assert_str_eq(s->animal[0].id, "r-horse");
	h_release(&h);
	/* Nobody is mounted now: a second dismount is void. */
	play_turn(s, 4, "- {group: sx, dismount: true}\n", deck, 2, &h, NULL);
	ck_assert(void_has(&h.ev, "no figure of the group is mounted"));
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* A rider killed leaves his horse loose where he fell, to be caught or herded; a man on foot
 * killed leaves none (docs/rules/reivers.md, "Horses and their riders"). */
START_TEST(test_killed_rider_horse)
{
	struct rv_state *s = make(HEIDMEN "{id: r, group: sx, role: leader, at: [240, 100]}, "
					  "{id: rider, group: sx, mounted: true, horse: bay, "
					  "at: [250, 130]}, {id: foot, group: sx, at: [240, 120]}");
	struct events ev;
	events_init(&ev);
	rv_hit(s, fig(s, "foot"), 0, 1, &ev);
	ck_assert_int_eq((int)s->n_animal, 0);
	rv_hit(s, fig(s, "rider"), 0, 1, &ev);
	ck_assert_int_eq(s->fig[fig(s, "rider")].dead, 1);
	ck_assert(has(&ev, "rider's horse bay stands loose"));
	ck_assert_int_eq((int)s->n_animal, 1);
	ck_assert_str_eq(s->animal[0].id, "bay");
	ck_assert_int_eq(s->animal[0].kind, RV_HORSE);
	ck_assert_int_eq(s->animal[0].spooked, 0);
	ck_assert_int_eq(s->animal[0].at.x, 250);
	ck_assert_int_eq(s->animal[0].at.y, 130);
	events_release(&ev);
	rv_state_free(s);
}
END_TEST

/* Remounting: the horse within 1" (0: 1.0" is caught, 1: 1.1" is not), standing still (2: a
 * spooked horse is not), the rider able to act (3: stunned, not); another side's horse is
 * lifted (4) unless the option remount-horses: own (5); his own horse before a nearer one (6). */
START_TEST(test_remount_conditions)
{
	struct rv_state *s = make(HEIDMEN "{id: f, group: sx, role: leader, at: [240, 100]}");
	int f = fig(s, "f");
	struct rv_animal_def *a = &s->animal[s->n_animal++];
	memset(a, 0, sizeof(*a));
	snprintf(a->id, sizeof(a->id), "%s", _i == 6 ? "near-horse" : "k-horse");
	a->kind = RV_HORSE;
	a->owner = _i >= 4 && _i != 6 ? 1 : 0;
	a->at = (struct table_pt){ 240, _i == 1 ? 111 : _i == 6 ? 103 : 110 };
	a->spooked = _i == 2;
	if (_i == 3)
		s->fig[f].stunned_until = 1;
	if (_i == 5)
		opts.remount_own = 1;
	if (_i == 6) {
		struct rv_animal_def *b = &s->animal[s->n_animal++];
		*b = *a;
		snprintf(b->id, sizeof(b->id), "f-horse");
		b->at.y = 109;
	}
	int caught = _i == 0 || _i == 4 || _i == 6;
	const int deck[] = { 3, 2 };
	struct harness h;
	/* the spooked horse galloped when it was spooked: the animal card settles it, no dice */
	play_turn(s, 1, "- {group: sx, remount: true}\n", deck, 2, &h, NULL);
	ck_assert_int_eq(s->animal[0].spooked, 0);
	ck_assert_int_eq(s->fig[f].mounted, caught);
	ck_assert_int_eq(void_has(&h.ev, "within 1\" of a loose horse standing still"), !caught);
	ck_assert_int_eq((int)s->n_animal, _i == 6 ? 1 : !caught);
	if (_i == 4) {
		ck_assert(
			has(&h.ev, "f catches k-horse and mounts (a horse lifted from the enemy)"));
		ck_assert_str_eq(s->fig[f].horse, "k-horse");
		/* ... and when he gets down it is k-horse that stands loose, now his side's */
		ck_assert_int_eq(rv_horse_loose(s, f, 0), 0);
		ck_assert_str_eq(s->animal[0].id, "k-horse");
		ck_assert_int_eq(s->animal[0].owner, 0);
	}
	if (_i == 6) {
		ck_assert(has(&h.ev, "f catches f-horse and mounts"));
		ck_assert_str_eq(s->animal[0].id, "near-horse");
	}
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* A loose horse's name is unique: a second "x-horse" on the table is "x-horse-2". */
START_TEST(test_loose_horse_names)
{
	struct rv_state *s = make(HEIDMEN "{id: x, group: sx, role: leader, mounted: true, "
					  "at: [240, 100]}, {id: y, group: sx, mounted: true, "
					  "horse: x-horse, at: [250, 100]}");
	ck_assert_int_eq(rv_horse_loose(s, fig(s, "x"), 1), 0);
	ck_assert_int_eq(rv_horse_loose(s, fig(s, "y"), 0), 1);
	ck_assert_str_eq(s->animal[0].id, "x-horse");
	ck_assert_str_eq(s->animal[1].id, "x-horse-2");
	ck_assert_int_eq(s->animal[0].spooked, 1);
	ck_assert_int_eq(s->fig[fig(s, "y")].mounted, 0);
	rv_state_free(s);
}
END_TEST

/* §Charging: both morale tests, the charge move, a melee tie kept for the next turn (where the
 * charging +1 is gone), then a win. */
START_TEST(test_charge_and_tie)
{
	struct rv_state *s = make(HEIDMEN "{id: lead, group: sx, role: leader, at: [240, 100]}, "
					  "{id: target, group: kb, at: [240, 130]}");
	const int t1[] = { 3, 2, 5, 5, 3, 3, 5, 7 };
	struct harness h;
	play_turn(s, 1, "- {group: sx, charge: target}\n", t1, N_OF(t1), &h, NULL);
	ck_assert(has(&h.ev, "sx tests morale (to charge): rolls 5, needs 8 or less: passes"));
	ck_assert(has(&h.ev, "kb tests morale (to receive a charge): rolls 5"));
	ck_assert(has(&h.ev, "a tie, fought on"));
	ck_assert_int_eq((int)s->n_melee, 1);
	ck_assert_int_eq(s->fig[fig(s, "lead")].at.y, 125); /* 0.5" short of the target */
	h_release(&h);
	/* turn 2: charging the same target again is void, no test, no second melee; the melee
	 * is fought on: 6 +1 leader = 7 against 6: the attackers win; no armour: killed; kb then
	 * tests for the casualty */
	const int t2[] = { 3, 2, 6, 6, 5 };
	play_turn(s, 2, "- {group: sx, charge: target}\n", t2, N_OF(t2), &h, NULL);
	ck_assert(void_has(&h.ev, "sx: already in melee with target: the melee is fought on"));
	ck_assert(has(&h.ev, "lead attacks target: 6 +1 leader = 7"));
	ck_assert_int_eq(s->fig[fig(s, "target")].dead, 1);
	ck_assert_int_eq((int)s->n_melee, 0);
	h_release(&h);
	/* the charge that fails its morale test does not move */
	rv_state_free(s);
	s = make(HEIDMEN "{id: lead, group: sx, role: leader, at: [240, 100]}, "
			 "{id: target, group: kb, at: [240, 130]}");
	const int t3[] = { 3, 2, 9 };
	play_turn(s, 1, "- {group: sx, charge: target}\n", t3, N_OF(t3), &h, NULL);
	ck_assert_int_eq(s->fig[fig(s, "lead")].at.y, 100);
	ck_assert_int_eq((int)s->n_melee, 0);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* §Herding in a turn: contact required (void), success drives the animal and changes owner. */
START_TEST(test_herd_turn)
{
	struct rv_state *s = make(HEIDMEN "{id: lead, group: sx, role: leader, at: [240, 100]}");
	s->animal[0] = (struct rv_animal_def){ "cow", RV_CATTLE, 0, 1, { 240, 100 - 10 - _i }, 0 };
	s->n_animal = 1;
	const int dice[] = { 3, 2, 5, 3, 3 };
	struct harness h;
	play_turn(s, 1, "- {group: sx, herd: [cow], path: [[240, 200]]}\n", dice, _i ? 2 : 5, &h,
		NULL);
	ck_assert_int_eq(void_has(&h.ev, "not in base contact with cow"), _i);
	ck_assert_int_eq(s->animal[0].owner, _i ? 1 : 0);
	ck_assert_int_eq(s->animal[0].at.y, _i ? 89 : 150);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* The report: a map and the figures; another side's hidden group is left off. */
/* Issue 38: a side of up to 100 groups (RV_TEMPLATE_FULL) gets each group with its figures
 * in its template; one of more, a line a group ("- {group: ID, move: [[x, y]]}", a comment
 * only for a group not steady or without its leader), each figure's place left to the
 * Situation: 800 groups were 170 KB a report. */
START_TEST(test_template_big_side)
{
	struct buf full = BUF_INIT, line = BUF_INIT;

	big_side_template(100, &full);
	ck_assert_ptr_nonnull(
		strstr(buf_str(&full), "#   - group: g100   # steady:\n"
				       "#      f100 (leader, hand) at [1000, 100]\n"));
	ck_assert_ptr_null(strstr(buf_str(&full), "{group:"));
	big_side_template(101, &line);
	ck_assert_ptr_nonnull(strstr(buf_str(&line), "#   your 101 groups, a line each"));
	ck_assert_ptr_nonnull(
		strstr(buf_str(&line), "\n#   - {group: g1, move: [[x, y]]}\n"
				       "#   - {group: g2, move: [[x, y]]}   # shaken, "
				       "no leader (appoint one)\n"
				       "#   - {group: g3, move: [[x, y]]}\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&line), "\n#   - {group: g101, move: [[x, y]]}\n"
						     "# standing: {stun: true}"));
	ck_assert_ptr_null(strstr(buf_str(&line), "f101"));
	ck_assert_ptr_null(strstr(buf_str(&line), "{group: k,"));
	buf_release(&full);
	buf_release(&line);
}
END_TEST

START_TEST(test_report_hides)
{
	struct rv_state *s = make(HEIDMEN "{id: lurker, group: sx, role: leader, at: [150, 150]}");
	s->group[rv_group_find(s, -1, "sx")].hidden = 1;
	struct buf own = BUF_INIT, other = BUF_INIT;
	rv_report(&camp, s, "scott", &own);
	rv_report(&camp, s, "kerr", &other);
	ck_assert_ptr_nonnull(strstr(buf_str(&own), "| lurker | scott | sx |"));
	ck_assert_ptr_null(strstr(buf_str(&other), "lurker"));
	ck_assert_ptr_nonnull(strstr(buf_str(&other), "| s-heid | scott | sa |"));
	ck_assert_ptr_nonnull(strstr(buf_str(&own), "### The table (48\" x 36\")"));
	buf_release(&own);
	buf_release(&other);
	rv_state_free(s);
}
END_TEST

/* rules.h map_as_public, against the drawings: a side it says sees the public map is drawn
 * the public map but for the title; kerr, whose group kc holds the lurker hidden (in the state,
 * or only before the turn), is not, and his map shows the lurker's move the public's does not.
 * state_clone: the copy emits the same state and owes nothing to it (the turn's maps draw
 * the moves from it). */
static int map_check(const struct rv_state *s, const struct rules_map *m, const char *player)
{
	struct buf pub = BUF_INIT, own = BUF_INIT;
	rv_map(&camp, s, m, NULL, &pub);
	rv_map(&camp, s, m, player, &own);
	int same = svg_same_but_title(&own, &pub), said = rv_map_as_public(&camp, s, m, player);
	if (said)
		ck_assert_msg(same, "%s: said the public map, drawn another", player);
	buf_release(&pub);
	buf_release(&own);
	return said * 2 + same;
}

START_TEST(test_map_as_public_and_clone)
{
	struct rv_state *s = make(HEIDMEN "{id: lurker, group: kc, role: leader, at: [150, 150]}");
	struct rv_state *before = rv_state_clone(&camp, s);
	struct events ev;
	struct rules_map m = { 1, before, &ev };
	struct buf a = BUF_INIT, b = BUF_INIT;
	int kc = rv_group_find(s, -1, "kc");

	events_init(&ev);
	s->fig[fig(s, "lurker")].at.x = 250;
	ck_assert_int_eq(before->fig[fig(before, "lurker")].at.x, 150);
	ck_assert_int_eq(map_check(s, &m, "scott"), 3);
	ck_assert_int_eq(map_check(s, &m, "kerr"), 0);
	s->group[kc].hidden = 0; /* revealed this turn: hidden before it */
	ck_assert_int_eq(map_check(s, &m, "kerr"), 0);
	before->group[kc].hidden = 0;
	ck_assert_int_eq(map_check(s, &m, "kerr"), 3);

	struct node *x = rv_state_emit(&camp, s), *y = NULL;
	struct rv_state *copy = rv_state_clone(&camp, s);
	y = rv_state_emit(&camp, copy);
	ck_assert_int_eq(node_emit(x, &a), 0);
	ck_assert_int_eq(node_emit(y, &b), 0);
	ck_assert_str_eq(buf_str(&a), buf_str(&b));
	ck_assert_int_eq(rv_figure_find(copy, "lurker"), fig(s, "lurker"));
	rv_state_free(s);
	ck_assert_int_eq(copy->fig[rv_figure_find(copy, "lurker")].at.x, 250);
	node_free(x);
	node_free(y);
	buf_release(&a);
	buf_release(&b);
	events_release(&ev);
	rv_state_free(copy);
	rv_state_free(before);
}
END_TEST

/* Option spook-test: a volley of two calivers tests each horse once (volley) or twice
 * (discharge). */
START_TEST(test_spook_test_option)
{
	struct rv_state *s = make(HEIDMEN "{id: c1, group: sx, role: leader, weapon: caliver, "
					  "at: [240, 100]}, {id: c2, group: sx, weapon: caliver, "
					  "at: [250, 100]}, {id: rider, group: kb, mounted: true, "
					  "at: [240, 150]}");
	opts.spook_each = _i;
	/* deck; two misses; the horse: 9 (and 9), steady */
	const int dice[] = { 3, 2, 1, 9, 1, 9 };
	const int volley[] = { 3, 2, 1, 1, 9 };
	struct harness h;
	play_turn(s, 1, "- {group: sx, fire: rider}\n", _i ? dice : volley, _i ? 6 : 5, &h, NULL);
	int tests = 0;
	for (size_t k = 0; k < h.dice.n; k++)
		tests += strstr(h.dice.v[k].purpose, "horse spooks") != NULL;
	ck_assert_int_eq(tests, _i ? 2 : 1);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* §Movement: followers keep their offset from the leader; a rider the offset would carry over
 * the wall stays with the leader; a follower beyond 6" closes up to 6". */
START_TEST(test_place_group)
{
	struct rv_state *s = make(HEIDMEN "{id: lead, group: sx, role: leader, at: [240, 100]}, "
					  "{id: foot, group: sx, at: [250, 100]}, "
					  "{id: rider, group: sx, mounted: true, at: [270, 100]}, "
					  "{id: far, group: sx, at: [240, 40]}");
	const int dice[] = { 3, 2, 1, 1 }; /* 2" up the table */
	struct harness h;
	play_turn(s, 1, "- {group: sx, move: [[240, 120]]}\n", dice, 4, &h, NULL);
	ck_assert_int_eq(s->fig[fig(s, "lead")].at.y, 120);
	ck_assert_int_eq(s->fig[fig(s, "foot")].at.x, 250);
	ck_assert_int_eq(s->fig[fig(s, "foot")].at.y, 120);
	ck_assert_int_eq(s->fig[fig(s, "far")].at.y, 60); /* 6" from the leader */
	h_release(&h);
	/* a move to the right: the rider's offset would take him over the wall at x = 30" */
	const int d2[] = { 3, 2, 2, 2 };
	play_turn(s, 2, "- {group: sx, move: [[280, 120]]}\n", d2, 4, &h, NULL);
	ck_assert_int_eq(s->fig[fig(s, "lead")].at.x, 280);
	ck_assert_int_eq(s->fig[fig(s, "rider")].at.x, 280);
	ck_assert_int_eq(s->fig[fig(s, "foot")].at.x, 290);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* ---- issue 26: the sheet's readings ------------------------------------------------------ */

/* §Morale "By 3+ Retreat max. move": a charging group failing its test by 3 retreats a full
 * move at once (1: a poltroon rolls 10 against 7), as a defender does; by 2 it stays (0). */
START_TEST(test_charge_fail_retreats)
{
	struct rv_state *s = make(
		HEIDMEN "{id: lead, group: sx, role: leader, class: poltroon, at: [240, 100]}, "
			"{id: target, group: kb, at: [240, 130]}");
	const int fail2[] = { 3, 2, 9 }, fail3[] = { 3, 2, 10, 2, 2 };
	struct harness h;
	play_turn(s, 1, "- {group: sx, charge: target}\n", _i ? fail3 : fail2, _i ? 5 : 3, &h,
		NULL);
	int g = rv_group_find(s, -1, "sx");
	ck_assert_int_eq(s->group[g].morale, _i ? RV_BROKEN : RV_SHAKEN);
	ck_assert_int_eq(has(&h.ev, "sx retreats from target"), _i);
	ck_assert_int_eq(s->fig[fig(s, "lead")].at.y, _i ? 60 : 100); /* 4" straight away */
	ck_assert_int_eq((int)s->n_melee, 0);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* §Wounds "-1 to all subsequent die rolls": a wounded leader's movement (foot, horse, road)
 * is 1" less; a wounded herder needs 6 on the d10; a wounded rider is thrown on 4; a wounded
 * target's armour rolls count 1 worse (shot: 2 metal items ricochet on 1, not 2; melee: 1
 * item saves on 1, not 2). _i 0: unwounded, 1: wounded. */
START_TEST(test_wound_penalty)
{
	struct rv_state *s = make(
		HEIDMEN "{id: foot, group: sx, role: leader, at: [240, 100]}, "
			"{id: horse, group: sa, role: leader, mounted: true, at: [240, 110]}, "
			"{id: road, group: kb, role: leader, at: [240, 305]}, "
			"{id: shooter, group: sa, weapon: caliver, at: [50, 300]}, "
			"{id: target, group: kc, role: leader, armour: [helmet, back-breast], "
			"at: [60, 300]}");
	int hit = _i;
	s->fig[fig(s, "foot")].hits = hit;
	s->fig[fig(s, "horse")].hits = hit;
	s->fig[fig(s, "road")].hits = hit;
	struct harness h;
	const int dice[] = { 3, 4, 3, 4, 5, 5, 6, 1 };
	h_init(&h, dice, N_OF(dice));
	ck_assert_int_eq(rv_move_roll(s, fig(s, "foot"), &h.dice), hit ? 60 : 70);
	ck_assert_int_eq(rv_move_roll(s, fig(s, "horse"), &h.dice), hit ? 110 : 120);
	ck_assert_int_eq(rv_move_roll(s, fig(s, "road"), &h.dice), hit ? 100 : 110);
	h_release(&h);
	/* herding: 5 succeeds, wounded 5 - 1 = 4 fails; 6 - 1 = 5 succeeds */
	const int five[] = { 5 }, six[] = { 6 };
	h_init(&h, five, 1);
	ck_assert_int_eq(rv_herd_test(&opts, 1, 0, 0, hit, &h.dice, &h.ev), !hit);
	h_release(&h);
	h_init(&h, six, 1);
	ck_assert_int_eq(rv_herd_test(&opts, 1, 0, 0, hit, &h.dice, &h.ev), 1);
	h_release(&h);
	/* the thrown-rider roll: spooked (7, first discharge), 2d6 at 3 o'clock, throw roll 4 */
	const int spook[] = { 7, 1, 1, 3, 4 };
	h_init(&h, spook, N_OF(spook));
	rv_spook(s, &opts, (struct table_pt){ 240, 150 }, 2, &h.dice, &h.ev);
	ck_assert_int_eq(s->fig[fig(s, "horse")].mounted, !hit);
	h_release(&h);
	/* the shot: 10 hits; 2 metal items: the armour roll 2 ricochets, wounded 2 + 1 does not */
	s->fig[fig(s, "target")].hits = hit;
	const int shot[] = { 10, 2 };
	h_init(&h, shot, 2);
	rv_fire(s, &opts, fig(s, "shooter"), fig(s, "target"), 2, &h.dice, &h.ev);
	ck_assert_int_eq(s->fig[fig(s, "target")].dead, hit);
	h_release(&h);
	/* melee: the wounded target's armour (helmet: 2) roll 2 + 1 fails */
	s->fig[fig(s, "target")].dead = 0;
	s->fig[fig(s, "target")].hits = hit;
	s->fig[fig(s, "target")].armour[RV_BREAST] = 0;
	s->fig[fig(s, "shooter")].at = (struct table_pt){ 60, 290 };
	struct rv_melee m = melee_of(s, "shooter", NULL, NULL, "target", 1);
	const int melee[] = { 9, 1, 2 };
	h_init(&h, melee, 3);
	ck_assert_int_eq(rv_melee_round(s, &m, 2, 0, &h.dice, &h.ev), 1);
	ck_assert_int_eq(s->fig[fig(s, "target")].dead, hit);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* §Firing "spooked and gallop 2d6": a loose horse within 9" of a discharge gallops when it is
 * spooked (7 on the first discharge) and the animal card only settles it: no second gallop
 * (0); a horse that stays steady (8) does not run (1). */
START_TEST(test_spook_gallops_once)
{
	struct rv_state *s = make(
		HEIDMEN "{id: shooter, group: sx, role: leader, weapon: caliver, at: [240, 100]}, "
			"{id: enemy, group: kb, at: [240, 150]}");
	struct rv_animal_def *a = &s->animal[s->n_animal++];
	*a = (struct rv_animal_def){ "nag", RV_HORSE, 0, -1, { 240, 110 }, 0 };
	/* deck (scott, kerr, animals); the shot misses (1); the horse: 7 spooked, 3 + 4 at 3
	 * o'clock, or 8 steady */
	const int spooked[] = { 3, 2, 1, 7, 3, 4, 3 }, steady[] = { 3, 2, 1, 8 };
	struct harness h;
	play_turn(s, 1, "- {group: sx, fire: enemy}\n", _i ? steady : spooked, _i ? 4 : 7, &h,
		NULL);
	ck_assert_int_eq(s->animal[0].at.x, _i ? 240 : 310);
	ck_assert_int_eq(s->animal[0].at.y, 110);
	ck_assert_int_eq(s->animal[0].spooked, 0);
	ck_assert_int_eq(has(&h.ev, "nag settles"), !_i);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* §Melee "shield – front only": the defender's facing is the way he last moved (or given);
 * the attacker below him at [240, 240]. Helmet and shield: 4 to no effect in front, the
 * helmet's 2 alone otherwise; the armour roll is 3. 0: facing the attacker, 1: his back to
 * him, 2: no facing (every way), 3: side-on (not in front), 4: facing set by a move. */
START_TEST(test_shield_front)
{
	static const char *const facing[] = { ", facing: [0, -10]", ", facing: [0, 10]", "",
		", facing: [10, 0]", "" };
	static const int saved[] = { 1, 0, 1, 0, 0 };
	char figs[600];
	snprintf(figs, sizeof(figs),
		HEIDMEN "{id: a, group: sa, at: [240, 240]}, "
			"{id: def, group: kb, armour: [helmet, shield], at: [240, 250]%s}",
		facing[_i]);
	struct rv_state *s = make(figs);
	int d = fig(s, "def");
	if (_i == 4) { /* he walked up the table to [240, 250]: his back to the attacker */
		s->fig[d].at = (struct table_pt){ 240, 200 };
		struct table_pt from = s->fig[d].at;
		s->fig[d].at = (struct table_pt){ 240, 250 };
		rv_face(&s->fig[d], from);
		ck_assert_int_eq(s->fig[d].face_dy, 50);
	}
	struct rv_melee m = melee_of(s, "a", NULL, NULL, "def", 2);
	const int dice[] = { 9, 1, 3 };
	struct harness h;
	h_init(&h, dice, 3);
	ck_assert_int_eq(rv_melee_round(s, &m, 2, 0, &h.dice, &h.ev), 1);
	ck_assert_int_eq(s->fig[d].dead, !saved[_i]);
	ck_assert_int_eq(has(&h.ev, "against 4: no effect"), saved[_i]);
	ck_assert_int_eq(has(&h.ev, "against 2 (the shield is not to his front): no save"),
		!saved[_i]);
	h_release(&h);
	/* the facing is state: it is written and read back */
	struct node *n = rv_state_emit(&camp, s);
	struct buf b = BUF_INIT;
	ck_assert_int_eq(node_emit(n, &b), 0);
	ck_assert_int_eq(strstr(buf_str(&b), "facing:") != NULL, _i != 2);
	node_free(n);
	buf_release(&b);
	rv_state_free(s);
}
END_TEST

/* A move sets the facing: the leader and his followers face the way they went. */
START_TEST(test_facing_from_move)
{
	struct rv_state *s = make(HEIDMEN "{id: lead, group: sx, role: leader, at: [240, 100]}, "
					  "{id: foot, group: sx, at: [250, 100]}");
	const int dice[] = { 3, 2, 1, 1 }; /* 2" up the table */
	struct harness h;
	play_turn(s, 1, "- {group: sx, move: [[240, 120]]}\n", dice, 4, &h, NULL);
	ck_assert_int_eq(s->fig[fig(s, "lead")].face_dx, 0);
	ck_assert_int_eq(s->fig[fig(s, "lead")].face_dy, 20);
	ck_assert_int_eq(s->fig[fig(s, "foot")].face_dy, 20);
	ck_assert(rv_in_front(&s->fig[fig(s, "lead")], (struct table_pt){ 240, 121 }));
	ck_assert(!rv_in_front(&s->fig[fig(s, "lead")], (struct table_pt){ 300, 120 }));
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* §Herding "-2 if melee within 6"" reads "this turn", as the firing -4 does: sa's heidman
 * charges and kills victim (the melee is over) before sx herds a cow 4" away; a herd roll of
 * 7 - 2 passes (0), 6 - 2 fails and the cow scatters (1). */
START_TEST(test_herd_melee_this_turn)
{
	struct rv_state *s = make(HEIDMEN "{id: victim, group: kb, at: [240, 130]}, "
					  "{id: herder, group: sx, role: leader, at: [280, 130]}");
	s->fig[fig(s, "s-heid")].at = (struct table_pt){ 240, 100 };
	s->animal[0] = (struct rv_animal_def){ "cow", RV_CATTLE, 0, 1, { 280, 140 }, 0 };
	s->n_animal = 1;
	/* deck; sa 5 passes to charge, kb 5 to receive; 6" move; melee 6 + 2 against 1: killed;
	 * the herd roll; then the drive (2") or the scatter (3" to 12 o'clock); kb's casualty
	 * test on kerr's card (5) */
	const int pass[] = { 3, 2, 5, 5, 3, 3, 6, 1, 7, 1, 1, 5 };
	const int fail[] = { 3, 2, 5, 5, 3, 3, 6, 1, 6, 3, 12, 5 };
	struct harness h;
	play_turn(s, 1,
		"- {group: sa, charge: victim}\n"
		"- {group: sx, herd: [cow], path: [[280, 200]]}\n",
		_i ? fail : pass, 12, &h, NULL);
	ck_assert_int_eq(s->fig[fig(s, "victim")].dead, 1);
	ck_assert_int_eq((int)s->n_melee, 0);
	ck_assert(has(&h.ev, _i ? "rolls 6, 4 after modifiers" : "rolls 7, 5 after modifiers"));
	ck_assert_int_eq(s->animal[0].owner, _i ? 1 : 0);
	ck_assert_int_eq(s->animal[0].at.y, _i ? 170 : 160);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* ---- the table's edge ------------------------------------------------------------------- */

/* Writes s as the turn does and reads it back as the next command does: every position the
 * rules wrote must be on the table (a point off it stopped the campaign: "y is '-10'"). */
static void reread(const struct rv_state *s)
{
	struct node *n = rv_state_emit(&camp, s);
	struct buf b = BUF_INIT;
	ck_assert_int_eq(node_emit(n, &b), 0);
	struct node *back = NULL;
	void *again = NULL;
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(node_parse(&back, "state.yaml", b.data, b.len, NULL, &d), 0);
	int rc = rv_state_parse(&again, &camp, back, &d);
	if (rc < 0)
		diag_print(&d, stderr);
	ck_assert_int_eq(rc, 0);
	rv_state_free(again);
	node_free(back);
	diag_release(&d);
	node_free(n);
	buf_release(&b);
}

/* §Herding: the herded beasts move with the leader's displacement and stop at the table's
 * edge (docs/rules/reivers.md): the leader at y 1.5" drives the cow at y 0.5" down to the
 * bottom edge (0: the cow would go to y -1", and the state read back failed: "y is '-10'");
 * the right edge (1: the leader at x 46" drives a cow 1" to his right 2" right, to 48"); the
 * corner (2: a cow 1" down and left, driven 2" left and 1.5" down). */
START_TEST(test_herd_at_the_edge)
{
	static const struct {
		struct table_pt lead, cow, to, want;
	} c[] = {
		{ { 240, 15 }, { 240, 5 }, { 240, 0 }, { 240, 0 } },
		{ { 460, 200 }, { 470, 200 }, { 480, 200 }, { 480, 200 } },
		{ { 20, 15 }, { 13, 8 }, { 0, 0 }, { 0, 0 } },
	};
	char figs[300];
	snprintf(figs, sizeof(figs), HEIDMEN "{id: lead, group: sx, role: leader, at: [%d, %d]}",
		c[_i].lead.x, c[_i].lead.y);
	struct rv_state *s = make(figs);
	s->animal[0] = (struct rv_animal_def){ "cow", RV_CATTLE, 0, 1, c[_i].cow, 0 };
	s->n_animal = 1;
	char yaml[100];
	snprintf(yaml, sizeof(yaml), "- {group: sx, herd: [cow], path: [[%d, %d]]}\n", c[_i].to.x,
		c[_i].to.y);
	const int dice[] = { 3, 2, 5, 3, 3 }; /* the deck; the herd roll 5; 6" of movement */
	struct harness h;
	play_turn(s, 1, yaml, dice, 5, &h, NULL);
	reread(s);
	ck_assert(has(&h.ev, "they move with the herders"));
	ck_assert_int_eq(s->fig[fig(s, "lead")].at.x, c[_i].to.x);
	ck_assert_int_eq(s->fig[fig(s, "lead")].at.y, c[_i].to.y);
	ck_assert_int_eq(s->animal[0].owner, 0);
	ck_assert_int_eq(s->animal[0].at.x, c[_i].want.x);
	ck_assert_int_eq(s->animal[0].at.y, c[_i].want.y);
	h_release(&h);
	rv_state_free(s);
}
END_TEST

/* §Morale "By 3+ Retreat max. move": a broken group runs its full move straight away from
 * the nearest enemy, stopping only at the table's edge. Away from k-heid, down and to the left
 * across the table (0: the line leaves the table by the bottom edge and by the left one; it
 * was cut to 2" of its 6"), and from a figure 1" to his upper right with the bottom edge 3"
 * off (1: he stops at the edge, on it). Poltroon rally roll 10: fails by 3; 6" of movement. */
START_TEST(test_retreat_to_the_edge)
{
	struct rv_state *s = make(HEIDMEN "{id: runner, group: sx, role: leader, class: poltroon, "
					  "at: [240, 100]}, "
					  "{id: foe, group: kb, at: [470, 350]}");
	int r = fig(s, "runner");
	if (_i) {
		s->fig[r].at = (struct table_pt){ 240, 30 };
		s->fig[fig(s, "foe")].at = (struct table_pt){ 247, 37 };
	}
	int g = rv_group_find(s, -1, "sx");
	s->group[g].morale = RV_BROKEN;
	const int dice[] = { 3, 2, 10, 3, 3 };
	struct harness h;
	struct table_pt from = s->fig[r].at;
	play_turn(s, 1, "[]\n", dice, 5, &h, NULL);
	reread(s);
	ck_assert(has(&h.ev, "sx retreats from"));
	struct table_pt to = s->fig[r].at;
	int64_t moved = table_length_round(from, to);
	if (_i) {
		ck_assert_int_eq(to.y, 0);
		ck_assert_int_eq(to.x, 210);
	} else {
		ck_assert_int_ge(moved, 59);
		ck_assert_int_le(moved, 60);
		ck_assert(has(&h.ev, "sx rolls 6\" of movement and stops short"));
	}
	h_release(&h);
	rv_state_free(s);
}
END_TEST

static Suite *reivers_suite(void)
{
	Suite *su = suite_create("reivers");
	TCase *t = tcase_create("morale");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_loop_test(t, test_morale_base, 0, 4);
	tcase_add_test(t, test_morale_modifiers);
	tcase_add_loop_test(t, test_morale_results, 0, 6);
	suite_add_tcase(su, t);
	t = tcase_create("movement");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_move_roll);
	tcase_add_test(t, test_move_along);
	tcase_add_test(t, test_los_and_cover);
	suite_add_tcase(su, t);
	t = tcase_create("firing");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_loop_test(t, test_weapon_ranges, 0, 5);
	tcase_add_loop_test(t, test_fire_modifiers, 0, 9);
	tcase_add_test(t, test_fire_no_shot);
	tcase_add_loop_test(t, test_ricochet, 0, 5);
	tcase_add_test(t, test_spook);
	tcase_add_test(t, test_spook_range_and_option);
	suite_add_tcase(su, t);
	t = tcase_create("melee");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_wounds);
	tcase_add_loop_test(t, test_melee, 0, 11);
	tcase_add_test(t, test_melee_armour_and_stun);
	tcase_add_loop_test(t, test_herd, 0, 10);
	tcase_add_test(t, test_scatter);
	suite_add_tcase(su, t);
	t = tcase_create("turn");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_deck);
	tcase_add_test(t, test_state_errors);
	tcase_add_test(t, test_orders);
	tcase_add_test(t, test_check_warnings);
	tcase_add_loop_test(t, test_new_leader, 0, 2);
	tcase_add_loop_test(t, test_morale_effects, 0, 3);
	tcase_add_test(t, test_hold);
	tcase_add_test(t, test_dismount_remount);
	tcase_add_test(t, test_killed_rider_horse);
	tcase_add_loop_test(t, test_remount_conditions, 0, 7);
	tcase_add_test(t, test_loose_horse_names);
	tcase_add_loop_test(t, test_umpire_rulings, 0, 5);
	tcase_add_test(t, test_umpire_rulings_refused);
	tcase_add_loop_test(t, test_range_ruling, 0, 8);
	tcase_add_test(t, test_hidden_views);
	tcase_add_loop_test(t, test_hidden_reveal, 0, 6);
	tcase_add_test(t, test_hidden_checks);
	tcase_add_test(t, test_hidden_retreat);
	tcase_add_test(t, test_charge_and_tie);
	tcase_add_loop_test(t, test_herd_turn, 0, 2);
	tcase_add_test(t, test_report_hides);
	tcase_add_test(t, test_map_as_public_and_clone);
	tcase_add_test(t, test_template_big_side);
	tcase_add_test(t, test_place_group);
	tcase_add_loop_test(t, test_spook_test_option, 0, 2);
	suite_add_tcase(su, t);
	t = tcase_create("sheet");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_loop_test(t, test_charge_fail_retreats, 0, 2);
	tcase_add_loop_test(t, test_wound_penalty, 0, 2);
	tcase_add_loop_test(t, test_spook_gallops_once, 0, 2);
	tcase_add_loop_test(t, test_shield_front, 0, 5);
	tcase_add_test(t, test_facing_from_move);
	tcase_add_loop_test(t, test_herd_melee_this_turn, 0, 2);
	tcase_add_loop_test(t, test_herd_at_the_edge, 0, 3);
	tcase_add_loop_test(t, test_retreat_to_the_edge, 0, 2);
	suite_add_tcase(su, t);
	return su;
}

TEST_MAIN(reivers_suite)
