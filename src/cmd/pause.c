/* pause.c — `umpire pause` and `umpire resume`: the umpire stops the campaign's clock until a
 * date and starts it again, each an override on the record (core/schedule.h): every deadline
 * from the open turn on moves, the players are told by mail, the turn's close commits it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "core/pbem.h"
#include "core/schedule.h"
#include "core/clock.h"
#include "mail/notify.h"
#include "core/banned.h"

static const char pause_help[] =
	"usage: umpire pause DIR --until DATE --reason TEXT\n"
	"       umpire resume DIR [--reason TEXT]\n\n"
	"pause: stops the clock of the campaign in DIR until DATE (UTC, 2026-01-10T18:00:00Z):\n"
	"every deadline from the open turn on moves by the pause's length, no turn closes and no\n"
	"reminder goes out before DATE. resume: ends a pause before its DATE; the deadlines move\n"
	"back by the time not used. Each is an override on the record: kept in\n"
	".umpire/overrides.yaml, announced by mail to every player, committed by the open turn's\n"
	"close ('overrides:' of its close file), listed by 'umpire log DIR --umpire'; 'umpire\n"
	"verify' fails a change that moved a deadline which had passed when it was made. Needs a\n"
	"schedule and closed turns (entropy beacon or players).\n";

/* The checks every override command makes of c before recording one. EXIT_OK or a code. */
int cmd_override_ready(const struct campaign *c, const char *who, int needs_schedule)
{
	if (c->entropy == CAMPAIGN_ENTROPY_NONE) {
		fprintf(stderr,
			"%s: campaign '%s' has entropy none: no close commits an override (closed turns, entropy beacon or players, needed)\n",
			who, c->id);
		return EXIT_DATAERR;
	}
	if (needs_schedule && !c->pbem.schedule.set) {
		fprintf(stderr, "%s: campaign '%s' has no schedule: there is no deadline to move\n",
			who, c->id);
		return EXIT_DATAERR;
	}
	return EXIT_OK;
}

/* Records o (taken over) and announces it to every player. EXIT_OK or a code. */
int cmd_override_record(struct campaign *c, struct override *o, const char *who)
{
	size_t n = 0;
	if (schedule_add(c, o) < 0) {
		override_release(o);
		return cmd_error(who);
	}
	size_t k = c->pbem.n_overrides - 1;
	struct buf line = BUF_INIT;
	override_describe(&line, &c->pbem.overrides[k]);
	printf("%s\n", buf_str(&line));
	buf_release(&line);
	if (c->pbem.mail.from && notify_override(c, k, c->pbem.overrides[k].at, &n) < 0)
		return cmd_error(who);
	if (n)
		printf("mail: the announcement queued for %zu player%s\n", n, n == 1 ? "" : "s");
	return EXIT_OK;
}

static int pause_or_resume(int argc, char **argv, int resume)
{
	static const struct option opts[] = {
		{ "until", required_argument, NULL, 'u' },
		{ "reason", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = resume ? "resume" : "pause", *until = NULL, *reason = NULL;
	int ch;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(pause_help, stdout);
			return EXIT_OK;
		}
		if (ch == 'u' && !resume)
			until = optarg;
		else if (ch == 'r')
			reason = optarg;
		else
			return cmd_usage_see(name);
	}
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands(name, argc - optind, argv + optind, operands, 1, 1) != EXIT_OK)
		return EXIT_USAGE;
	struct override o = { .kind = resume ? OVERRIDE_RESUME : OVERRIDE_PAUSE };
	if (!resume && (!until || pbem_parse_utc(until, &o.until) < 0))
		return cmd_usage(name, "--until DATE (UTC, like 2026-01-10T18:00:00Z) expected");
	if (!resume && (!reason || !*reason))
		return cmd_usage(name, "--reason TEXT expected: the players read it");
	if (reason && strlen(reason) > SCHEDULE_MAX_REASON)
		return cmd_usage(name, "--reason is over %d bytes", SCHEDULE_MAX_REASON);
	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind], CAMPAIGN_LOCK | CAMPAIGN_JOURNAL) < 0)
		return cmd_error("umpire");
	char who[32];
	snprintf(who, sizeof who, "umpire %s", name);
	int code = cmd_override_ready(c, who, 1);
	long long paused_until;
	o.at = clock_now();
	o.turn = schedule_open_turn(c);
	o.reason = xstrdup(reason ? reason : "");
	if (code == EXIT_OK && resume && !schedule_paused(c, o.at, &paused_until)) {
		fprintf(stderr, "%s: campaign '%s' is not paused\n", who, c->id);
		code = EXIT_DATAERR;
	}
	if (code == EXIT_OK) {
		o.shift = resume ? o.at - paused_until : o.until - o.at;
		code = cmd_override_record(c, &o, who);
	}
	override_release(&o);
	campaign_close(c);
	return code;
}

int cmd_pause(int argc, char **argv)
{
	return pause_or_resume(argc, argv, 0);
}

int cmd_resume(int argc, char **argv)
{
	return pause_or_resume(argc, argv, 1);
}
