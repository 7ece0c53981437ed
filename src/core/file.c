/* file.c — lists of the files of a turn's commit (file.h): copies, lookup and the byte order
 * of paths that git trees and the journal both keep. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/error.h"
#include "core/file.h"
#include "core/banned.h"

/* error_set keeping errno for the caller's own message. */
static int fail_keep_errno(enum error_class klass, const char *what, const char *path)
{
	int e = errno;

	error_set(klass, "%s '%s': %s", what, path, strerror(e));
	errno = e;
	return -1;
}

int file_read(const char *path, size_t max, struct buf *out)
{
	char chunk[8192];
	size_t n;
	FILE *f = fopen(path, "rb");

	buf_clear(out);
	if (!f)
		return fail_keep_errno(ERROR_MISSING, "cannot open", path);
	while (out->len <= max && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(out, chunk, n);
	int bad = ferror(f);
	fclose(f);
	if (out->len > max)
		return error_set(ERROR_INPUT,
			"file is larger than %zu bytes (a smaller file expected)", max);
	if (bad)
		return fail_keep_errno(ERROR_OS, "cannot read", path);
	return 0;
}

void file_list_add(struct file **v, size_t *n, const char *path, const void *data, size_t len)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].path = xstrdup(path);
	(*v)[*n].data = xmalloc(len ? len : 1);
	if (len)
		memcpy((*v)[*n].data, data, len);
	(*v)[*n].len = len;
	(*n)++;
}

void file_list_free(struct file *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].data);
	}
	free(v);
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct file *)a)->path, ((const struct file *)b)->path);
}

void file_list_sort(struct file *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_path);
}

const struct file *file_list_find(const struct file *v, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].path, path) == 0)
			return &v[i];
	return NULL;
}
