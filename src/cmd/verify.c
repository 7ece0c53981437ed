/* verify.c — `umpire verify`: checks a campaign without trusting the umpire, from a plain git
 * clone: every turn's key, orders digest, seed and die from the committed journal exports,
 * the journal hash chain in the commit trailers, a linear history with one tagged commit per
 * turn, and every turn re-resolved to the committed files. On the umpire's own copy it also
 * holds the SQLite journal and git against each other, both ways. */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/audit.h"
#include "core/beacon.h"
#include "core/close.h"
#include "core/file.h"
#include "core/fair.h"
#include "core/layout.h"
#include "core/banned.h"

#define VERIFIED_REF "refs/umpire/verified" /* the head this clone last verified */

static const char verify_help[] =
	"usage: umpire verify DIR [--commitment HEX] [--setup HEX] [--receipt FILE]... [--view DIR]...\n\n"
	"Checks the campaign in DIR, which may be a plain 'git clone' (no .umpire/, no secret):\n"
	"for every tag turn-NNNN in order, the revealed key against the commitment, the orders\n"
	"digest against the committed order files, the seed, every die, the journal hash chain\n"
	"against the commit trailers (Turn, Journal-Head, Commitment), that main is linear with\n"
	"one commit per turn and tag turn-N on its N-th commit after Setup, and that the turn,\n"
	"re-resolved through the same code 'umpire turn' runs, gives the committed state.yaml,\n"
	"journal export and reports byte for byte. On the umpire's own copy (with\n"
	".umpire/journal.sqlite) every journal row is also checked against git and back.\n\n"
	"Prints one line per turn and a verdict. Exit 0 when everything verifies, 65 at the first\n"
	"broken item (named: turn, die index or file), 66 when DIR is not a campaign.\n\n"
	"  --commitment HEX  the commitment the umpire announced at init (out of band)\n"
	"  --setup HEX       the SHA-256 of the Setup's campaign.yaml 'umpire init' printed: a\n"
	"                    Setup rewritten on a fresh clone (fair: false made true, the hash\n"
	"                    chain rebuilt) passes every other check, not these\n"
	"  --receipt FILE    a receipt 'umpire close' gave: its close commit must be the\n"
	"                    history's, with the same file hash and D_t\n"
	"  --view DIR        sealed: a player's outbox of one turn (salt.yaml, orders.yaml,\n"
	"                    report.md, state.yaml): his salted hash is the export's, his file\n"
	"                    opens it, his report and view open the export's commitments, and\n"
	"                    after the reveal his state.yaml is his view of the revealed state\n\n"
	"With closed turns (entropy beacon or players), each turn's close commit (tag close-N)\n"
	"comes just before it and is checked too. The head verified is remembered in the clone\n"
	"(" VERIFIED_REF "): a later run fails, naming both commits, when main's history no\n"
	"longer contains it.\n";

struct verify {
	struct campaign *c;
	char (*chain)[41]; /* main's commits, Setup first */
	size_t n_chain;
	int last_tag;               /* the highest turn-NNNN tag, -1 none */
	int last_journal;           /* the journal's last turn; -1 empty or no journal */
	uint8_t head[32];           /* the journal hash chain up to the turn being checked */
	size_t dice;                /* dice checked in all turns */
	const char *pin_commitment; /* --commitment HEX: what the umpire announced, or NULL */
	const char *pin_setup;      /* --setup HEX: SHA-256 of the Setup's campaign.yaml, or NULL */
	int progress;               /* stderr is a terminal: show "verifying turn t/n" */
	int closes;                 /* entropy beacon or players: a close commit before each turn */
	int sealed;                 /* visibility sealed and no reveal yet: fairness only */
	int revealed;               /* sealed and revealed: main's tip is the reveal commit */
	const char **receipts;      /* --receipt FILE..., NULL-terminated */
	size_t n_receipts;
	const char **views; /* --view DIR...: a player's outbox of one turn (sealed) */
	size_t n_views;
};

/* Where turn t's commit sits on main (Setup is 0): after its close when turns close. */
static size_t turn_index(const struct verify *v, int t)
{
	return v->closes && t > 0 ? 2 * (size_t)t : (size_t)t;
}

static void say(struct verify *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct verify *v, const char *fmt, ...)
{
	va_list ap;

	if (v->progress)
		fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

static const char *ordinal(size_t n)
{
	if (n % 100 >= 11 && n % 100 <= 13)
		return "th";
	return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

/* main from Setup to its tip; every commit must have at most one parent. 0, 1 failed, -1. */
static int read_history(struct verify *v)
{
	struct buf subject = BUF_INIT;
	char id[41], rev[64];
	size_t cap = 0;
	int rc = -1;

	int r = repo_commit_id(v->c->repo, LAYOUT_BRANCH, id);
	if (r == ERROR_NOTFOUND)
		error_set(ERROR_INPUT, "turn 0: the repository has no branch main");
	if (r < 0)
		goto done;
	for (;;) {
		if (v->n_chain == cap) {
			cap = cap ? 2 * cap : 64;
			v->chain = xrealloc(v->chain, cap * sizeof(*v->chain));
		}
		memcpy(v->chain[v->n_chain++], id, 41);
		snprintf(rev, sizeof(rev), "%s^2", id);
		if (repo_has(v->c->repo, rev)) {
			repo_subject(v->c->repo, id, &subject);
			error_set(ERROR_INPUT,
				"history: main's commit %s (\"%s\") is a merge: the history must be "
				"linear, one commit per turn",
				id, buf_str(&subject));
			rc = -1;
			goto done;
		}
		snprintf(rev, sizeof(rev), "%s^1", id);
		r = repo_commit_id(v->c->repo, rev, id);
		if (r == ERROR_NOTFOUND)
			break;
		if (r < 0)
			goto done;
	}
	for (size_t i = 0; i < v->n_chain / 2; i++) {
		char tmp[41];
		memcpy(tmp, v->chain[i], 41);
		memcpy(v->chain[i], v->chain[v->n_chain - 1 - i], 41);
		memcpy(v->chain[v->n_chain - 1 - i], tmp, 41);
	}
	rc = 0;
done:
	buf_release(&subject);
	return rc;
}

static int read_tags(struct verify *v)
{
	char **names = NULL;
	int n;

	v->last_tag = -1;
	if (repo_tags(v->c->repo, LAYOUT_TAG_PREFIX, &names) < 0)
		return -1;
	for (size_t i = 0; names[i]; i++)
		if (layout_parse_tag(names[i], &n) == 0 && n > v->last_tag)
			v->last_tag = n;
	repo_names_free(names);
	return 0;
}

/* The commit's trailers against the turn, the commitment and the recomputed chain head,
 * which goes to head (and becomes v->head). */
static int check_trailers(struct verify *v, int t, const char *tag, const char *entry_path,
	const struct buf *entry, uint8_t head[FAIR_HASH_BYTES])
{
	struct buf msg = BUF_INIT;
	char commitment[65], head_hex[65], turn_s[16];
	char *tn = NULL, *jh = NULL, *cm = NULL;
	int rc = -1;

	turn_chain_head(head, v->head, entry->data ? entry->data : "", entry->len);
	hex_encode(head_hex, head, FAIR_HASH_BYTES);
	if (repo_message(v->c->repo, tag, &msg) != 0) {
		error_set(ERROR_INPUT, "turn %d: cannot read the message of %s: %s", t, tag,
			error_last()->message);
		goto done;
	}
	tn = layout_trailer(buf_str(&msg), "Turn");
	jh = layout_trailer(buf_str(&msg), "Journal-Head");
	cm = layout_trailer(buf_str(&msg), "Commitment");
	snprintf(turn_s, sizeof(turn_s), "%d", t);
	hex_encode(commitment, v->c->commitment, FAIR_HASH_BYTES);
	if (!tn || !jh || !cm)
		error_set(ERROR_INPUT, "turn %d: the commit of %s has no %s trailer", t, tag,
			!tn ? "Turn:" :
			!jh ? "Journal-Head:" :
			      "Commitment:");
	else if (strcmp(tn, turn_s) != 0)
		error_set(ERROR_INPUT, "turn %d: the commit of %s says 'Turn: %s'", t, tag, tn);
	else if (strcmp(cm, commitment) != 0)
		error_set(ERROR_INPUT,
			"turn %d: the commit of %s says 'Commitment: %s', campaign.yaml commits to %s",
			t, tag, cm, commitment);
	else if (strcmp(jh, head_hex) != 0)
		error_set(ERROR_INPUT,
			"turn %d: journal hash chain broken: SHA256(head of turn %d || %s) is %s, the "
			"commit of %s says 'Journal-Head: %s'",
			t, t - 1, entry_path, head_hex, tag, jh);
	else
		rc = 0;
	if (rc == 0)
		memcpy(v->head, head, FAIR_HASH_BYTES);
done:
	free(tn);
	free(jh);
	free(cm);
	buf_release(&msg);
	return rc;
}

/* Tag turn-t must be main's t-th commit after Setup. */
static int check_position(struct verify *v, int t, const char *tag, char tag_id[41])
{
	int rc = -1;

	if (repo_commit_id(v->c->repo, tag, tag_id) != 0) {
		error_set(ERROR_INPUT, "turn %d: cannot resolve %s: %s", t, tag,
			error_last()->message);
		goto done;
	}
	size_t at = turn_index(v, t);
	if (at >= v->n_chain) {
		size_t after = v->n_chain - 1;
		error_set(ERROR_INPUT,
			"turn %d: tag %s is commit %s, which is not on main: main ends at turn %zu%s "
			"(commit %s): main was moved back",
			t, tag, tag_id, v->closes ? after / 2 : after,
			v->closes && after % 2 ? " and a close" : "", v->chain[after]);
		goto done;
	}
	if (strcmp(tag_id, v->chain[at]) != 0) {
		if (t == 0)
			error_set(ERROR_INPUT,
				"turn 0: tag %s is commit %s, but main starts at %s: the history was "
				"rewritten or the tag moved",
				tag, tag_id, v->chain[0]);
		else
			error_set(ERROR_INPUT,
				"turn %d: tag %s is commit %s, but main's %zu%s commit after Setup is %s: "
				"the history was rewritten or the tag moved",
				t, tag, tag_id, at, ordinal(at), v->chain[at]);
		goto done;
	}
	rc = 0;
done:
	return rc;
}

/* path must be the same at main's tip as at tag: no later commit may change a turn. */
static int same_at_main(struct verify *v, int t, const char *tag, const char *path)
{
	char a[41], b[41];
	/* The same blob id is the same bytes: the blobs are not read. */
	int ra = repo_file_id(v->c->repo, tag, path, a);
	int rb = repo_file_id(v->c->repo, LAYOUT_BRANCH, path, b);

	if (ra != rb || (ra == 0 && strcmp(a, b) != 0)) {
		error_set(ERROR_INPUT,
			"turn %d: %s at main differs from %s: changed after the turn", t, path,
			tag);
		return -1;
	}
	return 0;
}

static int same_dir_at_main(struct verify *v, int t, const char *tag, const char *dir)
{
	char **at_tag = NULL, **at_main = NULL;
	char path[256];
	int rc = 0;

	if (repo_list(v->c->repo, tag, dir, &at_tag) < 0 ||
		repo_list(v->c->repo, LAYOUT_BRANCH, dir, &at_main) < 0) {
		error_prefix("turn %d", t);
		goto done;
	}
	for (size_t i = 0; rc == 0 && (at_tag[i] || at_main[i]); i++) {
		const char *name = at_tag[i] && at_main[i] ?
					   (strcmp(at_tag[i], at_main[i]) <= 0 ? at_tag[i] :
										 at_main[i]) :
				   at_tag[i] ? at_tag[i] :
					       at_main[i];
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		rc = same_at_main(v, t, tag, path);
	}
done:
	repo_names_free(at_tag);
	repo_names_free(at_main);
	return rc;
}

/* The turn's files at main's tip are the ones of its tag. */
static int check_unchanged(struct verify *v, int t, const char *tag)
{
	char path[LAYOUT_PATH_MAX];

	layout_entry_path(path, t);
	if (same_at_main(v, t, tag, path) < 0)
		return -1;
	if (t == 0)
		return 0;
	layout_orders_dir(path, t);
	if (same_dir_at_main(v, t, tag, path) < 0)
		return -1;
	layout_public_report_path(path, t);
	if (same_at_main(v, t, tag, path) < 0)
		return -1;
	layout_reports_dir(path, t);
	return same_dir_at_main(v, t, tag, path);
}

/* The journal's files rows are exactly the blobs of the tag's commit the turn wrote: each row
 * is committed with its bytes, and each file of the turn (by the layout) has its row. */
static int check_journal_files(struct verify *v, int t, const char *tag,
	const struct journal_record *jr, const struct audit_turn *at)
{
	struct buf got = BUF_INIT;
	struct file *files = NULL;
	size_t n = 0;
	int rc = -1;

	for (size_t i = 0; i < jr->n_files; i++) {
		const struct file *f = &jr->files[i];
		if (repo_read(v->c->repo, tag, f->path, &got) != 0) {
			error_set(ERROR_INPUT,
				"turn %d: the journal's files row %s is not in the commit of %s", t,
				f->path, tag);
			goto done;
		}
		if (got.len != f->len || memcmp(got.data, f->data, f->len) != 0) {
			error_set(ERROR_INPUT,
				"turn %d: the journal's files row %s differs from the blob committed at %s",
				t, f->path, tag);
			goto done;
		}
	}
	if (t == 0) {
		static const char *const setup[] = { LAYOUT_CAMPAIGN, LAYOUT_STATE };
		for (size_t k = 0; k < 2; k++)
			if (!file_list_find(jr->files, jr->n_files, setup[k])) {
				error_set(ERROR_INPUT,
					"turn 0: the journal has no files row for %s", setup[k]);
				goto done;
			}
	} else {
		n = turn_files(&at->t, &files);
		for (size_t k = 0; k < n; k++)
			if (!file_list_find(jr->files, jr->n_files, files[k].path)) {
				error_set(ERROR_INPUT,
					"turn %d: %s is committed at %s but the journal has no files row for it",
					t, files[k].path, tag);
				goto done;
			}
		if (n != jr->n_files) {
			error_set(ERROR_INPUT,
				"turn %d: the journal has %zu files rows, the turn wrote %zu files",
				t, jr->n_files, n);
			goto done;
		}
	}
	rc = 0;
done:
	file_list_free(files, n);
	buf_release(&got);
	return rc;
}

static int same_opt(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The journal's key and beacon against the export's; then the whole record against the
 * re-resolved turn. */
static int check_journal_inputs(const struct verify *v, int t, const char *tag,
	const struct audit_turn *at, const struct journal_record *jr,
	const struct journal_record *ex)
{
	const char *what = memcmp(jr->key, ex->key, FAIR_HASH_BYTES) != 0       ? "key" :
			   memcmp(jr->beacon, ex->beacon, FAIR_HASH_BYTES) != 0 ? "beacon" :
			   !same_opt(jr->beacon_value, ex->beacon_value)        ? "beacon value" :
			   !same_opt(jr->beacon_round, ex->beacon_round)        ? "beacon round" :
										  NULL;
	char path[LAYOUT_PATH_MAX];

	layout_export_path(path, t);
	if (what)
		return error_set(ERROR_INPUT, "turn %d: the journal's %s differs from %s's (at %s)",
			t, what, path, tag);
	return audit_compare(at, v->c, jr, 0);
}

/* The SQLite journal's turn t against git: its rows against the re-resolved turn (and so
 * against the export and the committed files), its chain head against the trailer, its
 * commit id against the tag, its files rows against the committed blobs. */
static int check_journal(struct verify *v, int t, const char *tag, const char *tag_id,
	const uint8_t head[FAIR_HASH_BYTES], const struct audit_turn *at,
	const struct journal_record *ex, const struct buf *state_yaml)
{
	struct journal_record *jr = NULL;
	char hex[65], want[65];
	int rc = -1;

	int r = journal_read(v->c->journal, t, &jr);
	if (r == ERROR_NOTFOUND) {
		error_set(ERROR_INPUT,
			"turn %d: git has %s but the journal has no turn %d: the journal was truncated "
			"(it ends at turn %d)",
			t, tag, t, v->last_journal);
		goto done;
	}
	if (r < 0) {
		error_prefix("turn %d", t);
		goto done;
	}
	if (t > 0 && check_journal_inputs(v, t, tag, at, jr, ex) < 0)
		goto done;
	if (t == 0) {
		uint8_t h[FAIR_HASH_BYTES];
		fair_sha256(h, state_yaml->data ? state_yaml->data : "", state_yaml->len);
		if (memcmp(h, jr->state_sha256, FAIR_HASH_BYTES) != 0) {
			hex_encode(hex, jr->state_sha256, FAIR_HASH_BYTES);
			hex_encode(want, h, FAIR_HASH_BYTES);
			error_set(ERROR_INPUT,
				"turn 0: the journal's state hash %s is not that of state.yaml at %s (%s)",
				hex, tag, want);
			goto done;
		}
	}
	if (memcmp(jr->journal_head, head, FAIR_HASH_BYTES) != 0) {
		hex_encode(hex, jr->journal_head, FAIR_HASH_BYTES);
		hex_encode(want, head, FAIR_HASH_BYTES);
		error_set(ERROR_INPUT,
			"turn %d: the journal's head %s differs from the commit trailer "
			"'Journal-Head: %s'",
			t, hex, want);
		goto done;
	}
	if (strcmp(jr->commit_id, tag_id) != 0) {
		error_set(ERROR_INPUT,
			"turn %d: tag %s is commit %s, but the journal says turn %d is commit %s: the "
			"history was rewritten",
			t, tag, tag_id, t, jr->commit_id[0] ? jr->commit_id : "(none)");
		goto done;
	}
	rc = check_journal_files(v, t, tag, jr, at);
done:
	journal_record_free(jr);
	return rc;
}

static int verify_setup(struct verify *v)
{
	struct buf camp = BUF_INIT, state = BUF_INIT;
	char tag[LAYOUT_TAG_MAX], tag_id[41];
	uint8_t head[FAIR_HASH_BYTES];
	int rc = -1;

	layout_tag(tag, 0);
	memset(v->head, 0, FAIR_HASH_BYTES);
	if (repo_read(v->c->repo, tag, LAYOUT_CAMPAIGN, &camp) != 0 ||
		repo_read(v->c->repo, tag, LAYOUT_STATE, &state) != 0) {
		error_set(ERROR_INPUT, "turn 0: the setup commit %s lacks %s or %s", tag,
			LAYOUT_CAMPAIGN, LAYOUT_STATE);
		goto done;
	}
	if (check_unchanged(v, 0, tag) || check_trailers(v, 0, tag, LAYOUT_CAMPAIGN, &camp, head) ||
		check_position(v, 0, tag, tag_id))
		goto done;
	if (v->c->journal && check_journal(v, 0, tag, tag_id, head, NULL, NULL, &state))
		goto done;
	say(v, "turn 0: ok: setup, chain, history%s\n", v->c->journal ? ", journal" : "");
	rc = 0;
done:
	buf_release(&camp);
	buf_release(&state);
	return rc;
}

/* Rebuilds the turn's commit from what the re-resolution produced (state, export, reports)
 * and the committed order files (audit_resolve proved them the committed bytes), the expected
 * message and the commit's own time: the id must be the tag's. So the commit holds exactly
 * the turn's files and message, nothing else. */
static int check_commit_id(struct verify *v, int t, const char *tag, const char *prev,
	const char *tag_id, const uint8_t head[FAIR_HASH_BYTES], const struct audit_turn *at)
{
	struct buf msg = BUF_INIT;
	struct file *files = NULL;
	size_t n = turn_files(&at->t, &files);
	char rebuilt[41];
	long long when;
	int rc = -1;

	layout_commit_message(&msg, t, at->t.out.summary, head, v->c->commitment);
	if (repo_commit_time(v->c->repo, tag, &when) != 0 ||
		repo_rebuild_id(v->c->repo, prev, files, n, buf_str(&msg), when, rebuilt) < 0)
		error_set(ERROR_INPUT, "turn %d: cannot rebuild the commit of %s: %s", t, tag,
			error_last()->message);
	else if (strcmp(rebuilt, tag_id) != 0)
		error_set(ERROR_INPUT,
			"turn %d: %s is commit %s, but the turn rebuilds to commit %s: the commit "
			"holds other files, another message or another parent than the turn's",
			t, tag, tag_id, rebuilt);
	else
		rc = 0;
	file_list_free(files, n);
	buf_release(&msg);
	return rc;
}

/* Tag turn-t exists, or why it does not where it should. */
static int check_tag_exists(struct verify *v, int t, const char *tag)
{
	struct buf subject = BUF_INIT;
	char last[LAYOUT_TAG_MAX];

	if (repo_has(v->c->repo, tag))
		return 0;
	if (turn_index(v, t) < v->n_chain) {
		repo_subject(v->c->repo, v->chain[turn_index(v, t)], &subject);
		error_set(ERROR_INPUT,
			"turn %d: main's commit %s (\"%s\") is not a turn: there is no tag %s", t,
			v->chain[turn_index(v, t)], buf_str(&subject), tag);
		buf_release(&subject);
		return -1;
	}
	layout_tag(last, v->last_tag);
	return error_set(ERROR_INPUT, "turn %d: tag %s is missing, but tag %s exists", t, tag,
		last);
}

/* The committed export of turn t, parsed, its bytes in bytes. */
static int read_turn_export(struct verify *v, int t, const char *tag, const char *path,
	struct buf *bytes, struct journal_record **ex)
{
	struct diag d;
	int rc;

	diag_init(&d);
	rc = audit_read_export(ex, v->c, t, bytes, &d);
	if (rc == ERROR_NOTFOUND)
		error_set(ERROR_INPUT, "turn %d: %s is missing from %s", t, path, tag);
	else if (rc < 0 && diag_count(&d))
		error_set(ERROR_INPUT, "turn %d: %s cannot be read: %s:%d:%d: %s", t, path,
			d.v[0].file, d.v[0].line, d.v[0].column, d.v[0].message);
	else if (rc == 0 && (*ex)->turn != t)
		rc = error_set(ERROR_INPUT, "turn %d: %s is the export of turn %d", t, path,
			(*ex)->turn);
	diag_release(&d);
	return rc < 0 ? -1 : 0;
}

/* entropy beacon: the round the close named is the campaign beacon's (round_at = genesis +
 * (round - 1) * period), and either the first one out beacon_delay after the close or one
 * out strictly after it (close --beacon-round): its value cannot have been known at the
 * close. */
static int check_close_round(const struct verify *v, int t, const char *path,
	const struct close_record *r)
{
	long long want = close_round_at(v->c, r->round);
	long long first = close_first_round(v->c, r->closed_at + v->c->beacon_delay);

	if (r->round_at != want)
		return error_set(ERROR_INPUT,
			"turn %d: %s: beacon round %lld is out at %lld (genesis %lld, period %lld), not at %lld",
			t, path, r->round, want, v->c->beacon_genesis, v->c->beacon_period,
			r->round_at);
	if (r->round != first && r->round_at <= r->closed_at)
		return error_set(ERROR_INPUT,
			"turn %d: %s: beacon round %lld is out at %lld, not after the close (%lld): its value may have been known at the close (round %lld, the first %lld seconds after it, expected)",
			t, path, r->round, r->round_at, r->closed_at, first, v->c->beacon_delay);
	return 0;
}

/* Turn t's close: tag close-t is main's commit just before the turn's, a commit of exactly
 * the close file in its canonical form on the turn before, with the message its content
 * gives; the file is unchanged at main. What it fixed against the turn itself (digest,
 * hashes, round, reveals) is checked by the pipeline's closed, close and randomness steps
 * when audit_resolve re-runs the turn. */
static int check_close(struct verify *v, int t, struct close_record *keep)
{
	char tag[LAYOUT_TAG_MAX], prev[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX], id[41];
	char rebuilt[41], what[160];
	struct buf msg = BUF_INIT, bytes = BUF_INIT, canon = BUF_INIT;
	struct close_record r;
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
	if (r.entropy == CAMPAIGN_ENTROPY_BEACON && check_close_round(v, t, path, &r) < 0)
		goto done;
	close_summary(what, sizeof what, &r);
	layout_close_message(&msg, t, what, r.digest, v->c->commitment);
	struct file f = { path, (unsigned char *)bytes.data, bytes.len };
	if (repo_commit_time(v->c->repo, tag, &when) != 0 ||
		repo_rebuild_id(v->c->repo, prev, &f, 1, buf_str(&msg), when, rebuilt) < 0)
		error_set(ERROR_INPUT, "turn %d: cannot rebuild the close commit %s: %s", t, tag,
			error_last()->message);
	else if (strcmp(rebuilt, id) != 0)
		error_set(ERROR_INPUT,
			"turn %d: %s is commit %s, but the close rebuilds to %s: it holds other files, another message or another parent than the close's",
			t, tag, id, rebuilt);
	else
		rc = same_at_main(v, t, tag, path);
done:
	if (rc == 0 && keep)
		*keep = r; /* the caller's now */
	else
		close_release(&r);
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
	size_t n = layout_sealed_turn_files(&paths, t);
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

/* A sealed turn before the reveal: what the clone can prove without the withheld files. */
static int verify_sealed_turn(struct verify *v, int t)
{
	struct journal_record *ex = NULL;
	struct buf bytes = BUF_INIT;
	char tag[LAYOUT_TAG_MAX], parent[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX], tag_id[41];
	uint8_t head[FAIR_HASH_BYTES];
	struct close_record close = { 0 };
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
		check_unchanged(v, t, tag))
		goto done;
	v->dice += ex->n_dice;
	say(v, "turn %d: ok: %skey, salted digest, %sseed, %zu %s, chain, commit, history; sealed: not re-resolved until the reveal\n",
		t, v->closes ? "close, " : "",
		v->c->entropy == CAMPAIGN_ENTROPY_BEACON  ? "beacon round, " :
		v->c->entropy == CAMPAIGN_ENTROPY_PLAYERS ? "reveals, " :
							    "",
		ex->n_dice, ex->n_dice == 1 ? "die" : "dice");
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
static int check_revealed_views(struct verify *v, int t, const struct journal_record *ex)
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
static int check_revealed_state(struct verify *v, int t, const void *state)
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
static int check_reveal_commit(struct verify *v, int last)
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
static int find_reveal(struct verify *v)
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

/* One turn: fairness and re-resolution from the export, then chain, history, journal. */
static int verify_turn(struct verify *v, int t)
{
	struct journal_record *ex = NULL;
	struct buf bytes = BUF_INIT;
	struct audit_turn at;
	char tag[LAYOUT_TAG_MAX], prev[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX], tag_id[41];
	uint8_t head[FAIR_HASH_BYTES];
	void *state = NULL;
	int last = 0, rc = -1;

	memset(&at, 0, sizeof(at));
	layout_tag(tag, t);
	layout_tag(prev, t - 1);
	layout_entry_path(path, t);
	if (check_tag_exists(v, t, tag) < 0 || read_turn_export(v, t, tag, path, &bytes, &ex) < 0)
		goto done;
	/* Each turn starts from the committed state of the one before, which the previous
	 * iteration proved to be what that turn produced: exactly what `umpire turn` loads. */
	if (turn_load_whole_state(v->c, t - 1, &last, &state) < 0) {
		error_set(ERROR_INPUT, "turn %d: the committed state.yaml of %s cannot be loaded",
			t, prev);
		goto done;
	}
	if (last != t - 1) {
		error_set(ERROR_INPUT, "turn %d: state.yaml at %s is the state after turn %d", t,
			prev, last);
		goto done;
	}
	char parent[LAYOUT_TAG_MAX];
	if (v->closes)
		layout_close_tag(parent, t);
	else
		memcpy(parent, prev, sizeof parent);
	if ((v->closes && check_close(v, t, NULL) < 0) ||
		audit_resolve(&at, v->c, state, tag, ex, AUDIT_EXPORT) < 0 ||
		check_trailers(v, t, tag, path, &bytes, head) ||
		check_position(v, t, tag, tag_id) ||
		check_commit_id(v, t, tag, parent, tag_id, head, &at) ||
		check_unchanged(v, t, tag) ||
		(v->revealed && (check_revealed_state(v, t, state) < 0 ||
					check_revealed_views(v, t, ex) < 0)))
		goto done;
	if (v->c->journal && check_journal(v, t, tag, tag_id, head, &at, ex, NULL))
		goto done;
	v->dice += at.t.out.dice.n;
	say(v, "turn %d: ok: %skey, digest, %sseed, %zu %s, state, chain, commit id, history%s\n",
		t, v->closes ? "close, " : "",
		v->c->entropy == CAMPAIGN_ENTROPY_BEACON  ? "beacon round, " :
		v->c->entropy == CAMPAIGN_ENTROPY_PLAYERS ? "reveals, " :
							    "",
		at.t.out.dice.n, at.t.out.dice.n == 1 ? "die" : "dice",
		v->c->journal ? ", journal" : "");
	rc = 0;
done:
	audit_turn_release(&at);
	if (state)
		v->c->rules->state_free(state);
	journal_record_free(ex);
	buf_release(&bytes);
	return rc;
}

/* The commitment is the one published at setup, whatever a later commit says. */
/* --commitment and --setup: the values the umpire announced out of band at init, against
 * the Setup as this clone holds it (a rewritten Setup with a rebuilt chain differs). */
static int check_pins(const struct verify *v, const struct buf *camp)
{
	char hex[65];
	uint8_t h[FAIR_HASH_BYTES];

	hex_encode(hex, v->c->commitment, FAIR_HASH_BYTES);
	if (v->pin_commitment && strcasecmp(v->pin_commitment, hex) != 0)
		return error_set(ERROR_INPUT,
			"setup: the commitment is %s, not the %s announced (--commitment): the Setup was rewritten",
			hex, v->pin_commitment);
	fair_sha256(h, camp->data, camp->len);
	hex_encode(hex, h, FAIR_HASH_BYTES);
	if (v->pin_setup && strcasecmp(v->pin_setup, hex) != 0)
		return error_set(ERROR_INPUT,
			"setup: campaign.yaml hashes to %s, not the %s announced (--setup): the Setup was rewritten",
			hex, v->pin_setup);
	return 0;
}

static int read_setup_campaign(struct verify *v)
{
	struct buf camp = BUF_INIT;
	struct diag d;
	char tag[LAYOUT_TAG_MAX];
	int rc = 0;

	diag_init(&d);
	layout_tag(tag, 0);
	if (repo_read(v->c->repo, tag, LAYOUT_CAMPAIGN, &camp) != 0 ||
		campaign_parse(v->c, LAYOUT_CAMPAIGN " (" LAYOUT_TAG_PREFIX "0000)", &camp, &d) <
			0) {
		diag_print(&d, stderr);
		rc = error_set(ERROR_INPUT, "the campaign.yaml of %s cannot be read", tag);
	} else {
		rc = check_pins(v, &camp);
	}
	diag_release(&d);
	buf_release(&camp);
	return rc;
}

/* The head this clone last verified (refs/umpire/verified) must still be on main: a
 * history rewritten and force-pushed since fails here, naming both commits. */
static int check_remembered(struct verify *v)
{
	char pinned[41];

	if (repo_commit_id(v->c->repo, VERIFIED_REF, pinned) != 0)
		return 0;
	for (size_t i = 0; i < v->n_chain; i++)
		if (strcmp(v->chain[i], pinned) == 0)
			return 0;
	return error_set(ERROR_INPUT,
		"history: this clone last verified main at commit %s (" VERIFIED_REF
		"), which main's history (now at %s) no longer contains: the history was rewritten since; keep this clone and ask the umpire why",
		pinned, v->chain[v->n_chain - 1]);
}

/* Each --receipt against the history: its close commit is the close-NNNN on main, and the
 * close fixed the same file hash and D_t. */
static int check_receipt(struct verify *v, const char *path)
{
	struct buf bytes = BUF_INIT;
	struct close_receipt rc_;
	struct close_record r;
	struct diag d;
	char id[41], hex[65], want[65];
	int rc = -1;

	diag_init(&d);
	memset(&r, 0, sizeof r);
	if (file_read(path, 64 * 1024, &bytes) < 0 ||
		close_receipt_parse(&rc_, path, &bytes, &d) < 0) {
		if (diag_count(&d))
			error_set(ERROR_INPUT, "%s:%d:%d: %s", d.v[0].file, d.v[0].line,
				d.v[0].column, d.v[0].message);
		else
			error_set(ERROR_INPUT, "%s", error_last()->message);
		goto out;
	}
	if (strcmp(rc_.campaign, v->c->id) != 0) {
		error_set(ERROR_INPUT, "receipt %s is for campaign '%s', not '%s'", path,
			rc_.campaign, v->c->id);
		goto done;
	}
	int got = turn_read_close(v->c, rc_.turn, &r, id, NULL);
	if (got != 0) {
		error_set(ERROR_INPUT,
			"receipt %s: turn %d was closed in commit %s, but the history has no close-%04d: the history was rewritten",
			path, rc_.turn, rc_.close_commit, rc_.turn);
		goto done;
	}
	const struct close_order *o = close_find(&r, rc_.player);
	uint8_t zero[FAIR_HASH_BYTES] = { 0 };
	hex_encode(hex, rc_.orders_sha256, FAIR_HASH_BYTES);
	hex_encode(want, o ? o->sha256 : zero, FAIR_HASH_BYTES);
	if (strcmp(id, rc_.close_commit) != 0)
		error_set(ERROR_INPUT,
			"receipt %s: turn %d was closed in commit %s, but the history's close-%04d is commit %s: the history was rewritten",
			path, rc_.turn, rc_.close_commit, rc_.turn, id);
	else if (strcmp(hex, want) != 0 || memcmp(r.digest, rc_.digest, FAIR_HASH_BYTES) != 0)
		error_set(ERROR_INPUT,
			"receipt %s: %s's file for turn %d has sha256 %s on the receipt, %s in the close",
			path, rc_.player, rc_.turn, hex, want);
	else
		rc = 0;
	if (rc == 0)
		say(v, "receipt %s: ok: %s's orders for turn %d are the ones closed in %s\n", path,
			rc_.player, rc_.turn, id);
done:
	close_release(&r);
	close_receipt_release(&rc_);
out:
	diag_release(&d);
	buf_release(&bytes);
	return rc;
}

/* An item of a player's view (report.md, state.yaml): its salt and salted commitment. */
struct view_item {
	const char *file;  /* its name in the outbox */
	const char *label; /* its key prefix in salt.yaml and the export ("report", "state") */
	uint8_t salt[FAIR_HASH_BYTES];
	uint8_t sha256[FAIR_HASH_BYTES];
};

/* The views entry of a player's salt.yaml: the salts and commitments of his report and view
 * of the state (items[0] report, items[1] state). 0, or -1 when it is not one. */
static int read_view_items(const struct node *root, struct view_item items[2], struct diag *d)
{
	const struct node *v = node_get(root, "views"), *e;
	const char *s;

	if (!v || v->kind != NODE_SEQ || v->n != 1)
		return -1;
	e = v->items[0];
	for (int i = 0; i < 2; i++) {
		char *ks = xasprintf("%s_salt", items[i].label);
		char *kh = xasprintf("%s_sha256", items[i].label);
		int rc = node_want_str(node_get(e, ks), ks, 64, &s, d) < 0 ||
					 hex_decode(items[i].salt, FAIR_HASH_BYTES, s) < 0 ||
					 node_want_str(node_get(e, kh), kh, 64, &s, d) < 0 ||
					 hex_decode(items[i].sha256, FAIR_HASH_BYTES, s) < 0 ?
				 -1 :
				 0;
		free(ks);
		free(kh);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* A view's salt.yaml: campaign, turn, the one entry's player, salt and salted hash, and the
 * salts and commitments of his report and view (items). */
static int read_view_salt(const char *path, const struct campaign *c, int *turn, char **player,
	int *sent, uint8_t salt[FAIR_HASH_BYTES], uint8_t h[FAIR_HASH_BYTES],
	struct view_item items[2])
{
	struct buf bytes = BUF_INIT;
	struct node *root = NULL;
	struct diag d;
	const struct node *v, *e;
	const char *s, *cid = NULL, *sa = NULL, *hh = NULL;
	long long t = 0;
	int rc = -1;

	diag_init(&d);
	if (file_read(path, 64 * 1024, &bytes) < 0 ||
		node_parse(&root, path, bytes.data, bytes.len, NULL, &d) < 0 ||
		node_want_str(node_get(root, "campaign"), "campaign", 64, &cid, &d) < 0 ||
		node_want_int(node_get(root, "turn"), "turn", 1, TURN_MAX, &t, &d) < 0 ||
		node_want_str(node_get(root, "player"), "player", 64, &s, &d) < 0 ||
		!(v = node_get(root, "salts")) || v->kind != NODE_SEQ || v->n > 1 ||
		(v->n == 1 &&
			(node_want_str(node_get((e = v->items[0]), "salt"), "salt", 64, &sa, &d) <
					0 ||
				node_want_str(node_get(e, "sha256"), "sha256", 64, &hh, &d) < 0 ||
				hex_decode(salt, FAIR_HASH_BYTES, sa) < 0 ||
				hex_decode(h, FAIR_HASH_BYTES, hh) < 0)) ||
		read_view_items(root, items, &d) < 0)
		error_set(ERROR_INPUT,
			"view: %s is not a player's salt.yaml (campaign, turn, player, at most one salt, his views entry expected)",
			path);
	else if (strcmp(cid, c->id) != 0)
		error_set(ERROR_INPUT, "view: %s is for campaign '%s', not '%s'", path, cid, c->id);
	else {
		*turn = (int)t;
		*player = xstrdup(s);
		*sent = v->n == 1;
		rc = 0;
	}
	node_free(root);
	diag_release(&d);
	buf_release(&bytes);
	return rc;
}

/* His report and view of the state (items) in dir open the commitments the export ex holds
 * for player: the salt.yaml's, which must be the export's. */
static int check_view_items(const char *dir, const char *player, int turn, const char *epath,
	const struct journal_record *ex, struct view_item items[2])
{
	const struct journal_view *jv = NULL;
	struct buf b = BUF_INIT;
	uint8_t got[FAIR_HASH_BYTES] = { 0 };
	int rc = 0;

	for (size_t i = 0; i < ex->n_views; i++)
		if (strcmp(ex->views[i].player, player) == 0)
			jv = &ex->views[i];
	if (!jv)
		return error_set(ERROR_INPUT, "view %s: %s lists no view of %s for turn %d", dir,
			epath, player, turn);
	for (int i = 0; rc == 0 && i < 2; i++) {
		const uint8_t *want = i == 0 ? jv->report_sha256 : jv->state_sha256;
		char *path = xasprintf("%s/%s", dir, items[i].file);
		buf_clear(&b);
		if (memcmp(want, items[i].sha256, FAIR_HASH_BYTES) != 0)
			rc = error_set(ERROR_INPUT,
				"view %s: the salted hash of %s's %s for turn %d is not the one %s holds",
				dir, player, items[i].file, turn, epath);
		else if (file_read(path, 64 * 1024 * 1024, &b) < 0)
			rc = error_prefix("view %s", dir);
		if (rc == 0)
			fair_sealed_hash(got, items[i].salt, b.data ? b.data : "", b.len);
		if (rc == 0 && memcmp(got, want, FAIR_HASH_BYTES) != 0)
			rc = error_set(ERROR_INPUT,
				"view %s: %s does not open the commitment %s holds for %s's %s of turn %d: not the one the umpire committed to",
				dir, path, epath, player, items[i].label, turn);
		free(path);
	}
	buf_release(&b);
	return rc;
}

/* After the reveal: his view of the state in vpath is the rule system's view for player of
 * the revealed whole state of turn. */
static int check_view_revealed(struct verify *v, const char *dir, const char *vpath,
	const char *player, int turn)
{
	struct buf want = BUF_INIT, file = BUF_INIT;
	void *whole = NULL;
	int n = 0, rc = 0;

	if (turn_load_whole_state(v->c, turn, &n, &whole) < 0 ||
		campaign_emit_state(v->c, turn, whole, player, &want) < 0 ||
		file_read(vpath, 64 * 1024 * 1024, &file) < 0 || file.len != want.len ||
		memcmp(file.data, want.data, want.len) != 0)
		rc = error_set(ERROR_INPUT,
			"view %s: %s is not %s's view of the whole state the reveal publishes for turn %d",
			dir, vpath, player, turn);
	if (whole)
		v->c->rules->state_free(whole);
	buf_release(&want);
	buf_release(&file);
	return rc;
}

/* --view DIR: a player's outbox of one sealed turn against the clone. His salted hash is the
 * one the export (and so D_t) holds; his own file, when DIR has it (orders.yaml), opens it;
 * his report and view of the state open the commitments the export holds for them; after the
 * reveal his view of the state is also the rule system's view of the revealed whole state. */
static int check_view(struct verify *v, const char *dir)
{
	char *spath = xasprintf("%s/salt.yaml", dir), *opath = xasprintf("%s/orders.yaml", dir);
	char *vpath = xasprintf("%s/" LAYOUT_STATE, dir), *player = NULL;
	struct buf ex_bytes = BUF_INIT, file = BUF_INIT;
	struct journal_record *ex = NULL;
	struct view_item items[2] = { { "report.md", "report", { 0 }, { 0 } },
		{ LAYOUT_STATE, "state", { 0 }, { 0 } } };
	uint8_t salt[FAIR_HASH_BYTES], h[FAIR_HASH_BYTES], got[FAIR_HASH_BYTES];
	char tag[LAYOUT_TAG_MAX], epath[LAYOUT_PATH_MAX];
	int turn = 0, rc = -1, opened = 0, sent = 0;

	if (read_view_salt(spath, v->c, &turn, &player, &sent, salt, h, items) < 0)
		goto done;
	layout_tag(tag, turn);
	layout_export_path(epath, turn);
	if (read_turn_export(v, turn, tag, epath, &ex_bytes, &ex) < 0)
		goto done;
	const struct journal_order *o = journal_record_order(ex, player);
	if (!o || o->has_file != sent || (sent && memcmp(o->sha256, h, FAIR_HASH_BYTES) != 0)) {
		error_set(ERROR_INPUT,
			"view %s: %s's salted hash for turn %d is not the one %s holds", dir,
			player, turn, epath);
		goto done;
	}
	if (file_read(opath, ORDER_FILE_MAX_BYTES, &file) == 0) {
		fair_sealed_hash(got, salt, file.data ? file.data : "", file.len);
		if (memcmp(got, h, FAIR_HASH_BYTES) != 0) {
			error_set(ERROR_INPUT,
				"view %s: the salt does not open the commitment with orders.yaml: not the file %s sent for turn %d",
				dir, player, turn);
			goto done;
		}
		opened = 1;
	}
	if (check_view_items(dir, player, turn, epath, ex, items) < 0 ||
		(v->revealed && check_view_revealed(v, dir, vpath, player, turn) < 0))
		goto done;
	say(v, "view %s: ok: %s's orders for turn %d are the ones committed (%s in %s)%s; his report and view of the state open the commitments there%s\n",
		dir, player, turn, sent ? "salted hash" : "none sent", epath,
		opened ? ", his file opens it" : "",
		v->revealed ? ", and his view is the revealed state's" : "");
	rc = 0;
done:
	journal_record_free(ex);
	buf_release(&ex_bytes);
	buf_release(&file);
	free(player);
	free(spath);
	free(opath);
	free(vpath);
	return rc;
}

/* Tags past main's end that lead back to it (first parents, a bounded walk): a publish that
 * pushed the tags and has not moved main yet (docs/formats.md, Publishing), or a main moved
 * back with nothing built on it yet. In a player's clone (no journal) main is verified alone,
 * and the player told both; the remembered head (refs/umpire/verified) still catches a main
 * moved back behind what he has verified. 1 when so, 0 when not (the tags are then checked
 * against main as usual). */
static int tags_ahead_of_main(struct verify *v, int on_main)
{
	char id[41], tag[LAYOUT_TAG_MAX], rev[64];
	const char *tip = v->chain[v->n_chain - 1];

	if (v->last_tag <= on_main || v->c->journal) /* the umpire's own copy is never so */
		return 0;
	layout_tag(tag, v->last_tag);
	if (repo_commit_id(v->c->repo, tag, id) != 0)
		return 0;
	for (int steps = 2 * (v->last_tag - on_main) + 2; steps > 0; steps--) {
		if (strcmp(id, tip) == 0) {
			say(v,
				"note: tags turn-%04d to %s are ahead of main, which ends at turn %d "
				"(commit %s) and leads to them: a publish that has not finished (the "
				"tags went first; the umpire's next 'umpire publish' moves main), or "
				"main moved back; verified up to main's end, fetch again later\n",
				on_main + 1, tag, on_main, tip);
			return 1;
		}
		snprintf(rev, sizeof(rev), "%s^1", id);
		if (repo_commit_id(v->c->repo, rev, id) != 0)
			break;
	}
	error_clear();
	return 0;
}

/* Every turn in order; the first failure stops it. */
static int verify_turns(struct verify *v, int *last)
{
	if (read_history(v) < 0 || check_remembered(v) < 0 || find_reveal(v) < 0)
		return -1;
	v->closes = v->c->entropy != CAMPAIGN_ENTROPY_NONE;
	v->sealed = v->c->visibility == CAMPAIGN_SEALED && !v->revealed;
	size_t after = v->n_chain - 1;
	int on_main = (int)(v->closes ? after / 2 : after);
	*last = v->last_tag > on_main && !tags_ahead_of_main(v, on_main) ? v->last_tag : on_main;
	int res = verify_setup(v);
	for (int t = 1; res == 0 && t <= *last; t++) {
		if (v->progress)
			fprintf(stderr, "\r\033[Kverifying turn %d/%d", t, *last);
		res = v->sealed ? verify_sealed_turn(v, t) : verify_turn(v, t);
	}
	/* A turn closed and not yet resolved: its close alone. */
	if (res == 0 && v->closes && after % 2 == 1 && (size_t)*last == after / 2) {
		res = check_close(v, *last + 1, NULL);
		if (res == 0)
			say(v, "turn %d: ok: closed (close-%04d), awaiting its randomness\n",
				*last + 1, *last + 1);
	}
	if (v->progress)
		fputs("\r\033[K", stderr);
	if (res == 0 && v->revealed)
		res = check_reveal_commit(v, *last);
	if (v->revealed)
		v->n_chain++; /* the head to remember is the reveal */
	if (res == 0 && v->c->journal && v->last_journal > *last)
		res = error_set(ERROR_INPUT,
			"journal: the journal has turn %d, but git ends at turn %d: extra journal "
			"turns (a turn git never finished, or deleted tags; 'umpire turn' finishes one)",
			v->last_journal, *last);
	return res;
}

/* What the beacon's rounds prove, after a verify that passed: each turn's signature was
 * checked (audit_fairness) under the key campaign.yaml names, which is drand's own for a
 * chain umpire knows; a demo beacon proves nothing; a beacon without a key is checked by
 * hand. */
static void say_beacon(struct verify *v)
{
	const struct beacon_chain *known = beacon_chain_find(v->c->beacon_chain);

	if (!v->c->beacon_key)
		say(v,
			"note: check each turn's beacon_round and beacon_value in journal/ against "
			"the source: %s (campaign.yaml names no public key for it, so its values "
			"are not signed)\n",
			v->c->beacon);
	else if (v->c->beacon_demo)
		say(v, "note: demo beacon: every turn's round signature was checked, but the demo "
		       "beacon's secret key is published with umpire, so anyone could sign any of its "
		       "rounds: these dice prove nothing about fairness\n");
	else if (known)
		say(v,
			"beacon: every turn's round is signed by %s (chain %s): BLS signatures "
			"checked under its public key\n",
			known->name, known->hash);
	else
		say(v,
			"beacon: every turn's round signature checked under the public key campaign.yaml "
			"names for chain %s\n"
			"note: umpire does not know chain %s: check that its public key in campaign.yaml "
			"(%s) is the network's (its /info)\n",
			v->c->beacon_chain, v->c->beacon_chain, v->c->beacon_key);
}

static int verify_campaign(struct verify *v)
{
	char tag[LAYOUT_TAG_MAX];
	int last = 0;

	layout_tag(tag, 0);
	if (read_tags(v) < 0)
		return cmd_error("umpire");
	if (!repo_has(v->c->repo, tag)) {
		fprintf(stderr,
			"umpire: '%s' has no tag %s: not an umpire campaign (or a clone "
			"without its tags: git fetch --tags)\n",
			v->c->dir, tag);
		return EXIT_NOINPUT;
	}
	if (read_setup_campaign(v) < 0) {
		if (error_last()->klass != ERROR_INPUT ||
			!strstr(error_last()->message, "announced"))
			return cmd_error("umpire");
		say(v, "verify: FAILED: %s\n", error_last()->message);
		return EXIT_DATAERR;
	}
	v->last_journal = -1;
	if (v->c->journal && journal_last_turn(v->c->journal, &v->last_journal) < 0)
		return cmd_error("umpire");
	int bad = verify_turns(v, &last);
	for (size_t i = 0; bad == 0 && i < v->n_receipts; i++)
		bad = check_receipt(v, v->receipts[i]);
	for (size_t i = 0; bad == 0 && i < v->n_views; i++)
		bad = check_view(v, v->views[i]);
	if (bad < 0) {
		if (error_last()->klass != ERROR_INPUT)
			return cmd_error("umpire");
		say(v, "verify: FAILED: %s\n", error_last()->message);
		return EXIT_DATAERR;
	}
	if (repo_set_ref(v->c->repo, VERIFIED_REF, v->chain[v->n_chain - 1]) < 0)
		fprintf(stderr,
			"umpire: note: cannot remember the head verified (%s): a later rewrite of this history will not be caught here\n",
			error_last()->message);
	if (v->sealed)
		say(v,
			"verify: ok: campaign %s (sealed, not yet revealed): %d turn%s, %zu dice: every key chains to the commitment, "
			"every D_t follows from the salted hashes, every die from its seed, every commit holds only the public files\n"
			"not checked yet: that each turn's withheld orders re-resolve to its state and reports (after 'umpire reveal')\n",
			v->c->id, last, last == 1 ? "" : "s", v->dice);
	else
		say(v,
			"verify: ok: campaign %s: %d turn%s, %zu dice: every key chains to the commitment, "
			"every die follows from its seed, every turn re-resolves to its commit%s\n",
			v->c->id, last, last == 1 ? "" : "s", v->dice,
			v->c->journal ? ", and the SQLite journal matches git" : "");
	if (v->c->entropy == CAMPAIGN_ENTROPY_NONE)
		say(v, "note: entropy none: the umpire knew every turn key before the orders "
		       "arrived and could have chosen among outcomes\n");
	else if (v->c->entropy == CAMPAIGN_ENTROPY_BEACON)
		say_beacon(v);
	if (!v->c->fair)
		say(v, "note: campaign.yaml says fair: false (set up from a --secret-file): whoever "
		       "wrote that file could compute every die in advance\n");
	return EXIT_OK;
}

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "commitment", required_argument, NULL, 'c' },
		{ "setup", required_argument, NULL, 's' },
		{ "receipt", required_argument, NULL, 'r' },
		{ "view", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pins[2] = { NULL, NULL };
	const char **receipts = xcalloc((size_t)argc + 1, sizeof(char *));
	const char **views = xcalloc((size_t)argc + 1, sizeof(char *));
	size_t n_receipts = 0, n_views = 0;
	int ch;
	cmd_keep_heap();
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(verify_help, stdout);
			free(receipts);
			free(views);
			return EXIT_OK;
		}
		if (ch == 'r') {
			receipts[n_receipts++] = optarg;
			continue;
		}
		if (ch == 'v') {
			views[n_views++] = optarg;
			continue;
		}
		if ((ch != 'c' && ch != 's') || strlen(optarg) != 64 ||
			strspn(optarg, "0123456789abcdefABCDEF") != 64) {
			if (ch == 'c' || ch == 's')
				fprintf(stderr, "umpire: --%s takes 64 hex digits\n",
					ch == 'c' ? "commitment" : "setup");
			fputs(verify_help, stderr);
			free(receipts);
			free(views);
			return EXIT_USAGE;
		}
		pins[ch == 's'] = optarg;
	}
	if (argc - optind != 1) {
		fputs(verify_help, stderr);
		free(receipts);
		free(views);
		return EXIT_USAGE;
	}
	const char *dir = argv[optind];
	char *jpath = xasprintf("%s/.umpire/journal.sqlite", dir);
	struct stat st;
	unsigned flags = stat(jpath, &st) == 0 ? CAMPAIGN_READ_LOCK | CAMPAIGN_JOURNAL : 0;
	free(jpath);

	struct verify v;
	memset(&v, 0, sizeof(v));
	v.pin_commitment = pins[0];
	v.pin_setup = pins[1];
	v.receipts = receipts;
	v.n_receipts = n_receipts;
	v.views = views;
	v.n_views = n_views;
	if (campaign_open(&v.c, dir, flags) < 0) {
		free(receipts);
		free(views);
		return cmd_error("umpire");
	}
	v.progress = isatty(STDERR_FILENO);
	int rc = verify_campaign(&v);
	free(receipts);
	free(views);
	free(v.chain);
	campaign_close(v.c);
	return rc;
}
