/* file.h — one file of a turn's commit: a repository path and its exact bytes. The journal
 * keeps these rows, git commits them, verify compares them: one struct for all three. */
#ifndef UMPIRE_FILE_H
#define UMPIRE_FILE_H

#include <dirent.h>
#include <stddef.h>
#include <sys/stat.h>
#include <time.h>
#include "core/buf.h"

struct file {
	char *path;          /* repository path: '/' separators, no "..", no leading '/' */
	unsigned char *data; /* the exact bytes; may be NULL when len is 0 */
	size_t len;          /* bytes */
};

/* No symbolic link is followed under a guarded root (issue 25): every function here opens a
 * path below a root given to file_guard (the campaign directory, the Maildir) one component at
 * a time under a directory fd, each with O_NOFOLLOW (openat, mkdirat, renameat, unlinkat),
 * and refuses a link by name: class ERROR_INPUT, errno ELOOP, "'PATH' is a symbolic link:
 * umpire never follows a link inside a campaign or a Maildir (...)". The root itself, and any
 * path outside every root (an order file given on the command line), is opened as the system
 * finds it: links there are the user's own choice. */

/* Guards root (a copy is kept; a trailing '/' is ignored). Up to 8 roots per process. */
void file_guard(const char *root);
/* Forgets every guarded root (tests). */
void file_unguard_all(void);
/* Opens directory dir (O_RDONLY | O_DIRECTORY) as above; with mode, missing directories are
 * made with it. Returns the fd (the caller closes it), or -1 (class ERROR_MISSING when it is
 * not there, ERROR_INPUT for a link, else ERROR_OS; errno kept). */
int file_open_dir(const char *dir, mode_t mode);
/* opendir(dir) through file_open_dir: NULL on failure (error.h). closedir() it. */
DIR *file_opendir(const char *dir);
/* open(path, flags | O_CLOEXEC, mode) as above (O_NOFOLLOW on the last component under a
 * root). Returns the fd or -1 (error.h; errno kept). */
int file_open(const char *path, int flags, mode_t mode);
/* 1 if path itself is a symbolic link (lstat), else 0. */
int file_is_link(const char *path);
/* rename(from, to), each as above (a link at either name refused), nothing synced. 0 / -1. */
int file_rename(const char *from, const char *to);
/* Renames from to to (each as above: a link at either name refused), then syncs both
 * directories. 0 / -1 (ERROR_MISSING when from is gone, ERROR_INPUT for a link, ERROR_OS). */
int file_rename_durable(const char *from, const char *to);
/* 1 if a file stamped t is not newer than before: what a stale-file sweep removes (file times
 * come from the kernel's coarse clock, so a dead run's file can share the tick of the stamp
 * of the lock we took after it). */
int file_not_newer(const struct timespec *t, const struct timespec *before);
/* Removes the temporary files file_write_durable and file_write_atomic name ".NAME.XXXXXX"
 * under dir (and its subdirectories, levels deep: 0 is dir alone) older than before: those a
 * run killed mid-write left. The caller holds the campaign's writer lock, so none is being written.
 * *removed is increased by the count. A missing dir is nothing to do. 0 / -1. */
int file_clear_stale_temps(const char *dir, int levels, const struct timespec *before,
	size_t *removed);

/* Reads the file at path into out (cleared first), refusing one of more than max bytes
 * without reading past max + 1 (untrusted input is bounded before it is read). Returns 0, or
 * -1 with error_last() of class ERROR_MISSING (cannot open), ERROR_INPUT (larger than max)
 * or ERROR_OS (cannot read); errno is left as the failing call set it. */
int file_read(const char *path, size_t max, struct buf *out);
/* file_read, refusing anything but a regular file (a FIFO, device, directory: class
 * ERROR_INPUT, "not a regular file") before reading a byte: it is opened with O_NONBLOCK so a
 * FIFO never blocks, then fstat'ed. *st (may be NULL) gets the opened file's fstat, so a
 * caller can compare its device and inode with a file it must never read. */
int file_read_stat(const char *path, size_t max, struct buf *out, struct stat *st);

/* Appends a copy of path and of len bytes of data to *v (*n entries, grown by one). */
void file_list_add(struct file **v, size_t *n, const char *path, const void *data, size_t len);
/* Frees every path and data of v[0..n-1], then v. */
void file_list_free(struct file *v, size_t n);
/* Sorts v by path in byte order (the order git trees and the journal keep). */
void file_list_sort(struct file *v, size_t n);
/* The entry of v with this path, or NULL. */
const struct file *file_list_find(const struct file *v, size_t n, const char *path);

/* What file_beside_binary looks for. */
enum file_kind {
	FILE_KIND_PROGRAM, /* a regular file umpire may execute */
	FILE_KIND_FILE,    /* a regular file it may read */
	FILE_KIND_DIR      /* a directory */
};

/* Finds a file umpire ships beside its binary (the BLS helper, the web bundles, the rules
 * pages): the first of the n paths rel[], each relative to the directory of the running
 * binary (/proc/self/exe; the build tree's layout first, then the installed one; installed
 * in PREFIX/libexec/umpire/, umpire-core looks from PREFIX/bin/, the front's), that is of
 * the given kind. A new string, its canonical path (realpath: the caller frees it), or NULL
 * when none is; *looked (when not NULL) then gets the paths tried, ", " between them, for the
 * caller's message. No error is set: the caller says what is missing and how to get it. */
char *file_beside_binary(const char *const rel[], size_t n, enum file_kind kind,
	struct buf *looked);
/* 1 when path is of the kind (stat follows a link: these are umpire's own files), else 0. */
int file_is_kind(const char *path, enum file_kind kind);

/* mkdir -p: dir and every directory above it (new ones with mode). 0 / -1 (ERROR_OS). */
int file_mkdir_p(const char *dir, mode_t mode);
/* Writes dir/name durably: dir made (0700) if need be, a temporary file ".name.XXXXXX" in
 * dir, fsync, rename over name, fsync dir. A crash leaves the old file or the new one (and
 * perhaps the temporary file: file_clear_stale_temps). A link at name under a guarded root
 * is refused. 0 / -1. */
int file_write_durable(const char *dir, const char *name, const void *data, size_t len);
/* file_write_durable without its two fsyncs: the same temporary file (O_EXCL, no link
 * followed) renamed over name, so a reader sees the old file or the new one whole; but after
 * a crash of the machine (not of the program) the file may be the old one, the new one, none,
 * or one of the new length whose bytes never reached the disk. Right only for a cache whose
 * loss costs no more than work again, and whose reader takes nothing but the exact bytes it
 * would write now as valid (e.g. a whole line compared, its final newline included). 0 / -1
 * as file_write_durable. */
int file_write_atomic(const char *dir, const char *name, const void *data, size_t len);
/* Removes dir/name, if it is there, and syncs dir: a file a crashed run wrote that the rerun
 * must not leave behind. Returns 1 removed, 0 it was not there, -1 (error.h). */
int file_remove_durable(const char *dir, const char *name);

#endif
