/* check.c — `umpire check`: what a player runs before sending orders. It runs exactly the
 * parsing and checking code of `umpire turn`, against the campaign's current committed
 * state, and writes nothing. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/layout.h"
#include "core/repo.h"
#include "core/turn.h"
#include "core/banned.h"

static const char check_help[] =
	"usage: umpire check DIR [ORDERS...] [--rulings FILE]\n\n"
	"Checks order files against the campaign's current state, through exactly the code\n"
	"'umpire turn' uses, and reports every problem in every file at once as\n"
	"file:line:column: error: message. What is legal but may not go as planned (a target\n"
	"out of range or sight before anything moves) is a file:line:column: warning: message.\n"
	"Writes nothing. Works on a plain clone of the campaign. Exit 0 if the orders would be\n"
	"accepted (warnings or not), 65 if not.\n\n"
	"  --rulings FILE    the umpire's rulings file (player: umpire), which only the umpire\n"
	"                    gives, this way: an order file saying player: umpire is refused\n";

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rulings", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *rulings = NULL;
	int ch, rc = EXIT_OK;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(check_help, stdout);
			return EXIT_OK;
		}
		if (ch == 'u' && rulings)
			return cmd_usage("check", "one --rulings file at most");
		if (ch != 'u')
			return cmd_usage_see("check");
		rulings = optarg;
	}
	static const char *const operands[] = { "DIR (the campaign folder)",
		"ORDERS... (the order files to check)" };
	if ((rc = cmd_operands("check", argc - optind, argv + optind, operands, rulings ? 1 : 2,
		     -1)) != EXIT_OK)
		return rc;

	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind], 0) < 0)
		return cmd_error("umpire");
	/* After the reveal no turn is open (a rule system's end is said by the pipeline). */
	if (repo_has(c->repo, LAYOUT_REVEAL_TAG)) {
		fprintf(stderr,
			"umpire: the game of campaign '%s' is over (revealed: tag '%s'): no turn takes orders\n",
			c->id, LAYOUT_REVEAL_TAG);
		campaign_close(c);
		return EXIT_DATAERR;
	}

	/* What `turn` runs up to its orders step, for the given files alone. */
	struct turn t;
	turn_init(&t, c, TURN_LIVE, TURN_CHECK_ONLY, NULL, NULL, NULL);
	for (int i = optind + 1; i < argc; i++)
		turn_add_order_file(&t, argv[i]);
	if (rulings)
		turn_add_rulings_file(&t, rulings);
	if (turn_run(&t, "load", "orders") < 0) {
		rc = cmd_turn_error(&t);
	} else {
		if (diag_warnings(&t.diag))
			diag_print(&t.diag, stderr);
		for (size_t i = 0; i < t.in.n_files; i++)
			printf("%s: ok: %s of %s for turn %d of %s\n", t.in.files[i].path,
				t.in.files[i].contribution ? "entropy (not due: no orders)" :
							     "orders",
				t.in.files[i].player, t.in.turn, c->id);
	}
	turn_release(&t);
	campaign_close(c);
	return rc;
}
