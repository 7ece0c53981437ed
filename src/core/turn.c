/* turn.c — the turn pipeline: order files in, checked against the current state; the turn
 * seed derived from the committed chain; umpire rulings and the rule system's phases
 * resolved with every die from the dice service; state, journal export and reports
 * rendered; then one journal transaction and one git commit with its tag. `check`, `turn`
 * and `replay` all come through here so they cannot disagree. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/turn.h"
#include "core/fair.h"
#include "core/durable.h"
#include "core/banned.h"

static const char *const order_keys[] = {
	"campaign", "turn", "player", "orders", "standing", NULL,
};
static const char *const ruling_keys[] = { "roll", "for", NULL };

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

void turn_beacon(uint8_t out[32], const char *value)
{
	memset(out, 0, 32);
	if (value)
		fair_sha256(out, value, strlen(value));
}

void turn_input_init(struct turn_input *in, int turn)
{
	memset(in, 0, sizeof(*in));
	in->turn = turn;
}

static void order_file_release(struct order_file *f, const struct campaign *c)
{
	if (f->orders && c->rules)
		c->rules->orders_free(f->orders);
	for (size_t i = 0; i < f->n_rulings; i++) {
		free(f->rulings[i].notation);
		free(f->rulings[i].what);
	}
	free(f->rulings);
	free(f->path);
	free(f->player);
	free(f->bytes);
}

void turn_input_release(struct turn_input *in, const struct campaign *c)
{
	for (size_t i = 0; i < in->n_files; i++)
		order_file_release(&in->files[i], c);
	free(in->files);
	for (size_t i = 0; i < in->n_missing; i++)
		free(in->missing[i]);
	free(in->missing);
	free(in->beacon_value);
	free(in->beacon_round);
	memset(in, 0, sizeof(*in));
}

void turn_output_release(struct turn_output *out)
{
	dice_release(&out->dice);
	events_release(&out->events);
	free(out->summary);
	buf_release(&out->state_yaml);
	buf_release(&out->journal_yaml);
	for (size_t i = 0; i < out->n_reports; i++)
		buf_release(&out->reports[i]);
	free(out->reports);
	memset(out, 0, sizeof(*out));
}

/* The umpire's generic rulings: a list of `roll`/`for` pairs in dice notation. */
static int parse_rulings(struct order_file *f, const struct node *orders, struct diag *d)
{
	size_t before = diag_count(d);

	if (node_check_seq(orders, "orders", TURN_MAX_RULINGS, d) < 0)
		return -1;
	f->rulings = xcalloc(orders->n ? orders->n : 1, sizeof(*f->rulings));
	for (size_t i = 0; i < orders->n; i++) {
		const struct node *o = orders->items[i];
		const char *roll, *what;
		char err[200];
		struct dice_expr e;

		if (node_check_map(o, "umpire ruling", ruling_keys, d) < 0)
			continue;
		const struct node *rn = node_need(o, "roll", d);
		const struct node *wn = node_need(o, "for", d);
		int ok = rn && node_want_str(rn, "roll", 64, &roll, d) == 0;
		ok = wn && node_want_str(wn, "for", 200, &what, d) == 0 && ok;
		if (!ok)
			continue;
		if (dice_expr_parse(&e, roll, err, sizeof(err)) < 0) {
			node_error(d, rn, "%s", err);
			continue;
		}
		char canon[64];
		dice_expr_format(&e, canon, sizeof(canon));
		struct ruling *r = &f->rulings[f->n_rulings++];
		r->expr = e;
		r->notation = xstrdup(canon);
		r->what = xstrdup(what);
	}
	return diag_count(d) == before ? 0 : -1;
}

int turn_load_next(struct campaign *c, struct turn_input *in, void **state)
{
	int last;
	const char *why = NULL;

	if (campaign_load_state(c, "HEAD", &last, state) < 0)
		return EXIT_DATAERR;
	in->turn = last + 1;
	if (c->rules->game_over && c->rules->game_over(&c->rc, *state, in->turn, &why)) {
		fprintf(stderr, "umpire: the game is over (%s): there is no turn %d\n",
			why ? why : "the rule system says so", in->turn);
		return EXIT_DATAERR;
	}
	return EXIT_OK;
}

int turn_add_order_bytes(struct turn_input *in, struct campaign *c, const void *state,
	const char *name, const unsigned char *bytes, size_t len, struct diag *d)
{
	struct node *root = NULL;
	struct order_file f;
	size_t before = diag_count(d);
	const char *s;
	long long t;

	memset(&f, 0, sizeof(f));
	f.path = xstrdup(name);
	struct node_limits lim = { .max_bytes = ORDER_FILE_MAX_BYTES };
	if (node_parse(&root, name, bytes, len, &lim, d) < 0)
		goto done;
	if (node_check_map(root, "order file", order_keys, d) < 0)
		goto done;

	const struct node *n = node_need(root, "campaign", d);
	if (n && node_want_str(n, "campaign", 64, &s, d) == 0 && strcmp(s, c->id) != 0)
		node_error(d, n, "orders for campaign '%s' (campaign '%s' expected)", s, c->id);
	n = node_need(root, "turn", d);
	if (n && node_want_int(n, "turn", 1, 1000000, &t, d) == 0 && t != in->turn)
		node_error(d, n, "orders for turn %lld (turn %d is the turn being processed)", t,
			in->turn);

	const struct node *pn = node_need(root, "player", d);
	int player_ok = 0;
	if (pn && node_want_id(pn, "player", &s, d) == 0) {
		if (strcmp(s, UMPIRE_PLAYER) != 0 && !campaign_has_player(c, s)) {
			struct buf list = BUF_INIT;
			for (size_t i = 0; i < c->n_players; i++)
				buf_printf(&list, "%s, ", c->players[i]);
			buf_puts(&list, UMPIRE_PLAYER);
			node_error(d, pn, "'%s' is not a player of this campaign (one of: %s expected)", s,
				buf_str(&list));
			buf_release(&list);
		} else if (strcmp(s, UMPIRE_PLAYER) != 0 &&
			!c->rules->player_due(&c->rc, state, in->turn, s)) {
			node_error(d, pn, "player '%s' is not due on turn %d (orders from a due player expected)",
				s, in->turn);
		} else {
			for (size_t i = 0; i < in->n_files; i++)
				if (strcmp(in->files[i].player, s) == 0)
					node_error(d, pn, "a second order file for player '%s' (the first is '%s')",
						s, in->files[i].path);
			f.player = xstrdup(s);
			player_ok = 1;
		}
	}

	const struct node *orders = node_need(root, "orders", d);
	const struct node *standing = node_get(root, "standing");
	if (player_ok && orders) {
		if (strcmp(f.player, UMPIRE_PLAYER) == 0) {
			if (standing)
				node_error(d, standing, "the umpire has no standing orders (only 'orders' expected)");
			parse_rulings(&f, orders, d);
		} else if (node_check_seq(orders, "orders", 1000, d) == 0) {
			if (c->rules->orders_parse(&f.orders, &c->rc, state, in->turn, f.player, orders,
				standing, d) < 0)
				f.orders = NULL;
		}
	}
done:
	node_free(root);
	if (diag_count(d) != before) {
		order_file_release(&f, c);
		return -1;
	}
	f.bytes = xmalloc(len ? len : 1);
	memcpy(f.bytes, bytes, len);
	f.len = len;
	fair_sha256(f.sha256, bytes, len);
	in->files = xrealloc(in->files, (in->n_files + 1) * sizeof(*in->files));
	in->files[in->n_files++] = f;
	return 0;
}

int turn_add_order_file(struct turn_input *in, struct campaign *c, const void *state,
	const char *path, struct diag *d)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		diag_add(d, path, 1, 1, "cannot open order file: %s (a readable file expected)",
			strerror(errno));
		return -1;
	}
	unsigned char *bytes = xmalloc(ORDER_FILE_MAX_BYTES + 1);
	size_t len = fread(bytes, 1, ORDER_FILE_MAX_BYTES + 1, fp);
	int bad = ferror(fp);
	fclose(fp);
	int rc = -1;
	if (bad)
		diag_add(d, path, 1, 1, "cannot read order file (a readable file expected)");
	else if (len > ORDER_FILE_MAX_BYTES)
		diag_add(d, path, 1, 1, "order file is larger than %d bytes (a smaller file expected)",
			ORDER_FILE_MAX_BYTES);
	else
		rc = turn_add_order_bytes(in, c, state, path, bytes, len, d);
	free(bytes);
	return rc;
}

static int cmp_order_file(const void *a, const void *b)
{
	return strcmp(((const struct order_file *)a)->player, ((const struct order_file *)b)->player);
}

int turn_complete(struct turn_input *in, struct campaign *c, const void *state,
	int allow_missing)
{
	int rc = 0;

	qsort(in->files, in->n_files, sizeof(*in->files), cmp_order_file);
	for (size_t i = 0; i < c->n_players; i++) {
		const char *p = c->players[i];
		if (!c->rules->player_due(&c->rc, state, in->turn, p))
			continue;
		int found = 0;
		for (size_t k = 0; k < in->n_files; k++)
			found |= strcmp(in->files[k].player, p) == 0;
		if (found)
			continue;
		if (allow_missing) {
			in->missing = xrealloc(in->missing, (in->n_missing + 1) * sizeof(char *));
			in->missing[in->n_missing++] = xstrdup(p);
		} else {
			fprintf(stderr, "umpire: error: no order file from '%s', who is due on turn %d "
				"(their file, or --allow-missing to journal 'no orders')\n", p, in->turn);
			rc = -1;
		}
	}
	return rc;
}

const struct order_file *turn_find_file(const struct turn_input *in, const char *player)
{
	for (size_t i = 0; i < in->n_files; i++)
		if (strcmp(in->files[i].player, player) == 0)
			return &in->files[i];
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void hex32(char out[65], const uint8_t in[32])
{
	hex_encode(out, in, 32);
}

/* journal/turn-NNNN.yaml: everything a player needs to re-derive and audit the turn. */
static int render_journal(struct turn_output *out, const struct campaign *c,
	const struct turn_input *in, const char *const *ids, size_t n_ids)
{
	char hex[65];
	struct node *root = node_new_map();

	node_map_str(root, "campaign", c->id);
	node_map_str(root, "rules", c->rules->name);
	node_map_int(root, "turn", in->turn);
	hex32(hex, out->key);
	node_map_str(root, "key", hex);
	struct node *orders = node_map_add(root, "orders", node_new_seq());
	for (size_t i = 0; i < n_ids; i++) {
		const struct order_file *f = turn_find_file(in, ids[i]);
		struct node *o = node_seq_add(orders, node_new_map());
		uint8_t zero[32] = { 0 };
		node_map_str(o, "player", ids[i]);
		node_map_bool(o, "received", f != NULL);
		hex32(hex, f ? f->sha256 : zero);
		node_map_str(o, "sha256", hex);
	}
	hex32(hex, out->digest);
	node_map_str(root, "orders_digest", hex);
	hex32(hex, out->beacon);
	node_map_str(root, "beacon", hex);
	if (in->beacon_value) {
		node_map_str(root, "beacon_value", in->beacon_value);
		node_map_str(root, "beacon_round", in->beacon_round ? in->beacon_round : "");
	}
	hex32(hex, out->seed);
	node_map_str(root, "seed", hex);

	struct node *dice = node_map_add(root, "dice", node_new_seq());
	for (size_t i = 0; i < out->dice.n; i++) {
		const struct die_record *r = &out->dice.v[i];
		struct node *dn = node_seq_add(dice, node_new_map());
		node_map_int(dn, "index", (long long)r->index);
		node_map_int(dn, "sides", (long long)r->sides);
		node_map_int(dn, "value", (long long)r->value);
		node_map_str(dn, "for", r->purpose);
	}
	struct node *events = node_map_add(root, "events", node_new_seq());
	struct node *voids = node_map_add(root, "void_orders", node_new_seq());
	for (size_t i = 0; i < out->events.n; i++) {
		const struct event *e = &out->events.v[i];
		struct node *en = node_new_map();
		node_map_str(en, "phase", e->phase);
		if (e->kind == EVENT_VOID) {
			node_map_str(en, "player", e->player);
			node_map_int(en, "order", e->order_index);
			node_map_str(en, "reason", e->text);
			node_seq_add(voids, en);
		} else {
			node_map_str(en, "text", e->text);
			node_seq_add(events, en);
		}
	}
	hex32(hex, out->state_sha256);
	node_map_str(root, "state_sha256", hex);
	node_map_str(root, "summary", out->summary);
	buf_printf(&out->journal_yaml, "# umpire journal export: turn %d of campaign %s\n",
		in->turn, c->id);
	int rc = node_emit(root, &out->journal_yaml);
	node_free(root);
	return rc;
}

/* reports/turn-NNNN/<player>.md: what the player needs to read after a turn. */
static void render_report(struct buf *b, const struct campaign *c, const void *state,
	const struct turn_input *in, const struct turn_output *out, const char *player)
{
	char hex[65];

	buf_printf(b, "# %s, turn %d: report for %s\n\n", c->id, in->turn, player);
	buf_printf(b, "%s\n\n", out->summary);
	buf_puts(b, "## Orders received\n\n");
	for (size_t i = 0; i < in->n_files; i++) {
		hex32(hex, in->files[i].sha256);
		buf_printf(b, "- %s: sha256 `%s`\n", in->files[i].player, hex);
	}
	for (size_t i = 0; i < in->n_missing; i++)
		buf_printf(b, "- %s: no orders\n", in->missing[i]);
	buf_puts(b, "\n## Events\n\n");
	size_t shown = 0;
	for (size_t i = 0; i < out->events.n; i++) {
		const struct event *e = &out->events.v[i];
		if (e->kind != EVENT_EVENT)
			continue;
		buf_printf(b, "- [%s] %s\n", e->phase, e->text);
		shown++;
	}
	if (!shown)
		buf_puts(b, "- none\n");
	buf_puts(b, "\n## Void orders\n\n");
	shown = 0;
	for (size_t i = 0; i < out->events.n; i++) {
		const struct event *e = &out->events.v[i];
		if (e->kind != EVENT_VOID)
			continue;
		buf_printf(b, "- %s order %d [%s]: %s\n", e->player, e->order_index, e->phase, e->text);
		shown++;
	}
	if (!shown)
		buf_puts(b, "- none\n");
	buf_printf(b, "\n## Dice (%zu)\n\n", out->dice.n);
	if (out->dice.n) {
		buf_puts(b, "| # | die | roll | for |\n|---:|---|---:|---|\n");
		for (size_t i = 0; i < out->dice.n; i++) {
			const struct die_record *r = &out->dice.v[i];
			buf_printf(b, "| %llu | d%llu | %llu | ", (unsigned long long)r->index,
				(unsigned long long)r->sides, (unsigned long long)r->value);
			for (const char *p = r->purpose; *p; p++) {
				if (*p == '|')
					buf_puts(b, "\\|");
				else
					buf_append(b, p, 1);
			}
			buf_puts(b, " |\n");
		}
	}
	hex32(hex, out->seed);
	buf_printf(b, "\nTurn seed `%s`; audit any die with `umpire log` or the journal export.\n", hex);
	if (c->rules->report) {
		buf_puts(b, "\n## Situation\n\n");
		c->rules->report(&c->rc, state, player, b);
	}
}

int turn_resolve(struct turn_output *out, struct campaign *c, void *state,
	const struct turn_input *in, const uint8_t key[32], const uint8_t beacon[32])
{
	int rc = -1;
	size_t n_ids = c->n_players + 1;
	const char **ids = xcalloc(n_ids, sizeof(char *));
	struct fair_order *fo = xcalloc(n_ids, sizeof(*fo));
	struct rules_orders *ro = NULL;
	struct rules_turn rt;

	memset(out, 0, sizeof(*out));
	memset(&rt, 0, sizeof(rt));
	events_init(&out->events);
	/* Every event records how many dice had been drawn: what ties a die to its event. */
	out->events.dice = &out->dice;
	for (size_t i = 0; i < c->n_players; i++)
		ids[i] = c->players[i];
	ids[c->n_players] = UMPIRE_PLAYER;
	qsort(ids, n_ids, sizeof(char *), cmp_str);

	for (size_t i = 0; i < n_ids; i++) {
		const struct order_file *f = turn_find_file(in, ids[i]);
		fo[i].player = ids[i];
		fo[i].has_file = f != NULL;
		if (f)
			memcpy(fo[i].sha256, f->sha256, 32);
	}
	memcpy(out->key, key, 32);
	memcpy(out->beacon, beacon, 32);
	fair_orders_digest(out->digest, fo, n_ids);
	fair_turn_seed(out->seed, key, (uint32_t)in->turn, out->digest, beacon);
	dice_init_fair(&out->dice, out->seed);

	/* Umpire rulings come first: they are facts of the turn the rules then play out in. */
	const struct order_file *uf = turn_find_file(in, UMPIRE_PLAYER);
	for (size_t i = 0; uf && i < uf->n_rulings; i++) {
		const struct ruling *r = &uf->rulings[i];
		char *purpose = xasprintf("umpire ruling %zu: %s", i + 1, r->what);
		long long total = dice_expr_roll(&out->dice, &r->expr, purpose);
		events_add(&out->events, "umpire", "%s: %s = %lld", r->what, r->notation, total);
		free(purpose);
	}

	/* The rule system gets one entry per due player, in player-id order. */
	size_t n_ro = 0;
	ro = xcalloc(c->n_players + 1, sizeof(*ro));
	for (size_t i = 0; i < n_ids; i++) {
		if (strcmp(ids[i], UMPIRE_PLAYER) == 0)
			continue;
		const struct order_file *f = turn_find_file(in, ids[i]);
		int missing = 0;
		for (size_t k = 0; k < in->n_missing; k++)
			missing |= strcmp(in->missing[k], ids[i]) == 0;
		if (!f && !missing)
			continue;
		ro[n_ro].player = ids[i];
		ro[n_ro].orders = f ? f->orders : NULL;
		n_ro++;
		if (missing)
			events_add(&out->events, "orders", "no orders from %s", ids[i]);
	}
	rt.turn = in->turn;
	rt.orders = ro;
	rt.n_orders = n_ro;
	rt.dice = &out->dice;
	rt.events = &out->events;
	out->rules_first_die = dice_count(&out->dice);
	out->rules_first_event = out->events.n;
	if (c->rules->resolve(&c->rc, state, &rt) < 0) {
		fprintf(stderr, "umpire: internal error: rule system '%s' failed on turn %d\n",
			c->rules->name, in->turn);
		goto done;
	}
	if (rt.summary.len)
		out->summary = xstrdup(buf_str(&rt.summary));
	else
		out->summary = xasprintf("%zu dice, %zu events", out->dice.n, out->events.n);
	for (char *p = out->summary; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';

	if (campaign_emit_state(c, in->turn, state, &out->state_yaml) < 0) {
		fprintf(stderr, "umpire: internal error: cannot emit the state\n");
		goto done;
	}
	fair_sha256(out->state_sha256, out->state_yaml.data, out->state_yaml.len);
	if (render_journal(out, c, in, ids, n_ids) < 0) {
		fprintf(stderr, "umpire: internal error: cannot emit the journal export\n");
		goto done;
	}
	out->reports = xcalloc(c->n_players, sizeof(struct buf));
	out->n_reports = c->n_players;
	for (size_t i = 0; i < c->n_players; i++)
		render_report(&out->reports[i], c, state, in, out, c->players[i]);
	rc = 0;
done:
	buf_release(&rt.summary);
	free(ro);
	free(fo);
	free(ids);
	return rc;
}

static void add_file(struct journal_file **v, size_t *n, const char *path, const void *data,
	size_t len)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].path = xstrdup(path);
	(*v)[*n].bytes = xmalloc(len ? len : 1);
	memcpy((*v)[*n].bytes, data, len);
	(*v)[*n].len = len;
	(*n)++;
}

static void free_files(struct journal_file *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].bytes);
	}
	free(v);
}

static int cmp_jfile(const void *a, const void *b)
{
	return strcmp(((const struct journal_file *)a)->path, ((const struct journal_file *)b)->path);
}

/* The commit message of a record: subject, then trailers anyone can check against the
 * journal export chain and campaign.yaml. */
void turn_commit_message(struct buf *msg, const struct campaign *c, int turn,
	const char *summary, const char *journal_head)
{
	char commitment[65];

	hex_encode(commitment, c->commitment, 32);
	if (turn == 0)
		buf_puts(msg, "Setup\n");
	else
		buf_printf(msg, "Turn %d: %s\n", turn, summary);
	buf_printf(msg, "\nTurn: %d\nJournal-Head: %s\nCommitment: %s\n", turn, journal_head,
		commitment);
}

static void commit_message(struct buf *msg, const struct campaign *c,
	const struct journal_record *r)
{
	turn_commit_message(msg, c, r->turn, r->summary, r->journal_head);
}

static struct repo_file *repo_files(const struct journal_record *r)
{
	struct repo_file *files = xcalloc(r->n_files ? r->n_files : 1, sizeof(*files));
	for (size_t i = 0; i < r->n_files; i++) {
		files[i].path = r->files[i].path;
		files[i].data = r->files[i].bytes;
		files[i].len = r->files[i].len;
	}
	return files;
}

void turn_entry_path(char *out, size_t len, int turn)
{
	if (turn == 0)
		snprintf(out, len, "campaign.yaml");
	else
		snprintf(out, len, "journal/turn-%04d.yaml", turn);
}

void turn_chain_head(uint8_t out[32], const uint8_t prev[32], const void *entry, size_t len)
{
	unsigned char *buf = xmalloc(32 + len);
	memcpy(buf, prev, 32);
	memcpy(buf + 32, entry, len);
	fair_sha256(out, buf, 32 + len);
	free(buf);
}

int turn_commit_record(struct campaign *c, struct journal_record *r)
{
	struct buf err = BUF_INIT, msg = BUF_INIT;
	struct repo_file *files = NULL;
	char tag[16], entry[64], prev_hex[65];
	uint8_t prev[32] = { 0 }, head[32];
	const struct journal_file *ef = NULL;
	int rc = EXIT_IOERR;

	/* The hash chain: head_t = SHA256(head_(t-1) || entry bytes), head_(-1) = 32 zeros. */
	if (r->turn > 0) {
		if (journal_head(c->journal, r->turn - 1, prev_hex, &err) != 0 ||
			hex_decode(prev, 32, prev_hex) < 0) {
			fprintf(stderr, "umpire: cannot read the journal head of turn %d: %s\n", r->turn - 1,
				buf_str(&err));
			goto done;
		}
	}
	turn_entry_path(entry, sizeof(entry), r->turn);
	for (size_t i = 0; i < r->n_files; i++)
		if (strcmp(r->files[i].path, entry) == 0)
			ef = &r->files[i];
	if (!ef) {
		fprintf(stderr, "umpire: internal error: turn %d has no %s\n", r->turn, entry);
		rc = EXIT_SOFTWARE;
		goto done;
	}
	turn_chain_head(head, prev, ef->bytes, ef->len);
	hex32(r->journal_head, head);

	/* Git objects first (unreachable until main moves), so the journal can hold the commit
	 * id the turn must become; then the journal; then main and the tag. */
	files = repo_files(r);
	commit_message(&msg, c, r);
	campaign_turn_tag(tag, r->turn);
	if (repo_build(c->repo, files, r->n_files, buf_str(&msg), r->processed_at, r->commit_id,
		&err) < 0) {
		fprintf(stderr, "umpire: %s\n", buf_str(&err));
		goto done;
	}
	if (journal_append(c->journal, r, &err) < 0) {
		fprintf(stderr, "umpire: %s\n", buf_str(&err));
		goto done;
	}
	if (repo_publish(c->repo, files, r->n_files, r->commit_id, tag, &err) < 0) {
		fprintf(stderr, "umpire: %s\numpire: turn %d is in the journal but not yet in git; the next run will finish it\n",
			buf_str(&err), r->turn);
		goto done;
	}
	rc = EXIT_OK;
done:
	free(files);
	buf_release(&msg);
	buf_release(&err);
	return rc;
}

int turn_commit(struct campaign *c, const struct turn_input *in, const struct turn_output *out,
	long long when)
{
	struct journal_record r;
	struct buf err = BUF_INIT;
	char path[128], tag[16];
	int rc = EXIT_OK;

	memset(&r, 0, sizeof(r));
	campaign_turn_tag(tag, in->turn);
	r.turn = in->turn;
	hex32(r.key, out->key);
	hex32(r.orders_digest, out->digest);
	hex32(r.beacon, out->beacon);
	hex32(r.seed, out->seed);
	hex32(r.state_sha256, out->state_sha256);
	r.summary = out->summary;
	r.processed_at = when;
	r.beacon_value = in->beacon_value;
	r.beacon_round = in->beacon_round;

	r.orders = xcalloc(in->n_files + in->n_missing + 1, sizeof(*r.orders));
	for (size_t i = 0; i < in->n_files; i++) {
		struct journal_order *o = &r.orders[r.n_orders++];
		o->player = in->files[i].player;
		hex32(o->sha256, in->files[i].sha256);
		o->bytes = in->files[i].bytes;
		o->len = in->files[i].len;
	}
	for (size_t i = 0; i < in->n_missing; i++) {
		struct journal_order *o = &r.orders[r.n_orders++];
		o->player = in->missing[i];
	}
	r.dice = out->dice.v;
	r.n_dice = out->dice.n;
	r.events = xcalloc(out->events.n + 1, sizeof(*r.events));
	for (size_t i = 0; i < out->events.n; i++) {
		const struct event *e = &out->events.v[i];
		r.events[i].phase = e->phase;
		r.events[i].kind = (char *)(e->kind == EVENT_VOID ? "void" : "event");
		r.events[i].player = e->player;
		r.events[i].order_index = e->order_index;
		r.events[i].text = e->text;
	}
	r.n_events = out->events.n;

	add_file(&r.files, &r.n_files, "state.yaml", out->state_yaml.data, out->state_yaml.len);
	snprintf(path, sizeof(path), "journal/%s.yaml", tag);
	add_file(&r.files, &r.n_files, path, out->journal_yaml.data, out->journal_yaml.len);
	for (size_t i = 0; i < in->n_files; i++) {
		snprintf(path, sizeof(path), "orders/%s/%s.yaml", tag, in->files[i].player);
		add_file(&r.files, &r.n_files, path, in->files[i].bytes, in->files[i].len);
	}
	for (size_t i = 0; i < out->n_reports; i++) {
		snprintf(path, sizeof(path), "reports/%s/%s.md", tag, c->players[i]);
		add_file(&r.files, &r.n_files, path, out->reports[i].data, out->reports[i].len);
	}
	qsort(r.files, r.n_files, sizeof(*r.files), cmp_jfile);

	rc = turn_commit_record(c, &r);
	free_files(r.files, r.n_files);
	free(r.orders);
	free(r.events);
	buf_release(&err);
	return rc;
}

int turn_recover(struct campaign *c)
{
	struct buf err = BUF_INIT;
	struct journal_record *r = NULL;
	struct repo_file *files = NULL;
	char tag[16], tagged[41], main_id[41], built[41];
	int last = -1, rc = EXIT_IOERR;

	if (journal_last_turn(c->journal, &last, &err) < 0) {
		fprintf(stderr, "umpire: %s\n", buf_str(&err));
		goto done;
	}
	rc = EXIT_SOFTWARE;
	/* A later tag than the journal knows means the journal lost turns: never guess. */
	campaign_turn_tag(tag, last + 1);
	if (repo_has(c->repo, tag)) {
		fprintf(stderr, "umpire: git has %s but the journal ends at turn %d: the journal is behind the history (restore .umpire/journal.sqlite from a backup)\n",
			tag, last);
		goto done;
	}
	if (last < 0) {
		fprintf(stderr, "umpire: the journal is empty: not an umpire campaign, or setup never finished\n");
		goto done;
	}
	if (journal_read(c->journal, last, &r, &err) != 0) {
		fprintf(stderr, "umpire: cannot read turn %d from the journal: %s\n", last, buf_str(&err));
		rc = EXIT_IOERR;
		goto done;
	}
	campaign_turn_tag(tag, last);
	if (repo_commit_id(c->repo, "refs/heads/main", main_id, &err) != 0)
		main_id[0] = '\0';
	if (repo_commit_id(c->repo, tag, tagged, &err) == 0) {
		if (strcmp(tagged, r->commit_id) != 0) {
			fprintf(stderr, "umpire: tag %s points at %s but the journal says turn %d is commit %s: the history was rewritten\n",
				tag, tagged, last, r->commit_id);
			goto done;
		}
		if (strcmp(main_id, r->commit_id) != 0) {
			fprintf(stderr, "umpire: main is at %s, not at %s (turn %d): the branch was moved (reset it to %s)\n",
				main_id[0] ? main_id : "nothing", r->commit_id, last, tag);
			goto done;
		}
		rc = EXIT_OK;
		goto done;
	}
	/* The journal holds a turn git has not finished: rebuild its commit from the journal's
	 * files (same bytes, message and time: the same id) and publish it. */
	files = repo_files(r);
	if (strcmp(main_id, r->commit_id) != 0) {
		struct buf msg = BUF_INIT;
		commit_message(&msg, c, r);
		int b = repo_build(c->repo, files, r->n_files, buf_str(&msg), r->processed_at, built, &err);
		buf_release(&msg);
		if (b < 0) {
			fprintf(stderr, "umpire: cannot finish turn %d: %s\n", last, buf_str(&err));
			goto done;
		}
		if (strcmp(built, r->commit_id) != 0) {
			fprintf(stderr, "umpire: cannot finish turn %d: main is at %s, which is not the parent of the journaled commit %s (the branch was moved; reset it to turn-%04d)\n",
				last, main_id[0] ? main_id : "nothing", r->commit_id, last - 1);
			goto done;
		}
	}
	if (repo_publish(c->repo, files, r->n_files, r->commit_id, tag, &err) < 0) {
		fprintf(stderr, "umpire: cannot finish turn %d: %s\n", last, buf_str(&err));
		rc = EXIT_IOERR;
		goto done;
	}
	fprintf(stderr, "umpire: recovered turn %d: it was in the journal but not finished in git; committed and tagged %s\n",
		last, tag);
	rc = EXIT_OK;
done:
	free(files);
	journal_record_free(r);
	buf_release(&err);
	return rc;
}

int turn_same_orders(struct campaign *c, int turn, char *const *paths, size_t n)
{
	struct journal_record *r = NULL;
	struct buf err = BUF_INIT;
	int same = 0;

	if (turn < 1 || journal_read(c->journal, turn, &r, &err) != 0)
		goto done;
	size_t with_bytes = 0;
	for (size_t i = 0; i < r->n_orders; i++)
		with_bytes += r->orders[i].bytes != NULL;
	if (with_bytes != n)
		goto done;
	same = 1;
	for (size_t k = 0; k < n && same; k++) {
		struct buf b = BUF_INIT;
		FILE *fp = fopen(paths[k], "rb");
		char chunk[4096];
		size_t got;
		if (!fp) {
			same = 0;
			break;
		}
		while ((got = fread(chunk, 1, sizeof(chunk), fp)) > 0 && b.len <= ORDER_FILE_MAX_BYTES)
			buf_append(&b, chunk, got);
		fclose(fp);
		uint8_t h[32];
		char hex[65];
		fair_sha256(h, b.data ? b.data : "", b.len);
		hex_encode(hex, h, 32);
		int found = 0;
		for (size_t i = 0; i < r->n_orders; i++)
			found |= r->orders[i].bytes && strcmp(r->orders[i].sha256, hex) == 0;
		same = found;
		buf_release(&b);
	}
done:
	journal_record_free(r);
	buf_release(&err);
	return same;
}
