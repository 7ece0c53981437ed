/* bls.c — umpire-bls spawned and spoken to (bls.h): one socket pair as the helper's standard
 * input, output and error, a line "ROUND SIGNATURE" out and a line "ok" or "bad: REASON"
 * back per round. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/bls.h"
#include "core/buf.h"
#include "core/error.h"
#include "core/file.h"
#include "core/spawn.h"
#include "core/banned.h"

struct bls_verifier {
	pid_t pid;        /* the helper */
	int fd;           /* our end of the socket pair */
	struct buf in;    /* what the helper said and we have not consumed yet */
	char *public_key; /* the key it checks under, for messages */
	int stalled;      /* it gave no answer in time: stopped, not waited for */
};

char *bls_helper_path(void)
{
	static const char *const rel[] = { "umpire-bls", "../umpire-bls",
		"../libexec/umpire/umpire-bls" };
	const char *env = getenv("UMPIRE_BLS");
	struct buf looked = BUF_INIT;

	if (env && env[0]) {
		if (file_is_kind(env, FILE_KIND_PROGRAM))
			return xstrdup(env);
		error_set(ERROR_MISSING,
			"cannot check the beacon's signatures: the BLS helper $UMPIRE_BLS '%s' is not an executable file",
			env);
		return NULL;
	}
	char *p = file_beside_binary(rel, sizeof(rel) / sizeof(rel[0]), FILE_KIND_PROGRAM, &looked);
	if (!p)
		error_set(ERROR_MISSING,
			"cannot check the beacon's signatures: the BLS helper umpire-bls is missing (looked for %s; 'make' builds it next to umpire, 'make install' installs it, or set UMPIRE_BLS)",
			looked.len ? buf_str(&looked) : "$UMPIRE_BLS");
	buf_release(&looked);
	return p;
}

int bls_verifier_open(struct bls_verifier **out, const char *public_key)
{
	char *path = bls_helper_path();
	int sv[2];
	pid_t pid;

	*out = NULL;
	if (!path)
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		error_set(ERROR_OS, "cannot start %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	char *argv[] = { path, "verify", (char *)public_key, NULL };
	int rc = spawn_fed(&pid, path, argv, sv[1], 1, -1);
	close(sv[1]);
	if (rc != 0) {
		close(sv[0]);
		error_set(ERROR_OS, "cannot start %s: %s", path, strerror(rc));
		free(path);
		return -1;
	}
	free(path);
	struct bls_verifier *v = xcalloc(1, sizeof(*v));
	v->pid = pid;
	v->fd = sv[0];
	v->public_key = xstrdup(public_key);
	*out = v;
	return 0;
}

/* One line from the helper (without its \n) into line. 0, or -1 (ERROR_OS) when it closed,
 * failed or took longer than BLS_TIMEOUT. */
static int read_line(struct bls_verifier *v, struct buf *line)
{
	char chunk[512];

	for (;;) {
		char *nl = v->in.len ? memchr(v->in.data, '\n', v->in.len) : NULL;
		if (nl) {
			size_t n = (size_t)(nl - v->in.data);
			buf_clear(line);
			buf_append(line, v->in.data, n);
			memmove(v->in.data, nl + 1, v->in.len - n - 1);
			v->in.len -= n + 1;
			return 0;
		}
		if (v->in.len > 4096)
			return error_set(ERROR_OS, "umpire-bls: an answer longer than 4096 bytes");
		struct pollfd p = { v->fd, POLLIN, 0 };
		int wait_s = spawn_timeout("UMPIRE_BLS_TIMEOUT", BLS_TIMEOUT);
		int ready = poll(&p, 1, wait_s * 1000);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready == 0) {
			v->stalled = 1;
			return error_set(ERROR_OS,
				"umpire-bls gave no answer in %d seconds: it was stopped", wait_s);
		}
		ssize_t got = ready < 0 ? -1 : recv(v->fd, chunk, sizeof(chunk), 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			/* what it said before it stopped: its reason (a key it refused) */
			char *said = xasprintf("%.*s", (int)v->in.len,
				v->in.data ? v->in.data : "");
			said[strcspn(said, "\n")] = '\0';
			error_set(ERROR_OS, "umpire-bls stopped%s%s", said[0] ? ": " : "", said);
			free(said);
			return -1;
		}
		buf_append(&v->in, chunk, (size_t)got);
	}
}

int bls_verify(struct bls_verifier *v, long long round, const char *signature)
{
	struct buf line = BUF_INIT;
	int rc;

	/* The helper reads whitespace-separated words: anything but hex is refused here, so
	 * one request stays one line. */
	if (strspn(signature, "0123456789abcdefABCDEF") != strlen(signature) || !signature[0] ||
		strlen(signature) > 1024)
		return error_set(ERROR_INPUT,
			"beacon round %lld: signature '%.100s' is not hex (%d lower-case hex digits expected)",
			round, signature, BLS_SIGNATURE_HEX);
	char *req = xasprintf("%lld %s\n", round, signature);
	if (spawn_write_all(v->fd, req, strlen(req), 0, 1) < 0) {
		/* it stopped: its own reason when it gave one (a key it refused) */
		rc = read_line(v, &line) == 0 ? error_set(ERROR_OS, "%s", buf_str(&line)) : -1;
	} else if ((rc = read_line(v, &line)) == 0) {
		const char *s = buf_str(&line);
		if (strcmp(s, "ok") == 0)
			rc = 0;
		else if (strncmp(s, "bad: ", 5) == 0)
			rc = error_set(ERROR_INPUT, "beacon round %lld: signature %.100s: %s",
				round, signature, s + 5);
		else if (strncmp(s, "umpire-bls: ", 12) == 0)
			rc = error_set(ERROR_OS, "%s", s);
		else
			rc = error_set(ERROR_OS, "umpire-bls: %s", s);
	}
	free(req);
	buf_release(&line);
	return rc;
}

int bls_verify_batch(struct bls_verifier *v, size_t n, const long long *rounds,
	const char *const *signatures, unsigned char *ok)
{
	struct buf req = BUF_INIT, line = BUF_INIT;
	int rc = 0;

	memset(ok, 0, n);
	if (n == 0)
		return 0;
	buf_printf(&req, "batch %zu\n", n);
	for (size_t i = 0; i < n; i++) {
		const char *s = signatures[i];
		/* one request a line: anything but short hex is sent as a word the helper
		 * refuses (and is asked again alone by bls_verify, which says why) */
		int hex = s[0] && strlen(s) <= 1024 &&
			  strspn(s, "0123456789abcdefABCDEF") == strlen(s);
		buf_printf(&req, "%lld %s\n", rounds[i], hex ? s : "-");
	}
	/* Written whole before any answer is read: the helper reads all N lines first. */
	if (spawn_write_all(v->fd, req.data, req.len, 0, 1) < 0)
		rc = read_line(v, &line) == 0 ? error_set(ERROR_OS, "%s", buf_str(&line)) : -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if ((rc = read_line(v, &line)) < 0)
			break;
		const char *s = buf_str(&line);
		if (strcmp(s, "ok") == 0)
			ok[i] = 1;
		else if (strncmp(s, "bad: ", 5) != 0)
			rc = error_set(ERROR_OS, "umpire-bls: %s", s);
	}
	buf_release(&req);
	buf_release(&line);
	return rc;
}

void bls_verifier_free(struct bls_verifier *v)
{
	if (!v)
		return;
	shutdown(v->fd, SHUT_WR); /* end of input: the helper exits */
	close(v->fd);
	/* One that stalled is stopped now; one that does not end at its end of input is given
	 * its timeout, then stopped: a run never hangs on it. */
	if (v->stalled)
		spawn_stop(v->pid);
	else
		(void)spawn_wait(v->pid, spawn_timeout("UMPIRE_BLS_TIMEOUT", BLS_TIMEOUT));
	buf_release(&v->in);
	free(v->public_key);
	free(v);
}

int bls_verify_round(const char *public_key, long long round, const char *signature)
{
	struct bls_verifier *v;

	if (bls_verifier_open(&v, public_key) < 0)
		return -1;
	int rc = bls_verify(v, round, signature);
	bls_verifier_free(v);
	return rc;
}
