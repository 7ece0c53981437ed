/* repo_push.c — `umpire publish`'s push of every tag, then main, to the players' remote
 * through libgit2. */
#include "core/repo_int.h"
#include "core/gittls.h"
#include "core/layout.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/banned.h"

/* A remote's refusal of one reference, kept by the push callback. */
struct push_refusal {
	struct buf why; /* "ref: message" lines */
};

static int push_update(const char *refname, const char *status, void *data)
{
	struct push_refusal *p = data;
	if (status)
		buf_printf(&p->why, "%s%s: %s", p->why.len ? "; " : "", refname, status);
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

/* One push of refspecs (n) to remote. 0 / -1 (the remote's refusals in the message). */
static int push_refspecs(git_remote *remote, char **refspecs, size_t n, const char *url)
{
	git_push_options po;
	struct push_refusal refusal = { BUF_INIT };
	git_strarray specs = { refspecs, n };
	int rc = 0;

	git_push_options_init(&po, GIT_PUSH_OPTIONS_VERSION);
	po.callbacks.push_update_reference = push_update;
	po.callbacks.payload = &refusal;
	int err = git_remote_push(remote, &specs, &po);
	if (err == GIT_ENONFASTFORWARD)
		rc = error_set(ERROR_INPUT, "repo: '%s' refused the push: %s", url, repo_git_msg());
	else if (err < 0)
		rc = error_set(ERROR_OS, "repo: cannot push to '%s': %s", url, repo_git_msg());
	else if (refusal.why.len)
		rc = error_set(ERROR_INPUT, "repo: '%s' refused: %s", url, buf_str(&refusal.why));
	buf_release(&refusal.why);
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

int repo_push_all(struct repo *r, const char *url, size_t *n_tags)
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
	specs = xcalloc(n + 2, sizeof(*specs));
	for (size_t i = 0; i < n; i++)
		specs[i] = xasprintf("refs/tags/%s:refs/tags/%s", tags[i], tags[i]);
	/* libgit2 1.5 cannot ask for an atomic push, so the remote updates the references one
	 * by one. Two pushes: every tag (with every object, in one pack), then main only once
	 * the remote has taken every tag. A refused tag or a push cut short leaves tags ahead
	 * of main, never main ahead of a tag the remote lacks: a player's verify then checks
	 * main and says the publish is not finished (docs/formats.md, "Publishing"). */
	specs[n] = xstrdup(LAYOUT_BRANCH ":" LAYOUT_BRANCH);
	rc = n ? push_refspecs(remote, specs, n, url) : 0;
	if (rc == 0)
		rc = push_refspecs(remote, specs + n, 1, url);
	if (rc == 0)
		*n_tags = n;
done:
	for (size_t i = 0; specs && i < n + 1; i++)
		free(specs[i]);
	free(specs);
	repo_names_free(tags);
	git_remote_free(remote);
	return rc;
}
