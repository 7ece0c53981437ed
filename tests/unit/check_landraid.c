/* check_landraid.c — the Land Raid mechanics against the Land Raid play sheet and NOTES §000,
 * each with scripted dice: events 2–12 and their impossible cases (§18), morale (§19),
 * action counts (§17, §13), move and gather (§20), shooting and response shooting (§22),
 * fighting (§23), plunder (§24) and quality (§6). Every test checks how many dice were
 * drawn, so a mechanic rolling one die too many or too few fails. */
#include <string.h>

#include "testutil.h"
#include "core/buf.h"
#include "core/dice.h"
#include "core/events.h"
#include "rules/land-raid/landraid.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define ATT LR_ATTACKER
#define DEF LR_DEFENDER

/* ---- fixture: a 6x6 open grid, the attacker's turn ----------------------------------- */

static struct landraid_state *S;
static struct landraid_options O;
static struct dice D;
static struct events E;
static struct landraid_ctx C;

static void setup(void)
{
	S = landraid_state_new(6, 6);
	landraid_options_default(&O);
	events_init(&E);
	dice_init_script(&D, NULL, 0);
	landraid_ctx_init(&C, S, &O, &D, &E, ATT);
}

static void teardown(void)
{
	landraid_state_free(S);
	dice_release(&D);
	events_release(&E);
}

static void script(const int *v, size_t n)
{
	dice_release(&D);
	dice_init_script(&D, v, n);
}

/* The values must outlive the dice: a static array per call site. */
#define SCRIPT(...) \
	do { \
		static const int v_[] = { __VA_ARGS__ }; \
		script(v_, N_OF(v_)); \
	} while (0)

static int Q(const char *name)
{
	int sq = landraid_square(S, name);
	ck_assert_msg(sq >= 0, "bad square %s in test", name);
	return sq;
}

static struct landraid_base *add(const char *id, int side, int role, int quality, const char *sq)
{
	return landraid_base_add(S, id, side, role, quality, Q(sq));
}

static struct landraid_base *troops(const char *id, int side, int quality, const char *sq)
{
	return add(id, side, LR_TROOPS, quality, sq);
}

static struct landraid_base *officer(const char *id, int side, const char *sq)
{
	return add(id, side, LR_OFFICER, LR_ORDINARY, sq);
}

/* Where base id is now ("gone" once removed). */
static const char *where(const char *id)
{
	const struct landraid_base *b = landraid_base_find(S, id);
	return b ? S->name[b->sq] : "gone";
}

static int has_event(const char *needle)
{
	for (size_t i = 0; i < E.n; i++)
		if (strstr(E.v[i].text, needle))
			return 1;
	return 0;
}

static int voids(void)
{
	int n = 0;
	for (size_t i = 0; i < E.n; i++)
		n += E.v[i].kind == EVENT_VOID;
	return n;
}

static int purpose_has(size_t die, const char *needle)
{
	return die < D.n && strstr(D.v[die].purpose, needle) != NULL;
}

/* Every scripted die was drawn, and no more. */
static void all_drawn(void)
{
	ck_assert_uint_eq(D.script_pos, D.script_len);
	ck_assert_uint_eq(dice_count(&D), D.script_len);
}

static int count(const char *sq, int side, unsigned roles)
{
	return landraid_count(S, Q(sq), side, roles);
}

static void ids(struct landraid_ids *l, const char *a, const char *b, const char *c)
{
	memset(l, 0, sizeof(*l));
	if (a)
		landraid_ids_add(l, a);
	if (b)
		landraid_ids_add(l, b);
	if (c)
		landraid_ids_add(l, c);
}

/* ---- §18 Events ----------------------------------------------------------------------- */

START_TEST(events_roll_2d6)
{
	S->kind[Q("A6")] = LR_GARRISON;
	SCRIPT(3, 4);
	ck_assert_int_eq(landraid_events(&C), 7);
	all_drawn();
	ck_assert(purpose_has(0, "Land Raid §18 Events"));
	ck_assert_int_eq(count("A6", DEF, 1u << LR_TROOPS), 2);
}
END_TEST

START_TEST(events_2_to_5_landing)
{
	S->kind[Q("A1")] = LR_DOCKSIDE;
	S->kind[Q("B1")] = LR_DOCKSIDE;
	S->kind[Q("C1")] = LR_DOCKSIDE;
	troops("x", DEF, LR_ORDINARY, "A1");
	/* Each score 2..5 lands 3 bases in the first empty dockside square (no dice). */
	landraid_event_apply(&C, 2 + _i);
	ck_assert_int_eq(dice_count(&D), 0);
	ck_assert_int_eq(count("B1", ATT, 1u << LR_TROOPS), 3);
	ck_assert_int_eq(count("C1", ATT, LR_ALL_ROLES), 0);
	for (size_t i = 0; i < S->n_bases; i++)
		if (S->bases[i]->side == ATT)
			ck_assert_int_eq(S->bases[i]->quality, LR_ORDINARY);
}
END_TEST

START_TEST(events_2_to_5_standing_square)
{
	S->kind[Q("A1")] = LR_DOCKSIDE;
	S->kind[Q("C1")] = LR_DOCKSIDE;
	landraid_squares_add(&S->standing[ATT].dockside, Q("C1"));
	landraid_event_apply(&C, 5);
	ck_assert_int_eq(count("C1", ATT, LR_ALL_ROLES), 3);
	ck_assert_int_eq(count("A1", ATT, LR_ALL_ROLES), 0);
}
END_TEST

START_TEST(events_2_to_5_impossible)
{
	S->kind[Q("A1")] = LR_DOCKSIDE;
	S->kind[Q("B1")] = LR_DOCKSIDE;
	troops("x", DEF, LR_ORDINARY, "A1");
	troops("y", ATT, LR_ORDINARY, "B1");
	landraid_event_apply(&C, 3);
	ck_assert_int_eq(landraid_count_side(S, ATT, LR_ALL_ROLES), 1);
	ck_assert(has_event("cannot be used"));
}
END_TEST

START_TEST(events_6_redeploy)
{
	struct landraid_standing *st = &S->standing[ATT];
	troops("b1", ATT, LR_ORDINARY, "A1");
	troops("b2", ATT, LR_ORDINARY, "A1");
	troops("b3", ATT, LR_ORDINARY, "A1");
	troops("b4", ATT, LR_ORDINARY, "A1");
	officer("o1", ATT, "A1");
	troops("e1", DEF, LR_ORDINARY, "C3");
	troops("b5", ATT, LR_ORDINARY, "A1");
	const char *base[] = { "o1", "b1", "b2", "b3", "b4", "b5" };
	const char *to[] = { "B3", "B2", "C3", "D4", "E5", "F6" };
	st->redeploy = xcalloc(6, sizeof(*st->redeploy));
	for (int i = 0; i < 6; i++) {
		st->redeploy[i].base = xstrdup(base[i]);
		st->redeploy[i].sq = Q(to[i]);
	}
	st->n_redeploy = 6;
	landraid_event_apply(&C, 6);
	ck_assert_int_eq(dice_count(&D), 0);
	/* Not officers; not into the opponent's square; at most "any 3" bases. */
	ck_assert_str_eq(where("o1"), "A1");
	ck_assert_str_eq(where("b1"), "B2");
	ck_assert_str_eq(where("b2"), "A1");
	ck_assert_str_eq(where("b3"), "D4");
	ck_assert_str_eq(where("b4"), "E5");
	ck_assert_str_eq(where("b5"), "A1");
	ck_assert(has_event("moves 3 own bases"));
}
END_TEST

START_TEST(events_6_only_defender_moves_on_his_turn)
{
	struct landraid_standing *st = &S->standing[DEF];
	troops("d1", DEF, LR_ORDINARY, "F6");
	st->redeploy = xcalloc(1, sizeof(*st->redeploy));
	st->redeploy[0].base = xstrdup("d1");
	st->redeploy[0].sq = Q("E6");
	st->n_redeploy = 1;
	troops("b1", ATT, LR_ORDINARY, "A1");
	landraid_event_apply(&C, 6); /* the attacker's turn: his own bases only */
	ck_assert_str_eq(where("d1"), "F6");
	C.active = DEF;
	landraid_event_apply(&C, 6);
	ck_assert_str_eq(where("d1"), "E6");
}
END_TEST

START_TEST(events_6_impossible)
{
	officer("o1", ATT, "A1");
	landraid_event_apply(&C, 6);
	ck_assert(has_event("no event"));
	ck_assert_str_eq(where("o1"), "A1");
}
END_TEST

START_TEST(events_7_garrison)
{
	S->kind[Q("A6")] = LR_GARRISON;
	S->kind[Q("F6")] = LR_GARRISON;
	landraid_event_apply(&C, 7);
	ck_assert_int_eq(count("A6", DEF, 1u << LR_TROOPS), 2);
	/* The defender's standing order picks the building. */
	landraid_squares_add(&S->standing[DEF].garrison, Q("F6"));
	landraid_event_apply(&C, 7);
	ck_assert_int_eq(count("F6", DEF, 1u << LR_TROOPS), 2);
	/* Occupied by the opponent: the next free one, else impossible. */
	troops("a", ATT, LR_ORDINARY, "F6");
	landraid_event_apply(&C, 7);
	ck_assert_int_eq(count("A6", DEF, 1u << LR_TROOPS), 4);
	troops("b", ATT, LR_ORDINARY, "A6");
	landraid_event_apply(&C, 7);
	ck_assert_int_eq(landraid_count_side(S, DEF, 1u << LR_TROOPS), 6);
	ck_assert(has_event("no garrison building free"));
	ck_assert_int_eq(dice_count(&D), 0);
}
END_TEST

START_TEST(events_7_maximum_8)
{
	char id[16];
	S->kind[Q("A6")] = LR_GARRISON;
	for (int i = 0; i < 7; i++) {
		snprintf(id, sizeof(id), "d%d", i);
		troops(id, DEF, LR_ORDINARY, "F1");
	}
	officer("off", DEF, "F2"); /* officers are not troop bases */
	landraid_event_apply(&C, 7);
	ck_assert_int_eq(count("A6", DEF, LR_ALL_ROLES), 1);
	landraid_event_apply(&C, 7);
	ck_assert_int_eq(count("A6", DEF, LR_ALL_ROLES), 1);
	ck_assert(has_event("maximum 8"));
}
END_TEST

static void full_allowances(void)
{
	officer("ao", ATT, "A1");
	officer("do", DEF, "F6");
	S->allowance[ATT] = 1;
	S->allowance[DEF] = 1;
}

START_TEST(events_8_10_defender_scurvy)
{
	full_allowances();
	S->kind[Q("A2")] = LR_DOCKSIDE;
	SCRIPT(2, 5);
	landraid_event_apply(&C, 8 + _i);
	all_drawn();
	ck_assert(purpose_has(0, "attacker's D6"));
	ck_assert(purpose_has(1, "defender's D6"));
	/* Officer impossible (allowance), so the defender's second choice: an open square
	 * without attackers, in A1 order: A1 has an attacker, A2 is dockside. */
	ck_assert_int_eq(count("A3", DEF, 1u << LR_TROOPS), 3);
	for (size_t i = 0; i < S->n_bases; i++)
		if (S->bases[i]->sq == Q("A3"))
			ck_assert_int_eq(S->bases[i]->quality, LR_SCURVY);
}
END_TEST

START_TEST(events_8_10_tie_then_attacker_officer)
{
	officer("ao", ATT, "A1");
	S->allowance[ATT] = 2;
	landraid_squares_add(&S->standing[ATT].officer_square, Q("A1")); /* not empty */
	landraid_squares_add(&S->standing[ATT].officer_square, Q("C3"));
	SCRIPT(4, 4, 6, 1);
	landraid_event_apply(&C, 9);
	all_drawn();
	ck_assert(has_event("both roll 4"));
	ck_assert_int_eq(count("C3", ATT, 1u << LR_OFFICER), 1);
	ck_assert_int_eq(landraid_count_side(S, DEF, LR_ALL_ROLES), 0);
}
END_TEST

START_TEST(events_8_10_impossible)
{
	full_allowances();
	for (int sq = 0; sq < S->n_squares; sq++)
		S->kind[sq] = LR_DOCKSIDE;
	landraid_event_apply(&C, 10);
	ck_assert_int_eq(dice_count(&D), 0); /* no roll-off for an impossible event */
	ck_assert(has_event("no event"));
	ck_assert_int_eq(S->n_bases, 2);
}
END_TEST

START_TEST(events_8_10_attacker_will_not_give_scurvy)
{
	full_allowances();
	SCRIPT(5, 3);
	landraid_event_apply(&C, 8);
	all_drawn();
	ck_assert(has_event("none of the attacker's choices"));
	ck_assert_int_eq(S->n_bases, 2);
}
END_TEST

START_TEST(events_11_12_remove_scurvy)
{
	troops("s1", DEF, LR_SCURVY, "A1");
	troops("s2", DEF, LR_SCURVY, "B2");
	troops("s3", DEF, LR_SCURVY, "C3");
	troops("o1", DEF, LR_ORDINARY, "C3");
	landraid_ids_add(&S->standing[ATT].remove_scurvy, "s3");
	landraid_event_apply(&C, 11 + _i);
	ck_assert_int_eq(dice_count(&D), 0);
	ck_assert_str_eq(where("s3"), "gone");
	ck_assert_str_eq(where("s1"), "gone"); /* then by id */
	ck_assert_str_eq(where("s2"), "B2");
	ck_assert_str_eq(where("o1"), "C3");
}
END_TEST

START_TEST(events_11_12_one_scurvy)
{
	troops("s1", DEF, LR_SCURVY, "A1");
	add("lc", DEF, LR_LOOT_CARRIER, LR_SCURVY, "A1");
	landraid_event_apply(&C, 12);
	ck_assert_str_eq(where("s1"), "gone");
	ck_assert_str_eq(where("lc"), "A1");
	ck_assert(has_event("removes 1 scurvy defender base"));
}
END_TEST

START_TEST(events_11_12_officer_or_nothing)
{
	officer("ao", ATT, "A1");
	S->allowance[ATT] = 2;
	landraid_event_apply(&C, 11);
	ck_assert_int_eq(landraid_count_side(S, ATT, LR_OFFICERS), 2);
	landraid_event_apply(&C, 12); /* allowance reached, no scurvy: no event */
	ck_assert_int_eq(landraid_count_side(S, ATT, LR_OFFICERS), 2);
	ck_assert(has_event("no event this turn"));
}
END_TEST

/* ---- §19 Morale ------------------------------------------------------------------------- */

START_TEST(morale_on_their_own)
{
	troops("d1", DEF, LR_ORDINARY, "C3");
	troops("d2", DEF, LR_SCURVY, "C3");
	troops("d3", DEF, LR_ORDINARY, "C3");
	S->cas[DEF][Q("C3")] = 2;
	SCRIPT(5, 1, 6); /* 2 markers + 1 on their own = 3 dice */
	ck_assert_int_eq(landraid_morale_square(&C, Q("C3"), DEF), 2);
	all_drawn();
	ck_assert(purpose_has(0, "Land Raid §19 Morale"));
	ck_assert_str_eq(where("d2"), "gone"); /* the worst base flees first */
	ck_assert_str_eq(where("d1"), "gone");
	ck_assert_str_eq(where("d3"), "C3");
	ck_assert_int_eq(S->cas[DEF][Q("C3")], 0);
}
END_TEST

START_TEST(morale_officer_one_less)
{
	officer("o", DEF, "C3");
	troops("d1", DEF, LR_ORDINARY, "C3");
	troops("d2", DEF, LR_ORDINARY, "C3");
	S->cas[DEF][Q("C3")] = 2;
	SCRIPT(5); /* 2 - 1 officer = 1 die */
	ck_assert_int_eq(landraid_morale_square(&C, Q("C3"), DEF), 1);
	all_drawn();
	ck_assert_str_eq(where("o"), "C3");
	ck_assert_int_eq(count("C3", DEF, LR_NON_OFFICERS), 1);
}
END_TEST

START_TEST(morale_battle_hardened)
{
	troops("d1", DEF, LR_HARDENED, "C3");
	troops("d2", DEF, LR_ORDINARY, "C3");
	S->cas[DEF][Q("C3")] = 2;
	SCRIPT(4, 4); /* 2 + 1 alone - 1 battle hardened */
	ck_assert_int_eq(landraid_morale_square(&C, Q("C3"), DEF), 0);
	all_drawn();
}
END_TEST

START_TEST(morale_max_three)
{
	troops("d1", DEF, LR_ORDINARY, "C3");
	S->cas[DEF][Q("C3")] = 5;
	SCRIPT(1, 2, 3, 4); /* min(5, 3) + 1 alone = 4 dice */
	ck_assert_int_eq(landraid_morale_square(&C, Q("C3"), DEF), 0);
	all_drawn();
	ck_assert_int_eq(S->cas[DEF][Q("C3")], 0);
}
END_TEST

START_TEST(morale_no_dice)
{
	officer("o", DEF, "C3");
	troops("d1", DEF, LR_ORDINARY, "C3");
	S->cas[DEF][Q("C3")] = 1;
	landraid_morale_square(&C, Q("C3"), DEF); /* 1 - 1 officer = 0 dice */
	ck_assert_int_eq(dice_count(&D), 0);
	ck_assert_int_eq(S->cas[DEF][Q("C3")], 0);
	ck_assert_str_eq(where("d1"), "C3");
}
END_TEST

/* Issue 9 item 4 — §19 keeps officers only out of the opponent's removal "from anywhere":
 * an officer alone in the square flees on a 5-6 like any base (3 markers, -1 officer: 2
 * dice). Today's reading made the opponent roll instead. */
START_TEST(morale_lone_officer_flees)
{
	officer("o", DEF, "C3");
	troops("x1", DEF, LR_ORDINARY, "A1");
	S->cas[DEF][Q("C3")] = 3;
	SCRIPT(4, 1); /* 4: no fail, he stays */
	landraid_morale_square(&C, Q("C3"), DEF);
	all_drawn();
	ck_assert_str_eq(where("o"), "C3");
	S->cas[DEF][Q("C3")] = 3;
	SCRIPT(5, 1); /* 5: he flees, no casualty marker, no opponent roll */
	landraid_morale_square(&C, Q("C3"), DEF);
	all_drawn();
	ck_assert_str_eq(where("o"), "gone");
	ck_assert_str_eq(where("x1"), "A1");
	ck_assert(has_event("o (ordinary officer) flees"));
	ck_assert_int_eq(S->cas[DEF][Q("C3")], 0);
}
END_TEST

/* Option morale-officers: never — the officer stays, the opponent rolls for a base. */
START_TEST(morale_no_base_left_opponent_rolls)
{
	O.morale_officers = LR_MORALE_OFFICERS_NEVER;
	officer("o", DEF, "C3");
	troops("x1", DEF, LR_ORDINARY, "A1");
	troops("x2", DEF, LR_HARDENED, "B1");
	add("lc", DEF, LR_LOOT_CARRIER, LR_HARDENED, "B2");
	S->cas[DEF][Q("C3")] = 2;
	SCRIPT(6, 4); /* fail; the attacker's 4 takes a base */
	landraid_morale_square(&C, Q("C3"), DEF);
	all_drawn();
	ck_assert(purpose_has(1, "4-6 removes"));
	ck_assert_str_eq(where("x2"), "gone"); /* his best pick: battle hardened */
	ck_assert_str_eq(where("lc"), "B2");   /* never a plunder carrier */
	ck_assert_str_eq(where("o"), "C3");    /* nor an officer */

	S->cas[DEF][Q("C3")] = 2;
	landraid_ids_add(&S->standing[ATT].morale_removal, "x1");
	SCRIPT(5, 3); /* 1-3: nothing */
	landraid_morale_square(&C, Q("C3"), DEF);
	all_drawn();
	ck_assert_str_eq(where("x1"), "A1");
	S->cas[DEF][Q("C3")] = 2;
	SCRIPT(5, 6);
	landraid_morale_square(&C, Q("C3"), DEF);
	all_drawn();
	ck_assert_str_eq(where("x1"), "gone"); /* his standing order */
}
END_TEST

START_TEST(morale_commander_reroll)
{
	add("cmd", DEF, LR_COMMANDER, LR_ORDINARY, "C3");
	troops("d1", DEF, LR_ORDINARY, "C3");
	troops("d2", DEF, LR_ORDINARY, "C3");
	S->cas[DEF][Q("C3")] = 3;
	SCRIPT(5, 6, 1, 5); /* 3 - 1 = 2 dice, both fail, re-rolled */
	ck_assert_int_eq(landraid_morale_square(&C, Q("C3"), DEF), 1);
	all_drawn();
	ck_assert(purpose_has(2, "§13 Commander"));
	ck_assert_str_eq(where("d1"), "gone");
	ck_assert_str_eq(where("d2"), "C3");

	S->cas[DEF][Q("C3")] = 3;
	SCRIPT(5, 2, 1); /* only the failed die is re-rolled */
	ck_assert_int_eq(landraid_morale_square(&C, Q("C3"), DEF), 0);
	all_drawn();

	O.morale_reroll_all = 1;
	S->cas[DEF][Q("C3")] = 3;
	SCRIPT(5, 2, 1, 6); /* option: all dice re-rolled */
	ck_assert_int_eq(landraid_morale_square(&C, Q("C3"), DEF), 1);
	all_drawn();
}
END_TEST

START_TEST(morale_fails_beyond_bases)
{
	troops("d1", DEF, LR_ORDINARY, "C3");
	S->cas[DEF][Q("C3")] = 1;
	SCRIPT(6, 6, 1);
	ck_assert_int_eq(landraid_morale_square(&C, Q("C3"), DEF), 1);
	all_drawn();
	/* Two fails, one base: the second fail has no base left, so the opponent rolls (no
	 * commander: no re-roll die in between). */
	ck_assert(purpose_has(2, "4-6 removes"));
}
END_TEST

START_TEST(morale_every_square)
{
	troops("a1", ATT, LR_ORDINARY, "A1");
	troops("d1", DEF, LR_ORDINARY, "C3");
	S->cas[DEF][Q("C3")] = 1;
	S->cas[ATT][Q("A1")] = 1;
	SCRIPT(1, 1, 1, 1);
	landraid_morale(&C);
	all_drawn();
	ck_assert(purpose_has(0, "attacker at A1"));
	ck_assert(purpose_has(2, "defender at C3"));
	ck_assert_int_eq(S->cas[ATT][Q("A1")] + S->cas[DEF][Q("C3")], 0);
}
END_TEST

/* ---- §17 actions, §13 commander --------------------------------------------------------- */

static struct landraid_officer_order moves(const char *who, const char *a, const char *b,
	const char *c)
{
	struct landraid_officer_order oo;
	memset(&oo, 0, sizeof(oo));
	oo.officer = (char *)who;
	const char *to[3] = { a, b, c };
	for (int i = 0; i < 3 && to[i]; i++) {
		oo.actions[i].kind = LR_MOVE;
		oo.actions[i].sq = Q(to[i]);
		oo.n_actions++;
	}
	return oo;
}

START_TEST(actions_extra_roll)
{
	officer("o1", ATT, "B2");
	struct landraid_officer_order oo = moves("o1", "B3", "B4", "B5");
	SCRIPT(3, 2); /* action 2 on a 3; action 3 fails on a 2 */
	landraid_officer_actions(&C, &oo, 1);
	all_drawn();
	ck_assert(purpose_has(0, "§17 Turn sequence"));
	ck_assert(purpose_has(0, "needs 3-6"));
	ck_assert_str_eq(where("o1"), "B4");
	ck_assert_int_eq(voids(), 1);
}
END_TEST

START_TEST(actions_failed_roll_ends_turn)
{
	officer("o1", ATT, "B2");
	struct landraid_officer_order oo = moves("o1", "B3", "B4", "B5");
	SCRIPT(1);
	landraid_officer_actions(&C, &oo, 1);
	all_drawn(); /* no roll for action 3 */
	ck_assert_str_eq(where("o1"), "B3");
	ck_assert_int_eq(voids(), 2);
	ck_assert_int_eq(E.v[E.n - 1].order_index, 1);
}
END_TEST

START_TEST(actions_one_without_roll)
{
	officer("o1", ATT, "B2");
	struct landraid_officer_order oo = moves("o1", "B3", NULL, NULL);
	landraid_officer_actions(&C, &oo, 1);
	ck_assert_int_eq(dice_count(&D), 0);
	ck_assert_str_eq(where("o1"), "B3");
}
END_TEST

START_TEST(actions_commander_two_then_roll)
{
	add("cmd", ATT, LR_COMMANDER, LR_ORDINARY, "B2");
	struct landraid_officer_order two = moves("cmd", "B3", "B4", NULL);
	landraid_officer_actions(&C, &two, 1);
	ck_assert_int_eq(dice_count(&D), 0);
	ck_assert_str_eq(where("cmd"), "B4");
	struct landraid_officer_order three = moves("cmd", "B5", "B6", "C6");
	SCRIPT(6);
	landraid_officer_actions(&C, &three, 1);
	all_drawn();
	ck_assert_str_eq(where("cmd"), "C6");
}
END_TEST

START_TEST(actions_dead_officer)
{
	struct landraid_officer_order oo = moves("nobody", "B3", NULL, NULL);
	landraid_officer_actions(&C, &oo, 2);
	ck_assert_int_eq(voids(), 1);
	ck_assert_int_eq(E.v[0].order_index, 2);
	ck_assert_str_eq(E.v[0].player, "attacker");
}
END_TEST

/* ---- §20 Move --------------------------------------------------------------------------- */

START_TEST(move_drags_listed_bases)
{
	struct landraid_ids drag;
	officer("o1", ATT, "B2");
	troops("b1", ATT, LR_ORDINARY, "B2");
	troops("b2", ATT, LR_ORDINARY, "B2");
	troops("b3", ATT, LR_ORDINARY, "B2");
	troops("far", ATT, LR_ORDINARY, "E5");
	ids(&drag, "b1", "b2", "far");
	ck_assert_int_eq(landraid_move(&C, landraid_base_find(S, "o1"), Q("C2"), &drag, 1),
		LR_DONE);
	ck_assert_str_eq(where("o1"), "C2");
	ck_assert_str_eq(where("b1"), "C2");
	ck_assert_str_eq(where("b2"), "C2");
	ck_assert_str_eq(where("b3"), "B2");
	ck_assert_str_eq(where("far"), "E5"); /* not in his square: not dragged */
	ck_assert(has_event("could not drag far"));
	landraid_ids_release(&drag);
}
END_TEST

START_TEST(move_drags_at_most_four)
{
	struct landraid_ids drag = { NULL, 0 };
	char id[16];
	officer("o1", ATT, "B2");
	for (int i = 0; i < 5; i++) {
		snprintf(id, sizeof(id), "b%d", i);
		troops(id, ATT, LR_ORDINARY, "B2");
		landraid_ids_add(&drag, id);
	}
	landraid_move(&C, landraid_base_find(S, "o1"), Q("B3"), &drag, 1);
	ck_assert_int_eq(count("B3", ATT, LR_NON_OFFICERS), 4);
	ck_assert_str_eq(where("b4"), "B2");
	landraid_ids_release(&drag);
}
END_TEST

START_TEST(move_blocked_is_void)
{
	struct landraid_ids drag;
	officer("o1", ATT, "B2");
	troops("b1", ATT, LR_ORDINARY, "B2");
	officer("enemy", DEF, "C2");
	ids(&drag, "b1", NULL, NULL);
	ck_assert_int_eq(landraid_move(&C, landraid_base_find(S, "o1"), Q("C2"), &drag, 3),
		LR_VOID);
	ck_assert_str_eq(where("o1"), "B2");
	ck_assert_str_eq(where("b1"), "B2");
	ck_assert_int_eq(voids(), 1);
	ck_assert_int_eq(E.v[0].order_index, 3);
	ck_assert(strstr(E.v[0].text, "empty of opponents") != NULL);
	/* Not face-touching (diagonal) is void too. */
	ck_assert_int_eq(landraid_move(&C, landraid_base_find(S, "o1"), Q("C3"), NULL, 3), LR_VOID);
	landraid_ids_release(&drag);
}
END_TEST

START_TEST(move_triggers_response_on_face)
{
	struct landraid_ids drag;
	officer("o1", ATT, "B2");
	troops("b1", ATT, LR_ORDINARY, "B2");
	troops("e1", DEF, LR_ORDINARY, "D2"); /* face-touching C2 */
	troops("e2", DEF, LR_ORDINARY, "D2");
	troops("e3", DEF, LR_ORDINARY, "D3"); /* corner of C2: no response */
	ids(&drag, "b1", NULL, NULL);
	SCRIPT(6, 5, 3); /* 6 hits, 5 does not (response); save 3 */
	landraid_move(&C, landraid_base_find(S, "o1"), Q("C2"), &drag, 1);
	all_drawn();
	ck_assert(purpose_has(0, "defender response (enemy on their face)"));
	ck_assert(purpose_has(0, "hits on 6"));
	ck_assert_str_eq(where("b1"), "gone"); /* troops take hits before the officer */
	ck_assert_str_eq(where("o1"), "C2");
	ck_assert_int_eq(S->cas[ATT][Q("C2")], 1);
	landraid_ids_release(&drag);
}
END_TEST

START_TEST(move_response_standing_orders)
{
	officer("o1", ATT, "B2");
	troops("e1", DEF, LR_ORDINARY, "D2");
	S->standing[DEF].response = LR_RESP_NONE;
	landraid_move(&C, landraid_base_find(S, "o1"), Q("C2"), NULL, 1);
	ck_assert_int_eq(dice_count(&D), 0);
	S->standing[DEF].response = LR_RESP_ON_SHOT;
	landraid_move(&C, landraid_base_find(S, "o1"), Q("C3"), NULL, 1);
	landraid_move(&C, landraid_base_find(S, "o1"), Q("C2"), NULL, 1);
	ck_assert_int_eq(dice_count(&D), 0);
	S->standing[DEF].response = LR_RESP_ON_MOVE;
	SCRIPT(1);
	landraid_move(&C, landraid_base_find(S, "o1"), Q("C3"), NULL, 1);
	landraid_move(&C, landraid_base_find(S, "o1"), Q("C2"), NULL, 1);
	all_drawn();
}
END_TEST

/* ---- §20 Gather ------------------------------------------------------------------------- */

START_TEST(gather_brings_bases)
{
	officer("o1", ATT, "C3");
	troops("g1", ATT, LR_ORDINARY, "C2");
	troops("g2", ATT, LR_HARDENED, "D3");
	troops("g3", ATT, LR_SCURVY, "B3");
	troops("g4", ATT, LR_HARDENED, "D4"); /* corner: not a facing square */
	SCRIPT(5, 2, 6);
	ck_assert_int_eq(landraid_gather(&C, landraid_base_find(S, "o1"), NULL, 1), LR_DONE);
	all_drawn();
	ck_assert(purpose_has(0, "Land Raid §20 Gather"));
	ck_assert_str_eq(where("g2"), "C3"); /* best first by default */
	ck_assert_str_eq(where("g1"), "C3");
	ck_assert_str_eq(where("g3"), "B3");
	ck_assert_str_eq(where("g4"), "D4");
	ck_assert_int_eq(C.gather_actions, 1);
}
END_TEST

START_TEST(gather_picks_first)
{
	struct landraid_ids picks;
	officer("o1", ATT, "C3");
	troops("g1", ATT, LR_ORDINARY, "C2");
	troops("g2", ATT, LR_HARDENED, "D3");
	troops("g3", ATT, LR_SCURVY, "B3");
	ids(&picks, "g3", NULL, NULL);
	SCRIPT(6, 6, 1);
	landraid_gather(&C, landraid_base_find(S, "o1"), &picks, 1);
	all_drawn();
	ck_assert_str_eq(where("g3"), "C3");
	ck_assert_str_eq(where("g2"), "C3");
	ck_assert_str_eq(where("g1"), "C2");
	landraid_ids_release(&picks);
}
END_TEST

START_TEST(gather_void_cases)
{
	officer("o1", ATT, "C3");
	troops("far", ATT, LR_ORDINARY, "F6");
	ck_assert_int_eq(landraid_gather(&C, landraid_base_find(S, "o1"), NULL, 1), LR_VOID);
	troops("g1", ATT, LR_ORDINARY, "C2");
	C.gather_actions = 3; /* §20 Gather: max 3 */
	ck_assert_int_eq(landraid_gather(&C, landraid_base_find(S, "o1"), NULL, 1), LR_VOID);
	ck_assert_int_eq(dice_count(&D), 0);
	ck_assert_int_eq(voids(), 2);
}
END_TEST

/* ---- §22 Shooting ----------------------------------------------------------------------- */

static struct landraid_base *shooters(int n, int quality)
{
	char id[16];
	struct landraid_base *o = officer("o1", ATT, "C3");
	for (int i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "s%d", i + 1);
		troops(id, ATT, quality, "C3");
	}
	return o;
}

START_TEST(shoot_hits_saves_and_response)
{
	struct landraid_base *o = shooters(3, LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	troops("t2", DEF, LR_ORDINARY, "D3");
	/* 3 dice: 5, 6 hit, 4 misses; saves 4 (saved) then 3 (killed); t2 answers: 1. */
	SCRIPT(5, 6, 4, 4, 3, 1);
	ck_assert_int_eq(landraid_shoot(&C, o, NULL, -1, 1), LR_DONE);
	all_drawn();
	ck_assert(purpose_has(0, "Land Raid §22 Shooting: o1's group (ordinary) from C3 (3 "
				 "bases) at D3, hits on 5-6"));
	ck_assert(purpose_has(3, "saves on 4-6"));
	ck_assert(purpose_has(5, "defender response (shot at)"));
	ck_assert_str_eq(where("t1"), "gone");
	ck_assert_str_eq(where("t2"), "D3");
	ck_assert_int_eq(S->cas[DEF][Q("D3")], 1);
	ck_assert_int_eq(C.shoot_actions, 1);
}
END_TEST

START_TEST(shoot_reroll_battle_hardened)
{
	struct landraid_base *o = shooters(3, LR_HARDENED);
	troops("t1", DEF, LR_ORDINARY, "D3");
	S->standing[DEF].response = LR_RESP_NONE;
	/* 1, 2 miss, 5 hits; the two misses re-rolled once: 6 hits, 1 stays a miss. */
	SCRIPT(1, 2, 5, 6, 1, 4, 4);
	landraid_shoot(&C, o, NULL, -1, 1);
	all_drawn();
	ck_assert(purpose_has(3, "re-rolls 2 misses (battle hardened)"));
	ck_assert(purpose_has(5, "save for t1"));
	ck_assert_str_eq(where("t1"), "D3");
}
END_TEST

START_TEST(shoot_reroll_needs_all_hardened)
{
	/* §6: with an officer the group takes the worst quality: no re-roll. */
	struct landraid_base *o = shooters(2, LR_HARDENED);
	troops("s9", ATT, LR_ORDINARY, "C3");
	troops("t1", DEF, LR_ORDINARY, "D3");
	S->standing[DEF].response = LR_RESP_NONE;
	SCRIPT(1, 1, 1);
	landraid_shoot(&C, o, NULL, -1, 1);
	all_drawn();
}
END_TEST

START_TEST(shoot_reroll_target_more_than_5)
{
	char id[16];
	struct landraid_base *o = shooters(2, LR_ORDINARY);
	S->standing[DEF].response = LR_RESP_NONE;
	for (int i = 0; i < 5; i++) {
		snprintf(id, sizeof(id), "t%d", i);
		troops(id, DEF, LR_ORDINARY, "D3");
	}
	SCRIPT(1, 1); /* 5 bases: no re-roll */
	landraid_shoot(&C, o, NULL, -1, 1);
	all_drawn();
	troops("t9", DEF, LR_ORDINARY, "D3");
	SCRIPT(1, 1, 1, 2); /* 6 bases: misses re-rolled once */
	landraid_shoot(&C, o, NULL, -1, 1);
	all_drawn();
	ck_assert(purpose_has(2, "more than 5 bases"));
}
END_TEST

START_TEST(shoot_saves_better)
{
	struct landraid_base *o = shooters(1, LR_ORDINARY);
	S->standing[DEF].response = LR_RESP_NONE;
	troops("t1", DEF, LR_ORDINARY, "D3");
	SCRIPT(6, 3); /* open: 3 fails the 4+ save */
	landraid_shoot(&C, o, NULL, -1, 1);
	all_drawn();
	ck_assert_str_eq(where("t1"), "gone");

	troops("t2", DEF, LR_ORDINARY, "D3");
	S->kind[Q("D3")] = LR_BUILDING;
	SCRIPT(6, 3); /* building: 3+ */
	landraid_shoot(&C, o, NULL, -1, 1);
	all_drawn();
	ck_assert(purpose_has(1, "saves on 3-6"));
	ck_assert_str_eq(where("t2"), "D3");
}
END_TEST

START_TEST(shoot_saves_officer)
{
	struct landraid_base *o = shooters(1, LR_ORDINARY);
	S->standing[DEF].response = LR_RESP_NONE;
	officer("ot", DEF, "D3");
	SCRIPT(6, 3); /* officer in the open: 3+ */
	landraid_shoot(&C, o, NULL, -1, 1);
	all_drawn();
	ck_assert_str_eq(where("ot"), "D3");
	S->kind[Q("D3")] = LR_BARRACKS;
	SCRIPT(6, 2); /* officer in a building: 2+ */
	landraid_shoot(&C, o, NULL, -1, 1);
	all_drawn();
	ck_assert(purpose_has(1, "saves on 2-6"));
	ck_assert_str_eq(where("ot"), "D3");
	O.better_save = LR_SAVE_ONCE; /* option: one pip at most */
	SCRIPT(6, 2);
	landraid_shoot(&C, o, NULL, -1, 1);
	all_drawn();
	ck_assert(purpose_has(1, "saves on 3-6"));
	ck_assert_str_eq(where("ot"), "gone");
}
END_TEST

START_TEST(shoot_saves_option_none)
{
	struct landraid_base *o = shooters(1, LR_ORDINARY);
	S->standing[DEF].response = LR_RESP_NONE;
	officer("ot", DEF, "D3");
	S->kind[Q("D3")] = LR_IMPORTANT;
	O.better_save = LR_SAVE_NONE;
	SCRIPT(5, 3);
	landraid_shoot(&C, o, NULL, -1, 1);
	all_drawn();
	ck_assert(purpose_has(1, "saves on 4-6"));
	ck_assert_str_eq(where("ot"), "gone");
}
END_TEST

START_TEST(shoot_commander_three_markers)
{
	struct landraid_base *o = shooters(1, LR_ORDINARY);
	add("cmd", DEF, LR_COMMANDER, LR_ORDINARY, "D3");
	SCRIPT(6, 1);
	landraid_shoot(&C, o, NULL, -1, 1);
	all_drawn();
	ck_assert_str_eq(where("cmd"), "gone");
	ck_assert_int_eq(S->cas[DEF][Q("D3")], 3);
}
END_TEST

START_TEST(shoot_response_hits_on_six)
{
	troops("r1", DEF, LR_SCURVY, "D3"); /* scurvy may response-shoot (§6) */
	troops("r2", DEF, LR_ORDINARY, "D3");
	troops("a1", ATT, LR_ORDINARY, "C3");
	SCRIPT(5, 6, 2);
	ck_assert_int_eq(landraid_response(&C, Q("D3"), DEF, Q("C3"), LR_TRIGGER_SHOT), 1);
	all_drawn();
	ck_assert_str_eq(where("a1"), "gone");
	/* Without an officer each base keeps its own quality: only battle-hardened dice are
	 * re-rolled. */
	troops("r3", DEF, LR_HARDENED, "D3");
	troops("a2", ATT, LR_ORDINARY, "C3");
	SCRIPT(1, 1, 1, 1); /* r1 r2 r3 dice, then r3's re-roll */
	landraid_response(&C, Q("D3"), DEF, Q("C3"), LR_TRIGGER_SHOT);
	all_drawn();
	ck_assert(purpose_has(3, "re-rolls 1 miss"));
}
END_TEST

START_TEST(shoot_target_priority)
{
	struct landraid_base *o = shooters(1, LR_ORDINARY);
	int cat;
	S->standing[DEF].response = LR_RESP_NONE;
	troops("far", DEF, LR_ORDINARY, "E3"); /* within 3 */
	ck_assert_int_eq(landraid_shoot_target(S, Q("C3"), ATT, &cat), Q("E3"));
	ck_assert_int_eq(cat, 3);
	troops("diag", DEF, LR_ORDINARY, "D4"); /* corner */
	ck_assert_int_eq(landraid_shoot_target(S, Q("C3"), ATT, &cat), Q("D4"));
	ck_assert_int_eq(cat, 2);
	troops("face", DEF, LR_ORDINARY, "C4"); /* face */
	ck_assert_int_eq(landraid_shoot_target(S, Q("C3"), ATT, &cat), Q("C4"));
	ck_assert_int_eq(cat, 1);
	ck_assert(!landraid_shoot_legal(S, Q("C3"), ATT, Q("D4")));
	ck_assert(landraid_shoot_legal(S, Q("C3"), ATT, Q("C4")));
	/* Naming a lower priority target is void, no dice. */
	ck_assert_int_eq(landraid_shoot(&C, o, NULL, Q("E3"), 1), LR_VOID);
	ck_assert_int_eq(dice_count(&D), 0);
	ck_assert(has_event("come first"));
	SCRIPT(1);
	ck_assert_int_eq(landraid_shoot(&C, o, NULL, -1, 1), LR_DONE);
	all_drawn();
	ck_assert(purpose_has(0, "at C4"));
}
END_TEST

START_TEST(shoot_out_of_range)
{
	officer("o1", ATT, "A1");
	troops("s1", ATT, LR_ORDINARY, "A1");
	troops("t1", DEF, LR_ORDINARY, "E5"); /* Chebyshev 4 */
	ck_assert_int_eq(landraid_shoot(&C, landraid_base_find(S, "o1"), NULL, -1, 1), LR_VOID);
	ck_assert(has_event("no opponents within 3 squares"));
	troops("t2", DEF, LR_ORDINARY, "D4"); /* Chebyshev 3 */
	ck_assert_int_eq(landraid_shoot_target(S, Q("A1"), ATT, NULL), Q("D4"));
}
END_TEST

START_TEST(shoot_max_three)
{
	struct landraid_base *o = shooters(1, LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	C.shoot_actions = 3;
	ck_assert_int_eq(landraid_shoot(&C, o, NULL, -1, 1), LR_VOID);
	ck_assert_int_eq(dice_count(&D), 0);
	ck_assert(has_event("max 3"));
}
END_TEST

START_TEST(shoot_scurvy_and_ignore)
{
	struct landraid_ids ign;
	struct landraid_base *o = shooters(2, LR_ORDINARY);
	troops("sc", ATT, LR_SCURVY, "C3");
	add("lc", ATT, LR_LOOT_CARRIER, LR_HARDENED, "C3");
	troops("t1", DEF, LR_ORDINARY, "D3");
	S->standing[DEF].response = LR_RESP_NONE;
	ck_assert_int_eq(landraid_shoot(&C, o, NULL, -1, 1), LR_VOID);
	ck_assert(has_event("response shooting only"));
	ids(&ign, "sc", NULL, NULL);
	SCRIPT(1, 1); /* 2 troop bases; not the loot carrier */
	ck_assert_int_eq(landraid_shoot(&C, o, &ign, -1, 1), LR_DONE);
	all_drawn();
	landraid_ids_release(&ign);
}
END_TEST

/* ---- §23 Fighting ----------------------------------------------------------------------- */

static struct landraid_base *assault_party(int quality)
{
	struct landraid_base *o = officer("o1", ATT, "C3");
	troops("a1", ATT, quality, "C3");
	troops("a2", ATT, quality, "C3");
	return o;
}

START_TEST(fight_dice_counts)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	troops("t2", DEF, LR_ORDINARY, "D3");
	/* 2 x (2 bases + officer) + 2 officer + 2 assaulter = 10; target 2 x 2 = 4; no
	 * sixes: the target wins and rolls 2D6 extra hits. */
	SCRIPT(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3);
	ck_assert_int_eq(landraid_fight(&C, o, NULL, Q("D3"), NULL, 1), LR_DONE);
	all_drawn();
	ck_assert(purpose_has(0, "Land Raid §23 Fighting"));
	ck_assert(purpose_has(0, "10D6"));
	ck_assert(purpose_has(10, "4D6"));
	ck_assert(purpose_has(14, "extra hits"));
	ck_assert(has_event("the targets win"));
	ck_assert_str_eq(where("o1"), "C3");
	ck_assert_str_eq(where("t1"), "D3");
}
END_TEST

START_TEST(fight_building_bonus)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	officer("ot", DEF, "D3");
	troops("t1", DEF, LR_ORDINARY, "D3");
	troops("t2", DEF, LR_ORDINARY, "D3");
	troops("t3", DEF, LR_ORDINARY, "D3");
	S->kind[Q("D3")] = LR_IMPORTANT;
	/* Target: 2 x 4 + 2 officer + 3 (max) = 13 dice. */
	SCRIPT(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(purpose_has(10, "13D6"));
	ck_assert(purpose_has(10, "+3 important building/barracks"));
}
END_TEST

START_TEST(fight_barracks_bonus_per_base)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	S->kind[Q("D3")] = LR_BARRACKS;
	/* 2 x 1 + 1 = 3 target dice; plain buildings give no bonus. */
	SCRIPT(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(purpose_has(10, "3D6"));
}
END_TEST

START_TEST(fight_plain_building_no_bonus)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	S->kind[Q("D3")] = LR_BUILDING;
	SCRIPT(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(purpose_has(10, "2D6"));
}
END_TEST

START_TEST(fight_better_quality_rerolls_and_kill_all)
{
	struct landraid_base *o = assault_party(LR_HARDENED);
	troops("t1", DEF, LR_ORDINARY, "D3");
	troops("t2", DEF, LR_ORDINARY, "D3");
	/* Assault 10 dice (one 6), target 4 dice; the better side re-rolls its 9 non-6s
	 * (one more 6). Two casualties kill all targets: no extra-hit dice (none left). */
	SCRIPT(6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 6, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(purpose_has(14, "re-rolls 9 non-6"));
	ck_assert_str_eq(where("t1"), "gone");
	ck_assert_str_eq(where("t2"), "gone");
	ck_assert_str_eq(where("o1"), "D3"); /* the winners enter the square */
	ck_assert_str_eq(where("a1"), "D3");
	ck_assert_int_eq(S->cas[DEF][Q("D3")], 2); /* nobody left to drag the markers */
}
END_TEST

START_TEST(fight_officer_is_third_casualty)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	officer("ot", DEF, "D3");
	troops("t1", DEF, LR_ORDINARY, "D3");
	troops("t2", DEF, LR_ORDINARY, "D3");
	troops("t3", DEF, LR_ORDINARY, "D3");
	/* 3 sixes: t1, t2, then the officer; t3 survives. Extra hits 1, 1; t3 falls back. */
	SCRIPT(6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(has_event("casualty 3 of the defender: ot"));
	ck_assert_str_eq(where("ot"), "gone");
	ck_assert_str_eq(where("t3"), "D2"); /* first free face square of D3 */
	ck_assert_str_eq(where("o1"), "D3");
}
END_TEST

/* Issue 9 item 2 — §23 "Officer (if present) is always 3rd casualty": two sixes on an
 * officer and one base kill the base; the 2nd casualty falls on no one. The assaulters win
 * on kills (1 to 0), roll their extra hits (1, 1), and the officer falls back to D2. */
START_TEST(fight_officer_third_even_when_alone)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	officer("ot", DEF, "D3");
	troops("t1", DEF, LR_ORDINARY, "D3");
	SCRIPT(6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(has_event("casualty 2 of the defender: only ot is left"));
	ck_assert_str_eq(where("t1"), "gone");
	ck_assert_str_eq(where("ot"), "D2");
	ck_assert_str_eq(where("o1"), "D3");
}
END_TEST

/* A lone officer falls to the 3rd six (two sixes leave him standing, above). */
START_TEST(fight_lone_officer_third_six)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	officer("ot", DEF, "D3");
	SCRIPT(6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(has_event("casualty 3 of the defender: ot"));
	ck_assert_str_eq(where("ot"), "gone");
}
END_TEST

/* Option officer-casualty: third-or-last — the officer falls as soon as nobody else is left. */
START_TEST(fight_officer_earlier_when_alone_option)
{
	O.officer_casualty = LR_OFFICER_THIRD_OR_LAST;
	struct landraid_base *o = assault_party(LR_ORDINARY);
	officer("ot", DEF, "D3");
	troops("t1", DEF, LR_ORDINARY, "D3");
	SCRIPT(6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(has_event("casualty 2 of the defender: ot"));
}
END_TEST

/* Land Raid §13 Commander: "Death = 3 casualty markers" — where a plain officer leaves 1
 * (§23 Fighting, "6 = Casualty"). A lone target officer (_i 0) or commander (_i 1) falls to
 * the assault's one six; nobody is left to drag the markers, so they stay in D3. The
 * commander raises his side's quality (§13), so the target re-rolls its 4 non-6s first. */
START_TEST(fight_commander_death_three_markers)
{
	static const int officer_dice[] = { 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const int commander_dice[] = { 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1 };
	struct landraid_base *o = assault_party(LR_ORDINARY);
	add("ot", DEF, _i ? LR_COMMANDER : LR_OFFICER, LR_ORDINARY, "D3");
	if (_i)
		script(commander_dice, N_OF(commander_dice));
	else
		script(officer_dice, N_OF(officer_dice));
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(has_event("casualty 3 of the defender: ot"));
	ck_assert_str_eq(where("ot"), "gone");
	ck_assert_str_eq(where("o1"), "D3");
	ck_assert_int_eq(S->cas[DEF][Q("D3")], (_i ? 3 : 1));
	ck_assert_int_eq(has_event("the commander falls, 3 casualty markers"), _i);
}
END_TEST

START_TEST(fight_tie_target_wins_with_extra_hits)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	troops("t2", DEF, LR_ORDINARY, "D3");
	/* One six each: the target wins; its extra hits 5, 1 = one more casualty. */
	SCRIPT(6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 1, 1, 1, 5, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(has_event("the targets win"));
	ck_assert_str_eq(where("a1"), "gone");
	ck_assert_str_eq(where("a2"), "gone");
	ck_assert_str_eq(where("o1"), "C3");       /* the 3rd casualty would be the officer */
	ck_assert_int_eq(S->cas[ATT][Q("C3")], 2); /* back at the launch square */
	ck_assert_int_eq(S->cas[DEF][Q("D3")], 1);
	ck_assert_str_eq(where("t2"), "D3");
}
END_TEST

/* Land Raid §23 Fighting: "2D6 extra hits. 5, 6 = extra casualty inflicted" — on either
 * die. The tie of fight_tie_target_wins_with_extra_hits, the winner's first extra-hit die a
 * miss and its second die _i: 4 misses, 5 and 6 hit (a2 is the casualty). */
START_TEST(fight_extra_hits_second_die)
{
	static int v[] = { 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 1, 1, 1, 1, 0 };
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	troops("t2", DEF, LR_ORDINARY, "D3");
	v[15] = _i;
	script(v, N_OF(v));
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(purpose_has(14, "extra hits"));
	ck_assert(has_event("the targets win"));
	ck_assert(has_event(
		_i >= 5 ? "extra hits on the attacker: 1" : "extra hits on the attacker: 0"));
	ck_assert_str_eq(where("a1"), "gone"); /* the fight's own casualty */
	ck_assert_str_eq(where("a2"), _i >= 5 ? "gone" : "C3");
	ck_assert_int_eq(S->cas[ATT][Q("C3")], (_i >= 5 ? 2 : 1));
}
END_TEST

START_TEST(fight_assaulter_wins_by_killing_more)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	troops("t2", DEF, LR_ORDINARY, "D3");
	troops("t3", DEF, LR_ORDINARY, "D3");
	S->cas[DEF][Q("D3")] = 1; /* old markers go with them too */
	landraid_squares_add(&S->standing[DEF].fall_back, Q("D4"));
	/* Assault 2 sixes, target 1: the assaulters win; extra hits 2, 2: none. */
	SCRIPT(6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 6, 1, 1, 1, 1, 1, 2, 2);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(has_event("the assaulters win"));
	ck_assert_str_eq(where("t3"), "D4"); /* the target's standing fall-back square */
	ck_assert_str_eq(where("o1"), "D3");
	ck_assert_str_eq(where("a2"), "D3");
	ck_assert_str_eq(where("a1"), "gone");
	ck_assert_int_eq(S->cas[ATT][Q("D3")], 1);
	ck_assert_int_eq(S->cas[DEF][Q("D3")], 0);
	ck_assert_int_eq(S->cas[DEF][Q("D4")], 3); /* 1 old + 2 of the fight, dragged */
}
END_TEST

START_TEST(fight_kill_all_wins_with_fewer)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	add("lc", DEF, LR_LOOT_CARRIER, LR_ORDINARY, "D3");
	/* The target's 2 fighting bases (t1 and the loot carrier) both die to 2 sixes while
	 * they inflict 2: kills all, the assaulters win. */
	SCRIPT(6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(has_event("all fighting targets killed"));
	ck_assert_str_eq(where("o1"), "D3");
}
END_TEST

START_TEST(fight_better_loser_insists_on_reroll)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_HARDENED, "D3");
	troops("t2", DEF, LR_HARDENED, "D3");
	troops("t3", DEF, LR_HARDENED, "D3");
	/* Target better: it re-rolls its 6 non-6s first. Assault 2 sixes, target 0: the
	 * assaulters win; extra hits 5, 6; the battle-hardened loser insists: 1, 5. */
	SCRIPT(6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5, 6, 1, 5);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(purpose_has(16, "re-rolls 6 non-6"));
	ck_assert(purpose_has(24, "insists"));
	ck_assert_str_eq(where("t1"), "gone");
	ck_assert_str_eq(where("t2"), "gone");
	ck_assert_str_eq(where("t3"), "gone");
}
END_TEST

START_TEST(fight_fall_back_default_square)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	troops("t2", DEF, LR_ORDINARY, "D3");
	troops("blocker", ATT, LR_ORDINARY, "D2");
	/* Faces of D3 in A1 order: C3 (assaulters), D2 (attackers), D4 free. */
	SCRIPT(6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert_str_eq(where("t2"), "D4");
	ck_assert_int_eq(S->cas[DEF][Q("D4")], 1);
	ck_assert(has_event("dragging 1 casualty marker"));
}
END_TEST

/* Issue 9 item 4 — §23 does not say what happens to a beaten target with no square to fall
 * back to: by default it stays (markers too) and the assaulters stay in their launch square.
 * Today it was "cut down": removed without being a casualty. */
START_TEST(fight_no_fall_back_stays)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	troops("t2", DEF, LR_ORDINARY, "D3");
	troops("x1", ATT, LR_ORDINARY, "D2");
	troops("x2", ATT, LR_ORDINARY, "D4");
	troops("x3", ATT, LR_ORDINARY, "E3");
	SCRIPT(6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(!has_event("cut down"));
	ck_assert_str_eq(where("t2"), "D3");
	ck_assert_int_eq(S->cas[DEF][Q("D3")], 1);
	ck_assert_str_eq(where("o1"), "C3");
	ck_assert(has_event("the assaulters stay in C3"));
}
END_TEST

/* Option blocked-fall-back: cut-down. */
START_TEST(fight_no_fall_back_cut_down)
{
	O.blocked_fall_back = LR_BLOCKED_CUT_DOWN;
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	troops("t2", DEF, LR_ORDINARY, "D3");
	troops("x1", ATT, LR_ORDINARY, "D2");
	troops("x2", ATT, LR_ORDINARY, "D4");
	troops("x3", ATT, LR_ORDINARY, "E3");
	SCRIPT(6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(has_event("cut down"));
	ck_assert_int_eq(count("D3", DEF, LR_ALL_ROLES), 0);
}
END_TEST

START_TEST(fight_withdraw)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	troops("t2", DEF, LR_ORDINARY, "D3");
	S->standing[DEF].withdraw = 1;
	/* No fight dice: the assaulter's 2D6 extra hits (5: one casualty). */
	SCRIPT(5, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(has_event("withdraw instead of fighting"));
	ck_assert_str_eq(where("t1"), "gone");
	ck_assert_str_eq(where("t2"), "D2"); /* D2 is the first free face square */
	ck_assert_int_eq(S->cas[DEF][Q("D2")], 1);
	ck_assert_str_eq(where("o1"), "D3");
	ck_assert_str_eq(where("a1"), "D3");
}
END_TEST

START_TEST(fight_withdraw_impossible_fights)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "A1");
	officer("x", ATT, "A2");
	officer("y", ATT, "B1");
	S->standing[DEF].withdraw = 1;
	o->sq = Q("A2");
	landraid_base_find(S, "a1")->sq = Q("A2");
	landraid_base_find(S, "a2")->sq = Q("A2");
	SCRIPT(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("A1"), NULL, 1);
	all_drawn();
	ck_assert(has_event("cannot withdraw"));
}
END_TEST

START_TEST(fight_void_without_opponents)
{
	struct landraid_base *o = assault_party(LR_ORDINARY);
	ck_assert_int_eq(landraid_fight(&C, o, NULL, Q("D3"), NULL, 1), LR_VOID);
	ck_assert_int_eq(landraid_fight(&C, o, NULL, Q("D4"), NULL, 1), LR_VOID);
	ck_assert_int_eq(dice_count(&D), 0);
	ck_assert_int_eq(voids(), 2);
}
END_TEST

/* Issue 9 item 4 — §13 "Improves square by one quality in fights": the commander in the
 * launch square raises the assault of another officer (the assaulters re-roll 8 non-6s);
 * option commander-fight: fighting, only when he leads it (no re-roll: 14 dice). */
START_TEST(fight_commander_in_square_improves)
{
	add("cmd", ATT, LR_COMMANDER, LR_ORDINARY, "C3");
	struct landraid_base *o = assault_party(LR_ORDINARY);
	troops("t1", DEF, LR_ORDINARY, "D3");
	static const int v[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1 };
	if (_i)
		O.commander_fight = LR_COMMANDER_FIGHTING;
	/* 10 assault dice, 2 target dice, [10 re-rolled], 2 extra hits */
	script(v, _i ? 14 : 24);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert_int_eq(purpose_has(12, "re-rolls 10 non-6"), !_i);
}
END_TEST

START_TEST(fight_commander_improves_quality)
{
	add("cmd", ATT, LR_COMMANDER, LR_ORDINARY, "C3");
	troops("a1", ATT, LR_ORDINARY, "C3");
	troops("t1", DEF, LR_ORDINARY, "D3");
	/* Ordinary + commander beats ordinary: the assaulters re-roll their 8 non-6s. */
	SCRIPT(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, landraid_base_find(S, "cmd"), NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(purpose_has(10, "re-rolls 8 non-6"));
	ck_assert(purpose_has(10, "battle-hardened"));
}
END_TEST

START_TEST(fight_with_list_and_max_four)
{
	struct landraid_ids with;
	char id[16];
	struct landraid_base *o = officer("o1", ATT, "C3");
	for (int i = 0; i < 6; i++) {
		snprintf(id, sizeof(id), "a%d", i);
		troops(id, ATT, LR_ORDINARY, "C3");
	}
	troops("t1", DEF, LR_ORDINARY, "D3");
	ids(&with, "a5", NULL, NULL);
	/* One named base: 2 x 2 + 4 = 8 dice. */
	SCRIPT(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), &with, 1);
	all_drawn();
	ck_assert(purpose_has(0, "8D6"));
	/* Default: the officer and 4 bases: 2 x 5 + 4 = 14. */
	SCRIPT(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
	landraid_fight(&C, o, NULL, Q("D3"), NULL, 1);
	all_drawn();
	ck_assert(purpose_has(0, "14D6"));
	landraid_ids_release(&with);
}
END_TEST

/* ---- §24 Plunder ------------------------------------------------------------------------ */

static struct landraid_base *plunderers(int quality)
{
	struct landraid_base *o = officer("o1", ATT, "C3");
	troops("p1", ATT, quality, "C3");
	troops("p2", ATT, quality, "C3");
	add("lc", ATT, LR_LOOT_CARRIER, quality, "C3");
	S->plunder[Q("C3")] = 1;
	return o;
}

START_TEST(plunder_blocked_by_five)
{
	struct landraid_base *o = plunderers(LR_ORDINARY);
	troops("d1", DEF, LR_ORDINARY, "C2");
	troops("d2", DEF, LR_ORDINARY, "C2");
	troops("d3", DEF, LR_ORDINARY, "D3");
	troops("d4", DEF, LR_ORDINARY, "D3");
	troops("d5", DEF, LR_ORDINARY, "D4"); /* corner: does not count */
	SCRIPT(1, 1);
	ck_assert_int_eq(landraid_plunder(&C, o, NULL, 1), LR_DONE); /* 4: allowed */
	all_drawn();
	S->plunder[Q("C3")] = 1;
	officer("d6", DEF, "B3"); /* officers count: 5 */
	ck_assert_int_eq(landraid_plunder(&C, o, NULL, 1), LR_VOID);
	ck_assert(has_event("5 or more"));
	ck_assert_int_eq(S->plunder[Q("C3")], 1);
	ck_assert_int_eq(dice_count(&D), 2);
}
END_TEST

START_TEST(plunder_loop_and_deviation_lost)
{
	struct landraid_base *o = plunderers(LR_ORDINARY);
	/* 2 dice (not the officer, not the loot carrier): one 5; loop 6 = the strongbox (3);
	 * deviation attacker 3, defender 3 + 1: the loot deviates, all lost. */
	SCRIPT(5, 1, 6, 3, 3);
	ck_assert_int_eq(landraid_plunder(&C, o, NULL, 1), LR_DONE);
	all_drawn();
	ck_assert(purpose_has(0, "Land Raid §24 Plunder"));
	ck_assert(purpose_has(2, "plunder loop"));
	ck_assert(purpose_has(4, "defender's D6 +1"));
	ck_assert_int_eq(S->plunder[Q("C3")], 0);
	ck_assert_int_eq(S->loot_lost, 3);
	ck_assert_int_eq(S->loot_taken, 0);
}
END_TEST

/* Issue 9 item 3 — the deviation is campaign data (NOTES 000 reading 5): with `tie:
 * defender` and `defender: 0`, attacker 4 against defender 4 loses the loot (the default
 * tie keeps it, above); 5 against 4 keeps it. `battle-hardened: 2` adds 2. */
START_TEST(plunder_deviation_data)
{
	struct landraid_base *o = plunderers(LR_ORDINARY);
	S->deviation.defender = 0;
	S->deviation.tie = DEF;
	SCRIPT(6, 1, 6, 4, 4);
	landraid_plunder(&C, o, NULL, 1);
	all_drawn();
	ck_assert(purpose_has(4, "defender's D6 +0"));
	ck_assert(has_event("a tie goes to the defender"));
	ck_assert_int_eq(S->loot_lost, 3);
	S->plunder[Q("C3")] = 1;
	SCRIPT(6, 1, 6, 5, 4);
	landraid_plunder(&C, o, NULL, 1);
	all_drawn();
	ck_assert_int_eq(S->loot_taken, 3);
	S->plunder[Q("C3")] = 1;
	S->deviation.battle_hardened = 2;
	landraid_base_find(S, "p1")->quality = LR_HARDENED;
	landraid_base_find(S, "p2")->quality = LR_HARDENED;
	SCRIPT(6, 1, 6, 2, 4); /* 2 + 2 = 4, a tie: lost */
	landraid_plunder(&C, o, NULL, 1);
	all_drawn();
	ck_assert(purpose_has(3, "+2 battle-hardened plunderers"));
	ck_assert_int_eq(S->loot_lost, 6);
}
END_TEST

START_TEST(plunder_deviation_kept)
{
	struct landraid_base *o = plunderers(LR_ORDINARY);
	/* Two finds: loop 2 (1) + loop 4 (2); attacker 4, defender 3 + 1: a tie keeps all. */
	SCRIPT(6, 5, 2, 4, 4, 3);
	landraid_plunder(&C, o, NULL, 1);
	all_drawn();
	ck_assert_int_eq(S->loot_taken, 3);
	ck_assert_int_eq(C.loot, 3);
}
END_TEST

/* Land Raid §24 Plunder: "1D6 per base ... 5, 6 = consult the loot loop". The first
 * plunder die is _i, the second a 1: a 4 finds nothing (no loop roll), a 5 or a 6 finds
 * once (loop 1: nothing worth carrying, so no deviation roll). The marker goes either way. */
START_TEST(plunder_finds_on_5_and_6)
{
	static int v[] = { 0, 1, 1 };
	struct landraid_base *o = plunderers(LR_ORDINARY);
	v[0] = _i;
	script(v, _i >= 5 ? 3 : 2);
	ck_assert_int_eq(landraid_plunder(&C, o, NULL, 1), LR_DONE);
	all_drawn();
	ck_assert(has_event(_i >= 5 ? "1 of 2 dice score 5-6" : "0 of 2 dice score 5-6"));
	ck_assert_int_eq(purpose_has(2, "plunder loop"), _i >= 5);
	ck_assert_int_eq(S->plunder[Q("C3")], 0);
	ck_assert_int_eq(S->loot_taken + S->loot_lost, 0);
}
END_TEST

START_TEST(plunder_battle_hardened_plus_one)
{
	struct landraid_base *o = plunderers(LR_HARDENED);
	SCRIPT(5, 1, 6, 3, 3); /* attacker 3 + 1, defender 3 + 1: kept */
	landraid_plunder(&C, o, NULL, 1);
	all_drawn();
	ck_assert(purpose_has(3, "+1 battle-hardened"));
	ck_assert_int_eq(S->loot_taken, 3);
}
END_TEST

START_TEST(plunder_loot_carriers_option)
{
	struct landraid_base *o = plunderers(LR_ORDINARY);
	O.loot_carriers_plunder = 1;
	SCRIPT(1, 1, 1);
	landraid_plunder(&C, o, NULL, 1);
	all_drawn();
}
END_TEST

START_TEST(plunder_no_loot_no_deviation)
{
	struct landraid_base *o = plunderers(LR_ORDINARY);
	SCRIPT(5, 1, 1); /* loop 1: nothing worth carrying */
	landraid_plunder(&C, o, NULL, 1);
	all_drawn();
	ck_assert_int_eq(S->plunder[Q("C3")], 0);
	ck_assert_int_eq(S->loot_taken + S->loot_lost, 0);
	/* The loop is campaign data. */
	free(S->loop[0].text);
	S->loop[0].text = xstrdup("a chest of doubloons");
	S->loop[0].loot = 10;
	S->plunder[Q("C3")] = 1;
	SCRIPT(6, 6, 1, 1, 6, 1);
	landraid_plunder(&C, o, NULL, 1);
	all_drawn();
	ck_assert_int_eq(S->loot_taken, 20);
	ck_assert(has_event("a chest of doubloons"));
}
END_TEST

START_TEST(plunder_void_cases)
{
	struct landraid_base *o = plunderers(LR_ORDINARY);
	S->plunder[Q("C3")] = 0;
	ck_assert_int_eq(landraid_plunder(&C, o, NULL, 1), LR_VOID);
	S->plunder[Q("C3")] = 1;
	struct landraid_base *d = officer("def", DEF, "A1");
	troops("dd", DEF, LR_ORDINARY, "A1");
	S->plunder[Q("A1")] = 1;
	C.active = DEF;
	ck_assert_int_eq(landraid_plunder(&C, d, NULL, 1), LR_VOID);
	ck_assert_int_eq(dice_count(&D), 0);
	ck_assert_int_eq(voids(), 2);
}
END_TEST

/* ---- §6 Quality ------------------------------------------------------------------------- */

START_TEST(quality_worst_and_ignore)
{
	struct landraid_base *v[8];
	struct landraid_ids ign;
	struct landraid_base *o = officer("o1", ATT, "C3");
	troops("h", ATT, LR_HARDENED, "C3");
	troops("n", ATT, LR_ORDINARY, "C3");
	troops("s", ATT, LR_SCURVY, "C3");
	add("lc", ATT, LR_LOOT_CARRIER, LR_SCURVY, "C3");
	size_t n = landraid_group(&C, o, NULL, v, 8);
	ck_assert_uint_eq(n, 4);
	ck_assert_int_eq(landraid_worst_quality(v, n), LR_SCURVY);
	ids(&ign, "s", "h", NULL); /* only scurvy bases can be ignored */
	n = landraid_group(&C, o, &ign, v, 8);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(landraid_worst_quality(v, n), LR_ORDINARY);
	ck_assert_int_eq(landraid_worst_quality(v, 0), LR_ORDINARY);
	ck_assert(LR_SCURVY < LR_ORDINARY && LR_ORDINARY < LR_HARDENED);
	landraid_ids_release(&ign);
}
END_TEST

/* Issue 9 item 1 — §6 "Officers select the bases in his group": two officers in one square
 * do not both shoot with its three bases; the first to act takes them, the second's shoot is
 * void (no troop bases free). Today's reading drew six dice from three bases. */
static struct landraid_officer_order shoots(const char *who)
{
	struct landraid_officer_order oo;
	memset(&oo, 0, sizeof(oo));
	oo.officer = (char *)who;
	oo.actions[0].kind = LR_SHOOT;
	oo.actions[0].sq = -1;
	oo.n_actions = 1;
	return oo;
}

START_TEST(group_base_acts_with_one_officer)
{
	officer("o1", ATT, "B2");
	officer("o2", ATT, "B2");
	troops("b1", ATT, LR_ORDINARY, "B2");
	troops("b2", ATT, LR_ORDINARY, "B2");
	troops("b3", ATT, LR_ORDINARY, "B2");
	troops("t1", DEF, LR_ORDINARY, "D2");
	S->standing[DEF].response = LR_RESP_NONE;
	struct landraid_officer_order a = shoots("o1"), b = shoots("o2");
	SCRIPT(1, 2, 3); /* o1's group: 3 dice, all miss */
	landraid_officer_actions(&C, &a, 1);
	landraid_officer_actions(&C, &b, 2);
	all_drawn();
	ck_assert_int_eq(voids(), 1);
	ck_assert(has_event("o2 cannot shoot: no troop bases"));
	/* A new turn frees every base. */
	landraid_ctx_init(&C, S, &O, &D, &E, ATT);
	SCRIPT(1, 2, 3);
	landraid_officer_actions(&C, &b, 1);
	all_drawn();
}
END_TEST

/* The order names the group: o1 takes b1, o2 b2 and b3 (one die and two). A base that acted
 * with o1 is not dragged by o2. */
START_TEST(group_named_in_the_order)
{
	officer("o1", ATT, "B2");
	officer("o2", ATT, "B2");
	troops("b1", ATT, LR_ORDINARY, "B2");
	troops("b2", ATT, LR_ORDINARY, "B2");
	troops("b3", ATT, LR_ORDINARY, "B2");
	troops("t1", DEF, LR_ORDINARY, "D2");
	S->standing[DEF].response = LR_RESP_NONE;
	struct landraid_officer_order a = shoots("o1"), b = shoots("o2");
	ids(&a.group, "b1", NULL, NULL);
	a.has_group = 1;
	ids(&b.group, "b2", "b3", NULL);
	b.has_group = 1;
	b.actions[1].kind = LR_MOVE;
	b.actions[1].sq = Q("B3");
	ids(&b.actions[1].bases, "b1", "b2", NULL);
	b.n_actions = 2;
	SCRIPT(1, 2, 3, 3); /* o1: 1 die; o2: 2 dice, then his extra action on a 3 */
	landraid_officer_actions(&C, &a, 1);
	landraid_officer_actions(&C, &b, 2);
	all_drawn();
	ck_assert(purpose_has(0, "o1's group"));
	ck_assert(purpose_has(1, "o2's group"));
	ck_assert_str_eq(where("b2"), "B3");
	ck_assert_str_eq(where("b1"), "B2"); /* acted with o1 */
	ck_assert(has_event("could not drag b1"));
	landraid_ids_release(&a.group);
	landraid_ids_release(&b.group);
	landraid_ids_release(&b.actions[1].bases);
}
END_TEST

START_TEST(geometry)
{
	int f[4];
	ck_assert(landraid_face(S, Q("C3"), Q("C4")));
	ck_assert(landraid_face(S, Q("C3"), Q("D3")));
	ck_assert(!landraid_face(S, Q("C3"), Q("D4")));
	ck_assert(landraid_corner(S, Q("C3"), Q("D4")));
	ck_assert(!landraid_corner(S, Q("C3"), Q("C5")));
	ck_assert_int_eq(landraid_distance(S, Q("A1"), Q("D3")), 3);
	ck_assert_int_eq(landraid_faces(S, Q("A1"), f), 2);
	ck_assert_int_eq(landraid_faces(S, Q("C3"), f), 4);
	ck_assert_int_eq(f[0], Q("B3"));
	ck_assert_int_eq(f[1], Q("C2"));
	ck_assert_int_eq(f[2], Q("C4"));
	ck_assert_int_eq(f[3], Q("D3"));
	ck_assert_int_eq(landraid_square(S, "G1"), -1);
	ck_assert_int_eq(landraid_square(S, "A7"), -1);
	ck_assert_int_eq(landraid_square(S, "A0"), -1);
	ck_assert_int_eq(landraid_square(S, "a1"), -1);
	ck_assert_int_eq(landraid_square(S, "A01"), -1);
	struct landraid_state *big = landraid_state_new(26, 26);
	ck_assert_int_eq(landraid_square(big, "Z26"), 26 * 26 - 1);
	ck_assert_str_eq(big->name[26 * 26 - 1], "Z26");
	landraid_state_free(big);
}
END_TEST

static Suite *landraid_suite(void)
{
	Suite *s = suite_create("landraid");
	TCase *tc;

	tc = tcase_create("events");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, events_roll_2d6);
	tcase_add_loop_test(tc, events_2_to_5_landing, 0, 4);
	tcase_add_test(tc, events_2_to_5_standing_square);
	tcase_add_test(tc, events_2_to_5_impossible);
	tcase_add_test(tc, events_6_redeploy);
	tcase_add_test(tc, events_6_only_defender_moves_on_his_turn);
	tcase_add_test(tc, events_6_impossible);
	tcase_add_test(tc, events_7_garrison);
	tcase_add_test(tc, events_7_maximum_8);
	tcase_add_loop_test(tc, events_8_10_defender_scurvy, 0, 3);
	tcase_add_test(tc, events_8_10_tie_then_attacker_officer);
	tcase_add_test(tc, events_8_10_impossible);
	tcase_add_test(tc, events_8_10_attacker_will_not_give_scurvy);
	tcase_add_loop_test(tc, events_11_12_remove_scurvy, 0, 2);
	tcase_add_test(tc, events_11_12_one_scurvy);
	tcase_add_test(tc, events_11_12_officer_or_nothing);
	suite_add_tcase(s, tc);

	tc = tcase_create("morale");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, morale_on_their_own);
	tcase_add_test(tc, morale_officer_one_less);
	tcase_add_test(tc, morale_battle_hardened);
	tcase_add_test(tc, morale_max_three);
	tcase_add_test(tc, morale_no_dice);
	tcase_add_test(tc, morale_no_base_left_opponent_rolls);
	tcase_add_test(tc, morale_lone_officer_flees);
	tcase_add_test(tc, morale_commander_reroll);
	tcase_add_test(tc, morale_fails_beyond_bases);
	tcase_add_test(tc, morale_every_square);
	suite_add_tcase(s, tc);

	tc = tcase_create("actions");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, actions_extra_roll);
	tcase_add_test(tc, actions_failed_roll_ends_turn);
	tcase_add_test(tc, actions_one_without_roll);
	tcase_add_test(tc, actions_commander_two_then_roll);
	tcase_add_test(tc, actions_dead_officer);
	tcase_add_test(tc, move_drags_listed_bases);
	tcase_add_test(tc, move_drags_at_most_four);
	tcase_add_test(tc, move_blocked_is_void);
	tcase_add_test(tc, move_triggers_response_on_face);
	tcase_add_test(tc, move_response_standing_orders);
	tcase_add_test(tc, gather_brings_bases);
	tcase_add_test(tc, gather_picks_first);
	tcase_add_test(tc, gather_void_cases);
	suite_add_tcase(s, tc);

	tc = tcase_create("shooting");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, shoot_hits_saves_and_response);
	tcase_add_test(tc, shoot_reroll_battle_hardened);
	tcase_add_test(tc, shoot_reroll_needs_all_hardened);
	tcase_add_test(tc, shoot_reroll_target_more_than_5);
	tcase_add_test(tc, shoot_saves_better);
	tcase_add_test(tc, shoot_saves_officer);
	tcase_add_test(tc, shoot_saves_option_none);
	tcase_add_test(tc, shoot_commander_three_markers);
	tcase_add_test(tc, shoot_response_hits_on_six);
	tcase_add_test(tc, shoot_target_priority);
	tcase_add_test(tc, shoot_out_of_range);
	tcase_add_test(tc, shoot_max_three);
	tcase_add_test(tc, shoot_scurvy_and_ignore);
	suite_add_tcase(s, tc);

	tc = tcase_create("fighting");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, fight_dice_counts);
	tcase_add_test(tc, fight_building_bonus);
	tcase_add_test(tc, fight_barracks_bonus_per_base);
	tcase_add_test(tc, fight_plain_building_no_bonus);
	tcase_add_test(tc, fight_better_quality_rerolls_and_kill_all);
	tcase_add_test(tc, fight_officer_is_third_casualty);
	tcase_add_test(tc, fight_officer_third_even_when_alone);
	tcase_add_test(tc, fight_lone_officer_third_six);
	tcase_add_test(tc, fight_officer_earlier_when_alone_option);
	tcase_add_loop_test(tc, fight_commander_death_three_markers, 0, 2);
	tcase_add_test(tc, fight_tie_target_wins_with_extra_hits);
	tcase_add_loop_test(tc, fight_extra_hits_second_die, 4, 7);
	tcase_add_test(tc, fight_assaulter_wins_by_killing_more);
	tcase_add_test(tc, fight_kill_all_wins_with_fewer);
	tcase_add_test(tc, fight_better_loser_insists_on_reroll);
	tcase_add_test(tc, fight_fall_back_default_square);
	tcase_add_test(tc, fight_no_fall_back_cut_down);
	tcase_add_test(tc, fight_no_fall_back_stays);
	tcase_add_test(tc, fight_withdraw);
	tcase_add_test(tc, fight_withdraw_impossible_fights);
	tcase_add_test(tc, fight_void_without_opponents);
	tcase_add_test(tc, fight_commander_improves_quality);
	tcase_add_loop_test(tc, fight_commander_in_square_improves, 0, 2);
	tcase_add_test(tc, fight_with_list_and_max_four);
	suite_add_tcase(s, tc);

	tc = tcase_create("plunder");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, plunder_blocked_by_five);
	tcase_add_test(tc, plunder_loop_and_deviation_lost);
	tcase_add_test(tc, plunder_deviation_kept);
	tcase_add_test(tc, plunder_deviation_data);
	tcase_add_loop_test(tc, plunder_finds_on_5_and_6, 4, 7);
	tcase_add_test(tc, plunder_battle_hardened_plus_one);
	tcase_add_test(tc, plunder_loot_carriers_option);
	tcase_add_test(tc, plunder_no_loot_no_deviation);
	tcase_add_test(tc, plunder_void_cases);
	suite_add_tcase(s, tc);

	tc = tcase_create("quality");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, quality_worst_and_ignore);
	tcase_add_test(tc, group_base_acts_with_one_officer);
	tcase_add_test(tc, group_named_in_the_order);
	tcase_add_test(tc, geometry);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(landraid_suite)
