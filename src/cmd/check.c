/* check.c — `umpire check`: what a player runs before sending orders. It runs exactly the
 * parsing and checking code of `umpire turn`, against the campaign's current committed
 * state, and writes nothing. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/turn.h"
#include "core/banned.h"

static const char check_help[] =
	"usage: umpire check DIR ORDERS...\n\n"
	"Checks order files against the campaign's current state, through exactly the code\n"
	"'umpire turn' uses, and reports every problem in every file at once as\n"
	"file:line:column: error: message. Writes nothing. Works on a plain clone of the\n"
	"campaign. Exit 0 if the orders would be accepted, 65 if not.\n";

int cmd_check(int argc, char **argv)
{
	int rc = cmd_options_help_only(argc, argv, check_help);
	if (rc != EXIT_OK)
		return rc < 0 ? EXIT_OK : rc;
	if (argc - optind < 2) {
		fputs(check_help, stderr);
		return EXIT_USAGE;
	}

	struct campaign *c = NULL;
	rc = campaign_open(&c, argv[optind], 0);
	if (rc != EXIT_OK)
		return rc;

	void *state = NULL;
	struct turn_input in;
	struct diag d;
	diag_init(&d);
	turn_input_init(&in, 0);
	rc = turn_load_next(c, &in, &state);
	if (rc != EXIT_OK)
		goto done;
	for (int i = optind + 1; i < argc; i++)
		turn_add_order_file(&in, c, state, argv[i], &d);
	if (diag_count(&d)) {
		diag_print(&d, stderr);
		rc = EXIT_DATAERR;
		goto done;
	}
	for (size_t i = 0; i < in.n_files; i++)
		printf("%s: ok: orders of %s for turn %d of %s\n", in.files[i].path, in.files[i].player,
			in.turn, c->id);
done:
	turn_input_release(&in, c);
	if (state)
		c->rules->state_free(state);
	diag_release(&d);
	campaign_close(c);
	return rc;
}
