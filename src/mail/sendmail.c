/* sendmail.c — one message handed to a local sendmail program (sendmail.h): posix_spawn with
 * a pipe on its standard input; the program's own messages go to umpire's standard error. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mail/sendmail.h"
#include "core/error.h"
#include "core/spawn.h"
#include "core/banned.h"

/* Writes message to fd with CRLF turned into LF, waiting at most SENDMAIL_TIMEOUT seconds
 * ($UMPIRE_SENDMAIL_TIMEOUT in tests) whenever the program stops reading. 0, or -1 with errno (EPIPE: it stopped reading;
 * ETIMEDOUT). */
static int write_lf(int fd, const char *m, size_t len)
{
	size_t i = 0;
	while (i < len) {
		size_t n = 0;
		while (i + n < len &&
			!(m[i + n] == '\r' && i + n + 1 < len && m[i + n + 1] == '\n'))
			n++;
		if (spawn_write_all(fd, m + i, n,
			    spawn_timeout("UMPIRE_SENDMAIL_TIMEOUT", SENDMAIL_TIMEOUT), 0) < 0)
			return -1;
		i += n;
		if (i < len)
			i++; /* the \r of a CRLF: the \n goes with the next run */
	}
	return 0;
}

/* Feeds message to the running program on fd, with SIGPIPE blocked so a program that exits
 * early makes write fail with EPIPE instead of killing umpire. 0 / -1 (errno). */
static int feed(int fd, const char *message, size_t len)
{
	sigset_t old;

	spawn_sigpipe_block(&old);
	int rc = write_lf(fd, message, len), saved = errno;
	spawn_sigpipe_restore(&old, rc < 0 && saved == EPIPE);
	errno = saved;
	return rc;
}

int sendmail_send(const char *program, const char *from, const char *to, const void *message,
	size_t len)
{
	char *argv[] = { (char *)program, "-oi", "-f", (char *)from, "--", (char *)to, NULL };
	int fds[2], status = 0, werr = 0;
	pid_t pid;

	if (spawn_pipe(fds) < 0)
		return error_set(ERROR_OS, "sendmail: cannot make a pipe: %s", strerror(errno));
	int rc = spawn_fed(&pid, program, argv, fds[0], 0, fds[1]);
	close(fds[0]);
	if (rc != 0) {
		close(fds[1]);
		return error_set(ERROR_OS, "sendmail: cannot run '%s': %s", program, strerror(rc));
	}
	if (feed(fds[1], message, len) < 0)
		werr = errno;
	close(fds[1]);
	/* A program that does not read or does not end is stopped: a cron pass must end. It
	 * stalls: ERROR_BUSY, the pass ends (outbox.c). */
	int limit = spawn_timeout("UMPIRE_SENDMAIL_TIMEOUT", SENDMAIL_TIMEOUT);
	if (werr == ETIMEDOUT)
		spawn_stop(pid);
	if (werr == ETIMEDOUT || (status = spawn_wait(pid, limit)) < 0)
		return error_set(werr == ETIMEDOUT || errno == ETIMEDOUT ? ERROR_BUSY : ERROR_OS,
			"sendmail: '%s' %s", program,
			werr == ETIMEDOUT || errno == ETIMEDOUT ?
				"stalled and was stopped (no progress in the time allowed)" :
				strerror(errno));
	if (WIFSIGNALED(status))
		return error_set(ERROR_OS, "sendmail: '%s' was killed by signal %d", program,
			WTERMSIG(status));
	int ex = WEXITSTATUS(status);
	/* sysexits: a bad address or message (EX_USAGE, EX_DATAERR, EX_NOUSER, EX_NOHOST) is
	 * final, ERROR_INPUT; anything else may go later. */
	if (ex != 0)
		return error_set(ex == 64 || ex == 65 || ex == 67 || ex == 68 ? ERROR_INPUT :
										ERROR_OS,
			"sendmail: '%s' exited %d%s", program, WEXITSTATUS(status),
			WEXITSTATUS(status) == 75 ? " (a temporary failure)" : "");
	if (werr)
		return error_set(ERROR_OS, "sendmail: '%s' did not read the whole message: %s",
			program, strerror(werr));
	return 0;
}
