/* publish.c — `umpire publish`: main and every tag pushed to the players' remote (libgit2),
 * so each player can fetch the campaign and `umpire verify` it. */
#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "core/error.h"
#include "core/turn.h"
#include "core/banned.h"

static const char publish_help[] =
	"usage: umpire publish DIR [REMOTE]\n\n"
	"Pushes every tag (turn-NNNN, close-NNNN), then main, of the campaign in DIR to REMOTE,\n"
	"or to publish.remote of campaign.yaml: a path or URL of a git repository the players\n"
	"clone (a bare repository whose HEAD is main; a local path that does not exist is made\n"
	"one): every tag in one push, then main once the remote took every tag. Never forces:\n"
	"a remote whose main went elsewhere refuses. Not atomic (a remote may refuse one tag\n"
	"and take the others, each refusal named; main then stays where it was): running it\n"
	"again adds what is missing. A remote silent for 30 s while connecting or 60 s while\n"
	"pushing is given up (exit 75; $UMPIRE_PUSH_CONNECT_TIMEOUT and\n"
	"$UMPIRE_PUSH_IDLE_TIMEOUT change them).\n"
	"Then, between turns, the maintenance no turn does: once 50 turns were played since the\n"
	"last, git's loose objects go into one pack (as umpire run does).\n";

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
	int rc = cmd_options_help_only(argc, argv, publish_help);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	static const char *const operands[] = { "DIR (the campaign folder)",
		"REMOTE (where the players' clone comes from)" };
	if (cmd_operands("publish", argc - optind, argv + optind, operands, 1, 2) != EXIT_OK)
		return EXIT_USAGE;
	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind], CAMPAIGN_LOCK | CAMPAIGN_JOURNAL_IF_ANY) < 0)
		return cmd_error("umpire");
	const char *remote = argc - optind == 2 ? argv[optind + 1] : c->pbem.publish.remote;
	size_t n_tags = 0;
	int code = EXIT_OK;
	if (!remote) {
		fprintf(stderr,
			"umpire publish: no remote: give REMOTE or set publish.remote in campaign.yaml\n");
		code = EXIT_USAGE;
	} else if (repo_push_all(c->repo, remote, &n_tags) < 0) {
		code = cmd_error("umpire publish");
	} else {
		printf("published main and %zu %s to %s\n", n_tags,
			cmd_plural(n_tags, "tag", "tags"), remote);
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
