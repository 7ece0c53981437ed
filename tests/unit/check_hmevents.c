/* check_hmevents.c — the horse-and-musket random events (hm-events) against the sheet: the
 * 1-or-6, odd/even and D20 steps with scripted dice, every one of the twenty events with its
 * effect and whom it names, each impossible case and each choice default, holding, playing and
 * suppression, Rally to the Flag once, expiry, the umpire's adjustments, options, and the
 * frequencies over many seeds (1/3 of turns, each event 1/20 of them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "core/buf.h"
#include "core/dice.h"
#include "core/events.h"
#include "core/node.h"
#include "rules/hm-events/hmevents.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const char *const players[] = { "french", "austrians" };
static struct hm_options opts;
static struct rules_campaign camp = { "test", players, 2, &opts };

#define FRENCH_UNITS \
	"[{id: f-inf, type: infantry, break: 4}, {id: f-cav, type: cavalry, break: 3}, " \
	"{id: f-art, type: artillery, break: 3}]"
#define AUSTRIAN_UNITS \
	"[{id: a-inf1, type: infantry, break: 4, disr: 1}, {id: a-inf2, type: infantry, " \
	"break: 4, disr: 2}, {id: a-cav, type: cavalry, break: 3, in-charge-range: true}, " \
	"{id: a-art, type: artillery, break: 3}]"

/* A state: the French attack; extra YAML goes into each side's map. */
static struct hm_state *make(const char *fr_units, const char *fr_extra, const char *au_units,
	const char *au_extra)
{
	struct buf b = BUF_INIT;
	buf_printf(&b,
		"attacker: french\nsides:\n"
		"- {player: french, commander: Marchand, morale: 10, units: %s%s}\n"
		"- {player: austrians, commander: Weissenberg, morale: 9, units: %s%s}\n",
		fr_units, fr_extra, au_units, au_extra);
	struct node *n = NULL;
	struct diag d;
	void *s = NULL;
	diag_init(&d);
	if (node_parse(&n, "game.yaml", b.data, b.len, NULL, &d) < 0 ||
		hm_state_parse(&s, &camp, n, &d) < 0) {
		diag_print(&d, stderr);
		ck_abort_msg("fixture does not parse");
	}
	node_free(n);
	diag_release(&d);
	buf_release(&b);
	return s;
}

static struct hm_state *make_std(void)
{
	return make(FRENCH_UNITS, "", AUSTRIAN_UNITS, "");
}

static void setup(void)
{
	hm_options_default(&opts);
}

struct harness {
	struct dice dice;
	struct events ev;
};

static void harness_init(struct harness *h, const int *script, size_t n)
{
	dice_init_script(&h->dice, script, n);
	events_init(&h->ev);
}

/* The turn TURN of the orders RO[0..N), its dice and events H's. */
static struct rules_turn harness_turn(struct harness *h, int turn, const struct rules_orders *ro,
	size_t n)
{
	return (struct rules_turn){ .turn = turn,
		.orders = ro,
		.n_orders = n,
		.dice = &h->dice,
		.events = &h->ev };
}

static void harness_release(struct harness *h)
{
	ck_assert_msg(h->dice.script_pos == h->dice.script_len, "%zu of %zu scripted dice drawn",
		h->dice.script_pos, h->dice.script_len);
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

static const struct hm_unit *unit(const struct hm_state *s, const char *id)
{
	int i = hm_unit_find(s, id);
	ck_assert_msg(i >= 0, "no unit %s", id);
	return &s->units[i];
}

/* The one effect in force, checked for side, event and unit (NULL: none). */
static const struct hm_effect *only_effect(const struct hm_state *s, int side, int e,
	const char *unit_id)
{
	ck_assert_uint_eq(s->n_effects, 1);
	const struct hm_effect *f = &s->effects[0];
	ck_assert_int_eq(f->side, side);
	ck_assert_int_eq(f->event, e);
	if (unit_id)
		ck_assert_str_eq(f->unit, unit_id);
	else
		ck_assert_ptr_null(f->unit);
	return f;
}

/* ---- the procedure: 1 or 6, odd/even, D20 ---------------------------------------------- */

START_TEST(test_no_event_on_2_to_5)
{
	struct hm_state *s = make_std();
	struct harness h;
	const int script[] = { _i };
	harness_init(&h, script, 1);
	ck_assert_int_eq(hm_random_event(&opts, s, 1, &h.dice, &h.ev), 0);
	ck_assert_uint_eq(s->n_effects, 0);
	ck_assert(events_have(&h.ev, "no event"));
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* 1 and 6 give an event; odd affects the attacker, even the defender. */
START_TEST(test_event_side)
{
	static const int first[] = { 1, 6 };
	for (int k = 0; k < 2; k++) {
		struct hm_state *s = make_std();
		struct harness h;
		const int script[] = { first[k], _i, 2 }; /* event 2 Anxious */
		harness_init(&h, script, 3);
		ck_assert_int_eq(hm_random_event(&opts, s, 1, &h.dice, &h.ev), 2);
		only_effect(s, _i % 2 ? 0 : 1, 2, _i % 2 ? "f-inf" : "a-inf1");
		ck_assert(events_have(&h.ev,
			_i % 2 ? "(attacker, french)" : "(defender, austrians)"));
		harness_release(&h);
		hm_state_free(s);
	}
}
END_TEST

/* The attacker is whichever side the scenario names, not the first listed. */
START_TEST(test_attacker_is_named)
{
	struct hm_state *s = make_std();
	s->attacker = 1;
	struct harness h;
	const int script[] = { 6, 1, 3 };
	harness_init(&h, script, 3);
	hm_random_event(&opts, s, 1, &h.dice, &h.ev);
	only_effect(s, 1, 3, "a-inf1");
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* ---- every event of the D20 table on the defender, default choices ---------------------- */

/* Whom each event names by default in the fixture (NULL: commander or army). */
static const char *const default_unit[HM_EVENTS + 1] = {
	[1] = NULL,
	[2] = "a-inf1",
	[3] = "a-inf1",
	[4] = "a-inf1",
	[5] = "a-inf1",
	[6] = "a-art",
	[7] = "a-inf1",
	[8] = "a-art",
	[9] = "a-inf1",
	[10] = NULL,
	[11] = "a-inf2", /* the most DISR */
	[12] = "a-inf2",
	[13] = "a-cav",
	[14] = "a-art",
	[15] = "a-inf2",
	[16] = "a-inf1",
	[17] = "a-inf1",
	[18] = "a-inf1",
	[19] = "a-inf1",
	[20] = "a-cav", /* the only unit in legal charge range */
};

START_TEST(test_each_event)
{
	int e = _i;
	struct hm_state *s = make_std();
	struct harness h;
	const int script[] = { 1, 2, e, 3 };
	harness_init(&h, script, e == 10 ? 4 : 3);
	ck_assert_int_eq(hm_random_event(&opts, s, 4, &h.dice, &h.ev), e);
	const struct hm_effect *f = only_effect(s, 1, e, default_unit[e]);
	ck_assert_int_eq(f->until, 4);
	ck_assert_int_eq(f->chosen_by, e == 1 || e == 10 ? HM_BY_NONE : HM_BY_DEFAULT);
	ck_assert_int_eq(unit(s, "a-inf1")->disr, e == 5 ? 2 : 1);
	ck_assert_int_eq(unit(s, "a-inf2")->disr, e == 11 ? 1 : 2);
	ck_assert_int_eq(s->side[1].morale, e == 10 ? 10 : 9);
	ck_assert_int_eq(s->side[1].rally_used, e == 10);
	ck_assert_int_eq(s->side[0].morale, 10);
	struct buf b = BUF_INIT;
	hm_effect_text(s, f, &b);
	ck_assert_msg(strstr(buf_str(&b), hm_events[e].title), "%s", buf_str(&b));
	ck_assert_msg(strncmp(buf_str(&b), "your ", 5) == 0, "%s", buf_str(&b));
	buf_release(&b);
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* The sheet's words reach the report: event 2 chosen by the opposing player. */
START_TEST(test_instruction_wording)
{
	struct hm_state *s = make(FRENCH_UNITS, "", AUSTRIAN_UNITS,
		", standing: {choose: {anxious: [f-cav]}}");
	struct harness h;
	const int script[] = { 6, 1, 2 };
	harness_init(&h, script, 3);
	hm_random_event(&opts, s, 1, &h.dice, &h.ev);
	const struct hm_effect *f = only_effect(s, 0, 2, "f-cav");
	struct buf b = BUF_INIT;
	hm_effect_text(s, f, &b);
	ck_assert_str_eq(buf_str(&b),
		"your unit f-cav must move its full movement allowance, or as much as can be used, "
		"forward in your activity phase (event 2, Anxious, chosen by the defender)");
	buf_release(&b);
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* ---- impossible events ------------------------------------------------------------------ */

/* Limited Ammo, Bad Aim, Whiff of Grape need artillery; Stirrups In cavalry; Deadly Fire,
 * Thick Smoke, Hold the Line infantry; Impetuous a unit in legal charge range. Broken units
 * do not count. */
START_TEST(test_impossible)
{
	static const int events[] = { 6, 8, 14, 13, 16, 17, 19, 20 };
	int e = events[_i];
	struct hm_state *s = make_std();
	/* the defender keeps no unit the event could name: a-inf1 broken, the others removed */
	for (size_t i = s->n_units; i-- > 0;) {
		struct hm_unit *u = &s->units[i];
		if (u->side != 1 || !(hm_events[e].types & (1u << u->type)))
			continue;
		if (e == 20)
			u->charge_range = 0;
		else if (strcmp(u->id, "a-inf1") == 0)
			u->broken = 1;
		else
			hm_unit_remove(s, i);
	}
	struct harness h;
	const int script[] = { 1, 2, e };
	harness_init(&h, script, 3);
	hm_random_event(&opts, s, 1, &h.dice, &h.ev);
	ck_assert_uint_eq(s->n_effects, 0);
	ck_assert(events_have(&h.ev, "impossible"));
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* Event 5 chosen on a unit that 1DISR would break is void (NOTES §002); one DISR fewer and it
 * takes the DISR. */
START_TEST(test_disorganized_would_break)
{
	for (int disr = 2; disr <= 3; disr++) {
		struct hm_state *s = make_std();
		struct hm_unit *u = (struct hm_unit *)unit(s, "a-inf2");
		u->disr = disr; /* breaks at 4 */
		s->side[0].standing.choose[5][0] = xstrdup("a-inf2");
		s->side[0].standing.n_choose[5] = 1;
		struct harness h;
		const int script[] = { 1, 2, 5 };
		harness_init(&h, script, 3);
		hm_random_event(&opts, s, 1, &h.dice, &h.ev);
		if (disr == 3) {
			ck_assert_uint_eq(s->n_effects, 0);
			ck_assert_int_eq(u->disr, 3);
			ck_assert(events_have(&h.ev, "void, 1DISR would break"));
		} else {
			only_effect(s, 1, 5, "a-inf2");
			ck_assert_int_eq(u->disr, 3);
			ck_assert_int_eq(s->effects[0].chosen_by, HM_BY_ATTACKER);
		}
		harness_release(&h);
		hm_state_free(s);
	}
}
END_TEST

/* With no choice given, Disorganized names the first unit it would not break; none: impossible. */
START_TEST(test_disorganized_default)
{
	struct hm_state *s = make_std();
	((struct hm_unit *)unit(s, "a-inf1"))->disr = 3;
	struct harness h;
	const int script[] = { 1, 2, 5, 1, 2, 5 };
	harness_init(&h, script, 6);
	hm_random_event(&opts, s, 1, &h.dice, &h.ev);
	only_effect(s, 1, 5, "a-inf2");
	ck_assert_int_eq(unit(s, "a-inf2")->disr, 3);
	for (size_t i = 0; i < s->n_units; i++)
		s->units[i].disr = s->units[i].break_at - 1;
	hm_expire(s, 2, &h.ev);
	hm_random_event(&opts, s, 2, &h.dice, &h.ev);
	ck_assert_uint_eq(s->n_effects, 0);
	ck_assert(events_have(&h.ev, "impossible, no unit that 1DISR would not break"));
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* Well Disciplined on a unit without DISR: no DISR to lose, the no-recovery effect stands. */
START_TEST(test_well_disciplined_no_disr)
{
	struct hm_state *s = make_std();
	struct harness h;
	const int script[] = { 1, 1, 11 };
	harness_init(&h, script, 3);
	hm_random_event(&opts, s, 1, &h.dice, &h.ev);
	only_effect(s, 0, 11, "f-inf");
	ck_assert_int_eq(unit(s, "f-inf")->disr, 0);
	ck_assert(events_have(&h.ev, "no DISR to lose"));
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* ---- who chooses ------------------------------------------------------------------------ */

/* Detrimental: the opposing player's list; beneficial: the player's own; then `any`; a unit
 * that does not fit (wrong side, type, broken) is passed over. */
START_TEST(test_choosers)
{
	struct hm_state *s = make(FRENCH_UNITS,
		", standing: {choose: {limited-ammo: [f-art, a-inf1], any: [a-inf2, f-cav]}}",
		AUSTRIAN_UNITS, ", standing: {choose: {valiant-charge: [a-cav], any: [a-art]}}");
	enum hm_chooser by;
	/* Limited Ammo on the Austrians, chosen by the French: f-art and a-inf1 do not fit */
	ck_assert_int_eq(hm_choose(s, 6, 1, 0, &by), hm_unit_find(s, "a-art"));
	ck_assert_int_eq(by, HM_BY_DEFAULT);
	/* Anxious on the Austrians: the French `any` list names a-inf2 */
	ck_assert_int_eq(hm_choose(s, 2, 1, 0, &by), hm_unit_find(s, "a-inf2"));
	ck_assert_int_eq(by, HM_BY_ATTACKER);
	/* Valiant Charge for the Austrians, their own choice */
	ck_assert_int_eq(hm_choose(s, 9, 1, 1, &by), hm_unit_find(s, "a-cav"));
	ck_assert_int_eq(by, HM_BY_DEFENDER);
	((struct hm_unit *)unit(s, "a-cav"))->broken = 1;
	ck_assert_int_eq(hm_choose(s, 9, 1, 1, &by), hm_unit_find(s, "a-art"));
	ck_assert_int_eq(by, HM_BY_DEFENDER);
	/* Anxious on the French chosen by the Austrians: `any` names only their own a-art */
	ck_assert_int_eq(hm_choose(s, 2, 0, 1, &by), hm_unit_find(s, "f-inf"));
	ck_assert_int_eq(by, HM_BY_DEFAULT);
	hm_state_free(s);
}
END_TEST

/* Defaults: first in army order; 11, 12, 15 the most DISR (first among equals). */
START_TEST(test_default_most_disr)
{
	struct hm_state *s = make_std();
	enum hm_chooser by;
	((struct hm_unit *)unit(s, "a-cav"))->disr = 2;
	for (int e = 11; e <= 15; e++) {
		if (e == 13 || e == 14)
			continue;
		ck_assert_int_eq(hm_choose(s, e, 1, 1, &by), hm_unit_find(s, "a-inf2"));
	}
	ck_assert_int_eq(hm_choose(s, 9, 1, 1, &by), hm_unit_find(s, "a-inf1"));
	((struct hm_unit *)unit(s, "a-inf1"))->broken = 1;
	ck_assert_int_eq(hm_choose(s, 9, 1, 1, &by), hm_unit_find(s, "a-inf2"));
	hm_state_free(s);
}
END_TEST

/* ---- held events ------------------------------------------------------------------------ */

/* A beneficial event is kept by the player it affects; a detrimental one by his opponent. */
START_TEST(test_keep_in_hand)
{
	struct hm_state *s = make(FRENCH_UNITS, ", standing: {keep: [valiant-charge, anxious]}",
		AUSTRIAN_UNITS, "");
	struct harness h;
	const int script[] = { 1, 1, 9, 6, 1, 2 };
	harness_init(&h, script, 6);
	hm_random_event(&opts, s, 2, &h.dice, &h.ev); /* Valiant Charge for the French */
	ck_assert_int_eq(s->side[0].held, 9);
	ck_assert_int_eq(s->side[0].held_since, 2);
	ck_assert_uint_eq(s->n_effects, 0);
	/* Anxious on the French: gained by the Austrians, who keep nothing; it occurs even though
	 * the French hold an event (detrimental to them) */
	hm_random_event(&opts, s, 2, &h.dice, &h.ev);
	only_effect(s, 0, 2, "f-inf");
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* Anxious on the Austrians is gained by the French: they keep it and play it on the Austrians. */
START_TEST(test_keep_detrimental_play_on_opponent)
{
	struct hm_state *s = make(FRENCH_UNITS,
		", standing: {keep: [anxious], choose: {anxious: [a-art]}}", AUSTRIAN_UNITS, "");
	struct harness h;
	const int script[] = { 1, 2, 2 };
	harness_init(&h, script, 3);
	hm_random_event(&opts, s, 1, &h.dice, &h.ev);
	ck_assert_int_eq(s->side[0].held, 2);
	ck_assert_uint_eq(s->n_effects, 0);
	hm_play_held(&opts, s, 3, 0, &h.dice, &h.ev);
	ck_assert_int_eq(s->side[0].held, 0);
	const struct hm_effect *f = only_effect(s, 1, 2, "a-art");
	ck_assert_int_eq(f->until, 3);
	ck_assert_int_eq(f->chosen_by, HM_BY_ATTACKER);
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* One held at most: a second event to keep is applied. */
START_TEST(test_one_held_at_most)
{
	struct hm_state *s = make(FRENCH_UNITS,
		", held: hold-the-line, held-since: 1, "
		"standing: {keep: [anxious]}",
		AUSTRIAN_UNITS, "");
	struct harness h;
	const int script[] = { 1, 2, 2 };
	harness_init(&h, script, 3);
	hm_random_event(&opts, s, 2, &h.dice, &h.ev);
	ck_assert_int_eq(s->side[0].held, 19);
	only_effect(s, 1, 2, "a-inf1");
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* While the French hold an event, beneficial events for them do not occur; detrimental events
 * on them do; a beneficial one for the Austrians does. */
START_TEST(test_suppression)
{
	struct hm_state *s = make(FRENCH_UNITS, ", held: valiant-charge, held-since: 1",
		AUSTRIAN_UNITS, "");
	struct harness h;
	const int script[] = { 1, 1, _i, 1, 2, 9 };
	harness_init(&h, script, 6);
	hm_random_event(&opts, s, 2, &h.dice, &h.ev);
	if (hm_events[_i].beneficial) {
		ck_assert_uint_eq(s->n_effects, 0);
		ck_assert(events_have(&h.ev, "does not occur: french holds event 9"));
		ck_assert_int_eq(s->side[0].morale, 10);
	} else {
		ck_assert(!events_have(&h.ev, "does not occur"));
		ck_assert_uint_eq(s->n_effects,
			_i == 20 ? 0 : 1); /* no French unit in charge range */
	}
	size_t before = s->n_effects;
	hm_random_event(&opts, s, 2, &h.dice, &h.ev); /* Valiant Charge for the Austrians */
	ck_assert_uint_eq(s->n_effects, before + 1);
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* Option suppress-while-holding: any-gain-to-holder: an event detrimental to the Austrians,
 * which the French would gain, does not occur while the French hold one. */
START_TEST(test_suppression_any_gain)
{
	struct hm_state *s = make(FRENCH_UNITS, ", held: valiant-charge, held-since: 1",
		AUSTRIAN_UNITS, "");
	struct harness h;
	const int script[] = { 1, 2, 3, 6, 1, 3 };
	harness_init(&h, script, 6);
	opts.suppress_any_gain = 1;
	hm_random_event(&opts, s, 2, &h.dice, &h.ev);
	ck_assert_uint_eq(s->n_effects, 0);
	hm_random_event(&opts, s, 2, &h.dice, &h.ev); /* Hesitant on the French still occurs */
	only_effect(s, 0, 3, "f-inf");
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* ---- Rally to the Flag ------------------------------------------------------------------ */

/* D6 odd +1, even +2; once per game: a second time no die and no effect. */
START_TEST(test_rally_to_the_flag)
{
	struct hm_state *s = make_std();
	struct harness h;
	const int script[] = { 1, 1, 10, _i, 6, 1, 10 };
	harness_init(&h, script, 7);
	hm_random_event(&opts, s, 1, &h.dice, &h.ev);
	ck_assert_int_eq(s->side[0].morale, 10 + (_i % 2 ? 1 : 2));
	only_effect(s, 0, 10, NULL);
	ck_assert_int_eq(s->effects[0].amount, _i % 2 ? 1 : 2);
	hm_expire(s, 2, &h.ev);
	hm_random_event(&opts, s, 2, &h.dice, &h.ev);
	ck_assert_int_eq(s->side[0].morale, 10 + (_i % 2 ? 1 : 2));
	ck_assert_uint_eq(s->n_effects, 0);
	ck_assert(events_have(&h.ev, "no effect, used once already"));
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* once-per-player (default): the other side may still rally; once-per-game: not. */
START_TEST(test_rally_per_game_option)
{
	for (int per_game = 0; per_game <= 1; per_game++) {
		struct hm_state *s = make(FRENCH_UNITS, ", rally-to-the-flag-used: true",
			AUSTRIAN_UNITS, "");
		struct harness h;
		const int script[] = { 1, 2, 10, 4 };
		opts.rally_per_game = per_game;
		harness_init(&h, script, per_game ? 3 : 4);
		hm_random_event(&opts, s, 1, &h.dice, &h.ev);
		ck_assert_int_eq(s->side[1].morale, per_game ? 9 : 11);
		harness_release(&h);
		hm_state_free(s);
	}
}
END_TEST

/* ---- effects end with the turn ---------------------------------------------------------- */

START_TEST(test_expiry)
{
	struct hm_state *s = make_std();
	struct harness h;
	const int script[] = { 1, 2, 3 };
	harness_init(&h, script, 3);
	hm_random_event(&opts, s, 5, &h.dice, &h.ev);
	hm_expire(s, 5, &h.ev);
	ck_assert_uint_eq(s->n_effects, 1);
	hm_expire(s, 6, &h.ev);
	ck_assert_uint_eq(s->n_effects, 0);
	ck_assert(events_have(&h.ev, "ended with turn 5: event 3 Hesitant"));
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* ---- frequencies over many seeds --------------------------------------------------------- */

/* 60 000 turns from distinct seeds: an event on 1/3 of them and each event on 1/20 of those,
 * each within 5 standard deviations (deterministic: the seeds are fixed). */
START_TEST(test_frequencies)
{
	enum { TURNS = 60000 };
	long count[HM_EVENTS + 1] = { 0 }, events = 0;
	for (int i = 0; i < TURNS; i++) {
		uint8_t seed[32] = { 0 };
		memcpy(seed, &i, sizeof(i));
		struct hm_state *s = make_std();
		struct dice d;
		struct events ev;
		dice_init_fair(&d, seed);
		events_init(&ev);
		int e = hm_random_event(&opts, s, 1, &d, &ev);
		count[e]++;
		events += e != 0;
		dice_release(&d);
		events_release(&ev);
		hm_state_free(s);
	}
	/* 1/3 of 60 000 = 20 000, sd = sqrt(60000 * 1/3 * 2/3) = 115 */
	ck_assert_msg(events > 20000 - 577 && events < 20000 + 577, "%ld events", events);
	for (int e = 1; e <= HM_EVENTS; e++) /* 1000 each, sd = sqrt(20000 * 0.05 * 0.95) = 31 */
		ck_assert_msg(count[e] > 1000 - 155 && count[e] < 1000 + 155, "event %d: %ld", e,
			count[e]);
}
END_TEST

/* ---- options, orders, standing orders, adjustments --------------------------------------- */

static struct node *yaml(const char *text)
{
	struct node *n = NULL;
	struct diag d;
	diag_init(&d);
	ck_assert_int_eq(node_parse(&n, "t.yaml", text, strlen(text), NULL, &d), 0);
	diag_release(&d);
	return n;
}

/* Parses orders/standing for player; returns the number of problems, the first into first. */
static size_t orders_problems(const struct hm_state *s, const char *player, const char *orders,
	const char *standing, char *first, size_t len)
{
	struct node *o = yaml(orders), *st = standing ? yaml(standing) : NULL;
	struct diag d;
	void *out = NULL;
	diag_init(&d);
	int rc = hm_orders_parse(&out, &camp, s, 1, player, o, st, &d);
	size_t n = diag_count(&d);
	ck_assert_int_eq(rc, n ? -1 : 0);
	snprintf(first, len, "%s", n ? d.v[0].message : "");
	hm_orders_free(out);
	diag_release(&d);
	node_free(o);
	node_free(st);
	return n;
}

START_TEST(test_orders)
{
	struct hm_state *s = make(FRENCH_UNITS, ", held: valiant-charge, held-since: 1",
		AUSTRIAN_UNITS, "");
	char m[400];
	ck_assert_uint_eq(orders_problems(s, "french", "[{play-held: true}]", NULL, m, sizeof(m)),
		0);
	ck_assert_uint_eq(orders_problems(s, "austrians", "[{play-held: true}]", NULL, m,
				  sizeof(m)),
		1);
	ck_assert_str_eq(m, "'austrians' holds no event in hand ('play-held' only while holding "
			    "one expected)");
	ck_assert_uint_eq(orders_problems(s, "french", "[{play-held: true}, {play-held: true}]",
				  NULL, m, sizeof(m)),
		1);
	ck_assert_uint_eq(orders_problems(s, "french", "[{play: true}]", NULL, m, sizeof(m)), 2);
	ck_assert_uint_eq(
		orders_problems(s, "french", "[]",
			"{keep: [valiant-charge], choose: {any: [a-inf1], anxious: [f-inf]}}", m,
			sizeof(m)),
		0);
	ck_assert_uint_eq(orders_problems(s, "french", "[]", "{keep: [valiant]}", m, sizeof(m)), 1);
	ck_assert_str_eq(m, "'valiant' is not an event of the table (a name such as "
			    "'valiant-charge' or 'anxious' expected)");
	ck_assert_uint_eq(orders_problems(s, "french", "[]", "{choose: {any: [nobody]}}", m,
				  sizeof(m)),
		1);
	ck_assert_str_eq(m, "'nobody' is not a unit of the model (a unit id expected)");
	hm_state_free(s);
}
END_TEST

START_TEST(test_options)
{
	struct diag d;
	void *o = NULL;
	diag_init(&d);
	struct node *n = yaml("{rally-to-the-flag: once-per-game, held-events: after-the-roll, "
			      "suppress-while-holding: any-gain-to-holder}");
	ck_assert_int_eq(hm_options_parse(&o, n, &d), 0);
	const struct hm_options *x = o;
	ck_assert(x->rally_per_game && x->held_after_roll && x->suppress_any_gain);
	hm_options_free(o);
	node_free(n);
	n = yaml("{rally-to-the-flag: twice}");
	ck_assert_int_eq(hm_options_parse(&o, n, &d), -1);
	ck_assert_uint_eq(diag_count(&d), 1);
	node_free(n);
	diag_release(&d);
}
END_TEST

/* Adjustments as the core hands them over: positions from the items, checked in order. */
struct adj_fixture {
	struct node *doc;
	struct adjustment v[8];
	size_t n;
};

static void adj_make(struct adj_fixture *f, const char *text)
{
	f->doc = yaml(text);
	f->n = f->doc->n;
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
		if ((k = node_get(it, "side")))
			a->side = xstrdup(k->scalar);
		if ((k = node_get(it, "by")))
			a->by = strtoll(k->scalar, NULL, 10);
		if ((k = node_get(it, "type")))
			a->type = xstrdup(k->scalar);
		if ((k = node_get(it, "strength")))
			a->strength = strtoll(k->scalar, NULL, 10);
		if ((k = node_get(it, "status")))
			a->status = xstrdup(k->scalar);
		if ((k = node_get(it, "value")))
			a->value = strcmp(k->scalar, "true") == 0;
		a->name = xstrdup(a->unit ? a->unit : "x");
	}
}

static void adj_release(struct adj_fixture *f)
{
	for (size_t i = 0; i < f->n; i++)
		adjustment_release(&f->v[i]);
	node_free(f->doc);
}

START_TEST(test_adjust_check)
{
	struct hm_state *s = make_std();
	struct adj_fixture f;
	struct diag d;
	diag_init(&d);
	/* a unit added by one adjustment may be named by a later one */
	adj_make(&f,
		"[{adjust: add-unit, side: austrians, unit: grenz, type: infantry, "
		"strength: 3}, {adjust: disr, unit: grenz, by: 2}, {adjust: break, unit: grenz}, "
		"{adjust: morale, side: french, by: -3}, {adjust: status, unit: f-cav, "
		"status: in-charge-range, value: true}, {adjust: remove, unit: a-art}]");
	ck_assert_int_eq(hm_adjust_check(&camp, s, f.v, f.n, &d), 0);
	struct buf what = BUF_INIT;
	for (size_t i = 0; i < f.n; i++)
		ck_assert_int_eq(hm_adjust_apply(&camp, s, &f.v[i], &what), 0);
	ck_assert_int_eq(unit(s, "grenz")->disr, 2);
	ck_assert_int_eq(unit(s, "grenz")->break_at, 3);
	ck_assert_int_eq(unit(s, "grenz")->broken, 1);
	ck_assert_int_eq(unit(s, "grenz")->side, 1);
	ck_assert_int_eq(s->side[0].morale, 7);
	ck_assert_int_eq(unit(s, "f-cav")->charge_range, 1);
	ck_assert_int_lt(hm_unit_find(s, "a-art"), 0);
	buf_release(&what);
	adj_release(&f);
	/* every problem, each at its node */
	adj_make(&f, "[{adjust: disr, unit: a-inf1, by: -2}, {adjust: remove, unit: a-art},\n"
		     " {adjust: break, unit: a-art}, {adjust: add-unit, side: french, unit: f-inf, "
		     "type: infantry, strength: 2},\n {adjust: add-unit, side: french, unit: x, "
		     "type: dragoons, strength: 2}, {adjust: status, unit: f-inf, status: shaken, "
		     "value: true},\n {adjust: morale, side: french, by: 95}, {adjust: add-unit, "
		     "side: french, unit: y, type: cavalry}]");
	ck_assert_int_eq(hm_adjust_check(&camp, s, f.v, f.n, &d), -1);
	ck_assert_uint_eq(diag_count(&d), 8);
	ck_assert_str_eq(d.v[0].message,
		"unit 'a-inf1' has 1 DISR: -2 leaves -1 (0 to 99 expected)");
	ck_assert_int_eq(d.v[0].line, 1);
	ck_assert_str_eq(d.v[1].message, "'a-art' is not a unit of the model (a unit id expected)");
	ck_assert_int_eq(d.v[1].line, 1);
	ck_assert_int_eq(d.v[2].line, 2);
	ck_assert_str_eq(d.v[2].message, "'a-art' is not a unit of the model (a unit id expected)");
	ck_assert_str_eq(d.v[3].message,
		"unit 'f-inf' is already in the model (a new id expected)");
	ck_assert_int_eq(d.v[4].line, 3);
	ck_assert_str_eq(d.v[5].message,
		"'shaken' is not a status of hm-events ('in-charge-range' expected)");
	ck_assert_str_eq(d.v[6].message, "army morale 7 +95 is out of range (-99 to 99 expected)");
	ck_assert_str_eq(d.v[7].message, "'adjust: add-unit' needs 'strength' (the DISR at which "
					 "the unit breaks)");
	adj_release(&f);
	diag_release(&d);
	hm_state_free(s);
}
END_TEST

/* resolve: standing orders take effect first; held events before the roll by default, after
 * it with held-events: after-the-roll (where a beneficial event for the holder is then
 * suppressed). */
START_TEST(test_resolve_order)
{
	struct hm_state *s = make(FRENCH_UNITS, ", held: hold-the-line, held-since: 1",
		AUSTRIAN_UNITS, "");
	struct hm_orders fr = { .play_held = 1 }, au = { 0 };
	struct rules_orders ro[2] = { { "austrians", &au }, { "french", &fr } };
	const int script[] = { 6, 1, 9 };
	struct harness h;
	opts.held_after_roll = _i;
	harness_init(&h, script, 3);
	struct rules_turn t = harness_turn(&h, 2, ro, 2);
	ck_assert_int_eq(hm_resolve(&camp, s, &t), 0);
	ck_assert_int_eq(s->side[0].held, 0);
	ck_assert_uint_eq(s->n_effects, _i ? 1 : 2);
	ck_assert_int_eq(s->effects[0].event, 19);
	ck_assert_str_eq(buf_str(&t.summary), "random event 9 Valiant Charge");
	buf_release(&t.summary);
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* Standing orders sent with a turn replace the player's before the roll and stay in force. */
START_TEST(test_standing_orders_in_force)
{
	struct hm_state *s = make_std();
	struct hm_orders fr = { .has_standing = 1 };
	fr.standing.choose[3][0] = xstrdup("a-art");
	fr.standing.n_choose[3] = 1;
	struct rules_orders ro[1] = { { "french", &fr } };
	const int script[] = { 1, 2, 3 };
	struct harness h;
	harness_init(&h, script, 3);
	struct rules_turn t = harness_turn(&h, 1, ro, 1);
	ck_assert_int_eq(hm_resolve(&camp, s, &t), 0);
	only_effect(s, 1, 3, "a-art"); /* Hesitant on the Austrians, chosen by the French */
	ck_assert_int_eq(s->effects[0].chosen_by, HM_BY_ATTACKER);
	ck_assert_uint_eq(s->side[0].standing.n_choose[3], 1);
	buf_release(&t.summary);
	harness_release(&h);
	hm_orders_free(NULL);
	hm_state_free(s);
}
END_TEST

/* Sealed (docs/rules/hm-events.md, "Sealed campaigns"): a side's standing orders are in its
 * own view only, the public view has none; the rest of the state is the same for all. */
START_TEST(test_state_view)
{
	struct hm_state *s = make(FRENCH_UNITS, ", standing: {keep: [valiant-charge]}",
		AUSTRIAN_UNITS, ", standing: {choose: {anxious: [a-inf1]}}");
	struct node *views[3] = { hm_state_view(&camp, s, "french"),
		hm_state_view(&camp, s, "austrians"), hm_state_view(&camp, s, NULL) };
	struct buf b[3] = { BUF_INIT, BUF_INIT, BUF_INIT };
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(node_emit(views[i], &b[i]), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&b[0]), "valiant-charge"));
	ck_assert_ptr_null(strstr(buf_str(&b[0]), "anxious"));
	ck_assert_ptr_nonnull(strstr(buf_str(&b[1]), "anxious"));
	ck_assert_ptr_null(strstr(buf_str(&b[1]), "valiant-charge"));
	ck_assert_ptr_null(strstr(buf_str(&b[2]), "standing"));
	ck_assert_ptr_nonnull(strstr(buf_str(&b[2]), "a-inf1"));
	for (int i = 0; i < 3; i++) {
		node_free(views[i]);
		buf_release(&b[i]);
	}
	hm_state_free(s);
}
END_TEST

/* Sealed: a default choice is told as the chooser's (whether his standing orders named the
 * unit is his secret), and no event says a side sent standing orders; open, both are told. */
START_TEST(test_sealed_events)
{
	struct hm_state *s = make_std();
	struct hm_orders fr = { .has_standing = 1 };
	struct rules_orders ro[1] = { { "french", &fr } };
	const int script[] = { 1, 2, 3 }; /* Hesitant on the Austrians, the French choose */
	struct harness h;
	harness_init(&h, script, 3);
	h.ev.sealed = _i;
	struct rules_turn t = harness_turn(&h, 1, ro, 1);
	ck_assert_int_eq(hm_resolve(&camp, s, &t), 0);
	only_effect(s, 1, 3, "a-inf1");
	ck_assert_int_eq(s->effects[0].chosen_by, _i ? HM_BY_ATTACKER : HM_BY_DEFAULT);
	ck_assert_int_eq(events_have(&h.ev, "(chosen by default)"), !_i);
	ck_assert_int_eq(events_have(&h.ev, "(chosen by the attacker)"), _i);
	ck_assert_int_eq(events_have(&h.ev, "standing orders of french"), !_i);
	buf_release(&t.summary);
	harness_release(&h);
	hm_state_free(s);
}
END_TEST

/* ---- issue 26 ------------------------------------------------------------------------------ */

/* Emits s and parses it again, as the next turn reads the committed state: 0 if it parses. */
static int reparse(const struct hm_state *s, struct hm_state **out)
{
	struct node *n = hm_state_emit(&camp, s);
	struct buf b = BUF_INIT;
	ck_assert_int_eq(node_emit(n, &b), 0);
	node_free(n);
	struct node *root = NULL;
	struct diag d;
	void *x = NULL;
	diag_init(&d);
	ck_assert_int_eq(node_parse(&root, "state.yaml", b.data, b.len, NULL, &d), 0);
	int rc = hm_state_parse(&x, &camp, root, &d);
	if (rc < 0)
		diag_print(&d, stderr);
	diag_release(&d);
	node_free(root);
	buf_release(&b);
	*out = x;
	return rc;
}

/* docs/rules/hm-events.md "Orders": a unit the umpire removes is passed over by the standing
 * orders that name it, both those committed before (0) and those sent with the turn of the
 * removal (1, checked before the adjustment): the state written names only units of the model,
 * so the next turn reads it; the rest of the list stays, in order. */
START_TEST(test_removed_unit_passed_over)
{
	struct hm_state *s = make(FRENCH_UNITS,
		_i ? "" : ", standing: {choose: {any: [a-art, a-inf1], anxious: [a-art]}}",
		AUSTRIAN_UNITS, "");
	struct hm_orders fr = { .has_standing = _i };
	if (_i) {
		struct node *st = yaml("{choose: {any: [a-art, a-inf1], anxious: [a-art]}}");
		struct diag d;
		diag_init(&d);
		ck_assert_int_eq(hm_standing_parse(&fr.standing, s, st, &d), 0);
		diag_release(&d);
		node_free(st);
	}
	struct adjustment a = { .kind = ADJUST_REMOVE, .index = 1, .unit = (char *)"a-art" };
	struct buf what = BUF_INIT;
	ck_assert_int_eq(hm_adjust_apply(&camp, s, &a, &what), 0);
	buf_release(&what);
	struct rules_orders ro[1] = { { "french", &fr } };
	const int script[] = { 3 }; /* no event */
	struct harness h;
	harness_init(&h, script, 1);
	struct rules_turn t = harness_turn(&h, 1, ro, 1);
	ck_assert_int_eq(hm_resolve(&camp, s, &t), 0);
	buf_release(&t.summary);
	harness_release(&h);
	hm_standing_release(&fr.standing);
	struct hm_state *next = NULL;
	ck_assert_int_eq(reparse(s, &next), 0);
	const struct hm_standing *st = &next->side[0].standing;
	ck_assert_uint_eq(st->n_choose[0], 1);
	ck_assert_str_eq(st->choose[0][0], "a-inf1");
	ck_assert_uint_eq(st->n_choose[2], 0);
	hm_state_free(next);
	hm_state_free(s);
}
END_TEST

/* Random Events: Rally to the Flag "is only performed once per game" (NOTES §002): with no
 * option the French having rallied, the Austrians' rally has no effect and no die (0); the
 * option once-per-player lets them (1: D6 4, +2). */
START_TEST(test_rally_default_once_per_game)
{
	void *o = NULL;
	struct diag d;
	diag_init(&d);
	struct node *n = yaml(_i ? "{rally-to-the-flag: once-per-player}" : "{}");
	ck_assert_int_eq(hm_options_parse(&o, n, &d), 0);
	node_free(n);
	diag_release(&d);
	struct node *e = hm_options_emit(o);
	ck_assert_str_eq(node_get(e, "rally-to-the-flag")->scalar,
		_i ? "once-per-player" : "once-per-game");
	node_free(e);
	struct hm_state *s = make(FRENCH_UNITS, ", rally-to-the-flag-used: true", AUSTRIAN_UNITS,
		"");
	struct harness h;
	const int script[] = { 1, 2, 10, 4 };
	harness_init(&h, script, _i ? 4 : 3);
	hm_random_event(o, s, 1, &h.dice, &h.ev);
	ck_assert_int_eq(s->side[1].morale, _i ? 11 : 9);
	ck_assert_int_eq(s->side[1].rally_used, _i);
	harness_release(&h);
	hm_state_free(s);
	hm_options_free(o);
}
END_TEST

static Suite *hm_suite(void)
{
	Suite *s = suite_create("hm-events");
	TCase *t = tcase_create("procedure");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_loop_test(t, test_no_event_on_2_to_5, 2, 6);
	tcase_add_loop_test(t, test_event_side, 1, 7);
	tcase_add_test(t, test_attacker_is_named);
	suite_add_tcase(s, t);
	t = tcase_create("events");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_loop_test(t, test_each_event, 1, HM_EVENTS + 1);
	tcase_add_test(t, test_instruction_wording);
	tcase_add_loop_test(t, test_impossible, 0, 8);
	tcase_add_test(t, test_disorganized_would_break);
	tcase_add_test(t, test_disorganized_default);
	tcase_add_test(t, test_well_disciplined_no_disr);
	tcase_add_test(t, test_choosers);
	tcase_add_test(t, test_default_most_disr);
	suite_add_tcase(s, t);
	t = tcase_create("held");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_keep_in_hand);
	tcase_add_test(t, test_keep_detrimental_play_on_opponent);
	tcase_add_test(t, test_one_held_at_most);
	tcase_add_loop_test(t, test_suppression, 1, HM_EVENTS + 1);
	tcase_add_test(t, test_suppression_any_gain);
	suite_add_tcase(s, t);
	t = tcase_create("rally");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_loop_test(t, test_rally_to_the_flag, 1, 7);
	tcase_add_test(t, test_rally_per_game_option);
	tcase_add_loop_test(t, test_rally_default_once_per_game, 0, 2);
	tcase_add_loop_test(t, test_removed_unit_passed_over, 0, 2);
	tcase_add_test(t, test_expiry);
	suite_add_tcase(s, t);
	t = tcase_create("files");
	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_test(t, test_orders);
	tcase_add_test(t, test_options);
	tcase_add_test(t, test_adjust_check);
	tcase_add_loop_test(t, test_resolve_order, 0, 2);
	tcase_add_test(t, test_standing_orders_in_force);
	tcase_add_test(t, test_state_view);
	tcase_add_loop_test(t, test_sealed_events, 0, 2);
	suite_add_tcase(s, t);
	t = tcase_create("statistics");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_frequencies);
	suite_add_tcase(s, t);
	return s;
}

TEST_MAIN(hm_suite)
