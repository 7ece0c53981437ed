/* turn_commit.c — the steps that write the turn: `render` (the files), `reread` (the state as
 * the next turn will load it), `seal` (what a sealed turn withholds, before the journal), then
 * `build`, `journal` and `publish`; and the setup's commit (turn 0). */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/turn_int.h"
#include "core/durable.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/render.h"
#include "core/banned.h"

/* --- render ------------------------------------------------------------------------------ */

/* Sealed: each player's view of the state, and the salted commitments to it and to his
 * report that the export publishes (salts from seal_files). */
static int render_views(struct turn *t)
{
	struct turn_output *out = &t->out;

	for (size_t k = 0; k < t->c->n_players; k++) {
		struct turn_view *v = &turn_views_of(t)[k];
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

int step_render(struct turn *t)
{
	struct campaign *c = t->c;
	struct turn_output *out = &t->out;

	if (campaign_emit_read(c, t->in.turn, t->state, 0, &out->state_yaml, &out->read_state) < 0)
		return error_set(ERROR_INTERNAL,
			"internal error: cannot emit the state after turn %d", t->in.turn);
	fair_sha256(out->state_sha256, out->state_yaml.data, out->state_yaml.len);
	out->reports = xcalloc(c->n_players ? c->n_players : 1, sizeof(struct buf));
	out->n_reports = c->n_players;
	if (!out->game_turns)
		out->game_turns = xcalloc(1, sizeof(struct buf));
	struct buf common = BUF_INIT;
	size_t listed = render_report_common(&common, t);
	/* A big open turn shares its common part and map (render.h); its maps first, as each
	 * player's report links his own map or the shared one. */
	out->shared = c->visibility != CAMPAIGN_SEALED && listed > RENDER_SHARE_FROM &&
		      !(t->flags & TURN_PER_PLAYER);
	if (render_maps(t) < 0) {
		buf_release(&common);
		return -1;
	}
	if (out->shared)
		render_shared_reports(t, &common);
	for (size_t i = 0; i < c->n_players && !out->shared; i++)
		render_report_from(&out->reports[i], t, c->players[i], &common);
	if (c->visibility == CAMPAIGN_SEALED)
		render_report_from(&out->public_report, t, NULL, &common);
	buf_release(&common);
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

/* step_reread's checks; parsed: each state from its bytes, else as campaign_emit_read made it
 * where it could (*used: 1 when it did). */
static int reread(struct turn *t, int parsed, int *used)
{
	struct campaign *c = t->c;
	const int last = t->in.turn, next = last + 1;
	struct buf *whole = &t->out.whole_yaml, text = BUF_INIT;
	void *pub = NULL, *state = NULL;
	struct diag d;
	const char *why = NULL;
	int n = -1, m = -1, rc = 0;

	diag_init(&d);
	if (!parsed && t->out.read_state) {
		pub = t->out.read_state;
		t->out.read_state = NULL;
		n = last;
		*used = 1;
	} else {
		rc = campaign_parse_state(c, "state.yaml, as rendered", &t->out.state_yaml, &n,
			&pub);
	}
	if (rc == 0 && c->visibility == CAMPAIGN_SEALED) {
		/* load_sealed_state reads at most 64 MB of it. */
		buf_clear(whole);
		if (campaign_emit_read(c, last, t->state, 1, whole, parsed ? NULL : &state) < 0 ||
			whole->len > 64 * 1024 * 1024)
			rc = error_set(ERROR_INTERNAL,
				"the whole state cannot be emitted (%zu bytes)", whole->len);
		else if (state) {
			m = last;
			*used = 1;
		} else {
			rc = campaign_parse_state(c, "the whole state, as the umpire keeps it",
				whole, &m, &state);
		}
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
	buf_release(&text);
	return rc;
}

/* The project's rule (issue 26): no ruling, adjustment or resolution leaves a committed state
 * the next turn refuses. Before anything is written, the state.yaml bytes just rendered (and,
 * sealed, the whole state the umpire keeps) go back through step_load's parser (or, where
 * node_as_read can stand for it, the state as it would give it: campaign_emit_read), and each
 * player due next through orders_parse; a refusal is the rule system's bug, exit 70. */
int step_reread(struct turn *t)
{
	int used = 0, rc = reread(t, 0, &used);

	/* A refusal is told as the bytes give it (positions in them): the checks again, on the
	 * states parsed from them. */
	if (rc < 0 && used)
		rc = reread(t, 1, &used);
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
int step_seal(struct turn *t)
{
	char *dir = turn_private_dir(t->c, "sealed", t->in.turn);
	char *odir = xasprintf("%s/orders", dir);
	const struct buf *whole = &t->out.whole_yaml; /* step_reread's */
	struct buf salts = BUF_INIT;
	int rc = 0;

	if (t->c->visibility != CAMPAIGN_SEALED)
		goto done;
	assert(whole->len > 0);
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
		rc = write_private("seal: whole state", dir, LAYOUT_STATE, whole->data, whole->len);
	for (size_t k = 0; rc == 0 && k < t->c->n_players; k++)
		rc = write_outbox(t, k);
done:
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
	struct layout_reports rep = { maps, out_->shared, out_->own_map };
	size_t n = t->c->visibility == CAMPAIGN_SEALED ?
			   layout_sealed_turn_files(&paths, in->turn, maps) :
			   layout_open_turn_files(&paths, in->turn, senders, in->n_files,
				   (const char *const *)t->c->players, t->c->n_players, &rep);
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
	/* Each file's SHA256 for the journal's files rows, state.yaml's the one render took. */
	r->file_sha256 = xcalloc(r->n_files + 1, sizeof(*r->file_sha256));
	for (size_t i = 0; i < r->n_files; i++) {
		const struct file *f = &r->files[i];
		if (strcmp(f->path, LAYOUT_STATE) == 0 && f->len == out->state_yaml.len &&
			(f->len == 0 || memcmp(f->data, out->state_yaml.data, f->len) == 0))
			memcpy(r->file_sha256[i], out->state_sha256, FAIR_HASH_BYTES);
		else
			fair_sha256(r->file_sha256[i], f->data ? (const void *)f->data : "",
				f->len);
	}
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
	turn_record_message(&msg, c, r);
	int rc = repo_build(c->repo, r->files, r->n_files, buf_str(&msg), r->processed_at,
		r->commit_id);
	buf_release(&msg);
	return rc;
}

/* The setup (turn 0) comes with its record made by turn_commit_setup. */
int step_build(struct turn *t)
{
	if (t->in.turn > 0)
		make_record(t);
	return build_commit(t->c, &t->rec);
}

int step_journal(struct turn *t)
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
	/* The rows just journaled are the commit's blobs: the next command's soundness check
	 * need not read them back (campaign_note_sound; not written: it reads them). */
	if (campaign_note_sound(c, r->turn, r->commit_id) < 0)
		error_clear();
	/* No packing here: its cost grew with the campaign (issue 38); turn_maintain does it
	 * between turns. */
	return 0;
}

int turn_maintain(struct campaign *c)
{
	char *dir = xasprintf("%s/.umpire", c->dir), *path = xasprintf("%s/packed", dir);
	struct buf mark = BUF_INIT;
	char text[32];
	long long at = 0;
	int last = -1, rc = 0;

	if (!c->journal || journal_last_turn(c->journal, &last) < 0 || last < 0)
		goto done;
	/* .umpire/packed: the last turn when the loose objects were last packed (none: 0) */
	if (file_read(path, sizeof text, &mark) == 0)
		at = strtoll(buf_str(&mark), NULL, 10);
	else
		error_clear();
	if (last / TURN_PACK_EVERY <= at / TURN_PACK_EVERY && at <= last)
		goto done;
	/* SQLite's quick_check over the whole journal, which a command skips while the file is
	 * as one that found it sound left it (.umpire/checked): damage no write made (the
	 * disk's own) is found here within TURN_PACK_EVERY turns, outside any turn. */
	if ((rc = journal_quick_check(c->journal)) < 0)
		goto done;
	/* The pack is written and fsynced before any loose copy goes (repo_pack_loose), and
	 * the mark after: a crash at any point leaves valid objects, packed again next time. */
	rc = repo_pack_loose(c->repo, 1);
	if (rc >= 0) {
		snprintf(text, sizeof text, "%d\n", last);
		if (file_write_durable(dir, "packed", text, strlen(text)) < 0)
			rc = -1;
	}
done:
	buf_release(&mark);
	free(path);
	free(dir);
	return rc;
}

int step_publish(struct turn *t)
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
