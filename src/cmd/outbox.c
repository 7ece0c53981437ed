/* outbox.c — `umpire outbox`: the umpire's mail that has not gone: what waits in the outbox
 * and what the server refused for good (failed/, with its answer); a refused message can be
 * put back for the next send (after the address is fixed) or dropped. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "mail/outbox.h"
#include "core/banned.h"

static const char outbox_help[] =
	"usage: umpire outbox DIR [--retry NAME | --drop NAME]\n\n"
	"Lists the mail of the campaign in DIR that has not gone: each message waiting in\n"
	".umpire/outbox/new ('waiting': the next send tries it) and each the server refused for\n"
	"good or that is no message ('failed', with the server's answer; umpire never tries it\n"
	"again on its own). Then how many were sent and dropped.\n\n"
	"  --retry NAME   puts the failed message NAME back with those waiting, as it is (once\n"
	"                 what the server refused is fixed on its side)\n"
	"  --drop NAME    gives up a failed or waiting message: it moves to .umpire/outbox/dropped\n";

static int list(const struct campaign *c)
{
	static const char *const folders[] = { "new", "failed" };
	for (size_t f = 0; f < 2; f++) {
		char **names;
		size_t n;
		outbox_list(c, folders[f], &names, &n);
		for (size_t i = 0; i < n; i++) {
			char *why = f ? outbox_reason(c, names[i]) : NULL;
			if (f)
				printf("%s: failed: %s\n", names[i], why ? why : "?");
			else
				printf("%s: waiting\n", names[i]);
			free(why);
			free(names[i]);
		}
		free(names);
	}
	printf("outbox: %zu waiting, %zu failed, %zu sent, %zu dropped\n", outbox_count(c, "new"),
		outbox_count(c, "failed"), outbox_count(c, "sent"), outbox_count(c, "dropped"));
	return EXIT_OK;
}

int cmd_outbox(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "retry", required_argument, NULL, 'r' },
		{ "drop", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = NULL;
	int ch, what = 0;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(outbox_help, stdout);
			return EXIT_OK;
		}
		if (ch != 'r' && ch != 'd')
			return cmd_usage_see("outbox");
		if (what)
			return cmd_usage("outbox", "one --retry or --drop at a time");
		what = ch;
		name = optarg;
	}
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("outbox", argc - optind, argv + optind, operands, 1, 1) != EXIT_OK)
		return EXIT_USAGE;
	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind], what ? CAMPAIGN_LOCK : 0) < 0)
		return cmd_error("umpire");
	int code = EXIT_OK;
	if (!what)
		code = list(c);
	else if ((what == 'r' ? outbox_retry(c, name) : outbox_drop(c, name)) < 0)
		code = cmd_error("umpire outbox");
	else
		printf("%s: %s\n", name,
			what == 'r' ? "waiting again (the next send tries it)" : "dropped");
	campaign_close(c);
	return code;
}
