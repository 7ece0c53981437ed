/* spawn.c — a helper program started with posix_spawn and fed on one descriptor (spawn.h). */
#include <errno.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/spawn.h"
#include "core/banned.h"

extern char **environ;

int spawn_fed(pid_t *pid, const char *path, char *const argv[], int fd, int all, int close_fd)
{
	posix_spawn_file_actions_t fa;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, 0);
	if (all) {
		posix_spawn_file_actions_adddup2(&fa, fd, 1);
		posix_spawn_file_actions_adddup2(&fa, fd, 2);
	}
	if (close_fd >= 0) {
		posix_spawn_file_actions_addclose(&fa, fd);
		posix_spawn_file_actions_addclose(&fa, close_fd);
	}
	int rc = posix_spawn(pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

int spawn_write_all(int fd, const char *data, size_t n, int timeout_s, int sock)
{
	for (size_t off = 0; off < n;) {
		if (timeout_s > 0) {
			struct pollfd p = { fd, POLLOUT, 0 };
			int ready = poll(&p, 1, timeout_s * 1000);
			if (ready < 0 && errno == EINTR)
				continue;
			if (ready == 0)
				errno = ETIMEDOUT;
			if (ready <= 0)
				return -1;
		}
		ssize_t w = sock ? send(fd, data + off, n - off, MSG_NOSIGNAL) :
				   write(fd, data + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}
