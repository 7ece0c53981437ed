/* seal.c — `umpire seal`: what a player of a time-locked campaign runs before sending orders
 * (issue 36): his order file checked as `umpire check` checks it, then encrypted with
 * umpire-tlock to the round the turn's close will name (and, sealed, to the umpire's key). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/file.h"
#include "core/timelock.h"
#include "core/turn.h"
#include "core/banned.h"

static const char seal_help[] =
	"usage: umpire seal ORDERS --campaign CLONE [--turn N] [--round R] [-o OUT]\n\n"
	"For a campaign with orders timelocked: checks the order file ORDERS as 'umpire check'\n"
	"does against the campaign's current state (CLONE: your clone of it), then encrypts it\n"
	"with drand's tlock to the beacon round the turn's close names (and, for a sealed\n"
	"campaign, first to the umpire's age key in campaign.yaml), so nobody, the umpire\n"
	"included, reads it before that round is out. Writes ORDERS.age (or OUT): send that.\n"
	"Needs node (umpire-tlock.mjs). Exit 0 sealed, 65 the orders are refused.\n\n"
	"  --campaign CLONE  the campaign's folder (a plain clone)\n"
	"  --turn N          the turn the orders are for (the open turn, which is the default)\n"
	"  --round R         the round to seal to, when a schedule change the umpire announced\n"
	"                    by mail names it (your clone learns the change at the close)\n"
	"  -o, --output OUT  where to write the sealed file (default ORDERS.age)\n";

/* The options; EXIT_OK, -1 after --help, or EXIT_USAGE. */
static int seal_options(int argc, char **argv, const char **camp, long *turn, long long *round,
	const char **out)
{
	static const struct option opts[] = {
		{ "campaign", required_argument, NULL, 'c' },
		{ "turn", required_argument, NULL, 't' },
		{ "round", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	char *end;

	while ((ch = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			*camp = optarg;
			break;
		case 't':
			*turn = strtol(optarg, &end, 10);
			if (end == optarg || *end || *turn < 1 || *turn > TURN_MAX)
				return cmd_usage("seal", "--turn '%s' (a turn number expected)",
					optarg);
			break;
		case 'r':
			*round = strtoll(optarg, &end, 10);
			if (end == optarg || *end || *round < 1 || *round > (1LL << 50))
				return cmd_usage("seal",
					"--round '%s' (a beacon round number expected)", optarg);
			break;
		case 'o':
			*out = optarg;
			break;
		case 'h':
			fputs(seal_help, stdout);
			return -1;
		default:
			return cmd_usage_see("seal");
		}
	}
	static const char *const operands[] = { "ORDERS (the order file to seal)" };
	int rc = cmd_operands("seal", argc - optind, argv + optind, operands, 1, 1);
	if (rc == EXIT_OK && !*camp)
		return cmd_usage("seal", "missing --campaign CLONE (your clone of the campaign)");
	return rc;
}

/* Writes path (its folder, its name) durably. 0 / -1. */
static int write_out(const char *path, const struct buf *b)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - path) + (slash == path), path) :
			    xstrdup(".");
	int rc = file_write_durable(dir, slash ? slash + 1 : path, b->data, b->len);

	free(dir);
	return rc;
}

/* The checked file sealed to R(turn), or to want when not 0 (a round a schedule change the
 * clone does not hold yet names), into out_path. EXIT_OK or the exit code (said). */
static int seal_checked(struct campaign *c, const struct order_file *f, int turn, long long want,
	const char *out_path)
{
	struct buf sealed = BUF_INIT;
	long long round = want ? want : campaign_turn_round(c, turn);
	int rc = EXIT_OK;

	if (want && want != campaign_turn_round(c, turn))
		fprintf(stderr,
			"umpire seal: note: your clone has turn %d's orders time-locked to round %lld; sealed to round %lld as --round says (a schedule change the umpire announced)\n",
			turn, campaign_turn_round(c, turn), want);
	if (timelock_seal(c, round, c->timelock_recipient, f->bytes, f->len, &sealed) < 0) {
		rc = cmd_error("umpire seal");
	} else if (write_out(out_path, &sealed) < 0) {
		rc = cmd_error("umpire seal");
	} else {
		printf("%s: orders of %s for turn %d of %s, time-locked to beacon round %lld%s: send %s\n",
			f->path, f->player, turn, c->id, round,
			c->timelock_recipient ? " and the umpire's key" : "", out_path);
	}
	buf_release(&sealed);
	return rc;
}

int cmd_seal(int argc, char **argv)
{
	const char *camp = NULL, *out = NULL;
	long want_turn = 0;
	long long want_round = 0;
	struct campaign *c = NULL;
	char *out_path = NULL;
	struct turn t;
	int rc = seal_options(argc, argv, &camp, &want_turn, &want_round, &out);

	if (rc != EXIT_OK)
		return rc < 0 ? EXIT_OK : rc;
	if (campaign_open(&c, camp, 0) < 0)
		return cmd_error("umpire");
	if (!c->orders_timelocked) {
		fprintf(stderr,
			"umpire seal: campaign '%s' takes plain orders (orders: timelocked in campaign.yaml is what seal is for): send the file as it is\n",
			c->id);
		campaign_close(c);
		return EXIT_DATAERR;
	}
	turn_init(&t, c, TURN_LIVE, TURN_CHECK_ONLY | TURN_PLAIN_ORDERS, NULL, NULL, NULL);
	turn_add_order_file(&t, argv[optind]);
	if (turn_run(&t, "load", "orders") < 0) {
		rc = cmd_turn_error(&t);
	} else if (want_turn && want_turn != t.in.turn) {
		fprintf(stderr, "umpire seal: turn %ld is not open: turn %d is (its orders only)\n",
			want_turn, t.in.turn);
		rc = EXIT_DATAERR;
	} else {
		if (diag_warnings(&t.diag))
			diag_print(&t.diag, stderr);
		out_path = out ? xstrdup(out) : xasprintf("%s" TIMELOCK_SUFFIX, argv[optind]);
		rc = seal_checked(c, &t.in.files[0], t.in.turn, want_round, out_path);
	}
	free(out_path);
	turn_release(&t);
	campaign_close(c);
	return rc;
}
