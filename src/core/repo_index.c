/* repo_index.c — git's index of the campaign's work tree, kept equal to main's tree after each
 * publish: the record of which commit it holds (.git/umpire-index), the proof that a commit
 * is its parent plus the turn's files, and the entries of those files added with the stat
 * data of the files just written. Through libgit2's git_index only (repo.c publishes). */
#include "core/repo_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/banned.h"

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
void repo_index_record(const struct repo *r, const git_oid *id)
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
		     git_odb_hash(&blob, files[i].data, files[i].len, GIT_OBJECT_BLOB) == 0 &&
		     git_oid_equal(&blob, git_tree_entry_id(e));
		git_tree_entry_free(e);
	}
	return ok && diff_is_files(git, parent_tree, tree, "", files, n, 0);
}

/* Whether commit is the one repo_build built in this process on its parent from these files
 * (the same paths and bytes, in the same order, compared: its blobs, without hashing them
 * again, most of a big turn's publish): then its tree is the parent's with files written
 * over it, with no tree read or compared. 1 yes, 0 no. */
int repo_built_here(const struct repo *r, git_commit *commit, const struct file *files, size_t n)
{
	int same = n == r->built_n && git_commit_parentcount(commit) == 1 &&
		   git_oid_equal(&r->built, git_commit_id(commit)) &&
		   git_oid_equal(&r->built_parent, git_commit_parent_id(commit, 0));

	for (size_t i = 0; same && i < n; i++) {
		const struct file *b = &r->built_files[i];
		same = strcmp(files[i].path, b->path) == 0 && files[i].len == b->len &&
		       (!b->len || memcmp(files[i].data, b->data, b->len) == 0);
	}
	return same;
}

/* The index entry of the work-tree file f, just written: its stat data, mode 100644 and the
 * blob tree names at its path, or blob when not NULL (repo_build's, for the commit it built
 * from these files: no tree read). 0 ok, -1 (not a regular file, not in tree). */
static int index_entry_of(git_index_entry *e, const struct repo *r, git_tree *tree,
	const struct file *f, const git_oid *blob)
{
	git_tree_entry *te = NULL;
	struct stat st;
	char *full = xasprintf("%s%s", r->workdir, f->path);
	int ok = lstat(full, &st) == 0 && S_ISREG(st.st_mode) &&
		 (blob || git_tree_entry_bypath(&te, tree, f->path) == 0);

	free(full);
	memset(e, 0, sizeof(*e));
	if (ok) {
		e->ctime.seconds = (int32_t)st.st_ctim.tv_sec;
		e->ctime.nanoseconds = (uint32_t)st.st_ctim.tv_nsec;
		e->mtime.seconds = (int32_t)st.st_mtim.tv_sec;
		e->mtime.nanoseconds = (uint32_t)st.st_mtim.tv_nsec;
		e->dev = (uint32_t)st.st_dev;
		e->ino = (uint32_t)st.st_ino;
		e->mode = GIT_FILEMODE_BLOB;
		e->uid = (uint32_t)st.st_uid;
		e->gid = (uint32_t)st.st_gid;
		e->file_size = (uint32_t)st.st_size;
		e->path = f->path;
		git_oid_cpy(&e->id, blob ? blob : git_tree_entry_id(te));
	}
	git_tree_entry_free(te);
	return ok ? 0 : -1;
}

/* Adds the files just written to the work tree to index (stat data refreshed, so `git status`
 * sees them unchanged). Known: each file's bytes were shown to be the blob tree names at its
 * path, which is taken with the stat data of the file just written (index_entry_of; here:
 * the commit is the one repo_build built from these files, whose blobs it kept); else
 * libgit2 reads and hashes each file again. 0 ok, -1 libgit2 error. */
static int index_add_files(const struct repo *r, git_index *index, git_tree *tree,
	const struct file *files, size_t n, int known, int here)
{
	for (size_t i = 0; i < n; i++) {
		git_index_entry e;
		const git_oid *blob = here && r->built_blobs ? &r->built_blobs[i] : NULL;
		if (known && index_entry_of(&e, r, tree, &files[i], blob) == 0) {
			if (git_index_add(index, &e) < 0)
				return -1;
		} else if (git_index_add_bypath(index, files[i].path) < 0) {
			return -1;
		}
	}
	return 0;
}

/* Makes index hold exactly the tree of commit, whose files are its parent's plus these. An
 * index recorded (INDEX_RECORD) as holding the parent's tree, or this commit's, unchanged
 * since, needs only these paths added, once the two trees are known to differ by these files
 * alone (repo_built_here, or shown by descending only into the directories that differ); no
 * whole-tree read, so the cost does not grow with the campaign's history. Any other
 * index (a stale one, a crash before this point, staged changes) is read anew from the whole
 * tree. 0 ok, -1 libgit2 error. */
int repo_index_to_tree(const struct repo *r, git_index *index, git_commit *commit, git_tree *tree,
	const struct file *files, size_t n)
{
	git_tree *parent_tree = NULL;
	int same = 0, known = 0, here = repo_built_here(r, commit, files, n);

	if (git_index_read(index, 0) < 0)
		return -1;
	if (index_holds(r, index, git_commit_id(commit)))
		same = 1;
	else if (git_commit_parentcount(commit) > 0 &&
		 index_holds(r, index, git_commit_parent_id(commit, 0))) {
		git_commit *parent = NULL;
		same = known = here || (git_commit_parent(&parent, commit, 0) == 0 &&
					       git_commit_tree(&parent_tree, parent) == 0 &&
					       tree_is_parent_plus(git_commit_owner(commit),
						       parent_tree, tree, files, n));
		git_tree_free(parent_tree);
		git_commit_free(parent);
	}
	if (!same && git_index_read_tree(index, tree) < 0)
		return -1;
	return index_add_files(r, index, tree, files, n, known, here && known);
}
