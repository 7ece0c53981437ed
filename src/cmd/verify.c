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
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/audit.h"
#include "core/fair.h"
#include "core/banned.h"

#define MAIN_REF "refs/heads/main"

static const char verify_help[] =
	"usage: umpire verify DIR\n\n"
	"Checks the campaign in DIR, which may be a plain 'git clone' (no .umpire/, no secret):\n"
	"for every tag turn-NNNN in order, the revealed key against the commitment, the orders\n"
	"digest against the committed order files, the seed, every die, the journal hash chain\n"
	"against the commit trailers (Turn, Journal-Head, Commitment), that main is linear with\n"
	"one commit per turn and tag turn-N on its N-th commit after Setup, and that the turn,\n"
	"re-resolved through the same code 'umpire turn' runs, gives the committed state.yaml,\n"
	"journal export and reports byte for byte. On the umpire's own copy (with\n"
	".umpire/journal.sqlite) every journal row is also checked against git and back.\n\n"
	"Prints one line per turn and a verdict. Exit 0 when everything verifies, 65 at the first\n"
	"broken item (named: turn, die index or file), 66 when DIR is not a campaign.\n";

struct verify {
	struct campaign *c;
	char (*chain)[41];       /* main's commits, Setup first */
	size_t n_chain;
	int last_tag;            /* the highest turn-NNNN tag, -1 none */
	int last_journal;        /* the journal's last turn; -1 empty or no journal */
	uint8_t head[32];        /* the journal hash chain up to the turn being checked */
	size_t dice;             /* dice checked in all turns */
	int progress;            /* stderr is a terminal: show "verifying turn t/n" */
	struct buf why;          /* the first failure */
};

static void failed(struct verify *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failed(struct verify *v, const char *fmt, ...)
{
	va_list ap;

	buf_clear(&v->why);
	va_start(ap, fmt);
	buf_vprintf(&v->why, fmt, ap);
	va_end(ap);
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
	struct buf err = BUF_INIT, subject = BUF_INIT;
	char id[41], rev[64];
	size_t cap = 0;
	int rc = -1;

	int r = repo_commit_id(v->c->repo, MAIN_REF, id, &err);
	if (r != 0) {
		if (r > 0) {
			failed(v, "turn 0: the repository has no branch main");
			rc = 1;
		} else {
			fprintf(stderr, "umpire: %s\n", buf_str(&err));
		}
		goto done;
	}
	for (;;) {
		if (v->n_chain == cap) {
			cap = cap ? 2 * cap : 64;
			v->chain = xrealloc(v->chain, cap * sizeof(*v->chain));
		}
		memcpy(v->chain[v->n_chain++], id, 41);
		snprintf(rev, sizeof(rev), "%s^2", id);
		if (repo_has(v->c->repo, rev)) {
			repo_subject(v->c->repo, id, &subject, &err);
			failed(v, "history: main's commit %s (\"%s\") is a merge: the history must be "
				"linear, one commit per turn", id, buf_str(&subject));
			rc = 1;
			goto done;
		}
		snprintf(rev, sizeof(rev), "%s^1", id);
		r = repo_commit_id(v->c->repo, rev, id, &err);
		if (r > 0)
			break;
		if (r < 0) {
			fprintf(stderr, "umpire: %s\n", buf_str(&err));
			goto done;
		}
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
	buf_release(&err);
	return rc;
}

static int read_tags(struct verify *v)
{
	struct buf err = BUF_INIT;
	char **names = NULL;

	v->last_tag = -1;
	if (repo_tags(v->c->repo, "turn-", &names, &err) < 0) {
		fprintf(stderr, "umpire: %s\n", buf_str(&err));
		buf_release(&err);
		return -1;
	}
	for (size_t i = 0; names[i]; i++) {
		const char *p = names[i] + 5;
		char *end;
		long n = strtol(p, &end, 10);
		if (strlen(p) >= 4 && *end == '\0' && p[0] != '-' && p[0] != '+' && n >= 0 &&
			n < 1000000 && n > v->last_tag)
			v->last_tag = (int)n;
	}
	repo_names_free(names);
	buf_release(&err);
	return 0;
}

/* The value of the last "Key: value" trailer line of message, or NULL. */
static char *trailer(const char *message, const char *key)
{
	size_t klen = strlen(key);
	char *found = NULL;

	for (const char *p = message; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (len > klen + 1 && strncmp(p, key, klen) == 0 && p[klen] == ':' && p[klen + 1] == ' ') {
			free(found);
			found = xasprintf("%.*s", (int)(len - klen - 2), p + klen + 2);
		}
		p = eol ? eol + 1 : NULL;
	}
	return found;
}

/* The commit's trailers against the turn, the commitment and the recomputed chain head. */
static int check_trailers(struct verify *v, int t, const char *tag, const char *entry_path,
	const struct buf *entry, char head_hex[65])
{
	struct buf msg = BUF_INIT, err = BUF_INIT;
	char commitment[65], turn_s[16];
	char *tn = NULL, *jh = NULL, *cm = NULL;
	uint8_t head[32];
	int rc = 1;

	turn_chain_head(head, v->head, entry->data ? entry->data : "", entry->len);
	hex_encode(head_hex, head, 32);
	if (repo_message(v->c->repo, tag, &msg, &err) != 0) {
		failed(v, "turn %d: cannot read the message of %s: %s", t, tag, buf_str(&err));
		goto done;
	}
	tn = trailer(buf_str(&msg), "Turn");
	jh = trailer(buf_str(&msg), "Journal-Head");
	cm = trailer(buf_str(&msg), "Commitment");
	snprintf(turn_s, sizeof(turn_s), "%d", t);
	hex_encode(commitment, v->c->commitment, 32);
	if (!tn || !jh || !cm) {
		failed(v, "turn %d: the commit of %s has no %s trailer", t, tag,
			!tn ? "Turn:" : !jh ? "Journal-Head:" : "Commitment:");
		goto done;
	}
	if (strcmp(tn, turn_s) != 0) {
		failed(v, "turn %d: the commit of %s says 'Turn: %s'", t, tag, tn);
		goto done;
	}
	if (strcmp(cm, commitment) != 0) {
		failed(v, "turn %d: the commit of %s says 'Commitment: %s', campaign.yaml commits to %s",
			t, tag, cm, commitment);
		goto done;
	}
	if (strcmp(jh, head_hex) != 0) {
		failed(v, "turn %d: journal hash chain broken: SHA256(head of turn %d || %s) is %s, the "
			"commit of %s says 'Journal-Head: %s'", t, t - 1, entry_path, head_hex, tag, jh);
		goto done;
	}
	memcpy(v->head, head, 32);
	rc = 0;
done:
	free(tn);
	free(jh);
	free(cm);
	buf_release(&msg);
	buf_release(&err);
	return rc;
}

/* Tag turn-t must be main's t-th commit after Setup. */
static int check_position(struct verify *v, int t, const char *tag, char tag_id[41])
{
	struct buf err = BUF_INIT;
	int rc = 1;

	if (repo_commit_id(v->c->repo, tag, tag_id, &err) != 0) {
		failed(v, "turn %d: cannot resolve %s: %s", t, tag, buf_str(&err));
		goto done;
	}
	if ((size_t)t >= v->n_chain) {
		failed(v, "turn %d: tag %s is commit %s, which is not on main: main ends at turn %zu "
			"(commit %s): main was moved back", t, tag, tag_id, v->n_chain - 1,
			v->chain[v->n_chain - 1]);
		goto done;
	}
	if (strcmp(tag_id, v->chain[t]) != 0) {
		if (t == 0)
			failed(v, "turn 0: tag %s is commit %s, but main starts at %s: the history was "
				"rewritten or the tag moved", tag, tag_id, v->chain[0]);
		else
			failed(v, "turn %d: tag %s is commit %s, but main's %d%s commit after Setup is %s: "
				"the history was rewritten or the tag moved", t, tag, tag_id, t,
				ordinal((size_t)t), v->chain[t]);
		goto done;
	}
	rc = 0;
done:
	buf_release(&err);
	return rc;
}

/* path must be the same at main's tip as at tag: no later commit may change a turn. */
static int same_at_main(struct verify *v, int t, const char *tag, const char *path)
{
	struct buf a = BUF_INIT, b = BUF_INIT, err = BUF_INIT;
	int rc = 0;
	int ra = repo_read(v->c->repo, tag, path, &a, &err);
	int rb = repo_read(v->c->repo, MAIN_REF, path, &b, &err);

	if (ra != rb || (ra == 0 && (a.len != b.len || memcmp(a.data, b.data, a.len) != 0))) {
		failed(v, "turn %d: %s at main differs from %s: changed after the turn", t, path, tag);
		rc = 1;
	}
	buf_release(&a);
	buf_release(&b);
	buf_release(&err);
	return rc;
}

static int same_dir_at_main(struct verify *v, int t, const char *tag, const char *dir)
{
	struct buf err = BUF_INIT;
	char **at_tag = NULL, **at_main = NULL;
	char path[256];
	int rc = 0;

	if (repo_list(v->c->repo, tag, dir, &at_tag, &err) < 0 ||
		repo_list(v->c->repo, MAIN_REF, dir, &at_main, &err) < 0) {
		failed(v, "turn %d: %s", t, buf_str(&err));
		rc = 1;
		goto done;
	}
	for (size_t i = 0; rc == 0 && (at_tag[i] || at_main[i]); i++) {
		const char *name = at_tag[i] && at_main[i] ? (strcmp(at_tag[i], at_main[i]) <= 0 ?
			at_tag[i] : at_main[i]) : at_tag[i] ? at_tag[i] : at_main[i];
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		rc = same_at_main(v, t, tag, path);
	}
done:
	repo_names_free(at_tag);
	repo_names_free(at_main);
	buf_release(&err);
	return rc;
}

/* The turn's files at main's tip are the ones of its tag. */
static int check_unchanged(struct verify *v, int t, const char *tag)
{
	char path[64];

	if (t == 0)
		return same_at_main(v, 0, tag, "campaign.yaml");
	turn_entry_path(path, sizeof(path), t);
	if (same_at_main(v, t, tag, path))
		return 1;
	snprintf(path, sizeof(path), "orders/%s", tag);
	if (same_dir_at_main(v, t, tag, path))
		return 1;
	snprintf(path, sizeof(path), "reports/%s", tag);
	return same_dir_at_main(v, t, tag, path);
}

/* The journal's files rows are the blobs of the tag's commit, and every file the turn wrote
 * has a row. */
static int check_journal_files(struct verify *v, int t, const char *tag,
	const struct journal_record *jr)
{
	struct buf got = BUF_INIT, err = BUF_INIT;
	char path[64], **names = NULL;
	const char *dirs[] = { "orders", "reports" };
	int rc = 1;

	for (size_t i = 0; i < jr->n_files; i++) {
		const struct journal_file *f = &jr->files[i];
		int r = repo_read(v->c->repo, tag, f->path, &got, &err);
		if (r != 0) {
			failed(v, "turn %d: the journal's files row %s is not in the commit of %s", t, f->path,
				tag);
			goto done;
		}
		if (got.len != f->len || memcmp(got.data, f->bytes, f->len) != 0) {
			failed(v, "turn %d: the journal's files row %s differs from the blob committed at %s",
				t, f->path, tag);
			goto done;
		}
	}
	/* And back: every file of the turn has its row. */
	const char *want[2] = { "state.yaml", NULL };
	turn_entry_path(path, sizeof(path), t);
	want[1] = path;
	for (size_t k = 0; k < 2; k++) {
		int found = 0;
		for (size_t i = 0; i < jr->n_files; i++)
			found |= strcmp(jr->files[i].path, want[k]) == 0;
		if (!found) {
			failed(v, "turn %d: the journal has no files row for %s", t, want[k]);
			goto done;
		}
	}
	for (size_t d = 0; t > 0 && d < 2; d++) {
		char dir[64];
		snprintf(dir, sizeof(dir), "%s/%s", dirs[d], tag);
		repo_names_free(names);
		names = NULL;
		if (repo_list(v->c->repo, tag, dir, &names, &err) < 0) {
			failed(v, "turn %d: %s", t, buf_str(&err));
			goto done;
		}
		for (size_t n = 0; names[n]; n++) {
			char full[256];
			int found = 0;
			snprintf(full, sizeof(full), "%s/%s", dir, names[n]);
			for (size_t i = 0; i < jr->n_files; i++)
				found |= strcmp(jr->files[i].path, full) == 0;
			if (!found) {
				failed(v, "turn %d: %s is committed at %s but the journal has no files row for it",
					t, full, tag);
				goto done;
			}
		}
	}
	rc = 0;
done:
	repo_names_free(names);
	buf_release(&got);
	buf_release(&err);
	return rc;
}

static int same_opt(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The SQLite journal's turn t against git: its rows against the re-resolved turn (and so
 * against the export and the committed files), its chain head against the trailer, its
 * commit id against the tag, its files rows against the committed blobs. */
static int check_journal(struct verify *v, int t, const char *tag, const char *tag_id,
	const char *head_hex, const struct audit_turn *at, const struct journal_record *ex,
	const struct buf *state_yaml)
{
	struct journal_record *jr = NULL;
	struct buf err = BUF_INIT;
	char hex[65];
	int rc = 1;

	int r = journal_read(v->c->journal, t, &jr, &err);
	if (r < 0) {
		failed(v, "turn %d: %s", t, buf_str(&err));
		goto done;
	}
	if (r > 0) {
		failed(v, "turn %d: git has %s but the journal has no turn %d: the journal was truncated "
			"(it ends at turn %d)", t, tag, t, v->last_journal);
		goto done;
	}
	if (t > 0) {
		if (strcmp(jr->key, ex->key) != 0 || strcmp(jr->beacon, ex->beacon) != 0 ||
			!same_opt(jr->beacon_value, ex->beacon_value) ||
			!same_opt(jr->beacon_round, ex->beacon_round)) {
			failed(v, "turn %d: the journal's %s differs from journal/%s.yaml's", t,
				strcmp(jr->key, ex->key) != 0 ? "key" : strcmp(jr->beacon, ex->beacon) != 0 ?
				"beacon" : !same_opt(jr->beacon_value, ex->beacon_value) ? "beacon value" :
				"beacon round", tag);
			goto done;
		}
		if (audit_compare(at, v->c, jr, 0, &v->why) != 0)
			goto done;
	} else {
		uint8_t h[32];
		fair_sha256(h, state_yaml->data ? state_yaml->data : "", state_yaml->len);
		hex_encode(hex, h, 32);
		if (strcmp(hex, jr->state_sha256) != 0) {
			failed(v, "turn 0: the journal's state hash %s is not that of state.yaml at %s (%s)",
				jr->state_sha256, tag, hex);
			goto done;
		}
	}
	if (strcmp(jr->journal_head, head_hex) != 0) {
		failed(v, "turn %d: the journal's head %s differs from the commit trailer "
			"'Journal-Head: %s'", t, jr->journal_head, head_hex);
		goto done;
	}
	if (strcmp(jr->commit_id, tag_id) != 0) {
		failed(v, "turn %d: tag %s is commit %s, but the journal says turn %d is commit %s: the "
			"history was rewritten", t, tag, tag_id, t, jr->commit_id[0] ? jr->commit_id : "(none)");
		goto done;
	}
	if (check_journal_files(v, t, tag, jr))
		goto done;
	rc = 0;
done:
	journal_record_free(jr);
	buf_release(&err);
	return rc;
}

static int verify_setup(struct verify *v)
{
	struct buf camp = BUF_INIT, state = BUF_INIT, err = BUF_INIT;
	char head_hex[65], tag_id[41];
	int rc = 1;

	memset(v->head, 0, 32);
	if (repo_read(v->c->repo, "turn-0000", "campaign.yaml", &camp, &err) != 0 ||
		repo_read(v->c->repo, "turn-0000", "state.yaml", &state, &err) != 0) {
		failed(v, "turn 0: the setup commit turn-0000 lacks campaign.yaml or state.yaml");
		goto done;
	}
	if (check_unchanged(v, 0, "turn-0000"))
		goto done;
	if (check_trailers(v, 0, "turn-0000", "campaign.yaml", &camp, head_hex))
		goto done;
	if (check_position(v, 0, "turn-0000", tag_id))
		goto done;
	if (v->c->journal && check_journal(v, 0, "turn-0000", tag_id, head_hex, NULL, NULL, &state))
		goto done;
	say(v, "turn 0: ok: setup, chain, history%s\n", v->c->journal ? ", journal" : "");
	rc = 0;
done:
	buf_release(&camp);
	buf_release(&state);
	buf_release(&err);
	return rc;
}

/* One turn: fairness and re-resolution from the export, then chain, history, journal.
 * Returns 0, 1 failed (v->why), -1 internal error (v->why). */
/* Rebuilds the turn's commit from what the re-resolution produced (state, export, reports)
 * and the committed order files, the expected message and the commit's own time: the id
 * must be the tag's. So the commit holds exactly the turn's files and message, nothing else. */
static int check_commit_id(struct verify *v, int t, const char *tag, const char *prev,
	const char *tag_id, const char *head_hex, const struct audit_turn *at,
	const struct buf *export)
{
	struct buf msg = BUF_INIT, err = BUF_INIT;
	size_t n = 0, cap = 2 + at->in.n_files + at->out.n_reports;
	struct repo_file *files = xcalloc(cap, sizeof(*files));
	char **paths = xcalloc(cap, sizeof(char *));
	char rebuilt[41];
	long long when;
	int rc = 1;

	files[n].path = "state.yaml";
	files[n].data = at->out.state_yaml.data;
	files[n++].len = at->out.state_yaml.len;
	paths[n] = xasprintf("journal/%s.yaml", tag);
	files[n].path = paths[n];
	files[n].data = export->data;
	files[n++].len = export->len;
	for (size_t i = 0; i < at->in.n_files; i++) {
		paths[n] = xasprintf("orders/%s/%s.yaml", tag, at->in.files[i].player);
		files[n].path = paths[n];
		files[n].data = at->in.files[i].bytes;
		files[n++].len = at->in.files[i].len;
	}
	for (size_t i = 0; i < at->out.n_reports; i++) {
		paths[n] = xasprintf("reports/%s/%s.md", tag, v->c->players[i]);
		files[n].path = paths[n];
		files[n].data = at->out.reports[i].data;
		files[n++].len = at->out.reports[i].len;
	}
	turn_commit_message(&msg, v->c, t, at->out.summary, head_hex);
	if (repo_commit_time(v->c->repo, tag, &when, &err) != 0 ||
		repo_rebuild_id(v->c->repo, prev, files, n, buf_str(&msg), when, rebuilt, &err) < 0) {
		failed(v, "turn %d: cannot rebuild the commit of %s: %s", t, tag, buf_str(&err));
		goto done;
	}
	if (strcmp(rebuilt, tag_id) != 0) {
		failed(v, "turn %d: %s is commit %s, but the turn rebuilds to commit %s: the commit "
			"holds other files, another message or another parent than the turn's", t, tag,
			tag_id, rebuilt);
		goto done;
	}
	rc = 0;
done:
	for (size_t i = 0; i < cap; i++)
		free(paths[i]);
	free(paths);
	free(files);
	buf_release(&msg);
	buf_release(&err);
	return rc;
}

static int verify_turn(struct verify *v, int t)
{
	struct journal_record *ex = NULL;
	struct buf bytes = BUF_INIT, err = BUF_INIT;
	struct audit_turn at;
	struct diag d;
	char tag[16], prev[16], path[64], head_hex[65], tag_id[41];
	void *state = NULL;
	int last = 0, rc = 1;

	memset(&at, 0, sizeof(at));
	diag_init(&d);
	campaign_turn_tag(tag, t);
	campaign_turn_tag(prev, t - 1);
	turn_entry_path(path, sizeof(path), t);
	if (!repo_has(v->c->repo, tag)) {
		if ((size_t)t < v->n_chain) {
			struct buf subject = BUF_INIT;
			repo_subject(v->c->repo, v->chain[t], &subject, &err);
			failed(v, "turn %d: main's commit %s (\"%s\") is not a turn: there is no tag %s", t,
				v->chain[t], buf_str(&subject), tag);
			buf_release(&subject);
		} else {
			failed(v, "turn %d: tag %s is missing, but tag turn-%04d exists", t, tag, v->last_tag);
		}
		goto done;
	}
	int r = repo_read(v->c->repo, tag, path, &bytes, &err);
	if (r != 0) {
		failed(v, "turn %d: %s is missing from %s", t, path, tag);
		goto done;
	}
	if (audit_parse_export(&ex, v->c, path, bytes.data ? bytes.data : "", bytes.len, &d) < 0) {
		failed(v, "turn %d: %s cannot be read: %s:%d:%d: %s", t, path, d.v[0].file, d.v[0].line,
			d.v[0].column, d.v[0].message);
		goto done;
	}
	if (ex->turn != t) {
		failed(v, "turn %d: %s is the export of turn %d", t, path, ex->turn);
		goto done;
	}
	/* Each turn starts from the committed state of the one before, which the previous
	 * iteration proved to be what that turn produced: exactly what `umpire turn` loads. */
	if (campaign_load_state(v->c, prev, &last, &state) < 0) {
		failed(v, "turn %d: the committed state.yaml of %s cannot be loaded", t, prev);
		goto done;
	}
	if (last != t - 1) {
		failed(v, "turn %d: state.yaml at %s is the state after turn %d", t, prev, last);
		goto done;
	}
	rc = audit_resolve(&at, v->c, state, tag, ex, AUDIT_EXPORT, &v->why);
	if (rc != 0)
		goto done;
	rc = 1;
	if (check_trailers(v, t, tag, path, &bytes, head_hex))
		goto done;
	if (check_position(v, t, tag, tag_id))
		goto done;
	if (check_commit_id(v, t, tag, prev, tag_id, head_hex, &at, &bytes))
		goto done;
	if (check_unchanged(v, t, tag))
		goto done;
	if (v->c->journal && check_journal(v, t, tag, tag_id, head_hex, &at, ex, NULL))
		goto done;
	v->dice += at.out.dice.n;
	say(v, "turn %d: ok: key, digest, seed, %zu %s, state, chain, commit id, history%s\n", t,
		at.out.dice.n, at.out.dice.n == 1 ? "die" : "dice", v->c->journal ? ", journal" : "");
	rc = 0;
done:
	if (state)
		v->c->rules->state_free(state);
	audit_turn_release(&at, v->c);
	journal_record_free(ex);
	diag_release(&d);
	buf_release(&bytes);
	buf_release(&err);
	return rc;
}

static int verify_campaign(struct verify *v)
{
	struct buf err = BUF_INIT;
	int rc = EXIT_IOERR, res = 0, last;

	if (read_tags(v) < 0)
		goto done;
	if (!repo_has(v->c->repo, "turn-0000")) {
		fprintf(stderr, "umpire: '%s' has no tag turn-0000: not an umpire campaign (or a clone "
			"without its tags: git fetch --tags)\n", v->c->dir);
		rc = EXIT_NOINPUT;
		goto done;
	}
	/* The commitment is the one published at setup, whatever a later commit says. */
	struct buf camp = BUF_INIT;
	struct diag d;
	diag_init(&d);
	int bad = repo_read(v->c->repo, "turn-0000", "campaign.yaml", &camp, &err) != 0 ||
		campaign_parse(v->c, "campaign.yaml (turn-0000)", &camp, &d) < 0;
	if (bad) {
		diag_print(&d, stderr);
		fprintf(stderr, "umpire: the campaign.yaml of turn-0000 cannot be read\n");
		rc = EXIT_DATAERR;
	}
	diag_release(&d);
	buf_release(&camp);
	if (bad)
		goto done;
	v->last_journal = -1;
	if (v->c->journal && journal_last_turn(v->c->journal, &v->last_journal, &err) < 0) {
		fprintf(stderr, "umpire: %s\n", buf_str(&err));
		goto done;
	}
	res = read_history(v);
	if (res < 0)
		goto done;
	last = v->last_tag > (int)v->n_chain - 1 ? v->last_tag : (int)v->n_chain - 1;
	if (res == 0)
		res = verify_setup(v);
	for (int t = 1; res == 0 && t <= last; t++) {
		if (v->progress)
			fprintf(stderr, "\r\033[Kverifying turn %d/%d", t, last);
		res = verify_turn(v, t);
	}
	if (v->progress)
		fputs("\r\033[K", stderr);
	if (res == 0 && v->c->journal && v->last_journal > last) {
		failed(v, "journal: the journal has turn %d, but git ends at turn %d: extra journal "
			"turns (a turn git never finished, or deleted tags; 'umpire turn' finishes one)",
			v->last_journal, last);
		res = 1;
	}
	if (res < 0) {
		fprintf(stderr, "umpire: internal error: %s\n", buf_str(&v->why));
		rc = EXIT_SOFTWARE;
		goto done;
	}
	if (res > 0) {
		say(v, "verify: FAILED: %s\n", buf_str(&v->why));
		rc = EXIT_DATAERR;
		goto done;
	}
	say(v, "verify: ok: campaign %s: %d turn%s, %zu dice: every key chains to the commitment, "
		"every die follows from its seed, every turn re-resolves to its commit%s\n", v->c->id,
		last, last == 1 ? "" : "s", v->dice,
		v->c->journal ? ", and the SQLite journal matches git" : "");
	if (!v->c->fair)
		say(v, "note: campaign.yaml says fair: false (set up from a --secret-file): whoever "
			"wrote that file could compute every die in advance\n");
	rc = EXIT_OK;
done:
	buf_release(&err);
	return rc;
}

int cmd_verify(int argc, char **argv)
{
	int opt = cmd_options_help_only(argc, argv, verify_help);
	if (opt != EXIT_OK)
		return opt < 0 ? EXIT_OK : opt;
	if (argc - optind != 1) {
		fputs(verify_help, stderr);
		return EXIT_USAGE;
	}
	const char *dir = argv[optind];
	char *jpath = xasprintf("%s/.umpire/journal.sqlite", dir);
	struct stat st;
	unsigned flags = stat(jpath, &st) == 0 ? CAMPAIGN_LOCK | CAMPAIGN_JOURNAL : 0;
	free(jpath);

	struct verify v;
	memset(&v, 0, sizeof(v));
	int rc = campaign_open(&v.c, dir, flags);
	if (rc != EXIT_OK)
		return rc;
	v.progress = isatty(STDERR_FILENO);
	rc = verify_campaign(&v);
	free(v.chain);
	buf_release(&v.why);
	campaign_close(v.c);
	return rc;
}
