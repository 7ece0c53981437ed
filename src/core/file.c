/* file.c — lists of the files of a turn's commit (file.h): copies, lookup and the byte order
 * of paths that git trees and the journal both keep. */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/file.h"
#include "core/banned.h"

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
