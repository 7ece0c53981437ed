/* repo.c — the campaign's git repository through libgit2: opening it, one commit per turn on
 * main (built, then published: work tree, index, branch, tag), the rebuild verify compares,
 * packing, stale locks. Reading is repo_read.c's, pushing repo_push.c's; none of them runs
 * the git program or writes git's formats itself. */
#include "core/repo_int.h"
#include "core/durable.h"
#include "core/error.h"
#include "core/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include <git2/sys/commit.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>
#include "core/banned.h"

#define REPO_SIGNATURE_NAME "umpire"
#define REPO_SIGNATURE_EMAIL "umpire@localhost"
#define REPO_TREE_CACHE_LIMIT (4 << 20) /* bytes: the largest tree libgit2 keeps cached */
#define REPO_CACHE_MAX (8 << 20)        /* bytes: all objects libgit2 keeps cached, at most */

/* libgit2 wants one init per process; fsync of objects, refs and the index makes a commit
 * that returned survive a power cut, as the journal's synchronous=FULL does. */
static int lib_init(void)
{
	static int done;

	if (done)
		return 0;
	if (git_libgit2_init() < 0)
		return -1;
	if (git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1) < 0)
		return -1;
	/* libgit2 caches no tree over 4 KiB by default, and a long campaign's journal/, orders/
	 * and reports/ trees hold an entry a turn (about 40 KB at turn 1,000): without this,
	 * every read at main or at a tag parses them again (verify: once per turn and file). */
	if (git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
		    (size_t)REPO_TREE_CACHE_LIMIT) < 0)
		return -1;
	/* libgit2's default (256 MiB) keeps every turn's version of the growing journal/ and
	 * reports/ trees that replay and verify read: memory grew with the square of a
	 * campaign's length. 8 MiB holds a turn's working set (issue 38: replay of 999 turns
	 * at the same CPU in a quarter of the memory; verify, whose threads also keep their last
	 * trees (repo_read.c), of 1,000 signed turns at 41-47 MB peak against 61-66 MB with 16 MiB,
	 * at the same CPU). */
	if (git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)REPO_CACHE_MAX) < 0)
		return -1;
	done = 1;
	return 0;
}

int repo_trust_own_objects(void)
{
	/* Each tree read was hashed again: at turn 1,000 the journal/, orders/ and reports/
	 * trees (about 100 KB each) cost a close or a turn 10-17 M instructions (issue 38). */
	if (lib_init() != 0 || git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0) < 0)
		return error_set(ERROR_OS, "repo: %s", repo_git_msg());
	return 0;
}

/* A repository path is relative, '/'-separated, with no empty, ".", ".." or ".git" part:
 * files come from a turn's computation, and none may land outside the work tree. */
static int path_ok(const char *path)
{
	const char *p = path, *end;

	if (!path || !*path || *path == '/')
		return 0;
	for (;;) {
		end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.') ||
			(n == 4 && strncasecmp(p, ".git", 4) == 0))
			return 0;
		if (memchr(p, '\\', n))
			return 0;
		if (!end)
			return 1;
		p = end + 1;
	}
}

static struct repo *repo_wrap(git_repository *git)
{
	struct repo *r = xcalloc(1, sizeof(*r));
	const char *wd = git_repository_workdir(git);

	r->git = git;
	r->workdir = xstrdup(wd ? wd : "");
	r->gitdir = xstrdup(git_repository_path(git));
	return r;
}

int repo_init(struct repo **out, const char *dir)
{
	git_repository_init_options opts;
	git_repository *git = NULL;
	git_config *cfg = NULL;
	int ret = -1;

	*out = NULL;
	if (lib_init() != 0)
		goto fail;
	if (git_repository_init_options_init(&opts, GIT_REPOSITORY_INIT_OPTIONS_VERSION) < 0)
		goto fail;
	opts.flags = GIT_REPOSITORY_INIT_MKPATH | GIT_REPOSITORY_INIT_NO_REINIT;
	opts.initial_head = "main";
	if (git_repository_init_ext(&git, dir, &opts) < 0)
		goto fail;
	/* Committed blobs must be the exact bytes (an order file may well use CRLF): no line-
	 * ending conversion, whatever the user's global configuration says. */
	if (git_repository_config(&cfg, git) < 0 ||
		git_config_set_bool(cfg, "core.autocrlf", 0) < 0 ||
		git_config_set_string(cfg, "core.safecrlf", "false") < 0)
		goto fail;
	*out = repo_wrap(git);
	git = NULL;
	ret = 0;
	goto done;
fail:
	error_set(ERROR_OS, "repo: cannot create a repository in '%s': %s", dir, repo_git_msg());
done:
	git_config_free(cfg);
	git_repository_free(git);
	return ret;
}

/* libgit2 (1.5) answers "not found" for a repository it refuses because another user owns
 * it (git's safe.directory check), with a stale message: a .git there that this user does
 * not own is that refusal. */
static int is_owner_refusal(const char *dir)
{
	char *gitdir = xasprintf("%s/.git", dir);
	struct stat st, wt;
	int refused = stat(gitdir, &st) == 0 && stat(dir, &wt) == 0 &&
		      (st.st_uid != geteuid() || wt.st_uid != geteuid());

	free(gitdir);
	return refused;
}

int repo_open(struct repo **out, const char *dir)
{
	git_repository *git = NULL;
	int rc;

	*out = NULL;
	if (lib_init() != 0) {
		error_set(ERROR_OS, "repo: cannot open '%s': %s", dir, repo_git_msg());
		return -1;
	}
	/* NO_SEARCH: a campaign directory without .git must not find an enclosing repository. */
	rc = git_repository_open_ext(&git, dir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (rc == GIT_EOWNER || (rc == GIT_ENOTFOUND && is_owner_refusal(dir))) {
		error_set(ERROR_MISSING,
			"'%s' is a git repository owned by another user, which libgit2 refuses to open (run as its owner, or add it to git's safe.directory)",
			dir);
		return -1;
	}
	if (rc == GIT_ENOTFOUND) {
		error_set(ERROR_MISSING, "no git repository in '%s'", dir);
		return ERROR_NOTFOUND;
	}
	if (rc < 0) {
		error_set(ERROR_OS, "repo: cannot open '%s': %s", dir, repo_git_msg());
		return -1;
	}
	if (git_repository_is_bare(git)) {
		error_set(ERROR_OS, "repo: cannot open '%s': the repository has no work tree", dir);
		git_repository_free(git);
		return -1;
	}
	*out = repo_wrap(git);
	return 0;
}

/* Where build_tree records the trees it writes below the root (NULL: nowhere). */
struct tree_rec {
	struct built_tree *v;
	size_t n, cap;
};

/* Frees rec's paths and array. */
static void tree_rec_free(struct tree_rec *rec)
{
	for (size_t i = 0; i < rec->n; i++)
		free(rec->v[i].path);
	free(rec->v);
	rec->v = NULL;
	rec->n = rec->cap = 0;
}

/* Drops what repo_build kept of the commit it built: its files, the blobs' and trees' ids. */
static void built_forget(struct repo *r)
{
	struct tree_rec rec = { r->built_trees, r->built_n_trees, r->built_n_trees };

	file_list_free(r->built_files, r->built_n);
	r->built_files = NULL;
	r->built_n = 0;
	tree_rec_free(&rec);
	free(r->built_blobs);
	r->built_blobs = NULL;
	r->built_trees = NULL;
	r->built_n_trees = 0;
}

void repo_free(struct repo *r)
{
	if (!r)
		return;
	repo_refs_changed(); /* another handle may come at r->git's address */
	repo_forget_trees(r);
	built_forget(r);
	git_repository_free(r->rebuild);
	git_repository_free(r->git);
	free(r->workdir);
	free(r->gitdir);
	free(r);
}

/* Makes every directory above path (relative to the work tree). */
static int make_parents(const char *workdir, const char *path, struct buf *msg)
{
	char *full = xasprintf("%s%s", workdir, path);
	char *slash = strrchr(full, '/');
	int ret = 0;

	/* file.h: no directory of the work tree is reached through a link */
	if (slash && slash > full + strlen(workdir)) {
		*slash = '\0';
		if (file_mkdir_p(full, 0755) != 0) {
			buf_puts(msg, error_last()->message);
			ret = -1;
		}
	}
	free(full);
	return ret;
}

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* Writes all len bytes of data to fd, retrying after a signal. 0, or -1 with errno set. */
int repo_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) /* 0: nothing written, which a retry would repeat */
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Writes data (len bytes) durably to path with mode: a temporary file made from tmp
 * (mkstemp's template, on path's file system), fsync, rename over path, then an fsync of the
 * directory sync_dir (NULL: none). 0; -2 when the temporary file cannot be made, -1 after
 * that (the temporary file removed); errno says why. */
static int write_renamed(char *tmp, const char *path, const void *data, size_t len, mode_t mode,
	const char *sync_dir)
{
	int fd = mkstemp(tmp), err;

	if (fd < 0)
		return -2;
	if (fchmod(fd, mode) != 0 || repo_write_all(fd, data, len) != 0 || fsync(fd) != 0) {
		err = errno;
		close(fd);
		goto fail;
	}
	if (close(fd) != 0 || file_rename(tmp, path) != 0) {
		err = errno;
		goto fail;
	}
	return sync_dir && fsync_dir(sync_dir) != 0 ? -1 : 0;
fail:
	unlink(tmp);
	errno = err;
	return -1;
}

/* Writes path atomically: a temporary file, fsync, rename over, fsync the directory (when
 * sync_dir: the caller renaming several files into one directory fsyncs it after the last). A
 * crash leaves either the old file or the new one, never half of either. The temporary file
 * lives in .git/ (the same file system as the work tree, so rename stays atomic) rather than
 * beside its target: one left by a crash then cannot make the work tree look dirty. */
static int write_atomic(const struct repo *r, const char *path, const void *data, size_t len,
	int sync_dir, struct buf *msg)
{
	char *full = xasprintf("%s%s", r->workdir, path);
	char *slash = strrchr(full, '/');
	char *dir = xasprintf("%.*s", (int)(slash - full), full);
	char *tmp = xasprintf("%sumpire-write-XXXXXX", r->gitdir);
	int ret = -1;

	if (make_parents(r->workdir, path, msg) == 0) {
		ret = write_renamed(tmp, full, data, len, 0644, sync_dir ? dir : NULL);
		if (ret == -2)
			buf_printf(msg, "cannot create a temporary file for '%s': %s", path,
				strerror(errno));
		else if (ret < 0 && errno == ELOOP && error_last()->klass == ERROR_INPUT)
			buf_puts(msg, error_last()->message); /* a link refused (file.h) */
		else if (ret < 0)
			buf_printf(msg, "cannot write '%s': %s", path, strerror(errno));
	}
	free(tmp);
	free(dir);
	free(full);
	return ret < 0 ? -1 : 0;
}

/* Refuses to commit unless HEAD is the symbolic ref to main: a checkout of something else
 * would make the work tree and the branch we advance disagree. */
static int head_is_main(git_repository *git, struct buf *msg)
{
	git_reference *head = NULL;
	int ok;

	if (git_reference_lookup(&head, git, "HEAD") < 0) {
		buf_puts(msg, repo_git_msg());
		return 0;
	}
	ok = git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	     strcmp(git_reference_symbolic_target(head), REPO_BRANCH) == 0;
	if (!ok)
		buf_puts(msg, "HEAD is not the branch main");
	git_reference_free(head);
	return ok;
}

/* The commit's single parent (or none) as an id; 0 ok, 1 root commit, -1 error. */
static int commit_parent_id(git_repository *git, const git_oid *commit, git_oid *out)
{
	git_commit *c = NULL;
	int rc = -1;
	if (git_commit_lookup(&c, git, commit) < 0)
		return -1;
	if (git_commit_parentcount(c) == 0)
		rc = 1;
	else {
		git_oid_cpy(out, git_commit_parent_id(c, 0));
		rc = 0;
	}
	git_commit_free(c);
	return rc;
}

/* One file of a commit with its blob id; sorted by path, and for a path given twice by
 * position, so the caller's later file is inserted last and kept (as an index would). */
struct tree_file {
	const char *path; /* the path below the directory being built */
	git_oid blob;     /* its blob */
	size_t order;     /* its position in the caller's array: the last of equal paths wins */
};

static int tree_file_cmp(const void *a, const void *b)
{
	const struct tree_file *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c ? c : (x->order > y->order) - (x->order < y->order);
}

static int build_tree(git_oid *out, git_repository *git, git_repository *rd, const git_tree *base,
	const struct tree_file *files, size_t n, const char *dir, struct tree_rec *rec);

/* Inserts into bld the subdirectory name (name_len bytes of files[0].path) built from base's
 * entry of that name (a tree, read through rd; anything else is replaced) plus files (paths
 * starting "name/"), written through git. 0 ok, REPO_CRAFTED or -1 (repo_git_msg()). */
static int insert_subtree(git_treebuilder *bld, git_repository *git, git_repository *rd,
	const git_tree *base, const struct tree_file *files, size_t n, size_t name_len,
	const char *dir, struct tree_rec *rec)
{
	char *name = xasprintf("%.*s", (int)name_len, files[0].path);
	char *path = xasprintf("%s%s", dir, name);
	struct tree_file *below = xcalloc(n, sizeof(*below));
	const git_tree_entry *e = base ? git_tree_entry_byname(base, name) : NULL;
	git_tree *sub = NULL;
	git_oid id;
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		below[i] = files[i];
		below[i].path = files[i].path + name_len + 1;
	}
	int is_tree = e && git_tree_entry_type(e) == GIT_OBJECT_TREE;
	/* The subtree may come from a crafted clone (verify rebuilds on one). */
	ret = is_tree ? repo_tree_lookup_checked(&sub, rd, git_tree_entry_id(e)) : 0;
	if (ret == 0) {
		char *sub_dir = xasprintf("%s/", path);
		ret = build_tree(&id, git, rd, sub, below, n, sub_dir, rec);
		free(sub_dir);
	}
	if (ret == 0 && git_treebuilder_insert(NULL, bld, name, &id, GIT_FILEMODE_TREE) < 0)
		ret = -1;
	if (ret == 0 && rec) {
		if (rec->n == rec->cap) {
			rec->cap = rec->cap ? 2 * rec->cap : 8;
			rec->v = xrealloc(rec->v, rec->cap * sizeof(*rec->v));
		}
		rec->v[rec->n].path = path;
		rec->v[rec->n++].id = id;
		path = NULL;
	}

	git_tree_free(sub);
	free(below);
	free(path);
	free(name);
	return ret;
}

/* Writes (through git) the tree that is base (NULL: empty; its subtrees read through rd)
 * with files (sorted by path) added or replaced, rewriting only the subtrees that hold one of
 * them: a turn's commit costs the directories it touches, not the whole history's tree. The
 * ids equal those of an index built from base plus the files (git's tree format is canonical;
 * libgit2's tree builder writes the entries in git's order, a file replacing the entry of its
 * name). dir: this tree's path ("" the root, else "a/b/"); each subtree written goes into rec
 * (NULL: none kept). 0 ok, REPO_CRAFTED or -1 (repo_git_msg()). */
static int build_tree(git_oid *out, git_repository *git, git_repository *rd, const git_tree *base,
	const struct tree_file *files, size_t n, const char *dir, struct tree_rec *rec)
{
	git_treebuilder *bld = NULL;
	int ret = -1;
	size_t i = 0;

	if (git_treebuilder_new(&bld, git, base) < 0)
		return -1;
	while (i < n) {
		const char *slash = strchr(files[i].path, '/');
		if (!slash) {
			/* Equal paths are adjacent, the caller's last one last: it is inserted last. */
			if (git_treebuilder_insert(NULL, bld, files[i].path, &files[i].blob,
				    GIT_FILEMODE_BLOB) < 0) {
				ret = -1;
				goto done;
			}
			i++;
			continue;
		}
		/* Paths starting with "dir/" are adjacent in byte order. */
		size_t len = (size_t)(slash - files[i].path), j = i + 1;
		while (j < n && strncmp(files[j].path, files[i].path, len + 1) == 0)
			j++;
		if ((ret = insert_subtree(bld, git, rd, base, files + i, j - i, len, dir, rec)) < 0)
			goto done;
		i = j;
	}
	ret = git_treebuilder_write(out, bld) < 0 ? -1 : 0;
done:
	git_treebuilder_free(bld);
	return ret;
}

/* The blob id of bytes, as libgit2 hashes it. 0 / -1. */
static int blob_id(git_oid *out, const void *bytes, size_t len)
{
	return git_odb_hash(out, bytes, len, GIT_OBJECT_BLOB);
}

/* The blob of f into out, written into git's object database (whichever backend takes
 * writes). With reuse (verify's rebuild on a clone, where every file is committed already),
 * a blob the repository holds is looked up first, so no pack file's time is touched; a new
 * turn's blobs are written at once (libgit2 hashes each once). 0 / -1 (repo_git_msg()). */
static int blob_of(git_oid *out, git_repository *git, git_odb *odb, const struct file *f, int reuse)
{
	if (reuse && blob_id(out, f->data, f->len) == 0 && git_odb_exists(odb, out))
		return 0;
	return git_blob_create_from_buffer(out, git, f->data, f->len);
}

/* Writes (into git's object database, whichever backend it writes to) the blobs of these
 * files, exactly their bytes (no content filters; their ids into blobs when not NULL), the
 * trees of parent's tree (none: empty) with the files added or replaced, touching only the
 * directories that hold them (build_tree), and the commit object on top, with message, at
 * when (seconds since the epoch), with no ref moved; reuse as for blob_of. parent and its
 * trees are read through rd (git, or verify's cached handle), all written through git; the
 * trees written below the root go into rec (NULL: none kept). 0, REPO_CRAFTED or -1
 * (repo_git_msg()). */
static int make_commit(git_oid *out, git_oid *blobs, git_repository *git, git_repository *rd,
	git_commit *parent, const struct file *files, size_t n, const char *message, long long when,
	int reuse, struct tree_rec *rec)
{
	git_tree *parent_tree = NULL;
	git_signature *sig = NULL;
	git_odb *odb = NULL;
	struct buf text = BUF_INIT;
	struct tree_file *sorted = xcalloc(n ? n : 1, sizeof(*sorted));
	git_oid tree_id;
	int ret = -1;

	if (git_repository_odb(&odb, git) < 0)
		goto done;
	for (size_t i = 0; i < n; i++) {
		sorted[i].path = files[i].path;
		sorted[i].order = i;
		if (blob_of(&sorted[i].blob, git, odb, &files[i], reuse) < 0)
			goto done;
		if (blobs)
			blobs[i] = sorted[i].blob;
	}
	qsort(sorted, n, sizeof(*sorted), tree_file_cmp);
	/* The parent's trees may come from a crafted clone (verify rebuilds on one). */
	if (parent && (ret = repo_commit_tree_checked(&parent_tree, rd, parent)) < 0)
		goto done;
	if ((ret = build_tree(&tree_id, git, rd, parent_tree, sorted, n, "", rec)) < 0)
		goto done;
	ret = -1;
	if (git_signature_new(&sig, REPO_SIGNATURE_NAME, REPO_SIGNATURE_EMAIL, (git_time_t)when,
		    0) < 0)
		goto done;
	buf_puts(&text, message);
	if (text.len == 0 || text.data[text.len - 1] != '\n')
		buf_puts(&text, "\n");
	/* By ids: git_commit_create would drop a parent read through another handle (rd) */
	const git_oid *parents[1] = { parent ? git_commit_id(parent) : NULL };
	if (git_commit_create_from_ids(out, git, NULL, sig, sig, NULL, buf_str(&text), &tree_id,
		    parent ? 1 : 0, parents) < 0)
		goto done;
	ret = 0;
done:
	git_signature_free(sig);
	git_tree_free(parent_tree);
	git_odb_free(odb);
	free(sorted);
	buf_release(&text);
	return ret;
}

/* Checks every path before anything is written; 0 ok, -1 with the message in msg. */
static int paths_ok(const struct file *files, size_t n, struct buf *msg)
{
	for (size_t i = 0; i < n; i++) {
		if (!path_ok(files[i].path)) {
			buf_printf(msg, "invalid repository path '%s'",
				files[i].path ? files[i].path : "");
			return -1;
		}
	}
	return 0;
}

/* The ids of the loose objects, collected by git_odb_foreach on a loose-only database. */
struct oid_list {
	git_oid *v;
	size_t n, cap;
};

static int collect_oid(const git_oid *id, void *payload)
{
	struct oid_list *l = payload;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	git_oid_cpy(&l->v[l->n++], id);
	return 0;
}

int repo_build(struct repo *r, const struct file *files, size_t n, const char *message,
	long long when, char commit_hex[41])
{
	struct buf msg = BUF_INIT;
	git_commit *parent = NULL;
	git_oid parent_id, commit_id, *blobs = NULL;
	struct tree_rec rec = { NULL, 0, 0 };
	int ret = -1, rc = -1;

	commit_hex[0] = '\0';
	if (paths_ok(files, n, &msg) < 0 || !head_is_main(r->git, &msg))
		goto done;
	rc = git_reference_name_to_id(&parent_id, r->git, REPO_BRANCH);
	if (rc < 0 && rc != GIT_ENOTFOUND)
		goto git_error;
	if (rc == 0 && (rc = repo_object_checked(r->git, &parent_id, GIT_OBJECT_COMMIT, NULL)) < 0)
		goto git_error;
	if (rc == 0 && (rc = git_commit_lookup(&parent, r->git, &parent_id)) < 0)
		goto git_error;
	/* Each object a loose file, fsynced by libgit2 (GIT_OPT_ENABLE_FSYNC_GITDIR) with its
	 * fan-out directory; repo_pack_loose packs them every TURN_PACK_EVERY turns. */
	blobs = xcalloc(n ? n : 1, sizeof(*blobs));
	built_forget(r);
	if ((rc = make_commit(&commit_id, blobs, r->git, r->git, parent, files, n, message, when, 0,
		     &rec)) < 0)
		goto git_error;
	git_oid_tostr(commit_hex, 41, &commit_id);
	for (size_t i = 0; parent && i < n; i++) /* what repo_built_here compares */
		file_list_add(&r->built_files, &r->built_n, files[i].path, files[i].data,
			files[i].len);
	if (parent) { /* what repo_built_here vouches for */
		r->built_blobs = blobs;
		blobs = NULL;
		r->built_trees = rec.v;
		r->built_n_trees = rec.n;
		rec.v = NULL;
		rec.n = 0;
	}
	r->built = commit_id;
	if (parent)
		r->built_parent = parent_id;
	durable_point("git objects");
	ret = 0;
	goto done;
git_error:
	buf_puts(&msg, repo_git_msg());
done:
	if (ret != 0)
		error_set(repo_fail_class(rc), "repo: cannot build the commit: %s", buf_str(&msg));
	tree_rec_free(&rec);
	free(blobs);
	git_commit_free(parent);
	buf_release(&msg);
	return ret;
}

/* Compare-and-swap of main: from the commit's parent to the commit, or nothing when main is
 * already there (finishing an interrupted turn). A root commit needs main not to exist yet.
 * Returns 0, or -1 with the reason in msg. */
static int move_main(struct repo *r, const git_oid *id, const char *commit_hex, struct buf *msg)
{
	git_reference *ref = NULL;
	git_oid main_id, parent_id;
	int rc, pr;

	rc = git_reference_name_to_id(&main_id, r->git, REPO_BRANCH);
	if (rc < 0 && rc != GIT_ENOTFOUND)
		goto git_error;
	if (rc == 0 && git_oid_equal(&main_id, id))
		return 0;
	pr = commit_parent_id(r->git, id, &parent_id);
	if (pr < 0)
		goto git_error;
	if (pr == 1 && rc == 0) {
		buf_printf(msg, "main already has commits (a root commit expected none)");
		return -1;
	}
	if (pr != 1 && (rc != 0 || !git_oid_equal(&main_id, &parent_id))) {
		buf_printf(msg, "main moved: it is not at the parent of %s", commit_hex);
		return -1;
	}
	repo_refs_changed();
	if (pr == 1 ? git_reference_create(&ref, r->git, REPO_BRANCH, id, 0, "umpire") < 0 :
		      git_reference_create_matching(&ref, r->git, REPO_BRANCH, id, 1, &parent_id,
			      "umpire") < 0)
		goto git_error;
	git_reference_free(ref);
	durable_point("branch");
	return 0;
git_error:
	buf_puts(msg, repo_git_msg());
	return -1;
}

/* The object id is in odb (a fresh one, so libgit2's object cache cannot answer for the
 * disk) and its header reads as type `want`; else msg says which. */
static int stored(git_odb *odb, const git_oid *id, git_object_t want, const char *what,
	struct buf *msg)
{
	size_t len;
	git_object_t type;
	char hex[GIT_OID_HEXSZ + 1];

	if (git_odb_read_header(&len, &type, odb, id) == 0 && type == want)
		return 0;
	git_oid_tostr(hex, sizeof(hex), id);
	buf_printf(msg, "%s %s is not in the object store (%s)", what, hex, repo_git_msg());
	return -1;
}

/* The ids of the trees on path's way (its directories) into ids, at most 8. */
static size_t dir_tree_ids(git_tree *root, const char *path, git_oid *ids)
{
	size_t n = 0;
	char *dir = xstrdup(path), *slash;

	while ((slash = strrchr(dir, '/')) && n < 8) {
		git_tree_entry *e = NULL;
		*slash = '\0';
		if (git_tree_entry_bypath(&e, root, dir) == 0) {
			git_oid_cpy(&ids[n++], git_tree_entry_id(e));
			git_tree_entry_free(e);
		}
	}
	free(dir);
	return n;
}

int repo_objects_stored(struct repo *r, const char *commit_hex, const struct file *files, size_t n)
{
	struct buf msg = BUF_INIT;
	git_odb *odb = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_oid id, ids[8];
	char *dir = xasprintf("%sobjects", git_repository_path(r->git));
	int rc = -1;

	if (git_oid_fromstr(&id, commit_hex) < 0 || git_odb_open(&odb, dir) < 0) {
		buf_puts(&msg, repo_git_msg());
		goto done;
	}
	if (stored(odb, &id, GIT_OBJECT_COMMIT, "commit", &msg) < 0)
		goto done;
	if (git_commit_lookup(&commit, r->git, &id) < 0 || git_commit_tree(&tree, commit) < 0) {
		buf_puts(&msg, repo_git_msg());
		goto done;
	}
	if (stored(odb, git_tree_id(tree), GIT_OBJECT_TREE, "tree", &msg) < 0)
		goto done;
	/* The commit repo_build built here from these files: the trees it wrote (those on the
	 * files' paths) and the blobs are known by id, none of the trees read back (issue 38). */
	if (repo_built_here(r, commit, files, n) && r->built_blobs) {
		for (size_t j = 0; j < r->built_n_trees; j++)
			if (stored(odb, &r->built_trees[j].id, GIT_OBJECT_TREE, "tree", &msg) < 0)
				goto done;
		for (size_t i = 0; i < n; i++)
			if (stored(odb, &r->built_blobs[i], GIT_OBJECT_BLOB, files[i].path, &msg) <
				0)
				goto done;
		rc = 0;
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		size_t k = dir_tree_ids(tree, files[i].path, ids);
		for (size_t j = 0; j < k; j++)
			if (stored(odb, &ids[j], GIT_OBJECT_TREE, "tree", &msg) < 0)
				goto done;
		/* the blob the commit's tree names at the path (repo_build made it from the
		 * file's bytes): no file hashed again */
		git_tree_entry *e = NULL;
		if (git_tree_entry_bypath(&e, tree, files[i].path) < 0) {
			buf_printf(&msg, "'%s' is not in its tree (%s)", files[i].path,
				repo_git_msg());
			goto done;
		}
		git_oid_cpy(&id, git_tree_entry_id(e));
		git_tree_entry_free(e);
		if (stored(odb, &id, GIT_OBJECT_BLOB, files[i].path, &msg) < 0)
			goto done;
	}
	rc = 0;
done:
	if (rc < 0)
		error_set(ERROR_OS, "repo: the commit %s was not written: %s", commit_hex,
			buf_str(&msg));
	git_tree_free(tree);
	git_commit_free(commit);
	git_odb_free(odb);
	free(dir);
	buf_release(&msg);
	return rc;
}

/* The *.lock files under dir (depth levels of subdirectories) not newer than before, removed
 * (file times come from the kernel's coarse clock: a lock stamped in the same tick as ours was
 * made by a run that died before we took the campaign's lock); each removed path appended to
 * *v (*n entries). Stops at REPO_MAX_STALE_LOCKS. No lstat of a name readdir types as
 * neither a lock nor a folder: refs/tags/ holds two loose tags a turn (issue 38). */
static int clear_locks_in(const char *dir, int depth, const struct timespec *before, char ***v,
	size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return errno == ENOENT ? 0 :
					 error_set(ERROR_OS, "repo: cannot list '%s': %s", dir,
						 strerror(errno));
	while (rc == 0 && *n < REPO_MAX_STALE_LOCKS && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		int lock = len > 5 && strcmp(e->d_name + len - 5, ".lock") == 0;
		struct stat st;
		if (e->d_name[0] == '.' || (depth == 0 && strcmp(e->d_name, "objects") == 0) ||
			(!lock && e->d_type != DT_UNKNOWN && e->d_type != DT_DIR))
			continue;
		char *path = xasprintf("%s/%s", dir, e->d_name);
		if (lstat(path, &st) < 0) {
			/* gone since readdir: nothing to remove */
		} else if (S_ISDIR(st.st_mode) && depth < 8 &&
			   (depth > 0 || strcmp(e->d_name, "refs") == 0)) {
			rc = clear_locks_in(path, depth + 1, before, v, n);
		} else if (S_ISREG(st.st_mode) && lock && file_not_newer(&st.st_mtim, before)) {
			if (unlink(path) < 0 && errno != ENOENT)
				rc = error_set(ERROR_OS,
					"repo: cannot remove stale lock file '%s': %s", path,
					strerror(errno));
			else {
				*v = xrealloc(*v, (*n + 2) * sizeof(**v));
				(*v)[(*n)++] = path;
				(*v)[*n] = NULL;
				path = NULL;
			}
		}
		free(path);
	}
	closedir(d);
	return rc;
}

int repo_clear_stale_locks(struct repo *r, const struct timespec *before, char ***removed)
{
	char *gitdir = xstrdup(git_repository_path(r->git));
	size_t n = 0, len = strlen(gitdir);

	*removed = xcalloc(1, sizeof(char *));
	if (len > 1 && gitdir[len - 1] == '/')
		gitdir[len - 1] = '\0';
	int rc = clear_locks_in(gitdir, 0, before, removed, &n);
	free(gitdir);
	return rc;
}

/* Whether repository paths a and b are in the same directory. */
static int same_dir(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	size_t la = sa ? (size_t)(sa - a) : 0, lb = sb ? (size_t)(sb - b) : 0;
	return la == lb && memcmp(a, b, la) == 0;
}

int repo_publish(struct repo *r, const struct file *files, size_t n, const char *commit_hex,
	const char *tag)
{
	struct buf msg = BUF_INIT;
	git_reference *existing = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_index *index = NULL;
	git_object *commit_obj = NULL;
	git_oid id, tag_id;
	int ret = -1, rc;

	if (git_oid_fromstr(&id, commit_hex) < 0 || git_commit_lookup(&commit, r->git, &id) < 0 ||
		git_commit_tree(&tree, commit) < 0)
		goto git_error;
	if (paths_ok(files, n, &msg) < 0 || !head_is_main(r->git, &msg))
		goto done;
	/* A tag that exists must already be this commit's (finishing an interrupted publish);
	 * anything else is refused before the work tree is touched. */
	{
		char *name = xasprintf("refs/tags/%s", tag);
		rc = git_reference_lookup(&existing, r->git, name);
		free(name);
	}
	if (rc == 0) {
		if (!git_oid_equal(git_reference_target(existing), &id)) {
			buf_printf(&msg, "tag '%s' already exists and points elsewhere", tag);
			goto done;
		}
	} else if (rc != GIT_ENOTFOUND) {
		goto git_error;
	}

	for (size_t i = 0; i < n; i++) {
		/* A directory is fsynced once, after the last of consecutive files renamed into it
		 * (a turn's reports), and before the index records any of them. */
		int last = i + 1 == n || !same_dir(files[i].path, files[i + 1].path);
		if (write_atomic(r, files[i].path, files[i].data, files[i].len, last, &msg) != 0)
			goto done;
		durable_point("work tree file");
	}
	/* Version 4 (git's since 1.8.0) writes each path as what it adds to the one before:
	 * a fifth fewer bytes for libgit2 to hash on every read and write of an index that holds
	 * every turn's files (issue 38: 6,951 entries at turn 992, 9 M instructions a publish). */
	if (git_repository_index(&index, r->git) < 0 ||
		repo_index_to_tree(r, index, commit, tree, files, n) < 0 ||
		git_index_set_version(index, 4) < 0 || git_index_write(index) < 0)
		goto git_error;
	repo_index_record(r, &id);
	durable_point("index");

	if (move_main(r, &id, commit_hex, &msg) < 0)
		goto done;

	if (!existing) {
		repo_refs_changed();
		if (git_object_lookup(&commit_obj, r->git, &id, GIT_OBJECT_COMMIT) < 0 ||
			git_tag_create_lightweight(&tag_id, r->git, tag, commit_obj, 0) < 0)
			goto git_error;
		durable_point("tag");
	}
	ret = 0;
	goto done;
git_error:
	buf_puts(&msg, repo_git_msg());
done:
	if (ret != 0 && strstr(buf_str(&msg), ".lock' for writing"))
		buf_puts(&msg,
			"(a git command run meanwhile holds that lock file: if none is running, remove the file)");
	if (ret != 0)
		/* a link in the work tree is refused as bad input (file.h), not an I/O error */
		error_set(strstr(buf_str(&msg), "' is a symbolic link: umpire never follows") ?
				  ERROR_INPUT :
				  ERROR_OS,
			"repo: cannot publish '%s': %s", tag, buf_str(&msg));
	git_object_free(commit_obj);
	git_index_free(index);
	git_tree_free(tree);
	git_commit_free(commit);
	git_reference_free(existing);
	buf_release(&msg);
	return ret;
}

/* r->rebuild and its in-memory backend, opened on first use. 0 / -1 (libgit2's message). */
static int rebuild_handle(struct repo *r)
{
	git_repository *mem = NULL;
	git_odb *odb = NULL;
	git_odb_backend *pack = NULL;
	int ret = -1;

	if (r->rebuild)
		return 0;
	if (git_repository_open(&mem, git_repository_path(r->git)) < 0 ||
		git_repository_odb(&odb, mem) < 0 || git_mempack_new(&pack) < 0)
		goto done;
	if (git_odb_add_backend(odb, pack, 1000) < 0) {
		pack->free(pack);
		goto done;
	}
	r->rebuild = mem;
	r->rebuild_pack = pack;
	mem = NULL;
	ret = 0;
done:
	git_odb_free(odb);
	git_repository_free(mem);
	return ret;
}

int repo_rebuild_id(struct repo *r, const char *parent_rev, const struct file *files, size_t n,
	const char *message, long long when, char commit_hex[41])
{
	struct buf msg = BUF_INIT;
	git_commit *parent = NULL;
	git_oid commit_id;
	int ret = -1, rc = -1;

	commit_hex[0] = '\0';
	if (paths_ok(files, n, &msg) < 0)
		goto done;
	/* A second handle on the same repository whose writes land in memory only: the
	 * rebuilt objects never touch the verifier's clone. */
	if (rebuild_handle(r) < 0)
		goto git_error;
	/* The parent and its trees read through r->git, whose cache holds them: issue 38 */
	if ((rc = repo_resolve_commit(&parent, r->git, parent_rev)) == ERROR_NOTFOUND) {
		buf_puts(&msg, "no such revision");
		goto done;
	}
	if (rc < 0 || (rc = make_commit(&commit_id, NULL, r->rebuild, r->git, parent, files, n,
			       message, when, 1, NULL)) < 0)
		goto git_error;
	git_oid_tostr(commit_hex, 41, &commit_id);
	ret = 0;
	goto done;
git_error:
	buf_puts(&msg, repo_git_msg());
done:
	if (ret != 0)
		error_set(repo_fail_class(rc), "repo: cannot rebuild the commit after '%s': %s",
			parent_rev, buf_str(&msg));
	git_commit_free(parent);
	if (r->rebuild_pack)
		(void)git_mempack_reset(r->rebuild_pack);
	buf_release(&msg);
	return ret;
}

static int list_loose(struct repo *r, struct oid_list *out)
{
	git_odb *odb = NULL;
	git_odb_backend *loose = NULL;
	char *objects = xasprintf("%sobjects", r->gitdir);
	int ret = -1;

	if (git_odb_new(&odb) < 0 || git_odb_backend_loose(&loose, objects, -1, 0, 0, 0) < 0)
		goto done;
	if (git_odb_add_backend(odb, loose, 1) < 0) {
		loose->free(loose);
		goto done;
	}
	ret = git_odb_foreach(odb, collect_oid, out) < 0 ? -1 : 0;
done:
	git_odb_free(odb);
	free(objects);
	return ret;
}

/* Removes the loose copy of each object in l (all now in a pack), then fsyncs the fan-out
 * directories touched. 0 ok, -1 with errno's reason set. */
static int remove_loose(struct repo *r, const struct oid_list *l)
{
	char hex[GIT_OID_HEXSZ + 1];
	char dirs[256] = { 0 };

	for (size_t i = 0; i < l->n; i++) {
		git_oid_tostr(hex, sizeof hex, &l->v[i]);
		char *path = xasprintf("%sobjects/%.2s/%s", r->gitdir, hex, hex + 2);
		int rc = unlink(path);
		free(path);
		if (rc < 0 && errno != ENOENT)
			return error_set(ERROR_OS, "repo: cannot remove a packed loose object: %s",
				strerror(errno));
		dirs[l->v[i].id[0]] = 1;
	}
	for (int d = 0; d < 256; d++) {
		if (!dirs[d])
			continue;
		char *dir = xasprintf("%sobjects/%02x", r->gitdir, d);
		rmdir(dir); /* empty fan-out directories go, as git's prune does */
		free(dir);
	}
	char *objects = xasprintf("%sobjects", r->gitdir);
	fsync_dir(objects);
	free(objects);
	return 0;
}

/* An object database reading the one pack whose index is idx, alone; NULL on failure. */
static git_odb *one_pack_odb(const char *idx)
{
	git_odb *odb = NULL;
	git_odb_backend *pack = NULL;

	if (git_odb_new(&odb) < 0 || git_odb_backend_one_pack(&pack, idx) < 0) {
		git_odb_free(odb);
		return NULL;
	}
	if (git_odb_add_backend(odb, pack, 1) < 0) {
		pack->free(pack);
		git_odb_free(odb);
		return NULL;
	}
	return odb;
}

/* Checks the pack just written (by its name) holds every object of l, reading that pack
 * alone. 0 yes, -1 no or unreadable. */
static int pack_holds(struct repo *r, const char *name, const struct oid_list *l)
{
	char *idx = xasprintf("%sobjects/pack/pack-%s.idx", r->gitdir, name ? name : "");
	git_odb *odb = one_pack_odb(idx);
	int ret = -1;

	if (!odb)
		goto done;
	for (size_t i = 0; i < l->n; i++)
		if (!git_odb_exists(odb, &l->v[i]))
			goto done;
	ret = 0;
done:
	if (ret < 0)
		error_set(ERROR_INTERNAL, "repo: the new pack %s lacks objects it was given", idx);
	git_odb_free(odb);
	free(idx);
	return ret;
}

/* The objects of the pack whose index is idx, appended to l; 0 / -1. */
static int pack_objects(const char *idx, struct oid_list *l)
{
	git_odb *odb = one_pack_odb(idx);
	int ret = odb && git_odb_foreach(odb, collect_oid, l) >= 0 ? 0 : -1;

	git_odb_free(odb);
	return ret;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The small packs (fewer than REPO_SMALL_PACK objects: each turn writes one) in name order:
 * their index paths in *idx (NULL-terminated; free with repo_names_free), their objects
 * appended to l. 0 / -1. */
static int list_small_packs(struct repo *r, struct oid_list *l, char ***idx)
{
	char *dir = xasprintf("%sobjects/pack", r->gitdir);
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0, cap = 8;
	int ret = 0;

	*idx = xcalloc(cap, sizeof(**idx));
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".idx") != 0)
			continue;
		if (n + 2 > cap)
			*idx = xrealloc(*idx, (cap *= 2) * sizeof(**idx));
		(*idx)[n++] = xasprintf("%s/%s", dir, e->d_name);
		(*idx)[n] = NULL;
	}
	if (d)
		closedir(d);
	free(dir);
	qsort(*idx, n, sizeof(**idx), str_cmp);
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		struct oid_list one = { 0 };
		if (pack_objects((*idx)[i], &one) < 0)
			ret = -1;
		if (ret == 0 && one.n < REPO_SMALL_PACK) {
			for (size_t k = 0; k < one.n; k++)
				collect_oid(&one.v[k], l);
			(*idx)[kept++] = (*idx)[i];
		} else {
			free((*idx)[i]);
		}
		free(one.v);
	}
	(*idx)[kept] = NULL;
	return ret;
}

/* Removes the packs whose indexes are idx (each index first: a pack without one is not
 * read) but the one named keep, then fsyncs the pack directory. */
static void remove_packs(struct repo *r, char **idx, const char *keep)
{
	for (size_t i = 0; idx[i]; i++) {
		size_t len = strlen(idx[i]);
		if (keep && strstr(idx[i], keep))
			continue;
		char *pack = xasprintf("%.*s.pack", (int)(len - 4), idx[i]);
		if (unlink(idx[i]) == 0)
			unlink(pack);
		free(pack);
	}
	char *dir = xasprintf("%sobjects/pack", r->gitdir);
	fsync_dir(dir);
	free(dir);
}

/* The loose refs (a tag a turn and a close) into packed-refs, as git pack-refs does: every
 * packbuilder write lists the tags (git_tag_foreach), and a turn's pack would otherwise
 * open a file per turn played. 0 / -1. */
static int compress_refs(struct repo *r)
{
	git_refdb *db = NULL;
	int rc = git_repository_refdb(&db, r->git) < 0 || git_refdb_compress(db) < 0 ? -1 : 0;
	git_refdb_free(db);
	return rc;
}

int repo_pack_loose(struct repo *r, size_t min_loose)
{
	struct oid_list loose = { 0 };
	git_packbuilder *pb = NULL;
	git_odb *odb = NULL;
	char **small = NULL;
	int ret = -1;

	if (list_loose(r, &loose) < 0)
		goto git_error;
	size_t n_loose = loose.n;
	if (list_small_packs(r, &loose, &small) < 0)
		goto git_error;
	/* nothing to gain: no loose object and at most one small pack */
	if (loose.n < min_loose || loose.n == 0 || (n_loose == 0 && (!small[0] || !small[1]))) {
		ret = 0;
		goto done;
	}
	if (git_packbuilder_new(&pb, r->git) < 0)
		goto git_error;
	git_packbuilder_set_threads(pb, 1); /* the same pack on every machine */
	for (size_t i = 0; i < loose.n; i++)
		if (git_packbuilder_insert(pb, &loose.v[i], NULL) < 0)
			goto git_error;
	/* The pack and its index are written (and fsynced: GIT_OPT_ENABLE_FSYNC_GITDIR) before
	 * any loose copy goes. */
	if (git_packbuilder_write(pb, NULL, 0, NULL, NULL) < 0)
		goto git_error;
	if (pack_holds(r, git_packbuilder_name(pb), &loose) < 0)
		goto done;
	if (remove_loose(r, &loose) < 0)
		goto done;
	remove_packs(r, small, git_packbuilder_name(pb));
	if (git_repository_odb(&odb, r->git) < 0 || git_odb_refresh(odb) < 0 ||
		compress_refs(r) < 0)
		goto done;
	ret = (int)loose.n;
	goto done;
git_error:
	error_set(ERROR_OS, "repo: cannot pack loose objects: %s", repo_git_msg());
done:
	git_odb_free(odb);
	git_packbuilder_free(pb);
	free(loose.v);
	repo_names_free(small);
	return ret;
}

int repo_set_ref(struct repo *r, const char *name, const char *commit_hex)
{
	git_reference *ref = NULL;
	git_oid id;

	repo_refs_changed();
	if (git_oid_fromstr(&id, commit_hex) < 0 ||
		git_reference_create(&ref, r->git, name, &id, 1, "umpire verify") < 0)
		return error_set(ERROR_OS, "repo: cannot set %s: %s", name, repo_git_msg());
	git_reference_free(ref);
	return 0;
}
