/* verify_sealed.c — `umpire verify`'s closed and sealed turns: each close commit (tag
 * close-N, its beacon round and lateness), a sealed turn's commit and public files, and the
 * reveal commit that opens the sealed states and views. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/audit.h"
#include "core/close.h"
#include "core/fair.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/timelock.h"
#include "core/schedule.h"
#include "core/turn.h"
#include "cmd/verify.h"
#include "core/banned.h"

/* entropy beacon: the round the close named is the campaign beacon's (round_at = genesis +
 * (round - 1) * period), out strictly after the close, and exactly the one
 * close_named_round gives: its value cannot have been known at the close, and no later round
 * leaves time to see one outcome and close again. */
static int check_close_round(const struct verify *v, int t, const char *path,
	const struct close_record *r)
{
	long long want = close_round_at(v->c, r->round);
	long long first = close_named_round(v->c, r->closed_at);

	if (r->round_at != want)
		return error_set(ERROR_INPUT,
			"turn %d: %s: beacon round %lld is out at %lld (genesis %lld, period %lld), not at %lld",
			t, path, r->round, want, v->c->beacon_genesis, v->c->beacon_period,
			r->round_at);
	if (r->round_at <= r->closed_at)
		return error_set(ERROR_INPUT,
			"turn %d: %s: beacon round %lld is out at %lld, not after the close (%lld): its value may have been known at the close (round %lld, the first out %lld seconds and more after it, expected)",
			t, path, r->round, r->round_at, r->closed_at, first, v->c->beacon_delay);
	/* Time-locked orders: the round the files were locked to, R(t), never an earlier one
	 * than a close at closed_at could name (docs/fairness.md, "Time-locked orders"). */
	long long locked = v->c->orders_timelocked ? campaign_turn_round(v->c, t) : 0;
	if (locked && (r->round != locked || r->round < first))
		return error_set(ERROR_INPUT,
			"turn %d: %s: beacon round %lld, but turn %d's orders are time-locked to round %lld, which a close at %lld %s",
			t, path, r->round, t, locked, r->closed_at,
			locked < first ? "cannot name (it is out too soon after)" : "must name");
	if (!locked && r->round != first)
		return error_set(ERROR_INPUT,
			"turn %d: %s: beacon round %lld, but a close at %lld names round %lld, the first out %lld s after it (a later round leaves time to close again)",
			t, path, r->round, r->closed_at, first, v->c->beacon_delay);
	return 0;
}

/* A close later than its deadline plus grace plus this is flagged (docs/fairness.md, "Closed
 * turns"): `umpire run` from cron closes at its first pass after them. */
#define CLOSE_LATE_SLACK 3600

/* Under a schedule whose missing is no-orders, turn t's close came no later than its
 * deadline plus grace plus CLOSE_LATE_SLACK: a later one was made by hand, or redone. */
static int check_close_late(const struct verify *v, int t, const struct close_record *r)
{
	const struct pbem_schedule *s = &v->c->pbem.schedule;
	char at[32], dl[32];

	if (!s->set || s->missing != PBEM_MISSING_NO_ORDERS)
		return 0;
	long long deadline = pbem_deadline(&v->c->pbem, t);
	if (r->closed_at <= deadline + s->grace + CLOSE_LATE_SLACK)
		return 0;
	pbem_format_utc(at, sizeof at, r->closed_at);
	pbem_format_utc(dl, sizeof dl, deadline);
	return error_set(ERROR_INPUT,
		"turn %d: closed at %s, more than %d s after its deadline %s plus grace %lld s: umpire run closes a turn at its first pass after them, so this close was made late by hand, or redone (a re-close, the first one's receipts held back)",
		t, at, CLOSE_LATE_SLACK, dl, s->grace);
}

/* The overrides turn t's close carries (core/schedule.h): made while the turn was open,
 * none moving a deadline that had passed when it was made (docs/fairness.md, "Schedule
 * changes"). */
static int check_close_overrides(struct verify *v, int t, const struct close_record *r)
{
	struct close_record prev;
	long long prev_at = -1;
	char id[41];

	if (!r->n_overrides)
		return 0;
	if (t > 1 && turn_read_close(v->c, t - 1, &prev, id, NULL) == 0) {
		prev_at = prev.closed_at;
		close_release(&prev);
	}
	error_clear();
	return schedule_check_close(v->c, t, prev_at, r->closed_at);
}

/* Turn t's close: tag close-t is main's commit just before the turn's, a commit of exactly
 * the close file in its canonical form on the turn before, with the message its content
 * gives; the file is unchanged at main. What it fixed against the turn itself (digest,
 * hashes, round, reveals) is checked by the pipeline's closed, close and randomness steps
 * when audit_resolve re-runs the turn. */
int check_close(struct verify *v, int t, struct close_record *keep)
{
	char tag[LAYOUT_TAG_MAX], prev[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX], id[41];
	char rebuilt[41], what[160];
	struct buf msg = BUF_INIT, bytes = BUF_INIT, canon = BUF_INIT;
	struct close_record r;
	struct file *files = NULL;
	size_t n_files = 0;
	size_t at = 2 * (size_t)t - 1;
	long long when;
	int rc;

	layout_close_tag(tag, t);
	layout_tag(prev, t - 1);
	layout_close_path(path, t);
	rc = turn_read_close(v->c, t, &r, id, &bytes);
	if (rc == ERROR_NOTFOUND)
		return error_set(ERROR_INPUT,
			"turn %d: there is no tag %s: a campaign with entropy %s closes every turn before its randomness",
			t, tag, campaign_entropy_names[v->c->entropy]);
	if (rc < 0)
		return error_set(ERROR_INPUT, "%s", error_last()->message);
	rc = -1;
	if (at >= v->n_chain || strcmp(id, v->chain[at]) != 0) {
		error_set(ERROR_INPUT,
			"turn %d: tag %s is commit %s, but main's %zu%s commit after Setup is %s: the history was rewritten or the tag moved",
			t, tag, id, at, ordinal(at),
			at < v->n_chain ? v->chain[at] : "beyond its end");
		goto done;
	}
	close_render(&canon, &r, v->c);
	if (canon.len != bytes.len || memcmp(canon.data, bytes.data, bytes.len) != 0) {
		error_set(ERROR_INPUT, "turn %d: %s at %s is not in the form umpire close writes",
			t, path, tag);
		goto done;
	}
	char where[LAYOUT_PATH_MAX + LAYOUT_TAG_MAX + 8];
	snprintf(where, sizeof where, "%s (tag %s)", path, tag);
	if (close_check_sorted(&r, where) < 0)
		goto done;
	if (r.entropy == CAMPAIGN_ENTROPY_BEACON && check_close_round(v, t, path, &r) < 0)
		goto done;
	if (check_close_late(v, t, &r) < 0 || check_close_overrides(v, t, &r) < 0)
		goto done;
	if (close_check_entropy(&r) < 0) {
		error_set(ERROR_INPUT, "%s (%s at %s)", error_last()->message, path, tag);
		goto done;
	}
	close_summary(what, sizeof what, &r);
	layout_close_message(&msg, t, what, r.digest, v->c->commitment);
	file_list_add(&files, &n_files, path, bytes.data, bytes.len);
	if (verify_timelocked_files(v, t, tag, &r, &files, &n_files) < 0)
		goto done;
	if (check_close_stamps(v, t, tag, &r, &bytes, &files, &n_files) < 0)
		goto done;
	if (repo_commit_time(v->c->repo, tag, &when) != 0 ||
		repo_rebuild_id(v->c->repo, prev, files, n_files, buf_str(&msg), when, rebuilt) < 0)
		error_set(ERROR_INPUT, "turn %d: cannot rebuild the close commit %s: %s", t, tag,
			error_last()->message);
	else if (strcmp(rebuilt, id) != 0)
		error_set(ERROR_INPUT,
			"turn %d: %s is commit %s, but the close rebuilds to %s: it holds other files, another message or another parent than the close's (its file and its time stamps)",
			t, tag, id, rebuilt);
	else
		rc = same_at_main(v, t, tag, path);
done:
	if (rc == 0 && keep)
		*keep = r; /* the caller's now */
	else
		close_release(&r);
	file_list_free(files, n_files);
	buf_release(&msg);
	buf_release(&bytes);
	buf_release(&canon);
	return rc;
}

/* A sealed turn's commit, rebuilt from its own blobs of the files a sealed turn commits
 * (public state, export, public report) and the message the export's summary gives: the id
 * must be the tag's, so the commit holds those files and nothing else (no order file). */
static int check_sealed_commit(struct verify *v, int t, const char *tag, const char *parent,
	const char *tag_id, const uint8_t head[FAIR_HASH_BYTES], const struct journal_record *ex)
{
	struct layout_entry *paths = NULL;
	size_t n = layout_sealed_turn_files(&paths, t, v->c->rules->draw_map != NULL);
	struct file *files = xcalloc(n, sizeof(*files));
	struct buf msg = BUF_INIT, b = BUF_INIT;
	char rebuilt[41];
	long long when;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < n; i++) {
		buf_clear(&b);
		if (repo_read(v->c->repo, tag, paths[i].path, &b) != 0)
			rc = error_set(ERROR_INPUT, "turn %d: %s is missing from %s", t,
				paths[i].path, tag);
		files[i].path = xstrdup(paths[i].path);
		files[i].data = xmalloc(b.len + 1);
		memcpy(files[i].data, b.data ? b.data : "", b.len);
		files[i].len = b.len;
	}
	layout_commit_message(&msg, t, ex->summary, head, v->c->commitment);
	if (rc == 0 && (repo_commit_time(v->c->repo, tag, &when) != 0 ||
			       repo_rebuild_id(v->c->repo, parent, files, n, buf_str(&msg), when,
				       rebuilt) < 0))
		rc = error_set(ERROR_INPUT, "turn %d: cannot rebuild the commit of %s: %s", t, tag,
			error_last()->message);
	else if (rc == 0 && strcmp(rebuilt, tag_id) != 0)
		rc = error_set(ERROR_INPUT,
			"turn %d: %s is commit %s, but a sealed turn's files rebuild to %s: the commit holds other files (an order file?) or another message",
			t, tag, tag_id, rebuilt);
	file_list_free(files, n);
	free(paths);
	buf_release(&msg);
	buf_release(&b);
	return rc;
}

/* The close r (checked by check_close) fixed the same salted hashes and D_t the export
 * shows. */
static int check_close_export(int t, const struct close_record *r, const struct journal_record *ex)
{
	int rc = memcmp(r->digest, ex->orders_digest, FAIR_HASH_BYTES) == 0 ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < ex->n_orders; i++) {
		const struct journal_order *o = &ex->orders[i];
		const struct close_order *co = close_find(r, o->player);
		if (o->has_file != (co != NULL) ||
			(co && memcmp(co->sha256, o->sha256, FAIR_HASH_BYTES) != 0))
			rc = -1;
	}
	if (rc < 0)
		error_set(ERROR_INPUT,
			"turn %d: the export's order hashes or D_t differ from what close-%04d fixed",
			t, t);
	return rc;
}

/* A sealed turn's public files are bound by its export (issue 25): state.yaml by
 * state_sha256, the public report by public_report_sha256, so neither can be edited and the
 * commit rebuilt with the same trailers. */
static int check_sealed_public(struct verify *v, int t, const char *tag,
	const struct journal_record *ex)
{
	char path[LAYOUT_PATH_MAX], got_hex[65], want_hex[65];
	struct buf b = BUF_INIT;
	uint8_t got[FAIR_HASH_BYTES];
	int rc = 0;

	for (int k = 0; rc == 0 && k < 2; k++) {
		const uint8_t *want = k ? ex->public_report_sha256 : ex->state_sha256;
		if (k)
			layout_public_report_path(path, t);
		else
			snprintf(path, sizeof path, "%s", LAYOUT_STATE);
		if (k && !ex->has_public_report) {
			rc = error_set(ERROR_INPUT,
				"turn %d: the export has no public_report_sha256: %s is bound by nothing",
				t, path);
			break;
		}
		if (repo_read(v->c->repo, tag, path, &b) != 0) {
			rc = error_set(ERROR_INPUT, "turn %d: %s is missing from %s", t, path, tag);
			break;
		}
		fair_sha256(got, b.data ? b.data : "", b.len);
		if (memcmp(got, want, FAIR_HASH_BYTES) != 0) {
			hex_encode(got_hex, got, FAIR_HASH_BYTES);
			hex_encode(want_hex, want, FAIR_HASH_BYTES);
			rc = error_set(ERROR_INPUT,
				"turn %d: %s at %s hashes to %s, the export says %s %s: it was edited",
				t, path, tag, got_hex, k ? "public_report_sha256" : "state_sha256",
				want_hex);
		}
	}
	buf_release(&b);
	return rc;
}

/* The umpire's own copy of a sealed turn before the reveal: the SQLite journal's rows against
 * the export (audit_journal_export), its chain head against the trailer, its commit id
 * against the tag, its files rows against the public files committed (issue 25). */
static int check_sealed_journal(struct verify *v, int t, const char *tag, const char *tag_id,
	const uint8_t head[FAIR_HASH_BYTES], const struct journal_record *ex)
{
	struct journal_record *jr = NULL;
	struct layout_entry *paths = NULL;
	size_t n = layout_sealed_turn_files(&paths, t, v->c->rules->draw_map != NULL);
	struct buf got = BUF_INIT;
	int rc = -1;

	int r = journal_read(v->c->journal, t, &jr);
	if (r == ERROR_NOTFOUND) {
		error_set(ERROR_INPUT,
			"turn %d: git has %s but the journal has no turn %d: the journal was truncated",
			t, tag, t);
		goto done;
	}
	if (r < 0) {
		error_prefix("turn %d", t);
		goto done;
	}
	/* the withheld order files' stored copies: checked nowhere else before the reveal */
	if (campaign_check_stored_orders(v->c, jr) < 0 || audit_journal_export(jr, ex) < 0)
		goto done;
	if (memcmp(jr->journal_head, head, FAIR_HASH_BYTES) != 0) {
		error_set(ERROR_INPUT,
			"turn %d: the journal's head differs from the commit trailer", t);
		goto done;
	}
	if (strcmp(jr->commit_id, tag_id) != 0) {
		error_set(ERROR_INPUT,
			"turn %d: tag %s is commit %s, but the journal says turn %d is commit %s: the history was rewritten",
			t, tag, tag_id, t, jr->commit_id[0] ? jr->commit_id : "(none)");
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		const struct file *f = file_list_find(jr->files, jr->n_files, paths[i].path);
		if (!f) {
			error_set(ERROR_INPUT,
				"turn %d: %s is committed at %s but the journal has no files row for it",
				t, paths[i].path, tag);
			goto done;
		}
		uint8_t h[FAIR_HASH_BYTES];
		int same = repo_read(v->c->repo, tag, f->path, &got) == 0;
		if (same) {
			fair_sha256(h, got.data ? got.data : "", got.len);
			same = memcmp(h, jr->file_sha256[f - jr->files], FAIR_HASH_BYTES) == 0;
		}
		if (!same) {
			error_set(ERROR_INPUT,
				"turn %d: the journal's files row %s differs from the blob committed at %s",
				t, f->path, tag);
			goto done;
		}
	}
	if (jr->n_files != n) {
		error_set(ERROR_INPUT,
			"turn %d: the journal has %zu files rows, the turn wrote %zu files", t,
			jr->n_files, n);
		goto done;
	}
	rc = 0;
done:
	journal_record_free(jr);
	free(paths);
	buf_release(&got);
	return rc;
}

/* A sealed turn before the reveal: what the clone can prove without the withheld files. */
int verify_sealed_turn(struct verify *v, int t)
{
	struct journal_record *ex = NULL;
	struct buf bytes = BUF_INIT;
	char tag[LAYOUT_TAG_MAX], parent[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX], tag_id[41];
	uint8_t head[FAIR_HASH_BYTES];
	struct close_record close = { 0 };
	size_t opened = 0;
	int rc = -1;

	layout_tag(tag, t);
	layout_entry_path(path, t);
	if (v->closes)
		layout_close_tag(parent, t);
	else
		layout_tag(parent, t - 1);
	if (check_tag_exists(v, t, tag) < 0 || read_turn_export(v, t, tag, path, &bytes, &ex) < 0)
		goto done;
	if ((v->closes &&
		    (check_close(v, t, &close) < 0 || check_close_export(t, &close, ex) < 0)) ||
		audit_fairness(v->c, ex, path) < 0 ||
		check_trailers(v, t, tag, path, &bytes, head) ||
		check_position(v, t, tag, tag_id) ||
		check_sealed_commit(v, t, tag, parent, tag_id, head, ex) ||
		check_sealed_public(v, t, tag, ex) || check_unchanged(v, t, tag) ||
		(v->c->journal && check_sealed_journal(v, t, tag, tag_id, head, ex)) ||
		(v->closes && verify_timelocked_sealed(v, t, &close, ex, &opened) < 0))
		goto done;
	v->dice += ex->n_dice;
	char tl[96] = "";
	if (v->c->orders_timelocked)
		snprintf(tl, sizeof tl, "%zu time-locked %s opened to the umpire's key, ", opened,
			opened == 1 ? "file" : "files");
	say(v, "turn %d: ok: %skey, salted digest, %sseed, %zu %s, %schain, commit, history; sealed: not re-resolved until the reveal\n",
		t, v->closes ? "close, " : "",
		v->c->entropy == CAMPAIGN_ENTROPY_BEACON  ? "beacon round, " :
		v->c->entropy == CAMPAIGN_ENTROPY_PLAYERS ? "reveals, " :
							    "",
		ex->n_dice, ex->n_dice == 1 ? "die" : "dice", tl);
	rc = 0;
done:
	close_release(&close);
	journal_record_free(ex);
	buf_release(&bytes);
	return rc;
}

/* reveal/turn-NNNN/path at the reveal. */
static int read_revealed(struct verify *v, int t, const char *name, struct buf *out)
{
	char dir[LAYOUT_PATH_MAX];
	char *path;
	int rc;

	layout_reveal_dir(dir, t);
	path = xasprintf("%s/%s", dir, name);
	rc = repo_read(v->c->repo, LAYOUT_REVEAL_TAG, path, out);
	if (rc != 0)
		rc = error_set(ERROR_INPUT, "turn %d: the reveal has no %s", t, path);
	free(path);
	return rc;
}

/* Whether the views of a salts file (w) list jv's player with jv's two commitments. */
static int lists_view(const struct node *w, const struct journal_view *jv, struct diag *d)
{
	char want_r[65], want_s[65];

	hex_encode(want_r, jv->report_sha256, FAIR_HASH_BYTES);
	hex_encode(want_s, jv->state_sha256, FAIR_HASH_BYTES);
	for (size_t k = 0; k < w->n; k++) {
		const struct node *e = w->items[k];
		const char *p = NULL, *rh = NULL, *sh = NULL;
		if (node_want_str(node_get(e, "player"), "player", 64, &p, d) < 0 ||
			strcmp(p, jv->player) != 0)
			continue;
		return node_want_str(node_get(e, "report_sha256"), "report_sha256", 64, &rh, d) ==
			       0 &&
		       node_want_str(node_get(e, "state_sha256"), "state_sha256", 64, &sh, d) ==
			       0 &&
		       strcmp(rh, want_r) == 0 && strcmp(sh, want_s) == 0;
	}
	return 0;
}

/* The reveal's salts.yaml lists, beside each player's view salts, the commitments they open:
 * they must be the export's views (the re-resolution proved the salts open those). */
int check_revealed_views(struct verify *v, int t, const struct journal_record *ex)
{
	struct buf b = BUF_INIT;
	struct node *root = NULL;
	const struct node *w;
	struct diag d;
	int rc = read_revealed(v, t, "salts.yaml", &b), same = 0;

	diag_init(&d);
	if (rc == 0 && node_parse(&root, "salts.yaml", b.data, b.len, NULL, &d) == 0 &&
		(w = node_get(root, "views")) && w->kind == NODE_SEQ && w->n == ex->n_views) {
		same = 1;
		for (size_t i = 0; same && i < ex->n_views; i++)
			same = lists_view(w, &ex->views[i], &d);
	}
	if (rc == 0 && !same)
		rc = error_set(ERROR_INPUT,
			"turn %d: the reveal's salts.yaml lists other report and view commitments than the export's views",
			t);
	node_free(root);
	diag_release(&d);
	buf_release(&b);
	return rc;
}

/* The whole state the re-resolved turn left is the one the reveal publishes for it. */
int check_revealed_state(struct verify *v, int t, const void *state)
{
	struct buf want = BUF_INIT, got = BUF_INIT;
	int rc = read_revealed(v, t, LAYOUT_STATE, &got);

	if (rc == 0 && campaign_emit_whole_state(v->c, t, state, &want) < 0)
		rc = error_set(ERROR_INTERNAL, "internal error: cannot emit the state of turn %d",
			t);
	else if (rc == 0 && (want.len != got.len || memcmp(want.data, got.data, got.len) != 0))
		rc = error_set(ERROR_INPUT,
			"turn %d: the whole state the reveal publishes differs from the one the turn re-resolves to",
			t);
	buf_release(&want);
	buf_release(&got);
	return rc;
}

/* The reveal commit: main's tip, on the last turn, holding exactly reveal/turn-NNNN/ of every
 * turn (state.yaml, and after the setup salts.yaml and the order files) and the message
 * layout_reveal_message gives: rebuilt, its id must be the tag's. */
int check_reveal_commit(struct verify *v, int last)
{
	struct file *files = NULL;
	struct buf b = BUF_INIT, msg = BUF_INIT;
	char dir[LAYOUT_PATH_MAX], prev[LAYOUT_TAG_MAX], id[41], rebuilt[41];
	char **names = NULL;
	size_t n = 0;
	long long when;
	int rc = 0;

	for (int t = 0; t <= last && rc == 0; t++) {
		static const char *const kept[] = { LAYOUT_STATE, "salts.yaml" };
		layout_reveal_dir(dir, t);
		for (int k = 0; k < (t ? 2 : 1) && rc == 0; k++) {
			buf_clear(&b);
			char *path = xasprintf("%s/%s", dir, kept[k]);
			rc = read_revealed(v, t, kept[k], &b);
			file_list_add(&files, &n, path, b.data ? b.data : "", b.len);
			free(path);
		}
		char *odir = xasprintf("%s/orders", dir);
		if (rc == 0 && t > 0 && repo_list(v->c->repo, LAYOUT_REVEAL_TAG, odir, &names) == 0)
			for (size_t i = 0; names[i] && rc == 0; i++) {
				char *path = xasprintf("%s/%s", odir, names[i]);
				buf_clear(&b);
				rc = repo_read(v->c->repo, LAYOUT_REVEAL_TAG, path, &b);
				file_list_add(&files, &n, path, b.data ? b.data : "", b.len);
				free(path);
			}
		repo_names_free(names);
		names = NULL;
		free(odir);
	}
	if (rc == 0 && v->c->orders_timelocked && v->c->timelock_recipient) {
		buf_clear(&b);
		if ((rc = repo_read(v->c->repo, LAYOUT_REVEAL_TAG, TIMELOCK_REVEALED, &b)) < 0)
			error_prefix("reveal: no %s", TIMELOCK_REVEALED);
		else
			file_list_add(&files, &n, TIMELOCK_REVEALED, b.data ? b.data : "", b.len);
	}
	layout_tag(prev, last);
	file_list_sort(files, n);
	layout_reveal_message(&msg, last, v->c->commitment);
	if (rc == 0 && (repo_commit_id(v->c->repo, LAYOUT_REVEAL_TAG, id) != 0 ||
			       repo_commit_time(v->c->repo, LAYOUT_REVEAL_TAG, &when) != 0 ||
			       repo_rebuild_id(v->c->repo, prev, files, n, buf_str(&msg), when,
				       rebuilt) < 0))
		rc = error_set(ERROR_INPUT, "reveal: cannot rebuild the reveal commit: %s",
			error_last()->message);
	else if (rc == 0 && strcmp(id, rebuilt) != 0)
		rc = error_set(ERROR_INPUT,
			"reveal: tag " LAYOUT_REVEAL_TAG
			" is commit %s, but the reveal rebuilds to %s: it holds other files, another message or another parent",
			id, rebuilt);
	if (rc == 0)
		say(v, "reveal: ok: %zu files, every one used by the turns re-resolved\n", n);
	file_list_free(files, n);
	buf_release(&b);
	buf_release(&msg);
	return rc;
}

/* Sealed: a tag `reveal` must be main's tip; it is then left out of the turns' positions. */
int find_reveal(struct verify *v)
{
	char id[41];

	if (v->c->visibility != CAMPAIGN_SEALED ||
		repo_commit_id(v->c->repo, LAYOUT_REVEAL_TAG, id) != 0)
		return 0;
	if (strcmp(id, v->chain[v->n_chain - 1]) != 0)
		return error_set(ERROR_INPUT,
			"reveal: tag " LAYOUT_REVEAL_TAG " is commit %s, not main's tip %s", id,
			v->chain[v->n_chain - 1]);
	v->revealed = 1;
	v->n_chain--;
	return 0;
}
