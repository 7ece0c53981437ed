/* common.c — argument handling shared by the commands: the `--help`-only option parser and
 * the --turn value parser. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "core/banned.h"

int cmd_options_help_only(int argc, char **argv, const char *help)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch = getopt_long(argc, argv, "h", opts, NULL);
	if (ch == -1)
		return EXIT_OK;
	if (ch == 'h') {
		fputs(help, stdout);
		return -1;
	}
	fputs(help, stderr);
	return EXIT_USAGE;
}

int cmd_parse_turn(const char *s, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0 || v > 999999) {
		fprintf(stderr, "umpire: --turn '%s' (a turn number from 0 to 999999 expected)\n", s);
		return -1;
	}
	*out = (int)v;
	return 0;
}
