/* replay.c — `umpire replay`: re-resolve every turn from the setup state, the order files
 * archived in git and the keys in the journal, and require every order hash, digest, seed,
 * die, event, state and committed file to come out identical (src/core/audit.c does the
 * work, with the SQLite journal as the record; on a clone, which has no journal, the journal
 * exports committed at each tag are the record). The first difference is named; exit 65. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/audit.h"
#include "core/beacon.h"
#include "core/diag.h"
#include "core/error.h"
#include "core/layout.h"
#include "core/turn.h"
#include "core/banned.h"

static const char replay_help[] =
	"usage: umpire replay DIR\n\n"
	"Re-resolves every turn of the campaign from the setup state (tag turn-0000), the order\n"
	"files committed in git and the keys in the journal, through the same code 'umpire turn'\n"
	"uses, and compares every die, event, state and committed file with the journal and git.\n"
	"On a clone, which has no journal, the journal exports committed at each tag are the\n"
	"record. Exit 0 only if everything is identical; otherwise the first difference is named\n"
	"and the exit code is 65.\n\n"
	"What can be replayed where:\n"
	"  the umpire's copy   every turn, at any time: in a sealed campaign the withheld order\n"
	"                      files, whole states and salts are in .umpire/sealed/\n"
	"  a clone, open       every turn: everything is committed\n"
	"  a clone, sealed     nothing until the umpire's 'umpire reveal DIR' (the order files\n"
	"                      and whole states are withheld); then every turn. Before it,\n"
	"                      'umpire verify' checks what a clone can (keys, dice, digests)\n";

/* A clone's record of turn t: the journal export committed at its tag. */
static int read_export(struct campaign *c, int t, struct journal_record **r)
{
	struct buf bytes = BUF_INIT;
	struct diag d;
	int rc;

	diag_init(&d);
	rc = audit_read_export(r, c, t, &bytes, &d);
	if (rc < 0 && diag_count(&d)) {
		struct buf text = BUF_INIT;
		diag_format(&d, &text, DIAG_BRIEF);
		error_set(ERROR_INPUT, "%s", buf_str(&text));
		buf_release(&text);
	}
	diag_release(&d);
	buf_release(&bytes);
	return rc;
}

/* The last turn a clone holds: the highest of the consecutive tags turn-0001, turn-0002... */
static int last_tagged_turn(struct campaign *c)
{
	char tag[LAYOUT_TAG_MAX];
	int t = 0;

	for (;;) {
		layout_tag(tag, t + 1);
		if (t >= TURN_MAX || !repo_has(c->repo, tag))
			return t;
		t++;
	}
}

/* Every turn's beacon round and signature checked by the BLS helper in one batch before
 * the turns one at a time (as verify does, issue 38): only a speed-up, a round not found
 * good there is checked alone at its turn (beacon_prefetch). */
static void prefetch_rounds(struct campaign *c, int last)
{
	long long *rounds = xcalloc((size_t)last + 1, sizeof(*rounds));
	char **sigs = xcalloc((size_t)last + 1, sizeof(*sigs));
	size_t n = 0;

	for (int t = 1; c->entropy == CAMPAIGN_ENTROPY_BEACON && c->beacon_key && t <= last; t++) {
		struct journal_record *r = NULL;
		if ((c->journal ? journal_read_turn(c->journal, t, 0, &r) :
				  read_export(c, t, &r)) == 0 &&
			r->beacon_round && r->beacon_signature) {
			char *end = NULL;
			long long v = strtoll(r->beacon_round, &end, 10);
			if (end && !*end && v > 0) {
				rounds[n] = v;
				sigs[n++] = xstrdup(r->beacon_signature);
			}
		}
		journal_record_free(r);
	}
	(void)beacon_prefetch(c, n, rounds, (const char *const *)sigs);
	error_clear(); /* the turns say it, each at its own */
	for (size_t i = 0; i < n; i++)
		free(sigs[i]);
	free(sigs);
	free(rounds);
}

static int replay_turn(struct campaign *c, void *state, int t)
{
	struct journal_record *r = NULL;
	struct audit_turn at;
	char tag[LAYOUT_TAG_MAX];
	int rc = EXIT_DATAERR;

	memset(&at, 0, sizeof(at));
	layout_tag(tag, t);
	if (c->journal ? journal_read_turn(c->journal, t, 0, &r) < 0 : read_export(c, t, &r) < 0) {
		fprintf(stderr, "replay: turn %d: cannot read it from the %s: %s\n", t,
			c->journal ? "journal" : "journal export", cmd_message());
		goto done;
	}
	if (!repo_has(c->repo, tag)) {
		fprintf(stderr, "replay: turn %d: tag %s is missing from git\n", t, tag);
		goto done;
	}
	/* The journal is the record; the order files come from git; the pipeline decides. */
	if (audit_resolve(&at, c, state, tag, r, c->journal ? 0 : AUDIT_EXPORT) < 0) {
		rc = cmd_error("replay");
		goto done;
	}
	printf("turn %d: ok (%zu %s, %zu %s)\n", t, at.t.out.dice.n,
		cmd_plural(at.t.out.dice.n, "die", "dice"), at.t.out.events.n,
		cmd_plural(at.t.out.events.n, "event", "events"));
	rc = EXIT_OK;
done:
	audit_turn_release(&at);
	journal_record_free(r);
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	int opt = cmd_options_help_only(argc, argv, replay_help);
	if (opt != EXIT_OK)
		return opt < 0 ? EXIT_OK : opt;
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("replay", argc - optind, argv + optind, operands, 1, 1) != EXIT_OK)
		return EXIT_USAGE;
	struct campaign *c = NULL;
	cmd_keep_heap();
	if (campaign_open(&c, argv[optind], CAMPAIGN_READ_LOCK | CAMPAIGN_JOURNAL_IF_ANY) < 0)
		return cmd_error("umpire");
	void *state = NULL;
	int last = -1, t0, rc = EXIT_OK;
	char tag[LAYOUT_TAG_MAX];
	layout_tag(tag, 0);
	if (!c->journal)
		last = last_tagged_turn(c);
	if ((c->journal && journal_last_turn(c->journal, &last) < 0) ||
		turn_load_whole_state(c, 0, &t0, &state) < 0) {
		rc = cmd_error("umpire");
		goto done;
	}
	prefetch_rounds(c, last);
	for (int t = 1; t <= last && rc == EXIT_OK; t++)
		rc = replay_turn(c, state, t);
	layout_tag(tag, last + 1);
	if (rc == EXIT_OK && c->journal && repo_has(c->repo, tag)) {
		fprintf(stderr, "replay: git has %s, which the journal does not\n", tag);
		rc = EXIT_DATAERR;
	}
	if (rc == EXIT_OK)
		printf("replay: %d turn%s identical\n", last, last == 1 ? "" : "s");
done:
	if (state)
		c->rules->state_free(state);
	campaign_close(c);
	return rc;
}
