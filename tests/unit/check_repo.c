/* check_repo.c — the campaign repository: commits and tags per turn, reads at each tag,
 * listings, a clean work tree as the git program sees it, reproducible commit ids, and the
 * hard reset that undoes a half-done turn. The tests run git; the library never does. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/repo.h"
#include "testutil.h"

#define T0 1700000000LL   /* the setup's commit time */
#define T1 1700086400LL   /* turn 1, a day later */

static char root[] = "/tmp/umpire-check-repo-XXXXXX";

/* Unchecked fixture: runs in the parent, so the directory goes even when a test fails. The
 * user's git configuration stays out of it (both libgit2's and the git program's). */
static void root_setup(void)
{
	if (!mkdtemp(root))
		abort();
	setenv("HOME", root, 1);
	setenv("XDG_CONFIG_HOME", root, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
}

static void root_teardown(void)
{
	char *cmd = xasprintf("rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "check_repo: cannot remove %s\n", root);
	free(cmd);
}

static char *tpath(const char *name)
{
	return xasprintf("%s/%s", root, name);
}

/* Runs a shell command, capturing stdout (stderr too when it fails); returns exit status. */
static int run(struct buf *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int run(struct buf *out, const char *fmt, ...)
{
	struct buf cmd = BUF_INIT;
	char chunk[4096];
	size_t n;
	va_list ap;
	FILE *p;
	int status;

	va_start(ap, fmt);
	buf_vprintf(&cmd, fmt, ap);
	va_end(ap);
	buf_puts(&cmd, " 2>&1");
	buf_clear(out);
	p = popen(buf_str(&cmd), "r");
	ck_assert_ptr_nonnull(p);
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		buf_append(out, chunk, n);
	status = pclose(p);
	buf_release(&cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void git_status_empty(const char *dir)
{
	struct buf out = BUF_INIT;

	ck_assert_int_eq(run(&out, "git -C '%s' status --porcelain --untracked-files=all", dir), 0);
	ck_assert_msg(out.len == 0, "git status in %s: %s", dir, buf_str(&out));
	buf_release(&out);
}

static void write_file(const char *dir, const char *path, const char *text)
{
	char *full = xasprintf("%s/%s", dir, path);
	FILE *f = fopen(full, "w");

	ck_assert_msg(f != NULL, "cannot write %s", full);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	free(full);
}

static void make_dir(const char *dir, const char *path)
{
	char *full = xasprintf("%s/%s", dir, path);

	ck_assert_msg(mkdir(full, 0755) == 0, "cannot create %s", full);
	free(full);
}

static void remove_file(const char *dir, const char *path)
{
	char *full = xasprintf("%s/%s", dir, path);

	ck_assert_msg(unlink(full) == 0, "cannot remove %s", full);
	free(full);
}

static int exists(const char *dir, const char *path)
{
	char *full = xasprintf("%s/%s", dir, path);
	int rc = access(full, F_OK) == 0;

	free(full);
	return rc;
}

/* --- the two turns every test commits ------------------------------------------------- */

static const char state0[] = "campaign: raid\nrules: land-raid\nturn: 0\n";
static const char state1[] = "campaign: raid\nrules: land-raid\nturn: 1\n";
static const char campaign[] = "id: raid\n";
/* Order files arrive by email: CRLF line ends and even NUL bytes must survive verbatim. */
static const char attacker1[] = "campaign: raid\r\nturn: 1\r\n\0player: attacker\r\n";
static const char defender1[] = "campaign: raid\nturn: 1\nplayer: defender\n";

static const struct repo_file setup_files[] = {
	{ "state.yaml", state0, sizeof(state0) - 1 },
	{ "campaign.yaml", campaign, sizeof(campaign) - 1 },
};
/* defender before attacker: the listing must sort, not echo the order written. */
static const struct repo_file turn1_files[] = {
	{ "orders/turn-0001/defender.yaml", defender1, sizeof(defender1) - 1 },
	{ "orders/turn-0001/attacker.yaml", attacker1, sizeof(attacker1) - 1 },
	{ "state.yaml", state1, sizeof(state1) - 1 },
	{ "reports/turn-0001/empty.txt", "", 0 },
};

static struct repo *init_repo(const char *dir)
{
	struct buf err = BUF_INIT;
	struct repo *r = NULL;

	ck_assert_msg(repo_init(&r, dir, &err) == 0, "%s", buf_str(&err));
	buf_release(&err);
	return r;
}

static void commit_ok(struct repo *r, const struct repo_file *files, size_t n,
	const char *message, const char *tag, long long when, char hex[41])
{
	struct buf err = BUF_INIT;

	ck_assert_msg(repo_commit(r, files, n, message, tag, when, hex, &err) == 0, "%s",
		buf_str(&err));
	ck_assert_uint_eq(strlen(hex), 40);
	buf_release(&err);
}

static void play_two_turns(struct repo *r, char c0[41], char c1[41])
{
	commit_ok(r, setup_files, 2, "Setup", "turn-0000", T0, c0);
	commit_ok(r, turn1_files, 4, "Turn 1: the raid begins\n\nThree dice, one void order.",
		"turn-0001", T1, c1);
}

static void assert_read(struct repo *r, const char *rev, const char *path, const char *want,
	size_t want_len)
{
	struct buf out = BUF_INIT, err = BUF_INIT;

	ck_assert_msg(repo_read(r, rev, path, &out, &err) == 0, "%s:%s %s", rev, path,
		buf_str(&err));
	ck_assert_uint_eq(out.len, want_len);
	if (want_len)
		ck_assert_int_eq(memcmp(out.data, want, want_len), 0);
	buf_release(&out);
	buf_release(&err);
}

/* Checks the listing of dir at rev is exactly the NULL-terminated want. */
static void assert_list(struct repo *r, const char *rev, const char *dir,
	const char *const *want)
{
	struct buf err = BUF_INIT;
	char **names = NULL;
	size_t i;

	ck_assert_msg(repo_list(r, rev, dir, &names, &err) == 0, "%s", buf_str(&err));
	ck_assert_ptr_nonnull(names);
	for (i = 0; want[i]; i++) {
		ck_assert_ptr_nonnull(names[i]);
		ck_assert_str_eq(names[i], want[i]);
	}
	ck_assert_ptr_null(names[i]);
	repo_names_free(names);
	buf_release(&err);
}

/* --- tests ---------------------------------------------------------------------------- */

START_TEST(test_init_and_open)
{
	struct buf err = BUF_INIT, out = BUF_INIT;
	char *dir = tpath("init"), *plain = tpath("plain");
	struct repo *r = init_repo(dir), *again = NULL;

	ck_assert_int_eq(run(&out, "git -C '%s' symbolic-ref HEAD", dir), 0);
	ck_assert_str_eq(buf_str(&out), "refs/heads/main\n");
	ck_assert_int_eq(repo_has(r, "HEAD"), 0);           /* no commit yet */
	ck_assert_int_eq(repo_is_clean(r, &err), 1);
	repo_free(r);

	ck_assert_int_eq(repo_init(&again, dir, &err), -1); /* a .git is already there */
	ck_assert_ptr_null(again);
	ck_assert_ptr_nonnull(strstr(buf_str(&err), "repo: cannot create a repository in '"));
	ck_assert_ptr_null(strchr(buf_str(&err), '\n'));

	ck_assert_int_eq(repo_open(&r, dir, &err), 0);
	repo_free(r);
	ck_assert_int_eq(mkdir(plain, 0755), 0);
	r = NULL;
	ck_assert_int_eq(repo_open(&r, plain, &err), 1);    /* no repository, no message */
	ck_assert_ptr_null(r);

	free(dir);
	free(plain);
	buf_release(&out);
	buf_release(&err);
}
END_TEST

START_TEST(test_two_turns_read_back)
{
	struct buf out = BUF_INIT, err = BUF_INIT;
	char *dir = tpath("two-turns");
	struct repo *r = init_repo(dir);
	char c0[41], c1[41], hex[41];

	commit_ok(r, setup_files, 2, "Setup", "turn-0000", T0, c0);
	ck_assert_int_eq(repo_is_clean(r, &err), 1);
	git_status_empty(dir);
	commit_ok(r, turn1_files, 4, "Turn 1: the raid begins\n\nThree dice, one void order.",
		"turn-0001", T1, c1);
	ck_assert_int_eq(repo_is_clean(r, &err), 1);
	git_status_empty(dir);
	/* No temporary file is left behind, not even in .git/. */
	ck_assert_int_eq(run(&out, "ls -a '%s/.git' | grep umpire-write", dir), 1);
	repo_free(r);

	/* A fresh handle: everything below comes from disk. */
	ck_assert_int_eq(repo_open(&r, dir, &err), 0);
	assert_read(r, "turn-0000", "state.yaml", state0, sizeof(state0) - 1);
	assert_read(r, "turn-0001", "state.yaml", state1, sizeof(state1) - 1);
	assert_read(r, "HEAD", "state.yaml", state1, sizeof(state1) - 1);
	assert_read(r, c0, "state.yaml", state0, sizeof(state0) - 1);
	/* Not named in turn 1, so kept from the setup. */
	assert_read(r, "turn-0001", "campaign.yaml", campaign, sizeof(campaign) - 1);
	assert_read(r, "turn-0001", "orders/turn-0001/attacker.yaml", attacker1,
		sizeof(attacker1) - 1);
	assert_read(r, "turn-0001", "reports/turn-0001/empty.txt", "", 0);
	ck_assert_int_eq(repo_read(r, "turn-0000", "orders/turn-0001/attacker.yaml", &out, &err),
		1);
	ck_assert_int_eq(repo_read(r, "turn-0007", "state.yaml", &out, &err), 1);
	ck_assert_int_eq(repo_read(r, "turn-0001", "orders", &out, &err), -1);   /* a directory */

	static const char *const orders[] = { "attacker.yaml", "defender.yaml", NULL };
	static const char *const top1[] = { "campaign.yaml", "state.yaml", NULL };
	static const char *const none[] = { NULL };
	assert_list(r, "turn-0001", "orders/turn-0001", orders);
	assert_list(r, "turn-0001", "", top1);              /* files only, no "orders" */
	assert_list(r, "turn-0000", "orders/turn-0001", none);
	assert_list(r, "turn-0001", "orders/turn-0002", none);
	char **names = NULL;
	ck_assert_int_eq(repo_list(r, "turn-0009", "", &names, &err), -1);

	ck_assert_int_eq(repo_has(r, "turn-0000"), 1);
	ck_assert_int_eq(repo_has(r, "turn-0001"), 1);
	ck_assert_int_eq(repo_has(r, "turn-0002"), 0);
	ck_assert_int_eq(repo_commit_id(r, "turn-0001", hex, &err), 0);
	ck_assert_str_eq(hex, c1);
	ck_assert_int_eq(repo_commit_id(r, "HEAD", hex, &err), 0);
	ck_assert_str_eq(hex, c1);
	ck_assert_int_eq(repo_commit_id(r, "turn-0000", hex, &err), 0);
	ck_assert_str_eq(hex, c0);
	ck_assert_int_eq(repo_commit_id(r, "turn-0002", hex, &err), 1);
	ck_assert_int_eq(repo_subject(r, "turn-0001", &out, &err), 0);
	ck_assert_str_eq(buf_str(&out), "Turn 1: the raid begins");
	ck_assert_int_eq(repo_subject(r, "turn-0000", &out, &err), 0);
	ck_assert_str_eq(buf_str(&out), "Setup");
	ck_assert_int_eq(repo_subject(r, "turn-0002", &out, &err), 1);

	/* What the git program makes of it: history, tags, identity and times. */
	ck_assert_int_eq(run(&out, "git -C '%s' log --format='%%H %%P|%%an <%%ae> %%at %%ai|%%cn"
		" <%%ce> %%ct|%%s' main", dir), 0);
	char *want = xasprintf("%s %s|umpire <umpire@localhost> 1700086400 2023-11-15 22:13:20"
		" +0000|umpire <umpire@localhost> 1700086400|Turn 1: the raid begins\n"
		"%s |umpire <umpire@localhost> 1700000000 2023-11-14 22:13:20 +0000|umpire"
		" <umpire@localhost> 1700000000|Setup\n", c1, c0, c0);
	ck_assert_str_eq(buf_str(&out), want);
	free(want);
	ck_assert_int_eq(run(&out, "git -C '%s' for-each-ref --format='%%(refname) %%(objecttype)"
		" %%(objectname)' refs/tags", dir), 0);
	want = xasprintf("refs/tags/turn-0000 commit %s\nrefs/tags/turn-0001 commit %s\n", c0, c1);
	ck_assert_str_eq(buf_str(&out), want);   /* lightweight: the tags name commits */
	free(want);
	ck_assert_int_eq(run(&out, "git -C '%s' fsck --strict --no-dangling", dir), 0);

	repo_free(r);
	free(dir);
	buf_release(&out);
	buf_release(&err);
}
END_TEST

/* Same files, messages and times give the same commit ids in any directory: anyone can
 * rebuild the history from the journal and land on the same hashes. */
START_TEST(test_commit_ids_reproducible)
{
	char *dx = tpath("repro-x"), *dy = tpath("repro-y"), *dz = tpath("repro-z");
	struct repo *x = init_repo(dx), *y = init_repo(dy), *z = init_repo(dz);
	char x0[41], x1[41], y0[41], y1[41], z0[41];

	play_two_turns(x, x0, x1);
	play_two_turns(y, y0, y1);
	ck_assert_str_eq(x0, y0);
	ck_assert_str_eq(x1, y1);
	ck_assert_str_ne(x0, x1);
	commit_ok(z, setup_files, 2, "Setup", "turn-0000", T0 + 1, z0);   /* a second later */
	ck_assert_str_ne(x0, z0);
	repo_free(x);
	repo_free(y);
	repo_free(z);
	free(dx);
	free(dy);
	free(dz);
}
END_TEST

START_TEST(test_commit_refusals)
{
	struct buf err = BUF_INIT;
	char *dir = tpath("refusals");
	struct repo *r = init_repo(dir);
	char c0[41], c1[41], hex[41];
	static const char *const bad[] = {
		"", "/etc/passwd", "../escape", "orders/../../escape", "a//b", "a/./b", "a/",
		".git/config", "sub/.GIT/hooks/x", "a\\b",
	};

	play_two_turns(r, c0, c1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct repo_file f[2] = {
			{ "state.yaml", "changed\n", 8 },   /* valid, and must not be written either */
			{ bad[i], "x", 1 },
		};
		ck_assert_msg(repo_commit(r, f, 2, "Bad", "turn-0002", T1 + 1, hex, &err) == -1,
			"accepted path '%s'", bad[i]);
		ck_assert_ptr_nonnull(strstr(buf_str(&err), "invalid repository path"));
	}
	assert_read(r, "HEAD", "state.yaml", state1, sizeof(state1) - 1);
	ck_assert_int_eq(repo_is_clean(r, &err), 1);

	/* An existing tag is refused before anything is written or committed. */
	struct repo_file next[] = { { "orders/turn-0002/attacker.yaml", "x\n", 2 } };
	ck_assert_int_eq(repo_commit(r, next, 1, "Again", "turn-0001", T1 + 1, hex, &err), -1);
	ck_assert_ptr_nonnull(strstr(buf_str(&err), "tag 'turn-0001' already exists"));
	ck_assert_int_eq(exists(dir, "orders/turn-0002/attacker.yaml"), 0);
	ck_assert_int_eq(repo_commit_id(r, "HEAD", hex, &err), 0);
	ck_assert_str_eq(hex, c1);
	git_status_empty(dir);

	/* repo_tag_head: the recovery path after a crash between commit and tag. */
	ck_assert_int_eq(repo_tag_head(r, "turn-0001", &err), -1);
	ck_assert_int_eq(repo_tag_head(r, "recovered", &err), 0);
	ck_assert_int_eq(repo_commit_id(r, "recovered", hex, &err), 0);
	ck_assert_str_eq(hex, c1);

	/* Commits go on main only: with HEAD moved elsewhere, main is not advanced blindly. */
	struct buf out = BUF_INIT;
	ck_assert_int_eq(run(&out, "git -C '%s' symbolic-ref HEAD refs/heads/other", dir), 0);
	ck_assert_int_eq(repo_commit(r, next, 1, "Elsewhere", "turn-0002", T1 + 1, hex, &err), -1);
	ck_assert_ptr_nonnull(strstr(buf_str(&err), "HEAD is not the branch main"));
	ck_assert_int_eq(run(&out, "git -C '%s' rev-parse main", dir), 0);
	ck_assert_int_eq(strncmp(buf_str(&out), c1, 40), 0);
	buf_release(&out);

	repo_free(r);
	free(dir);
	buf_release(&err);
}
END_TEST

START_TEST(test_reset_hard)
{
	static const char *const dirs[] = { "orders", "journal", "reports", NULL };
	struct buf err = BUF_INIT, out = BUF_INIT;
	char *dir = tpath("reset");
	struct repo *r = init_repo(dir);
	char c0[41], c1[41];

	play_two_turns(r, c0, c1);
	/* What a turn killed halfway leaves behind. */
	write_file(dir, "state.yaml", "half-written\n");
	write_file(dir, "orders/turn-0001/attacker.yaml", "tampered\n");
	make_dir(dir, "orders/turn-0002");
	write_file(dir, "orders/turn-0002/attacker.yaml", "next turn\n");
	write_file(dir, "orders/stray.txt", "stray\n");
	write_file(dir, "reports/turn-0001/report.txt", "report\n");
	write_file(dir, "staged.txt", "staged\n");
	ck_assert_int_eq(run(&out, "git -C '%s' add staged.txt", dir), 0);
	make_dir(dir, "notes");
	write_file(dir, "notes/keep.txt", "the umpire's own notes\n");
	ck_assert_int_eq(repo_is_clean(r, &err), 0);

	ck_assert_msg(repo_reset_hard(r, dirs, &err) == 0, "%s", buf_str(&err));
	ck_assert_int_eq(exists(dir, "orders/turn-0002/attacker.yaml"), 0);
	ck_assert_int_eq(exists(dir, "orders/turn-0002"), 0);
	ck_assert_int_eq(exists(dir, "orders/stray.txt"), 0);
	ck_assert_int_eq(exists(dir, "reports/turn-0001/report.txt"), 0);
	ck_assert_int_eq(exists(dir, "reports/turn-0001/empty.txt"), 1);   /* tracked */
	ck_assert_int_eq(exists(dir, "notes/keep.txt"), 1);                /* not named */
	/* staged.txt was tracked by the index but not HEAD: like `git reset --hard`, the reset
	 * removes it wherever it is. */
	ck_assert_int_eq(exists(dir, "staged.txt"), 0);
	ck_assert_int_eq(run(&out, "git -C '%s' status --porcelain --untracked-files=all", dir),
		0);
	ck_assert_str_eq(buf_str(&out), "?? notes/keep.txt\n");
	ck_assert_int_eq(repo_is_clean(r, &err), 0);

	remove_file(dir, "notes/keep.txt");
	ck_assert_int_eq(repo_is_clean(r, &err), 1);
	git_status_empty(dir);
	assert_read(r, "HEAD", "state.yaml", state1, sizeof(state1) - 1);
	{
		struct buf disk = BUF_INIT;
		ck_assert_int_eq(run(&disk, "cat '%s/state.yaml'", dir), 0);
		ck_assert_str_eq(buf_str(&disk), state1);
		buf_release(&disk);
	}

	repo_free(r);
	free(dir);
	buf_release(&out);
	buf_release(&err);
}
END_TEST

static Suite *repo_suite(void)
{
	Suite *s = suite_create("repo");
	TCase *tc = tcase_create("repo");

	tcase_add_unchecked_fixture(tc, root_setup, root_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_init_and_open);
	tcase_add_test(tc, test_two_turns_read_back);
	tcase_add_test(tc, test_commit_ids_reproducible);
	tcase_add_test(tc, test_commit_refusals);
	tcase_add_test(tc, test_reset_hard);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(repo_suite)
