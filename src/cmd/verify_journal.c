/* verify_journal.c — `umpire verify` on the umpire's own copy: each turn's SQLite journal
 * row (its files, inputs and hashes) held against the git commit and export it made. */
#include <stdlib.h>
#include <string.h>

#include "core/audit.h"
#include "core/fair.h"
#include "core/file.h"
#include "core/layout.h"
#include "cmd/verify.h"
#include "core/banned.h"

/* One files row at a time (journal_each_file), so a turn's files are never all in memory:
 * what the walk has seen. */
struct files_walk {
	struct verify *v;
	int t;
	const char *tag;
	struct buf got;       /* the blob, read again for each row */
	const char **want;    /* the paths the turn wrote (NULL for turn 0) */
	size_t n_want, found; /* how many; how many of them had a row */
	size_t n_rows;        /* rows seen */
	int setup_found;      /* turn 0: campaign.yaml and state.yaml rows seen (bits) */
};

static int check_file_row(const char *path, const uint8_t sha256[FAIR_HASH_BYTES], void *arg)
{
	struct files_walk *w = arg;
	uint8_t h[FAIR_HASH_BYTES];

	w->n_rows++;
	if (repo_read(w->v->c->repo, w->tag, path, &w->got) != 0)
		return error_set(ERROR_INPUT,
			"turn %d: the journal's files row %s is not in the commit of %s", w->t,
			path, w->tag);
	fair_sha256(h, w->got.data ? w->got.data : "", w->got.len);
	if (memcmp(h, sha256, FAIR_HASH_BYTES) != 0)
		return error_set(ERROR_INPUT,
			"turn %d: the journal's files row %s differs from the blob committed at %s",
			w->t, path, w->tag);
	w->setup_found |= (strcmp(path, LAYOUT_CAMPAIGN) == 0) | (strcmp(path, LAYOUT_STATE) == 0)
									 << 1;
	for (size_t k = 0; k < w->n_want; k++)
		if (w->want[k] && strcmp(w->want[k], path) == 0) {
			w->want[k] = NULL;
			w->found++;
		}
	return 0;
}

/* The journal's files rows are exactly the blobs of the tag's commit the turn wrote: each row's
 * hash is that of the blob committed at its path, and each file of the turn (by the layout)
 * has its row. Rows are read one at a time: a turn's reports and maps may be tens of MiB. */
static int check_journal_files(struct verify *v, int t, const char *tag,
	const struct audit_turn *at)
{
	struct files_walk w = { .v = v, .t = t, .tag = tag, .got = BUF_INIT };
	struct layout_entry *paths = NULL;
	const char **senders = NULL;
	int rc = -1;

	if (t > 0) {
		const struct turn_input *in = &at->t.in;
		senders = xcalloc(in->n_files + 1, sizeof(*senders));
		for (size_t i = 0; i < in->n_files; i++)
			senders[i] = in->files[i].player;
		int maps = at->t.out.maps != NULL;
		struct layout_reports rep = { maps, at->t.out.shared, at->t.out.own_map };
		w.n_want = v->c->visibility == CAMPAIGN_SEALED ?
				   layout_sealed_turn_files(&paths, t, maps) :
				   layout_open_turn_files(&paths, t, senders, in->n_files,
					   (const char *const *)v->c->players, v->c->n_players,
					   &rep);
		w.want = xcalloc(w.n_want + 1, sizeof(*w.want));
		for (size_t k = 0; k < w.n_want; k++)
			w.want[k] = paths[k].path;
	}
	if (journal_each_file(v->c->journal, t, check_file_row, &w) != 0)
		goto done;
	if (t == 0 && w.setup_found != 3) {
		error_set(ERROR_INPUT, "turn 0: the journal has no files row for %s",
			(w.setup_found & 1) ? LAYOUT_STATE : LAYOUT_CAMPAIGN);
		goto done;
	}
	for (size_t k = 0; t > 0 && k < w.n_want; k++)
		if (w.want[k]) {
			error_set(ERROR_INPUT,
				"turn %d: %s is committed at %s but the journal has no files row for it",
				t, w.want[k], tag);
			goto done;
		}
	if (t > 0 && w.n_rows != w.n_want) {
		error_set(ERROR_INPUT,
			"turn %d: the journal has %zu files rows, the turn wrote %zu files", t,
			w.n_rows, w.n_want);
		goto done;
	}
	rc = 0;
done:
	free(w.want);
	free(paths);
	free(senders);
	buf_release(&w.got);
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

/* The SQLite journal's turn t against git: SQLite's quick_check (with turn 0), its order
 * files' stored copies against their hashes, its rows against the re-resolved turn (and so
 * against the export and the committed files), its chain head against the trailer, its
 * commit id against the tag, its files rows against the committed blobs. */
int check_journal(struct verify *v, int t, const char *tag, const char *tag_id,
	const uint8_t head[FAIR_HASH_BYTES], const struct audit_turn *at,
	const struct journal_record *ex, const struct buf *state_yaml)
{
	struct journal_record *jr = NULL;
	char hex[65], want[65];
	int rc = -1;

	/* without its files rows: check_journal_files walks them one at a time */
	int r = journal_read_turn(v->c->journal, t, 0, &jr);
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
	/* the stored copies against their hashes (a sealed turn's order files are checked
	 * nowhere else before the reveal); the whole file by SQLite once */
	if ((t == 0 && journal_quick_check(v->c->journal) < 0) ||
		campaign_check_stored_orders(v->c, jr) < 0)
		goto done;
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
	rc = check_journal_files(v, t, tag, at);
done:
	journal_record_free(jr);
	return rc;
}
