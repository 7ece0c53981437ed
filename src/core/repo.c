/* repo.c — the campaign's git repository through libgit2: one commit per turn on main, a
 * lightweight tag per turn, reads of any file at any turn, and the reset that undoes a turn
 * whose journal transaction never committed. The only file that includes <git2.h>; it never
 * runs the git program. */
#include "core/repo.h"
#include "core/durable.h"
#include "core/gittls.h"
#include "core/error.h"
#include "core/layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>
#include <openssl/evp.h>
#include <zlib.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>
#include "core/banned.h"

#define REPO_BRANCH "refs/heads/main"
#define REPO_SIGNATURE_NAME "umpire"
#define REPO_SIGNATURE_EMAIL "umpire@localhost"
#define REPO_TREE_CACHE_LIMIT (4 << 20) /* bytes: the largest tree libgit2 keeps cached */

struct repo {
	git_repository *git; /* the open repository */
	char *workdir;       /* its work tree, with a trailing '/' */
	char *gitdir;        /* its .git directory, with a trailing '/' */
	/* The commit repo_build last built in this process, on which parent and from which
	 * files (NULL: none): its tree is known to be the parent's with the files written over
	 * it, which publish need not check again. */
	git_oid built, built_parent;
	char *built_paths; /* paths_list of the files */
};

/* libgit2's message for the last failure on this thread, kept verbatim. */
static const char *git_msg(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

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
	done = 1;
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
	error_set(ERROR_OS, "repo: cannot create a repository in '%s': %s", dir, git_msg());
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
		error_set(ERROR_OS, "repo: cannot open '%s': %s", dir, git_msg());
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
		error_set(ERROR_OS, "repo: cannot open '%s': %s", dir, git_msg());
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

void repo_free(struct repo *r)
{
	if (!r)
		return;
	free(r->built_paths);
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
static int write_all(int fd, const void *data, size_t len)
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
	if (fchmod(fd, mode) != 0 || write_all(fd, data, len) != 0 || fsync(fd) != 0) {
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

/* What object_checked returns for an object over its type's limit or of the wrong type (a
 * crafted repository: class ERROR_INPUT), beside -1 for a libgit2 failure (ERROR_OS). Either
 * way git_msg() says what. */
#define REPO_CRAFTED (-2)

/* The largest object of a type read from a repository that may be a crafted clone. */
static size_t object_limit(git_object_t type, const char **text)
{
	switch (type) {
	case GIT_OBJECT_BLOB:
		*text = REPO_MAX_OBJECT_TEXT;
		return REPO_MAX_OBJECT_BYTES;
	case GIT_OBJECT_TREE:
		*text = REPO_MAX_TREE_TEXT;
		return REPO_MAX_TREE_BYTES;
	default: /* commits and annotated tags */
		*text = REPO_MAX_COMMIT_TEXT;
		return REPO_MAX_COMMIT_BYTES;
	}
}

/* Reads id's header (its type and size: nothing inflated past the first bytes) and refuses
 * an object over its type's limit, or not of type want (GIT_OBJECT_ANY: any), before anything
 * reads it whole: a 2 MB clone can hold a commit, tree or blob that inflates to gigabytes.
 * *type gets its type (may be NULL). Returns 0, GIT_ENOTFOUND when absent, REPO_CRAFTED or -1
 * with the reason as libgit2's last error (git_msg()). */
static int object_checked(git_repository *git, const git_oid *id, git_object_t want,
	git_object_t *type)
{
	git_odb *odb = NULL;
	git_object_t got = GIT_OBJECT_INVALID;
	size_t len = 0, max;
	const char *text, *kind;
	char hex[GIT_OID_HEXSZ + 1], *msg;
	int rc = git_repository_odb(&odb, git);

	if (rc == 0)
		rc = git_odb_read_header(&len, &got, odb, id);
	git_odb_free(odb);
	if (rc < 0)
		return rc == GIT_ENOTFOUND ? GIT_ENOTFOUND : -1;
	if (type)
		*type = got;
	max = object_limit(got, &text);
	kind = git_object_type2string(got);
	git_oid_tostr(hex, sizeof(hex), id);
	if (want != GIT_OBJECT_ANY && got != want)
		msg = xasprintf("object %s is a %s, a %s expected (a crafted repository?)", hex,
			kind, git_object_type2string(want));
	else if (len > max)
		msg = xasprintf(
			"the %s object %s is %zu bytes, over the limit of %s for a %s (a crafted repository?)",
			kind, hex, len, text, kind);
	else
		return 0;
	git_error_set_str(GIT_ERROR_INVALID, msg);
	free(msg);
	return REPO_CRAFTED;
}

/* The tree id names, header-checked first (object_checked) and holding at most
 * REPO_MAX_TREE_ENTRIES entries. Returns 0, or REPO_CRAFTED / -1 as object_checked (an absent
 * tree is -1: a commit or tree names it). */
static int tree_lookup_checked(git_tree **out, git_repository *git, const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1], *msg;
	int rc = object_checked(git, id, GIT_OBJECT_TREE, NULL);

	*out = NULL;
	if (rc == GIT_ENOTFOUND) {
		git_oid_tostr(hex, sizeof(hex), id);
		msg = xasprintf("tree %s is missing from the object store", hex);
		git_error_set_str(GIT_ERROR_ODB, msg);
		free(msg);
	}
	if (rc < 0)
		return rc == REPO_CRAFTED ? REPO_CRAFTED : -1;
	if (git_tree_lookup(out, git, id) < 0)
		return -1;
	if (git_tree_entrycount(*out) > REPO_MAX_TREE_ENTRIES) {
		git_oid_tostr(hex, sizeof(hex), id);
		msg = xasprintf(
			"tree %s has %zu entries, over the limit of %d (a crafted repository?)",
			hex, git_tree_entrycount(*out), REPO_MAX_TREE_ENTRIES);
		git_error_set_str(GIT_ERROR_INVALID, msg);
		free(msg);
		git_tree_free(*out);
		*out = NULL;
		return REPO_CRAFTED;
	}
	return 0;
}

/* The entry at path (relative, '/'-separated) below root, each tree on the way checked by
 * tree_lookup_checked before it is read: git_tree_entry_bypath would inflate them unchecked.
 * *out is the caller's (git_tree_entry_free). Returns 0, GIT_ENOTFOUND (no message),
 * REPO_CRAFTED or -1 (git_msg()). */
static int entry_bypath_checked(git_tree_entry **out, git_repository *git, const git_tree *root,
	const char *path)
{
	git_tree *sub = NULL;
	const git_tree *tree = root;
	const char *p = path;
	int rc = 0;

	*out = NULL;
	for (;;) {
		const char *slash = strchr(p, '/');
		char *name = slash ? xasprintf("%.*s", (int)(slash - p), p) : xstrdup(p);
		const git_tree_entry *e = git_tree_entry_byname(tree, name);
		free(name);
		if (!e || (slash && git_tree_entry_type(e) != GIT_OBJECT_TREE)) {
			rc = GIT_ENOTFOUND;
			break;
		}
		if (!slash || !slash[1]) {
			rc = git_tree_entry_dup(out, e) < 0 ? -1 : 0;
			break;
		}
		git_tree *next = NULL;
		rc = tree_lookup_checked(&next, git, git_tree_entry_id(e));
		git_tree_free(sub);
		sub = next;
		if (rc < 0)
			break;
		tree = sub;
		p = slash + 1;
	}
	git_tree_free(sub);
	return rc;
}

/* The commit's tree, checked (tree_lookup_checked). Returns as that does. */
static int commit_tree_checked(git_tree **out, git_repository *git, const git_commit *commit)
{
	return tree_lookup_checked(out, git, git_commit_tree_id(commit));
}

/* The object id rev names, read from refs alone (no object inflated): a full hex id, or a
 * reference name as git resolves it ("HEAD", "main", "turn-0003", "refs/heads/main").
 * Returns 0, GIT_ENOTFOUND, or -1 (git_msg()). */
static int rev_id(git_oid *out, git_repository *git, const char *rev)
{
	git_reference *ref = NULL, *direct = NULL;
	int rc;

	if (strlen(rev) == GIT_OID_HEXSZ && git_oid_fromstr(out, rev) == 0)
		return 0;
	rc = git_reference_dwim(&ref, git, rev);
	if (rc == 0)
		rc = git_reference_resolve(&direct, ref);
	if (rc == 0)
		git_oid_cpy(out, git_reference_target(direct));
	git_reference_free(direct);
	git_reference_free(ref);
	if (rc == GIT_ENOTFOUND || rc == GIT_EUNBORNBRANCH || rc == GIT_EINVALIDSPEC)
		return GIT_ENOTFOUND;
	return rc < 0 ? -1 : 0;
}

/* The commit id names, through annotated tags, each object header-checked before it is
 * read (object_checked). 0 found, ERROR_NOTFOUND no such object (no message), REPO_CRAFTED
 * or -1 (git_msg()). */
static int peel_commit_checked(git_commit **out, git_repository *git, const git_oid *id)
{
	git_object_t type;
	git_oid at = *id;
	int rc = 0;

	*out = NULL;
	for (int depth = 0; rc == 0; depth++) {
		rc = object_checked(git, &at, GIT_OBJECT_ANY, &type);
		if (rc == 0 && type == GIT_OBJECT_COMMIT)
			return git_commit_lookup(out, git, &at) < 0 ? -1 : 0;
		if (rc == 0 && type == GIT_OBJECT_TAG && depth < 8) {
			git_tag *tag = NULL;
			if (git_tag_lookup(&tag, git, &at) < 0)
				return -1;
			git_oid_cpy(&at, git_tag_target_id(tag));
			git_tag_free(tag);
		} else if (rc == 0) {
			git_error_set_str(GIT_ERROR_INVALID, "the revision names no commit");
			return -1;
		}
	}
	return rc == GIT_ENOTFOUND ? ERROR_NOTFOUND : rc;
}

/* The commit rev names: a full id or a reference name (rev_id), optionally followed by ^N,
 * its Nth parent (^0 the commit itself), as git reads them; nothing of git's revision syntax
 * beyond, so that every object on the way is header-checked. 0 found, ERROR_NOTFOUND no such
 * revision (no message), REPO_CRAFTED or -1 (git_msg()). */
static int resolve_commit(git_commit **out, git_repository *git, const char *rev)
{
	const char *caret = strrchr(rev, '^');
	size_t digits = caret ? strspn(caret + 1, "0123456789") : 0;
	git_oid id;
	int rc;

	*out = NULL;
	if (caret && digits > 0 && digits < 3 && caret[1 + digits] == '\0') {
		unsigned nth = (unsigned)(caret[1] - '0');
		git_commit *c = NULL;
		char *base = xasprintf("%.*s", (int)(caret - rev), rev);

		if (digits == 2)
			nth = nth * 10 + (unsigned)(caret[2] - '0');
		rc = resolve_commit(&c, git, base);
		free(base);
		if (rc != 0 || nth == 0) {
			*out = c;
			return rc;
		}
		rc = nth > git_commit_parentcount(c) ? ERROR_NOTFOUND : 0;
		if (rc == 0)
			git_oid_cpy(&id, git_commit_parent_id(c, nth - 1));
		git_commit_free(c);
		return rc == 0 ? peel_commit_checked(out, git, &id) : rc;
	}
	rc = rev_id(&id, git, rev);
	if (rc < 0)
		return rc == GIT_ENOTFOUND ? ERROR_NOTFOUND : rc;
	return peel_commit_checked(out, git, &id);
}

/* The error class of a failure rc from the checked readers: a crafted object is bad input. */
static enum error_class fail_class(int rc)
{
	return rc == REPO_CRAFTED ? ERROR_INPUT : ERROR_OS;
}

/* Refuses to commit unless HEAD is the symbolic ref to main: a checkout of something else
 * would make the work tree and the branch we advance disagree. */
static int head_is_main(git_repository *git, struct buf *msg)
{
	git_reference *head = NULL;
	int ok;

	if (git_reference_lookup(&head, git, "HEAD") < 0) {
		buf_puts(msg, git_msg());
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

static int build_tree(git_oid *out, git_repository *git, const git_tree *base,
	const struct tree_file *files, size_t n, int reuse);
static int object_id(git_oid *out, git_object_t type, const void *bytes, size_t len);

/* A tree entry while a tree is spliced: its mode (git's canonical octal text), name and id,
 * pointing into the tree's bytes or the files being written. */
struct raw_entry {
	const char *mode, *name;
	size_t mode_len, name_len;
	const unsigned char *id; /* GIT_OID_RAWSZ bytes */
	int is_tree;
};

/* Whether mode (len bytes) is one git writes, and which kind. */
static int canonical_mode(const char *mode, size_t len, int *is_tree)
{
	static const char *const modes[] = { "100644", "100755", "120000", "40000", "160000" };

	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		if (strlen(modes[i]) == len && memcmp(modes[i], mode, len) == 0) {
			*is_tree = i == 3;
			return 1;
		}
	}
	return 0;
}

/* git's order of a tree's entries: names bytewise, a tree's as if it ended in '/'. */
static int raw_entry_cmp(const struct raw_entry *a, const struct raw_entry *b)
{
	size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c = memcmp(a->name, b->name, n);
	if (c)
		return c;
	unsigned ca = n < a->name_len ? (unsigned char)a->name[n] : (a->is_tree ? '/' : 0);
	unsigned cb = n < b->name_len ? (unsigned char)b->name[n] : (b->is_tree ? '/' : 0);
	return (ca > cb) - (ca < cb);
}

static int raw_entry_qsort(const void *a, const void *b)
{
	return raw_entry_cmp(a, b);
}

static int raw_name_qsort(const void *a, const void *b)
{
	const struct raw_entry *x = a, *y = b;
	size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
	int c = memcmp(x->name, y->name, n);
	return c ? c : (x->name_len > y->name_len) - (x->name_len < y->name_len);
}

/* The entries of tree bytes data (len), into *out (the caller frees it), when every one is as
 * git writes it (a canonical mode, a name, in git's order, at most REPO_MAX_TREE_ENTRIES):
 * then libgit2's tree builder would write them back byte for byte. 0 ok, -1 not. */
static int raw_entries(const unsigned char *data, size_t len, struct raw_entry **out, size_t *n)
{
	size_t count = 0, cap = 0, off = 0;
	struct raw_entry *v = NULL;

	while (off < len) {
		const unsigned char *sp = memchr(data + off, ' ', len - off);
		const unsigned char *nul = sp ? memchr(sp + 1, 0, len - (size_t)(sp + 1 - data)) :
						NULL;
		struct raw_entry e = { 0 };
		if (!nul || (size_t)(nul + 1 - data) + GIT_OID_RAWSZ > len || nul == sp + 1 ||
			count == REPO_MAX_TREE_ENTRIES)
			goto bad;
		e.mode = (const char *)data + off;
		e.mode_len = (size_t)(sp - (data + off));
		e.name = (const char *)sp + 1;
		e.name_len = (size_t)(nul - (sp + 1));
		e.id = nul + 1;
		if (!canonical_mode(e.mode, e.mode_len, &e.is_tree) ||
			(count > 0 && raw_entry_cmp(&v[count - 1], &e) >= 0))
			goto bad;
		if (count == cap) {
			cap = cap ? 2 * cap : 64;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[count++] = e;
		off = (size_t)(nul + 1 - data) + GIT_OID_RAWSZ;
	}
	*out = v;
	*n = count;
	return 0;
bad:
	free(v);
	return -1;
}

/* The entry of old (n_old, in git's order) named name (len bytes), of either kind, or NULL. */
static const struct raw_entry *raw_find(const struct raw_entry *old, size_t n_old, const char *name,
	size_t len)
{
	for (int t = 0; t < 2; t++) {
		struct raw_entry key = { .name = name, .name_len = len, .is_tree = t };
		size_t lo = 0, hi = n_old;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = raw_entry_cmp(&old[mid], &key);
			if (c == 0 && old[mid].is_tree == t)
				return &old[mid];
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	return NULL;
}

/* The entries of tree id in odb, read as git's bytes (raw_entries) into *v (n of them),
 * pointing into *obj; the caller frees both, also on failure. 0 ok, -1 unread (libgit2's
 * error), 1 not as git writes it. */
static int raw_tree_read(git_odb_object **obj, struct raw_entry **v, size_t *n, git_odb *odb,
	const git_oid *id)
{
	*obj = NULL;
	*v = NULL;
	*n = 0;
	if (git_odb_read(obj, odb, id) < 0)
		return -1;
	return raw_entries(git_odb_object_data(*obj), git_odb_object_size(*obj), v, n) < 0 ? 1 : 0;
}

/* The new entries of a spliced tree for files (sorted by path, below it): a blob per file
 * directly in it (the last of equal paths), a tree per subdirectory, spliced from old's entry
 * of that name (splice_tree). ids holds the subtrees' ids. 0 ok, 1 not spliced. */
static int splice_tree(git_oid *out, git_repository *git, const git_oid *base,
	const struct tree_file *files, size_t n, int reuse);

static int spliced_entries(struct raw_entry *add, size_t *n_add, git_oid *ids, git_repository *git,
	const struct raw_entry *old, size_t n_old, const struct tree_file *files, size_t n,
	int reuse)
{
	size_t i = 0, k = 0;

	while (i < n) {
		const char *path = files[i].path, *slash = strchr(path, '/');
		size_t j = i + 1;
		if (!slash) {
			while (j < n && strcmp(files[j].path, path) == 0)
				j++;
			add[k++] = (struct raw_entry){ "100644", path, 6, strlen(path),
				files[j - 1].blob.id, 0 };
			i = j;
			continue;
		}
		size_t len = (size_t)(slash - path);
		while (j < n && strncmp(files[j].path, path, len + 1) == 0)
			j++;
		struct tree_file *below = xcalloc(j - i, sizeof(*below));
		for (size_t b = 0; b < j - i; b++) {
			below[b] = files[i + b];
			below[b].path = files[i + b].path + len + 1;
		}
		const struct raw_entry *e = raw_find(old, n_old, path, len);
		git_oid base;
		if (e && e->is_tree)
			git_oid_fromraw(&base, e->id);
		int rc = splice_tree(&ids[k], git, e && e->is_tree ? &base : NULL, below, j - i,
			reuse);
		free(below);
		if (rc != 0)
			return 1;
		add[k] = (struct raw_entry){ "40000", path, 5, len, ids[k].id, 1 };
		k++;
		i = j;
	}
	/* a file and a directory of one name: the tree builder's order of replacing decides */
	struct raw_entry *names = xcalloc(k ? k : 1, sizeof(*names));
	memcpy(names, add, k * sizeof(*names));
	qsort(names, k, sizeof(*names), raw_name_qsort);
	int dup = 0;
	for (size_t a = 1; a < k && !dup; a++)
		dup = raw_name_qsort(&names[a - 1], &names[a]) == 0;
	free(names);
	*n_add = k;
	return dup;
}

/* Writes into buf the entries of old not named as one of add, and add, in git's order. */
static void spliced_bytes(struct buf *raw, const struct raw_entry *old, size_t n_old,
	struct raw_entry *add, size_t n_add)
{
	char *gone = xcalloc(n_old ? n_old : 1, 1);
	size_t a = 0;

	for (size_t k = 0; k < n_add; k++) {
		const struct raw_entry *e = raw_find(old, n_old, add[k].name, add[k].name_len);
		if (e)
			gone[e - old] = 1;
	}
	qsort(add, n_add, sizeof(*add), raw_entry_qsort);
	for (size_t o = 0; o <= n_old; o++) {
		while (a < n_add && (o == n_old || raw_entry_cmp(&add[a], &old[o]) < 0)) {
			buf_append(raw, add[a].mode, add[a].mode_len);
			buf_append(raw, " ", 1);
			buf_append(raw, add[a].name, add[a].name_len);
			buf_append(raw, "", 1);
			buf_append(raw, add[a].id, GIT_OID_RAWSZ);
			a++;
		}
		if (o < n_old && !gone[o])
			buf_append(raw, old[o].mode,
				(size_t)(old[o].id + GIT_OID_RAWSZ -
					 (const unsigned char *)old[o].mode));
	}
	free(gone);
}

/* Writes the tree that is base (NULL: none) with files (sorted by path, below it) written
 * over it, as the tree builder would write it (build_tree), by splicing git's tree bytes: the
 * directory's entries are neither parsed into objects nor hashed into a map, which at turn
 * 1,000 (journal/, orders/, reports/: an entry a turn each) was a tenth of a turn. With reuse
 * (verify's rebuild on a clone), a tree the store holds already is not written. 0 ok, 1
 * not spliced (a tree not as git writes it, a file and a directory of one name, anything
 * unusual: the tree builder then, which says what is wrong), -1 (git_msg()). */
static int splice_tree(git_oid *out, git_repository *git, const git_oid *base,
	const struct tree_file *files, size_t n, int reuse)
{
	git_odb *odb = NULL;
	git_odb_object *obj = NULL;
	struct raw_entry *old = NULL, *add = xcalloc(n ? n : 1, sizeof(*add));
	git_oid *ids = xcalloc(n ? n : 1, sizeof(*ids));
	struct buf raw = BUF_INIT;
	size_t n_old = 0, n_add = 0;
	int rc = 1;

	if (git_repository_odb(&odb, git) < 0)
		goto done;
	if (base && (object_checked(git, base, GIT_OBJECT_TREE, NULL) != 0 ||
			    raw_tree_read(&obj, &old, &n_old, odb, base) != 0))
		goto done;
	if (spliced_entries(add, &n_add, ids, git, old, n_old, files, n, reuse) != 0)
		goto done;
	spliced_bytes(&raw, old, n_old, add, n_add);
	/* verify's rebuild on a clone (reuse): a tree already there is not hashed again by
	 * libgit2 (collision-detecting SHA-1, a sixth of verify at turn 1,000) nor written */
	const void *bytes = raw.data ? raw.data : "";
	if (reuse && object_id(out, GIT_OBJECT_TREE, bytes, raw.len) == 0 &&
		git_odb_exists(odb, out))
		rc = 0;
	else
		rc = git_odb_write(out, odb, bytes, raw.len, GIT_OBJECT_TREE) < 0 ? -1 : 0;
done:
	buf_release(&raw);
	free(ids);
	free(add);
	free(old);
	git_odb_object_free(obj);
	git_odb_free(odb);
	return rc;
}

/* Inserts into bld the subdirectory name (name_len bytes of files[0].path) built from base's
 * entry of that name (a tree; anything else is replaced) plus files, whose paths all start
 * with "name/". 0 ok, REPO_CRAFTED or -1 (git_msg()). */
static int insert_subtree(git_treebuilder *bld, git_repository *git, const git_tree *base,
	const struct tree_file *files, size_t n, size_t name_len, int reuse)
{
	char *name = xasprintf("%.*s", (int)name_len, files[0].path);
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
	ret = splice_tree(&id, git, is_tree ? git_tree_entry_id(e) : NULL, below, n, reuse);
	if (ret == 1) {
		ret = is_tree ? tree_lookup_checked(&sub, git, git_tree_entry_id(e)) : 0;
		if (ret == 0)
			ret = build_tree(&id, git, sub, below, n, reuse);
	}
	if (ret == 0 && git_treebuilder_insert(NULL, bld, name, &id, GIT_FILEMODE_TREE) < 0)
		ret = -1;

	git_tree_free(sub);
	free(below);
	free(name);
	return ret;
}

/* Writes the tree that is base (NULL: empty) with files (sorted by path) added or replaced,
 * rewriting only the subtrees that hold one of them: a turn's commit costs the directories it
 * touches, not the whole history's tree. The ids equal those of an index built from base
 * plus the files (git's tree format is canonical). With reuse, a tree the store holds already
 * is not written (splice_tree). 0 ok, REPO_CRAFTED or -1 (git_msg()). */
static int build_tree(git_oid *out, git_repository *git, const git_tree *base,
	const struct tree_file *files, size_t n, int reuse)
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
		if ((ret = insert_subtree(bld, git, base, files + i, j - i, len, reuse)) < 0)
			goto done;
		i = j;
	}
	ret = git_treebuilder_write(out, bld) < 0 ? -1 : 0;
done:
	git_treebuilder_free(bld);
	return ret;
}

/* Writes (into git's object database, whichever backend it writes to) the blobs of these
 * files, exactly their bytes (no content filters), the trees of parent's tree (none: empty)
 * with the files added or replaced, touching only the directories that hold them, and the
 * commit object on top, with no ref moved. 0 ok, REPO_CRAFTED or -1 (git_msg()). */
/* The id of an object of type with these bytes, as git_odb_hash gives it: SHA-1 of
 * "TYPE LEN\0" and the bytes, by
 * OpenSSL (SHA-NI where the CPU has it: 3-4 times libgit2's collision-detecting SHA-1, which
 * replay and verify spent a sixth of their time in; for bytes umpire rendered itself a
 * collision is no concern, since matching a committed id needs a second preimage). 0 / -1. */
static int object_id(git_oid *out, git_object_t type, const void *bytes, size_t len)
{
	char head[32];
	unsigned int n = 0;
	int hn = snprintf(head, sizeof(head), "%s %zu", git_object_type2string(type), len);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok = ctx && hn > 0 && EVP_DigestInit_ex(ctx, EVP_sha1(), NULL) == 1 &&
		 EVP_DigestUpdate(ctx, head, (size_t)hn + 1) == 1 &&
		 EVP_DigestUpdate(ctx, bytes, len) == 1 &&
		 EVP_DigestFinal_ex(ctx, out->id, &n) == 1 && n == GIT_OID_RAWSZ;
	EVP_MD_CTX_free(ctx);
	return ok ? 0 : git_odb_hash(out, bytes, len, type);
}

/* The blob id of bytes (object_id). 0 / -1. */
static int blob_id(git_oid *out, const void *bytes, size_t len)
{
	return object_id(out, GIT_OBJECT_BLOB, bytes, len);
}

/* The id of files[i] as a blob of git: when reuse and the repository already holds a blob
 * of that id (verify's rebuild on a clone: every file is committed there), nothing is
 * written; else it is written (libgit2 hashes it again, with collision detection). */
static int blob_of(git_oid *out, git_repository *git, git_odb *odb, const struct file *f, int reuse)
{
	if (reuse && odb && blob_id(out, f->data, f->len) == 0 && git_odb_exists(odb, out))
		return 0;
	return git_blob_create_from_buffer(out, git, f->data, f->len);
}

/* The commit of files (blobs: their blob ids when known, each in the store; NULL: blob_of)
 * on parent, with message, at when (seconds since the epoch). 0, REPO_CRAFTED or -1
 * (git_msg()). */
static int make_commit(git_oid *out, git_repository *git, git_commit *parent,
	const struct file *files, const git_oid *blobs, size_t n, const char *message,
	long long when, int reuse)
{
	git_tree *parent_tree = NULL, *tree = NULL;
	git_signature *sig = NULL;
	git_odb *odb = NULL;
	struct buf text = BUF_INIT;
	struct tree_file *sorted = xcalloc(n ? n : 1, sizeof(*sorted));
	git_oid tree_id;
	int ret = -1;

	if (reuse && git_repository_odb(&odb, git) < 0)
		goto done;
	for (size_t i = 0; i < n; i++) {
		sorted[i].path = files[i].path;
		sorted[i].order = i;
		if (blobs)
			sorted[i].blob = blobs[i];
		else if (blob_of(&sorted[i].blob, git, odb, &files[i], reuse) < 0)
			goto done;
	}
	qsort(sorted, n, sizeof(*sorted), tree_file_cmp);
	/* The parent's trees may come from a crafted clone (verify rebuilds on one). */
	if (parent && (ret = commit_tree_checked(&parent_tree, git, parent)) < 0)
		goto done;
	if ((ret = build_tree(&tree_id, git, parent_tree, sorted, n, reuse)) < 0)
		goto done;
	ret = -1;
	if (git_tree_lookup(&tree, git, &tree_id) < 0 ||
		git_signature_new(&sig, REPO_SIGNATURE_NAME, REPO_SIGNATURE_EMAIL, (git_time_t)when,
			0) < 0)
		goto done;
	buf_puts(&text, message);
	if (text.len == 0 || text.data[text.len - 1] != '\n')
		buf_puts(&text, "\n");
	const git_commit *parents[1] = { parent };
	if (git_commit_create(out, git, NULL, sig, sig, NULL, buf_str(&text), tree, parent ? 1 : 0,
		    parents) < 0)
		goto done;
	ret = 0;
done:
	git_signature_free(sig);
	git_tree_free(tree);
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

/* Appends to l the tree tree_id, when the mempack holds it (this commit wrote it), and below
 * it every tree and blob the mempack holds: a tree it lacks was committed before, and so is
 * everything below it. Only the directories the commit changed are walked. 0 / -1. */
static int list_written(struct oid_list *l, git_repository *mem, git_odb_backend *written,
	const git_oid *tree_id);

/* list_written's walk of tree tree_id, which the mempack holds, parsed by libgit2. */
static int list_written_parsed(struct oid_list *l, git_repository *mem, git_odb_backend *written,
	const git_oid *tree_id)
{
	git_tree *tree = NULL;
	int rc = 0;

	if (git_tree_lookup(&tree, mem, tree_id) < 0)
		return -1;
	collect_oid(tree_id, l);
	for (size_t i = 0; rc == 0 && i < git_tree_entrycount(tree); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const git_oid *id = git_tree_entry_id(e);
		if (git_tree_entry_type(e) == GIT_OBJECT_TREE)
			rc = list_written(l, mem, written, id);
		else if (written->exists(written, id))
			collect_oid(id, l);
	}
	git_tree_free(tree);
	return rc;
}

/* As list_written_parsed, reading each tree's bytes (raw_entries) rather than parsing it into
 * libgit2's objects, which mem's cache would keep (at turn 1,000, 600 KB of a turn's peak
 * heap); a tree not as git writes it is walked by list_written_parsed. */
static int list_written(struct oid_list *l, git_repository *mem, git_odb_backend *written,
	const git_oid *tree_id)
{
	git_odb *odb = NULL;
	git_odb_object *obj = NULL;
	struct raw_entry *v = NULL;
	size_t n = 0;
	int rc = -1;

	if (!written->exists(written, tree_id))
		return 0;
	if (git_repository_odb(&odb, mem) < 0 ||
		(rc = raw_tree_read(&obj, &v, &n, odb, tree_id)) < 0)
		goto done;
	if (rc > 0) {
		rc = list_written_parsed(l, mem, written, tree_id);
		goto done;
	}
	collect_oid(tree_id, l);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		git_oid id;
		git_oid_fromraw(&id, v[i].id);
		if (v[i].is_tree)
			rc = list_written(l, mem, written, &id);
		else if (written->exists(written, &id))
			collect_oid(&id, l);
	}
done:
	free(v);
	git_odb_object_free(obj);
	git_odb_free(odb);
	return rc;
}

/* Big-endian 32-bit integers, as git's pack, pack index and index files store them. */
static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* Pack entries of a turn: zlib's fastest level. A turn's objects are text that the next
 * repo_pack_loose (every TURN_PACK_EVERY turns) deltifies and recompresses with libgit2's
 * packbuilder anyway, so the few per cent level 6 saves would live only until then, at three
 * to four times the CPU. */
#define PACK_ZLIB_LEVEL Z_BEST_SPEED
#define PACK_DELTA_MIN 4096 /* bytes: a smaller blob is stored whole */
#define PACK_DELTA_TRIES 4  /* earlier whole blobs tried as a blob's delta base */

/* One object of a turn's pack. */
struct pack_obj {
	git_oid id;        /* its id */
	git_object_t type; /* commit, tree or blob */
	const void *data;  /* its bytes: a file's, or read from the mempack (when read) */
	int read;          /* data was read from the mempack (git_odb_backend_data_free) */
	size_t len;        /* their length */
	size_t base;       /* the object it is a delta against (earlier in the pack), or itself */
	struct buf delta;  /* that delta (git's format), when base is another object */
	size_t offset;     /* where its entry starts in the pack */
	uint32_t crc;      /* CRC-32 of its entry, which the pack's index records */
};

/* A size in a delta's header: 7 bits a byte, least significant first. */
static void delta_size(struct buf *d, size_t v)
{
	do {
		unsigned char c = (unsigned char)(v & 0x7f);
		v >>= 7;
		c |= v ? 0x80 : 0;
		buf_append(d, &c, 1);
	} while (v);
}

/* Delta instructions copying len bytes at off in the base (0x10000 at most each: the size
 * git's own delta writer keeps to). */
static void delta_copy(struct buf *d, size_t off, size_t len)
{
	while (len > 0) {
		size_t n = len < 0x10000 ? len : 0x10000, sz = n == 0x10000 ? 0 : n;
		unsigned char op[8] = { 0x80 };
		size_t k = 1;
		for (unsigned i = 0; i < 4; i++)
			if ((off >> (8 * i)) & 0xff) {
				op[0] |= (unsigned char)(1u << i);
				op[k++] = (unsigned char)(off >> (8 * i));
			}
		for (unsigned i = 0; i < 3; i++)
			if ((sz >> (8 * i)) & 0xff) {
				op[0] |= (unsigned char)(0x10u << i);
				op[k++] = (unsigned char)(sz >> (8 * i));
			}
		buf_append(d, op, k);
		off += n;
		len -= n;
	}
}

/* Delta instructions inserting len bytes at p (127 at most each). */
static void delta_insert(struct buf *d, const char *p, size_t len)
{
	while (len > 0) {
		unsigned char n = (unsigned char)(len < 127 ? len : 127);
		buf_append(d, &n, 1);
		buf_append(d, p, n);
		p += n;
		len -= n;
	}
}

/* The length of the line at p (its '\n' included; the rest when there is none). */
static size_t line_len(const char *p, size_t left)
{
	const char *nl = memchr(p, '\n', left);
	return nl ? (size_t)(nl - p) + 1 : left;
}

/* A delta (git's pack format) that makes target from base, line by line in step: each line
 * equal to the base's line at the same place is copied, any other inserted. Files a turn
 * renders per player (a report each) differ in a few lines at the same places. 0 with the
 * delta in *d, or -1 (d emptied) when it would exceed limit bytes. */
static int line_delta(struct buf *d, const char *base, size_t blen, const char *target, size_t tlen,
	size_t limit)
{
	size_t bp = 0, tp = 0, cs = 0, cl = 0;

	delta_size(d, blen);
	delta_size(d, tlen);
	while (tp < tlen && d->len <= limit) {
		size_t tl = line_len(target + tp, tlen - tp);
		size_t bl = bp < blen ? line_len(base + bp, blen - bp) : 0;
		if (bl == tl && memcmp(base + bp, target + tp, tl) == 0) {
			if (cl && cs + cl == bp) {
				cl += tl;
			} else {
				delta_copy(d, cs, cl);
				cs = bp;
				cl = tl;
			}
		} else {
			delta_copy(d, cs, cl);
			cl = 0;
			delta_insert(d, target + tp, tl);
		}
		bp += bl;
		tp += tl;
	}
	delta_copy(d, cs, cl);
	if (d->len <= limit)
		return 0;
	buf_clear(d);
	return -1;
}

/* Picks objs[i]'s delta base among the last whole blobs before it of about its size, when a
 * delta against one is under a quarter of its size; else it stays whole (base i). */
static void pick_base(struct pack_obj *objs, size_t i)
{
	struct pack_obj *o = &objs[i];
	int tries = 0;

	o->base = i;
	if (o->type != GIT_OBJECT_BLOB || o->len < PACK_DELTA_MIN)
		return;
	for (size_t j = i; j-- > 0 && tries < PACK_DELTA_TRIES;) {
		const struct pack_obj *b = &objs[j];
		if (b->type != GIT_OBJECT_BLOB || b->base != j || b->len < PACK_DELTA_MIN ||
			b->len > UINT32_MAX || b->len / 8 * 7 > o->len || o->len / 8 * 7 > b->len)
			continue;
		tries++;
		if (line_delta(&o->delta, b->data, b->len, o->data, o->len, o->len / 4) == 0) {
			o->base = j;
			return;
		}
	}
}

/* Appends objs[i]'s entry to a pack stream (git's pack format, version 2): the type and size
 * header, for a delta the distance back to its base's entry, then the zlib-deflated bytes
 * (the object's, or its delta's); records its offset and CRC-32. 0 / -1. */
static int pack_entry(struct buf *pack, struct pack_obj *objs, size_t i)
{
	struct pack_obj *o = &objs[i];
	int delta = o->base != i;
	const void *data = delta ? (const void *)o->delta.data : o->data;
	size_t len = delta ? o->delta.len : o->len, left = len >> 4, n = 0;
	unsigned type = delta ? 6u /* OFS_DELTA */ : (unsigned)o->type;
	unsigned char head[32];

	o->offset = pack->len;
	head[n++] = (unsigned char)((type << 4) | (len & 0x0f) | (left ? 0x80 : 0));
	for (; left; left >>= 7)
		head[n++] = (unsigned char)((left & 0x7f) | (left >> 7 ? 0x80 : 0));
	if (delta) { /* git's offset encoding: big-endian 7-bit groups, each but the last +1 */
		unsigned char ofs[16];
		size_t back = o->offset - objs[o->base].offset, k = sizeof(ofs) - 1;
		ofs[k] = (unsigned char)(back & 0x7f);
		while (back >>= 7)
			ofs[--k] = (unsigned char)(0x80 | (--back & 0x7f));
		memcpy(head + n, ofs + k, sizeof(ofs) - k);
		n += sizeof(ofs) - k;
	}
	buf_append(pack, head, n);
	uLongf room = compressBound((uLong)len);
	buf_reserve(pack, room);
	int rc = compress2((Bytef *)pack->data + pack->len, &room, data, (uLong)len,
			 PACK_ZLIB_LEVEL) == Z_OK ?
			 0 :
			 -1;
	if (rc == 0) {
		pack->len += room;
		pack->data[pack->len] = '\0';
		o->crc = (uint32_t)crc32(0, (const Bytef *)pack->data + o->offset,
			(uInt)(pack->len - o->offset));
	}
	return rc;
}

/* Appends the SHA-1 of b's bytes to b, as git ends a pack and a pack index, and gives it in
 * sum. 0 / -1. */
static int sha1_trail(struct buf *b, unsigned char sum[20])
{
	unsigned int sn = 0;

	if (EVP_Digest(b->data, b->len, sum, &sn, EVP_sha1(), NULL) != 1 || sn != 20)
		return -1;
	buf_append(b, sum, 20);
	return 0;
}

/* The pack of objs (in that order: a delta's base comes before it), with its header and its
 * SHA-1 trailer (also in sum), in *pack. 0 / -1. */
static int pack_stream(struct buf *pack, struct pack_obj *objs, size_t n, unsigned char sum[20])
{
	unsigned char head[12] = { 'P', 'A', 'C', 'K', 0, 0, 0, 2 };

	put_be32(head + 8, (uint32_t)n);
	buf_append(pack, head, sizeof(head));
	for (size_t i = 0; i < n; i++)
		if (pack_entry(pack, objs, i) < 0)
			return -1;
	return sha1_trail(pack, sum);
}

static void idx_put_be32(struct buf *b, uint32_t v)
{
	unsigned char c[4];

	put_be32(c, v);
	buf_append(b, c, 4);
}

static int obj_id_cmp(size_t a, size_t b, const void *ctx)
{
	const struct pack_obj *objs = ctx;
	return git_oid_cmp(&objs[a].id, &objs[b].id);
}

/* The pack's index (git's .idx, version 2) in *idx: the fan-out table, the ids sorted, their
 * CRC-32s and offsets in that order (offsets past 2 GiB in the 8-byte table), the pack's
 * checksum and the index's own. What libgit2's indexer would write for the same pack, without
 * inflating and hashing every object again: the ids and offsets are the ones the pack was
 * written from. 0 / -1. */
static int pack_index(struct buf *idx, const struct pack_obj *objs, size_t n,
	const unsigned char packsum[20])
{
	static const unsigned char head[8] = { 0xff, 't', 'O', 'c', 0, 0, 0, 2 };
	size_t *order = xcalloc(n ? n : 1, sizeof(*order)), *tmp = xcalloc(n ? n : 1, sizeof(*tmp));
	unsigned char sum[20];
	uint32_t large = 0;

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	index_sort(order, tmp, n, obj_id_cmp, objs);
	buf_append(idx, head, sizeof(head));
	for (unsigned first = 0, k = 0; first < 256; first++) {
		while (k < n && objs[order[k]].id.id[0] <= first)
			k++;
		idx_put_be32(idx, (uint32_t)k);
	}
	for (size_t k = 0; k < n; k++)
		buf_append(idx, objs[order[k]].id.id, GIT_OID_RAWSZ);
	for (size_t k = 0; k < n; k++)
		idx_put_be32(idx, objs[order[k]].crc);
	for (size_t k = 0; k < n; k++) {
		uint64_t off = objs[order[k]].offset;
		idx_put_be32(idx, off < 0x80000000u ? (uint32_t)off : 0x80000000u | large++);
	}
	for (size_t k = 0; k < n; k++) {
		uint64_t off = objs[order[k]].offset;
		if (off >= 0x80000000u) {
			idx_put_be32(idx, (uint32_t)(off >> 32));
			idx_put_be32(idx, (uint32_t)off);
		}
	}
	buf_append(idx, packsum, 20);
	free(order);
	free(tmp);
	return sha1_trail(idx, sum);
}

/* Writes dir/name durably, read-only as libgit2's indexer leaves packs (0444): a temporary
 * file in dir (tmp_pack_*, which git and libgit2 ignore), fsync, rename over, fsync dir.
 * 0, or -1 with libgit2's error set. */
static int pack_file_write(const char *dir, const char *name, const struct buf *b)
{
	char *tmp = xasprintf("%s/tmp_pack_XXXXXX", dir), *path = xasprintf("%s/%s", dir, name);
	int ret = write_renamed(tmp, path, b->data, b->len, 0444, dir) == 0 ? 0 : -1;

	if (ret != 0)
		git_error_set(GIT_ERROR_OS, "cannot write '%s': %s", path, strerror(errno));
	free(tmp);
	free(path);
	return ret;
}

/* Writes pack and its index durably into objects/pack/ as git names them (pack-SUM.pack,
 * then pack-SUM.idx: a reader finds a pack by its index, so the pack is whole and its name
 * synced before its index appears). A crash between the two leaves a pack nobody reads,
 * which the rerun writes again (the same bytes, the same name). 0 / -1 (libgit2's error). */
static int pack_write(struct repo *r, const struct buf *pack, const struct buf *idx,
	const unsigned char packsum[20])
{
	char hex[41];
	char *dir = xasprintf("%sobjects/pack", r->gitdir), *name = NULL;
	int rc = -1;

	hex_encode(hex, packsum, 20);
	name = xasprintf("pack-%s.pack", hex);
	if (pack_file_write(dir, name, pack) < 0)
		goto done;
	durable_point("git pack");
	free(name);
	name = xasprintf("pack-%s.idx", hex);
	rc = pack_file_write(dir, name, idx);
done:
	free(name);
	free(dir);
	return rc;
}

/* The blobs of a commit's files by id (sorted), to pack from the files' own bytes. */
struct file_blobs {
	git_oid *id;             /* files[i]'s blob id, in files' order */
	size_t *order;           /* indices into id, by id */
	const struct file *file; /* the files */
	size_t n;                /* how many */
};

static int file_blob_cmp(size_t a, size_t b, const void *ctx)
{
	const struct file_blobs *fb = ctx;
	return git_oid_cmp(&fb->id[a], &fb->id[b]);
}

/* The file whose blob is id, or NULL. */
static const struct file *file_blob(const struct file_blobs *fb, const git_oid *id)
{
	size_t lo = 0, hi = fb->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = git_oid_cmp(&fb->id[fb->order[mid]], id);
		if (c == 0)
			return &fb->file[fb->order[mid]];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Puts the blobs of files that the repository lacks into the mempack written under the ids
 * blob_id gives (OpenSSL's SHA-1), which make_commit then takes (libgit2 does not hash the
 * bytes again with its collision-detecting SHA-1) and list_written finds there as this
 * commit's; fb indexes them by id (file_blobs_release). 0 / -1. */
static int mempack_blobs(struct file_blobs *fb, git_odb *odb, git_odb_backend *written,
	const struct file *files, size_t n)
{
	size_t *tmp = xcalloc(n ? n : 1, sizeof(*tmp));

	fb->id = xcalloc(n ? n : 1, sizeof(*fb->id));
	fb->order = xcalloc(n ? n : 1, sizeof(*fb->order));
	fb->file = files;
	fb->n = n;
	for (size_t i = 0; i < n; i++) {
		fb->order[i] = i;
		if (blob_id(&fb->id[i], files[i].data, files[i].len) < 0 ||
			(!git_odb_exists(odb, &fb->id[i]) &&
				written->write(written, &fb->id[i], files[i].data, files[i].len,
					GIT_OBJECT_BLOB) < 0)) {
			free(tmp);
			return -1;
		}
	}
	index_sort(fb->order, tmp, n, file_blob_cmp, fb);
	free(tmp);
	return 0;
}

static void file_blobs_release(struct file_blobs *fb)
{
	free(fb->id);
	free(fb->order);
}

/* The objects of ids (the commit, then what it wrote, a tree before what is below it), each
 * once, read from the mempack written into objs; their bases picked. 0 / -1. */
static int pack_objs(struct pack_obj **out, size_t *n_out, git_odb_backend *written,
	const struct file_blobs *fb, const struct oid_list *ids)
{
	struct pack_obj *objs = xcalloc(ids->n ? ids->n : 1, sizeof(*objs));
	size_t *order = xcalloc(ids->n ? ids->n : 1, sizeof(*order));
	size_t *tmp = xcalloc(ids->n ? ids->n : 1, sizeof(*tmp)), n = 0;
	int rc = 0;

	for (size_t i = 0; i < ids->n; i++) {
		git_oid_cpy(&objs[i].id, &ids->v[i]);
		order[i] = i;
	}
	/* An object met twice (two files of the same bytes) is packed once, first where met. */
	index_sort(order, tmp, ids->n, obj_id_cmp, objs);
	for (size_t k = 1; k < ids->n; k++)
		if (git_oid_equal(&objs[order[k]].id, &objs[order[k - 1]].id))
			objs[order[k]].len = SIZE_MAX;
	for (size_t i = 0; rc == 0 && i < ids->n; i++) {
		if (objs[i].len == SIZE_MAX)
			continue;
		struct pack_obj *o = &objs[n++];
		git_oid id;
		git_oid_cpy(&id, &objs[i].id);
		memset(o, 0, sizeof(*o));
		git_oid_cpy(&o->id, &id);
		const struct file *f = file_blob(fb, &id);
		if (f) { /* a file's blob: its bytes, not a copy from the mempack */
			o->data = f->data;
			o->len = f->len;
			o->type = GIT_OBJECT_BLOB;
			continue;
		}
		void *data = NULL;
		rc = written->read(&data, &o->len, &o->type, written, &o->id) < 0 ? -1 : 0;
		o->data = data;
		o->read = 1;
	}
	for (size_t i = 0; rc == 0 && i < n; i++)
		pick_base(objs, i);
	free(order);
	free(tmp);
	*out = objs;
	*n_out = n;
	return rc;
}

static void pack_objs_free(struct pack_obj *objs, size_t n, git_odb_backend *written)
{
	for (size_t i = 0; i < n; i++) {
		if (objs[i].read)
			git_odb_backend_data_free(written, (void *)objs[i].data);
		buf_release(&objs[i].delta);
	}
	free(objs);
}

/* Writes the pack of the objects ids (read from the mempack written) and its index into r.
 * The index is written here, not by libgit2's indexer, which would inflate every object
 * again, hash it again and resolve every delta, to learn ids, offsets and CRC-32s the pack
 * was just written from: it checks nothing an object came with (it takes any bytes of the
 * right type and records their hash). The objects are libgit2's own (made by make_commit,
 * each id computed from its bytes), and after the write the repository's handle must find
 * every one of them through the new index (r's odb refreshed), or the commit fails. */
static int pack_commit_objects(struct repo *r, git_odb_backend *written,
	const struct file_blobs *fb, const struct oid_list *ids)
{
	struct pack_obj *objs = NULL;
	struct buf pack = BUF_INIT, idx = BUF_INIT;
	unsigned char sum[20];
	git_odb *main_odb = NULL;
	size_t n = 0;
	int rc = -1;

	if (pack_objs(&objs, &n, written, fb, ids) < 0)
		goto done;
	if (pack_stream(&pack, objs, n, sum) < 0 || pack_index(&idx, objs, n, sum) < 0) {
		git_error_set_str(GIT_ERROR_ZLIB, "cannot compress the turn's objects");
		goto done;
	}
	if (pack_write(r, &pack, &idx, sum) < 0)
		goto done;
	if (git_repository_odb(&main_odb, r->git) < 0 || git_odb_refresh(main_odb) < 0)
		goto done;
	for (size_t i = 0; i < n; i++)
		if (!git_odb_exists(main_odb, &objs[i].id)) {
			git_error_set_str(GIT_ERROR_ODB, "the turn's new pack lacks an object");
			goto done;
		}
	rc = 0;
done:
	pack_objs_free(objs, n, written);
	buf_release(&pack);
	buf_release(&idx);
	git_odb_free(main_odb);
	return rc;
}

/* The paths and blob ids of files, "path id\n" each in their order (the caller frees it), or
 * NULL when an id cannot be had. ids: the files' blob ids when known (NULL: hashed here). */
static char *paths_list(const struct file *files, const git_oid *ids, size_t n)
{
	struct buf b = BUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;

	for (size_t i = 0; i < n; i++) {
		if (ids)
			id = ids[i];
		else if (blob_id(&id, files[i].data, files[i].len) < 0) {
			buf_release(&b);
			return NULL;
		}
		git_oid_tostr(hex, sizeof hex, &id);
		buf_printf(&b, "%s %s\n", files[i].path, hex);
	}
	char *s = xstrdup(buf_str(&b));
	buf_release(&b);
	return s;
}

/* Writes the objects of one commit as one pack (the pack, its index and their directory
 * fsynced: a few fsyncs) instead of a loose file each (two fsyncs an object: the file and its
 * fan-out directory). make_commit writes through a second handle on the repository whose
 * new objects land in memory (a mempack); the commit and what it wrote there go, in that
 * order, into the pack (blobs much like an earlier one of the commit as deltas against it),
 * with the index written beside it (pack_commit_objects); then r's handle is told to look
 * again. When paths, *paths gets paths_list of files (the caller frees it), from the blob ids
 * hashed once here for the mempack and the tree. 0 / -1 (libgit2's message). */
static int make_commit_packed(git_oid *out, char **paths, struct repo *r, const git_oid *parent_id,
	const struct file *files, size_t n, const char *message, long long when)
{
	git_repository *mem = NULL;
	git_odb *odb = NULL;
	git_odb_backend *written = NULL;
	git_commit *parent = NULL, *commit = NULL;
	struct oid_list ids = { 0 };
	struct file_blobs fb = { 0 };
	int rc = -1;

	if (git_repository_open(&mem, git_repository_path(r->git)) < 0 ||
		git_repository_odb(&odb, mem) < 0 || git_mempack_new(&written) < 0)
		goto done;
	if (git_odb_add_backend(odb, written, 1000) < 0) {
		written->free(written);
		goto done;
	}
	if (mempack_blobs(&fb, odb, written, files, n) < 0 ||
		(parent_id && git_commit_lookup(&parent, mem, parent_id) < 0) ||
		make_commit(out, mem, parent, files, fb.id, n, message, when, 1) < 0 ||
		git_commit_lookup(&commit, mem, out) < 0)
		goto done;
	/* built again (finishing a turn): the commit and all below it are there already */
	if (!written->exists(written, out)) {
		rc = 0;
		goto done;
	}
	collect_oid(out, &ids);
	if (list_written(&ids, mem, written, git_commit_tree_id(commit)) < 0)
		goto done;
	rc = pack_commit_objects(r, written, &fb, &ids);
done:
	if (rc == 0 && paths)
		*paths = paths_list(files, fb.id, n);
	file_blobs_release(&fb);
	free(ids.v);
	git_commit_free(commit);
	git_commit_free(parent);
	git_odb_free(odb);
	git_repository_free(mem);
	return rc;
}

int repo_build(struct repo *r, const struct file *files, size_t n, const char *message,
	long long when, char commit_hex[41])
{
	struct buf msg = BUF_INIT;
	git_commit *parent = NULL;
	git_oid parent_id, commit_id;
	char *paths = NULL;
	int ret = -1, rc = -1;

	commit_hex[0] = '\0';
	if (paths_ok(files, n, &msg) < 0 || !head_is_main(r->git, &msg))
		goto done;
	rc = git_reference_name_to_id(&parent_id, r->git, REPO_BRANCH);
	if (rc < 0 && rc != GIT_ENOTFOUND)
		goto git_error;
	if (rc == 0 && (rc = object_checked(r->git, &parent_id, GIT_OBJECT_COMMIT, NULL)) < 0)
		goto git_error;
	if (rc == 0 && (rc = git_commit_lookup(&parent, r->git, &parent_id)) < 0)
		goto git_error;
	if ((rc = make_commit_packed(&commit_id, parent ? &paths : NULL, r,
		     parent ? &parent_id : NULL, files, n, message, when)) < 0)
		goto git_error;
	git_oid_tostr(commit_hex, 41, &commit_id);
	free(r->built_paths);
	r->built_paths = paths;
	r->built = commit_id;
	if (parent)
		r->built_parent = parent_id;
	durable_point("git objects");
	ret = 0;
	goto done;
git_error:
	buf_puts(&msg, git_msg());
done:
	if (ret != 0)
		error_set(fail_class(rc), "repo: cannot build the commit: %s", buf_str(&msg));
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
	if (pr == 1 ? git_reference_create(&ref, r->git, REPO_BRANCH, id, 0, "umpire") < 0 :
		      git_reference_create_matching(&ref, r->git, REPO_BRANCH, id, 1, &parent_id,
			      "umpire") < 0)
		goto git_error;
	git_reference_free(ref);
	durable_point("branch");
	return 0;
git_error:
	buf_puts(msg, git_msg());
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
	buf_printf(msg, "%s %s is not in the object store (%s)", what, hex, git_msg());
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

/* The ids of the trees on path's way below the tree root (its directories), read as git's
 * bytes from odb (no tree parsed into libgit2's objects and kept in its cache), into ids (at
 * most 8), how many in *n. 0 ok, -1 a tree unread or not as git writes it (dir_tree_ids
 * then). */
static int raw_dir_tree_ids(git_odb *odb, const git_oid *root, const char *path, git_oid *ids,
	size_t *n)
{
	git_oid cur = *root;
	int rc = 0;

	*n = 0;
	for (const char *p = path, *slash; rc == 0 && (slash = strchr(p, '/')) && *n < 8;
		p = slash + 1) {
		git_odb_object *obj = NULL;
		struct raw_entry *v = NULL;
		size_t count = 0;
		rc = raw_tree_read(&obj, &v, &count, odb, &cur) == 0 ? 0 : -1;
		const struct raw_entry *e = rc == 0 ? raw_find(v, count, p, (size_t)(slash - p)) :
						      NULL;
		int down = e && e->is_tree;
		if (down) {
			git_oid_fromraw(&cur, e->id);
			ids[(*n)++] = cur;
		}
		free(v);
		git_odb_object_free(obj);
		if (!down)
			break;
	}
	return rc;
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
		buf_puts(&msg, git_msg());
		goto done;
	}
	if (stored(odb, &id, GIT_OBJECT_COMMIT, "commit", &msg) < 0)
		goto done;
	if (git_commit_lookup(&commit, r->git, &id) < 0 || git_commit_tree(&tree, commit) < 0) {
		buf_puts(&msg, git_msg());
		goto done;
	}
	if (stored(odb, git_tree_id(tree), GIT_OBJECT_TREE, "tree", &msg) < 0)
		goto done;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		if (raw_dir_tree_ids(odb, git_tree_id(tree), files[i].path, ids, &k) < 0)
			k = dir_tree_ids(tree, files[i].path, ids);
		for (size_t j = 0; j < k; j++)
			if (stored(odb, &ids[j], GIT_OBJECT_TREE, "tree", &msg) < 0)
				goto done;
		if (blob_id(&id, files[i].data, files[i].len) < 0 ||
			stored(odb, &id, GIT_OBJECT_BLOB, files[i].path, &msg) < 0)
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

/* 1 if a is before b. */
static int time_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* The *.lock files under dir (depth levels of subdirectories), older than before, removed;
 * each removed path appended to *v (*n entries). Stops at REPO_MAX_STALE_LOCKS. */
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
		struct stat st;
		if (e->d_name[0] == '.' || (depth == 0 && strcmp(e->d_name, "objects") == 0))
			continue;
		char *path = xasprintf("%s/%s", dir, e->d_name);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && depth < 8 &&
			(depth > 0 || strcmp(e->d_name, "refs") == 0)) {
			rc = clear_locks_in(path, depth + 1, before, v, n);
		} else if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && len > 5 &&
			   strcmp(e->d_name + len - 5, ".lock") == 0 &&
			   time_before(&st.st_mtim, before)) {
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

/* The record of which commit's tree the index was last written to hold: .git/umpire-index,
 * "COMMIT CHECKSUM\n", the commit id and the index file's checksum (its trailer) as written.
 * Never required: a missing, torn or stale record only costs the slow path. */
#define INDEX_RECORD "umpire-index"

/* Whether the index, as read from disk, is the one recorded as holding the tree of commit
 * parent (its checksum unchanged since). */
static int index_holds(const struct repo *r, git_index *index, const git_oid *parent)
{
	char *path = xasprintf("%s" INDEX_RECORD, r->gitdir);
	char line[128], want[2 * GIT_OID_HEXSZ + 3];
	FILE *f = fopen(path, "r");
	int ok = 0;

	free(path);
	if (!f)
		return 0;
	if (fgets(line, sizeof line, f)) {
		char c[GIT_OID_HEXSZ + 1], k[GIT_OID_HEXSZ + 1];
		git_oid_tostr(c, sizeof c, parent);
		git_oid_tostr(k, sizeof k, git_index_checksum(index));
		snprintf(want, sizeof want, "%s %s\n", c, k);
		ok = strcmp(line, want) == 0;
	}
	fclose(f);
	return ok;
}

/* Records that the index just written holds the tree of commit id, with the checksum read
 * from the file's trailer (git_index_checksum is the one read, not the one written). Best
 * effort: a record not written only makes the next publish take the slow path. */
static void index_record(const struct repo *r, const git_oid *id)
{
	char *path = xasprintf("%s" INDEX_RECORD, r->gitdir);
	char *ipath = xasprintf("%sindex", r->gitdir);
	char c[GIT_OID_HEXSZ + 1], k[GIT_OID_HEXSZ + 1];
	unsigned char raw[GIT_OID_RAWSZ];
	git_oid sum;
	FILE *in = fopen(ipath, "rb"), *f = NULL;

	(void)unlink(path);
	if (in && fseek(in, -(long)GIT_OID_RAWSZ, SEEK_END) == 0 &&
		fread(raw, 1, sizeof raw, in) == sizeof raw && git_oid_fromraw(&sum, raw) == 0 &&
		(f = fopen(path, "w"))) {
		git_oid_tostr(c, sizeof c, id);
		git_oid_tostr(k, sizeof k, &sum);
		int bad = fprintf(f, "%s %s\n", c, k) < 0;
		if (fclose(f) != 0 || bad)
			(void)unlink(path);
	}
	if (in)
		fclose(in);
	free(ipath);
	free(path);
}

/* Whether path is one of files. */
static int in_files(const char *path, const struct file *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(files[i].path, path) == 0)
			return 1;
	return 0;
}

/* Whether every difference between trees a (NULL: empty) and b, under dir ("" or "x/y/"),
 * is the addition or change of a blob at one of files' paths. Descends only into
 * subtrees whose ids differ. 1 yes, 0 no (or unknown). */
static int diff_is_files(git_repository *git, const git_tree *a, const git_tree *b, const char *dir,
	const struct file *files, size_t n, int depth)
{
	int ok = depth < 16;

	for (size_t i = 0; ok && a && i < git_tree_entrycount(a); i++)
		ok = git_tree_entry_byname(b, git_tree_entry_name(git_tree_entry_byindex(a, i))) !=
		     NULL;
	for (size_t i = 0; ok && i < git_tree_entrycount(b); i++) {
		const git_tree_entry *eb = git_tree_entry_byindex(b, i);
		const git_tree_entry *ea = a ? git_tree_entry_byname(a, git_tree_entry_name(eb)) :
					       NULL;
		if (ea && git_tree_entry_filemode(ea) == git_tree_entry_filemode(eb) &&
			git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb)))
			continue;
		char *path = xasprintf("%s%s", dir, git_tree_entry_name(eb));
		if (git_tree_entry_type(eb) == GIT_OBJECT_TREE) {
			git_tree *sa = NULL, *sb = NULL;
			char *sub = xasprintf("%s/", path);
			ok = (!ea || (git_tree_entry_type(ea) == GIT_OBJECT_TREE &&
					     git_tree_lookup(&sa, git, git_tree_entry_id(ea)) ==
						     0)) &&
			     git_tree_lookup(&sb, git, git_tree_entry_id(eb)) == 0 &&
			     diff_is_files(git, sa, sb, sub, files, n, depth + 1);
			free(sub);
			git_tree_free(sa);
			git_tree_free(sb);
		} else {
			ok = (!ea || git_tree_entry_type(ea) == GIT_OBJECT_BLOB) &&
			     in_files(path, files, n);
		}
		free(path);
	}
	return ok;
}

/* Whether tree is exactly parent_tree with files written over it: every file's blob is in
 * tree at its path and every difference between the two trees is the addition or change of
 * one of files. Reads only the directories that differ. 1 yes, 0 no (or unknown). */
static int tree_is_parent_plus(git_repository *git, git_tree *parent_tree, git_tree *tree,
	const struct file *files, size_t n)
{
	git_oid blob;
	int ok = 1;

	for (size_t i = 0; ok && i < n; i++) {
		git_tree_entry *e = NULL;
		ok = git_tree_entry_bypath(&e, tree, files[i].path) == 0 &&
		     blob_id(&blob, files[i].data, files[i].len) == 0 &&
		     git_oid_equal(&blob, git_tree_entry_id(e));
		git_tree_entry_free(e);
	}
	return ok && diff_is_files(git, parent_tree, tree, "", files, n, 0);
}

/* Whether commit is the one repo_build built in this process on its parent from these files
 * (the same paths and bytes, in the same order): then its tree is the parent's with files
 * written over it, with no tree read or compared, and ids (n) holds the files' blob ids.
 * 1 yes, 0 no. */
static int built_here(const struct repo *r, git_commit *commit, const struct file *files,
	git_oid *ids, size_t n)
{
	if (!r->built_paths || git_commit_parentcount(commit) != 1 ||
		!git_oid_equal(&r->built, git_commit_id(commit)) ||
		!git_oid_equal(&r->built_parent, git_commit_parent_id(commit, 0)))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (blob_id(&ids[i], files[i].data, files[i].len) < 0)
			return 0;
	char *paths = paths_list(files, ids, n);
	int same = paths && strcmp(paths, r->built_paths) == 0;
	free(paths);
	return same;
}

/* Adds the files just written to the work tree to index (stat data refreshed, so `git status`
 * sees them unchanged). 0 ok, -1 libgit2 error. */
static int index_add_files(git_index *index, const struct file *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (git_index_add_bypath(index, files[i].path) < 0)
			return -1;
	return 0;
}

/* Makes index hold exactly the tree of commit, whose files are its parent's plus these. An
 * index recorded (INDEX_RECORD) as holding the parent's tree, or this commit's, unchanged
 * since, needs only these paths added, once the two trees are shown to differ by these files
 * alone; no whole-tree read, so the cost does not grow with the campaign's history. Any other
 * index (a stale one, a crash before this point, staged changes) is read anew from the whole
 * tree. 0 ok, -1 libgit2 error. */
static int index_to_tree(const struct repo *r, git_index *index, git_commit *commit, git_tree *tree,
	const struct file *files, size_t n)
{
	git_tree *parent_tree = NULL;
	int same = 0;

	if (git_index_read(index, 0) < 0)
		return -1;
	if (index_holds(r, index, git_commit_id(commit)))
		same = 1;
	else if (git_commit_parentcount(commit) > 0 &&
		 index_holds(r, index, git_commit_parent_id(commit, 0))) {
		git_commit *parent = NULL;
		same = git_commit_parent(&parent, commit, 0) == 0 &&
		       git_commit_tree(&parent_tree, parent) == 0 &&
		       tree_is_parent_plus(git_commit_owner(commit), parent_tree, tree, files, n);
		git_tree_free(parent_tree);
		git_commit_free(parent);
	}
	if (!same && git_index_read_tree(index, tree) < 0)
		return -1;
	return index_add_files(index, files, n);
}

/* The index's fast path writes the file itself (git's index format, version 2) rather than
 * through libgit2, which parses every entry into memory, checks and writes the whole file
 * with a collision-detecting SHA-1, and re-reads each added file from disk: at turn 1,000
 * (4,000 entries, 360 KB) that was a sixth of a turn. Only an index the record names as
 * holding the parent's tree (its trailer unchanged), of version 2 with every entry at stage 0
 * and no flag set, is spliced; anything else takes libgit2's path. */
#define INDEX_SPLICE_MAX (64 << 20) /* bytes: a larger index takes libgit2's path */
#define INDEX_ENTRY_FIXED 62        /* bytes of an index entry before its path */
#define INDEX_NAME_MAX 0xfff        /* a path this long or longer: libgit2's path */

/* The whole of file path in *out (the caller frees it), at most max bytes. 0 ok, -1 not. */
static int slurp(const char *path, size_t max, unsigned char **out, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok = 0;

	*out = NULL;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && st.st_size > 0 && (size_t)st.st_size <= max) {
		*len = (size_t)st.st_size;
		*out = xmalloc(*len);
		ok = read(fd, *out, *len) == (ssize_t)*len;
	}
	close(fd);
	if (!ok) {
		free(*out);
		*out = NULL;
	}
	return ok ? 0 : -1;
}

/* Whether the record (INDEX_RECORD) says the index whose trailer is sum holds the tree of
 * commit parent. */
static int record_is(const struct repo *r, const git_oid *parent, const unsigned char *sum)
{
	char *path = xasprintf("%s" INDEX_RECORD, r->gitdir);
	char line[128], want[2 * GIT_OID_HEXSZ + 3], c[GIT_OID_HEXSZ + 1], k[GIT_OID_HEXSZ + 1];
	FILE *f = fopen(path, "r");
	int ok = 0;

	free(path);
	if (!f)
		return 0;
	git_oid_tostr(c, sizeof c, parent);
	hex_encode(k, sum, GIT_OID_RAWSZ);
	snprintf(want, sizeof want, "%s %s\n", c, k);
	ok = fgets(line, sizeof line, f) && strcmp(line, want) == 0;
	fclose(f);
	return ok;
}

/* The length of the version-2 index entry at p (left bytes from it), its path's length in
 * *name_len; 0 when it is not one the fast path splices (a stage, a flag, a long path, bad
 * padding, past the end). */
static size_t entry_len(const unsigned char *p, size_t left, size_t *name_len)
{
	if (left < INDEX_ENTRY_FIXED + 8)
		return 0;
	unsigned flags = (unsigned)p[60] << 8 | p[61];
	size_t nl = flags & INDEX_NAME_MAX;
	size_t len = (INDEX_ENTRY_FIXED + nl + 8) & ~(size_t)7;
	if ((flags & ~(unsigned)INDEX_NAME_MAX) != 0 || nl == 0 || nl == INDEX_NAME_MAX ||
		len > left || memchr(p + INDEX_ENTRY_FIXED, 0, nl))
		return 0;
	for (size_t k = INDEX_ENTRY_FIXED + nl; k < len; k++)
		if (p[k])
			return 0;
	*name_len = nl;
	return len;
}

/* Appends the index entry of the work-tree file f, just written: its stat data, mode 100644
 * (what its tree entry says) and id, its blob id. 0 ok, -1 (libgit2's path then). */
static int entry_of(struct buf *out, const struct repo *r, const struct file *f, const git_oid *id)
{
	unsigned char e[INDEX_ENTRY_FIXED];
	char *full = xasprintf("%s%s", r->workdir, f->path);
	size_t nl = strlen(f->path), len = (INDEX_ENTRY_FIXED + nl + 8) & ~(size_t)7;
	struct stat st;
	int rc = lstat(full, &st);

	free(full);
	if (rc != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != f->len || nl == 0 ||
		nl >= INDEX_NAME_MAX)
		return -1;
	uint32_t v[10] = { (uint32_t)st.st_ctim.tv_sec, (uint32_t)st.st_ctim.tv_nsec,
		(uint32_t)st.st_mtim.tv_sec, (uint32_t)st.st_mtim.tv_nsec, (uint32_t)st.st_dev,
		(uint32_t)st.st_ino, 0100644, (uint32_t)st.st_uid, (uint32_t)st.st_gid,
		(uint32_t)st.st_size };
	for (size_t i = 0; i < 10; i++)
		put_be32(e + 4 * i, v[i]);
	memcpy(e + 40, id->id, GIT_OID_RAWSZ);
	e[60] = (unsigned char)(nl >> 8);
	e[61] = (unsigned char)nl;
	buf_append(out, e, sizeof e);
	buf_append(out, f->path, nl);
	static const unsigned char zeros[8];
	buf_append(out, zeros, len - INDEX_ENTRY_FIXED - nl);
	return 0;
}

static int file_ptr_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct file *const *)a)->path,
		(*(const struct file *const *)b)->path);
}

/* The entries of an index file as read: where each starts and its path's length. */
struct index_map {
	const unsigned char *in;
	size_t count, *off, *name_len;
	size_t off_end; /* where the entries end */
};

/* Order of entry i's path against the first pl bytes of path: <0, 0, >0. */
static int entry_order(const struct index_map *m, size_t i, const char *path, size_t pl)
{
	size_t nl = m->name_len[i];
	int c = memcmp(m->in + m->off[i] + INDEX_ENTRY_FIXED, path, nl < pl ? nl : pl);
	return c ? c : (nl > pl) - (nl < pl);
}

/* The first entry whose path is not before the first pl bytes of path. */
static size_t entry_lower_bound(const struct index_map *m, const char *path, size_t pl)
{
	size_t lo = 0, hi = m->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (entry_order(m, mid, path, pl) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether adding path replaces a file at most: no entry is a directory on the way to it, and
 * none is below it (path a directory). */
static int index_blob_only(const struct index_map *m, const char *path)
{
	size_t pl = strlen(path), i;

	for (const char *s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
		i = entry_lower_bound(m, path, (size_t)(s - path));
		if (i < m->count && entry_order(m, i, path, (size_t)(s - path)) == 0)
			return 0;
	}
	char *below = xasprintf("%s/", path);
	i = entry_lower_bound(m, below, pl + 1);
	int ok = i == m->count || m->name_len[i] <= pl ||
		 memcmp(m->in + m->off[i] + INDEX_ENTRY_FIXED, below, pl + 1) != 0;
	free(below);
	return ok;
}

/* Maps the version-2 index in (len bytes, trailer included): every entry one the fast path
 * splices (entry_len) and every extension optional (an upper-case first letter: a cache,
 * dropped when the index is spliced). 0 ok, -1 not. */
static int index_map_read(struct index_map *m, const unsigned char *in, size_t len)
{
	size_t off = 12, end = len - GIT_OID_RAWSZ;

	m->in = in;
	m->count = be32(in + 8);
	if (m->count > (end - off) / (INDEX_ENTRY_FIXED + 8))
		return -1;
	m->off = xcalloc(m->count ? m->count : 1, sizeof(*m->off));
	m->name_len = xcalloc(m->count ? m->count : 1, sizeof(*m->name_len));
	for (size_t i = 0; i < m->count; i++) {
		size_t el = entry_len(in + off, end - off, &m->name_len[i]);
		if (el == 0 ||
			(i > 0 && entry_order(m, i - 1, (const char *)in + off + INDEX_ENTRY_FIXED,
					  m->name_len[i]) >= 0))
			return -1;
		m->off[i] = off;
		off += el;
	}
	m->off_end = off;
	while (off + 8 <= end) {
		uint32_t size = be32(in + off + 4);
		if (in[off] < 'A' || in[off] > 'Z' || size > end - off - 8)
			return -1;
		off += 8 + (size_t)size;
	}
	return off == end ? 0 : -1;
}

/* An index being written: its file and the SHA-1 of what went in so far. */
struct index_out {
	int fd, ok;
	EVP_MD_CTX *sha;
};

static void index_put(struct index_out *o, const void *data, size_t len)
{
	o->ok = o->ok && EVP_DigestUpdate(o->sha, data, len) == 1 &&
		write_all(o->fd, data, len) == 0;
}

/* Writes into o the index m with files' entries (sorted by path, no two alike) merged in by
 * path, a file replacing the entry of its path, the extensions dropped, and the trailer. */
static void index_put_spliced(struct index_out *o, const struct index_map *m,
	const struct file **sorted, size_t n, const struct buf *added)
{
	unsigned char head[12], sum[GIT_OID_RAWSZ];
	size_t replaced = 0, at = 0, from = 12;
	unsigned int sn = 0;

	for (size_t j = 0; j < n; j++) {
		size_t i = entry_lower_bound(m, sorted[j]->path, strlen(sorted[j]->path));
		replaced += i < m->count &&
			    entry_order(m, i, sorted[j]->path, strlen(sorted[j]->path)) == 0;
	}
	memcpy(head, m->in, 8);
	put_be32(head + 8, (uint32_t)(m->count + n - replaced));
	index_put(o, head, sizeof head);
	for (size_t j = 0; j < n; j++) {
		size_t pl = strlen(sorted[j]->path), i = entry_lower_bound(m, sorted[j]->path, pl);
		size_t to = i < m->count ? m->off[i] : m->off_end;
		size_t el = (INDEX_ENTRY_FIXED + pl + 8) & ~(size_t)7;
		index_put(o, m->in + from, to - from);
		index_put(o, added->data + at, el);
		at += el;
		from = i < m->count && entry_order(m, i, sorted[j]->path, pl) == 0 ?
			       (i + 1 < m->count ? m->off[i + 1] : m->off_end) :
			       to;
	}
	index_put(o, m->in + from, m->off_end - from);
	o->ok = o->ok && EVP_DigestFinal_ex(o->sha, sum, &sn) == 1 && sn == GIT_OID_RAWSZ;
	o->ok = o->ok && write_all(o->fd, sum, sizeof sum) == 0;
}

/* The fast path of the index for a commit built in this process on parent from files
 * (built_here, which gave ids, their blob ids): the index on disk, recorded as holding the
 * parent's tree, with files' entries merged in, is written as libgit2 writes it (index.lock
 * created exclusively, renamed over the index; not fsynced, as libgit2 does not: the index is
 * a cache of the commit's tree, and a torn one is read anew from it), no entry parsed beyond
 * its length and path. 1 written, 0 not (the index untouched; libgit2's path then). */
static int index_splice(const struct repo *r, const git_oid *parent, const struct file *files,
	const git_oid *ids, size_t n)
{
	char *path = xasprintf("%sindex", r->gitdir), *lock = xasprintf("%sindex.lock", r->gitdir);
	const struct file **sorted = xcalloc(n ? n : 1, sizeof(*sorted));
	struct index_map m = { 0 };
	struct buf added = BUF_INIT;
	struct index_out o = { -1, 0, NULL };
	unsigned char *in = NULL;
	size_t len = 0;
	int ok = slurp(path, INDEX_SPLICE_MAX, &in, &len) == 0 && len >= 12 + GIT_OID_RAWSZ &&
		 memcmp(in, "DIRC", 4) == 0 && be32(in + 4) == 2 &&
		 record_is(r, parent, in + len - GIT_OID_RAWSZ) && index_map_read(&m, in, len) == 0;

	for (size_t i = 0; i < n; i++)
		sorted[i] = &files[i];
	qsort(sorted, n, sizeof(*sorted), file_ptr_cmp);
	for (size_t j = 0; ok && j < n; j++)
		ok = (j == 0 || strcmp(sorted[j - 1]->path, sorted[j]->path) != 0) &&
		     index_blob_only(&m, sorted[j]->path) &&
		     entry_of(&added, r, sorted[j], &ids[sorted[j] - files]) == 0;
	if (ok) {
		o.fd = open(lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		o.sha = EVP_MD_CTX_new();
		o.ok = o.fd >= 0 && o.sha && EVP_DigestInit_ex(o.sha, EVP_sha1(), NULL) == 1;
		if (o.ok)
			index_put_spliced(&o, &m, sorted, n, &added);
		ok = o.ok;
		if (o.fd >= 0 && close(o.fd) != 0)
			ok = 0;
		ok = ok && rename(lock, path) == 0;
		if (!ok && o.fd >= 0)
			(void)unlink(lock);
		EVP_MD_CTX_free(o.sha);
	}
	buf_release(&added);
	free(m.off);
	free(m.name_len);
	free(in);
	free(sorted);
	free(lock);
	free(path);
	return ok;
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
	git_oid id, tag_id, *ids = NULL;
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
	ids = xcalloc(n ? n : 1, sizeof(*ids));
	if (!(git_commit_parentcount(commit) > 0 && built_here(r, commit, files, ids, n) &&
		    index_splice(r, git_commit_parent_id(commit, 0), files, ids, n)) &&
		(git_repository_index(&index, r->git) < 0 ||
			index_to_tree(r, index, commit, tree, files, n) < 0 ||
			git_index_write(index) < 0))
		goto git_error;
	index_record(r, &id);
	durable_point("index");

	if (move_main(r, &id, commit_hex, &msg) < 0)
		goto done;

	if (!existing) {
		if (git_object_lookup(&commit_obj, r->git, &id, GIT_OBJECT_COMMIT) < 0 ||
			git_tag_create_lightweight(&tag_id, r->git, tag, commit_obj, 0) < 0)
			goto git_error;
		durable_point("tag");
	}
	ret = 0;
	goto done;
git_error:
	buf_puts(&msg, git_msg());
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
	free(ids);
	git_object_free(commit_obj);
	git_index_free(index);
	git_tree_free(tree);
	git_commit_free(commit);
	git_reference_free(existing);
	buf_release(&msg);
	return ret;
}

int repo_rebuild_id(struct repo *r, const char *parent_rev, const struct file *files, size_t n,
	const char *message, long long when, char commit_hex[41])
{
	struct buf msg = BUF_INIT;
	git_repository *mem = NULL;
	git_odb *odb = NULL;
	git_odb_backend *pack = NULL;
	git_commit *parent = NULL;
	git_oid commit_id;
	int ret = -1, rc = -1;

	commit_hex[0] = '\0';
	if (paths_ok(files, n, &msg) < 0)
		goto done;
	/* A second handle on the same repository whose writes land in memory only: the
	 * rebuilt objects never touch the verifier's clone. */
	if (git_repository_open(&mem, git_repository_path(r->git)) < 0 ||
		git_repository_odb(&odb, mem) < 0 || git_mempack_new(&pack) < 0 ||
		git_odb_add_backend(odb, pack, 1000) < 0)
		goto git_error;
	if ((rc = resolve_commit(&parent, mem, parent_rev)) == ERROR_NOTFOUND) {
		buf_puts(&msg, "no such revision");
		goto done;
	}
	if (rc < 0 ||
		(rc = make_commit(&commit_id, mem, parent, files, NULL, n, message, when, 1)) < 0)
		goto git_error;
	git_oid_tostr(commit_hex, 41, &commit_id);
	ret = 0;
	goto done;
git_error:
	buf_puts(&msg, git_msg());
done:
	if (ret != 0)
		error_set(fail_class(rc), "repo: cannot rebuild the commit after '%s': %s",
			parent_rev, buf_str(&msg));
	git_commit_free(parent);
	git_odb_free(odb);
	git_repository_free(mem);
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
	error_set(ERROR_OS, "repo: cannot pack loose objects: %s", git_msg());
done:
	git_odb_free(odb);
	git_packbuilder_free(pb);
	free(loose.v);
	repo_names_free(small);
	return ret;
}

int repo_commit_time(struct repo *r, const char *rev, long long *out)
{
	git_commit *c = NULL;
	int rc = resolve_commit(&c, r->git, rev);
	if (rc == ERROR_NOTFOUND)
		return error_set(ERROR_MISSING, "repo: no commit '%s'", rev), ERROR_NOTFOUND;
	if (rc < 0) {
		error_set(fail_class(rc), "repo: cannot read commit '%s': %s", rev, git_msg());
		return -1;
	}
	*out = (long long)git_commit_time(c);
	git_commit_free(c);
	return 0;
}

/* The tree entry of path at rev, every tree on the way sized from its header before it is
 * read (a crafted clone's oversized tree is refused, as everywhere). 0 with *entry (free it);
 * ERROR_NOTFOUND with the message set (no such revision, or no such path); -1 otherwise, the
 * libgit2 code in *grc for the caller's message. */
static int entry_at(struct repo *r, const char *rev, const char *path, git_tree_entry **entry,
	int *grc)
{
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	int ret = -1;

	*entry = NULL;
	*grc = resolve_commit(&commit, r->git, rev);
	if (*grc == ERROR_NOTFOUND) {
		error_set(ERROR_MISSING, "repo: cannot read '%s' at '%s': no such revision", path,
			rev);
		return ERROR_NOTFOUND;
	}
	if (*grc < 0 || (*grc = commit_tree_checked(&tree, r->git, commit)) < 0)
		goto done;
	*grc = entry_bypath_checked(entry, r->git, tree, path);
	if (*grc == GIT_ENOTFOUND) {
		error_set(ERROR_MISSING, "repo: '%s' has no file '%s'", rev, path);
		ret = ERROR_NOTFOUND;
	} else if (*grc == 0) {
		ret = 0;
	}
done:
	git_tree_free(tree);
	git_commit_free(commit);
	return ret;
}

int repo_read(struct repo *r, const char *rev, const char *path, struct buf *out)
{
	git_tree_entry *entry = NULL;
	git_blob *blob = NULL;
	const char *why = NULL; /* our reason, when libgit2 has none */
	int rc, ret;

	buf_clear(out);
	ret = entry_at(r, rev, path, &entry, &rc);
	if (ret != 0)
		goto done;
	ret = -1;
	if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB) {
		why = "not a file";
		goto done;
	}
	/* The blob's size from its header before it is inflated whole. */
	if ((rc = object_checked(r->git, git_tree_entry_id(entry), GIT_OBJECT_BLOB, NULL)) < 0 ||
		(rc = git_blob_lookup(&blob, r->git, git_tree_entry_id(entry))) < 0)
		goto done;
	buf_append(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	ret = 0;
done:
	if (ret == -1)
		error_set(why ? ERROR_OS : fail_class(rc), "repo: cannot read '%s' at '%s': %s",
			path, rev, why ? why : git_msg());
	git_blob_free(blob);
	git_tree_entry_free(entry);
	return ret;
}

int repo_file_id(struct repo *r, const char *rev, const char *path, char hex[41])
{
	git_tree_entry *entry = NULL;
	int rc, ret = entry_at(r, rev, path, &entry, &rc);

	hex[0] = '\0';
	if (ret == -1)
		error_set(fail_class(rc), "repo: cannot read '%s' at '%s': %s", path, rev,
			git_msg());
	else if (ret == 0 && git_tree_entry_type(entry) != GIT_OBJECT_BLOB)
		ret = error_set(ERROR_OS, "repo: '%s' at '%s' is not a file", path, rev);
	else if (ret == 0)
		git_oid_tostr(hex, 41, git_tree_entry_id(entry));
	git_tree_entry_free(entry);
	return ret;
}

int repo_same_file(struct repo *r, const char *rev, const char *path, const void *bytes, size_t len)
{
	git_tree_entry *entry = NULL;
	git_oid want;
	int rc, ret = entry_at(r, rev, path, &entry, &rc);

	if (ret == 0) {
		rc = blob_id(&want, bytes, len);
		ret = rc < 0 ? -1 :
			       git_tree_entry_type(entry) == GIT_OBJECT_BLOB &&
				       git_oid_equal(&want, git_tree_entry_id(entry));
	}
	if (ret == -1)
		error_set(fail_class(rc), "repo: cannot read '%s' at '%s': %s", path, rev,
			git_msg());
	git_tree_entry_free(entry);
	return ret;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int repo_list(struct repo *r, const char *rev, const char *dir, char ***names)
{
	git_commit *commit = NULL;
	git_tree *root = NULL, *sub = NULL;
	git_tree_entry *entry = NULL;
	const git_tree *tree = NULL;
	char **v = NULL;
	size_t n = 0, i, count;
	int ret = -1, rc;

	*names = NULL;
	rc = resolve_commit(&commit, r->git, rev);
	if (rc == ERROR_NOTFOUND) {
		error_set(ERROR_OS, "repo: cannot list '%s' at '%s': no such revision",
			dir ? dir : "", rev);
		goto done;
	}
	if (rc < 0 || (rc = commit_tree_checked(&root, r->git, commit)) < 0)
		goto git_error;
	tree = root;
	if (dir && *dir && strcmp(dir, ".") != 0) {
		rc = entry_bypath_checked(&entry, r->git, root, dir);
		if (rc < 0 && rc != GIT_ENOTFOUND)
			goto git_error;
		tree = NULL;
		if (rc == 0 && git_tree_entry_type(entry) == GIT_OBJECT_TREE) {
			if ((rc = tree_lookup_checked(&sub, r->git, git_tree_entry_id(entry))) < 0)
				goto git_error;
			tree = sub;
		}
	}
	count = tree ? git_tree_entrycount(tree) : 0;
	v = xcalloc(count + 1, sizeof(*v));
	for (i = 0; i < count; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		if (git_tree_entry_type(e) == GIT_OBJECT_BLOB)
			v[n++] = xstrdup(git_tree_entry_name(e));
	}
	v[n] = NULL;
	/* Git orders trees by name with directories as "name/"; files alone sort the same,
	 * but the contract is byte order, so say it explicitly. */
	qsort(v, n, sizeof(*v), name_cmp);
	*names = v;
	v = NULL;
	ret = 0;
	goto done;
git_error:
	error_set(fail_class(rc), "repo: cannot list '%s' at '%s': %s", dir ? dir : "", rev,
		git_msg());
done:
	repo_names_free(v);
	git_tree_entry_free(entry);
	git_tree_free(sub);
	git_tree_free(root);
	git_commit_free(commit);
	return ret;
}

void repo_names_free(char **names)
{
	if (!names)
		return;
	for (char **p = names; *p; p++)
		free(*p);
	free(names);
}

int repo_has(struct repo *r, const char *rev)
{
	git_commit *c = NULL;
	int rc = resolve_commit(&c, r->git, rev);

	git_commit_free(c);
	/* A commit over the limit is there; whoever reads it is refused, with the reason. */
	return rc == 0 || rc == REPO_CRAFTED;
}

int repo_commit_id(struct repo *r, const char *rev, char hex[41])
{
	git_commit *c = NULL;
	int rc = resolve_commit(&c, r->git, rev);

	hex[0] = '\0';
	if (rc == ERROR_NOTFOUND)
		error_set(ERROR_MISSING, "repo: no commit '%s'", rev);
	else if (rc < 0)
		error_set(fail_class(rc), "repo: cannot resolve '%s': %s", rev, git_msg());
	if (rc == 0)
		git_oid_tostr(hex, 41, git_commit_id(c));
	git_commit_free(c);
	return rc == REPO_CRAFTED ? -1 : rc;
}

int repo_subject(struct repo *r, const char *rev, struct buf *out)
{
	int rc = repo_message(r, rev, out);
	if (rc == 0) {
		out->len = strcspn(buf_str(out), "\n");
		if (out->data)
			out->data[out->len] = '\0';
	}
	return rc;
}

int repo_message(struct repo *r, const char *rev, struct buf *out)
{
	git_commit *c = NULL;
	int rc = resolve_commit(&c, r->git, rev);

	buf_clear(out);
	if (rc == ERROR_NOTFOUND)
		error_set(ERROR_MISSING, "repo: no commit '%s'", rev);
	else if (rc < 0)
		error_set(fail_class(rc), "repo: cannot resolve '%s': %s", rev, git_msg());
	if (rc == 0)
		buf_puts(out, git_commit_message(c));
	git_commit_free(c);
	return rc == REPO_CRAFTED ? -1 : rc;
}

int repo_tags(struct repo *r, const char *prefix, char ***names)
{
	git_strarray tags = { NULL, 0 };
	char **v = NULL;
	size_t n = 0, plen = strlen(prefix);

	*names = NULL;
	if (git_tag_list(&tags, r->git) < 0) {
		error_set(ERROR_OS, "repo: cannot list tags: %s", git_msg());
		return -1;
	}
	v = xcalloc(tags.count + 1, sizeof(*v));
	for (size_t i = 0; i < tags.count; i++)
		if (strncmp(tags.strings[i], prefix, plen) == 0)
			v[n++] = xstrdup(tags.strings[i]);
	v[n] = NULL;
	qsort(v, n, sizeof(*v), name_cmp);
	git_strarray_dispose(&tags);
	*names = v;
	return 0;
}

static int count_ref(const char *name, void *payload)
{
	(void)name;
	(*(size_t *)payload)++;
	return 0;
}

int repo_has_replacements(struct repo *r, const char **what)
{
	char *grafts = xasprintf("%sinfo/grafts", r->gitdir);
	struct stat st;
	size_t n = 0;
	int rc = 0;

	*what = NULL;
	if (git_reference_foreach_glob(r->git, "refs/replace/*", count_ref, &n) < 0)
		rc = error_set(ERROR_OS, "repo: cannot list replace refs: %s", git_msg());
	else if (n) {
		*what = "the clone has replace refs (refs/replace/): git would show other objects than those committed";
		rc = 1;
	} else if (lstat(grafts, &st) == 0) {
		*what = "the clone has a grafts file (.git/info/grafts): git would show other parents";
		rc = 1;
	}
	free(grafts);
	return rc;
}

int repo_is_clean(struct repo *r)
{
	git_status_options so;
	git_status_list *list = NULL;
	git_index *index = NULL;
	int ret = -1;

	/* The index as on disk, not as this process last held it: clean means clean for the
	 * git program and the next umpire too. */
	if (git_repository_index(&index, r->git) < 0 || git_index_read(index, 1) < 0)
		goto done;
	git_status_options_init(&so, GIT_STATUS_OPTIONS_VERSION);
	so.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	so.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (git_status_list_new(&list, r->git, &so) < 0)
		goto done;
	ret = git_status_list_entrycount(list) == 0;
done:
	if (ret < 0)
		error_set(ERROR_OS, "repo: cannot read the status of '%s': %s", r->workdir,
			git_msg());
	git_status_list_free(list);
	git_index_free(index);
	return ret;
}

int repo_set_ref(struct repo *r, const char *name, const char *commit_hex)
{
	git_reference *ref = NULL;
	git_oid id;

	if (git_oid_fromstr(&id, commit_hex) < 0 ||
		git_reference_create(&ref, r->git, name, &id, 1, "umpire verify") < 0)
		return error_set(ERROR_OS, "repo: cannot set %s: %s", name, git_msg());
	git_reference_free(ref);
	return 0;
}

/* A remote's refusal of one reference, kept by the push callback. */
struct push_refusal {
	struct buf why; /* "ref: message" lines */
};

static int push_update(const char *refname, const char *status, void *data)
{
	struct push_refusal *p = data;
	if (status)
		buf_printf(&p->why, "%s%s: %s", p->why.len ? "; " : "", refname, status);
	return 0;
}

/* Creates url as a bare repository whose HEAD is main when url is a local path that does
 * not exist yet, so a GM's first publish needs no git command. 0 / -1. */
static int remote_bare_if_absent(const char *url)
{
	git_repository *bare = NULL;
	git_repository_init_options o;
	struct stat st;

	if (strstr(url, "://") || strchr(url, ':') || stat(url, &st) == 0)
		return 0;
	git_repository_init_options_init(&o, GIT_REPOSITORY_INIT_OPTIONS_VERSION);
	o.flags = GIT_REPOSITORY_INIT_BARE | GIT_REPOSITORY_INIT_MKPATH;
	o.initial_head = "main";
	if (git_repository_init_ext(&bare, url, &o) < 0)
		return error_set(ERROR_OS, "repo: cannot create the bare remote '%s': %s", url,
			git_msg());
	git_repository_free(bare);
	return 0;
}

/* One push of refspecs (n) to remote. 0 / -1 (the remote's refusals in the message). */
static int push_refspecs(git_remote *remote, char **refspecs, size_t n, const char *url)
{
	git_push_options po;
	struct push_refusal refusal = { BUF_INIT };
	git_strarray specs = { refspecs, n };
	int rc = 0;

	git_push_options_init(&po, GIT_PUSH_OPTIONS_VERSION);
	po.callbacks.push_update_reference = push_update;
	po.callbacks.payload = &refusal;
	int err = git_remote_push(remote, &specs, &po);
	if (err == GIT_ENONFASTFORWARD)
		rc = error_set(ERROR_INPUT, "repo: '%s' refused the push: %s", url, git_msg());
	else if (err < 0)
		rc = error_set(ERROR_OS, "repo: cannot push to '%s': %s", url, git_msg());
	else if (refusal.why.len)
		rc = error_set(ERROR_INPUT, "repo: '%s' refused: %s", url, buf_str(&refusal.why));
	buf_release(&refusal.why);
	return rc;
}

/* The certificates libgit2 trusts, loaded before the first connection to a network remote
 * (src/core/gittls.h). 0 / -1. */
static int tls_load(const char *url)
{
	const char *file, *dir;
	if (gittls_wanted(url, &file, &dir) &&
		git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, dir) < 0)
		return error_set(ERROR_OS, "repo: cannot load the TLS certificates: %s", git_msg());
	return 0;
}

int repo_push_all(struct repo *r, const char *url, size_t *n_tags)
{
	git_remote *remote = NULL;
	char **tags = NULL, **specs = NULL;
	size_t n = 0;
	int rc = -1;

	*n_tags = 0;
	if (remote_bare_if_absent(url) < 0 || repo_tags(r, "", &tags) < 0 || tls_load(url) < 0)
		goto done;
	if (git_remote_create_anonymous(&remote, r->git, url) < 0) {
		error_set(ERROR_OS, "repo: cannot use remote '%s': %s", url, git_msg());
		goto done;
	}
	while (tags[n])
		n++;
	specs = xcalloc(n + 2, sizeof(*specs));
	for (size_t i = 0; i < n; i++)
		specs[i] = xasprintf("refs/tags/%s:refs/tags/%s", tags[i], tags[i]);
	/* libgit2 1.5 cannot ask for an atomic push, so the remote updates the references one
	 * by one. Two pushes: every tag (with every object, in one pack), then main only once
	 * the remote has taken every tag. A refused tag or a push cut short leaves tags ahead
	 * of main, never main ahead of a tag the remote lacks: a player's verify then checks
	 * main and says the publish is not finished (docs/formats.md, "Publishing"). */
	specs[n] = xstrdup(LAYOUT_BRANCH ":" LAYOUT_BRANCH);
	rc = n ? push_refspecs(remote, specs, n, url) : 0;
	if (rc == 0)
		rc = push_refspecs(remote, specs + n, 1, url);
	if (rc == 0)
		*n_tags = n;
done:
	for (size_t i = 0; specs && i < n + 1; i++)
		free(specs[i]);
	free(specs);
	repo_names_free(tags);
	git_remote_free(remote);
	return rc;
}
