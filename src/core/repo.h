/* repo.h — the campaign's git repository, through libgit2 only (no shelling out).
 * One commit per turn on `main`, a tag `turn-NNNN` per turn, the work tree and index left
 * clean. The only file that includes <git2.h>. All functions return 0 on success, -1 on
 * failure with a one-line message in err (libgit2's own message kept). */
#ifndef UMPIRE_REPO_H
#define UMPIRE_REPO_H

#include <stddef.h>
#include "core/buf.h"

struct repo;

struct repo_file {
	const char *path;      /* repository path with '/' separators, no "..", no leading '/' */
	const void *data;
	size_t len;
};

/* Creates a new repository in dir (dir may exist but must not hold a .git), HEAD → main. */
int repo_init(struct repo **out, const char *dir, struct buf *err);
/* Opens the repository whose work tree is dir. Returns 1 (no message) when dir holds none. */
int repo_open(struct repo **out, const char *dir, struct buf *err);
void repo_free(struct repo *r);

/* Writes files into the work tree (each atomically: temp file + rename, directories made),
 * stages exactly them, commits on main with message (parent = current HEAD, none for the
 * first), author and committer "umpire <umpire@localhost>" at time `when` (seconds, UTC),
 * and creates the annotated-free lightweight tag `tag`. commit_hex receives the commit id.
 * Files of the parent tree not named are kept. */
int repo_commit(struct repo *r, const struct repo_file *files, size_t n, const char *message,
	const char *tag, long long when, char commit_hex[41], struct buf *err);

/* The first half of repo_commit: writes the blobs, trees and the commit object for the
 * parent tree (main's tip) plus files, and returns the commit id, without touching the work
 * tree, the index or any ref. The same files, message and time give the same id. */
int repo_build(struct repo *r, const struct repo_file *files, size_t n, const char *message,
	long long when, char commit_hex[41], struct buf *err);
/* The second half: writes files into the work tree, sets the index to the commit's tree,
 * moves main from the commit's parent to the commit (compare-and-swap; nothing to do if it
 * is there already) and creates tag (nothing to do if it points at the commit already).
 * Idempotent, so an interrupted publish is finished by publishing again. */
int repo_publish(struct repo *r, const struct repo_file *files, size_t n,
	const char *commit_hex, const char *tag, struct buf *err);

/* The id the commit would have whose parent is parent_rev's commit and whose tree is the
 * parent's tree with files added or replaced, with message and author/committer time when:
 * computed in memory (a libgit2 mempack), nothing written to the repository. verify uses it
 * to rebuild each turn's commit id from the replayed files. Returns 0 / -1. */
int repo_rebuild_id(struct repo *r, const char *parent_rev, const struct repo_file *files,
	size_t n, const char *message, long long when, char commit_hex[41], struct buf *err);
/* The committer time (seconds) of the commit at rev. Returns 0, 1 absent, -1 error. */
int repo_commit_time(struct repo *r, const char *rev, long long *out, struct buf *err);


/* Reads path as of rev ("HEAD", "turn-0003", a commit id) into out (cleared first).
 * Returns 0, 1 when rev or path does not exist (no message), -1 on error. */
int repo_read(struct repo *r, const char *rev, const char *path, struct buf *out,
	struct buf *err);
/* Lists the file names (not subdirectories) directly in directory dir at rev, sorted by
 * byte order. *names is a NULL-terminated malloc'd array of malloc'd strings (free with
 * repo_names_free); an absent directory gives an empty list. */
int repo_list(struct repo *r, const char *rev, const char *dir, char ***names,
	struct buf *err);
void repo_names_free(char **names);

/* 1 if rev resolves to a commit, else 0. */
int repo_has(struct repo *r, const char *rev);
/* The commit id (hex) rev points at. Returns 0, 1 when rev does not exist, -1 error. */
int repo_commit_id(struct repo *r, const char *rev, char hex[41], struct buf *err);
/* The first line of the commit message at rev into out. Returns 0, 1 if absent, -1. */
int repo_subject(struct repo *r, const char *rev, struct buf *out, struct buf *err);
/* The whole message of the commit rev names (subject, body, trailers) into out (cleared
 * first). Returns 0, 1 when rev does not exist (no message), -1 on error. */
int repo_message(struct repo *r, const char *rev, struct buf *out, struct buf *err);
/* The names of the tags that start with prefix ("turn-"), sorted by byte order; *names as
 * for repo_list (free with repo_names_free). */
int repo_tags(struct repo *r, const char *prefix, char ***names, struct buf *err);
/* 1 if the work tree and index equal HEAD (ignored files aside), 0 if not, -1 error. */
int repo_is_clean(struct repo *r, struct buf *err);

#endif
