/* file.c — reading and writing files (file.h): bounded reads, durable writes and renames that
 * never follow a symbolic link under a guarded root (the campaign, the Maildir), and lists of
 * the files of a turn's commit in the byte order of paths that git trees and the journal keep. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <limits.h>
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

/* The first n bytes of s, NUL-terminated (free it). */
static char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
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

/* mkdir -p as the system finds the path (above any guarded root). */
static int file_mkdir_plain(const char *dir, mode_t mode)
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

/* --- no symbolic link under a guarded root ------------------------------------------------ */

#define FILE_MAX_GUARDS 8
static char *guards[FILE_MAX_GUARDS]; /* guarded roots, no trailing '/' */
static size_t n_guards;

static void guard_one(const char *root)
{
	size_t len = strlen(root);

	while (len > 1 && root[len - 1] == '/')
		len--;
	for (size_t i = 0; i < n_guards; i++)
		if (strlen(guards[i]) == len && memcmp(guards[i], root, len) == 0)
			return;
	if (n_guards < FILE_MAX_GUARDS)
		guards[n_guards++] = xstrndup(root, len);
}

void file_guard(const char *root)
{
	/* Both spellings: the one commands build paths from, and the real path libgit2 gives
	 * the work tree as. */
	char *real = realpath(root, NULL);

	guard_one(root);
	if (real)
		guard_one(real);
	free(real);
}

void file_unguard_all(void)
{
	for (size_t i = 0; i < n_guards; i++)
		free(guards[i]);
	n_guards = 0;
}

/* The length of the guarded root path lies under, or 0. The longest wins. */
static size_t guarded_by(const char *path)
{
	size_t best = 0;

	for (size_t i = 0; i < n_guards; i++) {
		size_t len = strlen(guards[i]);
		if (len > best && strncmp(path, guards[i], len) == 0 &&
			(path[len] == '/' || path[len] == '\0'))
			best = len;
	}
	return best;
}

/* 1 if path lies strictly below a guarded root (a root itself is opened as found). */
static int under_guard(const char *path)
{
	size_t root = guarded_by(path), end = strlen(path);

	while (end > 1 && path[end - 1] == '/')
		end--;
	return root && root < end;
}

/* "'path' is a symbolic link ...": the refusal by name (ERROR_INPUT, errno ELOOP). */
static int refuse_link(const char *path, size_t len)
{
	error_set(ERROR_INPUT,
		"'%.*s' is a symbolic link: umpire never follows a link inside a campaign or a Maildir (replace it with the file or directory itself)",
		(int)len, path);
	errno = ELOOP;
	return -1;
}

/* Opens the directory holding the last component of path (the whole of path when whole),
 * walking every component below a guarded root with O_NOFOLLOW (a link refused by name);
 * with mode, missing directories are made (mkdirat, mode). *leaf points at the last
 * component (NULL when whole). Outside every guarded root, the directory is opened as the
 * system finds it. Returns the directory fd, or -1 (error.h; errno kept). */
static int open_parent(const char *path, int whole, mode_t mode, const char **leaf)
{
	size_t root = guarded_by(path), end = strlen(path);
	int dfd;

	while (end > 1 && path[end - 1] == '/')
		end--;
	size_t last = end;
	if (!whole) {
		while (last > 0 && path[last - 1] != '/')
			last--;
		*leaf = path + last;
	}
	/* the root itself as the leaf: opened as the system finds it, as roots are */
	if (!whole && root >= last)
		root = 0;
	if (!whole && last == 0) {
		dfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		return dfd < 0 ? fail_keep_errno(ERROR_OS, "cannot open directory", ".") : dfd;
	}
	/* what lies above the walk: the guarded root, or (unguarded) the whole directory */
	size_t top = root ? root : (whole ? end : last);
	char *dir = xstrndup(path, top ? top : 1);
	if (mode && !root && file_mkdir_plain(dir, mode) < 0) {
		free(dir);
		return -1;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		int e = errno;
		error_set(e == ENOENT ? ERROR_MISSING : ERROR_OS, "cannot open directory '%s': %s",
			dir, strerror(e));
		errno = e;
	}
	free(dir);
	size_t stop = whole ? end : last;
	for (size_t at = top; dfd >= 0 && at < stop;) {
		while (at < stop && path[at] == '/')
			at++;
		size_t n = 0;
		while (at + n < stop && path[at + n] != '/')
			n++;
		if (n == 0)
			break;
		char *comp = xstrndup(path + at, n);
		int nd = -1;
		if (strcmp(comp, ".") == 0) {
			free(comp);
			at += n;
			continue;
		}
		if (strcmp(comp, "..") == 0) {
			error_set(ERROR_INPUT,
				"'%s' goes up with '..' inside a campaign or a Maildir", path);
			errno = EINVAL;
		} else {
			nd = openat(dfd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (nd < 0 && errno == ENOENT && mode &&
				(mkdirat(dfd, comp, mode) == 0 || errno == EEXIST))
				nd = openat(dfd, comp,
					O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (nd < 0) {
				int e = errno;
				struct stat st;
				if (fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
					S_ISLNK(st.st_mode))
					refuse_link(path, at + n);
				else {
					error_set(e == ENOENT ? ERROR_MISSING : ERROR_OS,
						"cannot open directory '%.*s': %s", (int)(at + n),
						path, strerror(e));
					errno = e;
				}
			}
		}
		free(comp);
		int e = errno;
		close(dfd);
		errno = e;
		dfd = nd;
		at += n;
	}
	return dfd;
}

int file_open_dir(const char *dir, mode_t mode)
{
	return open_parent(dir, 1, mode, NULL);
}

DIR *file_opendir(const char *dir)
{
	int fd = file_open_dir(dir, 0);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (fd >= 0 && !d) {
		int e = errno;
		close(fd);
		errno = e;
		fail_keep_errno(ERROR_OS, "cannot list", dir);
	}
	return d;
}

int file_open(const char *path, int flags, mode_t mode)
{
	const char *leaf = NULL;
	int dfd = open_parent(path, 0, 0, &leaf), fd = -1;

	if (dfd < 0)
		return -1;
	fd = openat(dfd, leaf, flags | O_CLOEXEC | (under_guard(path) ? O_NOFOLLOW : 0), mode);
	if (fd < 0) {
		int e = errno;
		struct stat st;
		if (e == ELOOP && fstatat(dfd, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			S_ISLNK(st.st_mode))
			refuse_link(path, strlen(path));
		else
			fail_keep_errno(e == ENOENT ? ERROR_MISSING : ERROR_OS, "cannot open",
				path);
		errno = e;
	}
	int e = errno;
	close(dfd);
	errno = e;
	return fd;
}

int file_is_link(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

int file_read_stat(const char *path, size_t max, struct buf *out, struct stat *st)
{
	char chunk[8192];
	ssize_t n = 0;
	struct stat own;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it. */
	int fd = file_open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0);

	buf_clear(out);
	if (!st)
		st = &own;
	/* a link or a '..' refused by name: that refusal is the message */
	if (fd < 0 && (errno == ELOOP || errno == EINVAL) && error_last()->klass == ERROR_INPUT)
		return -1;
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
	int fd = file_open_dir(dir, mode);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
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

/* A fresh temporary name for name in dfd, created (O_EXCL, 0600): ".NAME.XXXXXX", the
 * pattern file_clear_stale_temps knows. Returns the fd, or -1 (errno). */
static int create_temp(int dfd, const char *name, char **tmp)
{
	static const char digits[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static unsigned long counter;
	unsigned long v = (unsigned long)getpid() * 7919u;

	for (int tries = 0; tries < 1000; tries++) {
		unsigned long x = v + ++counter * 104729u;
		char suffix[7];
		for (int i = 0; i < 6; i++, x /= 62)
			suffix[i] = digits[x % 62];
		suffix[6] = '\0';
		*tmp = xasprintf(".%s.%s", name, suffix);
		int fd = openat(dfd, *tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
		free(*tmp);
		*tmp = NULL;
	}
	errno = EEXIST;
	return -1;
}

/* 1 if name in dfd is a symbolic link. */
static int link_at(int dfd, const char *name)
{
	struct stat st;

	return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
}

/* close(fd) unless fd is -1 (never opened). */
static void close_open(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* file_write_durable, and file_write_atomic without sync: the file's bytes and the folder's
 * entry are fsynced only with sync. */
static int write_via_temp(const char *dir, const char *name, const void *data, size_t len, int sync)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *tmp = NULL;
	int fd = -1, dfd = file_open_dir(dir, 0700), rc = -1;

	if (dfd < 0)
		goto done;
	if (under_guard(path) && link_at(dfd, name)) {
		refuse_link(path, strlen(path));
		goto done;
	}
	fd = create_temp(dfd, name, &tmp);
	if (fd < 0) {
		fail_keep_errno(ERROR_OS, "cannot create a temporary file in", dir);
		goto done;
	}
	if (write_all(fd, data, len) < 0 || (sync && fsync(fd) < 0)) {
		fail_keep_errno(ERROR_OS, "cannot write a temporary file in", dir);
		goto done;
	}
	close(fd);
	fd = -1;
	if (renameat(dfd, tmp, dfd, name) < 0) {
		fail_keep_errno(ERROR_OS, "cannot rename into", path);
		goto done;
	}
	if (sync && fsync(dfd) < 0) {
		fail_keep_errno(ERROR_OS, "cannot sync directory", dir);
		goto done;
	}
	rc = 0;
done:
	close_open(fd);
	if (rc < 0 && tmp && dfd >= 0)
		unlinkat(dfd, tmp, 0);
	close_open(dfd);
	free(tmp);
	free(path);
	return rc;
}

int file_write_durable(const char *dir, const char *name, const void *data, size_t len)
{
	return write_via_temp(dir, name, data, len, 1);
}

int file_write_atomic(const char *dir, const char *name, const void *data, size_t len)
{
	return write_via_temp(dir, name, data, len, 0);
}

/* file_rename, and with sync both directories fsynced after. */
static int rename_at(const char *from, const char *to, int sync)
{
	const char *from_leaf = NULL, *to_leaf = NULL;
	int fdir = open_parent(from, 0, 0, &from_leaf), tdir = -1, rc = -1;

	if (fdir < 0)
		goto done;
	tdir = open_parent(to, 0, 0, &to_leaf);
	if (tdir < 0)
		goto done;
	if (under_guard(from) && link_at(fdir, from_leaf)) {
		refuse_link(from, strlen(from));
		goto done;
	}
	if (under_guard(to) && link_at(tdir, to_leaf)) {
		refuse_link(to, strlen(to));
		goto done;
	}
	if (renameat(fdir, from_leaf, tdir, to_leaf) < 0) {
		int e = errno;
		error_set(e == ENOENT ? ERROR_MISSING : ERROR_OS, "cannot move '%s' to '%s': %s",
			from, to, strerror(e));
		errno = e;
		goto done;
	}
	if (sync && (fsync(tdir) < 0 || fsync(fdir) < 0)) {
		fail_keep_errno(ERROR_OS, "cannot sync the directories of", to);
		goto done;
	}
	rc = 0;
done:
	close_open(fdir);
	close_open(tdir);
	return rc;
}

int file_rename(const char *from, const char *to)
{
	return rename_at(from, to, 0);
}

int file_rename_durable(const char *from, const char *to)
{
	return rename_at(from, to, 1);
}

/* 1 if name is one of write_via_temp's temporary files: ".NAME.XXXXXX". */
static int is_temp_name(const char *name)
{
	size_t len = strlen(name);

	if (len < 9 || name[0] != '.' || name[len - 7] != '.')
		return 0;
	for (size_t i = len - 6; i < len; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
			    (name[i] >= '0' && name[i] <= '9')))
			return 0;
	return 1;
}

int file_not_newer(const struct timespec *t, const struct timespec *before)
{
	return t->tv_sec < before->tv_sec ||
	       (t->tv_sec == before->tv_sec && t->tv_nsec <= before->tv_nsec);
}

/* The stale temporary files under dfd (depth levels down, at most levels), removed. */
static int clear_temps_at(int dfd, const char *dir, int depth, int levels,
	const struct timespec *before, size_t *removed)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;
	int rc = 0;

	if (!d) {
		close(dfd);
		return fail_keep_errno(ERROR_OS, "cannot list", dir);
	}
	while (rc == 0 && (e = readdir(d))) {
		struct stat st;
		/* below levels only a temporary file's name is looked at: no stat of each */
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
			(depth >= levels && !is_temp_name(e->d_name)) ||
			fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth < levels) {
			int sub = openat(dirfd(d), e->d_name,
				O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			char *path = xasprintf("%s/%s", dir, e->d_name);
			if (sub >= 0)
				rc = clear_temps_at(sub, path, depth + 1, levels, before, removed);
			free(path);
		} else if (S_ISREG(st.st_mode) && is_temp_name(e->d_name) &&
			   file_not_newer(&st.st_mtim, before)) {
			if (unlinkat(dirfd(d), e->d_name, 0) < 0 && errno != ENOENT)
				rc = error_set(ERROR_OS, "cannot remove '%s/%s': %s", dir,
					e->d_name, strerror(errno));
			else
				(*removed)++;
		}
	}
	if (rc == 0 && *removed && fsync(dirfd(d)) < 0)
		rc = fail_keep_errno(ERROR_OS, "cannot sync directory", dir);
	closedir(d);
	return rc;
}

int file_clear_stale_temps(const char *dir, int levels, const struct timespec *before,
	size_t *removed)
{
	int fd = file_open_dir(dir, 0);

	if (fd < 0)
		return error_last()->klass == ERROR_MISSING ? 0 : -1;
	return clear_temps_at(fd, dir, 0, levels, before, removed);
}

int file_remove_durable(const char *dir, const char *name)
{
	int dfd = file_open_dir(dir, 0), rc = 1;

	if (dfd < 0)
		return error_last()->klass == ERROR_MISSING ? 0 : -1;
	if (unlinkat(dfd, name, 0) < 0) {
		rc = errno == ENOENT ? 0 :
				       fail_keep_errno(ERROR_OS, "cannot remove a file in", dir);
		goto done;
	}
	if (fsync(dfd) < 0)
		rc = fail_keep_errno(ERROR_OS, "cannot sync directory", dir);
done:
	close(dfd);
	return rc;
}

int file_is_kind(const char *path, enum file_kind kind)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return 0;
	if (kind == FILE_KIND_DIR)
		return S_ISDIR(st.st_mode);
	return S_ISREG(st.st_mode) && (kind != FILE_KIND_PROGRAM || access(path, X_OK) == 0);
}

char *file_beside_binary(const char *const rel[], size_t n, enum file_kind kind, struct buf *looked)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (len <= 0)
		return NULL;
	exe[len] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	slash[1] = '\0';
	/* Installed, the whole program is PREFIX/libexec/umpire/umpire-core, which the front
	 * PREFIX/bin/umpire execs: the paths are the front's, relative to PREFIX/bin/. */
	static const char libexec[] = "/libexec/umpire/";
	size_t dir_len = strlen(exe), tail = sizeof(libexec) - 1;
	if (dir_len >= tail && strcmp(exe + dir_len - tail, libexec) == 0 &&
		dir_len - tail + sizeof("/bin/") <= sizeof(exe))
		memcpy(exe + dir_len - tail, "/bin/", sizeof("/bin/"));
	for (size_t i = 0; i < n; i++) {
		char *p = xasprintf("%s%s", exe, rel[i]);
		char *real = file_is_kind(p, kind) ? realpath(p, NULL) : NULL;
		if (real) {
			free(p);
			return real;
		}
		if (looked)
			buf_printf(looked, "%s%s", looked->len ? ", " : "", p);
		free(p);
	}
	return NULL;
}
