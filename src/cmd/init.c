/* init.c — `umpire init`: create a campaign from a scenario: the git repository, campaign.yaml
 * with the fairness commitment, the initial state.yaml, .gitignore and the private .umpire/
 * (journal, secret, lock); journal turn 0 and the commit "Setup" tagged turn-0000. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "core/node.h"
#include "core/timelock.h"
#include "core/escape.h"
#include "core/fair.h"
#include "core/clock.h"
#include "core/beacon.h"
#include "core/bls.h"
#include "core/banned.h"

static const char init_help[] =
	"usage: umpire init DIR --scenario FILE [--secret-file F] [--id ID] [--chain-length N]\n"
	"                        [--entropy beacon|players|none] [--beacon SOURCE]\n"
	"                        [--beacon-genesis T] [--beacon-period S] [--beacon-delay S]\n"
	"                        [--beacon-chain HASH --beacon-key KEY] [--demo-beacon]\n"
	"                        [--visibility sealed|open] [--tsa [NAME=]URL]...\n"
	"                        [--orders plain|timelocked]\n\n"
	"Creates a campaign in DIR (which must not exist or be empty): a git repository with\n"
	"campaign.yaml, state.yaml (the scenario's initial state) and .gitignore, committed as\n"
	"\"Setup\" and tagged turn-0000, plus the private, git-ignored .umpire/ (journal.sqlite,\n"
	"secret, lock). The secret comes from the OS random generator and is committed to by\n"
	"fairness.commitment before any order exists.\n\n"
	"  --scenario FILE      the scenario (rules, players, options, initial game state)\n"
	"  --secret-file F      use 64 hex digits from F as the secret (tests and demos only:\n"
	"                       the campaign records fair: false)\n"
	"  --id ID              campaign id (default: the scenario's `scenario`, else DIR's name)\n"
	"  --chain-length N     number of turn keys in the chain (default 4096)\n"
	"  --entropy MODE       the randomness nobody knows when a turn closes (docs/fairness.md):\n"
	"                       beacon (default): a public beacon round after each close;\n"
	"                       players: each player's committed nonce, revealed after the close;\n"
	"                       none: no close, the umpire could choose among outcomes\n"
	"  --beacon SOURCE      which beacon (default: drand quicknet); with a SOURCE other\n"
	"                       than the default, also --beacon-genesis and --beacon-period\n"
	"  --beacon-genesis T   when the beacon's round 1 was out (UTC seconds since 1970)\n"
	"  --beacon-period S    seconds between two rounds\n"
	"  --beacon-delay S     a close names the first round at least S seconds later (600)\n"
	"  --beacon-chain HASH  with --beacon SOURCE, another drand network (scheme\n"
	"  --beacon-key KEY     " BEACON_SCHEME "): its chain hash and public key,\n"
	"                       recorded in campaign.yaml; every turn then needs the round's\n"
	"                       signature (drand quicknet's are built in)\n"
	"  --demo-beacon        umpire's demo beacon (the shipped examples): signed rounds whose\n"
	"                       secret key is published, so it proves nothing about fairness\n"
	"                       (with --entropy players or none: no beacon, nothing to do)\n"
	"  --visibility MODE    sealed (default): order files and private state are withheld,\n"
	"                       each player gets his own view, 'umpire reveal DIR' publishes\n"
	"                       everything at the end; open: everything is committed each turn\n"
	"  --tsa [NAME=]URL     an RFC 3161 time-stamp authority (repeatable): each close is\n"
	"                       time-stamped by it and its token committed beside the close\n"
	"                       (journal/turn-NNNN.close.NAME.tsr), a witness of when the close\n"
	"                       was made that needs no mail (docs/fairness.md, \"Time stamps\");\n"
	"                       NAME defaults to the URL's host\n"
	"  --orders MODE        plain (default), or timelocked: each order file is encrypted to\n"
	"                       the beacon round its turn's close names (umpire seal), so nobody,\n"
	"                       the umpire included, reads it before that round (needs a schedule\n"
	"                       and a signed beacon: drand quicknet or --demo-beacon)\n";

/* A whole number of seconds from 0 to 2^40 for option name; -1 when not one (told). */
static long long want_seconds(const char *name, const char *arg)
{
	char *end;
	errno = 0;
	long long v = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || v < 0 || v > (1LL << 40)) {
		fprintf(stderr, "umpire init: --%s '%s' (whole seconds from 0 expected)\n", name,
			arg);
		return -1;
	}
	return v;
}

/* The fairness options (--entropy, --beacon*) into spec. Returns EXIT_OK or the exit code. */
static int entropy_option(int ch, const char *arg, struct campaign_spec *spec)
{
	long long v = 0;
	switch (ch) {
	case 'e':
		spec->entropy = campaign_entropy_parse(arg);
		if (spec->entropy >= 0)
			return EXIT_OK;
		return cmd_usage("init", "--entropy '%s' (beacon, players or none expected)", arg);
	case 'b':
		spec->beacon = arg;
		return EXIT_OK;
	case 'c':
		spec->beacon_chain = arg;
		return EXIT_OK;
	case 'K':
		spec->beacon_key = arg;
		return EXIT_OK;
	case 'D':
		spec->beacon_demo = 1;
		return EXIT_OK;
	case 'g':
		v = spec->beacon_genesis = want_seconds("beacon-genesis", arg);
		break;
	case 'p':
		v = spec->beacon_period = want_seconds("beacon-period", arg);
		if (v == 0) {
			return cmd_usage("init", "--beacon-period must be at least 1 second");
		}
		break;
	case 'd':
		v = spec->beacon_delay = want_seconds("beacon-delay", arg);
		break;
	}
	return v < 0 ? EXIT_USAGE : EXIT_OK;
}

/* The beacon's settings once every option is read: drand quicknet unless another source is
 * named, which then needs its genesis and period. Returns EXIT_OK or the exit code. */
static int entropy_defaults(struct campaign_spec *spec)
{
	int named = spec->beacon != NULL;
	if (spec->entropy != CAMPAIGN_ENTROPY_BEACON) {
		if (named || spec->beacon_genesis >= 0 || spec->beacon_period >= 0 ||
			spec->beacon_delay >= 0 || spec->beacon_chain || spec->beacon_key) {
			return cmd_usage("init",
				"--beacon options need --entropy beacon (the default)");
		}
		spec->beacon_demo = 0; /* which beacon, if the campaign took one */
		return EXIT_OK;
	}
	if (!!spec->beacon_chain != !!spec->beacon_key) {
		return cmd_usage("init", "--beacon-chain and --beacon-key go together");
	}
	if (!named && spec->beacon_chain) {
		return cmd_usage("init",
			"--beacon-chain and --beacon-key name another drand network: with --beacon SOURCE, --beacon-genesis and --beacon-period (drand quicknet's are built in)");
	}
	if (!named) {
		const struct beacon_chain *chain = spec->beacon_demo ? &beacon_demo :
								       &beacon_quicknet;
		if (spec->beacon_genesis >= 0 || spec->beacon_period >= 0) {
			return cmd_usage("init",
				"--beacon-genesis and --beacon-period go with --beacon SOURCE (%s's are built in)",
				chain->name);
		}
		spec->beacon = chain->source;
		spec->beacon_genesis = chain->genesis;
		spec->beacon_period = chain->period;
		spec->beacon_chain = chain->hash;
		spec->beacon_key = chain->public_key;
	} else if (spec->beacon_demo) {
		return cmd_usage("init", "--demo-beacon takes no --beacon SOURCE");
	} else if (spec->beacon_genesis < 0 || spec->beacon_period < 0) {
		return cmd_usage("init",
			"--beacon SOURCE needs --beacon-genesis and --beacon-period (when its round 1 was out, seconds between rounds)");
	}
	if (spec->beacon_chain && beacon_chain_check(spec->beacon_chain, BEACON_SCHEME,
					  spec->beacon_key, spec->beacon_demo) < 0) {
		fprintf(stderr, "umpire init: %s\n", error_last()->message);
		return EXIT_DATAERR;
	}
	/* A key named for another network must be a point of G2: asked of the helper with the
	 * identity as signature, which it refuses (ERROR_INPUT) only once the key is taken. */
	if (spec->beacon_chain && !beacon_chain_find(spec->beacon_chain)) {
		int took = bls_verify_round(spec->beacon_key, 1, BLS_IDENTITY_SIGNATURE) == 0;
		if (took || error_last()->klass != ERROR_INPUT) {
			fprintf(stderr, "umpire init: --beacon-key: %s\n",
				took ? "the helper took the identity point" : cmd_message());
			return took                            ? EXIT_SOFTWARE :
			       error_last()->klass == ERROR_OS ? EXIT_DATAERR :
								 cmd_exit_code();
		}
	}
	if (spec->beacon_delay < 0)
		spec->beacon_delay = CAMPAIGN_BEACON_DELAY;
	return EXIT_OK;
}

/* A file given on the command line, bounded; prints why not and returns the exit code. */
static int read_file(const char *path, size_t max, struct buf *out)
{
	if (file_read(path, max, out) == 0)
		return EXIT_OK;
	if (error_last()->klass == ERROR_INPUT) {
		struct buf where = BUF_INIT;
		escape_terminal(&where, path);
		fprintf(stderr, "%s:1:1: error: %s\n", buf_str(&where), cmd_message());
		buf_release(&where);
		return EXIT_DATAERR;
	}
	return cmd_error("umpire");
}

/* --secret-file: 64 hex digits (a newline after them allowed). */
static int read_secret(const char *path, uint8_t secret[FAIR_HASH_BYTES])
{
	struct buf sb = BUF_INIT;
	int rc = read_file(path, 200, &sb);

	if (rc != EXIT_OK) {
		buf_release(&sb);
		return rc;
	}
	while (sb.len && (sb.data[sb.len - 1] == '\n' || sb.data[sb.len - 1] == '\r'))
		sb.data[--sb.len] = '\0';
	if (sb.len != 64 || hex_decode(secret, FAIR_HASH_BYTES, sb.data) < 0) {
		fprintf(stderr, "%s:1:1: error: not a secret (64 hex digits expected)\n", path);
		rc = EXIT_DATAERR;
	}
	buf_release(&sb);
	return rc;
}

/* What the command line gave init, beside the campaign spec. */
struct init_args {
	const char *scenario_path; /* --scenario FILE */
	const char *secret_path;   /* --secret-file FILE, or NULL: fresh OS randomness */
	long chain_length;         /* --chain-length, turn keys */
	struct campaign_timestamp tsa[CAMPAIGN_MAX_TIMESTAMPS]; /* --tsa: strings owned */
	size_t n_tsa;
};

/* --tsa [NAME=]URL into a (NAME: the URL's host when not given). EXIT_OK / EXIT_USAGE. */
static int tsa_option(const char *arg, struct init_args *a)
{
	const char *eq = strchr(arg, '='), *scheme = strstr(arg, "://");
	const char *url = eq && (!scheme || eq < scheme) ? eq + 1 : arg;
	char *name;

	if (a->n_tsa == CAMPAIGN_MAX_TIMESTAMPS) {
		fprintf(stderr, "umpire init: at most %d --tsa\n", CAMPAIGN_MAX_TIMESTAMPS);
		return EXIT_USAGE;
	}
	if (url != arg) {
		name = xasprintf("%.*s", (int)(eq - arg), arg);
	} else {
		const char *host = scheme ? scheme + 3 : arg;
		name = xasprintf("%.*s", (int)strcspn(host, ":/?#@"), host);
	}
	const char *why = campaign_timestamp_problem(name, url);
	for (size_t i = 0; !why && i < a->n_tsa; i++)
		if (strcmp(a->tsa[i].name, name) == 0)
			why = "name is given twice (NAME=URL names each)";
	if (why) {
		struct buf shown = BUF_INIT;
		escape_terminal(&shown, arg);
		fprintf(stderr, "umpire init: --tsa '%s': %s ([NAME=]URL expected)\n",
			buf_str(&shown), why);
		buf_release(&shown);
		free(name);
		return EXIT_USAGE;
	}
	a->tsa[a->n_tsa].name = name;
	a->tsa[a->n_tsa++].url = xstrdup(url);
	return EXIT_OK;
}

static const struct option init_opts[] = {
	{ "scenario", required_argument, NULL, 's' },
	{ "secret-file", required_argument, NULL, 'k' },
	{ "id", required_argument, NULL, 'i' },
	{ "chain-length", required_argument, NULL, 'l' },
	{ "entropy", required_argument, NULL, 'e' },
	{ "beacon", required_argument, NULL, 'b' },
	{ "beacon-genesis", required_argument, NULL, 'g' },
	{ "beacon-period", required_argument, NULL, 'p' },
	{ "beacon-delay", required_argument, NULL, 'd' },
	{ "beacon-chain", required_argument, NULL, 'c' },
	{ "beacon-key", required_argument, NULL, 'K' },
	{ "demo-beacon", no_argument, NULL, 'D' },
	{ "visibility", required_argument, NULL, 'v' },
	{ "tsa", required_argument, NULL, 'T' },
	{ "orders", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* --chain-length: 1 to 1,000,000 turn keys. EXIT_OK / EXIT_USAGE (said). */
static int chain_length_option(const char *arg, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(arg, &end, 10);
	if (errno || end == arg || *end || *out < 1 || *out > 1000000) {
		return cmd_usage("init",
			"--chain-length '%s' (an integer from 1 to 1000000 expected)", arg);
	}
	return EXIT_OK;
}

/* The options into spec and a. EXIT_OK to go on, -1 after --help, or EXIT_USAGE (said). */
static int parse_options(int argc, char **argv, struct campaign_spec *spec, struct init_args *a)
{
	int ch, rc;

	while ((ch = getopt_long(argc, argv, "h", init_opts, NULL)) != -1) {
		switch (ch) {
		case 's':
			a->scenario_path = optarg;
			break;
		case 'k':
			a->secret_path = optarg;
			break;
		case 'i':
			spec->id = optarg;
			break;
		case 'e':
		case 'b':
		case 'g':
		case 'p':
		case 'd':
		case 'c':
		case 'K':
		case 'D':
			if ((rc = entropy_option(ch, optarg, spec)) != EXIT_OK)
				return rc;
			break;
		case 'v':
			spec->visibility = campaign_visibility_parse(optarg);
			if (spec->visibility < 0) {
				return cmd_usage("init",
					"--visibility '%s' (sealed or open expected)", optarg);
			}
			break;
		case 'l':
			if ((rc = chain_length_option(optarg, &a->chain_length)) != EXIT_OK)
				return rc;
			break;
		case 'T':
			if ((rc = tsa_option(optarg, a)) != EXIT_OK)
				return rc;
			break;
		case 'o':
			if (strcmp(optarg, "timelocked") != 0 && strcmp(optarg, "plain") != 0) {
				return cmd_usage("init",
					"--orders '%s' (plain or timelocked expected)", optarg);
			}
			spec->orders_timelocked = strcmp(optarg, "timelocked") == 0;
			break;
		case 'h':
			fputs(init_help, stdout);
			return -1;
		default:
			return cmd_usage_see("init");
		}
	}
	return EXIT_OK;
}

/* One DIR and --scenario given, or a usage message saying what is missing. EXIT_OK /
 * EXIT_USAGE. */
static int check_args(int argc, char **argv, const struct init_args *a)
{
	if (optind + 1 == argc && a->scenario_path)
		return EXIT_OK;
	static const char *const operands[] = { "DIR (the new campaign's directory)" };
	if (optind + 1 < argc)
		return cmd_operands("init", argc - optind, argv + optind, operands, 1, 1);
	return cmd_usage("init", "missing %s%s%s", optind == argc ? operands[0] : "",
		optind == argc && !a->scenario_path ? " and " : "",
		a->scenario_path ?
			"" :
			"--scenario FILE (the game to set up, e.g. campaigns/harbour-raid/scenario.yaml of umpire's examples)");
}

/* The scenario's bytes into scen (spec points at them) and the secret: the file's, or fresh
 * OS randomness. EXIT_OK or the exit code (said). */
static int read_inputs(struct campaign_spec *spec, const struct init_args *a, struct buf *scen)
{
	int rc = read_file(a->scenario_path, SCENARIO_MAX_BYTES, scen);

	if (rc != EXIT_OK)
		return rc;
	spec->scenario = scen->data ? scen->data : "";
	spec->scenario_len = scen->len;
	rc = a->secret_path ? read_secret(a->secret_path, spec->secret) : EXIT_OK;
	if (rc != EXIT_OK)
		return rc;
	if (!a->secret_path)
		fair_random(spec->secret, sizeof(spec->secret));
	spec->fair = a->secret_path == NULL;
	return EXIT_OK;
}

/* --orders timelocked: a signed beacon and a schedule (the rounds come from its deadlines),
 * then, sealed, the umpire's age identity made by umpire-tlock keygen into *identity and
 * *recipient (spec points at them). EXIT_OK or the exit code (said). */
static int timelock_setup(struct campaign_spec *spec, const struct buf *scen, char **identity,
	char **recipient)
{
	struct node *root = NULL;
	struct diag d;

	if (!spec->orders_timelocked)
		return EXIT_OK;
	if (spec->entropy != CAMPAIGN_ENTROPY_BEACON || !spec->beacon_chain)
		return cmd_usage("init",
			"--orders timelocked needs a signed beacon whose rounds are drand's unchained G1 (--entropy beacon with drand quicknet, the default, or --demo-beacon)");
	diag_init(&d);
	int has_schedule = node_parse(&root, spec->scenario_name, scen->data ? scen->data : "",
				   scen->len, NULL, &d) == 0 &&
			   node_get(root, "schedule");
	node_free(root);
	diag_release(&d);
	if (!has_schedule)
		return cmd_usage("init",
			"--orders timelocked needs a schedule in the scenario (each turn's round comes from its deadline)");
	if (spec->visibility != CAMPAIGN_SEALED)
		return EXIT_OK;
	if (timelock_keygen(identity, recipient) < 0)
		return cmd_error("umpire init");
	spec->timelock_identity = *identity;
	spec->timelock_recipient = *recipient;
	return EXIT_OK;
}

/* What init made: the campaign, its commitment, how its turns go, the setup's hash to
 * announce. */
static void print_created(const struct campaign *c, const char *dir, const struct init_args *a)
{
	static const char *const how[] = {
		"entropy none: one step a turn (umpire turn DIR ORDERS...); the umpire could choose among outcomes",
		"entropy beacon: close each turn (umpire close DIR ORDERS...), then resolve it once the beacon round the close names is out (umpire turn DIR --beacon VALUE; this beacon has no key in campaign.yaml, so nobody checks its values but the players, by hand)",
		"entropy players: orders carry 'entropy:' (umpire nonce); close each turn (umpire close DIR ORDERS...), collect the nonces (umpire reveal DIR FILE...), then umpire turn DIR",
	};
	char hex[65];
	struct buf camp = BUF_INIT;
	uint8_t h[FAIR_HASH_BYTES];

	hex_encode(hex, c->commitment, FAIR_HASH_BYTES);
	printf("created campaign '%s' (%s) in %s\n", c->id, c->rules->name, dir);
	printf("commitment %s (chain of %ld turn keys)%s\n", hex, a->chain_length,
		a->secret_path ?
			"\nwarning: the secret came from a file: this campaign is marked fair: false" :
			"");
	if (c->entropy == CAMPAIGN_ENTROPY_BEACON && c->beacon_key)
		printf("entropy beacon: close each turn (umpire close DIR ORDERS...), then resolve it once the beacon round the close names is out (umpire turn DIR --beacon-fetch, or --beacon VALUE --beacon-signature SIG), its signature checked under the public key campaign.yaml names for chain %s\n",
			c->beacon_chain);
	else
		printf("%s\n", how[c->entropy]);
	if (c->beacon_demo)
		printf("warning: umpire's demo beacon: its secret key is published, so its rounds prove nothing about fairness (demos and tests only)\n");
	for (size_t i = 0; i < c->n_timestamps; i++)
		printf("time stamps: each close is time-stamped by %s (%s); players verify its tokens against the authorities they trust ('umpire verify --trust-tsa CERT.pem' for one not built in)\n",
			c->timestamps[i].name, c->timestamps[i].url);
	struct buf why = BUF_INIT;
	if (campaign_unproven(c, &why))
		printf("warning: not provably fair: %s: 'umpire verify' will say \"consistent, not proven fair\", never \"fair\"\n",
			buf_str(&why));
	buf_release(&why);
	if (c->orders_timelocked)
		printf("orders: time-locked to round %lld for turn 1 (each turn's round is in status and every report); players seal their orders with 'umpire seal ORDERS --campaign CLONE'%s\n",
			campaign_turn_round(c, 1),
			c->timelock_recipient ?
				", to the round and to the umpire's key (.umpire/" TIMELOCK_IDENTITY
				")" :
				"");
	if (c->visibility == CAMPAIGN_SEALED)
		printf("visibility sealed: order files and private state stay in .umpire/ until 'umpire reveal DIR'; each player's report and salt go to .umpire/outbox/PLAYER/\n");
	if (repo_read(c->repo, "HEAD", "campaign.yaml", &camp) == 0) {
		fair_sha256(h, camp.data, camp.len);
		hex_encode(hex, h, FAIR_HASH_BYTES);
		printf("setup %s (SHA-256 of campaign.yaml): announce it and the commitment to the players; 'umpire verify DIR --commitment C --setup S' pins both\n",
			hex);
	}
	buf_release(&camp);
}

int cmd_init(int argc, char **argv)
{
	struct init_args a = { NULL, NULL, FAIR_DEFAULT_CHAIN_LENGTH, { { NULL, NULL } }, 0 };
	struct campaign_spec spec;
	struct buf scen = BUF_INIT;
	struct campaign *c = NULL;
	char *identity = NULL, *recipient = NULL;
	struct diag d;
	int rc;

	diag_init(&d);
	memset(&spec, 0, sizeof(spec));
	spec.entropy = CAMPAIGN_ENTROPY_BEACON;
	spec.visibility = CAMPAIGN_SEALED;
	spec.beacon_genesis = spec.beacon_period = spec.beacon_delay = -1;
	if ((rc = parse_options(argc, argv, &spec, &a)) != EXIT_OK) {
		rc = rc < 0 ? EXIT_OK : rc;
		goto done;
	}
	if ((rc = check_args(argc, argv, &a)) != EXIT_OK ||
		(rc = entropy_defaults(&spec)) != EXIT_OK)
		goto done;
	if (a.n_tsa && spec.entropy == CAMPAIGN_ENTROPY_NONE) {
		fprintf(stderr,
			"umpire init: --tsa needs closed turns (--entropy beacon or players): under none there is no close to time-stamp\n");
		rc = EXIT_USAGE;
		goto done;
	}
	spec.timestamps = a.tsa;
	spec.n_timestamps = a.n_tsa;
	spec.dir = argv[optind];
	spec.scenario_name = a.scenario_path;
	spec.chain_length = (uint32_t)a.chain_length;
	spec.when = clock_now();

	if ((rc = read_inputs(&spec, &a, &scen)) != EXIT_OK ||
		(rc = timelock_setup(&spec, &scen, &identity, &recipient)) != EXIT_OK)
		goto done;
	if (campaign_create(&c, &spec, &d) < 0) {
		if (diag_count(&d)) {
			diag_print(&d, stderr);
			rc = EXIT_DATAERR;
		} else {
			rc = cmd_error("umpire");
		}
		goto done;
	}
	print_created(c, spec.dir, &a);
done:
	campaign_close(c);
	diag_release(&d);
	buf_release(&scen);
	if (identity)
		fair_wipe(identity, strlen(identity));
	free(identity);
	free(recipient);
	for (size_t i = 0; i < a.n_tsa; i++) {
		free(a.tsa[i].name);
		free(a.tsa[i].url);
	}
	return rc;
}
