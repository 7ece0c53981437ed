/* turn_recover.c — the steps before the orders: `recover` (finish a turn a crash left half-done,
 * the journal checked against git, a re-run of the last turn noticed), `load` (the state at
 * HEAD) and `closed` (what a turn's close fixed and the files it kept). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/turn_int.h"
#include "core/end.h"
#include "core/audit.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/banned.h"

/* --- recover ----------------------------------------------------------------------------- */

/* The commit message of a journaled turn, exactly as it was first built. */
void turn_record_message(struct buf *msg, const struct campaign *c, const struct journal_record *r)
{
	layout_commit_message(msg, r->turn, r->summary, r->journal_head, c->commitment);
}

/* The files of journaled turn r as its commit holds them, each blob's SHA256 the files
 * row's, into *files (file_list_free). 0, or -1 (ERROR_INPUT naming the file). */
static int read_turn_files(struct turn *t, const struct journal_record *r, struct file **files,
	size_t *n)
{
	struct buf bytes = BUF_INIT;
	uint8_t h[FAIR_HASH_BYTES];
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < r->n_files; i++) {
		const char *path = r->files[i].path;
		rc = repo_read(t->c->repo, r->commit_id, path, &bytes) < 0 ? -1 : 0;
		if (rc == 0) {
			fair_sha256(h, bytes.data ? bytes.data : "", bytes.len);
			if (memcmp(h, r->file_sha256[i], FAIR_HASH_BYTES) != 0)
				rc = error_set(ERROR_INPUT,
					"%s in commit %s differs from the journal's files row",
					path, r->commit_id);
		} else {
			error_prefix("%s in commit %s", path, r->commit_id);
		}
		if (rc == 0)
			file_list_add(files, n, path, bytes.data, bytes.len);
	}
	buf_release(&bytes);
	return rc;
}

/* The journal holds turn r, which git has not finished. Its commit's objects were stored
 * before the journal named it (step_journal: repo_objects_stored), so the journal keeps only
 * the files' hashes (issue 38): the commit is read back from the object store, its parent
 * must be main, each file's blob must hash to its files row; then it is published. */
static int finish_turn(struct turn *t, const struct journal_record *r, const char *main_id)
{
	char tag[LAYOUT_TAG_MAX], rev[64], parent[41];
	struct file *files = NULL;
	size_t n_files = 0;
	int rc = -1;

	layout_tag(tag, r->turn);
	if (!r->commit_id[0] || !repo_has(t->c->repo, r->commit_id)) {
		error_set(ERROR_INTERNAL,
			"cannot finish turn %d: its commit %s is not in the object store (restore .git from a backup)",
			r->turn, r->commit_id[0] ? r->commit_id : "(none)");
		goto done;
	}
	snprintf(rev, sizeof rev, "%s^1", r->commit_id);
	if (repo_commit_id(t->c->repo, rev, parent) != 0)
		parent[0] = '\0'; /* the setup's commit has none */
	error_clear();
	if (strcmp(main_id, r->commit_id) != 0 && strcmp(main_id, parent) != 0) {
		error_set(ERROR_INTERNAL,
			"cannot finish turn %d: main is at %s, which is not the parent of the journaled commit %s (the branch was moved; reset it to " LAYOUT_TAG_PREFIX
			"%04d)",
			r->turn, main_id[0] ? main_id : "nothing", r->commit_id, r->turn - 1);
		goto done;
	}
	if (read_turn_files(t, r, &files, &n_files) < 0 ||
		repo_publish(t->c->repo, files, n_files, r->commit_id, tag) < 0) {
		error_prefix("cannot finish turn %d", r->turn);
		goto done;
	}
	t->status |= TURN_RECOVERED;
	t->recovered = r->turn;
	rc = 0;
done:
	file_list_free(files, n_files);
	return rc;
}

/* main one commit past the journal's last turn r: the close of the next turn. Tagged: all
 * is well. Untagged (a crash between moving main and tagging): tag it now. Returns 0, 1
 * when main is not such a close, -1 on failure. */
static int recover_close(struct turn *t, const struct journal_record *r, const char *main_id)
{
	char rev[64], parent[41], tag[LAYOUT_TAG_MAX], tagged[41], path[LAYOUT_PATH_MAX];
	struct buf subject = BUF_INIT, bytes = BUF_INIT;
	char *want = xasprintf("Turn %d: " LAYOUT_CLOSE_SUBJECT, r->turn + 1);
	struct file *files = NULL;
	size_t n_files = 0;
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
	file_list_add(&files, &n_files, path, bytes.data, bytes.len);
	/* The time stamps committed with it (docs/fairness.md, "Time stamps"). */
	for (size_t i = 0; i < t->c->n_timestamps; i++) {
		layout_close_token_path(path, r->turn + 1, t->c->timestamps[i].name);
		buf_clear(&bytes);
		int got = repo_read(t->c->repo, main_id, path, &bytes);
		if (got == 0)
			file_list_add(&files, &n_files, path, bytes.data, bytes.len);
		else if (got != ERROR_NOTFOUND) {
			rc = -1;
			goto done;
		}
	}
	rc = repo_publish(t->c->repo, files, n_files, main_id, tag) < 0 ? -1 : 0;
done:
	file_list_free(files, n_files);
	free(want);
	buf_release(&subject);
	buf_release(&bytes);
	return rc;
}

/* The journal's last turn r against what git holds at its tag: its rows against the
 * committed export (audit_journal_export), its files rows' hashes against the committed blobs, one
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
		/* The layout the journal names: a shared report row, his own map's rows. */
		char path[LAYOUT_PATH_MAX];
		unsigned char *own = xcalloc(c->n_players ? c->n_players : 1, 1);
		struct layout_reports rep = { c->rules->draw_map != NULL, 0, own };
		layout_public_report_path(path, r->turn);
		rep.shared = file_list_find(r->files, r->n_files, path) != NULL;
		for (size_t i = 0; i < c->n_players; i++) {
			layout_map_path(path, r->turn, c->players[i]);
			own[i] = file_list_find(r->files, r->n_files, path) != NULL;
		}
		n = layout_open_turn_files(&paths, r->turn, senders, n_senders,
			(const char *const *)c->players, c->n_players, &rep);
		free(own);
		free(senders);
	}
	for (size_t i = 0; i < n; i++) {
		const struct file *f = file_list_find(r->files, r->n_files, paths[i].path);
		uint8_t h[FAIR_HASH_BYTES];
		int same = f && repo_read(c->repo, tag, f->path, &got) == 0;
		if (same) {
			fair_sha256(h, got.data ? got.data : "", got.len);
			same = memcmp(h, r->file_sha256[f - r->files], FAIR_HASH_BYTES) == 0;
		}
		if (!same) {
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

int step_recover(struct turn *t)
{
	/* umpire run opens the campaign with this check left until something is written */
	if (campaign_check_sound(t->c) < 0)
		return -1;
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

int step_load(struct turn *t)
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
	struct buf ended = BUF_INIT;
	if (end_of_turn(c, last, &ended, NULL, NULL)) {
		error_set(ERROR_INPUT, "the game is over (%s): there is no turn %d",
			buf_str(&ended), t->in.turn);
		buf_release(&ended);
		return -1;
	}
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

int step_closed(struct turn *t)
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
