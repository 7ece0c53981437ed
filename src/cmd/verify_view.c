/* verify_view.c — `umpire verify --view DIR`: a player's sealed report mail attachments or
 * outbox, turn by turn, against the export's salted commitments and the revealed state. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fair.h"
#include "core/layout.h"
#include "core/render.h"
#include "core/words.h"
#include "cmd/verify.h"
#include "core/banned.h"

/* An item of a player's view (report.md, state.yaml): its salt and salted commitment. */
struct view_item {
	const char *file;  /* its name in the --view folder */
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

/* The names of one turn's files in a --view folder: a report mail's attachments of turn
 * (salt-NNNN.yaml ...: docs/formats.md, "Play by email"), or, turn 0, the unnumbered names of
 * the outbox and of the mails sent before issue 27 (one turn, whichever salt.yaml says). */
struct view_names {
	int turn;
	char salt[32], orders[32], report[32], state[32];
};

static void view_names(struct view_names *nm, int turn)
{
	nm->turn = turn;
	if (turn == 0) {
		snprintf(nm->salt, sizeof(nm->salt), "salt.yaml");
		snprintf(nm->orders, sizeof(nm->orders), "orders.yaml");
		snprintf(nm->report, sizeof(nm->report), "report.md");
		snprintf(nm->state, sizeof(nm->state), "%s", LAYOUT_STATE);
		return;
	}
	snprintf(nm->salt, sizeof(nm->salt), "salt-%04d.yaml", turn);
	snprintf(nm->orders, sizeof(nm->orders), "orders-%04d.yaml", turn);
	snprintf(nm->report, sizeof(nm->report), "report-%04d.md", turn);
	snprintf(nm->state, sizeof(nm->state), "view-%04d.yaml", turn);
}

/* One turn of a --view folder (names nm) against the clone. His salted hash is the one the
 * export (and so D_t) holds; his own file, when dir has it, opens it; his report and view of
 * the state open the commitments the export holds for them; after the reveal his view of the
 * state is also the rule system's view of the revealed whole state. */
static int check_view_turn(struct verify *v, const char *dir, const struct view_names *nm)
{
	char *spath = xasprintf("%s/%s", dir, nm->salt),
	     *opath = xasprintf("%s/%s", dir, nm->orders);
	char *vpath = xasprintf("%s/%s", dir, nm->state), *player = NULL;
	struct buf ex_bytes = BUF_INIT, file = BUF_INIT;
	struct journal_record *ex = NULL;
	struct view_item items[2] = { { nm->report, "report", { 0 }, { 0 } },
		{ nm->state, "state", { 0 }, { 0 } } };
	uint8_t salt[FAIR_HASH_BYTES], h[FAIR_HASH_BYTES], got[FAIR_HASH_BYTES];
	char tag[LAYOUT_TAG_MAX], epath[LAYOUT_PATH_MAX];
	int turn = 0, rc = -1, opened = 0, sent = 0;

	if (read_view_salt(spath, v->c, &turn, &player, &sent, salt, h, items) < 0)
		goto done;
	if (nm->turn != 0 && turn != nm->turn) {
		error_set(ERROR_INPUT, "view %s: %s is for turn %d, not %d", dir, spath, turn,
			nm->turn);
		goto done;
	}
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
				"view %s: the salt does not open the commitment with %s: not the file %s sent for turn %d",
				dir, nm->orders, player, turn);
			goto done;
		}
		opened = 1;
	}
	if (check_view_items(dir, player, turn, epath, ex, items) < 0 ||
		(v->revealed && check_view_revealed(v, dir, vpath, player, turn) < 0))
		goto done;
	say(v, "view %s: ok: %s%s orders for turn %d are the ones committed (%s in %s)%s; his report and view of the state open the commitments there%s\n",
		dir, player, words_possessive(player), turn, sent ? "salted hash" : "none sent",
		epath, opened ? ", his file opens it" : "",
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

#define VIEW_MAX_TURNS 100000 /* salt-NNNN.yaml files read from one --view folder */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The turn of a report mail's salt attachment name (salt-NNNN.yaml, as notify names it), or 0. */
static int view_salt_turn(const char *name)
{
	char want[32];
	long t = 0;
	size_t k = 5;

	if (strncmp(name, "salt-", 5) != 0)
		return 0;
	for (; name[k] >= '0' && name[k] <= '9' && k < 12; k++)
		t = t * 10 + (name[k] - '0');
	if (t < 1 || t > TURN_MAX || strcmp(name + k, ".yaml") != 0)
		return 0;
	snprintf(want, sizeof(want), "salt-%04d.yaml", (int)t);
	return strcmp(want, name) == 0 ? (int)t : 0;
}

/* --view DIR: a player's files of sealed turns against the clone, turn by turn: the
 * unnumbered names of one turn (salt.yaml ...), then each turn whose salt-NNNN.yaml DIR
 * holds, in turn order. */
int check_view(struct verify *v, const char *dir)
{
	struct view_names nm;
	struct stat dst;
	struct dirent *e;
	DIR *d;
	int *turns = NULL, rc = 0, old = 0;
	size_t n = 0;

	if (stat(dir, &dst) < 0 || !S_ISDIR(dst.st_mode))
		return error_set(ERROR_MISSING, "view: no such directory '%s'", dir);
	if (!(d = file_opendir(dir)))
		return error_prefix("view %s", dir);
	while ((e = readdir(d)) && n < VIEW_MAX_TURNS) {
		int t = view_salt_turn(e->d_name);
		old |= strcmp(e->d_name, "salt.yaml") == 0;
		if (t == 0)
			continue;
		turns = xrealloc(turns, (n + 1) * sizeof(*turns));
		turns[n++] = t;
	}
	closedir(d);
	if (n)
		qsort(turns, n, sizeof(*turns), cmp_int);
	if (!old && n == 0)
		rc = error_set(ERROR_MISSING,
			"view %s: no salt-NNNN.yaml (a sealed report mail's attachments) nor salt.yaml (a player's outbox of one turn)",
			dir);
	if (rc == 0 && old) {
		view_names(&nm, 0);
		rc = check_view_turn(v, dir, &nm);
	}
	for (size_t i = 0; rc == 0 && i < n; i++) {
		view_names(&nm, turns[i]);
		rc = check_view_turn(v, dir, &nm);
	}
	free(turns);
	return rc;
}
