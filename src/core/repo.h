/* repo.h — the campaign's git repository, through libgit2 only (no shelling out).
 * One commit per turn on `main`, a tag per turn, the work tree and index left clean. The
 * only file that includes <git2.h>. Functions follow core's error convention (error.h): 0 on
 * success, ERROR_NOTFOUND where said, -1 on failure with the message (libgit2's own kept)
 * in error_last(). */
#ifndef UMPIRE_REPO_H
#define UMPIRE_REPO_H

#include <stddef.h>
#include "core/buf.h"
#include "core/error.h"
#include "core/file.h"

struct repo;

/* Creates a new repository in dir (dir may exist but must not hold a .git), HEAD → main. */
int repo_init(struct repo **out, const char *dir);
/* Opens the repository whose work tree is dir. Returns ERROR_NOTFOUND when dir holds none. */
int repo_open(struct repo **out, const char *dir);
void repo_free(struct repo *r);
/* For the rest of the process, objects read from any repository are not hashed again to
 * check their ids (libgit2's strict hash verification, on by default, is turned off). Only for
 * a command holding the writer lock of the umpire's own campaign, whose objects this program
 * wrote: zlib's checksum still catches a damaged object, as it does for git, which never
 * hashes what it reads; a clone from elsewhere (verify, replay) keeps the check. 0 / -1. */
int repo_trust_own_objects(void);

/* The first half of a commit: writes the blobs, trees and the commit object for the
 * parent tree (main's tip) plus files, and returns the commit id, without touching the work
 * tree, the index or any ref. The same files, message and time give the same id. */
int repo_build(struct repo *r, const struct file *files, size_t n, const char *message,
	long long when, char commit_hex[41]);
/* The second half (repo_build first): writes files into the work tree, sets the index to the commit's tree,
 * moves main from the commit's parent to the commit (compare-and-swap; nothing to do if it
 * is there already) and creates tag (nothing to do if it points at the commit already).
 * Idempotent, so an interrupted publish is finished by publishing again. */
int repo_publish(struct repo *r, const struct file *files, size_t n, const char *commit_hex,
	const char *tag);

/* Confirms repo_build's objects are on disk: the commit, its tree, the trees on each file's
 * path and the blob the tree names at each file's path (no file hashed again), read (header)
 * through a fresh object database, not libgit2's
 * cache. A full disk or exhausted inodes can make libgit2 report an object written that is
 * not; the journal must never name such a commit. Returns 0 / -1 (says which is missing). */
int repo_objects_stored(struct repo *r, const char *commit_hex, const struct file *files, size_t n);

/* The id the commit would have whose parent is parent_rev's commit and whose tree is the
 * parent's tree with files added or replaced, with message and author/committer time when:
 * computed in memory (a libgit2 mempack), nothing written to the repository. verify uses it
 * to rebuild each turn's commit id from the replayed files. Returns 0 / -1. */
int repo_rebuild_id(struct repo *r, const char *parent_rev, const struct file *files, size_t n,
	const char *message, long long when, char commit_hex[41]);
/* The committer time (seconds) of the commit at rev. Returns 0, ERROR_NOTFOUND when absent, -1. */
int repo_commit_time(struct repo *r, const char *rev, long long *out);

/* The largest objects read from a repository, which may be a crafted clone: every commit,
 * annotated tag, tree and blob read (by any function here) has its size read from its header
 * first, and one over its limit is refused (class ERROR_INPUT, "a crafted repository?")
 * before it is inflated; a tree also has at most REPO_MAX_TREE_ENTRIES entries. umpire's own
 * objects stay far below: a commit holds a subject and three trailers (about 500 bytes), the
 * largest tree an entry per turn (about 45 bytes each: 8 MiB is 180,000 turns). */
#define REPO_MAX_OBJECT_BYTES (32 * 1024 * 1024) /* a blob: one file */
#define REPO_MAX_OBJECT_TEXT "32 MiB"
#define REPO_MAX_COMMIT_BYTES (1024 * 1024) /* a commit or an annotated tag */
#define REPO_MAX_COMMIT_TEXT "1 MiB"
#define REPO_MAX_TREE_BYTES (8 * 1024 * 1024) /* a tree (one directory) */
#define REPO_MAX_TREE_TEXT "8 MiB"
#define REPO_MAX_TREE_ENTRIES 262144 /* entries of one tree */
/* Reads path as of rev ("HEAD", "turn-0003", a commit id; a full id or a reference name,
 * nothing git's revision syntax adds) into out (cleared first), every object on the way
 * size-checked as said above. Returns 0, ERROR_NOTFOUND when rev or path does not exist, -1
 * on error. */
int repo_read(struct repo *r, const char *rev, const char *path, struct buf *out);
/* The blob id (hex) of path as of rev, without reading the blob. Returns 0, ERROR_NOTFOUND
 * when rev or path does not exist, -1 on error (also when path is not a file). */
int repo_file_id(struct repo *r, const char *rev, const char *path, char hex[41]);
/* Whether path as of rev holds exactly the len bytes at bytes, by blob id (the bytes are
 * hashed, the blob is not read). Returns 1 same, 0 different (or not a file), ERROR_NOTFOUND
 * when rev or path does not exist, -1 on error. */
int repo_same_file(struct repo *r, const char *rev, const char *path, const void *bytes,
	size_t len);
/* Lists the file names (not subdirectories) directly in directory dir at rev, sorted by
 * byte order. *names is a NULL-terminated malloc'd array of malloc'd strings (free with
 * repo_names_free); an absent directory gives an empty list. */
int repo_list(struct repo *r, const char *rev, const char *dir, char ***names);
void repo_names_free(char **names);

/* Packs the repository's loose objects, when there are at least min_loose of them, into one
 * new pack (libgit2's packbuilder, deltas among them), then removes the loose copies the pack
 * holds. Objects already packed are left alone, so each call costs the objects written since
 * the last: a 1,000-turn campaign's .git stays proportional to its content instead of holding
 * every turn's rewritten trees whole. Safe at any moment: a loose object is removed only
 * after the pack holding it is written and fsynced. Returns the number of objects packed
 * (0: fewer than min_loose), -1 on failure (the repository is unchanged but for a possible
 * stray pack). */
int repo_pack_loose(struct repo *r, size_t min_loose);
/* repo_pack_loose also moves the loose refs into packed-refs (as git pack-refs does).
 * Packs with fewer objects than this are merged by repo_pack_loose with the loose objects:
 * until issue 24 repo_build wrote each turn's objects as one small pack (repo_build now
 * writes them loose, through libgit2), and the merge keeps their number, and the look-ups
 * through them, bounded. */
#define REPO_SMALL_PACK 1000

/* 1 if rev resolves to a commit, else 0. */
int repo_has(struct repo *r, const char *rev);
/* The commit id (hex) rev points at. Returns 0, ERROR_NOTFOUND when rev does not exist, -1. */
int repo_commit_id(struct repo *r, const char *rev, char hex[41]);
/* The first line of the commit message at rev into out. Returns 0, ERROR_NOTFOUND if absent, -1. */
int repo_subject(struct repo *r, const char *rev, struct buf *out);
/* The whole message of the commit rev names (subject, body, trailers) into out (cleared
 * first). Returns 0, ERROR_NOTFOUND when rev does not exist, -1. */
int repo_message(struct repo *r, const char *rev, struct buf *out);
/* The names of the tags that start with prefix ("turn-"), sorted by byte order; *names as
 * for repo_list (free with repo_names_free). */
int repo_tags(struct repo *r, const char *prefix, char ***names);
/* What would make the git command line show a player other objects than those committed:
 * a replace ref (refs/replace/...) or a grafts file (.git/info/grafts). libgit2 reads the
 * committed objects either way, so verify refuses such a clone rather than pass what git log
 * would show otherwise (tools/umpire-verify.mjs refuses it too). Returns 0 when there is none, 1
 * with *what (a static string) naming it, -1 on error. */
int repo_has_replacements(struct repo *r, const char **what);
#define REPO_MAX_STALE_LOCKS 100
struct timespec;
/* Removes the git lock files (*.lock in the git directory and under refs/: index.lock,
 * HEAD.lock, refs/heads/main.lock, refs/tags/turn-0003.lock...) last modified before
 * `before`. Only for a caller that holds the campaign's writer lock since `before`: no umpire
 * run can have made them since, so they were left by one that was killed (a git command run
 * by hand meanwhile makes newer ones, which are left alone). *removed gets the removed paths,
 * a NULL-terminated malloc'd array (free with repo_names_free), at most
 * REPO_MAX_STALE_LOCKS. Returns 0 / -1. */
int repo_clear_stale_locks(struct repo *r, const struct timespec *before, char ***removed);
/* 1 if the work tree and index equal HEAD (ignored files aside), 0 if not, -1 error. */
int repo_is_clean(struct repo *r);
/* With on, every reference name resolved on this process's handles is remembered (per
 * thread) until the refs are thawed (on 0), repo_set_ref or repo_free, and the trees read
 * last are kept (repo_forget_trees): for a reader that resolves the same tags and reads the
 * same trees many times and moves no ref but through repo_set_ref (verify; issue 38).
 * Nothing else may move a ref while they are frozen. */
void repo_freeze_refs(int on);
/* Forgets every remembered reference name (repo_freeze_refs): a ref was moved. */
void repo_refs_changed(void);
/* Drops this thread's references on the trees kept while the refs are frozen (the last trees
 * read, bounded: repo_read.c) that were read through r (NULL: all); a thread that read with
 * frozen refs calls it with NULL before it ends. */
void repo_forget_trees(const struct repo *r);
/* Points reference name (e.g. "refs/umpire/verified") at commit_hex, creating or moving it.
 * Returns 0 / -1 (ERROR_OS: a read-only clone, say). */
int repo_set_ref(struct repo *r, const char *name, const char *commit_hex);

/* Pushes every tag and main to url (a path or any URL libgit2 can push to) in one push: one
 * connection, one pack, the references updated by the remote in order, tags first and main
 * last (not atomically: a remote may refuse one and take the others; the next push adds what
 * is missing). Never forces: a remote whose main is not an ancestor of ours refuses (class
 * ERROR_INPUT, every refused reference and its reason in the message). A local path that
 * does not exist is first made a bare repository whose HEAD is main. *n_tags gets the number
 * of tags pushed. Idempotent. The push runs in a child process, stopped when the remote
 * keeps silent longer than PUSH_CONNECT_TIMEOUT seconds from each start of a connection until
 * it answers, or PUSH_IDLE_TIMEOUT seconds between two answers (a remote whose hook sleeps):
 * class ERROR_BUSY (exit 75); what the remote took stays, and pushing again adds the rest.
 * $UMPIRE_PUSH_CONNECT_TIMEOUT and $UMPIRE_PUSH_IDLE_TIMEOUT (seconds, 1 to 3600) replace
 * them. Returns 0 / -1. */
#define PUSH_CONNECT_TIMEOUT 30 /* seconds */
#define PUSH_IDLE_TIMEOUT 60    /* seconds: under a cron interval, over a slow pack */
int repo_push_all(struct repo *r, const char *url, size_t *n_tags);
/* repo_push_all, then refs/heads/branch (when not NULL) in a third push once main is in,
 * never forced either (a remote whose branch went elsewhere refuses). */
int repo_push_with(struct repo *r, const char *url, const char *branch, size_t *n_tags);

/* Commits files (every path relative to the tree's top, each a plain file, mode 100644) as
 * the whole tree of a commit on refs/heads/branch, its parent the branch's tip (none: a root
 * commit), with message and author/committer umpire at when (seconds since the epoch); main,
 * the index and the work tree untouched. The same files as the tip's: no commit, the tip's
 * id returned. The branch is moved from the tip it was read at, or not at all. commit_hex
 * gets the id. Returns 0 / -1. */
int repo_commit_branch(struct repo *r, const char *branch, const struct file *files, size_t n,
	const char *message, long long when, char commit_hex[41]);

#endif
