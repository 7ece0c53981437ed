/* repo_read.c — reading a campaign's repository, which may be a crafted clone: every commit,
 * annotated tag, tree and blob sized from its header before it is inflated (repo.h's
 * REPO_MAX_*), revisions resolved by reference name or full id only; files, listings, ids,
 * messages and tags at any revision; the work tree's status. */
#include "core/repo_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

/* libgit2's message for the last failure on this thread, kept verbatim. */
const char *repo_git_msg(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

/* What repo_object_checked returns for an object over its type's limit or of the wrong type (a
 * crafted repository: class ERROR_INPUT), beside -1 for a libgit2 failure (ERROR_OS). Either
 * way repo_git_msg() says what. */
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

/* The headers repo_object_checked read last, by the id's first 12 bits: an id names one
 * content, so its type and size are known without the object database again (a loose
 * object's header is a file opened and inflated; verify asks for the same trees each turn).
 * Whether the object is in a repository is still the lookup's that follows. One table per
 * thread. */
static _Thread_local struct header_seen {
	git_oid id;
	git_object_t type; /* 0 (a new table): empty */
	size_t len;
} headers_seen[4096];

/* Reads id's header (its type and size: nothing inflated past the first bytes) and refuses
 * an object over its type's limit, or not of type want (GIT_OBJECT_ANY: any), before anything
 * reads it whole: a 2 MB clone can hold a commit, tree or blob that inflates to gigabytes.
 * *type gets its type (may be NULL). Returns 0, GIT_ENOTFOUND when absent, REPO_CRAFTED or -1
 * with the reason as libgit2's last error (repo_git_msg()). */
int repo_object_checked(git_repository *git, const git_oid *id, git_object_t want,
	git_object_t *type)
{
	git_odb *odb = NULL;
	git_object_t got = GIT_OBJECT_INVALID;
	size_t len = 0, max;
	const char *text, *kind;
	char hex[GIT_OID_HEXSZ + 1], *msg;
	struct header_seen *seen = &headers_seen[id->id[0] << 4 | (id->id[1] & 15)];
	int rc = 0;

	if (seen->type > 0 && git_oid_equal(&seen->id, id)) {
		got = seen->type;
		len = seen->len;
	} else {
		rc = git_repository_odb(&odb, git);
		if (rc == 0)
			rc = git_odb_read_header(&len, &got, odb, id);
		git_odb_free(odb);
		if (rc < 0)
			return rc == GIT_ENOTFOUND ? GIT_ENOTFOUND : -1;
		git_oid_cpy(&seen->id, id);
		seen->type = got;
		seen->len = len;
	}
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

/* While repo_freeze_refs is on, the ids rev_id found, by handle and name, one table per
 * thread: git_reference_dwim looks for each name as several loose files before packed-refs
 * (verify resolves each tag a dozen times; issue 38). A table whose generation is not
 * refs_generation is empty: freezing, thawing, setting a ref or freeing a handle forgets
 * everything. Only names found are kept. */
#define REVS_SEEN 2048
#define REV_SEEN_MAX 48 /* longest name kept, with its NUL */
static int refs_frozen;
static _Atomic unsigned refs_generation = 1;
static _Thread_local struct rev_seen {
	const git_repository *git;
	unsigned generation;
	char rev[REV_SEEN_MAX];
	git_oid id;
} revs_seen[REVS_SEEN];

void repo_freeze_refs(int on)
{
	refs_frozen = on;
	repo_refs_changed();
	if (!on)
		repo_forget_trees(NULL);
}

void repo_refs_changed(void)
{
	refs_generation++;
}

/* While the refs are frozen (repo_freeze_refs: verify), the trees this thread read last,
 * each a reference of ours: libgit2's cache drops objects at random once full, and each of a
 * long campaign's journal/ trees (an entry a turn, about 100 KB at turn 1,000) was inflated,
 * hashed and parsed three times (issue 38). At most TREES_KEPT trees of about TREES_KEPT_BYTES
 * in all (their entries counted at TREE_ENTRY_BYTES), the least recently used going first. */
#define TREES_KEPT 32
#define TREES_KEPT_BYTES (2 << 20)
#define TREE_ENTRY_BYTES 64
static _Thread_local struct tree_kept {
	const git_repository *git; /* the handle it was read through */
	git_tree *tree;            /* NULL: an empty slot */
	size_t bytes;
	unsigned long used; /* trees_clock when last asked for */
} trees_kept[TREES_KEPT];
static _Thread_local size_t trees_kept_bytes;
static _Thread_local unsigned long trees_clock;

void repo_forget_trees(const struct repo *r)
{
	const git_repository *git = r ? r->git : NULL;

	for (int i = 0; i < TREES_KEPT; i++) {
		struct tree_kept *k = &trees_kept[i];
		if (k->tree && (!git || k->git == git)) {
			git_tree_free(k->tree);
			trees_kept_bytes -= k->bytes;
			memset(k, 0, sizeof(*k));
		}
	}
}

/* A new reference on the kept tree id read through git into *out: 1, else 0. */
static int tree_kept_find(git_tree **out, const git_repository *git, const git_oid *id)
{
	for (int i = 0; i < TREES_KEPT; i++) {
		struct tree_kept *k = &trees_kept[i];
		if (k->tree && k->git == git && git_oid_equal(git_tree_id(k->tree), id) &&
			git_tree_dup(out, k->tree) == 0) {
			k->used = ++trees_clock;
			return 1;
		}
	}
	return 0;
}

/* Keeps a reference on tree (checked), the least recently used trees going for room. */
static void tree_keep(const git_repository *git, git_tree *tree)
{
	size_t bytes = git_tree_entrycount(tree) * TREE_ENTRY_BYTES;
	struct tree_kept *slot = NULL;

	if (bytes > TREES_KEPT_BYTES / 4)
		return;
	for (;;) {
		struct tree_kept *lru = NULL;
		for (int i = 0; i < TREES_KEPT; i++) {
			struct tree_kept *k = &trees_kept[i];
			if (!k->tree && !slot)
				slot = k;
			if (k->tree && (!lru || k->used < lru->used))
				lru = k;
		}
		if (slot && trees_kept_bytes + bytes <= TREES_KEPT_BYTES)
			break;
		git_tree_free(lru->tree); /* full: lru is not NULL */
		trees_kept_bytes -= lru->bytes;
		memset(lru, 0, sizeof(*lru));
		slot = NULL;
	}
	if (git_tree_dup(&slot->tree, tree) < 0)
		return;
	slot->git = git;
	slot->bytes = bytes;
	slot->used = ++trees_clock;
	trees_kept_bytes += bytes;
}

/* The tree id names, header-checked first (repo_object_checked) and holding at most
 * REPO_MAX_TREE_ENTRIES entries. Returns 0, or REPO_CRAFTED / -1 as repo_object_checked (an absent
 * tree is -1: a commit or tree names it). */
int repo_tree_lookup_checked(git_tree **out, git_repository *git, const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1], *msg;
	int rc;

	*out = NULL;
	if (refs_frozen && tree_kept_find(out, git, id))
		return 0; /* checked when it was kept */
	rc = repo_object_checked(git, id, GIT_OBJECT_TREE, NULL);
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
	if (refs_frozen)
		tree_keep(git, *out);
	return 0;
}

/* The entry at path (relative, '/'-separated) below root, each tree on the way checked by
 * repo_tree_lookup_checked before it is read: git_tree_entry_bypath would inflate them unchecked.
 * *out is the caller's (git_tree_entry_free). Returns 0, GIT_ENOTFOUND (no message),
 * REPO_CRAFTED or -1 (repo_git_msg()). */
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
		rc = repo_tree_lookup_checked(&next, git, git_tree_entry_id(e));
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

/* The commit's tree, checked (repo_tree_lookup_checked). Returns as that does. */
int repo_commit_tree_checked(git_tree **out, git_repository *git, const git_commit *commit)
{
	return repo_tree_lookup_checked(out, git, git_commit_tree_id(commit));
}

/* rev's slot in this thread's table (FNV-1a of the name and the handle). */
static struct rev_seen *rev_slot(const git_repository *git, const char *rev)
{
	uint32_t h = 2166136261u;

	for (const char *p = rev; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	h ^= (uint32_t)((uintptr_t)git >> 4);
	return &revs_seen[h % REVS_SEEN];
}

/* The object id rev names, read from refs alone (no object inflated): a full hex id, or a
 * reference name as git resolves it ("HEAD", "main", "turn-0003", "refs/heads/main"); while
 * the refs are frozen, a name found before is not looked up again (revs_seen).
 * Returns 0, GIT_ENOTFOUND, or -1 (repo_git_msg()). */
static int rev_id(git_oid *out, git_repository *git, const char *rev)
{
	git_reference *ref = NULL, *direct = NULL;
	struct rev_seen *seen = NULL;
	int rc;

	if (strlen(rev) == GIT_OID_HEXSZ && git_oid_fromstr(out, rev) == 0)
		return 0;
	if (refs_frozen && strlen(rev) < REV_SEEN_MAX) {
		seen = rev_slot(git, rev);
		if (seen->generation == refs_generation && seen->git == git &&
			strcmp(seen->rev, rev) == 0) {
			git_oid_cpy(out, &seen->id);
			return 0;
		}
	}
	rc = git_reference_dwim(&ref, git, rev);
	if (rc == 0)
		rc = git_reference_resolve(&direct, ref);
	if (rc == 0)
		git_oid_cpy(out, git_reference_target(direct));
	if (rc == 0 && seen) {
		seen->git = git;
		seen->generation = refs_generation;
		memcpy(seen->rev, rev, strlen(rev) + 1);
		git_oid_cpy(&seen->id, out);
	}
	git_reference_free(direct);
	git_reference_free(ref);
	if (rc == GIT_ENOTFOUND || rc == GIT_EUNBORNBRANCH || rc == GIT_EINVALIDSPEC)
		return GIT_ENOTFOUND;
	return rc < 0 ? -1 : 0;
}

/* The commit id names, through annotated tags, each object header-checked before it is
 * read (repo_object_checked). 0 found, ERROR_NOTFOUND no such object (no message), REPO_CRAFTED
 * or -1 (repo_git_msg()). */
static int peel_commit_checked(git_commit **out, git_repository *git, const git_oid *id)
{
	git_object_t type;
	git_oid at = *id;
	int rc = 0;

	*out = NULL;
	for (int depth = 0; rc == 0; depth++) {
		rc = repo_object_checked(git, &at, GIT_OBJECT_ANY, &type);
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
 * revision (no message), REPO_CRAFTED or -1 (repo_git_msg()). */
int repo_resolve_commit(git_commit **out, git_repository *git, const char *rev)
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
		rc = repo_resolve_commit(&c, git, base);
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
enum error_class repo_fail_class(int rc)
{
	return rc == REPO_CRAFTED ? ERROR_INPUT : ERROR_OS;
}

int repo_commit_time(struct repo *r, const char *rev, long long *out)
{
	git_commit *c = NULL;
	int rc = repo_resolve_commit(&c, r->git, rev);
	if (rc == ERROR_NOTFOUND)
		return error_set(ERROR_MISSING, "repo: no commit '%s'", rev), ERROR_NOTFOUND;
	if (rc < 0) {
		error_set(repo_fail_class(rc), "repo: cannot read commit '%s': %s", rev,
			repo_git_msg());
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
	*grc = repo_resolve_commit(&commit, r->git, rev);
	if (*grc == ERROR_NOTFOUND) {
		error_set(ERROR_MISSING, "repo: cannot read '%s' at '%s': no such revision", path,
			rev);
		return ERROR_NOTFOUND;
	}
	if (*grc < 0 || (*grc = repo_commit_tree_checked(&tree, r->git, commit)) < 0)
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
	if ((rc = repo_object_checked(r->git, git_tree_entry_id(entry), GIT_OBJECT_BLOB, NULL)) <
			0 ||
		(rc = git_blob_lookup(&blob, r->git, git_tree_entry_id(entry))) < 0)
		goto done;
	buf_append(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	ret = 0;
done:
	if (ret == -1)
		error_set(why ? ERROR_OS : repo_fail_class(rc),
			"repo: cannot read '%s' at '%s': %s", path, rev,
			why ? why : repo_git_msg());
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
		error_set(repo_fail_class(rc), "repo: cannot read '%s' at '%s': %s", path, rev,
			repo_git_msg());
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
		rc = git_odb_hash(&want, bytes, len, GIT_OBJECT_BLOB);
		ret = rc < 0 ? -1 :
			       git_tree_entry_type(entry) == GIT_OBJECT_BLOB &&
				       git_oid_equal(&want, git_tree_entry_id(entry));
	}
	if (ret == -1)
		error_set(repo_fail_class(rc), "repo: cannot read '%s' at '%s': %s", path, rev,
			repo_git_msg());
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
	rc = repo_resolve_commit(&commit, r->git, rev);
	if (rc == ERROR_NOTFOUND) {
		error_set(ERROR_OS, "repo: cannot list '%s' at '%s': no such revision",
			dir ? dir : "", rev);
		goto done;
	}
	if (rc < 0 || (rc = repo_commit_tree_checked(&root, r->git, commit)) < 0)
		goto git_error;
	tree = root;
	if (dir && *dir && strcmp(dir, ".") != 0) {
		rc = entry_bypath_checked(&entry, r->git, root, dir);
		if (rc < 0 && rc != GIT_ENOTFOUND)
			goto git_error;
		tree = NULL;
		if (rc == 0 && git_tree_entry_type(entry) == GIT_OBJECT_TREE) {
			if ((rc = repo_tree_lookup_checked(&sub, r->git,
				     git_tree_entry_id(entry))) < 0)
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
	error_set(repo_fail_class(rc), "repo: cannot list '%s' at '%s': %s", dir ? dir : "", rev,
		repo_git_msg());
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
	int rc = repo_resolve_commit(&c, r->git, rev);

	git_commit_free(c);
	/* A commit over the limit is there; whoever reads it is refused, with the reason. */
	return rc == 0 || rc == REPO_CRAFTED;
}

/* The commit rev names (repo_resolve_commit) into *c, the failure recorded: 0,
 * ERROR_NOTFOUND (class ERROR_MISSING), REPO_CRAFTED or -1. */
static int commit_at(git_commit **c, struct repo *r, const char *rev)
{
	int rc = repo_resolve_commit(c, r->git, rev);

	if (rc == ERROR_NOTFOUND)
		error_set(ERROR_MISSING, "repo: no commit '%s'", rev);
	else if (rc < 0)
		error_set(repo_fail_class(rc), "repo: cannot resolve '%s': %s", rev,
			repo_git_msg());
	return rc;
}

int repo_commit_id(struct repo *r, const char *rev, char hex[41])
{
	git_commit *c = NULL;
	int rc = commit_at(&c, r, rev);

	hex[0] = '\0';
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
	int rc = commit_at(&c, r, rev);

	buf_clear(out);
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
		error_set(ERROR_OS, "repo: cannot list tags: %s", repo_git_msg());
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
		rc = error_set(ERROR_OS, "repo: cannot list replace refs: %s", repo_git_msg());
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
			repo_git_msg());
	git_status_list_free(list);
	git_index_free(index);
	return ret;
}
