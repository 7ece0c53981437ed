/* check_file.c — src/core/file.c: no symbolic link followed below a guarded root (reads,
 * durable writes, renames, directories), the root itself reached through a link, and the
 * stale temporary files of durable writes removed, others kept; no '..' walks out of a root;
 * atomic writes (no sync) replace a file by rename. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/error.h"
#include "core/file.h"
#include "testutil.h"
#include "core/banned.h"

static void setup(void)
{
	test_root_make("file");
}

static void teardown(void)
{
	file_unguard_all();
	test_root_remove();
}

/* Writes text to path (a plain write: the test's own, outside the code under test). */
static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

START_TEST(links_below_a_root_are_refused)
{
	char *root = test_path("camp"), *out = test_path("outside"), *secret = test_path("secret");
	char *link_dir = test_path("camp/inbox"), *link_file = test_path("camp/addresses.yaml");
	char *through = test_path("camp/inbox/x.yaml"), *plain = test_path("camp/plain");
	struct buf b = BUF_INIT;

	ck_assert_int_eq(mkdir(root, 0700), 0);
	ck_assert_int_eq(mkdir(out, 0700), 0);
	put(secret, "s3cr3t");
	ck_assert_int_eq(symlink(out, link_dir), 0);
	ck_assert_int_eq(symlink(secret, link_file), 0);
	/* unguarded: links followed as the system does */
	ck_assert_int_eq(file_read(link_file, 100, &b), 0);
	ck_assert_uint_eq(b.len, 6);
	file_guard(root);
	ck_assert_int_eq(file_read(link_file, 100, &b), -1);
	ck_assert_int_eq(error_last()->klass, ERROR_INPUT);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "addresses.yaml' is a symbolic link"));
	ck_assert_int_eq(file_write_durable(link_dir, "x.yaml", "x", 1), -1);
	ck_assert_int_eq(errno, ELOOP);
	ck_assert_int_eq(file_write_durable(root, "addresses.yaml", "x", 1), -1);
	ck_assert_int_eq(file_open_dir(link_dir, 0), -1);
	ck_assert_ptr_null(file_opendir(link_dir));
	put(plain, "p");
	ck_assert_int_eq(file_rename_durable(plain, through), -1);
	ck_assert_int_eq(file_rename_durable(link_file, plain), -1);
	ck_assert_int_eq(access(plain, F_OK), 0);
	/* nothing reached the outside folder, the secret is as it was */
	ck_assert_int_eq(rmdir(out), 0);
	ck_assert_int_eq(file_read(secret, 100, &b), 0);
	ck_assert_uint_eq(b.len, 6);
	/* a plain file and folder below the root: fine */
	ck_assert_int_eq(file_write_durable(root, "plain", "q", 1), 0);
	ck_assert_int_eq(file_read(plain, 100, &b), 0);
	ck_assert_int_eq(b.data[0], 'q');
	buf_release(&b);
	free(root);
	free(out);
	free(secret);
	free(link_dir);
	free(link_file);
	free(through);
	free(plain);
}
END_TEST

/* Issue 32 item 10: the refusal of a '..' component below a guarded root (a mutation that
 * made it a no-op survived every test): '..' would walk out of the root. */
START_TEST(dot_dot_below_a_root_is_refused)
{
	char *root = test_path("camp"), *secret = test_path("secret");
	char *up = test_path("camp/../secret"), *sub = test_path("camp/sub");
	char *up_dir = test_path("camp/sub/../../escape"), *escape = test_path("escape");
	struct buf b = BUF_INIT;

	ck_assert_int_eq(mkdir(root, 0700), 0);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	put(secret, "s3cr3t");
	file_guard(root);
	ck_assert_int_eq(file_read(up, 100, &b), -1);
	ck_assert_msg(error_last()->klass == ERROR_INPUT, "%s", error_last()->message);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "goes up with '..'"));
	ck_assert_uint_eq(b.len, 0);
	ck_assert_int_eq(file_mkdir_p(up_dir, 0700), -1);
	ck_assert_msg(error_last()->klass == ERROR_INPUT, "%s", error_last()->message);
	ck_assert_int_eq(file_write_durable(up_dir, "x", "x", 1), -1);
	ck_assert_int_eq(access(escape, F_OK), -1); /* nothing made outside the root */
	buf_release(&b);
	free(root);
	free(secret);
	free(up);
	free(sub);
	free(up_dir);
	free(escape);
}
END_TEST

START_TEST(the_root_may_be_a_link)
{
	char *real = test_path("real"), *alias = test_path("alias"), *f = test_path("alias/f");
	struct buf b = BUF_INIT;

	ck_assert_int_eq(mkdir(real, 0700), 0);
	ck_assert_int_eq(symlink(real, alias), 0);
	file_guard(alias);
	ck_assert_int_eq(file_write_durable(alias, "f", "ok", 2), 0);
	ck_assert_int_eq(file_read(f, 10, &b), 0);
	ck_assert_uint_eq(b.len, 2);
	buf_release(&b);
	free(real);
	free(alias);
	free(f);
}
END_TEST

START_TEST(stale_temporary_files)
{
	char *root = test_path("c"), *dir = test_path("c/closed/turn-0001");
	char *stale = test_path("c/closed/turn-0001/.attacker.yaml.Ab12Cd");
	char *keep = test_path("c/closed/turn-0001/.keep"),
	     *fresh = test_path("c/closed/.x.yaml.ZZ99aa");
	char *close_yaml = test_path("c/closed/turn-0001/close.yaml");
	char *closed = test_path("c/closed"), *sealed = test_path("c/sealed");
	struct timespec before;
	size_t removed = 0;

	ck_assert_int_eq(mkdir(root, 0700), 0);
	file_guard(root);
	ck_assert_int_eq(file_mkdir_p(dir, 0700), 0);
	put(stale, "half");
	put(keep, "k");
	put(close_yaml, "c");
	clock_gettime(CLOCK_REALTIME, &before);
	before.tv_sec += 2; /* after the files above were written */
	ck_assert_int_eq(file_clear_stale_temps(closed, 4, &before, &removed), 0);
	ck_assert_uint_eq(removed, 1);
	ck_assert_int_eq(access(stale, F_OK), -1);
	ck_assert_int_eq(access(keep, F_OK), 0);
	ck_assert_int_eq(access(close_yaml, F_OK), 0);
	/* one newer than the lock is left: a run holding the lock may be writing it */
	put(fresh, "new");
	before.tv_sec -= 60;
	removed = 0;
	ck_assert_int_eq(file_clear_stale_temps(closed, 4, &before, &removed), 0);
	ck_assert_uint_eq(removed, 0);
	ck_assert_int_eq(access(fresh, F_OK), 0);
	/* a folder that is not there is nothing to do */
	ck_assert_int_eq(file_clear_stale_temps(sealed, 4, &before, &removed), 0);
	free(root);
	free(dir);
	free(stale);
	free(keep);
	free(fresh);
	free(close_yaml);
	free(closed);
	free(sealed);
}
END_TEST

/* file_write_atomic: the new bytes by rename over the name (a reader that opened the old file
 * still reads it whole), no temporary file left, a link at the name refused as for durable
 * writes. */
START_TEST(atomic_write_replaces_by_rename)
{
	char *root = test_path("c"), *mark = test_path("c/mark"), *out = test_path("out");
	char *link = test_path("c/link");
	struct buf b = BUF_INIT;
	char old[8] = "";

	ck_assert_int_eq(mkdir(root, 0700), 0);
	file_guard(root);
	ck_assert_int_eq(file_write_atomic(root, "mark", "one 1\n", 6), 0);
	int fd = open(mark, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(file_write_atomic(root, "mark", "two 22\n", 7), 0);
	ck_assert_int_eq(read(fd, old, sizeof old), 6);
	ck_assert_mem_eq(old, "one 1\n", 6);
	close(fd);
	ck_assert_int_eq(file_read(mark, 100, &b), 0);
	ck_assert_uint_eq(b.len, 7);
	ck_assert_mem_eq(b.data, "two 22\n", 7);
	DIR *d = opendir(root);
	struct dirent *e;
	int entries = 0;
	while ((e = readdir(d)) != NULL)
		entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	ck_assert_int_eq(entries, 1); /* mark alone: no temporary file */
	put(out, "o");
	ck_assert_int_eq(symlink(out, link), 0);
	ck_assert_int_eq(file_write_atomic(root, "link", "x", 1), -1);
	ck_assert_int_eq(errno, ELOOP);
	ck_assert_int_eq(file_read(out, 100, &b), 0);
	ck_assert_mem_eq(b.data, "o", 1);
	buf_release(&b);
	free(root);
	free(mark);
	free(out);
	free(link);
}
END_TEST

static Suite *file_suite(void)
{
	Suite *s = suite_create("file");
	TCase *tc = tcase_create("file");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, links_below_a_root_are_refused);
	tcase_add_test(tc, dot_dot_below_a_root_is_refused);
	tcase_add_test(tc, the_root_may_be_a_link);
	tcase_add_test(tc, stale_temporary_files);
	tcase_add_test(tc, atomic_write_replaces_by_rename);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(file_suite)
