/* replay.c — `umpire replay`: re-resolve every turn from the setup state, the order files
 * archived in git and the keys in the journal, and require every order hash, digest, seed,
 * die, event, state and committed file to come out identical. The first difference is
 * named and the exit code is 65. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/fair.h"
#include "core/turn.h"

static const char replay_help[] =
	"usage: umpire replay DIR\n\n"
	"Re-resolves every turn of the campaign from the setup state (tag turn-0000), the order\n"
	"files committed in git and the keys in the journal, through the same code 'umpire turn'\n"
	"uses, and compares every die, event, state and committed file with the journal and git.\n"
	"Exit 0 only if everything is identical; otherwise the first difference is named and the\n"
	"exit code is 65.\n";

static int fail(int turn, const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "replay: turn %d: ", turn);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return EXIT_DATAERR;
}

/* Compares one committed file with what the replay produced. */
static int same_file(struct campaign *c, const char *tag, const char *path, const struct buf *want,
	int turn)
{
	struct buf got = BUF_INIT, err = BUF_INIT;
	int rc = EXIT_OK;
	int r = repo_read(c->repo, tag, path, &got, &err);
	if (r != 0)
		rc = fail(turn, "%s is missing from commit %s", path, tag);
	else if (got.len != want->len || memcmp(got.data, want->data, got.len) != 0)
		rc = fail(turn, "committed %s differs from the replayed one (%s)", path,
			"the file was changed after the turn");
	buf_release(&got);
	buf_release(&err);
	return rc;
}

static int replay_turn(struct campaign *c, void *state, int t)
{
	struct journal_record *r = NULL;
	struct buf err = BUF_INIT, bytes = BUF_INIT;
	struct turn_input in;
	struct turn_output out;
	struct diag d;
	char tag[16], dir[64], path[160], hex[65], num[64];
	char **names = NULL;
	uint8_t key[32], beacon[32];
	int rc = EXIT_DATAERR;

	memset(&out, 0, sizeof(out));
	diag_init(&d);
	turn_input_init(&in, t);
	campaign_turn_tag(tag, t);
	if (journal_read(c->journal, t, &r, &err) != 0) {
		fprintf(stderr, "replay: turn %d: cannot read it from the journal: %s\n", t, buf_str(&err));
		goto done;
	}
	if (!repo_has(c->repo, tag)) {
		rc = fail(t, "tag %s is missing from git%s", tag, "");
		goto done;
	}
	snprintf(dir, sizeof(dir), "orders/%s", tag);
	if (repo_list(c->repo, tag, dir, &names, &err) < 0) {
		fprintf(stderr, "replay: turn %d: %s\n", t, buf_str(&err));
		goto done;
	}
	/* The archived order files, through the same checks a turn makes. */
	for (size_t i = 0; names[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (repo_read(c->repo, tag, path, &bytes, &err) != 0) {
			rc = fail(t, "cannot read %s%s", path, "");
			goto done;
		}
		if (turn_add_order_bytes(&in, c, state, path, (const unsigned char *)bytes.data,
			bytes.len, &d) < 0) {
			fprintf(stderr, "replay: turn %d: the committed order file %s no longer passes the checks:\n",
				t, path);
			diag_print(&d, stderr);
			goto done;
		}
	}
	/* Every journaled order file must be the committed one, byte for byte, and back. */
	for (size_t i = 0; i < r->n_orders; i++) {
		const struct journal_order *o = &r->orders[i];
		const struct order_file *f = NULL;
		for (size_t k = 0; k < in.n_files; k++)
			if (strcmp(in.files[k].player, o->player) == 0)
				f = &in.files[k];
		if (!o->bytes) {
			if (f) {
				rc = fail(t, "the journal says %s sent no orders, but git holds %s", o->player, f->path);
				goto done;
			}
			in.missing = xrealloc(in.missing, (in.n_missing + 1) * sizeof(char *));
			in.missing[in.n_missing++] = xstrdup(o->player);
			continue;
		}
		if (!f) {
			rc = fail(t, "the journal holds orders of %s that git does not%s", o->player, "");
			goto done;
		}
		hex_encode(hex, f->sha256, 32);
		if (strcmp(hex, o->sha256) != 0 || f->len != o->len || memcmp(f->bytes, o->bytes, o->len)) {
			rc = fail(t, "order file %s differs from the journal's copy (sha256 %s in the journal)",
				f->path, o->sha256);
			goto done;
		}
	}
	for (size_t k = 0; k < in.n_files; k++) {
		int found = 0;
		for (size_t i = 0; i < r->n_orders; i++)
			found |= strcmp(in.files[k].player, r->orders[i].player) == 0;
		if (!found) {
			rc = fail(t, "git holds %s, which the journal never received%s", in.files[k].path, "");
			goto done;
		}
	}
	if (turn_complete(&in, c, state, 1) < 0)
		goto done;
	if (hex_decode(key, 32, r->key) < 0 || hex_decode(beacon, 32, r->beacon) < 0) {
		rc = fail(t, "the journal's key or beacon is not hex (%s, %s)", r->key, r->beacon);
		goto done;
	}
	if (!fair_key_check(key, (uint32_t)t, c->commitment)) {
		rc = fail(t, "the journal's key %s does not chain to the commitment%s", r->key, "");
		goto done;
	}
	if (r->beacon_value) {
		in.beacon_value = xstrdup(r->beacon_value);
		in.beacon_round = r->beacon_round ? xstrdup(r->beacon_round) : NULL;
	}
	if (turn_resolve(&out, c, state, &in, key, beacon) < 0) {
		rc = EXIT_SOFTWARE;
		goto done;
	}
	hex_encode(hex, out.digest, 32);
	if (strcmp(hex, r->orders_digest) != 0) {
		rc = fail(t, "orders digest %s, the journal says %s", hex, r->orders_digest);
		goto done;
	}
	hex_encode(hex, out.seed, 32);
	if (strcmp(hex, r->seed) != 0) {
		rc = fail(t, "seed %s, the journal says %s", hex, r->seed);
		goto done;
	}
	size_t nd = out.dice.n < r->n_dice ? out.dice.n : r->n_dice;
	for (size_t j = 0; j < nd; j++) {
		const struct die_record *a = &out.dice.v[j], *b = &r->dice[j];
		if (a->sides != b->sides || a->value != b->value || strcmp(a->purpose, b->purpose)) {
			snprintf(num, sizeof(num), "%zu", j);
			fprintf(stderr, "replay: turn %d: die %zu differs: replayed d%llu = %llu for \"%s\"; "
				"journal has d%llu = %llu for \"%s\"\n", t, j,
				(unsigned long long)a->sides, (unsigned long long)a->value, a->purpose,
				(unsigned long long)b->sides, (unsigned long long)b->value, b->purpose);
			goto done;
		}
	}
	if (out.dice.n != r->n_dice) {
		snprintf(num, sizeof(num), "%zu replayed dice, %zu in the journal", out.dice.n, r->n_dice);
		rc = fail(t, "dice count differs: %s%s", num, "");
		goto done;
	}
	for (size_t i = 0; i < out.events.n || i < r->n_events; i++) {
		if (i >= out.events.n || i >= r->n_events) {
			snprintf(num, sizeof(num), "%zu replayed, %zu in the journal", out.events.n, r->n_events);
			rc = fail(t, "event count differs: %s%s", num, "");
			goto done;
		}
		const struct event *a = &out.events.v[i];
		const struct journal_event *b = &r->events[i];
		int kind_differs = strcmp(b->kind, a->kind == EVENT_VOID ? "void" : "event") != 0 ||
			(a->kind == EVENT_VOID && (a->order_index != b->order_index ||
				!b->player || strcmp(a->player, b->player) != 0));
		if (kind_differs || strcmp(a->text, b->text) || strcmp(a->phase, b->phase)) {
			rc = fail(t, "event differs: replayed \"%s\", journal \"%s\"", a->text, b->text);
			goto done;
		}
	}
	hex_encode(hex, out.state_sha256, 32);
	if (strcmp(hex, r->state_sha256) != 0) {
		rc = fail(t, "state hash %s, the journal says %s", hex, r->state_sha256);
		goto done;
	}
	rc = same_file(c, tag, "state.yaml", &out.state_yaml, t);
	if (rc != EXIT_OK)
		goto done;
	snprintf(path, sizeof(path), "journal/%s.yaml", tag);
	rc = same_file(c, tag, path, &out.journal_yaml, t);
	for (size_t i = 0; rc == EXIT_OK && i < out.n_reports; i++) {
		snprintf(path, sizeof(path), "reports/%s/%s.md", tag, c->players[i]);
		rc = same_file(c, tag, path, &out.reports[i], t);
	}
	if (rc == EXIT_OK)
		printf("turn %d: ok (%zu dice, %zu events)\n", t, out.dice.n, out.events.n);
done:
	repo_names_free(names);
	journal_record_free(r);
	turn_output_release(&out);
	turn_input_release(&in, c);
	diag_release(&d);
	buf_release(&bytes);
	buf_release(&err);
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(replay_help, stdout);
			return EXIT_OK;
		}
		fputs(replay_help, stderr);
		return EXIT_USAGE;
	}
	if (argc - optind != 1) {
		fputs(replay_help, stderr);
		return EXIT_USAGE;
	}
	struct campaign *c = NULL;
	int rc = campaign_open(&c, argv[optind], CAMPAIGN_LOCK | CAMPAIGN_JOURNAL);
	if (rc != EXIT_OK)
		return rc;
	struct buf err = BUF_INIT;
	void *state = NULL;
	int last = -1, t0;
	if (journal_last_turn(c->journal, &last, &err) < 0) {
		fprintf(stderr, "umpire: %s\n", buf_str(&err));
		rc = EXIT_IOERR;
		goto done;
	}
	if (campaign_load_state(c, "turn-0000", &t0, &state) < 0) {
		rc = EXIT_DATAERR;
		goto done;
	}
	for (int t = 1; t <= last && rc == EXIT_OK; t++)
		rc = replay_turn(c, state, t);
	if (rc == EXIT_OK) {
		char tag[16];
		campaign_turn_tag(tag, last + 1);
		if (repo_has(c->repo, tag)) {
			fprintf(stderr, "replay: git has %s, which the journal does not\n", tag);
			rc = EXIT_DATAERR;
		}
	}
	if (rc == EXIT_OK)
		printf("replay: %d turn%s identical\n", last, last == 1 ? "" : "s");
done:
	if (state)
		c->rules->state_free(state);
	buf_release(&err);
	campaign_close(c);
	return rc;
}
