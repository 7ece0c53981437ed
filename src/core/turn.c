/* turn.c — the turn pipeline as one table of steps, read top to bottom like the rulebook:
 * finish what a crash left, load the state, check the orders, derive the seed, play the
 * umpire's rulings and the rule system's phases, render the files, build the commit, journal
 * it, publish it. Commands run slices of the table (turn_run); the journal is the point of
 * no return (docs/design.md, crash safety). */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "core/beacon.h"
#include "core/turn.h"
#include "core/audit.h"
#include "core/durable.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/orders.h"
#include "core/receipt.h"
#include "core/render.h"
#include "core/when.h"
#include "core/banned.h"

static int step_recover(struct turn *t);
static int step_load(struct turn *t);
static int step_closed(struct turn *t);
static int step_orders(struct turn *t);
static int step_close(struct turn *t);
static int step_randomness(struct turn *t);
static int step_seed(struct turn *t);
static int step_rulings(struct turn *t);
static int step_resolve(struct turn *t);
static int step_render(struct turn *t);
static int step_reread(struct turn *t);
static int step_seal(struct turn *t);
static int step_build(struct turn *t);
static int step_journal(struct turn *t);
static int step_publish(struct turn *t);

/* The life of a turn. `check` runs load..orders, `close` recover..close, `turn`
 * recover..publish, `replay` and `verify` closed..render on each journaled turn; the setup
 * runs build..publish. */
static const struct turn_step steps[] = {
	{ "recover", "finish a turn a crash left half-done; notice a re-run of the last turn",
		step_recover },
	{ "load", "the state at the committed HEAD; the number of the next turn", step_load },
	{ "closed",
		"a closed turn: what its close fixed, and the files it kept when none are given",
		step_closed },
	{ "orders", "read and check every order file; every due player has one", step_orders },
	{ "close",
		"close: fix D_t, every file hash and the randomness to come (tag close-NNNN); "
		"a closed turn: its inputs are exactly those",
		step_close },
	{ "randomness", "B_t: the beacon round the close named, or the players' reveals",
		step_randomness },
	{ "seed", "turn key, orders digest and turn seed (docs/fairness.md)", step_seed },
	{ "rulings", "the umpire's dice rulings, then its adjustments, before the rules",
		step_rulings },
	{ "resolve", "the rule system's phases, every die from the dice service", step_resolve },
	{ "render", "state.yaml, the journal export and each player's report", step_render },
	{ "reread",
		"the state as the next turn will load it, and each due player's orders on it; "
		"refused, it is the rule system's bug",
		step_reread },
	{ "seal",
		"sealed: the whole state, the withheld files and salts into .umpire/sealed/, each "
		"player's report, view and salt into his outbox (before the journal)",
		step_seal },
	{ "build", "the git objects of the turn's commit, no ref moved", step_build },
	{ "journal", "one journal transaction: every row, the files and the commit id",
		step_journal },
	{ "publish", "work tree, index, main (compare-and-swap) and the turn's tag", step_publish },
	{ NULL, NULL, NULL },
};

const struct turn_step *turn_steps(void)
{
	return steps;
}

static int step_index(const char *name)
{
	for (int i = 0; steps[i].run; i++)
		if (strcmp(steps[i].name, name) == 0)
			return i;
	return -1;
}

int turn_run(struct turn *t, const char *first, const char *last)
{
	int a = step_index(first), b = step_index(last);

	/* Slices are named by the code, never by input: an unknown name is a bug. */
	if (a < 0 || b < 0 || a > b)
		return error_set(ERROR_INTERNAL, "internal error: no pipeline slice '%s'..'%s'",
			first, last);
	/* A file that could not be taken in (too large, not a regular file, unreadable) is bad
	 * input before anything else looks at the campaign: without it, the turn would be
	 * judged on the files left, e.g. as one already processed (issue 25). */
	if (t->source == TURN_LIVE && diag_count(&t->diag)) {
		t->failed_step = "orders";
		return error_set(ERROR_INPUT, "the order files have errors");
	}
	for (int i = a; i <= b; i++) {
		int rc = steps[i].run(t);
		if (rc < 0)
			t->failed_step = steps[i].name;
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* --- set-up ---------------------------------------------------------------------------- */

long long turn_now(void)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	if (s && *s) {
		char *end;
		errno = 0;
		long long v = strtoll(s, &end, 10);
		if (errno == 0 && *end == '\0' && v >= 0)
			return v;
	}
	struct timespec now;
	if (clock_gettime(CLOCK_REALTIME, &now) != 0)
		abort(); /* only for a bad clock id or pointer */
	return (long long)now.tv_sec;
}

void turn_beacon(uint8_t out[FAIR_HASH_BYTES], const char *value)
{
	memset(out, 0, FAIR_HASH_BYTES);
	if (value)
		fair_sha256(out, value, strlen(value));
}

void turn_chain_head(uint8_t out[FAIR_HASH_BYTES], const uint8_t prev[FAIR_HASH_BYTES],
	const void *entry, size_t len)
{
	fair_sha256_concat(out, prev, FAIR_HASH_BYTES, entry, len);
}

void turn_init(struct turn *t, struct campaign *c, enum turn_source source, unsigned flags,
	const struct journal_record *record, const char *rev, void *state)
{
	memset(t, 0, sizeof(*t));
	t->c = c;
	t->source = source;
	t->flags = flags;
	t->record = record;
	t->rev = rev;
	t->state = state;
	t->record_name = "the journal";
	if (record)
		t->in.turn = record->turn;
	diag_init(&t->diag);
	dice_init_fair(&t->out.dice, t->out.seed);
	events_init(&t->out.events);
}

static void free_record_parts(struct journal_record *r)
{
	file_list_free(r->files, r->n_files);
	free(r->orders);
	free(r->events);
	memset(r, 0, sizeof(*r));
}

void turn_release(struct turn *t)
{
	struct turn_input *in = &t->in;
	struct turn_output *out = &t->out;

	for (size_t i = 0; i < in->n_files; i++)
		order_file_release(&in->files[i], t->c);
	free(in->files);
	for (size_t i = 0; i < in->n_missing; i++)
		free(in->missing[i]);
	free(in->missing);
	free(in->beacon_value);
	free(in->beacon_round);
	free(in->beacon_signature);
	dice_release(&out->dice);
	events_release(&out->events);
	free(out->summary);
	buf_release(&out->state_yaml);
	buf_release(&out->journal_yaml);
	for (size_t i = 0; i < out->n_reports; i++)
		buf_release(&out->reports[i]);
	buf_release(&out->public_report);
	free(out->reports);
	for (size_t i = 0; out->maps && i < out->n_reports; i++)
		buf_release(&out->maps[i]);
	free(out->maps);
	buf_release(&out->public_map);
	if (t->before)
		t->c->rules->state_free(t->before);
	for (size_t i = 0; out->views && i < t->c->n_players; i++)
		buf_release(&out->views[i].state);
	free(out->views);
	diag_release(&t->diag);
	journal_record_free(t->last);
	close_release(&t->close);
	for (size_t i = 0; i < t->n_salts; i++)
		free(t->salts[i].player);
	free(t->salts);
	free_record_parts(&t->rec);
	if (t->owns_state && t->state)
		t->c->rules->state_free(t->state);
	memset(t, 0, sizeof(*t));
}

void turn_add_order_bytes(struct turn *t, const char *name, const void *bytes, size_t len)
{
	struct turn_input *in = &t->in;
	struct order_file *f;

	in->files = xrealloc(in->files, (in->n_files + 1) * sizeof(*in->files));
	f = &in->files[in->n_files++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(name);
	f->bytes = xmalloc(len ? len : 1);
	if (len)
		memcpy(f->bytes, bytes, len);
	f->len = len;
	fair_sha256(f->sha256, f->bytes, len);
}

/* 1 if st is the campaign's .umpire/secret (the same file, whatever path led to it). */
static int is_secret_file(const struct campaign *c, const struct stat *st)
{
	char *path = xasprintf("%s/.umpire/secret", c->dir);
	struct stat sec;
	int same = stat(path, &sec) == 0 && sec.st_dev == st->st_dev && sec.st_ino == st->st_ino;

	free(path);
	return same;
}

int turn_add_order_file(struct turn *t, const char *path)
{
	struct buf bytes = BUF_INIT;
	struct stat st;
	int rc = file_read_stat(path, ORDER_FILE_MAX_BYTES, &bytes, &st);

	if (rc == 0 && t->c && is_secret_file(t->c, &st)) {
		diag_add(&t->diag, path, 1, 1,
			"this is the umpire's secret (.umpire/secret), never an order file (an order file expected)");
		rc = error_set(ERROR_INPUT, "the umpire's secret given as an order file");
		fair_wipe(bytes.data, bytes.len);
	} else if (rc == 0)
		turn_add_order_bytes(t, path, bytes.data, bytes.len);
	else if (error_last()->klass == ERROR_MISSING)
		diag_add(&t->diag, path, 1, 1,
			"cannot open order file: %s (a readable file expected)", strerror(errno));
	else if (error_last()->klass == ERROR_INPUT)
		diag_add(&t->diag, path, 1, 1, "order %s", error_last()->message);
	else
		diag_add(&t->diag, path, 1, 1, "cannot read order file (a readable file expected)");
	buf_release(&bytes);
	return rc;
}

int turn_add_rulings_file(struct turn *t, const char *path)
{
	size_t before = t->in.n_files;
	int rc = turn_add_order_file(t, path);

	if (t->in.n_files > before)
		t->in.files[t->in.n_files - 1].is_rulings = 1;
	return rc;
}

void turn_set_beacon(struct turn *t, const char *value, const char *round)
{
	/* Copies first: value or round may be the turn's own. */
	char *v = value ? xstrdup(value) : NULL;
	char *r = value && round ? xstrdup(round) : NULL;

	free(t->in.beacon_value);
	free(t->in.beacon_round);
	t->in.beacon_value = v;
	t->in.beacon_round = r;
}

void turn_set_beacon_signature(struct turn *t, const char *signature)
{
	char *s = signature ? xstrdup(signature) : NULL;
	free(t->in.beacon_signature);
	t->in.beacon_signature = s;
}

const struct order_file *turn_find_file(const struct turn_input *in, const char *player)
{
	for (size_t i = 0; i < in->n_files; i++)
		if (in->files[i].player && strcmp(in->files[i].player, player) == 0)
			return &in->files[i];
	return NULL;
}

/* --- recover ----------------------------------------------------------------------------- */

/* The commit message of a journaled turn, exactly as it was first built. */
static void record_message(struct buf *msg, const struct campaign *c,
	const struct journal_record *r)
{
	layout_commit_message(msg, r->turn, r->summary, r->journal_head, c->commitment);
}

/* The journal holds turn r, which git has not finished: rebuild its commit from the
 * journal's files (same bytes, message and time: the same id) and publish it. */
static int finish_turn(struct turn *t, const struct journal_record *r, const char *main_id)
{
	char built[41], tag[LAYOUT_TAG_MAX];
	int rc = 0;

	layout_tag(tag, r->turn);
	if (strcmp(main_id, r->commit_id) != 0) {
		struct buf msg = BUF_INIT;
		record_message(&msg, t->c, r);
		rc = repo_build(t->c->repo, r->files, r->n_files, buf_str(&msg), r->processed_at,
			built);
		buf_release(&msg);
		if (rc < 0)
			return error_prefix("cannot finish turn %d", r->turn);
		if (strcmp(built, r->commit_id) != 0)
			return error_set(ERROR_INTERNAL,
				"cannot finish turn %d: main is at %s, which is not the parent of the journaled commit %s (the branch was moved; reset it to " LAYOUT_TAG_PREFIX
				"%04d)",
				r->turn, main_id[0] ? main_id : "nothing", r->commit_id,
				r->turn - 1);
	}
	if (repo_publish(t->c->repo, r->files, r->n_files, r->commit_id, tag) < 0)
		return error_prefix("cannot finish turn %d", r->turn);
	t->status |= TURN_RECOVERED;
	t->recovered = r->turn;
	return 0;
}

/* main one commit past the journal's last turn r: the close of the next turn. Tagged: all
 * is well. Untagged (a crash between moving main and tagging): tag it now. Returns 0, 1
 * when main is not such a close, -1 on failure. */
static int recover_close(struct turn *t, const struct journal_record *r, const char *main_id)
{
	char rev[64], parent[41], tag[LAYOUT_TAG_MAX], tagged[41], path[LAYOUT_PATH_MAX];
	struct buf subject = BUF_INIT, bytes = BUF_INIT;
	char *want = xasprintf("Turn %d: " LAYOUT_CLOSE_SUBJECT, r->turn + 1);
	int rc = 1;

	snprintf(rev, sizeof rev, "%s^1", main_id);
	if (!main_id[0] || repo_commit_id(t->c->repo, rev, parent) != 0 ||
		strcmp(parent, r->commit_id) != 0 ||
		repo_subject(t->c->repo, main_id, &subject) != 0 ||
		strcmp(buf_str(&subject), want) != 0)
		goto done;
	layout_close_tag(tag, r->turn + 1);
	if (repo_commit_id(t->c->repo, tag, tagged) == 0) {
		rc = strcmp(tagged, main_id) == 0 ? 0 : 1;
		goto done;
	}
	layout_close_path(path, r->turn + 1);
	if (repo_read(t->c->repo, main_id, path, &bytes) < 0) {
		rc = -1;
		goto done;
	}
	struct file f = { path, (unsigned char *)bytes.data, bytes.len };
	rc = repo_publish(t->c->repo, &f, 1, main_id, tag) < 0 ? -1 : 0;
done:
	free(want);
	buf_release(&subject);
	buf_release(&bytes);
	return rc;
}

/* The journal's last turn r against what git holds at its tag: its rows against the
 * committed export (audit_journal_export), its files rows against the committed blobs, one
 * for each file the turn commits. A journal edited under the history (its append-only
 * triggers dropped) is refused before a turn is added on top of it (issue 25). 0 / -1. */
static int check_last_turn(struct turn *t, const struct journal_record *r, const char *tag)
{
	struct campaign *c = t->c;
	struct journal_record *ex = NULL;
	struct layout_entry *paths = NULL;
	struct buf got = BUF_INIT;
	struct diag d;
	size_t n = 0;
	int rc = -1;

	diag_init(&d);
	if (audit_read_export(&ex, c, r->turn, NULL, &d) < 0) {
		error_prefix("the journal's turn %d cannot be checked against git", r->turn);
		goto done;
	}
	if (audit_journal_export(r, ex) < 0)
		goto done;
	if (c->visibility == CAMPAIGN_SEALED) {
		n = layout_sealed_turn_files(&paths, r->turn, c->rules->draw_map != NULL);
	} else {
		const char **senders = xcalloc(r->n_orders + 1, sizeof(*senders));
		size_t n_senders = 0;
		for (size_t i = 0; i < r->n_orders; i++)
			if (r->orders[i].has_file)
				senders[n_senders++] = r->orders[i].player;
		n = layout_turn_files(&paths, r->turn, senders, n_senders,
			(const char *const *)c->players, c->n_players, c->rules->draw_map != NULL);
		free(senders);
	}
	for (size_t i = 0; i < n; i++) {
		const struct file *f = file_list_find(r->files, r->n_files, paths[i].path);
		if (!f || repo_read(c->repo, tag, f->path, &got) != 0 || got.len != f->len ||
			(f->len && memcmp(got.data, f->data, f->len) != 0)) {
			error_set(ERROR_INPUT, "turn %d: the journal's files row for %s %s",
				r->turn, paths[i].path,
				f ? "differs from the blob committed" : "is missing");
			goto done;
		}
	}
	if (r->n_files != n) {
		error_set(ERROR_INPUT,
			"turn %d: the journal has %zu files rows, the turn wrote %zu", r->turn,
			r->n_files, n);
		goto done;
	}
	rc = 0;
done:
	if (rc < 0 && error_last()->klass == ERROR_INPUT)
		error_prefix(
			"the journal no longer matches git (restore .umpire/journal.sqlite from a backup, or run 'umpire verify' to see more)");
	journal_record_free(ex);
	free(paths);
	buf_release(&got);
	diag_release(&d);
	return rc;
}

/* Git level with the journal: a later tag than the journal knows means the journal lost
 * turns, a tag or main elsewhere than the journal says means a rewritten history; refuse
 * both rather than guess. A turn journaled but not published is finished. */
static int recover_git(struct turn *t)
{
	struct campaign *c = t->c;
	char tag[LAYOUT_TAG_MAX], tagged[41], main_id[41];
	int last = -1;

	if (journal_last_turn(c->journal, &last) < 0)
		return -1;
	layout_tag(tag, last + 1);
	if (repo_has(c->repo, tag))
		return error_set(ERROR_INTERNAL,
			"git has %s but the journal ends at turn %d: the journal is behind the history (restore .umpire/journal.sqlite from a backup)",
			tag, last);
	if (last < 0)
		return error_set(ERROR_INTERNAL,
			"the journal is empty: not an umpire campaign, or setup never finished");
	if (journal_read(c->journal, last, &t->last) < 0)
		return error_prefix("cannot read turn %d from the journal", last);
	const struct journal_record *r = t->last;
	layout_tag(tag, last);
	if (repo_commit_id(c->repo, LAYOUT_BRANCH, main_id) != 0)
		main_id[0] = '\0';
	if (repo_commit_id(c->repo, tag, tagged) < 0)
		return finish_turn(t, r, main_id);
	if (strcmp(tagged, r->commit_id) != 0)
		return error_set(ERROR_INTERNAL,
			"tag %s points at %s but the journal says turn %d is commit %s: the history was rewritten",
			tag, tagged, last, r->commit_id);
	if (strcmp(main_id, r->commit_id) != 0 && recover_close(t, r, main_id) != 0)
		return error_set(ERROR_INTERNAL,
			"main is at %s, not at %s (turn %d): the branch was moved (reset it to %s)",
			main_id[0] ? main_id : "nothing", r->commit_id, last, tag);
	return last > 0 ? check_last_turn(t, r, tag) : 0;
}

/* The SHA-256 of a journaled order file's bytes: its sha256 column when open, computed from
 * the bytes the journal keeps when sealed (the column holds the salted commitment). */
static const uint8_t *raw_sha256(const struct journal_order *o, uint8_t h[FAIR_HASH_BYTES])
{
	if (!o->bytes)
		return o->sha256;
	fair_sha256(h, o->bytes, o->len);
	return h;
}

/* 1 if the files given are byte for byte the order files of the journal's last turn: a
 * re-run of a command that already went through (say, after a crash was recovered). */
static int same_as_last(const struct turn *t)
{
	const struct journal_record *r = t->last;
	unsigned char used[CAMPAIGN_MAX_PLAYERS + 1] = { 0 };
	uint8_t h[FAIR_HASH_BYTES];
	size_t with_bytes = 0;

	if (!r || r->turn < 1 || t->in.n_files == 0 || r->n_orders > sizeof(used))
		return 0;
	for (size_t i = 0; i < r->n_orders; i++)
		with_bytes += r->orders[i].has_file;
	if (with_bytes != t->in.n_files)
		return 0;
	/* Each file given matches a journaled file of its own: one file given twice is not
	 * the turn's two files. */
	for (size_t k = 0; k < t->in.n_files; k++) {
		size_t i;
		for (i = 0; i < r->n_orders; i++)
			if (!used[i] && r->orders[i].has_file &&
				memcmp(raw_sha256(&r->orders[i], h), t->in.files[k].sha256,
					FAIR_HASH_BYTES) == 0)
				break;
		if (i == r->n_orders)
			return 0;
		used[i] = 1;
	}
	return 1;
}

/* The journal's last turn run again (`with` says how it was recognised): nothing to do with
 * its own beacon value, refused with another, both shown. */
static int rerun(struct turn *t, const char *with)
{
	const struct journal_record *r = t->last;

	if (t->in.beacon_value && r->beacon_value &&
		strcmp(t->in.beacon_value, r->beacon_value) != 0)
		return error_set(ERROR_INPUT,
			"turn %d was processed%s beacon value %s (round %s); this run gives %s: a turn's randomness cannot change",
			r->turn, with, r->beacon_value, r->beacon_round ? r->beacon_round : "?",
			t->in.beacon_value);
	t->status |= TURN_ALREADY_DONE;
	return 1;
}

static int step_recover(struct turn *t)
{
	if (t->c->visibility == CAMPAIGN_SEALED && repo_has(t->c->repo, LAYOUT_REVEAL_TAG))
		return error_set(ERROR_INPUT,
			"campaign '%s' was revealed (tag " LAYOUT_REVEAL_TAG
			"): the game is over, no turn follows",
			t->c->id);
	if (recover_git(t) < 0)
		return -1;
	return same_as_last(t) ? rerun(t, " with these order files and") : 0;
}

/* --- load -------------------------------------------------------------------------------- */

/* A sealed campaign's state.yaml is the public view: the rules carry on from the whole state
 * the umpire kept (.umpire/sealed/turn-NNNN/state.yaml). `check` on a copy without it (a
 * player's clone) checks against the public view. */
static int load_sealed_state(struct turn *t, int last)
{
	char *dir = turn_private_dir(t->c, "sealed", last);
	char *path = xasprintf("%s/" LAYOUT_STATE, dir);
	struct buf bytes = BUF_INIT;
	void *whole = NULL;
	int n = -1, rc = 0;

	if (file_read(path, 64 * 1024 * 1024, &bytes) < 0) {
		if (!(t->flags & TURN_CHECK_ONLY))
			rc = error_prefix("sealed campaign: cannot read the state the umpire kept");
	} else if (campaign_parse_state(t->c, path, &bytes, &n, &whole) < 0) {
		rc = -1;
	} else if (n != last) {
		rc = error_set(ERROR_INPUT, "%s is the state after turn %d, not %d", path, n, last);
		t->c->rules->state_free(whole);
	} else {
		t->c->rules->state_free(t->state);
		t->state = whole;
	}
	buf_release(&bytes);
	free(path);
	free(dir);
	return rc;
}

int turn_load_whole_state(struct campaign *c, int n, int *turn, void **state)
{
	char tag[LAYOUT_TAG_MAX], dir[LAYOUT_PATH_MAX];
	struct buf bytes = BUF_INIT;
	int rc;

	layout_tag(tag, n);
	if (c->visibility != CAMPAIGN_SEALED)
		return campaign_load_state(c, tag, turn, state);
	*state = NULL;
	layout_reveal_dir(dir, n);
	char *path = xasprintf("%s/" LAYOUT_STATE, dir);
	char *kept = turn_private_dir(c, "sealed", n);
	char *kept_path = xasprintf("%s/" LAYOUT_STATE, kept);
	if (repo_has(c->repo, LAYOUT_REVEAL_TAG))
		rc = repo_read(c->repo, LAYOUT_REVEAL_TAG, path, &bytes) == 0 ?
			     campaign_parse_state(c, LAYOUT_REVEAL_TAG, &bytes, turn, state) :
			     error_set(ERROR_INPUT, "the reveal has no %s", path);
	else
		rc = file_read(kept_path, 64 * 1024 * 1024, &bytes) == 0 ?
			     campaign_parse_state(c, kept_path, &bytes, turn, state) :
			     error_set(ERROR_INPUT,
				     "turn %d of a sealed campaign: its whole state is withheld until the reveal (umpire reveal DIR)",
				     n);
	free(path);
	free(kept);
	free(kept_path);
	buf_release(&bytes);
	return rc;
}

static int step_load(struct turn *t)
{
	struct campaign *c = t->c;
	const char *why = NULL;
	int last;

	if (campaign_load_state(c, "HEAD", &last, &t->state) < 0)
		return -1;
	t->owns_state = 1;
	if (c->visibility == CAMPAIGN_SEALED && load_sealed_state(t, last) < 0)
		return -1;
	t->in.turn = last + 1;
	if (c->rules->game_over && c->rules->game_over(&c->rc, t->state, t->in.turn, &why))
		return error_set(ERROR_INPUT, "the game is over (%s): there is no turn %d",
			why ? why : "the rule system says so", t->in.turn);
	if ((uint32_t)t->in.turn > c->chain_length)
		return error_set(ERROR_INPUT,
			"turn %d is beyond the key chain (%u turns): start a new campaign",
			t->in.turn, c->chain_length);
	return 0;
}

/* --- closed ------------------------------------------------------------------------------ */

char *turn_private_dir(const struct campaign *c, const char *what, int n)
{
	return xasprintf("%s/.umpire/%s/" LAYOUT_TAG_PREFIX "%04d", c->dir, what, n);
}

int turn_read_close(struct campaign *c, int n, struct close_record *r, char commit_id[41],
	struct buf *keep)
{
	char tag[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX];
	struct buf bytes = BUF_INIT;
	struct diag d;
	int rc;

	memset(r, 0, sizeof(*r));
	layout_close_tag(tag, n);
	layout_close_path(path, n);
	rc = repo_commit_id(c->repo, tag, commit_id);
	if (rc != 0)
		return rc == ERROR_NOTFOUND ? ERROR_NOTFOUND : -1;
	if (repo_read(c->repo, tag, path, &bytes) < 0)
		return error_prefix("turn %d: %s has no %s", n, tag, path);
	diag_init(&d);
	rc = close_parse(r, path, &bytes, &d);
	if (rc == 0 &&
		(r->turn != n || strcmp(r->campaign, c->id) != 0 || r->entropy != c->entropy))
		rc = error_set(ERROR_INPUT,
			"turn %d: %s at %s is the close of turn %d of campaign '%s' (entropy %s), not of this turn (entropy %s)",
			n, path, tag, r->turn, r->campaign ? r->campaign : "?",
			campaign_entropy_names[r->entropy], campaign_entropy_names[c->entropy]);
	else if (rc < 0) {
		struct buf why = BUF_INIT;
		diag_format(&d, &why, DIAG_BRIEF);
		rc = error_set(ERROR_INPUT, "turn %d: the close file is not valid:\n%s", n,
			buf_str(&why));
		buf_release(&why);
	}
	if (rc < 0)
		close_release(r);
	diag_release(&d);
	if (rc == 0 && keep) {
		buf_release(keep);
		*keep = bytes;
	} else
		buf_release(&bytes);
	return rc;
}

/* A live turn closed without files given: the files the close kept, checked later (step
 * close) against its hashes. */
static int add_kept_files(struct turn *t)
{
	char *dir = turn_private_dir(t->c, "closed", t->in.turn);
	int rc = 0;

	for (size_t i = 0; i < t->close.n_orders && rc == 0; i++) {
		const char *p = t->close.orders[i].player;
		char *path = xasprintf("%s/%s.yaml", dir, p);
		if (strcmp(p, UMPIRE_PLAYER) == 0)
			rc = turn_add_rulings_file(t, path);
		else
			rc = turn_add_order_file(t, path);
		free(path);
	}
	free(dir);
	if (rc < 0)
		return error_set(ERROR_INPUT,
			"turn %d is closed but the files it kept are not readable here: give the closed order files (and --rulings) again",
			t->in.turn);
	return 0;
}

/* `turn` with no files on a campaign whose last turn is done and no close is pending: a
 * re-run of that turn. The same beacon value: nothing to do; another: refused. */
static int rerun_of_last(struct turn *t)
{
	if (!t->last || t->last->turn < 1)
		return error_set(ERROR_INPUT,
			"turn %d is not closed (campaign '%s' has entropy %s): close it first (umpire close %s ORDERS...)",
			t->in.turn, t->c->id, campaign_entropy_names[t->c->entropy], t->c->dir);
	return rerun(t, " with");
}

static int step_closed(struct turn *t)
{
	int rc;

	if (t->c->entropy == CAMPAIGN_ENTROPY_NONE) {
		if (t->flags & TURN_CLOSING)
			return error_set(ERROR_INPUT,
				"campaign '%s' has entropy none: its turns are not closed (umpire turn DIR ORDERS... in one step)",
				t->c->id);
		return 0;
	}
	if (t->flags & TURN_CHECK_ONLY)
		return 0;
	rc = turn_read_close(t->c, t->in.turn, &t->close, t->close_commit, NULL);
	if (rc < 0 && rc != ERROR_NOTFOUND)
		return -1;
	t->closed = rc == 0;
	if (t->source == TURN_RECORDED) {
		if (!t->closed)
			return error_set(ERROR_INPUT,
				"turn %d: there is no tag close-%04d: a campaign with entropy %s closes every turn before its randomness",
				t->in.turn, t->in.turn, campaign_entropy_names[t->c->entropy]);
		return 0;
	}
	if (t->flags & TURN_CLOSING)
		return 0; /* a close already there: step close compares */
	if (!t->closed && t->in.n_files == 0)
		return rerun_of_last(t);
	if (!t->closed)
		return error_set(ERROR_INPUT,
			"turn %d is not closed (campaign '%s' has entropy %s): close it first (umpire close %s ORDERS...)",
			t->in.turn, t->c->id, campaign_entropy_names[t->c->entropy], t->c->dir);
	return t->in.n_files == 0 ? add_kept_files(t) : 0;
}

/* --- orders ------------------------------------------------------------------------------ */

/* The salt the reveal published for player's file of this turn, or NULL. */
static const uint8_t *revealed_salt(const struct turn *t, const char *player)
{
	for (size_t i = 0; i < t->n_salts; i++)
		if (strcmp(t->salts[i].player, player) == 0)
			return t->salts[i].salt;
	return NULL;
}

/* Sealed: t->out.views, one per campaign player, made on first use. */
static struct turn_view *views_of(struct turn *t)
{
	if (!t->out.views)
		t->out.views = xcalloc(t->c->n_players + 1, sizeof(*t->out.views));
	return t->out.views;
}

/* The `views` of reveal/turn-NNNN/salts.yaml: each player's report and state salts, into
 * t->out.views. 0, or -1 when an entry is not one (d says why) or names no player. */
static int read_view_salts(struct turn *t, const struct node *v, struct diag *d)
{
	struct turn_view *views = views_of(t);
	const char *p, *rs, *ss;

	if (!v)
		return 0; /* seal_files names the player without salts */
	if (v->kind != NODE_SEQ || v->n > t->c->n_players)
		return -1;
	for (size_t i = 0; i < v->n; i++) {
		const struct node *e = v->items[i];
		size_t k = 0;
		if (node_want_str(node_get(e, "player"), "player", 64, &p, d) < 0 ||
			node_want_str(node_get(e, "report_salt"), "report_salt", 64, &rs, d) < 0 ||
			node_want_str(node_get(e, "state_salt"), "state_salt", 64, &ss, d) < 0)
			return -1;
		while (k < t->c->n_players && strcmp(t->c->players[k], p) != 0)
			k++;
		if (k == t->c->n_players ||
			hex_decode(views[k].report_salt, FAIR_HASH_BYTES, rs) < 0 ||
			hex_decode(views[k].state_salt, FAIR_HASH_BYTES, ss) < 0)
			return -1;
		views[k].salted = 1;
	}
	return 0;
}

/* reveal/turn-NNNN/salts.yaml at the reveal: each file's salt, into t->salts; each player's
 * view salts, into t->out.views. */
static int read_revealed_salts(struct turn *t, const char *path, int kept)
{
	struct buf bytes = BUF_INIT;
	struct node *root = NULL;
	struct diag d;
	const char *s;
	int rc = -1;

	diag_init(&d);
	if (kept ? file_read(path, ORDER_FILE_MAX_BYTES, &bytes) != 0 :
		   repo_read(t->c->repo, LAYOUT_REVEAL_TAG, path, &bytes) != 0) {
		error_set(ERROR_INPUT, "turn %d: %s has no %s", t->in.turn,
			kept ? "the umpire's copy" : "the reveal", path);
		goto done;
	}
	const struct node *v;
	if (node_parse(&root, path, bytes.data, bytes.len, NULL, &d) < 0 ||
		!(v = node_get(root, "salts")) || v->kind != NODE_SEQ ||
		v->n > CAMPAIGN_MAX_PLAYERS + 1)
		goto bad;
	t->salts = xcalloc(v->n + 1, sizeof(*t->salts));
	for (size_t i = 0; i < v->n; i++) {
		struct turn_salt *ts = &t->salts[t->n_salts++];
		if (node_want_str(node_get(v->items[i], "player"), "player", 64, &s, &d) < 0)
			goto bad;
		ts->player = xstrdup(s);
		if (node_want_str(node_get(v->items[i], "salt"), "salt", 64, &s, &d) < 0 ||
			hex_decode(ts->salt, FAIR_HASH_BYTES, s) < 0)
			goto bad;
	}
	if (read_view_salts(t, node_get(root, "views"), &d) < 0)
		goto bad;
	rc = 0;
	goto done;
bad:
	error_set(ERROR_INPUT, "turn %d: %s%s is not a salts file", t->in.turn, path,
		kept ? "" : " at the reveal");
done:
	node_free(root);
	diag_release(&d);
	buf_release(&bytes);
	return rc;
}

/* A committed order file against the record: hash, and bytes where the record keeps them,
 * so an edited file is named as such even when it no longer parses. */
static int committed_file_matches(const struct turn *t, const char *path, const char *player,
	const struct buf *bytes)
{
	const struct journal_order *o = journal_record_order(t->record, player);
	uint8_t h[FAIR_HASH_BYTES], kept[FAIR_HASH_BYTES];
	char hex[65], want[65], kept_hex[65];
	int tn = t->in.turn;

	const uint8_t *salt = revealed_salt(t, player);
	if (salt)
		fair_sealed_hash(h, salt, bytes->data ? bytes->data : "", bytes->len);
	else
		fair_sha256(h, bytes->data ? bytes->data : "", bytes->len);
	hex_encode(hex, h, FAIR_HASH_BYTES);
	if (!o || !o->has_file)
		return error_set(ERROR_INPUT, "turn %d: git holds %s, which %s never received", tn,
			path, t->record_name);
	hex_encode(want, o->sha256, FAIR_HASH_BYTES);
	if (memcmp(h, o->sha256, FAIR_HASH_BYTES) == 0 &&
		(!o->bytes ||
			(o->len == bytes->len && memcmp(o->bytes, bytes->data, bytes->len) == 0)))
		return 0;
	if (!o->bytes)
		return error_set(ERROR_INPUT,
			"turn %d: order file %s differs from the one %s records (sha256 %s committed, %s recorded)",
			tn, path, t->record_name, hex, want);
	fair_sha256(kept, o->bytes, o->len);
	hex_encode(kept_hex, kept, FAIR_HASH_BYTES);
	if (memcmp(kept, o->sha256, FAIR_HASH_BYTES) != 0)
		return error_set(ERROR_INPUT,
			"turn %d: order file %s differs from the journal's copy (its bytes hash to %s, its sha256 column says %s, the committed file %s)",
			tn, path, kept_hex, want, hex);
	return error_set(ERROR_INPUT,
		"turn %d: order file %s differs from the journal's copy (sha256 %s in the journal, %s committed)",
		tn, path, want, hex);
}

/* TURN_RECORDED, a sealed turn before the reveal on the umpire's copy: the files and salts
 * the turn kept in .umpire/sealed/turn-NNNN/ (what `umpire reveal` will commit), each file
 * the record says was received, checked against it as a revealed one is. */
static int read_kept_orders(struct turn *t)
{
	char *dir = turn_private_dir(t->c, "sealed", t->in.turn);
	char *path = xasprintf("%s/salts.yaml", dir);
	struct buf bytes = BUF_INIT;
	int rc = read_revealed_salts(t, path, 1);

	for (size_t i = 0; rc == 0 && i < t->record->n_orders; i++) {
		const struct journal_order *o = &t->record->orders[i];
		if (!o->has_file)
			continue;
		free(path);
		path = xasprintf("%s/orders/%s.yaml", dir, o->player);
		buf_release(&bytes);
		if (file_read(path, ORDER_FILE_MAX_BYTES, &bytes) != 0) {
			rc = error_prefix("turn %d: the umpire's copy of %s's orders", t->in.turn,
				o->player);
			break;
		}
		if ((rc = committed_file_matches(t, path, o->player, &bytes)) < 0)
			break;
		turn_add_order_bytes(t, path, bytes.data, bytes.len);
		if (strcmp(o->player, UMPIRE_PLAYER) == 0)
			t->in.files[t->in.n_files - 1].is_rulings = 1;
	}
	buf_release(&bytes);
	free(path);
	free(dir);
	return rc;
}

/* TURN_RECORDED: the order files committed at t->rev, checked against the record. */
static int read_committed_orders(struct turn *t)
{
	char dir[LAYOUT_PATH_MAX], path[2 * LAYOUT_PATH_MAX];
	struct buf bytes = BUF_INIT;
	char **names = NULL;
	int rc = -1;

	const char *rev = t->rev;
	layout_orders_dir(dir, t->in.turn);
	if (t->c->visibility == CAMPAIGN_SEALED) {
		/* Withheld until the reveal: the files and their salts are there. */
		char rdir[LAYOUT_PATH_MAX];
		layout_reveal_dir(rdir, t->in.turn);
		snprintf(path, sizeof path, "%s/salts.yaml", rdir);
		snprintf(dir, sizeof dir, "%.200s/orders", rdir);
		rev = LAYOUT_REVEAL_TAG;
		if (!repo_has(t->c->repo, rev)) {
			/* The umpire's own copy holds them in .umpire/sealed/ (the journal too). */
			if (t->c->journal) {
				rc = read_kept_orders(t);
				goto done;
			}
			error_set(ERROR_INPUT,
				"turn %d is sealed and the campaign not yet revealed: its order files are withheld (umpire reveal DIR publishes them; the umpire's own copy replays it now)",
				t->in.turn);
			goto done;
		}
		if (read_revealed_salts(t, path, 0) < 0)
			goto done;
	}
	if (repo_list(t->c->repo, rev, dir, &names) < 0) {
		error_prefix("turn %d", t->in.turn);
		goto done;
	}
	for (size_t i = 0; names[i]; i++) {
		char *player = layout_order_player(names[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!player) {
			error_set(ERROR_INPUT,
				"turn %d: git holds %s, which is not an order file (<player>.yaml)",
				t->in.turn, path);
			goto done;
		}
		int r = repo_read(t->c->repo, rev, path, &bytes);
		if (r == 0)
			r = committed_file_matches(t, path, player, &bytes);
		else
			error_prefix("turn %d: cannot read %s", t->in.turn, path);
		free(player);
		if (r < 0)
			goto done;
		turn_add_order_bytes(t, path, bytes.data, bytes.len);
		/* The umpire's file was given as such when it was processed. */
		if (strcmp(names[i], UMPIRE_PLAYER ".yaml") == 0)
			t->in.files[t->in.n_files - 1].is_rulings = 1;
	}
	rc = 0;
done:
	repo_names_free(names);
	buf_release(&bytes);
	return rc;
}

static int cmp_order_file(const void *a, const void *b)
{
	return strcmp(((const struct order_file *)a)->player,
		((const struct order_file *)b)->player);
}

/* Every due player sent a file, or is journaled as missing (TURN_ALLOW_MISSING, and always
 * when re-running a recorded turn, whose record says who sent nothing). */
static int check_complete(struct turn *t)
{
	struct campaign *c = t->c;
	int allow = (t->flags & TURN_ALLOW_MISSING) || t->source == TURN_RECORDED;
	/* A closed turn: its players without orders are the close's (step close compares). */
	if (t->closed && !(t->flags & TURN_CLOSING))
		allow = 1;
	int rc = 0;

	for (size_t i = 0; i < c->n_players; i++) {
		const char *p = c->players[i];
		if (!c->rules->player_due(&c->rc, t->state, t->in.turn, p) ||
			turn_find_file(&t->in, p))
			continue;
		if (allow) {
			t->in.missing = xrealloc(t->in.missing,
				(t->in.n_missing + 1) * sizeof(char *));
			t->in.missing[t->in.n_missing++] = xstrdup(p);
		} else {
			rc = error_set(ERROR_INPUT,
				"no order file from '%s', who is due on turn %d (their file, or --allow-missing to journal 'no orders')",
				p, t->in.turn);
		}
	}
	return rc;
}

/* Each file's hash as D_t takes it: its SHA-256 when open; when sealed, the salted commitment
 * with the salt derived from the umpire's secret (docs/fairness.md, "Sealed turns"). */
static int seal_files(struct turn *t)
{
	uint8_t secret[FAIR_HASH_BYTES];
	int rc = 0;

	for (size_t i = 0; i < t->in.n_files; i++)
		memcpy(t->in.files[i].digest_hash, t->in.files[i].sha256, FAIR_HASH_BYTES);
	if (t->c->visibility != CAMPAIGN_SEALED)
		return 0;
	struct turn_view *views = views_of(t);
	if (t->source == TURN_RECORDED) {
		for (size_t k = 0; k < t->c->n_players; k++)
			if (!views[k].salted)
				return error_set(ERROR_INPUT,
					"turn %d: the reveal has no view salts for %s", t->in.turn,
					t->c->players[k]);
		for (size_t i = 0; i < t->in.n_files; i++) {
			struct order_file *f = &t->in.files[i];
			const uint8_t *salt = revealed_salt(t, f->player);
			if (!salt)
				return error_set(ERROR_INPUT,
					"turn %d: the reveal has no salt for %s's file", t->in.turn,
					f->player);
			memcpy(f->salt, salt, FAIR_HASH_BYTES);
			fair_sealed_hash(f->digest_hash, salt, f->bytes, f->len);
		}
		return 0;
	}
	fair_secret_lock(secret, sizeof secret);
	rc = campaign_read_secret(t->c, secret);
	for (size_t i = 0; rc == 0 && i < t->in.n_files; i++) {
		struct order_file *f = &t->in.files[i];
		fair_salt(f->salt, secret, (uint32_t)t->in.turn, f->player);
		fair_sealed_hash(f->digest_hash, f->salt, f->bytes, f->len);
	}
	for (size_t k = 0; rc == 0 && k < t->c->n_players; k++) {
		const char *p = t->c->players[k];
		fair_view_salt(views[k].report_salt, secret, (uint32_t)t->in.turn, p, "report");
		fair_view_salt(views[k].state_salt, secret, (uint32_t)t->in.turn, p, "state");
		views[k].salted = 1;
	}
	fair_secret_unlock(secret, sizeof secret);
	if (rc < 0)
		return error_prefix("turn %d is sealed: its salts come from the secret",
			t->in.turn);
	return 0;
}

static int step_orders(struct turn *t)
{
	if (t->source == TURN_RECORDED && read_committed_orders(t) < 0)
		return -1;
	/* Files parse in the order given, so "a second file for X" names the later one. */
	for (size_t i = 0; i < t->in.n_files; i++)
		orders_parse_file(t, &t->in.files[i], &t->diag);
	if (diag_count(&t->diag) && t->source == TURN_LIVE)
		return error_set(ERROR_INPUT, "the order files have errors");
	if (diag_count(&t->diag)) {
		/* A recorded turn's files were accepted once: their problems are a difference,
		 * told in the one message replay and verify print. */
		struct buf why = BUF_INIT;
		buf_printf(&why, "turn %d: the committed order files no longer pass the checks\n",
			t->in.turn);
		diag_format(&t->diag, &why, DIAG_BRIEF);
		if (why.data[why.len - 1] == '\n')
			why.data[--why.len] = '\0';
		error_set(ERROR_INPUT, "%s", buf_str(&why));
		buf_release(&why);
		return -1;
	}
	if (t->in.n_files > 1)
		qsort(t->in.files, t->in.n_files, sizeof(*t->in.files), cmp_order_file);
	if (t->flags & TURN_CHECK_ONLY)
		return 0;
	if (seal_files(t) < 0)
		return -1;
	return check_complete(t);
}

/* --- close ------------------------------------------------------------------------------- */

/* D_t: every player of the campaign plus the umpire, with its file's hash or zeros. */
static void orders_digest(const struct turn *t, uint8_t digest[FAIR_HASH_BYTES])
{
	size_t n_ids;
	const char **ids = campaign_ids(t->c, &n_ids);
	struct fair_order *fo = xcalloc(n_ids ? n_ids : 1, sizeof(*fo));

	for (size_t i = 0; i < n_ids; i++) {
		const struct order_file *f = turn_find_file(&t->in, ids[i]);
		fo[i].player = ids[i];
		fo[i].has_file = f != NULL;
		if (f)
			memcpy(fo[i].sha256, f->digest_hash, FAIR_HASH_BYTES);
	}
	fair_orders_digest(digest, fo, n_ids);
	free(fo);
	free(ids);
}

/* The close record of the turn's inputs as they are now (files parsed and sorted). */
static void make_close(struct turn *t, struct close_record *r)
{
	const struct campaign *c = t->c;

	memset(r, 0, sizeof(*r));
	r->campaign = xstrdup(c->id);
	r->turn = t->in.turn;
	r->closed_at = t->when;
	r->entropy = c->entropy;
	orders_digest(t, r->digest);
	r->orders = xcalloc(t->in.n_files + 1, sizeof(*r->orders));
	for (size_t i = 0; i < t->in.n_files; i++) {
		const struct order_file *f = &t->in.files[i];
		struct close_order *o = &r->orders[r->n_orders++];
		o->player = xstrdup(f->player);
		memcpy(o->sha256, f->digest_hash, FAIR_HASH_BYTES);
		o->has_entropy = f->has_entropy;
		memcpy(o->entropy, f->entropy, FAIR_HASH_BYTES);
	}
	r->missing = xcalloc(t->in.n_missing + 1, sizeof(char *));
	for (size_t i = 0; i < t->in.n_missing; i++)
		r->missing[r->n_missing++] = xstrdup(t->in.missing[i]);
	if (c->entropy == CAMPAIGN_ENTROPY_BEACON) {
		r->round = t->round_override ? t->round_override : close_named_round(c, t->when);
		r->round_at = close_round_at(c, r->round);
	}
}

/* What differs between two closes of one turn, in words; NULL when they fix the same. */
static char *close_difference(const struct close_record *a, const struct close_record *b)
{
	char ha[65], hb[65];

	for (size_t i = 0; i < a->n_orders; i++) {
		const struct close_order *o = close_find(b, a->orders[i].player);
		hex_encode(ha, a->orders[i].sha256, FAIR_HASH_BYTES);
		if (!o)
			return xasprintf("%s's file (sha256 %s) was not closed",
				a->orders[i].player, ha);
		hex_encode(hb, o->sha256, FAIR_HASH_BYTES);
		if (strcmp(ha, hb) != 0)
			return xasprintf("%s's file has sha256 %s, the close fixed %s",
				a->orders[i].player, ha, hb);
		if (o->has_entropy != a->orders[i].has_entropy ||
			memcmp(o->entropy, a->orders[i].entropy, FAIR_HASH_BYTES) != 0)
			return xasprintf("%s's entropy differs from the close's",
				a->orders[i].player);
	}
	for (size_t i = 0; i < b->n_orders; i++)
		if (!close_find(a, b->orders[i].player))
			return xasprintf("the close fixed a file from %s, which is not given",
				b->orders[i].player);
	if (memcmp(a->digest, b->digest, FAIR_HASH_BYTES) != 0 || a->n_missing != b->n_missing)
		return xasprintf("the players without orders differ from the close's");
	return NULL;
}

/* The close's files, kept in .umpire/closed/turn-NNNN/ for `turn` (which may then be given
 * none), then the close commit on main, tagged close-NNNN. */
static int commit_close(struct turn *t)
{
	struct campaign *c = t->c;
	char tag[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX], what[160];
	struct buf yaml = BUF_INIT, msg = BUF_INIT;
	struct file *files = NULL;
	size_t n_files = 0;
	int rc = 0;

	char *dir = turn_private_dir(c, "closed", t->in.turn);
	for (size_t i = 0; i < t->in.n_files && rc == 0; i++) {
		char *name = xasprintf("%s.yaml", t->in.files[i].player);
		rc = file_write_durable(dir, name, t->in.files[i].bytes, t->in.files[i].len);
		free(name);
	}
	free(dir);
	if (rc < 0)
		return error_prefix("cannot keep the closed files");
	close_render(&yaml, &t->close, c);
	layout_close_path(path, t->in.turn);
	layout_close_tag(tag, t->in.turn);
	file_list_add(&files, &n_files, path, yaml.data, yaml.len);
	close_summary(what, sizeof what, &t->close);
	layout_close_message(&msg, t->in.turn, what, t->close.digest, c->commitment);
	rc = repo_build(c->repo, files, n_files, buf_str(&msg), t->when, t->close_commit);
	if (rc == 0)
		rc = repo_objects_stored(c->repo, t->close_commit, files, n_files);
	if (rc == 0)
		rc = repo_publish(c->repo, files, n_files, t->close_commit, tag);
	file_list_free(files, n_files);
	buf_release(&yaml);
	buf_release(&msg);
	return rc;
}

static int step_close(struct turn *t)
{
	struct close_record now;
	char *diff;

	if (t->c->entropy == CAMPAIGN_ENTROPY_NONE)
		return 0;
	if ((t->flags & TURN_CLOSING) && !t->closed) {
		make_close(t, &t->close);
		if (close_check_entropy(&t->close) < 0)
			return -1;
		if (t->round_override && t->close.round_at <= t->when)
			return error_set(ERROR_INPUT,
				"beacon round %lld is out at %lld, not after the close (%lld): its value may be known already (a later round expected)",
				t->round_override, t->close.round_at, t->when);
		t->closed = 1;
		return commit_close(t);
	}
	make_close(t, &now);
	diff = close_difference(&now, &t->close);
	close_release(&now);
	if (!diff && (t->flags & TURN_CLOSING)) {
		t->status |= TURN_ALREADY_CLOSED;
		return 1;
	}
	if (!diff)
		return 0;
	error_set(ERROR_INPUT,
		"turn %d was closed (tag close-%04d, commit %s) and its inputs cannot change: %s",
		t->in.turn, t->in.turn, t->close_commit, diff);
	free(diff);
	return -1;
}

void turn_receipt(const struct turn *t, const char *player, struct buf *out)
{
	const struct order_file *f = turn_find_file(&t->in, player);

	/* Sealed: the receipt (his alone) carries his salt, so he checks the commitment against
	 * his own file at once (docs/fairness.md, "Sealed turns"). */
	receipt_close(out, &t->close, t->c, player, f ? f->sha256 : NULL,
		f && t->c->visibility == CAMPAIGN_SEALED ? f->salt : NULL, t->close_commit);
}

/* --- randomness -------------------------------------------------------------------------- */

/* entropy beacon: the value of the round the close named, given by the umpire (live) or as
 * journaled (recorded); a live turn cannot take a round not yet out by its own clock. */
static int beacon_randomness(struct turn *t)
{
	char round[32];

	snprintf(round, sizeof round, "%lld", t->close.round);
	if (t->source == TURN_RECORDED) {
		turn_set_beacon(t, t->record->beacon_value, t->record->beacon_round);
		turn_set_beacon_signature(t, t->record->beacon_signature);
	}
	if (!t->in.beacon_value) {
		char at[WHEN_MAX];
		when_describe(at, t->close.round_at, t->when);
		return t->c->beacon_key ?
			       error_set(ERROR_INPUT,
				       "turn %d takes the value of beacon round %s (%s), out at %s: run 'umpire turn %s --beacon-fetch' (or give the value and its signature: --beacon VALUE --beacon-signature SIG)",
				       t->in.turn, round, t->c->beacon, at, t->c->dir) :
			       error_set(ERROR_INPUT,
				       "turn %d takes the value of beacon round %s (%s), out at %s: give its value: --beacon VALUE",
				       t->in.turn, round, t->c->beacon, at);
	}
	if (t->in.beacon_round && strcmp(t->in.beacon_round, round) != 0)
		return error_set(ERROR_INPUT, "turn %d: the close named beacon round %s, not %s",
			t->in.turn, round, t->in.beacon_round);
	if (t->source == TURN_LIVE && t->when < t->close.round_at) {
		char at[WHEN_MAX];
		when_describe(at, t->close.round_at, t->when);
		return error_set(ERROR_INPUT,
			"turn %d: beacon round %s is out at %s: no value of it exists yet; run 'umpire turn %s %s' then",
			t->in.turn, round, at, t->c->dir,
			t->c->beacon_key ? "--beacon-fetch" : "--beacon VALUE");
	}
	/* A recorded turn's round is checked with the rest of its fairness (audit_fairness). */
	if (t->source == TURN_LIVE && beacon_check_round(t->c, t->in.turn, round,
					      t->in.beacon_value, t->in.beacon_signature) < 0)
		return -1;
	turn_set_beacon(t, t->in.beacon_value, round);
	return 0;
}

/* A nonce as `reveal` keeps it: 64 hex digits and a line break. 0, or -1 when not so. */
static int kept_nonce(const struct buf *bytes, uint8_t nonce[FAIR_HASH_BYTES])
{
	char hex[2 * FAIR_HASH_BYTES + 1];

	if (bytes->len != 2 * FAIR_HASH_BYTES + 1 || bytes->data[2 * FAIR_HASH_BYTES] != '\n')
		return -1;
	memcpy(hex, bytes->data, 2 * FAIR_HASH_BYTES);
	hex[2 * FAIR_HASH_BYTES] = '\0';
	return hex_decode(nonce, FAIR_HASH_BYTES, hex);
}

int turn_keep_reveal(const struct campaign *c, int turn, const char *player,
	const uint8_t nonce[FAIR_HASH_BYTES])
{
	char hex[2 * FAIR_HASH_BYTES + 1];
	char *dir = turn_private_dir(c, "reveals", turn);

	hex_encode(hex, nonce, FAIR_HASH_BYTES);
	hex[2 * FAIR_HASH_BYTES] = '\n';
	int rc = file_write_durable(dir, player, hex, sizeof(hex));
	free(dir);
	return rc;
}

size_t turn_reveals_missing(const struct campaign *c, const struct close_record *r, struct buf *who)
{
	char *dir = turn_private_dir(c, "reveals", r->turn);
	struct buf bytes = BUF_INIT;
	size_t n = 0;

	for (size_t i = 0; i < r->n_orders; i++) {
		const struct close_order *o = &r->orders[i];
		if (!o->has_entropy)
			continue;
		char *path = xasprintf("%s/%s", dir, o->player);
		uint8_t nonce[FAIR_HASH_BYTES], h[FAIR_HASH_BYTES];
		int ok = 0;
		buf_clear(&bytes);
		if (file_read(path, 200, &bytes) == 0 && kept_nonce(&bytes, nonce) == 0) {
			fair_sha256(h, nonce, FAIR_HASH_BYTES);
			ok = memcmp(h, o->entropy, FAIR_HASH_BYTES) == 0;
		}
		if (!ok) {
			buf_printf(who, "%s%s", n ? ", " : "", o->player);
			n++;
		}
		free(path);
	}
	error_clear();
	buf_release(&bytes);
	free(dir);
	return n;
}

/* entropy players, live: each committed player's nonce from .umpire/reveals/turn-NNNN/. */
static int read_reveals(struct turn *t, struct close_reveal *rv)
{
	char *dir = turn_private_dir(t->c, "reveals", t->in.turn);
	struct buf missing = BUF_INIT, bytes = BUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < t->close.n_orders; i++) {
		const struct close_order *o = &t->close.orders[i];
		char *path = xasprintf("%s/%s", dir, o->player);
		uint8_t h[FAIR_HASH_BYTES];
		rv[i].player = o->player;
		buf_clear(&bytes);
		if (o->has_entropy && file_read(path, 200, &bytes) == 0 &&
			kept_nonce(&bytes, rv[i].nonce) == 0) {
			fair_sha256(h, rv[i].nonce, FAIR_HASH_BYTES);
			rv[i].revealed = memcmp(h, o->entropy, FAIR_HASH_BYTES) == 0;
		}
		if (o->has_entropy && !rv[i].revealed)
			buf_printf(&missing, "%s%s", missing.len ? ", " : "", o->player);
		free(path);
	}
	if (missing.len && !(t->flags & TURN_ALLOW_MISSING))
		rc = error_set(ERROR_INPUT,
			"turn %d: no reveal from %s (umpire reveal DIR FILE..., or --allow-missing once the deadline is past: each one's committed hash then stands in)",
			t->in.turn, buf_str(&missing));
	buf_release(&missing);
	buf_release(&bytes);
	free(dir);
	return rc;
}

/* entropy players: the reveals text (close_reveals_text) is the beacon value; a player who
 * did not reveal is journaled, his commitment standing in. */
static int players_randomness(struct turn *t)
{
	struct close_reveal *rv = xcalloc(t->close.n_orders + 1, sizeof(*rv));
	int rc;

	if (t->source == TURN_RECORDED) {
		rc = t->record->beacon_value ?
			     close_reveals_parse(&t->close, t->record->beacon_value, rv) :
			     error_set(ERROR_INPUT, "turn %d: %s has no reveals", t->in.turn,
				     t->record_name);
		if (rc < 0)
			error_prefix("turn %d", t->in.turn);
	} else {
		rc = read_reveals(t, rv);
	}
	if (rc == 0) {
		char *text = close_reveals_text(&t->close, rv);
		turn_set_beacon(t, text, "players");
		free(text);
		for (size_t i = 0; i < t->close.n_orders; i++)
			if (t->close.orders[i].has_entropy && !rv[i].revealed)
				events_add(&t->out.events, "randomness",
					"no reveal from %s: the hash his orders committed to stands in for his nonce",
					t->close.orders[i].player);
	}
	free(rv);
	return rc;
}

static int step_randomness(struct turn *t)
{
	int rc = 0;

	if (t->c->entropy == CAMPAIGN_ENTROPY_BEACON)
		rc = beacon_randomness(t);
	else if (t->c->entropy == CAMPAIGN_ENTROPY_PLAYERS)
		rc = players_randomness(t);
	else if (t->source == TURN_RECORDED)
		turn_set_beacon(t, t->record->beacon_value, t->record->beacon_round);
	if (rc == 0)
		turn_beacon(t->out.beacon, t->in.beacon_value);
	return rc;
}

/* --- seed -------------------------------------------------------------------------------- */

/* k_t: from the umpire's secret, checked against the commitment (live); from the record. */
static int turn_key(struct turn *t, uint8_t key[FAIR_HASH_BYTES])
{
	struct campaign *c = t->c;
	uint8_t secret[FAIR_HASH_BYTES];

	if (t->source == TURN_RECORDED) {
		memcpy(key, t->record->key, FAIR_HASH_BYTES);
		return 0;
	}
	/* Locked in memory (never swapped out) and wiped as soon as the key is derived. */
	fair_secret_lock(secret, sizeof secret);
	int rc = campaign_read_secret(c, secret);
	if (rc == 0)
		fair_turn_key(key, secret, c->chain_length, (uint32_t)t->in.turn);
	fair_secret_unlock(secret, sizeof secret);
	if (rc < 0)
		return -1;
	if (!fair_key_check(key, (uint32_t)t->in.turn, c->commitment))
		return error_set(ERROR_INPUT,
			".umpire/secret does not match the campaign's commitment (wrong secret file?)");
	return 0;
}

static int step_seed(struct turn *t)
{
	struct turn_output *out = &t->out;

	if (turn_key(t, out->key) < 0)
		return -1;
	orders_digest(t, out->digest);
	fair_turn_seed(out->seed, out->key, (uint32_t)t->in.turn, out->digest, out->beacon);
	dice_release(&out->dice);
	dice_init_fair(&out->dice, out->seed);
	if (t->source == TURN_RECORDED && (t->flags & TURN_DICE_CHECKED) &&
		memcmp(out->seed, t->record->seed, FAIR_HASH_BYTES) == 0)
		dice_reuse_checked(&out->dice, t->record->dice, t->record->n_dice);
	/* Every event records how many dice had been drawn: what ties a die to its event. */
	out->events.dice = &out->dice;
	out->events.sealed = t->c->visibility == CAMPAIGN_SEALED;
	return 0;
}

/* --- rulings and resolve ----------------------------------------------------------------- */

/* The umpire's adjustments, in file order, after the rulings' dice (they draw none) and before
 * the rule system's turn: the model as the umpire found the table. Each is journaled as an
 * event of phase "adjustments" with its reason. */
static int apply_adjustments(struct turn *t, const struct order_file *uf)
{
	const struct campaign *c = t->c;
	struct buf what = BUF_INIT;
	int rc = 0;

	for (size_t i = 0; uf && i < uf->n_adjustments && rc == 0; i++) {
		const struct adjustment *a = &uf->adjustments[i];
		buf_release(&what);
		if (c->rules->adjust_apply(&c->rc, t->state, a, &what) < 0)
			rc = error_set(ERROR_INTERNAL,
				"internal error: rule system '%s' failed on adjustment %zu of turn %d",
				c->rules->name, a->index, t->in.turn);
		else
			events_add(&t->out.events, "adjustments",
				"umpire adjustment %zu: %s (reason: %s)", a->index, buf_str(&what),
				a->reason);
	}
	buf_release(&what);
	return rc;
}

/* Umpire rulings come first: they are facts of the turn the rules then play out in. */
static int step_rulings(struct turn *t)
{
	const struct order_file *uf = turn_find_file(&t->in, UMPIRE_PLAYER);

	if (render_keep_before(t) < 0)
		return -1;
	for (size_t i = 0; uf && i < uf->n_rulings; i++) {
		const struct ruling *r = &uf->rulings[i];
		char *purpose = xasprintf("umpire ruling %zu: %s", i + 1, r->what);
		long long total = dice_expr_roll(&t->out.dice, &r->expr, purpose);
		events_add(&t->out.events, "umpire", "%s: %s = %lld", r->what, r->notation, total);
		free(purpose);
	}
	return apply_adjustments(t, uf);
}

int turn_is_missing(const struct turn_input *in, const char *player)
{
	for (size_t i = 0; i < in->n_missing; i++)
		if (strcmp(in->missing[i], player) == 0)
			return 1;
	return 0;
}

/* The rule system gets one entry per due player, in player-id order. */
static int step_resolve(struct turn *t)
{
	struct campaign *c = t->c;
	size_t n_ids, n_ro = 0;
	const char **ids = campaign_ids(c, &n_ids);
	struct rules_orders *ro = xcalloc(n_ids, sizeof(*ro));
	struct rules_turn rt;
	int rc = 0;

	memset(&rt, 0, sizeof(rt));
	for (size_t i = 0; i < n_ids; i++) {
		const struct order_file *f = turn_find_file(&t->in, ids[i]);
		int missing = turn_is_missing(&t->in, ids[i]);
		if (strcmp(ids[i], UMPIRE_PLAYER) == 0 || (!f && !missing))
			continue;
		ro[n_ro].player = ids[i];
		ro[n_ro].orders = f ? f->orders : NULL;
		n_ro++;
		if (missing)
			events_add(&t->out.events, "orders", "no orders from %s", ids[i]);
	}
	rt.turn = t->in.turn;
	rt.orders = ro;
	rt.n_orders = n_ro;
	rt.dice = &t->out.dice;
	rt.events = &t->out.events;
	t->out.rules_first_die = dice_count(&t->out.dice);
	t->out.rules_first_event = t->out.events.n;
	if (c->rules->resolve(&c->rc, t->state, &rt) < 0)
		rc = error_set(ERROR_INTERNAL,
			"internal error: rule system '%s' failed on turn %d%s%s", c->rules->name,
			t->in.turn, rt.why.len ? ": " : "", buf_str(&rt.why));
	else if (rt.summary.len)
		t->out.summary = xstrdup(buf_str(&rt.summary));
	else
		t->out.summary = xasprintf("%zu dice, %zu events", t->out.dice.n, t->out.events.n);
	for (char *p = t->out.summary; p && *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	buf_release(&rt.summary);
	buf_release(&rt.why);
	free(ro);
	free(ids);
	return rc;
}

/* --- render ------------------------------------------------------------------------------ */

/* Sealed: each player's view of the state, and the salted commitments to it and to his
 * report that the export publishes (salts from seal_files). */
static int render_views(struct turn *t)
{
	struct turn_output *out = &t->out;

	for (size_t k = 0; k < t->c->n_players; k++) {
		struct turn_view *v = &views_of(t)[k];
		buf_clear(&v->state);
		if (campaign_emit_state(t->c, t->in.turn, t->state, t->c->players[k], &v->state) <
			0)
			return error_set(ERROR_INTERNAL,
				"internal error: cannot emit %s's view of the state after turn %d",
				t->c->players[k], t->in.turn);
		assert(v->salted);
		fair_sealed_hash(v->report_sha256, v->report_salt, out->reports[k].data,
			out->reports[k].len);
		fair_sealed_hash(v->state_sha256, v->state_salt, v->state.data, v->state.len);
	}
	return 0;
}

static int step_render(struct turn *t)
{
	struct campaign *c = t->c;
	struct turn_output *out = &t->out;

	if (campaign_emit_committed_state(c, t->in.turn, t->state, &out->state_yaml) < 0)
		return error_set(ERROR_INTERNAL,
			"internal error: cannot emit the state after turn %d", t->in.turn);
	fair_sha256(out->state_sha256, out->state_yaml.data, out->state_yaml.len);
	out->reports = xcalloc(c->n_players ? c->n_players : 1, sizeof(struct buf));
	out->n_reports = c->n_players;
	struct buf common = BUF_INIT;
	render_report_common(&common, t);
	for (size_t i = 0; i < c->n_players; i++)
		render_report_from(&out->reports[i], t, c->players[i], &common);
	if (c->visibility == CAMPAIGN_SEALED)
		render_report_from(&out->public_report, t, NULL, &common);
	buf_release(&common);
	if (render_maps(t) < 0)
		return -1;
	if (c->visibility == CAMPAIGN_SEALED && render_views(t) < 0)
		return -1;
	/* Last: a sealed export commits to each player's report and view. */
	if (render_export(&out->journal_yaml, t) < 0)
		return error_set(ERROR_INTERNAL,
			"internal error: cannot emit the journal export of turn %d", t->in.turn);
	return 0;
}

/* --- reread ----------------------------------------------------------------------------- */

/* One due player's orders for turn `next` through the rule system, as the next turn takes
 * them: none sent (the standing orders the state carries stand), and the template his report
 * gives him sent back as it stands (its `standing:` is the carried orders written out). */
static void reread_orders(const struct campaign *c, const void *state, int next, const char *player,
	struct diag *d)
{
	const struct rule_system *rs = c->rules;
	struct node_limits lim = { .max_bytes = STATE_MAX_BYTES,
		.max_nodes = STATE_MAX_NODES,
		.max_depth = 32 };
	struct node *none = node_new_seq(), *root = NULL;
	struct buf text = BUF_INIT;
	void *o = NULL;

	int rc = rs->orders_parse(&o, &c->rc, state, next, player, none, NULL, d);
	if (rc == 0 && o)
		rs->orders_free(o);
	o = NULL;
	if (rc == 0 && rs->orders_template) {
		rs->orders_template(&c->rc, state, next, player, &text);
		const struct node *orders = NULL;
		if (node_parse(&root, "the next turn's order template", text.data, text.len, &lim,
			    d) == 0 &&
			(orders = node_need(root, "orders", d)) &&
			node_check_seq(orders, "orders", TURN_MAX_ORDERS, d) == 0 &&
			rs->orders_parse(&o, &c->rc, state, next, player, orders,
				node_get(root, "standing"), d) == 0 &&
			o)
			rs->orders_free(o);
	}
	node_free(root);
	node_free(none);
	buf_release(&text);
}

/* The project's rule (issue 26): no ruling, adjustment or resolution leaves a committed state
 * the next turn refuses. Before anything is written, the state.yaml bytes just rendered (and,
 * sealed, the whole state the umpire keeps) go back through step_load's parser, and each
 * player due next through orders_parse; a refusal is the rule system's bug, exit 70. */
static int step_reread(struct turn *t)
{
	struct campaign *c = t->c;
	const int last = t->in.turn, next = last + 1;
	struct buf whole = BUF_INIT, text = BUF_INIT;
	void *pub = NULL, *state = NULL;
	struct diag d;
	const char *why = NULL;
	int n = -1, m = -1, rc;

	diag_init(&d);
	rc = campaign_parse_state(c, "state.yaml, as rendered", &t->out.state_yaml, &n, &pub);
	if (rc == 0 && c->visibility == CAMPAIGN_SEALED) {
		/* load_sealed_state reads at most 64 MB of it. */
		if (campaign_emit_whole_state(c, last, t->state, &whole) < 0 ||
			whole.len > 64 * 1024 * 1024)
			rc = error_set(ERROR_INTERNAL,
				"the whole state cannot be emitted (%zu bytes)", whole.len);
		else
			rc = campaign_parse_state(c, "the whole state, as the umpire keeps it",
				&whole, &m, &state);
		if (rc == 0 && m != last)
			rc = error_set(ERROR_INTERNAL, "the whole state says turn %d", m);
	} else if (rc == 0) {
		state = pub;
		pub = NULL;
	}
	if (rc == 0 && n != last)
		rc = error_set(ERROR_INTERNAL, "state.yaml says turn %d", n);
	if (rc == 0 && !(c->rules->game_over && c->rules->game_over(&c->rc, state, next, &why))) {
		for (size_t i = 0; i < c->n_players && rc == 0; i++) {
			if (!c->rules->player_due(&c->rc, state, next, c->players[i]))
				continue;
			reread_orders(c, state, next, c->players[i], &d);
			if (diag_count(&d) == 0)
				continue;
			diag_format(&d, &text, 0);
			while (text.len > 0 && text.data[text.len - 1] == '\n')
				text.data[--text.len] = '\0';
			rc = error_set(ERROR_INTERNAL,
				"turn %d's orders of '%s' would be refused:\n%s", next,
				c->players[i], buf_str(&text));
		}
	}
	if (rc < 0)
		rc = error_set(ERROR_INTERNAL,
			"internal error: rule system '%s' (revision %d) left a state after turn %d "
			"that the next turn would refuse; nothing written: %s",
			c->rules->name, c->rules->revision, last, error_last()->message);
	if (pub)
		c->rules->state_free(pub);
	if (state)
		c->rules->state_free(state);
	diag_release(&d);
	buf_release(&whole);
	buf_release(&text);
	return rc;
}

/* --- seal ------------------------------------------------------------------------------- */

/* dir/name durably, dir made first (file_write_durable makes only the last level); what names
 * the durable point (the crash-point test's). */
static int write_private(const char *what, const char *dir, const char *name, const void *data,
	size_t len)
{
	if (file_mkdir_p(dir, 0700) < 0 || file_write_durable(dir, name, data, len) < 0)
		return error_prefix("cannot write %s/%s", dir, name);
	durable_point(what);
	return 0;
}

/* A file of the turn's private directories that this run does not write (a run that crashed
 * before the journal was given other files), removed: nothing stale reaches a player or the
 * reveal. */
static int remove_private(const char *what, const char *dir, const char *name)
{
	int rc = file_remove_durable(dir, name);
	if (rc < 0)
		return error_prefix("cannot remove a stale file");
	if (rc > 0)
		durable_point(what);
	return 0;
}

/* .umpire/sealed/turn-NNNN/orders/: every PLAYER.yaml not among this run's files removed. */
static int remove_stale_orders(struct turn *t, const char *odir)
{
	DIR *d = file_opendir(odir);
	char **stale = NULL;
	size_t n = 0;
	int rc = 0;

	if (!d)
		return errno == ENOENT ? 0 : -1; /* none yet, or a link */
	for (struct dirent *e; (e = readdir(d)) && n < CAMPAIGN_MAX_PLAYERS + 1;) {
		char *player = e->d_name[0] == '.' ? NULL : layout_order_player(e->d_name);
		if (player && !turn_find_file(&t->in, player)) {
			stale = xrealloc(stale, (n + 1) * sizeof(*stale));
			stale[n++] = xstrdup(e->d_name);
		}
		free(player);
	}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		if (rc == 0)
			rc = remove_private("seal: stale file removed", odir, stale[i]);
		free(stale[i]);
	}
	free(stale);
	return rc;
}

/* .umpire/outbox/PLAYER/turn-NNNN/: his report, his view of the state, his salt. */
static int write_outbox(struct turn *t, size_t k)
{
	const char *p = t->c->players[k];
	char *dir = xasprintf("%s/.umpire/outbox/%s/" LAYOUT_TAG_PREFIX "%04d", t->c->dir, p,
		t->in.turn);
	const struct buf *view = &t->out.views[k].state;
	struct buf salt = BUF_INIT;

	render_salts(&salt, t, p);
	int rc = write_private("seal: outbox report", dir, "report.md", t->out.reports[k].data,
		t->out.reports[k].len);
	if (rc == 0)
		rc = write_private("seal: outbox view", dir, LAYOUT_STATE, view->data, view->len);
	if (rc == 0)
		rc = write_private("seal: outbox salt", dir, "salt.yaml", salt.data, salt.len);
	if (rc == 0 && t->out.maps)
		rc = write_private("seal: outbox map", dir, LAYOUT_OUTBOX_MAP, t->out.maps[k].data,
			t->out.maps[k].len);
	/* His own file back, so his outbox alone checks against the clone (verify --view). */
	const struct order_file *f = turn_find_file(&t->in, p);
	if (rc == 0 && f)
		rc = write_private("seal: outbox orders", dir, "orders.yaml", f->bytes, f->len);
	else if (rc == 0)
		rc = remove_private("seal: stale file removed", dir, "orders.yaml");
	buf_release(&salt);
	free(dir);
	return rc;
}

/* Sealed: what the commit withholds, kept where the next turn and the reveal find it
 * (.umpire/sealed/turn-NNNN/: state.yaml whole, salts.yaml, orders/PLAYER.yaml) and what each
 * player is sent. Written before the journal: a journaled turn always has them, and a turn
 * re-run after a crash writes the same bytes again. */
static int step_seal(struct turn *t)
{
	char *dir = turn_private_dir(t->c, "sealed", t->in.turn);
	char *odir = xasprintf("%s/orders", dir);
	struct buf whole = BUF_INIT, salts = BUF_INIT;
	int rc = 0;

	if (t->c->visibility != CAMPAIGN_SEALED)
		goto done;
	rc = campaign_emit_whole_state(t->c, t->in.turn, t->state, &whole);
	render_salts(&salts, t, NULL);
	rc = rc == 0 ? remove_stale_orders(t, odir) : rc;
	for (size_t i = 0; rc == 0 && i < t->in.n_files; i++) {
		char *name = xasprintf("%s.yaml", t->in.files[i].player);
		rc = write_private("seal: withheld order file", odir, name, t->in.files[i].bytes,
			t->in.files[i].len);
		free(name);
	}
	if (rc == 0)
		rc = write_private("seal: salts", dir, "salts.yaml", salts.data, salts.len);
	if (rc == 0)
		rc = write_private("seal: whole state", dir, LAYOUT_STATE, whole.data, whole.len);
	for (size_t k = 0; rc == 0 && k < t->c->n_players; k++)
		rc = write_outbox(t, k);
done:
	buf_release(&whole);
	buf_release(&salts);
	free(odir);
	free(dir);
	return rc;
}

/* --- build, journal, publish ------------------------------------------------------------- */

size_t turn_files(const struct turn *t, struct file **out)
{
	const struct turn_input *in = &t->in;
	const struct turn_output *out_ = &t->out;
	const char **senders = xcalloc(in->n_files + 1, sizeof(char *));
	struct layout_entry *paths = NULL;
	size_t n_files = 0;

	for (size_t i = 0; i < in->n_files; i++)
		senders[i] = in->files[i].player;
	int maps = out_->maps != NULL;
	size_t n = t->c->visibility == CAMPAIGN_SEALED ?
			   layout_sealed_turn_files(&paths, in->turn, maps) :
			   layout_turn_files(&paths, in->turn, senders, in->n_files,
				   (const char *const *)t->c->players, t->c->n_players, maps);
	*out = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct buf *b = NULL;
		const struct order_file *f = NULL;
		switch (paths[i].kind) {
		case LAYOUT_KIND_STATE:
			b = &out_->state_yaml;
			break;
		case LAYOUT_KIND_EXPORT:
			b = &out_->journal_yaml;
			break;
		case LAYOUT_KIND_ORDERS:
			f = turn_find_file(in, paths[i].player);
			break;
		case LAYOUT_KIND_PUBLIC_REPORT:
			b = &out_->public_report;
			break;
		case LAYOUT_KIND_REPORT:
		case LAYOUT_KIND_MAP:
			for (size_t k = 0; k < t->c->n_players; k++)
				if (strcmp(t->c->players[k], paths[i].player) == 0)
					b = paths[i].kind == LAYOUT_KIND_MAP ? &out_->maps[k] :
									       &out_->reports[k];
			break;
		case LAYOUT_KIND_PUBLIC_MAP:
			b = &out_->public_map;
			break;
		}
		file_list_add(out, &n_files, paths[i].path, b ? (const void *)b->data : f->bytes,
			b ? b->len : f->len);
	}
	free(paths);
	free(senders);
	return n_files;
}

/* The record the journal appends: every input, die, event and committed file of the turn. */
static void make_record(struct turn *t)
{
	const struct turn_input *in = &t->in;
	const struct turn_output *out = &t->out;
	struct journal_record *r = &t->rec;

	r->turn = in->turn;
	memcpy(r->key, out->key, FAIR_HASH_BYTES);
	memcpy(r->orders_digest, out->digest, FAIR_HASH_BYTES);
	memcpy(r->beacon, out->beacon, FAIR_HASH_BYTES);
	memcpy(r->seed, out->seed, FAIR_HASH_BYTES);
	memcpy(r->state_sha256, out->state_sha256, FAIR_HASH_BYTES);
	r->summary = out->summary;
	r->processed_at = t->when;
	r->beacon_value = in->beacon_value;
	r->beacon_round = in->beacon_round;
	r->beacon_signature = in->beacon_signature;
	r->orders = xcalloc(in->n_files + in->n_missing + 1, sizeof(*r->orders));
	for (size_t i = 0; i < in->n_files; i++) {
		struct journal_order *o = &r->orders[r->n_orders++];
		o->player = in->files[i].player;
		o->has_file = 1;
		memcpy(o->sha256, in->files[i].digest_hash, FAIR_HASH_BYTES);
		o->bytes = in->files[i].bytes;
		o->len = in->files[i].len;
	}
	for (size_t i = 0; i < in->n_missing; i++)
		r->orders[r->n_orders++].player = in->missing[i];
	r->dice = out->dice.v;
	r->n_dice = out->dice.n;
	r->events = xcalloc(out->events.n + 1, sizeof(*r->events));
	memcpy(r->events, out->events.v, out->events.n * sizeof(*r->events));
	r->n_events = out->events.n;
	r->n_files = turn_files(t, &r->files);
}

/* The journal hash chain: head_t = SHA256(head_(t-1) || entry bytes), head_(-1) = zeros;
 * then the git objects (unreachable until main moves), so the journal can hold the id of
 * the commit the turn must become. */
static int build_commit(struct campaign *c, struct journal_record *r)
{
	uint8_t prev[FAIR_HASH_BYTES] = { 0 };
	char entry[LAYOUT_PATH_MAX];
	struct buf msg = BUF_INIT;

	if (r->turn > 0 && journal_head(c->journal, r->turn - 1, prev) < 0)
		return error_prefix("cannot read the journal head of turn %d", r->turn - 1);
	layout_entry_path(entry, r->turn);
	const struct file *ef = file_list_find(r->files, r->n_files, entry);
	if (!ef)
		return error_set(ERROR_INTERNAL, "internal error: turn %d has no %s", r->turn,
			entry);
	turn_chain_head(r->journal_head, prev, ef->data, ef->len);
	record_message(&msg, c, r);
	int rc = repo_build(c->repo, r->files, r->n_files, buf_str(&msg), r->processed_at,
		r->commit_id);
	buf_release(&msg);
	return rc;
}

/* The setup (turn 0) comes with its record made by turn_commit_setup. */
static int step_build(struct turn *t)
{
	if (t->in.turn > 0)
		make_record(t);
	return build_commit(t->c, &t->rec);
}

static int step_journal(struct turn *t)
{
	/* Every object on disk before the journal names the commit. */
	if (repo_objects_stored(t->c->repo, t->rec.commit_id, t->rec.files, t->rec.n_files) < 0)
		return -1;
	return journal_append(t->c->journal, &t->rec);
}

static int publish_record(struct campaign *c, const struct journal_record *r)
{
	char tag[LAYOUT_TAG_MAX];

	layout_tag(tag, r->turn);
	if (repo_publish(c->repo, r->files, r->n_files, r->commit_id, tag) < 0)
		return error_set(error_last()->klass,
			"%s\nturn %d is in the journal but not yet in git; the next run will finish it",
			error_last()->message, r->turn);
	/* Every TURN_PACK_EVERY turns the loose objects of the turns since go into one pack:
	 * .git grows with the content, not with every turn's rewritten trees. The turn is
	 * published whatever happens here; a failed pack leaves the objects loose (and valid),
	 * and the next one packs them. */
	if (r->turn % TURN_PACK_EVERY == 0)
		(void)repo_pack_loose(c->repo, 1);
	return 0;
}

static int step_publish(struct turn *t)
{
	return publish_record(t->c, &t->rec);
}

int turn_commit_setup(struct campaign *c, const struct file *files, size_t n_files,
	const uint8_t state_sha256[FAIR_HASH_BYTES], long long when)
{
	struct turn t;
	int rc;

	turn_init(&t, c, TURN_LIVE, 0, NULL, NULL, NULL);
	t.rec.summary = "Setup";
	t.rec.processed_at = when;
	memcpy(t.rec.state_sha256, state_sha256, FAIR_HASH_BYTES);
	for (size_t i = 0; i < n_files; i++)
		file_list_add(&t.rec.files, &t.rec.n_files, files[i].path, files[i].data,
			files[i].len);
	file_list_sort(t.rec.files, t.rec.n_files);
	rc = turn_run(&t, "build", "publish");
	turn_release(&t);
	return rc;
}
