/* remind.c — `umpire remind`: a reminder queued to each player due on the open turn who has
 * sent no orders by mail yet, and under entropy players to each player not due who has sent no
 * contribution (once per turn and player: queueing again is harmless). */
#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "mail/inbox.h"
#include "mail/notify.h"
#include "core/clock.h"
#include "core/banned.h"

static const char remind_help[] =
	"usage: umpire remind DIR\n\n"
	"Queues in the outbox a reminder to every player due on the open turn of the campaign in\n"
	"DIR who has no orders kept by 'umpire inbox' yet, with the deadline; under entropy\n"
	"players, also to every player not due who has sent no contribution (his entropy: alone),\n"
	"with the file to send attached. 'umpire send' sends them. One reminder per turn and\n"
	"player, however often it runs.\n";

int cmd_remind(int argc, char **argv)
{
	int rc = cmd_options_help_only(argc, argv, remind_help), turn;
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("remind", argc - optind, argv + optind, operands, 1, 1) != EXIT_OK)
		return EXIT_USAGE;
	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind], CAMPAIGN_LOCK | CAMPAIGN_JOURNAL) < 0)
		return cmd_error("umpire");
	size_t n = 0;
	int code = EXIT_OK;
	if (inbox_open_turn(c, &turn) < 0 || notify_reminders(c, turn, clock_now(), &n) < 0)
		code = cmd_error("umpire remind");
	else
		printf("turn %d: %zu reminder%s queued\n", turn, n, n == 1 ? "" : "s");
	campaign_close(c);
	return code;
}
