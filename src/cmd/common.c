/* common.c — what the commands share: the `--help`-only option parser, the --turn value
 * parser, and turning core's last failure into a message and a sysexits code (the only
 * place that maps error classes to exit codes). */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/beacon.h"
#include "core/campaign.h"
#include "core/close.h"
#include "mail/inbox.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/file.h"
#include "core/turn.h"
#include "core/when.h"
#include "core/banned.h"

void cmd_keep_heap(void)
{
	/* A turn of 10,000 dice allocates and frees some megabytes; with glibc's defaults the
	 * freed top of the heap and the large buffers go back to the kernel and come back as
	 * page faults, a tenth of a dense replay's CPU. Best effort: a refused value is ignored. */
	(void)mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
	(void)mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
}

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
	/* The command's name, from its help's first line ("usage: umpire NAME ..."). */
	const char *name = help + strlen("usage: umpire ");
	char cmd[32];
	snprintf(cmd, sizeof cmd, "%.*s", (int)strcspn(name, " \n"), name);
	return cmd_usage_see(cmd);
}

int cmd_usage_see(const char *cmd)
{
	fprintf(stderr, "see 'umpire help %s'\n", cmd);
	return EXIT_USAGE;
}

int cmd_usage(const char *cmd, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	fprintf(stderr, "umpire %s: %s\n", cmd, buf_str(&b));
	buf_release(&b);
	return cmd_usage_see(cmd);
}

int cmd_operands(const char *cmd, int n, char **args, const char *const *names, int min, int max)
{
	struct buf b = BUF_INIT;

	if (n >= min && (max < 0 || n <= max))
		return EXIT_OK;
	if (n < min) {
		buf_puts(&b, "missing ");
		for (int i = n; i < min; i++)
			buf_printf(&b, "%s%s",
				i == n       ? "" :
				i + 1 == min ? " and " :
					       ", ",
				names[i]);
	} else {
		buf_puts(&b, "unexpected argument '");
		escape_terminal(&b, args[max]);
		buf_puts(&b, "' (");
		for (int i = 0; i < max; i++)
			buf_printf(&b, "%s%.*s", i ? " " : "", (int)strcspn(names[i], " "),
				names[i]);
		buf_puts(&b, max ? " expected, no more)" : "it takes no arguments)");
	}
	int code = cmd_usage(cmd, "%s", buf_str(&b));
	buf_release(&b);
	return code;
}

const char *cmd_plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

int cmd_parse_turn(const char *s, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0 || v > TURN_MAX) {
		fprintf(stderr, "umpire: --turn '%s' (a turn number from 0 to %d expected)\n", s,
			TURN_MAX);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int cmd_exit_code(void)
{
	switch (error_last()->klass) {
	case ERROR_INPUT:
		return EXIT_DATAERR;
	case ERROR_MISSING:
		return EXIT_NOINPUT;
	case ERROR_OS:
		return EXIT_IOERR;
	case ERROR_CREATE:
		return EXIT_CANTCREAT;
	case ERROR_BUSY:
		return EXIT_TEMPFAIL;
	case ERROR_USAGE:
		return EXIT_USAGE;
	case ERROR_UNAVAILABLE:
		return EXIT_UNAVAILABLE;
	case ERROR_INTERNAL:
	case ERROR_NONE:
	default:
		return EXIT_SOFTWARE;
	}
}

const char *cmd_message(void)
{
	static struct buf out = BUF_INIT;
	const char *s = error_last()->message;

	buf_clear(&out);
	for (;;) {
		const char *nl = strchr(s, '\n');
		char *line = nl ? xasprintf("%.*s", (int)(nl - s), s) : NULL;
		escape_terminal(&out, line ? line : s);
		free(line);
		if (!nl)
			break;
		buf_puts(&out, "\n");
		s = nl + 1;
	}
	return buf_str(&out);
}

int cmd_check_input_files(const char *const *paths, size_t n, size_t max, const char *what)
{
	struct buf b = BUF_INIT;
	int code = EXIT_OK;

	for (size_t i = 0; i < n; i++) {
		if (file_read(paths[i], max, &b) == 0)
			continue;
		struct buf where = BUF_INIT;
		escape_terminal(&where, paths[i]);
		if (error_last()->klass == ERROR_INPUT)
			fprintf(stderr, "%s:1:1: error: %s %s\n", buf_str(&where), what,
				cmd_message());
		else
			fprintf(stderr, "%s:1:1: error: cannot read %s file: %s\n", buf_str(&where),
				what, cmd_message());
		buf_release(&where);
		if (code == EXIT_OK)
			code = cmd_exit_code();
	}
	buf_release(&b);
	return code;
}

int cmd_error(const char *who)
{
	const char *m = cmd_message();

	fprintf(stderr, "%s: %s\n", who, m[0] ? m : "internal error: unknown");
	return cmd_exit_code();
}

void cmd_print_notes(const struct buf *notes)
{
	const char *p = buf_str(notes);
	struct buf line = BUF_INIT, shown = BUF_INIT;

	while (*p) {
		size_t n = strcspn(p, "\n");
		buf_clear(&line);
		buf_append(&line, p, n);
		buf_clear(&shown);
		escape_terminal(&shown, buf_str(&line));
		fprintf(stderr, "umpire: note: %s\n", buf_str(&shown));
		p += n + (p[n] == '\n');
	}
	buf_release(&line);
	buf_release(&shown);
}

int cmd_turn_error(const struct turn *t)
{
	if (t->failed_step && strcmp(t->failed_step, "orders") == 0 && diag_count(&t->diag)) {
		diag_print(&t->diag, stderr);
		return cmd_exit_code();
	}
	return cmd_error("umpire");
}

/* After a fetch that failed for the network's sake (offline, a relay down): what else takes
 * the round, appended to core's last error (its class kept). */
static void ways_forward(const struct campaign *c, int turn, long long round)
{
	char *was = xstrdup(error_last()->message);

	error_set(error_last()->klass,
		"%s\nturn %d needs beacon round %lld; ways forward: fetch it on another machine and give it by hand (umpire turn %s --beacon VALUE%s), fetch it from another relay (--beacon-url URL), or play a new campaign without a beacon (umpire init --entropy players)",
		was, turn, round, c->dir, c->beacon_key ? " --beacon-signature SIG" : "");
	free(was);
}

int cmd_fetch_beacon(struct campaign *c, const char *url, long long now, int *turn,
	struct beacon_round *out)
{
	struct close_record r;
	char commit[41];
	char *source = url ? NULL : beacon_source_url(c->beacon);
	int rc;

	memset(out, 0, sizeof(*out));
	if (c->entropy != CAMPAIGN_ENTROPY_BEACON)
		return error_set(ERROR_INPUT, "campaign '%s' has entropy %s: no beacon to fetch",
			c->id, campaign_entropy_names[c->entropy]);
	if (!url && !source)
		return error_set(ERROR_INPUT,
			"the campaign's beacon '%s' names no URL to fetch from (--beacon-url URL)",
			c->beacon ? c->beacon : "");
	if (inbox_open_turn(c, turn) < 0) {
		free(source);
		return -1;
	}
	rc = turn_read_close(c, *turn, &r, commit, NULL);
	if (rc == ERROR_NOTFOUND) {
		free(source);
		return error_set(ERROR_INPUT,
			"turn %d is not closed yet, so no beacon round is named for it: close it first (umpire close %s ORDERS...), then fetch the round the close names",
			*turn, c->dir);
	}
	if (rc < 0) {
		free(source);
		return -1;
	}
	if (now < r.round_at) {
		char at[WHEN_MAX];
		when_describe(at, r.round_at, now);
		printf("turn %d: beacon round %lld is out at %s, not yet; run 'umpire turn %s --beacon-fetch' then\n",
			*turn, r.round, at, c->dir);
		rc = 1;
	} else {
		rc = beacon_fetch(url ? url : source, r.round, out);
		if (rc == ERROR_NOTFOUND) {
			printf("turn %d: the beacon has no round %lld yet (%s)\n", *turn, r.round,
				cmd_message());
			rc = 1;
		} else if (rc < 0 && error_last()->klass == ERROR_OS)
			ways_forward(c, *turn, r.round);
	}
	close_release(&r);
	free(source);
	return rc;
}
