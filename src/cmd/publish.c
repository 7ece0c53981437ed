/* publish.c — `umpire publish`: main and every tag pushed to the players' remote (libgit2),
 * so each player can fetch the campaign and `umpire verify` it; with --site, the campaign's
 * pages (`umpire site`) committed to the branch pages and pushed beside them. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "cmd/site.h"
#include "core/campaign.h"
#include "core/error.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/repo.h"
#include "core/turn.h"
#include "core/banned.h"

#define PUBLISH_PAGES_BRANCH "pages" /* Codeberg Pages' branch; GitHub Pages serves any */

static const char publish_help[] =
	"usage: umpire publish DIR [REMOTE] [--site]\n\n"
	"Pushes every tag (turn-NNNN, close-NNNN), then main, of the campaign in DIR to REMOTE,\n"
	"or to publish.remote of campaign.yaml: a path or URL of a git repository the players\n"
	"clone (a bare repository whose HEAD is main; a local path that does not exist is made\n"
	"one): every tag in one push, then main once the remote took every tag. Never forces:\n"
	"a remote whose main went elsewhere refuses. Not atomic (a remote may refuse one tag\n"
	"and take the others, each refusal named; main then stays where it was): running it\n"
	"again adds what is missing. A remote silent for 30 s while connecting or 60 s while\n"
	"pushing is given up (exit 75; $UMPIRE_PUSH_CONNECT_TIMEOUT and\n"
	"$UMPIRE_PUSH_IDLE_TIMEOUT change them).\n"
	"With --site, the campaign's pages as 'umpire site DIR OUT' writes them are committed\n"
	"(the whole site, a commit whenever it changed, each on the one before) to the branch\n"
	"pages of DIR's repository, and pushed after main, so a git host that serves a branch\n"
	"(Codeberg Pages, GitHub Pages set to deploy from the branch pages) shows them beside\n"
	"the history; the verifier bundle's SHA-256 is printed as 'umpire site' prints it.\n"
	"Then, between turns, the maintenance no turn does: once 50 turns were played since the\n"
	"last, git's loose objects go into one pack (as umpire run does).\n\n"
	"  --site   also build the campaign's pages and push them to the branch pages\n";

/* The site of c committed to the branch pages (repo_commit_branch), at main's time; sum gets
 * the verifier bundle's SHA-256. 0 / -1. */
static int commit_pages(struct campaign *c, char commit_hex[41], size_t *n_files, char sum[65])
{
	struct site s = { 0 };
	long long when = 0;
	char main_hex[41];
	int rc;

	s.c = c;
	rc = site_build(&s, sum);
	if (rc == 0)
		rc = repo_commit_id(c->repo, LAYOUT_BRANCH, main_hex);
	if (rc == 0)
		rc = repo_commit_time(c->repo, LAYOUT_BRANCH, &when);
	if (rc == 0) {
		char *msg = xasprintf("Pages of campaign %s, turn %d\n\n"
				      "umpire site of main at %s\n",
			c->id, s.last, main_hex);
		rc = repo_commit_branch(c->repo, PUBLISH_PAGES_BRANCH, s.files, s.n_files, msg,
			when, commit_hex);
		free(msg);
	}
	*n_files = s.n_files;
	file_list_free(s.files, s.n_files);
	return rc;
}

int cmd_publish_auto(struct campaign *c)
{
	size_t n_tags;
	if (!c->pbem.publish.autopush || !c->pbem.publish.remote)
		return EXIT_OK;
	if (repo_push_all(c->repo, c->pbem.publish.remote, &n_tags) < 0)
		return cmd_error("umpire publish");
	fprintf(stderr, "umpire: published main and %zu %s to %s (publish.auto)\n", n_tags,
		cmd_plural(n_tags, "tag", "tags"), c->pbem.publish.remote);
	return EXIT_OK;
}

int cmd_publish(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "site", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, site = 0;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 's':
			site = 1;
			break;
		case 'h':
			fputs(publish_help, stdout);
			return EXIT_OK;
		default:
			return cmd_usage_see("publish");
		}
	}
	static const char *const operands[] = { "DIR (the campaign folder)",
		"REMOTE (where the players' clone comes from)" };
	if (cmd_operands("publish", argc - optind, argv + optind, operands, 1, 2) != EXIT_OK)
		return EXIT_USAGE;
	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind], CAMPAIGN_LOCK | CAMPAIGN_JOURNAL_IF_ANY) < 0)
		return cmd_error("umpire");
	const char *remote = argc - optind == 2 ? argv[optind + 1] : c->pbem.publish.remote;
	size_t n_tags = 0, n_files = 0;
	char pages[41] = "", sum[65] = "";
	int code = EXIT_OK;
	if (!remote) {
		fprintf(stderr,
			"umpire publish: no remote: give REMOTE or set publish.remote in campaign.yaml\n");
		code = EXIT_USAGE;
	} else if ((site && commit_pages(c, pages, &n_files, sum) < 0) ||
		   repo_push_with(c->repo, remote, site ? PUBLISH_PAGES_BRANCH : NULL, &n_tags) <
			   0) {
		code = cmd_error("umpire publish");
	} else {
		printf("published main and %zu %s to %s\n", n_tags,
			cmd_plural(n_tags, "tag", "tags"), remote);
		if (site)
			printf("published the pages (%zu files, commit %s) to branch %s\n%s  "
			       "verify/verify.js\n",
				n_files, pages, PUBLISH_PAGES_BRANCH, sum);
	}
	/* between turns: the maintenance no turn does (turn_maintain), left to the next call
	 * when it fails */
	if (turn_maintain(c) < 0)
		fprintf(stderr, "umpire publish: maintenance (left for the next call): %s\n",
			error_last()->message);
	error_clear();
	campaign_close(c);
	return code;
}
