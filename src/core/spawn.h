/* spawn.h — a helper program started with posix_spawn (no shell) and fed on one descriptor:
 * what the BLS helper (bls.c) and a local sendmail (mail/sendmail.c) share; and how every
 * child umpire starts is waited for, stopped and reaped, so no helper hangs a run. */
#ifndef UMPIRE_SPAWN_H
#define UMPIRE_SPAWN_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/* pipe(2) with both ends close-on-exec, so that a child another thread starts at the same
 * moment inherits neither (it would hold the pipe open: a reader never sees its end, and two
 * such children wait for each other). Every pipe umpire makes for a child is made here; the
 * child's own ends become its 0, 1 or 2 by dup2, which clears the flag. 0, or -1 with errno. */
int spawn_pipe(int fds[2]);
/* Blocks SIGPIPE in the calling thread only (the old mask into *old), so that writing to a
 * child that stopped reading fails with EPIPE instead of killing umpire. */
void spawn_sigpipe_block(sigset_t *old);
/* Restores the mask spawn_sigpipe_block saved; with raised nonzero (a write may have failed
 * with EPIPE), first takes the SIGPIPE left pending, unless it was blocked before. */
void spawn_sigpipe_restore(const sigset_t *old, int raised);

/* Starts path with argv and umpire's environment, fd as its standard input (all nonzero:
 * its standard output and error too); with close_fd >= 0 the child then closes fd and
 * close_fd (a pipe's two ends). posix_spawn's result: 0 (*pid set), or an errno value. */
int spawn_fed(pid_t *pid, const char *path, char *const argv[], int fd, int all, int close_fd);
/* Writes all n bytes of data to fd, again after EINTR: with send(MSG_NOSIGNAL) when sock is
 * nonzero, else write; with timeout_s > 0, waiting at most that many seconds whenever the
 * reader stops reading. 0, or -1 with errno (ETIMEDOUT when it waited too long). */
int spawn_write_all(int fd, const char *data, size_t n, int timeout_s, int sock);

struct buf;
/* Runs path with argv to its end: in (n bytes) on its standard input, its standard output
 * into out and its standard error into err (appended; each cut at max bytes, the rest read
 * and dropped). With timeout_s > 0 it is stopped (spawn_stop) after that many seconds. The
 * wait status, or -1 with errno (ETIMEDOUT when stopped; posix_spawn's error when it could
 * not start). */
int spawn_capture(const char *path, char *const argv[], const void *in, size_t n, struct buf *out,
	struct buf *err, size_t max, int timeout_s);

#define SPAWN_GRACE 2 /* seconds a child has after SIGTERM before SIGKILL */

/* The seconds in the environment variable name (a whole number, 1 to 3600), else def: how a
 * test shortens a helper's timeout (UMPIRE_BLS_TIMEOUT, UMPIRE_SENDMAIL_TIMEOUT, ...). */
int spawn_timeout(const char *name, int def);
/* Waits for the child pid at most timeout_s seconds (0: without limit); past that it is
 * stopped (spawn_stop). Its wait status, or -1 with errno: ETIMEDOUT when it had to be
 * stopped. The child is reaped whatever happens. */
int spawn_wait(pid_t pid, int timeout_s);
/* Stops the child pid: SIGTERM, at most SPAWN_GRACE seconds for it to end, then SIGKILL;
 * reaped. */
void spawn_stop(pid_t pid);

#endif
