/* check_timelock.c — time-locked orders (timelock.h; docs/fairness.md, "Time-locked orders"):
 * R(turn) from the schedule in integer arithmetic, against rounds worked out by hand; a file's
 * player from its name; age recipients; spawn_capture, the spawn layer umpire-tlock runs
 * through (the tool itself: tests/e2e/t_timelocked.sh). */
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "core/buf.h"
#include "core/campaign.h"
#include "core/close.h"
#include "core/error.h"
#include "core/schedule.h"
#include "core/spawn.h"
#include "core/timelock.h"

/* A campaign of the demo beacon with turn 1's deadline 2026-01-02T12:00:00Z, every day. */
static void demo_campaign(struct campaign *c)
{
	memset(c, 0, sizeof(*c));
	c->entropy = CAMPAIGN_ENTROPY_BEACON;
	c->beacon_genesis = CAMPAIGN_DEMO_BEACON_GENESIS;
	c->beacon_period = CAMPAIGN_DEMO_BEACON_PERIOD;
	c->beacon_delay = CAMPAIGN_BEACON_DELAY;
	c->pbem.schedule.set = 1;
	c->pbem.schedule.first_deadline = 1767355200LL;
	c->pbem.schedule.every = 86400;
}

START_TEST(turn_round_by_hand)
{
	struct campaign c;

	demo_campaign(&c);
	/* 1767355200 + 0 + 300 + 600 - 1767225600 = 130500 = 43500 periods: round 43501, out
	 * exactly then */
	ck_assert_int_eq(campaign_turn_round(&c, 1), 43501);
	ck_assert_int_eq(close_round_at(&c, 43501), 1767356100LL);
	ck_assert_int_eq(campaign_turn_round(&c, 2), 43501 + 28800);
	/* a grace of 61 s: 130561 s, not a whole number of periods: the next round */
	c.pbem.schedule.grace = 61;
	ck_assert_int_eq(campaign_turn_round(&c, 1), 43502 + 20);
	/* a round at or after, never before: 130500 + 61 = 130561 -> ceil(/3) = 43521 */
	ck_assert_int_ge(close_round_at(&c, campaign_turn_round(&c, 1)), 1767356161LL);
	ck_assert_int_lt(close_round_at(&c, campaign_turn_round(&c, 1) - 1), 1767356161LL);
	/* the round a close at the deadline names is never later than R */
	ck_assert_int_le(close_named_round(&c, 1767355200LL), campaign_turn_round(&c, 1));
	c.pbem.schedule.set = 0;
	ck_assert_int_eq(campaign_turn_round(&c, 1), -1);
}
END_TEST

/* An extension of 1d made in turn 1 and a pause of 3h in turn 2 (core/schedule.h): R(turn)
 * follows pbem_deadline; the rounds R(2) was before each change are former rounds, with the
 * time of the change that moved them; R(1) as it stands is none. */
START_TEST(turn_round_with_overrides)
{
	struct campaign c;
	struct override o[2] = {
		{ .kind = OVERRIDE_EXTEND, .turn = 1, .at = 1767300000LL, .shift = 86400 },
		{ .kind = OVERRIDE_PAUSE,
			.turn = 2,
			.at = 1767400000LL,
			.shift = 10800,
			.until = 1767410800LL },
	};

	demo_campaign(&c);
	c.pbem.overrides = o;
	c.pbem.n_overrides = 2;
	/* turn 1: a day later, 28800 rounds; turn 2: a day and three hours, 32400 rounds */
	ck_assert_int_eq(campaign_turn_round(&c, 1), 43501 + 28800);
	ck_assert_int_eq(campaign_turn_round(&c, 2), 43501 + 28800 + 28800 + 3600);
	ck_assert_int_eq(timelock_former_round(&c, 2, 43501 + 28800), 1767300000LL);
	ck_assert_int_eq(timelock_former_round(&c, 2, 43501 + 2 * 28800), 1767400000LL);
	ck_assert_int_eq(timelock_former_round(&c, 1, 43501), 1767300000LL);
	ck_assert_int_eq(timelock_former_round(&c, 1, 43501 + 28800), -1);
	ck_assert_int_eq(timelock_former_round(&c, 2, 43501 + 2 * 28800 + 3600), -1);
	ck_assert_int_eq(timelock_former_round(&c, 2, 43500), -1);
	c.pbem.overrides = NULL;
	c.pbem.n_overrides = 0;
}
END_TEST

START_TEST(player_of_names)
{
	static const char *const cases[][2] = {
		{ "north.yaml.age", "north" },
		{ "sent/north.age", "north" },
		{ "orders/turn-0001/north.yaml", "north" },
		{ ".umpire/closed/turn-0002/south.yaml", "south" },
		{ "a.b", "a.b" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *p = timelock_player_of(cases[i][0]);
		ck_assert_str_eq(p, cases[i][1]);
		free(p);
	}
}
END_TEST

START_TEST(recipients)
{
	ck_assert(timelock_recipient_ok(
		"age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p"));
	ck_assert(!timelock_recipient_ok(
		"age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8"));
	ck_assert(!timelock_recipient_ok(
		"age1Ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p"));
	ck_assert(!timelock_recipient_ok("ssh-ed25519 AAAA"));
}
END_TEST

/* spawn_capture: what goes in comes out, a child's exit status is returned, its standard
 * error kept apart. */
START_TEST(capture)
{
	struct buf out = BUF_INIT, err = BUF_INIT;
	char *const cat[] = { "/bin/cat", NULL };
	char *const sh[] = { "/bin/sh", "-c", "echo oops >&2; exit 65", NULL };

	int st = spawn_capture("/bin/cat", cat, "hello", 5, &out, &err, 100, 10);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(buf_str(&out), "hello");
	buf_clear(&out);
	st = spawn_capture("/bin/sh", sh, "", 0, &out, &err, 100, 10);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 65);
	ck_assert_str_eq(buf_str(&err), "oops\n");
	ck_assert_uint_eq(out.len, 0);
	buf_release(&out);
	buf_release(&err);
}
END_TEST

/* A pipe made for a child is close-on-exec: a child started meanwhile (by another thread)
 * does not inherit it. Here the child looks for the test's own pipe among its descriptors. */
START_TEST(pipes_not_inherited)
{
	int fds[2];
	struct buf out = BUF_INIT, err = BUF_INIT;

	ck_assert_int_eq(spawn_pipe(fds), 0);
	char *script = xasprintf("[ ! -e /proc/$$/fd/%d ] && [ ! -e /proc/$$/fd/%d ]", fds[0],
		fds[1]);
	char *const sh[] = { "/bin/sh", "-c", script, NULL };
	int st = spawn_capture("/bin/sh", sh, "", 0, &out, &err, 100, 10);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child inherited the pipe");
	close(fds[0]);
	close(fds[1]);
	free(script);
	buf_release(&out);
	buf_release(&err);
}
END_TEST

#define CAT_ROUNDS 60
#define CAT_BYTES 70000 /* more than a pipe holds: the writer waits for the reader */

/* One thread's share of concurrent_captures: CAT_ROUNDS runs of cat; the failures. */
static void *cat_rounds(void *arg)
{
	const char *in = arg;
	char *const cat[] = { "/bin/cat", NULL };
	long failed = 0;

	for (int i = 0; i < CAT_ROUNDS; i++) {
		struct buf out = BUF_INIT, err = BUF_INIT;
		int st = spawn_capture("/bin/cat", cat, in, CAT_BYTES, &out, &err, CAT_BYTES, 20);
		if (st != 0 || out.len != CAT_BYTES || memcmp(out.data, in, CAT_BYTES) != 0)
			failed++;
		buf_release(&out);
		buf_release(&err);
	}
	return (void *)failed;
}

/* Two threads capturing children at once (as `umpire verify` opens time-locked files on both
 * cores) each get their own child's whole output and end: no child holds the other's pipe
 * (which made both wait for each other until the timeout). */
START_TEST(concurrent_captures)
{
	char *in = xmalloc(CAT_BYTES);
	pthread_t th[2];
	void *failed[2];

	for (size_t i = 0; i < CAT_BYTES; i++)
		in[i] = (char)('a' + i % 26);
	for (int k = 0; k < 2; k++)
		ck_assert_int_eq(pthread_create(&th[k], NULL, cat_rounds, in), 0);
	for (int k = 0; k < 2; k++)
		ck_assert_int_eq(pthread_join(th[k], &failed[k]), 0);
	ck_assert_int_eq((long)failed[0] + (long)failed[1], 0);
	free(in);
}
END_TEST

static Suite *timelock_suite(void)
{
	Suite *s = suite_create("timelock");
	TCase *tc = tcase_create("timelock");
	tcase_add_test(tc, turn_round_by_hand);
	tcase_add_test(tc, turn_round_with_overrides);
	tcase_add_test(tc, player_of_names);
	tcase_add_test(tc, recipients);
	tcase_add_test(tc, capture);
	tcase_add_test(tc, pipes_not_inherited);
	tcase_add_test(tc, concurrent_captures);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(timelock_suite)
