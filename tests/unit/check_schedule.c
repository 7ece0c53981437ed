/* check_schedule.c — the umpire's overrides (core/schedule.c): every deadline moved by the
 * extensions, pauses and resumes made while its turn or an earlier one was open; the checks
 * verify makes of a close's overrides (none moves a deadline that had passed, extensions
 * within the budget, a pause and a resume by what they say); the seat's new player. */
#include <check.h>
#include <string.h>

#include "core/campaign.h"
#include "core/error.h"
#include "core/pbem.h"
#include "core/schedule.h"
#include "testutil.h"

#define FIRST 1767355200LL /* turn 1's deadline */
#define DAY 86400LL

static char *players[] = { "attacker", "defender" };

/* A campaign with a schedule (every day, 1d of extensions each) and overrides v[0..n-1]. */
static void campaign_with(struct campaign *c, struct override *v, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->players = players;
	c->n_players = 2;
	c->pbem.schedule.set = 1;
	c->pbem.schedule.first_deadline = FIRST;
	c->pbem.schedule.every = DAY;
	c->pbem.schedule.extensions = DAY;
	c->pbem.overrides = v;
	c->pbem.n_overrides = n;
}

START_TEST(test_deadlines_follow)
{
	struct override v[] = {
		{ .kind = OVERRIDE_EXTEND,
			.turn = 2,
			.at = FIRST + 100,
			.shift = DAY,
			.player = "attacker",
			.reason = "" },
		{ .kind = OVERRIDE_PAUSE,
			.turn = 3,
			.at = FIRST + 2 * DAY + 100,
			.until = FIRST + 4 * DAY + 100,
			.shift = 2 * DAY,
			.reason = "away" },
		{ .kind = OVERRIDE_RESUME,
			.turn = 3,
			.at = FIRST + 3 * DAY + 100,
			.shift = -DAY,
			.reason = "" },
	};
	struct campaign c;
	long long until;

	campaign_with(&c, v, 3);
	ck_assert_int_eq(pbem_deadline(&c.pbem, 1), FIRST);
	ck_assert_int_eq(pbem_deadline(&c.pbem, 2), FIRST + 2 * DAY);
	ck_assert_int_eq(pbem_deadline(&c.pbem, 3), FIRST + 4 * DAY);
	ck_assert_int_eq(pbem_deadline(&c.pbem, 9), FIRST + 10 * DAY);
	ck_assert_int_eq(schedule_deadline_before(&c, 1, 3), FIRST + 3 * DAY);
	ck_assert_int_eq(schedule_check_close(&c, 2, FIRST, FIRST + 2 * DAY), 0);
	ck_assert_msg(schedule_check_close(&c, 3, FIRST + 2 * DAY, FIRST + 4 * DAY) == 0, "%s",
		error_last()->message);
	/* the resume ended the pause: nothing runs after it */
	ck_assert_int_eq(schedule_paused(&c, FIRST + 3 * DAY + 200, &until), 0);
	c.pbem.n_overrides = 2;
	ck_assert_int_eq(schedule_paused(&c, FIRST + 3 * DAY + 200, &until), 1);
	ck_assert_int_eq(until, FIRST + 4 * DAY + 100);
}
END_TEST

START_TEST(test_passed_deadline_refused)
{
	/* made a minute after turn 2's deadline: it cannot move it */
	struct override v[] = { { .kind = OVERRIDE_EXTEND,
		.turn = 2,
		.at = FIRST + DAY + 60,
		.shift = DAY,
		.player = "defender",
		.reason = "backdated" } };
	struct campaign c;

	campaign_with(&c, v, 1);
	ck_assert_int_eq(schedule_check_close(&c, 2, FIRST, FIRST + 2 * DAY), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "which had passed then"));
	error_clear();
	/* at the deadline itself, too */
	v[0].at = FIRST + DAY;
	ck_assert_int_eq(schedule_check_close(&c, 2, FIRST, FIRST + 2 * DAY), -1);
	error_clear();
	/* a second before: in time */
	v[0].at = FIRST + DAY - 1;
	ck_assert_int_eq(schedule_check_close(&c, 2, FIRST, FIRST + 2 * DAY), 0);
	/* made after the close that carries it: outside the turn */
	ck_assert_int_eq(schedule_check_close(&c, 2, FIRST, FIRST + DAY - 2), -1);
	error_clear();
}
END_TEST

START_TEST(test_budget_and_shapes)
{
	struct override v[] = {
		{ .kind = OVERRIDE_EXTEND,
			.turn = 1,
			.at = FIRST - 100,
			.shift = 12 * 3600,
			.player = "attacker",
			.reason = "" },
		{ .kind = OVERRIDE_EXTEND,
			.turn = 1,
			.at = FIRST - 50,
			.shift = 13 * 3600,
			.player = "attacker",
			.reason = "" },
	};
	struct campaign c;

	campaign_with(&c, v, 2);
	/* 25h of a 24h budget */
	ck_assert_int_eq(schedule_check_close(&c, 1, -1, FIRST + DAY), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "over the budget"));
	error_clear();
	v[1].player = "defender"; /* another player's budget */
	ck_assert_int_eq(schedule_check_close(&c, 1, -1, FIRST + DAY), 0);
	ck_assert_int_eq(schedule_extended(&c, "attacker"), 12 * 3600);
	/* a pause that shifts by other than its length */
	v[1] = (struct override){ .kind = OVERRIDE_PAUSE,
		.turn = 1,
		.at = FIRST - 50,
		.until = FIRST + DAY,
		.shift = DAY,
		.reason = "" };
	ck_assert_int_eq(schedule_check_close(&c, 1, -1, FIRST + 2 * DAY), -1);
	error_clear();
	/* a resume with no pause running */
	v[1] = (struct override){ .kind = OVERRIDE_RESUME,
		.turn = 1,
		.at = FIRST - 50,
		.shift = -10,
		.reason = "" };
	ck_assert_int_eq(schedule_check_close(&c, 1, -1, FIRST + 2 * DAY), -1);
	error_clear();
}
END_TEST

START_TEST(test_seat_new_player)
{
	struct override v[] = {
		{ .kind = OVERRIDE_REPLACE,
			.turn = 4,
			.at = FIRST,
			.player = "attacker",
			.reason = "" },
		{ .kind = OVERRIDE_REPLACE,
			.turn = 7,
			.at = FIRST,
			.player = "attacker",
			.reason = "" },
	};
	struct campaign c;
	struct buf b = BUF_INIT;

	campaign_with(&c, v, 2);
	ck_assert_int_eq(seat_new_player_from(&c, "attacker"), 7);
	ck_assert_int_eq(seat_new_player_from(&c, "defender"), 1);
	/* a stand-in moves no deadline */
	ck_assert_int_eq(pbem_deadline(&c.pbem, 8), FIRST + 7 * DAY);
	override_describe(&b, &v[0]);
	ck_assert_str_eq(buf_str(&b),
		"2026-01-02T12:00:00Z: seat attacker: new player from turn 4");
	buf_release(&b);
}
END_TEST

static Suite *schedule_suite(void)
{
	Suite *s = suite_create("schedule");
	TCase *tc = tcase_create("overrides");
	tcase_add_test(tc, test_deadlines_follow);
	tcase_add_test(tc, test_passed_deadline_refused);
	tcase_add_test(tc, test_budget_and_shapes);
	tcase_add_test(tc, test_seat_new_player);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(schedule_suite)
