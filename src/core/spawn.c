/* spawn.c — a helper program started with posix_spawn and fed on one descriptor (spawn.h). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
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

int spawn_timeout(const char *name, int def)
{
	const char *v = getenv(name);
	char *end = NULL;
	long n = v && *v ? strtol(v, &end, 10) : 0;
	return v && *v && end && !*end && n >= 1 && n <= 3600 ? (int)n : def;
}

/* Polls for pid's end for at most ticks of 20 ms (< 0: for ever): 1 ended (*status), 0 not
 * yet, -1 waitpid failed (errno). */
static int wait_ticks(pid_t pid, long ticks, int *status)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	for (long i = 0; ticks < 0 || i <= ticks; i++) {
		pid_t r = waitpid(pid, status, ticks < 0 ? 0 : WNOHANG);
		if (r == pid)
			return 1;
		if (r < 0 && errno != EINTR)
			return -1;
		if (r == 0 && i < ticks)
			nanosleep(&tick, NULL);
	}
	return 0;
}

void spawn_stop(pid_t pid)
{
	int status;
	kill(pid, SIGTERM);
	if (wait_ticks(pid, SPAWN_GRACE * 50L, &status) != 0)
		return;
	kill(pid, SIGKILL);
	(void)wait_ticks(pid, -1, &status);
}

int spawn_wait(pid_t pid, int timeout_s)
{
	int status = 0;
	int r = wait_ticks(pid, timeout_s > 0 ? timeout_s * 50L : -1, &status);
	if (r > 0)
		return status;
	if (r == 0) {
		spawn_stop(pid);
		errno = ETIMEDOUT;
	}
	return -1;
}
