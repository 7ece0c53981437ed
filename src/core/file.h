/* file.h — one file of a turn's commit: a repository path and its exact bytes. The journal
 * keeps these rows, git commits them, verify compares them: one struct for all three. */
#ifndef UMPIRE_FILE_H
#define UMPIRE_FILE_H

#include <stddef.h>
#include <sys/stat.h>
#include "core/buf.h"

struct file {
	char *path;          /* repository path: '/' separators, no "..", no leading '/' */
	unsigned char *data; /* the exact bytes; may be NULL when len is 0 */
	size_t len;          /* bytes */
};

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

/* mkdir -p: dir and every directory above it (new ones with mode). 0 / -1 (ERROR_OS). */
int file_mkdir_p(const char *dir, mode_t mode);
/* Writes dir/name durably: dir made (0700) if need be, a temporary file in dir, fsync,
 * rename over name, fsync dir. A crash leaves the old file or the new one. 0 / -1. */
int file_write_durable(const char *dir, const char *name, const void *data, size_t len);
/* Removes dir/name, if it is there, and syncs dir: a file a crashed run wrote that the rerun
 * must not leave behind. Returns 1 removed, 0 it was not there, -1 (error.h). */
int file_remove_durable(const char *dir, const char *name);

#endif
