/* log.c — `umpire log` and `umpire state`: read what the journal and the history hold.
 * log prints each turn's key, seed, dice (index, die, value, purpose) and events from the
 * SQLite journal, or from the committed journal exports on a clone without one. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/escape.h"
#include "core/campaign.h"
#include "core/layout.h"
#include "core/turn.h"
#include "core/banned.h"

static const char log_help[] =
	"usage: umpire log DIR [--turn N]\n"
	"       umpire log DIR --umpire [--turn N] [--json]\n\n"
	"Prints every turn (or turn N) from the journal: summary, key, orders digest, seed, each\n"
	"order file's hash, every die with its index, size, value and purpose, and every event\n"
	"and void order. On a clone without .umpire/ it prints the committed journal exports.\n"
	"--umpire: the umpire's overrides instead, one a line with its turn and reason: dice\n"
	"rulings, adjustments, turns closed without a due player, extensions, pauses, resumes\n"
	"and stand-ins (the open turn's too, on the umpire's copy); --json: as a JSON array.\n";

static const char state_help[] =
	"usage: umpire state DIR [--turn N]\n\n"
	"Prints state.yaml as committed after turn N (default: the latest turn).\n";

/* Shared option parsing for `log` and `state`: DIR [--turn N]. */
static int parse_dir_turn(int argc, char **argv, const char *name, const char *help,
	const char **dir, int *turn, int *umpire, int *json)
{
	static const struct option opts[] = {
		{ "turn", required_argument, NULL, 't' },
		{ "umpire", no_argument, NULL, 'u' },
		{ "json", no_argument, NULL, 'j' },
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
		case 'h':
			fputs(help, stdout);
			return -1;
		case 'u':
		case 'j':
			if (umpire) {
				*(ch == 'u' ? umpire : json) = 1;
				break;
			}
			return cmd_usage_see(name);
		default:
			return cmd_usage_see(name);
		}
	}
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands(name, argc - optind, argv + optind, operands, 1, 1) != EXIT_OK)
		return EXIT_USAGE;
	*dir = argv[optind];
	return EXIT_OK;
}

static void print_hash(const char *label, const uint8_t h[FAIR_HASH_BYTES])
{
	char hex[65];

	hex_encode(hex, h, FAIR_HASH_BYTES);
	printf("%s%s\n", label, hex);
}

/* s escaped for the terminal: a clone's journal export is anyone's text. */
static const char *term(struct buf *b, const char *s)
{
	buf_clear(b);
	escape_terminal(b, s);
	return buf_str(b);
}

static void print_record(const struct journal_record *r)
{
	char hex[65];
	struct buf a = BUF_INIT, b = BUF_INIT, c = BUF_INIT;

	hex_encode(hex, r->state_sha256, FAIR_HASH_BYTES);
	if (r->turn == 0) {
		printf("turn 0: %s (state %s)\n", term(&a, r->summary), hex);
		goto done;
	}
	printf("turn %d: %s\n", r->turn, term(&a, r->summary));
	print_hash("  key ", r->key);
	print_hash("  orders digest ", r->orders_digest);
	print_hash("  seed ", r->seed);
	for (size_t i = 0; i < r->n_orders; i++) {
		char oh[65];
		hex_encode(oh, r->orders[i].sha256, FAIR_HASH_BYTES);
		printf("  orders %s: %s\n", term(&a, r->orders[i].player),
			r->orders[i].has_file ? oh : "none");
	}
	for (size_t i = 0; i < r->n_dice; i++)
		printf("  die %llu: d%llu = %llu  %s\n", (unsigned long long)r->dice[i].index,
			(unsigned long long)r->dice[i].sides, (unsigned long long)r->dice[i].value,
			term(&a, r->dice[i].purpose));
	for (size_t i = 0; i < r->n_events; i++) {
		const struct event *e = &r->events[i];
		if (e->kind == EVENT_VOID)
			printf("  void [%s] %s order %d: %s\n", term(&a, e->phase),
				term(&b, e->player ? e->player : "?"), e->order_index,
				term(&c, e->text));
		else
			printf("  event [%s] %s\n", term(&a, e->phase), term(&b, e->text));
	}
	printf("  state %s\n", hex);
done:
	buf_release(&a);
	buf_release(&b);
	buf_release(&c);
}

/* A clone: the committed exports are the public journal. */
static int print_exports(struct campaign *c, int turn)
{
	struct buf bytes = BUF_INIT;
	char tag[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX];
	int from = turn < 0 ? 1 : turn, to = turn < 0 ? TURN_MAX : turn, rc = EXIT_OK;

	for (int t = from; t <= to; t++) {
		layout_tag(tag, t);
		layout_export_path(path, t);
		int r = repo_read(c->repo, tag, path, &bytes);
		if (r == ERROR_NOTFOUND && turn < 0)
			break;
		if (r != 0) {
			fprintf(stderr, "umpire: no journal export for turn %d\n", t);
			rc = EXIT_NOINPUT;
			break;
		}
		fwrite(bytes.data, 1, bytes.len, stdout);
	}
	buf_release(&bytes);
	return rc;
}

int cmd_log(int argc, char **argv)
{
	const char *dir;
	int turn, umpire = 0, json = 0;
	int rc = parse_dir_turn(argc, argv, "log", log_help, &dir, &turn, &umpire, &json);
	if (rc != EXIT_OK)
		return rc < 0 ? EXIT_OK : rc;
	if (json && !umpire)
		return cmd_usage("log", "--json goes with --umpire");
	if (umpire)
		return cmd_log_umpire(dir, turn, json);

	struct campaign *c = NULL;
	if (campaign_open(&c, dir, CAMPAIGN_JOURNAL_IF_ANY) < 0)
		return cmd_error("umpire");
	int last = -1;

	if (!c->journal) {
		rc = print_exports(c, turn);
		goto done;
	}
	if (journal_last_turn(c->journal, &last) < 0) {
		rc = cmd_error("umpire");
		goto done;
	}
	if (turn > last) {
		fprintf(stderr, "umpire: no turn %d in the journal (the last is %d)\n", turn, last);
		rc = EXIT_NOINPUT;
		goto done;
	}
	for (int t = turn < 0 ? 0 : turn; t <= (turn < 0 ? last : turn); t++) {
		struct journal_record *r = NULL;
		if (journal_read(c->journal, t, &r) < 0) {
			rc = cmd_error("umpire");
			break;
		}
		print_record(r);
		journal_record_free(r);
	}
done:
	campaign_close(c);
	return rc;
}

int cmd_state(int argc, char **argv)
{
	const char *dir;
	int turn, rc = parse_dir_turn(argc, argv, "state", state_help, &dir, &turn, NULL, NULL);
	if (rc != EXIT_OK)
		return rc < 0 ? EXIT_OK : rc;
	struct campaign *c = NULL;
	if (campaign_open(&c, dir, 0) < 0)
		return cmd_error("umpire");
	struct buf bytes = BUF_INIT;
	char tag[LAYOUT_TAG_MAX];
	if (turn >= 0)
		layout_tag(tag, turn);
	else
		snprintf(tag, sizeof(tag), "HEAD");
	int r = repo_read(c->repo, tag, LAYOUT_STATE, &bytes);
	if (r == ERROR_NOTFOUND) {
		fprintf(stderr, "umpire: no state for %s%s\n", turn >= 0 ? "turn " : "",
			turn >= 0 ? tag + strlen(LAYOUT_TAG_PREFIX) : tag);
		rc = EXIT_NOINPUT;
	} else if (r < 0) {
		rc = cmd_error("umpire");
	} else {
		fwrite(bytes.data, 1, bytes.len, stdout);
	}
	buf_release(&bytes);
	campaign_close(c);
	return rc;
}
