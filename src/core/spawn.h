/* spawn.h — a helper program started with posix_spawn (no shell) and fed on one descriptor:
 * what the BLS helper (bls.c) and a local sendmail (mail/sendmail.c) share. */
#ifndef UMPIRE_SPAWN_H
#define UMPIRE_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

/* Starts path with argv and umpire's environment, fd as its standard input (all nonzero:
 * its standard output and error too); with close_fd >= 0 the child then closes fd and
 * close_fd (a pipe's two ends). posix_spawn's result: 0 (*pid set), or an errno value. */
int spawn_fed(pid_t *pid, const char *path, char *const argv[], int fd, int all, int close_fd);
/* Writes all n bytes of data to fd, again after EINTR: with send(MSG_NOSIGNAL) when sock is
 * nonzero, else write; with timeout_s > 0, waiting at most that many seconds whenever the
 * reader stops reading. 0, or -1 with errno (ETIMEDOUT when it waited too long). */
int spawn_write_all(int fd, const char *data, size_t n, int timeout_s, int sock);

#endif
