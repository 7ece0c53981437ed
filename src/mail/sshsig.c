/* sshsig.c — signed orders checked by `ssh-keygen -Y verify` (sshsig.h). The allowed-signers
 * line, the signature and the data go to files in a fresh 0700 directory; ssh-keygen reads
 * the data on its standard input; its exit status is the verdict. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mail/sshsig.h"
#include "core/error.h"
#include "core/file.h"
#include "core/spawn.h"
#include "core/banned.h"

extern char **environ;

/* Runs ssh-keygen -Y verify in dir; its stdout and stderr into dir/out. Exit status, or -1. */
static int run_verify(const char *dir, const char *principal)
{
	char *allowed = xasprintf("%s/allowed_signers", dir), *sig = xasprintf("%s/sig", dir);
	char *data = xasprintf("%s/data", dir), *out = xasprintf("%s/out", dir);
	char *argv[] = { "ssh-keygen", "-Y", "verify", "-f", allowed, "-I", (char *)principal, "-n",
		SSHSIG_NAMESPACE, "-s", sig, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status = -1, rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, data, O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	rc = posix_spawnp(&pid, "ssh-keygen", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		error_set(ERROR_OS, "cannot run ssh-keygen: %s", strerror(rc));
	} else {
		int limit = spawn_timeout("UMPIRE_SSH_KEYGEN_TIMEOUT", SSHSIG_TIMEOUT);
		if ((status = spawn_wait(pid, limit)) < 0)
			status = error_set(ERROR_OS, "ssh-keygen %s",
				errno == ETIMEDOUT ? "gave no verdict in time and was stopped" :
						     strerror(errno));
		else if (WIFEXITED(status))
			status = WEXITSTATUS(status);
		else
			status = error_set(ERROR_OS, "ssh-keygen was killed");
	}
	free(allowed);
	free(sig);
	free(data);
	free(out);
	return status;
}

/* The last non-empty line of ssh-keygen's output, into why. */
static void reason(const char *dir, struct buf *why)
{
	char *path = xasprintf("%s/out", dir);
	struct buf out = BUF_INIT;
	const char *line = "", *p;

	if (file_read(path, 4096, &out) == 0 && out.len) {
		while (out.len && out.data[out.len - 1] == '\n')
			out.data[--out.len] = '\0';
		line = (p = strrchr(out.data, '\n')) ? p + 1 : out.data;
	}
	buf_puts(why, *line ? line : "ssh-keygen gave no reason");
	error_clear();
	buf_release(&out);
	free(path);
}

static void remove_dir(const char *dir)
{
	static const char *const names[] = { "allowed_signers", "sig", "data", "out" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);
		unlink(p);
		free(p);
	}
	rmdir(dir);
}

int sshsig_verify(const char *tmp_parent, const char *key_line, const char *principal,
	const void *data, size_t len, const void *sig, size_t sig_len, struct buf *why)
{
	char *dir = xasprintf("%s/sshsig.XXXXXX", tmp_parent);
	int rc = -1;

	if (file_mkdir_p(tmp_parent, 0700) < 0 || !mkdtemp(dir)) {
		error_set(ERROR_OS, "cannot make a directory in '%s': %s", tmp_parent,
			strerror(errno));
		free(dir);
		return -1;
	}
	char *line = xasprintf("%s namespaces=\"%s\" %s\n", principal, SSHSIG_NAMESPACE, key_line);
	if (file_write_durable(dir, "allowed_signers", line, strlen(line)) == 0 &&
		file_write_durable(dir, "sig", sig, sig_len) == 0 &&
		file_write_durable(dir, "data", data, len) == 0) {
		int status = run_verify(dir, principal);
		if (status == 0)
			rc = 1;
		else if (status > 0) {
			rc = 0;
			reason(dir, why);
		}
	}
	free(line);
	remove_dir(dir);
	free(dir);
	return rc;
}
