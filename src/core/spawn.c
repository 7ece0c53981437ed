/* spawn.c — a helper program started with posix_spawn and fed on one descriptor (spawn.h). */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/spawn.h"
#include "core/banned.h"

extern char **environ;

int spawn_pipe(int fds[2])
{
	return pipe2(fds, O_CLOEXEC);
}

void spawn_sigpipe_block(sigset_t *old)
{
	sigset_t pipe_set;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, old);
}

void spawn_sigpipe_restore(const sigset_t *old, int raised)
{
	sigset_t pipe_set;
	struct timespec zero = { 0, 0 };

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	/* A SIGPIPE raised while blocked stays pending: take it before unblocking. */
	if (raised && !sigismember(old, SIGPIPE))
		while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

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

/* Appends what fd has to b (at most max kept); 0 at its end, 1 more to come, -1 error. */
static int drain(int fd, struct buf *b, size_t max)
{
	char chunk[4096];
	ssize_t r = read(fd, chunk, sizeof chunk);

	if (r < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -1;
	if (r == 0)
		return 0;
	if (b->len < max)
		buf_append(b, chunk, (size_t)r < max - b->len ? (size_t)r : max - b->len);
	return 1;
}

/* Feeds in and reads the child's two outputs until both end or the deadline passes. 0, or
 * -1 with errno. */
static int pump(int fds[3], const char *in, size_t n, struct buf *out, struct buf *err, size_t max,
	int timeout_s)
{
	size_t off = 0;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	/* the deadline on the monotonic clock, in ms (< 0: none) */
	long long deadline = timeout_s > 0 ? now.tv_sec * 1000LL + now.tv_nsec / 1000000 +
						     timeout_s * 1000LL :
					     -1;

	if (n == 0) {
		close(fds[0]);
		fds[0] = -1;
	}
	while (fds[1] >= 0 || fds[2] >= 0) {
		struct pollfd p[3] = { { fds[0], POLLOUT, 0 }, { fds[1], POLLIN, 0 },
			{ fds[2], POLLIN, 0 } };
		long long left = -1;
		if (deadline >= 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			left = deadline - (now.tv_sec * 1000LL + now.tv_nsec / 1000000);
			if (left <= 0) {
				errno = ETIMEDOUT;
				return -1;
			}
		}
		int ready = poll(p, 3, left < 0 || left > 1000 ? 1000 : (int)left);
		if (ready < 0 && errno != EINTR)
			return -1;
		if (ready <= 0)
			continue;
		if (fds[0] >= 0 && (p[0].revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t w = (p[0].revents & POLLOUT) ? write(fds[0], in + off, n - off) :
							       -1;
			if (w > 0)
				off += (size_t)w;
			if (w < 0 && errno != EINTR && errno != EAGAIN)
				off = n; /* it stopped reading: what it said tells why */
			if (off == n) {
				close(fds[0]);
				fds[0] = -1;
			}
		}
		for (int k = 1; k <= 2; k++) {
			if (fds[k] < 0 || !(p[k].revents & (POLLIN | POLLERR | POLLHUP)))
				continue;
			int r = drain(fds[k], k == 1 ? out : err, max);
			if (r < 0)
				return -1;
			if (r == 0) {
				close(fds[k]);
				fds[k] = -1;
			}
		}
	}
	return 0;
}

int spawn_capture(const char *path, char *const argv[], const void *in, size_t n, struct buf *out,
	struct buf *err, size_t max, int timeout_s)
{
	int p[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } }, fds[3], rc;
	posix_spawn_file_actions_t fa;
	pid_t pid;

	for (int k = 0; k < 3; k++)
		if (spawn_pipe(p[k]) < 0) {
			int e = errno;
			for (int j = 0; j < k; j++) {
				close(p[j][0]);
				close(p[j][1]);
			}
			errno = e;
			return -1;
		}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[0][0], 0);
	posix_spawn_file_actions_adddup2(&fa, p[1][1], 1);
	posix_spawn_file_actions_adddup2(&fa, p[2][1], 2);
	for (int k = 0; k < 3; k++) {
		posix_spawn_file_actions_addclose(&fa, p[k][0]);
		posix_spawn_file_actions_addclose(&fa, p[k][1]);
	}
	rc = posix_spawn(&pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[0][0]);
	close(p[1][1]);
	close(p[2][1]);
	fds[0] = p[0][1];
	fds[1] = p[1][0];
	fds[2] = p[2][0];
	if (rc != 0) {
		for (int k = 0; k < 3; k++)
			close(fds[k]);
		errno = rc;
		return -1;
	}
	/* A child that stops reading must not kill umpire with SIGPIPE: blocked in this thread
	 * only (another thread may be writing too). */
	sigset_t old;
	spawn_sigpipe_block(&old);
	int pumped = pump(fds, in, n, out, err, max, timeout_s), e = errno;
	spawn_sigpipe_restore(&old, 1);
	for (int k = 0; k < 3; k++)
		if (fds[k] >= 0)
			close(fds[k]);
	if (pumped < 0) {
		spawn_stop(pid);
		errno = e;
		return -1;
	}
	return spawn_wait(pid, timeout_s);
}
