/* check_repo.c — the campaign repository: commits and tags per turn, reads at each tag,
 * listings, a clean work tree as the git program sees it, reproducible commit ids, and the
 * publish that finishes a half-done turn. The tests run git; the library never does. */
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

#define T0 1700000000LL /* the setup's commit time */
#define T1 1700086400LL /* turn 1, a day later */

/* Unchecked fixture: runs in the parent, so the directory goes even when a test fails. The
 * user's git configuration stays out of it (both libgit2's and the git program's). */
static void root_setup(void)
{
	const char *root = test_root_make("repo");
	setenv("HOME", root, 1);
	setenv("XDG_CONFIG_HOME", root, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
}

static void root_teardown(void)
{
	test_root_remove();
}

static void git_status_empty(const char *dir)
{
	struct buf out = BUF_INIT;

	ck_assert_int_eq(test_run(&out, "git -C '%s' status --porcelain --untracked-files=all",
				 dir),
		0);
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

static const struct file setup_files[] = {
	{ (char *)"state.yaml", (unsigned char *)state0, sizeof(state0) - 1 },
	{ (char *)"campaign.yaml", (unsigned char *)campaign, sizeof(campaign) - 1 },
};
/* defender before attacker: the listing must sort, not echo the order written. */
static const struct file turn1_files[] = {
	{ (char *)"orders/turn-0001/defender.yaml", (unsigned char *)defender1,
		sizeof(defender1) - 1 },
	{ (char *)"orders/turn-0001/attacker.yaml", (unsigned char *)attacker1,
		sizeof(attacker1) - 1 },
	{ (char *)"state.yaml", (unsigned char *)state1, sizeof(state1) - 1 },
	{ (char *)"reports/turn-0001/empty.txt", (unsigned char *)"", 0 },
};

static struct repo *init_repo(const char *dir)
{
	struct buf err = BUF_INIT;
	struct repo *r = NULL;

	ck_assert_msg(repo_init(&r, dir) == 0, "%s", error_last()->message);
	buf_release(&err);
	return r;
}

/* A whole commit: build, then publish (what the turn pipeline's build and publish steps do). */
static int repo_commit(struct repo *r, const struct file *files, size_t n, const char *message,
	const char *tag, long long when, char hex[41])
{
	if (repo_build(r, files, n, message, when, hex) < 0)
		return -1;
	return repo_publish(r, files, n, hex, tag);
}

static void commit_ok(struct repo *r, const struct file *files, size_t n, const char *message,
	const char *tag, long long when, char hex[41])
{
	struct buf err = BUF_INIT;

	ck_assert_msg(repo_commit(r, files, n, message, tag, when, hex) == 0, "%s",
		error_last()->message);
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

	ck_assert_msg(repo_read(r, rev, path, &out) == 0, "%s:%s %s", rev, path,
		error_last()->message);
	ck_assert_uint_eq(out.len, want_len);
	if (want_len)
		ck_assert_int_eq(memcmp(out.data, want, want_len), 0);
	buf_release(&out);
	buf_release(&err);
}

/* Checks the listing of dir at rev is exactly the NULL-terminated want. */
static void assert_list(struct repo *r, const char *rev, const char *dir, const char *const *want)
{
	struct buf err = BUF_INIT;
	char **names = NULL;
	size_t i;

	ck_assert_msg(repo_list(r, rev, dir, &names) == 0, "%s", error_last()->message);
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
	char *dir = test_path("init"), *plain = test_path("plain");
	struct repo *r = init_repo(dir), *again = NULL;

	ck_assert_int_eq(test_run(&out, "git -C '%s' symbolic-ref HEAD", dir), 0);
	ck_assert_str_eq(buf_str(&out), "refs/heads/main\n");
	ck_assert_int_eq(repo_has(r, "HEAD"), 0); /* no commit yet */
	ck_assert_int_eq(repo_is_clean(r), 1);
	repo_free(r);

	ck_assert_int_eq(repo_init(&again, dir), -1); /* a .git is already there */
	ck_assert_ptr_null(again);
	ck_assert_ptr_nonnull(
		strstr(error_last()->message, "repo: cannot create a repository in '"));
	ck_assert_ptr_null(strchr(error_last()->message, '\n'));

	ck_assert_int_eq(repo_open(&r, dir), 0);
	repo_free(r);
	ck_assert_int_eq(mkdir(plain, 0755), 0);
	r = NULL;
	ck_assert_int_eq(repo_open(&r, plain), ERROR_NOTFOUND); /* no repository */
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
	char *dir = test_path("two-turns");
	struct repo *r = init_repo(dir);
	char c0[41], c1[41], hex[41];

	commit_ok(r, setup_files, 2, "Setup", "turn-0000", T0, c0);
	ck_assert_int_eq(repo_is_clean(r), 1);
	git_status_empty(dir);
	commit_ok(r, turn1_files, 4, "Turn 1: the raid begins\n\nThree dice, one void order.",
		"turn-0001", T1, c1);
	ck_assert_int_eq(repo_is_clean(r), 1);
	git_status_empty(dir);
	/* No temporary file is left behind, not even in .git/. */
	ck_assert_int_eq(test_run(&out, "ls -a '%s/.git' | grep umpire-write", dir), 1);
	repo_free(r);

	/* A fresh handle: everything below comes from disk. */
	ck_assert_int_eq(repo_open(&r, dir), 0);
	assert_read(r, "turn-0000", "state.yaml", state0, sizeof(state0) - 1);
	assert_read(r, "turn-0001", "state.yaml", state1, sizeof(state1) - 1);
	assert_read(r, "HEAD", "state.yaml", state1, sizeof(state1) - 1);
	assert_read(r, c0, "state.yaml", state0, sizeof(state0) - 1);
	/* Not named in turn 1, so kept from the setup. */
	assert_read(r, "turn-0001", "campaign.yaml", campaign, sizeof(campaign) - 1);
	assert_read(r, "turn-0001", "orders/turn-0001/attacker.yaml", attacker1,
		sizeof(attacker1) - 1);
	assert_read(r, "turn-0001", "reports/turn-0001/empty.txt", "", 0);
	ck_assert_int_eq(repo_read(r, "turn-0000", "orders/turn-0001/attacker.yaml", &out),
		ERROR_NOTFOUND);
	ck_assert_int_eq(repo_read(r, "turn-0007", "state.yaml", &out), ERROR_NOTFOUND);
	ck_assert_int_eq(repo_read(r, "turn-0001", "orders", &out), -1); /* a directory */

	static const char *const orders[] = { "attacker.yaml", "defender.yaml", NULL };
	static const char *const top1[] = { "campaign.yaml", "state.yaml", NULL };
	static const char *const none[] = { NULL };
	assert_list(r, "turn-0001", "orders/turn-0001", orders);
	assert_list(r, "turn-0001", "", top1); /* files only, no "orders" */
	assert_list(r, "turn-0000", "orders/turn-0001", none);
	assert_list(r, "turn-0001", "orders/turn-0002", none);
	char **names = NULL;
	ck_assert_int_eq(repo_list(r, "turn-0009", "", &names), -1);

	ck_assert_int_eq(repo_has(r, "turn-0000"), 1);
	ck_assert_int_eq(repo_has(r, "turn-0001"), 1);
	ck_assert_int_eq(repo_has(r, "turn-0002"), 0);
	ck_assert_int_eq(repo_commit_id(r, "turn-0001", hex), 0);
	ck_assert_str_eq(hex, c1);
	ck_assert_int_eq(repo_commit_id(r, "HEAD", hex), 0);
	ck_assert_str_eq(hex, c1);
	ck_assert_int_eq(repo_commit_id(r, "turn-0000", hex), 0);
	ck_assert_str_eq(hex, c0);
	ck_assert_int_eq(repo_commit_id(r, "turn-0002", hex), ERROR_NOTFOUND);
	ck_assert_int_eq(repo_subject(r, "turn-0001", &out), 0);
	ck_assert_str_eq(buf_str(&out), "Turn 1: the raid begins");
	ck_assert_int_eq(repo_subject(r, "turn-0000", &out), 0);
	ck_assert_str_eq(buf_str(&out), "Setup");
	ck_assert_int_eq(repo_subject(r, "turn-0002", &out), ERROR_NOTFOUND);

	/* What the git program makes of it: history, tags, identity and times. */
	ck_assert_int_eq(test_run(&out,
				 "git -C '%s' log --format='%%H %%P|%%an <%%ae> %%at %%ai|%%cn"
				 " <%%ce> %%ct|%%s' main",
				 dir),
		0);
	char *want = xasprintf(
		"%s %s|umpire <umpire@localhost> 1700086400 2023-11-15 22:13:20"
		" +0000|umpire <umpire@localhost> 1700086400|Turn 1: the raid begins\n"
		"%s |umpire <umpire@localhost> 1700000000 2023-11-14 22:13:20 +0000|umpire"
		" <umpire@localhost> 1700000000|Setup\n",
		c1, c0, c0);
	ck_assert_str_eq(buf_str(&out), want);
	free(want);
	ck_assert_int_eq(test_run(&out,
				 "git -C '%s' for-each-ref --format='%%(refname) %%(objecttype)"
				 " %%(objectname)' refs/tags",
				 dir),
		0);
	want = xasprintf("refs/tags/turn-0000 commit %s\nrefs/tags/turn-0001 commit %s\n", c0, c1);
	ck_assert_str_eq(buf_str(&out), want); /* lightweight: the tags name commits */
	free(want);
	ck_assert_int_eq(test_run(&out, "git -C '%s' fsck --strict --no-dangling", dir), 0);

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
	char *dx = test_path("repro-x"), *dy = test_path("repro-y"), *dz = test_path("repro-z");
	struct repo *x = init_repo(dx), *y = init_repo(dy), *z = init_repo(dz);
	char x0[41], x1[41], y0[41], y1[41], z0[41];

	play_two_turns(x, x0, x1);
	play_two_turns(y, y0, y1);
	ck_assert_str_eq(x0, y0);
	ck_assert_str_eq(x1, y1);
	ck_assert_str_ne(x0, x1);
	commit_ok(z, setup_files, 2, "Setup", "turn-0000", T0 + 1, z0); /* a second later */
	ck_assert_str_ne(x0, z0);
	repo_free(x);
	repo_free(y);
	repo_free(z);
	free(dx);
	free(dy);
	free(dz);
}
END_TEST

/* The commit's tree, built by a tree builder on the parent's touching only the directories
 * that change, is the tree git's own index gives for the parent plus the same files: nested
 * directories, names that sort around "dir/" ("a-b", "a.txt", "a/"), a replaced file and a
 * path given twice (the later one kept). */
START_TEST(test_tree_matches_git_index)
{
	static const struct file more[] = {
		{ (char *)"a/b/c.txt", (unsigned char *)"c\n", 2 },
		{ (char *)"a-b/y", (unsigned char *)"y\n", 2 },
		{ (char *)"a/x", (unsigned char *)"first\n", 6 },
		{ (char *)"a.txt", (unsigned char *)"a\n", 2 },
		{ (char *)"z/deep/er/f", (unsigned char *)"f\n", 2 },
		{ (char *)"state.yaml", (unsigned char *)"turn: 2\n", 8 },
		{ (char *)"a/x", (unsigned char *)"second\n", 7 },
		{ (char *)"orders/turn-0001/defender.yaml", (unsigned char *)"new\n", 4 },
	};
	char *dir = test_path("tree-index");
	struct repo *r = init_repo(dir);
	struct buf out = BUF_INIT, want = BUF_INIT;
	char c0[41], c1[41], c2[41];

	play_two_turns(r, c0, c1);
	commit_ok(r, more, sizeof(more) / sizeof(more[0]), "Turn 2", "turn-0002", T1 + 60, c2);
	buf_printf(&want, "export GIT_INDEX_FILE='%s/.git/test-index'; cd '%s' && git read-tree %s",
		dir, dir, c1);
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		buf_printf(&want,
			" && git update-index --add --cacheinfo \"100644,$(printf '%.*s' | git "
			"hash-object -w --stdin),%s\"",
			(int)more[i].len, (const char *)more[i].data, more[i].path);
	buf_puts(&want, " && git write-tree && git rev-parse turn-0002^{tree}");
	ck_assert_int_eq(test_run(&out, "%s", buf_str(&want)), 0);
	ck_assert_uint_eq(out.len, 82);
	ck_assert_msg(memcmp(out.data, out.data + 41, 41) == 0, "trees differ: %s", buf_str(&out));
	ck_assert_int_eq(test_run(&out, "git -C '%s' show turn-0002:a/x", dir), 0);
	ck_assert_str_eq(buf_str(&out), "second\n");
	git_status_empty(dir);
	ck_assert_int_eq(test_run(&out, "git -C '%s' fsck --strict --no-dangling", dir), 0);
	repo_free(r);
	free(dir);
	buf_release(&out);
	buf_release(&want);
}
END_TEST

/* repo_pack_loose: each commit's objects were written loose (repo_build, through libgit2);
 * they go into one pack, which git accepts (fsck, every object readable); nothing is left
 * loose, a second call has nothing to do, and min_loose above the count leaves them as they
 * are. */
START_TEST(test_pack_loose)
{
	char *dir = test_path("pack");
	struct repo *r = init_repo(dir);
	struct buf out = BUF_INIT;
	char c0[41], c1[41];

	play_two_turns(r, c0, c1);
	ck_assert_int_eq(repo_pack_loose(r, 1000), 0);
	ck_assert_int_eq(test_run(&out, "git -C '%s' count-objects -v | grep -E '^(count|packs):'",
				 dir),
		0);
	ck_assert_str_eq(buf_str(&out), "count: 14\npacks: 0\n");
	ck_assert_int_eq(repo_pack_loose(r, 1), 14);
	ck_assert_int_eq(test_run(&out,
				 "git -C '%s' count-objects -v | grep -E '^(count|in-pack|packs):'",
				 dir),
		0);
	ck_assert_str_eq(buf_str(&out), "count: 0\nin-pack: 14\npacks: 1\n");
	ck_assert_int_eq(repo_pack_loose(r, 1), 0);
	ck_assert_int_eq(test_run(&out, "git -C '%s' fsck --strict --no-dangling", dir), 0);
	assert_read(r, "turn-0001", "state.yaml", state1, sizeof(state1) - 1);
	assert_read(r, "turn-0000", "state.yaml", state0, sizeof(state0) - 1);
	git_status_empty(dir);
	repo_free(r);
	free(dir);
	buf_release(&out);
}
END_TEST

/* A commit's objects as repo_build writes them (loose, through libgit2): three reports that
 * differ in a few lines and the same bytes under two paths (stored once) read back as they
 * were, by git and by repo_read; repo_pack_loose (libgit2's packbuilder) then stores two of
 * the reports as deltas, and git's own checks of the pack and its index pass (verify-pack,
 * fsck), the pack read-only as git leaves packs. */
START_TEST(test_turn_pack_deltas)
{
	char *dir = test_path("deltas");
	struct repo *r = init_repo(dir);
	struct buf out = BUF_INIT, text[3] = { BUF_INIT, BUF_INIT, BUF_INIT };
	const char *who[3] = { "alpha", "bravo", "charlie" };
	char c0[41], c1[41], c2[41];

	for (int k = 0; k < 3; k++) {
		buf_printf(&text[k], "# report for %s\n", who[k]);
		for (int i = 0; i < 2000; i++)
			buf_printf(&text[k], "| %d | d6 | %d | a shared line of the report |\n", i,
				i % 6 + 1);
		buf_printf(&text[k], "player: %s\n", who[k]);
	}
	const struct file files[] = {
		{ (char *)"reports/a.md", (unsigned char *)text[0].data, text[0].len },
		{ (char *)"reports/b.md", (unsigned char *)text[1].data, text[1].len },
		{ (char *)"reports/c.md", (unsigned char *)text[2].data, text[2].len },
		{ (char *)"reports/copy.md", (unsigned char *)text[2].data, text[2].len },
	};
	play_two_turns(r, c0, c1);
	commit_ok(r, files, 4, "Turn 2", "turn-0002", T1 + 60, c2);
	/* 14 of the first two turns; the commit, two trees and three reports (the copy once) */
	ck_assert_int_eq(test_run(&out, "git -C '%s' count-objects -v | grep -E '^(count|packs):'",
				 dir),
		0);
	ck_assert_str_eq(buf_str(&out), "count: 20\npacks: 0\n");
	for (int k = 0; k < 3; k++) {
		ck_assert_int_eq(test_run(&out, "git -C '%s' show turn-0002:%s", dir,
					 files[k].path),
			0);
		ck_assert_str_eq(buf_str(&out), buf_str(&text[k]));
		assert_read(r, "turn-0002", files[k].path, text[k].data, text[k].len);
	}
	assert_read(r, "turn-0002", "reports/copy.md", text[2].data, text[2].len);
	ck_assert_int_eq(test_run(&out, "git -C '%s' fsck --strict --no-dangling", dir), 0);
	git_status_empty(dir);
	ck_assert_int_eq(repo_pack_loose(r, 1), 20);
	ck_assert_int_eq(test_run(&out,
				 "cd '%s/.git/objects/pack' && git verify-pack -v *.idx | "
				 "grep -E '^chain length = [0-9]+: [0-9]+ object' | "
				 "awk -F': ' '{ n += $2 } END { print n }'",
				 dir),
		0);
	ck_assert_int_ge(strtol(buf_str(&out), NULL, 10), 2); /* two reports at least */
	ck_assert_int_eq(test_run(&out,
				 "cd '%s/.git/objects/pack' && stat -c %%a $(ls -t | head -2)",
				 dir),
		0);
	ck_assert_str_eq(buf_str(&out), "444\n444\n");
	ck_assert_int_eq(test_run(&out, "git -C '%s' fsck --strict --no-dangling", dir), 0);
	assert_read(r, "turn-0002", "reports/b.md", text[1].data, text[1].len);
	repo_free(r);
	free(dir);
	buf_release(&out);
	for (int k = 0; k < 3; k++)
		buf_release(&text[k]);
}
END_TEST

START_TEST(test_commit_refusals)
{
	struct buf err = BUF_INIT;
	char *dir = test_path("refusals");
	struct repo *r = init_repo(dir);
	char c0[41], c1[41], hex[41];
	static const char *const bad[] = {
		"",
		"/etc/passwd",
		"../escape",
		"orders/../../escape",
		"a//b",
		"a/./b",
		"a/",
		".git/config",
		"sub/.GIT/hooks/x",
		"a\\b",
	};

	play_two_turns(r, c0, c1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct file f[2] = {
			{ (char *)"state.yaml", (unsigned char *)"changed\n",
				8 }, /* valid, and must not be written either */
			{ (char *)bad[i], (unsigned char *)"x", 1 },
		};
		ck_assert_msg(repo_commit(r, f, 2, "Bad", "turn-0002", T1 + 1, hex) == -1,
			"accepted path '%s'", bad[i]);
		ck_assert_ptr_nonnull(strstr(error_last()->message, "invalid repository path"));
	}
	assert_read(r, "HEAD", "state.yaml", state1, sizeof(state1) - 1);
	ck_assert_int_eq(repo_is_clean(r), 1);

	/* An existing tag is refused before anything is written or committed. */
	struct file next[] = { { (char *)"orders/turn-0002/attacker.yaml", (unsigned char *)"x\n",
		2 } };
	ck_assert_int_eq(repo_commit(r, next, 1, "Again", "turn-0001", T1 + 1, hex), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "tag 'turn-0001' already exists"));
	ck_assert_int_eq(exists(dir, "orders/turn-0002/attacker.yaml"), 0);
	ck_assert_int_eq(repo_commit_id(r, "HEAD", hex), 0);
	ck_assert_str_eq(hex, c1);
	git_status_empty(dir);

	/* repo_publish is the recovery path: publishing a published commit again is a no-op, a
	 * missing tag is added, and a tag already on another commit is refused. */
	ck_assert_msg(repo_publish(r, NULL, 0, c1, "turn-0001") == 0, "%s", error_last()->message);
	ck_assert_int_eq(repo_publish(r, NULL, 0, c1, "turn-0000"), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message,
		"tag 'turn-0000' already exists and points elsewhere"));
	ck_assert_msg(repo_publish(r, NULL, 0, c1, "recovered") == 0, "%s", error_last()->message);
	ck_assert_int_eq(repo_commit_id(r, "recovered", hex), 0);
	ck_assert_str_eq(hex, c1);

	/* Commits go on main only: with HEAD moved elsewhere, main is not advanced blindly. */
	struct buf out = BUF_INIT;
	ck_assert_int_eq(test_run(&out, "git -C '%s' symbolic-ref HEAD refs/heads/other", dir), 0);
	ck_assert_int_eq(repo_commit(r, next, 1, "Elsewhere", "turn-0002", T1 + 1, hex), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "HEAD is not the branch main"));
	ck_assert_int_eq(test_run(&out, "git -C '%s' rev-parse main", dir), 0);
	ck_assert_int_eq(strncmp(buf_str(&out), c1, 40), 0);
	buf_release(&out);

	repo_free(r);
	free(dir);
	buf_release(&err);
}
END_TEST

START_TEST(test_publish_finishes_a_turn)
{
	struct buf err = BUF_INIT;
	char *dir = test_path("publish");
	struct repo *r = init_repo(dir);
	char c0[41], c1[41], c2[41], hex[41];
	static const char state2[] = "turn: 2\n";
	struct file turn2[] = {
		{ (char *)"state.yaml", (unsigned char *)state2, sizeof(state2) - 1 },
		{ (char *)"orders/turn-0002/defender.yaml", (unsigned char *)"orders: []\n", 11 },
	};

	play_two_turns(r, c0, c1);
	/* A turn whose objects were built (and journaled) but whose publish was cut short:
	 * main not moved, no tag, one file half-written, another missing. */
	ck_assert_msg(repo_build(r, turn2, 2, "Turn 2", T1 + 60, c2) == 0, "%s",
		error_last()->message);
	ck_assert_int_eq(repo_commit_id(r, "refs/heads/main", hex), 0);
	ck_assert_str_eq(hex, c1);
	ck_assert_int_eq(repo_has(r, "turn-0002"), 0);
	write_file(dir, "state.yaml", "half-written\n");
	ck_assert_int_eq(repo_is_clean(r), 0);

	/* The same build again gives the same commit: recovery can check the journaled id. */
	char again[41];
	ck_assert_int_eq(repo_build(r, turn2, 2, "Turn 2", T1 + 60, again), 0);
	ck_assert_str_eq(again, c2);

	ck_assert_msg(repo_publish(r, turn2, 2, c2, "turn-0002") == 0, "%s", error_last()->message);
	ck_assert_int_eq(repo_commit_id(r, "refs/heads/main", hex), 0);
	ck_assert_str_eq(hex, c2);
	ck_assert_int_eq(repo_commit_id(r, "turn-0002", hex), 0);
	ck_assert_str_eq(hex, c2);
	assert_read(r, "HEAD", "state.yaml", state2, sizeof(state2) - 1);
	ck_assert_int_eq(repo_is_clean(r), 1);
	git_status_empty(dir);

	/* Publishing again changes nothing; publishing an old commit would move main back. */
	ck_assert_int_eq(repo_publish(r, turn2, 2, c2, "turn-0002"), 0);
	ck_assert_int_eq(repo_publish(r, NULL, 0, c1, "other"), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "main moved"));
	ck_assert_int_eq(repo_commit_id(r, "refs/heads/main", hex), 0);
	ck_assert_str_eq(hex, c2);

	repo_free(r);
	free(dir);
	buf_release(&err);
}
END_TEST

/* Publish after a build in the same process takes the built tree as known only for the very
 * bytes it was built from (repo.c built_here compares them): files of the same paths and
 * lengths but other bytes are indexed as what they are, not as the built blobs. */
START_TEST(test_publish_other_bytes)
{
	char *dir = test_path("publish-other");
	struct repo *r = init_repo(dir);
	char c0[41], c1[41], c2[41];
	struct buf out = BUF_INIT;
	struct file built[] = {
		{ (char *)"state.yaml", (unsigned char *)"turn: 2\n", 8 },
	};
	struct file other[] = {
		{ (char *)"state.yaml", (unsigned char *)"turn: 3\n", 8 },
	};

	play_two_turns(r, c0, c1);
	ck_assert_int_eq(repo_build(r, built, 1, "Turn 2", T1 + 60, c2), 0);
	ck_assert_msg(repo_publish(r, other, 1, c2, "turn-0002") == 0, "%s", error_last()->message);
	ck_assert_int_eq(test_run(&out,
				 "git -C '%s' ls-files -s state.yaml && printf 'turn: 3\\n' "
				 "| git hash-object --stdin",
				 dir),
		0);
	/* "100644 ID 0\tstate.yaml\nID\n": the index holds the bytes written */
	ck_assert_uint_ge(out.len, 7 + 41 + 11 + 41);
	ck_assert_mem_eq(out.data + 7, out.data + 7 + 41 + 13, 40);
	buf_release(&out);
	repo_free(r);
	free(dir);
}
END_TEST

/* repo_objects_stored confirms each object of the commit repo_build just built, by the ids
 * the build kept (no tree read back), and through a handle that did not build it, by reading
 * the trees: a subtree's or a blob's loose file gone is named, both ways. */
START_TEST(test_objects_stored)
{
	char *dir = test_path("stored");
	struct repo *r = init_repo(dir), *other = NULL;
	struct buf out = BUF_INIT;
	char c0[41], c1[41], c2[41];
	struct file turn2[] = {
		{ (char *)"reports/turn-0002/a.md", (unsigned char *)"# a\n", 4 },
		{ (char *)"state.yaml", (unsigned char *)"turn: 2\n", 8 },
	};

	play_two_turns(r, c0, c1);
	ck_assert_int_eq(repo_build(r, turn2, 2, "Turn 2", T1 + 60, c2), 0);
	ck_assert_msg(repo_objects_stored(r, c2, turn2, 2) == 0, "%s", error_last()->message);
	ck_assert_int_eq(repo_open(&other, dir), 0);
	ck_assert_msg(repo_objects_stored(other, c2, turn2, 2) == 0, "%s", error_last()->message);
	repo_free(other);
	const char *gone[] = { "reports/turn-0002", "reports/turn-0002/a.md" };
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(
			test_run(&out,
				"cd '%s' && i=$(git rev-parse %s:%s) && "
				"mv .git/objects/$(echo $i | cut -c1-2)/$(echo $i | cut -c3-) "
				".git/gone && echo $i",
				dir, c2, gone[k]),
			0);
		char *id = xstrdup(buf_str(&out));
		id[strcspn(id, "\n")] = '\0';
		ck_assert_int_eq(repo_objects_stored(r, c2, turn2, 2), -1);
		ck_assert_msg(strstr(error_last()->message, id) != NULL, "%s",
			error_last()->message);
		ck_assert_int_eq(repo_open(&other, dir), 0);
		ck_assert_int_eq(repo_objects_stored(other, c2, turn2, 2), -1);
		repo_free(other);
		buf_clear(&out);
		ck_assert_int_eq(
			test_run(&out,
				"cd '%s' && mv .git/gone .git/objects/$(echo %s | cut -c1-2)/"
				"$(echo %s | cut -c3-)",
				dir, id, id),
			0);
		buf_clear(&out);
		free(id);
	}
	ck_assert_msg(repo_objects_stored(r, c2, turn2, 2) == 0, "%s", error_last()->message);
	repo_free(r);
	buf_release(&out);
	free(dir);
}
END_TEST

/* The umpire's own objects are read without hashing each again once a writer says so
 * (repo_trust_own_objects, issue 38); until then libgit2 refuses an object whose bytes are
 * not its id's. The swap: state.yaml's loose object at turn 1 given campaign.yaml's bytes. */
START_TEST(test_trust_own_objects)
{
	char *dir = test_path("trust-own");
	struct repo *r = init_repo(dir);
	struct buf out = BUF_INIT;
	char c0[41], c1[41];

	play_two_turns(r, c0, c1);
	repo_free(r);
	ck_assert_int_eq(test_run(&out,
				 "cd '%s' && a=$(git rev-parse turn-0001:state.yaml) && "
				 "b=$(git rev-parse turn-0001:campaign.yaml) && "
				 "t=.git/objects/$(echo $a | cut -c1-2)/$(echo $a | cut -c3-) && "
				 "chmod u+w $t && "
				 "cp .git/objects/$(echo $b | cut -c1-2)/$(echo $b | cut -c3-) $t",
				 dir),
		0);
	ck_assert_int_eq(repo_open(&r, dir), 0);
	ck_assert_int_eq(repo_read(r, "turn-0001", "state.yaml", &out), -1);
	repo_free(r);
	ck_assert_int_eq(repo_trust_own_objects(), 0);
	ck_assert_int_eq(repo_open(&r, dir), 0);
	buf_clear(&out);
	ck_assert_msg(repo_read(r, "turn-0001", "state.yaml", &out) == 0, "%s",
		error_last()->message);
	ck_assert_uint_eq(out.len, sizeof(campaign) - 1);
	ck_assert_mem_eq(out.data, campaign, out.len);
	repo_free(r);
	buf_release(&out);
	free(dir);
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
	tcase_add_test(tc, test_tree_matches_git_index);
	tcase_add_test(tc, test_pack_loose);
	tcase_add_test(tc, test_turn_pack_deltas);
	tcase_add_test(tc, test_commit_refusals);
	tcase_add_test(tc, test_publish_finishes_a_turn);
	tcase_add_test(tc, test_publish_other_bytes);
	tcase_add_test(tc, test_objects_stored);
	/* last: the switch it turns is the process's */
	tcase_add_test(tc, test_trust_own_objects);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(repo_suite)
