/* check_landraid_io.c — the Land Raid rule system as the core sees it: state parse/emit
 * round trip and canonical order, state and option errors, the PBEM turn model
 * (player_due, game_over), orders and standing orders with every check-time error at its
 * line:column, standing orders persisting, and one whole turn through resolve. */
#include <string.h>

#include "testutil.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/dice.h"
#include "core/events.h"
#include "core/node.h"
#include "rules/land-raid/landraid.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

extern const struct rule_system rules_land_raid;

static const char *const players[] = { "attacker", "defender" };
static struct rules_campaign camp = { "test", players, 2, NULL };

static const char state_yaml[] =
	"first: attacker\n"
	"columns: 6\n"
	"rows: 4\n"
	"squares: {A1: dockside, B2: building, C4: barracks, F4: garrison-building, "
	"D2: important-building, E1: dockside}\n"
	"bases:\n"
	"  - {id: blood, side: attacker, role: commander, quality: battle-hardened, square: B1}\n"
	"  - {id: b1, side: attacker, square: B1}\n"
	"  - {id: b2, side: attacker, square: B1}\n"
	"  - {id: s1, side: attacker, quality: scurvy, square: B1}\n"
	"  - {id: far, side: attacker, square: E4}\n"
	"  - {id: hag, side: attacker, role: officer, square: C1}\n"
	"  - {id: h1, side: attacker, square: C1}\n"
	"  - {id: bishop, side: defender, role: officer, square: D2}\n"
	"  - {id: d1, side: defender, square: D2}\n"
	"  - {id: m1, side: defender, quality: scurvy, square: B3}\n"
	"  - {id: cart, side: defender, role: loot-carrier, square: F1}\n"
	"casualties: {D2: {defender: 2}, B1: {attacker: 1}}\n"
	"plunder: {B2: 1, D2: 2}\n";

static struct node *yaml(const char *file, const char *text)
{
	struct node *n = NULL;
	struct diag d;
	diag_init(&d);
	if (node_parse(&n, file, text, strlen(text), NULL, &d) < 0) {
		diag_print(&d, stderr);
		ck_abort_msg("test YAML does not parse");
	}
	diag_release(&d);
	return n;
}

static struct landraid_state *state(const char *text)
{
	struct node *g = yaml("game.yaml", text);
	struct landraid_state *s = NULL;
	struct diag d;
	diag_init(&d);
	if (landraid_state_parse(&s, &camp, g, &d) < 0) {
		diag_print(&d, stderr);
		ck_abort_msg("test state does not parse");
	}
	diag_release(&d);
	node_free(g);
	return s;
}

static char *emit_state(const struct landraid_state *s)
{
	struct buf b = BUF_INIT;
	struct node *n = landraid_state_emit(s);
	ck_assert_int_eq(node_emit(n, &b), 0);
	node_free(n);
	return buf_detach(&b);
}

/* 1 if both occur in text and x comes before y. */
static int before(const char *text, const char *x, const char *y)
{
	const char *p = strstr(text, x), *q = strstr(text, y);
	return p && q && p < q;
}

/* 1 if d holds an error at line:column whose message contains needle. */
static int has_diag(const struct diag *d, int line, int column, const char *needle)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].line == line && d->v[i].column == column &&
			strstr(d->v[i].message, needle))
			return 1;
	return 0;
}

#define CK_DIAG(d, line, col, needle) \
	do { \
		if (!has_diag(d, line, col, needle)) \
			diag_print(d, stderr); \
		ck_assert_msg(has_diag(d, line, col, needle), "no error '%s' at %d:%d", needle, \
			line, col); \
	} while (0)

/* Parses orders (and standing) of player against s; returns the diag count. */
static size_t parse_orders(const struct landraid_state *s, const char *player, const char *orders,
	const char *standing, struct diag *d, struct landraid_orders **out)
{
	struct landraid_options o;
	struct node *on = orders ? yaml("orders.yaml", orders) : NULL;
	struct node *sn = standing ? yaml("orders.yaml", standing) : NULL;
	struct landraid_orders *r = NULL;
	landraid_options_default(&o);
	int rc = landraid_orders_parse(&r, s, &o, player, on, sn, d);
	ck_assert_int_eq(rc == 0, diag_count(d) == 0);
	if (out)
		*out = r;
	else
		landraid_orders_free(r);
	node_free(on);
	node_free(sn);
	return diag_count(d);
}

/* ---- state -------------------------------------------------------------------------------- */

START_TEST(state_round_trip)
{
	struct landraid_state *s = state(state_yaml);
	landraid_ids_add(&s->standing[LR_DEFENDER].morale_removal, "b1");
	landraid_squares_add(&s->standing[LR_ATTACKER].dockside, 0);
	s->standing[LR_DEFENDER].withdraw = 1;
	char *a = emit_state(s);
	struct landraid_state *t = state(a);
	char *b = emit_state(t);
	ck_assert_str_eq(a, b);
	/* Canonical order: bases by id, squares in A1 order. */
	const char *order[] = { "id: b1", "id: b2", "id: bishop", "id: blood", "id: cart", "id: d1",
		"id: far", "id: h1", "id: hag", "id: m1", "id: s1" };
	const char *p = a;
	for (size_t i = 0; i < N_OF(order); i++) {
		const char *q = strstr(p, order[i]);
		ck_assert_msg(q != NULL, "%s missing or out of order", order[i]);
		p = q;
	}
	ck_assert(before(a, "A1: dockside", "B2: building"));
	ck_assert(before(a, "B2: building", "C4: barracks"));
	ck_assert(before(a, "E1: dockside", "F4: garrison-building"));
	ck_assert_ptr_nonnull(strstr(a, "officer-allowance:\n  attacker: 2\n  defender: 1\n"));
	ck_assert_ptr_nonnull(strstr(a, "withdraw: true"));
	ck_assert_ptr_nonnull(strstr(a, "roll: 6\n  found: the strongbox\n  loot: 3\n"));
	ck_assert_ptr_nonnull(
		strstr(a, "deviation:\n  defender: 1\n  battle-hardened: 1\n  tie: attacker\n"));
	ck_assert_int_eq(t->cas[LR_DEFENDER][landraid_square(t, "D2")], 2);
	ck_assert_int_eq(t->plunder[landraid_square(t, "D2")], 2);
	ck_assert_int_eq(t->kind[landraid_square(t, "C4")], LR_BARRACKS);
	ck_assert_int_eq(t->kind[landraid_square(t, "C3")], LR_OPEN);
	free(a);
	free(b);
	landraid_state_free(s);
	landraid_state_free(t);
}
END_TEST

START_TEST(state_errors)
{
	struct node *g = yaml("game.yaml", "columns: 6\n"
					   "rows: 30\n");
	struct landraid_state *s = NULL;
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(landraid_state_parse(&s, &camp, g, &d), -1);
	CK_DIAG(&d, 2, 7, "rows");
	node_free(g);
	diag_release(&d);

	g = yaml("game.yaml", "columns: 3\n"
			      "rows: 3\n"
			      "squares: {A1: swamp, D1: open}\n"
			      "bases:\n"
			      "  - {id: x, side: pirates, square: A1}\n"
			      "  - {id: y, side: attacker, square: A1, colour: red}\n"
			      "  - {id: z, side: attacker, square: C4}\n"
			      "  - {id: w, side: attacker, square: A1}\n"
			      "  - {id: w, side: defender, square: A2}\n"
			      "loot-loop: [{roll: 1, found: x, loot: 0}]\n"
			      "wind: north\n");
	diag_init(&d);
	ck_assert_int_eq(landraid_state_parse(&s, &camp, g, &d), -1);
	ck_assert_ptr_null(s);
	CK_DIAG(&d, 11, 1, "unknown key 'wind'");
	node_free(g);
	diag_release(&d);

	g = yaml("game.yaml", "columns: 3\n"
			      "rows: 3\n"
			      "squares: {A1: swamp, D1: open}\n"
			      "bases:\n"
			      "  - {id: x, side: pirates, square: A1}\n"
			      "  - {id: y, side: attacker, square: A1, colour: red}\n"
			      "  - {id: z, side: attacker, square: C4}\n"
			      "  - {id: w, side: attacker, square: A1}\n"
			      "  - {id: w, side: defender, square: A2}\n"
			      "loot-loop: [{roll: 1, found: x, loot: 0}]\n");
	diag_init(&d);
	ck_assert_int_eq(landraid_state_parse(&s, &camp, g, &d), -1);
	CK_DIAG(&d, 3, 15, "unknown square kind 'swamp'");
	CK_DIAG(&d, 3, 22, "'D1' is not a square of the 3x3 grid");
	CK_DIAG(&d, 5, 19, "unknown side 'pirates'");
	CK_DIAG(&d, 6, 41, "unknown key 'colour'");
	CK_DIAG(&d, 7, 37, "'C4' is not a square");
	CK_DIAG(&d, 9, 10, "duplicate base id 'w'");
	CK_DIAG(&d, 10, 12, "loot-loop has 1 row (6 expected");
	node_free(g);
	diag_release(&d);
}
END_TEST

/* Issue 9 item 5: whatever a scenario may hold, the state written from it reads back —
 * 101 officers (the default allowance is their count), markers, plunder and loot at their
 * bounds, and one past each bound refused alike. */
START_TEST(state_bounds_same_at_init_and_turn)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, "columns: 26\nrows: 26\nbases:\n");
	for (int i = 0; i < 101; i++)
		buf_printf(&b, "  - {id: o%03d, side: attacker, role: officer, square: A1}\n", i);
	buf_puts(&b, "  - {id: d1, side: defender, square: Z26}\n");
	buf_printf(&b, "casualties: {B2: {attacker: %d}}\nplunder: {C3: %d}\n", LR_MAX_MARKERS,
		LR_MAX_PLUNDER);
	buf_printf(&b, "loot: {taken: %d, lost: %d}\n", LR_MAX_LOOT, LR_MAX_LOOT);
	struct landraid_state *s = state(buf_str(&b));
	ck_assert_int_eq(s->allowance[LR_ATTACKER], 101);
	char *text = emit_state(s);
	struct landraid_state *again = state(text); /* aborts if the turn could not read it */
	ck_assert_int_eq(again->allowance[LR_ATTACKER], 101);
	ck_assert_int_eq(again->cas[LR_ATTACKER][landraid_square(again, "B2")], LR_MAX_MARKERS);
	landraid_state_free(again);
	landraid_state_free(s);
	free(text);
	buf_release(&b);

	struct node *g = yaml("game.yaml", "columns: 2\nrows: 2\n"
					   "officer-allowance: {attacker: 2001}\n"
					   "casualties: {A1: {attacker: 6001}}\n"
					   "plunder: {A2: 101}\n");
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(landraid_state_parse(&s, &camp, g, &d), -1);
	CK_DIAG(&d, 3, 31, "officer allowance");
	CK_DIAG(&d, 4, 29, "casualty markers");
	CK_DIAG(&d, 5, 15, "plunder markers");
	node_free(g);
	diag_release(&d);
}
END_TEST

/* Issue 9 item 3: §24 deviation as scenario data, with its errors. */
START_TEST(state_deviation)
{
	struct landraid_state *s = state(
		"columns: 2\nrows: 2\n"
		"deviation: {defender: 0, battle-hardened: 2, tie: defender}\n");
	ck_assert_int_eq(s->deviation.defender, 0);
	ck_assert_int_eq(s->deviation.battle_hardened, 2);
	ck_assert_int_eq(s->deviation.tie, LR_DEFENDER);
	landraid_state_free(s);
	struct node *g = yaml("game.yaml", "columns: 2\nrows: 2\n"
					   "deviation: {defender: 7, tie: nobody, extra: 1}\n");
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(landraid_state_parse(&s, &camp, g, &d), -1);
	CK_DIAG(&d, 3, 39, "unknown key 'extra'");
	node_free(g);
	diag_release(&d);
	g = yaml("game.yaml", "columns: 2\nrows: 2\n"
			      "deviation: {defender: 7, tie: nobody}\n");
	diag_init(&d);
	ck_assert_int_eq(landraid_state_parse(&s, &camp, g, &d), -1);
	CK_DIAG(&d, 3, 23, "deviation defender");
	CK_DIAG(&d, 3, 31, "unknown deviation tie 'nobody'");
	node_free(g);
	diag_release(&d);
}
END_TEST

START_TEST(state_needs_attacker_and_defender)
{
	static const char *const wrong[] = { "attacker", "pirates" };
	struct rules_campaign c = { "test", wrong, 2, NULL };
	struct node *g = yaml("game.yaml", "columns: 2\nrows: 2\n");
	struct landraid_state *s = NULL;
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(landraid_state_parse(&s, &c, g, &d), -1);
	ck_assert_ptr_nonnull(strstr(d.v[0].message, "'attacker' and 'defender'"));
	diag_release(&d);
	diag_init(&d);
	ck_assert_int_eq(landraid_state_parse(&s, &camp, g, &d), 0);
	ck_assert_int_eq(s->cols * s->rows, 4);
	landraid_state_free(s);
	diag_release(&d);
	node_free(g);
}
END_TEST

START_TEST(options_defaults_and_errors)
{
	void *o = NULL;
	struct diag d;
	struct buf b = BUF_INIT;
	diag_init(&d);
	ck_assert_int_eq(rules_land_raid.options_parse(&o, NULL, &d), 0);
	struct node *n = rules_land_raid.options_emit(o);
	node_emit(n, &b);
	ck_assert_str_eq(buf_str(&b), "turns-per-player: 4\n"
				      "better-save: per-condition\n"
				      "loot-carriers-plunder: false\n"
				      "max-shoot-actions: 3\n"
				      "max-gather-actions: 3\n"
				      "commander-morale-reroll: failed\n"
				      "ignore-scurvy: any\n"
				      "max-defender-troops: 8\n"
				      "officer-casualty: third\n"
				      "blocked-fall-back: stay\n"
				      "morale-officers: flee\n"
				      "commander-fight: square\n");
	node_free(n);
	rules_land_raid.options_free(o);
	buf_release(&b);

	struct node *bad = yaml("scenario.yaml",
		"turns-per-player: 0\nbetter-save: twice\nloot-carriers-plunder: yes\nfog: true\n");
	ck_assert_int_eq(rules_land_raid.options_parse(&o, bad, &d), -1);
	CK_DIAG(&d, 4, 1, "unknown key 'fog'");
	node_free(bad);
	diag_release(&d);
	diag_init(&d);
	bad = yaml("scenario.yaml",
		"turns-per-player: 0\nbetter-save: twice\nloot-carriers-plunder: yes\n"
		"officer-casualty: first\nblocked-fall-back: die\nmorale-officers: maybe\n"
		"commander-fight: always\n");
	ck_assert_int_eq(rules_land_raid.options_parse(&o, bad, &d), -1);
	CK_DIAG(&d, 1, 19, "turns-per-player");
	CK_DIAG(&d, 2, 14, "unknown better-save 'twice'");
	CK_DIAG(&d, 3, 24, "true or false");
	CK_DIAG(&d, 4, 19, "unknown officer-casualty 'first'");
	CK_DIAG(&d, 5, 20, "unknown blocked-fall-back 'die'");
	CK_DIAG(&d, 6, 18, "unknown morale-officers 'maybe'");
	CK_DIAG(&d, 7, 18, "unknown commander-fight 'always'");
	node_free(bad);
	diag_release(&d);
	diag_init(&d);
	bad = yaml("scenario.yaml", "turns-per-player: 2\nbetter-save: once\n"
				    "officer-casualty: third-or-last\nblocked-fall-back: cut-down\n"
				    "morale-officers: never\ncommander-fight: fighting\n");
	ck_assert_int_eq(rules_land_raid.options_parse(&o, bad, &d), 0);
	ck_assert_int_eq(((struct landraid_options *)o)->officer_casualty,
		LR_OFFICER_THIRD_OR_LAST);
	ck_assert_int_eq(((struct landraid_options *)o)->blocked_fall_back, LR_BLOCKED_CUT_DOWN);
	ck_assert_int_eq(((struct landraid_options *)o)->morale_officers, LR_MORALE_OFFICERS_NEVER);
	ck_assert_int_eq(((struct landraid_options *)o)->commander_fight, LR_COMMANDER_FIGHTING);
	ck_assert_int_eq(((struct landraid_options *)o)->turns_per_player, 2);
	ck_assert_int_eq(((struct landraid_options *)o)->better_save, LR_SAVE_ONCE);
	rules_land_raid.options_free(o);
	node_free(bad);
	diag_release(&d);
}
END_TEST

START_TEST(turn_model)
{
	struct landraid_state *s = state(state_yaml);
	const char *why = NULL;
	/* attacker first: odd turns attacker, even defender; 4 turns each = 8. */
	ck_assert(rules_land_raid.player_due(&camp, s, 1, "attacker"));
	ck_assert(!rules_land_raid.player_due(&camp, s, 1, "defender"));
	ck_assert(rules_land_raid.player_due(&camp, s, 2, "defender"));
	ck_assert(rules_land_raid.player_due(&camp, s, 7, "attacker"));
	ck_assert(rules_land_raid.player_due(&camp, s, 8, "defender"));
	ck_assert(!rules_land_raid.player_due(&camp, s, 9, "attacker"));
	ck_assert(!rules_land_raid.game_over(&camp, s, 8, &why));
	ck_assert(rules_land_raid.game_over(&camp, s, 9, &why));
	ck_assert_ptr_nonnull(strstr(why, "game length"));
	s->first = LR_DEFENDER;
	ck_assert(rules_land_raid.player_due(&camp, s, 1, "defender"));
	ck_assert(rules_land_raid.player_due(&camp, s, 2, "attacker"));
	struct landraid_options o;
	landraid_options_default(&o);
	o.turns_per_player = 1;
	struct rules_campaign c = camp;
	c.options = &o;
	ck_assert(rules_land_raid.game_over(&c, s, 3, &why));
	ck_assert(!rules_land_raid.game_over(&c, s, 2, &why));
	for (size_t i = 0; i < s->n_bases; i++)
		if (s->bases[i]->side == LR_DEFENDER)
			landraid_base_remove(s, s->bases[i]);
	ck_assert(rules_land_raid.game_over(&c, s, 2, &why));
	ck_assert_ptr_nonnull(strstr(why, "defender has no bases"));
	landraid_state_free(s);
}
END_TEST

/* ---- orders ------------------------------------------------------------------------------- */

START_TEST(orders_ok)
{
	struct landraid_state *s = state(state_yaml);
	struct landraid_orders *o = NULL;
	struct diag d;
	diag_init(&d);
	ck_assert_uint_eq(parse_orders(s, "attacker",
				  "- officer: blood\n"
				  "  ignore: [s1]\n"
				  "  actions:\n"
				  "    - move: B2\n"
				  "      drag: [b1, b2]\n"
				  "    - shoot\n"
				  "    - plunder\n"
				  "- officer: hag\n"
				  "  actions:\n"
				  "    - gather: [far]\n"
				  "    - shoot: D2\n"
				  "    - fight: D1\n"
				  "      with: [h1]\n",
				  "response: on-shot\nevents: {dockside: [E1]}\n", &d, &o),
		0);
	ck_assert_int_eq(o->side, LR_ATTACKER);
	ck_assert_uint_eq(o->n, 2);
	ck_assert_str_eq(o->v[0].officer, "blood");
	ck_assert_uint_eq(o->v[0].ignore.n, 1);
	ck_assert_uint_eq(o->v[0].n_actions, 3);
	ck_assert_int_eq(o->v[0].actions[0].kind, LR_MOVE);
	ck_assert_int_eq(o->v[0].actions[0].sq, landraid_square(s, "B2"));
	ck_assert_uint_eq(o->v[0].actions[0].bases.n, 2);
	ck_assert_int_eq(o->v[0].actions[1].kind, LR_SHOOT);
	ck_assert_int_eq(o->v[0].actions[1].sq, -1);
	ck_assert_int_eq(o->v[0].actions[2].kind, LR_PLUNDER);
	ck_assert_int_eq(o->v[1].actions[0].kind, LR_GATHER);
	ck_assert_int_eq(o->v[1].actions[1].sq, landraid_square(s, "D2"));
	ck_assert_int_eq(o->v[1].actions[2].kind, LR_FIGHT);
	ck_assert(o->v[1].actions[2].has_bases);
	ck_assert_uint_eq(o->standing_set, LR_ST_RESPONSE | LR_ST_DOCKSIDE);
	/* Standing orders persist: only the keys given change. */
	s->standing[LR_ATTACKER].withdraw = 1;
	landraid_squares_add(&s->standing[LR_ATTACKER].fall_back, landraid_square(s, "A2"));
	landraid_ids_add(&s->standing[LR_ATTACKER].morale_removal, "d1");
	landraid_standing_apply(s, o);
	ck_assert_uint_eq(s->standing[LR_ATTACKER].fall_back.n, 1);
	ck_assert_uint_eq(s->standing[LR_ATTACKER].morale_removal.n, 1);
	ck_assert_str_eq(s->standing[LR_ATTACKER].morale_removal.v[0], "d1");
	ck_assert_int_eq(s->standing[LR_ATTACKER].response, LR_RESP_ON_SHOT);
	ck_assert_int_eq(s->standing[LR_ATTACKER].withdraw, 1);
	ck_assert_uint_eq(s->standing[LR_ATTACKER].dockside.n, 1);
	ck_assert_uint_eq(s->standing[LR_ATTACKER].n_choice_11_12, 2);
	landraid_orders_free(o);
	diag_release(&d);
	landraid_state_free(s);
}
END_TEST

/* §6 "Officers select the bases in his group": `group` names the officer's bases; a base in
 * two officers' groups of one file is refused at its line. */
START_TEST(orders_group)
{
	struct landraid_state *s = state(state_yaml);
	struct landraid_orders *o = NULL;
	struct diag d;
	diag_init(&d);
	ck_assert_uint_eq(parse_orders(s, "attacker",
				  "- officer: blood\n"
				  "  group: [b1]\n"
				  "  actions: [shoot]\n"
				  "- officer: hag\n"
				  "  group: [b2, h1]\n"
				  "  actions: [shoot]\n",
				  NULL, &d, &o),
		0);
	ck_assert(o->v[0].has_group);
	ck_assert_uint_eq(o->v[1].group.n, 2);
	ck_assert(!landraid_ids_has(&o->v[0].group, "b2"));
	landraid_orders_free(o);
	parse_orders(s, "attacker",
		"- officer: blood\n"
		"  group: [b1, b2]\n"
		"  actions: [shoot]\n"
		"- officer: hag\n"
		"  group: [h1, b2, hag]\n"
		"  actions: [shoot]\n",
		NULL, &d, NULL);
	CK_DIAG(&d, 5, 15, "base 'b2' is already in blood's group");
	CK_DIAG(&d, 5, 19, "base 'hag' is the officer");
	diag_release(&d);
	landraid_state_free(s);
}
END_TEST

START_TEST(orders_empty_and_missing)
{
	struct landraid_state *s = state(state_yaml);
	struct diag d;
	diag_init(&d);
	ck_assert_uint_eq(parse_orders(s, "defender", "[]\n", NULL, &d, NULL), 0);
	ck_assert_uint_eq(parse_orders(s, "defender", NULL, NULL, &d, NULL), 0);
	ck_assert_uint_eq(parse_orders(s, "umpire", "[]\n", NULL, &d, NULL), 1);
	diag_release(&d);
	landraid_state_free(s);
}
END_TEST

START_TEST(orders_errors_against_state)
{
	struct landraid_state *s = state(state_yaml);
	struct diag d;
	diag_init(&d);
	parse_orders(s, "attacker",
		"- officer: blood\n"          /* 1 */
		"  ignore: [b1]\n"            /* 2 */
		"  actions:\n"                /* 3 */
		"    - move: B2\n"            /* 4 */
		"      drag: [far, d1, b1]\n" /* 5 */
		"    - plunder\n"             /* 6 */
		"    - shoot\n"               /* 7 */
		"- officer: bishop\n"         /* 8 */
		"  actions: [shoot]\n"        /* 9 */
		"- officer: b1\n"             /* 10 */
		"  actions: [shoot]\n"        /* 11 */
		"- officer: ghost\n"          /* 12 */
		"  actions: [shoot]\n"        /* 13 */
		"- officer: hag\n"            /* 14 */
		"  actions:\n"                /* 15 */
		"    - move: E1\n"            /* 16 */
		"    - fight: D1\n"           /* 17 */
		"      with: [h1]\n"          /* 18 */
		"    - gather\n"              /* 19 */
		"- officer: hag\n"            /* 20 */
		"  actions: [gather]\n",      /* 21 */
		NULL, &d, NULL);
	CK_DIAG(&d, 2, 12, "base 'b1' is ordinary (a scurvy base expected in ignore)");
	CK_DIAG(&d, 5, 14, "base 'far' is in E4, not with blood in B1");
	CK_DIAG(&d, 5, 19, "base 'd1' is the defender's");
	CK_DIAG(&d, 7, 7, "shoot after the officer's plunder");
	CK_DIAG(&d, 8, 12, "'bishop' is the defender's");
	CK_DIAG(&d, 10, 12, "'b1' is a troops base, not an officer");
	CK_DIAG(&d, 12, 12, "no base 'ghost' on the table");
	CK_DIAG(&d, 16, 13, "E1 is not face-touching C1");
	CK_DIAG(&d, 19, 7, "gather after the officer's fight");
	CK_DIAG(&d, 20, 12, "officer 'hag' has a second order list");
	ck_assert_uint_eq(d.n, 10);
	diag_release(&d);
	landraid_state_free(s);
}
END_TEST

START_TEST(orders_errors_of_form)
{
	struct landraid_state *s = state(state_yaml);
	struct diag d;
	diag_init(&d);
	parse_orders(s, "attacker",
		"- officer: blood\n"                        /* 1 */
		"  action: [shoot]\n"                       /* 2 */
		"- officer: hag\n"                          /* 3 */
		"  actions:\n"                              /* 4 */
		"    - move: C2\n"                          /* 5 */
		"      shoot: D2\n"                         /* 6 */
		"    - teleport: A1\n"                      /* 7 */
		"    - dance\n"                             /* 8 */
		"- officer: blood\n"                        /* 9 */
		"  actions: [shoot, shoot, shoot, shoot]\n" /* 10 */
		"- {officer: blood, actions: []}\n"         /* 11 */
		"- officer: blood\n"                        /* 12 */
		"  actions:\n"                              /* 13 */
		"    - move: Z9\n"                          /* 14 */
		"    - shoot: F4\n"                         /* 15 */
		"    - plunder: B2\n"                       /* 16 */
		"- officer: blood\n"                        /* 17 */
		"  actions:\n"                              /* 18 */
		"    - plunder\n"                           /* 19 */
		"    - move: A1\n"                          /* 20 */
		"      with: [b1]\n",                       /* 21 */
		NULL, &d, NULL);
	CK_DIAG(&d, 1, 3, "missing key 'actions'");
	CK_DIAG(&d, 2, 3, "unknown key 'action' in officer order");
	CK_DIAG(&d, 6, 7, "action has both 'move' and 'shoot'");
	CK_DIAG(&d, 7, 7, "unknown key 'teleport' in action");
	CK_DIAG(&d, 8, 7, "unknown action 'dance'");
	CK_DIAG(&d, 10, 34, "action 4 for 'blood' (§17: at most 3");
	CK_DIAG(&d, 11, 29, "no actions for 'blood'");
	CK_DIAG(&d, 14, 13, "move 'Z9' is not a square of the 6x4 grid");
	CK_DIAG(&d, 15, 14, "F4 is not within 3 squares of B1");
	CK_DIAG(&d, 16, 16, "plunder takes no value");
	CK_DIAG(&d, 19, 7, "no plunder marker left in B1");
	CK_DIAG(&d, 21, 7, "'with' belongs to a fight");
	diag_release(&d);
	landraid_state_free(s);
}
END_TEST

/* Each action (and each officer's list) is checked in full: a wrong first field no longer
 * hides the others. Every pair below used to be reported as its first error alone. */
START_TEST(orders_every_error_of_an_action)
{
	struct landraid_state *s = state(state_yaml);
	struct diag d;
	diag_init(&d);
	parse_orders(s, "attacker",
		"- officer: hag\n"     /* 1 */
		"  actions:\n"         /* 2 */
		"    - move: Z9\n"     /* 3 */
		"      run: fast\n"    /* 4 */
		"    - move: E1\n"     /* 5 */
		"      drag: [d1]\n"   /* 6 */
		"    - fight: Q7\n"    /* 7 */
		"      with: [cart]\n" /* 8 */
		"- officer: ghost\n"   /* 9 */
		"  actions:\n"         /* 10 */
		"    - shoot: A9\n"    /* 11 */
		"- officer: blood\n"   /* 12 */
		"  actions:\n"         /* 13 */
		"    - move: B9\n"     /* 14 */
		"      shoot: B2\n"    /* 15 */
		"    - fight: C1\n"    /* 16 */
		"    - move: X1\n"     /* 17 */
		"    - gather\n",      /* 18 */
		NULL, &d, NULL);
	/* unknown key, and the move's bad square */
	CK_DIAG(&d, 4, 7, "unknown key 'run' in action");
	CK_DIAG(&d, 3, 13, "move 'Z9' is not a square of the 6x4 grid");
	/* a move not face-touching, and its drag list */
	CK_DIAG(&d, 5, 13, "E1 is not face-touching C1");
	CK_DIAG(&d, 6, 14, "base 'd1' is the defender's");
	/* a fight at a bad square, and its with list */
	CK_DIAG(&d, 7, 14, "fight 'Q7' is not a square");
	CK_DIAG(&d, 8, 14, "base 'cart' is the defender's");
	/* an unknown officer, and his action's bad square */
	CK_DIAG(&d, 9, 12, "no base 'ghost' on the table");
	CK_DIAG(&d, 11, 14, "shoot target 'A9' is not a square");
	/* two actions in one item, and the first one's bad square */
	CK_DIAG(&d, 15, 7, "action has both 'move' and 'shoot'");
	CK_DIAG(&d, 14, 13, "move 'B9' is not a square");
	/* an action after the fight, and its bad square; a 4th action, and the first three */
	CK_DIAG(&d, 17, 7, "move after the officer's fight");
	CK_DIAG(&d, 17, 13, "move 'X1' is not a square");
	CK_DIAG(&d, 18, 7, "action 4 for 'blood'");
	ck_assert_uint_eq(d.n, 13);
	diag_release(&d);
	diag_init(&d);
	/* plunder with a value by the defender: both reported */
	parse_orders(s, "defender", "- {officer: bishop, actions: [{plunder: D2}]}\n", NULL, &d,
		NULL);
	CK_DIAG(&d, 1, 41, "plunder takes no value");
	CK_DIAG(&d, 1, 32, "only the attacker plunders");
	ck_assert_uint_eq(d.n, 2);
	diag_release(&d);
	landraid_state_free(s);
}
END_TEST

START_TEST(orders_limits)
{
	struct landraid_state *s = state(state_yaml);
	struct diag d;
	diag_init(&d);
	/* §20: at most 3 shoot actions a turn; the defender does not plunder (§24). */
	parse_orders(s, "attacker",
		"- {officer: blood, actions: [shoot, shoot, shoot]}\n"
		"- {officer: hag, actions: [shoot]}\n",
		NULL, &d, NULL);
	CK_DIAG(&d, 2, 28, "shoot action 4 this turn");
	ck_assert_uint_eq(d.n, 1);
	diag_release(&d);
	diag_init(&d);
	parse_orders(s, "defender",
		"- {officer: bishop, actions: [plunder]}\n"
		"- {officer: blood, actions: [shoot]}\n",
		NULL, &d, NULL);
	CK_DIAG(&d, 1, 31, "only the attacker plunders");
	CK_DIAG(&d, 2, 13, "'blood' is the attacker's");
	diag_release(&d);
	diag_init(&d);
	/* Two plunders of one marker: the second finds none left. */
	parse_orders(s, "attacker",
		"- {officer: blood, actions: [{move: B2}, plunder]}\n"
		"- {officer: hag, actions: [{move: B1}, {move: B2}, plunder]}\n",
		NULL, &d, NULL);
	CK_DIAG(&d, 2, 52, "no plunder marker left in B2");
	ck_assert_uint_eq(d.n, 1);
	diag_release(&d);
	landraid_state_free(s);
}
END_TEST

START_TEST(standing_errors)
{
	struct landraid_state *s = state(state_yaml);
	struct diag d;
	diag_init(&d);
	parse_orders(s, "attacker", NULL,
		"response: sometimes\n"               /* 1 */
		"withdraw: maybe\n"                   /* 2 */
		"fall-back: [Q9]\n"                   /* 3 */
		"morale-removal: [b1, cart]\n"        /* 4 */
		"events:\n"                           /* 5 */
		"  garrison: [F4]\n"                  /* 6 */
		"  scurvy-square: [A1]\n"             /* 7 */
		"  choice-8-10: [officer, officer]\n" /* 8 */
		"  remove-scurvy: [d1]\n"             /* 9 */
		"  redeploy:\n"                       /* 10 */
		"    - {base: blood, to: C3}\n"       /* 11 */
		"  weather: fine\n",                  /* 12 */
		&d, NULL);
	CK_DIAG(&d, 1, 11, "unknown response 'sometimes'");
	CK_DIAG(&d, 2, 11, "true or false");
	CK_DIAG(&d, 3, 13, "'Q9' is not a square");
	CK_DIAG(&d, 4, 18, "base 'b1' is the attacker's (a base of the defender expected");
	CK_DIAG(&d, 4, 22, "base 'cart' is the loot-carrier");
	CK_DIAG(&d, 12, 3, "unknown key 'weather' in standing events");
	diag_release(&d);
	diag_init(&d);
	parse_orders(s, "attacker", NULL,
		"events:\n"                           /* 1 */
		"  garrison: [F4]\n"                  /* 2 */
		"  scurvy-square: [A1]\n"             /* 3 */
		"  choice-8-10: [officer, officer]\n" /* 4 */
		"  remove-scurvy: [d1]\n"             /* 5 */
		"  redeploy:\n"                       /* 6 */
		"    - {base: blood, to: C3}\n",      /* 7 */
		&d, NULL);
	CK_DIAG(&d, 2, 13, "garrison is the defender's standing order");
	CK_DIAG(&d, 3, 19, "scurvy-square A1 is dockside (a square of kind open expected)");
	CK_DIAG(&d, 4, 26, "'officer' is listed twice");
	CK_DIAG(&d, 5, 19, "base 'd1' is ordinary (a scurvy base expected");
	CK_DIAG(&d, 7, 14, "base 'blood' is the commander");
	diag_release(&d);
	diag_init(&d);
	parse_orders(s, "defender", NULL,
		"events: {dockside: [A1], choice-11-12: [officer], garrison: [B2]}\n", &d, NULL);
	CK_DIAG(&d, 1, 20, "dockside is the attacker's standing order");
	CK_DIAG(&d, 1, 40, "choice-11-12 is the attacker's standing order");
	CK_DIAG(&d, 1, 62, "garrison B2 is building (a square of kind garrison-building expected)");
	diag_release(&d);
	landraid_state_free(s);
}
END_TEST

START_TEST(ignore_scurvy_option)
{
	struct landraid_state *s = state(
		"columns: 2\nrows: 2\nbases:\n"
		"  - {id: o, side: attacker, role: officer, square: A1}\n"
		"  - {id: s1, side: attacker, quality: scurvy, square: A1}\n"
		"  - {id: s2, side: attacker, quality: scurvy, square: A1}\n"
		"  - {id: d, side: defender, square: B2}\n");
	struct landraid_options o;
	struct landraid_orders *r = NULL;
	struct diag d;
	struct node *on = yaml("orders.yaml",
		"- {officer: o, ignore: [s1, s2], actions: [shoot]}\n");
	landraid_options_default(&o);
	diag_init(&d);
	ck_assert_int_eq(landraid_orders_parse(&r, s, &o, "attacker", on, NULL, &d), 0);
	landraid_orders_free(r);
	o.ignore_scurvy_one = 1;
	ck_assert_int_eq(landraid_orders_parse(&r, s, &o, "attacker", on, NULL, &d), -1);
	CK_DIAG(&d, 1, 24, "too many items in ignore");
	diag_release(&d);
	node_free(on);
	landraid_state_free(s);
}
END_TEST

/* ---- a whole turn through the rule_system hooks ------------------------------------------- */

START_TEST(resolve_whole_turn)
{
	void *st = NULL, *orders = NULL;
	struct diag d;
	struct dice dice;
	struct events ev;
	struct node *g = yaml("game.yaml", state_yaml);
	diag_init(&d);
	ck_assert_int_eq(rules_land_raid.state_parse(&st, &camp, g, &d), 0);
	struct node *on = yaml("attacker.yaml", "- officer: blood\n"
						"  actions:\n"
						"    - move: B2\n"
						"      drag: [b1, b2]\n"
						"    - plunder\n"
						"- officer: hag\n"
						"  actions: [shoot, shoot]\n");
	struct node *sn = yaml("attacker.yaml", "response: none\n");
	ck_assert_int_eq(rules_land_raid.orders_parse(&orders, &camp, st, 1, "attacker", on, sn,
				 &d),
		0);
	/* events 1+1 = 2: 3 bases land on A1 (first empty dockside);
	 * morale: B1 attacker 1 marker, blood moved? not yet: s1 (scurvy) alone with 1 marker
	 * -> 1 + 0 (commander is an officer: -1, no +1) = 0 dice; D2 defender 2 markers, an
	 * officer -> 1 die: 2;
	 * blood: move (m1 at B3 answers on 6: 1 die: 1), plunder 2 dice 1, 1;
	 * hag: shoot D2 (corner) 1 die 1; bishop's square answers: 1 die (d1): 1; extra
	 * action roll 2: fails. */
	static const int v[] = { 1, 1, 2, 1, 1, 1, 1, 1, 2 };
	dice_init_script(&dice, v, N_OF(v));
	events_init(&ev);
	struct rules_orders ro = { "attacker", orders };
	struct rules_turn t = { 1, &ro, 1, &dice, &ev, BUF_INIT, BUF_INIT };
	ck_assert_int_eq(rules_land_raid.resolve(&camp, st, &t), 0);
	ck_assert_uint_eq(dice.script_pos, N_OF(v));
	ck_assert_str_eq(ev.v[0].phase, "orders");
	ck_assert_str_eq(ev.v[1].phase, "events");
	int seen_morale = 0, seen_void = 0;
	for (size_t i = 0; i < ev.n; i++) {
		seen_morale |= strcmp(ev.v[i].phase, "morale") == 0;
		seen_void += ev.v[i].kind == EVENT_VOID;
	}
	ck_assert(seen_morale);
	ck_assert_int_eq(seen_void, 1);
	ck_assert_ptr_nonnull(strstr(buf_str(&t.summary), "the attacker's turn: event 2"));
	struct landraid_state *s = st;
	ck_assert_int_eq(landraid_count(s, landraid_square(s, "A1"), LR_ATTACKER, LR_ALL_ROLES), 3);
	ck_assert_str_eq(s->name[landraid_base_find(s, "blood")->sq], "B2");
	ck_assert_int_eq(s->plunder[landraid_square(s, "B2")], 0);
	ck_assert_int_eq(s->standing[LR_ATTACKER].response, LR_RESP_NONE);
	ck_assert_int_eq(s->cas[LR_DEFENDER][landraid_square(s, "D2")], 0);
	/* The report shows the map and the bases. */
	struct buf r = BUF_INIT;
	rules_land_raid.report(&camp, st, "defender", &r);
	ck_assert_ptr_nonnull(strstr(buf_str(&r), "important  |"));
	ck_assert_ptr_nonnull(strstr(buf_str(&r), "| blood | attacker | commander |"));
	ck_assert_ptr_nonnull(strstr(buf_str(&r), "A:2+C"));
	buf_release(&r);
	buf_release(&t.summary);
	rules_land_raid.orders_free(orders);
	rules_land_raid.state_free(st);
	dice_release(&dice);
	events_release(&ev);
	node_free(g);
	node_free(on);
	node_free(sn);
	diag_release(&d);
}
END_TEST

static Suite *landraid_io_suite(void)
{
	Suite *s = suite_create("landraid_io");
	TCase *tc = tcase_create("state");
	tcase_add_test(tc, state_round_trip);
	tcase_add_test(tc, state_errors);
	tcase_add_test(tc, state_bounds_same_at_init_and_turn);
	tcase_add_test(tc, state_deviation);
	tcase_add_test(tc, state_needs_attacker_and_defender);
	tcase_add_test(tc, options_defaults_and_errors);
	tcase_add_test(tc, turn_model);
	suite_add_tcase(s, tc);
	tc = tcase_create("orders");
	tcase_add_test(tc, orders_ok);
	tcase_add_test(tc, orders_group);
	tcase_add_test(tc, orders_empty_and_missing);
	tcase_add_test(tc, orders_errors_against_state);
	tcase_add_test(tc, orders_errors_of_form);
	tcase_add_test(tc, orders_every_error_of_an_action);
	tcase_add_test(tc, orders_limits);
	tcase_add_test(tc, standing_errors);
	tcase_add_test(tc, ignore_scurvy_option);
	suite_add_tcase(s, tc);
	tc = tcase_create("turn");
	tcase_add_test(tc, resolve_whole_turn);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(landraid_io_suite)
