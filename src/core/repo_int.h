/* repo_int.h — what the files of the repository module (repo.c: writing, repo_index.c: the
 * work tree's index, repo_read.c: reading with size limits, repo_push.c: publishing) share,
 * and no one else includes: the handle's insides and the checked readers. The only header
 * that includes <git2.h>. */
#ifndef UMPIRE_REPO_INT_H
#define UMPIRE_REPO_INT_H

#include <git2.h>
#include "core/error.h"
#include "core/repo.h"

#define REPO_BRANCH "refs/heads/main"

/* A tree repo_build wrote: its directory's path and id. */
struct built_tree {
	char *path;
	git_oid id;
};

struct repo {
	git_repository *git; /* the open repository */
	char *workdir;       /* its work tree, with a trailing '/' */
	char *gitdir;        /* its .git directory, with a trailing '/' */
	/* The commit repo_build last built in this process, on which parent and from which
	 * files (NULL: none): its tree is known to be the parent's with the files written over
	 * it, which publish need not check again. */
	git_oid built, built_parent;
	struct file *built_files; /* a copy of the files (NULL: none built on a parent) */
	size_t built_n;           /* how many */
	git_oid *built_blobs;     /* the blob of each of built_files, in their order */
	/* The trees that build wrote below the root, each with its directory's path ("journal",
	 * "reports/turn-0003"): the ones on the files' paths, so repo_objects_stored and publish
	 * need not read them back (at turn 1,000 the flat journal/ tree is 100 KB to inflate). */
	struct built_tree *built_trees;
	size_t built_n_trees;
	/* repo_rebuild_id's second handle on the repository, its writes in rebuild_pack (in
	 * memory, emptied after each rebuild); kept open so its object cache serves the next
	 * turn's rebuild (verify rebuilds every commit). NULL until the first rebuild. */
	git_repository *rebuild;
	git_odb_backend *rebuild_pack;
};

/* libgit2's message for the last failure on this thread, kept verbatim; never NULL. */
const char *repo_git_msg(void);

/* Writes all len bytes of data to fd, retrying after a signal. 0, or -1 with errno set. */
int repo_write_all(int fd, const void *data, size_t len);

/* What repo_object_checked returns for an object over its type's limit or of the wrong type
 * (a crafted repository: class ERROR_INPUT), beside -1 for a libgit2 failure (ERROR_OS).
 * Either way repo_git_msg() says what. */
#define REPO_CRAFTED (-2)

/* Reads id's header (its type and size: nothing inflated past the first bytes) and refuses
 * an object over its type's limit (REPO_MAX_*), or not of type want (GIT_OBJECT_ANY: any),
 * before anything reads it whole. *type gets its type (may be NULL). Returns 0,
 * GIT_ENOTFOUND when absent, REPO_CRAFTED or -1 (repo_git_msg()). */
int repo_object_checked(git_repository *git, const git_oid *id, git_object_t want,
	git_object_t *type);
/* The tree id names, header-checked first and holding at most REPO_MAX_TREE_ENTRIES entries
 * (*out the caller's). Returns 0, REPO_CRAFTED or -1 (an absent tree is -1). */
int repo_tree_lookup_checked(git_tree **out, git_repository *git, const git_oid *id);
/* The commit's tree, checked as repo_tree_lookup_checked. */
int repo_commit_tree_checked(git_tree **out, git_repository *git, const git_commit *commit);
/* The commit rev names (a full id or a reference name, optionally ^N), every object on the
 * way header-checked. 0, ERROR_NOTFOUND (no message), REPO_CRAFTED or -1 (repo_git_msg()). */
int repo_resolve_commit(git_commit **out, git_repository *git, const char *rev);
/* The error class of a failure rc from the checked readers: a crafted object is bad input. */
enum error_class repo_fail_class(int rc);

/* repo_index.c. Whether commit is the one repo_build built in this process on its parent
 * from these files (the same paths and bytes, in the same order): then its tree is the
 * parent's with files written over it, and r->built_blobs and r->built_trees are its. */
int repo_built_here(const struct repo *r, git_commit *commit, const struct file *files, size_t n);
/* Makes index hold exactly the tree of commit, whose files are its parent's plus these
 * (repo_index.c says how it avoids reading the whole tree). 0 ok, -1 libgit2 error. */
int repo_index_to_tree(const struct repo *r, git_index *index, git_commit *commit, git_tree *tree,
	const struct file *files, size_t n);
/* Records in .git/umpire-index that the index just written holds commit id's tree. Best
 * effort: a record not written only makes the next publish take the slow path. */
void repo_index_record(const struct repo *r, const git_oid *id);

#endif
