/* close.c — the closed-turn commands (docs/fairness.md, "Closed turns"): `umpire close`
 * fixes a turn's inputs and prints a receipt per player; `umpire reveal` takes the players'
 * nonces after the close (entropy players); `umpire nonce` draws a nonce for a player. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/close.h"
#include "core/file.h"
#include "mail/inbox.h"
#include "mail/notify.h"
#include "core/receipt.h"
#include "core/layout.h"
#include "core/clock.h"
#include "core/turn.h"
#include "core/reveal.h"
#include "core/when.h"
#include "core/banned.h"

static const char close_help[] =
	"usage: umpire close DIR ORDERS... [--rulings FILE] [--allow-missing] [--inbox]\n"
	"                    [--beacon-round R] [--receipts OUTDIR]\n\n"
	"Closes the next turn of the campaign in DIR: checks every order file as 'umpire turn'\n"
	"would, then fixes the turn's inputs before any randomness is known: each file's SHA-256,\n"
	"the umpire's rulings, the players without orders, D_t, and the randomness to come (the\n"
	"beacon round, or the players' reveals). Commits journal/turn-NNNN.close.yaml, tags\n"
	"close-NNNN and prints one receipt per player, to send at once. 'umpire turn' then\n"
	"resolves exactly these inputs and refuses any other.\n\n"
	"  --rulings FILE      the umpire's rulings file (player: umpire)\n"
	"  --allow-missing     a due player without a file is closed as 'no orders'\n"
	"  --beacon-round R    check that the close names round R: it names the first one\n"
	"                      fairness.beacon_delay after the close, never another\n"
	"  --receipts OUTDIR   also write each receipt to OUTDIR/PLAYER.yaml\n"
	"  --inbox             also the orders 'umpire inbox' kept for the turn\n\n"
	"With a schedule in campaign.yaml whose missing is no-orders, a due player without a file\n"
	"once the deadline and the grace are over is closed as 'no orders' without\n"
	"--allow-missing; before, the close needs every due player's file (or --allow-missing).\n"
	"The close time is $SOURCE_DATE_EPOCH when set, else the clock.\n";

/* Prints (and with outdir writes) the receipt of every player, due or not: each is a witness
 * of the close (docs/fairness.md, "Receipts"). */
static int print_receipts(const struct turn *t, const char *outdir)
{
	const struct campaign *c = t->c;
	int rc = EXIT_OK;

	for (size_t i = 0; i < c->n_players; i++) {
		struct buf r = BUF_INIT;
		char *name = xasprintf("%s.yaml", c->players[i]);
		turn_receipt(t, c->players[i], &r);
		printf("\n%s", buf_str(&r));
		if (outdir && file_write_durable(outdir, name, r.data, r.len) < 0)
			rc = cmd_error("umpire close");
		free(name);
		buf_release(&r);
	}
	return rc;
}

/* The receipts by mail, queued for every player with an address, and what is still to do:
 * a close is the players' witness only once they hold its receipts and the close commit is
 * public (docs/fairness.md, "Receipts"). EXIT_OK or the code. */
static int print_to_send(struct campaign *c, const struct turn *t)
{
	size_t queued = 0, named = c->n_players;
	int rc = notify_receipts(c, t->in.turn, t->when, &queued);

	if (rc < 0)
		return cmd_error("umpire close: receipts");
	printf("\nto send:");
	if (queued)
		printf(" %zu receipt mail%s queued in the outbox ('umpire send' or 'umpire run' sends them);",
			queued, queued == 1 ? "" : "s");
	if (named > queued)
		printf(" %zu receipt%s above to give by hand (no address);", named - queued,
			named - queued == 1 ? "" : "s");
	if (!c->pbem.publish.autopush || !c->pbem.publish.remote)
		printf(" the close commit to publish ('umpire publish');");
	printf(" at once, before beacon rounds or reveals come out\n");
	return EXIT_OK;
}

static void print_closed(const struct turn *t)
{
	const struct close_record *r = &t->close;
	char hex[65];

	hex_encode(hex, r->digest, FAIR_HASH_BYTES);
	printf("Turn %d closed: %zu %s, %zu %s without; D_t %s\n", r->turn, r->n_orders,
		cmd_plural(r->n_orders, "order file", "order files"), r->n_missing,
		cmd_plural(r->n_missing, "player", "players"), hex);
	if (r->entropy == CAMPAIGN_ENTROPY_BEACON) {
		char at[WHEN_MAX];
		when_describe(at, r->round_at, r->closed_at);
		if (t->c->beacon_key)
			printf("randomness: %s round %lld, out at %s; then run 'umpire turn %s --beacon-fetch' (or --beacon VALUE --beacon-signature SIG)\n",
				t->c->beacon, r->round, at, t->c->dir);
		else
			printf("randomness: %s round %lld, out at %s; then run 'umpire turn %s --beacon VALUE' (an unsigned beacon: nobody checks its value but the players)\n",
				t->c->beacon, r->round, at, t->c->dir);
	} else
		printf("randomness: the players' nonces (umpire reveal DIR FILE..., then umpire turn DIR)\n");
	if (t->c->n_timestamps && !(t->status & TURN_ALREADY_CLOSED))
		printf("time stamps: %zu of %zu authorities committed with the close\n", t->stamped,
			t->c->n_timestamps);
	printf("tag close-%04d, commit %s\n", r->turn, t->close_commit);
}

int cmd_close(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "allow-missing", no_argument, NULL, 'm' },
		{ "rulings", required_argument, NULL, 'u' },
		{ "beacon-round", required_argument, NULL, 'r' },
		{ "receipts", required_argument, NULL, 'o' },
		{ "inbox", no_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *rulings = NULL, *outdir = NULL;
	long long round = 0;
	unsigned flags = TURN_CLOSING;
	int ch, inbox = 0;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		char *end;
		switch (ch) {
		case 'm':
			flags |= TURN_ALLOW_MISSING;
			break;
		case 'u':
			rulings = optarg;
			break;
		case 'o':
			outdir = optarg;
			break;
		case 'i':
			inbox = 1;
			break;
		case 'r':
			round = strtoll(optarg, &end, 10);
			if (end == optarg || *end || round < 1 || round > (1LL << 50)) {
				return cmd_usage("close",
					"--beacon-round '%s' (a round number from 1 expected)",
					optarg);
			}
			break;
		case 'h':
			fputs(close_help, stdout);
			return EXIT_OK;
		default:
			return cmd_usage_see("close");
		}
	}
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("close", argc - optind, argv + optind, operands, 1, -1) != EXIT_OK)
		return EXIT_USAGE;
	struct campaign *c = NULL;
	size_t n_inbox = 0;
	if (campaign_open(&c, argv[optind], CAMPAIGN_LOCK | CAMPAIGN_JOURNAL) < 0)
		return cmd_error("umpire");
	if (round && c->entropy != CAMPAIGN_ENTROPY_BEACON) {
		fprintf(stderr,
			"umpire close: campaign '%s' takes no beacon: --beacon-round not accepted\n",
			c->id);
		campaign_close(c);
		return EXIT_USAGE;
	}
	struct turn t;
	turn_init(&t, c, TURN_LIVE, flags, NULL, NULL, NULL);
	t.when = clock_now();
	t.round_override = round;
	for (int i = optind + 1; i < argc; i++)
		turn_add_order_file(&t, argv[i]);
	if (inbox && inbox_add_to_turn(c, &t, &n_inbox) < 0) {
		turn_release(&t);
		campaign_close(c);
		return cmd_error("umpire close");
	}
	int next;
	if (inbox_open_turn(c, &next) == 0 && inbox_missing_allowed(c, next, t.when))
		t.flags |= TURN_ALLOW_MISSING;
	if (rulings)
		turn_add_rulings_file(&t, rulings);
	int rc = turn_run(&t, "recover", "close"), code = EXIT_OK;
	cmd_print_notes(&t.notes);
	if (rc < 0)
		code = cmd_turn_error(&t);
	else if (t.status & TURN_ALREADY_DONE)
		printf("Turn %d was already processed with these order files; nothing to do\n",
			t.last->turn);
	else {
		if (t.status & TURN_ALREADY_CLOSED)
			printf("Turn %d was already closed with these files; its receipts again:\n",
				t.in.turn);
		print_closed(&t);
		code = print_receipts(&t, outdir);
		if (code == EXIT_OK)
			code = cmd_publish_auto(c);
		if (code == EXIT_OK)
			code = print_to_send(c, &t);
	}
	turn_release(&t);
	campaign_close(c);
	return code;
}

static const char reveal_help[] =
	"usage: umpire reveal DIR FILE...\n"
	"       umpire reveal DIR\n\n"
	"Takes the players' reveals for the closed turn of a campaign with entropy players. A\n"
	"reveal file holds campaign, turn, player and nonce (64 hex digits); the nonce must hash\n"
	"to the entropy the player's order file committed to. Accepted nonces wait in\n"
	".umpire/reveals/ for 'umpire turn'.\n\n"
	"With no FILE, on a sealed campaign (visibility: sealed): the reveal of the game's end.\n"
	"One commit \"Reveal\", tagged 'reveal', publishes under reveal/turn-NNNN/ every order\n"
	"file, the whole state after each turn and every salt the sealed turns withheld; from\n"
	"then on 'umpire verify' re-runs every turn in full from a clone, and no turn follows.\n";

/* One reveal file against the pending close: checked, then kept. EXIT_OK or the code. */
static int take_reveal(struct campaign *c, const struct close_record *r, const char *path)
{
	struct buf bytes = BUF_INIT;
	struct diag d;
	char *player = NULL;
	uint8_t nonce[FAIR_HASH_BYTES];
	struct buf why = BUF_INIT;
	int code = EXIT_OK;

	diag_init(&d);
	if (file_read(path, 4096, &bytes) < 0) {
		code = cmd_error("umpire reveal");
		goto done;
	}
	if (close_reveal_file_parse(path, &bytes, c->id, r->turn, &player, nonce, &d) < 0) {
		diag_print(&d, stderr);
		code = EXIT_DATAERR;
		goto done;
	}
	if (close_reveal_check(r, player, nonce, &why) != 0) {
		fprintf(stderr, "%s: error: %s\n", path, buf_str(&why));
		code = EXIT_DATAERR;
		goto done;
	}
	if (turn_keep_reveal(c, r->turn, player, nonce) < 0) {
		code = cmd_error("umpire reveal");
	} else {
		struct buf receipt = BUF_INIT;
		printf("%s: ok: %s's nonce for turn %d matches the close\n", path, player, r->turn);
		receipt_reveal(&receipt, c->id, r->turn, player, nonce);
		printf("\n%s", buf_str(&receipt));
		buf_release(&receipt);
		int q = notify_reveal_receipt(c, r->turn, player, nonce, clock_now());
		if (q < 0)
			code = cmd_error("umpire reveal");
		else
			printf("to send: %s\n",
				q == 0 ?
					"the receipt mail is queued in the outbox ('umpire send')" :
					"give him this receipt by hand (no address)");
	}
done:
	free(player);
	diag_release(&d);
	buf_release(&bytes);
	buf_release(&why);
	return code;
}

/* `umpire reveal DIR`: the reveal commit of a sealed campaign. */
static int reveal_sealed(const char *dir)
{
	struct campaign *c = NULL;
	char id[41];
	int last = -1, code = EXIT_OK;

	if (campaign_open(&c, dir, CAMPAIGN_LOCK | CAMPAIGN_JOURNAL) < 0)
		return cmd_error("umpire");
	int rc = reveal_commit(c, clock_now(), &last, id);
	if (rc < 0)
		code = cmd_error("umpire");
	else if (rc == 1)
		printf("campaign '%s' was revealed already: commit %s (tag " LAYOUT_REVEAL_TAG
		       ")\n",
			c->id, id);
	else
		printf("Revealed turns 0 to %d of '%s': every order file, whole state and salt; tag " LAYOUT_REVEAL_TAG
		       ", commit %s\n'umpire verify' now re-runs every turn from a clone\n",
			last, c->id, id);
	campaign_close(c);
	return code;
}

int cmd_reveal(int argc, char **argv)
{
	int code = cmd_options_help_only(argc, argv, reveal_help);
	if (code != EXIT_OK)
		return code < 0 ? EXIT_OK : code;
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("reveal", argc - optind, argv + optind, operands, 1, -1) != EXIT_OK)
		return EXIT_USAGE;
	if (argc - optind == 1)
		return reveal_sealed(argv[optind]);
	code = cmd_check_input_files((const char *const *)argv + optind + 1,
		(size_t)(argc - optind - 1), 4096, "reveal");
	if (code != EXIT_OK)
		return code;
	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind], CAMPAIGN_LOCK | CAMPAIGN_JOURNAL) < 0)
		return cmd_error("umpire");
	struct close_record r;
	char commit[41];
	int last = -1;
	int rc = c->entropy != CAMPAIGN_ENTROPY_PLAYERS ?
			 error_set(ERROR_INPUT, "campaign '%s' has entropy %s: it takes no reveals",
				 c->id, campaign_entropy_names[c->entropy]) :
			 journal_last_turn(c->journal, &last);
	if (rc == 0)
		rc = turn_read_close(c, last + 1, &r, commit, NULL);
	if (rc == ERROR_NOTFOUND)
		rc = error_set(ERROR_INPUT, "turn %d is not closed: there is nothing to reveal yet",
			last + 1);
	if (rc < 0)
		code = cmd_error("umpire");
	for (int i = optind + 1; rc == 0 && i < argc; i++) {
		int one = take_reveal(c, &r, argv[i]);
		if (one != EXIT_OK && code == EXIT_OK)
			code = one;
	}
	if (rc == 0)
		close_release(&r);
	campaign_close(c);
	return code;
}

static const char nonce_help[] =
	"usage: umpire nonce [--campaign ID --turn N --player P]\n\n"
	"Draws a nonce for a player of a campaign with entropy players (32 bytes from the OS\n"
	"random generator) and prints it with its SHA-256. The 'entropy:' line goes into the\n"
	"order file (a player who is not due sends it alone: campaign, turn, player, entropy,\n"
	"no orders); the nonce stays secret until the turn is closed, then goes in the reveal.\n"
	"With --campaign, --turn and --player the output is that reveal file, as 'umpire\n"
	"reveal' and the umpire's inbox take it: save it, copy its entropy: line into your\n"
	"orders for that turn, and send the file itself once the turn is closed.\n";

/* 1 if s is a campaign id (docs/formats.md: [A-Za-z0-9_.-], 1 to 64 bytes). */
static int campaign_id_ok(const char *s)
{
	size_t n = strlen(s);
	return n >= 1 && n <= 64 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == n;
}

int cmd_nonce(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "campaign", required_argument, NULL, 'c' },
		{ "turn", required_argument, NULL, 't' },
		{ "player", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint8_t nonce[FAIR_HASH_BYTES], h[FAIR_HASH_BYTES];
	char hex[65], ehex[65];
	const char *campaign = NULL, *player = NULL;
	int ch, turn = -1;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			campaign = optarg;
			break;
		case 'p':
			player = optarg;
			break;
		case 't':
			if (cmd_parse_turn(optarg, &turn) < 0)
				return EXIT_USAGE;
			break;
		case 'h':
			fputs(nonce_help, stdout);
			return EXIT_OK;
		default:
			return cmd_usage_see("nonce");
		}
	}
	if (cmd_operands("nonce", argc - optind, argv + optind, NULL, 0, 0) != EXIT_OK)
		return EXIT_USAGE;
	int given = (campaign != NULL) + (player != NULL) + (turn >= 0);
	if (given != 0 && given != 3)
		return cmd_usage("nonce",
			"--campaign, --turn and --player go together (all three or none)");
	if (turn == 0)
		return cmd_usage("nonce", "--turn 0 (a turn from 1 expected)");
	if (campaign && !campaign_id_ok(campaign))
		return cmd_usage("nonce",
			"--campaign '%s' (a campaign id: letters, digits, '_', '.', '-')",
			campaign);
	if (player && !node_is_player_id(player))
		return cmd_usage("nonce", "--player '%s' (a player id expected)", player);
	fair_random(nonce, sizeof nonce);
	hex_encode(hex, nonce, FAIR_HASH_BYTES);
	fair_sha256(h, nonce, FAIR_HASH_BYTES);
	hex_encode(ehex, h, FAIR_HASH_BYTES);
	fair_wipe(nonce, sizeof nonce);
	if (given) {
		printf("# umpire nonce: %s's reveal for turn %d of %s. Keep this file secret until the\n"
		       "# turn is closed, then send it to the umpire (by mail, or umpire reveal DIR FILE).\n"
		       "# Its entropy: line goes into your order file for turn %d.\n"
		       "campaign: %s\nturn: %d\nplayer: %s\nnonce: %s\nentropy: %s\n",
			player, turn, campaign, turn, campaign, turn, player, hex, ehex);
	} else {
		printf("# the nonce: keep it secret until the turn is closed, then send it in your "
		       "reveal\nnonce: %s\n# its SHA-256: put this line in your order file\n"
		       "entropy: %s\n",
			hex, ehex);
		fputs("umpire nonce: with --campaign ID --turn N --player P it prints the reveal file "
		      "itself\n",
			stderr);
	}
	fair_wipe(hex, sizeof hex);
	return EXIT_OK;
}
