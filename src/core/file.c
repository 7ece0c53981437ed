/* file.c — lists of the files of a turn's commit (file.h): copies, lookup and the byte order
 * of paths that git trees and the journal both keep. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* What a file that is not regular is, in words. */
static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	return "not a plain file";
}

int file_read_stat(const char *path, size_t max, struct buf *out, struct stat *st)
{
	char chunk[8192];
	ssize_t n = 0;
	struct stat own;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	buf_clear(out);
	if (!st)
		st = &own;
	if (fd < 0)
		return fail_keep_errno(ERROR_MISSING, "cannot open", path);
	if (fstat(fd, st) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return fail_keep_errno(ERROR_OS, "cannot stat", path);
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return error_set(ERROR_INPUT,
			"file is not a regular file (it is %s; a regular file expected)",
			file_kind(st->st_mode));
	}
	while (out->len <= max && (n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		buf_append(out, chunk, (size_t)n);
	}
	int e = errno;
	close(fd);
	if (out->len > max)
		return error_set(ERROR_INPUT,
			"file is larger than %zu bytes (a smaller file expected)", max);
	errno = e;
	if (n < 0)
		return fail_keep_errno(ERROR_OS, "cannot read", path);
	return 0;
}

int file_read(const char *path, size_t max, struct buf *out)
{
	return file_read_stat(path, max, out, NULL);
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
