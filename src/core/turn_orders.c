/* turn_orders.c — the `orders` step (every order file read and checked, its hash as D_t takes
 * it: sealed, the salted commitment) and the `close` step (D_t, the file hashes and the
 * randomness to come fixed in tag close-NNNN; a closed turn's inputs checked against it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/turn_int.h"
#include "core/timelock.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/orders.h"
#include "core/receipt.h"
#include "core/schedule.h"
#include "core/tstamp.h"
#include "core/banned.h"

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
struct turn_view *turn_views_of(struct turn *t)
{
	if (!t->out.views)
		t->out.views = xcalloc(t->c->n_players + 1, sizeof(*t->out.views));
	return t->out.views;
}

/* The `views` of reveal/turn-NNNN/salts.yaml: each player's report and state salts, into
 * t->out.views. 0, or -1 when an entry is not one (d says why) or names no player. */
static int read_view_salts(struct turn *t, const struct node *v, struct diag *d)
{
	struct turn_view *views = turn_views_of(t);
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
	struct turn_view *views = turn_views_of(t);
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

/* A time-locked campaign's file read as a plain order file: `seal`'s, and one given to
 * `check` that neither is named *.age nor begins as an armored age file (a player checking
 * what he will seal). The inbox names what it checks PLAYER.yaml.age: it never takes one. */
static int timelock_plain(const struct turn *t, const struct order_file *f)
{
	static const char armor[] = "-----BEGIN AGE ENCRYPTED FILE-----";
	size_t n = strlen(f->path);

	if (t->flags & TURN_PLAIN_ORDERS)
		return 1;
	if (!(t->flags & TURN_CHECK_ONLY) || (n >= 4 && strcmp(f->path + n - 4, ".age") == 0))
		return 0;
	return f->len < sizeof armor - 1 || memcmp(f->bytes, armor, sizeof armor - 1) != 0;
}

int step_orders(struct turn *t)
{
	if (t->source == TURN_RECORDED && read_committed_orders(t) < 0)
		return -1;
	/* Files parse in the order given, so "a second file for X" names the later one. */
	for (size_t i = 0; i < t->in.n_files; i++) {
		struct order_file *f = &t->in.files[i];
		/* Time-locked: ciphertext until the round (timelock_open_files parses it then). */
		if (t->c->orders_timelocked && !f->is_rulings && !timelock_plain(t, f)) {
			if (timelock_take(t, f) < 0)
				return -1;
		} else
			orders_parse_file(t, f, &t->diag);
	}
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
void turn_orders_digest(const struct turn *t, uint8_t digest[FAIR_HASH_BYTES])
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
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
	turn_orders_digest(t, r->digest);
	r->orders = xcalloc(t->in.n_files + 1, sizeof(*r->orders));
	for (size_t i = 0; i < t->in.n_files; i++) {
		const struct order_file *f = &t->in.files[i];
		struct close_order *o = &r->orders[r->n_orders++];
		o->player = xstrdup(f->player);
		memcpy(o->sha256, f->digest_hash, FAIR_HASH_BYTES);
		/* A sealed campaign's time-locked file is public from the close on: its salt
		 * hides nothing, and lets anyone check the commitment (docs/fairness.md). */
		o->has_salt = c->orders_timelocked && c->visibility == CAMPAIGN_SEALED &&
			      !f->is_rulings;
		if (o->has_salt)
			memcpy(o->salt, f->salt, FAIR_HASH_BYTES);
		o->has_entropy = f->has_entropy;
		memcpy(o->entropy, f->entropy, FAIR_HASH_BYTES);
	}
	r->missing = xcalloc(t->in.n_missing + 1, sizeof(char *));
	for (size_t i = 0; i < t->in.n_missing; i++)
		r->missing[r->n_missing++] = xstrdup(t->in.missing[i]);
	/* The campaign lists its players in its own order; every list of the close is sorted
	 * by id in byte order, which both verifiers require (close_check_sorted). */
	qsort(r->missing, r->n_missing, sizeof(*r->missing), cmp_str);
	if (c->entropy == CAMPAIGN_ENTROPY_BEACON) {
		r->round = t->round_override ? t->round_override : close_named_round(c, t->when);
		/* Time-locked orders open with exactly the round they were locked to. */
		if (c->orders_timelocked)
			r->round = campaign_turn_round(c, t->in.turn);
		r->round_at = close_round_at(c, r->round);
	}
	/* The overrides made while the turn was open: the close commits them (schedule.h). */
	size_t n;
	const struct override *o = schedule_of_turn(c, r->turn, &n);
	r->overrides = xcalloc(n + 1, sizeof(*r->overrides));
	for (size_t i = 0; i < n; i++)
		override_copy(&r->overrides[r->n_overrides++], &o[i]);
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

/* The seconds each time-stamp authority has to answer: TSTAMP_TIMEOUT, or
 * $UMPIRE_TSA_TIMEOUT (1 to 600). */
static long stamp_timeout(void)
{
	const char *v = getenv("UMPIRE_TSA_TIMEOUT");
	char *end = NULL;
	long s = v ? strtol(v, &end, 10) : 0;

	return v && end != v && *end == '\0' && s >= 1 && s <= 600 ? s : TSTAMP_TIMEOUT;
}

/* Each authority of fairness.timestamps time-stamps the close file (yaml): its answer joins
 * the close commit's files. One that does not answer in time, or answers what a verifier
 * would refuse, is left out and told in t->notes: the close is not held up for it
 * (docs/fairness.md, "Time stamps"). */
static void stamp_close(struct turn *t, const struct buf *yaml, struct file **files,
	size_t *n_files)
{
	const struct campaign *c = t->c;
	char path[LAYOUT_PATH_MAX];
	struct buf token = BUF_INIT;
	long timeout = stamp_timeout();

	for (size_t i = 0; i < c->n_timestamps; i++) {
		struct tstamp_authority a = { c->timestamps[i].name, c->timestamps[i].url };
		if (tstamp_fetch(&a, yaml->data, yaml->len, t->close.closed_at,
			    close_witness_until(&t->close), timeout, &token) < 0) {
			buf_printf(&t->notes, "turn %d closed without a time stamp from %s: %s\n",
				t->in.turn, a.name, error_last()->message);
			error_clear();
			continue;
		}
		layout_close_token_path(path, t->in.turn, a.name);
		file_list_add(files, n_files, path, token.data, token.len);
		t->stamped++;
	}
	buf_release(&token);
}

/* The close's files, kept in .umpire/closed/turn-NNNN/ for `turn` (which may then be given
 * none), then the close commit on main, tagged close-NNNN, with the time stamps of the
 * close file. */
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
	/* Time-locked files are unreadable until the round: public from the close on. */
	for (size_t i = 0; c->orders_timelocked && i < t->in.n_files; i++) {
		const struct order_file *f = &t->in.files[i];
		char *name = xasprintf(TIMELOCK_DIR "/turn-%04d/%s" TIMELOCK_SUFFIX, t->in.turn,
			f->player);
		if (!f->is_rulings)
			file_list_add(&files, &n_files, name, f->bytes, f->len);
		free(name);
	}
	stamp_close(t, &yaml, &files, &n_files);
	close_summary(what, sizeof what, &t->close);
	layout_close_message(&msg, t->in.turn, what, t->close.digest, c->commitment);
	rc = repo_build(c->repo, files, n_files, buf_str(&msg), t->when, t->close_commit);
	if (rc == 0)
		rc = repo_objects_stored(c->repo, t->close_commit, files, n_files);
	if (rc == 0)
		rc = repo_publish(c->repo, files, n_files, t->close_commit, tag);
	if (rc == 0 && t->close.n_overrides)
		rc = schedule_committed(c, t->in.turn);
	file_list_free(files, n_files);
	buf_release(&yaml);
	buf_release(&msg);
	return rc;
}

/* A time-locked turn's close names R(turn): refused when a close now would name a later
 * round (R is out, or closer than beacon_delay: its value and the orders could be known
 * before the close). */
static int timelock_close_in_time(const struct turn *t)
{
	long long want = campaign_turn_round(t->c, t->in.turn);
	long long first = close_named_round(t->c, t->when);

	if (t->round_override && t->round_override != want)
		return error_set(ERROR_INPUT,
			"beacon round %lld: turn %d's orders are time-locked to round %lld, the round its close names",
			t->round_override, t->in.turn, want);
	if (first <= want)
		return 0;
	return error_set(ERROR_INPUT,
		"turn %d's orders are time-locked to beacon round %lld, out at %lld: too close to a close at %lld (at least %lld s before the round, beacon_delay); the turn cannot be closed fairly now",
		t->in.turn, want, close_round_at(t->c, want), t->when, t->c->beacon_delay);
}

int step_close(struct turn *t)
{
	struct close_record now;
	char *diff;

	if (t->c->entropy == CAMPAIGN_ENTROPY_NONE)
		return 0;
	if ((t->flags & TURN_CLOSING) && !t->closed) {
		make_close(t, &t->close);
		if (close_check_entropy(&t->close) < 0)
			return -1;
		/* Exactly the first round beacon_delay after the close: a later one would let
		 * the umpire close, wait, and close again (docs/fairness.md, "Closed turns"). */
		long long first = t->round_override ? close_named_round(t->c, t->when) : 0;
		if (t->round_override && t->round_override != first && !t->c->orders_timelocked)
			return error_set(ERROR_INPUT,
				"beacon round %lld: a close at %lld names round %lld, the first out %lld s after it, and no other (a later round would leave time to close again)",
				t->round_override, t->when, first, t->c->beacon_delay);
		if (t->c->orders_timelocked && timelock_close_in_time(t) < 0)
			return -1;
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
