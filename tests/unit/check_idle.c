/* check_idle.c — the mark of an idle `umpire run` pass (core/idle.h): written and read back
 * exactly, any other text refused, the stat entries tell a change, the arguments compare
 * without --verbose, the Maildir's new/ rule. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/idle.h"
#include "testutil.h"

/* A new folder under the suite's root (test_root_remove removes it all). */
static char *tmp_dir(void)
{
	static int n;
	char name[32];
	snprintf(name, sizeof name, "t%d-%d", (int)getpid(), n++);
	char *d = test_path(name);
	ck_assert_int_eq(mkdir(d, 0700), 0);
	return d;
}

static void setup(void)
{
	test_root_make("idle");
}

static void write_file(int dirfd, const char *name, const char *bytes)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, bytes, strlen(bytes)), (ssize_t)strlen(bytes));
	close(fd);
}

/* A mark of two arguments (one with a space and a newline), a file, a missing file, lines. */
static char *sample(int dirfd, struct idle_mark *mark, size_t *n)
{
	memset(mark, 0, sizeof(*mark));
	write_file(dirfd, "campaign.yaml", "id: x\n");
	ck_assert_int_eq(idle_add_arg(mark, "my campaign\n"), 0);
	ck_assert_int_eq(idle_add_arg(mark, "--maildir"), 0);
	ck_assert_int_eq(idle_add_arg(mark, ""), 0);
	mark->until = 1767225600;
	ck_assert_int_eq(idle_add_stat(mark, dirfd, "campaign.yaml"), 0);
	ck_assert_int_eq(idle_add_stat(mark, dirfd, ".umpire/none"), 0);
	ck_assert_int_eq(idle_add_line(mark, 0, "turn 3: waiting for orders"), 0);
	ck_assert_int_eq(idle_add_line(mark, 1, "turn 3: paused until 2026-01-02T00:00:00Z"), 0);
	char *formatted = idle_format(mark, n);
	ck_assert_ptr_nonnull(formatted);
	return formatted;
}

/* Each test's own (a checked fixture: set up and torn down around every test): a new
 * folder and its fd, a mark (empty, or the sample) and its text. */
static char *dir;
static int dfd = -1;
static struct idle_mark m;
static char *text;
static size_t len;

/* A new folder, an empty mark. */
static void folder_setup(void)
{
	dir = tmp_dir();
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(dfd, 0);
	memset(&m, 0, sizeof m);
	text = NULL;
	len = 0;
}

/* A new folder holding the sample's file, and the sample mark. */
static void mark_setup(void)
{
	folder_setup();
	text = sample(dfd, &m, &len);
}

static void fixture_teardown(void)
{
	idle_mark_release(&m);
	free(text);
	text = NULL;
	if (dfd >= 0)
		close(dfd);
	dfd = -1;
	free(dir);
	dir = NULL;
}

START_TEST(test_round_trip)
{
	struct idle_mark back;

	ck_assert_int_eq(idle_parse(text, len, &back), 0);
	ck_assert_uint_eq(back.n_args, 3);
	ck_assert_str_eq(back.args[0], "my campaign\n");
	ck_assert_str_eq(back.args[2], "");
	ck_assert_int_eq(back.until, 1767225600);
	ck_assert_uint_eq(back.n_stats, 2);
	ck_assert_int_eq(back.stats[1].absent, 1);
	ck_assert_uint_eq(back.n_lines, 2);
	ck_assert_int_eq(back.lines[1].always, 1);
	ck_assert_str_eq(back.lines[0].text, "turn 3: waiting for orders");
	size_t len2;
	char *again = idle_format(&back, &len2);
	ck_assert_uint_eq(len2, len);
	ck_assert_mem_eq(again, text, len);
	ck_assert_int_eq(idle_unchanged(&back, dfd), 1);
	m.until = IDLE_NEVER;
	free(again);
	again = idle_format(&m, &len2);
	ck_assert_ptr_nonnull(strstr(again, "\nuntil never\n"));
	idle_mark_release(&back);
	ck_assert_int_eq(idle_parse(again, len2, &back), 0);
	ck_assert_int_eq(back.until, IDLE_NEVER);
	idle_mark_release(&back);
	free(again);
}
END_TEST

/* Every change of one byte that still parses would be another mark: these must not parse. */
START_TEST(test_refused)
{
	struct idle_mark back;
	static const char *const bad[][2] = {
		{ "umpire run-idle 1\n", "umpire run-idle 2\n" },
		{ "\nend\n", "\n" },           /* truncated */
		{ "\nend\n", "\nend\nend\n" }, /* more after the end */
		{ "until 1767225600", "until 01767225600" }, { "until 1767225600", "until -5" },
		{ "until 1767225600", "until 17672256x0" },
		{ "arg 2d2d6d61696c646972", "arg 2D2D6D61696C646972" }, /* uppercase hex */
		{ "arg 2d2d6d61696c646972", "arg 2d2d6d61696c64697" },  /* odd digits */
		{ "arg 2d2d6d61696c646972", "arg 2d2d6d61696c640072" }, /* a NUL */
		{ " absent\n", " absant\n" }, { "say 0 ", "say 2 " },
		{ "say 1 turn", "say 1 \tturn" }, { "until 1767225600\n", "" }, /* no until */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *at = strstr(text, bad[i][0]);
		ck_assert_msg(at != NULL, "case %zu: '%s' not in the sample", i, bad[i][0]);
		size_t pre = (size_t)(at - text), old = strlen(bad[i][0]), new = strlen(bad[i][1]);
		char *t = malloc(len - old + new + 1);
		memcpy(t, text, pre);
		memcpy(t + pre, bad[i][1], new);
		memcpy(t + pre + new, at + old, len - pre - old + 1);
		ck_assert_msg(idle_parse(t, len - old + new, &back) < 0, "case %zu parsed", i);
		ck_assert_uint_eq(back.n_args + back.n_stats + back.n_lines, 0);
		free(t);
	}
	/* a stat entry with a field missing, and a line of the same entry reordered */
	const char *st = strstr(text, "stat ");
	const char *nl = strchr(st, '\n');
	char *t = strdup(text);
	t[nl - text - 1] = ' '; /* the last digit of ctime becomes a space: an empty field */
	ck_assert_int_lt(idle_parse(t, len, &back), 0);
	free(t);
	ck_assert_int_lt(idle_parse(text, len - 1, &back), 0); /* no final newline */
	ck_assert_int_lt(idle_add_line(&m, 0, "two\nlines"), 0);
}
END_TEST

/* A file rewritten with the same size, one replaced by rename, one made: each is a change. */
START_TEST(test_unchanged)
{
	ck_assert_int_eq(idle_unchanged(&m, dfd), 1);
	mkdirat(dfd, ".umpire", 0700);
	ck_assert_int_eq(idle_unchanged(&m, dfd), 1); /* .umpire/none is still absent */
	write_file(dfd, ".umpire/none", "");
	ck_assert_int_eq(idle_unchanged(&m, dfd), 0);
	unlinkat(dfd, ".umpire/none", 0);
	ck_assert_int_eq(idle_unchanged(&m, dfd), 1);
	struct timespec same[2] = { { 0, UTIME_OMIT }, { 0, UTIME_OMIT } };
	write_file(dfd, "campaign.yaml", "id: y\n"); /* same size, new ctime */
	utimensat(dfd, "campaign.yaml", same, 0);
	ck_assert_int_eq(idle_unchanged(&m, dfd), 0);
	idle_mark_release(&m);
	free(text);
	/* replaced by rename: a new inode */
	text = sample(dfd, &m, &len);
	write_file(dfd, "new.yaml", "id: x\n");
	ck_assert_int_eq(renameat(dfd, "new.yaml", dfd, "campaign.yaml"), 0);
	ck_assert_int_eq(idle_unchanged(&m, dfd), 0);
	/* a link where a file was is not followed: it is another file */
	idle_mark_release(&m);
	free(text);
	text = sample(dfd, &m, &len);
	ck_assert_int_eq(renameat(dfd, "campaign.yaml", dfd, "real.yaml"), 0);
	ck_assert_int_eq(symlinkat("real.yaml", dfd, "campaign.yaml"), 0);
	ck_assert_int_eq(idle_unchanged(&m, dfd), 0);
}
END_TEST

START_TEST(test_args_and_mail)
{
	char *same[] = { "c", "--verbose", "--maildir", "md" };
	char *other[] = { "c", "--maildir", "md2" };
	char *more[] = { "c", "--maildir", "md", "--beacon-fetch" };
	char *fewer[] = { "c", "--maildir" };

	idle_add_arg(&m, "c");
	idle_add_arg(&m, "--maildir");
	idle_add_arg(&m, "md");
	ck_assert_int_eq(idle_same_args(&m, 4, same), 1);
	ck_assert_int_eq(idle_same_args(&m, 3, other), 0);
	ck_assert_int_eq(idle_same_args(&m, 4, more), 0);
	ck_assert_int_eq(idle_same_args(&m, 2, fewer), 0);
	idle_mark_release(&m);

	ck_assert_int_eq(idle_mail_waiting(dir), 1); /* no new/: unreadable */
	mkdirat(dfd, "new", 0700);
	ck_assert_int_eq(idle_mail_waiting(dir), 0);
	write_file(dfd, "new/.hidden", "");
	ck_assert_int_eq(idle_mail_waiting(dir), 0);
	write_file(dfd, "new/1.mail", "");
	ck_assert_int_eq(idle_mail_waiting(dir), 1);
}
END_TEST

static Suite *idle_suite(void)
{
	Suite *s = suite_create("idle");
	TCase *tc = tcase_create("mark");
	tcase_add_unchecked_fixture(tc, setup, test_root_remove);
	tcase_add_checked_fixture(tc, mark_setup, fixture_teardown);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_unchanged);
	suite_add_tcase(s, tc);
	TCase *args = tcase_create("args");
	tcase_add_unchecked_fixture(args, setup, test_root_remove);
	tcase_add_checked_fixture(args, folder_setup, fixture_teardown);
	tcase_add_test(args, test_args_and_mail);
	suite_add_tcase(s, args);
	return s;
}

TEST_MAIN(idle_suite)
