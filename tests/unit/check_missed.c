/* check_missed.c — missed turns (core/missed.c) counted from a real campaign's committed
 * history: in a row, in all, the reset at accepted orders and at a seat's new player (the
 * stub), civil disorder entered and left; and each rule system's hold orders (rules.h
 * hold_orders, docs/rules/NAME.md "Hold orders") played in a turn of its shipped scenario. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/campaign.h"
#include "core/error.h"
#include "core/missed.h"
#include "core/schedule.h"
#include "core/turn.h"
#include "rules/rules.h"
#include "rules/hm-events/hmevents.h"
#include "rules/reivers/reivers.h"
#include "testutil.h"

static void setup_root(void)
{
	test_root_make("missed");
}

static void teardown_root(void)
{
	test_root_remove();
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct buf b = BUF_INIT;
	char chunk[4096];
	size_t n;

	ck_assert_ptr_nonnull(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	*len = b.len;
	return buf_detach(&b);
}

/* The shipped scenario of campaign `name` with `schedule` (YAML lines) appended, created
 * under the test root as dir, entropy none. */
static struct campaign *make(const char *name, const char *dir, const char *schedule)
{
	struct campaign_spec spec;
	struct campaign *c = NULL;
	struct diag d;
	size_t len;
	char *path = xasprintf("campaigns/%s/scenario.yaml", name);
	char *scen = read_all(path, &len);
	struct buf b = BUF_INIT;

	buf_append(&b, scen, len);
	buf_puts(&b, schedule);
	memset(&spec, 0, sizeof(spec));
	spec.dir = test_path(dir);
	spec.scenario_name = "scenario.yaml";
	spec.scenario = b.data;
	spec.scenario_len = b.len;
	spec.chain_length = 16;
	spec.when = 1767225600;
	spec.visibility = CAMPAIGN_OPEN;
	memset(spec.secret, 7, sizeof(spec.secret));
	diag_init(&d);
	ck_assert_msg(campaign_create(&c, &spec, &d) == 0, "%s", error_last()->message);
	diag_release(&d);
	buf_release(&b);
	free(scen);
	free(path);
	free((char *)spec.dir);
	return c;
}

/* Plays turn n of the betio-seawall campaign c with a file (no orders) from each player of
 * `from` (NULL-terminated); the others due are journaled as missing. The events' text, one
 * a line, into events. */
static const char *ija_standing = ""; /* appended to the ija's order files */

static void play(struct campaign *c, int n, const char *const *from, struct buf *events)
{
	struct turn t;

	turn_init(&t, c, TURN_LIVE, TURN_ALLOW_MISSING, NULL, NULL, NULL);
	t.when = 1767225600 + n;
	for (size_t i = 0; from[i]; i++) {
		char *name = xasprintf("%s-%d.yaml", from[i], n);
		char *text = xasprintf("campaign: %s\nturn: %d\nplayer: %s\norders: []\n%s", c->id,
			n, from[i], strcmp(from[i], "ija") == 0 ? ija_standing : "");
		turn_add_order_bytes(&t, name, text, strlen(text));
		free(name);
		free(text);
	}
	ck_assert_msg(turn_run(&t, "recover", "publish") == 0, "%s", error_last()->message);
	buf_clear(events);
	for (size_t i = 0; i < t.out.events.n; i++)
		buf_printf(events, "%s\n", t.out.events.v[i].text);
	turn_release(&t);
}

static void want(const struct missed *m, int in_row, int total, int disorder)
{
	ck_assert_int_eq(m->in_row, in_row);
	ck_assert_int_eq(m->total, total);
	ck_assert_int_eq(m->disorder, disorder);
}

START_TEST(test_counted_from_history)
{
	struct campaign *c = make("betio-seawall", "count",
		"schedule:\n  first_deadline: 2026-01-02T00:00:00Z\n  civil_disorder: 2\n");
	static const char *const usmc[] = { "usmc", NULL };
	static const char *const both[] = { "usmc", "ija", NULL };
	struct missed m[2];
	struct buf ev = BUF_INIT;

	/* campaign order: usmc, ija */
	ck_assert_str_eq(c->players[1], "ija");
	ck_assert_int_eq(seat_new_player_from(c, "ija"), 1); /* the stub: never replaced */
	ck_assert_int_eq(missed_count(m, c, 5), 0);          /* no turn yet: nothing */
	want(&m[1], 0, 0, 0);
	play(c, 1, usmc, &ev);
	ck_assert_int_eq(missed_count(m, c, 1), 0);
	want(&m[0], 0, 0, 0);
	want(&m[1], 1, 1, 0);
	ck_assert_int_eq(m[1].last, 1);
	play(c, 2, both, &ev); /* orders: the count in a row restarts, in all stays */
	ck_assert_int_eq(missed_count(m, c, 2), 0);
	want(&m[1], 0, 1, 0);
	play(c, 3, usmc, &ev);
	ck_assert_ptr_null(strstr(buf_str(&ev), "civil disorder"));
	ck_assert_ptr_null(strstr(buf_str(&ev), "holds"));
	play(c, 4, usmc, &ev); /* the second in a row: civil disorder, hold orders */
	ck_assert_ptr_nonnull(strstr(buf_str(&ev), "ija: civil disorder: 2 turns missed in a row"));
	ck_assert_ptr_nonnull(strstr(buf_str(&ev), "ija holds: no impulse, no opportunity fire"));
	ck_assert_int_eq(missed_count(m, c, 4), 0);
	want(&m[1], 2, 3, 1);
	ck_assert_int_eq(missed_in_row_before(c, 5, "ija", 100), 2);
	ck_assert_int_eq(missed_in_row_before(c, 5, "ija", 1), 1); /* capped */
	ck_assert_int_eq(missed_in_row_before(c, 5, "usmc", 100), 0);
	/* counting up to an earlier turn sees only that far */
	ck_assert_int_eq(missed_count(m, c, 3), 0);
	want(&m[1], 1, 2, 0);
	play(c, 5, usmc, &ev);
	ck_assert_ptr_nonnull(strstr(buf_str(&ev), "ija: in civil disorder"));
	play(c, 6, both, &ev); /* orders again: civil disorder ends */
	ck_assert_ptr_nonnull(strstr(buf_str(&ev),
		"ija: civil disorder ends: orders accepted after 3 turns missed in a row"));
	ck_assert_ptr_null(strstr(buf_str(&ev), "holds"));
	ck_assert_int_eq(missed_count(m, c, 6), 0);
	want(&m[1], 0, 4, 0);
	want(&m[0], 0, 0, 0);
	struct buf line = BUF_INIT;
	missed_describe(&line, &m[1]);
	ck_assert_str_eq(buf_str(&line), "0 in a row, 4 in all");
	buf_release(&line);
	buf_release(&ev);
	campaign_close(c);
}
END_TEST

/* schedule.missed: hold, no civil disorder: every miss holds, none is civil disorder. */
START_TEST(test_missed_hold)
{
	struct campaign *c = make("betio-seawall", "hold",
		"schedule:\n  first_deadline: 2026-01-02T00:00:00Z\n  missed: hold\n");
	static const char *const usmc[] = { "usmc", NULL };
	static const char *const both[] = { "usmc", "ija", NULL };
	struct buf ev = BUF_INIT;

	ck_assert_int_eq(c->pbem.schedule.missed, PBEM_MISSED_HOLD);
	ija_standing = "standing:\n  opportunity:\n    - {hex: \"0405\", within: 2}\n";
	play(c, 1, both, &ev);
	ija_standing = "";
	play(c, 2, usmc, &ev);
	ck_assert_ptr_nonnull(strstr(buf_str(&ev), "ija holds: no impulse, no opportunity fire"));
	ck_assert_ptr_null(strstr(buf_str(&ev), "usmc holds"));
	ck_assert_ptr_null(strstr(buf_str(&ev), "civil disorder"));
	/* the side's standing opportunity fire is kept in the state for when it sends again */
	void *state = NULL;
	int turn;
	ck_assert_int_eq(turn_load_whole_state(c, 2, &turn, &state), 0);
	struct node *n = c->rules->state_emit(&c->rc, state);
	struct buf y = BUF_INIT;
	ck_assert_int_eq(node_emit(n, &y), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&y), "opportunity"));
	buf_release(&y);
	node_free(n);
	c->rules->state_free(state);
	buf_release(&ev);
	campaign_close(c);
}
END_TEST

/* Each rule system's hold orders in a turn of its shipped scenario where no side sends. */
static void hold_turn(const char *name, const char *dir, const char *expect)
{
	struct campaign *c = make(name, dir,
		"schedule:\n  first_deadline: 2026-01-02T00:00:00Z\n  missed: hold\n");
	static const char *const none[] = { NULL };
	struct buf ev = BUF_INIT;

	ck_assert_ptr_nonnull(c->rules->hold_orders);
	play(c, 1, none, &ev);
	if (expect)
		ck_assert_msg(strstr(buf_str(&ev), expect), "%s: no '%s' in:\n%s", name, expect,
			buf_str(&ev));
	buf_release(&ev);
	campaign_close(c);
}

START_TEST(test_hold_landraid)
{
	/* §17 step 3: only an ordered officer acts */
	hold_turn("harbour-raid", "lr",
		"the attacker holds: no officer acts, the sheet's defaults");
}
END_TEST

START_TEST(test_hold_warmaster)
{
	/* Warmaster Command, Shooting: nothing moves, shoots or casts without an order */
	hold_turn("karak-gate", "wm", " holds: no unit is ordered, shoots or casts");
}
END_TEST

START_TEST(test_hold_reivers_hmevents)
{
	const char *const players[] = { "armstrong", "forster" };
	struct rules_campaign rc = { "x", players, 2, NULL };
	void *o = NULL;
	/* Reivers: no group has an order, no stun; morale and melee go on without one */
	const struct rule_system *rs = rules_find("reivers");
	ck_assert_int_eq(rs->hold_orders(&o, &rc, NULL, 1, "forster"), 0);
	const struct rv_orders *ro = o;
	ck_assert_int_eq(ro->side, 1);
	ck_assert_uint_eq(ro->n, 0);
	ck_assert_int_eq(ro->stun, 0);
	rs->orders_free(o);
	ck_assert_int_eq(rs->hold_orders(&o, &rc, NULL, 1, "nobody"), -1);
	hold_turn("bewcastle-fray", "rv", "no orders from forster");
	/* hm-events: none; no held event played, standing orders untouched */
	rs = rules_find("hm-events");
	ck_assert_int_eq(rs->hold_orders(&o, &rc, NULL, 1, "armstrong"), 0);
	const struct hm_orders *ho = o;
	ck_assert_int_eq(ho->play_held, 0);
	ck_assert_int_eq(ho->has_standing, 0);
	rs->orders_free(o);
	hold_turn("aspenbach-1809", "hm", NULL);
}
END_TEST

static Suite *missed_suite(void)
{
	Suite *s = suite_create("missed");
	TCase *tc = tcase_create("history");
	tcase_add_unchecked_fixture(tc, setup_root, teardown_root);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_counted_from_history);
	tcase_add_test(tc, test_missed_hold);
	tcase_add_test(tc, test_hold_landraid);
	tcase_add_test(tc, test_hold_warmaster);
	tcase_add_test(tc, test_hold_reivers_hmevents);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(missed_suite)
