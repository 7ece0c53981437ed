/* inbox.c — `umpire inbox`: orders by mail. Reads a Maildir's new messages, checks each
 * order file as `umpire check` does, keeps the accepted ones as the players' current orders,
 * queues a reply to every sender in the outbox and moves the handled mail to cur/. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "mail/inbox.h"
#include "core/clock.h"
#include "core/banned.h"

static const char inbox_help[] =
	"usage: umpire inbox DIR --maildir PATH\n\n"
	"Reads the new mail in the Maildir PATH (new/) for the campaign in DIR. Each message's\n"
	"order file (a .yaml attachment, or the body from its line 'campaign:' or '---') is\n"
	"checked exactly as 'umpire check' does; the sender must be one of the player's\n"
	"addresses (.umpire/addresses.yaml: 'umpire players DIR'), or the file signed with his\n"
	"ssh_key. Accepted files become the player's current orders for the open turn\n"
	"(.umpire/inbox/turn-NNNN/PLAYER.yaml; a later one replaces them until the close).\n"
	"Every message gets a reply in the outbox (.umpire/outbox/new/; 'umpire send' sends\n"
	"them), is recorded in the journal and is moved to cur/. Mail whose orders name another\n"
	"campaign stays in new/ (an hour, then one reply lists the campaigns sharing the\n"
	"Maildir). Automatic mail (RFC 3834: vacation replies, bounces, bulk and list mail) is\n"
	"moved to cur/ unanswered; once the game is over every file gets a reply saying so.\n"
	"Each message is checked in a process of its own: one whose check crashes, fails\n"
	"unexpectedly or takes over 2 minutes gets a reply, is recorded as refused and is set\n"
	"aside in PATH/umpire-failed/ (told on stderr), and the next message is read.\n"
	"One line per message on stdout.\n\n"
	"The time handled is $SOURCE_DATE_EPOCH when set, else the clock; a message's arrival\n"
	"time is its Maildir file's modification time (its delivery).\n";

static const char *const verdict_names[] = { "accepted", "refused", "duplicate", "other campaign",
	"unreadable", "automatic (not answered)", "set aside (its check failed)" };

int cmd_inbox(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "maildir", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *maildir = NULL;
	int ch;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(inbox_help, stdout);
			return EXIT_OK;
		}
		if (ch != 'm')
			return cmd_usage_see("inbox");
		maildir = optarg;
	}
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("inbox", argc - optind, argv + optind, operands, 1, 1) != EXIT_OK)
		return EXIT_USAGE;
	if (!maildir)
		return cmd_usage("inbox",
			"missing --maildir PATH (the Maildir the orders arrive in)");
	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind], CAMPAIGN_LOCK | CAMPAIGN_JOURNAL) < 0)
		return cmd_error("umpire");
	struct inbox_report rep;
	int rc = inbox_run(c, maildir, clock_now(), &rep), code = EXIT_OK;
	for (size_t i = 0; i < rep.n_items; i++) {
		const struct inbox_item *it = &rep.items[i];
		printf("%s: %s", it->name, verdict_names[it->verdict]);
		if (it->player)
			printf(": %s of %s for turn %d", it->reveal ? "nonce" : "orders",
				it->player, rep.turn);
		printf(" (%s)\n", it->detail);
	}
	if (rc < 0)
		code = cmd_error("umpire inbox");
	inbox_report_release(&rep);
	campaign_close(c);
	return code;
}
