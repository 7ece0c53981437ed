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
#include "core/banned.h"

static const char players_help[] =
	"usage: umpire players DIR [--set PLAYER [ADDRESS...]]\n\n"
	"Lists each player of the campaign in DIR with the addresses umpire takes his orders\n"
	"from and mails him at (the first), and whether he signs with an SSH key. The addresses\n"
	"are the umpire's private .umpire/addresses.yaml (never committed); a campaign made\n"
	"before it has them in campaign.yaml.\n"
	"--set PLAYER ADDRESS...  makes ADDRESS... (up to 4; none: no mail for him) PLAYER's\n"
	"addresses in .umpire/addresses.yaml, keeping the other players'.\n";

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

int cmd_players(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *player = NULL;
	int ch;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(players_help, stdout);
			return EXIT_OK;
		}
		if (ch != 's')
			return cmd_usage_see("players");
		player = optarg;
	}
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("players", argc - optind, argv + optind, operands, 1, player ? -1 : 1) !=
		EXIT_OK)
		return EXIT_USAGE;
	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind], player ? CAMPAIGN_LOCK : 0) < 0)
		return cmd_error("umpire");
	int code = EXIT_OK;
	if (player)
		code = set_addresses(c, player, argv + optind + 1, (size_t)(argc - optind - 1));
	if (code == EXIT_OK)
		list_players(c);
	campaign_close(c);
	return code;
}
