/* main.c — umpire's entry point: the command table and dispatch. The only place that calls
 * exit() (by returning from main). */
#include <locale.h>
#include <malloc.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "core/fair.h"
#include "core/suggest.h"
#include "core/banned.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;
};

static const struct command commands[] = {
	{ "init", cmd_init,
		"init DIR --scenario FILE [--secret-file F] [--id ID]  create a campaign" },
	{ "check", cmd_check,
		"check DIR ORDERS...          check order files before sending them" },
	{ "close", cmd_close,
		"close DIR ORDERS... [--allow-missing]  fix a turn's inputs; receipts for the players" },
	{ "reveal", cmd_reveal,
		"reveal DIR [FILE...]         players' nonces (entropy players); no FILE: the sealed reveal" },
	{ "seal", cmd_seal,
		"seal ORDERS --campaign CLONE  time-lock an order file to its turn's round" },
	{ "nonce", cmd_nonce,
		"nonce                        a nonce and its hash, for a player's orders" },
	{ "turn", cmd_turn,
		"turn DIR [ORDERS...] [--beacon VALUE]  process the next turn (a closed one: its files)" },
	{ "inbox", cmd_inbox,
		"inbox DIR --maildir PATH     take orders by mail: check, keep, reply (outbox)" },
	{ "send", cmd_send, "send DIR                     send the outbox over SMTP" },
	{ "outbox", cmd_outbox,
		"outbox DIR [--retry|--drop NAME]  mail not gone: waiting, refused for good" },
	{ "status", cmd_status,
		"status DIR [--json]          the open turn: deadline, who has sent, who is missing" },
	{ "publish", cmd_publish,
		"publish DIR [REMOTE] [--site]  push main, every tag (and the pages) to the players' remote" },
	{ "remind", cmd_remind,
		"remind DIR                   queue reminders to the players still missing" },
	{ "players", cmd_players,
		"players DIR [--set PLAYER ADDRESS...]  the players' addresses (private to the umpire)" },
	{ "pause", cmd_pause,
		"pause DIR --until DATE --reason TEXT  stop the clock: every deadline moves (on the record)" },
	{ "resume", cmd_resume, "resume DIR                   end a pause early" },
	{ "end", cmd_end,
		"end DIR --winner P|--draw --reason TEXT  end the game with the open turn (on the record)" },
	{ "run", cmd_run,
		"run DIR --maildir PATH       inbox, close or turn when due, reports, publish, send (cron)" },
	{ "replay", cmd_replay, "replay DIR                   re-resolve every turn and compare" },
	{ "log", cmd_log, "log DIR [--turn N]           dice and events from the journal" },
	{ "state", cmd_state, "state DIR [--turn N]         the campaign state after a turn" },
	{ "rules", cmd_rules,
		"rules [NAME]                 rule systems, their orders and options" },
	{ "verify", cmd_verify,
		"verify DIR                   check every key, die, turn and commit (works on a clone)" },
	{ "audit", cmd_audit, "audit DIR T:J [--json]       explain die J of turn T step by step" },
	{ "site", cmd_site,
		"site DIR OUT                  the campaign's static pages, with the browser verifier" },
	{ "stats", cmd_stats,
		"stats DIR [--player P] [--sides N] [--for TEXT]  dice counts and a chi-square test" },
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: umpire COMMAND [ARGS]\n\n"
		"umpire referees play-by-email wargames: it checks order files, resolves them with\n"
		"dice drawn from a pre-committed seed chain, journals every die in SQLite and commits\n"
		"each turn to git.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  umpire %s\n", commands[i].synopsis);
	fprintf(out,
		"\n'umpire help COMMAND' (or 'umpire COMMAND --help') describes one command. Exit\n"
		"codes follow sysexits(3):\n"
		"0 ok, 64 usage, 65 bad input, 66 no such campaign/file, 70 internal error,\n"
		"73 cannot create, 74 I/O error, 75 campaign locked.\n");
}

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* The command called name, or NULL. */
static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (strcmp(name, commands[i].name) == 0)
			return &commands[i];
	return NULL;
}

/* Says name is no command, with a did-you-mean; EXIT_USAGE. */
static int unknown_command(const char *name)
{
	const char *names[N_COMMANDS];
	struct buf hint = BUF_INIT;

	for (size_t i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i].name;
	if (suggest_closest(name, names, N_COMMANDS))
		suggest_append(&hint, name, names, N_COMMANDS, 0);
	fprintf(stderr, "umpire: unknown command '%s'%s\nsee 'umpire help'\n", name,
		buf_str(&hint));
	buf_release(&hint);
	return EXIT_USAGE;
}

/* campaign_open's note that it waits for a lock. */
static void wait_notice(const char *message)
{
	fprintf(stderr, "umpire: %s\n", message);
}

/* No core file: a crash must not leave the umpire's secret (or a turn key) on disk. */
static void no_core_dumps(void)
{
	struct rlimit none = { 0, 0 };

	setrlimit(RLIMIT_CORE, &none);
}

int main(int argc, char **argv)
{
	no_core_dumps();
	/* Freed memory stays with the process (a command is short-lived): a big turn parses,
	 * builds and frees states of 50 MB several times, and every page given back to the
	 * system and taken again was a page fault, a third of its time (issue 38). */
	mallopt(M_TRIM_THRESHOLD, 512 * 1024 * 1024);
	mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
	campaign_set_wait_notice(wait_notice);
	/* Determinism: nothing may depend on the user's locale. */
	setlocale(LC_ALL, "C");
	if (fair_init() < 0) {
		fprintf(stderr, "umpire: cannot initialise libsodium\n");
		return EXIT_SOFTWARE;
	}
	if (argc < 2) {
		fprintf(stderr, "umpire: missing COMMAND (one of:");
		for (size_t i = 0; i < N_COMMANDS; i++)
			fprintf(stderr, " %s", commands[i].name);
		fprintf(stderr, ")\nsee 'umpire help'\n");
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "help") == 0 && argc > 2) {
		/* `umpire help CMD` is `umpire CMD --help`. */
		const struct command *cmd = find_command(argv[2]);
		if (!cmd)
			return unknown_command(argv[2]);
		char *help_argv[] = { argv[2], "--help", NULL };
		return cmd->fn(2, help_argv);
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
		strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("umpire 0.1\n");
		return EXIT_OK;
	}
	const struct command *cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	/* getopt names argv[0] in its messages: "umpire check: unrecognized option '--x'". */
	char prog[64];
	snprintf(prog, sizeof prog, "umpire %s", cmd->name);
	argv[1] = prog;
	return cmd->fn(argc - 1, argv + 1);
}
