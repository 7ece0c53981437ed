/* end.c — `umpire end`: the umpire ends the game with the open turn, naming the winner or a
 * draw and why: an override on the record (core/schedule.h, core/end.h) that the turn's close
 * commits; `umpire run` then closes the turn without waiting for the missing and resolves it,
 * and the game is over after it. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "core/schedule.h"
#include "core/clock.h"
#include "core/banned.h"

static const char end_help[] =
	"usage: umpire end DIR (--winner PLAYER | --draw) --reason TEXT\n\n"
	"Ends the game of the campaign in DIR with its open turn (the first not yet closed):\n"
	"PLAYER wins, or a draw, for REASON. An override on the record: announced by mail to\n"
	"every player, committed by the turn's close; 'umpire run' then closes that turn at\n"
	"once (without the players missing) and resolves it. Its report, 'umpire status' and\n"
	"the game-end mail name the result; every later turn is refused. A side concedes\n"
	"itself with 'concede: true' in its order file. Needs closed turns (entropy beacon or\n"
	"players).\n";

int cmd_end(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "winner", required_argument, NULL, 'w' },
		{ "draw", no_argument, NULL, 'd' },
		{ "reason", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *winner = NULL, *reason = NULL;
	int draw = 0, ch;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(end_help, stdout);
			return EXIT_OK;
		}
		if (ch == 'w')
			winner = optarg;
		else if (ch == 'd')
			draw = 1;
		else if (ch == 'r')
			reason = optarg;
		else
			return cmd_usage_see("end");
	}
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("end", argc - optind, argv + optind, operands, 1, 1) != EXIT_OK)
		return EXIT_USAGE;
	if (!winner == !draw)
		return cmd_usage("end", "--winner PLAYER or --draw expected (one of them)");
	if (!reason || !*reason || strlen(reason) > SCHEDULE_MAX_REASON)
		return cmd_usage("end",
			"--reason TEXT expected (1 to %d bytes): the players read it",
			SCHEDULE_MAX_REASON);
	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind], CAMPAIGN_LOCK | CAMPAIGN_JOURNAL) < 0)
		return cmd_error("umpire");
	int code = cmd_override_ready(c, "umpire end", 0);
	if (code == EXIT_OK && winner && !campaign_has_player(c, winner)) {
		fprintf(stderr, "umpire end: no player '%s' in campaign '%s'\n", winner, c->id);
		code = EXIT_USAGE;
	}
	struct override o = { .kind = OVERRIDE_END,
		.turn = schedule_open_turn(c),
		.at = clock_now(),
		.player = winner ? xstrdup(winner) : NULL,
		.reason = xstrdup(reason) };
	if (code == EXIT_OK && schedule_end(c, o.turn)) {
		fprintf(stderr, "umpire end: turn %d already ends the game\n", o.turn);
		code = EXIT_DATAERR;
	}
	if (code == EXIT_OK)
		code = cmd_override_record(c, &o, "umpire end");
	override_release(&o);
	campaign_close(c);
	return code;
}
