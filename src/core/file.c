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

int file_mkdir_p(const char *dir, mode_t mode)
{
	char *p = xstrdup(dir);
	int rc = 0;

	for (char *s = p + 1; *s && rc == 0; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST)
			rc = fail_keep_errno(ERROR_OS, "cannot create directory", p);
		*s = '/';
	}
	if (rc == 0 && mkdir(p, mode) < 0 && errno != EEXIST)
		rc = fail_keep_errno(ERROR_OS, "cannot create directory", p);
	free(p);
	return rc;
}

/* Writes all of data to fd. 0 / -1 (errno set). */
static int write_all(int fd, const unsigned char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int file_write_durable(const char *dir, const char *name, const void *data, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *tmp = xasprintf("%s/.%s.XXXXXX", dir, name);
	int fd = -1, dfd = -1, rc = -1;

	if (file_mkdir_p(dir, 0700) < 0)
		goto done;
	fd = mkstemp(tmp);
	if (fd < 0) {
		fail_keep_errno(ERROR_OS, "cannot create a temporary file in", dir);
		goto done;
	}
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		fail_keep_errno(ERROR_OS, "cannot write", tmp);
		goto done;
	}
	close(fd);
	fd = -1;
	if (rename(tmp, path) < 0) {
		fail_keep_errno(ERROR_OS, "cannot rename into", path);
		goto done;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd) < 0) {
		fail_keep_errno(ERROR_OS, "cannot sync directory", dir);
		goto done;
	}
	rc = 0;
done:
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	if (rc < 0)
		unlink(tmp);
	free(tmp);
	free(path);
	return rc;
}

int file_remove_durable(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	int dfd = -1, rc = 1;

	if (unlink(path) < 0) {
		rc = errno == ENOENT ? 0 : fail_keep_errno(ERROR_OS, "cannot remove", path);
		goto done;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd) < 0)
		rc = fail_keep_errno(ERROR_OS, "cannot sync directory", dir);
done:
	if (dfd >= 0)
		close(dfd);
	free(path);
	return rc;
}
