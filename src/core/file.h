/* file.h — one file of a turn's commit: a repository path and its exact bytes. The journal
 * keeps these rows, git commits them, verify compares them: one struct for all three. */
#ifndef UMPIRE_FILE_H
#define UMPIRE_FILE_H

#include <stddef.h>

struct file {
	char *path;           /* repository path: '/' separators, no "..", no leading '/' */
	unsigned char *data;  /* the exact bytes; may be NULL when len is 0 */
	size_t len;           /* bytes */
};

/* Appends a copy of path and of len bytes of data to *v (*n entries, grown by one). */
void file_list_add(struct file **v, size_t *n, const char *path, const void *data, size_t len);
/* Frees every path and data of v[0..n-1], then v. */
void file_list_free(struct file *v, size_t n);
/* Sorts v by path in byte order (the order git trees and the journal keep). */
void file_list_sort(struct file *v, size_t n);
/* The entry of v with this path, or NULL. */
const struct file *file_list_find(const struct file *v, size_t n, const char *path);

#endif
