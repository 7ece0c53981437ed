/* turn.c — `umpire turn`: process the next turn, all-or-nothing: finish any turn a crash
 * left half-done, check every order file, resolve, append to the journal, commit to git. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/beacon.h"
#include "mail/inbox.h"
#include "core/layout.h"
#include "core/clock.h"
#include "core/turn.h"
#include "core/banned.h"

static const char turn_help[] =
	"usage: umpire turn DIR [ORDERS...] [--rulings FILE] [--allow-missing] [--inbox]\n"
	"                   [--beacon VALUE [--beacon-signature SIG] [--beacon-round R]]\n"
	"                   [--beacon-fetch [--beacon-url URL]]\n\n"
	"Processes the next turn of the campaign in DIR. With entropy beacon or players the turn\n"
	"was closed first (umpire close): it is resolved from exactly the closed files (those\n"
	"the close kept when none are given; any other is refused) and the randomness the close\n"
	"named. With entropy none, from the given order files (one per due player, plus the\n"
	"umpire's rulings with --rulings). Every file is checked first; any error stops the turn\n"
	"with nothing written. Then the turn seed is derived from the committed key chain, the\n"
	"orders and the randomness, the rule system resolves the turn, and the journal and git\n"
	"(one commit, tag turn-NNNN) are updated together.\n\n"
	"  --rulings FILE    the umpire's rulings file (player: umpire): only this way, so an\n"
	"                    order file saying player: umpire is refused\n"
	"  --allow-missing   entropy none: a due player without a file is journaled as 'no\n"
	"                    orders'; entropy players: a player who did not reveal his nonce\n"
	"                    by the deadline is journaled, his committed hash standing in\n"
	"  --beacon VALUE    entropy beacon: the value of the round the close named (required);\n"
	"                    B_t = SHA256(VALUE)\n"
	"  --beacon-round R  the round it came from: must be the close's\n"
	"  --beacon-signature SIG  the round's signature as the beacon published it (hex),\n"
	"                    required when campaign.yaml names the beacon's public key (drand\n"
	"                    quicknet, the demo beacon): VALUE must be SHA256(signature) and the\n"
	"                    signature must pass the BLS check of the close's round under that\n"
	"                    key (docs/fairness.md); journaled with the value\n"
	"  --beacon-fetch    entropy beacon: fetch the round the close named from the beacon\n"
	"                    (drand's HTTP API: its randomness and signature, checked as above)\n"
	"  --beacon-url URL  where to fetch from instead of the campaign's beacon: a URL with\n"
	"                    ROUND in it, or a drand chain's base URL (.../CHAINHASH), which\n"
	"                    gets /public/ROUND\n"
	"  --inbox           entropy none: also the orders 'umpire inbox' kept for the turn\n\n"
	"With entropy none and a schedule in campaign.yaml whose missing is no-orders, a due\n"
	"player without a file once the deadline and grace are over needs no --allow-missing.\n"
	"The commit time is $SOURCE_DATE_EPOCH when set, else the clock.\n";

/* --beacon-fetch: the round the close named, from the beacon, set on t with its signature.
 * EXIT_OK, EXIT_TEMPFAIL when the round is not out yet, or the exit code. */
static int fetch_beacon(struct campaign *c, struct turn *t, const char *url)
{
	struct beacon_round fetched;
	char round[32];
	int turn, rc = cmd_fetch_beacon(c, url, t->when, &turn, &fetched);

	if (rc != 0)
		return rc > 0 ? EXIT_TEMPFAIL : cmd_error("umpire turn: beacon");
	snprintf(round, sizeof(round), "%lld", fetched.round);
	turn_set_beacon(t, fetched.randomness, round);
	turn_set_beacon_signature(t, fetched.signature);
	fprintf(stderr, "umpire: beacon round %s: randomness %s (SHA256 of its signature)\n", round,
		fetched.randomness);
	beacon_round_release(&fetched);
	return EXIT_OK;
}

/* What the command line asked for. The strings point into argv. */
struct turn_args {
	const char *dir;          /* the campaign */
	char **orders;            /* the order files named after DIR */
	int n_orders;             /* how many */
	const char *rulings;      /* --rulings FILE, or NULL */
	int allow_missing;        /* --allow-missing */
	int inbox;                /* --inbox */
	int fetch;                /* --beacon-fetch */
	const char *beacon_value; /* --beacon VALUE, or NULL */
	const char *beacon_round; /* --beacon-round R, or NULL */
	const char *signature;    /* --beacon-signature SIG, or NULL */
	const char *url;          /* --beacon-url URL, or NULL */
};

static const struct option turn_options[] = {
	{ "allow-missing", no_argument, NULL, 'm' },
	{ "rulings", required_argument, NULL, 'u' },
	{ "beacon", required_argument, NULL, 'b' },
	{ "beacon-round", required_argument, NULL, 'r' },
	{ "beacon-signature", required_argument, NULL, 's' },
	{ "beacon-fetch", no_argument, NULL, 'f' },
	{ "beacon-url", required_argument, NULL, 'U' },
	{ "inbox", no_argument, NULL, 'i' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The options into a, up to the operands (optind). 0 to go on, -1 when help was printed
 * (exit 0), or EXIT_USAGE after saying why. */
static int parse_options(struct turn_args *a, int argc, char **argv)
{
	int ch;

	while ((ch = getopt_long(argc, argv, "h", turn_options, NULL)) != -1) {
		switch (ch) {
		case 'm':
			a->allow_missing = 1;
			break;
		case 'i':
			a->inbox = 1;
			break;
		case 'b':
			a->beacon_value = optarg;
			break;
		case 'r':
			a->beacon_round = optarg;
			break;
		case 's':
			a->signature = optarg;
			break;
		case 'f':
			a->fetch = 1;
			break;
		case 'U':
			a->url = optarg;
			break;
		case 'u':
			if (a->rulings)
				return cmd_usage("turn", "one --rulings file at most");
			a->rulings = optarg;
			break;
		case 'h':
			fputs(turn_help, stdout);
			return -1;
		default:
			return cmd_usage_see("turn");
		}
	}
	return 0;
}

/* The whole command line into a: the options, then DIR and the order files, and the
 * --beacon* options that go together. 0, -1 after --help, or EXIT_USAGE after saying why. */
static int parse_args(struct turn_args *a, int argc, char **argv)
{
	int rc;

	memset(a, 0, sizeof(*a));
	rc = parse_options(a, argc, argv);
	if (rc != 0)
		return rc;
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("turn", argc - optind, argv + optind, operands, 1, -1) != EXIT_OK)
		return EXIT_USAGE;
	if (a->fetch && (a->beacon_value || a->beacon_round || a->signature))
		return cmd_usage("turn",
			"--beacon-fetch takes no --beacon, --beacon-round or --beacon-signature");
	if (a->signature && !a->beacon_value)
		return cmd_usage("turn", "--beacon-signature goes with --beacon VALUE");
	if (a->url && !a->fetch)
		return cmd_usage("turn", "--beacon-url goes with --beacon-fetch");
	a->dir = argv[optind];
	a->orders = argv + optind + 1;
	a->n_orders = argc - optind - 1;
	return 0;
}

/* Git lock files the open removed: a killed run left them. */
static void warn_stale_locks(const struct campaign *c)
{
	for (size_t i = 0; c->stale_locks && c->stale_locks[i]; i++)
		fprintf(stderr,
			"umpire: removed git lock file '%s': left by an umpire run that was killed (it predates this run, which holds the campaign lock)\n",
			c->stale_locks[i]);
}

/* The --beacon* options against the campaign: only with entropy beacon, and of sane length.
 * EXIT_OK or EXIT_USAGE after saying why. */
static int check_beacon_args(const struct campaign *c, const struct turn_args *a)
{
	if (c->entropy != CAMPAIGN_ENTROPY_BEACON &&
		(a->beacon_value || a->beacon_round || a->fetch)) {
		fprintf(stderr, "umpire: campaign '%s' has entropy %s: --beacon not accepted\n",
			c->id, campaign_entropy_names[c->entropy]);
		return EXIT_USAGE;
	}
	if (a->beacon_value && (strlen(a->beacon_value) == 0 || strlen(a->beacon_value) > 1024 ||
				       (a->beacon_round && strlen(a->beacon_round) > 200))) {
		fprintf(stderr,
			"umpire: --beacon must be 1 to 1024 bytes, --beacon-round at most 200\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The beacon's randomness on t: as given (--beacon*) or fetched (--beacon-fetch).
 * EXIT_OK or the exit code. */
static int take_beacon(struct campaign *c, struct turn *t, const struct turn_args *a)
{
	turn_set_beacon(t, a->beacon_value, a->beacon_round);
	turn_set_beacon_signature(t, a->signature);
	return a->fetch ? fetch_beacon(c, t, a->url) : EXIT_OK;
}

/* The order files on t: those named, the rulings, with --inbox the inbox's; and whether a
 * due player may be missing once the schedule's deadline has passed. EXIT_OK or the code. */
static int take_orders(struct campaign *c, struct turn *t, const struct turn_args *a)
{
	size_t n_inbox = 0;
	int next;

	for (int i = 0; i < a->n_orders; i++)
		turn_add_order_file(t, a->orders[i]);
	if (a->rulings)
		turn_add_rulings_file(t, a->rulings);
	if (a->inbox && inbox_add_to_turn(c, t, &n_inbox) < 0)
		return cmd_error("umpire turn");
	if (c->entropy == CAMPAIGN_ENTROPY_NONE && inbox_open_turn(c, &next) == 0 &&
		inbox_missing_allowed(c, next, t->when))
		t->flags |= TURN_ALLOW_MISSING;
	return EXIT_OK;
}

/* What the run did on the side: a recovered turn, a secret others can read. */
static void warn_after_run(const struct campaign *c, const struct turn *t)
{
	if (t->status & TURN_RECOVERED)
		fprintf(stderr,
			"umpire: recovered turn %d: it was in the journal but not finished in git; committed and tagged " LAYOUT_TAG_PREFIX
			"%04d\n",
			t->recovered, t->recovered);
	if (c->secret_exposed)
		fprintf(stderr,
			"umpire: warning: %s/.umpire/secret can be read by its group or by others: whoever can read it can compute every die in advance (chmod 600 it)\n",
			c->dir);
}

/* The outcome of turn_run (rc) on stdout, or why it failed; a new turn is then published
 * where the campaign asks for it. The exit code. */
static int report(struct campaign *c, const struct turn *t, int rc)
{
	if (rc < 0)
		return cmd_turn_error(t);
	if (t->status & TURN_ALREADY_DONE) {
		printf("Turn %d was already processed with these order files; nothing to do\n",
			t->last->turn);
		return EXIT_OK;
	}
	printf("Turn %d: %s\n", t->in.turn, t->out.summary);
	return cmd_publish_auto(c);
}

int cmd_turn(int argc, char **argv)
{
	struct turn_args a;
	struct campaign *c = NULL;
	struct turn t;
	int code = parse_args(&a, argc, argv);

	if (code != 0)
		return code < 0 ? EXIT_OK : code;
	if (campaign_open(&c, a.dir, CAMPAIGN_LOCK | CAMPAIGN_JOURNAL) < 0)
		return cmd_error("umpire");
	warn_stale_locks(c);
	code = check_beacon_args(c, &a);
	if (code != EXIT_OK)
		goto done;
	turn_init(&t, c, TURN_LIVE, a.allow_missing ? TURN_ALLOW_MISSING : 0, NULL, NULL, NULL);
	t.when = clock_now();
	code = take_beacon(c, &t, &a);
	if (code == EXIT_OK)
		code = take_orders(c, &t, &a);
	if (code == EXIT_OK) {
		int rc = turn_run(&t, "recover", "publish");

		warn_after_run(c, &t);
		code = report(c, &t, rc);
	}
	turn_release(&t);
done:
	campaign_close(c);
	return code;
}
