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
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/audit.h"
#include "core/beacon.h"
#include "core/close.h"
#include "core/file.h"
#include "core/fair.h"
#include "core/layout.h"
#include "core/receipt.h"
#include "mail/mail.h"
#include "core/words.h"
#include "core/render.h"
#include "core/schedule.h"
#include "core/tstamp.h"
#include "cmd/verify.h"
#include "core/banned.h"

#define VERIFIED_REF "refs/umpire/verified" /* the head this clone last verified */

static const char verify_help[] =
	"usage: umpire verify DIR [--commitment HEX] [--setup HEX] [--receipt FILE]...\n"
	"                     [--receipts-of PLAYER]... [--view DIR]... [--trust-tsa CERT]...\n"
	"                     [--trust-chain HASH:KEY]... [--full] [--json]\n\n"
	"Checks the campaign in DIR, which may be a plain 'git clone' (no .umpire/, no secret):\n"
	"for every tag turn-NNNN in order, the revealed key against the commitment, the orders\n"
	"digest against the committed order files, the seed, every die, the journal hash chain\n"
	"against the commit trailers (Turn, Journal-Head, Commitment), that main is linear with\n"
	"one commit per turn and tag turn-N on its N-th commit after Setup, and that the turn,\n"
	"re-resolved through the same code 'umpire turn' runs, gives the committed state.yaml,\n"
	"journal export and reports byte for byte. On the umpire's own copy (with\n"
	".umpire/journal.sqlite) every journal row is also checked against git and back.\n\n"
	"Prints one line per turn and a verdict (docs/fairness.md, \"The verdict\"): 'fair', exit 0:\n"
	"everything verifies and no die could have been chosen; 'consistent, not proven fair',\n"
	"exit 3: everything verifies, and each 'reason:' line says how the dice could have been\n"
	"chosen; 'failed', exit 65, at the first broken item (named: turn, die index or file).\n"
	"66 when DIR is not a campaign.\n\n"
	"  --commitment HEX  the commitment the umpire announced at init (out of band)\n"
	"  --setup HEX       the SHA-256 of the Setup's campaign.yaml 'umpire init' printed: a\n"
	"                    Setup rewritten on a fresh clone (fair: false made true, the hash\n"
	"                    chain rebuilt) passes every other check, not these\n"
	"  --receipt FILE    a receipt umpire gave, best the mail as saved (.eml): a close\n"
	"                    receipt's close commit must be the history's, with the same\n"
	"                    commitment and D_t, and the beacon round it names not yet out\n"
	"                    when the topmost Received: header says the mail arrived; a\n"
	"                    reveal receipt's nonce must be in the turn's reveals\n"
	"  --receipts-of P   the --receipt files hold every close receipt player P got: each\n"
	"                    close that names P (a file from him, or none) needs its receipt\n"
	"  --view DIR        sealed: a folder holding a player's report mail attachments of one\n"
	"                    or more turns, saved side by side (salt-NNNN.yaml, orders-NNNN.yaml,\n"
	"                    report-NNNN.md, view-NNNN.yaml), or his outbox of one turn\n"
	"                    (salt.yaml, orders.yaml, report.md, state.yaml): for each turn his\n"
	"                    salted hash is the export's, his file opens it, his report and view\n"
	"                    open the export's commitments, and after the reveal his view is the\n"
	"                    revealed state's\n"
	"  --trust-tsa CERT  a PEM certificate of a time-stamp authority to trust beside the\n"
	"                    built-in ones (those chaining to a root of Debian's\n"
	"                    ca-certificates, " TSTAMP_SYSTEM_CAS "): its\n"
	"                    root, or its own certificate; each close's token from it then\n"
	"                    witnesses the close (docs/fairness.md, \"Time stamps\")\n"
	"  --trust-chain HASH:KEY  trust beacon chain HASH with public key KEY (192 hex digits),\n"
	"                    from an announcement you trust; drand quicknet is built in\n"
	"  --json            the verdict as one JSON object instead of the text lines\n\n"
	"With closed turns (entropy beacon or players), each turn's close commit (tag close-N)\n"
	"comes just before it and is checked too. The head verified is remembered in the clone\n"
	"(" VERIFIED_REF "): a later run fails, naming both commits, when main's history no\n"
	"longer contains it. A clone (no .umpire/) that verified before checks only the turns\n"
	"after the head it remembers, once every tag of those before is where it was:\n"
	"  --full            every turn again\n\n"
	"Turns are checked on two threads (UMPIRE_VERIFY_THREADS=N: N, 1 for one), each its own\n"
	"repository and journal handle; lines and verdict are those of one thread.\n";

/* Where turn t's commit sits on main (Setup is 0): after its close when turns close. */
static size_t turn_index(const struct verify *v, int t)
{
	return v->closes && t > 0 ? 2 * (size_t)t : (size_t)t;
}

void say(struct verify *v, const char *fmt, ...)
{
	va_list ap;

	if (v->json)
		return;
	va_start(ap, fmt);
	if (v->out) { /* a turn checked on a thread: printed in turn order (verify_parallel.c) */
		buf_vprintf(v->out, fmt, ap);
		va_end(ap);
		return;
	}
	if (v->progress)
		fputs("\r\033[K", stderr);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

const char *ordinal(size_t n)
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
int check_trailers(struct verify *v, int t, const char *tag, const char *entry_path,
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
int check_position(struct verify *v, int t, const char *tag, char tag_id[41])
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
int same_at_main(struct verify *v, int t, const char *tag, const char *path)
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
int check_unchanged(struct verify *v, int t, const char *tag)
{
	char path[LAYOUT_PATH_MAX];

	layout_entry_path(path, t);
	if (same_at_main(v, t, tag, path) < 0)
		return -1;
	layout_orders_dir(path, t);
	if (t > 0 && same_dir_at_main(v, t, tag, path) < 0)
		return -1;
	layout_public_report_path(path, t);
	if (same_at_main(v, t, tag, path) < 0)
		return -1;
	layout_public_map_path(path, t);
	if (same_at_main(v, t, tag, path) < 0)
		return -1;
	layout_reports_dir(path, t);
	return same_dir_at_main(v, t, tag, path);
}

/* The turn-0 briefing (reports and maps) as committed at tag, re-rendered from the committed
 * opening state and compared byte for byte. A campaign set up before briefings has none. */
static int check_briefing(struct verify *v, const char *tag)
{
	struct file *files = NULL;
	struct buf got = BUF_INIT;
	size_t n = 0;
	void *state = NULL;
	int turn, rc = 0;

	if (campaign_load_state(v->c, tag, &turn, &state) < 0)
		return error_prefix("turn 0");
	render_briefing_files(&files, &n, v->c, state, 0);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		buf_clear(&got);
		int r = repo_read(v->c->repo, tag, files[i].path, &got);
		if (r == ERROR_NOTFOUND && i == 0)
			break; /* no briefing at all: an older setup */
		if (r != 0)
			rc = error_set(ERROR_INPUT, "turn 0: %s is missing from %s", files[i].path,
				tag);
		else if (got.len != files[i].len || memcmp(got.data, files[i].data, got.len) != 0)
			rc = error_set(ERROR_INPUT,
				"turn 0: committed %s differs from the one the opening state renders "
				"(the file was changed after the setup)",
				files[i].path);
	}
	file_list_free(files, n);
	buf_release(&got);
	v->c->rules->state_free(state);
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
		check_position(v, 0, tag, tag_id) || check_briefing(v, tag))
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
int check_tag_exists(struct verify *v, int t, const char *tag)
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
int read_turn_export(struct verify *v, int t, const char *tag, const char *path, struct buf *bytes,
	struct journal_record **ex)
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

/* One turn: fairness and re-resolution from the export, then chain, history, journal. */
int verify_turn(struct verify *v, int t)
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
		/* The parse cleared the overrides the close files carry (core/schedule.h). */
		v->c->closes_reread = v->full;
		rc = schedule_load(v->c) < 0 ? -1 : check_pins(v, &camp);
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

/* A clone whose git command line would show other objects than those committed (replace
 * refs, grafts) is refused, as tools/umpire-verify.mjs refuses it (issue 25: the verifiers
 * agree on every tamper). */
static int check_no_replacements(struct verify *v)
{
	const char *what = NULL;
	int rc = repo_has_replacements(v->c->repo, &what);

	return rc == 1 ? error_set(ERROR_INPUT, "%s", what) : rc;
}

/* The value after "key: " on a line of text (quotes dropped), as a new string, or NULL. */
static char *export_field(const struct buf *text, const char *key)
{
	size_t klen = strlen(key);

	for (size_t at = 0; at + klen + 2 < text->len;) {
		const char *line = text->data + at;
		const char *nl = memchr(line, '\n', text->len - at);
		size_t len = nl ? (size_t)(nl - line) : text->len - at;
		if (len > klen + 2 && memcmp(line, key, klen) == 0 && line[klen] == ':' &&
			line[klen + 1] == ' ') {
			const char *v = line + klen + 2;
			size_t n = len - klen - 2;
			if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
				v++, n -= 2;
			return xasprintf("%.*s", (int)n, v);
		}
		at += len + 1;
	}
	return NULL;
}

/* Every turn's beacon round and signature, as the exports at main's tip (else at turn-1 ...
 * turn-last) give them, (from from on) checked by the BLS helper in one batch before the turns one at a time (issue 38: two
 * pairings for the lot instead of one check a round). Only a speed-up: a round the batch
 * found good is taken as checked when its turn checks the same signature (beacon.h); any
 * other is checked there alone, as without it, and a failure here is left to the turns. */
static void prefetch_rounds(struct verify *v, int from, int last)
{
	char tag[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX];
	long long *rounds = xcalloc((size_t)last + 1, sizeof(*rounds));
	char **sigs = xcalloc((size_t)last + 1, sizeof(*sigs));
	struct buf bytes = BUF_INIT;
	size_t n = 0;

	if (v->c->entropy != CAMPAIGN_ENTROPY_BEACON || !v->c->beacon_key)
		goto done;
	for (int t = from; t <= last; t++) {
		layout_tag(tag, t);
		layout_entry_path(path, t);
		/* at main's tip first, as chain_heads reads them (verify_parallel.c) */
		if (repo_read(v->c->repo, LAYOUT_BRANCH, path, &bytes) != 0 &&
			repo_read(v->c->repo, tag, path, &bytes) != 0)
			continue;
		char *round = export_field(&bytes, "beacon_round");
		char *sig = export_field(&bytes, "beacon_signature");
		char *end = NULL;
		long long r = round ? strtoll(round, &end, 10) : 0;
		if (sig && end && !*end && r > 0) {
			rounds[n] = r;
			sigs[n++] = sig;
			sig = NULL;
		}
		free(round);
		free(sig);
	}
	if (beacon_prefetch(v->c, n, rounds, (const char *const *)sigs) < 0)
		error_clear(); /* the turns say it, each at its own */
done:
	buf_release(&bytes);
	for (size_t i = 0; i < n; i++)
		free(sigs[i]);
	free(sigs);
	free(rounds);
	error_clear();
}

/* What this clone's last passing verify covered, next to the head it remembers
 * (refs/umpire/verified): ".git/umpire-verified" holds "COMMIT TURNS DICE HEAD" (the head
 * verified, its resolved turns, their dice, the journal hash chain after them). */
#define VERIFIED_RECORD "umpire-verified"

static char *record_path(const struct verify *v)
{
	return xasprintf("%s/.git", v->c->dir);
}

/* After a verify that passed: what it covered, for the next run (turns_verified_before).
 * Nothing for the umpire's own copy (its journal is checked every time), a sealed campaign
 * not yet revealed or a run given receipts or views; a failure here only costs the next
 * run a full check. */
static void remember_turns(struct verify *v, int last)
{
	char head[65];
	char *dir = record_path(v);

	if (!v->c->journal && !v->sealed && !v->revealed && !v->n_receipts && !v->n_views &&
		!v->n_trust_tsa) {
		/* The turns a trusted time stamp witnessed (receipts are given anew each run, and
		 * a run given some records nothing): the verdict of a later run needs them. */
		struct buf w = BUF_INIT;
		for (int t = 1; t <= last && (size_t)t < v->n_witnessed; t++)
			if (v->witnessed[t])
				buf_printf(&w, "%s%d", w.len ? "," : "", t);
		hex_encode(head, v->head, FAIR_HASH_BYTES);
		char *text = xasprintf("%s %d %zu %s %s\n", v->chain[v->n_chain - 1], last, v->dice,
			head, w.len ? buf_str(&w) : "-");
		buf_release(&w);
		if (file_write_durable(dir, VERIFIED_RECORD, text, strlen(text)) < 0)
			error_clear();
		free(text);
	}
	free(dir);
}

/* Incremental verify (issue 38): the turns a previous passing run of this clone verified,
 * when main still holds the head it remembers (check_remembered ran) and each tag of them
 * (turn-N, close-N) still sits where that run found it: commits are named by their content,
 * so those turns are the ones verified. Their dice and journal hash chain come from the
 * record. Returns how many turns to skip (0: check all; never for the umpire's own copy,
 * whose journal may change, nor with --full, receipts, views, --trust-tsa or a sealed
 * campaign). */
static int turns_verified_before(struct verify *v)
{
	char pinned[41], id[41], tag[LAYOUT_TAG_MAX], commit[41], head[65];
	char *dir = record_path(v), *path = xasprintf("%s/" VERIFIED_RECORD, dir);
	uint8_t setup_head[FAIR_HASH_BYTES];
	struct buf text = BUF_INIT;
	int turns = 0, n = 0;
	size_t dice = 0;

	memcpy(setup_head, v->head, FAIR_HASH_BYTES);

	/* --trust-tsa changes which closes are witnessed: a run given certificates checks every
	 * turn's tokens again, and records nothing. */
	if (v->full || v->c->journal || v->sealed || v->revealed || v->n_receipts || v->n_views ||
		v->n_trust_tsa || repo_commit_id(v->c->repo, VERIFIED_REF, pinned) != 0 ||
		file_read(path, 64 * 1024, &text) != 0 ||
		sscanf(buf_str(&text), "%40s %d %zu %64s", commit, &turns, &dice, head) != 4 ||
		strcmp(commit, pinned) != 0 || turns < 1 || strlen(head) != 64 ||
		hex_decode(v->head, FAIR_HASH_BYTES, head) < 0)
		goto none;
	size_t at = turn_index(v, turns);
	if (at >= v->n_chain ||
		(strcmp(v->chain[at], pinned) != 0 &&
			(at + 1 >= v->n_chain || strcmp(v->chain[at + 1], pinned) != 0)))
		goto none;
	for (int t = 1; t <= turns; t++) {
		layout_tag(tag, t);
		if (check_position(v, t, tag, id) < 0)
			goto none;
		layout_close_tag(tag, t);
		if (v->closes && (repo_commit_id(v->c->repo, tag, id) != 0 ||
					 strcmp(id, v->chain[turn_index(v, t) - 1]) != 0))
			goto none;
	}
	/* The witnessed turns the record lists (a record from before them lists none). */
	const char *w = buf_str(&text);
	for (int k = 0; k < 4 && w; k++)
		w = strchr(w + strspn(w, " "), ' ');
	for (w = w ? w + strspn(w, " ") : ""; *w >= '0' && *w <= '9';) {
		char *end;
		long t = strtol(w, &end, 10);
		if (t >= 1 && t <= turns && (size_t)t < v->n_witnessed)
			v->witnessed[t] = 1;
		w = *end == ',' ? end + 1 : end;
	}
	n = turns;
	v->dice += dice;
	say(v,
		"turns 1-%d: ok: verified before by this clone (" VERIFIED_REF
		" %s), every tag where it was (--full checks them again)\n",
		n, pinned);
	goto done;
none:
	memcpy(v->head, setup_head, FAIR_HASH_BYTES);
	error_clear();
done:
	buf_release(&text);
	free(path);
	free(dir);
	return n;
}

/* Every turn in order; the first failure stops it. */
static int verify_turns(struct verify *v, int *last)
{
	if (check_no_replacements(v) < 0 || read_history(v) < 0 || check_remembered(v) < 0 ||
		find_reveal(v) < 0)
		return -1;
	v->closes = v->c->entropy != CAMPAIGN_ENTROPY_NONE;
	v->sealed = v->c->visibility == CAMPAIGN_SEALED && !v->revealed;
	size_t after = v->n_chain - 1;
	int on_main = (int)(v->closes ? after / 2 : after);
	*last = v->last_tag > on_main && !tags_ahead_of_main(v, on_main) ? v->last_tag : on_main;
	v->n_witnessed = (size_t)*last + 2; /* each turn and a pending close */
	v->witnessed = xcalloc(v->n_witnessed, 1);
	int res = verify_setup(v);
	int from = res == 0 && *last > 0 ? turns_verified_before(v) + 1 : 1;
	if (from > *last + 1)
		from = 1; /* main moved back: check_remembered said so, never here */
	if (res == 0)
		prefetch_rounds(v, from, *last);
	if (res == 0 && !v->sealed && !v->revealed)
		res = verify_turns_parallel(v, &from, *last);
	for (int t = from; res == 0 && t <= *last; t++) {
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
 * checked (audit_fairness) under the key campaign.yaml names. What they do not prove (no key,
 * the demo beacon, a chain not trusted) is the verdict's reasons (verify_verdict.c). */
static void say_beacon(struct verify *v)
{
	const struct beacon_chain *known = beacon_chain_find(v->c->beacon_chain);

	if (!v->c->beacon_key || v->c->beacon_demo)
		return;
	if (known)
		say(v,
			"beacon: every turn's round is signed by %s (chain %s): BLS signatures "
			"checked under its public key\n",
			known->name, known->hash);
	else
		say(v,
			"beacon: every turn's round signature checked under the public key campaign.yaml "
			"names for chain %s\n",
			v->c->beacon_chain);
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
		return verify_verdict(v, -1);
	}
	if (check_trusted_key(v) < 0)
		return verify_verdict(v, -1);
	v->last_journal = -1;
	if (v->c->journal && journal_last_turn(v->c->journal, &v->last_journal) < 0)
		return cmd_error("umpire");
	int bad = verify_turns(v, &last);
	if (bad == 0)
		bad = check_receipts(v);
	for (size_t i = 0; bad == 0 && i < v->n_views; i++)
		bad = check_view(v, v->views[i]);
	v->last_turn = last;
	if (bad < 0) {
		if (error_last()->klass != ERROR_INPUT)
			return cmd_error("umpire");
		return verify_verdict(v, -1);
	}
	if (repo_set_ref(v->c->repo, VERIFIED_REF, v->chain[v->n_chain - 1]) < 0)
		fprintf(stderr,
			"umpire: note: cannot remember the head verified (%s): a later rewrite of this history will not be caught here\n",
			error_last()->message);
	else
		remember_turns(v, last);
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
	if (v->c->entropy == CAMPAIGN_ENTROPY_BEACON)
		say_beacon(v);
	return verify_verdict(v, 0);
}

/* HASH:KEY, 64 and 192 hex digits. */
static int trust_chain_ok(const char *arg)
{
	return strlen(arg) == 64 + 1 + 192 && strspn(arg, "0123456789abcdefABCDEF") == 64 &&
	       arg[64] == ':' && strspn(arg + 65, "0123456789abcdefABCDEF") == 192;
}

/* Reads the options into v (its lists allocated for argc entries); the directory's index in
 * *dir_at. EXIT_OK, or EXIT_USAGE (said on stderr), or -1 for --help (said on stdout). */
static int parse_options(struct verify *v, int argc, char **argv, int *dir_at)
{
	static const struct option opts[] = {
		{ "commitment", required_argument, NULL, 'c' },
		{ "setup", required_argument, NULL, 's' },
		{ "receipt", required_argument, NULL, 'r' },
		{ "receipts-of", required_argument, NULL, 'R' },
		{ "view", required_argument, NULL, 'v' },
		{ "trust-tsa", required_argument, NULL, 'T' },
		{ "full", no_argument, NULL, 'F' },
		{ "trust-chain", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(verify_help, stdout);
			return -1;
		} else if (ch == 'r') {
			v->receipts[v->n_receipts++] = optarg;
		} else if (ch == 'v') {
			v->views[v->n_views++] = optarg;
		} else if (ch == 'R') {
			v->receipts_of[v->n_receipts_of++] = optarg;
		} else if (ch == 'T') {
			v->trust_tsa[v->n_trust_tsa++] = optarg;
		} else if (ch == 'F') {
			v->full = 1;
		} else if (ch == 'j') {
			v->json = 1;
		} else if (ch == 't' && trust_chain_ok(optarg)) {
			v->trust[v->n_trust++] = optarg;
		} else if ((ch == 'c' || ch == 's') && strlen(optarg) == 64 &&
			   strspn(optarg, "0123456789abcdefABCDEF") == 64) {
			*(ch == 'c' ? &v->pin_commitment : &v->pin_setup) = optarg;
		} else if (ch == 'c' || ch == 's') {
			return cmd_usage("verify", "--%s takes 64 hex digits",
				ch == 'c' ? "commitment" : "setup");
		} else if (ch == 't') {
			return cmd_usage("verify",
				"--trust-chain takes HASH:KEY (64 and 192 hex digits), not '%s'",
				optarg);
		} else {
			return cmd_usage_see("verify");
		}
	}
	static const char *const operands[] = { "DIR (the campaign folder or a clone)" };
	if (cmd_operands("verify", argc - optind, argv + optind, operands, 1, 1) != EXIT_OK)
		return EXIT_USAGE;
	*dir_at = optind;
	return EXIT_OK;
}

/* Verifies the campaign in dir with the options already in v (its lists the caller's):
 * the files named checked first, then the campaign opened and verified. Frees what it
 * opened. The exit code. */
static int verify_dir(struct verify *v, const char *dir)
{
	int rc = cmd_check_input_files(v->receipts, v->n_receipts, 64 * 1024, "receipt");
	if (rc == EXIT_OK)
		rc = cmd_check_input_files(v->trust_tsa, v->n_trust_tsa, 1024 * 1024,
			"certificate");
	if (rc != EXIT_OK)
		return rc;
	/* A certificate named is read at once: a wrong file is told before any turn. */
	if (v->n_trust_tsa && verify_stamps_open(v) < 0) {
		fprintf(stderr, "umpire verify: %s\n", cmd_message());
		return EXIT_DATAERR;
	}
	char *jpath = xasprintf("%s/.umpire/journal.sqlite", dir);
	struct stat st;
	unsigned flags = stat(jpath, &st) == 0 ? CAMPAIGN_READ_LOCK | CAMPAIGN_JOURNAL : 0;
	free(jpath);
	if (campaign_open(&v->c, dir, flags) < 0)
		rc = cmd_error("umpire");
	else {
		v->progress = isatty(STDERR_FILENO) && !v->json;
		rc = verify_campaign(v);
	}
	tstamp_trust_free(v->tsa_trust);
	campaign_close(v->c);
	return rc;
}

int cmd_verify(int argc, char **argv)
{
	struct verify v;
	int dir_at = 0, rc;

	cmd_keep_heap();
	/* verify moves no ref but its own (repo_set_ref): each tag is looked up once. */
	repo_freeze_refs(1);
	memset(&v, 0, sizeof(v));
	v.threads = 1;
	v.receipts = xcalloc((size_t)argc + 1, sizeof(char *));
	v.views = xcalloc((size_t)argc + 1, sizeof(char *));
	v.receipts_of = xcalloc((size_t)argc + 1, sizeof(char *));
	v.trust = xcalloc((size_t)argc + 1, sizeof(char *));
	v.trust_tsa = xcalloc((size_t)argc + 1, sizeof(char *));
	rc = parse_options(&v, argc, argv, &dir_at);
	if (rc == EXIT_OK)
		rc = verify_dir(&v, argv[dir_at]);
	else
		rc = rc < 0 ? EXIT_OK : rc;
	free(v.trust);
	free(v.trust_tsa);
	free(v.witnessed);
	free(v.lacking);
	free(v.receipts);
	free(v.views);
	free(v.receipts_of);
	free(v.chain);
	return rc;
}
