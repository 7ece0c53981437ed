/* log.c — `umpire log` and `umpire state`: read what the journal and the history hold.
 * log prints each turn's key, seed, dice (index, die, value, purpose) and events from the
 * SQLite journal, or from the committed journal exports on a clone without one. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "core/banned.h"

static const char log_help[] =
	"usage: umpire log DIR [--turn N]\n\n"
	"Prints every turn (or turn N) from the journal: summary, key, orders digest, seed, each\n"
	"order file's hash, every die with its index, size, value and purpose, and every event\n"
	"and void order. On a clone without .umpire/ it prints the committed journal exports.\n";

static const char state_help[] =
	"usage: umpire state DIR [--turn N]\n\n"
	"Prints state.yaml as committed after turn N (default: the latest turn).\n";

/* Shared option parsing for `log` and `state`: DIR [--turn N]. */
static int parse_dir_turn(int argc, char **argv, const char *help, const char **dir, int *turn)
{
	static const struct option opts[] = {
		{ "turn", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	*turn = -1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 't':
			if (cmd_parse_turn(optarg, turn) < 0)
				return EXIT_USAGE;
			break;
		case 'h': fputs(help, stdout); return -1;
		default: fputs(help, stderr); return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fputs(help, stderr);
		return EXIT_USAGE;
	}
	*dir = argv[optind];
	return EXIT_OK;
}

static void print_record(const struct journal_record *r)
{
	if (r->turn == 0) {
		printf("turn 0: %s (state %s)\n", r->summary, r->state_sha256);
		return;
	}
	printf("turn %d: %s\n", r->turn, r->summary);
	printf("  key %s\n  orders digest %s\n  seed %s\n", r->key, r->orders_digest, r->seed);
	for (size_t i = 0; i < r->n_orders; i++)
		printf("  orders %s: %s\n", r->orders[i].player,
			r->orders[i].bytes ? r->orders[i].sha256 : "none");
	for (size_t i = 0; i < r->n_dice; i++)
		printf("  die %llu: d%llu = %llu  %s\n", (unsigned long long)r->dice[i].index,
			(unsigned long long)r->dice[i].sides, (unsigned long long)r->dice[i].value,
			r->dice[i].purpose);
	for (size_t i = 0; i < r->n_events; i++) {
		const struct journal_event *e = &r->events[i];
		if (strcmp(e->kind, "void") == 0)
			printf("  void [%s] %s order %d: %s\n", e->phase, e->player ? e->player : "?",
				e->order_index, e->text);
		else
			printf("  event [%s] %s\n", e->phase, e->text);
	}
	printf("  state %s\n", r->state_sha256);
}

int cmd_log(int argc, char **argv)
{
	const char *dir;
	int turn, rc = parse_dir_turn(argc, argv, log_help, &dir, &turn);
	if (rc != EXIT_OK)
		return rc < 0 ? EXIT_OK : rc;

	struct campaign *c = NULL;
	rc = campaign_open(&c, dir, CAMPAIGN_JOURNAL_IF_ANY);
	if (rc != EXIT_OK)
		return rc;
	struct buf err = BUF_INIT, bytes = BUF_INIT;
	char tag[16], path[64];
	int last = -1;

	if (!c->journal) {
		/* A clone: the committed exports are the public journal. */
		int from = turn < 0 ? 1 : turn, to = turn < 0 ? 1000000 : turn;
		for (int t = from; t <= to; t++) {
			campaign_turn_tag(tag, t);
			snprintf(path, sizeof(path), "journal/%s.yaml", tag);
			int r = repo_read(c->repo, tag, path, &bytes, &err);
			if (r > 0 && turn < 0)
				break;
			if (r != 0) {
				fprintf(stderr, "umpire: no journal export for turn %d\n", t);
				rc = EXIT_NOINPUT;
				break;
			}
			fwrite(bytes.data, 1, bytes.len, stdout);
		}
		goto done;
	}
	if (journal_last_turn(c->journal, &last, &err) < 0) {
		fprintf(stderr, "umpire: %s\n", buf_str(&err));
		rc = EXIT_IOERR;
		goto done;
	}
	if (turn > last) {
		fprintf(stderr, "umpire: no turn %d in the journal (the last is %d)\n", turn, last);
		rc = EXIT_NOINPUT;
		goto done;
	}
	for (int t = turn < 0 ? 0 : turn; t <= (turn < 0 ? last : turn); t++) {
		struct journal_record *r = NULL;
		if (journal_read(c->journal, t, &r, &err) != 0) {
			fprintf(stderr, "umpire: %s\n", buf_str(&err));
			rc = EXIT_IOERR;
			break;
		}
		print_record(r);
		journal_record_free(r);
	}
done:
	buf_release(&bytes);
	buf_release(&err);
	campaign_close(c);
	return rc;
}

int cmd_state(int argc, char **argv)
{
	const char *dir;
	int turn, rc = parse_dir_turn(argc, argv, state_help, &dir, &turn);
	if (rc != EXIT_OK)
		return rc < 0 ? EXIT_OK : rc;
	struct campaign *c = NULL;
	rc = campaign_open(&c, dir, 0);
	if (rc != EXIT_OK)
		return rc;
	struct buf err = BUF_INIT, bytes = BUF_INIT;
	char tag[16];
	if (turn >= 0)
		campaign_turn_tag(tag, turn);
	else
		snprintf(tag, sizeof(tag), "HEAD");
	int r = repo_read(c->repo, tag, "state.yaml", &bytes, &err);
	if (r != 0) {
		fprintf(stderr, "umpire: no state for %s%s%s\n", turn >= 0 ? "turn " : "", turn >= 0 ? tag + 5 : tag,
			r < 0 ? buf_str(&err) : "");
		rc = r > 0 ? EXIT_NOINPUT : EXIT_IOERR;
	} else {
		fwrite(bytes.data, 1, bytes.len, stdout);
	}
	buf_release(&bytes);
	buf_release(&err);
	campaign_close(c);
	return rc;
}
