/* turn.c — `umpire turn`: process the next turn, all-or-nothing: finish any turn a crash
 * left half-done, check every order file, resolve, append to the journal, commit to git. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/fair.h"
#include "core/turn.h"
#include "core/banned.h"

static const char turn_help[] =
	"usage: umpire turn DIR ORDERS... [--allow-missing]\n\n"
	"Processes the next turn of the campaign in DIR from the given order files (one per due\n"
	"player, plus optionally the umpire's own file with player: umpire). Every file is\n"
	"checked first; any error stops the turn with nothing written. Then the turn seed is\n"
	"derived from the committed key chain and the orders, the rule system resolves the\n"
	"turn, and the journal and git (one commit, tag turn-NNNN) are updated together.\n\n"
	"  --allow-missing   a due player without a file is journaled as 'no orders'\n"
	"  --beacon VALUE    the public beacon value announced for this turn (campaigns with\n"
	"                    fairness.beacon require it): B_t = SHA256(VALUE)\n"
	"  --beacon-round R  the beacon round it came from (journaled with it)\n\n"
	"The commit time is $SOURCE_DATE_EPOCH when set, else the clock.\n";

int cmd_turn(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "allow-missing", no_argument, NULL, 'm' },
		{ "beacon", required_argument, NULL, 'b' },
		{ "beacon-round", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, allow_missing = 0;
	const char *beacon_value = NULL, *beacon_round = NULL;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 'm': allow_missing = 1; break;
		case 'b': beacon_value = optarg; break;
		case 'r': beacon_round = optarg; break;
		case 'h': fputs(turn_help, stdout); return EXIT_OK;
		default: fputs(turn_help, stderr); return EXIT_USAGE;
		}
	}
	if (argc - optind < 1) {
		fputs(turn_help, stderr);
		return EXIT_USAGE;
	}

	struct campaign *c = NULL;
	int rc = campaign_open(&c, argv[optind], CAMPAIGN_LOCK | CAMPAIGN_JOURNAL);
	if (rc != EXIT_OK)
		return rc;

	void *state = NULL;
	int last = -1;
	struct buf err = BUF_INIT;
	struct turn_input in;
	struct turn_output out;
	struct diag d;
	uint8_t secret[32], key[32], beacon[32] = { 0 };

	memset(&out, 0, sizeof(out));
	diag_init(&d);
	turn_input_init(&in, 0);
	if (c->beacon && !beacon_value) {
		fprintf(stderr, "umpire: campaign '%s' mixes in a public beacon (%s): --beacon VALUE required\n",
			c->id, c->beacon);
		rc = EXIT_USAGE;
		goto done;
	}
	if (!c->beacon && (beacon_value || beacon_round)) {
		fprintf(stderr, "umpire: campaign '%s' has no fairness.beacon: --beacon not accepted\n", c->id);
		rc = EXIT_USAGE;
		goto done;
	}
	if (beacon_value && (strlen(beacon_value) == 0 || strlen(beacon_value) > 1024 ||
		(beacon_round && strlen(beacon_round) > 200))) {
		fprintf(stderr, "umpire: --beacon must be 1 to 1024 bytes, --beacon-round at most 200\n");
		rc = EXIT_USAGE;
		goto done;
	}
	rc = turn_recover(c);
	if (rc != EXIT_OK)
		goto done;
	/* Re-running a command that already went through (say, after a crash was recovered
	 * above) is not an error: say so and change nothing. */
	if (journal_last_turn(c->journal, &last, &err) == 0 && argc - optind > 1 &&
		turn_same_orders(c, last, argv + optind + 1, (size_t)(argc - optind - 1))) {
		printf("Turn %d was already processed with these order files; nothing to do\n", last);
		goto done;
	}
	rc = turn_load_next(c, &in, &state);
	if (rc != EXIT_OK)
		goto done;
	if ((uint32_t)in.turn > c->chain_length) {
		fprintf(stderr, "umpire: turn %d is beyond the key chain (%u turns): start a new campaign\n",
			in.turn, c->chain_length);
		rc = EXIT_DATAERR;
		goto done;
	}
	for (int i = optind + 1; i < argc; i++)
		turn_add_order_file(&in, c, state, argv[i], &d);
	if (diag_count(&d)) {
		diag_print(&d, stderr);
		rc = EXIT_DATAERR;
		goto done;
	}
	if (turn_complete(&in, c, state, allow_missing) < 0) {
		rc = EXIT_DATAERR;
		goto done;
	}
	if (campaign_read_secret(c, secret) < 0) {
		rc = EXIT_NOINPUT;
		goto done;
	}
	fair_turn_key(key, secret, c->chain_length, (uint32_t)in.turn);
	if (!fair_key_check(key, (uint32_t)in.turn, c->commitment)) {
		fprintf(stderr, "umpire: .umpire/secret does not match the campaign's commitment (wrong secret file?)\n");
		rc = EXIT_DATAERR;
		goto done;
	}
	if (beacon_value) {
		in.beacon_value = xstrdup(beacon_value);
		in.beacon_round = beacon_round ? xstrdup(beacon_round) : NULL;
	}
	turn_beacon(beacon, in.beacon_value);
	if (turn_resolve(&out, c, state, &in, key, beacon) < 0) {
		rc = EXIT_SOFTWARE;
		goto done;
	}
	rc = turn_commit(c, &in, &out, turn_now());
	if (rc == EXIT_OK)
		printf("Turn %d: %s\n", in.turn, out.summary);
done:
	buf_release(&err);
	turn_output_release(&out);
	turn_input_release(&in, c);
	if (state)
		c->rules->state_free(state);
	diag_release(&d);
	campaign_close(c);
	return rc;
}
