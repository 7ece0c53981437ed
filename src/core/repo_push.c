/* repo_push.c — `umpire publish`'s push of every tag, then main (then the pages branch of
 * `publish --site`, committed here), to the players' remote through libgit2, run in a child
 * process that the parent stops when the remote keeps silent past a connect or an idle
 * timeout (libgit2 1.5 has neither): a hook that sleeps must not hold `umpire publish`, or
 * `umpire run` from cron, for ever. */
#include "core/repo_int.h"
#include "core/gittls.h"
#include "core/layout.h"
#include "core/spawn.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/banned.h"

/* What the push process tells its parent through a pipe, a byte each: it starts to connect,
 * the remote answered or sent progress, then the result (struct push_result and its
 * message). */
#define PUSH_CONNECTING 'k'
#define PUSH_ALIVE 'p'
#define PUSH_RESULT 'r'

/* One push's state in the push process: the remote's refusals, the pipe to the parent. */
struct push_ctx {
	struct buf why; /* "ref: message" lines */
	int fd;         /* the pipe's writing end (-1: none) */
};

struct push_result {
	int rc;                 /* repo_push_all's return */
	enum error_class klass; /* the error's class when rc < 0 */
	size_t n_tags, msg_len; /* tags pushed; the message's bytes, which follow */
};

/* Tells the parent one thing (a byte); best effort: a parent gone has stopped waiting. */
static void push_say(int fd, char what)
{
	if (fd >= 0 && repo_write_all(fd, &what, 1) < 0)
		return;
}

static int push_update(const char *refname, const char *status, void *data)
{
	struct push_ctx *p = data;
	push_say(p->fd, PUSH_ALIVE);
	if (status)
		buf_printf(&p->why, "%s%s: %s", p->why.len ? "; " : "", refname, status);
	return 0;
}

/* libgit2's progress callbacks: each says the remote is alive. */
static int push_sideband(const char *str, int len, void *data)
{
	(void)str;
	(void)len;
	push_say(((struct push_ctx *)data)->fd, PUSH_ALIVE);
	return 0;
}

static int push_transfer(unsigned int current, unsigned int total, size_t bytes, void *data)
{
	(void)current;
	(void)total;
	(void)bytes;
	push_say(((struct push_ctx *)data)->fd, PUSH_ALIVE);
	return 0;
}

static int push_packing(int stage, uint32_t current, uint32_t total, void *data)
{
	(void)stage;
	(void)current;
	(void)total;
	push_say(((struct push_ctx *)data)->fd, PUSH_ALIVE);
	return 0;
}

/* Creates url as a bare repository whose HEAD is main when url is a local path that does
 * not exist yet, so a GM's first publish needs no git command. 0 / -1. */
static int remote_bare_if_absent(const char *url)
{
	git_repository *bare = NULL;
	git_repository_init_options o;
	struct stat st;

	if (strstr(url, "://") || strchr(url, ':') || stat(url, &st) == 0)
		return 0;
	git_repository_init_options_init(&o, GIT_REPOSITORY_INIT_OPTIONS_VERSION);
	o.flags = GIT_REPOSITORY_INIT_BARE | GIT_REPOSITORY_INIT_MKPATH;
	o.initial_head = "main";
	if (git_repository_init_ext(&bare, url, &o) < 0)
		return error_set(ERROR_OS, "repo: cannot create the bare remote '%s': %s", url,
			repo_git_msg());
	git_repository_free(bare);
	return 0;
}

/* One push of refspecs (n) to remote: connect (the parent told, so it times the connection),
 * then push, each answer of the remote told to the parent through fd. 0 / -1 (the remote's
 * refusals in the message). */
static int push_refspecs(git_remote *remote, char **refspecs, size_t n, const char *url, int fd)
{
	git_push_options po;
	struct push_ctx ctx = { BUF_INIT, fd };
	git_strarray specs = { refspecs, n };
	int rc = 0, err;

	git_push_options_init(&po, GIT_PUSH_OPTIONS_VERSION);
	po.callbacks.push_update_reference = push_update;
	po.callbacks.sideband_progress = push_sideband;
	po.callbacks.push_transfer_progress = push_transfer;
	po.callbacks.pack_progress = push_packing;
	po.callbacks.payload = &ctx;
	push_say(fd, PUSH_CONNECTING);
	err = git_remote_connect(remote, GIT_DIRECTION_PUSH, &po.callbacks, NULL, NULL);
	if (err == 0) {
		push_say(fd, PUSH_ALIVE);
		err = git_remote_push(remote, &specs, &po);
	}
	if (err == GIT_ENONFASTFORWARD)
		rc = error_set(ERROR_INPUT, "repo: '%s' refused the push: %s", url, repo_git_msg());
	else if (err < 0)
		rc = error_set(ERROR_OS, "repo: cannot push to '%s': %s", url, repo_git_msg());
	else if (ctx.why.len)
		rc = error_set(ERROR_INPUT, "repo: '%s' refused: %s", url, buf_str(&ctx.why));
	buf_release(&ctx.why);
	return rc;
}

/* The certificates libgit2 trusts, loaded before the first connection to a network remote
 * (src/core/gittls.h). 0 / -1. */
static int tls_load(const char *url)
{
	const char *file, *dir;
	if (gittls_wanted(url, &file, &dir) &&
		git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, dir) < 0)
		return error_set(ERROR_OS, "repo: cannot load the TLS certificates: %s",
			repo_git_msg());
	return 0;
}

/* The push itself (repo_push_all's, in the push process), each answer of the remote told
 * through fd; branch (or NULL): a branch pushed last, once main is in. 0 / -1. */
static int push_all(struct repo *r, const char *url, const char *branch, size_t *n_tags, int fd)
{
	git_remote *remote = NULL;
	char **tags = NULL, **specs = NULL;
	size_t n = 0;
	int rc = -1;

	*n_tags = 0;
	if (remote_bare_if_absent(url) < 0 || repo_tags(r, "", &tags) < 0 || tls_load(url) < 0)
		goto done;
	if (git_remote_create_anonymous(&remote, r->git, url) < 0) {
		error_set(ERROR_OS, "repo: cannot use remote '%s': %s", url, repo_git_msg());
		goto done;
	}
	while (tags[n])
		n++;
	specs = xcalloc(n + 3, sizeof(*specs));
	for (size_t i = 0; i < n; i++)
		specs[i] = xasprintf("refs/tags/%s:refs/tags/%s", tags[i], tags[i]);
	/* libgit2 1.5 cannot ask for an atomic push, so the remote updates the references one
	 * by one. Two pushes: every tag (with every object, in one pack), then main only once
	 * the remote has taken every tag. A refused tag or a push cut short leaves tags ahead
	 * of main, never main ahead of a tag the remote lacks: a player's verify then checks
	 * main and says the publish is not finished (docs/formats.md, "Publishing"). */
	specs[n] = xstrdup(LAYOUT_BRANCH ":" LAYOUT_BRANCH);
	rc = n ? push_refspecs(remote, specs, n, url, fd) : 0;
	if (rc == 0)
		rc = push_refspecs(remote, specs + n, 1, url, fd);
	if (rc == 0)
		*n_tags = n;
	/* the pages after the history they show: a host never serves pages ahead of main */
	if (rc == 0 && branch) {
		specs[n + 1] = xasprintf("refs/heads/%s:refs/heads/%s", branch, branch);
		rc = push_refspecs(remote, specs + n + 1, 1, url, fd);
		if (rc < 0) {
			char *why = xstrdup(error_last()->message);
			error_set(error_last()->klass, "%s (refs/heads/%s; main and the tags went)",
				why, branch);
			free(why);
		}
	}
done:
	for (size_t i = 0; specs && i < n + 2; i++)
		free(specs[i]);
	free(specs);
	repo_names_free(tags);
	git_remote_free(remote);
	return rc;
}

/* The push process: pushes, sends the result through fd and ends without running the
 * parent's exit handlers or flushing its buffers. */
static void push_child(struct repo *r, const char *url, const char *branch, int fd)
{
	struct push_result res = { 0 };

	res.rc = push_all(r, url, branch, &res.n_tags, fd);
	res.klass = error_last()->klass;
	res.msg_len = strlen(error_last()->message);
	push_say(fd, PUSH_RESULT);
	if (repo_write_all(fd, &res, sizeof(res)) == 0)
		(void)repo_write_all(fd, error_last()->message, res.msg_len);
	_exit(0);
}

/* Reads len bytes from fd (the push process writes its result at once). 0 / -1. */
static int read_all(int fd, void *data, size_t len)
{
	char *p = data;

	while (len > 0) {
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A timeout in seconds from the environment variable name (1 to 3600), else fallback. */
static int push_timeout(const char *name, int fallback)
{
	const char *v = getenv(name);
	char *end = NULL;
	long s = v ? strtol(v, &end, 10) : 0;

	return v && end != v && *end == '\0' && s >= 1 && s <= 3600 ? (int)s : fallback;
}

/* Waits for the push process pid's result through fd: PUSH_CONNECT_TIMEOUT seconds from each
 * start of a connection until the remote answers, PUSH_IDLE_TIMEOUT seconds between two
 * answers; past either, the process is killed. The result's error, when it failed, is
 * recorded here. 0 / -1. */
static int push_wait(pid_t pid, int fd, const char *url, size_t *n_tags)
{
	int connect_s = push_timeout("UMPIRE_PUSH_CONNECT_TIMEOUT", PUSH_CONNECT_TIMEOUT);
	int idle_s = push_timeout("UMPIRE_PUSH_IDLE_TIMEOUT", PUSH_IDLE_TIMEOUT);
	int wait_s = connect_s, rc = -1, status;
	const char *doing = "connecting";
	struct push_result res = { 0 };
	char what = 0, *msg = NULL;

	while (what != PUSH_RESULT) {
		struct pollfd p = { fd, POLLIN, 0 };
		int n = poll(&p, 1, wait_s * 1000);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0) {
			kill(pid, SIGKILL);
			error_set(ERROR_BUSY,
				"repo: '%s' did not answer for %d s while %s: the push was stopped (publishing again finishes it)",
				url, wait_s, doing);
			goto reap;
		}
		if (n < 0 || read_all(fd, &what, 1) < 0) {
			error_set(ERROR_OS, "repo: the push to '%s' ended without a result", url);
			goto reap;
		}
		wait_s = what == PUSH_CONNECTING ? connect_s : idle_s;
		doing = what == PUSH_CONNECTING ? "connecting" : "pushing";
	}
	if (read_all(fd, &res, sizeof(res)) < 0 || res.msg_len > 65536 ||
		read_all(fd, msg = xcalloc(1, res.msg_len + 1), res.msg_len) < 0) {
		error_set(ERROR_OS, "repo: the push to '%s' ended without a result", url);
		goto reap;
	}
	rc = res.rc < 0 ? error_set(res.klass, "%s", msg) : 0;
	*n_tags = res.n_tags;
reap:
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	free(msg);
	return rc;
}

int repo_push_all(struct repo *r, const char *url, size_t *n_tags)
{
	return repo_push_with(r, url, NULL, n_tags);
}

int repo_push_with(struct repo *r, const char *url, const char *branch, size_t *n_tags)
{
	int fds[2];
	pid_t pid;

	*n_tags = 0;
	if (spawn_pipe(fds) < 0)
		return error_set(ERROR_OS, "repo: cannot push to '%s': %s", url, strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return error_set(ERROR_OS, "repo: cannot push to '%s': %s", url, strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
		push_child(r, url, branch, fds[1]);
	}
	close(fds[1]);
	int rc = push_wait(pid, fds[0], url, n_tags);
	close(fds[0]);
	return rc;
}

/* The blob of each file into index (in memory), at its path, mode 100644. 0 / -1. */
static int index_files(git_index *index, git_repository *git, const struct file *files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		git_index_entry e;
		memset(&e, 0, sizeof(e));
		e.mode = GIT_FILEMODE_BLOB;
		e.path = files[i].path;
		if (git_blob_create_from_buffer(&e.id, git,
			    files[i].data ? (const void *)files[i].data : "", files[i].len) < 0 ||
			git_index_add(index, &e) < 0)
			return -1;
	}
	return 0;
}

int repo_commit_branch(struct repo *r, const char *branch, const struct file *files, size_t n,
	const char *message, long long when, char commit_hex[41])
{
	char *ref = xasprintf("refs/heads/%s", branch);
	git_index *index = NULL;
	git_commit *parent = NULL;
	git_tree *tree = NULL;
	git_signature *sig = NULL;
	git_oid tree_id, parent_id, id;
	int ret = -1, rc;

	commit_hex[0] = '\0';
	rc = git_reference_name_to_id(&parent_id, r->git, ref);
	if ((rc < 0 && rc != GIT_ENOTFOUND) ||
		(rc == 0 && git_commit_lookup(&parent, r->git, &parent_id) < 0))
		goto done;
	if (git_index_new(&index) < 0 || index_files(index, r->git, files, n) < 0 ||
		git_index_write_tree_to(&tree_id, index, r->git) < 0)
		goto done;
	if (parent && git_oid_equal(git_commit_tree_id(parent), &tree_id)) {
		git_oid_tostr(commit_hex, 41, &parent_id); /* the same files: nothing to commit */
		ret = 0;
		goto done;
	}
	const git_commit *parents[1] = { parent };
	/* git_commit_create moves ref only from parent_id (or creates it): a compare-and-swap */
	if (git_tree_lookup(&tree, r->git, &tree_id) < 0 ||
		git_signature_new(&sig, "umpire", "umpire@localhost", (git_time_t)when, 0) < 0 ||
		git_commit_create(&id, r->git, ref, sig, sig, NULL, message, tree, parent ? 1 : 0,
			parents) < 0)
		goto done;
	git_oid_tostr(commit_hex, 41, &id);
	ret = 0;
done:
	if (ret < 0)
		error_set(ERROR_OS, "repo: cannot commit the branch '%s': %s", branch,
			repo_git_msg());
	git_signature_free(sig);
	git_tree_free(tree);
	git_commit_free(parent);
	git_index_free(index);
	free(ref);
	return ret;
}
