/* players.c — `umpire players`: the players' mail addresses, which are private to the umpire
 * (.umpire/addresses.yaml, never committed; docs/formats.md "Play by email"): listed, or one
 * player's replaced with --set. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/node.h"
#include "core/pbem.h"
#include "core/schedule.h"
#include "core/clock.h"
#include "mail/notify.h"
#include "core/banned.h"

static const char players_help[] =
	"usage: umpire players DIR [--set PLAYER [ADDRESS...]]\n"
	"       umpire players DIR --replace PLAYER --email ADDRESS... [--ssh-key KEY]\n"
	"                          [--reason TEXT]\n\n"
	"Lists each player of the campaign in DIR with the addresses umpire takes his orders\n"
	"from and mails him at (the first), and whether he signs with an SSH key. The addresses\n"
	"are the umpire's private .umpire/addresses.yaml (never committed); a campaign made\n"
	"before it has them in campaign.yaml.\n"
	"--set PLAYER ADDRESS...  makes ADDRESS... (up to 4; none: no mail for him) PLAYER's\n"
	"addresses in .umpire/addresses.yaml, keeping the other players'.\n"
	"--replace PLAYER  hands seat PLAYER to another person (a stand-in) from the first turn\n"
	"                  not closed: the seat keeps its id, history and standing orders; the\n"
	"                  old addresses and key stop working; --email ADDRESS (repeatable, up\n"
	"                  to 4) and --ssh-key KEY (a public key line, or a .pub file) are the\n"
	"                  newcomer's. An override on the record: every player is told, the\n"
	"                  turn's close commits 'seat PLAYER: new player from turn N' (never the\n"
	"                  addresses), and the newcomer is mailed his side's briefing and last\n"
	"                  report. Needs closed turns (entropy beacon or players).\n";

static void list_players(const struct campaign *c)
{
	for (size_t i = 0; i < c->n_players; i++) {
		const struct pbem_contact *ct = &c->pbem.contacts[i];
		printf("%-16s ", c->players[i]);
		for (size_t k = 0; k < ct->n_emails; k++)
			printf("%s%s", k ? ", " : "", ct->emails[k]);
		printf("%s%s\n", ct->n_emails ? "" : "(no address)",
			ct->ssh_key ? "; signs with an SSH key" : "");
	}
}

/* PLAYER's addresses become addresses[0..n-1]; the whole file is written durably (0600). */
static int set_addresses(struct campaign *c, const char *player, char **addresses, size_t n)
{
	size_t i = 0;
	if (!node_is_player_id(player)) {
		return cmd_usage("players",
			"'%s' is not a player id (1 to 64 letters, digits, '_', '.' or '-', starting with a letter or a digit)",
			player);
	}
	while (i < c->n_players && strcmp(c->players[i], player) != 0)
		i++;
	if (i == c->n_players) {
		fprintf(stderr, "umpire players: no player '%s' in campaign '%s' (one of:", player,
			c->id);
		for (size_t k = 0; k < c->n_players; k++)
			fprintf(stderr, " %s", c->players[k]);
		fputs(")\n", stderr);
		return EXIT_USAGE;
	}
	struct buf out = BUF_INIT;
	char *udir = xasprintf("%s/.umpire", c->dir);
	int code = EXIT_OK;
	if (pbem_set_addresses(&c->pbem, i, (const char *const *)addresses, n) < 0 ||
		pbem_emit_addresses(&c->pbem, (const char *const *)c->players, &out) < 0 ||
		file_write_durable(udir, LAYOUT_ADDRESSES, out.data, out.len) < 0)
		code = cmd_error("umpire players");
	buf_release(&out);
	free(udir);
	return code;
}

/* The seat's index, or n_players after saying it is no seat (usage). */
static size_t seat_index(const struct campaign *c, const char *player)
{
	size_t i = 0;
	while (i < c->n_players && strcmp(c->players[i], player) != 0)
		i++;
	if (i == c->n_players)
		fprintf(stderr, "umpire players: no player '%s' in campaign '%s'\n", player, c->id);
	return i;
}

/* KEY as given, or the first line of the file it names. A new string, or NULL (said). */
static char *read_key(const char *key)
{
	struct buf b = BUF_INIT;
	if (strncmp(key, "ssh-", 4) == 0 || strncmp(key, "ecdsa-", 6) == 0)
		return xstrdup(key);
	if (file_read(key, PBEM_SSH_KEY_MAX, &b) < 0) {
		fprintf(stderr, "umpire players: --ssh-key '%s': %s\n", key, error_last()->message);
		return NULL;
	}
	char *nl = memchr(b.data, '\n', b.len);
	if (nl)
		*nl = '\0';
	char *s = xstrdup(buf_str(&b));
	buf_release(&b);
	return s;
}

/* --replace: seat player to the newcomer with addresses[0..n-1] and key (NULL: none). */
static int replace_seat(struct campaign *c, const char *player, char **addresses, size_t n,
	const char *key, const char *reason)
{
	size_t i = seat_index(c, player), sent = 0;
	int code = cmd_override_ready(c, "umpire players", 0);
	if (i == c->n_players)
		return EXIT_USAGE;
	if (code != EXIT_OK)
		return code;
	struct override o = { .kind = OVERRIDE_REPLACE,
		.turn = schedule_open_turn(c),
		.at = clock_now(),
		.player = xstrdup(player),
		.reason = xstrdup(reason ? reason : "") };
	if (key && !(o.ssh_key = read_key(key))) {
		override_release(&o);
		return EXIT_NOINPUT;
	}
	int turn = o.turn;
	code = set_addresses(c, player, addresses, n);
	if (code == EXIT_OK)
		code = cmd_override_record(c, &o, "umpire players");
	else
		override_release(&o);
	if (code == EXIT_OK && c->pbem.mail.from &&
		notify_standin(c, i, turn, clock_now(), &sent) < 0)
		code = cmd_error("umpire players");
	if (code == EXIT_OK && sent)
		printf("mail: the briefing and last report queued for %s's new player\n", player);
	return code;
}

int cmd_players(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "replace", required_argument, NULL, 'R' },
		{ "email", required_argument, NULL, 'e' },
		{ "ssh-key", required_argument, NULL, 'k' },
		{ "reason", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *player = NULL, *replace = NULL, *key = NULL, *reason = NULL;
	char *emails[PBEM_MAX_EMAILS + 1];
	size_t n_emails = 0;
	int ch;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(players_help, stdout);
			return EXIT_OK;
		}
		if (ch == 'R')
			replace = optarg;
		else if (ch == 'e' && n_emails <= PBEM_MAX_EMAILS)
			emails[n_emails++] = optarg;
		else if (ch == 'k')
			key = optarg;
		else if (ch == 'r')
			reason = optarg;
		else if (ch == 's')
			player = optarg;
		else
			return cmd_usage_see("players");
	}
	if (replace && (player || n_emails == 0))
		return cmd_usage("players", "--replace PLAYER takes --email ADDRESS, not --set");
	if (!replace && (n_emails || key || reason))
		return cmd_usage("players", "--email, --ssh-key and --reason go with --replace");
	if (reason && strlen(reason) > SCHEDULE_MAX_REASON)
		return cmd_usage("players", "--reason is over %d bytes", SCHEDULE_MAX_REASON);
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("players", argc - optind, argv + optind, operands, 1,
		    player || replace ? -1 : 1) != EXIT_OK)
		return EXIT_USAGE;
	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind],
		    player || replace ? CAMPAIGN_LOCK | CAMPAIGN_JOURNAL : 0) < 0)
		return cmd_error("umpire");
	int code = EXIT_OK;
	for (int k = optind + 1; replace && k < argc && n_emails <= PBEM_MAX_EMAILS; k++)
		emails[n_emails++] = argv[k]; /* --email A B: the addresses after DIR too */
	if (replace)
		code = replace_seat(c, replace, emails, n_emails, key, reason);
	else if (player)
		code = set_addresses(c, player, argv + optind + 1, (size_t)(argc - optind - 1));
	if (code == EXIT_OK)
		list_players(c);
	campaign_close(c);
	return code;
}
